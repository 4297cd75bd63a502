//! Readable notation (`docs/notation.md`, `strata::rules::notation`) in every variant, the
//! file-defined ones too: on the start position, every position of the variant's perft suite
//! (which has its special moves: castling, en passant, promotions, drops, shots, passes) and
//! positions along random games, every legal move has one readable name, no two moves share
//! one, and each name reads back to its move (with or without its check mark, and the
//! protocol name too). In chess, the names are those python-chess gives, when python-chess
//! is installed.

mod common;

use std::collections::HashSet;
use std::path::Path;
use std::process::Command;

use strata::rules::{Game, Variant, defined, notation};

/// The built-in variants and those of the files in `variants/`.
fn variants() -> Vec<Variant> {
    let mut all = Variant::ALL.to_vec();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("variants");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    for f in files {
        all.extend(
            defined::load_file(&f.to_string_lossy(), strata::eval::nnue::check_net)
                .unwrap_or_else(|e| panic!("{e}")),
        );
    }
    all
}

/// The name without its check or mate mark.
fn unmarked(name: &str) -> &str {
    name.trim_end_matches(['+', '#'])
}

#[test]
fn every_legal_move_has_one_readable_name_that_reads_back() {
    for v in variants() {
        let t0 = std::time::Instant::now();
        let mut seen_forms: HashSet<&str> = HashSet::new();
        let mut examples: Vec<String> = Vec::new();
        let positions = common::fuzz::positions(v, 71);
        for g in &positions {
            let named = notation::names(g);
            // Reading a move generates the legal moves, which costs on large boards in a
            // debug build: every name with a special sign (`=@*-#`) is read back,
            // and a spread of about 30 of the others.
            let step = (named.len() / 30).max(1);
            let mut names = HashSet::new();
            for (i, (mv, name)) in named.iter().enumerate() {
                let at = || format!("{}: {name} in {}", v.name(), g.fen());
                assert!(names.insert(name.clone()), "{}: two moves", at());
                if i % step == 0 || name.contains(['=', '@', '*', '-', '#']) {
                    assert_eq!(notation::read(g, name), Ok(*mv), "{}", at());
                    assert_eq!(notation::read(g, unmarked(name)), Ok(*mv), "{}", at());
                    assert_eq!(notation::read(g, &g.move_name(*mv)), Ok(*mv), "{}", at());
                }
                for (form, sign) in [
                    ("capture", "x"),
                    ("promotion", "="),
                    ("check", "+"),
                    ("win", "#"),
                    ("castling", "O-O"),
                    ("drop", "@"),
                    ("shot", "*"),
                    ("pass", "--"),
                ] {
                    if name.contains(sign) && seen_forms.insert(form) {
                        examples.push(name.clone());
                    }
                }
            }
            // One move named alone has the same name.
            if let Some((mv, name)) = named.last() {
                assert_eq!(&notation::name(g, *mv), name, "{}", v.name());
            }
        }
        // The variant's special moves were among them (its perft suite has them).
        let expected: &[&str] = match v.name() {
            "chess" => &["capture", "promotion", "check", "win", "castling"],
            "pole" => &["drop", "castling"],
            "polyhedron" => &["promotion", "win"],
            "pentaplane" => &["shot", "win"],
            "future-generation" => &["castling", "pass", "win"],
            _ => &["capture"],
        };
        for form in expected {
            assert!(seen_forms.contains(form), "{}: no {form} named", v.name());
        }
        eprintln!(
            "{}: {} positions in {:?}; e.g. {}",
            v.name(),
            positions.len(),
            t0.elapsed(),
            examples.join(" ")
        );
    }
}

/// Runs `script` with python3 and `args`; `None` (with the reason printed) where python3 or
/// python-chess is missing, so that the test skips. `.ci/run` installs python-chess.
fn python_chess(script: &str, args: &[&str]) -> Option<String> {
    match Command::new("python3")
        .arg("-c")
        .arg(script)
        .args(args)
        .output()
    {
        Ok(out) if out.status.success() => Some(String::from_utf8_lossy(&out.stdout).into()),
        Ok(out) => {
            let err = String::from_utf8_lossy(&out.stderr);
            if err.contains("No module named 'chess'") {
                eprintln!("python-chess is not installed (pip install chess): skipped");
                None
            } else {
                panic!("python-chess fails: {err}");
            }
        }
        Err(e) => {
            eprintln!("python3 cannot run ({e}): skipped");
            None
        }
    }
}

