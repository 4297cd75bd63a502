//! An engine process speaking the protocol: start and handshake, options, `isready` with a
//! time limit, `position` + `go` with the time it took, and ending or restarting it.
//!
//! A reader thread turns the engine's stdout into timestamped lines on a channel, so every
//! wait has a deadline and a dead engine shows as the end of that channel. The engine runs in
//! its own process group, so that ending it also ends what it started (a wrapper script's
//! children).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use super::args::{EngineConfig, EngineKind};
use super::player::{Answer, Player, Reply, SearchInfo, Turn};
use crate::protocol::line::{Line, LineError};
use crate::rules::Variant;

/// How long a stopped engine may take to answer `stop` and `isready` before it is restarted.
const RECOVER_GRACE: Duration = Duration::from_millis(1000);

/// How often a watched search asks whether it should be interrupted.
const POLL: Duration = Duration::from_millis(10);

/// One line from the engine, with the time it was read; `None` = end of output.
type Timed = (Instant, Option<String>);

/// Why a wait ended without the line we wanted.
#[derive(Debug, PartialEq, Eq)]
enum WaitError {
    Timeout,
    Closed,
}

/// A running engine process.
pub struct EngineProcess {
    name: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Timed>,
    /// `option name ...` lines of the handshake: (name, rest of the line).
    declared: Vec<(String, String)>,
    /// The name the engine gives itself (`id name ...`).
    id_name: Option<String>,
}

