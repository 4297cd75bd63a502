//! The file-defined variants of this process: every variant registered so far, newest last,
//! and the files they came from, so that loading a file again gives back the variants it
//! gave before instead of compiling (and leaking) them anew.
//!
//! Registered rules live as long as the process (positions and [`Variant`] values point at
//! them), so their number is bounded by [`MAX_LOADED_VARIANTS`]: beyond it a new file is
//! refused, and the ones loaded stay as they were.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::{PoisonError, RwLock};

use super::compiled::Compiled;
use super::limits::{MAX_LOADED_VARIANTS, MAX_NET_BYTES_LOADED};
use super::rules::Rules;
use crate::rules::variant::{DefinedRef, Variant};

/// A file loaded: the text read and the variants it gave.
struct LoadedFile {
    path: String,
    hash: u64,
    text: String,
    variants: Vec<&'static Rules>,
}

struct Registry {
    /// Every registered variant once, in the order of their last loading (newest last).
    order: Vec<&'static Rules>,
    files: Vec<LoadedFile>,
}

static REGISTRY: RwLock<Registry> = RwLock::new(Registry {
    order: Vec::new(),
    files: Vec::new(),
});

fn hash_of(text: &str) -> u64 {
    let mut h = DefaultHasher::new();
    text.hash(&mut h);
    h.finish()
}

fn as_variants(rules: &[&'static Rules]) -> Vec<Variant> {
    rules
        .iter()
        .map(|&r| Variant::Defined(DefinedRef(r)))
        .collect()
}

/// The file-defined variants loaded so far, each name once (the newest), in loading order.
pub fn loaded() -> Vec<Variant> {
    let reg = REGISTRY.read().unwrap_or_else(PoisonError::into_inner);
    let all = &reg.order;
    let mut out: Vec<Variant> = Vec::new();
    for (i, r) in all.iter().enumerate() {
        if !all[i + 1..].iter().any(|o| o.name == r.name) {
            out.push(Variant::Defined(DefinedRef(r)));
        }
    }
    out
}

/// The newest loaded variant named `name`.
pub fn find(name: &str) -> Option<Variant> {
    let reg = REGISTRY.read().unwrap_or_else(PoisonError::into_inner);
    reg.order
        .iter()
        .rev()
        .find(|r| r.name == name)
        .map(|r| Variant::Defined(DefinedRef(r)))
}

/// How many variants are registered (each once, however often its file was loaded).
pub fn count() -> usize {
    REGISTRY
        .read()
        .unwrap_or_else(PoisonError::into_inner)
        .order
        .len()
}

/// The bytes of the networks the registered variants hold (their files' `net`).
pub(super) fn net_bytes_held() -> usize {
    REGISTRY
        .read()
        .unwrap_or_else(PoisonError::into_inner)
        .net_bytes_held()
}

impl Registry {
    fn net_bytes_held(&self) -> usize {
        self.order
            .iter()
            .map(|r| r.net.as_ref().map_or(0, Vec::len))
            .sum()
    }

    /// The variants `text` read from `path` gave before, made the newest.
    fn reuse(&mut self, path: &str, hash: u64, text: &str) -> Option<Vec<Variant>> {
        let f = self
            .files
            .iter()
            .find(|f| f.hash == hash && f.path == path && f.text == text)?;
        let again = f.variants.clone();
        self.order
            .retain(|r| !again.iter().any(|a| std::ptr::eq(*a, *r)));
        self.order.extend(&again);
        Some(as_variants(&again))
    }
}

/// The variants of `text` read from `path`, if it was loaded before: the same ones, now the
/// newest under their names.
pub(super) fn reuse(path: &str, text: &str) -> Option<Vec<Variant>> {
    let hash = hash_of(text);
    REGISTRY
        .write()
        .unwrap_or_else(PoisonError::into_inner)
        .reuse(path, hash, text)
}

/// Why `n` more variants cannot be registered, if they cannot.
fn no_room(registered: usize, n: usize) -> Option<String> {
    (registered + n > MAX_LOADED_VARIANTS).then(|| {
        format!(
            "{registered} variants are loaded, and one process holds at most \
             {MAX_LOADED_VARIANTS} (see 'Limits' in docs/variant-files.md): restart the engine \
             to load others"
        )
    })
}

/// Refused at once if not one more variant can be registered (before compiling a file).
pub(super) fn room_for_one() -> Result<(), String> {
    no_room(count(), 1).map_or(Ok(()), Err)
}

/// Registers the variants `text` from `path` compiled to (start positions checked): they
/// become the newest under their names. Refused, registering nothing, beyond
/// [`MAX_LOADED_VARIANTS`].
pub(super) fn register(
    path: &str,
    text: &str,
    compiled: Vec<Compiled>,
) -> Result<Vec<Variant>, String> {
    let hash = hash_of(text);
    let mut reg = REGISTRY.write().unwrap_or_else(PoisonError::into_inner);
    // Another thread may have loaded the same text meanwhile.
    if let Some(v) = reg.reuse(path, hash, text) {
        return Ok(v);
    }
    if let Some(why) = no_room(reg.order.len(), compiled.len()) {
        return Err(why);
    }
    // Checked net by net while compiling (`net::read`); again here, where another thread
    // may have registered networks meanwhile.
    let held = reg.net_bytes_held();
    let more: usize = compiled.iter().map(Compiled::net_bytes).sum();
    if more > 0 && held + more > MAX_NET_BYTES_LOADED {
        return Err(format!(
            "the variants loaded hold {held} bytes of networks, and this file's {more} more \
             would pass the bound of {MAX_NET_BYTES_LOADED} (see 'Limits' in \
             docs/variant-files.md): restart the engine to load it"
        ));
    }
    let rules: Vec<&'static Rules> = compiled.into_iter().map(Compiled::into_static).collect();
    reg.order.extend(&rules);
    reg.files.push(LoadedFile {
        path: path.to_string(),
        hash,
        text: text.to_string(),
        variants: rules.clone(),
    });
    Ok(as_variants(&rules))
}
