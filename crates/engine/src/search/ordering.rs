//! Move generation and ordering: which moves a node tries, and in what order.
//!
//! Threats decide both. Against a five point only the block is played; against a threat
//! to make an open four (an open three, or a three-and-four shape) only the moves that
//! leave no such threat and our own fours; otherwise every cell near the stones. Moves
//! are ordered by the table move, killers, the evaluation's move prior (what the cell is
//! worth to each side, [`Policy`]), then history, ties broken by cell (row-major) so the
//! order is deterministic.

use super::params::{
    COUNTER_BONUS, HISTORY_MAX, KILLER_BONUS, TT_BONUS, history_bonus, history_order,
};
use super::threats::{Kind, five_point, has_flex4};
use crate::board::Color;
use crate::eval::Policy;
use crate::pattern::{Idx, PatternBoard, Threat};
use crate::rules::Rule;

/// A move with its ordering score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scored {
    pub mv: Idx,
    pub score: i32,
}

impl Scored {
    /// Larger is tried first: the higher score, then the lower cell. Unique within a list
    /// (the cell breaks ties), so every way of ordering by it gives the same order.
    fn key(self) -> i64 {
        (i64::from(self.score) << 16) - i64::from(self.mv)
    }
}

/// Moves taken one at a time before the rest of a list is sorted: most nodes are cut off
/// within their first few moves, where a full sort would be wasted.
const PICKED_ONE_BY_ONE: usize = 3;

/// Brings the best of `list[n..]` to `n`, when `list[..n]` holds the best `n` in order
/// (as after the calls for `0..n`): a list taken this way comes in [`sort`]'s order,
/// sorted only as far as it is read.
pub fn bring_next(list: &mut [Scored], n: usize) {
    if n < PICKED_ONE_BY_ONE {
        let best = (n..list.len()).max_by_key(|&i| list[i].key());
        if let Some(best) = best {
            list.swap(n, best);
        }
    } else if n == PICKED_ONE_BY_ONE {
        sort(&mut list[n..]);
    }
}

/// Sorts `list` best first.
pub fn sort(list: &mut [Scored]) {
    list.sort_unstable_by_key(|s| std::cmp::Reverse(s.key()));
}

/// Whether `side`'s stone on `mv` leaves the opponent no open-four point. With the
/// opponent's `open_four_points` given (not for renju's black, whose fouls can hinge on any
/// stone), this is read off the patterns: a stone of ours never makes the opponent a new
/// shape, and it changes only the cells it touches, along the one line joining them, so
/// `mv` defends exactly when each point is `mv` itself or loses its open four on that line.
/// Otherwise the move is played out.
fn defends(pb: &mut PatternBoard, mv: Idx, side: Color, open_four_points: Option<&[Idx]>) -> bool {
    let opp = side.opponent();
    let played_out = |pb: &mut PatternBoard| {
        pb.make(mv, side);
        let defended = !has_flex4(pb, opp);
        pb.undo();
        defended
    };
    let Some(points) = open_four_points else {
        return played_out(pb);
    };
    let defended = points.iter().all(|&f| {
        f == mv || pb.touches(mv, f) && pb.threat_after(f, opp, mv, side) < Threat::Flex4
    });
    debug_assert_eq!(defended, played_out(pb), "defence read off the patterns");
    defended
}

/// Fills `out` with the moves `side` should consider (unordered) and says why. The caller
/// has already handled its own five points and the opponent's double five.
pub fn generate(pb: &mut PatternBoard, side: Color, out: &mut Vec<Idx>) -> Kind {
    out.clear();
    let opp = side.opponent();
    if let Some(block) = five_point(pb, opp) {
        if pb.is_legal(block, side) {
            out.push(block);
        }
        return Kind::Block;
    }
    if has_flex4(pb, opp) {
        let cells: Vec<Idx> = pb.all_cells().filter(|&i| pb.is_candidate(i)).collect();
        // Renju's black fouls can hinge on stones anywhere: there every defence is played
        // out to check.
        let open_four_points: Option<Vec<Idx>> = (pb.rule() != Rule::Renju || opp == Color::White)
            .then(|| {
                pb.all_cells()
                    .filter(|&i| pb.is_empty(i) && pb.threat(i, opp) == Threat::Flex4)
                    .collect()
            });
        for i in cells {
            let own_four = pb.threat(i, side).is_four();
            // A defence lies on a line where the opponent has a four shape.
            if !(own_four || pb.threat(i, opp).is_four()) || !pb.is_legal(i, side) {
                continue;
            }
            let keeps = own_four || defends(pb, i, side, open_four_points.as_deref());
            if keeps {
                out.push(i);
            }
        }
        if !out.is_empty() {
            return Kind::Defend;
        }
        // Nothing defends: search everything rather than trust the shape analysis.
    }
    out.extend(
        pb.all_cells()
            .filter(|&i| pb.is_candidate(i) && pb.is_legal(i, side)),
    );
    Kind::Quiet
}

/// What move scoring needs to know of the node whose moves it scores.
#[derive(Clone, Copy)]
pub struct NodeFacts<'a> {
    pub pb: &'a PatternBoard,
    /// The side to move.
    pub side: Color,
    /// The table's move for the node, tried first.
    pub tt_move: Option<Idx>,
    /// The quiet moves that last refuted a node at this ply.
    pub killers: [Idx; 2],
    /// The opponent's last move, whose refutation is tried early.
    pub prev: Option<Idx>,
}

/// Whether `mv` is one of `killers`.
#[must_use]
pub fn is_killer(killers: [Idx; 2], mv: Idx) -> bool {
    killers.contains(&mv)
}

