//! `--engines FILE`: the engines of a tournament, each a section of an INI-like text file.
//!
//! ```text
//! # Lines starting with '#' or ';' and blank lines are ignored.
//! [hoshi-hard]
//! command = pbrain-hoshi --level hard
//!
//! [hoshi-50]
//! command = pbrain-hoshi --strength 50
//! hash = 64
//! ```
//!
//! A section's header is the engine's name; `command` is its command line (shell-like
//! quoting); every other `KEY = VALUE` line is an option sent as `INFO KEY VALUE` before
//! each game, in the order written.

use std::path::Path;

use super::engine::{EngineSpec, split_command};

/// Reads the engines of `path`; an error names the file and line and what is wrong.
pub fn load(path: &Path) -> Result<Vec<EngineSpec>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read --engines {}: {e}", path.display()))?;
    parse(&text).map_err(|e| format!("{}:{e}", path.display()))
}

/// Parses the text of an engine file; errors start with the line number.
pub fn parse(text: &str) -> Result<Vec<EngineSpec>, String> {
    let mut specs: Vec<EngineSpec> = Vec::new();
    // The line of each section's header, to name it when the command is missing.
    let mut headers: Vec<usize> = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let number = index + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        if let Some(inner) = line.strip_prefix('[') {
            let name = inner
                .strip_suffix(']')
                .map(str::trim)
                .filter(|n| !n.is_empty())
                .ok_or_else(|| format!("{number}: {line:?} is not a section header [NAME]"))?;
            if specs.iter().any(|s| s.name == name) {
                return Err(format!("{number}: a second engine is named {name:?}"));
            }
            specs.push(EngineSpec {
                name: name.to_owned(),
                argv: Vec::new(),
                options: Vec::new(),
            });
            headers.push(number);
            continue;
        }
        let (key, value) = line
            .split_once('=')
            .map(|(k, v)| (k.trim(), v.trim()))
            .filter(|(k, _)| !k.is_empty())
            .ok_or_else(|| format!("{number}: {line:?} is neither [NAME] nor KEY = VALUE"))?;
        let spec = specs
            .last_mut()
            .ok_or_else(|| format!("{number}: {key:?} comes before any [NAME] section"))?;
        if key == "command" {
            if !spec.argv.is_empty() {
                return Err(format!(
                    "{number}: engine {:?} has a second command",
                    spec.name
                ));
            }
            spec.argv = split_command(value).map_err(|e| format!("{number}: {e}"))?;
        } else {
            spec.options.push((key.to_owned(), value.to_owned()));
        }
    }
    for (spec, line) in specs.iter().zip(&headers) {
        if spec.argv.is_empty() {
            return Err(format!(
                "{line}: engine {:?} has no `command = ...` line",
                spec.name
            ));
        }
    }
    Ok(specs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_give_names_commands_and_options() {
        let specs =
            parse("# engines\n[a]\ncommand = prog 'x y'\nhash = 64\n\n[b b]\n; c\ncommand=other\n")
                .unwrap();
        assert_eq!(specs.len(), 2);
        assert_eq!(specs[0].argv, ["prog", "x y"]);
        assert_eq!(specs[0].options, [("hash".to_owned(), "64".to_owned())]);
        assert_eq!(specs[1].name, "b b");
        assert_eq!(specs[1].argv, ["other"]);
    }

    #[test]
    fn mistakes_name_their_line() {
        let cases = [
            ("[a]\ncommand = p\n[a]\ncommand = q\n", "3: a second engine"),
            ("hash = 1\n", "1: \"hash\" comes before"),
            ("[a]\njunk\n", "2: \"junk\" is neither"),
            ("[a]\nhash = 1\n", "1: engine \"a\" has no `command"),
            ("[a\n", "1: \"[a\" is not a section"),
            ("[a]\ncommand = 'open\n", "2: "),
        ];
        for (text, start) in cases {
            let err = parse(text).unwrap_err();
            assert!(err.starts_with(start), "{text:?}: {err}");
        }
    }
}
