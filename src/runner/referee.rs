//! The referee of one game: the position, the moves so far and every colour's clock. It
//! checks each move a player names with the rules layer, charges its thinking time, and says
//! when and why the game is over by the rules, by time or by an illegal move. The match
//! runner ([`super::game::play`]) and the GUI server play their games through it; what a
//! referee cannot see (crashes, stalls, adjudication by scores, resignations) its callers
//! decide.

use super::limits::Limits;
use super::openings::Opening;
use super::player::SearchInfo;
use super::record::{GameRecord, GameResult, PlayedMove, Termination};
use super::seats::team_name;
use crate::rules::piece::Colour;
use crate::rules::{AnyGame, Game, GameEnd, MoveError, Variant, notation};
use crate::text::echo;

/// How many characters of a move a player named are repeated in the reason it loses by.
const ECHO: usize = 40;

/// `ms` as a clock value: a time too long for an i64 is the longest one.
fn clock_ms(ms: u64) -> i64 {
    i64::try_from(ms).unwrap_or(i64::MAX)
}

/// How a game ended: its result, the PGN termination, and the reason in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// The result.
    pub result: GameResult,
    /// The PGN `Termination`.
    pub termination: Termination,
    /// Why, in words: `White wins by checkmate`, `Black loses on time`, ...
    pub reason: String,
}

impl Ending {
    /// The game ends as the rules decide.
    pub fn by_rules(end: GameEnd, colours: usize) -> Ending {
        match end {
            GameEnd::Win { winner, reason } => Ending {
                result: GameResult::Win(winner),
                termination: Termination::Normal,
                reason: format!("{} wins by {reason}", team_name(colours, winner)),
            },
            GameEnd::Draw { reason } => Ending {
                result: GameResult::Draw,
                termination: Termination::Normal,
                reason: format!("Draw by {reason}"),
            },
        }
    }

    /// `colour` loses the game: its team's opponents win, for `termination`; `reason` says
    /// why in words (`White loses on time`).
    pub fn loss(colour: Colour, termination: Termination, reason: String) -> Ending {
        Ending {
            result: GameResult::Win(1 - colour.team()),
            termination,
            reason,
        }
    }
}

/// A game in progress.
pub struct Referee {
    variant: Variant,
    game: AnyGame,
    start_fen: String,
    custom_start: bool,
    position_head: String,
    moves: Vec<PlayedMove>,
    /// Each colour's limits (clock, time per move, depth, nodes).
    limits: Vec<Limits>,
    /// Each colour's time left in ms (may go below zero: an overrun within the margin).
    clocks: Vec<i64>,
    /// Each colour's moves made, for `moves/` periods.
    made: Vec<u32>,
    /// The clocks and move counts before each move played through [`Referee::play`], for
    /// taking it back.
    before: Vec<(Vec<i64>, Vec<u32>)>,
    /// The clocks and move counts before the last [`Referee::charge_time`].
    before_charge: Option<(Vec<i64>, Vec<u32>)>,
}

/// The move number (the FEN's last field).
fn move_number(game: &AnyGame) -> u32 {
    game.fen()
        .split_whitespace()
        .last()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1)
}

impl Referee {
    /// A game of `variant` from `opening` (its position, then its moves, checked and recorded
    /// as book moves), each colour playing under `limits[colour]`; with `chess960`, moves are
    /// named in Chess960 notation (castling as the King taking its Rook).
    pub fn new(
        variant: Variant,
        chess960: bool,
        opening: &Opening,
        limits: Vec<Limits>,
    ) -> Result<Self, String> {
        let mut game = match &opening.fen {
            Some(f) => AnyGame::from_fen(variant, f)?,
            None => AnyGame::startpos(variant),
        };
        game.set_chess960(chess960);
        let start_fen = game.fen();
        let custom_start = start_fen != AnyGame::startpos(variant).fen();
        let mut moves = Vec::new();
        for m in &opening.moves {
            let mv = game
                .parse_move(m)
                .map_err(|e| format!("opening: {e} in {start_fen}"))?;
            moves.push(PlayedMove {
                // The referee's own name for it: the notation the engines are told to use.
                name: game.move_name(mv),
                san: notation::name(&game, mv),
                colour: game.side_to_move(),
                number: move_number(&game),
                book: true,
                info: SearchInfo::default(),
                time_ms: 0,
            });
            game.make(mv);
        }
        let clocks = limits
            .iter()
            .map(|l| l.tc.map_or(0, |t| clock_ms(t.base_ms)))
            .collect();
        Ok(Referee {
            variant,
            // The FEN as the rules layer writes it, never the text given: that text may hold
            // anything the FEN reader skips as blanks (a line break among them).
            position_head: match &opening.fen {
                Some(_) => format!("position fen {start_fen}"),
                None => "position startpos".to_string(),
            },
            made: vec![0; limits.len()],
            before: Vec::new(),
            before_charge: None,
            game,
            start_fen,
            custom_start,
            moves,
            limits,
            clocks,
        })
    }

    /// The current position.
    pub fn game(&self) -> &AnyGame {
        &self.game
    }

