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

/// The lowest `UCI_Elo`: level 0 in chess.
pub const MIN_ELO: i64 = 400;
/// The highest `UCI_Elo`: full strength in chess, the top of its ladder (2430, measured at
/// 10 s + 0.1 s a game; it is stronger at longer time controls).
pub const MAX_ELO: i64 = {
    let chess = crate::rules::chess::info::CHESS.strength;
    chess[chess.len() - 1].1 as i64
};
/// The default `UCI_Elo` (used only with `UCI_LimitStrength true`).
pub const DEFAULT_ELO: i64 = 1500;

/// (level, Elo) points of a variant's ladder, levels and Elo both increasing.
type Ladder = &'static [(f64, f64)];

// The ladders are measured data and live with each variant (`VariantInfo::strength`). How
// they were measured (docs/results.md, "Strength levels"; scripts/calibrate_strength.py):
//
// Chess: the levels that score 50% against Stockfish 15.1 at UCI_Elo 1450 and 1700 (each
// between two measured levels) and 1900 (levels 13 and 15 both scored below 50%: the line
// through them, 200 games at level 15), level 17 by its score against Stockfish 2200, the
// levels that score 50% against Stockfish 2100 (17.79, on the line between two levels
// measured against it) and 2200 (18.94, on the line through 19.14 and 19.35, both measured
// above it on today's search) and 2300 and 2400 (19.72, 19.97: taking one ply of Stockfish as
// 100 Elo, which is rough; docs/results.md), full strength (level 20) at 2430
// (strata against Stockfish 2400 at 10+0.1, 600 games), and below 1450 the self-play steps
// 0-3-5-7 counted down from level 7 (1622, between the 1450 and 1700 points). Between 19 and
// 20 the handicap fades out (skill.rs).
//
// The other variants: self-play steps between levels, anchored by giving level 10 its chess
// Elo (1768); above a ladder's top the engine plays at full strength. Polyhedron's levels
// between 6 and 7 (where the two-ply minimum is drawn) were measured inside that band by
// UCI_Elo pairs; future-generation's ladder is that of its four-ply round (skill.rs),
// measured again with its refitted weights, and pentaplane's with its third round of weights.

/// The ladder of `variant`. A variant without a measured one (a variant from a file) takes
/// that of the built-in 3D variant whose engine is closest: Polyhedron's board and pieces are
/// what file variants are built from.
fn ladder(variant: Variant) -> Ladder {
    match variant.info().strength {
        [] => Variant::Polyhedron.info().strength,
        measured => measured,
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
    fn the_top_of_uci_elo_is_full_strength_in_chess() {
        use crate::search::skill::FULL_LEVEL;
        let chess = ladder(Variant::Chess);
        assert_eq!(chess[chess.len() - 1], (FULL_LEVEL, MAX_ELO as f64));
        assert_eq!(MAX_ELO, 2430);
        assert_eq!(level_for(Variant::Chess, MAX_ELO), FULL_LEVEL);
        assert!(level_for(Variant::Chess, MAX_ELO - 1) < FULL_LEVEL);
    }

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
