//! Compiling a variant file's definition into [`Rules`]: the board and its cells, the pieces
//! and their moves, the direction tables, double steps, promotion, castling, the goal and the
//! draw rules, each a phase of its own; every check a definition must pass is made here, each
//! refusal naming the line of the value it is about.

use std::collections::HashSet;
use std::ops::Range;
use std::sync::OnceLock;

use super::compiled::Compiled;
use super::file::{BoardDef, CastlingDef, OneOrMany, PieceDef, VariantDef};
use super::limits::{self, MAX_HOLES};
use super::pieces;
use super::rules::*;
use crate::rules::bitset::Cell;
use crate::rules::board::MAX_KINDS;
use crate::rules::geometry::{Coord, Geometry, GeometrySpec, LevelSpec};
use crate::rules::info::{LevelOrder, VariantInfo};
use crate::rules::piece::{Colour, Kind};
use crate::rules::zobrist::Zobrist;

fn names(x: &OneOrMany) -> Vec<String> {
    match x {
        OneOrMany::One(s) => vec![s.clone()],
        OneOrMany::Many(v) => v.clone(),
    }
}

/// `"b-i"` → (1, 8); `"1-10"` → (0, 9). Files are `a` to `z`, ranks 1 to 99 (cell names
/// have at most two rank digits).
fn range_of(text: &str, letters: bool) -> Option<(i8, i8)> {
    let (a, b) = text.split_once('-').unwrap_or((text, text));
    let one = |s: &str| -> Option<i8> {
        let s = s.trim();
        if letters {
            let mut c = s.chars();
            match (c.next(), c.next()) {
                (Some(ch), None) if ch.is_ascii_lowercase() => Some(ch as i8 - b'a' as i8),
                _ => None,
            }
        } else {
            s.parse::<i8>()
                .ok()
                .filter(|r| (1..=MAX_RANKS).contains(r))
                .map(|r| r - 1)
        }
    };
    let (a, b) = (one(a)?, one(b)?);
    (a <= b).then_some((a, b))
}

/// The most files and levels (one letter each), and ranks (two digits).
const MAX_FILES: i8 = 26;
const MAX_RANKS: i8 = 99;
const MAX_LEVELS: usize = 26;

/// The coordinates of the cell named `name` (`e4`, `Cc3`) in the levels of `spec`, read as
/// [`Geometry::parse_name`] reads names: without building a geometry, which could not hold
/// a board that is too large before its holes are taken out.
fn coord_of_name(spec: &GeometrySpec, name: &str) -> Option<Coord> {
    let b = name.as_bytes();
    let (z, rest) = if spec.named_levels {
        let l = *b.first()?;
        if !l.is_ascii_uppercase() {
            return None;
        }
        ((l - b'A') as usize, &b[1..])
    } else {
        (0, b)
    };
    let (&f, digits) = rest.split_first()?;
    if !f.is_ascii_lowercase()
        || digits.is_empty()
        || digits.len() > 2
        || digits[0] == b'0'
        || !digits.iter().all(u8::is_ascii_digit)
    {
        return None;
    }
    let x = (f - b'a') as i8;
    let y = digits.iter().fold(0i8, |n, d| n * 10 + (d - b'0') as i8) - 1;
    let level = spec.levels.get(z)?;
    let inside = (level.files.0..=level.files.1).contains(&x)
        && (level.ranks.0..=level.ranks.1).contains(&y);
    inside.then_some(Coord { x, y, z: z as i8 })
}

