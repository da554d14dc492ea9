//! The session: settings, the game, and one reply per request.
//!
//! Settings (rule, clock, level, bounds, memory) live for the whole process; `START`,
//! `RECTSTART` and `RESTART` replace only the game. A command the game cannot take (off
//! the board, an occupied cell, no game started) is answered `ERROR <why>` and changes
//! nothing: every check runs before the first change.

use std::fmt;
use std::io::Write;
use std::sync::Arc;
use std::sync::mpsc::Receiver;
use std::time::Instant;

use super::Options;
use crate::reader::{Message, StopControl};
use crate::reply::{Replies, Reply};
use hoshi::board::{Board, BoardError, Color, Pos};
use hoshi::eval::Evaluator;
use hoshi::judge::{Judge, Swap2};
use hoshi::levels::{Choice, Context, Level, Report, Strength};
use hoshi::rng::Rng;
use hoshi::rules::{Rule, renju};
use hoshi::search::{self, Progress, Request, Searcher};
use hoshi::time::Limits;
use hoshi::time::{self, TimeControl};
use hoshi_protocol::{Command, Coord, Field, Info, ParseError};

/// Why a request was refused: what `ERROR` answers. The session is unchanged after any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SessionError {
    /// The line was no well-formed command.
    Parse(ParseError),
    /// A game command before any `START`.
    NoGame,
    /// A size, square or stone the board refuses.
    Board(BoardError),
    /// `BEGIN` on a board with stones.
    BeginOnStones,
    /// `TURN` on the last empty square: nothing left for our reply.
    TurnFillsBoard(Pos),
    /// A `BOARD` that asks for a move and leaves no empty square.
    BoardLeavesNoSquare,
    /// A move asked for on a full board.
    BoardFull,
    /// `SWAP2BOARD` with a stone count of no swap2 step.
    Swap2Stones(usize),
    /// `YXSWAP2STEP2`/`3` on a board without the 3 or 5 stones of that step.
    YixinSwap2Stones { step: u8, wanted: usize, got: usize },
    /// A balancing request on a board with no candidate for the stones it asks for.
    NothingToBalance { stones: usize },
}

impl fmt::Display for SessionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SessionError::Parse(e) => e.fmt(f),
            SessionError::NoGame => f.write_str("no game started: send START first"),
            SessionError::Board(e) => e.fmt(f),
            SessionError::BeginOnStones => {
                f.write_str("BEGIN needs an empty board; send BOARD for a position")
            }
            SessionError::TurnFillsBoard(p) => {
                write!(f, "TURN {p} fills the board: no square is left for a reply")
            }
            SessionError::BoardLeavesNoSquare => {
                f.write_str("BOARD leaves no empty square to play")
            }
            SessionError::BoardFull => f.write_str("the board is full: there is no move to make"),
            SessionError::Swap2Stones(n) => {
                write!(f, "SWAP2BOARD needs 0, 3 or 5 stones, got {n}")
            }
            SessionError::YixinSwap2Stones { step, wanted, got } => write!(
                f,
                "YXSWAP2STEP{step} needs {wanted} stones on the board (set by YXBOARD), got {got}"
            ),
            SessionError::NothingToBalance { stones } => {
                write!(f, "no candidate move to place {stones} balancing stone(s)")
            }
        }
    }
}

impl std::error::Error for SessionError {}

impl From<BoardError> for SessionError {
    fn from(e: BoardError) -> SessionError {
        SessionError::Board(e)
    }
}

/// Settings that outlive games.
#[derive(Clone, Debug)]
struct Settings {
    rule: Rule,
    level: Level,
    /// Master's strength.
    strength: Strength,
    seed: Option<u64>,
    time: TimeControl,
    max_depth: Option<u32>,
    max_nodes: Option<u64>,
    /// `INFO max_memory` in bytes (0: no limit), kept for the search's tables.
    max_memory: u64,
    /// `INFO hash_size` in bytes (0: as `max_memory` allows).
    hash_bytes: u64,
    /// `INFO show_detail` asked for the realtime lines.
    realtime: bool,
}

impl Settings {
    fn table_bytes(&self) -> usize {
        search::table_bytes(self.max_memory, self.hash_bytes)
    }
}

/// One game.
#[derive(Clone, Debug)]
struct Game {
    board: Board,
    /// The colour we play, once known.
    me: Option<Color>,
    rng: Rng,
    /// When `START` was read, until the game's first search has used it.
    start: Option<Instant>,
}

/// The protocol state machine; writes every reply through its [`Replies`].
pub struct Session<W: Write> {
    out: Replies<W>,
    settings: Settings,
    game: Option<Game>,
    stop: Arc<StopControl>,
    /// Master's search: its tables live as long as the process, sized by `max_memory`.
    searcher: Searcher,
    /// A problem to tell the user with the next move (INFO itself is never answered).
    notice: Option<String>,
}

