//! Magic bitboards: the Rook's and Bishop's attacks on the 8x8 board looked up in one step.
//!
//! For each square, the squares whose occupancy can stop a slider (its rays without their
//! last square) are a mask; the occupied squares under the mask, multiplied by the square's
//! number and shifted, index a table of the attacks for that occupancy. The tables are
//! filled from the board geometry's ray slides (`Geometry::slide`), so a lookup answers
//! exactly what the slides answer, only faster: chess spends much of its time in slider
//! attacks (move generation, checks, static exchange).
//!
//! The numbers are data: any number that sends every occupancy of a square with different
//! attacks to a different index will do, and building the tables checks that. These were
//! found by trying sparse random numbers (`find_magic`, run by the ignored test
//! `find_magics`); searching for them when the tables are built took 0.15 s a process.

use crate::rules::bitset::BitSet;
use crate::rules::geometry::Geometry;

/// A set of chess squares (the same type as `tables::Bb`, named here so that the magic
/// tables need nothing from the tables that hold them).
type Bb = BitSet<1>;

/// The Rook's numbers, by square.
const ROOK_MAGICS: [u64; 64] = [
    0x0080014001815820,
    0x4040200040001001,
    0x0180100080200088,
    0x0480080004801000,
    0x4480028400800800,
    0x0a00083200430410,
    0x14002401020800d0,
    0x008014238000c700,
    0xc0a0800080204000,
    0x0004804000200080,
    0x0010801000200080,
    0x0c40800804100080,
    0x0800800400080081,
    0x0022000910048200,
    0x6800800100800200,
    0x0006000202834c01,
    0x041c808002a04002,
    0x0820414010002000,
    0x4002460012008221,
    0x0000808010000800,
    0x0310808008000400,
    0x0243010002040008,
    0x002004003002a821,
    0x5000020000408124,
    0x0000820a00204100,
    0x051000414000200b,
    0x8020080240100340,
    0x1001002100100008,
    0x0015000500102801,
    0x4000040080020080,
    0x0002040101000200,
    0x0822210200008044,
    0x28c0400020800090,
    0x0010032002404008,
    0x0040200084801008,
    0x1200090023001000,
    0x0808080080800400,
    0x0805800400800200,
    0x0000020104000850,
    0x020a800040800100,
    0x8430800040008020,
    0x0402008100420030,
    0x0001002000110040,
    0x0050008068028010,
    0x3002010820120004,
    0x0c07000804010002,
    0x21200208100c0031,
    0x0000440090620001,
    0x0014402104800100,
    0x0180208100400100,
    0x0042042012448200,
    0x4152081000230100,
    0x001d000408009100,
    0x0092000810040200,
    0x8000080210010400,
    0x000004910402e200,
    0x3000204100108a02,
    0x0001002010400081,
    0x008010c160488202,
    0x0000b00009002015,
    0x0026000820041002,
    0x0012001004484102,
    0x3220022088101904,
    0x0064840840810022,
];

/// The Bishop's numbers, by square.
const BISHOP_MAGICS: [u64; 64] = [
    0x0108011000890102,
    0x04080800a4005080,
    0x0188080064840c00,
    0x0028061040800400,
    0x0024030800000001,
    0x3002010421031829,
    0x00504c4208400001,
    0x0020840400a4040c,
    0x1001085004108408,
    0x0000110400808200,
    0x0001088820448040,
    0x4800044040800530,
    0x0000420210082040,
    0x1000061804040008,
    0x0440210108602582,
    0x0048011c02010411,
    0x0040000802440400,
    0x2020004801042080,
    0x4008201000204011,
    0x0344048824001040,
    0x4004008201210219,
    0x800a000222101201,
    0x0000400618140488,
    0x0010401088441031,
    0x2084900040500118,
    0x00b8602082020200,
    0x08c1100001040020,
    0x0850808018020022,
    0x0561010004104004,
    0x00108c8088080402,
    0x0004008084008430,
    0x0084110080804148,
    0x0008210802040880,
    0x0001104802020820,
    0x21940209049800c0,
    0x0a24200800050810,
    0x8030440401204100,
    0x2020004080010080,
    0xa210920458020100,
    0x9864011040021341,
    0x90081450c4000820,
    0x0085008821602401,
    0x1186020201000201,
    0x0800004010411200,
    0x8800080100400408,
    0x8021670111000200,
    0x0010100600954440,
    0x4104410041044200,
    0x028222120a404248,
    0x4001040101098140,
    0x19200100a8901000,
    0x000e0b0504090038,
    0x1008d11020220300,
    0x0009102021210002,
    0x0010020801540011,
    0x40b608030c208042,
    0x1008120201200800,
    0x0020020201010844,
    0x0000054884308800,
    0x0109008040208802,
    0x0000c10110020880,
    0x8c00002810c10e00,
    0x0018c03182120c41,
    0x4040820810408380,
];

