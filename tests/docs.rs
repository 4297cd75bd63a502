//! The documentation's links and commands.
//!
//! - Every relative link and image in every Markdown file of the repository (README.md,
//!   protocol.md, CONTRIBUTING.md, docs/, contrib/, ...; build output and hidden directories
//!   skipped) leads to a file or directory that exists, and an anchor (`#...`) into a
//!   Markdown file to one of its headings (as GitHub names them). Links to other sites are
//!   left alone.
//! - Every `strata` command quoted in the user documentation ([`COMMAND_DOCS`]) parses: a
//!   command in a code block (a line starting with `strata ` or `cargo run --release -- `) is
//!   given to the built binary with `--help` after its arguments, which the command line parser
//!   checks up to there; `strata match` arguments are parsed by the match runner's own parser;
//!   `perft` and `bench` commands are run, at a depth of at most 2. A command quoted inline
//!   (`` `strata perft` ``) must name a subcommand that exists.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The files whose `strata` commands are checked.
const COMMAND_DOCS: &[&str] = &[
    "README.md",
    "CONTRIBUTING.md",
    "docs/results.md",
    "docs/engine.md",
];

/// Options of `strata` itself (before the subcommand) that take a value.
const GLOBAL_OPTIONS: &[&str] = &["--variant-file", "--log"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.md` file under `dir`, skipping hidden directories and build output (`target/`, or
/// any directory with a `CACHEDIR.TAG`, as cargo's target directories have).
fn markdown_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        if meta.is_dir() {
            let skip = name.starts_with('.')
                || name == "target"
                || name == "node_modules"
                || path.join("CACHEDIR.TAG").exists();
            if !skip {
                markdown_files(&path, out);
            }
        } else if meta.is_file() && name.ends_with(".md") {
            out.push(path);
        }
    }
}

/// `line` without its inline code spans (a run of backticks up to the next run of the same
/// length); an unmatched run is kept as text.
fn without_code_spans(line: &str) -> String {
    code_spans(line).0
}

/// `line` split into its text outside code spans and the spans' contents.
fn code_spans(line: &str) -> (String, Vec<String>) {
    let chars: Vec<char> = line.chars().collect();
    let (mut text, mut spans) = (String::new(), Vec::new());
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '`' {
            text.push(chars[i]);
            i += 1;
            continue;
        }
        let run = chars[i..].iter().take_while(|&&c| c == '`').count();
        // The closing run: exactly `run` backticks.
        let mut j = i + run;
        let mut close = None;
        while j < chars.len() {
            if chars[j] == '`' {
                let k = chars[j..].iter().take_while(|&&c| c == '`').count();
                if k == run {
                    close = Some(j);
                    break;
                }
                j += k;
            } else {
                j += 1;
            }
        }
        match close {
            Some(j) => {
                spans.push(
                    chars[i + run..j]
                        .iter()
                        .collect::<String>()
                        .trim()
                        .to_string(),
                );
                i = j + run;
            }
            None => {
                text.extend(&chars[i..i + run]);
                i += run;
            }
        }
    }
    (text, spans)
}

/// Whether a line opens or closes a fenced code block.
fn is_fence(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("```") || t.starts_with("~~~")
}

