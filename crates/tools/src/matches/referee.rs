//! The referee: plays one game between two engines over the protocol, the way c-gomoku-cli
//! and the Gomocup judge drive them, and judges every move with Hoshi's own rules.
//!
//! Per game and engine: `START size` (answered `OK`), the INFO block, then before each
//! request `INFO time_left`; the engine's first request is `BEGIN` on an empty board and
//! `BOARD … DONE` otherwise, later ones `TURN x,y`. A process is reused for the next game
//! (`START` again) unless it faulted: then it is killed and restarted when next needed.
//! Every command is a [`Command`] of the protocol crate, which prints it.
//!
//! BOARD therefore always meets a board that START has just cleared, which engines whose
//! BOARD adds to the old position instead of replacing it (Carbon, PentaZen) need; and
//! its stones come in play order, alternating, as engines that ignore the fields and
//! assume alternation (PentaZen) read them.
//!
//! What real engines print around their answers is sorted by [`Said`]: `MESSAGE`/`DEBUG`
//! are skipped before the ABOUT answer, before `OK` and before a move; any other line
//! that answers nothing (an `ERROR` nobody asked for, a stray `OK`) is skipped too and
//! noted as a [`Quirk`], never taken for the answer. That is c-gomoku-cli's leniency,
//! with a record of what was forgiven.

use std::time::{Duration, Instant};

use hoshi::board::{Board, Color, Pos};
use hoshi::rules::{Foul, Rule, Verdict};
use hoshi_protocol::{About, Command, Coord, Field, Info};

use super::adjudicate::Adjudicator;
use super::engine::{Engine, EngineSpec, Fault, FaultKind};
use super::quirks::{Quirk, Sighting};
use super::said::Said;

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
    /// Resident-memory limit in bytes, enforced where it can be measured
    /// ([`super::engine::MEMORY_MEASURED`]).
    pub max_memory: Option<u64>,
    /// End a game as soon as the side to move has a proven win (see [`Adjudicator`]).
    pub adjudicate: bool,
}

impl Settings {
    /// The conditions as the summaries print them: `RULE WxH; TC; tolerance T ms; seed S`
    /// and whether games are adjudicated.
    #[must_use]
    pub fn conditions(&self, seed: u64) -> String {
        let tc = match self.match_ms {
            Some(m) => format!("{} ms/move, {m} ms/game", self.turn_ms),
            None => format!("{} ms/move", self.turn_ms),
        };
        format!(
            "{} {}x{}; {tc}; tolerance {} ms; seed {seed}{}",
            self.rule,
            self.size,
            self.size,
            self.tolerance.as_millis(),
            if self.adjudicate {
                "; adjudication by proof"
            } else {
                ""
            }
        )
    }

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
    /// Quirks seen since they were last taken (by [`play`], or at the end of the match).
    pub sightings: Vec<Sighting>,
    /// Whether the running process's `\r` line ends are noted already.
    cr_noted: bool,
}

impl Player {
    #[must_use]
    pub fn new(spec: EngineSpec) -> Player {
        Player {
            spec,
            engine: None,
            about: None,
            sightings: Vec::new(),
            cr_noted: false,
        }
    }

    /// Ends the process politely (`END`, then a kill after `grace`).
    pub fn quit(&mut self, grace: Duration) {
        if let Some(engine) = self.engine.take()
            && !engine.quit(grace)
        {
            self.note(
                Quirk::SlowExit,
                format!("still running {} ms after END", grace.as_millis()),
            );
        }
    }

    fn note(&mut self, quirk: Quirk, detail: impl Into<String>) {
        self.sightings.push(Sighting::new(quirk, detail));
    }

    /// Runs `f` on the engine; a fault kills the process so the next game starts afresh.
    fn with<T>(
        &mut self,
        f: impl FnOnce(&mut Engine, &mut Vec<Sighting>) -> Result<T, Fault>,
    ) -> Result<T, Fault> {
        let engine = self
            .engine
            .as_mut()
            .ok_or_else(|| Fault::new(FaultKind::Crash, "not running"))?;
        let result = f(engine, &mut self.sightings);
        if engine.ends_lines_with_cr() && !self.cr_noted {
            self.cr_noted = true;
            self.note(Quirk::CrLineEnds, "a line ended in \\r");
        }
        if result.is_err() {
            self.engine = None;
        }
        result
    }

