//! Whether one given move is legal, without generating every move: the search asks this of
//! the transposition table's move, which it tries before generating the others (the table
//! may hold a move of another position whose key collided with this one's).
//!
//! Plain moves and promotions, nearly every table move, are checked directly: the piece is
//! the mover's, it reaches the square, and its own King is not attacked afterwards. The rare
//! kinds (castling, en passant, double steps, Pole moves and drops) are looked for among the
//! generated moves, so they follow the generator's rules exactly.

use super::movegen::PROMOTIONS;
use super::position::ChessPosition;
use super::tables::{Bb, bishop_attacks, kind, rook_attacks};
use crate::rules::bitset::Cell;
use crate::rules::moves::{Move, MoveFlag};
use crate::rules::piece::{Colour, Kind};
use crate::rules::sink::MoveSink;

/// Cells of the board.
const CELLS: Cell = 64;

impl ChessPosition {
    /// Whether `mv` is one of the legal moves of this position.
    pub(super) fn is_legal(&self, mv: Move) -> bool {
        let (from, to) = (mv.from(), mv.to());
        if from >= CELLS || to >= CELLS {
            return false;
        }
        let plain = Move::new(from, to, mv.promotion(), MoveFlag::Normal) == mv;
        let piece = self.board.piece_at(from);
        if !plain || piece.is_none() || piece.kind() == kind::POLE {
            return self.is_generated(mv);
        }
        let t = Self::t();
        let b = &self.board;
        let us = self.side;
        let them = us.flip();
        if piece.colour() != us {
            return false;
        }
        let enemies = b.colour(them).and_not(self.poles());
        let empty = t.geo.all().and_not(b.occupied());
        // The piece reaches `to` (empty or an enemy piece, never a Pole), promoting exactly
        // when a pawn reaches the last rank.
        let occ = b.occupied();
        let targets = match piece.kind() {
            kind::PAWN => {
                // A pawn never stands on the last rank, so its step stays on the board.
                let one = if us == Colour::WHITE {
                    from + 8
                } else {
                    from - 8
                };
                let mut step = Bb::EMPTY;
                step.insert(one);
                (step & empty) | (t.pawn_attacks[us.idx()][from] & enemies)
            }
            kind::KNIGHT => t.knight[from],
            kind::BISHOP => bishop_attacks(t, from, occ),
            kind::ROOK => rook_attacks(t, from, occ),
            kind::QUEEN => rook_attacks(t, from, occ) | bishop_attacks(t, from, occ),
            _ => t.king[from],
        } & (empty | enemies);
        if !targets.contains(to) {
            return false;
        }
        let last_rank = if us == Colour::WHITE { 7 } else { 0 };
        let promotes = piece.kind() == kind::PAWN && to / 8 == last_rank;
        let promotion_ok = match mv.promotion() {
            None => !promotes,
            Some(k) => promotes && PROMOTIONS.contains(&k),
        };
        if !promotion_ok {
            return false;
        }
        // The mover's King is not attacked once the move is made (the piece taken on `to`
        // attacks nothing).
        let mut after = occ;
        after.remove(from);
        after.insert(to);
        let ksq = if piece.kind() == kind::KING {
            to
        } else {
            self.king_square(us)
        };
        let mut attackers = self.attackers_to(ksq, them, after);
        attackers.remove(to);
        attackers.is_empty()
    }

    /// Whether the generator lists `mv`.
    fn is_generated(&self, mv: Move) -> bool {
        let mut find = FindSink { mv, found: false };
        self.generate_into(&mut find);
        find.found
    }
}

/// Looks for one move among the generated ones without listing them.
struct FindSink {
    mv: Move,
    found: bool,
}

impl MoveSink<1> for FindSink {
    #[inline(always)]
    fn one(&mut self, m: Move) {
        self.found |= m == self.mv;
    }
    #[inline(always)]
    fn set(&mut self, from: Cell, targets: Bb) {
        let m = self.mv;
        self.found |=
            m == Move::normal(m.from(), m.to()) && from == m.from() && targets.contains(m.to());
    }
    #[inline(always)]
    fn promotions(&mut self, from: Cell, targets: Bb, kinds: &[Kind]) {
        let m = self.mv;
        self.found |= from == m.from()
            && targets.contains(m.to())
            && kinds
                .iter()
                .any(|&k| m == Move::promotion_to(from, m.to(), k));
    }
    #[inline(always)]
    fn drops(&mut self, k: Kind, targets: Bb) {
        let m = self.mv;
        self.found |= targets.contains(m.to()) && m == Move::drop(k, m.to());
    }
    #[inline(always)]
    fn shots(&mut self, _: Cell, _: Bb) {}
}
