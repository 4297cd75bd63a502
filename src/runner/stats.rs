//! Match statistics: score, Elo difference with its 95% interval, normalised Elo, LOS, draw
//! ratio, pentanomial counts and the sequential probability ratio test (SPRT).
//!
//! The formulas are the published ones of the two runners whose output we mimic, so that the
//! same counts give the same figures (`tests/match_stats.rs` checks them against figures
//! those programs printed):
//! - fastchess (`elo_wdl.cpp`, `elo_pentanomial.cpp`, `sprt.cpp`): score and variance per game
//!   (trinomial) or per game pair (pentanomial), Elo = -400 log10(1/s - 1), the error as half
//!   the width of the Elo interval of s ± 1.96 sigma, nElo = (s - 0.5) / sigma in
//!   800/ln(10) units, LOS from the normal approximation, and the generalised SPRT of
//!   M. Van den Bergh ("Comments on Normalized Elo"): the log-likelihood ratio of the maximum
//!   likelihood distributions with the score (logistic model) or the normalised score
//!   (normalized model) fixed at the two hypotheses.
//! - cutechess (`elo.cpp`, `sprt.cpp`): the same trinomial Elo but with Winitzki's
//!   approximation of the inverse error function, LOS = Phi((W - L) / sqrt(W + L)), and the
//!   BayesElo SPRT with the draw Elo estimated from the sample.

/// The two-sided 95% normal quantile fastchess uses.
const Z95: f64 = 1.959963984540054;

/// 800 / ln(10): the Elo scale of a normalised score difference.
fn nelo_scale() -> f64 {
    800.0 / std::f64::consts::LN_10
}

/// The Elo difference of an expected score `s` (logistic model).
pub fn score_to_elo(s: f64) -> f64 {
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The expected score of an Elo difference (logistic model).
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function, to about 1e-14: its Maclaurin series near zero, the Laplace continued
/// fraction of erfc further out (Rust's standard library has no `erf`).
pub fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    let a = x.abs();
    let value = if a < 2.5 {
        // erf(a) = 2/sqrt(pi) * sum (-1)^n a^(2n+1) / (n! (2n+1))
        let mut term = a; // (-1)^n a^(2n+1) / n!
        let mut sum = a;
        let mut n = 0.0;
        while term.abs() > 1e-17 * sum.abs() {
            n += 1.0;
            term *= -a * a / n;
            sum += term / (2.0 * n + 1.0);
        }
        sum * 2.0 / std::f64::consts::PI.sqrt()
    } else if a > 27.0 {
        1.0
    } else {
        // erfc(a) = exp(-a^2)/sqrt(pi) * 1/(a + (1/2)/(a + 1/(a + (3/2)/(a + ...)))),
        // evaluated from the tail (150 levels are far more than enough for a >= 2.5).
        let mut frac = a;
        for k in (1..150).rev() {
            frac = a + (k as f64 / 2.0) / frac;
        }
        1.0 - (-a * a).exp() / std::f64::consts::PI.sqrt() / frac
    };
    if x < 0.0 { -value } else { value }
}

/// The standard normal distribution function.
pub fn phi(x: f64) -> f64 {
    0.5 * (1.0 + erf(x / std::f64::consts::SQRT_2))
}

/// Game results from the first engine's point of view, and game pairs (same opening, colours
/// swapped) as pentanomial counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Games won by the first engine.
    pub wins: u32,
    /// Games lost by the first engine.
    pub losses: u32,
    /// Drawn games.
    pub draws: u32,
    /// Pairs lost twice (0 points of 2).
    pub penta_ll: u32,
    /// Pairs with a loss and a draw (0.5).
    pub penta_ld: u32,
    /// Pairs with a win and a loss (1).
    pub penta_wl: u32,
    /// Pairs with two draws (1).
    pub penta_dd: u32,
    /// Pairs with a win and a draw (1.5).
    pub penta_wd: u32,
    /// Pairs won twice (2).
    pub penta_ww: u32,
}

/// One game's result for the first engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The first engine won.
    Win,
    /// Drawn.
    Draw,
    /// The first engine lost.
    Loss,
}

impl Stats {
    /// Counts from W/D/L only (no pairs).
    pub fn wdl(wins: u32, draws: u32, losses: u32) -> Stats {
        Stats {
            wins,
            draws,
            losses,
            ..Stats::default()
        }
    }

