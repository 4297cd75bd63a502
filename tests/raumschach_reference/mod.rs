//! A second Raumschach move generator, written from the rules file alone
//! (`docs/variants/raumschach.md`). It knows nothing of the engine: cells are (x, y, z) in
//! 0..5, the board is a 125-letter array, the pieces' moves are written out from the rules
//! file's tables, every move is tried on a copy, and check is found by asking every enemy
//! piece whether it reaches the King. It is slow and meant to be obviously correct.

/// (x = file, y = rank, z = level), each 0..5.
pub type Sq = (i32, i32, i32);

pub fn on_board((x, y, z): Sq) -> bool {
    (0..5).contains(&x) && (0..5).contains(&y) && (0..5).contains(&z)
}

fn add(a: Sq, v: Sq) -> Sq {
    (a.0 + v.0, a.1 + v.1, a.2 + v.2)
}

pub fn name((x, y, z): Sq) -> String {
    format!(
        "{}{}{}",
        (b'A' + z as u8) as char,
        (b'a' + x as u8) as char,
        y + 1
    )
}

/// "exactly one component is ±1" (1), "exactly two" (2), "(±1, ±1, ±1)" (3).
fn units(nonzero: usize) -> Vec<Sq> {
    let mut out = Vec::new();
    for x in -1..=1 {
        for y in -1..=1 {
            for z in -1..=1 {
                let n = [x, y, z].iter().filter(|&&c| c != 0).count();
                if n == nonzero {
                    out.push((x, y, z));
                }
            }
        }
    }
    out
}

/// "every permutation of (0, ±1, ±2)".
fn knight() -> Vec<Sq> {
    let mut out = Vec::new();
    for a in [-1, 1] {
        for b in [-2, 2] {
            for v in [
                (0, a, b),
                (0, b, a),
                (a, 0, b),
                (b, 0, a),
                (a, b, 0),
                (b, a, 0),
            ] {
                out.push(v);
            }
        }
    }
    out
}

fn slides(p: u8) -> Vec<Sq> {
    match p.to_ascii_uppercase() {
        b'R' => units(1),
        b'B' => units(2),
        b'U' => units(3),
        b'Q' => [units(1), units(2), units(3)].concat(),
        _ => vec![],
    }
}

/// A pawn's steps and captures: White's as written, Black's negated in y and z.
fn pawn(white: bool) -> (Vec<Sq>, Vec<Sq>) {
    let s = if white { 1 } else { -1 };
    let steps = vec![(0, s, 0), (0, 0, s)];
    let caps = vec![(-1, s, 0), (1, s, 0), (-1, 0, s), (1, 0, s), (0, s, s)];
    (steps, caps)
}

#[derive(Clone)]
pub struct Pos {
    cells: [u8; 125],
    white: bool,
}

#[derive(Clone, Debug)]
pub struct Mv {
    from: Sq,
    to: Sq,
    promo: Option<u8>,
}

impl Mv {
    pub fn name(&self) -> String {
        let mut s = format!("{}{}", name(self.from), name(self.to));
        if let Some(p) = self.promo {
            s.push(p.to_ascii_lowercase() as char);
        }
        s
    }
}

fn idx((x, y, z): Sq) -> usize {
    (z * 25 + y * 5 + x) as usize
}

impl Pos {
    pub fn at(&self, s: Sq) -> u8 {
        self.cells[idx(s)]
    }

    /// "Placement has five level groups separated by |, A first; each level has five
    /// ranks separated by /, rank 5 first; a digit is that many empty cells."
    pub fn from_fen(fen: &str) -> Pos {
        let mut f = fen.split_whitespace();
        let placement = f.next().unwrap();
        let mut cells = [b'.'; 125];
        for (z, level) in placement.split('|').enumerate() {
            for (r, rank) in level.split('/').enumerate() {
                let y = 4 - r as i32;
                let mut x = 0;
                for ch in rank.bytes() {
                    if ch.is_ascii_digit() {
                        x += (ch - b'0') as i32;
                    } else {
                        cells[idx((x, y, z as i32))] = ch;
                        x += 1;
                    }
                }
            }
        }
        Pos {
            cells,
            white: f.next() == Some("w"),
        }
    }

    fn mine(&self, p: u8, white: bool) -> bool {
        p != b'.' && p.is_ascii_uppercase() == white
    }

