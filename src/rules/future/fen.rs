//! FEN of Chess – The Future Generation (see `protocol.md`) and the board drawing of `d`.
//!
//! `<placement> <side> <castling> <en passant> <unlocked> <eliminated> <halfmove> <fullmove>`:
//! four levels `A|B|C|D`, ranks 8 to 1 separated by `/`, a piece as its colour letter and its
//! kind letter (`wK`, `gP`, `sC` for a crowned Knight), digits for empty cells.
//!
//! Reading is strict: anything that does not describe a position the rules can reach in
//! their own terms (a missing King, a pawn on an edge it can never stand on, a locked colour
//! beyond its gate, a castling right without its King and Rook at home, an en passant cell
//! no double step passes over) is an error naming what and where. An en passant cell that the
//! colour to move cannot use is dropped, so that equal positions have equal FENs and keys.

use super::position::{FutureGeneration, FuturePosition};
use super::tables::{COLOURS, LETTERS, castle_bit, cell, kind};
use crate::rules::game::Game;
use crate::rules::piece::{Colour, Piece};
use crate::rules::placement;

/// The start position.
pub const START_FEN: &str = "bRbNbBbQbKbBbNbR/bPbPbPbPbPbPbPbP/8/8/8/8/wPwPwPwPwPwPwPwP/wRwNwBwQwKwBwNwR|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|sRsP4gPgR/sNsP4gPgN/sBsP4gPgB/sQsP4gPgQ/sKsP4gPgK/sBsP4gPgB/sNsP4gPgN/sRsP4gPgR w wKQbKQgKQsKQ - - - 0 1";

const LEVEL_LETTERS: [char; 4] = ['A', 'B', 'C', 'D'];

/// Reads a set of colour letters (`-` for none), each at most once.
fn parse_colours(field: &str, what: &str) -> Result<u8, String> {
    if field == "-" {
        return Ok(0);
    }
    let mut bits = 0u8;
    for ch in field.chars() {
        let Some(c) = Colour::from_letter(ch) else {
            return Err(format!(
                "FEN {what} field: '{ch}' is not a colour letter (w, b, g, s)"
            ));
        };
        if bits >> c.0 & 1 != 0 {
            return Err(format!("FEN {what} field: '{ch}' appears twice"));
        }
        bits |= 1 << c.0;
    }
    Ok(bits)
}

fn colours_text(bits: u8) -> String {
    let s: String = COLOURS
        .iter()
        .filter(|c| bits >> c.0 & 1 != 0)
        .map(|c| c.letter())
        .collect();
    if s.is_empty() { "-".into() } else { s }
}

fn piece_token(p: Piece) -> String {
    format!("{}{}", p.colour().letter(), LETTERS[p.kind() as usize])
}

/// Reads a piece of the placement: its colour letter, then its kind letter (`wK`).
pub(super) fn read_piece(ch: char, rest: &mut placement::Chars2) -> Result<Piece, String> {
    let Some(colour) = Colour::from_letter(ch) else {
        return Err(format!(
            "'{ch}' is neither a digit nor a colour letter (w, b, g, s)"
        ));
    };
    let Some(letter) = rest.next() else {
        return Err(format!("colour '{ch}' without a piece letter"));
    };
    match LETTERS.iter().position(|&c| c == letter) {
        Some(k) => Ok(Piece::new(k as u8, colour)),
        None => Err(format!(
            "unknown piece '{ch}{letter}' (letters K Q R B N C P)"
        )),
    }
}

/// Writes a piece of the placement (`wK`).
pub(super) fn write_piece(p: Piece, out: &mut String) {
    out.push(p.colour().letter());
    out.push(LETTERS[p.kind() as usize]);
}

impl FuturePosition {
    /// Reads a FEN.
    pub fn from_fen(fen: &str) -> Result<Self, String> {
        Self::read_fen(FutureGeneration::default(), fen)
    }

