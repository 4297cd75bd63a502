//! Static evaluation, one implementation per variant, on top of the rules layer.
//!
//! Every evaluation is written once, generic over a [`Trace`]: the search passes [`NoTrace`]
//! (which compiles away), the `eval` command passes a [`Breakdown`] that records each term per
//! team. Terms are tapered between a middlegame and an endgame value by the game phase.

pub mod chess;
pub mod defined;
pub mod future;
pub mod geometry;
pub mod nnue;
pub mod pentaplane;
pub mod podionic;
pub mod polyhedron;
pub mod standard;
pub mod weights;

use crate::rules::Game;
use crate::rules::piece::Piece;

/// The fitted weights of a built-in variant's evaluation (`None` for the variants defined
/// in files, which are not fitted): those its position type's [`Evaluate::weights`] gives.
pub fn weights_of(variant: crate::rules::Variant) -> Option<&'static weights::Weights> {
    let start = crate::rules::AnyGame::startpos(variant);
    crate::with_game!(&start, g => g.weights())
}

/// How many correction histories the search keeps (see [`Evaluate::correction_keys`]).
pub const CORRECTION_KEYS: usize = 3;

/// The shape of a variant's continuation history (`Evaluate::history_shape`): how many piece
/// kinds and colours it has and how many cells its board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HistoryShape {
    /// Piece kinds.
    pub kinds: usize,
    /// Colours (2, or 4 in two teams).
    pub colours: usize,
    /// Cells of the board.
    pub cells: usize,
}

impl HistoryShape {
    /// The number of distinct arrivals (a piece of some kind and colour arriving on a cell).
    pub fn arrivals(self) -> usize {
        self.kinds * self.colours * self.cells
    }
}

/// A middlegame / endgame pair of centipawn values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score(pub i32, pub i32);

impl std::ops::Add for Score {
    type Output = Score;
    fn add(self, o: Score) -> Score {
        Score(self.0 + o.0, self.1 + o.1)
    }
}
impl std::ops::AddAssign for Score {
    fn add_assign(&mut self, o: Score) {
        self.0 += o.0;
        self.1 += o.1;
    }
}
impl std::ops::Sub for Score {
    type Output = Score;
    fn sub(self, o: Score) -> Score {
        Score(self.0 - o.0, self.1 - o.1)
    }
}
impl std::ops::Mul<i32> for Score {
    type Output = Score;
    fn mul(self, k: i32) -> Score {
        Score(self.0 * k, self.1 * k)
    }
}

impl Score {
    /// The value at `phase` (256 = middlegame, 0 = endgame).
    #[inline(always)]
    pub fn taper(self, phase: i32) -> i32 {
        (self.0 * phase + self.1 * (256 - phase)) / 256
    }
}

