//! Threat queries on the pattern board: where a side makes five, whether it can make an
//! open four, its fours near its last stone. Move generation and ordering read them to
//! choose moves, the tree and its quiescence search to settle and prune nodes.

use crate::board::Color;
use crate::pattern::{Idx, PatternBoard, Threat};
use crate::rules::Rule;

/// What a node faces, which decides the moves it generates and what a move there costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The opponent has a five point: the only move blocks it.
    Block,
    /// The opponent threatens an open four: defences and our fours only.
    Defend,
    /// No immediate threat: every candidate.
    Quiet,
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

/// Whether `side`, to move, faces a threat: a five point of the opponent, or an open four
/// the opponent can make. The tree prunes only nodes that face none.
#[must_use]
pub fn is_threatened(pb: &PatternBoard, side: Color) -> bool {
    let opp = side.opponent();
    pb.counts().threats[opp as usize][Threat::Five as usize] > 0 || has_flex4(pb, opp)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Pos};

    fn pb(black: &[(u8, u8)], white: &[(u8, u8)], rule: Rule) -> PatternBoard {
        let b = Board::with_stones(15, 15, black, white).unwrap();
        PatternBoard::new(&b, rule)
    }

    #[test]
    fn a_four_has_its_five_point_and_threatens_the_other_side() {
        let p = pb(
            &[(3, 3), (4, 3), (5, 3), (6, 3)],
            &[(2, 3), (9, 9), (9, 10)],
            Rule::Freestyle,
        );
        assert_eq!(five_point(&p, Color::Black), Some(p.idx(Pos::new(7, 3))));
        assert_eq!(five_point(&p, Color::White), None);
        assert!(is_threatened(&p, Color::White));
        assert!(!is_threatened(&p, Color::Black));
    }

    #[test]
    fn an_open_three_makes_an_open_four_and_fours_near_the_last_stone() {
        let p = pb(
            &[(5, 7), (6, 7), (7, 7)],
            &[(0, 0), (14, 14), (0, 14)],
            Rule::Freestyle,
        );
        assert!(has_flex4(&p, Color::Black) && !has_flex4(&p, Color::White));
        assert!(is_threatened(&p, Color::White));
        let mut fours = Vec::new();
        fours_near_last(&p, Color::Black, Threat::Block4, &mut fours);
        let got: Vec<Pos> = fours.iter().map(|&i| p.pos(i)).collect();
        // The open fours first, then the plain ones, each by cell.
        assert_eq!(got[..2], [Pos::new(4, 7), Pos::new(8, 7)], "{got:?}");
        assert!(got.contains(&Pos::new(3, 7)) && got.contains(&Pos::new(9, 7)));
        fours_near_last(&p, Color::White, Threat::Block4, &mut fours);
        assert!(fours.is_empty());
    }
}
