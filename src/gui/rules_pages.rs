//! The variants' rules pages (`docs/variants/*.md`), built into the binary as the page's own
//! files are, rendered to HTML on the server, and served at `/rules/<page>.html` behind the
//! same checks and Content-Security-Policy as every other file.
//!
//! The Markdown is ours, so nothing is sanitised; what the rendering changes is what would
//! not work inside the page: every heading gets the `id` GitHub gives it, prefixed with
//! `rules-` so that a heading ("Moves") cannot take the id of an element of the page
//! (`#moves`); links between the rules pages lead to their HTML (`pole.md#fen` to
//! `/rules/pole.html#rules-fen`); links to files that are not served (`../notation.md`, the
//! perft suites) become their text, with the file's path in the repository as a tooltip;
//! links to other sites open in a new tab; and each table is wrapped in a box that may
//! scroll sideways on a narrow screen while the page itself does not.

use std::sync::OnceLock;

use pulldown_cmark::{CowStr, Event, LinkType, Options, Parser, Tag, TagEnd, html};

use crate::rules::Variant;

/// A page: the stem of its file in `docs/variants/` and its Markdown.
struct Source {
    stem: &'static str,
    markdown: &'static str,
}

macro_rules! page {
    ($stem:literal) => {
        Source {
            stem: $stem,
            markdown: include_str!(concat!("../../docs/variants/", $stem, ".md")),
        }
    };
}

/// Every page of `docs/variants/`: the index, one page per built-in variant, Raumschach's
/// (a variant file) and the rulings of the other variant files.
static SOURCES: &[Source] = &[
    page!("README"),
    page!("chess"),
    page!("pole"),
    page!("polyhedron"),
    page!("podionic"),
    page!("pentaplane"),
    page!("future-generation"),
    page!("raumschach"),
    page!("file-variants"),
];

/// The URL path of page `stem`.
pub fn path_of(stem: &str) -> String {
    format!("/rules/{stem}.html")
}

/// The URL path of the rules page of `v`: a built-in variant's own page, and for a variant
/// from a file the page of the same name if there is one (Raumschach's).
pub fn page_for(v: Variant) -> Option<String> {
    SOURCES
        .iter()
        .find(|s| s.stem == v.name())
        .map(|s| path_of(s.stem))
}

/// The URL path of the rulings of the variant files shipped with strata.
pub fn file_variants_page() -> String {
    path_of("file-variants")
}

/// Every page as served: (path, HTML document), rendered once, on first use.
fn rendered() -> &'static [(String, String)] {
    static PAGES: OnceLock<Vec<(String, String)>> = OnceLock::new();
    PAGES.get_or_init(|| {
        SOURCES
            .iter()
            .map(|s| (path_of(s.stem), document(s.markdown)))
            .collect()
    })
}

/// The HTML document served at `path` (`/rules/chess.html`), if there is one.
pub fn find(path: &str) -> Option<&'static str> {
    rendered()
        .iter()
        .find(|(p, _)| p == path)
        .map(|(_, html)| html.as_str())
}

