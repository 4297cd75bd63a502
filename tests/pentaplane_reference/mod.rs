//! A second Pentaplane V move generator, written from `docs/variants/pentaplane.md` alone and
//! sharing nothing with the engine: its own board (a 5x5x5 array of letters), its own FEN
//! reader and writer, direction sets built by counting non-zero components, moves found by
//! walking coordinates step by step, and explosions resolved literally as the rules file's
//! three steps (grow the set of centres until nothing changes, then clear the union of their
//! cubes). It is slow on purpose: every move copies the board.
#![allow(dead_code)]

/// A cell as (x, y, z) = (file, rank, level), each 0..5.
pub type Coord = (i32, i32, i32);

/// A piece: its colour and its FEN letter in upper case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Man {
    pub white: bool,
    pub letter: char,
}

/// A move: an ordinary move (possibly a promotion) or a shot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RMove {
    pub from: Coord,
    pub to: Coord,
    pub shot: bool,
    pub promotes: bool,
}

/// The rules file's start position.
pub const START: &str =
    "5/5/5/5/5|ppppp/5/5/5/PPPPP|fnkso/ppppp/5/PPPPP/FNKSO|ppppp/5/5/5/PPPPP|5/5/5/5/5 w 0 1";

/// The name of a cell: level letter, file letter, rank number (`Cc1` = (2, 0, 2)).
pub fn name(c: Coord) -> String {
    format!(
        "{}{}{}",
        (b'A' + c.2 as u8) as char,
        (b'a' + c.0 as u8) as char,
        c.1 + 1
    )
}

impl RMove {
    /// The move in the rules file's notation.
    pub fn name(&self) -> String {
        if self.shot {
            format!("{}*{}", name(self.from), name(self.to))
        } else if self.promotes {
            format!("{}{}q", name(self.from), name(self.to))
        } else {
            format!("{}{}", name(self.from), name(self.to))
        }
    }
}

fn on_board(c: Coord) -> bool {
    (0..5).contains(&c.0) && (0..5).contains(&c.1) && (0..5).contains(&c.2)
}

fn add(c: Coord, d: Coord) -> Coord {
    (c.0 + d.0, c.1 + d.1, c.2 + d.2)
}

/// Every vector of {-1, 0, 1}^3 with exactly `nonzero` non-zero components: 1 gives the rook
/// directions, 2 the bishop directions, 3 the cube directions.
fn unit_vectors(nonzero: usize) -> Vec<Coord> {
    let mut v = Vec::new();
    for dx in -1..=1 {
        for dy in -1..=1 {
            for dz in -1..=1 {
                let n = [dx, dy, dz].iter().filter(|&&a| a != 0).count();
                if n == nonzero {
                    v.push((dx, dy, dz));
                }
            }
        }
    }
    v
}

fn rook() -> Vec<Coord> {
    unit_vectors(1)
}
fn bishop() -> Vec<Coord> {
    unit_vectors(2)
}
fn cube() -> Vec<Coord> {
    unit_vectors(3)
}
fn all() -> Vec<Coord> {
    let mut v = rook();
    v.extend(bishop());
    v.extend(cube());
    v
}

/// The 24 knight leaps: every vector whose absolute components are 0, 1 and 2 in some order.
fn knight() -> Vec<Coord> {
    let mut v = Vec::new();
    for dx in -2i32..=2 {
        for dy in -2i32..=2 {
            for dz in -2i32..=2 {
                let mut a = [dx.abs(), dy.abs(), dz.abs()];
                a.sort();
                if a == [0, 1, 2] {
                    v.push((dx, dy, dz));
                }
            }
        }
    }
    v
}

/// Whether `e` lies in the blast cube of `c`.
fn in_cube(c: Coord, e: Coord) -> bool {
    (e.0 - c.0).abs() <= 1 && (e.1 - c.1).abs() <= 1 && (e.2 - c.2).abs() <= 1
}

fn every_cell() -> Vec<Coord> {
    let mut v = Vec::new();
    for z in 0..5 {
        for y in 0..5 {
            for x in 0..5 {
                v.push((x, y, z));
            }
        }
    }
    v
}

/// A position: the pieces and the side to move (clocks play no part in perft).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pos {
    cells: [[[Option<Man>; 5]; 5]; 5],
    pub white_to_move: bool,
}

