//! `strata train-net`: trains a variant's evaluation network ([`crate::eval::nnue`]) on
//! `strata datagen` positions, for any variant, built-in or from a file.
//!
//! Each position's target blends the game's result and the search's score, both for the team
//! to move: `lambda * result + (1 - lambda) * sigmoid(score / k)`; the network's prediction is
//! `sigmoid(output / k)`, its output in centipawns, and the loss the squared difference. The
//! weights are floats while training (AdamW on mini-batches, the learning rate falling on a
//! cosine to a tenth), kept within what the integer network can hold, and quantised into the
//! network file at the end of every epoch. Every twentieth game is held out: the validation
//! loss is the measure of the fit, as the training loss is not. Training starts from random
//! weights or, to train a network further on new games, from a network file
//! ([`FloatNet::from_network`]).

use std::io::Write;
use std::sync::Arc;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use super::data::{GAME_MARK, Sample};
use super::records::{self, Record};
use crate::eval::nnue::net::{MAX_TERMS_SHARE, QA, QB, SCALE};
use crate::eval::nnue::{Frame, HAND_CAP, Net, NetView, Spec};
use crate::eval::{Evaluate, NoTrace};
use crate::rules::piece::{Colour, Kind};
use crate::rules::{AnyGame, Variant};
use crate::with_game;

/// The largest weight magnitude the integer network holds safely (output weights times
/// [`QB`] within an i8-like range, transformer sums within i16).
const WEIGHT_CLIP: f32 = 1.98;

/// The largest linear value ([`FloatNet::psqt`]), in output units ([`Net::psqt`]'s bound).
const PSQT_CLIP: f32 = (crate::eval::nnue::net::MAX_PSQT / (QA * QB)) as f32;

/// A piece on the board (`cell`) or in hand (`at least n`, the bit [`IN_HAND`] set), packed
/// as `cell_or_n | kind << 16 | colour << 24`.
type Item = u32;

/// The bit of an [`Item`] in hand.
const IN_HAND: u32 = 1 << 28;

/// One training position: its pieces (a range of its [`Data`]'s), the colour to move and
/// its team, the score and result for White's team.
#[derive(Clone, Copy)]
pub struct Packed {
    start: u32,
    len: u16,
    /// Pieces on the board (for the output bucket).
    pieces: u16,
    side: u8,
    /// The team to move: 0 White's, 1 the other.
    team: u8,
    /// The search's score, centipawns, White's team's point of view.
    score: i16,
    /// The result for White's team: 0 a loss, 1 a draw, 2 a win.
    result: u8,
    /// How it is shown this epoch: mirrored left to right ([`FILES`], [`Config::mirror`]),
    /// its levels in reverse order ([`LEVELS`], [`Config::mirror_levels`]), both or neither.
    flip: u8,
    /// The evaluation by terms for the team to move (positions from text files: the
    /// validation ones, and with [`read`]'s `terms` the training ones too), to compare the
    /// network's fit with and to train it blended with; `None` where it is not known.
    terms: Option<i16>,
}

/// Training positions and the pieces they share one array for.
#[derive(Default)]
pub struct Data {
    /// The positions.
    pub positions: Vec<Packed>,
    /// Their pieces, one range each.
    items: Arc<Vec<Item>>,
}

impl Data {
    /// How many positions.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// Whether every position says the terms' value (what training a network blended with
    /// the terms needs, [`Config::blend`]): positions from text files read with `terms`.
    pub fn terms_known(&self) -> bool {
        self.positions.iter().all(|p| p.terms.is_some())
    }

    fn items_of(&self, p: &Packed) -> &[Item] {
        &self.items[p.start as usize..p.start as usize + p.len as usize]
    }
}

/// Builds [`Data`] position by position.
#[derive(Default)]
struct Builder {
    positions: Vec<Packed>,
    items: Vec<Item>,
}

impl Builder {
    /// Adds position `g` with the search's `score` and the game's `result` (for White's
    /// team) and, for a validation position, the evaluation by terms.
    fn add<P: NetView>(&mut self, spec: &Spec, g: &P, score: i32, result: f64, terms: Option<i32>) {
        let start = self.items.len();
        let mut pieces = 0;
        let cells = &g.placement()[..spec.cells];
        // The colours out of the game are no inputs (as `nnue::inputs_of` sees them).
        let gone = spec.out_colours(cells.iter().copied());
        for (cell, &piece) in cells.iter().enumerate() {
            if piece.is_some() && gone >> piece.colour().0 & 1 == 0 {
                pieces += 1;
                self.items
                    .push(item(piece.colour(), piece.kind(), cell as u32));
            }
        }
        for c in (0..spec.colours).filter(|c| gone >> c & 1 == 0) {
            for k in 0..spec.kinds {
                let n = g.hand_count(Colour(c as u8), k as Kind).min(HAND_CAP);
                for i in 1..=n {
                    self.items
                        .push(item(Colour(c as u8), k as Kind, i as u32) | IN_HAND);
                }
            }
        }
        self.positions.push(Packed {
            start: start as u32,
            len: (self.items.len() - start) as u16,
            pieces,
            side: g.side_to_move().0,
            team: g.team_to_move() as u8,
            score: score.clamp(-30000, 30000) as i16,
            result: (result * 2.0).round() as u8,
            flip: 0,
            terms: terms.map(|t| t.clamp(-30000, 30000) as i16),
        });
    }

    /// Adds a record of a binary data file ([`crate::tuning::records`]).
    fn add_record(&mut self, spec: &Spec, r: &Record) {
        let start = self.items.len();
        let gone = spec.out_colours(r.pieces.iter().map(|&(_, p)| p));
        let live = |c: Colour| gone >> c.0 & 1 == 0;
        let mut pieces = 0;
        for &(cell, piece) in r.pieces.iter().filter(|(_, p)| live(p.colour())) {
            pieces += 1;
            self.items
                .push(item(piece.colour(), piece.kind(), cell as u32));
        }
        for &(colour, kind, count) in &r.hands {
            if colour.idx() < spec.colours && (kind as usize) < spec.kinds && live(colour) {
                for i in 1..=(count as usize).min(HAND_CAP) {
                    self.items.push(item(colour, kind, i as u32) | IN_HAND);
                }
            }
        }
        self.positions.push(Packed {
            start: start as u32,
            len: (self.items.len() - start) as u16,
            pieces,
            side: r.side.0,
            team: r.side.team() as u8,
            score: r.score,
            result: r.result,
            flip: 0,
            terms: None,
        });
    }

    fn done(self) -> Data {
        Data {
            positions: self.positions,
            items: Arc::new(self.items),
        }
    }
}

#[inline(always)]
fn item(colour: Colour, kind: Kind, at: u32) -> Item {
    at | (kind as u32) << 16 | (colour.0 as u32) << 24
}

/// [`Packed::flip`]: mirrored left to right ([`Spec::mirror`]) ...
const FILES: u8 = 1;
/// ... and its levels in reverse order ([`Spec::level_mirror`]).
const LEVELS: u8 = 2;

/// The cell of a piece on the board on the board as `flip` shows it ([`Packed::flip`]).
#[inline(always)]
fn flipped(spec: &Spec, cell: usize, flip: u8) -> usize {
    let mut cell = cell;
    if flip & FILES != 0
        && let Some(m) = &spec.mirror
    {
        cell = m[cell] as usize;
    }
    if flip & LEVELS != 0
        && let Some(m) = &spec.level_mirror
    {
        cell = m[cell] as usize;
    }
    cell
}

/// The input of `item` seen from `of` in `frame`, on the board as `flip` shows it
/// ([`Packed::flip`]).
#[inline(always)]
fn input_of(spec: &Spec, of: usize, frame: Frame, item: Item, flip: u8) -> usize {
    let (at, kind, colour) = (
        (item & 0xffff) as usize,
        ((item >> 16) & 0xff) as Kind,
        Colour(((item >> 24) & 0xf) as u8),
    );
    if item & IN_HAND != 0 {
        spec.hand_input(of, colour, kind, at)
    } else {
        spec.board_input_in(frame, of, colour, kind, flipped(spec, at, flip))
    }
}

/// The frame `of` sees `items` in ([`Spec::frame`]: where its royal piece stands), on the
/// board as `flip` shows it; of several royal pieces, the one on the first cell of the board
/// so shown, as the engine picks it ([`Spec::king_cell`]).
fn frame_of(spec: &Spec, of: usize, items: &[Item], flip: u8) -> Frame {
    let Some(royal) = spec.royal.filter(|_| !spec.kings.is_plain()) else {
        return Frame::default();
    };
    let king = items
        .iter()
        .filter(|&&i| {
            i & IN_HAND == 0
                && ((i >> 16) & 0xff) as Kind == royal
                && ((i >> 24) & 0xf) as usize == of
        })
        .map(|&i| flipped(spec, (i & 0xffff) as usize, flip))
        .min();
    spec.frame(of, king)
}

