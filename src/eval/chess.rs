//! Evaluation of chess and Pole Chess.
//!
//! Material (PeSTO's well-tested values), piece-square terms computed from the board's
//! geometry (centrality for pieces, advancement for pawns, back rank for the King in the
//! middlegame), mobility, King safety (attackers on the King's zone, safe checks, pawn
//! shield), pawn structure (passed, doubled, isolated, connected pawns; passed pawns' path
//! and the Kings' distances to it), Bishop pair, outposts, Rooks on open files, threats
//! (pieces attacked by lesser ones or left undefended), a fitted piece-square table, and the
//! Pole in hand in Pole Chess.

use std::sync::LazyLock;

mod endgames;

use super::geometry::centrality;
use super::standard::record;
use super::weights::{self, Weights};
use super::{Evaluate, Score, Trace};
use crate::rules::bitset::{BitSet, Cell};
use crate::rules::chess::ChessPosition;
use crate::rules::chess::tables::{Bb, TABLES, bishop_attacks, distance, kind, rook_attacks};
use crate::rules::piece::{Colour, Piece};
use crate::rules::{Game, Move, MoveFlag};

/// Material by kind (pawn, knight, bishop, rook, queen).
const MATERIAL: [Score; 5] = [
    Score(82, 94),
    Score(337, 281),
    Score(365, 297),
    Score(477, 512),
    Score(1025, 936),
];
/// Phase weight by kind ...
const PHASE: [i32; 5] = [0, 1, 1, 2, 4];
/// ... and their sum with every piece of the start position on the board.
const PHASE_TOTAL: i32 = 24;
/// Passed pawns, by rank from the pawn's side.
const PASSED: [Score; 8] = [
    Score(0, 0),
    Score(5, 10),
    Score(8, 16),
    Score(14, 30),
    Score(28, 55),
    Score(50, 95),
    Score(80, 140),
    Score(0, 0),
];
/// Pawn piece-square terms: this much per rank advanced ...
const PAWN_ADVANCE: Score = Score(3, 6);
/// ... plus this (middlegame) for a pawn of files c-f on ranks 3-5.
const PAWN_CENTRE: i32 = 6;
/// Centrality weights (middlegame, endgame), applied to the square's centrality less one half.
const KNIGHT_CENTRE: (f64, f64) = (60.0, 40.0);
/// See [`KNIGHT_CENTRE`].
const BISHOP_CENTRE: (f64, f64) = (30.0, 20.0);
/// See [`KNIGHT_CENTRE`].
const ROOK_CENTRE: (f64, f64) = (8.0, 4.0);
/// See [`KNIGHT_CENTRE`].
const QUEEN_CENTRE: (f64, f64) = (12.0, 30.0);
/// A Rook on its seventh rank.
const ROOK_SEVENTH: Score = Score(20, 10);
/// The King: a middlegame penalty for centrality (it hides), a middlegame bonus on its back
/// rank, and an endgame weight for centrality (it comes out).
const KING_CENTRE_MG: f64 = 60.0;
/// See [`KING_CENTRE_MG`].
const KING_BACK_RANK: i32 = 20;
/// See [`KING_CENTRE_MG`].
const KING_CENTRE_EG: f64 = 60.0;
/// Mobility of Knight, Bishop, Rook and Queen: the weight per square and the number of
/// squares that scores nothing.
const MOBILITY: [(Score, i32); 4] = [
    (Score(4, 4), 4),
    (Score(5, 5), 6),
    (Score(2, 4), 6),
    (Score(1, 2), 12),
];
/// King attack: the weight of each kind's attacks on the enemy King's zone ...
const KING_ATTACK_WEIGHT: [i32; 5] = [0, 2, 2, 3, 5];
/// ... squared, divided by this ...
const KING_ATTACK_DIVISOR: i32 = 16;
/// ... at most this; counted only with two attackers or more and a Queen.
const KING_ATTACK_MAX: i32 = 600;
/// A safe check (a square from which a Knight, Bishop, Rook or Queen that can go there checks
/// the King, not attacked by the King's side) adds this much to the King attack weight, once
/// per kind.
const SAFE_CHECK: [i32; 5] = [0, 8, 5, 8, 6];
/// A pawn without a pawn of its side on the adjacent files.
const ISOLATED: Score = Score(-10, -15);
/// Each pawn beyond the first on a file.
const DOUBLED: Score = Score(-10, -20);
/// Two Bishops or more.
const BISHOP_PAIR: Score = Score(30, 50);
/// A Rook on a file without own pawns but with enemy ones ...
const ROOK_SEMI_OPEN: Score = Score(12, 5);
/// ... or without any pawn.
const ROOK_OPEN: Score = Score(25, 10);
/// Middlegame bonus per own pawn in front of a castled King, up to `SHIELD_MAX` pawns.
const SHIELD_PAWN: i32 = 12;
/// See [`SHIELD_PAWN`].
const SHIELD_MAX: i32 = 3;
/// A castled King on a file without own pawns (middlegame).
const KING_OPEN_FILE: i32 = -20;
/// A Pole in hand in Pole Chess, before and after Poles become available.
const POLE_IN_HAND: Score = Score(15, 10);
/// See [`POLE_IN_HAND`].
const POLE_AVAILABLE: Score = Score(30, 20);
/// Threats: each enemy Knight, Bishop, Rook or Queen attacked by one of our pawns ...
const PAWN_THREAT: Score = Score(55, 35);
/// ... each enemy Rook or Queen attacked by one of our Knights or Bishops ...
const MINOR_THREAT: Score = Score(35, 25);
/// ... each enemy Queen attacked by one of our Rooks ...
const ROOK_THREAT: Score = Score(35, 25);
/// ... and each enemy piece (not a pawn or the King) that we attack and they do not defend.
const HANGING: Score = Score(25, 15);
/// Passed pawns' support, times the pawn's rank weight `max(0, 5 * rank - 13)` (rank 0 = its
/// first rank: 2 on the fourth rank, 17 on the seventh): in the endgame, per square (at most
/// five) of the enemy King's distance to the square in front of the pawn ...
const PASSER_THEIR_KING: i32 = 2;
/// ... less per square of our King's distance to it; and with that square empty, a bonus when
/// no square in front is attacked by the enemy ...
const PASSER_OUR_KING: i32 = 1;
/// See [`PASSER_OUR_KING`].
const PASSER_FREE_PATH: i32 = 17;
/// ... a smaller one when only squares further on are ...
const PASSER_SAFE_STOP: i32 = 10;
/// ... and this when we defend the square in front.
const PASSER_DEFENDED_STOP: i32 = 3;
/// A pawn defended by one of ours or beside one of ours on its rank (a phalanx), by rank from
/// its side: the middlegame value, doubled for a phalanx and halved when an enemy pawn stands
/// in front of it on its file; the endgame value is that times `(rank - 2) / 4`.
const CONNECTED: [i32; 8] = [0, 3, 4, 6, 14, 24, 43, 0];
/// A Knight or Bishop on an outpost (ranks 4 to 6 from its side, defended by one of our
/// pawns, out of reach of the enemy pawns): Knight ...
const KNIGHT_OUTPOST: Score = Score(30, 20);
/// ... Bishop.
const BISHOP_OUTPOST: Score = Score(15, 10);
/// The side to move's bonus.
const TEMPO: i32 = 15;
/// Without pawns, a side ahead by less than this ...
const PAWNLESS_MARGIN: i32 = 400;
/// ... has its advantage divided by this: such endings are rarely won.
const PAWNLESS_SCALE: i32 = 4;
/// Piece values for move ordering and static exchange (pawn .. King, Pole).
const VALUE: [i32; 7] = [100, 320, 330, 500, 900, 20_000, 0];

