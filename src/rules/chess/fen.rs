//! FEN for chess and Pole Chess, and the board drawing of the `d` command.
//!
//! Chess uses standard FEN. Pole Chess appends the Poles' state to the placement in brackets,
//! like the holdings of drop variants: the letters of the Poles in hand (`O` White, `o` Black)
//! and `+` once Poles are available; a Pole on the board is written `O` / `o` in the placement.
//! `...RNBQKBNR[Oo] w KQkq - 0 1` is the start; `[Oo+]` after the first capture; `[o+]` once
//! White has dropped its Pole. A plain chess FEN in Pole Chess means both Poles in hand and not
//! yet available.

use super::position::{Chess, ChessPosition};
use super::tables::{LETTERS, kind, sq};
use crate::rules::bitset::Cell;
use crate::rules::fen as rules_fen;
use crate::rules::game::Game;
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
        Self::read_fen(Chess::new(pole_rules), fen)
    }

    /// The FEN after the placement: at most one Pole each, the Poles' holdings, one King
    /// each and pawns off the first and last ranks, the side to move, the castling rights,
    /// the side not to move not in check, the en passant square.
    pub(super) fn read_state(
        &mut self,
        holdings: Option<&str>,
        fields: &[&str],
    ) -> Result<(), String> {
        for c in [Colour::WHITE, Colour::BLACK] {
            if self.board.pieces(kind::POLE, c).more_than_one() {
                return Err(format!("FEN: {} has more than one Pole", c.name()));
            }
        }
        self.read_poles(holdings)?;
        self.check_kings_and_pawns()?;
        self.side = rules_fen::two_colour_side(fields[1])?;
        self.read_castling(fields.get(2).copied().unwrap_or("-"))?;
        let them = self.side.flip();
        if self.is_attacked(self.king_square(them), self.side, self.board.occupied()) {
            return Err(format!(
                "FEN: the side not to move ({}) is in check",
                them.name()
            ));
        }
        self.read_ep(fields.get(3).copied().unwrap_or("-"))
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
            self.state.hand = [self.state.pole_rules; 2];
            return Ok(());
        };
        if !self.state.pole_rules {
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
                '+' => self.state.poles_available = true,
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
        self.state.hand = in_hand;
        self.state.poles_available |= on_board.iter().any(|&b| b);
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

    /// Castling rights, in any of the three ways of writing them: `KQkq` (the outermost
    /// Rook on that side of the King, X-FEN), or the Rook's file (`HAha`, Shredder-FEN; also
    /// X-FEN's way of naming a Rook that is not the outermost). A right needs the King on its
    /// first rank and a Rook of its colour there on that side; rights without them are
    /// dropped, as a right cannot outlive a moved King or Rook.
    fn read_castling(&mut self, field: &str) -> Result<(), String> {
        if field == "-" {
            return Ok(());
        }
        for ch in field.chars() {
            let lower = ch.to_ascii_lowercase();
            if !matches!(lower, 'k' | 'q' | 'a'..='h') {
                return Err(format!("FEN castling field: unknown letter '{ch}'"));
            }
            let colour = if ch.is_ascii_uppercase() {
                Colour::WHITE
            } else {
                Colour::BLACK
            };
            let rank = if colour == Colour::WHITE { 0 } else { 7 };
            let king = self.king_square(colour);
            if king / 8 != rank {
                continue;
            }
            let king_file = king % 8;
            let rook_on =
                |f: &usize| self.board.piece_at(sq(*f, rank)) == Piece::new(kind::ROOK, colour);
            let file = match lower {
                'k' => (king_file + 1..8).rev().find(rook_on),
                'q' => (0..king_file).find(rook_on),
                f => Some(f as usize - 'a' as usize).filter(|f| f != &king_file && rook_on(f)),
            };
            let Some(file) = file else { continue };
            let kingside = file > king_file;
            let i = usize::from(!kingside) + if colour == Colour::WHITE { 0 } else { 2 };
            if self.state.castling & (1 << i) != 0 {
                return Err(format!(
                    "FEN castling field '{field}': two rights on the same side for {}",
                    colour.name()
                ));
            }
            self.state.castling |= 1 << i;
            self.state.castle.add(i, king, sq(file, rank));
        }
        Ok(())
    }

    /// The castling field: Shredder-FEN (Rook files) in Chess960 notation, else `KQkq`,
    /// with a Rook's file where the Rook is not the outermost one on its side (X-FEN).
    fn castling_field(&self) -> String {
        let mut s = String::new();
        for (i, letter) in [(0, 'K'), (1, 'Q'), (2, 'k'), (3, 'q')] {
            if self.state.castling & (1 << i) == 0 {
                continue;
            }
            let rook = self.state.castle.rook[i] as Cell;
            let (file, rank) = (rook % 8, rook / 8);
            let colour = if i < 2 { Colour::WHITE } else { Colour::BLACK };
            let outer = if i % 2 == 0 { file + 1..8 } else { 0..file };
            let outermost = !outer
                .into_iter()
                .any(|f| self.board.piece_at(sq(f, rank)) == Piece::new(kind::ROOK, colour));
            let file_letter = (b'a' + file as u8) as char;
            s.push(if self.state.chess960 || !outermost {
                if i < 2 {
                    file_letter.to_ascii_uppercase()
                } else {
                    file_letter
                }
            } else {
                letter
            });
        }
        if s.is_empty() { "-".into() } else { s }
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
                self.state.ep = e as u8;
            }
        }
        Ok(())
    }

    /// The Poles' holdings in Pole Chess: the Poles in hand, `+` once they are available.
    pub(super) fn poles_text(&self) -> Option<String> {
        if !self.state.pole_rules {
            return None;
        }
        let mut s = String::new();
        if self.state.hand[0] {
            s.push('O');
        }
        if self.state.hand[1] {
            s.push('o');
        }
        if self.state.poles_available {
            s.push('+');
        }
        Some(s)
    }

    /// The castling and en passant fields.
    pub(super) fn state_fields(&self) -> Vec<String> {
        let ep = match self.ep_square() {
            Some(e) => square_name(e),
            None => "-".into(),
        };
        vec![self.castling_field(), ep]
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
                    placement::letter(&LETTERS, piece)
                };
                s.push_str(&format!(" | {c}"));
            }
            s.push_str(&format!(" | {}\n", y + 1));
            s.push_str(line);
        }
        s.push_str("   a   b   c   d   e   f   g   h\n\n");
        s.push_str(&format!("Fen: {}\n", self.fen()));
        s.push_str(&format!("Key: {:016X}\n", self.board.key()));
        let checkers: Vec<String> = self.checkers().iter().map(square_name).collect();
        s.push_str(&format!("Checkers: {}", checkers.join(" ")));
        if self.state.pole_rules {
            let hand: Vec<&str> = [Colour::WHITE, Colour::BLACK]
                .into_iter()
                .filter(|c| self.state.hand[c.idx()])
                .map(|c| c.name())
                .collect();
            s.push_str(&format!(
                "\nPoles available: {}; in hand: {}",
                if self.state.poles_available {
                    "yes"
                } else {
                    "no"
                },
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

/// The start position of Chess960 number `n` (0..960, Scharnagl's numbering; 518 is the
/// chess start): the bishops on opposite colours, the King between the Rooks, Black mirroring
/// White; castling rights written `KQkq`, which name the only Rook on each side of the King.
pub fn chess960_start_fen(n: usize) -> String {
    assert!(n < 960, "Chess960 positions are numbered 0..960");
    let mut rank: [Option<char>; 8] = [None; 8];
    let mut n = n;
    rank[2 * (n % 4) + 1] = Some('B');
    n /= 4;
    rank[2 * (n % 4)] = Some('B');
    n /= 4;
    let mut place = |letter: char, skip: usize| {
        let f = (0..8)
            .filter(|&f| rank[f].is_none())
            .nth(skip)
            .expect("a free file");
        rank[f] = Some(letter);
    };
    place('Q', n % 6);
    n /= 6;
    // The ten ways of putting two Knights on five free files, in Scharnagl's order.
    const KNIGHTS: [(usize, usize); 10] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let (a, b) = KNIGHTS[n];
    place('N', b);
    place('N', a);
    for letter in ['R', 'K', 'R'] {
        place(letter, 0);
    }
    let white: String = rank.iter().map(|c| c.expect("every file filled")).collect();
    format!(
        "{}/pppppppp/8/8/8/8/PPPPPPPP/{white} w KQkq - 0 1",
        white.to_ascii_lowercase()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::game::Game;

    #[test]
    fn chess960_numbering_and_rules() {
        assert_eq!(chess960_start_fen(518), START_FEN);
        assert!(chess960_start_fen(0).starts_with("bbqnnrkr/"));
        assert!(chess960_start_fen(959).starts_with("rkrnnqbb/"));
        let mut seen = std::collections::HashSet::new();
        for n in 0..960 {
            let fen = chess960_start_fen(n);
            let first = fen.split(' ').next().unwrap().rsplit('/').next().unwrap();
            let at = |c: char| first.find(c).unwrap();
            let (r1, k, r2) = (at('R'), at('K'), first.rfind('R').unwrap());
            assert!(r1 < k && k < r2, "{fen}");
            assert_ne!(at('B') % 2, first.rfind('B').unwrap() % 2, "{fen}");
            let p = ChessPosition::from_fen(&fen, false).unwrap();
            assert_eq!(p.state.castling, 0xf, "{fen}");
            assert!(p.check_invariants().is_ok(), "{fen}");
            assert!(seen.insert(first.to_string()));
        }
    }

    #[test]
    fn castling_fields_x_fen_and_shredder() {
        // Shredder-FEN in, X-FEN (KQkq) out outside Chess960 notation, Rook files in it.
        let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
        let mut p = ChessPosition::from_fen(fen, false).unwrap();
        assert_eq!(p.fen(), fen.replace("HFhf", "KQkq"));
        p.set_chess960(true);
        assert_eq!(p.fen(), fen);
        // A right with a Rook that is not the outermost is written with its file.
        let inner = "4k3/8/8/8/8/8/8/4KR1R w F - 0 1";
        assert_eq!(ChessPosition::from_fen(inner, false).unwrap().fen(), inner);
        // `K` names the outermost Rook.
        let p = ChessPosition::from_fen("4k3/8/8/8/8/8/8/4KR1R w K - 0 1", false).unwrap();
        assert_eq!(p.state.castle.rook[0] as usize, sq(7, 0));
        // Two rights on one side, and nonsense, are refused.
        assert!(ChessPosition::from_fen("4k3/8/8/8/8/8/8/4KR1R w FH - 0 1", false).is_err());
        assert!(ChessPosition::from_fen("4k3/8/8/8/8/8/8/4K2R w X - 0 1", false).is_err());
    }

    #[test]
    fn castling_names_in_both_notations() {
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        let mut p = ChessPosition::from_fen(fen, false).unwrap();
        let oo = p.parse_move("e1g1").unwrap();
        assert_eq!(p.move_name(oo), "e1g1");
        assert_eq!(p.parse_move("e1h1"), Ok(oo));
        p.set_chess960(true);
        assert_eq!(p.move_name(oo), "e1h1");
        assert_eq!(p.parse_move("e1g1"), Ok(oo));
        // Chess960: King b1, Rook a1; b1c1 is a King step, so long castling is only `b1a1`.
        let fen = "4k2r/8/8/8/8/8/8/RK6 w A - 0 1";
        let p = ChessPosition::from_fen(fen, false).unwrap();
        let castle = p.parse_move("b1a1").unwrap();
        assert_eq!(castle.flag(), crate::rules::moves::MoveFlag::Castle);
        assert_ne!(p.parse_move("b1c1").unwrap(), castle);
        assert_eq!(p.king_destination(castle), Some(sq(2, 0)));
        let mut q = p.clone();
        q.make_move(castle);
        assert_eq!(q.fen(), "4k2r/8/8/8/8/8/8/2KR4 b - - 1 1");
        q.unmake_move();
        assert!(q == p);
    }
}
