//! A second Polyhedron Chess move generator, written from the rules file alone
//! (`docs/variants/polyhedron.md`). It knows nothing of the engine's tables: cells are plain
//! (x, y, z) coordinates with the rules file's existence test, the board is a 10x10x5 array of
//! letters, every move is tried on a copy of the position, and check is found by asking every
//! enemy piece whether it reaches the King. It is slow and meant to be obviously correct.

/// A cell (x = file 0..9, y = rank 0..9, z = level 0..4).
pub type Sq = (i32, i32, i32);

/// "Level z has margin k = |z - 2|; its cells are those with k <= x <= 9-k and
/// k <= y <= 9-k."
pub fn exists((x, y, z): Sq) -> bool {
    if !(0..5).contains(&z) {
        return false;
    }
    let k = (z - 2).abs();
    k <= x && x <= 9 - k && k <= y && y <= 9 - k
}

fn index((x, y, z): Sq) -> usize {
    ((z * 10 + y) * 10 + x) as usize
}

fn add(a: Sq, v: Sq) -> Sq {
    (a.0 + v.0, a.1 + v.1, a.2 + v.2)
}

/// `Cf1`, `Cj10`.
pub fn name((x, y, z): Sq) -> String {
    format!(
        "{}{}{}",
        (b'A' + z as u8) as char,
        (b'a' + x as u8) as char,
        y + 1
    )
}

fn parse_name(s: &str) -> Option<Sq> {
    let b = s.as_bytes();
    if b.len() < 3 || !b[0].is_ascii_uppercase() || !b[1].is_ascii_lowercase() {
        return None;
    }
    let rank: i32 = s.get(2..)?.parse().ok()?;
    let sq = ((b[1] - b'a') as i32, rank - 1, (b[0] - b'A') as i32);
    exists(sq).then_some(sq)
}

/// All vectors with `nonzero` components equal to +-1 and the others 0.
fn unit_vectors(nonzero: usize) -> Vec<Sq> {
    let mut out = Vec::new();
    for x in -1..=1 {
        for y in -1..=1 {
            for z in -1..=1 {
                let n = [x, y, z].iter().filter(|&&c: &&i32| c != 0).count();
                if n == nonzero {
                    out.push((x, y, z));
                }
            }
        }
    }
    out
}

/// All permutations and signs of (a, b, c), without duplicates.
fn leaps(a: i32, b: i32, c: i32) -> Vec<Sq> {
    let mut out: Vec<Sq> = Vec::new();
    for x in -2..=2i32 {
        for y in -2..=2i32 {
            for z in -2..=2i32 {
                let mut got = [x.abs(), y.abs(), z.abs()];
                got.sort();
                let mut want = [a, b, c];
                want.sort();
                if got == want {
                    out.push((x, y, z));
                }
            }
        }
    }
    out
}

/// The movement vectors, computed once.
struct Vectors {
    orthogonal: Vec<Sq>,
    diagonal: Vec<Sq>,
    triagonal: Vec<Sq>,
    all26: Vec<Sq>,
    knight: Vec<Sq>,
    hippogriff: Vec<Sq>,
    wyvern: Vec<Sq>,
    gargoyle: Vec<Sq>,
}

static VECTORS: std::sync::LazyLock<Vectors> = std::sync::LazyLock::new(|| {
    let all26: Vec<Sq> = (1..=3).flat_map(unit_vectors).collect();
    let mut gargoyle = all26.clone();
    gargoyle.extend(all26.iter().map(|&(x, y, z)| (2 * x, 2 * y, 2 * z)));
    Vectors {
        orthogonal: unit_vectors(1),
        diagonal: unit_vectors(2),
        triagonal: unit_vectors(3),
        all26,
        knight: leaps(0, 1, 2),
        hippogriff: leaps(1, 1, 2),
        wyvern: leaps(1, 2, 2),
        gargoyle,
    }
});

/// The slide directions of a piece letter (uppercase), from the rules file's table.
fn slide_directions(piece: u8) -> Vec<Sq> {
    let v = &*VECTORS;
    match piece {
        b'Q' => [&v.orthogonal[..], &v.diagonal, &v.triagonal].concat(),
        b'R' => v.orthogonal.clone(),
        b'B' => v.diagonal.clone(),
        b'U' => v.triagonal.clone(),
        b'F' => [&v.orthogonal[..], &v.diagonal].concat(),
        b'D' => [&v.orthogonal[..], &v.triagonal].concat(),
        b'A' => [&v.diagonal[..], &v.triagonal].concat(),
        _ => vec![],
    }
}

