//! The engine of one game session: a thread that owns the engine process (the match runner's
//! [`EngineProcess`]) and does what the session asks, one request at a time, reporting back
//! on a channel. A search can be interrupted; an engine that dies is started again for the
//! next game; when the session ends, the engine is told to quit (and its process group is
//! ended with it).
//!
//! Both ways are bounded, so that a page sending requests faster than the engine answers
//! cannot grow a queue without end: at most [`REQUEST_QUEUE`] requests wait for the thread
//! (the session refuses a message that would add one beyond, see [`EngineHandle::busy`]),
//! a search already interrupted when its turn comes is dropped without touching the engine,
//! and at most [`REPORT_QUEUE`] reports wait for the session (the thread then waits, and so
//! does the engine, whose output it no longer reads).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::thread::JoinHandle;
use std::time::Duration;

use tokio::sync::OwnedSemaphorePermit;
use tokio::sync::mpsc::Sender;

use crate::rules::Variant;
use crate::runner::args::{EngineConfig, EngineKind};
use crate::runner::engine::EngineProcess;
use crate::runner::limits::Limits;
use crate::runner::player::{Answer, Fault, Reply};

/// How long the engine may take to answer `uci` and `isready`.
const HANDSHAKE: Duration = Duration::from_secs(10);
/// The most requests waiting for the engine thread. A page's clicks (an analysis turned on
/// and off, a move list stepped through) add one each; the thread drops interrupted
/// searches at once, so only an engine that does not answer fills this.
pub const REQUEST_QUEUE: usize = 32;
/// The most reports waiting for the session (the engine's `info` lines among them).
pub const REPORT_QUEUE: usize = 1024;

/// A request to the engine thread.
pub enum Request {
    /// Get ready for a game of `variant` with these options set.
    NewGame {
        /// The session's number of the game (its [`Report::Ready`] names it).
        game: u64,
        /// The variant.
        variant: Variant,
        /// `setoption` pairs.
        options: Vec<(String, Option<String>)>,
    },
    /// Search: send `position` and `go`, wait up to `wait` for `bestmove`.
    Think {
        /// The request's number (to match the answer, and to interrupt it).
        id: u64,
        /// The `position` command.
        position: String,
        /// The `go` command.
        go: String,
        /// How long to wait.
        wait: Duration,
        /// The lines to search (`MultiPV`, set when the engine declares it): 1 to play,
        /// more to analyse.
        multipv: usize,
    },
}

/// What the engine thread reports.
pub enum Report {
    /// The engine started: its name and declared options.
    Started {
        /// `id name`.
        name: String,
        /// (name, declaration).
        options: Vec<(String, String)>,
    },
    /// The engine could not be started, or lost; in words.
    Failed(String),
    /// A [`Request::NewGame`] is done (or failed, in words).
    Ready(u64, Result<(), String>),
    /// Something the page should be told about the engine, in words.
    Status(String),
    /// A line the engine printed while thinking for request `id`.
    Line(u64, String),
    /// The answer to request `id`.
    Answer(u64, Answer),
}

/// The session's handle on its engine thread.
pub struct EngineHandle {
    requests: std::sync::mpsc::Sender<Request>,
    /// Requests sent and not yet taken by the thread (at most [`REQUEST_QUEUE`], and one
    /// more for each report that asks for a search; see [`EngineHandle::busy`]).
    queued: Arc<AtomicUsize>,
    /// Every search request up to this number is to be interrupted.
    cancel: Arc<AtomicU64>,
    thread: Option<JoinHandle<()>>,
}

