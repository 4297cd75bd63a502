//! `strata match`: a match between engines ([`crate::runner`]), which parses its own
//! fastchess-style arguments ([`crate::runner::args`]); clap only collects them.

/// The arguments of `strata match`, as given.
#[derive(clap::Args)]
pub struct Args {
    /// fastchess-style arguments (`--engine cmd=... --each tc=10+0.1 --games 10 ...`).
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
    args: Vec<String>,
}

/// Runs `strata match` (its usage with `--help` or no arguments).
pub fn run(args: Args) -> Result<(), String> {
    crate::runner::cli(&args.args)
}
