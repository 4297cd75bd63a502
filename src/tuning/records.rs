//! Labelled positions as a network trainer reads them ([`Record`]), and their compact binary
//! file format (docs/data-format.md). [`read`] reads a binary file or the text format of
//! [`super::data`] alike.
//!
//! # The binary format, version 1
//!
//! Little-endian throughout. A file is a sequence of **chunks**; each chunk is a header
//! followed by any number of records (possibly none). Files therefore concatenate:
//! `cat a.bin b.bin > all.bin` reads as every record of `a.bin`, then every record of `b.bin`.
//!
//! A **header** is:
//!
//! | bytes | field |
//! |---|---|
//! | 6 | magic `0xFF` `STRD` `0x01` (`0xFF` starts no UTF-8 text and no record; `0x01` is the version) |
//! | 2 | cells of the board, 1 ..= [`MAX_CELLS`] |
//! | 1 | piece kinds, 1 ..= [`MAX_KINDS`] |
//! | 1 | colours, 1 ..= 4 |
//! | 1 | length of the variant's protocol name, 1 ..= [`MAX_NAME`] |
//! | n | the variant's protocol name, UTF-8 |
//! | 2 | length of the note, 0 ..= [`MAX_NOTE`] |
//! | n | the note, UTF-8 (datagen writes the command that reproduces the file) |
//!
//! A **record** is self-describing (it is written without the header's geometry, which the
//! reader checks it against):
//!
//! | bytes | field |
//! |---|---|
//! | 1 | flags: bits 0-1 the side to move; bits 2-3 the result for White's team (0 loss, 1 draw, 2 win; 3 is never a record, so `0xFF` starts a header); bit 4 set if hands follow; bits 5-6 `K - 1` and bit 7 `C - 1`, the bits of a piece's kind (`K`, 1 ..= 4) and colour (`C`, 1 ..= 2) |
//! | 1-5 | the game's number, LEB128 (7 bits a byte, low first) |
//! | 2 | the score, i16, centipawns, White's team's point of view |
//! | 1 | `L`, the occupancy's length in bytes, 0 ..= ceil(cells / 8) (up to the last occupied cell) |
//! | L | occupancy: bit `c % 8` of byte `c / 8` is set when cell `c` holds a piece |
//! | ceil(pieces × (K + C) / 8) | the pieces of the occupied cells in ascending cell order, `K + C` bits each, `kind << C \| colour`, packed from each byte's low bit up |
//! | if bit 4 | 1 byte: the number of hand entries, 1 ..= kinds × colours; then each entry: 1 byte `kind × 4 + colour`, the count as LEB128 (1 ..= 65535); entries in ascending (colour, kind) order |
//!
//! A chess position of 26 pieces takes 1 + 1..3 + 2 + 1 + 8 + 13 = 26 to 28 bytes.
//!
//! Everything read is checked against its bound and the header's geometry (cells, kinds,
//! colours); an error names the file and the byte offset where the bad or missing data is.
//! Nothing is allocated from a length in the file beyond these bounds, so a file of garbage
//! costs no memory: its first bytes are refused.

use std::io::{BufRead, BufReader, Write};

use super::data::{GAME_MARK, Sample};
use crate::rules::bitset::Cell;
use crate::rules::piece::{Colour, Kind, Piece};
use crate::rules::{AnyGame, Game, Variant};
use crate::with_game;

/// The magic that starts every chunk header: `0xFF`, `STRD`, version 1.
pub const MAGIC: [u8; 6] = *b"\xffSTRD\x01";

/// The most cells a board in a file may have ([`crate::rules::board::MAX_CELLS`]).
pub const MAX_CELLS: usize = crate::rules::board::MAX_CELLS;

/// The most piece kinds ([`crate::rules::board::MAX_KINDS`]).
pub const MAX_KINDS: usize = crate::rules::board::MAX_KINDS;

/// The longest variant name in a header, bytes.
pub const MAX_NAME: usize = 64;

