//! Time management: how long to think, given the clock.
//!
//! Two budgets: the *optimum* (after an iteration, do not start another once it is used) and
//! the *maximum* (stop at once, mid-iteration). The maximum never exceeds the time left minus
//! the `Move Overhead`, so the engine does not lose on time.

use std::time::Duration;

use super::MATE_BOUND;
use super::params::{
    INCREMENT_SHARE, MAXIMUM_CAP, MAXIMUM_CAP_LAST_MOVE, MAXIMUM_OVER_OPTIMUM, MOVES_TO_GO_DEFAULT,
    MOVES_TO_GO_LONG, MOVES_TO_GO_MAX, MOVES_TO_GO_REFINED, OPTIMUM_CAP, TM_EFFORT_BASE,
    TM_EFFORT_MIN, TM_FALL_MAX, TM_FALL_MIN, TM_FALL_SCALE, TM_STABILITY_MAX, TM_STABILITY_STEP,
    TM_STABLE_ITERATIONS,
};
use crate::eval::ClockPlan;
use crate::rules::Move;

/// `x * share.0 / share.1`, without overflow.
fn part(x: u64, share: (u64, u64)) -> u64 {
    (x as u128 * share.0 as u128 / share.1 as u128).min(u64::MAX as u128) as u64
}

/// The clock situation of the side to move, from `go`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left in ms.
    pub time: Option<u64>,
    /// Increment per move in ms.
    pub inc: Option<u64>,
    /// Moves until the next time control.
    pub movestogo: Option<u32>,
    /// Fixed time for this move in ms.
    pub movetime: Option<u64>,
}

/// The budgets of one search; `None` = no time limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Do not start a new iteration after this.
    pub optimum: Duration,
    /// Stop the search at this point.
    pub maximum: Duration,
    /// `go movetime`: the whole time is the move's, so iterations go on until the maximum
    /// instead of stopping once a share of the optimum is used.
    pub fixed: bool,
}

/// The moves a clock plan assumes are left when the clock does not say (`movestogo`).
pub fn moves_to_go(plan: ClockPlan) -> u64 {
    match plan {
        ClockPlan::Chess => MOVES_TO_GO_REFINED,
        ClockPlan::Default => MOVES_TO_GO_DEFAULT,
        ClockPlan::Long => MOVES_TO_GO_LONG,
    }
}

/// Computes the budgets; `None` when the clock sets no limit (depth, nodes, infinite).
/// `moves_to_go` is the number of moves planned for when the clock does not say
/// ([`moves_to_go`] of the variant's plan).
pub fn budget(clock: &Clock, overhead_ms: u64, moves_to_go: u64) -> Option<Budget> {
    if let Some(mt) = clock.movetime {
        let t = Duration::from_millis(mt.saturating_sub(overhead_ms).max(1));
        return Some(Budget {
            optimum: t,
            maximum: t,
            fixed: true,
        });
    }
    let time = clock.time?;
    let left = time.saturating_sub(overhead_ms).max(1);
    let inc = clock.inc.unwrap_or(0);
    let mtg = clock
        .movestogo
        .map(|m| m.clamp(1, MOVES_TO_GO_MAX) as u64)
        .unwrap_or(moves_to_go);
    // Never plan to use more than the time left, even with the increment.
    let optimum = (left / mtg + part(inc, INCREMENT_SHARE))
        .min(part(left, OPTIMUM_CAP))
        .max(1);
    let cap = part(
        left,
        if mtg == 1 {
            MAXIMUM_CAP_LAST_MOVE
        } else {
            MAXIMUM_CAP
        },
    );
    let maximum = (optimum * MAXIMUM_OVER_OPTIMUM)
        .min(cap)
        .max(optimum.min(left))
        .max(1);
    Some(Budget {
        optimum: Duration::from_millis(optimum),
        maximum: Duration::from_millis(maximum),
        fixed: false,
    })
}

/// What the time manager has seen of a search's completed iterations: how settled the best
/// move is and where the score goes. The main thread keeps one per search.
#[derive(Clone, Copy, Debug, Default)]
pub struct Trend {
    /// The best move of the last completed iteration ...
    best: Move,
    /// ... and for how many iterations in a row it has been the best.
    stable: u32,
    /// The score of the last completed iteration (`None` before the first).
    score: Option<i32>,
}