impl Pos {
    /// Reads the placement and side fields of a FEN (the reference trusts its input).
    pub fn from_fen(fen: &str) -> Pos {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let mut p = Pos {
            cells: [[[None; 5]; 5]; 5],
            white_to_move: fields[1] == "w",
        };
        for (z, level) in fields[0].split('|').enumerate() {
            for (i, rank) in level.split('/').enumerate() {
                let y = 4 - i as i32;
                let mut x = 0;
                for ch in rank.chars() {
                    if let Some(d) = ch.to_digit(10) {
                        x += d as i32;
                    } else {
                        p.set(
                            (x, y, z as i32),
                            Some(Man {
                                white: ch.is_ascii_uppercase(),
                                letter: ch.to_ascii_uppercase(),
                            }),
                        );
                        x += 1;
                    }
                }
                assert_eq!(x, 5, "reference FEN reader: bad rank in {fen}");
            }
        }
        p
    }

    /// The placement and side as a FEN (clocks `0 1`).
    pub fn to_fen(&self) -> String {
        let mut levels = Vec::new();
        for z in 0..5 {
            let mut ranks = Vec::new();
            for y in (0..5).rev() {
                let mut s = String::new();
                let mut empty = 0;
                for x in 0..5 {
                    match self.get((x, y, z)) {
                        None => empty += 1,
                        Some(m) => {
                            if empty > 0 {
                                s.push_str(&empty.to_string());
                                empty = 0;
                            }
                            s.push(if m.white {
                                m.letter
                            } else {
                                m.letter.to_ascii_lowercase()
                            });
                        }
                    }
                }
                if empty > 0 {
                    s.push_str(&empty.to_string());
                }
                ranks.push(s);
            }
            levels.push(ranks.join("/"));
        }
        format!(
            "{} {} 0 1",
            levels.join("|"),
            if self.white_to_move { "w" } else { "b" }
        )
    }

    /// An empty board, White to move.
    pub fn empty() -> Pos {
        Pos {
            cells: [[[None; 5]; 5]; 5],
            white_to_move: true,
        }
    }

    pub fn get(&self, c: Coord) -> Option<Man> {
        self.cells[c.2 as usize][c.1 as usize][c.0 as usize]
    }

    pub fn set(&mut self, c: Coord, m: Option<Man>) {
        self.cells[c.2 as usize][c.1 as usize][c.0 as usize] = m;
    }

    /// Number of pieces on the board.
    pub fn count(&self) -> usize {
        every_cell()
            .into_iter()
            .filter(|&c| self.get(c).is_some())
            .count()
    }

    /// Whether `white`'s King is on the board.
    pub fn has_king(&self, white: bool) -> bool {
        every_cell()
            .into_iter()
            .any(|c| self.get(c) == Some(Man { white, letter: 'K' }))
    }

