//! Raumschach from a variant file (`variants/raumschach.toml`): a second, independent move
//! generator written from the rules file alone (`docs/variants/raumschach.md`), and the
//! tests that hold the file-defined variant to it. The reference (`raumschach_reference/`)
//! knows nothing of the engine.

mod common;
mod raumschach_reference;

use std::collections::BTreeSet;
use std::path::Path;

use raumschach_reference::Pos;
use strata::rules::perft::perft;
use strata::rules::{AnyGame, Game, MoveList, Variant};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn raumschach() -> Variant {
    strata::rules::defined::load_file(
        &root().join("variants/raumschach.toml").to_string_lossy(),
        strata::eval::nnue::check_net,
    )
    .expect("variants/raumschach.toml loads")[0]
}

fn names(g: &AnyGame) -> BTreeSet<String> {
    let mut list = MoveList::new();
    g.generate(&mut list);
    list.iter().map(|&m| g.move_name(m)).collect()
}

/// Every count of the suite file up to `budget` leaves equals the reference's perft of the
/// same position.
fn suite_against_reference(budget: u64) {
    let suite = common::load_suite(&root().join("tests/perft/raumschach.perft"));
    let v = suite.variant;
    assert_eq!(v.name(), "raumschach");
    let mut checked = 0;
    for case in &suite.cases {
        let g = common::case_position(v, case);
        let mut p = Pos::from_fen(&g.fen());
        // The case's moves, once more through the reference, must lead to the same FEN.
        if case.moves.is_empty() {
            assert_eq!(names(&g), p.legal().iter().map(|m| m.name()).collect());
        } else {
            let start = AnyGame::from_fen(v, case.fen.as_deref().unwrap_or(v.start_fen())).unwrap();
            p = Pos::from_fen(&start.fen());
            for m in &case.moves {
                p = p.play_name(m);
            }
        }
        for &(depth, expected, _) in &case.expect {
            if expected > budget {
                continue;
            }
            assert_eq!(p.perft(depth), expected, "{} perft {depth}", case.id);
            checked += 1;
        }
    }
    assert!(checked >= 10, "only {checked} counts checked");
}

#[test]
fn suite_numbers_equal_reference_perft() {
    suite_against_reference(400_000);
}

#[test]
#[ignore = "slow: the reference confirms every count of the suite up to 20 million leaves"]
fn all_suite_numbers_equal_reference_perft() {
    suite_against_reference(20_000_000);
}

/// Random games: in every position on the way, the file-defined variant's legal moves are
/// exactly the reference's, and its invariants hold.
#[test]
fn random_games_agree_with_the_reference_move_for_move() {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    let v = raumschach();
    let mut rng = StdRng::seed_from_u64(1907);
    let mut positions = 0;
    for _ in 0..12 {
        let mut g = AnyGame::startpos(v);
        for _ in 0..120 {
            let p = Pos::from_fen(&g.fen());
            let ours = names(&g);
            let theirs: BTreeSet<String> = p.legal().iter().map(|m| m.name()).collect();
            assert_eq!(ours, theirs, "{}", g.fen());
            common::check_position(&mut g);
            positions += 1;
            let mut list = MoveList::new();
            g.generate(&mut list);
            if list.is_empty() || g.outcome().is_some() {
                break;
            }
            let m = list.as_slice()[rng.gen_range(0..list.len())];
            g.make(m);
        }
    }
    assert!(positions > 500, "{positions}");
}

/// The rules file's own reference counts from the start position, depth 1-3 (4 is in the
/// suite's slow lines).
#[test]
fn start_counts_are_the_rules_files() {
    let v = raumschach();
    let mut g = AnyGame::startpos(v);
    let got: Vec<u64> = (1..=3)
        .map(|d| strata::with_game!(&mut g, p => perft(p, d)))
        .collect();
    assert_eq!(got, [61, 3615, 237316]);
    assert_eq!(
        Pos::from_fen(v.start_fen()).perft(2),
        3615,
        "the reference agrees"
    );
}
