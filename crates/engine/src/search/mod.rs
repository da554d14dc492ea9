//! The full-strength search: the [`Searcher`] owns the transposition table and answers a
//! [`Request`] with a [`SearchResult`].
//!
//! One search runs: the immediate checks (our five, the opponent's five point), a VCF
//! solver at the root that plays a found forced win at once, then iterative deepening of
//! the principal variation search with aspiration windows. It obeys [`Limits`]: no new
//! iteration after the soft deadline (as the [`Clock`] moves it), the hard deadline, stop
//! flag and node limit checked inside the tree, the depth limit between iterations.
//! Whatever happens it answers an empty cell, legal for the mover whenever one exists.
//! Its tuning constants are all in [`params`].

pub mod alphabeta;
pub mod ordering;
pub mod params;
pub mod threats;
pub mod tt;
pub mod vcf;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::board::{Board, Color, Pos};
use crate::eval::{self, Evaluator, Policy};
use crate::pattern::{Idx, PatternBoard, Tables};
use crate::rules::Rule;
use crate::time::{Clock, Limits};
use alphabeta::{MAX_PLY, Tree, WIN, WIN_MIN};
use ordering::NodeFacts;
use params::{
    ASPIRATION, ASPIRATION_GROWTH, ROOT_VCF_MOVES, ROOT_VCF_NODE_SHARE, ROOT_VCF_NODES,
    ROOT_VCF_TIME_SHARE, child_depth,
};
use tt::Tt;
use vcf::Vcf;

/// Table size when the manager sets no memory limit.
pub const DEFAULT_TT_BYTES: usize = 64 << 20;
/// The most search threads Hoshi runs.
pub const MAX_THREADS: usize = 64;

/// Memory kept for everything but the table: code, stacks, pattern tables, the VCF cache
/// and the allocator's slack, with room to spare (Piskvork measures the peak working set,
/// the Gomocup judge the unique set size of the process tree).
const RESERVED_BYTES: u64 = 48 << 20;
/// The largest table Hoshi allocates, whatever the limit.
pub const MAX_TT_BYTES: u64 = 4 << 30;

/// The stop flag of a request that gives none: nobody raises it.
static NEVER_STOPPED: AtomicBool = AtomicBool::new(false);

/// The table size for a process limited to `max_memory` bytes (`INFO max_memory`; 0 means
/// no limit) whose table was asked to take `wanted` bytes (`INFO hash_size`; 0: no
/// wish): the wish, within what the limit leaves after `RESERVED_BYTES` so that the
/// whole process stays under it; without a wish, all that the limit leaves, or
/// [`DEFAULT_TT_BYTES`] without a limit. [`Searcher::new`] rounds it down further to a
/// power of two of entries.
#[must_use]
pub fn table_bytes(max_memory: u64, wanted: u64) -> usize {
    let wish = match (wanted, max_memory) {
        (0, 0) => DEFAULT_TT_BYTES as u64,
        (0, _) => u64::MAX,
        (w, _) => w,
    };
    let allowed = if max_memory == 0 {
        u64::MAX
    } else {
        max_memory.saturating_sub(RESERVED_BYTES)
    };
    let bytes = wish.min(allowed).min(MAX_TT_BYTES);
    usize::try_from(bytes).unwrap_or(usize::MAX)
}

/// Plies until the game ends by five for a search score: positive when the side it
/// scores wins, negative when it loses, `None` when the score is no mate.
#[must_use]
pub fn mate_in(score: i32) -> Option<i32> {
    if score >= WIN_MIN {
        Some(WIN - score)
    } else if score <= -WIN_MIN {
        Some(-(WIN + score))
    } else {
        None
    }
}

/// The side to move's win probability for a search score: 1 for a proved win, 0 for a
/// proved loss, else the logistic curve of the evaluation's units under `rule`
/// ([`eval::logistic_scale`]), as Rapfi's `valueToWinRate`.
#[must_use]
pub fn win_rate(score: i32, rule: Rule) -> f64 {
    match mate_in(score) {
        Some(n) if n > 0 => 1.0,
        Some(_) => 0.0,
        None => 1.0 / (1.0 + (-f64::from(score) / eval::logistic_scale(rule)).exp()),
    }
}

/// One search to run: the position, the side to move, what bounds the search and what it
/// reports. [`Request::new`] asks for the common case, one best move within the limits;
/// [`Request::stop`], [`Request::lines`] and [`Request::observe`] add the rest.
pub struct Request<'a> {
    pub board: &'a Board,
    pub rule: Rule,
    /// The side to move.
    pub me: Color,
    pub limits: Limits,
    /// Raised from outside to demand an answer now; `None`: only the limits stop it.
    pub stop: Option<&'a AtomicBool>,
    /// How many best root moves to search, each to the same depth (at least one).
    pub lines: usize,
    /// Told what the main thread knows after each completed iteration, or once about a
    /// move found without one. It only watches: the search is the same with or without it.
    pub observer: Option<&'a mut dyn FnMut(&Progress)>,
}

