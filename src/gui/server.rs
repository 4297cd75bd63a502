//! The HTTP side of `strata gui`: the page's files (built into the binary), the WebSocket of
//! each game session, and the checks every request passes first.
//!
//! Safety: the server listens on 127.0.0.1 unless told otherwise. Every request must carry
//! the access token printed at start-up (in the URL, or in the cookie the first page load
//! sets), name a host the server is reached by as an IP address or `localhost` (so that a
//! web page on another site cannot reach it through DNS rebinding), and, when it has an
//! `Origin` (a WebSocket always has one), come from this same origin.
//!
//! At most `--max-sessions` sessions run at once (each has its own engine process): a
//! WebSocket beyond them gets one `error` message saying so, and is closed.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::assets;
use super::bounds::MAX_SOCKET_MESSAGE;
use super::engine::REPORT_QUEUE;
use super::messages::ServerMessage;
use super::rules_pages;
use super::session::{Context, Session};

/// The cookie that carries the token after the first page load.
const COOKIE: &str = "strata_token";

/// What the request checks need.
pub struct Guard {
    /// The access token.
    pub token: String,
    /// The address the server listens on.
    pub addr: SocketAddr,
}

/// How long a refused or failed WebSocket is given to read its error and close.
const REFUSAL_GRACE: Duration = Duration::from_secs(5);
/// The WebSocket close code "try again later" (RFC 6455, IANA registry).
const TRY_AGAIN_LATER: u16 = 1013;
/// The WebSocket close code "policy violation" (RFC 6455).
const POLICY_VIOLATION: u16 = 1008;

/// Server state.
#[derive(Clone)]
pub struct App {
    /// Request checks.
    pub guard: Arc<Guard>,
    /// What sessions share.
    pub ctx: Arc<Context>,
    /// The sessions allowed at once: one permit each, held until its engine has ended.
    pub sessions: Arc<Semaphore>,
    /// Their number (`--max-sessions`).
    pub max_sessions: usize,
}

/// The router: `/ws` for game sessions, every other path a page file; all behind the checks.
pub fn router(app: App) -> Router {
    Router::new()
        .route("/ws", get(ws))
        .fallback(get(file))
        .layer(middleware::from_fn_with_state(app.clone(), check))
        .with_state(app)
}

/// Equal strings, compared in time independent of where they differ.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// The value of `name` in the query string of `query`.
fn query_param<'a>(query: &'a str, name: &str) -> Option<&'a str> {
    query.split('&').find_map(|kv| {
        let (k, v) = kv.split_once('=')?;
        (k == name).then_some(v)
    })
}

/// The value of cookie `name`.
fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|kv| {
            let (k, v) = kv.trim().split_once('=')?;
            (k == name).then_some(v)
        })
}

impl Guard {
    /// Whether `host` (a `Host` header) names this server: an IP address or `localhost`,
    /// with our port; and, when listening on one address only, that address or localhost.
    fn host_ok(&self, host: &str) -> bool {
        let port = self.addr.port();
        let Some((name, p)) = host.rsplit_once(':') else {
            return false;
        };
        if p.parse::<u16>() != Ok(port) {
            return false;
        }
        let name = name.trim_start_matches('[').trim_end_matches(']');
        if name.eq_ignore_ascii_case("localhost") {
            return self.addr.ip().is_loopback() || self.addr.ip().is_unspecified();
        }
        match name.parse::<std::net::IpAddr>() {
            Ok(ip) => self.addr.ip().is_unspecified() || ip == self.addr.ip(),
            Err(_) => false,
        }
    }

