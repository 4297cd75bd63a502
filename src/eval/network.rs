//! The chess evaluation network: a small NNUE-style net (piece-square inputs, one hidden
//! layer per side, a squared clipped ReLU, output by material bucket), trained by
//! `strata train-net` on strata's own self-play games (`src/tuning/net_train.rs`).
//!
//! Layout: each side's 768 inputs (6 kinds x 2 colours x 64 squares, seen from that side:
//! its own pieces first, squares mirrored for Black) feed the same `HIDDEN` neurons (the
//! feature transformer, shared weights); the side to move's activations and the other
//! side's are concatenated and read by one of [`BUCKETS`] output neurons, chosen by the
//! number of pieces on the board. Weights are integers: the transformer's scaled by
//! [`QA`], the output's by [`QB`]; the output is scaled to centipawns by [`SCALE`].
//!
//! The file (`src/eval/nets/chess.net`, read at compile time): the magic `STRATANN`, then
//! little-endian u32 fields (version, inputs, hidden, buckets, QA, QB, SCALE), then i16
//! transformer weights (input-major: each input's `hidden` weights together), i16 biases,
//! i16 output weights (bucket-major: the side to move's `hidden`, then the other side's),
//! and i32 output biases.

use std::sync::LazyLock;

use crate::rules::bitset::Cell;
use crate::rules::chess::BoardChange;
use crate::rules::piece::{Colour, Kind};

/// Inputs per side: 2 colours x 6 kinds x 64 squares.
pub const INPUTS: usize = 768;
/// Hidden neurons per side.
pub const HIDDEN: usize = 256;
/// Output buckets, by the number of pieces on the board.
pub const BUCKETS: usize = 8;
/// The transformer's weight scale (an activation of 1.0 is `QA`).
pub const QA: i32 = 255;
/// The output weights' scale.
pub const QB: i32 = 64;
/// Output units to centipawns.
pub const SCALE: i32 = 400;
/// The file's magic and version.
pub const MAGIC: &[u8; 8] = b"STRATANN";
/// See [`MAGIC`].
pub const VERSION: u32 = 1;

/// The input of a piece of `colour` and `kind` on `sq`, seen from `side`.
#[inline(always)]
pub fn input(side: Colour, colour: Colour, kind: Kind, sq: Cell) -> usize {
    let theirs = (colour != side) as usize;
    let sq = if side == Colour::WHITE { sq } else { sq ^ 56 };
    theirs * 384 + kind as usize * 64 + sq
}

/// The output bucket of a position with `pieces` pieces on the board (Kings included).
#[inline(always)]
pub fn bucket(pieces: usize) -> usize {
    (pieces.saturating_sub(2) / 4).min(BUCKETS - 1)
}

/// A quantised network, built by [`Network::new`] (which notes the output weights' range;
/// the weights are not changed after).
pub struct Network {
    /// `INPUTS * HIDDEN`, input-major.
    pub w1: Vec<i16>,
    /// `HIDDEN` biases of the hidden layer.
    pub b1: Vec<i16>,
    /// `BUCKETS * 2 * HIDDEN`.
    pub w2: Vec<i16>,
    /// `BUCKETS` output biases.
    pub b2: Vec<i32>,
    /// Every output weight within +-[`W2_SHORT`], so that an activation times a weight fits
    /// in 16 bits and the output can take the faster path of [`dot`].
    w2_short: bool,
}

/// The largest output weight whose product with an activation (at most [`QA`]) fits in i16.
const W2_SHORT: i16 = (i16::MAX as i32 / QA) as i16;

/// The accumulated hidden layer of one side.
#[derive(Clone)]
#[repr(align(64))]
pub struct Accumulator(pub [i16; HIDDEN]);

