//! One game session: the page at the other end of one WebSocket, its engine, and its game.
//!
//! The session owns the game. The rules layer (through the match runner's [`Referee`]) gives
//! the legal moves, checks every move, keeps the moves and every colour's clock and decides
//! the end; the session adds what a person needs: a person's own clock (measured here, from
//! the moment the turn began), take-backs, resignation, draw offers, and the engine playing
//! its seats. Every change is answered with the whole [`State`]; every refused message with
//! an error, and nothing changes.
//!
//! Every field of a message is checked before it is used ([`bounds`]): no string holding a
//! line break or another control character, no list or number past its bound, no engine
//! option but the strength options within their declared ranges ([`super::options`]).

use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use super::bounds::{self, MAX_FEN, MAX_MESSAGE, MAX_PGN_GAMES, MAX_WORD};
use super::describe::{self, cell_named, legal_moves, move_cells};
use super::engine::{EngineHandle, Report, Request};
use super::messages::{
    ClientMessage, ClockSpec, EngineLimit, EngineReport, EngineView, GameSummary, Hello, LastMove,
    MAX_MULTIPV, Mode, MoveView, NewGame, PieceTargets, PositionView, ResultView, Seat,
    ServerMessage, State, VariantView,
};
use super::options::{strength_label, strength_options};
use crate::protocol::line::escape;
use crate::rules::piece::{Colour, Piece};
use crate::rules::{AnyGame, Game, MoveError, Variant, notation};
use crate::runner::args::{Limits, TimeControl};
use crate::runner::openings::Opening;
use crate::runner::pgn;
use crate::runner::player::Reply;
use crate::runner::record::{GameResult, Termination};
use crate::runner::referee::{Ending, RecordIds, Referee};
use crate::runner::seats::team_name;

/// The engine's limit per move when a game has no clock and the page sets none.
pub const DEFAULT_ENGINE_NODES: u64 = 100_000;
/// How long an engine without a clock may think before it counts as stalled.
const STALL: Duration = Duration::from_secs(120);
/// How long an analysis may run (it is stopped whenever the position changes).
const ANALYSIS_WAIT: Duration = Duration::from_secs(24 * 3600);
/// The lines analysis shows until the page asks for another number.
const DEFAULT_MULTIPV: usize = 3;
/// How far past its clock an engine may answer.
const ENGINE_MARGIN_MS: u64 = 200;
/// The engine accepts a draw when its last score is at most this (centipawns, its view).
const DRAW_ACCEPT_CP: i32 = 0;

/// What every session shares: how to start the engine, and the variants' descriptions.
pub struct Context {
    /// The engine's program.
    pub engine_cmd: String,
    /// Its arguments.
    pub engine_args: Vec<String>,
    /// Every variant as the page draws it (built once).
    pub variants: Vec<VariantView>,
}

/// A game in progress (or just over).
struct GameState {
    id: u64,
    variant: Variant,
    cells: usize,
    referee: Referee,
    seats: Vec<Seat>,
    names: Vec<String>,
    timed: bool,
    started: SystemTime,
    /// When the colour to move began its turn.
    turn_start: Instant,
    ending: Option<Ending>,
    draw_offer: Option<Colour>,
    /// The engine search under way (its request number).
    thinking: Option<u64>,
    /// Waiting for the engine to get ready for this game.
    engine_pending: bool,
    /// Play or analysis.
    mode: Mode,
    /// In analysis: whether the engine is to analyse, and with how many lines.
    analyse: bool,
    multipv: usize,
    /// Where the game started and each colour's limits, to replay a line from the start.
    start_fen: Option<String>,
    limits: Vec<Limits>,
    /// A game opened from a PGN: its moves and their comments, shown with the moves played
    /// as long as they follow it.
    loaded: Vec<(String, String)>,
}

impl GameState {
    fn seat(&self, c: Colour) -> Seat {
        self.seats[c.idx()]
    }

    fn running(&self) -> bool {
        self.ending.is_none()
    }

    /// Whether `c`'s clock runs. As on lichess (where the clocks start once White and Black
    /// have each moved), a colour's clock starts after its own first move: that move is not
    /// timed, so nobody loses time while the game is being set up.
    fn clock_runs(&self, c: Colour) -> bool {
        self.timed && self.running() && self.referee.moves().iter().any(|m| m.colour == c)
    }
}

/// A session: its engine, its game, and the messages waiting to go to the page.
pub struct Session {
    ctx: Arc<Context>,
    engine: EngineHandle,
    engine_view: Option<EngineView>,
    hello_sent: bool,
    game: Option<GameState>,
    games: u64,
    thinks: u64,
    outbox: Vec<ServerMessage>,
    /// The games of the PGN opened last.
    /// The games of the PGN opened last; those that cannot be shown only as why (so
    /// that they hold no memory).
    library: Vec<Result<crate::runner::pgn::PgnGame, String>>,
}

