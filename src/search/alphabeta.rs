//! The tree search: principal variation search over the pattern board with a
//! transposition table, threat-driven move generation, late-move reductions, and a VCF
//! probe at the leaves.
//!
//! Scores are from the side to move's view. A win whose five lands `k` plies below the
//! root scores `WIN - k`, a loss `-(WIN - k)`, so shorter wins and longer losses are
//! preferred.

use std::sync::atomic::AtomicBool;

use super::ordering::{self, Heuristics, Kind, Scored};
use super::tt::{Bound, Tt};
use super::vcf::Vcf;
use crate::board::Color;
use crate::eval::Evaluator;
use crate::limits::Limits;
use crate::pattern::{Idx, PatternBoard, SIDE_KEY, Threat};

/// The score of a five on the next ply at the root; mates count down from here.
pub const WIN: i32 = 30_000;
/// Scores beyond this magnitude are mates.
pub const WIN_MIN: i32 = WIN - 1_000;
/// Deepest ply the tree may reach (extensions included).
pub const MAX_PLY: usize = 128;
/// Nodes between two clock checks.
const CHECK_EVERY: u64 = 1024;
/// Attacker moves and nodes a leaf VCF probe may spend. Small: the tree follows fours
/// itself, and on renju threat puzzles (a sample of `vct-puzzles.jsonl`, 0.5 s each) a
/// 200-node probe proved fewer wins than a 20-node one.
const LEAF_VCF_MOVES: u8 = 6;
const LEAF_VCF_NODES: u64 = 20;

/// How many moves a non-PV quiet node searches before pruning the rest.
fn late_move_limit(depth: i32) -> usize {
    (4 + 2 * depth * depth) as usize
}

/// Converts a score relative to the node at `ply` into one relative to the root, and back.
fn score_to_tt(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if score >= WIN_MIN {
        score + ply
    } else if score <= -WIN_MIN {
        score - ply
    } else {
        score
    }
}

fn score_from_tt(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if score >= WIN_MIN {
        score - ply
    } else if score <= -WIN_MIN {
        score + ply
    } else {
        score
    }
}

/// The state of one search in progress.
pub struct Tree<'a> {
    pub pb: PatternBoard,
    pub tt: &'a mut Tt,
    pub vcf: &'a mut Vcf,
    pub eval: &'a Evaluator,
    pub limits: &'a Limits,
    pub stop: &'a AtomicBool,
    pub heuristics: Heuristics,
    pub nodes: u64,
    next_check: u64,
    pub aborted: bool,
    /// Principal variations per ply (triangular).
    pub pv: Vec<Vec<Idx>>,
    /// Move lists per ply, reused to avoid allocation.
    gen_buf: Vec<Vec<Idx>>,
    order_buf: Vec<Vec<Scored>>,
}

