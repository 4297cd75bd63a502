//! "How does this piece move": the cells one piece reaches from a cell of an otherwise empty
//! board, by the rules layer's own move generation, so that the page shows a newcomer the
//! moves the engine really plays and never a drawing of its own.
//!
//! A position is composed with the piece alone, plus what the variant's FEN reader requires:
//! a King of every colour (the reader refuses a position without them, and a variant where
//! Kings are captured counts a colour without one as out of the game). The Kings stand
//! aside: on cells the piece does not reach and off its lines, found by trying (see
//! [`piece_moves`]). The position is written with the rules layer's FEN writer through
//! [`AnyGame::with_placement`] (as the position editor's `compose` is) and read back with its
//! reader, and the piece's legal moves are generated there.
//!
//! Captures and shots need something to take or hit: each other cell is tried with one
//! enemy piece on it, and a move onto it that the piece could not make to the empty cell is
//! a capture (a pawn's diagonal) or, for a Pentaplane missile piece, a shot. Special moves
//! that need more than the piece (drops, castling, en passant) are not shown.

use std::collections::BTreeSet;

use crate::rules::bitset::Cell;
use crate::rules::geometry::Coord;
use crate::rules::piece::{Colour, Kind, Piece};
use crate::rules::{AnyGame, Game, MoveFlag, MoveList, Variant};

/// Placements of the Kings tried at most before the best one is kept.
const KING_TRIALS: usize = 6;

/// Where a piece goes from a cell of an empty board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceMoves {
    /// The position shown: the piece and the Kings standing aside.
    pub fen: String,
    /// Its pieces: (cell, colour, kind).
    pub pieces: Vec<(u16, u8, u8)>,
    /// The cells the piece moves to.
    pub moves: Vec<u16>,
    /// The cells it reaches only by capturing (a pawn's diagonals), found with an enemy
    /// piece put there.
    pub captures: Vec<u16>,
    /// The cells it shoots at without moving (Pentaplane's missile pieces), found the same
    /// way.
    pub shots: Vec<u16>,
    /// The cells of the Kings the rules need.
    pub kings: Vec<u16>,
    /// What else the position assumes, in words (empty if nothing).
    pub note: String,
}

/// Whether kind `k` of `v` is a pawn (which the FEN reader keeps off some ranks).
fn is_pawn(v: Variant, k: Kind) -> bool {
    match v {
        Variant::Defined(d) => d.0.is_pawn(k),
        _ => v
            .info()
            .pieces
            .get(k as usize)
            .is_some_and(|p| p.name == "Pawn"),
    }
}

/// The enemy piece put on a cell to find captures and shots: the first kind that is neither
/// royal nor a pawn (a Knight, or Polyhedron's Queen), which may stand on any cell.
fn probe_kind(v: Variant) -> Option<Kind> {
    let royal = v.royal_kind();
    (0..v.info().pieces.len() as Kind).find(|&k| Some(k) != royal && !is_pawn(v, k))
}

/// The position the piece is shown in, before its pieces are replaced: the start position
/// with `colour` to move, and the fields after the side to move left out (every reader then
/// takes no castling rights, no en passant cell and fresh counters). What is in hand stays as
/// at the start, less one of the piece shown (Pole Chess's reader wants each Pole in hand or
/// on the board, and not in both); drops are not shown anyway. In Future Generation every
/// colour is unlocked, so that a piece shows its moves to every level (with the note
/// returned beside the FEN).
fn base_fen(v: Variant, kind: Kind, colour: Colour) -> (String, &'static str) {
    let start = v.start_fen();
    let placement = start.split_whitespace().next().unwrap_or("");
    let placement = match placement.split_once('[') {
        Some((board, hand)) => {
            // Two-colour hands: White's letters upper case, Black's lower case.
            let letter = v.info().pieces[kind as usize].letter;
            let letter = if colour == Colour::WHITE {
                letter.to_ascii_uppercase()
            } else {
                letter.to_ascii_lowercase()
            };
            let hand = hand.trim_end_matches(']');
            match hand.find(letter) {
                // The piece leaves the hand for the board (any empty cell: the placement is
                // replaced next).
                Some(i) => format!(
                    "{}[{}{}]",
                    put_on_first_empty(board, letter),
                    &hand[..i],
                    &hand[i + 1..]
                ),
                None => format!("{board}[{hand}]"),
            }
        }
        None => placement.to_string(),
    };
    let side = colour.letter();
    match v {
        Variant::FutureGeneration => (
            format!("{placement} {side} - - wbgs - 0 1"),
            "Every colour is unlocked here; in a game a colour's moves end on the levels \
             beyond its gate level only once four of its pieces stand there.",
        ),
        _ => (format!("{placement} {side}"), ""),
    }
}