/// The leaps of a piece letter (uppercase): the cells it reaches regardless of what stands
/// between. The King's and the Gargoyle's single steps are leaps of length one.
fn leap_vectors(piece: u8) -> Vec<Sq> {
    let v = &*VECTORS;
    match piece {
        b'N' => v.knight.clone(),
        b'H' => v.hippogriff.clone(),
        b'W' => v.wyvern.clone(),
        b'S' => [&v.knight[..], &v.hippogriff, &v.wyvern].concat(),
        b'G' => v.gargoyle.clone(),
        b'K' => v.all26.clone(),
        _ => vec![],
    }
}

/// A move: from, to, promotion letter (lowercase), and the special flags.
#[derive(Clone, Debug)]
pub struct Mv {
    pub from: Sq,
    pub to: Sq,
    pub promo: Option<u8>,
    pub double: bool,
    pub en_passant: bool,
}

impl Mv {
    /// `Cc3Cc5`, `Ce9Ce10q`.
    pub fn name(&self) -> String {
        let mut s = name(self.from) + &name(self.to);
        if let Some(p) = self.promo {
            s.push(p as char);
        }
        s
    }
}

/// A position: letters on a 10x10x5 array (0 = empty or no cell), reserves counted by
/// letter, the en passant cell.
#[derive(Clone)]
pub struct Pos {
    pub cells: [u8; 500],
    pub white_to_move: bool,
    /// reserve[0] White's, reserve[1] Black's, indexed by uppercase letter - b'A'.
    pub reserve: [[u32; 26]; 2],
    pub ep: Option<Sq>,
}

fn is_white(p: u8) -> bool {
    p.is_ascii_uppercase()
}

impl Pos {
    pub fn at(&self, s: Sq) -> u8 {
        self.cells[index(s)]
    }

    fn set(&mut self, s: Sq, p: u8) {
        self.cells[index(s)] = p;
    }

    /// The start position, from the rules file's setup section.
    pub fn start() -> Pos {
        let mut p = Pos {
            cells: [0; 500],
            white_to_move: true,
            reserve: [[0; 26]; 2],
            ep: None,
        };
        let put_row = |p: &mut Pos, row: &str, first_file: i32, rank: i32, z: i32| {
            for (i, c) in row.bytes().filter(|c| *c != b' ').enumerate() {
                p.set((first_file + i as i32, rank - 1, z), c);
            }
        };
        // White (low ranks), then Black: the mirror r -> 11 - r, lowercase.
        for (upper, rank_of) in [(true, 0), (false, 11)] {
            let r = |rank: i32| if rank_of == 0 { rank } else { 11 - rank };
            let case = |s: &str| {
                if upper {
                    s.to_string()
                } else {
                    s.to_ascii_lowercase()
                }
            };
            put_row(&mut p, &case("D S A F Q K F A S D"), 0, r(1), 2);
            put_row(&mut p, &case("R N B U U U U B N R"), 0, r(2), 2);
            put_row(&mut p, &case("PPPPPPPPPP"), 0, r(3), 2);
            for z in [1, 3] {
                put_row(&mut p, &case("G W H U U H W G"), 1, r(2), z);
                put_row(&mut p, &case("PPPPPPPP"), 1, r(3), z);
            }
            for z in [0, 4] {
                put_row(&mut p, &case("PPPPPP"), 2, r(3), z);
            }
        }
        p
    }

    /// Reads the FEN of `protocol.md`: `A|B|C|D|E` levels, each from its highest rank,
    /// each rank from its lowest file, digits for empty cells; `[reserves]`; side; en
    /// passant cell; clocks (ignored here). Panics on bad input (it is only fed the
    /// engine's own FENs and the suite's).
    pub fn from_fen(fen: &str) -> Pos {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let (placement, reserve) = match fields[0].split_once('[') {
            Some((pl, r)) => (pl, r.trim_end_matches(']')),
            None => (fields[0], ""),
        };
        let mut p = Pos {
            cells: [0; 500],
            white_to_move: fields[1] == "w",
            reserve: [[0; 26]; 2],
            ep: None,
        };
        let levels: Vec<&str> = placement.split('|').collect();
        assert_eq!(levels.len(), 5, "{fen}");
        for (z, level) in levels.iter().enumerate() {
            let z = z as i32;
            let k = (z - 2).abs();
            for (i, rank) in level.split('/').enumerate() {
                let y = 9 - k - i as i32;
                let mut x = k;
                let mut digits = String::new();
                for c in rank.chars().chain(std::iter::once(' ')) {
                    if c.is_ascii_digit() {
                        digits.push(c);
                        continue;
                    }
                    if !digits.is_empty() {
                        x += digits.parse::<i32>().unwrap();
                        digits.clear();
                    }
                    if c != ' ' {
                        assert!(exists((x, y, z)), "{fen}");
                        p.set((x, y, z), c as u8);
                        x += 1;
                    }
                }
                assert_eq!(x, 10 - k, "{fen}: level {z} rank {}", y + 1);
            }
        }
        for c in reserve.bytes() {
            let side = if is_white(c) { 0 } else { 1 };
            p.reserve[side][(c.to_ascii_uppercase() - b'A') as usize] += 1;
        }
        if let Some(&ep) = fields.get(2)
            && ep != "-"
        {
            p.ep = Some(parse_name(ep).expect("en passant cell"));
        }
        p
    }

