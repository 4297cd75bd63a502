//! Why a move is refused in chess and Pole Chess, in words for a player; and where a piece
//! could go if its King's safety did not matter (which tells "does not move that way" from
//! "would leave the King in check").

use super::info::{CHESS, POLE};
use super::position::{ChessPosition, NO_EP};
use super::tables::{Bb, TABLES, bishop_attacks, kind, rook_attacks};
use crate::rules::bitset::Cell;
use crate::rules::game::{Game, basic_refusal, cannot_reach, king_left_in_check};
use crate::rules::piece::Colour;

impl ChessPosition {
    /// The cells the piece on `from` could move to if its own King's safety did not matter
    /// (castling left out).
    fn pseudo_targets(&self, from: Cell) -> Bb {
        let t = &*TABLES;
        let b = &self.board;
        let piece = b.piece_at(from);
        let us = piece.colour();
        let occ = b.occupied();
        let poles = self.poles();
        let not_ours = t.geo.all().and_not(b.colour(us) | poles);
        let enemies = b.colour(us.flip()).and_not(poles);
        match piece.kind() {
            kind::KNIGHT => t.knight[from] & not_ours,
            kind::BISHOP => bishop_attacks(t, from, occ) & not_ours,
            kind::ROOK => rook_attacks(t, from, occ) & not_ours,
            kind::QUEEN => (rook_attacks(t, from, occ) | bishop_attacks(t, from, occ)) & not_ours,
            kind::KING => t.king[from] & not_ours,
            kind::POLE if self.state.poles_available => t.geo.all().and_not(occ),
            kind::POLE => Bb::EMPTY,
            _ => {
                let up: isize = if us == Colour::WHITE { 8 } else { -8 };
                let mut targets = t.pawn_attacks[us.idx()][from] & enemies;
                if self.state.ep != NO_EP
                    && t.pawn_attacks[us.idx()][from].contains(self.state.ep as Cell)
                {
                    targets.insert(self.state.ep as Cell);
                }
                let one = (from as isize + up) as Cell;
                if !occ.contains(one) {
                    targets.insert(one);
                    let start = if us == Colour::WHITE { 1 } else { 6 };
                    let two = (one as isize + up) as Cell;
                    if from / 8 == start && !occ.contains(two) {
                        targets.insert(two);
                    }
                }
                targets
            }
        }
    }

    /// Why moving the piece on `from` to `to` is refused (a Pole drop on `to` when `from ==
    /// to`).
    pub(super) fn explain(&self, from: Cell, to: Cell) -> String {
        let pieces = if self.state.pole_rules {
            POLE.pieces
        } else {
            CHESS.pieces
        };
        if from == to {
            return self.explain_drop(to);
        }
        if let Some(why) = basic_refusal(self, pieces, from, to) {
            return why;
        }
        let piece = self.board.piece_at(from);
        if piece.kind() == kind::POLE && !self.state.poles_available {
            return "Poles may be played only after the first capture of the game".into();
        }
        if self.board.piece_at(to).kind() == kind::POLE && self.board.piece_at(to).is_some() {
            return format!(
                "{} holds a Pole, which cannot be captured",
                self.cell_name(to)
            );
        }
        let castling = piece.kind() == kind::KING && from.abs_diff(to) == 2 && from / 8 == to / 8;
        if castling {
            return "castling needs the King and that Rook unmoved, the squares between them \
                    empty, and the King neither in check nor crossing or landing on an attacked \
                    square"
                .into();
        }
        if !self.pseudo_targets(from).contains(to) {
            return cannot_reach(self, pieces, from, to);
        }
        king_left_in_check(self, pieces, kind::KING, from, to)
    }

    fn explain_drop(&self, to: Cell) -> String {
        let us = self.side;
        if !self.state.pole_rules {
            return "nothing can be dropped in chess".into();
        }
        if !self.state.hand[us.idx()] {
            return format!("{}'s Pole is already on the board", us.name());
        }
        if !self.state.poles_available {
            return "Poles may be played only after the first capture of the game".into();
        }
        if self.board.piece_at(to).is_some() {
            return format!("{} is occupied", self.cell_name(to));
        }
        "your King is in check, and a Pole there does not block it".into()
    }

    /// The side to move's King, when in check.
    pub(super) fn king_in_check(&self) -> Vec<Cell> {
        if self.checkers().any() {
            vec![self.king_square(self.side)]
        } else {
            Vec::new()
        }
    }
}
