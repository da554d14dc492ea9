//! Engine replies: what an engine answers, one [`ReplyLine`] per line, parsed and printed.
//!
//! Every reply is one line: `OK`, `ERROR text`, `UNKNOWN text`, a move `x,y`, several
//! stones `x,y x,y ...` (the swap2 opening, a balancing pair), `SWAP`, the ABOUT line's
//! `key="value"` list, `FORBID` and its list; before an answer, an engine may write
//! `MESSAGE`/`DEBUG` lines, which managers show or log, and `SUGGEST x,y` (Piskvork's
//! human-opponent protocol). Yixin-Board reads more out of `MESSAGE` lines: the realtime
//! marks of a search, its swap2 dialogue and the limits of its settings dialog; asked
//! for them, an engine may also write Rapfi's `INFO` analysis lines before a move
//! ([`Analysis`]).
//!
//! Free text is printed with its control characters as spaces, so that no reply can turn
//! into two lines, and `ERROR`/`UNKNOWN` never without text, since managers need some
//! after the word. Words parse case-insensitively, as Piskvork reads them.

use std::fmt;
use std::str::FromStr;

use crate::analysis::Analysis;
use crate::coord::Coord;
use crate::text::{flat, numbers, split_word};

/// One line an engine writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplyLine {
    /// `OK`: the answer to `START` (and other commands that only need a yes).
    Ok,
    /// `ERROR text`: a refused request.
    Error(String),
    /// `UNKNOWN text`: a command the engine does not support.
    Unknown(String),
    /// `MESSAGE text`: shown by managers; never an answer.
    Message(String),
    /// `DEBUG text`: logged by managers; never an answer.
    Debug(String),
    /// `SUGGEST x,y`: a move offered to a human opponent; never an answer.
    Suggest(Coord),
    /// `x,y`: a move.
    Move(Coord),
    /// `x,y x,y ...`: several stones on one line. One stone alone is a [`ReplyLine::Move`].
    Stones(Vec<Coord>),
    /// `SWAP`: in swap2, take black.
    Swap,
    /// The ABOUT answer.
    About(About),
    /// `FORBID xxyy....`: black's forbidden points, each as two two-digit numbers, and a
    /// final dot.
    Forbid(Vec<Coord>),
    /// `MESSAGE REALTIME ...`: Yixin-Board's marks of a search as it deepens.
    Realtime(Realtime),
    /// `MESSAGE SWAP2 MOVE<number> x y`: a stone of Yixin's swap2 dialogue, by its
    /// number in the game. Yixin-Board reads `a b` into its (row, column), our (x, y).
    YixinSwap2Move { number: usize, stone: Coord },
    /// `MESSAGE SWAP2 SWAP<swap> YES|NO`: whether Yixin's swap2 dialogue takes black
    /// after the three-stone opening (`SWAP1`) or the five-stone one (`SWAP2`).
    YixinSwap2Choice { swap: u8, take_black: bool },
    /// `MESSAGE INFO MAX_THREAD_NUM n`: the most search threads (`YXSHOWINFO`).
    YixinMaxThreads(usize),
    /// `MESSAGE INFO MAX_HASH_SIZE n`: log2 of the largest table in KiB (`YXSHOWINFO`).
    YixinMaxHashSize(u32),
    /// `INFO KEY value`: a line of Rapfi's analysis block; never an answer.
    Analysis(Analysis),
}

/// The realtime marks Yixin-Board reads after each iteration of a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Realtime {
    /// `REFRESH`: clear the marks of the moves being searched.
    Refresh,
    /// `LOST x,y`: this move is proved lost.
    Lost(Coord),
    /// `BEST x,y`: the best move so far.
    Best(Coord),
}

/// Why a line is not a reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadReply {
    /// A reply word with text after it that does not fit it (`SUGGEST 7`, `OK then`).
    Arguments { word: String, got: String },
    /// No reply at all (the whole line).
    NotAReply(String),
}

