//! FEN for chess and Pole Chess, and the board drawing of the `d` command.
//!
//! Chess uses standard FEN. Pole Chess appends the Poles' state to the placement in brackets,
//! like the holdings of drop variants: the letters of the Poles in hand (`O` White, `o` Black)
//! and `+` once Poles are available; a Pole on the board is written `O` / `o` in the placement.
//! `...RNBQKBNR[Oo] w KQkq - 0 1` is the start; `[Oo+]` after the first capture; `[o+]` once
//! White has dropped its Pole. A plain chess FEN in Pole Chess means both Poles in hand and not
//! yet available.

use super::position::{ChessPosition, NO_EP};
use super::tables::{
    BLACK_OO, BLACK_OOO, LETTERS, WHITE_OO, WHITE_OOO, Z_CASTLING, Z_EP, Z_HAND, Z_POLES, kind, sq,
};
use crate::rules::bitset::Cell;
use crate::rules::clocks::Clocks;
use crate::rules::piece::{Colour, Piece};

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
        let mut p = ChessPosition::empty(pole_rules);
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() < 2 {
            return Err(format!(
                "FEN needs at least placement and side to move, got {} field(s)",
                fields.len()
            ));
        }
        if fields.len() > 6 {
            return Err(format!(
                "FEN has {} fields, at most 6 are allowed",
                fields.len()
            ));
        }
        let (placement, holdings) = match fields[0].find('[') {
            Some(i) => {
                if !fields[0].ends_with(']') {
                    return Err("FEN holdings must end with ']'".into());
                }
                (
                    &fields[0][..i],
                    Some(&fields[0][i + 1..fields[0].len() - 1]),
                )
            }
            None => (fields[0], None),
        };
        let ranks: Vec<&str> = placement.split('/').collect();
        if ranks.len() != 8 {
            return Err(format!(
                "FEN placement has {} ranks, expected 8",
                ranks.len()
            ));
        }
        let mut poles_on_board = [false; 2];
        for (i, rank_text) in ranks.iter().enumerate() {
            let y = 7 - i;
            let mut x = 0usize;
            for ch in rank_text.chars() {
                if let Some(d) = ch.to_digit(10) {
                    if d == 0 || d > 8 {
                        return Err(format!("FEN rank {}: bad digit '{ch}'", y + 1));
                    }
                    x += d as usize;
                } else {
                    let upper = ch.to_ascii_uppercase();
                    let Some(k) = LETTERS.iter().position(|&l| l == upper) else {
                        return Err(format!("FEN rank {}: unknown piece '{ch}'", y + 1));
                    };
                    let colour = if ch.is_ascii_uppercase() {
                        Colour::WHITE
                    } else {
                        Colour::BLACK
                    };
                    if k as u8 == kind::POLE {
                        if !pole_rules {
                            return Err(format!(
                                "FEN rank {}: a Pole ('{ch}') exists only in Pole Chess",
                                y + 1
                            ));
                        }
                        if poles_on_board[colour.idx()] {
                            return Err(format!("FEN: {} has more than one Pole", colour.name()));
                        }
                        poles_on_board[colour.idx()] = true;
                    }
                    if x >= 8 {
                        return Err(format!("FEN rank {} is longer than 8 squares", y + 1));
                    }
                    p.board.put(sq(x, y), Piece::new(k as u8, colour));
                    x += 1;
                }
                if x > 8 {
                    return Err(format!("FEN rank {} is longer than 8 squares", y + 1));
                }
            }
            if x != 8 {
                return Err(format!("FEN rank {} has {x} squares, expected 8", y + 1));
            }
        }
        // Poles: hand and availability.
        match holdings {
            Some(h) => {
                if !pole_rules {
                    return Err("FEN holdings ('[...]') exist only in Pole Chess".into());
                }
                let mut in_hand = [false; 2];
                for ch in h.chars() {
                    match ch {
                        'O' | 'o' => {
                            let c = if ch == 'O' { 0 } else { 1 };
                            if in_hand[c] {
                                return Err(format!(
                                    "FEN holdings: '{ch}' twice (each side has one Pole)"
                                ));
                            }
                            in_hand[c] = true;
                        }
                        '+' => p.poles_available = true,
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
                    if in_hand[c] && poles_on_board[c] {
                        return Err(format!(
                            "FEN: {name}'s Pole is both in hand and on the board"
                        ));
                    }
                    if !in_hand[c] && !poles_on_board[c] {
                        return Err(format!(
                            "FEN: {name}'s Pole is neither in hand nor on the board"
                        ));
                    }
                }
                p.hand = in_hand;
            }
            None => {
                if poles_on_board.iter().any(|&b| b) {
                    return Err(
                        "FEN: a Pole on the board needs the holdings field, e.g. '[o+]'".into(),
                    );
                }
                p.hand = [pole_rules; 2];
            }
        }
        if poles_on_board.iter().any(|&b| b) {
            p.poles_available = true;
        }
        // Kings and pawns.
        for c in [Colour::WHITE, Colour::BLACK] {
            let n = p.board.pieces(kind::KING, c).len();
            if n != 1 {
                return Err(format!("FEN: {} has {n} Kings, expected 1", c.name()));
            }
        }
        for s in p.board.kind(kind::PAWN) {
            if s / 8 == 0 || s / 8 == 7 {
                return Err(format!(
                    "FEN: pawn on {}, a first or last rank",
                    square_name(s)
                ));
            }
        }
        p.side = match fields[1] {
            "w" => Colour::WHITE,
            "b" => Colour::BLACK,
            other => {
                return Err(format!(
                    "FEN side to move must be 'w' or 'b', got '{other}'"
                ));
            }
        };
        // Castling: rights whose King or Rook is not at home are dropped.
        let castling = fields.get(2).copied().unwrap_or("-");
        if castling != "-" {
            for ch in castling.chars() {
                let (bit, king, rook, colour) = match ch {
                    'K' => (WHITE_OO, sq(4, 0), sq(7, 0), Colour::WHITE),
                    'Q' => (WHITE_OOO, sq(4, 0), sq(0, 0), Colour::WHITE),
                    'k' => (BLACK_OO, sq(4, 7), sq(7, 7), Colour::BLACK),
                    'q' => (BLACK_OOO, sq(4, 7), sq(0, 7), Colour::BLACK),
                    _ => return Err(format!("FEN castling field: unknown letter '{ch}'")),
                };
                if p.board.piece_at(king) == Piece::new(kind::KING, colour)
                    && p.board.piece_at(rook) == Piece::new(kind::ROOK, colour)
                {
                    p.castling |= bit;
                }
            }
        }
        // The side not to move must not be in check.
        let them = p.side.flip();
        if p.is_attacked(p.king_square(them), p.side, p.board.occupied()) {
            return Err(format!(
                "FEN: the side not to move ({}) is in check",
                them.name()
            ));
        }
        // En passant: kept only when a legal en passant capture exists.
        let ep = fields.get(3).copied().unwrap_or("-");
        if ep != "-" {
            let Some(e) = parse_square(ep) else {
                return Err(format!("FEN en passant field: '{ep}' is not a square"));
            };
            let (ep_rank, victim) = if p.side == Colour::WHITE {
                (5, e.wrapping_sub(8))
            } else {
                (2, e + 8)
            };
            if e / 8 != ep_rank {
                return Err(format!(
                    "FEN en passant square {ep} is on the wrong rank for the side to move"
                ));
            }
            if p.board.piece_at(victim) == Piece::new(kind::PAWN, them)
                && p.board.piece_at(e).is_none()
            {
                let capturers = super::tables::TABLES.pawn_attacks[them.idx()][e]
                    & p.board.pieces(kind::PAWN, p.side);
                if capturers.iter().any(|f| p.en_passant_is_safe(f, e, victim)) {
                    p.ep = e as u8;
                }
            }
        }
        p.clocks = Clocks::read(fields.get(4).copied(), fields.get(5).copied())?;
        // The key: placement is already in; add the state.
        let z = &Self::t().zobrist;
        p.board
            .toggle_key(z.side[p.side.idx()] ^ z.extra[Z_CASTLING + p.castling as usize]);
        if p.ep != NO_EP {
            p.board.toggle_key(z.extra[Z_EP + (p.ep % 8) as usize]);
        }
        for c in 0..2 {
            if p.hand[c] {
                p.board.toggle_key(z.extra[Z_HAND + c]);
            }
        }
        if p.poles_available {
            p.board.toggle_key(z.extra[Z_POLES]);
        }
        Ok(p)
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