    /// Counts from pentanomial pair counts `[LL, LD, WL+DD, WD, WW]` as fastchess prints
    /// them (`Ptnml(0-2)`), with `wl` of the middle count being win+loss pairs; the game counts
    /// follow from the pairs.
    pub fn from_pentanomial(ptnml: [u32; 5], wl: u32) -> Stats {
        let [ll, ld, mid, wd, ww] = ptnml;
        let dd = mid - wl;
        Stats {
            wins: wl + wd + 2 * ww,
            losses: wl + ld + 2 * ll,
            draws: ld + wd + 2 * dd,
            penta_ll: ll,
            penta_ld: ld,
            penta_wl: wl,
            penta_dd: dd,
            penta_wd: wd,
            penta_ww: ww,
        }
    }

    /// Adds one game.
    pub fn add_game(&mut self, o: Outcome) {
        match o {
            Outcome::Win => self.wins += 1,
            Outcome::Draw => self.draws += 1,
            Outcome::Loss => self.losses += 1,
        }
    }

    /// Adds one finished pair.
    pub fn add_pair(&mut self, a: Outcome, b: Outcome) {
        use Outcome::*;
        match (a, b) {
            (Win, Win) => self.penta_ww += 1,
            (Win, Draw) | (Draw, Win) => self.penta_wd += 1,
            (Win, Loss) | (Loss, Win) => self.penta_wl += 1,
            (Draw, Draw) => self.penta_dd += 1,
            (Loss, Draw) | (Draw, Loss) => self.penta_ld += 1,
            (Loss, Loss) => self.penta_ll += 1,
        }
    }

    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// Points of the first engine.
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// Finished pairs.
    pub fn pairs(&self) -> u32 {
        self.penta_ll
            + self.penta_ld
            + self.penta_wl
            + self.penta_dd
            + self.penta_wd
            + self.penta_ww
    }

    /// The pentanomial counts as printed: `[LL, LD, WL+DD, WD, WW]`.
    pub fn pentanomial(&self) -> [u32; 5] {
        [
            self.penta_ll,
            self.penta_ld,
            self.penta_wl + self.penta_dd,
            self.penta_wd,
            self.penta_ww,
        ]
    }

    /// Draws per game in percent.
    pub fn draw_ratio(&self) -> f64 {
        100.0 * self.draws as f64 / self.games() as f64
    }

    /// Pairs scoring one point (WL or DD) per pair, in percent (fastchess's pentanomial
    /// `DrawRatio`).
    pub fn draw_ratio_penta(&self) -> f64 {
        100.0 * (self.penta_wl + self.penta_dd) as f64 / self.pairs() as f64
    }

    /// Winning pairs per losing pair (fastchess `PairsRatio`).
    pub fn pairs_ratio(&self) -> f64 {
        (self.penta_ww + self.penta_wd) as f64 / (self.penta_ld + self.penta_ll) as f64
    }

    /// WL pairs per DD pair (fastchess `WL/DD Ratio`).
    pub fn wl_dd_ratio(&self) -> f64 {
        self.penta_wl as f64 / self.penta_dd as f64
    }

    /// The same counts seen from the second engine.
    pub fn flipped(&self) -> Stats {
        Stats {
            wins: self.losses,
            losses: self.wins,
            penta_ww: self.penta_ll,
            penta_ll: self.penta_ww,
            penta_wd: self.penta_ld,
            penta_ld: self.penta_wd,
            ..*self
        }
    }
}

/// An Elo estimate with its 95% interval, as fastchess computes it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Elo {
    /// Expected score of the first engine.
    pub score: f64,
    /// Variance of one sample (a game, or a pair's mean score).
    pub variance: f64,
    /// Number of samples (games or pairs).
    pub samples: f64,
    /// Elo difference.
    pub diff: f64,
    /// Half width of the 95% interval.
    pub error: f64,
    /// Normalised Elo.
    pub nelo: f64,
    /// Half width of the normalised Elo's 95% interval.
    pub nelo_error: f64,
    /// Likelihood of superiority, 0..1.
    pub los: f64,
}

