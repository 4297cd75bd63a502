//! The main search: principal variation search over an interior node, in named steps.
//!
//! 1. Leaving at once: a decided game, a repetition, the ply limit, mate distance, a
//!    transposition table entry that settles the node.
//! 2. One ply less without a move from the table (internal iterative reduction); the node's
//!    static evaluation, and pruning before any move is tried (reverse futility, null move).
//! 3. The move loop: moves in order (the table's move first, before the others are
//!    generated where the variant allows it), late quiet moves pruned, the others searched
//!    with a null window (reduced when late and quiet, more where the node is expected to
//!    fail high) and re-searched when they beat alpha;
//!    a cutoff rewards the move in the killers and the history.
//! 4. The result stored in the transposition table.

use super::ordering::{KILLER, NO_ARRIVAL, TT_MOVE, pick, score_moves, tactical_score};
use super::params::{
    CHECK_EXTENSION_MAX_PLY, FUTILITY_BASE, FUTILITY_MARGIN, FUTILITY_MAX_DEPTH,
    FUTILITY_REDUCED_MAX_DEPTH, HISTORY_BONUS_BASE, HISTORY_BONUS_FACTOR, HISTORY_BONUS_MAX,
    IIR_MIN_DEPTH, LMP_BASE, LMP_FACTOR, LMP_MAX_DEPTH, LMR_CUT_NODE, LMR_HISTORY_DIVISOR,
    LMR_MIN_DEPTH, NMP_BASE, NMP_DEPTH_DIVISOR, NMP_EVAL_DIVISOR, NMP_EVAL_MAX, NMP_MIN_DEPTH,
    PROBCUT_IMPROVING, PROBCUT_MARGIN, PROBCUT_MIN_DEPTH, PROBCUT_REDUCTION, RFP_MARGIN,
    RFP_MAX_DEPTH, SE_DOUBLE_MARGIN, SE_DOUBLE_MAX, SE_MARGIN, SE_MIN_DEPTH, SE_TT_DEPTH_MARGIN,
    SEE_PRUNE_MAX_DEPTH, SEE_QUIET_MARGIN, SEE_TACTICAL_MARGIN, reduction,
};
use super::tt::{Bound, Entry};
use super::worker::Worker;
use super::{INFINITE, MATE, MATE_BOUND, MAX_PLY, end_score, score_from_tt, score_to_tt};
use crate::eval::Evaluate;
use crate::rules::{Move, MoveList};

/// What the move loop needs to know about its node.
#[derive(Clone, Copy)]
struct Node {
    ply: usize,
    depth: i32,
    team: usize,
    in_check: bool,
    /// The static evaluation (-INFINITE in check).
    eval: i32,
    beta: i32,
    /// The transposition table's entry for the node, if any.
    tt: Option<Entry>,
    /// The move left out of this search (a singular extension's test), or `Move::NONE`.
    excluded: Move,
    /// Whether the static evaluation is better than two plies before (the same side's last
    /// node): pruning and reductions are less bold where it is.
    improving: bool,
    /// Whether the table's move is a capture or another tactical move (in the variants with
    /// the refined search): the quiet moves are then reduced a ply more. Set only once the
    /// node reaches its move loop (not at the nodes pruned before it).
    tt_tactical: bool,
    /// Whether the node is expected to fail high (a cut node): late quiet moves are reduced
    /// more there, in the variants with the refined search.
    cut: bool,
}

/// The move just made, as `search_move` needs it.
#[derive(Clone, Copy)]
struct Made {
    /// Not a capture, promotion or other tactical move.
    quiet: bool,
    gives_check: bool,
    /// The singular extension's verdict (plies, possibly negative), if it was tested.
    extension: Option<i32>,
    /// Moves searched at this node before it.
    searched: usize,
    /// Its move-ordering score.
    ordering: i32,
}

/// What the singular extension's test found.
enum Singular {
    /// Search the table's move this many plies deeper (or shallower when negative).
    Extend(i32),
    /// The node is settled at this score.
    MultiCut(i32),
}

