//! The page's finish (issue 71), in headless Chromium: an idle page does no work (no timer
//! fires, nothing is laid out or styled again; its CPU measured through the DevTools
//! protocol); a running clock ticks once a second; the status names the colour whose King
//! is in danger; the move list's scores are from White's side; a new game clears the
//! messages; no clock runs before the first move; 1 min + 0 s is offered; the move list is
//! reached with Tab and walked with the arrow keys; a shown clock never goes back up; a
//! message moves nothing and goes when the game moves on.

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

/// A clock as shown (`m:ss`, or `0:0s.t` under ten seconds), in seconds.
fn clock_seconds(text: &str) -> f64 {
    let (m, s) = text
        .split_once(':')
        .unwrap_or_else(|| panic!("a clock: '{text}'"));
    m.parse::<f64>().unwrap() * 60.0 + s.parse::<f64>().unwrap()
}

/// White's clock as shown now, in seconds.
async fn whites_clock(b: &Browser) -> f64 {
    clock_seconds(&b.text(".clock-time[data-colour=\"0\"]").await)
}

/// Issue 71 (the tryout): a running clock jumped back up when the page was drawn again from
/// the last state (opening a piece's "how it moves": 2:24 became 2:32) and when the game
/// ended between moves (on Resign, 0:43 became 0:57). Shown, it only goes down: through
/// "how it moves" opened and closed, and a resignation.
#[tokio::test(flavor = "multi_thread")]
async fn a_shown_clock_never_goes_up() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(b) = browser().await else { return };
    b.open(&format!("variant=chess&side=white&{NODES}&clock=60+0"))
        .await;
    my_turn(&b).await;
    b.click_cell("e2").await;
    b.click_cell("e4").await;
    b.wait_moves(2).await;
    my_turn(&b).await;
    b.wait(".clock-time.running[data-colour=\"0\"]").await;
    // White thinks; its clock counts down from the last state's figure.
    tokio::time::sleep(Duration::from_millis(2600)).await;
    let before = whites_clock(&b).await;
    assert!(before <= 58.0, "White's clock after 2.6 s: {before}");
    b.run("document.getElementById('legend').open = true;")
        .await;
    b.click("#legend-body [data-piece-kind=\"1\"]").await;
    b.wait("#piece-view:not([hidden])").await;
    let viewing = whites_clock(&b).await;
    assert!(
        viewing <= before,
        "White's clock {before} s, then {viewing} s with a piece's moves shown"
    );
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let later = whites_clock(&b).await;
    assert!(
        later < before,
        "the clock runs on: {before} s, then {later} s"
    );
    b.click("#pv-close").await;
    b.wait("#piece-view[hidden]").await;
    let back = whites_clock(&b).await;
    assert!(back <= later, "{later} s, then {back} s back at the game");
    // Resigned: the clock stops where it ran.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let at_resign = whites_clock(&b).await;
    b.click("#resign").await;
    b.client.accept_alert().await.expect("the confirmation");
    b.wait("#result[data-result]").await;
    let resigned = whites_clock(&b).await;
    assert!(
        resigned <= at_resign,
        "{at_resign} s when resigning, then {resigned} s"
    );
    assert!(b.all(".clock-time.running").await.is_empty());
    b.close().await;
}

/// The top of the board on the screen.
async fn board_top(b: &Browser) -> f64 {
    b.run("return document.getElementById('board').getBoundingClientRect().top;")
        .await
        .as_f64()
        .unwrap()
}

/// Whether the message line is shown.
async fn message_shown(b: &Browser) -> bool {
    b.run("return !document.getElementById('message').hidden;")
        .await
        == Value::Bool(true)
}

