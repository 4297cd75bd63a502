//! The fitted weights of the evaluation: every term of a variant's evaluation has a
//! middlegame and an endgame weight that scales it (1024 = the term as computed). They are
//! data, `src/eval/weights/<variant>.txt`, written by `strata tune` (Texel's method, see
//! `crate::tuning::texel`), reviewed into the repository with the command that made them.
//!
//! The file: `#` comments, then one line per term, `NAME MG EG` (the name may contain spaces;
//! the two numbers are the last two words). A term the file does not name keeps 1024.
//!
//! A variant may also have a *piece-square table*: additive centipawn values by piece kind
//! and cell, from the moving side's own view (Black's cells mirrored), fitted alongside the
//! term weights. Its lines are `pst KIND CELL MG EG` (KIND a piece letter, CELL the cell's
//! index, e.g. 0 = a1 and 63 = h8 in chess); an entry the file does not name is 0.

use super::Score;

/// The weight that leaves a term as computed.
pub const ONE: i32 = 1024;

/// A variant's term names and their weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    names: &'static [&'static str],
    scale: Vec<Score>,
    /// The piece kinds of the piece-square table, one letter each ("" without a table) ...
    table_kinds: &'static str,
    /// ... its cells per kind ...
    table_cells: usize,
    /// ... and its values, kind-major.
    table: Vec<Score>,
}

/// The largest piece-square value a file may hold, in centipawns (either sign).
pub const TABLE_MAX: i32 = 2000;

/// The word that starts a piece-square table line.
const TABLE_WORD: &str = "pst";

impl Weights {
    /// Every term at [`ONE`], no piece-square table.
    pub fn neutral(names: &'static [&'static str]) -> Weights {
        Weights {
            names,
            scale: vec![Score(ONE, ONE); names.len()],
            table_kinds: "",
            table_cells: 0,
            table: Vec::new(),
        }
    }

    /// These weights with a piece-square table of `cells` cells for each of the piece kinds
    /// `kinds` (one letter each), every entry 0.
    pub fn with_table(mut self, kinds: &'static str, cells: usize) -> Weights {
        self.table_kinds = kinds;
        self.table_cells = cells;
        self.table = vec![Score::default(); kinds.len() * cells];
        self
    }

    /// Reads a weights file for the terms `names`. Errors name the line.
    pub fn parse(names: &'static [&'static str], text: &str) -> Result<Weights, String> {
        Weights::neutral(names).read(text)
    }

    /// These weights with a weights file's lines applied. Errors name the line.
    pub fn read(mut self, text: &str) -> Result<Weights, String> {
        let names = self.names;
        let w = &mut self;
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let err = |m: String| format!("line {}: {m}", i + 1);
            let words: Vec<&str> = line.split_whitespace().collect();
            if words[0] == TABLE_WORD {
                w.read_table_line(&words).map_err(err)?;
                continue;
            }
            if words.len() < 3 {
                return Err(err(format!("expected 'NAME MG EG', got '{line}'")));
            }
            let (name, nums) = words.split_at(words.len() - 2);
            let name = name.join(" ");
            let term = names
                .iter()
                .position(|n| *n == name)
                .ok_or_else(|| err(format!("unknown term '{name}'")))?;
            let num = |s: &str| {
                s.parse::<i32>()
                    .ok()
                    .filter(|v| (0..=8 * ONE).contains(v))
                    .ok_or_else(|| err(format!("weight '{s}' is not a whole number 0..8192")))
            };
            w.scale[term] = Score(num(nums[0])?, num(nums[1])?);
        }
        Ok(self)
    }

    /// Reads `pst KIND CELL MG EG`.
    fn read_table_line(&mut self, words: &[&str]) -> Result<(), String> {
        let [_, kind, cell, mg, eg] = words else {
            return Err(format!(
                "expected '{TABLE_WORD} KIND CELL MG EG', got '{}'",
                words.join(" ")
            ));
        };
        if self.table_kinds.is_empty() {
            return Err("this variant has no piece-square table".into());
        }
        let k = (kind.len() == 1)
            .then(|| self.table_kinds.find(kind))
            .flatten()
            .ok_or_else(|| format!("unknown piece kind '{kind}' (kinds: {})", self.table_kinds))?;
        let c = cell
            .parse::<usize>()
            .ok()
            .filter(|&c| c < self.table_cells)
            .ok_or_else(|| {
                format!(
                    "cell '{cell}' is not a cell index 0..{}",
                    self.table_cells - 1
                )
            })?;
        let num = |s: &str| {
            s.parse::<i32>()
                .ok()
                .filter(|v| v.abs() <= TABLE_MAX)
                .ok_or_else(|| format!("value '{s}' is not a whole number within +-{TABLE_MAX}"))
        };
        self.table[k * self.table_cells + c] = Score(num(mg)?, num(eg)?);
        Ok(())
    }

    /// The file's text: `header` lines as comments, then every term.
    pub fn text(&self, header: &[String]) -> String {
        let mut out = String::new();
        for h in header {
            out.push_str(&format!("# {h}\n"));
        }
        for (name, s) in self.names.iter().zip(&self.scale) {
            out.push_str(&format!("{name} {} {}\n", s.0, s.1));
        }
        for (k, kind) in self.table_kinds.chars().enumerate() {
            out.push_str(&format!(
                "# Piece-square values of {kind}: {TABLE_WORD} KIND CELL MG EG, cells from the side's own view\n"
            ));
            for c in 0..self.table_cells {
                let s = self.table[k * self.table_cells + c];
                out.push_str(&format!("{TABLE_WORD} {kind} {c} {} {}\n", s.0, s.1));
            }
        }
        out
    }

    /// The piece-square table's size (kinds times cells; 0 without a table).
    pub fn table_len(&self) -> usize {
        self.table.len()
    }

    /// Piece-square entry `i` (kind-major: `kind * cells + cell`).
    #[inline(always)]
    pub fn table(&self, i: usize) -> Score {
        self.table[i]
    }

    /// Sets piece-square entry `i`.
    pub fn set_table(&mut self, i: usize, s: Score) {
        self.table[i] = s;
    }

    /// The term names, in index order.
    pub fn names(&self) -> &'static [&'static str] {
        self.names
    }

    /// Term `term`'s (middlegame, endgame) weight.
    pub fn get(&self, term: usize) -> Score {
        self.scale[term]
    }

    /// Sets term `term`'s weight.
    pub fn set(&mut self, term: usize, s: Score) {
        self.scale[term] = s;
    }

    /// `s` scaled by term `term`'s weights.
    #[inline(always)]
    pub fn apply(&self, term: usize, s: Score) -> Score {
        let w = self.scale[term];
        let mul = |v: i32, w: i32| ((v as i64 * w as i64) >> 10) as i32;
        Score(mul(s.0, w.0), mul(s.1, w.1))
    }
}

