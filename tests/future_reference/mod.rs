//! A second Chess – The Future Generation move generator, written from
//! `docs/variants/future-generation.md` alone. Deliberately slow and plain: a
//! `[level][rank][file]` array of pieces, coordinates as `(x, y, z)` tuples, every movement
//! rule spelled out as the rules file states it, positions copied instead of unmade, and its
//! own FEN reader. It shares no table and no code with the engine; the two meet only through
//! FEN strings and move names.

/// A cell: file x (a = 0), rank y (rank 1 = 0), level z (A = 0 at the top, D = 3).
pub type Sq = (i32, i32, i32);

/// A piece: colour 0..4 (White, Black, Gold, Silver) and letter (K Q R B N C P).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Pc {
    pub colour: usize,
    pub kind: char,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Normal,
    DoubleStep,
    EnPassant,
    Castle,
    Pass,
}

#[derive(Clone, Copy, Debug)]
pub struct RMove {
    pub from: Sq,
    pub to: Sq,
    pub promo: Option<char>,
    pub kind: Kind,
}

#[derive(Clone, Debug)]
pub struct Pos {
    pub board: [[[Option<Pc>; 8]; 8]; 4],
    pub side: usize,
    /// [colour][0 = short (K), 1 = long (Q)]
    pub castling: [[bool; 2]; 4],
    /// The cell passed over by the last double step and the pawn that made it.
    pub ep: Option<(Sq, Sq)>,
    pub unlocked: [bool; 4],
    pub eliminated: [bool; 4],
}

const COLOUR_LETTERS: [char; 4] = ['w', 'b', 'g', 's'];

pub fn team(c: usize) -> usize {
    // White and Gold against Black and Silver.
    match c {
        0 | 2 => 0,
        _ => 1,
    }
}

fn forward(c: usize) -> (i32, i32) {
    match c {
        0 => (0, 1),  // White towards rank 8
        1 => (0, -1), // Black towards rank 1
        2 => (-1, 0), // Gold towards the a-file
        _ => (1, 0),  // Silver towards the h-file
    }
}

fn on_board(s: Sq) -> bool {
    (0..8).contains(&s.0) && (0..8).contains(&s.1) && (0..4).contains(&s.2)
}

fn add(s: Sq, v: (i32, i32, i32)) -> Sq {
    (s.0 + v.0, s.1 + v.1, s.2 + v.2)
}

fn far_edge(c: usize, s: Sq) -> bool {
    match c {
        0 => s.1 == 7,
        1 => s.1 == 0,
        2 => s.0 == 0,
        _ => s.0 == 7,
    }
}

fn starting_pawn_cell(c: usize, s: Sq) -> bool {
    match c {
        0 => s.2 == 0 && s.1 == 1,
        1 => s.2 == 0 && s.1 == 6,
        2 => s.2 == 3 && s.0 == 6,
        _ => s.2 == 3 && s.0 == 1,
    }
}

pub fn name(s: Sq) -> String {
    format!(
        "{}{}{}",
        (b'A' + s.2 as u8) as char,
        (b'a' + s.0 as u8) as char,
        s.1 + 1
    )
}

impl RMove {
    pub fn name(&self) -> String {
        if self.kind == Kind::Pass {
            return "0000".into();
        }
        let mut s = format!("{}{}", name(self.from), name(self.to));
        if let Some(p) = self.promo {
            s.push(p.to_ascii_lowercase());
        }
        s
    }
}

