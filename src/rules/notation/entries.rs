//! The legal moves of a position taken apart into what their readable names are made of: the
//! piece letter, the from-cell's parts (level, file, rank), the capture or shot mark, the
//! destination and the promotion; or the castling side, the drop, the pass. The writer and
//! the reader share this table, so that what one writes the other reads back.

use crate::rules::game::Game;
use crate::rules::moves::{CastlingSide, Move, MoveFlag, MoveList};

/// How a legal move is written, apart from its disambiguation and its check mark.
pub(super) enum Form {
    /// `O-O` or `O-O-O`.
    Castle(CastlingSide),
    /// `--`.
    Pass,
    /// `O@e4`: the piece's letter, `@`, the cell.
    Drop {
        /// The dropped piece's letter (upper case).
        letter: char,
        /// The cell's name.
        to: String,
    },
    /// A piece's move: `Nf3`, `exd5`, `NCc5`, `Z*Ca4`, `e8=Q`.
    Piece(PieceMove),
    /// A move with no readable form (a castling a variant file declares under another
    /// letter than `K` or `Q`): its protocol name.
    Protocol(String),
}

/// What separates the from-part of a piece's move from its destination.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Mark {
    /// Nothing: a move to an empty cell.
    Quiet,
    /// `x`: a capture (en passant too).
    Capture,
    /// `*`: a missile's shot (Pentaplane), whose piece stays where it is.
    Shot,
}

/// A piece's move, in parts.
pub(super) struct PieceMove {
    /// The piece's letter (upper case); a pawn's (`P`) is not written.
    pub letter: char,
    /// Whether the piece is a pawn (its letter is `P`).
    pub pawn: bool,
    /// The from-cell's parts, for disambiguation.
    pub from: CellParts,
    /// Capture, shot or neither.
    pub mark: Mark,
    /// The destination's name.
    pub to: String,
    /// The promotion's letter (upper case), if the move promotes.
    pub promotion: Option<char>,
}

impl PieceMove {
    /// The move's name with disambiguation `d` (no check mark).
    pub fn with(&self, d: &str) -> String {
        let mut s = String::new();
        if !self.pawn {
            s.push(self.letter);
        }
        s.push_str(d);
        match self.mark {
            Mark::Quiet => {}
            Mark::Capture => s.push('x'),
            Mark::Shot => s.push('*'),
        }
        s.push_str(&self.to);
        if let Some(p) = self.promotion {
            s.push('=');
            s.push(p);
        }
        s
    }
}

/// A cell's name in its three parts: level letter (none on a one-level board), file letter,
/// rank number (`Cj10`: `C`, `j`, `10`).
pub(super) struct CellParts {
    level: String,
    file: String,
    rank: String,
}

impl CellParts {
    /// The parts of a cell name as the rules layer writes it (upper-case level letters, then
    /// lower-case file letters, then digits).
    pub fn of(name: &str) -> CellParts {
        let level: String = name.chars().take_while(char::is_ascii_uppercase).collect();
        let rest = &name[level.len()..];
        let file: String = rest.chars().take_while(char::is_ascii_lowercase).collect();
        let rank = rest[file.len()..].to_string();
        CellParts { level, file, rank }
    }

    /// The disambiguations the writer tries, in order: none, then the file, the rank, the
    /// level, the level and file, the level and rank, the file and rank, the whole cell. A
    /// part the board does not have (the level in chess) leaves out the forms that need it.
    pub fn disambiguations(&self) -> Vec<String> {
        let (l, f, r) = (&self.level, &self.file, &self.rank);
        let forms: [(bool, String); 8] = [
            (true, String::new()),
            (!f.is_empty(), f.clone()),
            (!r.is_empty(), r.clone()),
            (!l.is_empty(), l.clone()),
            (!l.is_empty() && !f.is_empty(), format!("{l}{f}")),
            (!l.is_empty() && !r.is_empty(), format!("{l}{r}")),
            (!f.is_empty() && !r.is_empty(), format!("{f}{r}")),
            (!l.is_empty(), format!("{l}{f}{r}")),
        ];
        let mut out: Vec<String> = Vec::new();
        for (ok, d) in forms {
            if ok && !out.contains(&d) {
                out.push(d);
            }
        }
        out
    }

