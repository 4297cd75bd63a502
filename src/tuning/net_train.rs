//! `strata train-net`: trains the chess evaluation network (`eval::network`) on
//! `strata datagen` positions.
//!
//! Each position's target blends the game's result and the search's score, both for the side
//! to move: `lambda * result + (1 - lambda) * sigmoid(score / k)`; the network's prediction is
//! `sigmoid(output / k)`, its output in centipawns, and the loss the squared difference. The
//! weights are floats while training (AdamW on mini-batches, the learning rate falling on a
//! cosine to a tenth), kept within what the integer network can hold, and quantised into the
//! network file at the end of every epoch. Every twentieth game is held out: the validation
//! loss is the measure of the fit, as the training loss is not. Training starts from random
//! weights or, to train a network further on new games, from a network file
//! ([`FloatNet::from_network`]).

use std::io::Write;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use super::data::{GAME_MARK, Sample};
use crate::eval::network::{BUCKETS, HIDDEN, INPUTS, Network, QA, QB, SCALE, bucket, input};
use crate::eval::{Evaluate, NoTrace};
use crate::rules::piece::Colour;
use crate::rules::{AnyGame, Game, Variant};
use crate::with_game;

/// The largest weight magnitude the integer network holds safely (output weights times
/// [`QB`] within an i8-like range, transformer sums within i16).
const WEIGHT_CLIP: f32 = 1.98;

/// One training position: White's inputs, the side to move, the score and result for White.
#[derive(Clone, Copy)]
pub struct Packed {
    /// White's inputs ([`input`] seen by White), `count` of them.
    inputs: [u16; 32],
    count: u8,
    black_to_move: bool,
    /// The search's score, centipawns, White's point of view.
    score: i16,
    /// The result for White: 0 a loss, 1 a draw, 2 a win.
    result: u8,
    /// The evaluation by terms for the side to move (validation positions only), to compare
    /// the network's fit with.
    terms: i16,
}

impl Packed {
    /// The same input seen by Black.
    #[inline(always)]
    fn flip(i: u16) -> u16 {
        let i = i as usize;
        let (colour, rest) = (i / 384, i % 384);
        let (kind, sq) = (rest / 64, rest % 64);
        ((1 - colour) * 384 + kind * 64 + (sq ^ 56)) as u16
    }

    /// The position mirrored left to right (files a and h exchanged).
    fn mirror(&mut self) {
        for i in &mut self.inputs[..self.count as usize] {
            *i ^= 7;
        }
    }

    fn new(game: &AnyGame, sample: &Sample) -> Result<Packed, String> {
        let mut p = Packed {
            inputs: [0; 32],
            count: 0,
            black_to_move: game.side_to_move() == Colour::BLACK,
            score: sample.score.clamp(-30000, 30000) as i16,
            result: (sample.result * 2.0).round() as u8,
            terms: 0,
        };
        for sq in 0..64 {
            let piece = game.piece_at(sq);
            if piece.is_none() {
                continue;
            }
            if piece.kind() > 5 || p.count as usize == 32 {
                return Err(format!(
                    "not a chess position for the network: {}",
                    sample.fen
                ));
            }
            p.inputs[p.count as usize] =
                input(Colour::WHITE, piece.colour(), piece.kind(), sq) as u16;
            p.count += 1;
        }
        Ok(p)
    }
}