/// Castling of colour `c`, side 0 short / 1 long: (King from, King to, Rook from, Rook
/// to, cells between King and Rook), as the rules file lists them.
fn castling(c: usize, side: usize) -> (Sq, Sq, Sq, Sq, Vec<Sq>) {
    match (c, side) {
        (0, 0) => (
            (4, 0, 0),
            (6, 0, 0),
            (7, 0, 0),
            (5, 0, 0),
            vec![(5, 0, 0), (6, 0, 0)],
        ),
        (0, _) => (
            (4, 0, 0),
            (2, 0, 0),
            (0, 0, 0),
            (3, 0, 0),
            vec![(1, 0, 0), (2, 0, 0), (3, 0, 0)],
        ),
        (1, 0) => (
            (4, 7, 0),
            (6, 7, 0),
            (7, 7, 0),
            (5, 7, 0),
            vec![(5, 7, 0), (6, 7, 0)],
        ),
        (1, _) => (
            (4, 7, 0),
            (2, 7, 0),
            (0, 7, 0),
            (3, 7, 0),
            vec![(1, 7, 0), (2, 7, 0), (3, 7, 0)],
        ),
        // Gold: Kh4->h2 (Rh1->h3) or h6 (Rh8->h5), on level D.
        (2, 0) => (
            (7, 3, 3),
            (7, 1, 3),
            (7, 0, 3),
            (7, 2, 3),
            vec![(7, 2, 3), (7, 1, 3)],
        ),
        (2, _) => (
            (7, 3, 3),
            (7, 5, 3),
            (7, 7, 3),
            (7, 4, 3),
            vec![(7, 4, 3), (7, 5, 3), (7, 6, 3)],
        ),
        // Silver: Ka4->a2 (Ra1->a3) or a6 (Ra8->a5).
        (_, 0) => (
            (0, 3, 3),
            (0, 1, 3),
            (0, 0, 3),
            (0, 2, 3),
            vec![(0, 2, 3), (0, 1, 3)],
        ),
        (_, _) => (
            (0, 3, 3),
            (0, 5, 3),
            (0, 7, 3),
            (0, 4, 3),
            vec![(0, 4, 3), (0, 5, 3), (0, 6, 3)],
        ),
    }
}

fn king_vectors() -> Vec<(i32, i32, i32)> {
    let mut v = Vec::new();
    for dz in -1..=1 {
        for dy in -1..=1 {
            for dx in -1..=1 {
                if (dx, dy, dz) != (0, 0, 0) {
                    v.push((dx, dy, dz));
                }
            }
        }
    }
    v
}

fn knight_vectors(crowned: bool) -> Vec<(i32, i32, i32)> {
    let mut v = vec![
        (1, 2, 0),
        (2, 1, 0),
        (-1, 2, 0),
        (-2, 1, 0),
        (1, -2, 0),
        (2, -1, 0),
        (-1, -2, 0),
        (-2, -1, 0),
        // one level and two cells orthogonally
        (2, 0, 1),
        (-2, 0, 1),
        (0, 2, 1),
        (0, -2, 1),
        (2, 0, -1),
        (-2, 0, -1),
        (0, 2, -1),
        (0, -2, -1),
    ];
    if crowned {
        // two levels and one cell orthogonally
        v.extend([
            (1, 0, 2),
            (-1, 0, 2),
            (0, 1, 2),
            (0, -1, 2),
            (1, 0, -2),
            (-1, 0, -2),
            (0, 1, -2),
            (0, -1, -2),
        ]);
    }
    v
}

const ROOK_DIRS: [(i32, i32, i32); 6] = [
    (1, 0, 0),
    (-1, 0, 0),
    (0, 1, 0),
    (0, -1, 0),
    (0, 0, 1),
    (0, 0, -1),
];
const BISHOP_DIRS: [(i32, i32, i32); 4] = [(1, 1, 0), (1, -1, 0), (-1, 1, 0), (-1, -1, 0)];

fn bishop_steps() -> Vec<(i32, i32, i32)> {
    let mut v = Vec::new();
    for dz in [-1, 1] {
        for dy in -1..=1 {
            for dx in -1..=1 {
                if (dx, dy) != (0, 0) {
                    v.push((dx, dy, dz));
                }
            }
        }
    }
    v
}

/// The vectors of a pawn's captures: one forward and one sideways, on its level or an
/// adjacent one.
fn pawn_capture_vectors(c: usize) -> Vec<(i32, i32, i32)> {
    let (fx, fy) = forward(c);
    let sides = if fx == 0 {
        [(1, 0), (-1, 0)]
    } else {
        [(0, 1), (0, -1)]
    };
    let mut v = Vec::new();
    for (sx, sy) in sides {
        for dz in -1..=1 {
            v.push((fx + sx, fy + sy, dz));
        }
    }
    v
}

impl Pos {
    pub fn at(&self, s: Sq) -> Option<Pc> {
        self.board[s.2 as usize][s.1 as usize][s.0 as usize]
    }

    fn set(&mut self, s: Sq, p: Option<Pc>) {
        self.board[s.2 as usize][s.1 as usize][s.0 as usize] = p;
    }

