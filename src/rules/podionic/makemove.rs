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
    #[inline(always)]
    pub(super) fn play(&mut self, mv: Move) -> Undo {
        let us = self.side;
        let (from, to) = (mv.from(), mv.to());
        let captured = self.board.piece_at(to);
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
        self.hand_over(us.flip());
        Undo { captured }
    }

    #[inline(always)]
    pub(super) fn take_back(&mut self, mv: Move, u: &Undo) {
        let us = self.side;
        let (from, to) = (mv.from(), mv.to());
        if mv.promotion().is_some() {
            self.board.remove(to);
            self.board.put(to, Piece::new(kind::PAWN, us));
        }
        self.board.relocate(to, from);
        if u.captured.is_some() {
            self.board.put(to, u.captured);
        }
    }
}
