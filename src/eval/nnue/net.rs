//! A quantised network and its file: the weights, the arithmetic of one evaluation, and the
//! check that a file was trained for the variant it is loaded for.
//!
//! Layout: each perspective's inputs ([`Spec`]) feed the same `hidden` neurons (the feature
//! transformer, shared weights); the activations of the colour to move and of the colour
//! after it are concatenated, squared after clipping to 0..=1 (SCReLU) and read by one of
//! `buckets` output neurons, chosen by the number of pieces on the board. Weights are
//! integers: the transformer's scaled by [`QA`], the output's by [`QB`]; [`SCALE`] turns the
//! output into centipawns.
//!
//! A network may also have a linear path ([`Net::psqt`]): a value per input, summed for each
//! perspective beside its accumulator, half the difference of the two perspectives' sums
//! added straight to the output (as Stockfish's networks add their PSQT values), so that
//! what a piece is worth on a cell does not have to pass through neurons clipped to 0..1.
//!
//! A network may also be blended with the variant's hand-written terms ([`Net::terms_share`]):
//! the search then plays the network's score and the terms' score mixed in the share the file
//! states, which is how a network learnt from few games is kept from deciding alone where its
//! judgement is noisy (docs/results.md, Polyhedron).
//!
//! The file: the magic `STRATANN`, then little-endian fields: u32 version (2, or 3 with a
//! linear path, or 4 with a share of the terms), u16 length and the UTF-8 name of the variant,
//! u64 [`Spec::fingerprint`], u32 inputs, hidden, buckets, QA, QB, SCALE, in version 4 two
//! more u32, 1 with a linear path (else 0) and the terms' share in percent (1 to
//! [`MAX_TERMS_SHARE`]), in version 5 the same and then a u16 length and the name of the
//! terms the share blends with ([`Spec::blend`]; version 4 blends with all of them,
//! [`BLEND_ALL`]); in version 6 (a network with king buckets, [`Kings`]) the version 5
//! fields always (the share may be 0), then a u8 1 if the board is mirrored by the royal
//! piece's file (else 0), a u16 number of king buckets and a byte per cell, the bucket of a
//! royal piece there; then the i16 transformer weights
//! (input-major: each input's `hidden` weights together), `hidden` i16 biases, the i16
//! output weights (bucket-major: the side to move's `hidden`, then the other's), `buckets`
//! i32 output biases, and with a linear path `inputs` i32 linear values (at the output's
//! scale, `QA * QB`, each within +-[`MAX_PSQT`]). A network without a share of the terms is
//! written as version 2 or 3, so that such files stay as they were.

use super::spec::{Kings, MAX_KING_BUCKETS, Spec};

/// The transformer's weight scale (an activation of 1.0 is `QA`).
pub const QA: i32 = 255;
/// The output weights' scale.
pub const QB: i32 = 64;
/// Output units to centipawns.
pub const SCALE: i32 = 400;
/// The file's magic ...
pub const MAGIC: &[u8; 8] = b"STRATANN";
/// ... and version: 2 without a linear path ([`Net::psqt`]), 3 with one.
pub const VERSION: u32 = 2;
/// The version of a file whose network has a linear path.
pub const VERSION_LINEAR: u32 = 3;
/// The version of a file whose network is blended with the terms ([`Net::terms_share`]).
pub const VERSION_BLEND: u32 = 4;
/// The version of a file whose network is blended with terms other than all of them: a
/// version 4 file and the name of the terms ([`Spec::blend`]).
pub const VERSION_BLEND_NAMED: u32 = 5;
/// The version of a file whose network has king buckets ([`Kings`]).
pub const VERSION_KINGS: u32 = 6;
/// The name of all of a variant's terms, which a version 4 file blends with
/// ([`crate::eval::Evaluate::blend_terms_name`]).
pub const BLEND_ALL: &str = "all";
/// The longest name of a set of terms a file may hold.
pub const MAX_BLEND_NAME: usize = 32;
/// The largest share of the terms, percent: at 100 the network would not count at all.
pub const MAX_TERMS_SHARE: u32 = 99;
/// The largest linear value (either sign) a file may hold, at the output's scale: 50 output
/// units, 20 000 centipawns. The sums over a perspective's inputs stay far within i32.
pub const MAX_PSQT: i32 = 50 * QA * QB;
/// The largest output weight (either sign) a file may hold: the output's 32-bit sums of 64
/// products stay exact below it (training keeps the weights within +-127).
pub const MAX_W2: i16 = 512;
/// The largest hidden layer a file may have.
pub const MAX_HIDDEN: usize = 2048;
/// The most output buckets a file may have.
pub const MAX_BUCKETS: usize = 64;
/// The largest evaluation a network gives, in centipawns, either way: far beyond any won
/// position's score, and far below the mate scores, which a damaged or hostile file's
/// weights could otherwise reach.
pub const MAX_OUTPUT: i32 = 20_000;
/// The largest network file read, in bytes (a 300-cell variant of 16 kinds and four colours
/// with 1024 neurons is about 80 MB); a variant file's `net` has the same bound.
pub const MAX_FILE: usize = crate::rules::defined::limits::MAX_NET_BYTES;

