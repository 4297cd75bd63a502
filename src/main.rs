//! The `strata` binary: the protocol engine by default, plus the `perft`, `bench`, `match`,
//! `gui`, `datagen` and `tune` subcommands.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use clap::{Args, Parser, Subcommand};
use strata::rules::perft::divide;
use strata::rules::{AnyGame, Game, Variant};
use strata::with_game;

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
    Perft(PerftArgs),
    /// Search fixed positions to a fixed depth: a node-count checksum and a speed figure.
    Bench(BenchArgs),
    /// Play a match between engines, refereed by the rules (`strata match --help`).
    #[command(disable_help_flag = true)]
    Match(MatchArgs),
    /// Play in a browser: serve the GUI and print its URL.
    Gui(GuiArgs),
    /// Play seeded self-play games and write their quiet positions with score and result.
    Datagen(DatagenArgs),
    /// Fit a variant's evaluation weights to datagen positions (Texel's method, Adam).
    Tune(TuneArgs),
    /// Train the chess evaluation network on datagen positions.
    TrainNet(TrainNetArgs),
}

#[derive(Args)]
struct TrainNetArgs {
    /// Chess position files written by `strata datagen` (one or more).
    #[arg(long, num_args = 1.., required = true)]
    data: Vec<PathBuf>,
    /// Full passes over the training positions.
    #[arg(long, default_value_t = 20)]
    epochs: usize,
    /// Positions per step.
    #[arg(long, default_value_t = 16384)]
    batch: usize,
    /// AdamW's initial step size (it falls on a cosine to a tenth).
    #[arg(long, default_value_t = 0.001)]
    rate: f32,
    /// AdamW's weight decay.
    #[arg(long, default_value_t = 0.01)]
    weight_decay: f32,
    /// Target = LAMBDA * result + (1 - LAMBDA) * sigmoid(score / K).
    #[arg(long, default_value_t = 0.5)]
    lambda: f32,
    /// The logistic scale of scores, in centipawns.
    #[arg(long, default_value_t = 180.0)]
    k: f32,
    /// Hold out every N-th game for validation.
    #[arg(long, default_value_t = 20)]
    holdout: usize,
    /// Training threads.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Seed of the initial weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Do not mirror half the positions left to right each epoch.
    #[arg(long)]
    no_mirror: bool,
    /// Start from this network file instead of random weights (to train a network further
    /// on new games).
    #[arg(long)]
    init: Option<PathBuf>,
    /// Write the network here after every epoch (e.g. src/eval/nets/chess.net).
    #[arg(long)]
    out: PathBuf,
}

