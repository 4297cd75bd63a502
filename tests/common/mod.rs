//! Helpers shared by the integration tests: perft suite files and position invariants.
#![allow(dead_code)]

pub mod browser;
pub mod engine;
pub mod fuzz;

use std::path::{Path, PathBuf};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use strata::rules::perft::perft;
use strata::rules::{AnyGame, Game, MoveList, Variant};

/// Writes a shell script (a fake or filtered engine) to `path` and makes it executable.
pub fn write_script(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}

/// One position of a perft suite file.
#[derive(Clone, Debug)]
pub struct PerftCase {
    /// The `id` line.
    pub id: String,
    /// The FEN (`None` = the variant's start position).
    pub fen: Option<String>,
    /// Moves played from the FEN before counting.
    pub moves: Vec<String>,
    /// (depth, expected count, slow?) per `perft` line.
    pub expect: Vec<(u32, u64, bool)>,
    /// Line number of the `id` line.
    pub line: usize,
}

/// A perft suite: one variant, many positions.
#[derive(Clone, Debug)]
pub struct Suite {
    /// The variant (the `variant` line).
    pub variant: Variant,
    /// The positions.
    pub cases: Vec<PerftCase>,
}

/// The suite files under `tests/perft/`.
pub fn suite_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/perft");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/perft exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "perft"))
        .collect();
    files.sort();
    files
}

/// Reads a suite file.
///
/// Format (one directive per line, `#` starts a comment line):
/// `variant <name>` once at the top (after `variant-file <path>` for a variant defined in a
/// file); then per position `id <name>`, `fen <FEN>` or
/// `fen startpos`, optionally `moves <m1> <m2> ...`, and `perft <depth> <count> [slow]` lines.
/// `slow` lines run only in the ignored deep test.
pub fn load_suite(path: &Path) -> Suite {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut variant = None;
    let mut cases: Vec<PerftCase> = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        let at = || format!("{}:{}", path.display(), n + 1);
        match key {
            // A variant defined in a file: the file (relative to the repository) is loaded.
            "variant-file" => {
                let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(rest);
                strata::rules::defined::load_file(
                    &file.to_string_lossy(),
                    strata::eval::nnue::check_net,
                )
                .unwrap_or_else(|e| panic!("{}: {e}", at()));
            }
            "variant" => {
                variant = Some(
                    Variant::from_name(rest).unwrap_or_else(|| panic!("{}: unknown variant", at())),
                )
            }
            "id" => cases.push(PerftCase {
                id: rest.to_string(),
                fen: None,
                moves: vec![],
                expect: vec![],
                line: n + 1,
            }),
            "fen" => {
                let c = cases
                    .last_mut()
                    .unwrap_or_else(|| panic!("{}: fen before id", at()));
                c.fen = (rest != "startpos").then(|| rest.to_string());
            }
            "moves" => {
                let c = cases
                    .last_mut()
                    .unwrap_or_else(|| panic!("{}: moves before id", at()));
                c.moves = rest.split_whitespace().map(str::to_string).collect();
            }
            "perft" => {
                let c = cases
                    .last_mut()
                    .unwrap_or_else(|| panic!("{}: perft before id", at()));
                let f: Vec<&str> = rest.split_whitespace().collect();
                let depth = f
                    .first()
                    .and_then(|d| d.parse().ok())
                    .unwrap_or_else(|| panic!("{}: bad depth", at()));
                let count = f
                    .get(1)
                    .and_then(|d| d.parse().ok())
                    .unwrap_or_else(|| panic!("{}: bad count", at()));
                let slow = f.get(2) == Some(&"slow");
                c.expect.push((depth, count, slow));
            }
            other => panic!("{}: unknown directive '{other}'", at()),
        }
    }
    Suite {
        variant: variant.unwrap_or_else(|| panic!("{}: no 'variant' line", path.display())),
        cases,
    }
}

/// The position a case describes (FEN, then its moves).
pub fn case_position(variant: Variant, case: &PerftCase) -> AnyGame {
    let mut g = match &case.fen {
        Some(f) => AnyGame::from_fen(variant, f),
        None => Ok(AnyGame::startpos(variant)),
    }
    .unwrap_or_else(|e| panic!("case '{}' (line {}): {e}", case.id, case.line));
    for m in &case.moves {
        let mv = g
            .parse_move(m)
            .unwrap_or_else(|e| panic!("case '{}' (line {}): {e}", case.id, case.line));
        g.make(mv);
    }
    g
}

