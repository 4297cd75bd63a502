//! The 5x5x5 board of Pentaplane V, its piece kinds, movement as data (direction groups, step
//! and leap tables, blast cubes) and its Zobrist keys.

use std::ops::Range;
use std::sync::LazyLock;

use crate::rules::bitset::{BitSet, Cell};
use crate::rules::geometry::{
    Geometry, GeometrySpec, LevelSpec, Vector, permutations_with_signs, unit_vectors_3d,
};
use crate::rules::zobrist::Zobrist;

/// A set of cells of the 125-cell board.
pub type Bb = BitSet<2>;

/// Number of cells.
pub const CELLS: usize = 125;

/// Piece kinds of Pentaplane V.
pub mod kind {
    use crate::rules::piece::Kind;
    /// Pawn: steps rook-wise, captures bishop-wise.
    pub const PAWN: Kind = 0;
    /// Knight: the 24 leaps (0, ±1, ±2).
    pub const KNIGHT: Kind = 1;
    /// Bishop: slides in the 12 bishop directions.
    pub const BISHOP: Kind = 2;
    /// Rook: slides in the 6 rook directions.
    pub const ROOK: Kind = 3;
    /// Cuber: slides in the 8 cube directions.
    pub const CUBER: Kind = 4;
    /// True Queen: slides in all 26 directions (only by promotion).
    pub const QUEEN: Kind = 5;
    /// King: one step in any of the 26 directions.
    pub const KING: Kind = 6;
    /// Fortress (missile rook): steps or shoots in the rook directions.
    pub const FORTRESS: Kind = 7;
    /// Missile bishop: steps or shoots in the bishop directions.
    pub const MISSILE_BISHOP: Kind = 8;
    /// Satellite (missile cuber): steps or shoots in the cube directions.
    pub const SATELLITE: Kind = 9;
    /// Bomb: steps rook-wise; explodes when it captures, is captured or is shot.
    pub const BOMB: Kind = 10;
    /// Kamikaze Queen: slides rook- and bishop-wise; vanishes when it captures.
    pub const KAMIKAZE: Kind = 11;
    /// Number of kinds.
    pub const COUNT: usize = 12;
}

/// FEN letters by kind (uppercase; lowercase for Black).
pub const LETTERS: [char; kind::COUNT] =
    ['P', 'N', 'B', 'R', 'C', 'Q', 'K', 'F', 'M', 'S', 'O', 'Z'];

/// The rook directions among [`Tables::geo`]'s directions (one component ±1).
pub const ROOK_DIRS: Range<usize> = 0..6;
/// The bishop directions (two components ±1).
pub const BISHOP_DIRS: Range<usize> = 6..18;
/// The cube directions (three components ±1).
pub const CUBE_DIRS: Range<usize> = 18..26;
/// Rook and bishop directions together (the Kamikaze Queen).
pub const ROOK_BISHOP_DIRS: Range<usize> = 0..18;
/// All 26 directions (King, True Queen).
pub const ALL_DIRS: Range<usize> = 0..26;

/// Everything precomputed for the 5x5x5 board.
pub struct Tables {
    /// The geometry, with rays for the 26 directions in the order rook, bishop, cube.
    pub geo: Geometry<2>,
    /// Zobrist keys (placement and side to move; nothing else matters for repetition).
    pub zobrist: Zobrist,
    /// One step in a rook direction.
    pub rook_step: [Bb; CELLS],
    /// One step in a bishop direction.
    pub bishop_step: [Bb; CELLS],
    /// One step in a cube direction.
    pub cube_step: [Bb; CELLS],
    /// One step in any direction (the King).
    pub king: [Bb; CELLS],
    /// The 24 knight leaps.
    pub knight: [Bb; CELLS],
    /// The blast cube: the cell and its up to 26 neighbours.
    pub blast: [Bb; CELLS],
    /// The promotion row of each colour: White's pawns promote on Ca5-Ce5, Black's on
    /// Ca1-Ce1.
    pub promotion: [Bb; 2],
}

