//! Move generation and ordering: which moves a node tries, and in what order.
//!
//! Threats decide both. Against a five point only the block is played; against a threat
//! to make an open four (an open three, or a three-and-four shape) only the moves that
//! leave no such threat and our own fours; otherwise every cell near the stones. Moves
//! are ordered by the table move, killers, the evaluation's move prior (what the cell is
//! worth to each side, [`Policy`]), then history, ties broken by cell (row-major) so the
//! order is deterministic.

use crate::board::Color;
use crate::eval::Policy;
use crate::pattern::{Idx, PatternBoard, Threat};
use crate::rules::Rule;

/// Ordering bonus of the table move, above everything else.
const TT_BONUS: i32 = 1 << 24;
/// Ordering bonus of a killer move.
const KILLER_BONUS: i32 = 2_000;

/// What kind of node the generator found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The opponent has a five point: the only move blocks it.
    Block,
    /// The opponent threatens an open four: defences and our fours only.
    Defend,
    /// No immediate threat: every candidate.
    Quiet,
}

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

/// Whether `color` has a legal move making an open four or two fours.
#[must_use]
pub fn has_flex4(pb: &PatternBoard, color: Color) -> bool {
    let any = pb.counts().threats[color as usize][Threat::Flex4 as usize] > 0;
    // Only renju's black can have such a cell and not be allowed to play it.
    if !any || color == Color::White || pb.rule() != Rule::Renju {
        return any;
    }
    pb.all_cells()
        .any(|i| pb.is_empty(i) && pb.threat(i, color) == Threat::Flex4 && !pb.is_foul(i))
}

/// The first empty cell (row-major) where `color` would make five.
#[must_use]
pub fn five_point(pb: &PatternBoard, color: Color) -> Option<Idx> {
    let is_five = |i: Idx| pb.is_empty(i) && pb.threat(i, color) == Threat::Five;
    let count = pb.counts().threats[color as usize][Threat::Five as usize];
    if count == 0 {
        return None;
    }
    // A lone five point is almost always the last stone's, on one of its lines: looked
    // for there first, it is the same answer without a scan of the board.
    if count == 1
        && let Some(near) = pb
            .last_stone_of(color)
            .and_then(|last| pb.line_neighbours(last).find(|&i| is_five(i)))
    {
        return Some(near);
    }
    pb.all_cells().find(|&i| is_five(i))
}

/// Fills `out` with `side`'s legal fours at least as strong as `min`, near its last stone
/// (anywhere when it has none), strongest first, ties by cell.
pub fn fours_near_last(pb: &PatternBoard, side: Color, min: Threat, out: &mut Vec<Idx>) {
    out.clear();
    if pb.threat_count_at_least(side, min) == 0 {
        return;
    }
    let mut found: Vec<(Threat, Idx)> = match pb.last_stone_of(side) {
        Some(last) => pb
            .neighbourhood(last)
            .filter(|&i| pb.is_empty(i))
            .map(|i| (pb.threat(i, side), i))
            .filter(|&(t, _)| t >= min)
            .collect(),
        None => pb
            .all_cells()
            .filter(|&i| pb.is_empty(i))
            .map(|i| (pb.threat(i, side), i))
            .filter(|&(t, _)| t >= min)
            .collect(),
    };
    found.retain(|&(_, i)| pb.is_legal(i, side));
    found.sort_unstable_by_key(|&(t, i)| (std::cmp::Reverse(t), i));
    out.extend(found.iter().map(|&(_, i)| i));
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

/// History values stay within this magnitude (each update moves them part of the way).
pub const HISTORY_MAX: i32 = 16_384;
/// Ordering bonus of the move that last refuted the opponent's previous move.
const COUNTER_BONUS: i32 = 600;

/// The history update of a search of `depth`.
fn history_bonus(depth: i32) -> i32 {
    (32 * depth * depth + 64 * depth).min(HISTORY_MAX / 4)
}

/// Killer moves, counter moves and the history table of one search.
pub struct Heuristics {
    killers: Vec<[Idx; 2]>,
    /// `[cell][side]`: how often a quiet move there refuted, less how often it failed to.
    history: Vec<[i32; 2]>,
    /// `[cell of the opponent's move][side]`: the quiet reply that last refuted it.
    counters: Vec<[Idx; 2]>,
}

impl Heuristics {
    #[must_use]
    pub fn new(cells: usize, plies: usize) -> Heuristics {
        Heuristics {
            killers: vec![[0; 2]; plies],
            history: vec![[0; 2]; cells],
            counters: vec![[0; 2]; cells],
        }
    }

    /// Records that the quiet move `best` refuted the node at `ply` (reached by the
    /// opponent's `prev`) in a search of `depth`, after the quiet moves `failed` did not.
    pub fn reward(
        &mut self,
        best: Idx,
        failed: &[Idx],
        side: Color,
        ply: usize,
        prev: Option<Idx>,
        depth: i32,
    ) {
        if let Some(k) = self.killers.get_mut(ply)
            && k[0] != best
        {
            k[1] = k[0];
            k[0] = best;
        }
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

    #[must_use]
    pub fn is_killer(&self, mv: Idx, ply: usize) -> bool {
        self.killers.get(ply).is_some_and(|k| k.contains(&mv))
    }

    /// Scores `moves` into `out` by `policy` and what this search learnt, in no order
    /// (take them with [`bring_next`], or [`sort`] them); `prev` is the opponent's last
    /// move.
    #[allow(clippy::too_many_arguments)] // the node's facts, each used once
    pub fn score_moves(
        &self,
        policy: &Policy,
        pb: &PatternBoard,
        side: Color,
        ply: usize,
        tt_move: Option<Idx>,
        prev: Option<Idx>,
        moves: &[Idx],
        out: &mut Vec<Scored>,
    ) {
        let counter = prev
            .and_then(|p| self.counters.get(usize::from(p)))
            .map(|c| c[side as usize]);
        out.clear();
        out.extend(moves.iter().map(|&mv| {
            let mut score = policy.score(pb.info(mv), side);
            if Some(mv) == tt_move {
                score += TT_BONUS;
            } else if self.is_killer(mv, ply) {
                score += KILLER_BONUS;
            } else if Some(mv) == counter {
                score += COUNTER_BONUS;
            }
            score += self.history(mv, side) / 64;
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
