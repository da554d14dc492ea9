//! The tree search: principal variation search over the pattern board with a
//! transposition table, threat-driven move generation, late-move reductions, and a VCF
//! probe at the leaves.
//!
//! Scores are from the side to move's view. A win whose five lands `k` plies below the
//! root scores `WIN - k`, a loss `-(WIN - k)`, so shorter wins and longer losses are
//! preferred.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use super::ordering::{self, Heuristics, NodeFacts, Scored};
use super::params::{
    DELAY_DISTANCE, FUTILITY_DEPTH, IIR_DEPTH, LMR_SCALE, MOVE_FUTILITY_DEPTH, NETWORK_MARGIN,
    QSEARCH_PLAIN_FOURS, RAZOR_DEPTH, TRIVIAL_DEPTH, child_depth, delay_reduction, futility_margin,
    late_move_limit, late_move_reduction, move_futility_margin, razor_margin,
};
use super::threats::{Kind, five_point, fours_near_last, has_flex4, is_threatened};
use super::tt::{Bound, Entry, Tt};
use crate::board::Color;
use crate::eval::incremental::NetworkState;
use crate::eval::{Evaluation, Evaluator};
use crate::pattern::{Idx, PatternBoard, SIDE_KEY, Threat};
use crate::rules::Rule;
use crate::time::Limits;

/// The score of a five on the next ply at the root; mates count down from here.
pub const WIN: i32 = 30_000;
/// Scores beyond this magnitude are mates.
pub const WIN_MIN: i32 = WIN - 1_000;
/// Deepest ply the tree may reach (extensions included).
pub const MAX_PLY: usize = 128;
/// Nodes between two clock checks.
const CHECK_EVERY: u64 = 1024;

/// The table key of a position: the stones' hash, and who is to move.
fn key_of(hash: u64, side: Color) -> u64 {
    hash ^ if side == Color::White { SIDE_KEY } else { 0 }
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

/// What the search keeps for one ply of the current line.
#[derive(Clone, Default)]
struct Frame {
    /// The principal variation from the node at this ply (rebuilt from the child's).
    pv: Vec<Idx>,
    /// The node's static evaluation.
    eval: i32,
    /// The quiet moves that last refuted a node at this ply, newest first.
    killers: [Idx; 2],
    /// The node's moves as generated; reused from node to node to save allocations.
    moves: Vec<Idx>,
    /// The same, scored for ordering.
    ordered: Vec<Scored>,
    /// The quiet moves searched without a cut, for the history's malus.
    failed: Vec<Idx>,
}

/// The state of one search in progress.
pub struct Tree<'a> {
    pub pb: PatternBoard,
    pub tt: &'a Tt,
    pub eval: &'a Evaluator,
    pub limits: &'a Limits,
    pub stop: &'a AtomicBool,
    pub heuristics: Heuristics,
    pub nodes: u64,
    next_check: u64,
    pub aborted: bool,
    /// Root moves not to search (those a multi-PV search has already given).
    pub root_skip: Vec<Idx>,
    /// What each root move has cost, by cell: for the analysis a manager may ask for.
    root_stats: Vec<RootStats>,
    /// The deepest ply reached (quiescence included) since the current root move was made.
    seldepth: usize,
    /// Where a helper thread adds its nodes at each clock check, so that the main thread
    /// can tell the nodes of the whole search while it runs; `published` of them are in.
    shared_nodes: Option<&'a AtomicU64>,
    published: u64,
    /// One frame a ply, the root's first.
    stack: Vec<Frame>,
    lmr: Reductions,
    /// The network's incremental state, when a network evaluates this rule.
    net: Option<NetworkState>,
}

/// What a root move has cost the search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RootStats {
    /// Nodes below the move, over the whole search (every iteration, every line).
    pub nodes: u64,
    /// The deepest ply below the move (quiescence included) in the current iteration; the
    /// caller clears it when an iteration starts.
    pub seldepth: u32,
}

/// Late-move reductions by depth and move number: `ln(depth) * ln(number)`, scaled.
struct Reductions {
    table: Vec<[i32; 64]>,
}

