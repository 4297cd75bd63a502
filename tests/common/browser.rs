//! The browser harness of the GUI tests: the built `strata gui`, Debian's headless Chromium
//! driven through its ChromeDriver (WebDriver), and helpers that act as a person does
//! (clicking cells, reading the move list).
//!
//! Without Chromium and ChromeDriver the tests skip, saying why, unless `CI=true`, where they
//! fail. `STRATA_CHROMIUM` and `STRATA_CHROMEDRIVER` override the programs' paths, and
//! `STRATA_BIN` the `strata` served (by default the one cargo built for the tests; where
//! several checkouts share one target directory, their `target/debug/strata` is whichever
//! was built last).

#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use std::time::{Duration, Instant};

use fantoccini::elements::Element;
use fantoccini::{Client, ClientBuilder, Locator};

/// One browser at a time: the machine running the suite may have two cores.
pub static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// How long the page may take to show something.
pub const PATIENCE: Duration = Duration::from_secs(40);

fn program(env: &str, default: &str) -> Option<PathBuf> {
    let p = std::env::var_os(env)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(default));
    p.exists().then_some(p)
}

/// Chromium and ChromeDriver, or why they cannot be had (then the caller skips, or fails on
/// CI).
pub fn programs() -> Result<(PathBuf, PathBuf), String> {
    let chromium = program("STRATA_CHROMIUM", "/usr/bin/chromium");
    let driver = program("STRATA_CHROMEDRIVER", "/usr/bin/chromedriver");
    match (chromium, driver) {
        (Some(c), Some(d)) => Ok((c, d)),
        _ => Err("Chromium and ChromeDriver are not installed (Debian: apt-get install chromium chromium-driver)".into()),
    }
}

/// Whether to run the browser tests: yes with Chromium; without it, a failure on CI and a
/// printed reason elsewhere.
pub fn available() -> Option<(PathBuf, PathBuf)> {
    match programs() {
        Ok(p) => Some(p),
        Err(why) if std::env::var("CI").as_deref() == Ok("true") => {
            panic!("CI=true and the browser tests cannot run: {why}")
        }
        Err(why) => {
            eprintln!("skipping the browser tests: {why}");
            None
        }
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// The `strata` binary the tests run: `STRATA_BIN`, else the one cargo built.
pub fn strata_bin() -> PathBuf {
    std::env::var_os("STRATA_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_strata")))
}

/// A running `strata gui`, ended on drop.
pub struct Server {
    child: Child,
    /// The URL it printed, with its token.
    pub url: String,
}

