//! The 3D view of `strata gui` in a real headless Chromium (WebGL in software): it draws a
//! non-blank picture; a piece clicked in 3D (at the point of the screen where the view says
//! its cell is) is selected and its legal targets (those of the rules layer, on other levels
//! too) are highlighted, the same as on the 2D board after switching; a move is played by
//! clicking in 3D; the orthographic option and switching views keep the game.
//!
//! And in one tab, chess then Polyhedron, Podionic, Future Generation and Pentaplane: each
//! variant's board rebuilt with exactly the pieces of its position (glyphs of its own pieces,
//! not the previous variant's), the levels stacked in the order the rules layer gives
//! (Polyhedron's and Pentaplane's A at the bottom, Podionic's and Future Generation's at the
//! top), no error on the page, the level-spacing slider spreading the
//! levels, every cell of every level reachable by a click with the levels spread, the camera
//! kept above the board and within reach, and "Reset view" bringing back the default view.
//!
//! And the tryout's blocker (issue 71): a Podionic game started while the 3D view is shown,
//! then the 2D board, its levels apart as a fresh layout places them; no level spacing for
//! chess.

mod common;

use common::browser::{Browser, ONE_AT_A_TIME, PATIENCE, launch, shot_path};
use serde_json::Value;
use std::collections::BTreeSet;
use std::time::{Duration, Instant};
use strata::gui::describe::{legal_moves, pieces, variant_view};
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
    b.screenshot(&shot_path("view3d-start")).await;
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

/// Hides the message line (a refusal left by an earlier click), for a picture of the board
/// alone, and waits two frames: the page's layout (a scroll bar gone, the canvas's width)
/// and the view's framing settle.
async fn clear_message(b: &Browser) {
    b.run(
        "document.getElementById('message').hidden = true;
         document.activeElement?.blur();
         return new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));",
    )
    .await;
}

/// What the 3D view's scene holds (its `snapshot()`: pieces as drawn, level heights, camera).
async fn snapshot(b: &Browser) -> Value {
    b.run("return document.getElementById('view3d').snapshot();")
        .await
}

/// The pieces of `variant`'s start position as (cell name, colour, piece name), sorted: what
/// the server's state holds, from the rules layer.
fn start_pieces(variant: Variant) -> Vec<(String, u64, String)> {
    let g = AnyGame::startpos(variant);
    let cells = variant.layout().cells;
    let kinds = variant.info().pieces;
    let mut out: Vec<_> = pieces(&g, cells.len())
        .into_iter()
        .map(|(cell, colour, kind)| {
            (
                cells[cell as usize].name.clone(),
                u64::from(colour),
                kinds[kind as usize].name.to_string(),
            )
        })
        .collect();
    out.sort();
    out
}

/// The pieces the 3D view draws, as [`start_pieces`] lists them.
fn drawn_pieces(snap: &Value) -> Vec<(String, u64, String)> {
    let mut out: Vec<_> = snap["pieces"]
        .as_array()
        .expect("a list of pieces")
        .iter()
        .map(|p| {
            (
                p[0].as_str().unwrap().to_string(),
                p[1].as_u64().unwrap(),
                p[2].as_str().unwrap().to_string(),
            )
        })
        .collect();
    out.sort();
    out
}

