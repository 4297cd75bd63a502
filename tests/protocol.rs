//! The protocol as a GUI sees it: the built `strata` binary driven over stdin/stdout.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

/// Runs the engine on `input` (which should end with `quit`) and returns its stdout lines and
/// exit status. A line `#wait` is not sent: it waits until the engine has printed one more
/// `bestmove` than at the previous `#wait`; `#count` waits likewise for the end of one more
/// `go perft` or `bench` (their `Nodes searched:` or `total:` line), which `quit` and the end
/// of input would stop (a hang fails the test after a generous guard).
fn session(input: &str) -> (Vec<String>, std::process::ExitStatus) {
    session_of(Command::new(env!("CARGO_BIN_EXE_strata")), input)
}

/// [`session`] with the engine started by `command` (under a shell that limits it, say).
fn session_of(mut command: Command, input: &str) -> (Vec<String>, std::process::ExitStatus) {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the engine starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if tx.send(line.expect("utf-8 output")).is_err() {
                break;
            }
        }
    });
    let mut lines = Vec::new();
    let mut waits = 0;
    let mut counts = 0;
    for l in input.lines() {
        if l == "#wait" || l == "#count" {
            let (n, prefixes): (usize, &[&str]) = if l == "#wait" {
                waits += 1;
                (waits, &["bestmove"])
            } else {
                counts += 1;
                (counts, &["Nodes searched: ", "total: "])
            };
            while lines
                .iter()
                .filter(|x: &&String| prefixes.iter().any(|p| x.starts_with(p)))
                .count()
                < n
            {
                let line = rx
                    .recv_timeout(std::time::Duration::from_secs(120))
                    .expect("the engine answered with bestmove");
                lines.push(line);
            }
            continue;
        }
        if stdin.write_all(format!("{l}\n").as_bytes()).is_err() {
            break;
        }
    }
    drop(stdin);
    lines.extend(rx.iter());
    reader.join().expect("reader");
    (lines, child.wait().expect("exit status"))
}

fn errors(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info string error: "))
        .collect()
}

#[test]
fn handshake_lists_the_variants() {
    let (lines, status) = session("uci\nisready\nquit\n");
    assert!(status.success());
    assert!(lines[0].starts_with("id name strata "));
    assert!(lines.iter().any(|l| l == "id author the strata developers"));
    let variant = lines
        .iter()
        .find(|l| l.starts_with("option name UCI_Variant type combo default chess"))
        .expect("UCI_Variant option");
    assert!(variant.contains("var chess") && variant.contains("var pole"));
    let uciok = lines.iter().position(|l| l == "uciok").expect("uciok");
    assert_eq!(lines[uciok + 1], "readyok");
}

#[test]
fn variant_switch_position_moves_perft_and_display() {
    let (lines, status) = session(
        "setoption name UCI_Variant value pole\n\
         position startpos moves e2e4 d7d5 e4d5\n\
         go perft 2\n\
         #count\n\
         d\n\
         quit\n",
    );
    assert!(status.success());
    assert!(errors(&lines).is_empty(), "{lines:?}");
    let per_move: Vec<&String> = lines
        .iter()
        .take_while(|l| !l.is_empty())
        .filter(|l| {
            l.split_once(": ")
                .is_some_and(|(_, n)| n.parse::<u64>().is_ok())
        })
        .collect();
    assert_eq!(per_move.len(), 61, "one line per legal move");
    assert!(per_move.iter().any(|l| l.starts_with("O@e2: ")));
    assert!(lines.contains(&"Nodes searched: 3757".to_string()));
    assert!(lines.contains(
        &"Fen: rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR[Oo+] b KQkq - 0 2".to_string()
    ));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Key: ") && l.len() == 5 + 16)
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("| p | p | p |   | p | p | p | p | 7"))
    );
}

#[test]
fn bad_input_gets_one_error_line_each_and_changes_nothing() {
    let bad = [
        "frobnicate",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
        "position startpos moves e2e4 e7e5 e1e3",
        "position startpos moves e2e4 zz9",
        "setoption name UCI_Variant value checkers",
        "setoption name Colour value blue",
        "go depth banana",
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "\u{1}\u{2}\u{fffd}junk",
    ];
    let mut input = String::from("position startpos moves e2e4\n");
    for b in bad {
        input.push_str(b);
        input.push('\n');
    }
    input.push_str("d\nisready\nquit\n");
    let (lines, status) = session(&input);
    assert!(status.success());
    let errs = errors(&lines);
    assert_eq!(
        errs.len(),
        bad.len(),
        "one error line per bad command: {errs:#?}"
    );
    assert!(errs[0].contains("unknown command 'frobnicate'"));
    assert!(errs[1].contains("7 ranks"));
    assert!(errs[2].contains("unknown piece 'X'"));
    assert!(errs[3].contains("illegal move 'e1e3'") && errs[3].contains("move 3 of 3"));
    assert!(errs[4].contains("unparsable move 'zz9'"));
    assert!(errs[5].contains("unknown value 'checkers'"));
    assert!(errs[6].contains("unknown option 'Colour'"));
    assert!(errs[7].contains("'depth' value 'banana'"));
    assert!(errs[8].contains("Kings"));
    // The last valid state survives: chess after 1.e4.
    assert!(
        lines.contains(
            &"Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".to_string()
        )
    );
    assert_eq!(lines.last().map(String::as_str), Some("readyok"));
}

