//! Protocol torture test on the built binary (`strata` as a GUI runs it): random and mutated
//! command lines, binary junk (invalid UTF-8, NUL bytes), 1 MB lines, options out of range,
//! `position` with thousands of moves, `go` followed at once by `stop` hundreds of times,
//! `quit` and end of input during a search, `ucinewgame` and variant switches during a search,
//! `Hash` and `Threads` changed between searches.
//!
//! What must hold: the engine never crashes (it exits with status 0 when told to) and never
//! hangs (every wait has a generous watchdog that kills the engine and fails the test; there
//! are no timing assertions); every line the parser rejects gets exactly one `info string
//! error:` line and no line gets more; every `go` gets exactly one `bestmove`, legal by the
//! rules layer; and after each storm the engine still answers `isready` and plays a legal move.
//!
//! The default tests are bounded (seconds). The long run scales every part up:
//!
//!     STRATA_TORTURE_SCALE=20 cargo test --release --test torture -- --ignored
//!
//! (`STRATA_TORTURE_SEED` changes the seed.)

mod common;

use std::time::Instant;

use common::engine::Engine;
use common::fuzz::{self, Fuzzer};
use rand::Rng;
use strata::protocol::command::{Command, GoParams};
use strata::protocol::engine::MAX_ERROR_CHARS;
use strata::rules::{AnyGame, Game, Variant};

