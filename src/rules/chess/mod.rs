//! FIDE chess and Pole Chess (`docs/variants/pole.md`): one position type, because Pole
//! Chess is chess plus two Poles. In chess the Pole rules are off and no Pole ever appears.

mod explain;
mod fen;
pub mod info;
mod legal;
mod magic;
mod makemove;
mod movegen;
mod position;
pub mod tables;

pub use fen::{POLE_START_FEN, START_FEN, chess960_start_fen};
pub use position::{Chess, ChessPosition};

use movegen::TacticalSink;
use tables::{LETTERS, kind};

use crate::rules::bitset::Cell;
use crate::rules::game::{Game, MoveError};
use crate::rules::geometry::Geometry;
use crate::rules::moves::{CastlingSide, Move, MoveFlag, MoveList};
use crate::rules::piece::{Colour, Kind, Piece};
use crate::rules::placement::{self, Chars2};
use crate::rules::position::VariantRules;
use crate::rules::sink::{ListSink, MoveSink};
use crate::rules::variant::Variant;
use crate::rules::zobrist::Zobrist;

impl ChessPosition {
    /// The start position of chess, or of Pole Chess (both Poles in hand, not yet available).
    pub fn startpos(pole_rules: bool) -> Self {
        let fen = if pole_rules {
            POLE_START_FEN
        } else {
            START_FEN
        };
        ChessPosition::from_fen(fen, pole_rules).expect("start FEN is valid")
    }

    /// Dead positions: in chess, positions where no sequence of legal moves can mate (bare
    /// Kings, a single minor piece, Bishops all on one colour); in Pole Chess only bare Kings,
    /// because a Pole lets King and minor piece mate (see the rules file).
    fn insufficient_material(&self) -> bool {
        let b = &self.board;
        let heavy = b.kind(kind::PAWN) | b.kind(kind::ROOK) | b.kind(kind::QUEEN);
        if heavy.any() {
            return false;
        }
        let knights = b.kind(kind::KNIGHT);
        let bishops = b.kind(kind::BISHOP);
        if self.state.pole_rules {
            return knights.is_empty() && bishops.is_empty();
        }
        if knights.is_empty() {
            let on_dark = (bishops & tables::DARK_SQUARES).any();
            let on_light = bishops.and_not(tables::DARK_SQUARES).any();
            return !(on_dark && on_light);
        }
        knights.len() == 1 && bishops.is_empty()
    }
}

impl ChessPosition {
    /// Where the King of castling move `mv` (King takes own Rook) lands.
    fn castled_king_square(&self, mv: Move) -> Cell {
        position::castled_squares(mv.from(), mv.to()).0
    }

    /// Where standard notation sends the King of castling move `mv` (`e1g1`): outside
    /// Chess960 notation, for a King on the e-file castling with a Rook in the corner, as
    /// UCI writes chess castling. `None` when the move is written as the King taking its Rook.
    fn classical_castling_target(&self, mv: Move) -> Option<Cell> {
        let classical = mv.flag() == MoveFlag::Castle
            && !self.state.chess960
            && mv.from() % 8 == 4
            && matches!(mv.to() % 8, 0 | 7);
        classical.then(|| self.castled_king_square(mv))
    }
}

impl VariantRules<1> for Chess {
    type Undo = position::Undo;

    const HOLDINGS: Option<&'static str> = Some("holdings");