impl<'a> Tree<'a> {
    pub fn new(
        pb: PatternBoard,
        tt: &'a mut Tt,
        vcf: &'a mut Vcf,
        eval: &'a Evaluator,
        limits: &'a Limits,
        stop: &'a AtomicBool,
    ) -> Tree<'a> {
        let cells = pb.all_cells().map(usize::from).max().unwrap_or(0) + 1;
        Tree {
            pb,
            tt,
            vcf,
            eval,
            limits,
            stop,
            heuristics: Heuristics::new(cells, MAX_PLY + 1),
            nodes: 0,
            next_check: CHECK_EVERY,
            aborted: false,
            pv: vec![Vec::new(); MAX_PLY + 1],
            gen_buf: vec![Vec::new(); MAX_PLY + 1],
            order_buf: vec![Vec::new(); MAX_PLY + 1],
        }
    }

    fn key(&self, side: Color) -> u64 {
        self.pb.hash() ^ if side == Color::White { SIDE_KEY } else { 0 }
    }

    /// Counts a node and checks the limits; true when the search must unwind.
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.aborted {
            return true;
        }
        if self.limits.max_nodes.is_some_and(|n| self.nodes >= n) {
            self.aborted = true;
        } else if self.nodes >= self.next_check {
            // Leaf VCF probes add nodes in bulk, so a threshold, not a multiple.
            self.next_check = self.nodes + CHECK_EVERY;
            self.aborted = self.limits.should_stop(self.stop);
        }
        self.aborted
    }

    /// Searches the node where `side` is to move, `ply` plies below the root.
    pub fn search(
        &mut self,
        side: Color,
        ply: usize,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        self.pv[ply].clear();
        if self.tick() {
            return 0;
        }
        let opp = side.opponent();
        let pv_node = beta - alpha > 1;
        let p = ply as i32;

        // Mate-distance pruning: nothing here beats a five on the next ply.
        alpha = alpha.max(-(WIN - p));
        beta = beta.min(WIN - p - 1);
        if alpha >= beta {
            return alpha;
        }
        if let Some(five) = ordering::five_point(&self.pb, side) {
            self.pv[ply].push(five);
            return WIN - p - 1;
        }
        let opp_fives = self.pb.counts().threats[opp as usize][Threat::Five as usize];
        if opp_fives >= 2 {
            return -(WIN - p - 2);
        }
        if opp_fives == 0
            && self.pb.threat_count_at_least(opp, Threat::Block4) == 0
            && ordering::has_flex4(&self.pb, side)
        {
            return WIN - p - 3;
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.leaf(side, ply, opp_fives > 0);
        }

        let key = self.key(side);
        let entry = self.tt.probe(key);
        if let Some(e) = entry
            && !pv_node
            && e.depth >= depth
        {
            let s = score_from_tt(e.score, ply);
            let usable = match e.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
            };
            if usable {
                return s;
            }
        }
        let tt_move = entry.and_then(|e| e.mv);

        let mut moves = std::mem::take(&mut self.gen_buf[ply]);
        let kind = ordering::generate(&mut self.pb, side, &mut moves);
        if moves.is_empty() {
            self.gen_buf[ply] = moves;
            return match kind {
                // The five point cannot be blocked (a renju foul for black).
                Kind::Block => -(WIN - p - 2),
                _ => 0,
            };
        }
        let mut ordered = std::mem::take(&mut self.order_buf[ply]);
        self.heuristics
            .order(&self.pb, side, ply, tt_move, &moves, &mut ordered);
        self.gen_buf[ply] = moves;

        let original_alpha = alpha;
        let mut best = -WIN;
        let mut best_move = None;
        for (n, s) in ordered.iter().enumerate() {
            let mv = s.mv;
            let forcing = self.pb.threat(mv, side).is_four();
            let quiet = kind == Kind::Quiet && !forcing && !self.heuristics.is_killer(mv, ply);
            // Move-count pruning: far down a non-PV list, quiet moves rarely matter.
            if quiet && !pv_node && n >= late_move_limit(depth) && best > -WIN_MIN {
                break;
            }
            // Forced replies (a block, a defence against an open three) cost no depth: the
            // attacker's threat sequence is followed to its end. A counter-four is an
            // attack of its own and pays, or chains of them would never end.
            let forced = kind == Kind::Block || (kind == Kind::Defend && !forcing);
            let new_depth = if forced { depth } else { depth - 1 };
            let reduction = if quiet && n >= 2 && depth >= 3 {
                1 + i32::from(n >= 8) + i32::from(!pv_node && n >= 16)
            } else {
                0
            };
            self.pb.make(mv, side);
            let mut score;
            if n == 0 {
                score = -self.search(opp, ply + 1, new_depth, -beta, -alpha);
            } else {
                score = -self.search(opp, ply + 1, new_depth - reduction, -alpha - 1, -alpha);
                if score > alpha && reduction > 0 {
                    score = -self.search(opp, ply + 1, new_depth, -alpha - 1, -alpha);
                }
                if score > alpha && score < beta {
                    score = -self.search(opp, ply + 1, new_depth, -beta, -alpha);
                }
            }
            self.pb.undo();
            if self.aborted {
                self.order_buf[ply] = ordered;
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(mv);
                    head[ply].extend_from_slice(&tail[0]);
                    if alpha >= beta {
                        if kind == Kind::Quiet {
                            self.heuristics.reward(mv, side, ply, depth);
                        }
                        break;
                    }
                }
            }
        }
        self.order_buf[ply] = ordered;
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(key, score_to_tt(best, ply), depth, bound, best_move);
        best
    }

    /// The horizon: a short VCF probe for the side to move, else the static evaluation.
    fn leaf(&mut self, side: Color, ply: usize, must_block: bool) -> i32 {
        // A VCF needs a four followed by another: two fours, or one with more behind it.
        let promising = self.pb.threat_count_at_least(side, Threat::Block4Plus) > 0
            || self.pb.threat_count_at_least(side, Threat::Block4) >= 2;
        if !must_block && promising {
            let before = self.vcf.nodes();
            let found = self
                .vcf
                .probe(&mut self.pb, side, LEAF_VCF_MOVES, LEAF_VCF_NODES);
            self.nodes += self.vcf.nodes() - before;
            if let Some(line) = found {
                return WIN - ply as i32 - line.len() as i32;
            }
        }
        self.eval.evaluate(&self.pb, side)
    }
}
