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

pub use net::Net;
pub use spec::{HAND_CAP, Spec};

use crate::rules::piece::{Colour, Kind, Piece};
use crate::rules::position::{Position, VariantRules};
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
}

/// Every input of `p` seen from each colour, with the number of pieces on the board.
pub fn inputs_of<P: NetView>(spec: &Spec, p: &P) -> (Vec<Vec<usize>>, usize) {
    let cells = &p.placement()[..spec.cells];
    let mut out = vec![Vec::new(); spec.colours];
    let mut pieces = 0;
    for (cell, &piece) in cells.iter().enumerate() {
        if piece.is_some() {
            pieces += 1;
            for (of, v) in out.iter_mut().enumerate() {
                v.push(spec.board_input(of, piece.colour(), piece.kind(), cell));
            }
        }
    }
    for c in 0..spec.colours {
        for k in 0..spec.kinds {
            let n = p.hand_count(Colour(c as u8), k as Kind).min(HAND_CAP);
            for i in 1..=n {
                for (of, v) in out.iter_mut().enumerate() {
                    v.push(spec.hand_input(of, Colour(c as u8), k as Kind, i));
                }
            }
        }
    }
    (out, pieces)
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
        let them = (us + 1) % self.spec.colours;
        self.output(&acc[us], &acc[them], self.spec.bucket(pieces, self.buckets))
    }
}

/// One position's accumulators in an [`EvalCache`], with what they were computed from.
#[derive(Clone, Default)]
struct Entry {
    /// The position's key (0: nothing here).
    key: u64,
    /// Its placement ...
    cells: Vec<Piece>,
    /// ... its hands (colour-major, kind within, capped at [`HAND_CAP`]) ...
    hands: Vec<u8>,
    /// ... and its pieces on the board.
    pieces: usize,
    /// Each colour's accumulator, one after the other.
    acc: Vec<i16>,
}

/// How many plies back the cache looks for accumulators to update from.
const CACHE_REACH: usize = 64;

/// More changed inputs than this in one update: summed from nothing instead.
const MAX_CHANGES: usize = 32;

/// What a search thread's evaluation keeps from one call to the next: the network it plays
/// with (if any) and the accumulators of the positions along the line being searched, by
/// their number of moves since the search's game began (the history's length).
#[derive(Default)]
pub struct EvalCache {
    net: Option<Arc<Net>>,
    entries: Vec<Entry>,
}

impl EvalCache {
    /// A cache for a search of `variant`, with the network it plays with now.
    pub fn for_variant(variant: Variant) -> EvalCache {
        EvalCache {
            net: current(variant),
            entries: Vec::new(),
        }
    }

    /// A cache that evaluates with `net`.
    pub fn with_net(net: Arc<Net>) -> EvalCache {
        EvalCache {
            net: Some(net),
            entries: Vec::new(),
        }
    }

    /// The network's evaluation of `p` for the team to move, or `None` without a network.
    #[inline]
    pub fn evaluate<P: NetView>(&mut self, p: &P) -> Option<i32> {
        let net = self.net.as_deref()?;
        let spec = &net.spec;
        let len = p.history_len();
        if self.entries.len() <= len {
            self.entries.resize(len + 1, Entry::default());
        }
        let key = p.key_at(len);
        if self.entries[len].key != key {
            fill(net, &mut self.entries, len, p);
        }
        let e = &self.entries[len];
        let h = net.hidden;
        let us = p.side_to_move().idx();
        let them = (us + 1) % spec.colours;
        Some(net.output(
            &e.acc[us * h..(us + 1) * h],
            &e.acc[them * h..(them + 1) * h],
            spec.bucket(e.pieces, net.buckets),
        ))
    }
}

