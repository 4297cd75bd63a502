//! An engine process speaking the protocol: start and handshake, options, `isready` with a
//! time limit, `position` + `go` with the time it took, and ending or restarting it.
//!
//! A reader thread turns the engine's stdout into timestamped lines on a channel, so every
//! wait has a deadline and a dead engine shows as the end of that channel. The engine runs in
//! its own process group, so that ending it also ends what it started (a wrapper script's
//! children).
//!
//! What an engine prints costs bounded memory whatever it prints: a line is read up to
//! [`MAX_ENGINE_LINE`] bytes (an engine printing a longer one is misbehaving, and is not read
//! any more: its request fails, see [`Fault::Misbehaved`]), and at most [`QUEUED_LINES`]
//! lines wait on the channel (then the reader, and the engine writing to its pipe, wait
//! for the consumer, which drains what is stale before each request). Every wait ends at
//! its deadline, even while the engine prints without pause.

use std::io::{BufReader, Read as _, Write};
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, TrySendError, sync_channel};
use std::time::{Duration, Instant};

use super::args::{EngineConfig, EngineKind};
use super::player::{Answer, Fault, Lines, Player, Reply, SearchInfo, Turn};
use crate::protocol::line::{Line, LineError, MAX_ENGINE_LINE, Read, read_line};
use crate::rules::Variant;

/// How long a stopped engine may take to answer `stop` and `isready` before it is restarted.
const RECOVER_GRACE: Duration = Duration::from_millis(1000);

/// How often a watched search asks whether it should be interrupted.
const POLL: Duration = Duration::from_millis(10);

/// How many lines read from an engine may wait for the consumer: with lines of at most
/// [`MAX_ENGINE_LINE`] bytes, at most 8 MiB per engine.
pub const QUEUED_LINES: usize = 128;

/// The most options an engine may declare in its handshake (Stockfish declares about 20,
/// Fairy-Stockfish about 30), and the most bytes of their declarations together: an engine
/// beyond either fails to start.
pub const MAX_DECLARED_OPTIONS: usize = 1024;
/// See [`MAX_DECLARED_OPTIONS`].
pub const MAX_DECLARED_BYTES: usize = 1 << 20;

/// How many lines sent to an engine may wait for it to read them. An engine with more
/// unread is not reading its input: it is treated as one that broke the protocol.
pub const UNREAD_LINES: usize = 32;

/// What the reader thread read from the engine's stdout.
#[derive(Debug)]
enum Output {
    /// One line, without its line break.
    Line(String),
    /// A line longer than [`MAX_ENGINE_LINE`]: the reader stops there.
    TooLong,
    /// The end of the output (the engine exited or closed it).
    End,
}

/// What the engine printed, with the time it was read.
type Timed = (Instant, Output);

/// Why a wait ended without the line we wanted.
#[derive(Debug, PartialEq, Eq)]
enum WaitError {
    Timeout,
    Closed,
    /// The engine printed a line longer than [`MAX_ENGINE_LINE`].
    TooLong,
    /// A line we were to send was refused by [`Line::new`] (nothing was sent).
    Refused(LineError),
}

impl WaitError {
    /// In words, for engine `name` waiting for `what` (`'readyok'`) up to `timeout`.
    fn describe(&self, name: &str, what: &str, timeout: Duration) -> String {
        match self {
            WaitError::Timeout => format!("engine '{name}': no '{what}' within {timeout:?}"),
            WaitError::Closed => format!("engine '{name}' exited before '{what}'"),
            WaitError::TooLong => format!("engine '{name}' {} before '{what}'", too_long()),
            WaitError::Refused(e) => format!("engine '{name}': not sent: {e}"),
        }
    }
}

/// What a misbehaving engine did, in words.
fn too_long() -> String {
    format!("printed a line longer than {MAX_ENGINE_LINE} bytes")
}

fn unread() -> String {
    format!("does not read its input ({UNREAD_LINES} lines unread)")
}

