//! The five concentric levels of Polyhedron Chess, its piece movement as data, and its Zobrist
//! keys, all built once on first use.

use std::sync::LazyLock;

use crate::rules::bitset::{BitSet, Cell};
use crate::rules::geometry::{
    Geometry, GeometrySpec, LevelSpec, Vector, permutations_with_signs, unit_vectors_3d,
};
use crate::rules::piece::{Colour, Kind};
use crate::rules::zobrist::Zobrist;

/// A set of cells of the 300-cell board.
pub type Bb = BitSet<5>;

/// Number of cells.
pub const CELLS: usize = 300;

/// Piece kinds, in the order of the protocol's letter list `K Q R B U F D A N H W S G P`.
pub mod kind {
    use crate::rules::piece::Kind;
    /// King: one step in any of the 26 directions.
    pub const KING: Kind = 0;
    /// Queen: slides in all 26 directions.
    pub const QUEEN: Kind = 1;
    /// Rook: slides orthogonally.
    pub const ROOK: Kind = 2;
    /// Bishop: slides diagonally.
    pub const BISHOP: Kind = 3;
    /// Unicorn: slides triagonally; may promote after a capture.
    pub const UNICORN: Kind = 4;
    /// Favourite: slides orthogonally or diagonally.
    pub const FAVOURITE: Kind = 5;
    /// Dragon: slides orthogonally or triagonally.
    pub const DRAGON: Kind = 6;
    /// Archbishop: slides diagonally or triagonally.
    pub const ARCHBISHOP: Kind = 7;
    /// Knight: (0, 1, 2) leaps.
    pub const KNIGHT: Kind = 8;
    /// Hippogriff: (1, 1, 2) leaps.
    pub const HIPPOGRIFF: Kind = 9;
    /// Wyvern: (1, 2, 2) leaps.
    pub const WYVERN: Kind = 10;
    /// Space Knight: Knight, Hippogriff and Wyvern leaps.
    pub const SPACE_KNIGHT: Kind = 11;
    /// Gargoyle: one or exactly two steps along any of the 26 directions (leaping).
    pub const GARGOYLE: Kind = 12;
    /// Pawn.
    pub const PAWN: Kind = 13;
}

/// Number of piece kinds.
pub const KINDS: usize = 14;

/// FEN and notation letters by kind (uppercase; lowercase for Black).
pub const LETTERS: [char; KINDS] = [
    'K', 'Q', 'R', 'B', 'U', 'F', 'D', 'A', 'N', 'H', 'W', 'S', 'G', 'P',
];

/// The kind with letter `c` (either case).
pub fn kind_of_letter(c: char) -> Option<Kind> {
    let upper = c.to_ascii_uppercase();
    LETTERS.iter().position(|&l| l == upper).map(|k| k as Kind)
}

/// The three direction classes. The geometry's directions are [`unit_vectors_3d`] in order:
/// orthogonal 0..6, diagonal 6..18, triagonal 18..26.
pub const CLASS_DIRS: [std::ops::Range<usize>; 3] = [0..6, 6..18, 18..26];

/// For each direction class, the kinds that slide along it (bit `k` for kind `k`).
pub const CLASS_SLIDERS: [u16; 3] = [
    // orthogonal: Q R F D
    1 << kind::QUEEN | 1 << kind::ROOK | 1 << kind::FAVOURITE | 1 << kind::DRAGON,
    // diagonal: Q B F A
    1 << kind::QUEEN | 1 << kind::BISHOP | 1 << kind::FAVOURITE | 1 << kind::ARCHBISHOP,
    // triagonal: Q U D A
    1 << kind::QUEEN | 1 << kind::UNICORN | 1 << kind::DRAGON | 1 << kind::ARCHBISHOP,
];

