//! Manager text to typed commands.
//!
//! Everything that can be wrong with a line's shape is found here and becomes a
//! [`ParseError`]; whether a well-formed command fits the game (a square on the board, an
//! empty cell, a game started) is the session's business. Coordinates stay signed and
//! unchecked ([`Coord`]) so that `-1,5` is reported as off the board rather than as junk.
//! Command words, `INFO` keys and `DONE` are case-insensitive.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

use hoshi::levels::strength::BadStrength;
use hoshi::levels::{Level, Strength, UnknownLevel};
use hoshi::rules::Rule;

/// The most lines `YXNBEST` searches; a larger request is cut to it.
pub const MAX_NBEST: usize = 256;

/// Coordinates as the manager wrote them, not yet checked against any board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Coord {
    pub x: i64,
    pub y: i64,
}

/// Who a `BOARD` stone belongs to: the protocol's fields 1, 2 and 3.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    Own,
    Opponent,
    /// A neutral cell nobody may play (continuous games, foul markers).
    Blocked,
}

/// A command from the manager.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `START n` (square) or `RECTSTART w,h`: a new game on an empty board.
    Start { width: i64, height: i64 },
    /// `RESTART`: a new game on a board of the same size.
    Restart,
    /// `INFO key value`: a setting; never answered.
    Info(Info),
    /// `BEGIN`: move first on the empty board.
    Begin,
    /// `TURN x,y`: the opponent played there; answer a move.
    Turn(Coord),
    /// `BOARD` / `YXBOARD` ... `DONE`: a whole new position. Only `BOARD` asks for a move.
    Board {
        stones: Vec<(Coord, Field)>,
        answer: bool,
    },
    /// `SWAP2BOARD` ... `DONE`: the swap2 opening, stones in move order from black.
    Swap2Board(Vec<Coord>),
    /// `TAKEBACK x,y`: remove that stone.
    Takeback(Coord),
    /// `PLAY x,y`: the manager accepted (or chose) our move; play it and echo it.
    Play(Coord),
    /// `ABOUT`: who we are.
    About,
    /// `END`: exit now, silently.
    End,
    /// `STOP` / `YXSTOP`: answer the current search now.
    Stop,
    /// `YXSHOWFORBID`: list black's forbidden points.
    ShowForbid,
    /// `YXHASHCLEAR`: forget what earlier searches learnt (there is nothing kept yet).
    HashClear,
    /// `YXSHOWINFO`: the limits of `INFO thread_num` and `INFO hash_size`, for Yixin-Board's
    /// settings dialog.
    ShowInfo,
    /// `YXNBEST n`: search the `n` best moves (at least one), answer the best, report all.
    NBest(usize),
    /// `YXSWAP2STEP1`..`3`: Yixin's own swap2 dialogue with Yixin-Board, on the board the
    /// last `YXBOARD` set (step 1 on an empty one).
    YixinSwap2(u8),
    /// `YXBALANCEONE [bias]` / `YXBALANCETWO [bias]`: place one stone (or one for each side)
    /// that leaves the position balanced, or leaves `bias` to the side that placed last.
    Balance { two: bool, bias: i32 },
    /// Anything else, by its command word; answered `UNKNOWN`.
    Unknown(String),
}

/// An `INFO` line. INFO is never answered, so even a bad value is a value here (`Ignored`),
/// to be logged rather than replied to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Info {
    /// Milliseconds per move; 0 means answer at once, negative means no limit.
    TimeoutTurn(i64),
    /// Milliseconds per game; 0 means no limit.
    TimeoutMatch(i64),
    /// Milliseconds left in the game; may be negative; 2147483647 means no limit.
    TimeLeft(i64),
    /// Bytes of memory; 0 means no limit.
    MaxMemory(u64),
    Rule(Rule),
    Level(Level),
    /// `INFO strength 0..100` (Rapfi's key): master's strength.
    Strength(Strength),
    /// Deepest iteration; `None` (a value of 0 or less) lifts the bound.
    MaxDepth(Option<u32>),
    /// Most nodes per search; `None` (a value of 0 or less, Yixin-Board's -1) lifts it.
    MaxNode(Option<u64>),
    /// `INFO weights FILE`: evaluate with this weights file (the rest of the line).
    Weights(PathBuf),
    /// `INFO thread_num n`: search threads (at least one; the search caps them).
    Threads(usize),
    /// `INFO hash_size n` (Yixin-Board): the table's size in KiB, as Rapfi reads it; 0
    /// gives back the size `max_memory` allows.
    HashSize(u64),
    /// `INFO show_detail n` (Yixin-Board, 0 to 3): bit 1 asks for the realtime
    /// `MESSAGE REALTIME` lines during a search; bit 2 (Rapfi's `INFO PV` lines) is not
    /// written.
    ShowDetail {
        realtime: bool,
    },
    /// A key accepted without effect (`game_type`, `folder`, `caution_factor`, unknown
    /// keys...). `caution_factor` sets Rapfi's candidate range; Hoshi's move generation
    /// has its own, so it changes nothing.
    Accepted {
        key: String,
        value: String,
    },
    /// A known key with a value that makes no sense; the setting is left unchanged.
    Ignored {
        key: String,
        reason: BadValue,
    },
}

