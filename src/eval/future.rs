//! Evaluation of Chess – The Future Generation: four colours in two teams.
//!
//! The shared terms of [`super::standard`] for every colour still in the game (an eliminated
//! colour's pieces are inert obstacles and count for nobody), summed per team; values from
//! typical mobility on the four-level board (a crowned Knight is worth more than a plain
//! one); pawn progress in each colour's own forward direction; and two variant terms: a
//! colour that has unlocked the far levels gains, and a King attacked by the other team (which
//! captures Kings) is in danger. Every kind but the King has its own material and mobility
//! term ([`super::standard::Profile::with_kind_terms`]), so that the fitted weights set each
//! kind's value and mobility.

use std::sync::LazyLock;

use super::geometry::typical_mobility;
use super::standard::{FIRST_OWN_TERM, Profile, reach_terms, record, side_terms, standard_terms};
use super::weights;
use super::{ClockPlan, Evaluate, Score, Trace};
use crate::rules::Game;
use crate::rules::future::FuturePosition;
use crate::rules::future::tables::{Bb, TABLES, bishop_attacks, kind, rook_attacks};
use crate::rules::piece::{Colour, Piece};

const KINDS: usize = 7;

/// A colour that has unlocked the far levels.
const UNLOCKED: Score = Score(30, 20);
/// A King the other team attacks (Kings are captured in this variant).
const KING_ATTACKED: Score = Score(-150, -150);
/// The side to move's bonus.
const TEMPO: i32 = 20;
/// The evaluation's terms: the shared ones, then this variant's, then material and mobility
/// per kind.
const TERMS: &[&str] = standard_terms!(
    "unlocked",
    "king attacked",
    "pawn material",
    "knight material",
    "crowned knight material",
    "bishop material",
    "rook material",
    "queen material",
    "knight mobility",
    "crowned knight mobility",
    "bishop mobility",
    "rook mobility",
    "queen mobility"
);
const UNLOCKED_TERM: usize = FIRST_OWN_TERM;
const KING_ATTACKED_TERM: usize = FIRST_OWN_TERM + 1;
/// The kinds with their own material (and mobility) terms: all but the King.
const KIND_TERMS: &[(u8, &str)] = &[
    (kind::PAWN, "pawn"),
    (kind::KNIGHT, "knight"),
    (kind::CROWNED, "crowned knight"),
    (kind::BISHOP, "bishop"),
    (kind::ROOK, "rook"),
    (kind::QUEEN, "queen"),
];

static PROFILE: LazyLock<Profile> = LazyLock::new(|| {
    let t = &*TABLES;
    let typical: Vec<Option<f64>> = (0..KINDS as u8)
        .map(|k| {
            Some(match k {
                kind::PAWN => 0.0,
                kind::KNIGHT => typical_mobility(&t.geo, |c, _| t.knight[c]),
                kind::CROWNED => typical_mobility(&t.geo, |c, _| t.crowned[c]),
                kind::BISHOP => typical_mobility(&t.geo, |c, o| bishop_attacks(t, c, o)),
                kind::ROOK => typical_mobility(&t.geo, |c, o| rook_attacks(t, c, o)),
                kind::QUEEN => typical_mobility(&t.geo, |c, o| {
                    rook_attacks(t, c, o) | bishop_attacks(t, c, o)
                }),
                _ => typical_mobility(&t.geo, |c, _| t.king[c]),
            })
        })
        .collect();
    let leaper: Vec<bool> = (0..KINDS as u8)
        .map(|k| k == kind::KNIGHT || k == kind::CROWNED)
        .collect();
    // Forward: White +y, Black -y, Gold -x, Silver +x; pawns start one step from home.
    let progress = |colour: usize| -> Vec<f64> {
        (0..t.geo.cells())
            .map(|c| {
                let k = t.geo.coord(c);
                let (x, y) = (k.x as f64, k.y as f64);
                let steps = match colour {
                    0 => y - 1.0,
                    1 => 6.0 - y,
                    2 => 6.0 - x,
                    _ => x - 1.0,
                };
                (steps / 6.0).clamp(0.0, 1.0)
            })
            .collect()
    };
    Profile::new(
        &t.geo,
        &typical,
        &leaper,
        Some(kind::PAWN),
        kind::KING,
        [progress(0), progress(1), progress(2), progress(3)],
        weights::builtin(
            "future-generation",
            TERMS,
            include_str!("weights/future-generation.txt"),
        ),
    )
    .with_start(FuturePosition::startpos().board())
    .with_kind_terms(KIND_TERMS)
});

