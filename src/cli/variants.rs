//! `strata variants`: prints every variant this binary plays, the built-in ones and those
//! loaded with `--variant-file`, one protocol name a line (what `--variant` and
//! `UCI_Variant` take), so that scripts need no list of their own.

use super::say;
use crate::rules::Variant;

/// The arguments of `strata variants`.
#[derive(clap::Args)]
pub struct Args {
    /// After each name: the name players know it by (`title="..."`, quoted as a Rust string),
    /// its colours, levels, cells, bench depth and where it comes from (`from=built-in` or
    /// `from=PATH`, last), as `key=value` words.
    #[arg(long)]
    verbose: bool,
}

/// Runs `strata variants`.
pub fn run(args: Args) -> Result<(), String> {
    for v in Variant::available() {
        say(&if args.verbose {
            describe(v)
        } else {
            v.name().to_string()
        });
    }
    Ok(())
}

/// One line of `strata variants --verbose`:
/// `chess title="Chess" colours=2 levels=1 cells=64 bench-depth=11 from=built-in`.
fn describe(v: Variant) -> String {
    let layout = v.layout();
    let from = match v {
        Variant::Defined(d) => d.0.path.as_str(),
        _ => "built-in",
    };
    format!(
        "{} title={:?} colours={} levels={} cells={} bench-depth={} from={from}",
        v.name(),
        v.title(),
        v.colours(),
        layout.levels.len(),
        layout.cells.len(),
        v.info().bench_depth
    )
}