/// The evaluation's terms (the weights files name them).
const TERMS: &[&str] = &[
    "material",
    "piece-square",
    "mobility",
    "passed pawns",
    "pawn weaknesses",
    "bishop pair",
    "rook files",
    "king shield",
    "king attack",
    "pole in hand",
    "threats",
    "passer support",
    "connected pawns",
    "outposts",
];
const MATERIAL_TERM: usize = 0;
const PST_TERM: usize = 1;
const MOBILITY_TERM: usize = 2;
const PASSED_TERM: usize = 3;
const WEAK_PAWNS_TERM: usize = 4;
const BISHOP_PAIR_TERM: usize = 5;
const ROOK_FILES_TERM: usize = 6;
const SHIELD_TERM: usize = 7;
const KING_ATTACK_TERM: usize = 8;
const POLE_TERM: usize = 9;
const THREATS_TERM: usize = 10;
const PASSER_SUPPORT_TERM: usize = 11;
const CONNECTED_TERM: usize = 12;
const OUTPOST_TERM: usize = 13;

/// The piece kinds of the fitted piece-square table (`Weights::table`, `pst`), in kind
/// order: its values add to the piece-square terms computed from the geometry.
const TABLE_KINDS: &str = "PNBRQK";
/// The piece kinds of the fitted mobility table (`mob`), in kind order from the Knight ...
const MOBILITY_KINDS: &str = "NBRQ";
/// ... by the number of squares the piece reaches (a Queen reaches at most 27) ...
const MOBILITY_SQUARES: usize = 28;
/// ... whose values follow the piece-square table's: they add to the linear mobility term,
/// so that the fit can shape it (a piece that reaches nothing is worth much less than one
/// fewer square's worth less).
const MOBILITY_TABLE: usize = TABLE_KINDS.len() * 64;
/// The fitted King shelter table (`shelter`, one kind, P): for the King's file and the files
/// beside it, by the file's distance to the edge (0-3) and the rank, from the King's side, of
/// our pawn nearest our side on the file on the King's rank or in front of it (0 = none) ...
const SHELTER_TABLE: usize = MOBILITY_TABLE + MOBILITY_KINDS.len() * MOBILITY_SQUARES;
/// ... and the pawn storm table (`storm`): the same for the enemy's pawns.
const STORM_TABLE: usize = SHELTER_TABLE + 32;

/// The weights file of chess or of Pole Chess read into their terms and tables.
fn read_weights(variant: &str) -> Weights {
    let base = Weights::neutral(TERMS)
        .with_table(
            "pst",
            "KIND CELL MG EG, cells from the side's own view (a1 = 0, h8 = 63)",
            TABLE_KINDS,
            64,
        )
        .with_table(
            "mob",
            "KIND SQUARES MG EG, by the squares the piece reaches",
            MOBILITY_KINDS,
            MOBILITY_SQUARES,
        )
        .with_table(
            "shelter",
            "P INDEX MG EG, index 8 * (file's distance to the edge) + rank of our pawn",
            "P",
            32,
        )
        .with_table(
            "storm",
            "P INDEX MG EG, index 8 * (file's distance to the edge) + rank of their pawn",
            "P",
            32,
        );
    debug_assert_eq!(
        base.table_range("mob").map(|r| r.start),
        Some(MOBILITY_TABLE)
    );
    debug_assert_eq!(
        base.table_range("shelter").map(|r| r.start),
        Some(SHELTER_TABLE)
    );
    debug_assert_eq!(
        base.table_range("storm").map(|r| r.end),
        Some(base.table_len())
    );
    let text = match variant {
        "pole" => include_str!("weights/pole.txt"),
        _ => include_str!("weights/chess.txt"),
    };
    weights::builtin_from(variant, base, text)
}

/// The weights of chess and of Pole Chess.
static WEIGHTS: LazyLock<[Weights; 2]> =
    LazyLock::new(|| [read_weights("chess"), read_weights("pole")]);

/// The evaluation weights of chess, or of Pole Chess.
pub fn weights(pole: bool) -> &'static Weights {
    &WEIGHTS[pole as usize]
}

/// Precomputed terms.
struct EvalTables {
    /// Piece-square values for White, by kind (pawn .. king) and square.
    pst: [[Score; 64]; 6],
    /// Squares in front of a White / Black pawn on its file and the adjacent files.
    passed_span: [[Bb; 64]; 2],
    /// Each file's squares ...
    files: [Bb; 8],
    /// ... and each rank's.
    ranks: [Bb; 8],
    /// The adjacent files of each file.
    adjacent: [Bb; 8],
}

static EVAL: LazyLock<EvalTables> = LazyLock::new(|| {
    let cent = centrality(&TABLES.geo);
    let mut pst = [[Score::default(); 64]; 6];
    for sq in 0..64 {
        let c = cent[sq];
        let (x, y) = ((sq % 8) as i32, (sq / 8) as i32);
        let centre_file = if (2..=5).contains(&x) { 1 } else { 0 };
        let k = |(mg, eg): (f64, f64)| Score((mg * (c - 0.5)) as i32, (eg * (c - 0.5)) as i32);
        pst[kind::PAWN as usize][sq] = PAWN_ADVANCE * (y - 1)
            + Score(PAWN_CENTRE * centre_file * (2..=4).contains(&y) as i32, 0);
        pst[kind::KNIGHT as usize][sq] = k(KNIGHT_CENTRE);
        pst[kind::BISHOP as usize][sq] = k(BISHOP_CENTRE);
        pst[kind::ROOK as usize][sq] = k(ROOK_CENTRE) + ROOK_SEVENTH * (y == 6) as i32;
        pst[kind::QUEEN as usize][sq] = k(QUEEN_CENTRE);
        pst[kind::KING as usize][sq] = Score(
            -(KING_CENTRE_MG * c) as i32 + KING_BACK_RANK * (y == 0) as i32,
            (KING_CENTRE_EG * (c - 0.5)) as i32,
        );
    }
    let mut files = [Bb::EMPTY; 8];
    let mut ranks = [Bb::EMPTY; 8];
    for sq in 0..64 {
        files[sq % 8].insert(sq);
        ranks[sq / 8].insert(sq);
    }
    let adjacent = std::array::from_fn(|f| {
        let mut b = Bb::EMPTY;
        if f > 0 {
            b |= files[f - 1];
        }
        if f < 7 {
            b |= files[f + 1];
        }
        b
    });
    let passed_span = std::array::from_fn(|colour| {
        std::array::from_fn(|sq: usize| {
            let (x, y) = (sq % 8, sq / 8);
            let mut b = Bb::EMPTY;
            for s in 0..64 {
                let (sx, sy) = (s % 8, s / 8);
                let ahead = if colour == 0 { sy > y } else { sy < y };
                if ahead && sx.abs_diff(x) <= 1 {
                    b.insert(s);
                }
            }
            b
        })
    });
    EvalTables {
        pst,
        passed_span,
        files,
        ranks,
        adjacent,
    }
});

