//! The protocol state machine: the selected variant, the current position, the options and
//! the running search. State changes only through commands that are valid as a whole.
//!
//! `go` (a search or `go perft`) and `bench` run on their own thread and return at once, so
//! the input loop keeps answering `isready`, `stop` and `ponderhit` while they run; `stop`
//! ends any of them. Another command that would change what the running job depends on
//! (`position`, `setoption`, `ucinewgame`, another `go` or `bench`, `d`, `eval`) first ends
//! a search (as UCI wants) or waits for a perft or bench to finish (so that a script of
//! perft commands gets every count), and then takes effect.
//!
//! Driven by [`Engine::on_event`] (as [`super::run`] drives it), waiting for a perft or bench
//! never blocks the input: such commands are queued, and `stop`, `isready` and `quit` (and
//! the end of input) are acted on at once whatever is queued; `quit` and the end of input
//! stop the count and drop the queue. [`Engine::handle_line`], for tests and scripts, waits
//! in place instead.

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::mpsc::Sender;
use std::thread::JoinHandle;
use std::time::Instant;

use super::command::{Command, GoParams, StartPos, truncate};
use super::input::Event;
use super::line::{MAX_INPUT_LINE, escape};
use super::options::{DEFAULT_HASH, OptionDecl, OptionValue, declarations};
use super::output::Output;
use super::strength::Strength;
use crate::eval::{Breakdown, Evaluate};
use crate::rules::perft::{Divide, divide};
use crate::rules::{AnyGame, Game, Variant};
use crate::search::time::Clock;
use crate::search::tt::Bound;
use crate::search::{
    Iteration, Limits, MATE, MATE_BOUND, Reporter, Settings, Shared, bench, search, thread_pool,
    try_thread_pool,
};
use crate::with_game;

/// The most bytes of command lines that wait for a running `go perft` or `bench` (a command
/// beyond them is refused with an error line).
pub const MAX_QUEUED_BYTES: usize = 4 << 20;

/// The longest error message the engine prints, in characters.
pub const MAX_ERROR_CHARS: usize = 300;