/// The longest note in a header, bytes.
pub const MAX_NOTE: usize = 4096;

pub use super::data::MAX_TEXT_LINE;

/// One labelled position as a network sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// The colour to move.
    pub side: Colour,
    /// Every piece on the board, by ascending cell.
    pub pieces: Vec<(Cell, Piece)>,
    /// What each colour holds off the board (Game::in_hand: Pole in hand, Polyhedron's
    /// reserves), nonzero counts only: (colour, kind, count), by ascending colour, then kind.
    pub hands: Vec<(Colour, Kind, u16)>,
    /// The search's score in centipawns, White's team's point of view (clamped to i16).
    pub score: i16,
    /// The game's result for White's team: 0 loss, 1 draw, 2 win.
    pub result: u8,
    /// The game's number within its shard (for holding whole games out).
    pub game: u32,
}

impl Record {
    /// The record of position `g` (pieces via Game::piece_at over the variant's cells, hands
    /// via Game::in_hand for every colour). `score` is clamped to i16; `result` is White's
    /// team's result as a fraction (1.0, 0.5, 0.0; anything above 0.5 counts as a win,
    /// below as a loss).
    pub fn from_game(g: &AnyGame, score: i32, result: f64, game: u32) -> Record {
        // The occupied cells are exactly those where piece_at is not NONE, in ascending order.
        let pieces: Vec<(Cell, Piece)> = with_game!(g, p => p
            .board()
            .occupied()
            .iter()
            .map(|c| (c, p.piece_at(c)))
            .collect());
        let mut hands = Vec::new();
        for c in 0..g.variant().colours() {
            let colour = Colour(c as u8);
            let mut held = g.in_hand(colour);
            held.sort_unstable();
            for (kind, n) in held {
                if n > 0 {
                    hands.push((colour, kind, n.min(u16::MAX as usize) as u16));
                }
            }
        }
        Record {
            side: g.side_to_move(),
            pieces,
            hands,
            score: score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            result: result_code(result),
            game,
        }
    }
}

/// 0, 1 or 2 for a result of 0.0, 0.5 or 1.0 (above 0.5 a win, below a loss).
pub fn result_code(result: f64) -> u8 {
    if result > 0.5 {
        2
    } else if result < 0.5 {
        0
    } else {
        1
    }
}

/// What a header says of the board: its cells, piece kinds and colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    /// Cells of the board.
    pub cells: usize,
    /// Piece kinds.
    pub kinds: usize,
    /// Colours.
    pub colours: usize,
}

impl Geometry {
    /// The geometry of `variant`.
    pub fn of(variant: Variant) -> Geometry {
        Geometry {
            cells: variant.layout().cells.len(),
            kinds: variant.info().pieces.len(),
            colours: variant.colours(),
        }
    }

    /// Occupancy bytes at most.
    fn occupancy_bytes(self) -> usize {
        self.cells.div_ceil(8)
    }
}

/// Writes the binary file header for `variant`, with `note` (at most [`MAX_NOTE`] bytes; cut
/// at a character boundary beyond): the start of a chunk, which the records written after it
/// belong to.
pub fn write_header(out: &mut dyn Write, variant: Variant, note: &str) -> std::io::Result<()> {
    let geo = Geometry::of(variant);
    let name = variant.name();
    if name.is_empty() || name.len() > MAX_NAME || geo.cells > MAX_CELLS || geo.cells == 0 {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("variant '{name}' cannot be written: its name or board is out of bounds"),
        ));
    }
    let mut end = note.len().min(MAX_NOTE);
    while !note.is_char_boundary(end) {
        end -= 1;
    }
    let note = &note.as_bytes()[..end];
    let mut h = Vec::with_capacity(16 + name.len() + note.len());
    h.extend_from_slice(&MAGIC);
    h.extend_from_slice(&(geo.cells as u16).to_le_bytes());
    h.push(geo.kinds as u8);
    h.push(geo.colours as u8);
    h.push(name.len() as u8);
    h.extend_from_slice(name.as_bytes());
    h.extend_from_slice(&(note.len() as u16).to_le_bytes());
    h.extend_from_slice(note);
    out.write_all(&h)
}

