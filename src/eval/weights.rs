//! The fitted weights of the evaluation: every term of a variant's evaluation has a
//! middlegame and an endgame weight that scales it (1024 = the term as computed). They are
//! data, `src/eval/weights/<variant>.txt`, written by `strata tune` (Texel's method, see
//! `crate::tuning::texel`), reviewed into the repository with the command that made them.
//!
//! The file: `#` comments, then one line per term, `NAME MG EG` (the name may contain spaces;
//! the two numbers are the last two words). A term the file does not name keeps 1024.

use super::Score;

/// The weight that leaves a term as computed.
pub const ONE: i32 = 1024;

/// A variant's term names and their weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    names: &'static [&'static str],
    scale: Vec<Score>,
}

impl Weights {
    /// Every term at [`ONE`].
    pub fn neutral(names: &'static [&'static str]) -> Weights {
        Weights {
            names,
            scale: vec![Score(ONE, ONE); names.len()],
        }
    }

    /// Reads a weights file for the terms `names`. Errors name the line.
    pub fn parse(names: &'static [&'static str], text: &str) -> Result<Weights, String> {
        let mut w = Weights::neutral(names);
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let err = |m: String| format!("line {}: {m}", i + 1);
            let words: Vec<&str> = line.split_whitespace().collect();
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
        Ok(w)
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
        out
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
    let text = match variant {
        "chess" => include_str!("weights/chess.txt"),
        "pole" => include_str!("weights/pole.txt"),
        "polyhedron" => include_str!("weights/polyhedron.txt"),
        "podionic" => include_str!("weights/podionic.txt"),
        "pentaplane" => include_str!("weights/pentaplane.txt"),
        "future-generation" => include_str!("weights/future-generation.txt"),
        _ => return Weights::neutral(names),
    };
    Weights::parse(names, text).unwrap_or_else(|e| panic!("src/eval/weights/{variant}.txt: {e}"))
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
