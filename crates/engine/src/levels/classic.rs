//! The pieces the three classic levels share, as docs/levels.md defines them: candidates,
//! the line score table, point and board scores, and the weighted totals.
//!
//! All scores are integers scaled by 10 so that the articles' 1.1 attack weight is exact.
//! They ignore the rule on purpose (a six scores like a five even where it does not win);
//! the rule only decides wins and, through [`Classic`]'s legality predicate, which cells a
//! side may play.

use crate::board::{Board, Cell, Color, Dir, Pos};
use crate::rules::Rule;

/// A won game, at the weighted scale (the articles' 1,000,000 times 10).
pub const WIN: i64 = 10_000_000;

/// Candidates are the empty cells with a stone within this Chebyshev distance.
const NEAR: i32 = 2;

/// Whether a side may play a cell: the one place the rule's forbidden points enter.
pub type Allowed<'a> = Box<dyn Fn(&Board, Pos, Color) -> bool + 'a>;

/// The game as the classic levels see it: the rule, the engine's colour, and which cells a
/// side may play.
pub struct Classic<'a> {
    rule: Rule,
    pub me: Color,
    allowed: Allowed<'a>,
}

impl<'a> Classic<'a> {
    /// The real game: a side may play where the rule says the move is legal.
    pub fn new(rule: Rule, me: Color) -> Classic<'a> {
        Classic::with_filter(rule, me, move |b, p, c| rule.is_legal(b, p, c))
    }

    /// The same game with another legality predicate (tests stand in for renju with it).
    pub fn with_filter(
        rule: Rule,
        me: Color,
        allowed: impl Fn(&Board, Pos, Color) -> bool + 'a,
    ) -> Classic<'a> {
        Classic {
            rule,
            me,
            allowed: Box::new(allowed),
        }
    }

    #[must_use]
    pub fn opp(&self) -> Color {
        self.me.opponent()
    }

    /// `side`'s candidates in row-major order: empty cells near a stone (the centre alone on
    /// a board without stones), minus the cells forbidden for `side`.
    #[must_use]
    pub fn candidates(&self, board: &Board, side: Color) -> Vec<Pos> {
        let near: Vec<Pos> = if board.has_no_stones() {
            let c = board.center();
            if board.is_empty_at(c) {
                vec![c]
            } else {
                Vec::new()
            }
        } else {
            board
                .empty_cells()
                .filter(|&p| board.has_stone_near(p, NEAR))
                .collect()
        };
        near.into_iter()
            .filter(|&p| (self.allowed)(board, p, side))
            .collect()
    }

    /// Where `side` plays when it has no candidate: the first empty cell legal for it, else
    /// the first empty cell. A full board has no answer; the centre is returned so that the
    /// caller still gets a cell.
    #[must_use]
    pub fn fallback(&self, board: &Board, side: Color) -> Pos {
        board
            .empty_cells()
            .find(|&p| (self.allowed)(board, p, side))
            .or_else(|| board.empty_cells().next())
            .unwrap_or_else(|| board.center())
    }

    /// Whether a stone of `side` on `p` wins under the game's rule.
    #[must_use]
    pub fn wins(&self, board: &Board, p: Pos, side: Color) -> bool {
        self.rule.is_win(board, p, side)
    }

    /// The candidate total `11 * point(c, me) + 10 * point(c, opp)`.
    #[must_use]
    pub fn total(&self, board: &Board, c: Pos) -> i64 {
        11 * point(board, c, self.me) + 10 * point(board, c, self.opp())
    }

    /// The board evaluation `10 * lines(me) - 11 * lines(opp)`.
    #[must_use]
    pub fn eval(&self, board: &Board) -> i64 {
        10 * lines(board, self.me) - 11 * lines(board, self.opp())
    }
}

