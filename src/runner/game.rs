//! One game with the runner as referee: every move an engine names is checked by the rules
//! layer, the complete end-of-game test runs after every move, and the referee adjudicates
//! what the rules cannot see: illegal moves, time forfeits, crashes and stalls, and optional
//! draw and resign adjudication by the engines' scores.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant, SystemTime};

use super::args::{DrawAdjudication, EngineConfig, Limits, ResignAdjudication};
use super::openings::Opening;
use super::player::{Player, Reply, SearchInfo, Turn};
use super::seats::{team_name, team_of};
use super::stats::Outcome;
use crate::rules::piece::Colour;
use crate::rules::{AnyGame, Game, GameEnd, MoveError, Variant};

/// How a game ended, as the PGN `Termination` tag names it (cutechess's values).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    /// By the rules (checkmate, King capture, stalemate, repetition, ...).
    Normal,
    /// By score or move-count adjudication.
    Adjudication,
    /// A clock ran out.
    TimeForfeit,
    /// An illegal or unparsable move.
    IllegalMove,
    /// An engine crashed (its process ended).
    Abandoned,
    /// An engine without a clock did not answer.
    Stalled,
}

impl Termination {
    /// The PGN tag value.
    pub fn pgn(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::Adjudication => "adjudication",
            Termination::TimeForfeit => "time forfeit",
            Termination::IllegalMove => "illegal move",
            Termination::Abandoned => "abandoned",
            Termination::Stalled => "stalled connection",
        }
    }

    /// Reads a tag value back.
    pub fn from_pgn(s: &str) -> Option<Termination> {
        [
            Termination::Normal,
            Termination::Adjudication,
            Termination::TimeForfeit,
            Termination::IllegalMove,
            Termination::Abandoned,
            Termination::Stalled,
        ]
        .into_iter()
        .find(|t| t.pgn() == s)
    }
}

/// The result of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// This team won (0 = White's, 1 = Black's).
    Win(usize),
    /// Drawn.
    Draw,
}

impl GameResult {
    /// The PGN result.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::Win(0) => "1-0",
            GameResult::Win(_) => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }
}

/// A move as played, with what the engine said about it.
#[derive(Clone, Debug)]
pub struct PlayedMove {
    /// The move in the variant's notation.
    pub name: String,
    /// The colour that played it.
    pub colour: Colour,
    /// The move number of the position it was played in.
    pub number: u32,
    /// An opening move (not chosen by an engine).
    pub book: bool,
    /// The engine's last search information.
    pub info: SearchInfo,
    /// Thinking time in ms.
    pub time_ms: u64,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Game number in the match (1-based).
    pub id: u64,
    /// Round (game pair) number (1-based).
    pub round: usize,
    /// The variant.
    pub variant: Variant,
    /// The start position's FEN (before the opening moves).
    pub start_fen: String,
    /// Whether that is not the variant's standard start.
    pub custom_start: bool,
    /// The engine in each seat (colour index).
    pub seats: Vec<usize>,
    /// The player names in each seat.
    pub names: Vec<String>,
    /// The time control of each seat's engine (`-` for none).
    pub time_controls: Vec<String>,
    /// The moves, opening moves included.
    pub moves: Vec<PlayedMove>,
    /// The result.
    pub result: GameResult,
    /// How it ended.
    pub termination: Termination,
    /// Why, in words: `White wins by checkmate`, `Black loses on time`, ...
    pub reason: String,
    /// The final position.
    pub final_fen: String,
    /// When the game started.
    pub started: SystemTime,
    /// How long it took.
    pub duration: Duration,
}

impl GameRecord {
    /// The result for engine `engine` (0 or 1).
    pub fn outcome_for(&self, engine: usize) -> Outcome {
        match self.result {
            GameResult::Draw => Outcome::Draw,
            GameResult::Win(t) if t == team_of(&self.seats, engine) => Outcome::Win,
            GameResult::Win(_) => Outcome::Loss,
        }
    }
}

