//! Perft speed per variant (single thread, bulk counting at the last ply).
//!
//! For each implemented variant the depth is the smallest whose perft from the start position
//! visits at least 200,000 leaves, so every benchmark measures the same kind of work; the
//! chess middlegame position "Kiwipete" is measured as well. Run with `cargo bench`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use strata::rules::perft::perft;
use strata::rules::{AnyGame, Variant};
use strata::with_game;

fn depth_for(game: &AnyGame) -> (u32, u64) {
    let mut g = game.clone();
    for depth in 1..8 {
        let n = with_game!(&mut g, p => perft(p, depth));
        if n >= 200_000 {
            return (depth, n);
        }
    }
    (8, with_game!(&mut g, p => perft(p, 8)))
}

fn bench(c: &mut Criterion) {
    let mut cases: Vec<(String, AnyGame)> = Variant::ALL
        .into_iter()
        .map(|v| (format!("{}-start", v.name()), AnyGame::startpos(v)))
        .collect();
    cases.push((
        "chess-kiwipete".into(),
        AnyGame::from_fen(
            Variant::Chess,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        )
        .expect("valid FEN"),
    ));
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for (name, game) in cases {
        let (depth, nodes) = depth_for(&game);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("{name}-depth{depth}"), |b| {
            b.iter(|| {
                let mut g = game.clone();
                with_game!(&mut g, p => perft(p, depth))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
