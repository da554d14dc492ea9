//! The board: a rectangle of cells, the stones on it and the order they were played.
//!
//! Coordinates are the protocol's: `x` is the column, `y` the row, both from 0. The board
//! stores absolute colours (black moves first); which colour the engine plays is the
//! session's business. Everything that scans lines goes through [`Dir::ALL`], so no
//! direction is ever written out four times.

pub mod padded;

use std::fmt;

/// Smallest side the protocol lets a board have.
pub const MIN_SIDE: u8 = 5;
/// Largest side the engine supports.
pub const MAX_SIDE: u8 = 32;

/// A stone colour. Black moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    Black,
    White,
}

impl Color {
    /// The other colour.
    #[must_use]
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// Both colours, black first.
    pub const BOTH: [Color; 2] = [Color::Black, Color::White];
}

/// What a cell holds. `Blocked` is the protocol's field 3: a neutral cell nobody may play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    Empty,
    Stone(Color),
    Blocked,
}

/// A cell on the board. Valid only together with the board it was made for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pos {
    // Field order makes the derived `Ord` row-major (y, then x), the tie-break order used
    // everywhere a deterministic choice among cells is needed.
    pub y: u8,
    pub x: u8,
}

impl Pos {
    #[must_use]
    pub const fn new(x: u8, y: u8) -> Pos {
        Pos { y, x }
    }

    /// Moves a king needs from one cell to the other: the larger coordinate difference.
    #[must_use]
    pub const fn chebyshev(self, other: Pos) -> u8 {
        let (dx, dy) = (self.x.abs_diff(other.x), self.y.abs_diff(other.y));
        if dx > dy { dx } else { dy }
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

/// One of the four line directions. The opposite direction is walked with negative steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dir {
    pub dx: i32,
    pub dy: i32,
}

impl Dir {
    /// Horizontal, vertical, diagonal, anti-diagonal.
    pub const ALL: [Dir; 4] = [
        Dir { dx: 1, dy: 0 },
        Dir { dx: 0, dy: 1 },
        Dir { dx: 1, dy: 1 },
        Dir { dx: 1, dy: -1 },
    ];
}

/// A maximal run of one colour through a cell along one direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    /// Stones in the run, the starting cell included.
    pub len: usize,
    /// The cell just past each end (`None` past the edge), backward end first.
    pub ends: [Option<Cell>; 2],
}

impl Run {
    /// How many ends are on the board and empty.
    #[must_use]
    pub fn open_ends(&self) -> usize {
        self.ends
            .iter()
            .filter(|e| **e == Some(Cell::Empty))
            .count()
    }
}

/// Why a board operation was refused. The board is unchanged after any error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardError {
    BadSize { width: i64, height: i64 },
    OutOfRange { x: i64, y: i64 },
    Occupied(Pos),
    NotOccupied(Pos),
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::BadSize { width, height } => write!(
                f,
                "unsupported board size {width}x{height} (each side must be {MIN_SIDE} to {MAX_SIDE})"
            ),
            BoardError::OutOfRange { x, y } => {
                write!(f, "coordinates {x},{y} are outside the board")
            }
            BoardError::Occupied(p) => write!(f, "square {p} is already occupied"),
            BoardError::NotOccupied(p) => write!(f, "square {p} holds no stone"),
        }
    }
}

impl std::error::Error for BoardError {}

/// The board and the order in which its stones were placed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    width: u8,
    height: u8,
    cells: Vec<Cell>,
    /// Stones in the order they were placed (blocked cells are not moves).
    history: Vec<(Pos, Color)>,
}

impl Board {
    /// An empty board of `width` x `height`; each side must be 5..=32.
    pub fn new(width: i64, height: i64) -> Result<Board, BoardError> {
        let ok = |s: i64| (i64::from(MIN_SIDE)..=i64::from(MAX_SIDE)).contains(&s);
        if !ok(width) || !ok(height) {
            return Err(BoardError::BadSize { width, height });
        }
        // Both sides were just checked to lie in 5..=32, so they fit a u8.
        let (w, h) = (width as u8, height as u8);
        Ok(Board {
            width: w,
            height: h,
            cells: vec![Cell::Empty; usize::from(w) * usize::from(h)],
            history: Vec::new(),
        })
    }

    /// A board holding the given stones, black ones placed first (so the history is not a
    /// game's order): for fixed positions in tests, benches and tools.
    pub fn with_stones(
        width: i64,
        height: i64,
        black: &[(u8, u8)],
        white: &[(u8, u8)],
    ) -> Result<Board, BoardError> {
        let mut board = Board::new(width, height)?;
        for (color, stones) in [(Color::Black, black), (Color::White, white)] {
            for &(x, y) in stones {
                let p = board.checked_pos(x.into(), y.into())?;
                board.place(p, color)?;
            }
        }
        Ok(board)
    }

    #[must_use]
    pub fn width(&self) -> u8 {
        self.width
    }

