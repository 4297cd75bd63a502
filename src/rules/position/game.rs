//! The one implementation of [`Game`] for every variant: the shared behaviour here, the rest
//! handed to the variant's [`VariantRules`].

use super::{Position, VariantRules};
use crate::rules::bitset::Cell;
use crate::rules::game::{Game, GameEnd, MoveError};
use crate::rules::moves::{CastlingSide, Move, MoveList};
use crate::rules::piece::{Colour, Kind, Piece};
use crate::rules::variant::Variant;

impl<V: VariantRules<W>, const W: usize> Game for Position<V, W> {
    #[inline]
    fn variant(&self) -> Variant {
        self.state.variant()
    }

    #[inline(always)]
    fn side_to_move(&self) -> Colour {
        self.side
    }

    #[inline(always)]
    fn key(&self) -> u64 {
        self.board.key()
    }

    #[inline]
    fn generate(&self, moves: &mut MoveList) {
        V::generate(self, moves);
    }

    #[inline]
    fn count_moves(&self) -> u64 {
        V::count_moves(self)
    }

    #[inline]
    fn make(&mut self, mv: Move) {
        self.make_move(mv);
    }

    #[inline]
    fn unmake(&mut self) {
        self.unmake_move();
    }

    #[inline(always)]
    fn history_len(&self) -> usize {
        self.history.len()
    }

    #[inline]
    fn in_check(&self) -> bool {
        V::in_check(self)
    }

    fn fen(&self) -> String {
        self.write_fen()
    }

    fn move_name(&self, mv: Move) -> String {
        V::move_name(self, mv)
    }

    fn is_move_syntax(&self, s: &str) -> bool {
        V::is_move_syntax(self, s)
    }

    fn parse_move(&self, s: &str) -> Result<Move, MoveError> {
        V::parse_move(self, s)
    }

    fn king_destination(&self, mv: Move) -> Option<Cell> {
        V::king_destination(self, mv)
    }

    fn castling_side(&self, mv: Move) -> Option<CastlingSide> {
        V::castling_side(self, mv)
    }

    #[inline]
    fn decided(&self) -> Option<GameEnd> {
        V::decided(self)
    }

    fn end_without_moves(&self) -> GameEnd {
        V::end_without_moves(self)
    }

    #[inline]
    fn repetitions(&self) -> usize {
        self.repetition_count()
    }

    #[inline]
    fn rule_draw(&self) -> Option<&'static str> {
        match V::move_rule(self) {
            Some((plies, name)) if self.clocks.halfmove >= plies => Some(name),
            _ if V::insufficient_material(self) => Some("insufficient material"),
            _ => None,
        }
    }

    #[inline(always)]
    fn piece_at(&self, cell: Cell) -> Piece {
        self.board.piece_at(cell)
    }

    #[inline]
    fn captured_piece(&self, mv: Move) -> Piece {
        V::captured_piece(self, mv)
    }

    #[inline]
    fn is_tactical(&self, mv: Move) -> bool {
        V::is_tactical(self, mv)
    }

    #[inline]
    fn may_give_check(&self, mv: Move) -> bool {
        V::may_give_check(self, mv)
    }

    #[inline]
    fn legal_without_generating(&self, mv: Move) -> Option<bool> {
        V::legal_without_generating(self, mv)
    }

    #[inline]
    fn generate_tactical(&self, moves: &mut MoveList) {
        V::generate_tactical(self, moves);
    }

    #[inline]
    fn null_move_allowed(&self) -> bool {
        V::null_move_allowed(self)
    }

    #[inline]
    fn make_null(&mut self) {
        V::make_null(self);
    }

    #[inline]
    fn unmake_null(&mut self) {
        V::unmake_null(self);
    }

    fn drawing(&self) -> String {
        V::drawing(self)
    }

    fn cell_name(&self, cell: Cell) -> String {
        self.state.geometry().name(cell)
    }

    fn in_hand(&self, colour: Colour) -> Vec<(Kind, usize)> {
        V::in_hand(self, colour)
    }

    fn notes(&self) -> Vec<String> {
        V::notes(self)
    }

    fn kings_in_danger(&self) -> Vec<Cell> {
        V::kings_in_danger(self)
    }

    fn explain_illegal(&self, from: Cell, to: Cell) -> String {
        V::explain_illegal(self, from, to)
    }

    /// The core's checks (bitsets against mailbox on every cell of the board, the incremental
    /// key against one computed from scratch), then the variant's.
    fn check_invariants(&self) -> Result<(), String> {
        self.board
            .check(self.state.geometry().cells(), self.key_from_scratch())?;
        V::invariants(self)
    }
}