#[test]
fn end_of_input_ends_the_engine() {
    let (lines, status) = session("isready\n");
    assert!(status.success());
    assert_eq!(lines, vec!["readyok"]);
}

/// Perft through the protocol, as a GUI would run it, for every suite file: the binary users
/// run gives the suite's numbers (small depths, to keep it quick).
#[test]
fn perft_through_the_protocol_matches_the_suites() {
    let mut checked = 0;
    for file in common::suite_files() {
        let suite = common::load_suite(&file);
        let mut input = String::new();
        // A variant defined in a file: the engine reads the same file first.
        if let strata::rules::Variant::Defined(d) = suite.variant {
            input.push_str(&format!("setoption name VariantPath value {}\n", d.0.path));
        }
        input.push_str(&format!(
            "setoption name UCI_Variant value {}\n",
            suite.variant.name()
        ));
        // The Chess960 suite is run as a Chess960 GUI runs it.
        if file.file_stem().is_some_and(|s| s == "chess960") {
            input.push_str("setoption name UCI_Chess960 value true\n");
        }
        let mut expected = Vec::new();
        for case in &suite.cases {
            for &(depth, count, slow) in &case.expect {
                if slow || count > 300_000 {
                    continue;
                }
                let start = match &case.fen {
                    Some(f) => format!("fen {f}"),
                    None => "startpos".to_string(),
                };
                let moves = if case.moves.is_empty() {
                    String::new()
                } else {
                    format!(" moves {}", case.moves.join(" "))
                };
                input.push_str(&format!(
                    "position {start}{moves}\ngo perft {depth}\n#count\n"
                ));
                expected.push(format!("Nodes searched: {count}"));
            }
        }
        input.push_str("quit\n");
        let (lines, status) = session(&input);
        assert!(status.success());
        assert!(
            errors(&lines).is_empty(),
            "{}: {:?}",
            file.display(),
            errors(&lines)
        );
        let got: Vec<String> = lines
            .into_iter()
            .filter(|l| l.starts_with("Nodes searched: "))
            .collect();
        assert_eq!(got, expected, "{}", file.display());
        checked += got.len();
    }
    assert!(checked > 30);
}

/// `UCI_Chess960`: castling is written as the King taking its own Rook (in the root moves of
/// `go perft`, in `bestmove`, and read back in `position ... moves`), FENs come out in
/// Shredder-FEN; without it, chess castling is `e1g1` and FENs say `KQkq`.
#[test]
fn chess960_notation_follows_the_option() {
    let classical = "position fen r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
    let (lines, status) = session(&format!(
        "{classical}\ngo perft 1\n#count\n\
         position fen r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1 moves e1g1\nd\n\
         setoption name UCI_Chess960 value true\n\
         {classical}\ngo perft 1\n#count\n\
         position fen r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1 moves e1h1 e8a8\nd\n\
         position fen 4k2r/8/8/8/8/8/8/RK6 w A - 0 1\ngo perft 1\n#count\n\
         position startpos\nd\n\
         quit\n"
    ));
    assert!(status.success());
    assert!(errors(&lines).is_empty(), "{lines:?}");
    let roots: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.split_once(": ").map(|(m, _)| m))
        .collect();
    // Before the option: e1g1 and e1c1; after it: e1h1 and e1a1; then b1a1 in Chess960.
    for (name, present) in [
        ("e1g1", true),
        ("e1c1", true),
        ("e1h1", true),
        ("e1a1", true),
    ] {
        assert_eq!(roots.contains(&name), present, "{name}: {roots:?}");
    }
    assert!(roots.contains(&"b1a1"), "{roots:?}");
    let fens: Vec<&String> = lines.iter().filter(|l| l.starts_with("Fen: ")).collect();
    assert_eq!(
        fens,
        vec![
            "Fen: r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b kq - 1 1",
            "Fen: 2kr3r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 w - - 2 2",
            "Fen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1",
        ]
    );
    // The first perft (before the option) lists e1g1, not e1h1.
    let first_total = lines
        .iter()
        .position(|l| l.starts_with("Nodes searched"))
        .unwrap();
    let early: Vec<&str> = lines[..first_total]
        .iter()
        .filter_map(|l| l.split_once(": ").map(|(m, _)| m))
        .collect();
    assert!(
        early.contains(&"e1g1") && !early.contains(&"e1h1"),
        "{early:?}"
    );
}

