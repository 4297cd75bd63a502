//! The 8x8 board, its piece movement as data, and the Zobrist keys of chess and Pole Chess.

use std::sync::LazyLock;

use super::magic::Magics;
use crate::rules::bitset::{BitSet, Cell};
use crate::rules::geometry::{Geometry, GeometrySpec, LevelSpec, Vector};
use crate::rules::zobrist::Zobrist;

/// A set of squares.
pub type Bb = BitSet<1>;

/// Piece kinds of chess and Pole Chess.
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
    /// Pole (Pole Chess only): a blocker that never attacks and is never captured.
    pub const POLE: Kind = 6;
}

/// The dark squares (a1, c1, ..., h8): a Bishop stays on its square colour.
pub const DARK_SQUARES: Bb = BitSet([0xAA55_AA55_AA55_AA55]);

/// The number of King steps between two squares (the larger of the file and rank distances).
pub fn distance(a: Cell, b: Cell) -> i32 {
    (a % 8).abs_diff(b % 8).max((a / 8).abs_diff(b / 8)) as i32
}

/// FEN letters by kind (uppercase; lowercase for Black).
pub const LETTERS: [char; 7] = ['P', 'N', 'B', 'R', 'Q', 'K', 'O'];

/// The eight slider directions: orthogonal first (indices 0..4), then diagonal (4..8).
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

/// Number of orthogonal directions at the start of [`DIRECTIONS`].
pub const ORTHOGONAL: usize = 4;

/// Zobrist `extra` layout: 16 castling-rights keys, 8 en passant file keys, 2 Poles-in-hand
/// keys, 1 Poles-available key.
pub const Z_CASTLING: usize = 0;
/// En passant file keys.
pub const Z_EP: usize = 16;
/// Pole-in-hand keys (White, Black).
pub const Z_HAND: usize = 24;
/// Poles-available key.
pub const Z_POLES: usize = 26;

/// Castling right bits.
pub const WHITE_OO: u8 = 1;
/// White long castling.
pub const WHITE_OOO: u8 = 2;
/// Black short castling.
pub const BLACK_OO: u8 = 4;
/// Black long castling.
pub const BLACK_OOO: u8 = 8;

/// Everything precomputed for the 8x8 board.
pub struct Tables {
    /// The board geometry (rays for the eight directions).
    pub geo: Geometry<1>,
    /// Zobrist keys.
    pub zobrist: Zobrist,
    /// Knight leaps per square.
    pub knight: [Bb; 64],
    /// King steps per square.
    pub king: [Bb; 64],
    /// Pawn capture targets per colour and square.
    pub pawn_attacks: [[Bb; 64]; 2],
    /// Rook moves per square on an empty board: the squares a Rook there may ever reach.
    pub rook_rays: [Bb; 64],
    /// Bishop moves per square on an empty board.
    pub bishop_rays: [Bb; 64],
    /// Rook attacks by occupancy (the orthogonal directions' slides, looked up).
    rook: Magics,
    /// Bishop attacks by occupancy (the diagonal directions' slides, looked up).
    bishop: Magics,
}

fn table(geo: &Geometry<1>, vectors: &[Vector]) -> [Bb; 64] {
    let v = geo.leap_table(vectors);
    std::array::from_fn(|i| v[i])
}

/// The shared tables, built on first use.
pub static TABLES: LazyLock<Tables> = LazyLock::new(|| {
    let geo = Geometry::new(&GeometrySpec {
        levels: vec![LevelSpec {
            files: (0, 7),
            ranks: (0, 7),
        }],
        named_levels: false,
        holes: Vec::new(),
        directions: DIRECTIONS.to_vec(),
    });
    let knight = table(
        &geo,
        &[
            [1, 2, 0],
            [2, 1, 0],
            [-1, 2, 0],
            [-2, 1, 0],
            [1, -2, 0],
            [2, -1, 0],
            [-1, -2, 0],
            [-2, -1, 0],
        ],
    );
    let king = table(&geo, &DIRECTIONS);
    let pawn_attacks = [
        table(&geo, &[[1, 1, 0], [-1, 1, 0]]),
        table(&geo, &[[1, -1, 0], [-1, -1, 0]]),
    ];
    let rook = Magics::rook(&geo);
    let bishop = Magics::bishop(&geo);
    let rook_rays = std::array::from_fn(|sq| rook.attacks(sq, Bb::EMPTY));
    let bishop_rays = std::array::from_fn(|sq| bishop.attacks(sq, Bb::EMPTY));
    Tables {
        rook_rays,
        bishop_rays,
        zobrist: Zobrist::new("chess", geo.cells(), 27),
        rook,
        bishop,
        geo,
        knight,
        king,
        pawn_attacks,
    }
});

/// The square at file `x`, rank `y` (both 0..8).
#[inline(always)]
pub const fn sq(x: usize, y: usize) -> Cell {
    y * 8 + x
}

/// Rook slides along the four orthogonal directions (looked up, see `Magics`).
#[inline(always)]
pub fn rook_attacks(t: &Tables, from: Cell, occ: Bb) -> Bb {
    t.rook.attacks(from, occ)
}

/// Bishop slides along the four diagonals (looked up, see `Magics`).
#[inline(always)]
pub fn bishop_attacks(t: &Tables, from: Cell, occ: Bb) -> Bb {
    t.bishop.attacks(from, occ)
}