impl Elo {
    /// From the outcome values `a_i` of a sample and their counts. `pair` scales the
    /// normalised Elo as fastchess does for pentanomial samples.
    fn from_distribution(values: &[f64], counts: &[u32], pair: bool) -> Elo {
        let n: f64 = counts.iter().map(|&c| c as f64).sum();
        let score = values
            .iter()
            .zip(counts)
            .map(|(a, &c)| a * c as f64)
            .sum::<f64>()
            / n;
        let variance = values
            .iter()
            .zip(counts)
            .map(|(a, &c)| c as f64 * (a - score) * (a - score))
            .sum::<f64>()
            / n;
        let per_sample = (variance / n).sqrt();
        let (lo, hi) = (score - Z95 * per_sample, score + Z95 * per_sample);
        // A pair's score is the mean of two games: its variance is half a game's.
        let game_sd = if pair {
            (2.0 * variance).sqrt()
        } else {
            variance.sqrt()
        };
        let nelo = |s: f64| (s - 0.5) / game_sd * nelo_scale();
        Elo {
            score,
            variance,
            samples: n,
            diff: score_to_elo(score),
            error: (score_to_elo(hi) - score_to_elo(lo)) / 2.0,
            nelo: nelo(score),
            nelo_error: (nelo(hi) - nelo(lo)) / 2.0,
            los: (1.0 - erf(-(score - 0.5) / (2.0 * variance / n).sqrt())) / 2.0,
        }
    }

    /// From W/D/L (fastchess `EloWDL`).
    pub fn trinomial(s: &Stats) -> Elo {
        Elo::from_distribution(&[0.0, 0.5, 1.0], &[s.losses, s.draws, s.wins], false)
    }

    /// From the pentanomial pair counts (fastchess `EloPentanomial`).
    pub fn pentanomial(s: &Stats) -> Elo {
        Elo::from_distribution(&[0.0, 0.25, 0.5, 0.75, 1.0], &s.pentanomial(), true)
    }
}

/// cutechess's figures for W/D/L: Elo difference, error margin and LOS (percent).
pub fn cutechess_elo(s: &Stats) -> (f64, f64, f64) {
    let n = s.games() as f64;
    let (w, l, d) = (s.wins as f64 / n, s.losses as f64 / n, s.draws as f64 / n);
    let mu = w + d / 2.0;
    let dev = w * (1.0 - mu).powi(2) + l * mu.powi(2) + d * (0.5 - mu).powi(2);
    let stdev = dev.sqrt() / n.sqrt();
    // cutechess inverts the normal distribution with Winitzki's closed-form approximation of
    // erf^-1 (a = 8(pi-3)/(3 pi (4-pi))); using it keeps the printed margins identical.
    let erf_inv = |x: f64| {
        let pi = std::f64::consts::PI;
        let a = 8.0 * (pi - 3.0) / (3.0 * pi * (4.0 - pi));
        let y = (1.0 - x * x).ln();
        let z = 2.0 / (pi * a) + y / 2.0;
        let r = ((z * z - y / a).sqrt() - z).sqrt();
        if x < 0.0 { -r } else { r }
    };
    let phi_inv = |p: f64| std::f64::consts::SQRT_2 * erf_inv(2.0 * p - 1.0);
    let lo = mu + phi_inv(0.025) * stdev;
    let hi = mu + phi_inv(0.975) * stdev;
    let margin = (score_to_elo(hi) - score_to_elo(lo)) / 2.0;
    let wl = (s.wins + s.losses) as f64;
    let los = 100.0 * (0.5 + 0.5 * erf((s.wins as f64 - s.losses as f64) / (2.0 * wl).sqrt()));
    (score_to_elo(mu), margin, los)
}

/// How the SPRT models the hypotheses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtModel {
    /// Elo bounds in normalised Elo (fastchess's default, as fishtest).
    Normalized,
    /// Elo bounds in logistic Elo.
    Logistic,
    /// BayesElo bounds with the draw Elo estimated from the sample (cutechess; W/D/L only).
    Bayesian,
}

impl std::str::FromStr for SprtModel {
    type Err = String;
    fn from_str(s: &str) -> Result<SprtModel, String> {
        match s {
            "normalized" => Ok(SprtModel::Normalized),
            "logistic" => Ok(SprtModel::Logistic),
            "bayesian" => Ok(SprtModel::Bayesian),
            _ => Err(format!(
                "unknown SPRT model '{s}' (normalized, logistic, bayesian)"
            )),
        }
    }
}

impl SprtModel {
    /// The model's name.
    pub fn name(self) -> &'static str {
        match self {
            SprtModel::Normalized => "normalized",
            SprtModel::Logistic => "logistic",
            SprtModel::Bayesian => "bayesian",
        }
    }
}

/// An SPRT's parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo of H0.
    pub elo0: f64,
    /// Elo of H1.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
    /// The model.
    pub model: SprtModel,
}

