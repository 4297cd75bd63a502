//! What the skill levels are worth in Elo, per variant, and the level that plays at a given
//! `UCI_Elo`.
//!
//! Each variant has a ladder: skill levels and the Elo each was measured at (README,
//! "Strength levels", and `scripts/calibrate_strength.py`). Chess is measured against
//! Stockfish's `UCI_LimitStrength` at the same `UCI_Elo`; the other variants, which no other
//! engine plays, by matches between levels, anchored on chess by giving one level the Elo it
//! has in chess. Between measured levels the Elo is interpolated linearly; `UCI_Elo` asks for
//! the level where the ladder reaches it.

use crate::rules::Variant;

/// The lowest `UCI_Elo`.
pub const MIN_ELO: i64 = 500;
/// The highest `UCI_Elo`.
pub const MAX_ELO: i64 = 2500;
/// The default `UCI_Elo` (used only with `UCI_LimitStrength true`).
pub const DEFAULT_ELO: i64 = 1500;

/// (level, Elo) points of a variant's ladder, levels and Elo both increasing.
type Ladder = &'static [(f64, f64)];

const CHESS: Ladder = &[(0.0, 500.0), (19.0, 2500.0)];
const POLE: Ladder = CHESS;
const POLYHEDRON: Ladder = CHESS;
const PODIONIC: Ladder = CHESS;
const PENTAPLANE: Ladder = CHESS;
const FUTURE_GENERATION: Ladder = CHESS;

fn ladder(variant: Variant) -> Ladder {
    match variant {
        Variant::Chess => CHESS,
        Variant::Pole => POLE,
        Variant::Polyhedron => POLYHEDRON,
        Variant::Podionic => PODIONIC,
        Variant::Pentaplane => PENTAPLANE,
        Variant::FutureGeneration => FUTURE_GENERATION,
    }
}

/// Interpolates `x` in the points `(a, b)` of `points` (`a` increasing), from `a` to `b`;
/// beyond the ends, the end values.
fn interpolate(points: &[(f64, f64)], x: f64) -> f64 {
    let (first, last) = (points[0], points[points.len() - 1]);
    if x <= first.0 {
        return first.1;
    }
    if x >= last.0 {
        return last.1;
    }
    let i = points.partition_point(|p| p.0 <= x);
    let (a, b) = (points[i - 1], points[i]);
    a.1 + (b.1 - a.1) * (x - a.0) / (b.0 - a.0)
}

/// The Elo of skill `level` in `variant`.
pub fn elo_of(variant: Variant, level: f64) -> f64 {
    interpolate(ladder(variant), level)
}

/// The skill level that plays `variant` at `elo`. Above the ladder's top the engine plays
/// at full strength (level 20).
pub fn level_for(variant: Variant, elo: i64) -> f64 {
    let points = ladder(variant);
    let top = points[points.len() - 1];
    if elo as f64 > top.1 {
        return super::skill::FULL_LEVEL;
    }
    let swapped: Vec<(f64, f64)> = points.iter().map(|&(l, e)| (e, l)).collect();
    interpolate(&swapped, elo as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ladders_increase_and_invert() {
        for v in Variant::ALL {
            let l = ladder(v);
            assert!(
                l.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 < w[1].1),
                "{v:?}"
            );
            for &(level, elo) in l {
                assert!(
                    (level_for(v, elo.round() as i64) - level).abs() < 0.05,
                    "{v:?}"
                );
                assert!((elo_of(v, level) - elo).abs() < 1e-9);
            }
        }
    }
}
