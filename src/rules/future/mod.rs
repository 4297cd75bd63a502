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
pub use position::{EnPassant, FuturePosition};

use tables::{LETTERS, kind};

use crate::rules::bitset::Cell;
use crate::rules::game::{Game, GameEnd};
use crate::rules::moves::{CastlingSide, Move, MoveFlag, MoveList};
use crate::rules::piece::{Colour, Piece};
use crate::rules::sink::{CountSink, ListSink};
use crate::rules::variant::Variant;

impl FuturePosition {
    /// The start position.
    pub fn startpos() -> Self {
        FuturePosition::from_fen(START_FEN).expect("start FEN is valid")
    }
}

impl Game for FuturePosition {
    fn variant(&self) -> Variant {
        Variant::FutureGeneration
    }

    fn side_to_move(&self) -> Colour {
        self.side
    }

    fn key(&self) -> u64 {
        self.board.key()
    }

    fn generate(&self, moves: &mut MoveList) {
        if self.winner().is_some() {
            return;
        }
        let before = moves.len();
        self.generate_into(&mut ListSink(moves));
        if moves.len() == before {
            moves.push(Move::PASS);
        }
    }

    fn count_moves(&self) -> u64 {
        if self.winner().is_some() {
            return 0;
        }
        let mut c = CountSink(0);
        self.generate_into(&mut c);
        c.0.max(1)
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

    /// There is no check in this variant (Kings are captured).
    fn in_check(&self) -> bool {
        false
    }

    fn fen(&self) -> String {
        self.to_fen()
    }

    fn move_name(&self, mv: Move) -> String {
        if mv.flag() == MoveFlag::Pass {
            return "0000".into();
        }
        let g = Self::geometry();
        let mut s = format!("{}{}", g.name(mv.from()), g.name(mv.to()));
        if let Some(k) = mv.promotion() {
            s.push(LETTERS[k as usize].to_ascii_lowercase());
        }
        s
    }

    fn is_move_syntax(&self, s: &str) -> bool {
        if s == "0000" {
            return true;
        }
        let g = Self::geometry();
        let Some((_, n)) = g.parse_name_prefix(s) else {
            return false;
        };
        let rest = &s[n..];
        match g.parse_name_prefix(rest) {
            Some((_, m)) => matches!(&rest[m..], "" | "q" | "r" | "b" | "n"),
            None => false,
        }
    }

    fn decided(&self) -> Option<GameEnd> {
        self.winner().map(|winner| GameEnd::Win {
            winner,
            reason: "both Kings of the other team captured",
        })
    }

    fn end_without_moves(&self) -> GameEnd {
        // A colour without a move passes, so only a decided game has no moves.
        self.decided().unwrap_or(GameEnd::Draw {
            reason: "no legal move",
        })
    }

    /// Every earlier position in the window counts: the key holds the colour to move.
    fn repetitions(&self) -> usize {
        self.clocks
            .repetitions(self.key(), self.history.len(), 1, |i| self.history[i].key)
    }

    fn rule_draw(&self) -> Option<&'static str> {
        (self.clocks.halfmove >= 200).then_some("200 plies without capture or pawn move")
    }

    fn piece_at(&self, cell: Cell) -> Piece {
        self.board.piece_at(cell)
    }

    fn captured_piece(&self, mv: Move) -> Piece {
        match mv.flag() {
            MoveFlag::EnPassant => self
                .ep
                .map(|e| self.board.piece_at(e.victim))
                .unwrap_or(Piece::NONE),
            MoveFlag::Normal => self.board.piece_at(mv.to()),
            _ => Piece::NONE,
        }
    }

    /// A null move passes to the next colour; it is refused only once the game is decided
    /// (there is no check, and a colour may always be made to pass).
    fn null_move_allowed(&self) -> bool {
        self.winner().is_none()
    }

    fn make_null(&mut self) {
        self.make_null_move();
    }

    fn unmake_null(&mut self) {
        self.unmake_move();
    }

    fn drawing(&self) -> String {
        self.draw()
    }

    fn cell_name(&self, cell: Cell) -> String {
        Self::geometry().name(cell)
    }

    fn notes(&self) -> Vec<String> {
        self.state_notes()
    }

    fn kings_in_danger(&self) -> Vec<Cell> {
        self.kings_attacked()
    }

    /// The colour's castling table lists the short side first (towards the h-file for White
    /// and Black, towards rank 1 for Gold and Silver), then the long one.
    fn castling_side(&self, mv: Move) -> Option<CastlingSide> {
        if mv.flag() != MoveFlag::Castle {
            return None;
        }
        let sides = &Self::t().castling[self.side.idx()];
        let i = sides
            .iter()
            .position(|c| c.king_from == mv.from() && c.king_to == mv.to())?;
        Some([CastlingSide::Short, CastlingSide::Long][i])
    }

    fn explain_illegal(&self, from: Cell, to: Cell) -> String {
        self.explain(from, to)
    }

    fn check_invariants(&self) -> Result<(), String> {
        let t = Self::t();
        self.board.check(tables::CELLS, self.key_from_scratch())?;
        if self.is_eliminated(self.side) {
            return Err(format!("{} is to move but eliminated", self.side.name()));
        }
        for c in tables::COLOURS {
            let kings = self.board.pieces(kind::KING, c).len();
            let expected = if self.is_eliminated(c) { 0 } else { 1 };
            if kings != expected {
                return Err(format!(
                    "{} has {kings} Kings, expected {expected}",
                    c.name()
                ));
            }
            if (self.board.pieces(kind::PAWN, c) & t.no_pawn[c.idx()]).any() {
                return Err(format!("{} has a pawn on an edge", c.name()));
            }
            if !self.is_unlocked(c) {
                if self.board.colour(c).and_not(t.locked_reach[c.idx()]).any() {
                    return Err(format!("{} is locked but beyond its gate", c.name()));
                }
                if (self.board.colour(c) & t.gate[c.idx()]).len() >= 4 {
                    return Err(format!(
                        "{} is locked with four pieces on its gate",
                        c.name()
                    ));
                }
            }
            for side in 0..2 {
                let cs = &t.castling[c.idx()][side];
                if self.castling & tables::castle_bit(c, side) != 0
                    && (self.board.piece_at(cs.king_from) != Piece::new(kind::KING, c)
                        || self.board.piece_at(cs.rook_from) != Piece::new(kind::ROOK, c))
                {
                    return Err(format!(
                        "{} has a castling right without King and Rook",
                        c.name()
                    ));
                }
            }
        }
        if let Some(ep) = self.ep
            && self.ep_right_for(self.side, ep.cell, ep.victim) != Some(ep)
        {
            return Err(format!(
                "en passant right on {} that {} cannot use",
                t.geo.name(ep.cell),
                self.side.name()
            ));
        }
        Ok(())
    }
}