/// The fewest bits (at least 1) that hold every number below `n`.
fn bits_for(n: usize) -> u32 {
    (usize::BITS - n.saturating_sub(1).leading_zeros()).max(1)
}

/// Writes one record, after a header of its variant (the reader checks the record against
/// the header's geometry). Refuses a record no variant could have: a cell beyond
/// [`MAX_CELLS`] or out of ascending order, an empty piece, a kind beyond [`MAX_KINDS`], a
/// result above 2, hands out of order or with a count of 0.
pub fn write_record(out: &mut dyn Write, r: &Record) -> std::io::Result<()> {
    let bad = |what: String| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("record not written: {what}"),
        )
    };
    if r.side.idx() >= 4 || r.result > 2 {
        return Err(bad(format!(
            "side {} or result {} out of range",
            r.side.0, r.result
        )));
    }
    if r.hands.len() > MAX_KINDS * 4 {
        return Err(bad(format!("{} hand entries", r.hands.len())));
    }
    let mut last: Option<Cell> = None;
    let (mut max_kind, mut max_colour) = (0usize, 0usize);
    for &(cell, piece) in &r.pieces {
        if cell >= MAX_CELLS || last.is_some_and(|l| l >= cell) {
            return Err(bad(format!("cell {cell} out of range or out of order")));
        }
        if piece.is_none() || piece.kind() as usize >= MAX_KINDS {
            return Err(bad(format!("piece {piece:?} on cell {cell}")));
        }
        last = Some(cell);
        max_kind = max_kind.max(piece.kind() as usize);
        max_colour = max_colour.max(piece.colour().idx());
    }
    let (kbits, cbits) = (bits_for(max_kind + 1), bits_for(max_colour + 1));
    let occupancy = last.map_or(0, |l| l / 8 + 1);
    let mut b = Vec::with_capacity(10 + occupancy + r.pieces.len());
    let flags = r.side.0
        | (r.result << 2)
        | (u8::from(!r.hands.is_empty()) << 4)
        | (((kbits - 1) as u8) << 5)
        | (((cbits - 1) as u8) << 7);
    b.push(flags);
    leb128(&mut b, r.game);
    b.extend_from_slice(&r.score.to_le_bytes());
    b.push(occupancy as u8);
    let occ_at = b.len();
    b.resize(occ_at + occupancy, 0);
    for &(cell, _) in &r.pieces {
        b[occ_at + cell / 8] |= 1 << (cell % 8);
    }
    let mut acc: u64 = 0;
    let mut have = 0;
    for &(_, piece) in &r.pieces {
        let code = (u64::from(piece.kind()) << cbits) | u64::from(piece.colour().0);
        acc |= code << have;
        have += kbits + cbits;
        while have >= 8 {
            b.push(acc as u8);
            acc >>= 8;
            have -= 8;
        }
    }
    if have > 0 {
        b.push(acc as u8);
    }
    if !r.hands.is_empty() {
        b.push(r.hands.len() as u8);
        let mut prev: Option<(Colour, Kind)> = None;
        for &(colour, kind, n) in &r.hands {
            if colour.idx() >= 4
                || kind as usize >= MAX_KINDS
                || n == 0
                || prev.is_some_and(|p| p >= (colour, kind))
            {
                return Err(bad(format!("hand entry ({}, {kind}, {n})", colour.0)));
            }
            prev = Some((colour, kind));
            b.push(kind * 4 + colour.0);
            leb128(&mut b, u32::from(n));
        }
    }
    out.write_all(&b)
}

/// Appends `n` as LEB128.
fn leb128(b: &mut Vec<u8>, mut n: u32) {
    loop {
        let byte = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            b.push(byte);
            return;
        }
        b.push(byte | 0x80);
    }
}