/// Scale of the run: `STRATA_TORTURE_SCALE`, else `default`.
fn scale(default: usize) -> usize {
    std::env::var("STRATA_TORTURE_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

fn seed(part: u64) -> u64 {
    let base = std::env::var("STRATA_TORTURE_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x7047_u64);
    base ^ (part << 24)
}

fn is_error(l: &str) -> bool {
    l.starts_with("info string error:")
}

/// Longer than an error line may be: its prefix and `MAX_ERROR_CHARS` characters (cut with
/// `...`), whatever the input's length. Characters, not bytes: an echoed replacement
/// character is three bytes.
fn too_long(l: &str) -> bool {
    l.chars().count() > "info string error: ".len() + MAX_ERROR_CHARS + 3
}

/// Whether `best` is legal in `g` (or `(none)` where there is no legal move), by the rules
/// layer.
fn legal(g: &AnyGame, best: &str) -> bool {
    if best == "(none)" {
        g.count_moves() == 0
    } else {
        g.parse_move(best).is_ok()
    }
}

/// Fails the test (killing the engine) unless `best` is legal in `g`.
fn assert_legal(e: &mut Engine, g: &AnyGame, best: &str) {
    if !legal(g, best) {
        e.fail(&format!("bestmove {best} is not legal in {}", g.fen()));
    }
}

/// Sets `variant` and a position a few random moves from its start; returns the position.
fn set_position(e: &mut Engine, variant: Variant, f: &mut Fuzzer) -> AnyGame {
    let plies = f.rng.gen_range(0..8);
    let (moves, g) = fuzz::random_game(variant, f.rng.r#gen(), 1, plies);
    e.send(&format!(
        "setoption name UCI_Variant value {}",
        variant.name()
    ));
    if moves.is_empty() {
        e.send("position startpos");
    } else {
        e.send(&format!("position startpos moves {}", moves.join(" ")));
    }
    g
}

/// Searches briefly from a known position and checks the move (the engine still plays).
fn plays_a_legal_move(e: &mut Engine, variant: Variant, f: &mut Fuzzer) {
    let g = set_position(e, variant, f);
    e.send("go depth 3");
    e.await_bestmoves();
    let best = e.last_bestmove();
    assert_legal(e, &g, &best);
    e.sync();
}

/// One broken line of a storm: mutated protocol lines, binary junk, NUL bytes, options out of
/// range, long lines.
fn storm_line(f: &mut Fuzzer, corpus: &[String]) -> Vec<u8> {
    match f.rng.gen_range(0..20) {
        0..=9 => {
            let base = f.pick(corpus).clone();
            f.mutate(&base, &[]).into_bytes()
        }
        10 | 11 => f.pick(corpus).clone().into_bytes(),
        12..=14 => f.junk_bytes(120),
        15 => f.junk(100).into_bytes(),
        16 => f.pick(OUT_OF_RANGE).as_bytes().to_vec(),
        17 => {
            // A long line: a protocol line padded with junk tokens up to 64 KB.
            let mut line = f.pick(corpus).clone().into_bytes();
            let n = f.rng.gen_range(1..64) * 1024;
            while line.len() < n {
                line.push(b' ');
                line.extend(f.junk_bytes(12));
            }
            line
        }
        _ => {
            // A valid-looking line with invalid UTF-8 or NUL bytes inside.
            let base = f.pick(corpus).clone();
            let mut line = f.mutate(&base, &[]).into_bytes();
            for _ in 0..f.rng.gen_range(1..4) {
                let at = f.rng.gen_range(0..=line.len());
                let b = *f.pick(&[0u8, 0x80, 0xc3, 0xff, 0xfe, 0xed, 0xa0]);
                line.insert(at, b);
            }
            line
        }
    }
}

/// Lines that once crashed the engine or broke the one-error-line rule (see the regression
/// tests next to each fix); every storm starts with them.
const KNOWN_BAD: &[&str] = &[
    "position startpos moves a\u{e9}1",
    "position startpos moves e2e4 \u{10a87a}3",
    "go depth 1 searchmoves a\u{e9}1 zz e2e5",
    "position fen 8/8/8/8/8/8/8/K6k w - - 4294967295 4294967295 moves a1a2",
];

/// Option values outside their range or type, and unknown options.
const OUT_OF_RANGE: &[&str] = &[
    "setoption name Hash value 0",
    "setoption name Hash value -1",
    "setoption name Hash value 65537",
    "setoption name Hash value 99999999999999999999999",
    "setoption name Hash value 1.5",
    "setoption name Hash value",
    "setoption name Hash",
    "setoption name Threads value 0",
    "setoption name Threads value 513",
    "setoption name Threads value -2",
    "setoption name Threads value two",
    "setoption name MultiPV value 0",
    "setoption name MultiPV value 257",
    "setoption name Move Overhead value -1",
    "setoption name Move Overhead value 5001",
    "setoption name Ponder value maybe",
    "setoption name Ponder value",
    "setoption name UCI_Variant value checkers",
    "setoption name UCI_Variant value",
    "setoption name UCI_Variant value CHESS960",
    "setoption name Contempt value 10",
    "setoption name value 5",
    "setoption name",
    "setoption Hash value 16",
];

/// A storm of broken lines for `variant`, each followed by `isready` so that its answer can
/// be told apart: a rejected line gets exactly one error line, any other at most one. Then
/// the engine still answers and plays. Returns (lines sent, rejected).
fn storm(e: &mut Engine, variant: Variant, n: usize, f: &mut Fuzzer) -> (usize, usize) {
    let corpus = fuzz::command_lines(variant, f.rng.r#gen());
    e.send(&format!(
        "setoption name UCI_Variant value {}",
        variant.name()
    ));
    e.sync();
    let start = e.lines.len();
    // Per line: rejected by the parser, and the `readyok` lines that end its answer.
    let mut plan: Vec<(bool, usize, String)> = Vec::new();
    let mut known = KNOWN_BAD.iter();
    while plan.len() < n {
        let line = match known.next() {
            Some(l) => l.as_bytes().to_vec(),
            None => storm_line(f, &corpus),
        };
        let text = String::from_utf8_lossy(&line).into_owned();
        let parsed = text.trim().parse::<Command>();
        if parsed
            .as_ref()
            .is_ok_and(|c| matches!(c, Command::Quit) || fuzz::too_costly(c, 64, 2))
        {
            continue;
        }
        let readyoks = 1 + matches!(parsed, Ok(Command::IsReady)) as usize;
        let rejected = parsed.is_err() && !text.trim().is_empty();
        let counts = |e: &Engine| {
            e.lines
                .iter()
                .filter(|l| l.starts_with("Nodes searched: ") || l.starts_with("total: "))
                .count()
        };
        let before = counts(e);
        e.send_bytes(&line);
        // `isready` is answered at once while a perft or bench runs (with what follows it
        // queued), so it would not end this line's answer: its count's last line does.
        if matches!(
            parsed,
            Ok(Command::Bench { .. }) | Ok(Command::Go(GoParams { perft: Some(_), .. }))
        ) {
            e.wait("the count's total", |e| counts(e) > before);
        }
        e.send("isready");
        plan.push((rejected, readyoks, text.chars().take(200).collect()));
    }
    let n_ready = e.owed_ready;
    e.wait("readyok after the storm", |e| e.readyoks >= n_ready);
    let mut i = start;
    let out = e.lines.clone();
    let mut rejected_lines = 0;
    for (rejected, readyoks, shown) in &plan {
        let mut errors = 0;
        let mut said = Vec::new();
        let mut seen = 0;
        while seen < *readyoks {
            let l = &out[i];
            if l == "readyok" {
                seen += 1;
            } else if is_error(l) {
                errors += 1;
                said.push(l.clone());
                if too_long(l) {
                    let n = l.chars().count();
                    e.fail(&format!("an error line of {n} characters for {shown:?}"));
                }
            }
            i += 1;
        }
        if *rejected {
            rejected_lines += 1;
            if errors != 1 {
                e.fail(&format!(
                    "{shown:?} rejected with {errors} error lines: {said:?}"
                ));
            }
        } else if errors > 1 {
            e.fail(&format!(
                "{shown:?} answered with {errors} error lines: {said:?}"
            ));
        }
    }
    // Stop whatever the storm left running: every search has its bestmove.
    e.send("stop");
    e.await_bestmoves();
    plays_a_legal_move(e, variant, f);
    (plan.len(), rejected_lines)
}

/// Storms of broken lines in every variant, in one engine (so variants switch mid-stream).
fn storms(lines_per_variant: usize, part: u64) {
    let mut f = Fuzzer::new(seed(part));
    let mut e = Engine::start("storm");
    let mut variants = Variant::ALL;
    for round in 0..2 {
        for &v in &variants {
            let (n, rejected) = storm(&mut e, v, lines_per_variant / 2, &mut f);
            eprintln!(
                "torture storm {} round {round}: {n} lines, {rejected} rejected",
                v.name()
            );
        }
        variants.reverse();
    }
    e.finish(true);
}

/// `go` of every kind followed at once by `stop` (sometimes `ponderhit` first), `n` times per
/// variant: one legal `bestmove` each.
fn go_stop(n: usize, part: u64) {
    let mut f = Fuzzer::new(seed(part));
    let mut e = Engine::start("go/stop");
    let gos = [
        "go",
        "go infinite",
        "go depth 30",
        "go movetime 100000",
        "go ponder",
        "go ponder wtime 1000 btime 1000 gtime 1000 stime 1000",
        "go wtime 100000 btime 100000 winc 100 binc 100",
        "go nodes 100000000",
        "go mate 20",
        "go depth 1",
    ];
    for v in Variant::ALL {
        let g = set_position(&mut e, v, &mut f);
        let first = e.bestmoves;
        for i in 0..n {
            let go = *f.pick(&gos);
            e.send(go);
            match i % 5 {
                0 => e.send("ponderhit"),
                1 => e.send("isready"),
                _ => {}
            }
            e.send("stop");
            if i % 25 == 24 {
                e.sync();
            }
        }
        e.sync();
        e.await_bestmoves();
        let best: Vec<String> = e
            .lines
            .iter()
            .filter_map(|l| l.strip_prefix("bestmove "))
            .skip(first)
            .map(|b| b.split_whitespace().next().unwrap_or("").to_string())
            .collect();
        if best.len() != n {
            e.fail(&format!("{} bestmove lines for {n} go", best.len()));
        }
        for b in &best {
            assert_legal(&mut e, &g, b);
        }
        eprintln!("torture go/stop {}: {n} searches stopped", v.name());
    }
    e.finish(true);
}

/// `quit`, end of input, `ucinewgame` and a variant switch while a search runs.
fn interrupted_searches() {
    let mut f = Fuzzer::new(seed(3));
    for v in Variant::ALL {
        for (go, end) in [
            ("go infinite", "quit"),
            ("go ponder", "quit"),
            ("go movetime 1000000", "quit"),
            ("go infinite", "eof"),
            ("go ponder", "eof"),
            ("go depth 60", "eof"),
        ] {
            let mut e = Engine::start(&format!("{} {go} then {end}", v.name()));
            let g = set_position(&mut e, v, &mut f);
            e.send(go);
            e.sync();
            let lines = e.finish(end == "quit");
            let best = lines
                .iter()
                .find_map(|l| l.strip_prefix("bestmove "))
                .map(|b| b.split_whitespace().next().unwrap_or("").to_string());
            let best = best.unwrap_or_default();
            assert!(
                legal(&g, &best),
                "{} {go} then {end}: bestmove '{best}' in {}",
                v.name(),
                g.fen()
            );
        }
    }
    let mut e = Engine::start("ucinewgame and variant switches during searches");
    let variants = Variant::ALL;
    for (i, &v) in variants.iter().enumerate() {
        let g = set_position(&mut e, v, &mut f);
        e.send("go infinite");
        e.sync();
        e.send("ucinewgame");
        e.await_bestmoves();
        let best = e.last_bestmove();
        assert_legal(&mut e, &g, &best);
        e.send("go depth 2");
        e.await_bestmoves();
        let best = e.last_bestmove();
        assert_legal(&mut e, &g, &best);
        // Switch variant in the middle of a search: the search stops, the new variant's start
        // position is set.
        e.send("go infinite");
        let next = variants[(i + 1) % variants.len()];
        e.send(&format!("setoption name UCI_Variant value {}", next.name()));
        e.send("go depth 2");
        e.await_bestmoves();
        let best = e.last_bestmove();
        let start = AnyGame::startpos(next);
        assert_legal(&mut e, &start, &best);
    }
    e.finish(true);
}

/// `Hash` and `Threads` changed between searches (and during them), in every variant.
fn hash_and_threads(rounds: usize) {
    let mut f = Fuzzer::new(seed(4));
    let mut e = Engine::start("Hash and Threads");
    let settings = [(1, 1), (8, 2), (64, 1), (2, 2), (16, 1), (32, 2)];
    for r in 0..rounds {
        for (i, v) in Variant::ALL.into_iter().enumerate() {
            let (hash, threads) = settings[(r + i) % settings.len()];
            let g = set_position(&mut e, v, &mut f);
            e.send(&format!("setoption name Hash value {hash}"));
            e.send(&format!("setoption name Threads value {threads}"));
            let go = *f.pick(&["go depth 4", "go movetime 30", "go nodes 20000"]);
            e.send(go);
            e.await_bestmoves();
            let best = e.last_bestmove();
            assert_legal(&mut e, &g, &best);
            // Changed during a search: the search stops first.
            e.send("go infinite");
            e.send(&format!("setoption name Threads value {}", 3 - threads));
            e.send(&format!("setoption name Hash value {}", hash * 2));
            e.await_bestmoves();
            let best = e.last_bestmove();
            assert_legal(&mut e, &g, &best);
        }
    }
    e.sync();
    if let Some(err) = e.lines.iter().find(|l| is_error(l)) {
        let err = err.clone();
        e.fail(&format!("unexpected error: {err}"));
    }
    e.finish(true);
}

/// Out-of-range options: one error line each, and the options keep working afterwards.
fn options_out_of_range() {
    let mut e = Engine::start("options out of range");
    for line in OUT_OF_RANGE {
        let before = e.lines.iter().filter(|l| is_error(l)).count();
        e.send(line);
        e.sync();
        let after = e.lines.iter().filter(|l| is_error(l)).count();
        if after != before + 1 {
            e.fail(&format!("{line:?} gave {} error lines", after - before));
        }
    }
    let mut f = Fuzzer::new(seed(5));
    plays_a_legal_move(&mut e, Variant::Chess, &mut f);
    e.finish(true);
}

/// `position` with a long legal game (thousands of moves where the variant's games last that
/// long), from the start and from a FEN half-way; the engine's FEN agrees with the rules
/// layer's and the engine plays a legal move from there.
fn long_games(max_plies: usize) {
    let mut f = Fuzzer::new(seed(6));
    let mut e = Engine::start("long games");
    for v in Variant::ALL {
        let (moves, g) = fuzz::random_game(v, f.rng.r#gen(), 8, max_plies);
        e.send(&format!("setoption name UCI_Variant value {}", v.name()));
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        e.send("d");
        e.sync();
        let fen = format!("Fen: {}", g.fen());
        if !e.lines.iter().rev().take(200).any(|l| *l == fen) {
            e.fail(&format!(
                "{}: after {} moves the engine lacks {fen}",
                v.name(),
                moves.len()
            ));
        }
        e.send("go movetime 200");
        e.await_bestmoves();
        let best = e.last_bestmove();
        assert_legal(&mut e, &g, &best);
        // The same game from the FEN half-way (when that position has a FEN).
        let half = moves.len() / 2;
        let mut mid = AnyGame::startpos(v);
        for m in &moves[..half] {
            let mv = mid.parse_move(m).expect("legal");
            mid.make(mv);
        }
        e.send(&format!(
            "position fen {} moves {}",
            mid.fen(),
            moves[half..].join(" ")
        ));
        e.send("go depth 2");
        e.await_bestmoves();
        let best = e.last_bestmove();
        assert_legal(&mut e, &g, &best);
        eprintln!("torture long game {}: {} moves", v.name(), moves.len());
    }
    e.sync();
    let errors: Vec<String> = e.lines.iter().filter(|l| is_error(l)).cloned().collect();
    if !errors.is_empty() {
        e.fail(&format!("errors: {errors:?}"));
    }
    e.finish(true);
}

/// 1 MB lines: junk bytes, NUL bytes, blanks, a legal move then a megabyte of illegal ones,
/// huge searchmoves and option values. One error line each: every one is longer than the
/// input bound, so it is refused whole, blanks included.
fn megabyte_lines(count: usize) {
    let mut f = Fuzzer::new(seed(7));
    let mut e = Engine::start("1 MB lines");
    const MB: usize = 1 << 20;
    for i in 0..count {
        let (line, errors): (Vec<u8>, usize) = match i % 8 {
            0 => {
                let mut l = f.junk_bytes(MB);
                l.resize(MB, b'x');
                l.insert(0, b'x'); // never a blank line
                (l, 1)
            }
            1 => (vec![0u8; MB], 1),
            // Longer than the input bound (256 KiB): refused whole, blanks too.
            2 => (vec![b' '; MB], 1),
            3 => {
                let mut l = b"position startpos moves e2e4".to_vec();
                while l.len() < MB {
                    l.extend_from_slice(b" e2e4");
                }
                (l, 1)
            }
            4 => {
                let mut l = b"go depth 1 searchmoves".to_vec();
                while l.len() < MB {
                    l.extend_from_slice(b" zz9");
                }
                (l, 1)
            }
            5 => {
                let mut l = b"setoption name Hash value ".to_vec();
                l.resize(MB, b'9');
                (l, 1)
            }
            6 => {
                let mut l = b"position fen ".to_vec();
                while l.len() < MB {
                    l.extend_from_slice(b"rnbqkbnr/");
                }
                (l, 1)
            }
            _ => {
                let mut l = b"setoption name ".to_vec();
                while l.len() < MB {
                    l.extend_from_slice("ü\u{0}\u{202e} ".as_bytes());
                }
                (l, 1)
            }
        };
        let before = e.lines.iter().filter(|l| is_error(l)).count();
        e.send_bytes(&line);
        e.sync();
        let errs: Vec<&String> = e
            .lines
            .iter()
            .filter(|l| is_error(l))
            .skip(before)
            .collect();
        if errs.len() != errors || errs.iter().any(|l| too_long(l)) {
            let lens: Vec<usize> = errs.iter().map(|l| l.chars().count()).collect();
            e.fail(&format!(
                "1 MB line kind {}: {} error lines (lengths {lens:?}), expected {errors}",
                i % 8,
                errs.len()
            ));
        }
    }
    e.send("stop");
    e.await_bestmoves();
    plays_a_legal_move(&mut e, Variant::Chess, &mut f);
    e.finish(true);
}

#[test]
fn storms_of_broken_lines_in_every_variant() {
    storms(scale(1) * 120, 1);
}

#[test]
fn go_then_stop_hundreds_of_times() {
    go_stop(scale(1) * 40, 2);
}

#[test]
fn quit_eof_ucinewgame_and_variant_switch_during_searches() {
    interrupted_searches();
}

#[test]
fn hash_and_threads_change_between_searches() {
    hash_and_threads(scale(1));
}

#[test]
fn options_out_of_range_get_one_error_each() {
    options_out_of_range();
}

#[test]
fn position_with_thousands_of_moves() {
    long_games(scale(1) * 3000);
}

#[test]
fn megabyte_lines_get_one_short_error_each() {
    megabyte_lines(8);
}

/// The long run: every part scaled by `STRATA_TORTURE_SCALE` (default 20), with fresh seeds
/// per round.
#[test]
#[ignore]
fn long_torture() {
    let k = scale(20);
    let t = Instant::now();
    for round in 0..k.div_ceil(5) as u64 {
        storms(600, 100 + round);
        go_stop(200, 200 + round);
    }
    interrupted_searches();
    hash_and_threads(k);
    long_games(20_000);
    megabyte_lines(8 * k.div_ceil(5));
    eprintln!("long torture: {:.1} s", t.elapsed().as_secs_f64());
}