/// The score a transposition table entry settles a node with, given the window.
#[inline(always)]
pub(super) fn tt_cutoff(e: Entry, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
    let s = score_from_tt(e.score, ply);
    let cut = match e.bound {
        Bound::Exact => true,
        Bound::Lower => s >= beta,
        Bound::Upper => s <= alpha,
        Bound::None => false,
    };
    cut.then_some(s)
}

/// The history bonus of a move that caused a cutoff at `depth` (and the malus of the moves
/// tried before it).
#[inline(always)]
fn history_bonus(depth: i32) -> i32 {
    (depth * HISTORY_BONUS_FACTOR - HISTORY_BONUS_BASE).min(HISTORY_BONUS_MAX)
}

impl<G: Evaluate> Worker<'_, G> {
    /// Searches the current position as a child: negated when the team to move changed.
    #[inline(always)]
    pub(super) fn child<const PV: bool>(
        &mut self,
        same_team: bool,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        cut: bool,
    ) -> i32 {
        if same_team {
            self.search::<PV>(depth, alpha, beta, ply, cut)
        } else {
            -self.search::<PV>(depth, -beta, -alpha, ply, cut)
        }
    }

    /// Principal variation search of the current position at `depth` within (`alpha`,
    /// `beta`), `ply` plies from the root; `cut` where a fail high is expected (a cut node:
    /// a later move's null-window search, or the first move's at an expected all node).
    pub(super) fn search<const PV: bool>(
        &mut self,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        cut: bool,
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
        // A search that leaves a move out (a singular extension's test) is not the node's
        // search: it neither takes nor leaves anything in the table.
        let excluded = self.excluded[ply];
        let tte = self.shared.tt.probe(key);
        if let Some(e) = tte
            && !PV
            && excluded == Move::NONE
            && e.depth >= depth
            && let Some(s) = tt_cutoff(e, ply, alpha, beta)
        {
            return s;
        }
        // Internal iterative reduction: without a move from the table, a deep node is
        // searched one ply shallower (its ordering is a guess; the next iteration has one).
        let depth = if depth >= IIR_MIN_DEPTH && tte.is_none_or(|e| e.mv == Move::NONE) {
            depth - 1
        } else {
            depth
        };
        // The evaluation as computed (kept in the table) and as corrected (searched with).
        let raw_eval = match tte {
            _ if in_check => {
                self.keep_eval_cache();
                -INFINITE
            }
            Some(e) if e.eval != Entry::NO_EVAL => {
                self.keep_eval_cache();
                e.eval
            }
            _ => self.static_eval(),
        };
        let eval = if in_check {
            raw_eval
        } else {
            self.corrected(raw_eval)
        };
        self.evals[ply] = eval;
        let improving = self.improving(ply, eval, in_check);
        let mut node = Node {
            ply,
            depth,
            team,
            in_check,
            eval,
            beta,
            tt: tte,
            excluded,
            improving,
            tt_tactical: false,
            cut: cut && !PV,
        };
        if !PV
            && !in_check
            && excluded == Move::NONE
            && beta.abs() < MATE_BOUND
            && let Some(v) = self.prune_before_moves(&node)
        {
            return v;
        }

        let mut lists = self.take_lists(ply);
        let tt_move = tte.map_or(Move::NONE, |e| e.mv);
        // The table's move is tried before the other moves are generated, where the variant
        // can tell its legality without generating them: when it settles the node, they are
        // never generated or ordered.
        let tt_first = tt_move != Move::NONE
            && excluded == Move::NONE
            && self.pos.legal_without_generating(tt_move) == Some(true);
        if tt_first {
            lists.0.push(tt_move);
        } else {
            self.pos.generate(&mut lists.0);
        }
        let result = if lists.0.is_empty() {
            Err(end_score(self.pos.end_without_moves(), team, ply))
        } else if self.pos.rule_draw().is_some() {
            Err(0)
        } else {
            node.tt_tactical =
                self.refined && tt_move != Move::NONE && self.pos.is_tactical(tt_move);
            let (moves, scores) = &mut lists;
            if tt_first {
                scores.push(TT_MOVE);
            } else {
                self.score(moves, scores, tt_move, ply);
            }
            Ok(self.search_moves::<PV>(moves, scores, &node, alpha, tt_first))
        };
        self.give_back_lists(ply, lists);
        let (best, best_move) = match result {
            Err(v) => return v,
            Ok(None) => return 0, // stopped
            Ok(Some(found)) => found,
        };
        if excluded != Move::NONE {
            // No move but the excluded one: that move is singular.
            return if best == -INFINITE { alpha } else { best };
        }
        self.store_result(&node, key, raw_eval, alpha, (best, best_move));
        best
    }

    /// Whether the static evaluation `eval` at `ply` is better than the same side's last
    /// one (two plies before, else four), in the variants with the refined search.
    fn improving(&self, ply: usize, eval: i32, in_check: bool) -> bool {
        self.refined && !in_check && {
            let before = |back: usize| (ply >= back).then(|| self.evals[ply - back]);
            match (before(2), before(4)) {
                (Some(e2), _) if e2 != -INFINITE => eval > e2,
                (_, Some(e4)) if e4 != -INFINITE => eval > e4,
                _ => true,
            }
        }
    }

    /// Step 4: the node's result (the best score and move, searched from `alpha`) stored
    /// in the transposition table under `key` with the evaluation as computed, and the
    /// correction history taught how far the evaluation was off.
    fn store_result(
        &mut self,
        n: &Node,
        key: u64,
        raw_eval: i32,
        alpha: i32,
        (best, best_move): (i32, Move),
    ) {
        let (ply, depth, eval, in_check) = (n.ply, n.depth, n.eval, n.in_check);
        let bound = if best >= n.beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.tt.store(
            key,
            Entry {
                mv: best_move,
                score: score_to_tt(best, ply),
                eval: if in_check { Entry::NO_EVAL } else { raw_eval },
                depth,
                bound,
            },
        );
        // The correction history learns how far the evaluation was off, where the search
        // found a quiet answer and its bound says on which side the truth lies.
        if self.refined
            && !in_check
            && (best_move == Move::NONE || !self.pos.is_tactical(best_move))
            && !(bound == Bound::Lower && best <= eval)
            && !(bound == Bound::Upper && best >= eval)
            && best.abs() < MATE_BOUND
            && let Some(k) = self.pos.correction_keys()
        {
            self.history
                .update_correction(n.team, &k, depth, best - eval);
        }
    }

    /// Reverse futility and null-move pruning (non-PV nodes, not in check, beta not a mate).
    /// `Some(score)` settles the node.
    fn prune_before_moves(&mut self, n: &Node) -> Option<i32> {
        let (depth, eval, beta) = (n.depth, n.eval, n.beta);
        // Reverse futility: far above beta at low depth.
        if depth <= RFP_MAX_DEPTH && eval - RFP_MARGIN * (depth - n.improving as i32) >= beta {
            return Some(eval);
        }
        // Null move: let the other side move twice; if we are still above beta, cut.
        if depth >= NMP_MIN_DEPTH
            && eval >= beta
            && self.pos.null_move_allowed()
            && self.pos.null_move_safe()
        {
            let r = NMP_BASE
                + depth / NMP_DEPTH_DIVISOR
                + ((eval - beta) / NMP_EVAL_DIVISOR).min(NMP_EVAL_MAX);
            self.arrivals[n.ply] = NO_ARRIVAL;
            self.pos.make_null();
            self.count_node();
            let same = self.pos.team_to_move() == n.team;
            let v = self.child::<false>(same, depth - 1 - r, beta - 1, beta, n.ply + 1, !n.cut);
            self.pos.unmake_null();
            if self.stopped {
                return Some(0);
            }
            if v >= beta {
                return Some(if v >= MATE_BOUND { beta } else { v });
            }
        }
        if self.refined && depth >= PROBCUT_MIN_DEPTH {
            return self.probcut(n);
        }
        None
    }

    /// ProbCut: a capture that wins enough by static exchange, and still beats a bound well
    /// above beta in the quiescence search and then in a search four plies shallower, settles
    /// the node (a search that deep would almost surely fail high too). Skipped when the
    /// table already holds a search nearly that deep that stayed below the bound.
    fn probcut(&mut self, n: &Node) -> Option<i32> {
        let pbeta = n.beta + PROBCUT_MARGIN - PROBCUT_IMPROVING * n.improving as i32;
        if pbeta >= MATE_BOUND {
            return None;
        }
        if let Some(e) = n.tt
            && e.depth > n.depth - PROBCUT_REDUCTION
            && score_from_tt(e.score, n.ply) < pbeta
        {
            return None;
        }
        let mut lists = self.take_lists(n.ply);
        let (moves, scores) = &mut lists;
        self.pos.generate_tactical(moves);
        for &m in moves.as_slice() {
            scores.push(tactical_score(&self.pos, m, &self.history));
        }
        let mut found = None;
        for i in 0..moves.len() {
            pick(moves.as_mut_slice(), scores, i);
            let m = moves.as_slice()[i];
            if m == n.excluded || self.pos.see(m) < pbeta - n.eval {
                continue;
            }
            self.arrivals[n.ply] = self.history.arrival(self.pos.moved_piece(m), m);
            self.double_extensions[n.ply + 1] = self.double_extensions[n.ply];
            self.make_move(m);
            let same = self.pos.team_to_move() == n.team;
            let ply = n.ply + 1;
            let mut v = self.child::<false>(same, 0, pbeta - 1, pbeta, ply, !n.cut);
            if v >= pbeta {
                let d = n.depth - PROBCUT_REDUCTION;
                v = self.child::<false>(same, d, pbeta - 1, pbeta, ply, !n.cut);
            }
            self.pos.unmake();
            if self.stopped {
                found = Some(0);
                break;
            }
            if v >= pbeta {
                self.shared.tt.store(
                    self.pos.key(),
                    Entry {
                        mv: m,
                        score: score_to_tt(v, n.ply),
                        eval: n.tt.map_or(Entry::NO_EVAL, |e| e.eval),
                        depth: n.depth - PROBCUT_REDUCTION + 1,
                        bound: Bound::Lower,
                    },
                );
                found = Some(v);
                break;
            }
        }
        self.give_back_lists(n.ply, lists);
        found
    }

    /// The move loop. Returns the best score and move (`Move::NONE` if no move raised
    /// alpha), or `None` when the search was stopped. With `tt_only`, `moves` holds only the
    /// table's move, and the others are generated once it has been searched.
    fn search_moves<const PV: bool>(
        &mut self,
        moves: &mut MoveList,
        scores: &mut Vec<i32>,
        n: &Node,
        mut alpha: i32,
        mut tt_only: bool,
    ) -> Option<(i32, Move)> {
        let (ply, depth, beta) = (n.ply, n.depth, n.beta);
        let mut best = -INFINITE;
        let mut best_move = Move::NONE;
        let mut searched = 0usize;
        let mut quiets_tried = std::mem::take(&mut self.quiets[ply]);
        quiets_tried.clear();
        let mut captures_tried = std::mem::take(&mut self.captures[ply]);
        captures_tried.clear();
        let futile = !PV
            && !n.in_check
            && depth <= FUTILITY_MAX_DEPTH
            && n.eval + FUTILITY_BASE + FUTILITY_MARGIN * depth <= alpha;
        // Late move pruning keeps half as many quiet moves where the evaluation is not
        // improving (in the variants with the refined search).
        let late_limit = (LMP_BASE + (depth * depth) as usize * LMP_FACTOR)
            / if self.refined && !n.improving { 2 } else { 1 };
        // Whether the moves left still need picking best first: not once a quiet move is a
        // pruning candidate, because every later quiet move is one too (the conditions only
        // grow more true) and the pick would scan them all for nothing.
        let mut ordered = true;
        let mut next = 0;
        loop {
            if next == moves.len() {
                if !tt_only {
                    break;
                }
                tt_only = false;
                next = self.generate_after_tt_move(moves, scores, n);
                if next == moves.len() {
                    break;
                }
            }
            let i = next;
            next += 1;
            if ordered {
                pick(moves.as_mut_slice(), scores, i);
            }
            let m = moves.as_slice()[i];
            if m == n.excluded {
                continue;
            }
            let quiet = !self.pos.is_tactical(m);
            // Shallow pruning of late quiet moves (never of the first move, a killer or a check).
            let late_quiet = quiet && scores[i] < KILLER && searched > 0 && best > -MATE_BOUND;
            let prune_candidate = late_quiet
                && (futile
                    || (searched >= late_limit && !PV && !n.in_check && depth <= LMP_MAX_DEPTH));
            ordered &= !prune_candidate;
            // Futility at the depth the move would be searched to after its reduction (in the
            // variants with the refined search). Not a reason to stop ordering: a later move
            // with a better history may escape it.
            let prune_candidate = prune_candidate
                || (late_quiet
                    && self.refined
                    && !PV
                    && !n.in_check
                    && self.futile_when_reduced(n, searched, scores[i], alpha));
            // A pruned move that certainly does not check is skipped without being made.
            if prune_candidate && !self.pos.may_give_check(m) {
                continue;
            }
            if searched > 0 && best > -MATE_BOUND && self.exchange_pruned(n, m, quiet, scores[i]) {
                continue;
            }
            let mut extension = None;
            if let Some(e) = n.tt
                && m == e.mv
                && self.singular_candidate(n, e)
            {
                match self.singular(n, e, PV) {
                    None => return None,
                    Some(Singular::Extend(0)) => {}
                    Some(Singular::Extend(x)) => extension = Some(x),
                    Some(Singular::MultiCut(v)) => {
                        self.quiets[ply] = quiets_tried;
                        self.captures[ply] = captures_tried;
                        return Some((v, m));
                    }
                }
            }
            if PV {
                self.pv[ply + 1].clear();
            }
            let piece = self.pos.moved_piece(m);
            self.arrivals[ply] = self.history.arrival(piece, m);
            self.double_extensions[ply + 1] =
                self.double_extensions[ply] + (extension == Some(2)) as i32;
            self.make_move(m);
            let gives_check = self.pos.in_check();
            if prune_candidate && !gives_check {
                self.pos.unmake();
                continue;
            }
            let made = Made {
                quiet,
                gives_check,
                extension,
                searched,
                ordering: scores[i],
            };
            let v = self.search_move::<PV>(n, &made, alpha);
            self.pos.unmake();
            if self.stopped {
                self.quiets[ply] = quiets_tried;
                self.captures[ply] = captures_tried;
                return None;
            }
            searched += 1;
            if v > best {
                best = v;
                if v > alpha {
                    best_move = m;
                    alpha = v;
                    if PV {
                        self.update_pv(ply, m);
                    }
                    if v >= beta {
                        let tried = (quiets_tried.as_slice(), captures_tried.as_slice());
                        self.reward_beta_cutoff(n, (piece, m), quiet, tried);
                        break;
                    }
                }
            }
            if quiet {
                quiets_tried.push(m);
            } else {
                captures_tried.push(m);
            }
        }
        self.quiets[ply] = quiets_tried;
        self.captures[ply] = captures_tried;
        Some((best, best_move))
    }

    /// Generates and scores every move after the table's move (`moves[0]`) has been searched
    /// alone, and returns where the loop goes on. The table's move stays first, and the
    /// others stand where picking it from the full list would have left them. (Were the
    /// table's move not generated, which `legal_without_generating` rules out, every move
    /// would still be searched.)
    fn generate_after_tt_move(
        &mut self,
        moves: &mut MoveList,
        scores: &mut Vec<i32>,
        n: &Node,
    ) -> usize {
        let tt_move = moves.as_slice()[0];
        moves.clear();
        self.pos.generate(moves);
        let found = moves.iter().position(|&m| m == tt_move);
        if let Some(j) = found {
            moves.as_mut_slice().swap(0, j);
        }
        self.score(moves, scores, tt_move, n.ply);
        found.map_or(0, |_| 1)
    }

    /// Scores the moves of the node at `ply` for ordering.
    fn score(&self, moves: &MoveList, scores: &mut Vec<i32>, tt_move: Move, ply: usize) {
        score_moves(
            &self.pos,
            moves.as_slice(),
            scores,
            tt_move,
            self.killers[ply],
            &self.history,
            self.arrivals_before(ply),
        );
    }

    /// Searches the move just made: the first move with the full window, later ones with a
    /// null window (reduced when late and quiet), re-searched when they beat alpha.
    fn search_move<const PV: bool>(&mut self, n: &Node, made: &Made, alpha: i32) -> i32 {
        let (ply, depth, beta) = (n.ply, n.depth, n.beta);
        let Made {
            quiet,
            gives_check,
            extension,
            searched,
            ordering,
        } = *made;
        let same = self.pos.team_to_move() == n.team;
        let extend = gives_check && ply < CHECK_EXTENSION_MAX_PLY;
        let new_depth = depth - 1 + extension.unwrap_or(extend as i32);
        // The first move of a cut node is expected to fail low below it (an all node), of
        // an all node to fail high; a later move is searched as expected to fail high.
        if searched == 0 {
            return self.child::<PV>(same, new_depth, alpha, beta, ply + 1, !PV && !n.cut);
        }
        let mut r = 0;
        if quiet && !n.in_check && !gives_check && depth >= LMR_MIN_DEPTH {
            r = reduction(depth, searched) - PV as i32
                + (self.refined && !n.improving) as i32
                + n.tt_tactical as i32
                + (self.refined && n.cut) as i32 * LMR_CUT_NODE;
            // Less for a killer, and by the move's histories: more for a move that rarely
            // caused a cutoff, less for one that often did.
            if self.refined {
                r -= if ordering >= KILLER {
                    1
                } else {
                    ordering / LMR_HISTORY_DIVISOR
                };
            }
            r = r.clamp(0, new_depth - 1);
        }
        let mut v = self.child::<false>(same, new_depth - r, alpha, alpha + 1, ply + 1, true);
        if v > alpha && r > 0 {
            v = self.child::<false>(same, new_depth, alpha, alpha + 1, ply + 1, !n.cut);
        }
        if PV && v > alpha && v < beta {
            v = self.child::<true>(same, new_depth, alpha, beta, ply + 1, false);
        }
        v
    }

    /// Exchange pruning of a move after the first (the best score so far not a mate): at low
    /// depth, a move that loses material by static exchange (more as the depth grows) is
    /// not tried, unless it is a killer or better (`ordering`). Only where the variant allows
    /// it (`Evaluate::see_pruning`): on the cheap estimate Podionic lost 164 Elo with it.
    fn exchange_pruned(&self, n: &Node, m: Move, quiet: bool, ordering: i32) -> bool {
        if !n.in_check
            && n.depth <= SEE_PRUNE_MAX_DEPTH
            && ordering < KILLER
            && self.pos.see_pruning()
        {
            let margin = if quiet && !self.pos.may_give_check(m) {
                SEE_QUIET_MARGIN
            } else {
                SEE_TACTICAL_MARGIN
            };
            return self.pos.see(m) < -margin * n.depth;
        }
        false
    }

    /// Move `m` of `piece` caused a beta cutoff: a quiet one is rewarded as a killer and in
    /// the histories ([`Self::reward_cutoff`]), a capture in the capture history; the
    /// captures tried before it (`tried.1`; `tried.0` are the quiet ones) lose there.
    fn reward_beta_cutoff(
        &mut self,
        n: &Node,
        (piece, m): (crate::rules::piece::Piece, Move),
        quiet: bool,
        tried: (&[Move], &[Move]),
    ) {
        let bonus = history_bonus(n.depth);
        if quiet {
            self.reward_cutoff(n.ply, n.depth, piece, m, tried.0);
        } else {
            self.history.update_capture(&self.pos, m, bonus);
        }
        for &c in tried.1 {
            self.history.update_capture(&self.pos, c, -bonus);
        }
    }

    /// Futility pruning at the depth a late quiet move would be searched to after its
    /// reduction, its history counted as in the reduction: the move is skipped when the
    /// evaluation plus the futility margin of that depth does not reach alpha.
    fn futile_when_reduced(&self, n: &Node, searched: usize, ordering: i32, alpha: i32) -> bool {
        let depth =
            (n.depth - 1 - reduction(n.depth, searched) + ordering / LMR_HISTORY_DIVISOR).max(0);
        depth <= FUTILITY_REDUCED_MAX_DEPTH
            && n.eval + FUTILITY_BASE + FUTILITY_MARGIN * depth <= alpha
    }

    /// Whether the table's move `e.mv` is to be tested for a singular extension: deep enough,
    /// with a table entry nearly as deep that says the move is at least that good.
    fn singular_candidate(&self, n: &Node, e: Entry) -> bool {
        self.refined
            && n.ply > 0
            && n.excluded == Move::NONE
            && n.depth >= SE_MIN_DEPTH
            && e.depth >= n.depth - SE_TT_DEPTH_MARGIN
            && matches!(e.bound, Bound::Lower | Bound::Exact)
            && e.score.abs() < MATE_BOUND
            && n.ply < CHECK_EXTENSION_MAX_PLY
    }

    /// The singular extension's test: the node searched without the table's move, at half
    /// depth, against a bound a little below the move's score. If every other move falls
    /// short, the move is singular and extended (twice where it is far ahead outside the
    /// principal variation); if another move reaches the bound too, and that bound is at or
    /// above beta, two moves cut and the node is settled (multi-cut); if only the table's
    /// score was at or above beta, the move is searched a ply shallower. `None` when stopped.
    fn singular(&mut self, n: &Node, e: Entry, pv: bool) -> Option<Singular> {
        let score = score_from_tt(e.score, n.ply);
        let sbeta = (score - SE_MARGIN * n.depth).max(-MATE_BOUND);
        let sdepth = (n.depth - 1) / 2;
        self.excluded[n.ply] = e.mv;
        let v = self.search::<false>(sdepth, sbeta - 1, sbeta, n.ply, n.cut);
        self.excluded[n.ply] = Move::NONE;
        if self.stopped {
            return None;
        }
        Some(if v < sbeta {
            let double = !pv && v < sbeta - SE_DOUBLE_MARGIN;
            if double && self.double_extensions[n.ply] < SE_DOUBLE_MAX {
                Singular::Extend(2)
            } else {
                Singular::Extend(1)
            }
        } else if sbeta >= n.beta {
            Singular::MultiCut(sbeta)
        } else if score >= n.beta {
            Singular::Extend(-1)
        } else {
            Singular::Extend(0)
        })
    }

    /// A quiet move caused a cutoff: it becomes the first killer of its ply, and its history
    /// rises while that of the quiet moves tried before it falls.
    fn reward_cutoff(
        &mut self,
        ply: usize,
        depth: i32,
        piece: crate::rules::piece::Piece,
        m: Move,
        tried: &[Move],
    ) {
        let k = &mut self.killers[ply];
        if k[0] != m {
            k[1] = k[0];
            k[0] = m;
        }
        let bonus = history_bonus(depth);
        let before = self.arrivals_before(ply);
        let history = &mut self.history;
        let mut reward = |piece, m, bonus| {
            history.update(piece, m, bonus);
            let now = history.arrival(piece, m);
            for b in before {
                history.update_continuation(b, now, bonus);
            }
        };
        reward(piece, m, bonus);
        for &q in tried {
            reward(self.pos.moved_piece(q), q, -bonus);
        }
    }
}
