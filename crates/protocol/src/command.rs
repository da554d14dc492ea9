//! Manager commands: text to typed [`Command`]s and back.
//!
//! Command words, `INFO` keys and `DONE` are case-insensitive; a command prints in upper
//! case with no spaces around commas, as managers write it. Block commands (`BOARD`,
//! `YXBOARD`, `SWAP2BOARD`) print their body lines and `DONE` after the command line,
//! separated by `\n`: written with a final `\n`, that is the block as it goes on the wire.

use std::fmt;
use std::str::FromStr;

use crate::coord::Coord;
use crate::error::ParseError;
use crate::info::Info;
use crate::text::{numbers, shown, split_word};

/// The most lines `YXNBEST` searches; a larger request is cut to it.
pub const MAX_NBEST: usize = 256;

/// Who a `BOARD` stone belongs to: the protocol's fields 1, 2 and 3.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    Own,
    Opponent,
    /// A neutral cell nobody may play (continuous games, foul markers).
    Blocked,
}

impl Field {
    /// The number a `BOARD` line gives the field.
    #[must_use]
    pub fn code(self) -> i64 {
        match self {
            Field::Own => 1,
            Field::Opponent => 2,
            Field::Blocked => 3,
        }
    }
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

impl fmt::Display for Command {
    /// The command as a manager sends it, body lines and `DONE` included, without the
    /// final line end.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Start { width, height } if width == height => write!(f, "START {width}"),
            Command::Start { width, height } => write!(f, "RECTSTART {width},{height}"),
            Command::Restart => f.write_str("RESTART"),
            Command::Info(info) => write!(f, "INFO {info}"),
            Command::Begin => f.write_str("BEGIN"),
            Command::Turn(c) => write!(f, "TURN {c}"),
            Command::Board { stones, answer } => {
                f.write_str(if *answer { "BOARD" } else { "YXBOARD" })?;
                for (c, field) in stones {
                    write!(f, "\n{c},{}", field.code())?;
                }
                f.write_str("\nDONE")
            }
            Command::Swap2Board(stones) => {
                f.write_str("SWAP2BOARD")?;
                for c in stones {
                    write!(f, "\n{c}")?;
                }
                f.write_str("\nDONE")
            }
            Command::Takeback(c) => write!(f, "TAKEBACK {c}"),
            Command::Play(c) => write!(f, "PLAY {c}"),
            Command::About => f.write_str("ABOUT"),
            Command::End => f.write_str("END"),
            Command::Stop => f.write_str("STOP"),
            Command::ShowForbid => f.write_str("YXSHOWFORBID"),
            Command::HashClear => f.write_str("YXHASHCLEAR"),
            Command::ShowInfo => f.write_str("YXSHOWINFO"),
            Command::NBest(n) => write!(f, "YXNBEST {n}"),
            Command::YixinSwap2(step) => write!(f, "YXSWAP2STEP{step}"),
            Command::Balance { two, bias } => {
                let word = if *two { "YXBALANCETWO" } else { "YXBALANCEONE" };
                write!(f, "{word} {bias}")
            }
            Command::Unknown(word) => f.write_str(word),
        }
    }
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
    fn block_commands_are_known_by_their_word() {
        assert!(has_body(&command_word("  board  ")));
        assert!(has_body("SWAP2BOARD") && has_body("YXBLOCK"));
        assert!(!has_body("TURN"));
        assert!(is_done(" done "));
    }

    /// Parses printed text: the first line, and for a block its body up to `DONE`, which
    /// must end it.
    fn reparse(text: &str) -> Result<Command, ParseError> {
        let lines: Vec<&str> = text.split('\n').collect();
        let (head, rest) = lines.split_first().expect("split gives one line at least");
        if !has_body(&command_word(head)) {
            assert!(rest.is_empty(), "{text:?}");
            return head.parse();
        }
        let (done, body) = rest.split_last().expect("a block ends with DONE");
        assert!(is_done(done), "{text:?}");
        let body: Vec<String> = body.iter().map(|l| (*l).to_owned()).collect();
        Command::parse_block(head, &body)
    }

    /// One value of every variant.
    fn every_command() -> Vec<Command> {
        let c = |x, y| Coord { x, y };
        vec![
            Command::Start {
                width: 15,
                height: 15,
            },
            Command::Start {
                width: 20,
                height: 15,
            },
            Command::Restart,
            Command::Info(Info::TimeLeft(2_147_483_647)),
            Command::Begin,
            Command::Turn(c(10, -1)),
            Command::Board {
                stones: vec![
                    (c(7, 7), Field::Own),
                    (c(8, 8), Field::Opponent),
                    (c(0, 0), Field::Blocked),
                ],
                answer: true,
            },
            Command::Board {
                stones: vec![],
                answer: false,
            },
            Command::Swap2Board(vec![c(7, 7), c(8, 7), c(9, 9)]),
            Command::Takeback(c(3, 4)),
            Command::Play(c(5, 6)),
            Command::About,
            Command::End,
            Command::Stop,
            Command::ShowForbid,
            Command::HashClear,
            Command::ShowInfo,
            Command::NBest(3),
            Command::YixinSwap2(2),
            Command::Balance {
                two: false,
                bias: 0,
            },
            Command::Balance {
                two: true,
                bias: -120,
            },
            Command::Unknown("YXBLOCKRESET".into()),
        ]
    }

    /// Which variant `command` is; a new variant does not compile until it is given a
    /// number here, and [`VARIANTS`] counts them, so `every_command` cannot fall behind.
    fn variant(command: &Command) -> usize {
        match command {
            Command::Start { .. } => 0,
            Command::Restart => 1,
            Command::Info(_) => 2,
            Command::Begin => 3,
            Command::Turn(_) => 4,
            Command::Board { .. } => 5,
            Command::Swap2Board(_) => 6,
            Command::Takeback(_) => 7,
            Command::Play(_) => 8,
            Command::About => 9,
            Command::End => 10,
            Command::Stop => 11,
            Command::ShowForbid => 12,
            Command::HashClear => 13,
            Command::ShowInfo => 14,
            Command::NBest(_) => 15,
            Command::YixinSwap2(_) => 16,
            Command::Balance { .. } => 17,
            Command::Unknown(_) => 18,
        }
    }
    const VARIANTS: usize = 19;

    #[test]
    fn every_command_round_trips_through_print_and_parse() {
        let all = every_command();
        crate::coverage::assert_every_variant(&all, variant, VARIANTS);
        for command in all {
            let text = command.to_string();
            assert_eq!(reparse(&text), Ok(command), "{text:?}");
        }
    }

    #[test]
    fn commands_print_as_managers_send_them() {
        let c = |x, y| Coord { x, y };
        let text = |command: Command| command.to_string();
        assert_eq!(
            text(Command::Start {
                width: 15,
                height: 15
            }),
            "START 15"
        );
        assert_eq!(
            text(Command::Start {
                width: 20,
                height: 15
            }),
            "RECTSTART 20,15"
        );
        assert_eq!(text(Command::Turn(c(7, 8))), "TURN 7,8");
        assert_eq!(
            text(Command::Board {
                stones: vec![(c(7, 7), Field::Own), (c(8, 8), Field::Opponent)],
                answer: true
            }),
            "BOARD\n7,7,1\n8,8,2\nDONE"
        );
        assert_eq!(
            text(Command::Swap2Board(vec![c(7, 7)])),
            "SWAP2BOARD\n7,7\nDONE"
        );
        assert_eq!(
            text(Command::Info(Info::TimeLeft(900))),
            "INFO time_left 900"
        );
    }
}

