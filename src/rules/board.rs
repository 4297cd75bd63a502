//! Piece placement shared by every variant: a mailbox plus one bitset per kind and per colour,
//! with the Zobrist key kept up to date on every change.

use super::bitset::{BitSet, Cell};
use super::piece::{Colour, Kind, Piece};
use super::zobrist::Zobrist;

/// The largest board any variant uses (Polyhedron: 300 cells).
pub const MAX_CELLS: usize = 320;

/// Most piece kinds a variant may define.
pub const MAX_KINDS: usize = 16;

/// Pieces on cells, with an incrementally maintained Zobrist key.
#[derive(Clone)]
pub struct Board<const W: usize> {
    zobrist: &'static Zobrist,
    kinds: [BitSet<W>; MAX_KINDS],
    colours: [BitSet<W>; 4],
    occupied: BitSet<W>,
    mailbox: [Piece; MAX_CELLS],
    key: u64,
}

impl<const W: usize> Board<W> {
    /// An empty board whose key is built from `zobrist`.
    pub fn new(zobrist: &'static Zobrist) -> Self {
        Board {
            zobrist,
            kinds: [BitSet::EMPTY; MAX_KINDS],
            colours: [BitSet::EMPTY; 4],
            occupied: BitSet::EMPTY,
            mailbox: [Piece::NONE; MAX_CELLS],
            key: 0,
        }
    }

    /// The Zobrist tables this board uses.
    #[inline(always)]
    pub fn zobrist(&self) -> &'static Zobrist {
        self.zobrist
    }

    /// The piece on `cell` ([`Piece::NONE`] if empty).
    #[inline(always)]
    pub fn piece_at(&self, cell: Cell) -> Piece {
        self.mailbox[cell]
    }

    /// The piece on every cell ([`Piece::NONE`] where empty), beyond the board's cells too.
    #[inline(always)]
    pub fn mailbox(&self) -> &[Piece] {
        &self.mailbox
    }

    /// Puts `piece` on the empty cell `cell`.
    #[inline(always)]
    pub fn put(&mut self, cell: Cell, piece: Piece) {
        debug_assert!(self.mailbox[cell].is_none());
        self.mailbox[cell] = piece;
        self.kinds[piece.kind() as usize].insert(cell);
        self.colours[piece.colour().idx()].insert(cell);
        self.occupied.insert(cell);
        self.key ^= self.zobrist.piece(piece, cell);
    }

    /// Removes and returns the piece on `cell` (which must hold one).
    #[inline(always)]
    pub fn remove(&mut self, cell: Cell) -> Piece {
        let piece = self.mailbox[cell];
        debug_assert!(piece.is_some());
        self.mailbox[cell] = Piece::NONE;
        self.kinds[piece.kind() as usize].remove(cell);
        self.colours[piece.colour().idx()].remove(cell);
        self.occupied.remove(cell);
        self.key ^= self.zobrist.piece(piece, cell);
        piece
    }

    /// Moves the piece on `from` to the empty cell `to`.
    #[inline(always)]
    pub fn relocate(&mut self, from: Cell, to: Cell) {
        let piece = self.mailbox[from];
        debug_assert!(piece.is_some() && self.mailbox[to].is_none());
        let mask = BitSet::from_cell(from) | BitSet::from_cell(to);
        self.mailbox[from] = Piece::NONE;
        self.mailbox[to] = piece;
        self.kinds[piece.kind() as usize] ^= mask;
        self.colours[piece.colour().idx()] ^= mask;
        self.occupied ^= mask;
        self.key ^= self.zobrist.piece(piece, from) ^ self.zobrist.piece(piece, to);
    }

    /// All pieces of `kind`, of every colour.
    #[inline(always)]
    pub fn kind(&self, kind: Kind) -> BitSet<W> {
        self.kinds[kind as usize]
    }

    /// All pieces of `colour`.
    #[inline(always)]
    pub fn colour(&self, colour: Colour) -> BitSet<W> {
        self.colours[colour.idx()]
    }

    /// The pieces of `kind` and `colour`.
    #[inline(always)]
    pub fn pieces(&self, kind: Kind, colour: Colour) -> BitSet<W> {
        self.kinds[kind as usize] & self.colours[colour.idx()]
    }

    /// All occupied cells.
    #[inline(always)]
    pub fn occupied(&self) -> BitSet<W> {
        self.occupied
    }

    /// The key: the placement plus whatever state keys the variant has toggled in.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Toggles a state key (side to move, castling rights, ...) into the key.
    #[inline(always)]
    pub fn toggle_key(&mut self, k: u64) {
        self.key ^= k;
    }

    /// Sets the key outright (for undo, which restores a saved key).
    #[inline(always)]
    pub fn set_key(&mut self, k: u64) {
        self.key = k;
    }

    /// The key of the placement alone, recomputed from scratch (for invariant checks).
    pub fn placement_key_from_scratch(&self) -> u64 {
        self.occupied
            .iter()
            .map(|c| self.zobrist.piece(self.mailbox[c], c))
            .fold(0, |a, b| a ^ b)
    }

    /// The checks every variant's invariants start with: the bitsets and the mailbox of the
    /// first `cells` cells describe the same placement, and the incremental key equals
    /// `scratch_key`, the key the variant computes from scratch.
    pub fn check(&self, cells: usize, scratch_key: u64) -> Result<(), String> {
        if !self.is_consistent(cells) {
            return Err("bitsets and mailbox disagree".into());
        }
        if scratch_key != self.key {
            return Err(format!(
                "incremental key {:016X} != recomputed key {scratch_key:016X}",
                self.key
            ));
        }
        Ok(())
    }

    /// Whether the bitsets and the mailbox describe the same placement.
    pub fn is_consistent(&self, cells: usize) -> bool {
        let mut occ = BitSet::EMPTY;
        for c in 0..cells {
            let p = self.mailbox[c];
            if p.is_some() {
                occ.insert(c);
                if !self.kinds[p.kind() as usize].contains(c)
                    || !self.colours[p.colour().idx()].contains(c)
                {
                    return false;
                }
            }
        }
        let kinds_total: u32 = self.kinds.iter().map(|b| b.len()).sum();
        let colours_total: u32 = self.colours.iter().map(|b| b.len()).sum();
        occ == self.occupied && kinds_total == occ.len() && colours_total == occ.len()
    }
}

impl<const W: usize> PartialEq for Board<W> {
    fn eq(&self, other: &Self) -> bool {
        self.kinds == other.kinds
            && self.colours == other.colours
            && self.occupied == other.occupied
            && self.mailbox == other.mailbox
            && self.key == other.key
    }
}