/// Reads `variant`'s position files, text or binary ([`crate::tuning::records`]), into
/// training and validation sets (every `holdout`-th game held out). The validation positions
/// of text files carry the value of the whole evaluation by terms, or with `terms` that of the
/// terms a blended network plays beside (`Evaluate::blend_terms`), and then the training ones
/// too (a binary record has no position to evaluate: its pieces only).
pub fn read(
    paths: &[String],
    variant: Variant,
    holdout: usize,
    terms: bool,
) -> Result<(Data, Data), String> {
    let spec = Spec::of(variant);
    let mut train = Builder::default();
    let mut validation = Builder::default();
    let mut game_base = 0usize;
    for path in paths {
        if records::is_binary(path)? {
            // Game numbers count within each shard: a new chunk of lower numbers starts
            // new games.
            let (mut last, mut shift) = (0usize, game_base);
            records::for_each(path, variant, &mut |r| {
                let game = r.game as usize;
                if game < last {
                    shift += last + 1;
                }
                last = game;
                let game = game + shift;
                let set = if holdout > 0 && game % holdout == holdout - 1 {
                    &mut validation
                } else {
                    &mut train
                };
                set.add_record(&spec, &r);
                game_base = game_base.max(game + 1);
                Ok(())
            })?;
            continue;
        }
        let mut game = 0usize;
        let mut last = 0usize;
        super::data::for_each_line(path, &mut |n, line| {
            let line = line.trim();
            if let Some(g) = line.strip_prefix(GAME_MARK) {
                game = g
                    .trim()
                    .parse::<usize>()
                    .map_err(|_| format!("{path}:{n}: bad game number"))?
                    + game_base;
                last = last.max(game);
                return Ok(());
            }
            if line.is_empty() || line.starts_with('#') {
                return Ok(());
            }
            let sample = Sample::parse(line).map_err(|e| format!("{path}:{n}: {e}"))?;
            let position =
                AnyGame::from_fen(variant, &sample.fen).map_err(|e| format!("{path}:{n}: {e}"))?;
            with_game!(&position, g => {
                if holdout > 0 && game % holdout == holdout - 1 {
                    let value = if terms { g.blend_terms() } else { g.evaluate_with(&mut NoTrace) };
                    validation.add(&spec, g, sample.score, sample.result, Some(value));
                } else {
                    let value = terms.then(|| g.blend_terms());
                    train.add(&spec, g, sample.score, sample.result, value);
                }
            });
            Ok(())
        })?;
        game_base = last + 1;
    }
    Ok((train.done(), validation.done()))
}

/// The network in floating point.
#[derive(Clone)]
pub struct FloatNet {
    /// The inputs it reads.
    pub spec: Spec,
    /// Hidden neurons per perspective.
    pub hidden: usize,
    /// Output buckets.
    pub buckets: usize,
    /// Input weights, as [`Net::w1`]; when [`FloatNet::factors`] is set, followed by the
    /// factor rows: one per relation and kind, then one per relation and kind on each file,
    /// rank and level.
    pub w1: Vec<f32>,
    /// Whether the inputs are factorised: every piece on the board also turns on virtual
    /// inputs of its relation and kind alone, whatever its cell, and of its relation and kind
    /// on its file, on its rank and on its level (as the perspective sees the board), so
    /// that what a kind is worth, and where, is learnt from every position it stands in
    /// rather than cell by cell; with king buckets ([`Spec::kings`]) also its relation and
    /// kind on its cell whatever the bucket, so that each bucket's rows start from what all
    /// of them share. The factor rows are added into
    /// each cell's row when the network is quantised, so the network file and the engine do
    /// not see them. It matters where a variant has many cells for the positions it has
    /// been played in (Future Generation: 256 cells, four colours).
    pub factors: bool,
    /// Hidden biases.
    pub b1: Vec<f32>,
    /// Output weights, per bucket.
    pub w2: Vec<f32>,
    /// Output biases, per bucket.
    pub b2: Vec<f32>,
    /// The linear path ([`Net::psqt`]): a value per row of `w1` (factor rows included), in
    /// output units; empty for none.
    pub psqt: Vec<f32>,
    /// The share of the terms the file gives the engine's evaluation, percent
    /// ([`Net::terms_share`]): written as given (`train-net --terms-share`), not learnt; with
    /// [`Config::blend`] the weights are trained for the blend it makes.
    pub terms_share: u32,
}

impl FloatNet {
    /// Random small weights (seeded) for `spec`, of `hidden` neurons (a multiple of 16) and
    /// `buckets` output buckets.
    pub fn random(spec: &Spec, hidden: usize, buckets: usize, seed: u64) -> FloatNet {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut uniform =
            |n: usize, r: f32| -> Vec<f32> { (0..n).map(|_| rng.gen_range(-r..r)).collect() };
        FloatNet {
            spec: spec.clone(),
            hidden,
            buckets,
            w1: uniform(spec.inputs() * hidden, input_weight_range(spec)),
            factors: false,
            b1: vec![0.0; hidden],
            w2: uniform(buckets * 2 * hidden, (1.0 / (2 * hidden) as f32).sqrt()),
            b2: vec![0.0; buckets],
            psqt: Vec::new(),
            terms_share: 0,
        }
    }

    /// The same network with a linear path ([`FloatNet::psqt`]), its values zero: it
    /// evaluates as before. Kept where it has one.
    pub fn linear(mut self) -> FloatNet {
        if self.psqt.is_empty() {
            self.psqt = vec![0.0; self.w1.len() / self.hidden];
        }
        self
    }

    /// The same network with factorised inputs ([`FloatNet::factors`]), its factor rows
    /// zero: it evaluates as before.
    pub fn factorised(mut self) -> FloatNet {
        if !self.factors {
            let spec = &self.spec;
            let rows = spec.colours * spec.kinds * (1 + spec.axes_len)
                + if spec.kings.is_plain() {
                    0
                } else {
                    spec.bucket_inputs()
                };
            self.w1.resize((spec.inputs() + rows) * self.hidden, 0.0);
            if !self.psqt.is_empty() {
                self.psqt.resize(spec.inputs() + rows, 0.0);
            }
            self.factors = true;
        }
        self
    }

    /// The factor rows of board input `input`: its relation and kind's, then those of its
    /// relation and kind on its file, its rank and its level, then (with king buckets) its
    /// row in the plain layout's numbering; the first [`FloatNet::factor_count`] count.
    #[inline(always)]
    fn factors_of(spec: &Spec, input: usize) -> [usize; 5] {
        let plain = input % spec.bucket_inputs();
        let (piece, cell) = (plain / spec.cells, plain % spec.cells);
        let material = spec.inputs() + piece;
        let axes = spec.inputs() + spec.colours * spec.kinds + piece * spec.axes_len;
        let [x, y, z] = spec.axes[cell].map(|a| axes + a as usize);
        let cells = spec.inputs() + spec.colours * spec.kinds * (1 + spec.axes_len) + plain;
        [material, x, y, z, cells]
    }

    /// How many of [`FloatNet::factors_of`] a board input has: 5 with king buckets, else 4.
    #[inline(always)]
    fn factor_count(spec: &Spec) -> usize {
        4 + !spec.kings.is_plain() as usize
    }

    /// The inputs of `items` seen from `of` (on the board as `flip` shows it), with the
    /// factor of each piece on the board where the inputs are factorised.
    fn inputs_seen(&self, of: usize, items: &[Item], flip: u8) -> Vec<usize> {
        let spec = &self.spec;
        let frame = frame_of(spec, of, items, flip);
        let mut out: Vec<usize> = items
            .iter()
            .map(|&i| input_of(spec, of, frame, i, flip))
            .collect();
        if self.factors {
            for i in 0..out.len() {
                if out[i] < spec.board_inputs() {
                    let f = Self::factors_of(spec, out[i]);
                    out.extend_from_slice(&f[..Self::factor_count(spec)]);
                }
            }
        }
        out
    }

    /// The input weights of the integer network: each cell's row with its factors' added
    /// (within the bound the weights are trained to); the rows as they are where the inputs
    /// are not factorised.
    fn folded_w1(&self) -> Vec<f32> {
        let (spec, h) = (&self.spec, self.hidden);
        let mut w1 = self.w1[..spec.inputs() * h].to_vec();
        if self.factors {
            for (i, row) in w1[..spec.board_inputs() * h].chunks_mut(h).enumerate() {
                let f = Self::factors_of(spec, i);
                let f = &f[..Self::factor_count(spec)];
                for (j, w) in row.iter_mut().enumerate() {
                    let sum: f32 = f.iter().map(|&r| self.w1[r * h + j]).sum();
                    *w = (*w + sum).clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
                }
            }
        }
        w1
    }

