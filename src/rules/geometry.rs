//! Board geometry as data: which cells exist, their names, and per-cell rays and leaps.
//!
//! A cell is addressed by (level, file, rank) = (z, x, y). Each variant describes its levels
//! (which files and ranks each level covers) and the direction vectors its sliders use; the
//! geometry numbers the cells compactly in (z, y, x) order and precomputes, for every cell and
//! direction, the ray of cells a slider would visit on an empty board.
//!
//! Because the numbering is lexicographic in (z, y, x), the cell numbers along any ray are
//! strictly monotonic. The nearest blocker on a ray is therefore the lowest or the highest
//! member of `ray & occupied` (the classical ray approach), for every geometry, 2D or 3D.

use super::bitset::{BitSet, Cell};

/// Coordinates of a cell: file `x`, rank `y`, level `z` (all from 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Coord {
    /// File, 0 = `a`.
    pub x: i8,
    /// Rank, 0 = rank 1.
    pub y: i8,
    /// Level, 0 = level letter `A` (or the only level of a 2D board).
    pub z: i8,
}

/// A direction or leap vector (dx, dy, dz).
pub type Vector = [i8; 3];

/// One level of a board: the files and ranks it covers (inclusive).
#[derive(Clone, Debug)]
pub struct LevelSpec {
    /// First and last file.
    pub files: (i8, i8),
    /// First and last rank.
    pub ranks: (i8, i8),
}

/// Everything a geometry is built from.
#[derive(Clone, Debug)]
pub struct GeometrySpec {
    /// Levels in letter order (`A` first).
    pub levels: Vec<LevelSpec>,
    /// Whether cell names start with the level letter (`Cc3`) or not (`e4`).
    pub named_levels: bool,
    /// Cells inside the levels' rectangles that do not exist (an irregular board).
    pub holes: Vec<Coord>,
    /// The slider directions whose rays are precomputed.
    pub directions: Vec<Vector>,
}

/// A variant's board, with precomputed rays.
pub struct Geometry<const W: usize> {
    coords: Vec<Coord>,
    lookup: Vec<u16>,
    files: usize,
    ranks: usize,
    levels: usize,
    named_levels: bool,
    all: BitSet<W>,
    level_cells: Vec<BitSet<W>>,
    dirs: Vec<Vector>,
    dir_increasing: Vec<bool>,
    rays: Vec<BitSet<W>>,
}

const NONE: u16 = u16::MAX;

impl<const W: usize> Geometry<W> {
    /// Builds the geometry. Panics if the cells do not fit in `64 * W` bits (a programming
    /// error in a variant's definition, caught by its tests).
    pub fn new(spec: &GeometrySpec) -> Self {
        let levels = spec.levels.len();
        let files = spec.levels.iter().map(|l| l.files.1 + 1).max().unwrap_or(0) as usize;
        let ranks = spec.levels.iter().map(|l| l.ranks.1 + 1).max().unwrap_or(0) as usize;
        let mut coords = Vec::new();
        let mut lookup = vec![NONE; files * ranks * levels];
        let mut level_cells = vec![BitSet::EMPTY; levels];
        for (z, lvl) in spec.levels.iter().enumerate() {
            for y in lvl.ranks.0..=lvl.ranks.1 {
                for x in lvl.files.0..=lvl.files.1 {
                    if spec.holes.contains(&Coord { x, y, z: z as i8 }) {
                        continue;
                    }
                    let cell = coords.len();
                    assert!(
                        cell < 64 * W,
                        "geometry has more cells than its bitset width"
                    );
                    lookup[(z * ranks + y as usize) * files + x as usize] = cell as u16;
                    coords.push(Coord { x, y, z: z as i8 });
                    level_cells[z].insert(cell);
                }
            }
        }
        let all = (0..coords.len()).collect();
        let mut g = Geometry {
            coords,
            lookup,
            files,
            ranks,
            levels,
            named_levels: spec.named_levels,
            all,
            level_cells,
            dirs: spec.directions.clone(),
            dir_increasing: Vec::new(),
            rays: Vec::new(),
        };
        g.dir_increasing = g
            .dirs
            .iter()
            .map(|d| (d[2], d[1], d[0]) > (0, 0, 0))
            .collect();
        let nd = g.dirs.len();
        let mut rays = vec![BitSet::EMPTY; g.coords.len() * nd];
        for cell in 0..g.coords.len() {
            for (d, v) in g.dirs.iter().enumerate() {
                let mut c = cell;
                while let Some(n) = g.step(c, *v) {
                    rays[cell * nd + d].insert(n);
                    c = n;
                }
            }
        }
        g.rays = rays;
        g
    }

