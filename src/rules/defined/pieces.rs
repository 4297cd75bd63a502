//! A piece's `moves` compiled for one colour: each entry (an atom: a slide, a step or a
//! leap) read and checked, its vectors for that colour, and all of them merged so that no
//! move is listed twice, however often the file repeats it:
//!
//! - steps and leaps become one set of vectors that may end on an empty cell and one that
//!   may capture (each vector once), and their tables are built once per set;
//! - pawn steps (the vectors double steps repeat) are kept once each;
//! - slides along one direction become one slide that moves and captures when the longest
//!   moving range equals the longest capturing range, else one move-only slide and one
//!   capture-only slide with those ranges.
//!
//! The work is bounded before it is done ([`MAX_MOVES_PER_PIECE`], [`MAX_ATOM_ITEMS`],
//! [`MAX_PIECE_VECTORS`]), and repeated vectors are found with a bit per possible vector,
//! so that a file listing the same leap thousands of times costs no more than the bounds.

use std::ops::Range;

use super::file::{AtomDef, Direction, Directions, Leaps, PieceDef};
use super::limits::{MAX_ATOM_ITEMS, MAX_MOVES_PER_PIECE, MAX_PIECE_VECTORS};
use super::rules::{Bb, Refusal, Slide, W, class_vectors, refuse};
use crate::rules::geometry::{Geometry, Vector};

/// The largest leap component.
const MAX_LEAP: i32 = 15;

/// One atom's vectors, slide range and abilities.
pub(super) struct Atom {
    /// Vectors of direction classes and leaps (the same for both colours).
    vectors: Vec<Vector>,
    /// Vectors given one by one, which Black gets mirrored along the forward axes.
    explicit: Vec<Vector>,
    /// `Some(range)` for a slide, `None` for a leap (a step is a leap of one cell).
    slide: Option<u32>,
    moves: bool,
    captures: bool,
    forward: bool,
    /// Where it is in the file.
    span: Range<usize>,
}

/// A set of vectors with components from -15 to 15: one bit each.
struct VectorSet {
    bits: Vec<u64>,
    len: usize,
}

impl VectorSet {
    const SIDE: usize = 2 * MAX_LEAP as usize + 1;

    fn new() -> Self {
        VectorSet {
            bits: vec![0; Self::SIDE.pow(3).div_ceil(64)],
            len: 0,
        }
    }

    fn index(v: Vector) -> usize {
        let c = |x: i8| (x as i32 + MAX_LEAP) as usize;
        (c(v[0]) * Self::SIDE + c(v[1])) * Self::SIDE + c(v[2])
    }

    /// Adds `v`; whether it was new.
    fn insert(&mut self, v: Vector) -> bool {
        let i = Self::index(v);
        let (w, b) = (i / 64, 1u64 << (i % 64));
        let new = self.bits[w] & b == 0;
        if new {
            self.bits[w] |= b;
            self.len += 1;
        }
        new
    }

    /// The vectors, in index order.
    fn to_vec(&self) -> Vec<Vector> {
        let side = Self::SIDE;
        let mut out = Vec::with_capacity(self.len);
        for (w, &word) in self.bits.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let i = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let c = |n: usize| (n as i32 - MAX_LEAP) as i8;
                out.push([c(i / (side * side)), c(i / side % side), c(i % side)]);
            }
        }
        out
    }
}

/// `vectors` without repeats, in the order of their first appearance (the order pawn steps
/// are generated in).
fn once(vectors: Vec<Vector>) -> Vec<Vector> {
    let mut seen = VectorSet::new();
    vectors.into_iter().filter(|&v| seen.insert(v)).collect()
}

/// Whether `v` goes forward for a colour whose forward axes are `axes`: never against one
/// of them, and along at least one.
pub(super) fn is_forward(v: Vector, axes: &[(usize, i8)]) -> bool {
    axes.iter().all(|&(i, s)| v[i] * s >= 0) && axes.iter().any(|&(i, s)| v[i] * s > 0)
}

/// Every permutation and sign of `t`, without repeats.
pub(super) fn leap_vectors(t: [i32; 3]) -> Vec<Vector> {
    crate::rules::geometry::permutations_with_signs(t.map(|x| x as i8))
}

