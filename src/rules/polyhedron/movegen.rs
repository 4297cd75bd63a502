//! Legal move generation for Polyhedron Chess.
//!
//! As in chess, checks and pins are found once per position by looking outwards from the King
//! along the 26 rays (orthogonal rays meet Queens, Rooks, Favourites and Dragons; diagonal rays
//! Queens, Bishops, Favourites and Archbishops; triagonal rays Queens, Unicorns, Dragons and
//! Archbishops) and by looking up the leapers and pawns that reach it. Every piece's targets
//! are then cut down to what keeps the King safe, so no move is tried and taken back. Only
//! King steps and en passant (which empties two cells, possibly on two levels) test the
//! resulting position directly.
//!
//! Moves go to a [`MoveSink`]: a list for the search, or a counter for the last ply of perft.

use super::position::{NO_EP, PolyhedronPosition};
use super::tables::{Bb, CLASS_DIRS, SLIDERS, Tables, class_attacks, kind};
use crate::rules::bitset::Cell;
use crate::rules::moves::{Move, MoveFlag};
use crate::rules::sink::{MoveSink, kinds_of_mask};

/// Checks and pins of the side to move.
pub(super) struct KingSafety {
    pub checkers: Bb,
    /// Cells a non-King move must land on: everything when not in check; the checker and the
    /// cells between it and the King when in single check; nothing in double check.
    pub evasion: Bb,
    /// Own pieces that shield the King from an enemy slider.
    pub pinned: Bb,
    /// The pinned pieces' lines (the cells up to and including the pinning slider), at most
    /// one per direction.
    pins: [(Cell, Bb); 26],
    pin_count: usize,
}

impl KingSafety {
    /// Where a piece on `from` may go, as far as the King is concerned.
    #[inline(always)]
    pub fn allowed(&self, from: Cell) -> Bb {
        if self.pinned.contains(from) {
            for &(cell, line) in &self.pins[..self.pin_count] {
                if cell == from {
                    return self.evasion & line;
                }
            }
        }
        self.evasion
    }
}

impl PolyhedronPosition {
    pub(super) fn king_safety(&self, t: &Tables) -> KingSafety {
        let b = &self.board;
        let us = self.side;
        let ksq = self.king_cell(us);
        let occ = b.occupied();
        let their = b.colour(us.flip());
        let our = b.colour(us);
        let sk = b.kind(kind::SPACE_KNIGHT);
        let mut s = KingSafety {
            checkers: ((t.knight[ksq] & (b.kind(kind::KNIGHT) | sk))
                | (t.hippogriff[ksq] & (b.kind(kind::HIPPOGRIFF) | sk))
                | (t.wyvern[ksq] & (b.kind(kind::WYVERN) | sk))
                | (t.gargoyle[ksq] & b.kind(kind::GARGOYLE))
                | (t.pawn_attacks[us.idx()][ksq] & b.kind(kind::PAWN)))
                & their,
            evasion: Bb::EMPTY,
            pinned: Bb::EMPTY,
            pins: [(0, Bb::EMPTY); 26],
            pin_count: 0,
        };
        let mut slider_check_line = Bb::EMPTY;
        for (class, dirs) in CLASS_DIRS.iter().enumerate() {
            let sliders = self.class_sliders(class) & their;
            if !t.class_lines[class][ksq].intersects(sliders) {
                continue;
            }
            for d in dirs.clone() {
                let ray = t.geo.ray(ksq, d);
                if !ray.intersects(sliders) {
                    continue;
                }
                let blockers = ray & occ;
                let Some(b1) = t.geo.nearest(blockers, d) else {
                    continue;
                };
                if sliders.contains(b1) {
                    s.checkers.insert(b1);
                    slider_check_line = ray.and_not(t.geo.ray(b1, d));
                    continue;
                }
                if !our.contains(b1) {
                    continue;
                }
                let mut rest = blockers;
                rest.remove(b1);
                if let Some(b2) = t.geo.nearest(rest, d)
                    && sliders.contains(b2)
                {
                    s.pinned.insert(b1);
                    s.pins[s.pin_count] = (b1, ray.and_not(t.geo.ray(b2, d)));
                    s.pin_count += 1;
                }
            }
        }
        s.evasion = match s.checkers.len() {
            0 => t.geo.all(),
            1 if slider_check_line.any() => slider_check_line,
            1 => s.checkers,
            _ => Bb::EMPTY,
        };
        s
    }