impl EngineProcess {
    /// Starts the engine of `cfg`, does the `uci` handshake, sets its options and the
    /// variant, and waits for `readyok` (each answer within `timeout`).
    pub fn start(cfg: &EngineConfig, variant: Variant, timeout: Duration) -> Result<Self, String> {
        let EngineKind::Process { cmd, args, dir } = &cfg.kind else {
            return Err(format!("engine '{}' is not a program", cfg.name));
        };
        // A relative path with a directory part (`cmd=./strata dir=Engines/`, as fastchess
        // and OpenBench give it) is relative to the engine's directory.
        let program = match dir {
            // Made absolute: whether a relative program is looked up before or after the
            // change of directory differs between platforms.
            Some(d) if cmd.contains(['/', '\\']) && std::path::Path::new(cmd).is_relative() => {
                std::fs::canonicalize(d.join(cmd)).unwrap_or_else(|_| d.join(cmd))
            }
            _ => std::path::PathBuf::from(cmd),
        };
        let mut command = Command::new(&program);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(d) = dir {
            command.current_dir(d);
        }
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command
            .spawn()
            .map_err(|e| format!("engine '{}': cannot start '{cmd}': {e}", cfg.name))?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        let (tx, rx) = channel();
        let name = cfg.name.clone();
        let _ = std::thread::Builder::new()
            .name(format!("engine-{name}-out"))
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match reader.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let text = String::from_utf8_lossy(&buf);
                            let line = text.trim_end_matches(['\n', '\r']).to_string();
                            if tx.send((Instant::now(), Some(line))).is_err() {
                                return;
                            }
                        }
                    }
                }
                let _ = tx.send((Instant::now(), None));
            });
        let err_name = cfg.name.clone();
        let _ = std::thread::Builder::new()
            .name(format!("engine-{name}-err"))
            .spawn(move || {
                for line in BufReader::new(stderr).lines() {
                    match line {
                        Ok(l) => tracing::debug!(engine = %err_name, "stderr: {l}"),
                        Err(_) => break,
                    }
                }
            });
        let mut e = EngineProcess {
            name: cfg.name.clone(),
            child,
            stdin,
            lines: rx,
            declared: Vec::new(),
            id_name: None,
        };
        e.handshake(cfg, variant, timeout)?;
        Ok(e)
    }

    fn handshake(
        &mut self,
        cfg: &EngineConfig,
        variant: Variant,
        timeout: Duration,
    ) -> Result<(), String> {
        let name = self.name.clone();
        let fail = |what: &str, e: WaitError| match e {
            WaitError::Timeout => format!("engine '{name}': no '{what}' within {timeout:?}"),
            WaitError::Closed => format!("engine '{name}' exited before '{what}'"),
        };
        self.send("uci")
            .map_err(|_| format!("engine '{name}' exited at once"))?;
        let deadline = Instant::now() + timeout;
        loop {
            let (_, line) = self.next_line(deadline).map_err(|e| fail("uciok", e))?;
            if line == "uciok" {
                break;
            }
            if let Some(id) = line.strip_prefix("id name ") {
                self.id_name = Some(id.trim().to_string());
            }
            if let Some(rest) = line.strip_prefix("option name ") {
                let (n, tail) = rest.split_once(" type ").unwrap_or((rest, ""));
                self.declared.push((n.trim().to_string(), tail.to_string()));
            }
        }
        for (k, v) in &cfg.options {
            if !self.declares(k) {
                tracing::warn!(engine = %name, option = %k, "the engine does not declare this option");
            }
            let line = Line::setoption(k, Some(v)).map_err(|e| format!("engine '{name}': {e}"))?;
            self.send_line(&line)
                .map_err(|_| fail("setoption", WaitError::Closed))?;
        }
        // A variant defined in a file: the engine reads the same file first (it then lists
        // the variant, though not in the options it declared before).
        if let Variant::Defined(d) = variant {
            if !self.declares("VariantPath") {
                return Err(format!(
                    "engine '{name}' has no VariantPath option, so it cannot load {}",
                    variant.name()
                ));
            }
            let line = Line::setoption("VariantPath", Some(&d.0.path))
                .map_err(|e| format!("engine '{name}': {e}"))?;
            self.send_line(&line)
                .map_err(|_| fail("setoption", WaitError::Closed))?;
        } else if let Some(vars) = self.declared_vars("UCI_Variant")
            && !vars.iter().any(|v| v == variant.name())
        {
            return Err(format!(
                "engine '{name}' does not list {} among its UCI_Variant values",
                variant.name()
            ));
        }
        if self.declares("UCI_Variant") {
            self.send(&format!(
                "setoption name UCI_Variant value {}",
                variant.name()
            ))
            .map_err(|_| fail("setoption", WaitError::Closed))?;
        } else if variant != Variant::Chess {
            return Err(format!(
                "engine '{name}' has no UCI_Variant option, so it cannot play {}",
                variant.name()
            ));
        }
        self.sync(timeout).map_err(|e| fail("readyok", e))
    }

    /// Whether the engine declared option `name` (case-insensitive).
    pub fn declares(&self, name: &str) -> bool {
        self.declared
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case(name))
    }

    /// The default the engine declared for option `name`.
    pub fn declared_default(&self, name: &str) -> Option<String> {
        let (_, tail) = self
            .declared
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))?;
        let t: Vec<&str> = tail.split_whitespace().collect();
        let i = t.iter().position(|&w| w == "default")?;
        t.get(i + 1).map(|s| s.to_string())
    }

    /// The `var` values the engine declared for combo option `name`.
    fn declared_vars(&self, name: &str) -> Option<Vec<String>> {
        let (_, tail) = self
            .declared
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))?;
        let t: Vec<&str> = tail.split_whitespace().collect();
        let vars: Vec<String> = t
            .windows(2)
            .filter(|w| w[0] == "var")
            .map(|w| w[1].to_string())
            .collect();
        (!vars.is_empty()).then_some(vars)
    }

    /// Sends `text` as one line: refused (nothing is sent) when it is not one line, see
    /// [`Line::new`]; `Err(None)` when the engine's input is closed.
    fn send(&mut self, text: &str) -> Result<(), Option<LineError>> {
        let line = Line::new(text).map_err(|e| {
            tracing::error!(engine = %self.name, "not sent: {e}");
            Some(e)
        })?;
        self.send_line(&line).map_err(|_| None)
    }

    /// Writes a checked line to the engine's input.
    fn send_line(&mut self, line: &Line) -> Result<(), ()> {
        tracing::debug!(engine = %self.name, "> {line}");
        let stdin = self.stdin.as_mut().ok_or(())?;
        stdin
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|_| stdin.flush())
            .map_err(|_| ())
    }

    fn next_line(&mut self, deadline: Instant) -> Result<(Instant, String), WaitError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok((t, Some(line))) => {
                tracing::debug!(engine = %self.name, "< {line}");
                Ok((t, line))
            }
            Ok((_, None)) | Err(RecvTimeoutError::Disconnected) => Err(WaitError::Closed),
            Err(RecvTimeoutError::Timeout) => Err(WaitError::Timeout),
        }
    }

    /// Sends `isready` and waits for `readyok`, dropping everything before it.
    fn sync(&mut self, timeout: Duration) -> Result<(), WaitError> {
        self.send("isready").map_err(|_| WaitError::Closed)?;
        let deadline = Instant::now() + timeout;
        loop {
            let (_, line) = self.next_line(deadline)?;
            if line == "readyok" {
                return Ok(());
            }
            if line.starts_with("info string error") {
                tracing::warn!(engine = %self.name, "{line}");
            }
        }
    }

    /// `ucinewgame` and a handshake.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), String> {
        let name = self.name.clone();
        self.send("ucinewgame")
            .map_err(|_| format!("engine '{name}' has exited"))?;
        self.sync(timeout).map_err(|e| match e {
            WaitError::Timeout => format!("engine '{name}': no 'readyok' within {timeout:?}"),
            WaitError::Closed => format!("engine '{name}' has exited"),
        })
    }

    /// Sends the position and `go`, and waits up to `wait` for `bestmove`.
    pub fn go(&mut self, position: &str, go: &str, wait: Duration) -> Answer {
        self.go_watched(position, go, wait, &mut |_| {}, &|| false)
    }

    /// [`EngineProcess::go`], handing every line the engine prints before `bestmove` to
    /// `on_line` as it arrives, and sending `stop` as soon as `interrupted()` says so (the
    /// engine's `bestmove` then still ends the wait). `interrupted` is asked every few
    /// milliseconds.
    pub fn go_watched(
        &mut self,
        position: &str,
        go: &str,
        wait: Duration,
        on_line: &mut dyn FnMut(&str),
        interrupted: &dyn Fn() -> bool,
    ) -> Answer {
        // Anything still queued belongs to an earlier request.
        while let Ok((_, Some(l))) = self.lines.try_recv() {
            tracing::debug!(engine = %self.name, "< {l} (stale)");
        }
        let mut info = SearchInfo::default();
        let crashed = |elapsed, info| Answer {
            reply: Reply::Crashed,
            elapsed,
            info,
        };
        if self.send(position).is_err() {
            return crashed(Duration::ZERO, info);
        }
        let start = Instant::now();
        if self.send(go).is_err() {
            return crashed(Duration::ZERO, info);
        }
        let mut deadline = start + wait;
        let mut stopped = false;
        loop {
            // Checked before every line too: an engine that prints lines faster than POLL
            // (an infinite analysis at small depths) is still stopped at once.
            if !stopped && interrupted() {
                stopped = true;
                if self.send("stop").is_err() {
                    return crashed(start.elapsed(), info);
                }
                deadline = Instant::now() + RECOVER_GRACE;
            }
            let poll = deadline.min(Instant::now() + POLL);
            match self.next_line(poll) {
                Ok((t, line)) => {
                    if let Some(rest) = line.strip_prefix("bestmove") {
                        let mv = rest.split_whitespace().next().unwrap_or("").to_string();
                        return Answer {
                            reply: Reply::Move(mv),
                            elapsed: t.saturating_duration_since(start),
                            info,
                        };
                    }
                    info.update(&line);
                    on_line(&line);
                }
                Err(WaitError::Timeout) if Instant::now() < deadline => {}
                Err(WaitError::Timeout) => {
                    return Answer {
                        reply: Reply::Timeout,
                        elapsed: start.elapsed(),
                        info,
                    };
                }
                Err(WaitError::Closed) => return crashed(start.elapsed(), info),
            }
        }
    }

    /// The options the engine declared in its handshake: (name, the rest of the line after
    /// `type `, as `spin default 1 min 1 max 20`).
    pub fn declared_options(&self) -> &[(String, String)] {
        &self.declared
    }

    /// Sends `setoption name NAME value VALUE` (or without value) and waits for `readyok`.
    pub fn set_option(
        &mut self,
        name: &str,
        value: Option<&str>,
        timeout: Duration,
    ) -> Result<(), String> {
        let line = Line::setoption(name, value).map_err(|e| e.to_string())?;
        let engine = self.name.clone();
        self.send_line(&line)
            .map_err(|_| format!("engine '{engine}' has exited"))?;
        self.sync(timeout).map_err(|e| match e {
            WaitError::Timeout => format!("engine '{engine}': no 'readyok' within {timeout:?}"),
            WaitError::Closed => format!("engine '{engine}' has exited"),
        })
    }

    /// The name the engine gave itself in its handshake (`id name`), else the one it was
    /// started under.
    pub fn id_name(&self) -> &str {
        self.id_name.as_deref().unwrap_or(&self.name)
    }

    /// After a timeout: `stop`, the late `bestmove`, and a handshake, within a grace time.
    pub fn stop_and_sync(&mut self) -> bool {
        if self.send("stop").is_err() {
            return false;
        }
        let deadline = Instant::now() + RECOVER_GRACE;
        loop {
            match self.next_line(deadline) {
                Ok((_, l)) if l.starts_with("bestmove") => break,
                Ok(_) => {}
                Err(_) => return false,
            }
        }
        self.sync(RECOVER_GRACE).is_ok()
    }

    /// Ends the engine: `quit`, a moment to exit, then the whole process group is killed.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        self.stdin = None;
        // Wait a moment for the end of its output (without reaping it, so that its process
        // group id stays reserved until Drop has signalled the group).
        let deadline = Instant::now() + Duration::from_millis(300);
        while self.next_line(deadline).is_ok() {}
        // Drop kills whatever is left.
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.stdin = None;
        #[cfg(unix)]
        {
            if let Ok(pid) = i32::try_from(self.child.id()) {
                // SAFETY: kill(2) with a negative pid signals the process group the engine
                // leads (it was started with process_group(0)); no memory is involved.
                unsafe {
                    libc::kill(-pid, libc::SIGKILL);
                }
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A [`Player`] backed by an engine process, restarted when it dies.
pub struct EnginePlayer {
    cfg: EngineConfig,
    variant: Variant,
    timeout: Duration,
    process: Option<EngineProcess>,
}

impl EnginePlayer {
    /// Starts the engine.
    pub fn start(cfg: &EngineConfig, variant: Variant, timeout: Duration) -> Result<Self, String> {
        let process = EngineProcess::start(cfg, variant, timeout)?;
        Ok(EnginePlayer {
            cfg: cfg.clone(),
            variant,
            timeout,
            process: Some(process),
        })
    }

    /// `Threads` and `Hash` as fastchess prints them (`1t`, `16MB`; `NULL` if the engine has
    /// no such option): the value set, else the declared default.
    pub fn threads_and_hash(&self) -> (String, String) {
        let value = |name: &str| {
            self.cfg
                .options
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.clone())
                .or_else(|| self.process.as_ref()?.declared_default(name))
        };
        (
            value("Threads").map_or("NULL".into(), |v| format!("{v}t")),
            value("Hash").map_or("NULL".into(), |v| format!("{v}MB")),
        )
    }
}

impl Player for EnginePlayer {
    fn name(&self) -> &str {
        &self.cfg.name
    }

    fn new_game(&mut self, _game_id: u64) -> Result<(), String> {
        match self.process.as_mut() {
            Some(p) => p.new_game(self.timeout),
            None => Err(format!("engine '{}' is not running", self.cfg.name)),
        }
    }

    fn think(&mut self, turn: &Turn) -> Answer {
        match self.process.as_mut() {
            Some(p) => p.go(turn.position, turn.go, turn.wait),
            None => Answer {
                reply: Reply::Crashed,
                elapsed: Duration::ZERO,
                info: SearchInfo::default(),
            },
        }
    }

    fn recover(&mut self) -> Result<(), String> {
        if self.process.as_mut().is_some_and(|p| p.stop_and_sync()) {
            return Ok(());
        }
        tracing::info!(engine = %self.cfg.name, "unresponsive after a timeout: restarting");
        self.restart()
    }

    fn restart(&mut self) -> Result<(), String> {
        // Kill the old process first (Drop), then start a new one.
        self.process = None;
        self.process = Some(EngineProcess::start(&self.cfg, self.variant, self.timeout)?);
        Ok(())
    }

    fn close(mut self: Box<Self>) {
        if let Some(p) = self.process.take() {
            p.quit();
        }
    }
}
