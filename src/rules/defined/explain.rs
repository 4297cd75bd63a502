//! Why a move is refused in a file-defined variant, in words for a player.

use super::position::DefinedPosition;
use super::rules::Goal;
use crate::rules::bitset::Cell;
use crate::rules::game::{basic_refusal, cannot_reach, king_left_in_check};
use crate::rules::moves::MoveList;
use crate::rules::sink::ListSink;

impl DefinedPosition {
    /// Why moving the piece on `from` to `to` is refused.
    pub(super) fn explain(&self, from: Cell, to: Cell) -> String {
        let r = self.state.rules;
        let pieces = r.info.pieces;
        if from == to {
            return format!("nothing can be dropped in {}", r.title);
        }
        if let Some(why) = basic_refusal(self, pieces, from, to) {
            return why;
        }
        let mut pseudo = MoveList::new();
        self.pseudo_legal(&mut ListSink(&mut pseudo));
        if !pseudo.iter().any(|m| m.from() == from && m.to() == to) {
            let piece = self.board.piece_at(from);
            if r.is_pawn(piece.kind())
                && r.promotion_zone[piece.colour().idx()].contains(to)
                && r.promotion_choices.is_none()
            {
                return format!(
                    "a pawn arriving on {} must promote to a piece of {}'s reserve, and the \
                     reserve has none",
                    r.geo.name(to),
                    piece.colour().name()
                );
            }
            return cannot_reach(self, pieces, from, to);
        }
        if r.goal == Goal::Checkmate {
            let royal = (0..r.kinds as u8).find(|&k| r.is_royal(k)).unwrap_or(0);
            return king_left_in_check(self, pieces, royal, from, to);
        }
        format!(
            "the move from {} to {} is not allowed here",
            r.geo.name(from),
            r.geo.name(to)
        )
    }
}
