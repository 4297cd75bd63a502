//! The four 8x8 levels of Chess – The Future Generation, its piece movement as data, the
//! per-colour geometry (forward direction, home and gate levels, far edges, castling) and the
//! Zobrist layout.
//!
//! Cells are numbered `z * 64 + y * 8 + x` (level A = 0 at the top, D = 3 at the bottom), so
//! each level is exactly one word of a [`BitSet<4>`] and `dz = +1` is one level down.

use std::sync::LazyLock;

use crate::rules::bitset::{BitSet, Cell};
use crate::rules::chess::tables as chess;
use crate::rules::geometry::{Geometry, GeometrySpec, LevelSpec, Vector};
use crate::rules::piece::Colour;
use crate::rules::zobrist::Zobrist;

/// A set of cells of the four levels.
pub type Bb = BitSet<4>;

/// Number of cells.
pub const CELLS: usize = 256;

/// Piece kinds.
pub mod kind {
    use crate::rules::piece::Kind;
    /// Pawn.
    pub const PAWN: Kind = 0;
    /// Knight (not crowned).
    pub const KNIGHT: Kind = 1;
    /// Bishop.
    pub const BISHOP: Kind = 2;
    /// Rook.
    pub const ROOK: Kind = 3;
    /// Queen.
    pub const QUEEN: Kind = 4;
    /// King.
    pub const KING: Kind = 5;
    /// Crowned Knight: a Knight that has reached its colour's far edge.
    pub const CROWNED: Kind = 6;
}

/// FEN letters by kind (after the colour letter: `wK`, `gC`).
pub const LETTERS: [char; 7] = ['P', 'N', 'B', 'R', 'Q', 'K', 'C'];

/// The pieces a pawn may promote to, in generation order.
pub const PROMOTIONS: [u8; 4] = [kind::QUEEN, kind::ROOK, kind::BISHOP, kind::KNIGHT];

/// Slider directions: in-level orthogonal (0..4), in-level diagonal (4..8), straight down and
/// up (8..10). Within a level a slider moves as on a chessboard, so the move generator looks
/// its slides up in chess's magic tables and steps through the levels ([`rook_attacks`],
/// [`bishop_attacks`]); the geometry's own rays, built from these directions, only check them
/// in a test.
pub const DIRECTIONS: [Vector; 10] = [
    [1, 0, 0],
    [-1, 0, 0],
    [0, 1, 0],
    [0, -1, 0],
    [1, 1, 0],
    [-1, 1, 0],
    [1, -1, 0],
    [-1, -1, 0],
    [0, 0, 1],
    [0, 0, -1],
];

/// Zobrist `extra` layout: one key per castling right (colour * 2 + side).
pub const Z_CASTLING: usize = 0;
/// En passant keys, one per cell.
pub const Z_EP: usize = 8;
/// Unlocked keys, one per colour.
pub const Z_UNLOCKED: usize = Z_EP + CELLS;
/// Eliminated keys, one per colour.
pub const Z_ELIMINATED: usize = Z_UNLOCKED + 4;
/// Number of extra keys.
pub const Z_EXTRA: usize = Z_ELIMINATED + 4;

/// The four colours in turn order.
pub const COLOURS: [Colour; 4] = [Colour::WHITE, Colour::BLACK, Colour::GOLD, Colour::SILVER];

/// Forward vector (dx, dy) of each colour: White +y, Black -y, Gold -x, Silver +x.
pub const FORWARD: [(i8, i8); 4] = [(0, 1), (0, -1), (-1, 0), (1, 0)];

/// Home level of each colour (A for White and Black, D for Gold and Silver).
pub const HOME_LEVEL: [usize; 4] = [0, 0, 3, 3];

/// Gate level of each colour (B for White and Black, C for Gold and Silver).
pub const GATE_LEVEL: [usize; 4] = [1, 1, 2, 2];

/// One castling move.
#[derive(Clone, Copy, Debug)]
pub struct Castling {
    /// The King's cell (also its start cell).
    pub king_from: Cell,
    /// Where the King lands.
    pub king_to: Cell,
    /// The Rook's start cell.
    pub rook_from: Cell,
    /// Where the Rook lands (the cell the King crosses).
    pub rook_to: Cell,
    /// The cells between King and Rook, which must be empty.
    pub between: Bb,
    /// The King's cell, the cell it crosses and its destination: none may be attacked.
    pub safe: [Cell; 3],
}

