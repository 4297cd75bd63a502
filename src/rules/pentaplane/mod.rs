//! Pentaplane V (`docs/variants/pentaplane.md`): a 5x5x5 board, missile pieces that shoot,
//! Bombs that explode in chains, the Kamikaze Queen, and capture of the King instead of
//! checkmate.
//!
//! There is no check rule: every pseudo-legal move is legal, the game is decided as soon as a
//! King is gone ([`Game::decided`]), and a side without a legal move loses.

mod explain;
mod fen;
pub mod info;
mod makemove;
mod movegen;
mod position;
pub mod tables;

pub use fen::START_FEN;
pub use position::PentaplanePosition;

use crate::rules::bitset::Cell;
use crate::rules::clocks::NullMove;
use crate::rules::game::{Game, GameEnd, MoveError};
use crate::rules::moves::{Move, MoveFlag, MoveList};
use crate::rules::piece::{Colour, Piece};
use crate::rules::sink::{CountSink, ListSink};
use crate::rules::variant::Variant;

/// The fields of a move string: `Cb1Cb3`, `Cb4Cb5q` or `Ca1*Ca4`.
struct MoveFields {
    from: Cell,
    to: Cell,
    shot: bool,
    q: bool,
}

/// Splits a move string into its fields; `None` if it is not in the notation at all.
fn parse_fields(s: &str) -> Option<MoveFields> {
    let geo = &tables::TABLES.geo;
    let (from, n) = geo.parse_name_prefix(s)?;
    let rest = &s[n..];
    let (rest, shot) = match rest.strip_prefix('*') {
        Some(r) => (r, true),
        None => (rest, false),
    };
    let (to, m) = geo.parse_name_prefix(rest)?;
    let q = match &rest[m..] {
        "" => false,
        "q" if !shot => true,
        _ => return None,
    };
    Some(MoveFields { from, to, shot, q })
}

impl PentaplanePosition {
    /// The default start position.
    pub fn startpos() -> Self {
        PentaplanePosition::from_fen(START_FEN).expect("start FEN is valid")
    }
}

impl Game for PentaplanePosition {
    fn variant(&self) -> Variant {
        Variant::Pentaplane
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

    /// Always false: Pentaplane has no check rule.
    fn in_check(&self) -> bool {
        false
    }

    fn fen(&self) -> String {
        self.to_fen()
    }

    /// `Cb1Cb3`, `Cb4Cb5q` (a pawn move ending on its promotion row, even if the pawn dies
    /// there), `Ca1*Ca4` (a shot).
    fn move_name(&self, mv: Move) -> String {
        let geo = &Self::t().geo;
        let (from, to) = (geo.name(mv.from()), geo.name(mv.to()));
        match (mv.flag(), mv.promotion()) {
            (MoveFlag::Shot, _) => format!("{from}*{to}"),
            (_, Some(_)) => format!("{from}{to}q"),
            _ => format!("{from}{to}"),
        }
    }

    fn is_move_syntax(&self, s: &str) -> bool {
        parse_fields(s).is_some()
    }

    /// Reads a move by its fields (from, to, shot or not); a promotion may also be given
    /// without its trailing `q`.
    fn parse_move(&self, s: &str) -> Result<Move, MoveError> {
        let Some(f) = parse_fields(s) else {
            return Err(MoveError::Malformed(s.to_string()));
        };
        let mut list = MoveList::new();
        self.generate(&mut list);
        list.iter()
            .copied()
            .find(|m| {
                m.from() == f.from
                    && m.to() == f.to
                    && (m.flag() == MoveFlag::Shot) == f.shot
                    && (!f.q || m.promotion().is_some())
            })
            .ok_or_else(|| MoveError::Illegal(s.to_string()))
    }

    /// Kings first: both gone is a draw, one gone loses for its owner.
    fn decided(&self) -> Option<GameEnd> {
        match (
            self.king_cell(Colour::WHITE).is_some(),
            self.king_cell(Colour::BLACK).is_some(),
        ) {
            (true, true) => None,
            (false, false) => Some(GameEnd::Draw {
                reason: "both kings destroyed",
            }),
            (true, false) => Some(GameEnd::Win {
                winner: 0,
                reason: "king captured",
            }),
            (false, true) => Some(GameEnd::Win {
                winner: 1,
                reason: "king captured",
            }),
        }
    }

    /// The side to move loses.
    fn end_without_moves(&self) -> GameEnd {
        GameEnd::Win {
            winner: self.side.flip().team(),
            reason: "no legal move",
        }
    }

    /// Looks back to the last move that removed a piece or promoted a pawn (pawn moves are
    /// reversible here, because pawns may step backwards).
    fn repetitions(&self) -> usize {
        self.clocks
            .repetitions(self.key(), self.history.len(), 2, |i| self.history[i].key)
    }

    fn rule_draw(&self) -> Option<&'static str> {
        (self.clocks.halfmove >= 100).then_some("100-ply rule")
    }

