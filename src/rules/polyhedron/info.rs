//! What the variant declares about itself beside its rules (see [`VariantInfo`]).

use super::fen::START_FEN;
use crate::rules::info::{LevelOrder, VariantInfo, piece};

/// Polyhedron Chess.
pub const INFO: VariantInfo = VariantInfo {
    name: "polyhedron",
    title: "Polyhedron Chess",
    summary: "five levels from 6x6 to 10x10, 14 kinds of piece, promotion from captured pieces",
    start_fen: START_FEN,
    colours: 2,
    bench_positions: &[
        START_FEN,
        "pg3p/4p1/1p2p1/6/5P/PPPH2|4u1wg/3pps1p/8/2h5/8/5P2/P1PPP1PP/3UUH2|d1a1qkfagd/r2uuuubnr/p3ppp1hp/wp7w/2p4p2/10/1P5f1P/P1P3P2G/RN1UUUU1N1/1DAFQKF1SD|1w1uu3/1p1ppppp/8/8/8/3P3W/P1P1PPPP/1W1U1H1B|spppp1/p5/5p/6/6/P1PPPP[RBAHWWSGGGbnhhg] w - 0 51",
        "p3ap/6/1p4/6/2H3/1PPPP1|3uu1w1/2ppp1hp/7n/8/8/N6N/P1PP4/1W1U1H2|1safqk4/1r2u4g/pDp2pp1p1/4h2p2/6h3/PP8/4P5/2PP1PPf2/R2AUU4/DF2Q3G1|1g1uu3/1p1u1p1p/8/8/8/8/WPPPPPP1/2GUK3|p1pp2/3p2/4pp/6/1P1H2/2PP1P[RBBUFAHWWSSGGrbbddnhwwwsgg] w - 0 71",
    ],
    bench_depth: 6,
    strength: &[
        (0.0, 779.0),
        (3.0, 1009.0),
        (5.0, 1101.0),
        (6.0, 1157.0),
        (6.2, 1209.0),
        (6.5, 1480.0),
        (7.0, 1761.0),
        (10.0, 1768.0),
        (15.0, 1857.0),
    ],
    pieces: &[
        piece('K', "King"),
        piece('Q', "Queen"),
        piece('R', "Rook"),
        piece('B', "Bishop"),
        piece('U', "Unicorn"),
        piece('F', "Favourite"),
        piece('D', "Dragon"),
        piece('A', "Archbishop"),
        piece('N', "Knight"),
        piece('H', "Hippogriff"),
        piece('W', "Wyvern"),
        piece('S', "Space Knight"),
        piece('G', "Gargoyle"),
        piece('P', "Pawn"),
    ],
    level_order: LevelOrder::BottomUp,
    levels_detail: "each level is centred on the one below",
};
