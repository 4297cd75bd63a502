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
pub use position::{BoardChange, ChessPosition};

use movegen::TacticalSink;
use tables::{LETTERS, kind};

use crate::rules::bitset::Cell;
use crate::rules::clocks::NullMove;
use crate::rules::game::{Game, GameEnd, mate_or_stalemate};
use crate::rules::moves::{CastlingSide, Move, MoveFlag, MoveList};
use crate::rules::piece::{Colour, Kind, Piece};
use crate::rules::sink::{CountSink, ListSink};
use crate::rules::variant::Variant;

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
        if self.pole_rules {
            return knights.is_empty() && bishops.is_empty();
        }
        if knights.is_empty() {
            const DARK: u64 = 0xAA55_AA55_AA55_AA55;
            let on_dark = bishops.0[0] & DARK != 0;
            let on_light = bishops.0[0] & !DARK != 0;
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
            && !self.chess960
            && mv.from() % 8 == 4
            && matches!(mv.to() % 8, 0 | 7);
        classical.then(|| self.castled_king_square(mv))
    }
}

impl Game for ChessPosition {
    fn variant(&self) -> Variant {
        if self.pole_rules {
            Variant::Pole
        } else {
            Variant::Chess
        }
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

    fn generate_tactical(&self, moves: &mut MoveList) {
        let enemies = self
            .board
            .colour(self.side.flip())
            .and_not(self.board.kind(kind::POLE));
        self.generate_into(&mut TacticalSink {
            list: ListSink(moves),
            enemies,
        });
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
        self.checkers().any()
    }

    fn may_give_check(&self, mv: Move) -> bool {
        self.gives_check(mv)
    }

    fn legal_without_generating(&self, mv: Move) -> Option<bool> {
        Some(self.is_legal(mv))
    }

    fn fen(&self) -> String {
        self.to_fen()
    }

    fn move_name(&self, mv: Move) -> String {
        let mut to = ChessPosition::square_name(mv.to());
        if let Some(king_to) = self.classical_castling_target(mv) {
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

    fn is_move_syntax(&self, s: &str) -> bool {
        // Move names are ASCII; checking first makes the byte slices below char boundaries
        // (`a\u{e9}1` is four bytes, and slicing it at byte 2 would panic).
        if !s.is_ascii() {
            return false;
        }
        let sq_ok = |t: &str| ChessPosition::parse_square(t).is_some();
        if let Some(rest) = s.strip_prefix("O@") {
            return self.pole_rules && sq_ok(rest);
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
    fn parse_move(&self, s: &str) -> Result<Move, crate::rules::game::MoveError> {
        let mut list = MoveList::new();
        self.generate(&mut list);
        let named = |m: Move| self.move_name(m) == s;
        if let Some(&m) = list.iter().find(|&&m| named(m)) {
            return Ok(m);
        }
        let castle = list.iter().find(|&&m| {
            m.flag() == MoveFlag::Castle && {
                let square = ChessPosition::square_name;
                let (from, to) = (m.from(), self.castled_king_square(m));
                s == format!("{}{}", square(from), square(m.to()))
                    || (to != from && s == format!("{}{}", square(from), square(to)))
            }
        });
        match castle {
            Some(&m) => Ok(m),
            None => Err(self.not_a_move(s)),
        }
    }

    fn king_destination(&self, mv: Move) -> Option<Cell> {
        (mv.flag() == MoveFlag::Castle).then(|| self.castled_king_square(mv))
    }

    /// By the Rook's file, as in Chess960: the Rook on the King's h-side is `O-O` wherever
    /// the two stand (a King on b1 castling with a Rook on h1 castles short).
    fn castling_side(&self, mv: Move) -> Option<CastlingSide> {
        (mv.flag() == MoveFlag::Castle).then(|| {
            if mv.to() % 8 > mv.from() % 8 {
                CastlingSide::Short
            } else {
                CastlingSide::Long
            }
        })
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
        } else if self.insufficient_material() {
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
            MoveFlag::Normal if self.board.piece_at(mv.from()).kind() != kind::POLE => {
                self.board.piece_at(mv.to())
            }
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
        ChessPosition::square_name(cell)
    }

    fn in_hand(&self, colour: Colour) -> Vec<(Kind, usize)> {
        if self.hand[colour.idx()] {
            vec![(kind::POLE, 1)]
        } else {
            Vec::new()
        }
    }

    fn notes(&self) -> Vec<String> {
        match (self.pole_rules, self.poles_available) {
            (true, true) => vec!["Poles are available".into()],
            (true, false) => vec!["Poles become available after the first capture".into()],
            _ => Vec::new(),
        }
    }

    fn kings_in_danger(&self) -> Vec<Cell> {
        self.king_in_check()
    }

    fn explain_illegal(&self, from: Cell, to: Cell) -> String {
        self.explain(from, to)
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.board.check(64, self.key_from_scratch())?;
        for c in [Colour::WHITE, Colour::BLACK] {
            if self.board.pieces(kind::KING, c).len() != 1 {
                return Err(format!("{} does not have exactly one King", c.name()));
            }
            let on_board = self.board.pieces(kind::POLE, c).len() as usize;
            let in_hand = self.hand[c.idx()] as usize;
            if self.pole_rules && on_board + in_hand != 1 {
                return Err(format!(
                    "{} has {on_board} Poles on the board and {in_hand} in hand",
                    c.name()
                ));
            }
            if !self.pole_rules && on_board + in_hand != 0 {
                return Err("a Pole in a chess position".into());
            }
        }
        let them = self.side.flip();
        if self.is_attacked(self.king_square(them), self.side, self.board.occupied()) {
            return Err("the side not to move is in check".into());
        }
        Ok(())
    }
}
