//! Victory by continuous fours (VCF): the attacker plays only fours, the defender only the
//! forced blocks, until the attacker makes five or an unstoppable four.
//!
//! The defender's counter-play is honoured: when a block makes him a four, the attacker's
//! next move must stop it (and be a four itself to stay continuous); a defender with two
//! five points, or one the attacker cannot block with a four, ends the line. In renju the
//! attacker's black fours must be legal, and a black defender whose only block is a
//! forbidden point has lost. Failed positions are cached by hash and remaining depth.

use crate::board::Color;
use crate::pattern::{Idx, PatternBoard, Threat};

/// Cache entries (a power of two).
const CACHE_SIZE: usize = 1 << 16;
/// Nodes between two calls of the stop check.
const CHECK_EVERY: u64 = 1024;

/// A VCF solver with its own node count and failure cache.
pub struct Vcf {
    nodes: u64,
    node_limit: u64,
    /// `(hash, attacker moves left)` of positions that have no VCF within that many moves.
    failed: Vec<(u64, u8)>,
    aborted: bool,
}

impl Default for Vcf {
    fn default() -> Self {
        Vcf::new()
    }
}

impl Vcf {
    #[must_use]
    pub fn new() -> Vcf {
        Vcf {
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

    /// Forgets the failure cache (a new game: hashes of old positions are useless).
    pub fn clear(&mut self) {
        self.failed.fill((0, 0));
    }

    /// Looks for a VCF of `attacker` (to move) of at most `max_moves` attacker moves, within
    /// `node_budget` nodes, polling `stop` now and then. Returns the winning line (attacker
    /// and defender moves alternating, ending with the five or the unstoppable four's
    /// follow-up), or `None` when none was found (or the search was cut short).
    pub fn solve(
        &mut self,
        pb: &mut PatternBoard,
        attacker: Color,
        max_moves: u8,
        node_budget: u64,
        stop: &mut dyn FnMut() -> bool,
    ) -> Option<Vec<Idx>> {
        self.node_limit = self.nodes.saturating_add(node_budget);
        self.aborted = false;
        let mut line = Vec::new();
        // Deepening finds short wins first and keeps lines clean; the cache makes the
        // repeated shallow work cheap.
        for depth in 1..=max_moves {
            if self.attack(pb, attacker, depth, &mut line, stop) {
                return Some(line);
            }
            if self.aborted {
                break;
            }
        }
        None
    }

    /// A quick look for a VCF of at most `max_moves` attacker moves within `node_budget`
    /// nodes, without deepening: for the search's leaves, where most probes fail and a
    /// found line need not be the shortest.
    pub fn probe(
        &mut self,
        pb: &mut PatternBoard,
        attacker: Color,
        max_moves: u8,
        node_budget: u64,
    ) -> Option<Vec<Idx>> {
        self.node_limit = self.nodes.saturating_add(node_budget);
        self.aborted = false;
        let mut line = Vec::new();
        self.attack(pb, attacker, max_moves, &mut line, &mut || false)
            .then_some(line)
    }

    /// Whether the last `solve` stopped on its node budget or the stop check.
    #[must_use]
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    fn attack(
        &mut self,
        pb: &mut PatternBoard,
        att: Color,
        depth: u8,
        line: &mut Vec<Idx>,
        stop: &mut dyn FnMut() -> bool,
    ) -> bool {
        self.nodes += 1;
        if self.nodes >= self.node_limit
            || (self.nodes.is_multiple_of(CHECK_EVERY) && stop())
            || self.aborted
        {
            self.aborted = true;
            return false;
        }
        let def = att.opponent();
        if let Some(five) = first_with(pb, att, Threat::Five) {
            line.push(five);
            return true;
        }
        if depth == 0 || pb.threat_count_at_least(att, Threat::Block4) == 0 {
            return false;
        }
        let slot = (pb.hash() as usize) & (CACHE_SIZE - 1);
        let tag = pb.hash() ^ u64::from(att == Color::White);
        if self.failed[slot].0 == tag && self.failed[slot].1 >= depth {
            return false;
        }
        let moves = match pb.threat_count_at_least(def, Threat::Five) {
            0 => attacking_fours(pb, att),
            1 => first_with(pb, def, Threat::Five)
                .filter(|&f| pb.threat(f, att).is_four() && pb.is_legal(f, att))
                .into_iter()
                .collect(),
            _ => Vec::new(),
        };
        for m in moves {
            line.push(m);
            pb.make(m, att);
            let won = self.defend(pb, att, m, depth, line, stop);
            pb.undo();
            if won {
                return true;
            }
            line.pop();
            if self.aborted {
                return false;
            }
        }
        if !self.aborted {
            self.failed[slot] = (tag, depth);
        }
        false
    }

    /// The defender answers the attacker's four just played on `four`.
    fn defend(
        &mut self,
        pb: &mut PatternBoard,
        att: Color,
        four: Idx,
        depth: u8,
        line: &mut Vec<Idx>,
        stop: &mut dyn FnMut() -> bool,
    ) -> bool {
        let def = att.opponent();
        // The attacker had no five point before this four, so its five points lie on the
        // four's lines.
        let Some(block) = pb
            .line_neighbours(four)
            .filter(|&i| pb.is_empty(i) && pb.threat(i, att) == Threat::Five)
            .min()
        else {
            return false;
        };
        let unstoppable = pb.counts().threats[att as usize][Threat::Five as usize] > 1
            || !pb.is_legal(block, def);
        if unstoppable {
            // The defender cannot stop every five: show one reply and the five.
            line.push(block);
            pb.make(block, def);
            let five = first_with(pb, att, Threat::Five);
            pb.undo();
            match five {
                Some(f) => line.push(f),
                None => {
                    line.pop();
                }
            }
            return true;
        }
        line.push(block);
        pb.make(block, def);
        let won = self.attack(pb, att, depth - 1, line, stop);
        pb.undo();
        if !won {
            line.pop();
        }
        won
    }
}

/// The first empty cell (row-major) where `color` has exactly `threat`.
fn first_with(pb: &PatternBoard, color: Color, threat: Threat) -> Option<Idx> {
    if pb.counts().threats[color as usize][threat as usize] == 0 {
        return None;
    }
    pb.all_cells()
        .find(|&i| pb.is_empty(i) && pb.threat(i, color) == threat)
}

/// The attacker's legal fours, strongest first, ties row-major.
fn attacking_fours(pb: &PatternBoard, att: Color) -> Vec<Idx> {
    let mut fours: Vec<(Threat, Idx)> = pb
        .all_cells()
        .filter(|&i| pb.is_empty(i))
        .map(|i| (pb.threat(i, att), i))
        .filter(|&(t, i)| t.is_four() && pb.is_legal(i, att))
        .collect();
    fours.sort_by_key(|&(t, i)| (std::cmp::Reverse(t), i));
    fours.into_iter().map(|(_, i)| i).collect()
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
    fn finds_a_four_three_and_none_without_fours() {
        // Two threes blocked at one end, row 7 and column 8: (8, 7) makes a double four.
        let mut p = pb(
            Rule::Freestyle,
            &[(4, 7), (5, 7), (6, 7), (8, 4), (8, 5), (8, 6)],
            &[(3, 7), (8, 3)],
        );
        let mut never = || false;
        let line = Vcf::new().solve(&mut p, Color::Black, 5, 100_000, &mut never);
        let line = line.expect("a VCF");
        assert_eq!(line.len(), 3, "{line:?}");
        assert_eq!(p.pos(line[0]), Pos::new(8, 7));
        assert!(
            Rule::Freestyle.is_win(p.board(), p.pos(line[2]), Color::Black) || {
                p.make(line[0], Color::Black);
                p.make(line[1], Color::White);
                Rule::Freestyle.is_win(p.board(), p.pos(line[2]), Color::Black)
            }
        );
        let mut q = pb(Rule::Freestyle, &[(7, 7)], &[(8, 8)]);
        assert!(
            Vcf::new()
                .solve(&mut q, Color::Black, 5, 100_000, &mut never)
                .is_none()
        );
    }

    #[test]
    fn a_defender_five_point_must_be_blocked_first() {
        // White has four in a row (a five point at (4, 0)); black's own four elsewhere
        // does not help because blocking is not a four.
        let mut p = pb(
            Rule::Freestyle,
            &[(5, 9), (6, 9), (7, 9), (2, 2)],
            &[(0, 0), (1, 0), (2, 0), (3, 0)],
        );
        let mut never = || false;
        assert!(
            Vcf::new()
                .solve(&mut p, Color::Black, 5, 100_000, &mut never)
                .is_none()
        );
    }
}
