//! Protocol input lines parsed into typed commands.
//!
//! Parsing is separate from execution so that it can be tested (and fuzzed) on its own; a
//! line that does not parse becomes an error message naming what is wrong and where.

use std::str::FromStr;

use crate::rules::perft::MAX_PERFT_DEPTH;

/// The most milliseconds a clock, increment or `movetime` of `go` counts (larger values are
/// read as this): about 31 years.
pub const MAX_CLOCK_MS: u64 = 1_000_000_000_000;

/// Where a `position` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartPos {
    /// The variant's start position.
    Startpos,
    /// A FEN (its fields joined by single spaces).
    Fen(String),
}

/// The parameters of `go`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    /// Remaining time per colour in ms (`wtime btime gtime stime`).
    pub time: [Option<u64>; 4],
    /// Increment per colour in ms (`winc binc ginc sinc`).
    pub inc: [Option<u64>; 4],
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Search this many plies.
    pub depth: Option<u32>,
    /// Search this many nodes.
    pub nodes: Option<u64>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    /// Search exactly this many ms.
    pub movetime: Option<u64>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Ponder (search until `ponderhit` or `stop`).
    pub ponder: bool,
    /// Restrict the root to these moves.
    pub searchmoves: Vec<String>,
    /// Run perft to this depth instead of searching.
    pub perft: Option<u32>,
}

/// One protocol command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci`
    Uci,
    /// `isready`
    IsReady,
    /// `ucinewgame`
    UciNewGame,
    /// `setoption name <name> [value <value>]`
    SetOption {
        /// Option name (may contain spaces).
        name: String,
        /// Value, if given (may contain spaces).
        value: Option<String>,
    },
    /// `position startpos|fen <fen> [moves <m>...]`
    Position {
        /// The start.
        start: StartPos,
        /// The moves to play from it.
        moves: Vec<String>,
    },
    /// `go ...`
    Go(GoParams),
    /// `stop`
    Stop,
    /// `ponderhit`
    PonderHit,
    /// `d`: draw the board.
    Display,
    /// `eval`: the evaluation breakdown.
    Eval,
    /// `bench [depth]`
    Bench {
        /// Depth override.
        depth: Option<u32>,
    },
    /// `genfens N seed S book <None|PATH> [extra...]`: N starting positions for OpenBench's
    /// data generation ([`crate::tuning::genfens`]); `extra` is accepted and ignored.
    Genfens(crate::tuning::genfens::Request),
    /// `quit`
    Quit,
}

fn parse_num<T: FromStr>(keyword: &str, value: Option<&&str>) -> Result<T, String> {
    match value {
        None => Err(format!("'{keyword}' needs a value")),
        Some(v) => v.parse().map_err(|_| {
            format!(
                "'{keyword}' value '{}' is not a valid number",
                truncate(v, 40)
            )
        }),
    }
}

/// `genfens N seed S book <None|PATH> [extra...]`, in the order OpenBench's worker writes
/// them.
fn parse_genfens(tokens: &[&str]) -> Result<crate::tuning::genfens::Request, String> {
    use crate::tuning::genfens::{MAX_COUNT, Request};
    let usage = "genfens: expected 'genfens N seed S book <None|PATH> [extra]'";
    let [n, seed_kw, seed, book_kw, book, ..] = tokens else {
        return Err(usage.into());
    };
    if *seed_kw != "seed" || *book_kw != "book" {
        return Err(usage.into());
    }
    let count: usize = parse_num("genfens", Some(n))?;
    if !(1..=MAX_COUNT).contains(&count) {
        return Err(format!(
            "genfens: the count must be 1 to {MAX_COUNT}, not {count}"
        ));
    }
    let seed: u64 = parse_num("seed", Some(seed))?;
    let book = (!book.eq_ignore_ascii_case("none")).then(|| book.to_string());
    Ok(Request { count, seed, book })
}