    /// Why `headers` and `query` may not reach the server, if they may not.
    pub fn refuse(&self, headers: &HeaderMap, query: &str, websocket: bool) -> Option<String> {
        let host = headers
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .unwrap_or("");
        if !self.host_ok(host) {
            return Some(format!("unknown host '{host}'"));
        }
        let token = query_param(query, "token").or_else(|| cookie(headers, COOKIE));
        if !token.is_some_and(|t| same(t, &self.token)) {
            return Some(
                "a missing or wrong access token (open the URL strata gui printed)".into(),
            );
        }
        match headers
            .get(header::ORIGIN)
            .map(|o| o.to_str().unwrap_or(""))
        {
            Some(origin) if origin != format!("http://{host}") => {
                Some(format!("a foreign origin '{origin}'"))
            }
            None if websocket => Some("a WebSocket without an origin".into()),
            _ => None,
        }
    }
}

/// The checks in front of every route.
async fn check(State(app): State<App>, req: Request, next: Next) -> Response {
    let query = req.uri().query().unwrap_or("").to_string();
    let websocket = req.uri().path() == "/ws";
    if let Some(why) = app.guard.refuse(req.headers(), &query, websocket) {
        tracing::warn!(path = %req.uri().path(), "refused: {why}");
        return (
            StatusCode::FORBIDDEN,
            format!("strata gui: refused: {why}\n"),
        )
            .into_response();
    }
    let mut response = next.run(req).await;
    // The first page load carries the token in its URL; later requests (the page's modules,
    // the WebSocket) carry it as a cookie that no other site can send or read.
    if query_param(&query, "token").is_some()
        && let Ok(v) = HeaderValue::from_str(&format!(
            "{COOKIE}={}; Path=/; HttpOnly; SameSite=Strict",
            app.guard.token
        ))
    {
        response.headers_mut().append(header::SET_COOKIE, v);
    }
    response
}

/// A page file, or a rules page (`/rules/<page>.html`).
async fn file(req: Request) -> Response {
    let path = req.uri().path();
    let (content, content_type) = if let Some(f) = assets::find(path) {
        (f.content, f.content_type)
    } else if let Some(html) = rules_pages::find(path) {
        (html.as_bytes(), "text/html; charset=utf-8")
    } else {
        return (StatusCode::NOT_FOUND, "not found\n").into_response();
    };
    let mut r = Response::new(Body::from(content));
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        // The one inline script allowed is the page's import map (which lets three.js's
        // OrbitControls import 'three'), by its SHA-256: changing the map changes the hash
        // (the browser's console says the new one), and the 3D view's browser test fails
        // until it is updated here.
        HeaderValue::from_static(
            "default-src 'self'; connect-src 'self'; img-src 'self' data: blob:; \
             script-src 'self' 'sha256-bjti+b6l9xLljm61N60myWwZZPOiJKRDUBnzgUGvVhc='; \
             style-src 'self' 'unsafe-inline'; frame-ancestors 'none'",
        ),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    r
}

/// A game session's WebSocket, if a session is free.
async fn ws(State(app): State<App>, upgrade: WebSocketUpgrade) -> Response {
    upgrade
        .max_message_size(MAX_SOCKET_MESSAGE)
        .max_frame_size(MAX_SOCKET_MESSAGE)
        .on_upgrade(move |socket| async move {
            match app.sessions.clone().try_acquire_owned() {
                Ok(slot) => session(socket, app.ctx, slot).await,
                Err(_) => refuse(socket, app.max_sessions).await,
            }
        })
}

/// Tells a WebSocket beyond the session limit why it gets no session, and closes it.
async fn refuse(socket: WebSocket, max: usize) {
    tracing::warn!("refused a session: {max} run already");
    let message = format!(
        "strata gui already runs {max} game session{}, its limit (each browser tab is one, \
         with its own engine): close a tab of this server and reload this page, or start the \
         server with a higher --max-sessions",
        if max == 1 { "" } else { "s" }
    );
    close_with(socket, message, TRY_AGAIN_LATER, "too many sessions").await;
}

