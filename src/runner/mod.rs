//! `strata match`: a headless match runner that is also the referee.
pub mod stats;
