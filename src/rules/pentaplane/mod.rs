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
pub use position::{Pentaplane, PentaplanePosition};

use crate::rules::bitset::Cell;
use crate::rules::game::{Game, GameEnd, MoveError};
use crate::rules::geometry::Geometry;
use crate::rules::moves::{Move, MoveFlag, MoveList};
use crate::rules::piece::{Colour, Piece};
use crate::rules::position::VariantRules;
use crate::rules::sink::MoveSink;
use crate::rules::variant::Variant;
use crate::rules::zobrist::Zobrist;

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

impl VariantRules<2> for Pentaplane {
    type Undo = position::Undo;

    fn variant(&self) -> Variant {
        Variant::Pentaplane
    }

    fn geometry(&self) -> &'static Geometry<2> {
        &tables::TABLES.geo
    }

    fn zobrist(&self) -> &'static Zobrist {
        &tables::TABLES.zobrist
    }

    fn letters(&self) -> &'static [char] {
        &tables::LETTERS
    }

    #[inline(always)]
    fn generate_into<S: MoveSink<2>>(p: &PentaplanePosition, sink: &mut S) {
        p.generate_into(sink);
    }

    #[inline(always)]
    fn make(p: &mut PentaplanePosition, mv: Move) -> position::Undo {
        p.play(mv)
    }

    #[inline(always)]
    fn unmake(p: &mut PentaplanePosition, mv: Move, undo: &position::Undo) {
        p.take_back(mv, undo);
    }

    /// A pass is harmless as a search device here (no check rule; a King left en prise is
    /// simply captured), so it is allowed whenever the game is not yet decided.
    fn null_move_allowed(p: &PentaplanePosition) -> bool {
        p.both_kings_present()
    }

    /// Always false: Pentaplane has no check rule.
    fn in_check(_p: &PentaplanePosition) -> bool {
        false
    }

    fn kings_in_danger(p: &PentaplanePosition) -> Vec<Cell> {
        p.kings_under_attack()
    }

    /// Kings first: both gone is a draw, one gone loses for its owner.
    fn decided(p: &PentaplanePosition) -> Option<GameEnd> {
        match (
            p.king_cell(Colour::WHITE).is_some(),
            p.king_cell(Colour::BLACK).is_some(),
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
    fn end_without_moves(p: &PentaplanePosition) -> GameEnd {
        GameEnd::Win {
            winner: p.side.flip().team(),
            reason: "no legal move",
        }
    }

    /// Repetitions look back to the last move that removed a piece or promoted a pawn (pawn
    /// moves are reversible here, because pawns may step backwards).
    fn move_rule(_p: &PentaplanePosition) -> Option<(u32, &'static str)> {
        Some((100, "100-ply rule"))
    }

    /// The piece captured or hit at the destination: an enemy piece, or for a shot also a
    /// Bomb of the shooter's own colour. Explosions may remove more.
    fn captured_piece(p: &PentaplanePosition, mv: Move) -> Piece {
        p.board.piece_at(mv.to())
    }

    /// Captures, shots and promotions.
    fn is_tactical(p: &PentaplanePosition, mv: Move) -> bool {
        mv.flag() == MoveFlag::Shot
            || mv.promotion().is_some()
            || p.board.piece_at(mv.to()).is_some()
    }

    /// `Cb1Cb3`, `Cb4Cb5q` (a pawn move ending on its promotion row, even if the pawn dies
    /// there), `Ca1*Ca4` (a shot).
    fn move_name(_p: &PentaplanePosition, mv: Move) -> String {
        let geo = &PentaplanePosition::t().geo;
        let (from, to) = (geo.name(mv.from()), geo.name(mv.to()));
        match (mv.flag(), mv.promotion()) {
            (MoveFlag::Shot, _) => format!("{from}*{to}"),
            (_, Some(_)) => format!("{from}{to}q"),
            _ => format!("{from}{to}"),
        }
    }

    fn is_move_syntax(_p: &PentaplanePosition, s: &str) -> bool {
        parse_fields(s).is_some()
    }

    /// Reads a move by its fields (from, to, shot or not); a promotion may also be given
    /// without its trailing `q`.
    fn parse_move(p: &PentaplanePosition, s: &str) -> Result<Move, MoveError> {
        let Some(f) = parse_fields(s) else {
            return Err(MoveError::Malformed(s.to_string()));
        };
        let mut list = MoveList::new();
        p.generate(&mut list);
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

    fn read_fen_state(
        p: &mut PentaplanePosition,
        _holdings: Option<&str>,
        fields: &[&str],
    ) -> Result<(), String> {
        p.read_state(fields)
    }

    fn drawing(p: &PentaplanePosition) -> String {
        p.draw()
    }

    fn explain_illegal(p: &PentaplanePosition, from: Cell, to: Cell) -> String {
        p.explain(from, to)
    }

    fn invariants(p: &PentaplanePosition) -> Result<(), String> {
        p.invariants()
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
