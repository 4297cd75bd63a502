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
pub(super) struct History(Vec<i32>);

impl History {
    pub fn new() -> Self {
        History(vec![0; Piece::CODES * MAX_CELLS])
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
        gravity(&mut self.0[Self::index(piece, m)], bonus);
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

/// A piece arriving on a cell: what continuation history is keyed by.
pub(super) type Arrival = usize;

/// No arrival (the root, a null move).
pub(super) const NO_ARRIVAL: Arrival = usize::MAX;

/// The arrival of `piece` on `m`'s target cell.
#[inline(always)]
pub(super) fn arrival(piece: Piece, m: Move) -> Arrival {
    piece.idx() * MAX_CELLS + m.to()
}

/// Continuation history: how often a quiet move (a piece arriving on a cell) caused a cutoff
/// right after a given earlier arrival (the move one or two plies before). The pairs of
/// 68 piece codes on 320 cells are far too many for a direct table, so the pair is hashed
/// into a fixed table (collisions only blur a heuristic).
pub(super) struct ContinuationHistory(Vec<i32>);

impl ContinuationHistory {
    const BITS: u32 = 21;

    pub fn new() -> Self {
        ContinuationHistory(vec![0; 1 << Self::BITS])
    }

    #[inline(always)]
    fn index(before: Arrival, now: Arrival) -> usize {
        let pair = (before as u64) * (Piece::CODES * MAX_CELLS) as u64 + now as u64;
        (pair.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - Self::BITS)) as usize
    }

    /// The value of arrival `now` after `before` (0 when there was no `before`).
    #[inline(always)]
    pub fn get(&self, before: Arrival, now: Arrival) -> i32 {
        if before == NO_ARRIVAL {
            0
        } else {
            self.0[Self::index(before, now)]
        }
    }

    /// Adds `bonus` (negative for a malus) with the same gravity as [`History::update`].
    #[inline(always)]
    pub fn update(&mut self, before: Arrival, now: Arrival, bonus: i32) {
        if before != NO_ARRIVAL {
            gravity(&mut self.0[Self::index(before, now)], bonus);
        }
    }
}

/// Adds `bonus` to a history value, pulled towards zero so that it stays within
/// plus or minus [`HISTORY_MAX`].
#[inline(always)]
fn gravity(e: &mut i32, bonus: i32) {
    let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    *e += b - *e * b.abs() / HISTORY_MAX;
}

/// The histories a quiet move is ordered by.
pub(super) struct QuietHistory<'a> {
    pub history: &'a History,
    pub continuation: &'a ContinuationHistory,
    /// The arrivals one and two plies before this node.
    pub before: [Arrival; 2],
}

impl QuietHistory<'_> {
    /// The history score of quiet move `m` by `piece`: its own history and its two
    /// continuation histories.
    #[inline(always)]
    pub fn score(&self, piece: Piece, m: Move) -> i32 {
        let now = arrival(piece, m);
        self.history.get(piece, m)
            + self.continuation.get(self.before[0], now)
            + self.continuation.get(self.before[1], now)
    }
}

/// Scores every move of `moves` into `scores`.
pub(super) fn score_moves<G: Evaluate>(
    pos: &G,
    moves: &[Move],
    scores: &mut Vec<i32>,
    tt_move: Move,
    killers: [Move; 2],
    history: &QuietHistory,
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
            history.score(pos.moved_piece(m), m)
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