fn parse_go(tokens: &[&str]) -> Result<GoParams, String> {
    let mut g = GoParams::default();
    let mut i = 0;
    while i < tokens.len() {
        let t = tokens[i];
        let next = tokens.get(i + 1);
        let colour_time = ["wtime", "btime", "gtime", "stime"]
            .iter()
            .position(|&k| k == t);
        let colour_inc = ["winc", "binc", "ginc", "sinc"]
            .iter()
            .position(|&k| k == t);
        // A negative clock (some GUIs send it when a flag falls) counts as zero, and a clock
        // above MAX_CLOCK_MS as that (the time arithmetic then never overflows).
        let clock = |v: Option<&&str>| -> Result<u64, String> {
            // A number of any size (however many digits) reads as the bound.
            let n: i128 = match v {
                Some(s)
                    if !s.trim_start_matches('-').is_empty()
                        && s.trim_start_matches('-')
                            .bytes()
                            .all(|b| b.is_ascii_digit())
                        && s.parse::<i128>().is_err() =>
                {
                    if s.starts_with('-') {
                        0
                    } else {
                        i128::MAX
                    }
                }
                _ => parse_num(t, v)?,
            };
            Ok(n.clamp(0, MAX_CLOCK_MS as i128) as u64)
        };
        match t {
            _ if colour_time.is_some() => {
                g.time[colour_time.unwrap_or(0)] = Some(clock(next)?);
                i += 2;
            }
            _ if colour_inc.is_some() => {
                g.inc[colour_inc.unwrap_or(0)] = Some(clock(next)?);
                i += 2;
            }
            "movestogo" => {
                g.movestogo = Some(parse_num(t, next)?);
                i += 2;
            }
            "depth" => {
                g.depth = Some(parse_num(t, next)?);
                i += 2;
            }
            "nodes" => {
                g.nodes = Some(parse_num(t, next)?);
                i += 2;
            }
            "mate" => {
                g.mate = Some(parse_num(t, next)?);
                i += 2;
            }
            "movetime" => {
                g.movetime = Some(clock(next)?);
                i += 2;
            }
            "perft" => {
                let depth: u32 = parse_num(t, next)?;
                if depth > MAX_PERFT_DEPTH {
                    return Err(format!(
                        "perft depth {depth} is above the most, {MAX_PERFT_DEPTH}"
                    ));
                }
                g.perft = Some(depth);
                i += 2;
            }
            "infinite" => {
                g.infinite = true;
                i += 1;
            }
            "ponder" => {
                g.ponder = true;
                i += 1;
            }
            "searchmoves" => {
                i += 1;
                while i < tokens.len() && !GO_KEYWORDS.contains(&tokens[i]) {
                    g.searchmoves.push(tokens[i].to_string());
                    i += 1;
                }
            }
            other => return Err(format!("unknown go parameter '{}'", truncate(other, 40))),
        }
    }
    Ok(g)
}

const GO_KEYWORDS: [&str; 18] = [
    "wtime",
    "btime",
    "gtime",
    "stime",
    "winc",
    "binc",
    "ginc",
    "sinc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "perft",
    "infinite",
    "ponder",
    "searchmoves",
    "moves",
];

impl FromStr for Command {
    type Err = String;

