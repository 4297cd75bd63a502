//! FEN for chess and Pole Chess, and the board drawing of the `d` command.
//!
//! Chess uses standard FEN. Pole Chess appends the Poles' state to the placement in brackets,
//! like the holdings of drop variants: the letters of the Poles in hand (`O` White, `o` Black)
//! and `+` once Poles are available; a Pole on the board is written `O` / `o` in the placement.
//! `...RNBQKBNR[Oo] w KQkq - 0 1` is the start; `[Oo+]` after the first capture; `[o+]` once
//! White has dropped its Pole. A plain chess FEN in Pole Chess means both Poles in hand and not
//! yet available.

use super::position::ChessPosition;
use super::tables::{BLACK_OO, BLACK_OOO, LETTERS, WHITE_OO, WHITE_OOO, kind, sq};
use crate::rules::bitset::Cell;
use crate::rules::clocks::Clocks;
use crate::rules::fen as rules_fen;
use crate::rules::piece::{Colour, Piece};
use crate::rules::placement;

/// The standard start position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
/// The Pole Chess start position.
pub const POLE_START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Oo] w KQkq - 0 1";

fn square_name(c: Cell) -> String {
    format!("{}{}", (b'a' + (c % 8) as u8) as char, c / 8 + 1)
}

fn parse_square(s: &str) -> Option<Cell> {
    let b = s.as_bytes();
    if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
        return None;
    }
    Some(sq((b[0] - b'a') as usize, (b[1] - b'1') as usize))
}

impl ChessPosition {
    /// Reads a FEN (see the module documentation for Pole Chess).
    pub fn from_fen(fen: &str, pole_rules: bool) -> Result<Self, String> {
        let fields = rules_fen::fields(
            fen,
            &[
                "placement",
                "side to move",
                "castling",
                "en passant",
                "half-move clock",
                "move number",
            ],
        )?;
        let (placement_text, holdings) = rules_fen::bracketed(fields[0], "holdings")?;
        let mut p = ChessPosition::empty(pole_rules);
        p.read_placement(placement_text)?;
        p.read_poles(holdings)?;
        p.check_kings_and_pawns()?;
        p.side = rules_fen::two_colour_side(fields[1])?;
        p.read_castling(fields.get(2).copied().unwrap_or("-"))?;
        let them = p.side.flip();
        if p.is_attacked(p.king_square(them), p.side, p.board.occupied()) {
            return Err(format!(
                "FEN: the side not to move ({}) is in check",
                them.name()
            ));
        }
        p.read_ep(fields.get(3).copied().unwrap_or("-"))?;
        p.clocks = Clocks::read(fields.get(4).copied(), fields.get(5).copied())?;
        p.board.set_key(p.key_from_scratch());
        Ok(p)
    }

    /// The placement; a Pole only in Pole Chess, at most one per side.
    fn read_placement(&mut self, text: &str) -> Result<(), String> {
        let pole_rules = self.pole_rules;
        let pieces = placement::read(text, &Self::t().geo, |ch, _| {
            let piece = placement::read_letter(&LETTERS, ch)?;
            if piece.kind() == kind::POLE && !pole_rules {
                return Err(format!("a Pole ('{ch}') exists only in Pole Chess"));
            }
            Ok(piece)
        })?;
        for (cell, piece) in pieces {
            self.board.put(cell, piece);
        }
        for c in [Colour::WHITE, Colour::BLACK] {
            if self.board.pieces(kind::POLE, c).more_than_one() {
                return Err(format!("FEN: {} has more than one Pole", c.name()));
            }
        }
        Ok(())
    }

    /// The Poles' state from the holdings (`Oo+`): in hand or on the board, never both or
    /// neither; available after the first capture, or once a Pole is on the board.
    fn read_poles(&mut self, holdings: Option<&str>) -> Result<(), String> {
        let on_board =
            [Colour::WHITE, Colour::BLACK].map(|c| self.board.pieces(kind::POLE, c).any());
        let Some(h) = holdings else {
            if on_board.iter().any(|&b| b) {
                return Err(
                    "FEN: a Pole on the board needs the holdings field, e.g. '[o+]'".into(),
                );
            }
            self.hand = [self.pole_rules; 2];
            return Ok(());
        };
        if !self.pole_rules {
            return Err("FEN holdings ('[...]') exist only in Pole Chess".into());
        }
        let mut in_hand = [false; 2];
        for ch in h.chars() {
            match ch {
                'O' | 'o' => {
                    let c = usize::from(ch == 'o');
                    if in_hand[c] {
                        return Err(format!(
                            "FEN holdings: '{ch}' twice (each side has one Pole)"
                        ));
                    }
                    in_hand[c] = true;
                }
                '+' => self.poles_available = true,
                '-' => {}
                _ => {
                    return Err(format!(
                        "FEN holdings: unknown letter '{ch}' (only O, o, +)"
                    ));
                }
            }
        }
        for c in 0..2 {
            let name = Colour(c as u8).name();
            if in_hand[c] && on_board[c] {
                return Err(format!(
                    "FEN: {name}'s Pole is both in hand and on the board"
                ));
            }
            if !in_hand[c] && !on_board[c] {
                return Err(format!(
                    "FEN: {name}'s Pole is neither in hand nor on the board"
                ));
            }
        }
        self.hand = in_hand;
        self.poles_available |= on_board.iter().any(|&b| b);
        Ok(())
    }

