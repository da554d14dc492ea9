//! The referee: plays one game between two engines over the protocol, the way c-gomoku-cli
//! and the Gomocup judge drive them, and judges every move with Hoshi's own rules.
//!
//! Per game and engine: `START size` (answered `OK`), the INFO block, then before each
//! request `INFO time_left`; the engine's first request is `BEGIN` on an empty board and
//! `BOARD … DONE` otherwise, later ones `TURN x,y`. A process is reused for the next game
//! (`START` again) unless it faulted: then it is killed and restarted when next needed.

use std::time::{Duration, Instant};

use crate::board::{Board, Color, Pos};
use crate::rules::{Foul, Rule, Verdict};

use super::engine::{Engine, EngineSpec, Fault, FaultKind};

/// `time_left` sent when the match time is unlimited (the protocol's INT32_MAX).
const UNLIMITED: i64 = 2_147_483_647;

/// Everything a game needs besides the engines and the opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub size: u8,
    pub rule: Rule,
    /// Time per move in ms (0: answer at once, within the tolerance).
    pub turn_ms: u64,
    /// Time per game and side in ms; `None` is unlimited.
    pub match_ms: Option<u64>,
    /// Grace beyond the limit before a move is late and the engine killed.
    pub tolerance: Duration,
    /// Resident-memory limit in bytes, enforced on Linux.
    pub max_memory: Option<u64>,
}

impl Settings {
    /// The window for `ABOUT` and `START`, which are not timed as moves but must not hang.
    fn handshake(&self) -> Duration {
        self.tolerance.max(Duration::from_secs(2))
    }
}

/// One side of the match: its description and, between games, its process.
pub struct Player {
    pub spec: EngineSpec,
    engine: Option<Engine>,
    /// The engine's first answer to `ABOUT`.
    pub about: Option<String>,
}

impl Player {
    #[must_use]
    pub fn new(spec: EngineSpec) -> Player {
        Player {
            spec,
            engine: None,
            about: None,
        }
    }

    /// Ends the process politely (`END`, then a kill after `grace`).
    pub fn quit(&mut self, grace: Duration) {
        if let Some(engine) = self.engine.take() {
            engine.quit(grace);
        }
    }

    /// Runs `f` on the engine; a fault kills the process so the next game starts afresh.
    fn with<T>(&mut self, f: impl FnOnce(&mut Engine) -> Result<T, Fault>) -> Result<T, Fault> {
        let engine = self
            .engine
            .as_mut()
            .ok_or_else(|| Fault::new(FaultKind::Crash, "not running"))?;
        let result = f(engine);
        if result.is_err() {
            self.engine = None;
        }
        result
    }

    /// Starts the process if needed, then `START` and the INFO block.
    fn start_game(&mut self, s: &Settings) -> Result<(), Fault> {
        if self.engine.is_none() {
            self.engine = Some(Engine::spawn(&self.spec, s.max_memory)?);
            // An engine that ignores ABOUT may still play: only a dead one faults here.
            let about = self.with(|e| {
                e.send("ABOUT")?;
                match e.recv(Instant::now() + s.handshake()) {
                    Ok(line) => Ok(Some(line)),
                    Err(f) if f.kind == FaultKind::Timeout => Ok(None),
                    Err(f) => Err(f),
                }
            })?;
            if self.about.is_none() {
                self.about = about;
            }
        }
        let mut info = vec![
            format!("INFO timeout_turn {}", s.turn_ms),
            format!("INFO timeout_match {}", s.match_ms.unwrap_or(0)),
            format!("INFO max_memory {}", s.max_memory.unwrap_or(0)),
            format!("INFO rule {}", s.rule.code()),
            "INFO game_type 1".to_owned(),
        ];
        info.extend(
            self.spec
                .options
                .iter()
                .map(|(k, v)| format!("INFO {k} {v}")),
        );
        self.with(|e| {
            e.send(&format!("START {}", s.size))?;
            let deadline = Instant::now() + s.handshake();
            loop {
                let line = e.recv(deadline)?;
                if line.eq_ignore_ascii_case("OK") {
                    break;
                }
                if !is_chatter(&line) {
                    return Err(Fault::new(
                        FaultKind::Malformed,
                        format!("answered {line:?} to START"),
                    ));
                }
            }
            info.iter().try_for_each(|l| e.send(l))
        })
    }