/// Sends `message` as an `error`, then closes the WebSocket with `code` and `reason`.
async fn close_with(mut socket: WebSocket, message: String, code: u16, reason: &'static str) {
    let text =
        serde_json::to_string(&ServerMessage::Error { message }).expect("messages serialise");
    if socket.send(Message::Text(text.into())).await.is_err() {
        return;
    }
    let close = CloseFrame {
        code,
        reason: reason.into(),
    };
    if socket.send(Message::Close(Some(close))).await.is_err() {
        return;
    }
    // Wait for the client's close (reading what it sent), so that nothing unread makes
    // the connection end with a reset that could lose the message.
    let _ = tokio::time::timeout(REFUSAL_GRACE, async {
        while let Some(Ok(m)) = socket.recv().await {
            if matches!(m, Message::Close(_)) {
                break;
            }
        }
    })
    .await;
}

/// Runs one session until the page goes away; its engine ends with it, and then frees
/// `slot`.
async fn session(mut socket: WebSocket, ctx: Arc<Context>, slot: OwnedSemaphorePermit) {
    let (tx, mut reports) = tokio::sync::mpsc::channel(REPORT_QUEUE);
    let mut s = Session::new(ctx, tx, slot);
    loop {
        for m in s.take_outbox() {
            let text = serde_json::to_string(&m).expect("messages serialise");
            if socket.send(Message::Text(text.into())).await.is_err() {
                return;
            }
        }
        let deadline = s.deadline();
        tokio::select! {
            msg = socket.recv() => match msg {
                // A message may cost seconds of work (a PGN of thousands of games): done
                // in place, but with this worker's other tasks handed to another thread, so
                // that no other session waits for it.
                Some(Ok(Message::Text(t))) => tokio::task::block_in_place(|| s.on_text(t.as_str())),
                Some(Ok(Message::Binary(_))) => s.on_text("binary data"),
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
                Some(Ok(Message::Close(_))) | None => return,
                // A message past MAX_SOCKET_MESSAGE, or a broken frame: the connection
                // cannot go on; the page is told why if it can still be told.
                Some(Err(e)) => {
                    tracing::warn!("a session's connection failed: {e}");
                    let message = format!(
                        "the connection failed: {e}; the game is lost: reload the page to \
                         start again"
                    );
                    close_with(socket, message, POLICY_VIOLATION, "a bad message").await;
                    return;
                }
            },
            Some(r) = reports.recv() => s.on_report(r),
            _ = async {
                match deadline {
                    Some(d) => tokio::time::sleep_until(d.into()).await,
                    None => std::future::pending().await,
                }
            } => s.on_deadline(),
        }
    }
}

/// The most connections served at once (page loads and sessions' WebSockets, with or
/// without the token): a connection beyond them is closed at once.
pub const MAX_CONNECTIONS: usize = 64;

/// How long a connection may take to send a request's headers (and, between requests,
/// to start the next one) before it is closed.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// Serves `router` on `listener` until `shutdown` completes: at most [`MAX_CONNECTIONS`]
/// connections at once, each closed when it does not send a request's headers within
/// [`HEADER_TIMEOUT`], so that idle connections (with or without the token) cannot hold
/// every file descriptor or lock the token holder out.
pub async fn serve(
    listener: tokio::net::TcpListener,
    router: Router,
    shutdown: impl std::future::Future<Output = ()>,
) {
    let connections = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            _ = &mut shutdown => return,
            a = listener.accept() => a,
        };
        let stream = match accepted {
            Ok((stream, _)) => stream,
            // Out of descriptors, say: wait a moment rather than spin.
            Err(e) => {
                tracing::warn!("accept failed: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let Ok(permit) = connections.clone().try_acquire_owned() else {
            tracing::warn!("refused a connection: {MAX_CONNECTIONS} are open");
            continue;
        };
        let service = hyper_util::service::TowerToHyperService::new(router.clone());
        tokio::spawn(async move {
            let _permit = permit;
            let mut http = hyper::server::conn::http1::Builder::new();
            http.timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT);
            let io = hyper_util::rt::TokioIo::new(stream);
            if let Err(e) = http.serve_connection(io, service).with_upgrades().await {
                tracing::debug!("a connection ended: {e}");
            }
        });
    }
}
