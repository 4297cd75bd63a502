//! Fuzzing the variant-file loader (`docs/variant-files.md`): mutated TOML of the files in
//! `variants/` never makes loading panic or hang, and the engine answers `setoption name
//! VariantPath` with exactly one line whatever the file holds.
//!
//! The inputs come from a seeded mutation fuzzer (`tests/common/fuzz.rs` for the character
//! mutations, TOML-minded ones below: duplicated and deleted lines, control characters in
//! strings, huge numbers, repeated holes, big boards, long move and leap lists, repeated
//! variants), so every run is reproducible. The default test runs a few thousand inputs
//! (seconds in release). Longer runs:
//!
//!     STRATA_FUZZ_ITERS=200000 cargo test --release --test variant_file_fuzz -- --ignored --nocapture
//!
//! `STRATA_FUZZ_ITERS` sets the number of inputs (for the default test too) and
//! `STRATA_FUZZ_SEED` changes the seed. Most inputs go through `compile_text`, which
//! registers nothing; a few through `load_text` and the engine, while the process's bound on
//! loaded variants leaves room (a load refused for want of room is still a one-line answer).

mod common;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::fuzz::{Fuzzer, iters};
use rand::Rng;
use strata::protocol::{Captured, Engine};
use strata::rules::defined::{self, limits};
use strata::rules::{AnyGame, Game};

/// The seed: `STRATA_FUZZ_SEED`, else a fixed one.
fn seed() -> u64 {
    common::fuzz::env_seed(0x70_f11e)
}

/// A hang detector, not a speed test: far above what any load takes.
const HANG: Duration = Duration::from_secs(10);