    #[must_use]
    pub fn height(&self) -> u8 {
        self.height
    }

    /// The centre cell `(w / 2, h / 2)`.
    #[must_use]
    pub fn center(&self) -> Pos {
        Pos::new(self.width / 2, self.height / 2)
    }

    /// The cell at signed coordinates, if they are on the board.
    #[must_use]
    pub fn pos(&self, x: i64, y: i64) -> Option<Pos> {
        let on = |v: i64, side: u8| (0..i64::from(side)).contains(&v);
        // In range of a side of at most 32, so the casts are exact.
        (on(x, self.width) && on(y, self.height)).then(|| Pos::new(x as u8, y as u8))
    }

    /// Like [`Board::pos`], with an error naming the coordinates.
    pub fn checked_pos(&self, x: i64, y: i64) -> Result<Pos, BoardError> {
        self.pos(x, y).ok_or(BoardError::OutOfRange { x, y })
    }

    /// The cell `k` steps from `p` along `dir` (negative `k` walks backward).
    #[must_use]
    pub fn step(&self, p: Pos, dir: Dir, k: i32) -> Option<Pos> {
        self.pos(
            i64::from(p.x) + i64::from(dir.dx * k),
            i64::from(p.y) + i64::from(dir.dy * k),
        )
    }

    fn index(&self, p: Pos) -> usize {
        usize::from(p.y) * usize::from(self.width) + usize::from(p.x)
    }

    #[must_use]
    pub fn get(&self, p: Pos) -> Cell {
        self.cells[self.index(p)]
    }

    #[must_use]
    pub fn is_empty_at(&self, p: Pos) -> bool {
        self.get(p) == Cell::Empty
    }

    /// Places a stone of `color` on an empty cell.
    pub fn place(&mut self, p: Pos, color: Color) -> Result<(), BoardError> {
        self.set_empty_cell(p, Cell::Stone(color))?;
        self.history.push((p, color));
        Ok(())
    }

    /// Marks an empty cell as blocked (the protocol's field 3).
    pub fn block(&mut self, p: Pos) -> Result<(), BoardError> {
        self.set_empty_cell(p, Cell::Blocked)
    }

    fn set_empty_cell(&mut self, p: Pos, cell: Cell) -> Result<(), BoardError> {
        if !self.is_empty_at(p) {
            return Err(BoardError::Occupied(p));
        }
        let i = self.index(p);
        self.cells[i] = cell;
        Ok(())
    }

    /// Removes the stone on `p`, wherever it is in the move order.
    pub fn remove(&mut self, p: Pos) -> Result<Color, BoardError> {
        let Cell::Stone(color) = self.get(p) else {
            return Err(BoardError::NotOccupied(p));
        };
        let i = self.index(p);
        self.cells[i] = Cell::Empty;
        if let Some(k) = self.history.iter().rposition(|&(q, _)| q == p) {
            self.history.remove(k);
        }
        Ok(color)
    }

    /// Takes back the last stone placed, if any.
    pub fn undo(&mut self) -> Option<(Pos, Color)> {
        let (p, color) = self.history.pop()?;
        let i = self.index(p);
        self.cells[i] = Cell::Empty;
        Some((p, color))
    }

    /// Stones in the order they were placed.
    #[must_use]
    pub fn history(&self) -> &[(Pos, Color)] {
        &self.history
    }

    /// The last stone placed.
    #[must_use]
    pub fn last_move(&self) -> Option<(Pos, Color)> {
        self.history.last().copied()
    }

    #[must_use]
    pub fn stone_count(&self, color: Color) -> usize {
        self.history.iter().filter(|(_, c)| *c == color).count()
    }

    /// Whose turn it is, from the counts: black when they are equal.
    #[must_use]
    pub fn to_move(&self) -> Color {
        if self.stone_count(Color::Black) > self.stone_count(Color::White) {
            Color::White
        } else {
            Color::Black
        }
    }

    /// Every cell in row-major order.
    pub fn cells(&self) -> impl Iterator<Item = Pos> + '_ {
        (0..self.height).flat_map(move |y| (0..self.width).map(move |x| Pos::new(x, y)))
    }

    /// Every empty cell in row-major order.
    pub fn empty_cells(&self) -> impl Iterator<Item = Pos> + '_ {
        self.cells().filter(|&p| self.is_empty_at(p))
    }

    /// True when no empty cell is left.
    #[must_use]
    pub fn is_full(&self) -> bool {
        !self.cells.contains(&Cell::Empty)
    }

    /// Whether no stone has been placed yet.
    #[must_use]
    pub fn has_no_stones(&self) -> bool {
        self.history.is_empty()
    }

    /// The run of `color` through `p` along `dir`, counting `p` itself as a stone of
    /// `color` whatever it holds: this answers both "what does this stone make" and "what
    /// would a stone here make" without touching the board.
    #[must_use]
    pub fn run_through(&self, p: Pos, color: Color, dir: Dir) -> Run {
        let mut len = 1;
        let mut ends = [None, None];
        for (end, sign) in ends.iter_mut().zip([-1, 1]) {
            let mut k = 1;
            *end = loop {
                match self.step(p, dir, sign * k) {
                    Some(q) if self.get(q) == Cell::Stone(color) => {
                        len += 1;
                        k += 1;
                    }
                    Some(q) => break Some(self.get(q)),
                    None => break None,
                }
            };
        }
        Run { len, ends }
    }

    /// Whether some stone lies within Chebyshev distance `r` of `p`.
    #[must_use]
    pub fn has_stone_near(&self, p: Pos, r: i32) -> bool {
        (-r..=r).any(|dy| {
            (-r..=r).any(|dx| {
                self.pos(
                    i64::from(p.x) + i64::from(dx),
                    i64::from(p.y) + i64::from(dy),
                )
                .is_some_and(|q| matches!(self.get(q), Cell::Stone(_)))
            })
        })
    }
}

