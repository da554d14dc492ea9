//! Static evaluation: a pure function of the pattern board's tallies and one [`Weights`].
//!
//! The pattern board counts, over the empty cells, the line patterns and combined threats
//! each colour could make there. The side to move values its own shapes above the
//! opponent's (it moves first), so the two sides have separate weight tables. Forcing
//! shapes (fives, open fours) are the search's business and decided there; here they only
//! add weight for the rare quiet position where they survive.

use crate::board::Color;
use crate::pattern::{Pattern, PatternBoard, Threat};

/// The largest evaluation magnitude: far below the mate scores.
pub const EVAL_LIMIT: i32 = 20_000;

/// Every tunable of the evaluation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Per line pattern of the side to move, indexed by [`Pattern`].
    pub own_pattern: [i32; Pattern::COUNT],
    /// Per line pattern of the side that just moved.
    pub opp_pattern: [i32; Pattern::COUNT],
    /// Per combined threat cell of the side to move, indexed by [`Threat`].
    pub own_threat: [i32; Threat::COUNT],
    /// Per combined threat cell of the side that just moved.
    pub opp_threat: [i32; Threat::COUNT],
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            // Dead, Overline, B1, F1, B2, F2, B3, F3, B4, F4, Five
            own_pattern: [0, 0, 1, 2, 3, 8, 10, 24, 28, 60, 200],
            opp_pattern: [0, 0, 1, 2, 3, 7, 8, 18, 20, 40, 150],
            // None, F2, B3, F2x2, B3+, F3, F3+, F3x2, B4, B4+, B4F3, F4, Five
            own_threat: [0, 2, 3, 10, 12, 25, 40, 400, 20, 40, 800, 1500, 3000],
            opp_threat: [0, 1, 2, 6, 8, 15, 25, 120, 10, 20, 200, 400, 1000],
        }
    }
}

/// The position's value for `side`, the colour to move.
#[must_use]
pub fn evaluate(pb: &PatternBoard, side: Color, w: &Weights) -> i32 {
    let counts = pb.counts();
    let (me, opp) = (side as usize, side.opponent() as usize);
    let dot =
        |n: &[u16], w: &[i32]| -> i32 { n.iter().zip(w).map(|(&n, &w)| i32::from(n) * w).sum() };
    let score = dot(&counts.pats[me], &w.own_pattern) - dot(&counts.pats[opp], &w.opp_pattern)
        + dot(&counts.threats[me], &w.own_threat)
        - dot(&counts.threats[opp], &w.opp_threat);
    score.clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Pos};
    use crate::rules::Rule;

    #[test]
    fn an_open_three_is_worth_more_to_its_owner_and_the_view_flips() {
        let mut b = Board::new(15, 15).unwrap();
        for x in 5..8 {
            b.place(Pos::new(x, 7), Color::Black).unwrap();
        }
        b.place(Pos::new(7, 3), Color::White).unwrap();
        let pb = PatternBoard::new(&b, Rule::Freestyle);
        let w = Weights::default();
        let black = evaluate(&pb, Color::Black, &w);
        let white = evaluate(&pb, Color::White, &w);
        assert!(black > 0 && white < 0, "{black} {white}");
        // Moving first is worth something: black to move beats white's view of it.
        assert!(black > -white);
    }

    #[test]
    fn empty_board_is_level() {
        let pb = PatternBoard::new(&Board::new(15, 15).unwrap(), Rule::Standard);
        assert_eq!(evaluate(&pb, Color::Black, &Weights::default()), 0);
    }
}