    /// The moves so far, opening moves included.
    pub fn moves(&self) -> &[PlayedMove] {
        &self.moves
    }

    /// The colour to move.
    pub fn to_move(&self) -> Colour {
        self.game.side_to_move()
    }

    /// `colour`'s time left in ms.
    pub fn clock_ms(&self, colour: Colour) -> i64 {
        self.clocks[colour.idx()]
    }

    /// `colour`'s limits.
    pub fn limits(&self, colour: Colour) -> Limits {
        self.limits[colour.idx()]
    }

    /// The `position ...` command for the current position (the start, then every move).
    pub fn position_command(&self) -> String {
        if self.moves.is_empty() {
            return self.position_head.clone();
        }
        let names: Vec<&str> = self.moves.iter().map(|m| m.name.as_str()).collect();
        format!("{} moves {}", self.position_head, names.join(" "))
    }

    /// The `go ...` command for the colour to move.
    pub fn go_command(&self) -> String {
        go_command(&self.limits, &self.clocks, &self.made, self.to_move().idx())
    }

    /// The ending the rules declare in the current position, if any.
    pub fn outcome(&self) -> Option<Ending> {
        self.game
            .outcome()
            .map(|end| Ending::by_rules(end, self.variant.colours()))
    }

    /// How long the colour to move may think, in ms, before it loses on time (or, with no
    /// clock, `None`): its clock or its time per move, plus `margin_ms`.
    pub fn time_allowed_ms(&self, margin_ms: u64) -> Option<u64> {
        let c = self.to_move().idx();
        match (self.limits[c].tc, self.limits[c].movetime_ms) {
            (Some(_), _) => Some(
                self.clocks[c]
                    .max(0)
                    .unsigned_abs()
                    .saturating_add(margin_ms),
            ),
            (None, Some(mt)) => Some(mt.saturating_add(margin_ms)),
            (None, None) => None,
        }
    }

    /// Charges `elapsed_ms` of thinking to the colour to move (with the increment and a new
    /// period where the time control has them). A move later than its time allows (plus
    /// `margin_ms`) loses on time instead, and the clock is left as it was.
    pub fn charge_time(&mut self, elapsed_ms: u64, margin_ms: u64) -> Result<(), Ending> {
        let colour = self.to_move();
        let c = colour.idx();
        let lim = self.limits[c];
        let late = match (lim.tc, lim.movetime_ms) {
            (Some(_), _) => {
                clock_ms(elapsed_ms) > self.clocks[c].saturating_add(clock_ms(margin_ms))
            }
            (None, Some(mt)) => elapsed_ms > mt.saturating_add(margin_ms),
            (None, None) => false,
        };
        if late {
            return Err(Ending::loss(
                colour,
                Termination::TimeForfeit,
                format!("{} loses on time", colour.name()),
            ));
        }
        self.before_charge = Some((self.clocks.clone(), self.made.clone()));
        if let Some(tc) = lim.tc {
            self.clocks[c] = self.clocks[c]
                .saturating_add(clock_ms(tc.inc_ms))
                .saturating_sub(clock_ms(elapsed_ms));
            self.made[c] = self.made[c].saturating_add(1);
            if tc.moves.is_some_and(|m| self.made[c].is_multiple_of(m)) {
                self.clocks[c] = self.clocks[c].saturating_add(clock_ms(tc.base_ms));
            }
        }
        Ok(())
    }

    /// Plays the move the colour to move named, with what its engine said and the time it
    /// took. An unparsable or illegal move loses the game.
    pub fn play(&mut self, name: &str, info: SearchInfo, time_ms: u64) -> Result<(), Ending> {
        let colour = self.to_move();
        let mv = self.game.parse_move(name).map_err(|err| {
            // The move as the player gave it, which may be anything: made printable and cut.
            let what = match err {
                MoveError::Malformed(s) => format!("an unparsable move: '{}'", echo(&s, ECHO)),
                MoveError::Illegal(s) | MoveError::Ambiguous(s, _) => {
                    format!("an illegal move: {}", echo(&s, ECHO))
                }
            };
            Ending::loss(
                colour,
                Termination::IllegalMove,
                format!("{} makes {what}", colour.name()),
            )
        })?;
        self.moves.push(PlayedMove {
            name: self.game.move_name(mv),
            san: notation::name(&self.game, mv),
            colour,
            number: move_number(&self.game),
            book: false,
            info,
            time_ms,
        });
        let before = self
            .before_charge
            .take()
            .unwrap_or_else(|| (self.clocks.clone(), self.made.clone()));
        self.before.push(before);
        self.game.make(mv);
        Ok(())
    }

    /// Takes back the last move played through [`Referee::play`] (not an opening move), with
    /// the time it was charged. Returns it, or `None` when there is none.
    pub fn take_back(&mut self) -> Option<PlayedMove> {
        if self.moves.last().is_none_or(|m| m.book) {
            return None;
        }
        let (clocks, made) = self.before.pop()?;
        self.clocks = clocks;
        self.made = made;
        self.before_charge = None;
        self.game.unmake();
        self.moves.pop()
    }

