//! `strata`: a game engine for 3D and multi-player chess variants.
//!
//! Layers, bottom up: [`rules`] (the games themselves: geometry, positions, move generation,
//! notation, FEN, perft), [`eval`] (static evaluation per variant), [`search`] (parallel
//! alpha-beta over any variant), and [`protocol`] (the UCI-compatible text protocol); beside
//! them [`runner`] (`strata match`, the match runner and referee) and [`gui`] (`strata gui`,
//! the browser GUI).

#![warn(missing_docs)]

pub mod eval;
pub mod files;
pub mod gui;
pub mod logging;
pub mod protocol;
pub mod rules;
pub mod runner;
pub mod search;
pub mod text;
pub mod tuning;
