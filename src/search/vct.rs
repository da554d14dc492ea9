//! Victory by continuous threats (VCT): the attacker plays only fours and moves that make an
//! open three, the defender every reply that stops them, until the attacker makes five.
//!
//! It is an AND-OR search bounded by attacker moves and a node budget. The attacker must
//! keep the initiative: after each of his moves the defender faces a five point (one block)
//! or an open-four point (every defence the move generator knows: the cells that leave no
//! open-four point, and the defender's own fours). A defender's four is answered by the
//! forced block, after which the attacker's standing threat must still be met. Renju holds
//! throughout: the attacker's and defender's moves are legal for their colour, black's
//! threes count only with a legal open-four point, and a black defender whose only block is
//! forbidden has lost. Positions that failed are cached by hash and depth.

use super::ordering::{self, Kind};
use crate::board::Color;
use crate::pattern::{Idx, PatternBoard, Threat};

/// Cache entries (a power of two).
const CACHE_SIZE: usize = 1 << 16;
/// Nodes between two calls of the stop check.
const CHECK_EVERY: u64 = 256;

/// A VCT solver with its own node count and failure cache.
pub struct Vct {
    nodes: u64,
    node_limit: u64,
    /// `(hash with the attacker's colour, attacker moves left)` of positions with no VCT.
    failed: Vec<(u64, u8)>,
    aborted: bool,
}

impl Default for Vct {
    fn default() -> Self {
        Vct::new()
    }
}

impl Vct {
    #[must_use]
    pub fn new() -> Vct {
        Vct {
            nodes: 0,
            node_limit: u64::MAX,
            failed: vec![(0, 0); CACHE_SIZE],
            aborted: false,
        }
    }

    /// Nodes visited since creation.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Forgets the failure cache (a new game).
    pub fn clear(&mut self) {
        self.failed.fill((0, 0));
    }

    /// Looks for a VCT of `attacker` (to move) of at most `max_moves` attacker moves within
    /// `node_budget` nodes, deepening from one move, polling `stop` now and then. Returns
    /// the attacker's first move when one is found.
    pub fn solve(
        &mut self,
        pb: &mut PatternBoard,
        attacker: Color,
        max_moves: u8,
        node_budget: u64,
        stop: &mut dyn FnMut() -> bool,
    ) -> Option<Idx> {
        self.node_limit = self.nodes.saturating_add(node_budget);
        self.aborted = false;
        for depth in 1..=max_moves {
            let mut first = None;
            if self.attack(pb, attacker, depth, &mut first, stop) {
                return first;
            }
            if self.aborted {
                break;
            }
        }
        None
    }

    fn tick(&mut self, stop: &mut dyn FnMut() -> bool) -> bool {
        self.nodes += 1;
        if self.nodes >= self.node_limit || (self.nodes.is_multiple_of(CHECK_EVERY) && stop()) {
            self.aborted = true;
        }
        self.aborted
    }

    /// The attacker to move: does some threat win? `first` receives the winning move.
    fn attack(
        &mut self,
        pb: &mut PatternBoard,
        att: Color,
        depth: u8,
        first: &mut Option<Idx>,
        stop: &mut dyn FnMut() -> bool,
    ) -> bool {
        if self.tick(stop) {
            return false;
        }
        let def = att.opponent();
        if let Some(five) = ordering::five_point(pb, att) {
            *first = Some(five);
            return true;
        }
        let def_fives = pb.counts().threats[def as usize][Threat::Five as usize];
        if def_fives >= 2 {
            return false;
        }
        if def_fives == 1 {
            // The defender's four: the block is forced, and the attack must still stand.
            let Some(block) = ordering::five_point(pb, def).filter(|&b| pb.is_legal(b, att)) else {
                return false;
            };
            pb.make(block, att);
            let won = self.defend(pb, att, depth, stop);
            pb.undo();
            if won {
                *first = Some(block);
            }
            return won;
        }
        if pb.threat_count_at_least(def, Threat::Block4) == 0 && ordering::has_flex4(pb, att) {
            // An open four the defender cannot even answer with a four.
            *first = pb
                .all_cells()
                .find(|&i| pb.is_legal(i, att) && pb.threat(i, att) == Threat::Flex4);
            return first.is_some();
        }
        if depth == 0 {
            return false;
        }
        let tag = pb.hash() ^ u64::from(att == Color::White);
        let slot = (tag as usize) & (CACHE_SIZE - 1);
        if self.failed[slot].0 == tag && self.failed[slot].1 >= depth {
            return false;
        }
        for mv in threats(pb, att) {
            pb.make(mv, att);
            // A four leaves a five point; a three is a threat only if its open four is a
            // legal move (renju's black).
            let threatening = pb.counts().threats[att as usize][Threat::Five as usize] > 0
                || ordering::has_flex4(pb, att);
            let won = threatening && self.defend(pb, att, depth - 1, stop);
            pb.undo();
            if won {
                *first = Some(mv);
                return true;
            }
            if self.aborted {
                return false;
            }
        }
        if !self.aborted {
            self.failed[slot] = (tag, depth);
        }
        false
    }