fn board_spec(board: &BoardDef, span: &Range<usize>) -> Result<GeometrySpec, Refusal> {
    let mut levels = Vec::new();
    if !board.level.is_empty() {
        if board.files.is_some() || board.ranks.is_some() || board.levels.is_some() {
            return refuse(
                span,
                "board: give either `level` tables or files/ranks/levels",
            );
        }
        if board.level.len() > MAX_LEVELS {
            return refuse(span, format!("board: at most {MAX_LEVELS} levels"));
        }
        for (i, l) in board.level.iter().enumerate() {
            let (lspan, l) = (l.span(), l.get_ref());
            let files = range_of(&l.files, true).ok_or_else(|| Refusal {
                span: lspan.clone(),
                message: format!(
                    "board: level {} files '{}' is not a range like \"a-h\"",
                    i + 1,
                    l.files
                ),
            })?;
            let ranks = range_of(&l.ranks, false).ok_or_else(|| Refusal {
                span: lspan.clone(),
                message: format!(
                    "board: level {} ranks '{}' is not a range like \"1-8\" (ranks 1 to {MAX_RANKS})",
                    i + 1,
                    l.ranks
                ),
            })?;
            levels.push(LevelSpec { files, ranks });
        }
    } else {
        let (Some(f), Some(r)) = (board.files, board.ranks) else {
            return refuse(span, "board: needs `files` and `ranks` (or `level` tables)");
        };
        let n = board.levels.unwrap_or(1);
        if !(1..=MAX_FILES as i32).contains(&f)
            || !(1..=MAX_RANKS as i32).contains(&r)
            || !(1..=MAX_LEVELS as i32).contains(&n)
        {
            return refuse(
                span,
                format!("board: files and levels must be 1 to {MAX_FILES}, ranks 1 to {MAX_RANKS}"),
            );
        }
        for _ in 0..n {
            levels.push(LevelSpec {
                files: (0, f as i8 - 1),
                ranks: (0, r as i8 - 1),
            });
        }
    }
    let named_levels = levels.len() > 1;
    let mut spec = GeometrySpec {
        levels,
        named_levels,
        holes: Vec::new(),
        directions: class_vectors("all").expect("a class"),
    };
    if board.holes.len() > MAX_HOLES {
        return refuse(
            span,
            format!("board: {} holes, at most {MAX_HOLES}", board.holes.len()),
        );
    }
    // Holes are named on the full board, each once.
    let mut holes: HashSet<Coord> = HashSet::new();
    for h in &board.holes {
        let (hspan, name) = (h.span(), h.get_ref());
        let Some(c) = coord_of_name(&spec, name) else {
            return refuse(
                &hspan,
                format!("board: hole '{name}' is not a cell of the board"),
            );
        };
        if !holes.insert(c) {
            return refuse(&hspan, format!("board: hole '{name}' is given twice"));
        }
        spec.holes.push(c);
    }
    // Counted once the holes are out: the geometry must hold every cell that is left.
    let mut cells = 0usize;
    for (z, l) in spec.levels.iter().enumerate() {
        let area = ((l.files.1 - l.files.0 + 1) as usize) * ((l.ranks.1 - l.ranks.0 + 1) as usize);
        let left = area - holes.iter().filter(|c| c.z as usize == z).count();
        if left == 0 {
            return refuse(
                span,
                format!("board: level {} has no cells", (b'A' + z as u8) as char),
            );
        }
        cells += left;
    }
    if cells > MAX_CELLS {
        return refuse(
            span,
            format!("board: {cells} cells, the most a board may have is {MAX_CELLS}"),
        );
    }
    Ok(spec)
}

/// The forward axes of White: `"y"` → (1, +1), `"-z"` → (2, -1); each axis at most once.
fn forward_axes(list: &[String], span: &Range<usize>) -> Result<Vec<(usize, i8)>, Refusal> {
    let mut out: Vec<(usize, i8)> = Vec::new();
    for a in list {
        let (sign, axis) = match a.strip_prefix('-') {
            Some(rest) => (-1, rest),
            None => (1, a.strip_prefix('+').unwrap_or(a)),
        };
        let i = match axis {
            "x" => 0,
            "y" => 1,
            "z" => 2,
            _ => {
                return refuse(
                    span,
                    format!("forward: '{a}' is not an axis (x, y, z, -y ...)"),
                );
            }
        };
        if out.iter().any(|&(j, _)| j == i) {
            return refuse(span, format!("forward: axis '{axis}' is given twice"));
        }
        out.push((i, sign));
    }
    if out.is_empty() {
        return refuse(span, "forward: give at least one axis");
    }
    Ok(out)
}

