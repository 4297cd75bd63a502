//! Chess – The Future Generation: the engine checked against a second move generator
//! (`future_reference/`) written from `docs/variants/future-generation.md` alone, which
//! shares no table and no code with the engine; the two meet only through FEN strings and
//! move names.

mod common;
mod future_reference;

use std::collections::BTreeSet;
use std::path::Path;

use future_reference::Pos;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use strata::rules::future::START_FEN;
use strata::rules::perft::perft;
use strata::rules::{AnyGame, Game, GameEnd, MoveList, Variant};

fn engine(fen: &str) -> AnyGame {
    AnyGame::from_fen(Variant::FutureGeneration, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn engine_names(g: &AnyGame) -> BTreeSet<String> {
    let mut list = MoveList::new();
    g.generate(&mut list);
    list.iter().map(|&m| g.move_name(m)).collect()
}

fn reference_names(p: &Pos) -> BTreeSet<String> {
    p.moves().iter().map(|m| m.name()).collect()
}

fn suite_path() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/perft/future-generation.perft")
}

/// Positions of the suite file (after their moves), for the engine and the reference.
fn suite_positions() -> Vec<(String, AnyGame, Pos)> {
    let suite = common::load_suite(&suite_path());
    suite
        .cases
        .iter()
        .map(|case| {
            let g = common::case_position(suite.variant, case);
            let mut r = match &case.fen {
                Some(f) => Pos::from_fen(f),
                None => Pos::start(),
            };
            for m in &case.moves {
                r = r.play_name(m);
            }
            (case.id.clone(), g, r)
        })
        .collect()
}

#[test]
fn reference_start_position_is_the_engine_start_fen() {
    let r = Pos::start();
    let from_fen = Pos::from_fen(START_FEN);
    assert_eq!(format!("{:?}", r.board), format!("{:?}", from_fen.board));
    assert_eq!(r.castling, from_fen.castling);
    assert_eq!(reference_names(&r), engine_names(&engine(START_FEN)));
    assert_eq!(r.perft(2), 5184);
}

/// Every expected count of the suite file (fast lines, up to a node budget for this slow
/// reference) equals the reference perft.
#[test]
fn suite_counts_match_the_reference() {
    let suite = common::load_suite(&suite_path());
    let positions = suite_positions();
    let mut checked = 0;
    for (case, (id, g, r)) in suite.cases.iter().zip(positions) {
        assert_eq!(
            reference_names(&r),
            engine_names(&g),
            "{id}: move names differ"
        );
        for &(depth, expected, slow) in &case.expect {
            if slow || expected > 1_500_000 {
                continue;
            }
            assert_eq!(r.perft(depth), expected, "{id}: reference perft {depth}");
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} counts checked");
}

/// The reference agrees with the whole suite, deep lines included (several minutes: the
/// start position's perft 5 has two billion leaves).
#[test]
#[ignore = "slow reference perft: run with --ignored"]
fn suite_counts_match_the_reference_deep() {
    let suite = common::load_suite(&suite_path());
    for (case, (id, _, r)) in suite.cases.iter().zip(suite_positions()) {
        for &(depth, expected, _) in &case.expect {
            assert_eq!(r.perft(depth), expected, "{id}: reference perft {depth}");
        }
    }
}

/// The state the reference keeps, as text (the en passant right is left out: the engine
/// keeps it only when usable, which the move lists compare).
fn reference_state(p: &Pos) -> String {
    format!(
        "{:?} side {} castling {:?} unlocked {:?} eliminated {:?}",
        p.board, p.side, p.castling, p.unlocked, p.eliminated
    )
}

/// Engine and reference agree along seeded random games from the start and from every suite
/// position: on the legal moves, on perft 2 now and then, and on the state after each move
/// (the reference plays the same move in its own copy, so its own unlocking, elimination,
/// crowning and castling-right rules are compared, not just read back from the engine's FEN).
#[test]
fn engine_and_reference_agree_on_random_playouts() {
    let mut rng = StdRng::seed_from_u64(0xF07E);
    let mut starts: Vec<(AnyGame, Pos)> = suite_positions()
        .into_iter()
        .map(|(_, g, r)| (g, r))
        .collect();
    starts.push((engine(START_FEN), Pos::start()));
    let mut positions = 0;
    for (start, start_ref) in &starts {
        for _ in 0..4 {
            let mut g = start.clone();
            let mut r = start_ref.clone();
            for ply in 0..150 {
                let fen = g.fen();
                assert_eq!(
                    reference_state(&r),
                    reference_state(&Pos::from_fen(&fen)),
                    "{fen}: state differs"
                );
                let names = engine_names(&g);
                assert_eq!(reference_names(&r), names, "{fen}: move names differ");
                if ply % 8 == 0 {
                    let e = strata::with_game!(&mut g, p => perft(p, 2));
                    assert_eq!(r.perft(2), e, "{fen}: perft 2 differs");
                }
                positions += 1;
                let mut list = MoveList::new();
                g.generate(&mut list);
                if list.is_empty() {
                    assert!(r.lost(), "{fen}: only the engine sees the game as over");
                    break;
                }
                // Prefer captures now and then, so that Kings fall and colours are eliminated.
                let captures: Vec<_> = list
                    .iter()
                    .copied()
                    .filter(|&m| g.captured_piece(m).is_some())
                    .collect();
                let m = if !captures.is_empty() && rng.gen_bool(0.5) {
                    captures[rng.gen_range(0..captures.len())]
                } else {
                    list.as_slice()[rng.gen_range(0..list.len())]
                };
                r = r.play_name(&g.move_name(m));
                g.make(m);
            }
        }
    }
    assert!(positions > 2000);
}

/// Make/unmake, keys, FEN round trip and legal = generated along random games.
#[test]
fn invariants_hold_along_random_playouts() {
    let mut n = 0;
    for (i, (_, g, _)) in suite_positions().into_iter().enumerate() {
        n += common::random_playouts(&g, 7 + i as u64, 2, 60, |_| {});
    }
    n += common::random_playouts(&engine(START_FEN), 1, 3, 200, |_| {});
    assert!(n > 500);
}

/// Garbage FENs give errors, never panics; whatever parses is consistent.
#[test]
fn fen_reading_never_panics() {
    let mut rng = StdRng::seed_from_u64(99);
    let alphabet: Vec<char> = "wbgsKQRBNCPkx0123456789/|- AaBbCcDdEeHh\u{e9}"
        .chars()
        .collect();
    let seeds: Vec<String> = suite_positions()
        .into_iter()
        .map(|(_, g, _)| g.fen())
        .chain([START_FEN.to_string()])
        .collect();
    for i in 0..3000 {
        let mut s: Vec<char> = seeds[i % seeds.len()].chars().collect();
        for _ in 0..rng.gen_range(1..4) {
            let at = rng.gen_range(0..=s.len());
            match rng.gen_range(0..3) {
                0 if at < s.len() => {
                    s.remove(at);
                }
                1 if at < s.len() => s[at] = alphabet[rng.gen_range(0..alphabet.len())],
                _ => s.insert(at, alphabet[rng.gen_range(0..alphabet.len())]),
            }
        }
        let text: String = s.into_iter().collect();
        if let Ok(mut g) = AnyGame::from_fen(Variant::FutureGeneration, &text) {
            common::check_position(&mut g);
        }
    }
    for bad in ["", "w", "8/8 w", "|||", "x x x x x x x x x", "\u{e9}\u{e9}"] {
        assert!(AnyGame::from_fen(Variant::FutureGeneration, bad).is_err());
    }
}

// ---------------------------------------------------------------------------------------
// The rules file's own examples and rulings, one by one.
// ---------------------------------------------------------------------------------------

/// A FEN from a list of `token:cell` pairs (`wK:Ae1`), the other fields given as text.
fn fen_of(pieces: &str, rest: &str) -> String {
    let mut board = [[[""; 8]; 8]; 4];
    for item in pieces.split_whitespace() {
        let (token, cell) = item.split_once(':').expect("token:cell");
        let b = cell.as_bytes();
        let (z, x, y) = (
            (b[0] - b'A') as usize,
            (b[1] - b'a') as usize,
            (b[2] - b'1') as usize,
        );
        board[z][y][x] = token;
    }
    let levels: Vec<String> = board
        .iter()
        .map(|level| {
            let ranks: Vec<String> = (0..8)
                .rev()
                .map(|y| {
                    let mut s = String::new();
                    let mut empty = 0;
                    for token in level[y] {
                        if token.is_empty() {
                            empty += 1;
                        } else {
                            if empty > 0 {
                                s += &empty.to_string();
                                empty = 0;
                            }
                            s += token;
                        }
                    }
                    if empty > 0 {
                        s += &empty.to_string();
                    }
                    s
                })
                .collect();
            ranks.join("/")
        })
        .collect();
    format!("{} {rest}", levels.join("|"))
}

/// The four Kings out of everybody's way, for positions about one piece.
const KINGS: &str = "wK:Ah1 bK:Ah8 gK:Dh8 sK:Da8";

fn names_from(g: &AnyGame, from: &str) -> BTreeSet<String> {
    engine_names(g)
        .into_iter()
        .filter(|n| n.starts_with(from))
        .map(|n| n[from.len()..].to_string())
        .collect()
}

fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|s| s.to_string()).collect()
}

