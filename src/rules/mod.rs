//! The rules layer: geometry, pieces, positions, move generation, notation, FEN and perft for
//! every variant. It knows nothing of search or protocol.

pub mod bitset;
pub mod board;
pub mod chess;
pub mod clocks;
pub mod defined;
pub mod fen;
pub mod future;
pub mod game;
pub mod geometry;
pub mod info;
pub mod moves;
pub mod notation;
pub mod pentaplane;
pub mod perft;
pub mod piece;
pub mod placement;
pub mod podionic;
pub mod polyhedron;
pub mod position;
pub mod registry;
pub mod shape;
pub mod sink;
pub mod variant;
pub mod zobrist;

pub use game::{Game, GameEnd, MoveError};
pub use info::VariantInfo;
pub use moves::{CastlingSide, Move, MoveFlag, MoveList};
pub use registry::AnyGame;
pub use variant::Variant;