/// The thread that writes the engine's input, line by line, until the engine closes it or
/// the sender is dropped (which closes the engine's input).
fn write_input(mut stdin: ChildStdin, lines: Receiver<Vec<u8>>) {
    for chunk in lines {
        if stdin.write_all(&chunk).and_then(|_| stdin.flush()).is_err() {
            return;
        }
    }
}

/// `timeout` from now; a timeout too long to represent is a time that never comes.
fn deadline_after(timeout: Duration) -> Instant {
    let now = Instant::now();
    now.checked_add(timeout)
        // About 30 years: far beyond any wait, and representable on every platform.
        .or_else(|| now.checked_add(Duration::from_secs(1 << 30)))
        .unwrap_or(now)
}

/// The reader thread of the engine's stdout: one [`Output`] per line, at most
/// [`MAX_ENGINE_LINE`] bytes each, into a channel of [`QUEUED_LINES`].
fn read_output(stdout: ChildStdout, tx: SyncSender<Timed>) {
    let mut reader = BufReader::new(stdout);
    let mut buf = Vec::new();
    loop {
        // At most one byte past the limit is read of any line, so that a longer line is
        // reported as soon as it is one, not at its end (an endless line has none).
        let mut line = (&mut reader).take(MAX_ENGINE_LINE as u64 + 1);
        let out = match read_line(&mut line, &mut buf, MAX_ENGINE_LINE) {
            Ok(Read::Line) => Output::Line(String::from_utf8_lossy(&buf).into_owned()),
            Ok(Read::TooLong { .. }) => Output::TooLong,
            Ok(Read::End) | Err(_) => Output::End,
        };
        let last = !matches!(out, Output::Line(_));
        // Blocks while the channel is full; fails when the consumer is gone.
        if tx.send((Instant::now(), out)).is_err() || last {
            return;
        }
    }
}

/// The reader thread of the engine's stderr: each line to the log, cut to
/// [`MAX_ENGINE_LINE`] bytes (the rest of a longer line is read and dropped).
fn log_stderr(stderr: ChildStderr, name: String) {
    let mut reader = BufReader::new(stderr);
    let mut buf = Vec::new();
    loop {
        match read_line(&mut reader, &mut buf, MAX_ENGINE_LINE) {
            Ok(Read::Line) => {
                tracing::debug!(engine = %name, "stderr: {}", String::from_utf8_lossy(&buf));
            }
            Ok(Read::TooLong { len }) => tracing::debug!(
                engine = %name,
                "stderr: a line of {len} bytes, cut: {}",
                String::from_utf8_lossy(&buf)
            ),
            Ok(Read::End) | Err(_) => return,
        }
    }
}

