//! The interface between a variant's rules and everything above them (perft, search,
//! protocol, match referee).
//!
//! A variant is a position type implementing [`Game`]. The interface is deliberately small:
//! legal moves, make/unmake, keys, notation, FEN and the end-of-game rules. Everything a
//! variant does differently (drops, shots, explosions, four colours, passes) stays behind it.

use super::bitset::Cell;
use super::info::PieceInfo;
use super::moves::{CastlingSide, Move, MoveFlag, MoveList};
use super::piece::{Colour, Kind, Piece};
use super::variant::Variant;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// Team `winner` (0 = White's team, 1 = Black's team) won.
    Win {
        /// The winning team.
        winner: usize,
        /// Why: "checkmate", "king captured", ...
        reason: &'static str,
    },
    /// The game is drawn.
    Draw {
        /// Why: "stalemate", "threefold repetition", ...
        reason: &'static str,
    },
}

impl GameEnd {
    /// The PGN result string.
    pub fn result_string(self) -> &'static str {
        match self {
            GameEnd::Win { winner: 0, .. } => "1-0",
            GameEnd::Win { .. } => "0-1",
            GameEnd::Draw { .. } => "1/2-1/2",
        }
    }

    /// The reason text.
    pub fn reason(self) -> &'static str {
        match self {
            GameEnd::Win { reason, .. } | GameEnd::Draw { reason } => reason,
        }
    }
}

/// An error reading a move from text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not a move in this variant's notation at all.
    Malformed(String),
    /// Well formed, but not a legal move in the position.
    Illegal(String),
    /// Readable notation that fits several legal moves (`Nd7` where two Knights reach d7):
    /// the text, and the readable names of the moves it fits.
    Ambiguous(String, Vec<String>),
}

impl std::fmt::Display for MoveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveError::Malformed(s) => write!(f, "unparsable move '{s}'"),
            MoveError::Illegal(s) => write!(f, "illegal move '{s}'"),
            MoveError::Ambiguous(s, fits) => {
                // `a, b or c`.
                let all = match fits.split_last() {
                    Some((last, rest)) if !rest.is_empty() => {
                        format!("{} or {last}", rest.join(", "))
                    }
                    _ => fits.join(""),
                };
                write!(f, "ambiguous move '{s}': it could be {all}")
            }
        }
    }
}

