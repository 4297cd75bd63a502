//! The protocol as a GUI sees it: the built `strata` binary driven over stdin/stdout.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

/// Runs the engine on `input` (which should end with `quit`) and returns its stdout lines and
/// exit status.
fn session(input: &str) -> (Vec<String>, std::process::ExitStatus) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_strata"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the engine starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let text = input.to_string();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(text.as_bytes());
    });
    let lines: Vec<String> = BufReader::new(child.stdout.take().expect("stdout"))
        .lines()
        .map(|l| l.expect("utf-8 output"))
        .collect();
    writer.join().expect("writer");
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
        let mut input = format!(
            "setoption name UCI_Variant value {}\n",
            suite.variant.name()
        );
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
                input.push_str(&format!("position {start}{moves}\ngo perft {depth}\n"));
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
