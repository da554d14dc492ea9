//! What bounds one search: a wall-clock deadline, a depth, a node count, and the stop flag.
//!
//! The search sees only this, never a protocol word: the session turns `INFO` settings
//! into a `Limits`, and the reader thread raises the stop flag.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Bounds for one move's thinking. `None` means unbounded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Start no new iteration after this (the soft limit).
    pub soft_deadline: Option<Instant>,
    /// Whether the search may stop before the soft limit while its best move holds, and go
    /// past it (never past `deadline`) while the move wavers: worth it only when time saved
    /// now serves later moves.
    pub adaptive: bool,
    /// Answer no later than this: checked inside the tree (the hard limit).
    pub deadline: Option<Instant>,
    /// Deepest iteration to search.
    pub max_depth: Option<u32>,
    /// Most nodes to visit.
    pub max_nodes: Option<u64>,
}

impl Limits {
    /// Whether the search must stop now: the flag is raised or the deadline has passed.
    #[must_use]
    pub fn should_stop(&self, stop: &AtomicBool) -> bool {
        stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}
