//! Chess – The Future Generation: the engine checked against a second move generator written
//! in this file from `docs/variants/future-generation.md` alone.
//!
//! The reference is deliberately slow and plain: a `[level][rank][file]` array of pieces,
//! coordinates as `(x, y, z)` tuples, every movement rule spelled out as the rules file
//! states it, positions copied instead of unmade, and its own FEN reader. It shares no table
//! and no code with the engine; the two meet only through FEN strings and move names.

mod common;

use std::collections::BTreeSet;
use std::path::Path;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use strata::rules::future::START_FEN;
use strata::rules::perft::perft;
use strata::rules::{AnyGame, Game, GameEnd, MoveList, Variant};

/// The reference implementation.
mod reference {
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
}

use reference::Pos;

fn engine(fen: &str) -> AnyGame {
    AnyGame::from_fen(Variant::FutureGeneration, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn engine_names(g: &AnyGame) -> BTreeSet<String> {
    let mut list = MoveList::new();
    g.generate(&mut list);
    list.iter().map(|&m| g.move_name(m)).collect()
}

fn reference_names(p: &Pos) -> BTreeSet<String> {
    p.moves().iter().map(|m| m.name()).collect()
}

fn suite_path() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/perft/future-generation.perft")
}

/// Positions of the suite file (after their moves), for the engine and the reference.
fn suite_positions() -> Vec<(String, AnyGame, Pos)> {
    let suite = common::load_suite(&suite_path());
    suite
        .cases
        .iter()
        .map(|case| {
            let g = common::case_position(suite.variant, case);
            let mut r = match &case.fen {
                Some(f) => Pos::from_fen(f),
                None => Pos::start(),
            };
            for m in &case.moves {
                r = r.play_name(m);
            }
            (case.id.clone(), g, r)
        })
        .collect()
}

#[test]
fn reference_start_position_is_the_engine_start_fen() {
    let r = Pos::start();
    let from_fen = Pos::from_fen(START_FEN);
    assert_eq!(format!("{:?}", r.board), format!("{:?}", from_fen.board));
    assert_eq!(r.castling, from_fen.castling);
    assert_eq!(reference_names(&r), engine_names(&engine(START_FEN)));
    assert_eq!(r.perft(2), 5184);
}

/// Every expected count of the suite file (fast lines, up to a node budget for this slow
/// reference) equals the reference perft.
#[test]
fn suite_counts_match_the_reference() {
    let suite = common::load_suite(&suite_path());
    let positions = suite_positions();
    let mut checked = 0;
    for (case, (id, g, r)) in suite.cases.iter().zip(positions) {
        assert_eq!(
            reference_names(&r),
            engine_names(&g),
            "{id}: move names differ"
        );
        for &(depth, expected, slow) in &case.expect {
            if slow || expected > 1_500_000 {
                continue;
            }
            assert_eq!(r.perft(depth), expected, "{id}: reference perft {depth}");
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} counts checked");
}

/// The reference agrees with the whole suite, deep lines included (several minutes: the
/// start position's perft 5 has two billion leaves).
#[test]
#[ignore = "slow reference perft: run with --ignored"]
fn suite_counts_match_the_reference_deep() {
    let suite = common::load_suite(&suite_path());
    for (case, (id, _, r)) in suite.cases.iter().zip(suite_positions()) {
        for &(depth, expected, _) in &case.expect {
            assert_eq!(r.perft(depth), expected, "{id}: reference perft {depth}");
        }
    }
}

/// The state the reference keeps, as text (the en passant right is left out: the engine
/// keeps it only when usable, which the move lists compare).
fn reference_state(p: &Pos) -> String {
    format!(
        "{:?} side {} castling {:?} unlocked {:?} eliminated {:?}",
        p.board, p.side, p.castling, p.unlocked, p.eliminated
    )
}

/// Engine and reference agree along seeded random games from the start and from every suite
/// position: on the legal moves, on perft 2 now and then, and on the state after each move
/// (the reference plays the same move in its own copy, so its own unlocking, elimination,
/// crowning and castling-right rules are compared, not just read back from the engine's FEN).
#[test]
fn engine_and_reference_agree_on_random_playouts() {
    let mut rng = StdRng::seed_from_u64(0xF07E);
    let mut starts: Vec<(AnyGame, Pos)> = suite_positions()
        .into_iter()
        .map(|(_, g, r)| (g, r))
        .collect();
    starts.push((engine(START_FEN), Pos::start()));
    let mut positions = 0;
    for (start, start_ref) in &starts {
        for _ in 0..4 {
            let mut g = start.clone();
            let mut r = start_ref.clone();
            for ply in 0..150 {
                let fen = g.fen();
                assert_eq!(
                    reference_state(&r),
                    reference_state(&Pos::from_fen(&fen)),
                    "{fen}: state differs"
                );
                let names = engine_names(&g);
                assert_eq!(reference_names(&r), names, "{fen}: move names differ");
                if ply % 8 == 0 {
                    let e = strata::with_game!(&mut g, p => perft(p, 2));
                    assert_eq!(r.perft(2), e, "{fen}: perft 2 differs");
                }
                positions += 1;
                let mut list = MoveList::new();
                g.generate(&mut list);
                if list.is_empty() {
                    assert!(r.lost(), "{fen}: only the engine sees the game as over");
                    break;
                }
                // Prefer captures now and then, so that Kings fall and colours are eliminated.
                let captures: Vec<_> = list
                    .iter()
                    .copied()
                    .filter(|&m| g.captured_piece(m).is_some())
                    .collect();
                let m = if !captures.is_empty() && rng.gen_bool(0.5) {
                    captures[rng.gen_range(0..captures.len())]
                } else {
                    list.as_slice()[rng.gen_range(0..list.len())]
                };
                r = r.play_name(&g.move_name(m));
                g.make(m);
            }
        }
    }
    assert!(positions > 2000);
}

/// Make/unmake, keys, FEN round trip and legal = generated along random games.
#[test]
fn invariants_hold_along_random_playouts() {
    let mut n = 0;
    for (i, (_, g, _)) in suite_positions().into_iter().enumerate() {
        n += common::random_playouts(&g, 7 + i as u64, 2, 60, |_| {});
    }
    n += common::random_playouts(&engine(START_FEN), 1, 3, 200, |_| {});
    assert!(n > 500);
}

/// Garbage FENs give errors, never panics; whatever parses is consistent.
#[test]
fn fen_reading_never_panics() {
    let mut rng = StdRng::seed_from_u64(99);
    let alphabet: Vec<char> = "wbgsKQRBNCPkx0123456789/|- AaBbCcDdEeHh\u{e9}"
        .chars()
        .collect();
    let seeds: Vec<String> = suite_positions()
        .into_iter()
        .map(|(_, g, _)| g.fen())
        .chain([START_FEN.to_string()])
        .collect();
    for i in 0..3000 {
        let mut s: Vec<char> = seeds[i % seeds.len()].chars().collect();
        for _ in 0..rng.gen_range(1..4) {
            let at = rng.gen_range(0..=s.len());
            match rng.gen_range(0..3) {
                0 if at < s.len() => {
                    s.remove(at);
                }
                1 if at < s.len() => s[at] = alphabet[rng.gen_range(0..alphabet.len())],
                _ => s.insert(at, alphabet[rng.gen_range(0..alphabet.len())]),
            }
        }
        let text: String = s.into_iter().collect();
        if let Ok(mut g) = AnyGame::from_fen(Variant::FutureGeneration, &text) {
            common::check_position(&mut g);
        }
    }
    for bad in ["", "w", "8/8 w", "|||", "x x x x x x x x x", "\u{e9}\u{e9}"] {
        assert!(AnyGame::from_fen(Variant::FutureGeneration, bad).is_err());
    }
}

// ---------------------------------------------------------------------------------------
// The rules file's own examples and rulings, one by one.
// ---------------------------------------------------------------------------------------

/// A FEN from a list of `token:cell` pairs (`wK:Ae1`), the other fields given as text.
fn fen_of(pieces: &str, rest: &str) -> String {
    let mut board = [[[""; 8]; 8]; 4];
    for item in pieces.split_whitespace() {
        let (token, cell) = item.split_once(':').expect("token:cell");
        let b = cell.as_bytes();
        let (z, x, y) = (
            (b[0] - b'A') as usize,
            (b[1] - b'a') as usize,
            (b[2] - b'1') as usize,
        );
        board[z][y][x] = token;
    }
    let levels: Vec<String> = board
        .iter()
        .map(|level| {
            let ranks: Vec<String> = (0..8)
                .rev()
                .map(|y| {
                    let mut s = String::new();
                    let mut empty = 0;
                    for token in level[y] {
                        if token.is_empty() {
                            empty += 1;
                        } else {
                            if empty > 0 {
                                s += &empty.to_string();
                                empty = 0;
                            }
                            s += token;
                        }
                    }
                    if empty > 0 {
                        s += &empty.to_string();
                    }
                    s
                })
                .collect();
            ranks.join("/")
        })
        .collect();
    format!("{} {rest}", levels.join("|"))
}

/// The four Kings out of everybody's way, for positions about one piece.
const KINGS: &str = "wK:Ah1 bK:Ah8 gK:Dh8 sK:Da8";

fn names_from(g: &AnyGame, from: &str) -> BTreeSet<String> {
    engine_names(g)
        .into_iter()
        .filter(|n| n.starts_with(from))
        .map(|n| n[from.len()..].to_string())
        .collect()
}

fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|s| s.to_string()).collect()
}