    fn variant(&self) -> Variant {
        if self.pole_rules {
            Variant::Pole
        } else {
            Variant::Chess
        }
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
    fn generate_into<S: MoveSink<1>>(p: &ChessPosition, sink: &mut S) {
        p.generate_into(sink);
    }

    fn generate_tactical(p: &ChessPosition, moves: &mut MoveList) {
        let enemies = p
            .board
            .colour(p.side.flip())
            .and_not(p.board.kind(kind::POLE));
        p.generate_into(&mut TacticalSink {
            list: ListSink(moves),
            enemies,
        });
    }

    #[inline(always)]
    fn make(p: &mut ChessPosition, mv: Move) -> position::Undo {
        p.play(mv)
    }

    #[inline(always)]
    fn unmake(p: &mut ChessPosition, mv: Move, undo: &position::Undo) {
        p.take_back(mv, undo);
    }

    fn take_ep(p: &mut ChessPosition) -> u16 {
        p.take_ep()
    }

    fn put_back_ep(p: &mut ChessPosition, ep: u16) {
        p.state.ep = ep as u8;
    }

    #[inline]
    fn in_check(p: &ChessPosition) -> bool {
        p.checkers().any()
    }

    fn kings_in_danger(p: &ChessPosition) -> Vec<Cell> {
        p.king_in_check()
    }

    fn move_rule(_p: &ChessPosition) -> Option<(u32, &'static str)> {
        Some((100, "fifty-move rule"))
    }

    fn insufficient_material(p: &ChessPosition) -> bool {
        p.insufficient_material()
    }

    fn captured_piece(p: &ChessPosition, mv: Move) -> Piece {
        match mv.flag() {
            MoveFlag::EnPassant => Piece::new(kind::PAWN, p.side.flip()),
            MoveFlag::Normal if p.board.piece_at(mv.from()).kind() != kind::POLE => {
                p.board.piece_at(mv.to())
            }
            _ => Piece::NONE,
        }
    }

    #[inline]
    fn may_give_check(p: &ChessPosition, mv: Move) -> bool {
        p.gives_check(mv)
    }

    #[inline]
    fn legal_without_generating(p: &ChessPosition, mv: Move) -> Option<bool> {
        Some(p.is_legal(mv))
    }

    fn king_destination(p: &ChessPosition, mv: Move) -> Option<Cell> {
        (mv.flag() == MoveFlag::Castle).then(|| p.castled_king_square(mv))
    }

    /// By the Rook's file, as in Chess960: the Rook on the King's h-side is `O-O` wherever
    /// the two stand (a King on b1 castling with a Rook on h1 castles short).
    fn castling_side(_p: &ChessPosition, mv: Move) -> Option<CastlingSide> {
        (mv.flag() == MoveFlag::Castle).then(|| {
            if mv.to() % 8 > mv.from() % 8 {
                CastlingSide::Short
            } else {
                CastlingSide::Long
            }
        })
    }

    fn move_name(p: &ChessPosition, mv: Move) -> String {
        let mut to = ChessPosition::square_name(mv.to());
        if let Some(king_to) = p.classical_castling_target(mv) {
            to = ChessPosition::square_name(king_to);
        }
        match (mv.flag(), mv.promotion()) {
            (MoveFlag::Drop, _) => format!("O@{to}"),
            (_, Some(k)) => format!(
                "{}{}{}",
                ChessPosition::square_name(mv.from()),
                to,
                LETTERS[k as usize].to_ascii_lowercase()
            ),
            _ => format!("{}{}", ChessPosition::square_name(mv.from()), to),
        }
    }

    fn is_move_syntax(p: &ChessPosition, s: &str) -> bool {
        // Move names are ASCII; checking first makes the byte slices below char boundaries
        // (`a\u{e9}1` is four bytes, and slicing it at byte 2 would panic).
        if !s.is_ascii() {
            return false;
        }
        let sq_ok = |t: &str| ChessPosition::parse_square(t).is_some();
        if let Some(rest) = s.strip_prefix("O@") {
            return p.state.pole_rules && sq_ok(rest);
        }
        match s.len() {
            4 => sq_ok(&s[..2]) && sq_ok(&s[2..]),
            5 => sq_ok(&s[..2]) && sq_ok(&s[2..4]) && matches!(&s[4..], "q" | "r" | "b" | "n"),
            _ => false,
        }
    }

    /// Castling is read in both ways of writing it whatever the notation: the King taking
    /// its Rook (`e1h1`, Chess960's), and the King's own move (`e1g1`) unless another legal
    /// move has that name (in Chess960 the King may stand beside its destination).
    fn parse_move(p: &ChessPosition, s: &str) -> Result<Move, MoveError> {
        let mut list = MoveList::new();
        p.generate(&mut list);
        let named = |m: Move| p.move_name(m) == s;
        if let Some(&m) = list.iter().find(|&&m| named(m)) {
            return Ok(m);
        }
        let castle = list.iter().find(|&&m| {
            m.flag() == MoveFlag::Castle && {
                let square = ChessPosition::square_name;
                let (from, to) = (m.from(), p.castled_king_square(m));
                s == format!("{}{}", square(from), square(m.to()))
                    || (to != from && s == format!("{}{}", square(from), square(to)))
            }
        });
        match castle {
            Some(&m) => Ok(m),
            None => Err(p.not_a_move(s)),
        }
    }

    fn fen_field_names(&self) -> Vec<&'static str> {
        vec![
            "placement",
            "side to move",
            "castling",
            "en passant",
            "half-move clock",
            "move number",
        ]
    }

