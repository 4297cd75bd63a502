//! Memory: the engine's resident set size stays within `Hash` plus a fixed overhead, in every
//! variant, after a search (README, "Resource use").
//!
//! Measured from outside, as a user would: `VmRSS` (resident now) and `VmHWM` (the peak) in
//! `/proc/<pid>/status` of the built binary, after `setoption name Hash value N`, `Threads` and
//! a search. The default test checks Hash 1 and 64 with short searches; the README's table
//! comes from
//!
//!     cargo test --release --test memory -- --ignored --nocapture
//!
//! (Hash 1, 16, 64, 256 MiB, 1 and 2 threads, 2 s searches, every variant: about 2 minutes).
#![cfg(target_os = "linux")]

mod common;

use common::engine::Engine;
use strata::rules::Variant;

/// What the engine needs besides its transposition table, in MiB: code, the variants' tables
/// and networks, the search threads' histories and stacks, the allocator's slack. Measured at
/// 4 to 6 MiB without a network and 17 to 18 MiB in Future Generation, whose network is the
/// largest (3.6 MiB of weights, counted twice: the embedded file's pages and the weights read
/// from them; docs/results.md, "Resource use"); the bound leaves room for other allocators and
/// platforms.
const OVERHEAD_MIB: u64 = 24;

/// The table the engine allocates at start-up, before any `setoption name Hash`.
const DEFAULT_HASH_MIB: u64 = 16;

/// Resident sizes of one engine, in MiB.
#[derive(Clone, Copy, Debug)]
struct Resident {
    /// `VmRSS`: resident now.
    now: u64,
    /// `VmHWM`: the peak so far.
    peak: u64,
}

fn resident(pid: u32) -> Resident {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc status");
    let field = |name: &str| -> u64 {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|kb| kb.parse::<u64>().ok())
            .map(|kb| kb.div_ceil(1024))
            .unwrap_or_else(|| panic!("no {name} in /proc/{pid}/status"))
    };
    Resident {
        now: field("VmRSS:"),
        peak: field("VmHWM:"),
    }
}

/// Starts an engine, sets the variant, `Hash` (each of `hashes` in turn) and `Threads`,
/// searches with `go`, and measures.
fn measure(variant: Variant, hashes: &[u64], threads: usize, go: &str) -> Resident {
    let mut e = Engine::start(&format!("memory {} {hashes:?} {threads}", variant.name()));
    e.send(&format!(
        "setoption name UCI_Variant value {}",
        variant.name()
    ));
    for h in hashes {
        e.send(&format!("setoption name Hash value {h}"));
    }
    e.send(&format!("setoption name Threads value {threads}"));
    e.send("position startpos");
    e.send(go);
    e.await_bestmoves();
    e.sync();
    let r = resident(e.pid());
    if let Some(err) = e.lines.iter().find(|l| l.starts_with("info string error")) {
        let err = err.clone();
        e.fail(&format!("unexpected {err}"));
    }
    e.finish(true);
    r
}

/// Resident now within Hash + overhead; the peak within the larger of Hash and the start-up
/// table, plus the overhead.
fn check(variant: Variant, hash: u64, threads: usize, r: Resident) {
    let what = format!("{} Hash {hash} Threads {threads}: {r:?}", variant.name());
    assert!(
        r.now <= hash + OVERHEAD_MIB,
        "{what}: resident size above Hash + {OVERHEAD_MIB} MiB"
    );
    assert!(
        r.peak <= hash.max(DEFAULT_HASH_MIB) + OVERHEAD_MIB,
        "{what}: peak resident size above Hash + {OVERHEAD_MIB} MiB"
    );
    assert!(
        r.now >= hash,
        "{what}: the table is not resident (is it allocated?)"
    );
}

#[test]
fn resident_size_stays_within_hash_plus_overhead() {
    for v in Variant::ALL {
        for (hash, threads) in [(1, 1), (64, 2)] {
            let r = measure(v, &[hash], threads, "go movetime 200");
            check(v, hash, threads, r);
        }
    }
}

/// Changing `Hash` frees the old table before allocating the new one: the peak never holds
/// two tables (it held both before, 2 x 128 MiB here).
#[test]
fn changing_hash_never_holds_two_tables() {
    let r = measure(Variant::Chess, &[128, 128, 96, 128], 1, "go depth 2");
    check(Variant::Chess, 128, 1, r);
}

/// The README's table.
#[test]
#[ignore]
fn resource_use_table() {
    println!("| variant | Hash (MiB) | Threads | resident (MiB) | peak (MiB) | resident - Hash |");
    println!("| --- | --- | --- | --- | --- | --- |");
    let mut worst = 0;
    for v in Variant::ALL {
        for hash in [1, 16, 64, 256] {
            for threads in [1, 2] {
                let r = measure(v, &[hash], threads, "go movetime 2000");
                check(v, hash, threads, r);
                worst = worst.max(r.now - hash);
                println!(
                    "| {} | {hash} | {threads} | {} | {} | {} |",
                    v.name(),
                    r.now,
                    r.peak,
                    r.now - hash
                );
            }
        }
    }
    println!("largest overhead: {worst} MiB (bound {OVERHEAD_MIB} MiB)");
}
