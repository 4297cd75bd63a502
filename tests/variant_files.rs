//! Variants defined in files (`docs/variant-files.md`, `variants/`): the file-defined chess
//! and Polyhedron against the built-in variants on every position of their perft suites,
//! bad files refused with their line, the protocol's `VariantPath`, `strata variants`, a
//! file-defined variant refereed through `strata match`.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use strata::rules::defined::{self, FileError};
use strata::rules::perft::perft;
use strata::rules::{AnyGame, Game, Variant};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn load(file: &str) -> Variant {
    defined::load_file(
        &root().join("variants").join(file).to_string_lossy(),
        strata::eval::nnue::check_net,
    )
    .unwrap_or_else(|e| panic!("{e}"))[0]
}

/// Perft of every case of `suite` with the file-defined `twin` in place of the suite's
/// variant: equal to the built-in variant's and to the suite's count, for every count up to
/// `budget` leaves (and depth 1 of every position whatever its size).
fn same_perft_as_builtin(suite: &str, twin: Variant, budget: u64) {
    let suite = common::load_suite(&root().join("tests/perft").join(suite));
    let mut checked = 0;
    for case in &suite.cases {
        let mut ours = common::case_position(twin, case);
        let mut theirs = common::case_position(suite.variant, case);
        for &(depth, expected, slow) in &case.expect {
            if slow || (expected > budget && depth > 1) {
                continue;
            }
            let a = strata::with_game!(&mut ours, g => perft(g, depth));
            let b = strata::with_game!(&mut theirs, g => perft(g, depth));
            assert_eq!(
                (a, b),
                (expected, expected),
                "{} '{}' perft {depth}: file {a}, built-in {b}, suite {expected}",
                twin.name(),
                case.id
            );
            checked += 1;
        }
    }
    assert!(checked >= suite.cases.len(), "{checked} counts checked");
}

#[test]
fn chess_from_a_file_has_the_perft_of_chess() {
    same_perft_as_builtin("chess.perft", load("chess-data.toml"), 1_000_000);
}

#[test]
fn polyhedron_from_a_file_has_the_perft_of_polyhedron() {
    same_perft_as_builtin("polyhedron.perft", load("polyhedron-data.toml"), 1_000_000);
}

#[test]
#[ignore = "deep: every fast count of both suites through the file-defined variants (minutes)"]
fn file_variants_match_the_builtin_suites_deep() {
    same_perft_as_builtin("chess.perft", load("chess-data.toml"), u64::MAX);
    same_perft_as_builtin("polyhedron.perft", load("polyhedron-data.toml"), u64::MAX);
}

/// The published chess perft numbers (Chess Programming Wiki) from the file-defined chess.
#[test]
fn chess_from_a_file_gives_the_published_numbers() {
    let v = load("chess-data.toml");
    let mut g = AnyGame::startpos(v);
    let start: Vec<u64> = (1..=4)
        .map(|d| strata::with_game!(&mut g, p => perft(p, d)))
        .collect();
    assert_eq!(start, [20, 400, 8902, 197281]);
    let mut kiwipete = AnyGame::from_fen(
        v,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    )
    .unwrap();
    let k: Vec<u64> = (1..=3)
        .map(|d| strata::with_game!(&mut kiwipete, p => perft(p, d)))
        .collect();
    assert_eq!(k, [48, 2039, 97862]);
}

/// Every shipped file loads, names its source, and its start position is sound; the
/// variants in `variants/` are one a file, named after it.
#[test]
fn every_shipped_file_loads() {
    let mut n = 0;
    for entry in std::fs::read_dir(root().join("variants")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|x| x != "toml") {
            continue;
        }
        let loaded = defined::load_file(&path.to_string_lossy(), strata::eval::nnue::check_net)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(loaded.len(), 1, "{}", path.display());
        let v = loaded[0];
        assert_eq!(
            v.name(),
            path.file_stem().unwrap().to_string_lossy(),
            "the file is named after its variant"
        );
        let Variant::Defined(d) = v else {
            panic!("a file variant")
        };
        assert!(!d.0.source.is_empty(), "{}: no source", path.display());
        let mut g = AnyGame::startpos(v);
        common::check_position(&mut g);
        assert!(g.count_moves() > 0);
        n += 1;
    }
    assert!(n >= 5, "{n} variant files");
}