/// One square's lookup: its mask, number, shift and offset into the shared table.
#[derive(Clone, Copy, Default)]
struct Entry {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

/// The attacks of one slider kind (a set of directions) from every square.
pub struct Magics {
    entries: [Entry; 64],
    attacks: Vec<u64>,
}

/// One square's occupancies under its mask, each with the slider's attacks.
struct Square {
    mask: u64,
    occupancies: Vec<(u64, u64)>,
}

impl Square {
    fn new(geo: &Geometry<1>, dirs: &[usize], sq: usize) -> Self {
        // Each ray less its last square: the edge square stops nothing beyond it.
        let mask = dirs.iter().fold(0u64, |m, &d| {
            let ray = geo.ray(sq, d);
            m | ray.and_not(edge_of(geo, ray, d)).0[0]
        });
        let attacks = |occ: u64| {
            dirs.iter()
                .fold(Bb::EMPTY, |a, &d| a | geo.slide(sq, d, BitSet([occ])))
                .0[0]
        };
        // Every subset of the mask (carry-rippler).
        let mut occupancies = Vec::with_capacity(1 << mask.count_ones());
        let mut subset = 0u64;
        loop {
            occupancies.push((subset, attacks(subset)));
            subset = subset.wrapping_sub(mask) & mask;
            if subset == 0 {
                break;
            }
        }
        Square { mask, occupancies }
    }

    fn shift(&self) -> u32 {
        64 - self.mask.count_ones()
    }

    /// Fills `table` with the attacks by the index `magic` gives each occupancy; `false` if
    /// two occupancies with different attacks share an index. `used` marks the entries
    /// filled by `attempt` (so one buffer serves many attempts).
    fn fill(&self, magic: u64, table: &mut [u64], used: &mut [u32], attempt: u32) -> bool {
        let shift = self.shift();
        self.occupancies.iter().all(|&(occ, att)| {
            let i = (occ.wrapping_mul(magic) >> shift) as usize;
            if used[i] != attempt {
                used[i] = attempt;
                table[i] = att;
                true
            } else {
                table[i] == att
            }
        })
    }
}

impl Magics {
    /// The Rook's tables (`geo`'s orthogonal directions 0..4).
    pub fn rook(geo: &Geometry<1>) -> Self {
        Self::new(geo, &[0, 1, 2, 3], &ROOK_MAGICS)
    }

    /// The Bishop's tables (`geo`'s diagonal directions 4..8).
    pub fn bishop(geo: &Geometry<1>) -> Self {
        Self::new(geo, &[4, 5, 6, 7], &BISHOP_MAGICS)
    }

    /// Builds the tables for a slider moving along `dirs` with the numbers `magics`.
    fn new(geo: &Geometry<1>, dirs: &[usize], magics: &[u64; 64]) -> Self {
        let mut entries = [Entry::default(); 64];
        let mut attacks = Vec::new();
        for (sq, entry) in entries.iter_mut().enumerate() {
            let square = Square::new(geo, dirs, sq);
            let size = 1usize << square.mask.count_ones();
            let mut table = vec![0u64; size];
            let fits = square.fill(magics[sq], &mut table, &mut vec![0; size], 1);
            assert!(
                fits,
                "magic number of square {sq} sends two attack sets to one index"
            );
            *entry = Entry {
                mask: square.mask,
                magic: magics[sq],
                shift: square.shift(),
                offset: attacks.len(),
            };
            attacks.extend_from_slice(&table);
        }
        Magics { entries, attacks }
    }

