//! `strata`: a game engine for 3D and multi-player chess variants.
//!
//! Layers, bottom up: [`rules`] (the games themselves: geometry, positions, move generation,
//! notation, FEN, perft), [`eval`] (static evaluation per variant), [`search`] (parallel
//! alpha-beta over any variant), and [`protocol`] (the UCI-compatible text protocol); beside
//! them [`runner`] (`strata match`, the match runner and referee), [`gui`] (`strata gui`,
//! the browser GUI) and [`tuning`] (`strata datagen`, `tune`, `train-net`); [`cli`] holds
//! each subcommand's arguments and the code that runs it.

#![warn(missing_docs)]

pub mod cli;
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
