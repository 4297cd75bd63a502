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
//!
//! A network may also split its board inputs by where the perspective's royal piece stands
//! ([`Kings`], king buckets): one set of board inputs for each bucket of cells the royal
//! piece may stand on, and, where the board mirrors left to right, the board seen mirrored
//! when the royal piece stands on its right half. That layout is the network's choice, not
//! the variant's: its file states it, and the fingerprint does not change.

use std::collections::HashMap;

use crate::rules::Variant;
use crate::rules::bitset::Cell;
use crate::rules::geometry::Coord;
use crate::rules::piece::{Colour, Kind, Piece};
use crate::rules::shape::Shape;

/// Pieces of one kind in hand that have inputs of their own; more count as this many.
pub const HAND_CAP: usize = 4;

/// The most king buckets a network may have ([`Kings::buckets`]).
pub const MAX_KING_BUCKETS: usize = 16;

/// How a network's board inputs follow the perspective's royal piece (see the module's doc):
/// `buckets` sets of board inputs, the one of a perspective chosen by the cell its royal
/// piece stands on as it sees the board. One bucket and no mirror is the plain layout, which
/// every network had before.
#[derive(Clone, Debug, PartialEq)]
pub struct Kings {
    /// Sets of board inputs (1 to [`MAX_KING_BUCKETS`]).
    pub buckets: usize,
    /// Whether a perspective whose royal piece stands on the right half of the board, as it
    /// sees it, sees the board mirrored left to right ([`Spec::mirror`]): its royal piece
    /// is then always on the left half (the middle file, on a board of an odd number of
    /// files, counts as the left half).
    pub mirror: bool,
    /// The bucket of each cell the royal piece may stand on, as the perspective sees the
    /// board after the mirror.
    pub bucket_of: Vec<u8>,
}

impl Kings {
    /// The plain layout for a board of `cells`.
    pub fn plain(cells: usize) -> Kings {
        Kings {
            buckets: 1,
            mirror: false,
            bucket_of: vec![0; cells],
        }
    }

    /// Whether this is the plain layout: the royal piece's cell changes no input.
    #[inline(always)]
    pub fn is_plain(&self) -> bool {
        self.buckets == 1 && !self.mirror
    }
}

/// Which set of board inputs a perspective reads ([`Kings`]): the first input of its
/// bucket's set, and whether it sees the board mirrored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Frame {
    /// The index of the set's first input.
    pub base: u32,
    /// Whether the board is seen mirrored left to right.
    pub mirror: bool,
}

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
    /// [`Spec::view`] in one array, colour-major, for the evaluation's inner loop, then the
    /// same mirrored left to right (where the board mirrors so: a perspective's view in a
    /// mirrored [`Frame`]).
    flat_view: Vec<u16>,
    /// The royal kind, if the variant has one (what [`Kings`] follows).
    pub royal: Option<Kind>,
    /// How the network's board inputs follow the royal piece: the plain layout unless a
    /// network's file states another ([`Spec::with_kings`]).
    pub kings: Kings,
    /// The number of files (the first of [`Spec::axes`]' numbers).
    pub files: usize,
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

/// A perspective's view of the board in its [`Frame`] ([`Spec::frame_view`]).
#[derive(Clone, Copy)]
pub struct FrameView<'a> {
    of: usize,
    base: usize,
    /// The cell seen for each cell.
    cells: &'a [u16],
}