impl<'a> Request<'a> {
    /// The best move for `me` on `board` under `rule`, within `limits`.
    #[must_use]
    pub fn new(board: &'a Board, rule: Rule, me: Color, limits: Limits) -> Request<'a> {
        Request {
            board,
            rule,
            me,
            limits,
            stop: None,
            lines: 1,
            observer: None,
        }
    }

    /// Stops when `flag` is raised.
    #[must_use]
    pub fn stop(self, flag: &'a AtomicBool) -> Request<'a> {
        Request {
            stop: Some(flag),
            ..self
        }
    }

    /// Searches the `n` best root moves (multi-PV) and returns them in
    /// [`SearchResult::lines`], best first. A move found by the root's forced-win checks
    /// comes alone.
    #[must_use]
    pub fn lines(self, n: usize) -> Request<'a> {
        Request { lines: n, ..self }
    }

    /// Tells `observer` what the search knows after each completed iteration (or once,
    /// about a move found without iterating: see [`Progress::searched`]).
    #[must_use]
    pub fn observe(self, observer: &'a mut dyn FnMut(&Progress)) -> Request<'a> {
        Request {
            observer: Some(observer),
            ..self
        }
    }

    fn stop_flag(&self) -> &'a AtomicBool {
        self.stop.unwrap_or(&NEVER_STOPPED)
    }
}

/// The answer of one search (`protocol::reply` writes it as a `MESSAGE` line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play.
    pub best: Pos,
    /// Its value for the mover ([`SearchResult::mate_in`] tells mates apart).
    pub score: i32,
    /// The last completed iteration (0 when the answer came before any).
    pub depth: u32,
    /// Nodes visited, tree and VCF.
    pub nodes: u64,
    /// The expected line, starting with `best`.
    pub pv: Vec<Pos>,
    /// Wall-clock time spent.
    pub elapsed: Duration,
    /// The best root moves, best first, each with its value and line (the first is
    /// `best`); more than one when several were asked for.
    pub lines: Vec<RootMove>,
}

/// What the search has found when an iteration completes, or the move found without
/// iterating: handed to the observer of a [`Request`] (Yixin-Board's realtime display, the
/// analysis lines of `INFO show_detail`), never acted upon.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The depth just completed; for a move found without iterating, the plies to the
    /// five it forces (1 for a five on the board), else 0.
    pub depth: u32,
    /// The best root moves so far, best first (as [`SearchResult::lines`]).
    pub lines: Vec<RootMove>,
    /// Nodes searched so far by every thread (the helpers' as they last reported them).
    pub nodes: u64,
    /// Time since the search began.
    pub elapsed: Duration,
    /// False for the one report about a move found without iterating: a five, a root VCF,
    /// or no time for even one iteration.
    pub searched: bool,
}

/// One root move of a search, with its value for the mover and its expected line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootMove {
    pub mv: Pos,
    pub score: i32,
    /// The expected line, starting with `mv`.
    pub pv: Vec<Pos>,
    /// Nodes the main thread searched below the move, over all iterations (0 for a move
    /// found without iterating).
    pub nodes: u64,
    /// The deepest ply the main thread reached below the move, quiescence included, in the
    /// last iteration (the move itself is ply 0, its reply 1; 0 without iterating).
    pub seldepth: u32,
}

impl RootMove {
    /// The root move that starts `pv` (in `pb`'s cells, not empty), valued `score`, with
    /// no cost recorded.
    fn at(pb: &PatternBoard, score: i32, pv: &[Idx]) -> RootMove {
        RootMove {
            mv: pb.pos(pv[0]),
            score,
            pv: pv.iter().map(|&i| pb.pos(i)).collect(),
            nodes: 0,
            seldepth: 0,
        }
    }
}

impl SearchResult {
    /// The result of a search on `board` begun at `start`: the best root moves `lines`,
    /// best first, whose first is the answer; with none (a full board), the centre, valued
    /// 0, with no line. Every exit of [`Searcher::search`] builds its answer here.
    fn new(
        lines: Vec<RootMove>,
        depth: u32,
        nodes: u64,
        start: Instant,
        board: &Board,
    ) -> SearchResult {
        let (best, score, pv) = match lines.first() {
            Some(first) => (first.mv, first.score, first.pv.clone()),
            None => (board.center(), 0, Vec::new()),
        };
        SearchResult {
            best,
            score,
            depth,
            nodes,
            pv,
            elapsed: start.elapsed(),
            lines,
        }
    }

    /// Plies until the game ends by five: positive when the mover wins, negative when he
    /// loses, `None` when the score is no mate.
    #[must_use]
    pub fn mate_in(&self) -> Option<i32> {
        mate_in(self.score)
    }

    /// Nodes per second.
    #[must_use]
    pub fn speed(&self) -> u64 {
        let micros = self.elapsed.as_micros().max(1);
        u64::try_from(u128::from(self.nodes) * 1_000_000 / micros).unwrap_or(u64::MAX)
    }
}

/// The full-strength searcher. Keep one per game session: the table carries knowledge
/// from move to move; `clear` it for a new game.
pub struct Searcher {
    tt: Tt,
    vcf: Vcf,
    eval: Evaluator,
    /// The rule of the previous search: what was learnt under another rule is dropped.
    rule: Option<Rule>,
    /// Search threads, the caller's included.
    threads: usize,
}

