//! Every bound on what a page may ask of `strata gui`, in one place, and the checks of the
//! messages' fields against them.
//!
//! Whoever holds the token may play, analyse and load games, but must not be able to make
//! the server or its engines use unbounded memory or time, nor slip a second command into a
//! line sent to an engine. So every string field a message carries (a FEN, a move, a cell,
//! a variant's name, the tags and moves a PGN holds) is refused when it holds a line break or
//! another control character, before anything else looks at it; every list and number has a
//! maximum. `docs/gui.md` ("What a token holder can and cannot do") lists these values.

use super::messages::{ClockSpec, EngineLimit};
use crate::protocol::line;
use crate::rules::Variant;
use crate::runner::pgn::PgnGame;

/// The game sessions (browser tabs, WebSockets) served at once, by default; each has its
/// own engine process. `strata gui --max-sessions N` sets another number.
pub const DEFAULT_MAX_SESSIONS: usize = 8;
/// The largest message the page may send, in bytes (a PGN to open fits easily); a larger
/// one, up to [`MAX_SOCKET_MESSAGE`], is refused with an error and the game goes on.
pub const MAX_MESSAGE: usize = 4 * 1024 * 1024;
/// The largest message the WebSocket reads at all, in bytes: past it the connection cannot
/// go on (the rest of the message is never read) and is dropped, with its session.
pub const MAX_SOCKET_MESSAGE: usize = 2 * MAX_MESSAGE;
/// The most moves (plies) a `new_game` or `line` message may list, and a PGN game may hold
/// to be opened. Chess's 50-move rule ends any game within about 5 900 plies; a longer list
/// is not a game a person plays or studies. Its `position` command stays far below the
/// engine's input line limit (5 000 moves of at most 8 characters: 45 KB).
pub const MAX_PLIES: usize = 5000;
/// The most games read from one PGN (`load_pgn`); a longer file is refused.
pub const MAX_PGN_GAMES: usize = 5000;
/// The most tags a PGN game may have to be opened (lichess writes about 20).
pub const MAX_TAGS: usize = 100;
/// The longest FEN a message may carry, in bytes (Polyhedron's 300 cells need about 200).
pub const MAX_FEN: usize = 4096;
/// The longest move, cell name, variant name or option name a message may carry, in bytes.
pub const MAX_WORD: usize = 64;
/// The longest engine option value a page may set, in bytes.
pub const MAX_OPTION_VALUE: usize = 256;
/// The most base time of a clock: 24 hours, in ms.
pub const MAX_BASE_MS: u64 = 24 * 3600 * 1000;
/// The most increment of a clock: 1 hour, in ms.
pub const MAX_INC_MS: u64 = 3600 * 1000;
/// The most nodes per move the engine may be given: 10^10.
pub const MAX_NODES: u64 = 10_000_000_000;
/// The deepest search per move the engine may be given (strata itself stops at 126).
pub const MAX_DEPTH: u32 = 255;
/// The most time per move the engine may be given: 1 hour, in ms.
pub const MAX_MOVETIME_MS: u64 = 3600 * 1000;

/// Checks a string field: no line break or control character, at most `max` bytes. `what`
/// names it in the error (`the FEN`, `move 3 of 5`).
pub fn text(what: &str, value: &str, max: usize) -> Result<(), String> {
    line::check(what, value).map_err(|e| e.to_string())?;
    if value.len() > max {
        return Err(format!(
            "{what} is {} bytes long; at most {max} are accepted",
            value.len()
        ));
    }
    Ok(())
}

/// Checks a list of moves: at most [`MAX_PLIES`], each one word of printable text. Whether
/// each is a move of the variant, and legal, is the rules layer's to say afterwards.
pub fn moves(moves: &[String]) -> Result<(), String> {
    if moves.len() > MAX_PLIES {
        return Err(format!(
            "{} moves are too many: at most {MAX_PLIES} are accepted",
            moves.len()
        ));
    }
    for (i, m) in moves.iter().enumerate() {
        let what = format!("move {} of {}", i + 1, moves.len());
        text(&what, m, MAX_WORD)?;
        if m.is_empty() || m.contains(char::is_whitespace) {
            return Err(format!("{what}, '{m}', is not one word"));
        }
    }
    Ok(())
}

