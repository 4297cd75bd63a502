//! Move ordering: the transposition table's move, then captures and promotions by the value
//! of what they win against the value of the piece that moves (MVV-LVA), then killers, then
//! quiet moves by their history.

use super::params::{
    ATTACKER_CAP, ATTACKER_DIVISOR, CAPTURE_HISTORY_DIVISOR, CORRECTION_GRAIN, CORRECTION_MAX,
    CORRECTION_SCALE, CORRECTION_WEIGHT_MAX, HISTORY_MAX, VICTIM_CAP, VICTIM_WEIGHT,
};
use crate::eval::{CORRECTION_KEYS, Evaluate, HistoryShape};
use crate::rules::board::MAX_CELLS;
use crate::rules::piece::Piece;
use crate::rules::{Move, MoveFlag};

pub(super) const TT_MOVE: i32 = 1 << 30;
pub(super) const TACTICAL: i32 = 1 << 28;
pub(super) const KILLER: i32 = 1 << 27;
/// Captures that lose material (by static exchange) come after the quiet moves.
const LOSING: i32 = -(1 << 25);

/// A piece arriving on a cell, as an index into the continuation history, or
/// [`NO_ARRIVAL`].
pub(super) type Arrival = u32;

/// No arrival: the root, a null move, or a variant without continuation history.
pub(super) const NO_ARRIVAL: Arrival = u32::MAX;

/// The histories a thread learns from its cutoffs, kept from one search to the next of a game:
/// - quiet: how often a piece moving to a cell caused a cutoff;
/// - continuation: the same for a piece arriving on a cell right after a given earlier
///   arrival (one and two plies before, and four in chess), in the variants small enough for
///   a direct table (chess: 6 kinds of 2 colours on 64 squares, 768 arrivals, a table of
///   768 x 768).
pub(super) struct History {
    pub(super) quiet: Vec<i32>,
    shape: Option<HistoryShape>,
    continuation: Vec<i16>,
    /// Capture history: how often a capture (an arrival taking a piece of some kind, or
    /// promoting without capture) caused a cutoff, with the continuation table's shape.
    capture: Vec<i16>,
    /// Correction histories: by team to move and each of the variant's correction keys
    /// (chess: the pawns, each side's pieces), how far searches found the static evaluation
    /// off, averaged, in 1/256 cp.
    correction: Vec<i32>,
}

/// The largest continuation table kept (entries): 3D boards would need hundreds of millions.
const CONTINUATION_MAX: usize = 1 << 22;

/// The shape a history keeps tables for: `shape`, unless its continuation table would be too
/// large.
fn kept_shape(shape: Option<HistoryShape>) -> Option<HistoryShape> {
    shape.filter(|s| s.arrivals() * s.arrivals() <= CONTINUATION_MAX)
}

impl History {
    pub fn new(shape: Option<HistoryShape>) -> Self {
        let shape = kept_shape(shape);
        History {
            quiet: vec![0; Piece::CODES * MAX_CELLS],
            shape,
            continuation: vec![0; shape.map_or(0, |s| s.arrivals() * s.arrivals())],
            capture: vec![0; shape.map_or(0, |s| s.arrivals() * (s.kinds + 1))],
            correction: vec![0; CORRECTION_KEYS * 2 * CORRECTION_ENTRIES],
        }
    }

    /// A placeholder without a table (for moving a history out of a worker).
    pub fn empty() -> Self {
        History {
            quiet: Vec::new(),
            shape: None,
            continuation: Vec::new(),
            capture: Vec::new(),
            correction: Vec::new(),
        }
    }

    /// Whether this history was made for a variant of `shape` (else a new one is made).
    pub fn fits(&self, shape: Option<HistoryShape>) -> bool {
        !self.quiet.is_empty() && self.shape == kept_shape(shape)
    }

    #[inline(always)]
    fn index(piece: Piece, m: Move) -> usize {
        piece.idx() * MAX_CELLS + m.to()
    }