/// `placement` with `letter` on its first empty cell: the first count of empty cells `n`
/// becomes the letter and `n - 1` (every variant's placement counts empty cells with a
/// number, `docs/variants/README.md`).
fn put_on_first_empty(placement: &str, letter: char) -> String {
    let Some(start) = placement.find(|c: char| c.is_ascii_digit()) else {
        return placement.to_string();
    };
    let digits = placement[start..]
        .find(|c: char| !c.is_ascii_digit())
        .map_or(placement.len(), |n| start + n);
    let n: usize = placement[start..digits].parse().unwrap_or(1);
    let rest = if n > 1 {
        (n - 1).to_string()
    } else {
        String::new()
    };
    format!(
        "{}{letter}{rest}{}",
        &placement[..start],
        &placement[digits..]
    )
}

/// Whether `d` runs along a line through its start: along one axis, or diagonally in two or
/// three of them (the lines sliders and missiles use in every variant).
fn aligned(d: [i32; 3]) -> bool {
    let mut m = 0;
    for a in d.map(i32::abs).into_iter().filter(|&a| a != 0) {
        if m != 0 && a != m {
            return false;
        }
        m = a;
    }
    true
}

fn delta(a: Coord, b: Coord) -> [i32; 3] {
    [
        i32::from(b.x) - i32::from(a.x),
        i32::from(b.y) - i32::from(a.y),
        i32::from(b.z) - i32::from(a.z),
    ]
}

fn chebyshev(d: [i32; 3]) -> i32 {
    d.map(i32::abs).into_iter().max().unwrap_or(0)
}

/// `n` cells for the Kings, none in `avoid`: off the lines through `from` first, then the
/// farthest from it, and at least two cells apart from one another (so that no King attacks
/// another and the piece's colour is never in check).
fn king_cells(coords: &[Coord], from: Cell, avoid: &BTreeSet<Cell>, n: usize) -> Option<Vec<Cell>> {
    let mut order: Vec<Cell> = (0..coords.len())
        .filter(|&c| c != from && !avoid.contains(&c))
        .collect();
    order.sort_by_key(|&c| {
        let d = delta(coords[from], coords[c]);
        let manhattan: i32 = d.map(i32::abs).iter().sum();
        (aligned(d), -chebyshev(d), -manhattan, c)
    });
    let mut out: Vec<Cell> = Vec::with_capacity(n);
    for c in order {
        if out.len() == n {
            break;
        }
        if out
            .iter()
            .all(|&k| chebyshev(delta(coords[k], coords[c])) >= 2)
        {
            out.push(c);
        }
    }
    (out.len() == n).then_some(out)
}

/// The position with `pieces` on `base`'s board, through the FEN writer and reader.
fn compose(base: &AnyGame, pieces: &[(Cell, Piece)]) -> Result<(String, AnyGame), String> {
    let fen = base.with_placement(pieces)?;
    let game = AnyGame::from_fen(base.variant(), &fen)?;
    Ok((fen, game))
}

/// The legal moves of the piece on `from` in `game`: (to, flag), drops and castling left
/// out.
fn moves_from(game: &AnyGame, from: Cell) -> Vec<(Cell, MoveFlag)> {
    let mut list = MoveList::new();
    game.generate(&mut list);
    list.iter()
        .filter(|m| m.from() == from && !matches!(m.flag(), MoveFlag::Drop | MoveFlag::Pass))
        .filter(|m| m.flag() != MoveFlag::Castle)
        .map(|m| (m.to(), m.flag()))
        .collect()
}