    /// Until a colour is unlocked, its moves end on its home level or its gate level.
    fn level_allowed(&self, c: usize, z: i32) -> bool {
        self.unlocked[c] || if c < 2 { z <= 1 } else { z >= 2 }
    }

    pub fn lost(&self) -> bool {
        (self.eliminated[0] && self.eliminated[2]) || (self.eliminated[1] && self.eliminated[3])
    }

    fn next_colour(&self, c: usize) -> usize {
        let mut n = (c + 1) % 4;
        while self.eliminated[n] {
            n = (n + 1) % 4;
        }
        n
    }

    /// Where the (non-pawn) piece on `from` can go: empty cells and pieces of the other
    /// team, within its colour's lock; slides stop before a locked level.
    fn piece_targets(&self, from: Sq, p: Pc) -> Vec<Sq> {
        let c = p.colour;
        let mut out = Vec::new();
        let can_end = |s: Sq| {
            on_board(s)
                && self.level_allowed(c, s.2)
                && self.at(s).is_none_or(|q| team(q.colour) != team(c))
        };
        let leap = |vs: &[(i32, i32, i32)], out: &mut Vec<Sq>| {
            for &v in vs {
                let s = add(from, v);
                if can_end(s) {
                    out.push(s);
                }
            }
        };
        let slide = |dirs: &[(i32, i32, i32)], out: &mut Vec<Sq>| {
            for &d in dirs {
                let mut s = from;
                loop {
                    s = add(s, d);
                    if !on_board(s) || !self.level_allowed(c, s.2) {
                        break;
                    }
                    match self.at(s) {
                        None => out.push(s),
                        Some(q) => {
                            if team(q.colour) != team(c) {
                                out.push(s);
                            }
                            break;
                        }
                    }
                }
            }
        };
        match p.kind {
            'K' => leap(&king_vectors(), &mut out),
            'N' => leap(&knight_vectors(false), &mut out),
            'C' => leap(&knight_vectors(true), &mut out),
            'R' => slide(&ROOK_DIRS, &mut out),
            'B' => {
                slide(&BISHOP_DIRS, &mut out);
                leap(&bishop_steps(), &mut out);
            }
            'Q' => {
                slide(&ROOK_DIRS, &mut out);
                slide(&BISHOP_DIRS, &mut out);
                leap(&bishop_steps(), &mut out);
            }
            other => panic!("no piece_targets for {other}"),
        }
        out
    }

    /// Whether a piece of a non-eliminated colour of `by_team` attacks `s`.
    fn attacked(&self, s: Sq, by_team: usize) -> bool {
        for z in 0..4 {
            for y in 0..8 {
                for x in 0..8 {
                    let from = (x, y, z);
                    let Some(p) = self.at(from) else { continue };
                    if team(p.colour) != by_team || self.eliminated[p.colour] {
                        continue;
                    }
                    let hit = if p.kind == 'P' {
                        self.level_allowed(p.colour, s.2)
                            && pawn_capture_vectors(p.colour)
                                .iter()
                                .any(|&v| add(from, v) == s)
                    } else {
                        self.piece_targets(from, p).contains(&s)
                    };
                    if hit {
                        return true;
                    }
                }
            }
        }
        false
    }

    fn pawn_moves(&self, from: Sq, c: usize, out: &mut Vec<RMove>) {
        let (fx, fy) = forward(c);
        let push = |to: Sq, kind: Kind, out: &mut Vec<RMove>| {
            if far_edge(c, to) {
                for p in ['Q', 'R', 'B', 'N'] {
                    out.push(RMove {
                        from,
                        to,
                        promo: Some(p),
                        kind,
                    });
                }
            } else {
                out.push(RMove {
                    from,
                    to,
                    promo: None,
                    kind,
                });
            }
        };
        let free = |s: Sq| on_board(s) && self.level_allowed(c, s.2) && self.at(s).is_none();
        // Steps: forward on its level or onto an adjacent one, or straight up or down.
        for v in [
            (fx, fy, 0),
            (fx, fy, 1),
            (fx, fy, -1),
            (0, 0, 1),
            (0, 0, -1),
        ] {
            let to = add(from, v);
            if free(to) {
                push(to, Kind::Normal, out);
            }
        }
        // Double steps from the colour's starting pawn cells.
        if starting_pawn_cell(c, from) {
            for dz in [0, 1, -1] {
                let to = add(from, (2 * fx, 2 * fy, dz));
                let passed = add(from, (fx, fy, dz));
                if free(to) && free(passed) {
                    out.push(RMove {
                        from,
                        to,
                        promo: None,
                        kind: Kind::DoubleStep,
                    });
                }
            }
        }
        for v in pawn_capture_vectors(c) {
            let to = add(from, v);
            if on_board(to)
                && self.level_allowed(c, to.2)
                && self.at(to).is_some_and(|q| team(q.colour) != team(c))
            {
                push(to, Kind::Normal, out);
            }
            if let Some((cell, victim)) = self.ep
                && cell == to
                && self.level_allowed(c, to.2)
                && self.at(to).is_none()
                && self
                    .at(victim)
                    .is_some_and(|q| q.kind == 'P' && team(q.colour) != team(c))
            {
                push(to, Kind::EnPassant, out);
            }
        }
    }