    /// A Pole only in Pole Chess.
    fn read_piece(&self, first: char, _rest: &mut Chars2) -> Result<Piece, String> {
        let piece = placement::read_letter(&LETTERS, first)?;
        if piece.kind() == kind::POLE && !self.pole_rules {
            return Err(format!("a Pole ('{first}') exists only in Pole Chess"));
        }
        Ok(piece)
    }

    fn read_fen_state(
        p: &mut ChessPosition,
        holdings: Option<&str>,
        fields: &[&str],
    ) -> Result<(), String> {
        p.read_state(holdings, fields)
    }

    fn holdings(p: &ChessPosition) -> Option<String> {
        p.poles_text()
    }

    fn fen_fields(p: &ChessPosition) -> Vec<String> {
        p.state_fields()
    }

    fn state_key(p: &ChessPosition) -> u64 {
        p.state_key()
    }

    fn drawing(p: &ChessPosition) -> String {
        p.draw()
    }

    const HOLDS: bool = true;

    #[inline(always)]
    fn hand_count(p: &ChessPosition, colour: Colour, kind: Kind) -> usize {
        (kind == kind::POLE && p.state.hand[colour.idx()]) as usize
    }

    fn in_hand(p: &ChessPosition, colour: Colour) -> Vec<(Kind, usize)> {
        if p.state.hand[colour.idx()] {
            vec![(kind::POLE, 1)]
        } else {
            Vec::new()
        }
    }

    fn notes(p: &ChessPosition) -> Vec<String> {
        match (p.state.pole_rules, p.state.poles_available) {
            (true, true) => vec!["Poles are available".into()],
            (true, false) => vec!["Poles become available after the first capture".into()],
            _ => Vec::new(),
        }
    }

    fn explain_illegal(p: &ChessPosition, from: Cell, to: Cell) -> String {
        p.explain(from, to)
    }

    fn invariants(p: &ChessPosition) -> Result<(), String> {
        for c in [Colour::WHITE, Colour::BLACK] {
            if p.board.pieces(kind::KING, c).len() != 1 {
                return Err(format!("{} does not have exactly one King", c.name()));
            }
            let on_board = p.board.pieces(kind::POLE, c).len() as usize;
            let in_hand = p.state.hand[c.idx()] as usize;
            if p.state.pole_rules && on_board + in_hand != 1 {
                return Err(format!(
                    "{} has {on_board} Poles on the board and {in_hand} in hand",
                    c.name()
                ));
            }
            if !p.state.pole_rules && on_board + in_hand != 0 {
                return Err("a Pole in a chess position".into());
            }
        }
        let them = p.side.flip();
        if p.is_attacked(p.king_square(them), p.side, p.board.occupied()) {
            return Err("the side not to move is in check".into());
        }
        Ok(())
    }
}
