//! Who sits where: the colours of a variant, the teams they form, and how the two engines of
//! a match rotate through the seats.
//!
//! Games are played in pairs on the same opening. In the first game of a pair the first
//! engine plays team 0 (White, and Gold in the four-colour variant) and the second engine
//! team 1 (Black, and Silver); in the second game they swap. Over a pair each engine
//! therefore plays every seat exactly once: in a two-colour variant that is the usual colour
//! swap; in the four-colour variant the first engine plays White+Gold and then Black+Silver.
//! An engine controls both colours of its team from one process (the position tells it which
//! colour is to move, and `go` carries all four clocks).

use crate::rules::Variant;
use crate::rules::piece::Colour;

/// The engine (0 or 1) in each seat (colour index) for game `index` (0-based) of a match.
pub fn seats(variant: Variant, index: usize) -> Vec<usize> {
    let swap = index % 2;
    (0..variant.colours())
        .map(|c| Colour(c as u8).team() ^ swap)
        .collect()
}

/// The team engine `engine` plays under a seating.
pub fn team_of(seats: &[usize], engine: usize) -> usize {
    let c = seats.iter().position(|&e| e == engine).unwrap_or(0);
    Colour(c as u8).team()
}

/// A team's name: its colours joined, `White` or `Black` in a two-colour game,
/// `White/Gold` or `Black/Silver` in the four-colour one.
pub fn team_name(colours: usize, team: usize) -> String {
    (0..colours)
        .map(|c| Colour(c as u8))
        .filter(|c| c.team() == team)
        .map(|c| c.name())
        .collect::<Vec<_>>()
        .join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_engine_plays_each_seat_once_per_pair() {
        for v in Variant::ALL {
            let n = v.colours();
            for engine in 0..2 {
                for seat in 0..n {
                    let times = (0..2).filter(|&g| seats(v, g)[seat] == engine).count();
                    assert_eq!(times, 1, "{} seat {seat} engine {engine}", v.name());
                }
            }
        }
        assert_eq!(seats(Variant::FutureGeneration, 0), vec![0, 1, 0, 1]);
        assert_eq!(seats(Variant::FutureGeneration, 1), vec![1, 0, 1, 0]);
        assert_eq!(seats(Variant::Chess, 1), vec![1, 0]);
        assert_eq!(team_of(&seats(Variant::Chess, 1), 0), 1);
        assert_eq!(team_name(4, 1), "Black/Silver");
        assert_eq!(team_name(2, 0), "White");
    }
}
