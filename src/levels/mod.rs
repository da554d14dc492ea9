//! Difficulty levels: which algorithm picks the move.
//!
//! A level is a policy over the engine's machinery. The classic levels (easy, normal,
//! hard) reproduce `levels.md` exactly; they never change.

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;

use crate::board::{Board, Color, Pos};
use crate::limits::Limits;
use crate::rng::Rng;
use crate::rules::Rule;

/// A playing strength.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    Easy,
    Normal,
    Hard,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 3] = [Level::Easy, Level::Normal, Level::Hard];

    /// The level used when none is chosen.
    pub const DEFAULT: Level = Level::Hard;

    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Normal => "normal",
            Level::Hard => "hard",
        }
    }

    /// The level named by an executable such as `pbrain-hoshi-easy(.exe)`, if any.
    #[must_use]
    pub fn from_exe_name(name: &str) -> Option<Level> {
        let stem = name.rsplit(['/', '\\']).next()?;
        let stem = stem.strip_suffix(".exe").unwrap_or(stem);
        let suffix = stem.rsplit_once('-')?.1;
        suffix.parse().ok()
    }

    /// Picks the move for `ctx.me` on `board`. Always answers a cell that is empty and,
    /// when any exists, legal for the mover; the board is left as it was given.
    pub fn choose(self, board: &mut Board, ctx: &mut Context<'_>) -> Choice {
        placeholder(board, ctx)
    }
}

/// Until the classic levels land: the first legal empty cell nearest the centre.
fn placeholder(board: &Board, ctx: &Context<'_>) -> Choice {
    let c = board.center();
    let dist = |p: Pos| (i32::from(p.x) - i32::from(c.x)).abs() + (i32::from(p.y) - i32::from(c.y)).abs();
    let pos = board
        .empty_cells()
        .filter(|&p| ctx.rule.is_legal(board, p, ctx.me))
        .min_by_key(|&p| (dist(p), p))
        .or_else(|| board.empty_cells().next())
        .unwrap_or(c);
    Choice { pos, message: None }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown level name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownLevel(pub String);

impl fmt::Display for UnknownLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Level::ALL.iter().map(|l| l.name()).collect();
        write!(f, "unknown level '{}' (expected one of: {})", self.0, names.join(", "))
    }
}

impl std::error::Error for UnknownLevel {}

impl FromStr for Level {
    type Err = UnknownLevel;

    fn from_str(s: &str) -> Result<Level, UnknownLevel> {
        Level::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownLevel(s.to_string()))
    }
}

/// Everything a level may look at besides the board.
pub struct Context<'a> {
    /// The rule of the game.
    pub rule: Rule,
    /// The colour the engine plays.
    pub me: Color,
    /// Bounds on thinking.
    pub limits: Limits,
    /// Raised from outside to demand an answer now.
    pub stop: &'a AtomicBool,
    /// The seeded generator (easy's random pick).
    pub rng: &'a mut Rng,
}

/// A level's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The move.
    pub pos: Pos,
    /// A one-line report for a `MESSAGE` line (depth, score, ...), if the level has one.
    pub message: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_names_parse_case_insensitively_and_from_executable_names() {
        assert_eq!("EASY".parse(), Ok(Level::Easy));
        assert!("expert".parse::<Level>().is_err());
        assert_eq!(Level::from_exe_name("/opt/pbrain-hoshi-normal"), Some(Level::Normal));
        assert_eq!(Level::from_exe_name(r"C:\x\pbrain-hoshi-hard.exe"), Some(Level::Hard));
        assert_eq!(Level::from_exe_name("pbrain-hoshi"), None);
    }
}
