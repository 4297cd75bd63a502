//! The search: iterative deepening, principal variation search with aspiration windows,
//! quiescence search, a shared lock-free transposition table, and Lazy SMP over a rayon pool.
//!
//! State is split explicitly: [`Shared`] is what all threads share (transposition table, stop
//! flag, node counter, clock origin); each thread owns a `Worker` (its copy of the position,
//! histories, killers, PV stack). The search knows variants only through [`Evaluate`] (and so
//! [`Game`]); it reports through the [`Reporter`] trait and never prints.
//!
//! Scores are centipawns from the point of view of the *team* to move, so the same code plays
//! two colours and four colours in two teams: a child position whose team to move is the same
//! (a colour skipped after elimination) is searched without negation.

mod alphabeta;
pub mod bench;
pub mod elo;
mod ordering;
pub mod params;
mod quiescence;
mod root;
pub mod skill;
pub mod time;
pub mod tt;
mod worker;

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering::Relaxed, Ordering::Release};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::eval::Evaluate;
use crate::rules::{Game, GameEnd, Move, MoveList};
use ordering::History;
use skill::{Candidate, Skill};
use tt::{Bound, TranspositionTable};
use worker::Worker;

/// Deepest ply the search reaches.
pub const MAX_PLY: usize = 128;
/// Score of mate at the root (mate in `n` plies scores `MATE - n`).
pub const MATE: i32 = 32_000;
/// Larger than any score.
pub const INFINITE: i32 = 32_500;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;

/// The score of a decided game at `ply`, for the team to move at that ply.
pub fn end_score(end: GameEnd, team_to_move: usize, ply: usize) -> i32 {
    match end {
        GameEnd::Draw { .. } => 0,
        GameEnd::Win { winner, .. } if winner == team_to_move => MATE - ply as i32,
        GameEnd::Win { .. } => -MATE + ply as i32,
    }
}

/// Mate scores are stored relative to the node in the transposition table.
fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// What `go` asked for.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Maximum depth.
    pub depth: Option<u32>,
    /// Maximum nodes (all threads together).
    pub nodes: Option<u64>,
    /// Stop when a mate in this many moves is found.
    pub mate: Option<u32>,
    /// The side to move's clock.
    pub clock: time::Clock,
    /// Search until `stop`.
    pub infinite: bool,
    /// Search until `ponderhit` or `stop`.
    pub ponder: bool,
    /// Only these root moves (empty = all).
    pub searchmoves: Vec<Move>,
    /// The node limit applies only once this depth is completed.
    pub min_depth: i32,
}

/// The default `Move Overhead` in ms.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 30;

/// Stack size of a search thread: the recursion goes `MAX_PLY` deep with a position copy per
/// thread, and 3D positions are large.
const SEARCH_STACK_BYTES: usize = 32 * 1024 * 1024;

/// Settings that hold across searches (UCI options).
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Number of search threads.
    pub threads: usize,
    /// Number of principal variations to report.
    pub multipv: usize,
    /// Time kept in reserve per move for communication delays (ms).
    pub move_overhead: u64,
    /// A handicap (`Skill Level`, `UCI_Elo`), or none at full strength.
    pub skill: Option<Skill>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            threads: 1,
            multipv: 1,
            move_overhead: DEFAULT_MOVE_OVERHEAD_MS,
            skill: None,
        }
    }
}

impl Settings {
    /// The limits and settings of a search under this handicap: at most the level's nodes
    /// (once [`Skill::min_depth`] plies are completed), and [`Skill::candidates`] lines at least.
    fn handicapped(&self, limits: &Limits) -> (Limits, Settings) {
        let mut limits = limits.clone();
        let mut settings = *self;
        if let Some(skill) = self.skill {
            let cap = skill.node_limit();
            limits.nodes = Some(limits.nodes.map_or(cap, |n| n.min(cap)));
            limits.min_depth = skill.min_depth();
            settings.multipv = settings.multipv.max(skill.candidates());
        }
        (limits, settings)
    }
}

/// One line of search output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Iteration {
    /// Depth of the completed iteration.
    pub depth: i32,
    /// Deepest ply reached.
    pub seldepth: usize,
    /// 1-based index of this principal variation.
    pub multipv: usize,
    /// Score for the side to move at the root.
    pub score: i32,
    /// Whether the score is exact or a bound (aspiration fail).
    pub bound: Bound,
    /// Nodes searched so far (all threads).
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Transposition table fill, per mille.
    pub hashfull: u32,
    /// The principal variation, in the variant's notation.
    pub pv: Vec<String>,
}

