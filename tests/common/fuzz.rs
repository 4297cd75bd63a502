//! A small seeded mutation fuzzer, shared by `tests/fuzz.rs` (the parsers and the engine in
//! process) and `tests/torture.rs` (the built binary).
//!
//! cargo-fuzz needs a nightly toolchain; this fuzzer runs on stable inside `cargo test`. It
//! starts from valid inputs (FENs, move names, command lines) and breaks them the ways a
//! careless GUI, a bad network pipe or a hostile user would: truncations, deletions, swapped
//! characters and tokens, odd characters (`*`, `@`, digits, NUL, non-ASCII, characters whose
//! case mapping changes their length), huge numbers and very long strings. Every run is
//! reproducible from its seed.

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use strata::protocol::command::{Command, GoParams};
use strata::rules::{AnyGame, Game, MoveList, Variant};

/// Characters the mutations insert: notation characters of every variant, separators,
/// control and non-ASCII characters (multi-byte, right-to-left override, `İ` whose lowercase
/// is longer than itself).
const ODD_CHARS: &[char] = &[
    '*', '@', '/', '|', '[', ']', '+', '-', '.', ':', '=', '#', '0', '1', '2', '5', '8', '9', ' ',
    '\t', '\r', '\u{0}', '\u{1}', '\u{7f}', '\u{a0}', 'é', 'ß', '€', '😀', 'İ', 'ǅ', '\u{fffd}',
    '\u{202e}', '\u{3000}', 'A', 'C', 'E', 'K', 'O', 'Q', 'Z', 'a', 'b', 'e', 'g', 'j', 'k', 'o',
    'q', 's', 'w', 'z',
];

/// Tokens the mutations insert or substitute: numbers at and beyond every integer limit, and
/// protocol and notation words.
const ODD_TOKENS: &[&str] = &[
    "0",
    "-0",
    "-1",
    "1",
    "7",
    "10",
    "11",
    "99",
    "100",
    "255",
    "256",
    "65535",
    "65536",
    "65537",
    "2147483647",
    "2147483648",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "-9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999",
    "1e9",
    "0x10",
    "+5",
    "NaN",
    "moves",
    "fen",
    "startpos",
    "name",
    "value",
    "searchmoves",
    "infinite",
    "ponder",
    "depth",
    "movetime",
    "wtime",
    "gtime",
    "-",
    "*",
    "@",
    "|",
    "/",
    "[]",
    "[Oo+]",
    "O@e4",
    "o@e5",
    "0000",
    "e2e4",
    "Cc3Cc5",
    "Ca1*Ca4",
    "Ae2Ae4",
    "e7e8q",
    "e7e8k",
    "wKQ",
    "gs",
    "8/8/8/8/8/8/8/8",
    "w",
    "b",
    "g",
    "s",
];

/// A reproducible source of broken inputs.
pub struct Fuzzer {
    /// The random source (public so that callers draw their own choices from the same seed).
    pub rng: StdRng,
}

impl Fuzzer {
    /// A fuzzer whose whole output is determined by `seed`.
    pub fn new(seed: u64) -> Self {
        Fuzzer {
            rng: StdRng::seed_from_u64(seed),
        }
    }

