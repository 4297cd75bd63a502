//! The command line of `strata match`, in the style of fastchess and cutechess: options that
//! start with `-` or `--`, each followed by plain values or `key=value` pairs.
//!
//! ```text
//! strata match --engine cmd=./strata name=new option.Hash=64 --engine cmd=stockfish name=sf \
//!     --each tc=10+0.1 --variant chess --games 100 --concurrency 2 \
//!     --openings random-plies=8 seed=1 --pgnout file=games.pgn \
//!     --sprt elo0=0 elo1=10 alpha=0.05 beta=0.05
//! ```

use std::path::PathBuf;
use std::str::FromStr;

use super::limits::{Limits, MAX_DEPTH, MAX_NODES, MAX_TIME_MS, seconds_to_ms};
use super::stats::{Sprt, SprtModel};
use crate::protocol::line::{Line, check, escape};
use crate::rules::Variant;

/// The most games of a match (`--games`, `--rounds`, and the two multiplied).
pub const MAX_GAMES: usize = 10_000_000;

/// The most games played at the same time (`--concurrency`; each runs its own engines).
pub const MAX_CONCURRENCY: usize = 256;

/// The largest adjudication score (`--draw score=`, `--resign score=`), in centipawns.
pub const MAX_SCORE_CP: u32 = 1_000_000;

/// The most random plies of an opening (`--openings random-plies=`).
pub const MAX_RANDOM_PLIES: u32 = 1000;

/// The text `strata match --help` prints.
pub const USAGE: &str = "\
strata match: play engines against each other, with strata's rules layer as the referee

usage: strata match --engine KEY=VALUE... --engine KEY=VALUE... [options]

engines (exactly two; --each sets defaults for both):
  --engine cmd=PATH | builtin=random|greedy   the engine: a UCI program, or a built-in player
           name=NAME  args=\"A B\"  dir=DIR  option.NAME=VALUE ...
           tc=[MOVES/]SECONDS[+INC]  st=SECONDS  depth=N (or plies=N)  nodes=N
           timemargin=MS
  --each   KEY=VALUE...              keys of --engine that apply to both engines

match:
  --variant NAME                     chess (default; also: standard), pole, ... (any implemented
                                     variant), fischerandom (chess960: Chess960 start positions,
                                     or the openings file's, and UCI_Chess960 set in the engines)
  --games N                          games in all (default 2); with --rounds: games per round
  --rounds N                         rounds of two games (one opening, colours swapped)
  --concurrency N                    games played at the same time (default 1)
  --openings file=PATH [format=epd|pgn] [order=sequential|random] [start=N] [plies=N]
             random-plies=N seed=S   openings from a file and/or N random plies
  --seed N  (also: --srand N)        seed of random openings and built-in players (default 1)
  --pgnout file=PATH [nodes=true] [seldepth=true]   append every game to PATH (also: --pgnout
                                     PATH); nodes/seldepth add those figures to the move comments
  --event NAME                       the PGN Event tag

referee:
  --timemargin MS                    how far past its clock an engine may answer (default 0)
  --stalltimeout MS                  how long an engine without a clock may think (default 60000)
  --draw movenumber=N movecount=N score=CP      draw when both scores stay within CP
  --resign movecount=N score=CP [twosided=true] loss when a score stays below -CP
  --maxmoves N                       draw after N moves
  --recover                          accepted for compatibility: a crashed or stalled engine always
                                     loses that game, is restarted, and the match goes on

accepted from fastchess and ignored with a warning (what OpenBench's worker passes):
  --testEnv  --tb PATH  --tbpieces N  --pgnout match_line=REGEX  --engine tc=inf (no clock)

bounds (larger values are refused, so that no clock or count can overflow):
  times (tc=, st=, timemargin=, --timemargin, --stalltimeout) 7 days; tc= MOVES 10000;
  depth= 1000; nodes= 10^15; --games and --games x --rounds 10000000; --concurrency 256;
  --draw/--resign score= 1000000; --openings random-plies= 1000; option names and values
  and name= may hold no control character or line break, and an option name not the word
  value

output:
  --sprt elo0=E elo1=E alpha=A beta=B [model=normalized|logistic|bayesian]
  --ratinginterval N                 print the results every N games (default 10)
  --output format=fastchess|cutechess
  --report penta=true|false          pentanomial statistics (default true)
";

/// A built-in player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuiltinKind {
    /// A uniformly random legal move.
    Random,
    /// The move that wins at once, else the one that leaves the most material (ties random).
    Greedy,
}

impl BuiltinKind {
    /// The name used in `builtin=`.
    pub fn name(self) -> &'static str {
        match self {
            BuiltinKind::Random => "random",
            BuiltinKind::Greedy => "greedy",
        }
    }
}