/// The square as seen from White's side (Black's squares mirrored vertically).
#[inline(always)]
fn relative(sq: Cell, colour: Colour) -> Cell {
    if colour == Colour::WHITE { sq } else { sq ^ 56 }
}

fn pawn_attacks(pawns: Bb, colour: Colour) -> Bb {
    let mut a = Bb::EMPTY;
    for p in pawns {
        a |= TABLES.pawn_attacks[colour.idx()][p];
    }
    a
}

impl ChessPosition {
    /// One side's evaluation terms (for White's point of view when `us` is White), from its
    /// pieces' terms `p` and the other side's `q`.
    fn side_terms<T: Trace>(
        &self,
        us: Colour,
        p: &PieceTerms,
        q: &PieceTerms,
        trace: &mut T,
    ) -> Score {
        let w = weights(self.is_pole());
        let (passed, weak, passers) = self.pawn_structure(us);
        let (pair, rooks) = self.piece_bonuses(us);
        let shield = self.king_shield(us);
        let mut pressure = Score::default();
        if p.attackers >= 2 && self.board().pieces(kind::QUEEN, us).any() {
            let danger = (p.attack_weight + self.safe_checks(us, p, q)) * p.attackers;
            pressure = Score(
                (danger * danger / KING_ATTACK_DIVISOR).min(KING_ATTACK_MAX),
                0,
            );
        }
        let mut pole = Score::default();
        if self.is_pole() && self.pole_in_hand(us) {
            pole = if self.poles_available() {
                POLE_AVAILABLE
            } else {
                POLE_IN_HAND
            };
        }
        // The fitted tables' values, shown with the piece-square term.
        let fitted = p.table + self.king_shelter(us, trace);
        let table = if us == Colour::WHITE {
            (fitted, Score::default())
        } else {
            (Score::default(), fitted)
        };
        trace.term(TERMS[PST_TERM], table.0, table.1);
        let mut sum = fitted
            + record(trace, w, MATERIAL_TERM, us, p.material)
            + record(trace, w, PST_TERM, us, p.pst)
            + record(trace, w, MOBILITY_TERM, us, p.mobility)
            + record(trace, w, PASSED_TERM, us, passed)
            + record(trace, w, WEAK_PAWNS_TERM, us, weak)
            + record(trace, w, BISHOP_PAIR_TERM, us, pair)
            + record(trace, w, ROOK_FILES_TERM, us, rooks)
            + record(trace, w, SHIELD_TERM, us, shield)
            + record(trace, w, KING_ATTACK_TERM, us, pressure)
            + record(trace, w, THREATS_TERM, us, self.threats(us, p, q))
            + record(
                trace,
                w,
                PASSER_SUPPORT_TERM,
                us,
                self.passer_support(us, passers, p, q),
            )
            + record(trace, w, CONNECTED_TERM, us, self.connected_pawns(us, p))
            + record(trace, w, OUTPOST_TERM, us, self.outposts(us, p));
        if self.is_pole() {
            sum += record(trace, w, POLE_TERM, us, pole);
        }
        sum
    }

    /// Material, piece-square terms and mobility of `us`'s pieces, and how they bear on the
    /// enemy King's zone (the King attack is `us`'s credit, counted on `us`'s side).
    /// `pawn_maps` holds the squares each colour's pawns attack. The fitted piece-square
    /// table's entries are reported to `trace` as they are added.
    fn piece_terms<T: Trace>(
        &self,
        us: Colour,
        pawn_maps: [Bb; 2],
        phase_sum: &mut i32,
        trace: &mut T,
    ) -> PieceTerms {
        let e = &*EVAL;
        let w = weights(self.is_pole());
        let team = us.team();
        let mut table = |i: usize| {
            trace.table(i, team);
            w.table(i)
        };
        let b = self.board();
        let them = us.flip();
        let occ = b.occupied();
        let mobility_area = TABLES
            .geo
            .all()
            .and_not(b.colour(us) | pawn_maps[them.idx()]);
        let their_king = self.king_square(them);
        let king_zone = TABLES.king[their_king] | BitSet::from_cell(their_king);
        let mut t = PieceTerms {
            pawn_attacks: pawn_maps[us.idx()],
            ..PieceTerms::default()
        };
        t.attacks = t.pawn_attacks | TABLES.king[self.king_square(us)];
        for k in 0..5u8 {
            for sq in b.pieces(k, us) {
                t.material += MATERIAL[k as usize];
                *phase_sum += PHASE[k as usize];
                t.pst += e.pst[k as usize][relative(sq, us)];
                t.table += table(k as usize * 64 + relative(sq, us));
                let att = match k {
                    kind::KNIGHT => TABLES.knight[sq],
                    kind::BISHOP => bishop_attacks(&TABLES, sq, occ),
                    kind::ROOK => rook_attacks(&TABLES, sq, occ),
                    kind::QUEEN => {
                        rook_attacks(&TABLES, sq, occ) | bishop_attacks(&TABLES, sq, occ)
                    }
                    _ => continue,
                };
                t.attacks |= att;
                match k {
                    kind::KNIGHT => t.knight_attacks |= att,
                    kind::BISHOP => t.bishop_attacks |= att,
                    kind::ROOK => t.rook_attacks |= att,
                    _ => t.queen_attacks |= att,
                }
                let mob = (att & mobility_area).len() as i32;
                let (weight, neutral) = MOBILITY[k as usize - 1];
                t.mobility += weight * (mob - neutral);
                t.table +=
                    table(MOBILITY_TABLE + (k as usize - 1) * MOBILITY_SQUARES + mob as usize);
                if att.intersects(king_zone) {
                    t.attackers += 1;
                    t.attack_weight +=
                        KING_ATTACK_WEIGHT[k as usize] * (att & king_zone).len() as i32;
                }
            }
        }
        t.pst += e.pst[kind::KING as usize][relative(self.king_square(us), us)];
        t.table += table(kind::KING as usize * 64 + relative(self.king_square(us), us));
        t
    }