    /// The defender to move against the attacker's standing threat: does every reply lose?
    fn defend(
        &mut self,
        pb: &mut PatternBoard,
        att: Color,
        depth: u8,
        stop: &mut dyn FnMut() -> bool,
    ) -> bool {
        if self.tick(stop) {
            return false;
        }
        let def = att.opponent();
        if pb.counts().threats[def as usize][Threat::Five as usize] > 0 {
            return false;
        }
        let att_fives = pb.counts().threats[att as usize][Threat::Five as usize];
        if att_fives == 0 && !ordering::has_flex4(pb, att) {
            // The attacker has lost the initiative.
            return false;
        }
        let mut replies = Vec::new();
        let kind = ordering::generate(pb, def, &mut replies);
        if kind == Kind::Quiet {
            // Against an open three nothing defends but the cells of the opponent's four
            // shapes and a four of one's own; the generator found none of them works.
            return true;
        }
        for reply in replies {
            pb.make(reply, def);
            let mut first = None;
            let won = self.attack(pb, att, depth, &mut first, stop);
            pb.undo();
            if !won {
                return false;
            }
        }
        !self.aborted
    }
}

/// The attacker's legal threats: fours and moves that make an open three, strongest first,
/// ties by cell.
fn threats(pb: &PatternBoard, att: Color) -> Vec<Idx> {
    let mut found: Vec<(Threat, Idx)> = pb
        .all_cells()
        .filter(|&i| pb.is_empty(i))
        .map(|i| (pb.threat(i, att), i))
        .filter(|&(t, i)| (t >= Threat::Flex3 && t != Threat::Five) && pb.is_legal(i, att))
        .collect();
    found.sort_unstable_by_key(|&(t, i)| (std::cmp::Reverse(t), i));
    found.into_iter().map(|(_, i)| i).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Pos};
    use crate::rules::Rule;

    fn pb(rule: Rule, black: &[(u8, u8)], white: &[(u8, u8)]) -> PatternBoard {
        let b = Board::with_stones(15, 15, black, white).unwrap();
        PatternBoard::new(&b, rule)
    }

    #[test]
    fn a_double_open_three_is_a_vct_and_a_lone_stone_is_none() {
        // Black: two open twos crossing at (7, 7): playing it makes two open threes.
        let mut p = pb(
            Rule::Freestyle,
            &[(5, 7), (6, 7), (7, 5), (7, 6)],
            &[(0, 0), (14, 14), (0, 14), (14, 0)],
        );
        let mut never = || false;
        let first = Vct::new().solve(&mut p, Color::Black, 4, 200_000, &mut never);
        assert_eq!(first.map(|i| p.pos(i)), Some(Pos::new(7, 7)));
        let mut q = pb(Rule::Freestyle, &[(7, 7)], &[(8, 8)]);
        assert_eq!(
            Vct::new().solve(&mut q, Color::Black, 4, 200_000, &mut never),
            None
        );
    }

    #[test]
    fn in_renju_black_may_not_win_by_a_forbidden_double_three() {
        let mut p = pb(
            Rule::Renju,
            &[(5, 7), (6, 7), (7, 5), (7, 6)],
            &[(0, 0), (14, 14), (0, 14), (14, 0)],
        );
        let mut never = || false;
        let first = Vct::new().solve(&mut p, Color::Black, 3, 200_000, &mut never);
        assert_ne!(first.map(|i| p.pos(i)), Some(Pos::new(7, 7)));
    }
}