/// Reads position files into training and validation sets (every `holdout`-th game held out).
pub fn read(paths: &[String], holdout: usize) -> Result<(Vec<Packed>, Vec<Packed>), String> {
    let mut train = Vec::new();
    let mut validation = Vec::new();
    let mut game_base = 0usize;
    for path in paths {
        let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
        let reader = std::io::BufReader::with_capacity(1 << 20, file);
        let mut game = 0usize;
        let mut last = 0usize;
        for (i, line) in std::io::BufRead::lines(reader).enumerate() {
            let line = line.map_err(|e| format!("{path}: {e}"))?;
            let line = line.trim();
            if let Some(n) = line.strip_prefix(GAME_MARK) {
                game = n
                    .trim()
                    .parse::<usize>()
                    .map_err(|_| format!("{path}:{}: bad game number", i + 1))?
                    + game_base;
                last = last.max(game);
                continue;
            }
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let sample = Sample::parse(line).map_err(|e| format!("{path}:{}: {e}", i + 1))?;
            let position = AnyGame::from_fen(Variant::Chess, &sample.fen)
                .map_err(|e| format!("{path}:{}: {e}", i + 1))?;
            let p =
                Packed::new(&position, &sample).map_err(|e| format!("{path}:{}: {e}", i + 1))?;
            if holdout > 0 && game % holdout == holdout - 1 {
                let mut p = p;
                p.terms = with_game!(&position, g => g.evaluate_with(&mut NoTrace))
                    .clamp(-30000, 30000) as i16;
                validation.push(p);
            } else {
                train.push(p);
            }
        }
        game_base = last + 1;
    }
    Ok((train, validation))
}

/// The network in floating point.
#[derive(Clone)]
pub struct FloatNet {
    /// Input weights, as [`crate::eval::network::Network::w1`].
    pub w1: Vec<f32>,
    /// Hidden biases.
    pub b1: Vec<f32>,
    /// Output weights, per bucket.
    pub w2: Vec<f32>,
    /// Output biases, per bucket.
    pub b2: Vec<f32>,
}

impl FloatNet {
    /// Random small weights (seeded).
    pub fn random(seed: u64) -> FloatNet {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut uniform =
            |n: usize, r: f32| -> Vec<f32> { (0..n).map(|_| rng.gen_range(-r..r)).collect() };
        FloatNet {
            w1: uniform(INPUTS * HIDDEN, (1.0 / 32.0f32).sqrt()),
            b1: vec![0.0; HIDDEN],
            w2: uniform(BUCKETS * 2 * HIDDEN, (1.0 / (2 * HIDDEN) as f32).sqrt()),
            b2: vec![0.0; BUCKETS],
        }
    }

    /// The floating-point weights of an integer network, to train further from (the
    /// integers divided by their scales: quantising the result gives `net` back exactly).
    pub fn from_network(net: &Network) -> FloatNet {
        let f =
            |v: &[i16], s: i32| -> Vec<f32> { v.iter().map(|&x| x as f32 / s as f32).collect() };
        FloatNet {
            w1: f(&net.w1, QA),
            b1: f(&net.b1, QA),
            w2: f(&net.w2, QB),
            b2: net
                .b2
                .iter()
                .map(|&x| x as f32 / (QA * QB) as f32)
                .collect(),
        }
    }

    fn zeros() -> FloatNet {
        FloatNet {
            w1: vec![0.0; INPUTS * HIDDEN],
            b1: vec![0.0; HIDDEN],
            w2: vec![0.0; BUCKETS * 2 * HIDDEN],
            b2: vec![0.0; BUCKETS],
        }
    }

    fn params_mut(&mut self) -> [&mut Vec<f32>; 4] {
        [&mut self.w1, &mut self.b1, &mut self.w2, &mut self.b2]
    }

    /// The integer network.
    pub fn quantise(&self) -> Network {
        let q = |v: &[f32], s: f32| -> Vec<i16> {
            v.iter()
                .map(|x| (x * s).round().clamp(i16::MIN as f32, i16::MAX as f32) as i16)
                .collect()
        };
        Network::new(
            q(&self.w1, QA as f32),
            q(&self.b1, QA as f32),
            q(&self.w2, QB as f32),
            self.b2
                .iter()
                .map(|x| (x * (QA * QB) as f32).round() as i32)
                .collect(),
        )
    }
}

