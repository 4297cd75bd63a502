//! `strata tune`: Texel's method. Every term of a variant's evaluation has a middlegame and
//! an endgame weight ([`crate::eval::weights`]), and a variant may have tables of additive
//! values (piece-square, mobility); this fits them to positions labelled with their games' results by
//! minimising the logistic loss (cross-entropy) of the result given the evaluation, with
//! Adam, and writes the weights file the evaluation reads.
//!
//! The evaluation is linear in the weights: each position's terms are taken once, unweighted
//! (through [`Trace::raw`]), with the table entries it adds (through
//! [`Trace::table`]), and the model of its evaluation is
//! `rest + sum over terms of (w_mg * mg * phase + w_eg * eg * (256 - phase)) / 256
//! + sum over entries of count * (t_mg * phase + t_eg * (256 - phase)) / 256`, where
//! `rest` is what the weights do not touch (the tempo, rounding, chess's pawnless scaling),
//! fixed so that the model equals the real evaluation at the starting weights. The logistic
//! curve's scale `k` is fitted first, to the starting weights, and then held.
//!
//! A table entry seen in few positions would be moved by Adam as fast as one seen in many
//! (Adam's steps do not depend on the gradient's size), so the table's values are pulled
//! towards zero by a decay: an entry moves only as far as its positions' evidence carries it
//! (one that no position uses returns to zero).

use super::data::Sample;
use crate::eval::weights::{ONE, Weights};
use crate::eval::{Evaluate, Score, Trace};
use crate::rules::{AnyGame, Game, Variant};
use crate::with_game;

/// The largest weight a fit gives (as a factor; the weights files accept up to 8).
const MAX_WEIGHT: f64 = 8.0;

/// How to fit.
#[derive(Clone, Debug)]
pub struct Config {
    /// Full passes over the training positions.
    pub iterations: usize,
    /// Adam's step size, in weight units (1.0 = [`ONE`]).
    pub rate: f64,
    /// The target is `lambda * result + (1 - lambda) * sigmoid(search score)`: 1 fits the
    /// results alone.
    pub lambda: f64,
    /// Every this many games one is held out for validation, all its positions: positions of
    /// one game share its accidents, so a validation set drawn from the training games cannot
    /// tell a fit to those accidents from a fit to the variant.
    pub holdout_every: usize,
    /// Terms (by name) held at their current weights, e.g. material as the anchor of the
    /// scale while the rest moves; a table's name (`pst`, `mob`) holds that table.
    pub keep: Vec<String>,
    /// Pairs of positions (better, worse) whose evaluations the fit must keep in that order,
    /// by at least [`ORDER_MARGIN`], for what the games seldom show: a pawn next to its row
    /// worth less than the Queen it becomes (positions after a promotion are rare in the
    /// data, since such games end soon after).
    pub order: Vec<(AnyGame, AnyGame)>,
    /// Adam's step size for the tables' values, in centipawns.
    pub table_rate: f64,
    /// The decay of the table's values: `decay * value` is added to each one's gradient.
    pub table_decay: f64,
}

/// The least difference, in centipawns, between the evaluations of an ordered pair.
pub const ORDER_MARGIN: f64 = 50.0;
/// The penalty of an ordered pair out of order (or closer than [`ORDER_MARGIN`]), per
/// centipawn squared, added to the mean log loss: 100 cp out of order costs 0.01.
const ORDER_WEIGHT: f64 = 1e-6;

/// The largest table value a fit gives, in centipawns.
const MAX_TABLE: f64 = crate::eval::weights::TABLE_MAX as f64;

impl Default for Config {
    fn default() -> Self {
        Config {
            iterations: 2000,
            rate: 0.005,
            lambda: 1.0,
            holdout_every: 10,
            keep: Vec::new(),
            order: Vec::new(),
            table_rate: 1.0,
            table_decay: 1e-7,
        }
    }
}