impl Reductions {
    fn new() -> Reductions {
        Reductions {
            table: (0..=MAX_PLY)
                .map(|d| {
                    std::array::from_fn(|n| {
                        if d == 0 || n == 0 {
                            0
                        } else {
                            ((d as f64).ln() * (n as f64).ln() * LMR_SCALE) as i32
                        }
                    })
                })
                .collect(),
        }
    }

    fn get(&self, depth: i32, n: usize) -> i32 {
        self.table[depth.clamp(0, MAX_PLY as i32) as usize][n.min(63)]
    }
}

impl<'a> Tree<'a> {
    pub fn new(
        pb: PatternBoard,
        tt: &'a Tt,
        eval: &'a Evaluator,
        limits: &'a Limits,
        stop: &'a AtomicBool,
    ) -> Tree<'a> {
        let cells = pb.all_cells().map(usize::from).max().unwrap_or(0) + 1;
        let net = eval.network_state(&pb);
        Tree {
            pb,
            tt,
            eval,
            limits,
            stop,
            heuristics: Heuristics::new(cells),
            nodes: 0,
            next_check: CHECK_EVERY,
            aborted: false,
            root_skip: Vec::new(),
            root_stats: vec![RootStats::default(); cells],
            seldepth: 0,
            shared_nodes: None,
            published: 0,
            stack: vec![Frame::default(); MAX_PLY + 1],
            lmr: Reductions::new(),
            net,
        }
    }

    /// The static evaluation of the current position for `side`: the tables', with the
    /// network's when one evaluates this rule and the tables' value lies within
    /// [`NETWORK_MARGIN`] of the window `alpha..=beta` (outside it, a node's decisions
    /// rarely turn on the network's correction).
    fn static_eval(&mut self, side: Color, alpha: i32, beta: i32) -> Evaluation {
        let needed = alpha - NETWORK_MARGIN..=beta + NETWORK_MARGIN;
        self.eval
            .evaluate_with(&self.pb, side, self.net.as_mut(), needed)
    }

    /// Makes a helper thread add its nodes to `total` as it goes (only watched: the
    /// search is the same).
    pub fn publish_nodes(&mut self, total: &'a AtomicU64) {
        self.shared_nodes = Some(total);
    }

    /// Adds the nodes not yet published to the shared count.
    pub fn flush_nodes(&mut self) {
        if let Some(total) = self.shared_nodes {
            total.fetch_add(self.nodes - self.published, Ordering::Relaxed);
            self.published = self.nodes;
        }
    }

    /// What `mv` has cost as a root move.
    #[must_use]
    pub fn root_stats(&self, mv: Idx) -> RootStats {
        self.root_stats
            .get(usize::from(mv))
            .copied()
            .unwrap_or_default()
    }

    /// Forgets the root moves' selective depths (a new iteration).
    pub fn clear_seldepths(&mut self) {
        for s in &mut self.root_stats {
            s.seldepth = 0;
        }
    }

    /// The principal variation of the last search from the root.
    #[must_use]
    pub fn root_pv(&self) -> &[Idx] {
        &self.stack[0].pv
    }

    /// The facts move ordering needs of the node at `ply`, where `side` is to move.
    #[must_use]
    pub fn node_facts(&self, side: Color, ply: usize, tt_move: Option<Idx>) -> NodeFacts<'_> {
        NodeFacts {
            pb: &self.pb,
            side,
            tt_move,
            killers: self.stack[ply].killers,
            prev: self.pb.last_move(),
        }
    }

    fn key(&self, side: Color) -> u64 {
        key_of(self.pb.hash(), side)
    }

    /// Starts loading the table bucket of the position after `side` plays `mv`: called
    /// just before the move is made, whose update hides the memory access.
    fn prefetch_child(&self, mv: Idx, side: Color) {
        self.tt
            .prefetch(key_of(self.pb.hash_after(mv, side), side.opponent()));
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
            self.flush_nodes();
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
        self.stack[ply].pv.clear();
        self.seldepth = self.seldepth.max(ply);
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
        // Not at the root: a value decided there without a move (two five points of the
        // opponent, a double three) would leave the search nothing to play and nothing to
        // report; its moves' own nodes decide the same, each with its move.
        if ply > 0
            && let Some(value) = self.quick_win(side, ply)
        {
            return value;
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.qsearch(side, ply, 0, alpha, beta);
        }

        let key = self.key(side);
        let entry = self.tt.probe(key);
        if let Some(e) = entry
            && !pv_node
            && e.depth >= depth
            && e.bound.cuts(score_from_tt(e.score, ply), alpha, beta)
        {
            return score_from_tt(e.score, ply);
        }
        let tt_move = entry.and_then(|e| e.mv);

        // The static evaluation, and what it allows where the side to move faces no threat
        // (no five point, no open three of the opponent): a node far below alpha is
        // settled by the quiescence search, one far above beta by its evaluation.
        let static_eval = match entry.and_then(|e| e.eval) {
            Some(v) => Evaluation::exact(v),
            None => {
                let e = self.static_eval(side, alpha, beta);
                if e.exact {
                    self.tt.store(key, Entry::evaluation(e.value, pv_node));
                }
                e
            }
        };
        let (static_eval, eval_exact) = (static_eval.value, static_eval.exact);
        self.stack[ply].eval = static_eval;
        let threatened = is_threatened(&self.pb, side);
        let improving = ply >= 2 && static_eval > self.stack[ply - 2].eval;
        if !pv_node && !threatened && ply > 0 {
            // A stored score bounding the evaluation is the better estimate.
            let eval = match entry {
                Some(e)
                    if e.bound.holds(score_from_tt(e.score, ply) > static_eval)
                        && score_from_tt(e.score, ply).abs() < WIN_MIN =>
                {
                    score_from_tt(e.score, ply)
                }
                _ => static_eval,
            };
            if depth <= RAZOR_DEPTH && alpha.abs() < WIN_MIN && eval + razor_margin(depth) < alpha {
                return self.qsearch(side, ply, 0, alpha, alpha + 1);
            }
            if depth <= FUTILITY_DEPTH
                && eval < WIN_MIN
                && beta > -WIN_MIN
                && eval - futility_margin(depth, improving) >= beta
            {
                return eval;
            }
        }

        // Internal iterative reduction: without a table move the ordering is a guess, and
        // a node searched a ply shallower soon stores one.
        let depth = if tt_move.is_none() && depth >= IIR_DEPTH {
            depth - 1
        } else {
            depth
        };

        let mut moves = std::mem::take(&mut self.stack[ply].moves);
        let kind = ordering::generate(&mut self.pb, side, &mut moves);
        if moves.is_empty() {
            self.stack[ply].moves = moves;
            return match kind {
                // The five point cannot be blocked (a renju foul for black).
                Kind::Block => -(WIN - p - 2),
                _ => 0,
            };
        }
        let prev = self.pb.last_move();
        let mut ordered = std::mem::take(&mut self.stack[ply].ordered);
        let policy = self.eval.policy(self.pb.rule());
        let node = self.node_facts(side, ply, tt_move);
        self.heuristics
            .score_moves(policy, &node, &moves, &mut ordered);
        self.stack[ply].moves = moves;
        let mut failed = std::mem::take(&mut self.stack[ply].failed);
        failed.clear();
        let skipping = ply == 0 && !self.root_skip.is_empty();
        if skipping {
            ordered.retain(|s| !self.root_skip.contains(&s.mv));
        }

        let original_alpha = alpha;
        let mut best = -WIN;
        let mut best_move = None;
        let move_limit = late_move_limit(depth, improving);
        // Futility: far enough below alpha, a quiet move that makes no open three for
        // either side will not raise this node above it within the depth left.
        let futile = !pv_node
            && !threatened
            && depth <= MOVE_FUTILITY_DEPTH
            && alpha.abs() < WIN_MIN
            && static_eval + move_futility_margin(depth) <= alpha;
        // The last stones of both sides: against an open three, a four of our own far from
        // both only delays (Rapfi's useless defence). Only a defence node needs them.
        let last_stones = if kind == Kind::Defend {
            [prev, self.pb.last_stone_of(side)].map(|s| s.map(|i| self.pb.pos(i)))
        } else {
            [None; 2]
        };
        for n in 0..ordered.len() {
            ordering::bring_next(&mut ordered, n);
            let mv = ordered[n].mv;
            let forcing = self.pb.threat(mv, side).is_four();
            let quiet = kind == Kind::Quiet
                && !forcing
                && !ordering::is_killer(self.stack[ply].killers, mv);
            let far = if kind == Kind::Defend && forcing && !self.pb.threat(mv, opp).is_four() {
                let at = self.pb.pos(mv);
                last_stones.map(|s| s.is_some_and(|s| s.chebyshev(at) > DELAY_DISTANCE))
            } else {
                [false; 2]
            };
            if far == [true; 2] && ply > 0 && best > -WIN_MIN && depth < TRIVIAL_DEPTH {
                continue;
            }
            // Move-count pruning: far down the list, quiet moves rarely matter, on a
            // principal variation too, as Rapfi does (see [`late_move_limit`]).
            if quiet && ply > 0 && best > -WIN_MIN {
                if n >= move_limit {
                    break;
                }
                let info = self.pb.info(mv);
                if depth < TRIVIAL_DEPTH && info.threat == [Threat::None; 2] {
                    continue;
                }
                if futile
                    && info.threat[side as usize] < Threat::Flex3
                    && info.threat[opp as usize] < Threat::Flex3
                {
                    continue;
                }
            }
            let new_depth = child_depth(kind, depth);
            // Late quiet moves are searched shallower, less so with a good history.
            let reduction = if quiet && n >= 1 && depth >= 2 {
                let history = self.heuristics.history(mv, side);
                late_move_reduction(self.lmr.get(depth, n), pv_node, improving, history)
                    .clamp(0, new_depth - 1)
            } else if far != [false; 2] && n >= 1 && depth >= 2 {
                // Two plies far from the opponent's last stone, one far from ours.
                delay_reduction(far[0], far[1]).clamp(0, new_depth - 1)
            } else {
                0
            };
            self.prefetch_child(mv, side);
            self.pb.make(mv, side);
            let nodes_before = self.nodes;
            if ply == 0 {
                self.seldepth = 0;
            }
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
            if ply == 0 {
                let seldepth = u32::try_from(self.seldepth).unwrap_or(u32::MAX);
                if let Some(s) = self.root_stats.get_mut(usize::from(mv)) {
                    s.nodes += self.nodes - nodes_before;
                    s.seldepth = s.seldepth.max(seldepth);
                }
            }
            if self.aborted {
                self.stack[ply].ordered = ordered;
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    self.push_pv(ply, mv);
                    if alpha >= beta {
                        if kind == Kind::Quiet && !forcing {
                            ordering::add_killer(&mut self.stack[ply].killers, mv);
                            self.heuristics.reward(mv, &failed, side, prev, depth);
                        }
                        break;
                    }
                }
            }
            if kind == Kind::Quiet && !forcing {
                failed.push(mv);
            }
        }
        self.stack[ply].ordered = ordered;
        self.stack[ply].failed = failed;
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if skipping {
            // A value over part of the root's moves is no value of the position.
            return best;
        }
        self.tt.store(
            key,
            Entry {
                score: score_to_tt(best, ply),
                eval: eval_exact.then_some(static_eval),
                depth,
                bound,
                pv: pv_node,
                mv: best_move,
            },
        );
        best
    }

    /// Wins and losses the threat counts show without a search, from `side`'s view at `ply`:
    /// its own five point; two five points of the opponent; an open four it can make while
    /// the opponent cannot even make a four; a four-three, or a double open three, under the
    /// same condition (not for renju's black, whose follow-up may be forbidden). The
    /// opponent's single five point decides nothing here: the caller blocks it.
    fn quick_win(&mut self, side: Color, ply: usize) -> Option<i32> {
        let p = ply as i32;
        let opp = side.opponent();
        let threats = &self.pb.counts().threats;
        let (mine, theirs) = (&threats[side as usize], &threats[opp as usize]);
        if let Some(five) = five_point(&self.pb, side) {
            self.stack[ply].pv.push(five);
            return Some(WIN - p - 1);
        }
        match theirs[Threat::Five as usize] {
            0 => {}
            1 => return None,
            _ => return Some(-(WIN - p - 2)),
        }
        if self.pb.threat_count_at_least(opp, Threat::Block4) > 0 {
            return None;
        }
        if has_flex4(&self.pb, side) {
            return Some(WIN - p - 3);
        }
        let free_follow_up = !(self.pb.rule() == Rule::Renju && side == Color::Black);
        let four_three = mine[Threat::Block4Flex3 as usize] > 0;
        let double_three =
            mine[Threat::Flex3x2 as usize] > 0 && theirs[Threat::Flex4 as usize] == 0;
        (free_follow_up && (four_three || double_three)).then_some(WIN - p - 5)
    }

    /// The quiescence search at the horizon: threats by fours are played out, everything
    /// else is judged by the static evaluation. The side to move may stand pat or play a
    /// four; a side facing a five point only blocks it (and loses if it cannot). Fours come
    /// from around the mover's last stone, where a continuation of fours lives; past the
    /// first attacking moves only fours that make something more (a four with a three or a
    /// two) are tried, which keeps the tree small. `qdepth` counts attacker moves down from 0.
    fn qsearch(&mut self, side: Color, ply: usize, qdepth: i32, mut alpha: i32, beta: i32) -> i32 {
        self.stack[ply].pv.clear();
        self.seldepth = self.seldepth.max(ply);
        if self.tick() {
            return 0;
        }
        let p = ply as i32;
        if let Some(value) = self.quick_win(side, ply) {
            return value;
        }
        let opp = side.opponent();
        if ply >= MAX_PLY {
            return self.static_eval(side, alpha, beta).value;
        }
        if let Some(block) = five_point(&self.pb, opp) {
            if !self.pb.is_legal(block, side) {
                // Renju: black's only block is forbidden.
                return -(WIN - p - 2);
            }
            self.pb.make(block, side);
            let value = -self.qsearch(opp, ply + 1, qdepth, -beta, -alpha);
            self.pb.undo();
            self.push_pv(ply, block);
            return value;
        }
        let key = self.key(side);
        let entry = self.tt.probe(key);
        if let Some(e) = entry
            && e.depth >= 0
            && e.bound.cuts(score_from_tt(e.score, ply), alpha, beta)
        {
            return score_from_tt(e.score, ply);
        }
        let stand_pat = match entry.and_then(|e| e.eval) {
            Some(v) => Evaluation::exact(v),
            None => self.static_eval(side, alpha, beta),
        };
        let (stand_pat, eval_exact) = (stand_pat.value, stand_pat.exact);
        if stand_pat >= beta {
            return stand_pat;
        }
        let original_alpha = alpha;
        alpha = alpha.max(stand_pat);
        let mut best = stand_pat;
        let mut best_move = None;

        let min_threat = if qdepth >= QSEARCH_PLAIN_FOURS {
            Threat::Block4
        } else {
            Threat::Block4Plus
        };
        let mut moves = std::mem::take(&mut self.stack[ply].moves);
        fours_near_last(&self.pb, side, min_threat, &mut moves);
        for &mv in &moves {
            self.prefetch_child(mv, side);
            self.pb.make(mv, side);
            let value = -self.qsearch(opp, ply + 1, qdepth - 1, -beta, -alpha);
            self.pb.undo();
            if self.aborted {
                self.stack[ply].moves = moves;
                return 0;
            }
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    best_move = Some(mv);
                    self.push_pv(ply, mv);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.stack[ply].moves = moves;
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha && best_move.is_some() {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(
            key,
            Entry {
                score: score_to_tt(best, ply),
                eval: eval_exact.then_some(stand_pat),
                depth: 0,
                bound,
                pv: false,
                mv: best_move,
            },
        );
        best
    }

    /// Makes `mv` followed by the child's line the principal variation at `ply`.
    fn push_pv(&mut self, ply: usize, mv: Idx) {
        let (head, tail) = self.stack.split_at_mut(ply + 1);
        let pv = &mut head[ply].pv;
        pv.clear();
        pv.push(mv);
        pv.extend_from_slice(&tail[0].pv);
    }
}
