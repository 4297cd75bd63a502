//! The engine's input: a thread that reads stdin line by line, each line at most
//! [`MAX_INPUT_LINE`] bytes, and hands the lines to the command loop as [`Event`]s, beside
//! the ends of the jobs the engine runs.

use std::io::BufRead;
use std::sync::mpsc::Sender;

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

/// Starts the thread that reads `input` and sends its lines to `events`, then [`Event::End`]
/// at the end of the input (or on a read error). It stops when nobody listens any more.
pub fn spawn_reader(
    mut input: impl BufRead + Send + 'static,
    events: Sender<Event>,
) -> std::io::Result<()> {
    let work = move || {
        let mut buf = Vec::new();
        loop {
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
