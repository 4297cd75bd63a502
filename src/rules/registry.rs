//! The registry: the built-in variants, one row each in [`BUILTIN`]; every position type
//! behind one [`AnyGame`]; and the variants by name, built-in or loaded from files
//! ([`Variant::from_name`], [`Variant::available`]).
//!
//! Hot code (perft, search) is generic over [`Game`] and reached through
//! [`with_game!`](crate::with_game), which monomorphises it for each position type. Adding a
//! built-in variant means its name in [`Variant`] and one row in [`BUILTIN`]; a variant that
//! brings a new position type also adds its arm to [`AnyGame`] and to `with_game!`
//! (CONTRIBUTING.md, "Adding a variant").

use super::bitset::Cell;
use super::chess::{self, ChessPosition};
use super::defined::{self, DefinedPosition};
use super::future::{self, FuturePosition};
use super::game::{Game, GameEnd};
use super::geometry::Layout;
use super::info::VariantInfo;
use super::moves::{Move, MoveList};
use super::pentaplane::{self, PentaplanePosition};
use super::piece::{Colour, Piece};
use super::podionic::{self, PodionicPosition};
use super::polyhedron::{self, PolyhedronPosition};
use super::variant::Variant;

/// A built-in variant: what it declares about itself (names, start position, pieces, bench
/// positions, strength ladder), how a position of it is read, and its board. Its
/// evaluation is the [`Evaluate`](crate::eval::Evaluate) implementation of its position
/// type, reached like its rules through [`AnyGame`].
pub struct Builtin {
    /// The variant.
    pub variant: Variant,
    /// What it declares about itself.
    pub info: &'static VariantInfo,
    /// A position from a FEN.
    pub from_fen: fn(&str) -> Result<AnyGame, String>,
    /// The board as a drawing needs it (levels, cells, names, coordinates).
    pub layout: fn() -> Layout,
}

/// The built-in variants, one row each, in the order `UCI_Variant` lists them.
pub const BUILTIN: [Builtin; 6] = [
    Builtin {
        variant: Variant::Chess,
        info: &chess::info::CHESS,
        from_fen: |fen| ChessPosition::from_fen(fen, false).map(AnyGame::Chess),
        layout: || chess::tables::TABLES.geo.layout(),
    },
    Builtin {
        variant: Variant::Pole,
        info: &chess::info::POLE,
        from_fen: |fen| ChessPosition::from_fen(fen, true).map(AnyGame::Chess),
        layout: || chess::tables::TABLES.geo.layout(),
    },
    Builtin {
        variant: Variant::Polyhedron,
        info: &polyhedron::info::INFO,
        from_fen: |fen| PolyhedronPosition::from_fen(fen).map(AnyGame::Polyhedron),
        layout: || PolyhedronPosition::geometry().layout(),
    },
    Builtin {
        variant: Variant::Podionic,
        info: &podionic::info::INFO,
        from_fen: |fen| PodionicPosition::from_fen(fen).map(AnyGame::Podionic),
        layout: || PodionicPosition::geometry().layout(),
    },
    Builtin {
        variant: Variant::Pentaplane,
        info: &pentaplane::info::INFO,
        from_fen: |fen| PentaplanePosition::from_fen(fen).map(AnyGame::Pentaplane),
        layout: || PentaplanePosition::geometry().layout(),
    },
    Builtin {
        variant: Variant::FutureGeneration,
        info: &future::info::INFO,
        from_fen: |fen| FuturePosition::from_fen(fen).map(AnyGame::Future),
        layout: || FuturePosition::geometry().layout(),
    },
];

impl Variant {
    /// The built-in variants, in the order `UCI_Variant` lists them (those of [`BUILTIN`]).
    pub const ALL: [Variant; BUILTIN.len()] = {
        let mut all = [Variant::Chess; BUILTIN.len()];
        let mut i = 0;
        while i < all.len() {
            all[i] = BUILTIN[i].variant;
            i += 1;
        }
        all
    };