#[cfg(test)]
mod info_tests {
    //! `INFO` lines through the command parser, as the reader meets them.
    use super::*;
    use std::path::PathBuf;

    use hoshi::levels::strength::BadStrength;
    use hoshi::levels::{Level, Strength, UnknownLevel};
    use hoshi::rules::Rule;

    use crate::info::BadValue;

    fn parse(line: &str) -> Result<Command, ParseError> {
        line.parse()
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
    fn yixin_info_keys_parse_to_settings() {
        let info = |line: &str| match parse(line) {
            Ok(Command::Info(i)) => i,
            other => panic!("{other:?}"),
        };
        assert_eq!(info("INFO thread_num 4"), Info::Threads(4));
        assert_eq!(info("INFO thread_num 0"), Info::Threads(1));
        assert_eq!(info("INFO hash_size 1048576"), Info::HashSize(1_048_576));
        assert!(matches!(info("INFO hash_size -1"), Info::Ignored { .. }));
        let detail = |realtime, analysis| Info::ShowDetail { realtime, analysis };
        assert_eq!(info("info show_detail 3"), detail(true, true));
        assert_eq!(info("INFO show_detail 2"), detail(false, true));
        assert_eq!(info("INFO show_detail 1"), detail(true, false));
        assert_eq!(info("INFO show_detail 0"), detail(false, false));
        assert!(matches!(info("INFO show_detail 4"), Info::Ignored { .. }));
        assert!(matches!(
            info("INFO caution_factor 1"),
            Info::Accepted { .. }
        ));
    }

    /// One value of every variant, each a key (or kind of bad value) of its own.
    fn every_info() -> Vec<Info> {
        let ignored = |key: &str, reason| Info::Ignored {
            key: key.into(),
            reason,
        };
        vec![
            Info::TimeoutTurn(5000),
            Info::TimeoutMatch(0),
            Info::TimeLeft(-120),
            Info::MaxMemory(83_886_080),
            Info::Rule(Rule::Renju),
            Info::Level(Level::Master),
            Info::Strength(Strength::FULL),
            Info::Elo(-250),
            Info::MaxDepth(Some(9)),
            Info::MaxDepth(None),
            Info::MaxNode(Some(100_000)),
            Info::MaxNode(None),
            Info::Weights(PathBuf::from("C:\\My Weights\\a.weights")),
            Info::Threads(4),
            Info::HashSize(1 << 20),
            Info::ShowDetail {
                realtime: true,
                analysis: true,
            },
            Info::ShowDetail {
                realtime: false,
                analysis: true,
            },
            Info::ShowDetail {
                realtime: true,
                analysis: false,
            },
            Info::ShowDetail {
                realtime: false,
                analysis: false,
            },
            Info::Accepted {
                key: "game_type".into(),
                value: "1".into(),
            },
            Info::Accepted {
                key: "folder".into(),
                value: String::new(),
            },
            ignored("timeout_turn", BadValue::NotANumber("soon".into())),
            ignored("max_memory", BadValue::NegativeMemory(-5)),
            ignored("rule", BadValue::NoSuchRule(-1)),
            ignored("level", BadValue::Level(UnknownLevel("expert".into()))),
            ignored("strength", BadValue::Strength(BadStrength("101".into()))),
            ignored("weights", BadValue::NoWeightsFile),
            ignored(
                "show_detail",
                BadValue::OutOfRange {
                    got: 4,
                    range: "0..=3",
                },
            ),
        ]
    }

    /// Which variant `info` is; a new variant does not compile until it is given a number
    /// here, and [`VARIANTS`] counts them, so `every_info` cannot fall behind.
    fn variant(info: &Info) -> usize {
        match info {
            Info::TimeoutTurn(_) => 0,
            Info::TimeoutMatch(_) => 1,
            Info::TimeLeft(_) => 2,
            Info::MaxMemory(_) => 3,
            Info::Rule(_) => 4,
            Info::Level(_) => 5,
            Info::Strength(_) => 6,
            Info::MaxDepth(_) => 7,
            Info::MaxNode(_) => 8,
            Info::Weights(_) => 9,
            Info::Threads(_) => 10,
            Info::HashSize(_) => 11,
            Info::ShowDetail { .. } => 12,
            Info::Accepted { .. } => 13,
            Info::Ignored { .. } => 14,
            Info::Elo(_) => 15,
        }
    }
    const VARIANTS: usize = 16;

    #[test]
    fn every_info_key_round_trips_through_print_and_parse() {
        let all = every_info();
        crate::coverage::assert_every_variant(&all, variant, VARIANTS);
        for info in all {
            let line = Command::Info(info.clone()).to_string();
            assert_eq!(line.parse(), Ok(Command::Info(info)), "{line}");
        }
    }

    #[test]
    fn settings_print_as_managers_send_them() {
        let line = |info| Command::Info(info).to_string();
        assert_eq!(line(Info::TimeoutTurn(5000)), "INFO timeout_turn 5000");
        assert_eq!(line(Info::Rule(Rule::Renju)), "INFO rule 4");
        assert_eq!(line(Info::MaxNode(None)), "INFO max_node 0");
        assert_eq!(
            line(Info::Accepted {
                key: "THREAD_NUM".into(),
                value: "4".into()
            }),
            "INFO THREAD_NUM 4"
        );
    }
}
