//! Evaluation of file-defined variants, with no code per variant: the shared terms of
//! [`super::standard`] (material, centrality, mobility, pawn progress, King shelter and
//! attack), piece values from each piece's typical mobility on the variant's board (as the
//! built-in 3D evaluations derive them), pawn progress as the share of the way to the
//! promotion zone already made, and a small bonus per reserve piece usable for promotion.
//! The tables are built on first use and kept with the variant's rules.

use super::geometry::typical_mobility;
use super::standard::{FIRST_OWN_TERM, Profile, record, side_terms, standard_terms};
use super::weights::Weights;
use super::{Evaluate, Score, Trace};
use crate::rules::Game;
use crate::rules::defined::DefinedPosition;
use crate::rules::defined::rules::{Bb, Rules, class_vectors};
use crate::rules::piece::{Colour, Kind, Piece};

/// The side to move's bonus.
const TEMPO: i32 = 20;
/// The evaluation's terms: the shared ones, then the reserve (not fitted: every weight 1024).
const TERMS: &[&str] = standard_terms!("reserve");
const RESERVE_TERM: usize = FIRST_OWN_TERM;
/// Per reserve piece usable (as many as pawns are left).
const RESERVE_ITEM: Score = Score(10, 25);

/// A variant's evaluation tables.
pub struct DefinedEval {
    profile: Profile,
    /// Per cell, the cells one step away in any direction (a royal piece's zone).
    zone: Vec<Bb>,
}

/// Per colour and cell, how far a pawn has come: 0 where it is farthest from promotion, 1
/// next to it (breadth-first over the pawn's own steps and captures).
fn progress(r: &Rules, colour: Colour) -> Vec<f64> {
    let cells = r.geo.cells();
    let zone = r.promotion_zone[colour.idx()];
    let mut dist = vec![u32::MAX; cells];
    if zone.is_empty() {
        return vec![0.0; cells];
    }
    // Backwards from the zone: a cell is one further than a cell it can reach.
    let m = &r.movement[colour.idx()];
    let pawns: Vec<usize> = (0..r.kinds).filter(|&k| r.is_pawn(k as Kind)).collect();
    for c in zone {
        dist[c] = 0;
    }
    let mut changed = true;
    while changed {
        changed = false;
        for c in 0..cells {
            let best = pawns
                .iter()
                .flat_map(|&k| (m.leap_move[k][c] | m.leap_capture[k][c]).iter())
                .map(|n| dist[n])
                .min()
                .unwrap_or(u32::MAX);
            if best != u32::MAX && best + 1 < dist[c] {
                dist[c] = best + 1;
                changed = true;
            }
        }
    }
    let far = dist
        .iter()
        .filter(|&&d| d != u32::MAX)
        .max()
        .copied()
        .unwrap_or(1)
        .max(1);
    dist.iter()
        .map(|&d| {
            if d == u32::MAX {
                0.0
            } else {
                1.0 - d as f64 / far as f64
            }
        })
        .collect()
}

fn build(r: &'static Rules) -> DefinedEval {
    let pawn = (0..r.kinds as Kind).find(|&k| r.is_pawn(k));
    let king = r.royal_kind().unwrap_or(0);
    let typical: Vec<Option<f64>> = (0..r.kinds as Kind)
        .map(|k| {
            Some(if Some(k) == pawn {
                0.0
            } else {
                typical_mobility(&r.geo, |c, o| r.reach(Colour::WHITE, k, c, o))
            })
        })
        .collect();
    let leaper: Vec<bool> = (0..r.kinds)
        .map(|k| r.movement[0].slides[k].is_empty() && !r.is_royal(k as Kind))
        .collect();
    let start = DefinedPosition::startpos(r);
    let profile = Profile::new(
        &r.geo,
        &typical,
        &leaper,
        pawn,
        king,
        [
            progress(r, Colour::WHITE),
            progress(r, Colour::BLACK),
            vec![],
            vec![],
        ],
        Weights::neutral(TERMS),
    )
    .with_start(start.board());
    let zone = r.geo.leap_table(&class_vectors("all").expect("a class"));
    DefinedEval { profile, zone }
}

fn tables(r: &'static Rules) -> &'static DefinedEval {
    r.eval
        .get_or_init(|| Box::new(build(r)))
        .downcast_ref::<DefinedEval>()
        .expect("the evaluation's own tables")
}

impl DefinedPosition {
    /// The evaluation's values of this variant's pieces, by kind (for `eval` and tests).
    pub fn piece_values(&self) -> Vec<i32> {
        let t = tables(self.rules());
        (0..self.rules().kinds)
            .map(|k| t.profile.value[k])
            .collect()
    }

    fn colour_terms<T: Trace>(&self, us: Colour, trace: &mut T, phase: &mut i32) -> Score {
        let t = tables(self.rules());
        let them = us.flip();
        let zone_of = |c: Colour| {
            self.royals(c)
                .first()
                .map_or(Bb::EMPTY, |cell| t.zone[cell])
        };
        let shared = side_terms(
            &t.profile,
            self.board(),
            us,
            |c| self.attacks_from(c),
            zone_of(us),
            zone_of(them),
            trace,
            phase,
        );
        if !self.rules().reserve {
            return shared;
        }
        let items: i32 = self.reserve(us).iter().map(|&n| n as i32).sum();
        let pawns: i32 = (0..self.rules().kinds as Kind)
            .filter(|&k| self.rules().is_pawn(k))
            .map(|k| self.board().pieces(k, us).len() as i32)
            .sum();
        let reserve = RESERVE_ITEM * items.min(pawns);
        shared + record(trace, &t.profile.weights, RESERVE_TERM, us, reserve)
    }
}

impl Evaluate for DefinedPosition {
    fn evaluate_with<T: Trace>(&self, trace: &mut T) -> i32 {
        let t = tables(self.rules());
        t.profile
            .two_colours(self.side_to_move(), TEMPO, trace, |us, trace, phase| {
                self.colour_terms(us, trace, phase)
            })
    }

    fn piece_value(&self, piece: Piece) -> i32 {
        tables(self.rules()).profile.piece_value(piece)
    }

    fn null_move_safe(&self) -> bool {
        tables(self.rules())
            .profile
            .has_pieces(self.board(), self.side_to_move())
    }

    fn defended_by(&self, cell: crate::rules::bitset::Cell, colour: Colour) -> bool {
        self.is_attacked(cell, colour)
    }
}
