//! What a game leaves behind: its moves as played (with the engines' search information and
//! times), its result and how it ended; the PGN writer, the reports and the GUI read it.
//! Apart from the game loop ([`super::game`]), so that what only reads records does not
//! depend on how games are played.

use std::time::{Duration, SystemTime};

use super::player::SearchInfo;
use super::seats::team_of;
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
