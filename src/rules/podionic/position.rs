//! The Podionic position: its (empty) own state beside the core, and attack queries.

use super::tables::{Bb, TABLES, Tables, kind};
use crate::rules::bitset::Cell;
use crate::rules::geometry::Geometry;
use crate::rules::piece::{Colour, Piece};
use crate::rules::position::Position;

/// What taking back a Podionic move needs beyond the core's record.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    pub(super) captured: Piece,
}

/// Podionic Chess's own state: none. The game state is the placement, the side to move and
/// the two clocks: there is no castling, no en passant, and the double-step right belongs to
/// the cell (ruling 13), so the Zobrist key (placement and side to move) is all that
/// repetition needs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Podionic;

/// A position of Podionic Chess.
pub type PodionicPosition = Position<Podionic, 1>;

impl PodionicPosition {
    /// The shared tables.
    #[inline(always)]
    pub(super) fn t() -> &'static Tables {
        &TABLES
    }

    /// The board geometry: cell numbering, names, levels, planar steps.
    pub fn geometry() -> &'static Geometry<1> {
        &TABLES.geo
    }

    /// The cell one vertical step up (towards level A) from `cell`, if `cell` is on an
    /// overlapping square and not the top of its stack.
    pub fn cell_above(cell: Cell) -> Option<Cell> {
        let c = TABLES.up[cell];
        (c != super::tables::NO_CELL).then_some(c as Cell)
    }

    /// The cell one vertical step down (towards level D) from `cell`, if any.
    pub fn cell_below(cell: Cell) -> Option<Cell> {
        let c = TABLES.down[cell];
        (c != super::tables::NO_CELL).then_some(c as Cell)
    }

    /// The cell of `colour`'s King.
    #[inline(always)]
    pub fn king_cell(&self, colour: Colour) -> Cell {
        self.board.pieces(kind::KING, colour).first().unwrap_or(0)
    }

    /// The cells the piece on `cell` attacks: where it could capture if an enemy stood there
    /// (friendly pieces included, for "defended"). For a pawn these are its capture cells
    /// only, not its pushes. Empty for an empty cell.
    pub fn attacks_from(&self, cell: Cell) -> Bb {
        let t = Self::t();
        let piece = self.board.piece_at(cell);
        if piece.is_none() {
            return Bb::EMPTY;
        }
        let occ = self.board.occupied();
        match piece.kind() {
            kind::PAWN => t.pawn[piece.colour().idx()].captures[cell],
            kind::KNIGHT => t.knight[cell],
            kind::BISHOP => t.bishop.reach(cell, occ),
            kind::ROOK => t.rook.reach(cell, occ),
            kind::QUEEN => t.rook.reach(cell, occ) | t.bishop.reach(cell, occ),
            _ => t.king[cell],
        }
    }

    /// The pieces of `by` that capture onto `cell` when `occ` is occupied.
    #[inline(always)]
    pub fn attackers_to(&self, cell: Cell, by: Colour, occ: Bb) -> Bb {
        let t = Self::t();
        let b = &self.board;
        let rq = b.kind(kind::ROOK) | b.kind(kind::QUEEN);
        let bq = b.kind(kind::BISHOP) | b.kind(kind::QUEEN);
        ((t.knight_from[cell] & b.kind(kind::KNIGHT))
            | (t.king[cell] & b.kind(kind::KING))
            | (t.pawn[by.idx()].attackers[cell] & b.kind(kind::PAWN))
            | (t.rook.reach(cell, occ) & rq)
            | (t.bishop.reach(cell, occ) & bq))
            & b.colour(by)
    }

    /// Whether `by` has a capture onto `cell` when `occ` is occupied.
    #[inline(always)]
    pub fn is_attacked(&self, cell: Cell, by: Colour, occ: Bb) -> bool {
        let t = Self::t();
        let b = &self.board;
        let them = b.colour(by);
        if (t.knight_from[cell] & b.kind(kind::KNIGHT) & them).any()
            || (t.pawn[by.idx()].attackers[cell] & b.kind(kind::PAWN) & them).any()
            || (t.king[cell] & b.kind(kind::KING) & them).any()
        {
            return true;
        }
        let rq = (b.kind(kind::ROOK) | b.kind(kind::QUEEN)) & them;
        if rq.any() && t.rook.reach(cell, occ).intersects(rq) {
            return true;
        }
        let bq = (b.kind(kind::BISHOP) | b.kind(kind::QUEEN)) & them;
        bq.any() && t.bishop.reach(cell, occ).intersects(bq)
    }

    /// The pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bb {
        let us = self.side;
        self.attackers_to(self.king_cell(us), us.flip(), self.board.occupied())
    }
}
