//! Legal move generation for chess and Pole Chess.
//!
//! Checks and pins are found once per position by looking outwards from the King along the
//! eight rays; every piece's pseudo-legal targets are then cut down to what keeps the King
//! safe, so no move is tried and taken back. Only King steps and en passant (which removes two
//! pieces from a line) test the resulting position directly.
//!
//! A Pole counts as a blocker on every line, so a Pole between the King and an enemy slider is
//! "pinned" exactly like a piece: it may only teleport to a square on the same line.
//!
//! Moves go to a [`MoveSink`]: a list for the search, or a counter for the last ply of
//! perft, which adds up target sets without writing a move.

use super::position::{ChessPosition, NO_EP};
use super::tables::{Bb, ORTHOGONAL, Tables, bishop_attacks, kind, rook_attacks};
use crate::rules::bitset::Cell;
use crate::rules::moves::{Move, MoveFlag};
use crate::rules::piece::{Colour, Kind};
use crate::rules::sink::{ListSink, MoveSink};

pub(super) const PROMOTIONS: [u8; 4] = [kind::QUEEN, kind::ROOK, kind::BISHOP, kind::KNIGHT];

/// Keeps only captures and promotions (for quiescence search): targets are cut down to enemy
/// pieces, every promotion is kept, en passant is kept, quiet special moves are dropped.
pub(super) struct TacticalSink<'a> {
    pub list: ListSink<'a>,
    pub enemies: Bb,
}

impl MoveSink<1> for TacticalSink<'_> {
    #[inline(always)]
    fn one(&mut self, m: Move) {
        if m.flag() == MoveFlag::EnPassant {
            MoveSink::<1>::one(&mut self.list, m);
        }
    }
    #[inline(always)]
    fn set(&mut self, from: Cell, targets: Bb) {
        self.list.set(from, targets & self.enemies);
    }
    #[inline(always)]
    fn promotions(&mut self, from: Cell, targets: Bb, kinds: &[Kind]) {
        self.list.promotions(from, targets, kinds);
    }
    #[inline(always)]
    fn drops(&mut self, _: Kind, _: Bb) {}
    #[inline(always)]
    fn shots(&mut self, _: Cell, _: Bb) {}
}

/// Checks and pins of the side to move.
struct KingSafety {
    checkers: Bb,
    /// Squares a non-King move must land on: everything when not in check; the checker and
    /// the squares between it and the King when in single check.
    evasion: Bb,
    /// Own pieces (and own Pole) that shield the King from an enemy slider.
    pinned: Bb,
    /// For each direction from the King, the squares up to and including the pinning slider.
    pin_lines: [Bb; 8],
}

impl KingSafety {
    /// The line a pinned piece on `from` must stay on.
    #[inline(always)]
    fn pin_line(&self, from: Cell) -> Bb {
        for line in self.pin_lines {
            if line.contains(from) {
                return line;
            }
        }
        Bb::EMPTY
    }

    /// Where a piece on `from` may go, as far as the King is concerned.
    #[inline(always)]
    fn allowed(&self, from: Cell) -> Bb {
        if self.pinned.contains(from) {
            self.evasion & self.pin_line(from)
        } else {
            self.evasion
        }
    }
}

