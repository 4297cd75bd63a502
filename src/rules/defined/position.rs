//! A position of a file-defined variant: its own state (rules, reserves, castling rights, en
//! passant) beside the core; making and taking back moves; the attack test.

use super::rules::{Bb, Goal, Rules, W};
use crate::rules::bitset::Cell;
use crate::rules::board::{Board, MAX_KINDS};
use crate::rules::moves::{Move, MoveFlag};
use crate::rules::piece::{Colour, Kind, Piece};
use crate::rules::position::Position;

/// "No en passant cell".
pub(super) const NO_EP: u16 = u16::MAX;

/// A side's reserve: how many of each kind it holds. A FEN may give a side at most as many
/// pieces, on the board and in its reserve together, as the board has cells (see
/// [`DefinedPosition::from_fen`]), and no move adds to that number, so the counts stay
/// below [`crate::rules::board::MAX_CELLS`].
pub type Reserve = [u16; MAX_KINDS];

/// What taking back a move of a file-defined variant needs beyond the core's record.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    pub(super) moved: Piece,
    pub(super) captured: Piece,
    pub(super) captured_cell: u16,
    pub(super) ep: (u16, u16),
    pub(super) castling: u32,
    pub(super) reserves: [Reserve; 2],
}

/// The own state of a file-defined variant: its compiled rules, the reserves, the castling
/// rights and en passant.
#[derive(Clone)]
pub struct Defined {
    pub(super) rules: &'static Rules,
    pub(super) reserves: [Reserve; 2],
    /// Castling rights, bit `i` for `rules.castlings[i]`.
    pub(super) castling: u32,
    /// The en passant cell and the cell of the pawn that passed it.
    pub(super) ep: (u16, u16),
}

impl Defined {
    /// The state of an empty board of `rules`: empty reserves, no rights, no en passant.
    pub(super) fn new(rules: &'static Rules) -> Self {
        Defined {
            rules,
            reserves: [[0; MAX_KINDS]; 2],
            castling: 0,
            ep: (NO_EP, NO_EP),
        }
    }
}

impl PartialEq for Defined {
    /// The same variant (the same rules, by identity) and the same state.
    fn eq(&self, o: &Self) -> bool {
        std::ptr::eq(self.rules, o.rules)
            && self.reserves == o.reserves
            && self.castling == o.castling
            && self.ep == o.ep
    }
}

/// A position of a variant defined in a file.
pub type DefinedPosition = Position<Defined, W>;

