//! The search finds what it must: mates, variant-specific tactics, deterministic node counts.
//! Every search here is limited by depth or nodes, never by time.

use strata::protocol::engine::format_score;
use strata::rules::{AnyGame, Game, Variant};
use strata::search::{Limits, MATE, Settings, Shared, Silent, bench, search, thread_pool};
use strata::with_game;

/// Best move (name) and score of a depth-limited single-thread search.
fn best(variant: Variant, fen: &str, depth: u32) -> (String, i32) {
    let game = AnyGame::from_fen(variant, fen).expect("valid FEN");
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let shared = Shared::new(16);
    let pool = thread_pool(1);
    let out =
        with_game!(&game, g => search(g, &limits, &Settings::default(), &shared, &Silent, &pool));
    (game.move_name(out.best.expect("a move")), out.score)
}

fn mate_in(moves: i32) -> i32 {
    MATE - (2 * moves - 1)
}

#[test]
fn finds_mates_in_two() {
    let (m, s) = best(Variant::Chess, "k7/8/2K5/8/8/8/8/7R w - - 0 1", 6);
    assert!(m == "c6b6" || m == "c6c7", "{m}");
    assert_eq!(s, mate_in(2));
    let (m, s) = best(
        Variant::Chess,
        "6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1",
        6,
    );
    assert_eq!((m.as_str(), s), ("g2g1", mate_in(2)));
    assert_eq!(format_score(s), "mate 2");
}

#[test]
fn finds_mates_in_three() {
    for (fen, answer) in [
        ("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", "f6a6"),
        (
            "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1",
            "f8c5",
        ),
        (
            "2r3k1/p4p2/3Rp2p/1p2P1pK/8/1P4P1/P3Q2P/1q6 b - - 0 1",
            "b1g6",
        ),
    ] {
        let (m, s) = best(Variant::Chess, fen, 8);
        assert_eq!((m.as_str(), s), (answer, mate_in(3)), "{fen}");
    }
}

/// A Bishop and a Knight mate a lone King within the fifty-move rule at 50 000 nodes a move,
/// from the corner where they cannot (a8, the Bishop dark-squared): the evaluation drives the
/// lone King to a corner of the Bishop's colour (src/eval/chess/endgames.rs). Before it, the
/// search shuffled to a draw at 5000 nodes a move from either corner, and self-play games
/// drew half of these endings.
#[test]
fn a_bishop_and_a_knight_mate_a_lone_king() {
    let mut game = AnyGame::from_fen(Variant::Chess, "k7/8/8/8/8/8/8/2B1KN2 w - - 0 1").unwrap();
    let limits = Limits {
        nodes: Some(50_000),
        ..Limits::default()
    };
    let shared = Shared::new(16);
    let pool = thread_pool(1);
    let mut plies = 0;
    let end = loop {
        if let Some(end) = game.outcome() {
            break end;
        }
        let out = with_game!(&game, g => search(g, &limits, &Settings::default(), &shared, &Silent, &pool));
        game.make(out.best.expect("a move"));
        plies += 1;
    };
    assert_eq!(
        (end.result_string(), end.reason()),
        ("1-0", "checkmate"),
        "after {plies} plies: {}",
        game.fen()
    );
}

/// A back-rank mate in chess is no mate in Pole Chess when the defender can drop its Pole
/// between Rook and King; the search must know the variant's rules.
#[test]
fn a_pole_in_hand_stops_a_back_rank_mate() {
    let (m, s) = best(Variant::Chess, "6k1/5ppp/8/8/8/8/5PPP/4R1K1 w - - 0 1", 4);
    assert_eq!((m.as_str(), s), ("e1e8", mate_in(1)));
    let (_, s) = best(
        Variant::Pole,
        "6k1/5ppp/8/8/8/8/5PPP/4R1K1[Oo+] w - - 0 1",
        4,
    );
    assert!(s < MATE - 100, "no mate with a Pole in hand: {s}");
}

