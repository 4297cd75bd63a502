//! Fuzzing in process, for every variant: the FEN parser, the move parser, the protocol line
//! parser and the engine's line handler never panic on broken input, and random games keep
//! every position invariant (`common::check_position`).
//!
//! The inputs come from a seeded mutation fuzzer (`tests/common/fuzz.rs`), so every run is
//! reproducible. The default tests run a few thousand inputs per target (seconds). Longer runs:
//!
//!     STRATA_FUZZ_ITERS=1000000 cargo test --release --test fuzz -- --ignored --nocapture
//!
//! `STRATA_FUZZ_ITERS` sets the inputs per target and variant (for the default tests too) and
//! `STRATA_FUZZ_SEED` changes the seed, to explore new inputs. A debug build (`cargo test
//! --test fuzz`) also catches integer overflow. A panic is reported with the input that caused
//! it; keep that input as a regression test next to the fix (`regression_*` below,
//! `non_ascii_move_text_is_an_error_not_a_panic` in `tests/chess_rules.rs`).

mod common;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::fuzz::{self, Fuzzer, iters};
use rand::Rng;
use strata::protocol::command::Command;
use strata::protocol::{Captured, Engine};
use strata::rules::{AnyGame, Game, MoveList, Variant};

/// The base seed: `STRATA_FUZZ_SEED`, else a fixed one.
fn base_seed() -> u64 {
    common::fuzz::env_seed(0x5712_a7a0)
}

fn seed_for(target: u64, variant: Variant) -> u64 {
    let v = Variant::ALL.iter().position(|&x| x == variant).unwrap_or(0) as u64;
    base_seed() ^ (target << 32) ^ (v << 40)
}

/// Runs `f`, turning a panic into a test failure that names the input.
fn no_panic<T>(what: &str, input: &str, f: impl FnOnce() -> T) -> T {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(v) => v,
        Err(p) => {
            let msg = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            let shown: String = input.chars().take(2000).collect();
            panic!("{what} panicked on input {shown:?}: {msg}");
        }
    }
}

