//! Move ordering: the transposition table's move, then captures and promotions by the value
//! of what they win against the value of the piece that moves (MVV-LVA), then killers, then
//! quiet moves by their history.

use super::params::{ATTACKER_CAP, ATTACKER_DIVISOR, HISTORY_MAX, VICTIM_CAP, VICTIM_WEIGHT};
use crate::eval::Evaluate;
use crate::rules::board::MAX_CELLS;
use crate::rules::piece::Piece;
use crate::rules::{Move, MoveFlag};

pub(super) const TT_MOVE: i32 = 1 << 30;
pub(super) const TACTICAL: i32 = 1 << 28;
pub(super) const KILLER: i32 = 1 << 27;
/// Captures that lose material (by static exchange) come after the quiet moves.
const LOSING: i32 = -(1 << 25);

/// Quiet-move history: how often a piece moving to a cell caused a cutoff.
pub(super) struct History(pub(super) Vec<i32>);

impl History {
    pub fn new() -> Self {
        History(vec![0; Piece::CODES * MAX_CELLS])
    }

    /// A placeholder without a table (for moving a history out of a worker).
    pub fn empty() -> Self {
        History(Vec::new())
    }

    #[inline(always)]
    fn index(piece: Piece, m: Move) -> usize {
        piece.idx() * MAX_CELLS + m.to()
    }

    #[inline(always)]
    pub fn get(&self, piece: Piece, m: Move) -> i32 {
        self.0[Self::index(piece, m)]
    }

    /// Adds `bonus` (negative for a malus), with gravity towards zero so values stay bounded.
    #[inline(always)]
    pub fn update(&mut self, piece: Piece, m: Move, bonus: i32) {
        let e = &mut self.0[Self::index(piece, m)];
        let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        *e += b - *e * b.abs() / HISTORY_MAX;
    }
}

/// The ordering score of a tactical move: victim (plus promotion) value first, then the
/// cheapest attacker.
#[inline(always)]
pub(super) fn tactical_score<G: Evaluate>(pos: &G, m: Move) -> i32 {
    let victim = pos.captured_piece(m);
    let mut gain = if victim.is_some() {
        pos.piece_value(victim).min(VICTIM_CAP)
    } else {
        0
    };
    if let Some(k) = m.promotion()
        && m.flag() != MoveFlag::Drop
    {
        gain += pos
            .piece_value(Piece::new(k, pos.side_to_move()))
            .min(VICTIM_CAP);
    }
    let attacker = pos.piece_value(pos.moved_piece(m)).min(ATTACKER_CAP);
    TACTICAL + gain * VICTIM_WEIGHT - attacker / ATTACKER_DIVISOR
}

/// Whether a tactical move loses material by static exchange. Only checked when the moving
/// piece is worth more than what it takes (otherwise it cannot lose).
#[inline(always)]
pub(super) fn loses_material<G: Evaluate>(pos: &G, m: Move) -> bool {
    let victim = pos.captured_piece(m);
    let victim_value = if victim.is_some() {
        pos.piece_value(victim)
    } else {
        0
    };
    pos.piece_value(pos.moved_piece(m)) > victim_value && m.promotion().is_none() && pos.see(m) < 0
}

/// Whether `moves[i]` promotes on a from-to pair that an earlier move of the list already
/// promoted on. Moves picked best first put the most valuable promotion of a pair first, so
/// this is an under-promotion, which the quiescence search leaves out, as chess engines do.
pub(super) fn is_under_promotion(moves: &[Move], i: usize) -> bool {
    let m = moves[i];
    let promotes = |p: Move| p.promotion().is_some() && p.flag() != MoveFlag::Drop;
    promotes(m)
        && moves[..i]
            .iter()
            .any(|&p| promotes(p) && p.from() == m.from() && p.to() == m.to())
}

/// Scores every move of `moves` into `scores`.
pub(super) fn score_moves<G: Evaluate>(
    pos: &G,
    moves: &[Move],
    scores: &mut Vec<i32>,
    tt_move: Move,
    killers: [Move; 2],
    history: &History,
) {
    scores.clear();
    for &m in moves {
        let s = if m == tt_move {
            TT_MOVE
        } else if pos.is_tactical(m) {
            let s = tactical_score(pos, m);
            if loses_material(pos, m) {
                s - TACTICAL + LOSING
            } else {
                s
            }
        } else if m == killers[0] {
            KILLER + 1
        } else if m == killers[1] {
            KILLER
        } else {
            history.get(pos.moved_piece(m), m)
        };
        scores.push(s);
    }
}

/// Moves the best-scored move of `moves[start..]` to `start` (selection sort, one step).
#[inline(always)]
pub(super) fn pick(moves: &mut [Move], scores: &mut [i32], start: usize) {
    let mut best = start;
    for i in start + 1..moves.len() {
        if scores[i] > scores[best] {
            best = i;
        }
    }
    moves.swap(start, best);
    scores.swap(start, best);
}
