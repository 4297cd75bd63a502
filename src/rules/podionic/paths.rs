//! Slider moves as precomputed trees of paths.
//!
//! A Rook, Bishop or Queen move follows a path: planar steps in one direction, with vertical
//! steps at overlapping squares before, between and after them (never up and down at the same
//! square). The rules file gives the generator as a depth-first search (`explore`/`enter`);
//! the search depends on the board only through "is this cell empty?", so it is run once per
//! cell on an empty board and recorded as a tree: each node is a cell entered, its children
//! the cells entered next from there. Given the occupied cells, the reachable set is a walk
//! over the flattened tree (pre-order, each node knowing where its subtree ends) that skips
//! the subtree below every occupied cell, which is exactly where the search would stop.
//!
//! Before the first planar step the path has no direction yet, so the trees of a piece's
//! directions share their purely vertical beginnings: one tree per cell and piece, not one
//! per direction. A Queen's moves are the union of the Rook's and the Bishop's (every path
//! keeps one direction).
//!
//! Reachability is symmetric: a path reversed is a path of the opposite direction with the
//! same intermediate cells, and the up/down rule per square is symmetric. So the sliders that
//! attack a cell are the sliders found by walking the tree *from* that cell.

use super::board::{Bb, CELLS, DIRECTIONS, NO_CELL};
use crate::rules::bitset::{BitSet, Cell};
use crate::rules::geometry::Geometry;

/// One node: the cell a path enters, and the index (within the cell's tree) just past the
/// node's subtree.
#[derive(Clone, Copy, Debug)]
struct Node {
    cell: u8,
    skip: u16,
}

/// The path trees of one piece kind, for every cell.
pub struct PathTrees {
    nodes: Vec<Node>,
    start: Vec<u32>,
}

impl PathTrees {
    /// Builds the trees for a slider moving in `dirs` (indices into [`DIRECTIONS`]).
    pub fn build(geo: &Geometry<1>, up: &[u8; CELLS], down: &[u8; CELLS], dirs: &[usize]) -> Self {
        let mut b = Builder {
            geo,
            up,
            down,
            dirs,
            nodes: Vec::new(),
            base: 0,
        };
        let mut start = Vec::with_capacity(CELLS + 1);
        for c in 0..CELLS {
            b.base = b.nodes.len();
            start.push(b.base as u32);
            b.explore(c, None, 0);
        }
        start.push(b.nodes.len() as u32);
        PathTrees {
            nodes: b.nodes,
            start,
        }
    }

    /// The cells a slider on `from` reaches (moves to or captures on, friend or foe) when
    /// `occ` is occupied: every path's cells up to and including its first occupied cell.
    #[inline(always)]
    pub fn reach(&self, from: Cell, occ: Bb) -> Bb {
        let tree = &self.nodes[self.start[from] as usize..self.start[from + 1] as usize];
        let occ = occ.0[0];
        let mut out = 0u64;
        let mut i = 0;
        while let Some(n) = tree.get(i) {
            let bit = 1u64 << n.cell;
            out |= bit;
            i = if occ & bit != 0 {
                n.skip as usize
            } else {
                i + 1
            };
        }
        BitSet([out])
    }

    /// The number of nodes in the tree of `from` (paths' cells counted once per path prefix).
    pub fn tree_len(&self, from: Cell) -> usize {
        (self.start[from + 1] - self.start[from]) as usize
    }
}

/// The rules file's `explore`/`enter`, recording the cells entered instead of testing them.
struct Builder<'a> {
    geo: &'a Geometry<1>,
    up: &'a [u8; CELLS],
    down: &'a [u8; CELLS],
    dirs: &'a [usize],
    nodes: Vec<Node>,
    base: usize,
}

impl Builder<'_> {
    /// `last`: +1 if the path came up onto `c`, -1 if it came down, 0 otherwise.
    fn explore(&mut self, c: Cell, dir: Option<usize>, last: i8) {
        if last != -1 && self.up[c] != NO_CELL {
            self.enter(self.up[c] as Cell, dir, 1);
        }
        if last != 1 && self.down[c] != NO_CELL {
            self.enter(self.down[c] as Cell, dir, -1);
        }
        let dirs: &[usize] = match dir {
            Some(ref d) => std::slice::from_ref(d),
            None => self.dirs,
        };
        for &d in dirs {
            if let Some(n) = self.geo.step(c, DIRECTIONS[d]) {
                self.enter(n, Some(d), 0);
            }
        }
    }

    fn enter(&mut self, n: Cell, dir: Option<usize>, v: i8) {
        let i = self.nodes.len();
        self.nodes.push(Node {
            cell: n as u8,
            skip: 0,
        });
        self.explore(n, dir, v);
        self.nodes[i].skip = (self.nodes.len() - self.base) as u16;
    }
}