/// Runs every case of `path` (the slow lines too if `slow`); returns the failures.
/// For a case with moves, perft from the FEN the moves led to must give the same counts.
pub fn run_suite(path: &Path, slow: bool) -> Vec<String> {
    let suite = load_suite(path);
    let mut failures = Vec::new();
    for case in &suite.cases {
        let mut g = case_position(suite.variant, case);
        let mut from_fen = (!case.moves.is_empty()).then(|| {
            AnyGame::from_fen(suite.variant, &g.fen()).expect("the engine's own FEN reads back")
        });
        for &(depth, expected, is_slow) in &case.expect {
            if is_slow && !slow {
                continue;
            }
            let got = strata::with_game!(&mut g, p => perft(p, depth));
            if got != expected {
                failures.push(format!(
                    "{} '{}' (line {}): perft {depth} = {got}, expected {expected}",
                    suite.variant.name(),
                    case.id,
                    case.line
                ));
            }
            if let Some(f) = from_fen.as_mut()
                && !is_slow
            {
                let again = strata::with_game!(f, p => perft(p, depth));
                if again != got {
                    failures.push(format!(
                        "{} '{}': perft {depth} from the FEN after the moves = {again}, from the moves = {got}",
                        suite.variant.name(),
                        case.id
                    ));
                }
            }
        }
    }
    failures
}

/// Checks every invariant of one position: internal consistency, FEN round trip, key equal
/// to the key of the re-read FEN, move names unique and parsed back, `count_moves` equal to
/// the list, and make/unmake of every legal move restoring position and key exactly.
pub fn check_position(g: &mut AnyGame) {
    let variant = g.variant();
    let fen = g.fen();
    g.check_invariants()
        .unwrap_or_else(|e| panic!("{fen}: {e}"));
    match AnyGame::from_fen(variant, &fen) {
        Ok(mut back) => {
            back.set_chess960(g.chess960());
            assert_eq!(back.fen(), fen, "FEN round trip");
            assert_eq!(
                back.key(),
                g.key(),
                "{fen}: key differs from the key of the re-read FEN"
            );
            assert!(back == *g, "{fen}: re-read position differs");
        }
        // A finished game may have no valid FEN (Pentaplane: a FEN needs both Kings, and a
        // captured King ends the game); its FEN is for display only.
        Err(_) if g.decided().is_some() => {}
        Err(e) => panic!("{fen} does not read back: {e}"),
    }
    let mut list = MoveList::new();
    g.generate(&mut list);
    assert_eq!(
        g.count_moves(),
        list.len() as u64,
        "{fen}: count_moves differs from generate"
    );
    let mut names = std::collections::HashSet::new();
    let before = g.clone();
    let key = g.key();
    for &m in list.iter() {
        let name = g.move_name(m);
        assert!(names.insert(name.clone()), "{fen}: two moves named {name}");
        assert_eq!(
            g.parse_move(&name),
            Ok(m),
            "{fen}: {name} does not parse back"
        );
        assert!(g.is_move_syntax(&name), "{fen}: {name} is not move syntax");
        g.make(m);
        if let Err(e) = g.check_invariants() {
            panic!("{fen} after {name}: {e}");
        }
        g.unmake();
        assert_eq!(g.key(), key, "{fen}: key not restored after {name}");
        assert!(*g == before, "{fen}: position not restored after {name}");
    }
    if g.null_move_allowed() {
        g.make_null();
        g.check_invariants()
            .unwrap_or_else(|e| panic!("{fen} after a null move: {e}"));
        g.unmake_null();
        assert!(
            *g == before && g.key() == key,
            "{fen}: null move not undone"
        );
    }
}

/// Plays `games` random games of up to `plies` plies from `start`, checking
/// [`check_position`] and `extra` at every position. Returns the number of positions checked.
pub fn random_playouts(
    start: &AnyGame,
    seed: u64,
    games: usize,
    plies: usize,
    mut extra: impl FnMut(&mut AnyGame),
) -> usize {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut checked = 0;
    for _ in 0..games {
        let mut g = start.clone();
        for _ in 0..plies {
            check_position(&mut g);
            extra(&mut g);
            checked += 1;
            let mut list = MoveList::new();
            g.generate(&mut list);
            if list.is_empty() {
                break;
            }
            let m = list.as_slice()[rng.gen_range(0..list.len())];
            g.make(m);
        }
        // Unwinding the whole game must give back the start.
        while g.history_len() > start.history_len() {
            g.unmake();
        }
        assert!(
            g == *start,
            "unmaking a whole game did not restore the start"
        );
    }
    checked
}
