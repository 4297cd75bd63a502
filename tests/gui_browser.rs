//! `strata gui` as a person uses it: a real headless Chromium (Debian's `chromium` and
//! `chromium-driver`), driven over WebDriver, clicking cells.
//!
//! In every variant: a game started from the URL on each side; a piece selected and its
//! highlighted targets checked (in the 3D variants, one on another level than the piece);
//! moves played by clicking and the engine's replies seen in the move list; the variant's
//! special move (promotion, Pole drop, shot with its explosion, pass); a move taken back.
//! The page keeps this contract: every cell has `data-cell`, the selected piece's targets
//! (and nothing else) `data-target`, every listed move `data-ply` and `data-move`, the
//! result `data-result`.
//!
//! Screenshots of every test go to `target/gui-screenshots/` (for a person to look at).
//! Without Chromium the tests skip with a printed reason, unless `CI=true` (then they fail).

mod common;

use common::browser::{Browser, ONE_AT_A_TIME, available, level_of};
use std::path::PathBuf;
use std::time::Duration;

/// Engine moves are quick: a fixed number of nodes.
const NODES: &str = "nodes=3000";

fn shot_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("..")
        .join("gui-screenshots")
        .join(format!("{name}.png"))
}

async fn browser() -> Option<Browser> {
    let (chromium, driver) = available()?;
    Some(Browser::start(&chromium, &driver, 1500, 1000).await)
}

/// Selects own pieces one after another until one shows targets (on another level than its
/// own when `other_level`); returns the piece and its targets.
async fn piece_with_targets(b: &Browser, colour: &str, other_level: bool) -> (String, Vec<String>) {
    let pieces = b.cells_of(colour).await;
    assert!(!pieces.is_empty(), "no {colour} piece on the board");
    for p in &pieces {
        b.click_cell(p).await;
        let targets = b.targets().await;
        let ok = if other_level {
            targets.iter().any(|t| level_of(t) != level_of(p))
        } else {
            !targets.is_empty()
        };
        // Exactly the targets are marked, and the piece is selected.
        let selected = b.attrs(".cell.selected", "data-cell").await;
        assert!(
            targets.is_empty() || selected == vec![p.clone()],
            "{p}: {selected:?}"
        );
        if ok {
            return (p.clone(), targets);
        }
        b.click_cell(p).await; // deselect
    }
    panic!(
        "no {colour} piece with a target{}",
        if other_level { " on another level" } else { "" }
    );
}

/// Plays a move by clicking a piece of `colour` and one of its targets; returns the target.
async fn click_a_move(b: &Browser, colour: &str) -> String {
    let (_, targets) = piece_with_targets(b, colour, false).await;
    let to = targets[0].clone();
    b.click_cell(&to).await;
    to
}

