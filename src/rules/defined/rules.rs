//! A variant file's definition compiled into tables ([`Rules`]): the geometry with every
//! direction's rays, per colour and kind the leap targets and slide directions, the inverse
//! tables the attack test reads, the promotion zones and the castling moves; and the refusal
//! of a definition ([`Refusal`]). The compiling itself is `compile.rs`.

use std::any::Any;
use std::ops::Range;
use std::sync::OnceLock;

use crate::rules::bitset::{BitSet, Cell};
use crate::rules::board::MAX_KINDS;
use crate::rules::geometry::{Geometry, Vector};
use crate::rules::info::VariantInfo;
use crate::rules::piece::{Colour, Kind};
use crate::rules::zobrist::Zobrist;

/// The board width of every file-defined variant: 320 cells, the most a move can address
/// in the engine's tables ([`crate::rules::board::MAX_CELLS`]).
pub const W: usize = 5;
/// A set of cells of a file-defined board.
pub type Bb = BitSet<W>;
/// The most cells a file-defined board may have.
pub const MAX_CELLS: usize = 64 * W;
/// The most castling moves (both colours together).
pub const MAX_CASTLINGS: usize = 16;
/// Reserve counts have keys up to this many items of one kind.
pub const MAX_RESERVE: usize = 80;

/// An error in a definition: what is wrong, and where (a byte range of the file).
#[derive(Debug, Clone)]
pub struct Refusal {
    /// Bytes of the file the error is about.
    pub span: Range<usize>,
    /// What is wrong.
    pub message: String,
}

pub(super) fn refuse<T>(span: &Range<usize>, message: impl Into<String>) -> Result<T, Refusal> {
    Err(Refusal {
        span: span.clone(),
        message: message.into(),
    })
}

/// What ends the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Check and checkmate: no move may leave one's royal piece attacked.
    Checkmate,
    /// No check rule: capturing the enemy's (last) royal piece wins.
    RoyalCapture,
}

/// What a side without a legal move (and not in check) gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stalemate {
    /// A draw.
    Draw,
    /// The stalemated side loses.
    Loss,
    /// The stalemated side wins.
    Win,
}

/// One slide of a kind: a direction (index in the geometry), how far, and what it may do.
#[derive(Clone, Copy, Debug)]
pub struct Slide {
    /// Direction index.
    pub dir: usize,
    /// The longest slide in cells (`u32::MAX`: unlimited).
    pub range: u32,
    /// May end on an empty cell.
    pub moves: bool,
    /// May capture.
    pub captures: bool,
}

/// A castling move of one colour.
#[derive(Clone, Debug)]
pub struct Castling {
    /// The FEN letter of its right.
    pub letter: char,
    /// The colour castling.
    pub colour: Colour,
    /// King from and to, Rook from and to.
    pub king: Cell,
    /// See [`Castling::king`].
    pub king_to: Cell,
    /// See [`Castling::king`].
    pub rook: Cell,
    /// See [`Castling::king`].
    pub rook_to: Cell,
    /// Cells that must be empty (but for the King and the Rook).
    pub empty: Bb,
    /// Cells the King passes through or reaches, which must not be attacked.
    pub king_path: Vec<Cell>,
}

/// Per colour and kind, how pieces move (index `[colour][kind]`).
#[derive(Default)]
pub struct Movement {
    /// Leap targets (steps included) per cell that may end on an empty cell.
    pub leap_move: Vec<Vec<Bb>>,
    /// Leap targets per cell that may capture.
    pub leap_capture: Vec<Vec<Bb>>,
    /// The slides.
    pub slides: Vec<Vec<Slide>>,
    /// Inverse of `leap_capture`: the cells from which the kind captures on a cell.
    pub leap_attackers: Vec<Vec<Bb>>,
    /// Move-only one-cell steps of pawns (their double steps go twice along one of these).
    pub pawn_steps: Vec<Vec<Vector>>,
}

