//! Learned evaluations for every variant: one network code path for chess, the 3D variants,
//! four colours and the variants defined in files.
//!
//! - [`spec`]: a variant's inputs, from its geometry, pieces, colours and start position;
//! - [`net`]: the quantised network, its arithmetic and its file;
//! - this module: what a position shows a network ([`NetView`], the same for every variant:
//!   the cells, what is in hand, the move history's keys), the accumulators a search thread
//!   keeps along its line ([`EvalCache`]), and the network each variant plays with
//!   ([`current`], [`load`]): the one its build embeds, one loaded with
//!   `setoption name EvalFile`, or none (the hand-written evaluation).
//!
//! The accumulators follow the moves without asking the variant what a move changed: a
//! position's accumulators are those of an earlier position of the line plus the difference
//! of the two placements and hands, so drops, teleports, promotions from reserves, missile
//! shots, chain explosions and eliminated colours are all followed the same way.

pub mod net;
pub mod spec;

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

pub use net::{BLEND_ALL, Net};
pub use spec::{Frame, HAND_CAP, Kings, Spec};

use crate::rules::piece::{Colour, Kind, Piece};
use crate::rules::position::{Position, VariantRules};
use crate::rules::shape::Shape;
use crate::rules::{Game, Variant};

/// What a network sees of a position.
pub trait NetView: Game {
    /// The piece on every cell (at least the variant's cells).
    fn placement(&self) -> &[Piece];
    /// The key of the position after `i` moves of the history (`i <= history_len()`; the
    /// current position's at `history_len()`).
    fn key_at(&self, i: usize) -> u64;
    /// How many pieces of `kind` `colour` holds off the board.
    fn hand_count(&self, colour: Colour, kind: Kind) -> usize;
    /// Whether the variant ever holds pieces off the board (else the hands are not read).
    const HOLDS: bool;
}

impl<V: VariantRules<W>, const W: usize> NetView for Position<V, W> {
    #[inline(always)]
    fn placement(&self) -> &[Piece] {
        self.board().mailbox()
    }
    #[inline(always)]
    fn key_at(&self, i: usize) -> u64 {
        Position::key_at(self, i)
    }
    #[inline(always)]
    fn hand_count(&self, colour: Colour, kind: Kind) -> usize {
        Position::hand_count(self, colour, kind)
    }
    const HOLDS: bool = V::HOLDS;
}

/// Every input of `p` seen from each colour, with the number of pieces on the board (those
/// of colours out of the game, [`Spec::out_colours`], are neither).
pub fn inputs_of<P: NetView>(spec: &Spec, p: &P) -> (Vec<Vec<usize>>, usize) {
    let cells = &p.placement()[..spec.cells];
    let gone = spec.out_colours(cells.iter().copied());
    let frames = frames_of(spec, cells);
    let mut out = vec![Vec::new(); spec.colours];
    let mut pieces = 0;
    for (of, v) in out.iter_mut().enumerate() {
        pieces = perspective_inputs(spec, p, gone, of, frames[of], v);
    }
    (out, pieces)
}

/// Each perspective's frame ([`Spec::frame`]): where its royal piece stands among `cells`.
#[inline]
pub fn frames_of(spec: &Spec, cells: &[Piece]) -> [Frame; 4] {
    let mut frames = [Frame::default(); 4];
    if !spec.kings.is_plain() {
        for (of, f) in frames.iter_mut().enumerate().take(spec.colours) {
            *f = spec.frame(of, spec.king_cell(of, cells));
        }
    }
    frames
}

/// Pushes onto `out` every input of `p` seen from `of` in `frame`, but those of the colours
/// in `gone`; returns the number of pieces on the board that are inputs.
fn perspective_inputs<P: NetView>(
    spec: &Spec,
    p: &P,
    gone: u8,
    of: usize,
    frame: Frame,
    out: &mut Vec<usize>,
) -> usize {
    let mut pieces = 0;
    for (cell, &piece) in p.placement()[..spec.cells].iter().enumerate() {
        if piece.is_some() && gone >> piece.colour().0 & 1 == 0 {
            pieces += 1;
            out.push(spec.board_input_in(frame, of, piece.colour(), piece.kind(), cell));
        }
    }
    for c in 0..spec.colours * (P::HOLDS && spec.holds) as usize {
        if gone >> c & 1 != 0 {
            continue;
        }
        for k in 0..spec.kinds {
            let n = p.hand_count(Colour(c as u8), k as Kind).min(HAND_CAP);
            for i in 1..=n {
                out.push(spec.hand_input(of, Colour(c as u8), k as Kind, i));
            }
        }
    }
    pieces
}

impl Net {
    /// The evaluation of `p` in centipawns for the team to move, summed from nothing.
    pub fn evaluate_fresh<P: NetView>(&self, p: &P) -> i32 {
        let (inputs, pieces) = inputs_of(&self.spec, p);
        let mut acc = vec![vec![0i16; self.hidden]; self.spec.colours];
        for (a, i) in acc.iter_mut().zip(&inputs) {
            self.refresh(a, i);
        }
        let us = p.side_to_move().idx();
        let them = self.next_colour(us);
        let psqt = [us, them].map(|c| self.psqt_sum(&inputs[c]));
        self.output(&acc[us], &acc[them], self.bucket(pieces), psqt)
    }
}

/// The most colours x kinds a hand array holds (4 colours, 16 kinds).
const HANDS: usize = 64;

