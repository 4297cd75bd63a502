//! Chess endgames the network misjudges: a lone King, which it does not drive to mate.
//!
//! Where a mate is twenty moves away the search cannot see it, and the network, trained on
//! scores mostly its own searches' (70 % of each target), gives no direction: in strata's
//! own games at 5000 nodes a move a Bishop and Knight against a lone King scored 50 %, a Rook
//! and a minor piece 83 to 88 % (`scripts/endgame_calibration.py`; docs/results.md, "Chess:
//! endgames the network misjudges", where Stockfish's classical scale factors for drawish
//! material, measured and not kept, are too).

use crate::rules::chess::ChessPosition;
use crate::rules::chess::tables::{DARK_SQUARES, distance, kind};
use crate::rules::piece::Colour;

/// A side that can force mate against a lone King evaluates as at least this ...
const LONE_KING_WIN: i32 = 2000;
/// ... plus its material (centipawns: pawn, Knight, Bishop, Rook, Queen) ...
const LONE_KING_MATERIAL: [i32; 5] = [100, 300, 300, 500, 900];
/// ... plus up to 90 for the lone King near an edge and 140 for the Kings close together;
/// with a Bishop and a Knight alone, this much for each step of the lone King towards a
/// corner of the Bishop's colour (the only corners where they mate).
const BISHOP_KNIGHT_CORNER: i32 = 60;

/// A lone King's distance from the nearest edge, by file and by rank (0 to 3 each).
fn edge_distance(sq: usize) -> (i32, i32) {
    let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
    (f.min(7 - f), r.min(7 - r))
}

/// The evaluation, for `strong`, of a position where the other side has its King alone and
/// `strong` has what forces mate (a Queen, a Rook, a Bishop and a Knight, or Bishops of both
/// colours): a sure win, worth more the nearer the lone King is to the edge (to the right
/// corner for a Bishop and Knight) and to the other King, so that the search, which cannot
/// see a mate twenty moves away, makes progress towards it. `None` elsewhere: the network
/// evaluates.
pub fn lone_king(p: &ChessPosition, strong: Colour) -> Option<i32> {
    let b = p.board();
    let weak = strong.flip();
    if b.colour(weak).len() != 1 {
        return None;
    }
    let count = |k| b.pieces(k, strong).len();
    let bishops = b.pieces(kind::BISHOP, strong);
    let on_dark = (bishops & DARK_SQUARES).any();
    let on_light = bishops.and_not(DARK_SQUARES).any();
    let (knights, heavy) = (count(kind::KNIGHT), count(kind::ROOK) + count(kind::QUEEN));
    if heavy == 0 && !(on_dark && on_light) && (knights == 0 || bishops.is_empty()) {
        return None;
    }
    let (ours, theirs) = (p.king_square(strong), p.king_square(weak));
    let (tf, tr) = ((theirs % 8) as i32, (theirs / 8) as i32);
    let mut v = LONE_KING_WIN + 140 - 20 * distance(ours, theirs);
    for (k, value) in LONE_KING_MATERIAL.iter().enumerate() {
        v += value * count(k as u8) as i32;
    }
    if heavy == 0 && knights == 1 && bishops.len() == 1 && count(kind::PAWN) == 0 {
        // Corners a1 and h8 are dark, a8 and h1 light. On the diagonal between the other two
        // corners the lone King is as far from both as it can be.
        let towards = if on_dark {
            (7 - tf - tr).abs()
        } else {
            (tf - tr).abs()
        };
        v += BISHOP_KNIGHT_CORNER * towards;
    } else {
        let (fd, rd) = edge_distance(theirs);
        v += 90 - (7 * fd * fd / 2 + 7 * rd * rd / 2);
    }
    Some(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lone(fen: &str, strong: Colour) -> Option<i32> {
        lone_king(&ChessPosition::from_fen(fen, false).unwrap(), strong)
    }

    #[test]
    fn a_lone_king_is_driven_to_the_edge_and_the_right_corner() {
        let w = Colour::WHITE;
        // A Rook: the lone King on the edge is worth more than in the centre, and the Kings
        // close together more than apart.
        let centre = lone("8/8/8/3k4/8/3K4/8/R7 w - - 0 1", w).unwrap();
        let edge = lone("3k4/8/3K4/8/8/8/8/R7 w - - 0 1", w).unwrap();
        let edge_apart = lone("3k4/8/8/8/8/8/8/R2K4 w - - 0 1", w).unwrap();
        assert!(LONE_KING_WIN < centre && centre < edge && edge_apart < edge);
        // Not for Black, whose King is alone; not with a pawn on the other side.
        assert_eq!(lone("3k4/8/8/8/8/8/8/R3K3 w - - 0 1", Colour::BLACK), None);
        assert_eq!(lone("3k4/7p/8/8/8/8/8/R3K3 w - - 0 1", w), None);
        // Two Knights, or two Bishops on one colour, do not force mate.
        assert_eq!(lone("3k4/8/8/8/8/8/8/1N2KN2 w - - 0 1", w), None);
        assert!(lone("3k4/8/8/8/8/8/8/2B1KB2 w - - 0 1", w).is_some());
        assert_eq!(lone("3k4/8/8/8/8/8/8/B3K1B1 w - - 0 1", w), None);
        // A Bishop and a Knight: a dark-squared Bishop (c1) mates in a1 or h8, so the lone
        // King on h8 is worth more than on a8.
        let right = lone("7k/8/8/8/8/8/8/2B1KN2 w - - 0 1", w).unwrap();
        let wrong = lone("k7/8/8/8/8/8/8/2B1KN2 w - - 0 1", w).unwrap();
        assert!(right > wrong + 5 * BISHOP_KNIGHT_CORNER, "{right} {wrong}");
    }

    #[test]
    fn the_search_sees_it_in_chess_only() {
        use crate::eval::Evaluate;
        use crate::eval::nnue::{self, EvalCache};
        use crate::rules::Game;
        let white = ChessPosition::from_fen("k7/8/8/8/8/8/8/2B1KN2 w - - 0 1", false).unwrap();
        let black = ChessPosition::from_fen("k7/8/8/8/8/8/8/2B1KN2 b - - 0 1", false).unwrap();
        let net = nnue::embedded(white.variant()).unwrap();
        let win = lone_king(&white, Colour::WHITE).unwrap();
        assert_eq!(
            white.evaluate_cached(&mut EvalCache::with_net(net.clone())),
            win
        );
        assert_eq!(black.evaluate_cached(&mut EvalCache::with_net(net)), -win);
        // Elsewhere, and in Pole Chess, the network's score.
        let start = ChessPosition::startpos(false);
        assert_eq!(start.adjust_network(37), 37);
        let pole = ChessPosition::from_fen("k7/8/8/8/8/8/8/2B1KN2 w - - 0 1", true).unwrap();
        assert_eq!(pole.adjust_network(37), 37);
    }
}
