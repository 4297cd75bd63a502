//! What a variant file may hold (`docs/variant-files.md`, "Limits"): the bounds that keep
//! loading any file cheap in time and memory, and the check that every text a file gives
//! could be written in a protocol line.
//!
//! A file comes from whoever can name a path to the engine, so nothing in it may cost more
//! than these bounds allow: each bound is checked before the work it limits, and a file
//! beyond one is refused with its line like any other mistake. The bounds are far above
//! what the shipped files use (the largest is 3.3 KB, 16 kinds with at most 4 moves each),
//! and low enough that the worst file within all of them compiles in well under a second.

use std::ops::Range;

use super::file::{Direction, Directions, OneOrMany, VariantDef};
use super::rules::{Refusal, refuse};
use crate::text;

/// The largest variant file read, in bytes (the shipped files are 1.6 to 3.3 KB).
pub const MAX_FILE_BYTES: usize = 256 * 1024;
/// The most variants one file may define.
pub const MAX_VARIANTS_PER_FILE: usize = 16;
/// The most file-defined variants one process holds. Compiled variants live as long as the
/// process (positions point at them), so this bounds the memory loading can take; loading
/// a file already loaded (the same text from the same path) takes nothing new.
pub const MAX_LOADED_VARIANTS: usize = 64;
/// The most entries in a piece's `moves` list.
pub const MAX_MOVES_PER_PIECE: usize = 16;
/// The most directions (class names and vectors) or leap triples in one entry of `moves`.
pub const MAX_ATOM_ITEMS: usize = 32;
/// The most distinct step and leap vectors of one piece (all its moves together; a 3D
/// Knight has 24, Polyhedron's Space Knight 72).
pub const MAX_PIECE_VECTORS: usize = 256;
/// The most holes a board may list.
pub const MAX_HOLES: usize = 1024;
/// The largest network file a variant file may name (`net`), in bytes: the bound of
/// `setoption name EvalFile` too.
pub const MAX_NET_BYTES: usize = 256 << 20;
/// The most bytes of networks the file-defined variants of one process hold together
/// (each registered variant keeps its network for the rest of the process, and once played
/// with, its weights read out of it as much again).
pub const MAX_NET_BYTES_LOADED: usize = 256 << 20;
/// The longest variant name (the `UCI_Variant` value), in characters.
pub const MAX_NAME_CHARS: usize = 64;
/// The longest title, source or piece name, in characters.
pub const MAX_TEXT_CHARS: usize = 256;

/// Checks that `text` may be printed in a protocol line (no line break, no control
/// character) and holds at most `max_chars` characters.
pub(super) fn text(
    what: &str,
    text: &str,
    span: &Range<usize>,
    max_chars: usize,
) -> Result<(), Refusal> {
    if let Err(e) = text::check(what, text) {
        return refuse(span, e.to_string());
    }
    let n = text.chars().count();
    if n > max_chars {
        return refuse(
            span,
            format!("{what} has {n} characters, at most {max_chars}"),
        );
    }
    Ok(())
}

/// Checks every text of a definition with [`text`], before anything reads it: the free
/// texts (title, source, piece names, the start position) are printed as they are, and the
/// others (cell names, letters, class names...) are echoed in error messages, so a line
/// break in any of them is refused here with its line rather than read further.
pub(super) fn texts(def: &VariantDef) -> Result<(), Refusal> {
    let any = usize::MAX;
    text("name", def.name.get_ref(), &def.name.span(), MAX_NAME_CHARS)?;
    for (what, t) in [
        ("title", &def.title),
        ("source", &def.source),
        ("summary", &def.summary),
        ("net", &def.net),
    ] {
        if let Some(t) = t {
            text(what, t.get_ref(), &t.span(), MAX_TEXT_CHARS)?;
        }
    }
    text("start", def.start.get_ref(), &def.start.span(), any)?;
    for (what, t) in [("goal", &def.goal), ("stalemate", &def.stalemate)] {
        if let Some(t) = t {
            text(what, t.get_ref(), &t.span(), any)?;
        }
    }
    for a in def.forward.get_ref() {
        text("forward", a, &def.forward.span(), any)?;
    }
    let board = def.board.get_ref();
    for l in &board.level {
        text("board: level files", &l.get_ref().files, &l.span(), any)?;
        text("board: level ranks", &l.get_ref().ranks, &l.span(), any)?;
    }
    for h in &board.holes {
        text("board: hole", h.get_ref(), &h.span(), any)?;
    }
    for p in &def.piece {
        let pd = p.get_ref();
        text("piece letter", pd.letter.get_ref(), &pd.letter.span(), any)?;
        text(
            "piece name",
            pd.name.get_ref(),
            &pd.name.span(),
            MAX_TEXT_CHARS,
        )?;
        for a in &pd.moves {
            let (ad, span) = (a.get_ref(), a.span());
            for d in [&ad.slide, &ad.step].into_iter().flatten() {
                directions(d, &span)?;
            }
            if let Some(o) = &ad.only {
                text("only", o, &span, any)?;
            }
        }
    }
    if let Some(pr) = &def.promotion {
        let (p, span) = (pr.get_ref(), pr.span());
        let choices = match &p.choices {
            OneOrMany::One(s) => std::slice::from_ref(s),
            OneOrMany::Many(v) => v.as_slice(),
        };
        for c in choices {
            text("promotion choice", c, &span, any)?;
        }
        for z in [&p.zone, &p.zone_black].into_iter().flatten().flatten() {
            text("promotion zone cell", z, &span, any)?;
        }
    }
    for c in &def.castling {
        let (cd, span) = (c.get_ref(), c.span());
        for (what, t) in [
            ("castling letter", &cd.letter),
            ("castling king", &cd.king),
            ("castling rook", &cd.rook),
            ("castling king_to", &cd.king_to),
            ("castling rook_to", &cd.rook_to),
        ] {
            text(what, t, &span, any)?;
        }
    }
    Ok(())
}

fn directions(d: &Directions, span: &Range<usize>) -> Result<(), Refusal> {
    let classes: Vec<&String> = match d {
        Directions::One(s) => vec![s],
        Directions::Many(v) => v
            .iter()
            .filter_map(|x| match x {
                Direction::Class(c) => Some(c),
                Direction::Vector(_) => None,
            })
            .collect(),
    };
    for c in classes {
        text("direction class", c, span, usize::MAX)?;
    }
    Ok(())
}