impl fmt::Display for BadReply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadReply::Arguments { word, got } => write!(f, "{word} cannot take '{got}'"),
            BadReply::NotAReply(line) => write!(f, "'{line}' is no reply"),
        }
    }
}

impl std::error::Error for BadReply {}

/// The ABOUT answer: `key="value"` pairs joined by `", "`, keys in lower case.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct About {
    pub fields: Vec<(String, String)>,
}

impl About {
    /// Reads an ABOUT answer leniently, as engines write them: spaces around `=`, unquoted
    /// values, any separators. A line with no `=` has no fields.
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
        About { fields }
    }

    /// Whether `line`, which these fields were read from, is exactly how they print (the
    /// Spec's example form, the only one liskvork and the protocol tests accept).
    #[must_use]
    pub fn is_strict(&self, line: &str) -> bool {
        !self.fields.is_empty() && self.joined(str::to_owned) == line.trim()
    }

    /// The fields as printed, each value through `value`.
    fn joined(&self, value: impl Fn(&str) -> String) -> String {
        let pairs: Vec<String> = self
            .fields
            .iter()
            .map(|(k, v)| format!("{k}=\"{}\"", value(v)))
            .collect();
        pairs.join(", ")
    }

    /// The value of `key` (lower case), if given.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

impl fmt::Display for About {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.joined(flat))
    }
}

/// Text that must not be empty after its word: `-` stands in for none.
fn some(text: &str) -> String {
    let text = flat(text);
    if text.trim().is_empty() {
        "-".into()
    } else {
        text
    }
}

impl fmt::Display for ReplyLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let stones = |f: &mut fmt::Formatter<'_>, stones: &[Coord]| {
            stones.iter().enumerate().try_for_each(|(i, c)| {
                let space = if i > 0 { " " } else { "" };
                write!(f, "{space}{c}")
            })
        };
        match self {
            ReplyLine::Ok => f.write_str("OK"),
            ReplyLine::Error(text) => write!(f, "ERROR {}", some(text)),
            ReplyLine::Unknown(text) => write!(f, "UNKNOWN {}", some(text)),
            ReplyLine::Message(text) => write!(f, "MESSAGE {}", flat(text)),
            ReplyLine::Debug(text) => write!(f, "DEBUG {}", flat(text)),
            ReplyLine::Suggest(c) => write!(f, "SUGGEST {c}"),
            ReplyLine::Move(c) => write!(f, "{c}"),
            ReplyLine::Stones(list) => stones(f, list),
            ReplyLine::Swap => f.write_str("SWAP"),
            ReplyLine::About(about) => write!(f, "{about}"),
            ReplyLine::Forbid(points) => {
                f.write_str("FORBID ")?;
                for c in points {
                    write!(f, "{:02}{:02}", c.x, c.y)?;
                }
                f.write_str(".")
            }
            ReplyLine::Realtime(Realtime::Refresh) => f.write_str("MESSAGE REALTIME REFRESH"),
            ReplyLine::Realtime(Realtime::Lost(c)) => write!(f, "MESSAGE REALTIME LOST {c}"),
            ReplyLine::Realtime(Realtime::Best(c)) => write!(f, "MESSAGE REALTIME BEST {c}"),
            ReplyLine::YixinSwap2Move { number, stone } => {
                write!(f, "MESSAGE SWAP2 MOVE{number} {} {}", stone.x, stone.y)
            }
            ReplyLine::YixinSwap2Choice { swap, take_black } => {
                let answer = if *take_black { "YES" } else { "NO" };
                write!(f, "MESSAGE SWAP2 SWAP{swap} {answer}")
            }
            ReplyLine::YixinMaxThreads(n) => write!(f, "MESSAGE INFO MAX_THREAD_NUM {n}"),
            ReplyLine::YixinMaxHashSize(n) => write!(f, "MESSAGE INFO MAX_HASH_SIZE {n}"),
            ReplyLine::Analysis(line) => write!(f, "INFO {line}"),
        }
    }
}