/// One placement of the Kings tried: its position and the cells the piece moved to.
struct Trial {
    fen: String,
    game: AnyGame,
    kings: Vec<Cell>,
    moves: BTreeSet<Cell>,
}

/// Where a `colour` piece of `kind` goes from `cell` of `v`'s otherwise empty board. The
/// caller has checked that `v` has that colour, kind and cell ([`super::bounds::piece`]).
///
/// The Kings are placed by trying: the first placement puts them on cells off the piece's
/// lines and far from it; each next one avoids every cell the piece reached so far and
/// every cell a King stood on before. A King on a cell the piece would reach blocks it
/// there (and beyond, for a slider), so every placement gives a subset of the empty board's
/// moves; the placement with the most moves is kept, and the trials stop once two
/// placements agree and no King of the kept one stands on a cell any placement reached.
/// Returns the FEN reader's own error when the piece cannot stand there (a pawn on its last
/// rank).
pub fn piece_moves(
    v: Variant,
    kind: Kind,
    colour: Colour,
    cell: Cell,
) -> Result<PieceMoves, String> {
    let coords: Vec<Coord> = v.layout().cells.iter().map(|c| c.coord).collect();
    let piece = Piece::new(kind, colour);
    let (fen, note) = base_fen(v, kind, colour);
    let base = AnyGame::from_fen(v, &fen)?;
    let royal = v.royal_kind();
    let king_colours: Vec<Colour> = match royal {
        Some(r) => (0..v.colours() as u8)
            .map(Colour)
            .filter(|&c| !(kind == r && c == colour))
            .collect(),
        None => Vec::new(),
    };
    let king_pieces = |kings: &[Cell]| -> Vec<(Cell, Piece)> {
        let mut p = vec![(cell, piece)];
        if let Some(r) = royal {
            p.extend(
                kings
                    .iter()
                    .zip(&king_colours)
                    .map(|(&k, &c)| (k, Piece::new(r, c))),
            );
        }
        p
    };
    let mut reached: BTreeSet<Cell> = BTreeSet::new();
    let mut used: BTreeSet<Cell> = BTreeSet::new();
    let mut best: Option<Trial> = None;
    let mut error = None;
    let mut trials = 0;
    for _ in 0..KING_TRIALS {
        let avoid: BTreeSet<Cell> = reached.union(&used).copied().collect();
        let Some(kings) = king_cells(&coords, cell, &avoid, king_colours.len()) else {
            break;
        };
        used.extend(&kings);
        let (fen, game) = match compose(&base, &king_pieces(&kings)) {
            Ok(x) => x,
            Err(e) => {
                error.get_or_insert(e);
                continue;
            }
        };
        if game.in_check() {
            continue;
        }
        trials += 1;
        let mut moves = BTreeSet::new();
        for (to, _) in moves_from(&game, cell) {
            reached.insert(to);
            if !kings.contains(&to) {
                moves.insert(to);
            }
        }
        if best.as_ref().is_none_or(|b| moves.len() > b.moves.len()) {
            best = Some(Trial {
                fen,
                game,
                kings,
                moves,
            });
        }
        let b = best.as_ref().expect("just set");
        if trials >= 2 && b.moves == reached && b.kings.iter().all(|k| !reached.contains(k)) {
            break;
        }
    }
    let Some(best) = best else {
        let what = format!(
            "a {} {} on {}",
            colour.name(),
            v.info().pieces[kind as usize].name,
            v.layout().cells[cell].name
        );
        return Err(match error {
            Some(e) => format!("{what} cannot be shown: {e}"),
            None => format!("{what} cannot be shown: the Kings found no place"),
        });
    };
    let (captures, shots) = captures_and_shots(v, colour, cell, &best, &king_pieces(&best.kings));
    let cells = coords.len();
    let short = |s: &BTreeSet<Cell>| s.iter().map(|&c| c as u16).collect::<Vec<_>>();
    Ok(PieceMoves {
        pieces: super::describe::pieces(&best.game, cells),
        moves: short(&best.moves),
        captures: short(&captures),
        shots: short(&shots),
        kings: best.kings.iter().map(|&c| c as u16).collect(),
        fen: best.fen,
        note: note.to_string(),
    })
}

