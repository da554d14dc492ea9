//! Tools behind subcommands (not protocol mode): they may write to stdout and stderr.
//!
//! [`matches`](mod@matches) plays and rates engines; [`datagen`] writes [`selfplay`] game
//! files that [`train`] fits the evaluation and, through [`policy_fit`], the move prior to
//! (both by the descent in [`fit`]), and that [`features`] exports for the network trainer
//! in `nn/`; both read the games through [`dataset`], and [`import`] writes another
//! engine's self-play as such files, [`rescore`] their positions searched again; [`play`]
//! and [`analyse`] serve a person at a terminal, on a [`game::Game`] drawn by [`picture`]
//! and kept in files by [`record`].

pub mod analyse;
pub mod datagen;
pub mod dataset;
pub mod features;
pub mod fit;
pub mod game;
pub mod import;
pub mod matches;
pub mod picture;
pub mod play;
pub mod policy_fit;
pub mod record;
pub mod rescore;
pub mod selfplay;
pub mod train;

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Instant;

use clap::Args;

use hoshi::board::{Board, BoardError};
use hoshi::time::Limits;
use hoshi::time::{DEFAULT_TURN_MS, TimeControl};

/// Where an output file is written until it is complete (`NAME.partial` beside it), to be
/// renamed to `path` then: a file under its own name is always whole.
#[must_use]
pub fn partial_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".partial");
    path.with_file_name(name)
}

/// A board size typed as `15` or `20x15` (width x height), each side 5 to 32.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Size {
    pub width: u8,
    pub height: u8,
}

impl Size {
    /// An empty board of this size.
    #[must_use]
    pub fn board(self) -> Board {
        // Both sides were checked when the size was parsed.
        Board::new(self.width.into(), self.height.into()).expect("a checked board size")
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

/// Why a text is not a board size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadSize {
    Syntax(String),
    Board(BoardError),
}

impl fmt::Display for BadSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadSize::Syntax(s) => write!(f, "'{s}' is not a board size such as 15 or 20x15"),
            BadSize::Board(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for BadSize {}

impl FromStr for Size {
    type Err = BadSize;

    fn from_str(s: &str) -> Result<Size, BadSize> {
        let t = s.trim().to_ascii_lowercase();
        let side = |v: &str| {
            v.trim()
                .parse::<i64>()
                .map_err(|_| BadSize::Syntax(s.to_string()))
        };
        let (w, h) = match t.split_once('x') {
            Some((w, h)) => (side(w)?, side(h)?),
            None => (side(&t)?, side(&t)?),
        };
        let board = Board::new(w, h).map_err(BadSize::Board)?;
        Ok(Size {
            width: board.width(),
            height: board.height(),
        })
    }
}

/// How long Hoshi thinks about a move, for the tools (the protocol's INFO settings' twin).
#[derive(Clone, Copy, Debug, Default, PartialEq, Args)]
pub struct ThinkArgs {
    /// Thinking time per move, in seconds (decimals allowed). Hoshi answers within it, as
    /// under a manager's `timeout_turn`: it uses most of it, unless it finds a forced win.
    /// Default: 5, unless --depth or --nodes bounds the search instead.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub time: Option<f64>,
    /// Deepest iteration of the search.
    #[arg(long, value_name = "N")]
    pub depth: Option<u32>,
    /// Most nodes the search may visit (one thread: the same answer every time).
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
}

impl ThinkArgs {
    /// The limits of a search that starts now, through the protocol's own clock rules.
    #[must_use]
    pub fn limits(&self) -> Limits {
        let mut clock = TimeControl::default();
        let ms = match self.time {
            // Seconds were checked to be finite and not negative.
            Some(seconds) => (seconds * 1000.0).round() as i64,
            None if self.depth.is_some() || self.nodes.is_some() => -1,
            None => DEFAULT_TURN_MS,
        };
        clock.set_timeout_turn(ms);
        clock.limits(Instant::now(), self.depth, self.nodes)
    }

    /// The budget in words, such as "5 s a move".
    #[must_use]
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        match self.time {
            Some(s) => parts.push(format!("{s} s")),
            None if self.depth.is_none() && self.nodes.is_none() => {
                parts.push(format!("{} s", DEFAULT_TURN_MS / 1000));
            }
            None => {}
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth {d}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("{n} nodes"));
        }
        parts.join(", ")
    }
}

fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        // Up to a day: more is no clock a person waits for.
        Ok(v) if v.is_finite() && (0.0..=86_400.0).contains(&v) => Ok(v),
        _ => Err(format!("'{s}' is not a number of seconds from 0 to 86400")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_one_side_or_width_by_height() {
        assert_eq!(
            "15".parse(),
            Ok(Size {
                width: 15,
                height: 15
            })
        );
        assert_eq!(
            " 20X12 ".parse(),
            Ok(Size {
                width: 20,
                height: 12
            })
        );
        assert!(matches!("33".parse::<Size>(), Err(BadSize::Board(_))));
        assert!(matches!("15x".parse::<Size>(), Err(BadSize::Syntax(_))));
        assert!(matches!("big".parse::<Size>(), Err(BadSize::Syntax(_))));
    }

    #[test]
    fn the_budget_is_a_turn_limit_unless_only_depth_or_nodes_is_given() {
        let default = ThinkArgs::default().limits();
        assert!(default.deadline.is_some() && default.max_depth.is_none());
        let by_depth = ThinkArgs {
            depth: Some(6),
            ..ThinkArgs::default()
        };
        let limits = by_depth.limits();
        assert_eq!((limits.deadline, limits.max_depth), (None, Some(6)));
        assert_eq!(by_depth.describe(), "depth 6");
        let both = ThinkArgs {
            time: Some(0.5),
            nodes: Some(1000),
            ..ThinkArgs::default()
        };
        assert!(both.limits().deadline.is_some());
        assert_eq!(both.describe(), "0.5 s, 1000 nodes");
        assert_eq!(ThinkArgs::default().describe(), "5 s");
        assert!(parse_seconds("-1").is_err() && parse_seconds("NaN").is_err());
    }
}
