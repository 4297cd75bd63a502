//! Chess – The Future Generation (`docs/variants/future-generation.md`): four colours in two
//! teams on four stacked 8x8 levels, King capture instead of checkmate, elimination, the
//! level-progression rule and crowned Knights.
//!
//! The four-colour turn order lives in one place (`FuturePosition::next_colour`); generation
//! and make/unmake work for "the colour to move" and its team, so nothing else needs to know
//! how many colours are left. A colour without a move passes: [`Move::PASS`] is then its only
//! move.

mod explain;
mod fen;
pub mod info;
mod makemove;
mod movegen;
mod position;
pub mod tables;

pub use fen::START_FEN;
pub use position::{EnPassant, FutureGeneration, FuturePosition};

use tables::{LETTERS, kind};

use crate::rules::bitset::Cell;
use crate::rules::game::GameEnd;
use crate::rules::geometry::Geometry;
use crate::rules::moves::{CastlingSide, Move, MoveFlag, MoveList};
use crate::rules::piece::{Kind, Piece};
use crate::rules::placement::Chars2;
use crate::rules::position::VariantRules;
use crate::rules::sink::{CountSink, ListSink, MoveSink};
use crate::rules::variant::Variant;
use crate::rules::zobrist::Zobrist;

impl FuturePosition {
    /// The start position.
    pub fn startpos() -> Self {
        FuturePosition::from_fen(START_FEN).expect("start FEN is valid")
    }
}

impl VariantRules<4> for FutureGeneration {
    type Undo = position::Undo;

    /// Every earlier position in the window counts: the key holds the colour to move.
    const REPETITION_STEP: usize = 1;

    fn variant(&self) -> Variant {
        Variant::FutureGeneration
    }

