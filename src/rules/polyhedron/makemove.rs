//! Making and taking back moves, with the key (placement, side, reserves, en passant cell)
//! kept incrementally.

use super::position::{NO_EP, PolyhedronPosition, Undo};
use super::tables::{Z_EP, kind, reserve_key};
use crate::rules::moves::{Move, MoveFlag};
use crate::rules::piece::{Colour, Piece};

impl PolyhedronPosition {
    /// Clears the en passant cell (and its key).
    #[inline(always)]
    fn clear_ep(&mut self) {
        if self.state.ep != NO_EP {
            let z = &Self::t().zobrist;
            self.board
                .toggle_key(z.extra[Z_EP + self.state.ep as usize]);
            self.state.ep = NO_EP;
        }
    }

    /// A captured piece (never a pawn or King) enters its owner's reserve.
    #[inline(always)]
    fn put_in_reserve(&mut self, piece: Piece) {
        if piece.kind() == kind::PAWN {
            return;
        }
        let c = piece.colour();
        let n = self.state.reserves[c.idx()].add(piece.kind());
        self.board
            .toggle_key(reserve_key(Self::t(), c, piece.kind(), n));
    }

    /// `colour` takes one `k` out of its reserve (a promotion).
    #[inline(always)]
    fn take_from_reserve(&mut self, colour: Colour, k: u8) {
        let n = self.state.reserves[colour.idx()].take(k);
        self.board.toggle_key(reserve_key(Self::t(), colour, k, n));
    }

    #[inline(always)]
    pub(super) fn play(&mut self, mv: Move) -> Undo {
        let t = Self::t();
        let z = &t.zobrist;
        let us = self.side;
        let them = us.flip();
        let (from, to) = (mv.from(), mv.to());
        let moved = self.board.piece_at(from);
        let mut undo = Undo {
            moved,
            captured: Piece::NONE,
            ep: self.state.ep,
        };
        self.clear_ep();
        self.clocks.tick();
        match mv.flag() {
            MoveFlag::DoubleStep => {
                self.board.relocate(from, to);
                self.clocks.restart();
                // Cells of one level are numbered rank by rank, so the cell passed over is
                // the midpoint.
                let ep = (from + to) / 2;
                self.state.ep = ep as u16;
                self.board.toggle_key(z.extra[Z_EP + ep]);
            }
            MoveFlag::EnPassant => {
                let victim = t.pawn_push[them.idx()][to].expect("en passant victim exists");
                undo.captured = self.board.remove(victim);
                self.board.relocate(from, to);
                self.clocks.restart();
            }
            _ => {
                let captured = self.board.piece_at(to);
                if captured.is_some() {
                    self.board.remove(to);
                    undo.captured = captured;
                    self.put_in_reserve(captured);
                    self.clocks.restart();
                }
                self.board.relocate(from, to);
                if moved.kind() == kind::PAWN {
                    self.clocks.restart();
                }
                if let Some(k) = mv.promotion() {
                    self.board.remove(to);
                    self.board.put(to, Piece::new(k, us));
                    self.take_from_reserve(us, k);
                }
            }
        }
        self.hand_over(them);
        undo
    }

    #[inline(always)]
    pub(super) fn take_back(&mut self, mv: Move, u: &Undo) {
        let us = self.side;
        let them = us.flip();
        let (from, to) = (mv.from(), mv.to());
        match mv.flag() {
            MoveFlag::DoubleStep => self.board.relocate(to, from),
            MoveFlag::EnPassant => {
                self.board.relocate(to, from);
                let victim = Self::t().pawn_push[them.idx()][to].expect("victim exists");
                self.board.put(victim, u.captured);
            }
            _ => {
                if let Some(k) = mv.promotion() {
                    self.board.remove(to);
                    self.board.put(to, u.moved);
                    self.state.reserves[us.idx()].add(k);
                }
                self.board.relocate(to, from);
                if u.captured.is_some() {
                    self.board.put(to, u.captured);
                    if u.captured.kind() != kind::PAWN {
                        self.state.reserves[them.idx()].take(u.captured.kind());
                    }
                }
            }
        }
        self.state.ep = u.ep;
    }

    /// Clears the en passant cell for a null move and returns it.
    #[inline(always)]
    pub(super) fn take_ep(&mut self) -> u16 {
        let ep = self.state.ep;
        self.clear_ep();
        ep
    }
}