/// A running engine process.
pub struct EngineProcess {
    name: String,
    child: Child,
    /// The lines to write to the engine's input, written by a thread of their own so that
    /// an engine that does not read cannot block us (at most [`UNREAD_LINES`] wait).
    input: Option<SyncSender<Vec<u8>>>,
    /// The engine left [`UNREAD_LINES`] lines unread.
    unread: bool,
    lines: Receiver<Timed>,
    /// What was received past the deadline of a wait, for the next one.
    pending: Option<Timed>,
    /// The engine printed a line longer than [`MAX_ENGINE_LINE`]; it is not read any more.
    misbehaved: bool,
    /// Why the last line to send was refused (nothing was sent); cleared by the next
    /// request.
    refused: Option<LineError>,
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
        let stdin = child.stdin.take().expect("stdin is piped");
        let (input, unsent) = sync_channel(UNREAD_LINES);
        let _ = std::thread::Builder::new()
            .name(format!("engine-{}-in", cfg.name))
            .spawn(move || write_input(stdin, unsent));
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        let (tx, rx) = sync_channel(QUEUED_LINES);
        let name = cfg.name.clone();
        let _ = std::thread::Builder::new()
            .name(format!("engine-{name}-out"))
            .spawn(move || read_output(stdout, tx));
        let err_name = cfg.name.clone();
        let _ = std::thread::Builder::new()
            .name(format!("engine-{name}-err"))
            .spawn(move || log_stderr(stderr, err_name));
        let mut e = EngineProcess {
            name: cfg.name.clone(),
            child,
            input: Some(input),
            unread: false,
            lines: rx,
            pending: None,
            misbehaved: false,
            refused: None,
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
        let fail = |what: &str, e: WaitError| e.describe(&name, what, timeout);
        self.send("uci").map_err(|e| match e {
            WaitError::Closed => format!("engine '{name}' exited at once"),
            e => fail("uciok", e),
        })?;
        let deadline = deadline_after(timeout);
        let mut declared_bytes = 0;
        loop {
            let (_, line) = self.next_line(deadline).map_err(|e| fail("uciok", e))?;
            if line == "uciok" {
                break;
            }
            if let Some(id) = line.strip_prefix("id name ") {
                self.id_name = Some(id.trim().to_string());
            }
            if let Some(rest) = line.strip_prefix("option name ") {
                declared_bytes += rest.len();
                if self.declared.len() >= MAX_DECLARED_OPTIONS
                    || declared_bytes > MAX_DECLARED_BYTES
                {
                    return Err(format!(
                        "engine '{name}' declares more than {MAX_DECLARED_OPTIONS} options or \
                         {MAX_DECLARED_BYTES} bytes of them before 'uciok'"
                    ));
                }
                let (n, tail) = rest.split_once(" type ").unwrap_or((rest, ""));
                self.declared.push((n.trim().to_string(), tail.to_string()));
            }
        }
        for (k, v) in &cfg.options {
            if !self.declares(k) {
                tracing::warn!(engine = %name, option = %k, "the engine does not declare this option");
            }
            self.send_option(k, v).map_err(|e| fail("setoption", e))?;
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
            self.set_for_the_game("VariantPath", &d.0.path, timeout)?;
        } else if let Some(vars) = self.declared_vars("UCI_Variant")
            && !vars.iter().any(|v| v == variant.name())
        {
            return Err(format!(
                "engine '{name}' does not list {} among its UCI_Variant values",
                variant.name()
            ));
        }
        if self.declares("UCI_Variant") {
            self.set_for_the_game("UCI_Variant", variant.name(), timeout)?;
        } else if variant != Variant::Chess {
            return Err(format!(
                "engine '{name}' has no UCI_Variant option, so it cannot play {}",
                variant.name()
            ));
        }
        self.sync(timeout).map_err(|e| fail("readyok", e))
    }

    /// Sets an option the game needs (the variant, the file that defines it) and waits for
    /// `readyok`: an engine that answers it with `info string error ...` cannot play the
    /// game asked for, and is not started (it would otherwise play on with what it had, and
    /// its games would be lost by illegal moves or played in another variant).
    fn set_for_the_game(
        &mut self,
        name: &str,
        value: &str,
        timeout: Duration,
    ) -> Result<(), String> {
        let engine = self.name.clone();
        let fail = |what: &str, e: WaitError| e.describe(&engine, what, timeout);
        self.send_option(name, value)
            .map_err(|e| fail("setoption", e))?;
        match self.sync_errors(timeout).map_err(|e| fail("readyok", e))? {
            Some(error) => Err(format!(
                "engine '{engine}' cannot play this game: it answered \
                 'setoption name {name} value {value}' with: {error}"
            )),
            None => Ok(()),
        }
    }

