//! The incremental pattern board the full-strength search runs on.
//!
//! Cells live in a padded grid ([`Padded`], five wall cells on every side) so that line
//! scans never check bounds. Every cell keeps, per direction, the line key of its ten neighbours; every
//! empty cell keeps the [`Pattern`] each colour would make along each line and the combined
//! [`Threat`]. A move touches only the four lines through the stone, five cells each way.
//! Counts of threats and sums of the evaluation's cell values over the empty cells are kept
//! too, for the evaluation and for cheap "does anybody have a four" questions.
//!
//! A [`Board`] is kept in sync inside, so renju's forbidden points are judged in one place
//! ([`Rule::foul`]); the pattern board only says which cells could be forbidden.

pub mod table;

use std::sync::Arc;

use crate::board::padded::{self, EMPTY, PAD, Padded, WALL, stone};
use crate::board::{Board, Color, Dir, Pos};
use crate::rng::Rng;
use crate::rules::Rule;
use table::{HALF, slot};
pub use table::{PCODE_COUNT, Pattern, Pcode, Pcodes, Tables, Threat};

/// An index into the padded grid. Moves are carried as these inside the search.
pub type Idx = u16;

/// What the stones on an empty cell would make, per colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellInfo {
    /// Line patterns, `[colour][direction]`.
    pub pats: [[Pattern; 4]; 2],
    /// The pattern code of the four lines, per colour.
    pub pcode: [Pcode; 2],
    /// Combined threat per colour.
    pub threat: [Threat; 2],
}

const NO_INFO: CellInfo = CellInfo {
    pats: [[Pattern::Dead; 4]; 2],
    pcode: [0; 2],
    threat: [Threat::None; 2],
};

/// Values the board sums over its empty cells, by the pcode each colour has there:
/// `[colour][pcode]`, each entry a pair `[as the side to move, as the side that just moved]`.
/// The evaluation owns the numbers; the board only keeps their sums up to date, so a
/// position's evaluation costs no scan of the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellValues {
    pub by_pcode: [Vec<[i32; 2]>; 2],
}

impl CellValues {
    /// All zero: a board that needs no evaluation.
    #[must_use]
    pub fn zero() -> Arc<CellValues> {
        static ZERO: std::sync::OnceLock<Arc<CellValues>> = std::sync::OnceLock::new();
        ZERO.get_or_init(|| {
            Arc::new(CellValues {
                by_pcode: [vec![[0; 2]; PCODE_COUNT], vec![[0; 2]; PCODE_COUNT]],
            })
        })
        .clone()
    }

    fn of(&self, color: usize, pcode: Pcode) -> [i32; 2] {
        self.by_pcode[color][usize::from(pcode)]
    }
}

/// Per-colour tallies over the empty cells.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Counts {
    /// Combined threats, `[colour][threat]`, one per empty cell.
    pub threats: [[u16; Threat::COUNT]; 2],
    /// Sums of the [`CellValues`] over the empty cells, `[colour][role]`.
    pub values: [[i32; 2]; 2],
}

impl Counts {
    /// Adds (`sign` 1) or removes (`sign` -1) one empty cell's tallies.
    fn add(&mut self, info: &CellInfo, values: &CellValues, sign: i32) {
        for c in 0..2 {
            let n = &mut self.threats[c][info.threat[c] as usize];
            *n = n.wrapping_add_signed(sign as i16);
            let v = values.of(c, info.pcode[c]);
            for (sum, v) in self.values[c].iter_mut().zip(v) {
                *sum += sign * v;
            }
        }
    }
}

/// Everything derived from the stones; recomputable from scratch for checking.
#[derive(Clone, Debug)]
struct Derived {
    keys: Vec<[u32; 4]>,
    info: Vec<CellInfo>,
    near: Vec<u8>,
    counts: Counts,
    hash: u64,
}

/// One move made on the board and what its `undo` puts back.
#[derive(Clone, Debug)]
struct Made {
    counts: Counts,
    /// Where this move's entries in [`PatternBoard::overwritten`] start.
    first: usize,
}

/// A slot that a stone on some cell fills in a line neighbour's key.
struct KeySlot {
    /// The neighbour, within the padding: the stone's cell is a playing cell and
    /// `k <= HALF <= PAD`.
    q: usize,
    dir: usize,
    /// Steps from the stone's cell to `q`.
    k: usize,
    /// Where the stone's two bits sit in `keys[q][dir]`.
    shift: u32,
}

