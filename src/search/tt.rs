//! The shared transposition table: lock-free and sound.
//!
//! Each entry is two `AtomicU64`: a check word and a data word. The check word is `key ^ data`
//! with its top `AGE_BITS` bits replaced by the entry's age (the search generation that
//! wrote it). A reader accepts an entry only if the check word XORs back to the key on every
//! other bit, so an entry torn by a concurrent writer (one word old, one new) is simply not
//! found; no lock and no `unsafe` are needed. Relaxed ordering suffices because an entry is a
//! hint that the search re-verifies (the move must be legal). The key's top bits, left out of
//! the comparison, are the ones that choose the bucket (`key * buckets >> 64`): two keys that
//! differ only there lie at least `buckets / 64` buckets apart, so in a table of 64 buckets
//! or more (any table of 1 MiB has 16384) the comparison is still exact.
//!
//! Entries are grouped in buckets of four, each bucket one 64-byte cache line
//! (`#[repr(align(64))]`), so a probe touches one line: the ages live in the entries, not in
//! a separate array. A store replaces the entry with the same key, else the least valuable
//! one (shallow and old first).

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};

use super::params::{TT_AGE_WEIGHT, TT_KEEP_DEEPER};
use crate::rules::Move;

/// What a stored score means relative to the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// No bound (empty entry).
    None = 0,
    /// The true value is at most the score (fail low).
    Upper = 1,
    /// The true value is at least the score (fail high).
    Lower = 2,
    /// The score is exact.
    Exact = 3,
}

/// A decoded entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Best or refutation move (may be [`Move::NONE`]).
    pub mv: Move,
    /// Score (mate scores relative to the node, see `search::score_to_tt`).
    pub score: i32,
    /// Static evaluation of the position, or [`Entry::NO_EVAL`] when not stored (in check,
    /// or outside the field's range).
    pub eval: i32,
    /// Depth of the search that produced it.
    pub depth: i32,
    /// Bound type.
    pub bound: Bound,
}

impl Entry {
    /// "No static evaluation stored".
    pub const NO_EVAL: i32 = i32::MIN;
}

// data layout: move 27 bits | bound 2 | depth 7 | score 16 | eval 12.
// Scores fit 16 bits (the search keeps them within +-MATE). The eval is stored exactly when it
// lies within +-2047 and otherwise not at all (raw 0), so a cached eval is never approximate;
// large evaluations (a 3D army is worth tens of thousands) are simply recomputed.
const MOVE_BITS: u64 = (1 << 27) - 1;
const EVAL_LIMIT: i32 = 2047;

fn pack(e: &Entry) -> u64 {
    let eval = if e.eval != Entry::NO_EVAL && e.eval.abs() <= EVAL_LIMIT {
        (e.eval + EVAL_LIMIT + 1) as u64
    } else {
        0
    };
    (e.mv.0 as u64 & MOVE_BITS)
        | (e.bound as u64) << 27
        | ((e.depth.clamp(-1, 126) + 1) as u64) << 29
        | ((e.score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16) as u64) << 36
        | eval << 52
}

fn unpack(data: u64) -> Entry {
    let bound = match (data >> 27) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => Bound::None,
    };
    let eval = ((data >> 52) & 0xfff) as i32;
    Entry {
        mv: Move((data & MOVE_BITS) as u32),
        bound,
        depth: ((data >> 29) & 0x7f) as i32 - 1,
        score: ((data >> 36) & 0xffff) as u16 as i16 as i32,
        eval: if eval == 0 {
            Entry::NO_EVAL
        } else {
            eval - EVAL_LIMIT - 1
        },
    }
}

