//! The normal level: the candidate with the best weighted pattern score, one ply deep.

use crate::board::{Board, Pos};
use crate::levels::classic::Classic;

/// The first candidate (row-major) with the highest candidate total, or `None` when the
/// engine has no candidate.
pub fn choose(board: &Board, game: &Classic<'_>) -> Option<Pos> {
    let mut best: Option<(i64, Pos)> = None;
    for c in game.candidates(board, game.me) {
        let total = game.total(board, c);
        // Strictly greater: a later candidate never displaces an equal earlier one.
        if best.is_none_or(|(top, _)| total > top) {
            best = Some((total, c));
        }
    }
    best.map(|(_, c)| c)
}