/// The cells along the four lines out from a cell: [`PatternBoard::line_cells`]. A plain
/// counter rather than nested iterators or a division per step: the network's update walks
/// these lines for every move it applies.
#[derive(Clone, Debug)]
pub struct LineCells {
    at: isize,
    steps: [isize; 4],
    reach: usize,
    /// The direction being walked, and the step within it: `j / 2 + 1` cells out, back for
    /// even `j`, forth for odd.
    dir: usize,
    j: usize,
}

impl Iterator for LineCells {
    type Item = (usize, isize, Idx);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.dir == 4 || self.reach == 0 {
            return None;
        }
        let (dir, j) = (self.dir, self.j);
        let k = (j / 2 + 1) as isize;
        let k = if j % 2 == 0 { -k } else { k };
        self.j += 1;
        if self.j == 2 * self.reach {
            self.j = 0;
            self.dir += 1;
        }
        Some((dir, k, (self.at + k * self.steps[dir]) as Idx))
    }
}

/// Calls `f` for each key slot a stone on cell `i` fills: `HALF` neighbours each side on
/// every line. Plain loops and a closure, not an iterator chain: this is the hottest loop
/// of the search, and the chain measured 60 % slower.
#[inline(always)]
fn for_each_key_slot(steps: [isize; 4], i: usize, mut f: impl FnMut(KeySlot)) {
    for (dir, step) in steps.into_iter().enumerate() {
        for k in 1..=HALF as isize {
            for off in [-k, k] {
                f(KeySlot {
                    q: (i as isize + off * step) as usize,
                    dir,
                    k: k as usize,
                    shift: 2 * slot(-off as i32),
                });
            }
        }
    }
}

/// The incremental board. Build it from a [`Board`], then `make`/`undo` moves in LIFO order.
pub struct PatternBoard {
    rule: Rule,
    cells: Padded,
    d: Derived,
    /// Index steps of [`Dir::ALL`] in the padded grid.
    steps: [isize; 4],
    /// Index offsets of the cells a stone makes candidates (itself included).
    candidate_offsets: Vec<isize>,
    zobrist: Vec<[u64; 2]>,
    tables: &'static Tables,
    pcodes: &'static Pcodes,
    values: Arc<CellValues>,
    board: Board,
    moves: Vec<Made>,
    /// Each of `moves`' cell and colour, apart: what [`PatternBoard::made`] lends, a
    /// slice the incremental network state compares with its own at every evaluation.
    made: Vec<(Idx, Color)>,
    /// The infos `make` overwrote, cell by cell, for `undo` to put back: restoring is
    /// cheaper than the table lookups of a recomputation.
    overwritten: Vec<(usize, CellInfo)>,
    /// Check the incremental state against a recomputation on every `make` and `undo`.
    /// On by default in debug builds (the debug test pass runs with it), off in release;
    /// the check itself is a `debug_assert!`, so release builds never run it.
    pub verify: bool,
}

/// Cells within this Chebyshev distance of a stone are candidates for a move.
pub const CANDIDATE_SQUARE: isize = 2;
/// So are the cells on a stone's lines within this distance.
pub const CANDIDATE_LINE: isize = 2;

// The candidate area stays within the padding around the playing cells.
const _: () = assert!(CANDIDATE_SQUARE <= CANDIDATE_LINE && (CANDIDATE_LINE as usize) < PAD);

/// The index offsets of the candidate area around a stone, itself included.
fn candidate_offsets(stride: usize, steps: &[isize; 4]) -> Vec<isize> {
    let stride = stride as isize;
    let square = (-CANDIDATE_SQUARE..=CANDIDATE_SQUARE)
        .flat_map(move |dy| (-CANDIDATE_SQUARE..=CANDIDATE_SQUARE).map(move |dx| dy * stride + dx));
    let lines = steps.iter().flat_map(|&step| {
        (1..=CANDIDATE_LINE)
            .filter(|&k| k > CANDIDATE_SQUARE)
            .flat_map(move |k| [k * step, -k * step])
    });
    square.chain(lines).collect()
}

/// The key flipped in the hash when white is to move.
pub const SIDE_KEY: u64 = 0x9E6C_63D0_676A_9A99;

