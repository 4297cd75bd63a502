//! A second chess / Pole Chess move generator, written from the rules alone for cross-checks.
//!
//! Deliberately simple and slow: an 8x8 array of squares, its own FEN reader, moves found by
//! stepping through coordinates, legality by playing the move on a copy and asking whether the
//! mover's King is attacked. It shares no code or tables with the engine.
#![allow(dead_code)]

/// A piece: colour (0 White, 1 Black) and uppercase letter (P N B R Q K, O for a Pole).
pub type Sq = Option<(u8, char)>;

/// A position.
#[derive(Clone, Debug)]
pub struct Pos {
    /// `board[y][x]`, rank `y`, file `x`.
    pub board: [[Sq; 8]; 8],
    /// Side to move.
    pub stm: u8,
    /// Castling rights: White short, White long, Black short, Black long.
    pub castle: [bool; 4],
    /// En passant target square (x, y).
    pub ep: Option<(i32, i32)>,
    /// Pole Chess?
    pub pole_rules: bool,
    /// Poles available?
    pub poles_available: bool,
    /// Pole in hand per colour.
    pub hand: [bool; 2],
}

fn on(x: i32, y: i32) -> bool {
    (0..8).contains(&x) && (0..8).contains(&y)
}

fn name(x: i32, y: i32) -> String {
    format!("{}{}", (b'a' + x as u8) as char, y + 1)
}