    /// Number of cells.
    #[inline(always)]
    pub fn cells(&self) -> usize {
        self.coords.len()
    }

    /// All cells.
    #[inline(always)]
    pub fn all(&self) -> BitSet<W> {
        self.all
    }

    /// The cells of level `z`.
    pub fn level(&self, z: usize) -> BitSet<W> {
        self.level_cells[z]
    }

    /// Number of levels.
    pub fn levels(&self) -> usize {
        self.levels
    }

    /// Width and depth of the bounding box (files, ranks).
    pub fn extent(&self) -> (usize, usize) {
        (self.files, self.ranks)
    }

    /// Coordinates of `cell`.
    #[inline(always)]
    pub fn coord(&self, cell: Cell) -> Coord {
        self.coords[cell]
    }

    /// The cell at (x, y, z), if it exists.
    #[inline]
    pub fn at(&self, x: i32, y: i32, z: i32) -> Option<Cell> {
        if x < 0
            || y < 0
            || z < 0
            || x as usize >= self.files
            || y as usize >= self.ranks
            || z as usize >= self.levels
        {
            return None;
        }
        let i = self.lookup[(z as usize * self.ranks + y as usize) * self.files + x as usize];
        (i != NONE).then_some(i as usize)
    }

    /// The cell reached from `cell` by vector `v`, if it exists.
    #[inline]
    pub fn step(&self, cell: Cell, v: Vector) -> Option<Cell> {
        let c = self.coords[cell];
        self.at(
            c.x as i32 + v[0] as i32,
            c.y as i32 + v[1] as i32,
            c.z as i32 + v[2] as i32,
        )
    }

    /// The slider directions, in the order given by the spec.
    pub fn directions(&self) -> &[Vector] {
        &self.dirs
    }

    /// The index of direction `v`, if it is one of the slider directions.
    pub fn direction_index(&self, v: Vector) -> Option<usize> {
        self.dirs.iter().position(|d| *d == v)
    }

    /// The ray from `cell` (exclusive) in direction `d` on an empty board.
    #[inline(always)]
    pub fn ray(&self, cell: Cell, d: usize) -> BitSet<W> {
        self.rays[cell * self.dirs.len() + d]
    }

    /// The member of `set` (a subset of a ray in direction `d`) nearest the ray's origin.
    #[inline(always)]
    pub fn nearest(&self, set: BitSet<W>, d: usize) -> Option<Cell> {
        if self.dir_increasing[d] {
            set.first()
        } else {
            set.last()
        }
    }

    /// The cells a slider on `cell` reaches in direction `d` given the occupied cells: up to
    /// and including the first occupied cell.
    #[inline(always)]
    pub fn slide(&self, cell: Cell, d: usize, occupied: BitSet<W>) -> BitSet<W> {
        let ray = self.ray(cell, d);
        match self.nearest(ray & occupied, d) {
            None => ray,
            Some(b) => ray.and_not(self.ray(b, d)),
        }
    }

    /// For each cell, the cells reached by the given leap vectors.
    pub fn leap_table(&self, vectors: &[Vector]) -> Vec<BitSet<W>> {
        (0..self.cells())
            .map(|c| vectors.iter().filter_map(|v| self.step(c, *v)).collect())
            .collect()
    }

    /// The name of `cell`: `e4` on a 2D board, `Cc3` or `Cj10` on a 3D one.
    pub fn name(&self, cell: Cell) -> String {
        let c = self.coords[cell];
        let file = (b'a' + c.x as u8) as char;
        if self.named_levels {
            format!("{}{}{}", (b'A' + c.z as u8) as char, file, c.y + 1)
        } else {
            format!("{}{}", file, c.y + 1)
        }
    }

