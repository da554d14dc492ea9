//! When the search stops deepening: the soft deadline of [`Limits`], stretched or shrunk by
//! how steady the search's answer is.
//!
//! No SPRT has tuned these factors. T1 in docs/strength.md decided where they do not act:
//! with no match clock, or one covering many turns, the limits are not adaptive and the
//! soft deadline holds as it is.

use std::time::{Duration, Instant};

use super::Limits;
use crate::pattern::Idx;

/// Below this depth an iteration says little about stability: the factor stays 1.
const STABLE_FROM_DEPTH: i32 = 5;
/// The factor with no best-move change of late, before the score's fall.
const STEADY_FACTOR: f64 = 0.6;
/// What each (decaying) best-move change adds to the factor.
const PER_CHANGE: f64 = 0.4;
/// A score fall (or rise) counts up to this much.
const FALL_CAP: i32 = 200;
/// A fall of this much doubles the factor (a rise of as much would zero it, before the
/// clamp).
const FALL_DOUBLES_AT: f64 = 400.0;
/// The factor's bounds.
const MIN_FACTOR: f64 = 0.4;
const MAX_FACTOR: f64 = 1.8;

/// The main thread's stopping rule: the soft deadline, stretched while the best move keeps
/// changing or the score falls, shrunk while both hold steady (when the limits are
/// adaptive). Never past the hard deadline, which the tree itself watches.
pub struct Clock {
    start: Instant,
    /// The time to the soft deadline, if there is one.
    optimum: Option<Duration>,
    adaptive: bool,
    best: Option<Idx>,
    /// Best-move changes, halved at every depth.
    changes: f64,
    score: Option<i32>,
    factor: f64,
}

impl Clock {
    /// The clock of a search that began at `start` under `limits`.
    #[must_use]
    pub fn new(start: Instant, limits: &Limits) -> Clock {
        Clock {
            start,
            optimum: limits
                .soft_deadline
                .map(|d| d.saturating_duration_since(start)),
            adaptive: limits.adaptive,
            best: None,
            changes: 0.0,
            score: None,
            factor: 1.0,
        }
    }

    /// Takes in the iteration of `depth` just completed: its best move and score.
    pub fn completed(&mut self, depth: i32, best: Idx, score: i32) {
        self.changes /= 2.0;
        if self.best.is_some_and(|b| b != best) {
            self.changes += 1.0;
        }
        self.best = Some(best);
        let falling = self.score.map_or(0.0, |prev| {
            f64::from((prev - score).clamp(-FALL_CAP, FALL_CAP)) / FALL_DOUBLES_AT
        });
        self.score = Some(score);
        self.factor = if depth < STABLE_FROM_DEPTH || !self.adaptive {
            1.0
        } else {
            ((STEADY_FACTOR + PER_CHANGE * self.changes) * (1.0 + falling))
                .clamp(MIN_FACTOR, MAX_FACTOR)
        };
    }

    /// Whether no new iteration should start.
    #[must_use]
    pub fn should_stop(&self) -> bool {
        self.optimum
            .is_some_and(|o| self.start.elapsed() >= o.mul_f64(self.factor))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn adaptive(after: Duration) -> (Instant, Limits) {
        let start = Instant::now();
        let limits = Limits {
            soft_deadline: Some(start + after),
            adaptive: true,
            ..Limits::default()
        };
        (start, limits)
    }

    #[test]
    fn a_steady_answer_shrinks_the_soft_deadline_and_a_wavering_one_stretches_it() {
        // 0.6 of a soft deadline 10 s ahead started 7 s ago: past it only when steady.
        let (start, limits) = adaptive(Duration::from_secs(10));
        let start = start - Duration::from_secs(7);
        let limits = Limits {
            soft_deadline: limits.soft_deadline.map(|d| d - Duration::from_secs(7)),
            ..limits
        };
        let mut steady = Clock::new(start, &limits);
        let mut wavering = Clock::new(start, &limits);
        for depth in 1..=8 {
            steady.completed(depth, 10, 0);
            wavering.completed(depth, 10 + depth as Idx, 0);
        }
        assert!(steady.should_stop());
        assert!(!wavering.should_stop());
    }

    #[test]
    fn shallow_depths_and_fixed_limits_keep_the_soft_deadline() {
        let (start, limits) = adaptive(Duration::from_secs(60));
        let mut clock = Clock::new(start, &limits);
        clock.completed(4, 1, 0);
        clock.completed(4, 2, -500);
        assert!((clock.factor - 1.0).abs() < f64::EPSILON);
        let fixed = Limits {
            adaptive: false,
            ..limits
        };
        let mut clock = Clock::new(start, &fixed);
        clock.completed(9, 1, 0);
        clock.completed(10, 2, -500);
        assert!((clock.factor - 1.0).abs() < f64::EPSILON);
        assert!(!clock.should_stop());
        assert!(!Clock::new(start, &Limits::default()).should_stop());
    }
}
