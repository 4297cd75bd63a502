//! Zobrist keys.
//!
//! Keys come from a fixed SplitMix64 stream seeded by the variant's name, so they are the same
//! in every build and on every machine (the `bench` node count depends on them through the
//! transposition table).

use super::bitset::Cell;
use super::piece::Piece;

/// SplitMix64: a tiny, well-mixed, deterministic generator.
#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next 64-bit value.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// The random keys of one variant.
pub struct Zobrist {
    cells: usize,
    pieces: Vec<u64>,
    /// One key per colour to move (White's is zero, so a two-colour key is "Black to move").
    pub side: [u64; 4],
    /// Keys for whatever else the variant's state holds (castling, en passant, hands, flags);
    /// the variant decides the layout.
    pub extra: Vec<u64>,
}

impl Zobrist {
    /// Keys for a board of `cells` cells and `extra` additional state keys.
    pub fn new(seed: &str, cells: usize, extra: usize) -> Self {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in seed.bytes() {
            h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
        let mut rng = SplitMix64(h);
        let pieces = (0..Piece::CODES * cells).map(|_| rng.next_u64()).collect();
        let mut side = [0; 4];
        for s in side.iter_mut().skip(1) {
            *s = rng.next_u64();
        }
        let extra = (0..extra).map(|_| rng.next_u64()).collect();
        Zobrist {
            cells,
            pieces,
            side,
            extra,
        }
    }

    /// The key of `piece` standing on `cell`.
    #[inline(always)]
    pub fn piece(&self, piece: Piece, cell: Cell) -> u64 {
        self.pieces[piece.idx() * self.cells + cell]
    }
}
