//! Pawns: the four spiral lanes, as per-cell forward steps.
//!
//! The rules file defines each colour's forward step per cell by a formula on the level and
//! the coordinates (the tables in its "Pawns" section); everything else follows from it:
//! a hand-over square is a cell whose forward step is vertical (the pawn pushes and captures
//! straight onto that cell), elsewhere the pawn captures diagonally beside its forward cell;
//! double steps start from the listed start cells; a lane ends on the opponent's King line.

use super::board::{Bb, CELLS, NO_CELL};
use crate::rules::bitset::Cell;
use crate::rules::geometry::Geometry;
use crate::rules::piece::Colour;

/// A pawn's forward step on one cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Forward {
    /// A planar step by (dx, dy).
    Planar(i8, i8),
    /// A vertical step: up (White) or down (Black).
    Vertical,
    /// The end of the lane (a pawn never stands here: it promoted on arrival).
    End,
}

/// The forward step of a `colour` pawn on the cell at level `z`, file `x`, rank `y`
/// (the rules file's formula, letter by letter).
pub fn forward_step(colour: Colour, z: i8, x: i8, y: i8) -> Forward {
    use Forward::*;
    const EAST: Forward = Planar(1, 0);
    const WEST: Forward = Planar(-1, 0);
    const NORTH: Forward = Planar(0, 1);
    const SOUTH: Forward = Planar(0, -1);
    if colour == Colour::WHITE {
        match z {
            3 if x < 3 => EAST,
            3 => Vertical,
            2 if y == 3 => Vertical,
            2 if x + y >= 6 => NORTH,
            2 => EAST,
            1 if x == 3 => Vertical,
            1 if x > y => NORTH,
            1 => WEST,
            _ if x > 0 => WEST,
            _ => End,
        }
    } else {
        match z {
            0 if x < 3 => EAST,
            0 => Vertical,
            1 if y == 3 => Vertical,
            1 if x < y => EAST,
            1 => SOUTH,
            2 if x == 3 => Vertical,
            2 if x + y <= 6 => WEST,
            2 => SOUTH,
            _ if x > 0 => WEST,
            _ => End,
        }
    }
}

/// The start cells (double-step rights belong to these cells), White's then Black's.
pub const START_CELLS: [[&str; 8]; 2] = [
    ["Db1", "Db2", "Db3", "Db4", "Dd4", "Cg1", "Cf2", "Ce3"],
    ["Ab7", "Ab6", "Ab5", "Ab4", "Ad4", "Bg7", "Bf6", "Be5"],
];

/// Everything about one colour's pawns, per cell.
pub struct PawnTables {
    /// The forward cell, or [`NO_CELL`] at a lane end.
    pub push: [u8; CELLS],
    /// For a start cell with a double step: the cell two steps forward (else [`NO_CELL`]).
    pub double: [u8; CELLS],
    /// The cells a pawn on a cell captures on: diagonally beside the forward cell, or the
    /// forward cell itself on a hand-over square. These are also the cells it checks.
    pub captures: [Bb; CELLS],
    /// The cells from which a pawn captures on a cell (reverse of `captures`).
    pub attackers: [Bb; CELLS],
    /// The lane ends (the opponent's King line): arriving there promotes.
    pub promotion: Bb,
    /// The cells a pawn of this colour can ever stand on (reached from the start cells by
    /// pawn moves, lane ends excluded). A FEN with a pawn elsewhere is rejected.
    pub allowed: Bb,
    /// The hand-over squares (forward step vertical).
    pub hand_over: Bb,
}

impl PawnTables {
    /// Builds the tables of `colour`.
    pub fn build(geo: &Geometry<1>, up: &[u8; CELLS], down: &[u8; CELLS], colour: Colour) -> Self {
        let mut t = PawnTables {
            push: [NO_CELL; CELLS],
            double: [NO_CELL; CELLS],
            captures: [Bb::EMPTY; CELLS],
            attackers: [Bb::EMPTY; CELLS],
            promotion: Bb::EMPTY,
            allowed: Bb::EMPTY,
            hand_over: Bb::EMPTY,
        };
        let step = |c: Cell| forward_step(colour, geo.coord(c).z, geo.coord(c).x, geo.coord(c).y);
        for c in 0..CELLS {
            match step(c) {
                Forward::Planar(dx, dy) => {
                    let f = geo
                        .step(c, [dx, dy, 0])
                        .expect("a planar forward step stays on the level");
                    t.push[c] = f as u8;
                    // Diagonal captures: beside the forward cell, perpendicular to the (axis) step.
                    for s in [1, -1] {
                        if let Some(x) = geo.step(f, [dy * s, dx * s, 0]) {
                            t.captures[c].insert(x);
                        }
                    }
                }
                Forward::Vertical => {
                    let f = if colour == Colour::WHITE {
                        up[c]
                    } else {
                        down[c]
                    };
                    assert_ne!(f, NO_CELL, "a hand-over square has a cell beyond it");
                    t.push[c] = f;
                    t.captures[c].insert(f as Cell);
                    t.hand_over.insert(c);
                }
                Forward::End => t.promotion.insert(c),
            }
        }
        for name in START_CELLS[colour.idx()] {
            let c = geo.parse_name(name).expect("start cells exist");
            // Both steps planar, on the level, in the same direction.
            if let Forward::Planar(dx, dy) = step(c) {
                let one = t.push[c] as Cell;
                if step(one) == Forward::Planar(dx, dy) {
                    t.double[c] = t.push[one];
                }
            }
        }
        t.attackers = super::board::reverse(&t.captures);
        // The cells pawns can reach from the start cells.
        let mut todo: Vec<Cell> = START_CELLS[colour.idx()]
            .iter()
            .filter_map(|n| geo.parse_name(n))
            .collect();
        while let Some(c) = todo.pop() {
            if t.allowed.contains(c) || t.promotion.contains(c) {
                continue;
            }
            t.allowed.insert(c);
            let mut next = t.captures[c];
            next.insert(t.push[c] as Cell);
            todo.extend(next);
        }
        t
    }
}
