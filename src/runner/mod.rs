//! `strata match`: a headless match runner that is also the referee.
pub mod args;
pub mod game;
pub mod openings;
pub mod pgn;
pub mod player;
pub mod seats;
pub mod stats;