/// Checks a clock: some time, and at most [`MAX_BASE_MS`] and [`MAX_INC_MS`].
pub fn clock(c: &ClockSpec) -> Result<(), String> {
    if c.base_ms == 0 && c.inc_ms == 0 {
        return Err("a clock needs some time".into());
    }
    if c.base_ms > MAX_BASE_MS {
        return Err(format!(
            "clock.base_ms {} is more than the {MAX_BASE_MS} ms (24 hours) accepted",
            c.base_ms
        ));
    }
    if c.inc_ms > MAX_INC_MS {
        return Err(format!(
            "clock.inc_ms {} is more than the {MAX_INC_MS} ms (1 hour) accepted",
            c.inc_ms
        ));
    }
    Ok(())
}

/// Checks the engine's limit per move: each value given from 1 to its maximum.
pub fn engine_limit(l: &EngineLimit) -> Result<(), String> {
    let within = |name: &str, v: Option<u64>, max: u64, unit: &str| match v {
        Some(n) if n == 0 || n > max => Err(format!(
            "engine_limit.{name} must be 1 to {max}{unit}, not {n}"
        )),
        _ => Ok(()),
    };
    within("nodes", l.nodes, MAX_NODES, "")?;
    within("depth", l.depth.map(u64::from), u64::from(MAX_DEPTH), "")?;
    within("movetime_ms", l.movetime_ms, MAX_MOVETIME_MS, " (1 hour)")
}

/// Checks a piece asked about (`piece_moves`): a colour, a kind and a cell that `v` has.
pub fn piece(v: Variant, kind: u8, colour: u8, cell: u16) -> Result<(), String> {
    let kinds = v.info().pieces.len();
    if kind as usize >= kinds {
        return Err(format!(
            "{} has no piece kind {kind}: its kinds are 0 to {}",
            v.name(),
            kinds - 1
        ));
    }
    if colour as usize >= v.colours() {
        return Err(format!(
            "{} has no colour {colour}: its colours are 0 to {}",
            v.name(),
            v.colours() - 1
        ));
    }
    let cells = v.layout().cells.len();
    if cell as usize >= cells {
        return Err(format!(
            "{} has no cell {cell}: its cells are 0 to {}",
            v.name(),
            cells - 1
        ));
    }
    Ok(())
}