    /// Every legal move: none once a King is gone, otherwise every move the piece rules allow
    /// (there is no check rule).
    pub fn moves(&self) -> Vec<RMove> {
        let mut out = Vec::new();
        if !self.has_king(true) || !self.has_king(false) {
            return out;
        }
        let us = self.white_to_move;
        let own = |c: Coord| self.get(c).is_some_and(|m| m.white == us);
        let enemy = |c: Coord| self.get(c).is_some_and(|m| m.white != us);
        for from in every_cell() {
            let Some(man) = self.get(from) else { continue };
            if man.white != us {
                continue;
            }
            let mut push = |to: Coord, shot: bool, promotes: bool| {
                out.push(RMove {
                    from,
                    to,
                    shot,
                    promotes,
                })
            };
            // One step (or leap) onto an empty cell or an enemy piece.
            let steps = |dirs: Vec<Coord>, push: &mut dyn FnMut(Coord, bool, bool)| {
                for d in dirs {
                    let to = add(from, d);
                    if on_board(to) && !own(to) {
                        push(to, false, false);
                    }
                }
            };
            let slides = |dirs: Vec<Coord>, push: &mut dyn FnMut(Coord, bool, bool)| {
                for d in dirs {
                    let mut to = add(from, d);
                    while on_board(to) {
                        if self.get(to).is_none() {
                            push(to, false, false);
                        } else {
                            if enemy(to) {
                                push(to, false, false);
                            }
                            break;
                        }
                        to = add(to, d);
                    }
                }
            };
            // A missile flies over empty cells to the first piece: an enemy or any Bomb.
            let shots = |dirs: Vec<Coord>, push: &mut dyn FnMut(Coord, bool, bool)| {
                for d in dirs {
                    let mut to = add(from, d);
                    while on_board(to) && self.get(to).is_none() {
                        to = add(to, d);
                    }
                    if on_board(to) {
                        let hit = self.get(to).expect("stopped on a piece");
                        if hit.white != us || hit.letter == 'O' {
                            push(to, true, false);
                        }
                    }
                }
            };
            match man.letter {
                'K' => steps(all(), &mut push),
                'N' => steps(knight(), &mut push),
                'R' => slides(rook(), &mut push),
                'B' => slides(bishop(), &mut push),
                'C' => slides(cube(), &mut push),
                'Q' => slides(all(), &mut push),
                'Z' => {
                    let mut dirs = rook();
                    dirs.extend(bishop());
                    slides(dirs, &mut push)
                }
                'F' => {
                    steps(rook(), &mut push);
                    shots(rook(), &mut push);
                }
                'M' => {
                    steps(bishop(), &mut push);
                    shots(bishop(), &mut push);
                }
                'S' => {
                    steps(cube(), &mut push);
                    shots(cube(), &mut push);
                }
                'O' => steps(rook(), &mut push),
                'P' => {
                    let promotion_rank = if us { 4 } else { 0 };
                    for d in rook() {
                        let to = add(from, d);
                        if on_board(to) && self.get(to).is_none() {
                            push(to, false, to.2 == 2 && to.1 == promotion_rank);
                        }
                    }
                    for d in bishop() {
                        let to = add(from, d);
                        if on_board(to) && enemy(to) {
                            push(to, false, to.2 == 2 && to.1 == promotion_rank);
                        }
                    }
                }
                other => panic!("reference: unknown piece letter {other}"),
            }
        }
        out
    }

    /// The position after `m`, following "Resolving an explosion" step by step.
    pub fn play(&self, m: &RMove) -> Pos {
        let mut b = self.clone();
        b.white_to_move = !self.white_to_move;
        let mut centre = None;
        // Step 1: the move's ordinary effects.
        if m.shot {
            let hit = b.get(m.to).expect("a shot hits a piece");
            b.set(m.to, None);
            if hit.letter == 'O' {
                centre = Some(m.to);
            }
        } else {
            let mover = b.get(m.from).expect("a move starts from a piece");
            b.set(m.from, None);
            let captured = b.get(m.to);
            b.set(m.to, None);
            if let Some(cap) = captured
                && (mover.letter == 'O' || cap.letter == 'O')
            {
                centre = Some(m.to);
            }
            let lands = if m.promotes {
                Man {
                    white: mover.white,
                    letter: 'Q',
                }
            } else {
                mover
            };
            let kamikaze_capture = mover.letter == 'Z' && captured.is_some();
            if !kamikaze_capture {
                b.set(m.to, Some(lands));
            }
        }
        // Step 2: grow the set of centres with every Bomb in the cube of a centre.
        if let Some(c0) = centre {
            let mut centres = vec![c0];
            loop {
                let before = centres.len();
                for e in every_cell() {
                    let is_bomb = b.get(e).is_some_and(|x| x.letter == 'O');
                    if is_bomb && !centres.contains(&e) && centres.iter().any(|&c| in_cube(c, e)) {
                        centres.push(e);
                    }
                }
                if centres.len() == before {
                    break;
                }
            }
            // Step 3: clear the union of the cubes.
            for e in every_cell() {
                if centres.iter().any(|&c| in_cube(c, e)) {
                    b.set(e, None);
                }
            }
        }
        b
    }

    /// The move called `s`, if legal (a promotion may omit its `q`).
    pub fn find(&self, s: &str) -> Option<RMove> {
        self.moves()
            .into_iter()
            .find(|m| m.name() == s || (m.promotes && format!("{s}q") == m.name()))
    }

    /// Leaves of the legal-move tree of depth `depth`.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|m| self.play(m).perft(depth - 1)).sum()
    }
}
