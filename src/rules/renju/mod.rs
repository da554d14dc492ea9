//! Black's forbidden points in renju, judged as the Gomocup referee (Piskvork's renju
//! checker) judges them.
//!
//! For a black stone on an empty point, in this order:
//! 1. a five (exactly five, in any line) is always legal: it wins;
//! 2. two or more fours, counted over the four lines, are a double four; two fours may lie
//!    on one line (`X.XXX.X`, `XX.XX.XX`, `XXX.X.XXX` around the stone);
//! 3. two or more *real* threes are a double three. A three is real when at least one of
//!    the points that would turn it into a straight four is itself playable: not a five
//!    (a three whose four-point makes five is no three, the RIF wording and the referee's
//!    reading), not a double four, not an overline and not, recursively to any depth, a
//!    double three, all judged with the stone in place;
//! 4. six or more in a row is an overline.
//!
//! The order only decides the name of a foul that is several at once (the referee's order).
//! White has no forbidden points. A blocked cell (the protocol's field 3) is neither black
//! nor empty, so it stops black's lines as a white stone or the board's edge does.
//!
//! [`Grid`] is the working copy the checks run on: the board framed by five cells of wall
//! on every side, so reading the eleven cells of a line around any point (see [`Line`])
//! needs no edge test. A search can keep one and update it with [`Grid::set`]; checks that
//! cannot be fouls (most points, far from black stones) are answered before any
//! recursion, and [`foul`] answers them from the board without copying it.

mod line;

pub use line::{FiveRule, Line};

use crate::board::{Board, Cell, Color, Dir, MAX_SIDE, Pos};

/// The kind of foul a forbidden point commits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Foul {
    Overline,
    DoubleFour,
    DoubleThree,
}

/// The foul black would commit by playing on the empty cell `p`, if any. An occupied or
/// off-board `p` commits none (it is no move at all).
#[must_use]
pub fn foul(board: &Board, p: Pos) -> Option<Foul> {
    // Most points cannot be forbidden at all; those are answered from the board itself,
    // without copying it into a grid.
    if p.x >= board.width() || p.y >= board.height() || !board.is_empty_at(p) {
        return None;
    }
    let lines = Dir::ALL.map(|dir| line_through(board, p, Color::Black, dir));
    if may_be_forbidden(&lines) {
        Grid::new(board).foul(p)
    } else {
        None
    }
}

/// Every forbidden point for black on `board`, in row-major order, whoever is to move.
#[must_use]
pub fn forbidden_points(board: &Board) -> Vec<(Pos, Foul)> {
    Grid::new(board).forbidden_points()
}

/// Which runs are a five for `color` in renju: exactly five for black, five or more for
/// white.
#[must_use]
pub fn five_rule(color: Color) -> FiveRule {
    match color {
        Color::Black => FiveRule::Exact,
        Color::White => FiveRule::OrMore,
    }
}

/// The line of `color` through `p` along `dir`, with `p` counted as a stone of `color`
/// whatever it holds: what a stone there makes on that line.
#[must_use]
pub fn line_through(board: &Board, p: Pos, color: Color, dir: Dir) -> Line {
    read_line(
        |k| board.step(p, dir, k).map_or(WALL, |q| code(board.get(q))),
        code(Cell::Stone(color)),
    )
}

/// The line of colour code `own` from `cell(k)`, the code of the cell `k` steps from the
/// centre (`k` in -5..=5).
fn read_line(cell: impl Fn(i32) -> u8, own: u8) -> Line {
    let (mut mine, mut empty) = (0u16, 0u16);
    for k in 0..line::SPAN {
        let c = cell(k as i32 - line::CENTER as i32);
        mine |= u16::from(c == own) << k;
        empty |= u16::from(c == EMPTY) << k;
    }
    Line::new(mine, empty)
}

/// A necessary condition for a foul, cheap to test: an overline, or a double four on one
/// line, needs four more black stones on that line's window; otherwise any foul needs two
/// lines holding two more black stones each (two threes or fours).
fn may_be_forbidden<'a>(lines: impl IntoIterator<Item = &'a Line>) -> bool {
    let mut busy = 0;
    for l in lines {
        match l.others() {
            4.. => return true,
            2 | 3 => busy += 1,
            _ => {}
        }
    }
    busy >= 2
}

/// Frame of wall around the board: the eleven-cell window of any board cell stays inside.
const PAD: usize = 5;
const STRIDE: usize = MAX_SIDE as usize + 2 * PAD;

const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;
const WALL: u8 = 3;

