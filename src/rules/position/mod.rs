//! The position core every variant shares: the placement (with its Zobrist key), the colour to
//! move, the clocks, the history of moves (for unmake and repetition) and the stack of null
//! moves, with the variant's own state beside them.
//!
//! A variant is a type implementing [`VariantRules`]: its own state (castling rights, en
//! passant, hands, reserves, eliminated colours, ...) and the rules that differ (move
//! generation, making and unmaking its moves, attacks, the end of the game, its FEN fields,
//! its notation). [`Position<V, W>`] owns the rest and implements
//! [`Game`](super::game::Game) once for every variant (`game.rs`), generic and monomorphised,
//! so each variant's hot code is compiled for its own type as before. The FEN's shared parts
//! (fields, placement, holdings, side, clocks, key) are read and written in `fen.rs`.

mod fen;
mod game;
mod hooks;

pub use hooks::VariantRules;

use super::bitset::Cell;
use super::board::Board;
use super::clocks::Clocks;
use super::moves::Move;
use super::piece::{Colour, Kind};

/// A move in the history: the move, and what taking it back restores. The shared part (the
/// key, the clocks and the colour that moved) is here; `extra` is the variant's own.
#[derive(Clone, Copy, Debug)]
pub struct Record<U> {
    /// The move.
    pub mv: Move,
    /// The key before the move.
    pub key: u64,
    /// The clocks before the move.
    pub clocks: Clocks,
    /// The colour that made the move.
    pub side: Colour,
    /// What the variant keeps to take the move back (captured piece, rights, ...).
    pub extra: U,
}

/// What a null move changed, for taking it back.
#[derive(Clone, Copy, Debug)]
pub struct NullRecord {
    key: u64,
    reversible: u32,
    side: Colour,
    ep: u16,
}

/// A position of the variant `V` on a board of `W` 64-bit words: the state every variant has,
/// and the variant's own (`state`).
///
/// `PartialEq` compares the game state (placement, side to move, clocks, the variant's
/// state), not the history.
#[derive(Clone)]
pub struct Position<V: VariantRules<W>, const W: usize> {
    /// The placement, with the Zobrist key of the whole position.
    pub(in crate::rules) board: Board<W>,
    /// The colour to move.
    pub(in crate::rules) side: Colour,
    /// The n-move clock, the move number and the window of repetition.
    pub(in crate::rules) clocks: Clocks,
    /// The moves made, oldest first.
    pub(in crate::rules) history: Vec<Record<V::Undo>>,
    /// The null moves made (kept apart from the moves).
    pub(in crate::rules) nulls: Vec<NullRecord>,
    /// The variant's own state.
    pub(in crate::rules) state: V,
}

impl<V: VariantRules<W>, const W: usize> Position<V, W> {
    /// An empty board with White to move and no history; `state` is the variant's own state.
    pub(in crate::rules) fn with_state(state: V) -> Self {
        Position {
            board: Board::new(state.zobrist()),
            side: Colour::WHITE,
            clocks: Clocks::default(),
            history: Vec::new(),
            nulls: Vec::new(),
            state,
        }
    }

    /// The placement.
    #[inline(always)]
    pub fn board(&self) -> &Board<W> {
        &self.board
    }

    /// The placement, to change by hand (an editor): the caller is to check the result
    /// through the FEN reader ([`AnyGame::with_placement`](crate::rules::AnyGame::with_placement)).
    pub(crate) fn board_mut(&mut self) -> &mut Board<W> {
        &mut self.board
    }

    /// The half-move clock (plies since the last capture or pawn move, or what the variant's
    /// n-move rule counts).
    pub fn halfmove_clock(&self) -> u32 {
        self.clocks.halfmove
    }

    /// The Zobrist key of the position before move `i` of the history (`i` = the history's
    /// length: the current position).
    #[inline(always)]
    pub fn key_at(&self, i: usize) -> u64 {
        match self.history.get(i) {
            Some(r) => r.key,
            None => self.board.key(),
        }
    }

    /// How many pieces of `kind` `colour` holds off the board (Poles in hand, reserves).
    #[inline(always)]
    pub fn hand_count(&self, colour: Colour, kind: Kind) -> usize {
        V::hand_count(self, colour, kind)
    }

    /// Hands the turn from the colour to move to `next`, with its key, and counts a new move
    /// number when the turn comes round again (`next` not after the mover).
    #[inline(always)]
    pub(in crate::rules) fn hand_over(&mut self, next: Colour) {
        let us = self.side;
        let z = self.state.zobrist();
        self.board.toggle_key(z.side[us.idx()] ^ z.side[next.idx()]);
        self.side = next;
        if next.0 <= us.0 {
            self.clocks.fullmove = self.clocks.fullmove.saturating_add(1);
        }
    }

    /// Plays `mv` (the variant moves the pieces and hands over the turn; the record of the
    /// move is kept here).
    #[inline]
    pub(in crate::rules) fn make_move(&mut self, mv: Move) {
        let (key, clocks, side) = (self.board.key(), self.clocks, self.side);
        let extra = V::make(self, mv);
        self.history.push(Record {
            mv,
            key,
            clocks,
            side,
            extra,
        });
    }

    /// Takes back the last move made.
    #[inline]
    pub(in crate::rules) fn unmake_move(&mut self) {
        let r = self.history.pop().expect("unmake without a move");
        self.side = r.side;
        V::unmake(self, r.mv, &r.extra);
        self.clocks = r.clocks;
        self.board.set_key(r.key);
    }

