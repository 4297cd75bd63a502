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
pub use position::PolyhedronPosition;
pub use reserve::Reserve;

use tables::{LETTERS, kind, kind_of_letter};

use crate::rules::bitset::Cell;
use crate::rules::clocks::NullMove;
use crate::rules::game::{Game, GameEnd, MoveError, mate_or_stalemate};
use crate::rules::moves::{Move, MoveFlag, MoveList};
use crate::rules::piece::{Colour, Kind, Piece};
use crate::rules::sink::{CountSink, ListSink};
use crate::rules::variant::Variant;

impl PolyhedronPosition {
    /// The start position.
    pub fn startpos() -> Self {
        PolyhedronPosition::from_fen(START_FEN).expect("start FEN is valid")
    }

    /// Reads `Cc3Cc5` / `Ce9Ce10q` into from-cell, to-cell and promotion kind (legal or not).
    fn parse_move_text(s: &str) -> Option<(Cell, Cell, Option<Kind>)> {
        let geo = &Self::t().geo;
        let (from, n1) = geo.parse_name_prefix(s)?;
        let rest = &s[n1..];
        let (to, n2) = geo.parse_name_prefix(rest)?;
        let mut tail = rest[n2..].chars();
        let promotion = match (tail.next(), tail.next()) {
            (None, _) => None,
            (Some(c), None) if c.is_ascii_lowercase() => match kind_of_letter(c) {
                Some(k) if k != kind::KING && k != kind::PAWN => Some(k),
                _ => return None,
            },
            _ => return None,
        };
        Some((from, to, promotion))
    }

    /// Only the two Kings are left (the one dead position the rules declare).
    fn bare_kings(&self) -> bool {
        self.board.occupied().len() == 2
    }
}

impl Game for PolyhedronPosition {
    fn variant(&self) -> Variant {
        Variant::Polyhedron
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
        self.is_attacked(self.king_cell(self.side), self.side.flip())
    }

    fn fen(&self) -> String {
        self.to_fen()
    }

    fn move_name(&self, mv: Move) -> String {
        let geo = &Self::t().geo;
        let mut s = geo.name(mv.from());
        s.push_str(&geo.name(mv.to()));
        if let Some(k) = mv.promotion() {
            s.push(LETTERS[k as usize].to_ascii_lowercase());
        }
        s
    }

    fn is_move_syntax(&self, s: &str) -> bool {
        Self::parse_move_text(s).is_some()
    }

    /// Reads the cells and the promotion letter, then looks the move up among the legal
    /// moves by its fields (cheaper than naming every legal move).
    fn parse_move(&self, s: &str) -> Result<Move, MoveError> {
        let Some((from, to, promotion)) = Self::parse_move_text(s) else {
            return Err(MoveError::Malformed(s.to_string()));
        };
        let mut list = MoveList::new();
        self.generate(&mut list);
        list.iter()
            .copied()
            .find(|m| m.from() == from && m.to() == to && m.promotion() == promotion)
            .ok_or_else(|| MoveError::Illegal(s.to_string()))
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
        } else if self.bare_kings() {
            Some("insufficient material")
        } else {
            None
        }
    }

    fn piece_at(&self, cell: Cell) -> Piece {
        self.board.piece_at(cell)
    }

    fn captured_piece(&self, mv: Move) -> Piece {
        match mv.flag() {
            MoveFlag::EnPassant => Piece::new(kind::PAWN, self.side.flip()),
            MoveFlag::Normal => self.board.piece_at(mv.to()),
            _ => Piece::NONE,
        }
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
        Self::t().geo.name(cell)
    }

    fn in_hand(&self, colour: Colour) -> Vec<(Kind, usize)> {
        let r = &self.reserves[colour.idx()];
        (0..tables::KINDS as Kind)
            .filter(|&k| r.count(k) > 0)
            .map(|k| (k, r.count(k)))
            .collect()
    }

    fn kings_in_danger(&self) -> Vec<Cell> {
        if self.in_check() {
            vec![self.king_cell(self.side)]
        } else {
            Vec::new()
        }
    }

    fn explain_illegal(&self, from: Cell, to: Cell) -> String {
        self.explain(from, to)
    }

    fn check_invariants(&self) -> Result<(), String> {
        let t = Self::t();
        self.board.check(t.geo.cells(), self.key_from_scratch())?;
        for c in [Colour::WHITE, Colour::BLACK] {
            if self.board.pieces(kind::KING, c).len() != 1 {
                return Err(format!("{} does not have exactly one King", c.name()));
            }
            let r = &self.reserves[c.idx()];
            if r.count(kind::KING) + r.count(kind::PAWN) != 0 {
                return Err(format!("{}'s reserve holds a King or Pawn", c.name()));
            }
            let army = self.board.colour(c).len() as usize + r.len();
            if army > tables::MAX_ARMY {
                return Err(format!("{} has {army} pieces", c.name()));
            }
            if (self.board.pieces(kind::PAWN, c) & t.promotion_zone[c.idx()]).any() {
                return Err(format!("a {} pawn on its last rank", c.name()));
            }
        }
        if self.board.colour(Colour(2)).any() || self.board.colour(Colour(3)).any() {
            return Err("a piece of a third colour".into());
        }
        if let Some(e) = self.ep_cell() {
            let them = self.side.flip();
            let victim = t.pawn_push[them.idx()][e];
            if self.board.piece_at(e).is_some()
                || victim.map(|v| self.board.piece_at(v)) != Some(Piece::new(kind::PAWN, them))
            {
                return Err(format!(
                    "en passant cell {} without the pawn that passed it",
                    t.geo.name(e)
                ));
            }
        }
        let them = self.side.flip();
        if self.is_attacked(self.king_cell(them), self.side) {
            return Err("the side not to move is in check".into());
        }
        Ok(())
    }
}