/// Waits until the 3D view shows `variant`'s start position, piece for piece; returns its
/// snapshot.
async fn shows_start_of(b: &Browser, variant: Variant) -> Value {
    let expected = start_pieces(variant);
    let until = Instant::now() + PATIENCE;
    loop {
        let snap = snapshot(b).await;
        if snap["variant"] == variant.name() && drawn_pieces(&snap) == expected {
            return snap;
        }
        assert!(
            Instant::now() < until,
            "the 3D view never shows {}'s start: {:?}",
            variant.name(),
            snap
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Collects the page's errors from now on: uncaught exceptions, rejected promises and
/// `console.error`.
async fn collect_errors(b: &Browser) {
    b.run(
        "if (!window.pageErrors) {
           window.pageErrors = [];
           addEventListener('error', (e) => pageErrors.push(`${e.message} at ${e.filename}:${e.lineno}`));
           addEventListener('unhandledrejection', (e) => pageErrors.push(String(e.reason)));
           const error = console.error.bind(console);
           console.error = (...a) => { pageErrors.push(a.map(String).join(' ')); error(...a); };
         }",
    )
    .await;
}

/// The page's errors collected so far.
async fn page_errors(b: &Browser) -> Vec<String> {
    serde_json::from_value(b.run("return window.pageErrors;").await).unwrap()
}

/// Starts a new game of `variant` in the same tab, through the new-game dialog.
async fn new_game_in_tab(b: &Browser, variant: Variant) {
    b.click("#new-game").await;
    b.wait("#new-game-dialog[open]").await;
    b.wait("#ng-variant")
        .await
        .select_by_value(variant.name())
        .await
        .expect("choose the variant");
    b.click("#ng-start").await;
}

/// The heights of `variant`'s levels as the rules layer gives them, by letter.
fn rule_heights(variant: Variant) -> Vec<(String, usize)> {
    variant_view(variant)
        .levels
        .iter()
        .map(|l| (l.letter.to_string(), l.height))
        .collect()
}

/// Checks that the levels of the snapshot lie in the rules' order, `spread` apart.
fn levels_in_rules_order(variant: Variant, snap: &Value, spread: f64) {
    let heights = rule_heights(variant);
    let y = |letter: &str| snap["levels"][letter].as_f64().unwrap();
    for (a, ha) in &heights {
        for (b, hb) in &heights {
            let expected = (*ha as f64 - *hb as f64) * spread;
            assert!(
                (y(a) - y(b) - expected).abs() < 1e-6,
                "{}: level {a} at {}, {b} at {} (heights {ha}, {hb}, spread {spread})",
                variant.name(),
                y(a),
                y(b)
            );
        }
    }
}

/// Sets the level-spacing slider as a person does: focus it and press a key (`End`: the
/// widest, `Home`: the narrowest).
async fn spread_key(b: &Browser, key: &str) {
    b.wait("#level-spread")
        .await
        .send_keys(key)
        .await
        .expect("the slider takes the key");
}

/// The cells of the 3D view that no click can reach in the view as it stands.
async fn unreachable_cells(b: &Browser) -> Vec<String> {
    serde_json::from_value(
        b.run(
            "const c = document.getElementById('view3d');
             return window.allCells.filter((n) => c.screenOf(n) === null);",
        )
        .await,
    )
    .unwrap()
}

/// Drags the mouse from (x, y) by (dx, dy) pixels, in steps, with the left button.
async fn drag_by(b: &Browser, (x, y): (f64, f64), (dx, dy): (f64, f64)) {
    use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, MouseActions, PointerAction};
    let mut mouse = MouseActions::new("mouse".into())
        .then(PointerAction::MoveTo {
            duration: Some(Duration::from_millis(50)),
            x,
            y,
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        });
    for _ in 0..10 {
        mouse = mouse.then(PointerAction::MoveBy {
            duration: Some(Duration::from_millis(40)),
            x: dx / 10.0,
            y: dy / 10.0,
        });
    }
    mouse = mouse.then(PointerAction::Up {
        button: MOUSE_BUTTON_LEFT,
    });
    b.client.perform_actions(mouse).await.expect("a drag");
}

/// The camera's angle from straight up, around the point it turns around (radians).
fn polar(snap: &Value) -> f64 {
    let d = |k: &str| snap["camera"][k].as_f64().unwrap() - snap["target"][k].as_f64().unwrap();
    let (x, y, z) = (d("x"), d("y"), d("z"));
    (y / (x * x + y * y + z * z).sqrt()).acos()
}

/// Whether two camera positions are the same.
fn same_camera(a: &Value, b: &Value) -> bool {
    ["x", "y", "z"].iter().all(|k| {
        (a["camera"][k].as_f64().unwrap() - b["camera"][k].as_f64().unwrap()).abs() < 1e-6
            && (a["target"][k].as_f64().unwrap() - b["target"][k].as_f64().unwrap()).abs() < 1e-6
    })
}

/// Clicks `name` in 3D and checks that the click reached it (a piece of the side to move it
/// selects is clicked again, to leave nothing selected for the next click).
async fn click_reaches(b: &Browser, name: &str) {
    b.run("document.getElementById('view3d').dataset.pressedCell = '';")
        .await;
    // The message line (a refusal of an earlier click) lies over the page and lets clicks
    // through; hidden all the same, with the page settled, before the cell's point is taken.
    clear_message(b).await;
    click_3d(b, name).await;
    let until = Instant::now() + Duration::from_secs(5);
    loop {
        let pressed = canvas_attr(b, "data-pressed-cell").await;
        if pressed == name {
            break;
        }
        assert!(
            Instant::now() < until && pressed.is_empty(),
            "a click on {name} in 3D reaches '{pressed}'"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    if canvas_attr(b, "data-selected-cell").await == name {
        // The page may change its layout for a selection: let it settle first.
        clear_message(b).await;
        click_3d(b, name).await;
        let until = Instant::now() + Duration::from_secs(5);
        while !canvas_attr(b, "data-selected-cell").await.is_empty() {
            assert!(
                Instant::now() < until,
                "a second click on {name} leaves '{}' selected",
                canvas_attr(b, "data-selected-cell").await
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

/// The camera checks: it cannot be turned under the board nor zoomed out of reach, and
/// "Reset view" brings back the default view.
async fn camera_stays_right(b: &Browser, variant: Variant) {
    b.click("#reset-view").await;
    let home = snapshot(b).await;
    let rect = b
        .run("const r = document.getElementById('view3d').getBoundingClientRect(); return [r.left, r.top, r.width, r.height];")
        .await;
    let (left, top, width, height) = (
        rect[0].as_f64().unwrap(),
        rect[1].as_f64().unwrap(),
        rect[2].as_f64().unwrap(),
        rect[3].as_f64().unwrap(),
    );
    // Drag upwards over the whole canvas, twice: turning the camera down as far as it goes.
    for _ in 0..2 {
        drag_by(
            b,
            (left + width / 2.0, top + height - 10.0),
            (0.0, -(height - 20.0)),
        )
        .await;
    }
    let low = snapshot(b).await;
    assert!(!same_camera(&low, &home), "the drag turns the view");
    assert!(
        polar(&low) < std::f64::consts::FRAC_PI_2,
        "{}: the camera passed the horizon ({} rad from straight up)",
        variant.name(),
        polar(&low)
    );
    let bottom = low["bottom"].as_f64().unwrap();
    assert!(
        low["camera"]["y"].as_f64().unwrap() > bottom,
        "{}: the camera under the board: {low:?}",
        variant.name()
    );
    // The wheel, far out: the camera stops at its farthest.
    b.run(
        "const c = document.getElementById('view3d');
         for (let i = 0; i < 60; i++) c.dispatchEvent(new WheelEvent('wheel', { deltaY: 400, clientX: 300, clientY: 300, bubbles: true, cancelable: true }));",
    )
    .await;
    let far = snapshot(b).await;
    let (distance, max) = (
        far["distance"].as_f64().unwrap(),
        far["maxDistance"].as_f64().unwrap(),
    );
    assert!(
        distance > home["distance"].as_f64().unwrap(),
        "the wheel zooms out"
    );
    assert!(distance <= max + 1e-6, "{distance} beyond {max}");
    assert!(max.is_finite());
    b.click("#reset-view").await;
    let back = snapshot(b).await;
    assert!(
        same_camera(&back, &home),
        "Reset view: {back:?}, the default {home:?}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn variant_changes_in_one_tab_rebuild_the_3d_view_in_each_variants_order() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(b) = launch(1500, 1000).await else {
        return;
    };
    b.open("variant=chess&side=white&nodes=3000&view=3d").await;
    b.wait("#view3d").await;
    collect_errors(&b).await;
    frames_at_least(&b, 1).await;
    let chess = shows_start_of(&b, Variant::Chess).await;
    assert_eq!(chess["levels"]["A"].as_f64(), Some(0.0));
    for variant in [
        Variant::Polyhedron,
        Variant::Podionic,
        Variant::FutureGeneration,
        Variant::Pentaplane,
    ] {
        new_game_in_tab(&b, variant).await;
        let snap = shows_start_of(&b, variant).await;
        let errors = page_errors(&b).await;
        assert!(errors.is_empty(), "after {}: {errors:?}", variant.name());
        // The levels in the rules' order, at the spread the slider shows.
        let spread = snap["spread"].as_f64().unwrap();
        levels_in_rules_order(variant, &snap, spread);
        let (a, b_) = (
            snap["levels"]["A"].as_f64().unwrap(),
            snap["levels"]["B"].as_f64().unwrap(),
        );
        // As each variant's page in docs/variants/ says.
        let a_on_top = matches!(variant, Variant::Podionic | Variant::FutureGeneration);
        assert_eq!(a > b_, a_on_top, "{}: A at {a}, B at {b_}", variant.name());
        // The glyphs load as images: a few frames later the picture is whole.
        tokio::time::sleep(Duration::from_millis(600)).await;
        clear_message(&b).await;
        let (colours, top) = variety(&b).await;
        assert!(
            colours >= 40 && top < 0.9,
            "{colours} colours, the commonest {top:.2}"
        );
        b.screenshot(&shot_path(&format!("view3d-{}", variant.name())))
            .await;
        // The slider spreads the levels: the widest, then back to the narrowest and the widest.
        spread_key(&b, "\u{E010}").await;
        let wide = snapshot(&b).await;
        let widest = wide["spread"].as_f64().unwrap();
        assert!(widest > spread, "End widens the spacing: {widest}");
        levels_in_rules_order(variant, &wide, widest);
        spread_key(&b, "\u{E011}").await;
        let narrow = snapshot(&b).await;
        let narrowest = narrow["spread"].as_f64().unwrap();
        assert!(narrowest < spread, "Home narrows it: {narrowest}");
        levels_in_rules_order(variant, &narrow, narrowest);
        spread_key(&b, "\u{E010}").await;
        b.click("#reset-view").await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        b.screenshot(&shot_path(&format!("view3d-{}-spread", variant.name())))
            .await;
        // Every cell of every level can be clicked, with the levels spread.
        let names: Vec<String> = variant
            .layout()
            .cells
            .iter()
            .map(|c| c.name.clone())
            .collect();
        b.run(&format!("window.allCells = {};", serde_json::json!(names)))
            .await;
        let hidden = unreachable_cells(&b).await;
        assert!(
            hidden.is_empty(),
            "{}: no click reaches {hidden:?}",
            variant.name()
        );
        let levels: BTreeSet<char> = names.iter().map(|n| level(n)).collect();
        let clicked: Vec<&String> = match variant {
            // Podionic's 64 cells, every one clicked.
            Variant::Podionic => names.iter().collect(),
            // The others' (Polyhedron's 300): on every level its first and last cells and an
            // inner one.
            _ => levels
                .iter()
                .flat_map(|&l| {
                    let on: Vec<&String> = names.iter().filter(|n| level(n) == l).collect();
                    [on[0], on[on.len() / 2 + 1], on[on.len() - 1]]
                })
                .collect(),
        };
        for name in clicked {
            click_reaches(&b, name).await;
        }
        // A piece on the lowest level is selected by a click, with its targets.
        let lowest = rule_heights(variant)
            .into_iter()
            .min_by_key(|(_, h)| *h)
            .unwrap()
            .0;
        let moves = start_moves(variant);
        let (from, _) = moves
            .iter()
            .find(|(f, _)| f.starts_with(&lowest))
            .or_else(|| moves.first())
            .unwrap()
            .clone();
        click_3d(&b, &from).await;
        assert_eq!(canvas_attr(&b, "data-selected-cell").await, from);
        let targets: BTreeSet<String> = moves
            .iter()
            .filter(|(f, _)| *f == from)
            .map(|(_, t)| t.clone())
            .collect();
        let shown: BTreeSet<String> = canvas_attr(&b, "data-targets")
            .await
            .split(' ')
            .map(str::to_string)
            .collect();
        assert_eq!(shown, targets);
        click_3d(&b, &from).await;
        camera_stays_right(&b, variant).await;
        // Back to the first spacing for the next variant.
        b.run(&format!(
            "const s = document.getElementById('level-spread'); s.value = '{spread}'; s.dispatchEvent(new Event('input'));"
        ))
        .await;
    }
    let errors = page_errors(&b).await;
    assert!(errors.is_empty(), "{errors:?}");
    b.close().await;
}

/// The 2D board's level panels (`[letter, left, top, right, bottom]`) and its cells'
/// sizes (the smallest and the largest width) as laid out now.
async fn level_boxes(b: &Browser) -> (Vec<(String, f64, f64, f64, f64)>, f64, f64) {
    let v = b
        .run(
            "const boxes = [...document.querySelectorAll('#board .level')].map((l) => {
               const r = l.getBoundingClientRect();
               return [l.dataset.level, r.left, r.top, r.right, r.bottom];
             });
             const w = [...document.querySelectorAll('#board [data-cell]')].map((c) => c.getBoundingClientRect().width);
             return [boxes, Math.min(...w), Math.max(...w)];",
        )
        .await;
    (
        serde_json::from_value(v[0].clone()).expect("boxes"),
        v[1].as_f64().unwrap(),
        v[2].as_f64().unwrap(),
    )
}

/// Whether the level-spacing slider is on screen.
async fn spacing_shown(b: &Browser) -> bool {
    b.run("return document.getElementById('level-spread').offsetParent !== null;")
        .await
        == Value::Bool(true)
}

/// The tryout's blocker: a Podionic game started from the form while the 3D view is shown
/// (coming from chess), then "2D view": the 2D board had been laid out while hidden, every
/// level panel measured as 0 px wide, so all four were drawn on one another in one small
/// square until a resize. Now the levels lie apart, with cells of the size a fresh layout
/// gives them (the same after a resize). And the level-spacing slider is offered only for
/// a board of several levels.
#[tokio::test(flavor = "multi_thread")]
async fn a_podionic_game_started_in_3d_is_laid_out_in_2d() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(b) = launch(1280, 800).await else {
        return;
    };
    b.open("variant=chess&side=white&nodes=3000&view=3d").await;
    b.wait("#view3d").await;
    shows_start_of(&b, Variant::Chess).await;
    assert!(
        !spacing_shown(&b).await,
        "chess (one level) offers a level spacing"
    );
    new_game_in_tab(&b, Variant::Podionic).await;
    shows_start_of(&b, Variant::Podionic).await;
    assert!(spacing_shown(&b).await, "Podionic offers no level spacing");
    b.click("#view-toggle").await;
    b.wait("#board:not([hidden]) [data-cell]").await;
    let (boxes, smallest, largest) = level_boxes(&b).await;
    b.screenshot(&shot_path("view3d-podionic-then-2d")).await;
    assert_eq!(boxes.len(), 4, "{boxes:?}");
    for (i, a) in boxes.iter().enumerate() {
        for c in &boxes[i + 1..] {
            let apart = a.3 <= c.1 || c.3 <= a.1 || a.4 <= c.2 || c.4 <= a.2;
            assert!(apart, "level {} {a:?} overlaps level {} {c:?}", a.0, c.0);
        }
    }
    // The note under the board, under it, not across it.
    let note_top = b
        .run("return document.getElementById('levels-note').getBoundingClientRect().top;")
        .await
        .as_f64()
        .unwrap();
    let board_bottom = boxes.iter().map(|x| x.4).fold(0.0, f64::max);
    assert!(
        note_top >= board_bottom,
        "the level note at {note_top}, the board down to {board_bottom}"
    );
    // The layout a resize makes (the one the tryout had to force) is the one shown.
    b.run(
        "dispatchEvent(new Event('resize'));
         return new Promise((r) => requestAnimationFrame(() => r()));",
    )
    .await;
    let (after, smallest_after, _) = level_boxes(&b).await;
    assert!(
        smallest >= 40.0 && smallest == largest,
        "cells of {smallest} to {largest} px"
    );
    assert_eq!(smallest, smallest_after, "the cells' size after a resize");
    assert_eq!(boxes, after, "the levels' places after a resize");
    // Back in 3D and to chess: no spacing for one level.
    b.click("#view-toggle").await;
    b.wait("#board3d:not([hidden])").await;
    new_game_in_tab(&b, Variant::Chess).await;
    shows_start_of(&b, Variant::Chess).await;
    assert!(!spacing_shown(&b).await, "chess offers a level spacing");
    b.close().await;
}

/// The 3D view's pictures in `docs/screenshots/` (the README shows `view3d.png`), each taken
/// after a variant change in the same tab: Polyhedron (A at the bottom, the levels spread a
/// little, a piece's targets lit on other levels), then Podionic (A at the top). Run on
/// demand: `cargo test --test gui_3d -- --ignored screenshots_for_the_docs`.
#[tokio::test(flavor = "multi_thread")]
#[ignore = "writes docs/screenshots/; run on demand"]
async fn screenshots_for_the_docs() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(b) = launch(1400, 860).await else {
        return;
    };
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/screenshots");
    b.open("variant=chess&side=white&nodes=3000&view=3d").await;
    b.wait("#view3d").await;
    shows_start_of(&b, Variant::Chess).await;
    for (variant, spread, turn, file) in [
        (Variant::Polyhedron, "5", 35.0, "view3d.png"),
        (Variant::Podionic, "3", 0.0, "view3d-podionic.png"),
    ] {
        new_game_in_tab(&b, variant).await;
        shows_start_of(&b, variant).await;
        b.run(&format!(
            "const s = document.getElementById('level-spread'); s.value = '{spread}'; s.dispatchEvent(new Event('input'));"
        ))
        .await;
        b.click("#reset-view").await;
        // Turned a little by a drag, as a person looks round the stack.
        let rect = b
            .run("const r = document.getElementById('view3d').getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height - 20];")
            .await;
        let from = (rect[0].as_f64().unwrap(), rect[1].as_f64().unwrap());
        drag_by(&b, from, (turn, 0.0)).await;
        // The piece whose targets lie on the most levels (then the most targets), selected.
        let moves = start_moves(variant);
        let spread_of = |from: &String| {
            let to: Vec<&String> = moves
                .iter()
                .filter(|(f, _)| f == from)
                .map(|(_, t)| t)
                .collect();
            let levels: BTreeSet<char> = to.iter().map(|t| level(t)).collect();
            (levels.len(), to.len())
        };
        let mut pieces: Vec<String> = moves
            .iter()
            .map(|(f, _)| f.clone())
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        pieces.sort_by_key(|f| std::cmp::Reverse(spread_of(f)));
        let mut piece = None;
        for p in pieces {
            let seen = b
                .run(&format!(
                    "return document.getElementById('view3d').screenOf('{p}') !== null;"
                ))
                .await;
            if seen == Value::Bool(true) {
                piece = Some(p);
                break;
            }
        }
        let piece = piece.expect("a piece in sight");
        click_3d(&b, &piece).await;
        assert_eq!(canvas_attr(&b, "data-selected-cell").await, piece);
        tokio::time::sleep(Duration::from_millis(800)).await;
        clear_message(&b).await;
        b.screenshot(&dir.join(file)).await;
        click_3d(&b, &piece).await;
    }
    b.close().await;
}