impl PatternBoard {
    /// The pattern board of `board`'s stones and blocked cells under `rule`, summing no
    /// values.
    #[must_use]
    pub fn new(board: &Board, rule: Rule) -> PatternBoard {
        PatternBoard::with_values(board, rule, CellValues::zero())
    }

    /// The pattern board of `board` under `rule`, keeping the sums of `values`.
    #[must_use]
    pub fn with_values(board: &Board, rule: Rule, values: Arc<CellValues>) -> PatternBoard {
        let cells = Padded::new(board);
        let steps = Dir::ALL.map(|d| cells.step(d));
        let candidate_offsets = candidate_offsets(cells.stride(), &steps);
        // Fixed seed: hashes (and so the search's node counts) are the same on every run.
        let mut rng = Rng::new(0x486F_7368_695A_6F62);
        let zobrist = (0..cells.len())
            .map(|_| [rng.next_u64(), rng.next_u64()])
            .collect();
        let mut pb = PatternBoard {
            rule,
            cells,
            d: Derived {
                keys: Vec::new(),
                info: Vec::new(),
                near: Vec::new(),
                counts: Counts::default(),
                hash: 0,
            },
            steps,
            candidate_offsets,
            zobrist,
            tables: Tables::get(rule),
            pcodes: Pcodes::get(),
            values,
            board: board.clone(),
            moves: Vec::new(),
            made: Vec::new(),
            overwritten: Vec::new(),
            verify: cfg!(debug_assertions),
        };
        pb.d = pb.recompute();
        pb
    }

    #[must_use]
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The board in sync with the stones here.
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    #[must_use]
    pub fn idx(&self, p: Pos) -> Idx {
        // The frame of a 32x32 board has 42 * 42 cells: indices fit a u16.
        self.cells.index(p) as Idx
    }

    #[must_use]
    pub fn pos(&self, i: Idx) -> Pos {
        self.cells.pos(usize::from(i))
    }