    /// The linear values of the integer network's inputs, each with its factors' added, as
    /// [`FloatNet::folded_w1`]; empty without a linear path.
    fn folded_psqt(&self) -> Vec<f32> {
        let spec = &self.spec;
        if self.psqt.is_empty() {
            return Vec::new();
        }
        (0..spec.inputs())
            .map(|i| {
                let mut v = self.psqt[i];
                if self.factors && i < spec.board_inputs() {
                    v += Self::factors_of(spec, i)[..Self::factor_count(spec)]
                        .iter()
                        .map(|&r| self.psqt[r])
                        .sum::<f32>();
                }
                v.clamp(-PSQT_CLIP, PSQT_CLIP)
            })
            .collect()
    }

    /// The floating-point weights of an integer network, to train further from (the
    /// integers divided by their scales: quantising the result gives `net` back exactly).
    pub fn from_network(net: &Net) -> FloatNet {
        let f =
            |v: &[i16], s: i32| -> Vec<f32> { v.iter().map(|&x| x as f32 / s as f32).collect() };
        FloatNet {
            spec: net.spec.clone(),
            hidden: net.hidden,
            buckets: net.buckets,
            w1: f(&net.w1, QA),
            factors: false,
            b1: f(&net.b1, QA),
            w2: f(&net.w2, QB),
            b2: net
                .b2
                .iter()
                .map(|&x| x as f32 / (QA * QB) as f32)
                .collect(),
            psqt: net
                .psqt
                .iter()
                .map(|&x| x as f32 / (QA * QB) as f32)
                .collect(),
            terms_share: net.terms_share,
        }
    }

    /// The floating-point weights of another variant's integer network, carried into a
    /// network of `spec`: input `i`'s weights are `net`'s input `map[i]`'s
    /// ([`crate::eval::nnue::spec::carried_inputs`]), zero where it has none; the hidden and
    /// output layers are `net`'s. Training it further teaches the new inputs.
    pub fn carried(net: &Net, spec: &Spec, map: &[Option<usize>]) -> FloatNet {
        assert_eq!(map.len(), spec.inputs());
        let from = FloatNet::from_network(net);
        let h = net.hidden;
        let mut w1 = vec![0.0; spec.inputs() * h];
        for (row, i) in w1.chunks_mut(h).zip(map) {
            if let Some(i) = *i {
                row.copy_from_slice(&from.w1[i * h..(i + 1) * h]);
            }
        }
        let psqt = if from.psqt.is_empty() {
            Vec::new()
        } else {
            map.iter()
                .map(|i| i.map_or(0.0, |i| from.psqt[i]))
                .collect()
        };
        FloatNet {
            spec: spec.clone(),
            w1,
            psqt,
            ..from
        }
    }

    /// The same network grown into the king buckets of `spec` (this network's spec with
    /// [`Spec::kings`]): every bucket's rows start as the plain layout's, so that without a
    /// mirror it evaluates as before, and training goes on from what it knew. Only a network
    /// of the plain layout, without factors, grows so.
    pub fn with_kings(self, spec: &Spec) -> Result<FloatNet, String> {
        if !self.spec.kings.is_plain() || self.factors {
            return Err("only a network of the plain layout grows into king buckets".into());
        }
        let (h, per) = (self.hidden, spec.bucket_inputs());
        let hands = self.spec.inputs() - per;
        let grow = |v: &[f32], row: usize| -> Vec<f32> {
            let mut out = Vec::with_capacity(spec.inputs() * row);
            for _ in 0..spec.kings.buckets {
                out.extend_from_slice(&v[..per * row]);
            }
            out.extend_from_slice(&v[per * row..(per + hands) * row]);
            out
        };
        let psqt = if self.psqt.is_empty() {
            Vec::new()
        } else {
            grow(&self.psqt, 1)
        };
        Ok(FloatNet {
            spec: spec.clone(),
            w1: grow(&self.w1, h),
            psqt,
            ..self
        })
    }

    /// The same network with `hidden` neurons per perspective (at least as many as it has):
    /// the new neurons' input weights are small random ones (seeded, as [`FloatNet::random`]
    /// draws them), their biases and output weights zero, so that it evaluates as before and
    /// training gives the new neurons what the old ones did not learn (a network grown from
    /// the one it was rather than trained from nothing on fewer games).
    pub fn widened(self, hidden: usize, seed: u64) -> Result<FloatNet, String> {
        let h = self.hidden;
        if hidden < h {
            return Err(format!(
                "a network of {h} hidden neurons does not shrink to {hidden}"
            ));
        }
        if hidden == h {
            return Ok(self);
        }
        let mut rng = StdRng::seed_from_u64(seed);
        let r = input_weight_range(&self.spec);
        let rows = self.w1.len() / h;
        let mut w1 = Vec::with_capacity(rows * hidden);
        for row in self.w1.chunks(h) {
            w1.extend_from_slice(row);
            w1.extend((h..hidden).map(|_| rng.gen_range(-r..r)));
        }
        let mut b1 = self.b1.clone();
        b1.resize(hidden, 0.0);
        let mut w2 = Vec::with_capacity(self.buckets * 2 * hidden);
        for half in self.w2.chunks(h) {
            w2.extend_from_slice(half);
            w2.resize(w2.len() + hidden - h, 0.0);
        }
        Ok(FloatNet {
            hidden,
            w1,
            b1,
            w2,
            ..self
        })
    }

    fn zeros_like(&self) -> FloatNet {
        FloatNet {
            spec: self.spec.clone(),
            hidden: self.hidden,
            buckets: self.buckets,
            w1: vec![0.0; self.w1.len()],
            factors: self.factors,
            b1: vec![0.0; self.b1.len()],
            w2: vec![0.0; self.w2.len()],
            b2: vec![0.0; self.b2.len()],
            psqt: vec![0.0; self.psqt.len()],
            terms_share: self.terms_share,
        }
    }

    fn params_mut(&mut self) -> [&mut Vec<f32>; 5] {
        [
            &mut self.w1,
            &mut self.b1,
            &mut self.w2,
            &mut self.b2,
            &mut self.psqt,
        ]
    }

    fn params(&self) -> [&Vec<f32>; 5] {
        [&self.w1, &self.b1, &self.w2, &self.b2, &self.psqt]
    }

    /// The integer network.
    pub fn quantise(&self) -> Net {
        let q = |v: &[f32], s: f32| -> Vec<i16> {
            v.iter()
                .map(|x| (x * s).round().clamp(i16::MIN as f32, i16::MAX as f32) as i16)
                .collect()
        };
        Net::new(
            &self.spec,
            self.hidden,
            q(&self.folded_w1(), QA as f32),
            q(&self.b1, QA as f32),
            q(&self.w2, QB as f32),
            self.b2
                .iter()
                .map(|x| (x * (QA * QB) as f32).round() as i32)
                .collect(),
        )
        .with_psqt(
            self.folded_psqt()
                .iter()
                .map(|x| (x * (QA * QB) as f32).round() as i32)
                .collect(),
        )
        .with_terms_share(self.terms_share.min(MAX_TERMS_SHARE))
    }

    /// The output in centipawns for the team to move of position `p` of `data`, with the
    /// inputs of the colour to move and of the colour after it, and their accumulators.
    #[inline(always)]
    fn output_of(&self, data: &Data, p: &Packed) -> (f32, [Vec<usize>; 2], [Vec<f32>; 2]) {
        let us = p.side as usize;
        let them = (us + 1) % self.spec.colours;
        let items = data.items_of(p);
        let feats = [us, them].map(|of| self.inputs_seen(of, items, p.flip));
        let (cp, acc) = self.forward(&feats[0], &feats[1], p.pieces as usize);
        (cp, feats, acc)
    }

    /// The output in centipawns for the team to move of a position whose inputs are
    /// `us` (the colour to move's) and `them` (the colour after it's), with `pieces` on the
    /// board; and the two accumulators.
    fn forward(&self, us: &[usize], them: &[usize], pieces: usize) -> (f32, [Vec<f32>; 2]) {
        let h = self.hidden;
        let mut acc = [self.b1.clone(), self.b1.clone()];
        for (a, feats) in acc.iter_mut().zip([us, them]) {
            for &f in feats {
                for (x, y) in a.iter_mut().zip(&self.w1[f * h..(f + 1) * h]) {
                    *x += y;
                }
            }
        }
        let b = self.spec.bucket(pieces, self.buckets);
        let w2 = &self.w2[b * 2 * h..(b + 1) * 2 * h];
        let mut y = self.b2[b];
        if !self.psqt.is_empty() {
            let sum = |feats: &[usize]| feats.iter().map(|&f| self.psqt[f]).sum::<f32>();
            y += 0.5 * (sum(us) - sum(them));
        }
        for (j, a) in acc.iter().enumerate() {
            for (i, &x) in a.iter().enumerate() {
                let c = x.clamp(0.0, 1.0);
                y += w2[j * h + i] * c * c;
            }
        }
        (y * SCALE as f32, acc)
    }
}