impl DefinedPosition {
    /// The variant's compiled rules.
    pub fn rules(&self) -> &'static Rules {
        self.state.rules
    }

    /// `colour`'s reserve.
    pub fn reserve(&self, colour: Colour) -> &Reserve {
        &self.state.reserves[colour.idx()]
    }

    /// The cells of `colour`'s royal pieces.
    pub fn royals(&self, colour: Colour) -> Bb {
        let mut s = Bb::EMPTY;
        for k in 0..self.state.rules.kinds as Kind {
            if self.state.rules.is_royal(k) {
                s |= self.board.pieces(k, colour);
            }
        }
        s
    }

    /// Whether `by` attacks `cell`: one of its pieces could capture there.
    pub fn is_attacked(&self, cell: Cell, by: Colour) -> bool {
        attacked(self.state.rules, &self.board, cell, by)
    }

    /// Whether one of `colour`'s royal pieces is attacked.
    pub fn royal_attacked(&self, colour: Colour) -> bool {
        let them = colour.flip();
        self.royals(colour)
            .iter()
            .any(|c| self.is_attacked(c, them))
    }

    /// Whether the side to move is in check (never, in a royal-capture variant).
    pub fn checked(&self) -> bool {
        self.state.rules.goal == Goal::Checkmate && self.royal_attacked(self.side)
    }

    fn set_ep(&mut self, ep: (u16, u16)) {
        if self.state.ep.0 != NO_EP {
            let k = self.state.rules.ep_key(self.state.ep.0 as Cell);
            self.board.toggle_key(k);
        }
        self.state.ep = ep;
        if ep.0 != NO_EP {
            let k = self.state.rules.ep_key(ep.0 as Cell);
            self.board.toggle_key(k);
        }
    }

    pub(super) fn set_castling(&mut self, rights: u32) {
        let changed = self.state.castling ^ rights;
        for i in 0..self.state.rules.castlings.len() {
            if changed >> i & 1 == 1 {
                let k = self.state.rules.castle_key(i);
                self.board.toggle_key(k);
            }
        }
        self.state.castling = rights;
    }

    /// Adds one `kind` to `colour`'s reserve.
    pub(super) fn reserve_add(&mut self, colour: Colour, kind: Kind) {
        let n = self.state.reserves[colour.idx()][kind as usize] as usize;
        self.state.reserves[colour.idx()][kind as usize] += 1;
        let k = self.state.rules.reserve_key(colour, kind, n);
        self.board.toggle_key(k);
    }

    fn reserve_take(&mut self, colour: Colour, kind: Kind) {
        self.state.reserves[colour.idx()][kind as usize] -= 1;
        let n = self.state.reserves[colour.idx()][kind as usize] as usize;
        let k = self.state.rules.reserve_key(colour, kind, n);
        self.board.toggle_key(k);
    }

    /// The key of the castling rights, the en passant cell and the reserves.
    pub(super) fn state_key(&self) -> u64 {
        let r = self.state.rules;
        let mut k = 0;
        for i in 0..r.castlings.len() {
            if self.state.castling >> i & 1 == 1 {
                k ^= r.castle_key(i);
            }
        }
        if self.state.ep.0 != NO_EP {
            k ^= r.ep_key(self.state.ep.0 as Cell);
        }
        for c in [Colour::WHITE, Colour::BLACK] {
            for kind in 0..r.kinds {
                for n in 0..self.state.reserves[c.idx()][kind] as usize {
                    k ^= r.reserve_key(c, kind as Kind, n);
                }
            }
        }
        k
    }

    /// Plays `mv` (pseudo-legal: legality is the generator's business).
    #[inline(always)]
    pub(super) fn play(&mut self, mv: Move) -> Undo {
        let r = self.state.rules;
        let us = self.side;
        let (from, to) = (mv.from(), mv.to());
        let moved = self.board.piece_at(from);
        let mut undo = Undo {
            moved,
            captured: Piece::NONE,
            captured_cell: to as u16,
            ep: self.state.ep,
            castling: self.state.castling,
            reserves: self.state.reserves,
        };
        self.set_ep((NO_EP, NO_EP));
        self.clocks.tick();
        match mv.flag() {
            MoveFlag::Castle => {
                let c = r
                    .castlings
                    .iter()
                    .find(|c| c.colour == us && c.king == from && c.king_to == to)
                    .expect("a castling move of the variant");
                let rook = self.board.remove(c.rook);
                let king = self.board.remove(c.king);
                self.board.put(c.king_to, king);
                self.board.put(c.rook_to, rook);
            }
            flag => {
                let victim_cell = if flag == MoveFlag::EnPassant {
                    undo.ep.1 as Cell
                } else {
                    to
                };
                let captured = self.board.piece_at(victim_cell);
                if captured.is_some() {
                    self.board.remove(victim_cell);
                    undo.captured = captured;
                    undo.captured_cell = victim_cell as u16;
                    self.clocks.restart();
                    let ck = captured.kind();
                    if r.reserve && !r.is_royal(ck) && !r.is_pawn(ck) {
                        self.reserve_add(captured.colour(), ck);
                    }
                }
                let pawn = r.is_pawn(moved.kind());
                if pawn {
                    self.clocks.restart();
                }
                self.board.relocate(from, to);
                if let Some(k) = mv.promotion() {
                    self.board.remove(to);
                    self.board.put(to, Piece::new(k, us));
                    if r.reserve {
                        self.reserve_take(us, k);
                    }
                }
                if flag == MoveFlag::DoubleStep && r.en_passant {
                    let (a, b) = (r.geo.coord(from), r.geo.coord(to));
                    let mid = r
                        .geo
                        .at(
                            (a.x as i32 + b.x as i32) / 2,
                            (a.y as i32 + b.y as i32) / 2,
                            (a.z as i32 + b.z as i32) / 2,
                        )
                        .expect("a double step passes a cell");
                    // Only a double step that no other pawn could have made gives the
                    // right: the FEN names the cell passed, not the pawn.
                    if self.ep_victim(mid, us) == Some(to) {
                        self.set_ep((mid as u16, to as u16));
                    }
                }
            }
        }
        let keep = r.castle_keep[from] & r.castle_keep[to];
        if self.state.castling & keep != self.state.castling {
            self.set_castling(self.state.castling & keep);
        }
        self.hand_over(us.flip());
        undo
    }

    /// Takes back `mv`, the last move.
    #[inline(always)]
    pub(super) fn take_back(&mut self, mv: Move, u: &Undo) {
        let r = self.state.rules;
        let us = self.side;
        let (from, to) = (mv.from(), mv.to());
        if mv.flag() == MoveFlag::Castle {
            let c = r
                .castlings
                .iter()
                .find(|c| c.colour == us && c.king == from && c.king_to == to)
                .expect("a castling move of the variant");
            let rook = self.board.remove(c.rook_to);
            let king = self.board.remove(c.king_to);
            self.board.put(c.king, king);
            self.board.put(c.rook, rook);
        } else {
            self.board.remove(to);
            self.board.put(from, u.moved);
            if u.captured.is_some() {
                self.board.put(u.captured_cell as Cell, u.captured);
            }
        }
        self.state.reserves = u.reserves;
        self.state.castling = u.castling;
        self.state.ep = u.ep;
    }
}

