//! The Polyhedron Chess position: placement, reserves, state, history, attack queries, and the
//! read API for evaluation.

use super::reserve::Reserve;
use super::tables::{
    Bb, CLASS_DIRS, CLASS_SLIDERS, TABLES, Tables, Z_EP, kind, reserve_key, slider_attacks,
};
use crate::rules::bitset::Cell;
use crate::rules::board::Board;
use crate::rules::clocks::{Clocks, NullUndo};
use crate::rules::geometry::Geometry;
use crate::rules::moves::Move;
use crate::rules::piece::{Colour, Piece};

/// "No en passant cell".
pub(super) const NO_EP: u16 = u16::MAX;

/// What [`PolyhedronPosition::unmake`](crate::rules::Game::unmake) needs to restore the state.
#[derive(Clone, Copy, Debug)]
pub(super) struct Undo {
    pub mv: Move,
    /// The piece that moved (a pawn or Unicorn for a promotion).
    pub moved: Piece,
    pub captured: Piece,
    pub ep: u16,
    pub clocks: Clocks,
    pub key: u64,
}

/// A position of Polyhedron Chess.
#[derive(Clone)]
pub struct PolyhedronPosition {
    pub(super) board: Board<5>,
    pub(super) side: Colour,
    pub(super) reserves: [Reserve; 2],
    pub(super) ep: u16,
    pub(super) clocks: Clocks,
    pub(super) history: Vec<Undo>,
    pub(super) nulls: Vec<NullUndo>,
}

impl PartialEq for PolyhedronPosition {
    /// Positions are equal when their whole game state is (history is not compared).
    fn eq(&self, other: &Self) -> bool {
        self.board == other.board
            && self.side == other.side
            && self.reserves == other.reserves
            && self.ep == other.ep
            && self.clocks == other.clocks
    }
}

impl std::fmt::Debug for PolyhedronPosition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "PolyhedronPosition({})",
            crate::rules::game::Game::fen(self)
        )
    }
}

impl PolyhedronPosition {
    /// The shared tables.
    #[inline(always)]
    pub(super) fn t() -> &'static Tables {
        &TABLES
    }

    /// An empty board with White to move.
    pub(super) fn empty() -> Self {
        PolyhedronPosition {
            board: Board::new(&TABLES.zobrist),
            side: Colour::WHITE,
            reserves: [Reserve::default(); 2],
            ep: NO_EP,
            clocks: Clocks::default(),
            history: Vec::new(),
            nulls: Vec::new(),
        }
    }

    /// The board geometry: cells, coordinates, names, rays (shared by all positions).
    pub fn geometry() -> &'static Geometry<5> {
        &TABLES.geo
    }

    /// The placement.
    pub fn board(&self) -> &Board<5> {
        &self.board
    }

    /// The placement, to change by hand (an editor): the caller is to check the result
    /// through the FEN reader ([`AnyGame::with_placement`](crate::rules::AnyGame::with_placement)).
    pub(crate) fn board_mut(&mut self) -> &mut Board<5> {
        &mut self.board
    }

    /// `colour`'s reserve (the piece types it may promote to).
    pub fn reserve(&self, colour: Colour) -> &Reserve {
        &self.reserves[colour.idx()]
    }

    /// The en passant cell (the cell passed over by a double step on the previous move).
    pub fn ep_cell(&self) -> Option<Cell> {
        (self.ep != NO_EP).then_some(self.ep as Cell)
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

    /// The Zobrist key recomputed from scratch (for invariant checks).
    pub(super) fn key_from_scratch(&self) -> u64 {
        let t = Self::t();
        let z = &t.zobrist;
        let mut k = self.board.placement_key_from_scratch();
        k ^= z.side[self.side.idx()];
        if self.ep != NO_EP {
            k ^= z.extra[Z_EP + self.ep as usize];
        }
        for c in [Colour::WHITE, Colour::BLACK] {
            for kd in 0..super::tables::KINDS as u8 {
                for n in 1..=self.reserves[c.idx()].count(kd) {
                    k ^= reserve_key(t, c, kd, n);
                }
            }
        }
        k
    }
}
