//! What the evaluation sees of a position, as counts: the features training fits.
//!
//! [`super::Evaluator::evaluate`] is linear in them: per colour, how many empty cells have
//! each pcode (weighted by that colour's table, own role for the side to move, opposing
//! role for the other), plus one threat-table entry picked by the mask.
//! [`Features::value`] computes exactly what the evaluator does from the same tables, so
//! a trainer's linear model is the engine's evaluation and nothing else.

use crate::board::Color;
use crate::pattern::{PCODE_COUNT, PatternBoard, Pcode, Threat};

use super::{RuleTables, combine, threat_mask};

/// One position's features.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Features {
    /// The colour to move.
    pub side: Color,
    /// Per colour (by `Color as usize`): `(pcode, empty cells with it)`, by pcode, no zeros.
    pub counts: [Vec<(Pcode, u16)>; 2],
    /// [`threat_mask`] for the side to move.
    pub mask: usize,
}

impl Features {
    /// The features of `pb` with `side` to move, read from its incremental cell state.
    #[must_use]
    pub fn of(pb: &PatternBoard, side: Color) -> Features {
        let mut dense = [vec![0u16; PCODE_COUNT], vec![0u16; PCODE_COUNT]];
        for i in pb.all_cells().filter(|&i| pb.is_empty(i)) {
            for (c, &p) in pb.info(i).pcode.iter().enumerate() {
                dense[c][usize::from(p)] += 1;
            }
        }
        Features {
            side,
            counts: dense.map(|d| sparse(&d)),
            mask: threat_mask(pb, side),
        }
    }

    /// The evaluation `tables` give these features: [`super::Evaluator::evaluate`]'s value
    /// for the position they came from.
    #[must_use]
    pub fn value(&self, tables: &RuleTables) -> i32 {
        let (me, opp) = (self.side, self.side.opponent());
        let sum = |c: Color, role: usize| -> i32 {
            let t = &tables.pcode[tables.table_of(c)];
            self.counts[c as usize]
                .iter()
                .map(|&(p, n)| i32::from(n) * t[usize::from(p)][role])
                .sum()
        };
        let threat = tables.threat[tables.table_of(me)][self.mask];
        combine(sum(me, 0) - sum(opp, 1), threat)
    }
}

/// The nonzero entries of a dense count table.
fn sparse(dense: &[u16]) -> Vec<(Pcode, u16)> {
    dense
        .iter()
        .enumerate()
        .filter(|&(_, &n)| n > 0)
        .map(|(p, &n)| (p as Pcode, n))
        .collect()
}

