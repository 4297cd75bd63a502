//! Chess and Pole Chess checked against an independent reference generator
//! (`tests/chess_reference`), and the position invariants over random playouts.

mod chess_reference;
mod common;

use std::collections::BTreeSet;
use std::path::Path;

use chess_reference::Pos;
use strata::rules::perft::perft;
use strata::rules::{AnyGame, Game, MoveFlag, MoveList, Variant};

fn engine_moves(g: &AnyGame) -> BTreeSet<String> {
    let mut list = MoveList::new();
    g.generate(&mut list);
    list.iter().map(|&m| g.move_name(m)).collect()
}

fn reference_of(g: &AnyGame) -> Pos {
    Pos::parse(&g.fen(), g.variant() == Variant::Pole)
}

/// Every non-slow number in the chess and Pole suite files equals the reference perft (up to
/// a node budget per line that keeps the slow reference quick).
#[test]
fn suite_numbers_match_the_reference_generator() {
    let mut checked = 0;
    for file in ["chess.perft", "pole.perft"] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/perft")
            .join(file);
        let suite = common::load_suite(&path);
        for case in &suite.cases {
            let g = common::case_position(suite.variant, case);
            let r = reference_of(&g);
            for &(depth, expected, slow) in &case.expect {
                if slow || expected > 400_000 {
                    continue;
                }
                assert_eq!(
                    r.perft(depth),
                    expected,
                    "{file} '{}' perft {depth}",
                    case.id
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 40, "only {checked} numbers were cross-checked");
}

/// Engine and reference list the same moves in every position of many random games, and
/// agree on perft 2 along the way; every invariant holds at every position.
fn playouts_agree(variant: Variant, fens: &[&str], seed: u64, games: usize) {
    for (i, fen) in fens.iter().enumerate() {
        let start = AnyGame::from_fen(variant, fen).expect("valid FEN");
        let mut n = 0u64;
        let positions = common::random_playouts(&start, seed + i as u64, games, 160, |g| {
            let r = reference_of(g);
            let reference: BTreeSet<String> = r.legal_moves().into_iter().map(|(m, _)| m).collect();
            assert_eq!(engine_moves(g), reference, "moves differ in {}", g.fen());
            n += 1;
            if n.is_multiple_of(16) {
                let e = strata::with_game!(g, p => perft(p, 2));
                assert_eq!(e, r.perft(2), "perft 2 differs in {}", g.fen());
            }
        });
        assert!(
            positions > games * 20,
            "playouts too short: {positions} positions"
        );
    }
}

const CHESS_STARTS: [&str; 3] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
];

#[test]
fn chess_playouts_agree_with_the_reference() {
    playouts_agree(Variant::Chess, &CHESS_STARTS, 1, 40);
}

#[test]
fn pole_playouts_agree_with_the_reference() {
    playouts_agree(
        Variant::Pole,
        &[
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Oo] w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R[Oo+] w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/2oPN3/1p1OP3/2N2Q1p/PPPBBPPP/R3K2R[+] w KQkq - 0 1",
        ],
        11,
        40,
    );
}

/// `may_give_check` is exact in chess and Pole Chess (castling and en passant
/// aside, which it answers `true`): it says a move checks exactly when making it checks.
#[test]
fn may_give_check_is_what_making_the_move_shows() {
    let starts = [
        (Variant::Chess, CHESS_STARTS[1]),
        (Variant::Chess, CHESS_STARTS[2]),
        (
            Variant::Pole,
            "r3k2r/p1ppqpb1/bn2pnp1/2oPN3/1p1OP3/2N2Q1p/PPPBBPPP/R3K2R[+] w KQkq - 0 1",
        ),
        (
            Variant::Pole,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Oo] w KQkq - 0 1",
        ),
    ];
    let (mut checks, mut quiet) = (0, 0);
    for (i, (variant, fen)) in starts.into_iter().enumerate() {
        let start = AnyGame::from_fen(variant, fen).expect("valid FEN");
        common::random_playouts(&start, 40 + i as u64, 30, 120, |g| {
            let mut list = MoveList::new();
            g.generate(&mut list);
            for &m in list.iter() {
                let said = g.may_give_check(m);
                g.make(m);
                let checks_now = g.in_check();
                g.unmake();
                if matches!(m.flag(), MoveFlag::Castle | MoveFlag::EnPassant) {
                    assert!(said, "{} in {}", g.move_name(m), g.fen());
                } else {
                    assert_eq!(said, checks_now, "{} in {}", g.move_name(m), g.fen());
                }
                if checks_now {
                    checks += 1;
                } else {
                    quiet += 1;
                }
            }
        });
    }
    assert!(
        checks > 1000 && quiet > 10 * checks,
        "{checks} checks, {quiet} not"
    );
}

