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
pub use position::PodionicPosition;

use tables::{LETTERS, kind};

use crate::rules::bitset::Cell;
use crate::rules::clocks::NullMove;
use crate::rules::game::{Game, GameEnd, mate_or_stalemate};
use crate::rules::moves::{Move, MoveList};
use crate::rules::piece::{Colour, Piece};
use crate::rules::sink::{CountSink, ListSink};
use crate::rules::variant::Variant;

impl PodionicPosition {
    /// The start position.
    pub fn startpos() -> Self {
        PodionicPosition::from_fen(START_FEN).expect("start FEN is valid")
    }
}

impl Game for PodionicPosition {
    fn variant(&self) -> Variant {
        Variant::Podionic
    }

    fn side_to_move(&self) -> Colour {
        self.side
    }

    fn key(&self) -> u64 {
        self.board.key()
    }

    fn generate(&self, moves: &mut MoveList) {
        self.generate_into(&mut ListSink(moves));
    }

    fn count_moves(&self) -> u64 {
        let mut c = CountSink(0);
        self.generate_into(&mut c);
        c.0
    }

    fn make(&mut self, mv: Move) {
        self.make_move(mv);
    }

    fn unmake(&mut self) {
        self.unmake_move();
    }

    fn history_len(&self) -> usize {
        self.history.len()
    }

    fn in_check(&self) -> bool {
        let us = self.side;
        self.is_attacked(self.king_cell(us), us.flip(), self.board.occupied())
    }

    fn fen(&self) -> String {
        self.to_fen()
    }

    fn move_name(&self, mv: Move) -> String {
        let geo = Self::geometry();
        let mut s = format!("{}{}", geo.name(mv.from()), geo.name(mv.to()));
        if let Some(k) = mv.promotion() {
            s.push(LETTERS[k as usize].to_ascii_lowercase());
        }
        s
    }

    fn is_move_syntax(&self, s: &str) -> bool {
        let geo = Self::geometry();
        let Some((_, n)) = geo.parse_name_prefix(s) else {
            return false;
        };
        let rest = &s[n..];
        match geo.parse_name_prefix(rest) {
            Some((_, m)) => matches!(&rest[m..], "" | "q" | "r" | "b" | "n"),
            None => false,
        }
    }

    fn decided(&self) -> Option<GameEnd> {
        None
    }

    fn end_without_moves(&self) -> GameEnd {
        mate_or_stalemate(self.in_check(), self.side)
    }

    fn repetitions(&self) -> usize {
        self.clocks
            .repetitions(self.key(), self.history.len(), 2, |i| self.history[i].key)
    }

    fn rule_draw(&self) -> Option<&'static str> {
        if self.clocks.halfmove >= 100 {
            Some("fifty-move rule")
        } else if self.board.occupied().len() == 2 {
            Some("insufficient material")
        } else {
            None
        }
    }

    fn piece_at(&self, cell: Cell) -> Piece {
        self.board.piece_at(cell)
    }

    fn null_move_allowed(&self) -> bool {
        !self.in_check()
    }

    fn make_null(&mut self) {
        self.make_null_move();
    }

    fn unmake_null(&mut self) {
        self.unmake_null_move();
    }

    fn drawing(&self) -> String {
        self.draw()
    }

    fn cell_name(&self, cell: Cell) -> String {
        Self::geometry().name(cell)
    }

    fn kings_in_danger(&self) -> Vec<Cell> {
        self.king_in_check()
    }

    fn explain_illegal(&self, from: Cell, to: Cell) -> String {
        self.explain(from, to)
    }

    fn check_invariants(&self) -> Result<(), String> {
        let geo = Self::geometry();
        self.board.check(tables::CELLS, self.key_from_scratch())?;
        for c in [Colour::WHITE, Colour::BLACK] {
            if self.board.pieces(kind::KING, c).len() != 1 {
                return Err(format!("{} does not have exactly one King", c.name()));
            }
            let allowed = Self::t().pawn[c.idx()].allowed;
            if let Some(s) = self.board.pieces(kind::PAWN, c).and_not(allowed).first() {
                return Err(format!("{} pawn on {}", c.name(), geo.name(s)));
            }
        }
        if self.board.occupied().and_not(geo.all()).any() {
            return Err("a piece off the board".into());
        }
        let them = self.side.flip();
        if self.is_attacked(self.king_cell(them), self.side, self.board.occupied()) {
            return Err("the side not to move is in check".into());
        }
        Ok(())
    }
}