impl Searcher {
    /// A searcher whose table takes at most `tt_bytes` bytes.
    #[must_use]
    pub fn new(tt_bytes: usize) -> Searcher {
        Searcher {
            tt: Tt::new(tt_bytes),
            vcf: Vcf::new(),
            eval: Evaluator::default(),
            rule: None,
            threads: 1,
        }
    }

    /// Replaces the table by one of at most `tt_bytes` bytes (its content is lost).
    pub fn resize(&mut self, tt_bytes: usize) {
        // Drop the old table first so both never live at once.
        self.tt = Tt::new(0);
        self.tt = Tt::new(tt_bytes);
    }

    /// Searches with `n` threads sharing the table (at least one). One thread is
    /// deterministic; more are faster but their moves depend on timing.
    pub fn set_threads(&mut self, n: usize) {
        self.threads = n.clamp(1, MAX_THREADS);
    }

    /// Search threads, the caller's included.
    #[must_use]
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Bytes taken by the table.
    #[must_use]
    pub fn tt_bytes(&self) -> usize {
        self.tt.bytes()
    }

    /// Gets ready to search under `rule`: builds its pattern tables (a tenth of a second
    /// the first time in a process, better spent before the clock runs) and forgets what
    /// was learnt under another rule. Calling it is optional.
    pub fn prepare(&mut self, rule: Rule) {
        let _ = Tables::get(rule);
        if self.rule.replace(rule).is_some_and(|r| r != rule) {
            self.clear();
        }
    }

    /// Evaluates with `eval` from the next search on (`--weights`, `INFO weights`, a new
    /// strength); what was learnt with another evaluation is dropped.
    pub fn set_evaluator(&mut self, eval: Evaluator) {
        if eval.id() != self.eval.id() {
            self.eval = eval;
            self.clear();
        }
    }

    /// The evaluation the next search plays with.
    #[must_use]
    pub fn evaluator(&self) -> &Evaluator {
        &self.eval
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.vcf.clear();
    }

    /// Runs `request`: chooses a move for its side to move, with as many best root moves
    /// as it asks for.
    pub fn search(&mut self, request: Request<'_>) -> SearchResult {
        let start = Instant::now();
        let stop = request.stop_flag();
        let Request {
            board,
            rule,
            me,
            limits,
            lines,
            observer,
            ..
        } = request;
        let limits = &limits;
        self.prepare(rule);
        self.tt.new_search();
        let mut pb = PatternBoard::with_values(board, rule, self.eval.cell_values(rule));
        let Some(fallback) = fallback_move(&pb, me, self.eval.policy(rule)) else {
            // No empty cell at all: the manager should not have asked.
            return SearchResult::new(Vec::new(), 0, 0, start, board);
        };
        let alone = |pb: &PatternBoard, score: i32, pv: &[Idx]| vec![RootMove::at(pb, score, pv)];
        let mut quiet = |_: &Progress| {};
        let observe = observer.unwrap_or(&mut quiet);
        if let Some(five) = threats::five_point(&pb, me) {
            let lines = alone(&pb, WIN - 1, &[five]);
            return unsearched(observe, SearchResult::new(lines, 0, 0, start, board));
        }
        if limits.should_stop(stop) || pb.all_cells().all(|i| !pb.is_candidate(i)) {
            let lines = alone(&pb, 0, &[fallback]);
            return unsearched(observe, SearchResult::new(lines, 0, 0, start, board));
        }

        // The root VCF: a forced win is played at once.
        let vcf_before = self.vcf.nodes();
        let budget = limits.max_nodes.map_or(ROOT_VCF_NODES, |n| {
            n.min(ROOT_VCF_NODES) / ROOT_VCF_NODE_SHARE
        });
        // A share of the time, so that a fruitless solve leaves the search its iterations.
        let vcf_deadline = limits
            .soft_deadline
            .or(limits.deadline)
            .map(|d| start + d.saturating_duration_since(start) / ROOT_VCF_TIME_SHARE);
        let mut vcf_stop =
            || limits.should_stop(stop) || vcf_deadline.is_some_and(|d| Instant::now() >= d);
        let line = self
            .vcf
            .solve(&mut pb, me, ROOT_VCF_MOVES, budget, &mut vcf_stop);
        let vcf_nodes = self.vcf.nodes() - vcf_before;
        if let Some(line) = line
            && !line.is_empty()
        {
            let score = WIN - line.len() as i32;
            let lines = alone(&pb, score, &line);
            return unsearched(
                observe,
                SearchResult::new(lines, 0, vcf_nodes, start, board),
            );
        }

        let max_depth = limits
            .max_depth
            .map_or(MAX_PLY as i32 - 8, |d| i32::try_from(d).unwrap_or(i32::MAX))
            .clamp(1, MAX_PLY as i32 - 8);
        let helper_nodes = AtomicU64::new(0);
        let plan = Deepening {
            me,
            max_depth,
            lines: lines.max(1),
            start,
            limits,
            helper_nodes: &helper_nodes,
        };
        let helpers_stop = AtomicBool::new(false);
        let helper_count = self.threads.saturating_sub(1);
        let (tt, eval) = (&self.tt, &self.eval);
        let (lines, depth, nodes, unsearched_answer) = std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..=helper_count)
                .map(|id| {
                    let pb = PatternBoard::with_values(board, rule, eval.cell_values(rule));
                    let helpers_stop = &helpers_stop;
                    let plan = &plan;
                    scope.spawn(move || {
                        let mut tree = Tree::new(pb, tt, eval, limits, helpers_stop);
                        tree.publish_nodes(plan.helper_nodes);
                        iterate(&mut tree, plan, 1 + (id % 2) as i32, None);
                        tree.nodes
                    })
                })
                .collect();
            let mut tree = Tree::new(pb, tt, eval, limits, stop);
            tree.nodes = vcf_nodes;
            let (found, depth) = iterate(&mut tree, &plan, 1, Some(&mut *observe));
            helpers_stop.store(true, Ordering::Relaxed);
            let helper_nodes: u64 = helpers.into_iter().map(|h| h.join().unwrap_or(0)).sum();
            let lines = if found.is_empty() {
                // Not even depth 1 completed: the move given without a search.
                alone(&tree.pb, 0, &[fallback])
            } else {
                root_moves(&tree, &found)
            };
            (lines, depth, tree.nodes + helper_nodes, found.is_empty())
        });
        let result = SearchResult::new(lines, depth, nodes, start, board);
        if unsearched_answer {
            return unsearched(observe, result);
        }
        result
    }

    /// Exact values at `depth` of the most promising root moves of `request`'s side to
    /// move: the first `tried` in the search's move order (`first`, say the move a search
    /// just chose, first), each searched with a full window, best value first (ties by
    /// position). A small multi-PV for the weakened levels' pick; the root's move
    /// generation keeps its floor (only the block against a five point, only defences
    /// against an open four). Only the request's position, limits and stop flag count; a
    /// search cut short by them ends the list early, so it may be empty.
    pub fn root_values(
        &mut self,
        request: &Request<'_>,
        depth: u32,
        tried: usize,
        first: Pos,
    ) -> Vec<(Pos, i32)> {
        let Request {
            board, rule, me, ..
        } = *request;
        self.prepare(rule);
        let mut pb = PatternBoard::with_values(board, rule, self.eval.cell_values(rule));
        let mut moves = Vec::new();
        let kind = ordering::generate(&mut pb, me, &mut moves);
        let first = board.is_empty_at(first).then(|| pb.idx(first));
        let mut tree = Tree::new(
            pb,
            &self.tt,
            &self.eval,
            &request.limits,
            request.stop_flag(),
        );
        let mut ordered = Vec::new();
        let root = NodeFacts {
            prev: None,
            ..tree.node_facts(me, 0, first)
        };
        tree.heuristics
            .score_moves(self.eval.policy(rule), &root, &moves, &mut ordered);
        ordering::sort(&mut ordered);
        let depth = i32::try_from(depth)
            .unwrap_or(i32::MAX)
            .clamp(1, MAX_PLY as i32 - 8);
        let mut values = Vec::new();
        for s in ordered.iter().take(tried) {
            let child = child_depth(kind, depth);
            tree.pb.make(s.mv, me);
            let value = -tree.search(me.opponent(), 1, child, -WIN, WIN);
            tree.pb.undo();
            if tree.aborted {
                break;
            }
            values.push((tree.pb.pos(s.mv), value));
        }
        values.sort_by_key(|&(p, v)| (std::cmp::Reverse(v), p));
        values
    }
}

