//! The transposition table: buckets of four entries, one cache line each, keyed by Zobrist
//! hash, shared by every search thread without locks.
//!
//! An entry is two words: the key xor the data, and the data (score, static evaluation, move,
//! depth, bound, PV flag, generation). A thread reading while another writes sees a key that
//! does not match and treats the entry as absent, so a torn entry is never used. Zeroed words
//! are an empty slot; the table is allocated zeroed, which the system hands out lazily: a
//! large table costs nothing until it is used.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::pattern::Idx;

/// How the stored score bounds the true one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// Only the static evaluation is stored.
    None = 0,
    Upper = 1,
    Lower = 2,
    Exact = 3,
}

impl Bound {
    /// Whether a stored `score` with this bound settles a search of window `(alpha, beta)`.
    #[must_use]
    pub fn cuts(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::None => false,
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        }
    }

    /// Whether the true value is at least (`above`) or at most (`!above`) the stored one.
    #[must_use]
    pub fn holds(self, above: bool) -> bool {
        match self {
            Bound::None => false,
            Bound::Exact => true,
            Bound::Lower => above,
            Bound::Upper => !above,
        }
    }
}

/// What a probe finds, and what a store keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub score: i32,
    /// The static evaluation of the position, for the side to move; none where the search
    /// took the tables' value for a network's (a lazy evaluation far outside the window),
    /// which a later visit with another window may need.
    pub eval: Option<i32>,
    pub depth: i32,
    pub bound: Bound,
    /// Whether the position was on a principal variation.
    pub pv: bool,
    /// The best or refuting move, if one was found.
    pub mv: Option<Idx>,
}

impl Entry {
    /// The static evaluation `eval` of a position not searched yet, at a node that is
    /// (`pv`) or is not on a principal variation.
    #[must_use]
    pub fn evaluation(eval: i32, pv: bool) -> Entry {
        Entry {
            score: 0,
            eval: Some(eval),
            depth: 0,
            bound: Bound::None,
            pv,
            mv: None,
        }
    }
}

/// Depths are stored shifted by this, so that quiescence entries (depth 0 and below) fit.
const DEPTH_OFFSET: i32 = 16;
const ENTRY_WORDS: usize = 2;
const BUCKET_ENTRIES: usize = 4;
const BUCKET_WORDS: usize = ENTRY_WORDS * BUCKET_ENTRIES;
const BUCKET_BYTES: usize = BUCKET_WORDS * 8;
/// Generations are five bits.
const GENERATIONS: u8 = 32;

/// A fixed-size table shared by reference.
pub struct Tt {
    /// The buckets, from `words[first]` on, and up to a bucket's worth of slack before and
    /// after: `first` makes each bucket one cache line.
    words: Box<[AtomicU64]>,
    first: usize,
    buckets: usize,
    generation: u8,
}

impl Tt {
    /// A table of at most `bytes` bytes (at least one bucket; a power of two of them).
    #[must_use]
    pub fn new(bytes: usize) -> Tt {
        let wanted = (bytes / BUCKET_BYTES).max(1);
        // The largest power of two not above `wanted`.
        let buckets = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        let (words, first) = zeroed_buckets(buckets);
        Tt {
            words,
            first,
            buckets,
            generation: 1,
        }
    }