/// Reads every record of a data file, binary or text (text: the FEN is read with
/// AnyGame::from_fen for `variant`), checking that a binary file was written for `variant`
/// (its name and its geometry: cells, kinds, colours) and refusing another with a clear
/// error. A file that starts with [`MAGIC`] is binary; any other is text.
pub fn read(path: &str, variant: Variant) -> Result<Vec<Record>, String> {
    let mut records = Vec::new();
    for_each(path, variant, &mut |r| {
        records.push(r);
        Ok(())
    })?;
    Ok(records)
}

/// Whether the data file at `path` is binary (starts with a chunk header), not text.
pub fn is_binary(path: &str) -> Result<bool, String> {
    let file = crate::files::open_regular(path).map_err(|e| format!("{path}: {e}"))?;
    let mut first = [0u8; 1];
    let n = std::io::Read::read(&mut &file, &mut first).map_err(|e| format!("{path}: {e}"))?;
    Ok(n == 1 && first[0] == MAGIC[0])
}

/// Reads a data file as [`read`] does, handing each record to `each` as it is read (memory
/// stays flat however large the file); an error from `each` stops the reading.
pub fn for_each(
    path: &str,
    variant: Variant,
    each: &mut dyn FnMut(Record) -> Result<(), String>,
) -> Result<(), String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
    if !file
        .metadata()
        .map_err(|e| format!("{path}: {e}"))?
        .is_file()
    {
        return Err(format!("{path}: not a regular file"));
    }
    let mut input = BufReader::with_capacity(1 << 16, file);
    let start = input.fill_buf().map_err(|e| format!("{path}: {e}"))?;
    if start.first() == Some(&MAGIC[0]) {
        read_binary(&mut input, variant, each).map_err(|e| format!("{path}: {e}"))
    } else {
        read_text(&mut input, variant, each).map_err(|e| format!("{path}:{e}"))
    }
}

/// Reads binary chunks from `input` (positioned at a header).
pub fn read_binary(
    input: &mut dyn BufRead,
    variant: Variant,
    each: &mut dyn FnMut(Record) -> Result<(), String>,
) -> Result<(), String> {
    let want = Geometry::of(variant);
    let mut r = Reader { input, offset: 0 };
    let mut geo: Option<Geometry> = None;
    let mut record_no: u64 = 0;
    while let Some(first) = r.peek()? {
        if first == MAGIC[0] {
            let header_at = r.offset;
            let (name, g) = read_header(&mut r)?;
            if name != variant.name() || g != want {
                return Err(format!(
                    "the chunk at byte {header_at} was written for variant '{name}' ({} cells, \
                     {} kinds, {} colours), not for '{}' ({} cells, {} kinds, {} colours)",
                    g.cells,
                    g.kinds,
                    g.colours,
                    variant.name(),
                    want.cells,
                    want.kinds,
                    want.colours
                ));
            }
            geo = Some(g);
            continue;
        }
        let Some(g) = geo else {
            return Err(format!("byte {}: not a strata data file header", r.offset));
        };
        record_no += 1;
        let at = r.offset;
        let rec =
            read_record(&mut r, g).map_err(|e| format!("record {record_no} (byte {at}): {e}"))?;
        each(rec)?;
    }
    Ok(())
}

/// A byte source that counts its offset.
struct Reader<'a> {
    input: &'a mut dyn BufRead,
    offset: u64,
}

