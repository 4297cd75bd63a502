//! The match runner's PGN writer against its reader, with hostile text (issue 70, finding
//! 5): engine names, the event, move names and reasons made of PGN delimiters, escapes,
//! results, move numbers, line breaks, control characters and random bytes. Whatever they
//! hold, what the writer writes the reader reads back: the same games, tags, moves and
//! comments, and no control character in the file.

use std::time::{Duration, SystemTime};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use strata::protocol::line::is_forbidden;
use strata::rules::Variant;
use strata::rules::piece::Colour;
use strata::runner::pgn::{read_games, write_game};
use strata::runner::player::SearchInfo;
use strata::runner::record::{GameRecord, GameResult, PlayedMove, Termination};
use strata::text::escape as printable;

/// Pieces of text that try to break a PGN.
const PIECES: [&str; 44] = [
    "}",
    "{",
    "\"",
    "\\",
    ";",
    "[",
    "]",
    "(",
    ")",
    "\n",
    "\r",
    "\r\n",
    "\0",
    "\t",
    "$",
    "%",
    ".",
    "*",
    "-",
    "/",
    "1",
    "0",
    " ",
    "a",
    "e2e4",
    "1-0",
    "0-1",
    "1/2-1/2",
    "12.",
    "...",
    "$1",
    "<",
    ">",
    "?",
    "\u{85}",
    "\u{2028}",
    "\u{1b}[2J",
    "\u{7f}",
    "\u{a0}",
    "\u{3000}",
    "é",
    "中",
    "\\\"",
    "\"]",
];

/// Empty, random bytes (read as UTF-8 with replacement characters), or a few pieces.
fn hostile(rng: &mut StdRng) -> String {
    match rng.gen_range(0..10) {
        0 => String::new(),
        1 => {
            let bytes: Vec<u8> = (0..rng.gen_range(0..12)).map(|_| rng.r#gen()).collect();
            String::from_utf8_lossy(&bytes).into_owned()
        }
        _ => (0..rng.gen_range(1..8))
            .map(|_| PIECES[rng.gen_range(0..PIECES.len())])
            .collect(),
    }
}

fn hostile_record(rng: &mut StdRng, id: u64) -> GameRecord {
    let moves = (0..rng.gen_range(0..12))
        .map(|i| PlayedMove {
            name: hostile(rng),
            // No readable name: the writer writes the protocol name, hostile as it is.
            san: String::new(),
            colour: Colour((i % 2) as u8),
            number: i / 2 + 1,
            book: rng.gen_bool(0.3),
            info: SearchInfo::default(),
            time_ms: rng.gen_range(0..100_000),
        })
        .collect();
    let tc = hostile(rng);
    GameRecord {
        id,
        round: id as usize,
        variant: Variant::Chess,
        chess960: false,
        start_fen: hostile(rng),
        custom_start: rng.gen_bool(0.5),
        seats: vec![0, 1],
        names: vec![hostile(rng), hostile(rng)],
        time_controls: if rng.gen_bool(0.5) {
            vec![tc.clone(), tc]
        } else {
            vec![tc, hostile(rng)]
        },
        moves,
        result: [GameResult::Win(0), GameResult::Win(1), GameResult::Draw][rng.gen_range(0..3)],
        termination: Termination::Abandoned,
        reason: hostile(rng),
        final_fen: String::new(),
        started: SystemTime::now(),
        duration: Duration::from_secs(1),
    }
}

/// Whether a move name needs nothing changed to be one movetext token: the writer writes
/// such a name as it is.
fn plain(name: &str) -> bool {
    name.chars()
        .all(|c| c.is_ascii_alphanumeric() || "@=+#-/".contains(c))
        && name.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
}

#[test]
fn hostile_records_are_written_so_that_they_read_back() {
    let mut rng = StdRng::seed_from_u64(70);
    for round in 0..500 {
        let event = hostile(&mut rng);
        let records: Vec<GameRecord> = (1..=rng.gen_range(1..4))
            .map(|id| hostile_record(&mut rng, id))
            .collect();
        let texts: Vec<String> = records.iter().map(|r| write_game(r, &event)).collect();
        let text = texts.concat();
        assert!(
            !text.chars().any(|c| c != '\n' && is_forbidden(c)),
            "round {round}: a control character in {text:?}"
        );
        let games = read_games(&text);
        assert_eq!(games.len(), records.len(), "round {round}:\n{text}");
        for ((g, r), t) in games.iter().zip(&records).zip(&texts) {
            let at = format!("round {round}, game {}:\n{t}", r.id);
            // One tag per line, each read back, with its value made printable.
            let tag_lines = t.lines().take_while(|l| l.starts_with('[')).count();
            assert_eq!(g.tags.len(), tag_lines, "{at}");
            assert_eq!(g.tag("Event"), Some(&*printable(&event)), "{at}");
            assert_eq!(g.tag("White"), Some(&*printable(&r.names[0])), "{at}");
            assert_eq!(g.tag("Black"), Some(&*printable(&r.names[1])), "{at}");
            assert_eq!(g.tag("Result"), Some(r.result.pgn()), "{at}");
            assert_eq!(g.tag("Termination"), Some("abandoned"), "{at}");
            let fen = r.custom_start.then(|| printable(&r.start_fen));
            assert_eq!(g.tag("FEN"), fen.as_deref(), "{at}");
            // Every move is one move, a plain one as it was.
            assert_eq!(g.moves.len(), r.moves.len(), "{at}");
            for (read, m) in g.moves.iter().zip(&r.moves) {
                assert!(!read.is_empty(), "{at}");
                if plain(&m.name) {
                    assert_eq!(read, &m.name, "{at}");
                }
            }
            // A comment per move, then the reason (`}` written as `)`).
            assert_eq!(g.comments.len(), r.moves.len() + 1, "{at}");
            assert_eq!(
                g.comments.last(),
                Some(&printable(&r.reason).replace('}', ")")),
                "{at}"
            );
            assert_eq!(g.result.as_deref(), Some(r.result.pgn()), "{at}");
        }
    }
}