/// The sliding kinds with the direction classes each slides along.
pub const SLIDERS: [(Kind, [bool; 3]); 7] = [
    (kind::QUEEN, [true, true, true]),
    (kind::ROOK, [true, false, false]),
    (kind::BISHOP, [false, true, false]),
    (kind::UNICORN, [false, false, true]),
    (kind::FAVOURITE, [true, true, false]),
    (kind::DRAGON, [true, false, true]),
    (kind::ARCHBISHOP, [false, true, true]),
];

/// Most items of one side's pieces (board plus reserve): the 74 pieces of the setup.
pub const MAX_ARMY: usize = 74;

/// Zobrist `extra` layout: one en passant key per cell, then the reserve keys.
pub const Z_EP: usize = 0;
/// Reserve keys: `Z_RESERVE + (colour * 16 + kind) * MAX_ARMY + n - 1` is the key of "the
/// n-th item of this kind in this colour's reserve", so a count of `n` is the XOR of n keys.
pub const Z_RESERVE: usize = CELLS;

/// Everything precomputed for the board.
pub struct Tables {
    /// The geometry, with rays for the 26 directions.
    pub geo: Geometry<5>,
    /// Zobrist keys.
    pub zobrist: Zobrist,
    /// Knight leaps per cell.
    pub knight: Vec<Bb>,
    /// Hippogriff leaps per cell.
    pub hippogriff: Vec<Bb>,
    /// Wyvern leaps per cell.
    pub wyvern: Vec<Bb>,
    /// Space Knight leaps per cell (the union of the three above).
    pub space_knight: Vec<Bb>,
    /// Gargoyle steps and two-step leaps per cell.
    pub gargoyle: Vec<Bb>,
    /// King steps per cell.
    pub king: Vec<Bb>,
    /// Per colour and cell: the cells a pawn of that colour on that cell captures onto.
    pub pawn_attacks: [Vec<Bb>; 2],
    /// Per colour and cell: the cell one step forward, if it exists.
    pub pawn_push: [Vec<Option<Cell>>; 2],
    /// Per colour: the cells on the farthest rank of their level (promotion cells).
    pub promotion_zone: [Bb; 2],
    /// Per colour: the cells of the pawns' starting rank (rank 3 / rank 8).
    pub start_rank: [Bb; 2],
    /// Per direction class and cell: the union of the class's rays from the cell.
    pub class_lines: [Vec<Bb>; 3],
}

/// The level specification: level `z` has margin `|z - 2|` on every side.
pub fn geometry_spec() -> GeometrySpec {
    GeometrySpec {
        levels: (0..5)
            .map(|z: i8| {
                let k = (z - 2).abs();
                LevelSpec {
                    files: (k, 9 - k),
                    ranks: (k, 9 - k),
                }
            })
            .collect(),
        named_levels: true,
        holes: Vec::new(),
        directions: unit_vectors_3d(),
    }
}

