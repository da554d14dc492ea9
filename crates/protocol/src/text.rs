//! The lexing every part of the vocabulary shares: words, numbers, quoted input and free
//! text.

use crate::error::ParseError;

/// The first whitespace-separated word and the trimmed rest.
pub(crate) fn split_word(line: &str) -> (&str, &str) {
    let line = line.trim();
    match line.split_once(char::is_whitespace) {
        Some((word, rest)) => (word, rest.trim()),
        None => (line, ""),
    }
}

/// Input quoted back in a reply: cut short, so that a huge line cannot make a huge reply.
pub(crate) fn shown(text: &str) -> String {
    const MAX: usize = 40;
    if text.chars().count() <= MAX {
        text.to_string()
    } else {
        text.chars().take(MAX).chain("...".chars()).collect()
    }
}

/// Free text as a line may carry it: control characters (line breaks included) become
/// spaces, so that no text can turn one line into two.
pub(crate) fn flat(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// Exactly `N` comma-separated signed integers, spaces allowed around the commas.
pub(crate) fn numbers<const N: usize>(
    args: &str,
    cmd: &str,
    example: &str,
) -> Result<[i64; N], ParseError> {
    let bad = || ParseError::Numbers {
        what: cmd.to_string(),
        count: N,
        example: example.to_string(),
        got: shown(args),
    };
    let parts: Vec<&str> = args.split(',').map(str::trim).collect();
    if parts.len() != N {
        return Err(bad());
    }
    let mut out = [0; N];
    for (slot, part) in out.iter_mut().zip(parts) {
        *slot = part.parse().map_err(|_| {
            if !part.is_empty()
                && part
                    .bytes()
                    .all(|b| b.is_ascii_digit() || b == b'-' || b == b'+')
            {
                ParseError::OutOfRange {
                    what: cmd.to_string(),
                    number: shown(part),
                }
            } else {
                bad()
            }
        })?;
    }
    Ok(out)
}
