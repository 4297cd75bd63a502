//! Where protocol output goes: stdout for the real engine, a buffer in tests.
//!
//! Every line passes [`Line::new`] first: text holding a line break or a control character
//! is never printed (it would be two lines, or a forged one); an error line says so instead.

use std::io::Write;
use std::sync::Mutex;

use super::line::Line;

/// A sink for protocol lines. Each call writes one whole line and flushes it, so lines from
/// the search thread and the command thread never interleave mid-line.
pub trait Output: Send + Sync {
    /// Writes one checked line (without its newline).
    fn write(&self, line: &Line);

    /// Writes `text` as one line if it is one; text holding a line break or a control
    /// character is replaced by an error line (an engine bug: input is checked before it
    /// gets here).
    fn line(&self, text: &str) {
        match Line::new(text) {
            Ok(l) => self.write(&l),
            Err(e) => {
                tracing::error!("not printed: {e}: {:?}", text);
                self.write(
                    &Line::new(format!(
                        "info string error: a line was not printed: {}",
                        e.why
                    ))
                    .expect("the reason is one line"),
                );
            }
        }
    }
}

/// Standard output.
pub struct Stdout;

impl Output for Stdout {
    fn write(&self, line: &Line) {
        let mut out = std::io::stdout().lock();
        // A closed stdout (the GUI went away) is not worth a panic.
        let _ = writeln!(out, "{line}");
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
    fn write(&self, line: &Line) {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(line.as_str().to_string());
    }
}