/// Runs `f`, turning a panic into a test failure that names the input, and a run longer
/// than [`HANG`] into one too.
fn no_panic<T>(what: &str, input: &str, f: impl FnOnce() -> T) -> T {
    let started = Instant::now();
    let shown = || -> String { input.chars().take(3000).collect() };
    let out = match catch_unwind(AssertUnwindSafe(f)) {
        Ok(v) => v,
        Err(p) => {
            let msg = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            panic!("{what} panicked on input {:?}: {msg}", shown());
        }
    };
    let took = started.elapsed();
    assert!(took < HANG, "{what} took {took:?} on input {:?}", shown());
    out
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The files to start from: every shipped definition, and small ones with holes, ranges and
/// a reserve.
fn corpus() -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(root().join("variants"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    out.sort();
    let king = "[[variant.piece]]\nletter = \"K\"\nname = \"King\"\nroyal = true\nmoves = [{ step = \"all\" }]\n";
    out.push(format!(
        "[[variant]]\nname = \"holed\"\nsource = \"a test\"\n\
         board = {{ files = 3, ranks = 3, holes = [\"b2\"] }}\n\
         start = \"2k/R1/K2 w 0 1\"\n{king}\
         [[variant.piece]]\nletter = \"R\"\nname = \"Rook\"\nmoves = [{{ slide = \"orthogonal\", range = 2 }}]\n"
    ));
    out.push(format!(
        "[[variant]]\nname = \"reserve\"\nsource = \"a test\"\n\
         board = {{ files = 4, ranks = 4 }}\ngoal = \"royal-capture\"\n\
         start = \"rnk1/pppp/PPPP/RNK1[RRn] w 0 1\"\n{king}\
         [[variant.piece]]\nletter = \"R\"\nname = \"Rook\"\nmoves = [{{ slide = \"orthogonal\" }}]\n\
         [[variant.piece]]\nletter = \"N\"\nname = \"Knight\"\npromotes_after_capture = true\nmoves = [{{ leap = [1, 2, 0] }}]\n\
         [[variant.piece]]\nletter = \"P\"\nname = \"Pawn\"\npawn = true\nmoves = [\n\
         {{ step = \"orthogonal\", forward = true, only = \"move\" }},\n\
         {{ step = \"diagonal\", forward = true, only = \"capture\" }},\n]\n\
         [variant.promotion]\nchoices = \"captured\"\n"
    ));
    out
}

/// Numbers at and beyond every limit a file meets.
const NUMBERS: &[&str] = &[
    "0",
    "-1",
    "1",
    "2",
    "15",
    "16",
    "17",
    "18",
    "26",
    "27",
    "99",
    "100",
    "127",
    "128",
    "255",
    "256",
    "320",
    "321",
    "1024",
    "65535",
    "65536",
    "2147483647",
    "-2147483648",
    "2147483648",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "-9223372036854775808",
    "99999999999999999999",
    "1e9",
    "0x10",
    "+5",
    "inf",
    "nan",
];

/// Control characters and line breaks, as TOML escapes (inside a string) and raw.
const ESCAPES: &[&str] = &[
    "\\n",
    "\\r",
    "\\r\\n",
    "\\t",
    "\\u0000",
    "\\u001b",
    "\\u007f",
    "\\u0085",
    "\\u2028",
    "\\u2029",
    "\\u000b",
    "\\u000c",
    "\\nreadyok\\nbestmove a1a1",
];
const RAW: &[&str] = &[
    "\n", "\r", "\t", "\u{0}", "\u{1b}", "\u{7f}", "\u{85}", "\u{2028}", "\u{feff}", "é", "\"",
    "[", "]", "{", "}", "=", ",", "#",
];

/// A TOML-minded mutation fuzzer on top of [`Fuzzer`].
struct TomlFuzzer {
    f: Fuzzer,
}

impl TomlFuzzer {
    fn lines(text: &str) -> Vec<String> {
        text.split_inclusive('\n').map(str::to_string).collect()
    }

    /// A random char boundary of `text`.
    fn at(&mut self, text: &str) -> usize {
        let mut i = self.f.rng.gen_range(0..=text.len());
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    }

    /// The byte ranges of the matches of `pat` (a plain string) in `text`.
    fn matches(text: &str, pat: &str) -> Vec<usize> {
        text.match_indices(pat).map(|(i, _)| i).collect()
    }

    fn mutate(&mut self, text: &str) -> String {
        let mut t = text.to_string();
        for _ in 0..self.f.rng.gen_range(1..=3) {
            t = self.mutate_once(&t);
            if t.len() > 2 * limits::MAX_FILE_BYTES {
                t.truncate(self.at(&t[..2 * limits::MAX_FILE_BYTES]));
            }
        }
        t
    }

    /// A number from 0 to `n - 1`.
    fn below(&mut self, n: usize) -> usize {
        self.f.rng.gen_range(0..n)
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }

    fn mutate_once(&mut self, t: &str) -> String {
        match self.below(16) {
            // Character mutations (truncations, odd characters, swapped tokens...).
            0 | 1 => self.f.mutate(t, &[]),
            // Flip a bit of one ASCII byte.
            2 => {
                let mut b = t.as_bytes().to_vec();
                if b.is_empty() {
                    return t.to_string();
                }
                let i = self.below(b.len());
                if b[i].is_ascii() {
                    b[i] ^= 1 << self.below(7);
                }
                String::from_utf8(b).unwrap_or_else(|_| t.to_string())
            }
            // Duplicate a line, up to many times.
            3 => {
                let mut lines = Self::lines(t);
                if lines.is_empty() {
                    return t.to_string();
                }
                let i = self.below(lines.len());
                let times = [1, 2, 5, 40, 400][self.below(5)];
                let copy = lines[i].clone();
                for _ in 0..times {
                    lines.insert(i, copy.clone());
                }
                lines.concat()
            }
            // Delete or swap lines.
            4 => {
                let mut lines = Self::lines(t);
                if lines.len() < 2 {
                    return t.to_string();
                }
                let (i, j) = (self.below(lines.len()), self.below(lines.len()));
                if self.below(2) == 0 {
                    lines.remove(i);
                } else {
                    lines.swap(i, j);
                }
                lines.concat()
            }
            // A control character or line break inside a string (as an escape).
            5 | 6 => {
                let quotes = Self::matches(t, "\"");
                if quotes.is_empty() {
                    return t.to_string();
                }
                let i = quotes[self.below(quotes.len())] + 1;
                let e = self.pick(ESCAPES);
                format!("{}{e}{}", &t[..i], &t[i..])
            }
            // A raw odd character anywhere.
            7 => {
                let i = self.at(t);
                let c = self.pick(RAW);
                format!("{}{c}{}", &t[..i], &t[i..])
            }
            // A number replaced by one at or beyond a limit.
            8 | 9 => {
                let starts: Vec<usize> = t
                    .char_indices()
                    .filter(|&(i, c)| {
                        c.is_ascii_digit()
                            && !t[..i].ends_with(|p: char| p.is_ascii_digit() || p == '-')
                    })
                    .map(|(i, _)| i)
                    .collect();
                if starts.is_empty() {
                    return t.to_string();
                }
                let a = starts[self.below(starts.len())];
                let b = a + t[a..]
                    .find(|c: char| !c.is_ascii_digit())
                    .unwrap_or(t.len() - a);
                let n = self.pick(NUMBERS);
                format!("{}{n}{}", &t[..a], &t[b..])
            }
            // Holes: repeated, many, off the board.
            10 => {
                let Some(i) = t.find("board = {").map(|i| i + "board = {".len()) else {
                    return t.to_string();
                };
                let names = ["a1", "b2", "h8", "Aa1", "Cc3", "Ej10", "z99", "a0", "a100"];
                let n = [1, 4, 40, 1025, 3000][self.below(5)];
                let same = self.below(2) == 0;
                let first = self.pick(&names);
                let list: Vec<String> = (0..n)
                    .map(|_| {
                        let name = if same { first } else { self.pick(&names) };
                        format!("\"{name}\"")
                    })
                    .collect();
                format!("{} holes = [{}],{}", &t[..i], list.join(", "), &t[i..])
            }
            // A big board.
            11 => {
                let n = self.pick(&["18", "20", "26", "99"]);
                let key = self.pick(&["files = ", "ranks = ", "levels = "]);
                match t.find(key) {
                    Some(i) => {
                        let a = i + key.len();
                        let b = a + t[a..]
                            .find(|c: char| !c.is_ascii_digit())
                            .unwrap_or(t.len() - a);
                        format!("{}{n}{}", &t[..a], &t[b..])
                    }
                    None => t.to_string(),
                }
            }
            // Long move lists and leap lists, at and beyond their bounds.
            12 | 13 => {
                let Some(i) = t.find("moves = [").map(|i| i + "moves = [".len()) else {
                    return t.to_string();
                };
                let n = [2, 16, 17, 31, 32, 33, 300, 20_000][self.below(8)];
                let atom = if self.below(2) == 0 {
                    let triples: Vec<String> = (0..n)
                        .map(|_| {
                            let [a, b, c] = [(); 3].map(|_| component(&mut self.f));
                            format!("[{a}, {b}, {c}]")
                        })
                        .collect();
                    format!("{{ leap = [{}] }}, ", triples.join(", "))
                } else {
                    let one = self.pick(&[
                        "{ step = \"all\" }, ",
                        "{ slide = \"diagonal\", range = 2 }, ",
                        "{ leap = [1, 2, 3] }, ",
                    ]);
                    one.repeat(n.min(2000))
                };
                format!("{}{atom}{}", &t[..i], &t[i..])
            }
            // The whole file repeated (many variants, names defined twice).
            14 => {
                let n = [2, 16, 17, 60][self.below(4)];
                let rename = self.below(10) < 7;
                (0..n)
                    .map(|k| {
                        if rename {
                            t.replacen("name = \"", &format!("name = \"r{k}-"), 1)
                        } else {
                            t.to_string()
                        }
                    })
                    .collect()
            }
            // Junk.
            _ => {
                let i = self.at(t);
                let junk = self.f.junk(30);
                format!("{}{junk}{}", &t[..i], &t[i..])
            }
        }
    }
}

/// A leap component: mostly within the bound, sometimes at the ends of `i32` or just past.
fn component(f: &mut Fuzzer) -> i64 {
    match f.rng.gen_range(0..10) {
        0 => [i32::MIN as i64, i32::MAX as i64, 16, -16, 255][f.rng.gen_range(0..5)],
        _ => f.rng.gen_range(-15..=15),
    }
}

/// Room left for variants to register before the process-wide bound (a few loads stay
/// possible for the other tests of this file).
fn room() -> bool {
    defined::loaded_count() + limits::MAX_VARIANTS_PER_FILE + 8 <= limits::MAX_LOADED_VARIANTS
}

struct Counts {
    inputs: usize,
    compiled: usize,
    loaded: usize,
    engine: usize,
}

fn temp_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("strata-vff-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Mutated files: no panic, no hang in `compile_text`; a sample through `load_text` (its
/// variants' start positions keep the invariants) and through the engine (one line).
fn fuzz_loader(n: usize, seed: u64) -> Counts {
    let base = corpus();
    let mut m = TomlFuzzer {
        f: Fuzzer::new(seed),
    };
    let out = Arc::new(Captured::default());
    let mut engine = Engine::new(out.clone());
    let dir = temp_dir();
    let mut c = Counts {
        inputs: 0,
        compiled: 0,
        loaded: 0,
        engine: 0,
    };
    for i in 0..n {
        let from = &base[m.f.rng.gen_range(0..base.len())];
        let input = m.mutate(from);
        c.inputs += 1;
        let path = format!("fuzz-{i}.toml");
        let compiled = no_panic("compile_text", &input, || {
            defined::compile_text(&path, &input, strata::eval::nnue::check_net).map(|v| v.len())
        });
        match &compiled {
            Ok(_) => c.compiled += 1,
            Err(e) => {
                let shown = e.to_string();
                assert!(
                    !shown.chars().any(strata::protocol::line::is_forbidden),
                    "an error that is not one line: {shown:?}"
                );
            }
        }
        // A sample is loaded: most of the compiled ones, a few others.
        let sample = if compiled.is_ok() {
            m.f.rng.gen_bool(0.2)
        } else {
            m.f.rng.gen_bool(0.01)
        };
        if sample && room() {
            let loaded = no_panic("load_text", &input, || {
                defined::load_text(&path, &input, strata::eval::nnue::check_net)
            });
            assert_eq!(loaded.is_ok(), compiled.is_ok(), "{input}");
            if let Ok(vs) = loaded {
                c.loaded += 1;
                for v in vs {
                    no_panic("the start position of a loaded variant", &input, || {
                        let mut g = AnyGame::startpos(v);
                        if g.count_moves() < 500 {
                            common::check_position(&mut g);
                        }
                    });
                }
            }
        }
        if m.f.rng.gen_bool(0.02) && room() {
            let file = dir.join(&path);
            std::fs::write(&file, &input).unwrap();
            let printed = no_panic("setoption name VariantPath", &input, || {
                engine.handle_line(&format!(
                    "setoption name VariantPath value {}",
                    file.display()
                ));
                out.take()
            });
            assert_eq!(printed.len(), 1, "{printed:?} for {input:?}");
            assert!(
                printed[0].starts_with("info string variants loaded from")
                    || printed[0].starts_with("info string error: VariantPath: "),
                "{printed:?}"
            );
            let _ = std::fs::remove_file(file);
            c.engine += 1;
        }
    }
    let _ = std::fs::remove_dir_all(dir);
    c
}

#[test]
fn the_loader_never_panics_or_hangs() {
    let c = fuzz_loader(iters(2500), seed());
    eprintln!(
        "fuzz variant files: {} inputs, {} compiled, {} loaded, {} through the engine",
        c.inputs, c.compiled, c.loaded, c.engine
    );
    assert!(c.compiled > 0 && c.engine > 0, "no input got through");
}

#[test]
#[ignore = "long: STRATA_FUZZ_ITERS inputs (200 000 by default)"]
fn the_loader_never_panics_or_hangs_long() {
    let started = Instant::now();
    let c = fuzz_loader(iters(200_000), seed() ^ 0x1065);
    eprintln!(
        "fuzz variant files (long): {} inputs, {} compiled, {} loaded, {} through the engine in {:?}",
        c.inputs,
        c.compiled,
        c.loaded,
        c.engine,
        started.elapsed()
    );
}

/// The costliest file within every bound of `limits`: the most variants, each on the most
/// cells (spread over a box with the most holes) with the most kinds, each kind with the
/// most distinct leaps and two slides per direction, and its moves repeated up to the
/// bounds as far as the file's size allows.
fn worst_case_file() -> String {
    use limits::{MAX_ATOM_ITEMS, MAX_FILE_BYTES, MAX_HOLES, MAX_VARIANTS_PER_FILE};
    let (files, ranks, levels) = (8usize, 8usize, 21usize);
    let all = files * ranks * levels;
    let keep_n = all - MAX_HOLES; // 320
    // Cells in (level, rank, file) order; every all/keep_n-th kept, so every level keeps some.
    let kept: Vec<bool> = (0..all)
        .map(|i| i * keep_n / all != (i + 1) * keep_n / all)
        .collect();
    let name = |i: usize| {
        let (z, y, x) = (i / (files * ranks), i / files % ranks, i % files);
        format!(
            "{}{}{}",
            (b'A' + z as u8) as char,
            (b'a' + x as u8) as char,
            y + 1
        )
    };
    let holes: Vec<String> = (0..all)
        .filter(|&i| !kept[i])
        .map(|i| format!("\"{}\"", name(i)))
        .collect();
    let first = kept.iter().position(|&k| k).unwrap();
    let last = kept.iter().rposition(|&k| k).unwrap();
    let mut level_texts = Vec::new();
    for z in 0..levels {
        let mut rows = Vec::new();
        for y in (0..ranks).rev() {
            let mut row = String::new();
            let mut empty = 0;
            for x in 0..files {
                let i = (z * ranks + y) * files + x;
                if !kept[i] {
                    continue;
                }
                if i == first || i == last {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    row.push(if i == first { 'K' } else { 'k' });
                } else {
                    empty += 1;
                }
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            if !row.is_empty() {
                rows.push(row);
            }
        }
        level_texts.push(rows.join("/"));
    }
    let start = format!("{} w 0 1", level_texts.join("|"));
    let letters = "ABCDEFGHIJLMNOQ";
    // 4 x 48 + 24 + 26 steps = 242 distinct vectors, at most MAX_PIECE_VECTORS.
    let distinct = "[1, 2, 3], [1, 2, 4], [1, 3, 4], [2, 3, 4], [1, 1, 2]";
    let variant = |v: usize, repeats: usize| -> String {
        let mut s = format!(
            "[[variant]]\nname = \"worst-{v}\"\nsource = \"the worst case of every bound\"\n\
             start = \"{start}\"\n\
             [variant.board]\nfiles = {files}\nranks = {ranks}\nlevels = {levels}\nholes = [{}]\n",
            holes.join(",")
        );
        s.push_str("[[variant.piece]]\nletter = \"K\"\nname = \"King\"\nroyal = true\nmoves = [{ step = \"all\" }]\n");
        let padding = vec!["[1, 2, 3]"; repeats.min(MAX_ATOM_ITEMS - 5)].join(",");
        let sep = if padding.is_empty() { "" } else { ", " };
        let classes = vec!["\"all\""; repeats.clamp(1, MAX_ATOM_ITEMS)].join(",");
        for l in letters.chars() {
            s.push_str(&format!(
                "[[variant.piece]]\nletter = \"{l}\"\nname = \"{l}\"\nmoves = [\
                 {{ leap = [{distinct}{sep}{padding}] }}, \
                 {{ slide = [{classes}], range = 2, only = \"move\" }}, \
                 {{ slide = [{classes}], range = 3, only = \"capture\" }}, \
                 {{ step = [{classes}] }}]\n"
            ));
        }
        s
    };
    // As many repeats as the size limit allows.
    let mut repeats = MAX_ATOM_ITEMS;
    loop {
        let text: String = (0..MAX_VARIANTS_PER_FILE)
            .map(|v| variant(v, repeats))
            .collect();
        if text.len() <= MAX_FILE_BYTES || repeats == 0 {
            return text;
        }
        repeats -= 1;
    }
}

/// The worst file within every bound compiles (it is within them) without a hang; the time
/// is printed (`docs/variant-files.md`, "Limits", quotes it from a release build).
#[test]
fn the_worst_file_within_the_bounds_compiles() {
    let text = worst_case_file();
    assert!(text.len() <= limits::MAX_FILE_BYTES, "{} bytes", text.len());
    let started = Instant::now();
    let compiled = no_panic("compile_text", "the worst case", || {
        defined::compile_text("worst.toml", &text, strata::eval::nnue::check_net)
    });
    let took = started.elapsed();
    let compiled = compiled.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(compiled.len(), limits::MAX_VARIANTS_PER_FILE);
    for c in &compiled {
        assert_eq!(c.rules().geo.cells(), 320);
        assert_eq!(c.rules().kinds, 16);
    }
    eprintln!(
        "the worst file within the bounds ({} bytes, {} variants) compiled in {took:?}",
        text.len(),
        compiled.len()
    );
}
