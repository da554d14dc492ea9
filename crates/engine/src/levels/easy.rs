//! The easy level: the priority chain of docs/levels.md. It wins when it can, blocks a win or an
//! open three, and otherwise plays a random candidate; it never builds an attack.

use crate::board::{Board, Color, Dir, Pos};
use crate::levels::classic::Classic;
use crate::rng::Rng;

/// The move, or `None` when the engine has no candidate. Every step scans the engine's own
/// candidates in row-major order: a block is a stone of the engine, so it must be legal
/// for it.
pub fn choose(board: &Board, game: &Classic<'_>, rng: &mut Rng) -> Option<Pos> {
    let moves = game.candidates(board, game.me);
    let first = |test: &dyn Fn(Pos) -> bool| moves.iter().copied().find(|&c| test(c));
    first(&|c| game.wins(board, c, game.me))
        .or_else(|| first(&|c| game.wins(board, c, game.opp())))
        .or_else(|| first(&|c| makes_open_four(board, c, game.opp())))
        .or_else(|| {
            // `below` needs a non-empty range; with no candidate the caller falls back.
            (!moves.is_empty())
                .then(|| rng.below(moves.len()))
                .and_then(|i| moves.get(i).copied())
        })
}

/// Whether a stone of `colour` on `c` makes, in some direction, a run of exactly 4 with
/// both ends open (an open three completed to an open four). Whether the cell is forbidden
/// for `colour` does not matter here.
fn makes_open_four(board: &Board, c: Pos, colour: Color) -> bool {
    Dir::ALL.iter().any(|&dir| {
        let run = board.run_through(c, colour, dir);
        run.len == 4 && run.open_ends() == 2
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::levels::testkit::{at, forbid, picture};
    use crate::rules::Rule;

    const B: Color = Color::Black;
    const W: Color = Color::White;

    fn easy(board: &Board, game: &Classic<'_>) -> Option<Pos> {
        choose(board, game, &mut Rng::new(1))
    }

    #[test]
    fn a_win_comes_before_blocking_the_opponents_win() {
        // White wins at (0, 1) or (5, 1), earlier in row-major order than black's wins at
        // (0, 5) and (5, 5); step 1 still plays black's first win, (0, 5).
        let board = picture(&[
            "........", //
            ".OOOO...", "........", "........", "........", ".XXXX...", "........", "........",
        ]);
        assert_eq!(
            easy(&board, &Classic::new(Rule::Freestyle, B)),
            Some(at(0, 5))
        );
        // As white, the same board: white's first win is (0, 1).
        assert_eq!(
            easy(&board, &Classic::new(Rule::Freestyle, W)),
            Some(at(0, 1))
        );
    }

    /// White's four in row 6 (wins at (0, 6) and (5, 6)) and white's open vertical three
    /// at x = 7 (an open four from (7, 1) or (7, 5)); black has no stone.
    fn four_and_three() -> Board {
        picture(&[
            ".........",
            ".........",
            ".......O.",
            ".......O.",
            ".......O.",
            ".........",
            ".OOOO....",
            ".........",
            ".........",
        ])
    }

    #[test]
    fn blocking_a_win_comes_before_blocking_an_open_three() {
        // (7, 1) would block the three and comes first in row-major order, but step 2
        // blocks white's five first, at its first cell (0, 6).
        let board = four_and_three();
        assert_eq!(
            easy(&board, &Classic::new(Rule::Freestyle, B)),
            Some(at(0, 6))
        );
        // A block is black's stone: where black may not play, the next win cell (5, 6).
        let game = Classic::with_filter(Rule::Renju, B, forbid(B, &[(0, 6)]));
        assert_eq!(easy(&board, &game), Some(at(5, 6)));
    }

    /// ```text
    ///   x 0123456789
    /// y 1 .XOOO.....   a three closed by black: (5, 1) makes 4 with one open end
    ///   5 ...OO.O...   a split three: (5, 5) makes 4 with (2, 5), (7, 5) empty
    ///   7 ...OOO....   an open three: (2, 7) and (6, 7) make open fours
    /// ```
    /// Rows 0, 2-4, 6 and 8 are empty; no white run reaches 4 across rows (row 6 cells see
    /// at most 3 vertically or diagonally), and nobody can make five.
    fn threes() -> Board {
        picture(&[
            "..........",
            ".XOOO.....",
            "..........",
            "..........",
            "..........",
            "...OO.O...",
            "..........",
            "...OOO....",
            "..........",
        ])
    }

    #[test]
    fn an_open_three_is_blocked_where_white_would_make_four_with_both_ends_open() {
        let board = threes();
        // (5, 1) comes first but makes count 4 with open 1; (5, 5) is the first count 4
        // open 2.
        assert_eq!(
            easy(&board, &Classic::new(Rule::Freestyle, B)),
            Some(at(5, 5))
        );
        // Forbidden for white or not, (5, 5) is still blocked.
        let game = Classic::with_filter(Rule::Renju, B, forbid(W, &[(5, 5)]));
        assert_eq!(easy(&board, &game), Some(at(5, 5)));
        // Forbidden for black: the next such cell, (2, 7).
        let game = Classic::with_filter(Rule::Renju, B, forbid(B, &[(5, 5)]));
        assert_eq!(easy(&board, &game), Some(at(2, 7)));
    }

    #[test]
    fn otherwise_a_uniform_draw_among_the_candidates() {
        // One black stone in the middle of 7x7: white's 24 candidates are the 5x5 square
        // around it, and no step of the chain applies.
        let board = picture(&[
            ".......", ".......", ".......", "...X...", ".......", ".......", ".......",
        ]);
        let game = Classic::new(Rule::Freestyle, W);
        let square: Vec<Pos> = (1..=5)
            .flat_map(|y| (1..=5).map(move |x| at(x, y)))
            .filter(|&p| p != at(3, 3))
            .collect();
        // The draw is `below(24)` on the engine's generator, indexing the row-major list.
        let seed = 20_260_101;
        let expected = square[Rng::new(seed).below(square.len())];
        assert_eq!(choose(&board, &game, &mut Rng::new(seed)), Some(expected));
        // Uniform: 2,400 draws from one stream hit every candidate near 100 times.
        let mut rng = Rng::new(seed);
        let mut hits = vec![0u32; square.len()];
        for _ in 0..2_400 {
            let p = choose(&board, &game, &mut rng).unwrap();
            hits[square.iter().position(|&q| q == p).unwrap()] += 1;
        }
        assert!(hits.iter().all(|&n| (50..=150).contains(&n)), "{hits:?}");
    }

    #[test]
    fn no_candidate_means_no_answer_here() {
        let board = threes();
        let game = Classic::with_filter(Rule::Renju, B, |_, _, c| c != B);
        assert_eq!(easy(&board, &game), None);
    }

    #[test]
    fn wins_follow_the_rule_standard_six_and_caro_held_five() {
        // Row 0: black (5, 0) makes six. Row 2: white's open three, blocked at (2, 2) first.
        let board = picture(&[
            "#XXXX.X.#",
            "#########",
            "#..OOO..#",
            "#########",
            "#########",
        ]);
        assert_eq!(
            easy(&board, &Classic::new(Rule::Freestyle, B)),
            Some(at(5, 0))
        );
        assert_eq!(
            easy(&board, &Classic::new(Rule::Standard, B)),
            Some(at(2, 2))
        );
        // Row 0: black's five at (6, 0) would be held by white at both ends.
        let board = picture(&[
            "#OXXXX.O#",
            "#########",
            "#..OOO..#",
            "#########",
            "#########",
        ]);
        assert_eq!(
            easy(&board, &Classic::new(Rule::Freestyle, B)),
            Some(at(6, 0))
        );
        assert_eq!(easy(&board, &Classic::new(Rule::Caro, B)), Some(at(2, 2)));
    }
}