/// Why an `INFO` value was ignored (logged, never answered).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadValue {
    /// Not a whole number (the text, cut short).
    NotANumber(String),
    NegativeMemory(i64),
    NoSuchRule(i64),
    Level(UnknownLevel),
    Strength(BadStrength),
    /// `INFO weights` with no file named.
    NoWeightsFile,
    /// A number outside the key's range (the range, as text).
    OutOfRange {
        got: i64,
        range: &'static str,
    },
}

impl fmt::Display for BadValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadValue::NotANumber(got) => write!(f, "expected a whole number, got '{got}'"),
            BadValue::NegativeMemory(n) => write!(f, "memory cannot be negative ({n})"),
            BadValue::NoSuchRule(n) => write!(f, "no rule has code {n}"),
            BadValue::Level(e) => e.fmt(f),
            BadValue::Strength(e) => e.fmt(f),
            BadValue::NoWeightsFile => write!(f, "expected a weights file"),
            BadValue::OutOfRange { got, range } => write!(f, "{got} is not in {range}"),
        }
    }
}

/// Why a line (or block) is not a well-formed command. Its message is what `ERROR`
/// answers; quoted input is cut to 40 characters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// A command that takes no arguments got some.
    UnexpectedArguments { command: String, got: String },
    /// Not the `count` comma-separated whole numbers `what` needs (`example` shows them).
    Numbers {
        what: String,
        count: usize,
        example: String,
        got: String,
    },
    /// A number too large to hold.
    OutOfRange { what: String, number: String },
    /// A `BOARD` stone line whose field is not 1, 2 or 3.
    Field { field: i64, line: String },
    /// A bad line in the body of the block command `command`.
    Body {
        command: String,
        line: Box<ParseError>,
    },
    /// The input ended inside the block command `command`, before its `DONE`.
    NoDone { command: String },
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::UnexpectedArguments { command, got } => {
                write!(f, "{command} takes no arguments, got '{got}'")
            }
            ParseError::Numbers {
                what,
                count,
                example,
                got,
            } => {
                let numbers = if *count == 1 {
                    "a number"
                } else {
                    "numbers separated by commas"
                };
                write!(f, "{what} expects {numbers} (e.g. {example}), got '{got}'")
            }
            ParseError::OutOfRange { what, number } => {
                write!(f, "{what}: number '{number}' is out of range")
            }
            ParseError::Field { field, line } => {
                write!(f, "field {field} in '{line}' must be 1, 2 or 3")
            }
            ParseError::Body { command, line } => write!(f, "{command}: {line}"),
            ParseError::NoDone { command } => write!(f, "{command}: input ended before DONE"),
        }
    }
}

impl std::error::Error for ParseError {}

/// The command word of a line, upper-cased (empty for an empty line).
#[must_use]
pub fn command_word(line: &str) -> String {
    split_word(line).0.to_ascii_uppercase()
}

/// Whether the command named `word` (upper case) carries a body of lines ending with
/// `DONE`. Unsupported Yixin block commands are listed too, so that their bodies are
/// consumed rather than answered line by line.
#[must_use]
pub fn has_body(word: &str) -> bool {
    matches!(
        word,
        "BOARD"
            | "YXBOARD"
            | "SWAP2BOARD"
            | "YXBLOCK"
            | "YXBLOCKUNDO"
            | "YXQUERYDATABASEALL"
            | "YXQUERYDATABASEALLT"
            | "YXQUERYDATABASEONE"
            | "YXQUERYDATABASETEXT"
    )
}

/// Whether a body line ends its block.
#[must_use]
pub fn is_done(line: &str) -> bool {
    line.trim().eq_ignore_ascii_case("DONE")
}