impl Session {
    /// A session whose engine thread reports on `reports`, holding `slot` (its place among
    /// the sessions allowed at once) until its engine has ended.
    pub fn new(
        ctx: Arc<Context>,
        reports: tokio::sync::mpsc::Sender<Report>,
        slot: tokio::sync::OwnedSemaphorePermit,
    ) -> Session {
        let engine = EngineHandle::start(
            ctx.engine_cmd.clone(),
            ctx.engine_args.clone(),
            reports,
            slot,
        );
        Session {
            ctx,
            engine,
            engine_view: None,
            hello_sent: false,
            game: None,
            games: 0,
            thinks: 0,
            outbox: Vec::new(),
            library: Vec::new(),
        }
    }

    /// The messages to send now.
    pub fn take_outbox(&mut self) -> Vec<ServerMessage> {
        std::mem::take(&mut self.outbox)
    }

    /// When a person's clock runs out, if one runs.
    pub fn deadline(&self) -> Option<Instant> {
        let g = self.game.as_ref()?;
        let c = g.referee.to_move();
        if !g.clock_runs(c) || g.seat(c) != Seat::Human {
            return None;
        }
        let left = g.referee.clock_ms(c).max(0) as u64;
        Some(g.turn_start + Duration::from_millis(left))
    }

    /// A person's clock ran out (if it really did).
    pub fn on_deadline(&mut self) {
        if let Some(at) = self.deadline()
            && Instant::now() >= at
            && let Some(g) = self.game.as_mut()
        {
            let c = g.referee.to_move();
            g.referee.set_clock_ms(c, 0);
            g.ending = Some(Ending::loss(
                c,
                Termination::TimeForfeit,
                format!("{} loses on time", c.name()),
            ));
            self.push_state();
        }
    }

    /// Handles a text message from the page: an error message if it is refused.
    pub fn on_text(&mut self, text: &str) {
        let result = if text.len() > MAX_MESSAGE {
            Err(format!(
                "a message of {} bytes is too large: at most {MAX_MESSAGE} bytes are read",
                text.len()
            ))
        } else {
            match serde_json::from_str::<ClientMessage>(text) {
                Ok(m) => self.on_message(m),
                Err(e) => Err(format!("bad message: {e}")),
            }
        };
        if let Err(message) = result {
            self.outbox.push(ServerMessage::Error { message });
        }
    }

    fn on_message(&mut self, m: ClientMessage) -> Result<(), String> {
        // A message that may ask the engine for something waits for nothing: while the
        // engine has not taken the requests before it, it is refused.
        let asks_engine = matches!(
            m,
            ClientMessage::NewGame(_)
                | ClientMessage::Move { .. }
                | ClientMessage::Takeback
                | ClientMessage::Analyse { .. }
                | ClientMessage::Line { .. }
                | ClientMessage::ViewGame { .. }
        );
        if asks_engine && self.engine.busy() {
            return Err("the engine is busy with earlier requests: try again in a moment".into());
        }
        match m {
            ClientMessage::NewGame(g) => self.new_game(g),
            ClientMessage::Move { mv } => self.person_moves(&mv),
            ClientMessage::Explain { from, to } => self.explain(&from, &to),
            ClientMessage::Takeback => self.take_back(),
            ClientMessage::Resign => self.resign(),
            ClientMessage::DrawOffer => self.offer_draw(),
            ClientMessage::DrawAnswer { accept } => self.answer_draw(accept),
            ClientMessage::GetPgn => self.pgn(),
            ClientMessage::Show { ply } => self.show(ply),
            ClientMessage::Analyse { on, multipv } => self.analyse(on, multipv),
            ClientMessage::Line { moves } => self.set_line(&moves),
            ClientMessage::LoadPgn { pgn } => self.load_pgn(&pgn),
            ClientMessage::ViewGame { index } => self.view_game(index),
            ClientMessage::Compose {
                variant,
                fen,
                pieces,
            } => self.compose(&variant, &fen, pieces.as_deref()),
            ClientMessage::PieceMoves {
                variant,
                kind,
                colour,
                cell,
            } => self.piece_moves(&variant, kind, colour, cell),
        }
    }

    /// Handles a report of the engine thread.
    pub fn on_report(&mut self, r: Report) {
        match r {
            Report::Started { name, options } => {
                self.engine_view = Some(EngineView { name, options });
                self.send_hello();
            }
            Report::Failed(message) => {
                self.send_hello();
                self.outbox.push(ServerMessage::EngineStatus {
                    message: format!("The engine is not available: {message}"),
                });
            }
            Report::Ready(game, result) => self.engine_ready(game, result),
            Report::Status(message) => self.outbox.push(ServerMessage::EngineStatus { message }),
            Report::Line(id, line) => {
                if let Some(g) = &self.game
                    && g.thinking == Some(id)
                    && let Some(mut r) = EngineReport::from_info(&line, g.referee.to_move().0)
                    && (g.mode == Mode::Analysis || r.multipv.unwrap_or(1) == 1)
                {
                    r.san = notation::line(g.referee.game(), &r.pv);
                    self.outbox.push(ServerMessage::Engine(r));
                }
            }
            Report::Answer(id, answer) => self.engine_answer(id, answer),
        }
    }

    fn send_hello(&mut self) {
        if self.hello_sent {
            return;
        }
        self.hello_sent = true;
        self.outbox.push(ServerMessage::Hello(Box::new(Hello {
            version: env!("CARGO_PKG_VERSION"),
            variants: self.ctx.variants.clone(),
            engine: self.engine_view.clone(),
        })));
    }