/// The anchor GitHub gives a heading of text `title`: lower case, spaces turned into hyphens,
/// punctuation but `-` and `_` dropped (as `tests/docs.rs` checks links against).
fn slug(title: &str) -> String {
    title
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The id of the heading with anchor `anchor` in a rendered page.
fn heading_id(anchor: &str) -> String {
    format!("rules-{}", anchor.to_lowercase())
}

/// Where a link of a rules page leads once rendered.
enum Target {
    /// Kept as a link, with this address; `external` opens in a new tab.
    Link { href: String, external: bool },
    /// A file that is not served: its path in the repository.
    Unserved(String),
}

/// Where the link `dest` of a page of `docs/variants/` leads.
fn target(dest: &str) -> Target {
    if dest.contains("://") || dest.starts_with("mailto:") {
        return Target::Link {
            href: dest.to_string(),
            external: true,
        };
    }
    let (file, anchor) = match dest.split_once('#') {
        Some((f, a)) => (f, Some(a)),
        None => (dest, None),
    };
    let anchor = anchor
        .map(|a| format!("#{}", heading_id(a)))
        .unwrap_or_default();
    if file.is_empty() {
        return Target::Link {
            href: anchor,
            external: false,
        };
    }
    if let Some(stem) = file.strip_suffix(".md")
        && SOURCES.iter().any(|s| s.stem == stem)
    {
        return Target::Link {
            href: format!("{}{anchor}", path_of(stem)),
            external: false,
        };
    }
    // The path from the repository's root: docs/variants/ plus the link, `..` resolved.
    let mut parts = vec!["docs", "variants"];
    for p in file.split('/') {
        match p {
            ".." => {
                parts.pop();
            }
            "." | "" => {}
            p => parts.push(p),
        }
    }
    Target::Unserved(parts.join("/"))
}

/// Escapes `s` for an HTML attribute or text.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The plain text of the events of a heading.
fn text_of(events: &[Event]) -> String {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Text(t) | Event::Code(t) => Some(t.as_ref()),
            _ => None,
        })
        .collect()
}

