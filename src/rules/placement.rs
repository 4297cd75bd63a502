//! The placement field of a multi-level FEN, read and written from the geometry.
//!
//! The format (`protocol.md`, "Placement on several levels"): levels separated by `|` in
//! level-letter order; within a level, ranks separated by `/` from the highest rank to the
//! lowest; each rank from its lowest file to its highest; a decimal number stands for that
//! many empty cells. Only the cells a level has are written, so the geometry alone says how
//! many levels, ranks and cells to expect. Each variant supplies only how a piece is written
//! (one letter, or a colour letter and a piece letter).

use std::iter::Peekable;
use std::str::Chars;

use super::bitset::Cell;
use super::geometry::Geometry;
use super::piece::{Colour, Piece};

/// The characters of a rank, for piece readers that need more than one character.
pub type Chars2<'a> = Peekable<Chars<'a>>;

/// Per level, its ranks from the highest to the lowest, each as its cells from the lowest file
/// to the highest.
pub fn level_rows<const W: usize>(geo: &Geometry<W>) -> Vec<Vec<Vec<Cell>>> {
    let mut levels: Vec<Vec<Vec<Cell>>> = vec![Vec::new(); geo.levels()];
    // Cells are numbered in (level, rank, file) order, so each rank is one run of cells.
    for cell in 0..geo.cells() {
        let c = geo.coord(cell);
        let rows = &mut levels[c.z as usize];
        match rows.last_mut() {
            Some(row) if geo.coord(row[0]).y == c.y => row.push(cell),
            _ => rows.push(vec![cell]),
        }
    }
    for rows in &mut levels {
        rows.reverse();
    }
    levels
}

/// Reads a placement. `piece(first, rest)` reads one piece whose first character is `first`
/// (never a digit), taking any further characters it needs from `rest`; its error message is
/// prefixed with the level and rank. Returns the pieces with their cells.
pub fn read<const W: usize>(
    text: &str,
    geo: &Geometry<W>,
    mut piece: impl FnMut(char, &mut Chars2) -> Result<Piece, String>,
) -> Result<Vec<(Cell, Piece)>, String> {
    let rows = level_rows(geo);
    let levels: Vec<&str> = text.split('|').collect();
    if levels.len() != rows.len() {
        return Err(format!(
            "FEN placement has {} levels separated by '|', expected {}",
            levels.len(),
            rows.len()
        ));
    }
    let mut out = Vec::new();
    for (z, (level, level_rows)) in levels.iter().zip(&rows).enumerate() {
        // A board of one level (chess) is named without its level letter.
        let level_name = if rows.len() == 1 {
            String::new()
        } else {
            format!(" level {}", (b'A' + z as u8) as char)
        };
        let ranks: Vec<&str> = level.split('/').collect();
        if ranks.len() != level_rows.len() {
            return Err(format!(
                "FEN{level_name} has {} ranks separated by '/', expected {}",
                ranks.len(),
                level_rows.len()
            ));
        }
        for (rank, cells) in ranks.iter().zip(level_rows) {
            let at = format!("FEN{level_name} rank {}", geo.coord(cells[0]).y + 1);
            let width = cells.len();
            let mut filled = 0;
            let mut chars = rank.chars().peekable();
            while let Some(ch) = chars.next() {
                if ch.is_ascii_digit() {
                    let mut run = String::from(ch);
                    while let Some(d) = chars.next_if(|d| d.is_ascii_digit()) {
                        run.push(d);
                    }
                    match run.parse::<usize>() {
                        Ok(n) if n >= 1 && n <= width && !run.starts_with('0') => filled += n,
                        _ => return Err(format!("{at}: bad empty-cell count '{run}'")),
                    }
                    if filled > width {
                        return Err(format!("{at} is longer than {width} cells"));
                    }
                    continue;
                }
                let p = piece(ch, &mut chars).map_err(|e| format!("{at}: {e}"))?;
                if filled >= width {
                    return Err(format!("{at} is longer than {width} cells"));
                }
                out.push((cells[filled], p));
                filled += 1;
            }
            if filled != width {
                return Err(format!("{at} has {filled} cells, expected {width}"));
            }
        }
    }
    Ok(out)
}

