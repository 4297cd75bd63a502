//! Move generation of a file-defined variant: every piece's moves from the compiled tables,
//! pawn double steps, en passant, promotions (fixed choices or from the reserve), promotion
//! after a capture, castling; legality by playing the move and testing the royal pieces.

use super::position::{DefinedPosition, NO_EP, attacked};
use super::rules::{Bb, Goal, W};
use crate::rules::bitset::Cell;
use crate::rules::board::Board;
use crate::rules::moves::{Move, MoveFlag, MoveList};
use crate::rules::piece::Kind;
use crate::rules::sink::{ListSink, MoveSink};

impl DefinedPosition {
    /// The cells the piece on `cell` reaches by sliding, given the occupied cells: where it
    /// may move and where it may capture (before the colour test).
    #[inline]
    pub(super) fn slide_targets(&self, cell: Cell, kind: Kind, us: usize, occ: Bb) -> (Bb, Bb) {
        let r = self.state.rules;
        let (mut moves, mut captures) = (Bb::EMPTY, Bb::EMPTY);
        for s in &r.movement[us].slides[kind as usize] {
            let reach = r.slide_reach(cell, s, occ);
            if s.moves {
                moves |= reach;
            }
            if s.captures {
                captures |= reach;
            }
        }
        (moves.and_not(occ), captures & occ)
    }

    /// The cells the piece on `cell` attacks (could capture on if an enemy stood there).
    pub fn attacks_from(&self, cell: Cell) -> Bb {
        let p = self.board.piece_at(cell);
        let (k, us) = (p.kind() as usize, p.colour().idx());
        let occ = self.board.occupied();
        let m = &self.state.rules.movement[us];
        let mut att = m.leap_capture[k][cell];
        for s in m.slides[k].iter().filter(|s| s.captures) {
            att |= self.state.rules.slide_reach(cell, s, occ);
        }
        att
    }

    /// Hands `sink` the moves from `from` to `to` (promotion choices spelled out).
    fn push_to<S: MoveSink<W>>(
        &self,
        sink: &mut S,
        from: Cell,
        to: Cell,
        kind: Kind,
        capture: bool,
    ) {
        let r = self.state.rules;
        let us = self.side;
        if r.is_pawn(kind) && r.promotion_zone[us.idx()].contains(to) {
            match &r.promotion_choices {
                Some(ks) => {
                    for &k in ks {
                        sink.one(Move::promotion_to(from, to, k));
                    }
                }
                None => {
                    for k in 0..r.kinds as Kind {
                        if self.state.reserves[us.idx()][k as usize] > 0 {
                            sink.one(Move::promotion_to(from, to, k));
                        }
                    }
                }
            }
            return;
        }
        sink.one(Move::normal(from, to));
        if capture && r.capture_promoters >> kind & 1 == 1 {
            for k in 0..r.kinds as Kind {
                if k != kind && self.state.reserves[us.idx()][k as usize] > 0 {
                    sink.one(Move::promotion_to(from, to, k));
                }
            }
        }
    }

    /// Every move of the side to move that the pieces' movement allows, before the check rule.
    pub(super) fn pseudo_legal<S: MoveSink<W>>(&self, sink: &mut S) {
        let r = self.state.rules;
        let us = self.side;
        let u = us.idx();
        let m = &r.movement[u];
        let occ = self.board.occupied();
        let own = self.board.colour(us);
        let enemy = occ.and_not(own);
        for from in own {
            let kind = self.board.piece_at(from).kind();
            let k = kind as usize;
            let (sm, sc) = self.slide_targets(from, kind, u, occ);
            let quiet = (m.leap_move[k][from].and_not(occ)) | sm;
            let caps = (m.leap_capture[k][from] | sc) & enemy;
            for to in caps {
                self.push_to(sink, from, to, kind, true);
            }
            for to in quiet {
                self.push_to(sink, from, to, kind, false);
            }
            if r.is_pawn(kind) {
                if r.double_step[u].contains(from) {
                    for &v in &m.pawn_steps[k] {
                        if let Some(a) = r.geo.step(from, v).filter(|&a| !occ.contains(a))
                            && let Some(b) = r.geo.step(a, v).filter(|&b| !occ.contains(b))
                        {
                            if r.promotion_zone[u].contains(b) {
                                continue;
                            }
                            sink.one(Move::with_flag(from, b, MoveFlag::DoubleStep));
                        }
                    }
                }
                if self.state.ep.0 != NO_EP
                    && m.leap_capture[k][from].contains(self.state.ep.0 as Cell)
                {
                    sink.one(Move::with_flag(
                        from,
                        self.state.ep.0 as Cell,
                        MoveFlag::EnPassant,
                    ));
                }
            }
        }
        for (i, c) in r.castlings.iter().enumerate() {
            if c.colour != us || self.state.castling >> i & 1 == 0 {
                continue;
            }
            if (c.empty & occ).any() {
                continue;
            }
            let them = us.flip();
            if self.is_attacked(c.king, them)
                || c.king_path.iter().any(|&p| self.is_attacked(p, them))
            {
                continue;
            }
            sink.one(Move::with_flag(c.king, c.king_to, MoveFlag::Castle));
        }
    }