    /// The FEN's side to move and its unlocked and eliminated colours (read before the
    /// clocks).
    pub(super) fn read_state(&mut self, fields: &[&str]) -> Result<(), String> {
        let mut side_chars = fields[1].chars();
        self.side = match (
            side_chars.next().and_then(Colour::from_letter),
            side_chars.next(),
        ) {
            (Some(c), None) => c,
            _ => {
                return Err(format!(
                    "FEN side to move must be 'w', 'b', 'g' or 's', got '{}'",
                    fields[1]
                ));
            }
        };
        self.state.unlocked = parse_colours(fields.get(4).copied().unwrap_or("-"), "unlocked")?;
        self.state.eliminated = parse_colours(fields.get(5).copied().unwrap_or("-"), "eliminated")?;
        Ok(())
    }

    /// The checks after the clocks: Kings and eliminations, pawns, locked colours beyond
    /// their gate; then the castling rights and the en passant cell.
    pub(super) fn check_state(&mut self, fields: &[&str]) -> Result<(), String> {
        let t = Self::t();
        // Kings and eliminations.
        for c in COLOURS {
            let kings = self.board.pieces(kind::KING, c).len();
            if self.is_eliminated(c) && kings != 0 {
                return Err(format!(
                    "FEN: {} is eliminated but has a King on the board",
                    c.name()
                ));
            }
            if !self.is_eliminated(c) && kings != 1 {
                return Err(format!(
                    "FEN: {} has {kings} Kings, expected 1 (or list it as eliminated)",
                    c.name()
                ));
            }
        }
        if self.is_eliminated(self.side) {
            return Err(format!(
                "FEN: the colour to move ({}) is eliminated",
                self.side.name()
            ));
        }
        // Pawns, and locked colours beyond their gate.
        for c in COLOURS {
            if let Some(s) = (self.board.pieces(kind::PAWN, c) & t.no_pawn[c.idx()]).first() {
                return Err(format!(
                    "FEN: {} pawn on {}, an edge where no {} pawn can stand",
                    c.name(),
                    t.geo.name(s),
                    c.name()
                ));
            }
            if !self.is_unlocked(c) {
                if let Some(s) = self
                    .board
                    .colour(c)
                    .and_not(t.locked_reach[c.idx()])
                    .first()
                {
                    return Err(format!(
                        "FEN: {} is locked but has a piece on {}, beyond its gate level",
                        c.name(),
                        t.geo.name(s)
                    ));
                }
                let on_gate = (self.board.colour(c) & t.gate[c.idx()]).len();
                if on_gate >= 4 {
                    return Err(format!(
                        "FEN: {} has {on_gate} pieces on its gate level, so it must be listed as unlocked",
                        c.name()
                    ));
                }
            }
        }
        self.read_castling(fields.get(2).copied().unwrap_or("-"))?;
        self.read_ep(fields.get(3).copied().unwrap_or("-"))
    }

    fn read_castling(&mut self, field: &str) -> Result<(), String> {
        if field == "-" {
            return Ok(());
        }
        let t = Self::t();
        let mut colour = None;
        let mut rights_of_colour = 0;
        for ch in field.chars() {
            if let Some(c) = Colour::from_letter(ch) {
                if colour.is_some() && rights_of_colour == 0 {
                    return Err(format!(
                        "FEN castling field: colour letter '{ch}' follows a colour without rights"
                    ));
                }
                if self.state.castling & (castle_bit(c, 0) | castle_bit(c, 1)) != 0 {
                    return Err(format!("FEN castling field: colour '{ch}' appears twice"));
                }
                colour = Some(c);
                rights_of_colour = 0;
                continue;
            }
            let side = match ch {
                'K' => 0,
                'Q' => 1,
                _ => {
                    return Err(format!(
                        "FEN castling field: unknown letter '{ch}' (colour letters, K, Q, or '-')"
                    ));
                }
            };
            let Some(c) = colour else {
                return Err(format!(
                    "FEN castling field: '{ch}' must follow a colour letter"
                ));
            };
            let bit = castle_bit(c, side);
            if self.state.castling & bit != 0 {
                return Err(format!(
                    "FEN castling field: '{}{ch}' appears twice",
                    c.letter()
                ));
            }
            let cs = &t.castling[c.idx()][side];
            if self.board.piece_at(cs.king_from) != Piece::new(kind::KING, c)
                || self.board.piece_at(cs.rook_from) != Piece::new(kind::ROOK, c)
            {
                return Err(format!(
                    "FEN castling field: '{}{ch}' needs {}'s King on {} and Rook on {}",
                    c.letter(),
                    c.name(),
                    t.geo.name(cs.king_from),
                    t.geo.name(cs.rook_from)
                ));
            }
            self.state.castling |= bit;
            rights_of_colour += 1;
        }
        if colour.is_some() && rights_of_colour == 0 {
            return Err("FEN castling field ends with a colour letter without rights".into());
        }
        Ok(())
    }

