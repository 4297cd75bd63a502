//! `strata match`: a headless match runner that is also the referee.
//!
//! No existing runner can play our variants (cutechess and fastchess know 2D boards and two
//! sides; Fairy-Stockfish's own runner trusts the engines), so the runner is built on the
//! rules layer: every move an engine names is checked, the end of every game is decided by
//! [`Game::outcome`](crate::rules::Game::outcome), and what the rules cannot see (illegal
//! moves, time, crashes, stalls, score adjudication) is decided here.
//!
//! - [`args`]: the fastchess-style command line; [`limits`]: time controls and other limits.
//! - [`engine`]: an engine process (handshake, `go` with time accounting, restart).
//! - [`builtin`]: the in-process `random` and `greedy` players.
//! - [`player`]: the interface both kinds of player share with the referee.
//! - [`referee`]: a game in progress: position, moves, clocks, move checking, endings.
//! - [`game`]: one game of a match, played through a referee.
//! - [`seats`]: colours, teams and the seat rotation.
//! - [`openings`], [`pgn`]: where games start, how they are recorded.
//! - [`stats`]: Elo, LOS, pentanomial counts, SPRT.
//! - [`tournament`], [`report`]: scheduling and output.

pub mod args;
pub mod builtin;
pub mod engine;
pub mod game;
pub mod limits;
pub mod openings;
pub mod pgn;
pub mod player;
pub mod record;
pub mod referee;
pub mod report;
pub mod seats;
pub mod stats;
pub mod tournament;

pub use tournament::{MatchSummary, run};

/// `strata match ARGS...`: parses, plays, prints to stdout. Errors are returned for the
/// caller to print; a match stopped by an engine failure is an error too (after the results).
pub fn cli(args: &[String]) -> Result<(), String> {
    let Some(cfg) = args::parse(args)? else {
        print!("{}", args::USAGE);
        return Ok(());
    };
    for w in &cfg.warnings {
        eprintln!("strata match: warning: {w}");
    }
    let mut stdout = std::io::stdout();
    let summary = run(&cfg, &mut stdout, false)?;
    match summary.error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}
