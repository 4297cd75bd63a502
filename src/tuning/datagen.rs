//! `strata datagen`: seeded self-play games at a fixed node count, their quiet positions
//! written with the search's score and the game's result.
//!
//! Each game starts with a few uniformly random plies (from a generator seeded by the seed,
//! the shard and the game's number, so every game is the same whatever the thread count,
//! and shards of one seed play different games), then both
//! sides play the search's best move. A position is kept when its side to move is not in
//! check, the best move is not a capture or promotion (the position is quiet: its static
//! evaluation means something) and the score is not a mate. A game ends by the rules, by
//! adjudication (both teams' scores agree on a large advantage for several plies) or as a
//! draw after a ply limit.
//!
//! The output is text ([`super::data`]) or binary ([`super::records`]), games in order either
//! way, so that a seed and a shard give the same bytes whatever the thread count.

use std::collections::BTreeMap;
use std::io::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::data::{GAME_MARK, Sample};
use super::records::{self, Record};
use crate::rules::{AnyGame, Game, GameEnd, MoveList, Variant};
use crate::search::{Limits, MATE_BOUND, Settings, Shared, Silent, search, thread_pool};
use crate::with_game;

/// A game is adjudicated won when the score stays beyond this for [`ADJUDICATE_PLIES`] ...
pub const ADJUDICATE_SCORE: i32 = 2500;
/// ... plies in a row.
pub const ADJUDICATE_PLIES: usize = 8;
/// A game still going after this many plies is a draw.
pub const MAX_PLIES: usize = 600;
/// The most games of one run (and of one shard): game numbers are u32.
pub const MAX_GAMES: usize = u32::MAX as usize;
/// The most threads of one run.
pub const MAX_THREADS: usize = 256;
/// The largest transposition table per game, MiB.
pub const MAX_HASH_MIB: usize = 4096;

/// How positions are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `FEN | SCORE | RESULT` lines after `# game N` marks ([`super::data`]).
    Text,
    /// A header, then one record per position ([`super::records`]).
    Binary,
}

/// What to play.
#[derive(Clone, Debug)]
pub struct Config {
    /// The variant to play.
    pub variant: Variant,
    /// Games to play.
    pub games: usize,
    /// Nodes per move.
    pub nodes: u64,
    /// The seed of the random opening plies (the same seed plays the same games).
    pub seed: u64,
    /// The share of the work: game `i` of shard `K` is seeded from (seed, K, i), so shards
    /// of one seed never play the same games. Shard 0 plays the games of the seed alone.
    pub shard: u32,
    /// Random plies at the start of each game.
    pub random_plies: usize,
    /// Games played at the same time (one search thread each).
    pub threads: usize,
    /// Transposition table per game, MiB.
    pub hash_mib: usize,
    /// Text or binary.
    pub format: Format,
    /// What the file says first (the command that reproduces it): a `# ` comment line in
    /// text (none if empty), the header's note in binary.
    pub note: String,
}

impl Config {
    /// Whether every number is within its bound (at least 1 game, thread and node; at most
    /// [`MAX_GAMES`], [`MAX_THREADS`], [`MAX_HASH_MIB`]).
    pub fn check(&self) -> Result<(), String> {
        if self.games == 0 || self.threads == 0 || self.nodes == 0 {
            return Err("games, threads and nodes must be at least 1".into());
        }
        if self.games > MAX_GAMES {
            return Err(format!(
                "at most {MAX_GAMES} games a run, not {}",
                self.games
            ));
        }
        if self.threads > MAX_THREADS {
            return Err(format!(
                "at most {MAX_THREADS} threads, not {}",
                self.threads
            ));
        }
        if !(1..=MAX_HASH_MIB).contains(&self.hash_mib) {
            return Err(format!(
                "the hash must be 1 to {MAX_HASH_MIB} MiB, not {}",
                self.hash_mib
            ));
        }
        // Each thread has its own table.
        let total = self.threads.min(self.games.max(1)) * self.hash_mib;
        if total > MAX_HASH_MIB {
            return Err(format!(
                "the threads' tables together must be at most {MAX_HASH_MIB} MiB, not {total} \
                 ({} threads x {} MiB)",
                self.threads, self.hash_mib
            ));
        }
        Ok(())
    }
}

