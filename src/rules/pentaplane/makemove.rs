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
            self.blasted.push((cell as u8, p));
            n += 1;
        }
        n
    }

    pub(super) fn make_move(&mut self, mv: Move) {
        let z = &Self::t().zobrist;
        let us = self.side;
        let them = us.flip();
        let (from, to) = (mv.from(), mv.to());
        let mut undo = Undo {
            mv,
            moved: Piece::NONE,
            captured: Piece::NONE,
            blasted: 0,
            clocks: self.clocks,
            key: self.board.key(),
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
        self.side = them;
        self.board.toggle_key(z.side[us.idx()] ^ z.side[them.idx()]);
        self.clocks.after_two_colour_move(us);
        self.history.push(undo);
    }

    pub(super) fn unmake_move(&mut self) {
        let u = self.history.pop().expect("unmake without a move");
        let us = self.side.flip();
        self.side = us;
        for _ in 0..u.blasted {
            let (cell, p) = self
                .blasted
                .pop()
                .expect("explosion stack matches the history");
            self.board.put(cell as Cell, p);
        }
        let (from, to) = (u.mv.from(), u.mv.to());
        if u.mv.flag() == MoveFlag::Shot {
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
        self.clocks = u.clocks;
        self.board.set_key(u.key);
    }
}
