//! Variants defined in files (`docs/variant-files.md`): a TOML file describes the board,
//! the pieces (built from slides, steps and leaps), pawns, promotion, castling, the start
//! position and the goal; [`load_file`] compiles it and registers each variant, which is
//! then a [`Variant`] like the built-in ones.
//!
//! Compiled variants live for the rest of the process (each is leaked once when registered,
//! so positions and [`Variant`] values can point at them without reference counting).
//! Loading the same file again gives back the variants it gave before; a file whose text
//! changed registers new ones under the same names, and [`Variant::from_name`] finds the
//! newest. Everything a file may hold is bounded (`limits.rs`), so that no file, however
//! large or strange, can make loading slow, big or panic.

mod compile;
mod compiled;
mod explain;
mod fen;
pub mod file;
pub mod limits;
mod movegen;
mod net;
mod pieces;
mod position;
mod registry;
pub mod rules;
mod source;

pub use compiled::Compiled;
pub use net::NetCheck;
pub use position::{Defined, DefinedPosition, Reserve};
pub use registry::{count as loaded_count, find, loaded};
pub use rules::{Goal, Rules};

use crate::rules::bitset::Cell;
use crate::rules::game::GameEnd;
use crate::rules::geometry::Geometry;
use crate::rules::moves::{CastlingSide, Move, MoveFlag};
use crate::rules::piece::{Colour, Kind, Piece};
use crate::rules::position::VariantRules;
use crate::rules::sink::MoveSink;
use crate::rules::variant::{DefinedRef, Variant};
use crate::rules::zobrist::Zobrist;
use crate::text;
use limits::MAX_VARIANTS_PER_FILE;
use rules::Stalemate;
use rules::W;

/// A refused file: where and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileError {
    /// The file.
    pub path: String,
    /// The line (from 1), when the error has one.
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
}

/// The most characters of a file's path an error shows (its end).
const MAX_PATH_SHOWN: usize = 80;

impl std::fmt::Display for FileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // A long path keeps its end (the file's name), so that the line and the reason fit
        // in one protocol line.
        let chars = self.path.chars().count();
        let path = match chars > MAX_PATH_SHOWN {
            true => {
                let tail: String = self.path.chars().skip(chars - MAX_PATH_SHOWN).collect();
                format!("...{}", text::escape(&tail))
            }
            false => text::escape(&self.path).into_owned(),
        };
        match self.line {
            Some(l) => write!(f, "{path}:{l}: {}", self.message),
            None => write!(f, "{path}: {}", self.message),
        }
    }
}

impl FileError {
    /// An error about the file at `path`; the message is kept to one line of printable
    /// text (it may quote the file).
    fn new(path: &str, line: Option<usize>, message: &str) -> Self {
        FileError {
            path: path.to_string(),
            line,
            message: text::escape(message).into_owned(),
        }
    }
}

fn line_of(text: &str, byte: usize) -> usize {
    text[..byte.min(text.len())].matches('\n').count() + 1
}

/// Compiles every variant of a file's text without registering them (`path` names it in
/// messages, and the folder a `net` is read from), start positions checked and each `net`
/// read and checked by `nets`; nothing is leaked. The whole file is refused at its first
/// error.
pub fn compile_text(path: &str, text: &str, nets: NetCheck) -> Result<Vec<Compiled>, FileError> {
    let err = |span: Option<std::ops::Range<usize>>, message: &str| {
        FileError::new(path, span.map(|s| line_of(text, s.start)), message)
    };
    if text.len() > limits::MAX_FILE_BYTES {
        return Err(err(
            None,
            &format!(
                "the text has {} bytes, more than a variant file may have ({})",
                text.len(),
                limits::MAX_FILE_BYTES
            ),
        ));
    }
    let file: file::VariantFile = toml::from_str(text).map_err(|e| {
        let first = e.message().lines().next().unwrap_or("").to_string();
        err(e.span(), &first)
    })?;
    if file.variant.is_empty() {
        return Err(err(None, "no [[variant]] in the file"));
    }
    if let Some(extra) = file.variant.get(MAX_VARIANTS_PER_FILE) {
        return Err(err(
            Some(extra.span()),
            &format!(
                "{} variants in the file, at most {MAX_VARIANTS_PER_FILE}",
                file.variant.len()
            ),
        ));
    }
    let mut out: Vec<Compiled> = Vec::new();
    let mut held = registry::net_bytes_held();
    for v in &file.variant {
        let def = v.get_ref();
        let name = def.name.get_ref();
        if Variant::ALL.iter().any(|b| b.name() == name) {
            return Err(err(
                Some(def.name.span()),
                &format!("'{name}' is a built-in variant: choose another name"),
            ));
        }
        if out.iter().any(|c| c.name() == name) {
            return Err(err(
                Some(def.name.span()),
                &format!("variant '{name}' is defined twice in the file"),
            ));
        }
        let compiled = compile::compile(def, path).map_err(|e| err(Some(e.span), &e.message))?;
        let (mut compiled, start) = compiled.check_start();
        let placed =
            start.map_err(|e| err(Some(def.start.span()), &format!("start position: {e}")))?;
        if let Some(net) = &def.net {
            let bytes = net::read(path, net.get_ref(), held, || compiled.shape(placed), nets)
                .map_err(|e| err(Some(net.span()), &format!("net: {e}")))?;
            held += bytes.len();
            compiled.set_net(bytes);
        }
        out.push(compiled);
    }
    Ok(out)
}

