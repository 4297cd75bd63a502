//! A compiled variant on its way to the registry: its start position is checked without
//! leaking anything, and the parts that must live as long as the process (the rules, which
//! positions point at, and the texts [`crate::rules::info::VariantInfo`] holds) are
//! leaked only when it is registered, once every check of its file has passed.

use super::position::DefinedPosition;
use super::rules::Rules;
use crate::rules::info::PieceInfo;
use crate::rules::shape::{self, Placed, Shape};

/// A variant compiled from a file and not (yet) registered.
pub struct Compiled {
    rules: Box<Rules>,
    name: String,
    start: String,
    piece_names: Vec<String>,
}

impl Compiled {
    /// `rules` with the texts its `'static` fields will point at.
    pub(super) fn new(rules: Rules, name: String, start: String, piece_names: Vec<String>) -> Self {
        Compiled {
            rules: Box::new(rules),
            name,
            start,
            piece_names,
        }
    }

    /// The variant's protocol name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The rules (their name and [`Rules::info`] texts are empty until registered).
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Reads the start position with these rules: the pieces it places, or `Err` with the
    /// reader's words if it is refused. Nothing is leaked either way.
    pub(super) fn check_start(mut self) -> (Self, Result<Placed, String>) {
        let cells = self.rules.geo.cells();
        // A position points at its rules with a `'static` reference, so the rules are lent
        // out as one for the time of the check, and owned again after it.
        let raw: *mut Rules = Box::into_raw(self.rules);
        // SAFETY: `raw` comes from `Box::into_raw` just above and is not freed before the box
        // is rebuilt below. The reference lives no longer than this statement: `from_fen`
        // keeps no copy of it anywhere but in the position it returns (no global table, no
        // thread), and `map` drops that position before the statement ends, keeping only
        // the cells, colours and kinds it read; the `String` of an error holds none.
        let checked = DefinedPosition::from_fen(unsafe { &*raw }, &self.start)
            .map(|p| shape::placed(&p, cells));
        // SAFETY: `raw` is the pointer `Box::into_raw` gave, not yet freed, and nothing
        // refers to the rules any more (above), so a box may own them again.
        self.rules = unsafe { Box::from_raw(raw) };
        (self, checked)
    }

    /// The variant's shape, given the pieces its start position places
    /// (read by `check_start`): what its network's inputs are derived from. It equals
    /// [`Shape::of`] the variant once it is registered.
    pub fn shape(&self, placed: Placed) -> Shape {
        Shape {
            name: self.name.clone(),
            coords: self
                .rules
                .geo
                .layout()
                .cells
                .iter()
                .map(|c| c.coord)
                .collect(),
            kinds: self.rules.kinds,
            colours: self.rules.info.colours,
            placed,
            holds: self.start.contains('['),
            royal: self.rules.royal_kind(),
        }
    }

    /// The network the variant plays with (its file's `net`, checked).
    pub(super) fn set_net(&mut self, bytes: Vec<u8>) {
        self.rules.net = Some(bytes);
    }

    /// The bytes of the network it plays with, if its file names one.
    pub fn net_bytes(&self) -> usize {
        self.rules.net.as_ref().map_or(0, Vec::len)
    }

    /// Leaks the rules and their texts, for the rest of the process: only for a variant
    /// that is registered (the registry bounds how many ever are).
    pub(super) fn into_static(self) -> &'static Rules {
        let mut rules = self.rules;
        let start: &'static str = Box::leak(self.start.into_boxed_str());
        let pieces: Vec<PieceInfo> = rules
            .letters
            .iter()
            .zip(self.piece_names)
            .map(|(&letter, name)| PieceInfo {
                letter,
                name: Box::leak(name.into_boxed_str()),
            })
            .collect();
        rules.name = Box::leak(self.name.into_boxed_str());
        rules.info.name = rules.name;
        rules.info.start_fen = start;
        rules.info.bench_positions = Box::leak(vec![start].into_boxed_slice());
        rules.info.pieces = Box::leak(pieces.into_boxed_slice());
        Box::leak(rules)
    }
}
