//! The JSON messages between the page and the server, one WebSocket per game session.
//! `docs/gui.md` describes them for anyone writing another front-end; the field names here
//! are that document's.

use serde::{Deserialize, Serialize};

/// A message from the page.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMessage {
    /// Start a new game (ending the current one).
    NewGame(NewGame),
    /// The colour to move, played by a person, plays this move (in either notation).
    Move {
        /// The move, in protocol notation (`e2e4`, `Cc3Cc5`, `O@e4`, `Ca1*Ca4`, `0000`) or in
        /// readable notation (`Nf3`, `NCc5`, `O-O`, `Z*Ca4`, `--`).
        #[serde(rename = "move")]
        mv: String,
    },
    /// Why may the piece on `from` not go to `to`? (`from == to`: a drop.)
    Explain {
        /// A cell name.
        from: String,
        /// A cell name.
        to: String,
    },
    /// Take back the last move of a person (and the engine's replies after it).
    Takeback,
    /// The person to move (or the only person) resigns for their team.
    Resign,
    /// The person to move offers a draw.
    DrawOffer,
    /// The person to move answers a draw offer.
    DrawAnswer {
        /// Accept or decline.
        accept: bool,
    },
    /// Ask for the game as PGN (and the position as FEN).
    GetPgn,
    /// Ask for the position after `ply` moves of the game (0: its start), to look back.
    Show {
        /// The number of moves played.
        ply: usize,
    },
    /// Start (`on`) or stop the engine's analysis of the position (analysis mode), with
    /// `multipv` lines (1 to [`MAX_MULTIPV`]; default: as before, at first 3).
    Analyse {
        /// Analyse or not.
        on: bool,
        /// The number of lines.
        #[serde(default)]
        multipv: Option<usize>,
    },
    /// Set the game's moves (analysis mode): the line from the game's start to the move the
    /// page shows, from its tree of variations. Every move is checked; a bad one changes
    /// nothing.
    Line {
        /// The moves from the start, protocol (or readable) notation.
        moves: Vec<String>,
    },
    /// Open a PGN text of any number of games (as `strata match` writes them, any variant):
    /// answered with `games`, the list.
    LoadPgn {
        /// The PGN text.
        pgn: String,
    },
    /// The position editor: the position of `variant` with FEN `fen` (its side to move,
    /// hands, castling and counters), with its pieces replaced by `pieces` when given;
    /// answered with `composed`, or with the FEN reader's error.
    Compose {
        /// The variant's protocol name.
        variant: String,
        /// The position whose state is kept.
        fen: String,
        /// The pieces: (cell, colour, kind); none: those of `fen`.
        #[serde(default)]
        pieces: Option<Vec<(u16, u8, u8)>>,
    },
    /// Show game `index` of the PGN opened last, as an analysis board on its last
    /// position, its moves with their comments.
    ViewGame {
        /// From 0.
        index: usize,
    },
    /// How does a piece move: where a `colour` piece of `kind` goes from `cell` of an
    /// otherwise empty board of `variant` (with the Kings the rules need standing aside);
    /// answered with `piece_targets`. The game does not change.
    PieceMoves {
        /// The variant's protocol name.
        variant: String,
        /// The piece kind (an index into the variant's `pieces`).
        kind: u8,
        /// Its colour (0 White, 1 Black, 2 Gold, 3 Silver).
        colour: u8,
        /// The cell it stands on (a cell number of the variant).
        cell: u16,
    },
}

/// The most lines analysis shows.
pub const MAX_MULTIPV: usize = 5;

/// What a session is for.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// A game against the engine (or between people, or engines).
    #[default]
    Play,
    /// An analysis board: people move every colour, the engine analyses the position, the
    /// page keeps variations.
    Analysis,
}

/// Who sits in a seat.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Seat {
    /// A person at this page.
    Human,
    /// The engine.
    Engine,
}