/// Reads, checks and registers every variant in the file at `path`, with the network each
/// names (`net`, checked by `nets`: the network format is the evaluation's,
/// `crate::eval::nnue::check_net`); returns them in file order. Only a regular file of at most [`limits::MAX_FILE_BYTES`] is read (a FIFO, a
/// device or a directory is refused at once). On any error nothing is registered and the
/// variants loaded before stay as they were.
pub fn load_file(path: &str, nets: NetCheck) -> Result<Vec<Variant>, FileError> {
    let text = source::read(path).map_err(|m| FileError::new(path, None, &m))?;
    let absolute = std::fs::canonicalize(path)
        .map(|p| p.to_string_lossy().to_string())
        .unwrap_or_else(|_| path.to_string());
    load_text(&absolute, &text, nets).map_err(|mut e| {
        e.path = path.to_string();
        e
    })
}

/// [`load_file`] on text already read (`path` is where it was read from). Text loaded from
/// the same path before gives the same variants again, compiled once.
pub fn load_text(path: &str, text: &str, nets: NetCheck) -> Result<Vec<Variant>, FileError> {
    if let Some(again) = registry::reuse(path, text) {
        return Ok(again);
    }
    registry::room_for_one().map_err(|m| FileError::new(path, None, &m))?;
    let compiled = compile_text(path, text, nets)?;
    registry::register(path, text, compiled).map_err(|m| FileError::new(path, None, &m))
}

impl DefinedPosition {
    /// The start position of `rules`' variant.
    pub fn startpos(rules: &'static Rules) -> Self {
        DefinedPosition::from_fen(rules, rules.info.start_fen).expect("checked when loaded")
    }

    fn only_royals_left(&self) -> bool {
        let r = self.state.rules;
        self.board
            .occupied()
            .iter()
            .all(|c| r.is_royal(self.board.piece_at(c).kind()))
    }
}

impl VariantRules<W> for Defined {
    type Undo = position::Undo;

    const HOLDINGS: Option<&'static str> = Some("reserves");

    fn variant(&self) -> Variant {
        Variant::Defined(DefinedRef(self.rules))
    }

