//! Difficulty levels: which algorithm picks the move.
//!
//! A level is a policy over the engine's machinery. The classic levels (easy, normal,
//! hard) reproduce docs/levels.md exactly; they never change. Master is the full-strength
//! search of [`crate::search`], bounded by the context's limits, and graded below full
//! strength by the context's [`Strength`] ([`strength`]).

mod classic;
mod easy;
mod hard;
mod inattention;
mod normal;
pub mod strength;
#[cfg(test)]
mod testkit;

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;

use crate::board::{Board, Color, Pos};
use crate::rng::Rng;
use crate::rules::Rule;
use crate::search::{Progress, SearchResult, Searcher};
use crate::time::Limits;
use classic::Classic;
pub use strength::Strength;

/// How deep the classic levels judge an opening ([`Level::judging_limits`]).
const CLASSIC_JUDGING_DEPTH: u32 = 4;

/// A playing strength.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    Easy,
    Normal,
    Hard,
    Master,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 4] = [Level::Easy, Level::Normal, Level::Hard, Level::Master];

    /// The three levels of docs/levels.md.
    pub const CLASSIC: [Level; 3] = [Level::Easy, Level::Normal, Level::Hard];

    /// The level used when none is chosen.
    pub const DEFAULT: Level = Level::Master;

    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Normal => "normal",
            Level::Hard => "hard",
            Level::Master => "master",
        }
    }

    /// The level named by an executable such as `pbrain-hoshi-easy(.exe)`, with the
    /// strength for `pbrain-hoshi-master50`; `None` when the name says nothing. `name` is
    /// a path as the process was started, Unix (`/`) or Windows (`\` or `/`); Windows
    /// file names ignore case, so `PBRAIN-HOSHI-EASY.EXE` names easy too.
    #[must_use]
    pub fn from_exe_name(name: &str) -> Option<(Level, Option<Strength>)> {
        let file = name.rsplit(['/', '\\']).next()?;
        let stem = match file.rsplit_once('.') {
            Some((stem, ext)) if ext.eq_ignore_ascii_case("exe") => stem,
            _ => file,
        };
        let suffix = stem.rsplit_once('-')?.1;
        match Strength::from_exe_suffix(suffix) {
            Some(s) => Some((Level::Master, Some(s))),
            None => suffix.parse().ok().map(|level| (level, None)),
        }
    }

    /// `limits` as this level judges an opening (swap2's decisions): master within its
    /// strength's node budget, the classic levels, which have no search of their own, at a
    /// shallow fixed depth that answers at once.
    #[must_use]
    pub fn judging_limits(self, strength: Strength, limits: Limits) -> Limits {
        match self {
            Level::Master => strength.bound(limits),
            Level::Easy | Level::Normal | Level::Hard => Limits {
                max_depth: Some(
                    limits
                        .max_depth
                        .map_or(CLASSIC_JUDGING_DEPTH, |d| d.min(CLASSIC_JUDGING_DEPTH)),
                ),
                ..limits
            },
        }
    }

    /// Picks the move for `ctx.me` on `board`. Always answers a cell that is empty and,
    /// when any exists, legal for the mover; the board is left as it was given.
    ///
    /// The classic levels are bounded by construction (hard sees at most 768 leaves), so
    /// they ignore `ctx.limits` and `ctx.stop`; master searches until a limit or the stop
    /// flag ends it, so its caller must give it one.
    pub fn choose(self, board: &mut Board, ctx: &mut Context<'_>) -> Choice {
        let game = Classic::new(ctx.rule, ctx.me);
        let pos = match self {
            Level::Easy => easy::choose(board, &game, ctx.rng),
            Level::Normal => normal::choose(board, &game),
            Level::Hard => hard::choose(board, &game),
            Level::Master => return strength::choose(ctx.strength, board, ctx),
        };
        // No candidate at all (every one forbidden, or none left): the spec's fallback.
        let pos = pos.unwrap_or_else(|| game.fallback(board, ctx.me));
        Choice { pos, report: None }
    }
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
        write!(
            f,
            "unknown level '{}' (expected one of: {})",
            self.0,
            names.join(", ")
        )
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
    /// The seeded generator (easy's random pick, master's pick below full strength).
    pub rng: &'a mut Rng,
    /// Master's search and its tables, kept from move to move.
    pub searcher: &'a mut Searcher,
    /// Master's strength ([`Strength::FULL`]: the plain search); the classic levels
    /// ignore it.
    pub strength: Strength,
    /// Told what master's search knows after each of its iterations (a GUI's realtime
    /// display); the classic levels have nothing to tell.
    pub observe: Option<&'a mut dyn FnMut(&Progress)>,
}

/// A level's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The move.
    pub pos: Pos,
    /// What master's search found (the classic levels report nothing).
    pub report: Option<Report>,
}

