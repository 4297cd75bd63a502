//! The page's files, built into the binary: plain HTML, CSS and ES modules from `gui/`, no
//! bundler and nothing loaded from the network at run time.

/// A page file.
pub struct Asset {
    /// Its path on the server.
    pub path: &'static str,
    /// Its MIME type.
    pub content_type: &'static str,
    /// Its bytes.
    pub content: &'static [u8],
}

macro_rules! asset {
    ($path:literal, $type:literal) => {
        Asset {
            path: $path,
            content_type: $type,
            content: include_bytes!(concat!("../../gui", $path)),
        }
    };
}

/// Every page file.
pub static ASSETS: &[Asset] = &[
    asset!("/index.html", "text/html; charset=utf-8"),
    asset!("/style.css", "text/css; charset=utf-8"),
    asset!("/js/app.js", "text/javascript; charset=utf-8"),
    asset!("/js/board.js", "text/javascript; charset=utf-8"),
    asset!("/js/pieces.js", "text/javascript; charset=utf-8"),
    asset!("/js/connection.js", "text/javascript; charset=utf-8"),
    asset!("/js/newgame.js", "text/javascript; charset=utf-8"),
    asset!("/js/panel.js", "text/javascript; charset=utf-8"),
    asset!("/js/analysis.js", "text/javascript; charset=utf-8"),
    asset!("/js/view3d.js", "text/javascript; charset=utf-8"),
    asset!("/js/editor.js", "text/javascript; charset=utf-8"),
    asset!("/js/rules.js", "text/javascript; charset=utf-8"),
    asset!("/js/piecemoves.js", "text/javascript; charset=utf-8"),
    // three.js, vendored by scripts/vendor_three.sh (MIT: its LICENSE is served beside it).
    asset!(
        "/vendor/three/three.module.js",
        "text/javascript; charset=utf-8"
    ),
    asset!(
        "/vendor/three/three.core.js",
        "text/javascript; charset=utf-8"
    ),
    asset!(
        "/vendor/three/OrbitControls.js",
        "text/javascript; charset=utf-8"
    ),
    asset!("/vendor/three/LICENSE", "text/plain; charset=utf-8"),
];

/// The file served at `path` (`/` is the page).
pub fn find(path: &str) -> Option<&'static Asset> {
    let path = if path == "/" { "/index.html" } else { path };
    ASSETS.iter().find(|a| a.path == path)
}
