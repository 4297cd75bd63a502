//! `strata gui` on a phone (issue 71): headless Chromium as a 390 x 844 touch screen
//! (ChromeDriver's mobile emulation), driven by taps as a person's finger drives it.
//!
//! In every variant: the bare URL's new-game form fits the screen and starts the default
//! game (a clock, the engine at a named level) with a tap on Start; no clock runs before the
//! first move; the board fits the width with cells of at least 28 px and the page does not
//! scroll sideways; a move played by taps (on the level switcher too, where the board shows
//! one level at a time); the engine answers within a few seconds; the engine's seat shows
//! its level whole. The dialogs fit a 360 px screen, the new-game form of every variant
//! with its Start button in view. Screenshots go to `target/gui-screenshots/phone-*.png`; those of the README to
//! `docs/screenshots/` (`--ignored phone_screenshots_for_the_docs`).

mod common;

use common::browser::{Browser, ONE_AT_A_TIME, PATIENCE, level_of, report_latency, shot_path};
use std::path::PathBuf;
use std::time::{Duration, Instant};
use strata::rules::Variant;

/// A phone's screen, in CSS pixels.
const WIDTH: u32 = 390;
const HEIGHT: u32 = 844;
/// The smallest cell a finger taps reliably (`board.js` `MIN_CELL`).
const MIN_CELL: f64 = 28.0;

async fn phone(width: u32, height: u32) -> Option<Browser> {
    common::browser::launch_phone(width, height).await
}