    fn game_mut(&mut self) -> Result<&mut GameState, String> {
        self.game
            .as_mut()
            .ok_or_else(|| "no game: start one first".to_string())
    }

    /// Ends a search under way (its answer will be ignored).
    fn interrupt_engine(&mut self) {
        if let Some(id) = self.game.as_mut().and_then(|g| g.thinking.take()) {
            self.engine.interrupt(id);
        }
    }

    fn new_game(&mut self, spec: NewGame) -> Result<(), String> {
        // The bounds first (cheap), then the start, every string of it checked before it
        // is read.
        if let Some(c) = &spec.clock {
            bounds::clock(c)?;
        }
        if let Some(l) = &spec.engine_limit {
            bounds::engine_limit(l)?;
        }
        let opening = start_of(&spec)?;
        let variant = opening.0;
        let colours = variant.colours();
        let analysis = spec.mode == Mode::Analysis;
        let seats = match &spec.seats {
            _ if analysis => vec![Seat::Human; colours],
            Some(s) if s.len() == colours => s.clone(),
            Some(s) => {
                return Err(format!(
                    "{} has {colours} colours, so 'seats' needs {colours} entries, not {}",
                    variant.name(),
                    s.len()
                ));
            }
            None => (0..colours)
                .map(|c| {
                    if Colour(c as u8).team() == 0 {
                        Seat::Human
                    } else {
                        Seat::Engine
                    }
                })
                .collect(),
        };
        let options = self.engine_options(&spec.engine_options)?;
        let plays = seats.contains(&Seat::Engine);
        if plays && self.engine_view.is_none() {
            return Err("the engine is not available, so it cannot play a seat".into());
        }
        // The engine plays a seat, or is there to analyse on an analysis board.
        let has_engine = plays || (analysis && self.engine_view.is_some());
        let clock = if analysis { None } else { spec.clock };
        let limits = limits_for(&seats, clock, spec.engine_limit);
        let referee = replay(variant, &opening.1, &limits, &opening.2)?;
        self.interrupt_engine();
        let engine_name = self
            .engine_view
            .as_ref()
            .map_or("engine".to_string(), |e| e.name.clone())
            + &strength_label(&options, self.engine_view.as_ref().map(|e| &e.options[..]));
        self.games += 1;
        let mut g = GameState {
            id: self.games,
            variant,
            cells: describe::cell_count(variant),
            names: seats
                .iter()
                .map(|s| match s {
                    Seat::Human => "Human".to_string(),
                    Seat::Engine => engine_name.clone(),
                })
                .collect(),
            seats,
            timed: clock.is_some(),
            referee,
            started: SystemTime::now(),
            turn_start: Instant::now(),
            ending: None,
            draw_offer: None,
            thinking: None,
            engine_pending: has_engine,
            mode: spec.mode,
            // An analysis board goes on analysing in its next game.
            analyse: has_engine
                && spec.mode == Mode::Analysis
                && self
                    .game
                    .as_ref()
                    .is_some_and(|g| g.mode == Mode::Analysis && g.analyse),
            multipv: self.game.as_ref().map_or(DEFAULT_MULTIPV, |g| g.multipv),
            start_fen: opening.1,
            limits,
            loaded: Vec::new(),
        };
        g.ending = g.referee.outcome();
        self.game = Some(g);
        if has_engine {
            self.engine.send(Request::NewGame {
                game: self.games,
                variant,
                options,
            });
        }
        self.push_state();
        Ok(())
    }

    /// The strength options to set: those asked for, checked against the engine's
    /// declarations, and the others back at their defaults.
    fn engine_options(
        &self,
        asked: &[(String, String)],
    ) -> Result<Vec<(String, Option<String>)>, String> {
        let declared = self
            .engine_view
            .as_ref()
            .map_or(&[][..], |e| e.options.as_slice());
        strength_options(declared, asked)
    }

    /// The engine is ready for game `game` (or cannot play it). A report for an earlier
    /// game (a new game was started before the engine was ready) is not about this one.
    fn engine_ready(&mut self, game: u64, result: Result<(), String>) {
        let Some(g) = self.game.as_mut().filter(|g| g.id == game) else {
            return;
        };
        g.engine_pending = false;
        if let Err(e) = result {
            self.outbox.push(ServerMessage::EngineStatus {
                message: format!("The engine cannot play this game: {e}"),
            });
            self.game = None;
            return;
        }
        g.turn_start = Instant::now();
        self.maybe_think();
        self.push_state();
    }

    /// Starts the engine's search if an engine seat is to move.
    fn maybe_think(&mut self) {
        let Some(g) = self.game.as_mut() else {
            return;
        };
        let c = g.referee.to_move();
        if g.mode == Mode::Analysis {
            if g.running() && g.analyse && g.thinking.is_none() && !g.engine_pending {
                self.thinks += 1;
                g.thinking = Some(self.thinks);
                self.engine.send(Request::Think {
                    id: self.thinks,
                    position: g.referee.position_command(),
                    go: "go infinite".into(),
                    wait: ANALYSIS_WAIT,
                    multipv: g.multipv,
                });
            }
            return;
        }
        if !g.running() || g.seat(c) != Seat::Engine || g.thinking.is_some() || g.engine_pending {
            return;
        }
        self.thinks += 1;
        let id = self.thinks;
        g.thinking = Some(id);
        g.turn_start = Instant::now();
        let wait = g
            .referee
            .time_allowed_ms(ENGINE_MARGIN_MS)
            .map_or(STALL, Duration::from_millis);
        self.engine.send(Request::Think {
            id,
            position: g.referee.position_command(),
            go: g.referee.go_command(),
            wait,
            multipv: 1,
        });
    }