/// Adjudication settings.
#[derive(Clone, Copy, Debug, Default)]
pub struct Adjudication {
    /// Draw by score.
    pub draw: Option<DrawAdjudication>,
    /// Resign by score.
    pub resign: Option<ResignAdjudication>,
    /// Draw after this many moves.
    pub maxmoves: Option<u32>,
}

/// Everything one game needs.
pub struct GameSpec<'a> {
    /// Game number (1-based).
    pub id: u64,
    /// Round (1-based).
    pub round: usize,
    /// The variant.
    pub variant: Variant,
    /// The opening.
    pub opening: &'a Opening,
    /// The engine in each seat.
    pub seats: Vec<usize>,
    /// The two engines' settings.
    pub engines: &'a [EngineConfig],
    /// Time margin for engines that set none.
    pub default_margin_ms: u64,
    /// How long an engine without a clock may think.
    pub stall_timeout: Duration,
    /// Adjudication.
    pub adjudication: Adjudication,
}

/// The `go` command for the side to move: every seat's clock and increment when the mover
/// plays with a clock (`wtime btime` and, with four colours, `gtime stime`), plus the
/// mover's fixed limits.
pub fn go_command(
    limits_by_seat: &[Limits],
    clocks_ms: &[i64],
    moves_made: &[u32],
    mover: usize,
) -> String {
    let mut go = String::from("go");
    let me = &limits_by_seat[mover];
    if let Some(tc) = me.tc {
        let letters = ['w', 'b', 'g', 's'];
        for (c, l) in limits_by_seat.iter().enumerate() {
            if l.tc.is_some() {
                go.push_str(&format!(" {}time {}", letters[c], clocks_ms[c].max(0)));
            }
        }
        for (c, l) in limits_by_seat.iter().enumerate() {
            if let Some(t) = l.tc {
                go.push_str(&format!(" {}inc {}", letters[c], t.inc_ms));
            }
        }
        if let Some(m) = tc.moves {
            go.push_str(&format!(" movestogo {}", m - moves_made[mover] % m));
        }
    }
    if let Some(mt) = me.movetime_ms {
        go.push_str(&format!(" movetime {mt}"));
    }
    if let Some(d) = me.depth {
        go.push_str(&format!(" depth {d}"));
    }
    if let Some(n) = me.nodes {
        go.push_str(&format!(" nodes {n}"));
    }
    go
}

/// The move number (the FEN's last field).
fn move_number(game: &AnyGame) -> u32 {
    game.fen()
        .split_whitespace()
        .last()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1)
}

/// Per-engine runs of scores for adjudication.
#[derive(Default)]
struct ScoreRuns {
    losing: [u32; 2],
    winning: [u32; 2],
    drawish: [u32; 2],
}

impl ScoreRuns {
    fn add(&mut self, engine: usize, info: &SearchInfo, adj: &Adjudication) {
        let Some(score) = info.score.map(|s| s.centipawns()) else {
            self.losing[engine] = 0;
            self.winning[engine] = 0;
            self.drawish[engine] = 0;
            return;
        };
        let step = |run: &mut u32, holds: bool| *run = if holds { *run + 1 } else { 0 };
        if let Some(r) = adj.resign {
            step(&mut self.losing[engine], score <= -r.score);
            step(&mut self.winning[engine], score >= r.score);
        }
        if let Some(d) = adj.draw {
            step(&mut self.drawish[engine], score.abs() <= d.score);
        }
    }
}