fn piece_letter(p: &PieceDef) -> Result<char, Refusal> {
    let mut c = p.letter.get_ref().chars();
    match (c.next(), c.next()) {
        (Some(l), None) if l.is_ascii_uppercase() => Ok(l),
        _ => refuse(
            &p.letter.span(),
            format!(
                "piece letter '{}' must be one upper-case letter",
                p.letter.get_ref()
            ),
        ),
    }
}

/// Compiles one definition (`path` names the file, for messages). Nothing is leaked: the
/// rules' `'static` texts are filled in when the variant is registered
/// (`registry::register`).
///
/// The phases run in the order of their checks, so that a definition with several faults
/// is refused for the same one each time: the name, the board and the forward axes, the
/// pieces, the pawns' double steps, promotion, castling, and the goal and stalemate; then
/// the rules are assembled.
pub fn compile(def: &VariantDef, path: &str) -> Result<Compiled, Refusal> {
    limits::texts(def)?;
    check_name(def)?;
    let spec = board_spec(def.board.get_ref(), &def.board.span())?;
    let geo: Geometry<W> = Geometry::new(&spec);
    let white_fwd = forward_axes(def.forward.get_ref(), &def.forward.span())?;
    let pieces = compile_pieces(def, &geo, &white_fwd)?;
    let double_step = double_steps(def, &geo, &pieces)?;
    let promotion = promotion(def, &geo, &pieces)?;
    let (castlings, castle_keep) = castlings(def, &geo)?;
    let goal = goal(def)?;
    let stalemate = stalemate(def)?;
    Ok(assemble(
        def,
        path,
        Parts {
            geo,
            pieces,
            double_step,
            promotion,
            castlings,
            castle_keep,
            goal,
            stalemate,
        },
    ))
}

/// The name: lower-case letters, digits and `-`.
fn check_name(def: &VariantDef) -> Result<(), Refusal> {
    let name = def.name.get_ref();
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    {
        return refuse(
            &def.name.span(),
            format!("name '{name}': use lower-case letters, digits and '-'"),
        );
    }
    Ok(())
}

/// The pieces of a definition, compiled: their letters and names, which kinds are royal,
/// pawns and capture promoters (bit masks), and per colour how they move.
struct PieceSet {
    letters: Vec<char>,
    names: Vec<String>,
    royal: u16,
    pawns: u16,
    capture_promoters: u16,
    movement: [Movement; 2],
}

/// The pieces' phase: each piece's letter and flags, its moves for both colours (Black's
/// forward is White's reversed), and the inverse leap tables the attack test reads.
fn compile_pieces(
    def: &VariantDef,
    geo: &Geometry<W>,
    white_fwd: &[(usize, i8)],
) -> Result<PieceSet, Refusal> {
    let black_fwd: Vec<(usize, i8)> = white_fwd.iter().map(|&(i, s)| (i, -s)).collect();
    if def.piece.is_empty() || def.piece.len() > MAX_KINDS {
        return refuse(
            &def.board.span(),
            format!(
                "a variant needs 1 to {MAX_KINDS} pieces, this one has {}",
                def.piece.len()
            ),
        );
    }
    let mut letters = Vec::new();
    let mut piece_names: Vec<String> = Vec::new();
    let (mut royal, mut pawns, mut capture_promoters) = (0u16, 0u16, 0u16);
    let mut movement: [Movement; 2] = Default::default();
    for (k, p) in def.piece.iter().enumerate() {
        let span = p.span();
        let pd = p.get_ref();
        let l = piece_letter(pd)?;
        if letters.contains(&l) {
            return refuse(
                &pd.letter.span(),
                format!("piece letter '{l}' is used twice"),
            );
        }
        letters.push(l);
        piece_names.push(pd.name.get_ref().clone());
        royal |= (pd.royal as u16) << k;
        pawns |= (pd.pawn as u16) << k;
        capture_promoters |= (pd.promotes_after_capture as u16) << k;
        if pd.royal && pd.pawn {
            return refuse(
                &span,
                format!("piece '{l}' cannot be both royal and a pawn"),
            );
        }
        let atoms = pieces::atoms(l, pd, &span)?;
        for (c, fwd) in [white_fwd, black_fwd.as_slice()].into_iter().enumerate() {
            let side = pieces::Side {
                white_forward: white_fwd,
                forward: fwd,
                black: c == 1,
            };
            let piece = pieces::compile(l, &atoms, pd.pawn, geo, &side, &span)?;
            let m = &mut movement[c];
            m.leap_move.push(piece.leap_move);
            m.leap_capture.push(piece.leap_capture);
            m.slides.push(piece.slides);
            m.pawn_steps.push(piece.pawn_steps);
        }
    }
    let kinds = letters.len();
    if royal == 0 {
        return refuse(
            &def.name.span(),
            "no piece is royal: mark the King `royal = true`",
        );
    }
    for m in &mut movement {
        m.leap_attackers = (0..kinds)
            .map(|k| {
                let mut inv = vec![Bb::EMPTY; geo.cells()];
                for from in 0..geo.cells() {
                    for to in m.leap_capture[k][from] {
                        inv[to].insert(from);
                    }
                }
                inv
            })
            .collect();
    }
    Ok(PieceSet {
        letters,
        names: piece_names,
        royal,
        pawns,
        capture_promoters,
        movement,
    })
}

