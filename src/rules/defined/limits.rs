//! What a variant file may hold (`docs/variant-files.md`, "Limits"): the bounds that keep
//! loading any file cheap in time and memory.
//!
//! A file comes from whoever can name a path to the engine, so nothing in it may cost more
//! than these bounds allow: each bound is checked before the work it limits, and a file
//! beyond one is refused with its line like any other mistake. The bounds are far above
//! what the shipped files use (16 kinds with at most 4 moves each), and low enough that
//! the worst file within all of them compiles in well under a second.

/// The most entries in a piece's `moves` list.
pub const MAX_MOVES_PER_PIECE: usize = 16;
/// The most directions (class names and vectors) or leap triples in one entry of `moves`.
pub const MAX_ATOM_ITEMS: usize = 32;
/// The most distinct step and leap vectors of one piece (all its moves together; a 3D
/// Knight has 24, Polyhedron's Space Knight 72).
pub const MAX_PIECE_VECTORS: usize = 256;