impl<W: Write> Session<W> {
    pub fn new(options: Options, stop: Arc<StopControl>, out: W) -> Session<W> {
        let settings = Settings {
            rule: Rule::Freestyle,
            level: options.level,
            strength: options.strength,
            seed: options.seed,
            time: TimeControl::default(),
            max_depth: None,
            max_nodes: None,
            max_memory: 0,
            hash_bytes: 0,
            realtime: false,
        };
        let mut searcher = Searcher::new(settings.table_bytes());
        searcher.set_evaluator(options.evaluator);
        Session {
            out: Replies::new(out),
            settings,
            game: None,
            stop,
            searcher,
            notice: None,
        }
    }

    /// Answers messages until the reader hangs up.
    pub fn serve(&mut self, rx: &Receiver<Message>) {
        for message in rx {
            self.handle(message);
        }
    }

    /// Applies one message and writes its reply, if it has one.
    pub fn handle(&mut self, message: Message) {
        let ended_before = self.stop.ended();
        let seq = message.seq;
        let reply = message
            .command
            .map_err(SessionError::Parse)
            .and_then(|command| self.apply(command, message.seq, message.received))
            .unwrap_or_else(|e| Some(Reply::Error(e)));
        match reply {
            // END arrived, in a later burst, while this was answered: nobody waits for it.
            Some(reply) if !ended_before && self.stop.abandons(seq) => {
                log::info!("abandoned after END: {reply:?}");
            }
            Some(reply) => self.out.send(&reply),
            None => {}
        }
    }

    fn apply(
        &mut self,
        command: Command,
        seq: u64,
        received: Instant,
    ) -> Result<Option<Reply>, SessionError> {
        match command {
            Command::Start { width, height } => {
                let board = Board::new(width, height)?;
                self.new_game(board, received);
                Ok(Some(Reply::Ok))
            }
            Command::Restart => {
                let old = &self.game()?.board;
                let board = Board::new(old.width().into(), old.height().into())?;
                self.new_game(board, received);
                Ok(Some(Reply::Ok))
            }
            Command::Info(info) => {
                self.set(info);
                Ok(None)
            }
            Command::Begin => {
                let game = self.game_mut()?;
                if !game.board.has_no_stones() {
                    return Err(SessionError::BeginOnStones);
                }
                game.me = Some(Color::Black);
                self.think(None, seq, received).map(Some)
            }
            Command::Turn(c) => {
                let game = self.game_mut()?;
                let p = empty_cell(&game.board, c)?;
                if game.board.empty_cells().nth(1).is_none() {
                    return Err(SessionError::TurnFillsBoard(p));
                }
                let opponent = game
                    .me
                    .map_or_else(|| game.board.to_move(), Color::opponent);
                game.board.place(p, opponent)?;
                game.me = Some(opponent.opponent());
                self.think(None, seq, received).map(Some)
            }
            Command::Board { stones, answer } => {
                let game = self.game_mut()?;
                let (board, me) = position(&game.board, &stones)?;
                if answer && board.empty_cells().next().is_none() {
                    return Err(SessionError::BoardLeavesNoSquare);
                }
                game.board = board;
                game.me = Some(me);
                if answer {
                    self.think(None, seq, received).map(Some)
                } else {
                    Ok(None)
                }
            }
            Command::Swap2Board(stones) => self.swap2(&stones, seq, received).map(Some),
            Command::Takeback(c) => {
                let game = self.game_mut()?;
                let p = game.board.checked_pos(c.x, c.y)?;
                game.board.remove(p)?;
                Ok(Some(Reply::Ok))
            }
            Command::Play(c) => {
                let game = self.game_mut()?;
                let p = empty_cell(&game.board, c)?;
                let me = game.me.unwrap_or_else(|| game.board.to_move());
                game.board.place(p, me)?;
                game.me = Some(me);
                Ok(Some(Reply::Move {
                    pos: p,
                    notice: None,
                    report: None,
                }))
            }
            Command::About => Ok(Some(Reply::About)),
            Command::ShowForbid => {
                let forbidden = renju::forbidden_points(&self.game()?.board);
                Ok(Some(Reply::Forbid(
                    forbidden.into_iter().map(|(p, _)| p).collect(),
                )))
            }
            Command::HashClear => {
                self.searcher.clear();
                Ok(None)
            }
            Command::ShowInfo => Ok(Some(Reply::ShowInfo {
                max_threads: search::MAX_THREADS,
                max_hash_log2: (search::MAX_TT_BYTES >> 10).ilog2(),
            })),
            Command::NBest(n) => self.think(Some(n), seq, received).map(Some),
            Command::YixinSwap2(step) => self.yixin_swap2(step, seq, received).map(Some),
            Command::Balance { two, bias } => self.balance(two, bias, seq, received).map(Some),
            // The reader acts on these itself; they only arrive here from tests.
            Command::End | Command::Stop => Ok(None),
            Command::Unknown(word) => Ok(Some(Reply::Unknown(format!(
                "command {word} is not supported"
            )))),
        }
    }

