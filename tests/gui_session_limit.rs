//! The session limit of `strata gui` as a person meets it, in a real headless Chromium (as
//! `gui_browser.rs`): with `--max-sessions 1` and that session taken, the page says in words
//! why it gets no game (and keeps saying it, the connection being closed); once the session
//! is closed, the page reloaded plays.

mod common;

use common::browser::{ONE_AT_A_TIME, PATIENCE, launch_with, shot_path};
use futures_util::StreamExt;
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;

#[tokio::test(flavor = "multi_thread")]
async fn the_page_says_why_it_gets_no_session() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(b) = launch_with(1200, 900, &["--max-sessions", "1"]).await else {
        return;
    };
    // Another tab holds the one session.
    let host = b.server.host();
    let mut req = format!("ws://{host}/ws?token={}", b.server.token())
        .into_client_request()
        .unwrap();
    req.headers_mut().insert(
        "Origin",
        HeaderValue::from_str(&format!("http://{host}")).unwrap(),
    );
    let (mut other, _) = tokio_tungstenite::connect_async(req).await.unwrap();
    let hello = other.next().await.unwrap().unwrap();
    assert!(hello.to_text().unwrap().contains("\"hello\""), "{hello}");

    b.open("").await;
    let until = Instant::now() + PATIENCE;
    let said = loop {
        let m = b.text("#message").await;
        if m.contains("already runs 1 game session, its limit") {
            break m;
        }
        assert!(Instant::now() < until, "the page does not say why: '{m}'");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert!(
        said.contains("--max-sessions") && said.contains("reload"),
        "{said}"
    );
    assert_eq!(b.text("#status").await, "Not connected to the server");
    b.screenshot(&shot_path("session-limit")).await;
    // It stays (no game will come to replace it).
    tokio::time::sleep(Duration::from_secs(11)).await;
    assert_eq!(b.text("#message").await, said);

    // The other tab closes: a reload gets a session (the engine named in the status).
    other.close(None).await.unwrap();
    drop(other);
    let until = Instant::now() + PATIENCE;
    loop {
        b.open("").await;
        tokio::time::sleep(Duration::from_millis(500)).await;
        if b.text("#status").await.starts_with("Engine:") {
            break;
        }
        assert!(
            Instant::now() < until,
            "no session after the other closed: {}",
            b.text("#status").await
        );
    }
    b.close().await;
}
