//! `strata datagen`: plays seeded self-play games ([`crate::tuning::datagen`]) and writes
//! their quiet positions with score and result.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use super::{command_line, say, variant_named};
use crate::tuning::datagen::Config;

/// The arguments of `strata datagen`.
#[derive(clap::Args)]
pub struct Args {
    /// Variant name.
    #[arg(long, default_value = "chess")]
    variant: String,
    /// Games to play.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 5000)]
    nodes: u64,
    /// Seed of the random opening plies (the same seed gives the same file).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Uniformly random plies at the start of every game.
    #[arg(long, default_value_t = 8)]
    random_plies: usize,
    /// Games played at the same time (one search thread each).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Transposition table per game, MiB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// The file to write (`FEN | SCORE | RESULT` lines).
    #[arg(long)]
    out: PathBuf,
}

/// Runs `strata datagen`: the file starts with the command line that made it.
pub fn run(args: Args) -> Result<(), String> {
    let variant = variant_named(&args.variant)?;
    let config = Config {
        variant,
        games: args.games,
        nodes: args.nodes,
        seed: args.seed,
        random_plies: args.random_plies,
        threads: args.threads,
        hash_mib: args.hash.max(1),
    };
    let path = args.out.to_string_lossy().to_string();
    let file = std::fs::File::create(&args.out).map_err(|e| format!("{path}: {e}"))?;
    let mut out = std::io::BufWriter::new(file);
    writeln!(out, "# {}", command_line()).map_err(|e| format!("{path}: {e}"))?;
    let start = Instant::now();
    let summary = crate::tuning::datagen::run(&config, &mut out, &|_, s| {
        if s.games % 10 == 0 || s.games == config.games {
            eprintln!(
                "{} games, {} positions, {:.0} s",
                s.games,
                s.positions,
                start.elapsed().as_secs_f64()
            );
        }
    })?;
    out.flush().map_err(|e| format!("{path}: {e}"))?;
    say(&format!(
        "{} games (White's team +{} ={} -{}), {} positions written to {path} in {:.0} s",
        summary.games,
        summary.wins,
        summary.draws,
        summary.losses,
        summary.positions,
        start.elapsed().as_secs_f64()
    ));
    Ok(())
}