    fn game(&self) -> Result<&Game, SessionError> {
        self.game.as_ref().ok_or(SessionError::NoGame)
    }

    fn game_mut(&mut self) -> Result<&mut Game, SessionError> {
        self.game.as_mut().ok_or(SessionError::NoGame)
    }

    fn new_game(&mut self, board: Board, received: Instant) {
        let seed = self.settings.seed.unwrap_or_else(Rng::fresh_seed);
        let s = &self.settings;
        log::info!(
            "new {}x{} game: {} rule, {} level, strength {}, seed {seed}, max_memory {} bytes, \
             budget {:?}",
            board.width(),
            board.height(),
            s.rule,
            s.level,
            s.strength,
            s.max_memory,
            s.time.budget()
        );
        self.settings.time.new_game();
        self.searcher.clear();
        self.searcher.prepare(self.settings.rule);
        self.game = Some(Game {
            board,
            me: None,
            rng: Rng::new(seed),
            start: Some(received),
        });
    }

    fn set(&mut self, info: Info) {
        let s = &mut self.settings;
        match info {
            Info::TimeoutTurn(ms) => s.time.set_timeout_turn(ms),
            Info::TimeoutMatch(ms) => s.time.set_timeout_match(ms),
            Info::TimeLeft(ms) => s.time.set_time_left(ms),
            Info::MaxMemory(bytes) => {
                let before = s.table_bytes();
                s.max_memory = bytes;
                self.resize_table(before);
            }
            Info::HashSize(kib) => {
                let before = s.table_bytes();
                s.hash_bytes = kib.saturating_mul(1024);
                self.resize_table(before);
            }
            Info::Threads(n) => self.searcher.set_threads(n),
            Info::ShowDetail { realtime } => s.realtime = realtime,
            Info::Rule(rule) => {
                s.rule = rule;
                // The rule's tables are built now rather than on the move's clock.
                self.searcher.prepare(rule);
            }
            Info::Level(level) => s.level = level,
            Info::Strength(strength) => s.strength = strength,
            Info::MaxDepth(depth) => s.max_depth = depth,
            Info::MaxNode(nodes) => s.max_nodes = nodes,
            Info::Weights(path) => match Evaluator::load(&path) {
                Ok(e) => {
                    log::info!("INFO weights {}: loaded", path.display());
                    self.searcher.set_evaluator(e);
                }
                Err(e) => {
                    let why = format!("INFO weights {}: {e}; the old weights stay", path.display());
                    log::warn!("{why}");
                    self.notice = Some(why);
                }
            },
            Info::Accepted { key, value } => log::debug!("INFO {key} '{value}' has no effect"),
            Info::Ignored { key, reason } => log::warn!("INFO {key} ignored: {reason}"),
        }
    }

    /// A new table when the settings now give it another size than `before` (INFO comes
    /// between searches, so no search holds the old one).
    fn resize_table(&mut self, before: usize) {
        let bytes = self.settings.table_bytes();
        if bytes != before {
            log::info!("table resized to {bytes} bytes");
            self.searcher.resize(bytes);
        }
    }

    /// Lets the level choose our move, plays it and returns the reply; with `nbest`
    /// (`YXNBEST n`), master's full search of the `n` best moves chooses it instead, each
    /// line reported: that is analysis, the level plays no part. Refused without a game or
    /// an empty square.
    fn think(
        &mut self,
        nbest: Option<usize>,
        seq: u64,
        received: Instant,
    ) -> Result<Reply, SessionError> {
        let Session {
            settings,
            game,
            stop,
            searcher,
            notice,
            out,
        } = self;
        let game = game.as_mut().ok_or(SessionError::NoGame)?;
        let me = game.me.unwrap_or_else(|| game.board.to_move());
        if game.board.empty_cells().next().is_none() {
            return Err(SessionError::BoardFull);
        }
        let (origin, limits) = clock(settings, game, received);
        let stop: &StopControl = stop;
        let mut show = realtime(out, stop, settings.realtime);
        let flag = stop.arm(seq);
        let choice = match nbest {
            None => {
                let mut ctx = Context {
                    rule: settings.rule,
                    me,
                    limits,
                    stop: flag,
                    rng: &mut game.rng,
                    searcher,
                    strength: settings.strength,
                    observe: Some(&mut show),
                };
                settings.level.choose(&mut game.board, &mut ctx)
            }
            Some(n) => {
                let request = Request::new(&game.board, settings.rule, me, limits);
                let result = searcher.search(request.stop(flag).lines(n).observe(&mut show));
                Choice {
                    pos: result.best,
                    report: Some(Report {
                        search: result,
                        strength: None,
                        pick: None,
                    }),
                }
            }
        };
        let pos = if game.board.is_empty_at(choice.pos) {
            choice.pos
        } else {
            log::error!(
                "{} chose the occupied square {}",
                settings.level,
                choice.pos
            );
            game.board
                .empty_cells()
                .next()
                .ok_or(SessionError::BoardFull)?
        };
        game.board.place(pos, me)?;
        game.me = Some(me);
        settings.time.record(origin.elapsed());
        log::info!(
            "{} plays {pos} as {me:?} in {:?}",
            settings.level,
            origin.elapsed()
        );
        Ok(Reply::Move {
            pos,
            notice: notice.take(),
            report: choice.report,
        })
    }