impl FrameView<'_> {
    /// The input of a piece of `colour` and `kind` on `cell` ([`Spec::board_input_in`]).
    #[inline(always)]
    pub fn input(&self, spec: &Spec, colour: Colour, kind: Kind, cell: Cell) -> usize {
        self.base
            + (spec.relation(self.of, colour) * spec.kinds + kind as usize) * spec.cells
            + self.cells[cell] as usize
    }
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
        let mirror = mirror_of(coords, Axis::File);
        let mut flat_view = view.concat();
        if let Some(m) = &mirror {
            let mirrored: Vec<u16> = flat_view.iter().map(|&c| m[c as usize]).collect();
            flat_view.extend(mirrored);
        }
        let mut spec = Spec {
            variant: name.to_string(),
            cells: coords.len(),
            kinds,
            colours,
            flat_view,
            royal,
            kings: Kings::plain(coords.len()),
            files: 0,
            view,
            start_pieces: placed.len(),
            holds,
            mirror,
            level_mirror: mirror_of(coords, Axis::Level),
            fingerprint: 0,
            axes: Vec::new(),
            axes_len: 0,
            out_without: royal.filter(|_| colours > 2),
            blend: super::BLEND_ALL,
        };
        (spec.axes, spec.axes_len) = axes_of(coords);
        spec.files = spec
            .axes
            .iter()
            .map(|a| a[0] as usize + 1)
            .max()
            .unwrap_or(1);
        spec.fingerprint = spec.hash(coords);
        spec
    }

    /// The same spec with the king layout `kings`; refused (with the reason) where the
    /// variant has no royal piece to follow, or the board does not mirror as it asks.
    pub fn with_kings(mut self, kings: Kings) -> Result<Spec, String> {
        if !(1..=MAX_KING_BUCKETS).contains(&kings.buckets) {
            return Err(format!(
                "{} king buckets (1 to {MAX_KING_BUCKETS})",
                kings.buckets
            ));
        }
        if kings.bucket_of.len() != self.cells
            || kings.bucket_of.iter().any(|&b| b as usize >= kings.buckets)
        {
            return Err(format!(
                "a king bucket for each of the {} cells, below {}",
                self.cells, kings.buckets
            ));
        }
        if kings.is_plain() {
            self.kings = Kings::plain(self.cells);
            return Ok(self);
        }
        if self.royal.is_none() {
            return Err(format!(
                "king buckets: '{}' has no royal piece to follow",
                self.variant
            ));
        }
        if kings.mirror && self.mirror.is_none() {
            return Err(format!(
                "king buckets: the board of '{}' does not mirror left to right",
                self.variant
            ));
        }
        self.kings = kings;
        Ok(self)
    }

    /// The king layout written as `layout` (`strata train-net --king-buckets`): the ranks
    /// from the perspective's first, separated by `/`, each a digit (or `a` to `f`) per file
    /// from the left: the bucket of a royal piece there, on every level; the last rank
    /// given stands for those beyond it. With `mirror` a rank gives the left half's files
    /// only (the middle one included). Buckets are numbered from 0 without a gap.
    pub fn parse_kings(&self, layout: &str, mirror: bool) -> Result<Kings, String> {
        let width = if mirror {
            self.files.div_ceil(2)
        } else {
            self.files
        };
        let ranks: Vec<Vec<u8>> = layout
            .split('/')
            .map(|r| {
                r.chars()
                    .map(|c| {
                        c.to_digit(16)
                            .filter(|_| !c.is_ascii_uppercase())
                            .map(|d| d as u8)
                    })
                    .collect::<Option<Vec<u8>>>()
                    .ok_or_else(|| {
                        format!(
                            "king buckets '{}': a bucket is a digit or a to f",
                            crate::text::echo(layout, 64)
                        )
                    })
            })
            .collect::<Result<_, _>>()?;
        let board_ranks = self
            .axes
            .iter()
            .map(|a| a[1] as usize + 1)
            .max()
            .unwrap_or(0)
            - self.files;
        if ranks.len() > board_ranks {
            return Err(format!(
                "king buckets '{}': {} ranks; '{}' has {board_ranks}",
                crate::text::echo(layout, 64),
                ranks.len(),
                self.variant
            ));
        }
        if let Some(r) = ranks.iter().find(|r| r.len() != width) {
            return Err(format!(
                "king buckets '{}': a rank of {} buckets; '{}' has {width} files{}",
                crate::text::echo(layout, 64),
                r.len(),
                self.variant,
                if mirror { " to its left half" } else { "" }
            ));
        }
        let buckets = ranks.iter().flatten().max().map_or(0, |&b| b as usize + 1);
        for b in 0..buckets {
            if !ranks.iter().flatten().any(|&x| x as usize == b) {
                return Err(format!(
                    "king buckets '{}': bucket {b} is never used",
                    crate::text::echo(layout, 64)
                ));
            }
        }
        let bucket_of = self
            .axes
            .iter()
            .map(|a| {
                let (x, y) = (a[0] as usize, a[1] as usize - self.files);
                let x = if x >= width { self.files - 1 - x } else { x };
                ranks[y.min(ranks.len() - 1)][x]
            })
            .collect();
        Ok(Kings {
            buckets,
            mirror,
            bucket_of,
        })
    }

    /// The board inputs of one king bucket.
    #[inline(always)]
    pub fn bucket_inputs(&self) -> usize {
        self.colours * self.kinds * self.cells
    }

    /// The cell of `colour`'s royal piece among `cells` (the first, should it have several),
    /// where the layout follows one.
    #[inline]
    pub fn king_cell(&self, colour: usize, cells: &[Piece]) -> Option<Cell> {
        let royal = self.royal.filter(|_| !self.kings.is_plain())?;
        cells
            .iter()
            .position(|p| p.is_some() && p.kind() == royal && p.colour().idx() == colour)
    }

    /// The frame of perspective `of` whose royal piece stands on `king` (none: the first
    /// bucket, not mirrored).
    #[inline]
    pub fn frame(&self, of: usize, king: Option<Cell>) -> Frame {
        let Some(cell) = king.filter(|_| !self.kings.is_plain()) else {
            return Frame::default();
        };
        let mut seen = self.view[of][cell] as usize;
        let mirror = self.kings.mirror && self.axes[seen][0] as usize >= self.files.div_ceil(2);
        if mirror {
            seen = self.mirror.as_ref().map_or(seen, |m| m[seen] as usize);
        }
        Frame {
            base: (self.kings.bucket_of[seen] as usize * self.bucket_inputs()) as u32,
            mirror,
        }
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

    /// Inputs for the pieces on the board: a set of [`Spec::bucket_inputs`] per king bucket.
    pub fn board_inputs(&self) -> usize {
        self.kings.buckets * self.bucket_inputs()
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

    /// The input of a piece of `colour` and `kind` on `cell`, seen from `of` in the plain
    /// layout (or its first king bucket, not mirrored).
    #[inline(always)]
    pub fn board_input(&self, of: usize, colour: Colour, kind: Kind, cell: Cell) -> usize {
        self.board_input_in(Frame::default(), of, colour, kind, cell)
    }

    /// The input of a piece of `colour` and `kind` on `cell`, seen from `of` in `frame`
    /// ([`Spec::frame`]).
    #[inline(always)]
    pub fn board_input_in(
        &self,
        frame: Frame,
        of: usize,
        colour: Colour,
        kind: Kind,
        cell: Cell,
    ) -> usize {
        self.frame_view(of, frame).input(self, colour, kind, cell)
    }

    /// What `of` sees in `frame`, to find the inputs of many pieces by
    /// ([`FrameView::input`]).
    #[inline(always)]
    pub fn frame_view(&self, of: usize, frame: Frame) -> FrameView<'_> {
        let at = (frame.mirror as usize * self.colours + of) * self.cells;
        FrameView {
            of,
            base: frame.base as usize,
            cells: &self.flat_view[at..at + self.cells],
        }
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

    /// Chess's king buckets `0011/2222/3333`, mirrored: a King on the e-file or beyond sees
    /// the board mirrored; e1 and d1 share a bucket, g1 and b1 another, every square of the
    /// second rank a third, the ranks beyond a fourth; Black sees its own from e8 alike.
    /// Layouts that do not fit the board are refused with the reason.
    #[test]
    fn chess_king_buckets_follow_the_king_mirrored() {
        let plain = Spec::of(Variant::Chess);
        let kings = plain.parse_kings("0011/2222/3333", true).unwrap();
        assert_eq!((kings.buckets, kings.mirror), (4, true));
        let s = plain.clone().with_kings(kings).unwrap();
        assert_eq!(s.board_inputs(), 4 * 768);
        assert_eq!(s.inputs(), 4 * 768 + 2 * 6 * HAND_CAP);
        assert_eq!(s.fingerprint, plain.fingerprint);
        let frame = |of: usize, sq: usize| s.frame(of, Some(sq));
        let base = |b: u32| b * 768;
        assert_eq!(
            frame(0, 4),
            Frame {
                base: base(1),
                mirror: true
            },
            "e1"
        );
        assert_eq!(
            frame(0, 3),
            Frame {
                base: base(1),
                mirror: false
            },
            "d1"
        );
        assert_eq!(
            frame(0, 6),
            Frame {
                base: base(0),
                mirror: true
            },
            "g1"
        );
        assert_eq!(
            frame(0, 1),
            Frame {
                base: base(0),
                mirror: false
            },
            "b1"
        );
        assert_eq!(frame(0, 15).base, base(2), "h2");
        assert_eq!(frame(0, 36).base, base(3), "e5");
        assert_eq!(frame(1, 60), frame(0, 4), "Black from e8");
        assert_eq!(frame(1, 8).base, base(3), "Black's King on a2");
        // A White Pawn on e2 seen by White with its King on g1: as if on d2, in bucket 0;
        // with its King on d5, on e2 in bucket 3.
        let f = frame(0, 6);
        assert_eq!(s.board_input_in(f, 0, Colour::WHITE, 0, 12), 11);
        assert_eq!(
            s.board_input_in(frame(0, 35), 0, Colour::WHITE, 0, 12),
            3 * 768 + 12
        );
        let start = AnyGame::startpos(Variant::Chess);
        let cells: Vec<Piece> = (0..64).map(|c| start.piece_at(c)).collect();
        assert_eq!(
            (s.king_cell(0, &cells), s.king_cell(1, &cells)),
            (Some(4), Some(60))
        );
        assert_eq!(
            plain.king_cell(0, &cells),
            None,
            "the plain layout follows nothing"
        );
        for (layout, mirror, why) in [
            ("0011/2222", false, "8 files"),
            ("00112/2222", true, "4 files to its left half"),
            ("0022/2222", true, "bucket 1 is never used"),
            ("00x1/2222", true, "a digit or a to f"),
            (
                "0000/0000/0000/0000/0000/0000/0000/0000/1111",
                true,
                "9 ranks; 'chess' has 8",
            ),
        ] {
            let e = plain.parse_kings(layout, mirror).unwrap_err();
            assert!(e.contains(why), "{layout}: {e}");
        }
        let too_many = Kings {
            buckets: MAX_KING_BUCKETS + 1,
            mirror: false,
            bucket_of: vec![0; 64],
        };
        assert!(plain.clone().with_kings(too_many).is_err());
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