/// Where the search sends its output.
pub trait Reporter: Send + Sync {
    /// A completed iteration (or an aspiration bound) of one principal variation.
    fn iteration(&self, it: &Iteration);
}

/// A reporter that discards everything.
pub struct Silent;

impl Reporter for Silent {
    fn iteration(&self, _: &Iteration) {}
}

/// What a search found.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// The move to play (`None` if there is no legal move).
    pub best: Option<Move>,
    /// The expected reply.
    pub ponder: Option<Move>,
    /// Score for the side to move.
    pub score: i32,
    /// Depth of the last completed iteration.
    pub depth: i32,
    /// Nodes searched (all threads).
    pub nodes: u64,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// The best root moves of the last completed depth, best first (as many as MultiPV).
    pub candidates: Vec<Candidate>,
    /// The search stopped inside an iteration, after the last `info` line its thread sent.
    pub interrupted: bool,
}

impl Outcome {
    /// Plays candidate `i` instead of the best move.
    fn take_candidate(&mut self, i: usize) {
        if let Some(c) = self.candidates.get(i) {
            self.best = Some(c.mv);
            self.ponder = c.pv.get(1).copied();
            self.score = c.score;
            self.pv = c.pv.clone();
        }
    }
}

/// State shared by all search threads, and kept between searches.
pub struct Shared {
    /// The transposition table.
    pub tt: TranspositionTable,
    /// Set (by the protocol) to stop the search. Not cleared by [`search`]: the caller clears
    /// it before starting, so a `stop` that arrives at once is not lost. Shared (an `Arc`)
    /// so that other work the protocol runs (perft, bench) answers the same `stop`.
    pub stop: Arc<AtomicBool>,
    /// Set when the search is over (the main thread has finished, or a thread reached the
    /// depth limit), to stop the other threads.
    done: AtomicBool,
    /// The deepest iteration any thread has completed in this search.
    completed: AtomicI32,
    /// True while pondering (time limits do not apply). Like `stop`, set by the caller before
    /// the search starts, so that a `ponderhit` arriving at once is not lost.
    pub pondering: AtomicBool,
    nodes: AtomicU64,
    epoch: Instant,
    start_us: AtomicU64,
    /// Each thread's quiet-move history, kept from one search to the next of the same game
    /// (what was learnt about the position's moves stays useful a move later, as in
    /// Stockfish); emptied by [`Shared::new_game`].
    histories: Mutex<Vec<Option<History>>>,
}

impl Shared {
    /// Shared state with a transposition table of `hash_mib` MiB. Panics if the memory
    /// cannot be had; see [`Shared::try_new`].
    pub fn new(hash_mib: usize) -> Self {
        Self::try_new(hash_mib).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Shared state with a transposition table of `hash_mib` MiB, or an error when the
    /// memory cannot be had.
    pub fn try_new(hash_mib: usize) -> Result<Self, String> {
        Self::with_stop(hash_mib, Arc::new(AtomicBool::new(false)))
    }

    /// Shared state with a transposition table of `hash_mib` MiB that stops when `stop` is
    /// raised, or an error when the memory cannot be had.
    pub fn with_stop(hash_mib: usize, stop: Arc<AtomicBool>) -> Result<Self, String> {
        Ok(Shared {
            tt: TranspositionTable::try_new(hash_mib)?,
            stop,
            done: AtomicBool::new(false),
            completed: AtomicI32::new(0),
            pondering: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            epoch: Instant::now(),
            start_us: AtomicU64::new(0),
            histories: Mutex::new(Vec::new()),
        })
    }

    /// A new game: the transposition table and the histories are emptied.
    pub fn new_game(&self) {
        self.tt.clear();
        self.histories
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
    }

    /// Thread `id`'s history from the last search (empty after [`Shared::new_game`]).
    fn take_history(&self, id: usize, shape: Option<crate::eval::HistoryShape>) -> History {
        let mut h = self.histories.lock().unwrap_or_else(|e| e.into_inner());
        h.get_mut(id)
            .and_then(Option::take)
            .filter(|h| h.fits(shape))
            .unwrap_or_else(|| History::new(shape))
    }

    /// Keeps thread `id`'s history for the next search.
    fn keep_history(&self, id: usize, history: History) {
        let mut h = self.histories.lock().unwrap_or_else(|e| e.into_inner());
        if h.len() <= id {
            h.resize_with(id + 1, || None);
        }
        h[id] = Some(history);
    }

    /// Restarts the clock (at the start of a search, and at `ponderhit`).
    pub fn restart_clock(&self) {
        self.start_us
            .store(self.epoch.elapsed().as_micros() as u64, Relaxed);
    }

    /// Time since the clock was (re)started.
    pub fn elapsed(&self) -> Duration {
        let now = self.epoch.elapsed().as_micros() as u64;
        Duration::from_micros(now.saturating_sub(self.start_us.load(Relaxed)))
    }

    /// `ponderhit`: from now on the time limits apply, counted from now. Only while
    /// pondering: a stray `ponderhit` during a timed search must not restart its clock, or
    /// the search would overrun the time it was given.
    pub fn ponderhit(&self) {
        if self.pondering.load(Relaxed) {
            // The clock first: a search that sees `pondering` false (Acquire) sees it too.
            self.restart_clock();
            self.pondering.store(false, Release);
        }
    }

    /// Nodes searched by all threads (updated in batches).
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Relaxed)
    }
}

