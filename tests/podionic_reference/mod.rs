//! A second Podionic Chess move generator, written from the rules file alone
//! (`docs/variants/podionic.md`; the rules file, transcribed): cells are (level, file, rank)
//! triples tested against the level table, sliders follow the file's `explore`/`enter`
//! pseudocode literally, pawns walk the lane lists as the file prints them (the engine uses
//! the per-cell formula instead), the Knight's level leap is coded as the file words it, and a
//! move is legal when no enemy move lands on the King afterwards. It reads FEN itself and
//! shares no table or code with the engine; it is slow and meant to be obviously right.

use std::collections::BTreeSet;

/// A cell: level 0..4 (A..D), file x 0..7, rank y 0..7.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Hash)]
pub struct Sq {
    pub z: i32,
    pub x: i32,
    pub y: i32,
}

/// (first file, last file, first rank, last rank) of levels A, B, C, D.
const LEVELS: [(i32, i32, i32, i32); 4] = [(0, 3, 3, 6), (3, 6, 3, 6), (3, 6, 0, 3), (0, 3, 0, 3)];

pub fn exists(z: i32, x: i32, y: i32) -> bool {
    if !(0..4).contains(&z) {
        return false;
    }
    let (x0, x1, y0, y1) = LEVELS[z as usize];
    (x0..=x1).contains(&x) && (y0..=y1).contains(&y)
}

pub fn all_cells() -> Vec<Sq> {
    let mut v = Vec::new();
    for z in 0..4 {
        for y in 0..7 {
            for x in 0..7 {
                if exists(z, x, y) {
                    v.push(Sq { z, x, y });
                }
            }
        }
    }
    v
}

/// The levels covering footprint square (x, y), top (A) to bottom (D).
fn stack(x: i32, y: i32) -> Vec<i32> {
    (0..4).filter(|&z| exists(z, x, y)).collect()
}

fn overlapping(x: i32, y: i32) -> bool {
    stack(x, y).len() >= 2
}

/// The cell of the next level up in the stack of c's square.
pub fn up(c: Sq) -> Option<Sq> {
    let s = stack(c.x, c.y);
    let i = s.iter().position(|&z| z == c.z)?;
    (i > 0).then(|| Sq { z: s[i - 1], ..c })
}

/// The cell of the next level down in the stack of c's square.
pub fn down(c: Sq) -> Option<Sq> {
    let s = stack(c.x, c.y);
    let i = s.iter().position(|&z| z == c.z)?;
    s.get(i + 1).map(|&z| Sq { z, ..c })
}

/// A planar step: same level, never wrapping.
pub fn planar(c: Sq, d: (i32, i32)) -> Option<Sq> {
    let (x, y) = (c.x + d.0, c.y + d.1);
    exists(c.z, x, y).then_some(Sq { z: c.z, x, y })
}

pub fn name(c: Sq) -> String {
    format!(
        "{}{}{}",
        (b'A' + c.z as u8) as char,
        (b'a' + c.x as u8) as char,
        c.y + 1
    )
}

pub fn parse(s: &str) -> Sq {
    let b = s.as_bytes();
    let c = Sq {
        z: (b[0] - b'A') as i32,
        x: (b[1] - b'a') as i32,
        y: (b[2] - b'1') as i32,
    };
    assert!(s.len() == 3 && exists(c.z, c.x, c.y), "bad cell {s}");
    c
}

const ROOK: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
const QUEEN: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (-1, 1),
    (1, -1),
    (-1, -1),
];

/// The lanes exactly as the rules file lists them (White walks left to right).
const LANES: [&str; 4] = [
    "Da1 Db1 Dc1 Dd1 Cd1 Ce1 Cf1 Cg1 Cg2 Cg3 Cg4 Bg4 Bg5 Bg6 Bg7 Bf7 Be7 Bd7 Ad7 Ac7 Ab7 Aa7",
    "Da2 Db2 Dc2 Dd2 Cd2 Ce2 Cf2 Cf3 Cf4 Bf4 Bf5 Bf6 Be6 Bd6 Ad6 Ac6 Ab6 Aa6",
    "Da3 Db3 Dc3 Dd3 Cd3 Ce3 Ce4 Be4 Be5 Bd5 Ad5 Ac5 Ab5 Aa5",
    "Da4 Db4 Dc4 Dd4 Cd4 Bd4 Ad4 Ac4 Ab4 Aa4",
];

