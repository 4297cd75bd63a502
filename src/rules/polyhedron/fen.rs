//! FEN for Polyhedron Chess (`protocol.md`), and the board drawing of the `d` command.
//!
//! `<placement>[<reserves>] <side> <en passant> <halfmove> <fullmove>`: five levels `A|B|C|D|E`
//! (A at the bottom), each listed from its highest rank to its lowest, each rank from its
//! lowest file; only the cells a level has are written. The reserves list the piece types each
//! side may promote to (White's uppercase, then Black's lowercase); `[]` when both are empty
//! (the brackets may also be left out). The en passant field is the cell passed over by the
//! last double step, or `-`.

use super::position::{Polyhedron, PolyhedronPosition};
use super::tables::{LETTERS, MAX_ARMY, kind, kind_of_letter};
use crate::rules::bitset::Cell;
use crate::rules::fen as rules_fen;
use crate::rules::game::Game;
use crate::rules::piece::{Colour, Piece};
use crate::rules::placement;

/// The start position.
pub const START_FEN: &str = "pppppp/6/6/6/6/PPPPPP|gwhuuhwg/pppppppp/8/8/8/8/PPPPPPPP/GWHUUHWG|\
dsafqkfasd/rnbuuuubnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBUUUUBNR/DSAFQKFASD|\
gwhuuhwg/pppppppp/8/8/8/8/PPPPPPPP/GWHUUHWG|pppppp/6/6/6/6/PPPPPP[] w - 0 1";

/// The margin of level `z`: it covers files and ranks `k..=9-k`.
fn margin(z: usize) -> i32 {
    (z as i32 - 2).abs()
}

fn level_letter(z: usize) -> char {
    (b'A' + z as u8) as char
}

impl PolyhedronPosition {
    /// Reads a FEN. Any input gives either a position or an error saying what is wrong where.
    pub fn from_fen(fen: &str) -> Result<Self, String> {
        Self::read_fen(Polyhedron::default(), fen)
    }

    /// The FEN after the placement: the reserves, the armies and pawns, the side to move (the
    /// side not to move not in check) and the en passant cell.
    pub(super) fn read_state(
        &mut self,
        reserves: Option<&str>,
        fields: &[&str],
    ) -> Result<(), String> {
        self.read_reserves(reserves.unwrap_or(""))?;
        self.check_armies()?;
        self.check_pawns()?;
        self.side = rules_fen::two_colour_side(fields[1])?;
        let them = self.side.flip();
        if self.is_attacked(self.king_cell(them), self.side) {
            return Err(format!(
                "FEN: the side not to move ({}) is in check",
                them.name()
            ));
        }
        self.read_ep(fields.get(2).copied().unwrap_or("-"))
    }

    /// The reserves: captured piece types other than King and Pawn (uppercase White's).
    fn read_reserves(&mut self, text: &str) -> Result<(), String> {
        for ch in text.chars() {
            let Some(kd) = kind_of_letter(ch) else {
                return Err(format!("FEN reserves: unknown piece '{ch}'"));
            };
            if kd == kind::KING || kd == kind::PAWN {
                return Err(format!(
                    "FEN reserves: '{ch}' cannot be in a reserve (only captured pieces other than King and Pawn)"
                ));
            }
            let c = usize::from(!ch.is_ascii_uppercase());
            if self.state.reserves[c].len() >= MAX_ARMY {
                return Err(format!(
                    "FEN reserves: {} has more than {MAX_ARMY} pieces",
                    Colour(c as u8).name()
                ));
            }
            self.state.reserves[c].add(kd);
        }
        Ok(())
    }

    /// One King each, and no more pieces on the board and in reserve than the setup has.
    fn check_armies(&self) -> Result<(), String> {
        for c in [Colour::WHITE, Colour::BLACK] {
            let n = self.board.pieces(kind::KING, c).len();
            if n != 1 {
                return Err(format!("FEN: {} has {n} Kings, expected 1", c.name()));
            }
            let army = self.board.colour(c).len() as usize + self.state.reserves[c.idx()].len();
            if army > MAX_ARMY {
                return Err(format!(
                    "FEN: {} has {army} pieces on the board and in reserve, at most {MAX_ARMY}",
                    c.name()
                ));
            }
        }
        Ok(())
    }