    /// Hands `sink` every legal move.
    pub(super) fn legal<S: MoveSink<W>>(&self, sink: &mut S) {
        if self.royal_gone().is_some() {
            return;
        }
        if self.state.rules.goal != Goal::Checkmate {
            self.pseudo_legal(sink);
            return;
        }
        let mut pseudo = MoveList::new();
        self.pseudo_legal(&mut ListSink(&mut pseudo));
        // Only a move of the royal piece, out of check, en passant, or of a piece on a line
        // from the royal piece along which an enemy slider could attack needs the test.
        let r = self.state.rules;
        let us = self.side;
        let royal = self.royals(us).first();
        let exposed = match royal {
            Some(k) if !self.is_attacked(k, us.flip()) => {
                let mut lines = Bb::EMPTY;
                for (d, list) in r.slide_attackers[us.flip().idx()].iter().enumerate() {
                    if !list.is_empty() {
                        lines |= r.geo.ray(k, r.reverse[d]);
                    }
                }
                lines
            }
            _ => r.geo.all(),
        };
        let mut board = self.board.clone();
        for &m in pseudo.iter() {
            let simple = !exposed.contains(m.from())
                && !matches!(m.flag(), MoveFlag::EnPassant | MoveFlag::Castle)
                && Some(m.from()) != royal;
            if simple || self.keeps_royals_safe(&mut board, m) {
                sink.one(m);
            }
        }
    }

    /// Whether `mv` (pseudo-legal) leaves the mover's royal pieces unattacked: played on
    /// `board` (a copy of the placement, given back unchanged).
    fn keeps_royals_safe(&self, board: &mut Board<W>, mv: Move) -> bool {
        let r = self.state.rules;
        let us = self.side;
        let them = us.flip();
        let (from, to) = (mv.from(), mv.to());
        if mv.flag() == MoveFlag::Castle {
            let c = r
                .castlings
                .iter()
                .find(|c| c.colour == us && c.king == from && c.king_to == to)
                .expect("a castling move of the variant");
            let rook = board.remove(c.rook);
            let king = board.remove(c.king);
            board.put(c.king_to, king);
            board.put(c.rook_to, rook);
            let safe = !self
                .royals_on(board, us)
                .iter()
                .any(|c| attacked(r, board, c, them));
            board.remove(c.rook_to);
            board.remove(c.king_to);
            board.put(c.king, king);
            board.put(c.rook, rook);
            return safe;
        }
        let victim_cell = if mv.flag() == MoveFlag::EnPassant {
            self.state.ep.1 as Cell
        } else {
            to
        };
        let victim = board.piece_at(victim_cell);
        if victim.is_some() {
            board.remove(victim_cell);
        }
        board.relocate(from, to);
        let safe = !self
            .royals_on(board, us)
            .iter()
            .any(|c| attacked(r, board, c, them));
        board.relocate(to, from);
        if victim.is_some() {
            board.put(victim_cell, victim);
        }
        safe
    }

    fn royals_on(&self, board: &Board<W>, colour: crate::rules::piece::Colour) -> Bb {
        let mut s = Bb::EMPTY;
        for k in 0..self.state.rules.kinds as Kind {
            if self.state.rules.is_royal(k) {
                s |= board.pieces(k, colour);
            }
        }
        s
    }

    /// In a royal-capture variant, the colour whose royal pieces are all gone.
    pub(super) fn royal_gone(&self) -> Option<crate::rules::piece::Colour> {
        if self.state.rules.goal != Goal::RoyalCapture {
            return None;
        }
        [
            crate::rules::piece::Colour::WHITE,
            crate::rules::piece::Colour::BLACK,
        ]
        .into_iter()
        .find(|&c| self.royals(c).is_empty())
    }
}