impl Server {
    /// Starts `strata gui` with `args`.
    pub fn start(args: &[&str]) -> Server {
        let mut child = Command::new(strata_bin())
            .arg("gui")
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("strata gui starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut line)
            .expect("the URL line");
        let url = line.trim().to_string();
        assert!(
            url.starts_with("http://127.0.0.1:") && url.contains("/?token="),
            "{url}"
        );
        Server { child, url }
    }

    /// `host:port`.
    pub fn host(&self) -> String {
        self.url
            .trim_start_matches("http://")
            .split('/')
            .next()
            .unwrap_or("")
            .to_string()
    }

    /// The token.
    pub fn token(&self) -> String {
        self.url.split("token=").nth(1).unwrap_or("").to_string()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A headless Chromium under ChromeDriver, and the server it talks to.
pub struct Browser {
    driver: Child,
    /// ChromeDriver's port (for the Chrome DevTools commands it forwards).
    driver_port: u16,
    /// Chromium's profile directory, removed when the browser is dropped.
    profile: PathBuf,
    pub client: Client,
    pub server: Server,
}

impl Browser {
    /// Starts ChromeDriver, a headless Chromium of `width` x `height` and `strata gui`.
    pub async fn start(chromium: &Path, chromedriver: &Path, width: u32, height: u32) -> Browser {
        Self::start_with(chromium, chromedriver, width, height, &[]).await
    }

    /// [`Browser::start`] with `strata gui` given `args`.
    pub async fn start_with(
        chromium: &Path,
        chromedriver: &Path,
        width: u32,
        height: u32,
        args: &[&str],
    ) -> Browser {
        Self::start_as(chromium, chromedriver, width, height, args, false).await
    }

    /// [`Browser::start_with`], as a phone when `phone`: ChromeDriver's mobile emulation, a
    /// touch screen of `width` x `height` CSS pixels at two device pixels each.
    pub async fn start_as(
        chromium: &Path,
        chromedriver: &Path,
        width: u32,
        height: u32,
        args: &[&str],
        phone: bool,
    ) -> Browser {
        let port = free_port();
        let driver = Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let until = Instant::now() + Duration::from_secs(20);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < until, "chromedriver does not listen");
            std::thread::sleep(Duration::from_millis(50));
        }
        let profile = std::env::temp_dir().join(format!("strata-chromium-{port}"));
        let mut caps = serde_json::json!({
            "goog:chromeOptions": {
                "binary": chromium.to_string_lossy(),
                "args": [
                    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--disable-background-networking", "--disable-component-update", "--no-first-run",
                    "--disable-sync", "--disable-quic", "--disable-extensions",
                    // WebGL for the 3D view, in software (there is no GPU).
                    "--enable-unsafe-swiftshader",
                    format!("--window-size={width},{height}"),
                    format!("--user-data-dir={}", profile.display()),
                ]
            }
        });
        if phone {
            caps["goog:chromeOptions"]["mobileEmulation"] = serde_json::json!({
                "deviceMetrics": {"width": width, "height": height, "pixelRatio": 2.0, "touch": true, "mobile": true}
            });
        }
        let client = ClientBuilder::native()
            .capabilities(caps.as_object().expect("an object").clone())
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
            .expect("a WebDriver session");
        let server = Server::start(args);
        Browser {
            driver,
            driver_port: port,
            profile,
            client,
            server,
        }
    }

    /// Runs the Chrome DevTools Protocol command `cmd` with `params` (through ChromeDriver's
    /// `goog/cdp/execute`); returns its result.
    pub async fn cdp(&self, cmd: &str, params: serde_json::Value) -> serde_json::Value {
        use std::io::{Read, Write};
        let session = self
            .client
            .session_id()
            .await
            .expect("a session")
            .expect("a session id");
        let body = serde_json::json!({"cmd": cmd, "params": params}).to_string();
        let port = self.driver_port;
        let answer = tokio::task::spawn_blocking(move || {
            let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).expect("chromedriver");
            s.set_read_timeout(Some(PATIENCE)).expect("a timeout");
            write!(
                s,
                "POST /session/{session}/goog/cdp/execute HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\
                 Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
                body.len()
            )
            .expect("send");
            // The head, then as many bytes as its Content-Length says (ChromeDriver keeps
            // the connection open).
            let mut reader = BufReader::new(s);
            let mut length = 0;
            loop {
                let mut line = String::new();
                reader.read_line(&mut line).expect("a header");
                if line.trim().is_empty() {
                    break;
                }
                if let Some((k, v)) = line.split_once(':')
                    && k.eq_ignore_ascii_case("content-length")
                {
                    length = v.trim().parse().expect("a length");
                }
            }
            let mut out = vec![0; length];
            reader.read_exact(&mut out).expect("the body");
            String::from_utf8(out).expect("UTF-8")
        })
        .await
        .expect("the request");
        let v: serde_json::Value = serde_json::from_str(answer.trim())
            .unwrap_or_else(|e| panic!("{cmd}: not JSON ({e}): {answer}"));
        v["value"].clone()
    }