    /// Starts or stops the analysis (analysis mode), with `multipv` lines.
    fn analyse(&mut self, on: bool, multipv: Option<usize>) -> Result<(), String> {
        if let Some(n) = multipv
            && !(1..=MAX_MULTIPV).contains(&n)
        {
            return Err(format!("multipv must be 1 to {MAX_MULTIPV}, not {n}"));
        }
        let available = self.engine_view.is_some();
        let g = self.game_mut()?;
        if g.mode != Mode::Analysis {
            return Err("analysis needs a game in analysis mode".into());
        }
        if on && !available {
            return Err("the engine is not available, so it cannot analyse".into());
        }
        let restart = g.analyse != on || multipv.is_some_and(|n| n != g.multipv);
        g.analyse = on;
        g.multipv = multipv.unwrap_or(g.multipv);
        if restart {
            self.interrupt_engine();
            self.maybe_think();
        }
        self.push_state();
        Ok(())
    }

    /// Reads every game of `text` and lists them.
    fn load_pgn(&mut self, text: &str) -> Result<(), String> {
        // Read no further than one game past the bound: a text of millions of empty games
        // costs no more than one of MAX_PGN_GAMES.
        let games = pgn::read_games_at_most(text, MAX_PGN_GAMES);
        if games.is_empty() {
            return Err("the PGN holds no game".into());
        }
        if games.len() > MAX_PGN_GAMES {
            return Err(format!(
                "the PGN holds more than {MAX_PGN_GAMES} games, the most opened at once"
            ));
        }
        let mut summaries = Vec::with_capacity(games.len());
        let mut library = Vec::with_capacity(games.len());
        for (index, g) in games.into_iter().enumerate() {
            let error = bounds::pgn_game(&g)
                .and_then(|_| g.replay().map(|_| ()))
                .err();
            summaries.push(GameSummary {
                index,
                variant: g.variant().map_or_else(
                    |_| escape(g.tag("Variant").unwrap_or("?")).to_string(),
                    |v| v.name().to_string(),
                ),
                players: ["White", "Black", "Gold", "Silver"]
                    .iter()
                    .filter_map(|c| g.tag(c).map(|p| escape(p).to_string()))
                    .collect(),
                result: g
                    .result
                    .clone()
                    .or(g.tag("Result").map(str::to_string))
                    .unwrap_or("*".into()),
                termination: termination_of(&g),
                plies: g.moves.len(),
                error: error.clone(),
            });
            library.push(match error {
                None => Ok(g),
                Some(e) => Err(e),
            });
        }
        self.library = library;
        self.outbox.push(ServerMessage::Games { games: summaries });
        Ok(())
    }

    /// The position editor's position: `fen` with `pieces` put in place of its own, read
    /// back by the rules layer's FEN reader (whose error is the answer otherwise).
    fn compose(
        &mut self,
        variant: &str,
        fen: &str,
        pieces: Option<&[(u16, u8, u8)]>,
    ) -> Result<(), String> {
        let v = variant_named(variant)?;
        bounds::text("the FEN", fen, MAX_FEN)?;
        let base = AnyGame::from_fen(v, fen)?;
        let cells = describe::cell_count(v);
        if let Some(p) = pieces
            && p.len() > cells
        {
            return Err(format!(
                "{} pieces given, but {} has only {cells} cells",
                p.len(),
                v.name()
            ));
        }
        let kinds = v.info().pieces.len();
        if let Some(&(cell, colour, kind)) = pieces
            .into_iter()
            .flatten()
            .find(|&&(_, c, k)| c as usize >= v.colours() || k as usize >= kinds)
        {
            return Err(format!(
                "{} has no piece of colour {colour} and kind {kind} (for cell {cell})",
                v.name()
            ));
        }
        let fen = match pieces {
            None => base.fen(),
            Some(p) => base.with_placement(
                &p.iter()
                    .map(|&(cell, colour, kind)| (cell as usize, Piece::new(kind, Colour(colour))))
                    .collect::<Vec<_>>(),
            )?,
        };
        let game = AnyGame::from_fen(v, &fen)?;
        self.outbox.push(ServerMessage::Composed {
            pieces: describe::pieces(&game, cells),
            hands: describe::hands(&game, v.colours()),
            to_move: game.side_to_move().0,
            fen,
        });
        Ok(())
    }

    /// Where a piece goes from a cell of an empty board (`piece_targets`), whatever the
    /// game: the game does not change.
    fn piece_moves(
        &mut self,
        variant: &str,
        kind: u8,
        colour: u8,
        cell: u16,
    ) -> Result<(), String> {
        let v = variant_named(variant)?;
        bounds::piece(v, kind, colour, cell)?;
        let m = super::piece_moves::piece_moves(v, kind, Colour(colour), cell as usize)?;
        self.outbox
            .push(ServerMessage::PieceTargets(Box::new(PieceTargets {
                variant: v.name().to_string(),
                kind,
                colour,
                cell,
                fen: m.fen,
                pieces: m.pieces,
                moves: m.moves,
                captures: m.captures,
                shots: m.shots,
                kings: m.kings,
                note: m.note,
            })));
        Ok(())
    }

