//! The incremental pattern board the full-strength search runs on.
//!
//! Cells live in a padded grid ([`Padded`], five wall cells on every side) so that line
//! scans never check bounds. Every cell keeps, per direction, the line key of its ten neighbours; every
//! empty cell keeps the [`Pattern`] each colour would make along each line and the combined
//! [`Threat`]. A move touches only the four lines through the stone, five cells each way.
//! Counts of patterns and threats over the empty cells are kept too, for the evaluation and
//! for cheap "does anybody have a four" questions.
//!
//! A [`Board`] is kept in sync inside, so renju's forbidden points are judged in one place
//! ([`Rule::foul`]); the pattern board only says which cells could be forbidden.

pub mod table;

use crate::board::padded::{self, EMPTY, Padded, stone};
use crate::board::{Board, Color, Dir, Pos};
use crate::rng::Rng;
use crate::rules::Rule;
use table::{HALF, slot};
pub use table::{Pattern, Tables, Threat};

/// An index into the padded grid. Moves are carried as these inside the search.
pub type Idx = u16;

/// What the stones on an empty cell would make, per colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellInfo {
    /// Line patterns, `[colour][direction]`.
    pub pats: [[Pattern; 4]; 2],
    /// Combined threat per colour.
    pub threat: [Threat; 2],
}

const NO_INFO: CellInfo = CellInfo {
    pats: [[Pattern::Dead; 4]; 2],
    threat: [Threat::None; 2],
};

/// Per-colour tallies over the empty cells.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Counts {
    /// Line patterns, `[colour][pattern]`, one per empty cell and direction.
    pub pats: [[u16; Pattern::COUNT]; 2],
    /// Combined threats, `[colour][threat]`, one per empty cell.
    pub threats: [[u16; Threat::COUNT]; 2],
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

/// The incremental board. Build it from a [`Board`], then `make`/`undo` moves in LIFO order.
pub struct PatternBoard {
    rule: Rule,
    cells: Padded,
    d: Derived,
    /// Index steps of [`Dir::ALL`] in the padded grid.
    steps: [isize; 4],
    zobrist: Vec<[u64; 2]>,
    tables: &'static Tables,
    board: Board,
    moves: Vec<Idx>,
    /// Check the incremental state against a recomputation on every `make` and `undo`.
    /// On by default in debug builds (the debug test pass runs with it), off in release;
    /// the check itself is a `debug_assert!`, so release builds never run it.
    pub verify: bool,
}

/// The key flipped in the hash when white is to move.
pub const SIDE_KEY: u64 = 0x9E6C_63D0_676A_9A99;

