//! `pbrain-faulty`: a tiny pbrain engine for testing match runners. It plays legal moves
//! (win if it can, else block a five, else the empty cell nearest the centre, or a random
//! cell next to a stone with `--random`) and misbehaves on command:
//!
//! ```text
//! pbrain-faulty [--fault none|crash|hang|occupied|garbage|late|memory] [--at N]
//!               [--late-ms MS] [--memory-mb MB] [--random] [--seed S] [--ignore-end]
//!               [--quirk QUIRK]... [--about-name NAME]
//! ```
//!
//! The fault strikes at the engine's N-th move (default 1) of every game: `crash` exits,
//! `hang` never answers, `occupied` answers a cell that holds a stone, `garbage` prints a
//! line that is no move, `late` answers after `--late-ms` (default 3000), `memory` touches
//! `--memory-mb` MiB (default 256) before answering. `--ignore-end` makes it deaf to `END`,
//! so the runner has to kill it. `--about-name` sets the name its ABOUT answer gives (to
//! check that a runner shows whatever an engine calls itself as text).
//!
//! Each `--quirk` copies a habit of a real engine that is no fault, but that a strict
//! runner would take for one:
//! `startup-message` (a `MESSAGE` before anything is asked: Rapfi, PentaZen),
//! `about-no-name` (ABOUT without `name=`: pela), `about-loose` (spaces around `=`:
//! AIWine), `ok-chatter` (`DEBUG` before `OK`), `stray-error` (`ERROR Unknown command:
//! TIME_LEFT` and `UNKNOWN` before every move: Rapfi, which drops input while it finishes
//! a search), `refuse-start` (the process's first START answered `ERROR Unknown command:
//! 15`, as Rapfi does when it drops the word START), `suggest` (a `SUGGEST` line before
//! every move), `board-adds` (BOARD adds its stones to the board instead of replacing
//! it, and ignores their fields, assuming alternation from black: PentaZen, Carbon; a
//! stone on a taken cell corrupts its board and it exits), `cr` (lines end in CRLF).
//!
//! Commands are read by `hoshi-protocol` and answers printed by it, but for the two lines
//! that are meant to be malformed ([`GARBAGE`], [`LOOSE_ABOUT`]). A malformed command is
//! answered `ERROR`, one this engine does not play (anything but START, INFO, BEGIN, TURN,
//! BOARD, ABOUT and END) `UNKNOWN`.

use std::fmt;
use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::time::Duration;

use hoshi::board::{Board, Color, Pos};
use hoshi::rng::Rng;
use hoshi::rules::Rule;
use hoshi_protocol::{
    About, Command, Coord, Field, Info, ReplyLine, command_word, has_body, is_done,
};

/// The `garbage` fault's answer: no move.
const GARBAGE: &str = "this is no move";

/// The `about-loose` quirk's ABOUT answer, with spaces around `=` as AIWine writes it.
const LOOSE_ABOUT: &str = r#"name = "pbrain-faulty", version ="1.0", author = "Hoshi tests""#;

/// A line this engine prints.
#[derive(Clone, Debug)]
enum Out {
    Reply(ReplyLine),
    /// Not a line of the protocol, on purpose (a fault's or a quirk's).
    Malformed(&'static str),
}

impl fmt::Display for Out {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Out::Reply(line) => line.fmt(f),
            Out::Malformed(text) => f.write_str(text),
        }
    }
}

/// The ABOUT answer's fields, `name` left out for the `about-no-name` quirk (as pela).
fn about(name: Option<&str>) -> About {
    let field = |k: &str, v: &str| (k.to_owned(), v.to_owned());
    let fields = match name {
        Some(name) => vec![
            field("name", name),
            field("version", "1.0"),
            field("author", "Hoshi tests"),
        ],
        None => vec![field("author", "Hoshi tests"), field("version", "1.0")],
    };
    About { fields }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fault {
    None,
    Crash,
    Hang,
    Occupied,
    Garbage,
    Late,
    Memory,
}

struct Options {
    fault: Fault,
    at: u32,
    late_ms: u64,
    memory_mb: usize,
    rng: Option<Rng>,
    ignore_end: bool,
    quirks: Vec<Quirk>,
    /// The name the ABOUT answer gives.
    about_name: String,
}

/// A harmless habit (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Quirk {
    StartupMessage,
    AboutNoName,
    AboutLoose,
    OkChatter,
    StrayError,
    RefuseStart,
    Suggest,
    BoardAdds,
    Cr,
}