impl Pos {
    /// Reads a FEN in the engine's documented format (Pole holdings in brackets).
    pub fn parse(fen: &str, pole_rules: bool) -> Pos {
        let f: Vec<&str> = fen.split_whitespace().collect();
        let (placement, holdings) = match f[0].split_once('[') {
            Some((p, h)) => (p, Some(h.trim_end_matches(']'))),
            None => (f[0], None),
        };
        let mut board = [[None; 8]; 8];
        for (i, row) in placement.split('/').enumerate() {
            let y = 7 - i;
            let mut x = 0;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    x += d as usize;
                } else {
                    let colour = if c.is_ascii_uppercase() { 0 } else { 1 };
                    board[y][x] = Some((colour, c.to_ascii_uppercase()));
                    x += 1;
                }
            }
        }
        let mut hand = [pole_rules; 2];
        let mut poles_available = false;
        if let Some(h) = holdings {
            hand = [h.contains('O'), h.contains('o')];
            poles_available = h.contains('+');
        }
        let castle_field = f.get(2).copied().unwrap_or("-");
        let ep = f.get(3).copied().unwrap_or("-");
        Pos {
            board,
            stm: if f[1] == "w" { 0 } else { 1 },
            castle: [
                castle_field.contains('K'),
                castle_field.contains('Q'),
                castle_field.contains('k'),
                castle_field.contains('q'),
            ],
            ep: (ep != "-").then(|| {
                let b = ep.as_bytes();
                ((b[0] - b'a') as i32, (b[1] - b'1') as i32)
            }),
            pole_rules,
            poles_available: poles_available
                || board.iter().flatten().any(|s| matches!(s, Some((_, 'O')))),
            hand,
        }
    }

    fn at(&self, x: i32, y: i32) -> Sq {
        self.board[y as usize][x as usize]
    }

    fn set(&mut self, x: i32, y: i32, s: Sq) {
        self.board[y as usize][x as usize] = s;
    }

    fn king(&self, c: u8) -> (i32, i32) {
        for y in 0..8 {
            for x in 0..8 {
                if self.at(x, y) == Some((c, 'K')) {
                    return (x, y);
                }
            }
        }
        panic!("no king");
    }

    /// Whether colour `by` attacks square (x, y).
    pub fn attacked(&self, x: i32, y: i32, by: u8) -> bool {
        let pawn_dir = if by == 0 { 1 } else { -1 };
        for dx in [-1, 1] {
            let (px, py) = (x + dx, y - pawn_dir);
            if on(px, py) && self.at(px, py) == Some((by, 'P')) {
                return true;
            }
        }
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
            if on(x + dx, y + dy) && self.at(x + dx, y + dy) == Some((by, 'N')) {
                return true;
            }
        }
        for dx in -1..=1 {
            for dy in -1..=1 {
                if (dx, dy) != (0, 0)
                    && on(x + dx, y + dy)
                    && self.at(x + dx, y + dy) == Some((by, 'K'))
                {
                    return true;
                }
            }
        }
        for (dx, dy) in [
            (1, 0),
            (-1, 0),
            (0, 1),
            (0, -1),
            (1, 1),
            (1, -1),
            (-1, 1),
            (-1, -1),
        ] {
            let diagonal = dx != 0 && dy != 0;
            let (mut cx, mut cy) = (x + dx, y + dy);
            while on(cx, cy) {
                if let Some((c, k)) = self.at(cx, cy) {
                    let slider = k == 'Q' || (diagonal && k == 'B') || (!diagonal && k == 'R');
                    if c == by && slider {
                        return true;
                    }
                    break; // any piece, a Pole included, blocks
                }
                cx += dx;
                cy += dy;
            }
        }
        false
    }

    /// Every legal move: its name and the position after it.
    pub fn legal_moves(&self) -> Vec<(String, Pos)> {
        let mut out = Vec::new();
        let us = self.stm;
        let them = 1 - us;
        let dir = if us == 0 { 1 } else { -1 };
        let mut push = |name: String, next: Pos| {
            let (kx, ky) = next.king(us);
            if !next.attacked(kx, ky, them) {
                out.push((name, next));
            }
        };
        for y in 0..8 {
            for x in 0..8 {
                let Some((c, k)) = self.at(x, y) else {
                    continue;
                };
                if c != us {
                    continue;
                }
                let mut dests: Vec<(i32, i32)> = Vec::new();
                match k {
                    'P' => {
                        let ny = y + dir;
                        if on(x, ny) && self.at(x, ny).is_none() {
                            dests.push((x, ny));
                            let start = if us == 0 { 1 } else { 6 };
                            if y == start && self.at(x, ny + dir).is_none() {
                                let mut n = self.after(x, y, x, ny + dir);
                                n.ep = Some((x, ny));
                                push(format!("{}{}", name(x, y), name(x, ny + dir)), n);
                            }
                        }
                        for dx in [-1, 1] {
                            let (cx, cy) = (x + dx, y + dir);
                            if !on(cx, cy) {
                                continue;
                            }
                            match self.at(cx, cy) {
                                Some((o, ok)) if o == them && ok != 'O' => dests.push((cx, cy)),
                                None if self.ep == Some((cx, cy)) => {
                                    let mut n = self.after(x, y, cx, cy);
                                    n.set(cx, y, None);
                                    n.poles_available = self.pole_rules;
                                    push(format!("{}{}", name(x, y), name(cx, cy)), n);
                                }
                                _ => {}
                            }
                        }
                        for (tx, ty) in dests.drain(..) {
                            if ty == 0 || ty == 7 {
                                for p in ['Q', 'R', 'B', 'N'] {
                                    let mut n = self.after(x, y, tx, ty);
                                    n.set(tx, ty, Some((us, p)));
                                    push(
                                        format!(
                                            "{}{}{}",
                                            name(x, y),
                                            name(tx, ty),
                                            p.to_ascii_lowercase()
                                        ),
                                        n,
                                    );
                                }
                            } else {
                                push(
                                    format!("{}{}", name(x, y), name(tx, ty)),
                                    self.after(x, y, tx, ty),
                                );
                            }
                        }
                        continue;
                    }
                    'N' | 'K' => {
                        let steps: &[(i32, i32)] = if k == 'N' {
                            &[
                                (1, 2),
                                (2, 1),
                                (-1, 2),
                                (-2, 1),
                                (1, -2),
                                (2, -1),
                                (-1, -2),
                                (-2, -1),
                            ]
                        } else {
                            &[
                                (1, 0),
                                (-1, 0),
                                (0, 1),
                                (0, -1),
                                (1, 1),
                                (1, -1),
                                (-1, 1),
                                (-1, -1),
                            ]
                        };
                        for &(dx, dy) in steps {
                            if on(x + dx, y + dy) {
                                dests.push((x + dx, y + dy));
                            }
                        }
                    }
                    'B' | 'R' | 'Q' => {
                        for (dx, dy) in [
                            (1, 0),
                            (-1, 0),
                            (0, 1),
                            (0, -1),
                            (1, 1),
                            (1, -1),
                            (-1, 1),
                            (-1, -1),
                        ] {
                            let diagonal = dx != 0 && dy != 0;
                            if (k == 'B' && !diagonal) || (k == 'R' && diagonal) {
                                continue;
                            }
                            let (mut cx, mut cy) = (x + dx, y + dy);
                            while on(cx, cy) {
                                dests.push((cx, cy));
                                if self.at(cx, cy).is_some() {
                                    break;
                                }
                                cx += dx;
                                cy += dy;
                            }
                        }
                    }
                    'O' => {
                        // Teleport: to any empty square.
                        for ty in 0..8 {
                            for tx in 0..8 {
                                if self.at(tx, ty).is_none() {
                                    push(
                                        format!("{}{}", name(x, y), name(tx, ty)),
                                        self.after(x, y, tx, ty),
                                    );
                                }
                            }
                        }
                        continue;
                    }
                    _ => unreachable!(),
                }
                for (tx, ty) in dests {
                    match self.at(tx, ty) {
                        None => {}
                        Some((o, ok)) if o == them && ok != 'O' => {}
                        _ => continue,
                    }
                    push(
                        format!("{}{}", name(x, y), name(tx, ty)),
                        self.after(x, y, tx, ty),
                    );
                }
            }
        }
        // Castling.
        let rank = if us == 0 { 0 } else { 7 };
        let (kx, ky) = self.king(us);
        if (kx, ky) == (4, rank) && !self.attacked(4, rank, them) {
            let short = if us == 0 { 0 } else { 2 };
            if self.castle[short]
                && self.at(5, rank).is_none()
                && self.at(6, rank).is_none()
                && !self.attacked(5, rank, them)
                && !self.attacked(6, rank, them)
            {
                let mut n = self.after(4, rank, 6, rank);
                n.set(7, rank, None);
                n.set(5, rank, Some((us, 'R')));
                push(format!("e{}g{}", rank + 1, rank + 1), n);
            }
            if self.castle[short + 1]
                && (1..4).all(|x| self.at(x, rank).is_none())
                && !self.attacked(3, rank, them)
                && !self.attacked(2, rank, them)
            {
                let mut n = self.after(4, rank, 2, rank);
                n.set(0, rank, None);
                n.set(3, rank, Some((us, 'R')));
                push(format!("e{}c{}", rank + 1, rank + 1), n);
            }
        }
        // Pole drops.
        if self.pole_rules && self.poles_available && self.hand[us as usize] {
            for ty in 0..8 {
                for tx in 0..8 {
                    if self.at(tx, ty).is_none() {
                        let mut n = self.clone();
                        n.ep = None;
                        n.stm = them;
                        n.hand[us as usize] = false;
                        n.set(tx, ty, Some((us, 'O')));
                        push(format!("O@{}", name(tx, ty)), n);
                    }
                }
            }
        }
        out
    }

    /// The position after moving the piece on (x, y) to (tx, ty), capturing what is there,
    /// with rights, en passant, side and Pole availability updated.
    fn after(&self, x: i32, y: i32, tx: i32, ty: i32) -> Pos {
        let mut n = self.clone();
        let piece = self.at(x, y);
        if self.at(tx, ty).is_some() && self.pole_rules {
            n.poles_available = true;
        }
        n.set(tx, ty, piece);
        n.set(x, y, None);
        n.ep = None;
        n.stm = 1 - self.stm;
        for (sx, sy, right) in [
            (4, 0, 0),
            (7, 0, 0),
            (4, 0, 1),
            (0, 0, 1),
            (4, 7, 2),
            (7, 7, 2),
            (4, 7, 3),
            (0, 7, 3),
        ] {
            if (x, y) == (sx, sy) || (tx, ty) == (sx, sy) {
                n.castle[right] = false;
            }
        }
        n
    }

    /// Perft by copy-make.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|(_, p)| p.perft(depth - 1)).sum()
    }
}
