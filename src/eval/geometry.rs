//! Evaluation terms computed from a variant's geometry instead of hand-written tables.

use crate::rules::bitset::Cell;
use crate::rules::geometry::Geometry;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::chess::tables::TABLES;

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