    /// `YXBALANCEONE`/`YXBALANCETWO`: the stone for the side to move (and, with `two`, the
    /// opponent's reply) that leaves the side that placed last the value nearest `bias`;
    /// the stones are placed and answered on one line.
    fn balance(
        &mut self,
        two: bool,
        bias: i32,
        seq: u64,
        received: Instant,
    ) -> Result<Reply, SessionError> {
        let Session {
            settings,
            game,
            stop,
            searcher,
            ..
        } = self;
        let game = game.as_mut().ok_or(SessionError::NoGame)?;
        let me = game.me.unwrap_or_else(|| game.board.to_move());
        let stones = if two { 2 } else { 1 };
        let (origin, limits) = clock(settings, game, received);
        let mut judge = Judge {
            searcher,
            rule: settings.rule,
            limits,
            stop: stop.arm(seq),
        };
        let found = if two {
            judge.balance_two(&game.board, me, bias)
        } else {
            judge.balance_one(&game.board, me, bias)
        }
        .filter(|b| b.stones.len() == stones)
        .ok_or(SessionError::NothingToBalance { stones })?;
        let mut board = game.board.clone();
        place_alternately(&mut board, &found.stones, me)?;
        game.board = board;
        game.me = Some(me);
        settings.time.record(origin.elapsed());
        log::info!(
            "balanced by {:?}: value {} at depth {}",
            found.stones,
            found.value,
            found.depth
        );
        Ok(Reply::Stones(found.stones))
    }

    /// Yixin's swap2 dialogue: step 1 places the opening three on an empty board; step 2,
    /// on the three stones `YXBOARD` set, takes black (`SWAP1 YES`), stays with white
    /// (`SWAP1 NO`: Yixin-Board then asks for white's stone with `BOARD`) or places two
    /// more; step 3, on five, chooses the colour (`SWAP2 YES` is black). The same judgement
    /// as `SWAP2BOARD`'s; a board with another stone count is refused.
    fn yixin_swap2(
        &mut self,
        step: u8,
        seq: u64,
        received: Instant,
    ) -> Result<Reply, SessionError> {
        let board = &self.game()?.board;
        let stones: Vec<Coord> = if step == 1 {
            Vec::new()
        } else {
            board
                .history()
                .iter()
                .map(|(p, _)| Coord {
                    x: p.x.into(),
                    y: p.y.into(),
                })
                .collect()
        };
        let wanted = if step == 2 { 3 } else { 5 };
        if step != 1 && stones.len() != wanted {
            return Err(SessionError::YixinSwap2Stones {
                step,
                wanted,
                got: stones.len(),
            });
        }
        let reply = self.swap2(&stones, seq, received)?;
        let game = self.game_mut()?;
        Ok(match reply {
            Reply::Stones(placed) => Reply::YixinSwap2Stones {
                first: stones.len() + 1,
                stones: placed,
            },
            Reply::Move { pos, .. } => {
                // Yixin-Board asks for white's stone itself, with BOARD.
                game.board.remove(pos)?;
                Reply::YixinSwap2Choice {
                    stones: stones.len(),
                    take_black: false,
                }
            }
            Reply::Swap => Reply::YixinSwap2Choice {
                stones: stones.len(),
                take_black: true,
            },
            other => other,
        })
    }

