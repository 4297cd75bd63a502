//! One search thread: its own position copy, histories and stacks; polling the shared state;
//! iterative deepening with aspiration windows; and its reports. The searches themselves are
//! in `root.rs`, `alphabeta.rs` and `quiescence.rs`.

use std::sync::atomic::Ordering::{Acquire, Relaxed};

use super::ordering::{Arrival, History, NO_ARRIVAL};
use super::params::{
    ASPIRATION_DELTA, ASPIRATION_MIN_DEPTH, EVAL_MATE_MARGIN, NEXT_ITERATION_SHARE,
    POLL_MASK_HELPER, POLL_MASK_MAIN, REPORT_BOUNDS_AFTER_MS,
};
use super::skill::Candidate;
use super::time::{Budget, Trend};
use super::tt::Bound;
use super::{
    INFINITE, Iteration, Limits, MATE, MATE_BOUND, MAX_PLY, Outcome, Reporter, Settings, Shared,
};
use crate::eval::{ClockPlan, Evaluate};
use crate::rules::{Move, MoveList};

/// A root move and what the last search of it found.
#[derive(Clone, Debug)]
pub(super) struct RootMove {
    pub mv: Move,
    pub score: i32,
    pub prev_score: i32,
    pub pv: Vec<Move>,
    pub seldepth: usize,
    pub bound: Bound,
    /// Nodes spent on this move in the last iteration.
    pub nodes: u64,
}

