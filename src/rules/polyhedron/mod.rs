//! Polyhedron Chess (`docs/variants/polyhedron.md`): five concentric levels of 6x6, 8x8,
//! 10x10, 8x8 and 6x6 cells (300 in all), fourteen piece types, pawns that change level only
//! by capturing, promotion from a reserve of captured pieces, and optional Unicorn promotion
//! after a capture.

mod explain;
mod fen;
pub mod info;
mod makemove;
mod movegen;
mod position;
mod reserve;
pub mod tables;

pub use fen::START_FEN;
pub use position::{Polyhedron, PolyhedronPosition};
pub use reserve::Reserve;

use tables::{LETTERS, kind, kind_of_letter};

use crate::rules::bitset::Cell;
use crate::rules::geometry::Geometry;
use crate::rules::moves::{Move, MoveFlag};
use crate::rules::piece::{Colour, Kind, Piece};
use crate::rules::position::VariantRules;
use crate::rules::sink::MoveSink;
use crate::rules::variant::Variant;
use crate::rules::zobrist::Zobrist;

impl PolyhedronPosition {
    /// The start position.
    pub fn startpos() -> Self {
        PolyhedronPosition::from_fen(START_FEN).expect("start FEN is valid")
    }

    /// Only the two Kings are left (the one dead position the rules declare).
    fn bare_kings(&self) -> bool {
        self.board.occupied().len() == 2
    }
}

impl VariantRules<5> for Polyhedron {
    type Undo = position::Undo;

    const HOLDINGS: Option<&'static str> = Some("reserves");

    fn variant(&self) -> Variant {
        Variant::Polyhedron
    }

    fn geometry(&self) -> &'static Geometry<5> {
        &tables::TABLES.geo
    }

    fn zobrist(&self) -> &'static Zobrist {
        &tables::TABLES.zobrist
    }

    fn letters(&self) -> &'static [char] {
        &LETTERS
    }

    #[inline(always)]
    fn generate_into<S: MoveSink<5>>(p: &PolyhedronPosition, sink: &mut S) {
        p.generate_into(sink);
    }

    #[inline(always)]
    fn make(p: &mut PolyhedronPosition, mv: Move) -> position::Undo {
        p.play(mv)
    }

    #[inline(always)]
    fn unmake(p: &mut PolyhedronPosition, mv: Move, undo: &position::Undo) {
        p.take_back(mv, undo);
    }

    fn take_ep(p: &mut PolyhedronPosition) -> u16 {
        p.take_ep()
    }

    fn put_back_ep(p: &mut PolyhedronPosition, ep: u16) {
        p.state.ep = ep;
    }

    #[inline]
    fn in_check(p: &PolyhedronPosition) -> bool {
        p.is_attacked(p.king_cell(p.side), p.side.flip())
    }

    fn kings_in_danger(p: &PolyhedronPosition) -> Vec<Cell> {
        if Self::in_check(p) {
            vec![p.king_cell(p.side)]
        } else {
            Vec::new()
        }
    }

    fn move_rule(_p: &PolyhedronPosition) -> Option<(u32, &'static str)> {
        Some((100, "fifty-move rule"))
    }

    fn insufficient_material(p: &PolyhedronPosition) -> bool {
        p.bare_kings()
    }

    fn captured_piece(p: &PolyhedronPosition, mv: Move) -> Piece {
        match mv.flag() {
            MoveFlag::EnPassant => Piece::new(kind::PAWN, p.side.flip()),
            MoveFlag::Normal => p.board.piece_at(mv.to()),
            _ => Piece::NONE,
        }
    }

    /// Any kind but King and Pawn (`Ce9Ce10q`).
    fn promotion_kind(_p: &PolyhedronPosition, letter: char) -> Option<Kind> {
        match kind_of_letter(letter) {
            Some(k) if letter.is_ascii_lowercase() && k != kind::KING && k != kind::PAWN => Some(k),
            _ => None,
        }
    }

    fn fen_field_names(&self) -> Vec<&'static str> {
        vec![
            "placement",
            "side to move",
            "en passant",
            "half-move clock",
            "move number",
        ]
    }

    fn read_fen_state(
        p: &mut PolyhedronPosition,
        reserves: Option<&str>,
        fields: &[&str],
    ) -> Result<(), String> {
        p.read_state(reserves, fields)
    }

    /// Always written, `[]` when both are empty.
    fn holdings(p: &PolyhedronPosition) -> Option<String> {
        let r = &p.state.reserves;
        Some(r[0].letters() + &r[1].letters().to_ascii_lowercase())
    }

    fn fen_fields(p: &PolyhedronPosition) -> Vec<String> {
        vec![match p.ep_cell() {
            Some(e) => PolyhedronPosition::t().geo.name(e),
            None => "-".into(),
        }]
    }

    fn state_key(p: &PolyhedronPosition) -> u64 {
        p.reserves_and_ep_key()
    }

    fn drawing(p: &PolyhedronPosition) -> String {
        p.draw()
    }

    const HOLDS: bool = true;

    #[inline(always)]
    fn hand_count(p: &PolyhedronPosition, colour: Colour, kind: Kind) -> usize {
        p.state.reserves[colour.idx()].count(kind)
    }

    fn in_hand(p: &PolyhedronPosition, colour: Colour) -> Vec<(Kind, usize)> {
        let r = &p.state.reserves[colour.idx()];
        (0..tables::KINDS as Kind)
            .filter(|&k| r.count(k) > 0)
            .map(|k| (k, r.count(k)))
            .collect()
    }

    fn explain_illegal(p: &PolyhedronPosition, from: Cell, to: Cell) -> String {
        p.explain(from, to)
    }

    fn invariants(p: &PolyhedronPosition) -> Result<(), String> {
        let t = PolyhedronPosition::t();
        for c in [Colour::WHITE, Colour::BLACK] {
            if p.board.pieces(kind::KING, c).len() != 1 {
                return Err(format!("{} does not have exactly one King", c.name()));
            }
            let r = &p.state.reserves[c.idx()];
            if r.count(kind::KING) + r.count(kind::PAWN) != 0 {
                return Err(format!("{}'s reserve holds a King or Pawn", c.name()));
            }
            let army = p.board.colour(c).len() as usize + r.len();
            if army > tables::MAX_ARMY {
                return Err(format!("{} has {army} pieces", c.name()));
            }
            if (p.board.pieces(kind::PAWN, c) & t.promotion_zone[c.idx()]).any() {
                return Err(format!("a {} pawn on its last rank", c.name()));
            }
        }
        if p.board.colour(Colour(2)).any() || p.board.colour(Colour(3)).any() {
            return Err("a piece of a third colour".into());
        }
        if let Some(e) = p.ep_cell() {
            let them = p.side.flip();
            let victim = t.pawn_push[them.idx()][e];
            if p.board.piece_at(e).is_some()
                || victim.map(|v| p.board.piece_at(v)) != Some(Piece::new(kind::PAWN, them))
            {
                return Err(format!(
                    "en passant cell {} without the pawn that passed it",
                    t.geo.name(e)
                ));
            }
        }
        let them = p.side.flip();
        if p.is_attacked(p.king_cell(them), p.side) {
            return Err("the side not to move is in check".into());
        }
        Ok(())
    }
}
