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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Color;
    use crate::levels::testkit::{at, forbid, picture};
    use crate::rules::Rule;

    const B: Color = Color::Black;
    const W: Color = Color::White;

    #[test]
    fn the_first_of_equal_best_totals_in_row_major_order() {
        // Black's anti-diagonal pair (2, 3), (3, 2); white to play. Both ends, (4, 1) and
        // (1, 4), give black an open three (8,000) plus three lone directions (30): point
        // black 8,030. White there: blocked by black on the diagonal (0) plus 30. Total
        // 11 * 30 + 10 * 8,030 = 80,630 for both; any other cell touches at most a pair
        // (e.g. (2, 2): 11 * 20 + 10 * 820 = 8,420). (4, 1) is in row 1, first in
        // row-major order, though (1, 4) comes first column by column.
        let board = picture(&[
            ".......", ".......", "...X...", "..X....", ".......", ".......", ".......",
        ]);
        assert_eq!(
            choose(&board, &Classic::new(Rule::Freestyle, W)),
            Some(at(4, 1))
        );
    }

    #[test]
    fn attack_weighs_11_against_defence_10() {
        // White's pair in row 1, black's pair in row 6, black to play. Extending black's
        // pair at (3, 6): point black 8,030 (open three + 30), point white 30: total
        // 11 * 8,030 + 10 * 30 = 88,630. Blocking white at (3, 1): 11 * 30 + 10 * 8,030 =
        // 80,630. With equal weights they would tie and row-major order would pick (3, 1).
        let board = picture(&[
            ".........",
            ".OO......",
            ".........",
            ".........",
            ".........",
            ".........",
            ".XX......",
            ".........",
            ".........",
        ]);
        assert_eq!(
            choose(&board, &Classic::new(Rule::Freestyle, B)),
            Some(at(3, 6))
        );
        // With (3, 6) forbidden for black, the next best is the block (3, 1): black's other
        // extension (0, 6) scores only 11 * 510 + 10 * 10 = 5,710 (a three against the
        // edge, 500, plus one lone direction, 10; white there: 10).
        let game = Classic::with_filter(Rule::Renju, B, forbid(B, &[(3, 6)]));
        assert_eq!(choose(&board, &game), Some(at(3, 1)));
    }

    #[test]
    fn a_six_scores_1_000_000_even_where_it_does_not_win() {
        // Standard: black (5, 0) makes six, no win, yet its total is 11 * 1,000,000 (the
        // other directions run into blocked cells: 0); blocking white's open three at
        // (2, 2) totals 10 * 100,000 = 1,000,000 (black there: 1 open 1 = 0). The scores
        // ignore the rule, so normal plays the useless six.
        let board = picture(&[
            "#XXXX.X.#",
            "#########",
            "#..OOO..#",
            "#########",
            "#########",
        ]);
        assert_eq!(
            choose(&board, &Classic::new(Rule::Standard, B)),
            Some(at(5, 0))
        );
    }

    #[test]
    fn no_candidate_means_no_answer_here() {
        let board = picture(&[".....", ".....", "..X..", ".....", "....."]);
        let game = Classic::with_filter(Rule::Renju, W, |_, _, c| c != W);
        assert_eq!(choose(&board, &game), None);
    }
}