/// One position's accumulators in an [`EvalCache`], with what they were computed from.
#[derive(Clone)]
struct Entry {
    /// The position's key (0: nothing here).
    key: u64,
    /// Its placement ...
    cells: Vec<Piece>,
    /// ... its hands (colour-major, kind within, capped at [`HAND_CAP`]) ...
    hands: [u8; HANDS],
    /// ... its pieces on the board that are inputs ...
    pieces: usize,
    /// ... its colours out of the game ([`Spec::out_colours`]) ...
    gone: u8,
    /// ... and each perspective's frame ([`Spec::frame`]).
    frames: [Frame; 4],
    /// Each colour's accumulator, one after the other.
    acc: Vec<i16>,
    /// Each colour's sum of the linear path ([`Net::psqt_sum`]).
    psqt: [i32; 4],
}

impl Default for Entry {
    fn default() -> Self {
        Entry {
            key: 0,
            cells: Vec::new(),
            hands: [0; HANDS],
            pieces: 0,
            gone: 0,
            frames: [Frame::default(); 4],
            acc: Vec::new(),
            psqt: [0; 4],
        }
    }
}

/// How many plies back the cache looks for accumulators to update from.
const CACHE_REACH: usize = 64;

/// More changed inputs than this in one update: summed from nothing instead.
const MAX_CHANGES: usize = 16;

/// What a search thread's evaluation keeps from one call to the next: the network it plays
/// with (if any) and the accumulators of the positions along the line being searched, by
/// their number of moves since the search's game began (the history's length).
pub struct EvalCache {
    net: Option<Arc<Net>>,
    entries: Vec<Entry>,
    /// The changes of the update being made, kept to be reused.
    changes: Box<Changes>,
}

impl Default for EvalCache {
    fn default() -> Self {
        EvalCache {
            net: None,
            entries: Vec::new(),
            changes: Box::new(Changes::new()),
        }
    }
}

impl EvalCache {
    /// A cache for a search of `variant`, with the network it plays with now.
    pub fn for_variant(variant: Variant) -> EvalCache {
        EvalCache {
            net: current(variant),
            ..EvalCache::default()
        }
    }

    /// A cache that evaluates with `net`.
    pub fn with_net(net: Arc<Net>) -> EvalCache {
        EvalCache {
            net: Some(net),
            ..EvalCache::default()
        }
    }

    /// Computes the accumulators of `p` if they are not here yet, without evaluating (see
    /// `Worker::keep_eval_cache`).
    #[inline]
    pub fn prepare<P: NetView>(&mut self, p: &P) {
        let Some(net) = self.net.as_deref() else {
            return;
        };
        let len = p.history_len();
        if self.entries.len() <= len {
            self.entries.resize(len + 1, Entry::default());
        }
        if self.entries[len].key != p.key_at(len) {
            fill(net, &mut self.entries, &mut self.changes, len, p);
        }
    }

    /// `v`, its network's evaluation, blended with the terms as the network says
    /// ([`Net::blend`]; `terms` is called only where it has a share of them).
    #[inline(always)]
    pub fn blend(&self, v: i32, terms: impl FnOnce() -> i32) -> i32 {
        self.net.as_deref().map_or(v, |n| n.blend(v, terms))
    }

    /// The network's evaluation of `p` for the team to move, or `None` without a network.
    #[inline]
    pub fn evaluate<P: NetView>(&mut self, p: &P) -> Option<i32> {
        let net = self.net.as_deref()?;
        let len = p.history_len();
        if self.entries.len() <= len {
            self.entries.resize(len + 1, Entry::default());
        }
        let key = p.key_at(len);
        if self.entries[len].key != key {
            fill(net, &mut self.entries, &mut self.changes, len, p);
        }
        let e = &self.entries[len];
        let h = net.hidden;
        let us = p.side_to_move().idx();
        let them = net.next_colour(us);
        Some(net.output(
            &e.acc[us * h..(us + 1) * h],
            &e.acc[them * h..(them + 1) * h],
            net.bucket(e.pieces),
            [e.psqt[us], e.psqt[them]],
        ))
    }
}

/// One changed input, before it is seen from a perspective: a piece of `colour` and `kind`
/// on cell `at`, or (`hand`) the `at`-th of its kind in hand.
#[derive(Clone, Copy)]
struct Change {
    colour: Colour,
    kind: Kind,
    at: u16,
    hand: bool,
}

/// The inputs that differ between two positions: those to add and those to take away, and
/// each seen from the perspective being updated.
struct Changes {
    add: [Change; MAX_CHANGES],
    sub: [Change; MAX_CHANGES],
    adds: usize,
    subs: usize,
    add_inputs: [usize; MAX_CHANGES],
    sub_inputs: [usize; MAX_CHANGES],
    /// The inputs of a perspective summed from nothing (its royal piece changed bucket).
    fresh: Vec<usize>,
}

impl Changes {
    fn new() -> Changes {
        const NONE: Change = Change {
            colour: Colour::WHITE,
            kind: 0,
            at: 0,
            hand: false,
        };
        Changes {
            add: [NONE; MAX_CHANGES],
            sub: [NONE; MAX_CHANGES],
            adds: 0,
            subs: 0,
            add_inputs: [0; MAX_CHANGES],
            sub_inputs: [0; MAX_CHANGES],
            fresh: Vec::new(),
        }
    }

    /// Records `c`; false when there are too many to be worth updating by.
    #[inline(always)]
    fn push(&mut self, add: bool, c: Change) -> bool {
        let (list, n) = if add {
            (&mut self.add, &mut self.adds)
        } else {
            (&mut self.sub, &mut self.subs)
        };
        if *n == MAX_CHANGES {
            return false;
        }
        list[*n] = c;
        *n += 1;
        true
    }

