//! Time management: the managers' clock settings turned into one move's [`Limits`].
//!
//! Managers measure wall-clock time from when they wrote the request, pipe latency and
//! their own polling included (GomocupJudge polls every 10 ms, liskvork allows no
//! tolerance at all), so every budget keeps a margin and is counted from the moment the
//! request was *read*, not from when a queued request got its turn. Under the Gomocup judge
//! the engine is suspended right after `START` is written, and reading `START` and the
//! `INFO` block happens inside the first move's window: so the first move of a game counts
//! from `START` (bounded, since a manager may also just wait before its first request).
//!
//! The budget is `min(timeout_turn, share of the match time left)`: the hard deadline
//! never exceeds the turn limit or a third of what is left of the game. The soft one (start
//! no new iteration) depends on whether time saved now is worth anything later. With no
//! match clock, or one that would still cover [`AMPLE_TURNS`] full turns, it is not: the
//! search goes on to nine tenths of the turn whatever the stability of its best move, as
//! Rapfi does. Otherwise it is half the turn limit or a twentieth of the game time left,
//! stretched or shrunk by the search as its best move wavers or holds.
//! The match time left is the last `INFO time_left` less what was spent since; managers that
//! never send it (liskvork) are covered by counting our own time against `timeout_match`.

use std::time::{Duration, Instant};

use super::Limits;

/// Per-move limit assumed until a manager sends one (liskvork's default, and it omits the
/// INFO when its value is 0).
pub const DEFAULT_TURN_MS: i64 = 5_000;

/// `time_left` value meaning "no match limit" (the managers send `i32::MAX`).
const UNLIMITED_MS: i64 = i32::MAX as i64;

/// Moves the rest of the game is assumed to last, for the soft share of the match time.
const MOVES_TO_GO: i64 = 20;

/// The hard deadline never takes more than this fraction (1/n) of the match time left.
const MAX_SHARE_OF_LEFT: i64 = 3;

/// A match clock covering this many full turns leaves the turn limit as the only bound
/// (Rapfi's move horizon).
const AMPLE_TURNS: i64 = 64;

/// With ample time, no new iteration starts after this share (per mille) of the hard
/// deadline: one would rarely finish even its first move.
const AMPLE_SOFT_PER_MILLE: i64 = 900;

/// Safety margin bounds: 5% of a limit, at least 30 ms (latency, polling, scheduling), at
/// most 500 ms (enough for any scheduler hiccup; more would only waste long time controls).
const MARGIN_MIN_MS: i64 = 30;
const MARGIN_MAX_MS: i64 = 500;

/// Of the time between `START` and the first request, at most this much is counted against
/// the first move.
const FIRST_MOVE_CARRY: Duration = Duration::from_millis(500);

/// The clock settings of the session and what this game has used of them.
#[derive(Clone, Debug)]
pub struct TimeControl {
    /// `None`: no per-move limit.
    turn_ms: Option<i64>,
    /// `None`: no match limit.
    match_ms: Option<i64>,
    /// The last `time_left` and our time used when it arrived.
    left: Option<(i64, Duration)>,
    /// Thinking time spent in this game.
    used: Duration,
}

impl Default for TimeControl {
    fn default() -> TimeControl {
        TimeControl {
            turn_ms: Some(DEFAULT_TURN_MS),
            match_ms: None,
            left: None,
            used: Duration::ZERO,
        }
    }
}

/// A move's budget, from the moment its clock started. `None` is unbounded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub soft_ms: Option<i64>,
    pub hard_ms: Option<i64>,
    /// Whether the search may move the soft deadline by the stability of its best move.
    pub adaptive: bool,
}

impl TimeControl {
    /// `INFO timeout_turn`: 0 answers at once, a negative value lifts the limit.
    pub fn set_timeout_turn(&mut self, ms: i64) {
        self.turn_ms = (ms >= 0).then_some(ms);
    }

    /// `INFO timeout_match`: 0 (or less) is no limit.
    pub fn set_timeout_match(&mut self, ms: i64) {
        self.match_ms = (ms > 0 && ms < UNLIMITED_MS).then_some(ms);
    }

    /// `INFO time_left`: authoritative until the next one; `2147483647` is no limit.
    pub fn set_time_left(&mut self, ms: i64) {
        self.left = Some((ms, self.used));
    }