    /// The null move of a two-colour position: the other side moves, an en passant cell is
    /// forgotten ([`VariantRules::take_ep`]), and repetition detection does not look back
    /// across it. Null moves keep their own stack, apart from the history of moves.
    pub(in crate::rules) fn make_null_move(&mut self) {
        let key = self.board.key();
        let ep = V::take_ep(self);
        self.nulls.push(NullRecord {
            key,
            reversible: self.clocks.reversible,
            side: self.side,
            ep,
        });
        self.clocks.reversible = 0;
        let us = self.side;
        let them = us.flip();
        let z = self.state.zobrist();
        self.board.toggle_key(z.side[us.idx()] ^ z.side[them.idx()]);
        self.side = them;
    }

    /// Takes back [`Position::make_null_move`].
    pub(in crate::rules) fn unmake_null_move(&mut self) {
        let r = self.nulls.pop().expect("unmake_null without a null move");
        self.side = r.side;
        self.clocks.reversible = r.reversible;
        self.board.set_key(r.key);
        V::put_back_ep(self, r.ep);
    }

    /// How many times the current position occurred before: among the last `reversible`
    /// moves, every [`VariantRules::REPETITION_STEP`]-th position looking back.
    pub(in crate::rules) fn repetition_count(&self) -> usize {
        let made = self.history.len();
        self.clocks
            .repetitions(self.board.key(), made, V::REPETITION_STEP, |i| {
                self.history[i].key
            })
    }

    /// Reads a move's name in the default notation: two cells' names, then the letter of a
    /// promotion's kind ([`VariantRules::promotion_kind`]); `None` for anything else.
    pub(in crate::rules) fn cells_and_promotion(
        &self,
        s: &str,
    ) -> Option<(Cell, Cell, Option<Kind>)> {
        let geo = self.state.geometry();
        let (from, n1) = geo.parse_name_prefix(s)?;
        let rest = &s[n1..];
        let (to, n2) = geo.parse_name_prefix(rest)?;
        let mut tail = rest[n2..].chars();
        let promotion = match (tail.next(), tail.next()) {
            (None, _) => None,
            (Some(c), None) => Some(V::promotion_kind(self, c)?),
            _ => return None,
        };
        Some((from, to, promotion))
    }

    /// The Zobrist key recomputed from scratch: the placement, the colour to move and the
    /// variant's state ([`VariantRules::state_key`]).
    pub(in crate::rules) fn key_from_scratch(&self) -> u64 {
        self.board.placement_key_from_scratch()
            ^ self.state.zobrist().side[self.side.idx()]
            ^ V::state_key(self)
    }
}

impl<V: VariantRules<W>, const W: usize> PartialEq for Position<V, W> {
    /// Positions are equal when their whole game state is (history is not compared).
    fn eq(&self, other: &Self) -> bool {
        self.board == other.board
            && self.side == other.side
            && self.clocks == other.clocks
            && self.state == other.state
    }
}

impl<V: VariantRules<W>, const W: usize> std::fmt::Debug for Position<V, W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let fen = self.write_fen();
        write!(f, "Position({}: {fen})", self.state.variant().name())
    }
}

#[cfg(test)]
mod tests {
    /// A null move passes the turn and forgets the en passant square, keeps the half-move
    /// clock (the fifty-move rule still counts), hides earlier positions from repetition,
    /// and is taken back exactly.
    #[test]
    fn a_null_move_passes_the_turn_and_comes_back() {
        use crate::rules::{AnyGame, Game, Variant};
        let fen = "rnbqkbnr/ppppp1pp/8/4Pp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 37 3";
        let mut g = AnyGame::from_fen(Variant::Chess, fen).unwrap();
        let before = g.clone();
        g.make_null();
        assert_eq!(
            g.fen(),
            "rnbqkbnr/ppppp1pp/8/4Pp2/8/8/PPPP1PPP/RNBQKBNR b KQkq - 37 3"
        );
        assert!(g.check_invariants().is_ok());
        // Knight out and back: the position after the null move repeats, not the one before.
        for m in ["g8f6", "g1f3", "f6g8", "f3g1"] {
            let mv = g.parse_move(m).unwrap();
            g.make(mv);
        }
        assert_eq!(g.repetitions(), 1);
        for _ in 0..4 {
            g.unmake();
        }
        g.unmake_null();
        assert_eq!(g, before);
        assert_eq!(g.key(), before.key());
        assert_eq!(g.fen(), fen);
    }

    /// The core keeps the record of every variant's moves alike: the key before each move,
    /// and after make and unmake the same position, key and FEN.
    #[test]
    fn every_variant_keeps_its_history_in_the_core() {
        use crate::rules::{AnyGame, Game, MoveList, Variant};
        for v in Variant::ALL {
            let mut g = AnyGame::startpos(v);
            let before = g.clone();
            let mut keys = vec![g.key()];
            for _ in 0..4 {
                let mut list = MoveList::new();
                g.generate(&mut list);
                g.make(list.as_slice()[list.len() / 2]);
                keys.push(g.key());
                assert!(g.check_invariants().is_ok(), "{v:?}");
            }
            crate::with_game!(&g, p => {
                for (i, &k) in keys.iter().enumerate() {
                    assert_eq!(p.key_at(i), k, "{v:?}");
                }
            });
            while g.history_len() > 0 {
                g.unmake();
            }
            assert_eq!(g, before, "{v:?}");
            assert_eq!((g.key(), g.fen()), (before.key(), before.fen()), "{v:?}");
        }
    }
}
