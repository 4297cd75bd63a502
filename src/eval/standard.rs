//! The evaluation terms every 3D variant shares, driven by a per-variant [`Profile`].
//!
//! A profile is data computed once from the variant's geometry and movement: piece values from
//! typical mobility, centrality per cell, pawn progress per colour and cell, phase weights.
//! [`side_terms`] then scores one colour's pieces: material, centrality, pawn progress,
//! mobility (cells attacked that are not its own, against the piece's typical number), and
//! King safety (own pieces around its King; enemy pieces bearing on the enemy King's zone).
//! Each variant adds its own terms (reserves, bombs, missiles, team material) on top.
//!
//! Material and mobility are one term each unless the variant names a term per kind
//! ([`Profile::with_kind_terms`]: `"knight material"`, `"knight mobility"`, ...), so that the
//! tuner can fit each kind's value and mobility on its own; kinds without their own term stay
//! under the shared `"material"` and `"mobility"` weights.

use super::geometry::{centrality, value_from_mobility};
use super::weights::Weights;
use super::{Score, Trace};
use crate::rules::bitset::{BitSet, Cell};
use crate::rules::board::{Board, MAX_KINDS};
use crate::rules::geometry::Geometry;
use crate::rules::piece::{Colour, Kind, Piece};

// Weights (centipawns; Score = (middlegame, endgame)).

/// The King's value: more than everything else together (for move ordering only).
pub const KING_VALUE: i32 = 50_000;
/// The pawn's value, the unit.
pub const PAWN_VALUE: i32 = 100;
/// A piece's phase weight is its value divided by this (at least 1).
const PHASE_UNIT: i32 = 300;
/// Centrality weights: the score of the most central cell over the average one.
const KING_CENTRE: Score = Score(-30, 40);
/// See [`KING_CENTRE`].
const PAWN_CENTRE: Score = Score(10, 0);
/// See [`KING_CENTRE`].
const LEAPER_CENTRE: Score = Score(40, 30);
/// See [`KING_CENTRE`].
const SLIDER_CENTRE: Score = Score(15, 15);
/// Pawn progress `p` (0 at the start, 1 next to promotion) scores
/// `(PAWN_PROGRESS.0 * p, PAWN_PROGRESS.1 * p^2)`.
const PAWN_PROGRESS: (f64, f64) = (30.0, 90.0);
/// Per cell attacked beyond `MOBILITY_NEUTRAL` of the piece's typical mobility.
const MOBILITY: f64 = 2.0;
/// See [`MOBILITY`].
const MOBILITY_NEUTRAL: f64 = 0.5;
/// Middlegame bonus per own piece next to the King, up to `SHELTER_MAX` pieces.
const SHELTER: i32 = 6;
/// See [`SHELTER`].
const SHELTER_MAX: i32 = 8;
/// King attack, with two attackers or more: cells of the enemy King's zone attacked, times
/// the attackers, times this ...
const KING_ATTACK: i32 = 3;
/// ... at most this (middlegame).
const KING_ATTACK_MAX: i32 = 500;

/// The term list of a variant that uses [`side_terms`]: its terms first, in this order, then
/// the variant's own (`standard_terms!("reserve")`).
macro_rules! standard_terms {
    ($($own:literal),*) => {
        &[
            "material",
            "centrality",
            "pawn progress",
            "mobility",
            "king shelter",
            "king attack",
            $($own),*
        ]
    };
}
pub(crate) use standard_terms;

/// The terms of [`side_terms`].
pub const TERMS: &[&str] = standard_terms!();
/// Indices into [`TERMS`].
const MATERIAL_TERM: usize = 0;
const CENTRALITY_TERM: usize = 1;
const PAWN_TERM: usize = 2;
const MOBILITY_TERM: usize = 3;
const SHELTER_TERM: usize = 4;
const KING_ATTACK_TERM: usize = 5;
/// A variant's own terms are numbered from here.
pub const FIRST_OWN_TERM: usize = TERMS.len();

