//! `strata datagen`: plays seeded self-play games ([`crate::tuning::datagen`]) and writes
//! their quiet positions with score and result.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use super::{say, variant_named};
use crate::tuning::datagen::{Config, Format};

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
    /// Seed of the random opening plies (the same seed and shard give the same file).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// This machine's share of the work, 0 to 4294967295: game i of shard K is seeded from
    /// (seed, K, i), so the shards of one seed play different games (`cat` their binary
    /// files together).
    #[arg(long, default_value_t = 0)]
    shard: u32,
    /// Uniformly random plies at the start of every game.
    #[arg(long, default_value_t = 8)]
    random_plies: usize,
    /// Games played at the same time (one search thread each), 1 to 256.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Transposition table per game, MiB, 1 to 4096.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// `binary` (docs/data-format.md) or `text` (`FEN | SCORE | RESULT` lines); by default
    /// binary when `--out` ends in `.bin`, text otherwise.
    #[arg(long, value_parser = ["text", "binary"])]
    format: Option<String>,
    /// What `setoption name EvalFile` takes: a network file for the variant it names, which
    /// then plays the games (a round of training played by the last round's network), or
    /// `none` for the hand-written evaluation.
    #[arg(long)]
    eval_file: Option<String>,
    /// The file to write.
    #[arg(long)]
    out: PathBuf,
}

/// The command that reproduces a file byte for byte: every argument that changes a game
/// (not `--threads` or `--out`), and the variant files loaded.
fn reproducing_command(args: &Args) -> String {
    let files: String = std::env::args()
        .collect::<Vec<_>>()
        .windows(2)
        .filter(|w| w[0] == "--variant-file")
        .map(|w| match w[1].contains(char::is_whitespace) {
            true => format!(" --variant-file '{}'", w[1]),
            false => format!(" --variant-file {}", w[1]),
        })
        .collect();
    let net = match &args.eval_file {
        Some(v) if v.contains(char::is_whitespace) => format!(" --eval-file '{v}'"),
        Some(v) => format!(" --eval-file {v}"),
        None => String::new(),
    };
    format!(
        "strata{files} datagen --variant {} --games {} --nodes {} --seed {} --shard {} \
         --random-plies {} --hash {}{net}",
        args.variant, args.games, args.nodes, args.seed, args.shard, args.random_plies, args.hash
    )
}

/// Runs `strata datagen`: the file starts with the command line that made it.
pub fn run(args: Args) -> Result<(), String> {
    let variant = variant_named(&args.variant)?;
    if let Some(value) = &args.eval_file {
        say(&crate::eval::nnue::load(value)?);
    }
    let path = args.out.to_string_lossy().to_string();
    let format = match args.format.as_deref() {
        Some("binary") => Format::Binary,
        Some(_) => Format::Text,
        None if path.ends_with(".bin") => Format::Binary,
        None => Format::Text,
    };
    let config = Config {
        variant,
        games: args.games,
        nodes: args.nodes,
        seed: args.seed,
        shard: args.shard,
        random_plies: args.random_plies,
        threads: args.threads,
        hash_mib: args.hash,
        format,
        note: reproducing_command(&args),
    };
    if config.random_plies > crate::runner::args::MAX_RANDOM_PLIES as usize {
        return Err(format!(
            "--random-plies: at most {}",
            crate::runner::args::MAX_RANDOM_PLIES
        ));
    }
    config.check()?;
    let file = crate::files::create_regular(&path).map_err(|e| format!("{path}: {e}"))?;
    let mut out = std::io::BufWriter::new(file);
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
