//! The strength options: `Skill Level`, `UCI_LimitStrength`, `UCI_Elo` and `Seed`, turned
//! into the search's handicap ([`Skill`]) for each `go`.
//!
//! As in Stockfish, `UCI_Elo` acts only with `UCI_LimitStrength true`, and then overrides
//! `Skill Level`. The randomness of the weakened levels is drawn from a generator seeded per
//! game: from `Seed` when it is not 0 (at every `ucinewgame` and when `Seed` is set, so that a
//! game can be played again move for move), else from the system's entropy.

use rand::rngs::StdRng;
use rand::{RngCore, SeedableRng};

use crate::rules::Variant;
use crate::search::elo;
use crate::search::skill::{FULL_LEVEL, Skill};

/// The strength options' values and the game's random generator.
pub struct Strength {
    skill_level: i64,
    limit_strength: bool,
    elo: i64,
    seed: u64,
    rng: StdRng,
}

impl Default for Strength {
    fn default() -> Self {
        Strength {
            skill_level: FULL_LEVEL as i64,
            limit_strength: false,
            elo: elo::DEFAULT_ELO,
            seed: 0,
            rng: StdRng::from_entropy(),
        }
    }
}

impl Strength {
    /// `Skill Level` (0..=20).
    pub fn set_skill_level(&mut self, level: i64) {
        self.skill_level = level;
    }

    /// `UCI_LimitStrength`.
    pub fn set_limit_strength(&mut self, on: bool) {
        self.limit_strength = on;
    }

    /// `UCI_Elo`.
    pub fn set_elo(&mut self, elo: i64) {
        self.elo = elo;
    }

    /// `Seed` (0: a fresh random seed each game).
    pub fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
        self.new_game();
    }

    /// `ucinewgame`: the generator starts again from `Seed` when one is given.
    pub fn new_game(&mut self) {
        if self.seed != 0 {
            self.rng = StdRng::seed_from_u64(self.seed);
        }
    }

    /// The level the options ask for in `variant` (20: full strength).
    pub fn level(&self, variant: Variant) -> f64 {
        if self.limit_strength {
            elo::level_for(variant, self.elo)
        } else {
            self.skill_level as f64
        }
    }

    /// The handicap of the next search in `variant`, with its random draw; `None` at full
    /// strength.
    pub fn next_search(&mut self, variant: Variant) -> Option<Skill> {
        let mut skill = Skill::at(self.level(variant), variant.colours())?;
        skill.random = self.rng.next_u64();
        Some(skill)
    }
}