/// The settings of a new game.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// The variant's protocol name.
    pub variant: String,
    /// Who plays each colour, in colour order (2 or 4 seats). Default: a person plays White
    /// (White and Gold in the four-colour game), the engine the others.
    #[serde(default)]
    pub seats: Option<Vec<Seat>>,
    /// Start from this FEN instead of the start position.
    #[serde(default)]
    pub fen: Option<String>,
    /// Moves played from the start before the game goes on (protocol or readable notation).
    #[serde(default)]
    pub moves: Vec<String>,
    /// Start from the end of this PGN's first game (its Variant, FEN and moves).
    #[serde(default)]
    pub pgn: Option<String>,
    /// A clock for every colour; none means untimed persons and the engine's fixed limit.
    #[serde(default)]
    pub clock: Option<ClockSpec>,
    /// The engine's limit per move when there is no clock (default: 100000 nodes).
    #[serde(default)]
    pub engine_limit: Option<EngineLimit>,
    /// Engine options to set for this game: only the strength options (`UCI_LimitStrength`,
    /// `UCI_Elo`, `Skill Level`) the engine declares. Those not given are set back to their
    /// defaults.
    #[serde(default)]
    pub engine_options: Vec<(String, String)>,
    /// Play (default) or analysis: in analysis people move every colour (`seats` and the
    /// clock are ignored) and the engine analyses when asked.
    #[serde(default)]
    pub mode: Mode,
}

/// A clock: base time and increment per move.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ClockSpec {
    /// Time per game in ms.
    pub base_ms: u64,
    /// Increment per move in ms.
    #[serde(default)]
    pub inc_ms: u64,
}

/// The engine's fixed limit per move (any combination).
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct EngineLimit {
    /// Nodes per move.
    #[serde(default)]
    pub nodes: Option<u64>,
    /// Depth per move.
    #[serde(default)]
    pub depth: Option<u32>,
    /// Time per move in ms.
    #[serde(default)]
    pub movetime_ms: Option<u64>,
}

/// A message to the page.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    /// First message: the variants (with their boards) and the engine.
    Hello(Box<Hello>),
    /// The game as it stands; sent after every change.
    State(Box<State>),
    /// What the engine says while it thinks.
    Engine(EngineReport),
    /// Why a move is refused.
    Explanation {
        /// The cell names asked about.
        from: String,
        /// See `from`.
        to: String,
        /// The reason, in words.
        reason: String,
    },
    /// The game as PGN, as `strata match` writes it, and the position as FEN.
    Pgn {
        /// PGN text.
        pgn: String,
        /// The current position.
        fen: String,
    },
    /// The position after `ply` moves, asked for with `show`.
    Position(Box<PositionView>),
    /// Something about the engine process (it died, it was restarted, it cannot play a
    /// variant).
    EngineStatus {
        /// In words.
        message: String,
    },
    /// A position the editor composed, as the FEN reader read it.
    Composed {
        /// Its FEN.
        fen: String,
        /// Its pieces: (cell, colour, kind).
        pieces: Vec<(u16, u8, u8)>,
        /// What each colour holds off the board.
        hands: Vec<Vec<(u8, usize)>>,
        /// The colour to move.
        to_move: u8,
    },
    /// The answer to `piece_moves`: where the piece goes from its cell.
    PieceTargets(Box<PieceTargets>),
    /// The games of a PGN opened with `load_pgn`.
    Games {
        /// One per game, in order.
        games: Vec<GameSummary>,
    },
    /// A message that was refused, and why; nothing changed.
    Error {
        /// In words.
        message: String,
    },
}

/// Where a piece goes from a cell of an otherwise empty board (`piece_moves`), by the rules
/// layer's move generation.
#[derive(Clone, Debug, Serialize)]
pub struct PieceTargets {
    /// The variant's protocol name, as asked.
    pub variant: String,
    /// The piece kind, as asked.
    pub kind: u8,
    /// Its colour, as asked.
    pub colour: u8,
    /// Its cell, as asked.
    pub cell: u16,
    /// The position shown: the piece, and the Kings the rules need standing aside.
    pub fen: String,
    /// Its pieces: (cell, colour, kind).
    pub pieces: Vec<(u16, u8, u8)>,
    /// The cells the piece moves to.
    pub moves: Vec<u16>,
    /// The cells it reaches only by capturing (a pawn's diagonals).
    pub captures: Vec<u16>,
    /// The cells it shoots at without moving (Pentaplane's missile pieces).
    pub shots: Vec<u16>,
    /// The Kings' cells.
    pub kings: Vec<u16>,
    /// What else the position assumes, in words (empty if nothing).
    pub note: String,
}