    /// A new game: the clock settings stay and the time used restarts. The last
    /// `time_left` stays too, counted from now: Yixin-Board sends it just before `START`.
    pub fn new_game(&mut self) {
        self.used = Duration::ZERO;
        self.left = self.left.map(|(ms, _)| (ms, Duration::ZERO));
    }

    /// Adds one move's thinking time to the game's total.
    pub fn record(&mut self, spent: Duration) {
        self.used = self.used.saturating_add(spent);
    }

    /// Match time left in ms, `None` when unlimited.
    #[must_use]
    pub fn match_left_ms(&self) -> Option<i64> {
        let since = |d: Duration| i64::try_from(d.as_millis()).unwrap_or(i64::MAX);
        match self.left {
            Some((ms, _)) if ms >= UNLIMITED_MS => None,
            Some((ms, used_then)) => {
                Some(ms.saturating_sub(since(self.used.saturating_sub(used_then))))
            }
            None => self.match_ms.map(|m| m.saturating_sub(since(self.used))),
        }
    }

    /// The budget of the next move.
    #[must_use]
    pub fn budget(&self) -> Budget {
        budget(self.turn_ms, self.match_left_ms())
    }

    /// The limits of a move whose clock started at `origin`.
    #[must_use]
    pub fn limits(
        &self,
        origin: Instant,
        max_depth: Option<u32>,
        max_nodes: Option<u64>,
    ) -> Limits {
        let b = self.budget();
        // A deadline too far for `Instant` (an absurd INFO value) is no deadline.
        let at = |ms: Option<i64>| {
            ms.and_then(|ms| {
                origin.checked_add(Duration::from_millis(u64::try_from(ms).unwrap_or(0)))
            })
        };
        Limits {
            soft_deadline: at(b.soft_ms),
            adaptive: b.adaptive,
            deadline: at(b.hard_ms),
            max_depth,
            max_nodes,
        }
    }
}

/// When the clock of a request read at `received` started. `game_start` is when `START`
/// was read, given only for the game's first request: that time counts too, up to
/// `FIRST_MOVE_CARRY`.
#[must_use]
pub fn clock_start(received: Instant, game_start: Option<Instant>) -> Instant {
    let Some(start) = game_start else {
        return received;
    };
    let earliest = received.checked_sub(FIRST_MOVE_CARRY).unwrap_or(start);
    start.max(earliest).min(received)
}

fn margin(limit_ms: i64) -> i64 {
    (limit_ms / 20).clamp(MARGIN_MIN_MS, MARGIN_MAX_MS)
}