    fn geometry(&self) -> &'static Geometry<4> {
        &tables::TABLES.geo
    }

    fn zobrist(&self) -> &'static Zobrist {
        &tables::TABLES.zobrist
    }

    fn letters(&self) -> &'static [char] {
        &LETTERS
    }

    #[inline(always)]
    fn generate_into<S: MoveSink<4>>(p: &FuturePosition, sink: &mut S) {
        p.generate_into(sink);
    }

    /// Nothing once the game is decided; a colour without a move passes.
    fn generate(p: &FuturePosition, moves: &mut MoveList) {
        if p.winner().is_some() {
            return;
        }
        let before = moves.len();
        p.generate_into(&mut ListSink(moves));
        if moves.len() == before {
            moves.push(Move::PASS);
        }
    }

    fn count_moves(p: &FuturePosition) -> u64 {
        if p.winner().is_some() {
            return 0;
        }
        let mut c = CountSink(0);
        p.generate_into(&mut c);
        c.0.max(1)
    }

    #[inline(always)]
    fn make(p: &mut FuturePosition, mv: Move) -> position::Undo {
        p.play(mv)
    }

    #[inline(always)]
    fn unmake(p: &mut FuturePosition, mv: Move, undo: &position::Undo) {
        p.take_back(mv, undo);
    }

    /// A null move is the pass move (to the next colour), kept in the history.
    fn make_null(p: &mut FuturePosition) {
        p.make_null_pass();
    }

    fn unmake_null(p: &mut FuturePosition) {
        p.unmake_move();
    }

    /// A null move passes to the next colour; it is refused only once the game is decided
    /// (there is no check, and a colour may always be made to pass).
    fn null_move_allowed(p: &FuturePosition) -> bool {
        p.winner().is_none()
    }

    /// There is no check in this variant (Kings are captured).
    fn in_check(_p: &FuturePosition) -> bool {
        false
    }

    fn kings_in_danger(p: &FuturePosition) -> Vec<Cell> {
        p.kings_attacked()
    }

    fn decided(p: &FuturePosition) -> Option<GameEnd> {
        p.winner().map(|winner| GameEnd::Win {
            winner,
            reason: "both Kings of the other team captured",
        })
    }

    fn end_without_moves(p: &FuturePosition) -> GameEnd {
        // A colour without a move passes, so only a decided game has no moves.
        Self::decided(p).unwrap_or(GameEnd::Draw {
            reason: "no legal move",
        })
    }

    fn move_rule(_p: &FuturePosition) -> Option<(u32, &'static str)> {
        Some((200, "200 plies without capture or pawn move"))
    }

    fn captured_piece(p: &FuturePosition, mv: Move) -> Piece {
        match mv.flag() {
            MoveFlag::EnPassant => p
                .state
                .ep
                .map(|e| p.board.piece_at(e.victim))
                .unwrap_or(Piece::NONE),
            MoveFlag::Normal => p.board.piece_at(mv.to()),
            _ => Piece::NONE,
        }
    }

    /// The colour's castling table lists the short side first (towards the h-file for White
    /// and Black, towards rank 1 for Gold and Silver), then the long one.
    fn castling_side(p: &FuturePosition, mv: Move) -> Option<CastlingSide> {
        if mv.flag() != MoveFlag::Castle {
            return None;
        }
        let sides = &FuturePosition::t().castling[p.side.idx()];
        let i = sides
            .iter()
            .position(|c| c.king_from == mv.from() && c.king_to == mv.to())?;
        Some([CastlingSide::Short, CastlingSide::Long][i])
    }

    /// Promotion to Queen, Rook, Bishop or Knight.
    fn promotion_kind(_p: &FuturePosition, letter: char) -> Option<Kind> {
        match letter {
            'q' => Some(kind::QUEEN),
            'r' => Some(kind::ROOK),
            'b' => Some(kind::BISHOP),
            'n' => Some(kind::KNIGHT),
            _ => None,
        }
    }

    /// `0000` is the pass, a move of its own fields (no other move goes from a cell to
    /// itself).
    fn move_fields(p: &FuturePosition, s: &str) -> Option<(Cell, Cell, Option<Kind>)> {
        if s == "0000" {
            return Some((Move::PASS.from(), Move::PASS.to(), None));
        }
        p.cells_and_promotion(s)
    }

    fn fen_field_names(&self) -> Vec<&'static str> {
        vec![
            "placement",
            "side to move",
            "castling",
            "en passant",
            "unlocked",
            "eliminated",
            "half-move clock",
            "move number",
        ]
    }

    fn read_piece(&self, first: char, rest: &mut Chars2) -> Result<Piece, String> {
        fen::read_piece(first, rest)
    }

    fn write_piece(&self, piece: Piece, out: &mut String) {
        fen::write_piece(piece, out);
    }

    fn read_fen_state(
        p: &mut FuturePosition,
        _holdings: Option<&str>,
        fields: &[&str],
    ) -> Result<(), String> {
        p.read_state(fields)
    }

    fn check_fen(p: &mut FuturePosition, fields: &[&str]) -> Result<(), String> {
        p.check_state(fields)
    }

    fn fen_fields(p: &FuturePosition) -> Vec<String> {
        p.state_fields()
    }

    fn state_key(p: &FuturePosition) -> u64 {
        p.state_key()
    }

    fn drawing(p: &FuturePosition) -> String {
        p.draw()
    }

    fn notes(p: &FuturePosition) -> Vec<String> {
        p.state_notes()
    }

    fn explain_illegal(p: &FuturePosition, from: Cell, to: Cell) -> String {
        p.explain(from, to)
    }

    fn invariants(p: &FuturePosition) -> Result<(), String> {
        let t = FuturePosition::t();
        if p.is_eliminated(p.side) {
            return Err(format!("{} is to move but eliminated", p.side.name()));
        }
        for c in tables::COLOURS {
            let kings = p.board.pieces(kind::KING, c).len();
            let expected = if p.is_eliminated(c) { 0 } else { 1 };
            if kings != expected {
                return Err(format!(
                    "{} has {kings} Kings, expected {expected}",
                    c.name()
                ));
            }
            if (p.board.pieces(kind::PAWN, c) & t.no_pawn[c.idx()]).any() {
                return Err(format!("{} has a pawn on an edge", c.name()));
            }
            if !p.is_unlocked(c) {
                if p.board.colour(c).and_not(t.locked_reach[c.idx()]).any() {
                    return Err(format!("{} is locked but beyond its gate", c.name()));
                }
                if (p.board.colour(c) & t.gate[c.idx()]).len() >= 4 {
                    return Err(format!(
                        "{} is locked with four pieces on its gate",
                        c.name()
                    ));
                }
            }
            for side in 0..2 {
                let cs = &t.castling[c.idx()][side];
                if p.state.castling & tables::castle_bit(c, side) != 0
                    && (p.board.piece_at(cs.king_from) != Piece::new(kind::KING, c)
                        || p.board.piece_at(cs.rook_from) != Piece::new(kind::ROOK, c))
                {
                    return Err(format!(
                        "{} has a castling right without King and Rook",
                        c.name()
                    ));
                }
            }
        }
        if let Some(ep) = p.state.ep
            && p.ep_right_for(p.side, ep.cell, ep.victim) != Some(ep)
        {
            return Err(format!(
                "en passant right on {} that {} cannot use",
                t.geo.name(ep.cell),
                p.side.name()
            ));
        }
        Ok(())
    }
}
