//! FEN for Podionic Chess (`protocol.md`), and the board drawing of the `d` command.
//!
//! `<placement> <side> <halfmove> <fullmove>`: four levels `A|B|C|D` (A at the top), each
//! four ranks from the highest down, each rank four cells from the lowest file up; a digit
//! string counts empty cells. The clocks may be omitted (0 and 1).

use super::position::{Podionic, PodionicPosition};
use super::tables::{LETTERS, kind};
use crate::rules::bitset::Cell;
use crate::rules::fen as rules_fen;
use crate::rules::game::Game;
use crate::rules::piece::Colour;
use crate::rules::placement;

/// The start position (a reconstruction: see the rules file).
pub const START_FEN: &str =
    "bp2/kp2/np2/1p1p|brrp/q1p1/np2/4|4/NP2/Q1P1/BRRP|1P1P/NP2/KP2/BP2 w 0 1";

/// The cells of one FEN rank of level `z` (the `i`-th rank written, from the top), lowest
/// file first.
fn rank_cells(z: usize, i: usize) -> [Cell; 4] {
    let geo = PodionicPosition::geometry();
    let spec = &super::tables::level_specs()[z];
    let y = spec.ranks.1 as i32 - i as i32;
    std::array::from_fn(|k| {
        geo.at(spec.files.0 as i32 + k as i32, y, z as i32)
            .expect("level cells exist")
    })
}

impl PodionicPosition {
    /// Reads a FEN. Any malformed or impossible input gives an error naming what is wrong
    /// and where; nothing panics.
    pub fn from_fen(fen: &str) -> Result<Self, String> {
        Self::read_fen(Podionic, fen)
    }

    /// The FEN after the placement: one King each and pawns only where they can stand, the
    /// side to move, and the side not to move not in check.
    pub(super) fn read_state(&mut self, fields: &[&str]) -> Result<(), String> {
        let geo = Self::geometry();
        for c in [Colour::WHITE, Colour::BLACK] {
            let n = self.board.pieces(kind::KING, c).len();
            if n != 1 {
                return Err(format!("FEN: {} has {n} Kings, expected 1", c.name()));
            }
            let allowed = Self::t().pawn[c.idx()].allowed;
            if let Some(s) = self.board.pieces(kind::PAWN, c).and_not(allowed).first() {
                return Err(format!(
                    "FEN: {} pawn on {}, where no {} pawn can stand (the a-file of levels A and D \
                     holds only lane starts and lane ends)",
                    c.name(),
                    geo.name(s),
                    c.name()
                ));
            }
        }
        self.side = rules_fen::two_colour_side(fields[1])?;
        let them = self.side.flip();
        if self.is_attacked(self.king_cell(them), self.side, self.board.occupied()) {
            return Err(format!(
                "FEN: the side not to move ({}) is in check",
                them.name()
            ));
        }
        Ok(())
    }

    /// One level drawn as five text lines (four ranks, then the files), `.` for empty cells.
    fn draw_level(&self, z: usize, files_below: bool) -> Vec<String> {
        let spec = &super::tables::level_specs()[z];
        let files: String = (spec.files.0..=spec.files.1)
            .map(|x| format!(" {}", (b'a' + x as u8) as char))
            .collect();
        let files = format!("  {files}  ");
        let label = ["A (top)", "B", "C", "D (bottom)"][z];
        let mut lines = vec![format!("Level {label}")];
        if !files_below {
            lines.push(files.clone());
        }
        for i in 0..4 {
            let cells = rank_cells(z, i);
            let rank = Self::geometry().coord(cells[0]).y + 1;
            let row: String = cells
                .iter()
                .map(|&c| {
                    let p = self.board.piece_at(c);
                    let ch = if p.is_none() {
                        '.'
                    } else {
                        placement::letter(&LETTERS, p)
                    };
                    format!(" {ch}")
                })
                .collect();
            lines.push(format!("{rank} {row}  {rank}"));
        }
        if files_below {
            lines.push(files);
        }
        lines
    }

    /// The board drawing for `d`: the four levels in their pinwheel layout (A top left,
    /// B top right, C bottom right, D bottom left, as they lie over the footprint), then the
    /// FEN, the key and the checking pieces.
    pub fn draw(&self) -> String {
        let mut s = String::new();
        for (left, right, below) in [(0, 1, false), (3, 2, true)] {
            let l = self.draw_level(left, below);
            let r = self.draw_level(right, below);
            for (a, b) in l.iter().zip(r.iter()) {
                s.push_str(format!("{a:<20}{b}").trim_end());
                s.push('\n');
            }
            s.push('\n');
        }
        s.push_str(&format!("Fen: {}\n", self.fen()));
        s.push_str(&format!("Key: {:016X}\n", self.board.key()));
        let geo = Self::geometry();
        let checkers: Vec<String> = self.checkers().iter().map(|c| geo.name(c)).collect();
        s.push_str(&format!("Checkers: {}", checkers.join(" ")));
        s
    }
}