    /// Pawns stand neither on the last rank of their level nor behind their starting rank.
    fn check_pawns(&self) -> Result<(), String> {
        let t = Self::t();
        let geo = &t.geo;
        for (c, start) in [(Colour::WHITE, 2), (Colour::BLACK, 7)] {
            for cell in self.board.pieces(kind::PAWN, c) {
                if t.promotion_zone[c.idx()].contains(cell) {
                    return Err(format!(
                        "FEN: {} pawn on {}, the last rank of its level (it must have promoted)",
                        c.name(),
                        geo.name(cell)
                    ));
                }
                let y = geo.coord(cell).y;
                if (c == Colour::WHITE && y < start) || (c == Colour::BLACK && y > start) {
                    return Err(format!(
                        "FEN: {} pawn on {}, behind its starting rank",
                        c.name(),
                        geo.name(cell)
                    ));
                }
            }
        }
        Ok(())
    }

    /// The en passant cell: the cell the other side's last double step passed over, with
    /// that pawn beyond it and the cells it crossed empty.
    fn read_ep(&mut self, field: &str) -> Result<(), String> {
        if field == "-" {
            return Ok(());
        }
        let t = Self::t();
        let geo = &t.geo;
        let (us, them) = (self.side, self.side.flip());
        let Some(e) = geo.parse_name(field) else {
            return Err(format!("FEN en passant field: '{field}' is not a cell"));
        };
        let ep_y = if us == Colour::WHITE { 6 } else { 3 };
        if geo.coord(e).y != ep_y {
            return Err(format!(
                "FEN en passant cell {field} is not on rank {} (where a double step by {} passes)",
                ep_y + 1,
                them.name()
            ));
        }
        let (Some(victim), Some(origin)) = (t.pawn_push[them.idx()][e], t.pawn_push[us.idx()][e])
        else {
            return Err(format!(
                "FEN en passant cell {field}: no double step passes it"
            ));
        };
        if self.board.piece_at(e).is_some()
            || self.board.piece_at(origin).is_some()
            || self.board.piece_at(victim) != Piece::new(kind::PAWN, them)
        {
            return Err(format!(
                "FEN en passant cell {field}: needs {} and {} empty and a {} pawn on {}",
                field,
                geo.name(origin),
                them.name(),
                geo.name(victim)
            ));
        }
        self.state.ep = e as u16;
        Ok(())
    }

    /// The piece on (x, y, z), if the cell exists.
    fn cell_at(x: i32, y: i32, z: usize) -> Option<Cell> {
        Self::t().geo.at(x, y, z as i32)
    }

    /// The board drawing for `d`: the five levels from the top (E) down, each drawn in the
    /// common frame of files a..j so that a cell is drawn directly above the cell below it;
    /// `.` is an empty cell, a blank is a cell the level does not have.
    pub fn draw(&self) -> String {
        let mut s = String::new();
        for z in (0..5).rev() {
            let k = margin(z);
            s.push_str(&format!(
                "Level {}{}\n",
                level_letter(z),
                match z {
                    4 => " (top)",
                    0 => " (bottom)",
                    _ => "",
                }
            ));
            for y in (k..=9 - k).rev() {
                s.push_str(&format!("{:>3} ", y + 1));
                for x in 0..10 {
                    let c = match Self::cell_at(x, y, z) {
                        None => ' ',
                        Some(cell) => {
                            let piece = self.board.piece_at(cell);
                            if piece.is_none() {
                                '.'
                            } else {
                                placement::letter(&LETTERS, piece)
                            }
                        }
                    };
                    s.push(' ');
                    s.push(c);
                }
                s.truncate(s.trim_end().len());
                s.push('\n');
            }
            s.push_str("     a b c d e f g h i j\n\n");
        }
        let geo = &Self::t().geo;
        s.push_str(&format!("Fen: {}\n", self.fen()));
        s.push_str(&format!("Key: {:016X}\n", self.board.key()));
        let us = self.side;
        let checkers: Vec<String> = self
            .attackers_to(self.king_cell(us), us.flip())
            .iter()
            .map(|c| geo.name(c))
            .collect();
        s.push_str(&format!("Checkers: {}\n", checkers.join(" ")));
        let show = |r: String| if r.is_empty() { "-".to_string() } else { r };
        s.push_str(&format!(
            "Reserves: White {}, Black {}",
            show(self.state.reserves[0].letters()),
            show(self.state.reserves[1].letters().to_ascii_lowercase())
        ));
        s
    }
}