/// What plays: a program speaking the protocol, or a built-in player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineKind {
    /// A UCI-compatible program.
    Process {
        /// The executable.
        cmd: String,
        /// Its arguments.
        args: Vec<String>,
        /// Its working directory.
        dir: Option<PathBuf>,
    },
    /// A built-in player (in-process).
    Builtin(BuiltinKind),
}

/// One engine of the match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// The name in output and PGN.
    pub name: String,
    /// What plays.
    pub kind: EngineKind,
    /// `setoption` pairs, in order.
    pub options: Vec<(String, String)>,
    /// Thinking limits.
    pub limits: Limits,
    /// Time margin in ms (overrides `--timemargin`).
    pub timemargin_ms: Option<u64>,
}

/// Where openings come from.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct OpeningsConfig {
    /// A file of FEN/EPD lines or PGN games.
    pub file: Option<PathBuf>,
    /// Whether the file is PGN (by `format=` or the `.pgn` extension).
    pub pgn: bool,
    /// Shuffle the file's openings (with the seed).
    pub random_order: bool,
    /// First opening to use (0-based).
    pub start: usize,
    /// Use at most this many plies of a PGN opening.
    pub plies: Option<usize>,
    /// Random plies played after the start position or the file's opening.
    pub random_plies: u32,
}

/// Draw adjudication by score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawAdjudication {
    /// Not before this move number.
    pub movenumber: u32,
    /// For this many consecutive moves of each engine.
    pub movecount: u32,
    /// Every score within this many centipawns of zero.
    pub score: i32,
}

/// Resign adjudication by score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignAdjudication {
    /// For this many consecutive moves of the loser.
    pub movecount: u32,
    /// Every score at or below minus this many centipawns.
    pub score: i32,
    /// The winner must agree (its scores at or above the threshold as long).
    pub twosided: bool,
}

/// Output style.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputFormat {
    /// fastchess's result blocks.
    Fastchess,
    /// cutechess-cli's result lines.
    Cutechess,
}

/// Everything `strata match` was asked to do.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The two engines.
    pub engines: Vec<EngineConfig>,
    /// The variant.
    pub variant: Variant,
    /// Chess960 (`--variant fischerandom`): chess from Chess960 start positions, castling
    /// written as the King taking its Rook, `UCI_Chess960` set in every engine.
    pub chess960: bool,
    /// Games in all.
    pub games: usize,
    /// Games played at the same time.
    pub concurrency: usize,
    /// Openings.
    pub openings: OpeningsConfig,
    /// Seed of random openings and built-in players.
    pub seed: u64,
    /// PGN output file.
    pub pgnout: Option<PathBuf>,
    /// Node counts and selective depths in the PGN's move comments (`--pgnout nodes=true
    /// seldepth=true`).
    pub pgn_extras: PgnExtras,
    /// PGN Event tag.
    pub event: String,
    /// SPRT, if any.
    pub sprt: Option<Sprt>,
    /// Draw adjudication.
    pub draw: Option<DrawAdjudication>,
    /// Resign adjudication.
    pub resign: Option<ResignAdjudication>,
    /// Draw after this many moves.
    pub maxmoves: Option<u32>,
    /// Default time margin in ms.
    pub timemargin_ms: u64,
    /// How long an engine without a clock may think before it counts as stalled, in ms
    /// (also the limit for answering `uci` and `isready`).
    pub stall_timeout_ms: u64,
    /// Print results every this many games.
    pub ratinginterval: usize,
    /// Output style.
    pub output: OutputFormat,
    /// Report (and test) pentanomial statistics.
    pub report_penta: bool,
    /// Arguments accepted but not used, in words, for the caller to print.
    pub warnings: Vec<String>,
}