/// A rules page's Markdown as the HTML of its `<article>`, and its first heading's text.
pub fn render(markdown: &str) -> (String, String) {
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    let events: Vec<Event> = Parser::new_ext(markdown, options).collect();
    let mut out: Vec<Event> = Vec::with_capacity(events.len());
    let mut anchors: Vec<String> = Vec::new();
    let mut title = String::new();
    // The links open, in order: whether each is dropped (an unserved file's).
    let mut open_links: Vec<bool> = Vec::new();
    let mut i = 0;
    while i < events.len() {
        match &events[i] {
            Event::Start(Tag::Heading {
                level,
                classes,
                attrs,
                ..
            }) => {
                let end = events[i..]
                    .iter()
                    .position(|e| matches!(e, Event::End(TagEnd::Heading(_))))
                    .map_or(events.len(), |n| i + n);
                let text = text_of(&events[i + 1..end]);
                if title.is_empty() {
                    title = text.clone();
                }
                // Repeated headings are numbered as GitHub numbers them.
                let base = slug(&text);
                let repeats = anchors.iter().filter(|a| **a == base).count();
                anchors.push(base.clone());
                let anchor = if repeats == 0 {
                    base
                } else {
                    format!("{base}-{repeats}")
                };
                out.push(Event::Start(Tag::Heading {
                    level: *level,
                    id: Some(CowStr::from(heading_id(&anchor))),
                    classes: classes.clone(),
                    attrs: attrs.clone(),
                }));
            }
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                ..
            }) if *link_type != LinkType::Email => match target(dest_url) {
                Target::Link { href, external } => {
                    let extra = if external {
                        r#" target="_blank" rel="noopener noreferrer""#
                    } else {
                        ""
                    };
                    out.push(Event::InlineHtml(CowStr::from(format!(
                        r#"<a href="{}"{extra}>"#,
                        escape(&href)
                    ))));
                    open_links.push(false);
                }
                Target::Unserved(path) => {
                    out.push(Event::InlineHtml(CowStr::from(format!(
                        r#"<span class="doc-ref" title="{} in the strata repository">"#,
                        escape(&path)
                    ))));
                    open_links.push(true);
                }
            },
            Event::End(TagEnd::Link) if !open_links.is_empty() => {
                let unserved = open_links.pop().unwrap_or(false);
                out.push(Event::InlineHtml(CowStr::from(if unserved {
                    "</span>"
                } else {
                    "</a>"
                })));
            }
            Event::Start(Tag::Table(_)) => {
                out.push(Event::Html(CowStr::from(r#"<div class="table-wrap">"#)));
                out.push(events[i].clone());
            }
            Event::End(TagEnd::Table) => {
                out.push(events[i].clone());
                out.push(Event::Html(CowStr::from("</div>\n")));
            }
            e => out.push(e.clone()),
        }
        i += 1;
    }
    let mut body = String::with_capacity(markdown.len() * 3 / 2);
    html::push_html(&mut body, out.into_iter());
    (body, title)
}

/// A rules page as the HTML document served: the page's style sheet, and the rendered page
/// in one `<article>` that the page's rules dialog takes out of it.
fn document(markdown: &str) -> String {
    let (body, title) = render(markdown);
    format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{} · rules · strata</title>\n<link rel=\"stylesheet\" href=\"/style.css\">\n\
         </head>\n<body class=\"rules-document\">\n<article class=\"rules-page\">\n{body}</article>\n\
         </body>\n</html>\n",
        escape(&title)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every page renders (no panic), starts with its title, has its tables, and leaves no
    /// link to a Markdown file: each leads to a served page, an anchor of it, or is text.
    #[test]
    fn every_page_renders_with_its_headings_tables_and_links() {
        for s in SOURCES {
            let (html, title) = render(s.markdown);
            let first = s.markdown.lines().next().unwrap_or("");
            assert_eq!(first.trim_start_matches("# "), title, "{}", s.stem);
            assert!(
                html.starts_with("<h1 id=\"rules-"),
                "{}: {}",
                s.stem,
                &html[..40]
            );
            // A table's delimiter row: `| --- | --- |` or `|---|---|`.
            let tables = s
                .markdown
                .lines()
                .filter(|l| {
                    l.starts_with('|') && l.contains("---") && l.chars().all(|c| "|-: ".contains(c))
                })
                .count();
            assert_eq!(html.matches("<table>").count(), tables, "{}", s.stem);
            assert_eq!(
                html.matches(r#"<div class="table-wrap">"#).count(),
                tables,
                "{}",
                s.stem
            );
            assert!(
                !html.contains(".md\""),
                "{}: a link to Markdown left",
                s.stem
            );
            // Every link within the pages leads to a page served, and an anchor to a heading
            // of it.
            for href in html.split("href=\"").skip(1) {
                let href = &href[..href.find('"').unwrap()];
                if href.starts_with("http") || href == "/style.css" {
                    continue;
                }
                let (path, anchor) = href.split_once('#').unwrap_or((href, ""));
                let target = if path.is_empty() {
                    html.clone()
                } else {
                    let doc = find(path).unwrap_or_else(|| panic!("{}: {href} not served", s.stem));
                    doc.to_string()
                };
                if !anchor.is_empty() {
                    assert!(
                        target.contains(&format!("id=\"{anchor}\"")),
                        "{}: {href}: no such heading",
                        s.stem
                    );
                }
            }
        }
        assert!(
            find("/rules/chess.html")
                .unwrap()
                .contains("<title>Chess · rules")
        );
        assert!(find("/rules/nothing.html").is_none());
        assert!(find("/rules/../Cargo.toml").is_none());
    }

    #[test]
    fn links_are_rewritten_for_the_page() {
        let (html, _) = render(
            "# T\n\n## Moves\n\nSee [FEN](#moves), [Pole](pole.md#fen), [the index](README.md), \
             [notation](../notation.md), [FIDE](https://fide.com/x?a=1&b=2).\n\n## Moves\n",
        );
        assert!(html.contains(r#"<h2 id="rules-moves">"#), "{html}");
        assert!(html.contains(r#"<h2 id="rules-moves-1">"#), "{html}");
        assert!(
            html.contains(r##"<a href="#rules-moves">FEN</a>"##),
            "{html}"
        );
        assert!(html.contains(r##"<a href="/rules/pole.html#rules-fen">Pole</a>"##));
        assert!(html.contains(r#"<a href="/rules/README.html">the index</a>"#));
        assert!(html.contains(
            r#"<span class="doc-ref" title="docs/notation.md in the strata repository">notation</span>"#
        ));
        assert!(html.contains(
            r#"<a href="https://fide.com/x?a=1&amp;b=2" target="_blank" rel="noopener noreferrer">FIDE</a>"#
        ));
    }

    #[test]
    fn each_built_in_variant_has_its_page() {
        for v in Variant::ALL {
            let path = page_for(v).unwrap_or_else(|| panic!("{}", v.name()));
            assert!(find(&path).is_some(), "{path}");
        }
    }
}