impl Reader<'_> {
    /// The next byte without taking it, `None` at the end.
    fn peek(&mut self) -> Result<Option<u8>, String> {
        let buf = self
            .input
            .fill_buf()
            .map_err(|e| format!("byte {}: {e}", self.offset))?;
        Ok(buf.first().copied())
    }

    /// Exactly `buf.len()` bytes, or an error naming `what` and where the data ended.
    fn exact(&mut self, buf: &mut [u8], what: &str) -> Result<(), String> {
        let mut got = 0;
        while got < buf.len() {
            match self.input.read(&mut buf[got..]) {
                Ok(0) => {
                    return Err(format!(
                        "truncated at byte {}: {what} needs {} more bytes",
                        self.offset + got as u64,
                        buf.len() - got
                    ));
                }
                Ok(n) => got += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(format!("byte {}: {e}", self.offset + got as u64)),
            }
        }
        self.offset += buf.len() as u64;
        Ok(())
    }

    fn byte(&mut self, what: &str) -> Result<u8, String> {
        let mut b = [0];
        self.exact(&mut b, what)?;
        Ok(b[0])
    }

    fn u16(&mut self, what: &str) -> Result<u16, String> {
        let mut b = [0; 2];
        self.exact(&mut b, what)?;
        Ok(u16::from_le_bytes(b))
    }

    /// A LEB128 number of at most `max`.
    fn leb128(&mut self, what: &str, max: u32) -> Result<u32, String> {
        let at = self.offset;
        let mut n: u64 = 0;
        for shift in (0..35).step_by(7) {
            let b = self.byte(what)?;
            n |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return if n <= u64::from(max) {
                    Ok(n as u32)
                } else {
                    Err(format!("byte {at}: {what} {n} is above {max}"))
                };
            }
        }
        Err(format!("byte {at}: {what} is longer than 5 bytes"))
    }
}

/// Reads a chunk header: the variant's name and geometry.
fn read_header(r: &mut Reader) -> Result<(String, Geometry), String> {
    let at = r.offset;
    let mut magic = [0; 6];
    r.exact(&mut magic, "a header")?;
    if magic[..5] != MAGIC[..5] {
        return Err(format!("byte {at}: not a strata data file header"));
    }
    if magic[5] != MAGIC[5] {
        return Err(format!(
            "byte {at}: data format version {} (this strata reads version {})",
            magic[5], MAGIC[5]
        ));
    }
    let cells = r.u16("a header")? as usize;
    let kinds = r.byte("a header")? as usize;
    let colours = r.byte("a header")? as usize;
    if !(1..=MAX_CELLS).contains(&cells)
        || !(1..=MAX_KINDS).contains(&kinds)
        || !(1..=4).contains(&colours)
    {
        return Err(format!(
            "byte {at}: header of {cells} cells, {kinds} kinds, {colours} colours (at most \
             {MAX_CELLS} cells, {MAX_KINDS} kinds, 4 colours)"
        ));
    }
    let len = r.byte("a header")? as usize;
    if !(1..=MAX_NAME).contains(&len) {
        return Err(format!(
            "byte {}: variant name of {len} bytes (1 to {MAX_NAME})",
            r.offset - 1
        ));
    }
    let mut name = vec![0; len];
    r.exact(&mut name, "the variant's name")?;
    let name = String::from_utf8(name)
        .map_err(|_| format!("byte {}: the variant's name is not UTF-8", r.offset))?;
    let note_len = r.u16("a header")? as usize;
    if note_len > MAX_NOTE {
        return Err(format!(
            "byte {}: note of {note_len} bytes (at most {MAX_NOTE})",
            r.offset - 2
        ));
    }
    let mut note = vec![0; note_len];
    r.exact(&mut note, "the header's note")?;
    Ok((
        name,
        Geometry {
            cells,
            kinds,
            colours,
        },
    ))
}

