//! The variant file as written (`docs/variant-files.md`): TOML read with serde into these
//! types, every value that a later check may refuse kept with its place in the file
//! ([`Spanned`]) so that the error names the line.

use serde::Deserialize;
use toml::Spanned;

/// A whole file: one or more `[[variant]]` tables.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct VariantFile {
    /// The variants the file defines.
    pub variant: Vec<Spanned<VariantDef>>,
}

/// One variant.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct VariantDef {
    /// The protocol name (`UCI_Variant` value): lower case letters, digits and `-`.
    pub name: Spanned<String>,
    /// The name players know it by.
    #[serde(default)]
    pub title: Option<Spanned<String>>,
    /// Where its rules come from.
    #[serde(default)]
    pub source: Option<Spanned<String>>,
    /// What is special about it, in a line for players (the GUI shows it under its name).
    #[serde(default)]
    pub summary: Option<Spanned<String>>,
    /// A network trained for this variant (`strata train-net`): a file in this file's folder
    /// or below it, which the variant then plays with unless `EvalFile` chooses another.
    #[serde(default)]
    pub net: Option<Spanned<String>>,
    /// The board.
    pub board: Spanned<BoardDef>,
    /// White's forward axes (`"y"`, `"z"`, or `"-y"`...); Black's are the opposite ones.
    #[serde(default = "default_forward")]
    pub forward: Spanned<Vec<String>>,
    /// The piece kinds, in kind order.
    pub piece: Vec<Spanned<PieceDef>>,
    /// The start position (FEN in the multi-level notation).
    pub start: Spanned<String>,
    /// `"checkmate"` (default) or `"royal-capture"`.
    #[serde(default)]
    pub goal: Option<Spanned<String>>,
    /// What stalemate is for the side that cannot move: `"draw"` (default), `"loss"`, `"win"`.
    #[serde(default)]
    pub stalemate: Option<Spanned<String>>,
    /// Plies without a capture or pawn move after which the game is drawn (0 = never).
    #[serde(default = "default_move_rule")]
    pub move_rule: u32,
    /// Whether a position with only royal pieces left is drawn (default true).
    #[serde(default = "default_true")]
    pub bare_kings_draw: bool,
    /// The ranks (White's, from 1) where a pawn may step twice; Black's are mirrored.
    #[serde(default = "no_ranks")]
    pub double_step_ranks: Spanned<Vec<i32>>,
    /// Whether pawns may also step twice from the cells where their colour's pawns stand in
    /// the start position.
    #[serde(default)]
    pub double_step_start: bool,
    /// Whether a double step can be taken en passant.
    #[serde(default)]
    pub en_passant: bool,
    /// Pawn promotion.
    #[serde(default)]
    pub promotion: Option<Spanned<PromotionDef>>,
    /// Castling moves, each colour's listed.
    #[serde(default)]
    pub castling: Vec<Spanned<CastlingDef>>,
    /// The bench depth (default 5).
    #[serde(default)]
    pub bench_depth: Option<u32>,
}

fn default_forward() -> Spanned<Vec<String>> {
    Spanned::new(0..0, vec!["y".to_string()])
}

fn no_ranks() -> Spanned<Vec<i32>> {
    Spanned::new(0..0, Vec::new())
}

fn default_move_rule() -> u32 {
    100
}

fn default_true() -> bool {
    true
}

/// The board: a box of `levels` x `files` x `ranks`, or levels given one by one.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct BoardDef {
    /// Files of every level (with `ranks` and `levels`).
    #[serde(default)]
    pub files: Option<i32>,
    /// Ranks of every level.
    #[serde(default)]
    pub ranks: Option<i32>,
    /// Number of levels (1 = a flat board, named without level letters).
    #[serde(default)]
    pub levels: Option<i32>,
    /// Levels one by one, bottom first, each with the files and ranks it covers in the
    /// board's common frame.
    #[serde(default)]
    pub level: Vec<Spanned<LevelDef>>,
    /// Cells that do not exist.
    #[serde(default)]
    pub holes: Vec<Spanned<String>>,
}

/// One level: `files = "b-i"`, `ranks = "2-9"`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct LevelDef {
    /// First and last file letter, `"a-h"`.
    pub files: String,
    /// First and last rank number, `"1-8"`.
    pub ranks: String,
}

/// One piece kind.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct PieceDef {
    /// Its letter (upper case in the file; Black's is the lower case).
    pub letter: Spanned<String>,
    /// Its name.
    pub name: Spanned<String>,
    /// How it moves.
    pub moves: Vec<Spanned<AtomDef>>,
    /// Whether it is royal (the King).
    #[serde(default)]
    pub royal: bool,
    /// Whether it is a pawn (double step, en passant, promotion, the move-rule reset).
    #[serde(default)]
    pub pawn: bool,
    /// Whether, after it captures, it may turn into a piece of its owner's reserve.
    #[serde(default)]
    pub promotes_after_capture: bool,
}

/// One or several names.
#[derive(Deserialize, Debug, Clone)]
#[serde(untagged)]
pub enum OneOrMany {
    /// `"orthogonal"`.
    One(String),
    /// `["orthogonal", "diagonal"]`.
    Many(Vec<String>),
}

/// The directions of a slide or step: one class, or a list of classes and vectors.
#[derive(Deserialize, Debug, Clone)]
#[serde(untagged)]
pub enum Directions {
    /// `"orthogonal"`.
    One(String),
    /// `["diagonal", [1, 0, 1]]`.
    Many(Vec<Direction>),
}

/// A direction class by name, or one vector (White's; Black's is mirrored along the forward
/// axes).
#[derive(Deserialize, Debug, Clone)]
#[serde(untagged)]
pub enum Direction {
    /// `"triagonal"`.
    Class(String),
    /// `[0, 1, 1]`.
    Vector([i32; 3]),
}

/// One leap triple or several.
#[derive(Deserialize, Debug, Clone)]
#[serde(untagged)]
pub enum Leaps {
    /// `[0, 1, 2]`.
    One([i32; 3]),
    /// `[[0, 1, 2], [1, 1, 2]]`.
    Many(Vec<[i32; 3]>),
}

/// One part of a piece's movement: exactly one of `slide`, `step`, `leap`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct AtomDef {
    /// Slides along these directions.
    #[serde(default)]
    pub slide: Option<Directions>,
    /// One step along these directions.
    #[serde(default)]
    pub step: Option<Directions>,
    /// Leaps: every permutation and sign of each triple.
    #[serde(default)]
    pub leap: Option<Leaps>,
    /// The longest slide (unlimited if absent).
    #[serde(default)]
    pub range: Option<u32>,
    /// `"move"` (never captures) or `"capture"` (only captures).
    #[serde(default)]
    pub only: Option<String>,
    /// Only the directions that go forward (see `forward`).
    #[serde(default)]
    pub forward: bool,
}

/// Pawn promotion.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct PromotionDef {
    /// The letters a pawn may become, or `"captured"` (the owner's reserve of captured pieces).
    pub choices: OneOrMany,
    /// White's promotion cells (default: where a pawn has no step left).
    #[serde(default)]
    pub zone: Option<Vec<String>>,
    /// Black's promotion cells (given together with `zone`).
    #[serde(default)]
    pub zone_black: Option<Vec<String>>,
}

/// One castling move of one colour.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct CastlingDef {
    /// The FEN letter of the right (`K`, `Q` for White, `k`, `q` for Black).
    pub letter: String,
    /// The King's cell.
    pub king: String,
    /// The Rook's cell.
    pub rook: String,
    /// Where the King goes.
    pub king_to: String,
    /// Where the Rook goes.
    pub rook_to: String,
}