impl PatternBoard {
    /// The pattern board of `board`'s stones and blocked cells under `rule`.
    #[must_use]
    pub fn new(board: &Board, rule: Rule) -> PatternBoard {
        let cells = Padded::new(board);
        let steps = Dir::ALL.map(|d| cells.step(d));
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
            zobrist,
            tables: Tables::get(rule),
            board: board.clone(),
            moves: Vec::new(),
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
        let i = i as isize;
        self.steps.iter().flat_map(move |&step| {
            (1..HALF as isize)
                .flat_map(move |k| [i - k * step, i + k * step])
                .map(|q| q as Idx)
        })
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

    /// Whether a stone lies within two cells (Chebyshev) of the empty cell `i`.
    #[inline]
    #[must_use]
    pub fn is_candidate(&self, i: Idx) -> bool {
        self.is_empty(i) && self.d.near[usize::from(i)] > 0
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
        self.uncount(iu);
        self.d.info[iu] = NO_INFO;
        self.cells.set(iu, stone(color));
        self.d.hash ^= self.zobrist[iu][color as usize];
        self.update_lines(iu, u32::from(stone(color)));
        self.update_near(iu, true);
        // The cell is on the board and empty, so the sync cannot fail.
        let _ = self.board.place(self.pos(i), color);
        self.moves.push(i);
        self.check();
    }

    /// Takes back the last move made here.
    pub fn undo(&mut self) {
        let Some(i) = self.moves.pop() else {
            return;
        };
        let iu = usize::from(i);
        let color = self.stone_at(i).expect("undo of a stone made here");
        self.cells.set(iu, EMPTY);
        self.d.hash ^= self.zobrist[iu][color as usize];
        self.update_lines(iu, 0);
        self.update_near(iu, false);
        self.refresh(iu);
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

    /// Writes `code` (a stone, or empty) for cell `i` into the keys of its line neighbours
    /// and refreshes the empty ones.
    fn update_lines(&mut self, i: usize, code: u32) {
        for (dir, step) in self.steps.into_iter().enumerate() {
            for k in 1..=HALF as isize {
                for sign in [-1, 1] {
                    // Within the padding: `i` is a playing cell and k <= PAD.
                    let q = (i as isize + sign * k * step) as usize;
                    let shift = 2 * slot(-(sign * k) as i32);
                    let key = &mut self.d.keys[q][dir];
                    *key = (*key & !(3 << shift)) | (code << shift);
                    if self.cells.get(q) == EMPTY {
                        self.refresh_dir(q, dir);
                    }
                }
            }
        }
    }

    fn update_near(&mut self, i: usize, add: bool) {
        for dy in -2..=2isize {
            for dx in -2..=2isize {
                let q = (i as isize + dy * self.cells.stride() as isize + dx) as usize;
                let n = &mut self.d.near[q];
                *n = if add { *n + 1 } else { *n - 1 };
            }
        }
    }

    fn uncount(&mut self, i: usize) {
        let info = self.d.info[i];
        for c in 0..2 {
            for p in info.pats[c] {
                self.d.counts.pats[c][p as usize] -= 1;
            }
            self.d.counts.threats[c][info.threat[c] as usize] -= 1;
        }
    }

    fn count(&mut self, i: usize) {
        let info = self.d.info[i];
        for c in 0..2 {
            for p in info.pats[c] {
                self.d.counts.pats[c][p as usize] += 1;
            }
            self.d.counts.threats[c][info.threat[c] as usize] += 1;
        }
    }

    /// Recomputes one direction of an empty cell (and its threats), keeping the counts.
    fn refresh_dir(&mut self, q: usize, dir: usize) {
        let key = self.d.keys[q][dir];
        let info = &mut self.d.info[q];
        let counts = &mut self.d.counts;
        let fresh = self.tables.patterns(key);
        for (c, &new) in fresh.iter().enumerate() {
            let old = info.pats[c][dir];
            if old == new {
                // Same line pattern, same combined threat.
                continue;
            }
            info.pats[c][dir] = new;
            counts.pats[c][old as usize] -= 1;
            counts.pats[c][new as usize] += 1;
            let threat = self.tables.threat(info.pats[c]);
            counts.threats[c][info.threat[c] as usize] -= 1;
            counts.threats[c][threat as usize] += 1;
            info.threat[c] = threat;
        }
    }

    /// Recomputes every direction of a cell that just became empty and counts it.
    fn refresh(&mut self, q: usize) {
        self.d.info[q] = self.info_from_keys(self.d.keys[q]);
        self.count(q);
    }

    fn info_from_keys(&self, keys: [u32; 4]) -> CellInfo {
        let pats = Color::BOTH.map(|c| std::array::from_fn(|d| self.tables.pattern(c, keys[d])));
        CellInfo {
            pats,
            threat: pats.map(|p| self.tables.threat(p)),
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
                for dy in -2..=2isize {
                    for dx in -2..=2isize {
                        d.near[(i as isize + dy * self.cells.stride() as isize + dx) as usize] += 1;
                    }
                }
            }
        }
        for &i in &playing {
            if self.cells.get(i) == EMPTY {
                let info = self.info_from_keys(d.keys[i]);
                for c in 0..2 {
                    for p in info.pats[c] {
                        d.counts.pats[c][p as usize] += 1;
                    }
                    d.counts.threats[c][info.threat[c] as usize] += 1;
                }
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
        pb.d.counts.pats[0][Pattern::Flex2 as usize] += 1;
        pb.make(pb.idx(Pos::new(6, 6)), Color::Black);
    }
}
