//! The root of the search: every root move from the current principal variation's index on,
//! best first, each one's score, bound and principal variation kept for reporting and for the
//! next iteration's ordering.

use super::INFINITE;
use super::tt::Bound;
use super::worker::Worker;
use crate::eval::Evaluate;

impl<G: Evaluate> Worker<'_, G> {
    /// Searches the root moves from `pv_idx` on at `depth` within (`alpha`, `beta`). Returns
    /// the best score.
    pub(super) fn root_search(
        &mut self,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        pv_idx: usize,
    ) -> i32 {
        let team = self.pos.team_to_move();
        let alpha0 = alpha;
        let mut best = -INFINITE;
        for rm in &mut self.root_moves[pv_idx..] {
            rm.score = -INFINITE;
        }
        for i in pv_idx..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            self.arrivals[0] = self.history.arrival(self.pos.moved_piece(m), m);
            let nodes_before = self.nodes;
            self.make_move(m);
            let same = self.pos.team_to_move() == team;
            let new_depth = depth - 1 + self.pos.in_check() as i32;
            self.pv[1].clear();
            let v = if i == pv_idx {
                self.child::<true>(same, new_depth, alpha, beta, 1, false)
            } else {
                let mut v = self.child::<false>(same, new_depth, alpha, alpha + 1, 1, true);
                if v > alpha && v < beta {
                    v = self.child::<true>(same, new_depth, alpha, beta, 1, false);
                }
                v
            };
            self.pos.unmake();
            self.root_moves[i].nodes = self.nodes - nodes_before;
            if self.stopped {
                return best;
            }
            if i == pv_idx || v > alpha {
                self.record_root_move(i, v, alpha0, beta);
            }
            best = best.max(v);
            if v > alpha {
                alpha = v;
                if v >= beta {
                    break;
                }
            }
        }
        best
    }

    /// Stores root move `i`'s score `v` (a bound unless it fell inside the window the search
    /// started with) and its principal variation.
    fn record_root_move(&mut self, i: usize, v: i32, alpha0: i32, beta: i32) {
        let seldepth = self.seldepth;
        let child_pv = std::mem::take(&mut self.pv[1]);
        let rm = &mut self.root_moves[i];
        rm.score = v;
        rm.seldepth = seldepth;
        rm.bound = if v >= beta {
            Bound::Lower
        } else if v <= alpha0 {
            Bound::Upper
        } else {
            Bound::Exact
        };
        let mv = rm.mv;
        rm.pv.clear();
        rm.pv.push(mv);
        rm.pv.extend_from_slice(&child_pv);
        self.pv[1] = child_pv;
    }
}
