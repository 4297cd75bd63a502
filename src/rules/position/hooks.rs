//! What a variant supplies to the position core: its own state, and the rules that differ.
//!
//! Every function that needs the position takes it as `p` ([`Position<Self, W>`]): the hooks
//! are the variant's code, reached through the one generic implementation of
//! [`Game`](crate::rules::Game) and monomorphised per variant. The defaults are what most
//! variants do; a variant overrides only what it does differently.

use super::Position;
use crate::rules::bitset::Cell;
use crate::rules::game::{GameEnd, MoveError, mate_or_stalemate};
use crate::rules::geometry::Geometry;
use crate::rules::moves::{CastlingSide, Move, MoveFlag, MoveList};
use crate::rules::piece::{Colour, Kind, Piece};
use crate::rules::placement::{self, Chars2};
use crate::rules::sink::{CountSink, ListSink, MoveSink};
use crate::rules::variant::Variant;
use crate::rules::zobrist::Zobrist;

/// A variant's own state beside the shared core (castling rights, en passant, hands, ...),
/// and its rules. `PartialEq` compares the state that is part of the game (what the FEN
/// holds), not ways of writing it.
pub trait VariantRules<const W: usize>: Sized + Clone + PartialEq + Send + Sync + 'static {
    /// What the variant keeps of a move, beyond the shared [`Record`](super::Record), to take
    /// it back.
    type Undo: Copy + std::fmt::Debug + Send + Sync + 'static;

    /// Repetitions are looked for at every `REPETITION_STEP`-th earlier position: 2 where two
    /// colours alternate (only positions with the same colour to move can be equal), 1 where
    /// the key alone decides.
    const REPETITION_STEP: usize = 2;

    /// The name of the FEN's bracketed part after the placement (`[Oo+]`, `[QRr]`), for its
    /// error messages; `None` where the FEN has none.
    const HOLDINGS: Option<&'static str> = None;

    // --- What the variant is ---

    /// The variant's identity.
    fn variant(&self) -> Variant;

    /// The board: cells, names, coordinates, rays.
    fn geometry(&self) -> &'static Geometry<W>;

    /// The Zobrist keys.
    fn zobrist(&self) -> &'static Zobrist;

    /// The pieces' letters by kind (upper case), for FEN and notation.
    fn letters(&self) -> &'static [char];

    // --- Moves ---

    /// Hands every legal move to `sink`.
    fn generate_into<S: MoveSink<W>>(p: &Position<Self, W>, sink: &mut S);

    /// Appends every legal move (see [`Game::generate`](crate::rules::Game::generate)).
    #[inline]
    fn generate(p: &Position<Self, W>, moves: &mut MoveList) {
        Self::generate_into(p, &mut ListSink(moves));
    }

    /// The number of legal moves, counted without listing them.
    #[inline]
    fn count_moves(p: &Position<Self, W>) -> u64 {
        let mut c = CountSink(0);
        Self::generate_into(p, &mut c);
        c.0
    }

    /// Appends the legal tactical moves (see
    /// [`Game::generate_tactical`](crate::rules::Game::generate_tactical)).
    fn generate_tactical(p: &Position<Self, W>, moves: &mut MoveList) {
        let mut all = MoveList::new();
        Self::generate(p, &mut all);
        for &m in all.iter() {
            if Self::is_tactical(p, m) {
                moves.push(m);
            }
        }
    }

    /// Plays the legal move `mv`: moves the pieces, updates the variant's state and the
    /// clocks, and hands over the turn (`Position::hand_over`). Returns what taking it back
    /// needs beyond the key, the clocks and the colour that moved, which the core keeps.
    fn make(p: &mut Position<Self, W>, mv: Move) -> Self::Undo;

    /// Takes back `mv`, the last move: the colour that made it is already to move again; the
    /// key and the clocks are restored by the core afterwards.
    fn unmake(p: &mut Position<Self, W>, mv: Move, undo: &Self::Undo);

    /// Passes the turn for null-move pruning: by default the two-colour null move of the core
    /// (`Position::make_null_move`).
    fn make_null(p: &mut Position<Self, W>) {
        p.make_null_move();
    }

    /// Takes back [`VariantRules::make_null`].
    fn unmake_null(p: &mut Position<Self, W>) {
        p.unmake_null_move();
    }

    /// Clears the en passant cell (and its key) for a null move and returns it in the
    /// variant's own encoding (`u16::MAX` where the variant has none).
    #[inline(always)]
    fn take_ep(_p: &mut Position<Self, W>) -> u16 {
        u16::MAX
    }

    /// Puts back a cell [`VariantRules::take_ep`] returned (the key is restored by the core).
    #[inline(always)]
    fn put_back_ep(_p: &mut Position<Self, W>, _ep: u16) {}

    /// Whether passing the turn is a sound search device here (by default: when not in check).
    fn null_move_allowed(p: &Position<Self, W>) -> bool {
        !Self::in_check(p)
    }

    // --- Attacks and the end of the game ---

    /// Whether the side to move is in check (false in the variants without check).
    fn in_check(p: &Position<Self, W>) -> bool;

    /// The cells of the Kings in danger (see
    /// [`Game::kings_in_danger`](crate::rules::Game::kings_in_danger)).
    fn kings_in_danger(p: &Position<Self, W>) -> Vec<Cell>;

    /// A result that holds without looking at the legal moves (a King captured).
    fn decided(_p: &Position<Self, W>) -> Option<GameEnd> {
        None
    }

    /// The result when the side to move has no legal move: by default checkmate or stalemate.
    fn end_without_moves(p: &Position<Self, W>) -> GameEnd {
        mate_or_stalemate(Self::in_check(p), p.side)
    }

    /// The n-move rule: after how many plies of the half-move clock the game is drawn, and
    /// the rule's name; `None` where the variant has none.
    fn move_rule(p: &Position<Self, W>) -> Option<(u32, &'static str)>;

    /// Whether no sequence of moves can end the game but in a draw ("insufficient material").
    fn insufficient_material(_p: &Position<Self, W>) -> bool {
        false
    }

    // --- The pieces a move concerns ---

    /// The piece `mv` captures or hits (see
    /// [`Game::captured_piece`](crate::rules::Game::captured_piece)).
    fn captured_piece(p: &Position<Self, W>, mv: Move) -> Piece {
        match mv.flag() {
            MoveFlag::Drop | MoveFlag::Pass | MoveFlag::Castle => Piece::NONE,
            _ => p.board.piece_at(mv.to()),
        }
    }

    /// Whether `mv` changes material (see [`Game::is_tactical`](crate::rules::Game::is_tactical)).
    fn is_tactical(p: &Position<Self, W>, mv: Move) -> bool {
        Self::captured_piece(p, mv).is_some()
            || (mv.promotion().is_some() && mv.flag() != MoveFlag::Drop)
    }

    /// See [`Game::may_give_check`](crate::rules::Game::may_give_check).
    fn may_give_check(_p: &Position<Self, W>, _mv: Move) -> bool {
        true
    }

    /// See [`Game::legal_without_generating`](crate::rules::Game::legal_without_generating).
    fn legal_without_generating(_p: &Position<Self, W>, _mv: Move) -> Option<bool> {
        None
    }

    /// See [`Game::king_destination`](crate::rules::Game::king_destination).
    fn king_destination(_p: &Position<Self, W>, _mv: Move) -> Option<Cell> {
        None
    }

    /// See [`Game::castling_side`](crate::rules::Game::castling_side).
    fn castling_side(_p: &Position<Self, W>, _mv: Move) -> Option<CastlingSide> {
        None
    }

    // --- Notation ---

    /// A move's name: by default the two cells' names, then the promotion's letter in lower
    /// case (`Cc3Cc5`, `Ce9Ce10q`); `0000` for a pass.
    fn move_name(p: &Position<Self, W>, mv: Move) -> String {
        if mv.flag() == MoveFlag::Pass {
            return "0000".into();
        }
        let geo = p.state.geometry();
        let mut s = geo.name(mv.from());
        s.push_str(&geo.name(mv.to()));
        if let Some(k) = mv.promotion() {
            s.push(p.state.letters()[k as usize].to_ascii_lowercase());
        }
        s
    }

    /// The kind a promotion letter (the last character of a move's name) names, where a move
    /// may promote to it; `None` for any other character.
    fn promotion_kind(_p: &Position<Self, W>, _letter: char) -> Option<Kind> {
        None
    }

    /// The fields of a move's name in the default notation (from-cell, to-cell, promotion),
    /// legal or not; `None` if `s` is not a move's name at all.
    fn move_fields(p: &Position<Self, W>, s: &str) -> Option<(Cell, Cell, Option<Kind>)> {
        p.cells_and_promotion(s)
    }

    /// See [`Game::is_move_syntax`](crate::rules::Game::is_move_syntax).
    fn is_move_syntax(p: &Position<Self, W>, s: &str) -> bool {
        Self::move_fields(p, s).is_some()
    }

    /// Reads a legal move: by default its fields ([`VariantRules::move_fields`]), looked up
    /// among the legal moves (cheaper than naming every legal move).
    fn parse_move(p: &Position<Self, W>, s: &str) -> Result<Move, MoveError> {
        let Some((from, to, promotion)) = Self::move_fields(p, s) else {
            return Err(MoveError::Malformed(s.to_string()));
        };
        let mut list = MoveList::new();
        Self::generate(p, &mut list);
        list.iter()
            .copied()
            .find(|m| m.from() == from && m.to() == to && m.promotion() == promotion)
            .ok_or_else(|| MoveError::Illegal(s.to_string()))
    }

    // --- FEN ---

    /// The names of the FEN's fields, for its error messages: the placement and the side to
    /// move first, the half-move clock and the move number last (by default nothing between).
    fn fen_field_names(&self) -> Vec<&'static str> {
        vec![
            "placement",
            "side to move",
            "half-move clock",
            "move number",
        ]
    }

    /// Reads one piece of the placement whose first character is `first` (by default one
    /// letter of [`VariantRules::letters`], upper case White).
    fn read_piece(&self, first: char, _rest: &mut Chars2) -> Result<Piece, String> {
        placement::read_letter(self.letters(), first)
    }

    /// Appends the text of `piece` in the placement.
    fn write_piece(&self, piece: Piece, out: &mut String) {
        out.push(placement::letter(self.letters(), piece));
    }

    /// Reads the rest of a FEN once the pieces stand on the board: the holdings (the
    /// bracketed part, when [`VariantRules::HOLDINGS`] names one), the side to move and the
    /// variant's fields (`fields` are all the FEN's fields), and checks the position in the
    /// variant's order. The clocks are read after it, then [`VariantRules::check_fen`].
    fn read_fen_state(
        p: &mut Position<Self, W>,
        holdings: Option<&str>,
        fields: &[&str],
    ) -> Result<(), String>;

    /// Checks made after the clocks have been read (`fields` are all the FEN's fields).
    fn check_fen(_p: &mut Position<Self, W>, _fields: &[&str]) -> Result<(), String> {
        Ok(())
    }

    /// What the FEN holds in brackets after the placement, without the brackets (`None`:
    /// no brackets).
    fn holdings(_p: &Position<Self, W>) -> Option<String> {
        None
    }

    /// The variant's FEN fields between the side to move and the clocks (castling, en
    /// passant, ...).
    fn fen_fields(_p: &Position<Self, W>) -> Vec<String> {
        Vec::new()
    }

    /// The key of the variant's state (rights, en passant, hands, ...), XORed into the key of
    /// the placement and the colour to move.
    fn state_key(_p: &Position<Self, W>) -> u64 {
        0
    }

    // --- For players and tests ---

    /// The drawing of the `d` command.
    fn drawing(p: &Position<Self, W>) -> String;

    /// Whether the variant ever holds pieces off the board (Poles in hand, reserves): where
    /// not, a network does not read [`VariantRules::hand_count`].
    const HOLDS: bool = false;

    /// How many pieces of `kind` `colour` holds off the board, as [`VariantRules::in_hand`]
    /// counts them but without building a list (a network reads it at every evaluation).
    fn hand_count(_p: &Position<Self, W>, _colour: Colour, _kind: Kind) -> usize {
        0
    }

    /// What `colour` holds off the board (see [`Game::in_hand`](crate::rules::Game::in_hand)).
    fn in_hand(_p: &Position<Self, W>, _colour: Colour) -> Vec<(Kind, usize)> {
        Vec::new()
    }

    /// The state beside the placement, in words (see [`Game::notes`](crate::rules::Game::notes)).
    fn notes(_p: &Position<Self, W>) -> Vec<String> {
        Vec::new()
    }

    /// Why the piece on `from` cannot go to `to`, in words.
    fn explain_illegal(p: &Position<Self, W>, from: Cell, to: Cell) -> String;

    /// The variant's own consistency checks, after the core's (bitsets against mailbox, the
    /// incremental key against a key computed from scratch).
    fn invariants(_p: &Position<Self, W>) -> Result<(), String> {
        Ok(())
    }
}