/// Whether `by` attacks `cell` on `board`.
pub(super) fn attacked(r: &Rules, board: &Board<W>, cell: Cell, by: Colour) -> bool {
    let m = &r.movement[by.idx()];
    let theirs = board.colour(by);
    for k in 0..r.kinds {
        let pieces = board.kind(k as Kind) & theirs;
        if pieces.any() && (m.leap_attackers[k][cell] & pieces).any() {
            return true;
        }
    }
    let occ = board.occupied();
    for (d, list) in r.slide_attackers[by.idx()].iter().enumerate() {
        if list.is_empty() {
            continue;
        }
        let back = r.reverse[d];
        let Some(b) = r.geo.nearest(r.geo.ray(cell, back) & occ, back) else {
            continue;
        };
        let p = board.piece_at(b);
        if p.colour() != by {
            continue;
        }
        for &(k, range) in list {
            if k == p.kind() && (range == u32::MAX || distance(r, cell, b, d) <= range) {
                return true;
            }
        }
    }
    false
}

/// The number of steps along direction `d` between two cells on one of its rays.
fn distance(r: &Rules, a: Cell, b: Cell, d: usize) -> u32 {
    let (p, q) = (r.geo.coord(a), r.geo.coord(b));
    let n = (p.x - q.x)
        .abs()
        .max((p.y - q.y).abs())
        .max((p.z - q.z).abs()) as i32;
    (n / r.dir_len[d]) as u32
}

impl DefinedPosition {
    /// Clears the en passant cell (and its key) for a null move and returns it.
    pub(super) fn take_ep(&mut self) -> u16 {
        let ep = self.state.ep.0;
        self.set_ep((NO_EP, NO_EP));
        // The victim's cell is found again from the cell in put_back_ep.
        ep
    }

    /// Puts back the en passant cell [`DefinedPosition::take_ep`] returned.
    pub(super) fn put_back_ep(&mut self, ep: u16) {
        if ep != NO_EP {
            let victim = self.ep_victim(ep as Cell, self.side.flip());
            self.state.ep = (ep, victim.map_or(NO_EP, |v| v as u16));
        }
    }
}

impl DefinedPosition {
    /// The pawn of `owner` that passed over `ep` by a double step: on the cell after `ep`
    /// along one of its steps, having come from the cell before it (an empty cell it may
    /// double-step from). `None` when no pawn or more than one could have: a FEN names only
    /// the cell passed, so a double step that several pawns could have made gives no en
    /// passant right (see `make_move`), and every right a position holds reads back.
    pub(super) fn ep_victim(&self, ep: Cell, owner: Colour) -> Option<Cell> {
        let r = self.state.rules;
        let m = &r.movement[owner.idx()];
        let mut found = None;
        for k in (0..r.kinds).filter(|&k| r.is_pawn(k as Kind)) {
            for &v in &m.pawn_steps[k] {
                let Some(c) = r.geo.step(ep, v) else {
                    continue;
                };
                let from = r.geo.step(ep, [-v[0], -v[1], -v[2]]);
                let passed = self.board.piece_at(c) == Piece::new(k as Kind, owner)
                    && from.is_some_and(|f| {
                        r.double_step[owner.idx()].contains(f) && self.board.piece_at(f).is_none()
                    });
                if passed {
                    if found.is_some_and(|f| f != c) {
                        return None;
                    }
                    found = Some(c);
                }
            }
        }
        found
    }
}
