//! `bench`: a fixed search over fixed positions of every variant, one thread, fixed depth and
//! hash. Its node count is a checksum of the search's behaviour (it changes only when the
//! search or evaluation does); its nps is a speed figure.

use std::time::{Duration, Instant};

use super::{Limits, Settings, Shared, Silent, search, thread_pool};
use crate::rules::{AnyGame, Game, Variant};
use crate::with_game;

/// The bench positions of a variant (FENs).
pub fn positions(variant: Variant) -> Vec<&'static str> {
    match variant {
        Variant::Chess => vec![
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 2 8",
            "8/8/4k3/3p4/3P4/4K3/8/8 w - - 0 1",
        ],
        Variant::Pole => vec![
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Oo] w KQkq - 0 1",
            "rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR[Oo+] b KQkq - 0 2",
            "r3k2r/p1ppqpb1/bn2pnp1/2oPN3/1p1OP3/2N2Q1p/PPPBBPPP/R3K2R[+] w KQkq - 0 1",
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R[Oo+] w KQ - 2 8",
        ],
        Variant::Polyhedron => vec![
            crate::rules::polyhedron::START_FEN,
            "pg3p/4p1/1p2p1/6/5P/PPPH2|4u1wg/3pps1p/8/2h5/8/5P2/P1PPP1PP/3UUH2|d1a1qkfagd/r2uuuubnr/p3ppp1hp/wp7w/2p4p2/10/1P5f1P/P1P3P2G/RN1UUUU1N1/1DAFQKF1SD|1w1uu3/1p1ppppp/8/8/8/3P3W/P1P1PPPP/1W1U1H1B|spppp1/p5/5p/6/6/P1PPPP[RBAHWWSGGGbnhhg] w - 0 51",
            "p3ap/6/1p4/6/2H3/1PPPP1|3uu1w1/2ppp1hp/7n/8/8/N6N/P1PP4/1W1U1H2|1safqk4/1r2u4g/pDp2pp1p1/4h2p2/6h3/PP8/4P5/2PP1PPf2/R2AUU4/DF2Q3G1|1g1uu3/1p1u1p1p/8/8/8/8/WPPPPPP1/2GUK3|p1pp2/3p2/4pp/6/1P1H2/2PP1P[RBBUFAHWWSSGGrbbddnhwwwsgg] w - 0 71",
        ],
        Variant::Podionic => vec![
            crate::rules::podionic::START_FEN,
            "1p2/kbp1/np2/1p2|1rr1/4/nqb1/pp2|P1pp/NPP1/1B2/1RRP|3P/NP1Q/KP2/B2P w 1 13",
            "bp2/kp2/np2/2pp|brr1/1q1p/npp1/4|4/NP2/1RP1/B1RP|2PP/3P/1PN1/BK1P w 0 13",
        ],
        Variant::Pentaplane => vec![
            crate::rules::pentaplane::START_FEN,
            "5/5/5/5/5|ppppp/5/5/5/PPPPP|rokmz/ppppp/5/PPPPP/ZMKOR|ppppp/5/5/5/PPPPP|5/5/5/5/5 w 0 1",
            "5/5/5/5/5|ppppp/5/5/5/PPPPP|fnkos/ppppp/5/PPPPP/FNKOS|ppppp/5/5/5/PPPPP|5/5/5/5/5 w 0 1",
            "5/5/5/1F3/4N|5/5/5/5/5|4k/3o1/2O2/1o3/5|4p/5/5/5/5|5/4r/5/5/K4 w 0 1",
        ],
        Variant::FutureGeneration => vec![
            crate::rules::future::START_FEN,
            "7bK/8/1wN6/3bC4/8/6bN1/8/4wK3|8/8/8/8/3wC4/8/8/8|8/8/8/4gC3/4sC3/8/8/8|7gK/8/8/2gN5/5sN2/8/8/sK7 w - - wg - 0 1",
            "bR3bK3/7bP/8/4wQ3/8/8/8/4wK3|8/1gQ6/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/sK6gK/sB7/8/8 w - - g - 0 1",
        ],
    }
}

/// The default bench depth of a variant.
pub fn default_depth(variant: Variant) -> u32 {
    match variant {
        Variant::Chess | Variant::Pole => 11,
        Variant::Polyhedron => 6,
        Variant::Podionic => 10,
        Variant::Pentaplane => 9,
        Variant::FutureGeneration => 7,
    }
}

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

/// Runs the bench for `variants`; `depth` overrides each variant's default.
pub fn run(
    variants: &[Variant],
    depth: Option<u32>,
    threads: usize,
    hash_mib: usize,
) -> Vec<BenchResult> {
    let pool = thread_pool(threads);
    let settings = Settings {
        threads,
        ..Settings::default()
    };
    variants
        .iter()
        .map(|&variant| {
            let limits = Limits {
                depth: Some(depth.unwrap_or(default_depth(variant))),
                ..Limits::default()
            };
            let mut nodes = 0;
            let mut per_position = Vec::new();
            let start = Instant::now();
            for fen in positions(variant) {
                let game = AnyGame::from_fen(variant, fen).expect("bench positions are valid");
                let shared = Shared::new(hash_mib);
                let t = Instant::now();
                let outcome =
                    with_game!(&game, g => search(g, &limits, &settings, &shared, &Silent, &pool));
                per_position.push(PositionResult {
                    nodes: outcome.nodes,
                    time: t.elapsed(),
                    depth: outcome.depth,
                    best: outcome
                        .best
                        .map_or("(none)".to_string(), |m| game.move_name(m)),
                });
                nodes += outcome.nodes;
            }
            BenchResult {
                variant,
                nodes,
                time: start.elapsed(),
                positions: per_position,
            }
        })
        .collect()
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
