//! Readable notation in `strata gui`, in a real headless Chromium (as `gui_browser.rs`):
//! chess moves listed in SAN with their protocol names in `data-move`; a move typed in SAN;
//! a typed move that cannot be read answered with the notation expected; a lichess PGN
//! (`Variant "Standard"`, SAN, castling, a promotion, clock and evaluation comments, a
//! variation, annotations) imported and played on against the engine, and opened as a game
//! to look through with its comments; the exported PGN read by python-chess move for move.

mod common;

use std::process::Command;
use std::time::{Duration, Instant};

use common::browser::{Browser, ONE_AT_A_TIME, PATIENCE, launch, shot_path};
use strata::rules::{AnyGame, Game, Variant, notation};
use strata::runner::pgn::read_games;

/// A game as lichess exports it, still going (`*`).
const LICHESS: &str = "[Event \"Casual Blitz game\"]\n[Site \"https://lichess.org/abcd1234\"]\n\
    [Date \"2024.05.01\"]\n[White \"alice\"]\n[Black \"bob\"]\n[Result \"*\"]\n\
    [Variant \"Standard\"]\n[TimeControl \"180+0\"]\n[ECO \"C50\"]\n\n\
    1. e4 { [%eval 0.2] [%clk 0:03:00] } 1... e5 { [%clk 0:03:00] } 2. Nf3 Nc6 3. Bc4 Nf6 \
    4. O-O!? Nxe4 $6 5. d4 (5. Re1 d5) 5... d5 6. dxe5 dxc4 7. e6 Bd6 8. exf7+ Ke7 \
    9. f8=Q+ { a promotion } 9... Rxf8 10. Re1 Kd7 *\n";

