//! The GUI server's WebSocket API without a browser (the messages of `docs/gui.md`): the
//! built `strata gui` and a WebSocket client. Every message type; bad JSON and illegal moves
//! answered with an error and no change; the token, Origin and Host checks; an engine that
//! crashes; a closed tab ending its engine; tabs with games of their own; a clock running out.

mod common;

use std::time::{Duration, Instant};

use common::browser::Server;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A WebSocket to `server`, with this token, Origin and Host.
async fn connect_with(
    server: &Server,
    token: &str,
    origin: Option<&str>,
    host: Option<&str>,
) -> Result<Socket, u16> {
    let mut req = format!("ws://{}/ws?token={token}", server.host())
        .into_client_request()
        .expect("a request");
    if let Some(o) = origin {
        req.headers_mut()
            .insert("Origin", HeaderValue::from_str(o).unwrap());
    }
    if let Some(h) = host {
        req.headers_mut()
            .insert("Host", HeaderValue::from_str(h).unwrap());
    }
    match tokio_tungstenite::connect_async(req).await {
        Ok((ws, _)) => Ok(ws),
        Err(tokio_tungstenite::tungstenite::Error::Http(r)) => Err(r.status().as_u16()),
        Err(e) => panic!("connect: {e}"),
    }
}

async fn connect(server: &Server) -> Socket {
    let origin = format!("http://{}", server.host());
    connect_with(server, &server.token(), Some(&origin), None)
        .await
        .expect("the WebSocket opens")
}

/// The next message, within a generous time.
async fn next(ws: &mut Socket) -> Value {
    loop {
        let m = tokio::time::timeout(Duration::from_secs(60), ws.next())
            .await
            .expect("a message within a minute")
            .expect("the socket is open")
            .expect("a frame");
        if let Message::Text(t) = m {
            return serde_json::from_str(&t).expect("JSON");
        }
    }
}

/// The next message of type `kind` (others are skipped).
async fn next_of(ws: &mut Socket, kind: &str) -> Value {
    loop {
        let m = next(ws).await;
        if m["type"] == kind {
            return m;
        }
    }
}

/// The next state for which `pred` holds.
async fn state_where(ws: &mut Socket, pred: impl Fn(&Value) -> bool) -> Value {
    loop {
        let m = next_of(ws, "state").await;
        if pred(&m) {
            return m;
        }
    }
}

async fn send(ws: &mut Socket, v: Value) {
    ws.send(Message::Text(v.to_string().into()))
        .await
        .expect("send");
}

fn moves(state: &Value) -> Vec<String> {
    state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap().to_string())
        .collect()
}

/// A fresh game of `variant` with these seats, once the engine is ready.
async fn new_game(ws: &mut Socket, extra: Value) -> Value {
    let mut msg = json!({"type": "new_game", "engine_limit": {"nodes": 2000}});
    for (k, v) in extra.as_object().unwrap() {
        msg[k] = v.clone();
    }
    send(ws, msg).await;
    state_where(ws, |s| {
        s["legal"].as_array().is_some_and(|l| !l.is_empty())
            || s["thinking"] == true
            || !s["result"].is_null()
    })
    .await
}

