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

use common::browser::{Browser, ONE_AT_A_TIME, level_of, report_latency, shot_path};
use std::path::PathBuf;
use std::time::Duration;

/// Engine moves are quick: a fixed number of nodes.
const NODES: &str = "nodes=3000";

async fn browser() -> Option<Browser> {
    browser_of_size(1500, 1000).await
}

async fn browser_of_size(width: u32, height: u32) -> Option<Browser> {
    common::browser::launch(width, height).await
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

/// A variant defined in a file (`strata gui --variant-file`): offered in the new-game form,
/// drawn from its geometry, played by clicking on both sides against the engine (which loads
/// the same file through `VariantPath`).
#[tokio::test(flavor = "multi_thread")]
async fn a_variant_from_a_file_in_the_browser() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/variants/raumschach.toml");
    let Some(b) = common::browser::launch_with(1500, 1000, &["--variant-file", file]).await else {
        return;
    };
    b.open(NODES).await;
    b.wait("#ng-variant option[value=\"raumschach\"]").await;
    play_both_sides(&b, "raumschach", true).await;
    // 125 cells on five levels, named as the rules file names them.
    let cells = b.attrs("[data-cell]", "data-cell").await;
    assert_eq!(cells.len(), 125);
    assert!(cells.iter().any(|c| c == "Cc3") && cells.iter().any(|c| c == "Ee5"));
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

/// Percent-encodes the characters of a FEN that a URL may not hold as they are.
fn url_fen(fen: &str) -> String {
    fen.replace('%', "%25")
        .replace(' ', "%20")
        .replace('[', "%5B")
        .replace(']', "%5D")
        .replace('|', "%7C")
        .replace('+', "%2B")
        .replace('/', "%2F")
}

/// Waits for `#message` to contain `part`.
async fn message_says(b: &Browser, part: &str) {
    let until = std::time::Instant::now() + common::browser::PATIENCE;
    loop {
        let m = b.text("#message").await;
        if m.contains(part) {
            return;
        }
        assert!(
            std::time::Instant::now() < until,
            "the page does not say '{part}': '{m}'"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn chess_by_drag_by_typing_and_castling() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(b) = browser().await else { return };
    // A drag: press on g1, move, release on f3.
    b.open(&format!("variant=chess&side=white&{NODES}")).await;
    my_turn(&b).await;
    b.drag("g1", "f3").await;
    let moves = b.wait_moves(2).await;
    assert_eq!(moves[0], "g1f3");
    // A typed move, in protocol notation; then a typed move the rules refuse, which is
    // answered in words and changes nothing.
    b.open(&format!("variant=chess&side=white&{NODES}")).await;
    my_turn(&b).await;
    b.type_into("#typed-move-input", "e2e4").await;
    let moves = b.wait_moves(2).await;
    assert_eq!(moves[0], "e2e4");
    my_turn(&b).await;
    b.type_into("#typed-move-input", "e4e6").await;
    message_says(&b, "e4e6").await;
    assert_eq!(b.moves().await.len(), 2, "a refused move changes nothing");
    // An enemy piece clicked with nothing selected: whose piece it is (not "nothing can be
    // dropped", which the rules answer for a move from a cell to itself).
    // (After one Black move its King is still on e8.)
    b.click_cell("e8").await;
    message_says(&b, "the king on e8 is Black's, and White is to move").await;
    assert_eq!(b.moves().await.len(), 2);
    // Castling by clicking the King and its target.
    let castling = format!(
        "variant=chess&side=white&{NODES}&fen={}",
        url_fen("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1")
    );
    b.open(&castling).await;
    my_turn(&b).await;
    b.click_cell("e1").await;
    let mut targets = b.targets().await;
    targets.sort();
    // The King's steps, its castling squares, and its Rooks (castling as the King taking
    // its own Rook, which Chess960 players point at).
    assert_eq!(targets, ["a1", "c1", "d1", "f1", "g1", "h1"]);
    b.click_cell("g1").await;
    let moves = b.wait_moves(2).await;
    assert_eq!(moves[0], "e1g1");
    // The same castling by clicking the King and then its Rook.
    b.open(&castling).await;
    my_turn(&b).await;
    b.click_cell("e1").await;
    b.click_cell("a1").await;
    let moves = b.wait_moves(2).await;
    assert_eq!(moves[0], "e1c1");
    // A King in check is marked.
    b.open(&format!(
        "variant=chess&side=white&{NODES}&fen={}",
        url_fen("4k3/8/8/8/8/8/8/r3K3 w - - 0 1")
    ))
    .await;
    my_turn(&b).await;
    assert_eq!(b.attrs(".cell.danger", "data-cell").await, ["e1"]);
    assert!(b.text("#status").await.contains("King in danger"));
    b.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn pole_teleport_by_click_and_drop_by_typing() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(b) = browser().await else { return };
    // A Pole on the board goes to any empty square.
    let fen = "rnbqkbnr/pppppppp/8/8/4O3/8/PPPPPPPP/RNBQKBNR[o] w KQkq - 0 1";
    b.open(&format!(
        "variant=pole&side=white&{NODES}&fen={}",
        url_fen(fen)
    ))
    .await;
    my_turn(&b).await;
    b.click_cell("e4").await;
    let targets = b.targets().await;
    assert_eq!(targets.len(), 31, "every other empty square: {targets:?}");
    b.click_cell("a6").await;
    let moves = b.wait_moves(2).await;
    assert_eq!(moves[0], "e4a6");
    // A drop typed in protocol notation.
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Oo+] w KQkq - 0 1";
    b.open(&format!(
        "variant=pole&side=white&{NODES}&fen={}",
        url_fen(fen)
    ))
    .await;
    my_turn(&b).await;
    b.type_into("#typed-move-input", "O@d5").await;
    let moves = b.wait_moves(2).await;
    assert_eq!(moves[0], "O@d5");
    b.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn unicorn_promotion_after_a_capture() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(b) = browser().await else { return };
    use strata::rules::{AnyGame, Game, MoveList, Variant};
    // A White Unicorn among Black Pawns, with a Queen in the reserve.
    let fen = "6/6/6/6/6/6|8/8/8/8/8/pppppppp/8/8|4k5/10/10/10/10/10/10/2U7/10/4K5|8/8/8/8/8/pppppppp/8/8|6/6/6/6/6/6[Q] w - 0 1";
    let game = AnyGame::from_fen(Variant::Polyhedron, fen).expect("the FEN");
    let mut legal = MoveList::new();
    game.generate(&mut legal);
    let from = legal
        .iter()
        .find(|m| m.promotion().is_some())
        .map(|m| m.from())
        .expect("a Unicorn capture that may promote");
    let to = legal
        .iter()
        .find(|m| m.promotion().is_some())
        .map(|m| m.to())
        .unwrap();
    let (from, to) = (game.cell_name(from), game.cell_name(to));
    assert_eq!(from, "Cc3");
    b.open(&format!(
        "variant=polyhedron&side=white&{NODES}&fen={}",
        url_fen(fen)
    ))
    .await;
    my_turn(&b).await;
    b.click_cell(&from).await;
    b.click_cell(&to).await;
    // The Unicorn may stay, or become the Queen of the reserve.
    b.wait("#chooser:not([hidden])").await;
    let mut choices = b.attrs("#chooser button", "data-move").await;
    choices.sort();
    assert_eq!(choices, [format!("{from}{to}"), format!("{from}{to}q")]);
    choose(&b, &format!("{from}{to}q")).await;
    let moves = b.wait_moves(2).await;
    assert_eq!(moves[0], format!("{from}{to}q"));
    b.close().await;
}

/// Not a test of speed (nothing asserts a time): selects each White piece of a crowded
/// Polyhedron middle game, checks that exactly its legal targets light up, and reports how
/// long the page took from the press to the painted highlight (`data-highlight-ms`) in
/// `target/gui-screenshots/highlight-latency.txt`.
#[tokio::test(flavor = "multi_thread")]
async fn polyhedron_highlight_latency_is_reported() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(b) = browser().await else { return };
    use strata::rules::{AnyGame, Game, MoveFlag, MoveList, Variant};
    let info = Variant::Polyhedron.info();
    let fen = *info
        .bench_positions
        .iter()
        .find(|f| **f != info.start_fen)
        .expect("a middle game");
    let game = AnyGame::from_fen(Variant::Polyhedron, fen).expect("the bench FEN");
    let mut legal = MoveList::new();
    game.generate(&mut legal);
    b.open(&format!(
        "variant=polyhedron&side=white&{NODES}&fen={}",
        url_fen(fen)
    ))
    .await;
    my_turn(&b).await;
    let mut times = Vec::new();
    let mut checked = 0;
    for piece in b.cells_of("White").await {
        let mut expected: Vec<String> = legal
            .iter()
            .filter(|m| !matches!(m.flag(), MoveFlag::Drop | MoveFlag::Pass))
            .filter(|m| game.cell_name(m.from()) == piece)
            .map(|m| game.cell_name(m.to()))
            .collect();
        expected.sort();
        expected.dedup();
        b.run("delete document.body.dataset.highlightMs;").await;
        b.click_cell(&piece).await;
        let until = std::time::Instant::now() + common::browser::PATIENCE;
        let ms = loop {
            let v = b
                .run("return document.body.dataset.highlightMs ?? null;")
                .await;
            if let Some(s) = v.as_str() {
                break s.parse::<f64>().expect("a number of milliseconds");
            }
            assert!(std::time::Instant::now() < until, "no highlight time");
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        let mut targets = b.targets().await;
        targets.sort();
        assert_eq!(targets, expected, "the targets of {piece}");
        if !expected.is_empty() {
            times.push(ms);
            checked += 1;
        }
        b.run("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape'}));")
            .await;
    }
    assert!(checked >= 20, "only {checked} White pieces with moves");
    report_latency(
        "highlight-latency",
        "click to highlighted targets",
        legal.len(),
        &mut times,
    );
    b.close().await;
}

/// The screenshots of `docs/screenshots/` (shown in the README): in each variant the start
/// followed by a few moves of strata against itself, then a piece of the person selected
/// with its targets lit (in the 3D variants, targets on other levels). Run on demand:
/// `cargo test --release --test gui_browser -- --ignored screenshots_for_the_docs`.
#[tokio::test(flavor = "multi_thread")]
#[ignore = "writes docs/screenshots/; run on demand"]
async fn screenshots_for_the_docs() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(b) = browser_of_size(1400, 860).await else {
        return;
    };
    use strata::rules::Variant;
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/screenshots");
    for v in Variant::ALL {
        let colours = v.info().colours;
        let moves = common::browser::engine_game(v.name(), 4 * colours, 20_000);
        // The person has the move after them (White: the game went round).
        let seats = if colours == 4 {
            "seats=white,gold"
        } else {
            "side=white"
        };
        b.open(&format!(
            "variant={}&{seats}&{NODES}&moves={}",
            v.name(),
            moves.join(",")
        ))
        .await;
        b.wait_moves(moves.len()).await;
        my_turn(&b).await;
        piece_with_targets(&b, "White", v.layout().levels.len() > 1).await;
        b.run("document.activeElement?.blur();").await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        b.screenshot(&dir.join(format!("{}.png", v.name()))).await;
    }
    // The 3D view's pictures come from tests/gui_3d.rs's own `screenshots_for_the_docs`.
    // An analysis board of a Pentaplane game: three lines, then a variation from one.
    let moves = common::browser::engine_game("pentaplane", 6, 20_000);
    b.open(&format!(
        "variant=pentaplane&mode=analysis&moves={}",
        moves.join(",")
    ))
    .await;
    b.wait(".pv-line:nth-child(3)").await;
    tokio::time::sleep(Duration::from_millis(3000)).await;
    b.run("document.querySelector('.pv-line:nth-child(2) .pv-move[data-index=\"1\"]')?.click();")
        .await;
    tokio::time::sleep(Duration::from_millis(4000)).await;
    b.screenshot(&dir.join("analysis.png")).await;
    b.close().await;
}

/// The y coordinate of cell `name`'s centre on screen.
async fn cell_y(b: &Browser, name: &str) -> f64 {
    b.run(&format!(
        "const r = document.querySelector('[data-cell=\"{name}\"]').getBoundingClientRect(); return r.top + r.height / 2;"
    ))
    .await
    .as_f64()
    .expect("a number")
}

/// Waits until `script` (returning a boolean) is true.
async fn until_true(b: &Browser, what: &str, script: &str) {
    let until = std::time::Instant::now() + common::browser::PATIENCE;
    while b.run(script).await != serde_json::Value::Bool(true) {
        assert!(std::time::Instant::now() < until, "never: {what}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_game_through_the_pages_controls() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(b) = browser().await else { return };
    // Without a game in the URL the new-game form opens: Pole Chess, a clock of 1 min + 1 s.
    b.open("").await;
    b.wait("#new-game-dialog[open]").await;
    b.wait("#ng-variant option[value=\"pole\"]").await;
    // A FEN typed for one variant is not kept for another.
    let form = "document.getElementById('new-game-form')";
    b.run(&format!(
        "{form}.elements.start.value = 'fen'; document.getElementById('ng-fen').value = '4k3/8/8/8/8/8/8/4K3 w - - 0 1';"
    ))
    .await;
    b.wait("#ng-variant")
        .await
        .select_by_value("pole")
        .await
        .expect("choose the variant");
    let start = b
        .run(&format!(
            "return [{form}.elements.start.value, document.getElementById('ng-fen').value];"
        ))
        .await;
    assert_eq!(start, serde_json::json!(["standard", ""]));
    b.wait("#ng-clock")
        .await
        .select_by_value("60+1")
        .await
        .expect("choose the clock");
    let seats = b.attrs("#ng-seats select", "name").await;
    assert_eq!(seats, ["seat0", "seat1"]);
    // The engine's strength: full, or a level by name and Elo from the UCI_Elo range strata
    // declares, the weakest first.
    let levels = b.texts("#ng-strength-select option").await;
    assert_eq!(levels[0], "Full strength");
    let weakest = format!("(Elo {})", strata::search::elo::MIN_ELO);
    assert!(levels[1].ends_with(&weakest), "{levels:?}");
    assert!(levels.len() >= 5, "{levels:?}");
    let elo_of = |l: &str| -> i64 {
        let at = l.rfind("Elo ").expect("an Elo in every level") + 4;
        l[at..l.len() - 1].parse().expect("a number")
    };
    assert!(
        levels[1..]
            .windows(2)
            .all(|w| elo_of(&w[0]) < elo_of(&w[1]))
    );
    assert!(elo_of(&levels[levels.len() - 1]) <= strata::search::elo::MAX_ELO);
    b.wait("#ng-strength-select")
        .await
        .select_by_value("0")
        .await
        .expect("choose the weakest level");
    b.click("#ng-start").await;
    my_turn(&b).await;
    // The engine's seat says its level.
    let names = b.texts(".clock-name").await;
    assert!(names[1].ends_with(&weakest), "{names:?}");
    assert!(!names[0].contains("Elo"), "{names:?}");
    let clocks = b.attrs(".clock-time", "data-colour").await;
    assert_eq!(clocks.len(), 2);
    let white_clock = b.text(".clock-time[data-colour=\"0\"]").await;
    assert!(
        white_clock.starts_with("1:00") || white_clock.starts_with("0:5"),
        "White's clock: {white_clock}"
    );
    // A move by clicking; the engine replies.
    b.click_cell("e2").await;
    b.click_cell("e4").await;
    b.wait_moves(2).await;
    // Looking back: a click on the first move shows the position after it; End returns.
    b.click("#moves [data-ply=\"1\"]").await;
    let banner = b.wait("#history-banner:not([hidden])").await;
    assert!(
        banner.text().await.unwrap().contains("after move 1 of 2"),
        "the banner says where we are"
    );
    assert_eq!(
        b.attrs("[data-cell=\"e4\"] svg", "aria-label").await,
        ["White Pawn"]
    );
    b.wait("body")
        .await
        .send_keys("\u{E010}")
        .await
        .expect("End");
    until_true(
        &b,
        "back at the game",
        "return document.getElementById('history-banner').hidden;",
    )
    .await;
    // Export: the PGN as strata match writes it.
    b.click("#export").await;
    b.wait("#text-dialog[open]").await;
    let pgn = b
        .run("return document.getElementById('text-dialog-text').value;")
        .await;
    let pgn = pgn.as_str().unwrap_or("");
    assert!(
        pgn.contains("[Variant \"pole\"]") && pgn.contains("1. e4"),
        "{pgn}"
    );
    b.click("#text-dialog-cancel").await;
    // Import a FEN: play goes on from it.
    b.click("#import").await;
    b.wait("#text-dialog[open]").await;
    b.wait("#text-dialog-text")
        .await
        .send_keys("4k3/8/8/8/8/8/4P3/4K3[Oo] w - - 0 1")
        .await
        .expect("type the FEN");
    b.click("#text-dialog-ok").await;
    b.wait_moves(0).await;
    my_turn(&b).await;
    let mut white = b.cells_of("White").await;
    white.sort();
    assert_eq!(white, ["e1", "e2"]);
    let white_clock = b.text(".clock-time[data-colour=\"0\"]").await;
    assert!(
        white_clock.contains(':'),
        "the imported game keeps the clock: {white_clock}"
    );
    // Flip: the first rank goes to the top, and back.
    assert!(cell_y(&b, "e1").await > cell_y(&b, "e8").await);
    b.click("#flip").await;
    assert!(cell_y(&b, "e1").await < cell_y(&b, "e8").await);
    b.click("#flip").await;
    // A draw offer to an engine with no score yet is declined, in words.
    b.click("#draw").await;
    message_says(&b, "declines").await;
    // Resign, confirmed: the result says so.
    b.click("#resign").await;
    b.client.accept_alert().await.expect("the confirmation");
    let result = b.wait("[data-result]").await;
    assert_eq!(
        result.attr("data-result").await.unwrap().as_deref(),
        Some("0-1")
    );
    assert!(result.text().await.unwrap().contains("White resigns"));
    b.screenshot(&shot_path("controls-resigned")).await;
    b.close().await;
}