/// `go perft` and `bench` run off the input thread: `isready` is answered while they run,
/// and `stop` ends them with what they finished, saying so. A following command (here
/// another `go perft`) waits for a perft instead of stopping it.
#[test]
fn perft_and_bench_answer_isready_and_stop() {
    let (lines, status) = session(
        "go perft 9\nisready\nstop\nposition startpos moves e2e4\ngo perft 2\n\
         setoption name Threads value 2\ngo perft 4\n#count\n#count\n#count\n\
         bench\nisready\nstop\n#count\nquit\n",
    );
    assert!(status.success());
    let at = |s: &str| {
        lines
            .iter()
            .position(|l| l.starts_with(s))
            .unwrap_or_else(|| panic!("no line '{s}...' in {lines:?}"))
    };
    let totals: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("Nodes searched: "))
        .collect();
    assert_eq!(totals.len(), 3, "{lines:?}");
    // The first readyok came while perft 9 was running, before its (stopped) total.
    assert!(at("readyok") < at("Nodes searched: "));
    assert!(at("info string perft stopped: ") < at("Nodes searched: "));
    // The next perfts ran to the end (after 1.e4: 600 at depth 2, and 405385 at depth 4
    // on two threads, as on one).
    assert_eq!(totals[1], "Nodes searched: 600");
    assert_eq!(totals[2], "Nodes searched: 405385");
    // The bench was stopped too, and said so after its partial figures.
    let bench_stop = at("info string bench stopped");
    assert!(lines[..bench_stop].iter().any(|l| l.starts_with("total: ")));
    assert_eq!(lines.iter().filter(|l| *l == "readyok").count(), 2);
    assert!(errors(&lines).is_empty(), "{:?}", errors(&lines));
}

fn bestmove(lines: &[String]) -> Vec<&str> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .map(|l| l.split_whitespace().next().unwrap_or(""))
        .collect()
}

#[test]
fn go_depth_prints_stockfish_style_info_and_a_legal_bestmove() {
    let (lines, status) =
        session("position startpos moves e2e4\ngo depth 6\nisready\n#wait\nquit\n");
    assert!(status.success());
    let info: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth "))
        .collect();
    assert!(info.len() >= 6, "{lines:?}");
    for l in &info {
        for field in [
            " seldepth ",
            " multipv 1 ",
            " score cp ",
            " nodes ",
            " nps ",
            " hashfull ",
            " time ",
            " pv ",
        ] {
            assert!(l.contains(field), "{l} lacks{field}");
        }
    }
    let best = bestmove(&lines);
    assert_eq!(best.len(), 1);
    let legal = strata::rules::AnyGame::startpos(strata::rules::Variant::Chess);
    let mut g = legal;
    use strata::rules::Game;
    g.make(g.parse_move("e2e4").unwrap());
    assert!(
        g.parse_move(best[0]).is_ok(),
        "bestmove {} is legal",
        best[0]
    );
}

/// A node is a position the search visits: the root and, at depth 1, each of the twenty
/// replies once (their quiescence searches find no capture to look at). Counting a position
/// once when the move to it is made and again when it is searched would give 41.
#[test]
fn go_depth_1_counts_each_position_once() {
    let (lines, status) = session("position startpos\ngo depth 1\n#wait\nquit\n");
    assert!(status.success());
    let info = lines
        .iter()
        .find(|l| l.starts_with("info depth 1 "))
        .expect("an info line for depth 1");
    let t: Vec<&str> = info.split_whitespace().collect();
    let i = t.iter().position(|&w| w == "nodes").expect("nodes field");
    let nodes: u64 = t[i + 1].parse().expect("a number");
    assert!(
        nodes == 21,
        "depth 1 from the start visits the root and 20 replies, got {nodes}: {info}"
    );
}

#[test]
fn isready_and_stop_are_answered_during_an_infinite_search() {
    let (lines, _) = session("go infinite\nisready\nstop\n#wait\nquit\n");
    let ready = lines.iter().position(|l| l == "readyok").expect("readyok");
    let best = lines
        .iter()
        .position(|l| l.starts_with("bestmove "))
        .expect("bestmove after stop");
    assert!(ready < best, "readyok came while searching: {lines:?}");
}

#[test]
fn ponder_waits_for_ponderhit() {
    let (lines, _) = session("position startpos\ngo ponder depth 3\nponderhit\n#wait\nquit\n");
    assert_eq!(bestmove(&lines).len(), 1, "{lines:?}");
}

