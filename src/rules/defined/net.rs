//! A variant file's network (`net = "raumschach.net"`): the file it names is read beside the
//! variant file, within [`MAX_NET_BYTES`], and checked by the caller's [`NetCheck`] (the
//! network format belongs to the evaluation, `crate::eval::nnue`, which sits above the
//! rules) before the variant is registered with it.

use std::path::{Component, Path};

use super::limits::MAX_NET_BYTES;
use crate::rules::shape::Shape;

/// Checks a network file's bytes against the shape of the variant it is loaded for: `Err`
/// with the reason (in words, one line) if that variant cannot play with it.
pub type NetCheck = fn(&Shape, &[u8]) -> Result<(), String>;

/// The bytes of the network `value` names, for the variant file at `file`: `value` is a path
/// relative to the variant file's folder that stays inside it (no root, no `..`).
pub(super) fn read(file: &str, value: &str) -> Result<Vec<u8>, String> {
    let shown = crate::text::echo(value, 200);
    let relative = Path::new(value);
    let inside = relative
        .components()
        .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
    if value.is_empty() || !inside {
        return Err(format!(
            "'{shown}' must name a file in the variant file's folder or below it (a \
             relative path without '..')"
        ));
    }
    let folder = Path::new(file).parent().unwrap_or(Path::new(""));
    let path = folder.join(relative);
    crate::files::read_regular_bytes(&path.to_string_lossy(), MAX_NET_BYTES, "a network file")
        .map_err(|e| format!("{shown}: {e}"))
}