/// Receives the terms of an evaluation.
pub trait Trace {
    /// Records term `name` for each team (team 0 = White's, team 1 = Black's), weighted as
    /// the evaluation counts it.
    fn term(&mut self, name: &'static str, team0: Score, team1: Score);
    /// Records term number `term` of the variant's weights for `team` before its weight is
    /// applied (for the tuner).
    #[inline(always)]
    fn raw(&mut self, _term: usize, _team: usize, _value: Score) {}
    /// Records that the evaluation added entry `entry` of the variant's tables
    /// (`Weights::table`) once for `team` (for the tuner).
    #[inline(always)]
    fn table(&mut self, _entry: usize, _team: usize) {}
    /// Records the phase used for tapering.
    fn phase(&mut self, phase: i32);
}

/// Records nothing.
pub struct NoTrace;

impl Trace for NoTrace {
    #[inline(always)]
    fn term(&mut self, _: &'static str, _: Score, _: Score) {}
    #[inline(always)]
    fn phase(&mut self, _: i32) {}
}

/// Records every term, for the `eval` command.
#[derive(Default, Debug)]
pub struct Breakdown {
    /// (name, team 0, team 1), in the order recorded; repeated names add up.
    pub terms: Vec<(&'static str, Score, Score)>,
    /// The phase (256 = middlegame, 0 = endgame).
    pub phase: i32,
}

impl Trace for Breakdown {
    fn term(&mut self, name: &'static str, team0: Score, team1: Score) {
        match self.terms.iter_mut().find(|t| t.0 == name) {
            Some(t) => {
                t.1 += team0;
                t.2 += team1;
            }
            None => self.terms.push((name, team0, team1)),
        }
    }
    fn phase(&mut self, phase: i32) {
        self.phase = phase;
    }
}

impl Breakdown {
    /// The table printed by `eval`: one line per term, values from White's team's point of view.
    pub fn lines(&self, total_for_side_to_move: i32, team_to_move: usize) -> Vec<String> {
        let mut out = vec![
            format!(
                "{:<18} | {:>13} | {:>13} | {:>13}",
                "term", "White team", "Black team", "total"
            ),
            format!(
                "{:<18} | {:>6} {:>6} | {:>6} {:>6} | {:>6} {:>6}",
                "", "mg", "eg", "mg", "eg", "mg", "eg"
            ),
        ];
        let mut sum = Score::default();
        for (name, a, b) in &self.terms {
            let d = *a - *b;
            sum += d;
            out.push(format!(
                "{:<18} | {:>6} {:>6} | {:>6} {:>6} | {:>6} {:>6}",
                name, a.0, a.1, b.0, b.1, d.0, d.1
            ));
        }
        out.push(format!(
            "{:<18} | {:>13} | {:>13} | {:>6} {:>6}",
            "sum", "", "", sum.0, sum.1
        ));
        out.push(format!("phase {} / 256 (256 = middlegame)", self.phase));
        let white_pov = if team_to_move == 0 {
            total_for_side_to_move
        } else {
            -total_for_side_to_move
        };
        out.push(format!(
            "Final evaluation: {:+.2} (White's team), {:+.2} (side to move, with tempo)",
            white_pov as f64 / 100.0,
            total_for_side_to_move as f64 / 100.0
        ));
        out
    }
}

/// How the search plans its clock when the GUI does not say how many moves are left
/// (`Evaluate::clock_plan`; `search::time::moves_to_go` gives each plan's moves).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockPlan {
    /// Chess's plan: `MOVES_TO_GO_REFINED` moves to go, and the optimum scaled after each
    /// iteration by how settled the result is (`Worker::time_factor`).
    Chess,
    /// `MOVES_TO_GO_DEFAULT` moves to go, with a fixed share of the optimum.
    Default,
    /// A long game: `MOVES_TO_GO_LONG` moves to go, with the fixed share.
    Long,
}

/// A variant's evaluation, as the search needs it.
pub trait Evaluate: nnue::NetView + Game {
    /// The evaluation in centipawns from the point of view of the team to move, with every
    /// term reported to `trace`.
    fn evaluate_with<T: Trace>(&self, trace: &mut T) -> i32;

    /// The fitted weights of this variant's evaluation (`src/eval/weights/<variant>.txt`),
    /// or `None` where it has none (the variants defined in files).
    fn weights(&self) -> Option<&'static weights::Weights> {
        None
    }

    /// The evaluation in centipawns from the point of view of the team to move: the
    /// variant's network where it plays with one ([`nnue::current`]), blended with the
    /// hand-written terms where the network's file gives them a share
    /// ([`nnue::Net::terms_share`]) and adjusted by [`Evaluate::adjust_network`], else the
    /// terms.
    fn evaluate(&self) -> i32 {
        match nnue::current(self.variant()) {
            Some(net) => {
                self.adjust_network(net.blend(net.evaluate_fresh(self), || self.blend_terms()))
            }
            None => self.evaluate_with(&mut NoTrace),
        }
    }

    /// The evaluation, as [`Evaluate::evaluate`], by the search thread's `cache`: its
    /// network, with the accumulators of the line updated from the nearest position it
    /// holds (blended with the terms as its file says, and adjusted as
    /// [`Evaluate::adjust_network`] says); the hand-written terms where it has no network.
    #[inline(always)]
    fn evaluate_cached(&self, cache: &mut nnue::EvalCache) -> i32 {
        match cache.evaluate(self) {
            Some(v) => self.adjust_network(cache.blend(v, || self.blend_terms())),
            None => self.evaluate_with(&mut NoTrace),
        }
    }

