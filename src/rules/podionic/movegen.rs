//! Legal move generation.
//!
//! Every piece's targets come from the tables (slider path trees, leap tables, pawn lanes).
//! A move is then legal unless it leaves the mover's King attacked. When the King is not in
//! check, a move can expose it only by vacating a cell that some path from the King passes
//! through, i.e. a cell the King would reach as a Rook or Bishop; so only own pieces on
//! such cells (the "pin candidates") are examined further: with the piece lifted off, do
//! enemy sliders reach the King? If not, all its moves are legal; if so, each move is tested
//! on the occupancy after it. In check every move is tested that way (paths can join, so a
//! single move may in principle meet two checks). King moves test the destination.
//!
//! Moves go to a [`MoveSink`]: a list for the search, or a counter for the last ply of perft.

use super::position::PodionicPosition;
use super::tables::{Bb, PROMOTIONS, kind};
use crate::rules::bitset::Cell;
use crate::rules::sink::MoveSink;

impl PodionicPosition {
    /// Whether moving the piece on `from` to `to` (capturing whatever stands there) leaves
    /// the King on `ksq` (not the moving piece) unattacked.
    #[inline]
    fn king_safe_after(&self, from: Cell, to: Cell, ksq: Cell) -> bool {
        let mut occ = self.board.occupied();
        occ.remove(from);
        occ.insert(to);
        let mut attackers = self.attackers_to(ksq, self.side.flip(), occ);
        attackers.remove(to);
        attackers.is_empty()
    }

    /// The cells a piece of `kind` on `from` may move to, ignoring the King's safety.
    #[inline(always)]
    pub(super) fn pseudo_targets(
        &self,
        from: Cell,
        kind: u8,
        occ: Bb,
        not_ours: Bb,
        theirs: Bb,
    ) -> Bb {
        let t = Self::t();
        match kind {
            kind::PAWN => {
                let pt = &t.pawn[self.side.idx()];
                let mut targets = pt.captures[from] & theirs;
                let one = pt.push[from] as Cell;
                if !occ.contains(one) {
                    targets.insert(one);
                    let two = pt.double[from];
                    if two != super::tables::NO_CELL && !occ.contains(two as Cell) {
                        targets.insert(two as Cell);
                    }
                }
                targets
            }
            kind::KNIGHT => t.knight[from] & not_ours,
            kind::BISHOP => t.bishop.reach(from, occ) & not_ours,
            kind::ROOK => t.rook.reach(from, occ) & not_ours,
            _ => (t.rook.reach(from, occ) | t.bishop.reach(from, occ)) & not_ours,
        }
    }

    /// Generates all legal moves into `sink`.
    pub(super) fn generate_into<S: MoveSink<1>>(&self, sink: &mut S) {
        let t = Self::t();
        let b = &self.board;
        let us = self.side;
        let them = us.flip();
        let occ = b.occupied();
        let ours = b.colour(us);
        let theirs = b.colour(them);
        let not_ours = t.geo.all().and_not(ours);
        let ksq = self.king_cell(us);

        // King steps: the destination must not be attacked once the King has left its cell.
        let mut occ_no_king = occ;
        occ_no_king.remove(ksq);
        let mut king_targets = t.king[ksq] & not_ours;
        for to in king_targets {
            if self.is_attacked(to, them, occ_no_king) {
                king_targets.remove(to);
            }
        }
        sink.set(ksq, king_targets);

        // Which other pieces need their moves tested one by one.
        let in_check = self.is_attacked(ksq, them, occ);
        let test_each = if in_check {
            ours
        } else {
            let rq = (b.kind(kind::ROOK) | b.kind(kind::QUEEN)) & theirs;
            let bq = (b.kind(kind::BISHOP) | b.kind(kind::QUEEN)) & theirs;
            let mut candidates = Bb::EMPTY;
            if rq.any() {
                candidates |= t.rook.reach(ksq, occ);
            }
            if bq.any() {
                candidates |= t.bishop.reach(ksq, occ);
            }
            let mut pinned = Bb::EMPTY;
            for c in candidates & ours {
                let mut lifted = occ;
                lifted.remove(c);
                if t.rook.reach(ksq, lifted).intersects(rq)
                    || t.bishop.reach(ksq, lifted).intersects(bq)
                {
                    pinned.insert(c);
                }
            }
            pinned
        };

        let promotion = t.pawn[us.idx()].promotion;
        let mut pieces = ours;
        pieces.remove(ksq);
        for from in pieces {
            let k = b.piece_at(from).kind();
            let mut targets = self.pseudo_targets(from, k, occ, not_ours, theirs);
            if test_each.contains(from) {
                for to in targets {
                    if !self.king_safe_after(from, to, ksq) {
                        targets.remove(to);
                    }
                }
            }
            if k == kind::PAWN {
                sink.promotions(from, targets & promotion, &PROMOTIONS);
                sink.set(from, targets.and_not(promotion));
            } else {
                sink.set(from, targets);
            }
        }
    }
}
