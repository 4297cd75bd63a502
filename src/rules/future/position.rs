//! The Future Generation position: placement, the four colours' state, history, and the read
//! API the evaluation uses (placement, Kings, per-piece reach, flags).

use super::tables::{Bb, TABLES, Tables, bishop_attacks, kind, rook_attacks};
use crate::rules::bitset::Cell;
use crate::rules::board::Board;
use crate::rules::clocks::Clocks;
use crate::rules::geometry::Geometry;
use crate::rules::moves::Move;
use crate::rules::piece::{Colour, Piece};

/// An en passant right: the cell passed over and the pawn that passed over it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EnPassant {
    /// The cell a capturing pawn moves to.
    pub cell: Cell,
    /// The cell of the pawn that double-stepped (removed by the capture).
    pub victim: Cell,
}

/// What [`FuturePosition::unmake`] needs to restore the state before a move.
#[derive(Clone, Copy, Debug)]
pub(super) struct Undo {
    pub mv: Move,
    /// The piece that moved, as it was before the move (a pawn before promotion, a Knight
    /// before crowning).
    pub moved: Piece,
    pub captured: Piece,
    pub side: Colour,
    pub castling: u8,
    pub ep: Option<EnPassant>,
    pub unlocked: u8,
    pub eliminated: u8,
    pub clocks: Clocks,
    pub key: u64,
}

/// A position of Chess – The Future Generation.
#[derive(Clone)]
pub struct FuturePosition {
    pub(super) board: Board<4>,
    pub(super) side: Colour,
    /// Castling-right bits, `1 << (colour * 2 + side)` (side 0 short, 1 long).
    pub(super) castling: u8,
    /// Set only when the colour to move has an en passant capture.
    pub(super) ep: Option<EnPassant>,
    /// Bit per colour.
    pub(super) unlocked: u8,
    /// Bit per colour.
    pub(super) eliminated: u8,
    /// The 200-ply clock, the move number, and the plies since the last move that no later
    /// position can undo (a capture, a pawn move other than a straight vertical step, a lost
    /// right, an unlock, a crowning), as far as repetitions are searched.
    pub(super) clocks: Clocks,
    pub(super) history: Vec<Undo>,
}

impl PartialEq for FuturePosition {
    /// Positions are equal when their whole game state is (history is not compared).
    fn eq(&self, other: &Self) -> bool {
        self.board == other.board
            && self.side == other.side
            && self.castling == other.castling
            && self.ep == other.ep
            && self.unlocked == other.unlocked
            && self.eliminated == other.eliminated
            && self.clocks == other.clocks
    }
}

impl std::fmt::Debug for FuturePosition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "FuturePosition({})", self.to_fen())
    }
}

impl FuturePosition {
    /// The shared tables.
    #[inline(always)]
    pub(super) fn t() -> &'static Tables {
        &TABLES
    }

    /// An empty board, White to move, nothing unlocked or eliminated.
    pub(super) fn empty() -> Self {
        FuturePosition {
            board: Board::new(&TABLES.zobrist),
            side: Colour::WHITE,
            castling: 0,
            ep: None,
            unlocked: 0,
            eliminated: 0,
            clocks: Clocks::default(),
            history: Vec::new(),
        }
    }

    /// The board geometry (cell names, coordinates, rays).
    pub fn geometry() -> &'static Geometry<4> {
        &TABLES.geo
    }

    /// The placement.
    pub fn board(&self) -> &Board<4> {
        &self.board
    }

    /// The placement, to change by hand (an editor): the caller is to check the result
    /// through the FEN reader ([`AnyGame::with_placement`](crate::rules::AnyGame::with_placement)).
    pub(crate) fn board_mut(&mut self) -> &mut Board<4> {
        &mut self.board
    }

    /// Whether `colour` has been eliminated (its King captured).
    #[inline(always)]
    pub fn is_eliminated(&self, colour: Colour) -> bool {
        self.eliminated >> colour.0 & 1 != 0
    }

    /// Whether `colour` is unlocked (may move beyond its gate level).
    #[inline(always)]
    pub fn is_unlocked(&self, colour: Colour) -> bool {
        self.unlocked >> colour.0 & 1 != 0
    }

    /// Whether `colour` may still castle short (`long` false: towards the h-file for White
    /// and Black, towards rank 1 for Gold and Silver) or long.
    pub fn can_castle(&self, colour: Colour, long: bool) -> bool {
        self.castling & super::tables::castle_bit(colour, long as usize) != 0
    }

    /// The en passant right of the colour to move, if it has an en passant capture.
    pub fn en_passant(&self) -> Option<EnPassant> {
        self.ep
    }

    /// The half-move clock (plies since the last capture or pawn move; 200 draws).
    pub fn halfmove_clock(&self) -> u32 {
        self.clocks.halfmove
    }

    /// The cell of `colour`'s King (`None` once the colour is eliminated).
    #[inline(always)]
    pub fn king_cell(&self, colour: Colour) -> Option<Cell> {
        self.board.pieces(kind::KING, colour).first()
    }

    /// The winning team if the other team has lost both Kings.
    #[inline(always)]
    pub(super) fn winner(&self) -> Option<usize> {
        if self.eliminated & 0b0101 == 0b0101 {
            Some(1)
        } else if self.eliminated & 0b1010 == 0b1010 {
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

    /// The Zobrist key recomputed from scratch (for invariant checks).
    pub(super) fn key_from_scratch(&self) -> u64 {
        use super::tables::{Z_CASTLING, Z_ELIMINATED, Z_EP, Z_UNLOCKED};
        let z = &Self::t().zobrist;
        let mut k = self.board.placement_key_from_scratch();
        k ^= z.side[self.side.idx()];
        for bit in 0..8 {
            if self.castling >> bit & 1 != 0 {
                k ^= z.extra[Z_CASTLING + bit];
            }
        }
        if let Some(ep) = self.ep {
            k ^= z.extra[Z_EP + ep.cell];
        }
        for c in 0..4 {
            if self.unlocked >> c & 1 != 0 {
                k ^= z.extra[Z_UNLOCKED + c];
            }
            if self.eliminated >> c & 1 != 0 {
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