/// A quantised network for one variant.
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    /// The inputs it reads: the variant it was trained for, by name and fingerprint.
    pub spec: Spec,
    /// Hidden neurons per perspective, a multiple of 16.
    pub hidden: usize,
    /// Output buckets.
    pub buckets: usize,
    /// `inputs * hidden`, input-major.
    pub w1: Vec<i16>,
    /// `hidden` biases of the hidden layer.
    pub b1: Vec<i16>,
    /// `buckets * 2 * hidden`.
    pub w2: Vec<i16>,
    /// `buckets` output biases.
    pub b2: Vec<i32>,
    /// The linear path: a value per input at the output's scale (`QA * QB`), or nothing
    /// (version 2 files).
    pub psqt: Vec<i32>,
    /// The share of the variant's hand-written terms in the evaluation the search plays,
    /// percent (0: the network alone): `(net * (100 - share) + terms * share) / 100`
    /// ([`crate::eval::Evaluate::evaluate`]).
    pub terms_share: u32,
    /// Every output weight within +-[`W2_SHORT`] (the faster path of [`dot`]).
    w2_short: bool,
    /// The output bucket by the number of pieces on the board ([`Spec::bucket`]).
    bucket_of: Vec<u8>,
}

/// The largest output weight whose product with an activation (at most [`QA`]) fits in i16.
const W2_SHORT: i16 = (i16::MAX as i32 / QA) as i16;

impl Net {
    /// A network of these weights for `spec`: `w1` is `spec.inputs() * hidden` long, `b1`
    /// `hidden`, `w2` `buckets * 2 * hidden`, `b2` `buckets`.
    pub fn new(
        spec: &Spec,
        hidden: usize,
        w1: Vec<i16>,
        b1: Vec<i16>,
        w2: Vec<i16>,
        b2: Vec<i32>,
    ) -> Net {
        let buckets = b2.len();
        assert!(hidden.is_multiple_of(16) && hidden > 0 && hidden <= MAX_HIDDEN);
        assert_eq!(w1.len(), spec.inputs() * hidden);
        assert_eq!((b1.len(), w2.len()), (hidden, buckets * 2 * hidden));
        let w2_short = w2.iter().all(|w| w.unsigned_abs() <= W2_SHORT as u16);
        let bucket_of = (0..=spec.cells)
            .map(|n| spec.bucket(n, buckets) as u8)
            .collect();
        Net {
            spec: spec.clone(),
            hidden,
            buckets,
            w1,
            b1,
            w2,
            b2,
            psqt: Vec::new(),
            terms_share: 0,
            w2_short,
            bucket_of,
        }
    }

    /// The same network with the linear path `psqt` (a value per input, each within
    /// +-[`MAX_PSQT`]; empty for none).
    pub fn with_psqt(mut self, psqt: Vec<i32>) -> Net {
        assert!(psqt.is_empty() || psqt.len() == self.spec.inputs());
        assert!(psqt.iter().all(|v| v.abs() <= MAX_PSQT));
        self.psqt = psqt;
        self
    }