    /// Sends one request and waits for the move: `(x, y, elapsed ms)`.
    fn request(
        &mut self,
        lines: &[String],
        deadline_after: Duration,
    ) -> Result<(i64, i64, u64), Fault> {
        self.with(|e| {
            let sent = Instant::now();
            lines.iter().try_for_each(|l| e.send(l))?;
            let deadline = sent + deadline_after;
            loop {
                let line = e.recv(deadline).map_err(|f| match f.kind {
                    FaultKind::Timeout => Fault::new(
                        FaultKind::Timeout,
                        format!("no move within {} ms (killed)", deadline_after.as_millis()),
                    ),
                    _ => f,
                })?;
                if is_chatter(&line) {
                    continue;
                }
                let (x, y) = parse_move(&line).ok_or_else(|| {
                    Fault::new(FaultKind::Malformed, format!("{line:?} is not a move"))
                })?;
                e.check_memory()?;
                let ms = u64::try_from(sent.elapsed().as_millis()).unwrap_or(u64::MAX);
                return Ok((x, y, ms));
            }
        })
    }
}

/// `MESSAGE` and `DEBUG` lines may precede any answer; managers log and skip them.
fn is_chatter(line: &str) -> bool {
    let word = line.split_whitespace().next().unwrap_or("");
    word.eq_ignore_ascii_case("MESSAGE") || word.eq_ignore_ascii_case("DEBUG")
}

/// `x,y` with optional spaces around the comma, as every manager accepts.
fn parse_move(line: &str) -> Option<(i64, i64)> {
    let (x, y) = line.split_once(',')?;
    Some((x.trim().parse().ok()?, y.trim().parse().ok()?))
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The winner made a winning line.
    Five,
    /// Black played a forbidden point (renju).
    Foul(Foul),
    /// Nobody won before the board filled up.
    FullBoard,
    /// The loser faulted.
    Fault(Fault),
}

/// A move and the time it took (0 for opening stones).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub pos: Pos,
    pub ms: u64,
}

/// A finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// Every stone in play order, the opening first. A foul's move is included; a faulty
    /// move is not (it never reached the board).
    pub moves: Vec<Move>,
    pub winner: Option<Color>,
    pub ending: Ending,
}

/// Plays one game; `players[0]` has black. Faults lose the game, never panic the runner.
pub fn play(players: [&mut Player; 2], settings: &Settings, opening: &[Pos]) -> Game {
    let [black, white] = players;
    let mut game = Game {
        moves: opening.iter().map(|&pos| Move { pos, ms: 0 }).collect(),
        winner: None,
        ending: Ending::FullBoard,
    };
    let side = i64::from(settings.size);
    let mut board = match Board::new(side, side) {
        Ok(b) => b,
        Err(e) => {
            return fault(
                game,
                Color::Black,
                Fault::new(FaultKind::Crash, e.to_string()),
            );
        }
    };
    for (i, &p) in opening.iter().enumerate() {
        let color = if i % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        // Openings are checked when loaded; a clash here would be a runner bug.
        if board.place(p, color).is_err() {
            return fault(
                game,
                color,
                Fault::new(FaultKind::Illegal, format!("opening stone {p}")),
            );
        }
    }
    for (color, player) in [(Color::Black, &mut *black), (Color::White, &mut *white)] {
        if let Err(f) = player.start_game(settings) {
            return fault(game, color, f);
        }
    }
    let mut clock = [settings
        .match_ms
        .map_or(UNLIMITED, |m| i64::try_from(m).unwrap_or(UNLIMITED)); 2];
    let mut synced = [false; 2];
    while !board.is_full() {
        let color = board.to_move();
        let me = usize::from(color == Color::White);
        let player = if me == 0 { &mut *black } else { &mut *white };
        let mut lines = vec![format!("INFO time_left {}", clock[me])];
        if synced[me] {
            if let Some((p, _)) = board.last_move() {
                lines.push(format!("TURN {p}"));
            }
        } else if board.has_no_stones() {
            lines.push("BEGIN".to_owned());
        } else {
            lines.push("BOARD".to_owned());
            for &(p, c) in board.history() {
                lines.push(format!("{p},{}", if c == color { 1 } else { 2 }));
            }
            lines.push("DONE".to_owned());
        }
        synced[me] = true;
        let limit = match settings.match_ms {
            Some(_) => settings.turn_ms.min(u64::try_from(clock[me]).unwrap_or(0)),
            None => settings.turn_ms,
        };
        let (x, y, ms) =
            match player.request(&lines, Duration::from_millis(limit) + settings.tolerance) {
                Ok(answer) => answer,
                Err(f) => return fault(game, color, f),
            };
        if settings.match_ms.is_some() {
            clock[me] -= i64::try_from(ms).unwrap_or(UNLIMITED);
        }
        let Some(p) = board.pos(x, y).filter(|&p| board.is_empty_at(p)) else {
            player.engine = None;
            let why = if board.pos(x, y).is_some() {
                "occupied"
            } else {
                "outside the board"
            };
            return fault(
                game,
                color,
                Fault::new(FaultKind::Illegal, format!("{x},{y} is {why}")),
            );
        };
        game.moves.push(Move { pos: p, ms });
        match settings.rule.judge(&board, p, color) {
            Verdict::Win => {
                game.winner = Some(color);
                game.ending = Ending::Five;
                return game;
            }
            Verdict::Foul(foul) => {
                game.winner = Some(color.opponent());
                game.ending = Ending::Foul(foul);
                return game;
            }
            Verdict::Continue => {
                // The cell was just checked to be empty and on the board.
                let _ = board.place(p, color);
            }
        }
    }
    game
}