/// Waits until the status line says it is the person's turn.
async fn my_turn(b: &Browser) {
    let until = Instant::now() + PATIENCE;
    while !b.text("#status").await.contains("(you)") {
        assert!(
            Instant::now() < until,
            "never my turn: {}",
            b.text("#status").await
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The layout as the page has it: the viewport's width, the document's scroll width, and
/// every cell on screen (`[name, left, right, width, height]`).
async fn layout(b: &Browser) -> (f64, f64, Vec<(String, f64, f64, f64, f64)>) {
    let v = b
        .run(
            "return {inner: innerWidth, scroll: document.documentElement.scrollWidth,
               cells: [...document.querySelectorAll('[data-cell]')]
                 .filter((c) => c.offsetParent !== null)
                 .map((c) => { const r = c.getBoundingClientRect();
                   return [c.dataset.cell, r.left, r.right, r.width, r.height]; })};",
        )
        .await;
    let cells = serde_json::from_value(v["cells"].clone()).expect("cells");
    (
        v["inner"].as_f64().unwrap(),
        v["scroll"].as_f64().unwrap(),
        cells,
    )
}

/// The board within the screen's width, every cell at least MIN_CELL, no sideways scroll.
async fn check_fits(b: &Browser, what: &str) -> f64 {
    let (inner, scroll, cells) = layout(b).await;
    assert!(!cells.is_empty(), "{what}: no cell on screen");
    assert!(
        scroll <= inner,
        "{what}: the page scrolls sideways ({scroll} > {inner})"
    );
    let mut smallest = f64::MAX;
    for (name, left, right, w, h) in &cells {
        assert!(
            *left >= 0.0 && *right <= inner,
            "{what}: {name} lies at {left}..{right}, outside 0..{inner}"
        );
        assert!(
            *w >= MIN_CELL && *h >= MIN_CELL,
            "{what}: {name} is {w} x {h} px"
        );
        smallest = smallest.min(w.min(*h));
    }
    smallest
}

/// Whether the element `css` lies within the screen's width.
async fn within_width(b: &Browser, css: &str) -> (f64, f64, f64) {
    let v = b
        .run(&format!(
            "const r = document.querySelector('{css}').getBoundingClientRect(); return [r.left, r.right, innerWidth];"
        ))
        .await;
    let v: Vec<f64> = serde_json::from_value(v).expect("numbers");
    (v[0], v[1], v[2])
}

/// The level tabs' letters, when the board shows one level at a time.
async fn level_tabs(b: &Browser) -> Vec<String> {
    b.attrs("[data-level-tab]", "data-level-tab").await
}

/// The cells of `colour`'s pieces on screen.
async fn visible_pieces(b: &Browser, colour: &str) -> Vec<String> {
    let v = b
        .run(&format!(
            "return [...document.querySelectorAll('[data-cell]')]
               .filter(c => c.offsetParent !== null
                 && (c.querySelector('svg')?.getAttribute('aria-label') ?? '').startsWith('{colour} '))
               .map(c => c.dataset.cell);"
        ))
        .await;
    serde_json::from_value(v).expect("names")
}

/// Whether the cell `name` is on screen (its level shown).
async fn shown(b: &Browser, name: &str) -> bool {
    b.run(&format!(
        "return document.querySelector('[data-cell=\"{name}\"]').offsetParent !== null;"
    ))
    .await
        == serde_json::Value::Bool(true)
}

/// Plays a move of `colour` by taps: a piece, then one of its targets (through the level
/// switcher when the target is on a level not shown). Returns the move's cells.
async fn tap_a_move(b: &Browser, colour: &str) -> (String, String) {
    let tabs = level_tabs(b).await;
    let passes = if tabs.is_empty() {
        vec![None]
    } else {
        tabs.iter().map(Some).collect()
    };
    for tab in passes {
        if let Some(t) = tab {
            b.tap(&format!("[data-level-tab=\"{t}\"]")).await;
        }
        for piece in visible_pieces(b, colour).await {
            b.tap_cell(&piece).await;
            let targets = b.targets().await;
            let Some(to) = targets.first().cloned() else {
                b.tap_cell(&piece).await; // put it back
                continue;
            };
            assert_eq!(
                b.attrs(".cell.selected", "data-cell").await,
                [piece.as_str()]
            );
            if !shown(b, &to).await {
                // The switcher says where the targets are.
                let tab = format!("[data-level-tab=\"{}\"]", level_of(&to));
                let count = b.text(&format!("{tab} .count")).await;
                assert!(
                    count.parse::<usize>().is_ok_and(|n| n > 0),
                    "{tab}: '{count}'"
                );
                b.tap(&tab).await;
                assert!(shown(b, &to).await, "{to} is shown after its level's tab");
            }
            b.tap_cell(&to).await;
            return (piece, to);
        }
    }
    panic!("no {colour} piece with a move");
}

/// In every variant: the default game from the bare URL's form, started and played by taps
/// on a 390 x 844 touch screen.
#[tokio::test(flavor = "multi_thread")]
async fn every_variant_on_a_phone_by_taps() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(b) = phone(WIDTH, HEIGHT).await else {
        return;
    };
    let mut report = String::new();
    for v in Variant::ALL {
        let name = v.name();
        b.open("").await;
        b.wait("#new-game-dialog[open]").await;
        b.wait(&format!("#ng-variant option[value=\"{name}\"]"))
            .await;
        b.wait("#ng-variant")
            .await
            .select_by_value(name)
            .await
            .expect("choose the variant");
        // The form and its Start button within the screen.
        let (left, right, inner) = within_width(&b, "#new-game-dialog").await;
        assert!(
            left >= 0.0 && right <= inner,
            "the form lies at {left}..{right}"
        );
        // The default game: 5 min + 3 s, the engine at a named level.
        let clock = b
            .run("return document.getElementById('ng-clock').value;")
            .await;
        assert_eq!(clock, "300+3");
        let level = b
            .run("const s = document.getElementById('ng-strength-select'); return s.options[s.selectedIndex].text;")
            .await;
        let level = level.as_str().unwrap_or("").to_string();
        assert!(level.contains("(Elo "), "the default level: {level}");
        b.tap("#ng-start").await;
        let (left, right, inner) = within_width(&b, "#board").await;
        assert!(
            left >= 0.0 && right <= inner,
            "the board at {left}..{right}"
        );
        my_turn(&b).await;
        // No clock runs before the first move.
        assert!(b.all(".clock-time.running").await.is_empty());
        // The engine's seats say its level, whole (Black's; Silver's too in the Future
        // Generation).
        let engines = if matches!(v, Variant::FutureGeneration) {
            2
        } else {
            1
        };
        check_levels_read(&b, name, engines).await;
        let smallest = check_fits(&b, name).await;
        let tabs = level_tabs(&b).await;
        b.screenshot(&shot_path(&format!("phone-{name}"))).await;
        // A move by taps; the engine answers.
        let started = Instant::now();
        let (from, to) = tap_a_move(&b, "White").await;
        let moves = b.wait_moves(2).await;
        let answer = started.elapsed();
        assert!(
            moves[0].starts_with(&from) && moves[0].contains(&to[to.len() - 2..]),
            "{name}: {moves:?} from {from} to {to}"
        );
        my_turn(&b).await;
        check_fits(&b, name).await;
        b.screenshot(&shot_path(&format!("phone-{name}-moved")))
            .await;
        let line = format!(
            "{name}: {} cells of {smallest:.0} px or more{}, the engine ({level}) answered {:.1} s after the tap\n",
            layout(&b).await.2.len(),
            if tabs.is_empty() {
                String::new()
            } else {
                format!(", one level at a time ({})", tabs.join(" "))
            },
            answer.as_secs_f64()
        );
        eprint!("{line}");
        report.push_str(&line);
        assert!(
            answer < Duration::from_secs(20),
            "{name}: the engine took {answer:?}"
        );
    }
    let path = shot_path("phone-layout").with_extension("txt");
    std::fs::write(path, report).expect("write the report");
    b.close().await;
}

/// A finger sliding over the board's empty squares scrolls the page and plays nothing, even
/// from a highlighted target; a tap there plays the move.
#[tokio::test(flavor = "multi_thread")]
async fn a_swipe_over_the_board_scrolls_and_plays_nothing() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(b) = phone(WIDTH, HEIGHT).await else {
        return;
    };
    b.open("variant=chess&side=white&nodes=3000").await;
    my_turn(&b).await;
    // The piece legend open: the page is taller than the screen.
    b.tap("#legend summary").await;
    b.run("scrollTo(0, 0);").await;
    b.tap_cell("e2").await;
    assert!(b.targets().await.contains(&"e4".to_string()));
    let scrolled = || async { b.run("return scrollY;").await.as_f64().unwrap_or(0.0) };
    let before = scrolled().await;
    b.swipe("[data-cell=\"e4\"]", 0.0, -250.0).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(
        scrolled().await > before,
        "the page scrolls under the finger"
    );
    assert!(b.moves().await.is_empty(), "a swipe plays no move");
    assert!(
        b.text("#message").await.is_empty(),
        "a swipe asks for no explanation"
    );
    // The selection stands: a tap on the target plays it.
    assert_eq!(b.attrs(".cell.selected", "data-cell").await, ["e2"]);
    b.tap_cell("e4").await;
    assert_eq!(b.wait_moves(2).await[0], "e2e4");
    b.close().await;
}

