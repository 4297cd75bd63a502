//! What the variant declares about itself beside its rules (see [`VariantInfo`]).

use super::fen::{POLE_START_FEN, START_FEN};
use crate::rules::info::{FIDE_PIECES, LevelOrder, VariantInfo, fide_pieces_and, piece};

/// FIDE chess.
pub const CHESS: VariantInfo = VariantInfo {
    name: "chess",
    title: "Chess",
    summary: "the classic game on one 8x8 board, by the FIDE Laws",
    start_fen: START_FEN,
    colours: 2,
    bench_positions: &[
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 2 8",
        "8/8/4k3/3p4/3P4/4K3/8/8 w - - 0 1",
    ],
    bench_depth: 11,
    strength: &[
        (0.0, 410.0),
        (3.0, 773.0),
        (5.0, 1209.0),
        (6.11, 1450.0),
        (7.40, 1700.0),
        (16.06, 1900.0),
        (17.0, 1965.0),
        (17.79, 2100.0),
        (18.94, 2200.0),
        (19.72, 2300.0),
        (19.97, 2400.0),
        (20.0, 2430.0),
    ],
    pieces: &FIDE_PIECES,
    level_order: LevelOrder::BottomUp,
    levels_detail: "",
};

/// Pole Chess.
pub const POLE: VariantInfo = VariantInfo {
    name: "pole",
    title: "Pole Chess",
    summary: "chess plus a blocker each side drops and teleports",
    start_fen: POLE_START_FEN,
    colours: 2,
    bench_positions: &[
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Oo] w KQkq - 0 1",
        "rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR[Oo+] b KQkq - 0 2",
        "r3k2r/p1ppqpb1/bn2pnp1/2oPN3/1p1OP3/2N2Q1p/PPPBBPPP/R3K2R[+] w KQkq - 0 1",
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R[Oo+] w KQ - 2 8",
    ],
    bench_depth: 11,
    strength: &[
        (0.0, 467.0),
        (3.0, 775.0),
        (4.0, 914.0),
        (5.0, 1100.0),
        (6.0, 1291.0),
        (7.0, 1414.0),
        (10.0, 1768.0),
        (15.0, 2246.0),
        (19.0, 2612.0),
    ],
    pieces: &fide_pieces_and(piece('O', "Pole")),
    level_order: LevelOrder::BottomUp,
    levels_detail: "",
};