fn code(cell: Cell) -> u8 {
    match cell {
        Cell::Empty => EMPTY,
        Cell::Stone(Color::Black) => BLACK,
        Cell::Stone(Color::White) => WHITE,
        Cell::Blocked => WALL,
    }
}

/// Index distance of one step along `dir` in the framed grid.
fn step(dir: Dir) -> isize {
    // Directions have components in -1..=1, so these conversions are exact.
    dir.dy as isize * STRIDE as isize + dir.dx as isize
}

/// A board framed in walls, for fast line reading; see the module doc.
#[derive(Clone, Debug)]
pub struct Grid {
    cells: [u8; STRIDE * STRIDE],
    width: u8,
    height: u8,
}

impl Grid {
    /// A copy of `board`.
    #[must_use]
    pub fn new(board: &Board) -> Grid {
        let mut grid = Grid {
            cells: [WALL; STRIDE * STRIDE],
            width: board.width(),
            height: board.height(),
        };
        for p in board.cells() {
            grid.set(p, board.get(p));
        }
        grid
    }

    fn index(&self, p: Pos) -> usize {
        (usize::from(p.y) + PAD) * STRIDE + usize::from(p.x) + PAD
    }

    fn on_board(&self, p: Pos) -> bool {
        p.x < self.width && p.y < self.height
    }

    /// Puts `cell` on `p` (off-board positions are ignored).
    pub fn set(&mut self, p: Pos, cell: Cell) {
        if self.on_board(p) {
            let i = self.index(p);
            self.cells[i] = code(cell);
        }
    }

    fn at(&self, i: usize) -> u8 {
        self.cells.get(i).copied().unwrap_or(WALL)
    }

    /// Black's four lines through index `i`, each with its step.
    fn black_lines(&self, i: usize) -> [(Line, isize); 4] {
        Dir::ALL.map(|dir| {
            let step = step(dir);
            let line = read_line(|k| self.at(i.wrapping_add_signed(k as isize * step)), BLACK);
            (line, step)
        })
    }

    /// The foul black would commit on the empty cell `p`, if any.
    pub fn foul(&mut self, p: Pos) -> Option<Foul> {
        if !self.on_board(p) {
            return None;
        }
        let i = self.index(p);
        if self.at(i) != EMPTY {
            return None;
        }
        let lines = self.black_lines(i);
        let possible = may_be_forbidden(lines.iter().map(|(l, _)| l));
        if !possible || lines.iter().any(|(l, _)| l.five(FiveRule::Exact)) {
            None
        } else if double_four(&lines) {
            Some(Foul::DoubleFour)
        } else if self.double_three(i, &lines) {
            Some(Foul::DoubleThree)
        } else if lines.iter().any(|(l, _)| l.overline()) {
            Some(Foul::Overline)
        } else {
            None
        }
    }

    /// Every forbidden point for black, in row-major order.
    pub fn forbidden_points(&mut self) -> Vec<(Pos, Foul)> {
        let (width, height) = (self.width, self.height);
        (0..height)
            .flat_map(|y| (0..width).map(move |x| Pos::new(x, y)))
            .filter_map(|p| self.foul(p).map(|f| (p, f)))
            .collect()
    }

    /// Whether black may not use the empty cell `i` to turn a three into a straight four:
    /// a five there counts against it too (the referee's recursive test).
    fn spoils_three(&mut self, i: usize) -> bool {
        if self.at(i) != EMPTY {
            return true;
        }
        let lines = self.black_lines(i);
        // A five needs four more stones on a line, so the foul filter covers it too.
        if !may_be_forbidden(lines.iter().map(|(l, _)| l)) {
            return false;
        }
        lines
            .iter()
            .any(|(l, _)| l.five(FiveRule::Exact) || l.overline())
            || double_four(&lines)
            || self.double_three(i, &lines)
    }

    /// Whether a black stone on the empty cell `i`, whose lines are `lines`, makes two or
    /// more real threes.
    fn double_three(&mut self, i: usize, lines: &[(Line, isize); 4]) -> bool {
        let threes = lines.map(|(l, step)| (l.three_points(FiveRule::Exact), step));
        let mut left = threes.iter().filter(|(points, _)| *points != 0).count();
        if left < 2 {
            return false;
        }
        self.cells[i] = BLACK;
        let mut real = 0;
        for (mut points, step) in threes {
            if points == 0 {
                continue;
            }
            if real + left < 2 {
                break;
            }
            left -= 1;
            while points != 0 {
                let q = points.trailing_zeros();
                points &= points - 1;
                let offset = (q as isize - line::CENTER as isize) * step;
                if !self.spoils_three(i.wrapping_add_signed(offset)) {
                    real += 1;
                    break;
                }
            }
            if real >= 2 {
                break;
            }
        }
        self.cells[i] = EMPTY;
        real >= 2
    }
}