impl FromStr for ReplyLine {
    type Err = BadReply;

    /// Reads a line by its first word, else by its shape: a move, stones, an ABOUT list.
    /// An `INFO` line must be one of the analysis block's.
    /// `MESSAGE`, `DEBUG`, `ERROR` and `UNKNOWN` take any text, so a line with one of
    /// those words always parses; a `MESSAGE` that Yixin-Board would not read as one of
    /// its forms is plain text.
    fn from_str(line: &str) -> Result<ReplyLine, BadReply> {
        let line = line.trim();
        let (word, rest) = split_word(line);
        let bad = || BadReply::Arguments {
            word: word.to_ascii_uppercase(),
            got: rest.to_owned(),
        };
        match word.to_ascii_uppercase().as_str() {
            "OK" if rest.is_empty() => Ok(ReplyLine::Ok),
            "SWAP" if rest.is_empty() => Ok(ReplyLine::Swap),
            "OK" | "SWAP" => Err(bad()),
            "ERROR" => Ok(ReplyLine::Error(rest.to_owned())),
            "UNKNOWN" => Ok(ReplyLine::Unknown(rest.to_owned())),
            "DEBUG" => Ok(ReplyLine::Debug(rest.to_owned())),
            "MESSAGE" => Ok(message(rest)),
            "SUGGEST" => coord(rest).map(ReplyLine::Suggest).ok_or_else(bad),
            "FORBID" => forbid(rest).map(ReplyLine::Forbid).ok_or_else(bad),
            "INFO" => Analysis::parse(rest)
                .map(ReplyLine::Analysis)
                .ok_or_else(bad),
            _ => {
                if let Some(c) = coord(line) {
                    return Ok(ReplyLine::Move(c));
                }
                let list: Option<Vec<Coord>> = line.split_whitespace().map(coord).collect();
                if let Some(list) = list.filter(|l| l.len() > 1) {
                    return Ok(ReplyLine::Stones(list));
                }
                let about = About::parse(line);
                if about.fields.is_empty() {
                    Err(BadReply::NotAReply(line.to_owned()))
                } else {
                    Ok(ReplyLine::About(about))
                }
            }
        }
    }
}

/// `x,y`, spaces allowed around the comma, as every manager accepts.
fn coord(text: &str) -> Option<Coord> {
    numbers(text, "", "").ok().map(|[x, y]| Coord { x, y })
}

/// The list after `FORBID`: groups of four digits, then a dot.
fn forbid(text: &str) -> Option<Vec<Coord>> {
    let digits = text.strip_suffix('.')?;
    if !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() % 4 != 0 {
        return None;
    }
    let number = |s: &str| s.parse::<i64>().ok();
    (0..digits.len())
        .step_by(4)
        .map(|i| {
            Some(Coord {
                x: number(digits.get(i..i + 2)?)?,
                y: number(digits.get(i + 2..i + 4)?)?,
            })
        })
        .collect()
}