/// The engine's levels as the clocks' names show them (`(Elo 1200)`), each with whether it
/// is read whole: not cut off, within the screen, clear of its clock's time beside it.
async fn seat_levels(b: &Browser) -> Vec<(String, bool)> {
    serde_json::from_value(
        b.run(
            "return [...document.querySelectorAll('.clock-name')].flatMap((n) => {
               const lv = n.querySelector('.clock-level');
               if (!lv) return [];
               const r = lv.getBoundingClientRect();
               const t = n.nextElementSibling.getBoundingClientRect();
               const whole = lv.scrollWidth <= lv.clientWidth + 0.5 && r.left >= 0 &&
                 r.right <= innerWidth && r.width > 0 && r.right <= t.left + 0.5;
               return [[lv.textContent, whole]];
             });",
        )
        .await,
    )
    .expect("a list")
}

/// Checks that every engine seat shows its level whole: `(Elo N)`.
async fn check_levels_read(b: &Browser, what: &str, engines: usize) {
    let levels = seat_levels(b).await;
    assert_eq!(
        levels.len(),
        engines,
        "{what}: the levels shown: {levels:?}"
    );
    for (text, whole) in &levels {
        assert!(
            text.starts_with("(Elo ") && *whole,
            "{what}: the level '{text}' is not read whole"
        );
    }
}