/// What one position contributes: the loss, and (when `grad` is given) the gradient.
#[inline(always)]
fn position(net: &FloatNet, p: &Packed, k: f32, lambda: f32, grad: Option<&mut FloatNet>) -> f32 {
    let n = p.count as usize;
    let white: [u16; 32] = p.inputs;
    let mut black = [0u16; 32];
    for i in 0..n {
        black[i] = Packed::flip(white[i]);
    }
    let mut acc = [[0f32; HIDDEN]; 2];
    for (side, feats) in [&white, &black].iter().enumerate() {
        let a = &mut acc[side];
        a.copy_from_slice(&net.b1);
        for &f in &feats[..n] {
            let w = &net.w1[f as usize * HIDDEN..(f as usize + 1) * HIDDEN];
            for (x, y) in a.iter_mut().zip(w) {
                *x += y;
            }
        }
    }
    let us = p.black_to_move as usize;
    let b = bucket(n);
    let w2 = &net.w2[b * 2 * HIDDEN..(b + 1) * 2 * HIDDEN];
    let mut y = net.b2[b];
    for (j, side) in [us, 1 - us].iter().enumerate() {
        for (h, &x) in acc[*side].iter().enumerate() {
            let c = x.clamp(0.0, 1.0);
            y += w2[j * HIDDEN + h] * c * c;
        }
    }
    let cp = y * SCALE as f32;
    let pred = sigmoid(cp / k);
    let stm_sign = if p.black_to_move { -1.0 } else { 1.0 };
    let result = p.result as f32 / 2.0;
    let result = if p.black_to_move {
        1.0 - result
    } else {
        result
    };
    let target = lambda * result + (1.0 - lambda) * sigmoid(stm_sign * p.score as f32 / k);
    let diff = pred - target;
    if let Some(g) = grad {
        // d loss / d y
        let dy = 2.0 * diff * pred * (1.0 - pred) * SCALE as f32 / k;
        g.b2[b] += dy;
        let gw2 = &mut g.w2[b * 2 * HIDDEN..(b + 1) * 2 * HIDDEN];
        let feats = [&white, &black];
        for (j, side) in [us, 1 - us].iter().enumerate() {
            let mut da = [0f32; HIDDEN];
            for h in 0..HIDDEN {
                let x = acc[*side][h];
                let c = x.clamp(0.0, 1.0);
                gw2[j * HIDDEN + h] += dy * c * c;
                da[h] = if x > 0.0 && x < 1.0 {
                    dy * w2[j * HIDDEN + h] * 2.0 * x
                } else {
                    0.0
                };
            }
            for (gb, d) in g.b1.iter_mut().zip(&da) {
                *gb += d;
            }
            for &f in &feats[*side][..n] {
                let gw = &mut g.w1[f as usize * HIDDEN..(f as usize + 1) * HIDDEN];
                for (x, d) in gw.iter_mut().zip(&da) {
                    *x += d;
                }
            }
        }
    }
    diff * diff
}

#[inline(always)]
fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The loss and gradient of a batch slice (AVX2 where the CPU has it).
fn batch_part(
    net: &FloatNet,
    batch: &[Packed],
    k: f32,
    lambda: f32,
    mut grad: Option<&mut FloatNet>,
) -> f64 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma") {
        // SAFETY: the CPU has AVX2 and FMA (checked above).
        return unsafe { batch_part_avx2(net, batch, k, lambda, grad) };
    }
    let mut loss = 0.0;
    for p in batch {
        loss += position(net, p, k, lambda, grad.as_deref_mut()) as f64;
    }
    loss
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn batch_part_avx2(
    net: &FloatNet,
    batch: &[Packed],
    k: f32,
    lambda: f32,
    mut grad: Option<&mut FloatNet>,
) -> f64 {
    let mut loss = 0.0;
    for p in batch {
        loss += position(net, p, k, lambda, grad.as_deref_mut()) as f64;
    }
    loss
}

