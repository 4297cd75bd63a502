//! FEN for Polyhedron Chess (`protocol.md`), and the board drawing of the `d` command.
//!
//! `<placement>[<reserves>] <side> <en passant> <halfmove> <fullmove>`: five levels `A|B|C|D|E`
//! (A at the bottom), each listed from its highest rank to its lowest, each rank from its
//! lowest file; only the cells a level has are written. The reserves list the piece types each
//! side may promote to (White's uppercase, then Black's lowercase); `[]` when both are empty
//! (the brackets may also be left out). The en passant field is the cell passed over by the
//! last double step, or `-`.

use super::position::{NO_EP, PolyhedronPosition};
use super::tables::{KINDS, LETTERS, MAX_ARMY, Z_EP, kind, kind_of_letter, reserve_key};
use crate::rules::bitset::Cell;
use crate::rules::clocks::Clocks;
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
        let t = Self::t();
        let geo = &t.geo;
        let mut p = PolyhedronPosition::empty();
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() < 2 {
            return Err(format!(
                "FEN needs at least placement and side to move, got {} field(s)",
                fields.len()
            ));
        }
        if fields.len() > 5 {
            return Err(format!(
                "FEN has {} fields, at most 5 are allowed (no castling field in Polyhedron)",
                fields.len()
            ));
        }
        let (placement_text, reserves) = match fields[0].find('[') {
            Some(i) => {
                if !fields[0].ends_with(']') {
                    return Err("FEN reserves must end with ']'".into());
                }
                (&fields[0][..i], &fields[0][i + 1..fields[0].len() - 1])
            }
            None => (fields[0], ""),
        };
        let read_piece = |ch: char, _: &mut placement::Chars2| -> Result<Piece, String> {
            let kd = kind_of_letter(ch).ok_or_else(|| format!("unknown piece '{ch}'"))?;
            Ok(Piece::new(
                kd,
                if ch.is_ascii_uppercase() {
                    Colour::WHITE
                } else {
                    Colour::BLACK
                },
            ))
        };
        for (cell, piece) in placement::read(placement_text, geo, read_piece)? {
            p.board.put(cell, piece);
        }
        for ch in reserves.chars() {
            let Some(kd) = kind_of_letter(ch) else {
                return Err(format!("FEN reserves: unknown piece '{ch}'"));
            };
            if kd == kind::KING || kd == kind::PAWN {
                return Err(format!(
                    "FEN reserves: '{ch}' cannot be in a reserve (only captured pieces other than King and Pawn)"
                ));
            }
            let c = if ch.is_ascii_uppercase() { 0 } else { 1 };
            if p.reserves[c].len() >= MAX_ARMY {
                return Err(format!(
                    "FEN reserves: {} has more than {MAX_ARMY} pieces",
                    Colour(c as u8).name()
                ));
            }
            p.reserves[c].add(kd);
        }
        for c in [Colour::WHITE, Colour::BLACK] {
            let n = p.board.pieces(kind::KING, c).len();
            if n != 1 {
                return Err(format!("FEN: {} has {n} Kings, expected 1", c.name()));
            }
            let army = p.board.colour(c).len() as usize + p.reserves[c.idx()].len();
            if army > MAX_ARMY {
                return Err(format!(
                    "FEN: {} has {army} pieces on the board and in reserve, at most {MAX_ARMY}",
                    c.name()
                ));
            }
        }
        for (c, behind) in [(Colour::WHITE, 2), (Colour::BLACK, 7)] {
            for cell in p.board.pieces(kind::PAWN, c) {
                if t.promotion_zone[c.idx()].contains(cell) {
                    return Err(format!(
                        "FEN: {} pawn on {}, the last rank of its level (it must have promoted)",
                        c.name(),
                        geo.name(cell)
                    ));
                }
                let y = geo.coord(cell).y;
                if (c == Colour::WHITE && y < behind) || (c == Colour::BLACK && y > behind) {
                    return Err(format!(
                        "FEN: {} pawn on {}, behind its starting rank",
                        c.name(),
                        geo.name(cell)
                    ));
                }
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
        let us = p.side;
        let them = us.flip();
        if p.is_attacked(p.king_cell(them), us) {
            return Err(format!(
                "FEN: the side not to move ({}) is in check",
                them.name()
            ));
        }
        let ep = fields.get(2).copied().unwrap_or("-");
        if ep != "-" {
            let Some(e) = geo.parse_name(ep) else {
                return Err(format!("FEN en passant field: '{ep}' is not a cell"));
            };
            let ep_y = if us == Colour::WHITE { 6 } else { 3 };
            if geo.coord(e).y != ep_y {
                return Err(format!(
                    "FEN en passant cell {ep} is not on rank {} (where a double step by {} passes)",
                    ep_y + 1,
                    them.name()
                ));
            }
            let victim = t.pawn_push[them.idx()][e];
            let origin = t.pawn_push[us.idx()][e];
            let (Some(victim), Some(origin)) = (victim, origin) else {
                return Err(format!(
                    "FEN en passant cell {ep}: no double step passes it"
                ));
            };
            if p.board.piece_at(e).is_some()
                || p.board.piece_at(origin).is_some()
                || p.board.piece_at(victim) != Piece::new(kind::PAWN, them)
            {
                return Err(format!(
                    "FEN en passant cell {ep}: needs {} and {} empty and a {} pawn on {}",
                    ep,
                    geo.name(origin),
                    them.name(),
                    geo.name(victim)
                ));
            }
            p.ep = e as u16;
        }
        p.clocks = Clocks::read(fields.get(3).copied(), fields.get(4).copied())?;
        // The key: the placement is already in; add the state.
        let z = &t.zobrist;
        p.board.toggle_key(z.side[p.side.idx()]);
        if p.ep != NO_EP {
            p.board.toggle_key(z.extra[Z_EP + p.ep as usize]);
        }
        for c in [Colour::WHITE, Colour::BLACK] {
            for kd in 0..KINDS as u8 {
                for n in 1..=p.reserves[c.idx()].count(kd) {
                    p.board.toggle_key(reserve_key(t, c, kd, n));
                }
            }
        }
        Ok(p)
    }

    pub(super) fn piece_letter(piece: Piece) -> char {
        let l = LETTERS[piece.kind() as usize];
        if piece.colour() == Colour::WHITE {
            l
        } else {
            l.to_ascii_lowercase()
        }
    }

    /// The piece on (x, y, z), if the cell exists.
    fn cell_at(x: i32, y: i32, z: usize) -> Option<Cell> {
        Self::t().geo.at(x, y, z as i32)
    }

    /// The position as FEN.
    pub fn to_fen(&self) -> String {
        let mut s = placement::write(
            &Self::t().geo,
            |c| self.board.piece_at(c),
            |p, out| out.push(Self::piece_letter(p)),
        );
        s.push('[');
        s.push_str(&self.reserves[0].letters());
        s.push_str(&self.reserves[1].letters().to_ascii_lowercase());
        s.push(']');
        s.push(' ');
        s.push(self.side.letter());
        s.push(' ');
        match self.ep_cell() {
            Some(e) => s.push_str(&Self::t().geo.name(e)),
            None => s.push('-'),
        }
        s.push(' ');
        s.push_str(&self.clocks.fen());
        s
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
                                Self::piece_letter(piece)
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
        s.push_str(&format!("Fen: {}\n", self.to_fen()));
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
            show(self.reserves[0].letters()),
            show(self.reserves[1].letters().to_ascii_lowercase())
        ));
        s
    }
}
