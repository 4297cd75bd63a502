//! The Elo and SPRT arithmetic of `strata match` against figures fastchess and cutechess-cli
//! printed for the same counts. The formulas are those of fastchess (`elo_pentanomial.cpp`,
//! `sprt.cpp`: pentanomial Elo, normalised Elo, LOS, and the normalized-model generalised
//! SPRT, fastchess's default) and cutechess (`elo.cpp`, `sprt.cpp`: trinomial Elo with
//! Winitzki's erf^-1, LOS from W and L, BayesElo SPRT); the expected lines are copied from
//! match logs those programs printed, published in engine repositories (cited per case).
//! Each case renders the counts through the runner's own result printer and compares the
//! lines character for character.

use strata::runner::args::OutputFormat;
use strata::runner::report::{Header, Reporter, Tally};
use strata::runner::stats::{Elo, Sprt, SprtModel, SprtState, Stats};

fn header() -> Header {
    Header {
        names: ["A".into(), "B".into()],
        tc: ["8+0.08".into(), "8+0.08".into()],
        threads: ["1t".into(), "1t".into()],
        hash: ["16MB".into(), "16MB".into()],
        book: String::new(),
    }
}

fn render(format: OutputFormat, penta: bool, sprt: Option<Sprt>, t: &Tally) -> Vec<String> {
    let mut buf = Vec::new();
    Reporter::new(&mut buf, format, penta, sprt, header()).results(t);
    String::from_utf8(buf)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

fn sprt(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Sprt {
    Sprt {
        elo0,
        elo1,
        alpha,
        beta,
        model: SprtModel::Normalized,
    }
}

/// One fastchess result block: the pentanomial counts, the number of win-loss pairs (the
/// printed `WL/DD Ratio` fixes it), the SPRT, and the lines fastchess printed.
struct FastchessCase {
    source: &'static str,
    ptnml: [u32; 5],
    wl: u32,
    sprt: Sprt,
    lines: [&'static str; 5],
}

#[test]
fn fastchess_blocks_match_fastchess_output() {
    let cases = [
        FastchessCase {
            source: "Toudonou/zeno docs/testing.md, 'History Heuristic' (asymmetric alpha/beta)",
            ptnml: [224, 309, 874, 347, 246],
            wl: 746,
            sprt: sprt(0.0, 2.0, 0.05, 0.1),
            lines: [
                "Elo: 7.12 +/- 8.57, nElo: 8.95 +/- 10.77",
                "LOS: 94.84 %, DrawRatio: 43.70 %, PairsRatio: 1.11",
                "Games: 4000, Wins: 1585, Losses: 1503, Draws: 912, Points: 2041.0 (51.02 %)",
                "Ptnml(0-2): [224, 309, 874, 347, 246], WL/DD Ratio: 5.83",
                "LLR: 0.53 (18.2%) (-2.25, 2.89) [0.00, 2.00]",
            ],
        },
        FastchessCase {
            source: "Toudonou/zeno docs/testing.md, 'Change the conditions for returning an evaluation from the TT'",
            ptnml: [200, 557, 1005, 643, 249],
            wl: 653,
            sprt: sprt(0.0, 5.0, 0.05, 0.05),
            lines: [
                "Elo: 12.05 +/- 7.02, nElo: 16.07 +/- 9.35",
                "LOS: 99.96 %, DrawRatio: 37.87 %, PairsRatio: 1.18",
                "Games: 5308, Wins: 1794, Losses: 1610, Draws: 1904, Points: 2746.0 (51.73 %)",
                "Ptnml(0-2): [200, 557, 1005, 643, 249], WL/DD Ratio: 1.86",
                "LLR: 2.97 (101.0%) (-2.94, 2.94) [0.00, 5.00]",
            ],
        },
        FastchessCase {
            source: "Toudonou/zeno docs/testing.md, 'Zeno Doubled and Passed Pawns vs Zeno Develop'",
            ptnml: [352, 579, 1264, 743, 464],
            wl: 1047,
            sprt: sprt(9.0, 16.0, 0.01, 0.01),
            lines: [
                "Elo: 19.83 +/- 6.77, nElo: 24.25 +/- 8.26",
                "LOS: 100.00 %, DrawRatio: 37.15 %, PairsRatio: 1.30",
                "Games: 6804, Wins: 2718, Losses: 2330, Draws: 1756, Points: 3596.0 (52.85 %)",
                "Ptnml(0-2): [352, 579, 1264, 743, 464], WL/DD Ratio: 4.82",
                "LLR: 4.60 (100.0%) (-4.60, 4.60) [9.00, 16.00]",
            ],
        },
        FastchessCase {
            source: "KSaiAkshit/eschec docs/dev_log.md, v0.1.6 8moves_v3.pgn (200 games)",
            ptnml: [1, 24, 42, 25, 8],
            wl: 4,
            sprt: sprt(0.0, 10.0, 0.05, 0.05),
            lines: [
                "Elo: 26.11 +/- 31.23, nElo: 40.51 +/- 48.15",
                "LOS: 95.04 %, DrawRatio: 42.00 %, PairsRatio: 1.32",
                "Games: 200, Wins: 45, Losses: 30, Draws: 125, Points: 107.5 (53.75 %)",
                "Ptnml(0-2): [1, 24, 42, 25, 8], WL/DD Ratio: 0.11",
                "LLR: 0.60 (20.3%) (-2.94, 2.94) [0.00, 10.00]",
            ],
        },
        FastchessCase {
            source: "KSaiAkshit/eschec docs/dev_log.md, v0.1.7 8moves_v3.pgn (200 games)",
            ptnml: [1, 11, 47, 25, 16],
            wl: 10,
            sprt: sprt(0.0, 10.0, 0.05, 0.05),
            lines: [
                "Elo: 77.71 +/- 33.03, nElo: 117.50 +/- 48.15",
                "LOS: 100.00 %, DrawRatio: 47.00 %, PairsRatio: 3.42",
                "Games: 200, Wins: 67, Losses: 23, Draws: 110, Points: 122.0 (61.00 %)",
                "Ptnml(0-2): [1, 11, 47, 25, 16], WL/DD Ratio: 0.27",
                "LLR: 1.71 (57.9%) (-2.94, 2.94) [0.00, 10.00]",
            ],
        },
    ];
    for c in &cases {
        let t = Tally {
            stats: Stats::from_pentanomial(c.ptnml, c.wl),
            ..Tally::default()
        };
        let got = render(OutputFormat::Fastchess, true, Some(c.sprt), &t);
        // got: dashes, "Results of ...", five lines, LLR, dashes.
        assert_eq!(got[0], "-".repeat(50));
        assert_eq!(
            got[1], "Results of A vs B (8+0.08, 1t, 16MB):",
            "{}",
            c.source
        );
        for (i, want) in c.lines.iter().enumerate() {
            assert_eq!(&got[2 + i], want, "{}", c.source);
        }
        assert_eq!(got[7], "-".repeat(50));
    }
}

#[test]
fn sprt_states_and_bounds() {
    let s = sprt(0.0, 5.0, 0.05, 0.05);
    assert!((s.upper() - 2.944_438_979).abs() < 1e-8);
    assert!((s.lower() + 2.944_438_979).abs() < 1e-8);
    // The decisive cases above: H1 accepted at 2.97 over 2.94.
    let t = Stats::from_pentanomial([200, 557, 1005, 643, 249], 653);
    let llr = s.llr(&t, true);
    assert_eq!(s.state(llr), SprtState::H1);
    // The same counts seen from the other engine accept H0 for elo0 = -5, elo1 = 0.
    let mirrored = sprt(-5.0, 0.0, 0.05, 0.05);
    let m = mirrored.llr(&t.flipped(), true);
    assert!((m + llr).abs() < 0.02, "{m} vs {llr}");
    assert_eq!(mirrored.state(m), SprtState::H0);
    // Before any game the LLR is zero-ish and the test goes on.
    let empty = Stats::default();
    assert_eq!(s.state(s.llr(&empty, true)), SprtState::Continue);
    // The logistic model agrees with the normalized one in sign, and is finite.
    let lg = Sprt {
        model: SprtModel::Logistic,
        ..s
    }
    .llr(&t, true);
    assert!(lg.is_finite() && lg > 0.0);
    assert!(sprt(1.0, 0.0, 0.05, 0.05).validate().is_err());
    assert!(sprt(0.0, 1.0, 0.6, 0.5).validate().is_err());
}

#[test]
fn trinomial_elo_matches_fastchess_wdl_formulas() {
    // fastchess EloWDL on W/D/L 1585/912/1503 (the first case above without pairs): the score
    // and the Elo are those of the pentanomial report, only the error differs (per game).
    let s = Stats::wdl(1585, 912, 1503);
    let e = Elo::trinomial(&s);
    assert!((e.diff - 7.12).abs() < 0.005, "{}", e.diff);
    let p = Elo::pentanomial(&Stats::from_pentanomial([224, 309, 874, 347, 246], 746));
    assert!((e.diff - p.diff).abs() < 1e-9);
    assert!(e.error > 0.0 && (e.error - p.error).abs() < 2.0);
}

/// One cutechess-cli result block: W/L/D of the first engine as White and as Black, the SPRT
/// (BayesElo, as cutechess computes it) and the printed lines.
struct CutechessCase {
    source: &'static str,
    white: [u32; 3],
    black: [u32; 3],
    sprt: Option<Sprt>,
    lines: &'static [&'static str],
}

#[test]
fn cutechess_lines_match_cutechess_output() {
    let bayes = Sprt {
        elo0: 0.0,
        elo1: 5.0,
        alpha: 0.05,
        beta: 0.05,
        model: SprtModel::Bayesian,
    };
    let cases = [
        CutechessCase {
            source: "computablee/100-Elo-Chess-Engine README.md",
            white: [181, 114, 205],
            black: [150, 161, 189],
            sprt: None,
            lines: &[
                "Score of A vs B: 331 - 275 - 394  [0.528] 1000",
                "...      A playing White: 181 - 114 - 205  [0.567] 500",
                "...      A playing Black: 150 - 161 - 189  [0.489] 500",
                "...      White vs Black: 342 - 264 - 394  [0.539] 1000",
                "Elo difference: 19.5 +/- 16.8, LOS: 98.9 %, DrawRatio: 39.4 %",
            ],
        },
        CutechessCase {
            source: "archishou/MidnightChessEngine changelog.md, 'Add History Heuristic'",
            white: [219, 155, 126],
            black: [230, 121, 149],
            sprt: None,
            lines: &[
                "Score of A vs B: 449 - 276 - 275  [0.587] 1000",
                "...      A playing White: 219 - 155 - 126  [0.564] 500",
                "...      A playing Black: 230 - 121 - 149  [0.609] 500",
                "...      White vs Black: 340 - 385 - 275  [0.477] 1000",
                "Elo difference: 60.7 +/- 18.5, LOS: 100.0 %, DrawRatio: 27.5 %",
            ],
        },
        CutechessCase {
            source: "cutechess-cli log of 'SWARtest vs Original' quoted in an engine's source notes",
            white: [3347, 1892, 2423],
            black: [2036, 3240, 2385],
            sprt: Some(bayes),
            lines: &[
                "Score of A vs B: 5383 - 5132 - 4808  [0.508] 15323",
                "...      A playing White: 3347 - 1892 - 2423  [0.595] 7662",
                "...      A playing Black: 2036 - 3240 - 2385  [0.421] 7661",
                "...      White vs Black: 6587 - 3928 - 4808  [0.587] 15323",
                "Elo difference: 5.7 +/- 4.6, LOS: 99.3 %, DrawRatio: 31.4 %",
                "SPRT: llr 2.95 (100.3%), lbound -2.94, ubound 2.94 - H1 was accepted",
            ],
        },
        CutechessCase {
            source: "cwtch README.md (cwtch1 vs lozza2.5, 60+1)",
            white: [203, 134, 104],
            black: [208, 118, 116],
            sprt: Some(bayes),
            lines: &[
                "Score of A vs B: 411 - 252 - 220  [0.590] 883",
                "...      A playing White: 203 - 134 - 104  [0.578] 441",
                "...      A playing Black: 208 - 118 - 116  [0.602] 442",
                "...      White vs Black: 321 - 342 - 220  [0.488] 883",
                "Elo difference: 63.3 +/- 20.1, LOS: 100.0 %, DrawRatio: 24.9 %",
                "SPRT: llr 2.96 (100.6%), lbound -2.94, ubound 2.94 - H1 was accepted",
            ],
        },
    ];
    for c in &cases {
        let [ww, wl, wd] = c.white;
        let [bw, bl, bd] = c.black;
        let t = Tally {
            stats: Stats::wdl(ww + bw, wd + bd, wl + bl),
            as_white: c.white,
            as_black: c.black,
            teams: [ww + bl, wl + bw, wd + bd],
        };
        let got = render(OutputFormat::Cutechess, false, c.sprt, &t);
        assert_eq!(got, c.lines, "{}", c.source);
    }
}