/// Tells `observe` about `result`, an answer found without iterating, and returns it.
fn unsearched(observe: &mut dyn FnMut(&Progress), result: SearchResult) -> SearchResult {
    let plies = result.mate_in().map_or(0, |n| n.unsigned_abs());
    observe(&Progress {
        depth: plies,
        lines: result.lines.clone(),
        nodes: result.nodes,
        elapsed: result.elapsed,
        searched: false,
    });
    result
}

/// What every thread of one search runs: iterative deepening for `me` to `max_depth`, of
/// the `lines` best root moves, within `limits`.
struct Deepening<'a> {
    me: Color,
    max_depth: i32,
    lines: usize,
    start: Instant,
    limits: &'a Limits,
    /// The helpers' nodes, as they publish them.
    helper_nodes: &'a AtomicU64,
}

/// A root move's value and line, in the tree's cells.
#[derive(Clone, Debug)]
struct RootPv {
    score: i32,
    pv: Vec<Idx>,
}

/// Root lines in board cells, with what each move cost `tree`.
fn root_moves(tree: &Tree<'_>, lines: &[RootPv]) -> Vec<RootMove> {
    lines
        .iter()
        .map(|l| {
            let stats = tree.root_stats(l.pv[0]);
            RootMove {
                nodes: stats.nodes,
                seldepth: stats.seldepth,
                ..RootMove::at(&tree.pb, l.score, &l.pv)
            }
        })
        .collect()
}