/// A variant's evaluation data.
pub struct Profile {
    /// The weights of the terms (shared ones first).
    pub weights: Weights,
    /// Material value by kind (the King's is large, for move ordering only).
    pub value: [i32; MAX_KINDS],
    /// Typical mobility by kind; the mobility term counts the difference from half of it.
    pub typical_mobility: [f64; MAX_KINDS],
    /// Centrality by cell (1 = centre, 0 = farthest cell).
    pub centre: Vec<f64>,
    /// Centrality weight by kind: the score of the most central cell over the average one.
    pub centre_weight: [Score; MAX_KINDS],
    /// Pawn progress by colour and cell: 0 at the start, 1 next to promotion.
    pub progress: [Vec<f64>; 4],
    /// Phase weight by kind.
    pub phase: [i32; MAX_KINDS],
    /// Total phase weight at the start position.
    pub phase_total: i32,
    /// The pawn kind, if the variant has pawns.
    pub pawn: Option<Kind>,
    /// The King kind.
    pub king: Kind,
    /// The weights term of each kind's material ([`MATERIAL_TERM`] unless it has its own).
    material_term: [usize; MAX_KINDS],
    /// The weights term of each kind's mobility ([`MOBILITY_TERM`] unless it has its own).
    mobility_term: [usize; MAX_KINDS],
    /// The scores [`side_terms`] adds up, worked out once by [`Profile::new`] from the fields
    /// above (which nothing changes after it): centrality by kind and cell (`kind * cells +
    /// cell`), ...
    placement_score: Vec<Score>,
    /// ... mobility by kind and number of cells attacked (`kind * (cells + 1) + n`) ...
    mobility_score: Vec<Score>,
    /// ... and pawn progress by colour and cell.
    progress_score: [Vec<Score>; 4],
}

/// The centrality score of a piece whose kind has centrality weight `w` on a cell of
/// centrality `centre`.
fn placement_score(w: Score, centre: f64) -> Score {
    let c = centre - 0.5;
    Score((w.0 as f64 * c) as i32, (w.1 as f64 * c) as i32)
}

/// The mobility score of a piece attacking `n` cells not its own, whose kind's typical
/// mobility is `typical`.
fn mobility_score(n: usize, typical: f64) -> Score {
    let mob = n as f64 - typical * MOBILITY_NEUTRAL;
    Score((MOBILITY * mob) as i32, (MOBILITY * mob) as i32)
}

/// The score of a pawn's progress `pr`.
fn progress_score(pr: f64) -> Score {
    Score(
        (PAWN_PROGRESS.0 * pr) as i32,
        (PAWN_PROGRESS.1 * pr * pr) as i32,
    )
}

/// Default centrality weights: leapers need the centre most; the King hides in the middlegame
/// and centralises in the endgame.
pub fn centre_weight(is_leaper: bool, is_king: bool, is_pawn: bool) -> Score {
    if is_king {
        KING_CENTRE
    } else if is_pawn {
        PAWN_CENTRE
    } else if is_leaper {
        LEAPER_CENTRE
    } else {
        SLIDER_CENTRE
    }
}

impl Profile {
    /// A profile with values from `typical` mobility per kind (`None` = no such kind), pawn
    /// and King kinds given, centrality from the geometry, and pawn progress from `progress`.
    pub fn new<const W: usize>(
        geo: &Geometry<W>,
        typical: &[Option<f64>],
        leaper: &[bool],
        pawn: Option<Kind>,
        king: Kind,
        progress: [Vec<f64>; 4],
        weights: Weights,
    ) -> Self {
        debug_assert_eq!(&weights.names()[..FIRST_OWN_TERM], TERMS);
        let mut value = [0; MAX_KINDS];
        let mut typical_mobility = [0.0; MAX_KINDS];
        let mut centre_w = [Score::default(); MAX_KINDS];
        let mut phase = [0; MAX_KINDS];
        for (k, m) in typical.iter().enumerate() {
            let is_pawn = pawn == Some(k as Kind);
            let is_king = king == k as Kind;
            centre_w[k] = centre_weight(leaper.get(k).copied().unwrap_or(false), is_king, is_pawn);
            let Some(m) = m else { continue };
            typical_mobility[k] = *m;
            value[k] = if is_king {
                KING_VALUE
            } else if is_pawn {
                PAWN_VALUE
            } else {
                value_from_mobility(*m)
            };
            if !is_king && !is_pawn {
                phase[k] = (value[k] / PHASE_UNIT).max(1);
            }
        }
        let centre = centrality(geo);
        let cells = geo.cells();
        let placement_score = (0..MAX_KINDS * cells)
            .map(|i| placement_score(centre_w[i / cells], centre[i % cells]))
            .collect();
        let mobility_score = (0..MAX_KINDS * (cells + 1))
            .map(|i| mobility_score(i % (cells + 1), typical_mobility[i / (cells + 1)]))
            .collect();
        let progress_score = progress
            .each_ref()
            .map(|cells| cells.iter().map(|&pr| progress_score(pr)).collect());
        Profile {
            weights,
            value,
            typical_mobility,
            centre,
            centre_weight: centre_w,
            progress,
            phase,
            phase_total: 1,
            pawn,
            king,
            material_term: [MATERIAL_TERM; MAX_KINDS],
            mobility_term: [MOBILITY_TERM; MAX_KINDS],
            placement_score,
            mobility_score,
            progress_score,
        }
    }