/// Mutated FENs (of this variant mostly, of the others sometimes) never make the FEN parser
/// panic, and a FEN it accepts gives a position that keeps every invariant. Returns the
/// number of inputs and of accepted ones.
fn fuzz_fens(variant: Variant, n: usize) -> (usize, usize) {
    let mut f = Fuzzer::new(seed_for(1, variant));
    let own = fuzz::fens(&fuzz::positions(variant, f.rng.r#gen()));
    let others: Vec<String> = Variant::ALL
        .into_iter()
        .filter(|&v| v != variant)
        .map(|v| v.start_fen().to_string())
        .collect();
    let mut accepted = 0;
    for _ in 0..n {
        let base = if f.rng.gen_bool(0.9) {
            f.pick(&own).clone()
        } else {
            f.pick(&others).clone()
        };
        let input = if f.rng.gen_bool(0.03) {
            f.junk(60)
        } else {
            f.mutate(&base, &[])
        };
        let parsed = no_panic("from_fen", &input, || AnyGame::from_fen(variant, &input));
        if let Ok(mut g) = parsed {
            accepted += 1;
            no_panic("check_position after from_fen", &input, || {
                common::check_position(&mut g)
            });
        }
    }
    (n, accepted)
}

/// Mutated move names on positions from random games never make the move parser panic, and
/// a move it accepts is legal and has the move syntax. Returns (inputs, accepted).
fn fuzz_moves(variant: Variant, n: usize) -> (usize, usize) {
    let mut f = Fuzzer::new(seed_for(2, variant));
    let positions = fuzz::positions(variant, f.rng.r#gen());
    let names: Vec<Vec<String>> = positions.iter().map(fuzz::move_names).collect();
    let all: Vec<String> = names.iter().flatten().cloned().collect();
    let mut accepted = 0;
    for _ in 0..n {
        let i = f.rng.gen_range(0..positions.len());
        let g = &positions[i];
        let legal = &names[i];
        let base = match f.rng.gen_range(0..10) {
            0..=5 if !legal.is_empty() => f.pick(legal).clone(),
            6..=8 if !all.is_empty() => f.pick(&all).clone(),
            _ => f.junk(12),
        };
        let input = match f.rng.gen_range(0..10) {
            0 => base,
            1 => f.junk(20),
            _ => f.mutate(&base, legal),
        };
        let parsed = no_panic("parse_move", &input, || g.parse_move(&input));
        let syntax = no_panic("is_move_syntax", &input, || g.is_move_syntax(&input));
        if let Ok(m) = parsed {
            accepted += 1;
            let mut list = MoveList::new();
            g.generate(&mut list);
            assert!(
                list.contains(m),
                "{}: '{input}' parsed to an illegal move",
                g.fen()
            );
            assert!(
                syntax,
                "{}: '{input}' parses but is not move syntax",
                g.fen()
            );
        }
    }
    (n, accepted)
}

/// Mutated protocol lines never make the line parser panic, and its error messages stay
/// short whatever the line's length. Returns (inputs, accepted).
fn fuzz_command_parser(variant: Variant, n: usize) -> (usize, usize) {
    let mut f = Fuzzer::new(seed_for(3, variant));
    let lines = fuzz::command_lines(variant, f.rng.r#gen());
    let mut accepted = 0;
    for _ in 0..n {
        let input = if f.rng.gen_bool(0.05) {
            f.junk(80)
        } else {
            let base = f.pick(&lines).clone();
            f.mutate(&base, &[])
        };
        match no_panic("Command::from_str", &input, || input.parse::<Command>()) {
            Ok(_) => accepted += 1,
            Err(e) => assert!(
                e.chars().count() <= 300,
                "error message of {} characters for {:?}",
                e.chars().count(),
                input.chars().take(200).collect::<String>()
            ),
        }
    }
    (n, accepted)
}

fn error_count(lines: &[String]) -> usize {
    lines
        .iter()
        .filter(|l| l.starts_with("info string error:"))
        .count()
}

/// Waits (at most a generous minute) until the engine has printed a `bestmove`; returns it.
fn await_bestmove(out: &Captured, seen: &mut Vec<String>) -> String {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        seen.extend(out.take());
        if let Some(b) = seen.iter().find_map(|l| l.strip_prefix("bestmove ")) {
            return b.split_whitespace().next().unwrap_or("").to_string();
        }
        assert!(
            Instant::now() < deadline,
            "no bestmove within a minute: hang"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Mutated protocol lines fed to an engine (with searches running in the background): no
/// panic, every line the parser rejects gets exactly one `info string error:` line and any
/// other line at most one, an error leaves the position unchanged, and afterwards the engine
/// still answers `isready` and plays a legal move. Returns (lines, rejected lines).
fn fuzz_engine(variant: Variant, n: usize) -> (usize, usize) {
    let mut f = Fuzzer::new(seed_for(4, variant));
    let lines = fuzz::command_lines(variant, f.rng.r#gen());
    let out = Arc::new(Captured::default());
    let mut engine = Engine::new(out.clone());
    engine.handle_line(&format!(
        "setoption name UCI_Variant value {}",
        variant.name()
    ));
    let mut sent = 0;
    let mut rejected = 0;
    while sent < n {
        let input = match f.rng.gen_range(0..20) {
            0 => f.junk(80),
            1..=3 => f.pick(&lines).clone(),
            _ => {
                let base = f.pick(&lines).clone();
                f.mutate(&base, &[])
            }
        };
        let parsed = input.parse::<Command>();
        if parsed.as_ref().is_ok_and(|c| fuzz::too_costly(c, 64, 1)) {
            continue;
        }
        sent += 1;
        let before = engine.game().fen();
        let before_variant = engine.game().variant();
        no_panic("Engine::handle_line", &input, || engine.handle_line(&input));
        let printed = out.take();
        let errors = error_count(&printed);
        let shown: String = input.chars().take(200).collect();
        assert!(
            !printed.iter().any(|l| l.contains("search thread failed")),
            "the search thread panicked after {shown:?}"
        );
        if parsed.is_err() && !input.trim().is_empty() {
            rejected += 1;
            assert_eq!(errors, 1, "{shown:?} rejected with {errors} error lines");
        } else {
            assert!(
                errors <= 1,
                "{shown:?} gave {errors} error lines: {printed:?}"
            );
        }
        if errors > 0 {
            assert_eq!(
                engine.game().fen(),
                before,
                "{shown:?} was rejected but changed the position"
            );
            assert_eq!(engine.game().variant(), before_variant);
        }
    }
    // After the storm: still ready, and a legal move from the start position.
    engine.handle_line("stop");
    out.take();
    engine.handle_line("isready");
    assert_eq!(out.take(), vec!["readyok"]);
    engine.handle_line("position startpos");
    engine.handle_line("go depth 2");
    let best = await_bestmove(&out, &mut Vec::new());
    let g = engine.game().clone();
    assert!(
        g.parse_move(&best).is_ok(),
        "{}: bestmove {best} is not legal",
        g.fen()
    );
    (n, rejected)
}

/// Random games with fresh seeds keep every invariant at every position. Returns the number
/// of positions checked.
fn playouts(variant: Variant, games: usize, plies: usize) -> usize {
    let start = AnyGame::startpos(variant);
    common::random_playouts(&start, seed_for(5, variant), games, plies, |_| {})
}

/// One long random game (a thousand and more plies: long histories, large clocks, the
/// draw rules) keeps the invariants, checked every few plies; unmaking it restores the start.
fn long_game(variant: Variant, plies: usize) -> usize {
    let mut f = Fuzzer::new(seed_for(6, variant));
    let start = AnyGame::startpos(variant);
    let mut g = start.clone();
    let mut played = 0;
    for ply in 0..plies {
        if ply % 97 == 0 {
            common::check_position(&mut g);
        }
        let mut list = MoveList::new();
        g.generate(&mut list);
        if list.is_empty() {
            break;
        }
        g.make(*f.pick(list.as_slice()));
        played += 1;
    }
    common::check_position(&mut g);
    while g.history_len() > 0 {
        g.unmake();
    }
    assert!(
        g == start,
        "{}: unmaking a long game did not restore the start",
        variant.name()
    );
    played
}

fn report(target: &str, counted: &str, results: &[(Variant, (usize, usize))]) {
    for (v, (n, k)) in results {
        eprintln!("fuzz {target} {}: {n} inputs, {k} {counted}", v.name());
    }
}

fn each_variant(f: impl Fn(Variant) -> (usize, usize)) -> Vec<(Variant, (usize, usize))> {
    Variant::ALL.into_iter().map(|v| (v, f(v))).collect()
}

#[test]
fn fen_parser_never_panics() {
    let r = each_variant(|v| fuzz_fens(v, iters(4000)));
    report("from_fen", "accepted", &r);
    assert!(
        r.iter().all(|(_, (_, accepted))| *accepted > 0),
        "no mutated FEN accepted: {r:?}"
    );
}

#[test]
fn move_parser_never_panics() {
    let r = each_variant(|v| fuzz_moves(v, iters(8000)));
    report("parse_move", "accepted", &r);
}

#[test]
fn command_parser_never_panics() {
    let r = each_variant(|v| fuzz_command_parser(v, iters(8000)));
    report("Command::from_str", "accepted", &r);
}

#[test]
fn engine_answers_every_bad_line_once() {
    let r = each_variant(|v| fuzz_engine(v, iters(1000)));
    report("Engine::handle_line", "rejected", &r);
}

#[test]
fn random_playouts_keep_the_invariants() {
    for v in Variant::ALL {
        let n = playouts(v, 3, 60);
        assert!(n > 40, "{}: only {n} positions", v.name());
    }
}

#[test]
fn long_random_games_keep_the_invariants() {
    for v in Variant::ALL {
        long_game(v, 3000);
    }
}

/// The long run: every target with `STRATA_FUZZ_ITERS` inputs (default 100 000) per variant.
#[test]
#[ignore]
fn long_fuzz() {
    let n = iters(100_000);
    let t = Instant::now();
    report("from_fen", "accepted", &each_variant(|v| fuzz_fens(v, n)));
    report(
        "parse_move",
        "accepted",
        &each_variant(|v| fuzz_moves(v, n)),
    );
    report(
        "Command::from_str",
        "accepted",
        &each_variant(|v| fuzz_command_parser(v, n)),
    );
    report(
        "Engine::handle_line",
        "rejected",
        &each_variant(|v| fuzz_engine(v, n / 10)),
    );
    for v in Variant::ALL {
        let positions = playouts(v, (n / 2000).max(4), 200);
        let plies = long_game(v, 20_000);
        eprintln!(
            "fuzz playouts {}: {positions} positions checked, long game {plies} plies",
            v.name()
        );
    }
    eprintln!("long fuzz: {:.1} s", t.elapsed().as_secs_f64());
}

/// Found by the fuzzer (in a debug build, where overflow panics): a FEN may set the clocks to
/// `u32::MAX`, and the next move overflowed them (chess, Polyhedron and Future Generation
/// panicked; release builds and Pentaplane wrapped to 0, which reads back as 1). The clocks
/// now saturate, unmake restores them exactly, and every FEN along the way reads back.
#[test]
fn regression_clocks_saturate_at_u32_max() {
    for v in Variant::ALL {
        let start = AnyGame::startpos(v);
        let mut fields: Vec<String> = start.fen().split_whitespace().map(str::to_string).collect();
        let n = fields.len();
        fields[n - 2] = u32::MAX.to_string();
        fields[n - 1] = u32::MAX.to_string();
        let fen = fields.join(" ");
        let mut g = AnyGame::from_fen(v, &fen).expect("clocks at u32::MAX are valid");
        let before = g.clone();
        let mut f = Fuzzer::new(7);
        for _ in 0..12 {
            let mut list = MoveList::new();
            g.generate(&mut list);
            g.make(*f.pick(list.as_slice()));
            let now = g.fen();
            assert!(
                now.ends_with(&format!(" {}", u32::MAX)),
                "{}: move number left u32::MAX: {now}",
                v.name()
            );
            let back = AnyGame::from_fen(v, &now).expect("reads back");
            assert_eq!(back.fen(), now);
        }
        while g.history_len() > 0 {
            g.unmake();
        }
        assert!(
            g == before && g.fen() == fen,
            "{}: unmake did not restore the clocks",
            v.name()
        );
    }
}