/// Whether the search may evaluate this position at all: not when the side to move has a
/// five or open-four point, nor when the opponent has a five point (the search plays or
/// blocks those itself), so such positions teach the evaluation nothing.
#[must_use]
pub fn is_quiet(pb: &PatternBoard, side: Color) -> bool {
    let t = &pb.counts().threats;
    let (me, opp) = (&t[side as usize], &t[side.opponent() as usize]);
    me[Threat::Five as usize] == 0
        && me[Threat::Flex4 as usize] == 0
        && opp[Threat::Five as usize] == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::padded::{self, WALL};
    use crate::board::{Board, Dir, Pos};
    use crate::eval::{Evaluator, Model, THREAT_BITS, handset_model};
    use crate::pattern::table::{HALF, slot};
    use crate::pattern::{Pcodes, Tables};
    use crate::rng::Rng;
    use crate::rules::Rule;

    /// Per colour: sparse pcode counts, and threat counts.
    type Tallies = ([Vec<(Pcode, u16)>; 2], [[u16; Threat::COUNT]; 2]);

    /// The features straight from the stones: each empty cell's four lines read off the
    /// board, through the rule's pattern tables, with no pattern board involved.
    fn from_scratch(board: &Board, rule: Rule) -> Tallies {
        let (tables, pcodes) = (Tables::get(rule), Pcodes::get());
        let mut dense = [vec![0u16; PCODE_COUNT], vec![0u16; PCODE_COUNT]];
        let mut threats = [[0u16; Threat::COUNT]; 2];
        for p in board.empty_cells() {
            for c in Color::BOTH {
                let pats = Dir::ALL.map(|d| {
                    let mut key = 0u32;
                    for off in (-(HALF as i32)..=HALF as i32).filter(|&o| o != 0) {
                        let code = board
                            .step(p, d, off)
                            .map_or(WALL, |q| padded::code(board.get(q)));
                        key |= u32::from(code) << (2 * slot(off));
                    }
                    tables.pattern(c, key)
                });
                let pcode = pcodes.pcode(pats);
                dense[c as usize][usize::from(pcode)] += 1;
                threats[c as usize][pcodes.threat(pcode) as usize] += 1;
            }
        }
        (dense.map(|d| sparse(&d)), threats)
    }

    /// A model with a distinct value everywhere, so any misplaced count shows.
    fn busy_model(rng: &mut Rng) -> Model {
        let mut shared = RuleTables::zero(false);
        let mut split = RuleTables::zero(true);
        for t in [&mut shared, &mut split] {
            for x in t.pcode.iter_mut().flatten().flatten() {
                *x = (rng.below(2001) as i32) - 1000;
            }
            for x in t.threat.iter_mut().flatten() {
                *x = (rng.below(501) as i32) - 250;
            }
        }
        Model::new(vec![(Rule::Freestyle, shared), (Rule::Renju, split)]).unwrap()
    }

    #[test]
    fn features_match_a_recomputation_and_give_the_evaluators_value() {
        let mut rng = Rng::new(11);
        let model = busy_model(&mut rng);
        let e = Evaluator::from_model(&model);
        for rule in [Rule::Freestyle, Rule::Renju, Rule::Standard] {
            let mut board = Board::new(15, 15).unwrap();
            let mut pb = PatternBoard::with_values(&board, rule, e.cell_values(rule));
            for ply in 0..60 {
                let side = board.to_move();
                let f = Features::of(&pb, side);
                let (counts, threats) = from_scratch(&board, rule);
                assert_eq!(f.counts, counts, "{rule} ply {ply}");
                // The mask's bits come from these threat counts.
                assert_eq!(&pb.counts().threats, &threats, "{rule} ply {ply}");
                assert!(f.mask < 1 << THREAT_BITS);
                assert_eq!(
                    f.value(model.tables(rule)),
                    e.evaluate(&pb, side),
                    "{rule} ply {ply}"
                );
                // Stones near the centre, so that shapes (and threats) appear.
                let empty: Vec<Pos> = board
                    .empty_cells()
                    .filter(|p| p.chebyshev(Pos::new(7, 7)) <= 4)
                    .collect();
                let Some(&p) = empty.get(rng.below(empty.len().max(1))) else {
                    break;
                };
                if rule.judge(&board, p, side) != crate::rules::Verdict::Continue {
                    break;
                }
                board.place(p, side).unwrap();
                pb.make(pb.idx(p), side);
            }
        }
    }

    #[test]
    fn hand_set_features_value_is_the_hand_set_evaluation() {
        let b = Board::with_stones(15, 15, &[(7, 7), (8, 7), (9, 8)], &[(8, 8), (6, 7)]).unwrap();
        let w = crate::eval::Weights::default();
        let (e, m) = (Evaluator::from_weights(&w), handset_model(&w));
        let pb = PatternBoard::with_values(&b, Rule::Renju, e.cell_values(Rule::Renju));
        for side in Color::BOTH {
            assert_eq!(
                Features::of(&pb, side).value(m.tables(Rule::Renju)),
                e.evaluate(&pb, side)
            );
        }
    }

    #[test]
    fn positions_with_a_five_or_open_four_point_are_not_quiet() {
        let open_three =
            Board::with_stones(15, 15, &[(5, 7), (6, 7), (7, 7)], &[(0, 0), (0, 1)]).unwrap();
        let pb = PatternBoard::new(&open_three, Rule::Freestyle);
        // Black to move makes an open four: decided by the search.
        assert!(!is_quiet(&pb, Color::Black));
        // White to move must answer the three: the evaluation matters.
        assert!(is_quiet(&pb, Color::White));
        let four = Board::with_stones(
            15,
            15,
            &[(5, 7), (6, 7), (7, 7), (8, 7)],
            &[(4, 7), (0, 1), (0, 2)],
        )
        .unwrap();
        let pb = PatternBoard::new(&four, Rule::Freestyle);
        assert!(!is_quiet(&pb, Color::White), "black has a five point");
        assert!(is_quiet(
            &PatternBoard::new(&Board::new(15, 15).unwrap(), Rule::Renju),
            Color::Black
        ));
    }
}