/// What a run produced.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// Games played.
    pub games: usize,
    /// Positions written.
    pub positions: usize,
    /// Results from White's team's point of view: wins, draws, losses.
    pub wins: usize,
    /// See `wins`.
    pub draws: usize,
    /// See `wins`.
    pub losses: usize,
}

/// A kept position, as each format writes it.
#[derive(Clone, Debug)]
pub struct Kept {
    /// The text line's sample.
    pub sample: Sample,
    /// The binary record.
    pub record: Record,
}

/// A played game: its kept positions and its result for White's team.
type Played = (Vec<Kept>, f64);

/// The finished games, written to the output in game order.
struct InOrder<'a> {
    out: &'a mut (dyn Write + Send),
    format: Format,
    /// The next game to write ...
    next: usize,
    /// ... and the positions of games finished before their turn (at most about one per
    /// thread waits: memory does not grow with the number of games).
    waiting: BTreeMap<usize, Vec<Kept>>,
    error: Option<String>,
    summary: Summary,
}

/// Plays `config.games` games and writes their samples to `out` in game order; `progress`
/// hears of each finished game.
pub fn run(
    config: &Config,
    out: &mut (dyn Write + Send),
    progress: &(dyn Fn(usize, &Summary) + Sync),
) -> Result<Summary, String> {
    config.check()?;
    let started = match config.format {
        Format::Text if config.note.is_empty() => Ok(()),
        Format::Text => writeln!(out, "# {}", config.note.replace('\n', " ")),
        Format::Binary => records::write_header(out, config.variant, &config.note),
    };
    started.map_err(|e| e.to_string())?;
    let next = AtomicUsize::new(0);
    let done = Mutex::new(InOrder {
        out,
        format: config.format,
        next: 0,
        waiting: BTreeMap::new(),
        error: None,
        summary: Summary::default(),
    });
    // Every table is allocated before a game is played: a refusal is an error, not a panic.
    let tables = (0..config.threads.min(config.games))
        .map(|_| Shared::try_new(config.hash_mib))
        .collect::<Result<Vec<_>, _>>()?;
    std::thread::scope(|s| {
        for shared in &tables {
            let (next, done) = (&next, &done);
            s.spawn(move || {
                let pool = thread_pool(1);
                loop {
                    let i = next.fetch_add(1, Relaxed);
                    if i >= config.games {
                        break;
                    }
                    let (samples, result) = play(config, i, shared, &pool);
                    let mut d = done.lock().unwrap();
                    let sum = &mut d.summary;
                    sum.games += 1;
                    sum.positions += samples.len();
                    match result {
                        1.0 => sum.wins += 1,
                        0.0 => sum.losses += 1,
                        _ => sum.draws += 1,
                    }
                    progress(i, sum);
                    d.waiting.insert(i, samples);
                    d.write_ready();
                }
            });
        }
    });
    let d = done.into_inner().unwrap();
    match d.error {
        Some(e) => Err(e),
        None => Ok(d.summary),
    }
}

impl InOrder<'_> {
    /// Writes every game whose turn has come.
    fn write_ready(&mut self) {
        while let Some(kept) = self.waiting.remove(&self.next) {
            // The game's number, so that a tuner can hold whole games out.
            if self.format == Format::Text
                && let Err(e) = writeln!(self.out, "{}{}", GAME_MARK, self.next + 1)
            {
                self.error.get_or_insert(e.to_string());
            }
            for k in kept {
                let written = match self.format {
                    Format::Text => writeln!(self.out, "{}", k.sample.line()),
                    Format::Binary => records::write_record(self.out, &k.record),
                };
                if let Err(e) = written {
                    self.error.get_or_insert(e.to_string());
                }
            }
            self.next += 1;
        }
    }
}