    /// Every legal move of the colour to move (the pass when there is none).
    pub fn moves(&self) -> Vec<RMove> {
        let mut out = Vec::new();
        if self.lost() {
            return out;
        }
        let c = self.side;
        for z in 0..4 {
            for y in 0..8 {
                for x in 0..8 {
                    let from = (x, y, z);
                    let Some(p) = self.at(from) else { continue };
                    if p.colour != c {
                        continue;
                    }
                    if p.kind == 'P' {
                        self.pawn_moves(from, c, &mut out);
                    } else {
                        for to in self.piece_targets(from, p) {
                            out.push(RMove {
                                from,
                                to,
                                promo: None,
                                kind: Kind::Normal,
                            });
                        }
                    }
                }
            }
        }
        for side in 0..2 {
            let (kf, kt, rf, rt, between) = castling(c, side);
            if self.castling[c][side]
                && self.at(kf)
                    == Some(Pc {
                        colour: c,
                        kind: 'K',
                    })
                && self.at(rf)
                    == Some(Pc {
                        colour: c,
                        kind: 'R',
                    })
                && between.iter().all(|&s| self.at(s).is_none())
                && ![kf, rt, kt].iter().any(|&s| self.attacked(s, 1 - team(c)))
            {
                out.push(RMove {
                    from: kf,
                    to: kt,
                    promo: None,
                    kind: Kind::Castle,
                });
            }
        }
        if out.is_empty() {
            out.push(RMove {
                from: (0, 0, 0),
                to: (0, 0, 0),
                promo: None,
                kind: Kind::Pass,
            });
        }
        out
    }

    /// The position after `m`.
    pub fn play(&self, m: &RMove) -> Pos {
        let mut n = self.clone();
        let c = self.side;
        n.ep = None;
        let mut captured = None;
        match m.kind {
            Kind::Pass => {}
            Kind::Castle => {
                let side = if castling(c, 0).1 == m.to { 0 } else { 1 };
                let (kf, kt, rf, rt, _) = castling(c, side);
                let king = n.at(kf);
                let rook = n.at(rf);
                n.set(kf, None);
                n.set(rf, None);
                n.set(kt, king);
                n.set(rt, rook);
            }
            _ => {
                let mut p = n.at(m.from).expect("a piece moves");
                if m.kind == Kind::EnPassant {
                    let (_, victim) = self.ep.expect("en passant needs a right");
                    captured = n.at(victim);
                    n.set(victim, None);
                } else {
                    captured = n.at(m.to);
                }
                if let Some(k) = m.promo {
                    p.kind = k;
                } else if p.kind == 'N' && far_edge(c, m.to) {
                    p.kind = 'C';
                }
                n.set(m.from, None);
                n.set(m.to, Some(p));
                if m.kind == Kind::DoubleStep {
                    let (fx, fy) = forward(c);
                    n.ep = Some(((m.to.0 - fx, m.to.1 - fy, m.to.2), m.to));
                }
            }
        }
        if let Some(q) = captured
            && q.kind == 'K'
        {
            n.eliminated[q.colour] = true;
        }
        if m.kind != Kind::Pass {
            for k in 0..4 {
                for side in 0..2 {
                    let (kf, _, rf, _, _) = castling(k, side);
                    if [kf, rf].contains(&m.from) || [kf, rf].contains(&m.to) {
                        n.castling[k][side] = false;
                    }
                }
            }
        }
        let gate = if c < 2 { 1 } else { 2 };
        let mut on_gate = 0;
        for y in 0..8 {
            for x in 0..8 {
                if n.at((x, y, gate)).is_some_and(|q| q.colour == c) {
                    on_gate += 1;
                }
            }
        }
        if on_gate >= 4 {
            n.unlocked[c] = true;
        }
        n.side = n.next_colour(c);
        n
    }