    /// Shows game `index` of the library as an analysis board on its last position.
    fn view_game(&mut self, index: usize) -> Result<(), String> {
        let game = self
            .library
            .get(index)
            .ok_or_else(|| {
                format!(
                    "there is no game {index} (the PGN has {})",
                    self.library.len()
                )
            })?
            .clone()
            .map_err(|e| format!("game {index} of the PGN cannot be shown: {e}"))?;
        // The moves in protocol notation, whichever the file used: the referee and the
        // page's tree hold them so.
        let (_, moves) = game.replay_moves()?;
        self.new_game(NewGame {
            variant: game.variant()?.name().to_string(),
            fen: game.tag("FEN").map(str::to_string),
            moves: moves.clone(),
            mode: Mode::Analysis,
            ..NewGame::default()
        })?;
        if let Some(g) = self.game.as_mut() {
            // The players as the PGN names them.
            let names: Vec<String> = ["White", "Black", "Gold", "Silver"]
                .iter()
                .filter_map(|c| game.tag(c).map(str::to_string))
                .collect();
            if names.len() == g.names.len() {
                g.names = names;
            }
            g.loaded = moves.into_iter().zip(game.move_comments).collect();
        }
        // One state, with the comments.
        self.outbox
            .retain(|m| !matches!(m, ServerMessage::State(_)));
        self.push_state();
        Ok(())
    }

    /// Sets the game's moves from its start to `moves` (analysis mode).
    fn set_line(&mut self, moves: &[String]) -> Result<(), String> {
        let g = self.game_mut()?;
        if g.mode != Mode::Analysis {
            return Err("only an analysis board sets its moves freely".into());
        }
        bounds::moves(moves)?;
        let referee = replay(g.variant, &g.start_fen, &g.limits, moves)?;
        g.referee = referee;
        g.ending = g.referee.outcome();
        self.interrupt_engine();
        self.maybe_think();
        self.push_state();
        Ok(())
    }

    fn engine_answer(&mut self, id: u64, answer: crate::runner::player::Answer) {
        let Some(g) = self.game.as_mut() else {
            return;
        };
        if g.thinking != Some(id) {
            return; // interrupted: a take-back, a new game, a resignation
        }
        g.thinking = None;
        if g.mode == Mode::Analysis {
            // An analysis ends only when stopped; one that ends otherwise (the engine
            // died, or gave up) is reported, and the board stays as it is.
            if !matches!(answer.reply, Reply::Move(_)) {
                g.analyse = false;
                self.outbox.push(ServerMessage::EngineStatus {
                    message: "The engine stopped analysing; it will be started again.".into(),
                });
                self.push_state();
            }
            return;
        }
        let c = g.referee.to_move();
        let elapsed = answer.elapsed.as_millis() as u64;
        let ended = match answer.reply {
            Reply::Move(name) => {
                let charged = if g.clock_runs(c) {
                    g.referee.charge_time(elapsed, ENGINE_MARGIN_MS)
                } else {
                    Ok(())
                };
                let played = charged.and_then(|_| g.referee.play(&name, answer.info, elapsed));
                match played {
                    Ok(()) => {
                        g.draw_offer = None;
                        g.referee.outcome()
                    }
                    Err(end) => Some(end),
                }
            }
            Reply::Timeout if g.timed => Some(Ending::loss(
                c,
                Termination::TimeForfeit,
                format!("{} loses on time", c.name()),
            )),
            Reply::Timeout => Some(Ending::loss(
                c,
                Termination::Stalled,
                format!("{}'s engine does not answer", c.name()),
            )),
            Reply::Crashed => {
                self.outbox.push(ServerMessage::EngineStatus {
                    message: "The engine stopped in the middle of the game; it will be \
                              started again for the next game."
                        .into(),
                });
                Some(Ending::loss(
                    c,
                    Termination::Abandoned,
                    format!("{}'s engine stopped", c.name()),
                ))
            }
        };
        let g = self.game.as_mut().expect("the game is still there");
        g.ending = ended;
        g.turn_start = Instant::now();
        self.maybe_think();
        self.push_state();
    }

    fn person_moves(&mut self, text: &str) -> Result<(), String> {
        bounds::text("the move", text, MAX_WORD)?;
        let g = self.game_mut()?;
        if let Some(e) = &g.ending {
            return Err(format!("the game is over: {}", e.reason));
        }
        let c = g.referee.to_move();
        if g.seat(c) != Seat::Human {
            return Err(format!(
                "it is {}'s turn, and the engine plays it",
                c.name()
            ));
        }
        if g.engine_pending {
            return Err("the engine is getting ready; try again in a moment".into());
        }
        let game = g.referee.game();
        let name = match notation::read(game, text) {
            Ok(mv) => game.move_name(mv),
            Err(e) => return Err(refusal(game, g.variant, e)),
        };
        let elapsed = g.turn_start.elapsed().as_millis() as u64;
        let charged = if g.clock_runs(c) {
            g.referee.charge_time(elapsed, 0)
        } else {
            Ok(())
        };
        let played = charged.and_then(|_| g.referee.play(&name, Default::default(), elapsed));
        g.ending = match played {
            Ok(()) => g.referee.outcome(),
            Err(end) => Some(end),
        };
        g.draw_offer = None;
        g.turn_start = Instant::now();
        if g.mode == Mode::Analysis {
            self.interrupt_engine();
        }
        self.maybe_think();
        self.push_state();
        Ok(())
    }