/// Makes `best`, a quiet move that just refuted a node, the first of that ply's `killers`.
pub fn add_killer(killers: &mut [Idx; 2], best: Idx) {
    if killers[0] != best {
        killers[1] = killers[0];
        killers[0] = best;
    }
}

/// Counter moves and the history table of one search (the killers live on the tree's
/// stack, one pair a ply).
pub struct Heuristics {
    /// `[cell][side]`: how often a quiet move there refuted, less how often it failed to.
    history: Vec<[i32; 2]>,
    /// `[cell of the opponent's move][side]`: the quiet reply that last refuted it.
    counters: Vec<[Idx; 2]>,
}

impl Heuristics {
    /// Empty tables for a board of `cells` cells.
    #[must_use]
    pub fn new(cells: usize) -> Heuristics {
        Heuristics {
            history: vec![[0; 2]; cells],
            counters: vec![[0; 2]; cells],
        }
    }

    /// Records that the quiet move `best` refuted a node (reached by the opponent's
    /// `prev`) in a search of `depth`, after the quiet moves `failed` did not.
    pub fn reward(
        &mut self,
        best: Idx,
        failed: &[Idx],
        side: Color,
        prev: Option<Idx>,
        depth: i32,
    ) {
        let bonus = history_bonus(depth);
        self.nudge(best, side, bonus);
        for &mv in failed {
            self.nudge(mv, side, -bonus);
        }
        if let Some(c) = prev.and_then(|p| self.counters.get_mut(usize::from(p))) {
            c[side as usize] = best;
        }
    }

    /// Moves a history value toward `bonus`'s sign, less the closer it already is to the
    /// bound, so it stays within [`HISTORY_MAX`] and recent results weigh more.
    fn nudge(&mut self, mv: Idx, side: Color, bonus: i32) {
        if let Some(h) = self.history.get_mut(usize::from(mv)) {
            let h = &mut h[side as usize];
            *h += bonus - *h * bonus.abs() / HISTORY_MAX;
        }
    }

    /// The history value of `mv` for `side`.
    #[must_use]
    pub fn history(&self, mv: Idx, side: Color) -> i32 {
        self.history[usize::from(mv)][side as usize]
    }

    /// Scores the moves of the node `node` into `out` by `policy` and what this search
    /// learnt, in no order (take them with [`bring_next`], or [`sort`] them).
    pub fn score_moves(
        &self,
        policy: &Policy,
        node: &NodeFacts<'_>,
        moves: &[Idx],
        out: &mut Vec<Scored>,
    ) {
        let NodeFacts {
            pb,
            side,
            tt_move,
            killers,
            prev,
        } = *node;
        let counter = prev
            .and_then(|p| self.counters.get(usize::from(p)))
            .map(|c| c[side as usize]);
        out.clear();
        out.extend(moves.iter().map(|&mv| {
            let mut score = policy.score(pb.info(mv), side);
            if Some(mv) == tt_move {
                score += TT_BONUS;
            } else if is_killer(killers, mv) {
                score += KILLER_BONUS;
            } else if Some(mv) == counter {
                score += COUNTER_BONUS;
            }
            score += history_order(self.history(mv, side));
            Scored { mv, score }
        }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Pos};

    fn pb(black: &[(u8, u8)], white: &[(u8, u8)]) -> PatternBoard {
        let b = Board::with_stones(15, 15, black, white).unwrap();
        PatternBoard::new(&b, Rule::Freestyle)
    }

    #[test]
    fn moves_brought_one_by_one_come_in_the_sorted_order() {
        // Scores with many ties, so the cell must break them; lists shorter and longer
        // than the part picked one by one.
        let mut rng = crate::rng::Rng::new(7);
        for len in [0, 1, 2, 3, 4, 5, 9, 40] {
            let mut list: Vec<Scored> = (0..len)
                .map(|k| Scored {
                    mv: (k * 37 % 101) as Idx,
                    score: (rng.next_u64() % 4) as i32 - 2,
                })
                .collect();
            let mut sorted = list.clone();
            sort(&mut sorted);
            assert!(
                sorted
                    .windows(2)
                    .all(|w| (w[0].score, std::cmp::Reverse(w[0].mv))
                        > (w[1].score, std::cmp::Reverse(w[1].mv)))
            );
            for n in 0..list.len() {
                bring_next(&mut list, n);
                assert_eq!(list[n], sorted[n], "length {len}, move {n}");
            }
        }
    }

    #[test]
    fn a_five_point_allows_only_the_block() {
        let mut p = pb(
            &[(3, 3), (4, 3), (5, 3), (6, 3)],
            &[(2, 3), (9, 9), (9, 10)],
        );
        let mut out = Vec::new();
        assert_eq!(generate(&mut p, Color::White, &mut out), Kind::Block);
        assert_eq!(out, vec![p.idx(Pos::new(7, 3))]);
    }

    #[test]
    fn an_open_three_allows_only_defences_and_fours() {
        // Black open three on row 7; white has a blocked three on column 2 (fours at 2,5/2,6).
        let mut p = pb(
            &[(5, 7), (6, 7), (7, 7), (2, 1)],
            &[(2, 2), (2, 3), (2, 4), (12, 12)],
        );
        let mut out = Vec::new();
        assert_eq!(generate(&mut p, Color::White, &mut out), Kind::Defend);
        let got: Vec<Pos> = out.iter().map(|&i| p.pos(i)).collect();
        for must in [(4, 7), (8, 7), (2, 5), (2, 6)] {
            assert!(
                got.contains(&Pos::new(must.0, must.1)),
                "{must:?} missing from {got:?}"
            );
        }
        assert!(!got.contains(&Pos::new(7, 8)), "{got:?}");
    }
}
