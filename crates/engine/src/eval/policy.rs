//! The move prior: how promising a cell looks before any search, from the pcodes the two
//! sides have there.
//!
//! A cell's prior is the value of the mover's pcode as an attack plus the value of the
//! opponent's pcode as a defence: `own[mover][pcode_mover] + opp[opponent][pcode_opponent]`
//! (one table per colour, as the evaluation's). The search orders its moves by it below the
//! table move, killers and counter moves, with this search's history added. The hand-set
//! prior ([`Policy::handset_table`]) scores a pcode by its combined threat and its four line
//! patterns; `pbrain-hoshi train` fits the tables to the moves the self-play searches chose
//! (docs/eval.md).

use crate::board::Color;
use crate::pattern::{CellInfo, PCODE_COUNT, Pattern, Pcode, Pcodes, Threat};

/// The hand-set urgency of a combined threat, for ordering.
const THREAT_VALUE: [i32; Threat::COUNT] = [
    0, 40, 30, 120, 100, 200, 300, 1_200, 250, 400, 3_000, 10_000, 100_000,
];
/// Small hand-set tie-breakers among quiet cells, per line pattern.
const PATTERN_VALUE: [i32; Pattern::COUNT] = [0, 0, 1, 2, 2, 8, 6, 16, 16, 30, 30];

/// One colour's prior: per pcode, `[as the mover's, as the opponent's]`.
pub type PolicyTable = Vec<[i32; 2]>;

/// The prior of both colours: `tables[colour]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Policy {
    tables: [PolicyTable; 2],
}

impl Policy {
    /// The prior of black's and white's tables (equal when the colours share one).
    #[must_use]
    pub fn new(tables: [PolicyTable; 2]) -> Policy {
        debug_assert!(tables.iter().all(|t| t.len() == PCODE_COUNT));
        Policy { tables }
    }

    /// The hand-set table: a pcode's own threat counts a third more as an attack than as
    /// a defence, and its line patterns twice.
    #[must_use]
    pub fn handset_table() -> PolicyTable {
        let pcodes = Pcodes::get();
        (0..PCODE_COUNT)
            .map(|p| {
                let threat = THREAT_VALUE[pcodes.threat(p as Pcode) as usize];
                let lines: i32 = pcodes
                    .patterns(p as Pcode)
                    .iter()
                    .map(|&pat| PATTERN_VALUE[pat as usize])
                    .sum();
                [4 * threat / 3 + 2 * lines, threat + lines]
            })
            .collect()
    }

    /// The prior of the empty cell described by `info` for `side`, the mover.
    #[inline]
    #[must_use]
    pub fn score(&self, info: &CellInfo, side: Color) -> i32 {
        let (me, opp) = (side as usize, side.opponent() as usize);
        self.tables[me][usize::from(info.pcode[me])][0]
            + self.tables[opp][usize::from(info.pcode[opp])][1]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Pos};
    use crate::pattern::PatternBoard;
    use crate::rules::Rule;

    /// The hand-set prior is the threat and line values of both sides, read per pcode.
    #[test]
    fn the_handset_prior_adds_each_sides_threat_and_lines() {
        let b = Board::with_stones(15, 15, &[(5, 7), (6, 7), (7, 7)], &[(6, 6), (7, 6)]).unwrap();
        let pb = PatternBoard::new(&b, Rule::Freestyle);
        let t = Policy::handset_table();
        let policy = Policy::new([t.clone(), t]);
        let lines =
            |pats: &[Pattern; 4]| -> i32 { pats.iter().map(|&p| PATTERN_VALUE[p as usize]).sum() };
        for pos in [(4, 7), (8, 7), (5, 6), (8, 6), (3, 3)] {
            let info = pb.info(pb.idx(Pos::new(pos.0, pos.1)));
            let (me, opp) = (Color::White as usize, Color::Black as usize);
            let want = 4 * THREAT_VALUE[info.threat[me] as usize] / 3
                + THREAT_VALUE[info.threat[opp] as usize]
                + 2 * lines(&info.pats[me])
                + lines(&info.pats[opp]);
            assert_eq!(policy.score(info, Color::White), want, "{pos:?}");
        }
        // Blocking black's open three outranks a cell far from everything.
        let at = |x, y| policy.score(pb.info(pb.idx(Pos::new(x, y))), Color::White);
        assert!(at(4, 7) > at(3, 3) + 100);
    }
}