    /// The variant with protocol name `name`: a built-in one, or the newest loaded from a
    /// file under that name.
    pub fn from_name(name: &str) -> Option<Variant> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name() == name)
            .or_else(|| defined::find(name))
    }

    /// Every variant known now: the built-in ones, then those loaded from files.
    pub fn available() -> Vec<Variant> {
        let mut all = Variant::ALL.to_vec();
        all.extend(defined::loaded());
        all
    }

    /// What the variant declares about itself: names, start position, colours, pieces,
    /// bench positions, strength ladder.
    pub fn info(self) -> &'static VariantInfo {
        match self {
            Variant::Defined(d) => &d.0.info,
            builtin => row(builtin).info,
        }
    }

    /// The protocol name (`UCI_Variant` value).
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// The name players know the variant by ("Polyhedron Chess"; a file variant's `title`,
    /// or its name where it has none).
    pub fn title(self) -> &'static str {
        match self {
            Variant::Defined(d) if !d.0.title.is_empty() => &d.0.title,
            Variant::Defined(d) => d.0.name,
            _ => self.info().title,
        }
    }

    /// The start position's FEN.
    pub fn start_fen(self) -> &'static str {
        self.info().start_fen
    }

    /// The number of colours (seats): 2, or 4 in two teams.
    pub fn colours(self) -> usize {
        self.info().colours
    }

    /// The board as a drawing needs it (levels, cells, names, coordinates).
    pub fn layout(self) -> Layout {
        match self {
            Variant::Defined(d) => d.0.geo.layout(),
            builtin => (row(builtin).layout)(),
        }
    }
}

/// The row of `v`, a built-in variant.
fn row(v: Variant) -> &'static Builtin {
    BUILTIN
        .iter()
        .find(|b| b.variant == v)
        .expect("every built-in variant has its row in BUILTIN")
}

/// A position of whichever variant is selected.
///
/// The variants differ in size (a 300-cell board is four times chess's), but an `AnyGame` is
/// long-lived (one per engine or search thread) and the hot code works on the concrete position
/// inside, so boxing the large ones would buy nothing and complicate [`with_game!`](crate::with_game).
#[derive(Clone, Debug, PartialEq)]
#[allow(clippy::large_enum_variant)]
pub enum AnyGame {
    /// Chess or Pole Chess.
    Chess(ChessPosition),
    /// Polyhedron Chess.
    Polyhedron(PolyhedronPosition),
    /// Podionic Chess.
    Podionic(PodionicPosition),
    /// Pentaplane V.
    Pentaplane(PentaplanePosition),
    /// Chess – The Future Generation.
    Future(FuturePosition),
    /// A variant defined in a file.
    Defined(DefinedPosition),
}

/// Runs `$body` with `$g` bound to the concrete position inside an [`AnyGame`] (by value,
/// reference or mutable reference, as `$any` is), so generic code is monomorphised per
/// variant.
#[macro_export]
macro_rules! with_game {
    ($any:expr, $g:ident => $body:expr) => {
        match $any {
            $crate::rules::registry::AnyGame::Chess($g) => $body,
            $crate::rules::registry::AnyGame::Polyhedron($g) => $body,
            $crate::rules::registry::AnyGame::Podionic($g) => $body,
            $crate::rules::registry::AnyGame::Pentaplane($g) => $body,
            $crate::rules::registry::AnyGame::Future($g) => $body,
            $crate::rules::registry::AnyGame::Defined($g) => $body,
        }
    };
}

impl AnyGame {
    /// The start position of `variant`.
    pub fn startpos(variant: Variant) -> AnyGame {
        AnyGame::from_fen(variant, variant.start_fen()).expect("start positions are valid")
    }