    fn geometry(&self) -> &'static Geometry<W> {
        &self.rules.geo
    }

    fn zobrist(&self) -> &'static Zobrist {
        &self.rules.zobrist
    }

    fn letters(&self) -> &'static [char] {
        &self.rules.letters
    }

    #[inline(always)]
    fn generate_into<S: MoveSink<W>>(p: &DefinedPosition, sink: &mut S) {
        p.legal(sink);
    }

    #[inline(always)]
    fn make(p: &mut DefinedPosition, mv: Move) -> position::Undo {
        p.play(mv)
    }

    #[inline(always)]
    fn unmake(p: &mut DefinedPosition, mv: Move, undo: &position::Undo) {
        p.take_back(mv, undo);
    }

    fn take_ep(p: &mut DefinedPosition) -> u16 {
        p.take_ep()
    }

    fn put_back_ep(p: &mut DefinedPosition, ep: u16) {
        p.put_back_ep(ep);
    }

    #[inline]
    fn in_check(p: &DefinedPosition) -> bool {
        p.checked()
    }

    fn kings_in_danger(p: &DefinedPosition) -> Vec<Cell> {
        match p.state.rules.goal {
            Goal::Checkmate if p.checked() => p.royals(p.side).iter().collect(),
            // Both sides' royals, each attacked by the other side, as in the built-in
            // variants that capture Kings: a threat to the opponent shows as well as one
            // to the side to move (and readable notation marks the move that made it).
            Goal::RoyalCapture => [p.side, p.side.flip()]
                .into_iter()
                .flat_map(|c| {
                    p.royals(c)
                        .iter()
                        .filter(move |&r| p.is_attacked(r, c.flip()))
                })
                .collect(),
            _ => Vec::new(),
        }
    }

    fn decided(p: &DefinedPosition) -> Option<GameEnd> {
        p.royal_gone().map(|loser| GameEnd::Win {
            winner: loser.flip().team(),
            reason: "royal piece captured",
        })
    }

    fn end_without_moves(p: &DefinedPosition) -> GameEnd {
        if p.checked() {
            return GameEnd::Win {
                winner: p.side.flip().team(),
                reason: "checkmate",
            };
        }
        match p.state.rules.stalemate {
            Stalemate::Draw => GameEnd::Draw {
                reason: "stalemate",
            },
            Stalemate::Loss => GameEnd::Win {
                winner: p.side.flip().team(),
                reason: "stalemate",
            },
            Stalemate::Win => GameEnd::Win {
                winner: p.side.team(),
                reason: "stalemate",
            },
        }
    }

    fn move_rule(p: &DefinedPosition) -> Option<(u32, &'static str)> {
        let plies = p.state.rules.move_rule;
        (plies > 0).then_some((plies, "move rule"))
    }

    fn insufficient_material(p: &DefinedPosition) -> bool {
        p.state.rules.bare_kings_draw && p.only_royals_left()
    }

    fn captured_piece(p: &DefinedPosition, mv: Move) -> Piece {
        match mv.flag() {
            MoveFlag::EnPassant => p.board.piece_at(p.state.ep.1 as Cell),
            MoveFlag::Castle | MoveFlag::Drop | MoveFlag::Pass => Piece::NONE,
            _ => p.board.piece_at(mv.to()),
        }
    }

    /// By the letter of the castling's right, as a chess FEN writes it: `K` is the short
    /// castling and `Q` the long one (either case); others have no readable name.
    fn castling_side(p: &DefinedPosition, mv: Move) -> Option<CastlingSide> {
        if mv.flag() != MoveFlag::Castle {
            return None;
        }
        let c = p
            .state
            .rules
            .castlings
            .iter()
            .find(|c| c.colour == p.side && c.king == mv.from() && c.king_to == mv.to())?;
        match c.letter.to_ascii_uppercase() {
            'K' => Some(CastlingSide::Short),
            'Q' => Some(CastlingSide::Long),
            _ => None,
        }
    }

    /// Any kind of the variant, by its letter in lower case.
    fn promotion_kind(p: &DefinedPosition, letter: char) -> Option<Kind> {
        if letter.is_ascii_lowercase() {
            p.state.rules.kind_of_letter(letter)
        } else {
            None
        }
    }

    fn fen_field_names(&self) -> Vec<&'static str> {
        DefinedPosition::field_names(self.rules)
    }

    fn read_fen_state(
        p: &mut DefinedPosition,
        reserves: Option<&str>,
        fields: &[&str],
    ) -> Result<(), String> {
        p.read_state(reserves, fields)
    }

    fn check_fen(p: &mut DefinedPosition, _fields: &[&str]) -> Result<(), String> {
        p.check_placement()
    }

    fn holdings(p: &DefinedPosition) -> Option<String> {
        p.reserves_text()
    }

    fn fen_fields(p: &DefinedPosition) -> Vec<String> {
        p.state_fields()
    }

    fn state_key(p: &DefinedPosition) -> u64 {
        p.state_key()
    }

    fn drawing(p: &DefinedPosition) -> String {
        p.draw()
    }

    const HOLDS: bool = true;

    #[inline(always)]
    fn hand_count(p: &DefinedPosition, colour: Colour, kind: Kind) -> usize {
        p.state
            .reserves
            .get(colour.idx())
            .and_then(|r| r.get(kind as usize))
            .map_or(0, |&n| n as usize)
    }

    fn in_hand(p: &DefinedPosition, colour: Colour) -> Vec<(Kind, usize)> {
        let r = &p.state.reserves[colour.idx()];
        (0..p.state.rules.kinds as Kind)
            .filter(|&k| r[k as usize] > 0)
            .map(|k| (k, r[k as usize] as usize))
            .collect()
    }

    fn explain_illegal(p: &DefinedPosition, from: Cell, to: Cell) -> String {
        p.explain(from, to)
    }

    fn invariants(p: &DefinedPosition) -> Result<(), String> {
        let r = p.state.rules;
        if p.board.colour(Colour(2)).any() || p.board.colour(Colour(3)).any() {
            return Err("a piece of a third colour".into());
        }
        if p.state.ep.0 != position::NO_EP {
            let victim = p.ep_victim(p.state.ep.0 as Cell, p.side.flip());
            if victim != Some(p.state.ep.1 as Cell)
                || p.board.piece_at(p.state.ep.0 as Cell).is_some()
            {
                return Err("en passant cell without the pawn that passed it".into());
            }
        }
        for (i, c) in r.castlings.iter().enumerate() {
            if p.state.castling >> i & 1 == 1 {
                let k = p.board.piece_at(c.king);
                if k.is_none() || k.colour() != c.colour || !r.is_royal(k.kind()) {
                    return Err(format!("castling right '{}' without its King", c.letter));
                }
            }
        }
        if r.goal == Goal::Checkmate && p.royal_attacked(p.side.flip()) {
            return Err("the side not to move is in check".into());
        }
        Ok(())
    }
}