fn play(g: &mut AnyGame, moves: &[&str]) {
    for m in moves {
        let mv = g.parse_move(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        g.make(mv);
    }
}

#[test]
fn start_position_has_72_moves_for_each_colour() {
    let mut g = engine(START_FEN);
    for colour in ["w", "b", "g", "s"] {
        assert_eq!(g.count_moves(), 72, "{colour}");
        assert!(g.fen().contains(&format!(" {colour} ")));
        let first = engine_names(&g).into_iter().next().expect("a move");
        play(&mut g, &[&first]);
    }
    let fen = g.fen();
    assert!(fen.contains(" w ") && fen.ends_with(" 2"), "{fen}");
    let names = engine_names(&engine(START_FEN));
    for n in [
        "Ae2Ae4", "Ae2Be4", "Ae2Ae3", "Ae2Be3", "Ae2Be2", "Ab1Bb3", "Ab1Bd1", "Aa1Ba1",
    ] {
        assert!(names.contains(n), "{n}");
    }
    assert!(
        !names.contains("Aa1Ca1"),
        "locked: the Rook stops at the gate level"
    );
}

#[test]
fn move_numbers_count_rounds_and_the_clock_counts_plies() {
    let mut g = engine(START_FEN);
    play(&mut g, &["Ab1Ac3", "Ab8Ac6", "Dh2Df3", "Da2Dc3"]);
    assert!(
        g.fen().ends_with(" w wKQbKQgKQsKQ - - - 4 2"),
        "{}",
        g.fen()
    );
    play(&mut g, &["Ae2Ae3"]);
    assert!(g.fen().ends_with(" 0 2"), "a pawn move resets the clock");
}

#[test]
fn knight_leaps_one_level_and_two_cells() {
    // "the Knight one level and two squares orthogonally (Ab1 -> Bb3 or Bd1)"; ruling 3:
    // from Aa1 it reaches Bc1 and Ba3.
    let g = engine(&fen_of(&format!("{KINGS} wN:Ab1 wN:Aa1"), "w - - - - 0 1"));
    assert_eq!(
        names_from(&g, "Ab1"),
        set(&["Ad2", "Ac3", "Aa3", "Bb3", "Bd1"])
    );
    assert_eq!(names_from(&g, "Aa1"), set(&["Ab3", "Ac2", "Bc1", "Ba3"]));
}

#[test]
fn crowned_knight_leaps_two_levels_once_unlocked() {
    let pieces = format!("{KINGS} wC:Ad4");
    let locked = engine(&fen_of(&pieces, "w - - - - 0 1"));
    let unlocked = engine(&fen_of(&pieces, "w - - w - 0 1"));
    let two_levels = set(&["Cd5", "Cd3", "Cc4", "Ce4"]);
    let l = names_from(&locked, "Ad4");
    let u = names_from(&unlocked, "Ad4");
    assert!(l.is_disjoint(&two_levels), "locked: no leap onto level C");
    assert!(two_levels.is_subset(&u));
    // 8 in-level leaps + 4 one level down (two cells) + 4 two levels down (one cell).
    assert_eq!(u.len(), 16);
}

#[test]
fn king_bishop_rook_and_queen_between_levels() {
    let rest = "w - - w - 0 1";
    let king = engine(&fen_of("wK:Bd4 bK:Ah8 gK:Dh8 sK:Da8", rest));
    assert_eq!(names_from(&king, "Bd4").len(), 26);
    // The Bishop steps to the 8 cells around the cell above or below; no vertical step.
    let bishop = engine(&fen_of(&format!("{KINGS} wB:Bd4"), rest));
    let b = names_from(&bishop, "Bd4");
    assert_eq!(b.iter().filter(|n| !n.starts_with('B')).count(), 16);
    assert!(!b.contains("Ad4") && !b.contains("Cd4") && b.contains("Ce5"));
    assert!(
        !b.contains("Df6"),
        "the step between levels is a single step"
    );
    // The Rook slides straight up or down through any number of levels.
    let rook = engine(&fen_of(&format!("{KINGS} wR:Ad4"), rest));
    let r = names_from(&rook, "Ad4");
    assert!(r.contains("Bd4") && r.contains("Cd4") && r.contains("Dd4"));
    assert!(!r.contains("Be5"));
    // The Queen: the 9 cells of the adjacent level, and further straight down.
    let queen = engine(&fen_of(&format!("{KINGS} wQ:Ad4"), rest));
    let q = names_from(&queen, "Ad4");
    assert_eq!(q.iter().filter(|n| n.starts_with('B')).count(), 9);
    assert_eq!(q.iter().filter(|n| n.starts_with('C')).count(), 1);
    assert_eq!(q.iter().filter(|n| n.starts_with('D')).count(), 1);
}

#[test]
fn the_rook_slide_stops_before_a_locked_level() {
    let pieces = format!("{KINGS} wR:Ad4 gR:Ce5");
    let g = engine(&fen_of(&pieces, "w - - - - 0 1"));
    let r = names_from(&g, "Ad4");
    assert!(r.contains("Bd4") && !r.contains("Cd4") && !r.contains("Dd4"));
    let mut g = engine(&fen_of(&pieces, "g - - - - 0 1"));
    let r = names_from(&g, "Ce5");
    assert!(r.contains("De5") && !r.contains("Be5") && !r.contains("Ae5"));
    // Gold unlocked: up through B to A.
    g = engine(&fen_of(&pieces, "g - - g - 0 1"));
    assert!(names_from(&g, "Ce5").contains("Ae5"));
}

#[test]
fn four_pieces_on_the_gate_level_unlock_for_good() {
    let fen = fen_of(
        "wK:Ae1 wR:Aa1 wP:Bc3 wP:Bd3 wN:Bf3 bK:Ae8 gK:Dh4 sK:Da4",
        "w - - - - 0 1",
    );
    let mut g = engine(&fen);
    // The fourth piece's own move is judged locked: the Rook cannot go past B.
    assert!(!names_from(&g, "Aa1").contains("Ca1"));
    play(&mut g, &["Aa1Ba1"]);
    assert!(g.fen().contains(" w - "), "{}", g.fen());
    play(&mut g, &["Ae8Ad8", "Dh4Dg4", "Da4Db4"]);
    assert!(names_from(&g, "Ba1").contains("Da1"));
    // Leaving the gate level does not lock White again.
    play(&mut g, &["Ba1Da1", "Ad8Ae8", "Dg4Dh4", "Db4Da4"]);
    assert!(g.fen().contains(" w - "), "{}", g.fen());
    assert!(names_from(&g, "Da1").contains("Ca1"));
}

#[test]
fn double_step_belongs_to_the_cell_and_checks_the_cell_passed_over() {
    // Ruling 11: for Aa2 -> Ba4 only Ba3 must be empty (Aa3 may be occupied).
    let blocked_a3 = engine(&fen_of(&format!("{KINGS} wP:Aa2 wN:Aa3"), "w - - - - 0 1"));
    let p = names_from(&blocked_a3, "Aa2");
    assert!(p.contains("Ba4") && !p.contains("Aa4"));
    let blocked_b3 = engine(&fen_of(&format!("{KINGS} wP:Aa2 wN:Ba3"), "w - - - - 0 1"));
    let p = names_from(&blocked_b3, "Aa2");
    assert!(!p.contains("Ba4") && p.contains("Aa4"));
    // A pawn that stepped down and back up double-steps again.
    let mut g = engine(&fen_of(&format!("{KINGS} wP:Aa2"), "w - - - - 0 1"));
    play(
        &mut g,
        &[
            "Aa2Ba2", "Ah8Ag8", "Dh8Dg8", "Da8Db8", "Ba2Aa2", "Ag8Ah8", "Dg8Dh8", "Db8Da8",
        ],
    );
    assert!(names_from(&g, "Aa2").contains("Ba4"));
    // Not from any other cell.
    let g = engine(&fen_of(&format!("{KINGS} wP:Ba2"), "w - - - - 0 1"));
    assert!(!names_from(&g, "Ba2").contains("Ba4"));
}

#[test]
fn dimensional_en_passant_of_the_seed_example() {
    // White pawn Ab5, Black plays Aa7-Ba5, White takes Ab5xBa6 (Gold and Silver eliminated,
    // so that White moves after Black as in the two-player original).
    let mut g = engine(&fen_of("wK:Ae1 wP:Ab5 bK:Ae8 bP:Aa7", "b - - - gs 0 1"));
    play(&mut g, &["Aa7Ba5"]);
    assert!(g.fen().contains(" Ba6 "), "{}", g.fen());
    let mv = g.parse_move("Ab5Ba6").expect("en passant");
    let victim = g.captured_piece(mv);
    assert!(victim.is_some() && victim.kind() == 0 && victim.colour().0 == 1);
    assert!(g.is_tactical(mv));
    g.make(mv);
    assert!(
        !g.fen().contains("bP"),
        "the pawn that double-stepped is gone"
    );
    g.check_invariants().expect("consistent");
}

#[test]
fn en_passant_belongs_to_the_next_colour_only() {
    let fen = fen_of(
        "wK:Ae1 wP:Ae2 bK:Ae8 bP:Ad4 gK:Dh4 sK:Da4 sP:Bd2",
        "w - - s - 0 1",
    );
    let mut g = engine(&fen);
    play(&mut g, &["Ae2Be4"]);
    assert!(names_from(&g, "Ad4").contains("Be3"));
    play(&mut g, &["Ae8Ad8", "Dh4Dg4"]);
    assert!(!names_from(&g, "Bd2").contains("Be3"), "Silver is not next");
    // With Black eliminated Gold is next: White's partner, so nobody (ruling 9).
    let fen = fen_of("wK:Ae1 wP:Ae2 bP:Ad4 gK:Dh4 sK:Da4 sP:Bd2", "w - - s b 0 1");
    let mut g = engine(&fen);
    play(&mut g, &["Ae2Be4"]);
    assert!(
        g.fen().contains(" - s b "),
        "no en passant right: {}",
        g.fen()
    );
    play(&mut g, &["Dh4Dg4"]);
    assert!(!names_from(&g, "Bd2").contains("Be3"));
}

#[test]
fn promotion_on_each_far_edge_and_crowning() {
    let fen = fen_of(
        "wK:Ae1 wP:Ab7 bK:Ae8 bP:Ag2 gK:Dh8 gP:Db2 sK:Da8 sP:Dg7",
        "w - - - - 0 1",
    );
    let mut g = engine(&fen);
    let promotions = |g: &AnyGame, from: &str| -> BTreeSet<String> { names_from(g, from) };
    assert_eq!(
        promotions(&g, "Ab7"),
        set(&[
            "Ab8q", "Ab8r", "Ab8b", "Ab8n", "Bb8q", "Bb8r", "Bb8b", "Bb8n", "Bb7"
        ])
    );
    play(&mut g, &["Ab7Ab8n"]);
    assert!(
        g.fen().contains("wN"),
        "a promoted Knight is not crowned: {}",
        g.fen()
    );
    assert!(promotions(&g, "Ag2").contains("Ag1q"));
    play(&mut g, &["Ag2Bg1r"]);
    assert!(promotions(&g, "Db2").contains("Ca2b"));
    play(&mut g, &["Db2Da2q"]);
    assert!(promotions(&g, "Dg7").contains("Dh7n"));
    play(&mut g, &["Dg7Ch7n"]);
    // Ruling 8: the promoted Knight on Ab8 crowns when it moves to another far-edge cell.
    play(&mut g, &["Ab8Bd8"]);
    assert!(g.fen().contains("wC"), "{}", g.fen());
    // A Knight crowns on arrival at its far edge, and the crown moves with it.
    let mut g = engine(&fen_of(&format!("{KINGS} wN:Ab6"), "w - - - - 0 1"));
    play(&mut g, &["Ab6Ac8", "Ah8Ag8", "Dh8Dg8", "Da8Db8", "Ac8Ad6"]);
    assert!(g.fen().contains("wC"), "{}", g.fen());
}

#[test]
fn castling_for_all_four_colours() {
    let fen = fen_of(
        "wK:Ae1 wR:Aa1 wR:Ah1 wP:Af2 bK:Ae8 bR:Aa8 bR:Ah8 gK:Dh4 gR:Dh1 gR:Dh8 gP:Dg3 sK:Da4 sR:Da1 sR:Da8",
        "w wKQbKQgKQsKQ - - - 0 1",
    );
    let mut g = engine(&fen);
    for (king, short, long, rook) in [
        ("Ae1", "Ag1", "Ac1", "wR"),
        ("Ae8", "Ag8", "Ac8", "bR"),
        ("Dh4", "Dh2", "Dh6", "gR"),
        ("Da4", "Da2", "Da6", "sR"),
    ] {
        let k = names_from(&g, king);
        assert!(k.contains(short) && k.contains(long), "{king}: {k:?}");
        let mut list = MoveList::new();
        g.generate(&mut list);
        let mv = g.parse_move(&format!("{king}{short}")).expect("castling");
        assert_eq!(mv.flag(), strata::rules::MoveFlag::Castle);
        assert!(g.captured_piece(mv).is_none());
        play(&mut g, &[&format!("{king}{short}")]);
        assert!(g.fen().contains(rook));
    }
    // Kings on g1, g8, h2, a2 and Rooks on f1, f8, h3, a3 (the pawns Af2 and Dg3 keep the
    // Rooks Af1 and Dh3 from attacking Af8 and Da3, the next colour's castling cells).
    assert_eq!(
        g.fen().split(' ').nth(2),
        Some("-"),
        "castling moves the King: both rights of each colour go"
    );
    let expected = fen_of(
        "wK:Ag1 wR:Aa1 wR:Af1 wP:Af2 bK:Ag8 bR:Aa8 bR:Af8 gK:Dh2 gR:Dh3 gR:Dh8 gP:Dg3 sK:Da2 sR:Da3 sR:Da8",
        "w - - - - 4 2",
    );
    assert_eq!(g.fen(), expected);
}

#[test]
fn castling_rights_go_when_king_or_rook_leaves_or_the_rook_is_captured() {
    let fen = fen_of(
        "wK:Ae1 wR:Ah1 wR:Aa1 wP:Ab2 bK:Ae8 bB:Bg2 gK:Dh4 sK:Da4",
        "w wKQ - - - 0 1",
    );
    // The Rook leaves and comes back: the right is gone for good (ruling 13).
    let mut g = engine(&fen);
    play(&mut g, &["Ah1Ag1", "Ae8Ad8", "Dh4Dg4", "Da4Db4", "Ag1Ah1"]);
    assert_eq!(g.fen().split(' ').nth(2), Some("wQ"));
    // The Rook is captured on its cell.
    let mut g = engine(&fen);
    play(&mut g, &["Ab2Ab3", "Bg2Ah1"]);
    assert_eq!(g.fen().split(' ').nth(2), Some("wQ"));
    // A FEN right without its King and Rook at home is an error.
    let err = AnyGame::from_fen(
        Variant::FutureGeneration,
        &fen_of("wK:Ae2 wR:Ah1 bK:Ae8 gK:Dh4 sK:Da4", "w wK - - - 0 1"),
    )
    .unwrap_err();
    assert!(err.contains("wK") && err.contains("Ae1"), "{err}");
}

#[test]
fn king_capture_eliminates_and_the_order_skips_the_colour() {
    let fen = fen_of(
        "wK:Ae1 wQ:Ae5 bK:Ae8 bR:Aa8 bP:Ah7 gK:Dh4 gQ:Bb7 sK:Da4",
        "w - - g - 0 1",
    );
    let mut g = engine(&fen);
    let mv = g.parse_move("Ae5Ae8").expect("the Queen takes the King");
    assert_eq!(g.captured_piece(mv).kind(), 5);
    g.make(mv);
    assert_eq!(g.side_to_move().0, 2, "Gold moves next, Black is skipped");
    assert!(g.fen().contains(" g - - g b "), "{}", g.fen());
    assert!(g.decided().is_none());
    // Black's pieces stay, never move, and may be captured by the other team.
    assert!(g.fen().contains("bR") && g.fen().contains("bP"));
    assert!(names_from(&g, "Bb7").contains("Aa8"));
    play(&mut g, &["Bb7Aa8"]);
    assert_eq!(g.side_to_move().0, 3);
    play(&mut g, &["Da4Db4"]);
    assert_eq!(g.side_to_move().0, 0, "Silver, then White again");
    for _ in 0..8 {
        let names = engine_names(&g);
        assert!(
            !names.iter().any(|n| n.starts_with("Ah7")),
            "an eliminated pawn moved"
        );
        let first = names.into_iter().next().expect("a move");
        play(&mut g, &[&first]);
    }
    // Unmaking the capture brings Black back.
    while g.history_len() > 0 {
        g.unmake();
    }
    assert_eq!(g.fen(), engine(&fen).fen());
}

#[test]
fn the_second_king_of_a_team_ends_the_game() {
    let fen = fen_of("wK:Ae1 wR:Dd4 bR:Ah8 gK:Dh8 sK:Da4 sP:Db1", "w - - w b 0 1");
    let mut g = engine(&fen);
    assert!(g.decided().is_none() && g.outcome().is_none());
    play(&mut g, &["Dd4Da4"]);
    let end = g.decided().expect("decided");
    assert!(matches!(end, GameEnd::Win { winner: 0, .. }), "{end:?}");
    assert_eq!(g.outcome(), Some(end));
    assert_eq!(end.result_string(), "1-0");
    assert_eq!(g.count_moves(), 0);
    assert!(engine_names(&g).is_empty());
    assert!(!g.null_move_allowed());
    // A FEN with both colours of a team eliminated is read as decided too.
    let over = engine(&fen_of("wK:Ae1 bR:Ah8 gK:Dh8 sP:Db1", "w - - w bs 0 1"));
    assert!(matches!(
        over.decided(),
        Some(GameEnd::Win { winner: 0, .. })
    ));
}

#[test]
fn a_colour_without_a_move_passes() {
    let fen = fen_of(
        "wK:Ae1 bN:Da2 bB:Db1 bR:Db2 bN:Ca1 bB:Ca2 bR:Cb1 bQ:Cb2 gK:Dh8 sK:Da1",
        "s - - b b 0 1",
    );
    let mut g = engine(&fen);
    assert_eq!(engine_names(&g), set(&["0000"]));
    assert!(g.is_move_syntax("0000"));
    let pass = g.parse_move("0000").expect("the pass");
    assert_eq!(pass.flag(), strata::rules::MoveFlag::Pass);
    assert!(!g.is_tactical(pass) && g.moved_piece(pass).is_none());
    g.make(pass);
    assert_eq!(g.side_to_move().0, 0);
    assert!(g.fen().ends_with(" 1 2"), "the pass is a ply: {}", g.fen());
    g.unmake();
    assert_eq!(g.fen(), engine(&fen).fen());
    // A colour with moves has no pass.
    assert!(g.parse_move("0000").is_err() || g.side_to_move().0 == 3);
    assert!(engine(START_FEN).parse_move("0000").is_err());
}

#[test]
fn repetition_and_the_200_ply_rule() {
    let mut g = engine(START_FEN);
    let round = [
        "Ab1Ac3", "Ab8Ac6", "Dh2Df3", "Da2Dc3", "Ac3Ab1", "Ac6Ab8", "Df3Dh2", "Dc3Da2",
    ];
    assert_eq!(g.repetitions(), 0);
    play(&mut g, &round);
    assert_eq!(g.repetitions(), 1);
    assert!(g.outcome().is_none());
    play(&mut g, &round);
    assert_eq!(g.repetitions(), 2);
    assert_eq!(
        g.outcome(),
        Some(GameEnd::Draw {
            reason: "threefold repetition"
        })
    );
    // A pawn stepping down and back up repeats the position too (its clock is reset, but the
    // position is the same).
    let mut g = engine(START_FEN);
    play(
        &mut g,
        &[
            "Aa2Ba2", "Ab8Ac6", "Dh2Df3", "Da2Dc3", "Ba2Aa2", "Ac6Ab8", "Df3Dh2", "Dc3Da2",
        ],
    );
    assert_eq!(g.repetitions(), 1);
    // 200 plies without capture or pawn move.
    let fen = fen_of(KINGS, "w - - - - 199 60");
    let mut g = engine(&fen);
    assert!(g.rule_draw().is_none());
    play(&mut g, &["Ah1Ag1"]);
    assert!(g.rule_draw().is_some());
    assert!(matches!(g.outcome(), Some(GameEnd::Draw { .. })));
}

#[test]
fn null_move_passes_to_the_next_colour_in_the_game() {
    let fen = fen_of("wK:Ae1 bR:Ah8 gK:Dh8 sK:Da1", "w - - - b 0 1");
    let mut g = engine(&fen);
    assert!(g.null_move_allowed());
    let key = g.key();
    g.make_null();
    assert_eq!(g.side_to_move().0, 2);
    g.check_invariants().expect("consistent");
    g.unmake_null();
    assert_eq!(g.key(), key);
    assert_eq!(
        g.fen(),
        fen_of("wK:Ae1 bR:Ah8 gK:Dh8 sK:Da1", "w - - - b 0 1")
    );
    assert!(!g.in_check(), "there is no check");
}

#[test]
fn fen_errors_say_what_is_wrong() {
    let cases = [
        (fen_of("wK:Ae1 gK:Dh8 sK:Da1", "w"), "Black has 0 Kings"),
        (
            fen_of("wK:Ae1 bK:Ae8 gK:Dh8 sK:Da1", "w - - - b"),
            "eliminated but has a King",
        ),
        (fen_of(&format!("{KINGS} wP:Ab8"), "w"), "pawn on Ab8"),
        (fen_of(&format!("{KINGS} gP:Dh3"), "w"), "pawn on Dh3"),
        (fen_of(&format!("{KINGS} wN:Cb3"), "w"), "beyond its gate"),
        (
            fen_of(&format!("{KINGS} wN:Bb3 wN:Bc3 wN:Bd3 wN:Be3"), "w"),
            "must be listed as unlocked",
        ),
        (
            fen_of(KINGS, "b - Ae4"),
            "not a cell a double step of White",
        ),
        (
            fen_of(KINGS, "b - Ae3"),
            "needs an empty cell and White's pawn",
        ),
        (fen_of(KINGS, "x"), "side to move"),
        (fen_of(KINGS, "w - - q"), "unlocked field"),
        (fen_of(KINGS, "w - - ww"), "twice"),
        (fen_of(KINGS, "w Kw"), "must follow a colour letter"),
        (
            fen_of("wK:Ah1 gK:Dh8 sK:Da8", "b - - - b"),
            "the colour to move",
        ),
        (fen_of(KINGS, "w - - - - x"), "half-move clock"),
        (fen_of(KINGS, "w - - - - 0 1 9"), "at most 8"),
        (
            fen_of(KINGS, "w").replacen("7bK", "6xK", 1),
            "neither a digit",
        ),
        ("8/8/8/8/8/8/8/8|8 w".to_string(), "levels"),
        (
            fen_of(KINGS, "w").replacen('7', "9", 1),
            "bad empty-cell count",
        ),
        (
            fen_of(KINGS, "w").replacen("wK", "wX", 1),
            "unknown piece 'wX'",
        ),
    ];
    for (fen, expected) in cases {
        let err = AnyGame::from_fen(Variant::FutureGeneration, fen.trim())
            .expect_err(&fen)
            .to_string();
        assert!(err.contains(expected), "{fen}: '{err}' lacks '{expected}'");
    }
    // The en passant cell is dropped when the colour to move cannot use it.
    let g = engine(&fen_of(&format!("{KINGS} wP:Ae4"), "b - Ae3"));
    assert!(g.fen().contains(" b - - "), "{}", g.fen());
    let g = engine(&fen_of(&format!("{KINGS} wP:Ae4 bP:Ad4"), "b - Ae3"));
    assert!(g.fen().contains(" b - Ae3 "), "{}", g.fen());
}

#[test]
fn notation_and_drawing() {
    let g = engine(START_FEN);
    for ok in ["Ae2Ae4", "Ae7Ae8q", "Dh4Dh2", "0000", "Dh8Ah1n"] {
        assert!(g.is_move_syntax(ok), "{ok}");
    }
    for bad in [
        "e2e4",
        "Ae2Ae9",
        "Ee2Ae4",
        "Ae2Ae4k",
        "Ae2",
        "Ae2Ae4qq",
        "",
        "Ae2\u{e9}",
    ] {
        assert!(!g.is_move_syntax(bad), "{bad}");
    }
    assert!(matches!(
        g.parse_move("Ae2Ae5"),
        Err(strata::rules::MoveError::Illegal(_))
    ));
    assert!(matches!(
        g.parse_move("e2e4"),
        Err(strata::rules::MoveError::Malformed(_))
    ));
    let mut g = engine(&fen_of(
        "wK:Ae1 wQ:Ae5 bK:Ae8 gK:Dh4 sK:Da4",
        "w - - - - 0 1",
    ));
    play(&mut g, &["Ae5Ae8"]);
    let d = g.drawing();
    for part in [
        "Level A",
        "Level D",
        "Fen: ",
        "Key: ",
        "Eliminated: Black",
        "To move: Gold",
    ] {
        assert!(d.contains(part), "{part} missing in\n{d}");
    }
    let key_line = d.lines().find(|l| l.starts_with("Key: ")).expect("key");
    assert_eq!(key_line.len(), "Key: ".len() + 16);
}

#[test]
fn the_protocol_plays_the_variant() {
    use std::sync::Arc;
    use strata::protocol::{Captured, Engine};
    let out = Arc::new(Captured::default());
    let mut e = Engine::new(out.clone());
    for line in [
        "setoption name UCI_Variant value future-generation",
        "position startpos moves Ae2Be4 Ad7Ad5",
        "go perft 1",
        "d",
    ] {
        assert!(e.handle_line(line));
    }
    let lines = out.take();
    assert!(
        lines.contains(&"Nodes searched: 72".to_string()),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Fen: ") && l.contains(" g "))
    );
    assert!(e.handle_line("position startpos moves Ae2Ae5"));
    let lines = out.take();
    assert!(lines[0].contains("illegal move 'Ae2Ae5'"), "{lines:?}");
    assert!(
        e.handle_line("go wtime 1000 btime 1000 gtime 1000 stime 1000 winc 1 binc 1 ginc 1 sinc 1")
    );
    assert!(
        !out.take()
            .iter()
            .any(|l| l.contains("unknown go parameter")),
        "a clock per colour is accepted"
    );
}
