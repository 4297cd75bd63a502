//! Making and taking back moves in chess and Pole Chess, with the key kept incrementally.

use super::position::{ChessPosition, NO_EP, Undo, castled_squares};
use super::tables::{Z_CASTLING, Z_EP, Z_HAND, Z_POLES, kind};
use crate::rules::bitset::Cell;
use crate::rules::moves::{Move, MoveFlag};
use crate::rules::piece::{Colour, Piece};

impl ChessPosition {
    fn set_castling(&mut self, rights: u8) {
        if rights != self.state.castling {
            let z = &Self::t().zobrist;
            self.board.toggle_key(
                z.extra[Z_CASTLING + self.state.castling as usize]
                    ^ z.extra[Z_CASTLING + rights as usize],
            );
            self.state.castling = rights;
        }
    }

    /// Clears the en passant square (and its key).
    #[inline(always)]
    fn clear_ep(&mut self) {
        if self.state.ep != NO_EP {
            self.board
                .toggle_key(Self::t().zobrist.extra[Z_EP + (self.state.ep % 8) as usize]);
            self.state.ep = NO_EP;
        }
    }

    /// The first capture of the game makes Poles available (Pole Chess).
    #[inline(always)]
    fn note_capture(&mut self) {
        self.clocks.restart();
        if self.state.pole_rules && !self.state.poles_available {
            self.state.poles_available = true;
            self.board.toggle_key(Self::t().zobrist.extra[Z_POLES]);
        }
    }

    /// Sets the en passant square after a double step to `ep` if the side now to move has a
    /// legal en passant capture (so that positions repeat as the rules file says).
    fn set_ep_if_capturable(&mut self, ep: Cell, victim: Cell) {
        let t = Self::t();
        let capturer = self.side;
        let pawns =
            t.pawn_attacks[capturer.flip().idx()][ep] & self.board.pieces(kind::PAWN, capturer);
        if pawns
            .iter()
            .any(|from| self.en_passant_is_safe(from, ep, victim))
        {
            self.state.ep = ep as u8;
            self.board.toggle_key(t.zobrist.extra[Z_EP + ep % 8]);
        }
    }

    #[inline(always)]
    pub(super) fn play(&mut self, mv: Move) -> Undo {
        let t = Self::t();
        let z = &t.zobrist;
        let us = self.side;
        let (from, to) = (mv.from(), mv.to());
        let mut undo = Undo {
            captured: Piece::NONE,
            castling: self.state.castling,
            ep: self.state.ep,
            poles_available: self.state.poles_available,
        };
        self.clear_ep();
        self.clocks.tick();
        let mut ep_after = None;
        match mv.flag() {
            MoveFlag::Drop => {
                self.state.hand[us.idx()] = false;
                self.board.toggle_key(z.extra[Z_HAND + us.idx()]);
                self.board.put(to, Piece::new(kind::POLE, us));
            }
            MoveFlag::Normal => {
                let piece = self.board.piece_at(from);
                let captured = self.board.piece_at(to);
                if captured.is_some() {
                    self.board.remove(to);
                    undo.captured = captured;
                    self.note_capture();
                }
                self.board.relocate(from, to);
                if piece.kind() == kind::PAWN {
                    self.clocks.restart();
                    if let Some(k) = mv.promotion() {
                        self.board.remove(to);
                        self.board.put(to, Piece::new(k, us));
                    }
                }
                self.set_castling(
                    self.state.castling & self.state.castle.keep[from] & self.state.castle.keep[to],
                );
            }
            MoveFlag::DoubleStep => {
                self.board.relocate(from, to);
                self.clocks.restart();
                ep_after = Some(((from + to) / 2, to));
            }
            MoveFlag::EnPassant => {
                let victim = if us == Colour::WHITE { to - 8 } else { to + 8 };
                undo.captured = self.board.remove(victim);
                self.board.relocate(from, to);
                self.note_capture();
            }
            MoveFlag::Castle => {
                // Written as the King taking its own Rook; either may land where the other
                // stood (Chess960), so both leave before either arrives.
                let (king_to, rook_to) = castled_squares(from, to);
                let king = self.board.remove(from);
                let rook = self.board.remove(to);
                self.board.put(king_to, king);
                self.board.put(rook_to, rook);
                self.set_castling(self.state.castling & self.state.castle.keep[from]);
            }
            MoveFlag::Shot | MoveFlag::Pass => unreachable!("no such move in chess"),
        }
        self.hand_over(us.flip());
        if let Some((ep, victim)) = ep_after {
            self.set_ep_if_capturable(ep, victim);
        }
        undo
    }

    #[inline(always)]
    pub(super) fn take_back(&mut self, mv: Move, u: &Undo) {
        let us = self.side;
        let (from, to) = (mv.from(), mv.to());
        match mv.flag() {
            MoveFlag::Drop => {
                self.board.remove(to);
                self.state.hand[us.idx()] = true;
            }
            MoveFlag::Normal => {
                if mv.promotion().is_some() {
                    self.board.remove(to);
                    self.board.put(to, Piece::new(kind::PAWN, us));
                }
                self.board.relocate(to, from);
                if u.captured.is_some() {
                    self.board.put(to, u.captured);
                }
            }
            MoveFlag::DoubleStep => self.board.relocate(to, from),
            MoveFlag::EnPassant => {
                self.board.relocate(to, from);
                let victim = if us == Colour::WHITE { to - 8 } else { to + 8 };
                self.board.put(victim, u.captured);
            }
            MoveFlag::Castle => {
                let (king_to, rook_to) = castled_squares(from, to);
                let king = self.board.remove(king_to);
                let rook = self.board.remove(rook_to);
                self.board.put(from, king);
                self.board.put(to, rook);
            }
            MoveFlag::Shot | MoveFlag::Pass => unreachable!("no such move in chess"),
        }
        self.state.castling = u.castling;
        self.state.ep = u.ep;
        self.state.poles_available = u.poles_available;
    }

    /// Clears the en passant square for a null move and returns it.
    #[inline(always)]
    pub(super) fn take_ep(&mut self) -> u16 {
        let ep = self.state.ep;
        self.clear_ep();
        ep as u16
    }
}