    /// Forgets the changes to pieces of the colours in `gone` (bit per colour).
    fn drop_colours(&mut self, gone: u8) {
        let keep = |c: &Change| gone >> c.colour.0 & 1 == 0;
        let mut n = 0;
        for i in 0..self.adds {
            if keep(&self.add[i]) {
                self.add[n] = self.add[i];
                n += 1;
            }
        }
        self.adds = n;
        n = 0;
        for i in 0..self.subs {
            if keep(&self.sub[i]) {
                self.sub[n] = self.sub[i];
                n += 1;
            }
        }
        self.subs = n;
    }

    /// Finds the changes from `old` to `new` (placements and hands); false if there are too
    /// many.
    #[inline(always)]
    fn find(&mut self, old: (&[Piece], &[u8]), new: (&[Piece], &[u8]), kinds: usize) -> bool {
        self.adds = 0;
        self.subs = 0;
        // Eight cells at a time: most are the same, and the differing bytes of a block are
        // found from the XOR of the two words.
        let (old_codes, new_codes) = (Piece::codes(old.0), Piece::codes(new.0));
        let (olds, news) = (old_codes.chunks_exact(8), new_codes.chunks_exact(8));
        let tail = |c: &[u8]| c.iter().rev().fold(0u64, |acc, &b| acc << 8 | b as u64);
        let last = (tail(olds.remainder()), tail(news.remainder()));
        let word = |c: &[u8]| u64::from_le_bytes(c.try_into().unwrap());
        let words = olds.zip(news).map(|(x, y)| (word(x), word(y)));
        for (w, (x, y)) in words.chain(std::iter::once(last)).enumerate() {
            let mut diff = x ^ y;
            while diff != 0 {
                let byte = (diff.trailing_zeros() / 8) as usize;
                diff &= !(0xffu64 << (byte * 8));
                let cell = w * 8 + byte;
                let (o, n) = (old.0[cell], new.0[cell]);
                let piece = |p: Piece| Change {
                    colour: p.colour(),
                    kind: p.kind(),
                    at: cell as u16,
                    hand: false,
                };
                if (o.is_some() && !self.push(false, piece(o)))
                    || (n.is_some() && !self.push(true, piece(n)))
                {
                    return false;
                }
            }
        }
        if old.1 != new.1 {
            for (i, (&o, &n)) in old.1.iter().zip(new.1).enumerate() {
                let held = |at: u8| Change {
                    colour: Colour((i / kinds) as u8),
                    kind: (i % kinds) as Kind,
                    at: at as u16,
                    hand: true,
                };
                for at in n + 1..=o {
                    if !self.push(false, held(at)) {
                        return false;
                    }
                }
                for at in o + 1..=n {
                    if !self.push(true, held(at)) {
                        return false;
                    }
                }
            }
        }
        true
    }
}

/// Computes entry `len` for `p`: from the nearest earlier position of the line the cache
/// holds, by the difference of the placements and hands, or from nothing (also when a colour
/// has gone out of the game since: all its pieces stop being inputs).
#[inline(always)]
fn fill<P: NetView>(net: &Net, entries: &mut [Entry], ch: &mut Changes, len: usize, p: &P) {
    if net.spec.kings.is_plain() {
        fill_in::<P, true>(net, entries, ch, len, p)
    } else {
        fill_in::<P, false>(net, entries, ch, len, p)
    }
}

/// [`fill`] for a network whose king layout is `PLAIN` or not: the plain one follows no
/// royal piece, and costs nothing for it.
fn fill_in<P: NetView, const PLAIN: bool>(
    net: &Net,
    entries: &mut [Entry],
    ch: &mut Changes,
    len: usize,
    p: &P,
) {
    let spec = &net.spec;
    let h = net.hidden;
    let cells = &p.placement()[..spec.cells];
    let gone = spec.out_colours(cells.iter().copied());
    let holds = P::HOLDS && spec.holds;
    let held = if holds { spec.colours * spec.kinds } else { 0 };
    let mut hands = [0u8; HANDS];
    if holds {
        for c in 0..spec.colours {
            for k in 0..spec.kinds {
                hands[c * spec.kinds + k] =
                    p.hand_count(Colour(c as u8), k as Kind).min(HAND_CAP) as u8;
            }
        }
    }
    let base = (len.saturating_sub(CACHE_REACH)..len)
        .rev()
        .find(|&j| entries[j].key != 0 && entries[j].key == p.key_at(j));
    let (head, tail) = entries.split_at_mut(len);
    let e = &mut tail[0];
    e.acc.resize(spec.colours * h, 0);
    let base = base.map(|j| &head[j]).filter(|b| {
        b.gone == gone
            && ch.find(
                (&b.cells, &b.hands[..held]),
                (cells, &hands[..held]),
                spec.kinds,
            )
    });
    if gone != 0 && base.is_some() {
        ch.drop_colours(gone);
    }
    match base {
        Some(b) => {
            let mut pieces = b.pieces;
            for c in &ch.add[..ch.adds] {
                pieces += !c.hand as usize;
            }
            for c in &ch.sub[..ch.subs] {
                pieces -= !c.hand as usize;
            }
            e.pieces = pieces;
            // A perspective's frame changes only where its royal piece moved.
            let mut frames = b.frames;
            if let Some(royal) = spec.royal.filter(|_| !PLAIN) {
                for (of, f) in frames[..spec.colours].iter_mut().enumerate() {
                    let moved = |c: &Change| !c.hand && c.kind == royal && c.colour.idx() == of;
                    if ch.add[..ch.adds].iter().any(moved) || ch.sub[..ch.subs].iter().any(moved) {
                        *f = spec.frame(of, spec.king_cell(of, cells));
                    }
                }
            }
            #[allow(clippy::needless_range_loop)]
            for of in 0..spec.colours {
                let acc = &mut e.acc[of * h..(of + 1) * h];
                let frame = if PLAIN { Frame::default() } else { frames[of] };
                if !PLAIN && frame != b.frames[of] {
                    ch.fresh.clear();
                    perspective_inputs(spec, p, gone, of, frame, &mut ch.fresh);
                    net.refresh(acc, &ch.fresh);
                    e.psqt[of] = net.psqt_sum(&ch.fresh);
                    continue;
                }
                let view = spec.frame_view(of, frame);
                let index = |c: &Change| {
                    if c.hand {
                        spec.hand_input(of, c.colour, c.kind, c.at as usize)
                    } else {
                        view.input(spec, c.colour, c.kind, c.at as usize)
                    }
                };
                for i in 0..ch.adds {
                    ch.add_inputs[i] = index(&ch.add[i]);
                }
                for i in 0..ch.subs {
                    ch.sub_inputs[i] = index(&ch.sub[i]);
                }
                net.apply(
                    acc,
                    &b.acc[of * h..(of + 1) * h],
                    &ch.add_inputs[..ch.adds],
                    &ch.sub_inputs[..ch.subs],
                );
                e.psqt[of] = net.psqt_apply(
                    b.psqt[of],
                    &ch.add_inputs[..ch.adds],
                    &ch.sub_inputs[..ch.subs],
                );
            }
            e.frames = frames;
        }
        None => {
            let frames = frames_of(spec, cells);
            for (of, &frame) in frames[..spec.colours].iter().enumerate() {
                ch.fresh.clear();
                e.pieces = perspective_inputs(spec, p, gone, of, frame, &mut ch.fresh);
                net.refresh(&mut e.acc[of * h..(of + 1) * h], &ch.fresh);
                e.psqt[of] = net.psqt_sum(&ch.fresh);
            }
            e.frames = frames;
        }
    }
    e.cells.clear();
    e.cells.extend_from_slice(cells);
    e.hands = hands;
    e.gone = gone;
    e.key = p.key_at(len);
}