    /// The board as a drawing needs it.
    pub fn layout(&self) -> Layout {
        let levels = (0..self.levels)
            .map(|z| {
                let cells = self.level_cells[z].iter().map(|c| self.coords[c]);
                let (mut files, mut ranks) = ((i8::MAX, i8::MIN), (i8::MAX, i8::MIN));
                for c in cells {
                    files = (files.0.min(c.x), files.1.max(c.x));
                    ranks = (ranks.0.min(c.y), ranks.1.max(c.y));
                }
                LevelLayout {
                    letter: (b'A' + z as u8) as char,
                    files,
                    ranks,
                }
            })
            .collect();
        let cells = (0..self.cells())
            .map(|c| CellLayout {
                name: self.name(c),
                coord: self.coords[c],
            })
            .collect();
        Layout { levels, cells }
    }

    /// Parses a cell name at the start of `s`; returns the cell and the bytes consumed.
    /// The rank is read greedily (`Cj10`), but never so as to swallow a digit that would make
    /// the rank invalid.
    pub fn parse_name_prefix(&self, s: &str) -> Option<(Cell, usize)> {
        let b = s.as_bytes();
        let mut i = 0;
        let z = if self.named_levels {
            let l = *b.first()?;
            if !l.is_ascii_uppercase() {
                return None;
            }
            i = 1;
            (l - b'A') as i32
        } else {
            0
        };
        let f = *b.get(i)?;
        if !f.is_ascii_lowercase() {
            return None;
        }
        let x = (f - b'a') as i32;
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() && i - start < 2 {
            i += 1;
        }
        // Try the longest rank first, then shorter ones.
        for end in (start + 1..=i).rev() {
            if b[start] == b'0' {
                return None;
            }
            let rank: i32 = s[start..end].parse().ok()?;
            if let Some(cell) = self.at(x, rank - 1, z) {
                return Some((cell, end));
            }
        }
        None
    }

    /// Parses a whole cell name.
    pub fn parse_name(&self, s: &str) -> Option<Cell> {
        match self.parse_name_prefix(s) {
            Some((c, n)) if n == s.len() => Some(c),
            _ => None,
        }
    }
}

/// A board as a drawing needs it: its levels with the files and ranks each covers, and every
/// cell with its name and coordinates, in cell order. Nothing in it is particular to a
/// variant, so a variant added to the rules is drawn by the same code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The levels in letter order.
    pub levels: Vec<LevelLayout>,
    /// Every cell, indexed by cell number.
    pub cells: Vec<CellLayout>,
}

/// One level of a [`Layout`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelLayout {
    /// `A`, `B`, ... (also on a one-level board, where cell names omit it).
    pub letter: char,
    /// The first and last file the level has (0 = `a`).
    pub files: (i8, i8),
    /// The first and last rank (0 = rank 1).
    pub ranks: (i8, i8),
}

/// One cell of a [`Layout`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellLayout {
    /// Its name in the protocol (`e4`, `Cc3`).
    pub name: String,
    /// File, rank and level.
    pub coord: Coord,
}

/// All vectors obtained from `base` by permuting its components and choosing their signs,
/// without duplicates (e.g. `(0, 1, 2)` gives the 24 three-dimensional knight leaps).
pub fn permutations_with_signs(base: Vector) -> Vec<Vector> {
    let perms = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut out: Vec<Vector> = Vec::new();
    for p in perms {
        for signs in 0..8 {
            let mut v = [0i8; 3];
            for k in 0..3 {
                let s = if signs >> k & 1 == 1 { -1 } else { 1 };
                v[k] = base[p[k]] * s;
            }
            if !out.contains(&v) {
                out.push(v);
            }
        }
    }
    out
}