    /// Bytes used by the entries.
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.buckets * BUCKET_BYTES
    }

    /// Forgets every entry. The table is reallocated rather than overwritten: zeroed
    /// memory comes lazily from the system, so clearing a large table costs no time now.
    pub fn clear(&mut self) {
        self.words = zeroed_words(0);
        (self.words, self.first) = zeroed_buckets(self.buckets);
        self.generation = 1;
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) % GENERATIONS;
    }

    fn bucket(&self, key: u64) -> &[AtomicU64] {
        // The bucket count is a power of two; the high bits pick the bucket so that the
        // low bits, which the entry check also covers, stay independent of it.
        let b = ((u128::from(key) * self.buckets as u128) >> 64) as usize;
        let start = self.first + b * BUCKET_WORDS;
        &self.words[start..start + BUCKET_WORDS]
    }

    /// Asks the processor to load `key`'s bucket into its cache, for a probe soon after:
    /// issued before the move that leads there is made, the load overlaps the pattern
    /// board's update instead of stalling the probe.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            // SAFETY: a prefetch is a hint that never faults nor changes memory, whatever
            // the address (here one inside the table).
            unsafe { _mm_prefetch::<_MM_HINT_T0>(self.bucket(key).as_ptr().cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    #[must_use]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let bucket = self.bucket(key);
        bucket.chunks_exact(ENTRY_WORDS).find_map(|e| {
            let data = e[1].load(Ordering::Relaxed);
            let check = e[0].load(Ordering::Relaxed);
            (data != 0 && check ^ data == key).then(|| unpack(data))
        })
    }

    /// Stores `entry` under `key`: a search result, or (with [`Bound::None`]) only the
    /// static evaluation. The position's own entry is replaced, keeping its move when the
    /// new one has none; otherwise the bucket's least valuable entry: the shallowest, older
    /// generations first.
    pub fn store(&self, key: u64, entry: Entry) {
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        let mut old_move = None;
        for (n, e) in bucket.chunks_exact(ENTRY_WORDS).enumerate() {
            let data = e[1].load(Ordering::Relaxed);
            let check = e[0].load(Ordering::Relaxed);
            if data == 0 {
                if victim_worth > i32::MIN {
                    victim = n;
                    victim_worth = i32::MIN;
                }
                continue;
            }
            if check ^ data == key {
                victim = n;
                old_move = unpack(data).mv;
                // A quiescence or evaluation-only store does not replace a real result
                // of this search.
                let old = unpack(data);
                if entry.bound == Bound::None && old.bound != Bound::None {
                    return;
                }
                break;
            }
            let age =
                i32::from((self.generation + GENERATIONS - generation_of(data)) % GENERATIONS);
            let worth = unpack(data).depth - 8 * age;
            if worth < victim_worth {
                victim = n;
                victim_worth = worth;
            }
        }
        let data = pack(
            Entry {
                mv: entry.mv.or(old_move),
                ..entry
            },
            self.generation,
        );
        let e = &bucket[victim * ENTRY_WORDS..(victim + 1) * ENTRY_WORDS];
        e[0].store(key ^ data, Ordering::Relaxed);
        e[1].store(data, Ordering::Relaxed);
    }
}

/// Zeroed words for `buckets` buckets that each fill one cache line, and the index of the
/// first. A stricter alignment than the words' own would make the allocator zero the
/// memory itself, page by page, instead of taking it zeroed (and uncommitted) from the
/// system; a bucket's worth of slack does the aligning instead.
fn zeroed_buckets(buckets: usize) -> (Box<[AtomicU64]>, usize) {
    let words = zeroed_words((buckets + 1) * BUCKET_WORDS);
    let misalign = words.as_ptr() as usize % BUCKET_BYTES;
    let first = (BUCKET_BYTES - misalign) % BUCKET_BYTES / size_of::<AtomicU64>();
    (words, first)
}

/// `n` zeroed words, from the allocator's zeroed memory (lazily committed by the system).
fn zeroed_words(n: usize) -> Box<[AtomicU64]> {
    if n == 0 {
        return Box::new([]);
    }
    let layout =
        std::alloc::Layout::array::<AtomicU64>(n).expect("table size fits the address space");
    // SAFETY: the layout is non-empty; an all-zero bit pattern is a valid `AtomicU64`
    // (it has the same in-memory representation as `u64`), so the zeroed allocation is an
    // initialised `[AtomicU64; n]`, whose ownership the box takes with this same layout.
    unsafe {
        let ptr = std::alloc::alloc_zeroed(layout).cast::<AtomicU64>();
        if ptr.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, n))
    }
}

// Data word layout, low bits first: score i16, eval i16 (or `NO_EVAL`), move u16, depth u8
// (shifted by DEPTH_OFFSET, so never 0 for a stored entry: an all-zero word is an empty
// slot), bound 2 bits, PV 1 bit, generation 5 bits.
fn pack(e: Entry, generation: u8) -> u64 {
    // Scores and evaluations fit in i16 (mates are near 30000); below them, `NO_EVAL`.
    let eval = e.eval.map_or(NO_EVAL, |v| v.clamp(-32_000, 32_000) as i16);
    u64::from(e.score.clamp(-32_000, 32_000) as i16 as u16)
        | (u64::from(eval as u16) << 16)
        | (u64::from(e.mv.unwrap_or(0)) << 32)
        | (u64::from((e.depth + DEPTH_OFFSET).clamp(1, 255) as u8) << 48)
        | ((e.bound as u64) << 56)
        | (u64::from(e.pv) << 58)
        | (u64::from(generation) << 59)
}

/// The stored evaluation of an entry without one.
const NO_EVAL: i16 = i16::MIN;

fn generation_of(data: u64) -> u8 {
    ((data >> 59) & u64::from(GENERATIONS - 1)) as u8
}

