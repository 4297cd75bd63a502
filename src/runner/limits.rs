//! Thinking limits: a clock (`tc=[moves/]seconds[+increment]`), a fixed time per move, a
//! depth and a node count, as `--engine` and `--each` give them. The referee keeps each
//! seat's; the GUI sets its own for its engine and clocks ([`crate::gui`]), without the
//! match's command line ([`super::args`]).
//!
//! Each is bounded (the `MAX_` constants below, listed in `strata match --help`), so that
//! no clock arithmetic can overflow: clocks are i64 milliseconds, and deadlines are
//! `Instant`s, which panic past their range.

use std::str::FromStr;

/// The longest time the match's command line takes (a base time, an increment, a time per
/// move, a time margin, the stall timeout), in ms: 7 days.
pub const MAX_TIME_MS: u64 = 7 * 24 * 60 * 60 * 1000;

/// The most moves of a time control's period (`MOVES/` in `tc=`).
pub const MAX_PERIOD_MOVES: u32 = 10_000;

/// The deepest fixed depth (`depth=`), in plies.
pub const MAX_DEPTH: u32 = 1000;

/// The most nodes of a fixed node count (`nodes=`): 10^15.
pub const MAX_NODES: u64 = 1_000_000_000_000_000;

/// A time control: `[moves/]seconds[+increment]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Moves per period (`40/...`); `None` = the whole game.
    pub moves: Option<u32>,
    /// Time per period in ms.
    pub base_ms: u64,
    /// Increment per move in ms.
    pub inc_ms: u64,
}

/// Seconds (`60`, `0.5`, or `1:30`) to ms, at most [`MAX_TIME_MS`].
pub(crate) fn seconds_to_ms(s: &str) -> Result<u64, String> {
    let secs = match s.split_once(':') {
        Some((m, sec)) => {
            let m: f64 = m.parse().map_err(|_| format!("bad time '{s}'"))?;
            let sec: f64 = sec.parse().map_err(|_| format!("bad time '{s}'"))?;
            m * 60.0 + sec
        }
        None => s.parse::<f64>().map_err(|_| format!("bad time '{s}'"))?,
    };
    if !(secs.is_finite() && secs >= 0.0) {
        return Err(format!("bad time '{s}'"));
    }
    let ms = (secs * 1000.0).round();
    if ms > MAX_TIME_MS as f64 {
        return Err(format!(
            "time '{s}' is more than {} seconds (7 days)",
            MAX_TIME_MS / 1000
        ));
    }
    Ok(ms as u64)
}

fn ms_to_seconds(ms: u64) -> String {
    format!("{}", ms as f64 / 1000.0)
}

impl FromStr for TimeControl {
    type Err = String;
    fn from_str(s: &str) -> Result<TimeControl, String> {
        let (moves, rest) = match s.split_once('/') {
            Some((m, r)) => (
                Some(
                    m.parse::<u32>()
                        .ok()
                        .filter(|&m| m > 0 && m <= MAX_PERIOD_MOVES)
                        .ok_or(format!(
                            "tc '{s}': bad move count '{m}' (1 to {MAX_PERIOD_MOVES})"
                        ))?,
                ),
                r,
            ),
            None => (None, s),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (b, Some(i)),
            None => (rest, None),
        };
        let base_ms = seconds_to_ms(base).map_err(|e| format!("tc '{s}': {e}"))?;
        let inc_ms = match inc {
            Some(i) => seconds_to_ms(i).map_err(|e| format!("tc '{s}': {e}"))?,
            None => 0,
        };
        if base_ms == 0 && inc_ms == 0 {
            return Err(format!("tc '{s}': no time at all"));
        }
        Ok(TimeControl {
            moves,
            base_ms,
            inc_ms,
        })
    }
}

impl std::fmt::Display for TimeControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(m) = self.moves {
            write!(f, "{m}/")?;
        }
        write!(f, "{}", ms_to_seconds(self.base_ms))?;
        if self.inc_ms > 0 {
            write!(f, "+{}", ms_to_seconds(self.inc_ms))?;
        }
        Ok(())
    }
}

/// How long an engine may think: any combination of a clock, a fixed time per move, a depth
/// and a node count (all that are set go into `go`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// A clock.
    pub tc: Option<TimeControl>,
    /// Fixed time per move in ms (`st=`).
    pub movetime_ms: Option<u64>,
    /// Fixed depth in plies.
    pub depth: Option<u32>,
    /// Fixed node count.
    pub nodes: Option<u64>,
}

impl Limits {
    /// Whether the engine plays against a clock (and so can lose on time).
    pub fn timed(&self) -> bool {
        self.tc.is_some() || self.movetime_ms.is_some()
    }

    /// Whether any limit is set.
    pub fn any(&self) -> bool {
        self.timed() || self.depth.is_some() || self.nodes.is_some()
    }
}

impl std::fmt::Display for Limits {
    /// As fastchess prints it in its results header (`10+0.1`, `0.1/move`, `8 plies`, ...).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut parts = Vec::new();
        if let Some(tc) = self.tc {
            parts.push(tc.to_string());
        }
        if let Some(st) = self.movetime_ms {
            parts.push(format!("{}/move", ms_to_seconds(st)));
        }
        if let Some(d) = self.depth {
            parts.push(format!("{d} plies"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("{n} nodes"));
        }
        write!(f, "{}", parts.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls() {
        let tc: TimeControl = "40/60+0.6".parse().unwrap();
        assert_eq!(
            tc,
            TimeControl {
                moves: Some(40),
                base_ms: 60_000,
                inc_ms: 600
            }
        );
        assert_eq!(tc.to_string(), "40/60+0.6");
        assert_eq!(
            "10+0.1".parse::<TimeControl>().unwrap().to_string(),
            "10+0.1"
        );
        assert_eq!("1:30".parse::<TimeControl>().unwrap().base_ms, 90_000);
        assert!("0+0".parse::<TimeControl>().is_err());
        assert!("x/10".parse::<TimeControl>().is_err());
        // Bounded, so that no clock overflows.
        assert_eq!(
            "604800".parse::<TimeControl>().unwrap().base_ms,
            MAX_TIME_MS
        );
        for big in [
            "604800.001",
            "9223372036854775807+0",
            "1+9223372036854775807",
            "1e300",
            "10001/60",
        ] {
            let e = big.parse::<TimeControl>().unwrap_err();
            assert!(
                e.contains("7 days") || e.contains("move count"),
                "{big}: {e}"
            );
        }
    }
}
