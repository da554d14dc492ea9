//! The board as line scans read it: one cell code a byte, framed by [`PAD`] cells of wall
//! on every side, so that reading the five cells either side of any board cell needs no
//! edge test. The pattern board keeps one in step with its moves; the renju checker
//! copies one to judge a point.
//!
//! The cell codes are also the two-bit cells of the pattern tables' line keys: a blocked
//! cell and the wall past the edge share [`WALL`], since both stop every line alike.

use super::{Board, Cell, Color, Dir, Pos};

/// An empty cell.
pub const EMPTY: u8 = 0;
/// The board's edge, or a blocked cell.
pub const WALL: u8 = 3;
/// Wall cells on each side of the board: a line scan reaches five cells from its centre.
pub const PAD: usize = 5;

/// The code of a stone of `color`.
#[must_use]
pub const fn stone(color: Color) -> u8 {
    match color {
        Color::Black => 1,
        Color::White => 2,
    }
}

/// The code of `cell`.
#[must_use]
pub const fn code(cell: Cell) -> u8 {
    match cell {
        Cell::Empty => EMPTY,
        Cell::Stone(color) => stone(color),
        Cell::Blocked => WALL,
    }
}

/// The colour whose stone has `code`, if any.
#[must_use]
pub const fn color_of(code: u8) -> Option<Color> {
    match code {
        1 => Some(Color::Black),
        2 => Some(Color::White),
        _ => None,
    }
}

/// A board framed in walls; see the module doc. Indices are `usize` into the frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Padded {
    cells: Vec<u8>,
    stride: usize,
    width: u8,
    height: u8,
}

impl Padded {
    /// The cells of `board`, framed.
    #[must_use]
    pub fn new(board: &Board) -> Padded {
        let (width, height) = (board.width(), board.height());
        let stride = usize::from(width) + 2 * PAD;
        let mut padded = Padded {
            cells: vec![WALL; stride * (usize::from(height) + 2 * PAD)],
            stride,
            width,
            height,
        };
        for p in board.cells() {
            let i = padded.index(p);
            padded.cells[i] = code(board.get(p));
        }
        padded
    }

    /// Cells in the frame, walls included.
    #[must_use]
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Never: a board has at least one cell.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// Index distance between vertically adjacent cells.
    #[must_use]
    pub fn stride(&self) -> usize {
        self.stride
    }

    /// Whether `p` lies on the board.
    #[must_use]
    pub fn on_board(&self, p: Pos) -> bool {
        p.x < self.width && p.y < self.height
    }

    /// The index of the board cell `p`.
    #[must_use]
    pub fn index(&self, p: Pos) -> usize {
        (usize::from(p.y) + PAD) * self.stride + usize::from(p.x) + PAD
    }

    /// The board cell at index `i` (which must be one).
    #[must_use]
    pub fn pos(&self, i: usize) -> Pos {
        // Board cells have coordinates below 32, so the casts are exact.
        Pos::new((i % self.stride - PAD) as u8, (i / self.stride - PAD) as u8)
    }

    /// Index distance of one step along `dir`.
    #[must_use]
    pub fn step(&self, dir: Dir) -> isize {
        // Directions have components in -1..=1, so these conversions are exact.
        dir.dx as isize + dir.dy as isize * self.stride as isize
    }

    /// The code at index `i`.
    #[inline]
    #[must_use]
    pub fn get(&self, i: usize) -> u8 {
        self.cells[i]
    }

    /// Writes `code` at index `i`.
    #[inline]
    pub fn set(&mut self, i: usize, code: u8) {
        self.cells[i] = code;
    }

    /// The index of every board cell, row-major (the deterministic tie-break order).
    pub fn board_cells(&self) -> impl Iterator<Item = usize> + use<> {
        let (w, h, s) = (
            usize::from(self.width),
            usize::from(self.height),
            self.stride,
        );
        (0..h).flat_map(move |y| (0..w).map(move |x| (y + PAD) * s + x + PAD))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_frame_holds_the_board_and_walls_around_it() {
        let mut b = Board::with_stones(6, 5, &[(0, 0)], &[(5, 4)]).unwrap();
        b.block(Pos::new(2, 2)).unwrap();
        let g = Padded::new(&b);
        assert_eq!(g.len(), 16 * 15);
        let cells: Vec<usize> = g.board_cells().collect();
        assert_eq!(cells.len(), 30);
        assert!(cells.iter().all(|&i| g.index(g.pos(i)) == i));
        assert_eq!(g.get(g.index(Pos::new(0, 0))), stone(Color::Black));
        assert_eq!(g.get(g.index(Pos::new(5, 4))), stone(Color::White));
        assert_eq!(g.get(g.index(Pos::new(2, 2))), WALL);
        // Five steps past any edge is still wall, inside the frame.
        let corner = g.index(Pos::new(5, 4)) as isize;
        for dir in Dir::ALL {
            for k in [-5, 5] {
                let q = corner + k * g.step(dir);
                assert!((0..g.len() as isize).contains(&q));
            }
        }
        assert_eq!(g.get(g.index(Pos::new(5, 4)) + 1), WALL);
        for cell in [Cell::Empty, Cell::Stone(Color::White), Cell::Blocked] {
            assert_eq!(color_of(code(cell)), cell_color(cell));
        }
    }

    fn cell_color(cell: Cell) -> Option<Color> {
        match cell {
            Cell::Stone(c) => Some(c),
            _ => None,
        }
    }
}
