//! What the rules layer tells a player (and the GUI) beside the legal moves: each board's
//! drawable layout, the piece names, what is in hand, which Kings are in danger, and why a
//! move is refused.

use strata::rules::{AnyGame, Game, Variant};

fn game(variant: Variant, fen: &str) -> AnyGame {
    AnyGame::from_fen(variant, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The cell named `name` (through the layout, as the GUI finds it).
fn cell(variant: Variant, name: &str) -> usize {
    variant
        .layout()
        .cells
        .iter()
        .position(|c| c.name == name)
        .unwrap_or_else(|| panic!("no cell {name}"))
}

fn why(variant: Variant, fen: &str, from: &str, to: &str) -> String {
    let g = game(variant, fen);
    let (f, t) = (cell(variant, from), cell(variant, to));
    let mut legal = strata::rules::MoveList::new();
    g.generate(&mut legal);
    assert!(
        !legal.iter().any(|m| m.from() == f && m.to() == t),
        "{from}{to} is legal in {fen}"
    );
    g.explain_illegal(f, t)
}

#[test]
fn every_layout_lists_its_levels_and_names_its_cells() {
    for (v, levels, cells) in [
        (Variant::Chess, 1, 64),
        (Variant::Pole, 1, 64),
        (Variant::Polyhedron, 5, 300),
        (Variant::Podionic, 4, 64),
        (Variant::Pentaplane, 5, 125),
        (Variant::FutureGeneration, 4, 256),
    ] {
        let l = v.layout();
        assert_eq!(
            (l.levels.len(), l.cells.len()),
            (levels, cells),
            "{}",
            v.name()
        );
        let g = AnyGame::startpos(v);
        for (i, c) in l.cells.iter().enumerate() {
            assert_eq!(c.name, g.cell_name(i), "{}", v.name());
        }
        // Every piece on the start position has a name.
        for i in 0..cells {
            let p = g.piece_at(i);
            if p.is_some() {
                assert!((p.kind() as usize) < v.info().pieces.len(), "{}", v.name());
            }
        }
    }
    let poly = Variant::Polyhedron.layout();
    assert_eq!(poly.levels[0].files, (2, 7));
    assert_eq!(poly.levels[2].files, (0, 9));
    let pod = Variant::Podionic.layout();
    assert_eq!((pod.levels[1].files, pod.levels[1].ranks), ((3, 6), (3, 6)));
}

#[test]
fn refusals_in_chess_and_pole_chess() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(
        why(Variant::Chess, start, "e4", "e5"),
        "there is no piece on e4"
    );
    assert_eq!(
        why(Variant::Chess, start, "e7", "e5"),
        "the pawn on e7 is Black's, and White is to move"
    );
    assert_eq!(
        why(Variant::Chess, start, "g1", "e2"),
        "e2 is held by your own pawn"
    );
    assert_eq!(
        why(Variant::Chess, start, "g1", "g3"),
        "the knight on g1 does not move to g3"
    );
    assert!(
        why(
            Variant::Chess,
            "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1",
            "e1",
            "g1"
        )
        .starts_with("castling needs")
    );
    // The e-file pin: the Bishop on e2 may not leave the file.
    let pin = "4r1k1/8/8/8/8/8/4B3/4K3 w - - 0 1";
    assert_eq!(
        why(Variant::Chess, pin, "e2", "d3"),
        "moving the bishop from e2 would leave your King in check"
    );
    assert_eq!(
        why(Variant::Chess, pin, "e1", "e2"),
        "e2 is held by your own bishop"
    );
    assert_eq!(
        why(
            Variant::Chess,
            "4r1k1/8/8/8/8/8/8/3K4 w - - 0 1",
            "d1",
            "e1"
        ),
        "the King would be in check on e1"
    );
    let check = "4r1k1/8/8/8/8/8/3N4/4K3 w - - 0 1";
    assert_eq!(
        why(Variant::Chess, check, "d2", "c4"),
        "your King is in check, and this move does not get it out"
    );
    assert_eq!(
        game(Variant::Chess, check).kings_in_danger(),
        vec![cell(Variant::Chess, "e1")]
    );
    assert!(game(Variant::Chess, start).kings_in_danger().is_empty());
    // Pole Chess: no Pole before the first capture; a Pole cannot be captured.
    let pole_start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Oo] w KQkq - 0 1";
    assert_eq!(
        why(Variant::Pole, pole_start, "e4", "e4"),
        "Poles may be played only after the first capture of the game"
    );
    let g = game(Variant::Pole, pole_start);
    assert_eq!(g.in_hand(strata::rules::piece::Colour::WHITE), vec![(6, 1)]);
    assert_eq!(
        g.notes(),
        vec!["Poles become available after the first capture".to_string()]
    );
    let pole_on_board = "4k3/8/8/3o4/8/8/8/3QK3[O+] w - - 0 1";
    assert_eq!(
        why(Variant::Pole, pole_on_board, "d1", "d5"),
        "d5 holds a Pole, which cannot be captured"
    );
    assert!(
        game(Variant::Pole, pole_on_board)
            .in_hand(strata::rules::piece::Colour::BLACK)
            .is_empty()
    );
}