    /// The squares White's and Black's pawns attack.
    fn pawn_attack_maps(&self) -> [Bb; 2] {
        let b = self.board();
        [Colour::WHITE, Colour::BLACK].map(|c| pawn_attacks(b.pieces(kind::PAWN, c), c))
    }

    /// `us`'s threats against the other side's pieces: pieces attacked by a less valuable
    /// kind, and pieces attacked and not defended. `p` and `q` are `us`'s and their terms.
    fn threats(&self, us: Colour, p: &PieceTerms, q: &PieceTerms) -> Score {
        let b = self.board();
        let them = us.flip();
        let minors = b.pieces(kind::KNIGHT, them) | b.pieces(kind::BISHOP, them);
        let rooks = b.pieces(kind::ROOK, them);
        let queens = b.pieces(kind::QUEEN, them);
        let pieces = minors | rooks | queens;
        let count = |bb: Bb| bb.len() as i32;
        PAWN_THREAT * count(pieces & p.pawn_attacks)
            + MINOR_THREAT * count((rooks | queens) & (p.knight_attacks | p.bishop_attacks))
            + ROOK_THREAT * count(queens & p.rook_attacks)
            + HANGING * count(pieces.and_not(q.attacks) & p.attacks)
    }

    /// The attack weight of `us`'s safe checks on the other King, one per kind that has one.
    fn safe_checks(&self, us: Colour, p: &PieceTerms, q: &PieceTerms) -> i32 {
        let b = self.board();
        let ksq = self.king_square(us.flip());
        let occ = b.occupied();
        let safe = TABLES.geo.all().and_not(q.attacks | b.colour(us));
        let diagonal = bishop_attacks(&TABLES, ksq, occ) & safe;
        let straight = rook_attacks(&TABLES, ksq, occ) & safe;
        let checks = [
            TABLES.knight[ksq] & safe & p.knight_attacks,
            diagonal & p.bishop_attacks,
            straight & p.rook_attacks,
            (diagonal | straight) & p.queen_attacks,
        ];
        (0..4)
            .filter(|&i| checks[i].any())
            .map(|i| SAFE_CHECK[i + 1])
            .sum()
    }

    /// Passed pawns, and isolated and doubled ones; and the passed pawns themselves.
    fn pawn_structure(&self, us: Colour) -> (Score, Score, Bb) {
        let e = &*EVAL;
        let our_pawns = self.board().pieces(kind::PAWN, us);
        let their_pawns = self.board().pieces(kind::PAWN, us.flip());
        let mut passed = Score::default();
        let mut passers = Bb::EMPTY;
        let mut weak = Score::default();
        for sq in our_pawns {
            if !e.passed_span[us.idx()][sq].intersects(their_pawns) {
                passed += PASSED[relative(sq, us) / 8];
                passers.insert(sq);
            }
            if !e.adjacent[sq % 8].intersects(our_pawns) {
                weak += ISOLATED;
            }
        }
        for file in e.files {
            let n = (file & our_pawns).len() as i32;
            if n > 1 {
                weak += DOUBLED * (n - 1);
            }
        }
        (passed, weak, passers)
    }

    /// How far `us`'s passed pawns (`passers`) can go: the Kings' distances to the square in
    /// front of each (endgame), whether that square and the ones beyond it are attacked by the
    /// other side (`q`'s attacks) and defended by ours (`p`'s); more the further the pawn is.
    fn passer_support(&self, us: Colour, passers: Bb, p: &PieceTerms, q: &PieceTerms) -> Score {
        let e = &*EVAL;
        let occ = self.board().occupied();
        // Distances beyond five squares count as five.
        let capped = |a: Cell, c: Cell| distance(a, c).min(5);
        let (ours, theirs) = (self.king_square(us), self.king_square(us.flip()));
        let mut s = Score::default();
        for sq in passers {
            let rank = (relative(sq, us) / 8) as i32;
            let w = 5 * rank - 13;
            if w <= 0 {
                continue;
            }
            let stop = if us == Colour::WHITE { sq + 8 } else { sq - 8 };
            s.1 += w
                * (capped(theirs, stop) * PASSER_THEIR_KING - capped(ours, stop) * PASSER_OUR_KING);
            if occ.contains(stop) {
                continue;
            }
            let path = e.passed_span[us.idx()][sq] & e.files[sq % 8];
            let unsafe_squares = path & q.attacks;
            let mut k = if unsafe_squares.is_empty() {
                PASSER_FREE_PATH
            } else if !unsafe_squares.contains(stop) {
                PASSER_SAFE_STOP
            } else {
                0
            };
            if p.attacks.contains(stop) {
                k += PASSER_DEFENDED_STOP;
            }
            s += Score(k * w, k * w);
        }
        s
    }

    /// `us`'s connected pawns: defended by a pawn of ours (`p.pawn_attacks`) or beside one.
    fn connected_pawns(&self, us: Colour, p: &PieceTerms) -> Score {
        let e = &*EVAL;
        let b = self.board();
        let our_pawns = b.pieces(kind::PAWN, us);
        let their_pawns = b.pieces(kind::PAWN, us.flip());
        let mut s = Score::default();
        for sq in our_pawns {
            let rank = relative(sq, us) / 8;
            let beside = e.adjacent[sq % 8] & e.ranks[sq / 8];
            let phalanx = beside.intersects(our_pawns);
            if !phalanx && !p.pawn_attacks.contains(sq) {
                continue;
            }
            let opposed = (e.passed_span[us.idx()][sq] & e.files[sq % 8]).intersects(their_pawns);
            let v = CONNECTED[rank] * (1 + phalanx as i32) / (1 + opposed as i32);
            s += Score(v, v * (rank as i32 - 2) / 4);
        }
        s
    }

    /// `us`'s Knights and Bishops on outposts: ranks 4 to 6 from `us`'s side, defended by a
    /// pawn of ours, and no enemy pawn on an adjacent file that could still attack the square.
    fn outposts(&self, us: Colour, p: &PieceTerms) -> Score {
        let e = &*EVAL;
        let b = self.board();
        let their_pawns = b.pieces(kind::PAWN, us.flip());
        let mut s = Score::default();
        for (k, bonus) in [
            (kind::KNIGHT, KNIGHT_OUTPOST),
            (kind::BISHOP, BISHOP_OUTPOST),
        ] {
            for sq in b.pieces(k, us) {
                let rank = relative(sq, us) / 8;
                let reachable = e.passed_span[us.idx()][sq] & e.adjacent[sq % 8];
                if (3..=5).contains(&rank)
                    && p.pawn_attacks.contains(sq)
                    && !reachable.intersects(their_pawns)
                {
                    s += bonus;
                }
            }
        }
        s
    }