/// Input quoted back in a reply: cut short, so that a huge line cannot make a huge reply.
fn shown(text: &str) -> String {
    const MAX: usize = 40;
    if text.chars().count() <= MAX {
        text.to_string()
    } else {
        text.chars().take(MAX).chain("...".chars()).collect()
    }
}

/// The first whitespace-separated word and the trimmed rest.
fn split_word(line: &str) -> (&str, &str) {
    let line = line.trim();
    match line.split_once(char::is_whitespace) {
        Some((word, rest)) => (word, rest.trim()),
        None => (line, ""),
    }
}

impl FromStr for Command {
    type Err = ParseError;

    /// Parses a one-line command. A block command parsed this way has an empty body.
    fn from_str(line: &str) -> Result<Command, ParseError> {
        Command::parse_block(line, &[])
    }
}

impl Command {
    /// Parses a command from its first line and, for block commands, the body lines
    /// between it and `DONE` (excluded).
    pub fn parse_block(line: &str, body: &[String]) -> Result<Command, ParseError> {
        let (word, args) = split_word(line);
        let upper = word.to_ascii_uppercase();
        let no_args = || {
            if args.is_empty() {
                Ok(())
            } else {
                Err(ParseError::UnexpectedArguments {
                    command: upper.clone(),
                    got: shown(args),
                })
            }
        };
        let in_body = |line| ParseError::Body {
            command: upper.clone(),
            line: Box::new(line),
        };
        match upper.as_str() {
            "START" => {
                let [size] = numbers(args, &upper, "START 15")?;
                Ok(Command::Start {
                    width: size,
                    height: size,
                })
            }
            "RECTSTART" => {
                let [width, height] = numbers(args, &upper, "RECTSTART 20,15")?;
                Ok(Command::Start { width, height })
            }
            "RESTART" => no_args().map(|()| Command::Restart),
            "INFO" => Ok(Command::Info(Info::parse(args))),
            "BEGIN" => no_args().map(|()| Command::Begin),
            "TURN" => coord(args, &upper).map(Command::Turn),
            "TAKEBACK" => coord(args, &upper).map(Command::Takeback),
            "PLAY" => coord(args, &upper).map(Command::Play),
            "BOARD" | "YXBOARD" => {
                no_args()?;
                let stones = body
                    .iter()
                    .map(|l| board_line(l))
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(in_body)?;
                Ok(Command::Board {
                    stones,
                    answer: upper == "BOARD",
                })
            }
            "SWAP2BOARD" => {
                no_args()?;
                let stones = body
                    .iter()
                    .map(|l| swap2_line(l))
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(in_body)?;
                Ok(Command::Swap2Board(stones))
            }
            "ABOUT" => no_args().map(|()| Command::About),
            // END ends the process whatever follows it on the line.
            "END" => Ok(Command::End),
            "STOP" | "YXSTOP" => Ok(Command::Stop),
            "YXSHOWFORBID" => no_args().map(|()| Command::ShowForbid),
            "YXHASHCLEAR" => no_args().map(|()| Command::HashClear),
            "YXSHOWINFO" => no_args().map(|()| Command::ShowInfo),
            "YXSWAP2STEP1" => no_args().map(|()| Command::YixinSwap2(1)),
            "YXSWAP2STEP2" => no_args().map(|()| Command::YixinSwap2(2)),
            "YXSWAP2STEP3" => no_args().map(|()| Command::YixinSwap2(3)),
            "YXNBEST" => {
                let [n] = numbers(args, &upper, "YXNBEST 3")?;
                let n = n.clamp(1, MAX_NBEST as i64);
                Ok(Command::NBest(usize::try_from(n).unwrap_or(1)))
            }
            "YXBALANCEONE" | "YXBALANCETWO" => {
                let bias = if args.is_empty() {
                    0
                } else {
                    let [b] = numbers(args, &upper, &format!("{upper} 0"))?;
                    i32::try_from(b.clamp(i64::from(i32::MIN), i64::from(i32::MAX)))
                        .unwrap_or_default()
                };
                Ok(Command::Balance {
                    two: upper == "YXBALANCETWO",
                    bias,
                })
            }
            _ => Ok(Command::Unknown(shown(&upper))),
        }
    }
}