/// What the SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtState {
    /// Neither bound crossed.
    Continue,
    /// The lower bound was crossed: H0 accepted.
    H0,
    /// The upper bound was crossed: H1 accepted.
    H1,
}

impl Sprt {
    /// Checks the parameters as fastchess does.
    pub fn validate(&self) -> Result<(), String> {
        if !self.elo0.is_finite() || !self.elo1.is_finite() {
            return Err("SPRT: elo0 and elo1 must be numbers".into());
        }
        if self.elo0 >= self.elo1 {
            return Err("SPRT: elo0 must be less than elo1".into());
        }
        if !(self.alpha > 0.0 && self.alpha < 1.0 && self.beta > 0.0 && self.beta < 1.0) {
            return Err("SPRT: alpha and beta must lie strictly between 0 and 1".into());
        }
        if self.alpha + self.beta >= 1.0 {
            return Err("SPRT: alpha + beta must be less than 1".into());
        }
        Ok(())
    }

    /// The lower bound ln(beta / (1 - alpha)).
    pub fn lower(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// The upper bound ln((1 - beta) / alpha).
    pub fn upper(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The log-likelihood ratio: from the pair counts if `penta` (and the model allows it),
    /// else from W/D/L.
    pub fn llr(&self, s: &Stats, penta: bool) -> f64 {
        if self.model == SprtModel::Bayesian {
            return bayes_llr(s, self.elo0, self.elo1);
        }
        // Empty cells are replaced by 1e-3 so that the maximum likelihood problem has a
        // solution (fastchess `regularize`).
        let reg = |c: u32| if c == 0 { 1e-3 } else { c as f64 };
        let (values, counts): (Vec<f64>, Vec<f64>) = if penta {
            let p = s.pentanomial();
            (
                vec![0.0, 0.25, 0.5, 0.75, 1.0],
                p.iter().map(|&c| reg(c)).collect(),
            )
        } else {
            (
                vec![0.0, 0.5, 1.0],
                vec![reg(s.losses), reg(s.draws), reg(s.wins)],
            )
        };
        let total: f64 = counts.iter().sum();
        let probs: Vec<f64> = counts.iter().map(|c| c / total).collect();
        let (p0, p1) = match self.model {
            SprtModel::Logistic => (
                mle_with_mean(&values, &probs, elo_to_score(self.elo0)),
                mle_with_mean(&values, &probs, elo_to_score(self.elo1)),
            ),
            _ => {
                // A pair's normalised score is sqrt(2) times a game's.
                let k = if penta { std::f64::consts::SQRT_2 } else { 1.0 };
                (
                    mle_with_t(&values, &probs, k * self.elo0 / nelo_scale()),
                    mle_with_t(&values, &probs, k * self.elo1 / nelo_scale()),
                )
            }
        };
        total
            * probs
                .iter()
                .zip(p0.iter().zip(&p1))
                .map(|(ph, (a, b))| ph * (b.ln() - a.ln()))
                .sum::<f64>()
    }

    /// The state for a given LLR.
    pub fn state(&self, llr: f64) -> SprtState {
        if llr >= self.upper() {
            SprtState::H1
        } else if llr <= self.lower() {
            SprtState::H0
        } else {
            SprtState::Continue
        }
    }

    /// How far the LLR has gone towards the bound on its side, as a fraction (negative
    /// towards H0), as fastchess prints it.
    pub fn fraction(&self, llr: f64) -> f64 {
        if llr >= 0.0 {
            llr / self.upper()
        } else {
            -llr / self.lower()
        }
    }
}

/// The root of a decreasing function `f` on the open interval (lo, hi), by bisection.
fn bisect(f: impl Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> f64 {
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// The distribution on `values` closest (maximum likelihood) to the empirical `probs` whose
/// mean is `s`: p_i = phat_i / (1 + theta (a_i - s)) with theta solving
/// sum phat_i (a_i - s) / (1 + theta (a_i - s)) = 0 (Van den Bergh, proposition 1.1).
fn mle_with_mean(values: &[f64], probs: &[f64], s: f64) -> Vec<f64> {
    let d: Vec<f64> = values.iter().map(|a| a - s).collect();
    let g = |theta: f64| {
        probs
            .iter()
            .zip(&d)
            .map(|(p, x)| p * x / (1.0 + theta * x))
            .sum::<f64>()
    };
    let (dmin, dmax) = (d[0], d[d.len() - 1]);
    let theta = bisect(g, -1.0 / dmax, -1.0 / dmin);
    probs
        .iter()
        .zip(&d)
        .map(|(p, x)| p / (1.0 + theta * x))
        .collect()
}

/// The distribution on `values` closest (maximum likelihood) to `probs` whose normalised
/// score (mu - 1/2) / sigma is `t`, by the fixed-point iteration of Van den Bergh, section
/// 4.1: linearise the constraint around the current estimate, solve for the Lagrange
/// multiplier, repeat until the distribution stops moving.
fn mle_with_t(values: &[f64], probs: &[f64], t: f64) -> Vec<f64> {
    let n = values.len();
    let mut p = vec![1.0 / n as f64; n];
    for _ in 0..1000 {
        let mu: f64 = values.iter().zip(&p).map(|(a, q)| a * q).sum();
        let var: f64 = values
            .iter()
            .zip(&p)
            .map(|(a, q)| q * (a - mu) * (a - mu))
            .sum();
        let sigma = var.sqrt();
        let phi: Vec<f64> = values
            .iter()
            .map(|a| a - 0.5 - 0.5 * t * sigma * (1.0 + ((a - mu) / sigma).powi(2)))
            .collect();
        let u = phi.iter().cloned().fold(f64::INFINITY, f64::min);
        let v = phi.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let g = |theta: f64| {
            probs
                .iter()
                .zip(&phi)
                .map(|(q, f)| q * f / (1.0 + theta * f))
                .sum::<f64>()
        };
        let theta = bisect(g, -1.0 / v, -1.0 / u);
        let mut moved: f64 = 0.0;
        for i in 0..n {
            let next = probs[i] / (1.0 + theta * phi[i]);
            moved = moved.max((next - p[i]).abs());
            p[i] = next;
        }
        if moved < 1e-10 {
            break;
        }
    }
    p
}

/// cutechess's LLR: BayesElo model, draw Elo estimated from the sample; 0 until there is at
/// least one win, one loss and one draw.
fn bayes_llr(s: &Stats, elo0: f64, elo1: f64) -> f64 {
    if s.wins == 0 || s.losses == 0 || s.draws == 0 {
        return 0.0;
    }
    let n = s.games() as f64;
    let (pw, pl) = (s.wins as f64 / n, s.losses as f64 / n);
    let draw_elo = 200.0 * ((1.0 - pl) / pl * (1.0 - pw) / pw).log10();
    let x = 10f64.powf(-draw_elo / 400.0);
    let scale = 4.0 * x / ((1.0 + x) * (1.0 + x));
    let probs = |bayes_elo: f64| {
        let w = 1.0 / (1.0 + 10f64.powf((draw_elo - bayes_elo) / 400.0));
        let l = 1.0 / (1.0 + 10f64.powf((draw_elo + bayes_elo) / 400.0));
        (w, l, 1.0 - w - l)
    };
    let (w0, l0, d0) = probs(elo0 / scale);
    let (w1, l1, d1) = probs(elo1 / scale);
    s.wins as f64 * (w1 / w0).ln()
        + s.losses as f64 * (l1 / l0).ln()
        + s.draws as f64 * (d1 / d0).ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erf_matches_reference_values() {
        // Abramowitz & Stegun, table 7.1.
        for (x, e) in [
            (0.0, 0.0),
            (0.5, 0.520_499_877_8),
            (1.0, 0.842_700_792_9),
            (2.0, 0.995_322_265_0),
            (2.5, 0.999_593_047_98),
            (3.0, 0.999_977_909_5),
        ] {
            assert!((erf(x) - e).abs() < 1e-9, "erf({x}) = {}", erf(x));
            assert!((erf(-x) + e).abs() < 1e-9);
        }
        assert!((phi(1.959963984540054) - 0.975).abs() < 1e-12);
    }

    #[test]
    fn pairs_and_flips() {
        let mut s = Stats::default();
        for (a, b) in [
            (Outcome::Win, Outcome::Loss),
            (Outcome::Draw, Outcome::Draw),
            (Outcome::Win, Outcome::Draw),
        ] {
            s.add_game(a);
            s.add_game(b);
            s.add_pair(a, b);
        }
        assert_eq!(s.pentanomial(), [0, 0, 2, 1, 0]);
        assert_eq!((s.wins, s.draws, s.losses), (2, 3, 1));
        let f = s.flipped();
        assert_eq!(f.pentanomial(), [0, 1, 2, 0, 0]);
        assert_eq!((f.wins, f.losses), (1, 2));
        assert_eq!(Stats::from_pentanomial([1, 2, 3, 4, 5], 1).pairs(), 15);
    }
}
