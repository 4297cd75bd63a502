//! Logging through `tracing`, never to stdout (stdout belongs to the protocol).
//!
//! Warnings and errors go to stderr unless a log file is set; with a log file (the `--log`
//! command line flag or the `Debug Log File` option) everything down to the chosen level goes
//! to the file. The level is `info`, or `STRATA_LOG` (`error` .. `trace`).

use std::fs::File;
use std::io::Write;
use std::sync::Mutex;

use tracing::{Level, Metadata};
use tracing_subscriber::fmt::MakeWriter;

static FILE: Mutex<Option<File>> = Mutex::new(None);

/// Sends log output to `path` (or back to stderr with `None` or an empty path).
pub fn set_file(path: Option<&str>) -> Result<(), String> {
    let file = match path {
        None | Some("") | Some("<empty>") => None,
        // Never a FIFO or a device: opening one could block the engine for good.
        Some(p) => Some(
            crate::files::create_regular(p)
                .map_err(|e| format!("cannot open log file '{}': {e}", crate::text::escape(p)))?,
        ),
    };
    *FILE.lock().unwrap_or_else(|e| e.into_inner()) = file;
    Ok(())
}

/// Where one log event goes.
pub enum Target {
    /// The log file.
    File,
    /// Standard error.
    Stderr,
    /// Nowhere.
    Sink,
}

impl Write for Target {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Target::File => match FILE.lock().unwrap_or_else(|e| e.into_inner()).as_mut() {
                Some(f) => f.write(buf),
                None => std::io::stderr().write(buf),
            },
            Target::Stderr => std::io::stderr().write(buf),
            Target::Sink => Ok(buf.len()),
        }
    }
    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Target::File => match FILE.lock().unwrap_or_else(|e| e.into_inner()).as_mut() {
                Some(f) => f.flush(),
                None => Ok(()),
            },
            Target::Stderr => std::io::stderr().flush(),
            Target::Sink => Ok(()),
        }
    }
}

/// Chooses the target per event.
pub struct Router {
    verbose_stderr: bool,
}

impl<'a> MakeWriter<'a> for Router {
    type Writer = Target;
    fn make_writer(&'a self) -> Target {
        Target::Stderr
    }
    fn make_writer_for(&'a self, meta: &Metadata<'_>) -> Target {
        if FILE.lock().unwrap_or_else(|e| e.into_inner()).is_some() {
            Target::File
        } else if self.verbose_stderr || *meta.level() <= Level::WARN {
            Target::Stderr
        } else {
            Target::Sink
        }
    }
}

/// Installs the subscriber (once per process); `file` is the `--log` flag.
pub fn init(file: Option<&str>) -> Result<(), String> {
    let env = std::env::var("STRATA_LOG").ok();
    let level = env
        .as_deref()
        .and_then(|l| l.parse().ok())
        .unwrap_or(Level::INFO);
    set_file(file)?;
    let _ = tracing_subscriber::fmt()
        .with_max_level(level)
        .with_ansi(false)
        .with_writer(Router {
            verbose_stderr: env.is_some(),
        })
        .try_init();
    Ok(())
}