    /// Sets `colour`'s clock (a clock the caller runs itself, such as a person's).
    pub fn set_clock_ms(&mut self, colour: Colour, ms: i64) {
        self.clocks[colour.idx()] = ms;
    }

    /// The record of the game so far, ended by `ending` or (without one) unfinished.
    pub fn record(&self, ending: Option<&Ending>, ids: RecordIds) -> GameRecord {
        let (result, termination, reason) = match ending {
            Some(e) => (e.result, e.termination, e.reason.clone()),
            None => (
                GameResult::Unfinished,
                Termination::Unterminated,
                "Game not finished".to_string(),
            ),
        };
        GameRecord {
            id: ids.id,
            round: ids.round,
            variant: self.variant,
            chess960: self.game.chess960(),
            custom_start: self.custom_start,
            start_fen: self.start_fen.clone(),
            seats: ids.seats,
            names: ids.names,
            time_controls: self
                .limits
                .iter()
                .map(|l| if l.any() { l.to_string() } else { "-".into() })
                .collect(),
            final_fen: self.game.fen(),
            moves: self.moves.clone(),
            result,
            termination,
            reason,
            started: ids.started,
            duration: ids.started.elapsed().unwrap_or_default(),
        }
    }

    /// The record of the finished game.
    pub fn finish(self, ending: Ending, ids: RecordIds) -> GameRecord {
        self.record(Some(&ending), ids)
    }
}

/// What a game record holds besides the game itself.
pub struct RecordIds {
    /// Game number (1-based).
    pub id: u64,
    /// Round (1-based).
    pub round: usize,
    /// The engine in each seat.
    pub seats: Vec<usize>,
    /// The player in each seat.
    pub names: Vec<String>,
    /// When the game started.
    pub started: std::time::SystemTime,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::limits::TimeControl;
    use crate::runner::pgn;

    fn ids() -> RecordIds {
        RecordIds {
            id: 1,
            round: 1,
            seats: vec![0, 1],
            names: vec!["a".into(), "b".into()],
            started: std::time::SystemTime::now(),
        }
    }

    #[test]
    fn moves_clocks_take_back_and_records() {
        let tc = Limits {
            tc: Some(TimeControl {
                moves: None,
                base_ms: 10_000,
                inc_ms: 100,
            }),
            ..Limits::default()
        };
        let mut r = Referee::new(Variant::Chess, false, &Opening::default(), vec![tc, tc]).unwrap();
        r.charge_time(1500, 0).unwrap();
        r.play("e2e4", SearchInfo::default(), 1500).unwrap();
        assert_eq!(r.clock_ms(Colour::WHITE), 10_000 - 1500 + 100);
        assert_eq!(
            r.go_command(),
            "go wtime 8600 btime 10000 winc 100 binc 100"
        );
        assert_eq!(r.position_command(), "position startpos moves e2e4");
        // An illegal move loses, and changes nothing.
        let end = r.play("e2e4", SearchInfo::default(), 0).unwrap_err();
        assert_eq!(end.termination, Termination::IllegalMove);
        assert_eq!(end.reason, "Black makes an illegal move: e2e4");
        assert_eq!(r.moves().len(), 1);
        // Too late: a loss on time, the clock as it was.
        let late = r.charge_time(20_000, 0).unwrap_err();
        assert_eq!(late.reason, "Black loses on time");
        assert_eq!(r.clock_ms(Colour::BLACK), 10_000);
        // Taking back restores the position and White's clock.
        assert_eq!(r.take_back().map(|m| m.name), Some("e2e4".into()));
        assert_eq!(r.clock_ms(Colour::WHITE), 10_000);
        assert_eq!(r.game().fen(), AnyGame::startpos(Variant::Chess).fen());
        assert!(r.take_back().is_none());
        // A game saved unfinished is written with the result '*'.
        r.play("d2d4", SearchInfo::default(), 0).unwrap();
        let text = pgn::write_game(&r.record(None, ids()), "GUI");
        assert!(
            text.contains("[Result \"*\"]") && text.contains("1. d4"),
            "{text}"
        );
        assert!(text.trim_end().ends_with('*'), "{text}");
    }

    #[test]
    fn clocks_saturate_instead_of_overflowing() {
        // The match's command line bounds its clocks; other callers (the GUI) may not.
        let huge = Limits {
            tc: Some(TimeControl {
                moves: Some(1),
                base_ms: u64::MAX,
                inc_ms: u64::MAX,
            }),
            movetime_ms: Some(u64::MAX),
            ..Limits::default()
        };
        let mut r =
            Referee::new(Variant::Chess, false, &Opening::default(), vec![huge, huge]).unwrap();
        assert_eq!(r.clock_ms(Colour::WHITE), i64::MAX);
        assert_eq!(r.time_allowed_ms(u64::MAX), Some(u64::MAX));
        r.charge_time(u64::MAX, u64::MAX).unwrap();
        r.play("e2e4", SearchInfo::default(), u64::MAX).unwrap();
        assert!(r.clock_ms(Colour::WHITE) > 0);
        assert!(!r.go_command().contains('-'), "{}", r.go_command());
    }

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
