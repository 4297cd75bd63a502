//! The analysis board of `strata gui` in a real headless Chromium (as `gui_browser.rs`):
//! the engine's MultiPV lines (`data-pv`, best first) are legal from the position shown and
//! follow every move; a click on a line's move plays the line into a variation that the move
//! list keeps beside the main line.

mod common;

use common::browser::{Browser, ONE_AT_A_TIME, PATIENCE, launch, shot_path};
use std::time::{Duration, Instant};
use strata::rules::{AnyGame, Game, Variant};

/// The position of `variant` after `moves` from the start.
fn after(variant: Variant, moves: &[&str]) -> AnyGame {
    let mut g = AnyGame::from_fen(variant, variant.start_fen()).unwrap();
    for m in moves {
        let mv = g.parse_move(m).unwrap();
        g.make(mv);
    }
    g
}

/// Whether every move of `pv` (space-separated) is legal in turn from `position`.
fn legal_from(position: &AnyGame, pv: &str) -> bool {
    let mut g = position.clone();
    !pv.is_empty()
        && pv.split(' ').all(|m| match g.parse_move(m) {
            Ok(mv) => {
                g.make(mv);
                true
            }
            Err(_) => false,
        })
}

/// Waits until the page shows at least `n` lines, all legal from `position`; returns them.
async fn lines_of(b: &Browser, position: &AnyGame, n: usize) -> Vec<String> {
    let until = Instant::now() + PATIENCE;
    loop {
        let lines = b.attrs(".pv-line", "data-pv").await;
        if lines.len() >= n && lines.iter().all(|l| legal_from(position, l)) {
            return lines;
        }
        assert!(
            Instant::now() < until,
            "no {n} legal lines from {}: {lines:?}",
            position.fen()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn analysis_lines_follow_the_board_and_a_click_makes_a_variation() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(b) = launch(1500, 1000).await else {
        return;
    };
    b.open("variant=chess&mode=analysis&moves=e2e4,e7e5").await;
    // The board analyses at once, three lines by default, each a different first move.
    let start = after(Variant::Chess, &["e2e4", "e7e5"]);
    let lines = lines_of(&b, &start, 3).await;
    let firsts: std::collections::HashSet<_> =
        lines.iter().map(|l| l.split(' ').next().unwrap()).collect();
    assert_eq!(firsts.len(), 3, "{lines:?}");
    assert!(b.text("#status").await.contains("Analysis board"));
    // The evaluation bar shows the best line's score, and is filled by it.
    // Both read in one script: the engine's next line redraws them between two reads.
    let read = b
        .run(
            "return [document.querySelector('#evalbar').dataset.score, \
             [...document.querySelectorAll('.pv-line .pv-score')].map((e) => e.textContent)];",
        )
        .await;
    let bar = read[0].as_str().unwrap_or("").to_string();
    let best: Vec<String> = read[1]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    assert!(!bar.is_empty(), "{read}");
    assert!(best.contains(&bar), "{bar:?} {best:?}");
    let fill = b
        .run("return parseFloat(document.querySelector('#evalbar .fill').style.height);")
        .await;
    assert!(fill.as_f64().is_some_and(|h| h > 5.0 && h < 95.0), "{fill}");
    // One line, then five.
    b.wait("#multipv").await.select_by_value("5").await.unwrap();
    lines_of(&b, &start, 5).await;
    b.wait("#multipv").await.select_by_value("2").await.unwrap();
    let until = Instant::now() + PATIENCE;
    while b.attrs(".pv-line", "data-pv").await.len() != 2 {
        assert!(Instant::now() < until, "never two lines");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // A move on the board: the lines are then Black's, from the new position.
    b.click_cell("g1").await;
    b.click_cell("f3").await;
    b.wait_moves(3).await;
    let played = after(Variant::Chess, &["e2e4", "e7e5", "g1f3"]);
    lines_of(&b, &played, 2).await;
    // Back one move (the arrow key), then a click on the second move of a line whose first
    // move is not the main line's g1f3: those two moves become a variation.
    b.wait("body").await.send_keys("\u{E012}").await.unwrap();
    lines_of(&b, &start, 2).await;
    let clicked = b
        .run(
            "const l = [...document.querySelectorAll('.pv-line')]
               .find(l => !l.dataset.pv.startsWith('g1f3 ') && l.dataset.pv.split(' ').length > 1);
             if (!l) return null;
             l.querySelectorAll('.pv-move')[1].click();
             return l.dataset.pv.split(' ').slice(0, 2);",
        )
        .await;
    let clicked: Vec<String> = serde_json::from_value(clicked).expect("a line with two moves");
    let until = Instant::now() + PATIENCE;
    loop {
        let variation = b.attrs("#moves .mv.variation", "data-move").await;
        if variation == clicked {
            break;
        }
        assert!(
            Instant::now() < until,
            "the variation is {variation:?}, not {clicked:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // The main line is kept; the variation's last move is the one shown, and analysed.
    let main: Vec<String> = b.attrs("#moves > .mv", "data-move").await;
    assert_eq!(main, ["e2e4", "e7e5", "g1f3"]);
    assert_eq!(
        b.attrs("#moves .mv.current", "data-move").await,
        [clicked[1].clone()]
    );
    let refs: Vec<&str> = ["e2e4", "e7e5"]
        .into_iter()
        .chain(clicked.iter().map(String::as_str))
        .collect();
    let in_variation = after(Variant::Chess, &refs);
    lines_of(&b, &in_variation, 2).await;
    b.screenshot(&shot_path("analysis")).await;
    // A click on the main line's g1f3 goes back to it; the variation stays listed.
    b.click("#moves > .mv[data-move=\"g1f3\"]").await;
    lines_of(&b, &played, 2).await;
    assert_eq!(b.attrs("#moves .mv.variation", "data-move").await, clicked);
    // Move sounds are off by default; on, a move played makes one.
    assert_eq!(
        b.run("return document.body.dataset.sounds ?? null;").await,
        serde_json::Value::Null
    );
    b.click("#sound").await;
    b.type_into("#typed-move-input", "b8c6").await;
    let until = Instant::now() + PATIENCE;
    while b.run("return document.body.dataset.sounds ?? null;").await != serde_json::json!("1") {
        assert!(Instant::now() < until, "no sound for the move");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // Stop: the button says so and the lines stay as they were.
    b.click("#analyse").await;
    let until = Instant::now() + PATIENCE;
    while b.text("#analyse").await != "Analyse" {
        assert!(Instant::now() < until, "the analysis never stops");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    b.close().await;
}

/// The lines the analysis panel shows as the engine's `info` lines come one at a time, in the
/// order the engine sends them: all lines of an iteration, best first, after it; a bound while
/// a line is still being searched. Driven by hand in the page, so no timing decides it (the
/// game above reads the page while the engine works, and could only catch a mixed set by
/// chance). Each step gives the first moves of the lines shown.
#[tokio::test(flavor = "multi_thread")]
async fn analysis_shows_an_iteration_s_lines_together() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(b) = launch(1200, 900).await else {
        return;
    };
    b.open("variant=chess&mode=analysis").await;
    b.wait(".pv-line").await;
    let steps = b
        .client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             import('/js/analysis.js').then(({ AnalysisPanel }) => {
               const p = new AnalysisPanel(() => {}, () => {});
               const legal = (n) => ['a2a3', 'b2b3', 'c2c3', 'd2d4', 'e2e4'].slice(0, n).map((move) => ({ move }));
               p.state = { thinking: true, to_move: 0, legal: legal(5) };
               p.multipv = 3;
               const line = (multipv, depth, first) => ({ multipv, depth, cp: 10, pv: [first, 'a7a6'] });
               const shown = () => p.lines.map((l) => l.pv[0]).join(' ');
               const out = [];
               const feed = (...ls) => { for (const l of ls) { p.onEngine(line(...l)); out.push(shown()); } };
               // The first iteration shows as it comes; the second only once whole.
               feed([1, 1, 'e2e4'], [2, 1, 'd2d4'], [3, 1, 'c2c3']);
               feed([1, 2, 'd2d4'], [2, 2, 'e2e4'], [3, 2, 'b2b3']);
               // A bound on the first line (same depth), then the iteration.
               feed([1, 3, 'a2a3'], [1, 3, 'd2d4'], [2, 3, 'c2c3'], [3, 3, 'e2e4']);
               // Two legal moves: a set of two is whole.
               p.state = { thinking: true, to_move: 0, legal: legal(2) };
               p.lines = []; p.pending = [];
               feed([1, 1, 'a2a3'], [2, 1, 'b2b3'], [1, 2, 'b2b3'], [2, 2, 'a2a3']);
               // Lines cut short by the engine (the page counted more): shown when the next
               // iteration starts.
               p.state = { thinking: true, to_move: 0, legal: legal(5) };
               p.lines = []; p.pending = [];
               feed([1, 1, 'a2a3'], [2, 1, 'b2b3'], [1, 2, 'b2b3'], [2, 2, 'a2a3'], [1, 3, 'a2a3']);
               done(out);
             }, (e) => done(String(e)));",
            vec![],
        )
        .await
        .expect("script");
    let steps: Vec<String> = serde_json::from_value(steps.clone())
        .unwrap_or_else(|_| panic!("the panel failed: {steps}"));
    assert_eq!(
        steps,
        [
            "e2e4",
            "e2e4 d2d4",
            "e2e4 d2d4 c2c3",
            "e2e4 d2d4 c2c3",
            "e2e4 d2d4 c2c3",
            "d2d4 e2e4 b2b3",
            "d2d4 e2e4 b2b3",
            "d2d4 e2e4 b2b3",
            "d2d4 e2e4 b2b3",
            "d2d4 c2c3 e2e4",
            "a2a3",
            "a2a3 b2b3",
            "a2a3 b2b3",
            "b2b3 a2a3",
            "a2a3",
            "a2a3 b2b3",
            "a2a3 b2b3",
            "a2a3 b2b3",
            "b2b3 a2a3",
        ]
    );
    b.close().await;
}