    fn explain(&mut self, from: &str, to: &str) -> Result<(), String> {
        bounds::text("the cell 'from'", from, MAX_WORD)?;
        bounds::text("the cell 'to'", to, MAX_WORD)?;
        let g = self.game_mut()?;
        let cell = |n: &str| {
            cell_named(g.variant, n)
                .ok_or_else(|| format!("{} has no cell '{n}'", g.variant.name()))
        };
        let (f, t) = (cell(from)?, cell(to)?);
        let legal = legal_moves(g.referee.game())
            .iter()
            .any(|m| m.from as usize == f && m.to as usize == t);
        let reason = if legal {
            "it is a legal move".to_string()
        } else {
            g.referee.game().explain_illegal(f, t)
        };
        self.outbox.push(ServerMessage::Explanation {
            from: from.to_string(),
            to: to.to_string(),
            reason,
        });
        Ok(())
    }

    fn take_back(&mut self) -> Result<(), String> {
        self.interrupt_engine();
        let g = self.game_mut()?;
        // The engine's replies, then the person's move before them.
        let mut taken = 0;
        while let Some(m) = g.referee.moves().last()
            && !m.book
            && g.seat(m.colour) == Seat::Engine
            && g.seats.contains(&Seat::Human)
        {
            g.referee.take_back();
            taken += 1;
        }
        if g.referee.take_back().is_some() {
            taken += 1;
        }
        if taken == 0 {
            return Err("there is no move to take back".into());
        }
        g.ending = None;
        g.draw_offer = None;
        g.turn_start = Instant::now();
        self.maybe_think();
        self.push_state();
        Ok(())
    }

    /// The colour a person resigns or offers a draw for: the colour to move if a person
    /// plays it, else the first colour a person plays.
    fn persons_colour(g: &GameState) -> Option<Colour> {
        let c = g.referee.to_move();
        if g.seat(c) == Seat::Human {
            return Some(c);
        }
        (0..g.seats.len())
            .find(|&i| g.seats[i] == Seat::Human)
            .map(|i| Colour(i as u8))
    }

    fn resign(&mut self) -> Result<(), String> {
        let g = self.game_mut()?;
        if !g.running() {
            return Err("the game is over".into());
        }
        let c = Self::persons_colour(g).ok_or("no person plays in this game")?;
        let colours = g.variant.colours();
        let team = c.team();
        g.ending = Some(Ending {
            result: GameResult::Win(1 - team),
            termination: Termination::Resignation,
            reason: format!("{} resigns", team_name(colours, team)),
        });
        self.interrupt_engine();
        self.push_state();
        Ok(())
    }

    fn offer_draw(&mut self) -> Result<(), String> {
        let g = self.game_mut()?;
        if !g.running() {
            return Err("the game is over".into());
        }
        let c = Self::persons_colour(g).ok_or("no person plays in this game")?;
        let opponents_engine = (0..g.seats.len())
            .any(|i| Colour(i as u8).team() != c.team() && g.seats[i] == Seat::Engine);
        if !opponents_engine {
            g.draw_offer = Some(c);
            self.push_state();
            return Ok(());
        }
        // The engine accepts when its last score says it is not better.
        let engine_score = g
            .referee
            .moves()
            .iter()
            .rev()
            .find(|m| g.seat(m.colour) == Seat::Engine && !m.book)
            .and_then(|m| m.info.score)
            .map(|s| s.centipawns());
        if engine_score.is_some_and(|s| s <= DRAW_ACCEPT_CP) {
            g.ending = Some(Ending {
                result: GameResult::Draw,
                termination: Termination::Agreement,
                reason: "Draw by agreement".into(),
            });
            self.interrupt_engine();
            self.push_state();
        } else {
            self.outbox.push(ServerMessage::EngineStatus {
                message: "The engine declines the draw.".into(),
            });
        }
        Ok(())
    }

    fn answer_draw(&mut self, accept: bool) -> Result<(), String> {
        let g = self.game_mut()?;
        let Some(by) = g.draw_offer.take() else {
            return Err("there is no draw offer to answer".into());
        };
        if accept && g.running() {
            g.ending = Some(Ending {
                result: GameResult::Draw,
                termination: Termination::Agreement,
                reason: format!("Draw by agreement ({} offered it)", by.name()),
            });
        }
        self.push_state();
        Ok(())
    }

