//! `strata tune`: fits a variant's evaluation weights to datagen positions
//! ([`crate::tuning::texel`]) and prints them (and writes them with `--out`).

use std::path::PathBuf;
use std::time::Instant;

use super::{command_line, say, variant_named};
use crate::tuning::data;
use crate::tuning::texel::{Config, fit};

/// The arguments of `strata tune`.
#[derive(clap::Args)]
pub struct Args {
    /// Variant name (a built-in variant).
    #[arg(long, default_value = "chess")]
    variant: String,
    /// Position files written by `strata datagen` (one or more).
    #[arg(long, num_args = 1.., required = true)]
    data: Vec<PathBuf>,
    /// Full passes of Adam over the training positions.
    #[arg(long, default_value_t = 2000)]
    iterations: usize,
    /// Adam's step size (weights in units of 1.0 = as computed).
    #[arg(long, default_value_t = 0.005)]
    rate: f64,
    /// Target = LAMBDA * result + (1 - LAMBDA) * sigmoid(search score).
    #[arg(long, default_value_t = 1.0)]
    lambda: f64,
    /// Terms held at their current weights (by name, e.g. --keep material; a table's name,
    /// `pst` or `mob`, holds that table).
    #[arg(long, num_args = 1..)]
    keep: Vec<String>,
    /// A file of positions the fit must keep in order, lines `BETTER_FEN > WORSE_FEN` (e.g.
    /// src/eval/weights/pentaplane.order: a pawn next to its row below the Queen it becomes).
    #[arg(long)]
    order: Option<PathBuf>,
    /// Adam's step size for the tables' values, in centipawns.
    #[arg(long, default_value_t = 1.0)]
    table_rate: f64,
    /// Pull of the tables' values towards zero (added to each one's gradient, times
    /// the value): an entry few positions use stays near zero.
    #[arg(long, default_value_t = 1e-7)]
    table_decay: f64,
    /// Write the fitted weights here (e.g. src/eval/weights/chess.txt).
    #[arg(long)]
    out: Option<PathBuf>,
}

/// Runs `strata tune`.
pub fn run(args: Args) -> Result<(), String> {
    let variant = variant_named(&args.variant)?;
    let weights = crate::eval::weights_of(variant).ok_or(format!(
        "{} has no fitted weights (a variant from a file)",
        args.variant
    ))?;
    let mut samples = Vec::new();
    let mut games = Vec::new();
    let mut made_by = Vec::new();
    for path in &args.data {
        let file = data::read(&path.to_string_lossy(), variant)?;
        made_by.extend(file.made_by);
        samples.extend(file.samples);
        // The files' games numbered on from the last file's.
        let base = games.iter().max().copied().unwrap_or(0);
        games.extend(file.games.iter().map(|g| base + g));
    }
    let config = Config {
        iterations: args.iterations,
        rate: args.rate,
        lambda: args.lambda,
        keep: args.keep.clone(),
        order: match &args.order {
            Some(path) => data::read_order(&path.to_string_lossy(), variant)?,
            None => Vec::new(),
        },
        table_rate: args.table_rate,
        table_decay: args.table_decay,
        ..Config::default()
    };
    let start = Instant::now();
    let f = fit(&samples, &games, weights, &config, &|it, loss| {
        eprintln!("iteration {it}: training loss {loss:.6}");
    })?;
    let header = f.header(variant, &command_line(), &config, &made_by);
    let text = f.weights.text(&header);
    print!("{text}");
    say(&format!("({:.1} s)", start.elapsed().as_secs_f64()));
    if let Some(out) = &args.out {
        let shown = out.to_string_lossy();
        crate::files::create_regular(&shown)
            .and_then(|mut f| {
                std::io::Write::write_all(&mut f, text.as_bytes()).map_err(|e| e.to_string())
            })
            .map_err(|e| format!("{shown}: {e}"))?;
    }
    Ok(())
}