/// The random generator of game `index` (below 2^32) of `shard`: distinct (shard, index)
/// pairs give distinct seeds; shard 0 keeps the seeds of the files made before shards.
fn game_rng(seed: u64, shard: u32, index: usize) -> StdRng {
    let mixed = (u64::from(shard) << 32) ^ index as u64;
    StdRng::seed_from_u64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ mixed)
}

/// Game `index`'s position after its random plies (drawn again while they end the game).
fn opening(config: &Config, index: usize) -> AnyGame {
    let mut rng = game_rng(config.seed, config.shard, index);
    loop {
        let mut game = AnyGame::startpos(config.variant);
        let mut list = MoveList::new();
        for _ in 0..config.random_plies {
            list.clear();
            game.generate(&mut list);
            if list.is_empty() {
                break;
            }
            let m = list.as_slice()[rng.gen_range(0..list.len())];
            game.make(m);
        }
        if game.outcome().is_none() {
            return game;
        }
    }
}

/// Plays game `index`: its samples and its result for White's team.
pub fn play(config: &Config, index: usize, shared: &Shared, pool: &rayon::ThreadPool) -> Played {
    let mut game = opening(config, index);
    shared.new_game();
    let limits = Limits {
        nodes: Some(config.nodes),
        ..Limits::default()
    };
    let settings = Settings::default();
    let mut samples: Vec<Kept> = Vec::new();
    let mut streak: (i32, usize) = (0, 0);
    let result = loop {
        if let Some(end) = game.outcome() {
            break match end {
                GameEnd::Draw { .. } => 0.5,
                GameEnd::Win { winner, .. } => (winner == 0) as u8 as f64,
            };
        }
        if game.history_len() >= MAX_PLIES {
            break 0.5;
        }
        let found = with_game!(&game, g => search(g, &limits, &settings, shared, &Silent, pool));
        let Some(best) = found.best else {
            break 0.5;
        };
        let white_team = if game.team_to_move() == 0 {
            found.score
        } else {
            -found.score
        };
        if !game.in_check() && !game.is_tactical(best) && found.score.abs() < MATE_BOUND {
            samples.push(Kept {
                sample: Sample {
                    fen: game.fen(),
                    score: white_team,
                    result: 0.0,
                },
                record: Record::from_game(&game, white_team, 0.0, (index + 1) as u32),
            });
        }
        let side = white_team.signum();
        if white_team.abs() >= ADJUDICATE_SCORE && side == streak.0 {
            streak.1 += 1;
        } else {
            streak = (side, (white_team.abs() >= ADJUDICATE_SCORE) as usize);
        }
        if streak.1 >= ADJUDICATE_PLIES {
            break if streak.0 > 0 { 1.0 } else { 0.0 };
        }
        game.make(best);
    };
    for k in &mut samples {
        k.sample.result = result;
        k.record.result = records::result_code(result);
    }
    (samples, result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngCore;

    fn config(variant: Variant, shard: u32, threads: usize, format: Format) -> Config {
        Config {
            variant,
            games: 3,
            nodes: 300,
            seed: 5,
            shard,
            random_plies: 6,
            threads,
            hash_mib: 1,
            format,
            note: format!("made by a test, shard {shard}"),
        }
    }

    fn data(c: &Config) -> (Vec<u8>, Summary) {
        let mut out = Vec::new();
        let summary = run(c, &mut out, &|_, _| {}).unwrap();
        (out, summary)
    }

    #[test]
    fn the_same_seed_gives_the_same_data_whatever_the_threads() {
        let (a, sa) = data(&config(Variant::Chess, 0, 1, Format::Text));
        let (b, sb) = data(&config(Variant::Chess, 0, 2, Format::Text));
        assert_eq!(a, b);
        assert_eq!(sa, sb);
        assert_eq!(sa.games, 3);
        let text = String::from_utf8(a).unwrap();
        assert!(text.starts_with("# made by a test, shard 0\n"));
        let marks: Vec<&str> = text.lines().filter(|l| l.starts_with("# game")).collect();
        assert_eq!(marks, ["# game 1", "# game 2", "# game 3"]);
        assert_eq!(text.lines().count(), sa.positions + 4);
        assert!(sa.positions > 0);
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let s = Sample::parse(line).unwrap();
            let g = AnyGame::from_fen(Variant::Chess, &s.fen).unwrap();
            assert!(!g.in_check(), "{line}");
        }
    }

    /// Binary shards: byte for byte from (seed, shard) whatever the threads; another shard
    /// plays other games; the binary file holds the text file's positions.
    #[test]
    fn binary_shards_are_reproduced_from_their_seeds() {
        let v = Variant::Polyhedron;
        let (a, sa) = data(&config(v, 3, 1, Format::Binary));
        let (b, _) = data(&config(v, 3, 2, Format::Binary));
        let (again, _) = data(&config(v, 3, 2, Format::Binary));
        assert_eq!(a, b);
        assert_eq!(a, again);
        let (other, _) = data(&config(v, 4, 2, Format::Binary));
        let path = std::env::temp_dir().join(format!("strata-datagen-{}", std::process::id()));
        let read = |bytes: &[u8]| {
            std::fs::write(&path, bytes).unwrap();
            records::read(path.to_str().unwrap(), v).unwrap()
        };
        let (ra, rother) = (read(&a), read(&other));
        assert_eq!(ra.len(), sa.positions);
        assert_eq!(
            ra.iter()
                .map(|r| r.game)
                .collect::<std::collections::BTreeSet<_>>(),
            [1, 2, 3].into()
        );
        // No game of shard 4 is a game of shard 3: their first positions differ.
        let first = |rs: &[Record], g: u32| rs.iter().find(|r| r.game == g).cloned();
        for g in 1..=3 {
            for h in 1..=3 {
                assert_ne!(first(&ra, g), first(&rother, h), "games {g} and {h}");
            }
        }
        // The text file of the same shard has the same positions.
        let (text, st) = data(&config(v, 3, 1, Format::Text));
        assert_eq!(st, sa);
        std::fs::write(&path, &text).unwrap();
        assert_eq!(records::read(path.to_str().unwrap(), v).unwrap(), ra);
        std::fs::remove_file(&path).unwrap();
        // Shard 0 plays the games of the seed alone (as before shards).
        let old = game_rng(5, 0, 7).next_u64();
        let before = StdRng::seed_from_u64(5u64.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 7).next_u64();
        assert_eq!(old, before);
    }

    #[test]
    fn out_of_bounds_configs_are_refused() {
        let mut c = config(Variant::Chess, 0, 1, Format::Binary);
        c.threads = MAX_THREADS + 1;
        assert!(
            run(&c, &mut Vec::new(), &|_, _| {})
                .unwrap_err()
                .contains("threads")
        );
        let mut c = config(Variant::Chess, 0, 1, Format::Binary);
        c.hash_mib = 0;
        assert!(
            run(&c, &mut Vec::new(), &|_, _| {})
                .unwrap_err()
                .contains("hash")
        );
        let mut c = config(Variant::Chess, 0, 1, Format::Binary);
        c.games = MAX_GAMES + 1;
        assert!(
            run(&c, &mut Vec::new(), &|_, _| {})
                .unwrap_err()
                .contains("games")
        );
        // Each thread's table within the bound, all of them together not.
        let mut c = config(Variant::Chess, 0, 1, Format::Binary);
        (c.games, c.threads, c.hash_mib) = (100, 256, MAX_HASH_MIB);
        let e = run(&c, &mut Vec::new(), &|_, _| {}).unwrap_err();
        assert!(e.contains("tables together"), "{e}");
    }
}