/// Everything precomputed for the board.
pub struct Tables {
    /// The geometry (cells, names, steps; no rays: see [`DIRECTIONS`]).
    pub geo: Geometry<4>,
    /// Zobrist keys.
    pub zobrist: Zobrist,
    /// King steps: the 26 neighbours.
    pub king: Vec<Bb>,
    /// Knight leaps: chess leaps plus (±2, 0, ±1) and (0, ±2, ±1).
    pub knight: Vec<Bb>,
    /// Crowned Knight leaps: the Knight's plus (±1, 0, ±2) and (0, ±1, ±2).
    pub crowned: Vec<Bb>,
    /// The Bishop's single steps to an adjacent level: (dx, dy, ±1), (dx, dy) != (0, 0).
    pub bishop_step: Vec<Bb>,
    /// Pawn steps to an empty cell, per colour: (f, 0), (f, ±1), (0, 0, ±1).
    pub pawn_push: [Vec<Bb>; 4],
    /// Pawn double-step destinations, per colour, from the starting pawn cells only.
    pub pawn_double: [Vec<Bb>; 4],
    /// Pawn capture targets, per colour: (f + s, 0) and (f + s, ±1).
    pub pawn_capture: [Vec<Bb>; 4],
    /// The cells from which a pawn of the colour captures onto a cell (reverse of
    /// `pawn_capture`).
    pub pawn_attackers: [Vec<Bb>; 4],
    /// Cell offset of one step forward, per colour.
    pub forward_offset: [isize; 4],
    /// Each colour's starting pawn cells.
    pub pawn_start: [Bb; 4],
    /// Each colour's far edge (all levels): arriving there promotes a pawn, crowns a Knight.
    pub far_edge: [Bb; 4],
    /// The cells a pawn of the colour can never stand on (its far edge and its back edge).
    pub no_pawn: [Bb; 4],
    /// The cells a locked colour's moves may end on (its home side of the gate).
    pub locked_reach: [Bb; 4],
    /// Each colour's gate level.
    pub gate: [Bb; 4],
    /// Castling, per colour: short (`K`) then long (`Q`).
    pub castling: [[Castling; 2]; 4],
    /// Castling rights that survive a move touching the cell.
    pub castle_keep: Vec<u8>,
    /// Chess's tables: a level is an 8x8 board numbered as chess's (`y * 8 + x`), so its
    /// Rook and Bishop slides are chess's, looked up by occupancy in one step.
    pub level: &'static chess::Tables,
}

/// The cell at (x, y, z), all in 0..8 / 0..4.
#[inline(always)]
pub const fn cell(x: usize, y: usize, z: usize) -> Cell {
    z * 64 + y * 8 + x
}

/// Knight leaps: the chess leaps and one level + two cells; crowned also two levels + one cell.
fn knight_vectors(crowned: bool) -> Vec<Vector> {
    let mut v = Vec::new();
    for (a, b) in [(1, 2), (2, 1)] {
        for sa in [-1, 1] {
            for sb in [-1, 1] {
                v.push([a * sa, b * sb, 0]);
            }
        }
    }
    // One level and two cells orthogonally; crowned: two levels and one cell.
    let (along, levels) = if crowned {
        (vec![2, 1], vec![1, 2])
    } else {
        (vec![2], vec![1])
    };
    for (a, l) in along.into_iter().zip(levels) {
        for dz in [-l, l] {
            for s in [-a, a] {
                v.push([s, 0, dz]);
                v.push([0, s, dz]);
            }
        }
    }
    v
}

/// The shared tables, built on first use.
/// The four 8x8 levels, with rays for `directions`.
fn geometry(directions: &[Vector]) -> Geometry<4> {
    Geometry::new(&GeometrySpec {
        levels: (0..4)
            .map(|_| LevelSpec {
                files: (0, 7),
                ranks: (0, 7),
            })
            .collect(),
        named_levels: true,
        holes: Vec::new(),
        directions: directions.to_vec(),
    })
}

