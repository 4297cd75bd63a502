//! Why a move is refused in Pentaplane V, and which Kings are in danger, in words and cells
//! for a player. There is no check rule: every move a piece can make is legal.

use super::info::INFO;
use super::position::PentaplanePosition;
use super::tables::{Bb, kind};
use crate::rules::bitset::Cell;
use crate::rules::game::{basic_refusal, cannot_reach};
use crate::rules::piece::Colour;

impl PentaplanePosition {
    /// Why moving (or shooting with) the piece on `from` to `to` is refused.
    pub(super) fn explain(&self, from: Cell, to: Cell) -> String {
        if from == to {
            return "nothing can be dropped in Pentaplane".into();
        }
        if !self.both_kings_present() {
            return "the game is over: a King is gone".into();
        }
        basic_refusal(self, INFO.pieces, from, to)
            .unwrap_or_else(|| cannot_reach(self, INFO.pieces, from, to))
    }

    /// Every cell `colour`'s pieces could move to, capture on or shoot at now.
    fn reach_of(&self, colour: Colour) -> Bb {
        self.board()
            .colour(colour)
            .iter()
            .fold(Bb::EMPTY, |acc, c| {
                acc | self.move_targets(c) | self.shot_targets(c)
            })
    }

    /// The Kings the other side could capture, shoot or blow up now: on a cell it reaches, or
    /// inside the blast of a Bomb it can hit.
    pub(super) fn kings_under_attack(&self) -> Vec<Cell> {
        let mut out = Vec::new();
        for colour in [Colour::WHITE, Colour::BLACK] {
            let Some(k) = self.king_cell(colour) else {
                continue;
            };
            let reach = self.reach_of(colour.flip());
            let bombs_hit = reach & self.board().kind(kind::BOMB);
            if reach.contains(k) || bombs_hit.iter().any(|b| self.explosion_area(b).contains(k)) {
                out.push(k);
            }
        }
        out
    }
}