/// What one position contributes: the loss, and (when `grad` is given) the gradient. With a
/// `share` of the terms (0 to 1) and the position's terms known, the loss is that of the
/// network's output and the terms' value mixed in that share, as the engine plays a blended
/// network ([`Net::blend`]).
#[inline(always)]
fn position(
    net: &FloatNet,
    data: &Data,
    p: &Packed,
    k: f32,
    lambda: f32,
    share: f32,
    grad: Option<&mut FloatNet>,
) -> f32 {
    let spec = &net.spec;
    let h = net.hidden;
    let (cp, feats, acc) = net.output_of(data, p);
    // The evaluation played, and how much of it is the network's.
    let (played, own) = match p.terms {
        Some(t) if share > 0.0 => (cp * (1.0 - share) + t as f32 * share, 1.0 - share),
        _ => (cp, 1.0),
    };
    let pred = sigmoid(played / k);
    let diff = pred - target(p, k, lambda);
    if let Some(g) = grad {
        // d loss / d y
        let dy = 2.0 * diff * pred * (1.0 - pred) * SCALE as f32 / k * own;
        let b = spec.bucket(p.pieces as usize, net.buckets);
        g.b2[b] += dy;
        if !g.psqt.is_empty() {
            for (&f, sign) in feats[0]
                .iter()
                .map(|f| (f, 0.5))
                .chain(feats[1].iter().map(|f| (f, -0.5)))
            {
                g.psqt[f] += sign * dy;
            }
        }
        let w2 = &net.w2[b * 2 * h..(b + 1) * 2 * h];
        let gw2 = &mut g.w2[b * 2 * h..(b + 1) * 2 * h];
        let mut da = vec![0f32; h];
        for j in 0..2 {
            for i in 0..h {
                let x = acc[j][i];
                let c = x.clamp(0.0, 1.0);
                gw2[j * h + i] += dy * c * c;
                da[i] = if x > 0.0 && x < 1.0 {
                    dy * w2[j * h + i] * 2.0 * x
                } else {
                    0.0
                };
            }
            for (gb, d) in g.b1.iter_mut().zip(&da) {
                *gb += d;
            }
            for &f in &feats[j] {
                for (x, d) in g.w1[f * h..(f + 1) * h].iter_mut().zip(&da) {
                    *x += d;
                }
            }
        }
    }
    diff * diff
}

/// The range of a new neuron's random input weights: as many inputs are on as there are
/// pieces at the start, so their sum starts near the unit scale.
fn input_weight_range(spec: &Spec) -> f32 {
    (1.0 / spec.start_pieces.max(2) as f32).sqrt()
}

#[inline(always)]
fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The loss and gradient of a batch slice (AVX2 where the CPU has it).
fn batch_part(
    net: &FloatNet,
    data: &Data,
    batch: &[Packed],
    k: f32,
    lambda: f32,
    share: f32,
    mut grad: Option<&mut FloatNet>,
) -> f64 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma") {
        // SAFETY: the CPU has AVX2 and FMA (checked above).
        return unsafe { batch_part_avx2(net, data, batch, k, lambda, share, grad) };
    }
    let mut loss = 0.0;
    for p in batch {
        loss += position(net, data, p, k, lambda, share, grad.as_deref_mut()) as f64;
    }
    loss
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn batch_part_avx2(
    net: &FloatNet,
    data: &Data,
    batch: &[Packed],
    k: f32,
    lambda: f32,
    share: f32,
    mut grad: Option<&mut FloatNet>,
) -> f64 {
    let mut loss = 0.0;
    for p in batch {
        loss += position(net, data, p, k, lambda, share, grad.as_deref_mut()) as f64;
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
    /// Mirror a random half of the positions left to right each epoch (twice the positions,
    /// for variants symmetric that way: chess but for castling, which the inputs do not
    /// show). Ignored where the board is not symmetric ([`Spec::mirror`]).
    pub mirror: bool,
    /// Show a random half of the positions with their levels in reverse order each epoch,
    /// independently of [`Config::mirror`] (for variants symmetric that way, as Polyhedron
    /// is). Ignored on a board of one level or not symmetric so ([`Spec::level_mirror`]).
    pub mirror_levels: bool,
    /// Train (and measure) a network that has a share of the terms
    /// ([`FloatNet::terms_share`]) as the engine plays it: the network's output mixed with
    /// the terms' value, on positions whose terms are known ([`Data::terms_known`]); the
    /// network alone on the others. Without it the network is trained alone.
    pub blend: bool,
}

impl Config {
    /// The terms' share of the evaluation `net` is trained and measured as, 0 to 1.
    fn share(&self, net: &FloatNet) -> f32 {
        match self.blend {
            true => net.terms_share.min(100) as f32 / 100.0,
            false => 0.0,
        }
    }
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
            mirror: false,
            mirror_levels: false,
            blend: false,
        }
    }
}