/// A search thread's own state.
pub(super) struct Worker<'a, G: Evaluate> {
    pub id: usize,
    pub pos: G,
    pub shared: &'a Shared,
    pub limits: &'a Limits,
    pub settings: &'a Settings,
    pub budget: Option<Budget>,
    pub reporter: &'a dyn Reporter,
    pub root_moves: Vec<RootMove>,
    /// Nodes this thread has counted ...
    pub nodes: u64,
    /// ... of which this many are already in the shared counter.
    pub flushed: u64,
    pub seldepth: usize,
    pub stopped: bool,
    pub killers: Vec<[Move; 2]>,
    pub history: History,
    /// One move list and one list of ordering scores per ply, reused.
    pub lists: Vec<MoveList>,
    pub scores: Vec<Vec<i32>>,
    /// The principal variation found below each ply.
    pub pv: Vec<Vec<Move>>,
    /// The quiet moves tried at each ply (for the history malus), reused.
    pub quiets: Vec<Vec<Move>>,
    /// The tactical moves tried at each ply (for the capture history malus), reused.
    pub captures: Vec<Vec<Move>>,
    /// The move made at each ply of the current line, as an arrival (for the continuation
    /// history of the plies below it).
    pub arrivals: Vec<Arrival>,
    /// The move a singular extension's test leaves out at each ply (`Move::NONE` if none).
    pub excluded: Vec<Move>,
    /// The (corrected) static evaluation at each ply of the current line, -INFINITE in check.
    pub evals: Vec<i32>,
    /// How many double extensions the line to each ply holds.
    pub double_extensions: Vec<i32>,
    /// Whether the variant searches with the refinements measured in chess
    /// (`Evaluate::refined_search`).
    pub refined: bool,
    /// How it plans its clock (`Evaluate::clock_plan`).
    pub clock_plan: ClockPlan,
    /// What the evaluation keeps between calls: the variant's network, if it plays with
    /// one, and its accumulators along the line.
    pub eval_cache: crate::eval::nnue::EvalCache,
    /// The time manager's view of the iterations so far (main thread).
    pub trend: Trend,
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
        let shape = pos.history_shape();
        let refined = pos.refined_search();
        let clock_plan = pos.clock_plan();
        let eval_cache = crate::eval::nnue::EvalCache::for_variant(pos.variant());
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
                    nodes: 0,
                })
                .collect(),
            nodes: 0,
            flushed: 0,
            seldepth: 0,
            stopped: false,
            killers: vec![[Move::NONE; 2]; MAX_PLY + 2],
            history: shared.take_history(id, shape),
            lists: (0..MAX_PLY + 2).map(|_| MoveList::new()).collect(),
            scores: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(256)).collect(),
            pv: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(32)).collect(),
            quiets: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(64)).collect(),
            captures: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(32)).collect(),
            arrivals: vec![NO_ARRIVAL; MAX_PLY + 2],
            excluded: vec![Move::NONE; MAX_PLY + 2],
            double_extensions: vec![0; MAX_PLY + 2],
            evals: vec![-INFINITE; MAX_PLY + 2],
            refined,
            clock_plan,
            eval_cache,
            trend: Trend::default(),
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
                && self.shared.completed.load(Relaxed) >= self.limits.min_depth
            {
                self.shared.done.store(true, Relaxed);
            }
        }
        self.stopped = self.shared.stop.load(Relaxed) || self.shared.done.load(Relaxed);
    }

    /// Makes move `m` in the search: the child's table entry is fetched into the cache while
    /// the child starts, and the child is counted.
    #[inline(always)]
    pub fn make_move(&mut self, m: Move) {
        self.pos.make(m);
        self.shared.tt.prefetch(self.pos.key());
        self.count_node();
    }

    /// Counts a node: a position the search enters. The root is one (counted once, when the
    /// search starts), and so is every position a move or a null move leads to, in the root,
    /// main and quiescence searches alike; searching a position again (a re-search after a
    /// null-window fail high) does not count it again. This is how Stockfish counts (one node
    /// per `do_move`, plus the root here).
    #[inline(always)]
    pub fn count_node(&mut self) {
        self.nodes += 1;
        let mask = if self.id == 0 {
            POLL_MASK_MAIN
        } else {
            POLL_MASK_HELPER
        };
        if self.nodes & mask == 0 || (self.limits.nodes.is_some() && self.id == 0) {
            self.poll();
        }
    }

    fn total_nodes(&self) -> u64 {
        self.shared.nodes() + (self.nodes - self.flushed)
    }

    /// The static evaluation, kept clear of the mate scores.
    #[inline(always)]
    pub fn static_eval(&mut self) -> i32 {
        self.pos.evaluate_cached(&mut self.eval_cache).clamp(
            -MATE_BOUND + EVAL_MATE_MARGIN,
            MATE_BOUND - EVAL_MATE_MARGIN,
        )
    }

    /// Brings the network's accumulators up to this node where its evaluation is not
    /// computed (taken from the table, or in check), so that the nodes below update theirs
    /// by one move instead of by the many since the last node evaluated. Nothing without a
    /// network.
    #[inline(always)]
    pub fn keep_eval_cache(&mut self) {
        self.eval_cache.prepare(&self.pos);
    }

    /// The static evaluation corrected by the correction histories (where the variant has
    /// correction keys), from the evaluation `raw`.
    #[inline(always)]
    pub fn corrected(&self, raw: i32) -> i32 {
        // The keys are asked for only where the search uses them (Pole Chess has them too).
        if !self.refined {
            return raw;
        }
        match self.pos.correction_keys() {
            Some(k) => (raw + self.history.correction(self.pos.team_to_move(), &k)).clamp(
                -MATE_BOUND + EVAL_MATE_MARGIN,
                MATE_BOUND - EVAL_MATE_MARGIN,
            ),
            None => raw,
        }
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
        // The root's evaluation fills the evaluation's cache, which every node below updates
        // from (its value is not used).
        self.static_eval();
        let multipv = self.settings.multipv.clamp(1, self.root_moves.len());
        let mut done = Outcome {
            best: Some(self.root_moves[0].mv),
            pv: vec![self.root_moves[0].mv],
            ..Outcome::default()
        };
        for depth in 1..=max_depth {
            if self.skips(depth, max_depth) {
                continue;
            }
            for pv_idx in 0..multipv {
                self.aspiration_search(depth, pv_idx);
                if self.stopped {
                    break;
                }
            }
            if self.stopped {
                self.take_interrupted_iteration(&mut done);
                done.interrupted = true;
                break;
            }
            done = self.outcome_at(0, depth);
            done.candidates = self.root_moves[..multipv]
                .iter()
                .map(|r| Candidate {
                    mv: r.mv,
                    score: r.score,
                    pv: r.pv.clone(),
                })
                .collect();
            for rm in &mut self.root_moves {
                rm.prev_score = rm.score;
            }
            self.shared.completed.fetch_max(depth, Relaxed);
            if self.id == 0 {
                for i in 0..multipv {
                    self.report(depth, i);
                }
                if self.should_stop_after_iteration() {
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

    /// Whether this thread leaves out `depth`. Lazy SMP: helper threads skip every other
    /// depth, so that they run ahead of the main thread and fill the shared table with deeper
    /// results, and no thread searches a depth another has completed. The last depth is
    /// never skipped: a helper that reaches it first ends the search.
    fn skips(&self, depth: i32, max_depth: i32) -> bool {
        if depth == max_depth {
            return false;
        }
        let helper_skips = self.id > 0 && depth > 1 && (depth + self.id as i32) % 2 == 1;
        helper_skips || depth <= self.shared.completed.load(Relaxed)
    }

    /// Searches root move `pv_idx` (and those after it) at `depth` within a window around its
    /// previous score, widening the window until the score falls inside it.
    fn aspiration_search(&mut self, depth: i32, pv_idx: usize) {
        self.seldepth = 0;
        let prev = self.root_moves[pv_idx].prev_score;
        let mut delta = ASPIRATION_DELTA;
        let (mut alpha, mut beta) = if depth >= ASPIRATION_MIN_DEPTH && prev.abs() < MATE_BOUND {
            ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
        } else {
            (-INFINITE, INFINITE)
        };
        loop {
            let v = self.root_search(depth, alpha, beta, pv_idx);
            self.root_moves[pv_idx..].sort_by_key(|r| std::cmp::Reverse((r.score, r.prev_score)));
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
            if self.id == 0 && self.shared.elapsed().as_millis() > REPORT_BOUNDS_AFTER_MS {
                self.report(depth, pv_idx);
            }
            delta += delta / 2;
        }
        self.root_moves[..=pv_idx].sort_by_key(|r| std::cmp::Reverse((r.score, r.prev_score)));
    }

    /// The result of root move `i` after an iteration of `depth`.
    fn outcome_at(&self, i: usize, depth: i32) -> Outcome {
        let rm = &self.root_moves[i];
        Outcome {
            best: Some(rm.mv),
            ponder: rm.pv.get(1).copied(),
            score: rm.score,
            depth,
            nodes: 0,
            pv: rm.pv.clone(),
            candidates: Vec::new(),
            interrupted: false,
        }
    }

    /// An interrupted iteration still tells something: the moves it finished are scored (the
    /// others hold -INFINITE). With no completed iteration, its best is better than an
    /// unsearched move; later, a move that beat the previous best with an exact score at the
    /// new depth is taken.
    fn take_interrupted_iteration(&self, done: &mut Outcome) {
        let partial = &self.root_moves[0];
        let better = partial.score > -INFINITE
            && (done.depth == 0 || (partial.bound == Bound::Exact && partial.score > done.score));
        if better {
            let candidates = std::mem::take(&mut done.candidates);
            *done = self.outcome_at(0, done.depth);
            done.candidates = candidates;
        }
    }

    /// How much of the optimum time this iteration's results suggest spending, as a factor
    /// ([`Trend::factor`]).
    fn time_factor(&mut self) -> f64 {
        let best = &self.root_moves[0];
        let total: u64 = self.root_moves.iter().map(|r| r.nodes).sum();
        self.trend.factor(best.mv, best.score, best.nodes, total)
    }

    fn should_stop_after_iteration(&mut self) -> bool {
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
            // A fixed move time runs to its maximum; a clock's optimum is planned. The scaling
            // (measured in chess) comes with chess's clock plan (`ClockPlan::Chess`); the
            // other plans keep the fixed share.
            if !b.fixed {
                let factor = if self.clock_plan == ClockPlan::Chess {
                    self.time_factor()
                } else {
                    1.0
                };
                if self.shared.elapsed() >= b.optimum.mul_f64(NEXT_ITERATION_SHARE * factor) {
                    return true;
                }
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
        for &m in &rm.pv {
            names.push(self.pos.move_name(m));
            self.pos.make(m);
        }
        for _ in &rm.pv {
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

    /// Takes ply `ply`'s move list and score list out of the worker (to be given back with
    /// [`Worker::give_back_lists`]), emptied.
    #[inline(always)]
    pub fn take_lists(&mut self, ply: usize) -> (MoveList, Vec<i32>) {
        let mut moves = std::mem::take(&mut self.lists[ply]);
        let mut scores = std::mem::take(&mut self.scores[ply]);
        moves.clear();
        scores.clear();
        (moves, scores)
    }

    /// Returns the lists taken by [`Worker::take_lists`], keeping their storage for reuse.
    #[inline(always)]
    pub fn give_back_lists(&mut self, ply: usize, lists: (MoveList, Vec<i32>)) {
        self.lists[ply] = lists.0;
        self.scores[ply] = lists.1;
    }

    /// The arrivals one, two and four plies before `ply` (four only in the variants with the
    /// refined search).
    #[inline(always)]
    pub fn arrivals_before(&self, ply: usize) -> [Arrival; 3] {
        let at = |back: usize| {
            if ply >= back {
                self.arrivals[ply - back]
            } else {
                NO_ARRIVAL
            }
        };
        [at(1), at(2), if self.refined { at(4) } else { NO_ARRIVAL }]
    }

    /// Makes `m` the best move at `ply`: the principal variation at `ply` becomes `m`
    /// followed by the one found below it.
    #[inline(always)]
    pub fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(m);
        head[ply].extend_from_slice(&tail[0]);
    }
}