    fn pgn(&mut self) -> Result<(), String> {
        let g = self.game_mut()?;
        let record = g.referee.record(
            g.ending.as_ref(),
            RecordIds {
                id: g.id,
                round: g.id as usize,
                seats: (0..g.seats.len()).collect(),
                names: g.names.clone(),
                started: g.started,
            },
        );
        let message = ServerMessage::Pgn {
            pgn: pgn::write_game(&record, "strata gui"),
            fen: g.referee.game().fen(),
        };
        self.outbox.push(message);
        Ok(())
    }

    /// The position after `ply` moves.
    fn show(&mut self, ply: usize) -> Result<(), String> {
        let g = self.game_mut()?;
        let moves = g.referee.moves();
        if ply > moves.len() {
            return Err(format!("the game has {} moves, not {ply}", moves.len()));
        }
        let mut game = g.referee.game().clone();
        for _ in ply..moves.len() {
            game.unmake();
        }
        let last = ply
            .checked_sub(1)
            .and_then(|i| last_move(g.variant, &moves[i].name, &game, g.cells));
        let view = PositionView {
            ply,
            fen: game.fen(),
            pieces: describe::pieces(&game, g.cells),
            hands: describe::hands(&game, g.seats.len()),
            last,
            danger: game.kings_in_danger().iter().map(|&c| c as u16).collect(),
        };
        self.outbox.push(ServerMessage::Position(Box::new(view)));
        Ok(())
    }

    /// Queues the game's state.
    fn push_state(&mut self) {
        if let Some(g) = &self.game {
            self.outbox
                .push(ServerMessage::State(Box::new(state_of(g))));
        }
    }
}

/// Why the move a person typed is refused, in words: what notation is expected (with
/// examples from the position) when it cannot be read, why the rules refuse it, or which
/// moves it could be.
fn refusal(game: &AnyGame, v: Variant, e: MoveError) -> String {
    let how = || match notation::examples(game) {
        ex if ex.is_empty() => String::new(),
        ex => format!(": type a move as {ex}"),
    };
    match e {
        MoveError::Malformed(s) => format!("unparsable move '{s}'{}", how()),
        MoveError::Illegal(s) => {
            let meant = move_cells(v, &s)
                .map(|(f, t)| (vec![f], t))
                .or_else(|| notation::meant(game, &s));
            match meant {
                // One piece it can be: why that piece cannot go there.
                Some((from, t)) if from.len() == 1 => {
                    format!("illegal move {s}: {}", game.explain_illegal(from[0], t))
                }
                // A few: why each cannot.
                Some((from, t)) if (2..=3).contains(&from.len()) => {
                    let why: Vec<String> =
                        from.iter().map(|&f| game.explain_illegal(f, t)).collect();
                    format!("illegal move {s}: {}", why.join("; "))
                }
                Some((from, t)) if from.is_empty() => format!(
                    "illegal move {s}: {} has no piece that fits '{}' and could move to {}{}",
                    game.side_to_move().name(),
                    s.trim(),
                    game.cell_name(t),
                    how()
                ),
                _ => format!(
                    "illegal move {s}: no legal move here is written so{}",
                    how()
                ),
            }
        }
        e @ MoveError::Ambiguous(..) => e.to_string(),
    }
}

/// The variant, start FEN and moves a new game asks for (from a PGN, or given directly).
/// Every string of it is checked first: the FEN and the moves given, or the PGN's tags and
/// moves.
fn start_of(spec: &NewGame) -> Result<(Variant, Option<String>, Vec<String>), String> {
    // Checked even where a PGN makes them unused: no field goes unchecked.
    bounds::text("the variant's name", &spec.variant, MAX_WORD)?;
    if let Some(f) = &spec.fen {
        bounds::text("the FEN", f, MAX_FEN)?;
    }
    bounds::moves(&spec.moves)?;
    let Some(text) = &spec.pgn else {
        let variant = variant_named(&spec.variant)?;
        if let Some(f) = &spec.fen {
            AnyGame::from_fen(variant, f).map_err(|e| format!("fen: {e}"))?;
        }
        return Ok((variant, spec.fen.clone(), spec.moves.clone()));
    };
    let games = pgn::read_games_at_most(text, 1);
    let game = games.first().ok_or("the PGN holds no game")?;
    bounds::pgn_game(game).map_err(|e| format!("pgn: {e}"))?;
    let variant = game.variant()?;
    let (_, moves) = game.replay_moves().map_err(|e| format!("pgn: {e}"))?;
    Ok((variant, game.tag("FEN").map(str::to_string), moves))
}

/// Each colour's limits: the clock for everybody, or no limit for persons and the engine's
/// fixed limit for the engine.
/// (Both are checked against their bounds before.)
fn limits_for(
    seats: &[Seat],
    clock: Option<ClockSpec>,
    engine: Option<EngineLimit>,
) -> Vec<Limits> {
    let fixed = engine.unwrap_or(EngineLimit {
        nodes: Some(DEFAULT_ENGINE_NODES),
        ..EngineLimit::default()
    });
    seats
        .iter()
        .map(|s| match (clock, s) {
            (Some(c), _) => Limits {
                tc: Some(TimeControl {
                    moves: None,
                    base_ms: c.base_ms,
                    inc_ms: c.inc_ms,
                }),
                ..Limits::default()
            },
            (None, Seat::Human) => Limits::default(),
            (None, Seat::Engine) => Limits {
                nodes: fixed.nodes,
                depth: fixed.depth,
                movetime_ms: fixed.movetime_ms,
                ..Limits::default()
            },
        })
        .collect()
}

