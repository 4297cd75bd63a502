//! Every tunable number of the search, named in one place.
//!
//! The values are the ones the search was written and measured with (`docs/engine.md`); a
//! change to any of them changes the bench signature and is tested by a match (SPRT) before it
//! is kept.

use std::sync::LazyLock;

use super::MAX_PLY;

// Iterative deepening and aspiration windows.

/// First depth searched with an aspiration window around the previous score.
pub const ASPIRATION_MIN_DEPTH: i32 = 4;
/// Half-width of the first aspiration window, in centipawns.
pub const ASPIRATION_DELTA: i32 = 25;
/// Aspiration bounds are reported (as `lowerbound` / `upperbound`) only after this long.
pub const REPORT_BOUNDS_AFTER_MS: u128 = 2000;
/// After an iteration, no new one starts once this share of the optimum time is used: the
/// next iteration would most likely not finish within the optimum.
pub const NEXT_ITERATION_SHARE: f64 = 0.55;

/// The time manager scales [`NEXT_ITERATION_SHARE`] of the optimum after each iteration by
/// three factors. Stability: `TM_STABILITY_MAX - TM_STABILITY_STEP * n`, where the best move
/// has stayed the best for `n` iterations (at most `TM_STABLE_ITERATIONS`) ...
pub const TM_STABILITY_MAX: f64 = 1.5;
/// See [`TM_STABILITY_MAX`].
pub const TM_STABILITY_STEP: f64 = 0.1;
/// See [`TM_STABILITY_MAX`].
pub const TM_STABLE_ITERATIONS: u32 = 6;
/// ... the falling score: `1 + (previous - score) / TM_FALL_SCALE`, within
/// [`TM_FALL_MIN`, `TM_FALL_MAX`] ...
pub const TM_FALL_SCALE: f64 = 200.0;
/// See [`TM_FALL_SCALE`].
pub const TM_FALL_MIN: f64 = 0.8;
/// See [`TM_FALL_SCALE`].
pub const TM_FALL_MAX: f64 = 1.5;
/// ... and the effort: `TM_EFFORT_BASE` less the best move's share of the iteration's root
/// nodes, at least `TM_EFFORT_MIN` (a best move that took nearly every node is clear).
pub const TM_EFFORT_BASE: f64 = 1.6;
/// See [`TM_EFFORT_BASE`].
pub const TM_EFFORT_MIN: f64 = 0.6;

// Static evaluation.

/// The static evaluation is kept this far inside the mate scores: the armies of the 3D
/// variants are worth tens of thousands of centipawns, more than the distance to `MATE`.
pub const EVAL_MATE_MARGIN: i32 = 2000;

// Pruning before the move loop (non-PV nodes, not in check).

/// Reverse futility pruning applies up to this depth ...
pub const RFP_MAX_DEPTH: i32 = 6;
/// ... when the static evaluation exceeds beta by this margin per ply of depth.
pub const RFP_MARGIN: i32 = 90;
/// Null-move pruning applies from this depth.
pub const NMP_MIN_DEPTH: i32 = 3;
/// Null-move reduction: a base ...
pub const NMP_BASE: i32 = 3;
/// ... plus one ply per this many plies of depth ...
pub const NMP_DEPTH_DIVISOR: i32 = 4;
/// ... plus one ply per this many centipawns the evaluation exceeds beta by ...
pub const NMP_EVAL_DIVISOR: i32 = 200;
/// ... at most this many plies for the evaluation.
pub const NMP_EVAL_MAX: i32 = 3;
/// ProbCut (in the variants with the refined search) from this depth, ...
pub const PROBCUT_MIN_DEPTH: i32 = 5;
/// ... against beta plus this margin, ...
pub const PROBCUT_MARGIN: i32 = 200;
/// ... less this where the evaluation is improving, ...
pub const PROBCUT_IMPROVING: i32 = 50;
/// ... verified by a search this many plies shallower.
pub const PROBCUT_REDUCTION: i32 = 4;

// Pruning of late quiet moves.

/// Futility pruning applies up to this depth ...
pub const FUTILITY_MAX_DEPTH: i32 = 3;
/// ... when the static evaluation plus this base ...
pub const FUTILITY_BASE: i32 = 120;
/// ... and this margin per ply of depth does not reach alpha.
pub const FUTILITY_MARGIN: i32 = 100;
/// In the variants with the refined search, futility pruning also applies per move at the
/// depth the move would be searched to after its late-move reduction, up to this depth.
pub const FUTILITY_REDUCED_MAX_DEPTH: i32 = 6;
/// Late-move pruning applies up to this depth ...
pub const LMP_MAX_DEPTH: i32 = 5;
/// ... after `LMP_BASE + LMP_FACTOR * depth^2` quiet moves have been searched.
pub const LMP_BASE: usize = 3;
/// See [`LMP_BASE`].
pub const LMP_FACTOR: usize = 1;