#[test]
fn limits_multipv_and_searchmoves() {
    let (lines, _) = session(
        "setoption name MultiPV value 3\n\
         go depth 4\n#wait\n\
         setoption name MultiPV value 1\n\
         go nodes 3000\n#wait\n\
         go movetime 100\n#wait\n\
         go wtime 500 btime 500 winc 10 binc 10\n#wait\n\
         go depth 3 searchmoves a2a3 h2h4\n#wait\n\
         go depth 2 searchmoves e2e5\n#wait\n\
         quit\n",
    );
    for k in 1..=3 {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info depth 4 ") && l.contains(&format!(" multipv {k} "))),
            "multipv {k}"
        );
    }
    let best = bestmove(&lines);
    assert_eq!(best.len(), 6, "{lines:?}");
    assert!(
        best[4] == "a2a3" || best[4] == "h2h4",
        "searchmoves honoured: {}",
        best[4]
    );
    assert!(
        errors(&lines)
            .iter()
            .any(|e| e.contains("illegal move 'e2e5'"))
    );
}

/// Found by `tests/fuzz.rs`: every bad `searchmoves` move had its own error line, against
/// the rule of one error line per bad command.
#[test]
fn bad_searchmoves_get_one_error_line() {
    let (lines, _) = session("go depth 1 searchmoves d7c6 e2e4 h6h5 zz\n#wait\nquit\n");
    let errs = errors(&lines);
    assert_eq!(errs.len(), 1, "{errs:?}");
    for m in [
        "illegal move 'd7c6'",
        "illegal move 'h6h5'",
        "unparsable move 'zz'",
    ] {
        assert!(errs[0].contains(m), "{} lacks {m}", errs[0]);
    }
    assert_eq!(bestmove(&lines), vec!["e2e4"]);
}

/// Found by `tests/fuzz.rs`: error messages echoed whole tokens, so a megabyte FEN field or
/// option value came back as a megabyte error line. Every error line is now short.
#[test]
fn long_input_gets_a_short_error_line() {
    let long = "w".repeat(1 << 20);
    let input = format!(
        "position fen 8/8/8/8/8/8/8/K6k {long} - - 0 1\n\
         setoption name MultiPV value {long}\n\
         setoption name UCI_Variant value {long}\n\
         go depth {long}\n\
         isready\nquit\n"
    );
    let (lines, status) = session(&input);
    assert!(status.success());
    let errs = errors(&lines);
    assert_eq!(
        errs.len(),
        4,
        "{:?}",
        lines.iter().map(|l| l.len()).collect::<Vec<_>>()
    );
    assert!(errs.iter().all(|e| e.len() < 400), "long error lines");
    assert_eq!(lines.last().map(String::as_str), Some("readyok"));
}

#[test]
fn eval_and_bench() {
    let (lines, _) = session("eval\nbench 3\n#count\nquit\n");
    assert!(
        lines.iter().any(|l| l.starts_with("Final evaluation: ")),
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| l.starts_with("mobility ")));
    for v in ["chess: ", "pole: ", "total: "] {
        let l = lines
            .iter()
            .find(|l| l.starts_with(v))
            .unwrap_or_else(|| panic!("no {v} line"));
        assert!(l.ends_with(" nps") && l.contains(" nodes "), "{l}");
    }
}

#[test]
fn options_change_between_searches() {
    let (lines, status) = session(
        "setoption name Threads value 2\n\
         setoption name Hash value 8\n\
         go depth 5\n#wait\n\
         setoption name Clear Hash\n\
         setoption name Threads value 1\n\
         setoption name Hash value 0\n\
         go depth 3\n#wait\n\
         quit\n",
    );
    assert!(status.success());
    assert_eq!(bestmove(&lines).len(), 2);
    let errs = errors(&lines);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(errs[0].contains("out of range"));
}

/// A `Hash` or `Threads` value within the declared range that the system refuses (here under
/// a 1 GiB address-space limit) is an error line, not a crash: `Hash 65536` used to abort the
/// engine with "memory allocation failed" on any machine with less than 64 GiB.
#[cfg(target_os = "linux")]
#[test]
fn hash_and_threads_the_system_refuses_are_errors_not_crashes() {
    let mut limited = Command::new("sh");
    limited
        .arg("-c")
        .arg("ulimit -v 1048576 && exec \"$0\"")
        .arg(env!("CARGO_BIN_EXE_strata"));
    let (lines, status) = session_of(
        limited,
        "setoption name Hash value 65536\n\
         setoption name Hash value 2048\n\
         setoption name Threads value 64\n\
         position startpos moves e2e4\n\
         go depth 4\n#wait\n\
         isready\nquit\n",
    );
    assert!(status.success(), "{status:?} {lines:?}");
    let errs = errors(&lines);
    assert_eq!(errs.len(), 3, "{errs:?}");
    assert!(errs[0].contains("option 'Hash': cannot allocate 65536 MiB"));
    assert!(errs[1].contains("cannot allocate 2048 MiB"));
    assert!(errs[2].contains("option 'Threads': cannot start 64 search threads"));
    let best = bestmove(&lines);
    let mut g = strata::rules::AnyGame::startpos(strata::rules::Variant::Chess);
    use strata::rules::Game;
    g.make(g.parse_move("e2e4").unwrap());
    assert!(g.parse_move(best[0]).is_ok(), "bestmove {best:?}");
    assert_eq!(lines.last().map(String::as_str), Some("readyok"));
}

