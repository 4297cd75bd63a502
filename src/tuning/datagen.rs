//! `strata datagen`: seeded self-play games at a fixed node count, their quiet positions
//! written with the search's score and the game's result.
//!
//! Each game starts with a few uniformly random plies (from a generator seeded by the seed
//! and the game's number, so every game is the same whatever the thread count), then both
//! sides play the search's best move. A position is kept when its side to move is not in
//! check, the best move is not a capture or promotion (the position is quiet: its static
//! evaluation means something) and the score is not a mate. A game ends by the rules, by
//! adjudication (both teams' scores agree on a large advantage for several plies) or as a
//! draw after a ply limit.

use std::io::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::data::{GAME_MARK, Sample};
use crate::rules::{AnyGame, Game, GameEnd, MoveList, Variant};
use crate::search::{Limits, MATE_BOUND, Settings, Shared, Silent, search, thread_pool};
use crate::with_game;

/// A game is adjudicated won when the score stays beyond this for [`ADJUDICATE_PLIES`] ...
pub const ADJUDICATE_SCORE: i32 = 2500;
/// ... plies in a row.
pub const ADJUDICATE_PLIES: usize = 8;
/// A game still going after this many plies is a draw.
pub const MAX_PLIES: usize = 600;

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
    /// Random plies at the start of each game.
    pub random_plies: usize,
    /// Games played at the same time (one search thread each).
    pub threads: usize,
    /// Transposition table per game, MiB.
    pub hash_mib: usize,
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

/// A played game: its samples and its result for White's team.
type Played = (Vec<Sample>, f64);

/// The finished games, written to the output in game order.
struct InOrder<'a> {
    out: &'a mut (dyn Write + Send),
    /// The next game to write ...
    next: usize,
    /// ... and the samples of games finished before their turn.
    waiting: Vec<Option<Vec<Sample>>>,
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
    if config.games == 0 || config.threads == 0 || config.nodes == 0 {
        return Err("games, threads and nodes must be at least 1".into());
    }
    let next = AtomicUsize::new(0);
    let done = Mutex::new(InOrder {
        out,
        next: 0,
        waiting: vec![None; config.games],
        error: None,
        summary: Summary::default(),
    });
    std::thread::scope(|s| {
        for _ in 0..config.threads.min(config.games) {
            s.spawn(|| {
                let shared = Shared::new(config.hash_mib);
                let pool = thread_pool(1);
                loop {
                    let i = next.fetch_add(1, Relaxed);
                    if i >= config.games {
                        break;
                    }
                    let (samples, result) = play(config, i, &shared, &pool);
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
                    d.waiting[i] = Some(samples);
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
        while let Some(samples) = self.waiting.get_mut(self.next).and_then(Option::take) {
            // The game's number, so that a tuner can hold whole games out.
            if let Err(e) = writeln!(self.out, "{}{}", GAME_MARK, self.next + 1) {
                self.error.get_or_insert(e.to_string());
            }
            for sample in samples {
                if let Err(e) = writeln!(self.out, "{}", sample.line()) {
                    self.error.get_or_insert(e.to_string());
                }
            }
            self.next += 1;
        }
    }
}

/// The random generator of game `index`.
fn game_rng(seed: u64, index: usize) -> StdRng {
    StdRng::seed_from_u64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ index as u64)
}

/// Game `index`'s position after its random plies (drawn again while they end the game).
fn opening(config: &Config, index: usize) -> AnyGame {
    let mut rng = game_rng(config.seed, index);
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
    let mut samples: Vec<Sample> = Vec::new();
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
            samples.push(Sample {
                fen: game.fen(),
                score: white_team,
                result: 0.0,
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
    for s in &mut samples {
        s.result = result;
    }
    (samples, result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_data_whatever_the_threads() {
        let config = |threads| Config {
            variant: Variant::Chess,
            games: 3,
            nodes: 300,
            seed: 5,
            random_plies: 6,
            threads,
            hash_mib: 1,
        };
        let mut a = Vec::new();
        let mut b = Vec::new();
        let sa = run(&config(1), &mut a, &|_, _| {}).unwrap();
        let sb = run(&config(2), &mut b, &|_, _| {}).unwrap();
        assert_eq!(a, b);
        assert_eq!(sa, sb);
        assert_eq!(sa.games, 3);
        let text = String::from_utf8(a).unwrap();
        let marks: Vec<&str> = text.lines().filter(|l| l.starts_with('#')).collect();
        assert_eq!(marks, ["# game 1", "# game 2", "# game 3"]);
        assert_eq!(text.lines().count(), sa.positions + 3);
        assert!(sa.positions > 0);
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let s = Sample::parse(line).unwrap();
            let g = AnyGame::from_fen(Variant::Chess, &s.fen).unwrap();
            assert!(!g.in_check(), "{line}");
        }
    }
}
