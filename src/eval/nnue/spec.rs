//! The inputs of a variant's network, derived from its rules alone, so that any board has
//! them: a built-in variant, or one a user wrote in a file.
//!
//! Seen from a colour's *perspective*, a piece is one input: its *relation* to that colour
//! (the colour's own pieces, then each other colour in turn order: the opponent in a game of
//! two; the next opponent, the partner and the other opponent in a game of four), its kind,
//! and its cell as that colour sees the board. A colour sees the board through the variant's
//! own symmetry: the reflection of the board's coordinates that carries its start pieces onto
//! the first colour's (chess: Black's view mirrors the ranks), found by trying the
//! reflections and the exchange of files and ranks; a variant with none keeps the cells as
//! they are. What a colour holds off the board (Poles in hand, Polyhedron's reserves) adds,
//! per relation and kind, one input for each piece up to [`HAND_CAP`] (the third Rook in
//! reserve is the input "at least three").
//!
//! In a game of four, a colour whose royal piece is gone is out of the game (Future
//! Generation's eliminated colours), and its pieces, which stay on the board as inert
//! obstacles, are no inputs: they are not the material and threats their kinds would be
//! ([`Spec::out_colours`]).
//!
//! Everything here follows from the variant's geometry, pieces, colours and start position;
//! [`Spec::fingerprint`] condenses them, and a network file records it, so a network trained
//! for another board is refused.

use std::collections::HashMap;

use crate::rules::Variant;
use crate::rules::bitset::Cell;
use crate::rules::geometry::Coord;
use crate::rules::piece::{Colour, Kind, Piece};
use crate::rules::shape::Shape;

/// Pieces of one kind in hand that have inputs of their own; more count as this many.
pub const HAND_CAP: usize = 4;

/// The inputs of a variant's network (see the module's doc).
#[derive(Clone, Debug, PartialEq)]
pub struct Spec {
    /// The variant's protocol name.
    pub variant: String,
    /// Cells of the board.
    pub cells: usize,
    /// Piece kinds.
    pub kinds: usize,
    /// Colours (2, or 4 in two teams); also the relations and the perspectives.
    pub colours: usize,
    /// Each colour's view of the board: `view[colour][cell]` is the cell it sees.
    pub view: Vec<Vec<u16>>,
    /// [`Spec::view`] in one array, colour-major, for the evaluation's inner loop.
    flat_view: Vec<u16>,
    /// Pieces on the board at the start (for the output buckets).
    pub start_pieces: usize,
    /// Whether the variant holds pieces off the board (its FEN has a holdings field, as Pole
    /// Chess and Polyhedron have): where not, the hands are not read.
    pub holds: bool,
    /// The board mirrored left to right (files reversed), where that maps the board onto
    /// itself: training may show a position mirrored too (`strata train-net --mirror`, for
    /// variants whose rules are symmetric that way, as chess's are but for castling).
    pub mirror: Option<Vec<u16>>,
    /// The board's levels in reverse order (the top one where the bottom one was), where
    /// that maps a board of several levels onto itself: training may show a position so too
    /// (`strata train-net --mirror-levels`, for variants whose rules are symmetric that way,
    /// as Polyhedron's are; Raumschach's pawns go up, and its are not).
    pub level_mirror: Option<Vec<u16>>,
    /// A hash of everything above and of the geometry's coordinates.
    pub fingerprint: u64,
    /// Each cell's file, rank and level counted from the board's lowest, in one numbering:
    /// the file, then the files' count plus the rank, then both counts plus the level (what
    /// a trainer factorises a piece's inputs by: `strata train-net --factorise`).
    pub axes: Vec<[u16; 3]>,
    /// The files', ranks' and levels' counts added: the numbers [`Spec::axes`] takes.
    pub axes_len: usize,
    /// In a game of four, the royal kind: a colour with none of it on the board is out of
    /// the game, and its pieces are no inputs ([`Spec::out_colours`]). `None` in a game of
    /// two, where a colour never loses its royal piece before the game ends.
    pub out_without: Option<Kind>,
    /// The name of the terms a network of this variant blends with
    /// ([`crate::eval::Evaluate::blend_terms_name`]; [`super::BLEND_ALL`] for a variant
    /// built from a shape alone).
    pub blend: &'static str,
}

impl Spec {
    /// The spec of `variant`.
    pub fn of(variant: Variant) -> Spec {
        let blend = crate::with_game!(crate::rules::AnyGame::startpos(variant), g => {
            crate::eval::Evaluate::blend_terms_name(&g)
        });
        Spec {
            blend,
            ..Spec::new(&Shape::of(variant))
        }
    }