/// The strength options: declared by `uci`, accepted in range, refused outside it (one
/// error line each, the value kept), and a weakened engine plays legal moves quickly.
#[test]
fn strength_options_are_declared_accepted_and_range_checked() {
    let (lines, status) = session("uci\nquit\n");
    assert!(status.success());
    let declared = |name: &str| {
        lines
            .iter()
            .find(|l| l.starts_with(&format!("option name {name} type")))
            .cloned()
            .unwrap_or_else(|| panic!("{name} is not declared: {lines:?}"))
    };
    assert_eq!(
        declared("Skill Level"),
        "option name Skill Level type spin default 20 min 0 max 20"
    );
    assert_eq!(
        declared("UCI_LimitStrength"),
        "option name UCI_LimitStrength type check default false"
    );
    let elo = declared("UCI_Elo");
    let num = |key: &str| -> i64 {
        let words: Vec<&str> = elo.split_whitespace().collect();
        let i = words.iter().position(|w| *w == key).unwrap();
        words[i + 1].parse().unwrap()
    };
    let (min, max) = (num("min"), num("max"));
    assert!(min < max && min <= num("default") && num("default") <= max);
    declared("Seed");

    let input = format!(
        "setoption name Skill Level value 21\n\
         setoption name Skill Level value -1\n\
         setoption name UCI_Elo value {}\n\
         setoption name UCI_Elo value {}\n\
         setoption name UCI_LimitStrength value maybe\n\
         setoption name Skill Level value 3\n\
         setoption name UCI_Elo value {min}\n\
         setoption name UCI_LimitStrength value true\n\
         setoption name Seed value 7\n\
         position startpos moves e2e4\n\
         go wtime 600000 btime 600000\n#wait\n\
         quit\n",
        min - 1,
        max + 1
    );
    let (lines, status) = session(&input);
    assert!(status.success());
    let errs = errors(&lines);
    assert_eq!(errs.len(), 5, "{errs:?}");
    assert!(
        errs[..4].iter().all(|e| e.contains("out of range")),
        "{errs:?}"
    );
    // The weakest level answers at once, at a time control of ten minutes: its last
    // iteration is shallow and small.
    let best = bestmove(&lines);
    assert_eq!(best.len(), 1);
    let last_info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .expect("an info line");
    let nodes: u64 = last_info
        .split_whitespace()
        .skip_while(|w| *w != "nodes")
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    assert!(nodes < 5_000, "{last_info}");
}