/// One position as the model sees it.
#[derive(Clone, Debug)]
struct Point {
    /// Middlegame share of the taper (phase / 256).
    mg: f64,
    /// The evaluation's part that the weights do not touch (White's team's view).
    rest: f64,
    /// (term, middlegame, endgame): White's team's term minus Black's, unweighted.
    terms: Vec<(usize, f64, f64)>,
    /// (parameter index of the entry's middlegame value, count): how often White's team's
    /// pieces use a table entry less how often Black's do.
    cells: Vec<(usize, f64)>,
    target: f64,
    /// The search's score (White's team's view), for the target's second part.
    score: f64,
    result: f64,
}

/// What a fit found.
#[derive(Clone, Debug)]
pub struct Fit {
    /// The fitted weights.
    pub weights: Weights,
    /// The logistic curve's scale: win probability `1 / (1 + exp(-k * eval))`.
    pub k: f64,
    /// Positions trained on.
    pub train: usize,
    /// Positions held out for validation.
    pub validation: usize,
    /// Loss on the training and validation positions before and after.
    pub train_before: f64,
    /// See `train_before`.
    pub train_after: f64,
    /// See `train_before`.
    pub validation_before: f64,
    /// See `train_before`.
    pub validation_after: f64,
    /// Each ordered pair's difference (better minus worse, centipawns, White's team's
    /// view) before and after.
    pub order: Vec<(f64, f64)>,
}

impl Fit {
    /// The header of the weights file this fit writes (its lines, to go before the weights
    /// as comments): the variant, the command that `made_by` names, the positions, the
    /// settings of `config`, the losses, the ordered pairs, and a `Data:` line per header
    /// of the position files (`data`).
    pub fn header(
        &self,
        variant: Variant,
        made_by: &str,
        config: &Config,
        data: &[String],
    ) -> Vec<String> {
        let mut header = vec![
            format!(
                "Evaluation weights of {}: each term's middlegame and endgame weight (1024 = as computed).",
                variant.name()
            ),
            format!("Made by: {made_by}"),
            format!(
                "{} training and {} validation positions, k = {:.6}, {} iterations of Adam (rate {}, lambda {}, table rate {}, table decay {})",
                self.train,
                self.validation,
                self.k,
                config.iterations,
                config.rate,
                config.lambda,
                config.table_rate,
                config.table_decay
            ),
            format!(
                "Log loss: training {:.6} -> {:.6}, validation {:.6} -> {:.6}",
                self.train_before, self.train_after, self.validation_before, self.validation_after
            ),
        ];
        if !self.order.is_empty() {
            let least = |pick: fn(&(f64, f64)) -> f64| {
                self.order.iter().map(pick).fold(f64::INFINITY, f64::min)
            };
            header.push(format!(
                "Ordered pairs: {}, least difference (better - worse) {:.0} -> {:.0} cp",
                self.order.len(),
                least(|o| o.0),
                least(|o| o.1)
            ));
        }
        header.extend(data.iter().map(|m| format!("Data: {m}")));
        header
    }
}

/// Receives the unweighted terms and the phase of one evaluation.
#[derive(Default)]
struct Raw {
    terms: Vec<(usize, usize, Score)>,
    /// (entry, team) for each table entry added.
    table: Vec<(usize, usize)>,
    phase: i32,
}

