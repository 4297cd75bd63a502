//! Reading a move a person typed or a PGN holds: protocol notation first (`e2e4`, always
//! accepted), then readable notation, leniently as lichess and python-chess read SAN: check
//! and mate marks, annotations (`!?`) and `e.p.` may be there or not, `x` and `-` may be
//! left out or put in, the promotion may be written `e8Q`, `e8=Q`, `e8=q` or `e8(Q)` (and
//! left out where only one promotion is possible), castling `O-O` or `0-0`, a pawn `Pe4`,
//! and a disambiguation may be given where none is needed (`Nbd7`). A text that fits more
//! than one legal move is refused with the names of those it fits.

use super::entries::entries_where;
use super::fit::{PASSES, castling, protocol, resolve};
use super::write::name;
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
    // Without a promotion (`=Q`, `(Q)` or a letter after the rank).
    let mut body = text;
    if let Some(t) = body.strip_suffix(')') {
        body = t.trim_end_matches(|c: char| c.is_ascii_alphabetic());
        body = body.strip_suffix('(').unwrap_or(body);
    } else if body.ends_with(|c: char| c.is_ascii_alphabetic()) {
        body = &body[..body.len() - 1];
        body = body.strip_suffix('=').unwrap_or(body);
    }
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
