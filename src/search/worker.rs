//! One search thread: its own position copy, histories and stacks, and the alpha-beta search.

use std::sync::atomic::Ordering::{Acquire, Relaxed};

use super::ordering::{
    History, KILLER, is_under_promotion, loses_material, pick, score_moves, tactical_score,
};
use super::time::Budget;
use super::tt::{Bound, Entry};
use super::{
    INFINITE, Iteration, Limits, MATE, MATE_BOUND, MAX_PLY, Outcome, Reporter, Settings, Shared,
    end_score, score_from_tt, score_to_tt,
};
use crate::eval::Evaluate;
use crate::rules::{Move, MoveList};

/// A root move and what the last search of it found.
#[derive(Clone, Debug)]
struct RootMove {
    mv: Move,
    score: i32,
    prev_score: i32,
    pv: Vec<Move>,
    seldepth: usize,
    bound: Bound,
}

/// From this many plies into the quiescence search, only recaptures are searched.
const QS_RECAPTURES_ONLY: i32 = 5;

/// Late-move reductions by depth and move number.
fn reduction(depth: i32, moves: usize) -> i32 {
    if depth < 3 || moves < 2 {
        return 0;
    }
    (0.75 + (depth as f64).ln() * (moves as f64).ln() / 2.25) as i32
}

/// A search thread's own state.
pub(super) struct Worker<'a, G: Evaluate> {
    id: usize,
    pos: G,
    shared: &'a Shared,
    limits: &'a Limits,
    settings: &'a Settings,
    budget: Option<Budget>,
    reporter: &'a dyn Reporter,
    root_moves: Vec<RootMove>,
    nodes: u64,
    flushed: u64,
    seldepth: usize,
    stopped: bool,
    killers: Vec<[Move; 2]>,
    history: History,
    lists: Vec<MoveList>,
    scores: Vec<Vec<i32>>,
    pv: Vec<Vec<Move>>,
}