/// The weights file of a built-in variant (by name), read with its term names. The files are
/// compiled in; a variant without one (the variants defined in files) is neutral.
pub fn builtin(variant: &str, names: &'static [&'static str]) -> Weights {
    builtin_from(variant, Weights::neutral(names))
}

/// The weights file of a built-in variant (by name) read into `base` (its terms, and its
/// piece-square table's shape if it has one).
pub fn builtin_from(variant: &str, base: Weights) -> Weights {
    let text = match variant {
        "chess" => include_str!("weights/chess.txt"),
        "pole" => include_str!("weights/pole.txt"),
        "polyhedron" => include_str!("weights/polyhedron.txt"),
        "podionic" => include_str!("weights/podionic.txt"),
        "pentaplane" => include_str!("weights/pentaplane.txt"),
        "future-generation" => include_str!("weights/future-generation.txt"),
        _ => return base,
    };
    base.read(text)
        .unwrap_or_else(|e| panic!("src/eval/weights/{variant}.txt: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAMES: &[&str] = &["material", "king attack"];

    #[test]
    fn files_round_trip_and_bad_lines_name_their_line() {
        let mut w = Weights::neutral(NAMES);
        w.set(1, Score(1500, 700));
        let text = w.text(&["made by a test".into()]);
        assert_eq!(Weights::parse(NAMES, &text), Ok(w.clone()));
        assert_eq!(w.apply(1, Score(100, -100)), Score(146, -69));
        assert_eq!(w.apply(0, Score(7, 9)), Score(7, 9));
        let e = Weights::parse(NAMES, "# c\nmaterial 1 2\nbishops 1 1\n").unwrap_err();
        assert!(e.starts_with("line 3: unknown term 'bishops'"), "{e}");
        assert!(Weights::parse(NAMES, "material 1\n").is_err());
        assert!(Weights::parse(NAMES, "material -1 5\n").is_err());
    }

    #[test]
    fn piece_square_tables_round_trip_and_bad_lines_name_their_line() {
        let base = || Weights::neutral(NAMES).with_table("PK", 4);
        let mut w = base();
        w.set_table(5, Score(-12, 30));
        let text = w.text(&[]);
        assert!(text.contains("\npst K 1 -12 30\n"), "{text}");
        assert_eq!(base().read(&text), Ok(w.clone()));
        assert_eq!(w.table(5), Score(-12, 30));
        assert_eq!(w.table(1), Score(0, 0));
        let line = |l: &str| base().read(&format!("material 1 1\n{l}\n")).unwrap_err();
        assert!(line("pst Q 1 0 0").starts_with("line 2: unknown piece kind 'Q'"));
        assert!(line("pst P 4 0 0").contains("cell '4' is not a cell index 0..3"));
        assert!(line("pst P 1 2001 0").contains("not a whole number within +-2000"));
        assert!(line("pst P 1 0").contains("expected 'pst KIND CELL MG EG'"));
        let none = Weights::parse(NAMES, "pst P 1 0 0").unwrap_err();
        assert!(none.contains("no piece-square table"), "{none}");
    }

    /// Every built-in variant's weights file reads (it would panic at the first evaluation
    /// otherwise) and names only the variant's terms.
    #[test]
    fn every_weights_file_reads() {
        for v in crate::rules::Variant::ALL {
            let w = crate::eval::weights_of(v).expect("a built-in variant has weights");
            assert!(!w.names().is_empty(), "{}", v.name());
            for t in 0..w.names().len() {
                let s = w.get(t);
                assert!(s.0 >= 0 && s.1 >= 0, "{} {}", v.name(), w.names()[t]);
            }
        }
    }
}
