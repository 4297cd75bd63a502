//! Where protocol output goes: stdout for the real engine, a buffer in tests.

use std::io::Write;
use std::sync::Mutex;

/// A sink for protocol lines. Each call writes one whole line and flushes it, so lines from
/// the search thread and the command thread never interleave mid-line.
pub trait Output: Send + Sync {
    /// Writes one line (without its newline).
    fn line(&self, text: &str);
}

/// Standard output.
pub struct Stdout;

impl Output for Stdout {
    fn line(&self, text: &str) {
        let mut out = std::io::stdout().lock();
        // A closed stdout (the GUI went away) is not worth a panic.
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
    }
}

/// Collects lines in memory (for tests).
#[derive(Default)]
pub struct Captured(pub Mutex<Vec<String>>);

impl Captured {
    /// Removes and returns the lines written so far.
    pub fn take(&self) -> Vec<String> {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

impl Output for Captured {
    fn line(&self, text: &str) {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(text.to_string());
    }
}
