//! What one stone makes along one line: fives, overlines, fours and threes, read from the
//! eleven cells centred on it. [`Rule::is_win`](super::Rule::is_win), the pattern tables
//! and the renju checker all judge fives here, by [`FiveRule::wins`].
//!
//! A [`Line`] holds three 11-bit masks over the offsets -5..=5 from the stone (bit `k` is
//! offset `k - 5`, bit [`CENTER`] the stone itself, always set in `own`): the colour's
//! stones, the empty cells and the opponent's stones. Cells past the board's edge and
//! blocked cells are in none, so they stop a line as the opponent's stones do, but never
//! block a caro five. Eleven cells are enough: every five through the stone lies within
//! offsets -4..=4, and whether it is exactly five, or held at both ends, depends only on
//! the cells just past it, at most offset ±5.
//!
//! Every shape counted here contains the centre stone: these are the shapes the stone
//! *makes*, which is what the renju definitions ("fours and threes that meet at this
//! intersection") and the pattern tables ask for.

use super::FiveRule;
use crate::board::padded::{EMPTY, stone};
use crate::board::{Board, Color, Dir, Pos, padded};

/// Bit index of the centre stone.
pub const CENTER: u32 = 5;
/// Cells in a line window, centre included.
pub const SPAN: u32 = 11;

const ALL: u16 = (1 << SPAN) - 1;
const FIVE: u16 = 0b1_1111;

/// One line through a stone: its colour's cells, the empty cells and the opponent's
/// stones among offsets -5..=5.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line {
    own: u16,
    empty: u16,
    opp: u16,
}

/// The line of `color` through `p` along `dir`, with `p` counted as a stone of `color`
/// whatever it holds: what a stone there makes on that line.
#[must_use]
pub fn line_through(board: &Board, p: Pos, color: Color, dir: Dir) -> Line {
    Line::read(
        |k| {
            board
                .step(p, dir, k)
                .map_or(padded::WALL, |q| padded::code(board.get(q)))
        },
        color,
    )
}

impl Line {
    /// A line from its masks. The centre is forced to be the colour's stone; a cell is in
    /// one mask at most (own first, then empty).
    #[must_use]
    pub fn new(own: u16, empty: u16, opp: u16) -> Line {
        let c = 1 << CENTER;
        let own = (own | c) & ALL;
        let empty = empty & !own & ALL;
        Line {
            own,
            empty,
            opp: opp & !own & !empty & ALL,
        }
    }

    /// The line of `color` from `cell(k)`, the cell code ([`padded`]) `k` steps from the
    /// centre (`k` in -5..=5); the centre's own code is not read.
    #[inline]
    pub fn read(cell: impl Fn(i32) -> u8, color: Color) -> Line {
        let (own, opp) = (stone(color), stone(color.opponent()));
        let (mut mine, mut empty, mut theirs) = (0u16, 0u16, 0u16);
        for k in (0..SPAN).filter(|&k| k != CENTER) {
            let c = cell(k as i32 - CENTER as i32);
            mine |= u16::from(c == own) << k;
            empty |= u16::from(c == EMPTY) << k;
            theirs |= u16::from(c == opp) << k;
        }
        Line::new(mine, empty, theirs)
    }

    /// The run of the colour through the centre: its length, and how many of its two ends
    /// hold an opponent stone (an end past the window counts as open).
    #[must_use]
    pub fn run(self) -> (usize, usize) {
        // Stones in a row just below the centre, then just above it.
        let below = (!(self.own << (u16::BITS - CENTER))).leading_zeros();
        let above = (!(self.own >> (CENTER + 1))).trailing_zeros().min(CENTER);
        let held = |end: Option<u32>| end.is_some_and(|bit| self.opp & 1 << bit != 0);
        let blocked = usize::from(held(CENTER.checked_sub(below + 1)))
            + usize::from(held(Some(CENTER + above + 1).filter(|&b| b < SPAN)));
        ((1 + below + above) as usize, blocked)
    }

    /// How many stones of the colour the window holds besides the centre.
    #[must_use]
    pub fn others(self) -> u32 {
        self.own.count_ones() - 1
    }

    /// The same line with one more stone of the colour on the empty cell at bit `q`.
    fn with(self, q: u32) -> Line {
        Line {
            own: self.own | 1 << q,
            empty: self.empty & !(1 << q),
            ..self
        }
    }

    /// Whether the stone completes a five (under `rule`) along this line.
    #[must_use]
    pub fn five(self, rule: FiveRule) -> bool {
        let (len, blocked) = self.run();
        rule.wins(len, blocked)
    }