/// The link destinations of a line of Markdown text (code spans removed): inline links and
/// images `[text](dest "title")`, `![alt](dest)`, and reference definitions `[label]: dest`.
fn link_destinations(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let trimmed = line.trim_start();
    if trimmed.starts_with('[')
        && let Some(end) = trimmed.find("]:")
    {
        let dest = trimmed[end + 2..].split_whitespace().next().unwrap_or("");
        out.push(dest.trim_matches(|c| c == '<' || c == '>').to_string());
        return out;
    }
    let bytes = line.as_bytes();
    let mut from = 0;
    while let Some(pos) = line[from..].find("](") {
        let start = from + pos + 2;
        from = start;
        // A `[` must open the text before it.
        if !line[..start - 2].contains('[') {
            continue;
        }
        // The destination: up to the matching `)`, parentheses balanced.
        let mut depth = 1;
        let mut end = start;
        while end < bytes.len() {
            match bytes[end] {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
            end += 1;
        }
        if depth != 0 {
            continue;
        }
        let inside = line[start..end].trim();
        let dest = if let Some(rest) = inside.strip_prefix('<') {
            rest.split('>').next().unwrap_or("")
        } else {
            inside.split_whitespace().next().unwrap_or("")
        };
        out.push(dest.to_string());
        from = end;
    }
    out
}

/// The file a relative link points to (`file` itself for an anchor of the same page) and
/// its anchor, or `None` for a link to another site or a mail address.
fn link_target(file: &Path, dest: &str) -> Option<(PathBuf, Option<String>)> {
    let lower = dest.to_ascii_lowercase();
    if dest.is_empty() || lower.starts_with("mailto:") || lower.contains("://") {
        return None;
    }
    let (path, anchor) = match dest.split_once('#') {
        Some((path, anchor)) => (path, Some(anchor.to_string())),
        None => (dest, None),
    };
    let path = path.split('?').next().unwrap_or("").replace("%20", " ");
    let target = if path.is_empty() {
        file.to_path_buf()
    } else {
        match path.strip_prefix('/') {
            Some(from_root) => root().join(from_root),
            None => file.parent().unwrap().join(path),
        }
    };
    Some((target, anchor))
}

/// The anchors GitHub gives the headings of a Markdown file: the heading's text in lower
/// case, spaces turned into hyphens, punctuation but `-` and `_` dropped, a repeated one
/// numbered (`-1`, `-2`, ...).
fn heading_anchors(file: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(file).unwrap_or_default();
    let mut anchors: Vec<String> = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if is_fence(line) {
            fenced = !fenced;
            continue;
        }
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if fenced || hashes == 0 || hashes > 6 || !line[hashes..].starts_with(' ') {
            continue;
        }
        let title = line[hashes..].trim().trim_end_matches('#').trim();
        let slug: String = title
            .to_lowercase()
            .chars()
            .filter_map(|c| match c {
                ' ' => Some('-'),
                c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                _ => None,
            })
            .collect();
        let repeats = anchors
            .iter()
            .filter(|a| **a == slug || a.strip_prefix(&slug).is_some_and(is_repeat))
            .count();
        anchors.push(if repeats == 0 {
            slug
        } else {
            format!("{slug}-{repeats}")
        });
    }
    anchors
}

/// Whether `rest` is the suffix GitHub adds to a repeated heading's anchor (`-1`, `-2`, ...).
fn is_repeat(rest: &str) -> bool {
    rest.strip_prefix('-')
        .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
}

