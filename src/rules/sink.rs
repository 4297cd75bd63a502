//! Where generated moves go: every variant's generator hands its moves to a [`MoveSink`], as
//! whole target sets where it can. [`ListSink`] writes them into a [`MoveList`] (for the
//! search); [`CountSink`] only adds up how many there are, which is all the last ply of perft
//! needs, without writing a move.

use super::bitset::{BitSet, Cell};
use super::moves::{Move, MoveFlag, MoveList};
use super::piece::Kind;

/// Receives generated moves.
pub trait MoveSink<const W: usize> {
    /// One move.
    fn one(&mut self, m: Move);
    /// Plain moves from `from` to each of `targets`.
    fn set(&mut self, from: Cell, targets: BitSet<W>);
    /// Promotions from `from` to each of `targets`, one per kind of `kinds`, in that order.
    fn promotions(&mut self, from: Cell, targets: BitSet<W>, kinds: &[Kind]);
    /// Drops of a piece of `kind` on each of `targets`.
    fn drops(&mut self, kind: Kind, targets: BitSet<W>);
    /// Missile shots from `from` at each of `targets`.
    fn shots(&mut self, from: Cell, targets: BitSet<W>);
}

/// Collects moves into a [`MoveList`].
pub struct ListSink<'a>(pub &'a mut MoveList);

impl<const W: usize> MoveSink<W> for ListSink<'_> {
    #[inline(always)]
    fn one(&mut self, m: Move) {
        self.0.push(m);
    }
    #[inline(always)]
    fn set(&mut self, from: Cell, targets: BitSet<W>) {
        for to in targets {
            self.0.push(Move::normal(from, to));
        }
    }
    #[inline(always)]
    fn promotions(&mut self, from: Cell, targets: BitSet<W>, kinds: &[Kind]) {
        for to in targets {
            for &k in kinds {
                self.0.push(Move::promotion_to(from, to, k));
            }
        }
    }
    #[inline(always)]
    fn drops(&mut self, kind: Kind, targets: BitSet<W>) {
        for to in targets {
            self.0.push(Move::drop(kind, to));
        }
    }
    #[inline(always)]
    fn shots(&mut self, from: Cell, targets: BitSet<W>) {
        for to in targets {
            self.0.push(Move::with_flag(from, to, MoveFlag::Shot));
        }
    }
}

/// Counts moves without listing them.
#[derive(Default)]
pub struct CountSink(pub u64);

impl<const W: usize> MoveSink<W> for CountSink {
    #[inline(always)]
    fn one(&mut self, _: Move) {
        self.0 += 1;
    }
    #[inline(always)]
    fn set(&mut self, _: Cell, targets: BitSet<W>) {
        self.0 += targets.len() as u64;
    }
    #[inline(always)]
    fn promotions(&mut self, _: Cell, targets: BitSet<W>, kinds: &[Kind]) {
        self.0 += targets.len() as u64 * kinds.len() as u64;
    }
    #[inline(always)]
    fn drops(&mut self, _: Kind, targets: BitSet<W>) {
        self.0 += targets.len() as u64;
    }
    #[inline(always)]
    fn shots(&mut self, _: Cell, targets: BitSet<W>) {
        self.0 += targets.len() as u64;
    }
}

/// The kinds of a bit mask (bit `k` for kind `k`), lowest first, as a list to hand to
/// [`MoveSink::promotions`]: `(storage, count)`.
#[inline(always)]
pub fn kinds_of_mask(mut mask: u16) -> ([Kind; 16], usize) {
    let mut kinds = [0; 16];
    let mut n = 0;
    while mask != 0 {
        kinds[n] = mask.trailing_zeros() as Kind;
        n += 1;
        mask &= mask - 1;
    }
    (kinds, n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_and_count_agree() {
        let targets: BitSet<1> = [3, 9, 40].into_iter().collect();
        let mut list = MoveList::new();
        let mut count = CountSink::default();
        for sink in [&mut ListSink(&mut list) as &mut dyn MoveSink<1>, &mut count] {
            sink.one(Move::PASS);
            sink.set(1, targets);
            sink.promotions(2, targets, &[4, 3]);
            sink.drops(6, targets);
            sink.shots(5, targets);
        }
        assert_eq!(list.len() as u64, count.0);
        assert_eq!(count.0, 1 + 3 + 6 + 3 + 3);
        // Promotions keep the order of the kinds given.
        let promos: Vec<_> = list.iter().filter_map(|m| m.promotion()).take(2).collect();
        assert_eq!(promos, [4, 3]);
        assert_eq!(
            kinds_of_mask(0b1010_0001),
            ([0, 5, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 3)
        );
    }
}