const START: [&str; 16] = [
    "Db1", "Db2", "Db3", "Db4", "Dd4", "Cg1", "Cf2", "Ce3", // White
    "Ab7", "Ab6", "Ab5", "Ab4", "Ad4", "Bg7", "Bf6", "Be5", // Black
];

fn lane_of(c: Sq) -> (Vec<Sq>, usize) {
    for l in LANES {
        let cells: Vec<Sq> = l.split(' ').map(parse).collect();
        if let Some(i) = cells.iter().position(|&s| s == c) {
            return (cells, i);
        }
    }
    panic!("{} is in no lane", name(c))
}

/// The next cell of c's lane in the walking order of the colour, if any.
fn forward(c: Sq, white: bool) -> Option<Sq> {
    let (lane, i) = lane_of(c);
    if white {
        lane.get(i + 1).copied()
    } else {
        i.checked_sub(1).map(|j| lane[j])
    }
}

/// Whether c is the last cell of its lane in the colour's walking order.
fn lane_end(c: Sq, white: bool) -> bool {
    forward(c, white).is_none()
}

/// A position: pieces as FEN letters, and the side to move.
#[derive(Clone)]
pub struct Pos {
    pub cells: std::collections::BTreeMap<Sq, char>,
    pub white: bool,
}

/// A move: from, to, promotion letter.
pub type Mv = (Sq, Sq, Option<char>);

pub fn move_name(m: &Mv) -> String {
    let mut s = format!("{}{}", name(m.0), name(m.1));
    if let Some(p) = m.2 {
        s.push(p);
    }
    s
}

impl Pos {
    /// Reads the placement and side of a FEN (clocks are irrelevant to moves).
    pub fn from_fen(fen: &str) -> Pos {
        let mut f = fen.split_whitespace();
        let placement = f.next().unwrap();
        let white = f.next().unwrap() == "w";
        let mut cells = std::collections::BTreeMap::new();
        for (z, level) in placement.split('|').enumerate() {
            let (x0, _, _, y1) = LEVELS[z];
            for (i, rank) in level.split('/').enumerate() {
                let y = y1 - i as i32;
                let mut x = x0;
                for ch in rank.chars() {
                    if let Some(d) = ch.to_digit(10) {
                        x += d as i32;
                    } else {
                        assert!(exists(z as i32, x, y));
                        cells.insert(Sq { z: z as i32, x, y }, ch);
                        x += 1;
                    }
                }
            }
        }
        Pos { cells, white }
    }

    fn at(&self, c: Sq) -> Option<char> {
        self.cells.get(&c).copied()
    }

    fn is_white(p: char) -> bool {
        p.is_ascii_uppercase()
    }

    fn empty(&self, c: Sq) -> bool {
        self.at(c).is_none()
    }

    fn enemy_of(&self, c: Sq, white: bool) -> bool {
        self.at(c).is_some_and(|p| Self::is_white(p) != white)
    }

    /// The rules file's slider generator.
    fn slider(&self, start: Sq, dirs: &[(i32, i32)], white: bool) -> BTreeSet<Sq> {
        let mut targets = BTreeSet::new();
        self.explore(start, None, 0, white, &mut targets);
        for &d in dirs {
            self.explore(start, Some(d), 0, white, &mut targets);
        }
        targets
    }

    fn explore(&self, c: Sq, d: Option<(i32, i32)>, last: i32, white: bool, t: &mut BTreeSet<Sq>) {
        if last != -1
            && let Some(u) = up(c)
        {
            self.enter(u, d, 1, white, t);
        }
        if last != 1
            && let Some(n) = down(c)
        {
            self.enter(n, d, -1, white, t);
        }
        if let Some(dd) = d
            && let Some(p) = planar(c, dd)
        {
            self.enter(p, d, 0, white, t);
        }
    }

    fn enter(&self, n: Sq, d: Option<(i32, i32)>, v: i32, white: bool, t: &mut BTreeSet<Sq>) {
        if self.empty(n) {
            t.insert(n);
            self.explore(n, d, v, white, t);
        } else if self.enemy_of(n, white) {
            t.insert(n);
        }
    }

