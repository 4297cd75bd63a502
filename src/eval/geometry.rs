//! Evaluation terms computed from a variant's geometry instead of hand-written tables.

use crate::rules::bitset::{BitSet, Cell};
use crate::rules::geometry::Geometry;
use crate::rules::zobrist::SplitMix64;

/// Piece values follow `VALUE_SCALE * mobility ^ VALUE_EXPONENT` (see [`value_from_mobility`]).
const VALUE_SCALE: f64 = 73.7;
/// See [`VALUE_SCALE`].
const VALUE_EXPONENT: f64 = 0.885;
/// Random half-filled boards averaged for a typical mobility, and their generator's seed.
const OCCUPANCY_SAMPLES: usize = 8;
/// See [`OCCUPANCY_SAMPLES`].
const OCCUPANCY_SEED: u64 = 0x5EED;

/// For each cell, how central it is: 1.0 at the centre of the board's cells, 0.0 at the cell
/// farthest from it (Euclidean distance in (file, rank, level) space). Works for any board:
/// 2D, stacked levels, or levels of different sizes.
pub fn centrality<const W: usize>(geo: &Geometry<W>) -> Vec<f64> {
    let n = geo.cells();
    let coords: Vec<[f64; 3]> = (0..n)
        .map(|c| {
            let k = geo.coord(c);
            [k.x as f64, k.y as f64, k.z as f64]
        })
        .collect();
    let mut centre = [0.0; 3];
    for c in &coords {
        for i in 0..3 {
            centre[i] += c[i] / n as f64;
        }
    }
    let dist: Vec<f64> = coords
        .iter()
        .map(|c| {
            ((c[0] - centre[0]).powi(2) + (c[1] - centre[1]).powi(2) + (c[2] - centre[2]).powi(2))
                .sqrt()
        })
        .collect();
    let max = dist.iter().cloned().fold(0.0, f64::max).max(1e-9);
    dist.iter().map(|d| 1.0 - d / max).collect()
}

/// The average number of cells a piece reaches, over every cell of an empty board, given a
/// function listing its targets from a cell. Piece values of the 3D variants are derived from
/// this (see each variant's evaluation).
pub fn average_mobility(cells: usize, targets: impl Fn(Cell) -> u32) -> f64 {
    (0..cells).map(|c| targets(c) as f64).sum::<f64>() / cells.max(1) as f64
}

/// A piece's typical mobility: the mean of its average number of targets on an empty board
/// and on boards where every cell is occupied with probability 1/2 (about the density of an
/// opening position). `targets(cell, occupied)` lists its targets; `occupied` never contains
/// `cell`.
pub fn typical_mobility<const W: usize>(
    geo: &Geometry<W>,
    targets: impl Fn(Cell, BitSet<W>) -> BitSet<W>,
) -> f64 {
    let cells = geo.cells();
    let empty = average_mobility(cells, |c| targets(c, BitSet::EMPTY).len());
    let mut rng = SplitMix64(OCCUPANCY_SEED);
    let samples = OCCUPANCY_SAMPLES;
    let mut half = 0.0;
    for _ in 0..samples {
        let mut occ = BitSet::EMPTY;
        for c in 0..cells {
            if rng.next_u64() & 1 == 1 {
                occ.insert(c);
            }
        }
        half += average_mobility(cells, |c| {
            let mut o = occ;
            o.remove(c);
            targets(c, o).len()
        });
    }
    (empty + half / samples as f64) / 2.0
}

/// A piece value in centipawns from its typical mobility: `73.7 * m^0.885`, the power law
/// through chess's Knight (typical mobility 5.25, 320 cp) and Queen (16.9, 900 cp). On the
/// chess board it gives Bishop 381 and Rook 579; on 3D boards it prices the many new pieces
/// consistently with each other.
pub fn value_from_mobility(mobility: f64) -> i32 {
    (VALUE_SCALE * mobility.powf(VALUE_EXPONENT)).round() as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::chess::tables::{TABLES, bishop_attacks, rook_attacks};

    #[test]
    fn chess_values_from_mobility_are_sensible() {
        let v = |f: &dyn Fn(Cell, BitSet<1>) -> BitSet<1>| {
            value_from_mobility(typical_mobility(&TABLES.geo, f))
        };
        let knight = v(&|c, _| TABLES.knight[c]);
        let bishop = v(&|c, o| bishop_attacks(&TABLES, c, o));
        let rook = v(&|c, o| rook_attacks(&TABLES, c, o));
        let queen = v(&|c, o| rook_attacks(&TABLES, c, o) | bishop_attacks(&TABLES, c, o));
        assert!((300..=340).contains(&knight), "{knight}");
        assert!((330..=420).contains(&bishop), "{bishop}");
        assert!((500..=620).contains(&rook), "{rook}");
        assert!((850..=950).contains(&queen), "{queen}");
    }

    #[test]
    fn centre_squares_are_most_central() {
        let c = centrality(&TABLES.geo);
        let e4 = TABLES.geo.parse_name("e4").unwrap();
        let a1 = TABLES.geo.parse_name("a1").unwrap();
        let b2 = TABLES.geo.parse_name("b2").unwrap();
        assert!(c[e4] > 0.8 && c[a1] < 0.01 && c[b2] > c[a1] && c[e4] > c[b2]);
        let knight = average_mobility(64, |s| TABLES.knight[s].len());
        assert!((knight - 5.25).abs() < 1e-9);
    }
}