fn play(g: &mut AnyGame, moves: &[&str]) {
    for m in moves {
        let mv = g.parse_move(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        g.make(mv);
    }
}

#[test]
fn start_position_has_72_moves_for_each_colour() {
    let mut g = engine(START_FEN);
    for colour in ["w", "b", "g", "s"] {
        assert_eq!(g.count_moves(), 72, "{colour}");
        assert!(g.fen().contains(&format!(" {colour} ")));
        let first = engine_names(&g).into_iter().next().expect("a move");
        play(&mut g, &[&first]);
    }
    let fen = g.fen();
    assert!(fen.contains(" w ") && fen.ends_with(" 2"), "{fen}");
    let names = engine_names(&engine(START_FEN));
    for n in [
        "Ae2Ae4", "Ae2Be4", "Ae2Ae3", "Ae2Be3", "Ae2Be2", "Ab1Bb3", "Ab1Bd1", "Aa1Ba1",
    ] {
        assert!(names.contains(n), "{n}");
    }
    assert!(
        !names.contains("Aa1Ca1"),
        "locked: the Rook stops at the gate level"
    );
}

#[test]
fn move_numbers_count_rounds_and_the_clock_counts_plies() {
    let mut g = engine(START_FEN);
    play(&mut g, &["Ab1Ac3", "Ab8Ac6", "Dh2Df3", "Da2Dc3"]);
    assert!(
        g.fen().ends_with(" w wKQbKQgKQsKQ - - - 4 2"),
        "{}",
        g.fen()
    );
    play(&mut g, &["Ae2Ae3"]);
    assert!(g.fen().ends_with(" 0 2"), "a pawn move resets the clock");
}

#[test]
fn knight_leaps_one_level_and_two_cells() {
    // "the Knight one level and two squares orthogonally (Ab1 -> Bb3 or Bd1)"; ruling 3:
    // from Aa1 it reaches Bc1 and Ba3.
    let g = engine(&fen_of(&format!("{KINGS} wN:Ab1 wN:Aa1"), "w - - - - 0 1"));
    assert_eq!(
        names_from(&g, "Ab1"),
        set(&["Ad2", "Ac3", "Aa3", "Bb3", "Bd1"])
    );
    assert_eq!(names_from(&g, "Aa1"), set(&["Ab3", "Ac2", "Bc1", "Ba3"]));
}

#[test]
fn crowned_knight_leaps_two_levels_once_unlocked() {
    let pieces = format!("{KINGS} wC:Ad4");
    let locked = engine(&fen_of(&pieces, "w - - - - 0 1"));
    let unlocked = engine(&fen_of(&pieces, "w - - w - 0 1"));
    let two_levels = set(&["Cd5", "Cd3", "Cc4", "Ce4"]);
    let l = names_from(&locked, "Ad4");
    let u = names_from(&unlocked, "Ad4");
    assert!(l.is_disjoint(&two_levels), "locked: no leap onto level C");
    assert!(two_levels.is_subset(&u));
    // 8 in-level leaps + 4 one level down (two cells) + 4 two levels down (one cell).
    assert_eq!(u.len(), 16);
}

#[test]
fn king_bishop_rook_and_queen_between_levels() {
    let rest = "w - - w - 0 1";
    let king = engine(&fen_of("wK:Bd4 bK:Ah8 gK:Dh8 sK:Da8", rest));
    assert_eq!(names_from(&king, "Bd4").len(), 26);
    // The Bishop steps to the 8 cells around the cell above or below; no vertical step.
    let bishop = engine(&fen_of(&format!("{KINGS} wB:Bd4"), rest));
    let b = names_from(&bishop, "Bd4");
    assert_eq!(b.iter().filter(|n| !n.starts_with('B')).count(), 16);
    assert!(!b.contains("Ad4") && !b.contains("Cd4") && b.contains("Ce5"));
    assert!(
        !b.contains("Df6"),
        "the step between levels is a single step"
    );
    // The Rook slides straight up or down through any number of levels.
    let rook = engine(&fen_of(&format!("{KINGS} wR:Ad4"), rest));
    let r = names_from(&rook, "Ad4");
    assert!(r.contains("Bd4") && r.contains("Cd4") && r.contains("Dd4"));
    assert!(!r.contains("Be5"));
    // The Queen: the 9 cells of the adjacent level, and further straight down.
    let queen = engine(&fen_of(&format!("{KINGS} wQ:Ad4"), rest));
    let q = names_from(&queen, "Ad4");
    assert_eq!(q.iter().filter(|n| n.starts_with('B')).count(), 9);
    assert_eq!(q.iter().filter(|n| n.starts_with('C')).count(), 1);
    assert_eq!(q.iter().filter(|n| n.starts_with('D')).count(), 1);
}

#[test]
fn the_rook_slide_stops_before_a_locked_level() {
    let pieces = format!("{KINGS} wR:Ad4 gR:Ce5");
    let g = engine(&fen_of(&pieces, "w - - - - 0 1"));
    let r = names_from(&g, "Ad4");
    assert!(r.contains("Bd4") && !r.contains("Cd4") && !r.contains("Dd4"));
    let mut g = engine(&fen_of(&pieces, "g - - - - 0 1"));
    let r = names_from(&g, "Ce5");
    assert!(r.contains("De5") && !r.contains("Be5") && !r.contains("Ae5"));
    // Gold unlocked: up through B to A.
    g = engine(&fen_of(&pieces, "g - - g - 0 1"));
    assert!(names_from(&g, "Ce5").contains("Ae5"));
}

#[test]
fn four_pieces_on_the_gate_level_unlock_for_good() {
    let fen = fen_of(
        "wK:Ae1 wR:Aa1 wP:Bc3 wP:Bd3 wN:Bf3 bK:Ae8 gK:Dh4 sK:Da4",
        "w - - - - 0 1",
    );
    let mut g = engine(&fen);
    // The fourth piece's own move is judged locked: the Rook cannot go past B.
    assert!(!names_from(&g, "Aa1").contains("Ca1"));
    play(&mut g, &["Aa1Ba1"]);
    assert!(g.fen().contains(" w - "), "{}", g.fen());
    play(&mut g, &["Ae8Ad8", "Dh4Dg4", "Da4Db4"]);
    assert!(names_from(&g, "Ba1").contains("Da1"));
    // Leaving the gate level does not lock White again.
    play(&mut g, &["Ba1Da1", "Ad8Ae8", "Dg4Dh4", "Db4Da4"]);
    assert!(g.fen().contains(" w - "), "{}", g.fen());
    assert!(names_from(&g, "Da1").contains("Ca1"));
}

#[test]
fn double_step_belongs_to_the_cell_and_checks_the_cell_passed_over() {
    // Ruling 11: for Aa2 -> Ba4 only Ba3 must be empty (Aa3 may be occupied).
    let blocked_a3 = engine(&fen_of(&format!("{KINGS} wP:Aa2 wN:Aa3"), "w - - - - 0 1"));
    let p = names_from(&blocked_a3, "Aa2");
    assert!(p.contains("Ba4") && !p.contains("Aa4"));
    let blocked_b3 = engine(&fen_of(&format!("{KINGS} wP:Aa2 wN:Ba3"), "w - - - - 0 1"));
    let p = names_from(&blocked_b3, "Aa2");
    assert!(!p.contains("Ba4") && p.contains("Aa4"));
    // A pawn that stepped down and back up double-steps again.
    let mut g = engine(&fen_of(&format!("{KINGS} wP:Aa2"), "w - - - - 0 1"));
    play(
        &mut g,
        &[
            "Aa2Ba2", "Ah8Ag8", "Dh8Dg8", "Da8Db8", "Ba2Aa2", "Ag8Ah8", "Dg8Dh8", "Db8Da8",
        ],
    );
    assert!(names_from(&g, "Aa2").contains("Ba4"));
    // Not from any other cell.
    let g = engine(&fen_of(&format!("{KINGS} wP:Ba2"), "w - - - - 0 1"));
    assert!(!names_from(&g, "Ba2").contains("Ba4"));
}

#[test]
fn dimensional_en_passant_of_the_seed_example() {
    // White pawn Ab5, Black plays Aa7-Ba5, White takes Ab5xBa6 (Gold and Silver eliminated,
    // so that White moves after Black as in the two-player original).
    let mut g = engine(&fen_of("wK:Ae1 wP:Ab5 bK:Ae8 bP:Aa7", "b - - - gs 0 1"));
    play(&mut g, &["Aa7Ba5"]);
    assert!(g.fen().contains(" Ba6 "), "{}", g.fen());
    let mv = g.parse_move("Ab5Ba6").expect("en passant");
    let victim = g.captured_piece(mv);
    assert!(victim.is_some() && victim.kind() == 0 && victim.colour().0 == 1);
    assert!(g.is_tactical(mv));
    g.make(mv);
    assert!(
        !g.fen().contains("bP"),
        "the pawn that double-stepped is gone"
    );
    g.check_invariants().expect("consistent");
}

#[test]
fn en_passant_belongs_to_the_next_colour_only() {
    let fen = fen_of(
        "wK:Ae1 wP:Ae2 bK:Ae8 bP:Ad4 gK:Dh4 sK:Da4 sP:Bd2",
        "w - - s - 0 1",
    );
    let mut g = engine(&fen);
    play(&mut g, &["Ae2Be4"]);
    assert!(names_from(&g, "Ad4").contains("Be3"));
    play(&mut g, &["Ae8Ad8", "Dh4Dg4"]);
    assert!(!names_from(&g, "Bd2").contains("Be3"), "Silver is not next");
    // With Black eliminated Gold is next: White's partner, so nobody (ruling 9).
    let fen = fen_of("wK:Ae1 wP:Ae2 bP:Ad4 gK:Dh4 sK:Da4 sP:Bd2", "w - - s b 0 1");
    let mut g = engine(&fen);
    play(&mut g, &["Ae2Be4"]);
    assert!(
        g.fen().contains(" - s b "),
        "no en passant right: {}",
        g.fen()
    );
    play(&mut g, &["Dh4Dg4"]);
    assert!(!names_from(&g, "Bd2").contains("Be3"));
}

#[test]
fn promotion_on_each_far_edge_and_crowning() {
    let fen = fen_of(
        "wK:Ae1 wP:Ab7 bK:Ae8 bP:Ag2 gK:Dh8 gP:Db2 sK:Da8 sP:Dg7",
        "w - - - - 0 1",
    );
    let mut g = engine(&fen);
    let promotions = |g: &AnyGame, from: &str| -> BTreeSet<String> { names_from(g, from) };
    assert_eq!(
        promotions(&g, "Ab7"),
        set(&[
            "Ab8q", "Ab8r", "Ab8b", "Ab8n", "Bb8q", "Bb8r", "Bb8b", "Bb8n", "Bb7"
        ])
    );
    play(&mut g, &["Ab7Ab8n"]);
    assert!(
        g.fen().contains("wN"),
        "a promoted Knight is not crowned: {}",
        g.fen()
    );
    assert!(promotions(&g, "Ag2").contains("Ag1q"));
    play(&mut g, &["Ag2Bg1r"]);
    assert!(promotions(&g, "Db2").contains("Ca2b"));
    play(&mut g, &["Db2Da2q"]);
    assert!(promotions(&g, "Dg7").contains("Dh7n"));
    play(&mut g, &["Dg7Ch7n"]);
    // Ruling 8: the promoted Knight on Ab8 crowns when it moves to another far-edge cell.
    play(&mut g, &["Ab8Bd8"]);
    assert!(g.fen().contains("wC"), "{}", g.fen());
    // A Knight crowns on arrival at its far edge, and the crown moves with it.
    let mut g = engine(&fen_of(&format!("{KINGS} wN:Ab6"), "w - - - - 0 1"));
    play(&mut g, &["Ab6Ac8", "Ah8Ag8", "Dh8Dg8", "Da8Db8", "Ac8Ad6"]);
    assert!(g.fen().contains("wC"), "{}", g.fen());
}

#[test]
fn castling_for_all_four_colours() {
    let fen = fen_of(
        "wK:Ae1 wR:Aa1 wR:Ah1 wP:Af2 bK:Ae8 bR:Aa8 bR:Ah8 gK:Dh4 gR:Dh1 gR:Dh8 gP:Dg3 sK:Da4 sR:Da1 sR:Da8",
        "w wKQbKQgKQsKQ - - - 0 1",
    );
    let mut g = engine(&fen);
    for (king, short, long, rook) in [
        ("Ae1", "Ag1", "Ac1", "wR"),
        ("Ae8", "Ag8", "Ac8", "bR"),
        ("Dh4", "Dh2", "Dh6", "gR"),
        ("Da4", "Da2", "Da6", "sR"),
    ] {
        let k = names_from(&g, king);
        assert!(k.contains(short) && k.contains(long), "{king}: {k:?}");
        let mut list = MoveList::new();
        g.generate(&mut list);
        let mv = g.parse_move(&format!("{king}{short}")).expect("castling");
        assert_eq!(mv.flag(), strata::rules::MoveFlag::Castle);
        assert!(g.captured_piece(mv).is_none());
        play(&mut g, &[&format!("{king}{short}")]);
        assert!(g.fen().contains(rook));
    }
    // Kings on g1, g8, h2, a2 and Rooks on f1, f8, h3, a3 (the pawns Af2 and Dg3 keep the
    // Rooks Af1 and Dh3 from attacking Af8 and Da3, the next colour's castling cells).
    assert_eq!(
        g.fen().split(' ').nth(2),
        Some("-"),
        "castling moves the King: both rights of each colour go"
    );
    let expected = fen_of(
        "wK:Ag1 wR:Aa1 wR:Af1 wP:Af2 bK:Ag8 bR:Aa8 bR:Af8 gK:Dh2 gR:Dh3 gR:Dh8 gP:Dg3 sK:Da2 sR:Da3 sR:Da8",
        "w - - - - 4 2",
    );
    assert_eq!(g.fen(), expected);
}

#[test]
fn castling_rights_go_when_king_or_rook_leaves_or_the_rook_is_captured() {
    let fen = fen_of(
        "wK:Ae1 wR:Ah1 wR:Aa1 wP:Ab2 bK:Ae8 bB:Bg2 gK:Dh4 sK:Da4",
        "w wKQ - - - 0 1",
    );
    // The Rook leaves and comes back: the right is gone for good (ruling 13).
    let mut g = engine(&fen);
    play(&mut g, &["Ah1Ag1", "Ae8Ad8", "Dh4Dg4", "Da4Db4", "Ag1Ah1"]);
    assert_eq!(g.fen().split(' ').nth(2), Some("wQ"));
    // The Rook is captured on its cell.
    let mut g = engine(&fen);
    play(&mut g, &["Ab2Ab3", "Bg2Ah1"]);
    assert_eq!(g.fen().split(' ').nth(2), Some("wQ"));
    // A FEN right without its King and Rook at home is an error.
    let err = AnyGame::from_fen(
        Variant::FutureGeneration,
        &fen_of("wK:Ae2 wR:Ah1 bK:Ae8 gK:Dh4 sK:Da4", "w wK - - - 0 1"),
    )
    .unwrap_err();
    assert!(err.contains("wK") && err.contains("Ae1"), "{err}");
}

#[test]
fn king_capture_eliminates_and_the_order_skips_the_colour() {
    let fen = fen_of(
        "wK:Ae1 wQ:Ae5 bK:Ae8 bR:Aa8 bP:Ah7 gK:Dh4 gQ:Bb7 sK:Da4",
        "w - - g - 0 1",
    );
    let mut g = engine(&fen);
    let mv = g.parse_move("Ae5Ae8").expect("the Queen takes the King");
    assert_eq!(g.captured_piece(mv).kind(), 5);
    g.make(mv);
    assert_eq!(g.side_to_move().0, 2, "Gold moves next, Black is skipped");
    assert!(g.fen().contains(" g - - g b "), "{}", g.fen());
    assert!(g.decided().is_none());
    // Black's pieces stay, never move, and may be captured by the other team.
    assert!(g.fen().contains("bR") && g.fen().contains("bP"));
    assert!(names_from(&g, "Bb7").contains("Aa8"));
    play(&mut g, &["Bb7Aa8"]);
    assert_eq!(g.side_to_move().0, 3);
    play(&mut g, &["Da4Db4"]);
    assert_eq!(g.side_to_move().0, 0, "Silver, then White again");
    for _ in 0..8 {
        let names = engine_names(&g);
        assert!(
            !names.iter().any(|n| n.starts_with("Ah7")),
            "an eliminated pawn moved"
        );
        let first = names.into_iter().next().expect("a move");
        play(&mut g, &[&first]);
    }
    // Unmaking the capture brings Black back.
    while g.history_len() > 0 {
        g.unmake();
    }
    assert_eq!(g.fen(), engine(&fen).fen());
}

#[test]
fn the_second_king_of_a_team_ends_the_game() {
    let fen = fen_of("wK:Ae1 wR:Dd4 bR:Ah8 gK:Dh8 sK:Da4 sP:Db1", "w - - w b 0 1");
    let mut g = engine(&fen);
    assert!(g.decided().is_none() && g.outcome().is_none());
    play(&mut g, &["Dd4Da4"]);
    let end = g.decided().expect("decided");
    assert!(matches!(end, GameEnd::Win { winner: 0, .. }), "{end:?}");
    assert_eq!(g.outcome(), Some(end));
    assert_eq!(end.result_string(), "1-0");
    assert_eq!(g.count_moves(), 0);
    assert!(engine_names(&g).is_empty());
    assert!(!g.null_move_allowed());
    // A FEN with both colours of a team eliminated is read as decided too.
    let over = engine(&fen_of("wK:Ae1 bR:Ah8 gK:Dh8 sP:Db1", "w - - w bs 0 1"));
    assert!(matches!(
        over.decided(),
        Some(GameEnd::Win { winner: 0, .. })
    ));
}

#[test]
fn a_colour_without_a_move_passes() {
    let fen = fen_of(
        "wK:Ae1 bN:Da2 bB:Db1 bR:Db2 bN:Ca1 bB:Ca2 bR:Cb1 bQ:Cb2 gK:Dh8 sK:Da1",
        "s - - b b 0 1",
    );
    let mut g = engine(&fen);
    assert_eq!(engine_names(&g), set(&["0000"]));
    assert!(g.is_move_syntax("0000"));
    let pass = g.parse_move("0000").expect("the pass");
    assert_eq!(pass.flag(), strata::rules::MoveFlag::Pass);
    assert!(!g.is_tactical(pass) && g.moved_piece(pass).is_none());
    g.make(pass);
    assert_eq!(g.side_to_move().0, 0);
    assert!(g.fen().ends_with(" 1 2"), "the pass is a ply: {}", g.fen());
    g.unmake();
    assert_eq!(g.fen(), engine(&fen).fen());
    // A colour with moves has no pass.
    assert!(g.parse_move("0000").is_err() || g.side_to_move().0 == 3);
    assert!(engine(START_FEN).parse_move("0000").is_err());
}

#[test]
fn repetition_and_the_200_ply_rule() {
    let mut g = engine(START_FEN);
    let round = [
        "Ab1Ac3", "Ab8Ac6", "Dh2Df3", "Da2Dc3", "Ac3Ab1", "Ac6Ab8", "Df3Dh2", "Dc3Da2",
    ];
    assert_eq!(g.repetitions(), 0);
    play(&mut g, &round);
    assert_eq!(g.repetitions(), 1);
    assert!(g.outcome().is_none());
    play(&mut g, &round);
    assert_eq!(g.repetitions(), 2);
    assert_eq!(
        g.outcome(),
        Some(GameEnd::Draw {
            reason: "threefold repetition"
        })
    );
    // A pawn stepping down and back up repeats the position too (its clock is reset, but the
    // position is the same).
    let mut g = engine(START_FEN);
    play(
        &mut g,
        &[
            "Aa2Ba2", "Ab8Ac6", "Dh2Df3", "Da2Dc3", "Ba2Aa2", "Ac6Ab8", "Df3Dh2", "Dc3Da2",
        ],
    );
    assert_eq!(g.repetitions(), 1);
    // 200 plies without capture or pawn move.
    let fen = fen_of(KINGS, "w - - - - 199 60");
    let mut g = engine(&fen);
    assert!(g.rule_draw().is_none());
    play(&mut g, &["Ah1Ag1"]);
    assert!(g.rule_draw().is_some());
    assert!(matches!(g.outcome(), Some(GameEnd::Draw { .. })));
}

#[test]
fn null_move_passes_to_the_next_colour_in_the_game() {
    let fen = fen_of("wK:Ae1 bR:Ah8 gK:Dh8 sK:Da1", "w - - - b 0 1");
    let mut g = engine(&fen);
    assert!(g.null_move_allowed());
    let key = g.key();
    g.make_null();
    assert_eq!(g.side_to_move().0, 2);
    g.check_invariants().expect("consistent");
    g.unmake_null();
    assert_eq!(g.key(), key);
    assert_eq!(
        g.fen(),
        fen_of("wK:Ae1 bR:Ah8 gK:Dh8 sK:Da1", "w - - - b 0 1")
    );
    assert!(!g.in_check(), "there is no check");
}

#[test]
fn fen_errors_say_what_is_wrong() {
    let cases = [
        (fen_of("wK:Ae1 gK:Dh8 sK:Da1", "w"), "Black has 0 Kings"),
        (
            fen_of("wK:Ae1 bK:Ae8 gK:Dh8 sK:Da1", "w - - - b"),
            "eliminated but has a King",
        ),
        (fen_of(&format!("{KINGS} wP:Ab8"), "w"), "pawn on Ab8"),
        (fen_of(&format!("{KINGS} gP:Dh3"), "w"), "pawn on Dh3"),
        (fen_of(&format!("{KINGS} wN:Cb3"), "w"), "beyond its gate"),
        (
            fen_of(&format!("{KINGS} wN:Bb3 wN:Bc3 wN:Bd3 wN:Be3"), "w"),
            "must be listed as unlocked",
        ),
        (
            fen_of(KINGS, "b - Ae4"),
            "not a cell a double step of White",
        ),
        (
            fen_of(KINGS, "b - Ae3"),
            "needs an empty cell and White's pawn",
        ),
        (fen_of(KINGS, "x"), "side to move"),
        (fen_of(KINGS, "w - - q"), "unlocked field"),
        (fen_of(KINGS, "w - - ww"), "twice"),
        (fen_of(KINGS, "w Kw"), "must follow a colour letter"),
        (
            fen_of("wK:Ah1 gK:Dh8 sK:Da8", "b - - - b"),
            "the colour to move",
        ),
        (fen_of(KINGS, "w - - - - x"), "half-move clock"),
        (fen_of(KINGS, "w - - - - 0 1 9"), "at most 8"),
        (
            fen_of(KINGS, "w").replacen("7bK", "6xK", 1),
            "neither a digit",
        ),
        ("8/8/8/8/8/8/8/8|8 w".to_string(), "levels"),
        (
            fen_of(KINGS, "w").replacen('7', "9", 1),
            "bad empty-cell count",
        ),
        (
            fen_of(KINGS, "w").replacen("wK", "wX", 1),
            "unknown piece 'wX'",
        ),
    ];
    for (fen, expected) in cases {
        let err = AnyGame::from_fen(Variant::FutureGeneration, fen.trim())
            .expect_err(&fen)
            .to_string();
        assert!(err.contains(expected), "{fen}: '{err}' lacks '{expected}'");
    }
    // The en passant cell is dropped when the colour to move cannot use it.
    let g = engine(&fen_of(&format!("{KINGS} wP:Ae4"), "b - Ae3"));
    assert!(g.fen().contains(" b - - "), "{}", g.fen());
    let g = engine(&fen_of(&format!("{KINGS} wP:Ae4 bP:Ad4"), "b - Ae3"));
    assert!(g.fen().contains(" b - Ae3 "), "{}", g.fen());
}

#[test]
fn notation_and_drawing() {
    let g = engine(START_FEN);
    for ok in ["Ae2Ae4", "Ae7Ae8q", "Dh4Dh2", "0000", "Dh8Ah1n"] {
        assert!(g.is_move_syntax(ok), "{ok}");
    }
    for bad in [
        "e2e4",
        "Ae2Ae9",
        "Ee2Ae4",
        "Ae2Ae4k",
        "Ae2",
        "Ae2Ae4qq",
        "",
        "Ae2\u{e9}",
    ] {
        assert!(!g.is_move_syntax(bad), "{bad}");
    }
    assert!(matches!(
        g.parse_move("Ae2Ae5"),
        Err(strata::rules::MoveError::Illegal(_))
    ));
    assert!(matches!(
        g.parse_move("e2e4"),
        Err(strata::rules::MoveError::Malformed(_))
    ));
    let mut g = engine(&fen_of(
        "wK:Ae1 wQ:Ae5 bK:Ae8 gK:Dh4 sK:Da4",
        "w - - - - 0 1",
    ));
    play(&mut g, &["Ae5Ae8"]);
    let d = g.drawing();
    for part in [
        "Level A",
        "Level D",
        "Fen: ",
        "Key: ",
        "Eliminated: Black",
        "To move: Gold",
    ] {
        assert!(d.contains(part), "{part} missing in\n{d}");
    }
    let key_line = d.lines().find(|l| l.starts_with("Key: ")).expect("key");
    assert_eq!(key_line.len(), "Key: ".len() + 16);
}

#[test]
fn the_protocol_plays_the_variant() {
    use std::sync::Arc;
    use strata::protocol::{Captured, Engine};
    let out = Arc::new(Captured::default());
    let mut e = Engine::new(out.clone());
    for line in [
        "setoption name UCI_Variant value future-generation",
        "position startpos moves Ae2Be4 Ad7Ad5",
        "go perft 1",
        "d",
    ] {
        assert!(e.handle_line(line));
    }
    let lines = out.take();
    assert!(
        lines.contains(&"Nodes searched: 72".to_string()),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Fen: ") && l.contains(" g "))
    );
    assert!(e.handle_line("position startpos moves Ae2Ae5"));
    let lines = out.take();
    assert!(lines[0].contains("illegal move 'Ae2Ae5'"), "{lines:?}");
    assert!(
        e.handle_line("go wtime 1000 btime 1000 gtime 1000 stime 1000 winc 1 binc 1 ginc 1 sinc 1")
    );
    assert!(
        !out.take()
            .iter()
            .any(|l| l.contains("unknown go parameter")),
        "a clock per colour is accepted"
    );
}
