//! `strata gui`: play any variant against an engine in a browser.
//!
//! A local web server: the page (plain ES modules, built into the binary) talks to the server
//! over a WebSocket in JSON (`docs/gui.md`); the server owns each game through the match
//! runner's referee and speaks to the opponent engine, a separate process, over the protocol
//! (by default this binary itself). Files: [`server`] (HTTP, checks, WebSocket), [`session`]
//! (one game per WebSocket), [`engine`] (the session's engine process), [`describe`] (what the
//! page is told, from the rules layer), [`messages`] (the JSON), [`bounds`] (every limit on
//! what a page may ask, and the checks of its messages' fields), [`options`] (the engine
//! options a page may set), [`assets`] (the page's files), [`rules_pages`] (the variants'
//! rules pages, rendered from `docs/variants/`), [`piece_moves`] (how a piece moves on an
//! empty board).

pub mod assets;
pub mod bounds;
pub mod describe;
pub mod engine;
pub mod messages;
pub mod options;
pub mod piece_moves;
pub mod rules_pages;
pub mod server;
pub mod session;

use std::io::Write;
use std::net::SocketAddr;
use std::sync::Arc;

use rand::RngCore;

use crate::rules::Variant;
use server::{App, Guard};
use session::Context;

/// How to run the GUI server.
#[derive(Clone, Debug)]
pub struct GuiOptions {
    /// The engine command and its arguments (`None`: this binary).
    pub engine: Option<String>,
    /// The address to listen on.
    pub host: String,
    /// The port (0: any free port).
    pub port: u16,
    /// The game sessions (browser tabs) served at once, each with its own engine process
    /// (default [`bounds::DEFAULT_MAX_SESSIONS`]).
    pub max_sessions: usize,
}

/// A fresh random access token: 128 bits in hex.
fn new_token() -> String {
    let mut bytes = [0u8; 16];
    rand::thread_rng().fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Starts the server, prints the page's URL (with its token) as the first line on stdout,
/// and serves until interrupted (Ctrl-C) or until the process is ended.
pub fn run(opts: GuiOptions) -> Result<(), String> {
    if opts.max_sessions == 0 {
        return Err("--max-sessions: at least one session is needed".into());
    }
    // Past this, tokio's semaphore cannot count (and no machine runs so many engines).
    if opts.max_sessions > tokio::sync::Semaphore::MAX_PERMITS {
        return Err(format!("--max-sessions: {} is too many", opts.max_sessions));
    }
    let (engine_cmd, engine_args) = match &opts.engine {
        Some(e) => {
            let mut words = e.split_whitespace().map(str::to_string);
            let cmd = words.next().ok_or("--engine: the command is empty")?;
            (cmd, words.collect())
        }
        None => (
            std::env::current_exe()
                .map_err(|e| format!("cannot find this program: {e}"))?
                .to_string_lossy()
                .to_string(),
            Vec::new(),
        ),
    };
    let ip: std::net::IpAddr = match opts.host.as_str() {
        "localhost" => std::net::Ipv4Addr::LOCALHOST.into(),
        h => h
            .parse()
            .map_err(|_| format!("--host: '{h}' is not an IP address"))?,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server's threads: {e}"))?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(SocketAddr::new(ip, opts.port))
            .await
            .map_err(|e| format!("cannot listen on {}:{}: {e}", opts.host, opts.port))?;
        let addr = listener
            .local_addr()
            .map_err(|e| format!("no local address: {e}"))?;
        let token = new_token();
        let shown = if ip.is_unspecified() {
            SocketAddr::new(std::net::Ipv4Addr::LOCALHOST.into(), addr.port())
        } else {
            addr
        };
        let mut out = std::io::stdout();
        let _ = writeln!(out, "http://{shown}/?token={token}");
        let _ = out.flush();
        eprintln!("strata gui: open the URL above in a browser; Ctrl-C ends the server");
        let app = App {
            guard: Arc::new(Guard { token, addr }),
            sessions: Arc::new(tokio::sync::Semaphore::new(opts.max_sessions)),
            max_sessions: opts.max_sessions,
            ctx: Arc::new(Context {
                engine_cmd,
                engine_args,
                variants: Variant::available()
                    .iter()
                    .map(|&v| describe::variant_view(v))
                    .collect(),
            }),
        };
        server::serve(listener, server::router(app), async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await;
        Ok(())
    })
}
