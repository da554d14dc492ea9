//! The network's value kept up to date as the search moves: per view (the side to move)
//! each cell's feature sum and its activations, with their sums and the linear value over the
//! board, so that a position costs the changes its last moves made and the value MLP, not a
//! pass over the board ([`Network::evaluate`] recomputes everything; this must give its
//! value exactly).
//!
//! A cell's inputs are its two pcodes, its stone and its four line windows, each selecting
//! a feature row (`CellRows`). A stone changes only the cells on its four lines out to
//! the pattern reach or the window reach, whichever is longer, and its own cell; and of such
//! a cell mostly one input (the window along the stone's line) or two (a pcode). So an
//! update takes out the rows of the inputs that changed and adds their new ones; only a cell
//! whose feature sum changed is activated again. The windows' raw codes are kept too: a
//! window's code is a sum of its cells' digits, so a stone adds its digit to the codes of
//! the windows that see it (up to a wall: past it a window reads the edge) and taking it
//! back subtracts it, instead of reading the lines again.
//!
//! The update is lazy, as Stockfish's accumulators are: [`NetworkState::value`] compares the
//! moves this state reflects with the pattern board's ([`PatternBoard::made`]), takes back
//! its own moves past their common prefix (each batch of moves saved what it overwrote) and
//! updates, from the board as it is now, the cells the remaining moves touch, as one batch.
//! A cell's inputs depend on the current stones alone, so this is exact; moves the search
//! makes and takes back without evaluating (threat searches, move ordering) cost nothing.
//!
//! A mirrored network (`Network::mirrored`) reads a cell from white's view as from black's
//! with the halves of its channels swapped, so its activations and their sums are kept for
//! black's view alone, and white's value reads black's sums swapped: half the update.
//!
//! The lane-by-lane work is `super::simd`'s kernels, inlined into two copies of
//! [`NetworkState::value`]: one compiled for AVX2, taken when the CPU has it, and the
//! build's own.
//!
//! The 3x3 convolution spreads a change to the neighbours' neighbours; a network with it is
//! refused ([`StateError::Convolution`]).

use std::fmt;
use std::sync::Arc;

use crate::board::Color;
use crate::pattern::{Idx, PatternBoard};

use super::network::{CellRows, Network, WindowCodes};
use super::simd::{self, Simd};
use super::threat_mask;

/// Why a network cannot be kept incrementally.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StateError {
    Convolution,
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StateError::Convolution => f.write_str(
                "a network with the 3x3 convolution cannot be updated incrementally; train \
                 one without --conv to play with it",
            ),
        }
    }
}

impl std::error::Error for StateError {}

/// A batch of moves applied at once and what it overwrote.
#[derive(Clone, Debug)]
struct Batch {
    /// How many moves were applied before it.
    start: usize,
    /// Where its saved cells begin in [`NetworkState::saved`].
    saved: usize,
}

/// What a batch saves of a cell before changing it.
#[derive(Clone, Debug)]
struct Saved {
    cell: Idx,
    rows: [CellRows; 2],
    /// What its change added to each view's linear sum.
    linear: [i32; 2],
}

/// The incremental state of one network on one pattern board (see the module doc).
#[derive(Clone, Debug)]
pub struct NetworkState {
    net: Arc<Network>,
    channels: usize,
    /// How far a stone's change reaches along its lines.
    reach: usize,
    /// Per cell (the padded grid's indices): its input rows from each view, and its line
    /// windows' codes (black's view: white's rows read its shapes by the other colour).
    rows: Vec<[CellRows; 2]>,
    codes: Vec<WindowCodes>,
    /// The views whose activations are kept: both, or black's alone for a mirrored
    /// network (white's pooled sums are then scratch, black's swapped).
    views: usize,
    /// Per view, `[cell][channel]`: the feature sums and the activations (i16: the loader
    /// bounds the sums so).
    x: [Vec<i16>; 2],
    act: [Vec<i16>; 2],
    /// Per view: the sum of `act` over the board's cells, and of the cells' linear values
    /// (both views: a mirrored network's linear part is not mirrored).
    pooled: [Vec<i32>; 2],
    linear_sum: [i32; 2],
    /// Whether a padded index is a board cell.
    on_board: Vec<bool>,
    /// The moves this state reflects, as the pattern board made them; the first `base` were
    /// made before the state was computed from scratch, in no batch.
    applied: Vec<(Idx, Color)>,
    base: usize,
    batches: Vec<Batch>,
    /// The cells the batches saved, and their feature sums and activations (per saved
    /// cell `2 * views * channels` values: the sums of each view, then the activations).
    saved: Vec<Saved>,
    saved_values: Vec<i16>,
    /// The cells the batch being made touches, each once (`marked`).
    pending: Vec<Idx>,
    marked: Vec<bool>,
    /// Scratch, `2 * channels`: the cell layer's input and a cell's new activations.
    scratch: Vec<i16>,
    /// The vector instructions the update runs on.
    simd: Simd,
}

