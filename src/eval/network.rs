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

/// A quantised network.
pub struct Network {
    /// `INPUTS * HIDDEN`, input-major.
    pub w1: Vec<i16>,
    pub b1: Vec<i16>,
    /// `BUCKETS * 2 * HIDDEN`.
    pub w2: Vec<i16>,
    pub b2: Vec<i32>,
}

/// The accumulated hidden layer of one side.
#[derive(Clone)]
#[repr(align(64))]
pub struct Accumulator(pub [i16; HIDDEN]);

impl Network {
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
        Ok(Network { w1, b1, w2, b2 })
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
        let sum = dot(&us.0, &w[..HIDDEN]) + dot(&them.0, &w[HIDDEN..]);
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
    for start in (0..HIDDEN).step_by(BLOCK) {
        let mut regs = [0i16; BLOCK];
        regs.copy_from_slice(&prev[start..start + BLOCK]);
        for &i in add {
            let row = &w1[i as usize * HIDDEN + start..i as usize * HIDDEN + start + BLOCK];
            for (x, y) in regs.iter_mut().zip(row) {
                *x = x.wrapping_add(*y);
            }
        }
        for &i in sub {
            let row = &w1[i as usize * HIDDEN + start..i as usize * HIDDEN + start + BLOCK];
            for (x, y) in regs.iter_mut().zip(row) {
                *x = x.wrapping_sub(*y);
            }
        }
        acc[start..start + BLOCK].copy_from_slice(&regs);
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

/// The sum over the neurons of `clamp(a, 0, QA)^2 * w`, computed in blocks whose 32-bit
/// sums cannot overflow.
#[inline(always)]
fn dot(a: &[i16; HIDDEN], w: &[i16]) -> i64 {
    #[cfg(target_arch = "x86_64")]
    if *HAS_AVX2 {
        // SAFETY: the CPU has AVX2 (checked at run time).
        return unsafe { dot_avx2(a, w) };
    }
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
    let mut n = Network {
        w1: vec![0; INPUTS * HIDDEN],
        b1: vec![0; HIDDEN],
        w2: vec![0; BUCKETS * 2 * HIDDEN],
        b2: vec![0; BUCKETS],
    };
    for (i, w) in n.w1.iter_mut().enumerate() {
        *w = ((i * 7919) % 61) as i16 - 30;
    }
    for (i, w) in n.w2.iter_mut().enumerate() {
        *w = ((i * 104_729) % 41) as i16 - 20;
    }
    n.b1.iter_mut().for_each(|b| *b = 40);
    n.b2.iter_mut()
        .enumerate()
        .for_each(|(i, b)| *b = i as i32 * 1000);
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small_net() -> Network {
        let mut n = Network {
            w1: vec![0; INPUTS * HIDDEN],
            b1: vec![0; HIDDEN],
            w2: vec![0; BUCKETS * 2 * HIDDEN],
            b2: vec![0; BUCKETS],
        };
        for (i, w) in n.w1.iter_mut().enumerate() {
            *w = ((i * 7919) % 61) as i16 - 30;
        }
        for (i, w) in n.w2.iter_mut().enumerate() {
            *w = ((i * 104_729) % 41) as i16 - 20;
        }
        n.b1.iter_mut().for_each(|b| *b = 40);
        n.b2.iter_mut()
            .enumerate()
            .for_each(|(i, b)| *b = i as i32 * 1000);
        n
    }

    #[test]
    fn a_network_file_reads_back_as_written() {
        let n = small_net();
        let m = Network::read(&n.write()).unwrap();
        assert_eq!((n.w1, n.b1, n.w2, n.b2), (m.w1, m.b1, m.w2, m.b2));
        assert!(Network::read(b"STRATANX").is_err());
        let mut short = small_net().write();
        short.truncate(short.len() - 3);
        assert!(Network::read(&short).is_err());
    }

    /// The integer output equals the formula computed plainly in floating point.
    #[test]
    #[allow(clippy::needless_range_loop)] // several arrays by one index
    fn the_output_is_the_formula() {
        let n = small_net();
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
