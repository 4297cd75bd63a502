//! Podionic Chess checked against the rules file (`docs/variants/podionic.md`).
//!
//! `podionic_reference/` is a second move generator written from the rules file alone,
//! sharing no table or code with the engine. The tests compare the engine with it on the
//! suite file's positions and on positions of seeded random games, check the engine's
//! invariants, and check the rules file's own examples.

mod common;
mod podionic_reference;

use std::collections::BTreeSet;
use std::path::Path;

use podionic_reference::Pos;
use strata::rules::bitset::BitSet;
use strata::rules::perft::perft;
use strata::rules::podionic::PodionicPosition;
use strata::rules::podionic::tables::{Bb, TABLES};
use strata::rules::{AnyGame, Game, MoveList, Variant};

const START_FEN: &str = "bp2/kp2/np2/1p1p|brrp/q1p1/np2/4|4/NP2/Q1P1/BRRP|1P1P/NP2/KP2/BP2 w 0 1";

fn engine(fen: &str) -> AnyGame {
    AnyGame::from_fen(Variant::Podionic, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn engine_names(g: &AnyGame) -> BTreeSet<String> {
    let mut list = MoveList::new();
    g.generate(&mut list);
    list.iter().map(|&m| g.move_name(m)).collect()
}

fn names(list: &str) -> BTreeSet<String> {
    list.split_whitespace().map(str::to_string).collect()
}

fn cell(name: &str) -> usize {
    PodionicPosition::geometry().parse_name(name).unwrap()
}

fn cell_names(set: Bb) -> BTreeSet<String> {
    let geo = PodionicPosition::geometry();
    set.iter().map(|c| geo.name(c)).collect()
}

// (a) The reference generator checks itself against the rules file's reference counts.

#[test]
fn reference_matches_the_rules_file_counts() {
    let p = Pos::from_fen(START_FEN);
    assert_eq!(p.legal().len(), 31);
    assert_eq!(p.perft(2), 958);
    assert_eq!(p.perft(3), 29811);
}

#[test]
#[ignore = "slow: the reference generator to depth 4"]
fn reference_matches_the_rules_file_counts_deep() {
    assert_eq!(Pos::from_fen(START_FEN).perft(4), 921661);
}

#[test]
fn engine_matches_the_rules_file_counts() {
    let mut g = engine(START_FEN);
    let got: Vec<u64> = (1..=4)
        .map(|d| strata::with_game!(&mut g, p => perft(p, d)))
        .collect();
    assert_eq!(got, vec![31, 958, 29811, 921661]);
}

// (b) Every expected number of the suite file equals the reference perft.

fn suite() -> common::Suite {
    common::load_suite(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/perft/podionic.perft"))
}

/// The reference position of a suite case (its FEN, then its moves by name).
fn reference_position(case: &common::PerftCase) -> Pos {
    let mut p = Pos::from_fen(case.fen.as_deref().unwrap_or(START_FEN));
    for name in &case.moves {
        let m = p
            .legal()
            .into_iter()
            .find(|m| podionic_reference::move_name(m) == *name)
            .unwrap_or_else(|| panic!("case '{}': the reference finds no move {name}", case.id));
        p = p.play(&m);
    }
    p
}

/// Compares the non-slow lines of at most `cap` leaves with the reference, two threads.
fn suite_against_reference(cap: u64) {
    let suite = suite();
    let jobs: Vec<(String, Pos, u32, u64)> = suite
        .cases
        .iter()
        .flat_map(|case| {
            let p = reference_position(case);
            case.expect
                .iter()
                .filter(|&&(_, n, slow)| !slow && n <= cap)
                .map(move |&(d, n, _)| (case.id.clone(), p.clone(), d, n))
                .collect::<Vec<_>>()
        })
        .collect();
    let (a, b): (Vec<_>, Vec<_>) = jobs.into_iter().enumerate().partition(|(i, _)| i % 2 == 0);
    let run = |part: Vec<(usize, (String, Pos, u32, u64))>| {
        part.into_iter()
            .filter_map(|(_, (id, p, d, n))| {
                let got = p.perft(d);
                (got != n).then(|| format!("'{id}' perft {d}: reference {got}, suite {n}"))
            })
            .collect::<Vec<_>>()
    };
    let mut failures = std::thread::scope(|s| {
        let h = s.spawn(|| run(b));
        let mut f = run(a);
        f.extend(h.join().unwrap());
        f
    });
    failures.sort();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn suite_counts_equal_reference_perft() {
    suite_against_reference(13_000);
}

#[test]
#[ignore = "slow: every non-slow suite line through the reference generator"]
fn suite_counts_equal_reference_perft_deep() {
    suite_against_reference(u64::MAX);
}

// (c) Engine and reference agree on the legal moves and on perft over random games.

#[test]
fn engine_and_reference_agree_on_random_games() {
    let start = engine(START_FEN);
    let mut compared = 0;
    common::random_playouts(&start, 7, 5, 60, |g| {
        let fen = g.fen();
        let r = Pos::from_fen(&fen);
        assert_eq!(
            engine_names(g),
            r.legal_names(),
            "legal moves differ in {fen}"
        );
        // Perft 2 on every fifteenth position (the reference is slow).
        if compared % 15 == 0 {
            let mut e = g.clone();
            let n = strata::with_game!(&mut e, p => perft(p, 2));
            assert_eq!(n, r.perft(2), "perft 2 differs in {fen}");
        }
        compared += 1;
    });
    assert!(compared > 150, "only {compared} positions compared");
}

/// Sparse random positions (few pieces, often in check, pieces on every level) compared with
/// the reference: legal moves of both sides, and perft 2.
#[test]
fn engine_and_reference_agree_on_random_sparse_positions() {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    let cells = podionic_reference::all_cells();
    let mut rng = StdRng::seed_from_u64(11);
    let mut tried = 0;
    let mut compared = 0;
    while compared < 300 {
        tried += 1;
        assert!(tried < 100_000);
        let mut pos = Pos {
            cells: Default::default(),
            white: rng.gen_bool(0.5),
        };
        let mut pieces = vec!['K', 'k'];
        for _ in 0..rng.gen_range(1..8) {
            pieces.push(b"PNBRQpnbrq"[rng.gen_range(0..10)] as char);
        }
        for p in pieces {
            let c = cells[rng.gen_range(0..cells.len())];
            pos.cells.entry(c).or_insert(p);
        }
        // Turn it into a FEN the engine accepts (pawn cells, kings, side not to move safe).
        let fen = reference_fen(&pos);
        let Ok(g) = AnyGame::from_fen(Variant::Podionic, &fen) else {
            continue;
        };
        assert_eq!(
            engine_names(&g),
            pos.legal_names(),
            "legal moves differ in {fen}"
        );
        let mut e = g.clone();
        let n = strata::with_game!(&mut e, p => perft(p, 2));
        assert_eq!(n, pos.perft(2), "perft 2 differs in {fen}");
        compared += 1;
    }
}

/// The FEN of a reference position (written by the reference's own rules).
fn reference_fen(p: &Pos) -> String {
    let levels = [(0, 3, 6), (3, 3, 6), (3, 0, 3), (0, 0, 3)];
    let mut s = String::new();
    for (z, &(x0, y0, y1)) in levels.iter().enumerate() {
        if z > 0 {
            s.push('|');
        }
        for y in (y0..=y1).rev() {
            if y < y1 {
                s.push('/');
            }
            let mut empty = 0;
            for x in x0..x0 + 4 {
                match p.cells.get(&podionic_reference::Sq { z: z as i32, x, y }) {
                    Some(&c) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        s.push(c);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
        }
    }
    format!("{s} {} 0 1", if p.white { 'w' } else { 'b' })
}

// (d) Invariants over random games, and attack detection against move generation.

/// `attackers_to` (reverse tables, trees walked from the target) must equal the pieces whose
/// own attack sets (walked from the attacker) contain the cell, for every cell and colour.
fn attacks_agree(g: &AnyGame) {
    let AnyGame::Podionic(p) = g else {
        panic!("not a Podionic position")
    };
    let b = p.board();
    let occ = b.occupied();
    for colour in [
        strata::rules::piece::Colour::WHITE,
        strata::rules::piece::Colour::BLACK,
    ] {
        for cell in 0..64 {
            let forward: Bb = b
                .colour(colour)
                .iter()
                .filter(|&from| p.attacks_from(from).contains(cell))
                .collect();
            assert_eq!(
                p.attackers_to(cell, colour, occ),
                forward,
                "{}: attackers of cell {cell} differ",
                g.fen()
            );
            assert_eq!(p.is_attacked(cell, colour, occ), forward.any());
        }
    }
}

#[test]
fn invariants_hold_over_random_games() {
    let start = engine(START_FEN);
    let n = common::random_playouts(&start, 1, 12, 120, |g| attacks_agree(g));
    assert!(n > 500, "only {n} positions checked");
    for case in suite().cases {
        let g = common::case_position(Variant::Podionic, &case);
        common::random_playouts(&g, 2, 2, 40, |g| attacks_agree(g));
    }
}

#[test]
fn slider_reach_is_symmetric() {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    let mut rng = StdRng::seed_from_u64(3);
    for _ in 0..200 {
        let occ = BitSet([rng.r#gen::<u64>() & rng.r#gen::<u64>()]);
        for trees in [&TABLES.rook, &TABLES.bishop] {
            for a in 0..64 {
                for b in trees.reach(a, occ) {
                    assert!(
                        trees.reach(b, occ).contains(a),
                        "{a} reaches {b} but not back"
                    );
                }
            }
        }
    }
}

// (e) The rules file's own examples, for the engine's tables and for the reference.

/// What the engine's tables give a lone piece on an empty board.
fn engine_lone_targets(piece: char, from: &str) -> BTreeSet<String> {
    let c = cell(from);
    let t = &*TABLES;
    let set = match piece {
        'Q' => t.rook.reach(c, Bb::EMPTY) | t.bishop.reach(c, Bb::EMPTY),
        'R' => t.rook.reach(c, Bb::EMPTY),
        'B' => t.bishop.reach(c, Bb::EMPTY),
        'N' => t.knight[c],
        'K' => t.king[c],
        _ => unreachable!(),
    };
    cell_names(set)
}

#[test]
fn queen_on_the_central_column_reaches_39_cells() {
    for from in ["Ad4", "Bd4", "Cd4", "Dd4"] {
        assert_eq!(
            engine_lone_targets('Q', from).len(),
            39,
            "engine, Queen on {from}"
        );
        let r = Pos::lone_targets('Q', podionic_reference::parse(from));
        assert_eq!(r.len(), 39, "reference, Queen on {from}");
    }
}

#[test]
fn empty_board_examples_of_the_rules_file() {
    let examples = [
        (
            'R',
            "Da1",
            "Da2 Da3 Da4 Aa4 Aa5 Aa6 Aa7 Db1 Dc1 Dd1 Cd1 Ce1 Cf1 Cg1",
        ),
        ('B', "Cf1", "Cg2 Ce2 Cd3 Dd3 Dc4 Ac4 Ab5 Aa6"),
        ('N', "Cd2", "Cf1 Cf3 Ce4 Bd4 Dd4"),
        ('N', "Da4", "Db2 Dc3 Ac4"),
        ('K', "Bd4", "Bd5 Be4 Be5 Ad4 Cd4"),
    ];
    for (piece, from, list) in examples {
        let want = names(list);
        assert_eq!(
            engine_lone_targets(piece, from),
            want,
            "engine, {piece} on {from}"
        );
        assert_eq!(
            Pos::lone_targets(piece, podionic_reference::parse(from)),
            want,
            "reference, {piece} on {from}"
        );
    }
}

#[test]
fn knight_level_leap_is_one_sided() {
    assert!(TABLES.knight[cell("Cd2")].contains(cell("Bd4")));
    assert!(!TABLES.knight[cell("Bd4")].contains(cell("Cd2")));
    assert!(TABLES.knight_from[cell("Bd4")].contains(cell("Cd2")));
    assert!(!TABLES.knight_from[cell("Cd2")].contains(cell("Bd4")));
}

#[test]
fn pawn_examples_of_the_rules_file() {
    let white = &TABLES.pawn[0];
    let black = &TABLES.pawn[1];
    // Diagonal captures: White Ce2 (east) captures Cf1, Cf3; White Cg1 (north) Cf2 only.
    assert_eq!(cell_names(white.captures[cell("Ce2")]), names("Cf1 Cf3"));
    assert_eq!(cell_names(white.captures[cell("Cg1")]), names("Cf2"));
    // Straight capture on a hand-over square: the forward cell, directly up / down.
    assert_eq!(cell_names(white.captures[cell("Dd2")]), names("Cd2"));
    assert_eq!(cell_names(black.captures[cell("Ad5")]), names("Bd5"));
    // Hand-over squares.
    assert_eq!(
        cell_names(white.hand_over),
        names("Dd1 Dd2 Dd3 Dd4 Cd4 Ce4 Cf4 Cg4 Bd4 Bd5 Bd6 Bd7")
    );
    assert_eq!(
        cell_names(black.hand_over),
        names("Ad4 Ad5 Ad6 Ad7 Bd4 Be4 Bf4 Bg4 Cd1 Cd2 Cd3 Cd4")
    );
    // Double steps: exactly the rules file's list.
    let geo = PodionicPosition::geometry();
    let doubles = |t: &strata::rules::podionic::lanes::PawnTables| -> BTreeSet<String> {
        (0..64)
            .filter(|&c| t.double[c] != u8::MAX)
            .map(|c| format!("{}{}", geo.name(c), geo.name(t.double[c] as usize)))
            .collect()
    };
    assert_eq!(
        doubles(white),
        names("Db1Dd1 Db2Dd2 Db3Dd3 Db4Dd4 Cg1Cg3 Cf2Cf4")
    );
    assert_eq!(
        doubles(black),
        names("Ab7Ad7 Ab6Ad6 Ab5Ad5 Ab4Ad4 Bg7Bg5 Bf6Bf4")
    );
    // Lane ends (promotion) and the cells no pawn can stand on.
    assert_eq!(cell_names(white.promotion), names("Aa4 Aa5 Aa6 Aa7"));
    assert_eq!(cell_names(black.promotion), names("Da1 Da2 Da3 Da4"));
    let nowhere = names("Aa4 Aa5 Aa6 Aa7 Da1 Da2 Da3 Da4");
    for t in [white, black] {
        let all: BTreeSet<String> = (0..64).map(|c| geo.name(c)).collect();
        let allowed = cell_names(t.allowed);
        assert_eq!(
            all.difference(&allowed).cloned().collect::<BTreeSet<_>>(),
            nowhere
        );
    }
}

/// The forward steps of the engine's formula walk exactly the rules file's lane lists.
#[test]
fn pawn_formula_walks_the_lanes() {
    let lanes = [
        "Da1 Db1 Dc1 Dd1 Cd1 Ce1 Cf1 Cg1 Cg2 Cg3 Cg4 Bg4 Bg5 Bg6 Bg7 Bf7 Be7 Bd7 Ad7 Ac7 Ab7 Aa7",
        "Da2 Db2 Dc2 Dd2 Cd2 Ce2 Cf2 Cf3 Cf4 Bf4 Bf5 Bf6 Be6 Bd6 Ad6 Ac6 Ab6 Aa6",
        "Da3 Db3 Dc3 Dd3 Cd3 Ce3 Ce4 Be4 Be5 Bd5 Ad5 Ac5 Ab5 Aa5",
        "Da4 Db4 Dc4 Dd4 Cd4 Bd4 Ad4 Ac4 Ab4 Aa4",
    ];
    let geo = PodionicPosition::geometry();
    let mut seen = 0;
    for lane in lanes {
        let cells: Vec<usize> = lane.split(' ').map(cell).collect();
        for w in cells.windows(2) {
            assert_eq!(
                TABLES.pawn[0].push[w[0]] as usize,
                w[1],
                "White from {}",
                geo.name(w[0])
            );
            assert_eq!(
                TABLES.pawn[1].push[w[1]] as usize,
                w[0],
                "Black from {}",
                geo.name(w[1])
            );
        }
        seen += cells.len();
    }
    assert_eq!(seen, 64, "the lanes cover the board");
}

/// The special moves the suite's positions are there for really are (or are not) legal.
#[test]
fn suite_positions_show_their_rules() {
    let suite = suite();
    let position = |id: &str| {
        let case = suite.cases.iter().find(|c| c.id == id).unwrap();
        common::case_position(Variant::Podionic, case)
    };
    let has = |id: &str, yes: &str, no: &str| {
        let g = position(id);
        let legal = engine_names(&g);
        for m in yes.split_whitespace() {
            assert!(legal.contains(m), "{id}: {m} should be legal");
        }
        for m in no.split_whitespace() {
            assert!(!legal.contains(m), "{id}: {m} should not be legal");
        }
        g
    };
    has(
        "slide-changes-level-twice",
        "Cf1Aa6 Cf1Ab5 Cf1Ac4 Cf1Dd3",
        "",
    );
    has("vertical-ride-blocked-halfway", "Ad4Bd4 Ad4Cd4", "Ad4Dd4");
    let g = has("knight-level-leap-check", "Bd4Ad4 Bd4Cd4", "Bd4Cd2");
    assert!(g.in_check());
    assert_eq!(g.count_moves(), 5);
    let g = has("knight-reverse-leap-is-no-check", "", "");
    assert!(!g.in_check());
    has("pawn-straight-capture-up", "Dd2Cd2", "Dd3Cd3 Dd2Dd3");
    has(
        "pawn-turns-at-cross-over",
        "Cf2Cf3 Cf2Cf4 Cf2Ce3 Cf2Cg3",
        "Cf2Cg2",
    );
    has("pawn-arrives-on-cross-over", "Cf2Cf3 Cf2Cf4", "");
    has(
        "promotion-on-lane-end",
        "Ab5Aa5q Ab5Aa5n Ab5Aa4r Ab5Aa6b",
        "Ab5Aa5",
    );
    has(
        "check-through-several-paths",
        "Bg4Bd4 Bg4Cd4 Cf3Cd4 Bg4Bd7",
        "Cg2Cd2 Cg2Dd2 Bg4Bd5",
    );
    let g = has("pins-through-two-corridors", "", "Cd3Ce2 Cd3Ce4 Dd3Db2");
    assert_eq!(g.count_moves(), 4);
    let g = position("checkmate");
    assert!(g.in_check() && g.count_moves() == 0);
    assert_eq!(g.outcome().map(|e| e.reason()), Some("checkmate"));
    let g = position("stalemate");
    assert!(!g.in_check() && g.count_moves() == 0);
    assert_eq!(g.outcome().map(|e| e.reason()), Some("stalemate"));
}

// FEN, notation and the draw rules.

#[test]
fn fen_errors_are_reported_not_panicked() {
    let bad = [
        "",
        "w",
        "bp2/kp2/np2/1p1p|brrp/q1p1/np2/4|4/NP2/Q1P1/BRRP w 0 1",
        "bp2/kp2/np2/1p1p|brrp/q1p1/np2/4|4/NP2/Q1P1/BRRP|1P1P/NP2/KP2/BP2 x 0 1",
        "bp2/kp2/np2/1p1p|brrp/q1p1/np2/4|4/NP2/Q1P1/BRRP|1P1P/NP2/KP2/BP2 w -1 1",
        "bp2/kp2/np2/1p1p|brrp/q1p1/np2/4|4/NP2/Q1P1/BRRP|1P1P/NP2/KP2/BP2 w 0 1 extra",
        "bp2/kp2/np2/1p1p|brrp/q1p1/np2/4|4/NP2/Q1P1/BRRP|1P1P/NP2/KP2/BP3 w 0 1",
        "bp2/kp2/np2/1p1p|brrp/q1p1/np2/4|4/NP2/Q1P1/BRRP|1P1P/NP2/KP2/BP w 0 1",
        "bp2/kp2/np2/1p1p|brrp/q1p1/np2/4|4/NP2/Q1P1/BRRP|1P1P/NP2/KP2/BX2 w 0 1",
        "bp2/kp2/np2/1p1p|brrp/q1p1/np2/4|4/NP2/Q1P1/BRRP|1P1P/NP2/KP2/B11P w 0 1",
        "bp2/kp2/np2/1p1p|brrp/q1p1/np2/4|4/NP2/Q1P1/BRRP|1P1P/NP2/KP2/B03 w 0 1",
        "bp2/kp2/np2/1p1p|brrp/q1p1/np2/4|4/NP2/Q1P1/BRRP|1P1P/NP2/1P2/BP2 w 0 1",
        "k3/4/4/4|4/4/4/4|4/4/4/4|P3/4/4/K3 w 0 1",
        "P3/4/4/k3|4/4/4/4|4/4/4/4|4/4/4/K3 w 0 1",
        "k3/4/4/4|4/4/4/4|4/4/4/4|4/4/4/K3/4 w 0 1",
        "k3/4/4/4|4/4/4/4|4/4/4/4|4/4/4/K3|4/4/4/4 w 0 1",
        "kä3/4/4/4|4/4/4/4|4/4/4/4|4/4/4/K3 w 0 1",
        "k3/4/4/4|4/4/4/4|4/4/4/4|4/4/4/K3 w 0 99999999999",
    ];
    for fen in bad {
        let r = AnyGame::from_fen(Variant::Podionic, fen);
        assert!(r.is_err(), "accepted: {fen}");
    }
    // Kings one vertical step apart: the side not to move is in check.
    assert!(AnyGame::from_fen(Variant::Podionic, "4/4/4/k3|4/4/4/4|4/4/4/4|K3/4/4/4 w").is_err());
    // Short forms take the start clocks.
    let g = engine("k3/4/4/4|4/4/4/4|4/4/4/4|4/4/4/K3 b");
    assert_eq!(g.fen(), "k3/4/4/4|4/4/4/4|4/4/4/4|4/4/4/K3 b 0 1");
}

#[test]
fn mutated_fens_never_panic() {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    let mut rng = StdRng::seed_from_u64(5);
    let alphabet: Vec<char> = "kqrbnpKQRBNP01234567|/ wb-x".chars().collect();
    for _ in 0..20_000 {
        let mut s: Vec<char> = START_FEN.chars().collect();
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
        let fen: String = s.into_iter().collect();
        if let Ok(mut g) = AnyGame::from_fen(Variant::Podionic, &fen) {
            common::check_position(&mut g);
        }
    }
}

#[test]
fn move_strings_are_parsed_strictly() {
    let g = engine(START_FEN);
    assert!(g.parse_move("Db2Dd2").is_ok());
    assert!(g.parse_move("Cd2Dd3").is_ok());
    for s in ["Db2Dd3", "Da1Db1", "Db2Dd2q", "Ab7Aa7q"] {
        assert!(
            matches!(g.parse_move(s), Err(strata::rules::MoveError::Illegal(_))),
            "{s}"
        );
    }
    for s in [
        "", "Db2", "db2dd2", "Db2Dd2x", "Db2Dd2qq", "Db2-Dd2", "Ee1Ee2", "Dé2Dd2", "Db2Dd22",
    ] {
        assert!(
            matches!(g.parse_move(s), Err(strata::rules::MoveError::Malformed(_))),
            "{s}"
        );
    }
}

#[test]
fn draw_rules() {
    // Bare Kings.
    let g = engine("k3/4/4/4|4/4/4/4|4/4/4/4|4/4/4/K3 w 0 1");
    assert_eq!(g.rule_draw(), Some("insufficient material"));
    // King and minor piece: not automatic (ruling 20).
    let g = engine("k3/4/4/4|4/4/4/4|4/4/4/4|4/4/N3/K3 w 0 1");
    assert_eq!(g.rule_draw(), None);
    // Fifty moves.
    let g = engine("k3/4/4/4|4/4/4/4|4/4/4/4|4/4/N3/K3 w 100 80");
    assert_eq!(g.rule_draw(), Some("fifty-move rule"));
    // Threefold repetition: Knights out and back twice.
    let mut g = engine(START_FEN);
    for (i, m) in ["Da3Dc2", "Aa5Ac6", "Dc2Da3", "Ac6Aa5"]
        .iter()
        .cycle()
        .take(8)
        .enumerate()
    {
        let mv = g.parse_move(m).unwrap();
        g.make(mv);
        let expected = (i + 1) / 4;
        assert_eq!(g.repetitions(), expected, "after {} moves", i + 1);
    }
    assert_eq!(
        g.outcome().map(|e| e.reason()),
        Some("threefold repetition")
    );
}

#[test]
fn drawing_shows_every_level_then_fen_and_key() {
    let g = engine(START_FEN);
    let d = g.drawing();
    for l in ["Level A", "Level B", "Level C", "Level D"] {
        assert!(d.contains(l), "{d}");
    }
    assert!(d.contains(&format!("Fen: {START_FEN}")));
    assert!(d.contains(&format!("Key: {:016X}", g.key())));
}
