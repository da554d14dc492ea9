//! The prologue and the epilogue of every request that thinks: our move (`BEGIN`, `TURN`,
//! `BOARD`), `YXNBEST`'s analysis, the swap2 steps and the balancing requests.
//!
//! A request first checks what it was asked on a [`Pending`] request, which shows the game
//! and changes nothing; only then does [`Pending::think`] start it: its clock starts (the
//! game's first request also counts the time since `START`), the settings give its limits,
//! its stop flag is armed, and the lines `INFO show_detail` asks for are ready to be written
//! as its searches go. Once it has its answer, the time it took counts against the match
//! ([`Thinking::done`], or [`Thinking::play`] for a move). A request refused after it
//! started leaves the match clock as it was.

use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::error::SessionError;
use crate::reader::StopControl;
use crate::reply::{Replies, Reply};
use crate::state::{LiveGame, Settings};
use hoshi::board::Color;
use hoshi::levels::Choice;
use hoshi::rules::Rule;
use hoshi::search::{Progress, Searcher};
use hoshi::time::{self, Limits};

/// A request that may think, not started yet: the parts of the session it works on.
pub struct Pending<'a, W: Write> {
    /// The settings: they give the limits and take the time spent.
    pub settings: &'a mut Settings,
    pub game: &'a mut LiveGame,
    /// Master's search, whose tables outlive the request.
    pub searcher: &'a mut Searcher,
    /// A problem to tell the user with the next move.
    pub notice: &'a mut Option<String>,
    /// Where the lines `INFO show_detail` asked for go.
    pub out: &'a mut Replies<W>,
    pub stop: &'a StopControl,
    /// The request's number in the input: which interrupts cover it.
    pub seq: u64,
    /// When the reader read it: the manager's clock has run since.
    pub received: Instant,
}

impl<W: Write> Pending<'_, W> {
    /// The prologue: starts the request's clock and arms its stop flag. Called once, after
    /// every check that may refuse the request, since it uses up the game's start time.
    pub fn think(&mut self) -> Thinking<'_, W> {
        let settings = &mut *self.settings;
        let origin = time::clock_start(self.received, self.game.start.take());
        let limits = settings
            .time
            .limits(origin, settings.max_depth, settings.max_nodes);
        let detail = Detail {
            realtime: settings.realtime,
            analysis: settings.analysis,
            rule: settings.rule,
            out: &mut *self.out,
            stop: self.stop,
        };
        Thinking {
            me: self.game.our_colour(),
            settings,
            game: &mut *self.game,
            searcher: &mut *self.searcher,
            notice: &mut *self.notice,
            limits,
            stop: self.stop.arm(self.seq),
            detail,
            origin,
        }
    }
}

/// A request that has started thinking.
pub struct Thinking<'a, W: Write> {
    pub settings: &'a mut Settings,
    pub game: &'a mut LiveGame,
    pub searcher: &'a mut Searcher,
    pub notice: &'a mut Option<String>,
    /// The colour we play: the one the game knows, else the side to move.
    pub me: Color,
    /// The bounds the settings and the clock give this request.
    pub limits: Limits,
    /// Raised when the request must be answered now.
    pub stop: &'a AtomicBool,
    /// The observer of its searches.
    pub detail: Detail<'a, W>,
    /// When the request's clock started.
    origin: Instant,
}

impl<W: Write> Thinking<'_, W> {
    /// The epilogue of a request that does not answer a move: its time counts against the
    /// match.
    pub fn done(self) {
        self.settings.time.record(self.origin.elapsed());
    }

    /// The epilogue of a request answered by our move: plays `choice` (on the first empty
    /// square instead if it is taken: the answer must be legal whatever chose it), fixes
    /// our colour, counts the time and returns the move with its report and any notice.
    pub fn play(self, choice: Choice) -> Result<Reply, SessionError> {
        let Thinking {
            settings,
            game,
            notice,
            me,
            origin,
            ..
        } = self;
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
}

/// The least depth whose progress is shown: shallower iterations come too fast to be worth
/// a line (Rapfi's threshold).
const REALTIME_MIN_DEPTH: u32 = 8;

/// The observer of a request's searches: writes what `INFO show_detail` asked for, the
/// analysis block of every depth (bit 2) and the realtime lines of the deeper ones (bit 1),
/// never once END is read (nothing may follow END). A search reports only while its
/// request is being answered, so all of it comes before the answer.
pub struct Detail<'a, W: Write> {
    realtime: bool,
    analysis: bool,
    /// The game's rule, which gives the evaluation's scale for the win rates.
    rule: Rule,
    out: &'a mut Replies<W>,
    stop: &'a StopControl,
}

impl<W: Write> Detail<'_, W> {
    /// Shows what the search knows after an iteration, or the move it found without one.
    pub fn show(&mut self, progress: &Progress) {
        if self.stop.ended() {
            return;
        }
        // Rapfi's order: the block of each line, then the realtime marks.
        if self.analysis {
            self.out.analysis(progress, self.rule);
        }
        if self.realtime && progress.searched && progress.depth >= REALTIME_MIN_DEPTH {
            self.out.progress(progress);
        }
    }
}

/// An owned session's worth of parts, for the tests of the requests that think.
#[cfg(test)]
pub mod fixture {
    use super::*;
    use hoshi::board::Board;
    use hoshi::levels::{Level, Strength};
    use hoshi::rng::Rng;

    pub struct Parts {
        pub settings: Settings,
        pub game: LiveGame,
        pub searcher: Searcher,
        pub notice: Option<String>,
        pub out: Replies<Vec<u8>>,
        pub stop: StopControl,
    }

    impl Parts {
        /// A freestyle game on `board` at the classic hard level (quick, and master's
        /// search where a request needs one), seeded.
        pub fn new(board: Board) -> Parts {
            let settings = Settings::new(Level::Hard, Strength::FULL, Some(1));
            Parts {
                searcher: Searcher::new(settings.table_bytes()),
                settings,
                game: LiveGame {
                    board,
                    me: None,
                    rng: Rng::new(1),
                    start: Some(Instant::now()),
                },
                notice: None,
                out: Replies::new(Vec::new()),
                stop: StopControl::default(),
            }
        }

        /// The game on an empty board of side 15 with `stones` placed, black first.
        pub fn with_stones(stones: &[(u8, u8)]) -> Parts {
            let mut board = Board::new(15, 15).expect("15 is a board size");
            for (&(x, y), color) in stones
                .iter()
                .zip([Color::Black, Color::White].into_iter().cycle())
            {
                board
                    .place(hoshi::board::Pos::new(x, y), color)
                    .expect("the test's stones are on empty cells");
            }
            Parts::new(board)
        }

        /// The request numbered `seq`, read now.
        pub fn request(&mut self, seq: u64) -> Pending<'_, Vec<u8>> {
            Pending {
                settings: &mut self.settings,
                game: &mut self.game,
                searcher: &mut self.searcher,
                notice: &mut self.notice,
                out: &mut self.out,
                stop: &self.stop,
                seq,
                received: Instant::now(),
            }
        }
    }
}