impl Network {
    /// A network of these weights (see the fields for their layout).
    pub fn new(w1: Vec<i16>, b1: Vec<i16>, w2: Vec<i16>, b2: Vec<i32>) -> Network {
        let w2_short = w2.iter().all(|w| w.abs() <= W2_SHORT);
        Network {
            w1,
            b1,
            w2,
            b2,
            w2_short,
        }
    }

    /// Reads a network file (see the module's doc).
    pub fn read(bytes: &[u8]) -> Result<Network, String> {
        if bytes.len() < 36 || &bytes[..8] != MAGIC {
            return Err("not a strata network file".into());
        }
        let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().unwrap());
        let fields = [
            VERSION,
            INPUTS as u32,
            HIDDEN as u32,
            BUCKETS as u32,
            QA as u32,
            QB as u32,
            SCALE as u32,
        ];
        for (i, want) in fields.iter().enumerate() {
            let got = u32_at(8 + 4 * i);
            if got != *want {
                return Err(format!(
                    "header field {i} is {got}, this build reads {want}"
                ));
            }
        }
        let mut at = 36;
        let mut i16s = |n: usize| -> Result<Vec<i16>, String> {
            let end = at + 2 * n;
            let b = bytes.get(at..end).ok_or("the file is too short")?;
            at = end;
            Ok(b.chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect())
        };
        let w1 = i16s(INPUTS * HIDDEN)?;
        let b1 = i16s(HIDDEN)?;
        let w2 = i16s(BUCKETS * 2 * HIDDEN)?;
        let rest = &bytes[at..];
        if rest.len() != 4 * BUCKETS {
            return Err(format!(
                "{} bytes after the output weights, expected {}",
                rest.len(),
                4 * BUCKETS
            ));
        }
        let b2 = rest
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        Ok(Network::new(w1, b1, w2, b2))
    }

    /// The file's bytes.
    pub fn write(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        for v in [
            VERSION,
            INPUTS as u32,
            HIDDEN as u32,
            BUCKETS as u32,
            QA as u32,
            QB as u32,
            SCALE as u32,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for v in self.w1.iter().chain(&self.b1).chain(&self.w2) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for v in &self.b2 {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out
    }

    /// The accumulators of White and Black for the pieces `pieces` (colour, kind, square).
    #[inline(always)]
    pub fn accumulate(
        &self,
        pieces: impl Iterator<Item = (Colour, Kind, Cell)>,
    ) -> [Accumulator; 2] {
        let mut inputs = [[0u16; 32]; 2];
        let mut n = 0;
        for (colour, kind, sq) in pieces.take(32) {
            inputs[0][n] = input(Colour::WHITE, colour, kind, sq) as u16;
            inputs[1][n] = input(Colour::BLACK, colour, kind, sq) as u16;
            n += 1;
        }
        let mut acc = [Accumulator([0; HIDDEN]), Accumulator([0; HIDDEN])];
        for side in 0..2 {
            sum_rows(&mut acc[side].0, &self.b1, &self.w1, &inputs[side][..n]);
        }
        acc
    }

    /// `next` = `prev` with the pieces the move took off the board taken out and those it put
    /// on put in, for both sides.
    #[inline(always)]
    pub fn update(&self, prev: &[Accumulator; 2], next: &mut [Accumulator; 2], c: &BoardChange) {
        for side in 0..2 {
            let s = Colour(side as u8);
            let mut sub = [0u16; 3];
            let mut add = [0u16; 2];
            for (i, &(p, sq)) in c.removed().iter().enumerate() {
                sub[i] = input(s, p.colour(), p.kind(), sq) as u16;
            }
            for (i, &(p, sq)) in c.added().iter().enumerate() {
                add[i] = input(s, p.colour(), p.kind(), sq) as u16;
            }
            update_rows(
                &mut next[side].0,
                &prev[side].0,
                &self.w1,
                &add[..c.added_len],
                &sub[..c.removed_len],
            );
        }
    }

    /// The evaluation in centipawns for the side to move, from its accumulator `us`, the
    /// other side's `them`, and the number of pieces on the board.
    #[inline(always)]
    pub fn output(&self, us: &Accumulator, them: &Accumulator, pieces: usize) -> i32 {
        let b = bucket(pieces);
        let w = &self.w2[b * 2 * HIDDEN..(b + 1) * 2 * HIDDEN];
        let sum =
            dot(&us.0, &w[..HIDDEN], self.w2_short) + dot(&them.0, &w[HIDDEN..], self.w2_short);
        ((sum / QA as i64 + self.b2[b] as i64) * SCALE as i64 / (QA * QB) as i64) as i32
    }
}

/// Lanes summed at once: a block of the accumulator the compiler keeps in registers while
/// every input's weights are added to it.
const BLOCK: usize = 128;

/// `acc = bias + the rows of w1 named by inputs`.
#[inline(always)]
fn sum_rows(acc: &mut [i16; HIDDEN], bias: &[i16], w1: &[i16], inputs: &[u16]) {
    #[cfg(target_arch = "x86_64")]
    if *HAS_AVX2 {
        // SAFETY: the CPU has AVX2 (checked at run time).
        unsafe { sum_rows_avx2(acc, bias, w1, inputs) };
        return;
    }
    sum_rows_plain(acc, bias, w1, inputs);
}

#[inline(always)]
fn sum_rows_plain(acc: &mut [i16; HIDDEN], bias: &[i16], w1: &[i16], inputs: &[u16]) {
    for start in (0..HIDDEN).step_by(BLOCK) {
        let mut regs = [0i16; BLOCK];
        regs.copy_from_slice(&bias[start..start + BLOCK]);
        for &i in inputs {
            let row = &w1[i as usize * HIDDEN + start..i as usize * HIDDEN + start + BLOCK];
            for (x, y) in regs.iter_mut().zip(row) {
                *x = x.wrapping_add(*y);
            }
        }
        acc[start..start + BLOCK].copy_from_slice(&regs);
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn sum_rows_avx2(acc: &mut [i16; HIDDEN], bias: &[i16], w1: &[i16], inputs: &[u16]) {
    sum_rows_plain(acc, bias, w1, inputs);
}

/// `acc = prev + the rows named by add - the rows named by sub`.
#[inline(always)]
fn update_rows(
    acc: &mut [i16; HIDDEN],
    prev: &[i16; HIDDEN],
    w1: &[i16],
    add: &[u16],
    sub: &[u16],
) {
    #[cfg(target_arch = "x86_64")]
    if *HAS_AVX2 {
        // SAFETY: the CPU has AVX2 (checked at run time).
        unsafe { update_rows_avx2(acc, prev, w1, add, sub) };
        return;
    }
    update_rows_plain(acc, prev, w1, add, sub);
}

#[inline(always)]
fn update_rows_plain(
    acc: &mut [i16; HIDDEN],
    prev: &[i16; HIDDEN],
    w1: &[i16],
    add: &[u16],
    sub: &[u16],
) {
    let row =
        |i: &u16| -> &[i16; HIDDEN] { w1[*i as usize * HIDDEN..][..HIDDEN].try_into().unwrap() };
    // A move's usual changes (a move or promotion; a capture or en passant; castling) with
    // their counts known, so that each lane's sum stays in a register.
    match (add, sub) {
        ([a], [s]) => update_fixed(acc, prev, [row(a)], [row(s)]),
        ([a], [s, t]) => update_fixed(acc, prev, [row(a)], [row(s), row(t)]),
        ([a, b], [s, t]) => update_fixed(acc, prev, [row(a), row(b)], [row(s), row(t)]),
        _ => {
            acc.copy_from_slice(prev);
            for r in add.iter().map(row) {
                acc.iter_mut()
                    .zip(r)
                    .for_each(|(x, y)| *x = x.wrapping_add(*y));
            }
            for r in sub.iter().map(row) {
                acc.iter_mut()
                    .zip(r)
                    .for_each(|(x, y)| *x = x.wrapping_sub(*y));
            }
        }
    }
}

/// `acc = prev + the rows add - the rows sub`, lane by lane.
#[inline(always)]
fn update_fixed<const A: usize, const S: usize>(
    acc: &mut [i16; HIDDEN],
    prev: &[i16; HIDDEN],
    add: [&[i16; HIDDEN]; A],
    sub: [&[i16; HIDDEN]; S],
) {
    for i in 0..HIDDEN {
        let mut v = prev[i];
        for r in &add {
            v = v.wrapping_add(r[i]);
        }
        for r in &sub {
            v = v.wrapping_sub(r[i]);
        }
        acc[i] = v;
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn update_rows_avx2(
    acc: &mut [i16; HIDDEN],
    prev: &[i16; HIDDEN],
    w1: &[i16],
    add: &[u16],
    sub: &[u16],
) {
    update_rows_plain(acc, prev, w1, add, sub);
}

/// The sum over the neurons of `clamp(a, 0, QA)^2 * w`, computed in blocks of 64 whose 32-bit
/// sums cannot overflow while the weights are within +-512 (training keeps them within
/// +-127). `short`: every weight is within +-[`W2_SHORT`].
#[inline(always)]
fn dot(a: &[i16; HIDDEN], w: &[i16], short: bool) -> i64 {
    #[cfg(target_arch = "x86_64")]
    if *HAS_AVX2 {
        // SAFETY: the CPU has AVX2 (checked at run time).
        return unsafe {
            if short {
                dot_avx2_short(a, w)
            } else {
                dot_avx2(a, w)
            }
        };
    }
    let _ = short;
    dot_plain(a, w)
}

#[inline(always)]
fn dot_plain(a: &[i16; HIDDEN], w: &[i16]) -> i64 {
    let mut total = 0i64;
    for (ab, wb) in a.chunks_exact(64).zip(w.chunks_exact(64)) {
        let mut s = 0i32;
        for (&x, &y) in ab.iter().zip(wb) {
            let c = x.clamp(0, QA as i16) as i32;
            s += (c * y as i32) * c;
        }
        total += s as i64;
    }
    total
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn dot_avx2(a: &[i16; HIDDEN], w: &[i16]) -> i64 {
    dot_plain(a, w)
}

/// [`dot`] with 16-bit products: `clamp(a) * w` in i16 (exact, as `|w| <= W2_SHORT`), then
/// times `clamp(a)` and summed in pairs into i32 lanes (`vpmaddwd`), instead of widening every
/// lane to 32 bits before both multiplications. A lane gathers `HIDDEN / 8` products of at
/// most `QA * i16::MAX`, which the assertion below keeps within i32.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn dot_avx2_short(a: &[i16; HIDDEN], w: &[i16]) -> i64 {
    use std::arch::x86_64::*;
    const _: () = assert!((HIDDEN / 8) as i64 * QA as i64 * i16::MAX as i64 <= i32::MAX as i64);
    let w = &w[..HIDDEN];
    let zero = _mm256_setzero_si256();
    let qa = _mm256_set1_epi16(QA as i16);
    let mut sum = _mm256_setzero_si256();
    for i in (0..HIDDEN).step_by(16) {
        // SAFETY: `i + 16 <= HIDDEN`, the length of both; unaligned loads.
        let (x, y) = unsafe {
            (
                _mm256_loadu_si256(a.as_ptr().add(i).cast()),
                _mm256_loadu_si256(w.as_ptr().add(i).cast()),
            )
        };
        let c = _mm256_min_epi16(_mm256_max_epi16(x, zero), qa);
        sum = _mm256_add_epi32(sum, _mm256_madd_epi16(_mm256_mullo_epi16(c, y), c));
    }
    let s = _mm_add_epi32(
        _mm256_castsi256_si128(sum),
        _mm256_extracti128_si256(sum, 1),
    );
    let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b01_00_11_10));
    let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b10_11_00_01));
    _mm_cvtsi128_si32(s) as i64
}

#[cfg(target_arch = "x86_64")]
static HAS_AVX2: LazyLock<bool> = LazyLock::new(|| std::arch::is_x86_feature_detected!("avx2"));

/// What a search thread's evaluation keeps from one call to the next: the network's
/// accumulators of the positions along the line being searched, by their number of moves
/// since the search's game began (the position's history length), each with its position's
/// key. Moving one ply deeper updates the parent's accumulators by the move's few changed
/// inputs instead of summing every piece's again.
#[derive(Default)]
pub struct EvalCache {
    entries: Vec<CacheEntry>,
}

#[derive(Clone)]
struct CacheEntry {
    key: u64,
    acc: [Accumulator; 2],
}

/// How many plies back the cache looks for accumulators to update from.
const CACHE_REACH: usize = 128;

impl EvalCache {
    /// The accumulators of the position whose history has `len` moves, given each position's
    /// key along the line (`key_at(i)`, `i <= len`), what each move changed
    /// (`change(i, removed, added)`, move `i` leading from position `i` to `i + 1`), and how
    /// to build them from nothing.
    #[inline(always)]
    pub fn accumulators(
        &mut self,
        net: &Network,
        len: usize,
        key_at: impl Fn(usize) -> u64,
        change: impl Fn(usize) -> BoardChange,
        scratch: impl FnOnce() -> [Accumulator; 2],
    ) -> &[Accumulator; 2] {
        if self.entries.len() <= len {
            self.entries.resize(
                len + 1,
                CacheEntry {
                    key: 0,
                    acc: [Accumulator([0; HIDDEN]), Accumulator([0; HIDDEN])],
                },
            );
        }
        let key = key_at(len);
        if self.entries[len].key == key {
            return &self.entries[len].acc;
        }
        let base = (len.saturating_sub(CACHE_REACH)..len)
            .rev()
            .find(|&j| self.entries[j].key == key_at(j) && self.entries[j].key != 0);
        match base {
            Some(j) => {
                for i in j..len {
                    let c = change(i);
                    let (head, tail) = self.entries.split_at_mut(i + 1);
                    net.update(&head[i].acc, &mut tail[0].acc, &c);
                    tail[0].key = key_at(i + 1);
                }
            }
            None => {
                self.entries[len] = CacheEntry {
                    key,
                    acc: scratch(),
                };
            }
        }
        &self.entries[len].acc
    }
}

/// The network chess plays with, if this build has one (`src/eval/nets/chess.net`).
pub static CHESS: LazyLock<Option<Network>> = LazyLock::new(|| {
    let bytes: &[u8] = include_bytes!("nets/chess.net");
    if bytes.is_empty() {
        return None;
    }
    Some(Network::read(bytes).expect("src/eval/nets/chess.net is a valid network"))
});

/// A network of arbitrary small weights, for tests that need one whatever the build holds.
#[cfg(test)]
pub fn test_network() -> Network {
    let w1 = (0..INPUTS * HIDDEN)
        .map(|i| ((i * 7919) % 61) as i16 - 30)
        .collect();
    let w2 = (0..BUCKETS * 2 * HIDDEN)
        .map(|i| ((i * 104_729) % 41) as i16 - 20)
        .collect();
    let b2 = (0..BUCKETS as i32).map(|i| i * 1000).collect();
    Network::new(w1, vec![40; HIDDEN], w2, b2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_network_file_reads_back_as_written() {
        let n = test_network();
        let m = Network::read(&n.write()).unwrap();
        assert_eq!((n.w1, n.b1, n.w2, n.b2), (m.w1, m.b1, m.w2, m.b2));
        assert!(Network::read(b"STRATANX").is_err());
        let mut short = test_network().write();
        short.truncate(short.len() - 3);
        assert!(Network::read(&short).is_err());
    }

    /// The integer output equals the formula computed plainly in floating point.
    #[test]
    #[allow(clippy::needless_range_loop)] // several arrays by one index
    fn the_output_is_the_formula() {
        let n = test_network();
        let pieces = [
            (Colour::WHITE, 5, 4usize),
            (Colour::BLACK, 5, 60),
            (Colour::WHITE, 0, 12),
            (Colour::BLACK, 4, 35),
        ];
        let acc = n.accumulate(pieces.iter().copied());
        let mut want = [[0i64; HIDDEN]; 2];
        for (side, w) in want.iter_mut().enumerate() {
            for (h, v) in w.iter_mut().enumerate() {
                *v = n.b1[h] as i64
                    + pieces
                        .iter()
                        .map(|&(c, k, s)| {
                            n.w1[input(Colour(side as u8), c, k, s) * HIDDEN + h] as i64
                        })
                        .sum::<i64>();
                assert_eq!(acc[side].0[h] as i64, *v);
            }
        }
        let b = bucket(pieces.len());
        let mut sum = 0f64;
        for h in 0..HIDDEN {
            for (j, side) in [0usize, 1].iter().enumerate() {
                let c = want[*side][h].clamp(0, QA as i64) as f64;
                sum += c * c * n.w2[b * 2 * HIDDEN + j * HIDDEN + h] as f64;
            }
        }
        let expect = ((sum / QA as f64).trunc() + n.b2[b] as f64) * SCALE as f64 / (QA * QB) as f64;
        let got = n.output(&acc[0], &acc[1], pieces.len());
        assert!(
            (got as f64 - expect.trunc()).abs() <= 1.0,
            "{got} vs {expect}"
        );
    }

    #[test]
    fn every_output_path_sums_the_same() {
        // Activations below 0, within 0..=QA and above it; weights at both ends of the
        // short range, and beyond it for the general path.
        let mut a = [0i16; HIDDEN];
        for (i, x) in a.iter_mut().enumerate() {
            *x = ((i * 7919) % 700) as i16 - 200;
        }
        a[..4].copy_from_slice(&[QA as i16, i16::MAX, i16::MIN, QA as i16 + 1]);
        let short: Vec<i16> = (0..HIDDEN)
            .map(|i| match i % 3 {
                0 => W2_SHORT,
                1 => -W2_SHORT,
                _ => ((i * 31) % 255) as i16 - 127,
            })
            .collect();
        let long: Vec<i16> = (0..HIDDEN)
            .map(|i| ((i * 104_729) % 1001) as i16 - 500)
            .collect();
        assert_eq!(dot(&a, &short, true), dot_plain(&a, &short));
        assert_eq!(dot(&a, &long, false), dot_plain(&a, &long));
        let full = [QA as i16; HIDDEN];
        for w in [W2_SHORT, -W2_SHORT] {
            let w = vec![w; HIDDEN];
            let want = HIDDEN as i64 * (QA * QA) as i64 * w[0] as i64;
            assert_eq!((dot(&full, &w, true), dot_plain(&full, &w)), (want, want));
        }
        assert!(test_network().w2_short);
        let mut w2 = test_network().w2;
        w2[5] = W2_SHORT + 1;
        assert!(!Network::new(vec![], vec![], w2, vec![]).w2_short);
    }

    #[test]
    fn inputs_mirror_for_black() {
        // A White pawn on e2 seen by White is a Black pawn on e7 seen by Black.
        assert_eq!(
            input(Colour::WHITE, Colour::WHITE, 0, 12),
            input(Colour::BLACK, Colour::BLACK, 0, 52)
        );
        assert_eq!(
            input(Colour::WHITE, Colour::BLACK, 5, 63),
            384 + 5 * 64 + 63
        );
        assert_eq!(bucket(32), 7);
        assert_eq!(bucket(2), 0);
    }
}