fn table(geo: &Geometry<2>, vectors: &[Vector]) -> [Bb; CELLS] {
    let v = geo.leap_table(vectors);
    std::array::from_fn(|i| v[i])
}

/// The shared tables, built on first use.
pub static TABLES: LazyLock<Tables> = LazyLock::new(|| {
    let dirs = unit_vectors_3d();
    let geo = Geometry::new(&GeometrySpec {
        levels: (0..5)
            .map(|_| LevelSpec {
                files: (0, 4),
                ranks: (0, 4),
            })
            .collect(),
        named_levels: true,
        holes: Vec::new(),
        directions: dirs.clone(),
    });
    assert_eq!(geo.cells(), CELLS);
    let rook_step = table(&geo, &dirs[ROOK_DIRS]);
    let bishop_step = table(&geo, &dirs[BISHOP_DIRS]);
    let cube_step = table(&geo, &dirs[CUBE_DIRS]);
    let king = table(&geo, &dirs);
    let knight = table(&geo, &permutations_with_signs([0, 1, 2]));
    let blast = std::array::from_fn(|c| {
        let mut b = king[c];
        b.insert(c);
        b
    });
    let row = |y: i32| -> Bb { (0..5).filter_map(|x| geo.at(x, y, 2)).collect() };
    let promotion = [row(4), row(0)];
    Tables {
        zobrist: Zobrist::new("pentaplane", geo.cells(), 0),
        geo,
        rook_step,
        bishop_step,
        cube_step,
        king,
        knight,
        blast,
        promotion,
    }
});

/// The cells a slider on `from` reaches along the directions `dirs` when `occ` is occupied
/// (each ray up to and including its first occupied cell).
#[inline(always)]
pub fn slides(t: &Tables, from: Cell, occ: Bb, dirs: Range<usize>) -> Bb {
    let mut r = Bb::EMPTY;
    for d in dirs {
        r |= t.geo.slide(from, d, occ);
    }
    r
}

/// The cells a missile from `from` would hit along `dirs`: the first occupied cell of each
/// ray, kept if it is in `hittable` (enemy pieces and Bombs of both colours).
#[inline(always)]
pub fn shots(t: &Tables, from: Cell, occ: Bb, hittable: Bb, dirs: Range<usize>) -> Bb {
    let mut r = Bb::EMPTY;
    for d in dirs {
        if let Some(hit) = t.geo.nearest(t.geo.ray(from, d) & occ, d)
            && hittable.contains(hit)
        {
            r.insert(hit);
        }
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn direction_groups_and_table_sizes() {
        let t = &*TABLES;
        let dirs = t.geo.directions();
        for d in ROOK_DIRS {
            assert_eq!(dirs[d].iter().filter(|&&v| v != 0).count(), 1);
        }
        for d in BISHOP_DIRS {
            assert_eq!(dirs[d].iter().filter(|&&v| v != 0).count(), 2);
        }
        for d in CUBE_DIRS {
            assert_eq!(dirs[d].iter().filter(|&&v| v != 0).count(), 3);
        }
        let centre = t.geo.parse_name("Cc3").unwrap();
        assert_eq!(t.rook_step[centre].len(), 6);
        assert_eq!(t.bishop_step[centre].len(), 12);
        assert_eq!(t.cube_step[centre].len(), 8);
        assert_eq!(t.king[centre].len(), 26);
        assert_eq!(t.knight[centre].len(), 24);
        assert_eq!(t.blast[centre].len(), 27);
        let corner = t.geo.parse_name("Aa1").unwrap();
        assert_eq!(t.blast[corner].len(), 8);
        assert_eq!(t.promotion[0].len(), 5);
        assert!(t.promotion[0].contains(t.geo.parse_name("Cc5").unwrap()));
        assert!(t.promotion[1].contains(t.geo.parse_name("Ce1").unwrap()));
    }
}
