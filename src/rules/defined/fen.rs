//! FEN of a file-defined variant: `<placement>[<reserves>] <side> [<castling>] [<en passant>]
//! <halfmove> <fullmove>`. The castling field is there when the variant has castling, the en
//! passant field when it has en passant, the reserves when pawns promote to captured pieces
//! (the brackets may be left out when both reserves are empty).

use super::position::{Defined, DefinedPosition, NO_EP};
use super::rules::{Goal, Rules};
use crate::rules::bitset::Cell;
use crate::rules::fen as rules_fen;
use crate::rules::game::Game;
use crate::rules::piece::{Colour, Kind, Piece};
use crate::rules::placement;

impl DefinedPosition {
    /// Reads a FEN of `rules`' variant. Any input gives a position or an error in words. A
    /// side may have at most as many pieces, on the board and in its reserve together, as
    /// the board has cells.
    ///
    /// `rules` is kept in the position returned and nowhere else: a variant's start position
    /// is checked with rules that are not registered yet (`Compiled::check_start`).
    pub fn from_fen(rules: &'static Rules, fen: &str) -> Result<Self, String> {
        Self::read_fen(Defined::new(rules), fen)
    }

    /// The FEN's field names: the castling field when the variant has castling, the en
    /// passant field when it has en passant.
    pub(super) fn field_names(rules: &Rules) -> Vec<&'static str> {
        let mut names = vec!["placement", "side to move"];
        if !rules.castlings.is_empty() {
            names.push("castling");
        }
        if rules.en_passant {
            names.push("en passant");
        }
        names.extend(["half-move clock", "move number"]);
        names
    }

    /// The FEN after the placement: the reserves, the side to move, the castling rights and
    /// the en passant cell.
    pub(super) fn read_state(
        &mut self,
        reserves: Option<&str>,
        fields: &[&str],
    ) -> Result<(), String> {
        let rules = self.state.rules;
        if let Some(res) = reserves {
            if !rules.reserve {
                return Err("FEN: this variant has no reserves ([...])".into());
            }
            // A side's pieces, on the board and in its reserve together, are at most the
            // board's cells: moves never add to that number (a capture moves a piece from
            // the board to its owner's reserve, a promotion from the reserve to the board in
            // place of a pawn), so every position played from this one reads back.
            let cells = rules.geo.cells();
            let mut army =
                [Colour::WHITE, Colour::BLACK].map(|c| self.board.colour(c).len() as usize);
            for ch in res.chars() {
                let k = rules
                    .kind_of_letter(ch)
                    .filter(|&k| !rules.is_royal(k) && !rules.is_pawn(k))
                    .ok_or_else(|| format!("FEN reserve: '{ch}' is not a piece a reserve holds"))?;
                let colour = if ch.is_ascii_uppercase() {
                    Colour::WHITE
                } else {
                    Colour::BLACK
                };
                army[colour.idx()] += 1;
                if army[colour.idx()] > cells {
                    return Err(format!(
                        "FEN reserve: {} has more pieces on the board and in reserve together \
                         than the board has cells ({cells})",
                        colour.name()
                    ));
                }
                self.reserve_add(colour, k);
            }
        }
        self.side = rules_fen::two_colour_side(fields[1])?;
        let mut i = 2;
        if !rules.castlings.is_empty() {
            if let Some(f) = fields.get(i) {
                self.read_castling(f)?;
            }
            i += 1;
        }
        if rules.en_passant
            && let Some(&f) = fields.get(i).filter(|&&f| f != "-")
        {
            let cell = rules
                .geo
                .parse_name(f)
                .ok_or_else(|| format!("FEN en passant cell '{f}' is not a cell"))?;
            let victim = self
                .ep_victim(cell, self.side.flip())
                .filter(|_| self.board.piece_at(cell).is_none())
                .ok_or_else(|| format!("FEN en passant cell '{f}' has no pawn that passed it"))?;
            self.state.ep = (cell as u16, victim as u16);
        }
        Ok(())
    }

    fn read_castling(&mut self, field: &str) -> Result<(), String> {
        let r = self.state.rules;
        let mut rights = 0;
        if field != "-" {
            for ch in field.chars() {
                let i = r
                    .castlings
                    .iter()
                    .position(|c| c.letter == ch)
                    .ok_or_else(|| format!("FEN castling: no castling '{ch}' in this variant"))?;
                let c = &r.castlings[i];
                let king = self.board.piece_at(c.king);
                let rook = self.board.piece_at(c.rook);
                if king.is_none()
                    || king.colour() != c.colour
                    || !r.is_royal(king.kind())
                    || rook.is_none()
                    || rook.colour() != c.colour
                {
                    return Err(format!(
                        "FEN castling '{ch}': no King on {} and piece on {} to castle with",
                        r.geo.name(c.king),
                        r.geo.name(c.rook)
                    ));
                }
                rights |= 1 << i;
            }
        }
        self.set_castling(rights);
        Ok(())
    }

    /// The rules every position obeys: royal pieces, pawns outside their promotion zone, the
    /// side not to move not in check.
    pub(super) fn check_placement(&self) -> Result<(), String> {
        let r = self.state.rules;
        for c in [Colour::WHITE, Colour::BLACK] {
            let n = self.royals(c).len();
            let ok = match r.goal {
                Goal::Checkmate => n == 1,
                Goal::RoyalCapture => n >= 1,
            };
            if !ok {
                return Err(format!(
                    "FEN: {} has {n} royal pieces, {} needed",
                    c.name(),
                    if r.goal == Goal::Checkmate {
                        "exactly one is"
                    } else {
                        "at least one is"
                    }
                ));
            }
            for k in (0..r.kinds as Kind).filter(|&k| r.is_pawn(k)) {
                if let Some(cell) = (self.board.pieces(k, c) & r.promotion_zone[c.idx()]).first() {
                    return Err(format!(
                        "FEN: a {} pawn on {}, where it would have promoted",
                        c.name(),
                        r.geo.name(cell)
                    ));
                }
            }
        }
        if r.goal == Goal::Checkmate && self.royal_attacked(self.side.flip()) {
            return Err(format!(
                "FEN: the side not to move ({}) is in check",
                self.side.flip().name()
            ));
        }
        Ok(())
    }

    /// The reserves in the FEN, where the variant has them: White's pieces, then Black's.
    pub(super) fn reserves_text(&self) -> Option<String> {
        let r = self.state.rules;
        if !r.reserve {
            return None;
        }
        let mut s = String::new();
        for c in [Colour::WHITE, Colour::BLACK] {
            for k in 0..r.kinds {
                for _ in 0..self.state.reserves[c.idx()][k] {
                    s.push(placement::letter(&r.letters, Piece::new(k as Kind, c)));
                }
            }
        }
        Some(s)
    }

    /// The castling field (where the variant has castling) and the en passant field (where
    /// it has en passant).
    pub(super) fn state_fields(&self) -> Vec<String> {
        let r = self.state.rules;
        let mut fields = Vec::new();
        if !r.castlings.is_empty() {
            let rights: String = (0..r.castlings.len())
                .filter(|i| self.state.castling >> i & 1 == 1)
                .map(|i| r.castlings[i].letter)
                .collect();
            fields.push(if rights.is_empty() {
                "-".into()
            } else {
                rights
            });
        }
        if r.en_passant {
            fields.push(if self.state.ep.0 == NO_EP {
                "-".into()
            } else {
                r.geo.name(self.state.ep.0 as Cell)
            });
        }
        fields
    }

    /// The board for the `d` command: each level from the top, its ranks from the highest.
    pub fn draw(&self) -> String {
        let r = self.state.rules;
        let geo = &r.geo;
        let (files, _) = geo.extent();
        let mut s = String::new();
        for (z, rows) in placement::level_rows(geo).iter().enumerate().rev() {
            if geo.levels() > 1 {
                s.push_str(&format!("Level {}\n", (b'A' + z as u8) as char));
            }
            for row in rows {
                let y = geo.coord(row[0]).y;
                let mut line = vec![' '; files];
                for &c in row {
                    let p = self.board.piece_at(c);
                    line[geo.coord(c).x as usize] = if p.is_none() {
                        '.'
                    } else {
                        placement::letter(&r.letters, p)
                    };
                }
                let text: String = line.iter().flat_map(|&ch| [' ', ch]).collect();
                s.push_str(&format!("{:>3}{}\n", y + 1, text.trim_end()));
            }
            let letters: String = (0..files)
                .flat_map(|x| [' ', (b'a' + x as u8) as char])
                .collect();
            s.push_str(&format!("   {letters}\n\n"));
        }
        s.push_str(&format!("Fen: {}\n", self.fen()));
        s.push_str(&format!("Key: {:016X}", self.board.key()));
        s
    }
}