/// Iterative deepening from `first_depth`: each depth searches the `lines` best root
/// moves in turn (each with the ones before it excluded), until a limit, a mate within the
/// horizon, or (for the main thread, the one with an observer) the clock says stop.
/// Returns the lines of the last completed depth, best first, and that depth.
fn iterate(
    tree: &mut Tree<'_>,
    plan: &Deepening<'_>,
    first_depth: i32,
    mut observe: Option<&mut dyn FnMut(&Progress)>,
) -> (Vec<RootPv>, u32) {
    let main = observe.is_some();
    let mut lines: Vec<RootPv> = Vec::new();
    let mut completed = 0;
    let mut clock = Clock::new(plan.start, plan.limits);
    for depth in first_depth..=plan.max_depth {
        if main && depth > first_depth && clock.should_stop() {
            break;
        }
        tree.root_skip.clear();
        tree.clear_seldepths();
        let mut fresh: Vec<RootPv> = Vec::new();
        for k in 0..plan.lines {
            let prev = lines.get(k).map_or(0, |l| l.score);
            let score = aspiration(tree, plan.me, depth, prev);
            if tree.aborted {
                break;
            }
            let Some(&mv) = tree.root_pv().first() else {
                // Every root move is excluded already.
                break;
            };
            fresh.push(RootPv {
                score,
                pv: tree.root_pv().to_vec(),
            });
            tree.root_skip.push(mv);
        }
        if fresh.is_empty() {
            break;
        }
        // An iteration cut short keeps the deeper values of the lines it finished.
        let done = fresh.len();
        let moves: Vec<Idx> = fresh.iter().map(|l| l.pv[0]).collect();
        lines.retain(|l| !moves.contains(&l.pv[0]));
        fresh.extend(lines.drain(..).take(plan.lines.saturating_sub(done)));
        lines = fresh;
        // Later lines were searched with earlier ones excluded, in windows of their own, so
        // one may come out better: the order is by value (stable, so ties keep the search's).
        lines.sort_by_key(|l| std::cmp::Reverse(l.score));
        if tree.aborted {
            break;
        }
        completed = depth as u32;
        let best = &lines[0];
        log::debug!(
            "depth {depth} score {} nodes {} best {} after {:?}",
            best.score,
            tree.nodes,
            tree.pb.pos(best.pv[0]),
            plan.start.elapsed()
        );
        if let Some(observe) = observe.as_mut() {
            observe(&Progress {
                depth: completed,
                lines: root_moves(tree, &lines),
                nodes: tree.nodes + plan.helper_nodes.load(Ordering::Relaxed),
                elapsed: plan.start.elapsed(),
                searched: true,
            });
        }
        clock.completed(depth, best.pv[0], best.score);
        if best.score.abs() >= WIN_MIN && (WIN - best.score.abs()) <= depth && plan.lines == 1 {
            // A mate within the horizon: deeper iterations cannot change it.
            break;
        }
    }
    tree.root_skip.clear();
    (lines, completed)
}

/// One iteration with an aspiration window around the previous score, widened on failure.
fn aspiration(tree: &mut Tree<'_>, me: Color, depth: i32, prev: i32) -> i32 {
    if depth < 3 || prev.abs() >= WIN_MIN {
        return tree.search(me, 0, depth, -WIN, WIN);
    }
    let mut delta = ASPIRATION;
    let (mut alpha, mut beta) = (prev - delta, prev + delta);
    loop {
        let score = tree.search(me, 0, depth, alpha, beta);
        if tree.aborted {
            return score;
        }
        if score <= alpha && alpha > -WIN {
            alpha = (alpha - delta).max(-WIN);
        } else if score >= beta && beta < WIN {
            beta = (beta + delta).min(WIN);
        } else {
            // Inside the window, or against a bound that cannot widen (a root with no
            // move left to search scores exactly -WIN).
            return score;
        }
        delta *= ASPIRATION_GROWTH;
    }
}

