//! Playing weaker on purpose, for people: `Skill Level` and `UCI_Elo`.
//!
//! A level is a number from 0 (a beginner) to 20 (full strength, no handicap); fractional
//! levels come from `UCI_Elo`. A weaker level plays as a weaker player does rather than as a
//! strong engine that blunders at random:
//!
//! - it looks less far ahead: its search stops after a number of nodes that halves every
//!   [`LEVELS_PER_HALVING`] levels below 20 (from [`TOP_NODES`] at level 19 to about 550 at
//!   level 0), whatever the clock allows, so it answers quickly at any time control; but from
//!   level [`SAFE_LEVEL`] up it always completes a round, one move of each colour (two
//!   plies, or four with four colours), so that it sees a mate in one (or a King capture by
//!   either opponent) coming. Below, one ply is enough: in the 3D variants, where a round
//!   takes more nodes than the weakest levels' limits, this is what makes those levels weaker
//!   than the middle ones. With two colours the round is required in a share of the searches
//!   that rises from level 6 to 7; with four, from level 0 to 7, because there every level
//!   that does not see the second opponent's reply plays alike (levels 0 to 10 of
//!   `future-generation` measured within 130 Elo of each other when their round was two
//!   plies);
//! - it weighs the best few root moves ([`CANDIDATES`], and more below [`SAFE_LEVEL`]: up to
//!   [`MAX_CANDIDATES`] at level 0) loosely: each candidate's appeal is
//!   its score pulled towards the best score by a share that grows as the level falls, plus a
//!   random amount of at most about a pawn, and the most appealing is played. A move much
//!   worse than the best (a lost piece, a mate against it) keeps a low appeal and is not
//!   played; among moves close in value the weaker levels choose almost at random. Between
//!   levels 19 and 20 this looseness fades to nothing, so that the top of `UCI_Elo` reaches
//!   full strength by degrees.
//!
//! This is the scheme of Stockfish's skill levels (a multi-PV search, then a weakness-spread
//! choice), with a node limit in place of Stockfish's depth limit so that a level means the
//! same on any machine. How levels map to Elo is measured per variant (`elo.rs`).

use crate::rules::Move;

/// The level of full strength: no handicap.
pub const FULL_LEVEL: f64 = 20.0;
/// The root moves a weakened search scores (its MultiPV at least).
pub const CANDIDATES: usize = 4;
/// The root moves level 0 scores: a beginner considers more moves as equally good.
pub const MAX_CANDIDATES: usize = 12;
/// A weakened search from this level up always completes a round (one move of each colour);
/// below it, one ply, or a round in a share of its searches (see [`Skill::min_depth`]).
pub const SAFE_LEVEL: f64 = 7.0;
/// The node limit of level 19 ...
pub const TOP_NODES: f64 = 400_000.0;
/// ... which halves every this many levels below.
pub const LEVELS_PER_HALVING: f64 = 2.0;
/// The random part of a candidate's appeal is at most this many centipawns (at level 0; less
/// above) ...
const MAX_NOISE_CP: i32 = 100;

/// A handicap: the level, and the random number this search draws from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Skill {
    /// From 0 (weakest) to below [`FULL_LEVEL`].
    pub level: f64,
    /// Drawn by the caller for each search (seeded per game).
    pub random: u64,
    /// The plies of a round, one move of each colour: the variant's colours (2 or 4).
    pub round: i32,
}

impl Skill {
    /// The handicap of `level` in a variant of `colours` colours, or `None` at full strength.
    pub fn at(level: f64, colours: usize) -> Option<Skill> {
        (level < FULL_LEVEL).then_some(Skill {
            level: level.max(0.0),
            random: 0,
            round: colours as i32,
        })
    }

    /// The most nodes a search at this level may count.
    pub fn node_limit(&self) -> u64 {
        let halvings = (FULL_LEVEL - 1.0 - self.level) / LEVELS_PER_HALVING;
        (TOP_NODES / 2f64.powf(halvings)).round().max(1.0) as u64
    }

    /// The plies a search at this level always completes, whatever its node limit: a round
    /// from [`SAFE_LEVEL`] up, one ply below the band of `Skill::safe_band` levels under it,
    /// and within the band a round in the share of the searches (drawn from `random`) that
    /// the level has climbed of it, so that the levels there play between the two.
    pub fn min_depth(&self) -> i32 {
        let band = self.safe_band();
        let share = (self.level - (SAFE_LEVEL - band)) / band;
        let draw = (splitmix(self.random ^ 0x5AFE) % 1024) as f64 / 1024.0;
        if share >= 1.0 || draw < share {
            self.round
        } else {
            1
        }
    }

    /// The levels below [`SAFE_LEVEL`] over which the round becomes required: one with two
    /// colours; with four, all of them, as every level that searches one ply plays alike
    /// there, and the round's four plies are what tell the levels apart.
    fn safe_band(&self) -> f64 {
        if self.round > 2 { SAFE_LEVEL } else { 1.0 }
    }

    /// The root moves this level scores and chooses among: [`CANDIDATES`] from
    /// [`SAFE_LEVEL`] up, rising to [`MAX_CANDIDATES`] at level 0.
    pub fn candidates(&self) -> usize {
        let below = ((SAFE_LEVEL - self.level) / SAFE_LEVEL).clamp(0.0, 1.0);
        CANDIDATES + (below * (MAX_CANDIDATES - CANDIDATES) as f64).round() as usize
    }