impl NetworkState {
    /// Whether `net` can be kept incrementally (`new` refuses it otherwise).
    pub fn supports(net: &Network) -> Result<(), StateError> {
        if net.has_conv() {
            return Err(StateError::Convolution);
        }
        Ok(())
    }

    /// The state of `pb`'s position, computed from scratch; the moves `pb` has made so far
    /// are part of it.
    pub fn new(net: Arc<Network>, pb: &PatternBoard) -> Result<NetworkState, StateError> {
        NetworkState::supports(&net)?;
        let ch = net.channels();
        let views = if net.mirrored() { 1 } else { 2 };
        let size = pb.all_cells().map(usize::from).max().map_or(0, |m| m + 1);
        let mut on_board = vec![false; size];
        for i in pb.all_cells() {
            on_board[usize::from(i)] = true;
        }
        let mut state = NetworkState {
            reach: pb.pattern_reach().max(net.window()),
            channels: ch,
            views,
            rows: vec![[CellRows::default(); 2]; size],
            codes: vec![WindowCodes::default(); size],
            x: [vec![0; size * ch], vec![0; (views - 1) * size * ch]],
            act: [vec![0; size * ch], vec![0; (views - 1) * size * ch]],
            pooled: [vec![0; ch], vec![0; ch]],
            linear_sum: [0; 2],
            on_board,
            applied: Vec::new(),
            base: 0,
            batches: Vec::new(),
            saved: Vec::new(),
            saved_values: Vec::new(),
            pending: Vec::new(),
            marked: vec![false; size],
            scratch: vec![0; 2 * ch],
            simd: Simd::detect(),
            net,
        };
        state.rebuild(pb);
        Ok(state)
    }

    /// Computes everything from scratch from `pb`.
    fn rebuild(&mut self, pb: &PatternBoard) {
        let ch = self.channels;
        for v in 0..2 {
            self.pooled[v].fill(0);
        }
        self.linear_sum = [0; 2];
        self.batches.clear();
        self.saved.clear();
        self.saved_values.clear();
        self.applied = pb.made().to_vec();
        self.base = self.applied.len();
        for i in pb.all_cells() {
            let iu = usize::from(i);
            self.codes[iu] = self.net.window_codes(pb, i);
            let rows = self.net.cell_rows_with(pb, i, &self.codes[iu]);
            self.rows[iu] = rows;
            for (v, rows) in rows.iter().enumerate() {
                if v < self.views {
                    let x = &mut self.x[v][iu * ch..][..ch];
                    self.net.feature_sum(rows, x);
                    let act = &mut self.act[v][iu * ch..][..ch];
                    self.net.activate(x, &mut self.scratch[..ch], act);
                    simd::accumulate(&mut self.pooled[v], act);
                }
                self.linear_sum[v] += self.net.linear_share(rows);
            }
        }
    }