    /// Whether `d` is one of [`CellParts::disambiguations`]: each part it gives is this
    /// cell's, in the order level, file, rank, and nothing else.
    pub fn accepts(&self, d: &str) -> bool {
        let p = CellParts::of(d);
        let fits = |part: &str, own: &str| part.is_empty() || part == own;
        fits(&p.level, &self.level)
            && fits(&p.file, &self.file)
            && fits(&p.rank, &self.rank)
            && p.rank.chars().all(|c| c.is_ascii_digit())
    }

    /// The whole cell name.
    pub fn whole(&self) -> String {
        format!("{}{}{}", self.level, self.file, self.rank)
    }

    /// Whether disambiguation `d` is this cell's file alone.
    pub fn is_file(&self, d: &str) -> bool {
        d == self.file
    }
}

/// A legal move and how it is written.
pub(super) struct Entry {
    /// The move.
    pub mv: Move,
    /// Its form.
    pub form: Form,
}

/// Every legal move of `g`, taken apart.
pub(super) fn entries<G: Game>(g: &G) -> Vec<Entry> {
    entries_where(g, |_| true)
}

/// The legal moves of `g` taken apart, but for those going to a cell whose name `keep`
/// refuses (castling and the pass are always kept): the reader keeps only the moves to a
/// cell its text names, and so names only those (naming every move of a 300-cell board for
/// each move read would cost more than generating them).
pub(super) fn entries_where<G: Game>(g: &G, keep: impl Fn(&str) -> bool) -> Vec<Entry> {
    let mut list = MoveList::new();
    g.generate(&mut list);
    let pieces = g.variant().info().pieces;
    let letter = |k: u8| pieces.get(k as usize).map_or('?', |p| p.letter);
    // Each destination's name, made once.
    let mut names: Vec<Option<String>> = Vec::new();
    let mut name_of = |cell: usize| -> String {
        if names.len() <= cell {
            names.resize(cell + 1, None);
        }
        names[cell].get_or_insert_with(|| g.cell_name(cell)).clone()
    };
    let mut out = Vec::with_capacity(list.len());
    for &mv in list.iter() {
        let form = match mv.flag() {
            MoveFlag::Pass => Form::Pass,
            MoveFlag::Castle => match g.castling_side(mv) {
                Some(side) => Form::Castle(side),
                None => Form::Protocol(g.move_name(mv)),
            },
            _ => {
                let to = name_of(mv.to());
                if !keep(&to) {
                    continue;
                }
                if mv.flag() == MoveFlag::Drop {
                    Form::Drop {
                        letter: letter(mv.promotion().unwrap_or(0)),
                        to,
                    }
                } else {
                    let l = letter(g.moved_piece(mv).kind());
                    let mark = if mv.flag() == MoveFlag::Shot {
                        Mark::Shot
                    } else if g.captured_piece(mv).is_some() {
                        Mark::Capture
                    } else {
                        Mark::Quiet
                    };
                    Form::Piece(PieceMove {
                        letter: l,
                        pawn: l == 'P',
                        from: CellParts::of(&g.cell_name(mv.from())),
                        mark,
                        to,
                        promotion: mv.promotion().map(letter),
                    })
                }
            }
        };
        out.push(Entry { mv, form });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_names_come_apart_and_disambiguations_are_shortest_first() {
        let p = CellParts::of("Cj10");
        assert_eq!((&*p.level, &*p.file, &*p.rank), ("C", "j", "10"));
        assert_eq!(
            p.disambiguations(),
            ["", "j", "10", "C", "Cj", "C10", "j10", "Cj10"]
        );
        assert_eq!(CellParts::of("e4").disambiguations(), ["", "e", "4", "e4"]);
        assert!(p.accepts("C10") && !p.accepts("10j") && !p.accepts("Dj"));
        assert!(p.is_file("j") && !p.is_file("Cj") && p.whole() == "Cj10");
    }
}