/// Bits at the top of the check word that hold the entry's age.
const AGE_BITS: u32 = 6;
const AGE_SHIFT: u32 = 64 - AGE_BITS;
/// The ages wrap around modulo this.
const AGE_MASK: u8 = (1 << AGE_BITS) - 1;
/// The key bits the check word compares.
const KEY_MASK: u64 = (1 << AGE_SHIFT) - 1;

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    /// The data word, if the entry belongs to `key`.
    #[inline(always)]
    fn data_for(&self, key: u64) -> Option<u64> {
        let data = self.data.load(Relaxed);
        let check = self.check.load(Relaxed);
        ((check ^ data) & KEY_MASK == key & KEY_MASK && data != 0).then_some(data)
    }

    /// The generation that wrote the entry.
    #[inline(always)]
    fn age(&self) -> u8 {
        (self.check.load(Relaxed) >> AGE_SHIFT) as u8
    }

    #[inline(always)]
    fn write(&self, key: u64, data: u64, age: u8) {
        self.check.store(
            ((key ^ data) & KEY_MASK) | (age as u64) << AGE_SHIFT,
            Relaxed,
        );
        self.data.store(data, Relaxed);
    }

    fn clear(&self) {
        self.check.store(0, Relaxed);
        self.data.store(0, Relaxed);
    }
}

const BUCKET: usize = 4;

/// Four entries on one cache line.
#[repr(align(64))]
#[derive(Default)]
struct Bucket([Slot; BUCKET]);

/// The table.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: AtomicU8,
}