impl ChessPosition {
    fn king_safety(&self, t: &Tables) -> KingSafety {
        let b = &self.board;
        let us = self.side;
        let them = us.flip();
        let ksq = self.king_square(us);
        let occ = b.occupied();
        let their = b.colour(them);
        let our = b.colour(us);
        let rq = (b.kind(kind::ROOK) | b.kind(kind::QUEEN)) & their;
        let bq = (b.kind(kind::BISHOP) | b.kind(kind::QUEEN)) & their;
        let mut s = KingSafety {
            checkers: (t.knight[ksq] & b.kind(kind::KNIGHT) & their)
                | (t.pawn_attacks[us.idx()][ksq] & b.kind(kind::PAWN) & their),
            evasion: Bb::EMPTY,
            pinned: Bb::EMPTY,
            pin_lines: [Bb::EMPTY; 8],
        };
        let mut slider_check_line = Bb::EMPTY;
        for d in 0..8 {
            let sliders = if d < ORTHOGONAL { rq } else { bq };
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
            // Own pieces and own Pole can be pinned; the enemy Pole just blocks.
            if !our.contains(b1) {
                continue;
            }
            let mut rest = blockers;
            rest.remove(b1);
            if let Some(b2) = t.geo.nearest(rest, d)
                && sliders.contains(b2)
            {
                s.pinned.insert(b1);
                s.pin_lines[d] = ray.and_not(t.geo.ray(b2, d));
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
    pub(super) fn generate_into<S: MoveSink<1>>(&self, sink: &mut S) {
        let t = Self::t();
        let b = &self.board;
        let us = self.side;
        let them = us.flip();
        let occ = b.occupied();
        let poles = self.poles();
        let our = b.colour(us);
        let our_pieces = our.and_not(poles);
        // Squares a piece may move to: empty or an enemy piece (never a Pole).
        let not_ours = t.geo.all().and_not(our | poles);
        let enemies = b.colour(them).and_not(poles);
        let ksq = self.king_square(us);
        let safety = self.king_safety(t);

        // King steps: the destination must not be attacked once the King has left its square.
        let mut king_targets = t.king[ksq] & not_ours;
        let mut occ_no_king = occ;
        occ_no_king.remove(ksq);
        for to in king_targets {
            if self.is_attacked(to, them, occ_no_king) {
                king_targets.remove(to);
            }
        }
        sink.set(ksq, king_targets);
        if safety.evasion.is_empty() {
            return; // double check: only the King moves
        }
        let evasion = safety.evasion;
        let pinned = safety.pinned;

        // Knights: a pinned Knight never moves.
        for from in (b.kind(kind::KNIGHT) & our_pieces).and_not(pinned) {
            sink.set(from, t.knight[from] & not_ours & evasion);
        }
        // Sliders.
        for from in b.kind(kind::BISHOP) & our_pieces {
            sink.set(
                from,
                bishop_attacks(t, from, occ) & not_ours & safety.allowed(from),
            );
        }
        for from in b.kind(kind::ROOK) & our_pieces {
            sink.set(
                from,
                rook_attacks(t, from, occ) & not_ours & safety.allowed(from),
            );
        }
        for from in b.kind(kind::QUEEN) & our_pieces {
            let att = rook_attacks(t, from, occ) | bishop_attacks(t, from, occ);
            sink.set(from, att & not_ours & safety.allowed(from));
        }
        self.pawn_moves(t, sink, &safety, enemies);

        if safety.checkers.is_empty() {
            self.castling_moves(sink, occ);
        }
        if self.state.pole_rules && self.state.poles_available {
            let empty = t.geo.all().and_not(occ);
            if self.state.hand[us.idx()] {
                sink.drops(kind::POLE, empty & evasion);
            }
            if let Some(p) = (poles & our).first() {
                sink.set(p, empty & safety.allowed(p));
            }
        }
    }

    fn pawn_moves<S: MoveSink<1>>(
        &self,
        t: &Tables,
        sink: &mut S,
        safety: &KingSafety,
        enemies: Bb,
    ) {
        let b = &self.board;
        let us = self.side;
        let occ = b.occupied();
        let (up, start_rank, last_rank): (isize, usize, usize) = if us == Colour::WHITE {
            (8, 1, 7)
        } else {
            (-8, 6, 0)
        };
        for from in b.pieces(kind::PAWN, us) {
            let allowed = safety.allowed(from);
            let one = (from as isize + up) as Cell;
            let mut quiet = Bb::EMPTY;
            if !occ.contains(one) {
                quiet.insert(one);
                if from / 8 == start_rank {
                    let two = (one as isize + up) as Cell;
                    if !occ.contains(two) && allowed.contains(two) {
                        sink.one(Move::with_flag(from, two, MoveFlag::DoubleStep));
                    }
                }
            }
            let targets = (quiet | (t.pawn_attacks[us.idx()][from] & enemies)) & allowed;
            if one / 8 == last_rank {
                sink.promotions(from, targets, &PROMOTIONS);
            } else {
                sink.set(from, targets);
            }
        }
        if self.state.ep != NO_EP {
            let to = self.state.ep as Cell;
            let victim = (to as isize - up) as Cell;
            for from in t.pawn_attacks[us.flip().idx()][to] & b.pieces(kind::PAWN, us) {
                if self.en_passant_is_safe(from, to, victim) {
                    sink.one(Move::with_flag(from, to, MoveFlag::EnPassant));
                }
            }
        }
    }

    /// Whether capturing en passant from `from` to `to` (removing the pawn on `victim`) leaves
    /// the mover's King unattacked. Tested on the resulting occupancy, because the capture
    /// empties two squares of one rank at once.
    pub(super) fn en_passant_is_safe(&self, from: Cell, to: Cell, victim: Cell) -> bool {
        let us = self.board.piece_at(from).colour();
        let mut occ = self.board.occupied();
        occ.remove(from);
        occ.remove(victim);
        occ.insert(to);
        let ksq = self.king_square(us);
        let mut attackers = self.attackers_to(ksq, us.flip(), occ);
        attackers.remove(victim);
        attackers.is_empty()
    }

    /// Castling, written as the King taking its own Rook: the right still held, the squares
    /// between King, Rook and their destinations empty, and no square the King crosses or
    /// lands on attacked, with the Rook already gone from the occupancy (in Chess960 it may
    /// shield the King's destination from a piece behind it). The caller has checked that
    /// the King is not in check.
    fn castling_moves<S: MoveSink<1>>(&self, sink: &mut S, occ: Bb) {
        let us = self.side;
        let them = us.flip();
        let first = if us == Colour::WHITE { 0 } else { 2 };
        let king = self.king_square(us);
        for i in first..first + 2 {
            if self.state.castling & (1 << i) == 0 || (occ & self.state.castle.empty[i]).any() {
                continue;
            }
            let rook = self.state.castle.rook[i] as Cell;
            let mut without_rook = occ;
            without_rook.remove(rook);
            if self.state.castle.king_path[i]
                .iter()
                .all(|s| !self.is_attacked(s, them, without_rook))
            {
                sink.one(Move::with_flag(king, rook, MoveFlag::Castle));
            }
        }
    }
}