/// The common walk through a variant: White's game (select, other-level targets, move,
/// engine reply, take-back), then Black's game (the engine opens, a reply, take-back).
async fn play_both_sides(b: &Browser, variant: &str, three_d: bool) {
    b.open(&format!("variant={variant}&side=white&{NODES}"))
        .await;
    b.wait("[data-cell]").await;
    // Wait until the engine is ready and White may move.
    let until = std::time::Instant::now() + common::browser::PATIENCE;
    while !b.text("#status").await.contains("(you)") {
        assert!(
            std::time::Instant::now() < until,
            "{variant}: never White's turn: {}",
            b.text("#status").await
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let (piece, targets) = piece_with_targets(b, "White", three_d).await;
    assert!(!targets.is_empty());
    if three_d {
        assert!(
            targets.iter().any(|t| level_of(t) != level_of(&piece)),
            "{variant}: {piece} has no target on another level: {targets:?}"
        );
    }
    b.screenshot(&shot_path(&format!("{variant}-selected")))
        .await;
    // Play one of them: the engine answers.
    let to = targets.iter().find(|t| !t.is_empty()).unwrap().clone();
    b.click_cell(&to).await;
    let moves = b.wait_moves(2).await;
    assert!(
        moves[0].starts_with(&piece),
        "{variant}: {moves:?} from {piece}"
    );
    assert!(b.targets().await.is_empty(), "targets stay after the move");
    b.screenshot(&shot_path(&format!("{variant}-white"))).await;
    // Take back: the person's move and the engine's reply.
    b.click("#takeback").await;
    b.wait_moves(0).await;

    // Black: the engine opens.
    b.open(&format!("variant={variant}&side=black&{NODES}"))
        .await;
    b.wait_moves(1).await;
    let until = std::time::Instant::now() + common::browser::PATIENCE;
    while !b.text("#status").await.contains("(you)") {
        assert!(
            std::time::Instant::now() < until,
            "{variant}: never Black's turn"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    click_a_move(b, "Black").await;
    b.wait_moves(3).await;
    b.screenshot(&shot_path(&format!("{variant}-black"))).await;
    b.click("#takeback").await;
    b.wait_moves(1).await;
}

/// Waits for the status line to show the person's turn.
async fn my_turn(b: &Browser) {
    let until = std::time::Instant::now() + common::browser::PATIENCE;
    while !b.text("#status").await.contains("to move") || b.text("#status").await.contains("engine")
    {
        assert!(
            std::time::Instant::now() < until,
            "never my turn: {}",
            b.text("#status").await
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Clicks the chooser's button for `mv`.
async fn choose(b: &Browser, mv: &str) {
    b.wait("#chooser:not([hidden])").await;
    b.click(&format!("#chooser button[data-move=\"{mv}\"]"))
        .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn chess_in_the_browser() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(b) = browser().await else { return };
    play_both_sides(&b, "chess", false).await;
    // A refused move says why.
    b.open(&format!("variant=chess&side=white&{NODES}")).await;
    my_turn(&b).await;
    b.click_cell("g1").await;
    b.click_cell("g4").await;
    let until = std::time::Instant::now() + common::browser::PATIENCE;
    loop {
        let m = b.text("#message").await;
        if m.contains("the knight on g1 does not move to g4") {
            break;
        }
        assert!(std::time::Instant::now() < until, "no reason shown: '{m}'");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // Promotion with a choice: the Knight.
    b.open(&format!(
        "variant=chess&side=white&{NODES}&fen=8/4P3/8/8/8/p7/k7/7K%20w%20-%20-%200%201"
    ))
    .await;
    my_turn(&b).await;
    b.click_cell("e7").await;
    assert_eq!(b.targets().await, vec!["e8".to_string()]);
    b.click_cell("e8").await;
    choose(&b, "e7e8n").await;
    let moves = b.wait_moves(2).await;
    assert_eq!(moves[0], "e7e8n");
    b.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn pole_chess_in_the_browser() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(b) = browser().await else { return };
    play_both_sides(&b, "pole", false).await;
    // A Pole drop from the hand, once Poles are available.
    b.open(&format!(
        "variant=pole&side=white&{NODES}&fen=rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR%5BOo%2B%5D%20w%20KQkq%20-%200%201"
    ))
    .await;
    my_turn(&b).await;
    b.click("[data-hand=\"0:6\"].droppable").await;
    let targets = b.targets().await;
    assert_eq!(
        targets.len(),
        32,
        "the Pole may go on every empty square: {targets:?}"
    );
    b.click_cell("e4").await;
    let moves = b.wait_moves(2).await;
    assert_eq!(moves[0], "O@e4");
    b.screenshot(&shot_path("pole-drop")).await;
    b.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn polyhedron_in_the_browser() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(b) = browser().await else { return };
    play_both_sides(&b, "polyhedron", true).await;
    // Promotion to a piece of the reserve, chosen among the reserve's.
    let fen = "6/6/6/6/6/6|8/8/8/8/8/8/8/8|4k5/10/10/10/10/10/10/10/10/4K5|8/8/8/8/8/8/8/8|6/P5/6/6/6/6[QN] w - 0 1";
    b.open(&format!(
        "variant=polyhedron&side=white&{NODES}&fen={}",
        fen.replace(' ', "%20")
            .replace('[', "%5B")
            .replace(']', "%5D")
            .replace('|', "%7C")
    ))
    .await;
    my_turn(&b).await;
    b.click_cell("Ec7").await;
    b.click_cell("Ec8").await;
    choose(&b, "Ec7Ec8n").await;
    let moves = b.wait_moves(2).await;
    assert_eq!(moves[0], "Ec7Ec8n");
    b.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn podionic_in_the_browser() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(b) = browser().await else { return };
    play_both_sides(&b, "podionic", true).await;
    // Promotion at a lane's end.
    let fen = "4/n3/1P2/n3|3k/4/4/4|4/4/4/3K|N3/1p2/N3/4 w 0 1";
    b.open(&format!(
        "variant=podionic&side=white&{NODES}&fen={}",
        fen.replace(' ', "%20").replace('|', "%7C")
    ))
    .await;
    my_turn(&b).await;
    b.click_cell("Ab5").await;
    let mut targets = b.targets().await;
    targets.sort();
    assert_eq!(targets, ["Aa4", "Aa5", "Aa6"]);
    b.click_cell("Aa5").await;
    choose(&b, "Ab5Aa5q").await;
    let moves = b.wait_moves(2).await;
    assert_eq!(moves[0], "Ab5Aa5q");
    b.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn pentaplane_in_the_browser() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(b) = browser().await else { return };
    play_both_sides(&b, "pentaplane", true).await;
    // A shot at a Bomb: the explosion clears its blast, and the page shows it.
    let fen = "5/5/5/5/K4|2p2/5/5/5/5|2k2/3O1/F1o2/5/5|5/5/5/5/5|4n/5/5/5/5 w 0 1";
    b.open(&format!(
        "variant=pentaplane&side=white&{NODES}&fen={}",
        fen.replace(' ', "%20").replace('|', "%7C")
    ))
    .await;
    my_turn(&b).await;
    b.click_cell("Ca3").await;
    assert!(b.targets().await.contains(&"Cc3".to_string()));
    let shot = b.attrs(".cell.shot[data-target]", "data-cell").await;
    assert_eq!(
        shot,
        vec!["Cc3".to_string()],
        "the shot's target is marked as a shot"
    );
    b.click_cell("Cc3").await;
    let moves = b.wait_moves(1).await;
    assert_eq!(moves[0], "Ca3*Cc3");
    let removed = b.attrs(".cell.removed", "data-cell").await;
    assert!(removed.len() >= 3, "the blast is shown: {removed:?}");
    b.screenshot(&shot_path("pentaplane-explosion")).await;
    // Both Bombs blew the black King up: the game is over, and the page says so.
    let result = b.wait("[data-result]").await;
    assert_eq!(
        result.attr("data-result").await.unwrap().as_deref(),
        Some("1-0")
    );
    b.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn four_colours_in_the_browser() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(b) = browser().await else { return };
    play_both_sides(&b, "future-generation", true).await;
    // Silver has no move but the pass.
    let fen = "8/8/8/8/8/8/8/4wK3|8/8/8/8/8/8/8/8|8/8/8/8/8/8/bBbQ6/bNbR6|7gK/8/8/8/8/8/bNbR6/sKbB6 s - - b b 0 1";
    b.open(&format!(
        "variant=future-generation&seats=silver&{NODES}&fen={}",
        fen.replace(' ', "%20").replace('|', "%7C")
    ))
    .await;
    b.click("#pass:not([hidden])").await;
    let until = std::time::Instant::now() + common::browser::PATIENCE;
    loop {
        let m = b.moves().await;
        if m.first().map(String::as_str) == Some("0000") {
            break;
        }
        assert!(std::time::Instant::now() < until, "no pass in {m:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    b.close().await;
}