/// The 26 unit vectors of a 3D board, grouped: 6 orthogonal, 12 diagonal, 8 triagonal.
pub fn unit_vectors_3d() -> Vec<Vector> {
    let mut v = permutations_with_signs([1, 0, 0]);
    v.extend(permutations_with_signs([1, 1, 0]));
    v.extend(permutations_with_signs([1, 1, 1]));
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cube(n: i8) -> Geometry<2> {
        Geometry::new(&GeometrySpec {
            levels: (0..n)
                .map(|_| LevelSpec {
                    files: (0, n - 1),
                    ranks: (0, n - 1),
                })
                .collect(),
            named_levels: true,
            holes: Vec::new(),
            directions: unit_vectors_3d(),
        })
    }

    #[test]
    fn vector_sets_have_the_documented_sizes() {
        assert_eq!(permutations_with_signs([0, 1, 2]).len(), 24);
        assert_eq!(permutations_with_signs([1, 1, 2]).len(), 24);
        assert_eq!(permutations_with_signs([1, 2, 2]).len(), 24);
        assert_eq!(unit_vectors_3d().len(), 26);
    }

    #[test]
    fn names_round_trip_and_rays_are_monotonic() {
        let g = cube(5);
        assert_eq!(g.cells(), 125);
        for c in 0..g.cells() {
            assert_eq!(g.parse_name(&g.name(c)), Some(c));
            for d in 0..g.directions().len() {
                let ray = g.ray(c, d);
                // Walk the ray step by step; numbering must move away from `c` monotonically.
                let mut prev = c;
                let mut cur = c;
                let mut walked = 0;
                while let Some(n) = g.step(cur, g.directions()[d]) {
                    assert!(ray.contains(n));
                    assert_eq!(n > prev, n > c);
                    prev = n;
                    cur = n;
                    walked += 1;
                }
                assert_eq!(ray.len(), walked);
                if let Some(first) = g.nearest(ray, d) {
                    assert_eq!(Some(first), g.step(c, g.directions()[d]));
                }
            }
        }
        assert_eq!(g.name(g.at(2, 0, 2).unwrap()), "Cc1");
        assert!(g.parse_name("Cc6").is_none());
        assert!(g.parse_name("Fa1").is_none());
    }

    #[test]
    fn layout_lists_levels_and_cells() {
        let g = cube(5);
        let l = g.layout();
        assert_eq!(l.levels.len(), 5);
        assert_eq!(l.levels[2].letter, 'C');
        assert_eq!((l.levels[0].files, l.levels[0].ranks), ((0, 4), (0, 4)));
        assert_eq!(l.cells.len(), 125);
        assert_eq!(l.cells[g.parse_name("Cc3").unwrap()].name, "Cc3");
        assert_eq!(
            l.cells[g.parse_name("Cc3").unwrap()].coord,
            Coord { x: 2, y: 2, z: 2 }
        );
    }

    #[test]
    fn slide_stops_at_first_blocker() {
        let g = cube(5);
        let from = g.parse_name("Aa1").unwrap();
        let d = g.direction_index([1, 1, 1]).unwrap();
        let blocker = g.parse_name("Cc3").unwrap();
        let reach = g.slide(from, d, BitSet::from_cell(blocker));
        let names: Vec<_> = reach.iter().map(|c| g.name(c)).collect();
        assert_eq!(names, vec!["Bb2", "Cc3"]);
    }

    #[test]
    fn nested_levels_and_two_digit_ranks() {
        let g: Geometry<5> = Geometry::new(&GeometrySpec {
            levels: (0..5)
                .map(|z: i8| {
                    let k = (z - 2).abs();
                    LevelSpec {
                        files: (k, 9 - k),
                        ranks: (k, 9 - k),
                    }
                })
                .collect(),
            named_levels: true,
            holes: Vec::new(),
            directions: unit_vectors_3d(),
        });
        assert_eq!(g.cells(), 300);
        assert_eq!(g.parse_name("Cj10").map(|c| g.name(c)), Some("Cj10".into()));
        assert_eq!(g.parse_name("Cj1").map(|c| g.name(c)), Some("Cj1".into()));
        assert!(g.parse_name("Aa1").is_none());
        assert!(g.parse_name("Cj11").is_none());
        // "Cj10Cj9": the prefix parser takes the full rank.
        assert_eq!(g.parse_name_prefix("Cj10Cj9").map(|(_, n)| n), Some(4));
        assert_eq!(g.parse_name_prefix("Ca1Ca2").map(|(_, n)| n), Some(3));
    }
}