    /// The spec of a variant of that shape: what [`Spec::of`] reads off a registered
    /// variant, and a variant file's loader off the variant it is compiling.
    pub fn new(shape: &Shape) -> Spec {
        let Shape {
            name,
            coords,
            kinds,
            colours,
            placed,
            holds,
            royal,
        } = shape;
        let (kinds, colours, holds, royal) = (*kinds, *colours, *holds, *royal);
        let view: Vec<Vec<u16>> = (0..colours)
            .map(|c| view_of(coords, placed, Colour(c as u8)))
            .collect();
        let mut spec = Spec {
            variant: name.to_string(),
            cells: coords.len(),
            kinds,
            colours,
            flat_view: view.concat(),
            view,
            start_pieces: placed.len(),
            holds,
            mirror: mirror_of(coords, Axis::File),
            level_mirror: mirror_of(coords, Axis::Level),
            fingerprint: 0,
            axes: Vec::new(),
            axes_len: 0,
            out_without: royal.filter(|_| colours > 2),
            blend: super::BLEND_ALL,
        };
        (spec.axes, spec.axes_len) = axes_of(coords);
        spec.fingerprint = spec.hash(coords);
        spec
    }

    /// The colours out of the game among `pieces` (bit `c` for colour `c`): in a game of
    /// four, those with no piece of the royal kind ([`Spec::out_without`]); none otherwise.
    #[inline]
    pub fn out_colours(&self, pieces: impl IntoIterator<Item = Piece>) -> u8 {
        let Some(royal) = self.out_without else {
            return 0;
        };
        let mut live = 0u8;
        for p in pieces {
            if p.is_some() && p.kind() == royal {
                live |= 1 << p.colour().0;
            }
        }
        !live & ((1u8 << self.colours) - 1)
    }

    /// Inputs for the pieces on the board.
    pub fn board_inputs(&self) -> usize {
        self.colours * self.kinds * self.cells
    }

    /// Every input: the board's, then the hands'.
    pub fn inputs(&self) -> usize {
        self.board_inputs() + self.colours * self.kinds * HAND_CAP
    }

    /// The relation of `colour` to the perspective `of`: 0 its own, then the others in turn
    /// order.
    #[inline(always)]
    pub fn relation(&self, of: usize, colour: Colour) -> usize {
        // Two or four colours: a mask instead of a division.
        debug_assert!(self.colours.is_power_of_two());
        (colour.idx() + self.colours - of) & (self.colours - 1)
    }

    /// The input of a piece of `colour` and `kind` on `cell`, seen from `of`.
    #[inline(always)]
    pub fn board_input(&self, of: usize, colour: Colour, kind: Kind, cell: Cell) -> usize {
        (self.relation(of, colour) * self.kinds + kind as usize) * self.cells
            + self.flat_view[of * self.cells + cell] as usize
    }

    /// The input "at least `n` (1 ..= [`HAND_CAP`]) of `kind` in `colour`'s hand", seen from
    /// `of`.
    #[inline(always)]
    pub fn hand_input(&self, of: usize, colour: Colour, kind: Kind, n: usize) -> usize {
        debug_assert!((1..=HAND_CAP).contains(&n));
        self.board_inputs()
            + (self.relation(of, colour) * self.kinds + kind as usize) * HAND_CAP
            + (n - 1)
    }

    /// The output bucket of a position with `pieces` pieces on the board, of `buckets`:
    /// equal steps of the start position's count, the Kings not counted (chess: 4 pieces a
    /// bucket).
    #[inline(always)]
    pub fn bucket(&self, pieces: usize, buckets: usize) -> usize {
        let step = (self.start_pieces / buckets).max(1);
        (pieces.saturating_sub(self.colours) / step).min(buckets - 1)
    }

    /// FNV-1a over the spec's numbers and the cells' coordinates.
    fn hash(&self, coords: &[Coord]) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |v: u64| {
            for b in v.to_le_bytes() {
                h ^= b as u64;
                h = h.wrapping_mul(0x0100_0000_01b3);
            }
        };
        for v in [
            self.cells,
            self.kinds,
            self.colours,
            self.start_pieces,
            HAND_CAP,
        ] {
            eat(v as u64);
        }
        // Only where it applies, so that the games of two keep their fingerprints: a network
        // trained before out colours stopped being inputs is refused.
        if let Some(k) = self.out_without {
            eat(0x6f75_7400 | k as u64);
        }
        for c in coords {
            eat(((c.x as u8 as u64) << 16) | ((c.y as u8 as u64) << 8) | c.z as u8 as u64);
        }
        for v in &self.view {
            for &c in v {
                eat(c as u64);
            }
        }
        h
    }
}