/// Optional figures in the PGN's move comments.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PgnExtras {
    /// The nodes the engine searched for the move.
    pub nodes: bool,
    /// Its selective depth.
    pub seldepth: bool,
}

/// The arguments of one option: plain values and `key=value` pairs, in order.
struct Group {
    flag: String,
    values: Vec<String>,
}

fn groups(args: &[String]) -> Result<Vec<Group>, String> {
    let mut out: Vec<Group> = Vec::new();
    for a in args {
        let is_flag = a.starts_with('-')
            && a.trim_start_matches('-')
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic());
        if is_flag {
            out.push(Group {
                flag: a.trim_start_matches('-').to_string(),
                values: Vec::new(),
            });
        } else {
            match out.last_mut() {
                Some(g) => g.values.push(a.clone()),
                None => return Err(format!("'{a}' does not follow an option")),
            }
        }
    }
    Ok(out)
}

fn key_values(g: &Group) -> Result<Vec<(String, String)>, String> {
    g.values
        .iter()
        .map(|v| {
            v.split_once('=')
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .ok_or(format!("--{}: expected key=value, got '{v}'", g.flag))
        })
        .collect()
}

fn single(g: &Group) -> Result<&str, String> {
    match g.values.as_slice() {
        [v] => Ok(v),
        _ => Err(format!("--{} takes one value", g.flag)),
    }
}

fn num<T: FromStr>(what: &str, v: &str) -> Result<T, String> {
    v.parse()
        .map_err(|_| format!("{what}: '{}' is not a valid number", escape(v)))
}

/// A number of at most `max`.
fn bounded<T: FromStr + PartialOrd + std::fmt::Display>(
    what: &str,
    v: &str,
    max: T,
) -> Result<T, String> {
    let n: T = num(what, v)?;
    if n > max {
        return Err(format!(
            "{what}: {n} is more than the largest allowed, {max}"
        ));
    }
    Ok(n)
}

/// A time in ms of at most [`MAX_TIME_MS`] (7 days).
fn ms(what: &str, v: &str) -> Result<u64, String> {
    let n: u64 = num(what, v)?;
    if n > MAX_TIME_MS {
        return Err(format!(
            "{what}: {n} ms is more than the largest allowed, {MAX_TIME_MS} ms (7 days)"
        ));
    }
    Ok(n)
}

/// An adjudication score: at most [`MAX_SCORE_CP`] either side of zero.
fn score(what: &str, v: &str) -> Result<i32, String> {
    let s: i32 = num(what, v)?;
    if s.unsigned_abs() > MAX_SCORE_CP {
        return Err(format!("{what}: {s} is beyond +-{MAX_SCORE_CP} centipawns"));
    }
    Ok(s)
}

fn boolean(what: &str, v: &str) -> Result<bool, String> {
    match v {
        "true" | "on" | "1" | "yes" => Ok(true),
        "false" | "off" | "0" | "no" => Ok(false),
        _ => Err(format!("{what}: '{v}' is not true or false")),
    }
}