fn fault(mut game: Game, loser: Color, fault: Fault) -> Game {
    game.winner = Some(loser.opponent());
    game.ending = Ending::Fault(fault);
    game
}

/// Replays recorded moves with the referee: the winner and ending a record implies, or an
/// error if a move is impossible or comes after the end. Faults cannot be replayed: a
/// record of a faulted game replays as unfinished (`None` winner, [`Ending::FullBoard`] only
/// if the board is full).
pub fn replay(
    size: u8,
    rule: Rule,
    moves: &[Pos],
) -> Result<(Option<Color>, Option<Ending>), String> {
    let mut board = Board::new(i64::from(size), i64::from(size)).map_err(|e| e.to_string())?;
    for (i, &p) in moves.iter().enumerate() {
        if !board.is_empty_at(p) {
            return Err(format!("move {} on {p} is impossible", i + 1));
        }
        let color = board.to_move();
        let last = i + 1 == moves.len();
        match rule.judge(&board, p, color) {
            Verdict::Win if last => return Ok((Some(color), Some(Ending::Five))),
            Verdict::Foul(f) if last => return Ok((Some(color.opponent()), Some(Ending::Foul(f)))),
            Verdict::Continue => {
                let _ = board.place(p, color);
            }
            _ => return Err(format!("the game was over before move {}", i + 2)),
        }
    }
    Ok((None, board.is_full().then_some(Ending::FullBoard)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_parse_as_managers_accept_them() {
        assert_eq!(parse_move("7,8"), Some((7, 8)));
        assert_eq!(parse_move(" 7 , 8 "), Some((7, 8)));
        assert_eq!(parse_move("-1,3"), Some((-1, 3)));
        assert_eq!(parse_move("7;8"), None);
        assert_eq!(parse_move("7,8,1"), None);
        assert_eq!(parse_move("OK"), None);
        assert!(is_chatter("MESSAGE thinking"));
        assert!(is_chatter("debug x"));
        assert!(!is_chatter("MESSAGES"));
    }

    #[test]
    fn replay_finds_the_winner_and_rejects_moves_after_the_end() {
        // Black 0..4 on row 0, white on row 1: black's fifth stone wins on move 9.
        let mut moves = Vec::new();
        for i in 0..5u8 {
            moves.push(Pos::new(i, 0));
            if i < 4 {
                moves.push(Pos::new(i, 1));
            }
        }
        let (w, e) = replay(9, Rule::Freestyle, &moves).unwrap();
        assert_eq!((w, e), (Some(Color::Black), Some(Ending::Five)));
        assert_eq!(
            replay(9, Rule::Freestyle, &moves[..8]).unwrap(),
            (None, None)
        );
        moves.push(Pos::new(8, 8));
        assert!(replay(9, Rule::Freestyle, &moves).is_err());
        assert!(replay(9, Rule::Freestyle, &[Pos::new(1, 1), Pos::new(1, 1)]).is_err());
    }
}