/// Every legal move of many chess positions (the start, the chess and Chess960 perft suites'
/// positions, which hold every special move, and random games) named as python-chess names
/// it: the same set of names in each position.
#[test]
fn chess_names_are_those_of_python_chess() {
    let mut text = String::new();
    for g in common::fuzz::positions(Variant::Chess, 960) {
        let names: Vec<String> = notation::names(&g).into_iter().map(|(_, n)| n).collect();
        text.push_str(&format!("{}\t{}\n", g.fen(), names.join(" ")));
    }
    let path = std::env::temp_dir().join(format!("strata-san-{}.txt", std::process::id()));
    std::fs::write(&path, &text).unwrap();
    // Chess960 castling rules read every castling right (Shredder-FEN or KQkq) as python-chess
    // names it; SAN is the same in both modes.
    let script = "import sys, chess\n\
                  n = 0\n\
                  for line in open(sys.argv[1]):\n\
                  \x20   fen, ours = line.rstrip('\\n').split('\\t')\n\
                  \x20   b = chess.Board(fen, chess960=True)\n\
                  \x20   theirs = sorted(b.san(m) for m in b.legal_moves)\n\
                  \x20   if theirs != sorted(ours.split()):\n\
                  \x20       print(fen, 'python-chess:', theirs, 'strata:', sorted(ours.split()))\n\
                  \x20   n += 1\n\
                  print(n, 'positions')\n";
    let out = python_chess(script, &[&path.to_string_lossy()]);
    let _ = std::fs::remove_file(&path);
    if let Some(out) = out {
        assert!(
            out.ends_with(" positions\n") && out.lines().count() == 1,
            "{out}"
        );
        eprintln!("python-chess agrees on {}", out.trim());
    }
}

/// The examples of `docs/notation.md` that start positions have, and Pole Chess's drop and
/// teleport.
#[test]
fn the_documented_examples_are_the_names_given() {
    let raumschach = defined::load_file(
        concat!(env!("CARGO_MANIFEST_DIR"), "/variants/raumschach.toml"),
        strata::eval::nnue::check_net,
    )
    .unwrap()[0];
    let pole = "rnbqkbnr/pppppppp/8/8/4O3/8/PPPPPPPP/RNBQKBNR[o] w KQkq - 0 1";
    let pole_in_hand = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Oo+] w KQkq - 0 1";
    for (v, fen, protocol, readable) in [
        (Variant::Pole, pole, "e4a6", "Oa6"),
        (Variant::Pole, pole_in_hand, "O@d5", "O@d5"),
        (Variant::Polyhedron, "", "Cc3Cc5", "Cc5"),
        (Variant::Polyhedron, "", "Bd2Cc4", "HBCc4"),
        (Variant::Podionic, "", "Cd2Dd1", "QDd1"),
        (Variant::Pentaplane, "", "Ca2Ca3", "Ca3"),
        (Variant::Pentaplane, "", "Ba1Ba2", "Ba1Ba2"),
        (Variant::FutureGeneration, "", "Ab1Ac3", "NAc3"),
        (raumschach, "", "Ab1Ac3", "NbAc3"),
        (raumschach, "", "Ba1Ca2", "B1Ca2"),
    ] {
        let fen = if fen.is_empty() { v.start_fen() } else { fen };
        let g = strata::rules::AnyGame::from_fen(v, fen).unwrap();
        let mv = g.parse_move(protocol).unwrap();
        assert_eq!(notation::name(&g, mv), readable, "{} {protocol}", v.name());
        assert_eq!(
            notation::read(&g, readable),
            Ok(mv),
            "{} {readable}",
            v.name()
        );
    }
}

/// Broken names (truncated, with odd characters, multi-byte ones among them, swapped) never
/// make the reader panic, and what it reads is a legal move.
#[test]
fn broken_names_are_refused_or_read_as_legal_moves() {
    let mut f = common::fuzz::Fuzzer::new(71);
    for v in Variant::ALL {
        for g in common::fuzz::positions(v, 5).iter().step_by(7) {
            let names: Vec<String> = notation::names(g).into_iter().map(|(_, n)| n).collect();
            if names.is_empty() {
                continue;
            }
            let mut legal = strata::rules::MoveList::new();
            g.generate(&mut legal);
            for _ in 0..40 {
                let name = f.pick(&names).clone();
                let text = f.mutate(&name, &names);
                if let Ok(mv) = notation::read(g, &text) {
                    assert!(legal.contains(mv), "{}: {text:?}", v.name());
                }
            }
        }
    }
}