    /// Starts the process if needed, then `START` and the INFO block.
    fn start_game(&mut self, s: &Settings) -> Result<(), Fault> {
        if self.engine.is_none() {
            self.engine = Some(Engine::spawn(&self.spec, s.max_memory)?);
            self.cr_noted = false;
            let about = self.with(|e, seen| ask_about(e, s.handshake(), seen))?;
            if self.about.is_none() {
                self.about = about;
            }
        }
        // Times beyond i64 (some 292 million years) are sent as the longest there is.
        let ms = |ms: u64| i64::try_from(ms).unwrap_or(i64::MAX);
        let mut info = vec![
            Info::TimeoutTurn(ms(s.turn_ms)),
            Info::TimeoutMatch(ms(s.match_ms.unwrap_or(0))),
            Info::MaxMemory(s.max_memory.unwrap_or(0)),
            Info::Rule(s.rule),
            Info::Accepted {
                key: "game_type".to_owned(),
                value: "1".to_owned(),
            },
        ];
        // The user's options go as given, unread.
        info.extend(self.spec.options.iter().map(|(k, v)| Info::Accepted {
            key: k.clone(),
            value: v.clone(),
        }));
        self.with(|e, seen| {
            start(e, s.size, s.handshake(), seen)?;
            info.into_iter().try_for_each(|i| e.send(&Command::Info(i)))
        })
    }

    /// Sends one request and waits for the move: `(x, y, elapsed ms)`.
    fn request(
        &mut self,
        commands: &[Command],
        deadline_after: Duration,
    ) -> Result<(i64, i64, u64), Fault> {
        self.with(|e, seen| {
            let sent = Instant::now();
            commands.iter().try_for_each(|c| e.send(c))?;
            let deadline = sent + deadline_after;
            // The last line that was no move, for the fault if no move follows.
            let mut garbage = None;
            loop {
                let line = e.recv(deadline).map_err(|f| {
                    if f.kind != FaultKind::Timeout {
                        return f;
                    }
                    let ms = deadline_after.as_millis();
                    match &garbage {
                        Some(g) => Fault::new(
                            FaultKind::Malformed,
                            format!(
                                "{g:?} is not a move, and no move followed within {ms} ms (killed)"
                            ),
                        ),
                        None => Fault::new(
                            FaultKind::Timeout,
                            format!("no move within {ms} ms (killed)"),
                        ),
                    }
                })?;
                let quirk = match Said::of(&line) {
                    Said::Chatter => continue,
                    Said::Move(x, y) => {
                        e.check_memory()?;
                        let ms = u64::try_from(sent.elapsed().as_millis()).unwrap_or(u64::MAX);
                        return Ok((x, y, ms));
                    }
                    Said::Error => Quirk::StrayError,
                    Said::Unknown => Quirk::StrayUnknown,
                    Said::Suggest => Quirk::StraySuggest,
                    Said::Ok => Quirk::StrayLine,
                    Said::Other(_) => {
                        garbage = Some(line.clone());
                        Quirk::StrayLine
                    }
                };
                seen.push(Sighting::new(quirk, format!("{line:?}")));
            }
        })
    }
}

/// `ABOUT`, answered by the first line that is not `MESSAGE`/`DEBUG`. No answer within
/// `window`, or `ERROR`/`UNKNOWN`, is a quirk: the engine may still play.
fn ask_about(
    e: &mut Engine,
    window: Duration,
    seen: &mut Vec<Sighting>,
) -> Result<Option<String>, Fault> {
    e.send(&Command::About)?;
    let deadline = Instant::now() + window;
    let mut chatter = false;
    loop {
        let line = match e.recv(deadline) {
            Ok(line) => line,
            Err(f) if f.kind == FaultKind::Timeout => {
                let why = format!("no answer within {} ms", window.as_millis());
                seen.push(Sighting::new(Quirk::NoAbout, why));
                return Ok(None);
            }
            Err(f) => return Err(f),
        };
        match Said::of(&line) {
            Said::Chatter => {
                if !chatter {
                    chatter = true;
                    seen.push(Sighting::new(
                        Quirk::ChatterBeforeAbout,
                        format!("{line:?}"),
                    ));
                }
            }
            Said::Error | Said::Unknown => {
                seen.push(Sighting::new(Quirk::NoAbout, format!("{line:?}")));
                return Ok(None);
            }
            _ => {
                let about = About::parse(&line);
                if about.get("name").is_none() {
                    seen.push(Sighting::new(Quirk::AboutWithoutName, format!("{line:?}")));
                }
                if !about.is_strict(&line) {
                    seen.push(Sighting::new(Quirk::LooseAbout, format!("{line:?}")));
                }
                return Ok(Some(line));
            }
        }
    }
}