/// Where the element `css` lies on the screen (`[top, bottom, innerHeight]`), and whether a
/// tap at its centre reaches it (nothing lies over it).
async fn on_screen(b: &Browser, css: &str) -> (f64, f64, f64, bool) {
    let v = b
        .run(&format!(
            "const e = document.querySelector('{css}'); const r = e.getBoundingClientRect();
             const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
             return [r.top, r.bottom, innerHeight, !!hit && e.contains(hit)];"
        ))
        .await;
    (
        v[0].as_f64().unwrap(),
        v[1].as_f64().unwrap(),
        v[2].as_f64().unwrap(),
        v[3].as_bool().unwrap(),
    )
}

/// The options of the new-game form's lists whose words do not fit their list's box (as
/// `select: option`): measured in the list's own font, beside its arrow.
async fn options_cut_off(b: &Browser) -> Vec<String> {
    serde_json::from_value(
        b.run(
            "const g = document.createElement('canvas').getContext('2d');
             const out = [];
             for (const s of document.querySelectorAll('#new-game-dialog select')) {
               const cs = getComputedStyle(s);
               g.font = `${cs.fontSize} ${cs.fontFamily}`;
               // The room for the words: the box less its padding and the arrow's 20 px.
               const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20;
               for (const o of s.options) {
                 if (g.measureText(o.text).width > room) out.push(`${s.id || s.name}: ${o.text}`);
               }
             }
             return out;",
        )
        .await,
    )
    .expect("a list")
}

