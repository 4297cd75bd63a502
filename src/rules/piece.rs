//! Colours and pieces, shared by every variant.
//!
//! A piece is a kind (an index into the variant's own piece table, at most 16 kinds) and a
//! colour (at most four). What a kind means and how it moves is the variant's business.

/// One of up to four colours, in turn order: White, Black, Gold, Silver.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Colour(pub u8);

impl Colour {
    /// White, moves first.
    pub const WHITE: Colour = Colour(0);
    /// Black.
    pub const BLACK: Colour = Colour(1);
    /// Gold (four-colour variant), White's partner.
    pub const GOLD: Colour = Colour(2);
    /// Silver (four-colour variant), Black's partner.
    pub const SILVER: Colour = Colour(3);

    /// Index for tables.
    #[inline(always)]
    pub fn idx(self) -> usize {
        self.0 as usize
    }

    /// The team: 0 for White and Gold, 1 for Black and Silver.
    #[inline(always)]
    pub fn team(self) -> usize {
        (self.0 & 1) as usize
    }

    /// The opponent in a two-colour game.
    #[inline(always)]
    pub fn flip(self) -> Colour {
        Colour(self.0 ^ 1)
    }

    /// The letter used in FEN side-to-move fields: `w b g s`.
    pub fn letter(self) -> char {
        ['w', 'b', 'g', 's'][self.idx()]
    }

    /// Parses `w b g s`.
    pub fn from_letter(c: char) -> Option<Colour> {
        match c {
            'w' => Some(Colour::WHITE),
            'b' => Some(Colour::BLACK),
            'g' => Some(Colour::GOLD),
            's' => Some(Colour::SILVER),
            _ => None,
        }
    }

    /// The colour's name.
    pub fn name(self) -> &'static str {
        ["White", "Black", "Gold", "Silver"][self.idx()]
    }
}

/// A piece on a cell, or [`Piece::NONE`].
///
/// Encoded as `(kind + 1) << 2 | colour` so that 0 means empty and the value indexes
/// per-piece tables directly.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(transparent)]
pub struct Piece(pub u8);

/// A piece kind: an index into the variant's piece table.
pub type Kind = u8;

impl Piece {
    /// `pieces` as their codes, one byte each (for comparing placements eight cells at a
    /// time).
    #[inline(always)]
    pub fn codes(pieces: &[Piece]) -> &[u8] {
        // SAFETY: `Piece` is `repr(transparent)` over `u8`, so a slice of pieces is a slice
        // of as many bytes, with the same alignment and lifetime.
        unsafe { std::slice::from_raw_parts(pieces.as_ptr().cast::<u8>(), pieces.len()) }
    }

    /// No piece.
    pub const NONE: Piece = Piece(0);
    /// Number of distinct piece codes (for table sizes).
    pub const CODES: usize = 17 * 4;

    /// The piece of `kind` and `colour`.
    #[inline(always)]
    pub const fn new(kind: Kind, colour: Colour) -> Piece {
        Piece(((kind + 1) << 2) | colour.0)
    }

    /// Whether this is a piece (not [`Piece::NONE`]).
    #[inline(always)]
    pub fn is_some(self) -> bool {
        self.0 != 0
    }

    /// Whether this is [`Piece::NONE`].
    #[inline(always)]
    pub fn is_none(self) -> bool {
        self.0 == 0
    }

    /// The kind. Meaningless for [`Piece::NONE`].
    #[inline(always)]
    pub fn kind(self) -> Kind {
        (self.0 >> 2).wrapping_sub(1)
    }

    /// The colour. Meaningless for [`Piece::NONE`].
    #[inline(always)]
    pub fn colour(self) -> Colour {
        Colour(self.0 & 3)
    }

    /// Index for tables of size [`Piece::CODES`].
    #[inline(always)]
    pub fn idx(self) -> usize {
        self.0 as usize
    }
}

impl std::fmt::Debug for Piece {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_none() {
            write!(f, "Piece::NONE")
        } else {
            write!(f, "Piece(kind {}, {})", self.kind(), self.colour().name())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_round_trips() {
        for kind in 0..16 {
            for c in 0..4 {
                let p = Piece::new(kind, Colour(c));
                assert!(p.is_some());
                assert_eq!(p.kind(), kind);
                assert_eq!(p.colour(), Colour(c));
                assert!(p.idx() < Piece::CODES);
            }
        }
        assert!(Piece::NONE.is_none());
        assert_eq!(Colour::GOLD.team(), Colour::WHITE.team());
        assert_eq!(Colour::SILVER.team(), Colour::BLACK.team());
    }
}
