//! `strata perft`: counts the leaves of the legal-move tree and reports the speed.

use std::io::IsTerminal;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::{say, variant_named};
use crate::rules::perft::{MAX_PERFT_DEPTH, divide};
use crate::rules::{AnyGame, Game};
use crate::with_game;

/// The arguments of `strata perft`.
#[derive(clap::Args)]
pub struct Args {
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

/// Runs `strata perft`.
pub fn run(mut args: Args) -> Result<(), String> {
    if args.depth.is_none()
        && let Some(last) = args.moves.last()
        && let Ok(d) = last.parse::<u32>()
    {
        args.depth = Some(d);
        args.moves.pop();
    }
    let depth = args.depth.ok_or("perft: the depth is missing")?;
    if depth > MAX_PERFT_DEPTH {
        return Err(format!(
            "perft: depth {depth} is above the most, {MAX_PERFT_DEPTH}"
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
