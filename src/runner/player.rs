//! What the referee talks to: a player that is asked for a move and answers with one (or
//! fails to). Engine processes and built-in players both implement [`Player`], so they play
//! through the same referee.

use std::time::Duration;

use crate::rules::AnyGame;

/// A score as an engine reports it, from the point of view of the side that moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineScore {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

impl EngineScore {
    /// Centipawns, with mates as huge values (for adjudication thresholds). The mate
    /// distance counts up to 10 000 moves, so that any number an engine prints keeps the
    /// score's sign.
    pub fn centipawns(self) -> i32 {
        match self {
            EngineScore::Cp(c) => c,
            EngineScore::Mate(m) if m > 0 => 100_000 - m.min(10_000),
            EngineScore::Mate(m) => -100_000 - m.max(-10_000),
        }
    }

    /// As cutechess writes it in PGN comments: `+0.35`, `-1.20`, `+M3`, `-M2`.
    pub fn pgn(self) -> String {
        match self {
            EngineScore::Cp(c) => format!("{:+.2}", c as f64 / 100.0),
            EngineScore::Mate(m) if m > 0 => format!("+M{m}"),
            EngineScore::Mate(m) => format!("-M{}", m.unsigned_abs()),
        }
    }
}

/// What the last `info` lines of a search said.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchInfo {
    /// The score.
    pub score: Option<EngineScore>,
    /// The depth.
    pub depth: Option<u32>,
    /// Nodes searched.
    pub nodes: Option<u64>,
    /// The selective depth.
    pub seldepth: Option<u32>,
}

impl SearchInfo {
    /// Reads the fields of one `info` line into `self` (later lines win; bound-only scores
    /// are kept too, as fastchess does). Only the best line counts: a line of `multipv` 2 or
    /// more is another move's (a weakened engine prints several and may play any of them).
    pub fn update(&mut self, line: &str) {
        let t: Vec<&str> = line.split_whitespace().collect();
        if t.first() != Some(&"info") || t.get(1) == Some(&"string") {
            return;
        }
        let fields = t.iter().take_while(|w| !matches!(**w, "pv" | "string"));
        if let Some(k) = fields.skip_while(|w| **w != "multipv").nth(1)
            && k.parse::<u32>().map_or(true, |k| k > 1)
        {
            return;
        }
        let mut i = 1;
        while i < t.len() {
            match t[i] {
                "depth" => self.depth = t.get(i + 1).and_then(|v| v.parse().ok()).or(self.depth),
                "nodes" => self.nodes = t.get(i + 1).and_then(|v| v.parse().ok()).or(self.nodes),
                "seldepth" => {
                    self.seldepth = t.get(i + 1).and_then(|v| v.parse().ok()).or(self.seldepth)
                }
                "score" => {
                    let v = t.get(i + 2).and_then(|v| v.parse::<i32>().ok());
                    match (t.get(i + 1), v) {
                        (Some(&"cp"), Some(v)) => self.score = Some(EngineScore::Cp(v)),
                        (Some(&"mate"), Some(v)) => self.score = Some(EngineScore::Mate(v)),
                        _ => {}
                    }
                    i += 1;
                }
                // Everything after `pv` or `string` is moves or text.
                "pv" | "string" => break,
                _ => {}
            }
            i += 1;
        }
    }
}

/// One request for a move.
pub struct Turn<'a> {
    /// The position (for built-in players).
    pub game: &'a AnyGame,
    /// The `position ...` command.
    pub position: &'a str,
    /// The `go ...` command.
    pub go: &'a str,
    /// How long to wait for the answer before giving up.
    pub wait: Duration,
}

/// How a request for a move ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// The player named a move (not yet checked).
    Move(String),
    /// No answer in time.
    Timeout,
    /// The player died (its process ended or its pipe broke).
    Crashed,
}

/// Why a request for a move failed, when it was not the player dying or not answering in
/// time (its reply is then [`Reply::Crashed`] all the same).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The player broke the protocol and is not listened to any more; in words, what it
    /// did (`printed a line longer than 65536 bytes`). It loses the game and is restarted.
    Misbehaved(String),
    /// The request was not sent: a line that [`Line::new`](crate::protocol::line::Line::new)
    /// refuses (in words). The fault of the caller, not of the player.
    Refused(String),
}

/// A reply with its timing and search information.
#[derive(Clone, Debug)]
pub struct Answer {
    /// The reply.
    pub reply: Reply,
    /// Time from `go` to `bestmove`.
    pub elapsed: Duration,
    /// The last search information.
    pub info: SearchInfo,
}

/// Something that plays moves.
pub trait Player: Send {
    /// Its name.
    fn name(&self) -> &str;

    /// Prepares for game `game_id` (`ucinewgame` and a `readyok` handshake). An error means
    /// the player is unusable (the caller restarts it).
    fn new_game(&mut self, game_id: u64) -> Result<(), String>;

    /// Asks for a move.
    fn think(&mut self, turn: &Turn) -> Answer;

    /// After a [`Reply::Timeout`]: makes the player usable again (`stop`, then a handshake
    /// within a short grace time; a restart if that fails).
    fn recover(&mut self) -> Result<(), String>;

    /// After a [`Reply::Crashed`] or a failed handshake: starts the player afresh.
    fn restart(&mut self) -> Result<(), String>;

    /// After a [`Reply::Crashed`]: why, when it was not simply the player dying.
    fn fault(&self) -> Option<Fault> {
        None
    }

    /// Ends the player at the end of the match (an engine gets `quit`).
    fn close(self: Box<Self>) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines() {
        let mut i = SearchInfo::default();
        i.update("info depth 7 seldepth 9 multipv 1 score cp -35 nodes 1234 nps 1 pv e2e4 e7e5");
        assert_eq!(i.score, Some(EngineScore::Cp(-35)));
        assert_eq!((i.depth, i.nodes), (Some(7), Some(1234)));
        i.update("info depth 8 score mate 3 lowerbound nodes 2000");
        assert_eq!(i.score, Some(EngineScore::Mate(3)));
        i.update("info string depth 99");
        assert_eq!(i.depth, Some(8));
        // Another line than the best one (a weakened engine's MultiPV) says nothing of it.
        i.update("info depth 9 multipv 4 score cp -1232 nodes 3000 pv d8d7 c6d7");
        assert_eq!((i.score, i.depth), (Some(EngineScore::Mate(3)), Some(8)));
        i.update("info depth 9 score cp 20 multipv 1 nodes 3000 pv b7c6");
        assert_eq!((i.score, i.depth), (Some(EngineScore::Cp(20)), Some(9)));
        assert_eq!(EngineScore::Cp(-120).pgn(), "-1.20");
        assert_eq!(EngineScore::Mate(-2).pgn(), "-M2");
        assert!(EngineScore::Mate(5).centipawns() > 90_000);
        // Whatever numbers an engine prints: no overflow, the sign kept.
        assert!(EngineScore::Mate(i32::MAX).centipawns() > 0);
        assert!(EngineScore::Mate(i32::MIN).centipawns() < 0);
        assert_eq!(EngineScore::Mate(i32::MIN).pgn(), "-M2147483648");
        let mut i = SearchInfo::default();
        i.update("info score cp -2147483648 depth 4294967295 nodes 18446744073709551615");
        assert_eq!(i.score, Some(EngineScore::Cp(i32::MIN)));
    }
}
