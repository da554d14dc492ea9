//! Every tuning constant of the search, in one place: pruning margins and depths,
//! reductions, move-ordering bonuses, the root solver's budgets, the aspiration window.
//!
//! Each says what it does and which SPRT of docs/strength.md set it (with its Elo, 95 %
//! interval in brackets), or that none did. The tries that would have changed a value and
//! were not kept are named too, so that they are not run again by mistake.
//!
//! Not here: the mechanics no SPRT tunes (the table's layout and replacement in `tt`, the
//! VCF solver's cache, the nodes between clock checks) stay with their code, and the
//! factors by which the clock moves the soft deadline live in [`crate::time::Clock`].

use super::threats::Kind;

/// The depth left to a move's child at a node of `kind`. The block of a five point costs no
/// depth: the attacker's fours are followed to their end. A defence against an open three
/// pays its ply like any move: G1 (+18 (+2, +33), with IIR and move futility), after C2
/// alone (+5 (−42, +52), and again +6 (−21, +32)) was undecided.
pub fn child_depth(kind: Kind, depth: i32) -> i32 {
    if kind == Kind::Block {
        depth
    } else {
        depth - 1
    }
}

/// Quiescence plies (attacker moves, counted down from 0) in which a plain four is tried;
/// deeper, only fours that make more than a four. Set with the quiescence search itself
/// (A: +265 (+199, +353)); Q3 (0 instead of −1: −12 (−38, +14)) was not kept.
pub const QSEARCH_PLAIN_FOURS: i32 = -1;

/// Scale of the late-move reductions' `ln(depth) * ln(number)`. B2 (+39 (+11, +67));
/// 1.0 (L1: −13, L4: −6) and 0.6 (L7: −6, H0 accepted) were not kept.
pub const LMR_SCALE: f64 = 0.75;

/// A late quiet move's reduction, from the table of [`LMR_SCALE`]: a ply more at a
/// non-PV node whose evaluation is not improving, a ply less per `HISTORY_MAX / 2` of good
/// history. No SPRT of its own set these two terms (the reductions came with B2); L6 (a
/// ply less on PV nodes: +2 (−14, +19)) was not kept.
pub fn late_move_reduction(table: i32, pv_node: bool, improving: bool, history: i32) -> i32 {
    table + i32::from(!pv_node && !improving) - history / (HISTORY_MAX / 2)
}

/// Razoring: at most this depth, a node whose evaluation is [`razor_margin`] below alpha is
/// left to the quiescence search. B1 (+62 (+31, +95), with reverse futility); Z1 (depth 3:
/// +5 (−8, +19)) was not kept.
pub const RAZOR_DEPTH: i32 = 2;

/// Razoring's margin. B1; R3 (Rapfi's `19 + 14·depth`: −3 (−67, +60)) was not kept.
pub fn razor_margin(depth: i32) -> i32 {
    40 + 30 * depth
}

/// The lazy network evaluation's margin (Rapfi's hybrid evaluation): a residual network's
/// correction is asked only where the tables' value lies within this of the window, since
/// beyond it a node's decisions rarely turn on the correction. On three positions at
/// 300,000 nodes with NN4 (docs/network.md, "Lazy evaluation"), 400 leaves out 52 to 94 % of
/// the network's evaluations, and the tables' value falls on the other side of alpha or
/// beta than the network's in 0.4 to 3.6 % of those. LAZY (at equal nodes, NN4's network:
/// −9 (−44, +25)); NN5-sprt played it (+16 (−16, +48) at 200 ms against the tables); no
/// other margin was tried.
pub const NETWORK_MARGIN: i32 = 400;

/// Reverse futility: at most this depth, a node whose evaluation is [`futility_margin`]
/// above beta fails high without a search. B1 (+62 (+31, +95), with razoring); R2 (every
/// depth, margin `60·(depth − 1 − improving)`: +11 (−16, +38)) was not kept.
pub const FUTILITY_DEPTH: i32 = 6;

/// Reverse futility's margin, a ply's worth less where the evaluation improves. B1.
pub fn futility_margin(depth: i32, improving: bool) -> i32 {
    60 * (depth - i32::from(improving))
}

