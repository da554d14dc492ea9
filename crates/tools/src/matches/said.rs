//! What an engine's output line means to the runner, and its ABOUT answer read leniently.
//!
//! Managers differ in what they forgive (protocol.md §9): c-gomoku-cli skips every line
//! that is no move while it waits for one, Piskvork and liskvork fail the engine on it.
//! The runner sorts each line into one of the kinds below so that the referee can skip
//! the harmless ones (`MESSAGE`, `DEBUG`), note the odd ones as quirks (an `ERROR` or
//! `UNKNOWN` nobody asked for, a `SUGGEST`, a stray `OK`) and never take them for a move.

/// One line an engine printed, trimmed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Said<'a> {
    /// `MESSAGE …` or `DEBUG …`: shown or logged by managers, never an answer.
    Chatter,
    /// `ERROR …`.
    Error,
    /// `UNKNOWN …`.
    Unknown,
    /// `SUGGEST x,y` (Piskvork's human-opponent protocol; other managers ignore it).
    Suggest,
    /// `OK`.
    Ok,
    /// `x,y`.
    Move(i64, i64),
    /// Anything else (an ABOUT answer, or garbage where a move is due).
    Other(&'a str),
}

impl<'a> Said<'a> {
    /// Sorts a line. Keywords are matched case-insensitively, as Piskvork does.
    #[must_use]
    pub fn of(line: &'a str) -> Said<'a> {
        let line = line.trim();
        let word = line.split_whitespace().next().unwrap_or("");
        let is = |w: &str| word.eq_ignore_ascii_case(w);
        if is("MESSAGE") || is("DEBUG") {
            Said::Chatter
        } else if is("ERROR") {
            Said::Error
        } else if is("UNKNOWN") {
            Said::Unknown
        } else if is("SUGGEST") {
            Said::Suggest
        } else if line.eq_ignore_ascii_case("OK") {
            Said::Ok
        } else if let Some((x, y)) = parse_move(line) {
            Said::Move(x, y)
        } else {
            Said::Other(line)
        }
    }
}

/// `x,y` with optional spaces around the comma, as every manager accepts.
#[must_use]
pub fn parse_move(line: &str) -> Option<(i64, i64)> {
    let (x, y) = line.split_once(',')?;
    Some((x.trim().parse().ok()?, y.trim().parse().ok()?))
}

/// An ABOUT answer: `key="value"` pairs, read leniently (spaces around `=`, unquoted
/// values, any separators), with what a strict reader would object to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct About {
    pub fields: Vec<(String, String)>,
    /// Whether the line is exactly `key="value"` pairs joined by `", "` (the Spec's
    /// example; liskvork and the protocol tests accept only that).
    pub strict: bool,
}

impl About {
    #[must_use]
    pub fn parse(line: &str) -> About {
        let mut fields = Vec::new();
        let mut rest = line.trim();
        while let Some(eq) = rest.find('=') {
            // The key is the last word before `=`.
            let key = rest[..eq]
                .trim_end()
                .rsplit(|c: char| c.is_whitespace() || c == ',')
                .next()
                .unwrap_or("");
            let after = rest[eq + 1..].trim_start();
            let (value, tail) = match after.strip_prefix('"') {
                Some(quoted) => match quoted.find('"') {
                    Some(end) => (&quoted[..end], &quoted[end + 1..]),
                    None => (quoted, ""),
                },
                None => {
                    let end = after.find(',').unwrap_or(after.len());
                    (after[..end].trim_end(), &after[end..])
                }
            };
            if !key.is_empty() {
                fields.push((key.to_ascii_lowercase(), value.to_owned()));
            }
            rest = tail;
        }
        let canonical = fields
            .iter()
            .map(|(k, v)| format!("{k}=\"{v}\""))
            .collect::<Vec<_>>()
            .join(", ");
        let strict = !fields.is_empty() && canonical == line.trim();
        About { fields, strict }
    }

    /// The value of `key`, if given.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_sorted_as_managers_read_them() {
        assert_eq!(Said::of("7,8"), Said::Move(7, 8));
        assert_eq!(Said::of(" 7 , 8 \r"), Said::Move(7, 8));
        assert_eq!(Said::of("-1,3"), Said::Move(-1, 3));
        assert_eq!(Said::of("MESSAGE thinking"), Said::Chatter);
        assert_eq!(Said::of("debug x"), Said::Chatter);
        assert_eq!(Said::of("MESSAGES"), Said::Other("MESSAGES"));
        assert_eq!(Said::of("ERROR Unknown command: TIME_LEFT"), Said::Error);
        assert_eq!(Said::of("UNKNOWN"), Said::Unknown);
        assert_eq!(Said::of("SUGGEST 7,7"), Said::Suggest);
        assert_eq!(Said::of("ok"), Said::Ok);
        assert_eq!(
            Said::of("OK - everything is good"),
            Said::Other("OK - everything is good")
        );
        assert_eq!(Said::of("7;8"), Said::Other("7;8"));
        assert_eq!(Said::of("7,8,1"), Said::Other("7,8,1"));
    }

    #[test]
    fn about_answers_of_real_engines_are_read() {
        let rapfi = About::parse(
            r#"name="Rapfi", version="0.43.02 (g++ 12.2.0)", author="Rapfi developers", country="China""#,
        );
        assert!(rapfi.strict);
        assert_eq!(rapfi.get("name"), Some("Rapfi"));
        assert_eq!(rapfi.get("version"), Some("0.43.02 (g++ 12.2.0)"));
        // AIWine: spaces around `=`.
        let wine = About::parse(
            r#"name = "Wine", version ="2.1", author = "JinJieWang", country = "China""#,
        );
        assert!(!wine.strict);
        assert_eq!(
            (wine.get("name"), wine.get("author")),
            (Some("Wine"), Some("JinJieWang"))
        );
        // pela: no name, and two spaces before the last pair.
        let pela = About::parse(
            r#"author="Petr Lastovicka", version="7.9", country="Czech Republic",  www="https://plastovicka.github.io""#,
        );
        assert!(!pela.strict);
        assert_eq!(pela.get("name"), None);
        assert_eq!(pela.get("www"), Some("https://plastovicka.github.io"));
        // Unquoted values and free text.
        let bare = About::parse("name=x, version=1");
        assert_eq!(
            (bare.get("name"), bare.get("version")),
            (Some("x"), Some("1"))
        );
        assert!(!bare.strict);
        let text = About::parse("Just an engine");
        assert!(text.fields.is_empty() && !text.strict);
    }
}