    /// The same network blended with the terms at `share` percent (0 to
    /// [`MAX_TERMS_SHARE`]).
    pub fn with_terms_share(mut self, share: u32) -> Net {
        assert!(share <= MAX_TERMS_SHARE);
        self.terms_share = share;
        self
    }

    /// `net`, the network's evaluation, blended with the terms' (`terms` is called only
    /// where the network has a share of the terms).
    #[inline(always)]
    pub fn blend(&self, net: i32, terms: impl FnOnce() -> i32) -> i32 {
        match self.terms_share {
            0 => net,
            share => blend(net, terms(), share),
        }
    }

    /// The name of the variant a network file was trained for, read from its header.
    pub fn variant_of(bytes: &[u8]) -> Result<String, String> {
        let mut r = Reader { bytes, at: 0 };
        if r.take(8)? != MAGIC {
            return Err("not a strata network file".into());
        }
        let version = r.u32()?;
        if !(VERSION..=VERSION_KINGS).contains(&version) {
            return Err(format!(
                "network file version {version}; this build reads versions {VERSION} to \
                 {VERSION_KINGS}"
            ));
        }
        let len = r.u16()? as usize;
        String::from_utf8(r.take(len)?.to_vec())
            .map_err(|_| "the variant's name is not UTF-8".to_string())
    }

    /// Reads a network file for `spec`'s variant: a file for another variant, or for another
    /// board of the same name, is refused with the reason.
    pub fn read(bytes: &[u8], spec: &Spec) -> Result<Net, String> {
        let variant = Net::variant_of(bytes)?;
        let mut r = Reader {
            bytes,
            at: 8 + 4 + 2 + variant.len(),
        };
        let version = &bytes[8..12];
        let mut linear = version == VERSION_LINEAR.to_le_bytes();
        let kings = version == VERSION_KINGS.to_le_bytes();
        let named = kings || version == VERSION_BLEND_NAMED.to_le_bytes();
        let blended = named || version == VERSION_BLEND.to_le_bytes();
        let fingerprint = r.u64()?;
        if variant != spec.variant {
            return Err(format!(
                "the network is for the variant '{}', not '{}'",
                crate::text::echo(&variant, 64),
                spec.variant
            ));
        }
        if fingerprint != spec.fingerprint {
            return Err(format!(
                "the network is for another board or set of pieces than this '{}' \
                 (fingerprint {fingerprint:016x}, this variant's is {:016x})",
                spec.variant, spec.fingerprint
            ));
        }
        let [inputs, hidden, buckets, qa, qb, scale] = [(); 6].map(|_| r.u32().map(|v| v as usize));
        let (inputs, hidden, buckets) = (inputs?, hidden?, buckets?);
        if hidden == 0 || !hidden.is_multiple_of(16) || hidden > MAX_HIDDEN {
            return Err(format!(
                "{hidden} hidden neurons (a multiple of 16 up to {MAX_HIDDEN})"
            ));
        }
        if buckets == 0 || buckets > MAX_BUCKETS {
            return Err(format!("{buckets} output buckets (1 to {MAX_BUCKETS})"));
        }
        if [qa?, qb?, scale?] != [QA as usize, QB as usize, SCALE as usize] {
            return Err(format!(
                "quantisation other than QA {QA}, QB {QB}, SCALE {SCALE}"
            ));
        }
        let mut terms_share = 0;
        if blended {
            linear = match r.u32()? {
                0 => false,
                1 => true,
                v => return Err(format!("a linear-path flag of {v} (0 or 1)")),
            };
            terms_share = r.u32()?;
            if !(!kings as u32..=MAX_TERMS_SHARE).contains(&terms_share) {
                return Err(format!(
                    "a share of the terms of {terms_share} % ({} to {MAX_TERMS_SHARE})",
                    !kings as u32
                ));
            }
            let blend = if named {
                let len = r.u16()? as usize;
                if len > MAX_BLEND_NAME {
                    return Err(format!(
                        "a name of the terms of {len} bytes (at most {MAX_BLEND_NAME})"
                    ));
                }
                String::from_utf8_lossy(r.take(len)?).into_owned()
            } else {
                BLEND_ALL.to_string()
            };
            if blend != spec.blend {
                return Err(format!(
                    "the file blends the network with the terms '{}' (a version 4 file with \
                     all of them), and this build's '{}' blends a network with the terms '{}': \
                     train it again with this build",
                    crate::text::echo(&blend, MAX_BLEND_NAME),
                    spec.variant,
                    spec.blend
                ));
            }
        }
        let spec = if kings {
            let mirror = match r.take(1)?[0] {
                0 => false,
                1 => true,
                v => return Err(format!("a king mirror flag of {v} (0 or 1)")),
            };
            let n = r.u16()? as usize;
            if !(1..=MAX_KING_BUCKETS).contains(&n) {
                return Err(format!("{n} king buckets (1 to {MAX_KING_BUCKETS})"));
            }
            let bucket_of = r.take(spec.cells)?.to_vec();
            spec.clone().with_kings(Kings {
                buckets: n,
                mirror,
                bucket_of,
            })?
        } else {
            spec.clone()
        };
        if inputs != spec.inputs() {
            return Err(format!(
                "{inputs} inputs; this variant has {}{}",
                spec.inputs(),
                if kings {
                    " with these king buckets"
                } else {
                    ""
                }
            ));
        }
        let expect = 2 * (inputs * hidden + hidden + buckets * 2 * hidden)
            + 4 * buckets
            + if linear { 4 * inputs } else { 0 };
        if r.bytes.len() - r.at != expect {
            return Err(format!(
                "{} bytes of weights, expected {expect}",
                r.bytes.len() - r.at
            ));
        }
        let w1 = r.i16s(inputs * hidden)?;
        let b1 = r.i16s(hidden)?;
        let w2 = r.i16s(buckets * 2 * hidden)?;
        if let Some(w) = w2.iter().find(|w| w.unsigned_abs() > MAX_W2 as u16) {
            return Err(format!(
                "an output weight of {w}, beyond +-{MAX_W2} (the output's sums would overflow)"
            ));
        }
        let b2 = (0..buckets)
            .map(|_| r.u32().map(|v| v as i32))
            .collect::<Result<_, _>>()?;
        let psqt: Vec<i32> = (0..inputs * linear as usize)
            .map(|_| r.u32().map(|v| v as i32))
            .collect::<Result<_, _>>()?;
        if let Some(v) = psqt.iter().find(|v| v.abs() > MAX_PSQT) {
            return Err(format!("a linear value of {v}, beyond +-{MAX_PSQT}"));
        }
        Ok(Net::new(&spec, hidden, w1, b1, w2, b2)
            .with_psqt(psqt)
            .with_terms_share(terms_share))
    }

