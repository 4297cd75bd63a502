//! Why a move is refused in Podionic Chess, in words for a player.

use super::info::INFO;
use super::position::PodionicPosition;
use crate::rules::bitset::Cell;
use crate::rules::game::{basic_refusal, cannot_reach, king_left_in_check};
use crate::rules::piece::Colour;

impl PodionicPosition {
    /// Why moving the piece on `from` to `to` is refused.
    pub(super) fn explain(&self, from: Cell, to: Cell) -> String {
        if from == to {
            return "nothing can be dropped in Podionic Chess".into();
        }
        if let Some(why) = basic_refusal(self, INFO.pieces, from, to) {
            return why;
        }
        let b = &self.board;
        let piece = b.piece_at(from);
        let us = piece.colour();
        let occ = b.occupied();
        let not_ours = Self::t().geo.all().and_not(b.colour(us));
        let pseudo = self.pseudo_targets(from, piece.kind(), occ, not_ours, b.colour(us.flip()));
        if !pseudo.contains(to) {
            return cannot_reach(self, INFO.pieces, from, to);
        }
        king_left_in_check(self, INFO.pieces, super::tables::kind::KING, from, to)
    }

    /// The side to move's King, when in check.
    pub(super) fn king_in_check(&self) -> Vec<Cell> {
        let us: Colour = self.side;
        if self.checkers().any() {
            vec![self.king_cell(us)]
        } else {
            Vec::new()
        }
    }
}
