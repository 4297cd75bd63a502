//! The chess / Pole Chess position: its own state (castling, en passant, Poles) beside the
//! core, what a move changed on the board, and attack queries.

use super::tables::{Bb, TABLES, Tables, bishop_attacks, kind, rook_attacks};
use crate::rules::bitset::Cell;
use crate::rules::moves::{Move, MoveFlag};
use crate::rules::piece::{Colour, Piece};
use crate::rules::position::Position;

/// "No en passant square".
pub const NO_EP: u8 = 64;

/// What taking back a chess move needs beyond the core's record.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    pub(super) captured: Piece,
    pub(super) castling: u8,
    pub(super) ep: u8,
    pub(super) poles_available: bool,
}

/// The own state of FIDE chess and Pole Chess (which is chess plus two Poles): castling
/// rights, the en passant square, the Poles.
#[derive(Clone)]
pub struct Chess {
    pub(super) pole_rules: bool,
    pub(super) castling: u8,
    /// Where each castling right's Rook stands (indexed by the right's bit number), and
    /// what castling needs (see [`Castling`]); fixed when the FEN is read.
    pub(super) castle: Castling,
    pub(super) ep: u8,
    pub(super) poles_available: bool,
    pub(super) hand: [bool; 2],
    /// Chess960 notation (`UCI_Chess960`): castling written as the King taking its Rook, and
    /// Shredder-FEN castling fields. A way of writing, not part of the position.
    pub(super) chess960: bool,
}

impl Chess {
    /// The state of an empty board: no rights, no en passant square, Poles (in Pole Chess)
    /// in hand and not yet available.
    pub(super) fn new(pole_rules: bool) -> Self {
        Chess {
            pole_rules,
            castling: 0,
            castle: Castling::none(),
            ep: NO_EP,
            poles_available: false,
            hand: [pole_rules; 2],
            chess960: false,
        }
    }
}

/// A position of FIDE chess or of Pole Chess.
pub type ChessPosition = Position<Chess, 1>;

/// The castling set-up of a game: for each right (bit number 0..4 of
/// [`WHITE_OO`](super::tables::WHITE_OO) ...), the Rook's square, the squares that must be
/// empty (between King and Rook and their destinations, those two excepted) and the squares
/// the King crosses or lands on, which must not be attacked; and per square, the rights that
/// survive a move from or to it. In chess the King starts on e1 and the Rooks on a1 and h1;
/// in Chess960 they start anywhere on the first rank with the King between the Rooks, and
/// castling puts King and Rook on the same squares as in chess (g1/f1 or c1/d1).
#[derive(Clone, Debug)]
pub(super) struct Castling {
    pub rook: [u8; 4],
    pub empty: [Bb; 4],
    pub king_path: [Bb; 4],
    pub keep: [u8; 64],
}

impl Castling {
    /// No castling at all.
    pub fn none() -> Self {
        Castling {
            rook: [0; 4],
            empty: [Bb::EMPTY; 4],
            king_path: [Bb::EMPTY; 4],
            keep: [0xf; 64],
        }
    }

    /// Adds right number `i` (its bit is `1 << i`): the King on `king`, the Rook on `rook`.
    pub fn add(&mut self, i: usize, king: Cell, rook: Cell) {
        let rank = king / 8;
        let (king_to, rook_to) = castled_squares(king, rook);
        let span = |a: Cell, b: Cell| {
            let mut bb = Bb::EMPTY;
            for f in a.min(b)..=a.max(b) {
                bb.insert(rank * 8 + f % 8);
            }
            bb
        };
        let mut empty = span(king, king_to) | span(rook, rook_to);
        empty.remove(king);
        empty.remove(rook);
        // The King's destination is checked even when the King stays where it is: the Rook
        // leaving may open a line to it (King c1, Rook b1, an enemy Queen on a1).
        let mut path = span(king, king_to);
        path.remove(king);
        path.insert(king_to);
        self.rook[i] = rook as u8;
        self.empty[i] = empty;
        self.king_path[i] = path;
        let colour_rights = if i < 2 { 0b0011 } else { 0b1100 };
        self.keep[king] &= !colour_rights & 0xf;
        self.keep[rook] &= !(1u8 << i) & 0xf;
    }
}

