//! Reading a move a person typed or a PGN holds: protocol notation first (`e2e4`, always
//! accepted), then readable notation, leniently as lichess and python-chess read SAN: check
//! and mate marks, annotations (`!?`) and `e.p.` may be there or not, `x` and `-` may be
//! left out or put in, the promotion may be written `e8Q`, `e8=Q`, `e8=q` or `e8(Q)` (and
//! left out where only one promotion is possible), castling `O-O` or `0-0`, a pawn `Pe4`,
//! and a disambiguation may be given where none is needed (`Nbd7`). A text that fits more
//! than one legal move is refused with the names of those it fits.

use super::entries::{CellParts, entries_where};
use super::fit::{PASSES, castling, protocol, resolve};
use super::write::name;
use crate::rules::bitset::Cell;
use crate::rules::game::{Game, MoveError};
use crate::rules::moves::Move;

/// The legal move `text` names, in protocol or readable notation.
pub fn read<G: Game>(g: &G, text: &str) -> Result<Move, MoveError> {
    let text = text.trim();
    if let Some(m) = protocol(g, text) {
        return Ok(m);
    }
    let core = core_of(text);
    if let Some(m) = protocol(g, core) {
        return Ok(m);
    }
    let table = entries_where(g, |to| core.contains(to));
    let found = resolve(&table, core);
    match found.as_slice() {
        [i] => Ok(table[*i].mv),
        [] if g.is_move_syntax(core) || shaped(g, core) => Err(MoveError::Illegal(text.into())),
        [] => Err(MoveError::Malformed(text.into())),
        many => Err(MoveError::Ambiguous(
            text.into(),
            many.iter().map(|&i| name(g, table[i].mv)).collect(),
        )),
    }
}

/// What a text in readable notation that names no legal move meant: the cells of the pieces
/// of the side to move it could be about (of its piece letter, or pawns, on cells that fit its
/// disambiguation) and the cell it names as the destination; for a drop (`O@e4`) the cell
/// alone, as both. `None` where the text has no such shape. For saying why a move is refused.
pub fn meant<G: Game>(g: &G, text: &str) -> Option<(Vec<Cell>, Cell)> {
    let core = core_of(text.trim());
    if !core.is_ascii() {
        return None;
    }
    let layout = g.variant().layout();
    let cell_named = |s: &str| layout.cells.iter().position(|c| c.name == s);
    if let Some((_, cell)) = core.split_once('@') {
        let c = cell_named(cell)?;
        return Some((vec![c], c));
    }
    let body = without_any_promotion(core);
    // The longest ending that is a cell's name is the destination.
    let (at, to) = (0..body.len()).find_map(|i| cell_named(&body[i..]).map(|c| (i, c)))?;
    let prefix = body[..at].trim_end_matches(['x', '-', ':', '*']);
    // Read as the reader reads it: a piece's letter and a disambiguation, or a pawn's move
    // whose disambiguation may start with a level letter (`Ba1Ba2`).
    let mut readings = vec![('P', prefix)];
    if let Some(c) = prefix.chars().next().filter(char::is_ascii_uppercase) {
        readings.push((c, &prefix[1..]));
    }
    let pieces = g.variant().info().pieces;
    let us = g.side_to_move();
    let from = (0..layout.cells.len())
        .filter(|&c| {
            let p = g.piece_at(c);
            p.is_some()
                && p.colour() == us
                && readings.iter().any(|&(letter, d)| {
                    pieces.get(p.kind() as usize).map(|i| i.letter) == Some(letter)
                        && CellParts::of(&layout.cells[c].name).accepts(d)
                })
        })
        .collect();
    Some((from, to))
}

/// `text` without a promotion at its end (`=Q`, `(Q)`, or a letter after the rank).
fn without_any_promotion(text: &str) -> &str {
    if let Some(t) = text.strip_suffix(')') {
        let t = t.trim_end_matches(|c: char| c.is_ascii_alphabetic());
        t.strip_suffix('(').unwrap_or(t)
    } else if text.ends_with(|c: char| c.is_ascii_alphabetic()) {
        let t = &text[..text.len() - 1];
        t.strip_suffix('=').unwrap_or(t)
    } else {
        text
    }
}

/// `text` without what follows a move and is not part of it: check and mate marks,
/// annotations (`!`, `?`, `!?`), `e.p.`.
pub(super) fn core_of(text: &str) -> &str {
    let mut t = text.trim_end_matches(['+', '#', '!', '?']);
    if let Some(s) = t.strip_suffix("e.p.") {
        t = s.trim_end();
    }
    t.trim_end_matches(['+', '#', '!', '?'])
}

/// Whether `text` has the shape of a readable move (legal or not): castling, a pass, a drop
/// on a cell, or a piece letter, a part of a cell, `x`, `-` or `*`, a cell and a promotion.
/// Only for telling a person whether the move was not understood or not legal.
fn shaped<G: Game>(g: &G, text: &str) -> bool {
    if !text.is_ascii() {
        return false;
    }
    if castling(text).is_some() || PASSES.contains(&text) {
        return true;
    }
    let layout = g.variant().layout();
    let is_cell = |s: &str| layout.cells.iter().any(|c| c.name == s);
    if let Some((l, cell)) = text.split_once('@') {
        return l.len() == 1 && l.chars().all(|c| c.is_ascii_alphabetic()) && is_cell(cell);
    }
    let body = without_any_promotion(text);
    (0..body.len()).any(|i| is_cell(&body[i..]) && prefix_shaped(&body[..i]))
}

/// Whether `p` can come before a piece move's destination: a letter, a part of a cell and a
/// separator, each optional (`N`, `Nb`, `exd`-less `e`, `BCc`, `Z*`).
fn prefix_shaped(p: &str) -> bool {
    let p = p.strip_suffix(['x', '-', ':', '*']).unwrap_or(p);
    let b = p.as_bytes();
    let mut i = 0;
    while i < b.len() && i < 2 && b[i].is_ascii_uppercase() {
        i += 1;
    }
    while i < b.len() && b[i].is_ascii_lowercase() {
        i += 1;
    }
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    i == b.len()
}
