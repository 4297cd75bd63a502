//! The strength levels in play: through `strata match` (the runner referees every move), in
//! every variant, the weakest level loses a short seeded match to full strength at equal
//! node limits, and weakened engines play whole games at a fast time control without a
//! forfeit, a stall or an illegal move.

use std::process::Command;

use strata::rules::Variant;

/// Runs `strata match` with `args`; returns its output.
fn strata_match(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_strata"))
        .arg("match")
        .args(args)
        .output()
        .expect("strata match runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The first engine's points in the match summary (`Points: 1.5 (..)`).
fn points(output: &str) -> f64 {
    let line = output
        .lines()
        .rev()
        .find(|l| l.starts_with("Games:"))
        .unwrap_or_else(|| panic!("no summary: {output}"));
    line.split("Points: ")
        .nth(1)
        .and_then(|p| p.split_whitespace().next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no points in '{line}'"))
}

#[test]
fn skill_level_0_loses_to_full_strength_in_every_variant() {
    let exe = env!("CARGO_BIN_EXE_strata");
    for v in Variant::ALL {
        let games = 4;
        let output = strata_match(&[
            "--engine",
            &format!("cmd={exe}"),
            "name=level0",
            "option.Skill Level=0",
            "option.Seed=1",
            "--engine",
            &format!("cmd={exe}"),
            "name=full",
            "--each",
            // Full strength at 10 000 nodes a move is 18 times level 0's 552.
            "nodes=10000",
            "--variant",
            v.name(),
            "--games",
            &games.to_string(),
            "--concurrency",
            "2",
            "--openings",
            "random-plies=4",
            "seed=1",
        ]);
        let p = points(&output);
        assert!(
            p < games as f64 / 2.0,
            "{}: level 0 scored {p} of {games}\n{output}",
            v.name()
        );
    }
}

#[test]
fn weakened_engines_play_whole_games_in_time() {
    let exe = env!("CARGO_BIN_EXE_strata");
    for v in [
        Variant::Chess,
        Variant::Polyhedron,
        Variant::FutureGeneration,
    ] {
        let output = strata_match(&[
            "--engine",
            &format!("cmd={exe}"),
            "name=elo",
            "option.UCI_LimitStrength=true",
            "option.UCI_Elo=1500",
            "--engine",
            &format!("cmd={exe}"),
            "name=skill",
            "option.Skill Level=12",
            "--each",
            // Weakened levels stop at a node limit, so the clock only has to leave room for
            // a loaded machine (at 2 s + 0.02 s a Polyhedron game lost on time under load).
            "tc=10+0.1",
            "--variant",
            v.name(),
            "--games",
            "2",
            "--concurrency",
            "2",
            "--openings",
            "random-plies=4",
            "seed=2",
        ]);
        let finished: Vec<&str> = output
            .lines()
            .filter(|l| l.starts_with("Finished game"))
            .collect();
        assert_eq!(finished.len(), 2, "{output}");
        for l in finished {
            for bad in ["on time", "illegal", "stalled", "abandon", "crash"] {
                assert!(!l.contains(bad), "{}: {l}", v.name());
            }
        }
    }
}