    /// Plays the move named `name`.
    pub fn play_name(&self, name: &str) -> Pos {
        let m = self
            .moves()
            .into_iter()
            .find(|m| m.name() == name)
            .unwrap_or_else(|| panic!("reference: no move {name}"));
        self.play(&m)
    }

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

    /// The start position, from the rules file's setup list.
    pub fn start() -> Pos {
        let mut p = Pos {
            board: [[[None; 8]; 8]; 4],
            side: 0,
            castling: [[true; 2]; 4],
            ep: None,
            unlocked: [false; 4],
            eliminated: [false; 4],
        };
        let back = ['R', 'N', 'B', 'Q', 'K', 'B', 'N', 'R'];
        let gold_silver = ['R', 'N', 'B', 'K', 'Q', 'B', 'N', 'R']; // ranks 1..8
        for i in 0..8 {
            let pc = |colour, kind| Some(Pc { colour, kind });
            p.set((i, 0, 0), pc(0, back[i as usize]));
            p.set((i, 1, 0), pc(0, 'P'));
            p.set((i, 7, 0), pc(1, back[i as usize]));
            p.set((i, 6, 0), pc(1, 'P'));
            p.set((7, i, 3), pc(2, gold_silver[i as usize]));
            p.set((6, i, 3), pc(2, 'P'));
            p.set((0, i, 3), pc(3, gold_silver[i as usize]));
            p.set((1, i, 3), pc(3, 'P'));
        }
        p
    }

    /// Reads a FEN in the format of `protocol.md` (trusted input: panics on errors).
    pub fn from_fen(fen: &str) -> Pos {
        let f: Vec<&str> = fen.split_whitespace().collect();
        let mut p = Pos {
            board: [[[None; 8]; 8]; 4],
            side: 0,
            castling: [[false; 2]; 4],
            ep: None,
            unlocked: [false; 4],
            eliminated: [false; 4],
        };
        for (z, level) in f[0].split('|').enumerate() {
            for (i, rank) in level.split('/').enumerate() {
                let y = 7 - i as i32;
                let mut x = 0;
                let chars: Vec<char> = rank.chars().collect();
                let mut k = 0;
                while k < chars.len() {
                    if let Some(d) = chars[k].to_digit(10) {
                        x += d as i32;
                        k += 1;
                    } else {
                        let colour = COLOUR_LETTERS
                            .iter()
                            .position(|&l| l == chars[k])
                            .expect("colour letter");
                        p.set(
                            (x, y, z as i32),
                            Some(Pc {
                                colour,
                                kind: chars[k + 1],
                            }),
                        );
                        x += 1;
                        k += 2;
                    }
                }
            }
        }
        let colour_of = |ch: char| COLOUR_LETTERS.iter().position(|&l| l == ch).unwrap();
        p.side = colour_of(f[1].chars().next().unwrap());
        let field = |i: usize| f.get(i).copied().unwrap_or("-");
        let mut current = 0;
        for ch in field(2).chars().filter(|&c| c != '-') {
            match ch {
                'K' => p.castling[current][0] = true,
                'Q' => p.castling[current][1] = true,
                c => current = colour_of(c),
            }
        }
        for ch in field(4).chars().filter(|&c| c != '-') {
            p.unlocked[colour_of(ch)] = true;
        }
        for ch in field(5).chars().filter(|&c| c != '-') {
            p.eliminated[colour_of(ch)] = true;
        }
        let ep = field(3);
        if ep != "-" {
            let b = ep.as_bytes();
            let cell = (
                (b[1] - b'a') as i32,
                (b[2] - b'1') as i32,
                (b[0] - b'A') as i32,
            );
            // The double step was made by the colour that moved last.
            let mut mover = (p.side + 3) % 4;
            while p.eliminated[mover] {
                mover = (mover + 3) % 4;
            }
            let (fx, fy) = forward(mover);
            p.ep = Some((cell, (cell.0 + fx, cell.1 + fy, cell.2)));
        }
        p
    }
}
