//! The position file of `strata datagen` and `strata tune`: one position per line,
//! `FEN | SCORE | RESULT`, where SCORE is the search's score in centipawns and RESULT the
//! game's result (1.0 a win, 0.5 a draw, 0.0 a loss), both for White's team (the FEN may
//! itself contain `|`: the last two fields are the numbers). Lines starting
//! with `#` are comments (datagen writes the command that made the file there), and a line
//! `# game N` starts the positions of game N, so that a fit can hold out whole games.

use crate::rules::{AnyGame, Game, Variant};

/// The longest line of a text data file, bytes (a FEN of a 320-cell board is under 2 KiB).
pub const MAX_TEXT_LINE: usize = 64 * 1024;

/// The lines of a text data file opened at `path` (a regular file only), as
/// [`for_each_line_in`]; errors name the file.
pub fn for_each_line(
    path: &str,
    each: &mut dyn FnMut(usize, &str) -> Result<(), String>,
) -> Result<(), String> {
    let file = crate::files::open_regular(path).map_err(|e| format!("{path}: {e}"))?;
    let mut input = std::io::BufReader::with_capacity(1 << 20, file);
    for_each_line_in(&mut input, &format!("{path}:"), each)
}

/// The lines of text data read from `input`, each at most [`MAX_TEXT_LINE`] bytes, handed
/// to `each` with their numbers (from 1); a longer line, or one not UTF-8, or a failed read,
/// is an error naming its line after `at` (`PATH:` or nothing: `at` + `N: ...`). The errors
/// of `each` are passed on as they are.
pub fn for_each_line_in(
    input: &mut dyn std::io::BufRead,
    at: &str,
    each: &mut dyn FnMut(usize, &str) -> Result<(), String>,
) -> Result<(), String> {
    use std::io::{BufRead, Read};
    let mut buf = Vec::new();
    let mut n = 0;
    loop {
        buf.clear();
        let read = input
            .take(MAX_TEXT_LINE as u64 + 1)
            .read_until(b'\n', &mut buf)
            .map_err(|e| format!("{at}{}: {e}", n + 1))?;
        if read == 0 {
            return Ok(());
        }
        n += 1;
        if buf.len() > MAX_TEXT_LINE {
            return Err(format!(
                "{at}{n}: a line longer than {MAX_TEXT_LINE} bytes (is this a data file?)"
            ));
        }
        let line = std::str::from_utf8(&buf)
            .map_err(|_| format!("{at}{n}: not UTF-8 text (is this a data file?)"))?;
        each(n, line)?;
    }
}

/// The start of a comment line that begins a game's positions: `# game N`.
pub const GAME_MARK: &str = "# game ";

/// One labelled position.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The position.
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
            return Err(format!(
                "expected 'FEN | SCORE | RESULT', got '{}'",
                crate::text::echo(line, 120)
            ));
        };
        let score = score
            .parse()
            .map_err(|_| format!("bad score '{}'", crate::text::echo(score, 40)))?;
        let result: f64 = result
            .parse()
            .map_err(|_| format!("bad result '{}'", crate::text::echo(result, 40)))?;
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
    let mut made_by = None;
    let mut out = Vec::new();
    let mut games = Vec::new();
    // Without game marks, every position is a game of its own.
    let mut game: Option<usize> = None;
    for_each_line(path, &mut |n, line| {
        if n == 1 {
            made_by = line.trim().strip_prefix("# ").map(str::to_string);
        }
        let line = line.trim();
        if let Some(g) = line.strip_prefix(GAME_MARK) {
            let g = g.trim().parse().map_err(|_| {
                format!(
                    "{path}:{n}: bad game number in '{}'",
                    crate::text::echo(line, 80)
                )
            })?;
            game = Some(g);
            return Ok(());
        }
        if line.is_empty() || line.starts_with('#') {
            return Ok(());
        }
        let sample = Sample::parse(line).map_err(|e| format!("{path}:{n}: {e}"))?;
        let position =
            AnyGame::from_fen(variant, &sample.fen).map_err(|e| format!("{path}:{n}: {e}"))?;
        out.push((position, sample));
        games.push(game.unwrap_or(out.len()));
        Ok(())
    })?;
    Ok(DataFile {
        made_by,
        samples: out,
        games,
    })
}