    /// `SWAP2BOARD`, judged by the search ([`hoshi::judge`]): with no stones, place the
    /// opening three; with three, take black (`SWAP`), stay with white and play its stone,
    /// or place two more; with five, take black or stay with white. The level bounds how
    /// deep it judges.
    fn swap2(
        &mut self,
        coords: &[Coord],
        seq: u64,
        received: Instant,
    ) -> Result<Reply, SessionError> {
        let Session {
            settings,
            game,
            stop,
            searcher,
            notice,
            ..
        } = self;
        let game = game.as_mut().ok_or(SessionError::NoGame)?;
        if !matches!(coords.len(), 0 | 3 | 5) {
            return Err(SessionError::Swap2Stones(coords.len()));
        }
        let mut board = Board::new(game.board.width().into(), game.board.height().into())?;
        for (c, color) in coords
            .iter()
            .zip([Color::Black, Color::White].into_iter().cycle())
        {
            let p = empty_cell(&board, *c)?;
            board.place(p, color)?;
        }
        let (origin, mut limits) = clock(settings, game, received);
        let cap = settings.level.judging_depth(settings.strength);
        limits.max_depth = match (limits.max_depth, cap) {
            (Some(d), Some(c)) => Some(d.min(c)),
            (d, c) => d.or(c),
        };
        let mut judge = Judge {
            searcher,
            rule: settings.rule,
            limits,
            stop: stop.arm(seq),
        };
        let (reply, me) = if coords.is_empty() {
            let opening = judge
                .opening_three(&board, &mut game.rng)
                .unwrap_or_else(|| swap2_opening(&board));
            place_alternately(&mut board, &opening, Color::Black)?;
            (Reply::Stones(opening.to_vec()), None)
        } else {
            let decision = if coords.len() == 3 {
                judge.after_three(&board)
            } else {
                judge.after_five(&board)
            };
            log::info!("swap2 after {} stones: {decision:?}", coords.len());
            match decision {
                Swap2::TakeBlack => (Reply::Swap, Some(Color::Black)),
                Swap2::Stay(p) => {
                    board.place(p, Color::White)?;
                    let reply = Reply::Move {
                        pos: p,
                        notice: notice.take(),
                        report: None,
                    };
                    (reply, Some(Color::White))
                }
                Swap2::AddTwo(w, b) => {
                    place_alternately(&mut board, &[w, b], Color::White)?;
                    (Reply::Stones(vec![w, b]), None)
                }
            }
        };
        settings.time.record(origin.elapsed());
        game.board = board;
        game.me = me;
        Ok(reply)
    }
}

/// The clock of a request that searches: when it started (the game's first request
/// carries the time since START) and the limits the settings give it.
fn clock(settings: &Settings, game: &mut Game, received: Instant) -> (Instant, Limits) {
    let origin = time::clock_start(received, game.start.take());
    let limits = settings
        .time
        .limits(origin, settings.max_depth, settings.max_nodes);
    (origin, limits)
}

/// The least depth whose progress is shown: shallower iterations come too fast to be worth
/// a line (Rapfi's threshold).
const REALTIME_MIN_DEPTH: u32 = 8;

/// The observer of a search that writes its realtime lines when `on`, until END is read
/// (nothing may follow END).
fn realtime<'a, W: Write>(
    out: &'a mut Replies<W>,
    stop: &'a StopControl,
    on: bool,
) -> impl FnMut(&Progress) + 'a {
    move |progress| {
        if on && progress.depth >= REALTIME_MIN_DEPTH && !stop.ended() {
            out.progress(progress);
        }
    }
}

/// Places `stones` in turn, the first for `first`.
fn place_alternately(board: &mut Board, stones: &[Pos], first: Color) -> Result<(), BoardError> {
    for (&p, color) in stones
        .iter()
        .zip([first, first.opponent()].into_iter().cycle())
    {
        board.place(p, color)?;
    }
    Ok(())
}

/// The opening three stones (black, white, black) around the centre, when the judged
/// opening finds no cell: a quiet shape whose offsets stay inside even a 5x5 board.
fn swap2_opening(board: &Board) -> [Pos; 3] {
    let c = board.center();
    [c, Pos::new(c.x + 1, c.y - 1), Pos::new(c.x - 1, c.y + 2)]
}

/// The cell at `c` if it is on the board and empty.
fn empty_cell(board: &Board, c: Coord) -> Result<Pos, BoardError> {
    let p = board.checked_pos(c.x, c.y)?;
    if board.is_empty_at(p) {
        Ok(p)
    } else {
        Err(BoardError::Occupied(p))
    }
}

/// The board a `BOARD` block describes (on an empty board the size of `like`, stones in
/// the order listed), and the colour we play. With as many own stones as the opponent's we
/// are black; with one fewer, white; otherwise the first listed stone is taken as black.
fn position(like: &Board, stones: &[(Coord, Field)]) -> Result<(Board, Color), BoardError> {
    let mut board = Board::new(like.width().into(), like.height().into())?;
    let count = |field| stones.iter().filter(|(_, f)| *f == field).count();
    let (own, opp) = (count(Field::Own), count(Field::Opponent));
    let me = if own == opp {
        Color::Black
    } else if opp == own + 1 {
        Color::White
    } else {
        match stones.iter().find(|(_, f)| *f != Field::Blocked) {
            Some((_, Field::Opponent)) => Color::White,
            _ => Color::Black,
        }
    };
    for &(c, field) in stones {
        let p = empty_cell(&board, c)?;
        let placed = match field {
            Field::Own => board.place(p, me),
            Field::Opponent => board.place(p, me.opponent()),
            Field::Blocked => board.block(p),
        };
        placed?;
    }
    Ok((board, me))
}

#[cfg(test)]
mod tests {
    use super::*;
    use hoshi::board::Cell;

    /// The classic hard level: instant, silent, and enough to exercise the protocol.
    fn session() -> Session<Vec<u8>> {
        let options = Options {
            level: Level::Hard,
            strength: Strength::FULL,
            seed: Some(1),
            evaluator: Evaluator::default(),
        };
        Session::new(options, Arc::new(StopControl::default()), Vec::new())
    }