/// The tables of directions the attack test reads ([`Rules`]' fields of the same names).
struct DirectionTables {
    /// Per direction, the reverse direction's index.
    reverse: Vec<usize>,
    /// Per direction, a step's length in cells.
    dir_len: Vec<i32>,
    /// Per colour and direction, the (kind, range) of the slides that capture that way.
    slide_attackers: [Vec<Vec<(Kind, u32)>>; 2],
}

/// The direction tables of a board whose pieces move as `movement` says.
fn direction_tables(geo: &Geometry<W>, movement: &[Movement; 2]) -> DirectionTables {
    let dirs = geo.directions().to_vec();
    let reverse: Vec<usize> = dirs
        .iter()
        .map(|d| {
            dirs.iter()
                .position(|e| *e == [-d[0], -d[1], -d[2]])
                .expect("directions come in pairs")
        })
        .collect();
    let dir_len: Vec<i32> = dirs
        .iter()
        .map(|d| d.iter().map(|x| x.abs() as i32).max().unwrap_or(1))
        .collect();
    let slide_attackers: [Vec<Vec<(Kind, u32)>>; 2] = std::array::from_fn(|c| {
        let mut by_dir = vec![Vec::new(); dirs.len()];
        for (k, slides) in movement[c].slides.iter().enumerate() {
            for s in slides.iter().filter(|s| s.captures) {
                by_dir[s.dir].push((k as Kind, s.range));
            }
        }
        by_dir
    });
    DirectionTables {
        reverse,
        dir_len,
        slide_attackers,
    }
}

/// The pawns' phase: per colour the cells from which pawns may step twice (the ranks of
/// `double_step_ranks`, and with `double_step_start` the start position's pawn cells), and
/// the checks of double steps and en passant.
fn double_steps(
    def: &VariantDef,
    geo: &Geometry<W>,
    pieces: &PieceSet,
) -> Result<[Bb; 2], Refusal> {
    let ranks = geo.extent().1 as i32;
    let dspan = def.double_step_ranks.span();
    let mut double_step = [Bb::EMPTY; 2];
    let mut double_ranks = def.double_step_ranks.get_ref().clone();
    // Each rank once: the list may be long, the board's ranks are few.
    double_ranks.sort_unstable();
    double_ranks.dedup();
    for r in double_ranks {
        if r < 1 || r > ranks {
            return refuse(
                &dspan,
                format!("double_step_ranks: no rank {r} on this board"),
            );
        }
        for cell in 0..geo.cells() {
            let y = geo.coord(cell).y as i32;
            if y == r - 1 {
                double_step[0].insert(cell);
            }
            if y == ranks - r {
                double_step[1].insert(cell);
            }
        }
    }
    let double_step_start = def.double_step_start;
    if pieces.pawns == 0
        && (!def.double_step_ranks.get_ref().is_empty() || def.en_passant || double_step_start)
    {
        return refuse(
            &dspan,
            "double steps and en passant need a piece with `pawn = true`",
        );
    }
    if def.en_passant && def.double_step_ranks.get_ref().is_empty() && !double_step_start {
        return refuse(
            &def.name.span(),
            "en_passant needs double_step_ranks or double_step_start",
        );
    }
    if double_step_start {
        // The cells of the start position's pawns (a placement the FEN check refuses later
        // adds nothing here).
        let text = def.start.get_ref().split_whitespace().next().unwrap_or("");
        let text = text.split('[').next().unwrap_or("");
        let read = crate::rules::placement::read(text, geo, |ch, _| {
            crate::rules::placement::read_letter(&pieces.letters, ch)
        });
        for (cell, piece) in read.unwrap_or_default() {
            if pieces.pawns >> piece.kind() & 1 == 1 {
                double_step[piece.colour().idx()].insert(cell);
            }
        }
    }
    Ok(double_step)
}