/// The dialogs fit a 360 x 740 screen: the new-game form of every variant (four players'
/// rows in the Future Generation) scrolls within itself with its Start button always in
/// view, and tapped; the words of its lists fit them; the export and the games dialogs fit
/// the width; the page does not scroll sideways behind them.
#[tokio::test(flavor = "multi_thread")]
async fn the_dialogs_fit_a_360_px_screen() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(b) = phone(360, 740).await else {
        return;
    };
    b.open("").await;
    b.wait("#new-game-dialog[open]").await;
    b.wait("#ng-variant option").await;
    let variants: Vec<String> = b.attrs("#ng-variant option", "value").await;
    assert!(variants.len() >= Variant::ALL.len(), "{variants:?}");
    for (i, name) in variants.iter().enumerate() {
        if i > 0 {
            b.tap("#new-game").await;
            b.wait("#new-game-dialog[open]").await;
        }
        b.wait("#ng-variant")
            .await
            .select_by_value(name)
            .await
            .expect("choose the variant");
        for css in ["#new-game-dialog", "#ng-start", "#ng-mode", "#ng-clock"] {
            let (left, right, inner) = within_width(&b, css).await;
            assert!(
                left >= 0.0 && right <= inner,
                "{name}: {css} at {left}..{right}"
            );
        }
        // Start in view at once (no scrolling), and nothing over it.
        let (top, bottom, height, reached) = on_screen(&b, "#ng-start").await;
        assert!(
            top >= 0.0 && bottom <= height && reached,
            "{name}: Start at {top}..{bottom} on a screen {height} px high (reached: {reached})"
        );
        let cut = options_cut_off(&b).await;
        assert!(cut.is_empty(), "{name}: words cut off: {cut:?}");
        b.screenshot(&shot_path(&format!("phone-360-new-game-{name}")))
            .await;
        b.tap("#ng-start").await;
        b.wait("#new-game-dialog:not([open])").await;
        let title = b
            .run("return document.querySelector('#ng-variant').selectedOptions[0].text;")
            .await;
        let title = title.as_str().unwrap_or_default().to_string();
        let until = Instant::now() + PATIENCE;
        while b.text("#variant-title").await != title {
            assert!(Instant::now() < until, "{name}: the game never starts");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        my_turn(&b).await;
        let engines = if name == "future-generation" { 2 } else { 1 };
        check_levels_read(&b, name, engines).await;
        b.screenshot(&shot_path(&format!("phone-360-{name}"))).await;
    }
    // A screen lower still (520 px): the Future Generation's form scrolls within its dialog,
    // Start staying in view at its foot, before and after a scroll.
    b.cdp(
        "Emulation.setDeviceMetricsOverride",
        serde_json::json!({"width": 360, "height": 520, "deviceScaleFactor": 2, "mobile": true}),
    )
    .await;
    b.tap("#new-game").await;
    b.wait("#new-game-dialog[open]").await;
    b.wait("#ng-variant")
        .await
        .select_by_value("future-generation")
        .await
        .expect("choose the variant");
    let scrolls = b
        .run("const d = document.getElementById('new-game-dialog'); return d.scrollHeight > d.clientHeight;")
        .await;
    assert_eq!(
        scrolls,
        serde_json::Value::Bool(true),
        "the form fits 520 px"
    );
    for scroll in [0, 150, 10000] {
        b.run(&format!(
            "document.getElementById('new-game-dialog').scrollTop = {scroll};"
        ))
        .await;
        let (top, bottom, height, reached) = on_screen(&b, "#ng-start").await;
        assert!(
            top >= 0.0 && bottom <= height && reached,
            "scrolled {scroll}: Start at {top}..{bottom} on a screen {height} px high (reached: {reached})"
        );
    }
    b.screenshot(&shot_path("phone-360x520-new-game-scrolled"))
        .await;
    b.tap("#ng-cancel").await;
    b.cdp(
        "Emulation.clearDeviceMetricsOverride",
        serde_json::json!({}),
    )
    .await;
    // Back to chess for the other dialogs.
    b.tap("#new-game").await;
    b.wait("#new-game-dialog[open]").await;
    b.wait("#ng-variant")
        .await
        .select_by_value("chess")
        .await
        .expect("chess");
    b.tap("#ng-start").await;
    my_turn(&b).await;
    check_fits(&b, "chess at 360 px").await;
    b.tap("#more").await;
    b.tap("#export").await;
    b.wait("#text-dialog[open]").await;
    let (left, right, inner) = within_width(&b, "#text-dialog").await;
    assert!(left >= 0.0 && right <= inner, "export at {left}..{right}");
    b.tap("#text-dialog-cancel").await;
    b.tap("#open-pgn").await;
    b.wait("#games-dialog[open]").await;
    let (left, right, inner) = within_width(&b, "#games-dialog").await;
    assert!(left >= 0.0 && right <= inner, "games at {left}..{right}");
    let scroll = b
        .run("return document.documentElement.scrollWidth <= innerWidth;")
        .await;
    assert_eq!(scroll, serde_json::Value::Bool(true));
    b.close().await;
}