/// This variant's evaluation weights.
pub fn weights() -> &'static super::weights::Weights {
    &PROFILE.weights
}

impl FuturePosition {
    /// The zone around `c`'s King (empty when it is gone or its colour eliminated).
    fn king_zone(&self, c: Colour) -> Bb {
        match self.king_cell(c) {
            Some(k) if !self.is_eliminated(c) => TABLES.king[k],
            _ => Bb::EMPTY,
        }
    }

    /// The zones around `us`'s King and around the other team's Kings.
    fn zones(&self, us: Colour) -> (Bb, Bb) {
        let enemy = self.king_zone(Colour(us.0 ^ 1)) | self.king_zone(Colour(us.0 ^ 3));
        (self.king_zone(us), enemy)
    }

    /// `us`'s King attacked by the other team (which captures Kings).
    fn danger(&self, us: Colour) -> Score {
        match self.king_cell(us) {
            Some(k) if self.attacked_by_team(k, 1 - us.team()) => KING_ATTACKED,
            _ => Score::default(),
        }
    }

    /// The terms of `us` a network blends with ([`Evaluate::blend_terms`]): mobility, King
    /// shelter, attack on the enemy Kings' zones, and its own King attacked.
    fn reach_safety(&self, us: Colour, phase: &mut i32) -> Score {
        let (own_zone, enemy_zone) = self.zones(us);
        let reach = |c| self.piece_reach(c);
        let shared = reach_terms(
            &PROFILE,
            self.board(),
            us,
            reach,
            own_zone,
            enemy_zone,
            phase,
        );
        shared + PROFILE.weights.apply(KING_ATTACKED_TERM, self.danger(us))
    }

    fn colour_terms<T: Trace>(&self, us: Colour, trace: &mut T, phase: &mut i32) -> Score {
        let (own_zone, enemy_zone) = self.zones(us);
        let reach = |c| self.piece_reach(c);
        let shared = side_terms(
            &PROFILE,
            self.board(),
            us,
            reach,
            own_zone,
            enemy_zone,
            trace,
            phase,
        );
        let unlocked = if self.is_unlocked(us) {
            UNLOCKED
        } else {
            Score::default()
        };
        let w = &PROFILE.weights;
        shared
            + record(trace, w, UNLOCKED_TERM, us, unlocked)
            + record(trace, w, KING_ATTACKED_TERM, us, self.danger(us))
    }
}

impl Evaluate for FuturePosition {
    fn weights(&self) -> Option<&'static super::weights::Weights> {
        Some(weights())
    }

    fn evaluate_with<T: Trace>(&self, trace: &mut T) -> i32 {
        let mut phase_sum = 0;
        let mut team = [Score::default(); 2];
        for c in 0..4u8 {
            let colour = Colour(c);
            if self.is_eliminated(colour) {
                continue;
            }
            team[colour.team()] += self.colour_terms(colour, trace, &mut phase_sum);
        }
        PROFILE.finish(
            team[0],
            team[1],
            phase_sum,
            self.team_to_move() == 0,
            TEMPO,
            trace,
        )
    }

    /// A network blends with the terms that come from the pieces' reach (mobility and King
    /// safety) and the King attacked: it learns material, placement and pawn progress from
    /// its inputs, but not these, and they cost a fraction of the whole.
    fn blend_terms_name(&self) -> &'static str {
        "reach"
    }

    fn blend_terms(&self) -> i32 {
        let mut phase_sum = 0;
        let mut team = [Score::default(); 2];
        for c in 0..4u8 {
            let colour = Colour(c);
            if !self.is_eliminated(colour) {
                team[colour.team()] += self.reach_safety(colour, &mut phase_sum);
            }
        }
        PROFILE.finish(
            team[0],
            team[1],
            phase_sum,
            self.team_to_move() == 0,
            TEMPO,
            &mut super::NoTrace,
        )
    }

    fn piece_value(&self, piece: Piece) -> i32 {
        PROFILE.piece_value(piece)
    }

    fn null_move_safe(&self) -> bool {
        PROFILE.has_pieces(self.board(), self.side_to_move())
    }

    fn defended_by(&self, cell: crate::rules::bitset::Cell, colour: Colour) -> bool {
        self.attacked_by_team(cell, colour.team())
    }

    /// The chess clock plan with this variant's own search: +74.1 +/- 44.8 Elo at 5 s +
    /// 0.05 s over 200 games (docs/engine.md).
    fn clock_plan(&self) -> ClockPlan {
        ClockPlan::Chess
    }
}