    /// The file's bytes.
    pub fn write(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        let named = self.spec.blend != BLEND_ALL;
        let kings = !self.spec.kings.is_plain();
        let version = match (self.terms_share, self.psqt.is_empty()) {
            _ if kings => VERSION_KINGS,
            (1.., _) if named => VERSION_BLEND_NAMED,
            (1.., _) => VERSION_BLEND,
            (0, true) => VERSION,
            (0, false) => VERSION_LINEAR,
        };
        out.extend_from_slice(&version.to_le_bytes());
        out.extend_from_slice(&(self.spec.variant.len() as u16).to_le_bytes());
        out.extend_from_slice(self.spec.variant.as_bytes());
        out.extend_from_slice(&self.spec.fingerprint.to_le_bytes());
        for v in [self.spec.inputs(), self.hidden, self.buckets] {
            out.extend_from_slice(&(v as u32).to_le_bytes());
        }
        for v in [QA, QB, SCALE] {
            out.extend_from_slice(&(v as u32).to_le_bytes());
        }
        if self.terms_share > 0 || kings {
            for v in [!self.psqt.is_empty() as u32, self.terms_share] {
                out.extend_from_slice(&v.to_le_bytes());
            }
            if named || kings {
                out.extend_from_slice(&(self.spec.blend.len() as u16).to_le_bytes());
                out.extend_from_slice(self.spec.blend.as_bytes());
            }
        }
        if kings {
            let k = &self.spec.kings;
            out.push(k.mirror as u8);
            out.extend_from_slice(&(k.buckets as u16).to_le_bytes());
            out.extend_from_slice(&k.bucket_of);
        }
        for v in self.w1.iter().chain(&self.b1).chain(&self.w2) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for v in self.b2.iter().chain(&self.psqt) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out
    }

