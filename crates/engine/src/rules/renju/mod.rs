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
//! [`Grid`] is the working copy the checks run on: the board framed in walls
//! ([`Padded`]), so reading the eleven cells of a line around any point (see [`Line`])
//! needs no edge test. A search can keep one and update it with [`Grid::set`]; checks that
//! cannot be fouls (most points, far from black stones) are answered before any
//! recursion, and [`foul`] answers them from the board without copying it.

use super::line::{self, Line, line_through};
use super::{FiveRule, Rule};
use crate::board::padded::{self, EMPTY, Padded, stone};
use crate::board::{Board, Cell, Color, Dir, Pos};

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

/// Which of black's runs are fives.
const FIVE: FiveRule = Rule::Renju.five_rule(Color::Black);

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

/// A board framed in walls, for fast line reading; see the module doc.
#[derive(Clone, Debug)]
pub struct Grid {
    cells: Padded,
}

impl Grid {
    /// A copy of `board`.
    #[must_use]
    pub fn new(board: &Board) -> Grid {
        Grid {
            cells: Padded::new(board),
        }
    }

    /// Puts `cell` on `p` (off-board positions are ignored).
    pub fn set(&mut self, p: Pos, cell: Cell) {
        if self.cells.on_board(p) {
            let i = self.cells.index(p);
            self.cells.set(i, padded::code(cell));
        }
    }

    /// The code at index `i`: a board cell, or the frame around one within five steps
    /// (every index read here is a board cell or a line neighbour of one).
    fn at(&self, i: usize) -> u8 {
        self.cells.get(i)
    }

    /// Black's four lines through index `i`, each with its step.
    fn black_lines(&self, i: usize) -> [(Line, isize); 4] {
        Dir::ALL.map(|dir| {
            let step = self.cells.step(dir);
            let at = |k: i32| self.at(i.wrapping_add_signed(k as isize * step));
            (Line::read(at, Color::Black), step)
        })
    }

    /// The foul black would commit on the empty cell `p`, if any.
    pub fn foul(&mut self, p: Pos) -> Option<Foul> {
        if !self.cells.on_board(p) {
            return None;
        }
        let i = self.cells.index(p);
        if self.at(i) != EMPTY {
            return None;
        }
        let lines = self.black_lines(i);
        let possible = may_be_forbidden(lines.iter().map(|(l, _)| l));
        if !possible || lines.iter().any(|(l, _)| l.five(FIVE)) {
            None
        } else if double_four(&lines) {
            Some(Foul::DoubleFour)
        } else if self.double_three(i, &lines) {
            Some(Foul::DoubleThree)
        } else if lines.iter().any(|(l, _)| l.overline(FIVE)) {
            Some(Foul::Overline)
        } else {
            None
        }
    }

    /// Every forbidden point for black, in row-major order.
    pub fn forbidden_points(&mut self) -> Vec<(Pos, Foul)> {
        self.cells
            .board_cells()
            .filter_map(|i| {
                let p = self.cells.pos(i);
                self.foul(p).map(|f| (p, f))
            })
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
        lines.iter().any(|(l, _)| l.five(FIVE) || l.overline(FIVE))
            || double_four(&lines)
            || self.double_three(i, &lines)
    }

    /// Whether a black stone on the empty cell `i`, whose lines are `lines`, makes two or
    /// more real threes.
    fn double_three(&mut self, i: usize, lines: &[(Line, isize); 4]) -> bool {
        let threes = lines.map(|(l, step)| (l.three_points(FIVE), step));
        let mut left = threes.iter().filter(|(points, _)| *points != 0).count();
        if left < 2 {
            return false;
        }
        self.cells.set(i, stone(Color::Black));
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
        self.cells.set(i, EMPTY);
        real >= 2
    }
}

fn double_four(lines: &[(Line, isize); 4]) -> bool {
    lines.iter().map(|(l, _)| l.fours(FIVE)).sum::<u32>() >= 2
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
