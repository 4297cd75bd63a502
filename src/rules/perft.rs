//! Perft: the number of leaves of the legal-move tree, the standard check of a move
//! generator. The last ply is counted without making the moves (bulk counting).

use super::game::Game;
use super::moves::MoveList;

/// Counts the leaves of the legal-move tree of depth `depth` below `game`.
pub fn perft<G: Game>(game: &mut G, depth: u32) -> u64 {
    let mut lists: Vec<MoveList> = (0..depth).map(|_| MoveList::new()).collect();
    perft_rec(game, depth, &mut lists)
}

fn perft_rec<G: Game>(game: &mut G, depth: u32, lists: &mut [MoveList]) -> u64 {
    match depth {
        0 => 1,
        1 => game.count_moves(),
        _ => {
            let (list, rest) = lists.split_first_mut().expect("one list per ply");
            list.clear();
            game.generate(list);
            let mut nodes = 0;
            for &m in list.iter() {
                game.make(m);
                nodes += perft_rec(game, depth - 1, rest);
                game.unmake();
            }
            nodes
        }
    }
}

/// Perft split by root move: each legal move's name and its subtree count, in generation
/// order (what `go perft` prints).
pub fn divide<G: Game>(game: &mut G, depth: u32) -> Vec<(String, u64)> {
    let mut list = MoveList::new();
    game.generate(&mut list);
    list.iter()
        .map(|&m| {
            let name = game.move_name(m);
            game.make(m);
            let n = if depth <= 1 {
                1
            } else {
                perft(game, depth - 1)
            };
            game.unmake();
            (name, n)
        })
        .collect()
}
