//! The transposition table: shared by all search threads, lock-free, in safe Rust.
//!
//! Each entry is two `AtomicU64`: the packed data, and the position key XOR the data. A reader
//! accepts an entry only if `stored_key ^ data == key`, which rejects both entries of other
//! positions and entries torn by a concurrent write (the two words from different writes).
//! Entries come in buckets of four (64 bytes, one cache line); a new entry replaces the same
//! position's entry, else the bucket's least valuable entry (shallow, or from an old search).

use konakis_core::geometry::{Geometry, Nine};
use konakis_core::types::MoveOf;
use std::sync::atomic::{AtomicU64, Ordering};

/// How a stored score relates to the true score.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The true score.
    Exact = 1,
    /// The true score is at least this (a fail-high).
    Lower = 2,
    /// The true score is at most this (a fail-low).
    Upper = 3,
}

/// What the table remembers about a position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Entry<G: Geometry = Nine> {
    /// Best or refutation move, if any.
    pub mv: Option<MoveOf<G>>,
    /// Score, with wins and losses relative to this position (see [`score_to_tt`]).
    pub score: i16,
    /// Static evaluation of the position.
    pub eval: i16,
    /// Remaining depth of the search that stored it.
    pub depth: u8,
    /// Bound type.
    pub bound: Bound,
    /// Search generation (6 bits) when stored.
    pub age: u8,
}

impl<G: Geometry> Entry<G> {
    /// Packs into 64 bits: move 16, score 16, eval 16, depth 8, bound 2, age 6.
    pub fn pack(self) -> u64 {
        let mv = self.mv.map_or(0, |m| m.raw()) as u64;
        mv | (self.score as u16 as u64) << 16
            | (self.eval as u16 as u64) << 32
            | (self.depth as u64) << 48
            | (self.bound as u64) << 56
            | ((self.age & 63) as u64) << 58
    }

    /// Unpacks [`Entry::pack`]; `None` for an empty slot (bound bits zero).
    pub fn unpack(data: u64) -> Option<Entry<G>> {
        let bound = match (data >> 56) & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        Some(Entry {
            mv: MoveOf::from_raw(data as u16).filter(|m| m.raw() != 0),
            score: (data >> 16) as u16 as i16,
            eval: (data >> 32) as u16 as i16,
            depth: (data >> 48) as u8,
            bound,
            age: (data >> 58) as u8 & 63,
        })
    }
}

const BUCKET: usize = 4;

/// One slot: key XOR data, and data.
#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

const _: () = assert!(std::mem::size_of::<Slot>() == 16);

/// A bucket fills one cache line and starts on one, so that a probe touches one line.
#[derive(Default)]
#[repr(align(64))]
struct Bucket([Slot; BUCKET]);

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

/// The table. Size is a power of two number of buckets.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    mask: usize,
    age: AtomicU64,
}

impl TranspositionTable {
    /// A table of at most `mib` MiB (at least one bucket). Panics if the memory cannot be had;
    /// see [`TranspositionTable::try_new`].
    pub fn new(mib: usize) -> TranspositionTable {
        TranspositionTable::try_new(mib).expect("memory for the transposition table")
    }