/// What master's search found, for the manager to show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The search's own answer, score, depth, nodes and line.
    pub search: SearchResult,
    /// The strength, when below full.
    pub strength: Option<Strength>,
    /// The move picked among the best few, when a weakened master picked one.
    pub pick: Option<Pos>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::levels::testkit::{at, picture, random_position};

    #[test]
    fn level_names_parse_case_insensitively_and_from_executable_names() {
        assert_eq!("EASY".parse(), Ok(Level::Easy));
        assert!("expert".parse::<Level>().is_err());
        assert_eq!(
            Level::from_exe_name("/opt/pbrain-hoshi-normal"),
            Some((Level::Normal, None))
        );
        assert_eq!(
            Level::from_exe_name(r"C:\x\pbrain-hoshi-hard.exe"),
            Some((Level::Hard, None))
        );
        assert_eq!(
            Level::from_exe_name(r"C:\x\pbrain-hoshi-Master35.exe"),
            Some((Level::Master, Strength::new(35)))
        );
        assert_eq!(
            Level::from_exe_name("pbrain-hoshi-master"),
            Some((Level::Master, None))
        );
        // As Windows starts programs: any case, either separator, verbatim and UNC paths.
        for (name, level) in [
            ("PBRAIN-HOSHI-EASY.EXE", Level::Easy),
            ("C:/Games/pbrain-hoshi-normal.Exe", Level::Normal),
            (
                r"\\?\C:\Program Files\Piskvork\pbrain-hoshi-hard.exe",
                Level::Hard,
            ),
            (r"\\server\ai\Jiří\pbrain-hoshi-easy.exe", Level::Easy),
            ("pbrain-hoshi-easy", Level::Easy),
        ] {
            assert_eq!(Level::from_exe_name(name), Some((level, None)), "{name}");
        }
        assert_eq!(
            Level::from_exe_name("PBRAIN-HOSHI-MASTER50.EXE"),
            Some((Level::Master, Strength::new(50)))
        );
        for name in [
            "pbrain-hoshi",
            "pbrain-hoshi.exe",
            r"C:\x\pbrain-hoshi64.exe",
            "pbrain-hoshi-easy.exe.bak",
            "pbrain-hoshi-easyexe",
            "pbrain-hoshi-master101",
            "pbrain-hoshi-master-5",
            "",
            ".exe",
            r"C:\ai\",
        ] {
            assert_eq!(Level::from_exe_name(name), None, "{name}");
        }
    }

    fn choose(level: Level, board: &mut Board, rule: Rule, me: Color, rng: &mut Rng) -> Pos {
        let stop = AtomicBool::new(false);
        // Master needs a bound; the classic levels ignore it.
        let limits = Limits {
            max_nodes: Some(5_000),
            ..Limits::default()
        };
        let mut ctx = Context {
            rule,
            me,
            limits,
            stop: &stop,
            rng,
            searcher: &mut Searcher::new(1 << 20),
            strength: Strength::FULL,
            observe: None,
        };
        level.choose(board, &mut ctx).pos
    }

    #[test]
    fn every_classic_level_opens_in_the_centre() {
        for (w, h, centre) in [(15, 15, at(7, 7)), (20, 20, at(10, 10)), (12, 7, at(6, 3))] {
            for level in Level::CLASSIC {
                let mut board = Board::new(w, h).unwrap();
                let p = choose(
                    level,
                    &mut board,
                    Rule::Renju,
                    Color::Black,
                    &mut Rng::new(3),
                );
                assert_eq!(p, centre, "{level} {w}x{h}");
            }
        }
    }

    #[test]
    fn without_candidates_every_classic_level_falls_back_to_the_first_empty_cell() {
        // Every cell within 2 of the lone stone is blocked: no candidate, so the first
        // empty cell in row-major order, (3, 0), legal for white under any rule here.
        let mut board = picture(&[
            "X##......",
            "###......",
            "###......",
            ".........",
            ".........",
        ]);
        for level in Level::CLASSIC {
            let p = choose(
                level,
                &mut board,
                Rule::Freestyle,
                Color::White,
                &mut Rng::new(3),
            );
            assert_eq!(p, at(3, 0), "{level}");
        }
    }

    #[test]
    fn every_level_answers_a_legal_empty_cell_and_leaves_the_board_alone() {
        let rules = Rule::ALL;
        let mut rng = Rng::new(0x001E_7E15);
        for i in 0..15 {
            let rule = rules[i % rules.len()];
            let stones = rng.below(30);
            let (mut board, me) = random_position(&mut rng, 15, stones, rule);
            for level in Level::ALL {
                let before = board.clone();
                let p = choose(level, &mut board, rule, me, &mut rng);
                assert_eq!(board, before, "{level} changed the board");
                assert!(rule.is_legal(&board, p, me), "{level} {rule} {p}\n{board}");
            }
        }
    }
}