/// A game of an opened PGN, as the list shows it.
#[derive(Clone, Debug, Serialize)]
pub struct GameSummary {
    /// Its number in the file, from 0.
    pub index: usize,
    /// The variant's protocol name (as its `Variant` tag says).
    pub variant: String,
    /// The players by colour (the `White`, `Black`, `Gold`, `Silver` tags present).
    pub players: Vec<String>,
    /// `1-0`, `0-1`, `1/2-1/2`, `*`.
    pub result: String,
    /// The `Termination` tag, and the last comment (the referee's reason), if any.
    pub termination: String,
    /// Moves (plies).
    pub plies: usize,
    /// Why it cannot be shown (a move the rules refuse, an unknown variant), if so.
    pub error: Option<String>,
}

/// The variants and the engine.
#[derive(Clone, Debug, Serialize)]
pub struct Hello {
    /// The server's version.
    pub version: &'static str,
    /// Every variant the rules layer knows.
    pub variants: Vec<VariantView>,
    /// The engine, if it started.
    pub engine: Option<EngineView>,
}

/// A variant as the page draws it.
#[derive(Clone, Debug, Serialize)]
pub struct VariantView {
    /// Protocol name.
    pub name: &'static str,
    /// The name players know it by ("Pole Chess", a variant file's `title`).
    pub title: String,
    /// What is special about it, in one line.
    pub summary: String,
    /// The URL path of its rules page (`/rules/pole.html`), if one is built in.
    pub rules_page: Option<String>,
    /// Whether it was defined in a variant file (its rules dialog is then written from
    /// `source` and its pieces).
    pub from_file: bool,
    /// Where a variant file says its rules come from (none for the built-in variants, whose
    /// pages say it).
    pub source: Option<String>,
    /// Number of colours (2, or 4 in two teams).
    pub colours: usize,
    /// The start position.
    pub start_fen: &'static str,
    /// The levels in letter order.
    pub levels: Vec<LevelView>,
    /// Every cell, by cell number.
    pub cells: Vec<CellView>,
    /// The piece kinds, by kind number.
    pub pieces: Vec<PieceView>,
    /// How the levels lie, in words (empty on a one-level board).
    pub levels_note: String,
    /// Whether level A is the top (and the last level the bottom), as the variant's rules
    /// place it; false when A is the bottom. Each level's `height` says the same per level.
    pub levels_top_down: bool,
}

/// A level: its letter, the files and ranks it covers (from 0) and its height in the stack.
#[derive(Clone, Debug, Serialize)]
pub struct LevelView {
    /// `A`, `B`, ...
    pub letter: char,
    /// First and last file.
    pub files: (i8, i8),
    /// First and last rank.
    pub ranks: (i8, i8),
    /// Its place in the stack from the bottom: 0 for the bottom level, one more for each
    /// level above it (from the rules layer's [`LevelOrder`](crate::rules::variant::LevelOrder)).
    pub height: usize,
}

/// A cell: its name and coordinates.
#[derive(Clone, Debug, Serialize)]
pub struct CellView {
    /// Protocol name (`e4`, `Cc3`).
    pub name: String,
    /// File (0 = a).
    pub x: i8,
    /// Rank (0 = 1).
    pub y: i8,
    /// Level (0 = A).
    pub z: i8,
}

/// A piece kind.
#[derive(Clone, Debug, Serialize)]
pub struct PieceView {
    /// FEN letter.
    pub letter: char,
    /// Name.
    pub name: &'static str,
}

/// The engine as the page offers it.
#[derive(Clone, Debug, Serialize)]
pub struct EngineView {
    /// Its `id name`.
    pub name: String,
    /// Its options, as (name, the declaration after `type `).
    pub options: Vec<(String, String)>,
}

