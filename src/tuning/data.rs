//! The position file of `strata datagen` and `strata tune`: one position per line,
//! `FEN | SCORE | RESULT`, where SCORE is the search's score in centipawns and RESULT the
//! game's result (1.0 a win, 0.5 a draw, 0.0 a loss), both for White's team (the FEN may
//! itself contain `|`: the last two fields are the numbers). Lines starting
//! with `#` are comments (datagen writes the command that made the file there).

use crate::rules::{AnyGame, Variant};

/// One labelled position.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    pub fen: String,
    /// The search's score, centipawns, White's team's point of view.
    pub score: i32,
    /// The game's result for White's team: 1.0, 0.5 or 0.0.
    pub result: f64,
}

impl Sample {
    /// The file's line for this sample.
    pub fn line(&self) -> String {
        format!("{} | {} | {:.1}", self.fen, self.score, self.result)
    }

    /// Reads one line (not a comment).
    pub fn parse(line: &str) -> Result<Sample, String> {
        // The 3D variants' FENs use '|' between levels: the last two fields are the numbers.
        let parts: Vec<&str> = line.rsplitn(3, '|').map(str::trim).collect();
        let [result, score, fen] = parts[..] else {
            return Err(format!("expected 'FEN | SCORE | RESULT', got '{line}'"));
        };
        let score = score
            .parse()
            .map_err(|_| format!("bad score '{score}' in '{line}'"))?;
        let result: f64 = result
            .parse()
            .map_err(|_| format!("bad result '{result}' in '{line}'"))?;
        if ![0.0, 0.5, 1.0].contains(&result) {
            return Err(format!("result must be 1.0, 0.5 or 0.0, got {result}"));
        }
        Ok(Sample {
            fen: fen.to_string(),
            score,
            result,
        })
    }
}

/// Reads a position file of `variant`: every sample, each position checked by the variant's
/// FEN reader. Errors name the line.
pub fn read(path: &str, variant: Variant) -> Result<DataFile, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let made_by = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("# "))
        .map(str::to_string);
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let sample = Sample::parse(line).map_err(|e| format!("{path}:{}: {e}", i + 1))?;
        let game = AnyGame::from_fen(variant, &sample.fen)
            .map_err(|e| format!("{path}:{}: {e}", i + 1))?;
        out.push((game, sample));
    }
    Ok(DataFile {
        made_by,
        samples: out,
    })
}

/// A position file as read.
pub struct DataFile {
    /// The command that made it (datagen writes it as the first line, a comment).
    pub made_by: Option<String>,
    /// Every position with its sample.
    pub samples: Vec<(AnyGame, Sample)>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip_and_bad_lines_are_refused() {
        let s = Sample {
            fen: "4k3/8/8/8/8/8/8/4K2R w K - 0 1".into(),
            score: -37,
            result: 0.5,
        };
        assert_eq!(Sample::parse(&s.line()), Ok(s));
        let level = Sample {
            fen: "bp2/k2p|2N1/1P2 w 4 5".into(),
            score: 12,
            result: 1.0,
        };
        assert_eq!(Sample::parse(&level.line()), Ok(level));
        assert!(Sample::parse("a | b").is_err());
        assert!(Sample::parse("fen | 12 | 0.7").is_err());
        assert!(Sample::parse("fen | x | 1.0").is_err());
    }
}