#[cfg(test)]
mod tests {
    use super::super::NoTrace;
    use super::super::standard::RawTerms;
    use super::*;

    #[test]
    fn start_is_balanced_and_crowned_knights_are_worth_more() {
        // The terms (the build's default, `evaluate`, is the embedded network's blend).
        assert_eq!(FuturePosition::startpos().evaluate_with(&mut NoTrace), 20);
        let v = |k: u8| PROFILE.value[k as usize];
        assert!(v(kind::CROWNED) > v(kind::KNIGHT));
        assert!(v(kind::QUEEN) > v(kind::ROOK) && v(kind::ROOK) > v(kind::PAWN));
    }

    #[test]
    fn each_kind_has_its_own_material_and_mobility_term() {
        let (p, raw) = RawTerms::after_plies(FuturePosition::startpos(), 8);
        let sum = |name: &str, team: usize| raw.sum(TERMS, name, team);
        for team in 0..2 {
            for &(k, name) in KIND_TERMS {
                let count: i32 = (0..4u8)
                    .map(Colour)
                    .filter(|c| c.team() == team && !p.is_eliminated(*c))
                    .map(|c| p.board().pieces(k, c).len() as i32)
                    .sum();
                // No Knight is crowned at the start.
                assert!(count > 0 || k == kind::CROWNED, "{name}");
                let v = PROFILE.value[k as usize] * count;
                assert_eq!(
                    sum(&format!("{name} material"), team),
                    Score(v, v),
                    "{name}"
                );
            }
            // Every kind but the King has its own terms, so the shared ones count nothing.
            assert_eq!(sum("material", team), Score::default());
            assert_eq!(sum("mobility", team), Score::default());
        }
        let mobility: Vec<Score> = ["knight", "bishop", "rook", "queen"]
            .iter()
            .map(|k| sum(&format!("{k} mobility"), 0) + sum(&format!("{k} mobility"), 1))
            .collect();
        assert!(
            mobility.iter().any(|s| *s != Score::default()),
            "{mobility:?}"
        );
    }

    /// The terms a network blends with are exactly the full evaluation's mobility and King
    /// terms (shelter, attack on the enemy Kings, own King attacked), tapered at its phase,
    /// plus the tempo: along random games, including ones where a colour is eliminated and
    /// where Kings come under attack.
    #[test]
    fn a_network_blends_with_the_mobility_and_king_terms_alone() {
        use super::super::Breakdown;
        use crate::rules::MoveList;
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        let (mut attacked, mut eliminated, mut differs) = (false, false, false);
        for _ in 0..12 {
            let mut p = FuturePosition::startpos();
            for _ in 0..300 {
                let mut full = Breakdown::default();
                let all = p.evaluate_with(&mut full);
                let mut team = [Score::default(); 2];
                for &(name, t0, t1) in &full.terms {
                    let kept = ["king shelter", "king attack", "king attacked"].contains(&name)
                        || name.ends_with("mobility");
                    if kept {
                        team[0] += t0;
                        team[1] += t1;
                        attacked |= name == "king attack" && (t0, t1) != Default::default();
                    }
                }
                let v = (team[0] - team[1]).taper(full.phase);
                let v = if p.team_to_move() == 0 { v } else { -v };
                assert_eq!(p.blend_terms(), v + TEMPO, "{}", p.fen());
                differs |= p.blend_terms() != all;
                eliminated |= (0..4).any(|c| p.is_eliminated(Colour(c)));
                let mut list = MoveList::new();
                p.generate(&mut list);
                if list.is_empty() || p.outcome().is_some() {
                    break;
                }
                p.make(list.as_slice()[rng.gen_range(0..list.len())]);
            }
        }
        assert_eq!((attacked, eliminated, differs), (true, true, true));
    }
}