    /// Whether `target` is attacked by the side `white`.
    pub fn attacked(&self, target: Sq, white: bool) -> bool {
        for i in 0..125 {
            let p = self.cells[i];
            if !self.mine(p, white) {
                continue;
            }
            let from = ((i % 5) as i32, ((i / 5) % 5) as i32, (i / 25) as i32);
            if self.reaches(from, p, target) {
                return true;
            }
        }
        false
    }

    /// Whether piece `p` on `from` could capture on `target`.
    fn reaches(&self, from: Sq, p: u8, target: Sq) -> bool {
        match p.to_ascii_uppercase() {
            b'K' => [units(1), units(2), units(3)]
                .concat()
                .into_iter()
                .any(|v| add(from, v) == target),
            b'N' => knight().into_iter().any(|v| add(from, v) == target),
            b'P' => pawn(p.is_ascii_uppercase())
                .1
                .into_iter()
                .any(|v| add(from, v) == target),
            _ => slides(p).into_iter().any(|v| {
                let mut s = add(from, v);
                while on_board(s) {
                    if s == target {
                        return true;
                    }
                    if self.at(s) != b'.' {
                        return false;
                    }
                    s = add(s, v);
                }
                false
            }),
        }
    }

    fn promotes(&self, to: Sq, white: bool) -> bool {
        if white {
            to.1 == 4 && to.2 == 4
        } else {
            to.1 == 0 && to.2 == 0
        }
    }

    fn push(&self, from: Sq, to: Sq, pawn: bool, out: &mut Vec<Mv>) {
        if pawn && self.promotes(to, self.white) {
            for p in [b'Q', b'R', b'B', b'N', b'U'] {
                out.push(Mv {
                    from,
                    to,
                    promo: Some(p),
                });
            }
        } else {
            out.push(Mv {
                from,
                to,
                promo: None,
            });
        }
    }

    fn pseudo(&self) -> Vec<Mv> {
        let mut out = Vec::new();
        for i in 0..125 {
            let p = self.cells[i];
            if !self.mine(p, self.white) {
                continue;
            }
            let from = ((i % 5) as i32, ((i / 5) % 5) as i32, (i / 25) as i32);
            let free = |s: Sq| on_board(s) && self.at(s) == b'.';
            let enemy = |s: Sq| on_board(s) && self.mine(self.at(s), !self.white);
            match p.to_ascii_uppercase() {
                b'P' => {
                    let (steps, caps) = pawn(self.white);
                    for v in steps {
                        if free(add(from, v)) {
                            self.push(from, add(from, v), true, &mut out);
                        }
                    }
                    for v in caps {
                        if enemy(add(from, v)) {
                            self.push(from, add(from, v), true, &mut out);
                        }
                    }
                }
                b'K' | b'N' => {
                    let vs = if p.eq_ignore_ascii_case(&b'K') {
                        [units(1), units(2), units(3)].concat()
                    } else {
                        knight()
                    };
                    for v in vs {
                        let t = add(from, v);
                        if free(t) || enemy(t) {
                            self.push(from, t, false, &mut out);
                        }
                    }
                }
                _ => {
                    for v in slides(p) {
                        let mut t = add(from, v);
                        while free(t) {
                            self.push(from, t, false, &mut out);
                            t = add(t, v);
                        }
                        if enemy(t) {
                            self.push(from, t, false, &mut out);
                        }
                    }
                }
            }
        }
        out
    }

    fn play(&self, m: &Mv) -> Pos {
        let mut p = self.clone();
        let piece = p.cells[idx(m.from)];
        p.cells[idx(m.from)] = b'.';
        p.cells[idx(m.to)] = match m.promo {
            Some(x) if self.white => x,
            Some(x) => x.to_ascii_lowercase(),
            None => piece,
        };
        p.white = !self.white;
        p
    }

    fn king(&self, white: bool) -> Sq {
        let k = if white { b'K' } else { b'k' };
        let i = self.cells.iter().position(|&c| c == k).expect("a King");
        ((i % 5) as i32, ((i / 5) % 5) as i32, (i / 25) as i32)
    }

    pub fn legal(&self) -> Vec<Mv> {
        self.pseudo()
            .into_iter()
            .filter(|m| {
                let next = self.play(m);
                !next.attacked(next.king(self.white), !self.white)
            })
            .collect()
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

    pub fn play_name(&self, name: &str) -> Pos {
        let m = self
            .legal()
            .into_iter()
            .find(|m| m.name() == name)
            .unwrap_or_else(|| panic!("reference: {name} is not legal"));
        self.play(&m)
    }
}