/// How pawns promote: per colour the zone, the kinds they may become (`None`: those in the
/// owner's reserve), and whether captured pieces go to a reserve.
struct Promotion {
    zone: [Bb; 2],
    choices: Option<Vec<Kind>>,
    reserve: bool,
}

/// The promotion phase: the choices, the zones (given, or by default the cells where no
/// pawn can step on), and the check of `promotes_after_capture`.
fn promotion(def: &VariantDef, geo: &Geometry<W>, pieces: &PieceSet) -> Result<Promotion, Refusal> {
    let (royal, pawns) = (pieces.royal, pieces.pawns);
    let kinds = pieces.letters.len();
    let pawn_kinds: Vec<usize> = (0..kinds).filter(|k| pawns >> k & 1 == 1).collect();
    let mut promotion_zone = [Bb::EMPTY; 2];
    let mut promotion_choices = None;
    let mut reserve = false;
    if let Some(pr) = &def.promotion {
        let span = pr.span();
        let pr = pr.get_ref();
        if pawn_kinds.is_empty() {
            return refuse(&span, "promotion needs a piece with `pawn = true`");
        }
        match &pr.choices {
            OneOrMany::One(s) if s == "captured" => reserve = true,
            other => {
                let mut ks = Vec::new();
                for s in names(other) {
                    match kind_of(&pieces.letters, &s) {
                        // Each choice once: a repeated one would be a second, equal move.
                        Some(k) if ks.contains(&k) => {}
                        Some(k) if royal >> k & 1 == 0 && pawns >> k & 1 == 0 => ks.push(k),
                        Some(_) => {
                            return refuse(
                                &span,
                                format!("promotion choice '{s}' is a royal piece or a pawn"),
                            );
                        }
                        None => {
                            return refuse(&span, format!("promotion choice '{s}' is no piece"));
                        }
                    }
                }
                if ks.is_empty() {
                    return refuse(&span, "promotion: no choices");
                }
                promotion_choices = Some(ks);
            }
        }
        match (&pr.zone, &pr.zone_black) {
            (None, None) => {
                for (c, zone) in promotion_zone.iter_mut().enumerate() {
                    for cell in 0..geo.cells() {
                        let stuck = pawn_kinds.iter().all(|&k| {
                            pieces.movement[c].pawn_steps[k]
                                .iter()
                                .all(|&v| geo.step(cell, v).is_none())
                        });
                        if stuck {
                            zone.insert(cell);
                        }
                    }
                }
            }
            (Some(w), Some(b)) => {
                for (zone, list) in promotion_zone.iter_mut().zip([w, b]) {
                    for n in list {
                        match geo.parse_name(n) {
                            Some(c) => zone.insert(c),
                            None => {
                                return refuse(&span, format!("promotion zone: no cell '{n}'"));
                            }
                        }
                    }
                }
            }
            _ => {
                return refuse(
                    &span,
                    "promotion: give both `zone` and `zone_black`, or neither",
                );
            }
        }
    }
    if pieces.capture_promoters != 0 && !reserve {
        return refuse(
            &def.name.span(),
            "promotes_after_capture needs promotion choices = \"captured\" (a reserve)",
        );
    }
    Ok(Promotion {
        zone: promotion_zone,
        choices: promotion_choices,
        reserve,
    })
}