/// The training settings.
#[derive(Clone, Debug)]
pub struct Config {
    /// Passes over the data.
    pub epochs: usize,
    /// Positions per gradient step.
    pub batch: usize,
    /// The learning rate.
    pub rate: f32,
    /// The share of the target taken from the game's result (the rest from the search score).
    pub lambda: f32,
    /// The logistic scale of scores, centipawns.
    pub k: f32,
    /// Threads computing gradients.
    pub threads: usize,
    /// The seed of the initial weights and the shuffles.
    pub seed: u64,
    /// L2 weight decay per step.
    pub weight_decay: f32,
    /// Mirror a random half of the positions left to right each epoch (chess is symmetric
    /// that way but for castling, which the inputs do not show): twice the positions.
    pub mirror: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            epochs: 20,
            batch: 16384,
            rate: 0.001,
            lambda: 0.5,
            k: 180.0,
            threads: 2,
            seed: 1,
            weight_decay: 0.01,
            mirror: true,
        }
    }
}

/// The mean loss of `data` under `net` (in parallel).
pub fn mean_loss(net: &FloatNet, data: &[Packed], config: &Config) -> f64 {
    if data.is_empty() {
        return 0.0;
    }
    let parts = config.threads.max(1);
    let chunk = data.len().div_ceil(parts);
    let total: f64 = std::thread::scope(|s| {
        let handles: Vec<_> = data
            .chunks(chunk)
            .map(|c| s.spawn(move || batch_part(net, c, config.k, config.lambda, None)))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).sum()
    });
    total / data.len() as f64
}

/// The loss of the evaluation by terms on `data` (validation positions), under the same
/// targets: what the network's validation loss is to beat.
pub fn terms_loss(data: &[Packed], config: &Config) -> f64 {
    let total: f64 = data
        .iter()
        .map(|p| {
            let d = sigmoid(p.terms as f32 / config.k) - target(p, config.k, config.lambda);
            (d * d) as f64
        })
        .sum();
    total / data.len().max(1) as f64
}

/// The training target of `p`, for the side to move.
#[inline(always)]
fn target(p: &Packed, k: f32, lambda: f32) -> f32 {
    let stm_sign = if p.black_to_move { -1.0 } else { 1.0 };
    let result = p.result as f32 / 2.0;
    let result = if p.black_to_move {
        1.0 - result
    } else {
        result
    };
    lambda * result + (1.0 - lambda) * sigmoid(stm_sign * p.score as f32 / k)
}

/// AdamW state.
struct Adam {
    m: FloatNet,
    v: FloatNet,
    t: i32,
}

/// Trains `net` on `train`, reporting each epoch's losses to `report` and handing the
/// network after each epoch to `checkpoint`.
pub fn train(
    net: &mut FloatNet,
    train: &mut [Packed],
    validation: &[Packed],
    config: &Config,
    report: &mut dyn FnMut(usize, f64, f64),
    checkpoint: &mut dyn FnMut(&FloatNet) -> Result<(), String>,
) -> Result<(), String> {
    let mut rng = StdRng::seed_from_u64(config.seed);
    let parts = config.threads.max(1);
    let mut grads: Vec<FloatNet> = (0..parts).map(|_| FloatNet::zeros()).collect();
    let mut adam = Adam {
        m: FloatNet::zeros(),
        v: FloatNet::zeros(),
        t: 0,
    };
    let batches_per_epoch = train.len().div_ceil(config.batch).max(1);
    let total_batches = (batches_per_epoch * config.epochs) as f32;
    for epoch in 1..=config.epochs {
        train.shuffle(&mut rng);
        if config.mirror {
            for p in train.iter_mut() {
                if rng.r#gen::<bool>() {
                    p.mirror();
                }
            }
        }
        let mut loss = 0.0;
        for (bi, batch) in train.chunks(config.batch).enumerate() {
            let chunk = batch.len().div_ceil(parts);
            let frozen: &FloatNet = net;
            loss += std::thread::scope(|s| {
                let handles: Vec<_> = batch
                    .chunks(chunk)
                    .zip(grads.iter_mut())
                    .map(|(c, g)| {
                        s.spawn(move || {
                            for v in g.params_mut() {
                                v.iter_mut().for_each(|x| *x = 0.0);
                            }
                            batch_part(frozen, c, config.k, config.lambda, Some(g))
                        })
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().unwrap()).sum::<f64>()
            });
            // Sum the parts' gradients into the first.
            let (first, rest) = grads.split_at_mut(1);
            for other in rest.iter() {
                for (a, b) in first[0]
                    .params_mut()
                    .into_iter()
                    .zip([&other.w1, &other.b1, &other.w2, &other.b2])
                {
                    for (x, y) in a.iter_mut().zip(b) {
                        *x += y;
                    }
                }
            }
            let done = ((epoch - 1) * batches_per_epoch + bi) as f32 / total_batches;
            let rate =
                config.rate * (0.1 + 0.9 * 0.5 * (1.0 + (std::f32::consts::PI * done).cos()));
            step(
                net,
                &grads[0],
                &mut adam,
                rate,
                batch.len(),
                config.weight_decay,
            );
        }
        let train_loss = loss / train.len() as f64;
        let validation_loss = mean_loss(net, validation, config);
        report(epoch, train_loss, validation_loss);
        checkpoint(net)?;
    }
    Ok(())
}