/// What the variants play with, as `setoption name EvalFile` chose it.
#[derive(Default)]
struct Choice {
    /// The hand-written evaluations where no file was loaded (`EvalFile none`), instead of
    /// the embedded networks.
    terms: bool,
    /// The networks loaded from files, by variant name.
    files: HashMap<String, Arc<Net>>,
}

static CHOICE: LazyLock<Mutex<Choice>> = LazyLock::new(Default::default);

/// The most bytes the networks loaded with `EvalFile` take in memory together (one per
/// variant; each file is at most [`net::MAX_FILE`]).
pub const MAX_LOADED: usize = 512 << 20;

/// The embedded networks, read once each, by the address of their bytes (a variant file
/// loaded again with another network under the same name has other bytes).
static EMBEDDED: LazyLock<Mutex<HashMap<usize, Arc<Net>>>> = LazyLock::new(Default::default);

/// The network `variant` plays with now: the one loaded for it with `EvalFile`, else the one
/// its build embeds (unless `EvalFile none`); `None` for the hand-written evaluation.
pub fn current(variant: Variant) -> Option<Arc<Net>> {
    let (file, terms) = {
        let c = CHOICE.lock().unwrap_or_else(|e| e.into_inner());
        (c.files.get(variant.name()).cloned(), c.terms)
    };
    match file {
        // A variant loaded again from its file may be another board under the same name.
        Some(net) if net.spec.fingerprint == Spec::of(variant).fingerprint => Some(net),
        _ if terms => None,
        _ => embedded(variant),
    }
}

/// The network `variant` comes with: the one its build embeds, or the one its variant file
/// names (`net`, checked when the file was loaded).
pub fn embedded(variant: Variant) -> Option<Arc<Net>> {
    let bytes = embedded_bytes(variant)?;
    let mut cache = EMBEDDED.lock().unwrap_or_else(|e| e.into_inner());
    let net = cache.entry(bytes.as_ptr() as usize).or_insert_with(|| {
        let net = Net::read(bytes, &Spec::of(variant))
            .unwrap_or_else(|e| panic!("the embedded network of {}: {e}", variant.name()));
        Arc::new(net)
    });
    Some(Arc::clone(net))
}

/// The bytes of the network `variant` comes with: for a built-in variant the one its build
/// embeds (each kept only where it won its SPRT against the evaluation by terms;
/// docs/results.md, "Networks"), for a variant from a file the one the file names.
fn embedded_bytes(variant: Variant) -> Option<&'static [u8]> {
    let bytes: &'static [u8] = match variant {
        Variant::Defined(d) => d.0.net.as_deref()?,
        _ => match variant.name() {
            "chess" => include_bytes!("../nets/chess.net"),
            "future-generation" => include_bytes!("../nets/future-generation.net"),
            "pentaplane" => include_bytes!("../nets/pentaplane.net"),
            "podionic" => include_bytes!("../nets/podionic.net"),
            "pole" => include_bytes!("../nets/pole.net"),
            "polyhedron" => include_bytes!("../nets/polyhedron.net"),
            _ => return None,
        },
    };
    (!bytes.is_empty()).then_some(bytes)
}

/// Whether a variant of `shape` can play with the network file `bytes`: `Err` with the
/// reason if not. A variant file's `net` is checked with it before the variant is
/// registered ([`crate::rules::defined::NetCheck`]).
pub fn check_net(shape: &Shape, bytes: &[u8]) -> Result<(), String> {
    Net::read(bytes, &Spec::new(shape)).map(drop)
}

