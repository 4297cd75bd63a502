//! The Podionic board's constants: its cells, piece kinds and letters, planar directions
//! and levels, shared by the tables built from them ([`super::tables`], [`super::lanes`],
//! [`super::paths`]).

use crate::rules::bitset::BitSet;
use crate::rules::geometry::{LevelSpec, Vector};

/// A set of cells (64 cells: one word).
pub type Bb = BitSet<1>;

/// Number of cells.
pub const CELLS: usize = 64;

/// Piece kinds.
pub mod kind {
    use crate::rules::piece::Kind;
    /// Pawn.
    pub const PAWN: Kind = 0;
    /// Knight.
    pub const KNIGHT: Kind = 1;
    /// Bishop.
    pub const BISHOP: Kind = 2;
    /// Rook.
    pub const ROOK: Kind = 3;
    /// Queen.
    pub const QUEEN: Kind = 4;
    /// King.
    pub const KING: Kind = 5;
}

/// FEN letters by kind (uppercase; lowercase for Black).
pub const LETTERS: [char; 6] = ['P', 'N', 'B', 'R', 'Q', 'K'];

/// The kinds a pawn promotes to, in the order moves are generated.
pub const PROMOTIONS: [u8; 4] = [kind::QUEEN, kind::ROOK, kind::BISHOP, kind::KNIGHT];

/// The planar directions: orthogonal (Rook) first, then diagonal (Bishop).
pub const DIRECTIONS: [Vector; 8] = [
    [1, 0, 0],
    [-1, 0, 0],
    [0, 1, 0],
    [0, -1, 0],
    [1, 1, 0],
    [-1, 1, 0],
    [1, -1, 0],
    [-1, -1, 0],
];

/// The Rook's directions (indices into [`DIRECTIONS`]).
pub const ROOK_DIRS: [usize; 4] = [0, 1, 2, 3];
/// The Bishop's directions (indices into [`DIRECTIONS`]).
pub const BISHOP_DIRS: [usize; 4] = [4, 5, 6, 7];

/// The levels (files, ranks) in letter order: A top-left, B top-right, C bottom-right,
/// D bottom-left of the 7x7 footprint (the "pinwheel").
pub fn level_specs() -> Vec<LevelSpec> {
    [
        ((0, 3), (3, 6)),
        ((3, 6), (3, 6)),
        ((3, 6), (0, 3)),
        ((0, 3), (0, 3)),
    ]
    .into_iter()
    .map(|(files, ranks)| LevelSpec { files, ranks })
    .collect()
}

/// "No cell" in the `u8` cell tables.
pub const NO_CELL: u8 = u8::MAX;

/// The reverse of a target table: for each cell, the cells whose targets contain it.
pub fn reverse(table: &[Bb; CELLS]) -> [Bb; CELLS] {
    let mut r = [Bb::EMPTY; CELLS];
    for (from, targets) in table.iter().enumerate() {
        for to in *targets {
            r[to].insert(from);
        }
    }
    r
}
