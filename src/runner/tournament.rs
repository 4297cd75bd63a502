//! The match: scheduling game pairs over `--concurrency` threads (each with its own engine
//! processes, reused from game to game), collecting results in one place, printing progress
//! and results, writing the PGN, and stopping early when the SPRT decides.

use std::collections::HashMap;
use std::fs::OpenOptions;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;
use std::time::Duration;

use super::args::{EngineConfig, EngineKind, MatchConfig};
use super::builtin::Builtin;
use super::engine::EnginePlayer;
use super::game::{Adjudication, GameRecord, GameSpec, play};
use super::openings::Openings;
use super::pgn;
use super::player::Player;
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

/// Plays the match `cfg` describes, printing to `out`. With `keep_records` the summary holds
/// every finished game.
pub fn run(
    cfg: &MatchConfig,
    out: &mut dyn Write,
    keep_records: bool,
) -> Result<MatchSummary, String> {
    let timeout = Duration::from_millis(cfg.stall_timeout_ms);
    let openings = Openings::load(&cfg.openings, cfg.variant, cfg.seed)?;
    let th = probe(cfg, timeout)?;
    let mut pgn_file = match &cfg.pgnout {
        Some(p) => Some(
            OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .map_err(|e| format!("PGN file '{}': {e}", p.display()))?,
        ),
        None => None,
    };
    let header = Header {
        names: [cfg.engines[0].name.clone(), cfg.engines[1].name.clone()],
        tc: [0, 1].map(|i| {
            let l = cfg.engines[i].limits;
            if l.any() { l.to_string() } else { "-".into() }
        }),
        threads: [th[0].0.clone(), th[1].0.clone()],
        hash: [th[0].1.clone(), th[1].1.clone()],
        book: openings.description().to_string(),
    };
    let mut rep = Reporter::new(out, cfg.output, cfg.report_penta, cfg.sprt, header);
    let adjudication = Adjudication {
        draw: cfg.draw,
        resign: cfg.resign,
        maxmoves: cfg.maxmoves,
    };
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let mut tally = Tally::default();
    let mut records = Vec::new();
    let mut first_of_pair: HashMap<usize, Outcome> = HashMap::new();
    let mut sprt_result = None;
    let mut error = None;
    let workers = cfg.concurrency.min(cfg.games);
    std::thread::scope(|scope| {
        let (tx, rx) = channel::<Event>();
        for w in 0..workers {
            let tx = tx.clone();
            let (next, stop, openings) = (&next, &stop, &openings);
            let _ = std::thread::Builder::new()
                .name(format!("match-{w}"))
                .spawn_scoped(scope, move || {
                    let mut players: Vec<Box<dyn Player>> = Vec::new();
                    while !stop.load(Ordering::Relaxed) {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= cfg.games {
                            break;
                        }
                        if players.is_empty() {
                            for (k, e) in cfg.engines.iter().enumerate() {
                                let seed = cfg.seed.wrapping_mul(31).wrapping_add(k as u64);
                                match start_player(e, cfg.variant, seed, timeout) {
                                    Ok(p) => players.push(p),
                                    Err(err) => {
                                        stop.store(true, Ordering::Relaxed);
                                        let _ = tx.send(Event::Failed(err));
                                        return;
                                    }
                                }
                            }
                        }
                        let seats = seats(cfg.variant, i);
                        let opening = openings.get(i / 2);
                        let spec = GameSpec {
                            id: i as u64 + 1,
                            round: i / 2 + 1,
                            variant: cfg.variant,
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
                        match play(&spec, &mut players, stop) {
                            Ok(Some(rec)) => {
                                let _ = tx.send(Event::Finished(Box::new(rec)));
                            }
                            Ok(None) => break,
                            Err(err) => {
                                stop.store(true, Ordering::Relaxed);
                                let _ = tx.send(Event::Failed(err));
                                break;
                            }
                        }
                    }
                    for p in players {
                        p.close();
                    }
                });
        }
        drop(tx);
        let mut finished = 0usize;
        for ev in rx {
            match ev {
                Event::Started { id, white, black } => rep.started(id, cfg.games, &white, &black),
                Event::Failed(e) => {
                    rep.note(&format!("Error: {e}; the match stops"));
                    error.get_or_insert(e);
                }
                Event::Finished(rec) => {
                    // A game finishing after the SPRT decided is not counted.
                    if sprt_result.is_some() {
                        continue;
                    }
                    finished += 1;
                    rep.finished(&rec);
                    if let Some(f) = pgn_file.as_mut()
                        && let Err(e) = f.write_all(pgn::write_game(&rec, &cfg.event).as_bytes())
                    {
                        rep.note(&format!("Warning: cannot write the PGN: {e}"));
                    }
                    tally.add(&rec);
                    let pair = (rec.id as usize - 1) / 2;
                    let o = rec.outcome_for(0);
                    match first_of_pair.remove(&pair) {
                        Some(first) => tally.stats.add_pair(first, o),
                        None => {
                            first_of_pair.insert(pair, o);
                        }
                    }
                    if finished.is_multiple_of(cfg.ratinginterval) {
                        rep.results(&tally);
                    }
                    if let (Some(sp), Some(llr)) = (cfg.sprt, rep.llr(&tally.stats)) {
                        let state = sp.state(llr);
                        if state != SprtState::Continue {
                            stop.store(true, Ordering::Relaxed);
                            sprt_result = Some((llr, state));
                        }
                    }
                    if keep_records {
                        records.push(*rec);
                    }
                }
            }
        }
    });
    if tally.stats.games() > 0 {
        rep.results(&tally);
    }
    if let Some((_, state)) = sprt_result {
        rep.sprt_done(state);
    }
    rep.end(error.is_some());
    let sprt = sprt_result.or_else(|| {
        let sp = cfg.sprt?;
        let llr = rep.llr(&tally.stats)?;
        Some((llr, sp.state(llr)))
    });
    Ok(MatchSummary {
        stats: tally.stats,
        records,
        sprt,
        error,
    })
}