    fn own(&self, p: u8) -> bool {
        p != 0 && is_white(p) == self.white_to_move
    }

    fn enemy(&self, p: u8) -> bool {
        p != 0 && is_white(p) != self.white_to_move
    }

    fn king(&self, white: bool) -> Sq {
        let want = if white { b'K' } else { b'k' };
        for z in 0..5 {
            for y in 0..10 {
                for x in 0..10 {
                    if exists((x, y, z)) && self.at((x, y, z)) == want {
                        return (x, y, z);
                    }
                }
            }
        }
        panic!("no King");
    }

    /// Whether a piece of colour `white` attacks `target`, found by looking from `target`
    /// for each kind of attacker where it would have to stand.
    pub fn attacked(&self, target: Sq, white: bool) -> bool {
        let v = &*VECTORS;
        let case = |c: u8| if white { c } else { c.to_ascii_lowercase() };
        let holds =
            |at: Sq, letters: &[u8]| exists(at) && letters.iter().any(|&l| self.at(at) == case(l));
        // Leapers (a leap is symmetric: the attacker stands at target + v).
        let leapers: [(&[Sq], &[u8]); 5] = [
            (&v.all26, b"K"),
            (&v.knight, b"NS"),
            (&v.hippogriff, b"HS"),
            (&v.wyvern, b"WS"),
            (&v.gargoyle, b"G"),
        ];
        for (vectors, letters) in leapers {
            if vectors.iter().any(|&d| holds(add(target, d), letters)) {
                return true;
            }
        }
        // Pawns capture one step (dx, f, dz), so they stand at target - (dx, f, dz).
        let f = if white { 1 } else { -1 };
        for dx in -1..=1 {
            for dz in -1..=1 {
                if (dx, dz) != (0, 0) && holds(add(target, (-dx, -f, -dz)), b"P") {
                    return true;
                }
            }
        }
        // Sliders: the first piece along each line.
        let lines: [(&[Sq], &[u8]); 3] = [
            (&v.orthogonal, b"QRFD"),
            (&v.diagonal, b"QBFA"),
            (&v.triagonal, b"QUDA"),
        ];
        for (dirs, letters) in lines {
            for &d in dirs {
                let mut c = add(target, d);
                while exists(c) && self.at(c) == 0 {
                    c = add(c, d);
                }
                if holds(c, letters) {
                    return true;
                }
            }
        }
        false
    }

    /// "The farthest rank of the level it now stands on (White: y = 9 - k, Black: y = k)".
    fn is_last_rank(&self, s: Sq, white: bool) -> bool {
        let k = (s.2 - 2).abs();
        if white { s.1 == 9 - k } else { s.1 == k }
    }

    fn reserve_letters(&self, white: bool) -> Vec<u8> {
        let r = &self.reserve[if white { 0 } else { 1 }];
        (0..26u8)
            .filter(|&i| r[i as usize] > 0)
            .map(|i| b'a' + i)
            .collect()
    }

