//! The built `strata` binary as a child process, driven the way a GUI drives it, for the
//! torture and memory tests.
//!
//! A writer thread feeds its input and a reader thread collects its output, so that neither
//! a full pipe nor a silent engine can block a test: only the watchdog decides. Every wait
//! fails the test after [`WATCHDOG`] (generous, so that a loaded machine passes and a hang
//! fails); there are no timing assertions.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command as Process, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use strata::protocol::command::{Command, GoParams};

/// How long any single wait may take before the engine counts as hung.
pub const WATCHDOG: Duration = Duration::from_secs(120);

/// The engine process.
pub struct Engine {
    child: Child,
    input: Option<Sender<Vec<u8>>>,
    output: Receiver<String>,
    stderr: Arc<Mutex<Vec<u8>>>,
    /// Every line the engine printed.
    pub lines: Vec<String>,
    /// `readyok` lines read so far.
    pub readyoks: usize,
    /// `bestmove` lines read so far.
    pub bestmoves: usize,
    /// `readyok` lines owed for the lines sent so far.
    pub owed_ready: usize,
    /// `bestmove` lines owed for the lines sent so far (one per `go` that is not perft).
    pub owed_best: usize,
    what: String,
}

impl Engine {
    /// The process id (to read its `/proc/<pid>/status`).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Starts the built `strata` binary; `what` names the session in failure messages.
    pub fn start(what: &str) -> Engine {
        let mut child = Process::new(env!("CARGO_BIN_EXE_strata"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the engine starts");
        let mut stdin = child.stdin.take().expect("stdin");
        let (input, chunks) = mpsc::channel::<Vec<u8>>();
        std::thread::spawn(move || {
            for chunk in chunks {
                if stdin.write_all(&chunk).is_err() {
                    break;
                }
            }
            // Dropping stdin here is the end of input.
        });
        let stdout = child.stdout.take().expect("stdout");
        let (tx, output) = mpsc::channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match r.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
                if buf.last() == Some(&b'\n') {
                    buf.pop();
                }
                if tx.send(String::from_utf8_lossy(&buf).into_owned()).is_err() {
                    break;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let mut err = child.stderr.take().expect("stderr");
        let sink = stderr.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = err.read(&mut buf) {
                if n == 0 {
                    break;
                }
                let mut s = sink.lock().unwrap_or_else(|e| e.into_inner());
                s.extend_from_slice(&buf[..n]);
                // Keep the tail: enough to show a panic message.
                if s.len() > 1 << 16 {
                    let cut = s.len() - (1 << 15);
                    s.drain(..cut);
                }
            }
        });
        Engine {
            child,
            input: Some(input),
            output,
            stderr,
            lines: Vec::new(),
            readyoks: 0,
            bestmoves: 0,
            owed_ready: 0,
            owed_best: 0,
            what: what.to_string(),
        }
    }

    /// Kills the engine and fails the test with what it printed last.
    pub fn fail(&mut self, msg: &str) -> ! {
        let _ = self.child.kill();
        let _ = self.child.wait();
        std::thread::sleep(Duration::from_millis(100));
        let err = String::from_utf8_lossy(&self.stderr.lock().unwrap_or_else(|e| e.into_inner()))
            .into_owned();
        let tail: Vec<String> = self
            .lines
            .iter()
            .rev()
            .take(20)
            .rev()
            .map(|l| l.chars().take(300).collect())
            .collect();
        panic!(
            "{}: {msg}\nlast output lines: {tail:#?}\nstderr tail:\n{}",
            self.what,
            err.chars()
                .rev()
                .take(4000)
                .collect::<String>()
                .chars()
                .rev()
                .collect::<String>()
        );
    }

    /// Sends one line (the newline is added), keeping count of the `readyok` and `bestmove`
    /// lines it will cause.
    pub fn send_bytes(&mut self, line: &[u8]) {
        let text = String::from_utf8_lossy(line);
        // A line over the engine's bound is dropped whole (one error line, nothing else).
        let dropped = line.len() > strata::protocol::line::MAX_INPUT_LINE;
        match text.trim().parse::<Command>() {
            _ if dropped => {}
            Ok(Command::IsReady) => self.owed_ready += 1,
            Ok(Command::Go(GoParams { perft: None, .. })) => self.owed_best += 1,
            _ => {}
        }
        let mut chunk = line.to_vec();
        chunk.push(b'\n');
        if let Some(tx) = &self.input
            && tx.send(chunk).is_err()
        {
            self.fail("the engine stopped reading its input");
        }
    }

    pub fn send(&mut self, line: &str) {
        self.send_bytes(line.as_bytes());
    }

    /// Waits until `done` holds, reading output; the watchdog fails a hang.
    pub fn wait(&mut self, what: &str, done: impl Fn(&Engine) -> bool) {
        let deadline = Instant::now() + WATCHDOG;
        while !done(self) {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.output.recv_timeout(left) {
                Ok(line) => {
                    if line == "readyok" {
                        self.readyoks += 1;
                    }
                    if line.starts_with("bestmove ") {
                        self.bestmoves += 1;
                    }
                    self.lines.push(line);
                }
                Err(RecvTimeoutError::Timeout) => {
                    self.fail(&format!("hang: no {what} within {WATCHDOG:?}"))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let status = self.child.wait();
                    self.fail(&format!("the engine died waiting for {what}: {status:?}"))
                }
            }
        }
    }

    /// `isready`, and every `readyok` owed so far.
    pub fn sync(&mut self) {
        self.send("isready");
        let n = self.owed_ready;
        self.wait("readyok", |e| e.readyoks >= n);
    }

    /// Waits for every `bestmove` owed so far (after a `stop` if searches may be infinite).
    pub fn await_bestmoves(&mut self) {
        let n = self.owed_best;
        self.wait("bestmove", |e| e.bestmoves >= n);
    }

    /// The last `bestmove`'s move.
    pub fn last_bestmove(&self) -> String {
        self.lines
            .iter()
            .rev()
            .find_map(|l| l.strip_prefix("bestmove "))
            .and_then(|b| b.split_whitespace().next())
            .unwrap_or("")
            .to_string()
    }

    /// Ends input (after `quit` if `quit`), waits for the exit and checks it was clean.
    pub fn finish(mut self, quit: bool) -> Vec<String> {
        if quit {
            self.send("quit");
        }
        self.input = None;
        let deadline = Instant::now() + WATCHDOG;
        let status: ExitStatus = loop {
            match self.child.try_wait() {
                Ok(Some(s)) => break s,
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5))
                }
                _ => self.fail("hang: the engine did not exit"),
            }
        };
        while let Ok(line) = self.output.recv_timeout(Duration::from_secs(10)) {
            if line.starts_with("bestmove ") {
                self.bestmoves += 1;
            }
            self.lines.push(line);
        }
        if !status.success() {
            self.fail(&format!("exit status {status}"));
        }
        if self.bestmoves != self.owed_best {
            let (b, o) = (self.bestmoves, self.owed_best);
            self.fail(&format!("{b} bestmove lines for {o} searches"));
        }
        std::mem::take(&mut self.lines)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // Only if a test failed half-way: never leave the engine running.
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