/// Waits until the message line is shown, `what` failing the test if it never is.
async fn wait_message(b: &Browser, what: &str) {
    let until = Instant::now() + PATIENCE;
    while !message_shown(b).await {
        assert!(Instant::now() < until, "{what}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Issue 71 (the tryout): a refusal ("illegal move Qxh2 …") stayed on screen after the game
/// had ended by a resignation, and a message pushed the board down when it appeared. A
/// message now lies over the page (the board stays where it is), and goes when the game
/// moves on: a move, the game's end.
#[tokio::test(flavor = "multi_thread")]
async fn messages_move_nothing_and_go_when_the_game_moves_on() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(b) = browser().await else { return };
    b.open(&format!("variant=chess&side=white&{NODES}")).await;
    my_turn(&b).await;
    let top = board_top(&b).await;
    // A typed move the rules refuse: its message, the board where it was.
    b.type_into("#typed-move-input", "Qxh2").await;
    let until = Instant::now() + PATIENCE;
    while !b.text("#message").await.contains("Qxh2") {
        assert!(Instant::now() < until, "no message");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(message_shown(&b).await);
    assert_eq!(board_top(&b).await, top, "the message moved the board");
    b.screenshot(&shot_path("message-over-the-page")).await;
    // A move played: the refusal goes.
    b.click_cell("e2").await;
    b.click_cell("e4").await;
    b.wait_moves(2).await;
    my_turn(&b).await;
    assert!(!message_shown(&b).await, "the refusal stays after a move");
    assert_eq!(board_top(&b).await, top);
    // Refused again, then resigned: the refusal goes with the game's end.
    b.type_into("#typed-move-input", "Qxh2").await;
    wait_message(&b, "no message").await;
    b.click("#resign").await;
    b.client.accept_alert().await.expect("the confirmation");
    b.wait("#result[data-result]").await;
    assert!(
        !message_shown(&b).await,
        "the refusal stays after the resignation: {}",
        b.text("#message").await
    );
    assert_eq!(board_top(&b).await, top);
    b.close().await;
}

/// The width the move box's placeholder takes in its own font, and the room inside the box.
async fn placeholder_fit(b: &Browser) -> (String, f64, f64, String) {
    let v = b
        .run(
            "const i = document.getElementById('typed-move-input');
             const s = getComputedStyle(i);
             const c = document.createElement('canvas').getContext('2d');
             c.font = `${s.fontStyle} ${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
             return [i.placeholder, c.measureText(i.placeholder).width,
                     i.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight), i.title];",
        )
        .await;
    (
        v[0].as_str().unwrap().to_string(),
        v[1].as_f64().unwrap(),
        v[2].as_f64().unwrap(),
        v[3].as_str().unwrap().to_string(),
    )
}

/// The tryout of issue 74's stop 82: the move box's examples ("KDc2, Dd3, dxCe4, or Cc1Dc2")
/// were cut off at its right edge. They are shown as far as they fit, on a desktop window and
/// on a phone, the move in protocol notation kept; all of them are in the box's title.
#[tokio::test(flavor = "multi_thread")]
async fn the_move_box_examples_fit_the_box() {
    let _one = ONE_AT_A_TIME.lock().await;
    for phone in [false, true] {
        let b = if phone {
            common::browser::launch_phone(390, 844).await
        } else {
            browser().await
        };
        let Some(b) = b else { return };
        // Pentaplane after 1. Cc3 NAa5, where the tryout saw the examples cut off.
        let pentaplane = "n4/5/5/5/5|ppppp/5/5/5/PPPPP|f1kso/ppppp/2P2/PP1PP/FNKSO|\
                          ppppp/5/5/5/PPPPP|5/5/5/5/5 w 1 2";
        let fen = |f: &str| format!("&fen={}", f.replace(' ', "%20").replace('|', "%7C"));
        for (variant, at) in [
            ("chess", String::new()),
            ("pentaplane", String::new()),
            ("pentaplane", fen(pentaplane)),
            ("polyhedron", String::new()),
            ("future-generation", String::new()),
        ] {
            b.open(&format!("variant={variant}&side=white&{NODES}{at}"))
                .await;
            my_turn(&b).await;
            let (shown, width, room, title) = placeholder_fit(&b).await;
            let what = format!("{variant}, phone {phone}: {shown:?} in {title:?}");
            assert!(!shown.is_empty() && room > 0.0, "{what}");
            assert!(width <= room, "{what}: {width:.1} px wide in {room:.1}");
            let all = title
                .strip_prefix("For example: ")
                .unwrap_or_else(|| panic!("{what}"));
            let last = shown.rsplit(' ').next().unwrap();
            assert!(all.ends_with(last), "{what}: the protocol form is kept");
            assert!(
                all.starts_with(shown.split([',', ' ']).next().unwrap()),
                "{what}"
            );
        }
        b.close().await;
    }
}

/// The same tryout: a click on the Pole in hand before the first capture did nothing. It
/// says why now, as the variant's note does.
#[tokio::test(flavor = "multi_thread")]
async fn a_piece_in_hand_that_cannot_be_dropped_says_why() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(b) = browser().await else { return };
    b.open(&format!("variant=pole&side=white&{NODES}")).await;
    my_turn(&b).await;
    assert!(!message_shown(&b).await);
    b.click("#hands [data-hand^=\"0:\"]").await;
    wait_message(&b, "the click on the Pole in hand said nothing").await;
    let m = b.text("#message").await;
    assert!(
        m.contains("Pole") && m.contains("cannot be dropped") && m.contains("first capture"),
        "{m}"
    );
    b.screenshot(&shot_path("pole-in-hand-refused")).await;
    b.close().await;
}

/// The same tryout, on a phone: a refusal of a typed move lay over the move box at the foot
/// of the screen. While a move is typed the message shows at the top.
#[tokio::test(flavor = "multi_thread")]
async fn a_message_leaves_the_move_box_free_while_a_move_is_typed() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(b) = common::browser::launch_phone(390, 844).await else {
        return;
    };
    b.open(&format!("variant=pentaplane&side=white&{NODES}"))
        .await;
    my_turn(&b).await;
    // The move box at the foot of the screen, where the message line lies.
    b.run("document.getElementById('typed-move-input').scrollIntoView({block: 'end'});")
        .await;
    b.type_into("#typed-move-input", "Cb1Cd4").await;
    wait_message(&b, "no message").await;
    let r = b
        .run(
            "const r = (id) => document.getElementById(id).getBoundingClientRect();
             const m = r('message'), i = r('typed-move-input');
             return [m.top, m.bottom, i.top, i.bottom, innerHeight,
                     document.activeElement.id];",
        )
        .await;
    let f = |k: usize| r[k].as_f64().unwrap();
    let (m_top, m_bottom, i_top, i_bottom, height) = (f(0), f(1), f(2), f(3), f(4));
    assert_eq!(r[5], "typed-move-input", "the box keeps the focus");
    assert!(
        i_bottom <= height + 1.0 && i_top >= 0.0,
        "the box is on screen: {r}"
    );
    assert!(
        m_bottom <= i_top || m_top >= i_bottom,
        "the message lies over the move box: {r}"
    );
    b.screenshot(&shot_path("phone-message-while-typing")).await;
    b.close().await;
}
