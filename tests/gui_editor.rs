//! The position editor of `strata gui` in a real headless Chromium (as `gui_browser.rs`):
//! pieces removed and placed by clicking on several levels and the side to move changed
//! give the FEN the rules layer writes for that placement; the position is then analysed
//! from that FEN; a placement or a FEN the reader refuses shows the reader's own error and
//! cannot be played.

mod common;

use common::browser::{Browser, ONE_AT_A_TIME, PATIENCE, launch, shot_path};
use std::time::{Duration, Instant};
use strata::rules::piece::{Colour, Piece};
use strata::rules::{AnyGame, Game, Variant};

const V: Variant = Variant::Polyhedron;

fn cell(name: &str) -> usize {
    V.layout()
        .cells
        .iter()
        .position(|c| c.name == name)
        .unwrap()
}

fn kind(name: &str) -> u8 {
    V.info().pieces.iter().position(|p| p.name == name).unwrap() as u8
}

/// Every piece of `g`.
fn placement(g: &AnyGame) -> Vec<(usize, Piece)> {
    (0..V.layout().cells.len())
        .map(|c| (c, g.piece_at(c)))
        .filter(|(_, p)| p.is_some())
        .collect()
}

/// Waits until `css`'s attribute or property `what` (read by script) is `want`.
async fn until_value(b: &Browser, script: &str, want: &str) -> String {
    let until = Instant::now() + PATIENCE;
    loop {
        let v = b.run(script).await;
        let v = v.as_str().unwrap_or_default().to_string();
        if v == want {
            return v;
        }
        assert!(Instant::now() < until, "{script} gives '{v}', not '{want}'");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

const FEN: &str = "return document.getElementById('edit-fen').value;";
const ERROR: &str =
    "const e = document.getElementById('edit-error'); return e.hidden ? '' : e.textContent;";

#[tokio::test(flavor = "multi_thread")]
async fn an_edited_position_round_trips_through_fen_and_errors_are_the_readers() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(b) = launch(1500, 1000).await else {
        return;
    };
    b.open("variant=polyhedron&side=white&nodes=3000").await;
    b.wait("[data-cell=\"Cc3\"]").await;
    b.click("#edit").await;
    b.wait("#editor:not([hidden])").await;
    // Remove the pawn on Cc3 (level C), put a White Queen on Dd5 (level D), Black to move.
    b.click("[data-piece=\"erase\"]").await;
    b.click_cell("Cc3").await;
    b.click(&format!("[data-piece=\"0:{}\"]", kind("Queen")))
        .await;
    b.click_cell("Dd5").await;
    b.wait("#edit-to-move")
        .await
        .select_by_value("b")
        .await
        .unwrap();
    // The FEN the rules layer writes for that position.
    let start = AnyGame::startpos(V);
    let mut pieces: Vec<_> = placement(&start)
        .into_iter()
        .filter(|&(c, _)| c != cell("Cc3"))
        .collect();
    pieces.push((cell("Dd5"), Piece::new(kind("Queen"), Colour(0))));
    let white_fen = start.with_placement(&pieces).unwrap();
    let mut t: Vec<&str> = white_fen.split(' ').collect();
    t[1] = "b";
    let want = t.join(" ");
    until_value(&b, FEN, &want).await;
    let edited = AnyGame::from_fen(V, &want).unwrap();
    assert_eq!(edited.side_to_move(), Colour(1));
    assert!(edited.piece_at(cell("Cc3")).is_none());
    b.screenshot(&shot_path("editor")).await;
    // Analysed from there: the board shows that position, Black to move.
    b.click("#edit-analyse").await;
    b.wait("#editor[hidden]").await;
    let until = Instant::now() + PATIENCE;
    while !b
        .text("#status")
        .await
        .contains("Analysis board · Black to move")
    {
        assert!(
            Instant::now() < until,
            "status: {}",
            b.text("#status").await
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let queen = b.attrs("[data-cell=\"Dd5\"]", "aria-label").await;
    assert_eq!(queen, ["Dd5, White Queen"]);
    // (The lines are read in one script: the list is redrawn at every engine line.)
    let until = Instant::now() + PATIENCE;
    let pv = loop {
        if let Some(pv) = b.attrs(".pv-line", "data-pv").await.into_iter().next() {
            break pv;
        }
        assert!(Instant::now() < until, "no analysis line");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let first = pv.split(' ').next().unwrap();
    assert!(edited.parse_move(first).is_ok(), "{first} from {want}");
    // Without White's King the reader refuses, and says why; nothing can be played.
    b.click("#edit").await;
    b.click("[data-piece=\"erase\"]").await;
    let king = placement(&edited)
        .into_iter()
        .find(|(_, p)| p.kind() == kind("King") && p.colour() == Colour(0))
        .unwrap()
        .0;
    b.click_cell(&V.layout().cells[king].name).await;
    let no_king: Vec<_> = placement(&edited)
        .into_iter()
        .filter(|&(c, _)| c != king)
        .collect();
    let says = edited.with_placement(&no_king).unwrap_err();
    until_value(&b, ERROR, &says).await;
    assert_eq!(
        b.attrs("#edit-analyse:disabled", "id").await,
        ["edit-analyse"]
    );
    // A FEN typed in is read by the same reader: its error, word for word.
    let field = b.wait("#edit-fen").await;
    field.clear().await.unwrap();
    field.send_keys("8/8 w").await.unwrap();
    b.click("#edit-apply").await;
    let says = AnyGame::from_fen(V, "8/8 w").unwrap_err();
    until_value(&b, ERROR, &says).await;
    // The valid FEN again: playable.
    field.clear().await.unwrap();
    field.send_keys(&want).await.unwrap();
    b.click("#edit-apply").await;
    until_value(&b, ERROR, "").await;
    assert!(b.attrs("#edit-analyse:disabled", "id").await.is_empty());
    // What is in hand is edited in the FEN: in Pole Chess Black's Pole goes from its hand
    // to e5, White keeps its own in hand.
    b.open("variant=pole&side=white&nodes=3000").await;
    b.wait("[data-cell=\"e2\"]").await;
    b.click("#edit").await;
    let start = Variant::Pole.start_fen();
    let typed = start
        .replace("/8/8/8/8/", "/8/4o3/8/8/")
        .replace("[Oo]", "[O]");
    assert_ne!(typed, start);
    // The box shows the position's FEN when the editor opens.
    until_value(&b, FEN, start).await;
    let field = b.wait("#edit-fen").await;
    field.clear().await.unwrap();
    field.send_keys(&typed).await.unwrap();
    b.click("#edit-apply").await;
    let want = AnyGame::from_fen(Variant::Pole, &typed).unwrap().fen();
    until_value(&b, FEN, &want).await;
    b.click("#edit-play").await;
    b.wait("#editor[hidden]").await;
    let until = Instant::now() + PATIENCE;
    loop {
        let hands = b.attrs("[data-hand]", "data-hand").await;
        if hands.len() == 1 {
            assert!(hands[0].starts_with("0:"), "{hands:?}");
            break;
        }
        assert!(Instant::now() < until, "hands shown: {hands:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    b.close().await;
}
