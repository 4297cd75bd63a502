//! `strata datagen` as a machine of a distributed run uses it: shards of one seed written
//! to binary files, reproduced byte for byte whatever `--threads`, concatenated with `cat`
//! and read back through `strata::tuning::records` (docs/data-format.md).

use std::path::{Path, PathBuf};
use std::process::Command;

use strata::rules::Variant;
use strata::tuning::records;

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `strata [pre...] datagen ARGS --out OUT` and returns the file's bytes.
fn datagen(pre: &[&str], args: &str, out: &Path) -> Vec<u8> {
    let status = Command::new(env!("CARGO_BIN_EXE_strata"))
        .args(pre)
        .arg("datagen")
        .args(args.split_whitespace())
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    std::fs::read(out).unwrap()
}

#[test]
fn shards_are_reproduced_byte_for_byte_and_concatenate() {
    let dir = scratch("datagen-shards");
    let common = "--variant chess --games 3 --nodes 200 --seed 9";
    let a1 = datagen(
        &[],
        &format!("{common} --shard 1 --threads 1"),
        &dir.join("a1.bin"),
    );
    let a2 = datagen(
        &[],
        &format!("{common} --shard 1 --threads 2"),
        &dir.join("a2.bin"),
    );
    let b = datagen(
        &[],
        &format!("{common} --shard 2 --threads 2"),
        &dir.join("b.bin"),
    );
    assert_eq!(a1, a2, "shard 1 differs between 1 and 2 threads");
    assert_ne!(a1, b);
    // The header's note is the command that reproduces the file (no --threads in it).
    let note = "strata datagen --variant chess --games 3 --nodes 200 --seed 9 --shard 1";
    assert!(
        a1.windows(note.len()).any(|w| w == note.as_bytes()),
        "no reproducing command in the header"
    );
    let cat = dir.join("all.bin");
    std::fs::write(&cat, [a1.clone(), b.clone()].concat()).unwrap();
    let read = |p: &Path| records::read(p.to_str().unwrap(), Variant::Chess).unwrap();
    let (ra, rb, all) = (
        read(&dir.join("a1.bin")),
        read(&dir.join("b.bin")),
        read(&cat),
    );
    assert!(!ra.is_empty() && !rb.is_empty());
    assert_eq!(all, [ra.clone(), rb.clone()].concat());
    assert_ne!(ra[0], rb[0], "shards 1 and 2 start alike");
    // The same positions as text (the format follows the file name).
    let text = datagen(&[], &format!("{common} --shard 1"), &dir.join("a.txt"));
    assert!(text.starts_with(b"# strata datagen"));
    assert_eq!(read(&dir.join("a.txt")), ra);
    // Read for another variant: refused.
    let e = records::read(cat.to_str().unwrap(), Variant::Pole).unwrap_err();
    assert!(e.contains("written for variant 'chess'"), "{e}");
}

#[test]
fn a_variant_from_a_file_writes_binary_data() {
    let dir = scratch("datagen-raumschach");
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/variants/raumschach.toml");
    let bytes = datagen(
        &["--variant-file", file],
        "--variant raumschach --games 2 --nodes 150 --seed 3 --format binary",
        &dir.join("r.data"),
    );
    assert!(bytes.starts_with(b"\xffSTRD\x01"));
    let v = strata::rules::defined::load_file(file, strata::eval::nnue::check_net).unwrap()[0];
    let got = records::read(dir.join("r.data").to_str().unwrap(), v).unwrap();
    assert!(!got.is_empty());
    assert!(got.iter().all(|r| r.game == 1 || r.game == 2));
}