/// Reads a file of ordered pairs of `variant`: lines `BETTER_FEN > WORSE_FEN`, the first
/// position to evaluate above the second (for White's team: give both the same side to
/// move); `#` starts a comment line. Errors name the line.
pub fn read_order(path: &str, variant: Variant) -> Result<Vec<(AnyGame, AnyGame)>, String> {
    let mut pairs = Vec::new();
    for_each_line(path, &mut |n, line| {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return Ok(());
        }
        let at = |e: String| format!("{path}:{n}: {e}");
        let (better, worse) = line.split_once('>').ok_or_else(|| {
            at(format!(
                "expected 'BETTER_FEN > WORSE_FEN', got '{}'",
                crate::text::echo(line, 120)
            ))
        })?;
        let better = AnyGame::from_fen(variant, better.trim()).map_err(at)?;
        let worse = AnyGame::from_fen(variant, worse.trim()).map_err(at)?;
        if better.side_to_move() != worse.side_to_move() {
            return Err(at("the two positions have different sides to move".into()));
        }
        pairs.push((better, worse));
        Ok(())
    })?;
    Ok(pairs)
}

/// A position file as read.
pub struct DataFile {
    /// The command that made it (datagen writes it as the first line, a comment).
    pub made_by: Option<String>,
    /// Every position with its sample.
    pub samples: Vec<(AnyGame, Sample)>,
    /// The game of each sample: its `# game N` number, or the sample's own number (from 1)
    /// in a file without game marks.
    pub games: Vec<usize>,
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

    #[test]
    fn game_marks_number_the_positions_games() {
        let fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";
        let path = std::env::temp_dir().join(format!("strata-data-{}.txt", std::process::id()));
        let text = format!(
            "# strata datagen ...\n# game 7\n{fen} | 5 | 1.0\n{fen} | 9 | 1.0\n# game 8\n{fen} | 0 | 0.5\n"
        );
        std::fs::write(&path, text).unwrap();
        let file = read(path.to_str().unwrap(), Variant::Chess).unwrap();
        assert_eq!(file.made_by.as_deref(), Some("strata datagen ..."));
        assert_eq!(file.games, [7, 7, 8]);
        std::fs::write(&path, format!("{fen} | 5 | 1.0\n{fen} | 0 | 0.5\n")).unwrap();
        assert_eq!(
            read(path.to_str().unwrap(), Variant::Chess).unwrap().games,
            [1, 2]
        );
        std::fs::write(&path, format!("# game x\n{fen} | 5 | 1.0\n")).unwrap();
        let err = read(path.to_str().unwrap(), Variant::Chess).err().unwrap();
        assert!(err.contains(":1: bad game number"), "{err}");
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn ordered_pairs_read_and_bad_lines_name_their_line() {
        let path = std::env::temp_dir().join(format!("strata-order-{}.txt", std::process::id()));
        let path_str = path.to_str().unwrap();
        let queen = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1";
        let pawn = "4k3/8/8/8/8/8/3P4/4K3 w - - 0 1";
        std::fs::write(&path, format!("# a comment\n\n{queen} > {pawn}\n")).unwrap();
        let pairs = read_order(path_str, Variant::Chess).unwrap();
        assert_eq!(pairs.len(), 1);
        assert_eq!(
            pairs[0].0,
            AnyGame::from_fen(Variant::Chess, queen).unwrap()
        );
        let bad = |text: String| {
            std::fs::write(&path, text).unwrap();
            read_order(path_str, Variant::Chess).err().unwrap()
        };
        let e = bad(format!("#\n{queen} {pawn}\n"));
        assert!(e.contains(":2: expected 'BETTER_FEN > WORSE_FEN'"), "{e}");
        let e = bad(format!("{queen} > 4k3/8/8/8/8/8/3P4/4K3 b - - 0 1\n"));
        assert!(
            e.contains(":1: the two positions have different sides to move"),
            "{e}"
        );
        let e = bad(format!("{queen} > not a fen\n"));
        assert!(e.starts_with(&format!("{path_str}:1: ")), "{e}");
        std::fs::remove_file(&path).unwrap();
    }
}
