//! The quiescence search: from the main search's leaves, only the moves that change material
//! (every move when in check), until the position is quiet, so that the static evaluation is
//! never taken in the middle of an exchange.

use super::alphabeta::tt_cutoff;
use super::ordering::{is_under_promotion, loses_material, pick, tactical_score};
use super::params::{QS_DELTA_MARGIN, QS_MAX_PLY, QS_RECAPTURES_ONLY};
use super::tt::{Bound, Entry};
use super::worker::Worker;
use super::{INFINITE, MAX_PLY, end_score, score_to_tt};
use crate::eval::Evaluate;
use crate::rules::{Move, MoveList};

/// What the quiescence move loop needs to know about its node.
struct QNode {
    ply: usize,
    /// Plies into the quiescence search.
    qply: i32,
    /// The move that led here (for the recapture rule).
    last: Move,
    in_check: bool,
    /// The stand-pat score (-INFINITE in check).
    stand: i32,
    beta: i32,
}

impl<G: Evaluate> Worker<'_, G> {
    /// Searches the current position as a child in the quiescence search: negated when the
    /// team to move changed.
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

    /// Quiescence search at `ply` (`qply` plies into the quiescence search; `last` is the
    /// move that led here, for the recapture rule).
    pub(super) fn qsearch<const PV: bool>(
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
            && let Some(s) = tt_cutoff(e, ply, alpha, beta)
        {
            return s;
        }
        // Standing pat: the side to move may decline every capture (not when in check).
        // The evaluation as computed is kept in the table; the corrected one stands pat.
        let (raw, stand) = if in_check {
            self.keep_eval_cache();
            (Entry::NO_EVAL, -INFINITE)
        } else {
            let raw = match tte {
                Some(e) if e.eval != Entry::NO_EVAL => {
                    self.keep_eval_cache();
                    e.eval
                }
                _ => self.static_eval(),
            };
            let e = self.corrected(raw);
            if e >= beta {
                return e;
            }
            alpha = alpha.max(e);
            (raw, e)
        };
        if qply >= QS_MAX_PLY && !in_check {
            return stand;
        }
        let mut lists = self.take_lists(ply);
        let (moves, scores) = &mut lists;
        if in_check {
            self.pos.generate(moves);
        } else {
            self.pos.generate_tactical(moves);
        }
        if in_check && moves.is_empty() {
            self.give_back_lists(ply, lists);
            return end_score(self.pos.end_without_moves(), team, ply);
        }
        for &m in moves.as_slice() {
            scores.push(if self.pos.is_tactical(m) {
                tactical_score(&self.pos, m, &self.history)
            } else {
                0
            });
        }
        let node = QNode {
            ply,
            qply,
            last,
            in_check,
            stand,
            beta,
        };
        let found = self.qsearch_moves::<PV>(moves, scores, &node, alpha);
        self.give_back_lists(ply, lists);
        let Some((best, best_move)) = found else {
            return 0; // stopped
        };
        if best_move != Move::NONE || best >= beta {
            self.shared.tt.store(
                key,
                Entry {
                    mv: best_move,
                    score: score_to_tt(best, ply),
                    eval: raw,
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

    /// Whether the quiescence search leaves tactical move `moves[i]` out (never when in
    /// check): losing captures, under-promotions, all but recaptures deep in the search, and
    /// captures that cannot raise the stand-pat score to alpha.
    fn qsearch_skips(&self, moves: &[Move], i: usize, n: &QNode, alpha: i32) -> bool {
        let m = moves[i];
        // Captures that lose material by static exchange are not worth a look.
        if loses_material(&self.pos, m) {
            return true;
        }
        // Of the promotions on one move, only the most valuable (picked first).
        if is_under_promotion(moves, i) {
            return true;
        }
        // Deep in the quiescence search only recaptures, as Stockfish once did: in crowded 3D
        // positions the capture tree explodes otherwise.
        if n.qply >= QS_RECAPTURES_ONLY && m.to() != n.last.to() {
            return true;
        }
        // Delta pruning: even winning the victim cannot reach alpha.
        if m.promotion().is_none() {
            let victim = self.pos.captured_piece(m);
            let gain = if victim.is_some() {
                self.pos.piece_value(victim)
            } else {
                0
            };
            if n.stand + gain + QS_DELTA_MARGIN <= alpha {
                return true;
            }
        }
        false
    }

    /// The quiescence move loop. Returns the best score (at least the stand-pat score) and
    /// the move that raised alpha, or `None` when the search was stopped.
    fn qsearch_moves<const PV: bool>(
        &mut self,
        moves: &mut MoveList,
        scores: &mut [i32],
        n: &QNode,
        mut alpha: i32,
    ) -> Option<(i32, Move)> {
        let (ply, beta) = (n.ply, n.beta);
        let team = self.pos.team_to_move();
        let mut best = n.stand;
        let mut best_move = Move::NONE;
        for i in 0..moves.len() {
            pick(moves.as_mut_slice(), scores, i);
            if !n.in_check && self.qsearch_skips(moves.as_slice(), i, n, alpha) {
                continue;
            }
            let m = moves.as_slice()[i];
            if PV {
                self.pv[ply + 1].clear();
            }
            self.make_move(m);
            let same = self.pos.team_to_move() == team;
            let v = self.child_q::<PV>(same, alpha, beta, ply + 1, n.qply + 1, m);
            self.pos.unmake();
            if self.stopped {
                return None;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    best_move = m;
                    if PV {
                        self.update_pv(ply, m);
                    }
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        Some((best, best_move))
    }
}
