//! The page's finish (issue 71), in headless Chromium: an idle page does no work (no timer
//! fires, nothing is laid out or styled again; its CPU measured through the DevTools
//! protocol); a running clock ticks once a second; the status names the colour whose King
//! is in danger; the move list's scores are from White's side; a new game clears the
//! messages; no clock runs before the first move; 1 min + 0 s is offered; the move list is
//! reached with Tab and walked with the arrow keys.

mod common;

use common::browser::{Browser, ONE_AT_A_TIME, PATIENCE, shot_path};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

const NODES: &str = "nodes=3000";

async fn browser() -> Option<Browser> {
    common::browser::launch(1280, 800).await
}

/// Counts the timer and animation-frame callbacks the page runs (`window.__callbacks`),
/// installed before the page's own scripts.
const COUNTER: &str = "
  window.__callbacks = 0;
  for (const name of ['setTimeout', 'setInterval', 'requestAnimationFrame']) {
    const original = window[name];
    window[name] = function (f, ...rest) {
      const g = typeof f === 'function' ? function (...a) { window.__callbacks++; return f.apply(this, a); } : f;
      return original.call(window, g, ...rest);
    };
  }";

/// Waits until the status line shows a person's turn.
async fn my_turn(b: &Browser) {
    let until = Instant::now() + PATIENCE;
    loop {
        let s = b.text("#status").await;
        if s.contains("to move") && !s.contains("engine") && !s.contains("waiting") {
            return;
        }
        assert!(Instant::now() < until, "never my turn: {s}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Chromium's metrics of the page (`Performance.getMetrics`) by name.
async fn metrics(b: &Browser) -> std::collections::HashMap<String, f64> {
    let v = b.cdp("Performance.getMetrics", json!({})).await;
    v["metrics"]
        .as_array()
        .expect("metrics")
        .iter()
        .map(|m| {
            (
                m["name"].as_str().unwrap_or("").to_string(),
                m["value"].as_f64().unwrap_or(0.0),
            )
        })
        .collect()
}

/// What the page did over `seconds`: timer callbacks, layouts, style recalculations, its
/// main thread's busy time (the `TaskDuration` metric) and the CPU time of all the
/// browser's processes (drawing included), both in seconds.
async fn activity(b: &Browser, seconds: u64) -> (i64, f64, f64, f64, f64) {
    let calls = || async { b.run("return window.__callbacks;").await.as_i64().unwrap() };
    let (m0, c0, cpu0) = (metrics(b).await, calls().await, b.browser_cpu_seconds());
    tokio::time::sleep(Duration::from_secs(seconds)).await;
    let (m1, c1, cpu1) = (metrics(b).await, calls().await, b.browser_cpu_seconds());
    let d = |k: &str| m1[k] - m0[k];
    (
        c1 - c0,
        d("LayoutCount"),
        d("RecalcStyleCount"),
        d("TaskDuration"),
        cpu1 - cpu0,
    )
}

/// An idle page (a game without a clock, the person to move) runs no timer and lays out
/// nothing for 10 s; a running clock ticks once a second. The figures go to
/// `target/gui-screenshots/idle-cpu.txt` (and docs/gui.md, "Speed").
#[tokio::test(flavor = "multi_thread")]
async fn an_idle_page_does_no_work() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(b) = browser().await else { return };
    b.cdp(
        "Page.addScriptToEvaluateOnNewDocument",
        json!({"source": COUNTER}),
    )
    .await;
    b.cdp("Performance.enable", json!({})).await;
    b.open(&format!("variant=chess&side=white&{NODES}")).await;
    my_turn(&b).await;
    b.click_cell("e2").await;
    b.click_cell("e4").await;
    b.wait_moves(2).await;
    my_turn(&b).await;
    // Let the last messages and paints settle.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let seconds = 10;
    let (calls, layouts, styles, busy, cpu) = activity(&b, seconds).await;
    let mut report = format!(
        "idle, no clock, {seconds} s: {calls} timer or frame callbacks, {layouts} layouts, {styles} style recalculations, the page's main thread busy {:.1} ms ({:.2} % of a core), the browser's processes {:.2} s of CPU ({:.1} % of a core)\n",
        busy * 1000.0,
        busy * 100.0 / seconds as f64,
        cpu,
        cpu * 100.0 / seconds as f64
    );
    assert_eq!(calls, 0, "{report}");
    assert_eq!(layouts, 0.0, "{report}");
    assert_eq!(styles, 0.0, "{report}");
    // A running clock: once the first moves are made, a tick a second.
    b.open("").await;
    b.wait("#new-game-dialog[open]").await;
    b.click("#ng-start").await;
    my_turn(&b).await;
    b.click_cell("e2").await;
    b.click_cell("e4").await;
    b.wait_moves(2).await;
    my_turn(&b).await;
    b.wait(".clock-time.running[data-colour=\"0\"]").await;
    let seconds = 5;
    let (calls, _, _, busy, cpu) = activity(&b, seconds).await;
    report.push_str(&format!(
        "White's clock running, {seconds} s: {calls} timer callbacks, the page's main thread busy {:.1} ms ({:.2} % of a core), the browser's processes {:.2} s of CPU ({:.1} % of a core)\n",
        busy * 1000.0,
        busy * 100.0 / seconds as f64,
        cpu,
        cpu * 100.0 / seconds as f64
    ));
    eprint!("{report}");
    assert!(
        (seconds as i64 - 1..=seconds as i64 + 2).contains(&calls),
        "{report}"
    );
    let path = shot_path("idle-cpu").with_extension("txt");
    std::fs::write(path, report).expect("write the report");
    b.close().await;
}

/// In Pentaplane (Kings are captured there) a King in danger need not be the mover's: the
/// status names the colour whose King it is.
#[tokio::test(flavor = "multi_thread")]
async fn the_status_names_the_colour_whose_king_is_in_danger() {
    let _one = ONE_AT_A_TIME.lock().await;
    use strata::rules::{AnyGame, Game, Variant};
    // White to move; its Rook on Ca1 attacks Black's King on Ca5 (nothing between).
    let fen = "5/5/5/5/2K2|5/5/5/5/5|k4/5/5/5/R4|5/5/5/5/5|5/5/5/5/5 w 0 1";
    let game = AnyGame::from_fen(Variant::Pentaplane, fen).expect("the FEN");
    let danger: Vec<String> = game
        .kings_in_danger()
        .iter()
        .map(|&c| game.cell_name(c))
        .collect();
    assert_eq!(danger, ["Ca5"], "the rules see Black's King attacked");
    let Some(b) = browser().await else { return };
    b.open(&format!(
        "variant=pentaplane&side=white&{NODES}&fen={}",
        fen.replace(' ', "%20").replace('|', "%7C")
    ))
    .await;
    my_turn(&b).await;
    let status = b.text("#status").await;
    assert!(
        status.contains("Black's King in danger") && !status.contains("White's King"),
        "{status}"
    );
    b.close().await;
}

/// The engine's scores in the move list are from White's side, as analysis gives them:
/// Black's engine, a Queen up, is shown as Black winning (a negative score).
#[tokio::test(flavor = "multi_thread")]
async fn move_list_scores_are_from_whites_side() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(b) = browser().await else { return };
    b.open(&format!(
        "variant=chess&side=white&{NODES}&fen={}",
        "3qk3/8/8/8/8/8/8/4K3%20w%20-%20-%200%201"
    ))
    .await;
    my_turn(&b).await;
    b.click_cell("e1").await;
    b.click_cell("e2").await;
    b.wait_moves(2).await;
    let comments = b.texts("#moves .mv .comment").await;
    assert_eq!(comments.len(), 1, "{comments:?}");
    assert!(
        comments[0].starts_with('-'),
        "Black is winning: {comments:?}"
    );
    b.close().await;
}

/// A new game starts without the messages of the game before; 1 min + 0 s is offered; no
/// clock runs before the first move, and White's first move costs it nothing.
#[tokio::test(flavor = "multi_thread")]
async fn a_new_game_clears_messages_and_no_clock_runs_before_the_first_move() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(b) = browser().await else { return };
    b.open("").await;
    b.wait("#new-game-dialog[open]").await;
    b.wait("#ng-clock option[value=\"60+0\"]").await;
    b.wait("#ng-clock")
        .await
        .select_by_value("60+0")
        .await
        .expect("1 min + 0 s");
    b.click("#ng-start").await;
    my_turn(&b).await;
    assert!(b.all(".clock-time.running").await.is_empty());
    // A refused move leaves a message.
    b.click_cell("g1").await;
    b.click_cell("g4").await;
    let until = Instant::now() + PATIENCE;
    while !b.text("#message").await.contains("does not move") {
        assert!(Instant::now() < until, "no message");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // White's first move, after a wait, is not timed; Black's reply neither.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(b.text(".clock-time[data-colour=\"0\"]").await, "1:00");
    b.click_cell("e2").await;
    b.click_cell("e4").await;
    b.wait_moves(2).await;
    my_turn(&b).await;
    // Now White's clock runs, from the full minute (the 1.5 s before its first move cost
    // it nothing); Black's first move cost it nothing either.
    b.wait(".clock-time.running[data-colour=\"0\"]").await;
    let white = b.text(".clock-time[data-colour=\"0\"]").await;
    assert!(white == "1:00" || white == "0:59", "White's clock: {white}");
    assert_eq!(b.text(".clock-time[data-colour=\"1\"]").await, "1:00");
    // A new game: the message is gone.
    b.run("document.getElementById('message').hidden = false; document.getElementById('message').textContent = 'an old message';")
        .await;
    b.click("#new-game").await;
    b.wait("#new-game-dialog[open]").await;
    b.click("#ng-start").await;
    b.wait_moves(0).await;
    my_turn(&b).await;
    let hidden = b
        .run("return document.getElementById('message').hidden;")
        .await;
    assert_eq!(hidden, Value::Bool(true), "the message stays");
    b.close().await;
}

/// Tab reaches the move list; the arrow keys walk it and Enter shows the move.
#[tokio::test(flavor = "multi_thread")]
async fn tab_reaches_the_move_list_and_arrows_walk_it() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(b) = browser().await else { return };
    b.open(&format!(
        "variant=chess&side=white&{NODES}&moves=e2e4,e7e5,g1f3"
    ))
    .await;
    b.wait_moves(4).await;
    my_turn(&b).await;
    let focused = || async {
        b.run("return document.activeElement?.id ?? '';")
            .await
            .as_str()
            .unwrap_or("")
            .to_string()
    };
    b.run("document.activeElement?.blur(); document.body.focus();")
        .await;
    let body = b.wait("body").await;
    let mut tabs = 0;
    while focused().await != "moves" {
        body.send_keys("\u{E004}").await.expect("Tab");
        tabs += 1;
        assert!(tabs < 40, "Tab never reaches the move list");
    }
    let cursor = || async {
        b.run("return document.querySelector('#moves .mv.cursor')?.dataset.ply ?? null;")
            .await
    };
    // The cursor starts on the last move; ← walks back, → forward, Home to the first.
    assert_eq!(cursor().await, json!("4"));
    let list = b.wait("#moves").await;
    list.send_keys("\u{E012}\u{E012}").await.expect("left");
    assert_eq!(cursor().await, json!("2"));
    list.send_keys("\u{E014}").await.expect("right");
    assert_eq!(cursor().await, json!("3"));
    list.send_keys("\u{E011}").await.expect("home");
    assert_eq!(cursor().await, json!("1"));
    list.send_keys("\u{E015}").await.expect("down");
    assert_eq!(cursor().await, json!("2"));
    // Enter shows the position after that move.
    list.send_keys("\u{E007}").await.expect("Enter");
    let banner = b.wait("#history-banner:not([hidden])").await;
    assert!(
        banner.text().await.unwrap().contains("after move 2 of 4"),
        "{}",
        banner.text().await.unwrap()
    );
    assert_eq!(focused().await, "moves", "the list keeps the focus");
    assert_eq!(cursor().await, json!("2"));
    b.close().await;
}
