//! The search finds forced wins in every 3D variant. Each win is first proved by brute force
//! over the rules layer alone (every defence tried), so the test checks the search against
//! the rules, not against itself. Searches are depth-limited.

use strata::rules::{AnyGame, Game, GameEnd, MoveList, Variant};
use strata::search::{Limits, MATE, Settings, Shared, Silent, search, thread_pool};
use strata::with_game;

/// Whether `team` wins by force within `plies` plies (its own moves and the other team's
/// replies), by the referee's own end-of-game test.
fn forced_win(g: &mut AnyGame, team: usize, plies: u32) -> bool {
    match g.outcome() {
        Some(GameEnd::Win { winner, .. }) => return winner == team,
        Some(GameEnd::Draw { .. }) => return false,
        None => {}
    }
    if plies == 0 {
        return false;
    }
    let mut list = MoveList::new();
    g.generate(&mut list);
    let ours = g.team_to_move() == team;
    let mut result = !ours;
    for &m in list.iter() {
        g.make(m);
        let w = forced_win(g, team, plies - 1);
        g.unmake();
        if ours && w {
            result = true;
            break;
        }
        if !ours && !w {
            result = false;
            break;
        }
    }
    result
}

/// Searches `fen` to `depth`; the move found must start a forced win in `plies` plies, proved
/// by [`forced_win`], and the score must say so.
fn check(variant: Variant, fen: &str, depth: u32, plies: u32) -> String {
    let game = AnyGame::from_fen(variant, fen).expect("valid FEN");
    let team = game.team_to_move();
    let mut proof = game.clone();
    assert!(
        forced_win(&mut proof, team, plies),
        "{fen}: no forced win in {plies} plies"
    );
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let shared = Shared::new(16);
    let pool = thread_pool(1);
    let out =
        with_game!(&game, g => search(g, &limits, &Settings::default(), &shared, &Silent, &pool));
    let best = out.best.expect("a move");
    let mut after = game.clone();
    after.make(best);
    assert!(
        forced_win(&mut after, team, plies - 1),
        "{fen}: {} does not keep the forced win",
        game.move_name(best)
    );
    assert!(
        out.score >= MATE - plies as i32,
        "{fen}: score {} is not a win in {plies} plies",
        out.score
    );
    game.move_name(best)
}

#[test]
fn polyhedron_mate_through_a_level() {
    // The Queen on Dd5 mates the King in the top level's corner (Ec8) from Dd7, one level
    // below, among 100-odd legal moves.
    let m = check(
        Variant::Polyhedron,
        "6/6/6/6/6/6|8/8/8/8/8/8/8/8|10/10/10/10/10/10/10/10/10/9K|1r6/p7/8/8/2Q5/8/8/2R5|k5/6/6/6/6/6[] w - 0 1",
        4,
        1,
    );
    assert_eq!(m, "Dd5Dd7");
}

#[test]
fn podionic_mates_in_two_with_a_level_changing_queen() {
    // White's first move is a Queen slide from level D up to level A.
    let m = check(
        Variant::Podionic,
        "kb2/4/4/4|4/4/4/3N|1R2/1K2/4/4|4/3p/3Q/4 w 0 1",
        6,
        3,
    );
    assert_eq!(m, "Dd2Aa5");
    check(
        Variant::Podionic,
        "3Q/2b1/4/4|4/4/4/1Nk1|K3/4/4/1p2|R3/4/4/4 w 0 1",
        6,
        3,
    );
    check(
        Variant::Podionic,
        "4/4/4/K3|4/R3/2NQ/4|2p1/4/1k2/4|4/4/3b/4 w 0 1",
        6,
        3,
    );
    check(
        Variant::Podionic,
        "k3/4/2N1/4|4/3R/1p2/4|4/4/4/3K|4/4/4/1R2 w 0 1",
        4,
        1,
    );
}

#[test]
fn pentaplane_blows_up_the_king_through_a_chain() {
    // The rules file's example: the Fortress shoots the Bomb on Cc3, which ignites Cd4, whose
    // blast reaches the Black King on Cc5.
    let m = check(
        Variant::Pentaplane,
        "5/5/5/5/K4|2p2/5/5/5/5|2k2/3O1/F1o2/5/5|5/5/5/5/5|4n/5/5/5/5 w 0 1",
        3,
        1,
    );
    assert_eq!(m, "Ca3*Cc3");
}

#[test]
fn future_generation_captures_the_second_king() {
    // Black is eliminated; capturing Silver's King ends the game for White's team.
    let m = check(
        Variant::FutureGeneration,
        "7bR/8/8/8/8/8/8/4wK3|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|7gK/8/8/8/sK2wR4/8/8/1sP6 w - - w b 0 1",
        3,
        1,
    );
    assert_eq!(m, "Dd4Da4");
}
