//! Pentaplane V: the engine against an independent reference generator
//! (`pentaplane_reference/`, written from the rules file alone), invariants over random games,
//! and the rules file's own examples and rulings.

mod common;
mod pentaplane_reference;

use std::collections::BTreeSet;
use std::path::Path;

use pentaplane_reference::{Man, Pos, START};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use strata::rules::pentaplane::tables::kind;
use strata::rules::perft::perft;
use strata::rules::piece::{Colour, Piece};
use strata::rules::{AnyGame, Game, GameEnd, MoveError, MoveFlag, MoveList, Variant};

const V: Variant = Variant::Pentaplane;

fn game(fen: &str) -> AnyGame {
    AnyGame::from_fen(V, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn play(g: &mut AnyGame, moves: &[&str]) {
    for m in moves {
        let mv = g
            .parse_move(m)
            .unwrap_or_else(|e| panic!("{}: {e}", g.fen()));
        g.make(mv);
    }
}

fn engine_perft(g: &mut AnyGame, depth: u32) -> u64 {
    strata::with_game!(g, p => perft(p, depth))
}

fn names(g: &AnyGame) -> BTreeSet<String> {
    let mut list = MoveList::new();
    g.generate(&mut list);
    list.iter().map(|&m| g.move_name(m)).collect()
}

/// A random position for the reference comparison: both Kings and `n` random pieces, Bombs
/// over-represented so that chains are frequent. Built with the reference's own board.
fn random_position(rng: &mut StdRng, n: usize) -> String {
    const LETTERS: [char; 14] = [
        'P', 'P', 'N', 'B', 'R', 'C', 'Q', 'F', 'M', 'S', 'O', 'O', 'O', 'Z',
    ];
    let mut p = Pos::empty();
    fn free(rng: &mut StdRng, p: &Pos) -> (i32, i32, i32) {
        loop {
            let c = (
                rng.gen_range(0..5),
                rng.gen_range(0..5),
                rng.gen_range(0..5),
            );
            if p.get(c).is_none() {
                return c;
            }
        }
    }
    for white in [true, false] {
        let c = free(rng, &p);
        p.set(c, Some(Man { white, letter: 'K' }));
    }
    for _ in 0..n {
        let c = free(rng, &p);
        let white = rng.gen_bool(0.5);
        let letter = LETTERS[rng.gen_range(0..LETTERS.len())];
        let on_own_promotion_row = c.2 == 2 && c.1 == if white { 4 } else { 0 };
        if letter == 'P' && on_own_promotion_row {
            continue;
        }
        p.set(c, Some(Man { white, letter }));
    }
    p.white_to_move = rng.gen_bool(0.5);
    p.to_fen()
}

/// Some setups: every piece type on the X squares at least once, files same or reversed.
fn setups() -> Vec<String> {
    [
        "FNKSO", "FOKNS", "ZMKOR", "OOKOO", "SBKCN", "RZKFM", "MCKZO",
    ]
    .iter()
    .enumerate()
    .map(|(i, w)| {
        let b: String = if i % 2 == 0 {
            w.to_lowercase()
        } else {
            w.chars().rev().collect::<String>().to_lowercase()
        };
        format!(
            "5/5/5/5/5|ppppp/5/5/5/PPPPP|{b}/ppppp/5/PPPPP/{w}|ppppp/5/5/5/PPPPP|5/5/5/5/5 w 0 1"
        )
    })
    .collect()
}

/// Compares engine and reference in one position: the set of move names, and for every move
/// the resulting placement and side (the engine's FEN read by the reference's own reader).
/// Returns how many of the moves removed two or more pieces (explosions, mostly).
fn compare_moves(g: &mut AnyGame) -> usize {
    let fen = g.fen();
    let r = Pos::from_fen(&fen);
    let rmoves = r.moves();
    let ref_names: BTreeSet<String> = rmoves.iter().map(|m| m.name()).collect();
    assert_eq!(
        ref_names.len(),
        rmoves.len(),
        "{fen}: reference names clash"
    );
    assert_eq!(names(g), ref_names, "{fen}: move sets differ");
    let mut big = 0;
    for m in &rmoves {
        let mv = g.parse_move(&m.name()).expect("checked above");
        g.make(mv);
        let after = Pos::from_fen(&g.fen());
        assert_eq!(
            after,
            r.play(m),
            "{fen}: position after {} differs",
            m.name()
        );
        g.unmake();
        if after.count() + 2 <= r.count() {
            big += 1;
        }
    }
    big
}

// ---------------------------------------------------------------------------------------------
// The reference against the rules file's counts and the suite file.

#[test]
fn reference_gives_the_rules_file_start_counts() {
    let p = Pos::from_fen(START);
    assert_eq!(
        [p.perft(1), p.perft(2), p.perft(3)],
        [55, 3031, 181252],
        "reference perft from the start"
    );
}

fn check_suite_with_reference(max_depth: u32, slow: bool) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/perft/pentaplane.perft");
    let suite = common::load_suite(&path);
    assert_eq!(suite.variant, V);
    let mut checked = 0;
    for case in &suite.cases {
        let mut p = Pos::from_fen(case.fen.as_deref().unwrap_or(START));
        for m in &case.moves {
            let rm = p
                .find(m)
                .unwrap_or_else(|| panic!("{}: reference finds no move {m}", case.id));
            p = p.play(&rm);
        }
        for &(depth, expected, is_slow) in &case.expect {
            if depth > max_depth || (is_slow && !slow) {
                continue;
            }
            assert_eq!(
                p.perft(depth),
                expected,
                "{} (line {}): reference perft {depth}",
                case.id,
                case.line
            );
            checked += 1;
        }
    }
    assert!(checked >= 40, "only {checked} suite lines checked");
}

#[test]
fn suite_counts_agree_with_the_reference() {
    check_suite_with_reference(3, false);
}

/// Every suite line up to depth 4, or up to `PENTAPLANE_REFERENCE_DEPTH` (the start
/// position's depth 5 takes the reference about two minutes).
#[test]
#[ignore = "slow: the reference generator on every suite line, depth 4 included"]
fn suite_counts_agree_with_the_reference_deep() {
    let depth = std::env::var("PENTAPLANE_REFERENCE_DEPTH")
        .ok()
        .and_then(|d| d.parse().ok())
        .unwrap_or(4);
    check_suite_with_reference(depth, true);
}

// ---------------------------------------------------------------------------------------------
// Engine against reference on positions from random games.

#[test]
fn engine_and_reference_agree_on_random_games() {
    let mut rng = StdRng::seed_from_u64(0x5e17a);
    let mut starts: Vec<String> = vec![START.to_string()];
    starts.extend(setups());
    for _ in 0..24 {
        let n = rng.gen_range(6..50);
        starts.push(random_position(&mut rng, n));
    }
    let mut positions = 0;
    let mut perft3 = 0;
    let mut explosions = 0;
    for fen in &starts {
        let mut g = game(fen);
        for ply in 0..30 {
            explosions += compare_moves(&mut g);
            let r = Pos::from_fen(&g.fen());
            assert_eq!(engine_perft(&mut g, 2), r.perft(2), "{}: perft 2", g.fen());
            if ply % 15 == 7 {
                assert_eq!(engine_perft(&mut g, 3), r.perft(3), "{}: perft 3", g.fen());
                perft3 += 1;
            }
            positions += 1;
            let mut list = MoveList::new();
            g.generate(&mut list);
            if list.is_empty() {
                break;
            }
            // Prefer tactical moves half of the time, so explosions happen often.
            let tactical: Vec<_> = list.iter().copied().filter(|&m| g.is_tactical(m)).collect();
            let m = if !tactical.is_empty() && rng.gen_bool(0.5) {
                tactical[rng.gen_range(0..tactical.len())]
            } else {
                list.as_slice()[rng.gen_range(0..list.len())]
            };
            g.make(m);
        }
    }
    assert!(
        positions > 300 && perft3 > 20 && explosions > 500,
        "{positions} positions, {perft3} perft 3, {explosions} moves removing 2+ pieces"
    );
}

// ---------------------------------------------------------------------------------------------
// Invariants over random playouts (make/unmake through explosions, keys, FEN round trip, every
// generated move legal and named uniquely).

#[test]
fn invariants_over_random_playouts() {
    let start = AnyGame::startpos(V);
    let mut checked = common::random_playouts(&start, 1, 6, 80, |_| {});
    for (i, fen) in setups().iter().enumerate() {
        checked += common::random_playouts(&game(fen), 10 + i as u64, 2, 60, |_| {});
    }
    let mut rng = StdRng::seed_from_u64(77);
    for i in 0..12 {
        let fen = random_position(&mut rng, 20 + 3 * i);
        checked += common::random_playouts(&game(&fen), 100 + i as u64, 2, 40, |g| {
            // The decided/no-move/outcome order of the rules file.
            if let Some(end) = g.decided() {
                assert_eq!(g.count_moves(), 0);
                assert_eq!(g.outcome(), Some(end));
            }
        });
    }
    assert!(checked > 800, "{checked} positions");
}

#[test]
fn make_unmake_through_a_board_full_of_bombs() {
    // Every cell a Bomb except the Kings and a Fortress: one shot clears the whole board.
    let mut p = Pos::empty();
    for z in 0..5 {
        for y in 0..5 {
            for x in 0..5 {
                p.set(
                    (x, y, z),
                    Some(Man {
                        white: (x + y + z) % 2 == 0,
                        letter: 'O',
                    }),
                );
            }
        }
    }
    p.set(
        (0, 0, 0),
        Some(Man {
            white: true,
            letter: 'K',
        }),
    );
    p.set(
        (4, 4, 4),
        Some(Man {
            white: false,
            letter: 'K',
        }),
    );
    p.set(
        (2, 2, 2),
        Some(Man {
            white: true,
            letter: 'F',
        }),
    );
    let fen = p.to_fen();
    let mut g = game(&fen);
    let before = g.clone();
    play(&mut g, &["Cc3*Cc4"]);
    assert_eq!(
        g.fen(),
        "5/5/5/5/5|5/5/5/5/5|5/5/5/5/5|5/5/5/5/5|5/5/5/5/5 b 0 1"
    );
    assert_eq!(
        g.decided(),
        Some(GameEnd::Draw {
            reason: "both kings destroyed"
        })
    );
    g.check_invariants().unwrap();
    g.unmake();
    assert!(g == before && g.key() == before.key() && g.fen() == fen);
    common::check_position(&mut g);
    assert!(compare_moves(&mut g) > 0);
}

// ---------------------------------------------------------------------------------------------
// FEN and notation.

#[test]
fn every_choice_of_x_square_pieces_is_accepted_and_quiet() {
    // Any of R F B M C S N O Z on the eight X squares, Black on the same or reversed files or
    // with pieces that do not match at all (the engine does not check the choice); no first
    // move captures or shoots, except a Fortress detonating its own Bomb next to it.
    let types = ['R', 'F', 'B', 'M', 'C', 'S', 'N', 'O', 'Z'];
    let row_of = |mut c: usize| {
        let mut w = [' '; 4];
        for s in w.iter_mut() {
            *s = types[c % 9];
            c /= 9;
        }
        w
    };
    let mut positions = 0;
    let mut with_detonation = 0;
    for code in 0..types.len().pow(4) {
        let w = row_of(code);
        let mut reversed = w;
        reversed.reverse();
        for b in [w, reversed, row_of((code * 7 + 3) % 6561)] {
            let row = |x: [char; 4]| format!("{}{}K{}{}", x[0], x[1], x[2], x[3]);
            let fen = format!(
                "5/5/5/5/5|ppppp/5/5/5/PPPPP|{}/ppppp/5/PPPPP/{}|ppppp/5/5/5/PPPPP|5/5/5/5/5 w 0 1",
                row(b).to_lowercase(),
                row(w)
            );
            let g = game(&fen);
            assert_eq!(g.fen(), fen);
            let mut list = MoveList::new();
            g.generate(&mut list);
            for &m in list.iter() {
                if g.is_tactical(m) {
                    let name = g.move_name(m);
                    let ok = m.flag() == MoveFlag::Shot
                        && g.moved_piece(m) == Piece::new(kind::FORTRESS, Colour::WHITE)
                        && g.captured_piece(m) == Piece::new(kind::BOMB, Colour::WHITE)
                        && matches!(name.as_str(), "Ca1*Cb1" | "Cb1*Ca1" | "Ce1*Cd1" | "Cd1*Ce1");
                    assert!(ok, "{fen}: first move {name} is tactical");
                }
            }
            positions += 1;
            with_detonation += usize::from(list.iter().any(|&m| g.is_tactical(m)));
        }
    }
    assert_eq!(positions, 3 * 6561);
    // F and O side by side on Ca1/Cb1 or Cd1/Ce1: 2 * 81 + 2 * 81 - 4 White rows.
    assert_eq!(with_detonation, 3 * 320);
}

#[test]
fn fen_errors_are_reported_not_panicked() {
    let bad = [
        "",
        "w",
        "5/5/5/5/5|5/5/5/5/5|2k2/5/5/5/2K2|5/5/5/5/5 w",
        "5/5/5/5/5|5/5/5/5/5|2k2/5/5/5/2K2|5/5/5/5/5|5/5/5/5/5|5/5/5/5/5 w",
        "5/5/5/5/5|5/5/5/5/5|2k2/5/5/5|5/5/5/5/5|5/5/5/5/5 w",
        "5/5/5/5/5|5/5/5/5/5|2k2/5/5/5/2K3|5/5/5/5/5|5/5/5/5/5 w",
        "5/5/5/5/5|5/5/5/5/5|2k2/5/5/5/2K1|5/5/5/5/5|5/5/5/5/5 w",
        "5/5/5/5/5|5/5/5/5/5|2k2/5/5/5/2K11|5/5/5/5/5|5/5/5/5/5 w",
        "5/5/5/5/5|5/5/5/5/5|2k2/5/5/5/2K02|5/5/5/5/5|5/5/5/5/5 w",
        "5/5/5/5/5|5/5/5/5/5|2k2/5/5/5/2KX1|5/5/5/5/5|5/5/5/5/5 w",
        "5/5/5/5/5|5/5/5/5/5|2k2/5/5/5/2Ké1|5/5/5/5/5|5/5/5/5/5 w",
        "5/5/5/5/5|5/5/5/5/5|5/5/5/5/2K2|5/5/5/5/5|5/5/5/5/5 w",
        "5/5/5/5/5|5/5/5/5/5|2k2/5/5/5/KK3|5/5/5/5/5|5/5/5/5/5 w",
        "5/5/5/5/5|5/5/5/5/5|P1k2/5/5/5/2K2|5/5/5/5/5|5/5/5/5/5 w",
        "5/5/5/5/5|5/5/5/5/5|2k2/5/5/5/2K1p|5/5/5/5/5|5/5/5/5/5 w",
        "5/5/5/5/5|5/5/5/5/5|2k2/5/5/5/2K2|5/5/5/5/5|5/5/5/5/5 x",
        "5/5/5/5/5|5/5/5/5/5|2k2/5/5/5/2K2|5/5/5/5/5|5/5/5/5/5 w -1 1",
        "5/5/5/5/5|5/5/5/5/5|2k2/5/5/5/2K2|5/5/5/5/5|5/5/5/5/5 w 0 x",
        "5/5/5/5/5|5/5/5/5/5|2k2/5/5/5/2K2|5/5/5/5/5|5/5/5/5/5 w 0 1 extra",
    ];
    for fen in bad {
        assert!(AnyGame::from_fen(V, fen).is_err(), "accepted: {fen}");
    }
    // Pawns may stand anywhere else, including the opponent's promotion row and their own
    // piece row; the last two fields may be omitted.
    let g = game("5/5/5/5/5|5/5/5/5/5|p1k2/5/5/5/P1K2|5/5/5/5/5|5/5/5/5/5 b");
    assert_eq!(
        g.fen(),
        "5/5/5/5/5|5/5/5/5/5|p1k2/5/5/5/P1K2|5/5/5/5/5|5/5/5/5/5 b 0 1"
    );
    // Random mutations of valid FENs never panic.
    let mut rng = StdRng::seed_from_u64(3);
    let alphabet: Vec<char> = "0123456789/| wbKkQqPpOoZzFfXé-".chars().collect();
    for _ in 0..20_000 {
        let mut s: Vec<char> = START.chars().collect();
        for _ in 0..rng.gen_range(1..4) {
            let i = rng.gen_range(0..s.len());
            match rng.gen_range(0..3) {
                0 => s[i] = alphabet[rng.gen_range(0..alphabet.len())],
                1 => {
                    s.remove(i);
                }
                _ => s.insert(i, alphabet[rng.gen_range(0..alphabet.len())]),
            }
        }
        let s: String = s.into_iter().collect();
        if let Ok(g) = AnyGame::from_fen(V, &s) {
            g.check_invariants().unwrap();
            assert_eq!(game(&g.fen()).fen(), g.fen());
        }
    }
}

#[test]
fn move_notation_and_parsing() {
    let mut g = game("K4/5/5/5/5|5/2P2/5/2P2/5|2o1n/3P1/5/1p3/5|1P1P1/5/5/5/5|4Q/5/5/5/k4 w 0 1");
    // Promotions are written with q; input without it is accepted.
    assert!(names(&g).contains("Cd4Cd5q"));
    assert!(!names(&g).contains("Cd4Cd5"));
    let with_q = g.parse_move("Cd4Cd5q").unwrap();
    assert_eq!(g.parse_move("Cd4Cd5"), Ok(with_q));
    assert!(
        names(&g).contains("Bc4Bc5"),
        "rank 5 off level C does not promote"
    );
    assert_eq!(
        g.parse_move("Bc4Bc5q"),
        Err(MoveError::Illegal("Bc4Bc5q".into()))
    );
    assert_eq!(
        g.parse_move("Cd4Cd6"),
        Err(MoveError::Malformed("Cd4Cd6".into()))
    );
    assert_eq!(
        g.parse_move("Ca1*Ca4q"),
        Err(MoveError::Malformed("Ca1*Ca4q".into()))
    );
    assert_eq!(
        g.parse_move("Ca1*Ca4"),
        Err(MoveError::Illegal("Ca1*Ca4".into()))
    );
    for s in [
        "", "é", "Cd4", "Cd4Cd5qq", "Cd4*", "*Cd5", "cd4cd5", "Cd4 Cd5",
    ] {
        assert!(g.parse_move(s).is_err(), "{s}");
    }
    // Random strings never panic, and whatever parses is a legal move with that name.
    let mut rng = StdRng::seed_from_u64(9);
    let alphabet: Vec<char> = "ABCDEFZabcdefz0123456789*q é".chars().collect();
    for _ in 0..5_000 {
        let len = rng.gen_range(0..10);
        let s: String = (0..len)
            .map(|_| alphabet[rng.gen_range(0..alphabet.len())])
            .collect();
        let syntax = g.is_move_syntax(&s);
        match g.parse_move(&s) {
            Ok(m) => assert!(g.move_name(m) == s || g.move_name(m) == format!("{s}q")),
            Err(MoveError::Illegal(_)) => assert!(syntax, "{s}"),
            Err(MoveError::Malformed(_)) => assert!(!syntax, "{s}"),
            Err(MoveError::Ambiguous(..)) => panic!("protocol notation is never ambiguous: {s}"),
        }
    }
    play(&mut g, &["Cd4Cd5"]);
    assert_eq!(g.fen().split('|').nth(2), Some("2oQn/5/5/1p3/5"));

    // A shot and a step onto the same cell are two moves.
    let g = game("4q/5/4S/5/M4|5/5/5/p4/5|2k2/2p2/2FP1/5/2n2|5/5/5/5/5|5/5/2r2/5/K4 w 0 1");
    let n = names(&g);
    for m in [
        "Cc3Cc4", "Cc3*Cc4", "Cc3*Cc1", "Cc3*Ec3", "Aa1*Ae5", "Aa1*Ba2", "Ae3*Cc5",
    ] {
        assert!(n.contains(m), "{m} missing");
    }
    for m in ["Cc3*Cd3", "Cc3*Ca3", "Cc3*Ac3"] {
        assert!(!n.contains(m), "{m} present");
    }
    let step = g.parse_move("Cc3Cc4").unwrap();
    let shot = g.parse_move("Cc3*Cc4").unwrap();
    assert_ne!(step, shot);
    assert!(g.is_tactical(step) && g.is_tactical(shot));
    assert_eq!(g.captured_piece(shot), g.piece_at(shot.to()));
    assert!(g.captured_piece(shot).is_some());
}

// ---------------------------------------------------------------------------------------------
// The rules file's examples and rulings.

fn white_king_gone() -> Option<GameEnd> {
    Some(GameEnd::Win {
        winner: 1,
        reason: "king captured",
    })
}

fn black_king_gone() -> Option<GameEnd> {
    Some(GameEnd::Win {
        winner: 0,
        reason: "king captured",
    })
}

#[test]
fn rules_example_chain_reaches_the_king() {
    let mut g = game("5/5/5/5/K4|2p2/5/5/5/5|2k2/3O1/F1o2/5/5|5/5/5/5/5|4n/5/5/5/5 w 0 1");
    play(&mut g, &["Ca3*Cc3"]);
    assert_eq!(g.decided(), black_king_gone());
    assert_eq!(g.outcome(), black_king_gone());
    assert_eq!(g.count_moves(), 0);
    let fen = g.fen();
    // The Fortress survives; the Bombs, the King and the pawn on Bc5 are gone.
    assert_eq!(
        fen,
        "5/5/5/5/K4|5/5/5/5/5|5/5/F4/5/5|5/5/5/5/5|4n/5/5/5/5 b 0 1"
    );
    assert!(
        AnyGame::from_fen(V, &fen).is_err(),
        "a FEN needs both Kings"
    );
}

#[test]
fn ruling_3_knight_takes_the_bomb_next_to_the_king() {
    let mut g = game(
        "5/5/5/5/5|ppppp/5/5/5/PPPPP|fnkos/ppppp/5/PPPPP/FNKOS|ppppp/5/5/5/PPPPP|5/5/5/5/5 w 0 1",
    );
    play(&mut g, &["Ca2Ca3", "Cb5Cc3", "Ca3Ca2", "Cc3Cd1"]);
    assert_eq!(g.decided(), white_king_gone());
}

#[test]
fn rulings_7_and_12_own_bomb_kills_shooter_and_own_king() {
    let mut g = game(
        "5/5/5/5/5|ppppp/5/5/5/PPPPP|fokns/ppppp/5/PPPPP/FOKNS|ppppp/5/5/5/PPPPP|5/5/5/5/5 w 0 1",
    );
    play(&mut g, &["Ca1*Cb1"]);
    assert_eq!(g.decided(), white_king_gone());
    assert_eq!(g.count_moves(), 0);
    // Cube of Cb1: files a-c, ranks 1-2, levels B-D.
    assert_eq!(
        g.fen(),
        "5/5/5/5/5|ppppp/5/5/5/3PP|fokns/ppppp/5/3PP/3NS|ppppp/5/5/5/3PP|5/5/5/5/5 b 0 1"
    );
    // The Missile bishop outside the blast survives, the Fortress inside does not.
    let mut g = game("5/5/4M/5/5|5/5/2F2/1n3/5|5/3r1/1PO2/5/5|5/5/5/2p2/5|k4/5/5/5/K4 w 0 1");
    play(&mut g, &["Ae3*Cc3"]);
    assert_eq!(
        g.fen(),
        "5/5/4M/5/5|5/5/5/5/5|5/5/5/5/5|5/5/5/5/5|k4/5/5/5/K4 b 0 1"
    );
    let mut g = game("5/5/4M/5/5|5/5/2F2/1n3/5|5/3r1/1PO2/5/5|5/5/5/2p2/5|k4/5/5/5/K4 w 0 1");
    play(&mut g, &["Bc3*Cc3"]);
    assert_eq!(
        g.fen(),
        "5/5/4M/5/5|5/5/5/5/5|5/5/5/5/5|5/5/5/5/5|k4/5/5/5/K4 b 0 1"
    );
    assert_eq!(g.halfmove_clock_for_test(), 0);
}

trait ClockForTest {
    fn halfmove_clock_for_test(&self) -> u32;
}

impl ClockForTest for AnyGame {
    fn halfmove_clock_for_test(&self) -> u32 {
        self.fen()
            .split_whitespace()
            .nth(2)
            .and_then(|s| s.parse().ok())
            .expect("halfmove field")
    }
}

#[test]
fn chain_of_three_bombs() {
    let mut g = game("5/5/5/1F3/4N|5/5/5/5/5|4k/3o1/2O2/1o3/5|4p/5/5/5/5|5/4r/5/5/K4 w 0 1");
    play(&mut g, &["Ab2*Cb2"]);
    assert_eq!(g.decided(), black_king_gone());
    assert_eq!(
        g.fen(),
        "5/5/5/1F3/4N|5/5/5/5/5|5/5/5/5/5|5/5/5/5/5|5/4r/5/5/K4 b 0 1"
    );
}

#[test]
fn ruling_10_kamikaze_queen() {
    let fen = "5/1p3/2o2/5/Z4|5/5/3n1/5/5|5/5/5/5/5|5/5/5/5/5|4k/5/5/5/r3K w 0 1";
    let mut g = game(fen);
    play(&mut g, &["Aa1Ac3"]);
    assert_eq!(
        g.fen(),
        "5/5/5/5/5|5/5/5/5/5|5/5/5/5/5|5/5/5/5/5|4k/5/5/5/r3K b 0 1"
    );
    let mut g = game(fen);
    play(&mut g, &["Aa1Ea1"]);
    assert_eq!(
        g.fen(),
        "5/1p3/2o2/5/5|5/5/3n1/5/5|5/5/5/5/5|5/5/5/5/5|4k/5/5/5/4K b 0 1"
    );
    // A move to an empty cell is ordinary.
    let mut g = game(fen);
    play(&mut g, &["Aa1Ab2"]);
    assert!(g.fen().starts_with("5/1p3/2o2/1Z3/5|"));
}

#[test]
fn ruling_9_pawn_dies_on_the_promotion_row() {
    let fen = "K4/5/5/5/5|5/2P2/5/2P2/5|2o1n/3P1/5/1p3/5|1P1P1/5/5/5/5|4Q/5/5/5/k4 w 0 1";
    let g = game(fen);
    for m in ["Bc4Cc5q", "Cd4Cc5q", "Db5Cc5q", "Cd4Ce5q", "Dd5Cd5q"] {
        assert!(names(&g).contains(m), "{m}");
    }
    let mut g = game(fen);
    play(&mut g, &["Bc4Cc5q"]);
    // No Queen appears on Cc5: the pawn died in the blast with the pieces around it (the
    // Knight on Ce5 is two files away and survives).
    assert_eq!(
        g.fen(),
        "K4/5/5/5/5|5/5/5/2P2/5|4n/5/5/1p3/5|5/5/5/5/5|4Q/5/5/5/k4 b 0 1"
    );
    let mut g = game(fen);
    play(&mut g, &["Dd5Cd5"]);
    assert!(
        g.fen().contains("2oQn/"),
        "vertical step promotes: {}",
        g.fen()
    );
}

#[test]
fn ruling_14_both_kings_draw() {
    let fen = "4R/5/M4/5/5|5/5/2O2/5/5|5/2k2/2o2/2K2/5|5/5/3p1/5/5|5/5/5/5/5 w 0 1";
    for m in ["Aa3*Cc3", "Cc2Cc3", "Bc3Cc3"] {
        let mut g = game(fen);
        play(&mut g, &[m]);
        assert_eq!(
            g.outcome(),
            Some(GameEnd::Draw {
                reason: "both kings destroyed"
            }),
            "{m}"
        );
        assert_eq!(g.count_moves(), 0);
    }
}

#[test]
fn ruling_15_no_legal_move_loses() {
    let fen = "PPPPP/PPPPP/PPPPP/PPPPP/KPPPP|PPPPP/PPPPP/PPPPP/PPPPP/PPPPP|RRRRR/PPPPP/PPPPP/PPPPP/PPPPP|PPPRP/PPPPR/PPPPP/PPPPP/PPPPP|PPPPk/PPPRP/PPPPP/PPPPP/PPPPP w 0 1";
    let g = game(fen);
    assert_eq!(g.decided(), None);
    assert_eq!(
        g.outcome(),
        Some(GameEnd::Win {
            winner: 1,
            reason: "no legal move"
        })
    );
}

#[test]
fn ruling_8_bomb_steps_quietly() {
    let mut g = game("5/1o3/5/5/K4|5/5/5/1P3/5|3k1/2p2/1OO2/5/5|5/5/5/5/5|4n/5/5/5/5 w 0 1");
    play(&mut g, &["Cb3Ca3"]);
    assert_eq!(g.halfmove_clock_for_test(), 1);
    assert!(g.fen().contains("|3k1/2p2/O1O2/5/5|"));
    g.unmake();
    play(&mut g, &["Cc3Cc4"]);
    assert_eq!(g.decided(), black_king_gone());
}

#[test]
fn repetition_looks_back_across_pawn_moves() {
    // Only Kings, a Rook and pawns: pawn moves reset the 100-ply clock but not repetition.
    let mut g = game("5/5/5/5/5|5/5/5/5/5|2k2/5/1p3/1P3/R1K2|5/5/5/5/5|5/5/5/5/5 w 7 1");
    assert_eq!(g.repetitions(), 0);
    let cycle = ["Cb2Ca2", "Cb3Ca3", "Ca2Cb2", "Ca3Cb3"];
    play(&mut g, &cycle);
    assert_eq!(g.halfmove_clock_for_test(), 0, "pawn moves reset the clock");
    assert_eq!(g.repetitions(), 1);
    assert_eq!(g.outcome(), None);
    play(&mut g, &cycle);
    assert_eq!(g.repetitions(), 2);
    assert_eq!(
        g.outcome(),
        Some(GameEnd::Draw {
            reason: "threefold repetition"
        })
    );
    // After a capture, the position right after it is the first occurrence.
    let mut g = game("5/5/5/5/5|5/5/5/5/5|2k2/n4/5/5/R1K2|5/5/5/5/5|5/5/5/5/5 w 0 1");
    play(&mut g, &["Ca1Ca4", "Cc5Cd5", "Cc1Cd1", "Cd5Cc5"]);
    assert_eq!(g.repetitions(), 0);
    play(&mut g, &["Cd1Cc1"]);
    assert_eq!(g.repetitions(), 1);
    // A promotion is irreversible too.
    let mut g = game("5/5/5/5/5|5/5/5/5/5|2k2/P4/5/5/2K2|5/5/5/5/5|5/5/5/5/5 w 0 1");
    play(
        &mut g,
        &["Ca4Ca5", "Cc5Cd5", "Ca5Aa5", "Cd5Cc5", "Aa5Ca5", "Cc5Cd5"],
    );
    assert_eq!(
        g.repetitions(),
        1,
        "the Queen's positions repeat after the promotion"
    );
}

#[test]
fn hundred_ply_rule() {
    let mut g = game("5/5/5/5/5|5/5/5/5/5|2k2/5/5/5/R1K2|5/5/5/5/5|5/5/5/5/5 w 98 60");
    play(&mut g, &["Ca1Ca2"]);
    assert_eq!(g.rule_draw(), None);
    play(&mut g, &["Cc5Cd5"]);
    assert_eq!(g.rule_draw(), Some("100-ply rule"));
    assert_eq!(
        g.outcome(),
        Some(GameEnd::Draw {
            reason: "100-ply rule"
        })
    );
    assert!(g.fen().ends_with(" w 100 61"));
    // A shot resets the clock.
    let mut g = game("5/5/5/5/5|5/5/5/5/5|2k2/5/5/n4/F1K2|5/5/5/5/5|5/5/5/5/5 w 50 1");
    play(&mut g, &["Ca1*Ca2"]);
    assert!(g.fen().ends_with(" b 0 1"));
}

#[test]
fn null_move_and_drawing() {
    let mut g = AnyGame::startpos(V);
    assert!(g.null_move_allowed());
    assert!(!g.in_check());
    let key = g.key();
    g.make_null();
    assert_ne!(g.key(), key);
    assert!(g.fen().contains(" b 0 1"));
    g.unmake_null();
    assert_eq!(g.key(), key);
    let d = g.drawing();
    assert!(d.contains(&format!("Fen: {}", START)), "{d}");
    assert!(d.contains(&format!("Key: {:016X}", key)), "{d}");
    assert!(d.contains("f n k s o"), "{d}");
    let mut g = game("5/5/5/5/K4|2p2/5/5/5/5|2k2/3O1/F1o2/5/5|5/5/5/5/5|4n/5/5/5/5 w 0 1");
    play(&mut g, &["Ca3*Cc3"]);
    assert!(!g.null_move_allowed());
}

#[test]
fn protocol_reads_pentaplane_positions_and_counts() {
    use std::sync::Arc;
    use strata::protocol::{Captured, Engine};
    let out = Arc::new(Captured::default());
    let mut e = Engine::new(out.clone());
    let setup = "5/5/5/5/5|ppppp/5/5/5/PPPPP|zmkos/ppppp/5/PPPPP/ZMKOS|ppppp/5/5/5/PPPPP|5/5/5/5/5";
    for line in [
        "setoption name UCI_Variant value pentaplane".to_string(),
        format!("position fen {setup} w 0 1 moves Ca2Ca3 Cb4Cb3 Ca3Ba3"),
        "go perft 2".to_string(),
        // The perft runs on its own thread; `d` waits for it to finish.
        "d".to_string(),
    ] {
        assert!(e.handle_line(&line));
    }
    let lines = out.take();
    let mut g = game(&format!("{setup} w 0 1"));
    play(&mut g, &["Ca2Ca3", "Cb4Cb3", "Ca3Ba3"]);
    let expected = format!("Nodes searched: {}", engine_perft(&mut g, 2));
    let counted = lines.iter().position(|l| l.starts_with("Nodes searched"));
    assert_eq!(counted.map(|i| &lines[i]), Some(&expected), "{lines:?}");
    // It is the perft's last line: the board that `d` prints comes after it.
    assert!(
        lines[counted.unwrap() + 1..]
            .iter()
            .any(|l| l.starts_with("Fen: ")),
        "{lines:?}"
    );
    assert_eq!(e.game().fen(), g.fen());
    // A bad FEN or move leaves the position unchanged and says why.
    assert!(e.handle_line("position fen 5/5/5/5/5 w"));
    assert!(e.handle_line("position startpos moves Cb1Cb2"));
    let errors = out.take();
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(
        errors
            .iter()
            .all(|l| l.starts_with("info string error: position:"))
    );
    assert_eq!(e.game().fen(), g.fen());
    assert!(e.handle_line("d"));
    assert!(
        out.take()
            .iter()
            .any(|l| l.starts_with("Kings: White King on Cc1"))
    );
}
