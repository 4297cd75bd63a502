//! The Polyhedron Chess position: its own state (reserves, en passant) beside the core,
//! attack queries, and the read API for evaluation.

use super::reserve::Reserve;
use super::tables::{
    Bb, CLASS_DIRS, CLASS_SLIDERS, TABLES, Tables, Z_EP, kind, reserve_key, slider_attacks,
};
use crate::rules::bitset::Cell;
use crate::rules::geometry::Geometry;
use crate::rules::piece::{Colour, Piece};
use crate::rules::position::Position;

/// "No en passant cell".
pub(super) const NO_EP: u16 = u16::MAX;

/// What taking back a Polyhedron move needs beyond the core's record.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    /// The piece that moved (a pawn or Unicorn for a promotion).
    pub(super) moved: Piece,
    pub(super) captured: Piece,
    pub(super) ep: u16,
}

/// Polyhedron Chess's own state: the reserves and the en passant cell.
#[derive(Clone, Debug, PartialEq)]
pub struct Polyhedron {
    pub(super) reserves: [Reserve; 2],
    pub(super) ep: u16,
}

impl Default for Polyhedron {
    /// Empty reserves, no en passant cell.
    fn default() -> Self {
        Polyhedron {
            reserves: [Reserve::default(); 2],
            ep: NO_EP,
        }
    }
}

/// A position of Polyhedron Chess.
pub type PolyhedronPosition = Position<Polyhedron, 5>;

impl PolyhedronPosition {
    /// The shared tables.
    #[inline(always)]
    pub(super) fn t() -> &'static Tables {
        &TABLES
    }

    /// The board geometry: cells, coordinates, names, rays (shared by all positions).
    pub fn geometry() -> &'static Geometry<5> {
        &TABLES.geo
    }

    /// `colour`'s reserve (the piece types it may promote to).
    pub fn reserve(&self, colour: Colour) -> &Reserve {
        &self.state.reserves[colour.idx()]
    }

    /// The en passant cell (the cell passed over by a double step on the previous move).
    pub fn ep_cell(&self) -> Option<Cell> {
        (self.state.ep != NO_EP).then_some(self.state.ep as Cell)
    }

    /// The cell of `colour`'s King.
    #[inline(always)]
    pub fn king_cell(&self, colour: Colour) -> Cell {
        self.board.pieces(kind::KING, colour).first().unwrap_or(0)
    }

    /// The cells the piece on `cell` attacks: where it could capture an enemy piece, given the
    /// current occupancy (own pieces included, as for "defends"). A pawn's capture cells only;
    /// empty for an empty cell. For mobility and threat terms of an evaluation.
    pub fn attacks_from(&self, cell: Cell) -> Bb {
        let t = Self::t();
        let piece = self.board.piece_at(cell);
        if piece.is_none() {
            return Bb::EMPTY;
        }
        let occ = self.board.occupied();
        match piece.kind() {
            kind::KING => t.king[cell],
            kind::KNIGHT => t.knight[cell],
            kind::HIPPOGRIFF => t.hippogriff[cell],
            kind::WYVERN => t.wyvern[cell],
            kind::SPACE_KNIGHT => t.space_knight[cell],
            kind::GARGOYLE => t.gargoyle[cell],
            kind::PAWN => t.pawn_attacks[piece.colour().idx()][cell],
            k => slider_attacks(t, k, cell, occ).unwrap_or(Bb::EMPTY),
        }
    }

    /// Whether a piece of `their` (a subset of one colour's pieces) attacks `sq` when the
    /// occupied cells are `occ`. `by` is the colour of `their` (for the pawn direction).
    #[inline]
    pub(super) fn is_attacked_by(&self, sq: Cell, by: Colour, their: Bb, occ: Bb) -> bool {
        let t = Self::t();
        let b = &self.board;
        let sk = b.kind(kind::SPACE_KNIGHT);
        if (t.knight[sq] & (b.kind(kind::KNIGHT) | sk) & their).any()
            || (t.hippogriff[sq] & (b.kind(kind::HIPPOGRIFF) | sk) & their).any()
            || (t.wyvern[sq] & (b.kind(kind::WYVERN) | sk) & their).any()
            || (t.gargoyle[sq] & b.kind(kind::GARGOYLE) & their).any()
            || (t.king[sq] & b.kind(kind::KING) & their).any()
            || (t.pawn_attacks[by.flip().idx()][sq] & b.kind(kind::PAWN) & their).any()
        {
            return true;
        }
        for (class, dirs) in CLASS_DIRS.iter().enumerate() {
            let sliders = self.class_sliders(class) & their;
            if !t.class_lines[class][sq].intersects(sliders) {
                continue;
            }
            for d in dirs.clone() {
                let ray = t.geo.ray(sq, d);
                if ray.intersects(sliders)
                    && let Some(b1) = t.geo.nearest(ray & occ, d)
                    && sliders.contains(b1)
                {
                    return true;
                }
            }
        }
        false
    }

    /// Whether `by` attacks `sq` in the current position.
    #[inline]
    pub fn is_attacked(&self, sq: Cell, by: Colour) -> bool {
        self.is_attacked_by(sq, by, self.board.colour(by), self.board.occupied())
    }

    /// The pieces (of both colours) that slide along direction class `class`
    /// (0 orthogonal, 1 diagonal, 2 triagonal).
    #[inline(always)]
    pub(super) fn class_sliders(&self, class: usize) -> Bb {
        let mut s = Bb::EMPTY;
        let mask = CLASS_SLIDERS[class];
        for k in [
            kind::QUEEN,
            kind::ROOK,
            kind::BISHOP,
            kind::UNICORN,
            kind::FAVOURITE,
            kind::DRAGON,
            kind::ARCHBISHOP,
        ] {
            if mask >> k & 1 != 0 {
                s |= self.board.kind(k);
            }
        }
        s
    }

    /// The pieces of `by` that attack `sq` (asks every piece of `by`: meant for displays such
    /// as the drawing's checker list, not for hot code).
    pub fn attackers_to(&self, sq: Cell, by: Colour) -> Bb {
        self.board
            .colour(by)
            .iter()
            .filter(|&c| self.attacks_from(c).contains(sq))
            .collect()
    }

    /// The key of the reserves and the en passant cell.
    pub(super) fn reserves_and_ep_key(&self) -> u64 {
        let t = Self::t();
        let z = &t.zobrist;
        let mut k = 0;
        if self.state.ep != NO_EP {
            k ^= z.extra[Z_EP + self.state.ep as usize];
        }
        for c in [Colour::WHITE, Colour::BLACK] {
            for kd in 0..super::tables::KINDS as u8 {
                for n in 1..=self.state.reserves[c.idx()].count(kd) {
                    k ^= reserve_key(t, c, kd, n);
                }
            }
        }
        k
    }
}