    /// Whether the stone makes a line longer than five that does not win under `rule`.
    #[must_use]
    pub fn overline(self, rule: FiveRule) -> bool {
        let (len, blocked) = self.run();
        rule.overline(len, blocked)
    }

    /// Each five-cell window through the stone holding four of its stones and one empty
    /// cell whose filling makes a five under `rule`: the window's first bit and the cell.
    fn four_windows(self, rule: FiveRule) -> impl Iterator<Item = (u32, u16)> {
        (1..=CENTER).filter_map(move |w| {
            let m = FIVE << w;
            let gap = self.empty & m;
            (gap.count_ones() == 1
                && (self.own & m).count_ones() == 4
                && self.with(gap.trailing_zeros()).five(rule))
            .then_some((w, gap))
        })
    }

    /// The empty cells that would complete a five through the stone: one per four, two for a
    /// straight four.
    #[must_use]
    pub fn five_points(self, rule: FiveRule) -> u16 {
        self.four_windows(rule)
            .fold(0, |points, (_, gap)| points | gap)
    }

    /// How many fours the stone makes along this line: none when it makes a five there. A
    /// straight four (`.XXXX.`) is one four; `X.XXX.X` and its kin are two fours on one
    /// line.
    #[must_use]
    pub fn fours(self, rule: FiveRule) -> u32 {
        if self.five(rule) {
            return 0;
        }
        let points = self.five_points(rule);
        points.count_ones() - u32::from(straight_pair(points) != 0)
    }

    /// The fours that are not a straight four: distinct five points reached through a gap
    /// inside four stones (`X.XXX`, `XX.XX`, `XXX.X`), or at the end of four in a row whose
    /// other end is no five point. For black this is `fours` less a straight four. For white
    /// an end of a straight four can also fill a split four (`.OOOO.O`: the right end of the
    /// straight four also completes `OOO.O` into six, a win): that five point counts here
    /// too, as the pattern tables count it.
    #[must_use]
    pub fn closed_fours(self, rule: FiveRule) -> u32 {
        if self.five(rule) {
            return 0;
        }
        let (mut inner, mut ends) = (0, 0);
        for (w, gap) in self.four_windows(rule) {
            if gap & (1 << w | 1 << (w + 4)) == 0 {
                inner |= gap;
            } else {
                ends |= gap;
            }
        }
        let pair = straight_pair(inner | ends);
        let straight = pair | pair << 5;
        (inner | ends & !straight).count_ones()
    }

    /// Whether the stone makes a straight four: four in a row whose both ends make five.
    #[must_use]
    pub fn straight_four(self, rule: FiveRule) -> bool {
        straight_pair(self.five_points(rule)) != 0
    }

    /// The empty cells where one more stone turns the stone's line into a straight four
    /// holding both stones: non-empty exactly when the stone makes a three on this line
    /// (before any question of whether those cells are themselves playable). A stone that
    /// makes a five or a four on the line makes no three there (for black the two never
    /// meet on one line: the four's gap would leave one end of the straight four a six).
    #[must_use]
    pub fn three_points(self, rule: FiveRule) -> u16 {
        if self.five(rule) || self.five_points(rule) != 0 {
            return 0;
        }
        // A straight four through the centre and q lies within offsets -3..=3.
        let mut candidates = self.empty & (0b111_1111 << 2);
        let mut points = 0;
        while candidates != 0 {
            let q = candidates.trailing_zeros();
            candidates &= candidates - 1;
            let pair = straight_pair(self.with(q).five_points(rule));
            // The four sits strictly between its two five points; it must contain q, or
            // the stone made that straight four without q (a four, not a three).
            if pair != 0 && (pair.trailing_zeros() + 1..pair.trailing_zeros() + 5).contains(&q) {
                points |= 1 << q;
            }
        }
        points
    }
}