/// The game as it stands.
#[derive(Clone, Debug, Serialize)]
pub struct State {
    /// Game number in this session.
    pub game: u64,
    /// Protocol name.
    pub variant: &'static str,
    /// The position.
    pub fen: String,
    /// The colour to move (0 White, 1 Black, 2 Gold, 3 Silver).
    pub to_move: u8,
    /// Who plays each colour.
    pub seats: Vec<Seat>,
    /// The player names per colour (for the page and the PGN).
    pub names: Vec<String>,
    /// Pieces on the board: (cell, colour, kind).
    pub pieces: Vec<(u16, u8, u8)>,
    /// What each colour holds off the board: (kind, count).
    pub hands: Vec<Vec<(u8, usize)>>,
    /// The state beside the placement, in words.
    pub notes: Vec<String>,
    /// The legal moves (none once the game is over, or while the engine is to move).
    pub legal: Vec<LegalMove>,
    /// A few of the legal moves as a person may type them, readable and in protocol
    /// notation (`Nf3, e4, or g1f3`); empty when there is no person to move.
    pub move_examples: String,
    /// The moves played.
    pub moves: Vec<MoveView>,
    /// The last move, with the cells it emptied (captures, shots, explosions).
    pub last: Option<LastMove>,
    /// Cells of Kings in check or, where Kings are captured, attacked.
    pub danger: Vec<u16>,
    /// Each colour's time left in ms, as of this message (none without clocks).
    pub clocks: Option<Vec<i64>>,
    /// The colour whose clock runs.
    pub clock_running: Option<u8>,
    /// Whether the engine is thinking.
    pub thinking: bool,
    /// The colour that offered a draw, while the offer stands.
    pub draw_offer: Option<u8>,
    /// The result, once the game is over.
    pub result: Option<ResultView>,
    /// Play or analysis.
    pub mode: Mode,
    /// In analysis, the number of lines the engine analyses while it does (`thinking`
    /// then says whether it does).
    pub multipv: usize,
}

/// A position of the game's past.
#[derive(Clone, Debug, Serialize)]
pub struct PositionView {
    /// Moves played to reach it.
    pub ply: usize,
    /// Its FEN.
    pub fen: String,
    /// Pieces: (cell, colour, kind).
    pub pieces: Vec<(u16, u8, u8)>,
    /// What each colour holds off the board.
    pub hands: Vec<Vec<(u8, usize)>>,
    /// The move that led to it.
    pub last: Option<LastMove>,
    /// Kings in danger in it.
    pub danger: Vec<u16>,
}

/// A legal move.
#[derive(Clone, Debug, Serialize)]
pub struct LegalMove {
    /// Protocol notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// From-cell (the target cell for a drop; 0 for a pass).
    pub from: u16,
    /// To-cell.
    pub to: u16,
    /// Promotion or drop kind.
    pub promotion: Option<u8>,
    /// `normal`, `double_step`, `en_passant`, `castle`, `drop`, `shot`, `pass`.
    pub flag: &'static str,
}

/// A move played.
#[derive(Clone, Debug, Serialize)]
pub struct MoveView {
    /// Its number from 1.
    pub ply: usize,
    /// Protocol notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// Readable notation (`Nf3`, `NCc5`: `docs/notation.md`), for the move list.
    pub san: String,
    /// The colour that played it.
    pub colour: u8,
    /// The move number (as in PGN).
    pub number: u32,
    /// The engine's score and depth, if an engine played it: `+0.35/12`.
    pub comment: Option<String>,
}

/// The last move.
#[derive(Clone, Debug, Serialize)]
pub struct LastMove {
    /// From-cell.
    pub from: u16,
    /// To-cell.
    pub to: u16,
    /// Cells that held a piece before the move and are empty after it, other than the
    /// mover's own from-cell: captures, shots and explosions.
    pub removed: Vec<u16>,
}

/// A game's result.
#[derive(Clone, Debug, Serialize)]
pub struct ResultView {
    /// `1-0`, `0-1`, `1/2-1/2`.
    pub result: &'static str,
    /// Why, in words.
    pub reason: String,
    /// The PGN termination.
    pub termination: &'static str,
}

