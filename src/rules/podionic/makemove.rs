//! Making and taking back moves, with the key kept incrementally.
//!
//! Every Podionic move is a from-to move, possibly capturing on the destination and possibly
//! promoting there: there is no castling, no en passant and no state besides the placement,
//! the side to move and the clocks.

use super::position::{PodionicPosition, Undo};
use super::tables::kind;
use crate::rules::moves::Move;
use crate::rules::piece::{Colour, Piece};

impl PodionicPosition {
    pub(super) fn make_move(&mut self, mv: Move) {
        let z = &Self::t().zobrist;
        let us = self.side;
        let (from, to) = (mv.from(), mv.to());
        let captured = self.board.piece_at(to);
        self.history.push(Undo {
            mv,
            captured,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            key: self.board.key(),
        });
        self.halfmove = self.halfmove.saturating_add(1);
        if captured.is_some() {
            self.board.remove(to);
            self.halfmove = 0;
        }
        if self.board.piece_at(from).kind() == kind::PAWN {
            self.halfmove = 0;
        }
        self.board.relocate(from, to);
        if let Some(k) = mv.promotion() {
            self.board.remove(to);
            self.board.put(to, Piece::new(k, us));
        }
        self.side = us.flip();
        self.board
            .toggle_key(z.side[us.idx()] ^ z.side[us.flip().idx()]);
        if us == Colour::BLACK {
            self.fullmove = self.fullmove.saturating_add(1);
        }
    }

    pub(super) fn unmake_move(&mut self) {
        let u = self.history.pop().expect("unmake without a move");
        let us = self.side.flip();
        self.side = us;
        let (from, to) = (u.mv.from(), u.mv.to());
        if u.mv.promotion().is_some() {
            self.board.remove(to);
            self.board.put(to, Piece::new(kind::PAWN, us));
        }
        self.board.relocate(to, from);
        if u.captured.is_some() {
            self.board.put(to, u.captured);
        }
        self.halfmove = u.halfmove;
        self.fullmove = u.fullmove;
        self.board.set_key(u.key);
    }

    /// Passes the turn (for null-move pruning).
    pub(super) fn make_null_move(&mut self) {
        let z = &Self::t().zobrist;
        self.history.push(Undo {
            mv: Move::NONE,
            captured: Piece::NONE,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            key: self.board.key(),
        });
        // Resetting the clock keeps repetition detection from looking through the pass.
        self.halfmove = 0;
        let us = self.side;
        self.side = us.flip();
        self.board
            .toggle_key(z.side[us.idx()] ^ z.side[us.flip().idx()]);
    }

    /// Takes back [`PodionicPosition::make_null_move`].
    pub(super) fn unmake_null_move(&mut self) {
        let u = self.history.pop().expect("unmake_null without a null move");
        self.side = self.side.flip();
        self.halfmove = u.halfmove;
        self.fullmove = u.fullmove;
        self.board.set_key(u.key);
    }
}
