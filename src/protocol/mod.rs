//! The text protocol (UCI-compatible, see `protocol.md`): typed commands, options, the engine
//! state machine and the input loop.

pub mod command;
pub mod engine;
pub mod input;
pub mod line;
pub mod options;
pub mod output;
pub mod strength;

use std::io::BufRead;
use std::sync::Arc;

pub use engine::Engine;
pub use input::Event;
pub use output::{Captured, Output, Stdout};

/// Reads commands from `input` until `quit` or end of input. Input need not be UTF-8: invalid
/// bytes are replaced, so junk gets an error line instead of stopping the engine.
///
/// The input is read on its own thread ([`input::spawn_reader`]), so that `stop`, `isready`
/// and `quit` are read and acted on while a `go perft` or `bench` runs, even with other
/// commands queued behind it (see [`Engine::on_event`]).
pub fn run(input: impl BufRead + Send + 'static, out: Arc<dyn Output>) {
    let (tx, rx) = std::sync::mpsc::channel();
    let mut engine = Engine::new(out);
    engine.notify_on_job_end(tx.clone());
    let in_flight = input::InFlight::default();
    if let Err(e) = input::spawn_reader(input, tx, in_flight.clone()) {
        tracing::error!("cannot start the input thread: {e}");
        return;
    }
    while let Ok(event) = rx.recv() {
        if matches!(event, Event::Line(_) | Event::TooLong(_)) {
            in_flight.release();
        }
        if !engine.on_event(event) {
            break;
        }
    }
}

/// Runs `commands` (command-line arguments) as if typed one a line, then ends as the end of
/// input does, but only once the engine is idle: a `go depth 12` or a `bench` among them
/// runs to its end (`quit` among them ends at once, as typed). A command longer than
/// [`line::MAX_INPUT_LINE`] bytes gets the error a typed one gets.
pub fn run_commands(commands: &[String], out: Arc<dyn Output>) {
    let (tx, rx) = std::sync::mpsc::channel();
    let mut engine = Engine::new(out);
    engine.notify_on_job_end(tx.clone());
    let mut left = 0usize;
    for command in commands {
        // A command with line breaks in it is several lines, as typed.
        for line in command.split(['\n', '\r']) {
            let event = if line.len() > line::MAX_INPUT_LINE {
                Event::TooLong(line.len())
            } else {
                Event::Line(line.trim().to_string())
            };
            left += 1;
            if tx.send(event).is_err() {
                return;
            }
        }
    }
    drop(tx);
    if left == 0 {
        engine.on_event(Event::End);
        return;
    }
    while let Ok(event) = rx.recv() {
        if matches!(event, Event::Line(_) | Event::TooLong(_)) {
            left -= 1;
        }
        if !engine.on_event(event) {
            return;
        }
        if left == 0 && engine.idle() {
            engine.on_event(Event::End);
            return;
        }
    }
}
