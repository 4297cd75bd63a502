//! Evaluation of Polyhedron Chess.
//!
//! Piece values come from each piece's typical mobility on the 300-cell board
//! ([`value_from_mobility`]), pawns are the 100 cp unit. Piece-square terms are computed from
//! the geometry: centrality in 3D for pieces (leapers care most), and for pawns the progress
//! towards the last rank of their level. Mobility counts the cells each piece attacks that are
//! not its own side's; King safety counts the enemy's attacks on the 26 cells around the King
//! and rewards own pieces sheltering it; the reserve is worth something only while pawns are
//! left to promote with it.

use std::sync::LazyLock;

use super::geometry::{centrality, typical_mobility, value_from_mobility};
use super::{Evaluate, Score, Trace};
use crate::rules::Game;
use crate::rules::piece::{Colour, Piece};
use crate::rules::polyhedron::PolyhedronPosition;
use crate::rules::polyhedron::tables::{KINDS, TABLES, kind, slider_attacks};

struct EvalTables {
    /// Material value by kind (King: a large number, for ordering only).
    value: [i32; KINDS],
    /// Typical mobility by kind (the mobility term counts the difference from it).
    mobility: [f64; KINDS],
    /// Centrality by cell.
    centre: Vec<f64>,
    /// Pawn progress by colour and cell: 0 on the start rank, 1 next to promotion.
    progress: [Vec<f64>; 2],
    /// Phase weight by kind (non-pawn material, in Knights).
    phase: [i32; KINDS],
    /// Sum of phase weights at the start.
    phase_total: i32,
}

fn leap_table(k: u8) -> Option<&'static [crate::rules::polyhedron::tables::Bb]> {
    let t = &*TABLES;
    Some(match k {
        kind::KNIGHT => &t.knight,
        kind::HIPPOGRIFF => &t.hippogriff,
        kind::WYVERN => &t.wyvern,
        kind::SPACE_KNIGHT => &t.space_knight,
        kind::GARGOYLE => &t.gargoyle,
        kind::KING => &t.king,
        _ => return None,
    })
}

static EVAL: LazyLock<EvalTables> = LazyLock::new(|| {
    let t = &*TABLES;
    let mut value = [0; KINDS];
    let mut mobility = [0.0; KINDS];
    for k in 0..KINDS as u8 {
        if k == kind::PAWN {
            value[k as usize] = 100;
            mobility[k as usize] = 0.0;
            continue;
        }
        let m = match leap_table(k) {
            Some(table) => typical_mobility(&t.geo, |c, _| table[c]),
            None => typical_mobility(&t.geo, |c, o| {
                slider_attacks(t, k, c, o).unwrap_or_default()
            }),
        };
        mobility[k as usize] = m;
        value[k as usize] = if k == kind::KING {
            50_000
        } else {
            value_from_mobility(m)
        };
    }
    let centre = centrality(&t.geo);
    let progress = std::array::from_fn(|colour| {
        (0..t.geo.cells())
            .map(|c| {
                let k = t.geo.coord(c);
                let margin = (k.z as i32 - 2).abs();
                // Ranks from the start rank (3 / 8) to the level's last rank.
                let (start, last) = if colour == 0 {
                    (2, 9 - margin)
                } else {
                    (7, margin)
                };
                let span = (last - start).abs().max(1) as f64;
                (((k.y as i32 - start).abs() as f64) / span).clamp(0.0, 1.0)
            })
            .collect()
    });
    let phase: [i32; KINDS] = std::array::from_fn(|k| {
        if k == kind::PAWN as usize || k == kind::KING as usize {
            0
        } else {
            (value[k] / 300).max(1)
        }
    });
    let start = PolyhedronPosition::startpos();
    let phase_total = (0..KINDS)
        .map(|k| phase[k] * start.board().kind(k as u8).len() as i32)
        .sum::<i32>()
        .max(1);
    EvalTables {
        value,
        mobility,
        centre,
        progress,
        phase,
        phase_total,
    }
});

/// Centrality weight by kind (mg, eg) per unit of centrality: leapers need the centre most.
fn centre_weight(k: u8) -> Score {
    match k {
        kind::KNIGHT | kind::HIPPOGRIFF | kind::WYVERN | kind::SPACE_KNIGHT | kind::GARGOYLE => {
            Score(40, 30)
        }
        kind::KING => Score(-30, 40),
        kind::PAWN => Score(10, 0),
        _ => Score(15, 15),
    }
}