    /// One King each; no pawn on the first or last rank.
    fn check_kings_and_pawns(&self) -> Result<(), String> {
        for c in [Colour::WHITE, Colour::BLACK] {
            let n = self.board.pieces(kind::KING, c).len();
            if n != 1 {
                return Err(format!("FEN: {} has {n} Kings, expected 1", c.name()));
            }
        }
        match self
            .board
            .kind(kind::PAWN)
            .iter()
            .find(|s| s / 8 == 0 || s / 8 == 7)
        {
            Some(s) => Err(format!(
                "FEN: pawn on {}, a first or last rank",
                square_name(s)
            )),
            None => Ok(()),
        }
    }

    /// Castling rights; those whose King or Rook is not at home are dropped.
    fn read_castling(&mut self, field: &str) -> Result<(), String> {
        if field == "-" {
            return Ok(());
        }
        for ch in field.chars() {
            let (bit, king, rook, colour) = match ch {
                'K' => (WHITE_OO, sq(4, 0), sq(7, 0), Colour::WHITE),
                'Q' => (WHITE_OOO, sq(4, 0), sq(0, 0), Colour::WHITE),
                'k' => (BLACK_OO, sq(4, 7), sq(7, 7), Colour::BLACK),
                'q' => (BLACK_OOO, sq(4, 7), sq(0, 7), Colour::BLACK),
                _ => return Err(format!("FEN castling field: unknown letter '{ch}'")),
            };
            if self.board.piece_at(king) == Piece::new(kind::KING, colour)
                && self.board.piece_at(rook) == Piece::new(kind::ROOK, colour)
            {
                self.castling |= bit;
            }
        }
        Ok(())
    }

    /// The en passant square: on the right rank, and kept only when a legal en passant
    /// capture exists.
    fn read_ep(&mut self, field: &str) -> Result<(), String> {
        if field == "-" {
            return Ok(());
        }
        let Some(e) = parse_square(field) else {
            return Err(format!("FEN en passant field: '{field}' is not a square"));
        };
        let them = self.side.flip();
        let (ep_rank, victim) = if self.side == Colour::WHITE {
            (5, e.wrapping_sub(8))
        } else {
            (2, e + 8)
        };
        if e / 8 != ep_rank {
            return Err(format!(
                "FEN en passant square {field} is on the wrong rank for the side to move"
            ));
        }
        if self.board.piece_at(victim) == Piece::new(kind::PAWN, them)
            && self.board.piece_at(e).is_none()
        {
            let capturers = super::tables::TABLES.pawn_attacks[them.idx()][e]
                & self.board.pieces(kind::PAWN, self.side);
            if capturers
                .iter()
                .any(|f| self.en_passant_is_safe(f, e, victim))
            {
                self.ep = e as u8;
            }
        }
        Ok(())
    }

    fn piece_letter(piece: Piece) -> char {
        let l = LETTERS[piece.kind() as usize];
        if piece.colour() == Colour::WHITE {
            l
        } else {
            l.to_ascii_lowercase()
        }
    }

    /// The position as FEN.
    pub fn to_fen(&self) -> String {
        let mut s = String::new();
        for y in (0..8).rev() {
            let mut empty = 0;
            for x in 0..8 {
                let piece = self.board.piece_at(sq(x, y));
                if piece.is_none() {
                    empty += 1;
                } else {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push(Self::piece_letter(piece));
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            if y > 0 {
                s.push('/');
            }
        }
        if self.pole_rules {
            s.push('[');
            if self.hand[0] {
                s.push('O');
            }
            if self.hand[1] {
                s.push('o');
            }
            if self.poles_available {
                s.push('+');
            }
            s.push(']');
        }
        s.push(' ');
        s.push(self.side.letter());
        s.push(' ');
        if self.castling == 0 {
            s.push('-');
        }
        for (bit, ch) in [
            (WHITE_OO, 'K'),
            (WHITE_OOO, 'Q'),
            (BLACK_OO, 'k'),
            (BLACK_OOO, 'q'),
        ] {
            if self.castling & bit != 0 {
                s.push(ch);
            }
        }
        s.push(' ');
        match self.ep_square() {
            Some(e) => s.push_str(&square_name(e)),
            None => s.push('-'),
        }
        s.push(' ');
        s.push_str(&self.clocks.fen());
        s
    }

    /// The board drawing for `d`.
    pub fn draw(&self) -> String {
        let mut s = String::new();
        let line = " +---+---+---+---+---+---+---+---+\n";
        s.push_str(line);
        for y in (0..8).rev() {
            for x in 0..8 {
                let piece = self.board.piece_at(sq(x, y));
                let c = if piece.is_none() {
                    ' '
                } else {
                    Self::piece_letter(piece)
                };
                s.push_str(&format!(" | {c}"));
            }
            s.push_str(&format!(" | {}\n", y + 1));
            s.push_str(line);
        }
        s.push_str("   a   b   c   d   e   f   g   h\n\n");
        s.push_str(&format!("Fen: {}\n", self.to_fen()));
        s.push_str(&format!("Key: {:016X}\n", self.board.key()));
        let checkers: Vec<String> = self.checkers().iter().map(square_name).collect();
        s.push_str(&format!("Checkers: {}", checkers.join(" ")));
        if self.pole_rules {
            let hand: Vec<&str> = [Colour::WHITE, Colour::BLACK]
                .into_iter()
                .filter(|c| self.hand[c.idx()])
                .map(|c| c.name())
                .collect();
            s.push_str(&format!(
                "\nPoles available: {}; in hand: {}",
                if self.poles_available { "yes" } else { "no" },
                if hand.is_empty() {
                    "none".to_string()
                } else {
                    hand.join(", ")
                }
            ));
        }
        s
    }

    /// A square's name (`e4`).
    pub fn square_name(c: Cell) -> String {
        square_name(c)
    }

    /// Parses a square name (`e4`).
    pub fn parse_square(s: &str) -> Option<Cell> {
        parse_square(s)
    }
}
