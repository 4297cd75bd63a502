//! Which legal moves a text fits: the matching both the reader and the writer use (the
//! writer keeps the shortest name that fits its move alone).

use super::entries::{Entry, Form, Mark};
use crate::rules::game::Game;
use crate::rules::moves::{CastlingSide, Move};

/// The texts read as a pass: PGN's null move `--`, protocol `0000`, and python-chess's
/// other spellings.
pub(super) const PASSES: [&str; 4] = ["--", "0000", "Z0", "pass"];

/// The legal move `text` is in protocol notation, if it is one.
pub(super) fn protocol<G: Game>(g: &G, text: &str) -> Option<Move> {
    if g.is_move_syntax(text) {
        g.parse_move(text).ok()
    } else {
        None
    }
}

/// Which castling `text` is (`O-O`, `0-0`, `o-o-o`).
pub(super) fn castling(text: &str) -> Option<CastlingSide> {
    match text.replace(['0', 'o'], "O").as_str() {
        "O-O" => Some(CastlingSide::Short),
        "O-O-O" => Some(CastlingSide::Long),
        _ => None,
    }
}

/// How well a text fits a move.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fit {
    /// In every part.
    Exact,
    /// But for the promotion, which the text leaves out.
    NoPromotion,
}

/// The entries the text `core` (without marks) fits: those it fits exactly, or if there are
/// none, those it fits but for a promotion left out.
pub(super) fn resolve(table: &[Entry], core: &str) -> Vec<usize> {
    let fits: Vec<(usize, Fit)> = table
        .iter()
        .enumerate()
        .filter_map(|(i, e)| fit(e, core).map(|f| (i, f)))
        .collect();
    let exact: Vec<usize> = fits
        .iter()
        .filter(|(_, f)| *f == Fit::Exact)
        .map(|&(i, _)| i)
        .collect();
    if exact.is_empty() {
        fits.into_iter().map(|(i, _)| i).collect()
    } else {
        exact
    }
}

/// `text` without a promotion to `letter` at its end (`=Q`, `Q`, `=q`, `(Q)`), if it has
/// one. A cell name ends with a digit, so a letter after one is always a promotion.
fn without_promotion(text: &str, letter: char) -> Option<&str> {
    let is_letter = |c: char| c.eq_ignore_ascii_case(&letter);
    let t = match text.strip_suffix(')') {
        Some(inner) => inner.strip_suffix(is_letter)?.strip_suffix('(')?,
        None => {
            let t = text.strip_suffix(is_letter)?;
            t.strip_suffix(['=', '/']).unwrap_or(t)
        }
    };
    t.ends_with(|c: char| c.is_ascii_digit()).then_some(t)
}

/// Whether `text` names the move of entry `e`, and how well.
fn fit(e: &Entry, text: &str) -> Option<Fit> {
    match &e.form {
        Form::Castle(side) => (castling(text) == Some(*side)).then_some(Fit::Exact),
        Form::Pass => PASSES.contains(&text).then_some(Fit::Exact),
        Form::Protocol(n) => (text == n).then_some(Fit::Exact),
        Form::Drop { letter, to } => {
            let l = text.strip_suffix(to.as_str())?.strip_suffix('@')?;
            let mut chars = l.chars();
            let ok = chars.next()?.eq_ignore_ascii_case(letter) && chars.next().is_none();
            ok.then_some(Fit::Exact)
        }
        Form::Piece(p) => {
            let (rest, fit) = match p.promotion {
                Some(l) => match without_promotion(text, l) {
                    Some(r) => (r, Fit::Exact),
                    None => (text, Fit::NoPromotion),
                },
                None => (text, Fit::Exact),
            };
            let rest = rest.strip_suffix(p.to.as_str())?;
            let rest = match p.mark {
                Mark::Shot => rest.strip_suffix('*')?,
                _ => rest.strip_suffix(['x', '-', ':']).unwrap_or(rest),
            };
            let from = if p.pawn {
                // A pawn's letter may be written or not.
                [Some(rest), rest.strip_prefix('P')]
            } else {
                [rest.strip_prefix(p.letter), None]
            };
            from.into_iter()
                .flatten()
                .any(|d| p.from.accepts(d))
                .then_some(fit)
        }
    }
}