    /// The network's evaluation `v` (blended where its file says; the team to move's view)
    /// as the search uses it: replaced where the variant knows better than its network
    /// (chess: a lone King against what forces mate, `chess::endgames`). Unchanged by
    /// default.
    #[inline(always)]
    fn adjust_network(&self, v: i32) -> i32 {
        v
    }

    /// The hand-written terms a network blends with where its file gives them a share
    /// ([`nnue::Net::terms_share`]), from the point of view of the team to move: all of
    /// them by default. A variant whose networks learn the rest may blend with fewer,
    /// cheaper ones; `train-net --terms-share` trains with the same.
    fn blend_terms(&self) -> i32 {
        self.evaluate_with(&mut NoTrace)
    }

    /// The name of the terms [`Evaluate::blend_terms`] gives ([`nnue::BLEND_ALL`] by
    /// default). A network file with a share of the terms records the name it was trained
    /// with, and is refused where the variant blends with other terms: a network learns what
    /// its terms miss, and would be played with the wrong part missing.
    fn blend_terms_name(&self) -> &'static str {
        nnue::BLEND_ALL
    }

    /// A piece's material value in centipawns (for move ordering and pruning margins; a King
    /// is worth more than everything else together).
    fn piece_value(&self, piece: Piece) -> i32;

    /// Whether the side to move has material that makes zugzwang unlikely, so that null-move
    /// pruning is sound.
    fn null_move_safe(&self) -> bool;

    /// Whether a piece of `colour`'s team could recapture on `cell` (for the default
    /// [`Evaluate::see`]). The default, "unknown", never prunes.
    fn defended_by(
        &self,
        _cell: crate::rules::bitset::Cell,
        _colour: crate::rules::piece::Colour,
    ) -> bool {
        false
    }

    /// The shape of the continuation history the search keeps for this variant (piece kinds,
    /// colours, cells), or `None` for none. Only variants whose arrivals (a piece arriving on
    /// a cell) are few enough for a direct table of pairs give one.
    fn history_shape(&self) -> Option<HistoryShape> {
        None
    }

    /// Whether the search uses its refinements measured in chess (history in the late-move
    /// reductions, ...; `search::alphabeta` names them). Chess and Pole Chess do; as a whole
    /// they lost 29 to 50 Elo in Podionic, Pentaplane and Polyhedron (docs/engine.md), so the
    /// other variants (the 3D ones, those defined in files) keep the search they were
    /// measured with.
    fn refined_search(&self) -> bool {
        false
    }

    /// How the search plans its clock when the GUI does not say how many moves are left.
    /// The plan is separate from the search refinements: a variant may keep its search and
    /// still take chess's plan. By default chess's plan comes with the refinements.
    fn clock_plan(&self) -> ClockPlan {
        if self.refined_search() {
            ClockPlan::Chess
        } else {
            ClockPlan::Default
        }
    }

    /// Keys of the features whose evaluation errors the search's correction histories learn,
    /// one table each (chess: the pawns; each side's other pieces with its King), or `None`
    /// for no correction.
    fn correction_keys(&self) -> Option<[u64; CORRECTION_KEYS]> {
        None
    }

    /// Whether the search prunes moves that lose material by [`Evaluate::see`]: only where
    /// the exchange is played out (chess's swap algorithm) and the pruning was measured to
    /// help. The default estimate is good enough for ordering only.
    fn see_pruning(&self) -> bool {
        false
    }

    /// Static exchange evaluation of a tactical move: the material it wins once the
    /// recaptures on its target cell have been played out, in centipawns. Negative means the
    /// move loses material. The default is the cheap estimate: the victim's value, minus the
    /// capturer's when that is worth more and the victim is defended
    /// ([`Evaluate::defended_by`]). Chess overrides it with the full swap algorithm.
    fn see(&self, mv: crate::rules::Move) -> i32 {
        let victim = self.captured_piece(mv);
        if victim.is_none() {
            return 0;
        }
        let gain = self.piece_value(victim);
        let attacker = self.piece_value(self.moved_piece(mv));
        if attacker > gain && self.defended_by(mv.to(), victim.colour()) {
            gain - attacker
        } else {
            gain
        }
    }
}