/// Random games in every shipped variant keep every invariant (keys, FEN round trip,
/// make/unmake, unique move names).
#[test]
fn random_games_keep_the_invariants() {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    use strata::rules::MoveList;
    let mut rng = StdRng::seed_from_u64(18);
    for file in [
        "chess-data.toml",
        "polyhedron-data.toml",
        "raumschach.toml",
        "millennium-3d.toml",
        "cubic-chess.toml",
    ] {
        let v = load(file);
        for _ in 0..4 {
            let mut g = AnyGame::startpos(v);
            for _ in 0..80 {
                common::check_position(&mut g);
                let mut list = MoveList::new();
                g.generate(&mut list);
                if list.is_empty() || g.outcome().is_some() {
                    break;
                }
                let m = list.as_slice()[rng.gen_range(0..list.len())];
                g.make(m);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Bad files.
// ---------------------------------------------------------------------------------------------

const GOOD: &str = r#"[[variant]]
name = "tiny"
source = "a test"
board = { files = 3, ranks = 3, levels = 2 }
start = "k2/3/3|3/3/2K w 0 1"

[[variant.piece]]
letter = "K"
name = "King"
royal = true
moves = [{ step = "all" }]
"#;

/// The error for `text`, which must be refused.
fn refused(text: &str) -> FileError {
    match defined::load_text("bad.toml", text, strata::eval::nnue::check_net) {
        Ok(v) => panic!("accepted: {:?}\n{text}", v),
        Err(e) => e,
    }
}

/// `GOOD` with `from` replaced by `to`.
fn with(from: &str, to: &str) -> String {
    assert!(GOOD.contains(from), "{from}");
    GOOD.replacen(from, to, 1)
}

#[test]
fn the_good_file_loads() {
    let v = defined::load_text("good.toml", GOOD, strata::eval::nnue::check_net).unwrap()[0];
    assert_eq!(v.name(), "tiny");
    assert_eq!(Variant::from_name("tiny"), Some(v));
    assert_eq!(AnyGame::startpos(v).count_moves(), 5);
}

#[test]
fn each_kind_of_mistake_is_named_with_its_line() {
    // (what is changed, the line the error must name, words the message must hold)
    let cases: Vec<(String, usize, &str)> = vec![
        // TOML syntax.
        (with("name = \"tiny\"", "name = \"tiny"), 2, "string"),
        // An unknown key (a typo).
        (with("royal = true", "roayl = true"), 10, "unknown field"),
        // A value of the wrong type.
        (with("files = 3,", "files = \"3\","), 4, "invalid type"),
        // A required part missing.
        (with("start = \"k2/3/3|3/3/2K w 0 1\"\n", ""), 1, "start"),
        // A bad name.
        (
            with("name = \"tiny\"", "name = \"Tiny Chess\""),
            2,
            "lower-case",
        ),
        // A built-in name.
        (with("name = \"tiny\"", "name = \"chess\""), 2, "built-in"),
        // A board too large.
        (
            with(
                "files = 3, ranks = 3, levels = 2",
                "files = 20, ranks = 20, levels = 2",
            ),
            4,
            "most",
        ),
        // An unknown direction class.
        (
            with("step = \"all\"", "step = \"sideways\""),
            11,
            "direction class",
        ),
        // A move with two atoms.
        (
            with("step = \"all\"", "step = \"all\", leap = [1, 2, 0]"),
            11,
            "exactly one",
        ),
        // A two-letter piece.
        (
            with("letter = \"K\"", "letter = \"KK\""),
            8,
            "one upper-case letter",
        ),
        // No royal piece.
        (with("royal = true", "royal = false"), 2, "royal"),
        // A start position the board does not hold.
        (with("k2/3/3|3/3/2K", "k2/3/3|3/3/3K"), 5, "start position"),
        // A start position with an unknown piece.
        (with("k2/3/3|3/3/2K", "k2/3/3|3/3/2X"), 5, "unknown piece"),
        // The side not to move in check.
        (with("k2/3/3|3/3/2K w", "k2/3/3|1K1/3/3 w"), 5, "in check"),
        // A bad goal.
        (with("start =", "goal = \"mate\"\nstart ="), 5, "goal"),
        // A promotion choice that is no piece.
        (
            format!("{GOOD}\n[variant.promotion]\nchoices = [\"Q\"]\n"),
            13,
            "promotion",
        ),
        // A castling cell off the board.
        (
            format!(
                "{GOOD}\n[[variant.castling]]\nletter = \"K\"\nking = \"Cc3\"\nrook = \"Aa1\"\nking_to = \"Ab1\"\nrook_to = \"Ac1\"\n"
            ),
            13,
            "castling",
        ),
    ];
    let mut wrong = Vec::new();
    for (text, line, words) in cases {
        let e = refused(&text);
        if e.line != Some(line)
            || !e.message.to_lowercase().contains(&words.to_lowercase())
            || !e.to_string().starts_with(&format!("bad.toml:{line}: "))
        {
            wrong.push(format!("expected line {line} and '{words}', got: {e}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// A file deep in long folders: its error still shows the line and the reason in a short
/// line, with the end of the path (the file's name).
#[test]
fn an_error_under_a_long_path_keeps_its_line_and_reason() {
    let path = format!("{}/bad.toml", "/a-rather-long-folder-name".repeat(20));
    let e = defined::load_text(
        &path,
        &with("step = \"all\"", "step = \"sideways\""),
        strata::eval::nnue::check_net,
    )
    .unwrap_err()
    .to_string();
    assert!(e.starts_with("..."), "{e}");
    assert!(e.contains("-folder-name/bad.toml:11: "), "{e}");
    assert!(e.contains("sideways"), "{e}");
    assert!(e.len() < 200, "{} characters: {e}", e.len());
}

#[test]
fn a_missing_file_and_a_refused_file_change_nothing() {
    let before = Variant::available();
    let e = defined::load_file("/nonexistent/variants.toml", strata::eval::nnue::check_net)
        .unwrap_err();
    assert!(e.message.contains("cannot read"), "{e}");
    refused(&with("name = \"tiny\"", "name = \"kept-out\"").replace("royal = true", ""));
    assert!(Variant::from_name("kept-out").is_none());
    // Other tests may load variants meanwhile, but none disappears.
    let after = Variant::available();
    assert!(before.iter().all(|v| after.contains(v)));
}

// ---------------------------------------------------------------------------------------------
// Through the protocol and the match runner.
// ---------------------------------------------------------------------------------------------

fn strata() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_strata"))
}

#[test]
fn variant_path_loads_lists_and_keeps_working_after_a_bad_file() {
    let bad = std::env::temp_dir().join(format!("strata-bad-{}.toml", std::process::id()));
    std::fs::write(&bad, with("step = \"all\"", "step = \"sideways\"")).unwrap();
    let file = root().join("variants/raumschach.toml");
    let mut e = common::engine::Engine::start(&strata().to_string_lossy());
    e.send(&format!(
        "setoption name VariantPath value {}",
        bad.display()
    ));
    e.send(&format!(
        "setoption name VariantPath value {}",
        file.display()
    ));
    e.send("uci");
    e.wait("uciok", |e| e.lines.iter().any(|l| l == "uciok"));
    e.send("setoption name UCI_Variant value raumschach");
    e.send("position startpos moves Bc2Cc2 Dc4Cc4");
    e.send("go perft 2");
    e.wait("perft", |e| {
        e.lines.iter().any(|l| l.starts_with("Nodes searched"))
    });
    e.send("go depth 3");
    e.await_bestmoves();
    let best = e.last_bestmove();
    let lines = e.finish(true);
    let text = lines.join("\n");
    assert!(
        lines.iter().any(|l| l.starts_with("info string error")
            && l.contains(":11: ")
            && l.contains("direction class")),
        "{text}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name UCI_Variant") && l.contains("var raumschach")),
        "{text}"
    );
    assert!(text.contains("Nodes searched: 3897"), "{text}");
    assert!(best.len() >= 6, "{best}");
    let _ = std::fs::remove_file(bad);
}

/// `strata variants` with the arguments `args`: its output's lines.
fn variants_listed(args: &[&str]) -> Vec<String> {
    let out = Command::new(strata()).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn strata_variants_lists_the_builtin_ones_then_those_of_the_files() {
    let builtin: Vec<String> = Variant::ALL.iter().map(|v| v.name().to_string()).collect();
    assert_eq!(variants_listed(&["variants"]), builtin);
    let file = root().join("variants/raumschach.toml");
    let file = file.to_string_lossy();
    let listed = variants_listed(&["--variant-file", &file, "variants"]);
    assert_eq!(listed[..builtin.len()], builtin[..]);
    assert_eq!(listed[builtin.len()..], ["raumschach".to_string()]);
    let verbose = variants_listed(&["variants", "--verbose", "--variant-file", &file]);
    assert_eq!(
        verbose[0],
        "chess title=\"Chess\" colours=2 levels=1 cells=64 bench-depth=11 from=built-in"
    );
    assert!(
        verbose[5]
            .starts_with("future-generation title=\"Chess – The Future Generation\" colours=4"),
        "{}",
        verbose[5]
    );
    // The file's path as it was loaded (made absolute).
    let last = verbose.last().unwrap();
    assert!(
        last.starts_with(
            "raumschach title=\"Raumschach\" colours=2 levels=5 cells=125 bench-depth=7 from=/"
        ) && last.ends_with("/variants/raumschach.toml"),
        "{last}"
    );
    // Every line starts with the name the short form gives.
    for (v, name) in verbose.iter().zip(&listed) {
        assert_eq!(v.split(' ').next(), Some(name.as_str()), "{v}");
    }
}

/// `strata --variant-file variants/raumschach.toml match` in Raumschach between strata (named
/// `a`) and `b_cmd` (named `b`), with `more` arguments and the games written to `pgn`.
fn raumschach_match(b_cmd: &Path, more: &[&str], pgn: &Path) -> std::process::Output {
    let exe = strata();
    Command::new(&exe)
        .arg("--variant-file")
        .arg(root().join("variants/raumschach.toml"))
        .args(["match", "-engine"])
        .arg(format!("cmd={}", exe.display()))
        .args(["name=a", "-engine"])
        .arg(format!("cmd={}", b_cmd.display()))
        .args(["name=b", "-variant", "raumschach"])
        .args(more)
        .arg("-pgnout")
        .arg(format!("file={}", pgn.display()))
        .output()
        .unwrap()
}

#[test]
fn a_file_variant_is_refereed_through_strata_match() {
    let dir = std::env::temp_dir().join(format!("strata-filematch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("games.pgn");
    let exe = strata();
    let out = raumschach_match(
        &exe,
        &[
            "-each",
            "tc=inf",
            "nodes=3000",
            "-rounds",
            "1",
            "-games",
            "2",
            "-openings",
            "random-plies=4",
            "seed=3",
            "-maxmoves",
            "60",
        ],
        &pgn,
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let games = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(
        games.matches("[Variant \"raumschach\"]").count(),
        2,
        "{games}"
    );
    assert!(!games.contains("illegal"), "{games}");
    // The PGN replays through the rules: every move is legal in the file-defined variant.
    load("raumschach.toml");
    for game in strata::runner::pgn::read_games(&games) {
        assert!(game.moves.len() >= 8, "{games}");
        game.replay().unwrap_or_else(|e| panic!("{e}: {games}"));
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// An engine that answers the runner's `VariantPath` or `UCI_Variant` with an error cannot
/// play the game (an older build that does not know a field of the file): the match stops
/// before any game with the engine's words, instead of counting its illegal moves as losses.
#[test]
fn an_engine_that_cannot_load_the_variant_file_is_refused_before_any_game() {
    let dir = std::env::temp_dir().join(format!("strata-filerefused-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let exe = strata();
    // strata behind a filter that points its VariantPath at a file that is not there.
    let fake = dir.join("old-build");
    common::write_script(
        &fake,
        &format!(
            "#!/usr/bin/env bash\n\
             sed -u 's#^setoption name VariantPath value .*#setoption name VariantPath value /nonexistent/v.toml#' \
             | '{}'\n",
            exe.display()
        ),
    );
    let pgn = dir.join("games.pgn");
    let out = raumschach_match(&fake, &["-each", "nodes=1000", "-games", "2"], &pgn);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stdout}\n{stderr}");
    assert!(
        stderr.contains(
            "engine 'b' cannot play this game: it answered 'setoption name VariantPath value "
        ) && stderr.contains("info string error"),
        "{stdout}\n{stderr}"
    );
    assert!(!stdout.contains("Finished game"), "{stdout}");
    let games = std::fs::read_to_string(&pgn).unwrap_or_default();
    assert!(!games.contains("[Variant"), "{games}");
    let _ = std::fs::remove_dir_all(dir);
}

/// Holes end slides; a slide's range limits it; capturing the royal piece ends a game whose
/// goal is royal capture.
#[test]
fn holes_ranges_and_royal_capture() {
    let king = "[[variant.piece]]\nletter = \"K\"\nname = \"King\"\nroyal = true\nmoves = [{ step = \"all\" }]\n";
    let holed = format!(
        "[[variant]]\nname = \"holed\"\nsource = \"a test\"\n\
         board = {{ files = 3, ranks = 3, holes = [\"b2\"] }}\n\
         start = \"2k/R1/K2 w 0 1\"\n{king}\
         [[variant.piece]]\nletter = \"R\"\nname = \"Rook\"\nmoves = [{{ slide = \"orthogonal\" }}]\n"
    );
    let v = defined::load_text("holed.toml", &holed, strata::eval::nnue::check_net).unwrap()[0];
    assert_eq!(v.layout().cells.len(), 8);
    let g = AnyGame::startpos(v);
    let names = |g: &AnyGame| -> Vec<String> {
        let mut l = strata::rules::MoveList::new();
        g.generate(&mut l);
        let mut n: Vec<String> = l.iter().map(|&m| g.move_name(m)).collect();
        n.sort();
        n
    };
    // The Rook on a2 cannot pass the hole b2; the King cannot step into it.
    assert_eq!(names(&g), ["a1b1", "a2a3"]);

    for (range, expected) in [
        (2, vec!["a1b1", "c1b1", "c1d1", "c1e1"]),
        (1, vec!["a1b1", "c1b1", "c1d1"]),
    ] {
        let text = format!(
            "[[variant]]\nname = \"ranged-{range}\"\nsource = \"a test\"\n\
             board = {{ files = 5, ranks = 1 }}\ngoal = \"royal-capture\"\n\
             start = \"K1R1k w 0 1\"\n{king}\
             [[variant.piece]]\nletter = \"R\"\nname = \"Rook\"\nmoves = [{{ slide = \"orthogonal\", range = {range} }}]\n"
        );
        let v = defined::load_text("ranged.toml", &text, strata::eval::nnue::check_net).unwrap()[0];
        let mut g = AnyGame::startpos(v);
        assert_eq!(names(&g), expected, "range {range}");
        if range == 2 {
            let mv = g.parse_move("c1e1").unwrap();
            g.make(mv);
            assert_eq!(
                g.outcome(),
                Some(strata::rules::GameEnd::Win {
                    winner: 0,
                    reason: "royal piece captured"
                })
            );
            assert_eq!(g.count_moves(), 0);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Issue 70: texts that would break a protocol line, panics, unbounded loading, reserve
// counts, repeated moves.
// ---------------------------------------------------------------------------------------------

// Reserve counts.

fn polyhedron_fen_with_reserve(white: &str) -> String {
    let start = load("polyhedron-data.toml").start_fen().to_string();
    start.replace("[]", &format!("[{white}]"))
}

/// Reserve counts are wide enough for any position a FEN may give, and a FEN giving a side
/// more pieces than the board has cells is refused in words (256 Queens read back as 0).
#[test]
fn reserve_counts_are_bounded_and_round_trip() {
    let v = load("polyhedron-data.toml");
    let e = AnyGame::from_fen(v, &polyhedron_fen_with_reserve(&"Q".repeat(256))).unwrap_err();
    assert!(
        e.contains("more pieces on the board and in reserve together than the board has cells"),
        "{e}"
    );
    // 74 pieces on the board and 226 in reserve: 300, the board's cells.
    let fen = polyhedron_fen_with_reserve(&format!("{}{}", "Q".repeat(200), "R".repeat(26)));
    let mut g = AnyGame::from_fen(v, &fen).unwrap_or_else(|e| panic!("{e}"));
    common::check_position(&mut g);
    assert_eq!(
        g.in_hand(strata::rules::piece::Colour::WHITE),
        [(3, 26), (4, 200)]
    );
    let back = AnyGame::from_fen(v, &g.fen()).unwrap();
    assert_eq!(back.key(), g.key());
    let e = AnyGame::from_fen(v, &polyhedron_fen_with_reserve(&"Q".repeat(227))).unwrap_err();
    assert!(e.contains("300"), "{e}");
}

/// From a FEN at the bound (every piece a side may have), games keep every FEN readable and
/// every key equal to the key of its re-read FEN: moves never add to a side's pieces.
#[test]
fn games_from_a_full_reserve_keep_their_fens_readable() {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    use strata::rules::MoveList;
    let text = "[[variant]]\nname = \"full-reserve\"\nsource = \"a test\"\n\
        board = { files = 4, ranks = 4 }\n\
        start = \"rnk1/pppp/PPPP/RNK1[RRRRRRRRRnnnnnnnnn] w 0 1\"\n\
        [[variant.piece]]\nletter = \"K\"\nname = \"King\"\nroyal = true\nmoves = [{ step = \"all\" }]\n\
        [[variant.piece]]\nletter = \"R\"\nname = \"Rook\"\nmoves = [{ slide = \"orthogonal\" }]\n\
        [[variant.piece]]\nletter = \"N\"\nname = \"Knight\"\nmoves = [{ leap = [1, 2, 0] }]\n\
        [[variant.piece]]\nletter = \"P\"\nname = \"Pawn\"\npawn = true\nmoves = [\n\
        { step = \"orthogonal\", forward = true, only = \"move\" },\n\
        { step = \"diagonal\", forward = true, only = \"capture\" },\n]\n\
        [variant.promotion]\nchoices = \"captured\"\n";
    let v = defined::load_text("full.toml", text, strata::eval::nnue::check_net)
        .unwrap_or_else(|e| panic!("{e}"))[0];
    // 7 on the board and 9 in reserve: the 16 cells. One more is refused.
    let over = AnyGame::from_fen(v, "rnk1/pppp/PPPP/RNK1[RRRRRRRRRRnnnnnnnnn] w 0 1");
    assert!(over.is_err());
    let mut rng = StdRng::seed_from_u64(70);
    for _ in 0..40 {
        let mut g = AnyGame::startpos(v);
        for _ in 0..60 {
            common::check_position(&mut g);
            let mut list = MoveList::new();
            g.generate(&mut list);
            if list.is_empty() || g.outcome().is_some() {
                break;
            }
            g.make(list.as_slice()[rng.gen_range(0..list.len())]);
        }
    }
}

// En passant.

/// A pawn that steps every way (found by the loader's fuzz test): a double step gives an
/// en passant right only when the cell passed names one pawn, so that every position reads
/// back from its FEN with the same pawn to take.
#[test]
fn en_passant_names_one_pawn() {
    let text = std::fs::read_to_string(root().join("variants/chess-data.toml"))
        .unwrap()
        .replacen("name = \"chess-data\"", "name = \"chess-any-step\"", 1)
        .replacen("moves = [\n", "moves = [{ step = \"all\" },\n", 1);
    let v = defined::load_text("any-step.toml", &text, strata::eval::nnue::check_net)
        .unwrap_or_else(|e| panic!("{e}"))[0];
    let play = |fen: Option<&str>, mv: &str| -> AnyGame {
        let mut g = match fen {
            None => AnyGame::startpos(v),
            Some(f) => AnyGame::from_fen(v, f).unwrap(),
        };
        let m = g.parse_move(mv).unwrap();
        g.make(m);
        common::check_position(&mut g);
        g
    };
    // Only the a-pawn can have passed a3: the right stands (the b2 pawn is not its pawn).
    assert!(play(None, "a2a4").fen().contains(" a3 "));
    // c3 passed by c2-c4, or by b2-d4 (a diagonal double step): no right.
    let g = play(
        Some("rnbqkbnr/pppppppp/8/8/3P4/8/P1P1PPPP/RNBQKBNR w KQkq - 0 1"),
        "c2c4",
    );
    assert!(g.fen().contains(" KQkq - "), "{}", g.fen());
}

// Repeated moves.

/// Chess from a file whose pieces list their moves more than once (the same pawn step,
/// slides along one direction with overlapping ranges, the same leap, the same promotion
/// choice) has the perft of chess: no move is generated twice (perft 1 was 28).
#[test]
fn repeated_moves_are_generated_once() {
    let text = std::fs::read_to_string(root().join("variants/chess-data.toml")).unwrap();
    let repeat = |t: &str, from: &str, to: &str| -> String {
        assert!(t.contains(from), "{from}");
        t.replacen(from, to, 1)
    };
    let mut t = repeat(&text, "name = \"chess-data\"", "name = \"chess-repeated\"");
    t = repeat(
        &t,
        "  { step = \"orthogonal\", forward = true, only = \"move\" },\n",
        "  { step = \"orthogonal\", forward = true, only = \"move\" },\n  \
         { step = \"orthogonal\", forward = true, only = \"move\" },\n  \
         { step = [[0, 1, 0], \"orthogonal\"], forward = true, only = \"move\" },\n",
    );
    t = repeat(
        &t,
        "moves = [{ leap = [1, 2, 0] }]",
        "moves = [{ leap = [1, 2, 0] }, { leap = [[2, 1, 0], [0, 2, 1]] }, { leap = [1, 2, 0], only = \"capture\" }]",
    );
    t = repeat(
        &t,
        "moves = [{ slide = \"diagonal\" }]",
        "moves = [{ slide = \"diagonal\", range = 3 }, { slide = \"diagonal\" }, { slide = \"diagonal\", range = 2, only = \"move\" }, { step = \"diagonal\" }]",
    );
    t = repeat(
        &t,
        "moves = [{ slide = \"orthogonal\" }]",
        "moves = [{ slide = \"orthogonal\", only = \"move\" }, { slide = \"orthogonal\", range = 8, only = \"capture\" }, { slide = \"orthogonal\", range = 3 }]",
    );
    t = repeat(
        &t,
        "moves = [{ slide = [\"orthogonal\", \"diagonal\"] }]",
        "moves = [{ slide = \"all\" }, { slide = [\"orthogonal\", \"diagonal\", \"orthogonal\"] }]",
    );
    t = repeat(
        &t,
        "moves = [{ step = [\"orthogonal\", \"diagonal\"] }]",
        "moves = [{ step = [\"orthogonal\", \"diagonal\"] }, { step = \"all\" }, { slide = \"all\", range = 1 }]",
    );
    t = repeat(
        &t,
        "choices = [\"Q\", \"R\", \"B\", \"N\"]",
        "choices = [\"Q\", \"R\", \"Q\", \"B\", \"N\", \"n\"]",
    );
    t = repeat(&t, "double_step_ranks = [2]", "double_step_ranks = [2, 2]");
    let repeated = defined::load_text("repeated.toml", &t, strata::eval::nnue::check_net)
        .unwrap_or_else(|e| panic!("{e}"))[0];
    let original = load("chess-data.toml");
    for fen in [
        None,
        Some("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
        Some("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
        Some("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"),
    ] {
        let mut counts = Vec::new();
        for v in [repeated, original] {
            let mut g = match fen {
                None => AnyGame::startpos(v),
                Some(f) => AnyGame::from_fen(v, f).unwrap(),
            };
            counts.push(
                (1..=3)
                    .map(|d| strata::with_game!(&mut g, p => perft(p, d)))
                    .collect::<Vec<u64>>(),
            );
        }
        assert_eq!(counts[0], counts[1], "{fen:?}: repeated, original");
    }
}

// Loading: texts, panics, bounds, the registry.

/// A temporary file holding `text`, named after `name` and this process (the test removes
/// it).
fn temp_file(name: &str, text: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("strata-vf-{}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

/// The lines an in-process engine prints for one protocol line.
fn engine_answer(line: &str) -> Vec<String> {
    use std::sync::Arc;
    use strata::protocol::{Captured, Engine};
    let out = Arc::new(Captured::default());
    let mut engine = Engine::new(out.clone());
    engine.handle_line(line);
    out.take()
}

/// A string, a title, a piece name, a start position, a hole... holding a line break or a
/// control character is refused when the file is read, with its line, so that no text of a
/// file can ever become a protocol line of its own (`readyok`, `bestmove a1a1`).
#[test]
fn texts_that_would_break_a_protocol_line_are_refused_with_their_line() {
    let holed = GOOD.replace("levels = 2 }", "levels = 2, holes = [\"Bb2\"] }");
    let castle = format!(
        "{GOOD}\n[[variant.castling]]\nletter = \"K\"\nking = \"Ac1\"\nrook = \"Aa1\"\nking_to = \"Ab1\"\nrook_to = \"Ac1\"\n"
    );
    let forged = "\\nreadyok\\nbestmove a1a1";
    // (the file, the line the error must name)
    let cases: Vec<(String, usize)> = vec![
        (
            with("name = \"tiny\"", &format!("name = \"tiny{forged}\"")),
            2,
        ),
        (
            with("source = \"a test\"", &format!("source = \"a{forged}\"")),
            3,
        ),
        (
            with(
                "source = \"a test\"",
                &format!("source = \"a\"\ntitle = \"T{forged}\""),
            ),
            4,
        ),
        (with("source = \"a test\"", "source = \"a\\r\""), 3),
        (with("source = \"a test\"", "source = \"a\\u001b[31m\""), 3),
        (with("source = \"a test\"", "source = \"a\\u2028b\""), 3),
        (with("source = \"a test\"", "source = \"a\\u0085b\""), 3),
        (with("source = \"a test\"", "source = \"a\\tb\""), 3),
        (
            with("name = \"King\"", &format!("name = \"King{forged}\"")),
            9,
        ),
        (with("2K w 0 1\"", &format!("2K w 0 1{forged}\"")), 5),
        (with("k2/3/3|", "k2/3/3\\n|"), 5),
        (holed.replace("\"Bb2\"", "\"Bb2\\n\""), 4),
        (with("letter = \"K\"", "letter = \"K\\n\""), 8),
        (with("step = \"all\"", "step = \"all\\n\""), 11),
        (
            with("step = \"all\"", "step = \"all\", only = \"move\\n\""),
            11,
        ),
        (with("start =", "goal = \"checkmate\\n\"\nstart ="), 5),
        (
            castle.replace("king_to = \"Ab1\"", "king_to = \"Ab1\\nreadyok\""),
            13,
        ),
    ];
    let mut wrong = Vec::new();
    for (text, line) in &cases {
        let e = refused(text);
        let shown = e.to_string();
        let about_it = e.message.contains("line break") || e.message.contains("control character");
        if e.line != Some(*line)
            || !about_it
            || shown.chars().any(strata::protocol::line::is_forbidden)
        {
            wrong.push(format!(
                "expected line {line} and a refused character, got: {shown:?}"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Through the engine: a file whose texts hold forged protocol lines is answered with one
/// line, an error, and prints none of them.
#[test]
fn variant_path_with_forged_lines_answers_one_error_line() {
    for (i, (from, to)) in [
        (
            "source = \"a test\"",
            "title = \"Tiny\\nreadyok\\nbestmove a1a1\"\nsource = \"a\"",
        ),
        ("source = \"a test\"", "source = \"a\\r\\nreadyok\""),
        ("name = \"King\"", "name = \"King\\nbestmove a1a1\""),
        ("2K w 0 1\"", "2K w 0 1\\nreadyok\""),
    ]
    .into_iter()
    .enumerate()
    {
        let text = with(from, to).replace("\"tiny\"", &format!("\"forged-{i}\""));
        let path = temp_file(&format!("forged-{i}.toml"), &text);
        let printed = engine_answer(&format!(
            "setoption name VariantPath value {}",
            path.display()
        ));
        assert_eq!(printed.len(), 1, "{to}: {printed:?}");
        assert!(
            printed[0].starts_with("info string error"),
            "{to}: {printed:?}"
        );
        assert!(Variant::from_name(&format!("forged-{i}")).is_none());
        let _ = std::fs::remove_file(path);
    }
}

/// A King alone in two corners of a flat board of `files` x `ranks` less `holes` (never
/// `a1` or the top right corner).
fn flat(name: &str, files: usize, ranks: usize, holes: &[&str]) -> String {
    let rows: Vec<String> = (1..=ranks)
        .rev()
        .map(|rank| {
            let gone = holes
                .iter()
                .filter(|h| h[1..].parse::<usize>() == Ok(rank))
                .count();
            let mut width = files - gone;
            let mut row = String::new();
            if rank == 1 {
                row.push('K');
                width -= 1;
            }
            if rank == ranks {
                width -= 1;
            }
            if width > 0 {
                row.push_str(&width.to_string());
            }
            if rank == ranks {
                row.push('k');
            }
            row
        })
        .collect();
    let holes: Vec<String> = holes.iter().map(|h| format!("\"{h}\"")).collect();
    format!(
        "[[variant]]\nname = \"{name}\"\nsource = \"a test\"\n\
         board = {{ files = {files}, ranks = {ranks}, holes = [{}] }}\n\
         start = \"{} w 0 1\"\n\
         [[variant.piece]]\nletter = \"K\"\nname = \"King\"\nroyal = true\nmoves = [{{ step = \"all\" }}]\n",
        holes.join(", "),
        rows.join("/")
    )
}

/// Boards too large before their holes are taken out, repeated holes, huge vector and leap
/// components, castling onto one cell, ranks past 99: each is refused or loaded, and
/// nothing panics ("geometry has more cells than its bitset width").
#[test]
fn boards_holes_and_numbers_never_panic() {
    // 18 x 18 = 324 cells less 4 holes: 320, the most a board may have.
    let v = defined::load_text(
        "big.toml",
        &flat("big-holed", 18, 18, &["b2", "c3", "d4", "e5"]),
        strata::eval::nnue::check_net,
    )
    .unwrap_or_else(|e| panic!("{e}"))[0];
    assert_eq!(v.layout().cells.len(), 320);
    // The King on a1 cannot step into the hole b2.
    assert_eq!(AnyGame::startpos(v).count_moves(), 2);
    // Repeated holes are refused, not counted again.
    let e = refused(&flat("big-repeat", 18, 18, &["b2", "b2", "b2", "b2"]));
    assert!(
        e.message.contains("given twice") && e.line == Some(4),
        "{e}"
    );
    // Three holes leave 321 cells.
    let e = refused(&flat("big-321", 18, 18, &["b2", "c3", "d4"]));
    assert!(e.message.contains("321 cells"), "{e}");
    let e = refused(&flat("big-26", 26, 99, &["b2"]));
    assert!(e.message.contains("2573 cells"), "{e}");
    // Components that overflow when negated, or wrap when narrowed.
    for (from, to, words) in [
        (
            "step = \"all\"",
            "step = [[-2147483648, 0, 0]]",
            "components -1, 0 or 1",
        ),
        (
            "step = \"all\"",
            "slide = [[256, 0, 0]]",
            "components -1, 0 or 1",
        ),
        (
            "step = \"all\"",
            "leap = [-2147483648, 1, 2]",
            "components from -15 to 15",
        ),
        (
            "step = \"all\"",
            "leap = [256, 0, 0]",
            "components from -15 to 15",
        ),
        ("step = \"all\"", "slide = \"all\", range = 4294967295", ""),
    ] {
        let text = with(from, to);
        match defined::compile_text("bad.toml", &text, strata::eval::nnue::check_net) {
            Ok(_) => assert!(words.is_empty(), "{to} accepted"),
            Err(e) => assert!(
                !words.is_empty() && e.message.contains(words) && e.line == Some(11),
                "{to}: {e}"
            ),
        }
    }
    // Ranks named with three digits, a level of holes only, a King and Rook castling onto
    // one cell.
    let level = |ranks: &str| {
        GOOD.replace(
            "board = { files = 3, ranks = 3, levels = 2 }",
            &format!("board = {{ level = [{{ files = \"a-c\", ranks = \"{ranks}\" }}, {{ files = \"a-c\", ranks = \"1-3\" }}] }}"),
        )
    };
    for ranks in ["1-100", "1-127", "0-3", "1-128"] {
        let e = refused(&level(ranks));
        assert!(e.message.contains("ranks"), "{ranks}: {e}");
    }
    let e = refused(&GOOD.replace(
        "levels = 2 }",
        "levels = 2, holes = [\"Aa1\", \"Ab1\", \"Ac1\", \"Aa2\", \"Ab2\", \"Ac2\", \"Aa3\", \"Ab3\", \"Ac3\"] }",
    ));
    assert!(e.message.contains("level A has no cells"), "{e}");
    let e = refused(&format!(
        "{GOOD}\n[[variant.castling]]\nletter = \"K\"\nking = \"Ac1\"\nrook = \"Aa1\"\nking_to = \"Ab1\"\nrook_to = \"Ab1\"\n"
    ));
    assert!(
        e.message.contains("different cells") && e.line == Some(13),
        "{e}"
    );
    let e = refused(&with("board =", "forward = [\"y\", \"-y\"]\nboard ="));
    assert!(e.message.contains("given twice"), "{e}");
}

#[cfg(unix)]
#[test]
fn only_regular_files_are_read_and_at_once() {
    use std::time::{Duration, Instant};
    let dir = std::env::temp_dir().join(format!("strata-vf-{}-fifo", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("variants.fifo");
    let _ = std::fs::remove_file(&fifo);
    let c = std::ffi::CString::new(fifo.to_string_lossy().as_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let started = Instant::now();
    for path in [
        fifo.to_string_lossy().to_string(),
        "/dev/zero".to_string(),
        dir.to_string_lossy().to_string(),
    ] {
        let e = defined::load_file(&path, strata::eval::nnue::check_net).unwrap_err();
        assert!(e.message.contains("not a regular file"), "{e}");
        // The same through the engine: one line, an error.
        let printed = engine_answer(&format!("setoption name VariantPath value {path}"));
        assert_eq!(printed.len(), 1, "{printed:?}");
        assert!(printed[0].starts_with("info string error"), "{printed:?}");
    }
    // Generous: a hang detector, not a speed test.
    assert!(started.elapsed() < Duration::from_secs(30));
    let _ = std::fs::remove_dir_all(dir);
}

/// A file longer than the limit is refused without reading it whole; a file defining too
/// many variants, a piece with too many moves, a move with too many leaps are refused with
/// their line.
#[test]
fn file_size_and_compile_work_are_bounded() {
    use defined::limits::{
        MAX_ATOM_ITEMS, MAX_FILE_BYTES, MAX_MOVES_PER_PIECE, MAX_PIECE_VECTORS,
        MAX_VARIANTS_PER_FILE,
    };
    let big = temp_file("big.toml", &format!("{GOOD}{}", "#".repeat(MAX_FILE_BYTES)));
    let e = defined::load_file(&big.to_string_lossy(), strata::eval::nnue::check_net).unwrap_err();
    let _ = std::fs::remove_file(&big);
    assert!(
        e.message.contains("more than a variant file may have"),
        "{e}"
    );
    let e = defined::compile_text(
        "big.toml",
        &format!("{GOOD}{}", "#".repeat(MAX_FILE_BYTES)),
        strata::eval::nnue::check_net,
    )
    .err()
    .unwrap();
    assert!(
        e.message.contains("more than a variant file may have"),
        "{e}"
    );

    let many: String = (0..=MAX_VARIANTS_PER_FILE)
        .map(|i| with("name = \"tiny\"", &format!("name = \"tiny-{i}\"")))
        .collect();
    let e = refused(&many);
    let lines_per_variant = GOOD.lines().count();
    assert_eq!(
        e.line,
        Some(MAX_VARIANTS_PER_FILE * lines_per_variant + 1),
        "{e}"
    );
    assert!(e.message.contains("at most"), "{e}");

    let moves = vec!["{ step = \"all\" }"; MAX_MOVES_PER_PIECE + 1].join(", ");
    let e = refused(&with(
        "moves = [{ step = \"all\" }]",
        &format!("moves = [{moves}]"),
    ));
    assert!(
        e.message.contains("entries in `moves`") && e.line == Some(7),
        "{e}"
    );

    // 20 000 leap triples (263 KB) were 13 s of compiling; now the first atom over the
    // bound is refused at once.
    let triples = vec!["[1, 2, 3]"; MAX_ATOM_ITEMS + 1].join(", ");
    let e = refused(&with("step = \"all\"", &format!("leap = [{triples}]")));
    assert!(e.message.contains("at most") && e.line == Some(11), "{e}");
    let e = refused(&with(
        "step = \"all\"",
        &format!(
            "step = [{}]",
            vec!["\"all\""; MAX_ATOM_ITEMS + 1].join(", ")
        ),
    ));
    assert!(e.message.contains("at most") && e.line == Some(11), "{e}");

    // Distinct vectors of one piece: 6 moves of 32 triples each, all different.
    let mut triples =
        (1..=15).flat_map(|a| (a..=15).flat_map(move |b| (b..=15).map(move |c| [a, b, c])));
    let moves: Vec<String> = (0..6)
        .map(|_| {
            let t: Vec<String> = triples
                .by_ref()
                .take(MAX_ATOM_ITEMS)
                .map(|t| format!("{t:?}"))
                .collect();
            format!("{{ leap = [{}] }}", t.join(", "))
        })
        .collect();
    let e = refused(&with(
        "moves = [{ step = \"all\" }]",
        &format!("moves = [{{ step = \"all\" }}, {}]", moves.join(", ")),
    ));
    assert!(
        e.message
            .contains(&format!("more than {MAX_PIECE_VECTORS} distinct")),
        "{e}"
    );
}

/// Loading the same text from the same path again gives the very same variants (nothing is
/// compiled or leaked again), and they become the newest under their names again.
#[test]
fn loading_a_file_again_reuses_its_variants() {
    let a = with("name = \"tiny\"", "name = \"reloaded\"");
    let b = with("name = \"tiny\"", "name = \"reloaded\"").replace("a test", "another test");
    let first = defined::load_text("reload-a.toml", &a, strata::eval::nnue::check_net).unwrap()[0];
    let count = defined::loaded_count();
    let again = defined::load_text("reload-a.toml", &a, strata::eval::nnue::check_net).unwrap()[0];
    assert_eq!(first, again, "the same rules, not a new copy");
    let other = defined::load_text("reload-b.toml", &b, strata::eval::nnue::check_net).unwrap()[0];
    assert_ne!(first, other);
    assert_eq!(Variant::from_name("reloaded"), Some(other));
    assert_eq!(
        defined::load_text("reload-a.toml", &a, strata::eval::nnue::check_net).unwrap()[0],
        first
    );
    assert_eq!(
        Variant::from_name("reloaded"),
        Some(first),
        "the newest again"
    );
    // Other tests load meanwhile, but this one added exactly one variant (b) since.
    assert!(defined::loaded_count() > count);
    let via_file = temp_file("reloaded.toml", &a);
    let f1 =
        defined::load_file(&via_file.to_string_lossy(), strata::eval::nnue::check_net).unwrap()[0];
    let f2 =
        defined::load_file(&via_file.to_string_lossy(), strata::eval::nnue::check_net).unwrap()[0];
    let _ = std::fs::remove_file(via_file);
    assert_eq!(f1, f2);
}

/// One process holds a bounded number of file variants: beyond it a new file is refused
/// with a clear message, the variants loaded stay, and a file loaded before still loads.
/// (In a child process, so that this test's registry stays small.)
#[test]
fn the_number_of_loaded_variants_is_bounded() {
    use defined::limits::MAX_LOADED_VARIANTS;
    let mut e = common::engine::Engine::start("cap");
    let mut paths = Vec::new();
    for i in 0..=MAX_LOADED_VARIANTS {
        let text = with("name = \"tiny\"", &format!("name = \"cap-{i}\""));
        let path = temp_file(&format!("cap-{i}.toml"), &text);
        e.send(&format!(
            "setoption name VariantPath value {}",
            path.display()
        ));
        paths.push(path);
    }
    e.send(&format!(
        "setoption name VariantPath value {}",
        paths[0].display()
    ));
    e.send("setoption name UCI_Variant value cap-0");
    e.send("go perft 1");
    e.wait("perft", |e| {
        e.lines.iter().any(|l| l.starts_with("Nodes searched"))
    });
    let lines = e.finish(true);
    for p in paths {
        let _ = std::fs::remove_file(p);
    }
    let loaded = lines
        .iter()
        .filter(|l| l.starts_with("info string variants loaded"))
        .count();
    let refusals: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string error"))
        .collect();
    assert_eq!(loaded, MAX_LOADED_VARIANTS + 1, "{lines:#?}");
    assert_eq!(refusals.len(), 1, "{lines:#?}");
    assert!(
        refusals[0].contains(&format!("at most {MAX_LOADED_VARIANTS}"))
            && refusals[0].contains(&format!("cap-{MAX_LOADED_VARIANTS}.toml")),
        "{}",
        refusals[0]
    );
    assert!(
        lines.contains(&"Nodes searched: 5".to_string()),
        "{lines:#?}"
    );
}

/// Loading one file many times does not make the engine grow: 200 loads of Polyhedron from
/// a file leaked about 200 copies of its tables before.
#[cfg(target_os = "linux")]
#[test]
fn loading_a_file_again_takes_no_memory() {
    let rss_kib = |pid: u32| -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|kb| kb.parse().ok())
            .unwrap()
    };
    let file = root().join("variants/polyhedron-data.toml");
    let mut e = common::engine::Engine::start("reload memory");
    let load = format!("setoption name VariantPath value {}", file.display());
    e.send(&load);
    e.sync();
    let before = rss_kib(e.pid());
    for _ in 0..200 {
        e.send(&load);
    }
    e.sync();
    let after = rss_kib(e.pid());
    e.finish(true);
    let grown = after.saturating_sub(before);
    eprintln!("RSS {before} KiB after one load, {after} KiB after 200 more (+{grown} KiB)");
    // Generous (allocator slack); the leak was hundreds of KiB per load.
    assert!(grown < 8 * 1024, "RSS grew by {grown} KiB over 200 loads");
}