    /// Sends `setoption name NAME value VALUE`, checked by [`Line::setoption`].
    fn send_option(&mut self, name: &str, value: &str) -> Result<(), WaitError> {
        let line = Line::setoption(name, Some(value)).map_err(|e| self.refuse(e))?;
        self.send_line(&line).map_err(|_| WaitError::Closed)
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
    /// [`Line::new`]; [`WaitError::Closed`] when the engine's input is closed.
    fn send(&mut self, text: &str) -> Result<(), WaitError> {
        let line = Line::new(text).map_err(|e| self.refuse(e))?;
        self.send_line(&line).map_err(|_| WaitError::Closed)
    }

    /// Records a line refused by [`Line::new`] (a fault of the caller, not of the engine).
    fn refuse(&mut self, e: LineError) -> WaitError {
        tracing::error!(engine = %self.name, "not sent: {e}");
        self.refused = Some(e.clone());
        WaitError::Refused(e)
    }

    /// Hands a checked line to the thread that writes the engine's input. Fails when the
    /// input is closed, or when the engine has left [`UNREAD_LINES`] lines unread (then it
    /// is treated as misbehaving, see [`EngineProcess::fault`]).
    fn send_line(&mut self, line: &Line) -> Result<(), ()> {
        tracing::debug!(engine = %self.name, "> {line}");
        let input = self.input.as_ref().ok_or(())?;
        match input.try_send(format!("{line}\n").into_bytes()) {
            Ok(()) => Ok(()),
            Err(TrySendError::Full(_)) => {
                tracing::warn!(engine = %self.name, "{}", unread());
                self.unread = true;
                Err(())
            }
            Err(TrySendError::Disconnected(_)) => Err(()),
        }
    }

    /// The next line the engine printed, if it printed it by `deadline`. What was read past
    /// the deadline is kept for the next wait, so that an engine printing without pause
    /// cannot hold a wait beyond its deadline, and nothing it printed is lost.
    fn next_line(&mut self, deadline: Instant) -> Result<(Instant, String), WaitError> {
        let (t, out) = match self.pending.take() {
            Some(timed) => timed,
            None => {
                let left = deadline.saturating_duration_since(Instant::now());
                match self.lines.recv_timeout(left) {
                    Ok(timed) => timed,
                    Err(RecvTimeoutError::Timeout) => return Err(WaitError::Timeout),
                    Err(RecvTimeoutError::Disconnected) if self.misbehaved => {
                        return Err(WaitError::TooLong);
                    }
                    Err(RecvTimeoutError::Disconnected) => return Err(WaitError::Closed),
                }
            }
        };
        if t > deadline {
            self.pending = Some((t, out));
            return Err(WaitError::Timeout);
        }
        match out {
            Output::Line(line) => {
                tracing::debug!(engine = %self.name, "< {line}");
                Ok((t, line))
            }
            Output::TooLong => {
                tracing::warn!(engine = %self.name, "{}: not read any more", too_long());
                self.misbehaved = true;
                Err(WaitError::TooLong)
            }
            Output::End => Err(WaitError::Closed),
        }
    }

    /// Drops the lines still queued from an earlier request: at most a channel's worth, so
    /// that an engine printing without pause cannot keep the next request from being made.
    /// The end of the output, or a line too long, stays for the next wait.
    fn drain_stale(&mut self) {
        self.refused = None;
        if matches!(self.pending, Some((_, Output::Line(_)))) {
            self.pending = None;
        }
        if self.pending.is_some() {
            return;
        }
        for _ in 0..QUEUED_LINES {
            match self.lines.try_recv() {
                Ok((_, Output::Line(l))) => {
                    tracing::debug!(engine = %self.name, "< {l} (stale)");
                }
                Ok(other) => {
                    self.pending = Some(other);
                    return;
                }
                Err(_) => return,
            }
        }
    }

    /// Sends `isready` and waits for `readyok`, dropping everything before it.
    fn sync(&mut self, timeout: Duration) -> Result<(), WaitError> {
        self.sync_errors(timeout).map(drop)
    }

    /// [`Self::sync`], returning the first `info string error ...` line printed before
    /// `readyok` (every one is logged).
    fn sync_errors(&mut self, timeout: Duration) -> Result<Option<String>, WaitError> {
        self.send("isready")?;
        let deadline = deadline_after(timeout);
        let mut first = None;
        loop {
            let (_, line) = self.next_line(deadline)?;
            if line == "readyok" {
                return Ok(first);
            }
            if line.starts_with("info string error") {
                tracing::warn!(engine = %self.name, "{line}");
                first.get_or_insert(line);
            }
        }
    }

    /// `ucinewgame` and a handshake.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), String> {
        self.drain_stale();
        let name = self.name.clone();
        self.send("ucinewgame")
            .and_then(|_| self.sync(timeout))
            .map_err(|e| match e {
                WaitError::Closed => format!("engine '{name}' has exited"),
                e => e.describe(&name, "readyok", timeout),
            })
    }