/// For each input of `to`'s network, the input of `from`'s that means the same: a piece of
/// the same relation and letter on the cell of the same coordinates, or the same count of it
/// in hand; `None` where `from` has none (a kind or a cell it lacks). What a network of one
/// variant carries into a network of a related one (`strata train-net --init`: chess's into
/// Pole Chess's, whose board and first six pieces are chess's). Refused where the colours
/// differ, where no cell coincides, or where the two see a coinciding cell differently from
/// another colour's side (their boards' symmetries differ).
pub fn carried_inputs(from: Variant, to: Variant) -> Result<Vec<Option<usize>>, String> {
    let (fs, ts) = (Shape::of(from), Shape::of(to));
    let (f, t) = (Spec::new(&fs), Spec::new(&ts));
    if f.colours != t.colours {
        return Err(format!(
            "'{}' has {} colours and '{}' {}",
            from.name(),
            f.colours,
            to.name(),
            t.colours
        ));
    }
    let at: HashMap<Coord, usize> = fs.coords.iter().enumerate().map(|(i, &c)| (c, i)).collect();
    // The cell of `from` for each cell of `to`.
    let cell: Vec<Option<usize>> = ts.coords.iter().map(|c| at.get(c).copied()).collect();
    if cell.iter().all(Option::is_none) {
        return Err(format!(
            "no cell of '{}' is a cell of '{}'",
            to.name(),
            from.name()
        ));
    }
    for of in 0..t.colours {
        for (tc, fc) in cell.iter().enumerate() {
            let Some(fc) = *fc else { continue };
            if cell[t.view[of][tc] as usize] != Some(f.view[of][fc] as usize) {
                return Err(format!(
                    "'{}' and '{}' see their boards from colour {of}'s side differently",
                    from.name(),
                    to.name()
                ));
            }
        }
    }
    let letters = |v: Variant| -> Vec<char> { v.info().pieces.iter().map(|p| p.letter).collect() };
    let from_letters = letters(from);
    let kind: Vec<Option<usize>> = letters(to)
        .iter()
        .map(|l| from_letters.iter().position(|m| m == l))
        .collect();
    // Seen from colour 0, whose view is the cells themselves, a piece of colour `r` is an
    // input of relation `r` on its own cell.
    let mut map = vec![None; t.inputs()];
    for colour in (0..t.colours as u8).map(Colour) {
        for (k, fk) in kind.iter().enumerate() {
            let (k, Some(fk)) = (k as Kind, fk.map(|fk| fk as Kind)) else {
                continue;
            };
            for (tc, fc) in cell.iter().enumerate() {
                if let Some(fc) = *fc {
                    map[t.board_input(0, colour, k, tc)] = Some(f.board_input(0, colour, fk, fc));
                }
            }
            for n in 1..=HAND_CAP {
                map[t.hand_input(0, colour, k, n)] = Some(f.hand_input(0, colour, fk, n));
            }
        }
    }
    Ok(map)
}

/// The lowest and highest of one coordinate over the board's cells (0 and 0 for none).
fn bounds(coords: &[Coord], f: fn(&Coord) -> i8) -> (i8, i8) {
    let lo = coords.iter().map(f).min().unwrap_or(0);
    let hi = coords.iter().map(f).max().unwrap_or(0);
    (lo, hi)
}

/// Each cell's file, rank and level in one numbering, and how many numbers that takes
/// ([`Spec::axes`]).
fn axes_of(coords: &[Coord]) -> (Vec<[u16; 3]>, usize) {
    let span = |f: fn(&Coord) -> i8| {
        let (lo, hi) = bounds(coords, f);
        (lo, (hi - lo) as usize + 1)
    };
    let ((x0, nx), (y0, ny), (z0, nz)) = (span(|c| c.x), span(|c| c.y), span(|c| c.z));
    let axes = coords
        .iter()
        .map(|c| {
            [
                (c.x - x0) as u16,
                (nx + (c.y - y0) as usize) as u16,
                (nx + ny + (c.z - z0) as usize) as u16,
            ]
        })
        .collect();
    (axes, nx + ny + nz)
}