/// Every broken relative link of one Markdown file, as `file:line: dest`.
fn broken_links(file: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let shown = file
        .strip_prefix(root())
        .unwrap_or(file)
        .display()
        .to_string();
    let mut broken = Vec::new();
    let mut fenced = false;
    for (n, line) in text.lines().enumerate() {
        if is_fence(line) {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        for dest in link_destinations(&without_code_spans(line)) {
            let Some((target, anchor)) = link_target(file, &dest) else {
                continue;
            };
            if !target.exists() {
                broken.push(format!("{shown}:{}: {dest}", n + 1));
            } else if let Some(anchor) = anchor
                && target.extension().is_some_and(|x| x == "md")
                && !heading_anchors(&target).contains(&anchor.to_lowercase())
            {
                broken.push(format!("{shown}:{}: {dest} (no such heading)", n + 1));
            }
        }
    }
    broken
}

#[test]
fn every_relative_link_leads_to_a_file() {
    let mut files = Vec::new();
    markdown_files(&root(), &mut files);
    assert!(
        files.iter().any(|f| f.ends_with("README.md")),
        "no Markdown files found under {}",
        root().display()
    );
    let broken: Vec<String> = files.iter().flat_map(|f| broken_links(f)).collect();
    assert!(
        broken.is_empty(),
        "links to files that do not exist:\n{}",
        broken.join("\n")
    );
}

#[test]
fn the_link_reader_finds_links_and_images() {
    assert_eq!(
        link_destinations("see [a](x.md#y), ![b](img/p.png) and [c](<d e.md> \"t\")"),
        ["x.md#y", "img/p.png", "d e.md"]
    );
    assert_eq!(
        link_destinations("  [ref]: docs/a.md \"title\""),
        ["docs/a.md"]
    );
    assert_eq!(link_destinations("a (b) [c] d"), Vec::<String>::new());
    assert_eq!(
        without_code_spans("x `[a](b.md)` y ``c ` d`` z"),
        "x  y  z".to_string()
    );
    let readme = root().join("README.md");
    assert_eq!(link_target(&readme, "https://rustup.rs"), None);
    assert_eq!(link_target(&readme, "mailto:a@b.c"), None);
    assert_eq!(
        link_target(&readme, "#set-up-and-run"),
        Some((readme.clone(), Some("set-up-and-run".into())))
    );
    assert_eq!(
        link_target(&readme, "docs/gui.md#speed"),
        Some((root().join("docs/gui.md"), Some("speed".into())))
    );
    assert_eq!(
        link_target(&root().join("docs/engine.md"), "../LICENSE"),
        Some((root().join("docs/../LICENSE"), None))
    );
    let engine = heading_anchors(&root().join("docs/engine.md"));
    assert!(
        engine.contains(&"search-srcsearch".to_string()),
        "{engine:?}"
    );
}

#[test]
fn heading_anchors_are_named_as_github_names_them() {
    let dir = std::env::temp_dir().join(format!("strata-docs-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("a.md");
    std::fs::write(
        &file,
        "# Strength in chess: against Stockfish\n```\n# not a heading\n```\n## Bench\n### Bench\n#nospace\n",
    )
    .unwrap();
    assert_eq!(
        heading_anchors(&file),
        ["strength-in-chess-against-stockfish", "bench", "bench-1"]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A quoted command: where it is, and its words after `strata`.
struct Quoted {
    at: String,
    words: Vec<String>,
    /// From a code block (checked in full), not from an inline code span (only the
    /// subcommand is checked).
    block: bool,
    /// Files that a shell line in a code block above, in the same document, makes from a
    /// file of the repository, as (made, made from): a command may name them though the
    /// repository does not hold them.
    made: Vec<(String, String)>,
}

/// The file a shell line writes with `>` and the file it reads, its last word before `>`
/// (`grep -v x a.toml > b.toml` makes `b.toml` from `a.toml`).
fn written_file(line: &str) -> Option<(String, String)> {
    let words = shell_words(line);
    let at = words.iter().position(|w| w == ">")?;
    Some((
        words.get(at + 1)?.clone(),
        words.get(at.checked_sub(1)?)?.clone(),
    ))
}

/// Splits a command line into words as a shell would (quotes, backslashes); a `#` that starts
/// a word starts a comment.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '#' if !in_word => break,
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '"' | '\'' => {
                in_word = true;
                for q in chars.by_ref() {
                    if q == c {
                        break;
                    }
                    word.push(q);
                }
            }
            '\\' => {
                in_word = true;
                if let Some(next) = chars.next() {
                    word.push(next);
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

/// The words after `strata` of a command line, or `None` if the line is not a `strata`
/// command (`strata ...`, `cargo run --release -- ...`, either after `taskset -c N`).
fn strata_words(line: &str) -> Option<Vec<String>> {
    let mut rest = line.trim();
    if let Some(after) = rest.strip_prefix("taskset -c ") {
        rest = after.split_once(' ')?.1.trim_start();
    }
    let rest = rest
        .strip_prefix("strata ")
        .or_else(|| rest.strip_prefix("cargo run --release -- "))?;
    Some(shell_words(rest))
}

/// Every `strata` command quoted in one file: in code blocks (fenced, or indented by four
/// spaces or more; a line ending in `\` continues on the next) and in inline code spans.
fn quoted_commands(file: &str) -> Vec<Quoted> {
    let text = std::fs::read_to_string(root().join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut made = Vec::new();
    let mut fenced = false;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let at = format!("{file}:{}", i + 1);
        i += 1;
        if is_fence(line) {
            fenced = !fenced;
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        if fenced || indent >= 4 {
            let mut full = line.trim().to_string();
            while full.ends_with('\\') && i < lines.len() {
                full.pop();
                full.push(' ');
                full.push_str(lines[i].trim());
                i += 1;
            }
            if let Some(words) = strata_words(&full) {
                out.push(Quoted {
                    at,
                    words,
                    block: true,
                    made: made.clone(),
                });
            } else if let Some(file) = written_file(&full) {
                made.push(file);
            }
            continue;
        }
        for span in code_spans(line).1 {
            if let Some(words) = strata_words(&span) {
                out.push(Quoted {
                    at: at.clone(),
                    words,
                    block: false,
                    made: made.clone(),
                });
            }
        }
    }
    out
}

/// Whether a word is a placeholder of a synopsis (`[--depth D]`, `M...`, `V|all`, `DEPTH`,
/// `$S`, `<sub>`) rather than a value to run.
fn is_placeholder(word: &str) -> bool {
    word.contains(['[', ']', '|', '$', '<', '>'])
        || word.contains("...")
        || word.contains('…')
        || (word.chars().any(|c| c.is_ascii_uppercase())
            && word
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_'))
}

/// Runs the built binary in the repository's root; `Err` with its output if it fails.
fn run(args: &[String]) -> Result<(), String> {
    let out = Command::new(env!("CARGO_BIN_EXE_strata"))
        .args(args)
        .current_dir(root())
        .output()
        .map_err(|e| format!("cannot run strata: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// `words` with every depth above 2 lowered to 2: the positional depth of `perft` (a number
/// not after an option that takes one) and `--depth`'s value; `bench` gets `--depth 1` when
/// it has none.
fn shallow(sub: &str, words: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for w in words {
        let after = out.last().map(String::as_str).unwrap_or("");
        let option_value = matches!(after, "--threads" | "--hash");
        match w.parse::<u32>() {
            Ok(d) if d > 2 && !option_value => out.push("2".into()),
            _ => out.push(w.clone()),
        }
    }
    if sub == "bench" && !out.iter().any(|w| w == "--depth") {
        out.extend(["--depth".to_string(), "1".to_string()]);
    }
    out
}

/// Checks one quoted command; `Err` says what is wrong.
fn check(q: &Quoted) -> Result<(), String> {
    // strata's own options, then the subcommand and its arguments.
    let mut globals = Vec::new();
    let mut rest = q.words.as_slice();
    while let Some(first) = rest.first() {
        if GLOBAL_OPTIONS.contains(&first.as_str()) && rest.len() >= 2 {
            // A variant file the document makes above is not in the repository: the
            // command is checked with the file it is made from.
            globals.push(rest[0].clone());
            match q.made.iter().find(|(made, _)| *made == rest[1]) {
                Some((_, from)) if rest[0] == "--variant-file" => globals.push(from.clone()),
                _ => globals.push(rest[1].clone()),
            }
            rest = &rest[2..];
        } else {
            break;
        }
    }
    let Some((sub, args)) = rest.split_first() else {
        return run(&[globals.clone(), vec!["--help".into()]].concat());
    };
    if is_placeholder(sub) {
        return Ok(());
    }
    let concrete = q.block
        && !args.iter().any(|a| is_placeholder(a))
        && !globals.iter().any(|g| is_placeholder(g));
    let with_sub = |more: &[String]| [globals.clone(), vec![sub.clone()], more.to_vec()].concat();
    // The subcommand exists (and, for a command in full, clap reads its arguments).
    let help_args: Vec<String> = if concrete && sub != "match" {
        [args, &["--help".to_string()][..]].concat()
    } else {
        vec!["--help".into()]
    };
    run(&with_sub(&help_args))?;
    if !concrete {
        return Ok(());
    }
    match sub.as_str() {
        "perft" | "bench" => run(&with_sub(&shallow(sub, args))),
        "match" => {
            for pair in globals.chunks(2) {
                if pair[0] == "--variant-file" {
                    let path = root().join(&pair[1]);
                    strata::rules::defined::load_file(
                        &path.to_string_lossy(),
                        strata::eval::nnue::check_net,
                    )
                    .map_err(|e| e.to_string())?;
                }
            }
            // The runner's own parser: engines, limits, variant, openings, adjudication.
            strata::runner::args::parse(args).map(|_| ())
        }
        _ => Ok(()),
    }
}

#[test]
fn every_quoted_strata_command_parses() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for file in COMMAND_DOCS {
        for q in quoted_commands(file) {
            checked += 1;
            if let Err(e) = check(&q) {
                failures.push(format!(
                    "{}: strata {}\n{}",
                    q.at,
                    q.words.join(" "),
                    e.trim()
                ));
            }
        }
    }
    assert!(
        checked > 10,
        "only {checked} commands found in {COMMAND_DOCS:?}"
    );
    assert!(
        failures.is_empty(),
        "commands in the docs that strata does not take:\n\n{}",
        failures.join("\n\n")
    );
}

#[test]
fn the_command_reader_reads_shell_lines() {
    assert_eq!(
        strata_words("strata perft --fen \"8/8 w - -\" --divide 3   # a comment"),
        Some(vec![
            "perft".to_string(),
            "--fen".into(),
            "8/8 w - -".into(),
            "--divide".into(),
            "3".into()
        ])
    );
    assert_eq!(
        strata_words("cargo run --release -- gui   # starts the GUI"),
        Some(vec!["gui".to_string()])
    );
    assert_eq!(
        strata_words("taskset -c 1 strata bench"),
        Some(vec!["bench".to_string()])
    );
    assert_eq!(strata_words("target/release/strata bench"), None);
    assert_eq!(
        written_file("grep -v '^net = ' variants/raumschach.toml > bare.toml"),
        Some((
            "bare.toml".to_string(),
            "variants/raumschach.toml".to_string()
        ))
    );
    assert_eq!(written_file("grep -v x variants/raumschach.toml"), None);
    assert!(is_placeholder("DEPTH") && is_placeholder("[--depth") && is_placeholder("M..."));
    assert!(!is_placeholder("e2e4") && !is_placeholder("KQkq") && !is_placeholder("tc=5+0.05"));
    let words: Vec<String> = ["--moves", "e2e4", "4", "--threads", "3"]
        .map(String::from)
        .to_vec();
    assert_eq!(
        shallow("perft", &words),
        ["--moves", "e2e4", "2", "--threads", "3"]
    );
}
