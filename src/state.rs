//! What the session keeps between requests: the settings, which outlive games, and the
//! game in progress.
//!
//! Plain data, below the session and the dialogues alike, so that both can work on it
//! without importing each other.

use std::time::Instant;

use hoshi::board::{Board, BoardError, Color, Pos};
use hoshi::levels::{Level, Strength};
use hoshi::rng::Rng;
use hoshi::rules::Rule;
use hoshi::search;
use hoshi::time::TimeControl;
use hoshi_protocol::Coord;

/// Settings that outlive games: `START`, `RECTSTART` and `RESTART` leave them as they are.
#[derive(Clone, Debug)]
pub struct Settings {
    pub rule: Rule,
    pub level: Level,
    /// Master's strength.
    pub strength: Strength,
    pub seed: Option<u64>,
    pub time: TimeControl,
    pub max_depth: Option<u32>,
    pub max_nodes: Option<u64>,
    /// `INFO max_memory` in bytes (0: no limit), kept for the search's tables.
    pub max_memory: u64,
    /// `INFO hash_size` in bytes (0: as `max_memory` allows).
    pub hash_bytes: u64,
    /// `INFO show_detail` asked for the realtime lines (bit 1).
    pub realtime: bool,
    /// `INFO show_detail` asked for Rapfi's analysis block (bit 2).
    pub analysis: bool,
}

impl Settings {
    /// The settings at start-up: freestyle, no clock but the default turn, no bounds, no
    /// memory limit, no detail lines; the level, strength and seed as given.
    pub fn new(level: Level, strength: Strength, seed: Option<u64>) -> Settings {
        Settings {
            rule: Rule::Freestyle,
            level,
            strength,
            seed,
            time: TimeControl::default(),
            max_depth: None,
            max_nodes: None,
            max_memory: 0,
            hash_bytes: 0,
            realtime: false,
            analysis: false,
        }
    }

    /// The size of the search's table these settings give.
    pub fn table_bytes(&self) -> usize {
        search::table_bytes(self.max_memory, self.hash_bytes)
    }
}

/// The game being played, from `START` (or `RESTART`) to the next.
#[derive(Clone, Debug)]
pub struct LiveGame {
    pub board: Board,
    /// The colour we play, once known.
    pub me: Option<Color>,
    /// The game's random generator, seeded when the game starts.
    pub rng: Rng,
    /// When `START` was read, until the game's first search has used it.
    pub start: Option<Instant>,
}

impl LiveGame {
    /// The colour we play: the one the game knows, else the side to move.
    pub fn our_colour(&self) -> Color {
        self.me.unwrap_or_else(|| self.board.to_move())
    }
}

/// The cell at `c` if it is on the board and empty.
pub fn empty_cell(board: &Board, c: Coord) -> Result<Pos, BoardError> {
    let p = board.checked_pos(c.x, c.y)?;
    if board.is_empty_at(p) {
        Ok(p)
    } else {
        Err(BoardError::Occupied(p))
    }
}