/// A position of some variant, with its history (for unmake and repetition).
///
/// `PartialEq` compares the game state (placement, side to move, rights, clocks, hands,
/// flags), not the history.
pub trait Game: Clone + PartialEq + Send + Sync + 'static {
    /// The variant this position belongs to.
    fn variant(&self) -> Variant;

    /// The colour to move.
    fn side_to_move(&self) -> Colour;

    /// The team to move (0 = White's, 1 = Black's).
    fn team_to_move(&self) -> usize {
        self.side_to_move().team()
    }

    /// The Zobrist key of the whole game state that matters for repetition.
    fn key(&self) -> u64;

    /// Appends every legal move (including a pass where the variant has one). A position
    /// whose game is already decided (a King captured, a team eliminated) has none.
    fn generate(&self, moves: &mut MoveList);

    /// The number of legal moves (the last ply of perft); variants may count without listing.
    fn count_moves(&self) -> u64 {
        let mut list = MoveList::new();
        self.generate(&mut list);
        list.len() as u64
    }

    /// Plays a legal move.
    fn make(&mut self, mv: Move);

    /// Takes back the last move made with [`Game::make`]. Must not be called with no history.
    fn unmake(&mut self);

    /// Number of moves made that [`Game::unmake`] can take back.
    fn history_len(&self) -> usize;

    /// Whether the side to move is in check (always false in variants without check).
    fn in_check(&self) -> bool;

    /// The position as FEN (the variant's own format, see `protocol.md`).
    fn fen(&self) -> String;

    /// A move in the variant's notation.
    fn move_name(&self, mv: Move) -> String;

    /// Whether `s` has the shape of a move in this variant's notation (legal or not).
    fn is_move_syntax(&self, s: &str) -> bool;

    /// Reads a move in the variant's notation; it must be legal here.
    fn parse_move(&self, s: &str) -> Result<Move, MoveError> {
        let mut list = MoveList::new();
        self.generate(&mut list);
        if let Some(&m) = list.iter().find(|&&m| self.move_name(m) == s) {
            return Ok(m);
        }
        Err(self.not_a_move(s))
    }

    /// Why `s` is not a legal move here: not legal, or not even a move's shape.
    fn not_a_move(&self, s: &str) -> MoveError {
        if self.is_move_syntax(s) {
            MoveError::Illegal(s.to_string())
        } else {
            MoveError::Malformed(s.to_string())
        }
    }

    /// Where the King lands when `mv` is a castling move written as the King taking its own
    /// Rook (chess, Chess960), for a player who points at that square instead; `None` for
    /// every other move and in every other variant.
    fn king_destination(&self, _mv: Move) -> Option<Cell> {
        None
    }

    /// Which castling the castling move `mv` is, for readable notation ([`crate::rules::notation`]):
    /// `None` for every other move, and for a castling that is neither the short nor the long
    /// one (a variant file may declare others), which is then written in protocol notation.
    fn castling_side(&self, _mv: Move) -> Option<CastlingSide> {
        None
    }

    /// A result that holds without looking at the legal moves: a King captured, a team
    /// eliminated. (Checkmate and stalemate are found by [`Game::end_without_moves`].)
    fn decided(&self) -> Option<GameEnd>;

    /// The result when the side to move has no legal move (checkmate, stalemate, a loss in
    /// Pentaplane, ...). Only called when [`Game::generate`] gave nothing.
    fn end_without_moves(&self) -> GameEnd;

    /// How many times the current position occurred earlier in the history (0 = first time).
    fn repetitions(&self) -> usize;

    /// The draw that the n-move rule or insufficient material declares, if any. Repetition is
    /// separate ([`Game::repetitions`]).
    fn rule_draw(&self) -> Option<&'static str>;

    /// The complete end-of-game test a referee applies after every move.
    fn outcome(&self) -> Option<GameEnd> {
        if let Some(end) = self.decided() {
            return Some(end);
        }
        if self.count_moves() == 0 {
            return Some(self.end_without_moves());
        }
        if self.repetitions() >= 2 {
            return Some(GameEnd::Draw {
                reason: "threefold repetition",
            });
        }
        self.rule_draw().map(|reason| GameEnd::Draw { reason })
    }

    /// The piece on `cell` ([`Piece::NONE`] if empty).
    fn piece_at(&self, cell: Cell) -> Piece;

    /// The piece that makes `mv` (the dropped piece for a drop, none for a pass).
    fn moved_piece(&self, mv: Move) -> Piece {
        match mv.flag() {
            MoveFlag::Drop => Piece::new(mv.promotion().unwrap_or(0), self.side_to_move()),
            MoveFlag::Pass => Piece::NONE,
            _ => self.piece_at(mv.from()),
        }
    }

    /// The piece `mv` captures or hits directly (explosions may remove more).
    fn captured_piece(&self, mv: Move) -> Piece {
        match mv.flag() {
            MoveFlag::Drop | MoveFlag::Pass | MoveFlag::Castle => Piece::NONE,
            _ => self.piece_at(mv.to()),
        }
    }

    /// Whether `mv` changes material (capture, promotion, shot, explosion): the moves the
    /// quiescence search looks at.
    fn is_tactical(&self, mv: Move) -> bool {
        self.captured_piece(mv).is_some()
            || (mv.promotion().is_some() && mv.flag() != MoveFlag::Drop)
    }

    /// Whether the legal move `mv` may give check (or, where Kings are captured, attack a
    /// King). `false` only when it certainly does not, which lets the search prune a late
    /// quiet move without making it; the default `true` asks the search to make the move and
    /// look. Chess and Pole Chess answer from the board.
    fn may_give_check(&self, _mv: Move) -> bool {
        true
    }

    /// Whether `mv` is a legal move here, where the variant can tell without generating
    /// every move (`None`: it cannot, and the search generates first). The search asks this
    /// of the transposition table's move, which may belong to another position whose key
    /// collided with this one's, so any move must get a correct answer. Chess and Pole
    /// Chess answer.
    fn legal_without_generating(&self, _mv: Move) -> Option<bool> {
        None
    }

    /// Appends the legal tactical moves ([`Game::is_tactical`]): what quiescence search looks
    /// at when not in check. Variants may override this with a faster generator.
    fn generate_tactical(&self, moves: &mut MoveList) {
        let mut all = MoveList::new();
        self.generate(&mut all);
        for &m in all.iter() {
            if self.is_tactical(m) {
                moves.push(m);
            }
        }
    }

    /// Whether passing the turn is a sound search device here (null-move pruning). Variants
    /// return false where a pass would be meaningless or unsound (e.g. when in check).
    fn null_move_allowed(&self) -> bool;

    /// Passes the turn (for null-move pruning). Only called when
    /// [`Game::null_move_allowed`] is true; undone by [`Game::unmake_null`].
    fn make_null(&mut self);

    /// Takes back [`Game::make_null`].
    fn unmake_null(&mut self);

    /// A drawing of the board for the `d` command (several lines, no trailing newline).
    fn drawing(&self) -> String;

    /// The name of `cell` in the variant's notation (`e4`, `Cc3`).
    fn cell_name(&self, cell: Cell) -> String;

    /// What `colour` holds off the board, as (kind, count): Pole Chess's Pole in hand,
    /// Polyhedron's reserve. Empty where the variant has nothing in hand.
    fn in_hand(&self, _colour: Colour) -> Vec<(Kind, usize)> {
        Vec::new()
    }

    /// The state beside the placement that a player should see, in words ("Poles are
    /// available", "Gold is eliminated"). Empty by default.
    fn notes(&self) -> Vec<String> {
        Vec::new()
    }

    /// The cells of the Kings in danger: the side to move's King in check, or, where Kings
    /// are captured instead, every King the other team could capture now.
    fn kings_in_danger(&self) -> Vec<Cell>;

    /// Why the piece on `from` cannot go to `to` (a drop when `from == to`), in words, for a
    /// player whose move was refused. Only asked about moves that are not legal.
    fn explain_illegal(&self, from: Cell, to: Cell) -> String;

    /// Checks the position's internal consistency (the incremental key against a key computed
    /// from scratch, bitsets against mailbox, ...). For tests and the fuzzers.
    fn check_invariants(&self) -> Result<(), String>;
}