fn parse_args() -> Result<Options, String> {
    let mut o = Options {
        fault: Fault::None,
        at: 1,
        late_ms: 3000,
        memory_mb: 256,
        rng: None,
        ignore_end: false,
        quirks: Vec::new(),
        about_name: "pbrain-faulty".to_owned(),
    };
    let mut seed = None;
    let mut random = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{arg} needs a value"));
        let number = |v: String| {
            v.parse::<u64>()
                .map_err(|_| format!("{v:?} is not a number"))
        };
        match arg.as_str() {
            "--fault" => {
                o.fault = match value()?.as_str() {
                    "none" => Fault::None,
                    "crash" => Fault::Crash,
                    "hang" => Fault::Hang,
                    "occupied" => Fault::Occupied,
                    "garbage" => Fault::Garbage,
                    "late" => Fault::Late,
                    "memory" => Fault::Memory,
                    other => return Err(format!("unknown fault {other:?}")),
                }
            }
            "--at" => o.at = u32::try_from(number(value()?)?).map_err(|e| e.to_string())?,
            "--late-ms" => o.late_ms = number(value()?)?,
            "--memory-mb" => {
                o.memory_mb = usize::try_from(number(value()?)?).map_err(|e| e.to_string())?
            }
            "--seed" => seed = Some(number(value()?)?),
            "--random" => random = true,
            "--ignore-end" => o.ignore_end = true,
            "--about-name" => o.about_name = value()?,
            "--quirk" => o.quirks.push(match value()?.as_str() {
                "startup-message" => Quirk::StartupMessage,
                "about-no-name" => Quirk::AboutNoName,
                "about-loose" => Quirk::AboutLoose,
                "ok-chatter" => Quirk::OkChatter,
                "stray-error" => Quirk::StrayError,
                "refuse-start" => Quirk::RefuseStart,
                "suggest" => Quirk::Suggest,
                "board-adds" => Quirk::BoardAdds,
                "cr" => Quirk::Cr,
                other => return Err(format!("unknown quirk {other:?}")),
            }),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    if random {
        o.rng = Some(Rng::new(seed.unwrap_or_else(Rng::fresh_seed)));
    }
    Ok(o)
}

/// The game being played: the board, the rule, and this engine's share of the moves.
struct GameState {
    board: Board,
    rule: Rule,
    /// This engine's moves in the current game.
    moves: u32,
    /// Kept alive so the resident memory stays up.
    ballast: Vec<u8>,
}

impl GameState {
    /// The reply to a move request, after the opponent's stones are on the board.
    fn answer(&mut self, o: &mut Options) -> Option<Out> {
        self.moves += 1;
        let fault = if self.moves == o.at {
            o.fault
        } else {
            Fault::None
        };
        match fault {
            Fault::Crash => std::process::exit(3),
            Fault::Hang => loop {
                std::thread::sleep(Duration::from_secs(3600));
            },
            Fault::Occupied => {
                if let Some((p, _)) = self.board.last_move() {
                    return Some(Out::Reply(ReplyLine::Move(Coord::from(p))));
                }
            }
            Fault::Garbage => return Some(Out::Malformed(GARBAGE)),
            Fault::Late => std::thread::sleep(Duration::from_millis(o.late_ms)),
            Fault::Memory => {
                self.ballast = vec![0u8; o.memory_mb << 20];
                // Touch every page so it becomes resident.
                for i in (0..self.ballast.len()).step_by(4096) {
                    if let Some(b) = self.ballast.get_mut(i) {
                        *b = 1;
                    }
                }
                std::hint::black_box(&self.ballast);
            }
            Fault::None => {}
        }
        let me = self.board.to_move();
        let p = self.choose(me, o.rng.as_mut())?;
        self.board.place(p, me).ok()?;
        Some(Out::Reply(ReplyLine::Move(Coord::from(p))))
    }

    fn choose(&self, me: Color, rng: Option<&mut Rng>) -> Option<Pos> {
        let b = &self.board;
        let empty: Vec<Pos> = b.empty_cells().collect();
        for color in [me, me.opponent()] {
            if let Some(&p) = empty.iter().find(|&&p| self.rule.is_win(b, p, color)) {
                return Some(p);
            }
        }
        if let Some(rng) = rng {
            let near: Vec<Pos> = empty
                .iter()
                .copied()
                .filter(|&p| b.has_stone_near(p, 1))
                .collect();
            if !near.is_empty() {
                return near.get(rng.below(near.len())).copied();
            }
        }
        let c = b.center();
        let d = |p: &Pos| {
            (i32::from(p.x) - i32::from(c.x)).pow(2) + (i32::from(p.y) - i32::from(c.y)).pow(2)
        };
        empty.into_iter().min_by_key(|p| (d(p), *p))
    }
}

fn main() -> ExitCode {
    let mut o = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("pbrain-faulty: {e}");
            return ExitCode::from(2);
        }
    };
    let quirks = std::mem::take(&mut o.quirks);
    let has = |q| quirks.contains(&q);
    let (eol, mut refuse_start) = (
        if has(Quirk::Cr) { "\r\n" } else { "\n" },
        has(Quirk::RefuseStart),
    );
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut out = std::io::stdout();
    let mut say = |lines: &[Out]| {
        lines
            .iter()
            .try_for_each(|l| write!(out, "{l}{eol}"))
            .and_then(|()| out.flush())
            .is_ok()
    };
    let reply = |line| Out::Reply(line);
    if has(Quirk::StartupMessage)
        && !say(&[reply(ReplyLine::Message("pbrain-faulty is ready".into()))])
    {
        return ExitCode::SUCCESS;
    }
    // What a move answer is preceded by.
    let mut before_move = Vec::new();
    if has(Quirk::StrayError) {
        before_move.push(reply(ReplyLine::Error("Unknown command: TIME_LEFT".into())));
        before_move.push(reply(ReplyLine::Unknown("2147483647".into())));
    }
    if has(Quirk::Suggest) {
        before_move.push(reply(ReplyLine::Suggest(Coord { x: 0, y: 0 })));
    }
    let mut rule = Rule::Freestyle;
    let mut game: Option<GameState> = None;
    while let Some(Ok(line)) = lines.next() {
        if line.trim().is_empty() {
            continue;
        }
        let word = command_word(&line);
        // A block's body ends at DONE, or at the end of input.
        let mut body = Vec::new();
        if has_body(&word) {
            for l in lines.by_ref() {
                let Ok(l) = l else { break };
                if is_done(&l) {
                    break;
                }
                body.push(l);
            }
        }
        let mv = |answer: Option<Out>| match answer {
            Some(m) => before_move.iter().cloned().chain([m]).collect(),
            None => Vec::new(),
        };
        let command = match Command::parse_block(&line, &body) {
            Ok(command) => command,
            Err(e) => {
                if !say(&[reply(ReplyLine::Error(e.to_string()))]) {
                    break;
                }
                continue;
            }
        };
        let answer: Vec<Out> = match command {
            Command::About => vec![if has(Quirk::AboutLoose) {
                Out::Malformed(LOOSE_ABOUT)
            } else {
                let name = (!has(Quirk::AboutNoName)).then_some(o.about_name.as_str());
                reply(ReplyLine::About(about(name)))
            }],
            // Rapfi reads the size it refuses as the command.
            Command::Start { width, .. } if refuse_start => {
                refuse_start = false;
                vec![reply(ReplyLine::Error(format!("Unknown command: {width}")))]
            }
            Command::Start { width, height } => match Board::new(width, height) {
                Ok(board) => {
                    game = Some(GameState {
                        board,
                        rule,
                        moves: 0,
                        ballast: Vec::new(),
                    });
                    let mut r = Vec::new();
                    if has(Quirk::OkChatter) {
                        r.push(reply(ReplyLine::Debug("board ready".into())));
                    }
                    r.push(reply(ReplyLine::Ok));
                    r
                }
                Err(e) => vec![reply(ReplyLine::Error(e.to_string()))],
            },
            Command::Info(info) => {
                if let Info::Rule(r) = info {
                    rule = r;
                    if let Some(g) = game.as_mut() {
                        g.rule = rule;
                    }
                }
                Vec::new()
            }
            Command::Begin => mv(game.as_mut().and_then(|g| g.answer(&mut o))),
            Command::Turn(c) => mv(game.as_mut().and_then(|g| {
                let p = g.board.pos(c.x, c.y)?;
                let color = g.board.to_move();
                g.board.place(p, color).ok()?;
                g.answer(&mut o)
            })),
            Command::Board {
                stones,
                answer: true,
            } => {
                let adds = has(Quirk::BoardAdds);
                mv(game.as_mut().and_then(|g| {
                    if adds {
                        // Stones are added in turn from black, fields unread; one on a
                        // taken cell leaves the board corrupt, and the engine dies.
                        for (c, _) in &stones {
                            let p = g.board.pos(c.x, c.y)?;
                            let color = g.board.to_move();
                            if g.board.place(p, color).is_err() {
                                std::process::exit(4);
                            }
                        }
                        return g.answer(&mut o);
                    }
                    // BOARD imposes a whole new position.
                    g.board =
                        Board::new(i64::from(g.board.width()), i64::from(g.board.height())).ok()?;
                    let own = stones.iter().filter(|(_, f)| *f == Field::Own).count();
                    let me = if own * 2 == stones.len() {
                        Color::Black
                    } else {
                        Color::White
                    };
                    for (c, field) in &stones {
                        let color = if *field == Field::Own {
                            me
                        } else {
                            me.opponent()
                        };
                        let p = g.board.pos(c.x, c.y)?;
                        g.board.place(p, color).ok()?;
                    }
                    g.answer(&mut o)
                }))
            }
            Command::End if o.ignore_end => Vec::new(),
            Command::End => return ExitCode::SUCCESS,
            _ => vec![reply(ReplyLine::Unknown(word))],
        };
        if !say(&answer) {
            break;
        }
    }
    ExitCode::SUCCESS
}