/// The board's tables, built on first use.
pub static TABLES: LazyLock<Tables> = LazyLock::new(|| {
    let geo = geometry(&[]);
    let mut king_v = Vec::new();
    let mut bishop_v = Vec::new();
    for dz in -1..=1i8 {
        for dy in -1..=1i8 {
            for dx in -1..=1i8 {
                if (dx, dy, dz) != (0, 0, 0) {
                    king_v.push([dx, dy, dz]);
                }
                if dz != 0 && (dx, dy) != (0, 0) {
                    bishop_v.push([dx, dy, dz]);
                }
            }
        }
    }
    let mut pawn_push: [Vec<Bb>; 4] = Default::default();
    let mut pawn_double: [Vec<Bb>; 4] = Default::default();
    let mut pawn_capture: [Vec<Bb>; 4] = Default::default();
    let mut pawn_attackers: [Vec<Bb>; 4] = Default::default();
    let mut forward_offset = [0isize; 4];
    let mut pawn_start = [Bb::EMPTY; 4];
    let mut far_edge = [Bb::EMPTY; 4];
    let mut no_pawn = [Bb::EMPTY; 4];
    let mut locked_reach = [Bb::EMPTY; 4];
    let mut gate = [Bb::EMPTY; 4];
    for c in 0..4 {
        let (fx, fy) = FORWARD[c];
        forward_offset[c] = fy as isize * 8 + fx as isize;
        let (sx, sy) = (fy.abs(), fx.abs()); // the sideways axis
        let push = [
            [fx, fy, 0],
            [fx, fy, 1],
            [fx, fy, -1],
            [0, 0, 1],
            [0, 0, -1],
        ];
        pawn_push[c] = geo.leap_table(&push);
        let mut capture = Vec::new();
        for s in [-1, 1] {
            for dz in -1..=1 {
                capture.push([fx + s * sx, fy + s * sy, dz]);
            }
        }
        pawn_capture[c] = geo.leap_table(&capture);
        let reverse: Vec<Vector> = capture.iter().map(|v| [-v[0], -v[1], -v[2]]).collect();
        pawn_attackers[c] = geo.leap_table(&reverse);
        for z in 0..4 {
            for y in 0..8 {
                for x in 0..8 {
                    let i = cell(x, y, z);
                    let (along, back, far) = match c {
                        0 => (y, 0, 7),
                        1 => (y, 7, 0),
                        2 => (x, 7, 0),
                        _ => (x, 0, 7),
                    };
                    if along == far {
                        far_edge[c].insert(i);
                    }
                    if along == far || along == back {
                        no_pawn[c].insert(i);
                    }
                    let start_line = if back == 0 { 1 } else { 6 };
                    if z == HOME_LEVEL[c] && along == start_line {
                        pawn_start[c].insert(i);
                    }
                    let reach_locked = if HOME_LEVEL[c] == 0 { z <= 1 } else { z >= 2 };
                    if reach_locked {
                        locked_reach[c].insert(i);
                    }
                    if z == GATE_LEVEL[c] {
                        gate[c].insert(i);
                    }
                }
            }
        }
        let double = [
            [2 * fx, 2 * fy, 0],
            [2 * fx, 2 * fy, 1],
            [2 * fx, 2 * fy, -1],
        ];
        pawn_double[c] = (0..geo.cells())
            .map(|from| {
                if pawn_start[c].contains(from) {
                    double.iter().filter_map(|v| geo.step(from, *v)).collect()
                } else {
                    Bb::EMPTY
                }
            })
            .collect();
    }
    // Castling: short side first (towards the h-file / rank 1), then long.
    let castle = |kf: Cell, kt: Cell, rf: Cell, rt: Cell, between: &[Cell]| Castling {
        king_from: kf,
        king_to: kt,
        rook_from: rf,
        rook_to: rt,
        between: between.iter().copied().collect(),
        safe: [kf, rt, kt],
    };
    let castling = [
        [
            castle(
                cell(4, 0, 0),
                cell(6, 0, 0),
                cell(7, 0, 0),
                cell(5, 0, 0),
                &[cell(5, 0, 0), cell(6, 0, 0)],
            ),
            castle(
                cell(4, 0, 0),
                cell(2, 0, 0),
                cell(0, 0, 0),
                cell(3, 0, 0),
                &[cell(1, 0, 0), cell(2, 0, 0), cell(3, 0, 0)],
            ),
        ],
        [
            castle(
                cell(4, 7, 0),
                cell(6, 7, 0),
                cell(7, 7, 0),
                cell(5, 7, 0),
                &[cell(5, 7, 0), cell(6, 7, 0)],
            ),
            castle(
                cell(4, 7, 0),
                cell(2, 7, 0),
                cell(0, 7, 0),
                cell(3, 7, 0),
                &[cell(1, 7, 0), cell(2, 7, 0), cell(3, 7, 0)],
            ),
        ],
        [
            castle(
                cell(7, 3, 3),
                cell(7, 1, 3),
                cell(7, 0, 3),
                cell(7, 2, 3),
                &[cell(7, 2, 3), cell(7, 1, 3)],
            ),
            castle(
                cell(7, 3, 3),
                cell(7, 5, 3),
                cell(7, 7, 3),
                cell(7, 4, 3),
                &[cell(7, 4, 3), cell(7, 5, 3), cell(7, 6, 3)],
            ),
        ],
        [
            castle(
                cell(0, 3, 3),
                cell(0, 1, 3),
                cell(0, 0, 3),
                cell(0, 2, 3),
                &[cell(0, 2, 3), cell(0, 1, 3)],
            ),
            castle(
                cell(0, 3, 3),
                cell(0, 5, 3),
                cell(0, 7, 3),
                cell(0, 4, 3),
                &[cell(0, 4, 3), cell(0, 5, 3), cell(0, 6, 3)],
            ),
        ],
    ];
    let mut castle_keep = vec![0xffu8; CELLS];
    for (c, sides) in castling.iter().enumerate() {
        for (s, cs) in sides.iter().enumerate() {
            let bit = 1u8 << (c * 2 + s);
            castle_keep[cs.king_from] &= !bit;
            castle_keep[cs.rook_from] &= !bit;
        }
    }
    Tables {
        level: &chess::TABLES,
        zobrist: Zobrist::new("future-generation", geo.cells(), Z_EXTRA),
        king: geo.leap_table(&king_v),
        knight: geo.leap_table(&knight_vectors(false)),
        crowned: geo.leap_table(&knight_vectors(true)),
        bishop_step: geo.leap_table(&bishop_v),
        pawn_push,
        pawn_double,
        pawn_capture,
        pawn_attackers,
        forward_offset,
        pawn_start,
        far_edge,
        no_pawn,
        locked_reach,
        gate,
        castling,
        castle_keep,
        geo,
    }
});