impl<'a, G: Evaluate> Worker<'a, G> {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        id: usize,
        pos: G,
        shared: &'a Shared,
        limits: &'a Limits,
        settings: &'a Settings,
        budget: Option<Budget>,
        moves: &[Move],
        reporter: &'a dyn Reporter,
    ) -> Self {
        Worker {
            id,
            pos,
            shared,
            limits,
            settings,
            budget,
            reporter,
            root_moves: moves
                .iter()
                .map(|&mv| RootMove {
                    mv,
                    score: -INFINITE,
                    prev_score: -INFINITE,
                    pv: vec![mv],
                    seldepth: 0,
                    bound: Bound::Exact,
                })
                .collect(),
            nodes: 0,
            flushed: 0,
            seldepth: 0,
            stopped: false,
            killers: vec![[Move::NONE; 2]; MAX_PLY + 2],
            history: History::new(),
            lists: (0..MAX_PLY + 2).map(|_| MoveList::new()).collect(),
            scores: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(256)).collect(),
            pv: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(32)).collect(),
        }
    }

    /// Adds this thread's new nodes to the shared counter; the main thread also checks the
    /// limits. Then reads the stop flags.
    fn poll(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.nodes - self.flushed, Relaxed);
        self.flushed = self.nodes;
        if self.id == 0 {
            // Acquire: after a `ponderhit`, the restarted clock is seen too.
            let pondering = self.shared.pondering.load(Acquire);
            if let Some(b) = self.budget
                && !pondering
                && self.shared.elapsed() >= b.maximum
            {
                self.shared.done.store(true, Relaxed);
            }
            if let Some(n) = self.limits.nodes
                && self.shared.nodes() >= n
            {
                self.shared.done.store(true, Relaxed);
            }
        }
        self.stopped = self.shared.stop.load(Relaxed) || self.shared.done.load(Relaxed);
    }

    /// Counts a node: a position the search enters. The root is one (counted once, when the
    /// search starts), and so is every position a move or a null move leads to, in the root,
    /// main and quiescence searches alike; searching a position again (a re-search after a
    /// null-window fail high) does not count it again. This is how Stockfish counts (one node
    /// per `do_move`, plus the root here).
    #[inline(always)]
    fn count_node(&mut self) {
        self.nodes += 1;
        // The main thread, which watches the clock, looks often: a node of a crowded 3D
        // position can cost tens of microseconds, and with a few milliseconds left, 1024 of
        // them overran the clock.
        let mask = if self.id == 0 { 127 } else { 1023 };
        if self.nodes & mask == 0 || (self.limits.nodes.is_some() && self.id == 0) {
            self.poll();
        }
    }

    fn total_nodes(&self) -> u64 {
        self.shared.nodes() + (self.nodes - self.flushed)
    }

    /// Iterative deepening. Returns the result of the last completed iteration.
    pub fn iterate(&mut self) -> Outcome {
        let max_depth = self
            .limits
            .depth
            .map(|d| d as i32)
            .unwrap_or(MAX_PLY as i32 - 2)
            .clamp(1, MAX_PLY as i32 - 2);
        // The root is a node too (Stockfish does not count it; "go depth 1" then reports
        // 1 + the number of legal moves).
        self.count_node();
        let multipv = self.settings.multipv.clamp(1, self.root_moves.len());
        let mut done = Outcome {
            best: Some(self.root_moves[0].mv),
            pv: vec![self.root_moves[0].mv],
            ..Outcome::default()
        };
        for depth in 1..=max_depth {
            // Lazy SMP: helper threads skip every other depth, so that they run ahead of the
            // main thread and fill the shared table with deeper results.
            // The last depth is never skipped: a helper that reaches it first ends the search.
            if self.id > 0 && depth > 1 && depth < max_depth && (depth + self.id as i32) % 2 == 1 {
                continue;
            }
            // A depth another thread has completed is not searched again.
            if depth < max_depth && depth <= self.shared.completed.load(Relaxed) {
                continue;
            }
            for pv_idx in 0..multipv {
                self.seldepth = 0;
                let prev = self.root_moves[pv_idx].prev_score;
                let mut delta = 25;
                let (mut alpha, mut beta) = if depth >= 4 && prev.abs() < MATE_BOUND {
                    ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
                } else {
                    (-INFINITE, INFINITE)
                };
                loop {
                    let v = self.root_search(depth, alpha, beta, pv_idx);
                    self.root_moves[pv_idx..]
                        .sort_by_key(|r| std::cmp::Reverse((r.score, r.prev_score)));
                    if self.stopped {
                        break;
                    }
                    if v <= alpha {
                        beta = (alpha + beta) / 2;
                        alpha = (v - delta).max(-INFINITE);
                    } else if v >= beta {
                        beta = (v + delta).min(INFINITE);
                    } else {
                        break;
                    }
                    if self.id == 0 && self.shared.elapsed().as_millis() > 2000 {
                        self.report(depth, pv_idx);
                    }
                    delta += delta / 2;
                }
                self.root_moves[..=pv_idx]
                    .sort_by_key(|r| std::cmp::Reverse((r.score, r.prev_score)));
                if self.stopped {
                    break;
                }
            }
            if self.stopped {
                // An interrupted iteration still tells something: the moves it finished are
                // scored (the others hold -INFINITE). With no completed iteration, its best
                // is better than an unsearched move; later, a move that beat the previous
                // best with an exact score at the new depth is taken.
                let partial = &self.root_moves[0];
                let better = partial.score > -INFINITE
                    && (done.depth == 0
                        || (partial.bound == Bound::Exact && partial.score > done.score));
                if better {
                    done = Outcome {
                        best: Some(partial.mv),
                        ponder: partial.pv.get(1).copied(),
                        score: partial.score,
                        depth: done.depth,
                        nodes: 0,
                        pv: partial.pv.clone(),
                    };
                }
                break;
            }
            let best = &self.root_moves[0];
            done = Outcome {
                best: Some(best.mv),
                ponder: best.pv.get(1).copied(),
                score: best.score,
                depth,
                nodes: 0,
                pv: best.pv.clone(),
            };
            for rm in &mut self.root_moves {
                rm.prev_score = rm.score;
            }
            self.shared.completed.fetch_max(depth, Relaxed);
            if self.id == 0 {
                for i in 0..multipv {
                    self.report(depth, i);
                }
                if self.should_stop_after_iteration(depth) {
                    self.shared.done.store(true, Relaxed);
                    break;
                }
            }
            if depth == max_depth && self.limits.depth.is_some() {
                // The depth asked for is reached, by whichever thread got there first.
                self.shared.done.store(true, Relaxed);
            }
        }
        self.poll();
        done
    }

    fn should_stop_after_iteration(&self, _depth: i32) -> bool {
        if let Some(mate) = self.limits.mate {
            let s = self.root_moves[0].score;
            if s >= MATE_BOUND && (MATE - s + 1) / 2 <= mate as i32 {
                return true;
            }
        }
        if self.shared.pondering.load(Relaxed) {
            return false;
        }
        if let Some(b) = self.budget {
            // The next iteration would most likely not finish in the optimum time.
            if self.shared.elapsed() >= b.optimum.mul_f64(0.55) {
                return true;
            }
            // A single legal move needs no thought.
            if self.root_moves.len() == 1 && !self.limits.infinite {
                return true;
            }
        }
        false
    }

    fn report(&mut self, depth: i32, pv_idx: usize) {
        let rm = self.root_moves[pv_idx].clone();
        let mut names = Vec::with_capacity(rm.pv.len());
        let mut made = 0;
        for &m in &rm.pv {
            names.push(self.pos.move_name(m));
            self.pos.make(m);
            made += 1;
        }
        for _ in 0..made {
            self.pos.unmake();
        }
        let score = if rm.score == -INFINITE {
            rm.prev_score
        } else {
            rm.score
        };
        self.reporter.iteration(&Iteration {
            depth,
            seldepth: rm.seldepth.max(depth as usize),
            multipv: pv_idx + 1,
            score: score.clamp(-MATE, MATE),
            bound: rm.bound,
            nodes: self.total_nodes(),
            time: self.shared.elapsed(),
            hashfull: self.shared.tt.hashfull(),
            pv: names,
        });
    }

    /// The root: every root move from `pv_idx` on, best first.
    fn root_search(&mut self, depth: i32, mut alpha: i32, beta: i32, pv_idx: usize) -> i32 {
        let team = self.pos.team_to_move();
        let alpha0 = alpha;
        let mut best = -INFINITE;
        for rm in &mut self.root_moves[pv_idx..] {
            rm.score = -INFINITE;
        }
        for i in pv_idx..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            self.pos.make(m);
            self.count_node();
            let same = self.pos.team_to_move() == team;
            let new_depth = depth - 1 + self.pos.in_check() as i32;
            self.pv[1].clear();
            let v = if i == pv_idx {
                self.child::<true>(same, new_depth, alpha, beta, 1)
            } else {
                let mut v = self.child::<false>(same, new_depth, alpha, alpha + 1, 1);
                if v > alpha && v < beta {
                    v = self.child::<true>(same, new_depth, alpha, beta, 1);
                }
                v
            };
            self.pos.unmake();
            if self.stopped {
                return best;
            }
            let seldepth = self.seldepth;
            let child_pv = self.pv[1].clone();
            let rm = &mut self.root_moves[i];
            if i == pv_idx || v > alpha {
                rm.score = v;
                rm.seldepth = seldepth;
                rm.bound = if v >= beta {
                    Bound::Lower
                } else if v <= alpha0 {
                    Bound::Upper
                } else {
                    Bound::Exact
                };
                rm.pv.clear();
                rm.pv.push(m);
                rm.pv.extend(child_pv);
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

    /// The static evaluation, kept clear of the mate scores: the armies of the 3D variants are
    /// worth tens of thousands of centipawns, more than the distance to `MATE`.
    #[inline(always)]
    fn static_eval(&self) -> i32 {
        self.pos
            .evaluate()
            .clamp(-MATE_BOUND + 2000, MATE_BOUND - 2000)
    }

    /// Searches the current position as a child: negated when the team to move changed.
    #[inline(always)]
    fn child<const PV: bool>(
        &mut self,
        same_team: bool,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if same_team {
            self.search::<PV>(depth, alpha, beta, ply)
        } else {
            -self.search::<PV>(depth, -beta, -alpha, ply)
        }
    }

    #[inline(always)]
    fn child_q<const PV: bool>(
        &mut self,
        same_team: bool,
        alpha: i32,
        beta: i32,
        ply: usize,
        qply: i32,
        last: Move,
    ) -> i32 {
        if same_team {
            self.qsearch::<PV>(alpha, beta, ply, qply, last)
        } else {
            -self.qsearch::<PV>(-beta, -alpha, ply, qply, last)
        }
    }

    /// Principal variation search.
    fn search<const PV: bool>(
        &mut self,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> i32 {
        if depth <= 0 {
            return self.qsearch::<PV>(alpha, beta, ply, 0, Move::NONE);
        }
        if self.stopped {
            return 0;
        }
        if PV {
            self.pv[ply].clear();
        }
        self.seldepth = self.seldepth.max(ply);
        let team = self.pos.team_to_move();
        if let Some(end) = self.pos.decided() {
            return end_score(end, team, ply);
        }
        if self.pos.repetitions() >= 1 {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return self.static_eval();
        }
        // Mate distance pruning.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        let in_check = self.pos.in_check();
        let key = self.pos.key();
        let tte = self.shared.tt.probe(key);
        let tt_move = tte.map(|e| e.mv).unwrap_or(Move::NONE);
        if let Some(e) = tte
            && !PV
            && e.depth >= depth
        {
            let s = score_from_tt(e.score, ply);
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
                Bound::None => false,
            };
            if cut {
                return s;
            }
        }
        let eval = if in_check {
            -INFINITE
        } else {
            match tte {
                Some(e) if e.eval != Entry::NO_EVAL => e.eval,
                _ => self.static_eval(),
            }
        };

        if !PV && !in_check && beta.abs() < MATE_BOUND {
            // Reverse futility: far above beta at low depth.
            if depth <= 6 && eval - 90 * depth >= beta {
                return eval;
            }
            // Null move: let the other side move twice; if we are still above beta, cut.
            if depth >= 3
                && eval >= beta
                && self.pos.null_move_allowed()
                && self.pos.null_move_safe()
            {
                let r = 3 + depth / 4 + ((eval - beta) / 200).min(3);
                self.pos.make_null();
                self.count_node();
                let same = self.pos.team_to_move() == team;
                let v = self.child::<false>(same, depth - 1 - r, beta - 1, beta, ply + 1);
                self.pos.unmake_null();
                if self.stopped {
                    return 0;
                }
                if v >= beta {
                    return if v >= MATE_BOUND { beta } else { v };
                }
            }
        }

        let mut moves = std::mem::take(&mut self.lists[ply]);
        let mut scores = std::mem::take(&mut self.scores[ply]);
        moves.clear();
        self.pos.generate(&mut moves);
        if moves.is_empty() {
            self.lists[ply] = moves;
            self.scores[ply] = scores;
            return end_score(self.pos.end_without_moves(), team, ply);
        }
        if self.pos.rule_draw().is_some() {
            self.lists[ply] = moves;
            self.scores[ply] = scores;
            return 0;
        }
        score_moves(
            &self.pos,
            moves.as_slice(),
            &mut scores,
            tt_move,
            self.killers[ply],
            &self.history,
        );

        let alpha0 = alpha;
        let mut best = -INFINITE;
        let mut best_move = Move::NONE;
        let mut searched = 0usize;
        let mut quiets_tried: Vec<Move> = Vec::new();
        let futile = !PV && !in_check && depth <= 3 && eval + 120 + 100 * depth <= alpha;
        let late_limit = 4 + (depth * depth) as usize * 2;
        let n = moves.len();
        for i in 0..n {
            pick(moves.as_mut_slice(), &mut scores, i);
            let m = moves.as_slice()[i];
            let quiet = !self.pos.is_tactical(m);
            let piece = self.pos.moved_piece(m);
            // Shallow pruning of late quiet moves (never of the first move, a killer or a check).
            let prune_candidate = quiet
                && scores[i] < KILLER
                && searched > 0
                && best > -MATE_BOUND
                && (futile || (searched >= late_limit && !PV && !in_check && depth <= 4));
            if PV {
                self.pv[ply + 1].clear();
            }
            self.pos.make(m);
            self.count_node();
            let gives_check = self.pos.in_check();
            if prune_candidate && !gives_check {
                self.pos.unmake();
                continue;
            }
            let same = self.pos.team_to_move() == team;
            let new_depth = depth - 1 + (gives_check && ply < MAX_PLY / 2) as i32;
            let v = if searched == 0 {
                self.child::<PV>(same, new_depth, alpha, beta, ply + 1)
            } else {
                let mut r = 0;
                if quiet && !in_check && !gives_check && depth >= 3 {
                    r = reduction(depth, searched) - PV as i32;
                    r = r.clamp(0, new_depth - 1);
                }
                let mut v = self.child::<false>(same, new_depth - r, alpha, alpha + 1, ply + 1);
                if v > alpha && r > 0 {
                    v = self.child::<false>(same, new_depth, alpha, alpha + 1, ply + 1);
                }
                if PV && v > alpha && v < beta {
                    v = self.child::<true>(same, new_depth, alpha, beta, ply + 1);
                }
                v
            };
            self.pos.unmake();
            if self.stopped {
                self.lists[ply] = moves;
                self.scores[ply] = scores;
                return 0;
            }
            searched += 1;
            if v > best {
                best = v;
                if v > alpha {
                    best_move = m;
                    alpha = v;
                    if PV {
                        let (head, tail) = self.pv.split_at_mut(ply + 1);
                        head[ply].clear();
                        head[ply].push(m);
                        head[ply].extend_from_slice(&tail[0]);
                    }
                    if v >= beta {
                        if quiet {
                            let k = &mut self.killers[ply];
                            if k[0] != m {
                                k[1] = k[0];
                                k[0] = m;
                            }
                            let bonus = (depth * depth * 16).min(4000);
                            self.history.update(piece, m, bonus);
                            for &q in &quiets_tried {
                                let qp = self.pos.moved_piece(q);
                                self.history.update(qp, q, -bonus);
                            }
                        }
                        break;
                    }
                }
            }
            if quiet {
                quiets_tried.push(m);
            }
        }
        self.lists[ply] = moves;
        self.scores[ply] = scores;
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.tt.store(
            key,
            Entry {
                mv: best_move,
                score: score_to_tt(best, ply),
                eval: if in_check { Entry::NO_EVAL } else { eval },
                depth,
                bound,
            },
        );
        best
    }

    /// Quiescence search: tactical moves only (every move when in check).
    fn qsearch<const PV: bool>(
        &mut self,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qply: i32,
        last: Move,
    ) -> i32 {
        if self.stopped {
            return 0;
        }
        if PV {
            self.pv[ply].clear();
        }
        self.seldepth = self.seldepth.max(ply);
        let team = self.pos.team_to_move();
        if let Some(end) = self.pos.decided() {
            return end_score(end, team, ply);
        }
        if ply >= MAX_PLY - 1 {
            return self.static_eval();
        }
        let in_check = self.pos.in_check();
        let key = self.pos.key();
        let tte = self.shared.tt.probe(key);
        if let Some(e) = tte
            && !PV
        {
            let s = score_from_tt(e.score, ply);
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
                Bound::None => false,
            };
            if cut {
                return s;
            }
        }
        let mut best;
        let stand = if in_check {
            best = -INFINITE;
            -INFINITE
        } else {
            let e = match tte {
                Some(e) if e.eval != Entry::NO_EVAL => e.eval,
                _ => self.static_eval(),
            };
            if e >= beta {
                return e;
            }
            alpha = alpha.max(e);
            best = e;
            e
        };
        if qply >= 12 && !in_check {
            return best;
        }
        let mut moves = std::mem::take(&mut self.lists[ply]);
        let mut scores = std::mem::take(&mut self.scores[ply]);
        moves.clear();
        if in_check {
            self.pos.generate(&mut moves);
            if moves.is_empty() {
                self.lists[ply] = moves;
                self.scores[ply] = scores;
                return end_score(self.pos.end_without_moves(), team, ply);
            }
        } else {
            self.pos.generate_tactical(&mut moves);
        }
        scores.clear();
        for &m in moves.as_slice() {
            scores.push(if self.pos.is_tactical(m) {
                tactical_score(&self.pos, m)
            } else {
                0
            });
        }
        let mut best_move = Move::NONE;
        for i in 0..moves.len() {
            pick(moves.as_mut_slice(), &mut scores, i);
            let m = moves.as_slice()[i];
            // Captures that lose material by static exchange are not worth a look.
            if !in_check && loses_material(&self.pos, m) {
                continue;
            }
            // Of the promotions on one move, only the most valuable (picked first).
            if !in_check && is_under_promotion(moves.as_slice(), i) {
                continue;
            }
            // Deep in the quiescence search only recaptures, as Stockfish once did: in
            // crowded 3D positions the capture tree explodes otherwise.
            if !in_check && qply >= QS_RECAPTURES_ONLY && m.to() != last.to() {
                continue;
            }
            // Delta pruning: even winning the victim cannot reach alpha.
            if !in_check && m.promotion().is_none() {
                let victim = self.pos.captured_piece(m);
                let gain = if victim.is_some() {
                    self.pos.piece_value(victim)
                } else {
                    0
                };
                if stand + gain + 200 <= alpha {
                    continue;
                }
            }
            if PV {
                self.pv[ply + 1].clear();
            }
            self.pos.make(m);
            self.count_node();
            let same = self.pos.team_to_move() == team;
            let v = self.child_q::<PV>(same, alpha, beta, ply + 1, qply + 1, m);
            self.pos.unmake();
            if self.stopped {
                self.lists[ply] = moves;
                self.scores[ply] = scores;
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    best_move = m;
                    if PV {
                        let (head, tail) = self.pv.split_at_mut(ply + 1);
                        head[ply].clear();
                        head[ply].push(m);
                        head[ply].extend_from_slice(&tail[0]);
                    }
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        self.lists[ply] = moves;
        self.scores[ply] = scores;
        if best_move != Move::NONE || best >= beta {
            self.shared.tt.store(
                key,
                Entry {
                    mv: best_move,
                    score: score_to_tt(best, ply),
                    eval: if in_check { Entry::NO_EVAL } else { stand },
                    depth: 0,
                    bound: if best >= beta {
                        Bound::Lower
                    } else {
                        Bound::Exact
                    },
                },
            );
        }
        best
    }
}
