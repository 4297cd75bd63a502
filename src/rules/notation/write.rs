//! Writing moves in readable notation: the shortest form the reader takes back to the same
//! move alone, and the check or mate mark.

use super::entries::{Entry, Form, Mark, entries};
use super::fit::{protocol, resolve};
use crate::rules::game::{Game, GameEnd};
use crate::rules::moves::{CastlingSide, Move};

/// The readable name of the legal move `mv` of `g` (its protocol name if it is not legal).
pub fn name<G: Game>(g: &G, mv: Move) -> String {
    let table = entries(g);
    let Some(i) = table.iter().position(|e| e.mv == mv) else {
        return g.move_name(mv);
    };
    let mut after = g.clone();
    after.make(mv);
    core(g, &table, i) + mark(&after, g.team_to_move())
}

/// Every legal move of `g` with its readable name, in generation order.
pub fn names<G: Game>(g: &G) -> Vec<(Move, String)> {
    let table = entries(g);
    let team = g.team_to_move();
    let mut after = g.clone();
    (0..table.len())
        .map(|i| {
            let mv = table[i].mv;
            after.make(mv);
            let text = core(g, &table, i) + mark(&after, team);
            after.unmake();
            (mv, text)
        })
        .collect()
}

/// The moves `moves` (protocol notation, played one after another from `g`: an engine's
/// principal variation) in readable notation; from the first that is not a legal move on,
/// they are left as they are.
pub fn line<G: Game>(g: &G, moves: &[String]) -> Vec<String> {
    let mut at = g.clone();
    let mut legal = true;
    let mut out = Vec::with_capacity(moves.len());
    for m in moves {
        match protocol(&at, m).filter(|_| legal) {
            Some(mv) => {
                out.push(name(&at, mv));
                at.make(mv);
            }
            None => {
                legal = false;
                out.push(m.clone());
            }
        }
    }
    out
}

/// The move's name without its mark: the first form, shortest first, that the reader
/// takes back to this move alone; the protocol name if none does (it always reads back).
fn core<G: Game>(g: &G, table: &[Entry], i: usize) -> String {
    let e = &table[i];
    let forms: Vec<String> = match &e.form {
        Form::Castle(CastlingSide::Short) => vec!["O-O".into()],
        Form::Castle(CastlingSide::Long) => vec!["O-O-O".into()],
        Form::Pass => vec!["--".into()],
        Form::Drop { letter, to } => vec![format!("{letter}@{to}")],
        Form::Protocol(_) => Vec::new(),
        Form::Piece(p) => p
            .from
            .disambiguations()
            .into_iter()
            .filter(|d| match (p.pawn, p.mark) {
                (false, _) => true,
                // A pawn has no letter for a part of its from-cell to follow, so it gives
                // its file for a capture (`exd5`, as in chess), its whole from-cell when
                // that is not enough (`Ba1Ba2` beside `Ca2Ba2` in Pentaplane), and nothing
                // in between (`1Ba2` would read as nothing a player writes).
                (true, Mark::Capture) => d == &p.from.whole() || p.from.is_file(d),
                (true, _) => d.is_empty() || d == &p.from.whole(),
            })
            .map(|d| p.with(&d))
            .collect(),
    };
    forms
        .into_iter()
        .find(|f| reads_back(g, table, f, e.mv))
        .unwrap_or_else(|| g.move_name(e.mv))
}

/// Whether the reader takes `text` to `mv` alone: as a protocol name if it is one, else as
/// readable notation.
fn reads_back<G: Game>(g: &G, table: &[Entry], text: &str, mv: Move) -> bool {
    if let Some(m) = protocol(g, text) {
        return m == mv;
    }
    matches!(resolve(table, text).as_slice(), [j] if table[*j].mv == mv)
}

/// The mark of a move by team `mover`, from the position `after` it: `#` when it wins the
/// game at once (checkmate, the capture of the last King that decides it, an opponent left
/// without a move where that loses), `+` when it attacks a King of the other team (check,
/// or where Kings are captured, a King it threatens to take), nothing otherwise.
fn mark<G: Game>(after: &G, mover: usize) -> &'static str {
    let won = |end: GameEnd| matches!(end, GameEnd::Win { winner, .. } if winner == mover);
    if let Some(end) = after.decided() {
        return if won(end) { "#" } else { "" };
    }
    // Counting the moves (the costly part, when every legal move is named) only where
    // having none would win: `end_without_moves` is a pure function of the position in every
    // variant, so it may be asked before knowing (in chess it is a win only in check).
    if won(after.end_without_moves()) && after.count_moves() == 0 {
        return "#";
    }
    let threat = after.kings_in_danger().into_iter().any(|c| {
        let p = after.piece_at(c);
        p.is_some() && p.colour().team() != mover
    });
    if threat { "+" } else { "" }
}

/// A few legal moves of `g` to show a person how to type one: in readable notation, one of
/// each kind the position has (a piece's move, a pawn's, a capture, castling, a promotion,
/// a drop, a shot, a pass; at most five), then the first of them in protocol notation:
/// `Nf3, e4, or g1f3`. Empty when there is no legal move.
pub fn examples<G: Game>(g: &G) -> String {
    let table = entries(g);
    let kind = |e: &Entry| match &e.form {
        Form::Piece(p) if p.promotion.is_some() => 4,
        Form::Piece(p) if p.mark == Mark::Shot => 6,
        Form::Piece(p) if p.mark == Mark::Capture => 2,
        Form::Piece(p) if p.pawn => 1,
        Form::Piece(_) => 0,
        Form::Castle(_) | Form::Protocol(_) => 3,
        Form::Drop { .. } => 5,
        Form::Pass => 7,
    };
    // Of each kind the middle one in generation order: in chess `Nf3` and `e3` rather
    // than `Na3` and `a3`.
    let named = names(g);
    // Of each kind the shortest name (a move that needs no disambiguation), the middle one
    // in generation order among those: in chess `Nf3` and `e4` rather than `Na3` and `a3`.
    let mut picked: Vec<usize> = Vec::new();
    for k in 0..8 {
        let of_kind: Vec<usize> = (0..table.len()).filter(|&i| kind(&table[i]) == k).collect();
        let Some(shortest) = of_kind.iter().map(|&i| named[i].1.len()).min() else {
            continue;
        };
        let short: Vec<usize> = of_kind
            .into_iter()
            .filter(|&i| named[i].1.len() == shortest)
            .collect();
        picked.push(short[short.len() / 2]);
    }
    picked.truncate(5);
    let Some(&first) = picked.first() else {
        return String::new();
    };
    let mut words: Vec<String> = picked.iter().map(|&i| named[i].1.clone()).collect();
    let plain = g.move_name(table[first].mv);
    if !words.contains(&plain) {
        words.push(plain);
    }
    match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{}, or {last}", rest.join(", ")),
        _ => words.join(""),
    }
}
