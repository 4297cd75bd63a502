//! One game with the runner as referee: every move an engine names is checked by the rules
//! layer, the complete end-of-game test runs after every move, and the referee adjudicates
//! what the rules cannot see: illegal moves, time forfeits, crashes and stalls, and optional
//! draw and resign adjudication by the engines' scores.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, SystemTime};

use super::args::{DrawAdjudication, EngineConfig, Limits, ResignAdjudication};
use super::openings::Opening;
use super::player::{Fault, Player, Reply, SearchInfo, Turn};
use super::referee::{Ending, RecordIds, Referee};
use super::seats::{team_name, team_of};
use super::stats::Outcome;
use crate::rules::Variant;
use crate::rules::piece::Colour;

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
    /// An engine crashed (its process ended), or broke the protocol so badly that it is not
    /// listened to any more (a line longer than
    /// [`MAX_ENGINE_LINE`](crate::protocol::line::MAX_ENGINE_LINE)).
    Abandoned,
    /// An engine without a clock did not answer.
    Stalled,
    /// A player resigned (in the GUI; the runner adjudicates resignations instead).
    Resignation,
    /// The players agreed to a draw (in the GUI).
    Agreement,
    /// Not over yet.
    Unterminated,
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
            Termination::Resignation => "resignation",
            Termination::Agreement => "agreement",
            Termination::Unterminated => "unterminated",
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
            Termination::Resignation,
            Termination::Agreement,
            Termination::Unterminated,
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
    /// Not over yet (a game saved in the middle, from the GUI).
    Unfinished,
}

impl GameResult {
    /// The PGN result.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::Win(0) => "1-0",
            GameResult::Win(_) => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unfinished => "*",
        }
    }
}

/// A move as played, with what the engine said about it.
#[derive(Clone, Debug)]
pub struct PlayedMove {
    /// The move in protocol notation (what the engines are told).
    pub name: String,
    /// The move in readable notation (`Nf3`, `NCc5`: [`crate::rules::notation`]), what
    /// the PGN and the GUI's move list show.
    pub san: String,
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
    /// Chess960 (chess from a Chess960 start, castling written King takes Rook).
    pub chess960: bool,
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
            GameResult::Draw | GameResult::Unfinished => Outcome::Draw,
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
    /// Chess960 notation and engines.
    pub chess960: bool,
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
            step(&mut self.losing[engine], score <= r.score.saturating_neg());
            step(&mut self.winning[engine], score >= r.score);
        }
        if let Some(d) = adj.draw {
            // Whatever score an engine prints: `i32::MIN` has no absolute value in i32.
            step(
                &mut self.drawish[engine],
                i64::from(score).abs() <= i64::from(d.score),
            );
        }
    }

    /// The adjudication, if any, after engine `engine` (on `seats`) moved and `moves` moves
    /// (opening moves included) have been played by `colours` colours.
    fn adjudicate(
        &self,
        adj: &Adjudication,
        engine: usize,
        seats: &[usize],
        moves: usize,
        colours: usize,
    ) -> Option<Ending> {
        if let Some(r) = adj.resign
            && self.losing[engine] >= r.movecount
            && (!r.twosided || self.winning[1 - engine] >= r.movecount)
        {
            let team = team_of(seats, engine);
            return Some(Ending {
                result: GameResult::Win(1 - team),
                termination: Termination::Adjudication,
                reason: format!("{} resigns", team_name(colours, team)),
            });
        }
        let full_moves = (moves / colours) as u32;
        let draw = |reason: &str| Ending {
            result: GameResult::Draw,
            termination: Termination::Adjudication,
            reason: reason.to_string(),
        };
        if let Some(d) = adj.draw
            && full_moves >= d.movenumber
            && self.drawish.iter().all(|&r| r >= d.movecount)
        {
            return Some(draw("Draw by adjudication"));
        }
        if adj.maxmoves.is_some_and(|m| full_moves >= m) {
            return Some(draw("Draw by adjudication: move limit"));
        }
        None
    }
}

/// Gets every player ready for game `id`, restarting one that fails once.
fn prepare_players(players: &mut [Box<dyn Player>], id: u64) -> Result<(), String> {
    for (e, p) in players.iter_mut().enumerate() {
        if let Err(first) = p.new_game(id) {
            tracing::warn!(engine = e, "{first}: restarting");
            p.restart()?;
            p.new_game(id)?;
        }
    }
    Ok(())
}

/// Plays one game. `Ok(None)` when `stop` was raised (the game is abandoned unscored);
/// `Err` when an engine cannot be brought back to life (the match cannot go on).
pub fn play(
    spec: &GameSpec,
    players: &mut [Box<dyn Player>],
    stop: &AtomicBool,
) -> Result<Option<GameRecord>, String> {
    let started = SystemTime::now();
    let colours = spec.variant.colours();
    let cfg = |c: usize| &spec.engines[spec.seats[c]];
    let limits = (0..colours).map(|c| cfg(c).limits).collect();
    let mut referee = Referee::new(spec.variant, spec.chess960, spec.opening, limits)?;
    prepare_players(players, spec.id)?;
    let mut runs = ScoreRuns::default();
    let ending = loop {
        if stop.load(Ordering::Relaxed) {
            return Ok(None);
        }
        if let Some(end) = referee.outcome() {
            break end;
        }
        let colour = referee.to_move();
        let e = spec.seats[colour.idx()];
        let margin = cfg(colour.idx())
            .timemargin_ms
            .unwrap_or(spec.default_margin_ms);
        let wait_ms = referee
            .time_allowed_ms(margin)
            .unwrap_or(spec.stall_timeout.as_millis() as u64);
        let answer = players[e].think(&Turn {
            game: referee.game(),
            position: &referee.position_command(),
            go: &referee.go_command(),
            wait: Duration::from_millis(wait_ms),
        });
        let elapsed_ms = answer.elapsed.as_millis() as u64;
        match answer.reply {
            Reply::Timeout => {
                players[e].recover()?;
                let name = colour.name();
                break if referee.limits(colour).timed() {
                    Ending::loss(
                        colour,
                        Termination::TimeForfeit,
                        format!("{name} loses on time"),
                    )
                } else {
                    Ending::loss(
                        colour,
                        Termination::Stalled,
                        format!("{name}'s connection stalls"),
                    )
                };
            }
            Reply::Crashed => {
                let reason = match players[e].fault() {
                    // Our fault, not the engine's: the game cannot be played on, and nobody
                    // lost it.
                    Some(Fault::Refused(why)) => return Err(format!("game {}: {why}", spec.id)),
                    Some(Fault::Misbehaved(what)) => format!("{} {what}", colour.name()),
                    None => format!("{} disconnects", colour.name()),
                };
                players[e].restart()?;
                break Ending::loss(colour, Termination::Abandoned, reason);
            }
            Reply::Move(name) => {
                if let Err(end) = referee.charge_time(elapsed_ms, margin) {
                    break end;
                }
                if let Err(end) = referee.play(&name, answer.info, elapsed_ms) {
                    break end;
                }
                runs.add(e, &answer.info, &spec.adjudication);
                if referee.outcome().is_some() {
                    continue;
                }
                let played = referee.moves().len();
                if let Some(end) =
                    runs.adjudicate(&spec.adjudication, e, &spec.seats, played, colours)
                {
                    break end;
                }
            }
        }
    };
    Ok(Some(referee.finish(
        ending,
        RecordIds {
            id: spec.id,
            round: spec.round,
            seats: spec.seats.clone(),
            names: (0..colours).map(|c| cfg(c).name.clone()).collect(),
            started,
        },
    )))
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