/// The text after `MESSAGE`: one of Yixin-Board's forms, else plain text.
fn message(text: &str) -> ReplyLine {
    let words: Vec<String> = text
        .split_whitespace()
        .map(str::to_ascii_uppercase)
        .collect();
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let yixin = match words.as_slice() {
        ["REALTIME", "REFRESH"] => Some(ReplyLine::Realtime(Realtime::Refresh)),
        ["REALTIME", "LOST", c] => coord(c).map(|c| ReplyLine::Realtime(Realtime::Lost(c))),
        ["REALTIME", "BEST", c] => coord(c).map(|c| ReplyLine::Realtime(Realtime::Best(c))),
        ["SWAP2", step, x, y] => step.strip_prefix("MOVE").and_then(|n| {
            Some(ReplyLine::YixinSwap2Move {
                number: n.parse().ok()?,
                stone: Coord {
                    x: x.parse().ok()?,
                    y: y.parse().ok()?,
                },
            })
        }),
        ["SWAP2", step, answer @ ("YES" | "NO")] => step
            .strip_prefix("SWAP")
            .and_then(|n| n.parse().ok())
            .map(|swap| ReplyLine::YixinSwap2Choice {
                swap,
                take_black: *answer == "YES",
            }),
        ["INFO", "MAX_THREAD_NUM", n] => n.parse().ok().map(ReplyLine::YixinMaxThreads),
        ["INFO", "MAX_HASH_SIZE", n] => n.parse().ok().map(ReplyLine::YixinMaxHashSize),
        _ => None,
    };
    yixin.unwrap_or_else(|| ReplyLine::Message(text.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{Eval, WinRate};

    fn c(x: i64, y: i64) -> Coord {
        Coord { x, y }
    }

    fn about(fields: &[(&str, &str)]) -> About {
        About {
            fields: fields
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect(),
        }
    }

    /// One value of every variant.
    fn every_reply() -> Vec<ReplyLine> {
        vec![
            ReplyLine::Ok,
            ReplyLine::Error("no game started: send START first".into()),
            ReplyLine::Unknown("command FOO is not supported".into()),
            ReplyLine::Message("depth 5 eval -35 pv 7,7 8,8".into()),
            ReplyLine::Debug("board ready".into()),
            ReplyLine::Suggest(c(0, 0)),
            ReplyLine::Move(c(9, 12)),
            ReplyLine::Stones(vec![c(7, 7), c(8, 6), c(6, 8)]),
            ReplyLine::Swap,
            ReplyLine::About(about(&[
                ("name", "Hoshi"),
                ("version", "0.1.0"),
                ("author", "Hoshi developers"),
            ])),
            ReplyLine::Forbid(vec![c(9, 12), c(10, 1)]),
            ReplyLine::Forbid(vec![]),
            ReplyLine::Realtime(Realtime::Refresh),
            ReplyLine::Realtime(Realtime::Lost(c(8, 7))),
            ReplyLine::Realtime(Realtime::Best(c(7, 7))),
            ReplyLine::YixinSwap2Move {
                number: 4,
                stone: c(6, 10),
            },
            ReplyLine::YixinSwap2Choice {
                swap: 1,
                take_black: true,
            },
            ReplyLine::YixinSwap2Choice {
                swap: 2,
                take_black: false,
            },
            ReplyLine::YixinMaxThreads(64),
            ReplyLine::YixinMaxHashSize(22),
        ]
        .into_iter()
        .chain(every_analysis().into_iter().map(ReplyLine::Analysis))
        .collect()
    }

    /// One value of every analysis line, and then some of the values that vary.
    fn every_analysis() -> Vec<Analysis> {
        vec![
            Analysis::Pv(0),
            Analysis::NumPv(3),
            Analysis::Depth(12),
            Analysis::SelDepth(19),
            Analysis::Nodes(52_311),
            Analysis::TotalNodes(u64::MAX),
            Analysis::TotalTime(131),
            Analysis::Speed(459_633),
            Analysis::Eval(Eval::Score(-35)),
            Analysis::WinRate(WinRate::new(0.731_059)),
            Analysis::BestLine(vec![c(7, 7), c(8, 8), c(10, 12)]),
            Analysis::PvDone,
            Analysis::Eval(Eval::Win(3)),
            Analysis::Eval(Eval::Loss(0)),
            Analysis::WinRate(WinRate::new(1.0)),
            Analysis::WinRate(WinRate::new(0.0)),
            Analysis::WinRate(WinRate::new(0.000_012_345)),
            Analysis::BestLine(vec![]),
        ]
    }

    /// Which analysis line `line` is, as [`variant`] counts the replies.
    fn analysis_variant(line: &Analysis) -> usize {
        match line {
            Analysis::Pv(_) => 0,
            Analysis::NumPv(_) => 1,
            Analysis::Depth(_) => 2,
            Analysis::SelDepth(_) => 3,
            Analysis::Nodes(_) => 4,
            Analysis::TotalNodes(_) => 5,
            Analysis::TotalTime(_) => 6,
            Analysis::Speed(_) => 7,
            Analysis::Eval(_) => 8,
            Analysis::WinRate(_) => 9,
            Analysis::BestLine(_) => 10,
            Analysis::PvDone => 11,
        }
    }
    const ANALYSIS_VARIANTS: usize = 12;

    #[test]
    fn every_analysis_line_has_an_example() {
        crate::coverage::assert_every_variant(
            &every_analysis(),
            analysis_variant,
            ANALYSIS_VARIANTS,
        );
    }

    #[test]
    fn the_analysis_block_prints_as_rapfi_writes_it() {
        let text: Vec<String> = every_analysis()[..12]
            .iter()
            .map(|a| ReplyLine::Analysis(a.clone()).to_string())
            .collect();
        assert_eq!(
            text,
            [
                "INFO PV 0",
                "INFO NUMPV 3",
                "INFO DEPTH 12",
                "INFO SELDEPTH 19",
                "INFO NODES 52311",
                "INFO TOTALNODES 18446744073709551615",
                "INFO TOTALTIME 131",
                "INFO SPEED 459633",
                "INFO EVAL -35",
                "INFO WINRATE 0.731059",
                "INFO BESTLINE 7,7 8,8 10,12",
                "INFO PV DONE",
            ]
        );
        assert_eq!(
            "info winrate 0.5".parse(),
            Ok(ReplyLine::Analysis(Analysis::WinRate(WinRate::new(0.5))))
        );
        assert!(matches!(
            "INFO show_detail 3".parse::<ReplyLine>(),
            Err(BadReply::Arguments { word, .. }) if word == "INFO"
        ));
    }

    /// Which variant `reply` is; a new variant does not compile until it is given a
    /// number here, and [`VARIANTS`] counts them, so `every_reply` cannot fall behind.
    fn variant(reply: &ReplyLine) -> usize {
        match reply {
            ReplyLine::Ok => 0,
            ReplyLine::Error(_) => 1,
            ReplyLine::Unknown(_) => 2,
            ReplyLine::Message(_) => 3,
            ReplyLine::Debug(_) => 4,
            ReplyLine::Suggest(_) => 5,
            ReplyLine::Move(_) => 6,
            ReplyLine::Stones(_) => 7,
            ReplyLine::Swap => 8,
            ReplyLine::About(_) => 9,
            ReplyLine::Forbid(_) => 10,
            ReplyLine::Realtime(_) => 11,
            ReplyLine::YixinSwap2Move { .. } => 12,
            ReplyLine::YixinSwap2Choice { .. } => 13,
            ReplyLine::YixinMaxThreads(_) => 14,
            ReplyLine::YixinMaxHashSize(_) => 15,
            ReplyLine::Analysis(_) => 16,
        }
    }
    const VARIANTS: usize = 17;

    #[test]
    fn every_reply_round_trips_through_print_and_parse() {
        let all = every_reply();
        crate::coverage::assert_every_variant(&all, variant, VARIANTS);
        for reply in all {
            let line = reply.to_string();
            assert!(!line.contains(['\n', '\r']), "{line:?}");
            assert_eq!(line.parse(), Ok(reply), "{line}");
        }
    }

    #[test]
    fn replies_print_in_their_wire_form() {
        let text = |r: ReplyLine| r.to_string();
        assert_eq!(text(ReplyLine::Move(c(9, 12))), "9,12");
        assert_eq!(text(ReplyLine::Stones(vec![c(7, 7), c(8, 6)])), "7,7 8,6");
        assert_eq!(
            text(ReplyLine::Forbid(vec![c(9, 12), c(10, 11)])),
            "FORBID 09121011."
        );
        assert_eq!(text(ReplyLine::Forbid(vec![])), "FORBID .");
        assert_eq!(
            text(ReplyLine::YixinSwap2Move {
                number: 4,
                stone: c(6, 6)
            }),
            "MESSAGE SWAP2 MOVE4 6 6"
        );
        assert_eq!(
            text(ReplyLine::About(about(&[
                ("name", "Hoshi"),
                ("version", "1")
            ]))),
            r#"name="Hoshi", version="1""#
        );
    }

    #[test]
    fn free_text_stays_on_one_line_and_errors_are_never_empty() {
        assert_eq!(ReplyLine::Error("a\r\nb".into()).to_string(), "ERROR a  b");
        assert_eq!(ReplyLine::Unknown(String::new()).to_string(), "UNKNOWN -");
        assert_eq!(ReplyLine::Error(" \n".into()).to_string(), "ERROR -");
        // Message text is kept as given, spaces included, but for line breaks.
        assert_eq!(
            ReplyLine::Message("(1) pv \n".into()).to_string(),
            "MESSAGE (1) pv  "
        );
    }

    #[test]
    fn lines_parse_as_managers_read_them() {
        let parse = |line: &str| line.parse::<ReplyLine>();
        assert_eq!(parse(" 7 , 8 \r"), Ok(ReplyLine::Move(c(7, 8))));
        assert_eq!(parse("ok"), Ok(ReplyLine::Ok));
        assert_eq!(
            parse("message  hi  there "),
            Ok(ReplyLine::Message("hi  there".into()))
        );
        assert_eq!(parse("ERROR"), Ok(ReplyLine::Error(String::new())));
        assert_eq!(
            parse("MESSAGE REALTIME LOST x"),
            Ok(ReplyLine::Message("REALTIME LOST x".into()))
        );
        for (line, word) in [
            ("OK - fine", "OK"),
            ("SUGGEST 7", "SUGGEST"),
            ("FORBID 123.", "FORBID"),
        ] {
            assert!(
                matches!(parse(line), Err(BadReply::Arguments { word: w, .. }) if w == word),
                "{line}"
            );
        }
        for line in ["7,8,1", "7;8", "MESSAGES", "Just an engine", ""] {
            assert!(matches!(parse(line), Err(BadReply::NotAReply(_))), "{line}");
        }
    }

    #[test]
    fn about_answers_of_real_engines_are_read() {
        let read = |line: &str| (About::parse(line), line.to_owned());
        let (rapfi, line) = read(
            r#"name="Rapfi", version="0.43.02 (g++ 12.2.0)", author="Rapfi developers", country="China""#,
        );
        assert!(rapfi.is_strict(&line));
        assert_eq!(rapfi.get("name"), Some("Rapfi"));
        assert_eq!(rapfi.get("version"), Some("0.43.02 (g++ 12.2.0)"));
        // AIWine: spaces around `=`.
        let (wine, line) =
            read(r#"name = "Wine", version ="2.1", author = "JinJieWang", country = "China""#);
        assert!(!wine.is_strict(&line));
        assert_eq!(
            (wine.get("name"), wine.get("author")),
            (Some("Wine"), Some("JinJieWang"))
        );
        // pela: no name, and two spaces before the last pair.
        let (pela, line) = read(
            r#"author="Petr Lastovicka", version="7.9", country="Czech Republic",  www="https://plastovicka.github.io""#,
        );
        assert!(!pela.is_strict(&line));
        assert_eq!(pela.get("name"), None);
        assert_eq!(pela.get("www"), Some("https://plastovicka.github.io"));
        // Unquoted values and free text.
        let (bare, line) = read("name=x, version=1");
        assert_eq!(
            (bare.get("name"), bare.get("version")),
            (Some("x"), Some("1"))
        );
        assert!(!bare.is_strict(&line));
        let (text, line) = read("Just an engine");
        assert!(text.fields.is_empty() && !text.is_strict(&line));
    }
}
