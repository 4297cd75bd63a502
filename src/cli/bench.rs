//! `strata bench`: searches fixed positions to a fixed depth for a node-count checksum and a
//! speed figure.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use super::{say, variant_named};
use crate::rules::Variant;

/// The arguments of `strata bench`.
#[derive(clap::Args)]
pub struct Args {
    /// A variant name, or `all` (the built-in ones and those of `--variant-file`).
    #[arg(long, default_value = "all")]
    variant: String,
    /// Depth (default: each variant's own bench depth).
    #[arg(long)]
    depth: Option<u32>,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// Also print every position's nodes, time and depth reached.
    #[arg(long)]
    verbose: bool,
    /// What `setoption name EvalFile` takes: a network file for the variant it names, or
    /// `none` for the hand-written evaluations (to compare their speed).
    #[arg(long)]
    eval_file: Option<String>,
}

/// Runs `strata bench`.
pub fn run(args: Args) -> Result<(), String> {
    let variants = if args.variant == "all" {
        Variant::available()
    } else {
        vec![variant_named(&args.variant)?]
    };
    if args.threads == 0 || args.hash == 0 {
        return Err("--threads and --hash must be at least 1".into());
    }
    if let Some(value) = &args.eval_file {
        say(&crate::eval::nnue::load(value)?);
    }
    let never = Arc::new(AtomicBool::new(false));
    let results = crate::search::bench::run(&variants, args.depth, args.threads, args.hash, &never);
    if args.verbose {
        for r in &results {
            for (i, p) in r.positions.iter().enumerate() {
                say(&format!(
                    "{} position {}: depth {} nodes {} time {} ms bestmove {}",
                    r.variant.name(),
                    i + 1,
                    p.depth,
                    p.nodes,
                    p.time.as_millis(),
                    p.best
                ));
            }
        }
    }
    for line in crate::search::bench::report(&results) {
        say(&line);
    }
    Ok(())
}