/// The budget for a turn limit and a match time left (both `None` when unlimited).
fn budget(turn_ms: Option<i64>, left_ms: Option<i64>) -> Budget {
    let usable = |limit: i64| limit.saturating_sub(margin(limit)).max(0);
    let (turn, left) = (turn_ms.map(usable), left_ms.map(usable));
    match (turn, left) {
        // Time saved would be lost (ample implies the turn is within a third of what is left).
        (Some(turn), left) if left.is_none_or(|l| turn.saturating_mul(AMPLE_TURNS) <= l) => {
            Budget {
                soft_ms: Some(turn.saturating_mul(AMPLE_SOFT_PER_MILLE) / 1000),
                hard_ms: Some(turn),
                adaptive: false,
            }
        }
        (turn, Some(left)) => Budget {
            soft_ms: Some(turn.map_or(left, |t| t / 2).min(left / MOVES_TO_GO)),
            hard_ms: Some(turn.map_or(left, |t| t).min(left / MAX_SHARE_OF_LEFT)),
            adaptive: true,
        },
        (_, None) => Budget {
            soft_ms: None,
            hard_ms: None,
            adaptive: true,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A budget the search adapts to its stability.
    fn b(soft: i64, hard: i64) -> Budget {
        Budget {
            soft_ms: Some(soft),
            hard_ms: Some(hard),
            adaptive: true,
        }
    }

    /// A budget used to nine tenths whatever the stability.
    fn fixed(hard: i64) -> Budget {
        Budget {
            soft_ms: Some(hard * 9 / 10),
            hard_ms: Some(hard),
            adaptive: false,
        }
    }

    fn unbounded() -> Budget {
        Budget {
            soft_ms: None,
            hard_ms: None,
            adaptive: true,
        }
    }

    #[test]
    fn timeout_turn_zero_or_no_time_left_answers_at_once() {
        let mut tc = TimeControl::default();
        tc.set_timeout_turn(0);
        assert_eq!(tc.budget(), fixed(0));
        tc.set_timeout_turn(30_000);
        tc.set_time_left(-500);
        assert_eq!(tc.budget(), b(0, 0));
    }

    #[test]
    fn turn_limit_alone_keeps_a_margin_and_is_used_whatever_the_stability() {
        // 5% margin: 5000 -> 4750 usable.
        assert_eq!(budget(Some(5_000), None), fixed(4_750));
        // Small limits keep the 30 ms floor, large ones the 500 ms cap.
        assert_eq!(budget(Some(100), None), fixed(70));
        assert_eq!(budget(Some(300_000), None), fixed(299_500));
        assert_eq!(budget(None, None), unbounded());
    }

    #[test]
    fn a_match_clock_covering_many_turns_leaves_the_turn_limit_alone() {
        // 1 s a turn, 100 s left: 64 turns of 950 ms fit in 99.5 s.
        assert_eq!(budget(Some(1_000), Some(100_000)), fixed(950));
        // 60 s left: they do not, and saved time counts.
        assert_eq!(budget(Some(1_000), Some(60_000)), b(475, 950));
        // No turn limit: the match clock alone.
        assert_eq!(budget(None, Some(60_000)), b(2_975, 19_833));
    }

    #[test]
    fn match_time_left_caps_both_limits() {
        // T28: 1000 ms a turn but 300 ms left in the game: 270 usable, a third at most.
        assert_eq!(budget(Some(1_000), Some(300)), b(13, 90));
        // Fastgame 5 s / 120 s at the start: the turn limit binds the hard deadline.
        assert_eq!(budget(Some(5_000), Some(120_000)), b(2_375, 4_750));
        // Late in that game: a twentieth of what is left as the soft target.
        assert_eq!(budget(Some(5_000), Some(30_000)), b(1_475, 4_750));
    }

    #[test]
    fn unlimited_sentinels_lift_the_match_limit() {
        let mut tc = TimeControl::default();
        tc.set_timeout_turn(-1);
        tc.set_timeout_match(0);
        assert_eq!(tc.match_left_ms(), None);
        tc.set_time_left(2_147_483_647);
        assert_eq!(tc.budget(), unbounded());
    }

    #[test]
    fn own_clock_counts_against_timeout_match_when_time_left_never_comes() {
        let mut tc = TimeControl::default();
        tc.set_timeout_match(10_000);
        tc.record(Duration::from_millis(4_000));
        assert_eq!(tc.match_left_ms(), Some(6_000));
        // A time_left report replaces the estimate; time spent after it still counts.
        tc.set_time_left(5_000);
        tc.record(Duration::from_millis(1_000));
        assert_eq!(tc.match_left_ms(), Some(4_000));
        tc.new_game();
        assert_eq!(tc.match_left_ms(), Some(5_000));
        tc.record(Duration::from_millis(500));
        assert_eq!(tc.match_left_ms(), Some(4_500));
    }

    #[test]
    fn first_move_clock_includes_start_but_only_so_much() {
        let start = Instant::now();
        let soon = start + Duration::from_millis(100);
        let late = start + Duration::from_secs(10);
        assert_eq!(clock_start(soon, Some(start)), start);
        assert_eq!(clock_start(late, Some(start)), late - FIRST_MOVE_CARRY);
        assert_eq!(clock_start(late, None), late);
    }

    #[test]
    fn absurd_limits_do_not_panic() {
        let mut tc = TimeControl::default();
        tc.set_timeout_turn(i64::MAX);
        tc.set_time_left(i64::MAX - 1);
        let origin = Instant::now();
        let l = tc.limits(origin, None, None);
        // Representable or not (platforms differ), never before the origin.
        assert!(
            l.deadline
                .is_none_or(|d| d > origin + Duration::from_secs(1_000_000))
        );
        assert!(l.soft_deadline.is_none_or(|d| d > origin));
        tc.set_time_left(i64::MIN);
        let origin = Instant::now();
        assert_eq!(tc.limits(origin, None, None).deadline, Some(origin));
    }

    #[test]
    fn limits_place_deadlines_after_the_origin() {
        let tc = TimeControl::default();
        let origin = Instant::now();
        let l = tc.limits(origin, Some(7), None);
        assert_eq!(l.deadline, Some(origin + Duration::from_millis(4_750)));
        assert_eq!(l.soft_deadline, Some(origin + Duration::from_millis(4_275)));
        assert!(!l.adaptive);
        assert_eq!(l.max_depth, Some(7));
    }
}
