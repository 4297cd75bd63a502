//! FEN of Pentaplane V and the board drawing of the `d` command.
//!
//! `<placement> <side> <halfmove> <fullmove>`: five level groups separated by `|` (A, the
//! bottom, first), each of five ranks separated by `/` (rank 5 first), each rank from file a
//! to file e, a digit 1-5 for that many empty cells. The last two fields may be omitted. A
//! valid FEN has exactly one K and one k, no White pawn on Ca5-Ce5 and no Black pawn on
//! Ca1-Ce1; any placement of the other pieces is accepted (every choice of pieces on the X
//! squares, True Queens, Kamikaze Queens, any number of each).

use super::position::{Pentaplane, PentaplanePosition};
use super::tables::{LETTERS, kind};
use crate::rules::fen as rules_fen;
use crate::rules::game::Game;
use crate::rules::piece::Colour;
use crate::rules::placement;

/// The default start position (White chose Fortress and Bomb, Black Knight and Satellite).
pub const START_FEN: &str =
    "5/5/5/5/5|ppppp/5/5/5/PPPPP|fnkso/ppppp/5/PPPPP/FNKSO|ppppp/5/5/5/PPPPP|5/5/5/5/5 w 0 1";

const LEVELS: [char; 5] = ['A', 'B', 'C', 'D', 'E'];

impl PentaplanePosition {
    /// Reads a FEN (see the module documentation). Never panics; errors say what is wrong
    /// and where.
    pub fn from_fen(fen: &str) -> Result<Self, String> {
        Self::read_fen(Pentaplane::default(), fen)
    }

    /// The FEN after the placement: one King each, no pawn on its promotion row, the side to
    /// move.
    pub(super) fn read_state(&mut self, fields: &[&str]) -> Result<(), String> {
        let t = Self::t();
        for c in [Colour::WHITE, Colour::BLACK] {
            let n = self.board.pieces(kind::KING, c).len();
            if n != 1 {
                return Err(format!("FEN: {} has {n} Kings, expected 1", c.name()));
            }
            if let Some(cell) = (self.board.pieces(kind::PAWN, c) & t.promotion[c.idx()]).first() {
                return Err(format!(
                    "FEN: {} pawn on {}, its promotion row",
                    c.name(),
                    t.geo.name(cell)
                ));
            }
        }
        self.side = rules_fen::two_colour_side(fields[1])?;
        Ok(())
    }

    /// The board drawing for `d`: the five levels side by side (A, the bottom, on the left),
    /// rank 5 at the top; `.` is an empty dotted cell and `-` an empty plain one.
    pub fn draw(&self) -> String {
        let mut s = String::new();
        let gap = "   ";
        s.push_str("   ");
        for (z, lv) in LEVELS.iter().enumerate() {
            if z > 0 {
                s.push_str(gap);
            }
            s.push_str(&format!("level {lv}  "));
        }
        s.truncate(s.trim_end().len());
        s.push('\n');
        for y in (0..5).rev() {
            s.push_str(&format!(" {} ", y + 1));
            for z in 0..5 {
                if z > 0 {
                    s.push_str(gap);
                }
                for x in 0..5 {
                    let piece = self.board.piece_at(Self::cell_at(x, y, z));
                    let c = if piece.is_some() {
                        placement::letter(&LETTERS, piece)
                    } else if (x + y + z) % 2 == 0 {
                        '.'
                    } else {
                        '-'
                    };
                    s.push(c);
                    if x < 4 {
                        s.push(' ');
                    }
                }
            }
            s.push('\n');
        }
        s.push_str("   ");
        for z in 0..5 {
            if z > 0 {
                s.push_str(gap);
            }
            s.push_str("a b c d e");
        }
        s.push_str("\n\n");
        s.push_str(&format!("Fen: {}\n", self.fen()));
        s.push_str(&format!("Key: {:016X}\n", self.board.key()));
        let side = |c: Colour| match self.king_cell(c) {
            Some(k) => format!("{} King on {}", c.name(), Self::t().geo.name(k)),
            None => format!("{} King gone", c.name()),
        };
        s.push_str(&format!(
            "Kings: {}, {}",
            side(Colour::WHITE),
            side(Colour::BLACK)
        ));
        s
    }
}
