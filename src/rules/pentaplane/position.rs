//! The Pentaplane V position: its own state beside the core, and the read API the evaluation
//! uses.

use super::tables::{
    ALL_DIRS, BISHOP_DIRS, Bb, CUBE_DIRS, ROOK_BISHOP_DIRS, ROOK_DIRS, TABLES, Tables, kind, shots,
    slides,
};
use crate::rules::bitset::Cell;
use crate::rules::geometry::Geometry;
use crate::rules::piece::{Colour, Piece};
use crate::rules::position::Position;

/// What taking back a Pentaplane move needs beyond the core's record. The pieces an
/// explosion removed are not stored here but on the `blasted` stack of the position's state
/// (`blasted` of them per move), so the record stays small however long the chain was.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    /// The piece that moved (for a shot: none).
    pub(super) moved: Piece,
    /// The piece captured on, or hit at, the destination.
    pub(super) captured: Piece,
    /// How many pieces the explosion removed (entries on the `blasted` stack).
    pub(super) blasted: u8,
}

/// Pentaplane V's own state: only the pieces removed by explosions, kept for unmake. The
/// game state is the placement, the side to move and the clocks: the 100-ply clock of the
/// rules file (reset by removals and by pawn moves), the move number, and the plies since
/// the last move that removed a piece or promoted a pawn (pawns may step back, so their moves
/// alone can be undone).
#[derive(Clone, Debug, Default)]
pub struct Pentaplane {
    /// (cell, piece) of every piece removed by explosions, for unmake.
    pub(super) blasted: Vec<(u8, Piece)>,
}

impl PartialEq for Pentaplane {
    /// The stack of removed pieces is history, not game state.
    fn eq(&self, _other: &Self) -> bool {
        true
    }
}

/// A position of Pentaplane V.
pub type PentaplanePosition = Position<Pentaplane, 2>;

impl PentaplanePosition {
    /// The shared tables.
    #[inline(always)]
    pub(super) fn t() -> &'static Tables {
        &TABLES
    }

    /// The board geometry: cell numbering, names, coordinates and rays (directions 0..6 are
    /// the rook directions, 6..18 the bishop directions, 18..26 the cube directions).
    pub fn geometry() -> &'static Geometry<2> {
        &TABLES.geo
    }

    /// The cell of `colour`'s King, or `None` once it has been captured or blown up.
    #[inline(always)]
    pub fn king_cell(&self, colour: Colour) -> Option<Cell> {
        self.board.pieces(kind::KING, colour).first()
    }

    /// Whether both Kings are still on the board (otherwise the game is decided).
    #[inline(always)]
    pub fn both_kings_present(&self) -> bool {
        self.board.pieces(kind::KING, Colour::WHITE).any()
            && self.board.pieces(kind::KING, Colour::BLACK).any()
    }

    /// The cells the piece on `cell` may move to by an ordinary move (empty cells and enemy
    /// pieces), whoever is to move; empty for an empty cell. Shots are in
    /// [`PentaplanePosition::shot_targets`].
    pub fn move_targets(&self, cell: Cell) -> Bb {
        let piece = self.board.piece_at(cell);
        if piece.is_none() {
            return Bb::EMPTY;
        }
        let t = Self::t();
        let occ = self.board.occupied();
        let own = self.board.colour(piece.colour());
        let enemies = self.board.colour(piece.colour().flip());
        let reach = match piece.kind() {
            kind::PAWN => {
                return t.rook_step[cell].and_not(occ) | (t.bishop_step[cell] & enemies);
            }
            kind::KNIGHT => t.knight[cell],
            kind::BISHOP => slides(t, cell, occ, BISHOP_DIRS),
            kind::ROOK => slides(t, cell, occ, ROOK_DIRS),
            kind::CUBER => slides(t, cell, occ, CUBE_DIRS),
            kind::QUEEN => slides(t, cell, occ, ALL_DIRS),
            kind::KING => t.king[cell],
            kind::FORTRESS | kind::BOMB => t.rook_step[cell],
            kind::MISSILE_BISHOP => t.bishop_step[cell],
            kind::SATELLITE => t.cube_step[cell],
            _ => slides(t, cell, occ, ROOK_BISHOP_DIRS),
        };
        reach.and_not(own)
    }

    /// The cells the missile piece on `cell` can shoot at (the first piece on each of its
    /// lines, if it is an enemy piece or a Bomb of either colour); empty for other pieces.
    pub fn shot_targets(&self, cell: Cell) -> Bb {
        let piece = self.board.piece_at(cell);
        if piece.is_none() {
            return Bb::EMPTY;
        }
        let dirs = match piece.kind() {
            kind::FORTRESS => ROOK_DIRS,
            kind::MISSILE_BISHOP => BISHOP_DIRS,
            kind::SATELLITE => CUBE_DIRS,
            _ => return Bb::EMPTY,
        };
        let hittable = self.board.colour(piece.colour().flip()) | self.board.kind(kind::BOMB);
        shots(Self::t(), cell, self.board.occupied(), hittable, dirs)
    }

    /// The cells an explosion centred on `centre` would clear on the current board: the
    /// blast cube of `centre` and of every Bomb it ignites, directly or through a chain.
    /// (A Bomb standing on `centre` itself is treated as the one that explodes.)
    pub fn explosion_area(&self, centre: Cell) -> Bb {
        let t = Self::t();
        let bombs = self.board.kind(kind::BOMB);
        let mut centres = Bb::from_cell(centre);
        let mut area = t.blast[centre];
        loop {
            let new = (area & bombs).and_not(centres);
            if new.is_empty() {
                return area;
            }
            for b in new {
                centres.insert(b);
                area |= t.blast[b];
            }
        }
    }

    /// Cells of the board (for loops in FEN and drawing).
    pub(super) fn cell_at(x: usize, y: usize, z: usize) -> Cell {
        (z * 5 + y) * 5 + x
    }

    /// Internal consistency, see [`crate::rules::Game::check_invariants`].
    pub(super) fn invariants(&self) -> Result<(), String> {
        let t = Self::t();
        for c in [Colour::WHITE, Colour::BLACK] {
            if self.board.pieces(kind::KING, c).len() > 1 {
                return Err(format!("{} has more than one King", c.name()));
            }
            if (self.board.pieces(kind::PAWN, c) & t.promotion[c.idx()]).any() {
                return Err(format!("a {} pawn stands on its promotion row", c.name()));
            }
        }
        let kinds_used: u32 = (0..kind::COUNT as u8)
            .map(|k| self.board.kind(k).len())
            .sum();
        if kinds_used != self.board.occupied().len() {
            return Err("a piece of an unknown kind is on the board".into());
        }
        if (self.board.colour(Colour(2)) | self.board.colour(Colour(3))).any() {
            return Err("a piece of a third or fourth colour is on the board".into());
        }
        let removed: usize = self.history.iter().map(|r| r.extra.blasted as usize).sum();
        if removed != self.state.blasted.len() {
            return Err(format!(
                "the explosion stack holds {} pieces, the history accounts for {removed}",
                self.state.blasted.len()
            ));
        }
        Ok(())
    }
}
