//! What a variant declares about itself beside its rules: its names, its start position, how
//! many colours play it, its pieces as players know them, how its levels are stacked, the
//! positions `bench` searches and its measured strength ladder. Each variant's module defines one [`VariantInfo`];
//! [`Variant::info`](super::Variant::info) finds it. This module depends on nothing of the
//! rules layer.

/// What a variant declares about itself beside its rules: its start position, how many
/// colours play it, and the positions `bench` searches in it. Each variant's module defines
/// one; [`Variant::info`](super::Variant::info) finds it.
#[derive(Debug)]
pub struct VariantInfo {
    /// The protocol name (`UCI_Variant` value): `chess`, `future-generation`.
    pub name: &'static str,
    /// The name players know it by: "Chess – The Future Generation". Empty for a variant
    /// from a file, whose title lives with its rules.
    pub title: &'static str,
    /// What is special about it, in one line for a games list. Empty for a variant from a
    /// file, as the title.
    pub summary: &'static str,
    /// The start position's FEN.
    pub start_fen: &'static str,
    /// The number of colours (seats): 2, or 4 in two teams.
    pub colours: usize,
    /// The bench positions (FENs), searched to [`VariantInfo::bench_depth`].
    pub bench_positions: &'static [&'static str],
    /// The bench depth: a few hundred milliseconds per position on one core.
    pub bench_depth: u32,
    /// The strength ladder: (skill level, Elo) points as measured (docs/results.md,
    /// "Strength levels"; `scripts/calibrate_strength.py`), levels and Elo both increasing;
    /// `crate::search::elo` interpolates between them. Empty where none was measured (a
    /// variant from a file), which then takes Polyhedron's.
    pub strength: &'static [(f64, f64)],
    /// The piece kinds, indexed by kind.
    pub pieces: &'static [PieceInfo],
    /// Which way the levels are stacked: whether level A is the bottom or the top. A drawing
    /// (the GUI's 3D view, its note under the 2D board) takes it from here, never from a
    /// table of its own.
    pub level_order: LevelOrder,
    /// What more a drawing's note says about how the levels lie, after the order (empty if
    /// nothing): "each level is centred on the one below".
    pub levels_detail: &'static str,
}

impl VariantInfo {
    /// How the levels of a board of `levels` levels lie, in words, for a drawing: the order,
    /// then [`VariantInfo::levels_detail`]; empty on a one-level board.
    pub fn levels_note(&self, levels: usize) -> String {
        if levels < 2 {
            return String::new();
        }
        let last = (b'A' + (levels - 1) as u8) as char;
        let mut note = match self.level_order {
            LevelOrder::BottomUp => format!("Level A is the bottom, {last} the top"),
            LevelOrder::TopDown => format!("Level A is the top, {last} the bottom"),
        };
        if !self.levels_detail.is_empty() {
            note.push_str("; ");
            note.push_str(self.levels_detail);
        }
        note
    }
}

/// Which way a variant's levels are stacked. The rules name levels by letter only (a move
/// from `A` to `B` is the same move whichever way up the board stands), but the variants'
/// own texts place them: Raumschach's tradition puts A at the bottom, Podionic's and the
/// Future Generation's at the top, and a drawing that stacks them the other way round
/// contradicts every diagram of the variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LevelOrder {
    /// Level A at the bottom, each next letter one level higher.
    BottomUp,
    /// Level A at the top, each next letter one level lower.
    TopDown,
}

impl LevelOrder {
    /// The height of level `z` (0 = A) on a board of `levels` levels: 0 for the bottom one,
    /// `levels - 1` for the top one.
    pub fn height(self, z: usize, levels: usize) -> usize {
        match self {
            LevelOrder::BottomUp => z,
            LevelOrder::TopDown => levels - 1 - z,
        }
    }
}

/// A piece kind as players know it.
#[derive(Clone, Copy, Debug)]
pub struct PieceInfo {
    /// Its letter in FEN and notation (upper case).
    pub letter: char,
    /// Its name.
    pub name: &'static str,
}

/// Shorthand for the piece tables of the variants' [`VariantInfo`]s.
pub const fn piece(letter: char, name: &'static str) -> PieceInfo {
    PieceInfo { letter, name }
}

/// The six FIDE pieces, in the kind order of the variants built on them (chess, Pole Chess,
/// Podionic, Future Generation), which number any further pieces after these.
pub const FIDE_PIECES: [PieceInfo; 6] = [
    piece('P', "Pawn"),
    piece('N', "Knight"),
    piece('B', "Bishop"),
    piece('R', "Rook"),
    piece('Q', "Queen"),
    piece('K', "King"),
];

/// The FIDE pieces and one more (kind 6).
pub const fn fide_pieces_and(extra: PieceInfo) -> [PieceInfo; 7] {
    let f = FIDE_PIECES;
    [f[0], f[1], f[2], f[3], f[4], f[5], extra]
}
