//! The match: scheduling game pairs over `--concurrency` threads (each with its own engine
//! processes, reused from game to game), collecting results in one place, printing progress
//! and results, writing the PGN, and stopping early when the SPRT decides.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::time::Duration;

use super::args::{EngineConfig, EngineKind, MatchConfig};
use super::builtin::Builtin;
use super::engine::EnginePlayer;
use super::game::{Adjudication, GameSpec, play};
use super::openings::Openings;
use super::pgn;
use super::player::Player;
use super::record::GameRecord;
use super::report::{Header, Reporter, Tally};
use super::seats::seats;
use super::stats::{Outcome, SprtState, Stats};
use crate::rules::Variant;

/// What a match produced.
#[derive(Debug)]
pub struct MatchSummary {
    /// Results from the first engine's point of view.
    pub stats: Stats,
    /// The finished games in the order they finished (kept only when asked for).
    pub records: Vec<GameRecord>,
    /// The final LLR and the SPRT state, with an SPRT.
    pub sprt: Option<(f64, SprtState)>,
    /// Why the match stopped early, if an engine could not be brought back.
    pub error: Option<String>,
}

/// Messages from the game threads.
enum Event {
    Started {
        id: u64,
        white: String,
        black: String,
    },
    Finished(Box<GameRecord>),
    Failed(String),
}

fn start_player(
    cfg: &EngineConfig,
    variant: Variant,
    seed: u64,
    timeout: Duration,
) -> Result<Box<dyn Player>, String> {
    Ok(match &cfg.kind {
        EngineKind::Builtin(kind) => Box::new(Builtin::new(*kind, &cfg.name, seed)),
        EngineKind::Process { .. } => Box::new(EnginePlayer::start(cfg, variant, timeout)?),
    })
}

/// Starts each engine once to check that it runs, speaks the protocol, accepts the variant,
/// and to learn its `Threads` and `Hash` for the header.
fn probe(cfg: &MatchConfig, timeout: Duration) -> Result<[(String, String); 2], String> {
    let mut out: [(String, String); 2] = Default::default();
    for (i, e) in cfg.engines.iter().enumerate() {
        out[i] = match &e.kind {
            EngineKind::Builtin(_) => ("NULL".into(), "NULL".into()),
            EngineKind::Process { .. } => {
                let p = EnginePlayer::start(e, cfg.variant, timeout)?;
                let th = p.threads_and_hash();
                Box::new(p).close();
                th
            }
        };
    }
    Ok(out)
}

/// The results header: names, limits, threads, hash and the openings.
fn header(cfg: &MatchConfig, th: [(String, String); 2], openings: &Openings) -> Header {
    let [(t0, h0), (t1, h1)] = th;
    Header {
        names: [cfg.engines[0].name.clone(), cfg.engines[1].name.clone()],
        tc: [0, 1].map(|i| {
            let l = cfg.engines[i].limits;
            if l.any() { l.to_string() } else { "-".into() }
        }),
        threads: [t0, t1],
        hash: [h0, h1],
        book: openings.description().to_string(),
    }
}

/// What the game threads share: the next game to play and the stop flag.
struct Queue {
    next: AtomicUsize,
    stop: AtomicBool,
}

/// One game thread: starts its own players, plays games off the queue until none is left
/// or the match stops, and reports each game as an [`Event`].
fn game_thread(
    cfg: &MatchConfig,
    queue: &Queue,
    openings: &Openings,
    timeout: Duration,
    tx: Sender<Event>,
) {
    let fail = |err: String| {
        queue.stop.store(true, Ordering::Relaxed);
        let _ = tx.send(Event::Failed(err));
    };
    let mut players: Vec<Box<dyn Player>> = Vec::new();
    let adjudication = Adjudication {
        draw: cfg.draw,
        resign: cfg.resign,
        maxmoves: cfg.maxmoves,
    };
    while !queue.stop.load(Ordering::Relaxed) {
        let i = queue.next.fetch_add(1, Ordering::Relaxed);
        if i >= cfg.games {
            break;
        }
        // The players start with the thread's first game (not at all if there is none).
        if players.is_empty() {
            for (k, e) in cfg.engines.iter().enumerate() {
                let seed = cfg.seed.wrapping_mul(31).wrapping_add(k as u64);
                match start_player(e, cfg.variant, seed, timeout) {
                    Ok(p) => players.push(p),
                    Err(err) => return fail(err),
                }
            }
        }
        let seats = seats(cfg.variant, i);
        let opening = openings.get(i / 2);
        let spec = GameSpec {
            id: i as u64 + 1,
            round: i / 2 + 1,
            variant: cfg.variant,
            chess960: cfg.chess960,
            opening: &opening,
            seats: seats.clone(),
            engines: &cfg.engines,
            default_margin_ms: cfg.timemargin_ms,
            stall_timeout: timeout,
            adjudication,
        };
        let _ = tx.send(Event::Started {
            id: spec.id,
            white: cfg.engines[seats[0]].name.clone(),
            black: cfg.engines[seats[1]].name.clone(),
        });
        match play(&spec, &mut players, &queue.stop) {
            Ok(Some(rec)) => {
                let _ = tx.send(Event::Finished(Box::new(rec)));
            }
            Ok(None) => break,
            Err(err) => {
                fail(err);
                break;
            }
        }
    }
    for p in players {
        p.close();
    }
}