/// Waits for the status line to show a person's turn.
async fn my_turn(b: &Browser) {
    let until = Instant::now() + PATIENCE;
    while !b.text("#status").await.contains("to move") || b.text("#status").await.contains("engine")
    {
        assert!(
            Instant::now() < until,
            "never my turn: {}",
            b.text("#status").await
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Waits for `#message` to contain `part`; returns the message.
async fn message_says(b: &Browser, part: &str) -> String {
    let until = Instant::now() + PATIENCE;
    loop {
        let m = b.text("#message").await;
        if m.contains(part) {
            return m;
        }
        assert!(
            Instant::now() < until,
            "the page does not say '{part}': '{m}'"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The names the move list shows (without the comments), in order.
async fn shown_names(b: &Browser) -> Vec<String> {
    let v = b
        .run(
            "return [...document.querySelectorAll('#moves .mv')].map(e => \
             [...e.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent).join('').trim());",
        )
        .await;
    serde_json::from_value(v).expect("a list of names")
}

/// `moves` (protocol notation, from the start of chess) in SAN, as the rules layer names them.
fn san_of(moves: &[String]) -> Vec<String> {
    let mut g = AnyGame::startpos(Variant::Chess);
    moves
        .iter()
        .map(|m| {
            let mv = g.parse_move(m).unwrap();
            let name = notation::name(&g, mv);
            g.make(mv);
            name
        })
        .collect()
}

/// The moves of every game of `pgn` as python-chess reads them (UCI), or `None` where
/// python-chess is not installed.
fn python_chess_reads(pgn: &str) -> Option<Vec<Vec<String>>> {
    let path = std::env::temp_dir().join(format!("strata-gui-{}.pgn", std::process::id()));
    std::fs::write(&path, pgn).unwrap();
    let script = "import sys, chess.pgn\n\
                  f = open(sys.argv[1])\n\
                  while True:\n\
                  \x20   g = chess.pgn.read_game(f)\n\
                  \x20   if g is None: break\n\
                  \x20   assert not g.errors, g.errors\n\
                  \x20   print(' '.join(m.uci() for m in g.mainline_moves()))\n";
    let out = Command::new("python3")
        .args(["-c", script])
        .arg(&path)
        .output();
    let _ = std::fs::remove_file(&path);
    match out {
        Ok(o) if o.status.success() => Some(
            String::from_utf8_lossy(&o.stdout)
                .lines()
                .map(|l| l.split_whitespace().map(str::to_string).collect())
                .collect(),
        ),
        Ok(o) if String::from_utf8_lossy(&o.stderr).contains("No module named 'chess'") => {
            eprintln!("python-chess is not installed (pip install chess): not checked");
            None
        }
        Ok(o) => panic!(
            "python-chess rejects the PGN: {}\n{pgn}",
            String::from_utf8_lossy(&o.stderr)
        ),
        Err(e) => {
            eprintln!("python3 cannot run ({e}): not checked");
            None
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn chess_in_san_typed_imported_from_lichess_played_on_and_exported() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(b) = launch(1500, 1000).await else {
        return;
    };
    // A move typed in SAN; the list shows SAN, `data-move` the protocol's.
    b.open("variant=chess&side=white&nodes=3000").await;
    my_turn(&b).await;
    let placeholder = b
        .run("return document.getElementById('typed-move-input').placeholder;")
        .await;
    assert_eq!(placeholder, "Nf3, e4, or g1f3", "the examples of the start");
    b.type_into("#typed-move-input", "Nf3").await;
    let moves = b.wait_moves(2).await;
    assert_eq!(moves[0], "g1f3");
    assert_eq!(shown_names(&b).await, san_of(&moves));
    // A text that is no move: the notation expected, with moves of this position.
    my_turn(&b).await;
    b.type_into("#typed-move-input", "Kd9").await;
    let m = message_says(&b, "type a move as").await;
    assert!(m.contains("unparsable move 'Kd9'"), "{m}");
    assert_eq!(b.moves().await.len(), 2, "a refused move changes nothing");

    // A lichess PGN pasted into Import: its moves, then the game goes on against the engine.
    b.click("#import").await;
    b.wait("#text-dialog[open]").await;
    b.wait("#text-dialog-text")
        .await
        .send_keys(LICHESS)
        .await
        .expect("the PGN is pasted");
    b.click("#text-dialog-ok").await;
    let game = &read_games(LICHESS)[0];
    let (_, protocol) = game.replay_moves().expect("the lichess game replays");
    let moves = b.wait_moves(protocol.len()).await;
    assert_eq!(moves, protocol);
    let shown = shown_names(&b).await;
    assert_eq!(shown, san_of(&moves));
    assert_eq!(shown[6], "O-O");
    assert_eq!(shown[16], "f8=Q+");
    my_turn(&b).await;
    b.type_into("#typed-move-input", "Bg5").await;
    let moves = b.wait_moves(protocol.len() + 2).await;
    assert_eq!(moves[protocol.len()], "c1g5");
    assert_eq!(shown_names(&b).await, san_of(&moves));
    b.screenshot(&shot_path("notation-lichess-played-on")).await;

    // Exported: SAN, no Variant tag, read by python-chess move for move.
    b.click("#export").await;
    b.wait("#text-dialog[open]").await;
    let pgn = b
        .run("return document.getElementById('text-dialog-text').value;")
        .await;
    let pgn = pgn.as_str().unwrap_or("").to_string();
    assert!(pgn.contains("4. O-O") && !pgn.contains("[Variant"), "{pgn}");
    assert!(pgn.contains("11. Bg5"), "{pgn}");
    if let Some(games) = python_chess_reads(&pgn) {
        assert_eq!(games.len(), 1, "{pgn}");
        assert_eq!(games[0], moves, "{pgn}");
    }
    b.click("#text-dialog-cancel").await;

    // Opened as a game to look through: SAN, and the comments with their moves.
    b.click("#open-pgn").await;
    b.wait("#pgn-text")
        .await
        .send_keys(LICHESS)
        .await
        .expect("the PGN is pasted");
    b.click("#pgn-open").await;
    b.click("#games-list tbody tr[data-game=\"0\"]").await;
    let until = Instant::now() + PATIENCE;
    while b.attrs("#moves > .mv", "data-move").await != protocol {
        assert!(Instant::now() < until, "the game's moves are never listed");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let texts = b.texts("#moves > .mv").await;
    assert!(texts[0].starts_with("1. e4"), "{texts:?}");
    assert!(texts[0].contains("[%clk 0:03:00]"), "{texts:?}");
    assert!(texts[6].contains("O-O"), "{texts:?}");
    assert!(texts[16].contains("f8=Q+") && texts[16].contains("a promotion"));
    b.screenshot(&shot_path("notation-lichess-viewed")).await;
    b.close().await;
}