impl Info {
    /// Parses the text after `INFO`: a key, then the value as the rest of the line.
    fn parse(args: &str) -> Info {
        let (key, value) = split_word(args);
        let key = key.to_ascii_lowercase();
        let ignored = |reason: BadValue| Info::Ignored {
            key: key.clone(),
            reason,
        };
        let int = || {
            value
                .parse::<i64>()
                .map_err(|_| ignored(BadValue::NotANumber(shown(value))))
        };
        let parsed = match key.as_str() {
            "timeout_turn" => int().map(Info::TimeoutTurn),
            "timeout_match" => int().map(Info::TimeoutMatch),
            "time_left" => int().map(Info::TimeLeft),
            "max_memory" => int().and_then(|n| {
                u64::try_from(n)
                    .map(Info::MaxMemory)
                    .map_err(|_| ignored(BadValue::NegativeMemory(n)))
            }),
            "rule" => int().and_then(|n| {
                Rule::from_code(n)
                    .map(Info::Rule)
                    .ok_or_else(|| ignored(BadValue::NoSuchRule(n)))
            }),
            "level" => value
                .parse()
                .map(Info::Level)
                .map_err(|e| ignored(BadValue::Level(e))),
            "strength" => value
                .parse()
                .map(Info::Strength)
                .map_err(|e| ignored(BadValue::Strength(e))),
            // Out-of-range bounds saturate: a depth beyond u32 is no bound in practice.
            "max_depth" => {
                int().map(|n| Info::MaxDepth((n > 0).then(|| u32::try_from(n).unwrap_or(u32::MAX))))
            }
            "max_node" => {
                int().map(|n| Info::MaxNode((n > 0).then(|| u64::try_from(n).unwrap_or(u64::MAX))))
            }
            "thread_num" => int().map(|n| Info::Threads(usize::try_from(n.max(1)).unwrap_or(1))),
            "hash_size" => int().and_then(|n| {
                u64::try_from(n)
                    .map(Info::HashSize)
                    .map_err(|_| ignored(BadValue::NegativeMemory(n)))
            }),
            "show_detail" => int().and_then(|n| match n {
                0..=3 => Ok(Info::ShowDetail {
                    realtime: n & 1 != 0,
                }),
                _ => Err(ignored(BadValue::OutOfRange {
                    got: n,
                    range: "0..=3",
                })),
            }),
            "weights" if !value.is_empty() => Ok(Info::Weights(PathBuf::from(value))),
            "weights" => Err(ignored(BadValue::NoWeightsFile)),
            _ => Ok(Info::Accepted {
                key: key.clone(),
                value: value.to_string(),
            }),
        };
        parsed.unwrap_or_else(|e| e)
    }
}

