//! The `strata` binary's subcommands: each one's arguments (parsed by clap) and what it does.
//! `src/main.rs` reads the command line and hands each subcommand to its module here;
//! `strata match` parses its own fastchess-style arguments ([`crate::runner::args`]).

pub mod bench;
pub mod datagen;
pub mod gui;
pub mod r#match;
pub mod perft;
pub mod train_net;
pub mod tune;
pub mod variants;

use crate::rules::Variant;

/// This program's command line as a shell would take it back (a word with a space or a
/// quote in single quotes), for the files it writes.
pub fn command_line() -> String {
    std::env::args()
        .map(|a| {
            if a.is_empty() || a.contains(|c: char| c.is_whitespace() || "'\"$\\".contains(c)) {
                format!("'{}'", a.replace('\'', "'\\''"))
            } else {
                a
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The variant called `name`, or the error every subcommand gives.
pub fn variant_named(name: &str) -> Result<Variant, String> {
    Variant::from_name(name).ok_or(format!("unknown variant '{name}'"))
}

/// Prints a line; a closed stdout (`| head`) ends the output quietly instead of panicking.
pub fn say(text: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stdout().lock(), "{text}");
}
