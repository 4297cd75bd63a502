//! The clocks every position keeps beside its placement (read and written as the FEN's last
//! two fields), and how far back a repetition can lie.

/// The clocks of a position.
#[derive(Clone, Copy, Debug)]
pub struct Clocks {
    /// Plies since the last capture or pawn move: the count of the variant's n-move rule.
    pub halfmove: u32,
    /// The move number.
    pub fullmove: u32,
    /// Plies since the last move that no later position can undo, or since a null move: how
    /// far back an earlier occurrence of the position can lie. Not part of the FEN or of
    /// equality.
    pub reversible: u32,
}

impl PartialEq for Clocks {
    /// The clocks the FEN holds.
    fn eq(&self, other: &Self) -> bool {
        self.halfmove == other.halfmove && self.fullmove == other.fullmove
    }
}

impl Default for Clocks {
    fn default() -> Self {
        Clocks {
            halfmove: 0,
            fullmove: 1,
            reversible: 0,
        }
    }
}

impl Clocks {
    /// Reads the FEN's clock fields: the half-move clock and the move number (absent: 0 and 1;
    /// a move number of 0 counts as 1). Nothing before the FEN can repeat.
    pub fn read(halfmove: Option<&str>, fullmove: Option<&str>) -> Result<Clocks, String> {
        let mut c = Clocks::default();
        if let Some(s) = halfmove {
            c.halfmove = s
                .parse()
                .map_err(|_| format!("FEN half-move clock '{s}' is not a number"))?;
        }
        if let Some(s) = fullmove {
            c.fullmove = s
                .parse::<u32>()
                .map_err(|_| format!("FEN move number '{s}' is not a number"))?
                .max(1);
        }
        Ok(c)
    }

    /// The FEN's clock fields: `<halfmove> <fullmove>`.
    pub fn fen(&self) -> String {
        format!("{} {}", self.halfmove, self.fullmove)
    }

    /// A ply is played: one more on both counts. The counts saturate (a FEN may set the clock
    /// to `u32::MAX`).
    #[inline(always)]
    pub fn tick(&mut self) {
        self.halfmove = self.halfmove.saturating_add(1);
        self.reversible = self.reversible.saturating_add(1);
    }

    /// A capture or a pawn move where nothing else can undo a move (chess and its kin): both
    /// counts start again.
    #[inline(always)]
    pub fn restart(&mut self) {
        self.halfmove = 0;
        self.reversible = 0;
    }

    /// How many times the position with key `key` occurred before: among the last
    /// `reversible` of the `made` moves, every `step`-th position looking back (2 in a
    /// two-colour game, where only positions with the same side to move can be equal; 1 when
    /// the key alone decides). `key_before(i)` is the key of the position before the `i`-th
    /// move.
    pub fn repetitions(
        &self,
        key: u64,
        made: usize,
        step: usize,
        key_before: impl Fn(usize) -> u64,
    ) -> usize {
        (step..=(self.reversible as usize).min(made))
            .step_by(step)
            .filter(|&i| key_before(made - i) == key)
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_read_write_and_count() {
        let c = Clocks::read(Some("7"), Some("0")).unwrap();
        assert_eq!((c.halfmove, c.fullmove, c.fen()), (7, 1, "7 1".to_string()));
        assert_eq!(Clocks::read(None, None).unwrap(), Clocks::default());
        assert!(
            Clocks::read(Some("x"), None)
                .unwrap_err()
                .contains("half-move clock 'x'")
        );
        assert!(
            Clocks::read(None, Some("-1"))
                .unwrap_err()
                .contains("move number")
        );
        let mut c = Clocks {
            halfmove: u32::MAX,
            ..Clocks::default()
        };
        c.tick();
        assert_eq!((c.halfmove, c.reversible), (u32::MAX, 1));
        // Keys before moves 0..6: A B A B A B; now A again after 6 moves, all reversible.
        let keys = [1u64, 2, 1, 2, 1, 2];
        c.reversible = 6;
        assert_eq!(c.repetitions(1, 6, 2, |i| keys[i]), 3);
        c.reversible = 3;
        assert_eq!(c.repetitions(1, 6, 2, |i| keys[i]), 1);
        assert_eq!(c.repetitions(2, 6, 1, |i| keys[i]), 2);
    }
}