#[derive(Args)]
struct DatagenArgs {
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

#[derive(Args)]
struct TuneArgs {
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

/// This program's command line as a shell would take it back (a word with a space or a
/// quote in single quotes), for the files it writes.
fn command_line() -> String {
    std::env::args()
        .map(|a| {
            if a.is_empty() || a.contains(|c: char| c.is_whitespace() || "'\"$\\".contains(c)) {
                format!("'{}'", a.replace('\'', "'\\''"))
            } else {
                a
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn run_datagen(args: DatagenArgs) -> Result<(), String> {
    use strata::tuning::datagen::{Config, run};
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
    use std::io::Write;
    writeln!(out, "# {}", command_line()).map_err(|e| format!("{path}: {e}"))?;
    let start = Instant::now();
    let summary = run(&config, &mut out, &|_, s| {
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

fn run_tune(args: TuneArgs) -> Result<(), String> {
    use strata::tuning::texel::{Config, fit};
    let variant = variant_named(&args.variant)?;
    let weights = strata::eval::weights_of(variant).ok_or(format!(
        "{} has no fitted weights (a variant from a file)",
        args.variant
    ))?;
    let mut samples = Vec::new();
    let mut games = Vec::new();
    let mut made_by = Vec::new();
    for path in &args.data {
        let file = strata::tuning::data::read(&path.to_string_lossy(), variant)?;
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
            Some(path) => strata::tuning::data::read_order(&path.to_string_lossy(), variant)?,
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
    let mut header = vec![
        format!(
            "Evaluation weights of {}: each term's middlegame and endgame weight (1024 = as computed).",
            variant.name()
        ),
        format!("Made by: {}", command_line()),
        format!(
            "{} training and {} validation positions, k = {:.6}, {} iterations of Adam (rate {}, lambda {}, table rate {}, table decay {})",
            f.train,
            f.validation,
            f.k,
            config.iterations,
            config.rate,
            config.lambda,
            config.table_rate,
            config.table_decay
        ),
        format!(
            "Log loss: training {:.6} -> {:.6}, validation {:.6} -> {:.6}",
            f.train_before, f.train_after, f.validation_before, f.validation_after
        ),
    ];
    if !f.order.is_empty() {
        let least =
            |pick: fn(&(f64, f64)) -> f64| f.order.iter().map(pick).fold(f64::INFINITY, f64::min);
        header.push(format!(
            "Ordered pairs: {}, least difference (better - worse) {:.0} -> {:.0} cp",
            f.order.len(),
            least(|o| o.0),
            least(|o| o.1)
        ));
    }
    header.extend(made_by.iter().map(|m| format!("Data: {m}")));
    let text = f.weights.text(&header);
    print!("{text}");
    say(&format!("({:.1} s)", start.elapsed().as_secs_f64()));
    if let Some(out) = &args.out {
        std::fs::write(out, text).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    Ok(())
}

#[derive(Args)]
struct GuiArgs {
    /// The opponent engine, a program speaking the protocol, with its arguments
    /// ("CMD ARGS"; default: this program).
    #[arg(long)]
    engine: Option<String>,
    /// The port (0: any free port).
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// The address to listen on (127.0.0.1: this computer only).
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// The game sessions (browser tabs) served at once, each with its own engine process; a
    /// tab beyond them is told so.
    #[arg(long, default_value_t = strata::gui::bounds::DEFAULT_MAX_SESSIONS)]
    max_sessions: usize,
}

#[derive(Args)]
struct MatchArgs {
    /// fastchess-style arguments (`--engine cmd=... --each tc=10+0.1 --games 10 ...`).
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
    args: Vec<String>,
}

#[derive(Args)]
struct BenchArgs {
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
}

fn run_bench(args: BenchArgs) -> Result<(), String> {
    let variants = if args.variant == "all" {
        Variant::available()
    } else {
        vec![variant_named(&args.variant)?]
    };
    if args.threads == 0 || args.hash == 0 {
        return Err("--threads and --hash must be at least 1".into());
    }
    let never = std::sync::Arc::new(AtomicBool::new(false));
    let results =
        strata::search::bench::run(&variants, args.depth, args.threads, args.hash, &never);
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
    for line in strata::search::bench::report(&results) {
        say(&line);
    }
    Ok(())
}

#[derive(Args)]
struct PerftArgs {
    /// Variant name.
    #[arg(long, default_value = "chess")]
    variant: String,
    /// Start from this FEN instead of the start position.
    #[arg(long)]
    fen: Option<String>,
    /// Moves to play first (the depth may also come last: `--moves e2e4 e7e5 4`).
    #[arg(long, num_args = 1..)]
    moves: Vec<String>,
    /// Print the count of every root move.
    #[arg(long)]
    divide: bool,
    /// Threads; the root moves are shared out among them (the counts are the same).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Depth in plies.
    depth: Option<u32>,
}

/// The variant called `name`, or the error every subcommand gives.
fn variant_named(name: &str) -> Result<Variant, String> {
    Variant::from_name(name).ok_or(format!("unknown variant '{name}'"))
}

/// Prints a line; a closed stdout (`| head`) ends the output quietly instead of panicking.
fn say(text: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stdout().lock(), "{text}");
}

fn run_train_net(args: TrainNetArgs) -> Result<(), String> {
    use strata::tuning::net_train::{Config, FloatNet, mean_loss, read, save, terms_loss, train};
    let paths: Vec<String> = args
        .data
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let start = Instant::now();
    let (mut training, validation) = read(&paths, args.holdout)?;
    say(&format!(
        "{} training and {} validation positions ({:.1} s)",
        training.len(),
        validation.len(),
        start.elapsed().as_secs_f64()
    ));
    if training.is_empty() {
        return Err("no training positions".into());
    }
    let config = Config {
        epochs: args.epochs,
        batch: args.batch.max(1),
        rate: args.rate,
        lambda: args.lambda,
        k: args.k,
        threads: args.threads.max(1),
        seed: args.seed,
        weight_decay: args.weight_decay,
        mirror: !args.no_mirror,
    };
    let mut net = match &args.init {
        None => FloatNet::random(args.seed),
        Some(path) => {
            let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let net = strata::eval::network::Network::read(&bytes)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            FloatNet::from_network(&net)
        }
    };
    say(&format!(
        "the evaluation by terms: validation loss {:.6}",
        terms_loss(&validation, &config)
    ));
    say(&format!(
        "before: training loss {:.6}, validation loss {:.6}",
        mean_loss(&net, &training, &config),
        mean_loss(&net, &validation, &config)
    ));
    let out = args.out.to_string_lossy().into_owned();
    train(
        &mut net,
        &mut training,
        &validation,
        &config,
        &mut |epoch, t, v| {
            say(&format!(
                "epoch {epoch}: training loss {t:.6}, validation loss {v:.6} ({:.0} s)",
                start.elapsed().as_secs_f64()
            ))
        },
        &mut |net| save(net, &out),
    )?;
    say(&format!("written {out}; made by: {}", command_line()));
    Ok(())
}

fn run_perft(mut args: PerftArgs) -> Result<(), String> {
    if args.depth.is_none()
        && let Some(last) = args.moves.last()
        && let Ok(d) = last.parse::<u32>()
    {
        args.depth = Some(d);
        args.moves.pop();
    }
    let depth = args.depth.ok_or("perft: the depth is missing")?;
    if depth > strata::rules::perft::MAX_PERFT_DEPTH {
        return Err(format!(
            "perft: depth {depth} is above the most, {}",
            strata::rules::perft::MAX_PERFT_DEPTH
        ));
    }
    let variant = variant_named(&args.variant)?;
    let mut game = match &args.fen {
        Some(fen) => AnyGame::from_fen(variant, fen)?,
        None => AnyGame::startpos(variant),
    };
    for m in &args.moves {
        let mv = game.parse_move(m).map_err(|e| e.to_string())?;
        game.make(mv);
    }
    if args.threads == 0 {
        return Err("perft: --threads must be at least 1".into());
    }
    let start = Instant::now();
    // Progress on a terminal only: "perft 7: 12/20 root moves, 8.4 s".
    let progress = std::io::stderr().is_terminal();
    let never = AtomicBool::new(false);
    let result = with_game!(&game, g => divide(g, depth, args.threads, &never, &|_, _, done, total| {
        if progress {
            eprint!(
                "\rperft {depth}: {done}/{total} root moves, {:.1} s",
                start.elapsed().as_secs_f64()
            );
        }
    }));
    if progress {
        eprint!("\r\x1b[K");
    }
    if args.divide {
        for (name, n) in &result.rows {
            say(&format!("{name}: {n}"));
        }
        say("");
    }
    let nodes = if depth == 0 { 1 } else { result.nodes() };
    let secs = start.elapsed().as_secs_f64();
    say(&format!("Nodes searched: {nodes}"));
    say(&format!("Time: {secs:.3} s"));
    say(&format!("Nodes/s: {:.0}", nodes as f64 / secs.max(1e-9)));
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let log = cli.log.as_ref().map(|p| p.to_string_lossy().to_string());
    if let Err(e) = strata::logging::init(log.as_deref()) {
        eprintln!("strata: {e}");
        return ExitCode::FAILURE;
    }
    for path in &cli.variant_files {
        if let Err(e) = strata::rules::defined::load_file(&path.to_string_lossy()) {
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
        Some(Cmd::Perft(args)) => run_perft(args),
        Some(Cmd::Bench(args)) => run_bench(args),
        Some(Cmd::Match(args)) => strata::runner::cli(&args.args),
        Some(Cmd::Datagen(args)) => run_datagen(args),
        Some(Cmd::Tune(args)) => run_tune(args),
        Some(Cmd::TrainNet(args)) => run_train_net(args),
        Some(Cmd::Gui(args)) => strata::gui::run(strata::gui::GuiOptions {
            engine: args.engine,
            host: args.host,
            port: args.port,
            max_sessions: args.max_sessions,
        }),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("strata: {e}");
            ExitCode::FAILURE
        }
    }
}
