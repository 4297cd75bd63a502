//! Perft: the number of leaves of the legal-move tree, the standard check of a move
//! generator. The last ply is counted without making the moves (bulk counting).
//!
//! [`divide`] counts each root move's subtree, on several threads if asked (root moves shared
//! out with rayon; the counts are the same), can be stopped between and inside subtrees, and
//! reports each root move as it is finished.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use rayon::prelude::*;

use super::game::Game;
use super::moves::MoveList;

/// The deepest perft the engine counts (the protocol's `go perft` and `strata perft` refuse
/// more): far beyond what finishes (chess's deepest published count is depth 15), and it
/// keeps the per-ply move lists a perft allocates small.
pub const MAX_PERFT_DEPTH: u32 = 30;

/// Counts the leaves of the legal-move tree of depth `depth` below `game`.
pub fn perft<G: Game>(game: &mut G, depth: u32) -> u64 {
    let never = AtomicBool::new(false);
    perft_until(game, depth, &never).unwrap_or(0)
}

/// [`perft`], or `None` if `stop` was raised before it finished.
pub fn perft_until<G: Game>(game: &mut G, depth: u32, stop: &AtomicBool) -> Option<u64> {
    let mut lists: Vec<MoveList> = (0..depth).map(|_| MoveList::new()).collect();
    perft_rec(game, depth, &mut lists, stop)
}

fn perft_rec<G: Game>(
    game: &mut G,
    depth: u32,
    lists: &mut [MoveList],
    stop: &AtomicBool,
) -> Option<u64> {
    match depth {
        0 => Some(1),
        1 => Some(game.count_moves()),
        _ => {
            // One look at the flag per interior node: a few per thousand leaves.
            if stop.load(Relaxed) {
                return None;
            }
            let (list, rest) = lists.split_first_mut().expect("one list per ply");
            list.clear();
            game.generate(list);
            let mut nodes = 0;
            for &m in list.iter() {
                game.make(m);
                let n = perft_rec(game, depth - 1, rest, stop);
                game.unmake();
                nodes += n?;
            }
            Some(nodes)
        }
    }
}

/// Perft split by root move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Divide {
    /// Each finished root move's name and subtree count, in generation order.
    pub rows: Vec<(String, u64)>,
    /// The number of legal root moves.
    pub root_moves: usize,
    /// Whether `stop` ended the count early (then `rows` holds the root moves finished).
    pub stopped: bool,
}

impl Divide {
    /// The total of the finished rows.
    pub fn nodes(&self) -> u64 {
        self.rows.iter().map(|(_, n)| n).sum()
    }
}

/// Perft split by root move: each legal move's name and its subtree count. With `threads`
/// above 1 the root moves are shared out over that many threads. `finished(name, count,
/// done, total)` is called as each root move is finished (in finishing order; `done` of
/// `total` root moves are then finished). Stops early, with the moves finished so far, once
/// `stop` is raised.
pub fn divide<G: Game>(
    game: &G,
    depth: u32,
    threads: usize,
    stop: &AtomicBool,
    finished: &(dyn Fn(&str, u64, usize, usize) + Sync),
) -> Divide {
    let mut list = MoveList::new();
    game.generate(&mut list);
    let total = list.len();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let count = |m: &crate::rules::Move| -> Option<(String, u64)> {
        let mut g = game.clone();
        let name = g.move_name(*m);
        g.make(*m);
        let n = if depth <= 1 {
            Some(1)
        } else {
            perft_until(&mut g, depth - 1, stop)
        }?;
        finished(&name, n, done.fetch_add(1, Relaxed) + 1, total);
        Some((name, n))
    };
    let rows: Vec<Option<(String, u64)>> = if threads <= 1 {
        list.iter()
            .map_while(|m| (!stop.load(Relaxed)).then(|| count(m)))
            .collect()
    } else {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("perft threads start");
        pool.install(|| list.as_slice().par_iter().map(count).collect())
    };
    let rows: Vec<(String, u64)> = rows.into_iter().flatten().collect();
    Divide {
        stopped: rows.len() < total,
        rows,
        root_moves: total,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{AnyGame, Variant};

    #[test]
    fn divide_on_threads_matches_perft_and_stops() {
        let never = AtomicBool::new(false);
        for v in Variant::ALL {
            let g = AnyGame::startpos(v);
            let one = divide(&g, 3, 1, &never, &|_, _, _, _| {});
            let two = divide(&g, 3, 2, &never, &|_, _, _, _| {});
            assert_eq!(one, two, "{}", v.name());
            assert!(!one.stopped && one.rows.len() == one.root_moves);
            assert_eq!(one.nodes(), perft(&mut g.clone(), 3), "{}", v.name());
        }
        // A raised flag stops at once: nothing finished.
        let stop = AtomicBool::new(true);
        let g = AnyGame::startpos(Variant::Chess);
        for threads in [1, 2] {
            let d = divide(&g, 5, threads, &stop, &|_, _, _, _| {});
            assert!(d.stopped && d.rows.is_empty() && d.root_moves == 20);
        }
        assert_eq!(perft_until(&mut g.clone(), 3, &stop), None);
    }
}
