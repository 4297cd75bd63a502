//! What OpenBench needs of strata (contrib/openbench/README.md), checked the way OpenBench's
//! worker does it, at OpenBench commit 9906bad18e044c4b455539317b8cf037393a7218:
//! `make -j EXE=<name>` builds the engine (Client/utils.py `makefile_command`; the build
//! itself is an ignored test, `cargo test --release --test openbench -- --ignored`);
//! `strata bench` is read with the worker's two regular expressions (Client/bench.py
//! `parse_stream_output`); and `strata match` runs the command line the worker builds
//! (Client/worker.py `build_runner_command` and the `MatchRunner` methods it calls, plus
//! contrib/openbench/worker.patch for our variants), its output read as
//! `run_and_parse_runner` and `MatchRunner.update_results` read it and its PGN sliced as
//! `PGNHelper.slice_pgn_file` slices it. A data-generation workload first builds its book
//! with `genfens` (Client/genfens.py `create_genfens_opening_book`, called by
//! Client/worker.py `safe_create_genfens_opening_book`), then plays from it.

use std::path::{Path, PathBuf};
use std::process::Command;

use regex::Regex;

fn strata() -> &'static str {
    env!("CARGO_BIN_EXE_strata")
}

/// A fresh directory under the target directory.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `command`, again while the executable is busy: a binary copied here may still be
/// open for writing in a child that another test thread forked during the copy (ETXTBSY)
/// for a moment.
fn output_of(command: &mut Command) -> std::process::Output {
    for _ in 0..100 {
        match command.output() {
            Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy => {
                std::thread::sleep(std::time::Duration::from_millis(20))
            }
            result => return result.unwrap(),
        }
    }
    panic!("{command:?}: the executable stays busy")
}

/// Client/bench.py `parse_stream_output`: from the last line up, the first match of each
/// pattern after every run of characters other than letters, digits and spaces became one
/// space; the number in it.
fn parse_bench(stdout: &str) -> (Option<u64>, Option<u64>) {
    let clean = Regex::new(r"[^a-zA-Z0-9 ]+").unwrap();
    let nps_re = Regex::new(r"(?i)(\d+\s+nps)|(nps\s+\d+)|(nodes second\s+\d+)").unwrap();
    let bench_re = Regex::new(r"(?i)(\d+\s+nodes)|(nodes\s+\d+)|(nodes searched\s+\d+)").unwrap();
    let number = Regex::new(r"\d+").unwrap();
    let (mut nps, mut bench) = (None, None);
    for line in stdout.trim().split('\n').rev() {
        let line = clean.replace_all(line, " ");
        if nps.is_none() {
            nps = nps_re.find(&line).map(|m| m.as_str().to_string());
        }
        if bench.is_none() {
            bench = bench_re.find(&line).map(|m| m.as_str().to_string());
        }
    }
    let value =
        |s: Option<String>| s.map(|s| number.find(&s).unwrap().as_str().parse::<u64>().unwrap());
    (value(bench), value(nps))
}