    /// Gives each kind of `kinds` (kind, name) its own material term `"NAME material"` and,
    /// if the term list has it, its own mobility term `"NAME mobility"`. Panics if a
    /// material term is missing from the variant's term list (a programming error).
    pub fn with_kind_terms(mut self, kinds: &[(Kind, &str)]) -> Self {
        let names = self.weights.names();
        let find = |n: String| names.iter().position(|x| *x == n);
        for &(k, name) in kinds {
            self.material_term[k as usize] = find(format!("{name} material"))
                .unwrap_or_else(|| panic!("no term '{name} material'"));
            if let Some(t) = find(format!("{name} mobility")) {
                self.mobility_term[k as usize] = t;
            }
        }
        self
    }

    /// Sets the total phase weight from a start position's board.
    pub fn with_start<const W: usize>(mut self, start: &Board<W>) -> Self {
        self.phase_total = self.phase_weight(start, start.occupied()).max(1);
        self
    }

    /// The summed phase weights of the pieces on `board` among `among`.
    pub fn phase_weight<const W: usize>(&self, board: &Board<W>, among: BitSet<W>) -> i32 {
        (0..MAX_KINDS)
            .map(|k| self.phase[k] * (board.kind(k as Kind) & among).len() as i32)
            .sum()
    }

    /// A piece's material value.
    #[inline(always)]
    pub fn piece_value(&self, piece: Piece) -> i32 {
        self.value[piece.kind() as usize]
    }

    /// Whether `us` has a piece besides its pawns and King, so that zugzwang is unlikely and
    /// null-move pruning sound.
    pub fn has_pieces<const W: usize>(&self, board: &Board<W>, us: Colour) -> bool {
        self.pieces(board, us).any()
    }

    /// `us`'s pieces besides its pawns and King.
    pub fn pieces<const W: usize>(&self, board: &Board<W>, us: Colour) -> BitSet<W> {
        let mut others = board.colour(us).and_not(board.kind(self.king));
        if let Some(pawn) = self.pawn {
            others = others.and_not(board.kind(pawn));
        }
        others
    }

    /// The evaluation of a two-colour position for `side_to_move`: `terms(colour, trace,
    /// phase)` scores each colour (adding its pieces' phase weights to `phase`), then
    /// [`Profile::finish`] tapers White's minus Black's and adds the tempo.
    pub fn two_colours<T: Trace>(
        &self,
        side_to_move: Colour,
        tempo: i32,
        trace: &mut T,
        mut terms: impl FnMut(Colour, &mut T, &mut i32) -> Score,
    ) -> i32 {
        let mut phase_sum = 0;
        let white = terms(Colour::WHITE, trace, &mut phase_sum);
        let black = terms(Colour::BLACK, trace, &mut phase_sum);
        self.finish(
            white,
            black,
            phase_sum,
            side_to_move == Colour::WHITE,
            tempo,
            trace,
        )
    }

