//! A set of board cells as a fixed number of 64-bit words.
//!
//! Every variant picks the width it needs (`W = 1` for the 64 cells of chess and Podionic,
//! `2` for Pentaplane's 125, `4` for the 256 cells of the four-colour game, `5` for
//! Polyhedron's 300) and the compiler monomorphises all board code for that width, so chess
//! pays for exactly one `u64`.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign};

/// A cell index in a variant's compact numbering (see [`crate::rules::geometry`]).
pub type Cell = usize;

/// A set of cells, `64 * W` bits wide.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct BitSet<const W: usize>(pub [u64; W]);

impl<const W: usize> Default for BitSet<W> {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl<const W: usize> BitSet<W> {
    /// The empty set.
    pub const EMPTY: Self = Self([0; W]);

    /// The set holding only `cell`.
    #[inline(always)]
    pub fn from_cell(cell: Cell) -> Self {
        let mut s = Self::EMPTY;
        s.insert(cell);
        s
    }

    /// Whether `cell` is in the set.
    #[inline(always)]
    pub fn contains(self, cell: Cell) -> bool {
        (self.0[cell >> 6] >> (cell & 63)) & 1 != 0
    }

    /// Adds `cell`.
    #[inline(always)]
    pub fn insert(&mut self, cell: Cell) {
        self.0[cell >> 6] |= 1u64 << (cell & 63);
    }

    /// Removes `cell`.
    #[inline(always)]
    pub fn remove(&mut self, cell: Cell) {
        self.0[cell >> 6] &= !(1u64 << (cell & 63));
    }

    /// Flips membership of `cell`.
    #[inline(always)]
    pub fn toggle(&mut self, cell: Cell) {
        self.0[cell >> 6] ^= 1u64 << (cell & 63);
    }

    /// Whether the set is empty.
    #[inline(always)]
    pub fn is_empty(self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// Whether the set is not empty.
    #[inline(always)]
    pub fn any(self) -> bool {
        !self.is_empty()
    }

    /// Number of cells in the set.
    #[inline(always)]
    pub fn len(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// Whether the set has two or more cells.
    #[inline(always)]
    pub fn more_than_one(self) -> bool {
        if W == 1 {
            return self.0[0] & self.0[0].wrapping_sub(1) != 0;
        }
        self.len() > 1
    }

    /// The lowest cell, if any.
    #[inline(always)]
    pub fn first(self) -> Option<Cell> {
        for (i, &w) in self.0.iter().enumerate() {
            if w != 0 {
                return Some(i * 64 + w.trailing_zeros() as usize);
            }
        }
        None
    }

    /// The highest cell, if any.
    #[inline(always)]
    pub fn last(self) -> Option<Cell> {
        for i in (0..W).rev() {
            let w = self.0[i];
            if w != 0 {
                return Some(i * 64 + 63 - w.leading_zeros() as usize);
            }
        }
        None
    }

    /// Removes and returns the lowest cell.
    #[inline(always)]
    pub fn pop_first(&mut self) -> Option<Cell> {
        for i in 0..W {
            let w = self.0[i];
            if w != 0 {
                self.0[i] = w & w.wrapping_sub(1);
                return Some(i * 64 + w.trailing_zeros() as usize);
            }
        }
        None
    }

    /// The cells in `self` and not in `other`.
    #[inline(always)]
    pub fn and_not(self, other: Self) -> Self {
        let mut r = self;
        for i in 0..W {
            r.0[i] &= !other.0[i];
        }
        r
    }

    /// Whether every cell of `self` is in `other`.
    #[inline(always)]
    pub fn is_subset(self, other: Self) -> bool {
        self.and_not(other).is_empty()
    }

    /// Whether the two sets share a cell.
    #[inline(always)]
    pub fn intersects(self, other: Self) -> bool {
        (self & other).any()
    }

    /// Iterates over the cells in increasing order.
    #[inline(always)]
    pub fn iter(self) -> Iter<W> {
        Iter(self)
    }
}

/// Iterator over the cells of a [`BitSet`], lowest first.
pub struct Iter<const W: usize>(BitSet<W>);

impl<const W: usize> Iterator for Iter<W> {
    type Item = Cell;
    #[inline(always)]
    fn next(&mut self) -> Option<Cell> {
        self.0.pop_first()
    }
}

impl<const W: usize> IntoIterator for BitSet<W> {
    type Item = Cell;
    type IntoIter = Iter<W>;
    fn into_iter(self) -> Iter<W> {
        Iter(self)
    }
}

impl<const W: usize> FromIterator<Cell> for BitSet<W> {
    fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> Self {
        let mut s = Self::EMPTY;
        for c in iter {
            s.insert(c);
        }
        s
    }
}

macro_rules! bit_op {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl<const W: usize> $tr for BitSet<W> {
            type Output = Self;
            #[inline(always)]
            fn $f(self, rhs: Self) -> Self {
                let mut r = self;
                for i in 0..W {
                    r.0[i] $op rhs.0[i];
                }
                r
            }
        }
        impl<const W: usize> $tra for BitSet<W> {
            #[inline(always)]
            fn $fa(&mut self, rhs: Self) {
                for i in 0..W {
                    self.0[i] $op rhs.0[i];
                }
            }
        }
    };
}
bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &=);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |=);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^=);

impl<const W: usize> std::fmt::Debug for BitSet<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations_across_words() {
        let mut s = BitSet::<5>::EMPTY;
        assert!(s.is_empty());
        for c in [0, 63, 64, 200, 299] {
            s.insert(c);
        }
        assert_eq!(s.len(), 5);
        assert_eq!(s.first(), Some(0));
        assert_eq!(s.last(), Some(299));
        assert!(s.contains(64) && !s.contains(65));
        s.remove(0);
        assert_eq!(s.first(), Some(63));
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![63, 64, 200, 299]);
        let t: BitSet<5> = [64, 100].into_iter().collect();
        assert_eq!((s & t).iter().collect::<Vec<_>>(), vec![64]);
        assert_eq!(s.and_not(t).len(), 3);
        assert!(s.more_than_one());
        assert!(!BitSet::<1>::from_cell(5).more_than_one());
        assert!(BitSet::<1>::from_cell(5).is_subset(BitSet::<1>([0x20])));
    }
}