    /// The network.
    #[must_use]
    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }

    /// The network's value of `pb`'s position with `side` to move: `Network::evaluate`'s
    /// value, brought up to date with `pb`'s moves first. `pb` must be the board this state
    /// was made on, moved only through `make` and `undo` since.
    pub fn value(&mut self, pb: &PatternBoard, side: Color) -> i32 {
        match self.simd {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Simd::detect` found AVX2 on this CPU.
            Simd::Avx2 => unsafe { self.value_avx2(pb, side) },
            _ => self.value_with(pb, side),
        }
    }

    /// [`NetworkState::value`] compiled for AVX2: the update's kernels are inlined into it.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn value_avx2(&mut self, pb: &PatternBoard, side: Color) -> i32 {
        self.value_with(pb, side)
    }

    /// Makes the state use `simd` (tests compare the instruction sets).
    #[cfg(test)]
    fn with_simd(mut self, simd: Simd) -> NetworkState {
        self.simd = simd;
        self
    }

    /// [`NetworkState::value`]'s body, inlined into each instruction set's copy, and
    /// there compiled once more for each common channel count: with the count a constant,
    /// a kernel over a cell's channels is a few vector instructions, where a loop of
    /// unknown length spent more on its set-up and remainder than on its work.
    #[inline(always)]
    fn value_with(&mut self, pb: &PatternBoard, side: Color) -> i32 {
        match self.channels {
            16 => self.value_for::<16>(pb, side),
            32 => self.value_for::<32>(pb, side),
            64 => self.value_for::<64>(pb, side),
            _ => self.value_for::<0>(pb, side),
        }
    }

    /// The channel count: `C`, or the network's when `C` is 0 (any count).
    #[inline(always)]
    fn ch<const C: usize>(&self) -> usize {
        debug_assert!(C == 0 || C == self.channels);
        if C == 0 { self.channels } else { C }
    }

    /// [`NetworkState::value_with`] for `C` channels ([`NetworkState::ch`]).
    #[inline(always)]
    fn value_for<const C: usize>(&mut self, pb: &PatternBoard, side: Color) -> i32 {
        self.sync::<C>(pb);
        let v = side as usize;
        let ch = self.ch::<C>();
        if v >= self.views {
            let [black, white] = &mut self.pooled;
            simd::swap_halves(&black[..ch], &mut white[..ch]);
        }
        let value = self.net.value(
            &self.pooled[v][..ch],
            self.linear_sum[v] + self.net.threat_entry(threat_mask(pb, side)),
        );
        debug_assert!(
            !pb.verify || !matches!(self.net.evaluate(pb, side), Ok(o) if o.value != value),
            "the incremental network value differs from a recomputation"
        );
        value
    }

    /// Brings the state to `pb`'s moves (see the module doc).
    #[inline(always)]
    fn sync<const C: usize>(&mut self, pb: &PatternBoard) {
        let common = self
            .applied
            .iter()
            .zip(pb.made())
            .take_while(|(a, b)| a == b)
            .count();
        if common < self.base {
            // Back past the moves the state started with: they have no batch to undo.
            self.rebuild(pb);
            return;
        }
        while self.applied.len() > common {
            self.take_back::<C>(pb);
        }
        let from = self.applied.len();
        if pb.ply() == from {
            return;
        }
        self.batches.push(Batch {
            start: from,
            saved: self.saved.len(),
        });
        // The cells the new moves touch, each once: the move's own cell and the cells on
        // its lines (their pcodes or windows may change).
        for &(at, color) in &pb.made()[from..] {
            self.pend(at);
            for (_, _, q) in pb.line_cells(at, self.reach) {
                self.pend(q);
            }
            self.add_stone(pb, at, color, 1);
            self.applied.push((at, color));
        }
        let mut pending = std::mem::take(&mut self.pending);
        for &i in &pending {
            self.marked[usize::from(i)] = false;
            self.touch::<C>(pb, i);
        }
        pending.clear();
        self.pending = pending;
    }

    /// Adds (`sign` 1) or takes out (-1) the digit of a stone of `color` on `at` in the
    /// codes of the line windows that see it: `at`'s own four (their centre), and along
    /// each line out to the window's reach, up to and including the first wall (a blocked
    /// cell's own window sees past its centre; a window past the wall reads the edge
    /// there).
    fn add_stone(&mut self, pb: &PatternBoard, at: Idx, color: Color, sign: i32) {
        let reach = self.net.window();
        if reach == 0 {
            return;
        }
        // A stone's digit in black's view: 1 for black, 2 for white.
        let digit = sign * if color == Color::Black { 1 } else { 2 };
        // The stone `-offset` from a window's centre is its digit `reach - offset`, the
        // first most significant.
        let mut add = |q: Idx, dir: usize, offset: isize| {
            let place = 1 << (2 * (reach as isize + offset));
            let code = &mut self.codes[usize::from(q)][dir];
            *code = code.wrapping_add_signed(digit * place);
        };
        for dir in 0..4 {
            add(at, dir, 0);
            for way in [-1, 1] {
                for (offset, q) in pb.ray(at, dir, way, reach) {
                    if self.on_board.get(usize::from(q)).copied().unwrap_or(false) {
                        add(q, dir, offset);
                    }
                }
            }
        }
    }

    /// Notes that cell `i` (a padding cell is skipped) may have changed.
    fn pend(&mut self, i: Idx) {
        let iu = usize::from(i);
        if !self.on_board.get(iu).copied().unwrap_or(false) || self.marked[iu] {
            return;
        }
        self.marked[iu] = true;
        self.pending.push(i);
    }

    /// Brings cell `i` up to date from the board and its window codes, saving it first if
    /// it changes.
    #[inline(always)]
    fn touch<const C: usize>(&mut self, pb: &PatternBoard, i: Idx) {
        let iu = usize::from(i);
        let old = self.rows[iu];
        let new = self.net.cell_rows_with(pb, i, &self.codes[iu]);
        if new == old {
            return;
        }
        let ch = self.ch::<C>();
        for v in 0..self.views {
            self.saved_values
                .extend_from_slice(&self.x[v][iu * ch..][..ch]);
        }
        for v in 0..self.views {
            self.saved_values
                .extend_from_slice(&self.act[v][iu * ch..][..ch]);
        }
        self.rows[iu] = new;
        let inputs = self.net.inputs();
        let mut linear = [0; 2];
        for v in 0..2 {
            // Of a view whose activations are not kept, only the linear value.
            let mut x = (v < self.views).then(|| &mut self.x[v][iu * ch..][..ch]);
            for (&o, &n) in old[v][..inputs].iter().zip(&new[v][..inputs]) {
                if o != n {
                    linear[v] += self.net.linear_row(n) - self.net.linear_row(o);
                    if let Some(x) = x.as_deref_mut() {
                        // `x - o` is the sum of the cell's other rows: within the bound.
                        simd::swap_row(x, &self.net.row(o)[..ch], &self.net.row(n)[..ch]);
                    }
                }
            }
            self.linear_sum[v] += linear[v];
            let Some(x) = x else { continue };
            let (a1, new_act) = self.scratch.split_at_mut(ch);
            let new_act = &mut new_act[..ch];
            self.net.activate(x, &mut a1[..ch], new_act);
            simd::set_activations(
                new_act,
                &mut self.act[v][iu * ch..][..ch],
                &mut self.pooled[v][..ch],
            );
        }
        self.saved.push(Saved {
            cell: i,
            rows: old,
            linear,
        });
    }

    /// Takes back the last batch: its cells' saved inputs, sums and activations, their
    /// linear changes, the board sums, and its moves' digits in the window codes.
    #[inline(always)]
    fn take_back<const C: usize>(&mut self, pb: &PatternBoard) {
        let batch = self.batches.pop().expect("applied moves belong to a batch");
        let ch = self.ch::<C>();
        let views = self.views;
        let per = 2 * views * ch;
        for (k, saved) in self.saved.drain(batch.saved..).enumerate() {
            let iu = usize::from(saved.cell);
            let values = &self.saved_values[(batch.saved + k) * per..][..per];
            self.rows[iu] = saved.rows;
            for v in 0..views {
                self.x[v][iu * ch..][..ch].copy_from_slice(&values[v * ch..][..ch]);
                simd::set_activations(
                    &values[(views + v) * ch..][..ch],
                    &mut self.act[v][iu * ch..][..ch],
                    &mut self.pooled[v][..ch],
                );
            }
            for v in 0..2 {
                self.linear_sum[v] -= saved.linear[v];
            }
        }
        self.saved_values.truncate(batch.saved * per);
        for k in batch.start..self.applied.len() {
            let (at, color) = self.applied[k];
            self.add_stone(pb, at, color, -1);
        }
        self.applied.truncate(batch.start);
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Pos};
    use crate::rng::Rng;
    use crate::rules::Rule;

    /// Networks `nn/train.py` made (the engine's exactness fixtures, crates/tools/tests):
    /// line windows of reach 2 with the cell layer (residual), without it, and mirrored,
    /// at 8 channels (any count: `NetworkState::value_for::<0>`, the kernels' remainder
    /// alone); mirrored at 16 (a count compiled apart, one whole block); with the cell
    /// layer at 24 (any count, a block and a remainder).
    const NETWORKS: [&[u8]; 5] = [
        include_bytes!("../../../tools/tests/data/network/w8.hnn"),
        include_bytes!("../../../tools/tests/data/network/n8.hnn"),
        include_bytes!("../../../tools/tests/data/network/m8.hnn"),
        include_bytes!("../../../tools/tests/data/network/m16.hnn"),
        include_bytes!("../../../tools/tests/data/network/w24.hnn"),
    ];

    fn network(bytes: &[u8]) -> Arc<Network> {
        Arc::new(Network::from_bytes(bytes).unwrap())
    }

    /// Random walks of makes and undos, the value asked at random points only (so that
    /// batches of several moves, and take-backs across them, occur): each value equals the
    /// from-scratch value, for both sides to move, on the build's instructions and on the
    /// best this CPU has (AVX2 where it has it).
    #[test]
    fn the_incremental_value_is_the_recomputed_one() {
        let mut board = Board::new(15, 15).unwrap();
        board.block(Pos::new(3, 4)).unwrap();
        for (bytes, simd) in NETWORKS
            .iter()
            .flat_map(|&b| [(b, Simd::Portable), (b, Simd::detect())])
        {
            let net = network(bytes);
            for (rule, seed) in [(Rule::Freestyle, 1), (Rule::Renju, 2), (Rule::Freestyle, 3)] {
                let mut pb = PatternBoard::new(&board, rule);
                // The check inside `value` is the same comparison; the test makes it itself.
                pb.verify = false;
                let mut state = NetworkState::new(net.clone(), &pb).unwrap().with_simd(simd);
                let mut rng = Rng::new(seed);
                let mut side = Color::Black;
                let mut checked = 0;
                for _ in 0..400 {
                    if pb.ply() > 0 && rng.below(3) == 0 {
                        pb.undo();
                        side = side.opponent();
                    } else {
                        let empty: Vec<Idx> = pb.all_cells().filter(|&i| pb.is_empty(i)).collect();
                        pb.make(empty[rng.below(empty.len())], side);
                        side = side.opponent();
                    }
                    if rng.below(4) == 0 {
                        for s in Color::BOTH {
                            assert_eq!(
                                state.value(&pb, s),
                                net.evaluate(&pb, s).unwrap().value,
                                "{rule:?} {simd:?} ply {}",
                                pb.ply()
                            );
                            checked += 1;
                        }
                    }
                }
                assert!(checked > 150, "{checked}");
            }
        }
    }

    /// A state made on a board with moves already made counts them, and undoing them
    /// later (past where it started) recomputes it.
    #[test]
    fn moves_made_before_the_state_are_part_of_it() {
        let net = network(NETWORKS[0]);
        let mut pb = PatternBoard::new(&Board::new(15, 15).unwrap(), Rule::Freestyle);
        pb.make(pb.idx(Pos::new(7, 7)), Color::Black);
        pb.make(pb.idx(Pos::new(8, 7)), Color::White);
        let mut state = NetworkState::new(net.clone(), &pb).unwrap();
        assert_eq!(
            state.value(&pb, Color::Black),
            net.evaluate(&pb, Color::Black).unwrap().value
        );
        pb.undo();
        pb.undo();
        let empty = PatternBoard::new(&Board::new(15, 15).unwrap(), Rule::Freestyle);
        assert_eq!(
            state.value(&pb, Color::Black),
            net.evaluate(&empty, Color::Black).unwrap().value
        );
    }

    #[test]
    fn a_network_with_the_convolution_is_refused() {
        let net = network(include_bytes!("../../../tools/tests/data/network/c8.hnn"));
        let pb = PatternBoard::new(&Board::new(15, 15).unwrap(), Rule::Freestyle);
        let e = NetworkState::new(net, &pb).unwrap_err();
        assert_eq!(e, StateError::Convolution);
        assert!(e.to_string().contains("without --conv"));
    }
}