    /// The taper phase (256 = middlegame) from a summed phase weight.
    pub fn phase_of(&self, sum: i32) -> i32 {
        (sum * 256 / self.phase_total).min(256)
    }

    /// The final score for the side to move: the first side's terms minus the second's
    /// (colours or teams), tapered by the phase of `phase_sum`, plus `tempo`.
    pub fn finish<T: Trace>(
        &self,
        first: Score,
        second: Score,
        phase_sum: i32,
        first_to_move: bool,
        tempo: i32,
        trace: &mut T,
    ) -> i32 {
        let phase = self.phase_of(phase_sum);
        trace.phase(phase);
        let v = (first - second).taper(phase);
        if first_to_move { v + tempo } else { -v + tempo }
    }
}

/// Records `s` as term number `term` (of `weights`) of `colour`'s team, and returns it
/// weighted, as the evaluation counts it.
#[inline(always)]
pub fn record<T: Trace>(
    trace: &mut T,
    weights: &Weights,
    term: usize,
    colour: Colour,
    s: Score,
) -> Score {
    let team = colour.team();
    trace.raw(term, team, s);
    let w = weights.apply(term, s);
    let name = weights.names()[term];
    if team == 0 {
        trace.term(name, w, Score::default());
    } else {
        trace.term(name, Score::default(), w);
    }
    w
}

/// What one colour's pieces reach: mobility by kind and the attack on the enemy King's zone.
#[derive(Default)]
struct Reach {
    mobility: [Score; MAX_KINDS],
    attackers: i32,
    attack_units: i32,
}

impl Reach {
    /// Adds a piece of kind `ku` of the colour whose pieces are `own`, attacking `att`.
    #[inline(always)]
    fn add<const W: usize>(
        &mut self,
        p: &Profile,
        ku: usize,
        att: BitSet<W>,
        own: BitSet<W>,
        enemy_king_zone: BitSet<W>,
    ) {
        let cells = p.centre.len();
        let reached = (att.and_not(own).len() as usize).min(cells);
        self.mobility[ku] += p.mobility_score[ku * (cells + 1) + reached];
        let near = (att & enemy_king_zone).len() as i32;
        if near > 0 {
            self.attackers += 1;
            self.attack_units += near;
        }
    }

    /// Mobility, the shelter of `us`'s King (its pieces `own` in `own_king_zone`) and the
    /// attack (with two attackers or more), weighted and recorded.
    fn terms<const W: usize, T: Trace>(
        &self,
        p: &Profile,
        trace: &mut T,
        us: Colour,
        own: BitSet<W>,
        own_king_zone: BitSet<W>,
    ) -> Score {
        let shelter = (own_king_zone & own).len() as i32;
        let shelter = Score(SHELTER * shelter.min(SHELTER_MAX), 0);
        let mut attack = Score::default();
        if self.attackers >= 2 {
            attack = Score(
                (self.attack_units * self.attackers * KING_ATTACK).min(KING_ATTACK_MAX),
                0,
            );
        }
        let w = &p.weights;
        by_kind(
            trace,
            w,
            MOBILITY_TERM,
            &p.mobility_term,
            us,
            &self.mobility,
        ) + record(trace, w, SHELTER_TERM, us, shelter)
            + record(trace, w, KING_ATTACK_TERM, us, attack)
    }
}

/// The shared terms of `us`'s pieces. `attacks(cell)` lists the cells the piece on `cell`
/// attacks; `own_king_zone` and `enemy_king_zone` are the cells around each King (empty when
/// a King is gone). Adds the pieces' phase weights to `phase`.
#[allow(clippy::too_many_arguments)]
pub fn side_terms<const W: usize, T: Trace>(
    p: &Profile,
    board: &Board<W>,
    us: Colour,
    attacks: impl Fn(Cell) -> BitSet<W>,
    own_king_zone: BitSet<W>,
    enemy_king_zone: BitSet<W>,
    trace: &mut T,
    phase: &mut i32,
) -> Score {
    let own = board.colour(us);
    let mut material = [Score::default(); MAX_KINDS];
    let mut placement = Score::default();
    let mut pawns = Score::default();
    let mut reach = Reach::default();
    let cells = p.centre.len();
    for cell in own {
        let k = board.piece_at(cell).kind();
        let ku = k as usize;
        *phase += p.phase[ku];
        placement += p.placement_score[ku * cells + cell];
        if k == p.king {
            continue;
        }
        material[ku] += Score(p.value[ku], p.value[ku]);
        if Some(k) == p.pawn {
            pawns += p.progress_score[us.idx()][cell];
            continue;
        }
        reach.add(p, ku, attacks(cell), own, enemy_king_zone);
    }
    let w = &p.weights;
    by_kind(trace, w, MATERIAL_TERM, &p.material_term, us, &material)
        + record(trace, w, CENTRALITY_TERM, us, placement)
        + record(trace, w, PAWN_TERM, us, pawns)
        + reach.terms(p, trace, us, own, own_king_zone)
}

