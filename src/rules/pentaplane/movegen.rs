//! Move generation for Pentaplane V.
//!
//! There is no check rule, so every pseudo-legal move is legal and nothing is tried and taken
//! back: each piece's targets are a table lookup or a union of slides, and missile shots are
//! the first occupied cell of each ray when it holds an enemy piece or a Bomb of either colour.
//! A position where a King is gone has no moves.
//!
//! Moves go to a [`MoveSink`]: a list for the search, or a counter for the last ply of perft,
//! which adds up target sets without writing a move.

use super::position::PentaplanePosition;
use super::tables::{
    ALL_DIRS, BISHOP_DIRS, CUBE_DIRS, ROOK_BISHOP_DIRS, ROOK_DIRS, kind, shots, slides,
};
use crate::rules::sink::MoveSink;

impl PentaplanePosition {
    /// Generates all legal moves into `sink` (none once a King is gone).
    pub(super) fn generate_into<S: MoveSink<2>>(&self, sink: &mut S) {
        if !self.both_kings_present() {
            return;
        }
        let t = Self::t();
        let b = &self.board;
        let us = self.side;
        let occ = b.occupied();
        let our = b.colour(us);
        let enemies = b.colour(us.flip());
        let not_ours = t.geo.all().and_not(our);
        let empty = t.geo.all().and_not(occ);
        let hittable = enemies | b.kind(kind::BOMB);

        for from in b.pieces(kind::PAWN, us) {
            let targets = (t.rook_step[from] & empty) | (t.bishop_step[from] & enemies);
            let promoting = targets & t.promotion[us.idx()];
            sink.set(from, targets.and_not(promoting));
            sink.promotions(from, promoting, &[kind::QUEEN]);
        }
        for from in b.pieces(kind::KNIGHT, us) {
            sink.set(from, t.knight[from] & not_ours);
        }
        for from in b.pieces(kind::KING, us) {
            sink.set(from, t.king[from] & not_ours);
        }
        for from in b.pieces(kind::BOMB, us) {
            sink.set(from, t.rook_step[from] & not_ours);
        }
        for from in b.pieces(kind::ROOK, us) {
            sink.set(from, slides(t, from, occ, ROOK_DIRS) & not_ours);
        }
        for from in b.pieces(kind::BISHOP, us) {
            sink.set(from, slides(t, from, occ, BISHOP_DIRS) & not_ours);
        }
        for from in b.pieces(kind::CUBER, us) {
            sink.set(from, slides(t, from, occ, CUBE_DIRS) & not_ours);
        }
        for from in b.pieces(kind::QUEEN, us) {
            sink.set(from, slides(t, from, occ, ALL_DIRS) & not_ours);
        }
        for from in b.pieces(kind::KAMIKAZE, us) {
            sink.set(from, slides(t, from, occ, ROOK_BISHOP_DIRS) & not_ours);
        }
        for from in b.pieces(kind::FORTRESS, us) {
            sink.set(from, t.rook_step[from] & not_ours);
            sink.shots(from, shots(t, from, occ, hittable, ROOK_DIRS));
        }
        for from in b.pieces(kind::MISSILE_BISHOP, us) {
            sink.set(from, t.bishop_step[from] & not_ours);
            sink.shots(from, shots(t, from, occ, hittable, BISHOP_DIRS));
        }
        for from in b.pieces(kind::SATELLITE, us) {
            sink.set(from, t.cube_step[from] & not_ours);
            sink.shots(from, shots(t, from, occ, hittable, CUBE_DIRS));
        }
    }
}
