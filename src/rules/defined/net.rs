//! A variant file's network (`net = "raumschach.net"`): the file it names is read beside the
//! variant file, within [`MAX_NET_BYTES`] and what is left of [`MAX_NET_BYTES_LOADED`], and
//! checked by the caller's [`NetCheck`] (the network format belongs to the evaluation,
//! `crate::eval::nnue`, which sits above the rules) before the variant is registered with it.

use std::path::{Component, Path};

use super::limits::{MAX_NET_BYTES, MAX_NET_BYTES_LOADED};
use crate::rules::shape::Shape;

/// Checks a network file's bytes against the shape of the variant it is loaded for: `Err`
/// with the reason (in words, one line) if that variant cannot play with it.
pub type NetCheck = fn(&Shape, &[u8]) -> Result<(), String>;

/// The bytes of the network `value` names, for the variant file at `file`, checked by
/// `check` against `shape`. `value` is a path relative to the variant file's folder that
/// stays inside it, links followed (no root, no `..`, no link out of the folder). `held`
/// bytes of networks are held already (by the variants loaded and the file's earlier ones):
/// a network that would take them past [`MAX_NET_BYTES_LOADED`] is refused before it is
/// read.
pub(super) fn read(
    file: &str,
    value: &str,
    held: usize,
    shape: impl FnOnce() -> Shape,
    check: NetCheck,
) -> Result<Vec<u8>, String> {
    let shown = crate::text::echo(value, 60);
    let relative = Path::new(value);
    let plain = relative
        .components()
        .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
    let outside = || {
        format!(
            "'{shown}' must name a file in the variant file's folder or below it (a relative \
             path without '..' that no link leads out of)"
        )
    };
    if value.is_empty() || !plain {
        return Err(outside());
    }
    let folder = Path::new(file).parent().unwrap_or(Path::new(""));
    let path = folder.join(relative);
    // Links are followed, but only to a file inside the folder.
    if let (Ok(real), Ok(root)) = (path.canonicalize(), folder.canonicalize())
        && !real.starts_with(&root)
    {
        return Err(outside());
    }
    let room = MAX_NET_BYTES_LOADED.saturating_sub(held);
    let limit = MAX_NET_BYTES.min(room);
    let bytes = crate::files::read_regular_bytes(&path.to_string_lossy(), limit, "a network file")
        .map_err(|e| match limit < MAX_NET_BYTES {
            true => format!(
                "{shown}: {e} (the networks of the variants loaded and of this file's \
                 variants before it hold {held} bytes of the {MAX_NET_BYTES_LOADED} all \
                 networks from files may take)"
            ),
            false => format!("{shown}: {e}"),
        })?;
    check(&shape(), &bytes).map_err(|e| format!("{shown}: {e}"))?;
    Ok(bytes)
}