/// Checks what the PGN reader took from a game before any of it is used: every tag (its
/// FEN among them) printable text of at most [`MAX_FEN`] bytes, and its moves as
/// [`moves`] checks them. A comment may span lines: it is only shown, never sent to an
/// engine.
pub fn pgn_game(g: &PgnGame) -> Result<(), String> {
    if g.comments.len() > 2 * MAX_PLIES + MAX_TAGS {
        return Err(format!(
            "{} comments are too many: at most {} are accepted",
            g.comments.len(),
            2 * MAX_PLIES + MAX_TAGS
        ));
    }
    if g.tags.len() > MAX_TAGS {
        return Err(format!(
            "{} tags are too many: at most {MAX_TAGS} are accepted",
            g.tags.len()
        ));
    }
    for (name, value) in &g.tags {
        text("a tag name", name, MAX_WORD)?;
        text(&format!("the {name} tag"), value, MAX_FEN)?;
    }
    moves(&g.moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_checked_against_their_bounds() {
        assert!(text("the FEN", "8/8/8 w - - 0 1", MAX_FEN).is_ok());
        let e = text("the FEN", "8/8/8\nw - - 0 1", MAX_FEN).unwrap_err();
        assert!(e.starts_with("the FEN holds a line break"), "{e}");
        assert!(
            text("x", &"a".repeat(65), MAX_WORD)
                .unwrap_err()
                .contains("at most 64")
        );

        assert!(moves(&["e2e4".into(), "e7e5".into()]).is_ok());
        assert!(moves(&vec!["e2e4".to_string(); MAX_PLIES]).is_ok());
        let e = moves(&vec!["e2e4".to_string(); MAX_PLIES + 1]).unwrap_err();
        assert!(e.contains("at most 5000"), "{e}");
        let e = moves(&["e2e4".into(), "e7e5\nquit".into()]).unwrap_err();
        assert!(e.starts_with("move 2 of 2 holds a line break"), "{e}");
        assert!(
            moves(&["e2e4 e7e5".into()])
                .unwrap_err()
                .contains("not one word")
        );
        assert!(moves(&[String::new()]).is_err());

        let c = |base_ms, inc_ms| clock(&ClockSpec { base_ms, inc_ms });
        assert!(c(60_000, 1000).is_ok() && c(0, 1000).is_ok());
        assert!(c(MAX_BASE_MS, MAX_INC_MS).is_ok());
        assert!(c(0, 0).unwrap_err().contains("needs some time"));
        assert!(c(1 << 63, 0).unwrap_err().contains("24 hours"));
        assert!(c(1000, u64::MAX).unwrap_err().contains("1 hour"));

        let l = |nodes, depth, movetime_ms| {
            engine_limit(&EngineLimit {
                nodes,
                depth,
                movetime_ms,
            })
        };
        assert!(l(Some(100_000), Some(12), Some(1000)).is_ok());
        assert!(l(None, None, None).is_ok());
        assert!(
            l(Some(MAX_NODES + 1), None, None)
                .unwrap_err()
                .contains("nodes")
        );
        assert!(l(Some(0), None, None).is_err());
        assert!(l(None, Some(256), None).unwrap_err().contains("1 to 255"));
        assert!(
            l(None, None, Some(u64::MAX))
                .unwrap_err()
                .contains("movetime_ms")
        );
    }

    #[test]
    fn a_piece_asked_about_is_one_the_variant_has() {
        assert!(piece(Variant::Chess, 1, 0, 27).is_ok());
        assert!(piece(Variant::FutureGeneration, 6, 3, 255).is_ok());
        let e = piece(Variant::Chess, 6, 0, 27).unwrap_err();
        assert!(e.contains("no piece kind 6"), "{e}");
        assert!(
            piece(Variant::Chess, 0, 2, 27)
                .unwrap_err()
                .contains("no colour 2")
        );
        assert!(
            piece(Variant::Chess, 0, 0, 64)
                .unwrap_err()
                .contains("no cell 64")
        );
        assert!(piece(Variant::Polyhedron, 0, 0, 300).is_err());
    }

    #[test]
    fn pgn_games_have_bounded_tags_and_comments() {
        let many_tags = "[a \"b\"]\n".repeat(MAX_TAGS + 1) + "\n1. e2e4 *\n";
        let g = &crate::runner::pgn::read_games(&many_tags)[0];
        assert!(pgn_game(g).unwrap_err().contains("tags are too many"));
        let many_comments = format!(
            "1. e2e4 {} *\n",
            "{c} ".repeat(2 * MAX_PLIES + MAX_TAGS + 1)
        );
        let g = &crate::runner::pgn::read_games(&many_comments)[0];
        assert!(pgn_game(g).unwrap_err().contains("comments are too many"));
        // Millions of games are read no further than one past the bound.
        let games = "* ".repeat(1_000_000);
        assert_eq!(
            crate::runner::pgn::read_games_at_most(&games, MAX_PGN_GAMES).len(),
            MAX_PGN_GAMES + 1
        );
    }

    #[test]
    fn pgn_games_are_checked_tag_by_tag() {
        let game = |fen: &str| PgnGame {
            tags: vec![
                ("Variant".into(), "chess".into()),
                ("FEN".into(), fen.into()),
            ],
            moves: vec!["e2e4".into()],
            ..PgnGame::default()
        };
        assert!(pgn_game(&game("8/8 w - - 0 1")).is_ok());
        let e = pgn_game(&game("8/8\tw - - 0 1")).unwrap_err();
        assert!(
            e.starts_with("the FEN tag holds a control character"),
            "{e}"
        );
    }
}