/// The move given when there is no time to search: the best-looking legal candidate, else
/// (no stone on the board) the legal cell nearest the centre, else any empty cell; `None`
/// on a full board.
fn fallback_move(pb: &PatternBoard, me: Color, policy: &Policy) -> Option<Idx> {
    let legal = |i: Idx| pb.is_legal(i, me);
    let candidates = pb.all_cells().filter(|&i| pb.is_candidate(i) && legal(i));
    candidates
        .map(|i| (policy.score(pb.info(i), me), i))
        .max_by_key(|&(s, i)| (s, std::cmp::Reverse(i)))
        .map(|(_, i)| i)
        .or_else(|| {
            let c = pb.board().center();
            let dist = |i: Idx| {
                let p = pb.pos(i);
                (i32::from(p.x) - i32::from(c.x)).abs() + (i32::from(p.y) - i32::from(c.y)).abs()
            };
            pb.all_cells()
                .filter(|&i| legal(i))
                .min_by_key(|&i| (dist(i), i))
        })
        .or_else(|| pb.all_cells().find(|&i| pb.is_empty(i)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board_with(black: &[(u8, u8)], white: &[(u8, u8)]) -> Board {
        Board::with_stones(15, 15, black, white).unwrap()
    }

    fn depth(d: u32) -> Limits {
        Limits {
            max_depth: Some(d),
            ..Limits::default()
        }
    }

    #[test]
    fn the_table_takes_the_wish_within_the_memory_limit() {
        const MB: u64 = 1 << 20;
        let mb = |n: u64| usize::try_from(n * MB).unwrap();
        assert_eq!(table_bytes(0, 0), DEFAULT_TT_BYTES);
        assert_eq!(table_bytes(350 * MB, 0), mb(350) - mb(48));
        assert_eq!(table_bytes(0, 16 * MB), mb(16));
        assert_eq!(table_bytes(100 * MB, 1 << 40), mb(52));
        assert_eq!(
            table_bytes(0, 1 << 40),
            usize::try_from(MAX_TT_BYTES).unwrap()
        );
        assert_eq!(table_bytes(10 * MB, 0), 0);
    }

    #[test]
    fn plays_its_five_and_blocks_the_opponents() {
        let mut s = Searcher::new(1 << 20);
        let b = board_with(
            &[(3, 3), (4, 3), (5, 3), (6, 3)],
            &[(3, 4), (4, 4), (5, 4), (9, 9)],
        );
        let r = s.search(Request::new(&b, Rule::Standard, Color::Black, depth(4)));
        assert!([Pos::new(2, 3), Pos::new(7, 3)].contains(&r.best), "{r:?}");
        assert_eq!(r.mate_in(), Some(1));
        let b = board_with(
            &[(3, 3), (4, 3), (5, 3), (6, 3), (12, 12)],
            &[(2, 3), (9, 9), (9, 10), (0, 14)],
        );
        let r = s.search(Request::new(&b, Rule::Standard, Color::White, depth(4)));
        assert_eq!(r.best, Pos::new(7, 3), "{r:?}");
    }

    #[test]
    fn a_root_decided_by_threats_is_searched_for_its_move_and_value() {
        // Black faces white's open four: lost, whatever it blocks, in two plies.
        let b = board_with(
            &[(1, 1), (3, 3), (5, 1)],
            &[(7, 7), (7, 8), (7, 9), (7, 10)],
        );
        let r = Searcher::new(1 << 20).search(Request::new(
            &b,
            Rule::Freestyle,
            Color::Black,
            depth(4),
        ));
        assert!([Pos::new(7, 6), Pos::new(7, 11)].contains(&r.best), "{r:?}");
        assert_eq!((r.mate_in(), r.depth >= 1), (Some(-2), true), "{r:?}");
        // White has a double open three at (7, 7), black no three or four to answer with:
        // the search plays it and reports the win.
        let b = board_with(
            &[(0, 0), (14, 0), (0, 14), (14, 14)],
            &[(5, 7), (6, 7), (7, 5), (7, 6)],
        );
        let r = Searcher::new(1 << 20).search(Request::new(
            &b,
            Rule::Freestyle,
            Color::White,
            depth(6),
        ));
        assert_eq!(r.best, Pos::new(7, 7), "{r:?}");
        assert!(r.mate_in().is_some_and(|n| n > 0), "{r:?}");
    }

    #[test]
    fn answers_a_legal_move_when_stopped_at_once() {
        let stopped = AtomicBool::new(true);
        let mut s = Searcher::new(1 << 20);
        let b = board_with(&[(7, 7)], &[(8, 8)]);
        let r =
            s.search(Request::new(&b, Rule::Renju, Color::Black, Limits::default()).stop(&stopped));
        assert!(b.is_empty_at(r.best) && Rule::Renju.is_legal(&b, r.best, Color::Black));
        let empty = Board::new(15, 15).unwrap();
        let r = s.search(
            Request::new(&empty, Rule::Freestyle, Color::Black, Limits::default()).stop(&stopped),
        );
        assert_eq!(r.best, Pos::new(7, 7));
    }

    #[test]
    fn every_rule_and_size_answers_an_empty_cell_next_to_blocked_ones() {
        for (rule, side) in [
            (Rule::Freestyle, 20),
            (Rule::Standard, 15),
            (Rule::Renju, 15),
            (Rule::Caro, 10),
            (Rule::CaroExact, 32),
            (Rule::Freestyle, 5),
        ] {
            let mut b = Board::new(side, side).unwrap();
            let c = b.center();
            b.place(c, Color::Black).unwrap();
            for dx in 0..3 {
                b.block(Pos::new(dx, 0)).unwrap();
                if let Some(p) = b.pos(i64::from(c.x) + 1, i64::from(c.y) - 1 + i64::from(dx)) {
                    b.block(p).unwrap();
                }
            }
            let r = Searcher::new(1 << 20).search(Request::new(&b, rule, Color::White, depth(3)));
            assert!(b.is_empty_at(r.best), "{rule} {side}: {r:?}");
            assert!(r.depth >= 1, "{rule} {side}: {r:?}");
        }
    }

    #[test]
    fn black_never_answers_a_renju_foul() {
        // (7, 7) makes two open threes for black: forbidden once renju fouls are judged,
        // and the most tempting cell on the board.
        let b = board_with(
            &[(5, 7), (6, 7), (7, 5), (7, 6)],
            &[(0, 0), (14, 0), (0, 14), (14, 14)],
        );
        for d in [1, 3] {
            let r = Searcher::new(1 << 20).search(Request::new(
                &b,
                Rule::Renju,
                Color::Black,
                depth(d),
            ));
            assert!(Rule::Renju.is_legal(&b, r.best, Color::Black), "{r:?}");
        }
        let stopped = AtomicBool::new(true);
        let r = Searcher::new(1 << 20)
            .search(Request::new(&b, Rule::Renju, Color::Black, depth(3)).stop(&stopped));
        assert!(Rule::Renju.is_legal(&b, r.best, Color::Black), "{r:?}");
    }

    #[test]
    fn stops_at_the_node_limit_and_repeats_itself() {
        let b = board_with(&[(7, 7), (8, 7)], &[(8, 8), (6, 6)]);
        let limits = Limits {
            max_nodes: Some(5_000),
            ..Limits::default()
        };
        let a =
            Searcher::new(1 << 20).search(Request::new(&b, Rule::Freestyle, Color::Black, limits));
        let c =
            Searcher::new(1 << 20).search(Request::new(&b, Rule::Freestyle, Color::Black, limits));
        assert!(a.nodes <= 5_000 + 1_000, "{a:?}");
        assert_eq!((a.best, a.nodes, &a.pv), (c.best, c.nodes, &c.pv));
        assert!(b.is_empty_at(a.best));
    }

    /// With a network the search plays too, and blocks a five; in debug builds every
    /// network value it asks for is checked against a recomputation inside.
    #[test]
    fn a_network_evaluation_searches_and_blocks_a_five() {
        let bytes = crate::eval::fixtures::on_builtin("w8.hnn");
        let net = crate::eval::network::Network::from_bytes(&bytes).unwrap();
        let mut s = Searcher::new(1 << 20);
        s.set_evaluator(Evaluator::default().with_network(net).unwrap());
        let b = board_with(
            &[(7, 7), (8, 7), (9, 7), (10, 7)],
            &[(8, 8), (6, 6), (9, 9)],
        );
        let limits = Limits {
            max_nodes: Some(3_000),
            ..Limits::default()
        };
        let r = s.search(Request::new(&b, Rule::Freestyle, Color::White, limits));
        assert!([Pos::new(6, 7), Pos::new(11, 7)].contains(&r.best), "{r:?}");
        let quiet = board_with(&[(7, 7), (8, 7)], &[(8, 8), (6, 6)]);
        let r = s.search(Request::new(&quiet, Rule::Freestyle, Color::Black, limits));
        assert!(quiet.is_empty_at(r.best) && r.nodes > 1_000, "{r:?}");
    }

    #[test]
    fn finds_a_forced_win_by_fours_at_the_root() {
        // Two blocked threes crossing: (8, 7) is a double four.
        let b = board_with(
            &[(4, 7), (5, 7), (6, 7), (8, 4), (8, 5), (8, 6), (0, 0)],
            &[(3, 7), (8, 3), (1, 1), (14, 14)],
        );
        let r = Searcher::new(1 << 20).search(Request::new(
            &b,
            Rule::Freestyle,
            Color::White,
            depth(3),
        ));
        // White to move takes the crossing point, the only cell that stops both, unless it
        // sees that it is lost anyway: two stones down, it is (black wins by threes after
        // (8, 7), +M7 at 2M nodes with either evaluation).
        assert!(
            r.best == Pos::new(8, 7) || r.mate_in().is_some_and(|n| n < 0),
            "{r:?}"
        );
        let r = Searcher::new(1 << 20).search(Request::new(
            &b,
            Rule::Freestyle,
            Color::Black,
            depth(3),
        ));
        assert_eq!(r.best, Pos::new(8, 7), "{r:?}");
        assert_eq!(r.mate_in(), Some(3), "{r:?}");
    }

    #[test]
    fn multipv_gives_distinct_moves_best_first_led_by_the_answer() {
        let b = board_with(&[(7, 7), (8, 7)], &[(8, 8), (6, 6)]);
        let r = Searcher::new(1 << 20)
            .search(Request::new(&b, Rule::Freestyle, Color::Black, depth(4)).lines(4));
        assert_eq!(r.lines.len(), 4, "{r:?}");
        assert_eq!((r.lines[0].mv, r.lines[0].score), (r.best, r.score));
        assert!(
            r.lines.windows(2).all(|w| w[0].score >= w[1].score),
            "{r:?}"
        );
        let mut moves: Vec<Pos> = r.lines.iter().map(|l| l.mv).collect();
        moves.sort();
        moves.dedup();
        assert_eq!(moves.len(), 4, "{r:?}");
        assert!(r.lines.iter().all(|l| l.pv.first() == Some(&l.mv)));
    }

    #[test]
    fn two_threads_answer_a_legal_move_and_block_a_five() {
        let mut s = Searcher::new(1 << 20);
        s.set_threads(2);
        let b = board_with(
            &[(3, 3), (4, 3), (5, 3), (6, 3), (12, 12)],
            &[(2, 3), (9, 9), (9, 10), (0, 14)],
        );
        let r = s.search(Request::new(&b, Rule::Standard, Color::White, depth(5)));
        assert_eq!(r.best, Pos::new(7, 3), "{r:?}");
        let b = board_with(&[(7, 7), (8, 7)], &[(8, 8), (6, 6)]);
        let r = s.search(Request::new(&b, Rule::Renju, Color::Black, depth(5)));
        assert!(Rule::Renju.is_legal(&b, r.best, Color::Black), "{r:?}");
    }

    #[test]
    fn an_observer_sees_every_completed_depth_and_changes_nothing() {
        let b = board_with(&[(7, 7), (8, 7)], &[(8, 8), (6, 6)]);
        let plain = Searcher::new(1 << 20).search(Request::new(
            &b,
            Rule::Freestyle,
            Color::Black,
            depth(5),
        ));
        let mut seen = Vec::new();
        let mut observe = |p: &Progress| seen.push((p.depth, p.lines[0].mv));
        let observed = Searcher::new(1 << 20).search(
            Request::new(&b, Rule::Freestyle, Color::Black, depth(5)).observe(&mut observe),
        );
        assert_eq!(
            (observed.best, observed.score, observed.nodes, &observed.pv),
            (plain.best, plain.score, plain.nodes, &plain.pv)
        );
        let depths: Vec<u32> = seen.iter().map(|&(d, _)| d).collect();
        assert_eq!(depths, (1..=plain.depth).collect::<Vec<_>>());
        assert_eq!(seen.last().map(|&(_, mv)| mv), Some(plain.best));
    }

    #[test]
    fn progress_tells_each_root_moves_cost_and_the_nodes_so_far() {
        let b = board_with(&[(7, 7), (8, 7)], &[(8, 8), (6, 6)]);
        let mut seen: Vec<Progress> = Vec::new();
        let mut observe = |p: &Progress| seen.push(p.clone());
        let r = Searcher::new(1 << 20).search(
            Request::new(&b, Rule::Freestyle, Color::Black, depth(5))
                .lines(2)
                .observe(&mut observe),
        );
        assert_eq!(seen.len(), 5);
        for p in &seen {
            assert!(p.searched);
            assert_eq!(p.lines.len(), 2, "{p:?}");
            let below: u64 = p.lines.iter().map(|l| l.nodes).sum();
            assert!(below > 0 && below <= p.nodes, "{p:?}");
            // The reply to the root move is ply 1, and every depth reaches it.
            assert!(p.lines.iter().all(|l| l.seldepth >= 1), "{p:?}");
        }
        // One thread: the last report counts every node of the search.
        assert_eq!(seen.last().map(|p| p.nodes), Some(r.nodes));
        assert!(seen.windows(2).all(|w| w[0].nodes < w[1].nodes));
        assert!(seen.last().is_some_and(|p| p.lines[0].seldepth >= 5));
        assert_eq!(
            r.lines,
            seen.last().map(|p| p.lines.clone()).unwrap_or_default()
        );
    }

    #[test]
    fn a_move_found_without_iterating_is_reported_once() {
        // Black's five on the board, then black's win by fours.
        for (black, plies) in [
            (&[(3, 3), (4, 3), (5, 3), (6, 3)][..], 1),
            (&[(5, 7), (6, 7), (7, 7)][..], 3),
        ] {
            let b = board_with(black, &[(0, 0), (14, 0), (0, 14)][..black.len() - 1]);
            let mut seen: Vec<Progress> = Vec::new();
            let mut observe = |p: &Progress| seen.push(p.clone());
            let r = Searcher::new(1 << 20).search(
                Request::new(&b, Rule::Freestyle, Color::Black, depth(5)).observe(&mut observe),
            );
            assert_eq!(r.mate_in(), Some(plies), "{r:?}");
            assert_eq!(seen.len(), 1, "{seen:?}");
            assert!(!seen[0].searched);
            assert_eq!(seen[0].depth, plies.unsigned_abs());
            assert_eq!(seen[0].lines, r.lines);
        }
    }

    #[test]
    fn win_rates_are_certain_for_mates_and_logistic_otherwise() {
        assert_eq!(win_rate(WIN - 7, Rule::Renju), 1.0);
        assert_eq!(win_rate(7 - WIN, Rule::Freestyle), 0.0);
        assert_eq!(win_rate(0, Rule::Standard), 0.5);
        let p = win_rate(517, Rule::Freestyle);
        assert!((p - 0.731).abs() < 0.001, "{p}");
        assert!(win_rate(300, Rule::Renju) < win_rate(300, Rule::Freestyle));
    }

    #[test]
    fn root_values_rank_the_searched_move_among_the_best() {
        let b = board_with(&[(7, 7), (8, 7)], &[(8, 8), (6, 6)]);
        let request = Request::new(&b, Rule::Freestyle, Color::Black, depth(3));
        let mut s = Searcher::new(1 << 20);
        let r = s.search(Request::new(&b, Rule::Freestyle, Color::Black, depth(3)));
        let values = s.root_values(&request, r.depth, 4, r.best);
        assert_eq!(values.len(), 4, "{values:?}");
        assert!(values.windows(2).all(|w| w[0].1 >= w[1].1), "{values:?}");
        assert!(values.iter().any(|&(p, _)| p == r.best), "{values:?}");
        assert!(values.iter().all(|&(p, _)| b.is_empty_at(p)));
    }

    #[test]
    fn multipv_beyond_the_root_moves_ends_with_the_moves_there_are() {
        // White must block the five point: one root move, three lines asked for.
        let b = board_with(
            &[(3, 3), (4, 3), (5, 3), (6, 3), (12, 12)],
            &[(2, 3), (9, 9), (9, 10), (0, 14)],
        );
        let r = Searcher::new(1 << 20)
            .search(Request::new(&b, Rule::Standard, Color::White, depth(5)).lines(3));
        assert_eq!(r.best, Pos::new(7, 3), "{r:?}");
        assert_eq!(r.lines.len(), 1, "{r:?}");
    }
}
