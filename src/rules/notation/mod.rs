//! Readable notation: the names people read and write for moves (`docs/notation.md`).
//!
//! In chess it is Standard Algebraic Notation as lichess and python-chess write it (`Nf3`,
//! `exd5`, `O-O`, `e8=Q+`, `Qh4#`); every other variant has the same notation over its own
//! cell names (`NCc5`, `Z*Ca4`, `O@e4`, `--`). It is one generic function over the legal
//! moves, written once for every variant, file-defined ones included: a move is its piece's
//! letter (none for a pawn), the shortest part of its from-cell that tells it apart from the
//! other legal moves of that kind to that cell, `x` for a capture (`*` for a shot), the
//! destination, `=` and the promotion's letter, and `+` or `#`. The writer picks the shortest
//! form the reader takes back to the same move alone, so names are unique and read back by
//! construction.
//!
//! Protocol notation (`Game::move_name`, `e2e4`) stays the engine's and the protocol's; the
//! reader accepts it everywhere beside readable notation.

mod entries;
mod fit;
mod read;
mod write;

pub use read::{meant, read};
pub use write::{examples, line, name, names};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{AnyGame, Game, MoveError, Variant};

    fn chess(fen: &str) -> AnyGame {
        AnyGame::from_fen(Variant::Chess, fen).unwrap()
    }

    /// The readable name of the move with protocol name `uci` in `fen`.
    fn san(fen: &str, uci: &str) -> String {
        let g = chess(fen);
        name(&g, g.parse_move(uci).unwrap())
    }

    #[test]
    fn chess_moves_are_written_as_standard_algebraic_notation() {
        let start = crate::rules::chess::START_FEN;
        assert_eq!(san(start, "g1f3"), "Nf3");
        assert_eq!(san(start, "e2e4"), "e4");
        // Castling both ways, with check.
        let castle = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        assert_eq!(san(castle, "e1g1"), "O-O");
        assert_eq!(san(castle, "e1c1"), "O-O-O");
        assert_eq!(san("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1"), "O-O+");
        // Disambiguation by file, by rank, by both.
        assert_eq!(san("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "b1d2"), "Nbd2");
        assert_eq!(san("4k3/8/8/8/R7/8/8/R3K3 w - - 0 1", "a1a2"), "R1a2");
        assert_eq!(san("8/8/6k1/8/8/Q7/8/Q1Q4K w - - 0 1", "a1b2"), "Qa1b2");
        // A promotion with capture and check; en passant; mate.
        assert_eq!(san("3r2k1/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7d8q"), "exd8=Q+");
        assert_eq!(san("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), "exd6");
        assert_eq!(
            san(
                "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
                "d8h4"
            ),
            "Qh4#"
        );
        // Chess960 castling is still O-O (King b1, Rook h1).
        let mut g =
            AnyGame::from_fen(Variant::Chess, "1r2k2r/8/8/8/8/8/8/1R2K2R w KQk - 0 1").unwrap();
        g.set_chess960(true);
        assert_eq!(name(&g, g.parse_move("e1h1").unwrap()), "O-O");
        assert_eq!(name(&g, g.parse_move("e1b1").unwrap()), "O-O-O");
    }

    #[test]
    fn readable_moves_are_read_leniently_and_ambiguity_is_explained() {
        let g = chess("r5kr/4P3/8/8/8/8/8/R3K1NR w KQ - 0 1");
        let is = |text: &str, uci: &str| {
            assert_eq!(
                read(&g, text).map(|m| g.move_name(m)),
                Ok(uci.to_string()),
                "{text}"
            )
        };
        for t in [
            "e8Q",
            "e8=Q",
            "e8=q",
            "e8(Q)",
            "e8=Q+",
            "e7e8q",
            "Pe8=Q",
            "e7-e8=Q!?",
        ] {
            is(t, "e7e8q");
        }
        for t in ["O-O-O", "0-0-0", "O-O-O+", "e1c1", "e1a1"] {
            is(t, "e1c1");
        }
        is("Ng1f3", "g1f3");
        is("Nf3", "g1f3");
        is("Ngf3", "g1f3");
        // Not a move, not legal, or more than one.
        assert_eq!(read(&g, "hello"), Err(MoveError::Malformed("hello".into())));
        assert_eq!(read(&g, "Nc3"), Err(MoveError::Illegal("Nc3".into())));
        assert!(matches!(read(&g, "Qd4"), Err(MoveError::Illegal(_))));
        let e = read(&g, "e8").unwrap_err();
        assert_eq!(
            e.to_string(),
            "ambiguous move 'e8': it could be e8=Q+, e8=R+, e8=B or e8=N"
        );
        let two = chess("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
        let e = read(&two, "Nd2").unwrap_err();
        assert_eq!(
            e.to_string(),
            "ambiguous move 'Nd2': it could be Nbd2 or Nfd2"
        );
    }

    #[test]
    fn a_refused_text_is_traced_to_the_pieces_it_is_about() {
        let g = AnyGame::startpos(Variant::Chess);
        let cell = |n: &str| (0..64).find(|&c| g.cell_name(c) == n).unwrap();
        assert_eq!(meant(&g, "Ke3"), Some((vec![cell("e1")], cell("e3"))));
        assert_eq!(
            meant(&g, "Nf5+"),
            Some((vec![cell("b1"), cell("g1")], cell("f5")))
        );
        assert_eq!(meant(&g, "exf5"), Some((vec![cell("e2")], cell("f5"))));
        assert_eq!(meant(&g, "e5").map(|(f, _)| f.len()), Some(8));
        assert_eq!(meant(&g, "Rbe1"), Some((vec![], cell("e1"))));
        assert_eq!(meant(&g, "hello"), None);
        // In every variant, the name of every legal move is traced to its piece and cell.
        for v in Variant::available() {
            let g = AnyGame::startpos(v);
            let mut list = crate::rules::moves::MoveList::new();
            g.generate(&mut list);
            for &mv in list.iter() {
                use crate::rules::moves::MoveFlag;
                if matches!(mv.flag(), MoveFlag::Castle | MoveFlag::Pass) {
                    continue;
                }
                let n = name(&g, mv);
                let (from, to) = meant(&g, &n).unwrap_or_else(|| panic!("{v:?} {n}"));
                assert_eq!(to, mv.to(), "{v:?} {n}");
                assert!(from.contains(&mv.from()), "{v:?} {n}: {from:?}");
            }
        }
    }

    #[test]
    fn a_line_is_named_move_after_move_up_to_the_first_illegal_one() {
        let g = AnyGame::startpos(Variant::Chess);
        let pv: Vec<String> = ["e2e4", "e7e5", "g1f3", "e1e1", "b8c6"]
            .map(String::from)
            .to_vec();
        assert_eq!(line(&g, &pv), ["e4", "e5", "Nf3", "e1e1", "b8c6"]);
        assert_eq!(examples(&g), "Nf3, e4, or g1f3");
    }
}