/// `START size`, answered `OK` within `window`. `MESSAGE`/`DEBUG` and lines that answer
/// nothing (a late ABOUT answer) are skipped. A refusal (`ERROR`, `UNKNOWN`) gets START
/// once more, with a new window: an engine that drops commands while it finishes a search
/// (Rapfi) refuses the size it read as a command; a second refusal is a fault.
fn start(
    e: &mut Engine,
    size: u8,
    window: Duration,
    seen: &mut Vec<Sighting>,
) -> Result<(), Fault> {
    let command = Command::Start {
        width: i64::from(size),
        height: i64::from(size),
    };
    e.send(&command)?;
    let mut deadline = Instant::now() + window;
    let (mut chatter, mut refused) = (false, false);
    loop {
        let line = e.recv(deadline).map_err(|f| match f.kind {
            FaultKind::Timeout => Fault::new(
                FaultKind::Timeout,
                format!("no OK to START within {} ms", window.as_millis()),
            ),
            _ => f,
        })?;
        match Said::of(&line) {
            Said::Ok => return Ok(()),
            Said::Chatter => {
                if !chatter {
                    chatter = true;
                    seen.push(Sighting::new(Quirk::ChatterBeforeOk, format!("{line:?}")));
                }
            }
            Said::Error | Said::Unknown if refused => {
                return Err(Fault::new(
                    FaultKind::Malformed,
                    format!("answered {line:?} to START, twice"),
                ));
            }
            Said::Error | Said::Unknown => {
                refused = true;
                seen.push(Sighting::new(Quirk::StartRefused, format!("{line:?}")));
                e.send(&command)?;
                deadline = Instant::now() + window;
            }
            _ => seen.push(Sighting::new(Quirk::StrayLine, format!("{line:?}"))),
        }
    }
}

/// How a match game ended (what PGN's `Termination` tag names): on the board, or off it
/// by a fault or an adjudication, which [`crate::game::Outcome`] has no place for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// The winner made a winning line.
    Five,
    /// Black played a forbidden point (renju).
    Foul(Foul),
    /// Nobody won before the board filled up.
    FullBoard,
    /// The loser faulted.
    Fault(Fault),
    /// The winner, to move, had a forced win (`--adjudicate`): this line, winner's and
    /// forced replies alternating.
    Adjudicated(Vec<Pos>),
}

/// A move and the time it took (0 for opening stones).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub pos: Pos,
    pub ms: u64,
}

/// A match game the referee played to its end: moves with their times, the result and
/// the engines' quirks (the tools' [`crate::game::Game`] is a board being played on).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    /// Every stone in play order, the opening first. A foul's move is included; a faulty
    /// move is not (it never reached the board).
    pub moves: Vec<Move>,
    /// How many of `moves` are the opening.
    pub opening: usize,
    pub winner: Option<Color>,
    pub ending: Termination,
    /// The players' quirks seen during the game, by the colour they played.
    pub sightings: Vec<(Color, Sighting)>,
}

/// Plays one game; `players[0]` has black. Faults lose the game, never panic the runner.
pub fn play(players: [&mut Player; 2], settings: &Settings, opening: &[Pos]) -> PlayedGame {
    let [black, white] = players;
    let mut game = PlayedGame {
        moves: opening.iter().map(|&pos| Move { pos, ms: 0 }).collect(),
        opening: opening.len(),
        winner: None,
        ending: Termination::FullBoard,
        sightings: Vec::new(),
    };
    play_out(&mut game, [&mut *black, &mut *white], settings, opening);
    for (color, player) in [(Color::Black, black), (Color::White, white)] {
        game.sightings
            .extend(player.sightings.drain(..).map(|s| (color, s)));
    }
    game
}