/// Computes entry `len` for `p`: from the nearest earlier position of the line the cache
/// holds, by the difference of the placements and hands, or from nothing.
fn fill<P: NetView>(net: &Net, entries: &mut [Entry], len: usize, p: &P) {
    let spec = &net.spec;
    let h = net.hidden;
    let cells = &p.placement()[..spec.cells];
    let mut hands = vec![0u8; spec.colours * spec.kinds];
    for c in 0..spec.colours {
        for k in 0..spec.kinds {
            hands[c * spec.kinds + k] =
                p.hand_count(Colour(c as u8), k as Kind).min(HAND_CAP) as u8;
        }
    }
    let base = (len.saturating_sub(CACHE_REACH)..len)
        .rev()
        .find(|&j| entries[j].key != 0 && entries[j].key == p.key_at(j));
    let (head, tail) = entries.split_at_mut(len);
    let e = &mut tail[0];
    e.acc.resize(spec.colours * h, 0);
    let updated = base.is_some_and(|j| {
        let b = &head[j];
        let mut add: Vec<(Colour, Kind, usize, bool)> = Vec::new();
        let mut sub: Vec<(Colour, Kind, usize, bool)> = Vec::new();
        for (cell, (&old, &new)) in b.cells.iter().zip(cells).enumerate() {
            if old != new {
                if old.is_some() {
                    sub.push((old.colour(), old.kind(), cell, false));
                }
                if new.is_some() {
                    add.push((new.colour(), new.kind(), cell, false));
                }
                if add.len() + sub.len() > MAX_CHANGES {
                    return false;
                }
            }
        }
        for (i, (&old, &new)) in b.hands.iter().zip(&hands).enumerate() {
            let (c, k) = (Colour((i / spec.kinds) as u8), (i % spec.kinds) as Kind);
            for n in new + 1..=old {
                sub.push((c, k, n as usize, true));
            }
            for n in old + 1..=new {
                add.push((c, k, n as usize, true));
            }
        }
        e.acc.copy_from_slice(&b.acc);
        let on_board = |v: &[(Colour, Kind, usize, bool)]| v.iter().filter(|x| !x.3).count();
        e.pieces = (b.pieces + on_board(&add)).saturating_sub(on_board(&sub));
        let index = |of: usize, &(c, k, at, hand): &(Colour, Kind, usize, bool)| {
            if hand {
                spec.hand_input(of, c, k, at)
            } else {
                spec.board_input(of, c, k, at)
            }
        };
        for of in 0..spec.colours {
            let a: Vec<usize> = add.iter().map(|x| index(of, x)).collect();
            let s: Vec<usize> = sub.iter().map(|x| index(of, x)).collect();
            net.update(&mut e.acc[of * h..(of + 1) * h], &a, &s);
        }
        true
    });
    if !updated {
        let (inputs, pieces) = inputs_of(spec, p);
        for (of, i) in inputs.iter().enumerate() {
            net.refresh(&mut e.acc[of * h..(of + 1) * h], i);
        }
        e.pieces = pieces;
    }
    e.cells.clear();
    e.cells.extend_from_slice(cells);
    e.hands = hands;
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

/// The embedded networks, read once each (`None`: the build embeds none).
static EMBEDDED: LazyLock<Mutex<HashMap<String, Option<Arc<Net>>>>> =
    LazyLock::new(Default::default);

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

/// The network `variant`'s build embeds.
pub fn embedded(variant: Variant) -> Option<Arc<Net>> {
    let mut cache = EMBEDDED.lock().unwrap_or_else(|e| e.into_inner());
    cache
        .entry(variant.name().to_string())
        .or_insert_with(|| {
            let bytes = embedded_bytes(variant)?;
            let net = Net::read(bytes, &Spec::of(variant))
                .unwrap_or_else(|e| panic!("the embedded network of {}: {e}", variant.name()));
            Some(Arc::new(net))
        })
        .clone()
}

/// The bytes of the network the build embeds for `variant`.
fn embedded_bytes(variant: Variant) -> Option<&'static [u8]> {
    let bytes: &'static [u8] = match variant.name() {
        "chess" => include_bytes!("../nets/chess.net"),
        _ => return None,
    };
    (!bytes.is_empty()).then_some(bytes)
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
            "the variants without a network file play with their hand-written evaluation".into(),
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
    let words = format!(
        "{} plays with the network {shown} ({} hidden neurons, {} output buckets)",
        variant.name(),
        net.hidden,
        net.buckets
    );
    CHOICE
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .files
        .insert(name, Arc::new(net));
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{AnyGame, MoveList};
    use crate::with_game;
    use rand::{Rng, SeedableRng};

    /// A network of arbitrary small weights for `variant`, whatever the build embeds.
    pub(crate) fn test_net(variant: Variant, hidden: usize) -> Net {
        let spec = Spec::of(variant);
        let w1 = (0..spec.inputs() * hidden)
            .map(|i| ((i * 7919) % 61) as i16 - 30)
            .collect();
        let w2 = (0..8 * 2 * hidden)
            .map(|i| ((i * 104_729) % 41) as i16 - 20)
            .collect();
        let b2 = (0..8).map(|i| i * 1000).collect();
        Net::new(&spec, hidden, w1, vec![40; hidden], w2, b2)
    }

    /// Along random games with moves taken back and null moves, in every variant (drops,
    /// reserves, missiles and explosions, four colours, a variant from a file), the
    /// accumulators the cache updates from the placements' differences evaluate exactly as
    /// those summed from nothing.
    #[test]
    fn cached_accumulators_equal_fresh_ones_in_every_variant() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/variants/raumschach.toml");
        let raumschach = crate::rules::defined::load_file(path).unwrap()[0];
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        for v in Variant::ALL.into_iter().chain([raumschach]) {
            let net = Arc::new(test_net(v, 32));
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
        }
    }

    /// The integer evaluation equals the formula computed plainly in floating point.
    #[test]
    fn the_output_is_the_formula() {
        let v = Variant::FutureGeneration;
        let net = test_net(v, 32);
        let g = AnyGame::startpos(v);
        let spec = &net.spec;
        let (inputs, pieces) = with_game!(&g, g => inputs_of(spec, g));
        let us = g.side_to_move().idx();
        let them = (us + 1) % spec.colours;
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
        let expect = ((sum / net::QA as f64).trunc() + net.b2[b] as f64) * net::SCALE as f64
            / (net::QA * net::QB) as f64;
        let got = with_game!(&g, g => net.evaluate_fresh(g));
        assert!(
            (got as f64 - expect.trunc()).abs() <= 1.0,
            "{got} vs {expect}"
        );
    }

    /// A network file reads back as written; one for another variant, or for another board
    /// under the same name, is refused with the reason.
    #[test]
    fn a_network_file_reads_back_and_another_boards_is_refused() {
        let net = test_net(Variant::Pentaplane, 32);
        let bytes = net.write();
        assert_eq!(Net::read(&bytes, &Spec::of(Variant::Pentaplane)), Ok(net));
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
    }
}