    /// Why the last request failed, when it was not the engine exiting or not answering in
    /// time: it printed a line longer than [`MAX_ENGINE_LINE`] (it is not read any more:
    /// restart it), or a line to send was refused (nothing was sent).
    pub fn fault(&self) -> Option<Fault> {
        if self.misbehaved {
            return Some(Fault::Misbehaved(too_long()));
        }
        if self.unread {
            return Some(Fault::Misbehaved(unread()));
        }
        self.refused
            .as_ref()
            .map(|e| Fault::Refused(format!("engine '{}': not sent: {e}", self.name)))
    }

    /// Sends the position and `go`, and waits up to `wait` for `bestmove`.
    pub fn go(&mut self, position: &str, go: &str, wait: Duration) -> Answer {
        self.go_watched(position, go, wait, &mut |_| {}, &|| false)
    }

    /// [`EngineProcess::go`], handing every line the engine prints before `bestmove` to
    /// `on_line` as it arrives, and sending `stop` as soon as `interrupted()` says so (the
    /// engine's `bestmove` then still ends the wait). `interrupted` is asked every few
    /// milliseconds.
    ///
    /// An engine that died, printed a line longer than [`MAX_ENGINE_LINE`], or was to be
    /// sent a line that [`Line::new`] refuses, answers [`Reply::Crashed`];
    /// [`EngineProcess::fault`] tells the last two apart.
    pub fn go_watched(
        &mut self,
        position: &str,
        go: &str,
        wait: Duration,
        on_line: &mut dyn FnMut(&str),
        interrupted: &dyn Fn() -> bool,
    ) -> Answer {
        // Anything still queued belongs to an earlier request.
        self.drain_stale();
        let mut info = SearchInfo::default();
        let mut lines = Lines::default();
        let crashed = |elapsed, info| Answer {
            reply: Reply::Crashed,
            elapsed,
            info,
        };
        // Both lines are checked before either is sent: a refused `go` must not leave the
        // engine with a new position and no search.
        if let Err(e) = Line::new(position).and_then(|_| Line::new(go)) {
            self.refuse(e);
            return crashed(Duration::ZERO, info);
        }
        if self.send(position).is_err() {
            return crashed(Duration::ZERO, info);
        }
        let start = Instant::now();
        if self.send(go).is_err() {
            return crashed(Duration::ZERO, info);
        }
        let mut deadline = deadline_after(wait);
        let mut stopped = false;
        loop {
            // Checked before every line too: an engine that prints lines faster than POLL
            // (an infinite analysis at small depths) is still stopped at once.
            if !stopped && interrupted() {
                stopped = true;
                if self.send("stop").is_err() {
                    return crashed(start.elapsed(), info);
                }
                deadline = deadline_after(RECOVER_GRACE);
            }
            let poll = deadline.min(Instant::now() + POLL);
            match self.next_line(poll) {
                Ok((t, line)) => {
                    if let Some(rest) = line.strip_prefix("bestmove") {
                        let mv = rest.split_whitespace().next().unwrap_or("").to_string();
                        return Answer {
                            info: lines.of_move(info, &mv),
                            reply: Reply::Move(mv),
                            elapsed: t.saturating_duration_since(start),
                        };
                    }
                    info.update(&line);
                    lines.update(&line);
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
                Err(_) => return crashed(start.elapsed(), info),
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
        self.drain_stale();
        let line = Line::setoption(name, value).map_err(|e| e.to_string())?;
        let engine = self.name.clone();
        self.send_line(&line)
            .map_err(|_| format!("engine '{engine}' has exited"))?;
        self.sync(timeout).map_err(|e| match e {
            WaitError::Closed => format!("engine '{engine}' has exited"),
            e => e.describe(&engine, "readyok", timeout),
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
        let deadline = deadline_after(RECOVER_GRACE);
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
        self.input = None;
        // Wait a moment for the end of its output (without reaping it, so that its process
        // group id stays reserved until Drop has signalled the group).
        let deadline = deadline_after(Duration::from_millis(300));
        while self.next_line(deadline).is_ok() {}
        // Drop kills whatever is left.
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.input = None;
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

    fn fault(&self) -> Option<Fault> {
        self.process.as_ref()?.fault()
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::limits::Limits;

    /// An engine that answers the handshake and then never reads its input again: the lines
    /// sent to it wait in the pipe, then in the writer's queue; once [`UNREAD_LINES`] wait,
    /// the request fails and the engine is said to misbehave. Before the writer thread, the
    /// first write past the pipe's buffer blocked the match (or the GUI session) for good.
    #[cfg(unix)]
    #[test]
    fn an_engine_that_does_not_read_its_input_cannot_block_us() {
        let script = "read a; echo uciok; read b; echo readyok; exec sleep 60";
        let cfg = EngineConfig {
            name: "deaf".into(),
            kind: EngineKind::Process {
                cmd: "sh".into(),
                args: vec!["-c".into(), script.into()],
                dir: None,
            },
            options: Vec::new(),
            limits: Limits::default(),
            timemargin_ms: None,
        };
        let (done, finished) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut e = EngineProcess::start(&cfg, Variant::Chess, Duration::from_secs(10))
                .expect("the handshake is answered");
            // A position line of about 60 KB: one fills the pipe's buffer.
            let moves = " e2e4 e7e5 g1f3 b8c6 f3g1 c6b8 g1f3 b8c6".repeat(1500);
            let position = format!("position startpos moves{moves}");
            let mut crashed = 0;
            for _ in 0..UNREAD_LINES + 8 {
                let a = e.go(&position, "go nodes 1", Duration::from_millis(1));
                if a.reply == Reply::Crashed {
                    crashed += 1;
                    break;
                }
            }
            let _ = done.send((crashed, e.fault()));
        });
        let (crashed, fault) = finished
            .recv_timeout(Duration::from_secs(60))
            .expect("sending to an engine that does not read never blocks");
        assert_eq!(crashed, 1);
        assert_eq!(fault, Some(Fault::Misbehaved(unread())));
    }

    /// Found by the attack on issue 70: every `option` line of a handshake was kept, so an
    /// engine printing them without end (`yes "option name ..."`) took gigabytes within the
    /// handshake's time. Now a start fails past [`MAX_DECLARED_OPTIONS`].
    #[cfg(unix)]
    #[test]
    fn a_handshake_that_declares_options_without_end_fails() {
        let cfg = EngineConfig {
            name: "chatty".into(),
            kind: EngineKind::Process {
                cmd: "sh".into(),
                args: vec![
                    "-c".into(),
                    "read a; exec yes 'option name Y type string default yyyyyyyyyyyyyyyy'".into(),
                ],
                dir: None,
            },
            options: Vec::new(),
            limits: Limits::default(),
            timemargin_ms: None,
        };
        let e = EngineProcess::start(&cfg, Variant::Chess, Duration::from_secs(60))
            .err()
            .expect("the start fails");
        assert!(e.contains("declares more than 1024 options"), "{e}");
    }
}
