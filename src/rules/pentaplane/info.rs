//! What the variant declares about itself beside its rules (see [`VariantInfo`]).

use super::fen::START_FEN;
use crate::rules::info::{LevelOrder, VariantInfo, piece};

/// Pentaplane V.
pub const INFO: VariantInfo = VariantInfo {
    name: "pentaplane",
    title: "Pentaplane V",
    summary: "a 5x5x5 cube, missile pieces that shoot and bombs that explode; capture the King",
    start_fen: START_FEN,
    colours: 2,
    bench_positions: &[
        START_FEN,
        "5/5/5/5/5|ppppp/5/5/5/PPPPP|rokmz/ppppp/5/PPPPP/ZMKOR|ppppp/5/5/5/PPPPP|5/5/5/5/5 w 0 1",
        "5/5/5/5/5|ppppp/5/5/5/PPPPP|fnkos/ppppp/5/PPPPP/FNKOS|ppppp/5/5/5/PPPPP|5/5/5/5/5 w 0 1",
        "5/5/5/1F3/4N|5/5/5/5/5|4k/3o1/2O2/1o3/5|4p/5/5/5/5|5/4r/5/5/K4 w 0 1",
    ],
    bench_depth: 9,
    strength: &[
        (0.0, 831.0),
        (3.0, 991.0),
        (5.0, 1292.0),
        (7.0, 1493.0),
        (10.0, 1768.0),
        (15.0, 2081.0),
    ],
    pieces: &[
        piece('P', "Pawn"),
        piece('N', "Knight"),
        piece('B', "Bishop"),
        piece('R', "Rook"),
        piece('C', "Cuber"),
        piece('Q', "True Queen"),
        piece('K', "King"),
        piece('F', "Fortress"),
        piece('M', "Missile Bishop"),
        piece('S', "Satellite"),
        piece('O', "Bomb"),
        piece('Z', "Kamikaze Queen"),
    ],
    level_order: LevelOrder::BottomUp,
    levels_detail: "",
};
