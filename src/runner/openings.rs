//! Openings: positions from a file (FEN/EPD lines or PGN games), and/or a number of random
//! plies from a seed. Each game pair gets the next opening; both games of a pair play it.

use std::path::Path;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use super::args::OpeningsConfig;
use super::pgn;
use crate::rules::chess::chess960_start_fen;
use crate::rules::{AnyGame, Game, MoveList, Variant};

/// The largest openings file read, in bytes (256 MiB: the largest books in use, such as
/// Stockfish's UHO sets, are a few MiB).
pub const MAX_OPENINGS_BYTES: usize = 256 << 20;

/// Where a game starts: a position and moves played from it before the engines take over.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Opening {
    /// The start FEN (`None` = the variant's start position).
    pub fen: Option<String>,
    /// Moves from there, in the variant's notation.
    pub moves: Vec<String>,
}

/// The openings of a match.
#[derive(Clone, Debug)]
pub struct Openings {
    variant: Variant,
    list: Vec<Opening>,
    random_plies: u32,
    seed: u64,
    description: String,
}

/// Reads a FEN or an EPD line (a FEN with trailing operations, or with fields left out).
fn read_fen_line(variant: Variant, line: &str) -> Result<AnyGame, String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let mut first_error = None;
    for n in (2..=fields.len()).rev() {
        match AnyGame::from_fen(variant, &fields[..n].join(" ")) {
            Ok(g) => return Ok(g),
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    Err(first_error.unwrap_or_else(|| "empty line".into()))
}

impl Openings {
    /// Loads the openings `cfg` describes for `variant`, checking every one with the rules.
    /// With `chess960` and no file, the openings are the 960 Chess960 start positions in an
    /// order drawn from `seed`.
    pub fn load(
        cfg: &OpeningsConfig,
        variant: Variant,
        chess960: bool,
        seed: u64,
    ) -> Result<Openings, String> {
        let mut list = Vec::new();
        let mut description = String::new();
        if let Some(path) = &cfg.file {
            // A regular file within MAX_OPENINGS_BYTES: never /dev/zero or a FIFO.
            let text = crate::files::read_regular(
                &path.to_string_lossy(),
                MAX_OPENINGS_BYTES,
                "an openings file",
            )
            .map_err(|e| format!("openings file '{}': {e}", path.display()))?;
            let at = |i: usize| format!("{}:{}", path.display(), i + 1);
            if cfg.pgn {
                for (i, g) in pgn::read_games(&text).into_iter().enumerate() {
                    let at = || format!("{} game {}", path.display(), i + 1);
                    // `Standard`, `Chess960` or no tag are chess, as lichess writes them.
                    if g.tag("Variant").is_some() && g.variant().ok() != Some(variant) {
                        return Err(format!(
                            "{}: variant '{}' is not {}",
                            at(),
                            g.tag("Variant").unwrap_or_default(),
                            variant.name()
                        ));
                    }
                    // In protocol notation from here on, whichever the file used (SAN, or
                    // the protocol's as older strata versions wrote).
                    let (_, mut moves) = g.replay_moves().map_err(|e| format!("{}: {e}", at()))?;
                    if let Some(p) = cfg.plies {
                        moves.truncate(p);
                    }
                    let o = Opening {
                        fen: g.tag("FEN").map(str::to_string),
                        moves,
                    };
                    o.position(variant)
                        .map_err(|e| format!("{} game {}: {e}", path.display(), i + 1))?;
                    list.push(o);
                }
            } else {
                for (i, line) in text.lines().enumerate() {
                    let line = line.trim();
                    if line.is_empty() || line.starts_with('#') {
                        continue;
                    }
                    let g = read_fen_line(variant, line).map_err(|e| format!("{}: {e}", at(i)))?;
                    list.push(Opening {
                        fen: Some(g.fen()),
                        moves: Vec::new(),
                    });
                }
            }
            if list.is_empty() {
                return Err(format!(
                    "openings file '{}' has no openings",
                    path.display()
                ));
            }
            if cfg.random_order {
                list.shuffle(&mut StdRng::seed_from_u64(seed));
            }
            let start = cfg.start % list.len();
            list.rotate_left(start);
            description = Path::new(path)
                .file_name()
                .map(|f| f.to_string_lossy().to_string())
                .unwrap_or_default();
        }
        if chess960 && list.is_empty() {
            list = (0..960)
                .map(|n| Opening {
                    fen: Some(chess960_start_fen(n)),
                    moves: Vec::new(),
                })
                .collect();
            list.shuffle(&mut StdRng::seed_from_u64(seed));
            description = "Chess960 start positions".into();
        }
        if cfg.random_plies > 0 {
            if !description.is_empty() {
                description.push_str(" + ");
            }
            description.push_str(&format!("random-plies={}", cfg.random_plies));
        }
        if list.is_empty() {
            list.push(Opening::default());
        }
        Ok(Openings {
            variant,
            list,
            random_plies: cfg.random_plies,
            seed,
            description,
        })
    }

    /// The number of openings in the list (the file's, or one: the start position).
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether the list is empty (never: without a file it holds the start position).
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// A short description for the results header (empty for the start position).
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The opening of round `round` (0-based): the list in order (cycling), then the random
    /// plies drawn from a generator seeded by the seed and the round, so that a round's
    /// opening does not depend on which thread plays it.
    pub fn get(&self, round: usize) -> Opening {
        let mut o = self.list[round % self.list.len()].clone();
        if self.random_plies == 0 {
            return o;
        }
        let base = o
            .position(self.variant)
            .expect("openings are checked when loaded");
        let mut rng = StdRng::seed_from_u64(
            self.seed ^ (round as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15),
        );
        // A random line that ends the game early is drawn again (a few times at most).
        let mut best: Vec<String> = Vec::new();
        for _ in 0..100 {
            let mut g = base.clone();
            let mut line = Vec::new();
            let mut list = MoveList::new();
            while line.len() < self.random_plies as usize {
                list.clear();
                g.generate(&mut list);
                if list.is_empty() || g.outcome().is_some() {
                    break;
                }
                let m = list.as_slice()[rng.gen_range(0..list.len())];
                line.push(g.move_name(m));
                g.make(m);
            }
            let complete = line.len() == self.random_plies as usize && g.outcome().is_none();
            if line.len() > best.len() || complete {
                best = line;
            }
            if complete {
                break;
            }
        }
        o.moves.extend(best);
        o
    }
}

impl Opening {
    /// The position after the opening.
    pub fn position(&self, variant: Variant) -> Result<AnyGame, String> {
        let mut g = match &self.fen {
            Some(f) => AnyGame::from_fen(variant, f)?,
            None => AnyGame::startpos(variant),
        };
        for m in &self.moves {
            let mv = g.parse_move(m).map_err(|e| e.to_string())?;
            g.make(mv);
        }
        Ok(g)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_openings_are_legal_and_reproducible() {
        let cfg = OpeningsConfig {
            random_plies: 8,
            ..OpeningsConfig::default()
        };
        for v in Variant::ALL {
            let a = Openings::load(&cfg, v, false, 42).unwrap();
            let b = Openings::load(&cfg, v, false, 42).unwrap();
            for r in 0..5 {
                let o = a.get(r);
                assert_eq!(o, b.get(r));
                assert_eq!(o.moves.len(), 8);
                let g = o.position(v).unwrap();
                assert!(g.outcome().is_none());
            }
            assert_ne!(a.get(0), a.get(1));
        }
    }

    #[test]
    fn epd_lines_lose_their_operations() {
        let g = read_fen_line(
            Variant::Chess,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5; id \"x\";",
        )
        .unwrap();
        assert_eq!(
            g.fen(),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        );
        assert!(read_fen_line(Variant::Chess, "nonsense here").is_err());
    }
}