/// The atoms of piece `letter`'s `moves`, read and checked.
pub(super) fn atoms(
    letter: char,
    pd: &PieceDef,
    span: &Range<usize>,
) -> Result<Vec<Atom>, Refusal> {
    if pd.moves.is_empty() {
        return refuse(span, format!("piece '{letter}' has no moves"));
    }
    if pd.moves.len() > MAX_MOVES_PER_PIECE {
        return refuse(
            span,
            format!(
                "piece '{letter}' has {} entries in `moves`, at most {MAX_MOVES_PER_PIECE}",
                pd.moves.len()
            ),
        );
    }
    pd.moves
        .iter()
        .map(|a| atom(a.get_ref(), a.span()))
        .collect()
}

fn atom(a: &AtomDef, span: Range<usize>) -> Result<Atom, Refusal> {
    let span = &span;
    let given = a.slide.is_some() as u8 + a.step.is_some() as u8 + a.leap.is_some() as u8;
    if given != 1 {
        return refuse(
            span,
            "a move needs exactly one of `slide`, `step` or `leap`",
        );
    }
    let too_many = |n: usize| -> Result<(), Refusal> {
        if n > MAX_ATOM_ITEMS {
            return refuse(
                span,
                format!("{n} directions or leaps in one move, at most {MAX_ATOM_ITEMS}"),
            );
        }
        Ok(())
    };
    // (class vectors, explicit vectors), each once.
    let directions = |x: &Directions, step: bool| -> Result<(Vec<Vector>, Vec<Vector>), Refusal> {
        let items = match x {
            Directions::One(s) => vec![Direction::Class(s.clone())],
            Directions::Many(v) => v.clone(),
        };
        too_many(items.len())?;
        let (mut classes, mut explicit) = (Vec::new(), Vec::new());
        for d in items {
            match d {
                Direction::Class(c) => match class_vectors(&c) {
                    Some(v) => classes.extend(v),
                    None => {
                        return refuse(
                            span,
                            format!(
                                "unknown direction class '{c}' (orthogonal, diagonal, triagonal, all)"
                            ),
                        );
                    }
                },
                Direction::Vector(v) => {
                    // A range test, not `abs`: `i32::MIN.abs()` overflows.
                    if v.iter().any(|x| !(-1..=1).contains(x)) || v == [0, 0, 0] {
                        return refuse(
                            span,
                            format!(
                                "direction {v:?}: components -1, 0 or 1, not all 0{}",
                                if step {
                                    " (longer jumps are leaps)"
                                } else {
                                    ""
                                }
                            ),
                        );
                    }
                    explicit.push(v.map(|x| x as i8));
                }
            }
        }
        Ok((once(classes), once(explicit)))
    };
    let ((vectors, explicit), slide) = if let Some(s) = &a.slide {
        if a.range == Some(0) {
            return refuse(span, "`range` must be at least 1");
        }
        (directions(s, false)?, Some(a.range.unwrap_or(u32::MAX)))
    } else if let Some(s) = &a.step {
        if a.range.is_some() {
            return refuse(span, "`range` belongs to a slide, not a step");
        }
        (directions(s, true)?, None)
    } else {
        if a.range.is_some() {
            return refuse(span, "`range` belongs to a slide, not a leap");
        }
        let triples = match a.leap.as_ref().expect("one is given") {
            Leaps::One(t) => vec![*t],
            Leaps::Many(v) => v.clone(),
        };
        too_many(triples.len())?;
        let mut out = Vec::new();
        for t in triples {
            if t.iter().any(|x| !(-MAX_LEAP..=MAX_LEAP).contains(x)) || t == [0, 0, 0] {
                return refuse(
                    span,
                    format!("leap {t:?}: components from -{MAX_LEAP} to {MAX_LEAP}, not all 0"),
                );
            }
            out.extend(leap_vectors(t));
        }
        ((once(out), Vec::new()), None)
    };
    let (moves, captures) = match a.only.as_deref() {
        None => (true, true),
        Some("move") => (true, false),
        Some("capture") => (false, true),
        Some(o) => return refuse(span, format!("only = '{o}': write \"move\" or \"capture\"")),
    };
    Ok(Atom {
        vectors,
        explicit,
        slide,
        moves,
        captures,
        forward: a.forward,
        span: span.clone(),
    })
}

