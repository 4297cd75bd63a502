//! Why a move is refused in Chess – The Future Generation, in words for a player, and which
//! Kings are in danger. There is no check rule; what stops a move is the piece's movement and
//! its colour's lock (a colour moves beyond its gate level only once unlocked).

use super::info::INFO;
use super::position::FuturePosition;
use super::tables::{COLOURS, GATE_LEVEL, kind};
use crate::rules::bitset::Cell;
use crate::rules::game::{Game, basic_refusal, cannot_reach};

impl FuturePosition {
    /// Why moving the piece on `from` to `to` is refused.
    pub(super) fn explain(&self, from: Cell, to: Cell) -> String {
        if from == to {
            return "nothing can be dropped in this variant".into();
        }
        if self.winner().is_some() {
            return "the game is over".into();
        }
        if let Some(why) = basic_refusal(self, INFO.pieces, from, to) {
            return why;
        }
        let us = self.side_to_move();
        let all = Self::t().geo.all();
        let unlocked_reach = self.piece_reach_within(from, all);
        let pawn = self.board().piece_at(from).kind() == kind::PAWN;
        if !self.is_unlocked(us) && (unlocked_reach.contains(to) || pawn) {
            let level = |z: usize| (b'A' + z as u8) as char;
            let z = Self::t().geo.coord(to).z as usize;
            if !Self::t().locked_reach[us.idx()].contains(to) {
                return format!(
                    "{} has not unlocked level {} yet: it moves beyond level {} once four of \
                     its pieces stand on level {}",
                    us.name(),
                    level(z),
                    level(GATE_LEVEL[us.idx()]),
                    level(GATE_LEVEL[us.idx()])
                );
            }
        }
        cannot_reach(self, INFO.pieces, from, to)
    }

    /// Every King the other team attacks.
    pub(super) fn kings_attacked(&self) -> Vec<Cell> {
        COLOURS
            .iter()
            .filter(|c| !self.is_eliminated(**c))
            .filter_map(|&c| self.king_cell(c))
            .filter(|&k| {
                let owner = self.board().piece_at(k).colour();
                self.attacked_by_team(k, 1 - owner.team())
            })
            .collect()
    }

    /// The colours unlocked and eliminated, in words.
    pub(super) fn state_notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        for c in COLOURS {
            if self.is_eliminated(c) {
                notes.push(format!("{} is eliminated", c.name()));
            } else if self.is_unlocked(c) {
                notes.push(format!("{} is unlocked", c.name()));
            }
        }
        notes
    }
}