/// With a `Seed`, a weakened engine plays the same game again after `ucinewgame`; with
/// another seed, its choices differ somewhere over a few positions.
#[test]
fn a_seed_makes_weak_play_reproducible() {
    let script = |seed: u64| {
        let mut s = format!(
            "setoption name Skill Level value 2\nsetoption name Seed value {seed}\nucinewgame\n"
        );
        for moves in [
            "",
            "e2e4",
            "d2d4",
            "g1f3",
            "c2c4",
            "e2e4 e7e5",
            "d2d4 d7d5 c2c4",
        ] {
            s.push_str(&format!(
                "position startpos moves {moves}\ngo depth 3\n#wait\n"
            ));
        }
        s.push_str("quit\n");
        let (lines, status) = session(&s);
        assert!(status.success());
        bestmove(&lines)
            .into_iter()
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(script(5), script(5));
    let others: Vec<_> = (6..10).map(script).collect();
    assert!(others.iter().any(|o| *o != script(5)), "{others:?}");
}

#[test]
fn middle_levels_never_allow_a_mate_in_one() {
    // White to move; ...Re1 mates unless White makes luft, guards e1 (Nc2) or steps to f1.
    // Eight moves are safe, four allow the mate: from the middle levels up, whatever the
    // random draw, the engine never plays one of the four.
    let unsafe_moves = ["a3b5", "a3c4", "a3b1", "g1h1"];
    let mut script = String::new();
    for level in [7, 10, 13, 19] {
        for seed in 1..=12 {
            script.push_str(&format!(
                "setoption name Skill Level value {level}\nsetoption name Seed value {seed}\n\
                 position fen 4r1k1/5ppp/8/8/8/N7/5PPP/6K1 w - - 0 1\ngo wtime 60000 btime 60000\n#wait\n"
            ));
        }
    }
    script.push_str("quit\n");
    let (lines, status) = session(&script);
    assert!(status.success());
    let moves = bestmove(&lines);
    assert_eq!(moves.len(), 48, "{lines:?}");
    assert!(moves.iter().all(|m| !unsafe_moves.contains(m)), "{moves:?}");
    // The choice varies with the draw: more than one safe move is played.
    let mut distinct = moves.clone();
    distinct.sort();
    distinct.dedup();
    assert!(distinct.len() > 1, "{moves:?}");
}

/// `go movetime` is the move's whole time, as the protocol says: the search goes on until the
/// time (less `Move Overhead`, 30 ms by default) is used, instead of stopping after an
/// iteration once about half of it is gone, as it does when it plans a clock's time.
#[test]
fn movetime_is_spent_whole() {
    let start = std::time::Instant::now();
    let (lines, _) = session("position startpos\ngo movetime 800\n#wait\nquit\n");
    let spent = start.elapsed();
    assert_eq!(bestmove(&lines).len(), 1, "{lines:?}");
    assert!(
        spent >= std::time::Duration::from_millis(770),
        "returned after {spent:?}: {lines:?}"
    );
}

/// The field `name` of an `info` line, as a number.
fn info_number(line: &str, name: &str) -> u64 {
    let t: Vec<&str> = line.split_whitespace().collect();
    let i = t.iter().position(|&w| w == name).expect(name);
    t[i + 1].parse().expect("a number")
}

/// A search stopped by its limit inside an iteration sends its answer again, as Stockfish
/// does: the last `info` line before `bestmove` counts every node and all the time spent
/// (a GUI or `strata match --pgnout nodes=true` takes a move's figures from it) and its line
/// starts with the move played. Before, it was the last completed iteration's line, which
/// showed half the nodes of a `go movetime`.
#[test]
fn the_last_info_line_counts_the_whole_search() {
    for (variant, threads) in [("chess", 1), ("chess", 2), ("future-generation", 1)] {
        let (lines, status) = session(&format!(
            "setoption name UCI_Variant value {variant}\n\
             setoption name Threads value {threads}\n\
             position startpos\ngo nodes 40000\n#wait\n\
             position startpos\ngo movetime 400\n#wait\nquit\n"
        ));
        assert!(status.success());
        let best = bestmove(&lines);
        assert_eq!(best.len(), 2, "{lines:?}");
        for (k, answer) in lines
            .iter()
            .enumerate()
            .filter(|(_, l)| l.starts_with("bestmove "))
            .enumerate()
        {
            let last = lines[..answer.0]
                .iter()
                .rev()
                .find(|l| l.starts_with("info depth "))
                .expect("an info line before bestmove");
            let pv = last.split(" pv ").nth(1).expect("a pv");
            assert_eq!(
                pv.split_whitespace().next(),
                Some(best[k]),
                "{variant}, {threads} threads: the last line {last} is not the answer's"
            );
            if k == 0 {
                let nodes = info_number(last, "nodes");
                assert!(
                    nodes >= 40000,
                    "{variant}, {threads} threads: go nodes 40000 ends on {last}"
                );
            } else {
                let ms = info_number(last, "time");
                assert!(
                    ms >= 300,
                    "{variant}, {threads} threads: go movetime 400 ends on {last}"
                );
            }
        }
    }
}

/// Issue 70, finding 6: with a command queued behind a long `go perft` (it waits for the
/// count), `stop` and `isready` were never read: the input thread waited behind the queued
/// command, for hours. Now they act at once whatever is queued, and the queued command runs
/// after the stopped count.
#[test]
fn stop_and_isready_act_at_once_behind_a_queued_command() {
    use common::engine::Engine;
    for queued in [
        "position startpos moves e2e4",
        "setoption name Hash value 1",
        "go depth 1",
        "ucinewgame",
        "d",
        "eval",
        "bench 1",
        "go perft 1",
    ] {
        let mut e = Engine::start(&format!("go perft 9, then '{queued}'"));
        e.send("go perft 9");
        e.send(queued);
        e.send("stop");
        e.sync();
        e.send("isready");
        e.wait("the stopped perft's total", |e| {
            e.lines.iter().any(|l| l.starts_with("Nodes searched: "))
        });
        // The queued command runs after the count: its own output comes after the total.
        let ran = |lines: &[String]| {
            let Some(after) = lines.iter().position(|l| l.starts_with("Nodes searched: ")) else {
                return false;
            };
            let later = &lines[after + 1..];
            match queued {
                "d" => later.iter().any(|l| l.starts_with("Fen: ")),
                "eval" => later.iter().any(|l| l.starts_with("Final evaluation")),
                "bench 1" => later.iter().any(|l| l.starts_with("total: ")),
                "go depth 1" => later.iter().any(|l| l.starts_with("bestmove ")),
                "go perft 1" => later.iter().any(|l| l == "Nodes searched: 20"),
                _ => true,
            }
        };
        e.wait("the queued command's output", |e| ran(&e.lines));
        e.sync();
        e.await_bestmoves();
        let lines = e.finish(true);
        let stopped = lines
            .iter()
            .filter(|l| l.starts_with("info string perft stopped: "))
            .count();
        assert_eq!(stopped, 1, "{queued}: {lines:?}");
        assert!(errors(&lines).is_empty(), "{queued}: {:?}", errors(&lines));
    }
}

/// Issue 70, finding 6: `quit` and the end of input waited for a running perft (with a
/// command queued, for hours). Now both stop it, drop what is queued, and exit.
#[test]
fn quit_and_end_of_input_stop_a_perft_at_once() {
    use common::engine::Engine;
    for quit in [true, false] {
        let mut e = Engine::start(&format!("go perft 9 then a queued perft, quit {quit}"));
        e.send("go perft 9");
        e.send("position startpos moves e2e4");
        e.send("go perft 9");
        e.sync();
        let lines = e.finish(quit);
        assert_eq!(
            lines
                .iter()
                .filter(|l| l.starts_with("Nodes searched: "))
                .count(),
            1,
            "the queued perft must not run: {lines:?}"
        );
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string perft stopped: ")),
            "{lines:?}"
        );
    }
}