/// Everything the match collects from its game threads, in one place.
struct Collector<'a> {
    cfg: &'a MatchConfig,
    rep: Reporter<'a>,
    pgn_file: Option<File>,
    tally: Tally,
    first_of_pair: HashMap<usize, Outcome>,
    records: Option<Vec<GameRecord>>,
    finished: usize,
    sprt_result: Option<(f64, SprtState)>,
    error: Option<String>,
}

impl Collector<'_> {
    /// Takes one event; returns true when the SPRT has decided (the match should stop).
    fn take(&mut self, ev: Event) -> bool {
        match ev {
            Event::Started { id, white, black } => {
                self.rep.started(id, self.cfg.games, &white, &black)
            }
            Event::Failed(e) => {
                self.rep.note(&format!("Error: {e}; the match stops"));
                self.error.get_or_insert(e);
            }
            // A game finishing after the SPRT decided is not counted.
            Event::Finished(rec) if self.sprt_result.is_none() => return self.finished(*rec),
            Event::Finished(_) => {}
        }
        false
    }

    fn finished(&mut self, rec: GameRecord) -> bool {
        self.finished += 1;
        self.rep.finished(&rec);
        if let Some(f) = self.pgn_file.as_mut()
            && let Err(e) = f.write_all(
                pgn::write_game_with(&rec, &self.cfg.event, self.cfg.pgn_extras).as_bytes(),
            )
        {
            self.rep
                .note(&format!("Warning: cannot write the PGN: {e}"));
        }
        self.tally.add(&rec);
        let pair = (rec.id as usize - 1) / 2;
        let o = rec.outcome_for(0);
        match self.first_of_pair.remove(&pair) {
            Some(first) => self.tally.stats.add_pair(first, o),
            None => {
                self.first_of_pair.insert(pair, o);
            }
        }
        if self.finished.is_multiple_of(self.cfg.ratinginterval) {
            self.rep.results(&self.tally);
        }
        if let Some(records) = self.records.as_mut() {
            records.push(rec);
        }
        if let (Some(sp), Some(llr)) = (self.cfg.sprt, self.rep.llr(&self.tally.stats)) {
            let state = sp.state(llr);
            if state != SprtState::Continue {
                self.sprt_result = Some((llr, state));
                return true;
            }
        }
        false
    }

    /// The final results and the summary.
    fn summary(mut self) -> MatchSummary {
        if self.tally.stats.games() > 0 {
            self.rep.results(&self.tally);
        }
        if let Some((_, state)) = self.sprt_result {
            self.rep.sprt_done(state);
        }
        self.rep.end(self.error.is_some());
        let sprt = self.sprt_result.or_else(|| {
            let sp = self.cfg.sprt?;
            let llr = self.rep.llr(&self.tally.stats)?;
            Some((llr, sp.state(llr)))
        });
        MatchSummary {
            stats: self.tally.stats,
            records: self.records.unwrap_or_default(),
            sprt,
            error: self.error,
        }
    }
}

/// Plays the match `cfg` describes, printing to `out`. With `keep_records` the summary holds
/// every finished game.
pub fn run(
    cfg: &MatchConfig,
    out: &mut dyn Write,
    keep_records: bool,
) -> Result<MatchSummary, String> {
    let timeout = Duration::from_millis(cfg.stall_timeout_ms);
    let openings = Openings::load(&cfg.openings, cfg.variant, cfg.chess960, cfg.seed)?;
    let th = probe(cfg, timeout)?;
    let pgn_file = match &cfg.pgnout {
        Some(p) => Some(
            OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .map_err(|e| format!("PGN file '{}': {e}", p.display()))?,
        ),
        None => None,
    };
    let header = header(cfg, th, &openings);
    let mut collector = Collector {
        cfg,
        rep: Reporter::new(out, cfg.output, cfg.report_penta, cfg.sprt, header),
        pgn_file,
        tally: Tally::default(),
        first_of_pair: HashMap::new(),
        records: keep_records.then(Vec::new),
        finished: 0,
        sprt_result: None,
        error: None,
    };
    let queue = Queue {
        next: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
    };
    std::thread::scope(|scope| {
        let (tx, rx) = channel::<Event>();
        for w in 0..cfg.concurrency.min(cfg.games) {
            let tx = tx.clone();
            let (queue, openings) = (&queue, &openings);
            let _ = std::thread::Builder::new()
                .name(format!("match-{w}"))
                .spawn_scoped(scope, move || {
                    game_thread(cfg, queue, openings, timeout, tx)
                });
        }
        drop(tx);
        for ev in rx {
            if collector.take(ev) {
                queue.stop.store(true, Ordering::Relaxed);
            }
        }
    });
    Ok(collector.summary())
}