    /// One element of a non-empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        items.choose(&mut self.rng).expect("a non-empty slice")
    }

    /// `s` with one to four random mutations; `extra` adds words worth inserting (legal move
    /// names, option names).
    pub fn mutate(&mut self, s: &str, extra: &[String]) -> String {
        let mut chars: Vec<char> = s.chars().collect();
        let n = self.rng.gen_range(1..=4);
        for _ in 0..n {
            self.mutate_once(&mut chars, extra);
        }
        chars.into_iter().collect()
    }

    fn odd_token(&mut self, extra: &[String]) -> String {
        if !extra.is_empty() && self.rng.gen_bool(0.4) {
            self.pick(extra).clone()
        } else {
            self.pick(ODD_TOKENS).to_string()
        }
    }

    /// Start and end (exclusive) of a random whitespace-separated token, if any.
    fn token_span(&mut self, chars: &[char]) -> Option<(usize, usize)> {
        let mut spans = Vec::new();
        let mut start = None;
        for (i, c) in chars.iter().enumerate() {
            match (c.is_whitespace(), start) {
                (false, None) => start = Some(i),
                (true, Some(s)) => {
                    spans.push((s, i));
                    start = None;
                }
                _ => {}
            }
        }
        if let Some(s) = start {
            spans.push((s, chars.len()));
        }
        spans.choose(&mut self.rng).copied()
    }

    fn mutate_once(&mut self, chars: &mut Vec<char>, extra: &[String]) {
        let len = chars.len();
        let at = |rng: &mut StdRng| rng.gen_range(0..=len);
        match self.rng.gen_range(0..14) {
            // Truncate.
            0 => chars.truncate(at(&mut self.rng)),
            // Delete a range.
            1 if len > 0 => {
                let a = self.rng.gen_range(0..len);
                let b = (a + self.rng.gen_range(1..=8)).min(len);
                chars.drain(a..b);
            }
            // Swap two characters.
            2 if len > 1 => {
                let a = self.rng.gen_range(0..len);
                let b = self.rng.gen_range(0..len);
                chars.swap(a, b);
            }
            // Replace a character.
            3 if len > 0 => {
                let a = self.rng.gen_range(0..len);
                chars[a] = *self.pick(ODD_CHARS);
            }
            // Insert a character.
            4 => {
                let a = at(&mut self.rng);
                let c = *self.pick(ODD_CHARS);
                chars.insert(a, c);
            }
            // Duplicate a range.
            5 if len > 0 => {
                let a = self.rng.gen_range(0..len);
                let b = (a + self.rng.gen_range(1..=16)).min(len);
                let piece: Vec<char> = chars[a..b].to_vec();
                let to = at(&mut self.rng);
                chars.splice(to..to, piece);
            }
            // Replace a run of digits by an odd number.
            6 => {
                let digits: Vec<usize> = (0..len).filter(|&i| chars[i].is_ascii_digit()).collect();
                if let Some(&a) = digits.choose(&mut self.rng) {
                    let mut b = a;
                    while b < len && chars[b].is_ascii_digit() {
                        b += 1;
                    }
                    let t = self.pick(ODD_TOKENS).to_string();
                    chars.splice(a..b, t.chars());
                }
            }
            // Insert a token as a word of its own.
            7 => {
                let a = at(&mut self.rng);
                let t = format!(" {} ", self.odd_token(extra));
                chars.splice(a..a, t.chars());
            }
            // Replace a token.
            8 => {
                if let Some((a, b)) = self.token_span(chars) {
                    let t = self.odd_token(extra);
                    chars.splice(a..b, t.chars());
                }
            }
            // Delete a token.
            9 => {
                if let Some((a, b)) = self.token_span(chars) {
                    chars.drain(a..b);
                }
            }
            // Swap two tokens.
            10 => {
                if let (Some((a, b)), Some((c, d))) =
                    (self.token_span(chars), self.token_span(chars))
                    && b <= c
                {
                    let second: Vec<char> = chars[c..d].to_vec();
                    let first: Vec<char> = chars[a..b].to_vec();
                    chars.splice(c..d, first);
                    chars.splice(a..b, second);
                }
            }
            // Flip the case of a character.
            11 if len > 0 => {
                let a = self.rng.gen_range(0..len);
                let c = chars[a];
                chars[a] = if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                };
            }
            // Repeat the whole string (long inputs), rarely.
            12 if self.rng.gen_bool(0.2) && len > 0 => {
                let times = self.rng.gen_range(2..=(8000 / len).clamp(2, 400));
                let copy = chars.clone();
                for _ in 1..times {
                    chars.push(' ');
                    chars.extend_from_slice(&copy);
                }
            }
            // Replace everything by junk.
            13 if self.rng.gen_bool(0.1) => *chars = self.junk(40).chars().collect(),
            _ => {}
        }
    }

    /// A random string of up to `max_len` characters (odd characters, ASCII, any Unicode).
    pub fn junk(&mut self, max_len: usize) -> String {
        let n = self.rng.gen_range(0..=max_len);
        (0..n)
            .map(|_| match self.rng.gen_range(0..3) {
                0 => *self.pick(ODD_CHARS),
                1 => self.rng.gen_range(b' '..=b'~') as char,
                _ => self.rng.r#gen::<char>(),
            })
            .collect()
    }

    /// Random bytes (often invalid UTF-8, NUL included), never a newline: one protocol line.
    pub fn junk_bytes(&mut self, max_len: usize) -> Vec<u8> {
        let n = self.rng.gen_range(0..=max_len);
        (0..n)
            .map(|_| {
                loop {
                    let b: u8 = self.rng.r#gen();
                    if b != b'\n' {
                        break b;
                    }
                }
            })
            .collect()
    }
}

/// Positions of `variant` to start from: the start position, the positions of its perft suite
/// and positions along a few random games.
pub fn positions(variant: Variant, seed: u64) -> Vec<AnyGame> {
    let start = AnyGame::startpos(variant);
    let mut out = vec![start.clone()];
    for file in super::suite_files() {
        let suite = super::load_suite(&file);
        if suite.variant == variant {
            out.extend(suite.cases.iter().map(|c| super::case_position(variant, c)));
        }
    }
    let mut f = Fuzzer::new(seed);
    for _ in 0..4 {
        let mut g = start.clone();
        for ply in 0..120 {
            let mut list = MoveList::new();
            g.generate(&mut list);
            if list.is_empty() {
                break;
            }
            g.make(*f.pick(list.as_slice()));
            if ply % 7 == 3 {
                out.push(g.clone());
            }
        }
    }
    out
}

