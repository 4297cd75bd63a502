//! Making and taking back moves in chess and Pole Chess, with the key kept incrementally.

use super::position::{ChessPosition, NO_EP, Undo, castled_squares};
use super::tables::{Z_CASTLING, Z_EP, Z_HAND, Z_POLES, kind};
use crate::rules::bitset::Cell;
use crate::rules::board::Board;
use crate::rules::clocks::{Clocks, NullMove, NullUndo};
use crate::rules::moves::{Move, MoveFlag};
use crate::rules::piece::{Colour, Piece};

impl ChessPosition {
    fn set_castling(&mut self, rights: u8) {
        if rights != self.castling {
            let z = &Self::t().zobrist;
            self.board.toggle_key(
                z.extra[Z_CASTLING + self.castling as usize]
                    ^ z.extra[Z_CASTLING + rights as usize],
            );
            self.castling = rights;
        }
    }

    /// Clears the en passant square (and its key).
    #[inline(always)]
    fn clear_ep(&mut self) {
        if self.ep != NO_EP {
            self.board
                .toggle_key(Self::t().zobrist.extra[Z_EP + (self.ep % 8) as usize]);
            self.ep = NO_EP;
        }
    }

    /// The first capture of the game makes Poles available (Pole Chess).
    #[inline(always)]
    fn note_capture(&mut self) {
        self.clocks.restart();
        if self.pole_rules && !self.poles_available {
            self.poles_available = true;
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
            self.ep = ep as u8;
            self.board.toggle_key(t.zobrist.extra[Z_EP + ep % 8]);
        }
    }

    pub(super) fn make_move(&mut self, mv: Move) {
        let t = Self::t();
        let z = &t.zobrist;
        let us = self.side;
        let them = us.flip();
        let (from, to) = (mv.from(), mv.to());
        let mut undo = Undo {
            mv,
            moved: if mv.flag() == MoveFlag::Drop {
                Piece::new(kind::POLE, us)
            } else {
                self.board.piece_at(from)
            },
            captured: Piece::NONE,
            castling: self.castling,
            ep: self.ep,
            poles_available: self.poles_available,
            clocks: self.clocks,
            key: self.board.key(),
        };
        self.clear_ep();
        self.clocks.tick();
        let mut ep_after = None;
        match mv.flag() {
            MoveFlag::Drop => {
                self.hand[us.idx()] = false;
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
                self.set_castling(self.castling & self.castle.keep[from] & self.castle.keep[to]);
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
                self.set_castling(self.castling & self.castle.keep[from]);
            }
            MoveFlag::Shot | MoveFlag::Pass => unreachable!("no such move in chess"),
        }
        self.side = them;
        self.board.toggle_key(z.side[us.idx()] ^ z.side[them.idx()]);
        self.clocks.after_two_colour_move(us);
        if let Some((ep, victim)) = ep_after {
            self.set_ep_if_capturable(ep, victim);
        }
        self.history.push(undo);
    }

    pub(super) fn unmake_move(&mut self) {
        let u = self.history.pop().expect("unmake without a move");
        let mv = u.mv;
        let us = self.side.flip();
        self.side = us;
        let (from, to) = (mv.from(), mv.to());
        match mv.flag() {
            MoveFlag::Drop => {
                self.board.remove(to);
                self.hand[us.idx()] = true;
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
        self.castling = u.castling;
        self.ep = u.ep;
        self.poles_available = u.poles_available;
        self.clocks = u.clocks;
        self.board.set_key(u.key);
    }
}

impl NullMove<1> for ChessPosition {
    fn null_parts(&mut self) -> (&mut Board<1>, &mut Colour, &mut Clocks, &mut Vec<NullUndo>) {
        (
            &mut self.board,
            &mut self.side,
            &mut self.clocks,
            &mut self.nulls,
        )
    }

    fn take_ep(&mut self) -> u16 {
        let ep = self.ep;
        self.clear_ep();
        ep as u16
    }

    fn put_back_ep(&mut self, ep: u16) {
        self.ep = ep as u8;
    }
}