    /// The sum of the linear values of `inputs` (0 without a linear path).
    #[inline]
    pub fn psqt_sum(&self, inputs: &[usize]) -> i32 {
        self.psqt_apply(0, inputs, &[])
    }

    /// `prev` plus the linear values of `add` minus those of `sub`.
    #[inline(always)]
    pub fn psqt_apply(&self, prev: i32, add: &[usize], sub: &[usize]) -> i32 {
        if self.psqt.is_empty() {
            return 0;
        }
        prev + add.iter().map(|&i| self.psqt[i]).sum::<i32>()
            - sub.iter().map(|&i| self.psqt[i]).sum::<i32>()
    }

    /// `acc` (one perspective's `hidden` values) = the biases plus the rows of `inputs`.
    #[inline]
    pub fn refresh(&self, acc: &mut [i16], inputs: &[usize]) {
        blocked(acc, &self.b1, &self.w1, self.hidden, inputs, &[]);
    }

    /// `acc` = `prev` + the rows of `add` - the rows of `sub`, in one pass over the
    /// accumulator for a move's usual changes.
    #[inline]
    pub fn apply(&self, acc: &mut [i16], prev: &[i16], add: &[usize], sub: &[usize]) {
        let r = |i: &usize| self.row(*i);
        match (add, sub) {
            ([a], [s]) => fused(acc, prev, [r(a)], [r(s)]),
            ([a], [s, t]) => fused(acc, prev, [r(a)], [r(s), r(t)]),
            ([a, b], [s, t]) => fused(acc, prev, [r(a), r(b)], [r(s), r(t)]),
            ([a], []) => fused(acc, prev, [r(a)], []),
            ([], [s]) => fused(acc, prev, [], [r(s)]),
            _ => blocked(acc, prev, &self.w1, self.hidden, add, sub),
        }
    }

    /// The output bucket of a position with `pieces` pieces on the board.
    #[inline(always)]
    pub fn bucket(&self, pieces: usize) -> usize {
        self.bucket_of[pieces.min(self.bucket_of.len() - 1)] as usize
    }

    /// The colour whose accumulator is read beside that of `us`, the colour to move: the one
    /// after it in turn order.
    #[inline(always)]
    pub fn next_colour(&self, us: usize) -> usize {
        (us + 1) & (self.spec.colours - 1)
    }

    /// Input `i`'s transformer weights.
    #[inline(always)]
    fn row(&self, i: usize) -> &[i16] {
        &self.w1[i * self.hidden..(i + 1) * self.hidden]
    }

    /// The evaluation in centipawns for the colour to move, from its accumulator `us`, that
    /// of the colour after it, `them`, the output bucket, and the two perspectives' linear
    /// sums ([`Net::psqt_sum`]; 0 and 0 without a linear path).
    #[inline]
    pub fn output(&self, us: &[i16], them: &[i16], bucket: usize, psqt: [i32; 2]) -> i32 {
        let h = self.hidden;
        let w = &self.w2[bucket * 2 * h..(bucket + 1) * 2 * h];
        let sum = dot(us, &w[..h], self.w2_short) + dot(them, &w[h..], self.w2_short);
        let linear = (psqt[0] as i64 - psqt[1] as i64) / 2;
        let v =
            (sum / QA as i64 + self.b2[bucket] as i64 + linear) * SCALE as i64 / (QA * QB) as i64;
        v.clamp(-MAX_OUTPUT as i64, MAX_OUTPUT as i64) as i32
    }

    /// The bytes its weights take in memory.
    pub fn heap_bytes(&self) -> usize {
        2 * (self.w1.len() + self.b1.len() + self.w2.len()) + 4 * (self.b2.len() + self.psqt.len())
    }
}

