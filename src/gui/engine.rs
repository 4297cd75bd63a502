//! The engine of one game session: a thread that owns the engine process (the match runner's
//! [`EngineProcess`]) and does what the session asks, one request at a time, reporting back
//! on a channel. A search can be interrupted; an engine that dies is started again for the
//! next game; when the session ends, the engine is told to quit (and its process group is
//! ended with it).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::thread::JoinHandle;
use std::time::Duration;

use tokio::sync::mpsc::UnboundedSender;

use crate::rules::Variant;
use crate::runner::args::{EngineConfig, EngineKind, Limits};
use crate::runner::engine::EngineProcess;
use crate::runner::player::{Answer, Reply};

/// How long the engine may take to answer `uci` and `isready`.
const HANDSHAKE: Duration = Duration::from_secs(10);

/// A request to the engine thread.
pub enum Request {
    /// Get ready for a game of `variant` with these options set.
    NewGame {
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
    Ready(Result<(), String>),
    /// A line the engine printed while thinking for request `id`.
    Line(u64, String),
    /// The answer to request `id`.
    Answer(u64, Answer),
}

/// The session's handle on its engine thread.
pub struct EngineHandle {
    requests: std::sync::mpsc::Sender<Request>,
    /// Every search request up to this number is to be interrupted.
    cancel: Arc<AtomicU64>,
    thread: Option<JoinHandle<()>>,
}

impl EngineHandle {
    /// Starts the engine thread for the engine `cmd args`, reporting on `reports`.
    pub fn start(cmd: String, args: Vec<String>, reports: UnboundedSender<Report>) -> Self {
        let (tx, rx) = std::sync::mpsc::channel();
        let cancel = Arc::new(AtomicU64::new(0));
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
        let c = cancel.clone();
        let thread = std::thread::Builder::new()
            .name("gui-engine".into())
            .spawn(move || serve(cfg, rx, reports, c))
            .ok();
        EngineHandle {
            requests: tx,
            cancel,
            thread,
        }
    }

    /// Sends a request (lost if the thread has ended).
    pub fn send(&self, r: Request) {
        let _ = self.requests.send(r);
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
    reports: UnboundedSender<Report>,
    cancel: Arc<AtomicU64>,
) {
    let start = |variant| EngineProcess::start(&cfg, variant, HANDSHAKE);
    let mut variant = Variant::Chess;
    // The engine's MultiPV as last set (1 when it starts).
    let mut lines = 1;
    let mut engine = match start(variant) {
        Ok(e) => {
            let _ = reports.send(Report::Started {
                name: e.id_name().to_string(),
                options: e.declared_options().to_vec(),
            });
            Some(e)
        }
        Err(e) => {
            let _ = reports.send(Report::Failed(e));
            None
        }
    };
    while let Ok(request) = requests.recv() {
        match request {
            Request::NewGame {
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
                    let _ = reports.send(Report::Failed("the engine does not start".into()));
                }
                let _ = reports.send(Report::Ready(result));
            }
            Request::Think {
                id,
                position,
                go,
                wait,
                multipv,
            } => {
                let Some(e) = engine.as_mut() else {
                    let _ = reports.send(Report::Answer(
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
                            let _ = reports.send(Report::Failed(message));
                        }
                    }
                }
                let answer = e.go_watched(
                    &position,
                    &go,
                    wait,
                    &mut |line| {
                        let _ = reports.send(Report::Line(id, line.to_string()));
                    },
                    &|| cancel.load(Relaxed) >= id,
                );
                match answer.reply {
                    // A dead engine is started again for the next game.
                    Reply::Crashed => engine = None,
                    Reply::Timeout if !e.stop_and_sync() => engine = None,
                    _ => {}
                }
                let _ = reports.send(Report::Answer(id, answer));
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
