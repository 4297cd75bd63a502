//! `genfens`: distinct, legal, undecided starting positions for OpenBench's data-generation
//! workloads (its worker runs `engine "genfens N seed S book <None|PATH> <extra>" "quit"` and
//! reads `info string genfens <FEN>` lines: contrib/openbench/README.md).
//!
//! Each position is [`PLIES`] uniformly random plies from the variant's start position (with
//! Chess960 on, from one of the 960 picked at random), or [`BOOK_PLIES`] from a line of the
//! book (an EPD/FEN or PGN file of the variant, picked at
//! random), all drawn from one generator seeded by the seed: the same seed, variant and book
//! give the same positions. A position is kept when the game has not ended, the side to move
//! is not in check, a search of [`NODES`] nodes scores it within [`MAX_SCORE`] centipawns of
//! equality (not already decided) and no position kept before has its key.

use std::collections::HashSet;
use std::path::PathBuf;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::rules::{AnyGame, Game, MoveList, Variant};
use crate::runner::args::OpeningsConfig;
use crate::runner::openings::Openings;
use crate::search::{Limits, Settings, Shared, Silent, search, thread_pool};
use crate::with_game;

/// The most positions one `genfens` command asks for.
pub const MAX_COUNT: usize = 100_000;
/// Random plies from the start position.
pub const PLIES: usize = 8;
/// Random plies from a book's position.
pub const BOOK_PLIES: usize = 2;
/// Nodes of the search that checks a position.
pub const NODES: u64 = 1000;
/// The largest score (centipawns, either side) of a position kept.
pub const MAX_SCORE: i32 = 400;
/// Candidates drawn per position asked for (and 1000 more) before giving up: a book whose
/// every line is decided, or a variant with fewer distinct positions than asked for.
pub const TRIES_PER_POSITION: usize = 20;

/// Book positions kept once played out from their lines (a long line is replayed once, not
/// at every try that draws it).
const PLAYED_KEPT: usize = 4096;

/// What a `genfens` command asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// The number of positions, 1 ..= [`MAX_COUNT`].
    pub count: usize,
    /// The seed.
    pub seed: u64,
    /// The book, if any.
    pub book: Option<String>,
}

