//! A newcomer's first minutes in `strata gui` (issue 71): every variant named by its full
//! name with a line on what is special; the rules dialog (each variant's page from
//! `docs/variants`, rendered by the server) on a desktop and within a phone's width; "how
//! does this piece move" (a piece alone on the board, its targets from the rules layer lit
//! on every level); and the new message and the rules pages at the server's door: a bad
//! field answered with an `error`, the pages behind the token and the same
//! Content-Security-Policy.
//!
//! Headless Chromium through `tests/common/browser.rs` (skipped without it, outside CI);
//! screenshots go to `target/gui-screenshots/`, those of the README to `docs/screenshots/`
//! (`--ignored screenshots_for_the_docs`).

mod common;

use std::io::{Read, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use common::browser::{Browser, ONE_AT_A_TIME, PATIENCE, Server, level_of, shot_path};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use strata::rules::Variant;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;

/// The engine answers quickly: a fixed number of nodes.
const NODES: &str = "nodes=3000";

/// The names and the words every variant is shown by (the built-in ones, and Raumschach from
/// its file): protocol name, full name, a word of its line.
const NAMES: &[(&str, &str, &str)] = &[
    ("chess", "Chess", "8x8"),
    ("pole", "Pole Chess", "blocker"),
    (
        "polyhedron",
        "Polyhedron Chess",
        "promotion from captured pieces",
    ),
    ("podionic", "Podionic Chess", "spiral"),
    ("pentaplane", "Pentaplane V", "missile"),
    (
        "future-generation",
        "Chess – The Future Generation",
        "two teams",
    ),
    ("raumschach", "Raumschach", "Unicorn"),
];

fn raumschach_file() -> String {
    format!("{}/variants/raumschach.toml", env!("CARGO_MANIFEST_DIR"))
}

/// The tables of a Markdown page: its delimiter rows (`| --- |`, `|---|`).
fn tables_in(markdown: &str) -> usize {
    markdown
        .lines()
        .filter(|l| {
            l.starts_with('|') && l.contains("---") && l.chars().all(|c| "|-: ".contains(c))
        })
        .count()
}

/// `docs/variants/<name>.md`.
fn page_markdown(name: &str) -> String {
    let path = format!("{}/docs/variants/{name}.md", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Waits until `script` (returning a boolean) is true.
async fn until_true(b: &Browser, what: &str, script: &str) {
    let until = Instant::now() + PATIENCE;
    while b.run(script).await != Value::Bool(true) {
        assert!(Instant::now() < until, "never: {what}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Opens a game of `variant` from the URL, White a person, and waits for its board and the
/// person's turn (the status line settled: on a phone a longer status, "waiting for the
/// engine to get ready…", wraps and moves the header's buttons under a tap).
async fn game(b: &Browser, variant: &str) {
    b.open(&format!("variant={variant}&side=white&{NODES}"))
        .await;
    until_true(
        b,
        &format!("the {variant} board"),
        &format!(
            "return document.querySelectorAll('[data-cell]').length > 0 && \
             document.getElementById('variant-title').textContent !== '' && \
             !!document.querySelector('#legend-body [data-piece-kind]') && \
             document.getElementById('status').textContent.includes('(you)') && \
             document.title.includes({:?});",
            NAMES.iter().find(|n| n.0 == variant).unwrap().1
        ),
    )
    .await;
}

/// The new-game form lists every variant by its full name, with its line (shown under the
/// list for the variant chosen); the header, the page's title and the games list name the
/// variant played the same way.
#[tokio::test(flavor = "multi_thread")]
async fn every_variant_is_named_with_its_line() {
    let _one = ONE_AT_A_TIME.lock().await;
    let file = raumschach_file();
    let Some(b) = common::browser::launch_with(1280, 900, &["--variant-file", &file]).await else {
        return;
    };
    b.open("").await;
    b.wait("#new-game-dialog[open]").await;
    b.wait("#ng-variant option[value=\"raumschach\"]").await;
    let options = b
        .run("return [...document.querySelectorAll('#ng-variant option')].map(o => [o.value, o.textContent, o.title]);")
        .await;
    let options: Vec<(String, String, String)> = serde_json::from_value(options).unwrap();
    let listed: Vec<&str> = options.iter().map(|o| o.0.as_str()).collect();
    assert_eq!(
        listed,
        NAMES.iter().map(|n| n.0).collect::<Vec<_>>(),
        "every variant, in order"
    );
    let mut lines = Vec::new();
    for ((value, text, line), (name, title, word)) in options.iter().zip(NAMES) {
        assert_eq!((value.as_str(), text.as_str()), (*name, *title));
        assert!(line.contains(word), "{name}'s line: {line}");
        assert!(!lines.contains(line), "{name}'s line is another's: {line}");
        lines.push(line.clone());
        // The line of the variant chosen, under the list.
        b.wait("#ng-variant")
            .await
            .select_by_value(name)
            .await
            .expect("choose the variant");
        let shown = b.text("#ng-variant-summary").await;
        assert_eq!(shown, format!("{title}: {line}."));
    }
    b.wait("#ng-variant")
        .await
        .select_by_value("pentaplane")
        .await
        .unwrap();
    b.click("#ng-start").await;
    until_true(
        &b,
        "the header names Pentaplane V",
        "return document.getElementById('variant-title').textContent === 'Pentaplane V';",
    )
    .await;
    assert!(
        b.run("return document.title;")
            .await
            .as_str()
            .unwrap()
            .starts_with("Pentaplane V")
    );
    // The games list names a game's variant the same way.
    b.click("#open-pgn").await;
    b.wait("#pgn-text")
        .await
        .send_keys("[Variant \"polyhedron\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n*\n")
        .await
        .unwrap();
    b.click("#pgn-open").await;
    b.wait("#games-list:not([hidden]) tbody tr").await;
    assert_eq!(
        b.texts("#games-list tbody tr td:nth-child(2)").await,
        ["Polyhedron Chess"]
    );
    b.screenshot(&shot_path("newcomer-names")).await;
    b.close().await;
}

/// The rules dialog of every built-in variant (and of Raumschach, from its file) shows its
/// page: the page's first heading, and its tables where it has them; a link to another page
/// opens it in the dialog, and Back returns.
#[tokio::test(flavor = "multi_thread")]
async fn the_rules_of_every_variant() {
    let _one = ONE_AT_A_TIME.lock().await;
    let file = raumschach_file();
    let Some(b) = common::browser::launch_with(1280, 900, &["--variant-file", &file]).await else {
        return;
    };
    for &(name, title, _) in NAMES {
        game(&b, name).await;
        b.click("#rules").await;
        b.wait("#rules-dialog[open] #rules-body article h1").await;
        assert_eq!(b.text("#rules-title").await, title);
        let markdown = page_markdown(name);
        let heading = markdown.lines().next().unwrap().trim_start_matches("# ");
        assert_eq!(b.text("#rules-body article h1").await, heading, "{name}");
        let tables = b.all("#rules-body article table").await.len();
        assert_eq!(tables, tables_in(&markdown), "{name}: the page's tables");
        // The variant at a glance: its board and every piece, each a way into "how it moves".
        let pieces = b.all("#rules-glance [data-piece-kind]").await.len();
        let kinds = Variant::from_name(name).map(|v| v.info().pieces.len());
        if let Some(k) = kinds {
            assert_eq!(pieces, k, "{name}");
        }
        if name == "raumschach" {
            assert!(b.text(".rules-file-note").await.contains("variant file"));
        }
        b.screenshot(&shot_path(&format!("rules-{name}"))).await;
        b.click("#rules-close").await;
        until_true(
            &b,
            "the dialog closes",
            "return !document.getElementById('rules-dialog').open;",
        )
        .await;
    }
    // Pole Chess's page links to chess's: it opens in the dialog, and Back returns.
    game(&b, "pole").await;
    b.click("#rules").await;
    b.wait("#rules-body article h1").await;
    // Links are clicked by script: the dialog's sticky title bar may lie over them.
    b.run("document.querySelector('#rules-body a[href=\"/rules/chess.html\"]').click();")
        .await;
    until_true(
        &b,
        "chess's page in the dialog",
        "return document.querySelector('#rules-body article h1')?.textContent === 'Chess';",
    )
    .await;
    assert!(!b.all("#rules-back:not([hidden])").await.is_empty());
    b.click("#rules-back").await;
    until_true(
        &b,
        "Pole Chess's page again",
        "return document.querySelector('#rules-body article h1')?.textContent === 'Pole Chess';",
    )
    .await;
    // An anchor of the page moves within it, and the page keeps its address.
    let url = b.run("return location.href;").await;
    b.run("document.querySelector('#rules-body a[href=\"#rules-rulings\"]').click();")
        .await;
    until_true(
        &b,
        "the Rulings heading scrolled to",
        "const d = document.getElementById('rules-dialog');
         const h = document.getElementById('rules-rulings');
         return d.scrollTop > 0 && Math.abs(h.getBoundingClientRect().top - d.getBoundingClientRect().top) < d.clientHeight / 2;",
    )
    .await;
    assert_eq!(b.run("return location.href;").await, url);
    b.close().await;
}

/// On a 390 x 844 phone the rules dialog of every built-in variant fits the width: neither
/// the page nor the dialog scrolls sideways, and its tables fit.
#[tokio::test(flavor = "multi_thread")]
async fn the_rules_fit_a_phone() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(b) = common::browser::launch_phone(390, 844).await else {
        return;
    };
    for v in Variant::ALL {
        let name = v.name();
        game(&b, name).await;
        b.tap("#rules").await;
        b.wait("#rules-dialog[open] #rules-body article h1").await;
        tokio::time::sleep(Duration::from_millis(200)).await;
        let m = b
            .run(
                "const d = document.getElementById('rules-dialog'); const r = d.getBoundingClientRect();
                 const wide = [...d.querySelectorAll('#rules-body *, #rules-glance *')]
                   .filter(e => e.getBoundingClientRect().right > r.right + 0.5 || e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible')
                   .map(e => e.tagName + '.' + e.className + ' ' + (e.textContent ?? '').slice(0, 40));
                 return {inner: innerWidth, page: document.documentElement.scrollWidth,
                   left: r.left, right: r.right, scroll: d.scrollWidth, client: d.clientWidth, wide};",
            )
            .await;
        let f = |k: &str| m[k].as_f64().unwrap();
        assert!(
            f("page") <= f("inner"),
            "{name}: the page scrolls sideways: {m}"
        );
        assert!(
            f("left") >= 0.0 && f("right") <= f("inner"),
            "{name}: the dialog at {m}"
        );
        assert!(
            f("scroll") <= f("client"),
            "{name}: the dialog scrolls sideways: {m}"
        );
        assert_eq!(m["wide"], json!([]), "{name}: wider than the dialog");
        // The picture shows the page's first table, where it has one.
        b.run("document.querySelector('#rules-body article table')?.scrollIntoView();")
            .await;
        b.screenshot(&shot_path(&format!("phone-rules-{name}")))
            .await;
        b.tap("#rules-close").await;
    }
    // From the dialog's pieces to "how it moves" on a phone, where Polyhedron shows one
    // level at a time: the level switcher counts the Queen's targets on every level.
    game(&b, "polyhedron").await;
    b.tap("#rules").await;
    b.wait("#rules-dialog[open] #rules-body article h1").await;
    b.tap("#rules-glance [data-piece-kind=\"1\"]").await;
    until_true(
        &b,
        "the Queen's targets",
        "return !document.getElementById('rules-dialog').open && document.querySelectorAll('[data-target]').length > 0;",
    )
    .await;
    let counts = b
        .run("return [...document.querySelectorAll('[data-level-tab] .count')].map(c => Number(c.textContent || 0));")
        .await;
    let counts: Vec<usize> = serde_json::from_value(counts).unwrap();
    assert_eq!(
        counts.iter().sum::<usize>(),
        b.targets().await.len(),
        "{counts:?}"
    );
    assert!(counts.iter().filter(|&&n| n > 0).count() >= 2, "{counts:?}");
    b.run("window.scrollTo(0, 0);").await;
    b.screenshot(&shot_path("phone-piece-moves-polyhedron"))
        .await;
    b.close().await;
}

/// The names of the highlighted targets, once they have been drawn for `cell`.
async fn targets_from(b: &Browser, cell: &str) -> Vec<String> {
    until_true(
        b,
        &format!("the targets from {cell}"),
        &format!(
            "return document.querySelector('.cell.selected')?.dataset.cell === '{cell}' && \
             document.querySelectorAll('[data-target]').length > 0 && \
             document.getElementById('pv-text').textContent.includes(' on {cell}: ');"
        ),
    )
    .await;
    let mut t = b.targets().await;
    t.sort();
    t
}

/// "How it moves": a Knight on d4 lights exactly its eight squares, and on a1 its two; the
/// board holds the Knight and the two Kings that stand aside; a Polyhedron piece lights
/// targets on other levels; a Pentaplane Fortress its six steps and six shots; closing the
/// view gives the game back.
#[tokio::test(flavor = "multi_thread")]
async fn how_a_piece_moves() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(b) = common::browser::launch(1400, 900).await else {
        return;
    };
    game(&b, "chess").await;
    b.click("#legend summary").await;
    b.click("#legend-body [data-piece-kind=\"1\"]").await;
    b.wait("#piece-view:not([hidden])").await;
    assert_eq!(
        targets_from(&b, "d4").await,
        ["b3", "b5", "c2", "c6", "e2", "e6", "f3", "f5"]
    );
    assert!(
        b.text("#piece-view")
            .await
            .contains("The Kings are needed by the rules and stand aside")
    );
    let occupied = b.attrs("#board .cell.occupied", "data-cell").await;
    assert_eq!(occupied.len(), 3, "the Knight and two Kings: {occupied:?}");
    b.click_cell("a1").await;
    assert_eq!(targets_from(&b, "a1").await, ["b3", "c2"]);
    b.screenshot(&shot_path("piece-moves-chess")).await;
    // Back to the game: its 32 pieces.
    b.click("#pv-close").await;
    until_true(
        &b,
        "the game's position again",
        "return document.querySelectorAll('#board .cell.occupied').length === 32 && !document.querySelector('[data-target]');",
    )
    .await;

    // Polyhedron: a Queen reaches other levels from the middle of the board.
    game(&b, "polyhedron").await;
    b.click("#legend summary").await;
    b.click("#legend-body [data-piece-kind=\"1\"]").await;
    until_true(
        &b,
        "the Queen shown",
        "return !!document.querySelector('#board .cell.selected') && !!document.querySelector('[data-target]');",
    )
    .await;
    let from = b.attrs("#board .cell.selected", "data-cell").await[0].clone();
    let targets = targets_from(&b, &from).await;
    assert!(
        targets.iter().any(|t| level_of(t) != level_of(&from)),
        "{from}: {targets:?}"
    );
    let outlined = b.attrs(".level.has-target", "data-level").await;
    assert!(outlined.len() >= 2, "levels outlined: {outlined:?}");
    b.screenshot(&shot_path("piece-moves-polyhedron")).await;

    // Pentaplane: the Fortress on Cc3 steps to six cells and shoots at six more.
    game(&b, "pentaplane").await;
    b.click("#legend summary").await;
    b.click("#legend-body [data-piece-kind=\"7\"]").await;
    let mut targets = targets_from(&b, "Cc3").await;
    targets.sort();
    assert_eq!(targets.len(), 12, "{targets:?}");
    let mut shots = b.attrs("[data-target].shot", "data-cell").await;
    shots.sort();
    assert_eq!(shots, ["Ac3", "Ca3", "Cc1", "Cc5", "Ce3", "Ec3"]);
    // A pawn's captures are ringed: White's pawn moved to Cc2 on the same level.
    b.wait("#pv-kind").await.select_by_value("0").await.unwrap();
    b.click_cell("Cc2").await;
    targets_from(&b, "Cc2").await;
    assert!(
        !b.attrs("[data-target].capture", "data-cell")
            .await
            .is_empty()
    );
    b.screenshot(&shot_path("piece-moves-pentaplane")).await;
    b.close().await;
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn connect(server: &Server) -> Socket {
    let mut req = format!("ws://{}/ws?token={}", server.host(), server.token())
        .into_client_request()
        .unwrap();
    let origin = format!("http://{}", server.host());
    req.headers_mut()
        .insert("Origin", HeaderValue::from_str(&origin).unwrap());
    tokio_tungstenite::connect_async(req)
        .await
        .expect("the WebSocket opens")
        .0
}

/// The next message of type `kind` (others skipped).
async fn next_of(ws: &mut Socket, kind: &str) -> Value {
    loop {
        let m = tokio::time::timeout(Duration::from_secs(60), ws.next())
            .await
            .expect("a message within a minute")
            .expect("open")
            .expect("a frame");
        if let Message::Text(t) = m {
            let v: Value = serde_json::from_str(&t).unwrap();
            if v["type"] == kind || v["type"] == "error" {
                return v;
            }
        }
    }
}

async fn ask(ws: &mut Socket, msg: Value) -> Value {
    ws.send(Message::Text(msg.to_string().into()))
        .await
        .unwrap();
    next_of(ws, "piece_targets").await
}

/// `piece_moves` through the WebSocket: a good question answered with `piece_targets`, each
/// bad field with an `error` that says which, and the game going on as it was.
#[tokio::test(flavor = "multi_thread")]
async fn piece_moves_over_the_websocket() {
    let server = Server::start(&[]);
    let mut ws = connect(&server).await;
    let hello = next_of(&mut ws, "hello").await;
    let chess = &hello["variants"][0];
    assert_eq!(chess["title"], "Chess");
    assert_eq!(chess["rules_page"], "/rules/chess.html");
    let a = ask(
        &mut ws,
        json!({"type": "piece_moves", "variant": "chess", "kind": 1, "colour": 0, "cell": 27}),
    )
    .await;
    assert_eq!(a["type"], "piece_targets", "{a}");
    assert_eq!(a["moves"].as_array().unwrap().len(), 8);
    assert_eq!(a["kings"].as_array().unwrap().len(), 2);
    for (bad, says) in [
        (
            json!({"variant": "chess", "kind": 6, "colour": 0, "cell": 27}),
            "no piece kind 6",
        ),
        (
            json!({"variant": "chess", "kind": 1, "colour": 2, "cell": 27}),
            "no colour 2",
        ),
        (
            json!({"variant": "chess", "kind": 1, "colour": 0, "cell": 64}),
            "no cell 64",
        ),
        (
            json!({"variant": "nope", "kind": 1, "colour": 0, "cell": 27}),
            "unknown variant",
        ),
        (
            json!({"variant": "chess\nquit", "kind": 1, "colour": 0, "cell": 27}),
            "line break",
        ),
        (
            json!({"variant": "chess", "kind": 1, "colour": 0, "cell": -1}),
            "bad message",
        ),
        (
            json!({"variant": "chess", "kind": 1, "colour": 0}),
            "bad message",
        ),
        (
            json!({"variant": "chess", "kind": 0, "colour": 0, "cell": 60}),
            "cannot be shown: FEN",
        ),
    ] {
        let mut msg = bad.clone();
        msg["type"] = json!("piece_moves");
        let e = ask(&mut ws, msg).await;
        assert_eq!(e["type"], "error", "{bad}: {e}");
        let text = e["message"].as_str().unwrap();
        assert!(text.contains(says), "{bad}: {text}");
    }
    // The session goes on: a game starts as before.
    ws.send(Message::Text(
        json!({"type": "new_game", "variant": "chess", "seats": ["human", "human"]})
            .to_string()
            .into(),
    ))
    .await
    .unwrap();
    let s = next_of(&mut ws, "state").await;
    assert_eq!(s["type"], "state", "{s}");
}

/// A GET of `path` from `server` with `token` (or none): the status and the headers.
fn get(server: &Server, path: &str, token: Option<&str>) -> (u16, String) {
    let mut s = std::net::TcpStream::connect(server.host()).unwrap();
    let q = token.map(|t| format!("?token={t}")).unwrap_or_default();
    write!(
        s,
        "GET {path}{q} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        server.host()
    )
    .unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    let status = out
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    (status, out)
}

/// The rules pages are served behind the token, with the page's Content-Security-Policy,
/// and nothing else is reached through their path.
#[test]
fn the_rules_pages_are_behind_the_same_door() {
    let server = Server::start(&[]);
    let token = server.token();
    let (status, page) = get(&server, "/rules/polyhedron.html", Some(&token));
    assert_eq!(status, 200, "{page}");
    let lower = page.to_lowercase();
    assert!(lower.contains("content-type: text/html"));
    assert!(lower.contains("content-security-policy: default-src 'self'"));
    assert!(page.contains("<h1 id=\"rules-polyhedron-chess\">Polyhedron Chess</h1>"));
    assert!(page.contains("<table>"));
    assert!(!page.contains("<script"));
    let (status, _) = get(&server, "/rules/polyhedron.html", None);
    assert_eq!(status, 403);
    for path in [
        "/rules/none.html",
        "/rules/../Cargo.toml",
        "/rules/polyhedron.md",
    ] {
        let (status, _) = get(&server, path, Some(&token));
        assert_eq!(status, 404, "{path}");
    }
}

/// The README's pictures of the new-game form, the rules dialog and "how it moves":
/// `cargo test --test gui_newcomer -- --ignored screenshots_for_the_docs`.
#[tokio::test(flavor = "multi_thread")]
#[ignore = "writes docs/screenshots/; run on demand"]
async fn screenshots_for_the_docs() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(b) = common::browser::launch(1400, 860).await else {
        return;
    };
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/screenshots");
    // The new-game form, Polyhedron Chess chosen: its full name and its line.
    b.open("").await;
    b.wait("#new-game-dialog[open]").await;
    b.wait("#ng-variant option[value=\"polyhedron\"]").await;
    b.wait("#ng-variant")
        .await
        .select_by_value("polyhedron")
        .await
        .unwrap();
    b.run("document.activeElement?.blur();").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    b.screenshot(&dir.join("new-game.png")).await;
    game(&b, "polyhedron").await;
    b.click("#rules").await;
    b.wait("#rules-body article table").await;
    // The page's Pieces section: its table of every piece's moves.
    b.run("document.getElementById('rules-pieces').scrollIntoView();")
        .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    b.screenshot(&dir.join("rules.png")).await;
    b.click("#rules-close").await;
    b.click("#legend summary").await;
    // The Space Knight: leaps within its level and to the levels above and below.
    let kind = Variant::Polyhedron
        .info()
        .pieces
        .iter()
        .position(|p| p.name == "Space Knight")
        .unwrap();
    b.click(&format!("#legend-body [data-piece-kind=\"{kind}\"]"))
        .await;
    b.wait("[data-target]").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    b.run("window.scrollTo(0, 0); document.activeElement?.blur();")
        .await;
    b.screenshot(&dir.join("piece-moves.png")).await;
    b.close().await;
}