impl fmt::Display for Board {
    /// A text picture: `X` black, `O` white, `#` blocked, `.` empty, one row a line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for y in 0..self.height {
            for x in 0..self.width {
                let c = match self.get(Pos::new(x, y)) {
                    Cell::Empty => '.',
                    Cell::Stone(Color::Black) => 'X',
                    Cell::Stone(Color::White) => 'O',
                    Cell::Blocked => '#',
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chebyshev_is_the_larger_coordinate_difference_either_way() {
        let (a, b) = (Pos::new(3, 4), Pos::new(7, 2));
        assert_eq!(a.chebyshev(b), 4);
        assert_eq!(b.chebyshev(a), 4);
        assert_eq!(Pos::new(5, 1).chebyshev(Pos::new(4, 6)), 5);
        assert_eq!(a.chebyshev(a), 0);
    }

    #[test]
    fn sizes_outside_5_to_32_are_refused() {
        for (w, h) in [(4, 15), (15, 4), (33, 20), (0, 0), (-3, 15)] {
            assert!(Board::new(w, h).is_err(), "{w}x{h}");
        }
        assert!(Board::new(5, 32).is_ok());
    }

    #[test]
    fn with_stones_places_both_colours_and_refuses_bad_cells() {
        let b = Board::with_stones(9, 9, &[(0, 0), (8, 8)], &[(4, 4)]).unwrap();
        assert_eq!(b.get(Pos::new(8, 8)), Cell::Stone(Color::Black));
        assert_eq!(b.get(Pos::new(4, 4)), Cell::Stone(Color::White));
        assert_eq!(b.to_move(), Color::White);
        assert_eq!(
            Board::with_stones(9, 9, &[(9, 0)], &[]),
            Err(BoardError::OutOfRange { x: 9, y: 0 })
        );
        assert!(Board::with_stones(9, 9, &[(1, 1)], &[(1, 1)]).is_err());
    }

    #[test]
    fn place_remove_undo_keep_history_in_order() {
        let mut b = Board::new(15, 15).unwrap();
        let (a, c) = (Pos::new(7, 7), Pos::new(8, 8));
        b.place(a, Color::Black).unwrap();
        b.place(c, Color::White).unwrap();
        assert_eq!(b.place(a, Color::White), Err(BoardError::Occupied(a)));
        assert_eq!(b.to_move(), Color::Black);
        assert_eq!(b.remove(a), Ok(Color::Black));
        assert_eq!(b.history(), &[(c, Color::White)]);
        assert_eq!(b.undo(), Some((c, Color::White)));
        assert!(b.has_no_stones() && b.is_empty_at(c));
        assert_eq!(b.remove(c), Err(BoardError::NotOccupied(c)));
    }

    #[test]
    fn run_through_counts_the_virtual_stone_and_reports_ends() {
        let mut b = Board::new(15, 15).unwrap();
        for x in [1, 2, 4] {
            b.place(Pos::new(x, 0), Color::Black).unwrap();
        }
        b.place(Pos::new(5, 0), Color::White).unwrap();
        let run = b.run_through(Pos::new(3, 0), Color::Black, Dir::ALL[0]);
        assert_eq!(run.len, 4);
        assert_eq!(
            run.ends,
            [Some(Cell::Empty), Some(Cell::Stone(Color::White))]
        );
        let vertical = b.run_through(Pos::new(1, 0), Color::Black, Dir::ALL[1]);
        assert_eq!((vertical.len, vertical.ends[0]), (1, None));
        assert_eq!(vertical.open_ends(), 1);
    }

    #[test]
    fn cells_are_row_major_and_pos_orders_the_same_way() {
        let b = Board::new(5, 6).unwrap();
        let cells: Vec<Pos> = b.cells().collect();
        assert_eq!(cells.len(), 30);
        assert!(cells.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(cells[5], Pos::new(0, 1));
        assert_eq!(b.center(), Pos::new(2, 3));
    }
}