/// Wins material with a Knight fork (Nc7+ against King e8 and Rook a8). In Pole Chess the
/// defender's Pole in hand cannot block a Knight's check, so the fork works there too.
#[test]
fn wins_material_with_a_fork() {
    for (variant, fen) in [
        (Variant::Chess, "r3k3/8/8/3N4/8/8/4P3/4K3 w - - 0 1"),
        (Variant::Pole, "r3k3/8/8/3N4/8/8/4P3/4K3[Oo+] w - - 0 1"),
    ] {
        let (m, s) = best(variant, fen, 6);
        assert_eq!(m, "d5c7", "{fen}");
        assert!(
            s > 100,
            "{fen}: the fork wins the Rook ({s}); without it White is a Rook against Knight and pawn"
        );
    }
}

#[test]
fn stalemate_and_checkmate_roots() {
    let shared = Shared::new(1);
    let pool = thread_pool(1);
    let game = AnyGame::from_fen(Variant::Chess, "k7/8/1Q6/8/8/8/8/7K b - - 0 1").unwrap();
    let out = with_game!(&game, g => search(g, &Limits { depth: Some(3), ..Limits::default() }, &Settings::default(), &shared, &Silent, &pool));
    assert_eq!((out.best, out.score), (None, 0));
    let game = AnyGame::from_fen(Variant::Chess, "R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1").unwrap();
    let out = with_game!(&game, g => search(g, &Limits { depth: Some(3), ..Limits::default() }, &Settings::default(), &shared, &Silent, &pool));
    assert_eq!((out.best, out.score), (None, -MATE));
}

#[test]
fn bench_node_count_is_deterministic() {
    let a = bench::run(
        &[Variant::Chess, Variant::Pole],
        Some(6),
        1,
        16,
        &Default::default(),
    );
    let b = bench::run(
        &[Variant::Chess, Variant::Pole],
        Some(6),
        1,
        16,
        &Default::default(),
    );
    assert!(a[0].nodes > 1000);
    assert_eq!(
        a.iter().map(|r| r.nodes).collect::<Vec<_>>(),
        b.iter().map(|r| r.nodes).collect::<Vec<_>>()
    );
}

/// The bench signature: the total node count of `strata bench` (every variant at its default
/// depth, one thread, 16 MiB). It changes only when the search or an evaluation does; a
/// change that alters it updates this number and the README, and says so in its commit
/// message (`Bench: N`).
const BENCH_SIGNATURE: u64 = 3_130_466;

#[test]
fn bench_signature_is_pinned() {
    let results = bench::run(&Variant::ALL, None, 1, 16, &Default::default());
    let total: u64 = results.iter().map(|r| r.nodes).sum();
    assert_eq!(
        total,
        BENCH_SIGNATURE,
        "the bench signature changed: {:?}",
        results
            .iter()
            .map(|r| (r.variant.name(), r.nodes))
            .collect::<Vec<_>>()
    );
}

#[test]
fn two_threads_find_the_same_mate() {
    let game = AnyGame::from_fen(Variant::Chess, "r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1").unwrap();
    let shared = Shared::new(16);
    let pool = thread_pool(2);
    let settings = Settings {
        threads: 2,
        ..Settings::default()
    };
    let out = with_game!(&game, g => search(g, &Limits { depth: Some(8), ..Limits::default() }, &settings, &shared, &Silent, &pool));
    assert_eq!(game.move_name(out.best.unwrap()), "f6a6");
    assert_eq!(out.score, mate_in(3));
}

/// Collects the depths of the `info` lines.
#[derive(Default)]
struct Depths(std::sync::Mutex<Vec<i32>>);

impl strata::search::Reporter for Depths {
    fn iteration(&self, it: &strata::search::Iteration) {
        self.0.lock().unwrap().push(it.depth);
    }
}

