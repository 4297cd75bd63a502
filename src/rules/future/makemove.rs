//! Making and taking back moves, with the key kept incrementally.
//!
//! After the pieces have moved, a move's consequences are settled in rule order: a captured
//! King eliminates its colour, castling rights touched by the move are lost, the mover is
//! unlocked if four of its pieces now stand on its gate level, and the turn passes to the next
//! colour that is not eliminated (which gets an en passant right only if it can use it).

use super::position::{EnPassant, FuturePosition, Undo};
use super::tables::{Z_CASTLING, Z_ELIMINATED, Z_EP, Z_UNLOCKED, kind};
use crate::rules::bitset::Cell;
use crate::rules::moves::{Move, MoveFlag};
use crate::rules::piece::Piece;

impl FuturePosition {
    fn set_castling(&mut self, rights: u8) {
        let z = &Self::t().zobrist;
        let mut changed = rights ^ self.state.castling;
        while changed != 0 {
            let bit = changed.trailing_zeros() as usize;
            self.board.toggle_key(z.extra[Z_CASTLING + bit]);
            changed &= changed - 1;
        }
        self.state.castling = rights;
    }

    #[inline(always)]
    pub(super) fn play(&mut self, mv: Move) -> Undo {
        let moved = match mv.flag() {
            MoveFlag::Pass => Piece::NONE,
            _ => self.board.piece_at(mv.from()),
        };
        let mut undo = Undo {
            moved,
            captured: Piece::NONE,
            castling: self.state.castling,
            ep: self.state.ep,
            unlocked: self.state.unlocked,
            eliminated: self.state.eliminated,
        };
        if let Some(ep) = self.state.ep.take() {
            self.board
                .toggle_key(Self::t().zobrist.extra[Z_EP + ep.cell]);
        }
        self.clocks.tick();
        let (crowned, ep_after) = self.move_pieces(mv, &mut undo);
        let irreversible = self.settle(mv, &undo) || crowned;
        if irreversible {
            self.clocks.reversible = 0;
        }
        self.pass_turn(ep_after);
        undo
    }

    /// Moves the pieces of `mv` (the capture recorded in `undo`). Returns whether a Knight was
    /// crowned, and for a double step the cell passed over and the pawn's cell.
    #[inline(always)]
    fn move_pieces(&mut self, mv: Move, undo: &mut Undo) -> (bool, Option<(Cell, Cell)>) {
        let t = Self::t();
        let us = self.side;
        let (from, to) = (mv.from(), mv.to());
        match mv.flag() {
            MoveFlag::Pass => {}
            MoveFlag::Castle => {
                let side = usize::from(t.castling[us.idx()][0].king_to != to);
                let cs = t.castling[us.idx()][side];
                self.board.relocate(from, to);
                self.board.relocate(cs.rook_from, cs.rook_to);
            }
            MoveFlag::EnPassant => {
                let victim = undo.ep.map(|e| e.victim).unwrap_or(to);
                undo.captured = self.board.remove(victim);
                self.board.relocate(from, to);
                if let Some(k) = mv.promotion() {
                    self.board.remove(to);
                    self.board.put(to, Piece::new(k, us));
                }
            }
            MoveFlag::DoubleStep => {
                self.board.relocate(from, to);
                let passed = (to as isize - t.forward_offset[us.idx()]) as usize;
                return (false, Some((passed, to)));
            }
            _ => {
                let captured = self.board.piece_at(to);
                if captured.is_some() {
                    self.board.remove(to);
                    undo.captured = captured;
                }
                self.board.relocate(from, to);
                if let Some(k) = mv.promotion() {
                    self.board.remove(to);
                    self.board.put(to, Piece::new(k, us));
                } else if undo.moved.kind() == kind::KNIGHT && t.far_edge[us.idx()].contains(to) {
                    self.board.remove(to);
                    self.board.put(to, Piece::new(kind::CROWNED, us));
                    return (true, None);
                }
            }
        }
        (false, None)
    }

    /// The consequences of a move in rule order: the clocks after a pawn move or a capture,
    /// a captured King's colour eliminated, castling rights touched by the move lost, the
    /// mover unlocked once four of its pieces stand on its gate level. Returns whether any of
    /// them makes the move irreversible.
    #[inline(always)]
    fn settle(&mut self, mv: Move, undo: &Undo) -> bool {
        let t = Self::t();
        let z = &t.zobrist;
        let us = self.side;
        let (from, to) = (mv.from(), mv.to());
        let moved = undo.moved;
        let mut irreversible = false;
        if moved.is_some() && moved.kind() == kind::PAWN {
            self.clocks.halfmove = 0;
            // A straight vertical step can be undone by the opposite step; nothing else a pawn
            // does can.
            if to % 64 != from % 64 {
                irreversible = true;
            }
        }
        if undo.captured.is_some() {
            self.clocks.halfmove = 0;
            irreversible = true;
            if undo.captured.kind() == kind::KING {
                let c = undo.captured.colour();
                self.state.eliminated |= 1 << c.0;
                self.board.toggle_key(z.extra[Z_ELIMINATED + c.idx()]);
            }
        }
        if moved.is_some() {
            let rights = self.state.castling & t.castle_keep[from] & t.castle_keep[to];
            if rights != self.state.castling {
                self.set_castling(rights);
                irreversible = true;
            }
        }
        if !self.is_unlocked(us) && (self.board.colour(us) & t.gate[us.idx()]).len() >= 4 {
            self.state.unlocked |= 1 << us.0;
            self.board.toggle_key(z.extra[Z_UNLOCKED + us.idx()]);
            irreversible = true;
        }
        irreversible
    }

    /// The turn passes to the next colour that is not eliminated (a new round when it comes
    /// back round), which gets an en passant right after a double step only if it can use it.
    #[inline(always)]
    fn pass_turn(&mut self, ep_after: Option<(Cell, Cell)>) {
        let next = self.next_colour(self.side);
        self.hand_over(next);
        if let Some((cell, victim)) = ep_after
            && let Some(ep) = self.ep_right_for(next, cell, victim)
        {
            self.set_ep(ep);
        }
    }

    fn set_ep(&mut self, ep: EnPassant) {
        self.state.ep = Some(ep);
        self.board
            .toggle_key(Self::t().zobrist.extra[Z_EP + ep.cell]);
    }

    #[inline(always)]
    pub(super) fn take_back(&mut self, mv: Move, u: &Undo) {
        let t = Self::t();
        let us = self.side;
        let (from, to) = (mv.from(), mv.to());
        match mv.flag() {
            MoveFlag::Pass => {}
            MoveFlag::Castle => {
                let side = usize::from(t.castling[us.idx()][0].king_to != to);
                let cs = t.castling[us.idx()][side];
                self.board.relocate(to, from);
                self.board.relocate(cs.rook_to, cs.rook_from);
            }
            MoveFlag::EnPassant => {
                self.board.remove(to);
                self.board.put(from, u.moved);
                if let Some(ep) = u.ep {
                    self.board.put(ep.victim, u.captured);
                }
            }
            _ => {
                self.board.remove(to);
                self.board.put(from, u.moved);
                if u.captured.is_some() {
                    self.board.put(to, u.captured);
                }
            }
        }
        self.state.castling = u.castling;
        self.state.ep = u.ep;
        self.state.unlocked = u.unlocked;
        self.state.eliminated = u.eliminated;
    }

    /// Passes the turn to the next colour that is not eliminated (for null-move pruning):
    /// the pass move, except that repetition detection does not look back through it.
    pub(super) fn make_null_pass(&mut self) {
        self.make_move(Move::PASS);
        self.clocks.reversible = 0;
    }
}