impl EngineHandle {
    /// Starts the engine thread for the engine `cmd args`, reporting on `reports`. The
    /// thread holds `slot` (the session's place among the sessions allowed at once) until
    /// its engine has ended, so that no more engines run than sessions are allowed.
    pub fn start(
        cmd: String,
        args: Vec<String>,
        reports: Sender<Report>,
        slot: OwnedSemaphorePermit,
    ) -> Self {
        let (tx, rx) = std::sync::mpsc::channel();
        let cancel = Arc::new(AtomicU64::new(0));
        let queued = Arc::new(AtomicUsize::new(0));
        let cfg = EngineConfig {
            name: std::path::Path::new(&cmd)
                .file_name()
                .map_or(cmd.clone(), |f| f.to_string_lossy().to_string()),
            kind: EngineKind::Process {
                cmd,
                args,
                dir: None,
            },
            options: Vec::new(),
            limits: Limits::default(),
            timemargin_ms: None,
        };
        let (c, q) = (cancel.clone(), queued.clone());
        let thread = std::thread::Builder::new()
            .name("gui-engine".into())
            .spawn(move || {
                serve(cfg, rx, reports, c, q);
                drop(slot);
            })
            .ok();
        EngineHandle {
            requests: tx,
            queued,
            cancel,
            thread,
        }
    }

    /// Whether [`REQUEST_QUEUE`] requests wait already: the session then refuses a page's
    /// message that would send another ("the engine is busy").
    pub fn busy(&self) -> bool {
        self.queued.load(Relaxed) >= REQUEST_QUEUE
    }

    /// Sends a request (lost if the thread has ended). The session checks [`busy`] before
    /// handling a page's message; a request that follows a report (the engine's turn after
    /// its answer) replaces the one the thread took, so the queue stays bounded.
    ///
    /// [`busy`]: EngineHandle::busy
    pub fn send(&self, r: Request) {
        self.queued.fetch_add(1, Relaxed);
        if self.requests.send(r).is_err() {
            self.queued.fetch_sub(1, Relaxed);
        }
    }

    /// Interrupts every search request up to `id` (the engine answers at once).
    pub fn interrupt(&self, id: u64) {
        self.cancel.fetch_max(id, Relaxed);
    }
}

impl Drop for EngineHandle {
    fn drop(&mut self) {
        // Any search ends; the thread sees the channel closed and quits the engine. It is
        // not waited for: it ends its engine within a second, and a closing tab should not
        // wait on it.
        self.cancel.store(u64::MAX, Relaxed);
        let (dead, _) = std::sync::mpsc::channel();
        self.requests = dead;
        self.thread.take();
    }
}

/// The engine thread: starts the engine and serves requests until the session drops its
/// handle.
fn serve(
    cfg: EngineConfig,
    requests: std::sync::mpsc::Receiver<Request>,
    reports: Sender<Report>,
    cancel: Arc<AtomicU64>,
    queued: Arc<AtomicUsize>,
) {
    // Waits while REPORT_QUEUE reports wait; fails once the session has ended.
    let report = |r: Report| {
        let _ = reports.blocking_send(r);
    };
    let start = |variant| EngineProcess::start(&cfg, variant, HANDSHAKE);
    let mut variant = Variant::Chess;
    // The engine's MultiPV as last set (1 when it starts).
    let mut lines = 1;
    let mut engine = match start(variant) {
        Ok(e) => {
            report(Report::Started {
                name: e.id_name().to_string(),
                options: e.declared_options().to_vec(),
            });
            Some(e)
        }
        Err(e) => {
            report(Report::Failed(e));
            None
        }
    };
    while let Ok(request) = requests.recv() {
        queued.fetch_sub(1, Relaxed);
        // The session has ended: what is left in the queue is for nobody.
        if cancel.load(Relaxed) == u64::MAX {
            break;
        }
        match request {
            Request::NewGame {
                game,
                variant: v,
                options,
            } => {
                if engine.is_none() {
                    engine = start(v).ok();
                    variant = v;
                    lines = 1;
                }
                let result = match engine.as_mut() {
                    None => Err(format!("the engine '{}' does not start", cfg.name)),
                    Some(e) => prepare(e, &mut variant, v, &options),
                };
                if result.is_err() && engine.as_ref().is_none() {
                    report(Report::Failed("the engine does not start".into()));
                }
                report(Report::Ready(game, result));
            }
            // Interrupted before its turn (the page moved on): nobody waits for its answer,
            // and the engine is not troubled with it.
            Request::Think { id, .. } if cancel.load(Relaxed) >= id => {}
            Request::Think {
                id,
                position,
                go,
                wait,
                multipv,
            } => {
                let Some(e) = engine.as_mut() else {
                    report(Report::Answer(
                        id,
                        Answer {
                            reply: Reply::Crashed,
                            elapsed: Duration::ZERO,
                            info: Default::default(),
                        },
                    ));
                    continue;
                };
                if multipv != lines && e.declares("MultiPV") {
                    match e.set_option("MultiPV", Some(&multipv.to_string()), HANDSHAKE) {
                        Ok(()) => lines = multipv,
                        Err(message) => {
                            report(Report::Failed(message));
                        }
                    }
                }
                let answer = e.go_watched(
                    &position,
                    &go,
                    wait,
                    &mut |line| {
                        report(Report::Line(id, line.to_string()));
                    },
                    &|| cancel.load(Relaxed) >= id,
                );
                match answer.reply {
                    // A dead engine is started again for the next game; one that broke the
                    // protocol is said to have.
                    Reply::Crashed => {
                        if let Some(Fault::Misbehaved(why)) = e.fault() {
                            report(Report::Status(format!("The engine {why}.")));
                        }
                        engine = None;
                    }
                    Reply::Timeout if !e.stop_and_sync() => engine = None,
                    _ => {}
                }
                report(Report::Answer(id, answer));
            }
        }
    }
    if let Some(e) = engine {
        e.quit();
    }
}

