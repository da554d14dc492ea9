//! `pbrain-faulty`: a tiny pbrain engine for testing match runners. It plays legal moves
//! (win if it can, else block a five, else the empty cell nearest the centre, or a random
//! cell next to a stone with `--random`) and misbehaves on command:
//!
//! ```text
//! pbrain-faulty [--fault none|crash|hang|occupied|garbage|late|memory] [--at N]
//!               [--late-ms MS] [--memory-mb MB] [--random] [--seed S] [--ignore-end]
//!               [--quirk QUIRK]...
//! ```
//!
//! The fault strikes at the engine's N-th move (default 1) of every game: `crash` exits,
//! `hang` never answers, `occupied` answers a cell that holds a stone, `garbage` prints a
//! line that is no move, `late` answers after `--late-ms` (default 3000), `memory` touches
//! `--memory-mb` MiB (default 256) before answering. `--ignore-end` makes it deaf to `END`,
//! so the runner has to kill it.
//!
//! Each `--quirk` copies a habit of a real engine (shared/peers/README.md) that is no
//! fault, but that a strict runner would take for one:
//! `startup-message` (a `MESSAGE` before anything is asked: Rapfi, PentaZen),
//! `about-no-name` (ABOUT without `name=`: pela), `about-loose` (spaces around `=`:
//! AIWine), `ok-chatter` (`DEBUG` before `OK`), `stray-error` (`ERROR Unknown command:
//! TIME_LEFT` and `UNKNOWN` before every move: Rapfi, which drops input while it finishes
//! a search), `refuse-start` (the process's first START answered `ERROR Unknown command:
//! 15`, as Rapfi does when it drops the word START), `suggest` (a `SUGGEST` line before
//! every move), `board-adds` (BOARD adds its stones to the board instead of replacing
//! it, and ignores their fields, assuming alternation from black: PentaZen, Carbon; a
//! stone on a taken cell corrupts its board and it exits), `cr` (lines end in CRLF).

use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::time::Duration;

use hoshi::board::{Board, Color, Pos};
use hoshi::rng::Rng;
use hoshi::rules::Rule;

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

struct Game {
    board: Board,
    rule: Rule,
    /// This engine's moves in the current game.
    moves: u32,
    /// Kept alive so the resident memory stays up.
    ballast: Vec<u8>,
}

impl Game {
    /// The reply to a move request, after the opponent's stones are on the board.
    fn answer(&mut self, o: &mut Options) -> Option<String> {
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
                    return Some(p.to_string());
                }
            }
            Fault::Garbage => return Some("this is no move".to_owned()),
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
        Some(p.to_string())
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

fn coords(s: &str) -> Option<Vec<i64>> {
    s.split(',').map(|t| t.trim().parse().ok()).collect()
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
    let mut say = |lines: &[String]| {
        lines
            .iter()
            .try_for_each(|l| write!(out, "{l}{eol}"))
            .and_then(|()| out.flush())
            .is_ok()
    };
    if has(Quirk::StartupMessage) && !say(&["MESSAGE pbrain-faulty is ready".to_owned()]) {
        return ExitCode::SUCCESS;
    }
    // What a move answer is preceded by.
    let mut before_move = Vec::new();
    if has(Quirk::StrayError) {
        before_move.push("ERROR Unknown command: TIME_LEFT".to_owned());
        before_move.push("UNKNOWN 2147483647".to_owned());
    }
    if has(Quirk::Suggest) {
        before_move.push("SUGGEST 0,0".to_owned());
    }
    let mut rule = Rule::Freestyle;
    let mut game: Option<Game> = None;
    while let Some(Ok(line)) = lines.next() {
        let line = line.trim().to_owned();
        let (cmd, arg) = line.split_once(' ').unwrap_or((&line, ""));
        let mv = |answer: Option<String>| match answer {
            Some(m) => before_move.iter().cloned().chain([m]).collect(),
            None => Vec::new(),
        };
        let reply: Vec<String> = match cmd.to_ascii_uppercase().as_str() {
            "" => Vec::new(),
            "ABOUT" => vec![
                if has(Quirk::AboutNoName) {
                    r#"author="Hoshi tests", version="1.0""#
                } else if has(Quirk::AboutLoose) {
                    r#"name = "pbrain-faulty", version ="1.0", author = "Hoshi tests""#
                } else {
                    r#"name="pbrain-faulty", version="1.0", author="Hoshi tests""#
                }
                .to_owned(),
            ],
            "START" if refuse_start => {
                refuse_start = false;
                vec![format!("ERROR Unknown command: {}", arg.trim())]
            }
            "START" => {
                let size = arg.trim().parse().unwrap_or(0);
                match Board::new(size, size) {
                    Ok(board) => {
                        game = Some(Game {
                            board,
                            rule,
                            moves: 0,
                            ballast: Vec::new(),
                        });
                        let mut r = Vec::new();
                        if has(Quirk::OkChatter) {
                            r.push("DEBUG board ready".to_owned());
                        }
                        r.push("OK".to_owned());
                        r
                    }
                    Err(e) => vec![format!("ERROR {e}")],
                }
            }
            "INFO" => {
                let mut kv = arg.split_whitespace();
                if let (Some(k), Some(v)) = (kv.next(), kv.next())
                    && k.eq_ignore_ascii_case("rule")
                {
                    rule = v.parse().ok().and_then(Rule::from_code).unwrap_or(rule);
                    if let Some(g) = game.as_mut() {
                        g.rule = rule;
                    }
                }
                Vec::new()
            }
            "BEGIN" => mv(game.as_mut().and_then(|g| g.answer(&mut o))),
            "TURN" => mv(game.as_mut().and_then(|g| {
                let xy = coords(arg)?;
                let p = g.board.pos(*xy.first()?, *xy.get(1)?)?;
                let color = g.board.to_move();
                g.board.place(p, color).ok()?;
                g.answer(&mut o)
            })),
            "BOARD" => {
                let mut stones = Vec::new();
                for l in lines.by_ref() {
                    let Ok(l) = l else { break };
                    if l.trim().eq_ignore_ascii_case("DONE") {
                        break;
                    }
                    stones.extend(coords(l.trim()).filter(|v| v.len() == 3));
                }
                let adds = has(Quirk::BoardAdds);
                mv(game.as_mut().and_then(|g| {
                    if adds {
                        // Stones are added in turn from black, fields unread; one on a
                        // taken cell leaves the board corrupt, and the engine dies.
                        for s in &stones {
                            let p = g.board.pos(*s.first()?, *s.get(1)?)?;
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
                    let own = stones.iter().filter(|s| s.get(2) == Some(&1)).count();
                    let me = if own * 2 == stones.len() {
                        Color::Black
                    } else {
                        Color::White
                    };
                    for s in &stones {
                        let color = if s.get(2) == Some(&1) {
                            me
                        } else {
                            me.opponent()
                        };
                        let p = g.board.pos(*s.first()?, *s.get(1)?)?;
                        g.board.place(p, color).ok()?;
                    }
                    g.answer(&mut o)
                }))
            }
            "END" if o.ignore_end => Vec::new(),
            "END" => return ExitCode::SUCCESS,
            _ => vec![format!("UNKNOWN {cmd}")],
        };
        if !say(&reply) {
            break;
        }
    }
    ExitCode::SUCCESS
}