    /// Every playing cell, row-major (the deterministic tie-break order).
    pub fn all_cells(&self) -> impl Iterator<Item = Idx> + '_ {
        self.cells.board_cells().map(|i| i as Idx)
    }

    /// The cells up to four steps from `i` along the four lines (padding cells included:
    /// they are never empty). Every five through `i` lies within them.
    pub fn line_neighbours(&self, i: Idx) -> impl Iterator<Item = Idx> + '_ {
        self.line_cells(i, HALF - 1).map(|(_, _, q)| q)
    }

    /// The cells from `i` outwards along `Dir::ALL[dir]`, backwards for `way` -1 and
    /// forwards for 1, up to `reach` steps and up to and including the first wall (padding
    /// or a blocked cell): each as `(offset, cell)`, the offset signed as `way`.
    pub fn ray(
        &self,
        i: Idx,
        dir: usize,
        way: isize,
        reach: usize,
    ) -> impl Iterator<Item = (isize, Idx)> + '_ {
        debug_assert!(reach <= PAD && way.abs() == 1);
        let step = way * self.steps[dir];
        let mut open = true;
        (1..=reach as isize).map_while(move |k| {
            let q = (i as isize + k * step) as Idx;
            let this = open.then_some((way * k, q));
            open = open && !self.is_wall(q);
            this
        })
    }

    /// The cells up to `reach` steps from `i` along the four lines, `i` left out, each as
    /// `(direction, offset, cell)`: the index in [`Dir::ALL`], the steps along it (-1, 1,
    /// -2, 2, ... out to `reach`: nearer cells first) and the cell (padding cells included;
    /// `reach` must not pass the frame, [`PAD`]).
    pub fn line_cells(&self, i: Idx, reach: usize) -> LineCells {
        debug_assert!(reach <= PAD);
        LineCells {
            at: i as isize,
            steps: self.steps,
            reach,
            dir: 0,
            j: 0,
        }
    }

    /// How many cells each side of a cell its patterns (and pcode) depend on: a stone
    /// further away along a line changes none of them.
    #[must_use]
    pub fn pattern_reach(&self) -> usize {
        self.tables.reach()
    }

    /// The moves made through [`PatternBoard::make`] and not undone, oldest first.
    #[must_use]
    pub fn made(&self) -> &[(Idx, Color)] {
        &self.made
    }

    /// The cells around `i` where a stone joins a line through `i` or stands close by: the
    /// 5x5 square and the four lines out to four steps (40 cells; padding included, it is
    /// never empty). Quiescence looks for a continuation of fours there.
    pub fn neighbourhood(&self, i: Idx) -> impl Iterator<Item = Idx> + '_ {
        let i = i as isize;
        let stride = self.cells.stride() as isize;
        let square = (-2..=2isize)
            .flat_map(move |dy| (-2..=2isize).map(move |dx| dy * stride + dx))
            .filter(|&o| o != 0);
        let lines = self
            .steps
            .iter()
            .flat_map(|&step| [3, 4, -3, -4].map(|k| k * step));
        square.chain(lines).map(move |o| (i + o) as Idx)
    }

    /// The line joining two distinct cells within the tables' reach, if any: its index in
    /// [`Dir::ALL`] and how many steps along it (negative: backwards) `to` lies from `from`.
    fn line_between(&self, from: Idx, to: Idx) -> Option<(usize, i32)> {
        let (a, b) = (self.pos(from), self.pos(to));
        let (dx, dy) = (
            i32::from(b.x) - i32::from(a.x),
            i32::from(b.y) - i32::from(a.y),
        );
        let steps = dx.abs().max(dy.abs());
        if steps == 0 || steps as usize > self.tables.reach() {
            return None;
        }
        Dir::ALL.iter().enumerate().find_map(|(dir, d)| {
            [steps, -steps]
                .into_iter()
                .find(|&k| (d.dx * k, d.dy * k) == (dx, dy))
                .map(|k| (dir, k))
        })
    }

    /// Whether a stone on `stone` can change the patterns of the empty cell `cell`: the
    /// same cell, or one on a line through it within the tables' reach (the cells `make`
    /// refreshes).
    #[must_use]
    pub fn touches(&self, stone: Idx, cell: Idx) -> bool {
        stone == cell || self.line_between(cell, stone).is_some()
    }

    /// The threat `color` would have on the empty cell `cell` after a stone of `stone_color`
    /// on `at`, a cell it touches (not itself), without making the move: only the line
    /// joining the two changes, so one table lookup answers what `make` would recompute.
    #[must_use]
    pub fn threat_after(&self, cell: Idx, color: Color, at: Idx, stone_color: Color) -> Threat {
        let (dir, offset) = self
            .line_between(cell, at)
            .expect("threat_after of a stone that touches the cell");
        let info = self.info(cell);
        let shift = 2 * slot(offset);
        let key = self.d.keys[usize::from(cell)][dir];
        let key = (key & !(3 << shift)) | (u32::from(stone(stone_color)) << shift);
        let mut pats = info.pats[color as usize];
        pats[dir] = self.tables.pattern(color, key);
        self.pcodes.threat(self.pcodes.pcode(pats))
    }

    /// The last stone placed, if any.
    #[must_use]
    pub fn last_move(&self) -> Option<Idx> {
        self.board.last_move().map(|(p, _)| self.idx(p))
    }

    /// The last stone of `color` on the board, if any.
    #[must_use]
    pub fn last_stone_of(&self, color: Color) -> Option<Idx> {
        let history = self.board.history();
        history
            .iter()
            .rev()
            .take(2)
            .find(|&&(_, c)| c == color)
            .map(|&(p, _)| self.idx(p))
    }

    /// Whether `i` is a wall: a padding cell past the edge, or a blocked cell.
    #[must_use]
    pub fn is_wall(&self, i: Idx) -> bool {
        self.cells.get(usize::from(i)) == WALL
    }

    #[must_use]
    pub fn is_empty(&self, i: Idx) -> bool {
        self.cells.get(usize::from(i)) == EMPTY
    }

    /// The colour of the stone on `i`, if any.
    #[must_use]
    pub fn stone_at(&self, i: Idx) -> Option<Color> {
        padded::color_of(self.cells.get(usize::from(i)))
    }

    /// The cells of the line through `i` along `Dir::ALL[dir]`, from `reach` cells before
    /// it to `reach` cells after, as [`padded`] codes: [`EMPTY`], a stone's, or the wall
    /// (the edge, or a blocked cell). `reach` must not pass the frame, [`PAD`].
    pub fn line_window(&self, i: Idx, dir: usize, reach: usize) -> impl Iterator<Item = u8> + '_ {
        debug_assert!(reach <= PAD);
        let (step, r) = (self.steps[dir], reach as isize);
        let i = i as isize;
        (-r..=r).map(move |t| self.cells.get((i + t * step) as usize))
    }

    /// Patterns and threats of an empty cell (all dead on an occupied one).
    #[inline]
    #[must_use]
    pub fn info(&self, i: Idx) -> &CellInfo {
        &self.d.info[usize::from(i)]
    }

    #[inline]
    #[must_use]
    pub fn threat(&self, i: Idx, color: Color) -> Threat {
        self.d.info[usize::from(i)].threat[color as usize]
    }

    /// Whether the empty cell `i` is worth a move: a stone lies within
    /// [`CANDIDATE_SQUARE`] cells (Chebyshev), or on one of its lines within
    /// [`CANDIDATE_LINE`].
    #[inline]
    #[must_use]
    pub fn is_candidate(&self, i: Idx) -> bool {
        self.is_empty(i) && self.d.near[usize::from(i)] > 0
    }

    /// The values whose sums this board keeps.
    #[must_use]
    pub fn cell_values(&self) -> &Arc<CellValues> {
        &self.values
    }

    #[must_use]
    pub fn counts(&self) -> &Counts {
        &self.d.counts
    }

    /// How many empty cells give `color` at least `threat`.
    #[must_use]
    pub fn threat_count_at_least(&self, color: Color, threat: Threat) -> u32 {
        self.d.counts.threats[color as usize][threat as usize..]
            .iter()
            .map(|&n| u32::from(n))
            .sum()
    }

    /// Zobrist hash of the stones (side to move not included).
    #[must_use]
    pub fn hash(&self) -> u64 {
        self.d.hash
    }

    /// The hash after a stone of `color` on the empty cell `i`, without making the move.
    #[must_use]
    pub fn hash_after(&self, i: Idx, color: Color) -> u64 {
        self.d.hash ^ self.zobrist[usize::from(i)][color as usize]
    }

    /// Stones played through `make` and not yet undone.
    #[must_use]
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// Whether a black stone on the empty cell `i` is a renju foul. The patterns rule out
    /// most cells cheaply; the rest are judged by [`Rule::foul`].
    #[must_use]
    pub fn is_foul(&self, i: Idx) -> bool {
        if self.rule != Rule::Renju {
            return false;
        }
        let pats = &self.info(i).pats[Color::Black as usize];
        let n = |p: Pattern| pats.iter().filter(|&&q| q == p).count();
        let suspicious = n(Pattern::Five) == 0
            && (n(Pattern::Overline) > 0
                || n(Pattern::Flex4) > 0
                || n(Pattern::Block4) >= 2
                || n(Pattern::Flex3) >= 2);
        suspicious
            && self
                .rule
                .foul(&self.board, self.pos(i), Color::Black)
                .is_some()
    }

    /// Whether `color` may play on `i`: empty and, for black in renju, no foul.
    #[must_use]
    pub fn is_legal(&self, i: Idx, color: Color) -> bool {
        self.is_empty(i) && !(color == Color::Black && self.is_foul(i))
    }

    /// Places a stone of `color` on the empty cell `i`.
    pub fn make(&mut self, i: Idx, color: Color) {
        debug_assert!(self.is_empty(i), "make on an occupied cell");
        let iu = usize::from(i);
        self.made.push((i, color));
        self.moves.push(Made {
            counts: self.d.counts.clone(),
            first: self.overwritten.len(),
        });
        self.overwritten.push((iu, self.d.info[iu]));
        self.uncount(iu);
        self.d.info[iu] = NO_INFO;
        self.cells.set(iu, stone(color));
        self.d.hash ^= self.zobrist[iu][color as usize];
        self.update_lines(iu, u32::from(stone(color)));
        self.update_near(iu, true);
        // The cell is on the board and empty, so the sync cannot fail.
        let _ = self.board.place(self.pos(i), color);
        self.check();
    }

    /// Takes back the last move made here.
    pub fn undo(&mut self) {
        let (Some(made), Some((at, color))) = (self.moves.pop(), self.made.pop()) else {
            return;
        };
        let iu = usize::from(at);
        self.cells.set(iu, EMPTY);
        self.d.hash ^= self.zobrist[iu][color as usize];
        self.clear_lines(iu);
        self.update_near(iu, false);
        for (q, info) in self.overwritten.drain(made.first..) {
            self.d.info[q] = info;
        }
        self.d.counts = made.counts;
        self.board.undo();
        self.check();
    }

    fn check(&self) {
        debug_assert!(
            !self.verify || self.is_consistent(),
            "incremental pattern state differs from a recomputation"
        );
    }

    /// Whether the incremental state equals a recomputation from the cells. Padding cells
    /// are left out: their keys and neighbour counts are written but never read.
    #[must_use]
    pub fn is_consistent(&self) -> bool {
        let fresh = self.recompute();
        fresh.counts == self.d.counts
            && fresh.hash == self.d.hash
            && self.all_cells().map(usize::from).all(|i| {
                fresh.keys[i] == self.d.keys[i]
                    && fresh.info[i] == self.d.info[i]
                    && fresh.near[i] == self.d.near[i]
            })
    }

    /// Writes the stone `code` on cell `i` into the keys of its line neighbours and
    /// refreshes the empty ones, saving their infos first.
    fn update_lines(&mut self, i: usize, code: u32) {
        let reach = self.tables.reach();
        // The value sums' change, added to the counts once: summed here it stays in
        // registers instead of a read-modify-write of the counts for every cell.
        let mut delta = [[0i32; 2]; 2];
        for_each_key_slot(self.steps, i, |s| {
            let key = &mut self.d.keys[s.q][s.dir];
            *key = (*key & !(3 << s.shift)) | (code << s.shift);
            if s.k <= reach && self.cells.get(s.q) == EMPTY {
                self.overwritten.push((s.q, self.d.info[s.q]));
                self.refresh_dir(s.q, s.dir, &mut delta);
            }
        });
        for (sums, delta) in self.d.counts.values.iter_mut().zip(delta) {
            for (sum, d) in sums.iter_mut().zip(delta) {
                *sum += d;
            }
        }
    }

    /// Empties cell `i` in the keys of its line neighbours (their infos are restored, not
    /// recomputed).
    fn clear_lines(&mut self, i: usize) {
        for_each_key_slot(self.steps, i, |s| {
            self.d.keys[s.q][s.dir] &= !(3 << s.shift)
        });
    }

    fn update_near(&mut self, i: usize, add: bool) {
        for &o in &self.candidate_offsets {
            let n = &mut self.d.near[(i as isize + o) as usize];
            *n = if add { *n + 1 } else { *n - 1 };
        }
    }

    fn uncount(&mut self, i: usize) {
        let info = self.d.info[i];
        self.d.counts.add(&info, &self.values, -1);
    }

    /// Recomputes one direction of an empty cell (and its threats), keeping the counts; the
    /// change of the value sums is added to `delta` for the caller to apply.
    fn refresh_dir(&mut self, q: usize, dir: usize, delta: &mut [[i32; 2]; 2]) {
        let key = self.d.keys[q][dir];
        let info = &mut self.d.info[q];
        let counts = &mut self.d.counts;
        let fresh = self.tables.patterns(key);
        for (c, &new) in fresh.iter().enumerate() {
            let old = info.pats[c][dir];
            if old == new {
                // Same line pattern, same pcode.
                continue;
            }
            // Built whole, not by a store at a variable index: reading the array back
            // right after a one-byte store into it stalls on store forwarding.
            let pats = std::array::from_fn(|d| if d == dir { new } else { info.pats[c][d] });
            info.pats[c] = pats;
            let pcode = self.pcodes.pcode(pats);
            let threat = self.pcodes.threat(pcode);
            if threat != info.threat[c] {
                // Skipped when equal (most often): the decrement and the increment of one
                // counter would make the second wait on the first.
                counts.threats[c][info.threat[c] as usize] -= 1;
                counts.threats[c][threat as usize] += 1;
            }
            let (was, now) = (self.values.of(c, info.pcode[c]), self.values.of(c, pcode));
            for (sum, (now, was)) in delta[c].iter_mut().zip(now.iter().zip(was)) {
                *sum += now - was;
            }
            info.pcode[c] = pcode;
            info.threat[c] = threat;
        }
    }

    fn info_from_keys(&self, keys: [u32; 4]) -> CellInfo {
        let pats = Color::BOTH.map(|c| std::array::from_fn(|d| self.tables.pattern(c, keys[d])));
        let pcode = pats.map(|p| self.pcodes.pcode(p));
        CellInfo {
            pats,
            pcode,
            threat: pcode.map(|p| self.pcodes.threat(p)),
        }
    }

    /// Everything derived, from the cells alone.
    fn recompute(&self) -> Derived {
        let size = self.cells.len();
        let mut d = Derived {
            keys: vec![[0; 4]; size],
            info: vec![NO_INFO; size],
            near: vec![0; size],
            counts: Counts::default(),
            hash: 0,
        };
        let playing: Vec<usize> = self.all_cells().map(usize::from).collect();
        for &i in &playing {
            for (dir, &step) in self.steps.iter().enumerate() {
                let mut key = 0;
                for off in (-(HALF as i32)..=HALF as i32).filter(|&o| o != 0) {
                    let q = (i as isize + off as isize * step) as usize;
                    key |= u32::from(self.cells.get(q)) << (2 * slot(off));
                }
                d.keys[i][dir] = key;
            }
            if let Some(c) = self.stone_at(i as Idx) {
                d.hash ^= self.zobrist[i][c as usize];
                for &o in &self.candidate_offsets {
                    d.near[(i as isize + o) as usize] += 1;
                }
            }
        }
        for &i in &playing {
            if self.cells.get(i) == EMPTY {
                let info = self.info_from_keys(d.keys[i]);
                d.counts.add(&info, &self.values, 1);
                d.info[i] = info;
            }
        }
        d
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board_with(rule: Rule, black: &[(u8, u8)], white: &[(u8, u8)]) -> PatternBoard {
        let b = Board::with_stones(15, 15, black, white).unwrap();
        PatternBoard::new(&b, rule)
    }

    #[test]
    fn threats_appear_on_the_right_cells() {
        let pb = board_with(Rule::Freestyle, &[(5, 7), (6, 7), (7, 7)], &[]);
        assert_eq!(
            pb.threat(pb.idx(Pos::new(4, 7)), Color::Black),
            Threat::Flex4
        );
        assert_eq!(
            pb.threat(pb.idx(Pos::new(8, 7)), Color::Black),
            Threat::Flex4
        );
        assert_eq!(
            pb.threat(pb.idx(Pos::new(3, 7)), Color::Black),
            Threat::Block4
        );
        assert_eq!(
            pb.threat(pb.idx(Pos::new(8, 7)), Color::White),
            Threat::None
        );
        assert!(pb.is_candidate(pb.idx(Pos::new(3, 5))));
        assert!(!pb.is_candidate(pb.idx(Pos::new(2, 7))));
    }

    #[test]
    fn corner_stones_see_the_wall() {
        let pb = board_with(Rule::Freestyle, &[(0, 0), (1, 0), (2, 0)], &[]);
        assert_eq!(
            pb.threat(pb.idx(Pos::new(3, 0)), Color::Black),
            Threat::Block4
        );
        assert_eq!(pb.pos(pb.idx(Pos::new(14, 3))), Pos::new(14, 3));
    }

    /// `line_cells` walks each direction in `Dir::ALL`'s order, nearer cells first, back
    /// before forth, out to the reach: the order its callers' wall tests rely on.
    #[test]
    fn line_cells_walk_outwards_one_direction_after_another() {
        let pb = board_with(Rule::Freestyle, &[], &[]);
        let at = Pos::new(7, 7);
        let cells: Vec<(usize, isize, Pos)> = pb
            .line_cells(pb.idx(at), 3)
            .map(|(dir, k, q)| (dir, k, pb.pos(q)))
            .collect();
        let mut expected = Vec::new();
        for (dir, d) in Dir::ALL.into_iter().enumerate() {
            let (dx, dy) = (d.dx, d.dy);
            for k in [-1, 1, -2, 2, -3, 3] {
                let p = Pos::new((7 + k * dx) as u8, (7 + k * dy) as u8);
                expected.push((dir, k as isize, p));
            }
        }
        assert_eq!(cells, expected);
        assert_eq!(pb.line_cells(pb.idx(at), 0).count(), 0);
    }

    /// Random make/undo walks on every rule and a few board sizes, each state compared with
    /// a recomputation. A seeded loop over the crate's own generator rather than proptest:
    /// no new dependency to compile on the shared build machine, and shrinking buys little
    /// when the failing step is printed with its seed.
    #[test]
    fn incremental_state_matches_recomputation_after_random_walks() {
        for (seed, (rule, side)) in [
            (Rule::Freestyle, 15),
            (Rule::Standard, 15),
            (Rule::Renju, 15),
            (Rule::Caro, 9),
            (Rule::CaroExact, 20),
            (Rule::Freestyle, 5),
        ]
        .into_iter()
        .enumerate()
        {
            let mut rng = Rng::new(seed as u64);
            let mut b = Board::new(side, side).unwrap();
            b.block(Pos::new(1, 1)).unwrap();
            let mut pb = PatternBoard::new(&b, rule);
            let start_hash = pb.hash();
            for step in 0..400 {
                let empties: Vec<Idx> = pb.all_cells().filter(|&i| pb.is_empty(i)).collect();
                if empties.is_empty() || (pb.ply() > 0 && rng.below(3) == 0) {
                    pb.undo();
                } else {
                    let color = Color::BOTH[rng.below(2)];
                    pb.make(empties[rng.below(empties.len())], color);
                }
                assert!(pb.is_consistent(), "seed {seed} step {step} rule {rule}");
            }
            while pb.ply() > 0 {
                pb.undo();
            }
            assert_eq!(pb.hash(), start_hash);
            assert_eq!(pb.board().history().len(), 0);
        }
    }

    /// `touches` and `threat_after` are what the move generator's defence check trusts: a
    /// stone leaves the patterns of every cell it does not touch as they were, and makes
    /// on each cell it touches the threat `threat_after` foretold. Random positions, every
    /// rule (freestyle's tables reach four cells, the others five).
    #[test]
    fn a_stone_changes_only_the_cells_it_touches_as_foretold() {
        for (seed, rule) in [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro]
            .into_iter()
            .enumerate()
        {
            let mut rng = Rng::new(100 + seed as u64);
            let mut pb = PatternBoard::new(&Board::new(15, 15).unwrap(), rule);
            let mut touched_changed = false;
            for _ in 0..60 {
                let empties: Vec<Idx> = pb.all_cells().filter(|&i| pb.is_empty(i)).collect();
                let stone = empties[rng.below(empties.len())];
                let color = Color::BOTH[rng.below(2)];
                let before: Vec<CellInfo> = empties.iter().map(|&c| *pb.info(c)).collect();
                let foretold: Vec<[Threat; 2]> = empties
                    .iter()
                    .map(|&c| {
                        let touched = c != stone && pb.touches(stone, c);
                        Color::BOTH.map(|who| {
                            if touched {
                                pb.threat_after(c, who, stone, color)
                            } else {
                                Threat::None
                            }
                        })
                    })
                    .collect();
                pb.make(stone, color);
                for ((&c, was), foretold) in empties.iter().zip(&before).zip(&foretold) {
                    if c == stone {
                        continue;
                    }
                    if pb.touches(stone, c) {
                        touched_changed |= pb.info(c) != was;
                        assert_eq!(pb.info(c).threat, *foretold, "rule {rule}: {:?}", pb.pos(c));
                    } else {
                        assert_eq!(pb.info(c), was, "rule {rule}: {:?}", pb.pos(c));
                    }
                }
            }
            // The test would pass on a board that never changes: it must see changes.
            assert!(touched_changed, "rule {rule}");
        }
    }

    /// Debug builds only: there the check runs on every move by default, and a state that
    /// drifted from the stones is caught on the next `make`.
    #[cfg(debug_assertions)]
    #[test]
    #[should_panic(expected = "differs from a recomputation")]
    fn a_drifted_state_is_caught_on_the_next_move_in_debug_builds() {
        let mut pb = board_with(Rule::Standard, &[(7, 7)], &[(8, 8)]);
        assert!(pb.verify, "on by default in debug builds");
        pb.make(pb.idx(Pos::new(6, 6)), Color::Black);
        pb.undo();
        pb.d.counts.threats[0][Threat::Flex2 as usize] += 1;
        pb.make(pb.idx(Pos::new(6, 6)), Color::Black);
    }
}