    /// The Bishop pair, and Rooks on open and semi-open files.
    fn piece_bonuses(&self, us: Colour) -> (Score, Score) {
        let e = &*EVAL;
        let b = self.board();
        let our_pawns = b.pieces(kind::PAWN, us);
        let their_pawns = b.pieces(kind::PAWN, us.flip());
        let mut pair = Score::default();
        if b.pieces(kind::BISHOP, us).more_than_one() {
            pair = BISHOP_PAIR;
        }
        let mut rooks = Score::default();
        for sq in b.pieces(kind::ROOK, us) {
            let file = e.files[sq % 8];
            if !file.intersects(our_pawns) {
                rooks += if file.intersects(their_pawns) {
                    ROOK_SEMI_OPEN
                } else {
                    ROOK_OPEN
                };
            }
        }
        (pair, rooks)
    }

    /// The fitted shelter and storm values of `us`'s King ([`SHELTER_TABLE`], [`STORM_TABLE`]),
    /// reported to `trace` as they are added. A King on an edge file counts as on the next.
    fn king_shelter<T: Trace>(&self, us: Colour, trace: &mut T) -> Score {
        let e = &*EVAL;
        let w = weights(self.is_pole());
        let b = self.board();
        let ksq = self.king_square(us);
        let king_rank = relative(ksq, us) / 8;
        let mut front = Bb::EMPTY;
        for r in king_rank..8 {
            front |= e.ranks[relative(r * 8, us) / 8];
        }
        let nearest = |pawns: Bb| pawns.into_iter().map(|sq| relative(sq, us) / 8).min();
        let ours = b.pieces(kind::PAWN, us) & front;
        let theirs = b.pieces(kind::PAWN, us.flip()) & front;
        let centre = (ksq % 8).clamp(1, 6);
        let mut s = Score::default();
        for f in centre - 1..=centre + 1 {
            let edge = f.min(7 - f) * 8;
            for (table, pawns) in [(SHELTER_TABLE, ours), (STORM_TABLE, theirs)] {
                let i = table + edge + nearest(pawns & e.files[f]).unwrap_or(0);
                trace.table(i, us.team());
                s += w.table(i);
            }
        }
        s
    }

    /// The shield of own pawns in front of a King on its first three ranks, and an open
    /// file in front of it (middlegame only).
    fn king_shield(&self, us: Colour) -> Score {
        let e = &*EVAL;
        let our_pawns = self.board().pieces(kind::PAWN, us);
        let ksq = self.king_square(us);
        let home = if us == Colour::WHITE { 0..=2 } else { 5..=7 };
        if !home.contains(&(ksq / 8)) {
            return Score::default();
        }
        let files = e.files[ksq % 8] | e.adjacent[ksq % 8];
        let front = e.passed_span[us.idx()][ksq] & files;
        let shield =
            (front & our_pawns & (TABLES.king[ksq] | pawn_step_zone(ksq, us))).len() as i32;
        let mut safety = Score(SHIELD_PAWN * shield.min(SHIELD_MAX), 0);
        if !e.files[ksq % 8].intersects(our_pawns) {
            safety += Score(KING_OPEN_FILE, 0);
        }
        safety
    }
}

/// Material, piece-square terms and mobility of one side's pieces, and their attacks on the
/// enemy King's zone.
#[derive(Default)]
struct PieceTerms {
    material: Score,
    pst: Score,
    /// The fitted piece-square table's values (added as they are, no weight).
    table: Score,
    mobility: Score,
    attackers: i32,
    attack_weight: i32,
    /// The squares the side's pawns attack, its Knights, Bishops, Rooks, Queens, and all its
    /// pieces (the King included).
    pawn_attacks: Bb,
    knight_attacks: Bb,
    bishop_attacks: Bb,
    rook_attacks: Bb,
    queen_attacks: Bb,
    attacks: Bb,
}

/// The two squares in front of the King (its shield zone beyond the adjacent squares).
fn pawn_step_zone(ksq: Cell, us: Colour) -> Bb {
    let mut b = Bb::EMPTY;
    let y = ksq / 8;
    let two = if us == Colour::WHITE {
        y + 2
    } else {
        y.wrapping_sub(2)
    };
    if two < 8 {
        let x = ksq % 8;
        for dx in [-1i32, 0, 1] {
            let nx = x as i32 + dx;
            if (0..8).contains(&nx) {
                b.insert(two * 8 + nx as usize);
            }
        }
    }
    b
}