/// The mean loss of `data` under `net` (in parallel).
pub fn mean_loss(net: &FloatNet, data: &Data, config: &Config) -> f64 {
    if data.is_empty() {
        return 0.0;
    }
    let parts = config.threads.max(1);
    let chunk = data.len().div_ceil(parts);
    let share = config.share(net);
    let total: f64 = std::thread::scope(|s| {
        let handles: Vec<_> = data
            .positions
            .chunks(chunk)
            .map(|c| {
                s.spawn(move || batch_part(net, data, c, config.k, config.lambda, share, None))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).sum()
    });
    total / data.len() as f64
}

/// The loss of the evaluation by terms on `data` (validation positions), under the same
/// targets: what the network's validation loss is to beat; `None` where the positions do
/// not say it.
pub fn terms_loss(data: &Data, config: &Config) -> Option<f64> {
    let mut total = 0.0;
    for p in &data.positions {
        let d = sigmoid(p.terms? as f32 / config.k) - target(p, config.k, config.lambda);
        total += (d * d) as f64;
    }
    (!data.is_empty()).then(|| total / data.len() as f64)
}

/// The loss on `data` (validation positions) of the evaluation the engine plays with a
/// network blended with the terms ([`FloatNet::terms_share`]): the network's output and the
/// terms' value mixed in its share, under the same targets. `None` where the network has no
/// share or the positions do not say the terms' value.
pub fn blended_loss(net: &FloatNet, data: &Data, config: &Config) -> Option<f64> {
    if net.terms_share == 0 || data.is_empty() || !data.terms_known() {
        return None;
    }
    let config = Config {
        blend: true,
        ..config.clone()
    };
    Some(mean_loss(net, data, &config))
}

/// The training target of `p`, for the team to move.
#[inline(always)]
fn target(p: &Packed, k: f32, lambda: f32) -> f32 {
    let theirs = p.team != 0;
    let stm_sign = if theirs { -1.0 } else { 1.0 };
    let result = p.result as f32 / 2.0;
    let result = if theirs { 1.0 - result } else { result };
    lambda * result + (1.0 - lambda) * sigmoid(stm_sign * p.score as f32 / k)
}

/// The logistic scale `k` (centipawns) under which the search's scores best predict the
/// games' results in `data`: the scale of the variant's scores (chess's are near 180; a
/// variant whose material is worth more, as Pentaplane's, has a larger one). A golden-section
/// search over 50 to 5000 of the mean squared error of `sigmoid(score / k)` against the
/// result, for the team to move.
pub fn fit_k(data: &Data) -> f32 {
    let loss = |k: f32| -> f64 {
        let total: f64 = data
            .positions
            .iter()
            .map(|p| {
                let d = sigmoid(p.score as f32 / k) - p.result as f32 / 2.0;
                (d * d) as f64
            })
            .sum();
        total / data.len().max(1) as f64
    };
    let (mut a, mut b) = (50f32, 5000f32);
    let g = (5f32.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let c = b - g * (b - a);
        let d = a + g * (b - a);
        if loss(c) < loss(d) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
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
    train: &mut Data,
    validation: &Data,
    config: &Config,
    report: &mut dyn FnMut(usize, f64, f64),
    checkpoint: &mut dyn FnMut(&FloatNet) -> Result<(), String>,
) -> Result<(), String> {
    let mut rng = StdRng::seed_from_u64(config.seed);
    let parts = config.threads.max(1);
    let mut grads: Vec<FloatNet> = (0..parts).map(|_| net.zeros_like()).collect();
    let mut adam = Adam {
        m: net.zeros_like(),
        v: net.zeros_like(),
        t: 0,
    };
    let batches_per_epoch = train.len().div_ceil(config.batch).max(1);
    let total_batches = (batches_per_epoch * config.epochs) as f32;
    for epoch in 1..=config.epochs {
        train.positions.shuffle(&mut rng);
        let files = config.mirror && net.spec.mirror.is_some();
        let levels = config.mirror_levels && net.spec.level_mirror.is_some();
        if files || levels {
            for p in train.positions.iter_mut() {
                // One draw per position and flip asked for (--mirror alone draws as before).
                let f = files && rng.r#gen::<bool>();
                let l = levels && rng.r#gen::<bool>();
                p.flip = (f as u8 * FILES) | (l as u8 * LEVELS);
            }
        }
        let data: &Data = train;
        let mut loss = 0.0;
        for (bi, batch) in data.positions.chunks(config.batch).enumerate() {
            let chunk = batch.len().div_ceil(parts);
            let frozen: &FloatNet = net;
            let share = config.share(frozen);
            loss += std::thread::scope(|s| {
                let handles: Vec<_> = batch
                    .chunks(chunk)
                    .zip(grads.iter_mut())
                    .map(|(c, g)| {
                        s.spawn(move || {
                            for v in g.params_mut() {
                                v.iter_mut().for_each(|x| *x = 0.0);
                            }
                            batch_part(frozen, data, c, config.k, config.lambda, share, Some(g))
                        })
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().unwrap()).sum::<f64>()
            });
            // Sum the parts' gradients into the first.
            let (first, rest) = grads.split_at_mut(1);
            for other in rest.iter() {
                for (a, b) in first[0].params_mut().into_iter().zip(other.params()) {
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
    let grads = grad.params();
    let ms = adam.m.params_mut();
    let vs = adam.v.params_mut();
    let clips = [
        WEIGHT_CLIP,
        WEIGHT_CLIP,
        WEIGHT_CLIP,
        WEIGHT_CLIP,
        PSQT_CLIP,
    ];
    for ((((w, g), m), v), clip) in net
        .params_mut()
        .into_iter()
        .zip(grads)
        .zip(ms)
        .zip(vs)
        .zip(clips)
    {
        for i in 0..w.len() {
            let gi = g[i] * scale;
            m[i] = B1 * m[i] + (1.0 - B1) * gi;
            v[i] = B2 * v[i] + (1.0 - B2) * gi * gi;
            let update = (m[i] / c1) / ((v[i] / c2).sqrt() + EPS);
            w[i] = (w[i] * (1.0 - rate * decay) - rate * update).clamp(-clip, clip);
        }
    }
}

/// Writes `net` quantised to `path`, through `PATH.tmp` renamed over it: a regular file
/// only (a device, FIFO or directory at either is refused at once).
pub fn save(net: &FloatNet, path: &str) -> Result<(), String> {
    if let Ok(meta) = std::fs::symlink_metadata(path)
        && !meta.is_file()
    {
        return Err(format!("{path}: not a regular file"));
    }
    let bytes = net.quantise().write();
    let tmp = format!("{path}.tmp");
    crate::files::create_regular(&tmp)
        .and_then(|mut f| f.write_all(&bytes).map_err(|e| e.to_string()))
        .and_then(|_| std::fs::rename(&tmp, path).map_err(|e| e.to_string()))
        .map_err(|e| format!("{tmp}: {e}"))
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Game;
    use crate::rules::geometry::Coord;

    /// `data` holding the positions `fens` of `variant` with their scores and results.
    fn data(variant: Variant, fens: &[(&str, i32, f64)]) -> Data {
        let spec = Spec::of(variant);
        let mut b = Builder::default();
        for &(fen, score, result) in fens {
            let g = AnyGame::from_fen(variant, fen).unwrap();
            with_game!(&g, g => b.add(&spec, g, score, result, None));
        }
        b.done()
    }

    /// Positions of every kind of input: chess, Polyhedron with pieces in reserve, and
    /// four colours, one of them out of the game.
    fn samples() -> Vec<(Variant, String)> {
        // A bench position with pieces of both colours in reserve.
        let reserve = Variant::Polyhedron.info().bench_positions[1].to_string();
        assert!(reserve.contains("[RBAHWWSGGGbnhhg]"));
        // Future Generation's start with Black's King taken on its first move: Black's
        // other pieces stay on the board, out of the game.
        let fg = Variant::FutureGeneration;
        let knight = fg.start_fen().replacen("/8/8/8/8/wP", "/5wN2/8/8/8/wP", 1);
        let mut out = AnyGame::from_fen(fg, &knight).unwrap();
        out.make(out.parse_move("Af6Ae8").unwrap());
        assert_eq!(out.fen().split(' ').nth(5), Some("b"), "{}", out.fen());
        vec![
            (fg, out.fen()),
            (
                Variant::Chess,
                "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 3 3".into(),
            ),
            (Variant::Polyhedron, reserve),
            (
                Variant::FutureGeneration,
                Variant::FutureGeneration.info().bench_positions[1].into(),
            ),
        ]
    }

    /// A position read from a binary record shows the network the same inputs as the
    /// position itself (a colour out of the game included: none of its pieces).
    #[test]
    fn a_record_and_its_position_give_the_same_inputs() {
        for (v, fen) in samples() {
            let spec = Spec::of(v);
            let g = AnyGame::from_fen(v, &fen).unwrap();
            let by_position = data(v, &[(&fen, 40, 0.5)]);
            let mut b = Builder::default();
            b.add_record(&spec, &Record::from_game(&g, 40, 0.5, 1));
            let by_record = b.done();
            let (p, r) = (by_position.positions[0], by_record.positions[0]);
            let mut items = [
                by_position.items_of(&p).to_vec(),
                by_record.items_of(&r).to_vec(),
            ];
            items.iter_mut().for_each(|i| i.sort_unstable());
            assert_eq!(items[0], items[1], "{}", v.name());
            assert_eq!((p.pieces, p.side), (r.pieces, r.side), "{}", v.name());
            if v == Variant::FutureGeneration && fen.split(' ').nth(5) == Some("b") {
                // 64 pieces at the start and a Knight, less Black's 16.
                assert_eq!(p.pieces, 49);
            }
        }
    }

    /// A Polyhedron position shown with its levels reversed (`--mirror-levels`), with its
    /// files reversed (`--mirror`) or both, gives every perspective the inputs of the
    /// position written so (the FEN's levels in reverse order, each rank's cells reversed).
    #[test]
    fn a_position_shown_mirrored_has_the_mirrored_positions_inputs() {
        let v = Variant::Polyhedron;
        let spec = Spec::of(v);
        let fen = "pppppp/6/6/6/6/PPPPPP|gwhuuhwg/pppppppp/8/8/8/P7/1PPPPPPP/GWHUUHWG|\
                   dsafqkfasd/rnbuuuubnr/pp1ppppppp/2p7/10/10/2P7/PP1PPPPPPP/RNBUUUUBNR/DSAFQKFASD|\
                   gwhuuhwg/pppppppp/8/8/8/8/PPPPPPPP/GWHUUHWG|pppppp/6/6/6/6/PPPPPP[] b - 0 2";
        let (board, rest) = fen.split_once('[').unwrap();
        let levels: Vec<&str> = board.split('|').collect();
        let files = |level: &str| -> String {
            level
                .split('/')
                .map(|rank| {
                    // Digits are runs of empty cells (10 is one run): reversed as whole tokens.
                    let mut tokens: Vec<String> = Vec::new();
                    for c in rank.chars() {
                        match tokens.last_mut() {
                            Some(t)
                                if c.is_ascii_digit() && t.chars().all(|d| d.is_ascii_digit()) =>
                            {
                                t.push(c)
                            }
                            _ => tokens.push(c.to_string()),
                        }
                    }
                    tokens.into_iter().rev().collect::<String>()
                })
                .collect::<Vec<_>>()
                .join("/")
        };
        let written = |files_too: bool, reversed: bool| -> String {
            let mut ls: Vec<String> = levels
                .iter()
                .map(|l| if files_too { files(l) } else { l.to_string() })
                .collect();
            if reversed {
                ls.reverse();
            }
            format!("{}[{rest}", ls.join("|"))
        };
        let inputs = |d: &Data, flip: u8| -> Vec<Vec<usize>> {
            let p = d.positions[0];
            (0..spec.colours)
                .map(|of| {
                    let mut i: Vec<usize> = d
                        .items_of(&p)
                        .iter()
                        .map(|&x| input_of(&spec, of, Frame::default(), x, flip))
                        .collect();
                    i.sort_unstable();
                    i
                })
                .collect()
        };
        let shown = data(v, &[(fen, 0, 0.5)]);
        for (flip, files_too, reversed) in [
            (LEVELS, false, true),
            (FILES, true, false),
            (FILES | LEVELS, true, true),
        ] {
            let twin = written(files_too, reversed);
            assert_ne!(twin, fen);
            let twin = data(v, &[(&twin, 0, 0.5)]);
            assert_eq!(inputs(&shown, flip), inputs(&twin, 0), "flip {flip}");
            assert_ne!(inputs(&shown, flip), inputs(&shown, 0), "flip {flip}");
        }
    }

    /// The analytic gradient agrees with finite differences of the loss, in chess, with
    /// pieces in reserve and with four colours, alone and blended with the terms (a share
    /// of 0.4 of a terms' value of 150).
    #[test]
    fn the_gradient_is_the_loss_derivative() {
        for ((v, fen), share) in samples()
            .into_iter()
            .flat_map(|s| [(s.clone(), 0.0), (s, 0.4)])
        {
            let spec = Spec::of(v);
            let mut net = FloatNet::random(&spec, 32, 4, 3).linear();
            net.b1.iter_mut().for_each(|b| *b = 0.3);
            for (i, x) in net.psqt.iter_mut().enumerate() {
                *x = ((i * 37) % 11) as f32 * 0.01 - 0.05;
            }
            let mut d = data(v, &[(&fen, 40, 0.5)]);
            d.positions[0].terms = Some(150);
            let p = d.positions[0];
            let mut g = net.zeros_like();
            position(&net, &d, &p, 180.0, 0.5, share, Some(&mut g));
            let f = input_of(
                &spec,
                p.side as usize,
                Frame::default(),
                d.items_of(&p)[3],
                0,
            );
            // The same piece seen by the colour after the one to move.
            let next = (p.side as usize + 1) % spec.colours;
            let f_next = input_of(&spec, next, Frame::default(), d.items_of(&p)[3], 0);
            let h = net.hidden;
            for (param, i) in [
                (0usize, f * h + 5),
                (0, f * h + 17),
                (1, 3),
                (2, 11),
                (2, 40),
                (4, f),
                (4, f_next),
            ] {
                let e = 1e-3f32;
                let mut plus = net.clone();
                plus.params_mut()[param][i] += e;
                let mut minus = net.clone();
                minus.params_mut()[param][i] -= e;
                let numeric = (position(&plus, &d, &p, 180.0, 0.5, share, None)
                    - position(&minus, &d, &p, 180.0, 0.5, share, None))
                    / (2.0 * e);
                let analytic = g.params()[param][i];
                assert!(
                    (numeric - analytic).abs() <= 1e-3 + 0.05 * analytic.abs(),
                    "{} (share {share}): param {param}[{i}]: numeric {numeric} analytic {analytic}",
                    v.name()
                );
            }
        }
    }

    /// With factorised inputs, the gradient of a factor row is the loss's derivative too;
    /// the network evaluates as the one without factors whose rows have them added in by
    /// hand, and quantises to the same file; with the factors zero it is the network it was
    /// before. The linear path's factor values likewise. In chess, with pieces in reserve and
    /// with four colours.
    #[test]
    fn factorised_inputs_learn_and_fold_into_the_rows() {
        for (v, fen) in samples() {
            let spec = Spec::of(v);
            let plain = FloatNet::random(&spec, 32, 4, 5).linear();
            let mut net = plain.clone().factorised();
            assert_eq!(net.psqt.len(), net.w1.len() / 32);
            assert_eq!(
                net.w1.len(),
                (spec.inputs() + spec.colours * spec.kinds * (1 + spec.axes_len)) * 32
            );
            assert_eq!(net.quantise().write(), plain.quantise().write());
            net.b1.iter_mut().for_each(|b| *b = 0.3);
            net.b2.iter_mut().for_each(|b| *b = 0.25);
            let h = net.hidden;
            // Random factor rows, small enough that no folded weight reaches the bound.
            let mut rng = StdRng::seed_from_u64(8);
            for w in &mut net.w1[spec.inputs() * h..] {
                *w = rng.gen_range(-0.05..0.05);
            }
            for w in &mut net.psqt {
                *w = rng.gen_range(-0.5..0.5);
            }
            let d = data(v, &[(&fen, 40, 0.5)]);
            let p = d.positions[0];
            let mut g = net.zeros_like();
            position(&net, &d, &p, 180.0, 0.5, 0.0, Some(&mut g));
            // Two of the factors the position turns on: its first piece's and its last's.
            let us = p.side as usize;
            let seen = net.inputs_seen(us, d.items_of(&p), 0);
            let factors: Vec<usize> = seen
                .iter()
                .copied()
                .filter(|&f| f >= spec.inputs())
                .collect();
            let on_board = d.items_of(&p).iter().filter(|&&i| i & IN_HAND == 0).count();
            assert_eq!(factors.len(), 4 * on_board, "{}", v.name());
            let (first, last) = (factors[0], factors[factors.len() - 1]);
            assert_ne!(first, last, "{}", v.name());
            // Every neuron of the two rows (a neuron outside 0..1 passes no gradient), and
            // their linear values.
            let mut checked = 0;
            let rows = (0..h).flat_map(|j| [(0, first * h + j), (0, last * h + j)]);
            for (param, i) in rows.chain([(4, first), (4, last)]) {
                let e = 1e-3f32;
                let mut plus = net.clone();
                plus.params_mut()[param][i] += e;
                let mut minus = net.clone();
                minus.params_mut()[param][i] -= e;
                let numeric = (position(&plus, &d, &p, 180.0, 0.5, 0.0, None)
                    - position(&minus, &d, &p, 180.0, 0.5, 0.0, None))
                    / (2.0 * e);
                let analytic = g.params()[param][i];
                checked += (analytic != 0.0) as usize;
                assert!(
                    (numeric - analytic).abs() <= 1e-3 + 0.05 * analytic.abs(),
                    "{}: w1[{i}]: numeric {numeric} analytic {analytic}",
                    v.name()
                );
            }
            assert!(checked >= 10, "{}: {checked} neurons active", v.name());
            // The same network without factors, each factor added by hand into the rows of
            // its relation and kind (on its file, rank or level, from the cells'
            // coordinates), evaluates the same and quantises to the same file.
            let coords = crate::rules::shape::Shape::of(v).coords;
            let lo = |f: fn(&Coord) -> i8| coords.iter().map(f).min().unwrap();
            let n =
                |f: fn(&Coord) -> i8| (coords.iter().map(f).max().unwrap() - lo(f) + 1) as usize;
            let (nx, ny, nz) = (n(|c| c.x), n(|c| c.y), n(|c| c.z));
            assert_eq!(spec.axes_len, nx + ny + nz);
            let mut folded = net.clone();
            folded.factors = false;
            folded.w1.truncate(spec.inputs() * h);
            folded.psqt.truncate(spec.inputs());
            let pieces = spec.colours * spec.kinds;
            for piece in 0..pieces {
                for (cell, c) in coords.iter().enumerate() {
                    let axes = spec.inputs() + pieces + piece * (nx + ny + nz);
                    let factors = [
                        spec.inputs() + piece,
                        axes + (c.x - lo(|c| c.x)) as usize,
                        axes + nx + (c.y - lo(|c| c.y)) as usize,
                        axes + nx + ny + (c.z - lo(|c| c.z)) as usize,
                    ];
                    let row = piece * spec.cells + cell;
                    for f in factors {
                        for j in 0..h {
                            folded.w1[row * h + j] += net.w1[f * h + j];
                        }
                        folded.psqt[row] += net.psqt[f];
                    }
                }
            }
            let them = (us + 1) % spec.colours;
            let cp = |n: &FloatNet| {
                let [a, b] = [us, them].map(|of| n.inputs_seen(of, d.items_of(&p), 0));
                n.forward(&a, &b, p.pieces as usize).0
            };
            let (with_factors, in_rows) = (cp(&net), cp(&folded));
            assert!(
                (with_factors - in_rows).abs() < 0.01 && with_factors.abs() > 1.0,
                "{}: {with_factors} with factors, {in_rows} in the rows",
                v.name()
            );
            assert_eq!(
                net.quantise().write(),
                folded.quantise().write(),
                "{}",
                v.name()
            );
        }
    }

    /// A network file read back into floats quantises to the same file: training further
    /// from it starts where it stands.
    #[test]
    fn a_network_file_round_trips_through_floats() {
        let spec = Spec::of(Variant::Pentaplane);
        let net = FloatNet::random(&spec, 64, 8, 7).quantise();
        let again = FloatNet::from_network(&net).quantise();
        assert_eq!(again.write(), net.write());
        if let Some(shipped) = crate::eval::nnue::embedded(Variant::Chess) {
            assert_eq!(
                FloatNet::from_network(&shipped).quantise().write(),
                shipped.write()
            );
        }
    }

    /// The quantised network's integer evaluation equals a float evaluation of the same
    /// (dequantised) weights within rounding, and stays near the float network it was
    /// quantised from, in chess, with reserves and with four colours.
    #[test]
    fn quantising_keeps_the_evaluation() {
        for ((v, fen), linear) in samples()
            .into_iter()
            .flat_map(|s| [(s.clone(), false), (s, true)])
        {
            let spec = Spec::of(v);
            let mut net = FloatNet::random(&spec, 64, 8, 9);
            if linear {
                net = net.linear();
                for (i, x) in net.psqt.iter_mut().enumerate() {
                    *x = (i % 5) as f32 * 0.1 - 0.1;
                }
            }
            // Activations within 0..1 and an output away from 0, so that the check means
            // something.
            net.b1.iter_mut().for_each(|b| *b = 0.3);
            net.b2.iter_mut().for_each(|b| *b = 0.25);
            let q = net.quantise();
            let d = data(v, &[(&fen, 0, 0.5)]);
            let p = d.positions[0];
            let us = p.side as usize;
            let feats: Vec<Vec<usize>> = [us, (us + 1) % spec.colours]
                .iter()
                .map(|&of| {
                    d.items_of(&p)
                        .iter()
                        .map(|&i| input_of(&spec, of, Frame::default(), i, 0))
                        .collect()
                })
                .collect();
            let float_of = |n: &FloatNet| n.forward(&feats[0], &feats[1], p.pieces as usize).0;
            let same_weights = float_of(&FloatNet::from_network(&q));
            let original = float_of(&net);
            let g = AnyGame::from_fen(v, &fen).unwrap();
            let int_cp = with_game!(&g, g => q.evaluate_fresh(g));
            assert!(
                (int_cp as f32 - same_weights).abs() < 2.0 && same_weights.abs() > 20.0,
                "{}: integer {int_cp} vs float of the same weights {same_weights}",
                v.name()
            );
            assert!(
                (same_weights - original).abs() < 0.15 * original.abs() + 5.0,
                "{}: quantised {same_weights} vs float {original}",
                v.name()
            );
        }
    }

    /// With king buckets (mirrored where the board mirrors), each perspective's inputs are
    /// those the engine sees (`nnue::inputs_of`), in the bucket and half of the board of its
    /// royal piece; in chess a position shown mirrored (`--mirror`) is then seen as it is.
    /// Factorised, every piece also turns on its row of the plain layout, and the network
    /// quantised (the factors folded into each bucket's rows) evaluates the position as the
    /// floating-point one does.
    #[test]
    fn king_buckets_follow_the_royal_piece_as_the_engine_does() {
        use crate::eval::nnue::{inputs_of, tests::spec_with_kings};
        let mut away = 0;
        for (v, fen) in samples() {
            let spec = spec_with_kings(v);
            let g = AnyGame::from_fen(v, &fen).unwrap();
            let (engine, _) = with_game!(&g, g => inputs_of(&spec, g));
            let mut net = FloatNet::random(&spec, 32, 4, 5).factorised();
            let d = data(v, &[(&fen, 40, 0.5)]);
            let p = d.positions[0];
            let items = d.items_of(&p);
            let on_board = items.iter().filter(|&&i| i & IN_HAND == 0).count();
            for (of, theirs) in engine.iter().enumerate() {
                let seen = net.inputs_seen(of, items, 0);
                let (mine, factors): (Vec<usize>, Vec<usize>) =
                    seen.iter().partition(|&&i| i < spec.inputs());
                let mut theirs = theirs.clone();
                let mut mine = mine;
                mine.sort_unstable();
                theirs.sort_unstable();
                assert_eq!(mine, theirs, "{} seen from {of}", v.name());
                assert_eq!(factors.len(), 5 * on_board, "{}", v.name());
                away += mine
                    .iter()
                    .any(|&i| i >= spec.bucket_inputs() && i < spec.board_inputs())
                    as usize;
                if v == Variant::Chess {
                    assert_eq!(seen, net.inputs_seen(of, items, FILES), "seen from {of}");
                }
            }
            net.b1.iter_mut().for_each(|b| *b = 0.3);
            net.b2.iter_mut().for_each(|b| *b = 0.5);
            let mut rng = StdRng::seed_from_u64(8);
            let h = net.hidden;
            for w in &mut net.w1[spec.inputs() * h..] {
                *w = rng.gen_range(-0.05..0.05);
            }
            let us = p.side as usize;
            let float_of = |n: &FloatNet| {
                let feats = [us, (us + 1) % spec.colours].map(|of| n.inputs_seen(of, items, 0));
                n.forward(&feats[0], &feats[1], p.pieces as usize).0
            };
            // The factors folded into each bucket's rows evaluate as they did beside them.
            let mut folded = net.clone();
            (folded.w1, folded.psqt, folded.factors) = (net.folded_w1(), net.folded_psqt(), false);
            let (float, in_rows) = (float_of(&net), float_of(&folded));
            assert!(
                (float - in_rows).abs() < 0.01 && float.abs() > 1.0,
                "{}: {float} with factors, {in_rows} in the rows",
                v.name()
            );
            let q = net.quantise();
            assert_eq!(q.spec.kings, spec.kings);
            let read = Net::read(&q.write(), &Spec::of(v)).unwrap();
            assert_eq!(read, q, "{}: the file round-trips", v.name());
            let same_weights = float_of(&FloatNet::from_network(&read));
            let int_cp = with_game!(&g, g => read.evaluate_fresh(g));
            assert!(
                (int_cp as f32 - same_weights).abs() < 2.0 && same_weights.abs() > 1.0,
                "{}: integer {int_cp} vs float of the same weights {same_weights}",
                v.name()
            );
        }
        assert!(
            away >= 2,
            "some royal piece stands beyond the first bucket: {away}"
        );
    }

    /// Of two royal pieces of a side (a variant file may have several), the trainer follows
    /// the one on the first cell of the board as shown, mirrored or not, as the engine does.
    #[test]
    fn of_several_royal_pieces_the_first_shown_is_followed() {
        let plain = Spec::of(Variant::Chess);
        let spec = plain
            .clone()
            .with_kings(plain.parse_kings("0123/4444", true).unwrap())
            .unwrap();
        // White Kings on b1 and g1 (5 is chess's King).
        let items = [item(Colour::WHITE, 5, 1), item(Colour::WHITE, 5, 6)];
        for flip in [0, FILES] {
            let shown: Vec<usize> = items
                .iter()
                .map(|&i| flipped(&spec, (i & 0xffff) as usize, flip))
                .collect();
            let first = *shown.iter().min().unwrap();
            assert_eq!(frame_of(&spec, 0, &items, flip), spec.frame(0, Some(first)));
        }
        assert_ne!(
            frame_of(&spec, 0, &items, 0).mirror,
            spec.frame(0, Some(6)).mirror,
            "b1, not g1, unmirrored"
        );
    }

    /// Chess positions a grown network is checked on: an opening, Kings castled long and
    /// in the centre, a pawnless ending.
    const GROWN_FENS: [&str; 3] = [
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 3 3",
        "2kr3r/ppp2ppp/8/8/3K4/8/PPP2PPP/R6R w - - 0 20",
        "8/2k5/8/8/8/8/1K6/8 w - - 0 60",
    ];

    /// `net`'s evaluation of the chess position `fen`, from a full refresh.
    fn chess_eval(net: &Net, fen: &str) -> i32 {
        let g = AnyGame::from_fen(Variant::Chess, fen).unwrap();
        with_game!(&g, g => net.evaluate_fresh(g))
    }

    /// A plain network grown into king buckets without a mirror evaluates every position as
    /// before (each bucket starts as its rows); mirrored, a position whose royal pieces stand
    /// on the left half is still evaluated as before. A network with king buckets, or with
    /// factors, does not grow.
    #[test]
    fn a_plain_network_grows_into_king_buckets() {
        let spec = Spec::of(Variant::Chess);
        let plain = FloatNet::random(&spec, 32, 8, 4).linear();
        let q = plain.quantise();
        let layout = |l: &str, mirror| {
            spec.clone()
                .with_kings(spec.parse_kings(l, mirror).unwrap())
                .unwrap()
        };
        let stripes = layout("01230123/44444444/55555555", false);
        let grown = plain.clone().with_kings(&stripes).unwrap().quantise();
        assert_eq!(grown.w1.len(), 6 * 768 * 32 + q.w1.len() - 768 * 32);
        let mirrored = plain
            .clone()
            .with_kings(&layout("0123/4444", true))
            .unwrap()
            .quantise();
        for fen in GROWN_FENS {
            let eval = |n: &Net| chess_eval(n, fen);
            assert_eq!(eval(&grown), eval(&q), "{fen}");
            if !fen.starts_with("r1b") {
                // Both Kings on the a- to d-files: nothing is seen mirrored.
                assert_eq!(eval(&mirrored), eval(&q), "{fen}");
            }
        }
        assert!(FloatNet::from_network(&grown).with_kings(&stripes).is_err());
        assert!(plain.factorised().with_kings(&stripes).is_err());
    }

    /// A network grown to more hidden neurons evaluates as before, quantised too, in a
    /// layout with factors and a linear path; it does not shrink.
    #[test]
    fn a_network_widened_evaluates_as_before() {
        let spec = Spec::of(Variant::Chess);
        let net = FloatNet::random(&spec, 32, 8, 4).linear();
        let mut net = net.factorised();
        // Factor rows and biases that are not zero, so that each is carried over.
        for (i, x) in net.w1.iter_mut().enumerate().skip(768 * 32) {
            *x = ((i % 7) as f32 - 3.0) * 0.01;
        }
        for (i, x) in net.b1.iter_mut().enumerate() {
            *x = (i % 5) as f32 * 0.02;
        }
        let wide = net.clone().widened(64, 9).unwrap();
        assert_eq!((wide.hidden, wide.w1.len()), (64, net.w1.len() * 2));
        assert!(wide.w1.iter().skip(32).take(32).any(|&x| x != 0.0));
        for fen in GROWN_FENS {
            let eval = |n: &Net| chess_eval(n, fen);
            assert_eq!(eval(&wide.quantise()), eval(&net.quantise()), "{fen}");
            let d = data(Variant::Chess, &[(fen, 0, 0.5)]);
            let p = &d.positions[0];
            let (a, _, _) = net.output_of(&d, p);
            let (b, _, _) = wide.output_of(&d, p);
            assert!((a - b).abs() < 1e-3, "{fen}: {a} {b}");
        }
        assert!(wide.widened(48, 1).is_err());
    }

    /// A network is written only to a regular file: a device at the path (or at its `.tmp`)
    /// is refused, and a data file with an endless line is refused at that line.
    #[test]
    fn only_regular_files_are_written_and_lines_are_bounded() {
        let net = FloatNet::random(&Spec::of(Variant::Chess), 16, 2, 1);
        let e = save(&net, "/dev/null").unwrap_err();
        assert!(e.contains("not a regular file"), "{e}");
        let dir = std::env::temp_dir().join(format!("strata-save-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("n.net");
        save(&net, out.to_str().unwrap()).unwrap();
        assert!(std::fs::metadata(&out).unwrap().len() > 1000);
        let long = dir.join("long.txt");
        std::fs::write(
            &long,
            "x".repeat(crate::tuning::records::MAX_TEXT_LINE + 10),
        )
        .unwrap();
        let err = |r: Result<(Data, Data), String>| r.err().unwrap();
        let e = err(read(
            &[long.to_string_lossy().into()],
            Variant::Chess,
            20,
            false,
        ));
        assert!(e.contains(":1: a line longer than") && e.len() < 300, "{e}");
        let e = crate::tuning::data::read(long.to_str().unwrap(), Variant::Chess)
            .err()
            .unwrap();
        assert!(e.contains(":1: a line longer than") && e.len() < 300, "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The fitted scale follows the scores' scale: results that follow sigmoid(score / 400)
    /// give a scale near 400.
    #[test]
    fn the_scale_is_fitted_to_the_scores() {
        let mut b = Builder::default();
        let spec = Spec::of(Variant::Chess);
        let g = AnyGame::startpos(Variant::Chess);
        let mut rng = StdRng::seed_from_u64(5);
        for _ in 0..20000 {
            let score: i32 = rng.gen_range(-1500..1500);
            let p = sigmoid(score as f32 / 400.0);
            let result = if rng.r#gen::<f32>() < p { 1.0 } else { 0.0 };
            with_game!(&g, g => b.add(&spec, g, score, result, None));
        }
        let k = fit_k(&b.done());
        assert!((300.0..500.0).contains(&k), "{k}");
    }

    /// The blended loss mixes the network's output and the terms' value in the network's
    /// share: for a network that answers 0 everywhere, a share of 40 % is the terms' loss
    /// with every terms' value at 40 %; with no share there is none.
    #[test]
    fn the_blended_loss_mixes_network_and_terms() {
        let fens = [
            ("4k3/8/8/8/8/8/PPPP4/4K3 w - - 0 1", 300, 1.0, 250),
            ("4k3/pppp4/8/8/8/8/8/4K3 w - - 0 1", -300, 0.0, -410),
            ("3qk3/8/8/8/8/8/8/4K3 b - - 0 1", -900, 0.0, 880),
        ];
        let with_terms = |scale: i32| {
            let spec = Spec::of(Variant::Chess);
            let mut b = Builder::default();
            for &(fen, score, result, terms) in &fens {
                let g = AnyGame::from_fen(Variant::Chess, fen).unwrap();
                with_game!(&g, g => b.add(&spec, g, score, result, Some(terms * scale / 100)));
            }
            b.done()
        };
        let config = Config::default();
        let mut net = FloatNet::random(&Spec::of(Variant::Chess), 16, 8, 1);
        for v in net.params_mut() {
            v.iter_mut().for_each(|x| *x = 0.0);
        }
        assert_eq!(blended_loss(&net, &with_terms(100), &config), None);
        net.terms_share = 40;
        let blended = blended_loss(&net, &with_terms(100), &config).unwrap();
        let scaled = terms_loss(&with_terms(40), &config).unwrap();
        assert!((blended - scaled).abs() < 1e-7, "{blended} vs {scaled}");
        assert!((blended - terms_loss(&with_terms(100), &config).unwrap()).abs() > 1e-4);
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
        let mut train_set = data(Variant::Chess, &fens);
        let validation = data(Variant::Chess, &fens);
        let config = Config {
            epochs: 30,
            batch: 2,
            rate: 0.01,
            threads: 2,
            ..Config::default()
        };
        let mut net = FloatNet::random(&Spec::of(Variant::Chess), 64, 8, 1);
        let before = mean_loss(&net, &validation, &config);
        let mut last = before;
        train(
            &mut net,
            &mut train_set,
            &validation,
            &config,
            &mut |_, _, v| last = v,
            &mut |_| Ok(()),
        )
        .unwrap();
        assert!(last < before * 0.5, "loss {before} -> {last}");
    }

    /// Trained blended with terms that misjudge the positions, a network learns what the
    /// terms miss: the blended loss falls, and where the terms say -300 of a position whose
    /// search said +300 the network alone goes past +300, as a network trained alone on the
    /// same positions does not.
    #[test]
    fn a_network_trained_blended_corrects_the_terms() {
        let fens = [
            ("4k3/8/8/8/8/8/PPPP4/4K3 w - - 0 1", 300, 1.0, -300),
            ("4k3/pppp4/8/8/8/8/8/4K3 w - - 0 1", -300, 0.0, 0),
            ("4k3/8/8/8/8/8/8/3QK3 b - - 0 1", 900, 1.0, 0),
            ("3qk3/8/8/8/8/8/8/4K3 b - - 0 1", -900, 0.0, 200),
        ];
        let spec = Spec::of(Variant::Chess);
        let set = || {
            let mut b = Builder::default();
            for &(fen, score, result, terms) in &fens {
                let g = AnyGame::from_fen(Variant::Chess, fen).unwrap();
                with_game!(&g, g => b.add(&spec, g, score, result, Some(terms)));
            }
            b.done()
        };
        let validation = set();
        assert!(validation.terms_known());
        let own_value = |blend: bool| {
            let config = Config {
                epochs: 60,
                batch: 2,
                rate: 0.01,
                lambda: 0.0,
                blend,
                ..Config::default()
            };
            let mut net = FloatNet::random(&spec, 64, 8, 1);
            net.terms_share = 50;
            let before = blended_loss(&net, &validation, &config).unwrap();
            train(
                &mut net,
                &mut set(),
                &validation,
                &config,
                &mut |_, _, _| {},
                &mut |_| Ok(()),
            )
            .unwrap();
            let after = blended_loss(&net, &validation, &config).unwrap();
            (
                net.output_of(&validation, &validation.positions[0]).0,
                before,
                after,
            )
        };
        let (blended, before, after) = own_value(true);
        assert!(after < before * 0.5, "blended loss {before} -> {after}");
        let (alone, _, _) = own_value(false);
        assert!(
            alone < 400.0 && blended > 500.0,
            "alone {alone}, blended {blended}"
        );
    }

    /// Chess's network carried into Pole Chess's: every chess input is carried, the Pole's
    /// start at zero, so a Pole Chess position evaluates as chess's network evaluates the
    /// same pieces, with the Poles in hand or on the board.
    #[test]
    fn a_network_carried_from_chess_evaluates_pole_chess_as_chess() {
        let chess = FloatNet::random(&Spec::of(Variant::Chess), 32, 8, 3).quantise();
        let map = crate::eval::nnue::spec::carried_inputs(Variant::Chess, Variant::Pole).unwrap();
        let spec = Spec::of(Variant::Pole);
        assert_eq!(map.len(), spec.inputs());
        assert_eq!(map.iter().flatten().count(), chess.spec.inputs());
        let pole = FloatNet::carried(&chess, &spec, &map).quantise();
        assert_eq!(pole.spec, spec);
        let eval = |v: Variant, net: &Net, fen: &str| {
            let g = AnyGame::from_fen(v, fen).unwrap();
            crate::with_game!(&g, g => net.evaluate_fresh(g))
        };
        let mut seen = Vec::new();
        for (chess_fen, pole_fen) in [
            (
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[Oo] b KQkq - 0 1",
            ),
            (
                "rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2",
                "rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR[Oo+] b KQkq - 0 2",
            ),
            (
                // 18 pieces, and 20 with the Poles: the same output bucket.
                "r3k2r/pp3ppp/2p5/8/8/2P5/PP3PPP/R3K2R w KQkq - 0 20",
                "r3k2r/pp1o1ppp/2p5/8/8/2P5/PP1O1PPP/R3K2R[+] w KQkq - 0 20",
            ),
        ] {
            let want = eval(Variant::Chess, &chess, chess_fen);
            assert_eq!(eval(Variant::Pole, &pole, pole_fen), want, "{pole_fen}");
            seen.push(want);
        }
        // The positions are not all evaluated alike (the test could fail).
        assert!(seen.iter().any(|&e| e != seen[0]), "{seen:?}");
    }
}