    /// Every move of the side `white` that ignores its own King's safety.
    pub fn pseudo(&self, white: bool) -> Vec<Mv> {
        let mut out = Vec::new();
        for (&from, &p) in &self.cells {
            if Self::is_white(p) != white {
                continue;
            }
            let ok = |to: Sq| self.at(to).is_none_or(|q| Self::is_white(q) != white);
            let mut to_cells: Vec<Sq> = Vec::new();
            match p.to_ascii_uppercase() {
                'K' => {
                    to_cells.extend(QUEEN.iter().filter_map(|&d| planar(from, d)));
                    to_cells.extend(up(from));
                    to_cells.extend(down(from));
                }
                'N' => {
                    for (dx, dy) in [
                        (1, 2),
                        (2, 1),
                        (-1, 2),
                        (-2, 1),
                        (1, -2),
                        (2, -1),
                        (-1, -2),
                        (-2, -1),
                    ] {
                        to_cells.extend(planar(from, (dx, dy)));
                    }
                    // Level leap: (±2,0)/(0,±2) to a square of the own level that is an
                    // overlapping square; land on the adjoining level above or below.
                    for d in [(2, 0), (-2, 0), (0, 2), (0, -2)] {
                        if let Some(s) = planar(from, d)
                            && overlapping(s.x, s.y)
                        {
                            to_cells.extend(up(s));
                            to_cells.extend(down(s));
                        }
                    }
                }
                'R' => to_cells.extend(self.slider(from, &ROOK, white)),
                'B' => to_cells.extend(self.slider(from, &BISHOP, white)),
                'Q' => to_cells.extend(self.slider(from, &QUEEN, white)),
                'P' => {
                    let f = forward(from, white).expect("a pawn is never on its lane end");
                    if self.empty(f) {
                        to_cells.push(f);
                    }
                    if f.z != from.z {
                        // Hand-over square: straight capture onto the forward cell.
                        if self.enemy_of(f, white) {
                            to_cells.push(f);
                        }
                    } else {
                        let (fx, fy) = (f.x - from.x, f.y - from.y);
                        for s in [1, -1] {
                            if let Some(c) = planar(f, (fy * s, fx * s))
                                && self.enemy_of(c, white)
                            {
                                to_cells.push(c);
                            }
                        }
                        let first = if white { 0 } else { 8 };
                        if START[first..first + 8].contains(&name(from).as_str())
                            && self.empty(f)
                            && let Some(g) = forward(f, white)
                            && g.z == f.z
                            && (g.x - f.x, g.y - f.y) == (fx, fy)
                            && self.empty(g)
                        {
                            to_cells.push(g);
                        }
                    }
                    for to in to_cells.drain(..) {
                        if lane_end(to, white) {
                            for q in ['q', 'r', 'b', 'n'] {
                                out.push((from, to, Some(q)));
                            }
                        } else {
                            out.push((from, to, None));
                        }
                    }
                }
                other => panic!("unknown piece {other}"),
            }
            for to in to_cells {
                if ok(to) {
                    out.push((from, to, None));
                }
            }
        }
        out
    }

    pub fn play(&self, m: &Mv) -> Pos {
        let mut p = self.clone();
        let mut piece = p.cells.remove(&m.0).unwrap();
        if let Some(q) = m.2 {
            piece = if self.white {
                q.to_ascii_uppercase()
            } else {
                q
            };
        }
        p.cells.insert(m.1, piece);
        p.white = !self.white;
        p
    }

    /// Whether the King of `white` is attacked: some enemy move lands on it.
    pub fn king_attacked(&self, white: bool) -> bool {
        let king = if white { 'K' } else { 'k' };
        let Some((&k, _)) = self.cells.iter().find(|e| *e.1 == king) else {
            return true;
        };
        self.pseudo(!white).iter().any(|m| m.1 == k)
    }

    pub fn legal(&self) -> Vec<Mv> {
        self.pseudo(self.white)
            .into_iter()
            .filter(|m| !self.play(m).king_attacked(self.white))
            .collect()
    }

    pub fn legal_names(&self) -> BTreeSet<String> {
        self.legal().iter().map(move_name).collect()
    }

    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|m| self.play(m).perft(depth - 1)).sum()
    }

    /// The cells a lone piece `p` on `from` reaches on an otherwise empty board.
    pub fn lone_targets(p: char, from: Sq) -> BTreeSet<String> {
        let mut cells = std::collections::BTreeMap::new();
        cells.insert(from, p);
        let pos = Pos {
            cells,
            white: Self::is_white(p),
        };
        pos.pseudo(pos.white).iter().map(|m| name(m.1)).collect()
    }
}