impl PolyhedronPosition {
    fn side_terms<T: Trace>(&self, us: Colour, trace: &mut T, phase: &mut i32) -> Score {
        let e = &*EVAL;
        let t = &*TABLES;
        let b = self.board();
        let own = b.colour(us);
        let their_king = self.king_cell(us.flip());
        let zone = t.king[their_king];
        let mut material = Score::default();
        let mut placement = Score::default();
        let mut mobility = Score::default();
        let mut pawns = Score::default();
        let mut attack_units = 0;
        let mut attackers = 0;
        for cell in own {
            let p = b.piece_at(cell);
            let k = p.kind();
            let ku = k as usize;
            if k != kind::KING {
                material += Score(e.value[ku], e.value[ku]);
            }
            *phase += e.phase[ku];
            let c = e.centre[cell] - 0.5;
            let w = centre_weight(k);
            placement += Score((w.0 as f64 * c) as i32, (w.1 as f64 * c) as i32);
            if k == kind::PAWN {
                let pr = e.progress[us.idx()][cell];
                pawns += Score((30.0 * pr) as i32, (90.0 * pr * pr) as i32);
                continue;
            }
            if k == kind::KING {
                continue;
            }
            let att = self.attacks_from(cell);
            let mob = att.and_not(own).len() as f64 - e.mobility[ku] / 2.0;
            mobility += Score((2.0 * mob) as i32, (2.0 * mob) as i32);
            let near = (att & zone).len() as i32;
            if near > 0 {
                attackers += 1;
                attack_units += near;
            }
        }
        let mut king = Score::default();
        let shelter = (t.king[self.king_cell(us)] & own).len() as i32;
        king += Score(6 * shelter.min(8), 0);
        if attackers >= 2 {
            king += Score((attack_units * attackers * 3).min(500), 0);
        }
        // The reserve matters only while pawns are left to promote.
        let reserve = self.reserve(us);
        let pawn_count = b.pieces(kind::PAWN, us).len() as i32;
        let usable = (reserve.len() as i32).min(pawn_count);
        let reserve_score = Score(10 * usable, 25 * usable);
        let put = |trace: &mut T, name, s: Score| {
            if us == Colour::WHITE {
                trace.term(name, s, Score::default());
            } else {
                trace.term(name, Score::default(), s);
            }
        };
        put(trace, "material", material);
        put(trace, "centrality", placement);
        put(trace, "pawn progress", pawns);
        put(trace, "mobility", mobility);
        put(trace, "king", king);
        put(trace, "reserve", reserve_score);
        material + placement + pawns + mobility + king + reserve_score
    }
}

impl Evaluate for PolyhedronPosition {
    fn evaluate_with<T: Trace>(&self, trace: &mut T) -> i32 {
        let mut phase_sum = 0;
        let white = self.side_terms(Colour::WHITE, trace, &mut phase_sum);
        let black = self.side_terms(Colour::BLACK, trace, &mut phase_sum);
        let phase = (phase_sum * 256 / EVAL.phase_total).min(256);
        trace.phase(phase);
        let v = (white - black).taper(phase);
        let tempo = 20;
        if self.side_to_move() == Colour::WHITE {
            v + tempo
        } else {
            -v + tempo
        }
    }

    fn piece_value(&self, piece: Piece) -> i32 {
        EVAL.value[piece.kind() as usize]
    }

    fn null_move_safe(&self) -> bool {
        let b = self.board();
        let us = self.side_to_move();
        b.colour(us)
            .and_not(b.kind(kind::PAWN) | b.kind(kind::KING))
            .any()
    }
}

/// The value table (for documentation and the `eval` command's readers).
pub fn piece_values() -> Vec<(char, i32)> {
    (0..KINDS)
        .map(|k| (crate::rules::polyhedron::tables::LETTERS[k], EVAL.value[k]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_is_balanced_and_values_are_ordered() {
        let p = PolyhedronPosition::startpos();
        assert_eq!(p.evaluate(), 20, "symmetric start: only the tempo");
        let v = |k: u8| EVAL.value[k as usize];
        assert!(v(kind::QUEEN) > v(kind::FAVOURITE) && v(kind::FAVOURITE) > v(kind::ROOK));
        assert!(v(kind::SPACE_KNIGHT) > v(kind::KNIGHT) && v(kind::KNIGHT) > v(kind::PAWN));
        assert!(v(kind::ARCHBISHOP) > v(kind::BISHOP));
    }
}