/// A compiled variant.
pub struct Rules {
    /// The protocol name (empty until the variant is registered).
    pub name: &'static str,
    /// The name players know it by.
    pub title: String,
    /// Where its rules come from.
    pub source: String,
    /// What is special about it, in a line for players (empty if the file gives none).
    pub summary: String,
    /// The file it was read from.
    pub path: String,
    /// The network its file names (`net`), checked when the file was loaded: the bytes of a
    /// network file, which `crate::eval::nnue` reads as this variant's embedded network.
    pub net: Option<Vec<u8>>,
    /// What the rest of the engine reads about every variant (its start position, bench
    /// positions and pieces are empty until the variant is registered).
    pub info: VariantInfo,
    /// The board.
    pub geo: Geometry<W>,
    /// The keys.
    pub zobrist: Zobrist,
    /// Piece letters (upper case), by kind.
    pub letters: Vec<char>,
    /// Number of kinds.
    pub kinds: usize,
    /// Royal kinds, as a bit mask.
    pub royal: u16,
    /// Pawn kinds, as a bit mask.
    pub pawns: u16,
    /// Kinds that may turn into a reserve piece after capturing.
    pub capture_promoters: u16,
    /// Per colour (`[0]` White, `[1]` Black) and kind.
    pub movement: [Movement; 2],
    /// Per colour, the cells from which pawns may step twice.
    pub double_step: [Bb; 2],
    /// Whether double steps can be taken en passant.
    pub en_passant: bool,
    /// Whether the start position's pawn cells are double-step cells too (they are in
    /// [`Rules::double_step`]).
    pub double_step_start: bool,
    /// Per colour, the cells where a pawn promotes.
    pub promotion_zone: [Bb; 2],
    /// The kinds a pawn may promote to; `None`: those in the owner's reserve.
    pub promotion_choices: Option<Vec<Kind>>,
    /// Whether captured pieces go to their owner's reserve (promotion to captured pieces).
    pub reserve: bool,
    /// The castling moves.
    pub castlings: Vec<Castling>,
    /// Per cell, the castling rights that survive a move from or to it (bit mask).
    pub castle_keep: Vec<u32>,
    /// What ends the game.
    pub goal: Goal,
    /// What stalemate is.
    pub stalemate: Stalemate,
    /// Plies of the n-move rule (0: none).
    pub move_rule: u32,
    /// Whether bare royals are a draw.
    pub bare_kings_draw: bool,
    /// Per direction index, the reverse direction's index.
    pub reverse: Vec<usize>,
    /// Per colour and direction, the (kind, range) of the slides that capture that way.
    pub slide_attackers: [Vec<Vec<(Kind, u32)>>; 2],
    /// Per direction, the step count of a vector along it (for ranges): cells are
    /// `max |component|` apart per step.
    pub dir_len: Vec<i32>,
    /// The evaluation's tables for this variant, built by the evaluation on first use (the
    /// rules layer only keeps the place).
    pub eval: OnceLock<Box<dyn Any + Send + Sync>>,
}

impl std::fmt::Debug for Rules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Rules({} from {})", self.name, self.path)
    }
}

/// The 26 unit directions, by class (`orthogonal`, `diagonal`, `triagonal`, `all`).
pub fn class_vectors(class: &str) -> Option<Vec<Vector>> {
    let mut out = Vec::new();
    for dz in -1..=1i8 {
        for dy in -1..=1i8 {
            for dx in -1..=1i8 {
                let n = (dx != 0) as u8 + (dy != 0) as u8 + (dz != 0) as u8;
                let keep = match class {
                    "orthogonal" => n == 1,
                    "diagonal" => n == 2,
                    "triagonal" => n == 3,
                    "all" => n > 0,
                    _ => return None,
                };
                if keep {
                    out.push([dx, dy, dz]);
                }
            }
        }
    }
    Some(out)
}

/// The kind whose letter is `s` (one letter, either case) among `letters`.
pub(super) fn kind_of(letters: &[char], s: &str) -> Option<Kind> {
    let mut c = s.chars();
    match (c.next(), c.next()) {
        (Some(l), None) => letters
            .iter()
            .position(|&x| x == l.to_ascii_uppercase())
            .map(|k| k as Kind),
        _ => None,
    }
}