/// The legal root moves that the search considers.
fn root_moves<G: Game>(root: &G, limits: &Limits) -> Vec<Move> {
    let mut list = MoveList::new();
    root.generate(&mut list);
    let all: Vec<Move> = list.iter().copied().collect();
    if limits.searchmoves.is_empty() {
        return all;
    }
    let restricted: Vec<Move> = all
        .iter()
        .copied()
        .filter(|m| limits.searchmoves.contains(m))
        .collect();
    if restricted.is_empty() {
        all
    } else {
        restricted
    }
}

/// Searches `root` with `settings.threads` threads of `pool` until a limit is reached or
/// `shared.stop` is set. Returns the best thread's result. While pondering or searching
/// infinitely, the result is held back until `stop` or `ponderhit`, as UCI requires.
pub fn search<G: Evaluate>(
    root: &G,
    limits: &Limits,
    settings: &Settings,
    shared: &Shared,
    reporter: &dyn Reporter,
    pool: &rayon::ThreadPool,
) -> Outcome {
    shared.restart_clock();
    shared.nodes.store(0, Relaxed);
    shared.done.store(false, Relaxed);
    shared.completed.store(0, Relaxed);
    shared.tt.new_search();
    let (limits, settings) = &settings.handicapped(limits);
    let moves_to_go = time::moves_to_go(root.clock_plan());
    let budget = time::budget(&limits.clock, settings.move_overhead, moves_to_go);
    let moves = root_moves(root, limits);
    let outcome = if moves.is_empty() {
        let end = root.decided().unwrap_or_else(|| root.end_without_moves());
        Outcome {
            score: end_score(end, root.team_to_move(), 0),
            ..Outcome::default()
        }
    } else {
        let mut results: Vec<Outcome> = pool.broadcast(|ctx| {
            let id = ctx.index();
            if id >= settings.threads {
                return Outcome::default();
            }
            let mut w = Worker::new(
                id,
                root.clone(),
                shared,
                limits,
                settings,
                budget,
                &moves,
                reporter,
            );
            let out = w.iterate();
            if id == 0 {
                shared.done.store(true, Relaxed);
            }
            shared.keep_history(id, std::mem::replace(&mut w.history, History::empty()));
            out
        });
        // The best thread: the deepest completed iteration, then the better score.
        let best = results
            .iter()
            .enumerate()
            .filter(|(_, o)| o.best.is_some())
            .max_by_key(|(_, o)| (o.depth, o.score))
            .map(|(id, _)| id);
        match best {
            Some(id) => {
                // As Stockfish does: the answer's line is shown again when a helper found it,
                // or when the search stopped inside an iteration, so that the last `info`
                // line before `bestmove` holds the answer and every node searched (a GUI or
                // a match runner takes the move's depth, nodes and time from it).
                if (id != 0 && results[id].depth > results[0].depth) || results[id].interrupted {
                    report_outcome(root, &results[id], shared, reporter);
                }
                results.swap_remove(id)
            }
            None => Outcome::default(),
        }
    };
    // UCI: in ponder or infinite mode the engine waits for `stop`/`ponderhit` before answering.
    while (limits.infinite || shared.pondering.load(Relaxed)) && !shared.stop.load(Relaxed) {
        std::thread::sleep(Duration::from_millis(1));
    }
    let mut outcome = outcome;
    if let Some(skill) = settings.skill {
        let scores: Vec<i32> = outcome.candidates.iter().map(|c| c.score).collect();
        outcome.take_candidate(skill.choose(&scores));
    }
    outcome.nodes = shared.nodes();
    outcome
}

