//! Evaluation of Pentaplane V: the shared terms of [`super::standard`], values from typical
//! mobility on the 5x5x5 board (a missile piece's shots count as captures along its lines; the
//! Kamikaze Queen is worth half its mobility, since it dies when it captures), pawn progress
//! towards the promotion row, and the variant's own terms: a Bomb is worth the enemy material
//! its blast (with chains) would take minus its own side's; a King inside any Bomb's blast is
//! in danger; a missile piece lined up on the enemy King is a threat.

use std::sync::LazyLock;

use super::geometry::typical_mobility;
use super::standard::{FIRST_OWN_TERM, Profile, record, side_terms, standard_terms};
use super::weights;
use super::{Evaluate, Score, Trace};
use crate::rules::Game;
use crate::rules::bitset::Cell;
use crate::rules::pentaplane::PentaplanePosition;
use crate::rules::pentaplane::tables::{
    ALL_DIRS, BISHOP_DIRS, Bb, CUBE_DIRS, ROOK_BISHOP_DIRS, ROOK_DIRS, TABLES, kind, slides,
};
use crate::rules::piece::{Colour, Piece};

const KINDS: usize = 12;

/// A Bomb scores the net material its blast would take, divided by this.
const BOMB_NET_DIVISOR: i32 = 16;
/// Own King inside a Bomb's blast, per Bomb.
const KING_IN_BLAST: Score = Score(-60, -40);
/// Own missile piece lined up on the enemy King (blocked or not).
const MISSILE_ON_KING: Score = Score(20, 15);
/// The Kamikaze Queen is worth its mobility value divided by this: it dies when it captures.
const KAMIKAZE_DIVISOR: i32 = 2;
/// The side to move's bonus.
const TEMPO: i32 = 20;
/// The evaluation's terms: the shared ones, then this variant's.
const TERMS: &[&str] = standard_terms!(
    "bombs",
    "king in a blast",
    "missiles on king",
    "pawn material",
    "knight material",
    "bishop material",
    "rook material",
    "cuber material",
    "queen material",
    "fortress material",
    "missile bishop material",
    "satellite material",
    "bomb material",
    "kamikaze material",
    "knight mobility",
    "bishop mobility",
    "rook mobility",
    "cuber mobility",
    "queen mobility",
    "fortress mobility",
    "missile bishop mobility",
    "satellite mobility",
    "bomb mobility",
    "kamikaze mobility"
);
const BOMBS_TERM: usize = FIRST_OWN_TERM;
const BLAST_TERM: usize = FIRST_OWN_TERM + 1;
const MISSILES_TERM: usize = FIRST_OWN_TERM + 2;
/// The kinds with their own material and mobility terms.
const KIND_TERMS: &[(u8, &str)] = &[
    (kind::PAWN, "pawn"),
    (kind::KNIGHT, "knight"),
    (kind::BISHOP, "bishop"),
    (kind::ROOK, "rook"),
    (kind::CUBER, "cuber"),
    (kind::QUEEN, "queen"),
    (kind::FORTRESS, "fortress"),
    (kind::MISSILE_BISHOP, "missile bishop"),
    (kind::SATELLITE, "satellite"),
    (kind::BOMB, "bomb"),
    (kind::KAMIKAZE, "kamikaze"),
];

/// The directions a missile piece shoots along.
fn missile_dirs(k: u8) -> Option<std::ops::Range<usize>> {
    match k {
        kind::FORTRESS => Some(ROOK_DIRS),
        kind::MISSILE_BISHOP => Some(BISHOP_DIRS),
        kind::SATELLITE => Some(CUBE_DIRS),
        _ => None,
    }
}

fn targets(k: u8, c: Cell, o: Bb) -> Bb {
    let t = &*TABLES;
    match k {
        kind::KNIGHT => t.knight[c],
        kind::BISHOP => slides(t, c, o, BISHOP_DIRS),
        kind::ROOK => slides(t, c, o, ROOK_DIRS),
        kind::CUBER => slides(t, c, o, CUBE_DIRS),
        kind::QUEEN => slides(t, c, o, ALL_DIRS),
        kind::KING => t.king[c],
        kind::FORTRESS => t.rook_step[c] | (slides(t, c, o, ROOK_DIRS) & o),
        kind::MISSILE_BISHOP => t.bishop_step[c] | (slides(t, c, o, BISHOP_DIRS) & o),
        kind::SATELLITE => t.cube_step[c] | (slides(t, c, o, CUBE_DIRS) & o),
        kind::BOMB => t.rook_step[c],
        kind::KAMIKAZE => slides(t, c, o, ROOK_BISHOP_DIRS),
        _ => Bb::EMPTY,
    }
}