impl Trace for Raw {
    fn term(&mut self, _: &'static str, _: Score, _: Score) {}
    fn phase(&mut self, phase: i32) {
        self.phase = phase;
    }
    fn raw(&mut self, term: usize, team: usize, value: Score) {
        self.terms.push((term, team, value));
    }
    fn table(&mut self, entry: usize, team: usize) {
        self.table.push((entry, team));
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Cross-entropy of prediction `p` for target `t`.
fn log_loss(p: f64, t: f64) -> f64 {
    let p = p.clamp(1e-12, 1.0 - 1e-12);
    -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
}

impl Point {
    /// The point of `sample`, whose evaluation is taken with the parameters `scale` (two
    /// per term, then two per table entry, as [`current`] gives them).
    fn new(game: &AnyGame, sample: &Sample, scale: &[f64], terms_len: usize) -> Point {
        let mut raw = Raw::default();
        let (eval, team) = with_game!(game, g => (g.evaluate_with(&mut raw), g.team_to_move()));
        let white = if team == 0 { eval } else { -eval } as f64;
        let mut terms: Vec<(usize, f64, f64)> = Vec::new();
        for (term, t, v) in raw.terms {
            let sign = if t == 0 { 1.0 } else { -1.0 };
            match terms.iter_mut().find(|x| x.0 == term) {
                Some(x) => {
                    x.1 += sign * v.0 as f64;
                    x.2 += sign * v.1 as f64;
                }
                None => terms.push((term, sign * v.0 as f64, sign * v.1 as f64)),
            }
        }
        terms.retain(|x| x.1 != 0.0 || x.2 != 0.0);
        let mut cells: Vec<(usize, f64)> = Vec::new();
        for (entry, t) in raw.table {
            let i = 2 * (terms_len + entry);
            let sign = if t == 0 { 1.0 } else { -1.0 };
            match cells.iter_mut().find(|x| x.0 == i) {
                Some(x) => x.1 += sign,
                None => cells.push((i, sign)),
            }
        }
        cells.retain(|x| x.1 != 0.0);
        let mut p = Point {
            mg: raw.phase as f64 / 256.0,
            rest: 0.0,
            terms,
            cells,
            target: sample.result,
            score: sample.score as f64,
            result: sample.result,
        };
        p.rest = white - p.eval(scale);
        p
    }

    /// Adds `d` times the gradient of the model's evaluation to `grad`.
    #[inline]
    fn add_gradient(&self, d: f64, grad: &mut [f64]) {
        for &(t, mg, eg) in &self.terms {
            grad[2 * t] += d * mg * self.mg;
            grad[2 * t + 1] += d * eg * (1.0 - self.mg);
        }
        for &(i, c) in &self.cells {
            grad[i] += d * c * self.mg;
            grad[i + 1] += d * c * (1.0 - self.mg);
        }
    }

    /// The model's evaluation under `scale` (2 per term, 1.0 = as computed, then 2 per
    /// table entry in centipawns).
    #[inline]
    fn eval(&self, scale: &[f64]) -> f64 {
        let mut e = self.rest;
        for &(t, mg, eg) in &self.terms {
            e += scale[2 * t] * mg * self.mg + scale[2 * t + 1] * eg * (1.0 - self.mg);
        }
        for &(i, n) in &self.cells {
            e += n * (scale[i] * self.mg + scale[i + 1] * (1.0 - self.mg));
        }
        e
    }
}

/// The weights as parameters: two scale factors per term, then the tables'
/// values (two per entry, centipawns).
fn current(w: &Weights) -> Vec<f64> {
    let scales = (0..w.names().len()).flat_map(|t| {
        let s = w.get(t);
        [s.0 as f64 / ONE as f64, s.1 as f64 / ONE as f64]
    });
    let table = (0..w.table_len()).flat_map(|i| {
        let s = w.table(i);
        [s.0 as f64, s.1 as f64]
    });
    scales.chain(table).collect()
}

fn mean_loss(points: &[Point], scale: &[f64], k: f64) -> f64 {
    let sum: f64 = points
        .iter()
        .map(|p| log_loss(sigmoid(k * p.eval(scale)), p.target))
        .sum();
    sum / points.len().max(1) as f64
}

/// The `k` that minimises the loss of `points` at `scale` (golden-section search).
fn fit_k(points: &[Point], scale: &[f64]) -> f64 {
    let (mut a, mut b) = (1e-4f64, 0.05f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let c = b - g * (b - a);
        let d = a + g * (b - a);
        if mean_loss(points, scale, c) < mean_loss(points, scale, d) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

/// Which of the `len` fitted values (each term's and table entry's two weights, in the
/// order of [`current`]) the fit may move: all but those of the terms and tables `keep`
/// names.
fn free_values(weights: &Weights, keep: &[String], len: usize) -> Result<Vec<bool>, String> {
    let terms_len = weights.names().len();
    let mut free = vec![true; len];
    for name in keep {
        if let Some(r) = weights.table_range(name) {
            free[2 * (terms_len + r.start)..2 * (terms_len + r.end)]
                .iter_mut()
                .for_each(|f| *f = false);
            continue;
        }
        let t = weights
            .names()
            .iter()
            .position(|n| n == name)
            .ok_or_else(|| {
                format!(
                    "no term or table '{name}' (terms: {}; tables: {})",
                    weights.names().join(", "),
                    weights.table_words().join(", ")
                )
            })?;
        free[2 * t] = false;
        free[2 * t + 1] = false;
    }
    Ok(free)
}

/// Fits `weights` (the variant's current ones) to `samples`, of which `games` gives each
/// one's game; `progress` hears of every hundredth iteration (iteration, training loss).
pub fn fit(
    samples: &[(AnyGame, Sample)],
    games: &[usize],
    weights: &Weights,
    config: &Config,
    progress: &dyn Fn(usize, f64),
) -> Result<Fit, String> {
    if samples.len() < 10 {
        return Err(format!("{} positions: too few to fit", samples.len()));
    }
    if games.len() != samples.len() {
        return Err(format!(
            "{} games for {} positions",
            games.len(),
            samples.len()
        ));
    }
    let every = config.holdout_every.max(2);
    let start = current(weights);
    let terms_len = weights.names().len();
    let free = free_values(weights, &config.keep, start.len())?;
    let (mut train, mut validation) = (Vec::new(), Vec::new());
    for ((g, s), game) in samples.iter().zip(games) {
        let p = Point::new(g, s, &start, terms_len);
        if game % every == every - 1 {
            validation.push(p);
        } else {
            train.push(p);
        }
    }
    if train.is_empty() || validation.is_empty() {
        return Err(format!(
            "{} training and {} validation positions: every {every}th game is held out, \
             so at least {every} games are needed",
            train.len(),
            validation.len()
        ));
    }
    let point = |g: &AnyGame| {
        let s = Sample {
            fen: String::new(),
            score: 0,
            result: 0.5,
        };
        Point::new(g, &s, &start, terms_len)
    };
    let order: Vec<(Point, Point)> = config
        .order
        .iter()
        .map(|(b, w)| (point(b), point(w)))
        .collect();
    let k = fit_k(&train, &start);
    for p in train.iter_mut().chain(validation.iter_mut()) {
        p.target = config.lambda * p.result + (1.0 - config.lambda) * sigmoid(k * p.score);
    }
    let train_before = mean_loss(&train, &start, k);
    let validation_before = mean_loss(&validation, &start, k);
    // Adam.
    let n = start.len();
    let mut scale = start.clone();
    let (mut m, mut v) = (vec![0.0; n], vec![0.0; n]);
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8f64);
    let mut grad = vec![0.0; n];
    for it in 1..=config.iterations {
        grad.iter_mut().for_each(|g| *g = 0.0);
        for p in &train {
            let e = p.eval(&scale);
            // d(log loss)/d(eval) for the logistic curve.
            let d = (sigmoid(k * e) - p.target) * k;
            p.add_gradient(d, &mut grad);
        }
        let norm = 1.0 / train.len() as f64;
        grad.iter_mut().for_each(|g| *g *= norm);
        for (better, worse) in &order {
            let short = worse.eval(&scale) + ORDER_MARGIN - better.eval(&scale);
            if short > 0.0 {
                worse.add_gradient(2.0 * ORDER_WEIGHT * short, &mut grad);
                better.add_gradient(-2.0 * ORDER_WEIGHT * short, &mut grad);
            }
        }
        for i in (0..n).filter(|&i| free[i]) {
            let table = i >= 2 * terms_len;
            let mut g = grad[i];
            if table {
                g += config.table_decay * scale[i];
            }
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - b1.powi(it as i32));
            let vh = v[i] / (1.0 - b2.powi(it as i32));
            scale[i] = if table {
                (scale[i] - config.table_rate * mh / (vh.sqrt() + eps)).clamp(-MAX_TABLE, MAX_TABLE)
            } else {
                (scale[i] - config.rate * mh / (vh.sqrt() + eps)).clamp(0.0, MAX_WEIGHT)
            };
        }
        if it % 100 == 0 {
            progress(it, mean_loss(&train, &scale, k));
        }
    }
    let mut fitted = weights.clone();
    for t in 0..terms_len {
        let w = |x: f64| (x * ONE as f64).round() as i32;
        fitted.set(t, Score(w(scale[2 * t]), w(scale[2 * t + 1])));
    }
    for e in 0..weights.table_len() {
        let i = 2 * (terms_len + e);
        let cp = |x: f64| x.round() as i32;
        fitted.set_table(e, Score(cp(scale[i]), cp(scale[i + 1])));
    }
    // The loss of the weights as they will be written (rounded).
    let written = current(&fitted);
    let order = order
        .iter()
        .map(|(b, w)| {
            let before = b.eval(&start) - w.eval(&start);
            (before, b.eval(&written) - w.eval(&written))
        })
        .collect();
    Ok(Fit {
        order,
        weights: fitted,
        k,
        train: train.len(),
        validation: validation.len(),
        train_before,
        train_after: mean_loss(&train, &written, k),
        validation_before,
        validation_after: mean_loss(&validation, &written, k),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::weights_of;
    use crate::rules::Variant;

    /// Positions where one term decides the result: the fit raises that term's weight and
    /// lowers the loss, and the model at the starting weights is the real evaluation.
    #[test]
    fn the_fit_follows_the_results_and_starts_from_the_real_evaluation() {
        let w = weights_of(Variant::Chess)
            .expect("chess has weights")
            .clone();
        // White a pawn up on the e-file, passed: White wins; the mirror: Black wins.
        let wins = [
            ("4k3/8/8/8/4P3/8/8/4K3 w - - 0 1", 1.0),
            ("4k3/8/8/4P3/8/8/8/4K3 b - - 0 1", 1.0),
            ("4k3/8/8/4p3/8/8/8/4K3 w - - 0 1", 0.0),
            ("4k3/8/8/8/4p3/8/8/4K3 b - - 0 1", 0.0),
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", 0.5),
        ];
        let mut samples = Vec::new();
        for i in 0..40 {
            let (fen, r) = wins[i % wins.len()];
            let g = AnyGame::from_fen(Variant::Chess, fen).unwrap();
            samples.push((
                g,
                Sample {
                    fen: fen.into(),
                    score: 0,
                    result: r,
                },
            ));
        }
        let p = Point::new(&samples[0].0, &samples[0].1, &current(&w), w.names().len());
        let real =
            with_game!(&samples[0].0, g => g.evaluate_with(&mut crate::eval::NoTrace)) as f64;
        assert!((p.eval(&current(&w)) - real).abs() < 1e-6);
        // Every position its own game, every third held out: all five kinds in both sets.
        let games: Vec<usize> = (1..=samples.len()).collect();
        let config = Config {
            iterations: 300,
            rate: 0.02,
            holdout_every: 3,
            ..Config::default()
        };
        let free = fit(&samples, &games, &w, &config, &|_, _| {}).unwrap();
        assert!(free.train_after < free.train_before, "{free:?}");
        assert!(free.validation_after < free.validation_before, "{free:?}");
        // With material kept, material stays where it was and the other terms still move.
        let material = w.names().iter().position(|n| *n == "material").unwrap();
        let kept = Config {
            keep: vec!["material".into()],
            ..config.clone()
        };
        let held = fit(&samples, &games, &w, &kept, &|_, _| {}).unwrap();
        assert_ne!(free.weights.get(material), w.get(material));
        assert_eq!(held.weights.get(material), w.get(material));
        assert_ne!(held.weights, w);
        // From an empty table, the table learns that a pawn on e4 (cell 28 from its side's
        // view) wins these endgames, and an entry no position uses (a Knight on a1) stays 0.
        let mut empty = w.clone();
        for e in 0..w.table_len() {
            empty.set_table(e, Score(0, 0));
        }
        let learnt = fit(&samples, &games, &empty, &config, &|_, _| {}).unwrap();
        assert!(
            learnt.weights.table(28).1 > 0,
            "{:?}",
            learnt.weights.table(28)
        );
        assert_eq!(learnt.weights.table(64), Score(0, 0));
        let table_kept = Config {
            keep: w.table_words().iter().map(|t| t.to_string()).collect(),
            ..config.clone()
        };
        let scales_only = fit(&samples, &games, &w, &table_kept, &|_, _| {}).unwrap();
        for e in 0..w.table_len() {
            assert_eq!(scales_only.weights.table(e), w.table(e), "{e}");
        }
        // Keeping one table holds it alone.
        let mob_kept = Config {
            keep: vec!["mob".into()],
            ..config.clone()
        };
        let mob = w.table_range("mob").unwrap();
        let pst_moves = fit(&samples, &games, &w, &mob_kept, &|_, _| {}).unwrap();
        for e in mob.clone() {
            assert_eq!(pst_moves.weights.table(e), w.table(e), "{e}");
        }
        assert!((0..mob.start).any(|e| pst_moves.weights.table(e) != w.table(e)));
        // An ordered pair against the data (the bare Kings above White's extra pawn): the fit
        // moves the pair's difference up from the start, and above where the free fit takes it.
        let bare = AnyGame::from_fen(Variant::Chess, wins[4].0).unwrap();
        let pawn = AnyGame::from_fen(Variant::Chess, wins[0].0).unwrap();
        let ordered = Config {
            order: vec![(bare.clone(), pawn.clone())],
            ..config.clone()
        };
        let kept_low = fit(&samples, &games, &w, &ordered, &|_, _| {}).unwrap();
        let (before, after) = kept_low.order[0];
        let real = |g: &AnyGame| with_game!(g, g => g.evaluate_with(&mut crate::eval::NoTrace));
        assert!((before - (real(&bare) - real(&pawn)) as f64).abs() < 1e-6);
        assert!(before < 0.0 && after > before, "{before} {after}");
        let terms = w.names().len();
        let (b, p) = (
            Point::new(&samples[4].0, &samples[4].1, &current(&w), terms),
            Point::new(&samples[0].0, &samples[0].1, &current(&w), terms),
        );
        let free_diff = |f: &Fit| b.eval(&current(&f.weights)) - p.eval(&current(&f.weights));
        assert!(free_diff(&free) < after, "{} {after}", free_diff(&free));
        assert!((free_diff(&kept_low) - after).abs() < 1.0);
        let unknown = Config {
            keep: vec!["no such term".into()],
            ..config.clone()
        };
        let err = fit(&samples, &games, &w, &unknown, &|_, _| {}).unwrap_err();
        assert!(err.contains("no term or table 'no such term'"), "{err}");
        // Ten games of four positions: games 2, 5 and 8 are held out, all their positions.
        let in_games: Vec<usize> = (0..samples.len()).map(|i| 1 + i / 4).collect();
        let whole = fit(&samples, &in_games, &w, &config, &|_, _| {}).unwrap();
        assert_eq!((whole.train, whole.validation), (28, 12));
        // One game: nothing to hold out.
        let one = vec![1; samples.len()];
        let err = fit(&samples, &one, &w, &config, &|_, _| {}).unwrap_err();
        assert!(err.contains("at least 3 games"), "{err}");
    }
}
