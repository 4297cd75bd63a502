//! Built-in opponents for sanity matches in any variant, without another engine: a random
//! mover and a one-ply greedy player. They play in-process, through the same referee as
//! engine processes (the [`Player`] trait).

use std::time::Instant;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::args::BuiltinKind;
use super::player::{Answer, EngineScore, Player, Reply, SearchInfo, Turn};
use crate::eval::Evaluate;
use crate::rules::board::MAX_CELLS;
use crate::rules::{AnyGame, Game, GameEnd, Move, MoveList};
use crate::with_game;

/// A built-in player.
pub struct Builtin {
    kind: BuiltinKind,
    name: String,
    seed: u64,
    rng: StdRng,
}

impl Builtin {
    /// A player of `kind`; its moves depend only on `seed` and the game number.
    pub fn new(kind: BuiltinKind, name: &str, seed: u64) -> Self {
        Builtin {
            kind,
            name: name.to_string(),
            seed,
            rng: StdRng::seed_from_u64(seed),
        }
    }
}

/// Material of `team` minus the other team's, by the variant's own piece values, over every
/// cell the board may have (cells a variant does not use are empty).
fn material<G: Evaluate>(g: &G, team: usize) -> i32 {
    (0..MAX_CELLS)
        .map(|c| g.piece_at(c))
        .filter(|p| p.is_some())
        .map(|p| {
            let v = g.piece_value(p);
            if p.colour().team() == team { v } else { -v }
        })
        .sum()
}

/// The greedy choice: a move that wins the game at once if there is one, else a move that
/// leaves the most material (by applying it and counting, so explosions and shots count),
/// ties broken at random. Returns the move and its material balance in centipawns (`None`
/// for a winning move).
fn greedy_move(game: &AnyGame, rng: &mut StdRng) -> Option<(Move, Option<i32>)> {
    let mut list = MoveList::new();
    game.generate(&mut list);
    let team = game.team_to_move();
    let mut wins = Vec::new();
    let mut best = Vec::new();
    let mut best_value = i32::MIN;
    for &m in list.iter() {
        let mut child = game.clone();
        child.make(m);
        if let Some(GameEnd::Win { winner, .. }) = child.outcome()
            && winner == team
        {
            wins.push(m);
            continue;
        }
        let value = with_game!(&child, g => material(g, team));
        if value > best_value {
            best_value = value;
            best.clear();
        }
        if value == best_value {
            best.push(m);
        }
    }
    if !wins.is_empty() {
        return Some((wins[rng.gen_range(0..wins.len())], None));
    }
    if best.is_empty() {
        return None;
    }
    Some((best[rng.gen_range(0..best.len())], Some(best_value)))
}

impl Player for Builtin {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, game_id: u64) -> Result<(), String> {
        self.rng = StdRng::seed_from_u64(self.seed ^ game_id.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        Ok(())
    }

    fn think(&mut self, turn: &Turn) -> Answer {
        let start = Instant::now();
        let game = turn.game;
        let mut info = SearchInfo::default();
        let choice = match self.kind {
            BuiltinKind::Random => {
                let mut list = MoveList::new();
                game.generate(&mut list);
                (!list.is_empty()).then(|| list.as_slice()[self.rng.gen_range(0..list.len())])
            }
            BuiltinKind::Greedy => greedy_move(game, &mut self.rng).map(|(m, value)| {
                info.depth = Some(1);
                info.score = Some(match value {
                    Some(v) => EngineScore::Cp(v),
                    None => EngineScore::Mate(1),
                });
                m
            }),
        };
        Answer {
            // With no legal move the referee never asks; answer like an engine would.
            reply: Reply::Move(choice.map_or("(none)".to_string(), |m| game.move_name(m))),
            elapsed: start.elapsed(),
            info,
        }
    }

    fn recover(&mut self) -> Result<(), String> {
        Ok(())
    }

    fn restart(&mut self) -> Result<(), String> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;
    use std::time::Duration;

    fn ask(p: &mut Builtin, g: &AnyGame) -> Answer {
        p.think(&Turn {
            game: g,
            position: "",
            go: "",
            wait: Duration::from_secs(1),
        })
    }

    #[test]
    fn greedy_takes_the_queen_and_mates_first() {
        let mut p = Builtin::new(BuiltinKind::Greedy, "greedy", 7);
        p.new_game(1).unwrap();
        // A hanging queen on d5.
        let g = AnyGame::from_fen(Variant::Chess, "4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1").unwrap();
        assert_eq!(ask(&mut p, &g).reply, Reply::Move("e4d5".into()));
        // Mate in one beats winning the knight.
        let g =
            AnyGame::from_fen(Variant::Chess, "6k1/5ppp/8/3n3q/4P3/8/8/R5K1 w - - 0 1").unwrap();
        let a = ask(&mut p, &g);
        assert_eq!(a.reply, Reply::Move("a1a8".into()));
        assert_eq!(a.info.score, Some(EngineScore::Mate(1)));
    }

    #[test]
    fn random_is_legal_and_seeded() {
        let g = AnyGame::startpos(Variant::Pole);
        let mut a = Builtin::new(BuiltinKind::Random, "r", 3);
        let mut b = Builtin::new(BuiltinKind::Random, "r", 3);
        a.new_game(5).unwrap();
        b.new_game(5).unwrap();
        for _ in 0..10 {
            let (x, y) = (ask(&mut a, &g).reply, ask(&mut b, &g).reply);
            assert_eq!(x, y);
            let Reply::Move(m) = x else { panic!() };
            assert!(g.parse_move(&m).is_ok());
        }
    }
}