#[test]
fn refusals_and_holdings_in_the_3d_variants() {
    // Polyhedron: a pawn may reach its last rank only by promoting from the reserve.
    let poly = "6/6/6/6/6/6|8/8/8/8/8/8/8/8|4k5/10/10/10/10/10/10/10/10/4K5|8/8/8/8/8/8/8/8|6/P5/6/6/6/6[] w - 0 1";
    assert_eq!(
        why(Variant::Polyhedron, poly, "Ec7", "Ec8"),
        "a pawn on the last rank of its level must promote to a piece of White's reserve, and \
         the reserve is empty"
    );
    let with_reserve = poly.replace("[]", "[QN]");
    let g = game(Variant::Polyhedron, &with_reserve);
    assert_eq!(
        g.in_hand(strata::rules::piece::Colour::WHITE),
        vec![(1, 1), (8, 1)]
    );
    // Pentaplane: no check rule; a King next to an enemy Rook is in danger.
    let penta = "5/5/5/5/K4|5/5/5/5/5|2k2/5/5/5/5|5/5/5/5/5|5/5/5/5/r4 b 0 1";
    let g = game(Variant::Pentaplane, penta);
    assert_eq!(
        g.kings_in_danger(),
        vec![cell(Variant::Pentaplane, "Aa1")],
        "the black Rook on Ea1 reaches the white King on Aa1"
    );
    assert_eq!(
        why(Variant::Pentaplane, penta, "Ea1", "Db2"),
        "the rook on Ea1 does not move to Db2"
    );
    // The four-colour game: a locked colour may not go beyond its gate level.
    let fg = "4bK3/8/8/8/8/8/8/4wK3|8/8/8/8/8/8/8/3wR4|8/8/8/8/8/8/8/8|8/8/8/8/sK6gK/8/8/8 w - - - - 0 1";
    assert_eq!(
        why(Variant::FutureGeneration, fg, "Bd1", "Cd1"),
        "White has not unlocked level C yet: it moves beyond level B once four of its pieces \
         stand on level B"
    );
    assert_eq!(
        why(Variant::FutureGeneration, fg, "Bd1", "Ce2"),
        "the rook on Bd1 does not move to Ce2"
    );
    let g = game(Variant::FutureGeneration, fg);
    assert!(g.kings_in_danger().is_empty());
    assert!(g.notes().is_empty());
    let unlocked = fg
        .replace("w - - - - 0 1", "w - - w s 0 1")
        .replace("sK6gK", "7gK");
    let g = game(Variant::FutureGeneration, &unlocked);
    assert_eq!(
        g.notes(),
        vec![
            "White is unlocked".to_string(),
            "Silver is eliminated".to_string()
        ]
    );
}