/// `legal_without_generating` (which the search asks of the transposition table's move) says
/// a move is legal exactly when the generator lists it: in many positions of random games,
/// for every move listed anywhere so far (so mostly moves of other positions), for moves
/// to and from cells off the board, and for moves with flags chess never uses.
#[test]
fn a_single_move_is_legal_exactly_when_generated() {
    use std::collections::HashSet;
    use strata::rules::Move;
    let starts = [
        (Variant::Chess, CHESS_STARTS[0]),
        (Variant::Chess, CHESS_STARTS[1]),
        (Variant::Chess, CHESS_STARTS[2]),
        (
            Variant::Chess,
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        ),
        (
            Variant::Pole,
            "r3k2r/p1ppqpb1/bn2pnp1/2oPN3/1p1OP3/2N2Q1p/PPPBBPPP/R3K2R[+] w KQkq - 0 1",
        ),
        (
            Variant::Pole,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Oo] w KQkq - 0 1",
        ),
    ];
    let odd = [
        Move::NONE,
        Move(u32::MAX),
        Move::normal(64, 8),
        Move::normal(12, 300),
        Move::with_flag(12, 28, MoveFlag::Shot),
        Move::with_flag(12, 28, MoveFlag::Pass),
        Move::promotion_to(52, 60, 5),
    ];
    let mut pool: HashSet<Move> = HashSet::new();
    let (mut legal, mut illegal) = (0usize, 0usize);
    let mut legal_by_flag: HashSet<u32> = HashSet::new();
    for (i, (variant, fen)) in starts.into_iter().enumerate() {
        let start = AnyGame::from_fen(variant, fen).expect("valid FEN");
        common::random_playouts(&start, 70 + i as u64, 8, 120, |g| {
            let mut list = MoveList::new();
            g.generate(&mut list);
            let listed: HashSet<Move> = list.iter().copied().collect();
            pool.extend(listed.iter().copied());
            for &m in pool.iter().chain(odd.iter()) {
                let is = listed.contains(&m);
                assert_eq!(
                    g.legal_without_generating(m),
                    Some(is),
                    "move {m:?} ({}) in {}",
                    if is { g.move_name(m) } else { String::new() },
                    g.fen()
                );
                if is {
                    legal += 1;
                    legal_by_flag.insert(m.flag() as u32 * 8 + m.promotion().is_some() as u32);
                } else {
                    illegal += 1;
                }
            }
        });
    }
    // Plain moves, promotions, double steps, en passant, castling and drops were all seen
    // legal at least once.
    for flag in [
        MoveFlag::Normal,
        MoveFlag::DoubleStep,
        MoveFlag::EnPassant,
        MoveFlag::Castle,
    ] {
        assert!(legal_by_flag.contains(&(flag as u32 * 8)), "{flag:?}");
    }
    assert!(legal_by_flag.contains(&1), "promotion");
    assert!(
        legal_by_flag.contains(&(MoveFlag::Drop as u32 * 8 + 1)),
        "drop"
    );
    assert!(
        legal > 100_000 && illegal > 20 * legal,
        "{legal} legal, {illegal} not"
    );
}

/// Pole rules that are easiest to state as single facts.
#[test]
fn pole_facts() {
    let mut g = AnyGame::startpos(Variant::Pole);
    assert!(
        !engine_moves(&g).iter().any(|m| m.starts_with("O@")),
        "no Pole move before a capture"
    );
    for m in ["e2e4", "d7d5", "e4d5"] {
        let mv = g.parse_move(m).unwrap();
        g.make(mv);
    }
    let moves = engine_moves(&g);
    let drops = moves.iter().filter(|m| m.starts_with("O@")).count();
    assert_eq!(
        drops, 33,
        "Black may drop on each of the 33 empty squares after the first capture"
    );
    assert!(g.fen().contains("[Oo+]"));
    // A Pole can be neither captured nor passed by a slider.
    let g = AnyGame::from_fen(Variant::Pole, "4k3/8/8/3o4/4P3/8/8/R2QK3[O+] w - - 0 1").unwrap();
    let moves = engine_moves(&g);
    assert!(!moves.contains("e4d5"), "a pawn does not capture a Pole");
    assert!(moves.contains("d1d4") && !moves.contains("d1d5") && !moves.contains("d1d6"));
    // Chess rejects Poles in a FEN.
    assert!(AnyGame::from_fen(Variant::Chess, "4k3/8/8/3o4/4P3/8/8/R2QK3[O+] w - - 0 1").is_err());
}

/// Found by `tests/fuzz.rs`: a four-byte string with a multi-byte character (`a\u{e9}1`) made
/// the move parser slice inside the character and panic, which killed the engine on
/// `position startpos moves a\u{e9}1`.
#[test]
fn non_ascii_move_text_is_an_error_not_a_panic() {
    for variant in [Variant::Chess, Variant::Pole] {
        let g = AnyGame::startpos(variant);
        for s in [
            "a\u{e9}1",
            "\u{10a87a}3",
            "e2\u{e9}4",
            "e7e8\u{e9}",
            "O@\u{e9}4",
            "\u{e9}\u{e9}",
        ] {
            assert!(g.parse_move(s).is_err(), "{s:?}");
            assert!(!g.is_move_syntax(s), "{s:?}");
        }
    }
}

/// Chess960: every invariant (FEN round trip, keys, make/unmake, names parsed back) over
/// random games from twelve start positions, in Chess960 notation and without it, and every
/// castling move that occurs is named both ways and read back.
#[test]
fn chess960_playouts_keep_every_invariant() {
    let mut castles = 0;
    for (i, n) in [0, 1, 77, 200, 333, 400, 518, 600, 700, 801, 900, 959]
        .iter()
        .enumerate()
    {
        let fen = strata::rules::chess::chess960_start_fen(*n);
        let mut start = AnyGame::from_fen(Variant::Chess, &fen).expect("valid FEN");
        start.set_chess960(i % 2 == 0);
        common::random_playouts(&start, 960 + i as u64, 12, 120, |g| {
            let mut list = MoveList::new();
            g.generate(&mut list);
            for &m in list.iter() {
                if m.flag() == strata::rules::MoveFlag::Castle {
                    castles += 1;
                    let king_takes_rook =
                        format!("{}{}", g.cell_name(m.from()), g.cell_name(m.to()));
                    assert_eq!(g.parse_move(&king_takes_rook), Ok(m), "{}", g.fen());
                }
            }
        });
    }
    assert!(castles > 50, "only {castles} castling moves were seen");
}