/// Writes a placement; `piece(p, out)` appends the text of the piece `p`.
pub fn write<const W: usize>(
    geo: &Geometry<W>,
    piece_at: impl Fn(Cell) -> Piece,
    mut piece: impl FnMut(Piece, &mut String),
) -> String {
    let mut s = String::new();
    for (z, rows) in level_rows(geo).iter().enumerate() {
        if z > 0 {
            s.push('|');
        }
        for (i, cells) in rows.iter().enumerate() {
            if i > 0 {
                s.push('/');
            }
            let mut empty = 0;
            for &c in cells {
                let p = piece_at(c);
                if p.is_none() {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    s.push_str(&empty.to_string());
                    empty = 0;
                }
                piece(p, &mut s);
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
        }
    }
    s
}

/// Reads a one-letter piece: `letters[kind]` in upper case for White, lower case for Black.
pub fn read_letter(letters: &[char], ch: char) -> Result<Piece, String> {
    let upper = ch.to_ascii_uppercase();
    match letters.iter().position(|&l| l == upper) {
        Some(k) => Ok(Piece::new(
            k as u8,
            if ch.is_ascii_uppercase() {
                Colour::WHITE
            } else {
                Colour::BLACK
            },
        )),
        None => Err(format!("unknown piece '{ch}'")),
    }
}

/// The one-letter form of a piece (upper case White, lower case Black).
pub fn letter(letters: &[char], p: Piece) -> char {
    let l = letters[p.kind() as usize];
    if p.colour() == Colour::WHITE {
        l
    } else {
        l.to_ascii_lowercase()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::geometry::{GeometrySpec, LevelSpec};

    #[test]
    fn reads_and_writes_nested_levels() {
        // Two levels: A is 2x2 (files b..c, ranks 2..3), B is 4x4.
        let geo: Geometry<1> = Geometry::new(&GeometrySpec {
            levels: vec![
                LevelSpec {
                    files: (1, 2),
                    ranks: (1, 2),
                },
                LevelSpec {
                    files: (0, 3),
                    ranks: (0, 3),
                },
            ],
            named_levels: true,
            holes: Vec::new(),
            directions: vec![],
        });
        let rows = level_rows(&geo);
        assert_eq!(rows.iter().map(|r| r.len()).collect::<Vec<_>>(), vec![2, 4]);
        assert_eq!(geo.name(rows[0][0][0]), "Ab3");
        assert_eq!(geo.name(rows[1][3][3]), "Bd1");
        let letters = ['P', 'K'];
        let text = "k1/1P|4/2K1/4/4";
        let pieces = read(text, &geo, |c, _| read_letter(&letters, c)).unwrap();
        let names: Vec<String> = pieces.iter().map(|(c, _)| geo.name(*c)).collect();
        assert_eq!(names, vec!["Ab3", "Ac2", "Bc3"]);
        let at = |c: Cell| {
            pieces
                .iter()
                .find(|p| p.0 == c)
                .map(|p| p.1)
                .unwrap_or(Piece::NONE)
        };
        assert_eq!(write(&geo, at, |p, s| s.push(letter(&letters, p))), text);
        for (bad, why) in [
            ("k1/1P", "levels"),
            ("k1|4/4/4/4", "ranks"),
            ("k1/1P|5/4/4/4", "bad empty-cell count '5'"),
            ("k1/1P|3K1/4/4/4", "longer than 4"),
            ("k1/1P|2K2/4/4/4", "longer than 4"),
            ("k1/1P|04/4/4/4", "bad empty-cell count '04'"),
            ("k1/1P|3K1/4/4/4", "longer than 4"),
            ("k1/1P|3/4/4/4", "has 3 cells"),
            ("x1/1P|4/4/4/4", "level A rank 3: unknown piece 'x'"),
            (
                "k1/1P|99999999999999999999999/4/4/4",
                "bad empty-cell count",
            ),
        ] {
            let err = read(bad, &geo, |c, _| read_letter(&letters, c)).unwrap_err();
            assert!(err.contains(why), "{bad}: {err}");
        }
    }
}