    /// Feeds one text line (or block) per entry and returns the output.
    fn run(lines: &[&str]) -> (Session<Vec<u8>>, String) {
        let mut s = session();
        for (i, text) in lines.iter().enumerate() {
            let mut parts = text.split('\n');
            let head = parts.next().unwrap_or_default();
            let body: Vec<String> = parts.map(str::to_string).collect();
            let command = Command::parse_block(head, &body);
            let seq = u64::try_from(i).unwrap() + 1;
            s.handle(Message {
                seq,
                received: Instant::now(),
                command,
            });
        }
        let out = String::from_utf8(s.out.output().clone()).unwrap();
        (s, out)
    }

    fn board(s: &Session<Vec<u8>>) -> &Board {
        &s.game.as_ref().unwrap().board
    }

    #[test]
    fn board_infers_our_colour_from_the_counts() {
        let like = Board::new(15, 15).unwrap();
        let c = |x, y| Coord { x, y };
        let equal = [(c(1, 1), Field::Own), (c(2, 2), Field::Opponent)];
        assert_eq!(position(&like, &equal).unwrap().1, Color::Black);
        let behind = [
            (c(1, 1), Field::Opponent),
            (c(2, 2), Field::Own),
            (c(3, 3), Field::Opponent),
        ];
        let (b, me) = position(&like, &behind).unwrap();
        assert_eq!(me, Color::White);
        assert_eq!(b.get(Pos::new(1, 1)), Cell::Stone(Color::Black));
        // Two own stones and none of the opponent's: the first listed is black.
        let odd = [
            (c(1, 1), Field::Own),
            (c(2, 2), Field::Own),
            (c(4, 4), Field::Blocked),
        ];
        let (b, me) = position(&like, &odd).unwrap();
        assert_eq!(me, Color::Black);
        assert_eq!(b.get(Pos::new(4, 4)), Cell::Blocked);
        assert!(position(&like, &[(c(1, 1), Field::Own), (c(1, 1), Field::Own)]).is_err());
        assert!(position(&like, &[(c(15, 0), Field::Own)]).is_err());
    }

