//! The variants the engine knows, by name: the built-in ones, and those defined in files by
//! the identity of their compiled rules. This module knows no position type and no registry
//! of loaded files: the variants and [`Game`](super::Game) depend on it, and the registry
//! ([`super::registry`]) ties names to position types and finds the variants loaded from
//! files ([`Variant::from_name`], [`Variant::available`]). What a variant declares about
//! itself (start position, colours, pieces, bench) is in [`super::info`], re-exported here.

pub use super::info::{FIDE_PIECES, LevelOrder, PieceInfo, VariantInfo, fide_pieces_and, piece};

use super::defined::rules::Rules;

/// A variant's protocol name and identity: one of the built-in variants, or one defined in
/// a file and loaded at run time (the registry is open).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// FIDE chess.
    Chess,
    /// Pole Chess.
    Pole,
    /// Polyhedron Chess.
    Polyhedron,
    /// Podionic Chess.
    Podionic,
    /// Pentaplane V.
    Pentaplane,
    /// Chess – The Future Generation.
    FutureGeneration,
    /// A variant defined in a file ([`crate::rules::defined`]).
    Defined(DefinedRef),
}

impl Variant {
    /// Whether this variant was defined in a file.
    pub fn is_defined(self) -> bool {
        matches!(self, Variant::Defined(_))
    }

    /// The kind of the variant's royal piece (its King), if it has one.
    pub fn royal_kind(self) -> Option<super::piece::Kind> {
        match self {
            Variant::Defined(d) => d.0.royal_kind(),
            _ => self
                .info()
                .pieces
                .iter()
                .position(|p| p.name == "King")
                .map(|k| k as super::piece::Kind),
        }
    }
}

/// A variant loaded from a file, as [`Variant::Defined`] holds it: its compiled rules (which
/// live as long as the process), compared by identity.
#[derive(Clone, Copy)]
pub struct DefinedRef(pub &'static Rules);

impl PartialEq for DefinedRef {
    fn eq(&self, o: &Self) -> bool {
        std::ptr::eq(self.0, o.0)
    }
}
impl Eq for DefinedRef {}
impl std::hash::Hash for DefinedRef {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        (self.0 as *const Rules as usize).hash(h)
    }
}
impl std::fmt::Debug for DefinedRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0.name)
    }
}