/// With a depth limit and several threads, whichever thread completes the depth first ends
/// the search: the answer has exactly that depth, and the last `info` line shows it even
/// when a helper thread found it.
#[test]
fn several_threads_stop_at_the_requested_depth() {
    for threads in [2, 3] {
        let pool = thread_pool(threads);
        let settings = Settings {
            threads,
            ..Settings::default()
        };
        for (variant, fen) in [
            (
                Variant::Chess,
                "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            ),
            (
                Variant::Pole,
                "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[Oo] w KQkq - 2 3",
            ),
        ] {
            for depth in [7, 8] {
                let game = AnyGame::from_fen(variant, fen).unwrap();
                let shared = Shared::new(16);
                let depths = Depths::default();
                let limits = Limits {
                    depth: Some(depth),
                    ..Limits::default()
                };
                let out =
                    with_game!(&game, g => search(g, &limits, &settings, &shared, &depths, &pool));
                assert_eq!(out.depth, depth as i32, "{threads} threads, {fen}");
                let best = out.best.unwrap();
                assert_eq!(game.parse_move(&game.move_name(best)).ok(), Some(best));
                let seen = depths.0.into_inner().unwrap();
                assert_eq!(
                    seen.last(),
                    Some(&(depth as i32)),
                    "{threads} threads: {seen:?}"
                );
            }
        }
    }
}

/// A crowded Polyhedron middlegame (from a sanity game against the random mover) where the
/// capture tree of the quiescence search once exploded: depth 1 took 2.8 million nodes, so
/// a 100 000-node search played an unsearched move into a mate. Under-promotions and, deep
/// in the quiescence search, all but recaptures are left out now.
#[test]
fn quiescence_search_stays_small_in_crowded_3d_positions() {
    let fen = "3pGp/1Q4/3k1P/3PW1/2PB1U/hP2U1|G7/1p1p4/w1P5/8/6WP/4PP2/1P2U3/4R1DH|d2fq1fa1d/r2uu4r/spp5pp/4h5/8P1/P1P2P1p1P/4P1P3/1P6H1/4R2K2/10|2D3w1/p3ppbp/8/P1P4P/1N2P1P1/6G1/3P4/4W3|B3pp/1u4/4P1/6/6/1u3P[UFFAANHHWSSGbuuuannhhwwsgggg] b - 0 279";
    let game = AnyGame::from_fen(Variant::Polyhedron, fen).unwrap();
    let limits = Limits {
        nodes: Some(100_000),
        ..Limits::default()
    };
    let shared = Shared::new(16);
    let pool = thread_pool(1);
    let out =
        with_game!(&game, g => search(g, &limits, &Settings::default(), &shared, &Silent, &pool));
    assert!(out.depth >= 2, "only depth {} in 100 000 nodes", out.depth);
}

/// Each variant searches and plans its clock as it was measured to play best
/// (docs/engine.md): chess's search refinements in chess and Pole Chess; chess's clock plan
/// there and in the variants where it won at 5 s + 0.05 s on its own; the long plan in
/// Polyhedron, whose games are the longest. Pentaplane lost with chess's plan, so the plan
/// is not simply on everywhere.
#[test]
fn each_variant_searches_and_plans_its_clock_as_measured() {
    use strata::eval::{ClockPlan, Evaluate};
    let expected = [
        (Variant::Chess, true, ClockPlan::Chess),
        (Variant::Pole, true, ClockPlan::Chess),
        (Variant::Polyhedron, false, ClockPlan::Long),
        (Variant::Podionic, false, ClockPlan::Chess),
        (Variant::Pentaplane, false, ClockPlan::Default),
        (Variant::FutureGeneration, false, ClockPlan::Chess),
    ];
    assert_eq!(expected.len(), Variant::ALL.len());
    for (v, refined, plan) in expected {
        let game = AnyGame::startpos(v);
        let got = with_game!(&game, g => (g.refined_search(), g.clock_plan()));
        assert_eq!(got, (refined, plan), "{v:?}: (refined search, clock plan)");
    }
}