    /// The CPU time (user and system, in seconds) used so far by this browser's Chromium
    /// processes (those of its profile), read from Linux's `/proc`; 0 elsewhere.
    pub fn browser_cpu_seconds(&self) -> f64 {
        let profile = format!("strata-chromium-{}", self.driver_port);
        let Ok(dir) = std::fs::read_dir("/proc") else {
            return 0.0;
        };
        let mut ticks = 0u64;
        for entry in dir.flatten() {
            let p = entry.path();
            let Ok(cmdline) = std::fs::read(p.join("cmdline")) else {
                continue;
            };
            if !String::from_utf8_lossy(&cmdline).contains(&profile) {
                continue;
            }
            let Ok(stat) = std::fs::read_to_string(p.join("stat")) else {
                continue;
            };
            // The fields after the command's closing parenthesis: utime and stime are the
            // 12th and 13th of them.
            let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
            let f: Vec<&str> = rest.split_whitespace().collect();
            ticks += f.get(11).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0)
                + f.get(12).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
        }
        // /proc counts in USER_HZ, 100 a second on Linux.
        ticks as f64 / 100.0
    }

    /// Taps the element `css` with a finger (touch events, as a phone sends them), after
    /// scrolling it into view if it is not.
    pub async fn tap(&self, css: &str) {
        use fantoccini::actions::{InputSource, PointerAction, TouchActions};
        let e = self.wait(css).await;
        self.client
            .execute(
                "arguments[0].scrollIntoView({block: 'nearest', inline: 'nearest'});",
                vec![serde_json::to_value(&e).expect("an element")],
            )
            .await
            .expect("scroll");
        let finger = TouchActions::new("finger".into())
            .then(PointerAction::MoveToElement {
                element: e,
                duration: None,
                x: 0.0,
                y: 0.0,
            })
            .then(PointerAction::Down { button: 0 })
            .then(PointerAction::Pause {
                duration: Duration::from_millis(40),
            })
            .then(PointerAction::Up { button: 0 });
        self.client
            .perform_actions(finger)
            .await
            .unwrap_or_else(|e| panic!("tap {css}: {e}"));
        let _ = self.client.release_actions().await;
    }

    /// Puts a finger on the element `css` and slides it by (`dx`, `dy`) pixels in 300 ms
    /// before lifting it: a swipe, which scrolls the page where the page lets it.
    pub async fn swipe(&self, css: &str, dx: f64, dy: f64) {
        use fantoccini::actions::{InputSource, PointerAction, TouchActions};
        let e = self.wait(css).await;
        let finger = TouchActions::new("finger".into())
            .then(PointerAction::MoveToElement {
                element: e,
                duration: None,
                x: 0.0,
                y: 0.0,
            })
            .then(PointerAction::Down { button: 0 })
            .then(PointerAction::MoveBy {
                duration: Some(Duration::from_millis(300)),
                x: dx,
                y: dy,
            })
            .then(PointerAction::Up { button: 0 });
        self.client
            .perform_actions(finger)
            .await
            .unwrap_or_else(|e| panic!("swipe {css}: {e}"));
        let _ = self.client.release_actions().await;
    }

    /// Taps the cell named `name`.
    pub async fn tap_cell(&self, name: &str) {
        self.tap(&format!("[data-cell=\"{name}\"]")).await;
    }

    /// Opens the page with extra URL parameters (`variant=chess&side=white`).
    pub async fn open(&self, params: &str) {
        let url = if params.is_empty() {
            self.server.url.clone()
        } else {
            format!("{}&{params}", self.server.url)
        };
        self.client.goto(&url).await.expect("the page opens");
    }

    /// The element `css`, waited for.
    pub async fn wait(&self, css: &str) -> Element {
        self.client
            .wait()
            .at_most(PATIENCE)
            .for_element(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no element '{css}' within {PATIENCE:?}: {e}"))
    }

    /// Every element `css` now.
    pub async fn all(&self, css: &str) -> Vec<Element> {
        self.client
            .find_all(Locator::Css(css))
            .await
            .expect("find_all")
    }

    /// The value of attribute `attr` of each element `css` that has it (read in one go, so
    /// that a redrawn list cannot go stale half-way).
    pub async fn attrs(&self, css: &str, attr: &str) -> Vec<String> {
        let v = self
            .client
            .execute(
                "return [...document.querySelectorAll(arguments[0])]
                   .map(e => e.getAttribute(arguments[1])).filter(v => v !== null);",
                vec![serde_json::json!(css), serde_json::json!(attr)],
            )
            .await
            .expect("script");
        serde_json::from_value(v).expect("a list of strings")
    }

    /// Clicks the cell named `name`.
    pub async fn click_cell(&self, name: &str) {
        self.wait(&format!("[data-cell=\"{name}\"]"))
            .await
            .click()
            .await
            .unwrap_or_else(|e| panic!("click {name}: {e}"));
    }

    /// Drags the piece on cell `from` to cell `to` with the mouse: press, move in steps,
    /// release.
    pub async fn drag(&self, from: &str, to: &str) {
        use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, MouseActions, PointerAction};
        let a = self.wait(&format!("[data-cell=\"{from}\"]")).await;
        let b = self.wait(&format!("[data-cell=\"{to}\"]")).await;
        let step = |element: Element| PointerAction::MoveToElement {
            element,
            duration: Some(Duration::from_millis(150)),
            x: 0.0,
            y: 0.0,
        };
        let mouse = MouseActions::new("mouse".into())
            .then(step(a.clone()))
            .then(PointerAction::Down {
                button: MOUSE_BUTTON_LEFT,
            })
            .then(PointerAction::MoveBy {
                duration: Some(Duration::from_millis(100)),
                x: 12.0,
                y: 12.0,
            })
            .then(step(b))
            .then(PointerAction::Up {
                button: MOUSE_BUTTON_LEFT,
            });
        self.client
            .perform_actions(mouse)
            .await
            .unwrap_or_else(|e| panic!("drag {from} to {to}: {e}"));
    }

    /// Clicks the point (`x`, `y`) of the viewport (CSS pixels) with the mouse: moves there,
    /// presses and releases.
    pub async fn click_at(&self, x: f64, y: f64) {
        use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, MouseActions, PointerAction};
        let mouse = MouseActions::new("mouse".into())
            .then(PointerAction::MoveTo {
                duration: Some(Duration::from_millis(50)),
                x,
                y,
            })
            .then(PointerAction::Down {
                button: MOUSE_BUTTON_LEFT,
            })
            .then(PointerAction::Up {
                button: MOUSE_BUTTON_LEFT,
            });
        self.client
            .perform_actions(mouse)
            .await
            .unwrap_or_else(|e| panic!("click at ({x}, {y}): {e}"));
    }

    /// Types `text` into the element `css` and presses Enter.
    pub async fn type_into(&self, css: &str, text: &str) {
        let field = self.wait(css).await;
        field
            .send_keys(&format!("{text}\u{E007}"))
            .await
            .unwrap_or_else(|e| panic!("type into {css}: {e}"));
    }

    /// Clicks the element `css`.
    pub async fn click(&self, css: &str) {
        self.wait(css)
            .await
            .click()
            .await
            .unwrap_or_else(|e| panic!("click {css}: {e}"));
    }

    /// The highlighted targets (cell names).
    pub async fn targets(&self) -> Vec<String> {
        self.attrs("[data-target]", "data-cell").await
    }

    /// The moves of the move list, in order (`data-move`).
    pub async fn moves(&self) -> Vec<String> {
        self.attrs("#moves [data-ply]", "data-move").await
    }

    /// Waits until the move list has exactly `n` moves; returns them.
    pub async fn wait_moves(&self, n: usize) -> Vec<String> {
        let until = Instant::now() + PATIENCE;
        loop {
            let m = self.moves().await;
            if m.len() == n {
                return m;
            }
            assert!(
                Instant::now() < until,
                "the move list has {} moves, not {n}: {m:?}; status: {}",
                m.len(),
                self.text("#status").await
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// The text of every element `css`, in document order.
    pub async fn texts(&self, css: &str) -> Vec<String> {
        let v = self
            .client
            .execute(
                "return [...document.querySelectorAll(arguments[0])].map(e => e.textContent);",
                vec![serde_json::json!(css)],
            )
            .await
            .expect("script");
        serde_json::from_value(v).expect("a list of strings")
    }

    /// The text of the element `css`.
    pub async fn text(&self, css: &str) -> String {
        match self.client.find(Locator::Css(css)).await {
            Ok(e) => e.text().await.unwrap_or_default(),
            Err(_) => String::new(),
        }
    }

    /// The cells holding a piece of `colour` (`White`, `Black`, `Gold`, `Silver`).
    pub async fn cells_of(&self, colour: &str) -> Vec<String> {
        let script = format!(
            "return [...document.querySelectorAll('[data-cell]')]
               .filter(c => (c.querySelector('svg')?.getAttribute('aria-label') ?? '').startsWith('{colour} '))
               .map(c => c.dataset.cell);"
        );
        let v = self.client.execute(&script, vec![]).await.expect("script");
        serde_json::from_value(v).expect("a list of names")
    }

    /// Runs `script` in the page and returns its result.
    pub async fn run(&self, script: &str) -> serde_json::Value {
        self.client.execute(script, vec![]).await.expect("script")
    }

    /// Saves a screenshot to `path`.
    pub async fn screenshot(&self, path: &std::path::Path) {
        let png = self.client.screenshot().await.expect("a screenshot");
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        std::fs::write(path, png).expect("write the screenshot");
    }

    /// Ends the browser.
    pub async fn close(self) {
        let _ = self.client.clone().close().await;
        // Drop ends ChromeDriver.
    }
}

/// A test that fails drops its browser without closing it: ChromeDriver (and with it
/// Chromium) is ended all the same, instead of living on after the test.
impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.driver.kill();
        let _ = self.driver.wait();
        // Each profile is some 7 MB; hundreds of test runs filled a disk with them.
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// A browser of `width` x `height` on a fresh `strata gui`, or `None` (with the reason
/// printed) where Chromium is missing outside CI.
pub async fn launch(width: u32, height: u32) -> Option<Browser> {
    launch_with(width, height, &[]).await
}

/// [`launch`] with `strata gui` given `args`.
pub async fn launch_with(width: u32, height: u32, args: &[&str]) -> Option<Browser> {
    let (chromium, driver) = available()?;
    Some(Browser::start_with(&chromium, &driver, width, height, args).await)
}

/// A phone of `width` x `height` CSS pixels with a touch screen (ChromeDriver's mobile
/// emulation) on a fresh `strata gui`, or `None` where Chromium is missing outside CI.
pub async fn launch_phone(width: u32, height: u32) -> Option<Browser> {
    let (chromium, driver) = available()?;
    Some(Browser::start_as(&chromium, &driver, width, height, &[], true).await)
}

/// Where a test's screenshot `name` goes: `target/gui-screenshots/NAME.png`.
pub fn shot_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("..")
        .join("gui-screenshots")
        .join(format!("{name}.png"))
}

/// The level letter of a 3D cell name (`Cc3` -> 'C').
pub fn level_of(cell: &str) -> char {
    cell.chars().next().unwrap_or('?')
}

/// `plies` moves of strata against itself from `variant`'s start, at `nodes` a move (the
/// protocol over the built binary): positions for screenshots.
pub fn engine_game(variant: &str, plies: usize, nodes: u64) -> Vec<String> {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    let mut child = Command::new(strata_bin())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("strata starts");
    let mut input = child.stdin.take().expect("stdin");
    let mut output = BufReader::new(child.stdout.take().expect("stdout"));
    writeln!(input, "setoption name UCI_Variant value {variant}").unwrap();
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..plies {
        writeln!(input, "position startpos moves {}", moves.join(" ")).unwrap();
        writeln!(input, "go nodes {nodes}").unwrap();
        let mut line = String::new();
        let best = loop {
            line.clear();
            assert!(output.read_line(&mut line).unwrap() > 0, "strata ended");
            if let Some(rest) = line.strip_prefix("bestmove ") {
                break rest.split_whitespace().next().unwrap_or("").to_string();
            }
        };
        if best == "(none)" || best.is_empty() {
            break;
        }
        moves.push(best);
    }
    writeln!(input, "quit").unwrap();
    let _ = child.wait();
    moves
}

/// Writes the figures of a highlight-latency test (`times`: ms from a press to its targets
/// lit, one a piece) to `<name>.txt` beside the screenshots and to stderr: `how` the press
/// was made, on the crowded Polyhedron position with `legal` legal moves.
pub fn report_latency(name: &str, how: &str, legal: usize, times: &mut [f64]) {
    times.sort_by(f64::total_cmp);
    let report = format!(
        "{how}, Polyhedron middle game (bench position 2, {legal} legal moves), {} White pieces with moves: median {:.1} ms, max {:.1} ms\n",
        times.len(),
        times[times.len() / 2],
        times[times.len() - 1]
    );
    eprint!("{report}");
    let path = shot_path(name).with_extension("txt");
    std::fs::write(path, report).expect("write the report");
}
