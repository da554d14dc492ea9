//! The full-strength search: the [`Searcher`] owns the transposition table and answers
//! `think` with a [`SearchResult`].
//!
//! One `think` runs: the immediate checks (our five, the opponent's five point), a VCF
//! solver at the root that plays a found forced win at once, then iterative deepening of
//! the principal variation search with aspiration windows. It obeys [`Limits`]: no new
//! iteration after the soft deadline, the hard deadline, stop flag and node limit checked
//! inside the tree, the depth limit between iterations. Whatever happens it answers an
//! empty cell, legal for the mover whenever one exists.

pub mod alphabeta;
pub mod ordering;
pub mod tt;
pub mod vcf;

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::board::{Board, Color, Pos};
use crate::eval::Weights;
use crate::limits::Limits;
use crate::pattern::{Idx, PatternBoard, Tables};
use crate::rules::Rule;
use alphabeta::{MAX_PLY, Tree, WIN, WIN_MIN};
use tt::Tt;
use vcf::Vcf;

/// Table size when the manager sets no memory limit.
pub const DEFAULT_TT_BYTES: usize = 64 << 20;
/// Attacker moves the root VCF solver may look ahead.
const ROOT_VCF_MOVES: u8 = 40;
/// Nodes the root VCF solver may spend.
const ROOT_VCF_NODES: u64 = 300_000;
/// The root VCF solver stops after this fraction of the time to the soft deadline.
const ROOT_VCF_TIME_SHARE: u32 = 4;
/// Half-width of the first aspiration window.
const ASPIRATION: i32 = 40;

/// Memory kept for everything but the table: code, stacks, pattern tables, the VCF cache
/// and the allocator's slack, with room to spare (Piskvork measures the peak working set,
/// the Gomocup judge the unique set size of the process tree).
const RESERVED_BYTES: u64 = 48 << 20;
/// The largest table Hoshi allocates, whatever the limit.
const MAX_TT_BYTES: u64 = 4 << 30;

/// The table size for a process limited to `max_memory` bytes (`INFO max_memory`; 0 means
/// no limit): what is left after [`RESERVED_BYTES`], so the whole process stays under the
/// limit, or [`DEFAULT_TT_BYTES`] without one. [`Searcher::new`] rounds it down further
/// to a power of two of entries.
#[must_use]
pub fn table_bytes(max_memory: u64) -> usize {
    if max_memory == 0 {
        return DEFAULT_TT_BYTES;
    }
    let bytes = max_memory.saturating_sub(RESERVED_BYTES).min(MAX_TT_BYTES);
    usize::try_from(bytes).unwrap_or(usize::MAX)
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
}

impl SearchResult {
    /// Plies until the game ends by five: positive when the mover wins, negative when he
    /// loses, `None` when the score is no mate.
    #[must_use]
    pub fn mate_in(&self) -> Option<i32> {
        if self.score >= WIN_MIN {
            Some(WIN - self.score)
        } else if self.score <= -WIN_MIN {
            Some(-(WIN + self.score))
        } else {
            None
        }
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
    weights: Weights,
    /// The rule of the previous search: what was learnt under another rule is dropped.
    rule: Option<Rule>,
}

impl Searcher {
    /// A searcher whose table takes at most `tt_bytes` bytes.
    #[must_use]
    pub fn new(tt_bytes: usize) -> Searcher {
        Searcher {
            tt: Tt::new(tt_bytes),
            vcf: Vcf::new(),
            weights: Weights::default(),
            rule: None,
        }
    }

    /// Replaces the table by one of at most `tt_bytes` bytes (its content is lost).
    pub fn resize(&mut self, tt_bytes: usize) {
        // Drop the old table first so both never live at once.
        self.tt = Tt::new(0);
        self.tt = Tt::new(tt_bytes);
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

    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.vcf.clear();
    }