/// The variant of protocol name `name`.
fn variant_named(name: &str) -> Result<Variant, String> {
    bounds::text("the variant's name", name, MAX_WORD)?;
    Variant::from_name(name).ok_or_else(|| format!("unknown variant '{name}'"))
}

/// The cells of `name`, the move that led to `after`, and the cells it emptied besides its
/// own from-cell.
fn last_move(v: Variant, name: &str, after: &AnyGame, cells: usize) -> Option<LastMove> {
    let (from, to) = move_cells(v, name)?;
    let mut position_before = after.clone();
    position_before.unmake();
    let before = describe::occupied(&position_before, cells);
    let now = describe::occupied(after, cells);
    let removed = before
        .iter()
        .filter(|c| !now.contains(c) && (**c != from || name.contains('*')))
        .map(|&c| c as u16)
        .collect();
    Some(LastMove {
        from: from as u16,
        to: to as u16,
        removed,
    })
}

fn state_of(g: &GameState) -> State {
    let game = g.referee.game();
    let to_move = g.referee.to_move();
    let mover_is_person = g.seat(to_move) == Seat::Human && !g.engine_pending;
    let clocks = g.timed.then(|| {
        (0..g.seats.len())
            .map(|c| {
                let ms = g.referee.clock_ms(Colour(c as u8));
                // The colour to move has used some of it already.
                if g.clock_runs(to_move) && c == to_move.idx() {
                    ms - g.turn_start.elapsed().as_millis() as i64
                } else {
                    ms
                }
            })
            .collect()
    });
    State {
        game: g.id,
        variant: g.variant.name(),
        fen: game.fen(),
        to_move: to_move.0,
        seats: g.seats.clone(),
        names: g.names.clone(),
        pieces: describe::pieces(game, g.cells),
        hands: describe::hands(game, g.seats.len()),
        notes: game.notes(),
        legal: if g.running() && mover_is_person {
            legal_moves(game)
        } else {
            Vec::new()
        },
        move_examples: if g.running() && mover_is_person {
            notation::examples(game)
        } else {
            String::new()
        },
        moves: g
            .referee
            .moves()
            .iter()
            .enumerate()
            .map(|(i, m)| MoveView {
                ply: i + 1,
                mv: m.name.clone(),
                san: m.san.clone(),
                colour: m.colour.0,
                number: m.number,
                comment: m
                    .info
                    .score
                    .map(|s| match m.info.depth {
                        Some(d) => format!("{}/{d}", s.pgn()),
                        None => s.pgn(),
                    })
                    .or_else(|| loaded_comment(g, i)),
            })
            .collect(),
        last: g
            .referee
            .moves()
            .last()
            .and_then(|m| last_move(g.variant, &m.name, game, g.cells)),
        danger: game.kings_in_danger().iter().map(|&c| c as u16).collect(),
        clocks,
        clock_running: g.clock_runs(to_move).then_some(to_move.0),
        thinking: g.thinking.is_some(),
        draw_offer: g.draw_offer.map(|c| c.0),
        result: g.ending.as_ref().map(|e| ResultView {
            result: e.result.pgn(),
            reason: e.reason.clone(),
            termination: e.termination.pgn(),
        }),
        mode: g.mode,
        multipv: g.multipv,
    }
}

/// The opened PGN's comment of ply `i` (from 0), while the moves so far follow that game.
fn loaded_comment(g: &GameState, i: usize) -> Option<String> {
    let moves = g.referee.moves();
    let follows = g.loaded.len() > i
        && moves[..=i]
            .iter()
            .zip(&g.loaded)
            .all(|(m, (name, _))| &m.name == name);
    follows
        .then(|| g.loaded[i].1.clone())
        .filter(|c| !c.is_empty())
}

/// How a PGN game ended, in words: its `Termination` tag and the referee's reason (the
/// comment after the last move's own).
fn termination_of(g: &crate::runner::pgn::PgnGame) -> String {
    let own = g.move_comments.iter().filter(|c| !c.is_empty()).count();
    let reason = g.comments.last().filter(|_| g.comments.len() > own);
    [g.tag("Termination"), reason.map(String::as_str)]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(": ")
}

/// A referee for `variant` from `fen` (or the start) after `moves`, each checked: the first
/// bad one is refused with its number.
fn replay(
    variant: Variant,
    fen: &Option<String>,
    limits: &[Limits],
    moves: &[String],
) -> Result<Referee, String> {
    let mut referee = Referee::new(
        variant,
        false,
        &Opening {
            fen: fen.clone(),
            moves: Vec::new(),
        },
        limits.to_vec(),
    )?;
    for (i, m) in moves.iter().enumerate() {
        // Readable or protocol notation; the referee is given the protocol name.
        let m = match notation::read(referee.game(), m) {
            Ok(mv) => referee.game().move_name(mv),
            Err(e) => return Err(format!("move {} of {}: {e}", i + 1, moves.len())),
        };
        referee
            .play(&m, Default::default(), 0)
            .map_err(|e| format!("move {} of {}: {}", i + 1, moves.len(), e.reason))?;
    }
    Ok(referee)
}