/// One AdamW step with the summed gradient of `n` positions.
fn step(net: &mut FloatNet, grad: &FloatNet, adam: &mut Adam, rate: f32, n: usize, decay: f32) {
    const B1: f32 = 0.9;
    const B2: f32 = 0.999;
    const EPS: f32 = 1e-8;
    adam.t += 1;
    let c1 = 1.0 - B1.powi(adam.t);
    let c2 = 1.0 - B2.powi(adam.t);
    let scale = 1.0 / n as f32;
    let grads = [&grad.w1, &grad.b1, &grad.w2, &grad.b2];
    let ms = adam.m.params_mut();
    let vs = adam.v.params_mut();
    for (((w, g), m), v) in net.params_mut().into_iter().zip(grads).zip(ms).zip(vs) {
        for i in 0..w.len() {
            let gi = g[i] * scale;
            m[i] = B1 * m[i] + (1.0 - B1) * gi;
            v[i] = B2 * v[i] + (1.0 - B2) * gi * gi;
            let update = (m[i] / c1) / ((v[i] / c2).sqrt() + EPS);
            w[i] = (w[i] * (1.0 - rate * decay) - rate * update).clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
        }
    }
}

/// Writes `net` quantised to `path`.
pub fn save(net: &FloatNet, path: &str) -> Result<(), String> {
    let bytes = net.quantise().write();
    let tmp = format!("{path}.tmp");
    std::fs::File::create(&tmp)
        .and_then(|mut f| f.write_all(&bytes))
        .and_then(|_| std::fs::rename(&tmp, path))
        .map_err(|e| format!("{path}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(fen: &str, score: i32, result: f64) -> Packed {
        let g = AnyGame::from_fen(Variant::Chess, fen).unwrap();
        Packed::new(
            &g,
            &Sample {
                fen: fen.into(),
                score,
                result,
            },
        )
        .unwrap()
    }

    /// The analytic gradient agrees with finite differences of the loss.
    #[test]
    fn the_gradient_is_the_loss_derivative() {
        let mut net = FloatNet::random(3);
        net.b1.iter_mut().for_each(|b| *b = 0.3);
        let p = sample(
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 3 3",
            40,
            0.5,
        );
        let mut g = FloatNet::zeros();
        position(&net, &p, 180.0, 0.5, Some(&mut g));
        let f = p.inputs[3] as usize;
        let checks = [
            (0usize, f * HIDDEN + 5),
            (0, f * HIDDEN + 77),
            (2, 11),
            (2, 300),
        ];
        for (param, i) in checks {
            let h = 1e-3f32;
            let mut plus = net.clone();
            plus.params_mut()[param][i] += h;
            let mut minus = net.clone();
            minus.params_mut()[param][i] -= h;
            let numeric = (position(&plus, &p, 180.0, 0.5, None)
                - position(&minus, &p, 180.0, 0.5, None))
                / (2.0 * h);
            let analytic = [&g.w1, &g.b1, &g.w2, &g.b2][param][i];
            assert!(
                (numeric - analytic).abs() <= 1e-3 + 0.05 * analytic.abs(),
                "param {param}[{i}]: numeric {numeric} analytic {analytic}"
            );
        }
    }

    /// A network file read back into floats quantises to the same file: training further
    /// from it starts where it stands.
    #[test]
    fn a_network_file_round_trips_through_floats() {
        let net = FloatNet::random(7).quantise();
        let again = FloatNet::from_network(&net).quantise();
        assert_eq!(again.write(), net.write());
        if let Some(shipped) = crate::eval::network::CHESS.as_ref() {
            assert_eq!(
                FloatNet::from_network(shipped).quantise().write(),
                shipped.write()
            );
        }
    }

    /// The float network and the quantised one evaluate alike.
    #[test]
    #[allow(clippy::needless_range_loop)] // several arrays by one index
    fn quantising_keeps_the_evaluation() {
        let net = FloatNet::random(9);
        let q = net.quantise();
        let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 3 3";
        let p = sample(fen, 0, 0.5);
        // The float output in centipawns, from the loss with lambda 0 and score 0 (target
        // one half): recomputed directly here.
        let n = p.count as usize;
        let mut acc = [[0f32; HIDDEN]; 2];
        for (side, a) in acc.iter_mut().enumerate() {
            a.copy_from_slice(&net.b1);
            for &f in &p.inputs[..n] {
                let f = if side == 1 { Packed::flip(f) } else { f } as usize;
                for h in 0..HIDDEN {
                    a[h] += net.w1[f * HIDDEN + h];
                }
            }
        }
        let b = bucket(n);
        let mut y = net.b2[b];
        for (j, side) in [1usize, 0].iter().enumerate() {
            for h in 0..HIDDEN {
                let c = acc[*side][h].clamp(0.0, 1.0);
                y += net.w2[b * 2 * HIDDEN + j * HIDDEN + h] * c * c;
            }
        }
        let float_cp = y * SCALE as f32;
        let g = AnyGame::from_fen(Variant::Chess, fen).unwrap();
        let pieces: Vec<_> = (0..64)
            .filter_map(|sq| {
                let pc = g.piece_at(sq);
                pc.is_some().then(|| (pc.colour(), pc.kind(), sq))
            })
            .collect();
        let qa = q.accumulate(pieces.iter().copied());
        let int_cp = q.output(&qa[1], &qa[0], pieces.len());
        assert!(
            (int_cp as f32 - float_cp).abs() < 8.0,
            "quantised {int_cp} vs float {float_cp}"
        );
    }

    /// A few epochs on a handful of positions lower the loss.
    #[test]
    fn training_lowers_the_loss() {
        let fens = [
            ("4k3/8/8/8/8/8/PPPP4/4K3 w - - 0 1", 300, 1.0),
            ("4k3/pppp4/8/8/8/8/8/4K3 w - - 0 1", -300, 0.0),
            ("4k3/8/8/8/8/8/8/3QK3 b - - 0 1", 900, 1.0),
            ("3qk3/8/8/8/8/8/8/4K3 b - - 0 1", -900, 0.0),
        ];
        let mut data: Vec<Packed> = fens.iter().map(|&(f, s, r)| sample(f, s, r)).collect();
        let validation = data.clone();
        let config = Config {
            epochs: 30,
            batch: 2,
            rate: 0.01,
            threads: 2,
            ..Config::default()
        };
        let mut net = FloatNet::random(1);
        let before = mean_loss(&net, &validation, &config);
        let mut last = before;
        train(
            &mut net,
            &mut data,
            &validation,
            &config,
            &mut |_, _, v| last = v,
            &mut |_| Ok(()),
        )
        .unwrap();
        assert!(last < before * 0.5, "loss {before} -> {last}");
    }
}