/// A piece's movement for one colour, every move once.
pub(super) struct PieceMoves {
    /// Per cell, the step and leap targets that may end on an empty cell.
    pub leap_move: Vec<Bb>,
    /// Per cell, the step and leap targets that may capture.
    pub leap_capture: Vec<Bb>,
    /// The slides, at most two per direction.
    pub slides: Vec<Slide>,
    /// For a pawn, its move-only one-cell steps, each once.
    pub pawn_steps: Vec<Vector>,
}

/// What the colour a piece is compiled for needs: its forward axes, and whether its
/// explicit vectors are White's mirrored.
pub(super) struct Side<'a> {
    /// White's forward axes (the ones Black's vectors are mirrored along).
    pub white_forward: &'a [(usize, i8)],
    /// This colour's forward axes.
    pub forward: &'a [(usize, i8)],
    /// Whether this is Black.
    pub black: bool,
}

/// Piece `letter`'s movement for one colour from its `atoms`, merged (module header).
pub(super) fn compile(
    letter: char,
    atoms: &[Atom],
    pawn: bool,
    geo: &Geometry<W>,
    side: &Side,
    span: &Range<usize>,
) -> Result<PieceMoves, Refusal> {
    let dirs = geo.directions();
    let (mut leap_move, mut leap_capture, mut all_leaps) =
        (VectorSet::new(), VectorSet::new(), VectorSet::new());
    // Per direction index in order of first appearance: the longest moving and the longest
    // capturing range.
    let mut slides: Vec<(usize, Option<u32>, Option<u32>)> = Vec::new();
    let mut pawn_steps: Vec<Vector> = Vec::new();
    for at in atoms {
        let mirrored = at.explicit.iter().map(|&v| {
            let mut w = v;
            if side.black {
                for &(i, _) in side.white_forward {
                    w[i] = -w[i];
                }
            }
            w
        });
        let mut seen = VectorSet::new();
        let mut vectors: Vec<Vector> = Vec::new();
        for v in at.vectors.iter().copied().chain(mirrored) {
            if (!at.forward || is_forward(v, side.forward)) && seen.insert(v) {
                vectors.push(v);
            }
        }
        if vectors.is_empty() {
            return refuse(&at.span, "no direction is left of this move (forward?)");
        }
        match at.slide {
            Some(range) => {
                for v in &vectors {
                    let Some(dir) = dirs.iter().position(|d| d == v) else {
                        return refuse(&at.span, format!("direction {v:?} is not a unit vector"));
                    };
                    let i = match slides.iter().position(|s| s.0 == dir) {
                        Some(i) => i,
                        None => {
                            slides.push((dir, None, None));
                            slides.len() - 1
                        }
                    };
                    let longest =
                        |r: &mut Option<u32>| *r = Some(r.map_or(range, |o| o.max(range)));
                    if at.moves {
                        longest(&mut slides[i].1);
                    }
                    if at.captures {
                        longest(&mut slides[i].2);
                    }
                }
            }
            None => {
                for &v in &vectors {
                    all_leaps.insert(v);
                    if at.moves {
                        leap_move.insert(v);
                        if pawn && v.iter().all(|x| x.abs() <= 1) && !pawn_steps.contains(&v) {
                            pawn_steps.push(v);
                        }
                    }
                    if at.captures {
                        leap_capture.insert(v);
                    }
                }
            }
        }
        if all_leaps.len > MAX_PIECE_VECTORS {
            return refuse(
                span,
                format!(
                    "piece '{letter}' has more than {MAX_PIECE_VECTORS} distinct steps and leaps"
                ),
            );
        }
    }
    let (move_vectors, capture_vectors) = (leap_move.to_vec(), leap_capture.to_vec());
    let leap_move = geo.leap_table(&move_vectors);
    let leap_capture = if capture_vectors == move_vectors {
        leap_move.clone()
    } else {
        geo.leap_table(&capture_vectors)
    };
    // A range as long as the board is unlimited (which takes the faster ray path).
    let (files, ranks) = geo.extent();
    let longest_line = files.max(ranks).max(geo.levels()) as u32;
    let unlimited = |r: u32| if r >= longest_line { u32::MAX } else { r };
    let mut out = Vec::new();
    for (dir, m, c) in slides {
        let (m, c) = (m.map(unlimited), c.map(unlimited));
        let slide = |range, moves, captures| Slide {
            dir,
            range,
            moves,
            captures,
        };
        match (m, c) {
            (Some(m), Some(c)) if m == c => out.push(slide(m, true, true)),
            _ => {
                if let Some(m) = m {
                    out.push(slide(m, true, false));
                }
                if let Some(c) = c {
                    out.push(slide(c, false, true));
                }
            }
        }
    }
    // Directions that exist nowhere on this board (vertical ones on a flat board) are
    // dropped.
    out.retain(|s| (0..geo.cells()).any(|cell| geo.ray(cell, s.dir).any()));
    Ok(PieceMoves {
        leap_move,
        leap_capture,
        slides: out,
        pawn_steps,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::geometry::{GeometrySpec, LevelSpec};

    /// White's movement of a piece with these `moves` on an 8 x 8 board.
    fn white(moves: &str, pawn: bool) -> PieceMoves {
        let pd: PieceDef =
            toml::from_str(&format!("letter = \"X\"\nname = \"X\"\nmoves = {moves}")).unwrap();
        let geo: Geometry<W> = Geometry::new(&GeometrySpec {
            levels: vec![LevelSpec {
                files: (0, 7),
                ranks: (0, 7),
            }],
            named_levels: false,
            holes: Vec::new(),
            directions: class_vectors("all").unwrap(),
        });
        let atoms = atoms('X', &pd, &(0..0)).unwrap();
        let fwd = [(1, 1)];
        let side = Side {
            white_forward: &fwd,
            forward: &fwd,
            black: false,
        };
        compile('X', &atoms, pawn, &geo, &side, &(0..0)).unwrap()
    }

    /// (direction vector, range, moves, captures) of each slide, sorted.
    fn slides(p: &PieceMoves) -> Vec<(Vector, u32, bool, bool)> {
        let dirs = class_vectors("all").unwrap();
        let mut out: Vec<_> = p
            .slides
            .iter()
            .map(|s| (dirs[s.dir], s.range, s.moves, s.captures))
            .collect();
        out.sort();
        out
    }

    #[test]
    fn repeated_atoms_are_merged_exactly() {
        const FAR: u32 = u32::MAX;
        let up = [0, 1, 0];
        // Equal abilities: the longest range, once per direction (8 cells is the board).
        let p = white(
            "[{ slide = [[0, 1, 0]], range = 3 }, { slide = [[0, 1, 0]], range = 9 }]",
            false,
        );
        assert_eq!(slides(&p), [(up, FAR, true, true)]);
        let p = white(
            "[{ slide = [[0, 1, 0]], range = 3 }, { slide = [[0, 1, 0]], range = 2 }]",
            false,
        );
        assert_eq!(slides(&p), [(up, 3, true, true)]);
        // Different longest ranges for moving and capturing: one slide each.
        let p = white(
            "[{ slide = [[0, 1, 0]], range = 2 }, { slide = [[0, 1, 0]], range = 5, only = \"capture\" }]",
            false,
        );
        assert_eq!(slides(&p), [(up, 2, true, false), (up, 5, false, true)]);
        // Move-only and capture-only of one range: one slide that does both.
        let p = white(
            "[{ slide = \"orthogonal\", range = 4, only = \"move\" }, { slide = [[0, 1, 0]], range = 4, only = \"capture\" }]",
            false,
        );
        assert_eq!(p.slides.len(), 4);
        assert!(slides(&p).contains(&(up, 4, true, true)));
        // A pawn's step listed three ways is one step; leaps and steps are sets.
        let p = white(
            "[{ step = \"orthogonal\", forward = true, only = \"move\" }, { step = [[0, 1, 0]], only = \"move\" }, { leap = [0, 1, 0], forward = true, only = \"move\" }]",
            true,
        );
        assert_eq!(p.pawn_steps, [up]);
        let once = white("[{ leap = [1, 2, 0] }]", false);
        let twice = white(
            "[{ leap = [[1, 2, 0], [2, 1, 0]] }, { leap = [0, 1, 2], only = \"capture\" }]",
            false,
        );
        assert_eq!(once.leap_move, twice.leap_move);
        assert_eq!(once.leap_capture, twice.leap_capture);
    }

    #[test]
    fn vector_sets_hold_each_vector_once() {
        let mut s = VectorSet::new();
        assert!(s.insert([-15, 0, 15]));
        assert!(s.insert([1, 2, 0]));
        assert!(!s.insert([1, 2, 0]));
        assert!(s.insert([15, 15, -15]));
        assert_eq!(s.len, 3);
        assert_eq!(s.to_vec(), [[-15, 0, 15], [1, 2, 0], [15, 15, -15]]);
    }
}