impl Rules {
    /// Whether kind `k` is royal.
    #[inline(always)]
    pub fn is_royal(&self, k: Kind) -> bool {
        self.royal >> k & 1 == 1
    }

    /// The royal kind, if there is one.
    pub fn royal_kind(&self) -> Option<Kind> {
        (0..self.kinds as Kind).find(|&k| self.is_royal(k))
    }

    /// Whether kind `k` is a pawn.
    #[inline(always)]
    pub fn is_pawn(&self, k: Kind) -> bool {
        self.pawns >> k & 1 == 1
    }

    /// Every cell a `colour` piece of `kind` on `cell` could go to (move or capture) with
    /// `occupied` cells blocking its slides: for mobility.
    pub fn reach(&self, colour: Colour, kind: Kind, cell: Cell, occupied: Bb) -> Bb {
        let m = &self.movement[colour.idx()];
        let k = kind as usize;
        let mut out = m.leap_move[k][cell] | m.leap_capture[k][cell];
        for s in &m.slides[k] {
            out |= self.slide_reach(cell, s, occupied);
        }
        out
    }

    /// The cells a slide from `cell` visits with `occupied` cells blocking: up to and
    /// including the first occupied one, at most its range.
    #[inline]
    pub fn slide_reach(&self, cell: Cell, s: &Slide, occupied: Bb) -> Bb {
        if s.range == u32::MAX {
            return self.geo.slide(cell, s.dir, occupied);
        }
        let mut out = Bb::EMPTY;
        let mut c = cell;
        for _ in 0..s.range {
            let Some(n) = self.geo.step(c, self.geo.directions()[s.dir]) else {
                break;
            };
            out.insert(n);
            if occupied.contains(n) {
                break;
            }
            c = n;
        }
        out
    }

    /// The kind with letter `l` (either case).
    pub fn kind_of_letter(&self, l: char) -> Option<Kind> {
        kind_of(&self.letters, &l.to_string())
    }

    /// The Zobrist key of castling right `i`.
    pub fn castle_key(&self, i: usize) -> u64 {
        self.zobrist.extra[1 + i]
    }

    /// The Zobrist key of an en passant cell.
    pub fn ep_key(&self, cell: Cell) -> u64 {
        self.zobrist.extra[1 + MAX_CASTLINGS + cell]
    }

    /// The key of the `n`-th item (from 0) of `kind` in `colour`'s reserve.
    pub fn reserve_key(&self, colour: Colour, kind: Kind, n: usize) -> u64 {
        let base = 1 + MAX_CASTLINGS + self.geo.cells();
        self.zobrist.extra[base
            + (colour.idx() * MAX_KINDS + kind as usize) * MAX_RESERVE
            + n.min(MAX_RESERVE - 1)]
    }
}

#[cfg(test)]
mod tests {
    use super::super::pieces::{is_forward, leap_vectors};
    use super::*;

    #[test]
    fn atoms_expand_to_the_right_vectors() {
        assert_eq!(class_vectors("orthogonal").unwrap().len(), 6);
        assert_eq!(class_vectors("diagonal").unwrap().len(), 12);
        assert_eq!(class_vectors("triagonal").unwrap().len(), 8);
        assert_eq!(class_vectors("all").unwrap().len(), 26);
        assert_eq!(leap_vectors([0, 1, 2]).len(), 24);
        assert_eq!(leap_vectors([1, 1, 2]).len(), 24);
        assert_eq!(leap_vectors([2, 2, 2]).len(), 8);
        assert_eq!(leap_vectors([0, 0, 2]).len(), 6);
        let fwd = [(1, 1), (2, 1)];
        let caps: Vec<Vector> = class_vectors("diagonal")
            .unwrap()
            .into_iter()
            .filter(|&v| is_forward(v, &fwd))
            .collect();
        // Raumschach's pawn captures: (±1,+1,0), (±1,0,+1), (0,+1,+1).
        assert_eq!(caps.len(), 5);
    }
}