fn double_four(lines: &[(Line, isize); 4]) -> bool {
    lines
        .iter()
        .map(|(l, _)| l.fours(FiveRule::Exact))
        .sum::<u32>()
        >= 2
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 15x15 board from rows of `X` black, `O` white, `#` blocked, anything else empty.
    fn board(rows: &[&str]) -> Board {
        let mut b = Board::new(15, 15).unwrap();
        for (y, row) in rows.iter().enumerate() {
            for (x, c) in row.bytes().enumerate() {
                let p = Pos::new(x as u8, y as u8);
                match c {
                    b'X' => b.place(p, Color::Black).unwrap(),
                    b'O' => b.place(p, Color::White).unwrap(),
                    b'#' => b.block(p).unwrap(),
                    _ => {}
                }
            }
        }
        b
    }

    #[test]
    fn plain_double_three_is_forbidden_and_a_capped_three_does_not_count() {
        let open = board(&["", "", ".......X", "......X.X", ".......X"]);
        assert_eq!(foul(&open, Pos::new(7, 3)), Some(Foul::DoubleThree));
        let capped = board(&["", "", ".......X", "....O.X.X.O", ".......X"]);
        assert_eq!(foul(&capped, Pos::new(7, 3)), None);
        // A blocked cell caps a line as a white stone does.
        let walled = board(&["", "", ".......X", "....#.X.X.#", ".......X"]);
        assert_eq!(foul(&walled, Pos::new(7, 3)), None);
    }

    #[test]
    fn five_beats_every_foul() {
        // (5,5) completes five across and joins the column into seven.
        let mut b = board(&[
            "", "", ".....X", ".....X", ".....X", ".XXXX.", ".....X", ".....X", ".....X",
        ]);
        assert_eq!(foul(&b, Pos::new(5, 5)), None);
        b.remove(Pos::new(1, 5)).unwrap();
        assert_eq!(foul(&b, Pos::new(5, 5)), Some(Foul::Overline));
    }

    #[test]
    fn double_four_on_one_line_is_forbidden() {
        let b = board(&["", "", "..X.X.X.X"]);
        assert_eq!(foul(&b, Pos::new(5, 2)), Some(Foul::DoubleFour));
        assert_eq!(foul(&b, Pos::new(3, 2)), None);
    }

    #[test]
    fn a_three_whose_four_point_makes_five_is_no_three() {
        // (7,7) makes a vertical three and, across, O.XX_ whose only straight-four point
        // is (8,7). With black's column (8,3)-(8,6), (8,7) is a five, so the across three
        // is no three (the referee's reading) and (7,7) is legal.
        let rows = [
            "",
            "",
            "",
            "........X",
            "........X",
            "........X",
            "........X",
            "...O.XX",
            ".......X",
            ".......X",
        ];
        let mut b = board(&rows);
        assert_eq!(foul(&b, Pos::new(7, 7)), None);
        // With only (8,5)-(8,6) in that column, (8,7) is a plain four-three: the across
        // three is real and (7,7) a double three.
        b.remove(Pos::new(8, 3)).unwrap();
        b.remove(Pos::new(8, 4)).unwrap();
        assert_eq!(foul(&b, Pos::new(7, 7)), Some(Foul::DoubleThree));
    }

    #[test]
    fn a_kept_grid_follows_set_and_clear() {
        let b = board(&["", "", ".......X", "......X.X", ".......X"]);
        let mut grid = Grid::new(&Board::new(15, 15).unwrap());
        let p = Pos::new(7, 3);
        assert_eq!(grid.foul(p), None);
        for &(q, c) in b.history() {
            grid.set(q, Cell::Stone(c));
        }
        assert_eq!(grid.foul(p), Some(Foul::DoubleThree));
        grid.set(Pos::new(7, 4), Cell::Empty);
        assert_eq!(grid.foul(p), None);
        // Checking leaves the grid as it was: the same answer twice, and p still empty.
        grid.set(Pos::new(7, 4), Cell::Stone(Color::Black));
        assert_eq!(grid.foul(p), grid.foul(p));
        assert_eq!(grid.foul(p), Some(Foul::DoubleThree));
    }

    #[test]
    fn white_is_never_forbidden_by_the_rule() {
        let b = board(&["", "", ".......O", "......O.O", ".......O"]);
        assert_eq!(foul(&b, Pos::new(7, 3)), None);
        assert_eq!(
            crate::rules::Rule::Renju.foul(&b, Pos::new(7, 3), Color::White),
            None
        );
    }
}