    fn read_ep(&mut self, field: &str) -> Result<(), String> {
        if field == "-" {
            return Ok(());
        }
        let t = Self::t();
        let Some(e) = t.geo.parse_name(field) else {
            return Err(format!("FEN en passant field: '{field}' is not a cell"));
        };
        // The double step was the previous colour's move.
        let mover = self.previous_colour(self.side);
        let m = mover.idx();
        let fwd = t.forward_offset[m];
        let passed_over = t.pawn_start[m]
            .iter()
            .flat_map(|s| t.pawn_double[m][s].iter())
            .any(|to| (to as isize - fwd) as usize == e);
        if !passed_over {
            return Err(format!(
                "FEN en passant cell {field} is not a cell a double step of {} (the colour that moved last) passes over",
                mover.name()
            ));
        }
        let victim = (e as isize + fwd) as usize;
        if self.board.piece_at(victim) != Piece::new(kind::PAWN, mover)
            || self.board.piece_at(e).is_some()
        {
            return Err(format!(
                "FEN en passant cell {field} needs an empty cell and {}'s pawn on {}",
                mover.name(),
                t.geo.name(victim)
            ));
        }
        self.state.ep = self.ep_right_for(self.side, e, victim);
        Ok(())
    }

    /// The castling, en passant, unlocked and eliminated fields.
    pub(super) fn state_fields(&self) -> Vec<String> {
        let t = Self::t();
        let mut castling = String::new();
        for c in COLOURS {
            if self.state.castling & (castle_bit(c, 0) | castle_bit(c, 1)) == 0 {
                continue;
            }
            castling.push(c.letter());
            for (side, ch) in [(0, 'K'), (1, 'Q')] {
                if self.state.castling & castle_bit(c, side) != 0 {
                    castling.push(ch);
                }
            }
        }
        if castling.is_empty() {
            castling.push('-');
        }
        let ep = match self.state.ep {
            Some(e) => t.geo.name(e.cell),
            None => "-".into(),
        };
        vec![
            castling,
            ep,
            colours_text(self.state.unlocked),
            colours_text(self.state.eliminated),
        ]
    }

    /// The board drawing for `d`: the four levels from A (top) to D, then the FEN, the key
    /// and the colours' state.
    pub fn draw(&self) -> String {
        let mut s = String::new();
        for (z, l) in LEVEL_LETTERS.iter().enumerate() {
            s.push_str(&format!("Level {l}\n     a  b  c  d  e  f  g  h\n"));
            for y in (0..8).rev() {
                s.push_str(&format!("  {} ", y + 1));
                for x in 0..8 {
                    let piece = self.board.piece_at(cell(x, y, z));
                    if piece.is_none() {
                        s.push_str(" . ");
                    } else {
                        s.push(' ');
                        s.push_str(&piece_token(piece));
                    }
                }
                s.truncate(s.trim_end_matches(' ').len());
                s.push('\n');
            }
            s.push('\n');
        }
        let names = |bits: u8| {
            let v: Vec<&str> = COLOURS
                .iter()
                .filter(|c| bits >> c.0 & 1 != 0)
                .map(|c| c.name())
                .collect();
            if v.is_empty() {
                "none".to_string()
            } else {
                v.join(", ")
            }
        };
        s.push_str(&format!("Fen: {}\n", self.fen()));
        s.push_str(&format!("Key: {:016X}\n", self.board.key()));
        s.push_str(&format!(
            "To move: {} (team {})\n",
            self.side.name(),
            if self.side.team() == 0 {
                "White+Gold"
            } else {
                "Black+Silver"
            }
        ));
        s.push_str(&format!("Unlocked: {}\n", names(self.state.unlocked)));
        s.push_str(&format!("Eliminated: {}", names(self.state.eliminated)));
        s
    }
}
