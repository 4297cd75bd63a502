//! The `strata` binary: the protocol engine by default, plus the `perft`, `bench`, `match`,
//! `gui`, `datagen`, `tune`, `train-net` and `variants` subcommands, each in its module of
//! [`strata::cli`]. Any other arguments are protocol commands, one an argument, run in order
//! as if typed and followed by the end of input (`strata "genfens 10 seed 1 book None"
//! quit`, as OpenBench's worker runs it).

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Parser, Subcommand};
use strata::cli::{bench, datagen, gui, r#match, perft, train_net, tune, variants};

#[derive(Parser)]
#[command(
    name = "strata",
    version,
    about = "A game engine for 3D and multi-player chess variants"
)]
struct Cli {
    /// Write logs to this file instead of stderr.
    #[arg(long, global = true)]
    log: Option<PathBuf>,
    /// Load the variants defined in this file first (docs/variant-files.md); may be given
    /// more than once.
    #[arg(long = "variant-file", global = true)]
    variant_files: Vec<PathBuf>,
    #[command(subcommand)]
    command: Option<Cmd>,
}

#[derive(Subcommand)]
enum Cmd {
    /// Speak the protocol on stdin/stdout (the default).
    Uci,
    /// Count the leaves of the legal-move tree and report the speed.
    Perft(perft::Args),
    /// Search fixed positions to a fixed depth: a node-count checksum and a speed figure.
    Bench(bench::Args),
    /// Play a match between engines, refereed by the rules (`strata match --help`).
    #[command(disable_help_flag = true)]
    Match(r#match::Args),
    /// Play in a browser: serve the GUI and print its URL.
    Gui(gui::Args),
    /// Play seeded self-play games and write their quiet positions with score and result.
    Datagen(datagen::Args),
    /// Fit a variant's evaluation weights to datagen positions (Texel's method, Adam).
    Tune(tune::Args),
    /// Train a variant's evaluation network on datagen positions.
    TrainNet(train_net::Args),
    /// Print every variant this binary plays (with `--variant-file`, those too), one a line.
    Variants(variants::Args),
    /// Protocol commands, one an argument (`strata "setoption name UCI_Variant value pole"
    /// "genfens 5 seed 1 book None" quit`): run in order as if typed, then the end of input
    /// once a search or count they started has ended.
    #[command(external_subcommand)]
    Commands(Vec<String>),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let log = cli.log.as_ref().map(|p| p.to_string_lossy().to_string());
    if let Err(e) = strata::logging::init(log.as_deref()) {
        eprintln!("strata: {e}");
        return ExitCode::FAILURE;
    }
    for path in &cli.variant_files {
        if let Err(e) = strata::rules::defined::load_file(
            &path.to_string_lossy(),
            strata::eval::nnue::check_net,
        ) {
            eprintln!("strata: {e}");
            return ExitCode::FAILURE;
        }
    }
    let result = match cli.command {
        None | Some(Cmd::Uci) => {
            strata::protocol::run(
                std::io::BufReader::new(std::io::stdin()),
                Arc::new(strata::protocol::Stdout),
            );
            Ok(())
        }
        Some(Cmd::Perft(args)) => perft::run(args),
        Some(Cmd::Bench(args)) => bench::run(args),
        Some(Cmd::Match(args)) => r#match::run(args),
        Some(Cmd::Gui(args)) => gui::run(args),
        Some(Cmd::Datagen(args)) => datagen::run(args),
        Some(Cmd::Tune(args)) => tune::run(args),
        Some(Cmd::TrainNet(args)) => train_net::run(args),
        Some(Cmd::Variants(args)) => variants::run(args),
        Some(Cmd::Commands(lines)) => {
            strata::protocol::run_commands(&lines, Arc::new(strata::protocol::Stdout));
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("strata: {e}");
            ExitCode::FAILURE
        }
    }
}
