//! Move generation for Chess – The Future Generation.
//!
//! There is no check: every move the pieces can make is legal, so generation is a matter of
//! target sets. Two masks carry the special rules: the colour's reach (every cell once it is
//! unlocked, its side of the gate before, which also stops vertical slides at the gate since
//! a locked colour's pieces never stand beyond it) and the cells not held by its own team
//! (partners never capture each other; eliminated pieces of the other team are captured like
//! any other).
//!
//! Moves go to a [`MoveSink`]: a list for the search, or a counter for the last ply of perft.
//! The pass is added by the caller when nothing else was generated.

use super::position::FuturePosition;
use super::tables::{Bb, PROMOTIONS, Tables, bishop_attacks, castle_bit, kind, rook_attacks};
use crate::rules::bitset::Cell;
use crate::rules::moves::{Move, MoveFlag};
use crate::rules::sink::MoveSink;

impl FuturePosition {
    /// Generates every move of the colour to move except the pass.
    pub(super) fn generate_into<S: MoveSink<4>>(&self, sink: &mut S) {
        let t = Self::t();
        let b = &self.board;
        let us = self.side;
        let occ = b.occupied();
        let reach = self.reach(us);
        let targets = reach.and_not(self.team_pieces(us));

        for from in b.pieces(kind::KING, us) {
            sink.set(from, t.king[from] & targets);
        }
        for from in b.pieces(kind::KNIGHT, us) {
            sink.set(from, t.knight[from] & targets);
        }
        for from in b.pieces(kind::CROWNED, us) {
            sink.set(from, t.crowned[from] & targets);
        }
        for from in b.pieces(kind::BISHOP, us) {
            sink.set(from, bishop_attacks(t, from, occ) & targets);
        }
        for from in b.pieces(kind::ROOK, us) {
            sink.set(from, rook_attacks(t, from, occ) & targets);
        }
        for from in b.pieces(kind::QUEEN, us) {
            let att = rook_attacks(t, from, occ) | bishop_attacks(t, from, occ);
            sink.set(from, att & targets);
        }
        self.pawn_moves(t, sink, reach, occ);
        self.castling_moves(t, sink, occ);
    }

    fn pawn_moves<S: MoveSink<4>>(&self, t: &Tables, sink: &mut S, reach: Bb, occ: Bb) {
        let b = &self.board;
        let us = self.side;
        let c = us.idx();
        let empty = reach.and_not(occ);
        let enemies = occ.and_not(self.team_pieces(us)) & reach;
        let far = t.far_edge[c];
        let fwd = t.forward_offset[c];
        let pawns = b.pieces(kind::PAWN, us);
        for from in pawns {
            let to = (t.pawn_push[c][from] & empty) | (t.pawn_capture[c][from] & enemies);
            let promo = to & far;
            sink.set(from, to.and_not(promo));
            if promo.any() {
                sink.promotions(from, promo, &PROMOTIONS);
            }
        }
        for from in pawns & t.pawn_start[c] {
            for to in t.pawn_double[c][from] & empty {
                let passed = (to as isize - fwd) as Cell;
                if !occ.contains(passed) {
                    sink.one(Move::with_flag(from, to, MoveFlag::DoubleStep));
                }
            }
        }
        if let Some(ep) = self.state.ep {
            // The right exists only when the colour to move can use it (see `ep_right_for`).
            for from in t.pawn_attackers[c][ep.cell] & pawns {
                if far.contains(ep.cell) {
                    for k in PROMOTIONS {
                        sink.one(Move::new(from, ep.cell, Some(k), MoveFlag::EnPassant));
                    }
                } else {
                    sink.one(Move::with_flag(from, ep.cell, MoveFlag::EnPassant));
                }
            }
        }
    }

    fn castling_moves<S: MoveSink<4>>(&self, t: &Tables, sink: &mut S, occ: Bb) {
        let us = self.side;
        if self.state.castling & (castle_bit(us, 0) | castle_bit(us, 1)) == 0 {
            return;
        }
        let them = 1 - us.team();
        for (side, cs) in t.castling[us.idx()].iter().enumerate() {
            if self.state.castling & castle_bit(us, side) != 0
                && !cs.between.intersects(occ)
                && !cs.safe.iter().any(|&c| self.attacked_by_team(c, them))
            {
                sink.one(Move::with_flag(cs.king_from, cs.king_to, MoveFlag::Castle));
            }
        }
    }
}