/// The shared tables.
pub static TABLES: LazyLock<Tables> = LazyLock::new(|| {
    let geo: Geometry<5> = Geometry::new(&geometry_spec());
    let units = unit_vectors_3d();
    let doubled: Vec<Vector> = units.iter().map(|v| v.map(|c| 2 * c)).collect();
    let knight_v = permutations_with_signs([0, 1, 2]);
    let hippogriff_v = permutations_with_signs([1, 1, 2]);
    let wyvern_v = permutations_with_signs([1, 2, 2]);
    let knight = geo.leap_table(&knight_v);
    let hippogriff = geo.leap_table(&hippogriff_v);
    let wyvern = geo.leap_table(&wyvern_v);
    let space_knight = (0..geo.cells())
        .map(|c| knight[c] | hippogriff[c] | wyvern[c])
        .collect();
    let gargoyle = geo.leap_table(&[units.clone(), doubled].concat());
    let king = geo.leap_table(&units);
    let pawn_capture_vectors = |f: i8| -> Vec<Vector> {
        let mut v = Vec::new();
        for dx in -1..=1 {
            for dz in -1..=1 {
                if dx != 0 || dz != 0 {
                    v.push([dx, f, dz]);
                }
            }
        }
        v
    };
    let pawn_attacks = [
        geo.leap_table(&pawn_capture_vectors(1)),
        geo.leap_table(&pawn_capture_vectors(-1)),
    ];
    let pawn_push = [
        (0..geo.cells()).map(|c| geo.step(c, [0, 1, 0])).collect(),
        (0..geo.cells()).map(|c| geo.step(c, [0, -1, 0])).collect(),
    ];
    let mut promotion_zone = [Bb::EMPTY; 2];
    let mut start_rank = [Bb::EMPTY; 2];
    for c in 0..geo.cells() {
        let co = geo.coord(c);
        let k = (co.z - 2).abs();
        if co.y == 9 - k {
            promotion_zone[0].insert(c);
        }
        if co.y == k {
            promotion_zone[1].insert(c);
        }
        if co.y == 2 {
            start_rank[0].insert(c);
        }
        if co.y == 7 {
            start_rank[1].insert(c);
        }
    }
    let class_lines = std::array::from_fn(|class| {
        (0..geo.cells())
            .map(|c| {
                CLASS_DIRS[class]
                    .clone()
                    .fold(Bb::EMPTY, |acc, d| acc | geo.ray(c, d))
            })
            .collect()
    });
    Tables {
        zobrist: Zobrist::new("polyhedron", geo.cells(), Z_RESERVE + 2 * 16 * MAX_ARMY),
        geo,
        knight,
        hippogriff,
        wyvern,
        space_knight,
        gargoyle,
        king,
        pawn_attacks,
        pawn_push,
        promotion_zone,
        start_rank,
        class_lines,
    }
});

/// The key of the `n`-th item (from 1) of `kind` in `colour`'s reserve.
#[inline(always)]
pub fn reserve_key(t: &Tables, colour: Colour, kind: Kind, n: usize) -> u64 {
    t.zobrist.extra[Z_RESERVE + (colour.idx() * 16 + kind as usize) * MAX_ARMY + n - 1]
}

/// The cells a slider on `from` reaches along the direction class `class` given the
/// occupied cells.
#[inline(always)]
pub fn class_attacks(t: &Tables, class: usize, from: Cell, occ: Bb) -> Bb {
    let mut att = Bb::EMPTY;
    for d in CLASS_DIRS[class].clone() {
        att |= t.geo.slide(from, d, occ);
    }
    att
}

/// The cells a slider of `kind` on `from` reaches, or `None` if `kind` does not slide.
#[inline(always)]
pub fn slider_attacks(t: &Tables, kind: Kind, from: Cell, occ: Bb) -> Option<Bb> {
    let classes = SLIDERS.iter().find(|(k, _)| *k == kind)?.1;
    let mut att = Bb::EMPTY;
    for (class, &on) in classes.iter().enumerate() {
        if on {
            att |= class_attacks(t, class, from, occ);
        }
    }
    Some(att)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_and_tables_have_the_documented_sizes() {
        let t = &*TABLES;
        assert_eq!(t.geo.cells(), CELLS);
        for (i, v) in unit_vectors_3d().iter().enumerate() {
            let nonzero = v.iter().filter(|&&c| c != 0).count();
            let class = CLASS_DIRS.iter().position(|r| r.contains(&i)).unwrap();
            assert_eq!(nonzero, class + 1, "direction {i} is in the wrong class");
        }
        // In the middle of level C every leap exists.
        let c = t.geo.parse_name("Ce5").unwrap();
        assert_eq!(t.knight[c].len(), 24);
        assert_eq!(t.hippogriff[c].len(), 24);
        assert_eq!(t.wyvern[c].len(), 24);
        assert_eq!(t.space_knight[c].len(), 72);
        assert_eq!(t.gargoyle[c].len(), 52);
        assert_eq!(t.king[c].len(), 26);
        assert_eq!(t.pawn_attacks[0][c].len(), 8);
        assert_eq!(t.promotion_zone[0].len(), 6 + 8 + 10 + 8 + 6);
    }
}
