//! The Future Generation position: the four colours' state beside the core, and the read API
//! the evaluation uses (placement, Kings, per-piece reach, flags).

use super::tables::{Bb, TABLES, Tables, bishop_attacks, kind, rook_attacks};
use crate::rules::bitset::Cell;
use crate::rules::geometry::Geometry;
use crate::rules::piece::{Colour, Piece};
use crate::rules::position::Position;

/// An en passant right: the cell passed over and the pawn that passed over it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EnPassant {
    /// The cell a capturing pawn moves to.
    pub cell: Cell,
    /// The cell of the pawn that double-stepped (removed by the capture).
    pub victim: Cell,
}

/// What taking back a Future Generation move needs beyond the core's record.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    /// The piece that moved, as it was before the move (a pawn before promotion, a Knight
    /// before crowning).
    pub(super) moved: Piece,
    pub(super) captured: Piece,
    pub(super) castling: u8,
    pub(super) ep: Option<EnPassant>,
    pub(super) unlocked: u8,
    pub(super) eliminated: u8,
}

/// The own state of Chess – The Future Generation: the four colours' castling rights, en
/// passant, unlocked and eliminated colours. The clocks of the core are the 200-ply clock,
/// the move number, and the plies since the last move that no later position can undo (a
/// capture, a pawn move other than a straight vertical step, a lost right, an unlock, a
/// crowning), as far as repetitions are searched.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FutureGeneration {
    /// Castling-right bits, `1 << (colour * 2 + side)` (side 0 short, 1 long).
    pub(super) castling: u8,
    /// Set only when the colour to move has an en passant capture.
    pub(super) ep: Option<EnPassant>,
    /// Bit per colour.
    pub(super) unlocked: u8,
    /// Bit per colour.
    pub(super) eliminated: u8,
}

/// A position of Chess – The Future Generation.
pub type FuturePosition = Position<FutureGeneration, 4>;

