//! Helpers for the levels' tests: boards from pictures, stand-in renju filters and random
//! positions from a seeded generator.

use crate::board::{Board, Color, Pos};
use crate::rng::Rng;
use crate::rules::Rule;

/// The cell `(x, y)`.
pub fn at(x: u8, y: u8) -> Pos {
    Pos::new(x, y)
}

/// A board from rows of text: `X` black, `O` white, `#` blocked, anything else empty.
/// The width is the first row's length.
pub fn picture(rows: &[&str]) -> Board {
    let width = rows.first().map_or(0, |r| r.len());
    let mut board = Board::new(width as i64, rows.len() as i64).expect("picture size");
    for (y, row) in rows.iter().enumerate() {
        assert_eq!(row.len(), width, "ragged picture row {y}");
        for (x, ch) in row.chars().enumerate() {
            let p = Pos::new(x as u8, y as u8);
            match ch {
                'X' => board.place(p, Color::Black).expect("free cell"),
                'O' => board.place(p, Color::White).expect("free cell"),
                '#' => board.block(p).expect("free cell"),
                _ => {}
            }
        }
    }
    board
}

/// A legality predicate under which `side` may not play `cells` (everything else is legal
/// for both sides): a stand-in for renju's forbidden points.
pub fn forbid(side: Color, cells: &[(u8, u8)]) -> impl Fn(&Board, Pos, Color) -> bool {
    let cells: Vec<Pos> = cells.iter().map(|&(x, y)| at(x, y)).collect();
    move |board: &Board, p: Pos, c: Color| {
        board.is_empty_at(p) && !(c == side && cells.contains(&p))
    }
}

/// A random game-like position: `stones` moves alternating from black, each within
/// distance 2 of an earlier stone (the first near the centre), skipping any move that
/// would win under `rule`, so that the game is still on. Returns the board and the side to
/// move.
pub fn random_position(rng: &mut Rng, size: u8, stones: usize, rule: Rule) -> (Board, Color) {
    let mut board = Board::new(i64::from(size), i64::from(size)).expect("size");
    let mut side = Color::Black;
    let mut placed = 0;
    while placed < stones {
        let free: Vec<Pos> = board
            .empty_cells()
            .filter(|&p| {
                if board.has_no_stones() {
                    let c = board.center();
                    p.chebyshev(c) <= 2
                } else {
                    board.has_stone_near(p, 2)
                }
            })
            .filter(|&p| !rule.is_win(&board, p, side))
            .collect();
        if free.is_empty() {
            break;
        }
        let p = free[rng.below(free.len())];
        board.place(p, side).expect("free cell");
        side = side.opponent();
        placed += 1;
    }
    (board, side)
}
