//! The engine's input: a thread that reads stdin line by line, each line at most
//! [`MAX_INPUT_LINE`] bytes, and hands the lines to the command loop as [`Event`]s, beside
//! the ends of the jobs the engine runs.

use std::io::BufRead;
use std::sync::mpsc::Sender;
use std::sync::{Arc, Condvar, Mutex};

use super::line::{MAX_INPUT_LINE, Read, read_line};

/// What the command loop acts on, in order of arrival.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// An input line (invalid UTF-8 replaced, blanks around it removed).
    Line(String),
    /// An input line longer than [`MAX_INPUT_LINE`] bytes (its length), dropped whole.
    TooLong(usize),
    /// The end of the input.
    End,
    /// The engine's job with this number (a search, a perft or a bench) has ended.
    JobDone(u64),
}

/// The most input lines read but not yet taken by the command loop: with lines of at most
/// [`MAX_INPUT_LINE`] bytes, 16 MiB. The reader waits beyond it, so a client that writes
/// faster than the engine answers (or that does not read the answers, which blocks the
/// engine's output) fills the pipe, not the engine's memory.
pub const MAX_LINES_IN_FLIGHT: usize = 64;

/// Counts the lines between the reader and the command loop (see [`MAX_LINES_IN_FLIGHT`]).
#[derive(Clone, Default)]
pub struct InFlight(Arc<(Mutex<usize>, Condvar)>);

impl InFlight {
    /// Waits until fewer than [`MAX_LINES_IN_FLIGHT`] lines are in flight, and counts one.
    fn acquire(&self) {
        let (count, freed) = &*self.0;
        let mut n = count.lock().unwrap_or_else(|e| e.into_inner());
        while *n >= MAX_LINES_IN_FLIGHT {
            n = freed.wait(n).unwrap_or_else(|e| e.into_inner());
        }
        *n += 1;
    }

    /// The command loop took a line.
    pub fn release(&self) {
        let (count, freed) = &*self.0;
        let mut n = count.lock().unwrap_or_else(|e| e.into_inner());
        *n = n.saturating_sub(1);
        freed.notify_one();
    }
}

/// Starts the thread that reads `input` and sends its lines to `events` (each counted in
/// `in_flight` until the command loop releases it), then [`Event::End`] at the end of the
/// input (or on a read error). It stops when nobody listens any more.
pub fn spawn_reader(
    mut input: impl BufRead + Send + 'static,
    events: Sender<Event>,
    in_flight: InFlight,
) -> std::io::Result<()> {
    let work = move || {
        let mut buf = Vec::new();
        loop {
            in_flight.acquire();
            let event = match read_line(&mut input, &mut buf, MAX_INPUT_LINE) {
                Ok(Read::Line) => Event::Line(String::from_utf8_lossy(&buf).trim().to_string()),
                Ok(Read::TooLong { len }) => Event::TooLong(len),
                Ok(Read::End) | Err(_) => break,
            };
            if events.send(event).is_err() {
                return;
            }
        }
        let _ = events.send(Event::End);
    };
    std::thread::Builder::new()
        .name("strata-input".into())
        .spawn(work)
        .map(|_| ())
}