fn unpack(data: u64) -> Entry {
    let bound = match (data >> 56) & 3 {
        0 => Bound::None,
        1 => Bound::Upper,
        2 => Bound::Lower,
        _ => Bound::Exact,
    };
    let mv = (data >> 32) as u16;
    Entry {
        score: i32::from(data as u16 as i16),
        eval: Some((data >> 16) as u16 as i16)
            .filter(|&v| v != NO_EVAL)
            .map(i32::from),
        depth: i32::from((data >> 48) as u8) - DEPTH_OFFSET,
        bound,
        pv: (data >> 58) & 1 == 1,
        mv: (mv != 0).then_some(mv),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(
        score: i32,
        eval: Option<i32>,
        depth: i32,
        bound: Bound,
        pv: bool,
        mv: Option<Idx>,
    ) -> Entry {
        Entry {
            score,
            eval,
            depth,
            bound,
            pv,
            mv,
        }
    }

    #[test]
    fn stores_and_probes_round_trip_and_size_is_a_power_of_two() {
        let mut tt = Tt::new(1000);
        assert_eq!(tt.bytes(), 512);
        tt.store(
            0xABCD_0001,
            entry(-29_990, Some(17), 7, Bound::Lower, true, Some(123)),
        );
        let e = tt.probe(0xABCD_0001).unwrap();
        assert_eq!(
            e,
            Entry {
                score: -29_990,
                eval: Some(17),
                depth: 7,
                bound: Bound::Lower,
                pv: true,
                mv: Some(123)
            }
        );
        assert_eq!(tt.probe(0xABCD_0002), None);
        tt.store(
            0xABCD_0003,
            entry(5, Some(-3), 0, Bound::Upper, false, None),
        );
        assert_eq!(
            tt.probe(0xABCD_0003).map(|e| (e.depth, e.eval)),
            Some((0, Some(-3)))
        );
        // No evaluation, and the most negative one, stay apart.
        tt.store(0xABCD_0004, entry(5, None, 0, Bound::Upper, false, None));
        tt.store(
            0xABCD_0005,
            entry(5, Some(-40_000), 0, Bound::Upper, false, None),
        );
        assert_eq!(tt.probe(0xABCD_0004).map(|e| e.eval), Some(None));
        assert_eq!(tt.probe(0xABCD_0005).map(|e| e.eval), Some(Some(-32_000)));
        tt.clear();
        assert_eq!(tt.probe(0xABCD_0001), None);
    }

    #[test]
    fn every_bucket_is_one_cache_line_after_a_clear_too() {
        let mut tt = Tt::new(1 << 16);
        for _ in 0..2 {
            for key in (0..64u64).map(|k| k.wrapping_mul(0x9E37_79B9_7F4A_7C15)) {
                let bucket = tt.bucket(key);
                assert_eq!(bucket.as_ptr() as usize % BUCKET_BYTES, 0);
                assert_eq!(bucket.len(), BUCKET_WORDS);
            }
            tt.clear();
        }
    }

    #[test]
    fn a_bucket_keeps_four_positions_and_evicts_the_shallowest() {
        // One bucket: every key lands in it.
        let mut tt = Tt::new(BUCKET_BYTES);
        for k in 1..=4u64 {
            tt.store(
                k,
                entry(0, Some(0), k as i32 + 1, Bound::Exact, false, None),
            );
        }
        assert!((1..=4).all(|k| tt.probe(k).is_some()));
        tt.store(5, entry(0, Some(0), 9, Bound::Exact, false, None));
        assert_eq!(tt.probe(1), None, "the shallowest goes");
        assert!((2..=5).all(|k| tt.probe(k).is_some()));
        // Older generations go before deeper entries of this search.
        tt.new_search();
        tt.store(6, entry(0, Some(0), 1, Bound::Exact, false, None));
        tt.store(7, entry(0, Some(0), 1, Bound::Exact, false, None));
        assert_eq!(tt.probe(6).map(|e| e.depth), Some(1));
        assert_eq!(tt.probe(7).map(|e| e.depth), Some(1));
    }

    #[test]
    fn an_evaluation_store_keeps_the_result_and_a_result_keeps_the_move() {
        let tt = Tt::new(1 << 12);
        tt.store(42, entry(100, Some(20), 5, Bound::Lower, false, Some(77)));
        tt.store(42, entry(0, Some(20), -1, Bound::None, false, None));
        assert_eq!(tt.probe(42).map(|e| e.score), Some(100));
        tt.store(42, entry(-50, Some(20), 6, Bound::Upper, false, None));
        let e = tt.probe(42).unwrap();
        assert_eq!((e.score, e.mv), (-50, Some(77)));
    }

    #[test]
    fn bounds_cut_the_windows_they_settle() {
        assert!(Bound::Lower.cuts(10, 0, 5) && !Bound::Lower.cuts(4, 0, 5));
        assert!(Bound::Upper.cuts(-1, 0, 5) && !Bound::Upper.cuts(1, 0, 5));
        assert!(Bound::Exact.cuts(3, 0, 5) && !Bound::None.cuts(3, 0, 5));
    }
}