impl Evaluate for ChessPosition {
    fn weights(&self) -> Option<&'static super::weights::Weights> {
        Some(weights(self.is_pole()))
    }

    fn evaluate_with<T: Trace>(&self, trace: &mut T) -> i32 {
        let mut phase_sum = 0;
        let pawns = self.pawn_attack_maps();
        let pw = self.piece_terms(Colour::WHITE, pawns, &mut phase_sum, trace);
        let pb = self.piece_terms(Colour::BLACK, pawns, &mut phase_sum, trace);
        let white = self.side_terms(Colour::WHITE, &pw, &pb, trace);
        let black = self.side_terms(Colour::BLACK, &pb, &pw, trace);
        let phase = phase_sum.min(PHASE_TOTAL) * 256 / PHASE_TOTAL;
        trace.phase(phase);
        let mut v = (white - black).taper(phase);
        // Without pawns, a side that is ahead by less than a Rook can rarely win.
        let b = self.board();
        let stronger = if v > 0 { Colour::WHITE } else { Colour::BLACK };
        if b.pieces(kind::PAWN, stronger).is_empty() && v.abs() < PAWNLESS_MARGIN {
            v /= PAWNLESS_SCALE;
        }
        if self.side_to_move() == Colour::WHITE {
            v + TEMPO
        } else {
            -v + TEMPO
        }
    }

    /// Chess (not Pole Chess, where it is not measured): a drive to mate where a side that
    /// can force it faces a lone King ([`endgames::lone_king`]), else the network's score.
    #[inline]
    fn adjust_network(&self, v: i32) -> i32 {
        if self.is_pole() {
            return v;
        }
        let us = self.side_to_move();
        if let Some(w) = endgames::lone_king(self, us) {
            return w;
        }
        match endgames::lone_king(self, us.flip()) {
            Some(w) => -w,
            None => v,
        }
    }

    fn piece_value(&self, piece: Piece) -> i32 {
        VALUE[piece.kind() as usize]
    }

    fn null_move_safe(&self) -> bool {
        let b = self.board();
        let us = self.side_to_move();
        (b.pieces(kind::KNIGHT, us)
            | b.pieces(kind::BISHOP, us)
            | b.pieces(kind::ROOK, us)
            | b.pieces(kind::QUEEN, us))
        .any()
    }

    /// Chess: six kinds of two colours on 64 squares, 768 arrivals. Pole Chess searches
    /// without (not measured there yet).
    fn history_shape(&self) -> Option<super::HistoryShape> {
        (!self.is_pole()).then_some(super::HistoryShape {
            kinds: 6,
            colours: 2,
            cells: 64,
        })
    }

    /// The pawns of both sides; White's other pieces and King; Black's.
    fn correction_keys(&self) -> Option<[u64; super::CORRECTION_KEYS]> {
        let b = self.board();
        let bits = |k, c| b.pieces(k, c).0[0];
        let mix = |h: u64| {
            let h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
            h ^ (h >> 29)
        };
        let pawns = bits(kind::PAWN, Colour::WHITE)
            ^ bits(kind::PAWN, Colour::BLACK)
                .rotate_left(32)
                .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let pieces = |c: Colour| {
            (kind::KNIGHT..=kind::KING).fold(c.0 as u64 + 1, |h, k| mix(h ^ bits(k, c)))
        };
        Some([mix(pawns), pieces(Colour::WHITE), pieces(Colour::BLACK)])
    }

    /// Chess and Pole Chess: measured in chess, then in Pole Chess as a whole (+19.7 Elo over
    /// 1200 games at 20000 nodes; docs/engine.md).
    fn refined_search(&self) -> bool {
        true
    }

    /// Chess only: in Pole Chess exchange pruning measured -7.0 +/- 19.3 Elo (500 games) and
    /// -11.4 +/- 21.3 (400 games), so it stays off there.
    fn see_pruning(&self) -> bool {
        !self.is_pole()
    }

    /// The swap algorithm: capture and recapture on the target square with the least valuable
    /// attacker each time (x-ray attackers join as pieces leave), each side free to stop.
    fn see(&self, mv: Move) -> i32 {
        let b = self.board();
        let (from, to) = (mv.from(), mv.to());
        if mv.flag() == MoveFlag::Drop || mv.flag() == MoveFlag::Castle {
            return 0;
        }
        let mover = b.piece_at(from);
        if mover.kind() == kind::POLE {
            return 0;
        }
        let mut occ = b.occupied();
        let mut gain = [0i32; 40];
        gain[0] = match mv.flag() {
            MoveFlag::EnPassant => {
                occ.remove(if mover.colour() == Colour::WHITE {
                    to - 8
                } else {
                    to + 8
                });
                100
            }
            _ => {
                let victim = b.piece_at(to);
                if victim.is_some() {
                    VALUE[victim.kind() as usize]
                } else {
                    0
                }
            }
        };
        let mut on_square = VALUE[mover.kind() as usize];
        if let Some(k) = mv.promotion() {
            gain[0] += VALUE[k as usize] - 100;
            on_square = VALUE[k as usize];
        }
        occ.remove(from);
        let mut side = mover.colour().flip();
        let mut d = 0;
        let mut attackers = self.attackers_to_any(to, occ) & occ;
        loop {
            let ours = attackers & b.colour(side);
            let Some((sq, k)) = (0..6u8).find_map(|k| (ours & b.kind(k)).first().map(|s| (s, k)))
            else {
                break;
            };
            // A King may not capture onto a square the other side still attacks.
            if k == kind::KING && (attackers & b.colour(side.flip())).any() {
                break;
            }
            d += 1;
            gain[d] = on_square - gain[d - 1];
            if d >= 39 {
                break;
            }
            on_square = VALUE[k as usize];
            occ.remove(sq);
            // The piece leaving uncovers what stood behind it on its line to the square: a
            // Pawn or Bishop a diagonal, a Rook a line, a Queen or King either.
            let lines = matches!(k, kind::ROOK | kind::QUEEN | kind::KING);
            let diagonals = matches!(k, kind::PAWN | kind::BISHOP | kind::QUEEN | kind::KING);
            attackers = (attackers | self.sliders_to(to, occ, lines, diagonals)) & occ;
            side = side.flip();
        }
        while d > 0 {
            gain[d - 1] = -((-gain[d - 1]).max(gain[d]));
            d -= 1;
        }
        gain[0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{Breakdown, NoTrace};

    /// The evaluation by terms (the network, where the build has one, is tested apart).
    fn eval(fen: &str) -> i32 {
        ChessPosition::from_fen(fen, false)
            .unwrap()
            .evaluate_with(&mut NoTrace)
    }

    /// The static exchange of `mv` as the swap algorithm computed it before it kept its
    /// attackers from one capture to the next: every attacker found again at each capture
    /// (and, as `see`, played out to the last capture).
    fn swap_reference(pos: &ChessPosition, mv: Move) -> i32 {
        let b = pos.board();
        let (from, to) = (mv.from(), mv.to());
        let mover = b.piece_at(from);
        if matches!(mv.flag(), MoveFlag::Drop | MoveFlag::Castle) || mover.kind() == kind::POLE {
            return 0;
        }
        let mut occ = b.occupied();
        occ.remove(from);
        let victim = b.piece_at(to);
        let mut gain = vec![if victim.is_some() {
            VALUE[victim.kind() as usize]
        } else {
            0
        }];
        if mv.flag() == MoveFlag::EnPassant {
            occ.remove(if mover.colour() == Colour::WHITE {
                to - 8
            } else {
                to + 8
            });
            gain[0] = 100;
        }
        let mut on_square = VALUE[mover.kind() as usize];
        if let Some(k) = mv.promotion() {
            gain[0] += VALUE[k as usize] - 100;
            on_square = VALUE[k as usize];
        }
        let mut side = mover.colour().flip();
        loop {
            let attackers = (pos.attackers_to(to, Colour::WHITE, occ)
                | pos.attackers_to(to, Colour::BLACK, occ))
                & occ;
            let ours = attackers & b.colour(side);
            let Some((sq, k)) = (0..6u8).find_map(|k| (ours & b.kind(k)).first().map(|s| (s, k)))
            else {
                break;
            };
            if k == kind::KING && (attackers & b.colour(side.flip())).any() {
                break;
            }
            let last = gain[gain.len() - 1];
            gain.push(on_square - last);
            on_square = VALUE[k as usize];
            occ.remove(sq);
            side = side.flip();
        }
        while gain.len() > 1 {
            let d = gain.pop().unwrap();
            let prev = gain.last_mut().unwrap();
            *prev = -((-*prev).max(d));
        }
        gain[0]
    }

    /// The swap algorithm, which keeps the attackers and adds those a capture uncovers,
    /// agrees with finding them all again at every capture, on every move along random games.
    #[test]
    fn static_exchange_keeps_its_attackers_rightly() {
        use crate::rules::MoveList;
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(11);
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "2r2rk1/1bqnbppp/p2ppn2/1p6/3NP3/1BN1BP2/PPPQ2PP/2KR3R w - - 0 1",
            "3q3k/3r4/3r4/8/3R4/3R4/3Q2B1/K7 w - - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        ];
        let (mut checked, mut losing) = (0, 0);
        for fen in fens {
            let mut pos = ChessPosition::from_fen(fen, false).unwrap();
            for _ in 0..60 {
                let mut list = MoveList::new();
                pos.generate(&mut list);
                if list.is_empty() {
                    break;
                }
                for &m in list.as_slice() {
                    let want = swap_reference(&pos, m);
                    assert_eq!(pos.see(m), want, "{} {m:?}", pos.fen());
                    checked += 1;
                    losing += (want < 0) as usize;
                }
                pos.make(list.as_slice()[rng.gen_range(0..list.len())]);
            }
        }
        assert!(
            checked > 2000 && losing > 100,
            "{checked} moves, {losing} losing"
        );
    }

    #[test]
    fn symmetric_positions_differ_only_by_tempo() {
        assert_eq!(
            eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            15
        );
        assert_eq!(
            eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"),
            15
        );
        // Mirror images evaluate the same for the side to move.
        let a = eval("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
        let b = eval("r3k2r/pppbbppp/2n2q1P/1P2p3/3pn3/BN2PNP1/P1PPQPB1/R3K2R b KQkq - 0 1");
        assert_eq!(a, b);
    }

    #[test]
    fn material_and_breakdown_agree() {
        assert!(eval("4k3/8/8/8/8/8/8/3QK3 w - - 0 1") > 800);
        assert!(eval("4k3/8/8/8/8/8/8/3QK3 b - - 0 1") < -800);
        let p = ChessPosition::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            false,
        )
        .unwrap();
        let mut t = Breakdown::default();
        assert_eq!(p.evaluate_with(&mut t), p.evaluate_with(&mut NoTrace));
        assert!(t.terms.iter().any(|x| x.0 == "mobility"));
    }

    #[test]
    fn static_exchange() {
        let see = |fen: &str, m: &str| {
            let p = ChessPosition::from_fen(fen, false).unwrap();
            let mv = p.parse_move(m).unwrap();
            p.see(mv)
        };
        // Pawn takes an undefended Knight: +320.
        assert_eq!(see("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5"), 320);
        // Queen takes a pawn defended by a pawn: loses the Queen for a pawn.
        assert_eq!(see("4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", "d1d5"), 100 - 900);
        // Rook takes a Rook defended by a Rook; the Rook behind recaptures through the x-ray:
        // White takes two Rooks and loses one.
        assert_eq!(see("3rk3/8/8/3r4/8/8/3R4/3RK3 w - - 0 1", "d2d5"), 500);
        // Without the Rook behind it is an even trade.
        assert_eq!(see("3rk3/8/8/3r4/8/8/3R4/4K3 w - - 0 1", "d2d5"), 0);
        // Knight takes a pawn defended by a Bishop: loses 220.
        assert_eq!(
            see("4k3/8/8/3p4/2b5/4N3/8/4K3 w - - 0 1", "e3d5"),
            100 - 320
        );
        // Kiwipete's Be2-c4: Nxc4 Nxc4 Bxc4 loses the Bishop for a Knight and then the Knight
        // too, -330. The swap's old early stop (when neither side's next capture looked
        // profitable) ended after Nxc4 Nxc4 and returned -10: the right sign, the wrong size,
        // which ProbCut's and the exchange pruning's margins read.
        assert_eq!(
            see(
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                "e2c4"
            ),
            -330
        );
    }

    /// White's and Black's weighted threats term.
    /// The position of `fen` and White's and Black's piece terms.
    fn with_terms(fen: &str) -> (ChessPosition, PieceTerms, PieceTerms) {
        let p = ChessPosition::from_fen(fen, false).unwrap();
        let pawns = p.pawn_attack_maps();
        let w = p.piece_terms(Colour::WHITE, pawns, &mut 0, &mut NoTrace);
        let b = p.piece_terms(Colour::BLACK, pawns, &mut 0, &mut NoTrace);
        (p, w, b)
    }

    /// White's unweighted passer support, connected pawns and outposts.
    fn pawn_and_outpost_terms(fen: &str) -> (Score, Score, Score) {
        let (p, w, b) = with_terms(fen);
        (
            p.passer_support(Colour::WHITE, p.pawn_structure(Colour::WHITE).2, &w, &b),
            p.connected_pawns(Colour::WHITE, &w),
            p.outposts(Colour::WHITE, &w),
        )
    }

    /// Each correction key follows its own pieces only: the pawns', White's other pieces',
    /// Black's; the same placement gives the same keys whatever the side to move.
    #[test]
    fn correction_keys_follow_their_pieces() {
        let keys = |fen| {
            ChessPosition::from_fen(fen, false)
                .unwrap()
                .correction_keys()
                .unwrap()
        };
        let start = keys("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        // A White Knight moves: White's piece key alone changes.
        let knight = keys("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1");
        assert_eq!((knight[0], knight[2]), (start[0], start[2]));
        assert_ne!(knight[1], start[1]);
        // A pawn moves: the pawn key alone.
        let pawn = keys("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        assert_eq!((pawn[1], pawn[2]), (start[1], start[2]));
        assert_ne!(pawn[0], start[0]);
        // A Black Knight moves: Black's piece key alone.
        let black = keys("rnbqkb1r/pppppppp/5n2/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 1 2");
        assert_eq!((black[0], black[1]), (start[0], start[1]));
        assert_ne!(black[2], start[2]);
        // The two sides' pieces on mirrored squares give different keys; the side to move
        // is not in them (the history is kept per side to move).
        assert_ne!(start[1], start[2]);
        assert_eq!(
            keys("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"),
            start
        );
        // A Knight and a Bishop that swap squares change the key.
        let swapped = keys("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RBNQKBNR w KQkq - 0 1");
        assert_ne!(swapped[1], start[1]);
    }

    #[test]
    fn passed_pawns_are_supported_by_a_free_path_and_the_kings_distances() {
        let support = |fen| pawn_and_outpost_terms(fen).0;
        // d7, rank weight 17: a free path (17 each) and the Kings 5 (a3) and 5 (h1, capped)
        // squares from d8: 17 * 17 = 289, endgame plus 17 * (5 * 2 - 5 * 1).
        assert_eq!(support("8/3P4/8/8/8/k7/8/7K w - - 0 1"), Score(289, 374));
        // The enemy King attacks d8: no path bonus, and it is one square from it.
        assert_eq!(
            support("2k5/3P4/8/8/8/8/8/7K b - - 0 1"),
            Score(0, 17 * (2 - 5))
        );
        // It stands on d8: blocked, distance 0.
        assert_eq!(support("3k4/3P4/8/8/8/8/8/7K w - - 0 1"), Score(0, -85));
        // Our King defends d8 as well (17 + 3 per rank weight), one square from it.
        assert_eq!(
            support("8/2KP4/8/8/8/k7/8/8 w - - 0 1"),
            Score(20 * 17, 20 * 17 + 17 * (5 * 2 - 1))
        );
        // A pawn on its third rank weighs nothing; a pawn that is not passed counts not.
        assert_eq!(support("8/8/8/8/8/3P3k/8/7K w - - 0 1"), Score(0, 0));
        assert_eq!(support("8/4p3/8/3P4/8/7k/8/7K w - - 0 1"), Score(0, 0));
    }

    #[test]
    fn connected_pawns_are_defended_or_side_by_side() {
        let connected = |fen| pawn_and_outpost_terms(fen).1;
        // e3 defends d4 (fourth rank, 6): endgame 6 * (3 - 2) / 4 = 1; e3 itself is neither.
        assert_eq!(connected("4k3/8/8/8/3P4/4P3/8/4K3 w - - 0 1"), Score(6, 1));
        // d4 and e4 side by side: 12 each, endgame 3 each.
        assert_eq!(connected("4k3/8/8/8/3PP3/8/8/4K3 w - - 0 1"), Score(24, 6));
        // With an enemy pawn in front of d4 on its file, d4's share is halved.
        assert_eq!(
            connected("4k3/8/3p4/8/3PP3/8/8/4K3 w - - 0 1"),
            Score(18, 4)
        );
        // Apart: nothing.
        assert_eq!(connected("4k3/8/8/8/2P1P3/8/8/4K3 w - - 0 1"), Score(0, 0));
    }

    #[test]
    fn outposts_are_defended_by_a_pawn_and_out_of_the_enemy_pawns_reach() {
        let outposts = |fen| pawn_and_outpost_terms(fen).2;
        assert_eq!(
            outposts("4k3/8/8/3N4/4P3/8/8/4K3 w - - 0 1"),
            KNIGHT_OUTPOST
        );
        assert_eq!(
            outposts("4k3/8/8/3B4/4P3/8/8/4K3 w - - 0 1"),
            BISHOP_OUTPOST
        );
        // A c7 pawn could come to c6 and chase the Knight away.
        assert_eq!(outposts("4k3/2p5/8/3N4/4P3/8/8/4K3 w - - 0 1"), Score(0, 0));
        // Undefended, or on the third rank: no outpost.
        assert_eq!(outposts("4k3/8/8/3N4/8/8/8/4K3 w - - 0 1"), Score(0, 0));
        assert_eq!(outposts("4k3/8/8/8/8/3N4/4P3/4K3 w - - 0 1"), Score(0, 0));
    }

    fn threats(fen: &str) -> (Score, Score) {
        let p = ChessPosition::from_fen(fen, false).unwrap();
        let mut t = Breakdown::default();
        p.evaluate_with(&mut t);
        let (_, white, black) = *t.terms.iter().find(|x| x.0 == "threats").unwrap();
        (white, black)
    }

    #[test]
    fn threats_count_attacks_by_lesser_pieces_and_undefended_pieces() {
        // A pawn attacks an undefended Knight: a threat and a hanging piece; Black's Knight
        // threatens nothing (pawns do not count).
        let (white, black) = threats("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1");
        assert_eq!(black, Score::default());
        assert!(white.0 > 0 && white.1 > 0, "{white:?}");
        // Defended by a pawn, the Knight is still attacked by a pawn but no longer hanging.
        let (defended, _) = threats("4k3/8/4p3/3n4/4P3/8/8/4K3 w - - 0 1");
        assert!(
            defended.0 > 0 && defended.0 < white.0,
            "{defended:?} {white:?}"
        );
        // Nothing attacked, no threat.
        let (none, _) = threats("4k3/8/8/3n4/8/4P3/8/4K3 w - - 0 1");
        assert_eq!(none, Score::default());
    }

    #[test]
    fn a_check_is_safe_only_where_the_king_side_does_not_attack() {
        let checks = |fen: &str| {
            let p = ChessPosition::from_fen(fen, false).unwrap();
            let pawns = p.pawn_attack_maps();
            let w = p.piece_terms(Colour::WHITE, pawns, &mut 0, &mut NoTrace);
            let b = p.piece_terms(Colour::BLACK, pawns, &mut 0, &mut NoTrace);
            p.safe_checks(Colour::WHITE, &w, &b)
        };
        // The Knight on e5 checks from f7 (nobody guards it) and g6 (the h7 pawn does).
        assert_eq!(
            checks("7k/6pp/8/4N3/8/8/8/4K3 w - - 0 1"),
            SAFE_CHECK[kind::KNIGHT as usize]
        );
        // With a Rook on f8 guarding f7, no check is safe.
        assert_eq!(checks("5r1k/6pp/8/4N3/8/8/8/4K3 w - - 0 1"), 0);
    }

    /// The table entries an evaluation adds, by team.
    #[derive(Default)]
    struct Entries([Vec<usize>; 2]);

    impl Trace for Entries {
        fn term(&mut self, _: &'static str, _: Score, _: Score) {}
        fn phase(&mut self, _: i32) {}
        fn table(&mut self, entry: usize, team: usize) {
            self.0[team].push(entry);
        }
    }

    #[test]
    fn shelter_and_storm_entries_by_edge_distance_and_nearest_pawn() {
        let fen = "6k1/5p1p/6p1/7P/8/7P/5PP1/6K1 w - - 0 1";
        let p = ChessPosition::from_fen(fen, false).unwrap();
        let mut e = Entries::default();
        p.evaluate_with(&mut e);
        let pick = |team: usize, table: usize| {
            let mut v: Vec<usize> = e.0[team]
                .iter()
                .filter(|&&i| (table..table + 32).contains(&i))
                .map(|&i| i - table)
                .collect();
            v.sort();
            v
        };
        // White: King g1 (files f, g, h at edge distances 2, 1, 0); pawns f2, g2, h3 (the
        // nearest on h; h5 is further); Black's pawns h7, g6, f7 (ranks 6, 5, 6 from White's
        // side) are the storm.
        assert_eq!(pick(0, SHELTER_TABLE), [2, 8 + 1, 16 + 1]);
        assert_eq!(pick(0, STORM_TABLE), [6, 8 + 5, 16 + 6]);
        // Black: King g8, pawns f7, g6, h7 (ranks 1, 2, 1 from Black's side); White's h5
        // (rank 3 from Black's side) is nearer than h3, g2 and f2 are on rank 6.
        assert_eq!(pick(1, SHELTER_TABLE), [1, 8 + 2, 16 + 1]);
        assert_eq!(pick(1, STORM_TABLE), [3, 8 + 6, 16 + 6]);
        // A King on the a file takes the files a, b, c; one on a pawnless board finds none.
        let bare = ChessPosition::from_fen("8/8/8/8/8/8/8/K6k w - - 0 1", false).unwrap();
        let mut e = Entries::default();
        bare.evaluate_with(&mut e);
        let shelter: Vec<usize> = e.0[0]
            .iter()
            .filter(|&&i| (SHELTER_TABLE..SHELTER_TABLE + 32).contains(&i))
            .map(|&i| i - SHELTER_TABLE)
            .collect();
        assert_eq!(shelter, [0, 8, 16]);
    }

    #[test]
    fn a_pole_in_hand_is_worth_something() {
        let with = ChessPosition::from_fen("4k3/8/8/8/8/8/8/4K3[Oo+] w - - 0 1", true)
            .unwrap()
            .evaluate();
        let without = ChessPosition::from_fen("4k3/8/8/8/8/8/O7/4K3[o+] w - - 0 1", true)
            .unwrap()
            .evaluate();
        assert!(with > without, "{with} vs {without}");
    }
}
