//! `strata`: a game engine for 3D and multi-player chess variants.
//!
//! Layers, bottom up: [`rules`] (the games themselves: geometry, positions, move generation,
//! notation, FEN, perft) and [`protocol`] (the UCI-compatible text protocol).

pub mod protocol;
pub mod rules;
