//! Black's forbidden points in renju (overline, double four, double three).
//!
//! Placeholder until the renju issue lands: nothing is forbidden yet.

use crate::board::{Board, Pos};

/// The kind of foul a forbidden point commits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Foul {
    Overline,
    DoubleFour,
    DoubleThree,
}

/// The foul black would commit by playing on the empty cell `p`, if any.
#[must_use]
pub fn foul(_board: &Board, _p: Pos) -> Option<Foul> {
    None
}
