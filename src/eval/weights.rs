//! The fitted weights of the evaluation: every term of a variant's evaluation has a
//! middlegame and an endgame weight that scales it (1024 = the term as computed). They are
//! data, `src/eval/weights/<variant>.txt`, written by `strata tune` (Texel's method, see
//! `crate::tuning::texel`), reviewed into the repository with the command that made them.
//!
//! The file: `#` comments, then one line per term, `NAME MG EG` (the name may contain spaces;
//! the two numbers are the last two words). A term the file does not name keeps 1024.
//!
//! A variant may also have *tables* of additive centipawn values, fitted alongside the term
//! weights, each indexed by piece kind and a number, and named by the word that starts its
//! lines: `WORD KIND INDEX MG EG` (KIND a piece letter). Chess has two: the piece-square
//! table `pst KIND CELL MG EG` (CELL from the moving side's own view, Black's cells mirrored,
//! e.g. 0 = a1 and 63 = h8), and the mobility table `mob KIND SQUARES MG EG` (by the number
//! of squares the piece reaches). An entry the file does not name is 0.

use super::Score;

/// The weight that leaves a term as computed.
pub const ONE: i32 = 1024;

/// A variant's term names and their weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    names: &'static [&'static str],
    scale: Vec<Score>,
    /// The tables, in the order of their values ...
    tables: Vec<Table>,
    /// ... and their values: one table after the other, each kind-major.
    table: Vec<Score>,
}

/// One table of additive values.
#[derive(Clone, Debug, PartialEq)]
struct Table {
    /// The word that starts its lines and names it (`pst`) ...
    word: &'static str,
    /// ... what its lines hold, for the file's comments ...
    about: &'static str,
    /// ... its piece kinds, one letter each ...
    kinds: &'static str,
    /// ... its entries per kind ...
    len: usize,
    /// ... and where its values start in [`Weights::table`].
    start: usize,
}

/// The largest table value a file may hold, in centipawns (either sign).
pub const TABLE_MAX: i32 = 2000;

impl Weights {
    /// Every term at [`ONE`], no piece-square table.
    pub fn neutral(names: &'static [&'static str]) -> Weights {
        Weights {
            names,
            scale: vec![Score(ONE, ONE); names.len()],
            tables: Vec::new(),
            table: Vec::new(),
        }
    }

    /// These weights with one more table, named `word`, of `len` entries for each of the
    /// piece kinds `kinds` (one letter each), every entry 0; its values follow the tables
    /// before it in [`Weights::table`]. `about` describes a line for the file's comments,
    /// e.g. "KIND CELL MG EG, cells from the side's own view".
    pub fn with_table(
        mut self,
        word: &'static str,
        about: &'static str,
        kinds: &'static str,
        len: usize,
    ) -> Weights {
        let start = self.table.len();
        self.tables.push(Table {
            word,
            about,
            kinds,
            len,
            start,
        });
        self.table
            .resize(start + kinds.len() * len, Score::default());
        self
    }

    /// The entries (indices into [`Weights::table`]) of the table named `word`.
    pub fn table_range(&self, word: &str) -> Option<std::ops::Range<usize>> {
        let t = self.tables.iter().find(|t| t.word == word)?;
        Some(t.start..t.start + t.kinds.len() * t.len)
    }

    /// The names of the tables.
    pub fn table_words(&self) -> Vec<&'static str> {
        self.tables.iter().map(|t| t.word).collect()
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
            if let Some(t) = w.tables.iter().position(|t| t.word == words[0]) {
                w.read_table_line(t, &words).map_err(err)?;
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

    /// Reads `WORD KIND INDEX MG EG` into table `t`.
    fn read_table_line(&mut self, t: usize, words: &[&str]) -> Result<(), String> {
        let table = &self.tables[t];
        let [word, kind, index, mg, eg] = words else {
            return Err(format!(
                "expected '{} {}', got '{}'",
                table.word,
                table.about.split(',').next().unwrap_or_default(),
                words.join(" ")
            ));
        };
        let k = (kind.len() == 1)
            .then(|| table.kinds.find(kind))
            .flatten()
            .ok_or_else(|| {
                format!(
                    "unknown piece kind '{kind}' in table '{word}' (kinds: {})",
                    table.kinds
                )
            })?;
        let c = index
            .parse::<usize>()
            .ok()
            .filter(|&c| c < table.len)
            .ok_or_else(|| {
                format!(
                    "index '{index}' is not within 0..{} (table '{word}')",
                    table.len - 1
                )
            })?;
        let at = table.start + k * table.len + c;
        let num = |s: &str| {
            s.parse::<i32>()
                .ok()
                .filter(|v| v.abs() <= TABLE_MAX)
                .ok_or_else(|| format!("value '{s}' is not a whole number within +-{TABLE_MAX}"))
        };
        self.table[at] = Score(num(mg)?, num(eg)?);
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
        for t in &self.tables {
            for (k, kind) in t.kinds.chars().enumerate() {
                out.push_str(&format!("# {} {kind}: {} {}\n", t.word, t.word, t.about));
                for c in 0..t.len {
                    let s = self.table[t.start + k * t.len + c];
                    out.push_str(&format!("{} {kind} {c} {} {}\n", t.word, s.0, s.1));
                }
            }
        }
        out
    }

    /// The tables' entries together (0 without tables).
    pub fn table_len(&self) -> usize {
        self.table.len()
    }

    /// Table entry `i` (a table's start, then kind-major: `start + kind * len + index`).
    #[inline(always)]
    pub fn table(&self, i: usize) -> Score {
        self.table[i]
    }

    /// Sets table entry `i`.
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

/// A built-in variant's weights file `text` (compiled in with `include_str!` beside its
/// evaluation), read over its term names; `variant` names it in a panic's message.
pub fn builtin(variant: &str, names: &'static [&'static str], text: &str) -> Weights {
    builtin_from(variant, Weights::neutral(names), text)
}

