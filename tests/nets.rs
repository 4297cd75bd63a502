//! Learned evaluations end to end in a variant defined in a file (Raumschach): self-play data
//! with `strata datagen` (in the binary format), one epoch of `strata train-net`, the network loaded with
//! `setoption name EvalFile` and searched with; a network for another board refused.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn strata() -> &'static str {
    env!("CARGO_BIN_EXE_strata")
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh directory under the target directory.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `strata ARGS`, which must succeed; its standard output.
fn run(args: &[&str]) -> String {
    let out = Command::new(strata()).args(args).output().unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "strata {args:?}: {stdout}{stderr}");
    stdout
}

/// The protocol session `lines` (then `quit`): everything the engine printed.
fn session(lines: &[String]) -> String {
    let mut child = Command::new(strata())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for l in lines {
        writeln!(stdin, "{l}").unwrap();
    }
    writeln!(stdin, "quit").unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn a_file_variant_gets_a_network_from_its_own_games() {
    let dir = scratch("nets-raumschach");
    // The variant file without the network it ships (`net = ...`): this test trains and
    // names its own.
    let shipped_text = std::fs::read_to_string(root().join("variants/raumschach.toml")).unwrap();
    let bare: String = shipped_text
        .lines()
        .filter(|l| !l.starts_with("net = "))
        .map(|l| format!("{l}\n"))
        .collect();
    let file = dir.join("raumschach.toml");
    std::fs::write(&file, &bare).unwrap();
    let file = file.to_string_lossy();
    let data = dir.join("games.bin");
    let data = data.to_string_lossy();
    let net = dir.join("raumschach.net");
    let net = net.to_string_lossy();
    // Four games of seed `seed` into `out` (binary or text by its name).
    let datagen = |seed: &str, out: &str| {
        run(&[
            "--variant-file",
            &file,
            "datagen",
            "--variant",
            "raumschach",
            "--games",
            "4",
            "--nodes",
            "300",
            "--random-plies",
            "6",
            "--seed",
            seed,
            "--out",
            out,
        ])
    };
    let said = datagen("3", &data);
    assert!(said.contains("4 games"), "{said}");
    // The arguments of training on `games` into `out`, one epoch unless `extra` says
    // otherwise.
    let train_args_on = |games: &str, out: &str, extra: &[&str]| -> Vec<String> {
        let mut args = vec![
            "--variant-file",
            &file,
            "train-net",
            "--variant",
            "raumschach",
            "--data",
            games,
            "--hidden",
            "32",
            "--batch",
            "64",
            "--holdout",
            "2",
            "--out",
            out,
        ];
        args.extend_from_slice(extra);
        if !extra.contains(&"--epochs") {
            args.extend_from_slice(&["--epochs", "1"]);
        }
        args.into_iter().map(String::from).collect()
    };
    let train_args = |out: &str, extra: &[&str]| train_args_on(&data, out, extra);
    let train = |out: &str, extra: &[&str]| {
        let args = train_args(out, extra);
        run(&args.iter().map(String::as_str).collect::<Vec<_>>())
    };
    // The engine's words on `net` loaded for the variant: `eval` at the start, and a search
    // to `depth`.
    let searched_with = |net: &str, depth: &str| {
        session(&[
            format!("setoption name VariantPath value {file}"),
            format!("setoption name EvalFile value {net}"),
            "setoption name UCI_Variant value raumschach".into(),
            "position startpos".into(),
            "eval".into(),
            format!("go depth {depth}"),
            "isready".into(),
        ])
    };
    // Training with `extra` into `out` fails: what it printed on its standard error.
    let fails = |out: &str, extra: &[&str]| {
        let o = Command::new(strata())
            .args(train_args(out, extra))
            .output()
            .unwrap();
        assert!(!o.status.success(), "{extra:?}");
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    let said = train(&net, &[]);
    assert!(said.contains("epoch 1: training loss"), "{said}");
    assert!(said.contains("raumschach: "), "{said}");
    let size = std::fs::metadata(&*net).unwrap().len();
    assert!(size > 32 * 2 * 125 * 2, "{size} bytes");

    // Factorised training writes a network of the same size: the factors are in its rows.
    let factorised = dir.join("factorised.net");
    let factorised = factorised.to_string_lossy();
    let said = train(&factorised, &["--factorise"]);
    assert!(said.contains("epoch 1: training loss"), "{said}");
    assert_eq!(std::fs::metadata(&*factorised).unwrap().len(), size);
    assert_ne!(
        std::fs::read(&*factorised).unwrap(),
        std::fs::read(&*net).unwrap()
    );
    // A linear path (--linear) makes a version 3 file, 4 bytes an input larger, that the
    // engine loads and evaluates with.
    let linear = dir.join("linear.net");
    let linear = linear.to_string_lossy();
    let said = train(&linear, &["--factorise", "--linear"]);
    assert!(said.contains("8 buckets, a linear path"), "{said}");
    let inputs: u64 = said
        .split(" inputs,")
        .next()
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{said}"));
    let bytes = std::fs::read(&*linear).unwrap();
    assert_eq!(bytes.len() as u64, size + 4 * inputs);
    assert_eq!(bytes[8..12], 3u32.to_le_bytes());
    let out = searched_with(&linear, "2");
    assert!(
        out.contains("Network evaluation (what the search uses)")
            && out.contains("\nbestmove ")
            && !out.contains("error"),
        "{out}"
    );
    // King buckets (--king-buckets, here mirrored on Raumschach's five files: three buckets
    // on the first rank by file, a fourth beyond it): a version 6 file, the board inputs
    // four times over, that the engine loads and searches with, and trains further with
    // --init (keeping its layout: a network with king buckets grows no others).
    let kings = dir.join("kings.net");
    let kings = kings.to_string_lossy();
    let layout = ["--king-buckets", "012/333", "--king-mirror", "--factorise"];
    let said = train(&kings, &layout);
    assert!(said.contains("(4 king buckets, mirrored)"), "{said}");
    let k = std::fs::read(&*kings).unwrap();
    assert_eq!(k[8..12], 6u32.to_le_bytes());
    let kings_inputs: u64 = said
        .split(" inputs (")
        .next()
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{said}"));
    // The board's inputs three more times; the header's flag, share, terms' name ("all"),
    // mirror, bucket count and a bucket for each of the 125 cells.
    let hands = inputs - (kings_inputs - inputs) / 3;
    assert!(hands < inputs / 10, "{said}");
    let header = 4 + 4 + 2 + 3 + 1 + 2 + 125;
    assert_eq!(
        k.len() as u64,
        size + 2 * 32 * (kings_inputs - inputs) + header
    );
    let out = searched_with(&kings, "3");
    assert!(
        out.contains("Network evaluation (what the search uses)")
            && out.contains("4 king buckets mirrored)")
            && out.contains("\nbestmove ")
            && !out.contains("error"),
        "{out}"
    );
    let again = dir.join("kings-again.net");
    let again = again.to_string_lossy();
    let said = train(&again, &["--init", &kings]);
    assert!(said.contains("(4 king buckets, mirrored)"), "{said}");
    let text = fails(&again, &["--init", &kings, "--king-buckets", "00000/11111"]);
    assert!(
        text.contains("only a network of the plain layout"),
        "{text}"
    );
    // A plain network given with --init grows into king buckets, every bucket starting as
    // its rows.
    let said = train(&again, &["--init", &net, "--king-buckets", "00000/11111"]);
    assert!(
        said.contains("grew the network into king buckets") && said.contains("(2 king buckets)"),
        "{said}"
    );
    // A network given with --init and more --hidden neurons grows (the new ones without
    // output weights): the engine evaluates the grown file as it did the network; it does
    // not shrink.
    let wide = dir.join("wide.net");
    let wide = wide.to_string_lossy();
    let grow_args = |hidden: &str| -> Vec<String> {
        let mut args = train_args(&wide, &["--init", &net, "--epochs", "0"]);
        let at = args.iter().position(|a| a == "--hidden").unwrap();
        args[at + 1] = hidden.into();
        args
    };
    let said = run(&grow_args("64")
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>());
    assert!(
        said.contains("grew the network from 32 to 64 hidden neurons")
            && said.contains("64 hidden neurons, 8 buckets"),
        "{said}"
    );
    assert!(
        std::fs::metadata(&*wide).unwrap().len() > size * 3 / 2,
        "{said}"
    );
    let evaluation = |net: &str| -> String {
        let out = searched_with(net, "1");
        out.lines()
            .find(|l| l.contains("Network evaluation (what the search uses)"))
            .unwrap_or_else(|| panic!("{out}"))
            .replace("64 hidden", "32 hidden")
    };
    assert_eq!(evaluation(&wide), evaluation(&net));
    let o = Command::new(strata())
        .args(grow_args("16"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stderr);
    assert!(
        !o.status.success() && text.contains("does not shrink to 16"),
        "{text}"
    );
    for (bad, says) in [
        ("012/33", "a rank of 2 buckets"),
        ("013/333", "bucket 2 is never used"),
    ] {
        let text = fails(&again, &["--king-buckets", bad, "--king-mirror"]);
        assert!(text.contains(says), "{bad}: {text}");
    }
    // A share of the terms (--terms-share) given to that network without training it
    // (--init, --epochs 0): a version 4 file, 8 bytes larger, whose blend of the network's
    // and the terms' values `eval` shows and the search plays with.
    let blended = dir.join("blended.net");
    let blended = blended.to_string_lossy();
    let said = train(
        &blended,
        &["--init", &linear, "--epochs", "0", "--terms-share", "40"],
    );
    assert!(said.contains("blended 60/40 with the terms"), "{said}");
    assert!(!said.contains("epoch 1"), "{said}");
    let b = std::fs::read(&*blended).unwrap();
    assert_eq!(
        (b.len(), &b[8..12]),
        (bytes.len() + 8, &4u32.to_le_bytes()[..])
    );
    let out = session(&[
        format!("setoption name VariantPath value {file}"),
        format!("setoption name EvalFile value {blended}"),
        "setoption name UCI_Variant value raumschach".into(),
        "position startpos".into(),
        "eval".into(),
        "go depth 2".into(),
        "isready".into(),
    ]);
    let value = |after: &str| -> f64 {
        let l = out
            .lines()
            .find(|l| l.contains(after))
            .unwrap_or_else(|| panic!("{out}"));
        let l = &l[l.find(after).unwrap() + after.len()..];
        l.split_whitespace().next().unwrap().parse().unwrap()
    };
    let terms = value("(White's team), ");
    let own = value("Network evaluation (alone): ");
    let mix = value("Blended evaluation (what the search uses): ");
    assert!((mix - (own * 0.6 + terms * 0.4)).abs() <= 0.011, "{out}");
    assert!(own != terms, "{out}");
    assert!(
        out.contains("\nbestmove ") && !out.contains("error"),
        "{out}"
    );
    // Training into `blended` with `extra` fails saying `says`, and leaves the file alone.
    let refused = |extra: &[&str], says: &str| {
        let out = Command::new(strata())
            .args(train_args(&blended, extra))
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && text.contains(says), "{text}");
        assert_eq!(std::fs::read(&*blended).unwrap(), b);
    };
    // A share of 100 % or more is refused before anything is read.
    refused(
        &["--init", &linear, "--epochs", "0", "--terms-share", "100"],
        "--terms-share 100: 0 to 99",
    );
    // Trained with a share, a network is trained blended, which needs every position's
    // terms: binary records are refused (the file left alone), text positions train it.
    refused(&["--init", &blended], "text data files only");
    let text_data = dir.join("games.txt");
    let text_data = text_data.to_string_lossy();
    datagen("4", &text_data);
    let args = train_args_on(
        &text_data,
        &blended,
        &["--init", &blended, "--rate", "0.01"],
    );
    let said = run(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(
        said.contains("blended 60/40 with the terms")
            && said.contains("validation loss")
            && said.contains(", blended with the terms ("),
        "{said}"
    );
    let trained = std::fs::read(&*blended).unwrap();
    assert_eq!((trained.len(), &trained[8..12]), (b.len(), &b[8..12]));
    assert_ne!(trained, b);

    // --keep-best names the epoch of the lowest validation loss, and the file is a network.
    let best = dir.join("best.net");
    let best = best.to_string_lossy();
    let said = train(&best, &["--keep-best", "--epochs", "4", "--rate", "0.05"]);
    let epochs: Vec<f64> = said
        .lines()
        .filter(|l| l.starts_with("epoch "))
        .filter_map(|l| l.split("validation loss ").nth(1))
        .filter_map(|l| l.split_whitespace().next()?.parse().ok())
        .collect();
    assert_eq!(epochs.len(), 4, "{said}");
    let lowest = (0..4).fold(0, |b, i| if epochs[i] < epochs[b] { i } else { b });
    assert!(
        said.contains(&format!("kept epoch {} (validation loss", lowest + 1)),
        "{said}"
    );
    assert_eq!(std::fs::metadata(&*best).unwrap().len(), size);
    let out = session(&[
        format!("setoption name VariantPath value {file}"),
        format!("setoption name EvalFile value {factorised}"),
        "setoption name UCI_Variant value raumschach".into(),
        "position startpos".into(),
        "eval".into(),
        "isready".into(),
    ]);
    assert!(
        out.contains("Network evaluation (what the search uses)") && !out.contains("error"),
        "{out}"
    );

    // Loaded for the variant its file names, searched with, and shown by `eval`.
    let out = searched_with(&net, "3");
    assert!(
        out.contains("info string raumschach plays with the network"),
        "{out}"
    );
    assert!(
        out.contains("Network evaluation (what the search uses)"),
        "{out}"
    );
    assert!(out.contains("\nbestmove "), "{out}");
    assert!(!out.contains("error"), "{out}");

    // Without the variant loaded first, and for another board under the same name: refused,
    // and the engine plays on with what it had.
    let other = dir.join("other.toml");
    let text = std::fs::read_to_string(&*file).unwrap();
    // The same board without two pawns: another start, so another fingerprint.
    let text = text
        .replace("5/5/5/PPPPP/RNKNR", "5/5/5/PP1PP/RNKNR")
        .replace("rnknr/ppppp/5/5/5", "rnknr/pp1pp/5/5/5");
    assert_ne!(text, std::fs::read_to_string(&*file).unwrap());
    std::fs::write(&other, text).unwrap();
    let out = session(&[
        format!("setoption name EvalFile value {net}"),
        format!("setoption name VariantPath value {}", other.display()),
        format!("setoption name EvalFile value {net}"),
        "setoption name EvalFile value /nonexistent/net".into(),
        "isready".into(),
    ]);
    let errors: Vec<&str> = out.lines().filter(|l| l.contains("error")).collect();
    assert_eq!(errors.len(), 3, "{out}");
    assert!(errors[0].contains("which is not loaded"), "{out}");
    assert!(errors[1].contains("another board"), "{out}");
    assert!(errors[2].contains("cannot read the file"), "{out}");
    assert!(out.contains("readyok"), "{out}");

    // Shipped beside its variant file (`net = "..."`): the variant plays with it as soon as
    // the file is loaded, on the command line and over the protocol, until `EvalFile none`.
    let shipped = scratch("nets-raumschach-shipped");
    std::fs::copy(&*net, shipped.join("space.net")).unwrap();
    let with_net = std::fs::read_to_string(&*file).unwrap().replacen(
        "\nboard = ",
        "\nnet = \"space.net\"\nboard = ",
        1,
    );
    assert!(with_net.contains("net = \"space.net\""));
    let shipped_file = shipped.join("raumschach.toml");
    std::fs::write(&shipped_file, &with_net).unwrap();
    let shipped_file = shipped_file.to_string_lossy();
    let network_line = |out: &str| {
        out.lines()
            .find(|l| l.starts_with("Network evaluation"))
            .map(str::to_string)
    };
    let out = session(&[
        format!("setoption name VariantPath value {shipped_file}"),
        "setoption name UCI_Variant value raumschach".into(),
        "position startpos".into(),
        "eval".into(),
        "setoption name EvalFile value none".into(),
        "eval".into(),
        "isready".into(),
    ]);
    assert!(!out.contains("error"), "{out}");
    let first = out.find("Network evaluation").expect(&out);
    assert!(
        !out[first + 1..].contains("Network evaluation"),
        "EvalFile none plays without the network: {out}"
    );
    // The same score as the same network loaded with EvalFile.
    let by_file = session(&[
        format!("setoption name VariantPath value {file}"),
        format!("setoption name EvalFile value {net}"),
        "setoption name UCI_Variant value raumschach".into(),
        "position startpos".into(),
        "eval".into(),
    ]);
    assert_eq!(network_line(&out), network_line(&by_file), "{out}{by_file}");
    let bench = |more: &[&str]| {
        let mut args = vec!["--variant-file", &shipped_file, "bench", "--variant"];
        args.extend(["raumschach", "--depth", "3"]);
        args.extend(more);
        run(&args)
    };
    let (said, plain) = (bench(&[]), bench(&["--eval-file", "none"]));
    let nodes = |s: &str| {
        s.lines()
            .find(|l| l.starts_with("total:"))
            .map(str::to_string)
    };
    assert_ne!(
        nodes(&said),
        nodes(&plain),
        "the network changes the search"
    );

    // A `net` that leaves the folder, is missing, or is for another board: the whole file
    // is refused with the line of its `net`, and nothing is registered.
    for (value, why) in [
        (
            "../space.net",
            "must name a file in the variant file's folder",
        ),
        (
            "/etc/passwd",
            "must name a file in the variant file's folder",
        ),
        ("missing.net", "cannot read the file"),
        ("other.net", "another board"),
        ("link.net", "must name a file in the variant file's folder"),
    ] {
        let refused = shipped.join("refused.toml");
        std::fs::write(
            &refused,
            with_net.replace("net = \"space.net\"", &format!("net = \"{value}\"")),
        )
        .unwrap();
        let _ = std::fs::remove_file(shipped.join("other.net"));
        if value == "link.net" {
            // A link inside the folder that leads out of it.
            let _ = std::fs::remove_file(shipped.join("link.net"));
            std::os::unix::fs::symlink(&*net, shipped.join("link.net")).unwrap();
        }
        if value == "other.net" {
            // A network trained for another board under the same name.
            std::fs::copy(&*net, shipped.join("other.net")).unwrap();
            let moved = with_net
                .replace("5/5/5/PPPPP/RNKNR", "5/5/5/PP1PP/RNKNR")
                .replace("rnknr/ppppp/5/5/5", "rnknr/pp1pp/5/5/5")
                .replace("net = \"space.net\"", "net = \"other.net\"");
            std::fs::write(&refused, moved).unwrap();
        }
        let out = session(&[
            format!("setoption name VariantPath value {}", refused.display()),
            "setoption name UCI_Variant value raumschach".into(),
            "isready".into(),
        ]);
        let error = out
            .lines()
            .find(|l| l.starts_with("info string error"))
            .unwrap_or_else(|| panic!("{value}: {out}"));
        assert!(error.contains(why), "{value}: {error}");
        assert!(error.contains("net: "), "{value}: {error}");
        assert!(
            error.contains(":12:") || error.contains("line 12"),
            "{value}: {error}"
        );
        assert!(out.contains("readyok"), "{out}");
    }
}

/// Another variant's network as the start of training (`train-net --init`): chess's carried
/// into Pole Chess, whose board and first six pieces are chess's; the result loads with
/// `EvalFile` as Pole Chess's network.
#[test]
fn chess_network_carries_into_pole_chess() {
    let dir = scratch("nets-pole-carried");
    // Two games of Pole Chess at 300 nodes a move on seed 5 into `out`.
    let games = |out: &str, extra: &[&str]| {
        let mut args = vec![
            "datagen",
            "--variant",
            "pole",
            "--games",
            "2",
            "--nodes",
            "300",
        ];
        args.extend(["--seed", "5", "--out", out]);
        args.extend_from_slice(extra);
        run(&args)
    };
    let data = dir.join("pole.bin");
    let data = data.to_string_lossy();
    let said = games(&data, &[]);
    assert!(said.contains("2 games"), "{said}");
    let chess = root().join("src/eval/nets/chess.net");
    let net = dir.join("pole.net");
    let net = net.to_string_lossy();
    let said = run(&[
        "train-net",
        "--variant",
        "pole",
        "--data",
        &data,
        "--init",
        &chess.to_string_lossy(),
        "--epochs",
        "1",
        "--holdout",
        "2",
        "--out",
        &net,
    ]);
    assert!(
        said.contains("carried 816 of 952 inputs from the 'chess' network"),
        "{said}"
    );
    assert!(said.contains("epoch 1: training loss"), "{said}");
    let out = session(&[
        "setoption name UCI_Variant value pole".into(),
        format!("setoption name EvalFile value {net}"),
        "position startpos".into(),
        "eval".into(),
        "isready".into(),
    ]);
    assert!(out.contains("pole plays with the network"), "{out}");
    assert!(out.contains("Network evaluation"), "{out}");
    assert!(!out.contains("error"), "{out}");

    // The next round's games played by that network (`datagen --eval-file`): other games
    // than those of the network the build embeds on the same seed, and the file's first line
    // says how they were made.
    let again = dir.join("pole-net.bin");
    let again = again.to_string_lossy();
    let said = games(&again, &["--eval-file", &net]);
    assert!(said.contains("pole plays with the network"), "{said}");
    let (terms, by_net) = (
        std::fs::read(&*data).unwrap(),
        std::fs::read(&*again).unwrap(),
    );
    assert_ne!(terms, by_net);
    let head = String::from_utf8_lossy(&by_net[..by_net.len().min(400)]).into_owned();
    assert!(head.contains(&format!("--eval-file {net}")), "{head}");
}

/// A network blended with the terms is judged beside the terms it plays with, trained or not:
/// in Future Generation, which blends with its reach terms only, going on from a blended
/// network with `--epochs 0` reports the same losses before training as with one epoch (it
/// used to report those of the whole evaluation by terms).
#[test]
fn a_blend_is_judged_beside_its_own_terms_untrained_too() {
    let dir = scratch("nets-blend-terms");
    let data = dir.join("fg.txt");
    let data = data.to_string_lossy();
    let said = run(&[
        "datagen",
        "--variant",
        "future-generation",
        "--games",
        "4",
        "--nodes",
        "300",
        "--seed",
        "5",
        "--out",
        &data,
    ]);
    assert!(said.contains("4 games"), "{said}");
    // Trains on the data into `out` with `extra`; the lines that judge the network before
    // training.
    let train = |out: &str, extra: &[&str]| {
        let mut args = vec![
            "train-net",
            "--variant",
            "future-generation",
            "--data",
            &data,
            "--hidden",
            "16",
            "--holdout",
            "2",
        ];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--out", out]);
        let said = run(&args);
        let line = |what: &str| -> String {
            said.lines()
                .find(|l| l.starts_with(what))
                .unwrap_or_else(|| panic!("no '{what}' in {said}"))
                .to_string()
        };
        (
            line("the terms it blends with, alone: "),
            line("before, blended with the terms as it plays: "),
        )
    };
    let path = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let first = path("first.net");
    train(&first, &["--terms-share", "50", "--epochs", "1"]);
    let untrained = train(&path("again.net"), &["--init", &first, "--epochs", "0"]);
    let trained = train(&path("further.net"), &["--init", &first, "--epochs", "1"]);
    assert_eq!(untrained, trained);
}

/// `eval` says what the search uses where chess's endgame knowledge replaces the network's
/// score (a lone King against a Bishop and Knight: a sure win, src/eval/chess/endgames.rs),
/// and that it is the network's score elsewhere.
#[test]
fn eval_shows_the_lone_king_evaluation() {
    let out = session(&[
        "position fen k7/8/8/8/8/8/8/2B1KN2 w - - 0 1".to_string(),
        "eval".to_string(),
        "position fen k7/8/8/8/8/8/8/2B1KN2 b - - 0 1".to_string(),
        "eval".to_string(),
        "position startpos".to_string(),
        "eval".to_string(),
    ]);
    let used: Vec<f64> = out
        .lines()
        .filter_map(|l| {
            l.strip_prefix("With the variant's endgame knowledge (what the search uses): ")
        })
        .map(|l| l.split(' ').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(used.len(), 2, "{out}");
    assert!(used[0] > 20.0 && used[1] == -used[0], "{out}");
    assert_eq!(
        out.matches("Network evaluation (alone)").count(),
        2,
        "{out}"
    );
    assert_eq!(
        out.matches("Network evaluation (what the search uses)")
            .count(),
        1,
        "{out}"
    );
}