impl FuturePosition {
    /// The shared tables.
    #[inline(always)]
    pub(super) fn t() -> &'static Tables {
        &TABLES
    }

    /// The board geometry (cell names, coordinates, rays).
    pub fn geometry() -> &'static Geometry<4> {
        &TABLES.geo
    }

    /// Whether `colour` has been eliminated (its King captured).
    #[inline(always)]
    pub fn is_eliminated(&self, colour: Colour) -> bool {
        self.state.eliminated >> colour.0 & 1 != 0
    }

    /// Whether `colour` is unlocked (may move beyond its gate level).
    #[inline(always)]
    pub fn is_unlocked(&self, colour: Colour) -> bool {
        self.state.unlocked >> colour.0 & 1 != 0
    }

    /// Whether `colour` may still castle short (`long` false: towards the h-file for White
    /// and Black, towards rank 1 for Gold and Silver) or long.
    pub fn can_castle(&self, colour: Colour, long: bool) -> bool {
        self.state.castling & super::tables::castle_bit(colour, long as usize) != 0
    }

    /// The en passant right of the colour to move, if it has an en passant capture.
    pub fn en_passant(&self) -> Option<EnPassant> {
        self.state.ep
    }

    /// The cell of `colour`'s King (`None` once the colour is eliminated).
    #[inline(always)]
    pub fn king_cell(&self, colour: Colour) -> Option<Cell> {
        self.board.pieces(kind::KING, colour).first()
    }

    /// The winning team if the other team has lost both Kings.
    #[inline(always)]
    pub(super) fn winner(&self) -> Option<usize> {
        if self.state.eliminated & 0b0101 == 0b0101 {
            Some(1)
        } else if self.state.eliminated & 0b1010 == 0b1010 {
            Some(0)
        } else {
            None
        }
    }

    /// The colour that moves after `colour`, skipping eliminated colours.
    #[inline(always)]
    pub(super) fn next_colour(&self, colour: Colour) -> Colour {
        (1..=4)
            .map(|i| Colour((colour.0 + i) % 4))
            .find(|&c| !self.is_eliminated(c))
            .unwrap_or(colour)
    }

    /// The colour that moved before `colour`, skipping eliminated colours.
    pub(super) fn previous_colour(&self, colour: Colour) -> Colour {
        (1..=4)
            .map(|i| Colour((colour.0 + 4 - i) % 4))
            .find(|&c| !self.is_eliminated(c))
            .unwrap_or(colour)
    }

    /// The cells `colour`'s moves may end on: everything once unlocked, its side of the gate
    /// before.
    #[inline(always)]
    pub(super) fn reach(&self, colour: Colour) -> Bb {
        if self.is_unlocked(colour) {
            Self::t().geo.all()
        } else {
            Self::t().locked_reach[colour.idx()]
        }
    }

    /// The pieces of `colour`'s team (its own and its partner's, eliminated or not).
    #[inline(always)]
    pub(super) fn team_pieces(&self, colour: Colour) -> Bb {
        self.board.colour(colour) | self.board.colour(Colour(colour.0 ^ 2))
    }

    /// The cells the piece on `cell` attacks or moves to under its colour's lock, ignoring
    /// castling and en passant: captures onto the other team and, except for pawns, moves to
    /// empty cells. Pawns give their forward steps and their captures. Empty for an empty cell
    /// or a piece of an eliminated colour. (For mobility in the evaluation.)
    pub fn piece_reach(&self, cell: Cell) -> Bb {
        let piece = self.board.piece_at(cell);
        if piece.is_none() {
            return Bb::EMPTY;
        }
        self.piece_reach_within(cell, self.reach(piece.colour()))
    }

    /// [`FuturePosition::piece_reach`] with the moves' ends limited to `reach` instead of the
    /// colour's lock.
    pub(super) fn piece_reach_within(&self, cell: Cell, reach: Bb) -> Bb {
        let piece = self.board.piece_at(cell);
        if piece.is_none() || self.is_eliminated(piece.colour()) {
            return Bb::EMPTY;
        }
        let c = piece.colour();
        let t = Self::t();
        let occ = self.board.occupied();
        let targets = reach.and_not(self.team_pieces(c));
        let moves = match piece.kind() {
            kind::PAWN => {
                let other = self.board.occupied().and_not(self.team_pieces(c));
                (t.pawn_push[c.idx()][cell].and_not(occ)) | (t.pawn_capture[c.idx()][cell] & other)
            }
            kind::KNIGHT => t.knight[cell],
            kind::CROWNED => t.crowned[cell],
            kind::BISHOP => bishop_attacks(t, cell, occ),
            kind::ROOK => rook_attacks(t, cell, occ),
            kind::QUEEN => rook_attacks(t, cell, occ) | bishop_attacks(t, cell, occ),
            _ => t.king[cell],
        };
        moves & targets
    }

    /// Whether a piece of a non-eliminated colour of `team` attacks `cell` (could capture
    /// there if an enemy stood on it), each attacker obeying its own colour's lock.
    pub fn attacked_by_team(&self, cell: Cell, team: usize) -> bool {
        let t = Self::t();
        let b = &self.board;
        let occ = b.occupied();
        for c in [Colour(team as u8), Colour(team as u8 + 2)] {
            if self.is_eliminated(c) || !self.reach(c).contains(cell) {
                continue;
            }
            let own = b.colour(c);
            if (t.knight[cell] & b.kind(kind::KNIGHT) & own).any()
                || (t.crowned[cell] & b.kind(kind::CROWNED) & own).any()
                || (t.king[cell] & b.kind(kind::KING) & own).any()
                || (t.pawn_attackers[c.idx()][cell] & b.kind(kind::PAWN) & own).any()
            {
                return true;
            }
            let queens = b.kind(kind::QUEEN) & own;
            let rq = (b.kind(kind::ROOK) & own) | queens;
            if rq.any() && (rook_attacks(t, cell, occ) & rq).any() {
                return true;
            }
            let bq = (b.kind(kind::BISHOP) & own) | queens;
            if bq.any() && (bishop_attacks(t, cell, occ) & bq).any() {
                return true;
            }
        }
        false
    }

    /// The key of the castling rights, the en passant cell, the unlocked and the eliminated
    /// colours.
    pub(super) fn state_key(&self) -> u64 {
        use super::tables::{Z_CASTLING, Z_ELIMINATED, Z_EP, Z_UNLOCKED};
        let z = &Self::t().zobrist;
        let mut k = 0;
        for bit in 0..8 {
            if self.state.castling >> bit & 1 != 0 {
                k ^= z.extra[Z_CASTLING + bit];
            }
        }
        if let Some(ep) = self.state.ep {
            k ^= z.extra[Z_EP + ep.cell];
        }
        for c in 0..4 {
            if self.state.unlocked >> c & 1 != 0 {
                k ^= z.extra[Z_UNLOCKED + c];
            }
            if self.state.eliminated >> c & 1 != 0 {
                k ^= z.extra[Z_ELIMINATED + c];
            }
        }
        k
    }

    /// The en passant right `colour` (to move) would have after a double step that passed
    /// over `cell` and stopped on `victim`: only for a colour of the other team with a pawn
    /// whose capture reaches `cell` within its lock.
    pub(super) fn ep_right_for(
        &self,
        colour: Colour,
        cell: Cell,
        victim: Cell,
    ) -> Option<EnPassant> {
        let mover = self.board.piece_at(victim).colour();
        let t = Self::t();
        let capturers =
            t.pawn_attackers[colour.idx()][cell] & self.board.pieces(kind::PAWN, colour);
        (colour.team() != mover.team()
            && self.reach(colour).contains(cell)
            && capturers.any()
            && self.board.piece_at(cell).is_none())
        .then_some(EnPassant { cell, victim })
    }
}