/// Sets the variant (if it changed) and `options`, then `ucinewgame`.
fn prepare(
    e: &mut EngineProcess,
    current: &mut Variant,
    variant: Variant,
    options: &[(String, Option<String>)],
) -> Result<(), String> {
    if variant != *current {
        if !e.declares("UCI_Variant") {
            return Err(format!(
                "the engine has no UCI_Variant option, so it cannot play {}",
                variant.name()
            ));
        }
        // A variant defined in a file: the engine reads the same file first.
        if let Variant::Defined(d) = variant {
            if !e.declares("VariantPath") {
                return Err(format!(
                    "the engine has no VariantPath option, so it cannot load {}",
                    variant.name()
                ));
            }
            e.set_option("VariantPath", Some(&d.0.path), HANDSHAKE)?;
        }
        e.set_option("UCI_Variant", Some(variant.name()), HANDSHAKE)?;
        *current = variant;
    }
    for (name, value) in options {
        e.set_option(name, value.as_deref(), HANDSHAKE)?;
    }
    e.new_game(HANDSHAKE)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A request of no consequence.
    fn think(id: u64) -> Request {
        Request::Think {
            id,
            position: "position startpos".into(),
            go: "go nodes 1".into(),
            wait: Duration::from_secs(1),
            multipv: 1,
        }
    }

    #[test]
    fn the_request_queue_is_bounded() {
        let sessions = Arc::new(tokio::sync::Semaphore::new(1));
        let slot = sessions.clone().try_acquire_owned().unwrap();
        let (tx, _rx) = tokio::sync::mpsc::channel(REPORT_QUEUE);
        // An "engine" that says nothing and exits after two seconds: until then the thread
        // waits for its handshake and takes no request, so they wait.
        let handle = EngineHandle::start("sleep".into(), vec!["2".into()], tx, slot);
        assert!(
            sessions.clone().try_acquire_owned().is_err(),
            "the slot is held"
        );
        for id in 1..=REQUEST_QUEUE as u64 {
            assert!(!handle.busy());
            handle.send(think(id));
        }
        assert!(handle.busy(), "{REQUEST_QUEUE} requests wait");
        // The session ends: the thread drops what waits, ends the engine, frees the slot.
        drop(handle);
        let until = std::time::Instant::now() + HANDSHAKE;
        while sessions.clone().try_acquire_owned().is_err() {
            assert!(std::time::Instant::now() < until, "the slot is never freed");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}
