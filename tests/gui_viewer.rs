//! The game viewer of `strata gui` in a real headless Chromium (as `gui_browser.rs`): a PGN
//! of a real `strata match` in a 3D variant is opened through the page's file input; the
//! list shows every game (players, result, ending, moves); each game opens, steps to its
//! start and to its last position, which is the position the rules layer reaches replaying
//! the game, with the referee's verdict on it where the game ended on the board; the
//! engine's comments are shown with their moves.

mod common;

use common::browser::{Browser, ONE_AT_A_TIME, PATIENCE, launch, shot_path};
use std::collections::BTreeSet;
use std::process::Command;
use std::time::{Duration, Instant};
use strata::gui::describe::{pieces, variant_view};
use strata::rules::{AnyGame, Variant};
use strata::runner::pgn::read_games;

/// The pieces of `game` as the page labels its cells: `Cc3, White Unicorn`.
fn labels(variant: Variant, game: &AnyGame) -> BTreeSet<String> {
    let view = variant_view(variant);
    let colours = ["White", "Black", "Gold", "Silver"];
    pieces(game, view.cells.len())
        .into_iter()
        .map(|(cell, colour, kind)| {
            format!(
                "{}, {} {}",
                view.cells[cell as usize].name,
                colours[colour as usize],
                view.pieces[kind as usize].name
            )
        })
        .collect()
}

/// The labels of the occupied cells the page shows.
async fn shown(b: &Browser) -> BTreeSet<String> {
    b.attrs("[data-cell]", "aria-label")
        .await
        .into_iter()
        .filter(|l| l.contains(", "))
        .collect()
}

async fn shows(b: &Browser, want: &BTreeSet<String>, what: &str) {
    let until = Instant::now() + PATIENCE;
    loop {
        let now = shown(b).await;
        if &now == want {
            return;
        }
        assert!(
            Instant::now() < until,
            "{what}: the board shows {:?} more and {:?} fewer",
            now.difference(want).collect::<Vec<_>>(),
            want.difference(&now).collect::<Vec<_>>()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_match_pgn_opens_and_every_game_steps_to_its_end() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(b) = launch(1500, 1000).await else {
        return;
    };
    // A short real match in Pentaplane: strata at a weak level against itself.
    let dir = std::env::temp_dir().join(format!("strata-viewer-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn_path = dir.join("match.pgn");
    let _ = std::fs::remove_file(&pgn_path);
    let exe = common::browser::strata_bin();
    let exe = exe.to_str().expect("a UTF-8 path");
    let status = Command::new(exe)
        .args([
            "match",
            "--variant",
            "pentaplane",
            "--games",
            "4",
            "--maxmoves",
            "60",
        ])
        .args(["--openings", "random-plies=4", "seed=5"])
        .args(["--engine", &format!("cmd={exe}"), "name=A", "nodes=2000"])
        .args(["--engine", &format!("cmd={exe}"), "name=B", "nodes=1000"])
        .arg("--pgnout")
        .arg(&pgn_path)
        .stdout(std::process::Stdio::null())
        .status()
        .expect("strata match runs");
    assert!(status.success());
    let text = std::fs::read_to_string(&pgn_path).unwrap();
    let games = read_games(&text);
    assert_eq!(games.len(), 4);

    b.open("variant=chess&mode=analysis").await;
    b.wait(".pv-line").await;
    b.click("#open-pgn").await;
    b.wait("#pgn-file")
        .await
        .send_keys(pgn_path.to_str().unwrap())
        .await
        .expect("the file is chosen");
    let until = Instant::now() + PATIENCE;
    while b.attrs("#games-list tbody tr", "data-game").await.len() != games.len() {
        assert!(Instant::now() < until, "the list never shows the games");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    b.screenshot(&shot_path("viewer-list")).await;
    let rows = b.texts("#games-list tbody tr").await;
    for (row, g) in rows.iter().zip(&games) {
        assert!(row.contains(g.tag("Result").unwrap()), "{row}");
        assert!(row.contains(g.tag("Termination").unwrap()), "{row}");
        assert!(row.contains("A – B") || row.contains("B – A"), "{row}");
    }
    for (i, g) in games.iter().enumerate() {
        if i > 0 {
            b.click("#open-pgn").await;
        }
        b.click(&format!("#games-list tbody tr[data-game=\"{i}\"]"))
            .await;
        // The game opens on its last position: the rules layer's replay of it.
        // Listed in readable notation, the protocol's in `data-move`.
        let (end, protocol) = g.replay_moves().expect("the match's games replay");
        let until = Instant::now() + PATIENCE;
        while b.attrs("#moves > .mv", "data-move").await != protocol {
            assert!(Instant::now() < until, "game {i}'s moves are never listed");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        shows(&b, &labels(Variant::Pentaplane, &end), "the last position").await;
        // Where the referee ended the game on the board, the page says the same result.
        if g.tag("Termination") == Some("normal") {
            assert_eq!(
                b.attrs("#result", "data-result").await,
                [g.tag("Result").unwrap().to_string()]
            );
        }
        // The players are the PGN's.
        let names = b.texts(".clock-name").await;
        assert!(names[0].ends_with(g.tag("White").unwrap()), "{names:?}");
        assert!(names[1].ends_with(g.tag("Black").unwrap()), "{names:?}");
        // The engine's comments are with their moves.
        let comments = b.texts("#moves > .mv .comment").await;
        assert_eq!(comments.len(), g.moves.len(), "game {i}");
        assert_eq!(comments[0], format!("{{{}}}", g.move_comments[0]));
        if i == 0 {
            b.screenshot(&shot_path("viewer-game")).await;
        }
        // Step to the start (Home) and back to the end (End).
        b.wait("body").await.send_keys("\u{E011}").await.unwrap();
        let start = AnyGame::from_fen(
            Variant::Pentaplane,
            g.tag("FEN").unwrap_or(Variant::Pentaplane.start_fen()),
        )
        .unwrap();
        shows(&b, &labels(Variant::Pentaplane, &start), "the start").await;
        b.wait("body").await.send_keys("\u{E010}").await.unwrap();
        shows(&b, &labels(Variant::Pentaplane, &end), "the end again").await;
    }
    b.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}
