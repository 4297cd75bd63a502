//! The protocol state machine: the selected variant, the current position and the options,
//! changed only by commands that are valid as a whole.

use std::sync::Arc;
use std::time::Instant;

use super::command::{Command, GoParams, StartPos, truncate};
use super::options::{OptionDecl, OptionValue, declarations};
use super::output::Output;
use crate::rules::perft::divide;
use crate::rules::{AnyGame, Game, Variant};
use crate::with_game;

/// The engine as the protocol sees it.
pub struct Engine {
    out: Arc<dyn Output>,
    variant: Variant,
    game: AnyGame,
    options: Vec<OptionDecl>,
}

impl Engine {
    /// A fresh engine playing chess from the start position.
    pub fn new(out: Arc<dyn Output>) -> Self {
        Engine {
            out,
            variant: Variant::Chess,
            game: AnyGame::startpos(Variant::Chess).expect("chess is implemented"),
            options: declarations(),
        }
    }

    /// The current position.
    pub fn game(&self) -> &AnyGame {
        &self.game
    }

    fn error(&self, msg: &str) {
        self.out.line(&format!("info string error: {msg}"));
    }

    /// Handles one input line. Returns `false` when the engine should exit.
    pub fn handle_line(&mut self, line: &str) -> bool {
        if line.trim().is_empty() {
            return true;
        }
        match line.parse::<Command>() {
            Ok(cmd) => self.handle(cmd),
            Err(e) => {
                self.error(&e);
                true
            }
        }
    }

    /// Executes a command. Returns `false` when the engine should exit.
    pub fn handle(&mut self, cmd: Command) -> bool {
        match cmd {
            Command::Uci => {
                self.out
                    .line(&format!("id name strata {}", env!("CARGO_PKG_VERSION")));
                self.out.line("id author the strata developers");
                for o in &self.options {
                    self.out.line(&o.uci_line());
                }
                self.out.line("uciok");
            }
            Command::IsReady => self.out.line("readyok"),
            Command::UciNewGame => {}
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Position { start, moves } => self.set_position(start, &moves),
            Command::Go(params) => self.go(params),
            Command::Stop | Command::PonderHit => {}
            Command::Display => {
                for l in self.game.drawing().lines() {
                    self.out.line(l);
                }
            }
            Command::Eval => self.error("eval is not available yet"),
            Command::Bench { .. } => self.error("bench is not available yet"),
            Command::Quit => return false,
        }
        true
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let Some(decl) = self
            .options
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(name))
        else {
            self.error(&format!("unknown option '{}'", truncate(name, 40)));
            return;
        };
        let checked = match decl.check(value) {
            Ok(v) => v,
            Err(e) => return self.error(&e),
        };
        match (decl.name, checked) {
            ("UCI_Variant", OptionValue::Text(v)) => {
                let variant = Variant::from_name(&v).expect("combo values are variant names");
                match AnyGame::startpos(variant) {
                    Ok(g) => {
                        self.variant = variant;
                        self.game = g;
                    }
                    Err(e) => self.error(&e),
                }
            }
            (other, _) => self.error(&format!("option '{other}' cannot be set")),
        }
    }

    fn set_position(&mut self, start: StartPos, moves: &[String]) {
        let from = match &start {
            StartPos::Startpos => AnyGame::startpos(self.variant),
            StartPos::Fen(fen) => AnyGame::from_fen(self.variant, fen),
        };
        let mut game = match from {
            Ok(g) => g,
            Err(e) => {
                return self.error(&format!("position: {e}; position unchanged"));
            }
        };
        for (i, m) in moves.iter().enumerate() {
            match game.parse_move(m) {
                Ok(mv) => game.make(mv),
                Err(e) => {
                    return self.error(&format!(
                        "position: {} (move {} of {}); position unchanged",
                        truncate(&e.to_string(), 60),
                        i + 1,
                        moves.len()
                    ));
                }
            }
        }
        self.game = game;
    }

    fn go(&mut self, params: GoParams) {
        if let Some(depth) = params.perft {
            let start = Instant::now();
            let rows = if depth == 0 {
                Vec::new()
            } else {
                with_game!(&mut self.game, g => divide(g, depth))
            };
            let total: u64 = rows.iter().map(|(_, n)| n).sum();
            for (name, n) in &rows {
                self.out.line(&format!("{name}: {n}"));
            }
            self.out.line("");
            self.out.line(&format!(
                "Nodes searched: {}",
                if depth == 0 { 1 } else { total }
            ));
            tracing::info!(
                depth,
                total,
                elapsed_ms = start.elapsed().as_millis() as u64,
                "perft"
            );
            return;
        }
        self.error("go: searching is not available yet (only 'go perft N')");
    }
}