/// The articles' table: a run of `count` stones with `open` open ends.
#[must_use]
pub fn score(count: usize, open: usize) -> i64 {
    match (count, open) {
        (5.., _) => 1_000_000,
        (4, 2) => 100_000,
        (4, 1) => 10_000,
        (3, 2) => 8_000,
        (3, 1) => 500,
        (2, 2) => 400,
        (2, 1) => 50,
        (1, 2) => 10,
        _ => 0,
    }
}

/// The score of a stone of `colour` on `c`: the runs through it in the four directions.
/// The board is not touched ([`Board::run_through`] counts `c` as the colour's stone).
#[must_use]
pub fn point(board: &Board, c: Pos, colour: Color) -> i64 {
    Dir::ALL
        .iter()
        .map(|&dir| {
            let run = board.run_through(c, colour, dir);
            score(run.len, run.open_ends())
        })
        .sum()
}

/// The score of every maximal run of `colour` on the board, in each direction.
#[must_use]
pub fn lines(board: &Board, colour: Color) -> i64 {
    let own = |q: Pos| board.get(q) == Cell::Stone(colour);
    board
        .history()
        .iter()
        .filter(|&&(_, c)| c == colour)
        .flat_map(|&(p, _)| Dir::ALL.iter().map(move |&dir| (p, dir)))
        // Each run is scored once, from its first stone along the direction.
        .filter(|&(p, dir)| !board.step(p, dir, -1).is_some_and(own))
        .map(|(p, dir)| {
            let run = board.run_through(p, colour, dir);
            score(run.len, run.open_ends())
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::levels::testkit::{at, forbid, picture};

    const B: Color = Color::Black;
    const W: Color = Color::White;

    #[test]
    fn an_empty_board_has_only_its_centre_even_or_rectangular() {
        for (w, h, centre) in [
            (15, 15, at(7, 7)),
            (6, 6, at(3, 3)),
            (9, 6, at(4, 3)),
            (5, 8, at(2, 4)),
        ] {
            let board = Board::new(w, h).unwrap();
            let game = Classic::new(Rule::Freestyle, B);
            assert_eq!(game.candidates(&board, B), vec![centre], "{w}x{h}");
            assert_eq!(game.candidates(&board, W), vec![centre], "{w}x{h}");
        }
        // Blocked cells are not stones: the board still counts as empty.
        let board = picture(&["#....", ".....", ".....", ".....", "....#"]);
        assert_eq!(
            Classic::new(Rule::Freestyle, B).candidates(&board, B),
            vec![at(2, 2)]
        );
    }

    #[test]
    fn candidates_are_empty_cells_within_two_in_row_major_order() {
        // One stone in the corner: the cells with x <= 2 and y <= 2 other than itself.
        let board = picture(&[
            "X......", ".......", ".......", ".......", ".......", ".......", ".......",
        ]);
        let expected = [
            (1, 0),
            (2, 0),
            (0, 1),
            (1, 1),
            (2, 1),
            (0, 2),
            (1, 2),
            (2, 2),
        ]
        .map(|(x, y)| at(x, y));
        assert_eq!(
            Classic::new(Rule::Freestyle, W).candidates(&board, W),
            expected
        );

        // Two stones: the union of their 5x5 squares, in row-major order. White (6, 1)
        // covers x 4..=7 (clipped) in rows 0..=3; black (1, 3) covers x 0..=3 in rows 1..=5.
        // Stones and the blocked cell are not empty, so they are not candidates.
        let board = picture(&[
            "........", // row 0: x 4..=7 (white's square only)
            "......O.", // row 1: x 0..=3 (black's), 4, 5, 7 (white's, minus the stone)
            "...#....", // row 2: x 0..=2 (minus the block), 4..=7
            ".X......", // row 3: x 0, 2, 3 (minus the stone), 4..=7
            "........", // row 4: x 0..=3
            "........", // row 5: x 0..=3
            "........", // row 6: too far from both
        ]);
        let mut expected = Vec::new();
        for (y, xs) in [
            (0, vec![4, 5, 6, 7]),
            (1, vec![0, 1, 2, 3, 4, 5, 7]),
            (2, vec![0, 1, 2, 4, 5, 6, 7]),
            (3, vec![0, 2, 3, 4, 5, 6, 7]),
            (4, vec![0, 1, 2, 3]),
            (5, vec![0, 1, 2, 3]),
        ] {
            expected.extend(xs.into_iter().map(|x| at(x, y)));
        }
        assert_eq!(
            Classic::new(Rule::Freestyle, B).candidates(&board, B),
            expected
        );
    }

    #[test]
    fn forbidden_cells_leave_only_that_sides_candidates() {
        let board = picture(&[".....", ".....", "..X..", ".....", "....."]);
        let game = Classic::with_filter(Rule::Renju, W, forbid(B, &[(1, 1), (3, 3)]));
        let black = game.candidates(&board, B);
        let white = game.candidates(&board, W);
        assert_eq!(white.len(), 24);
        assert_eq!(black.len(), 22);
        assert!(!black.contains(&at(1, 1)) && !black.contains(&at(3, 3)));
        assert!(white.contains(&at(1, 1)) && white.contains(&at(3, 3)));
        // Under the real rule, with no renju foul possible on this board, nothing is dropped.
        assert_eq!(Classic::new(Rule::Renju, W).candidates(&board, B), white);
    }

    #[test]
    fn fallback_is_the_first_legal_empty_cell_then_the_first_empty_cell() {
        let board = picture(&["X#...", ".....", ".....", ".....", "....."]);
        // Black may not play (0, 1) or (2, 0): the first legal empty cell is (3, 0).
        let game = Classic::with_filter(Rule::Renju, W, forbid(B, &[(2, 0), (0, 1)]));
        assert_eq!(game.fallback(&board, B), at(3, 0));
        assert_eq!(game.fallback(&board, W), at(2, 0));
        // Nothing legal at all: the first empty cell.
        let game = Classic::with_filter(Rule::Renju, W, |_, _, _| false);
        assert_eq!(game.fallback(&board, B), at(2, 0));
    }

    #[test]
    fn score_table_corners() {
        for open in 0..=2 {
            assert_eq!(score(5, open), 1_000_000);
            assert_eq!(score(6, open), 1_000_000);
            assert_eq!(score(9, open), 1_000_000);
        }
        assert_eq!(
            [score(4, 2), score(4, 1), score(4, 0)],
            [100_000, 10_000, 0]
        );
        assert_eq!([score(3, 2), score(3, 1), score(3, 0)], [8_000, 500, 0]);
        assert_eq!([score(2, 2), score(2, 1), score(2, 0)], [400, 50, 0]);
        assert_eq!([score(1, 2), score(1, 1), score(1, 0)], [10, 0, 0]);
    }

    /// A 7x7 position used by the point, lines and total tests:
    /// ```text
    ///   x 0123456
    /// y 0 .......
    ///   1 .......
    ///   2 .XX.O..
    ///   3 ..X....
    ///   4 .......
    ///   5 .......
    ///   6 .......
    /// ```
    fn small() -> Board {
        picture(&[
            ".......", ".......", ".XX.O..", "..X....", ".......", ".......", ".......",
        ])
    }

    #[test]
    fn point_sums_the_four_runs_through_the_cell() {
        let board = small();
        // Black on (3, 2): horizontal X X X with (0, 2) empty and (4, 2) white: 3 with one
        // open end = 500. Vertical: (3, 1), (3, 3) empty: single, open 2 = 10. Diagonal
        // (dx 1, dy 1): (2, 1) empty, (4, 3) empty = 10. Anti-diagonal (dx 1, dy -1):
        // (2, 3) is black, so the run is (2, 3), (3, 2), ends (1, 4) and (4, 1) empty:
        // 2 open 2 = 400. Sum 920.
        assert_eq!(point(&board, at(3, 2), B), 920);
        // White on (3, 2): horizontal O O with (2, 2) black and (5, 2) empty: 2 open 1 = 50;
        // vertical 10; diagonal 10; anti-diagonal: (2, 3) black, (4, 1) empty: 1 open 1 = 0.
        assert_eq!(point(&board, at(3, 2), W), 70);
        // Black on (2, 4): vertical X X X from (2, 2), ends (2, 1) and (2, 5) empty: 8,000;
        // horizontal, both diagonals: single stones open 2: 30. Sum 8,030.
        assert_eq!(point(&board, at(2, 4), B), 8_030);
        // Black on (0, 2) at the edge: horizontal X X X, ends off board and (3, 2) empty:
        // 500; vertical 10; both diagonals run off the board at one end: 1 open 1 = 0.
        assert_eq!(point(&board, at(0, 2), B), 510);
    }

    #[test]
    fn lines_scores_every_maximal_run_once() {
        let board = small();
        // Black, every end named below is empty (open):
        // horizontal: (1, 2)-(2, 2) = 400, (2, 3) alone = 10;
        // vertical: (2, 2)-(2, 3) = 400, (1, 2) alone = 10;
        // diagonal: (1, 2)-(2, 3), ends (0, 1) and (3, 4) = 400, (2, 2) alone = 10;
        // anti-diagonal: (1, 2), (2, 2), (2, 3) each alone = 30.
        // Total 3 * 410 + 30 = 1,260.
        assert_eq!(lines(&board, B), 1_260);
        // White: (4, 2) alone; horizontal ends (3, 2), (5, 2) empty: 10 in all four: 40.
        assert_eq!(lines(&board, W), 40);
        // Stones of the colour at the board's edge: a lone corner stone has every run open
        // at most at one end, so it scores nothing.
        let corner = picture(&["O....", ".....", ".....", ".....", "....."]);
        assert_eq!(lines(&corner, W), 0);
    }

    #[test]
    fn totals_weigh_attack_11_and_defence_10() {
        let board = small();
        let black = Classic::new(Rule::Freestyle, B);
        let white = Classic::new(Rule::Freestyle, W);
        // (3, 2): point black 920, point white 70 (see above).
        assert_eq!(black.total(&board, at(3, 2)), 11 * 920 + 10 * 70);
        assert_eq!(white.total(&board, at(3, 2)), 11 * 70 + 10 * 920);
        // eval = 10 * lines(me) - 11 * lines(opp): 10 * 1,260 - 11 * 40 for black.
        assert_eq!(black.eval(&board), 12_600 - 440);
        assert_eq!(white.eval(&board), 400 - 13_860);
    }

    #[test]
    fn scores_ignore_the_rule_but_wins_follow_it() {
        // Standard: black's X X X X _ X: (4, 2) makes six. Not a win under standard (or
        // caro-exact), a win in freestyle and caro, and it scores 1,000,000 regardless.
        let board = picture(&[".......", ".......", "XXXX.XX", ".......", "......."]);
        let six = at(4, 2);
        assert!(!Classic::new(Rule::Standard, B).wins(&board, six, B));
        assert!(!Classic::new(Rule::CaroExact, B).wins(&board, six, B));
        assert!(Classic::new(Rule::Freestyle, B).wins(&board, six, B));
        assert!(Classic::new(Rule::Caro, B).wins(&board, six, B));
        // Horizontal: 7 stones = 1,000,000; vertical and both diagonals: single, open 2.
        assert_eq!(point(&board, six, B), 1_000_030);
        // Caro: a five held by white at both ends does not win, yet scores 1,000,000 with
        // no open end; the board's edge does not block, so the same five against it wins.
        let held = picture(&[".......", "OXXXX.O", ".......", ".......", "XXXX..."]);
        let caro = Classic::new(Rule::Caro, B);
        assert!(!caro.wins(&held, at(5, 1), B));
        assert_eq!(point(&held, at(5, 1), B), 1_000_000 + 3 * 10);
        assert!(caro.wins(&held, at(4, 4), B));
    }
}