/// Where King and Rook stand after castling with the King on `king` and the Rook on `rook`
/// (same rank): g and f files towards the h-file, c and d files towards the a-file.
#[inline(always)]
pub(super) fn castled_squares(king: Cell, rook: Cell) -> (Cell, Cell) {
    let rank = king / 8 * 8;
    if rook > king {
        (rank + 6, rank + 5)
    } else {
        (rank + 2, rank + 3)
    }
}

impl PartialEq for Chess {
    /// Equal game state: the rights (with their Rooks), the en passant square and the Poles;
    /// Chess960 notation is a way of writing, not compared.
    fn eq(&self, other: &Self) -> bool {
        self.pole_rules == other.pole_rules
            && self.castling == other.castling
            && (0..4).all(|i| {
                self.castling & (1 << i) == 0 || self.castle.rook[i] == other.castle.rook[i]
            })
            && self.ep == other.ep
            && self.poles_available == other.poles_available
            && self.hand == other.hand
    }
}

impl ChessPosition {
    /// The shared tables.
    #[inline(always)]
    pub(super) fn t() -> &'static Tables {
        &TABLES
    }

    /// Switches Chess960 notation on or off (see the field `chess960`).
    pub fn set_chess960(&mut self, on: bool) {
        self.state.chess960 = on;
    }

    /// Whether Chess960 notation is on.
    pub fn chess960(&self) -> bool {
        self.state.chess960
    }

    /// Whether this is a Pole Chess position.
    pub fn is_pole(&self) -> bool {
        self.state.pole_rules
    }

    /// Whether Poles may be played (Pole Chess, after the first capture).
    pub fn poles_available(&self) -> bool {
        self.state.poles_available
    }

    /// Whether `colour`'s Pole is in hand.
    pub fn pole_in_hand(&self, colour: Colour) -> bool {
        self.state.hand[colour.idx()]
    }

    /// The en passant square, if a legal en passant capture exists.
    pub fn ep_square(&self) -> Option<Cell> {
        (self.state.ep != NO_EP).then_some(self.state.ep as Cell)
    }

    /// The square of `colour`'s King.
    #[inline(always)]
    pub fn king_square(&self, colour: Colour) -> Cell {
        self.board.pieces(kind::KING, colour).first().unwrap_or(0)
    }

    /// All Poles on the board.
    #[inline(always)]
    pub(super) fn poles(&self) -> Bb {
        self.board.kind(kind::POLE)
    }

    /// The pieces of `by` that attack `sq` when the occupied squares are `occ`.
    #[inline(always)]
    pub fn attackers_to(&self, sq: Cell, by: Colour, occ: Bb) -> Bb {
        let t = Self::t();
        let b = &self.board;
        ((t.knight[sq] & b.kind(kind::KNIGHT))
            | (t.king[sq] & b.kind(kind::KING))
            | (t.pawn_attacks[by.flip().idx()][sq] & b.kind(kind::PAWN))
            | self.sliders_to(sq, occ, true, true))
            & b.colour(by)
    }

    /// The pieces of both colours that attack `sq` when the occupied squares are `occ`.
    #[inline(always)]
    pub fn attackers_to_any(&self, sq: Cell, occ: Bb) -> Bb {
        let t = Self::t();
        let b = &self.board;
        let pawns = b.kind(kind::PAWN);
        (t.knight[sq] & b.kind(kind::KNIGHT))
            | (t.king[sq] & b.kind(kind::KING))
            | (t.pawn_attacks[Colour::BLACK.idx()][sq] & pawns & b.colour(Colour::WHITE))
            | (t.pawn_attacks[Colour::WHITE.idx()][sq] & pawns & b.colour(Colour::BLACK))
            | self.sliders_to(sq, occ, true, true)
    }

    /// The Rooks and Queens (with `lines`) and the Bishops and Queens (with `diagonals`) of
    /// both colours that attack `sq` when the occupied squares are `occ`: what a piece leaving
    /// a line or a diagonal through `sq` can uncover.
    #[inline(always)]
    pub fn sliders_to(&self, sq: Cell, occ: Bb, lines: bool, diagonals: bool) -> Bb {
        let t = Self::t();
        let b = &self.board;
        let mut found = Bb::EMPTY;
        if lines {
            found |= rook_attacks(t, sq, occ) & (b.kind(kind::ROOK) | b.kind(kind::QUEEN));
        }
        if diagonals {
            found |= bishop_attacks(t, sq, occ) & (b.kind(kind::BISHOP) | b.kind(kind::QUEEN));
        }
        found
    }

    /// Whether `by` attacks `sq` when the occupied squares are `occ`.
    #[inline(always)]
    pub fn is_attacked(&self, sq: Cell, by: Colour, occ: Bb) -> bool {
        let t = Self::t();
        let b = &self.board;
        let them = b.colour(by);
        if (t.knight[sq] & b.kind(kind::KNIGHT) & them).any()
            || (t.pawn_attacks[by.flip().idx()][sq] & b.kind(kind::PAWN) & them).any()
            || (t.king[sq] & b.kind(kind::KING) & them).any()
        {
            return true;
        }
        let rq = (b.kind(kind::ROOK) | b.kind(kind::QUEEN)) & them;
        if rq.any() && (rook_attacks(t, sq, occ) & rq).any() {
            return true;
        }
        let bq = (b.kind(kind::BISHOP) | b.kind(kind::QUEEN)) & them;
        bq.any() && (bishop_attacks(t, sq, occ) & bq).any()
    }

    /// The pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bb {
        let us = self.side;
        self.attackers_to(self.king_square(us), us.flip(), self.board.occupied())
    }

    /// Whether the legal move `mv` gives check: the piece attacks the other King from where
    /// it lands, or the square it leaves opens a line from one of the mover's sliders to that
    /// King. Castling and en passant (rare, and moving two pieces) answer `true` without
    /// looking. A Pole drop never checks: it attacks nothing and only closes lines.
    /// A slider's attacks are looked up only where the empty board's lines through the King
    /// allow a check (most moves are on none of them).
    pub fn gives_check(&self, mv: Move) -> bool {
        let t = Self::t();
        let b = &self.board;
        let us = self.side;
        let (from, to) = (mv.from(), mv.to());
        let moved = match mv.flag() {
            MoveFlag::Castle | MoveFlag::EnPassant => return true,
            MoveFlag::Drop => return false,
            _ => mv.promotion().unwrap_or(b.piece_at(from).kind()),
        };
        let ksq = self.king_square(us.flip());
        let mut occ = b.occupied();
        occ.remove(from);
        occ.insert(to);
        let (rook_lines, bishop_lines) = (t.rook_rays[ksq], t.bishop_rays[ksq]);
        let orthogonal = || rook_attacks(t, to, occ).contains(ksq);
        let diagonal = || bishop_attacks(t, to, occ).contains(ksq);
        let direct = match moved {
            kind::PAWN => t.pawn_attacks[us.idx()][to].contains(ksq),
            kind::KNIGHT => t.knight[to].contains(ksq),
            kind::BISHOP => bishop_lines.contains(to) && diagonal(),
            kind::ROOK => rook_lines.contains(to) && orthogonal(),
            kind::QUEEN => {
                (rook_lines.contains(to) && orthogonal())
                    || (bishop_lines.contains(to) && diagonal())
            }
            _ => false,
        };
        if direct {
            return true;
        }
        // A discovered check: `from` stands on a line from the King to one of our sliders.
        let ours = b.colour(us);
        let mut rq = (b.kind(kind::ROOK) | b.kind(kind::QUEEN)) & ours & rook_lines;
        let mut bq = (b.kind(kind::BISHOP) | b.kind(kind::QUEEN)) & ours & bishop_lines;
        rq.remove(from);
        bq.remove(from);
        (rq.any() && rook_lines.contains(from) && (rook_attacks(t, ksq, occ) & rq).any())
            || (bq.any() && bishop_lines.contains(from) && (bishop_attacks(t, ksq, occ) & bq).any())
    }

    /// The key of the castling rights, the en passant square and the Poles.
    pub(super) fn state_key(&self) -> u64 {
        let z = &Self::t().zobrist;
        let mut k = z.extra[super::tables::Z_CASTLING + self.state.castling as usize];
        if self.state.ep != NO_EP {
            k ^= z.extra[super::tables::Z_EP + (self.state.ep % 8) as usize];
        }
        for c in 0..2 {
            if self.state.hand[c] {
                k ^= z.extra[super::tables::Z_HAND + c];
            }
        }
        if self.state.poles_available {
            k ^= z.extra[super::tables::Z_POLES];
        }
        k
    }
}