    #[test]
    fn rejected_commands_change_nothing() {
        let (s, out) = run(&[
            "START 15",
            "TURN 7,7",
            "TURN 7,7",
            "TURN -1,0",
            "BOARD\n1,1,1\n1,1,2",
        ]);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "OK");
        assert!(
            lines[2].starts_with("ERROR ") && lines[3].starts_with("ERROR "),
            "{out}"
        );
        assert!(lines[4].starts_with("ERROR "), "{out}");
        assert_eq!(lines.len(), 5);
        // The opponent's stone and our reply are the only stones.
        assert_eq!(board(&s).history().len(), 2);
    }

    #[test]
    fn refusals_are_typed_and_change_nothing() {
        let mut s = session();
        let now = Instant::now();
        let c = |x, y| Coord { x, y };
        assert_eq!(s.apply(Command::Begin, 1, now), Err(SessionError::NoGame));
        let start = Command::Start {
            width: 15,
            height: 15,
        };
        assert_eq!(s.apply(start, 2, now), Ok(Some(Reply::Ok)));
        assert_eq!(
            s.apply(Command::Turn(c(15, 0)), 3, now),
            Err(SessionError::Board(BoardError::OutOfRange { x: 15, y: 0 }))
        );
        assert_eq!(
            s.apply(Command::Swap2Board(vec![c(1, 1)]), 4, now),
            Err(SessionError::Swap2Stones(1))
        );
        assert!(s.apply(Command::Play(c(3, 3)), 5, now).is_ok());
        assert_eq!(
            s.apply(Command::Play(c(3, 3)), 6, now),
            Err(SessionError::Board(BoardError::Occupied(Pos::new(3, 3))))
        );
        assert_eq!(
            s.apply(Command::Begin, 7, now),
            Err(SessionError::BeginOnStones)
        );
        assert_eq!(board(&s).history(), &[(Pos::new(3, 3), Color::Black)]);
    }

    #[test]
    fn game_commands_before_start_are_errors_and_info_is_silent() {
        let (s, out) = run(&["BEGIN", "TURN 1,1", "INFO rule 4", "YXSHOWFORBID", "ABOUT"]);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 4, "{out}");
        assert!(lines[..3].iter().all(|l| l.starts_with("ERROR ")));
        assert!(lines[3].starts_with("name=\"Hoshi\""));
        assert_eq!(s.settings.rule, Rule::Renju);
    }

    #[test]
    fn info_weights_loads_a_good_file_and_names_a_bad_one_with_the_next_move() {
        let good =
            std::env::temp_dir().join(format!("hoshi-session-{}.weights", std::process::id()));
        hoshi::eval::builtin_model().save(&good).unwrap();
        let load = format!("INFO weights {}", good.display());
        let (s, out) = run(&[&load, "START 15", "BEGIN"]);
        assert!(s.notice.is_none());
        assert_eq!(out.lines().count(), 2, "{out}");
        let _ = std::fs::remove_file(good);
        let (s, out) = run(&["INFO weights /nonexistent/x.weights", "START 15", "BEGIN"]);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 3, "{out}");
        assert!(lines[1].starts_with("MESSAGE INFO weights /nonexistent/x.weights: cannot read"));
        assert!(lines[1].contains("the old weights stay"));
        assert!(s.notice.is_none(), "told once");
    }

    #[test]
    fn settings_survive_start_and_restart_but_the_board_does_not() {
        let (s, out) = run(&[
            "INFO rule 1",
            "INFO level easy",
            "INFO strength 30",
            "START 15",
            "TURN 7,7",
            "INFO strength 130",
            "RESTART",
            "START 20",
        ]);
        assert_eq!(out.lines().filter(|l| *l == "OK").count(), 3, "{out}");
        assert_eq!(
            (s.settings.rule, s.settings.level, s.settings.strength),
            (Rule::Standard, Level::Easy, Strength::new(30).unwrap())
        );
        assert!(board(&s).has_no_stones());
        assert_eq!(board(&s).width(), 20);
    }

    #[test]
    fn takeback_removes_the_named_stone_and_play_places_ours() {
        let (s, out) = run(&[
            "START 15",
            "PLAY 3,4",
            "TAKEBACK 3,4",
            "TAKEBACK 3,4",
            "PLAY 5,5",
        ]);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(&lines[..3], ["OK", "3,4", "OK"]);
        assert!(lines[3].starts_with("ERROR "));
        assert_eq!(lines[4], "5,5");
        assert_eq!(board(&s).history(), &[(Pos::new(5, 5), Color::Black)]);
    }

    #[test]
    fn yxboard_sets_up_silently_and_showforbid_answers_one_line() {
        let (s, out) = run(&["START 15", "YXBOARD\n7,7,2\n8,8,1", "YXSHOWFORBID"]);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2, "{out}");
        assert!(lines[1].starts_with("FORBID ") && lines[1].ends_with('.'));
        assert_eq!(board(&s).history().len(), 2);
    }

    #[test]
    fn swap2_answers_each_step_with_the_judged_choice_and_keeps_the_game() {
        let (s, out) = run(&["START 15", "SWAP2BOARD"]);
        let opening: Vec<&str> = out.lines().nth(1).unwrap().split(' ').collect();
        assert_eq!(opening.len(), 3, "{out}");
        assert_eq!(board(&s).history().len(), 3);
        // Black's two stones side by side in the centre, white's in a corner: take black.
        let (s, out) = run(&["START 15", "SWAP2BOARD\n7,7\n0,14\n8,7"]);
        assert_eq!(out.lines().nth(1), Some("SWAP"), "{out}");
        assert_eq!(s.game.as_ref().unwrap().me, Some(Color::Black));
        assert_eq!(board(&s).history().len(), 3);
        // Black's stones in corners, white's in the centre: stay and play white's stone.
        let (s, out) = run(&["START 15", "SWAP2BOARD\n0,0\n7,7\n14,14"]);
        let answer = out.lines().nth(1).unwrap();
        assert_eq!(answer.split(',').count(), 2, "{out}");
        assert_eq!(s.game.as_ref().unwrap().me, Some(Color::White));
        assert_eq!(
            board(&s).last_move().map(|(p, c)| (p.to_string(), c)),
            Some((answer.to_string(), Color::White))
        );
        // After five: black's open three, take black; a later BOARD goes on as usual.
        let (s, out) = run(&[
            "START 15",
            "SWAP2BOARD\n7,7\n0,14\n8,7\n14,0\n9,7",
            "SWAP2BOARD\n7,7\n8,7",
            "BOARD\n7,7,1\n0,14,2\n8,7,1\n14,0,2\n9,7,1\n6,7,2",
        ]);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[1], "SWAP", "{out}");
        assert!(lines[2].starts_with("ERROR "), "{out}");
        assert_eq!(lines.len(), 4, "{out}");
        assert_eq!(board(&s).history().len(), 7);
    }

    #[test]
    fn yixins_swap2_dialogue_answers_on_message_swap2_lines() {
        let (s, out) = run(&["START 15", "yxswap2step1"]);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 4, "{out}");
        for (k, line) in lines[1..].iter().enumerate() {
            let rest = line
                .strip_prefix(&format!("MESSAGE SWAP2 MOVE{} ", k + 1))
                .unwrap();
            let (x, y) = rest.split_once(' ').unwrap();
            let p = Pos::new(x.parse().unwrap(), y.parse().unwrap());
            assert_eq!(board(&s).history()[k].0, p);
        }
        // Three stones, black clearly ahead: take black. The board stays as it was.
        let (s, out) = run(&["START 15", "YXBOARD\n7,7,2\n0,14,1\n8,7,2", "yxswap2step2"]);
        assert_eq!(out.lines().nth(1), Some("MESSAGE SWAP2 SWAP1 YES"), "{out}");
        assert_eq!(board(&s).history().len(), 3);
        // White ahead: stay, and wait for BOARD to ask for white's stone.
        let (s, out) = run(&["START 15", "YXBOARD\n0,0,2\n7,7,1\n14,14,2", "yxswap2step2"]);
        assert_eq!(out.lines().nth(1), Some("MESSAGE SWAP2 SWAP1 NO"), "{out}");
        assert_eq!(board(&s).history().len(), 3);
        // Five stones, black's open three: choose black.
        let (_, out) = run(&[
            "START 15",
            "YXBOARD\n7,7,2\n0,14,1\n8,7,2\n14,0,1\n9,7,2",
            "yxswap2step3",
            "YXBOARD\n7,7,2\n0,14,1",
            "yxswap2step3",
        ]);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[1], "MESSAGE SWAP2 SWAP2 YES", "{out}");
        assert_eq!(
            lines[2],
            "ERROR YXSWAP2STEP3 needs 5 stones on the board (set by YXBOARD), got 2"
        );
    }

    #[test]
    fn nbest_reports_each_line_and_plays_the_best() {
        let (s, out) = run(&[
            "START 15",
            "INFO max_depth 3",
            "YXBOARD\n7,7,2\n8,8,1",
            "YXNBEST 3",
        ]);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 6, "{out}");
        assert!(lines[1].starts_with("MESSAGE depth 3 "), "{out}");
        for (k, line) in lines[2..5].iter().enumerate() {
            assert!(
                line.starts_with(&format!("MESSAGE ({}) eval ", k + 1)),
                "{out}"
            );
        }
        // The answer is the first line's move, and it is on the board now.
        let best = lines[2]
            .split(" pv ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap();
        assert_eq!(lines[5], best);
        assert_eq!(board(&s).history().len(), 3);
    }

    #[test]
    fn balancing_places_one_or_two_stones_and_answers_them_on_one_line() {
        let (s, out) = run(&[
            "START 15",
            "INFO max_depth 2",
            "YXBOARD\n7,7,2\n8,8,1",
            "YXBALANCEONE",
            "YXBOARD\n7,7,2\n8,8,1",
            "YXBALANCETWO 50",
            "YXBALANCEONE x",
        ]);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 4, "{out}");
        assert_eq!(lines[1].split(' ').count(), 1, "{out}");
        assert_eq!(lines[2].split(' ').count(), 2, "{out}");
        assert!(
            lines[3].starts_with("ERROR YXBALANCEONE expects a number"),
            "{out}"
        );
        let history = board(&s).history();
        assert_eq!(history.len(), 4);
        // Black (to move) placed first, white second.
        assert_eq!((history[2].1, history[3].1), (Color::Black, Color::White));
    }

    #[test]
    fn yixin_settings_size_the_table_and_set_the_threads_and_showinfo_tells_their_limits() {
        let (s, out) = run(&[
            "YXSHOWINFO",
            "INFO hash_size 1024",
            "INFO thread_num 3",
            "INFO show_detail 1",
            "INFO caution_factor 4",
        ]);
        assert_eq!(
            out,
            "MESSAGE INFO MAX_THREAD_NUM 64\nMESSAGE INFO MAX_HASH_SIZE 22\n"
        );
        assert!(s.searcher.tt_bytes() <= 1 << 20 && s.searcher.tt_bytes() > 1 << 19);
        assert_eq!(s.searcher.threads(), 3);
        assert!(s.settings.realtime);
        // A memory limit below the wish wins; a hash size of 0 gives the limit's size back.
        let (s, _) = run(&["INFO hash_size 1048576", "INFO max_memory 100000000"]);
        assert_eq!(
            s.settings.table_bytes(),
            search::table_bytes(100_000_000, 0)
        );
        let (s, _) = run(&[
            "INFO hash_size 1024",
            "INFO hash_size 0",
            "INFO show_detail 9",
        ]);
        assert_eq!(s.settings.table_bytes(), search::DEFAULT_TT_BYTES);
        assert!(!s.settings.realtime);
    }

    #[test]
    fn a_turn_that_would_fill_the_board_is_refused() {
        let mut lines = vec!["START 5".to_string()];
        let mut body = String::from("BOARD");
        // Fill all but two cells, alternating owners, leaving (3,4) and (4,4).
        for i in 0..23 {
            body.push_str(&format!("\n{},{},{}", i % 5, i / 5, 1 + i % 2));
        }
        lines.push(body);
        lines.push("TURN 4,4".into());
        let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
        let (s, out) = run(&refs);
        let replies: Vec<&str> = out.lines().collect();
        assert_eq!(replies[0], "OK");
        // The BOARD answer took one of the two last cells; TURN takes the other... and
        // none is left for us, so it is refused.
        assert!(replies[2].starts_with("ERROR "), "{out}");
        assert_eq!(board(&s).empty_cells().count(), 1);
    }
}
