//! Making and taking back moves, with the key kept incrementally.
//!
//! Every Podionic move is a from-to move, possibly capturing on the destination and possibly
//! promoting there: there is no castling, no en passant and no state besides the placement,
//! the side to move and the clocks.

use super::position::{PodionicPosition, Undo};
use super::tables::kind;
use crate::rules::moves::Move;
use crate::rules::piece::Piece;

impl PodionicPosition {
    pub(super) fn make_move(&mut self, mv: Move) {
        let z = &Self::t().zobrist;
        let us = self.side;
        let (from, to) = (mv.from(), mv.to());
        let captured = self.board.piece_at(to);
        self.history.push(Undo {
            mv,
            captured,
            clocks: self.clocks,
            key: self.board.key(),
        });
        self.clocks.tick();
        if captured.is_some() {
            self.board.remove(to);
            self.clocks.restart();
        }
        if self.board.piece_at(from).kind() == kind::PAWN {
            self.clocks.restart();
        }
        self.board.relocate(from, to);
        if let Some(k) = mv.promotion() {
            self.board.remove(to);
            self.board.put(to, Piece::new(k, us));
        }
        self.side = us.flip();
        self.board
            .toggle_key(z.side[us.idx()] ^ z.side[us.flip().idx()]);
        self.clocks.after_two_colour_move(us);
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
        self.clocks = u.clocks;
        self.board.set_key(u.key);
    }
}
