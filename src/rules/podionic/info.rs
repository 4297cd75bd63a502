//! What the variant declares about itself beside its rules (see [`VariantInfo`]).

use super::fen::START_FEN;
use crate::rules::info::{FIDE_PIECES, LevelOrder, VariantInfo};

/// Podionic Chess.
pub const INFO: VariantInfo = VariantInfo {
    name: "podionic",
    title: "Podionic Chess",
    summary: "four 4x4 boards in an overlapping spiral, where sliders change level",
    start_fen: START_FEN,
    colours: 2,
    bench_positions: &[
        START_FEN,
        "1p2/kbp1/np2/1p2|1rr1/4/nqb1/pp2|P1pp/NPP1/1B2/1RRP|3P/NP1Q/KP2/B2P w 1 13",
        "bp2/kp2/np2/2pp|brr1/1q1p/npp1/4|4/NP2/1RP1/B1RP|2PP/3P/1PN1/BK1P w 0 13",
    ],
    bench_depth: 10,
    strength: &[
        (0.0, 582.0),
        (3.0, 834.0),
        (5.0, 1247.0),
        (7.0, 1516.0),
        (10.0, 1768.0),
        (15.0, 2299.0),
        (19.0, 2662.0),
    ],
    pieces: &FIDE_PIECES,
    level_order: LevelOrder::TopDown,
    levels_detail: "each overlaps two others, and a square shared by levels is marked",
};
