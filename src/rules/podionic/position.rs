//! The Podionic position: placement, side to move, clocks, history, and attack queries.

use super::tables::{Bb, TABLES, Tables, kind};
use crate::rules::bitset::Cell;
use crate::rules::board::Board;
use crate::rules::clocks::{Clocks, NullMove, NullUndo};
use crate::rules::geometry::Geometry;
use crate::rules::moves::Move;
use crate::rules::piece::{Colour, Piece};

/// What [`PodionicPosition::unmake_move`] needs to restore the state before a move.
#[derive(Clone, Copy, Debug)]
pub(super) struct Undo {
    pub mv: Move,
    pub captured: Piece,
    pub clocks: Clocks,
    pub key: u64,
}

/// A position of Podionic Chess.
///
/// The game state is the placement, the side to move and the two clocks: there is no
/// castling, no en passant, and the double-step right belongs to the cell (ruling 13), so
/// the Zobrist key (placement and side to move) is all that repetition needs.
#[derive(Clone)]
pub struct PodionicPosition {
    pub(super) board: Board<1>,
    pub(super) side: Colour,
    pub(super) clocks: Clocks,
    pub(super) history: Vec<Undo>,
    pub(super) nulls: Vec<NullUndo>,
}

impl PartialEq for PodionicPosition {
    /// Positions are equal when their whole game state is (history is not compared).
    fn eq(&self, other: &Self) -> bool {
        self.board == other.board && self.side == other.side && self.clocks == other.clocks
    }
}

impl std::fmt::Debug for PodionicPosition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PodionicPosition({})", self.to_fen())
    }
}

impl PodionicPosition {
    /// The shared tables.
    #[inline(always)]
    pub(super) fn t() -> &'static Tables {
        &TABLES
    }

    /// An empty board with White to move.
    pub(super) fn empty() -> Self {
        PodionicPosition {
            board: Board::new(&TABLES.zobrist),
            side: Colour::WHITE,
            clocks: Clocks::default(),
            history: Vec::new(),
            nulls: Vec::new(),
        }
    }

    /// The placement (mailbox and per-kind / per-colour sets; kinds in [`kind`]).
    pub fn board(&self) -> &Board<1> {
        &self.board
    }

    /// The placement, to change by hand (an editor): the caller is to check the result
    /// through the FEN reader ([`AnyGame::with_placement`](crate::rules::AnyGame::with_placement)).
    pub(crate) fn board_mut(&mut self) -> &mut Board<1> {
        &mut self.board
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

    /// The half-move clock (plies since the last capture or pawn move).
    pub fn halfmove_clock(&self) -> u32 {
        self.clocks.halfmove
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

    /// The Zobrist key recomputed from scratch (for invariant checks).
    pub(super) fn key_from_scratch(&self) -> u64 {
        self.board.placement_key_from_scratch() ^ Self::t().zobrist.side[self.side.idx()]
    }
}

impl NullMove<1> for PodionicPosition {
    fn null_parts(&mut self) -> (&mut Board<1>, &mut Colour, &mut Clocks, &mut Vec<NullUndo>) {
        (
            &mut self.board,
            &mut self.side,
            &mut self.clocks,
            &mut self.nulls,
        )
    }
}