/// A built-in variant's weights file `text` read into `base` (its terms, and its tables'
/// shapes if it has any).
pub fn builtin_from(variant: &str, base: Weights, text: &str) -> Weights {
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
    fn tables_round_trip_and_bad_lines_name_their_line() {
        let base = || {
            Weights::neutral(NAMES)
                .with_table("pst", "KIND CELL MG EG", "PK", 4)
                .with_table("mob", "KIND SQUARES MG EG", "N", 3)
        };
        let mut w = base();
        assert_eq!(w.table_len(), 11);
        assert_eq!(w.table_range("mob"), Some(8..11));
        assert_eq!(w.table_range("pst"), Some(0..8));
        assert_eq!(w.table_range("king"), None);
        w.set_table(5, Score(-12, 30));
        w.set_table(9, Score(7, -3));
        let text = w.text(&[]);
        assert!(text.contains("\npst K 1 -12 30\n"), "{text}");
        assert!(text.contains("\nmob N 1 7 -3\n"), "{text}");
        assert_eq!(base().read(&text), Ok(w.clone()));
        assert_eq!(w.table(5), Score(-12, 30));
        assert_eq!(w.table(1), Score(0, 0));
        let line = |l: &str| base().read(&format!("material 1 1\n{l}\n")).unwrap_err();
        assert!(line("pst Q 1 0 0").starts_with("line 2: unknown piece kind 'Q' in table 'pst'"));
        assert!(line("mob P 1 0 0").contains("unknown piece kind 'P' in table 'mob'"));
        assert!(line("pst P 4 0 0").contains("index '4' is not within 0..3"));
        assert!(line("mob N 3 0 0").contains("index '3' is not within 0..2"));
        assert!(line("pst P 1 2001 0").contains("not a whole number within +-2000"));
        assert!(line("pst P 1 0").contains("expected 'pst KIND CELL MG EG'"));
        let none = Weights::parse(NAMES, "pst P 1 0 0").unwrap_err();
        assert!(none.contains("unknown term 'pst P 1'"), "{none}");
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

    /// Every ordered pair of a variant's `.order` file (see `strata tune --order`) holds in
    /// the repository's weights: the first position evaluates above the second.
    #[test]
    fn every_ordered_pair_holds() {
        use crate::eval::Evaluate;
        let mut files = 0;
        for v in crate::rules::Variant::ALL {
            let path = format!(
                "{}/src/eval/weights/{}.order",
                env!("CARGO_MANIFEST_DIR"),
                v.name()
            );
            if !std::path::Path::new(&path).exists() {
                continue;
            }
            files += 1;
            let pairs = crate::tuning::data::read_order(&path, v).unwrap();
            assert!(!pairs.is_empty(), "{path}");
            for (i, (better, worse)) in pairs.iter().enumerate() {
                let b = crate::with_game!(better, g => g.evaluate());
                let w = crate::with_game!(worse, g => g.evaluate());
                assert!(b > w, "{path}, pair {}: {b} <= {w}", i + 1);
            }
        }
        assert!(files > 0);
    }
}