/// The FENs of `positions` (those that read back: a finished Pentaplane game has none).
pub fn fens(positions: &[AnyGame]) -> Vec<String> {
    positions
        .iter()
        .filter_map(|g| {
            let fen = g.fen();
            AnyGame::from_fen(g.variant(), &fen).ok().map(|_| fen)
        })
        .collect()
}

/// The names of the legal moves of `g`.
pub fn move_names(g: &AnyGame) -> Vec<String> {
    let mut list = MoveList::new();
    g.generate(&mut list);
    list.iter().map(|&m| g.move_name(m)).collect()
}

/// Valid protocol lines of every kind, for `variant` (positions, moves and searches of it).
pub fn command_lines(variant: Variant, seed: u64) -> Vec<String> {
    let mut lines: Vec<String> = [
        "uci",
        "isready",
        "ucinewgame",
        "stop",
        "ponderhit",
        "d",
        "eval",
        "bench 1",
        "setoption name Hash value 2",
        "setoption name Threads value 1",
        "setoption name MultiPV value 3",
        "setoption name MultiPV value 1",
        "setoption name Move Overhead value 10",
        "setoption name Ponder value true",
        "setoption name Clear Hash",
        "position startpos",
        "go depth 2",
        "go nodes 300",
        "go movetime 3",
        "go wtime 60 btime 60 winc 1 binc 1 movestogo 3",
        "go gtime 40 stime 40 ginc 0 sinc 0",
        "go infinite",
        "go ponder depth 1",
        "go mate 1 depth 2",
        "go perft 1",
        "go perft 2",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    lines.extend(
        Variant::ALL
            .iter()
            .map(|v| format!("setoption name UCI_Variant value {}", v.name())),
    );
    let mut f = Fuzzer::new(seed);
    let ps = positions(variant, f.rng.r#gen());
    for g in ps.iter().take(40) {
        let names = move_names(g);
        lines.push(format!("position fen {}", g.fen()));
        if names.len() >= 2 {
            lines.push(format!(
                "go depth 1 searchmoves {} {}",
                names[0],
                names[names.len() - 1]
            ));
        }
    }
    // Whole games from the start, as a GUI sends them.
    let start = AnyGame::startpos(variant);
    for _ in 0..4 {
        let mut g = start.clone();
        let mut moves = Vec::new();
        for _ in 0..f.rng.gen_range(1..40) {
            let names = move_names(&g);
            if names.is_empty() {
                break;
            }
            let name = f.pick(&names).clone();
            g.make(g.parse_move(&name).expect("a legal move name parses"));
            moves.push(name);
        }
        lines.push(format!("position startpos moves {}", moves.join(" ")));
        lines.push(format!(
            "position fen {} moves {}",
            start.fen(),
            moves.join(" ")
        ));
    }
    lines
}

/// Commands the engine fuzzers do not send: they are correct but slow (deep perft, bench),
/// big (a table above `max_hash` MiB, more than `max_threads` threads) or write files.
pub fn too_costly(cmd: &Command, max_hash: i64, max_threads: i64) -> bool {
    match cmd {
        Command::Go(GoParams { perft: Some(d), .. }) => *d > 2,
        Command::Bench { .. } => true,
        Command::Genfens(r) => r.count > 3,
        Command::SetOption { name, value } => {
            let n = name.to_ascii_lowercase();
            let v: i64 = value.as_deref().and_then(|v| v.parse().ok()).unwrap_or(0);
            n == "debug log file"
                || (n == "hash" && v > max_hash)
                || (n == "threads" && v > max_threads)
        }
        _ => false,
    }
}

/// A random legal game of `variant` from its start, as move names: the longest of `tries`
/// games of at most `max_plies` plies (games of some variants end early), and the position
/// it leads to.
pub fn random_game(
    variant: Variant,
    seed: u64,
    tries: usize,
    max_plies: usize,
) -> (Vec<String>, AnyGame) {
    let start = AnyGame::startpos(variant);
    let mut f = Fuzzer::new(seed);
    let mut best = (Vec::new(), start.clone());
    for _ in 0..tries {
        let mut g = start.clone();
        let mut names = Vec::new();
        let mut list = MoveList::new();
        while names.len() < max_plies {
            list.clear();
            g.generate(&mut list);
            if list.is_empty() {
                break;
            }
            let m = *f.pick(list.as_slice());
            names.push(g.move_name(m));
            g.make(m);
        }
        if names.len() > best.0.len() {
            best = (names, g);
        }
        if best.0.len() == max_plies {
            break;
        }
    }
    best
}

/// Inputs per fuzz target: `STRATA_FUZZ_ITERS`, else `default`.
pub fn iters(default: usize) -> usize {
    std::env::var("STRATA_FUZZ_ITERS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// The fuzzers' base seed: `STRATA_FUZZ_SEED`, else `default`.
pub fn env_seed(default: u64) -> u64 {
    std::env::var("STRATA_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}