/// Generates the positions `req` asks for in `variant` (`chess960`: with Chess960 notation),
/// handing each FEN to `emit` as soon as it is found. Returns an error (after emitting what
/// it found) if the book cannot be read or too few positions could be found.
pub fn generate(
    variant: Variant,
    chess960: bool,
    req: &Request,
    emit: &mut dyn FnMut(&str),
) -> Result<(), String> {
    if !(1..=MAX_COUNT).contains(&req.count) {
        return Err(format!(
            "genfens: the count must be 1 to {MAX_COUNT}, not {}",
            req.count
        ));
    }
    // Without a book: the start position, or with Chess960 the 960 start positions.
    let cfg = OpeningsConfig {
        file: req.book.as_ref().map(PathBuf::from),
        pgn: req
            .book
            .as_ref()
            .is_some_and(|b| b.to_ascii_lowercase().ends_with(".pgn")),
        ..OpeningsConfig::default()
    };
    let starts =
        Openings::load(&cfg, variant, chess960, req.seed).map_err(|e| format!("genfens: {e}"))?;
    let plies = if req.book.is_some() {
        BOOK_PLIES
    } else {
        PLIES
    };
    let mut rng = StdRng::seed_from_u64(req.seed);
    let shared = Shared::new(1);
    let pool = thread_pool(1);
    let limits = Limits {
        nodes: Some(NODES),
        ..Limits::default()
    };
    let settings = Settings::default();
    let mut seen = HashSet::new();
    let mut list = MoveList::new();
    let most = req.count * TRIES_PER_POSITION + 1000;
    // Each book position is played out from its line once, however many tries draw it.
    let mut played: std::collections::HashMap<usize, AnyGame> = Default::default();
    for _ in 0..most {
        let index = rng.gen_range(0..starts.len());
        let mut g = match played.get(&index) {
            Some(g) => g.clone(),
            None => {
                let mut g = starts
                    .get(index)
                    .position(variant)
                    .map_err(|e| format!("genfens: {e}"))?;
                g.set_chess960(chess960);
                if played.len() < PLAYED_KEPT {
                    played.insert(index, g.clone());
                }
                g
            }
        };
        let mut ended = false;
        for _ in 0..plies {
            list.clear();
            g.generate(&mut list);
            if list.is_empty() || g.outcome().is_some() {
                ended = true;
                break;
            }
            g.make(list.as_slice()[rng.gen_range(0..list.len())]);
        }
        if ended || g.outcome().is_some() || g.in_check() || seen.contains(&g.key()) {
            continue;
        }
        shared.new_game();
        let found = with_game!(&g, p => search(p, &limits, &settings, &shared, &Silent, &pool));
        if found.best.is_none() || found.score.abs() > MAX_SCORE {
            continue;
        }
        seen.insert(g.key());
        emit(&g.fen());
        if seen.len() == req.count {
            return Ok(());
        }
    }
    Err(format!(
        "genfens: only {} distinct undecided positions found in {most} tries ({} asked for)",
        seen.len(),
        req.count
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::AnyGame;

    fn run(variant: Variant, req: &Request) -> Result<Vec<String>, String> {
        let mut out = Vec::new();
        generate(variant, false, req, &mut |f| out.push(f.to_string())).map(|()| out)
    }

    #[test]
    fn positions_are_distinct_legal_undecided_and_seeded() {
        for v in Variant::ALL {
            let req = Request {
                count: 4,
                seed: 17,
                book: None,
            };
            let fens = run(v, &req).unwrap();
            assert_eq!(fens.len(), 4, "{}", v.name());
            let keys: HashSet<u64> = fens
                .iter()
                .map(|f| {
                    let g = AnyGame::from_fen(v, f).unwrap();
                    assert!(g.outcome().is_none() && !g.in_check(), "{f}");
                    assert_eq!(g.history_len(), 0);
                    g.key()
                })
                .collect();
            assert_eq!(keys.len(), 4, "{}: {fens:?}", v.name());
            assert_eq!(run(v, &req).unwrap(), fens, "{}", v.name());
            let other = run(v, &Request { seed: 18, ..req }).unwrap();
            assert_ne!(other, fens, "{}", v.name());
        }
    }

    #[test]
    fn chess960_starts_from_random_start_positions() {
        let req = Request {
            count: 4,
            seed: 3,
            book: None,
        };
        let mut fens = Vec::new();
        generate(Variant::Chess, true, &req, &mut |f| {
            fens.push(f.to_string())
        })
        .unwrap();
        assert_eq!(fens.len(), 4);
        // Shredder-FEN castling files other than the classical H and A: a 960 start.
        let castling: Vec<&str> = fens.iter().map(|f| f.split(' ').nth(2).unwrap()).collect();
        assert!(
            castling
                .iter()
                .any(|c| c.chars().any(|x| !"HAha-".contains(x))),
            "{fens:?}"
        );
        for f in &fens {
            let mut g = AnyGame::from_fen(Variant::Chess, f).unwrap();
            g.set_chess960(true);
            assert_eq!(&g.fen(), f);
        }
    }

    #[test]
    fn a_book_is_played_from_and_bad_requests_are_refused() {
        let dir = std::env::temp_dir().join(format!("strata-genfens-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let book = dir.join("book.epd");
        let line = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
        std::fs::write(&book, format!("{line} hmvc 0; fmvn 2;\n")).unwrap();
        let req = Request {
            count: 5,
            seed: 1,
            book: Some(book.to_string_lossy().to_string()),
        };
        let fens = run(Variant::Chess, &req).unwrap();
        assert_eq!(fens.len(), 5);
        for f in &fens {
            // Two plies after the book's position: White to move at move 3, the e-pawns
            // (no piece can take them in two plies) still on e4 and e5.
            let fields: Vec<&str> = f.split_whitespace().collect();
            assert_eq!((fields[1], fields[5]), ("w", "3"), "{f}");
            let g = AnyGame::from_fen(Variant::Chess, f).unwrap();
            assert!(g.piece_at(28).is_some() && g.piece_at(36).is_some(), "{f}");
        }
        let e = run(Variant::Polyhedron, &req).unwrap_err();
        assert!(e.starts_with("genfens: "), "{e}");
        let e = run(
            Variant::Chess,
            &Request {
                book: Some(dir.join("missing.epd").to_string_lossy().to_string()),
                ..req.clone()
            },
        )
        .unwrap_err();
        assert!(e.contains("missing.epd"), "{e}");
        let e = run(
            Variant::Chess,
            &Request {
                count: 0,
                ..req.clone()
            },
        )
        .unwrap_err();
        assert!(e.contains("1 to 100000"), "{e}");
        let e = run(
            Variant::Chess,
            &Request {
                count: MAX_COUNT + 1,
                ..req
            },
        )
        .unwrap_err();
        assert!(e.contains("1 to 100000"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