    fn from_str(line: &str) -> Result<Command, String> {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&head, rest)) = tokens.split_first() else {
            return Err("empty line".into());
        };
        let no_args = |c: Command| {
            if rest.is_empty() {
                Ok(c)
            } else {
                Err(format!("'{head}' takes no arguments"))
            }
        };
        match head {
            "uci" => no_args(Command::Uci),
            "isready" => no_args(Command::IsReady),
            "ucinewgame" => no_args(Command::UciNewGame),
            "stop" => no_args(Command::Stop),
            "ponderhit" => no_args(Command::PonderHit),
            "quit" => no_args(Command::Quit),
            "d" => no_args(Command::Display),
            "eval" => no_args(Command::Eval),
            "bench" => match rest {
                [] => Ok(Command::Bench { depth: None }),
                [d] => Ok(Command::Bench {
                    depth: Some(parse_num("bench", Some(d))?),
                }),
                _ => Err("'bench' takes at most one argument (the depth)".into()),
            },
            "setoption" => {
                if rest.first() != Some(&"name") {
                    return Err("setoption: expected 'name' after 'setoption'".into());
                }
                let body = &rest[1..];
                let vpos = body.iter().position(|&t| t == "value");
                let (name, value) = match vpos {
                    Some(p) => (body[..p].join(" "), Some(body[p + 1..].join(" "))),
                    None => (body.join(" "), None),
                };
                if name.is_empty() {
                    return Err("setoption: the option name is missing".into());
                }
                Ok(Command::SetOption { name, value })
            }
            "position" => {
                let (start, after) = match rest.first() {
                    Some(&"startpos") => (StartPos::Startpos, &rest[1..]),
                    Some(&"fen") => {
                        let end = rest
                            .iter()
                            .position(|&t| t == "moves")
                            .unwrap_or(rest.len());
                        if end <= 1 {
                            return Err("position fen: the FEN is missing".into());
                        }
                        (StartPos::Fen(rest[1..end].join(" ")), &rest[end..])
                    }
                    Some(other) => {
                        return Err(format!(
                            "position: expected 'startpos' or 'fen', got '{}'",
                            truncate(other, 40)
                        ));
                    }
                    None => return Err("position: expected 'startpos' or 'fen'".into()),
                };
                let moves = match after.split_first() {
                    None => Vec::new(),
                    Some((&"moves", ms)) => ms.iter().map(|s| s.to_string()).collect(),
                    Some((other, _)) => {
                        return Err(format!(
                            "position: expected 'moves', got '{}'",
                            truncate(other, 40)
                        ));
                    }
                };
                Ok(Command::Position { start, moves })
            }
            "go" => parse_go(rest).map(Command::Go),
            "genfens" => parse_genfens(rest).map(Command::Genfens),
            other => Err(format!("unknown command '{}'", truncate(other, 40))),
        }
    }
}

