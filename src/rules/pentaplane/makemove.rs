//! Making and taking back moves in Pentaplane V, explosions included.
//!
//! A move is applied in the rules file's order: first its ordinary effects (the mover leaves
//! its cell, a pawn on its promotion row becomes a True Queen, the captured or shot piece is
//! removed, the mover lands unless it is a capturing Kamikaze Queen), then, if a Bomb captured,
//! was captured or was shot, the explosion: the set of ignited Bombs is closed under "stands in
//! the blast cube of an ignited cell" on that board, and every piece in the union of their
//! cubes is removed. The removed pieces go on the position's `blasted` stack, and unmake puts
//! them back before undoing the ordinary effects in reverse order, so make/unmake is exact
//! however long the chain is.

use super::position::{PentaplanePosition, Undo};
use super::tables::kind;
use crate::rules::bitset::Cell;
use crate::rules::moves::{Move, MoveFlag};
use crate::rules::piece::Piece;

impl PentaplanePosition {
    /// Removes every piece in the explosion centred on `centre` (chains included) and returns
    /// how many were removed.
    fn explode(&mut self, centre: Cell) -> u8 {
        let area = self.explosion_area(centre) & self.board.occupied();
        let mut n = 0;
        for cell in area {
            let p = self.board.remove(cell);
            self.state.blasted.push((cell as u8, p));
            n += 1;
        }
        n
    }

    #[inline(always)]
    pub(super) fn play(&mut self, mv: Move) -> Undo {
        let us = self.side;
        let (from, to) = (mv.from(), mv.to());
        let mut undo = Undo {
            moved: Piece::NONE,
            captured: Piece::NONE,
            blasted: 0,
        };
        let mut centre = None;
        if mv.flag() == MoveFlag::Shot {
            let hit = self.board.remove(to);
            undo.captured = hit;
            if hit.kind() == kind::BOMB {
                centre = Some(to);
            }
        } else {
            let piece = self.board.remove(from);
            undo.moved = piece;
            let captured = self.board.piece_at(to);
            if captured.is_some() {
                self.board.remove(to);
                undo.captured = captured;
                if piece.kind() == kind::BOMB || captured.kind() == kind::BOMB {
                    centre = Some(to);
                }
            }
            if !(piece.kind() == kind::KAMIKAZE && captured.is_some()) {
                let lands = if mv.promotion().is_some() {
                    Piece::new(kind::QUEEN, us)
                } else {
                    piece
                };
                self.board.put(to, lands);
            }
        }
        if let Some(c) = centre {
            undo.blasted = self.explode(c);
        }
        let removed = undo.captured.is_some();
        self.clocks.tick();
        if removed || undo.moved.kind() == kind::PAWN {
            self.clocks.halfmove = 0;
        }
        if removed || mv.promotion().is_some() {
            self.clocks.reversible = 0;
        }
        self.hand_over(us.flip());
        undo
    }

    #[inline(always)]
    pub(super) fn take_back(&mut self, mv: Move, u: &Undo) {
        for _ in 0..u.blasted {
            let (cell, p) = self
                .state
                .blasted
                .pop()
                .expect("explosion stack matches the history");
            self.board.put(cell as Cell, p);
        }
        let (from, to) = (mv.from(), mv.to());
        if mv.flag() == MoveFlag::Shot {
            self.board.put(to, u.captured);
        } else {
            if !(u.moved.kind() == kind::KAMIKAZE && u.captured.is_some()) {
                self.board.remove(to);
            }
            if u.captured.is_some() {
                self.board.put(to, u.captured);
            }
            self.board.put(from, u.moved);
        }
    }
}