impl Trend {
    /// Records a completed iteration (its best move, score, the nodes spent on the best move
    /// and on all root moves) and returns the factor for the share of the optimum after which
    /// no new iteration starts: less when the best move has stayed the best for several
    /// iterations and took most of the nodes, more when it just changed or the score fell.
    pub fn factor(&mut self, best: Move, score: i32, best_nodes: u64, total_nodes: u64) -> f64 {
        if best == self.best {
            self.stable += 1;
        } else {
            self.best = best;
            self.stable = 0;
        }
        let stability =
            TM_STABILITY_MAX - TM_STABILITY_STEP * self.stable.min(TM_STABLE_ITERATIONS) as f64;
        let falling = match self.score {
            Some(prev) if score.abs() < MATE_BOUND => {
                (1.0 + (prev - score) as f64 / TM_FALL_SCALE).clamp(TM_FALL_MIN, TM_FALL_MAX)
            }
            _ => 1.0,
        };
        self.score = Some(score);
        let share = if total_nodes > 0 {
            best_nodes as f64 / total_nodes as f64
        } else {
            0.5
        };
        let effort = (TM_EFFORT_BASE - share).max(TM_EFFORT_MIN);
        stability * falling * effort
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLANS: [ClockPlan; 3] = [ClockPlan::Chess, ClockPlan::Default, ClockPlan::Long];

    #[test]
    fn budgets_stay_inside_the_clock() {
        for time in [1u64, 5, 50, 100, 1000, 10_000, 60_000, 3_600_000] {
            for inc in [0u64, 10, 100, 1000] {
                for (mtg, plan) in [None, Some(1), Some(5), Some(40)]
                    .into_iter()
                    .flat_map(|m| PLANS.map(|plan| (m, moves_to_go(plan))))
                {
                    let b = budget(
                        &Clock {
                            time: Some(time),
                            inc: Some(inc),
                            movestogo: mtg,
                            movetime: None,
                        },
                        30,
                        plan,
                    )
                    .unwrap();
                    let left = time.saturating_sub(30).max(1) as u128;
                    assert!(
                        b.maximum.as_millis() <= left,
                        "{time} {inc} {mtg:?} {plan}: {b:?}"
                    );
                    assert!(b.optimum <= b.maximum);
                    assert!(!b.fixed, "a clock plans its time");
                }
            }
        }
        let b = budget(
            &Clock {
                movetime: Some(500),
                ..Clock::default()
            },
            30,
            30,
        )
        .unwrap();
        assert_eq!(b.maximum, Duration::from_millis(470));
        assert!(b.fixed, "movetime is spent whole");
        assert_eq!(budget(&Clock::default(), 30, 30), None);
    }

    #[test]
    fn a_longer_plan_spends_less_a_move() {
        let clock = Clock {
            time: Some(60_000),
            inc: Some(500),
            ..Clock::default()
        };
        let [chess, default, long] =
            PLANS.map(|plan| budget(&clock, 30, moves_to_go(plan)).unwrap().optimum);
        assert!(chess > default, "{chess:?} {default:?}");
        assert!(default > long, "{default:?} {long:?}");
    }

    #[test]
    fn trend_spends_less_on_a_settled_best_move() {
        let (a, b) = (Move(1), Move(2));
        let mut t = Trend::default();
        // The first iteration: a new best move, no previous score, an even node share.
        let first = t.factor(a, 0, 50, 100);
        assert!((first - TM_STABILITY_MAX * (TM_EFFORT_BASE - 0.5)).abs() < 1e-9);
        // The same move and score, iteration after iteration: the factor only falls, to a floor.
        let mut last = first;
        for _ in 0..10 {
            let f = t.factor(a, 0, 50, 100);
            assert!(f <= last, "{f} > {last}");
            last = f;
        }
        let floor = (TM_STABILITY_MAX - TM_STABILITY_STEP * TM_STABLE_ITERATIONS as f64)
            * (TM_EFFORT_BASE - 0.5);
        assert!((last - floor).abs() < 1e-9);
        // A best move that took nearly all the nodes is clearer still.
        assert!(t.factor(a, 0, 99, 100) < last);
        // A new best move starts over; a falling score adds time, a rising one takes some.
        assert!(t.factor(b, 0, 50, 100) > last);
        let steady = Trend::default().factor(a, 0, 50, 100);
        let mut falling = Trend::default();
        falling.factor(a, 100, 50, 100);
        let mut rising = Trend::default();
        rising.factor(a, -100, 50, 100);
        let fell = falling.factor(a, 0, 50, 100);
        let rose = rising.factor(a, 0, 50, 100);
        assert!(rose < fell, "{rose} {fell}");
        // Both are the second iteration with the same move: only the score differs.
        let mut level = Trend::default();
        level.factor(a, 0, 50, 100);
        let same = level.factor(a, 0, 50, 100);
        assert!(rose < same && same < fell, "{rose} {same} {fell}");
        assert!(steady > same);
        // Mate scores do not count as a fall.
        let mut mated = Trend::default();
        mated.factor(a, 0, 50, 100);
        assert!((mated.factor(a, -MATE_BOUND - 5, 50, 100) - same).abs() < 1e-9);
    }
}
