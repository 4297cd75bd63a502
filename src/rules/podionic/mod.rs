//! Podionic Chess (`docs/variants/podionic.md`): four overlapping 4x4 levels on a 7x7
//! footprint, sliders whose paths change level at overlapping squares, a Knight with a
//! one-sided level leap, and pawns walking four spiral lanes.
//!
//! Files: [`tables`] (geometry, vertical links, leap tables, keys), [`paths`] (slider path
//! trees), [`lanes`] (pawn forward steps and capture cells), `position` (state and attack
//! queries), `movegen`, `makemove`, `fen` (FEN and the `d` drawing).

pub mod board;
mod explain;
mod fen;
pub mod info;
pub mod lanes;
mod makemove;
mod movegen;
pub mod paths;
mod position;
pub mod tables;

pub use fen::START_FEN;
pub use position::{Podionic, PodionicPosition};

use tables::{LETTERS, kind};

use crate::rules::bitset::Cell;
use crate::rules::geometry::Geometry;
use crate::rules::moves::Move;
use crate::rules::piece::{Colour, Kind};
use crate::rules::position::VariantRules;
use crate::rules::sink::MoveSink;
use crate::rules::variant::Variant;
use crate::rules::zobrist::Zobrist;

impl PodionicPosition {
    /// The start position.
    pub fn startpos() -> Self {
        PodionicPosition::from_fen(START_FEN).expect("start FEN is valid")
    }
}

impl VariantRules<1> for Podionic {
    type Undo = position::Undo;

    fn variant(&self) -> Variant {
        Variant::Podionic
    }

    fn geometry(&self) -> &'static Geometry<1> {
        &tables::TABLES.geo
    }

    fn zobrist(&self) -> &'static Zobrist {
        &tables::TABLES.zobrist
    }

    fn letters(&self) -> &'static [char] {
        &LETTERS
    }

    #[inline(always)]
    fn generate_into<S: MoveSink<1>>(p: &PodionicPosition, sink: &mut S) {
        p.generate_into(sink);
    }

    #[inline(always)]
    fn make(p: &mut PodionicPosition, mv: Move) -> position::Undo {
        p.play(mv)
    }

    #[inline(always)]
    fn unmake(p: &mut PodionicPosition, mv: Move, undo: &position::Undo) {
        p.take_back(mv, undo);
    }

    #[inline]
    fn in_check(p: &PodionicPosition) -> bool {
        let us = p.side;
        p.is_attacked(p.king_cell(us), us.flip(), p.board.occupied())
    }

    fn kings_in_danger(p: &PodionicPosition) -> Vec<Cell> {
        p.king_in_check()
    }

    fn move_rule(_p: &PodionicPosition) -> Option<(u32, &'static str)> {
        Some((100, "fifty-move rule"))
    }

    fn insufficient_material(p: &PodionicPosition) -> bool {
        p.board.occupied().len() == 2
    }

    /// Promotion to Queen, Rook, Bishop or Knight.
    fn promotion_kind(_p: &PodionicPosition, letter: char) -> Option<Kind> {
        match letter {
            'q' => Some(kind::QUEEN),
            'r' => Some(kind::ROOK),
            'b' => Some(kind::BISHOP),
            'n' => Some(kind::KNIGHT),
            _ => None,
        }
    }

    fn read_fen_state(
        p: &mut PodionicPosition,
        _holdings: Option<&str>,
        fields: &[&str],
    ) -> Result<(), String> {
        p.read_state(fields)
    }

    fn drawing(p: &PodionicPosition) -> String {
        p.draw()
    }

    fn explain_illegal(p: &PodionicPosition, from: Cell, to: Cell) -> String {
        p.explain(from, to)
    }

    fn invariants(p: &PodionicPosition) -> Result<(), String> {
        let geo = PodionicPosition::geometry();
        for c in [Colour::WHITE, Colour::BLACK] {
            if p.board.pieces(kind::KING, c).len() != 1 {
                return Err(format!("{} does not have exactly one King", c.name()));
            }
            let allowed = PodionicPosition::t().pawn[c.idx()].allowed;
            if let Some(s) = p.board.pieces(kind::PAWN, c).and_not(allowed).first() {
                return Err(format!("{} pawn on {}", c.name(), geo.name(s)));
            }
        }
        if p.board.occupied().and_not(geo.all()).any() {
            return Err("a piece off the board".into());
        }
        let them = p.side.flip();
        if p.is_attacked(p.king_cell(them), p.side, p.board.occupied()) {
            return Err("the side not to move is in check".into());
        }
        Ok(())
    }
}