/// The cells the piece on `from` takes or shoots at only when an enemy piece stands there:
/// each cell that is not a move, a King's or the piece's own is tried with one enemy piece
/// on it (of the next colour, which is of the other team in every variant).
fn captures_and_shots(
    v: Variant,
    colour: Colour,
    from: Cell,
    best: &Trial,
    pieces: &[(Cell, Piece)],
) -> (BTreeSet<Cell>, BTreeSet<Cell>) {
    let (mut captures, mut shots) = (BTreeSet::new(), BTreeSet::new());
    let Some(probe) = probe_kind(v) else {
        return (captures, shots);
    };
    let enemy = Piece::new(probe, Colour(((colour.idx() + 1) % v.colours()) as u8));
    let base = &best.game;
    let mut placed = pieces.to_vec();
    for c in 0..v.layout().cells.len() {
        if c == from || best.moves.contains(&c) || best.kings.contains(&c) {
            continue;
        }
        placed.push((c, enemy));
        if let Ok((_, game)) = compose(base, &placed) {
            for (to, flag) in moves_from(&game, from) {
                if to != c {
                    continue;
                }
                if flag == MoveFlag::Shot {
                    shots.insert(c);
                } else {
                    captures.insert(c);
                }
            }
        }
        placed.pop();
    }
    (captures, shots)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gui::describe::cell_named;

    fn names(v: Variant, cells: &[u16]) -> Vec<String> {
        let layout = v.layout();
        let mut n: Vec<String> = cells
            .iter()
            .map(|&c| layout.cells[c as usize].name.clone())
            .collect();
        n.sort();
        n
    }

    fn kind(v: Variant, name: &str) -> Kind {
        v.info().pieces.iter().position(|p| p.name == name).unwrap() as Kind
    }

    fn at(v: Variant, kind_name: &str, colour: Colour, cell: &str) -> PieceMoves {
        piece_moves(v, kind(v, kind_name), colour, cell_named(v, cell).unwrap())
            .unwrap_or_else(|e| panic!("{} {kind_name} {cell}: {e}", v.name()))
    }

    /// A Knight on d4 reaches exactly its eight squares, and the Kings stand elsewhere.
    #[test]
    fn a_knight_in_the_centre_reaches_its_eight_squares() {
        let m = at(Variant::Chess, "Knight", Colour::WHITE, "d4");
        let v = Variant::Chess;
        assert_eq!(
            names(v, &m.moves),
            ["b3", "b5", "c2", "c6", "e2", "e6", "f3", "f5"]
        );
        assert!(m.captures.is_empty() && m.shots.is_empty());
        assert_eq!(m.kings.len(), 2);
        assert_eq!(m.pieces.len(), 3);
        let d4 = cell_named(v, "d4").unwrap() as u16;
        assert!(m.pieces.contains(&(d4, 0, 1)));
        assert!(m.kings.iter().all(|k| !m.moves.contains(k) && *k != d4));
        // The FEN is the reader's, with White to move.
        assert_eq!(AnyGame::from_fen(v, &m.fen).unwrap().fen(), m.fen);
        assert!(m.fen.split(' ').nth(1) == Some("w"));
    }

    /// Counted by hand: sliders, the King, pawns of both colours with their captures.
    #[test]
    fn chess_pieces_reach_what_a_hand_count_says() {
        let v = Variant::Chess;
        let count = |k: &str, c: Colour, cell: &str| at(v, k, c, cell).moves.len();
        assert_eq!(count("Queen", Colour::WHITE, "d4"), 27);
        assert_eq!(count("Rook", Colour::BLACK, "a1"), 14);
        assert_eq!(count("Bishop", Colour::WHITE, "c1"), 7);
        assert_eq!(count("King", Colour::WHITE, "e4"), 8);
        assert_eq!(count("King", Colour::BLACK, "h8"), 3);
        let p = at(v, "Pawn", Colour::WHITE, "e2");
        assert_eq!(names(v, &p.moves), ["e3", "e4"]);
        assert_eq!(names(v, &p.captures), ["d3", "f3"]);
        let p = at(v, "Pawn", Colour::BLACK, "e7");
        assert_eq!(names(v, &p.moves), ["e5", "e6"]);
        assert_eq!(names(v, &p.captures), ["d6", "f6"]);
        // A pawn where the rules never put one: the FEN reader's own words.
        let e = piece_moves(
            v,
            kind(v, "Pawn"),
            Colour::WHITE,
            cell_named(v, "e8").unwrap(),
        )
        .unwrap_err();
        assert!(
            e.starts_with("a White Pawn on e8 cannot be shown: FEN"),
            "{e}"
        );
        // Pole Chess's Pole, which starts in hand, jumps to every empty square.
        let pole = at(Variant::Pole, "Pole", Colour::BLACK, "e4");
        assert_eq!(pole.moves.len(), 64 - 3);
        assert!(pole.captures.is_empty());
    }

    /// Pentaplane's 5x5x5 cube from its centre Cc3, counted by hand: every direction has two
    /// cells before the edge; a missile piece steps one cell and shoots at the second.
    #[test]
    fn pentaplane_pieces_move_and_shoot_across_the_levels() {
        let v = Variant::Pentaplane;
        let w = Colour::WHITE;
        for (piece, n) in [
            ("Rook", 6 * 2),
            ("Bishop", 12 * 2),
            ("Cuber", 8 * 2),
            ("True Queen", 26 * 2),
            ("King", 26),
            ("Knight", 24),
        ] {
            let m = at(v, piece, w, "Cc3");
            assert_eq!(m.moves.len(), n, "{piece}");
            let levels: BTreeSet<char> = names(v, &m.moves)
                .iter()
                .map(|c| c.as_bytes()[0] as char)
                .collect();
            assert!(levels.len() >= 3, "{piece}: {levels:?}");
        }
        let f = at(v, "Fortress", w, "Cc3");
        assert_eq!(
            names(v, &f.moves),
            ["Bc3", "Cb3", "Cc2", "Cc4", "Cd3", "Dc3"]
        );
        assert_eq!(
            names(v, &f.shots),
            ["Ac3", "Ca3", "Cc1", "Cc5", "Ce3", "Ec3"]
        );
        assert!(f.captures.is_empty());
        assert_eq!(at(v, "Missile Bishop", w, "Cc3").shots.len(), 12);
    }

    /// The four-colour game: every colour unlocked (a Rook on Ca1 slides up and down to
    /// every level), four Kings standing aside, and a Gold pawn going towards the a-file.
    #[test]
    fn future_generation_pieces_reach_every_level() {
        let v = Variant::FutureGeneration;
        let r = at(v, "Rook", Colour::WHITE, "Ca1");
        assert_eq!(r.moves.len(), 7 + 7 + 3);
        assert_eq!(r.kings.len(), 4);
        assert!(!r.note.is_empty());
        let p = at(v, "Pawn", Colour::GOLD, "Ce4");
        assert!(
            names(v, &p.moves).contains(&"Cd4".to_string()),
            "{:?}",
            names(v, &p.moves)
        );
    }

    /// Every piece of every built-in variant, from a cell near the middle of the board, for
    /// every colour: shown, with a move, the Kings off its targets.
    #[test]
    fn every_piece_of_every_variant_is_shown() {
        for v in Variant::ALL {
            let layout = v.layout();
            let middle = |c: &crate::rules::geometry::CellLayout| {
                let l = &layout.levels[c.coord.z as usize];
                let dx = 2 * i32::from(c.coord.x) - i32::from(l.files.0 + l.files.1);
                let dy = 2 * i32::from(c.coord.y) - i32::from(l.ranks.0 + l.ranks.1);
                dx.abs() + dy.abs() + 2 * i32::from(c.coord.z)
            };
            let cell = (0..layout.cells.len())
                .min_by_key(|&c| middle(&layout.cells[c]))
                .unwrap();
            for k in 0..v.info().pieces.len() as Kind {
                for c in 0..v.colours() as u8 {
                    let m = piece_moves(v, k, Colour(c), cell)
                        .unwrap_or_else(|e| panic!("{} {k} {c}: {e}", v.name()));
                    assert!(!m.moves.is_empty(), "{} {k} {c}", v.name());
                    assert!(m.kings.iter().all(|c| !m.moves.contains(c)));
                }
            }
        }
    }
}
