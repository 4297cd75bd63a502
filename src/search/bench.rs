//! `bench`: a fixed search over fixed positions of every variant (each variant's
//! [`VariantInfo`](crate::rules::VariantInfo) lists them), one thread, fixed depth and hash. Its node count is a checksum of the search's behaviour (it changes only when the
//! search or evaluation does); its nps is a speed figure.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::{Duration, Instant};

use super::{Limits, Settings, Shared, Silent, search, thread_pool};
use crate::rules::{AnyGame, Game, Variant};
use crate::with_game;

/// One variant's bench result.
#[derive(Clone, Debug)]
pub struct BenchResult {
    /// The variant.
    pub variant: Variant,
    /// Nodes searched over all its positions.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
    /// Per position: nodes, time, the depth reached and the best move found.
    pub positions: Vec<PositionResult>,
}

/// One bench position's result.
#[derive(Clone, Debug)]
pub struct PositionResult {
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
    /// The depth of the last completed iteration.
    pub depth: i32,
    /// The best move, in the variant's notation (`(none)` without a legal move).
    pub best: String,
}

/// Runs the bench for `variants`; `depth` overrides each variant's default. Stops early, with
/// the positions searched so far, once `stop` is raised (see [`BenchResult::complete`]).
pub fn run(
    variants: &[Variant],
    depth: Option<u32>,
    threads: usize,
    hash_mib: usize,
    stop: &Arc<AtomicBool>,
) -> Vec<BenchResult> {
    let pool = thread_pool(threads);
    let settings = Settings {
        threads,
        ..Settings::default()
    };
    // One table, emptied before every position: a fresh table each time, without allocating
    // one each time.
    let shared = Shared::with_stop(hash_mib, stop.clone()).expect("the bench's table fits");
    let mut results = Vec::new();
    for &variant in variants {
        let info = variant.info();
        let limits = Limits {
            depth: Some(depth.unwrap_or(info.bench_depth)),
            ..Limits::default()
        };
        let mut result = BenchResult {
            variant,
            nodes: 0,
            time: Duration::ZERO,
            positions: Vec::new(),
        };
        let start = Instant::now();
        for fen in info.bench_positions {
            if stop.load(Relaxed) {
                break;
            }
            let game = AnyGame::from_fen(variant, fen).expect("bench positions are valid");
            shared.new_game();
            let t = Instant::now();
            let outcome =
                with_game!(&game, g => search(g, &limits, &settings, &shared, &Silent, &pool));
            if stop.load(Relaxed) {
                break;
            }
            result.positions.push(PositionResult {
                nodes: outcome.nodes,
                time: t.elapsed(),
                depth: outcome.depth,
                best: outcome
                    .best
                    .map_or("(none)".to_string(), |m| game.move_name(m)),
            });
            result.nodes += outcome.nodes;
        }
        result.time = start.elapsed();
        let complete = result.complete();
        results.push(result);
        if !complete {
            break;
        }
    }
    results
}

impl BenchResult {
    /// Whether every bench position of the variant was searched (false when stopped).
    pub fn complete(&self) -> bool {
        self.positions.len() == self.variant.info().bench_positions.len()
    }
}

/// The report lines: one per variant and a total, each `N nodes M nps`.
pub fn report(results: &[BenchResult]) -> Vec<String> {
    let line = |name: &str, nodes: u64, time: Duration| {
        format!(
            "{name}: {nodes} nodes {} nps",
            (nodes as f64 / time.as_secs_f64().max(1e-9)) as u64
        )
    };
    let mut out: Vec<String> = results
        .iter()
        .map(|r| line(r.variant.name(), r.nodes, r.time))
        .collect();
    let nodes = results.iter().map(|r| r.nodes).sum();
    let time = results.iter().map(|r| r.time).sum();
    out.push(line("total", nodes, time));
    out
}
