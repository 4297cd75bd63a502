//! Time management: how long to think, given the clock.
//!
//! Two budgets: the *optimum* (after an iteration, do not start another once it is used) and
//! the *maximum* (stop at once, mid-iteration). The maximum never exceeds the time left minus
//! the `Move Overhead`, so the engine does not lose on time.

use std::time::Duration;

use super::params::{
    INCREMENT_SHARE, MAXIMUM_CAP, MAXIMUM_CAP_LAST_MOVE, MAXIMUM_OVER_OPTIMUM, MOVES_TO_GO_MAX,
    OPTIMUM_CAP,
};

/// `x * share.0 / share.1`.
fn part(x: u64, share: (u64, u64)) -> u64 {
    x * share.0 / share.1
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
}

/// Computes the budgets; `None` when the clock sets no limit (depth, nodes, infinite).
/// `moves_to_go` is the number of moves planned for when the clock does not say
/// ([`super::params::MOVES_TO_GO_DEFAULT`] or, in chess, `MOVES_TO_GO_REFINED`).
pub fn budget(clock: &Clock, overhead_ms: u64, moves_to_go: u64) -> Option<Budget> {
    if let Some(mt) = clock.movetime {
        let t = Duration::from_millis(mt.saturating_sub(overhead_ms).max(1));
        return Some(Budget {
            optimum: t,
            maximum: t,
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
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_stay_inside_the_clock() {
        for time in [1u64, 5, 50, 100, 1000, 10_000, 60_000, 3_600_000] {
            for inc in [0u64, 10, 100, 1000] {
                for (mtg, plan) in [None, Some(1), Some(5), Some(40)]
                    .into_iter()
                    .flat_map(|m| [(m, 15), (m, 30)])
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
        assert_eq!(budget(&Clock::default(), 30, 30), None);
    }
}