/// Reads one record of geometry `geo`.
fn read_record(r: &mut Reader, geo: Geometry) -> Result<Record, String> {
    let flags = r.byte("a record")?;
    let (side, result, has_hands) = (flags & 3, (flags >> 2) & 3, flags & 0x10 != 0);
    let (kbits, cbits) = (((flags >> 5) & 3) as usize + 1, (flags >> 7) as usize + 1);
    if side as usize >= geo.colours || result > 2 {
        return Err(format!("bad flags byte {flags:#04x}"));
    }
    let game = r.leb128("the game number", u32::MAX)?;
    let score = r.u16("the score")? as i16;
    let len = r.byte("the occupancy's length")? as usize;
    if len > geo.occupancy_bytes() {
        return Err(format!(
            "occupancy of {len} bytes (a board of {} cells has at most {})",
            geo.cells,
            geo.occupancy_bytes()
        ));
    }
    // At most MAX_CELLS / 8 bytes.
    let mut occ = vec![0u8; len];
    r.exact(&mut occ, "the occupancy")?;
    let cells: Vec<Cell> = (0..len * 8)
        .filter(|c| occ[c / 8] & (1 << (c % 8)) != 0)
        .collect();
    if let Some(&c) = cells.iter().find(|&&c| c >= geo.cells) {
        return Err(format!(
            "a piece on cell {c}, beyond the board's {} cells",
            geo.cells
        ));
    }
    let bits = kbits + cbits;
    let mut packed = vec![0u8; (cells.len() * bits).div_ceil(8)];
    r.exact(&mut packed, "the pieces")?;
    let mut pieces = Vec::with_capacity(cells.len());
    for (i, cell) in cells.into_iter().enumerate() {
        let mut code = 0usize;
        for k in 0..bits {
            let at = i * bits + k;
            code |= usize::from((packed[at / 8] >> (at % 8)) & 1) << k;
        }
        let (kind, colour) = (code >> cbits, code & ((1 << cbits) - 1));
        if kind >= geo.kinds || colour >= geo.colours {
            return Err(format!(
                "a piece of kind {kind} and colour {colour} on cell {cell} (the variant has {} \
                 kinds and {} colours)",
                geo.kinds, geo.colours
            ));
        }
        pieces.push((cell, Piece::new(kind as Kind, Colour(colour as u8))));
    }
    let mut hands = Vec::new();
    if has_hands {
        let n = r.byte("the hands")? as usize;
        if n == 0 || n > geo.kinds * geo.colours {
            return Err(format!(
                "{n} hand entries (1 to {})",
                geo.kinds * geo.colours
            ));
        }
        for _ in 0..n {
            let b = r.byte("a hand entry")?;
            let (kind, colour) = (b >> 2, b & 3);
            if kind as usize >= geo.kinds || colour as usize >= geo.colours {
                return Err(format!("hand entry byte {b:#04x} out of range"));
            }
            let count = r.leb128("a hand count", u16::MAX as u32)?;
            if count == 0 {
                return Err("a hand count of 0".into());
            }
            let entry = (Colour(colour), kind, count as u16);
            if hands
                .last()
                .is_some_and(|&(c, k, _): &(Colour, Kind, u16)| (c, k) >= (entry.0, entry.1))
            {
                return Err("hand entries out of order".into());
            }
            hands.push(entry);
        }
    }
    Ok(Record {
        side: Colour(side),
        pieces,
        hands,
        score,
        result,
        game,
    })
}

/// Reads a text data file (`FEN | SCORE | RESULT` lines, `# game N` marks; see
/// [`super::data`]). Errors start with the line number (`12: ...`).
fn read_text(
    input: &mut dyn BufRead,
    variant: Variant,
    each: &mut dyn FnMut(Record) -> Result<(), String>,
) -> Result<(), String> {
    // Without game marks, every position is a game of its own.
    let mut game: Option<u32> = None;
    let mut count: u32 = 0;
    super::data::for_each_line_in(input, "", &mut |line_no, line| {
        let line = line.trim();
        if let Some(n) = line.strip_prefix(GAME_MARK) {
            let n = n
                .trim()
                .parse()
                .map_err(|_| format!("{line_no}: bad game number in '{line}' (0 to 2^32-1)"))?;
            game = Some(n);
            return Ok(());
        }
        if line.is_empty() || line.starts_with('#') {
            return Ok(());
        }
        let sample = Sample::parse(line).map_err(|e| format!("{line_no}: {e}"))?;
        let position =
            AnyGame::from_fen(variant, &sample.fen).map_err(|e| format!("{line_no}: {e}"))?;
        count = count.saturating_add(1);
        let g = game.unwrap_or(count);
        each(Record::from_game(&position, sample.score, sample.result, g))
    })
}

#[cfg(test)]
mod tests;