/// Issue 70, "the length of one stdin line": a line of any length costs at most the bound
/// (256 KiB) of memory and gets one error line; the engine goes on.
#[cfg(target_os = "linux")]
#[test]
fn an_endless_input_line_is_refused_within_its_bound() {
    use common::engine::Engine;
    let mut e = Engine::start("a 64 MiB input line");
    let mut line = b"position fen ".to_vec();
    line.resize(64 << 20, b'x');
    e.send_bytes(&line);
    e.send("position startpos moves e2e4");
    e.sync();
    let status = std::fs::read_to_string(format!("/proc/{}/status", e.pid())).unwrap();
    let peak_kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap();
    e.send("d");
    e.sync();
    let lines = e.finish(true);
    let errs = errors(&lines);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(
        errs[0].contains("67108864 bytes") && errs[0].contains("longer than"),
        "{}",
        errs[0]
    );
    assert!(
        lines.iter().any(|l| l.starts_with("Fen: ")
            && l.contains("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b")),
        "the next line was read: {lines:?}"
    );
    // The start-up table is 16 MiB; the line would add 64 MiB (or more) if it were kept.
    assert!(peak_kib < 48 << 10, "peak resident {peak_kib} KiB");
}

/// Issue 70: nothing echoed in an error line can end the line early or hide in it: control
/// characters of the input come back escaped, and every line printed is one line.
#[test]
fn control_characters_in_input_are_echoed_escaped() {
    let (lines, status) = session(
        "frobnicate\u{1b}[2Kreadyok\nposition fen 8/8\u{1b}[2J/8 w - - 0 1\n\
         setoption name UCI_Variant value chess\u{85}bestmove a1a1\nquit\n",
    );
    assert!(status.success());
    let errs = errors(&lines);
    assert_eq!(errs.len(), 3, "{lines:?}");
    assert!(
        !lines
            .iter()
            .any(|l| l == "readyok" || l.starts_with("bestmove"))
    );
    for l in &lines {
        assert!(!l.chars().any(|c| c.is_control()), "{l:?}");
    }
    assert!(errs[0].contains("\\u001B"), "{}", errs[0]);
}

/// Found while fixing issue 70: `go perft 4000000000` made the engine allocate a move list
/// per ply (96 GB) and abort. Every number a command takes is now bounded or clamped: the
/// perft depth is refused above its most, the others are searched within the engine's own
/// limits (`stop` ends them).
#[test]
fn huge_numbers_in_commands_neither_abort_nor_hang() {
    use common::engine::Engine;
    let mut e = Engine::start("huge numbers");
    e.send("go perft 4000000000");
    e.sync();
    for go in [
        "go depth 4000000000",
        "go mate 4000000000",
        "go nodes 18446744073709551615",
        "go movetime 9223372036854775807",
        "go wtime 9223372036854775807 btime 9223372036854775807 movestogo 4000000000",
    ] {
        e.send(go);
        e.send("stop");
        e.await_bestmoves();
    }
    e.send("bench 4000000000");
    e.send("stop");
    e.wait("the stopped bench", |e| {
        e.lines
            .iter()
            .any(|l| l.starts_with("info string bench stopped"))
    });
    e.send("go perft 3");
    e.wait("perft 3", |e| {
        e.lines.iter().any(|l| l == "Nodes searched: 8902")
    });
    let lines = e.finish(true);
    let errs = errors(&lines);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(errs[0].contains("perft depth 4000000000"), "{}", errs[0]);
}

