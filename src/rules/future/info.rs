//! What the variant declares about itself beside its rules (see [`VariantInfo`]).

use super::fen::START_FEN;
use crate::rules::info::{LevelOrder, VariantInfo, fide_pieces_and, piece};

/// Chess – The Future Generation.
pub const INFO: VariantInfo = VariantInfo {
    name: "future-generation",
    title: "Chess – The Future Generation",
    summary: "four players in two teams on four stacked 8x8 boards; Kings are captured",
    start_fen: START_FEN,
    colours: 4,
    bench_positions: &[
        START_FEN,
        "7bK/8/1wN6/3bC4/8/6bN1/8/4wK3|8/8/8/8/3wC4/8/8/8|8/8/8/4gC3/4sC3/8/8/8|7gK/8/8/2gN5/5sN2/8/8/sK7 w - - wg - 0 1",
        "bR3bK3/7bP/8/4wQ3/8/8/8/4wK3|8/1gQ6/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/sK6gK/sB7/8/8 w - - g - 0 1",
    ],
    bench_depth: 7,
    strength: &[
        (0.0, 1124.0),
        (2.0, 1314.0),
        (4.0, 1470.0),
        (6.0, 1634.0),
        (7.0, 1719.0),
        (10.0, 1768.0),
        (15.0, 1975.0),
        (19.0, 2198.0),
    ],
    pieces: &fide_pieces_and(piece('C', "Crowned Knight")),
    level_order: LevelOrder::TopDown,
    levels_detail: "White and Black start on A, Gold and Silver on D",
};