/// The lower five point of a straight four among `points` (two five points five cells
/// apart, with the four stones between them), as a one-bit mask; 0 when there is none.
fn straight_pair(points: u16) -> u16 {
    let pairs = points & (points >> 5);
    pairs & pairs.wrapping_neg()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line from a picture of the 11 cells, `X` own, `.` empty, `O` the opponent's,
    /// anything else a wall; the centre character must be `X`.
    fn line(s: &str) -> Line {
        assert_eq!(s.len(), SPAN as usize, "{s}");
        assert_eq!(s.as_bytes()[CENTER as usize], b'X', "{s}");
        let (mut own, mut empty, mut opp) = (0, 0, 0);
        for (k, c) in s.bytes().enumerate() {
            match c {
                b'X' => own |= 1 << k,
                b'.' => empty |= 1 << k,
                b'O' => opp |= 1 << k,
                _ => {}
            }
        }
        Line::new(own, empty, opp)
    }

    #[test]
    fn the_run_through_the_centre_counts_its_stones_and_held_ends() {
        assert_eq!(line("...XXXXX...").run(), (5, 0));
        assert_eq!(line("..OXXXXXO..").run(), (5, 2));
        assert_eq!(line("..#XXXXXO..").run(), (5, 1));
        assert_eq!(line("XXXXXXXXXXX").run(), (11, 0));
        assert_eq!(line("OXXXXXX....").run(), (6, 1));
        assert_eq!(line("....OX.X...").run(), (1, 1));
        // Caro: a five held at both ends wins nothing; an edge holds nothing.
        assert!(!line("..OXXXXXO..").five(FiveRule::Caro));
        assert!(line("..#XXXXXO..").five(FiveRule::CaroExact));
        assert!(line("..OXXXXXXO.").five(FiveRule::Caro));
        assert!(line("..OXXXXXXO.").overline(FiveRule::CaroExact));
    }

    #[test]
    fn exact_five_needs_closed_ends_and_or_more_does_not() {
        assert!(line("...XXXXX...").five(FiveRule::Exact));
        assert!(!line("..XXXXXX...").five(FiveRule::Exact));
        assert!(line("..XXXXXX...").five(FiveRule::OrMore));
        assert!(line("..XXXXXX...").overline(FiveRule::Exact));
        assert!(!line("..XXXXXX...").overline(FiveRule::OrMore));
        assert!(!line("...XXXXX...").overline(FiveRule::Exact));
        assert!(line("OOXXXXXOO..").five(FiveRule::Exact));
    }

    #[test]
    fn fours_count_straight_once_and_same_line_doubles_twice() {
        assert_eq!(line("....XXXX...").fours(FiveRule::Exact), 1);
        assert!(line("....XXXX...").straight_four(FiveRule::Exact));
        assert_eq!(line("..X.XXX.X..").fours(FiveRule::Exact), 2);
        assert_eq!(line("..XX.XX.XX.").fours(FiveRule::Exact), 2);
        assert_eq!(line(".XXX.X.XXX.").fours(FiveRule::Exact), 2);
        // o.oooo: filling the gap makes six, so for black it is no four.
        assert_eq!(line("..X.XXXX...").fours(FiveRule::Exact), 1);
        assert!(!line("..X.XXXX...").straight_four(FiveRule::Exact));
        assert!(line("..X.XXXX...").straight_four(FiveRule::OrMore));
    }

    #[test]
    fn closed_fours_leave_out_the_straight_four() {
        assert_eq!(line("....XXXX...").closed_fours(FiveRule::Exact), 0);
        assert_eq!(line("...OXXXX...").closed_fours(FiveRule::Exact), 1);
        assert_eq!(line("..X.XXX.X..").closed_fours(FiveRule::Exact), 2);
        // White's .OOOO.O: the right end also fills the split four OOO.O.
        assert_eq!(line("..XXXX.X...").closed_fours(FiveRule::OrMore), 1);
        assert_eq!(line("..XXXX.X...").fours(FiveRule::OrMore), 1);
        // A five is no four.
        assert_eq!(line("..XXXXX.X..").closed_fours(FiveRule::OrMore), 0);
        assert_eq!(line("..XXXXX.X..").fours(FiveRule::OrMore), 0);
    }

    #[test]
    fn three_points_are_the_cells_that_make_a_straight_four() {
        assert_eq!(
            line("....XXX....").three_points(FiveRule::Exact),
            1 << 3 | 1 << 7
        );
        assert_eq!(line("...X.XX....").three_points(FiveRule::Exact), 1 << 4);
        // Blocked on one side: only the far cell is left, and it needs room beyond.
        assert_eq!(line("..O.XXX....").three_points(FiveRule::Exact), 1 << 7);
        assert_eq!(line("..OXXX.O...").three_points(FiveRule::Exact), 0);
        // X.XXX. is already a four, and XXXX on its right would have six on its left.
        assert_eq!(line(".X.XXX.....").three_points(FiveRule::Exact), 0);
        // A stone that already makes a four makes no three.
        assert_eq!(line("....XXXX...").three_points(FiveRule::Exact), 0);
    }
}