/// Plays one game. `Ok(None)` when `stop` was raised (the game is abandoned unscored);
/// `Err` when an engine cannot be brought back to life (the match cannot go on).
pub fn play(
    spec: &GameSpec,
    players: &mut [Box<dyn Player>],
    stop: &AtomicBool,
) -> Result<Option<GameRecord>, String> {
    let started = SystemTime::now();
    let clock_start = Instant::now();
    let n = spec.variant.colours();
    let mut game = match &spec.opening.fen {
        Some(f) => AnyGame::from_fen(spec.variant, f)?,
        None => AnyGame::startpos(spec.variant),
    };
    let start_fen = game.fen();
    let standard = AnyGame::startpos(spec.variant).fen();
    let mut moves: Vec<PlayedMove> = Vec::new();
    for m in &spec.opening.moves {
        let mv = game
            .parse_move(m)
            .map_err(|e| format!("opening: {e} in {start_fen}"))?;
        moves.push(PlayedMove {
            name: m.clone(),
            colour: game.side_to_move(),
            number: move_number(&game),
            book: true,
            info: SearchInfo::default(),
            time_ms: 0,
        });
        game.make(mv);
    }
    let cfg = |c: usize| &spec.engines[spec.seats[c]];
    let limits: Vec<Limits> = (0..n).map(|c| cfg(c).limits).collect();
    let mut clocks: Vec<i64> = limits
        .iter()
        .map(|l| l.tc.map_or(0, |t| t.base_ms as i64))
        .collect();
    let mut made = vec![0u32; n];
    for (e, p) in players.iter_mut().enumerate() {
        if let Err(first) = p.new_game(spec.id) {
            tracing::warn!(engine = e, "{first}: restarting");
            p.restart()?;
            p.new_game(spec.id)?;
        }
    }
    let position_head = match &spec.opening.fen {
        Some(f) => format!("position fen {f}"),
        None => "position startpos".to_string(),
    };
    let mut runs = ScoreRuns::default();
    let adj = spec.adjudication;
    let colour_name = |c: usize| Colour(c as u8).name();
    let (result, termination, reason) = loop {
        if stop.load(Ordering::Relaxed) {
            return Ok(None);
        }
        if let Some(end) = game.outcome() {
            break match end {
                GameEnd::Win { winner, reason } => (
                    GameResult::Win(winner),
                    Termination::Normal,
                    format!("{} wins by {reason}", team_name(n, winner)),
                ),
                GameEnd::Draw { reason } => (
                    GameResult::Draw,
                    Termination::Normal,
                    format!("Draw by {reason}"),
                ),
            };
        }
        let c = game.side_to_move().idx();
        let e = spec.seats[c];
        let lim = limits[c];
        let margin = cfg(c).timemargin_ms.unwrap_or(spec.default_margin_ms);
        let loser = GameResult::Win(1 - Colour(c as u8).team());
        let position = if moves.is_empty() {
            position_head.clone()
        } else {
            let names: Vec<&str> = moves.iter().map(|m| m.name.as_str()).collect();
            format!("{position_head} moves {}", names.join(" "))
        };
        let go = go_command(&limits, &clocks, &made, c);
        let wait_ms = match (lim.tc, lim.movetime_ms) {
            (Some(_), _) => clocks[c].max(0) as u64 + margin,
            (None, Some(mt)) => mt + margin,
            (None, None) => spec.stall_timeout.as_millis() as u64,
        };
        let answer = players[e].think(&Turn {
            game: &game,
            position: &position,
            go: &go,
            wait: Duration::from_millis(wait_ms),
        });
        let elapsed_ms = answer.elapsed.as_millis() as u64;
        match answer.reply {
            Reply::Timeout => {
                players[e].recover()?;
                break if lim.timed() {
                    (
                        loser,
                        Termination::TimeForfeit,
                        format!("{} loses on time", colour_name(c)),
                    )
                } else {
                    (
                        loser,
                        Termination::Stalled,
                        format!("{}'s connection stalls", colour_name(c)),
                    )
                };
            }
            Reply::Crashed => {
                players[e].restart()?;
                break (
                    loser,
                    Termination::Abandoned,
                    format!("{} disconnects", colour_name(c)),
                );
            }
            Reply::Move(name) => {
                let late = match (lim.tc, lim.movetime_ms) {
                    (Some(_), _) => elapsed_ms as i64 > clocks[c] + margin as i64,
                    (None, Some(mt)) => elapsed_ms > mt + margin,
                    (None, None) => false,
                };
                if late {
                    break (
                        loser,
                        Termination::TimeForfeit,
                        format!("{} loses on time", colour_name(c)),
                    );
                }
                if let Some(tc) = lim.tc {
                    clocks[c] -= elapsed_ms as i64;
                    clocks[c] += tc.inc_ms as i64;
                    made[c] += 1;
                    if tc.moves.is_some_and(|m| made[c].is_multiple_of(m)) {
                        clocks[c] += tc.base_ms as i64;
                    }
                }
                let mv = match game.parse_move(&name) {
                    Ok(mv) => mv,
                    Err(err) => {
                        let what = match err {
                            MoveError::Malformed(s) => format!("an unparsable move: '{s}'"),
                            MoveError::Illegal(s) => format!("an illegal move: {s}"),
                        };
                        break (
                            loser,
                            Termination::IllegalMove,
                            format!("{} makes {what}", colour_name(c)),
                        );
                    }
                };
                moves.push(PlayedMove {
                    name,
                    colour: game.side_to_move(),
                    number: move_number(&game),
                    book: false,
                    info: answer.info,
                    time_ms: elapsed_ms,
                });
                game.make(mv);
                runs.add(e, &answer.info, &adj);
                if game.outcome().is_some() {
                    continue;
                }
                if let Some(r) = adj.resign
                    && runs.losing[e] >= r.movecount
                    && (!r.twosided || runs.winning[1 - e] >= r.movecount)
                {
                    let team = team_of(&spec.seats, e);
                    break (
                        GameResult::Win(1 - team),
                        Termination::Adjudication,
                        format!("{} resigns", team_name(n, team)),
                    );
                }
                let full_moves = (moves.len() / n) as u32;
                if let Some(d) = adj.draw
                    && full_moves >= d.movenumber
                    && runs.drawish.iter().all(|&r| r >= d.movecount)
                {
                    break (
                        GameResult::Draw,
                        Termination::Adjudication,
                        "Draw by adjudication".to_string(),
                    );
                }
                if adj.maxmoves.is_some_and(|m| full_moves >= m) {
                    break (
                        GameResult::Draw,
                        Termination::Adjudication,
                        "Draw by adjudication: move limit".to_string(),
                    );
                }
            }
        }
    };
    Ok(Some(GameRecord {
        id: spec.id,
        round: spec.round,
        variant: spec.variant,
        custom_start: start_fen != standard,
        start_fen,
        seats: spec.seats.clone(),
        names: (0..n).map(|c| cfg(c).name.clone()).collect(),
        time_controls: (0..n)
            .map(|c| {
                let l = cfg(c).limits;
                if l.any() { l.to_string() } else { "-".into() }
            })
            .collect(),
        moves,
        result,
        termination,
        reason,
        final_fen: game.fen(),
        started,
        duration: clock_start.elapsed(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::args::TimeControl;

    #[test]
    fn go_carries_every_seat_clock() {
        let tc = Limits {
            tc: Some(TimeControl {
                moves: Some(40),
                base_ms: 60_000,
                inc_ms: 600,
            }),
            ..Limits::default()
        };
        let go = go_command(&[tc; 4], &[1000, 2000, -5, 4000], &[0, 0, 39, 0], 2);
        assert_eq!(
            go,
            "go wtime 1000 btime 2000 gtime 0 stime 4000 winc 600 binc 600 ginc 600 sinc 600 movestogo 1"
        );
        let fixed = Limits {
            depth: Some(5),
            nodes: Some(1000),
            movetime_ms: Some(50),
            ..Limits::default()
        };
        assert_eq!(
            go_command(&[fixed, tc], &[0, 60_000], &[3, 3], 0),
            "go movetime 50 depth 5 nodes 1000"
        );
        assert_eq!(
            go_command(&[fixed, tc], &[0, 60_000], &[3, 3], 1),
            "go btime 60000 binc 600 movestogo 37"
        );
    }
}