/// Plays `game` from its opening to the end, recording moves and the result in it.
fn play_out(
    game: &mut PlayedGame,
    players: [&mut Player; 2],
    settings: &Settings,
    opening: &[Pos],
) {
    let [black, white] = players;
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
    let mut adjudicator = settings.adjudicate.then(Adjudicator::new);
    while !board.is_full() {
        let color = board.to_move();
        if let Some(proof) = adjudicator
            .as_mut()
            .and_then(|a| a.proven_win(&board, settings.rule, color))
        {
            game.winner = Some(color);
            game.ending = Termination::Adjudicated(proof);
            return;
        }
        let me = usize::from(color == Color::White);
        let player = if me == 0 { &mut *black } else { &mut *white };
        let mut commands = vec![Command::Info(Info::TimeLeft(clock[me]))];
        if synced[me] {
            if let Some((p, _)) = board.last_move() {
                commands.push(Command::Turn(Coord::from(p)));
            }
        } else if board.has_no_stones() {
            commands.push(Command::Begin);
        } else {
            let field = |c| {
                if c == color {
                    Field::Own
                } else {
                    Field::Opponent
                }
            };
            commands.push(Command::Board {
                stones: board
                    .history()
                    .iter()
                    .map(|&(p, c)| (Coord::from(p), field(c)))
                    .collect(),
                answer: true,
            });
        }
        synced[me] = true;
        let limit = match settings.match_ms {
            Some(_) => settings.turn_ms.min(u64::try_from(clock[me]).unwrap_or(0)),
            None => settings.turn_ms,
        };
        let (x, y, ms) =
            match player.request(&commands, Duration::from_millis(limit) + settings.tolerance) {
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
                game.ending = Termination::Five;
                return;
            }
            Verdict::Foul(foul) => {
                game.winner = Some(color.opponent());
                game.ending = Termination::Foul(foul);
                return;
            }
            Verdict::Continue => {
                // The cell was just checked to be empty and on the board.
                let _ = board.place(p, color);
            }
        }
    }
}

fn fault(game: &mut PlayedGame, loser: Color, fault: Fault) {
    game.winner = Some(loser.opponent());
    game.ending = Termination::Fault(fault);
}

/// Replays recorded moves with the referee: the winner and ending a record implies, or an
/// error if a move is impossible or comes after the end. Faults cannot be replayed: a
/// record of a faulted game replays as unfinished (`None` winner, [`Termination::FullBoard`] only
/// if the board is full).
pub fn replay(
    size: u8,
    rule: Rule,
    moves: &[Pos],
) -> Result<(Option<Color>, Option<Termination>), String> {
    let mut board = Board::new(i64::from(size), i64::from(size)).map_err(|e| e.to_string())?;
    for (i, &p) in moves.iter().enumerate() {
        if !board.is_empty_at(p) {
            return Err(format!("move {} on {p} is impossible", i + 1));
        }
        let color = board.to_move();
        let last = i + 1 == moves.len();
        match rule.judge(&board, p, color) {
            Verdict::Win if last => return Ok((Some(color), Some(Termination::Five))),
            Verdict::Foul(f) if last => {
                return Ok((Some(color.opponent()), Some(Termination::Foul(f))));
            }
            Verdict::Continue => {
                let _ = board.place(p, color);
            }
            _ => return Err(format!("the game was over before move {}", i + 2)),
        }
    }
    Ok((None, board.is_full().then_some(Termination::FullBoard)))
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!((w, e), (Some(Color::Black), Some(Termination::Five)));
        assert_eq!(
            replay(9, Rule::Freestyle, &moves[..8]).unwrap(),
            (None, None)
        );
        moves.push(Pos::new(8, 8));
        assert!(replay(9, Rule::Freestyle, &moves).is_err());
        assert!(replay(9, Rule::Freestyle, &[Pos::new(1, 1), Pos::new(1, 1)]).is_err());
    }
}