/// The terms of [`side_terms`] that come from the pieces' reach, mobility and King safety
/// (the shelter of `us`'s King, `us`'s attack on the enemy King's zone), weighted as there:
/// what a network blends with ([`super::Evaluate::blend_terms`]), since it learns material,
/// centrality and pawn progress from its inputs but not these. Adds `us`'s phase weights to
/// `phase`.
pub fn reach_terms<const W: usize>(
    p: &Profile,
    board: &Board<W>,
    us: Colour,
    attacks: impl Fn(Cell) -> BitSet<W>,
    own_king_zone: BitSet<W>,
    enemy_king_zone: BitSet<W>,
    phase: &mut i32,
) -> Score {
    let own = board.colour(us);
    *phase += p.phase_weight(board, own);
    let mut reach = Reach::default();
    for cell in p.pieces(board, us) {
        let ku = board.piece_at(cell).kind() as usize;
        reach.add(p, ku, attacks(cell), own, enemy_king_zone);
    }
    reach.terms(p, &mut super::NoTrace, us, own, own_king_zone)
}

/// Records a per-kind score: the kinds under `shared` together, each other kind under its
/// own term (`term_of[kind]`); returns the weighted sum.
fn by_kind<T: Trace>(
    trace: &mut T,
    weights: &Weights,
    shared: usize,
    term_of: &[usize; MAX_KINDS],
    us: Colour,
    by_kind: &[Score; MAX_KINDS],
) -> Score {
    let mut together = Score::default();
    let mut total = Score::default();
    for (k, &s) in by_kind.iter().enumerate() {
        if term_of[k] == shared {
            together += s;
        } else if s != Score::default() {
            total += record(trace, weights, term_of[k], us, s);
        }
    }
    total + record(trace, weights, shared, us, together)
}

/// The unweighted terms an evaluation reports, as the tuner reads them: for the tests that
/// check which term a variant's pieces land on.
#[cfg(test)]
#[derive(Default)]
pub(super) struct RawTerms(Vec<(usize, usize, Score)>);

#[cfg(test)]
impl RawTerms {
    /// `pos` after `plies` moves (each the middle one of the move list, so that the pieces'
    /// mobility is not all at its typical value), with the terms its evaluation reports.
    pub fn after_plies<G: super::Evaluate>(mut pos: G, plies: usize) -> (G, RawTerms) {
        for _ in 0..plies {
            let mut list = crate::rules::MoveList::new();
            pos.generate(&mut list);
            let m = list.as_slice()[list.len() / 2];
            pos.make(m);
        }
        let mut raw = RawTerms::default();
        pos.evaluate_with(&mut raw);
        (pos, raw)
    }

    /// The sum of term `name` (of the variant's list `names`) for `team`.
    pub fn sum(&self, names: &[&str], name: &str, team: usize) -> Score {
        let t = names.iter().position(|n| *n == name).unwrap();
        self.0
            .iter()
            .filter(|r| r.0 == t && r.1 == team)
            .fold(Score::default(), |a, r| a + r.2)
    }
}

#[cfg(test)]
impl Trace for RawTerms {
    fn term(&mut self, _: &'static str, _: Score, _: Score) {}
    fn phase(&mut self, _: i32) {}
    fn raw(&mut self, term: usize, team: usize, value: Score) {
        self.0.push((term, team, value));
    }
}
