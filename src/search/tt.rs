//! The transposition table: one entry per slot, sized in bytes, keyed by Zobrist hash.
//!
//! An entry is two words: the full key, and the packed data (score, depth, bound,
//! generation, move). Zeroed words are an empty slot, so the table is allocated zeroed,
//! which the allocator hands out lazily: a large table costs nothing until it is used.

use crate::pattern::Idx;

/// How the stored score bounds the true one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Upper = 1,
    Lower = 2,
    Exact = 3,
}

/// What a probe finds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
    /// The best or refuting move, if one was found.
    pub mv: Option<Idx>,
}

const ENTRY_BYTES: usize = 16;

/// A fixed-size table.
pub struct Tt {
    slots: Vec<[u64; 2]>,
    generation: u8,
}

impl Tt {
    /// A table of at most `bytes` bytes (at least one entry; a power of two of them).
    #[must_use]
    pub fn new(bytes: usize) -> Tt {
        let wanted = (bytes / ENTRY_BYTES).max(1);
        // The largest power of two not above `wanted`.
        let n = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        Tt {
            slots: vec![[0; 2]; n],
            generation: 1,
        }
    }

    /// Bytes used by the entries.
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.slots.len() * ENTRY_BYTES
    }

    /// Forgets every entry. The table is reallocated rather than overwritten: zeroed
    /// memory comes lazily from the system, so clearing a large table costs no time now.
    pub fn clear(&mut self) {
        let n = self.slots.len();
        self.slots = Vec::new();
        self.slots = vec![[0; 2]; n];
        self.generation = 1;
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&mut self) {
        self.generation = (self.generation % 63) + 1;
    }

    fn slot(&self, key: u64) -> usize {
        // The length is a power of two.
        (key as usize) & (self.slots.len() - 1)
    }

    #[must_use]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let [k, data] = self.slots[self.slot(key)];
        if k != key || data == 0 {
            return None;
        }
        let bound = match (data >> 24) & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            _ => Bound::Exact,
        };
        let mv = (data >> 32) as u16;
        Some(Entry {
            score: i32::from(data as u16 as i16),
            depth: i32::from((data >> 16) as u8) - 1,
            bound,
            mv: (mv != 0).then_some(mv),
        })
    }

    /// Stores unless the slot holds a deeper entry of this search for another position.
    pub fn store(&mut self, key: u64, score: i32, depth: i32, bound: Bound, mv: Option<Idx>) {
        let i = self.slot(key);
        let [k, old] = self.slots[i];
        let old_gen = ((old >> 26) & 63) as u8;
        let old_depth = i32::from((old >> 16) as u8) - 1;
        if k != key && old != 0 && old_gen == self.generation && old_depth > depth {
            return;
        }
        // Scores fit in i16 (mates are near 30000); depths in 0..=254 after the +1 shift.
        let data = u64::from(score.clamp(-32_000, 32_000) as i16 as u16)
            | (u64::from(depth.clamp(-1, 253) as u8 + 1) << 16)
            | ((bound as u64) << 24)
            | (u64::from(self.generation) << 26)
            | (u64::from(mv.unwrap_or(0)) << 32);
        self.slots[i] = [key, data];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_probes_round_trip_and_size_is_a_power_of_two() {
        let mut tt = Tt::new(1000);
        assert_eq!(tt.bytes(), 512);
        tt.store(0xABCD_0001, -29_990, 7, Bound::Lower, Some(123));
        let e = tt.probe(0xABCD_0001).unwrap();
        assert_eq!(
            e,
            Entry {
                score: -29_990,
                depth: 7,
                bound: Bound::Lower,
                mv: Some(123)
            }
        );
        assert_eq!(tt.probe(0xABCD_0002), None);
        tt.clear();
        assert_eq!(tt.probe(0xABCD_0001), None);
    }

    #[test]
    fn a_deeper_entry_of_this_search_is_kept() {
        let mut tt = Tt::new(16);
        tt.store(1, 5, 9, Bound::Exact, None);
        tt.store(2, 6, 3, Bound::Exact, None);
        assert_eq!(tt.probe(1).map(|e| e.depth), Some(9));
        tt.new_search();
        tt.store(2, 6, 3, Bound::Exact, None);
        assert_eq!(tt.probe(2).map(|e| e.score), Some(6));
    }
}