static PROFILE: LazyLock<Profile> = LazyLock::new(|| {
    let t = &*TABLES;
    let typical: Vec<Option<f64>> = (0..KINDS as u8)
        .map(|k| {
            Some(if k == kind::PAWN {
                0.0
            } else {
                typical_mobility(&t.geo, |c, o| targets(k, c, o))
            })
        })
        .collect();
    let leaper: Vec<bool> = (0..KINDS as u8).map(|k| k == kind::KNIGHT).collect();
    let progress = |colour: usize| -> Vec<f64> {
        let rows: Vec<Cell> = t.promotion[colour].iter().collect();
        let dist = |c: Cell| {
            let a = t.geo.coord(c);
            rows.iter()
                .map(|&r| {
                    let b = t.geo.coord(r);
                    (a.x - b.x).abs() as i32 + (a.y - b.y).abs() as i32 + (a.z - b.z).abs() as i32
                })
                .min()
                .unwrap_or(0)
        };
        let max = (0..t.geo.cells()).map(dist).max().unwrap_or(1).max(1) as f64;
        (0..t.geo.cells())
            .map(|c| 1.0 - dist(c) as f64 / max)
            .collect()
    };
    let mut p = Profile::new(
        &t.geo,
        &typical,
        &leaper,
        Some(kind::PAWN),
        kind::KING,
        [progress(0), progress(1), vec![], vec![]],
        weights::builtin("pentaplane", TERMS, include_str!("weights/pentaplane.txt")),
    );
    p.value[kind::KAMIKAZE as usize] /= KAMIKAZE_DIVISOR;
    p.with_start(PentaplanePosition::startpos().board())
        .with_kind_terms(KIND_TERMS)
});

/// This variant's evaluation weights.
pub fn weights() -> &'static super::weights::Weights {
    &PROFILE.weights
}

impl PentaplanePosition {
    fn material_in(&self, area: Bb, colour: Colour) -> i32 {
        (area & self.board().colour(colour))
            .iter()
            .map(|c| {
                let k = self.board().piece_at(c).kind();
                if k == kind::KING {
                    0
                } else {
                    PROFILE.value[k as usize]
                }
            })
            .sum()
    }

    fn colour_terms<T: Trace>(&self, us: Colour, trace: &mut T, phase: &mut i32) -> Score {
        let t = &*TABLES;
        let b = self.board();
        let them = us.flip();
        let zone = |c: Option<Cell>| c.map(|k| t.king[k]).unwrap_or_default();
        let shared = side_terms(
            &PROFILE,
            b,
            us,
            |c| self.move_targets(c) | self.shot_targets(c),
            zone(self.king_cell(us)),
            zone(self.king_cell(them)),
            trace,
            phase,
        );
        // Our Bombs: enemy material their blast would take, minus ours.
        let mut bombs = Score::default();
        for bomb in b.pieces(kind::BOMB, us) {
            let area = self.explosion_area(bomb);
            let net = self.material_in(area, them)
                - (self.material_in(area, us) - PROFILE.value[kind::BOMB as usize]);
            bombs += Score(net / BOMB_NET_DIVISOR, net / BOMB_NET_DIVISOR);
        }
        // Our King inside any Bomb's blast (the enemy can set it off by capture or shot).
        let mut danger = Score::default();
        if let Some(k) = self.king_cell(us) {
            for bomb in b.kind(kind::BOMB) {
                if self.explosion_area(bomb).contains(k) {
                    danger += KING_IN_BLAST;
                }
            }
        }
        // Our missiles lined up on the enemy King (blocked or not).
        let mut missiles = Score::default();
        if let Some(k) = self.king_cell(them) {
            for cell in b.colour(us) {
                if let Some(dirs) = missile_dirs(b.piece_at(cell).kind())
                    && dirs.into_iter().any(|d| t.geo.ray(cell, d).contains(k))
                {
                    missiles += MISSILE_ON_KING;
                }
            }
        }
        let w = &PROFILE.weights;
        shared
            + record(trace, w, BOMBS_TERM, us, bombs)
            + record(trace, w, BLAST_TERM, us, danger)
            + record(trace, w, MISSILES_TERM, us, missiles)
    }
}

impl Evaluate for PentaplanePosition {
    fn weights(&self) -> Option<&'static super::weights::Weights> {
        Some(weights())
    }

    fn evaluate_with<T: Trace>(&self, trace: &mut T) -> i32 {
        PROFILE.two_colours(self.side_to_move(), TEMPO, trace, |us, trace, phase| {
            self.colour_terms(us, trace, phase)
        })
    }

    fn piece_value(&self, piece: Piece) -> i32 {
        PROFILE.piece_value(piece)
    }

    fn null_move_safe(&self) -> bool {
        PROFILE.has_pieces(self.board(), self.side_to_move())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Breakdown;

    #[test]
    fn values_and_variant_terms() {
        let v = |k: u8| PROFILE.value[k as usize];
        assert!(v(kind::QUEEN) > v(kind::ROOK) && v(kind::KNIGHT) > v(kind::PAWN));
        assert!(v(kind::FORTRESS) > v(kind::PAWN) && v(kind::BOMB) > v(kind::PAWN));
        // The start position is symmetric except for the choice of pieces (both sides hold the
        // same four types), so only the tempo and the arrangement differ.
        let p = PentaplanePosition::startpos();
        let mut t = Breakdown::default();
        let e = p.evaluate_with(&mut t);
        assert_eq!(e, p.evaluate_with(&mut crate::eval::NoTrace));
        assert!(t.terms.iter().any(|x| x.0 == "bombs"));
        assert!(e.abs() < 150, "{e}");
        // The search plays with the embedded network, which finds the start about level too.
        let net = p.evaluate();
        assert_ne!(net, e, "the embedded network evaluates, not the terms");
        assert!(net.abs() < 150, "{net}");
    }
}