/// What `setoption name EvalFile value VALUE` asks: empty (or `<empty>`) the embedded
/// networks again everywhere; `none` the hand-written evaluations wherever no file was
/// loaded; else the network file at that path (read with the bounds of
/// [`crate::files::read_regular_bytes`], at most [`net::MAX_FILE`] bytes) for the variant it
/// was trained for, which must be known (a variant from a file loaded first) and have the
/// board the file was trained on. On an error nothing changes. Returns what changed, in
/// words.
pub fn load(value: &str) -> Result<String, String> {
    let value = value.trim();
    if value.is_empty() || value == "<empty>" {
        *CHOICE.lock().unwrap_or_else(|e| e.into_inner()) = Choice::default();
        return Ok("every variant plays with its embedded network, if it has one".into());
    }
    if value.eq_ignore_ascii_case("none") {
        CHOICE.lock().unwrap_or_else(|e| e.into_inner()).terms = true;
        return Ok(
            "every variant plays with its hand-written evaluation, but those given a \
                   network with EvalFile"
                .into(),
        );
    }
    let shown = crate::text::echo(value, 200);
    let bytes = crate::files::read_regular_bytes(value, net::MAX_FILE, "a network file")
        .map_err(|e| format!("{shown}: {e}"))?;
    let name = Net::variant_of(&bytes).map_err(|e| format!("{shown}: {e}"))?;
    let variant = Variant::from_name(&name).ok_or_else(|| {
        format!(
            "{shown}: a network for the variant '{}', which is not loaded (load its file \
             with VariantPath first)",
            crate::text::echo(&name, 64)
        )
    })?;
    let net = Net::read(&bytes, &Spec::of(variant)).map_err(|e| format!("{shown}: {e}"))?;
    drop(bytes);
    let mut choice = CHOICE.lock().unwrap_or_else(|e| e.into_inner());
    let others: usize = choice
        .files
        .iter()
        .filter(|(n, _)| **n != name)
        .map(|(_, n)| n.heap_bytes())
        .sum();
    if others + net.heap_bytes() > MAX_LOADED {
        return Err(format!(
            "{shown}: the networks loaded with EvalFile for other variants take {others} \
             bytes, and this one's {} more would pass the bound of {MAX_LOADED} \
             (EvalFile with an empty value frees them)",
            net.heap_bytes()
        ));
    }
    let kings = match &net.spec.kings {
        k if k.is_plain() => String::new(),
        k => format!(
            ", {} king buckets{}",
            k.buckets,
            if k.mirror { " mirrored" } else { "" }
        ),
    };
    let words = format!(
        "{} plays with the network {shown} ({} hidden neurons, {} output buckets{kings})",
        variant.name(),
        net.hidden,
        net.buckets
    );
    choice.files.insert(name, Arc::new(net));
    Ok(words)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::rules::{AnyGame, MoveList};
    use crate::with_game;
    use rand::{Rng, SeedableRng};

    /// A network of arbitrary small weights for `variant`, whatever the build embeds, with a
    /// linear path ([`Net::psqt`]).
    pub(crate) fn test_net(variant: Variant, hidden: usize) -> Net {
        test_net_for(&Spec::of(variant), hidden)
    }

    /// [`test_net`] for `spec` (with king buckets, say).
    pub(crate) fn test_net_for(spec: &Spec, hidden: usize) -> Net {
        let spec = spec.clone();
        let w1 = (0..spec.inputs() * hidden)
            .map(|i| ((i * 7919) % 61) as i16 - 30)
            .collect();
        let w2 = (0..8 * 2 * hidden)
            .map(|i| ((i * 104_729) % 41) as i16 - 20)
            .collect();
        let b2 = (0..8).map(|i| i * 1000).collect();
        let psqt = (0..spec.inputs())
            .map(|i| (((i * 613) % 201) as i32 - 100) * 50)
            .collect();
        Net::new(&spec, hidden, w1, vec![40; hidden], w2, b2).with_psqt(psqt)
    }

    /// A network with king buckets (version 6) reads back as written, and a damaged or
    /// hostile layout is refused with the reason: a bucket beyond the count, a count of 0 or
    /// beyond the bound, a mirror flag other than 0 or 1, or a layout whose inputs the file
    /// does not hold.
    #[test]
    fn a_network_with_king_buckets_reads_back_and_a_bad_layout_is_refused() {
        let v = Variant::Chess;
        let net = test_net_for(&spec_with_kings(v), 16);
        let bytes = net.write();
        assert_eq!(bytes[8..12], net::VERSION_KINGS.to_le_bytes());
        assert_eq!(Net::read(&bytes, &Spec::of(v)), Ok(net.clone()));
        // The layout's place: after the header's six numbers, the flag, the share and the
        // terms' name ("all").
        let at = 8 + 4 + 2 + "chess".len() + 8 + 6 * 4 + 4 + 4 + 2 + net::BLEND_ALL.len();
        assert_eq!(
            (bytes[at], &bytes[at + 1..at + 3]),
            (1, &3u16.to_le_bytes()[..])
        );
        let changed = |at: usize, new: &[u8]| {
            let mut b = bytes.clone();
            b[at..at + new.len()].copy_from_slice(new);
            Net::read(&b, &Spec::of(v)).unwrap_err()
        };
        let e = changed(at + 3 + 20, &[3]);
        assert!(
            e.contains("a king bucket for each of the 64 cells, below 3"),
            "{e}"
        );
        let e = changed(at, &[2]);
        assert!(e.contains("a king mirror flag of 2"), "{e}");
        for n in [0u16, 17, u16::MAX] {
            let e = changed(at + 1, &n.to_le_bytes());
            assert!(e.contains(&format!("{n} king buckets (1 to 16)")), "{e}");
        }
        let e = changed(at + 1, &4u16.to_le_bytes());
        assert!(e.contains("inputs; this variant has"), "{e}");
        // One bucket, no mirror: still every cell's bucket checked.
        let e = changed(at, &[0, 1, 0]);
        assert!(e.contains("below 1"), "{e}");
        let e = Net::read(&bytes[..at + 40], &Spec::of(v)).unwrap_err();
        assert!(!e.is_empty());
    }

    /// Output biases far beyond anything trained (a damaged or hostile file) give an
    /// evaluation within [`net::MAX_OUTPUT`], never a mate score.
    #[test]
    fn a_network_never_evaluates_beyond_its_bound() {
        for (bias, sign) in [(i32::MAX / 2, 1), (i32::MIN / 2, -1)] {
            let mut net = test_net(Variant::Chess, 32);
            net.b2 = vec![bias; 8];
            let p = AnyGame::startpos(Variant::Chess);
            let v = with_game!(&p, g => net.evaluate_fresh(g));
            assert_eq!(v, sign * net::MAX_OUTPUT);
        }
    }

    /// The spec of `v` with three king buckets in stripes across the board, mirrored where
    /// the board mirrors left to right.
    pub(crate) fn spec_with_kings(v: Variant) -> Spec {
        let spec = Spec::of(v);
        let bucket_of = spec
            .axes
            .iter()
            .map(|a| ((a[0] + a[1] + a[2] + 1) % 3) as u8)
            .collect();
        let kings = Kings {
            buckets: 3,
            mirror: spec.mirror.is_some(),
            bucket_of,
        };
        spec.with_kings(kings).unwrap()
    }

    /// Along random games with moves taken back and null moves, in every variant (drops,
    /// reserves, missiles and explosions, four colours, a variant from a file), the
    /// accumulators the cache updates from the placements' differences evaluate exactly as
    /// those summed from nothing; with king buckets too, where a perspective whose royal
    /// piece changes bucket or half of the board is summed again.
    #[test]
    fn cached_accumulators_equal_fresh_ones_in_every_variant() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/variants/raumschach.toml");
        let raumschach =
            crate::rules::defined::load_file(path, crate::eval::nnue::check_net).unwrap()[0];
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let plain = Variant::ALL
            .into_iter()
            .chain([raumschach])
            .map(|v| (v, Spec::of(v)));
        let kings: Vec<(Variant, Spec)> = Variant::ALL
            .into_iter()
            .chain([raumschach])
            .map(|v| (v, spec_with_kings(v)))
            .collect();
        for (v, spec) in plain.chain(kings) {
            let net = Arc::new(test_net_for(&spec, 32));
            let mut frames_seen = std::collections::HashSet::new();
            let mut checked = 0;
            let mut starts: Vec<String> = vec![v.start_fen().to_string()];
            starts.extend(v.info().bench_positions.iter().map(|f| f.to_string()));
            for fen in starts {
                let mut pos = AnyGame::from_fen(v, &fen).unwrap();
                let mut cache = EvalCache::with_net(net.clone());
                let mut nulls = 0;
                for _ in 0..150 {
                    let (cached, fresh) = with_game!(&pos, g => {
                        (cache.evaluate(g).unwrap(), net.evaluate_fresh(g))
                    });
                    assert_eq!(cached, fresh, "{}: {}", v.name(), pos.fen());
                    let cells: Vec<Piece> = (0..spec.cells).map(|c| pos.piece_at(c)).collect();
                    frames_seen.insert(frames_of(&spec, &cells));
                    checked += 1;
                    let mut list = MoveList::new();
                    pos.generate(&mut list);
                    let r = rng.gen_range(0..10);
                    if nulls > 0 && r == 0 {
                        pos.unmake_null();
                        nulls -= 1;
                    } else if r == 1 && nulls == 0 && !pos.in_check() && pos.null_move_allowed() {
                        pos.make_null();
                        nulls += 1;
                    } else if (r < 3 || list.is_empty() || pos.outcome().is_some())
                        && nulls == 0
                        && pos.history_len() > 0
                    {
                        pos.unmake();
                    } else if !list.is_empty() && nulls == 0 && pos.outcome().is_none() {
                        pos.make(list.as_slice()[rng.gen_range(0..list.len())]);
                    }
                }
            }
            assert!(checked >= 150, "{}", v.name());
            // With king buckets, the royal pieces went from one bucket or half to another.
            let frames = frames_seen.len();
            assert!(
                spec.kings.is_plain() || frames >= 3,
                "{}: {frames}",
                v.name()
            );
        }
    }

    /// In a game of four, the pieces of a colour whose King was taken stay on the board as
    /// inert obstacles and are no inputs: taking the King takes all its colour's pieces out
    /// of the accumulators, and the cached evaluation equals the fresh one along random
    /// moves from there and back across the capture.
    #[test]
    fn a_colour_out_of_the_game_is_no_input() {
        let v = Variant::FutureGeneration;
        let net = Arc::new(test_net(v, 32));
        let spec = &net.spec;
        assert_eq!(spec.out_without, Some(5));
        // The start, with a White Knight on Af6 that can take Black's King on Ae8.
        let fen = v.start_fen().replacen("/8/8/8/8/wP", "/5wN2/8/8/8/wP", 1);
        let mut pos = AnyGame::from_fen(v, &fen).unwrap();
        let seen = |g: &AnyGame| with_game!(g, g => inputs_of(spec, g));
        let (inputs, pieces) = seen(&pos);
        assert_eq!((inputs[0].len(), pieces), (65, 65));
        let mut cache = EvalCache::with_net(net.clone());
        let before = with_game!(&pos, g => cache.evaluate(g).unwrap());
        pos.make(pos.parse_move("Af6Ae8").unwrap());
        // Black's 15 other pieces stay on the board, and none of them is an input.
        let black = (0..spec.cells)
            .filter(|&c| pos.piece_at(c).is_some() && pos.piece_at(c).colour() == Colour::BLACK)
            .count();
        assert_eq!(black, 15);
        let (inputs, pieces) = seen(&pos);
        assert_eq!((inputs[0].len(), pieces), (49, 49), "{}", pos.fen());
        let black_inputs = |of: usize| {
            (0..spec.kinds as Kind)
                .flat_map(|k| {
                    (0..spec.cells).map(move |c| spec.board_input(of, Colour::BLACK, k, c))
                })
                .collect::<Vec<_>>()
        };
        for (of, i) in inputs.iter().enumerate() {
            let theirs = black_inputs(of);
            assert!(i.iter().all(|x| !theirs.contains(x)), "seen from {of}");
        }
        let mut rng = rand::rngs::StdRng::seed_from_u64(11);
        let mut made = 0;
        for step in 0..140 {
            let (cached, fresh) = with_game!(&pos, g => {
                (cache.evaluate(g).unwrap(), net.evaluate_fresh(g))
            });
            assert_eq!(cached, fresh, "{}", pos.fen());
            let mut list = MoveList::new();
            pos.generate(&mut list);
            // Forward for 60 plies, then back past the capture to the start.
            if step < 60 && !list.is_empty() && pos.outcome().is_none() {
                pos.make(list.as_slice()[rng.gen_range(0..list.len())]);
                made += 1;
            } else if made > 0 {
                pos.unmake();
                made -= 1;
            } else if pos.history_len() > 0 {
                pos.unmake();
            }
        }
        assert_eq!(pos.history_len(), 0);
        assert_eq!(with_game!(&pos, g => cache.evaluate(g).unwrap()), before);
        // A game of two has no such rule, and keeps its fingerprint.
        assert_eq!(Spec::of(Variant::Chess).out_without, None);
    }

    /// The integer evaluation equals the formula computed plainly in floating point, the
    /// linear path included.
    #[test]
    fn the_output_is_the_formula() {
        let v = Variant::FutureGeneration;
        let net = test_net(v, 32);
        let g = AnyGame::startpos(v);
        let spec = &net.spec;
        let (inputs, pieces) = with_game!(&g, g => inputs_of(spec, g));
        let us = g.side_to_move().idx();
        let them = net.next_colour(us);
        let h = net.hidden;
        let b = spec.bucket(pieces, net.buckets);
        let mut sum = 0f64;
        for (j, of) in [us, them].into_iter().enumerate() {
            for n in 0..h {
                let a = net.b1[n] as i64
                    + inputs[of]
                        .iter()
                        .map(|&i| net.w1[i * h + n] as i64)
                        .sum::<i64>();
                let c = a.clamp(0, net::QA as i64) as f64;
                sum += c * c * net.w2[b * 2 * h + j * h + n] as f64;
            }
        }
        let linear = |of: usize| inputs[of].iter().map(|&i| net.psqt[i] as f64).sum::<f64>();
        let half = ((linear(us) - linear(them)) / 2.0).trunc();
        assert!(half.abs() > 1000.0, "the linear path counts: {half}");
        let expect = ((sum / net::QA as f64).trunc() + net.b2[b] as f64 + half) * net::SCALE as f64
            / (net::QA * net::QB) as f64;
        let got = with_game!(&g, g => net.evaluate_fresh(g));
        assert!(
            (got as f64 - expect.trunc()).abs() <= 1.0,
            "{got} vs {expect}"
        );
    }

    /// A network blended with the terms is written as version 4, with or without a linear
    /// path, and reads back with its share; a share or a flag out of bounds is refused; a
    /// network with no share is written as before.
    #[test]
    fn a_blended_network_file_reads_back_and_bad_shares_are_refused() {
        let spec = Spec::of(Variant::Polyhedron);
        for net in [
            test_net(Variant::Polyhedron, 16),
            test_net(Variant::Polyhedron, 16).with_psqt(Vec::new()),
        ] {
            let plain = net.write();
            let blended = net.clone().with_terms_share(50);
            let bytes = blended.write();
            assert_eq!(bytes[8..12], net::VERSION_BLEND.to_le_bytes());
            assert_eq!(bytes.len(), plain.len() + 8);
            assert_eq!(Net::read(&bytes, &spec), Ok(blended.clone()));
            assert_eq!(Net::read(&plain, &spec), Ok(net.clone()));
            // The two fields after the header's six: the linear flag, then the share.
            let header = 8 + 4 + 2 + "polyhedron".len() + 8 + 6 * 4;
            for (at, value, says) in [
                (header + 4, 0u32, "share of the terms of 0"),
                (header + 4, 100, "share of the terms of 100"),
                (header, 2, "linear-path flag of 2"),
                (header, 1 - !net.psqt.is_empty() as u32, "bytes of weights"),
            ] {
                let mut bad = bytes.clone();
                bad[at..at + 4].copy_from_slice(&value.to_le_bytes());
                let e = Net::read(&bad, &spec).unwrap_err();
                assert!(e.contains(says), "{e}");
            }
        }
    }

    /// Future Generation blends a network with fewer terms than all of them
    /// (`blend_terms_name` "reach"): its blended file is written as version 5, with the
    /// terms' name, and reads back; the same network written as version 4 (blended with all
    /// the terms, as files were before the name) is refused with the reason, and so is a
    /// name that is not this build's or too long.
    #[test]
    fn a_network_blended_with_other_terms_is_refused() {
        let spec = Spec::of(Variant::FutureGeneration);
        assert_eq!(spec.blend, "reach");
        assert_eq!(Spec::of(Variant::Polyhedron).blend, net::BLEND_ALL);
        let blended = test_net(Variant::FutureGeneration, 16).with_terms_share(50);
        let bytes = blended.write();
        assert_eq!(bytes[8..12], net::VERSION_BLEND_NAMED.to_le_bytes());
        assert_eq!(Net::read(&bytes, &spec), Ok(blended.clone()));
        // Version 4: the same bytes without the name (u16 length and "reach").
        let at = 8 + 4 + 2 + "future-generation".len() + 8 + 6 * 4 + 8;
        assert_eq!(bytes[at..at + 7], [5, 0, b'r', b'e', b'a', b'c', b'h']);
        let mut old = bytes.clone();
        old.drain(at..at + 7);
        old[8..12].copy_from_slice(&net::VERSION_BLEND.to_le_bytes());
        let e = Net::read(&old, &spec).unwrap_err();
        assert!(
            e.contains("with the terms 'all'") && e.contains("with the terms 'reach'"),
            "{e}"
        );
        let mut other = bytes.clone();
        other[at + 2..at + 7].copy_from_slice(b"reacH");
        let e = Net::read(&other, &spec).unwrap_err();
        assert!(e.contains("'reacH'"), "{e}");
        let mut long = bytes.clone();
        long[at..at + 2].copy_from_slice(&1000u16.to_le_bytes());
        let e = Net::read(&long, &spec).unwrap_err();
        assert!(e.contains("1000 bytes"), "{e}");
        // Without a share the name is not written: version 3 (a linear path), as before.
        let alone = test_net(Variant::FutureGeneration, 16).write();
        assert_eq!(alone[8..12], net::VERSION_LINEAR.to_le_bytes());
    }

    /// A blended network's evaluation, through the search thread's cache along a random
    /// game, is the network's and the terms' mixed in its share, and differs from both.
    #[test]
    fn a_blended_network_evaluates_the_mix_of_network_and_terms() {
        use crate::eval::Evaluate;
        let net = Arc::new(test_net(Variant::Polyhedron, 16).with_terms_share(30));
        let alone = Arc::new(test_net(Variant::Polyhedron, 16));
        let mut cache = EvalCache::with_net(net.clone());
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        let mut p = AnyGame::startpos(Variant::Polyhedron);
        let mut differs = (false, false);
        for _ in 0..40 {
            let (got, own, terms) = with_game!(&p, g => (
                g.evaluate_cached(&mut cache),
                alone.evaluate_fresh(g),
                g.blend_terms(),
            ));
            assert_eq!(got, ((own as i64 * 70 + terms as i64 * 30) / 100) as i32);
            assert_eq!(got, net::blend(own, terms, 30));
            differs = (differs.0 || got != own, differs.1 || got != terms);
            let mut list = MoveList::new();
            p.generate(&mut list);
            if list.is_empty() || p.outcome().is_some() {
                break;
            }
            p.make(list.as_slice()[rng.gen_range(0..list.len())]);
        }
        assert_eq!(differs, (true, true));
    }

    /// A network file reads back as written; one for another variant, or for another board
    /// under the same name, is refused with the reason.
    #[test]
    fn a_network_file_reads_back_and_another_boards_is_refused() {
        let net = test_net(Variant::Pentaplane, 32);
        let bytes = net.write();
        assert_eq!(bytes[8..12], net::VERSION_LINEAR.to_le_bytes());
        assert_eq!(
            Net::read(&bytes, &Spec::of(Variant::Pentaplane)),
            Ok(net.clone())
        );
        // Without a linear path: version 2, as the files written before it, 4 bytes an
        // input shorter.
        let plain = net.clone().with_psqt(Vec::new());
        let short = plain.write();
        assert_eq!(short[8..12], net::VERSION.to_le_bytes());
        assert_eq!(short.len() + 4 * plain.spec.inputs(), bytes.len());
        assert_eq!(Net::read(&short, &Spec::of(Variant::Pentaplane)), Ok(plain));
        let mut beyond = bytes.clone();
        let at = beyond.len() - 4;
        beyond[at..].copy_from_slice(&(net::MAX_PSQT + 1).to_le_bytes());
        let e = Net::read(&beyond, &Spec::of(Variant::Pentaplane)).unwrap_err();
        assert!(e.contains("a linear value of"), "{e}");
        let mut later = bytes.clone();
        later[8..12].copy_from_slice(&7u32.to_le_bytes());
        let e = Net::read(&later, &Spec::of(Variant::Pentaplane)).unwrap_err();
        assert!(e.contains("version 7"), "{e}");
        let e = Net::read(&bytes, &Spec::of(Variant::Chess)).unwrap_err();
        assert!(
            e.contains("for the variant 'pentaplane', not 'chess'"),
            "{e}"
        );
        let mut other = Spec::of(Variant::Pentaplane);
        other.fingerprint ^= 1;
        let e = Net::read(&bytes, &other).unwrap_err();
        assert!(e.contains("another board or set of pieces"), "{e}");
        assert!(Net::read(b"STRATANX", &other).is_err());
        let e = Net::read(&bytes[..bytes.len() - 3], &Spec::of(Variant::Pentaplane)).unwrap_err();
        assert!(e.contains("bytes of weights"), "{e}");
        assert!(Net::read(&bytes[..20], &Spec::of(Variant::Pentaplane)).is_err());
        // An output weight beyond what the output's sums hold exactly.
        let mut wild = test_net(Variant::Pentaplane, 32);
        wild.w2[7] = i16::MIN;
        let e = Net::read(&wild.write(), &Spec::of(Variant::Pentaplane)).unwrap_err();
        assert!(e.contains("an output weight of -32768"), "{e}");
    }
}