    fn piece_at(&self, cell: Cell) -> Piece {
        self.board.piece_at(cell)
    }

    /// The piece captured or hit at the destination: an enemy piece, or for a shot also a
    /// Bomb of the shooter's own colour. Explosions may remove more.
    fn captured_piece(&self, mv: Move) -> Piece {
        self.board.piece_at(mv.to())
    }

    /// Captures, shots and promotions.
    fn is_tactical(&self, mv: Move) -> bool {
        mv.flag() == MoveFlag::Shot
            || mv.promotion().is_some()
            || self.board.piece_at(mv.to()).is_some()
    }

    /// A pass is harmless as a search device here (no check rule; a King left en prise is
    /// simply captured), so it is allowed whenever the game is not yet decided.
    fn null_move_allowed(&self) -> bool {
        self.both_kings_present()
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

    fn kings_in_danger(&self) -> Vec<Cell> {
        self.kings_under_attack()
    }

    fn explain_illegal(&self, from: Cell, to: Cell) -> String {
        self.explain(from, to)
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.invariants()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::perft::perft;

    #[test]
    fn start_position_perft() {
        let mut p = PentaplanePosition::startpos();
        assert_eq!(perft(&mut p, 1), 55);
        assert_eq!(perft(&mut p, 2), 3031);
    }

    #[test]
    fn read_api() {
        let geo = PentaplanePosition::geometry();
        let cell = |n: &str| geo.parse_name(n).unwrap();
        let names = |b: tables::Bb| b.iter().map(|c| geo.name(c)).collect::<Vec<_>>();
        let p = PentaplanePosition::startpos();
        assert_eq!(p.king_cell(Colour::WHITE), Some(cell("Cc1")));
        assert_eq!(p.king_cell(Colour::BLACK), Some(cell("Cc5")));
        assert_eq!(p.move_targets(cell("Cb1")).len(), 10);
        assert_eq!(p.move_targets(cell("Cc3")).len(), 0);
        assert!(p.shot_targets(cell("Ca1")).is_empty());
        let p = PentaplanePosition::from_fen(
            "5/5/5/5/K4|2p2/5/5/5/5|2k2/3O1/F1o2/5/5|5/5/5/5/5|4n/5/5/5/5 w 0 1",
        )
        .unwrap();
        assert_eq!(names(p.shot_targets(cell("Ca3"))), ["Cc3"]);
        let steps = p.move_targets(cell("Ca3"));
        assert_eq!(steps.len(), 5);
        for n in ["Ca2", "Cb3", "Ca4", "Da3", "Ba3"] {
            assert!(steps.contains(cell(n)), "{n}");
        }
        let area = p.explosion_area(cell("Cc3"));
        assert!(area.contains(cell("Cc5")) && !area.contains(cell("Ca3")));
        // The two cubes share files c-d, ranks 3-4 and levels B-D.
        assert_eq!(area.len(), 27 + 27 - 12);
        assert_eq!(p.halfmove_clock(), 0);
    }

    #[test]
    fn move_syntax() {
        let p = PentaplanePosition::startpos();
        for s in ["Cb1Cb3", "Cb4Cb5q", "Ca1*Ca4", "Ee5Aa1"] {
            assert!(p.is_move_syntax(s), "{s}");
        }
        for s in [
            "", "Cb1", "Ca1*Ca4q", "Cb1Cb3x", "Cb1-Cb3", "Fa1Ca2", "Ca6Ca5", "é",
        ] {
            assert!(!p.is_move_syntax(s), "{s}");
        }
    }
}