/// The ending of a game with a check rule when the side to move has no legal move: checkmate
/// (the other team wins) if `to_move` is in check, stalemate (a draw) otherwise.
pub fn mate_or_stalemate(in_check: bool, to_move: Colour) -> GameEnd {
    if in_check {
        GameEnd::Win {
            winner: to_move.flip().team(),
            reason: "checkmate",
        }
    } else {
        GameEnd::Draw {
            reason: "stalemate",
        }
    }
}

/// The reasons every variant gives first for refusing a move from `from` to `to` by the colour
/// to move: an empty cell, a piece of another colour, a target held by one's own team.
/// `pieces` names the kinds.
pub fn basic_refusal<G: Game>(g: &G, pieces: &[PieceInfo], from: Cell, to: Cell) -> Option<String> {
    let us = g.side_to_move();
    let piece = g.piece_at(from);
    if piece.is_none() {
        return Some(format!("there is no piece on {}", g.cell_name(from)));
    }
    if piece.colour() != us {
        return Some(format!(
            "the {} on {} is {}'s, and {} is to move",
            kind_name(pieces, piece.kind()),
            g.cell_name(from),
            piece.colour().name(),
            us.name()
        ));
    }
    let target = g.piece_at(to);
    if from != to && target.is_some() && target.colour().team() == us.team() {
        let whose = if target.colour() == us {
            "your own".to_string()
        } else {
            format!("your partner {}'s", target.colour().name())
        };
        return Some(format!(
            "{} is held by {whose} {}",
            g.cell_name(to),
            kind_name(pieces, target.kind())
        ));
    }
    None
}

/// The name of kind `k` in lower case ("knight"), or "piece" if the table has none.
pub fn kind_name(pieces: &[PieceInfo], k: Kind) -> String {
    pieces
        .get(k as usize)
        .map_or("piece".to_string(), |p| p.name.to_lowercase())
}

/// The refusal of a move the piece can make but that leaves its own King in check (in the
/// variants where a King may not be left in check); `king` is the King's kind.
pub fn king_left_in_check<G: Game>(
    g: &G,
    pieces: &[PieceInfo],
    king: Kind,
    from: Cell,
    to: Cell,
) -> String {
    let kind = g.piece_at(from).kind();
    if kind == king {
        format!("the King would be in check on {}", g.cell_name(to))
    } else if g.in_check() {
        "your King is in check, and this move does not get it out".into()
    } else {
        format!(
            "moving the {} from {} would leave your King in check",
            kind_name(pieces, kind),
            g.cell_name(from)
        )
    }
}

/// "the knight on g1 does not move to g4": the refusal for a target the piece cannot reach.
pub fn cannot_reach<G: Game>(g: &G, pieces: &[PieceInfo], from: Cell, to: Cell) -> String {
    format!(
        "the {} on {} does not move to {}",
        kind_name(pieces, g.piece_at(from).kind()),
        g.cell_name(from),
        g.cell_name(to)
    )
}