    /// The attacks from `sq` when the occupied squares are `occ`.
    #[inline(always)]
    pub fn attacks(&self, sq: usize, occ: Bb) -> Bb {
        let e = &self.entries[sq];
        let i = ((occ.0[0] & e.mask).wrapping_mul(e.magic) >> e.shift) as usize;
        BitSet([self.attacks[e.offset + i]])
    }
}

/// The last square of `ray` (a ray in direction `d`), as a set.
fn edge_of(geo: &Geometry<1>, ray: Bb, d: usize) -> Bb {
    // The ray's nearest square is its first or its last; the farthest is the other.
    let last = if geo.nearest(ray, d) == ray.first() {
        ray.last()
    } else {
        ray.first()
    };
    last.map_or(Bb::EMPTY, Bb::from_cell)
}

/// A number for `sq` found by trying sparse random numbers from `rng`.
#[cfg(test)]
fn find_magic(geo: &Geometry<1>, dirs: &[usize], sq: usize, rng: &mut SplitMix) -> u64 {
    let square = Square::new(geo, dirs, sq);
    let size = square.occupancies.len();
    let (mut table, mut used) = (vec![0u64; size], vec![0u32; size]);
    for attempt in 1.. {
        let magic = rng.next() & rng.next() & rng.next();
        if (square.mask.wrapping_mul(magic) >> 56).count_ones() >= 6
            && square.fill(magic, &mut table, &mut used, attempt)
        {
            return magic;
        }
    }
    unreachable!()
}

/// A small deterministic generator (SplitMix64).
#[cfg(test)]
struct SplitMix(u64);

#[cfg(test)]
impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

#[cfg(test)]
mod tests {
    use super::super::tables::{TABLES, bishop_attacks, rook_attacks};
    use super::*;

    /// Every lookup answers what the geometry's slides answer, on every square, for empty,
    /// full and random boards (sparse and dense).
    #[test]
    fn lookups_agree_with_the_slides() {
        let t = &*TABLES;
        let slides = |sq, occ, dirs: std::ops::Range<usize>| {
            dirs.fold(Bb::EMPTY, |a, d| a | t.geo.slide(sq, d, occ))
        };
        let mut rng = SplitMix(7);
        for sq in 0..64 {
            let mut boards = vec![0, u64::MAX];
            for _ in 0..200 {
                boards.push(rng.next() & rng.next());
                boards.push(rng.next() | rng.next());
            }
            for occ in boards {
                let occ = BitSet([occ]);
                assert_eq!(rook_attacks(t, sq, occ), slides(sq, occ, 0..4), "rook {sq}");
                assert_eq!(
                    bishop_attacks(t, sq, occ),
                    slides(sq, occ, 4..8),
                    "bishop {sq}"
                );
            }
        }
    }

    /// The search that found the numbers above (`cargo test --release find_magics --
    /// --ignored --nocapture` prints them; another seed prints another set that works as
    /// well). A set it finds builds (checked here).
    #[test]
    #[ignore]
    fn find_magics() {
        let t = &*TABLES;
        for (name, dirs) in [("ROOK", [0usize, 1, 2, 3]), ("BISHOP", [4, 5, 6, 7])] {
            let mut rng = SplitMix(0x5354_5241_5441_4d47);
            let magics: [u64; 64] =
                std::array::from_fn(|sq| find_magic(&t.geo, &dirs, sq, &mut rng));
            Magics::new(&t.geo, &dirs, &magics);
            let list: Vec<String> = magics.iter().map(|m| format!("{m:#018x}")).collect();
            println!("{name}_MAGICS: {}", list.join(", "));
        }
    }
}
