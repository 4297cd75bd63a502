//! A variant's shape: its board's cells, piece kinds, colours and start placement, which is
//! all a learned evaluation's inputs are derived from (`crate::eval::nnue::Spec`). It is read
//! off a registered variant ([`Shape::of`]), or off a variant file's variant while it is
//! compiled, so that the network a file names is checked before the variant is registered.

use super::bitset::Cell;
use super::geometry::Coord;
use super::piece::{Colour, Kind};
use super::{AnyGame, Game, Variant};

/// The pieces a position places: cell, colour, kind.
pub type Placed = Vec<(Cell, Colour, Kind)>;

/// See the module's doc.
#[derive(Clone, Debug, PartialEq)]
pub struct Shape {
    /// The variant's protocol name.
    pub name: String,
    /// Each cell's coordinates, in cell order.
    pub coords: Vec<Coord>,
    /// Piece kinds.
    pub kinds: usize,
    /// Colours (2, or 4 in two teams).
    pub colours: usize,
    /// The start position's pieces: cell, colour, kind.
    pub placed: Placed,
    /// Whether the variant holds pieces off the board (its FEN has a holdings field).
    pub holds: bool,
    /// The kind of its royal piece (its King), if it has one.
    pub royal: Option<Kind>,
}

impl Shape {
    /// The shape of a registered variant.
    pub fn of(variant: Variant) -> Shape {
        let coords: Vec<Coord> = variant.layout().cells.iter().map(|c| c.coord).collect();
        let start = AnyGame::startpos(variant);
        Shape {
            name: variant.name().to_string(),
            placed: placed(&start, coords.len()),
            coords,
            kinds: variant.info().pieces.len(),
            colours: variant.colours(),
            holds: variant.start_fen().contains('['),
            royal: variant.royal_kind(),
        }
    }
}

/// The pieces `position` places on its `cells` cells.
pub fn placed<G: Game>(position: &G, cells: usize) -> Placed {
    (0..cells)
        .filter_map(|c| {
            let p = position.piece_at(c);
            p.is_some().then(|| (c, p.colour(), p.kind()))
        })
        .collect()
}