    /// How loosely candidates are weighed, out of 128: 120 at level 0, 82 at level 19 (a
    /// candidate's distance below the best counts for (128 - weakness) / 128 of its value).
    /// Between 19 and 20 it fades to 0, so that `UCI_Elo` reaches full strength through
    /// levels that play ever closer to it rather than by a jump: at level 19.5 it is 41, and
    /// just below 20 the best candidate is played (with no noise either, which scales with
    /// the weakness).
    fn weakness(&self) -> i64 {
        let fade = (FULL_LEVEL - self.level).clamp(0.0, 1.0);
        ((120.0 - 2.0 * self.level) * fade).round() as i64
    }

    /// The index of the candidate to play among `scores` (best first, at least one).
    pub fn choose(&self, scores: &[i32]) -> usize {
        let Some(&top) = scores.first() else {
            return 0;
        };
        let worst = *scores.last().unwrap_or(&top);
        let weakness = self.weakness();
        // The noise scales with how far apart the candidates are, up to about a pawn.
        let spread = i64::from((top - worst).clamp(0, MAX_NOISE_CP));
        let mut state = self.random;
        let mut best = (0, i64::MIN);
        for (i, &score) in scores.iter().enumerate() {
            state = splitmix(state);
            let noise = spread * (state % weakness.max(1) as u64) as i64;
            let pulled = i64::from(score) * 128 + weakness * i64::from(top - score);
            let appeal = pulled + noise;
            if appeal > best.1 {
                best = (i, appeal);
            }
        }
        best.0
    }
}

/// A step of SplitMix64: a fresh pseudo-random number from the last.
fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A candidate for [`Skill::choose`]: a root move, its score and its expected reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The root move.
    pub mv: Move,
    /// Its score at the last completed depth.
    pub score: i32,
    /// Its principal variation (starting with `mv`).
    pub pv: Vec<Move>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_limits_grow_with_the_level() {
        let n = |l: f64| Skill::at(l, 2).unwrap().node_limit();
        assert_eq!(n(19.0), 400_000);
        assert_eq!(n(17.0), 200_000);
        assert_eq!(n(0.0), 552);
        assert!(n(10.5) > n(10.0));
        assert!(Skill::at(20.0, 2).is_none());
        let c = |l: f64| Skill::at(l, 2).unwrap().candidates();
        assert_eq!(
            (c(0.0), c(7.0), c(19.0)),
            (MAX_CANDIDATES, CANDIDATES, CANDIDATES)
        );
        assert!(c(3.0) > CANDIDATES && c(3.0) < MAX_CANDIDATES);
    }

    /// Of 1000 searches at `level` with a round of `round` plies, those required to
    /// complete the round.
    fn rounds_required(level: f64, round: i32) -> usize {
        (0..1000u64)
            .filter(|&r| {
                let s = Skill {
                    level,
                    random: r.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                    round,
                };
                let depth = s.min_depth();
                assert!(depth == 1 || depth == round);
                depth == round
            })
            .count()
    }

    #[test]
    fn with_two_colours_the_round_is_drawn_between_levels_6_and_7() {
        let twice = |level| rounds_required(level, 2);
        assert_eq!(twice(6.0), 0);
        assert_eq!(twice(7.0), 1000);
        assert_eq!(twice(12.0), 1000);
        assert!((350..650).contains(&twice(6.5)), "{}", twice(6.5));
    }

    #[test]
    fn with_four_colours_the_round_is_drawn_from_level_0_to_7() {
        let four = |level| rounds_required(level, 4);
        assert_eq!(four(0.0), 0);
        assert!((400..600).contains(&four(3.5)), "{}", four(3.5));
        assert!(four(6.0) > four(3.5));
        assert_eq!(four(7.0), 1000);
        assert_eq!(four(12.0), 1000);
    }

    #[test]
    fn a_much_worse_move_is_never_chosen() {
        // A mate against the third candidate: never played, whatever the draw.
        let scores = [30, 10, -31_990, -32_000];
        for level in [0.0, 5.0, 10.0, 19.0] {
            for r in 0..2000u64 {
                let s = Skill {
                    level,
                    random: r.wrapping_mul(0x2545_F491_4F6C_DD1D),
                    round: 2,
                };
                assert!(s.choose(&scores) < 2, "level {level}, draw {r}");
            }
        }
    }

    #[test]
    fn weak_levels_vary_among_close_moves_and_strong_ones_less() {
        let scores = [40, 30, 10, -20];
        let spread = |level: f64| {
            let mut counts = [0; 4];
            for r in 0..4000u64 {
                let s = Skill {
                    level,
                    random: r.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                    round: 2,
                };
                counts[s.choose(&scores)] += 1;
            }
            counts
        };
        let weak = spread(0.0);
        let strong = spread(19.0);
        assert!(weak.iter().all(|&c| c > 300), "level 0: {weak:?}");
        assert!(strong[0] > weak[0], "{strong:?} vs {weak:?}");
        assert!(strong[3] < weak[3], "{strong:?} vs {weak:?}");
        // Between 19 and 20 the handicap fades: more of the best move at 19.5, and only the
        // best just below full strength.
        let fading = spread(19.5);
        assert!(fading[0] > strong[0], "{fading:?} vs {strong:?}");
        assert_eq!(spread(19.99), [4000, 0, 0, 0]);
    }
}
