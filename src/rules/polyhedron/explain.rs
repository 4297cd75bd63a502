//! Why a move is refused in Polyhedron Chess, in words for a player.

use super::info::INFO;
use super::position::PolyhedronPosition;
use super::tables::{Bb, kind};
use crate::rules::bitset::Cell;
use crate::rules::game::{basic_refusal, cannot_reach, king_left_in_check};

impl PolyhedronPosition {
    /// The cells the piece on `from` could move to if its own King's safety did not matter.
    fn pseudo_targets(&self, from: Cell) -> Bb {
        let t = Self::t();
        let b = &self.board;
        let piece = b.piece_at(from);
        let us = piece.colour();
        if piece.kind() != kind::PAWN {
            return self.attacks_from(from).and_not(b.colour(us));
        }
        let occ = b.occupied();
        let mut targets = t.pawn_attacks[us.idx()][from] & b.colour(us.flip());
        if let Some(one) = t.pawn_push[us.idx()][from]
            && !occ.contains(one)
        {
            targets.insert(one);
            if t.start_rank[us.idx()].contains(from)
                && let Some(two) = t.pawn_push[us.idx()][one]
                && !occ.contains(two)
            {
                targets.insert(two);
            }
        }
        if let Some(e) = self.ep_cell()
            && t.pawn_attacks[us.idx()][from].contains(e)
        {
            targets.insert(e);
        }
        targets
    }

    /// Why moving the piece on `from` to `to` is refused.
    pub(super) fn explain(&self, from: Cell, to: Cell) -> String {
        if from == to {
            return "nothing can be dropped in Polyhedron Chess".into();
        }
        if let Some(why) = basic_refusal(self, INFO.pieces, from, to) {
            return why;
        }
        if !self.pseudo_targets(from).contains(to) {
            return cannot_reach(self, INFO.pieces, from, to);
        }
        let piece = self.board.piece_at(from);
        let us = piece.colour();
        if piece.kind() == kind::PAWN
            && Self::t().promotion_zone[us.idx()].contains(to)
            && self.reserve(us).is_empty()
        {
            return format!(
                "a pawn on the last rank of its level must promote to a piece of {}'s \
                 reserve, and the reserve is empty",
                us.name()
            );
        }
        king_left_in_check(self, INFO.pieces, kind::KING, from, to)
    }
}
