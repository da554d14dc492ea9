//! A square as the protocol writes it, `x,y`.

use std::fmt;

use hoshi::board::Pos;

/// Coordinates as written on a line, not yet checked against any board: signed, so that
/// `-1,5` is reported as off the board rather than as junk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Coord {
    pub x: i64,
    pub y: i64,
}

impl From<Pos> for Coord {
    fn from(p: Pos) -> Coord {
        Coord {
            x: i64::from(p.x),
            y: i64::from(p.y),
        }
    }
}

impl fmt::Display for Coord {
    /// `x,y`, with no spaces.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_square_prints_as_the_board_prints_it() {
        let p = Pos::new(9, 12);
        assert_eq!(Coord::from(p).to_string(), p.to_string());
        assert_eq!(Coord { x: -1, y: 5 }.to_string(), "-1,5");
    }
}