/// Found by the attack on issue 70: `Debug Log File` naming a FIFO blocked the engine for
/// good in its open (no `isready`, no `quit`). Only a regular file is a log file now, opened
/// without waiting.
#[cfg(unix)]
#[test]
fn a_log_file_that_is_a_fifo_or_a_device_is_refused_at_once() {
    use common::engine::Engine;
    let dir = std::env::temp_dir().join(format!("strata-logfifo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("log");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let mut e = Engine::start("a FIFO as the log file");
    e.send(&format!(
        "setoption name Debug Log File value {}",
        fifo.display()
    ));
    e.send("setoption name Debug Log File value /dev/zero");
    e.send(&format!(
        "setoption name Debug Log File value {}",
        dir.display()
    ));
    e.sync();
    let good = dir.join("strata.log");
    e.send(&format!(
        "setoption name Debug Log File value {}",
        good.display()
    ));
    e.send("go depth 2");
    e.await_bestmoves();
    e.send("setoption name Debug Log File value");
    let lines = e.finish(true);
    let errs = errors(&lines);
    assert_eq!(errs.len(), 3, "{errs:?}");
    assert!(
        errs.iter().all(|l| l.contains("cannot open log file")),
        "{errs:?}"
    );
    assert!(std::fs::metadata(&good).is_ok_and(|m| m.len() > 0));
    let _ = std::fs::remove_dir_all(dir);
}

/// Found by the attack on issue 70: commands queued behind a running `go perft` were kept
/// parsed and without a bound (400 lines of 256 KiB took 2.8 GB), and lines read but not yet
/// handled had no bound either. Now at most 4 MiB of lines wait (a command beyond them is
/// refused with an error line) and at most 64 lines are in flight.
#[cfg(target_os = "linux")]
#[test]
fn commands_queued_behind_a_perft_are_bounded() {
    use common::engine::Engine;
    let mut e = Engine::start("200 long positions behind a perft");
    let mut line = String::from("position startpos moves");
    while line.len() < 250_000 {
        line.push_str(" g1f3 g8f6 f3g1 f6g8");
    }
    e.send("go perft 30");
    for _ in 0..200 {
        e.send(&line);
    }
    e.send("stop");
    e.wait("the stopped perft's total", |e| {
        e.lines.iter().any(|l| l.starts_with("Nodes searched: "))
    });
    e.send("d");
    e.wait("the queued positions and the board", |e| {
        e.lines.iter().any(|l| l.starts_with("Fen: "))
    });
    let status = std::fs::read_to_string(format!("/proc/{}/status", e.pid())).unwrap();
    let peak_mib = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse::<u64>().ok())
        .unwrap()
        / 1024;
    let lines = e.finish(true);
    let refused = errors(&lines)
        .iter()
        .filter(|l| l.contains("wait for the running count"))
        .count();
    // About 16 lines fit in 4 MiB; the others were refused, one error line each.
    assert!((150..200).contains(&refused), "{refused} refused");
    assert_eq!(errors(&lines).len(), refused, "{:?}", errors(&lines));
    // 50 MB were sent; the engine holds 16 MiB of table, 16 MiB in flight, 4 MiB queued.
    assert!(peak_mib < 200, "peak resident {peak_mib} MiB");
}

/// `strata ARGS` with stdin closed: stdout's lines and whether it succeeded.
fn with_args(args: &[&str]) -> (Vec<String>, bool) {
    let out = Command::new(env!("CARGO_BIN_EXE_strata"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    (
        text.lines().map(str::to_string).collect(),
        out.status.success(),
    )
}

#[test]
fn commands_on_the_command_line_run_in_order_as_if_typed() {
    // A quoted command with spaces, then more, each an argument.
    let (lines, ok) = with_args(&["position startpos moves e2e4 e7e5", "d", "isready", "quit"]);
    assert!(ok);
    let fen = lines.iter().position(|l| l.starts_with("Fen: ")).unwrap();
    assert_eq!(
        lines[fen],
        "Fen: rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    );
    assert!(lines.iter().position(|l| l == "readyok").unwrap() > fen);
    // A search started there runs to its end before the engine exits.
    let (lines, ok) = with_args(&["position startpos", "go depth 5"]);
    assert!(ok);
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 5 ")),
        "{lines:?}"
    );
    assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:?}");
    // Bad ones get the error a typed one gets; the rest still run.
    let (lines, ok) = with_args(&[
        "position fen nonsense",
        "genfens 0 seed 1 book None",
        "isready",
    ]);
    assert!(ok);
    assert_eq!(errors(&lines).len(), 2, "{lines:?}");
    assert_eq!(lines.last().map(String::as_str), Some("readyok"));
    // A variant from a file, then genfens in it.
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/variants/raumschach.toml");
    let (lines, ok) = with_args(&[
        "--variant-file",
        file,
        "setoption name UCI_Variant value raumschach",
        "genfens 3 seed 4 book None",
        "quit",
    ]);
    assert!(ok);
    let fens: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string genfens "))
        .collect();
    assert_eq!(fens.len(), 3, "{lines:?}");
    assert!(fens.iter().all(|f| f.matches('|').count() == 4), "{fens:?}");
    // The subcommands are still subcommands.
    let (lines, ok) = with_args(&["variants"]);
    assert!(ok);
    assert_eq!(lines.first().map(String::as_str), Some("chess"));
    let (lines, ok) = with_args(&["perft", "2"]);
    assert!(ok && lines.iter().any(|l| l.contains("400")), "{lines:?}");
}