/// Builds one engine from its `--engine` pairs and the `--each` pairs (engine pairs win).
fn engine(each: &[(String, String)], own: &[(String, String)]) -> Result<EngineConfig, String> {
    let mut name = None;
    let mut cmd = None;
    let mut builtin = None;
    let mut args = Vec::new();
    let mut dir = None;
    let mut options: Vec<(String, String)> = Vec::new();
    let mut limits = Limits::default();
    let mut timemargin_ms = None;
    for (k, v) in each.iter().chain(own) {
        let what = format!("--engine {}", escape(k));
        match k.as_str() {
            "name" => {
                check("--engine name", v).map_err(|e| e.to_string())?;
                name = Some(v.clone());
            }
            "cmd" => cmd = Some(v.clone()),
            "builtin" => {
                builtin = Some(match v.as_str() {
                    "random" => BuiltinKind::Random,
                    "greedy" => BuiltinKind::Greedy,
                    _ => return Err(format!("unknown built-in player '{v}' (random, greedy)")),
                })
            }
            "args" => args = v.split_whitespace().map(str::to_string).collect(),
            "dir" => dir = Some(PathBuf::from(v)),
            // fastchess's "no clock" (OpenBench: `tc=inf nodes=N` for fixed-node tests).
            "tc" if v == "inf" => limits.tc = None,
            "tc" => limits.tc = Some(v.parse()?),
            "st" => limits.movetime_ms = Some(seconds_to_ms(v).map_err(|e| format!("st: {e}"))?),
            "depth" | "plies" => limits.depth = Some(bounded(&what, v, MAX_DEPTH)?),
            "nodes" => limits.nodes = Some(bounded(&what, v, MAX_NODES)?),
            "timemargin" => timemargin_ms = Some(ms(&what, v)?),
            "proto" if v == "uci" => {}
            _ => match k.strip_prefix("option.") {
                Some(o) if !o.is_empty() => {
                    // Checked as the line it becomes, so that a value cannot end it early
                    // and become a command of its own, nor a name move the word `value`.
                    Line::setoption(o, Some(v)).map_err(|e| format!("{what}: {e}"))?;
                    options.retain(|(n, _)| !n.eq_ignore_ascii_case(o));
                    options.push((o.to_string(), v.clone()));
                }
                _ => return Err(format!("--engine: unknown key '{}'", escape(k))),
            },
        }
    }
    let kind = match (cmd, builtin) {
        (Some(_), Some(_)) => return Err("--engine: give cmd= or builtin=, not both".into()),
        (None, None) => return Err("--engine: cmd= or builtin= is missing".into()),
        (Some(cmd), None) => EngineKind::Process { cmd, args, dir },
        (None, Some(b)) => EngineKind::Builtin(b),
    };
    let name = name.unwrap_or_else(|| match &kind {
        // The program's file name, shown as text from outside: a file name may hold a line
        // break (it would forge a line of the match's output).
        EngineKind::Process { cmd, .. } => crate::text::escape(
            &std::path::Path::new(cmd)
                .file_name()
                .map(|f| f.to_string_lossy().to_string())
                .unwrap_or(cmd.clone()),
        )
        .into_owned(),
        EngineKind::Builtin(b) => b.name().to_string(),
    });
    if matches!(kind, EngineKind::Process { .. }) && !limits.any() {
        return Err(format!(
            "engine '{name}' has no limit: give tc=, st=, depth= or nodes= (in --engine or --each)"
        ));
    }
    Ok(EngineConfig {
        name,
        kind,
        options,
        limits,
        timemargin_ms,
    })
}

/// Parses the arguments after `strata match`. `Ok(None)` means help was asked for.
pub fn parse(args: &[String]) -> Result<Option<MatchConfig>, String> {
    let groups = groups(args)?;
    if groups.iter().any(|g| g.flag == "help" || g.flag == "h") {
        return Ok(None);
    }
    let mut cfg = MatchConfig {
        engines: Vec::new(),
        variant: Variant::Chess,
        chess960: false,
        games: 2,
        concurrency: 1,
        openings: OpeningsConfig::default(),
        seed: 1,
        pgnout: None,
        pgn_extras: PgnExtras::default(),
        event: "strata match".into(),
        sprt: None,
        draw: None,
        resign: None,
        maxmoves: None,
        timemargin_ms: 0,
        stall_timeout_ms: 60_000,
        ratinginterval: 10,
        output: OutputFormat::Fastchess,
        report_penta: true,
        warnings: Vec::new(),
    };
    let mut counts = Counts::default();
    let mut each = Vec::new();
    let mut engines = Vec::new();
    for g in &groups {
        match g.flag.as_str() {
            "engine" => engines.push(key_values(g)?),
            "each" => each.extend(key_values(g)?),
            _ => option(&mut cfg, &mut counts, g)?,
        }
    }
    finish(cfg, counts, &each, &engines).map(Some)
}

