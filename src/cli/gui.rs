//! `strata gui`: serves the browser GUI ([`crate::gui`]) and prints its URL.

use crate::gui::GuiOptions;

/// The arguments of `strata gui`.
#[derive(clap::Args)]
pub struct Args {
    /// The opponent engine, a program speaking the protocol, with its arguments
    /// ("CMD ARGS"; default: this program).
    #[arg(long)]
    engine: Option<String>,
    /// The port (0: any free port).
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// The address to listen on (127.0.0.1: this computer only).
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// The game sessions (browser tabs) served at once, each with its own engine process; a
    /// tab beyond them is told so.
    #[arg(long, default_value_t = crate::gui::bounds::DEFAULT_MAX_SESSIONS)]
    max_sessions: usize,
}

/// Runs `strata gui` until it is stopped.
pub fn run(args: Args) -> Result<(), String> {
    crate::gui::run(GuiOptions {
        engine: args.engine,
        host: args.host,
        port: args.port,
        max_sessions: args.max_sessions,
    })
}