    /// Every move of the side to move that follows the movement rules, before the King
    /// safety test.
    pub fn pseudo_moves(&self) -> Vec<Mv> {
        let white = self.white_to_move;
        let mut out = Vec::new();
        let plain = |from, to| Mv {
            from,
            to,
            promo: None,
            double: false,
            en_passant: false,
        };
        for z in 0..5 {
            for y in 0..10 {
                for x in 0..10 {
                    let from = (x, y, z);
                    if !exists(from) || !self.own(self.at(from)) {
                        continue;
                    }
                    let up = self.at(from).to_ascii_uppercase();
                    if up == b'P' {
                        self.pawn_moves(from, &mut out);
                        continue;
                    }
                    let mut targets = Vec::new();
                    for v in leap_vectors(up) {
                        let to = add(from, v);
                        if exists(to) && !self.own(self.at(to)) {
                            targets.push(to);
                        }
                    }
                    for v in slide_directions(up) {
                        let mut to = add(from, v);
                        while exists(to) {
                            if self.own(self.at(to)) {
                                break;
                            }
                            targets.push(to);
                            if self.at(to) != 0 {
                                break;
                            }
                            to = add(to, v);
                        }
                    }
                    for to in targets {
                        out.push(plain(from, to));
                        // Unicorn promotion: after a capture, any reserve type but Unicorn.
                        if up == b'U' && self.enemy(self.at(to)) {
                            for l in self.reserve_letters(white) {
                                if l != b'u' {
                                    out.push(Mv {
                                        promo: Some(l),
                                        ..plain(from, to)
                                    });
                                }
                            }
                        }
                    }
                }
            }
        }
        out
    }

    fn pawn_moves(&self, from: Sq, out: &mut Vec<Mv>) {
        let white = self.white_to_move;
        let f = if white { 1 } else { -1 };
        let mut arrivals = Vec::new();
        let one = add(from, (0, f, 0));
        if exists(one) && self.at(one) == 0 {
            arrivals.push(one);
            let start = if white { 2 } else { 7 };
            let two = add(one, (0, f, 0));
            if from.1 == start && exists(two) && self.at(two) == 0 {
                out.push(Mv {
                    from,
                    to: two,
                    promo: None,
                    double: true,
                    en_passant: false,
                });
            }
        }
        for dx in -1..=1 {
            for dz in -1..=1 {
                if (dx, dz) == (0, 0) {
                    continue;
                }
                let to = add(from, (dx, f, dz));
                if !exists(to) {
                    continue;
                }
                if self.enemy(self.at(to)) {
                    arrivals.push(to);
                } else if self.ep == Some(to) {
                    out.push(Mv {
                        from,
                        to,
                        promo: None,
                        double: false,
                        en_passant: true,
                    });
                }
            }
        }
        for to in arrivals {
            if self.is_last_rank(to, white) {
                // Promotion only from the reserve; none there, no move.
                for l in self.reserve_letters(white) {
                    out.push(Mv {
                        from,
                        to,
                        promo: Some(l),
                        double: false,
                        en_passant: false,
                    });
                }
            } else {
                out.push(Mv {
                    from,
                    to,
                    promo: None,
                    double: false,
                    en_passant: false,
                });
            }
        }
    }

    /// The position after `m`.
    pub fn play(&self, m: &Mv) -> Pos {
        let mut n = self.clone();
        let white = self.white_to_move;
        let p = n.at(m.from);
        let captured = n.at(m.to);
        if captured != 0 {
            let up = captured.to_ascii_uppercase();
            if up != b'P' && up != b'K' {
                let owner = if is_white(captured) { 0 } else { 1 };
                n.reserve[owner][(up - b'A') as usize] += 1;
            }
        }
        if m.en_passant {
            // The double-stepped pawn stands one cell beyond the cell it passed.
            let f = if white { 1 } else { -1 };
            n.set(add(m.to, (0, -f, 0)), 0);
        }
        n.set(m.from, 0);
        n.set(m.to, p);
        if let Some(l) = m.promo {
            let side = if white { 0 } else { 1 };
            let up = l.to_ascii_uppercase();
            assert!(n.reserve[side][(up - b'A') as usize] > 0);
            n.reserve[side][(up - b'A') as usize] -= 1;
            n.set(m.to, if white { up } else { l });
        }
        n.ep = if m.double {
            Some((m.from.0, (m.from.1 + m.to.1) / 2, m.from.2))
        } else {
            None
        };
        n.white_to_move = !white;
        n
    }

    /// The legal moves: those after which the mover's King is not attacked.
    pub fn legal_moves(&self) -> Vec<Mv> {
        let white = self.white_to_move;
        let king = self.king(white);
        self.pseudo_moves()
            .into_iter()
            .filter(|m| {
                let n = self.play(m);
                let k = if m.from == king { m.to } else { king };
                !n.attacked(k, !white)
            })
            .collect()
    }

    pub fn in_check(&self) -> bool {
        self.attacked(self.king(self.white_to_move), !self.white_to_move)
    }

    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|m| self.play(m).perft(depth - 1)).sum()
    }

    /// Plays a move given by name.
    pub fn play_name(&self, name: &str) -> Pos {
        let m = self
            .legal_moves()
            .into_iter()
            .find(|m| m.name() == name)
            .unwrap_or_else(|| panic!("reference: {name} is not legal"));
        self.play(&m)
    }
}