/// What several options decide together, settled after all are read.
#[derive(Default)]
struct Counts {
    games: Option<usize>,
    rounds: Option<usize>,
    opening_seed: Option<u64>,
}

/// Reads one option other than `--engine` and `--each`.
fn option(cfg: &mut MatchConfig, counts: &mut Counts, g: &Group) -> Result<(), String> {
    match g.flag.as_str() {
        "variant" => {
            let v = single(g)?;
            (cfg.variant, cfg.chess960) = match v {
                "standard" => (Variant::Chess, false),
                "fischerandom" | "chess960" | "fischerrandom" => (Variant::Chess, true),
                _ => (
                    Variant::from_name(v).ok_or(format!("unknown variant '{v}'"))?,
                    false,
                ),
            };
        }
        "games" => counts.games = Some(bounded("--games", single(g)?, MAX_GAMES)?),
        "rounds" => counts.rounds = Some(bounded("--rounds", single(g)?, MAX_GAMES)?),
        "concurrency" => {
            cfg.concurrency = bounded("--concurrency", single(g)?, MAX_CONCURRENCY)?;
        }
        "seed" | "srand" => cfg.seed = num("--seed", single(g)?)?,
        "event" => {
            cfg.event = g.values.join(" ");
            check("--event", &cfg.event).map_err(|e| e.to_string())?;
        }
        "timemargin" => cfg.timemargin_ms = ms("--timemargin", single(g)?)?,
        "stalltimeout" => cfg.stall_timeout_ms = ms("--stalltimeout", single(g)?)?,
        "ratinginterval" => cfg.ratinginterval = num("--ratinginterval", single(g)?)?,
        "maxmoves" => cfg.maxmoves = Some(num("--maxmoves", single(g)?)?),
        "recover" => {}
        "pgnout" => cfg.pgnout = Some(pgnout(g, &mut cfg.pgn_extras, &mut cfg.warnings)?),
        "testEnv" | "testenv" => cfg
            .warnings
            .push("--testEnv: fastchess's test-environment output; ignored".into()),
        "tb" | "tbpieces" | "tbadjudicate" => cfg.warnings.push(format!(
            "--{}: endgame tablebases are not used by the referee; ignored",
            g.flag
        )),
        "openings" => counts.opening_seed = openings(&mut cfg.openings, g)?.or(counts.opening_seed),
        "sprt" => cfg.sprt = Some(sprt(g)?),
        "draw" => cfg.draw = Some(draw(g)?),
        "resign" => cfg.resign = Some(resign(g)?),
        "output" => {
            for (k, v) in key_values(g)? {
                cfg.output = match (k.as_str(), v.as_str()) {
                    ("format", "fastchess") => OutputFormat::Fastchess,
                    ("format", "cutechess") => OutputFormat::Cutechess,
                    _ => return Err(format!("--output: unknown {k} '{v}'")),
                };
            }
        }
        "report" => {
            for (k, v) in key_values(g)? {
                match k.as_str() {
                    "penta" => cfg.report_penta = boolean("--report penta", &v)?,
                    _ => return Err(format!("--report: unknown key '{k}'")),
                }
            }
        }
        other => {
            return Err(format!(
                "unknown option '{other}' (see strata match --help)"
            ));
        }
    }
    Ok(())
}

/// `--pgnout file=PATH [nodes=B] [seldepth=B] [match_line=REGEX]` or `--pgnout PATH`.
fn pgnout(
    g: &Group,
    extras: &mut PgnExtras,
    warnings: &mut Vec<String>,
) -> Result<PathBuf, String> {
    let mut file = None;
    for v in &g.values {
        match v.split_once('=') {
            Some(("file", p)) => file = Some(PathBuf::from(p)),
            Some(("nodes", b)) => extras.nodes = boolean("--pgnout nodes", b)?,
            Some(("seldepth", b)) => extras.seldepth = boolean("--pgnout seldepth", b)?,
            Some(("match_line", _)) => warnings.push(
                "--pgnout match_line: engine lines are not copied into the PGN; ignored".into(),
            ),
            Some((k, _)) if k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') => {
                return Err(format!("--pgnout: unknown key '{k}'"));
            }
            // A value of the previous key that had spaces in it (`match_line='^info .*'`).
            Some(_) | None if file.is_some() => {}
            _ => file = Some(PathBuf::from(v)),
        }
    }
    file.ok_or_else(|| "--pgnout: the file is missing".to_string())
}