/// Not a test of speed (nothing asserts a time): on the phone, one level at a time, taps
/// every White piece of the crowded Polyhedron middle game of `gui_browser`'s latency
/// report, level by level, checks that exactly its legal targets light up (the level
/// switcher counting those of every level), and reports the time from the tap to the
/// painted highlight in `target/gui-screenshots/highlight-latency-phone.txt`.
#[tokio::test(flavor = "multi_thread")]
async fn polyhedron_highlight_latency_on_a_phone_is_reported() {
    let _one = ONE_AT_A_TIME.lock().await;
    use strata::rules::{AnyGame, Game, MoveFlag, MoveList};
    let info = Variant::Polyhedron.info();
    let fen = *info
        .bench_positions
        .iter()
        .find(|f| **f != info.start_fen)
        .expect("a middle game");
    let game = AnyGame::from_fen(Variant::Polyhedron, fen).expect("the bench FEN");
    let mut legal = MoveList::new();
    game.generate(&mut legal);
    let Some(b) = phone(WIDTH, HEIGHT).await else {
        return;
    };
    let url_fen = fen
        .replace(' ', "%20")
        .replace('|', "%7C")
        .replace('[', "%5B")
        .replace(']', "%5D")
        .replace('/', "%2F");
    b.open(&format!(
        "variant=polyhedron&side=white&nodes=3000&fen={url_fen}"
    ))
    .await;
    my_turn(&b).await;
    let tabs = level_tabs(&b).await;
    assert_eq!(tabs.len(), 5, "one level at a time");
    let mut times = Vec::new();
    for tab in &tabs {
        b.tap(&format!("[data-level-tab=\"{tab}\"]")).await;
        for piece in visible_pieces(&b, "White").await {
            let mut expected: Vec<String> = legal
                .iter()
                .filter(|m| !matches!(m.flag(), MoveFlag::Drop | MoveFlag::Pass))
                .filter(|m| game.cell_name(m.from()) == piece)
                .map(|m| game.cell_name(m.to()))
                .collect();
            expected.sort();
            expected.dedup();
            b.run("delete document.body.dataset.highlightMs;").await;
            b.tap_cell(&piece).await;
            let until = Instant::now() + PATIENCE;
            let ms = loop {
                let v = b
                    .run("return document.body.dataset.highlightMs ?? null;")
                    .await;
                if let Some(s) = v.as_str() {
                    break s.parse::<f64>().expect("milliseconds");
                }
                assert!(Instant::now() < until, "no highlight time for {piece}");
                tokio::time::sleep(Duration::from_millis(20)).await;
            };
            let mut targets = b.targets().await;
            targets.sort();
            assert_eq!(targets, expected, "the targets of {piece}");
            // The switcher counts each level's targets.
            let counts: usize = b
                .texts(".level-tab .count")
                .await
                .iter()
                .filter_map(|c| c.parse::<usize>().ok())
                .sum();
            assert_eq!(counts, expected.len(), "{piece}: the switcher's counts");
            if !expected.is_empty() {
                times.push(ms);
            }
            b.run("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape'}));")
                .await;
        }
    }
    assert!(
        times.len() >= 20,
        "only {} White pieces with moves",
        times.len()
    );
    report_latency(
        "highlight-latency-phone",
        "tap to highlighted targets on a 390 x 844 phone (one level at a time)",
        legal.len(),
        &mut times,
    );
    b.close().await;
}

/// The phone screenshots of the README (`docs/screenshots/phone-*.png`): chess, Polyhedron
/// and Future Generation after a few moves, a piece selected with its targets lit. Run on
/// demand: `cargo test --test gui_phone -- --ignored phone_screenshots_for_the_docs`.
#[tokio::test(flavor = "multi_thread")]
#[ignore = "writes docs/screenshots/; run on demand"]
async fn phone_screenshots_for_the_docs() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(b) = phone(WIDTH, HEIGHT).await else {
        return;
    };
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/screenshots");
    for v in Variant::ALL {
        let colours = v.info().colours;
        let moves = common::browser::engine_game(v.name(), 2 * colours, 5_000);
        let seats = if colours == 4 {
            "seats=white,gold"
        } else {
            "side=white"
        };
        b.open(&format!(
            "variant={}&{seats}&nodes=3000&clock=300+3&moves={}",
            v.name(),
            moves.join(",")
        ))
        .await;
        b.wait_moves(moves.len()).await;
        my_turn(&b).await;
        // A piece with targets, some on other levels where the variant has levels.
        let mut chosen = false;
        for piece in visible_pieces(&b, "White").await {
            b.tap_cell(&piece).await;
            let targets = b.targets().await;
            if targets.len() >= 2 {
                chosen = true;
                break;
            }
            b.tap_cell(&piece).await;
        }
        assert!(chosen, "{}: no White piece with targets", v.name());
        b.run("document.activeElement?.blur(); scrollTo(0, 0);")
            .await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        b.screenshot(&dir.join(format!("phone-{}.png", v.name())))
            .await;
    }
    b.close().await;
}