/// The network's evaluation `net` and the terms' `terms` mixed, the terms at `share`
/// percent ([`Net::terms_share`]).
#[inline(always)]
pub fn blend(net: i32, terms: i32, share: u32) -> i32 {
    let share = share.min(100) as i64;
    ((net as i64 * (100 - share) + terms as i64 * share) / 100) as i32
}

/// Reads little-endian fields, each refused past the end.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let b = self.bytes.get(self.at..self.at + n).ok_or_else(|| {
            format!(
                "the file ends at byte {} within its header",
                self.bytes.len()
            )
        })?;
        self.at += n;
        Ok(b)
    }
    fn u16(&mut self) -> Result<u16, String> {
        Ok(u16::from_le_bytes(self.take(2)?.try_into().unwrap()))
    }
    fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().unwrap()))
    }
    fn u64(&mut self) -> Result<u64, String> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().unwrap()))
    }
    fn i16s(&mut self, n: usize) -> Result<Vec<i16>, String> {
        Ok(self
            .take(2 * n)?
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect())
    }
}

/// `acc = prev + the rows add - the rows sub`, lane by lane, in one pass.
#[inline(always)]
fn fused<const A: usize, const S: usize>(
    acc: &mut [i16],
    prev: &[i16],
    add: [&[i16]; A],
    sub: [&[i16]; S],
) {
    #[cfg(target_arch = "x86_64")]
    if *HAS_AVX2 {
        // SAFETY: the CPU has AVX2 (checked at run time).
        unsafe { fused_avx2(acc, prev, add, sub) };
        return;
    }
    fused_plain(acc, prev, add, sub);
}