#[tokio::test(flavor = "multi_thread")]
async fn every_message_type() {
    let server = Server::start(&[]);
    let mut ws = connect(&server).await;
    let hello = next(&mut ws).await;
    assert_eq!(hello["type"], "hello");
    let variants = hello["variants"].as_array().unwrap();
    assert_eq!(variants.len(), 6);
    let poly = variants.iter().find(|v| v["name"] == "polyhedron").unwrap();
    assert_eq!(poly["cells"].as_array().unwrap().len(), 300);
    assert_eq!(poly["pieces"].as_array().unwrap().len(), 14);
    assert_eq!(poly["levels"][2]["files"], json!([0, 9]));
    assert!(
        hello["engine"]["name"]
            .as_str()
            .unwrap()
            .starts_with("strata")
    );

    // A game against the engine: a move, the engine's reply.
    let s = new_game(
        &mut ws,
        json!({"variant": "chess", "seats": ["human", "engine"]}),
    )
    .await;
    assert_eq!(s["legal"].as_array().unwrap().len(), 20);
    assert_eq!(s["pieces"].as_array().unwrap().len(), 32);
    send(&mut ws, json!({"type": "move", "move": "e2e4"})).await;
    let s = state_where(&mut ws, |s| s["moves"].as_array().unwrap().len() == 2).await;
    assert_eq!(moves(&s)[0], "e2e4");
    assert_eq!(s["moves"][0]["san"], "e4");
    assert!(
        s["moves"][1]["comment"].is_string(),
        "the engine's score/depth"
    );
    assert!(s["last"]["to"].as_u64().is_some());

    // Explain a refused move, in words.
    send(
        &mut ws,
        json!({"type": "explain", "from": "g1", "to": "g4"}),
    )
    .await;
    let e = next_of(&mut ws, "explanation").await;
    assert_eq!(e["reason"], "the knight on g1 does not move to g4");

    // Look back at the start, then export.
    send(&mut ws, json!({"type": "show", "ply": 1})).await;
    let p = next_of(&mut ws, "position").await;
    assert_eq!(
        p["fen"],
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    send(&mut ws, json!({"type": "get_pgn"})).await;
    let pgn = next_of(&mut ws, "pgn").await;
    let text = pgn["pgn"].as_str().unwrap();
    // Chess as python-chess writes it: no Variant tag, SAN.
    assert!(
        !text.contains("[Variant") && text.contains("1. e4"),
        "{text}"
    );
    assert!(text.contains("[Result \"*\"]"));

    // Take back: the reply and the move.
    send(&mut ws, json!({"type": "takeback"})).await;
    let s = state_where(&mut ws, |s| s["moves"].as_array().unwrap().is_empty()).await;
    assert_eq!(s["legal"].as_array().unwrap().len(), 20);
    assert!(s["last"].is_null());

    // A draw offer: the engine declines before it has a score at or below zero.
    send(&mut ws, json!({"type": "draw_offer"})).await;
    let st = next_of(&mut ws, "engine_status").await;
    assert!(st["message"].as_str().unwrap().contains("declines"));

    // Resign.
    send(&mut ws, json!({"type": "resign"})).await;
    let s = state_where(&mut ws, |s| !s["result"].is_null()).await;
    assert_eq!(s["result"]["result"], "0-1");
    assert_eq!(s["result"]["termination"], "resignation");
    assert_eq!(s["result"]["reason"], "White resigns");

    // Two people on one screen: a draw offered and accepted.
    let s = new_game(
        &mut ws,
        json!({"variant": "pole", "seats": ["human", "human"]}),
    )
    .await;
    assert_eq!(s["hands"][0], json!([[6, 1]]));
    send(&mut ws, json!({"type": "draw_offer"})).await;
    let s = state_where(&mut ws, |s| !s["draw_offer"].is_null()).await;
    assert_eq!(s["draw_offer"], 0);
    send(&mut ws, json!({"type": "draw_answer", "accept": true})).await;
    let s = state_where(&mut ws, |s| !s["result"].is_null()).await;
    assert_eq!(s["result"]["result"], "1/2-1/2");
    assert_eq!(s["result"]["termination"], "agreement");

    // From a PGN (in readable and protocol notation), and from a FEN with moves.
    let pgn = "[Variant \"pole\"]\n\n1. e4 d7d5 2. exd5 *\n";
    let s = new_game(
        &mut ws,
        json!({"variant": "chess", "pgn": pgn, "seats": ["human", "human"]}),
    )
    .await;
    assert_eq!(s["variant"], "pole");
    assert_eq!(moves(&s), ["e2e4", "d7d5", "e4d5"]);
    // The last move of a game started part-way is marked, with its capture: e4 to d5.
    assert_eq!(s["last"], json!({"from": 28, "to": 35, "removed": []}));
    assert!(s["notes"][0].as_str().unwrap().contains("available"));
    let s = new_game(
        &mut ws,
        json!({"variant": "polyhedron", "moves": ["Cc3Cc5"], "seats": ["human", "human"]}),
    )
    .await;
    assert_eq!(s["to_move"], 1);
    // Typed in SAN; refused with the notation expected, or the moves it could be.
    let s = new_game(
        &mut ws,
        json!({"variant": "chess", "moves": ["e4", "e5", "Nf3"], "seats": ["human", "human"]}),
    )
    .await;
    assert_eq!(moves(&s), ["e2e4", "e7e5", "g1f3"]);
    let examples = s["move_examples"].as_str().unwrap().to_string();
    assert!(examples.contains(", or "), "{examples}");
    // Why the pieces the text is about cannot make it: one, a few, or none that fits.
    let e = refused(&mut ws, json!({"type": "move", "move": "Ke3"})).await;
    assert_eq!(e, "illegal move Ke3: the king on e8 does not move to e3");
    let e = refused(&mut ws, json!({"type": "move", "move": "Re1"})).await;
    assert_eq!(
        e,
        "illegal move Re1: the rook on a8 does not move to e1; the rook on h8 does not move to e1"
    );
    let e = refused(&mut ws, json!({"type": "move", "move": "Rbe1"})).await;
    assert_eq!(
        e,
        format!(
            "illegal move Rbe1: Black has no piece that fits 'Rbe1' and could move to e1: \
             type a move as {examples}"
        )
    );
    let e = refused(&mut ws, json!({"type": "move", "move": "Kd9"})).await;
    assert!(
        e.starts_with("unparsable move 'Kd9': type a move as"),
        "{e}"
    );
    send(&mut ws, json!({"type": "move", "move": "Nc6"})).await;
    let s = state_where(&mut ws, |s| s["moves"].as_array().unwrap().len() == 4).await;
    assert_eq!(moves(&s)[3], "b8c6");
    let s = new_game(
        &mut ws,
        json!({"variant": "chess", "fen": "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "seats": ["human", "human"]}),
    )
    .await;
    assert_eq!(s["to_move"], 0);
    let e = refused(&mut ws, json!({"type": "move", "move": "Nd2"})).await;
    assert_eq!(e, "ambiguous move 'Nd2': it could be Nbd2 or Nfd2");
}

#[tokio::test(flavor = "multi_thread")]
async fn bad_messages_are_answered_and_change_nothing() {
    let server = Server::start(&[]);
    let mut ws = connect(&server).await;
    next_of(&mut ws, "hello").await;
    // Before any game.
    send(&mut ws, json!({"type": "move", "move": "e2e4"})).await;
    assert!(
        next_of(&mut ws, "error").await["message"]
            .as_str()
            .unwrap()
            .contains("no game")
    );
    let s = new_game(
        &mut ws,
        json!({"variant": "chess", "seats": ["human", "human"]}),
    )
    .await;
    let fen = s["fen"].clone();
    for (bad, says) in [
        ("not json at all".to_string(), "bad message"),
        (json!({"type": "frobnicate"}).to_string(), "bad message"),
        (json!({"type": "move"}).to_string(), "bad message"),
        (json!({"type": "move", "move": "e2e5"}).to_string(), "illegal move e2e5: the pawn on e2 does not move to e5"),
        (json!({"type": "move", "move": "zz"}).to_string(), "unparsable move 'zz'"),
        (json!({"type": "new_game", "variant": "checkers"}).to_string(), "unknown variant 'checkers'"),
        (json!({"type": "new_game", "variant": "chess", "fen": "8/8 w"}).to_string(), "fen:"),
        (json!({"type": "new_game", "variant": "chess", "moves": ["e2e4", "e2e4"]}).to_string(), "move 2 of 2"),
        (json!({"type": "new_game", "variant": "future-generation", "seats": ["human", "engine"]}).to_string(), "needs 4 entries"),
        (json!({"type": "new_game", "variant": "chess", "engine_options": [["Hash", "4096"]]}).to_string(), "cannot be set from the page"),
        (json!({"type": "new_game", "variant": "chess", "clock": {"base_ms": 0, "inc_ms": 0}}).to_string(), "needs some time"),
        (json!({"type": "explain", "from": "e9", "to": "e4"}).to_string(), "no cell 'e9'"),
        (json!({"type": "show", "ply": 5}).to_string(), "not 5"),
        (json!({"type": "draw_answer", "accept": true}).to_string(), "no draw offer"),
        (json!({"type": "takeback"}).to_string(), "no move to take back"),
        (json!({"type": "compose", "variant": "chess", "fen": "8/8 w"}).to_string(), "FEN has 2 ranks"),
        (json!({"type": "compose", "variant": "chess", "fen": fen, "pieces": [[0, 7, 0]]}).to_string(), "has no piece of colour 7"),
        (json!({"type": "compose", "variant": "chess", "fen": fen, "pieces": [[0, 0, 200]]}).to_string(), "has no piece of colour 0 and kind 200"),
        (json!({"type": "compose", "variant": "chess", "fen": fen, "pieces": [[9999, 0, 0]]}).to_string(), "has no cell 9999"),
        (json!({"type": "view_game", "index": 0}).to_string(), "there is no game 0"),
        (json!({"type": "load_pgn", "pgn": ""}).to_string(), "holds no game"),
    ] {
        ws.send(Message::Text(bad.clone().into())).await.unwrap();
        let e = next_of(&mut ws, "error").await;
        assert!(e["message"].as_str().unwrap().contains(says), "{bad}: {e}");
    }
    // Nothing changed: the same game, still at its start.
    send(&mut ws, json!({"type": "show", "ply": 0})).await;
    let p = next_of(&mut ws, "position").await;
    assert_eq!(p["fen"], fen);
    send(&mut ws, json!({"type": "move", "move": "e2e4"})).await;
    let s = state_where(&mut ws, |s| s["moves"].as_array().unwrap().len() == 1).await;
    assert_eq!(moves(&s), ["e2e4"]);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_token_the_origin_and_the_host_are_checked() {
    let server = Server::start(&[]);
    let origin = format!("http://{}", server.host());
    assert_eq!(
        connect_with(&server, "wrong", Some(&origin), None)
            .await
            .err(),
        Some(403)
    );
    assert_eq!(
        connect_with(&server, &server.token(), Some("http://evil.example"), None)
            .await
            .err(),
        Some(403)
    );
    assert_eq!(
        connect_with(&server, &server.token(), None, None)
            .await
            .err(),
        Some(403),
        "a WebSocket needs an Origin"
    );
    let port = server.host().rsplit(':').next().unwrap().to_string();
    let rebound = format!("rebind.example:{port}");
    assert_eq!(
        connect_with(
            &server,
            &server.token(),
            Some(&format!("http://{rebound}")),
            Some(&rebound)
        )
        .await
        .err(),
        Some(403),
        "a DNS name other than localhost is refused"
    );
    assert!(
        connect_with(&server, &server.token(), Some(&origin), None)
            .await
            .is_ok()
    );
    // Plain HTTP: the page needs the token too.
    let get = |path: &str| {
        let host = server.host();
        let path = path.to_string();
        async move {
            let mut s = tokio::net::TcpStream::connect(&host).await.unwrap();
            use tokio::io::{AsyncReadExt, AsyncWriteExt};
            s.write_all(
                format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n")
                    .as_bytes(),
            )
            .await
            .unwrap();
            let mut out = String::new();
            s.read_to_string(&mut out).await.unwrap();
            out
        }
    };
    assert!(get("/").await.starts_with("HTTP/1.1 403"));
    assert!(get("/js/app.js?token=x").await.starts_with("HTTP/1.1 403"));
    let ok = get(&format!("/?token={}", server.token())).await;
    assert!(ok.starts_with("HTTP/1.1 200"), "{ok}");
    assert!(ok.contains("set-cookie: strata_token="), "{ok}");
    assert!(
        get(&format!("/nothing?token={}", server.token()))
            .await
            .starts_with("HTTP/1.1 404")
    );
}

/// A fake engine: strata behind a filter that exits at its `nth` `go` (a crash), writing
/// its process id to `pid_file` first.
fn fake_engine(dir: &std::path::Path, nth: u32, pid_file: &std::path::Path) -> String {
    let path = dir.join(format!("crashing-engine-{nth}.sh"));
    let script = format!(
        "#!/usr/bin/env bash\n\
         echo $$ > '{pid}'\n\
         n=0\n\
         while IFS= read -r line; do\n\
         \x20 case \"$line\" in go*) n=$((n+1)); if [ \"$n\" -ge {nth} ]; then exit 3; fi ;; esac\n\
         \x20 printf '%s\\n' \"$line\"\n\
         done | '{strata}'\n",
        pid = pid_file.display(),
        strata = common::browser::strata_bin().display(),
    );
    common::write_script(&path, &script);
    path.to_string_lossy().to_string()
}

fn scratch(name: &str) -> std::path::PathBuf {
    let d = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[tokio::test(flavor = "multi_thread")]
async fn an_engine_that_crashes_is_reported_and_restarted() {
    let dir = scratch("gui-crash");
    let engine = fake_engine(&dir, 2, &dir.join("pid"));
    let server = Server::start(&["--engine", &engine]);
    let mut ws = connect(&server).await;
    next_of(&mut ws, "hello").await;
    let s = new_game(
        &mut ws,
        json!({"variant": "chess", "seats": ["human", "engine"]}),
    )
    .await;
    assert_eq!(s["legal"].as_array().unwrap().len(), 20);
    send(&mut ws, json!({"type": "move", "move": "e2e4"})).await;
    let s = state_where(&mut ws, |s| s["moves"].as_array().unwrap().len() == 2).await;
    send(&mut ws, json!({"type": "move", "move": "d2d4"})).await;
    // Its second search kills it: the game ends, and the page is told.
    let st = next_of(&mut ws, "engine_status").await;
    assert!(st["message"].as_str().unwrap().contains("stopped"), "{st}");
    let s2 = state_where(&mut ws, |s| !s["result"].is_null()).await;
    assert_eq!(s2["result"]["termination"], "abandoned");
    assert_eq!(s2["result"]["result"], "1-0");
    let _ = s;
    // The next game has an engine again.
    let s = new_game(
        &mut ws,
        json!({"variant": "chess", "seats": ["engine", "human"]}),
    )
    .await;
    assert!(s["result"].is_null());
    let s = state_where(&mut ws, |s| s["moves"].as_array().unwrap().len() == 1).await;
    assert_eq!(s["to_move"], 1);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_closed_tab_ends_its_engine_and_tabs_have_games_of_their_own() {
    let dir = scratch("gui-tabs");
    let pid_file = dir.join("pid");
    let engine = fake_engine(&dir, 1000, &pid_file);
    let server = Server::start(&["--engine", &engine]);
    let mut a = connect(&server).await;
    next_of(&mut a, "hello").await;
    let pid: u32 = std::fs::read_to_string(&pid_file)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let proc_dir = std::path::PathBuf::from(format!("/proc/{pid}"));
    assert!(proc_dir.exists());
    let mut b = connect(&server).await;
    next_of(&mut b, "hello").await;
    new_game(
        &mut a,
        json!({"variant": "chess", "seats": ["human", "human"]}),
    )
    .await;
    new_game(
        &mut b,
        json!({"variant": "pentaplane", "seats": ["human", "human"]}),
    )
    .await;
    send(&mut a, json!({"type": "move", "move": "e2e4"})).await;
    let sa = state_where(&mut a, |s| s["moves"].as_array().unwrap().len() == 1).await;
    send(&mut b, json!({"type": "get_pgn"})).await;
    let pb = next_of(&mut b, "pgn").await;
    assert_eq!(sa["variant"], "chess");
    assert!(
        pb["pgn"]
            .as_str()
            .unwrap()
            .contains("[Variant \"pentaplane\"]")
    );
    assert!(!pb["pgn"].as_str().unwrap().contains("e2e4"));
    // Closing the first tab ends its engine process.
    a.close(None).await.unwrap();
    drop(a);
    let until = Instant::now() + Duration::from_secs(20);
    while proc_dir.exists() {
        assert!(
            Instant::now() < until,
            "the engine of a closed tab still runs"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // The other tab plays on.
    send(&mut b, json!({"type": "move", "move": "Cb2Cb3"})).await;
    let sb = state_where(&mut b, |s| s["moves"].as_array().unwrap().len() == 1).await;
    assert_eq!(moves(&sb), ["Cb2Cb3"]);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_persons_clock_runs_out() {
    let server = Server::start(&[]);
    let mut ws = connect(&server).await;
    next_of(&mut ws, "hello").await;
    // After each colour's first move (a colour's first move is not timed).
    let s = new_game(
        &mut ws,
        json!({"variant": "chess", "seats": ["human", "engine"], "moves": ["e2e4", "e7e5"], "clock": {"base_ms": 400, "inc_ms": 0}}),
    )
    .await;
    assert_eq!(s["clock_running"], 0);
    let s = state_where(&mut ws, |s| !s["result"].is_null()).await;
    assert_eq!(s["result"]["termination"], "time forfeit");
    assert_eq!(s["result"]["reason"], "White loses on time");
    assert_eq!(s["clocks"][0], 0);
    // A move after the flag fell is refused.
    send(&mut ws, json!({"type": "move", "move": "e2e4"})).await;
    assert!(
        next_of(&mut ws, "error").await["message"]
            .as_str()
            .unwrap()
            .contains("the game is over")
    );
}

/// Whether `pv` is a line of legal moves from `fen` in `variant`.
fn legal_line(variant: &str, fen: &str, pv: &[Value]) -> bool {
    use strata::rules::{AnyGame, Game, Variant};
    let mut g = AnyGame::from_fen(Variant::from_name(variant).unwrap(), fen).unwrap();
    pv.iter().all(|m| match g.parse_move(m.as_str().unwrap()) {
        Ok(mv) => {
            g.make(mv);
            true
        }
        Err(_) => false,
    })
}

/// Every line of `lines` is for `colour` and legal from the position of `state` (chess),
/// and comes with its moves in SAN.
fn assert_all_legal(lines: &[Value], state: &Value, colour: u8) {
    use strata::rules::{AnyGame, Variant, notation};
    let fen = state["fen"].as_str().unwrap();
    for l in lines {
        assert_eq!(l["colour"], colour, "{l}");
        let pv = l["pv"].as_array().unwrap();
        assert!(legal_line("chess", fen, pv), "{l}");
        let pv: Vec<String> = pv.iter().map(|m| m.as_str().unwrap().to_string()).collect();
        let g = AnyGame::from_fen(Variant::Chess, fen).unwrap();
        assert_eq!(l["san"], json!(notation::line(&g, &pv)), "{l}");
    }
}

/// Engine lines of the current search until every line 1..=n has reached `depth`.
async fn analysis_lines(ws: &mut Socket, n: u64, depth: u64) -> Vec<Value> {
    let mut best: Vec<Option<Value>> = vec![None; n as usize];
    while best
        .iter()
        .any(|l| l.as_ref().is_none_or(|l| l["depth"].as_u64() < Some(depth)))
    {
        let e = next(ws).await;
        assert_ne!(e["type"], "state", "no state while the position stays: {e}");
        if e["type"] != "engine" {
            continue;
        }
        let k = e["multipv"].as_u64().expect("analysis lines are numbered");
        assert!((1..=n).contains(&k), "{e}");
        best[k as usize - 1] = Some(e);
    }
    best.into_iter().flatten().collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn an_analysis_board_analyses_each_position_it_is_set_to() {
    let server = Server::start(&[]);
    let mut ws = connect(&server).await;
    next_of(&mut ws, "hello").await;
    // Analysis needs an analysis board.
    new_game(
        &mut ws,
        json!({"variant": "chess", "seats": ["human", "human"]}),
    )
    .await;
    send(&mut ws, json!({"type": "analyse", "on": true})).await;
    assert!(
        next_of(&mut ws, "error").await["message"]
            .as_str()
            .unwrap()
            .contains("analysis mode")
    );
    let s = new_game(
        &mut ws,
        json!({"variant": "chess", "mode": "analysis", "moves": ["e2e4"]}),
    )
    .await;
    assert_eq!(s["mode"], "analysis");
    assert_eq!(s["seats"], json!(["human", "human"]));
    assert_eq!(s["thinking"], false);
    send(
        &mut ws,
        json!({"type": "analyse", "on": true, "multipv": 3}),
    )
    .await;
    let s = state_where(&mut ws, |s| s["thinking"] == true).await;
    assert_eq!(s["multipv"], 3);
    let lines = analysis_lines(&mut ws, 3, 4).await;
    let firsts: std::collections::HashSet<_> = lines.iter().map(|l| l["pv"][0].clone()).collect();
    assert_eq!(firsts.len(), 3, "three different moves: {lines:?}");
    assert_all_legal(&lines, &s, 1);
    // Bad lines and bad numbers change nothing.
    for (bad, says) in [
        (
            json!({"type": "line", "moves": ["e2e4", "e2e4"]}),
            "move 2 of 2",
        ),
        (json!({"type": "line", "moves": ["e9e4"]}), "move 1 of 1"),
        (
            json!({"type": "analyse", "on": true, "multipv": 9}),
            "1 to 5",
        ),
        (json!({"type": "line"}), "bad message"),
    ] {
        send(&mut ws, bad.clone()).await;
        let e = next_of(&mut ws, "error").await;
        assert!(e["message"].as_str().unwrap().contains(says), "{bad}: {e}");
    }
    // A move, then a line set from the page's tree: each position is analysed anew.
    send(&mut ws, json!({"type": "move", "move": "c7c5"})).await;
    let s = state_where(&mut ws, |s| moves(s) == ["e2e4", "c7c5"]).await;
    assert_eq!(s["thinking"], true);
    assert_all_legal(&analysis_lines(&mut ws, 3, 3).await, &s, 0);
    send(
        &mut ws,
        json!({"type": "line", "moves": ["d2d4", "d7d5", "c2c4"]}),
    )
    .await;
    let s = state_where(&mut ws, |s| moves(s) == ["d2d4", "d7d5", "c2c4"]).await;
    send(
        &mut ws,
        json!({"type": "analyse", "on": true, "multipv": 1}),
    )
    .await;
    let s2 = state_where(&mut ws, |s| s["multipv"] == 1).await;
    assert_eq!(s2["fen"], s["fen"]);
    let lines = analysis_lines(&mut ws, 1, 3).await;
    assert!(lines.iter().all(|l| l["multipv"] == 1), "{lines:?}");
    assert_all_legal(&lines, &s, 1);
    // Stopped: no more lines.
    send(&mut ws, json!({"type": "analyse", "on": false})).await;
    let s = state_where(&mut ws, |s| s["thinking"] == false).await;
    assert_eq!(moves(&s), ["d2d4", "d7d5", "c2c4"]);
    send(&mut ws, json!({"type": "get_pgn"})).await;
    loop {
        let m = next(&mut ws).await;
        assert_ne!(
            m["type"], "engine",
            "a line after the analysis stopped: {m}"
        );
        if m["type"] == "pgn" {
            break;
        }
    }
}

/// The next reply to a message that changes the game: a `state` or an `error` (engine
/// lines and news are skipped).
async fn reply(ws: &mut Socket) -> Value {
    loop {
        let m = next(ws).await;
        if m["type"] == "state" || m["type"] == "error" {
            return m;
        }
    }
}

/// The message of the `error` that `msg` must get (not a `state`: nothing may change).
async fn refused(ws: &mut Socket, msg: Value) -> String {
    send(ws, msg.clone()).await;
    let r = reply(ws).await;
    assert_eq!(r["type"], "error", "{msg} was accepted: {r}");
    r["message"].as_str().unwrap().to_string()
}

/// The game's PGN as the server writes it now.
async fn pgn_now(ws: &mut Socket) -> String {
    send(ws, json!({"type": "get_pgn"})).await;
    next_of(ws, "pgn").await["pgn"]
        .as_str()
        .unwrap()
        .to_string()
}

/// Issue 70, finding 1: an engine option value holding a line break went into `setoption`
/// as it was, and its second line (`setoption name Debug Log File value PATH`) made the
/// engine truncate PATH. Values are now checked against the option's declared type and
/// range before anything reaches the engine, and refused with an error; the game goes on.
#[tokio::test(flavor = "multi_thread")]
async fn engine_options_are_checked_against_their_declarations() {
    let dir = scratch("gui-options");
    let kept = dir.join("kept.txt");
    std::fs::write(&kept, "known content\n").unwrap();
    let never = dir.join("never-created.log");
    let server = Server::start(&[]);
    let mut ws = connect(&server).await;
    let hello = next_of(&mut ws, "hello").await;
    // The range strata declares for UCI_Elo, as the page is told it.
    let elo = hello["engine"]["options"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o[0] == "UCI_Elo")
        .expect("strata declares UCI_Elo")[1]
        .as_str()
        .unwrap()
        .to_string();
    let word = |w: &str| {
        let t: Vec<&str> = elo.split_whitespace().collect();
        t[t.iter().position(|&x| x == w).unwrap() + 1].to_string()
    };
    let range = format!("an integer from {} to {}", word("min"), word("max"));
    new_game(
        &mut ws,
        json!({"variant": "chess", "seats": ["human", "engine"]}),
    )
    .await;
    for path in [&kept, &never] {
        let value = format!(
            "1500\nsetoption name Debug Log File value {}",
            path.display()
        );
        let e = refused(
            &mut ws,
            json!({"type": "new_game", "variant": "chess", "seats": ["human", "engine"],
                   "engine_options": [["UCI_LimitStrength", "true"], ["UCI_Elo", value]]}),
        )
        .await;
        assert!(
            e.contains("option 'UCI_Elo' holds a line break") && e.contains(&range),
            "{e}"
        );
    }
    for (name, value, says) in [
        (
            "UCI_Elo",
            "99999".to_string(),
            format!("takes {range}, not '99999'"),
        ),
        (
            "UCI_Elo",
            "strong".into(),
            format!("takes {range}, not 'strong'"),
        ),
        (
            "UCI_LimitStrength",
            "yes".into(),
            "takes true or false".into(),
        ),
        (
            "Skill Level",
            "-1".into(),
            "takes an integer from 0 to".into(),
        ),
        ("Hash", "60000".into(), "cannot be set from the page".into()),
        (
            "Debug Log File",
            never.display().to_string(),
            "cannot be set from the page".into(),
        ),
    ] {
        let e = refused(
            &mut ws,
            json!({"type": "new_game", "variant": "chess", "engine_options": [[name, value]]}),
        )
        .await;
        assert!(e.contains(&says), "{name} {value}: {e}");
    }
    // The game goes on: a move, and the engine's reply (so that anything the engine was
    // sent has been read by it).
    send(&mut ws, json!({"type": "move", "move": "e2e4"})).await;
    let s = state_where(&mut ws, |s| s["moves"].as_array().unwrap().len() == 2).await;
    assert_eq!(moves(&s)[0], "e2e4");
    assert_eq!(s["moves"][0]["san"], "e4");
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), "known content\n");
    assert!(!never.exists(), "the engine wrote {}", never.display());
    // A value within range is taken, and names the engine's seat.
    let s = new_game(
        &mut ws,
        json!({"variant": "chess", "seats": ["human", "engine"],
               "engine_options": [["UCI_LimitStrength", "true"], ["UCI_Elo", "1600"]]}),
    )
    .await;
    assert!(
        s["names"][1].as_str().unwrap().ends_with("(Elo 1600)"),
        "{s}"
    );
}

/// Issue 70, finding 2: a FEN whose fields were separated by line breaks was accepted, and
/// the engine got another line than the game's. Every string a message carries (a FEN, a
/// move, a cell, the tags and moves of a PGN) is refused when it holds a control character,
/// and the game stays as it was.
#[tokio::test(flavor = "multi_thread")]
async fn control_characters_in_any_field_are_refused() {
    let server = Server::start(&[]);
    let mut ws = connect(&server).await;
    next_of(&mut ws, "hello").await;
    new_game(
        &mut ws,
        json!({"variant": "chess", "seats": ["human", "engine"]}),
    )
    .await;
    send(&mut ws, json!({"type": "move", "move": "e2e4"})).await;
    let before = state_where(&mut ws, |s| s["moves"].as_array().unwrap().len() == 2).await;
    let pgn_before = pgn_now(&mut ws).await;
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let pgn_with = |fen: &str| format!("[Variant \"chess\"]\n[FEN \"{fen}\"]\n\n1. e2e4 *\n");
    for (bad, says) in [
        (
            json!({"type": "new_game", "variant": "chess", "seats": ["human", "engine"],
                   "fen": start.replace(' ', "\n")}),
            "the FEN holds a line break (U+000A) at character 43",
        ),
        (
            json!({"type": "new_game", "variant": "chess", "fen": start.replace(' ', "\t")}),
            "the FEN holds a control character",
        ),
        (
            json!({"type": "new_game", "variant": "chess", "moves": ["e2e4", "e7e5\rquit"]}),
            "move 2 of 2 holds a line break",
        ),
        (
            json!({"type": "new_game", "variant": "chess\n", "moves": []}),
            "the variant's name holds a line break",
        ),
        (
            json!({"type": "new_game", "variant": "chess", "pgn": pgn_with(&start.replace(' ', "\t"))}),
            "pgn: the FEN tag holds a control character",
        ),
        (
            json!({"type": "new_game", "variant": "chess", "pgn": "[Variant \"chess\"]\n\n1. e2e4\u{1b}[31m *\n"}),
            "pgn: move 1 of 1 holds a control character",
        ),
        (
            json!({"type": "move", "move": "d2d4\nquit"}),
            "the move holds a line break",
        ),
        (
            json!({"type": "compose", "variant": "chess", "fen": start.replace(' ', "\n")}),
            "the FEN holds a line break",
        ),
        (
            json!({"type": "compose", "variant": "chess\u{85}", "fen": start}),
            "the variant's name holds a line break",
        ),
    ] {
        let e = refused(&mut ws, bad.clone()).await;
        assert!(e.contains(says), "{bad}: {e}");
    }
    send(
        &mut ws,
        json!({"type": "explain", "from": "g1\n", "to": "g4"}),
    )
    .await;
    let e = next_of(&mut ws, "error").await;
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("holds a line break"),
        "{e}"
    );
    // A PGN game whose FEN tag holds one is listed as one that cannot be shown, and is not
    // opened.
    let two = format!(
        "{}\n{}",
        pgn_with(start),
        pgn_with(&start.replace(' ', "\n"))
    );
    send(&mut ws, json!({"type": "load_pgn", "pgn": two})).await;
    let games = next_of(&mut ws, "games").await;
    assert!(games["games"][0]["error"].is_null(), "{games}");
    // (The reader ends a tag at its line's end, so the FEN tag is cut there and the FEN
    // reader refuses what is left of it.)
    let why = games["games"][1]["error"].as_str().unwrap();
    assert!(why.contains("FEN"), "{why}");
    let e = refused(&mut ws, json!({"type": "view_game", "index": 1})).await;
    assert!(e.contains("FEN"), "{e}");
    // The game is the one before, and goes on.
    assert_eq!(pgn_now(&mut ws).await, pgn_before);
    send(&mut ws, json!({"type": "move", "move": "d2d4"})).await;
    let s = state_where(&mut ws, |s| s["moves"].as_array().unwrap().len() == 4).await;
    assert_eq!(s["game"], before["game"]);
    assert_eq!(moves(&s)[..2], moves(&before)[..]);
    // An analysis board's line too.
    new_game(&mut ws, json!({"variant": "chess", "mode": "analysis"})).await;
    let e = refused(
        &mut ws,
        json!({"type": "line", "moves": ["e2e4", "e7e5\u{0}"]}),
    )
    .await;
    assert!(e.contains("move 2 of 2 holds a control character"), "{e}");
}

/// As on lichess, no clock runs before the first moves: a colour's clock starts after its own
/// first move, which is not charged (nor given the increment). Four colours: each its own.
#[tokio::test(flavor = "multi_thread")]
async fn no_clock_runs_before_a_colours_first_move() {
    let server = Server::start(&[]);
    let mut ws = connect(&server).await;
    next_of(&mut ws, "hello").await;
    let clock = json!({"base_ms": 60000, "inc_ms": 1000});
    let s = new_game(
        &mut ws,
        json!({"variant": "chess", "seats": ["human", "engine"], "clock": clock}),
    )
    .await;
    assert!(s["clock_running"].is_null(), "{s}");
    // A person's clock does not run out before the first move.
    tokio::time::sleep(Duration::from_millis(600)).await;
    send(&mut ws, json!({"type": "move", "move": "e2e4"})).await;
    let s = state_where(&mut ws, |s| moves(s).len() == 1).await;
    assert_eq!(
        s["clocks"][0], 60000,
        "White's first move is not timed: {s}"
    );
    // Black's (the engine's) first move is not timed either; then White's clock runs.
    let s = state_where(&mut ws, |s| moves(s).len() == 2).await;
    assert_eq!(s["clocks"][1], 60000, "{s}");
    assert_eq!(s["clock_running"], 0, "{s}");
    tokio::time::sleep(Duration::from_millis(300)).await;
    send(&mut ws, json!({"type": "move", "move": "g1f3"})).await;
    let s = state_where(&mut ws, |s| moves(s).len() == 3).await;
    let white = s["clocks"][0].as_i64().unwrap();
    assert!(
        white < 61000 && white > 50000,
        "White's second move is timed, with the increment: {s}"
    );
    // Four colours: each colour's clock starts after its own first move.
    let s = new_game(
        &mut ws,
        json!({"variant": "future-generation", "seats": ["human", "human", "human", "human"], "clock": clock}),
    )
    .await;
    assert!(s["clock_running"].is_null(), "{s}");
    let mut s = s;
    for played in 1..=4 {
        let mv = s["legal"][0]["move"]
            .as_str()
            .expect("a legal move")
            .to_string();
        send(&mut ws, json!({"type": "move", "move": mv})).await;
        s = state_where(&mut ws, |s| moves(s).len() == played).await;
        if played < 4 {
            assert!(s["clock_running"].is_null(), "after {played} moves: {s}");
        } else {
            assert_eq!(s["clock_running"], 0, "White has moved: {s}");
        }
        for c in 0..4 {
            assert_eq!(s["clocks"][c], 60000, "after {played} moves: {s}");
        }
    }
}

/// Issue 71 (the tryout): a game that ends between moves, by a resignation or a draw agreed,
/// charges the colour to move the time its turn has taken: the clock stops where it was
/// running, and does not go back up to where the turn began (0:43 became 0:57 on Resign,
/// 4:58 became 5:00 on a draw).
#[tokio::test(flavor = "multi_thread")]
async fn a_game_ended_between_moves_charges_the_running_clock() {
    let server = Server::start(&[]);
    let mut ws = connect(&server).await;
    next_of(&mut ws, "hello").await;
    let clock = json!({"base_ms": 60000, "inc_ms": 0});
    let seats = json!(["human", "human"]);
    // White's clock runs after e2e4 e7e5; White thinks 1.2 s and resigns.
    let s = new_game(
        &mut ws,
        json!({"variant": "chess", "seats": seats, "clock": clock, "moves": ["e2e4", "e7e5"]}),
    )
    .await;
    assert_eq!(s["clock_running"], 0, "{s}");
    assert_eq!(s["clocks"][0], 60000, "{s}");
    tokio::time::sleep(Duration::from_millis(1200)).await;
    send(&mut ws, json!({"type": "resign"})).await;
    let s = state_where(&mut ws, |s| !s["result"].is_null()).await;
    assert_eq!(s["result"]["result"], "0-1", "{s}");
    assert!(s["clock_running"].is_null(), "{s}");
    let white = s["clocks"][0].as_i64().unwrap();
    assert!(
        (50000..=58800).contains(&white),
        "White's clock after 1.2 s of its turn and a resignation: {white} ms"
    );
    assert_eq!(s["clocks"][1], 60000, "Black's clock did not run: {s}");
    // A draw offered by White during its turn and accepted 1.2 s later by Black.
    let s = new_game(
        &mut ws,
        json!({"variant": "chess", "seats": seats, "clock": clock, "moves": ["e2e4", "e7e5"]}),
    )
    .await;
    assert_eq!(s["clock_running"], 0, "{s}");
    send(&mut ws, json!({"type": "draw_offer"})).await;
    let s = state_where(&mut ws, |s| !s["draw_offer"].is_null()).await;
    let offered = s["clocks"][0].as_i64().unwrap();
    tokio::time::sleep(Duration::from_millis(1200)).await;
    send(&mut ws, json!({"type": "draw_answer", "accept": true})).await;
    let s = state_where(&mut ws, |s| !s["result"].is_null()).await;
    assert_eq!(s["result"]["result"], "1/2-1/2", "{s}");
    let white = s["clocks"][0].as_i64().unwrap();
    assert!(
        white <= offered - 1200 && white >= 50000,
        "White's clock: {offered} ms at the offer, {white} ms when the draw was agreed 1.2 s later"
    );
    assert_eq!(s["clocks"][1], 60000, "{s}");
}

/// Issue 70, finding 10: `base_ms` of 2^63 became a negative clock that lost on time at
/// once. Every clock and engine limit of `new_game` is bounded, and refused beyond.
#[tokio::test(flavor = "multi_thread")]
async fn clocks_and_engine_limits_are_bounded() {
    let server = Server::start(&[]);
    let mut ws = connect(&server).await;
    next_of(&mut ws, "hello").await;
    let game = |extra: Value| {
        let mut m = json!({"type": "new_game", "variant": "chess", "seats": ["human", "engine"]});
        for (k, v) in extra.as_object().unwrap() {
            m[k] = v.clone();
        }
        m
    };
    for (extra, says) in [
        (
            json!({"clock": {"base_ms": 9223372036854775808u64, "inc_ms": 0}}),
            "clock.base_ms 9223372036854775808 is more than the 86400000 ms (24 hours) accepted",
        ),
        (
            json!({"clock": {"base_ms": 60000, "inc_ms": 9223372036854775808u64}}),
            "clock.inc_ms 9223372036854775808 is more than the 3600000 ms (1 hour) accepted",
        ),
        (
            json!({"engine_limit": {"nodes": 100000000000u64}}),
            "engine_limit.nodes must be 1 to 10000000000, not 100000000000",
        ),
        (
            json!({"engine_limit": {"depth": 1000}}),
            "engine_limit.depth must be 1 to 255, not 1000",
        ),
        (
            json!({"engine_limit": {"movetime_ms": 18446744073709551615u64}}),
            "engine_limit.movetime_ms must be 1 to 3600000 (1 hour)",
        ),
        (
            json!({"engine_limit": {"nodes": 0}}),
            "engine_limit.nodes must be 1 to",
        ),
    ] {
        let e = refused(&mut ws, game(extra.clone())).await;
        assert!(e.contains(says), "{extra}: {e}");
    }
    // At the bounds: a game whose clocks run, lost by nobody.
    send(
        &mut ws,
        game(json!({"clock": {"base_ms": 86400000u64, "inc_ms": 3600000u64}})),
    )
    .await;
    let s = reply(&mut ws).await;
    assert_eq!(s["type"], "state", "{s}");
    assert!(s["result"].is_null(), "{s}");
    assert!(s["clocks"][0].as_i64().unwrap() > 86_000_000, "{s}");
}

/// The lists a message may carry are bounded: moves of `new_game` and `line`, games of a
/// PGN.
#[tokio::test(flavor = "multi_thread")]
async fn long_move_lists_and_pgns_are_refused() {
    let server = Server::start(&[]);
    let mut ws = connect(&server).await;
    next_of(&mut ws, "hello").await;
    let s = new_game(&mut ws, json!({"variant": "chess", "mode": "analysis"})).await;
    let long: Vec<&str> = ["g1f3", "g8f6", "f3g1", "f6g8"]
        .iter()
        .cycle()
        .take(5001)
        .copied()
        .collect();
    let e = refused(
        &mut ws,
        json!({"type": "new_game", "variant": "chess", "moves": long}),
    )
    .await;
    assert!(e.contains("5001 moves are too many: at most 5000"), "{e}");
    let e = refused(&mut ws, json!({"type": "line", "moves": long})).await;
    assert!(e.contains("5001 moves are too many: at most 5000"), "{e}");
    let many = "[Variant \"chess\"]\n\n1. e2e4 *\n\n".repeat(5001);
    send(&mut ws, json!({"type": "load_pgn", "pgn": many})).await;
    let e = next_of(&mut ws, "error").await;
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("holds more than 5000 games"),
        "{e}"
    );
    // Within the bounds, all is well; the board is the one before.
    let few = "[Variant \"chess\"]\n\n1. e2e4 *\n\n".repeat(5000);
    send(&mut ws, json!({"type": "load_pgn", "pgn": few})).await;
    assert_eq!(
        next_of(&mut ws, "games").await["games"]
            .as_array()
            .unwrap()
            .len(),
        5000
    );
    send(&mut ws, json!({"type": "show", "ply": 0})).await;
    assert_eq!(next_of(&mut ws, "position").await["fen"], s["fen"]);
    // A message past 4 MiB is refused, and the game goes on.
    let game = "[Variant \"chess\"]\n\n1. e2e4 *\n\n";
    let huge = game.repeat(4 * 1024 * 1024 / game.len() + 1);
    send(&mut ws, json!({"type": "load_pgn", "pgn": huge})).await;
    let e = next_of(&mut ws, "error").await;
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("too large: at most 4194304 bytes"),
        "{e}"
    );
    send(&mut ws, json!({"type": "show", "ply": 0})).await;
    assert_eq!(next_of(&mut ws, "position").await["fen"], s["fen"]);
    // Past 8 MiB the socket does not read it, and the connection ends.
    let _ = ws
        .send(Message::Text("x".repeat(8 * 1024 * 1024 + 1).into()))
        .await;
    until_closed(&mut ws).await;
}

/// Frames until the server closes the socket (within a generous time); the text ones.
async fn until_closed(ws: &mut Socket) -> Vec<Value> {
    let mut texts = Vec::new();
    loop {
        match tokio::time::timeout(Duration::from_secs(30), ws.next())
            .await
            .expect("the server closes the socket")
        {
            None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return texts,
            Some(Ok(Message::Text(t))) => texts.push(serde_json::from_str(&t).unwrap()),
            Some(Ok(_)) => {}
        }
    }
}

/// At most `--max-sessions` sessions (each with its engine process) run at once: a
/// WebSocket beyond them is told so in an `error` and closed; a closed tab frees its place.
#[tokio::test(flavor = "multi_thread")]
async fn sessions_are_limited() {
    let server = Server::start(&["--max-sessions", "2"]);
    let mut a = connect(&server).await;
    next_of(&mut a, "hello").await;
    let mut b = connect(&server).await;
    next_of(&mut b, "hello").await;
    let mut c = connect(&server).await;
    let said = until_closed(&mut c).await;
    assert_eq!(said.len(), 1, "{said:?}");
    assert_eq!(said[0]["type"], "error");
    let m = said[0]["message"].as_str().unwrap();
    assert!(
        m.contains("already runs 2 game sessions") && m.contains("--max-sessions"),
        "{m}"
    );
    // The two sessions play on.
    new_game(
        &mut b,
        json!({"variant": "chess", "seats": ["human", "human"]}),
    )
    .await;
    // Closing one frees its place once its engine has ended.
    a.close(None).await.unwrap();
    drop(a);
    let until = Instant::now() + Duration::from_secs(30);
    loop {
        let mut d = connect(&server).await;
        let first = next(&mut d).await;
        if first["type"] == "hello" {
            break;
        }
        assert_eq!(first["type"], "error", "{first}");
        assert!(
            Instant::now() < until,
            "the closed session's place is not freed"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// A fake engine: strata behind a filter that takes 50 ms over every `go`, so that
/// requests pile up behind a search.
fn slow_engine(dir: &std::path::Path) -> String {
    let path = dir.join("slow-engine.sh");
    let script = format!(
        "#!/usr/bin/env bash\n\
         while IFS= read -r line; do\n\
         \x20 case \"$line\" in go*) sleep 0.05 ;; esac\n\
         \x20 printf '%s\\n' \"$line\"\n\
         done | '{strata}'\n",
        strata = common::browser::strata_bin().display(),
    );
    common::write_script(&path, &script);
    path.to_string_lossy().to_string()
}

/// A page that turns analysis on and off 5000 times cannot queue thousands of searches:
/// the server stays responsive, and the analysis asked for next starts at once instead of
/// after every search before it.
#[tokio::test(flavor = "multi_thread")]
async fn a_flood_of_analysis_toggles_leaves_the_server_responsive() {
    let dir = scratch("gui-flood");
    let server = Server::start(&["--engine", &slow_engine(&dir)]);
    let mut ws = connect(&server).await;
    next_of(&mut ws, "hello").await;
    new_game(
        &mut ws,
        json!({"variant": "chess", "mode": "analysis", "moves": ["e2e4"]}),
    )
    .await;
    // In batches (each message gets one reply), so that neither side's buffers fill.
    let mut busy = 0;
    for batch in 0..50 {
        for i in 0..100 {
            let on = (batch * 100 + i) % 2 == 0;
            send(&mut ws, json!({"type": "analyse", "on": on})).await;
        }
        for _ in 0..100 {
            let r = reply(&mut ws).await;
            if r["type"] == "error" {
                assert!(r["message"].as_str().unwrap().contains("busy"), "{r}");
                busy += 1;
            }
        }
    }
    eprintln!("{busy} of 5000 toggles were refused while the engine was busy");
    // Responsive: answered at once.
    let asked = Instant::now();
    pgn_now(&mut ws).await;
    assert!(asked.elapsed() < Duration::from_secs(30));
    // The analysis asked for now starts without the searches before it (each taking 50 ms
    // or more, 2500 of them would take minutes): its lines come within a minute.
    send(&mut ws, json!({"type": "analyse", "on": false})).await;
    loop {
        send(&mut ws, json!({"type": "analyse", "on": true})).await;
        let r = reply(&mut ws).await;
        if r["type"] == "state" && r["thinking"] == true {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let e = next_of(&mut ws, "engine").await;
    assert_eq!(e["colour"], 1, "{e}");
}

/// Found by the attack on issue 70: connections that never sent a request (with or without
/// the token) were kept open for good, so a few thousand of them took every file descriptor
/// and locked the token holder out. Now a connection must send its request's headers within
/// 10 s, and at most 64 are served at once.
#[tokio::test(flavor = "multi_thread")]
async fn idle_connections_are_closed_and_bounded() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let server = Server::start(&[]);
    let addr = server.host();
    let mut idle = Vec::new();
    for i in 0..80 {
        let mut c = tokio::net::TcpStream::connect(&addr).await.unwrap();
        if i % 2 == 0 {
            // Half of them start a request and never end its headers.
            c.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n").await.unwrap();
        }
        idle.push(c);
    }
    // Every one is closed by the server (a read ends), those beyond the cap at once.
    let started = Instant::now();
    for mut c in idle {
        let mut buf = [0u8; 256];
        let ended = tokio::time::timeout(Duration::from_secs(60), async {
            loop {
                match c.read(&mut buf).await {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
            }
        })
        .await;
        assert!(
            ended.is_ok(),
            "an idle connection was still open after 60 s"
        );
    }
    eprintln!("80 idle connections closed within {:?}", started.elapsed());
    // The token holder is served afterwards.
    let origin = format!("http://{addr}");
    assert!(
        connect_with(&server, &server.token(), Some(&origin), None)
            .await
            .is_ok()
    );
}