/// `--openings ...` into `o`; returns the `seed=` it gave, if any.
fn openings(o: &mut OpeningsConfig, g: &Group) -> Result<Option<u64>, String> {
    let mut seed = None;
    for (k, v) in key_values(g)? {
        match k.as_str() {
            "file" => {
                o.pgn |= v.ends_with(".pgn");
                o.file = Some(PathBuf::from(v));
            }
            "format" => match v.as_str() {
                "pgn" => o.pgn = true,
                "epd" | "fen" => o.pgn = false,
                _ => return Err(format!("--openings: unknown format '{v}'")),
            },
            "order" => match v.as_str() {
                "random" => o.random_order = true,
                "sequential" => o.random_order = false,
                _ => return Err(format!("--openings: unknown order '{v}'")),
            },
            "start" => o.start = num::<usize>("--openings start", &v)?.saturating_sub(1),
            "plies" => o.plies = Some(num("--openings plies", &v)?),
            "random-plies" => {
                o.random_plies = bounded("--openings random-plies", &v, MAX_RANDOM_PLIES)?;
            }
            "seed" => seed = Some(num("--openings seed", &v)?),
            "policy" => {}
            _ => return Err(format!("--openings: unknown key '{k}'")),
        }
    }
    Ok(seed)
}

/// `--sprt elo0=E elo1=E alpha=A beta=B [model=...]`.
fn sprt(g: &Group) -> Result<Sprt, String> {
    let mut s = Sprt {
        elo0: 0.0,
        elo1: 5.0,
        alpha: 0.05,
        beta: 0.05,
        model: SprtModel::Normalized,
    };
    for (k, v) in key_values(g)? {
        let what = format!("--sprt {k}");
        match k.as_str() {
            "elo0" => s.elo0 = num(&what, &v)?,
            "elo1" => s.elo1 = num(&what, &v)?,
            "alpha" => s.alpha = num(&what, &v)?,
            "beta" => s.beta = num(&what, &v)?,
            "model" => s.model = v.parse()?,
            _ => return Err(format!("--sprt: unknown key '{k}'")),
        }
    }
    s.validate()?;
    Ok(s)
}

/// `--draw movenumber=N movecount=N score=CP`.
fn draw(g: &Group) -> Result<DrawAdjudication, String> {
    let mut d = DrawAdjudication {
        movenumber: 0,
        movecount: 1,
        score: 0,
    };
    for (k, v) in key_values(g)? {
        let what = format!("--draw {k}");
        match k.as_str() {
            "movenumber" => d.movenumber = num(&what, &v)?,
            "movecount" => d.movecount = num(&what, &v)?,
            "score" => d.score = score(&what, &v)?,
            _ => return Err(format!("--draw: unknown key '{k}'")),
        }
    }
    Ok(d)
}

/// `--resign movecount=N score=CP [twosided=true]`.
fn resign(g: &Group) -> Result<ResignAdjudication, String> {
    let mut r = ResignAdjudication {
        movecount: 1,
        score: 1000,
        twosided: false,
    };
    for (k, v) in key_values(g)? {
        let what = format!("--resign {k}");
        match k.as_str() {
            "movecount" => r.movecount = num(&what, &v)?,
            "score" => r.score = score(&what, &v)?.abs(),
            "twosided" => r.twosided = boolean(&what, &v)?,
            _ => return Err(format!("--resign: unknown key '{k}'")),
        }
    }
    Ok(r)
}

