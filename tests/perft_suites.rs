//! Runs the perft suite data files in `tests/perft/`: the fast lines in the default suite,
//! every line (deep counts) in the ignored tests (`cargo test --release -- --ignored`).

mod common;

use std::path::Path;

fn run(file: &str, slow: bool) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/perft")
        .join(file);
    let failures = common::run_suite(&path, slow);
    assert!(
        failures.is_empty(),
        "perft failures:\n{}",
        failures.join("\n")
    );
}

macro_rules! suites {
    ($($name:ident => $file:literal),* $(,)?) => {
        mod fast {
            $(#[test] fn $name() { super::run($file, false) })*
        }
        mod deep {
            $(#[test] #[ignore = "deep perft: run with --ignored"] fn $name() { super::run($file, true) })*
        }
        /// Every suite file has a test above.
        #[test]
        fn every_suite_file_is_run() {
            let known = [$($file),*];
            for f in common::suite_files() {
                let name = f.file_name().unwrap().to_string_lossy().to_string();
                assert!(known.contains(&name.as_str()), "{name} has no test in perft_suites.rs");
            }
        }
    };
}

suites! {
    chess => "chess.perft",
    chess960 => "chess960.perft",
    pole => "pole.perft",
    polyhedron => "polyhedron.perft",
    podionic => "podionic.perft",
    pentaplane => "pentaplane.perft",
    future_generation => "future-generation.perft",
    raumschach => "raumschach.perft",
}