#[test]
fn bench_gives_openbench_a_signature_and_a_speed() {
    let run = || {
        let out = Command::new(strata()).arg("bench").output().unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let first = run();
    let (bench, nps) = parse_bench(&first);
    // The signature is the total of the variants' node counts, and it repeats.
    let per_variant: u64 = first
        .lines()
        .filter(|l| !l.starts_with("total"))
        .filter_map(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
        .sum();
    assert_eq!(bench, Some(per_variant), "{first}");
    assert!(nps.is_some_and(|n| n > 0), "{first}");
    assert_eq!(
        parse_bench(&run()).0,
        bench,
        "the bench is not deterministic"
    );
}

/// Whether `make` exists; without it the make test skips, except under CI.
fn have_make() -> bool {
    let ok = Command::new("make").arg("--version").output().is_ok();
    if !ok && std::env::var_os("CI").is_some() {
        panic!("make is missing (CI=true): install it (Debian: make)");
    }
    ok
}

/// What `make -j EXE=<name>` runs, shown by `make -n` without running it: cargo's release
/// build of the strata binary, linked to the path given. Running it is a second release
/// build of the engine (the binary alone, without the tests' dependencies, so the library is
/// built again: minutes on two cores), which the ignored test below does.
#[test]
fn make_with_exe_runs_the_release_build_of_the_engine() {
    if !have_make() {
        eprintln!("skipped: no make");
        return;
    }
    let exe = scratch("openbench-make-n").join("strata-dev");
    let out = Command::new("make")
        .arg("-n")
        .arg("-j")
        .arg(format!("EXE={}", exe.display()))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        text.trim(),
        format!(
            "cargo rustc --release --bin strata -- --emit link={}",
            exe.display()
        )
    );
    assert!(!exe.exists(), "make -n built nothing");
}

#[test]
#[ignore = "a second release build of the engine, minutes: run with --ignored"]
fn make_with_exe_builds_a_working_engine() {
    if !have_make() {
        eprintln!("skipped: no make");
        return;
    }
    let dir = scratch("openbench-make");
    // As the worker runs it: in the source directory, `make -j EXE=<name>`, the binary then
    // expected at <source>/<name>. Here the name is an absolute path into the scratch
    // directory, so the source tree stays clean.
    let exe = dir.join("strata-dev");
    let out = Command::new("make")
        .arg("-j")
        .arg(format!("EXE={}", exe.display()))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "make failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = Command::new(&exe).arg("perft").arg("4").output().unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("Nodes searched: 197281"));
}

/// Splits a command line as Python's `shlex.split` does for what the worker writes (words,
/// single- and double-quoted parts).
fn shlex_split(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word: Option<String> = None;
    let mut quote = None;
    for c in s.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.get_or_insert_with(String::new).push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (None, c) if c.is_whitespace() => out.extend(word.take()),
            (None, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    out.extend(word);
    out
}

/// Python's `shlex.quote` for a string with spaces and no single quote.
fn shlex_quote(s: &str) -> String {
    format!("'{s}'")
}

/// The part of a workload the worker's command line is made from.
struct Workload {
    book_name: &'static str,
    book_index: u64,
    book_seed: u64,
    concurrency_per: u32,
    rounds_per_runner: u32,
    win_adj: &'static str,
    draw_adj: &'static str,
    options: &'static str,
    time_control: &'static str,
    /// contrib/openbench/worker.patch: the test's strata variant, if any.
    strata_variant: Option<&'static str>,
    /// A DATAGEN workload: the openings come from the genfens book.
    datagen: bool,
}

/// `scale_time_control` for the two forms used here: `N=` and `X+Y`.
fn scale_time_control(tc: &str, scale: f64) -> String {
    if let Some(n) = tc.to_uppercase().strip_prefix("N=") {
        return format!("tc=inf nodes={n}");
    }
    let (base, inc) = tc.split_once('+').unwrap();
    let base: f64 = base.parse::<f64>().unwrap() * scale;
    let inc: f64 = inc.parse::<f64>().unwrap() * scale;
    format!("tc={base:.2}+{inc:.2} timemargin=250")
}

/// `build_runner_command` (with worker.patch), for runner 0, with syzygy disabled.
fn runner_command(w: &Workload, dev: &str, base: &str, pgn: &str) -> String {
    let runner_idx = 0;
    let is_frc = ["FRC", "960", "FISCHER"]
        .iter()
        .any(|s| w.book_name.to_uppercase().contains(s));
    let basic = format!(
        "-recover -variant {} -testEnv",
        if is_frc { "fischerandom" } else { "standard" }
    );
    let concurrency = format!(
        "-concurrency {} -rounds {} -games {}",
        w.concurrency_per, w.rounds_per_runner, 2
    );
    let adjudication = format!("-resign {} -draw {} ", w.win_adj, w.draw_adj);
    let engine = |command: &str, branch: &str| {
        let options: String = Regex::new(r#""[^"]*"|\S+"#)
            .unwrap()
            .find_iter(w.options)
            .map(|m| format!(" option.{}", m.as_str()))
            .collect();
        format!(
            "-engine dir=Engines/ cmd=./{command} proto=uci {}{options} name={}-{branch}",
            scale_time_control(w.time_control, 0.5),
            "strata"
        )
    };
    let pairs = u64::from(w.rounds_per_runner / 2);
    let start = w.book_index + runner_idx * pairs;
    // MatchRunner.book_settings for DATAGEN (play_reverses true: no_reverse 0).
    let genfens_book = format!(
        "-openings file=Books/openbench.genfens.epd format=epd order=sequential start={}",
        1 + runner_idx * pairs
    );
    let book = if w.datagen {
        genfens_book.clone()
    } else {
        format!(
            "-openings file=Books/{} format={} order=random start={start} -srand {}",
            w.book_name,
            w.book_name.rsplit('.').next().unwrap(),
            w.book_seed
        )
    };
    let pgnout = format!(
        "-pgnout file={pgn} seldepth=true nodes=true match_line={}",
        shlex_quote("^info string pgncomment .*")
    );
    match w.strata_variant {
        None => format!(
            "./fastchess-ob {basic} {concurrency} {adjudication} {} {} {book} {pgnout}",
            engine(dev, "dev"),
            engine(base, "base")
        ),
        Some(v) => format!(
            "Engines/{dev} match -recover -variant {v} {concurrency} {adjudication} {} {} \
             {} {pgnout}",
            engine(dev, "dev"),
            engine(base, "base"),
            match w.datagen {
                true => genfens_book,
                false => format!(
                    "-openings random-plies=8 seed={}",
                    w.book_seed * 1_000_003 + start
                ),
            }
        ),
    }
}

/// What `run_and_parse_runner` collects with `MatchRunner.update_results`.
#[derive(Debug, Default)]
struct WorkerResults {
    trinomial: [u32; 3],
    pentanomial: [u32; 5],
    crashes: u32,
    timelosses: u32,
    illegals: u32,
    finished: u32,
}

fn parse_runner_output(stdout: &str) -> WorkerResults {
    let index = |r: &str| match r {
        "0-1" => 0,
        "1/2-1/2" => 1,
        "1-0" => 2,
        other => panic!("the worker cannot read the result '{other}'"),
    };
    let mut results = WorkerResults::default();
    let mut games = std::collections::HashMap::new();
    for line in stdout.split('\n') {
        let line = line.trim();
        assert!(
            line.is_ascii(),
            "the worker decodes output as ASCII: {line}"
        );
        if !line.contains("Finished game") {
            continue;
        }
        results.finished += 1;
        let reason = line.split(':').nth(1).unwrap();
        results.crashes += u32::from(reason.contains("disconnect") || reason.contains("stalls"));
        results.timelosses += u32::from(reason.contains("on time"));
        results.illegals += u32::from(reason.contains("illegal"));
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let game: u64 = tokens[2].parse().unwrap();
        games.insert(game, tokens[6].to_string());
        let (first, second) = if game % 2 == 1 {
            (game, game + 1)
        } else {
            (game - 1, game)
        };
        if let (Some(r1), Some(r2)) = (games.get(&first), games.get(&second)) {
            let (l1, l2) = (index(r1), index(r2));
            results.pentanomial[l1 + 2 - l2] += 1;
            results.trinomial[l1] += 1;
            results.trinomial[2 - l2] += 1;
            games.remove(&first);
            games.remove(&second);
        }
    }
    results
}

/// `PGNHelper.slice_pgn_file`: blocks of header lines and move lines, each ended by an empty
/// line; returns each game's headers.
fn slice_pgn(text: &str) -> Vec<Vec<String>> {
    let mut lines = text.lines().map(|l| l.trim_end().to_string());
    let mut games = Vec::new();
    loop {
        let headers: Vec<String> = lines.by_ref().take_while(|l| !l.is_empty()).collect();
        let moves: Vec<String> = lines.by_ref().take_while(|l| !l.is_empty()).collect();
        if headers.is_empty() || moves.is_empty() {
            break;
        }
        games.push(headers);
    }
    games
}

fn header<'a>(headers: &'a [String], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|h| h.starts_with(&format!("[{name} ")))
        .and_then(|h| h.split('"').nth(1))
}

/// Plays the worker's command for `w` in a worker-like directory (Engines/, Books/, PGNs/)
/// and checks what the worker would report against the match's summary and PGN.
fn play_worker_command(dir_name: &str, w: &Workload, book: &[&str]) {
    let dir = scratch(dir_name);
    for sub in ["Engines", "Books", "PGNs"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    let (dev, base) = ("strata-1a2b3c4d", "strata-5e6f7a8b");
    for name in [dev, base] {
        std::fs::copy(strata(), dir.join("Engines").join(name)).unwrap();
    }
    let book_name = if w.datagen {
        "openbench.genfens.epd"
    } else {
        w.book_name
    };
    std::fs::write(dir.join("Books").join(book_name), book.join("\n")).unwrap();
    let pgn = "PGNs/7.13.1700000000.0.pgn";
    let command = runner_command(w, dev, base, pgn);
    let mut argv = shlex_split(&command);
    // The worker runs fastchess-ob for chess; here strata match takes its place.
    let program = if argv[0] == "./fastchess-ob" {
        argv[0] = "match".into();
        strata().to_string()
    } else {
        dir.join(argv.remove(0)).display().to_string()
    };
    let out = output_of(Command::new(&program).args(&argv).current_dir(&dir));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{command}\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
    let games = 2 * w.rounds_per_runner;
    let r = parse_runner_output(&stdout);
    assert_eq!(r.finished, games, "{stdout}");
    assert_eq!(r.pentanomial.iter().sum::<u32>(), games / 2, "{r:?}");
    assert_eq!(r.trinomial.iter().sum::<u32>(), games, "{r:?}");
    // The worker's counts (dev's losses, draws, wins) against the match's own summary.
    let summary = Regex::new(r"Games: (\d+), Wins: (\d+), Losses: (\d+), Draws: (\d+)")
        .unwrap()
        .captures_iter(&stdout)
        .last()
        .unwrap_or_else(|| panic!("no summary in\n{stdout}"));
    let n = |i: usize| summary[i].parse::<u32>().unwrap();
    assert_eq!(
        (n(1), n(2), n(3), n(4)),
        (games, r.trinomial[2], r.trinomial[0], r.trinomial[1])
    );
    let ptnml = Regex::new(r"Ptnml\(0-2\): \[(\d+), (\d+), (\d+), (\d+), (\d+)\]")
        .unwrap()
        .captures_iter(&stdout)
        .last()
        .unwrap();
    let p: Vec<u32> = (1..=5).map(|i| ptnml[i].parse().unwrap()).collect();
    assert_eq!(p, r.pentanomial.to_vec(), "{stdout}");
    // The PGN, sliced as the worker slices it: every game, the dev engine's score in it
    // equal to the worker's, and the error counts equal to the Termination tags.
    let text = std::fs::read_to_string(dir.join(pgn)).unwrap();
    let sliced = slice_pgn(&text);
    assert_eq!(sliced.len() as u32, games, "{text}");
    let mut dev_points = 0.0;
    let (mut time, mut illegal, mut crash) = (0, 0, 0);
    for h in &sliced {
        let result = header(h, "Result").unwrap();
        let dev_white = header(h, "White") == Some("strata-dev");
        dev_points += match (result, dev_white) {
            ("1/2-1/2", _) => 0.5,
            ("1-0", true) | ("0-1", false) => 1.0,
            _ => 0.0,
        };
        match header(h, "Termination").unwrap() {
            "time forfeit" => time += 1,
            "illegal move" => illegal += 1,
            t if t.contains("abandoned") || t.contains("stalled") => crash += 1,
            _ => {}
        }
        if let Some(v) = w.strata_variant {
            assert_eq!(header(h, "Variant"), Some(v));
        }
    }
    assert_eq!(
        dev_points,
        r.trinomial[2] as f64 + 0.5 * r.trinomial[1] as f64
    );
    assert_eq!(
        (r.timelosses, r.illegals, r.crashes),
        (time, illegal, crash)
    );
    // Comments as OpenBench's PGN compressor reads them: score/depth, time, n=, sd=.
    assert!(
        Regex::new(r"\{[+-]?M?\d+(\.\d+)?/\d+ [\d.]+s, n=\d+ sd=\d+\}")
            .unwrap()
            .is_match(&text),
        "{text}"
    );
}

/// A chess test as the worker sends it to fastchess (an STC test, a book, adjudication),
/// played by strata match with strata on both sides.
#[test]
fn the_workers_chess_command_line_plays_and_parses() {
    play_worker_command(
        "openbench-chess",
        &Workload {
            book_name: "strata-test.epd",
            book_index: 3,
            book_seed: 1234,
            concurrency_per: 2,
            rounds_per_runner: 2,
            win_adj: "movecount=3 score=400",
            draw_adj: "movenumber=40 movecount=8 score=10",
            options: "Threads=1 Hash=16",
            time_control: "2.0+0.04",
            strata_variant: None,
            datagen: false,
        },
        &[
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
            "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1",
            "rnbqkb1r/pppppppp/5n2/8/2P5/8/PP1PPPPP/RNBQKBNR w KQkq - 1 2",
            "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 c0 \"sicilian\";",
        ],
    );
}

/// A Chess960 test (the book's name says FRC, so the worker passes `-variant fischerandom`).
#[test]
fn the_workers_chess960_command_line_plays_and_parses() {
    play_worker_command(
        "openbench-frc",
        &Workload {
            book_name: "strata-FRC.epd",
            book_index: 0,
            book_seed: 9,
            concurrency_per: 2,
            rounds_per_runner: 2,
            win_adj: "movecount=3 score=400",
            draw_adj: "movenumber=40 movecount=8 score=10",
            options: "Threads=1 Hash=16",
            time_control: "N=4000",
            strata_variant: None,
            datagen: false,
        },
        &[
            "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
            "nrkbbrqn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBRQN w FBfb - 0 1",
        ],
    );
}

/// A Polyhedron test through contrib/openbench/worker.patch: the dev engine's own
/// `strata match`, fixed nodes (`N=` in OpenBench's time control field).
#[test]
fn the_patched_workers_variant_command_line_plays_and_parses() {
    play_worker_command(
        "openbench-polyhedron",
        &Workload {
            book_name: "Pohl.epd",
            book_index: 100,
            book_seed: 77,
            concurrency_per: 2,
            rounds_per_runner: 2,
            win_adj: "movecount=3 score=400",
            draw_adj: "movenumber=40 movecount=8 score=10",
            options: "Threads=1 Hash=16 UCI_Variant=polyhedron",
            time_control: "N=3000",
            strata_variant: Some("polyhedron"),
            datagen: false,
        },
        &["unused: the patch plays random openings for strata's variants"],
    );
}

/// The patch in contrib/openbench builds exactly the command `runner_command` above
/// mirrors: its key lines are there.
#[test]
fn the_worker_patch_is_the_one_mirrored_here() {
    let patch = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("contrib/openbench/worker.patch"),
    )
    .unwrap();
    for line in [
        "+        flags  = ' -recover -variant %s' % (variant)",
        "+    return '-openings random-plies=8 seed=%d' % (seed)",
        "+    seed  = config.workload['test']['book_seed'] * 1000003 + start",
        "+        return os.path.join('Engines', dev_cmd) + ' match' + flags",
        "+            args['setup'] = ['setoption name UCI_Variant value %s' % (variant)]",
        "+    command += args.get('setup', [])",
        "+            epd = fen if args.get('setup') else convert_fen_to_epd(fen)",
        "+            flags += ' ' + MatchRunner.book_settings(config, runner_idx)",
    ] {
        assert!(patch.contains(line), "worker.patch lacks: {line}");
    }
}

/// Client/genfens.py `genfens_command_builder` (with worker.patch's `setup` commands first
/// for a strata variant): `['./Engines/<dev>', 'genfens %d seed %d book %s %s' % (N, seed,
/// book, extra), 'quit']`.
fn genfens_command(
    dev: &str,
    n: u64,
    seed: u64,
    book: &str,
    extra: &str,
    setup: &[String],
) -> Vec<String> {
    let mut command = vec![format!("./{}", Path::new("Engines").join(dev).display())];
    command.extend(setup.iter().cloned());
    command.push(format!("genfens {n} seed {seed} book {book} {extra}"));
    command.push("quit".into());
    command
}

/// `genfens_single_threaded`: stdout and stderr together, every line that starts with
/// `info string genfens `, split on `genfens ` and stripped on the right.
fn genfens_output(dir: &Path, command: &[String]) -> Vec<String> {
    let out = output_of(
        Command::new(dir.join(&command[0]))
            .args(&command[1..])
            .current_dir(dir),
    );
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap() + &String::from_utf8(out.stderr).unwrap();
    text.split_inclusive('\n')
        .filter(|l| l.starts_with("info string genfens "))
        .map(|l| l.split("genfens ").nth(1).unwrap().trim_end().to_string())
        .collect()
}

/// `convert_fen_to_epd`: the FEN's last two fields (there must be exactly six) become
/// `hmvc H; fmvn F;`. worker.patch writes a strata variant's FEN as it is.
fn convert_fen_to_epd(fen: &str, patched_variant: bool) -> String {
    if patched_variant {
        return fen.to_string();
    }
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let [placement @ .., half, full] = &fields[..] else {
        panic!("{fen}")
    };
    assert_eq!(
        placement.len(),
        4,
        "convert_fen_to_epd cannot unpack '{fen}'"
    );
    let (half, full): (i64, i64) = (half.parse().unwrap(), full.parse().unwrap());
    format!("{} hmvc {half}; fmvn {full};", placement.join(" "))
}

/// `create_genfens_opening_book` over `threads` engine processes (one seed each, as the
/// server's `genfens_seeds`): the book's lines.
fn genfens_book(
    dir_name: &str,
    w: &Workload,
    threads: u64,
    seeds: &[u64],
    book: &str,
) -> Vec<String> {
    let dir = scratch(dir_name);
    for sub in ["Engines", "Books"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    let dev = "strata-1a2b3c4d";
    std::fs::copy(strata(), dir.join("Engines").join(dev)).unwrap();
    std::fs::write(
        dir.join("Books/strata-test.epd"),
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\n",
    )
    .unwrap();
    // genfens_required_openings_each: runner-count 1, play_reverses true.
    let total_games = u64::from(w.rounds_per_runner) / 2;
    let n = total_games.div_ceil(threads).max(4);
    let setup: Vec<String> = w
        .strata_variant
        .map(|v| format!("setoption name UCI_Variant value {v}"))
        .into_iter()
        .collect();
    let mut lines = Vec::new();
    for &seed in seeds.iter().take(threads as usize) {
        let command = genfens_command(dev, n, seed, book, "", &setup);
        let fens = genfens_output(&dir, &command);
        assert_eq!(fens.len() as u64, n, "{command:?}");
        // The same seed gives the same openings.
        assert_eq!(genfens_output(&dir, &command), fens);
        lines.extend(
            fens.iter()
                .map(|f| convert_fen_to_epd(f, w.strata_variant.is_some())),
        );
    }
    let distinct: std::collections::HashSet<&String> = lines.iter().collect();
    assert_eq!(distinct.len(), lines.len(), "{lines:?}");
    lines
}

/// A chess DATAGEN workload: the worker's genfens command lines (without and with a book),
/// the book built from their output, then the match played from it.
#[test]
fn the_workers_genfens_book_is_built_and_played() {
    let w = Workload {
        book_name: "None",
        book_index: 0,
        book_seed: 5,
        concurrency_per: 2,
        rounds_per_runner: 2,
        win_adj: "movecount=3 score=400",
        draw_adj: "movenumber=40 movecount=8 score=10",
        options: "Threads=1 Hash=16",
        time_control: "N=2000",
        strata_variant: None,
        datagen: true,
    };
    let book = genfens_book(
        "openbench-genfens-chess",
        &w,
        2,
        &[1_234_567, 2_147_483_647],
        "None",
    );
    let from_book = genfens_book(
        "openbench-genfens-book",
        &w,
        1,
        &[42],
        "Books/strata-test.epd",
    );
    assert!(
        from_book.iter().all(|l| l.ends_with("fmvn 3;")),
        "{from_book:?}"
    );
    let lines: Vec<&str> = book.iter().map(String::as_str).collect();
    play_worker_command("openbench-datagen-chess", &w, &lines);
}

/// A Polyhedron DATAGEN workload through worker.patch: `setoption name UCI_Variant value
/// polyhedron` before `genfens`, the FENs kept as they are, the match from that book.
#[test]
fn the_patched_workers_variant_genfens_book_is_built_and_played() {
    let w = Workload {
        book_name: "None",
        book_index: 0,
        book_seed: 5,
        concurrency_per: 2,
        rounds_per_runner: 2,
        win_adj: "movecount=3 score=400",
        draw_adj: "movenumber=40 movecount=8 score=10",
        options: "Threads=1 Hash=16 UCI_Variant=polyhedron",
        time_control: "N=2000",
        strata_variant: Some("polyhedron"),
        datagen: true,
    };
    let book = genfens_book("openbench-genfens-polyhedron", &w, 2, &[7, 8], "None");
    assert!(book.iter().all(|l| l.contains('|')), "{book:?}");
    let lines: Vec<&str> = book.iter().map(String::as_str).collect();
    play_worker_command("openbench-datagen-polyhedron", &w, &lines);
}