/// The castling-right bit of `colour`'s short (`side` 0) or long (1) castling.
#[inline(always)]
pub const fn castle_bit(colour: Colour, side: usize) -> u8 {
    1 << (colour.0 as usize * 2 + side)
}

/// The cells a slider on `from` reaches straight down and up through the levels.
#[inline(always)]
fn vertical_slides(from: Cell, occ: Bb) -> Bb {
    let (z, bit) = (from >> 6, 1u64 << (from & 63));
    let mut r = Bb::EMPTY;
    for w in z + 1..4 {
        r.0[w] |= bit;
        if occ.0[w] & bit != 0 {
            break;
        }
    }
    for w in (0..z).rev() {
        r.0[w] |= bit;
        if occ.0[w] & bit != 0 {
            break;
        }
    }
    r
}

/// Rook moves: in-level orthogonal slides and slides straight up or down.
#[inline(always)]
pub fn rook_attacks(t: &Tables, from: Cell, occ: Bb) -> Bb {
    let z = from >> 6;
    let mut r = vertical_slides(from, occ);
    r.0[z] |= chess::rook_attacks(t.level, from & 63, BitSet([occ.0[z]])).0[0];
    r
}

/// Bishop moves: in-level diagonal slides and single diagonal steps to an adjacent level.
#[inline(always)]
pub fn bishop_attacks(t: &Tables, from: Cell, occ: Bb) -> Bb {
    let z = from >> 6;
    let mut r = t.bishop_step[from];
    r.0[z] |= chess::bishop_attacks(t.level, from & 63, BitSet([occ.0[z]])).0[0];
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::zobrist::SplitMix64;

    /// The single-word slides agree with the geometry's generic rays.
    #[test]
    fn fast_slides_match_the_geometry() {
        let t = &*TABLES;
        let geo = geometry(&DIRECTIONS);
        let mut rng = SplitMix64(7);
        for _ in 0..200 {
            let occ = BitSet([
                rng.next_u64() & rng.next_u64(),
                rng.next_u64() & rng.next_u64(),
                rng.next_u64() & rng.next_u64(),
                rng.next_u64() & rng.next_u64(),
            ]);
            for from in 0..CELLS {
                let generic = |dirs: std::ops::Range<usize>| {
                    dirs.fold(Bb::EMPTY, |acc, d| acc | geo.slide(from, d, occ))
                };
                assert_eq!(rook_attacks(t, from, occ), generic(0..4) | generic(8..10));
                assert_eq!(
                    bishop_attacks(t, from, occ),
                    generic(4..8) | t.bishop_step[from]
                );
            }
        }
    }

    #[test]
    fn table_sizes() {
        let t = &*TABLES;
        let centre = cell(3, 3, 1);
        assert_eq!(t.king[centre].len(), 26);
        assert_eq!(t.knight[centre].len(), 16);
        // Two levels up from B would leave the board: 16 + 4.
        assert_eq!(t.crowned[centre].len(), 20);
        assert_eq!(t.bishop_step[centre].len(), 16);
        for c in 0..4 {
            assert_eq!(t.pawn_start[c].len(), 8);
            assert_eq!(t.far_edge[c].len(), 32);
            assert_eq!(t.pawn_capture[c][cell(3, 3, 1)].len(), 6);
        }
    }
}