#[inline(always)]
fn fused_plain<const A: usize, const S: usize>(
    acc: &mut [i16],
    prev: &[i16],
    add: [&[i16]; A],
    sub: [&[i16]; S],
) {
    let n = acc.len();
    let prev = &prev[..n];
    let add = add.map(|r| &r[..n]);
    let sub = sub.map(|r| &r[..n]);
    for i in 0..n {
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
fn fused_avx2<const A: usize, const S: usize>(
    acc: &mut [i16],
    prev: &[i16],
    add: [&[i16]; A],
    sub: [&[i16]; S],
) {
    fused_plain(acc, prev, add, sub);
}

/// Lanes summed at once by [`blocked`]: a block of the accumulator the compiler keeps in
/// registers while every row's part is added to it.
const BLOCK: usize = 64;

/// `acc = prev + the rows add - the rows sub` of `w1` (rows of `hidden`), block by block, so
/// that the accumulator is read and written once whatever the number of rows.
#[inline(always)]
fn blocked(acc: &mut [i16], prev: &[i16], w1: &[i16], hidden: usize, add: &[usize], sub: &[usize]) {
    #[cfg(target_arch = "x86_64")]
    if *HAS_AVX2 {
        // SAFETY: the CPU has AVX2 (checked at run time).
        unsafe { blocked_avx2(acc, prev, w1, hidden, add, sub) };
        return;
    }
    blocked_plain(acc, prev, w1, hidden, add, sub);
}

#[inline(always)]
fn blocked_plain(
    acc: &mut [i16],
    prev: &[i16],
    w1: &[i16],
    hidden: usize,
    add: &[usize],
    sub: &[usize],
) {
    // `hidden` is a multiple of 16; a last block shorter than BLOCK is summed lane by lane.
    let mut start = 0;
    while start + BLOCK <= hidden {
        let mut regs = [0i16; BLOCK];
        regs.copy_from_slice(&prev[start..start + BLOCK]);
        for &i in add {
            let row: &[i16; BLOCK] = w1[i * hidden + start..][..BLOCK].try_into().unwrap();
            for (x, y) in regs.iter_mut().zip(row) {
                *x = x.wrapping_add(*y);
            }
        }
        for &i in sub {
            let row: &[i16; BLOCK] = w1[i * hidden + start..][..BLOCK].try_into().unwrap();
            for (x, y) in regs.iter_mut().zip(row) {
                *x = x.wrapping_sub(*y);
            }
        }
        acc[start..start + BLOCK].copy_from_slice(&regs);
        start += BLOCK;
    }
    for lane in start..hidden {
        let mut v = prev[lane];
        for &i in add {
            v = v.wrapping_add(w1[i * hidden + lane]);
        }
        for &i in sub {
            v = v.wrapping_sub(w1[i * hidden + lane]);
        }
        acc[lane] = v;
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn blocked_avx2(
    acc: &mut [i16],
    prev: &[i16],
    w1: &[i16],
    hidden: usize,
    add: &[usize],
    sub: &[usize],
) {
    blocked_plain(acc, prev, w1, hidden, add, sub);
}

/// The sum over the neurons of `clamp(a, 0, QA)^2 * w`, in blocks of 64 whose 32-bit sums
/// cannot overflow while the weights are within +-512 (training keeps them within +-127).
/// `short`: every weight is within +-[`W2_SHORT`].
#[inline(always)]
pub(super) fn dot(a: &[i16], w: &[i16], short: bool) -> i64 {
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
pub(super) fn dot_plain(a: &[i16], w: &[i16]) -> i64 {
    let mut total = 0i64;
    for (ab, wb) in a.chunks(64).zip(w.chunks(64)) {
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
fn dot_avx2(a: &[i16], w: &[i16]) -> i64 {
    dot_plain(a, w)
}

/// [`dot`] with 16-bit products: `clamp(a) * w` in i16 (exact, as `|w| <= W2_SHORT`), then
/// times `clamp(a)` and summed in pairs into i32 lanes (`vpmaddwd`). The lanes are summed
/// into i64 every 256 neurons, so that nothing overflows whatever the hidden layer's size:
/// a lane gathers 32 products of at most `QA * i16::MAX` between two flushes, and the eight
/// lanes' sum stays within i32. The length is a multiple of 16 (hidden layers are).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn dot_avx2_short(a: &[i16], w: &[i16]) -> i64 {
    use std::arch::x86_64::*;
    const _: () = assert!(8 * 32 * QA as i64 * i16::MAX as i64 <= i32::MAX as i64);
    let n = a.len().min(w.len()) / 16 * 16;
    let zero = _mm256_setzero_si256();
    let qa = _mm256_set1_epi16(QA as i16);
    let mut total = 0i64;
    for block in (0..n).step_by(256) {
        let mut sum = _mm256_setzero_si256();
        for i in (block..(block + 256).min(n)).step_by(16) {
            // SAFETY: `i + 16 <= n`, within both slices; unaligned loads.
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
        total += _mm_cvtsi128_si32(s) as i64;
    }
    total
}

#[cfg(target_arch = "x86_64")]
static HAS_AVX2: std::sync::LazyLock<bool> =
    std::sync::LazyLock::new(|| std::arch::is_x86_feature_detected!("avx2"));

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_output_path_sums_the_same() {
        let hidden = 512;
        let mut a = vec![0i16; hidden];
        for (i, x) in a.iter_mut().enumerate() {
            *x = ((i * 7919) % 700) as i16 - 200;
        }
        a[..4].copy_from_slice(&[QA as i16, i16::MAX, i16::MIN, QA as i16 + 1]);
        let short: Vec<i16> = (0..hidden)
            .map(|i| match i % 3 {
                0 => W2_SHORT,
                1 => -W2_SHORT,
                _ => ((i * 31) % 255) as i16 - 127,
            })
            .collect();
        let long: Vec<i16> = (0..hidden)
            .map(|i| ((i * 104_729) % 1001) as i16 - 500)
            .collect();
        assert_eq!(dot(&a, &short, true), dot_plain(&a, &short));
        assert_eq!(dot(&a, &long, false), dot_plain(&a, &long));
        let full = vec![QA as i16; hidden];
        for w in [W2_SHORT, -W2_SHORT] {
            let w = vec![w; hidden];
            let want = hidden as i64 * (QA * QA) as i64 * w[0] as i64;
            assert_eq!((dot(&full, &w, true), dot_plain(&full, &w)), (want, want));
        }
    }
}