/// Exactly `N` comma-separated signed integers, spaces allowed around the commas.
fn numbers<const N: usize>(args: &str, cmd: &str, example: &str) -> Result<[i64; N], ParseError> {
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

fn coord(args: &str, cmd: &str) -> Result<Coord, ParseError> {
    let [x, y] = numbers(args, cmd, &format!("{cmd} 7,7"))?;
    Ok(Coord { x, y })
}

/// A `BOARD` line: `x,y,field` with field 1, 2 or 3.
fn board_line(line: &str) -> Result<(Coord, Field), ParseError> {
    let [x, y, f] = numbers(line, "stone line", "7,7,1")?;
    let field = match f {
        1 => Field::Own,
        2 => Field::Opponent,
        3 => Field::Blocked,
        _ => {
            return Err(ParseError::Field {
                field: f,
                line: shown(line),
            });
        }
    };
    Ok((Coord { x, y }, field))
}

/// A `SWAP2BOARD` line: `x,y` as the protocol says, or `x,y,field` as Rapfi expects (the
/// colour comes from the order either way, so the field is not used).
fn swap2_line(line: &str) -> Result<Coord, ParseError> {
    let ([x, y], _) = numbers::<3>(line, "stone line", "7,7")
        .map(|[x, y, f]| ([x, y], Some(f)))
        .or_else(|_| numbers::<2>(line, "stone line", "7,7").map(|xy| (xy, None)))?;
    Ok(Coord { x, y })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Result<Command, ParseError> {
        line.parse()
    }

    fn block(head: &str, body: &[&str]) -> Result<Command, ParseError> {
        let body: Vec<String> = body.iter().map(|s| (*s).to_string()).collect();
        Command::parse_block(head, &body)
    }

    #[test]
    fn commands_are_case_insensitive_and_allow_spaces_around_commas() {
        assert_eq!(
            parse("start 20"),
            Ok(Command::Start {
                width: 20,
                height: 20
            })
        );
        assert_eq!(
            parse("RectStart 30 , 20"),
            Ok(Command::Start {
                width: 30,
                height: 20
            })
        );
        assert_eq!(
            parse("turn 10, 10"),
            Ok(Command::Turn(Coord { x: 10, y: 10 }))
        );
        assert_eq!(parse("yxstop"), Ok(Command::Stop));
        assert_eq!(parse("Foo bar"), Ok(Command::Unknown("FOO".into())));
    }

    #[test]
    fn negative_and_huge_coordinates_parse_so_the_session_can_call_them_off_board() {
        assert_eq!(parse("TURN -1,5"), Ok(Command::Turn(Coord { x: -1, y: 5 })));
        assert_eq!(
            parse("TURN 99999999999,1"),
            Ok(Command::Turn(Coord {
                x: 99_999_999_999,
                y: 1
            }))
        );
        assert_eq!(
            parse("TURN 99999999999999999999,1"),
            Err(ParseError::OutOfRange {
                what: "TURN".into(),
                number: "99999999999999999999".into()
            })
        );
    }

    #[test]
    fn malformed_arguments_are_errors() {
        for line in [
            "START",
            "START abc",
            "START 4,4",
            "TURN",
            "TURN 10",
            "TURN 10,",
            "TURN a,b",
            "TURN 10;10",
            "TURN 10,10,1",
            "TURN 10 10",
            "BEGIN 3",
            "RESTART now",
            "ABOUT x",
            "TAKEBACK",
            "PLAY 1",
            "RECTSTART 20",
        ] {
            assert!(parse(line).is_err(), "{line}");
        }
    }

    #[test]
    fn errors_say_what_was_expected_and_quote_the_input() {
        let message = |line: &str| parse(line).unwrap_err().to_string();
        assert_eq!(
            message("TURN 10"),
            "TURN expects numbers separated by commas (e.g. TURN 7,7), got '10'"
        );
        assert_eq!(
            message("START x"),
            "START expects a number (e.g. START 15), got 'x'"
        );
        assert_eq!(message("BEGIN 3"), "BEGIN takes no arguments, got '3'");
        let e = block("BOARD", &["1,1,1", "5,5,7"]).unwrap_err();
        assert_eq!(
            e,
            ParseError::Body {
                command: "BOARD".into(),
                line: Box::new(ParseError::Field {
                    field: 7,
                    line: "5,5,7".into()
                })
            }
        );
        assert_eq!(e.to_string(), "BOARD: field 7 in '5,5,7' must be 1, 2 or 3");
        let long = format!("TURN {}", "9,".repeat(50));
        assert!(message(&long).ends_with("9,9,...'"), "{}", message(&long));
    }

    #[test]
    fn board_bodies_need_three_numbers_and_a_known_field() {
        let ok = block("board", &["10,10,1", " 10 , 11 , 2 ", "3,3,3"]).unwrap();
        let Command::Board { stones, answer } = ok else {
            panic!("{ok:?}")
        };
        assert!(answer);
        assert_eq!(stones[1], (Coord { x: 10, y: 11 }, Field::Opponent));
        assert_eq!(stones[2].1, Field::Blocked);
        assert!(block("BOARD", &["5,5,7"]).is_err());
        assert!(block("BOARD", &["5;5;1"]).is_err());
        assert!(block("BOARD", &["5,5"]).is_err());
        let yx = block("YXBOARD", &[]).unwrap();
        assert_eq!(
            yx,
            Command::Board {
                stones: vec![],
                answer: false
            }
        );
    }

    #[test]
    fn swap2_lines_take_an_optional_field() {
        let c = block("SWAP2BOARD", &["7,7", "8,7,2", "9,9"]).unwrap();
        let xs: Vec<i64> = match c {
            Command::Swap2Board(v) => v.iter().map(|c| c.x).collect(),
            other => panic!("{other:?}"),
        };
        assert_eq!(xs, [7, 8, 9]);
        assert!(block("SWAP2BOARD", &["7"]).is_err());
    }

    #[test]
    fn info_keeps_the_rest_of_the_line_and_never_fails() {
        assert_eq!(
            parse("INFO timeout_turn 0"),
            Ok(Command::Info(Info::TimeoutTurn(0)))
        );
        assert_eq!(
            parse("info TIME_LEFT -500"),
            Ok(Command::Info(Info::TimeLeft(-500)))
        );
        assert_eq!(
            parse("INFO rule 2"),
            Ok(Command::Info(Info::Rule(Rule::Renju)))
        );
        assert_eq!(
            parse("INFO level Easy"),
            Ok(Command::Info(Info::Level(Level::Easy)))
        );
        assert_eq!(
            parse("INFO STRENGTH 40"),
            Ok(Command::Info(Info::Strength(Strength::new(40).unwrap())))
        );
        assert_eq!(
            parse("INFO max_node -1"),
            Ok(Command::Info(Info::MaxNode(None)))
        );
        assert_eq!(
            parse("INFO max_depth 12"),
            Ok(Command::Info(Info::MaxDepth(Some(12))))
        );
        assert_eq!(
            parse("INFO weights C:\\My Weights\\a.weights"),
            Ok(Command::Info(Info::Weights(PathBuf::from(
                "C:\\My Weights\\a.weights"
            ))))
        );
        assert!(matches!(
            parse("INFO weights"),
            Ok(Command::Info(Info::Ignored { .. }))
        ));
        assert_eq!(
            parse(r"INFO folder C:\Program Files\x y"),
            Ok(Command::Info(Info::Accepted {
                key: "folder".into(),
                value: r"C:\Program Files\x y".into()
            }))
        );
        for bad in [
            "INFO level expert",
            "INFO strength 101",
            "INFO strength -1",
            "INFO strength 5.5",
            "INFO strength",
            "INFO rule -1",
            "INFO max_memory -5",
            "INFO timeout_turn x",
        ] {
            assert!(
                matches!(parse(bad), Ok(Command::Info(Info::Ignored { .. }))),
                "{bad}"
            );
        }
        assert!(matches!(
            parse("INFO"),
            Ok(Command::Info(Info::Accepted { .. }))
        ));
    }

    #[test]
    fn yixin_analysis_commands_parse_with_their_numbers() {
        assert_eq!(parse("yxnbest 3"), Ok(Command::NBest(3)));
        assert_eq!(parse("YXNBEST 0"), Ok(Command::NBest(1)));
        assert_eq!(parse("YXNBEST 100000"), Ok(Command::NBest(MAX_NBEST)));
        assert!(parse("YXNBEST").is_err() && parse("YXNBEST two").is_err());
        assert_eq!(
            parse("yxbalanceone"),
            Ok(Command::Balance {
                two: false,
                bias: 0
            })
        );
        assert_eq!(
            parse("YXBALANCETWO -120"),
            Ok(Command::Balance {
                two: true,
                bias: -120
            })
        );
        assert_eq!(
            parse("YXBALANCEONE 99999999999"),
            Ok(Command::Balance {
                two: false,
                bias: i32::MAX
            })
        );
        assert!(parse("YXBALANCEONE 1,2").is_err());
        assert_eq!(parse("yxshowinfo"), Ok(Command::ShowInfo));
        assert_eq!(parse("yxswap2step2"), Ok(Command::YixinSwap2(2)));
        assert!(matches!(parse("YXSWAP2STEP4"), Ok(Command::Unknown(_))));
        assert!(parse("YXSHOWINFO 1").is_err());
    }

    #[test]
    fn yixin_info_keys_parse_to_settings() {
        let info = |line: &str| match parse(line) {
            Ok(Command::Info(i)) => i,
            other => panic!("{other:?}"),
        };
        assert_eq!(info("INFO thread_num 4"), Info::Threads(4));
        assert_eq!(info("INFO thread_num 0"), Info::Threads(1));
        assert_eq!(info("INFO hash_size 1048576"), Info::HashSize(1_048_576));
        assert!(matches!(info("INFO hash_size -1"), Info::Ignored { .. }));
        assert_eq!(
            info("info show_detail 3"),
            Info::ShowDetail { realtime: true }
        );
        assert_eq!(
            info("INFO show_detail 2"),
            Info::ShowDetail { realtime: false }
        );
        assert!(matches!(info("INFO show_detail 4"), Info::Ignored { .. }));
        assert!(matches!(
            info("INFO caution_factor 1"),
            Info::Accepted { .. }
        ));
    }

    #[test]
    fn block_commands_are_known_by_their_word() {
        assert!(has_body(&command_word("  board  ")));
        assert!(has_body("SWAP2BOARD") && has_body("YXBLOCK"));
        assert!(!has_body("TURN"));
        assert!(is_done(" done "));
    }
}