    /// Chooses a move for `me` on `board` under `rule` within `limits`.
    pub fn think(
        &mut self,
        board: &Board,
        rule: Rule,
        me: Color,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> SearchResult {
        let start = Instant::now();
        self.prepare(rule);
        self.tt.new_search();
        let mut pb = PatternBoard::new(board, rule);
        let fallback = fallback_move(&pb, me);
        let done =
            |best: Idx, score: i32, depth: u32, nodes: u64, pv: &[Idx], pb: &PatternBoard| {
                SearchResult {
                    best: pb.pos(best),
                    score,
                    depth,
                    nodes,
                    pv: pv.iter().map(|&i| pb.pos(i)).collect(),
                    elapsed: start.elapsed(),
                }
            };
        let Some(fallback) = fallback else {
            // No empty cell at all: the manager should not have asked.
            return SearchResult {
                best: board.center(),
                score: 0,
                depth: 0,
                nodes: 0,
                pv: Vec::new(),
                elapsed: start.elapsed(),
            };
        };
        if let Some(five) = ordering::five_point(&pb, me) {
            return done(five, WIN - 1, 0, 0, &[five], &pb);
        }
        if limits.should_stop(stop) || pb.all_cells().all(|i| !pb.is_candidate(i)) {
            return done(fallback, 0, 0, 0, &[fallback], &pb);
        }

        // The root VCF: a forced win is played at once.
        let vcf_before = self.vcf.nodes();
        let budget = limits
            .max_nodes
            .map_or(ROOT_VCF_NODES, |n| n.min(ROOT_VCF_NODES) / 2);
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
            && let Some(&first) = line.first()
        {
            let score = WIN - line.len() as i32;
            return done(first, score, 0, vcf_nodes, &line, &pb);
        }

        let max_depth = limits
            .max_depth
            .map_or(MAX_PLY as i32 - 8, |d| i32::try_from(d).unwrap_or(i32::MAX))
            .clamp(1, MAX_PLY as i32 - 8);
        let mut tree = Tree::new(pb, &mut self.tt, &mut self.vcf, &self.weights, limits, stop);
        tree.nodes = vcf_nodes;
        let mut best = (fallback, 0, 0u32, vec![fallback]);
        let mut prev = 0;
        for depth in 1..=max_depth {
            if depth > 1 && limits.soft_deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            let score = aspiration(&mut tree, me, depth, prev);
            if tree.aborted {
                break;
            }
            if let Some(&mv) = tree.pv[0].first() {
                best = (mv, score, depth as u32, tree.pv[0].clone());
            }
            log::debug!(
                "depth {depth} score {score} nodes {} best {} after {:?}",
                tree.nodes,
                tree.pb.pos(best.0),
                start.elapsed()
            );
            prev = score;
            if score.abs() >= WIN_MIN && (WIN - score.abs()) <= depth {
                // A mate within the horizon: deeper iterations cannot change it.
                break;
            }
        }
        let nodes = tree.nodes;
        let pb = tree.pb;
        done(best.0, best.1, best.2, nodes, &best.3, &pb)
    }

    /// Exact values at `depth` of the most promising root moves for `me`: the first
    /// `tried` in the search's move order (`best`, the move a search just chose, first),
    /// each searched with a full window, best value first (ties by position). A small
    /// multi-PV for the weakened levels' pick; the root's move generation keeps its
    /// floor (only the block against a five point, only defences against an open four).
    /// A search cut short by `limits` or `stop` ends the list early, so it may be empty.
    #[allow(clippy::too_many_arguments)] // `think`'s six, plus what to re-search
    pub fn root_values(
        &mut self,
        board: &Board,
        rule: Rule,
        me: Color,
        depth: u32,
        tried: usize,
        best: Pos,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> Vec<(Pos, i32)> {
        self.prepare(rule);
        let mut pb = PatternBoard::new(board, rule);
        let mut moves = Vec::new();
        let kind = ordering::generate(&mut pb, me, &mut moves);
        let first = board.is_empty_at(best).then(|| pb.idx(best));
        let mut tree = Tree::new(pb, &mut self.tt, &mut self.vcf, &self.weights, limits, stop);
        let mut ordered = Vec::new();
        tree.heuristics
            .order(&tree.pb, me, 0, first, &moves, &mut ordered);
        let depth = i32::try_from(depth)
            .unwrap_or(i32::MAX)
            .clamp(1, MAX_PLY as i32 - 8);
        let mut values = Vec::new();
        for s in ordered.iter().take(tried) {
            // As in the tree: a forced reply costs no depth.
            let forced = kind == ordering::Kind::Block
                || (kind == ordering::Kind::Defend && !tree.pb.threat(s.mv, me).is_four());
            let child = if forced { depth } else { depth - 1 };
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
        if score <= alpha {
            alpha = (alpha - delta).max(-WIN);
        } else if score >= beta {
            beta = (beta + delta).min(WIN);
        } else {
            return score;
        }
        delta *= 3;
    }
}

/// The move given when there is no time to search: the best-looking legal candidate, else
/// (no stone on the board) the legal cell nearest the centre, else any empty cell; `None`
/// on a full board.
fn fallback_move(pb: &PatternBoard, me: Color) -> Option<Idx> {
    let legal = |i: Idx| pb.is_legal(i, me);
    let candidates = pb.all_cells().filter(|&i| pb.is_candidate(i) && legal(i));
    candidates
        .map(|i| (ordering::static_score(pb, i, me), i))
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
    fn plays_its_five_and_blocks_the_opponents() {
        let stop = AtomicBool::new(false);
        let mut s = Searcher::new(1 << 20);
        let b = board_with(
            &[(3, 3), (4, 3), (5, 3), (6, 3)],
            &[(3, 4), (4, 4), (5, 4), (9, 9)],
        );
        let r = s.think(&b, Rule::Standard, Color::Black, &depth(4), &stop);
        assert!([Pos::new(2, 3), Pos::new(7, 3)].contains(&r.best), "{r:?}");
        assert_eq!(r.mate_in(), Some(1));
        let b = board_with(
            &[(3, 3), (4, 3), (5, 3), (6, 3), (12, 12)],
            &[(2, 3), (9, 9), (9, 10), (0, 14)],
        );
        let r = s.think(&b, Rule::Standard, Color::White, &depth(4), &stop);
        assert_eq!(r.best, Pos::new(7, 3), "{r:?}");
    }

    #[test]
    fn answers_a_legal_move_when_stopped_at_once() {
        let stop = AtomicBool::new(true);
        let mut s = Searcher::new(1 << 20);
        let b = board_with(&[(7, 7)], &[(8, 8)]);
        let r = s.think(&b, Rule::Renju, Color::Black, &Limits::default(), &stop);
        assert!(b.is_empty_at(r.best) && Rule::Renju.is_legal(&b, r.best, Color::Black));
        let empty = Board::new(15, 15).unwrap();
        let r = s.think(
            &empty,
            Rule::Freestyle,
            Color::Black,
            &Limits::default(),
            &stop,
        );
        assert_eq!(r.best, Pos::new(7, 7));
    }

    #[test]
    fn every_rule_and_size_answers_an_empty_cell_next_to_blocked_ones() {
        let stop = AtomicBool::new(false);
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
            let r = Searcher::new(1 << 20).think(&b, rule, Color::White, &depth(3), &stop);
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
        let stop = AtomicBool::new(false);
        for d in [1, 3] {
            let r = Searcher::new(1 << 20).think(&b, Rule::Renju, Color::Black, &depth(d), &stop);
            assert!(Rule::Renju.is_legal(&b, r.best, Color::Black), "{r:?}");
        }
        let stopped = AtomicBool::new(true);
        let r = Searcher::new(1 << 20).think(&b, Rule::Renju, Color::Black, &depth(3), &stopped);
        assert!(Rule::Renju.is_legal(&b, r.best, Color::Black), "{r:?}");
    }

    #[test]
    fn stops_at_the_node_limit_and_repeats_itself() {
        let stop = AtomicBool::new(false);
        let b = board_with(&[(7, 7), (8, 7)], &[(8, 8), (6, 6)]);
        let limits = Limits {
            max_nodes: Some(5_000),
            ..Limits::default()
        };
        let a = Searcher::new(1 << 20).think(&b, Rule::Freestyle, Color::Black, &limits, &stop);
        let c = Searcher::new(1 << 20).think(&b, Rule::Freestyle, Color::Black, &limits, &stop);
        assert!(a.nodes <= 5_000 + 1_000, "{a:?}");
        assert_eq!((a.best, a.nodes, &a.pv), (c.best, c.nodes, &c.pv));
        assert!(b.is_empty_at(a.best));
    }

    #[test]
    fn finds_a_forced_win_by_fours_at_the_root() {
        // Two blocked threes crossing: (8, 7) is a double four.
        let b = board_with(
            &[(4, 7), (5, 7), (6, 7), (8, 4), (8, 5), (8, 6), (0, 0)],
            &[(3, 7), (8, 3), (1, 1), (14, 14)],
        );
        let stop = AtomicBool::new(false);
        let r = Searcher::new(1 << 20).think(&b, Rule::Freestyle, Color::White, &depth(3), &stop);
        // White to move takes the crossing point, the only cell that stops both.
        assert_eq!(r.best, Pos::new(8, 7), "{r:?}");
        let r = Searcher::new(1 << 20).think(&b, Rule::Freestyle, Color::Black, &depth(3), &stop);
        assert_eq!(r.best, Pos::new(8, 7), "{r:?}");
        assert_eq!(r.mate_in(), Some(3), "{r:?}");
    }
}