/// Exchange pruning applies up to this depth: a move is skipped when static exchange
/// evaluation says it loses more than ...
pub const SEE_PRUNE_MAX_DEPTH: i32 = 6;
/// ... this many centipawns per ply of depth for a quiet move that gives no check ...
pub const SEE_QUIET_MARGIN: i32 = 60;
/// ... and this many for a capture, a promotion or a move that may check.
pub const SEE_TACTICAL_MARGIN: i32 = 100;

// Extensions and reductions.

/// Checks are extended only in the first half of the stack (so that perpetual checks cannot
/// run the search into its ply limit).
pub const CHECK_EXTENSION_MAX_PLY: usize = MAX_PLY / 2;
/// A node at this depth or deeper without a move from the transposition table is searched
/// one ply shallower (internal iterative reduction).
pub const IIR_MIN_DEPTH: i32 = 4;
/// Singular extensions: the table's move is tested from this depth ...
pub const SE_MIN_DEPTH: i32 = 7;
/// ... when the table's entry is at most this many plies shallower than the node ...
pub const SE_TT_DEPTH_MARGIN: i32 = 3;
/// ... against a bound this many centipawns per ply of depth below its score ...
pub const SE_MARGIN: i32 = 1;
/// ... and extended twice when the other moves fall this far below the bound ...
pub const SE_DOUBLE_MARGIN: i32 = 25;
/// ... at most this many times along a line.
pub const SE_DOUBLE_MAX: i32 = 6;
/// Late-move reductions apply from this depth ...
pub const LMR_MIN_DEPTH: i32 = 3;
/// ... from the move searched after this many.
pub const LMR_MIN_MOVES: usize = 2;
/// The reduction is `LMR_BASE + ln(depth) * ln(moves) / LMR_DIVISOR` plies, rounded down.
pub const LMR_BASE: f64 = 0.75;
/// See [`LMR_BASE`].
pub const LMR_DIVISOR: f64 = 2.25;
/// In the variants with the refined search, a quiet move's reduction at a node expected to
/// fail high (a cut node) is this many plies more.
pub const LMR_CUT_NODE: i32 = 1;
/// A quiet move's reduction falls by one ply per this much of its history score (its own
/// history doubled plus its continuation histories) and rises likewise when that is negative.
pub const LMR_HISTORY_DIVISOR: i32 = 8192;
/// Depths the reduction table covers (deeper searches use its last row).
const LMR_DEPTHS: usize = 64;
/// Move numbers the reduction table covers (later moves use its last column).
const LMR_MOVES: usize = 256;

/// The late-move reduction for a quiet move searched after `moves` others at `depth`, from
/// a table computed once (no logarithm at every node).
#[inline(always)]
pub fn reduction(depth: i32, moves: usize) -> i32 {
    static TABLE: LazyLock<Vec<[u8; LMR_MOVES]>> = LazyLock::new(|| {
        (0..LMR_DEPTHS)
            .map(|d| {
                std::array::from_fn(|m| {
                    if (d as i32) < LMR_MIN_DEPTH || m < LMR_MIN_MOVES {
                        0
                    } else {
                        (LMR_BASE + (d as f64).ln() * (m as f64).ln() / LMR_DIVISOR) as u8
                    }
                })
            })
            .collect()
    });
    let d = (depth.max(0) as usize).min(LMR_DEPTHS - 1);
    TABLE[d][moves.min(LMR_MOVES - 1)] as i32
}

// Move ordering and history.

/// The history bonus of a move that caused a cutoff is `HISTORY_BONUS_FACTOR * depth -
/// HISTORY_BONUS_BASE` ...
pub const HISTORY_BONUS_FACTOR: i32 = 150;
/// See [`HISTORY_BONUS_FACTOR`].
pub const HISTORY_BONUS_BASE: i32 = 100;
/// ... at most this.
pub const HISTORY_BONUS_MAX: i32 = 1600;
/// History values stay within plus or minus this: each update pulls a value towards zero by
/// its share of this bound (gravity), so old results fade as new ones come in.
pub const HISTORY_MAX: i32 = 16384;
/// A capture's ordering score adds its capture history divided by this (a pawn's worth of
/// victim is 1600).
pub const CAPTURE_HISTORY_DIVISOR: i32 = 2;
/// Correction history: entries are kept in 1/this of a centipawn ...
pub const CORRECTION_GRAIN: i32 = 256;
/// ... and move towards a search's finding with weight `min(depth + 1,
/// CORRECTION_WEIGHT_MAX) / CORRECTION_SCALE` ...
pub const CORRECTION_WEIGHT_MAX: i32 = 16;
/// See [`CORRECTION_WEIGHT_MAX`].
pub const CORRECTION_SCALE: i32 = 256;
/// ... and correct by at most this many centipawns.
pub const CORRECTION_MAX: i32 = 64;
/// Captures are ordered by `VICTIM_WEIGHT * victim - attacker / ATTACKER_DIVISOR` (most
/// valuable victim, then least valuable attacker), with the victim's value (plus a
/// promotion's) capped at `VICTIM_CAP` ...
pub const VICTIM_WEIGHT: i32 = 16;
/// ... and the attacker's at `ATTACKER_CAP` (a King is worth more than everything).
pub const ATTACKER_DIVISOR: i32 = 16;
/// See [`VICTIM_WEIGHT`].
pub const VICTIM_CAP: i32 = 5000;
/// See [`ATTACKER_DIVISOR`].
pub const ATTACKER_CAP: i32 = 20_000;