/// A line of the engine's thinking.
#[derive(Clone, Debug, Default, Serialize)]
pub struct EngineReport {
    /// The colour it thinks for.
    pub colour: u8,
    /// Depth.
    pub depth: Option<u32>,
    /// Principal variation number (1 = best).
    pub multipv: Option<u32>,
    /// Score in centipawns for the side to move.
    pub cp: Option<i32>,
    /// Mate in moves (negative: mated).
    pub mate: Option<i32>,
    /// Nodes searched.
    pub nodes: Option<u64>,
    /// The principal variation.
    pub pv: Vec<String>,
    /// The principal variation in readable notation (the server's, from the position the
    /// engine thinks about; moves past one that is not legal there are as in `pv`).
    pub san: Vec<String>,
}

impl EngineReport {
    /// Reads an `info` line (others give `None`).
    pub fn from_info(line: &str, colour: u8) -> Option<EngineReport> {
        let t: Vec<&str> = line.split_whitespace().collect();
        if t.first() != Some(&"info") || t.get(1) == Some(&"string") {
            return None;
        }
        let mut r = EngineReport {
            colour,
            ..EngineReport::default()
        };
        let mut i = 1;
        while i < t.len() {
            let next = t.get(i + 1);
            match t[i] {
                "depth" => r.depth = next.and_then(|v| v.parse().ok()),
                "multipv" => r.multipv = next.and_then(|v| v.parse().ok()),
                "nodes" => r.nodes = next.and_then(|v| v.parse().ok()),
                "score" => {
                    let v = t.get(i + 2).and_then(|v| v.parse().ok());
                    match next {
                        Some(&"cp") => r.cp = v,
                        Some(&"mate") => r.mate = v,
                        _ => {}
                    }
                    i += 1;
                }
                "pv" => {
                    r.pv = t[i + 1..].iter().map(|s| s.to_string()).collect();
                    break;
                }
                _ => {}
            }
            i += 1;
        }
        (r.depth.is_some() || !r.pv.is_empty()).then_some(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_messages_parse_and_bad_ones_do_not() {
        let m: ClientMessage = serde_json::from_str(r#"{"type":"move","move":"e2e4"}"#).unwrap();
        assert_eq!(m, ClientMessage::Move { mv: "e2e4".into() });
        let m: ClientMessage = serde_json::from_str(
            r#"{"type":"new_game","variant":"pole","seats":["engine","human"],"clock":{"base_ms":60000,"inc_ms":1000}}"#,
        )
        .unwrap();
        let ClientMessage::NewGame(g) = m else {
            panic!()
        };
        assert_eq!(g.seats, Some(vec![Seat::Engine, Seat::Human]));
        assert_eq!(g.clock.map(|c| c.inc_ms), Some(1000));
        let m: ClientMessage = serde_json::from_str(
            r#"{"type":"piece_moves","variant":"chess","kind":1,"colour":0,"cell":27}"#,
        )
        .unwrap();
        assert!(matches!(
            m,
            ClientMessage::PieceMoves {
                kind: 1,
                cell: 27,
                ..
            }
        ));
        for bad in [
            r#"{"type":"piece_moves","variant":"chess","kind":1,"colour":0,"cell":-1}"#,
            r#"{"type":"piece_moves","variant":"chess","kind":1,"colour":0}"#,
            r#"{"type":"frobnicate"}"#,
            r#"{"type":"move"}"#,
            r#"{"type":"new_game","variant":"chess","colour":"blue"}"#,
            r#"[1,2,3]"#,
            "not json",
        ] {
            assert!(serde_json::from_str::<ClientMessage>(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn engine_reports_from_info_lines() {
        let r = EngineReport::from_info(
            "info depth 7 seldepth 9 multipv 2 score cp -35 nodes 1234 nps 1 pv e2e4 e7e5",
            1,
        )
        .unwrap();
        assert_eq!(
            (r.depth, r.multipv, r.cp, r.nodes),
            (Some(7), Some(2), Some(-35), Some(1234))
        );
        assert_eq!(r.pv, ["e2e4", "e7e5"]);
        assert_eq!(
            EngineReport::from_info("info depth 3 score mate -2 pv a1a2", 0).map(|r| r.mate),
            Some(Some(-2))
        );
        assert!(EngineReport::from_info("info string hello", 0).is_none());
        assert!(EngineReport::from_info("bestmove e2e4", 0).is_none());
    }
}