/// The engines, the number of games, and the checks that need every option read.
fn finish(
    mut cfg: MatchConfig,
    counts: Counts,
    each: &[(String, String)],
    engines: &[Vec<(String, String)>],
) -> Result<MatchConfig, String> {
    if engines.len() != 2 {
        return Err(format!(
            "a match needs exactly two --engine options, got {}",
            engines.len()
        ));
    }
    for kv in engines {
        let mut e = engine(each, kv)?;
        if cfg.chess960
            && matches!(e.kind, EngineKind::Process { .. })
            && !e
                .options
                .iter()
                .any(|(n, _)| n.eq_ignore_ascii_case("UCI_Chess960"))
        {
            e.options.push(("UCI_Chess960".into(), "true".into()));
        }
        cfg.engines.push(e);
    }
    if cfg.engines[0].name == cfg.engines[1].name {
        cfg.engines[1].name.push_str("-2");
    }
    // Games per round times rounds (a round is two games unless --games says otherwise).
    let (per_round, rounds) = match (counts.games, counts.rounds) {
        (g, Some(r)) => (g.unwrap_or(2), r),
        (g, None) => (g.unwrap_or(2), 1),
    };
    cfg.games = per_round
        .checked_mul(rounds)
        .filter(|&n| n <= MAX_GAMES)
        .ok_or(format!(
            "{per_round} games x {rounds} rounds: more than the largest allowed, {MAX_GAMES} games"
        ))?;
    if cfg.games == 0 {
        return Err("no games to play".into());
    }
    if cfg.concurrency == 0 {
        return Err("--concurrency must be at least 1".into());
    }
    if cfg.ratinginterval == 0 {
        cfg.ratinginterval = usize::MAX;
    }
    if let Some(s) = counts.opening_seed {
        cfg.seed = s;
    }
    if let Some(s) = &cfg.sprt
        && s.model == SprtModel::Bayesian
    {
        // BayesElo has no pentanomial form (as in fastchess).
        cfg.report_penta = false;
    }
    Ok(cfg)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn the_issue_example_parses() {
        let cfg = parse(&argv(
            "--engine cmd=./strata name=new option.Hash=64 --engine cmd=stockfish name=sf \
             --each tc=10+0.1 --variant chess --games 100 --concurrency 2 \
             --openings random-plies=8 seed=1 --pgnout file=games.pgn \
             --sprt elo0=0 elo1=10 alpha=0.05 beta=0.05",
        ))
        .unwrap()
        .unwrap();
        assert_eq!(cfg.engines.len(), 2);
        assert_eq!(cfg.engines[0].name, "new");
        assert_eq!(cfg.engines[0].options, vec![("Hash".into(), "64".into())]);
        assert_eq!(cfg.engines[1].limits.tc.unwrap().inc_ms, 100);
        assert_eq!((cfg.games, cfg.concurrency), (100, 2));
        assert_eq!(cfg.openings.random_plies, 8);
        assert_eq!(cfg.sprt.unwrap().elo1, 10.0);
        assert_eq!(cfg.pgnout, Some(PathBuf::from("games.pgn")));
    }

    #[test]
    fn engine_keys_and_errors() {
        let cfg = parse(&argv(
            "-engine builtin=random -engine cmd=x st=0.1 depth=3 nodes=500 timemargin=20 \
             -rounds 3 -draw movenumber=40 movecount=8 score=10 -resign movecount=3 score=-600",
        ))
        .unwrap()
        .unwrap();
        assert_eq!(
            cfg.engines[0].kind,
            EngineKind::Builtin(BuiltinKind::Random)
        );
        let l = cfg.engines[1].limits;
        assert_eq!(
            (l.movetime_ms, l.depth, l.nodes),
            (Some(100), Some(3), Some(500))
        );
        assert_eq!(l.to_string(), "0.1/move 3 plies 500 nodes");
        assert_eq!(cfg.games, 6);
        assert_eq!(cfg.resign.unwrap().score, 600);
        assert!(
            parse(&argv("--engine cmd=a --engine cmd=b"))
                .unwrap_err()
                .contains("no limit")
        );
        assert!(
            parse(&argv("--engine cmd=a tc=1"))
                .unwrap_err()
                .contains("exactly two")
        );
        assert!(
            parse(&argv("--frob 1"))
                .unwrap_err()
                .contains("unknown option")
        );
        assert!(parse(&argv("--variant checkers")).is_err());
        assert!(parse(&argv("--help")).unwrap().is_none());
    }

    /// Where a single argument holds a line break (as `$'1500\nquit'` gives it).
    fn with(args: &[&str]) -> Result<Option<MatchConfig>, String> {
        parse(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn option_values_that_would_break_the_line_are_refused() {
        let base = ["--engine", "cmd=a", "depth=1", "--engine", "builtin=random"];
        let refused = |extra: &str, words: &[&str]| {
            let mut args = base.to_vec();
            args.insert(3, extra);
            let e = with(&args).unwrap_err();
            for w in words {
                assert!(e.contains(w), "{extra:?}: {e}");
            }
            assert!(!e.contains(['\n', '\r', '\0']), "{e:?}");
        };
        refused(
            "option.UCI_Elo=1500\nquit",
            &["option.UCI_Elo", "value of option 'UCI_Elo'", "line break"],
        );
        refused("option.Hash=16\r", &["line break"]);
        refused("option.Ha\0sh=16", &["option name", "control character"]);
        refused("option.Hash value 5=1", &["the word 'value'"]);
        refused("name=a\u{1b}[2Jb", &["--engine name", "control character"]);
        // --each goes through the same checks.
        let e = with(&[
            "--engine",
            "cmd=a",
            "--engine",
            "cmd=b",
            "--each",
            "depth=1",
            "option.Threads=1\nquit",
        ])
        .unwrap_err();
        assert!(e.contains("line break"), "{e}");
        let e = with(&["--event", "a\nb"]).unwrap_err();
        assert!(e.contains("--event"), "{e}");
        // What a protocol line can carry is taken.
        let mut args = base.to_vec();
        args.insert(3, "option.Debug Log File=/tmp/a b.log");
        let cfg = with(&args).unwrap().unwrap();
        assert_eq!(cfg.engines[0].options[0].1, "/tmp/a b.log");
    }

    #[test]
    fn clocks_and_counts_are_bounded() {
        let engine_key = |kv: &str| {
            parse(&argv(&format!(
                "--engine cmd=a {kv} --engine builtin=random"
            )))
        };
        for (kv, words) in [
            ("tc=9223372036854775807+0", "7 days"),
            ("tc=604801", "7 days"),
            ("tc=1+604801", "7 days"),
            ("st=1e20", "7 days"),
            ("tc=10001/60", "move count"),
            ("depth=1001", "1000"),
            ("nodes=1000000000000001", "1000000000000000"),
            ("depth=1 timemargin=604800001", "7 days"),
            (
                "depth=1 timemargin=18446744073709551616",
                "not a valid number",
            ),
        ] {
            let e = engine_key(kv).unwrap_err();
            assert!(e.contains(words), "{kv}: {e}");
        }
        let l = engine_key("tc=604800+604800 st=604800 depth=1000 nodes=1000000000000000")
            .unwrap()
            .unwrap()
            .engines[0]
            .limits;
        assert_eq!(l.tc.unwrap().base_ms, MAX_TIME_MS);
        assert_eq!(l.nodes, Some(MAX_NODES));
        let two = "--engine builtin=random --engine builtin=random";
        for (extra, words) in [
            ("--games 10000001", "10000000"),
            ("--games 5000000 --rounds 3", "10000000 games"),
            ("--games 18446744073709551615 --rounds 2", "10000000"),
            ("--rounds 5000001", "10000000 games"),
            ("--concurrency 257", "256"),
            ("--timemargin 604800001", "7 days"),
            ("--stalltimeout 18446744073709551615", "7 days"),
            ("--resign score=-2147483648", "1000000"),
            ("--draw score=1000001", "1000000"),
            ("--openings random-plies=1001", "1000"),
        ] {
            let e = parse(&argv(&format!("{two} {extra}"))).unwrap_err();
            assert!(e.contains(words), "{extra}: {e}");
        }
        let cfg = parse(&argv(&format!(
            "{two} --games 2 --rounds 5000000 --concurrency 256 --resign score=-1000000"
        )))
        .unwrap()
        .unwrap();
        assert_eq!((cfg.games, cfg.concurrency), (MAX_GAMES, MAX_CONCURRENCY));
        assert_eq!(cfg.resign.unwrap().score, 1_000_000);
    }
}