    /// A table of at most `mib` MiB (at least one bucket), or an error if the memory cannot be
    /// had.
    pub fn try_new(mib: usize) -> Result<TranspositionTable, super::SearchError> {
        let bytes = mib.max(1).saturating_mul(1024 * 1024);
        let buckets = (bytes / (16 * BUCKET))
            .checked_next_power_of_two()
            .unwrap_or(usize::MAX / 2 + 1);
        let buckets = if buckets.saturating_mul(16 * BUCKET) > bytes {
            buckets / 2
        } else {
            buckets
        }
        .max(1);
        let mut table = Vec::new();
        table
            .try_reserve_exact(buckets)
            .map_err(|_| super::SearchError::Memory { mib })?;
        table.resize_with(buckets, Bucket::default);
        Ok(TranspositionTable {
            buckets: table,
            mask: buckets - 1,
            age: AtomicU64::new(0),
        })
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// Empties the table.
    pub fn clear(&self) {
        for s in self.slots() {
            s.check.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Starts a new search generation, so that older entries are replaced first.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    fn age(&self) -> u8 {
        (self.age.load(Ordering::Relaxed) & 63) as u8
    }

    /// Every slot, bucket by bucket.
    fn slots(&self) -> impl Iterator<Item = &Slot> {
        self.buckets.iter().flat_map(|b| b.0.iter())
    }

    #[inline]
    fn bucket(&self, key: u64) -> &[Slot; BUCKET] {
        &self.buckets[key as usize & self.mask].0
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe<G: Geometry>(&self, key: u64) -> Option<Entry<G>> {
        for s in self.bucket(key) {
            let data = s.data.load(Ordering::Relaxed);
            if s.check.load(Ordering::Relaxed) ^ data == key {
                return Entry::unpack(data);
            }
        }
        None
    }

    /// Stores an entry for `key` (the age is set here).
    #[inline]
    pub fn store<G: Geometry>(&self, key: u64, mut entry: Entry<G>) {
        let age = self.age();
        entry.age = age;
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut worst = i32::MAX;
        for (i, s) in bucket.iter().enumerate() {
            let data = s.data.load(Ordering::Relaxed);
            let same = s.check.load(Ordering::Relaxed) ^ data == key;
            let old = Entry::unpack(data);
            if same || old.is_none() {
                // Keep the old move if the new entry has none.
                if same && entry.mv.is_none() {
                    entry.mv = old.and_then(|o| o.mv);
                }
                victim = i;
                break;
            }
            let old = old.expect("checked above");
            let stale = (age.wrapping_sub(old.age) & 63) as i32;
            let value = old.depth as i32 - 8 * stale;
            if value < worst {
                worst = value;
                victim = i;
            }
        }
        let data = entry.pack();
        bucket[victim].data.store(data, Ordering::Relaxed);
        bucket[victim].check.store(key ^ data, Ordering::Relaxed);
    }

    /// Permille of the first 1000 slots used by the current search generation.
    pub fn hashfull(&self) -> u32 {
        let age = self.age();
        let n = (self.buckets.len() * BUCKET).min(1000);
        let used = self
            .slots()
            .take(n)
            .filter_map(|s| Entry::<Nine>::unpack(s.data.load(Ordering::Relaxed)))
            .filter(|e| e.age == age)
            .count();
        (used * 1000 / n) as u32
    }
}

/// Mate scores are stored relative to the position, not the root: a win `n` plies from the
/// root found `ply` plies deep is a win `n - ply` plies from the stored position.
#[inline]
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= super::MATE_BOUND {
        score + ply as i32
    } else if score <= -super::MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`score_to_tt`].
#[inline]
pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= super::MATE_BOUND {
        score - ply as i32
    } else if score <= -super::MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    /// The size these tests play on.
    type Entry = super::Entry<konakis_core::geometry::Nine>;
    use crate::search::{MATE, MATE_BOUND};
    use konakis_core::types::Move;

    fn sample(depth: u8, score: i16) -> Entry {
        Entry {
            mv: Some(Move::parse("d1d3").unwrap()),
            score,
            eval: -1234,
            depth,
            bound: Bound::Lower,
            age: 0,
        }
    }

    #[test]
    fn packing_round_trips() {
        for bound in [Bound::Exact, Bound::Lower, Bound::Upper] {
            for score in [i16::MIN, -30000, -1, 0, 1, 29999, i16::MAX] {
                for age in [0u8, 1, 63] {
                    let e = Entry {
                        bound,
                        score,
                        age,
                        mv: None,
                        ..sample(255, 0)
                    };
                    assert_eq!(Entry::unpack(e.pack()), Some(e));
                    let e = Entry {
                        bound,
                        score,
                        age,
                        ..sample(0, 0)
                    };
                    assert_eq!(Entry::unpack(e.pack()), Some(e));
                }
            }
        }
        assert_eq!(Entry::unpack(0), None);
    }

    #[test]
    fn probe_finds_stored_and_rejects_foreign_keys() {
        let tt = TranspositionTable::new(1);
        tt.store(42, sample(5, 17));
        assert_eq!(tt.probe::<Nine>(42).unwrap().score, 17);
        assert_eq!(tt.probe::<Nine>(43), None);
        // a different key mapping to the same bucket
        let other = 42 + (tt.mask as u64 + 1);
        assert_eq!(tt.probe::<Nine>(other), None);
        tt.clear();
        assert_eq!(tt.probe::<Nine>(42), None);
    }

    #[test]
    fn replacement_keeps_deep_entries_and_prefers_stale_victims() {
        let tt = TranspositionTable::new(1);
        let stride = tt.mask as u64 + 1;
        for i in 0..4 {
            tt.store(7 + i * stride, sample(10 + i as u8, 0));
        }
        // bucket full: a fifth position replaces the shallowest (depth 10)
        tt.store(7 + 4 * stride, sample(1, 0));
        assert_eq!(tt.probe::<Nine>(7), None);
        assert!(tt.probe::<Nine>(7 + 3 * stride).is_some());
        // After three new searches, a fresh shallow entry outranks old deep ones.
        for _ in 0..3 {
            tt.new_search();
        }
        tt.store(7 + 5 * stride, sample(1, 0)); // replaces the old depth-1 entry
        assert_eq!(tt.probe::<Nine>(7 + 4 * stride), None);
        tt.store(7 + 6 * stride, sample(1, 0)); // replaces the old depth-11 entry
        assert_eq!(tt.probe::<Nine>(7 + stride), None);
        assert!(tt.probe::<Nine>(7 + 5 * stride).is_some());
        assert!(tt.probe::<Nine>(7 + 6 * stride).is_some());
    }

    #[test]
    fn mate_scores_are_adjusted_by_ply() {
        let win = MATE - 7;
        assert!(win >= MATE_BOUND);
        assert_eq!(score_to_tt(win, 3), MATE - 4);
        assert_eq!(score_from_tt(score_to_tt(win, 3), 3), win);
        assert_eq!(score_from_tt(score_to_tt(-win, 5), 5), -win);
        assert_eq!(score_to_tt(123, 9), 123);
    }

    #[test]
    fn an_impossible_size_is_an_error_not_an_abort() {
        assert!(TranspositionTable::try_new(usize::MAX / (1 << 20)).is_err());
    }

    #[test]
    fn size_follows_the_hash_option() {
        assert_eq!(TranspositionTable::new(1).bytes(), 1024 * 1024);
        assert_eq!(TranspositionTable::new(16).bytes(), 16 * 1024 * 1024);
        assert!(TranspositionTable::new(3).bytes() <= 3 * 1024 * 1024);
    }
}