    #[inline(always)]
    pub fn get(&self, piece: Piece, m: Move) -> i32 {
        self.quiet[Self::index(piece, m)]
    }

    /// Adds `bonus` (negative for a malus), with gravity towards zero so values stay bounded.
    #[inline(always)]
    pub fn update(&mut self, piece: Piece, m: Move, bonus: i32) {
        let e = &mut self.quiet[Self::index(piece, m)];
        *e = gravity(*e, bonus);
    }

    /// `piece` arriving on `m`'s target cell, or [`NO_ARRIVAL`] without a continuation table.
    #[inline(always)]
    pub fn arrival(&self, piece: Piece, m: Move) -> Arrival {
        match self.shape {
            Some(s) => {
                ((piece.kind() as usize * s.colours + piece.colour().idx()) * s.cells + m.to())
                    as Arrival
            }
            None => NO_ARRIVAL,
        }
    }

    #[inline(always)]
    fn continuation_index(&self, before: Arrival, now: Arrival) -> Option<usize> {
        (before != NO_ARRIVAL && now != NO_ARRIVAL).then(|| {
            let n = self.shape.map_or(0, |s| s.arrivals());
            before as usize * n + now as usize
        })
    }

    /// The continuation history of arrival `now` after `before` (0 when either is none).
    #[inline(always)]
    pub fn continuation(&self, before: Arrival, now: Arrival) -> i32 {
        self.continuation_index(before, now)
            .map_or(0, |i| self.continuation[i] as i32)
    }

    /// Adds `bonus` to the continuation history of `now` after `before`.
    #[inline(always)]
    pub fn update_continuation(&mut self, before: Arrival, now: Arrival, bonus: i32) {
        if let Some(i) = self.continuation_index(before, now) {
            self.continuation[i] = gravity(self.continuation[i] as i32, bonus) as i16;
        }
    }

    /// The history score of quiet move `m` by `piece` after the arrivals `before` (one, two
    /// and four plies back): its own history, doubled, and its continuation histories.
    #[inline(always)]
    pub fn quiet_score(&self, piece: Piece, m: Move, before: [Arrival; 3]) -> i32 {
        let now = self.arrival(piece, m);
        2 * self.get(piece, m)
            + self.continuation(before[0], now)
            + self.continuation(before[1], now)
            + self.continuation(before[2], now)
    }
}

impl History {
    /// The capture history's index of tactical move `m`, if the variant has the table.
    #[inline(always)]
    fn capture_index<G: Evaluate>(&self, pos: &G, m: Move) -> Option<usize> {
        let s = self.shape?;
        let now = self.arrival(pos.moved_piece(m), m) as usize;
        let victim = pos.captured_piece(m);
        let k = if victim.is_some() && (victim.kind() as usize) < s.kinds {
            victim.kind() as usize
        } else {
            s.kinds
        };
        Some(now * (s.kinds + 1) + k)
    }

    /// The capture history of tactical move `m` (0 without a table).
    #[inline(always)]
    pub fn capture<G: Evaluate>(&self, pos: &G, m: Move) -> i32 {
        self.capture_index(pos, m)
            .map_or(0, |i| self.capture[i] as i32)
    }

    /// Adds `bonus` to the capture history of tactical move `m`.
    #[inline(always)]
    pub fn update_capture<G: Evaluate>(&mut self, pos: &G, m: Move, bonus: i32) {
        if let Some(i) = self.capture_index(pos, m) {
            self.capture[i] = gravity(self.capture[i] as i32, bonus) as i16;
        }
    }
}

/// Entries of each correction history per team.
const CORRECTION_ENTRIES: usize = 1 << 14;

/// The weight of each correction history in the correction, in halves: the pawns' whole,
/// each side's pieces half.
const CORRECTION_WEIGHTS: [i32; CORRECTION_KEYS] = [2, 1, 1];