    /// This position with its pieces replaced by `pieces` (cell, piece) and the rest of its
    /// state (side to move, hands, castling, counters) kept, read back through the FEN
    /// reader: for a position editor, which gets the reader's own error for a placement the
    /// rules refuse (no King, a pawn on its last rank, ...). Returns the new position's FEN.
    pub fn with_placement(&self, pieces: &[(Cell, Piece)]) -> Result<String, String> {
        let variant = self.variant();
        let cells = variant.layout().cells.len();
        let (kinds, colours) = (variant.info().pieces.len(), variant.colours());
        for &(cell, piece) in pieces {
            if cell >= cells {
                return Err(format!("{} has no cell {cell}", variant.name()));
            }
            if piece.is_none() || piece.kind() as usize >= kinds || piece.colour().idx() >= colours
            {
                return Err(format!("{} has no piece {:?}", variant.name(), piece.0));
            }
        }
        let mut edited = self.clone();
        with_game!(&mut edited, g => {
            let board = g.board_mut();
            for cell in board.occupied().iter().collect::<Vec<_>>() {
                board.remove(cell);
            }
            for &(cell, piece) in pieces {
                if board.piece_at(cell).is_some() {
                    board.remove(cell);
                }
                board.put(cell, piece);
            }
        });
        let fen = edited.fen();
        AnyGame::from_fen(variant, &fen)?;
        Ok(fen)
    }

    /// Switches Chess960 notation (`UCI_Chess960`) on or off: castling written as the King
    /// taking its Rook, Shredder-FEN castling fields. Changes nothing in other variants.
    pub fn set_chess960(&mut self, on: bool) {
        if let AnyGame::Chess(p) = self {
            p.set_chess960(on);
        }
    }

    /// Whether Chess960 notation is on.
    pub fn chess960(&self) -> bool {
        matches!(self, AnyGame::Chess(p) if p.chess960())
    }

    /// A position of `variant` from its FEN.
    pub fn from_fen(variant: Variant, fen: &str) -> Result<AnyGame, String> {
        match variant {
            Variant::Defined(d) => DefinedPosition::from_fen(d.0, fen).map(AnyGame::Defined),
            builtin => (row(builtin).from_fen)(fen),
        }
    }
}

