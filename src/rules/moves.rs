//! Moves, packed into 32 bits, and move lists.
//!
//! One move type serves every variant: from-cell and to-cell (up to 512 cells), an optional
//! piece kind (promotion, drop or Unicorn promotion) and a flag naming the special rule the
//! move uses. What the fields mean in detail is the variant's business; the search only needs
//! equality, hashing and a compact form for the transposition table.

use super::bitset::Cell;
use super::piece::Kind;

/// What kind of move this is, beyond a plain from-to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum MoveFlag {
    /// An ordinary move or capture (possibly a promotion, see [`Move::promotion`]).
    Normal = 0,
    /// A pawn's double step, which creates an en passant cell.
    DoubleStep = 1,
    /// An en passant capture.
    EnPassant = 2,
    /// Castling, written as the King's move.
    Castle = 3,
    /// A piece put on the board from hand or reserve; `from == to`, the kind in `promotion`.
    Drop = 4,
    /// A missile shot: the piece on `from` stays, the piece on `to` is hit.
    Shot = 5,
    /// A pass (a colour with no other move, in the four-colour variant).
    Pass = 6,
}

/// Which castling a castling move is, for readable notation: the short one (`O-O`, on the
/// King's side) or the long one (`O-O-O`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastlingSide {
    /// `O-O`.
    Short,
    /// `O-O-O`.
    Long,
}

/// A move: from (9 bits), to (9 bits), kind + 1 (5 bits, 0 = none), flag (4 bits).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(pub u32);

impl Move {
    /// "No move" (a from-to move from cell 0 to cell 0, which no variant generates).
    pub const NONE: Move = Move(0);

    /// A move with all fields given.
    #[inline(always)]
    pub const fn new(from: Cell, to: Cell, kind: Option<Kind>, flag: MoveFlag) -> Move {
        let k = match kind {
            Some(k) => k as u32 + 1,
            None => 0,
        };
        Move(from as u32 | (to as u32) << 9 | k << 18 | (flag as u32) << 23)
    }

    /// A plain move.
    #[inline(always)]
    pub const fn normal(from: Cell, to: Cell) -> Move {
        Move(from as u32 | (to as u32) << 9)
    }

    /// A move with a special flag and no kind.
    #[inline(always)]
    pub const fn with_flag(from: Cell, to: Cell, flag: MoveFlag) -> Move {
        Move(from as u32 | (to as u32) << 9 | (flag as u32) << 23)
    }

    /// A promotion (pawn or Unicorn) to `kind`.
    #[inline(always)]
    pub const fn promotion_to(from: Cell, to: Cell, kind: Kind) -> Move {
        Move::new(from, to, Some(kind), MoveFlag::Normal)
    }

    /// A drop of `kind` on `to`.
    #[inline(always)]
    pub const fn drop(kind: Kind, to: Cell) -> Move {
        Move::new(to, to, Some(kind), MoveFlag::Drop)
    }

    /// The pass move.
    pub const PASS: Move = Move::with_flag(0, 0, MoveFlag::Pass);

    /// The from-cell.
    #[inline(always)]
    pub const fn from(self) -> Cell {
        (self.0 & 0x1ff) as Cell
    }

    /// The to-cell.
    #[inline(always)]
    pub const fn to(self) -> Cell {
        ((self.0 >> 9) & 0x1ff) as Cell
    }

    /// The promotion or drop kind, if any.
    #[inline(always)]
    pub const fn promotion(self) -> Option<Kind> {
        let k = (self.0 >> 18) & 0x1f;
        if k == 0 { None } else { Some((k - 1) as Kind) }
    }

    /// The flag.
    #[inline(always)]
    pub fn flag(self) -> MoveFlag {
        match (self.0 >> 23) & 0xf {
            0 => MoveFlag::Normal,
            1 => MoveFlag::DoubleStep,
            2 => MoveFlag::EnPassant,
            3 => MoveFlag::Castle,
            4 => MoveFlag::Drop,
            5 => MoveFlag::Shot,
            _ => MoveFlag::Pass,
        }
    }

    /// Whether this is [`Move::NONE`].
    #[inline(always)]
    pub fn is_none(self) -> bool {
        self.0 == 0
    }
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Move({} -> {}, {:?}, {:?})",
            self.from(),
            self.to(),
            self.promotion(),
            self.flag()
        )
    }
}

/// A list of moves; reused across calls so that generation does not allocate once warm.
#[derive(Clone, Default, Debug)]
pub struct MoveList(Vec<Move>);

impl MoveList {
    /// An empty list with room for a typical position.
    pub fn new() -> Self {
        MoveList(Vec::with_capacity(256))
    }

    /// Appends a move.
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        self.0.push(m);
    }

    /// Empties the list, keeping its storage.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// Number of moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the list is empty.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The moves.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        &self.0
    }

    /// The moves, mutable (for ordering).
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.0
    }

    /// Iterates over the moves.
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.0.iter()
    }

    /// Whether `m` is in the list.
    pub fn contains(&self, m: Move) -> bool {
        self.0.contains(&m)
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_round_trip() {
        let m = Move::new(299, 511, Some(13), MoveFlag::Shot);
        assert_eq!(
            (m.from(), m.to(), m.promotion(), m.flag()),
            (299, 511, Some(13), MoveFlag::Shot)
        );
        let d = Move::drop(6, 17);
        assert_eq!(
            (d.from(), d.to(), d.promotion(), d.flag()),
            (17, 17, Some(6), MoveFlag::Drop)
        );
        assert_eq!(Move::PASS.flag(), MoveFlag::Pass);
        assert!(Move::NONE.is_none() && !Move::PASS.is_none());
        assert_eq!(Move::normal(12, 28).promotion(), None);
    }
}