impl History {
    #[inline(always)]
    fn correction_index(table: usize, team: usize, key: u64) -> usize {
        (table * 2 + team) * CORRECTION_ENTRIES + (key as usize & (CORRECTION_ENTRIES - 1))
    }

    /// The correction of the static evaluation, in centipawns, for `team` to move in a
    /// position of correction keys `keys`: the weighted sum of the histories' entries.
    #[inline(always)]
    pub fn correction(&self, team: usize, keys: &[u64; CORRECTION_KEYS]) -> i32 {
        let sum: i32 = (0..CORRECTION_KEYS)
            .map(|t| {
                CORRECTION_WEIGHTS[t] * self.correction[Self::correction_index(t, team, keys[t])]
            })
            .sum();
        (sum / (2 * CORRECTION_GRAIN)).clamp(-CORRECTION_MAX, CORRECTION_MAX)
    }

    /// A search of `depth` found `diff` centipawns more than the (corrected) static evaluation:
    /// each history's entry moves towards it, the more the deeper the search.
    #[inline(always)]
    pub fn update_correction(
        &mut self,
        team: usize,
        keys: &[u64; CORRECTION_KEYS],
        depth: i32,
        diff: i32,
    ) {
        let w = (depth + 1).min(CORRECTION_WEIGHT_MAX);
        let target = diff * CORRECTION_GRAIN;
        for (t, &key) in keys.iter().enumerate() {
            let e = &mut self.correction[Self::correction_index(t, team, key)];
            *e = ((*e * (CORRECTION_SCALE - w) + target * w) / CORRECTION_SCALE).clamp(
                -CORRECTION_MAX * CORRECTION_GRAIN,
                CORRECTION_MAX * CORRECTION_GRAIN,
            );
        }
    }
}

/// History value `e` with `bonus` added, pulled towards zero so that it stays within plus or
/// minus [`HISTORY_MAX`].
#[inline(always)]
fn gravity(e: i32, bonus: i32) -> i32 {
    let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    e + b - e * b.abs() / HISTORY_MAX
}

/// The ordering score of a tactical move: victim (plus promotion) value and the capture
/// history, then the cheapest attacker.
#[inline(always)]
pub(super) fn tactical_score<G: Evaluate>(pos: &G, m: Move, history: &History) -> i32 {
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
        + history.capture(pos, m) / CAPTURE_HISTORY_DIVISOR
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
    before: [Arrival; 3],
) {
    scores.clear();
    for &m in moves {
        let s = if m == tt_move {
            TT_MOVE
        } else if pos.is_tactical(m) {
            let s = tactical_score(pos, m, history);
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
            history.quiet_score(pos.moved_piece(m), m, before)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn chess_history() -> History {
        History::new(Some(HistoryShape {
            kinds: 6,
            colours: 2,
            cells: 64,
        }))
    }

    /// The histories learn a search's finding per key and team, each entry within its bound;
    /// a position sharing only some keys gets only their weighted share.
    #[test]
    fn corrections_are_weighted_per_key_and_team() {
        let mut h = chess_history();
        let keys = [11, 22, 33];
        assert_eq!(h.correction(0, &keys), 0);
        for _ in 0..200 {
            h.update_correction(0, &keys, 20, 1000);
        }
        // Every entry at its bound: the weighted sum of 2, 1 and 1 halves, clamped.
        assert_eq!(h.correction(0, &keys), CORRECTION_MAX);
        assert_eq!(h.correction(1, &keys), 0);
        // The pawns alone count whole, one side's pieces alone half.
        assert_eq!(h.correction(0, &[11, 99, 98]), CORRECTION_MAX);
        assert_eq!(h.correction(0, &[97, 22, 98]), CORRECTION_MAX / 2);
        assert_eq!(h.correction(0, &[97, 99, 33]), CORRECTION_MAX / 2);
        // A search that finds less pulls the entries back down.
        for _ in 0..200 {
            h.update_correction(0, &keys, 20, -8);
        }
        assert!(h.correction(0, &keys) < 0);
    }
}
