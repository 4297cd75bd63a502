//! The text protocol (UCI-compatible, see `protocol.md`): typed commands, options, the engine
//! state machine and the input loop.

pub mod command;
pub mod engine;
pub mod line;
pub mod options;
pub mod output;
pub mod strength;

use std::io::BufRead;
use std::sync::Arc;

pub use engine::Engine;
pub use output::{Captured, Output, Stdout};

/// Reads commands from `input` until `quit` or end of input. Input need not be UTF-8: invalid
/// bytes are replaced, so junk gets an error line instead of stopping the engine.
pub fn run(mut input: impl BufRead, out: Arc<dyn Output>) {
    let mut engine = Engine::new(out);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let line = String::from_utf8_lossy(&buf);
        if !engine.handle_line(line.trim()) {
            break;
        }
    }
}