impl TranspositionTable {
    /// A table of about `mib` MiB (at least one bucket). Panics if the memory cannot be
    /// had; see [`TranspositionTable::try_new`].
    pub fn new(mib: usize) -> Self {
        Self::try_new(mib).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table of about `mib` MiB (at least one bucket), or an error when the memory cannot
    /// be had. `Hash` accepts up to 64 GiB, more than many machines have: the allocation must
    /// be allowed to fail without aborting the engine.
    pub fn try_new(mib: usize) -> Result<Self, String> {
        let cannot = |why: &dyn std::fmt::Display| format!("cannot allocate {mib} MiB: {why}");
        let bytes = mib
            .max(1)
            .checked_mul(1024 * 1024)
            .ok_or_else(|| cannot(&"too large"))?;
        let n = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let mut buckets = Vec::new();
        buckets.try_reserve_exact(n).map_err(|e| cannot(&e))?;
        // Writing every entry makes the whole table resident now, not in the first search.
        buckets.extend((0..n).map(|_| Bucket::default()));
        Ok(TranspositionTable {
            buckets,
            generation: AtomicU8::new(0),
        })
    }

    /// Empties the table.
    pub fn clear(&self) {
        for b in &self.buckets {
            for s in &b.0 {
                s.clear();
            }
        }
        self.generation.store(0, Relaxed);
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        let g = self.generation.load(Relaxed);
        self.generation.store(g.wrapping_add(1) & AGE_MASK, Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &Bucket {
        &self.buckets[(((key as u128) * (self.buckets.len() as u128)) >> 64) as usize]
    }

    /// Asks the CPU to bring `key`'s bucket into its cache, so that a probe soon after (the
    /// position a move just led to) need not wait for memory.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            // SAFETY: a prefetch has no effect but on the cache; the address is the bucket's.
            unsafe { _mm_prefetch::<_MM_HINT_T0>((self.bucket(key) as *const Bucket).cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry for `key`, if stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.bucket(key)
            .0
            .iter()
            .find_map(|s| s.data_for(key))
            .map(unpack)
    }

    /// Stores an entry for `key`. An existing entry's move is kept when the new one has none.
    #[inline]
    pub fn store(&self, key: u64, mut e: Entry) {
        let slots = &self.bucket(key).0;
        let gen_now = self.generation.load(Relaxed);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for (i, s) in slots.iter().enumerate() {
            let data = s.data.load(Relaxed);
            if data == 0 {
                victim = i;
                break;
            }
            if let Some(data) = s.data_for(key) {
                let old = unpack(data);
                if e.mv.is_none() {
                    e.mv = old.mv;
                }
                // Keep a deeper exact result of this search over a shallow bound.
                if e.bound != Bound::Exact
                    && old.depth > e.depth + TT_KEEP_DEEPER
                    && s.age() == gen_now
                {
                    return;
                }
                victim = i;
                break;
            }
            let age = (gen_now.wrapping_sub(s.age()) & AGE_MASK) as i32;
            let worth = unpack(data).depth - TT_AGE_WEIGHT * age;
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        slots[victim].write(key, pack(&e), gen_now);
    }

    /// Per mille of the first thousand entries holding a result of the current search.
    pub fn hashfull(&self) -> u32 {
        let gen_now = self.generation.load(Relaxed);
        let slots = self.buckets.iter().flat_map(|b| &b.0).take(1000);
        let (mut n, mut used) = (0, 0);
        for s in slots {
            n += 1;
            if s.data.load(Relaxed) != 0 && s.age() == gen_now {
                used += 1;
            }
        }
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::MoveFlag;

    #[test]
    fn stores_and_finds_entries() {
        let tt = TranspositionTable::new(1);
        let e = Entry {
            mv: Move::new(299, 17, Some(3), MoveFlag::Normal),
            score: -31_990,
            eval: -120,
            depth: 17,
            bound: Bound::Lower,
        };
        tt.store(0xDEAD_BEEF_1234_5678, e);
        assert_eq!(tt.probe(0xDEAD_BEEF_1234_5678), Some(e));
        assert_eq!(tt.probe(0xDEAD_BEEF_1234_5679), None);
        // Evaluations are kept exactly or not at all; extreme values survive intact.
        for (eval, back) in [
            (2047, 2047),
            (-2047, -2047),
            (2048, Entry::NO_EVAL),
            (-9000, Entry::NO_EVAL),
        ] {
            let e2 = Entry {
                eval,
                depth: 126,
                score: 32_000,
                ..e
            };
            tt.store(42, e2);
            let got = tt.probe(42).unwrap();
            assert_eq!(
                (got.eval, got.depth, got.score, got.mv),
                (back, 126, 32_000, e.mv)
            );
        }
        tt.clear();
        assert_eq!(tt.probe(0xDEAD_BEEF_1234_5678), None);
    }

    #[test]
    fn a_bucket_is_one_cache_line_and_ages_live_in_it() {
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
        assert_eq!(std::mem::align_of::<Bucket>(), 64);
        let tt = TranspositionTable::new(1);
        assert_eq!(tt.buckets.len(), 1024 * 1024 / 64);
        let start = tt.buckets.as_ptr() as usize;
        assert_eq!(start % 64, 0, "buckets start on a cache line");
        let e = Entry {
            mv: Move::NONE,
            score: 1,
            eval: 2,
            depth: 3,
            bound: Bound::Exact,
        };
        tt.new_search();
        tt.store(7, e);
        assert_eq!(tt.probe(7), Some(e));
        // Two generations later the same entry is still found, and reads as old.
        tt.new_search();
        tt.new_search();
        assert_eq!(tt.probe(7), Some(e));
        assert_eq!(tt.hashfull(), 0);
        let slot = tt.bucket(7).0.iter().find(|s| s.data_for(7).is_some());
        assert_eq!(slot.map(|s| s.age()), Some(1));
    }

    #[test]
    fn an_impossible_size_is_an_error() {
        // 2^50 bytes: more than any address space; usize::MAX MiB overflows the byte count.
        assert!(TranspositionTable::try_new(1 << 30).is_err());
        assert!(TranspositionTable::try_new(usize::MAX).is_err());
        assert!(TranspositionTable::try_new(1).is_ok());
    }

    #[test]
    fn survives_concurrent_writers() {
        let tt = std::sync::Arc::new(TranspositionTable::new(1));
        std::thread::scope(|s| {
            for t in 0..2u64 {
                let tt = tt.clone();
                s.spawn(move || {
                    for i in 0..200_000u64 {
                        let key = (i % 64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ t;
                        tt.store(
                            key,
                            Entry {
                                mv: Move::NONE,
                                score: (i % 1000) as i32,
                                eval: 0,
                                depth: (key % 50) as i32,
                                bound: Bound::Exact,
                            },
                        );
                        if let Some(e) = tt.probe(key) {
                            // Whatever is found belongs to this key (depth derives from it).
                            assert_eq!(e.depth, (key % 50) as i32);
                        }
                    }
                });
            }
        });
    }
}