    /// Generates all legal moves into `sink`.
    pub(super) fn generate_into<S: MoveSink<5>>(&self, sink: &mut S) {
        let t = Self::t();
        let b = &self.board;
        let us = self.side;
        let them = us.flip();
        let occ = b.occupied();
        let our = b.colour(us);
        let their = b.colour(them);
        let not_ours = t.geo.all().and_not(our);
        let ksq = self.king_cell(us);
        let safety = self.king_safety(t);

        // King steps: the destination must not be attacked once the King has left its cell.
        let mut king_targets = t.king[ksq] & not_ours;
        let mut occ_no_king = occ;
        occ_no_king.remove(ksq);
        for to in king_targets {
            if self.is_attacked_by(to, them, their, occ_no_king) {
                king_targets.remove(to);
            }
        }
        sink.set(ksq, king_targets);
        if safety.evasion.is_empty() {
            return; // double check: only the King moves
        }

        // Leapers. A pinned leaper can still move if its leap stays on the pin line (a
        // Gargoyle's step or two-step leap along the line), so `allowed` covers all of them.
        for (k, table) in [
            (kind::KNIGHT, &t.knight),
            (kind::HIPPOGRIFF, &t.hippogriff),
            (kind::WYVERN, &t.wyvern),
            (kind::SPACE_KNIGHT, &t.space_knight),
            (kind::GARGOYLE, &t.gargoyle),
        ] {
            for from in b.pieces(k, us) {
                sink.set(from, table[from] & not_ours & safety.allowed(from));
            }
        }

        // Sliders.
        let (unicorn_kinds, unicorn_n) =
            kinds_of_mask(self.state.reserves[us.idx()].kinds() & !(1 << kind::UNICORN));
        let unicorn_promotions = &unicorn_kinds[..unicorn_n];
        for (k, classes) in SLIDERS {
            for from in b.pieces(k, us) {
                let mut att = Bb::EMPTY;
                for (class, &on) in classes.iter().enumerate() {
                    if on {
                        att |= class_attacks(t, class, from, occ);
                    }
                }
                let targets = att & not_ours & safety.allowed(from);
                sink.set(from, targets);
                if k == kind::UNICORN && !unicorn_promotions.is_empty() {
                    sink.promotions(from, targets & their, unicorn_promotions);
                }
            }
        }

        self.pawn_moves(t, sink, &safety);
    }

    fn pawn_moves<S: MoveSink<5>>(&self, t: &Tables, sink: &mut S, safety: &KingSafety) {
        let b = &self.board;
        let us = self.side;
        let occ = b.occupied();
        let enemies = b.colour(us.flip());
        let (kinds, n) = kinds_of_mask(self.state.reserves[us.idx()].kinds());
        let promotion_kinds = &kinds[..n];
        let zone = t.promotion_zone[us.idx()];
        let push = &t.pawn_push[us.idx()];
        for from in b.pieces(kind::PAWN, us) {
            let allowed = safety.allowed(from);
            let mut targets = t.pawn_attacks[us.idx()][from] & enemies;
            if let Some(one) = push[from]
                && !occ.contains(one)
            {
                targets.insert(one);
                if t.start_rank[us.idx()].contains(from)
                    && let Some(two) = push[one]
                    && !occ.contains(two)
                    && allowed.contains(two)
                {
                    sink.one(Move::with_flag(from, two, MoveFlag::DoubleStep));
                }
            }
            targets &= allowed;
            sink.set(from, targets.and_not(zone));
            if !promotion_kinds.is_empty() {
                sink.promotions(from, targets & zone, promotion_kinds);
            }
        }
        if self.state.ep != NO_EP {
            let to = self.state.ep as Cell;
            if let Some(victim) = t.pawn_push[us.flip().idx()][to] {
                for from in t.pawn_attacks[us.flip().idx()][to] & b.pieces(kind::PAWN, us) {
                    if self.en_passant_is_safe(from, to, victim) {
                        sink.one(Move::with_flag(from, to, MoveFlag::EnPassant));
                    }
                }
            }
        }
    }

    /// Whether capturing en passant from `from` to `to` (removing the pawn on `victim`) leaves
    /// the mover's King unattacked, tested on the resulting occupancy.
    pub(super) fn en_passant_is_safe(&self, from: Cell, to: Cell, victim: Cell) -> bool {
        let us = self.side;
        let mut occ = self.board.occupied();
        occ.remove(from);
        occ.remove(victim);
        occ.insert(to);
        let mut their = self.board.colour(us.flip());
        their.remove(victim);
        !self.is_attacked_by(self.king_cell(us), us.flip(), their, occ)
    }
}