/// At most `n` characters of `s` (for echoing user input in error messages: an error line
/// stays short however long the input line was).
pub fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(n).collect();
        t.push_str("...");
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_basic_commands() {
        assert_eq!("uci".parse(), Ok(Command::Uci));
        assert_eq!("  isready  ".parse(), Ok(Command::IsReady));
        assert_eq!(
            "setoption name UCI_Variant value pole".parse(),
            Ok(Command::SetOption {
                name: "UCI_Variant".into(),
                value: Some("pole".into())
            })
        );
        assert_eq!(
            "setoption name Move Overhead value 30".parse(),
            Ok(Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("30".into())
            })
        );
        assert_eq!(
            "position startpos moves e2e4 e7e5".parse(),
            Ok(Command::Position {
                start: StartPos::Startpos,
                moves: vec!["e2e4".into(), "e7e5".into()]
            })
        );
        assert_eq!(
            "position fen 8/8/8/8/8/8/8/K6k w - - 0 1".parse(),
            Ok(Command::Position {
                start: StartPos::Fen("8/8/8/8/8/8/8/K6k w - - 0 1".into()),
                moves: vec![]
            })
        );
    }

    #[test]
    fn parses_genfens_as_openbenchs_worker_writes_it() {
        use crate::tuning::genfens::Request;
        let r = |count, seed, book: Option<&str>| {
            Ok(Command::Genfens(Request {
                count,
                seed,
                book: book.map(str::to_string),
            }))
        };
        // Client/genfens.py genfens_command_builder: 'genfens %d seed %d book %s %s'.
        assert_eq!(
            "genfens 64 seed 2147483647 book None ".parse(),
            r(64, 2147483647, None)
        );
        assert_eq!(
            "genfens 1 seed 0 book Books/UHO.epd extra words".parse(),
            r(1, 0, Some("Books/UHO.epd"))
        );
        for (line, wanted) in [
            ("genfens", "expected 'genfens N seed S book"),
            (
                "genfens 5 book None seed 1",
                "expected 'genfens N seed S book",
            ),
            ("genfens 0 seed 1 book None", "1 to 100000, not 0"),
            ("genfens 100001 seed 1 book None", "1 to 100000, not 100001"),
            (
                "genfens x seed 1 book None",
                "'genfens' value 'x' is not a valid number",
            ),
            ("genfens 5 seed -1 book None", "'seed' value '-1'"),
        ] {
            let e = line.parse::<Command>().unwrap_err();
            assert!(e.contains(wanted), "{line}: {e}");
        }
    }

    #[test]
    fn parses_go() {
        let Ok(Command::Go(g)) = "go wtime 1000 btime 2000 winc 10 binc 20 movestogo 5".parse()
        else {
            panic!("go did not parse");
        };
        assert_eq!(g.time, [Some(1000), Some(2000), None, None]);
        assert_eq!(g.inc, [Some(10), Some(20), None, None]);
        assert_eq!(g.movestogo, Some(5));
        let Ok(Command::Go(g)) = "go gtime 5 stime -3 searchmoves e2e4 d2d4 depth 3".parse() else {
            panic!("go did not parse");
        };
        assert_eq!(g.time, [None, None, Some(5), Some(0)]);
        assert_eq!(g.searchmoves, vec!["e2e4", "d2d4"]);
        assert_eq!(g.depth, Some(3));
        assert_eq!(
            "go perft 4"
                .parse::<Command>()
                .map(|c| matches!(c, Command::Go(GoParams { perft: Some(4), .. }))),
            Ok(true)
        );
        // Clocks of any size read as the bound, negative ones as 0; junk is an error.
        let Ok(Command::Go(g)) =
            "go wtime 99999999999999999999999999999999999999999999 btime -99999999999999999999999999999999999999999 winc 18446744073709551616 movetime 2000000000000"
                .parse()
        else {
            panic!("go did not parse");
        };
        assert_eq!(g.time, [Some(MAX_CLOCK_MS), Some(0), None, None]);
        assert_eq!(g.inc[0], Some(MAX_CLOCK_MS));
        assert_eq!(g.movetime, Some(MAX_CLOCK_MS));
        assert!("go wtime 12x".parse::<Command>().is_err());
        assert!("go wtime -".parse::<Command>().is_err());
    }

    #[test]
    fn reports_what_is_wrong() {
        assert!(
            "frobnicate"
                .parse::<Command>()
                .unwrap_err()
                .contains("unknown command 'frobnicate'")
        );
        assert!(
            "go depth x"
                .parse::<Command>()
                .unwrap_err()
                .contains("'depth' value 'x'")
        );
        assert!(
            "go depth"
                .parse::<Command>()
                .unwrap_err()
                .contains("needs a value")
        );
        assert!(
            "go sideways"
                .parse::<Command>()
                .unwrap_err()
                .contains("unknown go parameter")
        );
        assert!("position".parse::<Command>().is_err());
        assert!("position fen".parse::<Command>().is_err());
        assert!("position startpos e2e4".parse::<Command>().is_err());
        assert!("setoption value 3".parse::<Command>().is_err());
        assert!("uci now".parse::<Command>().is_err());
        assert!("".parse::<Command>().is_err());
    }

    /// Found by `tests/fuzz.rs`: the parser echoed a whole token into its message, so a
    /// megabyte line got a megabyte error line back.
    #[test]
    fn error_messages_stay_short_for_long_tokens() {
        let long = "x".repeat(1 << 20);
        for line in [
            format!("position {long}"),
            format!("position startpos {long}"),
            format!("go {long}"),
            format!("go depth {long}"),
            format!("go wtime 1{long}"),
            format!("bench {long}"),
            format!("{long} isready"),
        ] {
            let e = line.parse::<Command>().unwrap_err();
            assert!(e.len() < 200, "{} bytes: {}", e.len(), &e[..200]);
        }
    }
}
