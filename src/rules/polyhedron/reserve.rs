//! A side's reserve: the multiset of its own piece types captured so far, from which its pawns
//! promote and its Unicorns may promote after a capture.

use super::tables::{KINDS, LETTERS, kind};
use crate::rules::piece::Kind;

/// The reserve of one side: a count per piece kind (never King or Pawn).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Reserve {
    counts: [u8; KINDS],
}

impl Reserve {
    /// How many pieces of `kind` the reserve holds.
    #[inline(always)]
    pub fn count(&self, kind: Kind) -> usize {
        self.counts[kind as usize] as usize
    }

    /// The kinds present, as a bit mask (bit `k` for kind `k`).
    #[inline(always)]
    pub fn kinds(&self) -> u16 {
        let mut mask = 0;
        for (k, &n) in self.counts.iter().enumerate() {
            if n > 0 {
                mask |= 1 << k;
            }
        }
        mask
    }

    /// Whether the reserve is empty.
    pub fn is_empty(&self) -> bool {
        self.counts.iter().all(|&n| n == 0)
    }

    /// Total number of items.
    pub fn len(&self) -> usize {
        self.counts.iter().map(|&n| n as usize).sum()
    }

    /// Adds one `kind`; returns the new count.
    #[inline(always)]
    pub(super) fn add(&mut self, kind: Kind) -> usize {
        debug_assert!(kind != kind::KING && kind != kind::PAWN);
        self.counts[kind as usize] += 1;
        self.counts[kind as usize] as usize
    }

    /// Takes one `kind` out; returns the count before.
    #[inline(always)]
    pub(super) fn take(&mut self, kind: Kind) -> usize {
        debug_assert!(self.counts[kind as usize] > 0);
        self.counts[kind as usize] -= 1;
        self.counts[kind as usize] as usize + 1
    }

    /// The letters of the items, in kind order, uppercase (`QRRN`).
    pub fn letters(&self) -> String {
        let mut s = String::new();
        for (k, &n) in self.counts.iter().enumerate() {
            for _ in 0..n {
                s.push(LETTERS[k]);
            }
        }
        s
    }
}
