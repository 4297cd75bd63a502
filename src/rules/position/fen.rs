//! The FEN's shared parts, read and written once: the fields, the placement and its bracketed
//! holdings, the clocks and the key. The side to move and the fields between it and the
//! clocks are the variant's ([`VariantRules::read_fen_state`], [`VariantRules::fen_fields`]).

use super::{Position, VariantRules};
use crate::rules::clocks::Clocks;
use crate::rules::fen as rules_fen;
use crate::rules::placement;

impl<V: VariantRules<W>, const W: usize> Position<V, W> {
    /// Reads a FEN into a position whose own state starts as `state`. Any input gives a
    /// position or an error in words.
    pub(in crate::rules) fn read_fen(state: V, fen: &str) -> Result<Self, String> {
        let names = state.fen_field_names();
        let fields = rules_fen::fields(fen, &names)?;
        let (text, holdings) = match V::HOLDINGS {
            Some(what) => rules_fen::bracketed(fields[0], what)?,
            None => (fields[0], None),
        };
        let mut p = Position::with_state(state);
        for (cell, piece) in placement::read(text, p.state.geometry(), |ch, rest| {
            p.state.read_piece(ch, rest)
        })? {
            p.board.put(cell, piece);
        }
        V::read_fen_state(&mut p, holdings, &fields)?;
        let clocks = names.len() - 2;
        p.clocks = Clocks::read(fields.get(clocks).copied(), fields.get(clocks + 1).copied())?;
        V::check_fen(&mut p, &fields)?;
        p.board.set_key(p.key_from_scratch());
        Ok(p)
    }

    /// The position as FEN: the placement, the holdings in brackets, the side to move, the
    /// variant's fields and the clocks.
    pub(in crate::rules) fn write_fen(&self) -> String {
        let mut s = placement::write(
            self.state.geometry(),
            |c| self.board.piece_at(c),
            |piece, out| self.state.write_piece(piece, out),
        );
        if let Some(h) = V::holdings(self) {
            s.push('[');
            s.push_str(&h);
            s.push(']');
        }
        s.push(' ');
        s.push(self.side.letter());
        for f in V::fen_fields(self) {
            s.push(' ');
            s.push_str(&f);
        }
        s.push(' ');
        s.push_str(&self.clocks.fen());
        s
    }
}
