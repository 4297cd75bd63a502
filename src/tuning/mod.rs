//! Fitting the evaluation to games: [`datagen`] plays seeded self-play games and writes their
//! quiet positions with the search's score and the game's result ([`data`] is that file
//! format); [`texel`] fits each variant's evaluation weights to such positions by Texel's
//! method and writes them where the evaluation reads them (`src/eval/weights/`);
//! [`records`] is the compact binary format of labelled positions a network trainer reads;
//! [`genfens`] makes the starting positions of OpenBench's data-generation workloads.

pub mod data;
pub mod datagen;
pub mod genfens;
pub mod net_train;
pub mod records;
pub mod texel;
