//! The Podionic board as data: the four overlapping levels, the vertical links between them,
//! every piece's movement precomputed per cell, and the Zobrist keys.
//!
//! The core [`Geometry`] numbers the 64 cells (A = level 0 at the top, D = level 3 at the
//! bottom) and gives names and planar steps. What is particular to Podionic is built here:
//! `up`/`down` (the vertical steps at overlapping squares), the King's and Knight's leap
//! tables (with the Knight's one-sided level leap and its reverse table), the slider path
//! trees of [`super::paths`] and the pawn tables of [`super::lanes`].

use std::sync::LazyLock;

use super::lanes::PawnTables;
use super::paths::PathTrees;
use crate::rules::bitset::Cell;
use crate::rules::geometry::{Geometry, GeometrySpec};
use crate::rules::piece::Colour;
use crate::rules::zobrist::Zobrist;

pub use super::board::{
    BISHOP_DIRS, Bb, CELLS, DIRECTIONS, LETTERS, NO_CELL, PROMOTIONS, ROOK_DIRS, kind, level_specs,
    reverse,
};

/// Everything precomputed for the Podionic board.
pub struct Tables {
    /// Cells, names and planar steps.
    pub geo: Geometry<1>,
    /// Zobrist keys (placement and side to move; nothing else matters for repetition).
    pub zobrist: Zobrist,
    /// The cell one vertical step up (towards A) at the same footprint square, or [`NO_CELL`].
    pub up: [u8; CELLS],
    /// The cell one vertical step down (towards D), or [`NO_CELL`].
    pub down: [u8; CELLS],
    /// King targets: the eight planar steps and the vertical steps. Symmetric.
    pub king: [Bb; CELLS],
    /// Knight targets from each cell: planar leaps and level leaps.
    pub knight: [Bb; CELLS],
    /// The cells from which a Knight reaches each cell (the level leap is one-sided).
    pub knight_from: [Bb; CELLS],
    /// Rook path trees (orthogonal directions).
    pub rook: PathTrees,
    /// Bishop path trees (diagonal directions).
    pub bishop: PathTrees,
    /// Pawn tables per colour (White, Black).
    pub pawn: [PawnTables; 2],
}

/// The shared tables, built on first use.
pub static TABLES: LazyLock<Tables> = LazyLock::new(Tables::new);

impl Tables {
    fn new() -> Tables {
        // The sliders follow the path trees, built by stepping: the geometry needs no rays.
        let geo = Geometry::new(&GeometrySpec {
            levels: level_specs(),
            named_levels: true,
            holes: Vec::new(),
            directions: Vec::new(),
        });
        assert_eq!(geo.cells(), CELLS, "Podionic has 64 cells");
        // The stack of a square lists its levels in letter order (A at the top), so the cell
        // above is the one on the nearest lower-numbered level covering the same square.
        let mut up = [NO_CELL; CELLS];
        let mut down = [NO_CELL; CELLS];
        for (c, (u, d)) in up.iter_mut().zip(down.iter_mut()).enumerate() {
            let p = geo.coord(c);
            let (x, y, z) = (p.x as i32, p.y as i32, p.z as i32);
            if let Some(a) = (0..z).rev().find_map(|l| geo.at(x, y, l)) {
                *u = a as u8;
            }
            if let Some(b) = (z + 1..4).find_map(|l| geo.at(x, y, l)) {
                *d = b as u8;
            }
        }
        let vertical = |c: Cell| -> Bb {
            [up[c], down[c]]
                .into_iter()
                .filter(|&v| v != NO_CELL)
                .map(|v| v as Cell)
                .collect()
        };
        let king_planar = geo.leap_table(&DIRECTIONS);
        let king: [Bb; CELLS] = std::array::from_fn(|c| king_planar[c] | vertical(c));
        let knight_planar = geo.leap_table(&[
            [1, 2, 0],
            [2, 1, 0],
            [-1, 2, 0],
            [-2, 1, 0],
            [1, -2, 0],
            [2, -1, 0],
            [-1, -2, 0],
            [-2, -1, 0],
        ]);
        let knight: [Bb; CELLS] = std::array::from_fn(|c| {
            // Level leap: two squares orthogonally to an overlapping square of the own level,
            // landing on the adjoining level(s) there, never on the own level.
            let mut t = knight_planar[c];
            for v in [[2, 0, 0], [-2, 0, 0], [0, 2, 0], [0, -2, 0]] {
                if let Some(s) = geo.step(c, v) {
                    t |= vertical(s);
                }
            }
            t
        });
        let knight_from = reverse(&knight);
        let rook = PathTrees::build(&geo, &up, &down, &ROOK_DIRS);
        let bishop = PathTrees::build(&geo, &up, &down, &BISHOP_DIRS);
        let pawn = [
            PawnTables::build(&geo, &up, &down, Colour::WHITE),
            PawnTables::build(&geo, &up, &down, Colour::BLACK),
        ];
        Tables {
            zobrist: Zobrist::new("podionic", CELLS, 0),
            geo,
            up,
            down,
            king,
            knight,
            knight_from,
            rook,
            bishop,
            pawn,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(name: &str) -> Cell {
        TABLES.geo.parse_name(name).unwrap()
    }

    fn above(name: &str) -> Option<String> {
        let u = TABLES.up[cell(name)];
        (u != NO_CELL).then(|| TABLES.geo.name(u as Cell))
    }

    #[test]
    fn stacks_follow_the_rules_file() {
        // The central column: A over B over C over D.
        assert_eq!(above("Dd4").as_deref(), Some("Cd4"));
        assert_eq!(above("Cd4").as_deref(), Some("Bd4"));
        assert_eq!(above("Bd4").as_deref(), Some("Ad4"));
        assert_eq!(above("Ad4"), None);
        // a4-c4: A directly over D; d1-d3: C over D; e4-g4: B over C; d5-d7: A over B.
        assert_eq!(above("Db4").as_deref(), Some("Ab4"));
        assert_eq!(above("Dd2").as_deref(), Some("Cd2"));
        assert_eq!(above("Cf4").as_deref(), Some("Bf4"));
        assert_eq!(above("Bd6").as_deref(), Some("Ad6"));
        assert_eq!(above("Da3"), None);
        // 13 overlapping squares: one link each, three at d4.
        let links = TABLES.up.iter().filter(|&&u| u != NO_CELL).count();
        assert_eq!(links, 12 + 3);
        for c in 0..CELLS {
            let u = TABLES.up[c];
            if u != NO_CELL {
                assert_eq!(TABLES.down[u as Cell] as Cell, c);
            }
        }
    }

    #[test]
    fn knight_reverse_table_inverts_the_forward_table() {
        for from in 0..CELLS {
            for to in 0..CELLS {
                assert_eq!(
                    TABLES.knight[from].contains(to),
                    TABLES.knight_from[to].contains(from)
                );
            }
        }
    }
}