/// The castling phase: the castling moves, and per cell the castling rights that survive
/// a move from or to it.
fn castlings(def: &VariantDef, geo: &Geometry<W>) -> Result<(Vec<Castling>, Vec<u32>), Refusal> {
    let mut castlings = Vec::new();
    if def.castling.len() > MAX_CASTLINGS {
        return refuse(
            &def.castling[MAX_CASTLINGS].span(),
            format!("at most {MAX_CASTLINGS} castling moves"),
        );
    }
    for c in &def.castling {
        let castling = castling(c.get_ref(), &c.span(), geo)?;
        if castlings.iter().any(|o: &Castling| {
            o.letter == castling.letter
                || (o.king == castling.king && o.king_to == castling.king_to)
        }) {
            return refuse(
                &c.span(),
                format!("castling '{}' is given twice", castling.letter),
            );
        }
        castlings.push(castling);
    }
    let mut castle_keep = vec![u32::MAX; geo.cells()];
    for (i, c) in castlings.iter().enumerate() {
        castle_keep[c.king] &= !(1 << i);
        castle_keep[c.rook] &= !(1 << i);
    }
    Ok((castlings, castle_keep))
}

/// One castling move (`span`: its table in the file).
fn castling(cd: &CastlingDef, span: &Range<usize>, geo: &Geometry<W>) -> Result<Castling, Refusal> {
    let mut lc = cd.letter.chars();
    let letter = match (lc.next(), lc.next()) {
        (Some(l), None) if l.is_ascii_alphabetic() => l,
        _ => {
            return refuse(span, format!("castling letter '{}': one letter", cd.letter));
        }
    };
    let colour = if letter.is_ascii_uppercase() {
        Colour::WHITE
    } else {
        Colour::BLACK
    };
    let cell = |n: &str| -> Result<Cell, Refusal> {
        geo.parse_name(n).ok_or_else(|| Refusal {
            span: span.clone(),
            message: format!("castling: no cell '{n}'"),
        })
    };
    let (king, rook, king_to, rook_to) = (
        cell(&cd.king)?,
        cell(&cd.rook)?,
        cell(&cd.king_to)?,
        cell(&cd.rook_to)?,
    );
    let line = |a: Cell, b: Cell| -> Result<Vec<Cell>, Refusal> {
        // The cells from a to b inclusive along a straight line.
        let (p, q) = (geo.coord(a), geo.coord(b));
        let d = [q.x - p.x, q.y - p.y, q.z - p.z];
        let n = d.iter().map(|x| x.abs()).max().unwrap_or(0);
        if d.iter().any(|&x| x != 0 && x.abs() != n) {
            return refuse(span, "castling: the King and Rook must move along a line");
        }
        let v = d.map(|x| x.signum());
        let mut cells = vec![a];
        let mut cur = a;
        for _ in 0..n {
            cur = match geo.step(cur, v) {
                Some(c) => c,
                None => return refuse(span, "castling: a line crosses a missing cell"),
            };
            cells.push(cur);
        }
        Ok(cells)
    };
    if king == rook || king == king_to && rook == rook_to {
        return refuse(span, "castling: the King and Rook must be apart and move");
    }
    if king_to == rook_to {
        return refuse(
            span,
            "castling: the King and Rook must end on different cells",
        );
    }
    let king_path = line(king, king_to)?;
    let mut empty: Bb = king_path.iter().copied().collect();
    empty |= line(rook, rook_to)?.into_iter().collect();
    empty |= line(king, rook)?.into_iter().collect();
    empty.remove(king);
    empty.remove(rook);
    Ok(Castling {
        letter,
        colour,
        king,
        king_to,
        rook,
        rook_to,
        empty,
        king_path: king_path.into_iter().skip(1).collect(),
    })
}

/// What ends the game: checkmate (the default) or the capture of the royal piece.
fn goal(def: &VariantDef) -> Result<Goal, Refusal> {
    Ok(
        match def.goal.as_ref().map(|g| (g.get_ref().as_str(), g.span())) {
            None | Some(("checkmate", _)) => Goal::Checkmate,
            Some(("royal-capture", _)) => Goal::RoyalCapture,
            Some((g, span)) => {
                return refuse(
                    &span,
                    format!("goal '{g}': write \"checkmate\" or \"royal-capture\""),
                );
            }
        },
    )
}

