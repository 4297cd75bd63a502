//! One game with the runner as referee: every move an engine names is checked by the rules
//! layer, the complete end-of-game test runs after every move, and the referee adjudicates
//! what the rules cannot see: illegal moves, time forfeits, crashes and stalls, and optional
//! draw and resign adjudication by the engines' scores.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, SystemTime};

use super::args::{DrawAdjudication, EngineConfig, ResignAdjudication};
use super::openings::Opening;
use super::player::{Fault, Player, Reply, SearchInfo, Turn};
use super::record::{GameRecord, GameResult, Termination};
use super::referee::{Ending, RecordIds, Referee};
use super::seats::{team_name, team_of};
use crate::rules::Variant;

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