/// How many moves a quiet node below the root searches before pruning the rest:
/// `3 + depth^1.32` (Rapfi's count), half as many where the evaluation is not improving on
/// our previous move's. M2 (+40 (+14, +68), against B3's `4 + 2·depth²` and two thirds);
/// on PV nodes too since M3 (+74 (+37, +113)). Q1 (moves making an open three exempt:
/// +7 (−10, +24)) was not kept.
pub fn late_move_limit(depth: i32, improving: bool) -> usize {
    let n = 3 + (f64::from(depth.max(0))).powf(1.32) as usize;
    if improving { n } else { n / 2 }
}

/// Below this depth, moves that make nothing for either side (no open two, no three) are
/// not searched below the root. B3 (+17 (−1, +36), stopped undecided and kept); on PV
/// nodes too since M3 (+74 (+37, +113)).
pub const TRIVIAL_DEPTH: i32 = 4;

/// Beyond this distance (Chebyshev) from a last stone, a four played against an open three
/// only delays (Rapfi's useless defence): below [`TRIVIAL_DEPTH`] it is pruned when far
/// from both last stones, else reduced by [`delay_reduction`]. C5 (+45 (+13, +77)).
pub const DELAY_DISTANCE: u8 = 4;

/// The reduction of a delaying four: two plies when far from the opponent's last stone,
/// one when far from ours. C5 (+45 (+13, +77)).
pub fn delay_reduction(far_from_theirs: bool, far_from_ours: bool) -> i32 {
    2 * i32::from(far_from_theirs) + i32::from(far_from_ours)
}

/// Internal iterative reduction: from this depth, a node without a table move is searched
/// a ply shallower. G1 (+18 (+2, +33), with a defence's ply and move futility), after
/// three undecided runs of it alone (D1, D1b, D1c: +17, +16, +3).
pub const IIR_DEPTH: i32 = 4;

/// Futility of quiet moves: at most this depth, a quiet move that makes no open three for
/// either side is skipped when the evaluation plus [`move_futility_margin`] stays below
/// alpha. G1 (+18 (+2, +33)), after F2 alone (+5 (−21, +32)) was undecided.
pub const MOVE_FUTILITY_DEPTH: i32 = 6;

/// Move futility's margin. G1, as F2.
pub fn move_futility_margin(depth: i32) -> i32 {
    30 + 50 * depth
}

/// Half-width of the first aspiration window. No SPRT.
pub const ASPIRATION: i32 = 40;
/// After each failure the failed bound moves out by the current step, and the step is
/// multiplied by this. No SPRT.
pub const ASPIRATION_GROWTH: i32 = 3;

/// Attacker moves the root VCF solver may look ahead. No SPRT.
pub const ROOT_VCF_MOVES: u8 = 40;
/// Nodes the root VCF solver may spend. No SPRT.
pub const ROOT_VCF_NODES: u64 = 300_000;
/// Under a node limit, the root VCF solver spends at most this fraction (1/n) of it (and
/// never more than [`ROOT_VCF_NODES`]). C1 (1/16: +0 (−28, +28), rejected) kept it.
pub const ROOT_VCF_NODE_SHARE: u64 = 2;
/// The root VCF solver stops after this fraction (1/n) of the time to the soft deadline.
/// C1 (1/16: +0 (−28, +28), rejected) kept it.
pub const ROOT_VCF_TIME_SHARE: u32 = 4;

/// History values stay within this magnitude (each update moves them part of the way).
/// B2 (+39 (+11, +67)); C4 (a continuation history beside it: −17 (−53, +19)) was not
/// kept.
pub const HISTORY_MAX: i32 = 16_384;

/// The history update of a cut by a search of `depth` (a bonus for the move that cut, a
/// malus for the quiet moves tried before it). B2.
pub fn history_bonus(depth: i32) -> i32 {
    (32 * depth * depth + 64 * depth).min(HISTORY_MAX / 4)
}

/// The ordering score of a history value: its share of the move's score beside the
/// prior. B2.
pub fn history_order(history: i32) -> i32 {
    history / 64
}

/// Ordering bonus of the table move, above everything else. No SPRT.
pub const TT_BONUS: i32 = 1 << 24;
/// Ordering bonus of a killer move. No SPRT.
pub const KILLER_BONUS: i32 = 2_000;
/// Ordering bonus of the move that last refuted the opponent's previous move. B2.
pub const COUNTER_BONUS: i32 = 600;
