//! The Pentaplane V position: placement, clocks, history, and the read API the evaluation uses.

use super::tables::{
    ALL_DIRS, BISHOP_DIRS, Bb, CELLS, CUBE_DIRS, ROOK_BISHOP_DIRS, ROOK_DIRS, TABLES, Tables, kind,
    shots, slides,
};
use crate::rules::bitset::Cell;
use crate::rules::board::Board;
use crate::rules::clocks::{Clocks, NullMove, NullUndo};
use crate::rules::geometry::Geometry;
use crate::rules::moves::Move;
use crate::rules::piece::{Colour, Piece};

/// What [`PentaplanePosition`] needs to take a move back. The pieces an explosion removed are
/// not stored here but on the position's `blasted` stack (`blasted` of them per move), so the
/// record stays small however long the chain was.
#[derive(Clone, Copy, Debug)]
pub(super) struct Undo {
    pub mv: Move,
    /// The piece that moved (for a shot: none).
    pub moved: Piece,
    /// The piece captured on, or hit at, the destination.
    pub captured: Piece,
    /// How many pieces the explosion removed (entries on the `blasted` stack).
    pub blasted: u8,
    pub clocks: Clocks,
    pub key: u64,
}

/// A position of Pentaplane V.
#[derive(Clone)]
pub struct PentaplanePosition {
    pub(super) board: Board<2>,
    pub(super) side: Colour,
    /// The 100-ply clock of the rules file (reset by removals and by pawn moves), the move
    /// number, and the plies since the last move that removed a piece or promoted a pawn
    /// (pawns may step back, so their moves alone can be undone).
    pub(super) clocks: Clocks,
    pub(super) history: Vec<Undo>,
    pub(super) nulls: Vec<NullUndo>,
    /// (cell, piece) of every piece removed by explosions, for unmake.
    pub(super) blasted: Vec<(u8, Piece)>,
}

impl PartialEq for PentaplanePosition {
    /// Equal game state: placement, side to move and clocks (history is not compared).
    fn eq(&self, other: &Self) -> bool {
        self.board == other.board && self.side == other.side && self.clocks == other.clocks
    }
}

impl std::fmt::Debug for PentaplanePosition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PentaplanePosition({})", self.to_fen())
    }
}

impl PentaplanePosition {
    /// The shared tables.
    #[inline(always)]
    pub(super) fn t() -> &'static Tables {
        &TABLES
    }

    /// An empty board with White to move.
    pub(super) fn empty() -> Self {
        PentaplanePosition {
            board: Board::new(&TABLES.zobrist),
            side: Colour::WHITE,
            clocks: Clocks::default(),
            history: Vec::new(),
            nulls: Vec::new(),
            blasted: Vec::new(),
        }
    }

    /// The placement.
    pub fn board(&self) -> &Board<2> {
        &self.board
    }

    /// The placement, to change by hand (an editor): the caller is to check the result
    /// through the FEN reader ([`AnyGame::with_placement`](crate::rules::AnyGame::with_placement)).
    pub(crate) fn board_mut(&mut self) -> &mut Board<2> {
        &mut self.board
    }

    /// The board geometry: cell numbering, names, coordinates and rays (directions 0..6 are
    /// the rook directions, 6..18 the bishop directions, 18..26 the cube directions).
    pub fn geometry() -> &'static Geometry<2> {
        &TABLES.geo
    }

    /// The 100-ply clock (plies since the last removal or pawn move).
    pub fn halfmove_clock(&self) -> u32 {
        self.clocks.halfmove
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

    /// The Zobrist key recomputed from scratch (for invariant checks).
    pub(super) fn key_from_scratch(&self) -> u64 {
        self.board.placement_key_from_scratch() ^ Self::t().zobrist.side[self.side.idx()]
    }

    /// Cells of the board (for loops in FEN and drawing).
    pub(super) fn cell_at(x: usize, y: usize, z: usize) -> Cell {
        (z * 5 + y) * 5 + x
    }

    /// Internal consistency, see [`crate::rules::Game::check_invariants`].
    pub(super) fn invariants(&self) -> Result<(), String> {
        self.board.check(CELLS, self.key_from_scratch())?;
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
        let removed: usize = self.history.iter().map(|u| u.blasted as usize).sum();
        if removed != self.blasted.len() {
            return Err(format!(
                "the explosion stack holds {} pieces, the history accounts for {removed}",
                self.blasted.len()
            ));
        }
        Ok(())
    }
}

impl NullMove<2> for PentaplanePosition {
    fn null_parts(&mut self) -> (&mut Board<2>, &mut Colour, &mut Clocks, &mut Vec<NullUndo>) {
        (
            &mut self.board,
            &mut self.side,
            &mut self.clocks,
            &mut self.nulls,
        )
    }
}
