//! The 3D view of `strata gui` in a real headless Chromium (WebGL in software): it draws a
//! non-blank picture; a piece clicked in 3D (at the point of the screen where the view says
//! its cell is) is selected and its legal targets (those of the rules layer, on other levels
//! too) are highlighted, the same as on the 2D board after switching; a move is played by
//! clicking in 3D; the orthographic option and switching views keep the game.

mod common;

use common::browser::{Browser, ONE_AT_A_TIME, PATIENCE, launch, shot_path};
use std::collections::BTreeSet;
use std::time::{Duration, Instant};
use strata::gui::describe::legal_moves;
use strata::rules::{AnyGame, Variant};

/// Every legal move's (from, to) cell names in `variant`'s start position.
fn start_moves(variant: Variant) -> Vec<(String, String)> {
    let g = AnyGame::from_fen(variant, variant.start_fen()).unwrap();
    let cells = &variant.layout().cells;
    legal_moves(&g)
        .iter()
        .map(|m| {
            (
                cells[m.from as usize].name.to_string(),
                cells[m.to as usize].name.to_string(),
            )
        })
        .collect()
}

/// The 3D canvas's attribute `name`.
async fn canvas_attr(b: &Browser, name: &str) -> String {
    b.attrs("#view3d", name).await.pop().unwrap_or_default()
}

/// Waits until the 3D view has drawn `frames` frames or more.
async fn frames_at_least(b: &Browser, frames: u64) {
    let until = Instant::now() + PATIENCE;
    loop {
        let n: u64 = canvas_attr(b, "data-frames").await.parse().unwrap_or(0);
        if n >= frames {
            return;
        }
        assert!(Instant::now() < until, "the 3D view draws no frame");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// How varied the 3D picture is: the number of distinct colours (4 bits a channel) and the
/// share of the most common one.
async fn variety(b: &Browser) -> (u64, f64) {
    let v = b
        .run(
            "const c = document.getElementById('view3d');
             const t = document.createElement('canvas');
             t.width = c.width; t.height = c.height;
             const g = t.getContext('2d');
             g.drawImage(c, 0, 0);
             const d = g.getImageData(0, 0, t.width, t.height).data;
             const counts = new Map();
             for (let i = 0; i < d.length; i += 4) {
               const k = (d[i] >> 4) << 8 | (d[i + 1] >> 4) << 4 | (d[i + 2] >> 4);
               counts.set(k, (counts.get(k) ?? 0) + 1);
             }
             return [counts.size, Math.max(...counts.values()) / (d.length / 4)];",
        )
        .await;
    (v[0].as_u64().unwrap(), v[1].as_f64().unwrap())
}

/// Clicks cell `name` in the 3D view, where the view says it is on the screen.
async fn click_3d(b: &Browser, name: &str) {
    let p = b
        .run(&format!(
            "return document.getElementById('view3d').screenOf('{name}');"
        ))
        .await;
    let (x, y) = (
        p["x"]
            .as_f64()
            .unwrap_or_else(|| panic!("{name} is hidden in the 3D view")),
        p["y"].as_f64().unwrap(),
    );
    b.click_at(x, y).await;
}

fn level(cell: &str) -> char {
    cell.chars().next().unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_3d_view_draws_selects_and_moves_as_the_2d_board() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(b) = launch(1500, 1000).await else {
        return;
    };
    b.open("variant=polyhedron&side=white&nodes=3000&view=3d")
        .await;
    b.wait("#view3d").await;
    frames_at_least(&b, 1).await;
    // The glyphs load as images: wait for a few more frames before looking.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (colours, top) = variety(&b).await;
    assert!(
        colours >= 40 && top < 0.9,
        "{colours} colours, the commonest {top:.2}"
    );
    assert_eq!(canvas_attr(&b, "data-selected-cell").await, "");
    // Pieces whose targets include one on another level, from the rules layer.
    let moves = start_moves(Variant::Polyhedron);
    let targets_of = |from: &str| -> BTreeSet<String> {
        moves
            .iter()
            .filter(|(f, _)| f == from)
            .map(|(_, t)| t.clone())
            .collect()
    };
    let froms: BTreeSet<String> = moves.iter().map(|(f, _)| f.clone()).collect();
    let piece = froms
        .iter()
        .find(|f| targets_of(f).iter().any(|t| level(t) != level(f)))
        .expect("a piece that moves to another level")
        .clone();
    // Selected in 3D: the canvas names it and its targets, those of the rules layer.
    click_3d(&b, &piece).await;
    let until = Instant::now() + PATIENCE;
    while canvas_attr(&b, "data-selected-cell").await != piece {
        assert!(
            Instant::now() < until,
            "clicking {piece} in 3D selects '{}'",
            canvas_attr(&b, "data-selected-cell").await
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let shown: BTreeSet<String> = canvas_attr(&b, "data-targets")
        .await
        .split(' ')
        .map(str::to_string)
        .collect();
    assert_eq!(shown, targets_of(&piece));
    b.screenshot(&shot_path("view3d-selected")).await;
    // The highlight is drawn: the picture changed.
    let (colours_selected, _) = variety(&b).await;
    assert!(colours_selected >= 40);
    // Switch to 2D: the same piece selected, the same targets.
    b.click("#view-toggle").await;
    b.wait("#board:not([hidden])").await;
    assert_eq!(
        b.attrs(".cell.selected", "data-cell").await,
        vec![piece.clone()]
    );
    let flat: BTreeSet<String> = b.targets().await.into_iter().collect();
    assert_eq!(flat, shown);
    // Back to 3D: a move by clicking its target in 3D; the engine replies.
    b.click("#view-toggle").await;
    b.wait("#board3d:not([hidden])").await;
    frames_at_least(&b, 2).await;
    // A target on another level that this view shows (a person would turn the view to see
    // one that a level in front hides).
    let mut target = None;
    for t in shown.iter().filter(|t| level(t) != level(&piece)) {
        let seen = b
            .run(&format!(
                "return document.getElementById('view3d').screenOf('{t}') !== null;"
            ))
            .await;
        if seen == serde_json::Value::Bool(true) {
            target = Some(t.clone());
            break;
        }
    }
    let target = target.expect("a target on another level in sight");
    click_3d(&b, &target).await;
    let played = b.wait_moves(2).await;
    assert_eq!(played[0], format!("{piece}{target}"));
    assert_eq!(canvas_attr(&b, "data-selected-cell").await, "");
    b.screenshot(&shot_path("view3d-after-move")).await;
    // The orthographic option draws the board too.
    let before: u64 = canvas_attr(&b, "data-frames").await.parse().unwrap();
    b.click("#ortho").await;
    frames_at_least(&b, before + 1).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    b.screenshot(&shot_path("view3d-orthographic")).await;
    let (colours, top) = variety(&b).await;
    assert!(
        colours >= 40 && top < 0.9,
        "{colours} colours, the commonest {top:.2}"
    );
    b.close().await;
}