/// What stalemate is: a draw (the default), a loss or a win.
fn stalemate(def: &VariantDef) -> Result<Stalemate, Refusal> {
    Ok(
        match def
            .stalemate
            .as_ref()
            .map(|g| (g.get_ref().as_str(), g.span()))
        {
            None | Some(("draw", _)) => Stalemate::Draw,
            Some(("loss", _)) => Stalemate::Loss,
            Some(("win", _)) => Stalemate::Win,
            Some((s, span)) => {
                return refuse(
                    &span,
                    format!("stalemate '{s}': write \"draw\", \"loss\" or \"win\""),
                );
            }
        },
    )
}

/// What the phases of [`compile`] made, for [`assemble`].
struct Parts {
    geo: Geometry<W>,
    pieces: PieceSet,
    double_step: [Bb; 2],
    promotion: Promotion,
    castlings: Vec<Castling>,
    castle_keep: Vec<u32>,
    goal: Goal,
    stalemate: Stalemate,
}

/// The last phase: the rules assembled from the checked parts, with their keys and the
/// attack test's direction tables.
fn assemble(def: &VariantDef, path: &str, p: Parts) -> Compiled {
    let name = def.name.get_ref();
    let DirectionTables {
        reverse,
        dir_len,
        slide_attackers,
    } = direction_tables(&p.geo, &p.pieces.movement);
    let extra = 1 + MAX_CASTLINGS + p.geo.cells() + 2 * MAX_KINDS * MAX_RESERVE;
    let zobrist = Zobrist::new(&format!("file:{name}"), p.geo.cells(), extra);
    // The `'static` texts stay empty until the variant is registered: a refused file leaks
    // nothing.
    let info = VariantInfo {
        name: "",
        title: "",
        summary: "",
        start_fen: "",
        colours: 2,
        bench_positions: &[],
        bench_depth: def.bench_depth.unwrap_or(5),
        strength: &[],
        pieces: &[],
        // The file format puts level A at the bottom (docs/variant-files.md: "level z from 0
        // (level A, the bottom)"), as Raumschach does.
        level_order: LevelOrder::BottomUp,
        levels_detail: "",
    };
    let rules = Rules {
        name: "",
        title: def
            .title
            .as_ref()
            .map_or_else(|| name.clone(), |t| t.get_ref().clone()),
        source: def
            .source
            .as_ref()
            .map(|s| s.get_ref().clone())
            .unwrap_or_default(),
        summary: def
            .summary
            .as_ref()
            .map(|s| s.get_ref().clone())
            .unwrap_or_default(),
        path: path.to_string(),
        net: None,
        info,
        geo: p.geo,
        zobrist,
        kinds: p.pieces.letters.len(),
        letters: p.pieces.letters,
        royal: p.pieces.royal,
        pawns: p.pieces.pawns,
        capture_promoters: p.pieces.capture_promoters,
        movement: p.pieces.movement,
        double_step: p.double_step,
        en_passant: def.en_passant,
        double_step_start: def.double_step_start,
        promotion_zone: p.promotion.zone,
        promotion_choices: p.promotion.choices,
        reserve: p.promotion.reserve,
        castlings: p.castlings,
        castle_keep: p.castle_keep,
        goal: p.goal,
        stalemate: p.stalemate,
        move_rule: def.move_rule,
        bare_kings_draw: def.bare_kings_draw,
        reverse,
        slide_attackers,
        dir_len,
        eval: OnceLock::new(),
    };
    Compiled::new(
        rules,
        name.clone(),
        def.start.get_ref().trim().to_string(),
        p.pieces.names,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_of_files_and_ranks() {
        assert_eq!(range_of("b-i", true), Some((1, 8)));
        assert_eq!(range_of("1-10", false), Some((0, 9)));
        assert_eq!(range_of("3-1", false), None);
        assert_eq!(range_of("1-99", false), Some((0, 98)));
        assert_eq!(range_of("1-100", false), None);
        assert_eq!(range_of("0-5", false), None);
    }
}