/// A score as UCI prints it: `cp 35`, `mate 3`, `mate -2`.
pub fn format_score(score: i32) -> String {
    if score >= MATE_BOUND {
        format!("mate {}", (MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        let moves = (MATE + score) / 2;
        if moves == 0 {
            "mate 0".to_string()
        } else {
            format!("mate -{moves}")
        }
    } else {
        format!("cp {score}")
    }
}

/// Formats search output as `info` lines.
struct UciReporter(Arc<dyn Output>);

impl Reporter for UciReporter {
    fn iteration(&self, it: &Iteration) {
        let ms = it.time.as_millis() as u64;
        let bound = match it.bound {
            Bound::Lower => " lowerbound",
            Bound::Upper => " upperbound",
            _ => "",
        };
        self.0.line(&format!(
            "info depth {} seldepth {} multipv {} score {}{} nodes {} nps {} hashfull {} time {} pv {}",
            it.depth,
            it.seldepth,
            it.multipv,
            format_score(it.score),
            bound,
            it.nodes,
            it.nodes * 1000 / ms.max(1),
            it.hashfull,
            ms,
            it.pv.join(" ")
        ));
    }
}

/// The engine as the protocol sees it.
pub struct Engine {
    out: Arc<dyn Output>,
    variant: Variant,
    /// `UCI_Chess960`: castling written as the King taking its Rook, Shredder-FEN castling.
    chess960: bool,
    game: AnyGame,
    options: Vec<OptionDecl>,
    settings: Settings,
    /// The strength options and the game's random generator.
    strength: Strength,
    shared: Arc<Shared>,
    /// The size of `shared`'s transposition table in MiB.
    hash_mib: usize,
    pool: Arc<rayon::ThreadPool>,
    /// The running search, perft or bench.
    job: Option<Job>,
    /// The number of the last job started.
    jobs: u64,
    /// Where a job's end is announced ([`Event::JobDone`]), when the engine is driven by
    /// events.
    events: Option<Sender<Event>>,
    /// Commands waiting for the running perft or bench to end (driven by events only).
    /// (The lines themselves, not their parsed commands: a line's text is its smallest form,
    /// and the queue holds at most [`MAX_QUEUED_BYTES`] of them.)
    queue: VecDeque<String>,
    /// The bytes of the lines in `queue`.
    queued_bytes: usize,
}

/// Work running on its own thread.
struct Job {
    handle: JoinHandle<()>,
    /// Its number.
    id: u64,
    /// A search (ended by the next state-changing command) rather than a perft or bench
    /// (waited for).
    search: bool,
}

/// Sends [`Event::JobDone`] once: before the job's last lines are printed, or when its
/// thread ends by a panic.
struct Announce(Option<(Sender<Event>, u64)>);

impl Announce {
    fn send(&mut self) {
        if let Some((tx, id)) = self.0.take() {
            let _ = tx.send(Event::JobDone(id));
        }
    }
}

impl Drop for Announce {
    fn drop(&mut self) {
        self.send();
    }
}

impl Engine {
    /// A fresh engine playing chess from the start position.
    pub fn new(out: Arc<dyn Output>) -> Self {
        Engine {
            out,
            variant: Variant::Chess,
            chess960: false,
            game: AnyGame::startpos(Variant::Chess),
            options: declarations(),
            settings: Settings::default(),
            strength: Strength::default(),
            shared: Arc::new(Shared::new(DEFAULT_HASH as usize)),
            hash_mib: DEFAULT_HASH as usize,
            pool: thread_pool(1),
            job: None,
            jobs: 0,
            events: None,
            queue: VecDeque::new(),
            queued_bytes: 0,
        }
    }

    /// Whether no search, perft or bench runs and no command waits for one.
    pub fn idle(&self) -> bool {
        self.job.is_none() && self.queue.is_empty()
    }

    /// Makes every job announce its end on `events` as [`Event::JobDone`]: for an engine
    /// driven by [`Engine::on_event`].
    pub fn notify_on_job_end(&mut self, events: Sender<Event>) {
        self.events = Some(events);
    }

    /// The current position.
    pub fn game(&self) -> &AnyGame {
        &self.game
    }

    /// Reports bad input: one `info string error:` line, cut to [`MAX_ERROR_CHARS`] so that
    /// echoed input (a FEN field, a move) never makes it long.
    fn error(&self, msg: &str) {
        self.out.line(&format!(
            "info string error: {}",
            truncate(&escape(msg), MAX_ERROR_CHARS)
        ));
    }

    /// Ends the running job (`stop` raised) and waits for its last line.
    fn stop_job(&mut self) {
        if self.job.is_some() {
            self.shared.stop.store(true, Relaxed);
            self.join_job();
        }
    }

    /// Before a command that changes what the job depends on: a search is stopped, a perft or
    /// bench is waited for.
    fn finish_job(&mut self) {
        match &self.job {
            Some(job) if job.search => self.stop_job(),
            Some(_) => self.join_job(),
            None => {}
        }
    }

    /// Before `d` and `eval`: a perft or bench is waited for, so that their lines come
    /// first; a search goes on.
    fn wait_for_count(&mut self) {
        if self.job.as_ref().is_some_and(|j| !j.search) {
            self.join_job();
        }
    }

    fn join_job(&mut self) {
        if let Some(job) = self.job.take()
            && job.handle.join().is_err()
        {
            self.error("the search thread failed");
        }
    }

    /// Runs `work` on its own thread as the engine's job, with the stop flag lowered; the
    /// lines it returns are its last ones (a `bestmove`, a perft's total).
    ///
    /// The job's end is announced before those lines are printed, so that whatever a
    /// client sends after reading them comes after the end in the command loop (and is not
    /// taken for a command sent while the job ran).
    fn spawn_job(
        &mut self,
        name: &str,
        search: bool,
        work: impl FnOnce() -> Vec<String> + Send + 'static,
    ) {
        self.shared.stop.store(false, Relaxed);
        self.jobs += 1;
        let id = self.jobs;
        let mut announce = Announce(self.events.clone().map(|tx| (tx, id)));
        let out = self.out.clone();
        let work = move || {
            let last = work();
            announce.send();
            for l in last {
                out.line(&l);
            }
        };
        match std::thread::Builder::new().name(name.into()).spawn(work) {
            Ok(handle) => self.job = Some(Job { handle, id, search }),
            Err(e) => self.error(&format!("cannot start the {name} thread: {e}")),
        }
    }

    /// Whether `cmd` must wait for the running perft or bench (when driven by events).
    fn must_wait(&self, cmd: &Command) -> bool {
        let counting = self.job.as_ref().is_some_and(|j| !j.search);
        counting
            && matches!(
                cmd,
                Command::UciNewGame
                    | Command::SetOption { .. }
                    | Command::Position { .. }
                    | Command::Go(_)
                    | Command::Display
                    | Command::Eval
                    | Command::Bench { .. }
                    | Command::Genfens(_)
                    | Command::Quit
            )
    }

    /// Handles one event of an engine driven by events ([`super::run`]). Returns `false`
    /// when the engine should exit.
    ///
    /// A command that must wait for a running perft or bench is queued, and so is every
    /// command after it; `stop`, `isready` and `ponderhit` act at once; `quit` and the end
    /// of input stop the count, drop the queue and exit as soon as the count has ended.
    pub fn on_event(&mut self, event: Event) -> bool {
        match event {
            Event::Line(line) => {
                if line.trim().is_empty() {
                    return true;
                }
                match line.parse::<Command>() {
                    Ok(cmd) => self.on_command(cmd, line),
                    Err(e) => {
                        self.error(&e);
                        true
                    }
                }
            }
            Event::TooLong(len) => {
                self.error(&format!(
                    "a line of {len} bytes is longer than the {MAX_INPUT_LINE} an input line \
                     may have; ignored"
                ));
                true
            }
            Event::End => self.on_command(Command::Quit, "quit".into()),
            Event::JobDone(id) => {
                if self.job.as_ref().is_some_and(|j| j.id == id) {
                    self.join_job();
                }
                while let Some(line) = self.queue.pop_front() {
                    // It parsed when it was queued.
                    let Ok(cmd) = line.parse::<Command>() else {
                        self.queued_bytes -= line.len();
                        continue;
                    };
                    if self.must_wait(&cmd) {
                        self.queue.push_front(line);
                        break;
                    }
                    self.queued_bytes -= line.len();
                    if !self.handle(cmd) {
                        return false;
                    }
                }
                true
            }
        }
    }

    /// A command read while driven by events (`line` is its text): queued, or acted on at
    /// once.
    fn on_command(&mut self, cmd: Command, line: String) -> bool {
        let waiting = !self.queue.is_empty() || self.must_wait(&cmd);
        if !waiting {
            return self.handle(cmd);
        }
        match cmd {
            Command::Stop => self.shared.stop.store(true, Relaxed),
            Command::IsReady => self.out.line("readyok"),
            Command::PonderHit => self.shared.ponderhit(),
            Command::Quit => {
                self.shared.stop.store(true, Relaxed);
                self.queue.clear();
                self.queue.push_back("quit".into());
                self.queued_bytes = 4;
            }
            _ if self.queued_bytes + line.len() > MAX_QUEUED_BYTES => self.error(&format!(
                "{} bytes of commands already wait for the running count (the most is \
                 {MAX_QUEUED_BYTES}); '{}' dropped",
                self.queued_bytes,
                truncate(&line, 40)
            )),
            _ => {
                self.queued_bytes += line.len();
                self.queue.push_back(line);
            }
        }
        true
    }

    /// Handles one input line. Returns `false` when the engine should exit.
    pub fn handle_line(&mut self, line: &str) -> bool {
        if line.trim().is_empty() {
            return true;
        }
        match line.parse::<Command>() {
            Ok(cmd) => self.handle(cmd),
            Err(e) => {
                self.error(&e);
                true
            }
        }
    }

    /// Executes a command. Returns `false` when the engine should exit.
    pub fn handle(&mut self, cmd: Command) -> bool {
        match cmd {
            Command::Uci => {
                self.out
                    .line(&format!("id name strata {}", env!("CARGO_PKG_VERSION")));
                self.out.line("id author the strata developers");
                for o in &self.options {
                    self.out.line(&o.uci_line());
                }
                self.out.line("uciok");
            }
            Command::IsReady => self.out.line("readyok"),
            Command::UciNewGame => {
                self.finish_job();
                self.shared.new_game();
                self.strength.new_game();
            }
            Command::SetOption { name, value } => {
                self.finish_job();
                self.set_option(&name, value.as_deref());
            }
            Command::Position { start, moves } => {
                self.finish_job();
                self.set_position(start, &moves);
            }
            Command::Go(params) => {
                self.finish_job();
                self.go(params);
            }
            Command::Stop => self.stop_job(),
            Command::PonderHit => self.shared.ponderhit(),
            Command::Display => {
                self.wait_for_count();
                for l in self.game.drawing().lines() {
                    self.out.line(l);
                }
            }
            Command::Eval => {
                self.wait_for_count();
                let lines = with_game!(&self.game, g => {
                    let mut t = Breakdown::default();
                    let v = g.evaluate_with(&mut t);
                    let mut lines = t.lines(v, g.team_to_move());
                    if let Some(net) = crate::eval::nnue::current(g.variant()) {
                        let own = net.evaluate_fresh(g);
                        let blended = net.blend(own, || v);
                        let used = g.adjust_network(blended);
                        let (what, share) = match net.terms_share {
                            0 if used == own => ("what the search uses", String::new()),
                            0 => ("alone", String::new()),
                            s => ("alone", format!("; blended {}/{s} with the terms", 100 - s)),
                        };
                        lines.push(format!(
                            "Network evaluation ({what}): {:+.2} (side to move; {} hidden \
                             neurons, {} output buckets{share})",
                            own as f64 / 100.0,
                            net.hidden,
                            net.buckets
                        ));
                        if net.terms_share > 0 {
                            lines.push(format!(
                                "Blended evaluation{}: {:+.2} (side to move)",
                                if used == blended {
                                    " (what the search uses)"
                                } else {
                                    ""
                                },
                                blended as f64 / 100.0
                            ));
                        }
                        if used != blended {
                            lines.push(format!(
                                "With the variant's endgame knowledge (what the search uses): \
                                 {:+.2} (side to move)",
                                used as f64 / 100.0
                            ));
                        }
                    }
                    lines
                });
                for l in lines {
                    self.out.line(&l);
                }
            }
            Command::Bench { depth } => {
                self.finish_job();
                self.bench(depth);
            }
            Command::Genfens(req) => {
                // At once, before the next command is read: the worker sends `quit` right
                // after it, which must not cut it short.
                self.finish_job();
                let (variant, chess960) = (self.game.variant(), self.game.chess960());
                let out = self.out.clone();
                let done = crate::tuning::genfens::generate(variant, chess960, &req, &mut |fen| {
                    out.line(&format!("info string genfens {fen}"))
                });
                if let Err(e) = done {
                    self.error(&e);
                }
            }
            Command::Quit => {
                self.finish_job();
                return false;
            }
        }
        true
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let Some(decl) = self
            .options
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(name))
        else {
            self.error(&format!("unknown option '{}'", truncate(name, 40)));
            return;
        };
        let checked = match decl.check(value) {
            Ok(v) => v,
            Err(e) => return self.error(&e),
        };
        match (decl.name, checked) {
            ("UCI_Variant", OptionValue::Text(v)) => {
                let variant = Variant::from_name(&v).expect("combo values are variant names");
                self.variant = variant;
                self.game = AnyGame::startpos(variant);
                self.game.set_chess960(self.chess960);
            }
            ("UCI_Chess960", OptionValue::Bool(b)) => {
                self.chess960 = b;
                self.game.set_chess960(b);
            }
            // Threads and memory may be refused even within the declared range: then the
            // engine says so and keeps what it has.
            ("Threads", OptionValue::Int(n)) => match try_thread_pool(n as usize) {
                Ok(pool) => {
                    self.settings.threads = n as usize;
                    self.pool = pool;
                }
                Err(e) => self.error(&format!(
                    "option 'Threads': {e}; keeping {}",
                    self.settings.threads
                )),
            },
            ("Hash", OptionValue::Int(n)) => self.resize_hash(n as usize),
            ("Clear Hash", _) => self.shared.new_game(),
            ("MultiPV", OptionValue::Int(n)) => self.settings.multipv = n as usize,
            ("Move Overhead", OptionValue::Int(n)) => self.settings.move_overhead = n as u64,
            ("Ponder", _) => {}
            ("Skill Level", OptionValue::Int(n)) => self.strength.set_skill_level(n),
            ("UCI_LimitStrength", OptionValue::Bool(b)) => self.strength.set_limit_strength(b),
            ("UCI_Elo", OptionValue::Int(n)) => self.strength.set_elo(n),
            ("Seed", OptionValue::Int(n)) => self.strength.set_seed(n as u64),
            ("Debug Log File", OptionValue::Text(path)) => {
                if let Err(e) = crate::logging::set_file(Some(&path)) {
                    self.error(&e);
                }
            }
            ("VariantPath", OptionValue::Text(path)) => self.load_variants(&path),
            ("EvalFile", OptionValue::Text(value)) => match crate::eval::nnue::load(&value) {
                Ok(words) => self.out.line(&format!("info string {words}")),
                Err(e) => self.error(&format!("EvalFile: {e}")),
            },
            (other, _) => self.error(&format!("option '{other}' cannot be set")),
        }
    }

    /// Loads the variants of a file (`VariantPath`) and lists them in `UCI_Variant`. A bad
    /// file changes nothing: the error names its line.
    fn load_variants(&mut self, path: &str) {
        if path.trim().is_empty() || path == "<empty>" {
            return;
        }
        match crate::rules::defined::load_file(path.trim(), crate::eval::nnue::check_net) {
            Ok(loaded) => {
                self.options = declarations();
                let names: Vec<&str> = loaded.iter().map(|v| v.name()).collect();
                self.out.line(&format!(
                    "info string variants loaded from {}: {}",
                    crate::text::escape(path.trim()),
                    names.join(", ")
                ));
            }
            Err(e) => self.error(&format!("VariantPath: {e}")),
        }
    }

    /// Replaces the transposition table by one of `mib` MiB. The old table is freed first
    /// (a minimal one stands in meanwhile), so that two tables are never resident together:
    /// going from 8 to 16 GiB must not need 24. If `mib` cannot be had, the old size is
    /// allocated again (empty), and failing that the minimal table stays.
    fn resize_hash(&mut self, mib: usize) {
        self.shared = Arc::new(Shared::new(1));
        match Shared::try_new(mib) {
            Ok(shared) => {
                self.shared = Arc::new(shared);
                self.hash_mib = mib;
            }
            Err(e) => {
                match Shared::try_new(self.hash_mib) {
                    Ok(shared) => self.shared = Arc::new(shared),
                    Err(_) => self.hash_mib = 1,
                }
                self.error(&format!(
                    "option 'Hash': {e}; keeping {} MiB (cleared)",
                    self.hash_mib
                ));
            }
        }
    }

    fn set_position(&mut self, start: StartPos, moves: &[String]) {
        let from = match &start {
            StartPos::Startpos => Ok(AnyGame::startpos(self.variant)),
            StartPos::Fen(fen) => AnyGame::from_fen(self.variant, fen),
        };
        let mut game = match from {
            Ok(g) => g,
            Err(e) => {
                return self.error(&format!("position: {e}; position unchanged"));
            }
        };
        game.set_chess960(self.chess960);
        for (i, m) in moves.iter().enumerate() {
            match game.parse_move(m) {
                Ok(mv) => game.make(mv),
                Err(e) => {
                    return self.error(&format!(
                        "position: {} (move {} of {}); position unchanged",
                        truncate(&e.to_string(), 60),
                        i + 1,
                        moves.len()
                    ));
                }
            }
        }
        self.game = game;
    }

    /// `bench [depth]` on the job thread; `stop` ends it (the figures are then partial).
    fn bench(&mut self, depth: Option<u32>) {
        let stop = self.shared.stop.clone();
        self.spawn_job("strata-bench", false, move || {
            let results = bench::run(&Variant::ALL, depth, 1, DEFAULT_HASH as usize, &stop);
            let mut last = bench::report(&results);
            if results.len() < Variant::ALL.len() || !results.iter().all(|r| r.complete()) {
                last.push("info string bench stopped: the figures above are partial".into());
            }
            last
        });
    }

    /// `go perft N` on the job thread: one line per root move as it is finished, then the
    /// total. `stop` ends it with the root moves finished so far, and says so.
    fn perft(&mut self, depth: u32) {
        let game = self.game.clone();
        let out = self.out.clone();
        let stop = self.shared.stop.clone();
        let threads = self.settings.threads;
        self.spawn_job("strata-perft", false, move || {
            let start = Instant::now();
            let result = if depth == 0 {
                Divide::default()
            } else {
                with_game!(&game, g => divide(g, depth, threads, &stop, &|name, n, _, _| {
                    out.line(&format!("{name}: {n}"));
                }))
            };
            let mut last = Vec::new();
            if result.stopped {
                last.push(format!(
                    "info string perft stopped: {} of {} root moves counted",
                    result.rows.len(),
                    result.root_moves
                ));
            }
            let total = if depth == 0 { 1 } else { result.nodes() };
            last.push(String::new());
            last.push(format!("Nodes searched: {total}"));
            tracing::info!(
                depth,
                total,
                stopped = result.stopped,
                elapsed_ms = start.elapsed().as_millis() as u64,
                "perft"
            );
            last
        });
    }

    fn go(&mut self, params: GoParams) {
        if let Some(depth) = params.perft {
            return self.perft(depth);
        }
        // Bad `searchmoves` are ignored, and reported together: one error line per command.
        let mut searchmoves = Vec::new();
        let mut bad = Vec::new();
        for s in &params.searchmoves {
            match self.game.parse_move(s) {
                Ok(m) => searchmoves.push(m),
                Err(e) => bad.push(truncate(&e.to_string(), 60)),
            }
        }
        if !bad.is_empty() {
            self.error(&format!("go searchmoves: {}; ignored", bad.join(", ")));
        }
        let colour = self.game.side_to_move().idx();
        let limits = Limits {
            depth: params.depth,
            nodes: params.nodes,
            mate: params.mate,
            clock: Clock {
                time: params.time[colour],
                inc: params.inc[colour],
                movestogo: params.movestogo,
                movetime: params.movetime,
            },
            infinite: params.infinite,
            ponder: params.ponder,
            searchmoves,
            min_depth: 0,
        };
        tracing::info!(fen = %self.game.fen(), ?limits, "go");
        self.shared.pondering.store(limits.ponder, Relaxed);
        let game = self.game.clone();
        let shared = self.shared.clone();
        let pool = self.pool.clone();
        let settings = Settings {
            skill: self.strength.next_search(self.variant),
            ..self.settings
        };
        let out = self.out.clone();
        self.spawn_job("strata-search", true, move || {
                let reporter = UciReporter(out.clone());
                let outcome = with_game!(&game, g => search(g, &limits, &settings, &shared, &reporter, &pool));
                let Some(best) = outcome.best else {
                    return vec![
                        format!("info depth 0 score {}", format_score(outcome.score)),
                        "bestmove (none)".into(),
                    ];
                };
                let mut after = game.clone();
                after.make(best);
                let ponder = outcome.ponder.map(|p| after.move_name(p));
                let best = game.move_name(best);
                tracing::info!(%best, score = outcome.score, depth = outcome.depth, nodes = outcome.nodes, "bestmove");
                vec![match ponder {
                    Some(p) => format!("bestmove {best} ponder {p}"),
                    None => format!("bestmove {best}"),
                }]
        });
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.finish_job();
    }
}