/// Sends `outcome` as an `info` line: its depth, score and principal variation.
fn report_outcome<G: Evaluate>(
    root: &G,
    outcome: &Outcome,
    shared: &Shared,
    reporter: &dyn Reporter,
) {
    let mut pos = root.clone();
    let pv = outcome
        .pv
        .iter()
        .map(|&m| {
            let name = pos.move_name(m);
            pos.make(m);
            name
        })
        .collect();
    reporter.iteration(&Iteration {
        depth: outcome.depth,
        seldepth: outcome.depth as usize,
        multipv: 1,
        score: outcome.score.clamp(-MATE, MATE),
        bound: Bound::Exact,
        nodes: shared.nodes(),
        time: shared.elapsed(),
        hashfull: shared.tt.hashfull(),
        pv,
    });
}

/// Builds a rayon pool for `threads` search threads (with room for deep recursion). Panics
/// if the threads cannot be started; see [`try_thread_pool`].
pub fn thread_pool(threads: usize) -> Arc<rayon::ThreadPool> {
    try_thread_pool(threads).unwrap_or_else(|e| panic!("{e}"))
}

/// Builds a rayon pool for `threads` search threads, or an error when the system refuses
/// the threads (process or memory limits): `Threads` accepts up to 512.
pub fn try_thread_pool(threads: usize) -> Result<Arc<rayon::ThreadPool>, String> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .stack_size(SEARCH_STACK_BYTES)
        .thread_name(|i| format!("strata-search-{i}"))
        .build()
        .map(Arc::new)
        .map_err(|e| format!("cannot start {threads} search threads: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `ponderhit` while not pondering (a stray one during a timed search) must not
    /// restart the clock, or the search would overrun its time.
    #[test]
    fn ponderhit_restarts_the_clock_only_when_pondering() {
        let shared = Shared::new(1);
        shared.restart_clock();
        let started = shared.start_us.load(Relaxed);
        std::thread::sleep(Duration::from_millis(5));
        shared.ponderhit();
        assert_eq!(
            shared.start_us.load(Relaxed),
            started,
            "a stray ponderhit reset the clock"
        );
        shared.pondering.store(true, Relaxed);
        shared.ponderhit();
        assert!(!shared.pondering.load(Relaxed));
        assert!(
            shared.start_us.load(Relaxed) > started,
            "ponderhit restarts the clock"
        );
    }

    /// What a search learnt about quiet moves is there for the next search of the game, and
    /// a new game starts from nothing.
    #[test]
    fn histories_last_from_one_search_to_the_next_until_a_new_game() {
        use crate::rules::chess::ChessPosition;
        let shared = Shared::new(1);
        let pool = thread_pool(1);
        let limits = Limits {
            depth: Some(6),
            ..Limits::default()
        };
        let settings = Settings::default();
        let learnt = |shared: &Shared| -> usize {
            let h = shared.histories.lock().unwrap();
            h.first()
                .and_then(Option::as_ref)
                .map_or(0, |h| h.quiet.iter().filter(|&&v| v != 0).count())
        };
        assert_eq!(learnt(&shared), 0);
        let root = ChessPosition::startpos(false);
        search(&root, &limits, &settings, &shared, &Silent, &pool);
        let after_one = learnt(&shared);
        assert!(after_one > 0, "the first search learnt nothing");
        // The next search works on the kept table: mark it, and the marks that search did
        // not touch are still there after it.
        let shape = root.history_shape();
        let mut taken = shared.take_history(0, shape);
        assert_eq!(taken.quiet.iter().filter(|&&v| v != 0).count(), after_one);
        taken.quiet.iter_mut().for_each(|v| *v = 1234);
        shared.keep_history(0, taken);
        search(&root, &limits, &settings, &shared, &Silent, &pool);
        let marks = shared.histories.lock().unwrap()[0]
            .as_ref()
            .map_or(0, |h| h.quiet.iter().filter(|&&v| v == 1234).count());
        assert!(
            marks > 0,
            "the second search did not start from the kept table"
        );
        shared.new_game();
        assert_eq!(learnt(&shared), 0);
        assert_eq!(
            shared
                .take_history(0, shape)
                .quiet
                .iter()
                .filter(|&&v| v != 0)
                .count(),
            0
        );
    }
}