impl Game for AnyGame {
    fn variant(&self) -> Variant {
        with_game!(self, g => g.variant())
    }
    fn side_to_move(&self) -> Colour {
        with_game!(self, g => g.side_to_move())
    }
    fn team_to_move(&self) -> usize {
        with_game!(self, g => g.team_to_move())
    }
    fn key(&self) -> u64 {
        with_game!(self, g => g.key())
    }
    fn generate(&self, moves: &mut MoveList) {
        with_game!(self, g => g.generate(moves))
    }
    fn count_moves(&self) -> u64 {
        with_game!(self, g => g.count_moves())
    }
    fn make(&mut self, mv: Move) {
        with_game!(self, g => g.make(mv))
    }
    fn unmake(&mut self) {
        with_game!(self, g => g.unmake())
    }
    fn history_len(&self) -> usize {
        with_game!(self, g => g.history_len())
    }
    fn in_check(&self) -> bool {
        with_game!(self, g => g.in_check())
    }
    fn fen(&self) -> String {
        with_game!(self, g => g.fen())
    }
    fn move_name(&self, mv: Move) -> String {
        with_game!(self, g => g.move_name(mv))
    }
    fn is_move_syntax(&self, s: &str) -> bool {
        with_game!(self, g => g.is_move_syntax(s))
    }
    fn parse_move(&self, s: &str) -> Result<Move, super::game::MoveError> {
        with_game!(self, g => g.parse_move(s))
    }
    fn king_destination(&self, mv: Move) -> Option<super::bitset::Cell> {
        with_game!(self, g => g.king_destination(mv))
    }
    fn castling_side(&self, mv: Move) -> Option<super::moves::CastlingSide> {
        with_game!(self, g => g.castling_side(mv))
    }
    fn decided(&self) -> Option<GameEnd> {
        with_game!(self, g => g.decided())
    }
    fn end_without_moves(&self) -> GameEnd {
        with_game!(self, g => g.end_without_moves())
    }
    fn repetitions(&self) -> usize {
        with_game!(self, g => g.repetitions())
    }
    fn rule_draw(&self) -> Option<&'static str> {
        with_game!(self, g => g.rule_draw())
    }
    fn outcome(&self) -> Option<GameEnd> {
        with_game!(self, g => g.outcome())
    }
    fn piece_at(&self, cell: super::bitset::Cell) -> super::piece::Piece {
        with_game!(self, g => g.piece_at(cell))
    }
    fn moved_piece(&self, mv: Move) -> super::piece::Piece {
        with_game!(self, g => g.moved_piece(mv))
    }
    fn captured_piece(&self, mv: Move) -> super::piece::Piece {
        with_game!(self, g => g.captured_piece(mv))
    }
    fn is_tactical(&self, mv: Move) -> bool {
        with_game!(self, g => g.is_tactical(mv))
    }
    fn legal_without_generating(&self, mv: Move) -> Option<bool> {
        with_game!(self, g => g.legal_without_generating(mv))
    }
    fn may_give_check(&self, mv: Move) -> bool {
        with_game!(self, g => g.may_give_check(mv))
    }
    fn generate_tactical(&self, moves: &mut MoveList) {
        with_game!(self, g => g.generate_tactical(moves))
    }
    fn null_move_allowed(&self) -> bool {
        with_game!(self, g => g.null_move_allowed())
    }
    fn make_null(&mut self) {
        with_game!(self, g => g.make_null())
    }
    fn unmake_null(&mut self) {
        with_game!(self, g => g.unmake_null())
    }
    fn drawing(&self) -> String {
        with_game!(self, g => g.drawing())
    }
    fn cell_name(&self, cell: super::bitset::Cell) -> String {
        with_game!(self, g => g.cell_name(cell))
    }
    fn in_hand(&self, colour: Colour) -> Vec<(super::piece::Kind, usize)> {
        with_game!(self, g => g.in_hand(colour))
    }
    fn notes(&self) -> Vec<String> {
        with_game!(self, g => g.notes())
    }
    fn kings_in_danger(&self) -> Vec<super::bitset::Cell> {
        with_game!(self, g => g.kings_in_danger())
    }
    fn explain_illegal(&self, from: super::bitset::Cell, to: super::bitset::Cell) -> String {
        with_game!(self, g => g.explain_illegal(from, to))
    }
    fn check_invariants(&self) -> Result<(), String> {
        with_game!(self, g => g.check_invariants())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every piece of `g`, as `with_placement` takes them.
    fn placement(g: &AnyGame) -> Vec<(Cell, Piece)> {
        let cells = g.variant().layout().cells.len();
        (0..cells)
            .map(|c| (c, g.piece_at(c)))
            .filter(|(_, p)| p.is_some())
            .collect()
    }

    #[test]
    fn a_placement_round_trips_and_the_reader_judges_an_edit() {
        for v in Variant::ALL {
            let start = AnyGame::startpos(v);
            let mut pieces = placement(&start);
            // The same pieces: the same FEN.
            assert_eq!(start.with_placement(&pieces), Ok(start.fen()), "{v:?}");
            // One Pawn fewer: another FEN, read back with that placement.
            let kind = |name| v.info().pieces.iter().position(|p| p.name == name).unwrap() as u8;
            let (king, pawn) = (kind("King"), kind("Pawn"));
            let i = pieces.iter().position(|(_, p)| p.kind() == pawn).unwrap();
            let (gone, _) = pieces.remove(i);
            let fen = start.with_placement(&pieces).unwrap();
            let edited = AnyGame::from_fen(v, &fen).unwrap();
            assert!(edited.piece_at(gone).is_none(), "{v:?}");
            assert_eq!(placement(&edited), pieces, "{v:?}");
            // Without any King: the reader's error.
            pieces.retain(|(_, p)| p.kind() != king);
            assert!(start.with_placement(&pieces).is_err(), "{v:?}");
            // Nonsense is refused before the board is touched.
            assert!(
                start
                    .with_placement(&[(9999, Piece::new(0, Colour(0)))])
                    .is_err()
            );
            assert!(
                start
                    .with_placement(&[(0, Piece::new(16, Colour(0)))])
                    .is_err()
            );
        }
    }
}