/// The axis a board is mirrored along.
#[derive(Clone, Copy)]
enum Axis {
    /// Files reversed: left to right.
    File,
    /// Levels reversed: top to bottom.
    Level,
}

/// The board's cells mirrored along `axis`, if that maps the board onto itself and moves
/// some cell (a board of one level is not mirrored along its levels).
fn mirror_of(coords: &[Coord], axis: Axis) -> Option<Vec<u16>> {
    let at: HashMap<Coord, usize> = coords.iter().enumerate().map(|(i, &c)| (c, i)).collect();
    let of = |c: &Coord| match axis {
        Axis::File => c.x,
        Axis::Level => c.z,
    };
    let lo = coords.iter().map(of).min()?;
    let hi = coords.iter().map(of).max()?;
    if lo == hi {
        return None;
    }
    coords
        .iter()
        .map(|c| {
            let mirrored = match axis {
                Axis::File => Coord {
                    x: lo + hi - c.x,
                    ..*c
                },
                Axis::Level => Coord {
                    z: lo + hi - c.z,
                    ..*c
                },
            };
            at.get(&mirrored).map(|&i| i as u16)
        })
        .collect()
}

/// `colour`'s view of the board: for colour 0 the cells themselves; for another, the first
/// of the board's reflections (each axis mirrored or not, files and ranks exchanged or not)
/// that maps the board onto itself and `colour`'s start pieces onto colour 0's; the cells
/// themselves where none does.
fn view_of(coords: &[Coord], placed: &[(Cell, Colour, Kind)], colour: Colour) -> Vec<u16> {
    let identity: Vec<u16> = (0..coords.len() as u16).collect();
    if colour.idx() == 0 {
        return identity;
    }
    let at: HashMap<Coord, usize> = coords.iter().enumerate().map(|(i, &c)| (c, i)).collect();
    let span = |f: fn(&Coord) -> i8| {
        let (lo, hi) = bounds(coords, f);
        lo + hi
    };
    let (sx, sy, sz) = (span(|c| c.x), span(|c| c.y), span(|c| c.z));
    let mut first: Vec<(Cell, Kind)> = placed
        .iter()
        .filter(|p| p.1 == Colour::WHITE)
        .map(|p| (p.0, p.2))
        .collect();
    first.sort_unstable();
    // The plain reflections first (the identity never matches two colours' pieces), then
    // those that also exchange files and ranks.
    for swap in [false, true] {
        for flips in 1..8u8 {
            let map = |c: &Coord| {
                let (x, y) = if swap { (c.y, c.x) } else { (c.x, c.y) };
                Coord {
                    x: if flips & 1 != 0 { sx - x } else { x },
                    y: if flips & 2 != 0 { sy - y } else { y },
                    z: if flips & 4 != 0 { sz - c.z } else { c.z },
                }
            };
            let Some(view) = coords
                .iter()
                .map(|c| at.get(&map(c)).map(|&i| i as u16))
                .collect::<Option<Vec<u16>>>()
            else {
                continue;
            };
            let mut mine: Vec<(Cell, Kind)> = placed
                .iter()
                .filter(|p| p.1 == colour)
                .map(|p| (view[p.0] as Cell, p.2))
                .collect();
            mine.sort_unstable();
            if mine == first {
                return view;
            }
        }
    }
    identity
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{AnyGame, Game};

    /// Chess: Black sees the ranks mirrored, and the inputs are those of chess's first
    /// network (relation x 384 + kind x 64 + square).
    #[test]
    fn chess_mirrors_black_and_keeps_the_first_networks_inputs() {
        let s = Spec::of(Variant::Chess);
        assert_eq!(
            (s.cells, s.kinds, s.colours, s.start_pieces),
            (64, 6, 2, 32)
        );
        for sq in 0..64 {
            assert_eq!(s.view[0][sq] as usize, sq);
            assert_eq!(s.view[1][sq] as usize, sq ^ 56);
        }
        assert_eq!(s.board_input(0, Colour::WHITE, 0, 12), 12);
        assert_eq!(s.board_input(1, Colour::BLACK, 0, 52), 12);
        assert_eq!(s.board_input(0, Colour::BLACK, 5, 63), 384 + 5 * 64 + 63);
        assert_eq!(
            (s.bucket(32, 8), s.bucket(2, 8), s.bucket(10, 8)),
            (7, 0, 2)
        );
        assert_eq!(s.inputs(), 768 + 2 * 6 * HAND_CAP);
        let mirror = s.mirror.unwrap();
        assert_eq!((mirror[0], mirror[12], mirror[63]), (7, 11, 56));
        assert_eq!(s.level_mirror, None, "one level");
    }

    /// Polyhedron's levels mirrored (A and E, B and D exchanged, C kept) map its board and
    /// its start onto themselves, cell by cell at the same file and rank.
    #[test]
    fn polyhedron_mirrors_its_levels() {
        let v = Variant::Polyhedron;
        let s = Spec::of(v);
        let shape = Shape::of(v);
        let m = s.level_mirror.clone().expect("Polyhedron's levels mirror");
        let mut moved = 0;
        for (cell, &to) in m.iter().enumerate() {
            let (a, b) = (shape.coords[cell], shape.coords[to as usize]);
            assert_eq!((a.x, a.y, a.z), (b.x, b.y, 4 - b.z));
            assert_eq!(m[to as usize] as usize, cell);
            moved += (to as usize != cell) as usize;
        }
        assert_eq!(moved, 36 + 64 + 64 + 36);
        let start: HashMap<usize, (Colour, Kind)> = shape
            .placed
            .iter()
            .map(|&(c, col, k)| (c, (col, k)))
            .collect();
        for (&cell, piece) in &start {
            assert_eq!(start.get(&(m[cell] as usize)), Some(piece), "cell {cell}");
        }
    }

    /// Every variant's views are permutations of its cells that carry each colour's start
    /// pieces onto the first colour's (each of them has such a symmetry), and the
    /// fingerprints differ between variants.
    #[test]
    fn every_variant_sees_its_start_the_same_from_every_side() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/variants/raumschach.toml");
        let raumschach =
            crate::rules::defined::load_file(path, crate::eval::nnue::check_net).unwrap()[0];
        let mut prints = Vec::new();
        for v in Variant::ALL.into_iter().chain([raumschach]) {
            let s = Spec::of(v);
            let start = AnyGame::startpos(v);
            let seen = |of: usize| {
                let mut p: Vec<(usize, usize, Kind)> = (0..s.cells)
                    .filter(|&c| start.piece_at(c).is_some())
                    .map(|c| {
                        let p = start.piece_at(c);
                        (s.relation(of, p.colour()), s.view[of][c] as usize, p.kind())
                    })
                    .collect();
                p.sort_unstable();
                p
            };
            for of in 0..s.colours {
                let mut sorted = s.view[of].clone();
                sorted.sort_unstable();
                assert!(sorted.iter().enumerate().all(|(i, &c)| i == c as usize));
                if of > 0 {
                    assert_ne!(s.view[of], s.view[0], "{} colour {of}", v.name());
                }
                // What the colour to move sees of its own pieces is the same for every colour.
                let own = |of| {
                    seen(of)
                        .into_iter()
                        .filter(|p| p.0 == 0)
                        .collect::<Vec<_>>()
                };
                assert_eq!(own(of), own(0), "{} colour {of}", v.name());
            }
            prints.push(s.fingerprint);
        }
        let mut distinct = prints.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), prints.len());
    }

    /// Chess's inputs carry into Pole Chess's as the same relation, kind and square, and
    /// none into a Pole's; a game of four, or a board seen another way, is refused.
    #[test]
    fn chess_inputs_carry_into_pole_chess_and_not_into_other_boards() {
        let map = carried_inputs(Variant::Chess, Variant::Pole).unwrap();
        let (c, p) = (Spec::of(Variant::Chess), Spec::of(Variant::Pole));
        for of in 0..2 {
            for colour in [Colour::WHITE, Colour::BLACK] {
                for sq in [0, 12, 35, 63] {
                    for kind in 0..6 {
                        assert_eq!(
                            map[p.board_input(of, colour, kind, sq)],
                            Some(c.board_input(of, colour, kind, sq))
                        );
                    }
                    assert_eq!(map[p.board_input(of, colour, 6, sq)], None);
                }
                assert_eq!(map[p.hand_input(of, colour, 6, 1)], None);
                assert_eq!(
                    map[p.hand_input(of, colour, 4, 2)],
                    Some(c.hand_input(of, colour, 4, 2))
                );
            }
        }
        let four = carried_inputs(Variant::Chess, Variant::FutureGeneration).unwrap_err();
        assert!(four.contains("colours"), "{four}");
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/variants/raumschach.toml");
        let raumschach =
            crate::rules::defined::load_file(path, crate::eval::nnue::check_net).unwrap()[0];
        let other = carried_inputs(Variant::Chess, raumschach).unwrap_err();
        assert!(other.contains("differently"), "{other}");
    }
}