// Time management (`time.rs`): fractions as (numerator, denominator).

/// Moves assumed left in the game when the clock does not say (`movestogo`) ...
pub const MOVES_TO_GO_DEFAULT: u64 = 30;
/// ... with chess's clock plan (`ClockPlan::Chess`), measured in chess: fewer,
/// so more of the clock goes to the opening and middlegame (with 30, games at 10+0.1 ended
/// with 3-4 s of the 10 s unused, while Stockfish spent 11 s on its first 15 moves; 12 was
/// measured on top of the settled-result factor and did not gain: -0.9 +/- 20.4 over 400
/// games at 5+0.05) ...
pub const MOVES_TO_GO_REFINED: u64 = 15;
/// ... with the long plan (`ClockPlan::Long`), for Polyhedron, whose games at 5 s +
/// 0.05 s last about 235 moves a side: 60 measured +39.3 Elo against 30 there, and 90
/// +37.8 against 60 over 600 games, 120 only +9.6 (-22.0 to +41.2) against 90 over 400
/// (docs/engine.md) ...
pub const MOVES_TO_GO_LONG: u64 = 90;
/// ... and the most moves planned for even when it does.
pub const MOVES_TO_GO_MAX: u32 = 50;
/// The share of the increment the optimum spends at once.
pub const INCREMENT_SHARE: (u64, u64) = (3, 4);
/// The optimum never exceeds this share of the time left.
pub const OPTIMUM_CAP: (u64, u64) = (3, 4);
/// The maximum is this many times the optimum ...
pub const MAXIMUM_OVER_OPTIMUM: u64 = 5;
/// ... at most this share of the time left ...
pub const MAXIMUM_CAP: (u64, u64) = (1, 2);
/// ... or this share when the last move before the time control is to be played.
pub const MAXIMUM_CAP_LAST_MOVE: (u64, u64) = (9, 10);

// Transposition table replacement.

/// A bound of the current search does not replace an entry of the same position that is
/// more than this many plies deeper.
pub const TT_KEEP_DEEPER: i32 = 2;
/// An entry's worth as a victim is its depth less this many plies per search since it was
/// written.
pub const TT_AGE_WEIGHT: i32 = 4;

// Quiescence search.

/// From this many plies into the quiescence search, only recaptures are searched: in crowded
/// 3D positions the capture tree explodes otherwise (as Stockfish once did).
pub const QS_RECAPTURES_ONLY: i32 = 5;
/// The quiescence search stops at this many plies (when not in check).
pub const QS_MAX_PLY: i32 = 12;
/// Delta pruning: a capture is skipped when even winning its victim plus this margin cannot
/// raise the stand-pat score to alpha.
pub const QS_DELTA_MARGIN: i32 = 200;

// Polling.

/// The main thread, which watches the clock, polls every this many nodes (plus one): a node
/// of a crowded 3D position can cost tens of microseconds, and with a few milliseconds left,
/// 1024 of them overran the clock.
pub const POLL_MASK_MAIN: u64 = 127;
/// The helper threads poll every this many nodes (plus one).
pub const POLL_MASK_HELPER: u64 = 1023;

#[cfg(test)]
mod tests {
    use super::*;

    /// The table gives what the formula gives wherever it is defined.
    #[test]
    fn the_reduction_table_is_the_formula() {
        for depth in 0..LMR_DEPTHS as i32 {
            for moves in 0..LMR_MOVES {
                let formula = if depth < LMR_MIN_DEPTH || moves < LMR_MIN_MOVES {
                    0
                } else {
                    (LMR_BASE + (depth as f64).ln() * (moves as f64).ln() / LMR_DIVISOR) as i32
                };
                assert_eq!(reduction(depth, moves), formula, "{depth} {moves}");
            }
        }
        assert_eq!(reduction(200, 1000), reduction(63, 255));
    }
}
