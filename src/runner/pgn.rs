//! Game records in PGN, as lichess and python-chess write and read them: the tags (`Variant`
//! for every variant but chess, `Chess960` with `FEN`/`SetUp` for Chess960, `FEN`/`SetUp`
//! when a game does not start from the variant's standard position), the moves in readable
//! notation (SAN in chess: [`crate::rules::notation`]) with cutechess-style comments
//! (`{+0.35/12 0.105s}`, `{book}`), the result and the termination; and a reader for such
//! files and for those of lichess and chess.com (openings, the GUI's import, replaying games
//! in tests), which takes moves in readable or protocol notation (the notation older strata
//! versions wrote).
//!
//! What the writer copies from outside (engine names, the event, a move an engine named
//! that the reason repeats) cannot break the file: tag values escape `"` and `\` with a
//! backslash, comments write `}` (which would end them) as `)`, move tokens write the
//! characters that would split or end them as `?`, and every control character or line
//! break is written as `\uXXXX` ([`printable`]). What the writer writes, the reader reads
//! back: the same games, tags and moves.

use std::time::{Duration, UNIX_EPOCH};

use super::args::PgnExtras;
use super::record::GameRecord;
use crate::rules::piece::Colour;
use crate::rules::{AnyGame, Game, Variant, notation};
use crate::text::escape as printable;
use crate::text::is_forbidden;

/// The civil date (year, month, day) of a day count since 1970-01-01 (Gregorian calendar;
/// H. Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// A tag value as a PGN string's contents: printable, `"` and `\` escaped with a backslash.
fn tag_value(s: &str) -> String {
    printable(s).replace('\\', "\\\\").replace('"', "\\\"")
}

/// Text as the contents of a `{...}` comment: printable, `}` written as `)` (PGN comments
/// have no escape).
fn comment(s: &str) -> String {
    printable(s).replace('}', ")")
}

/// Whether a movetext word is a move number (`12.`, `12...`, `.`): the reader drops it.
fn numbered(word: &str) -> bool {
    word.find('.')
        .is_some_and(|i| word[..i].chars().all(|c| c.is_ascii_digit()))
}

/// A move name as one movetext token that the reader reads back as that one move: the
/// characters that would split it or start something else (blanks, control characters,
/// `{}()[];"<>`) written as `?`, `?` put before a token that would read as a result, a
/// move number, a NAG (`$1`) or an escape line (`%`), and `_` before one that would read as
/// an annotation (`!?`) or nothing. Move names from the rules layer never need any of it.
fn move_token(name: &str) -> String {
    let mut t: String = name
        .chars()
        .map(|c| {
            if c.is_whitespace() || is_forbidden(c) || "{}()[];\"<>".contains(c) {
                '?'
            } else {
                c
            }
        })
        .collect();
    if is_result(&t) || numbered(&t) || t.starts_with(['$', '%']) {
        t.insert(0, '?');
    }
    // Nothing, or annotation signs alone (`?`, `!?`, `=`), would be dropped as an
    // annotation: `_` makes them a word.
    if t.is_empty() || is_annotation(&t) {
        t.insert(0, '_');
    }
    t
}

fn hms(d: Duration) -> String {
    let s = d.as_secs();
    format!("{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// One game as PGN text (ending with an empty line).
pub fn write_game(rec: &GameRecord, event: &str) -> String {
    write_game_with(rec, event, PgnExtras::default())
}

/// [`write_game`], with the figures `extras` asks for in each move's comment
/// (`{+0.31/12 0.150s, n=52113 sd=17}`, as fastchess writes them).
pub fn write_game_with(rec: &GameRecord, event: &str, extras: PgnExtras) -> String {
    let secs = rec
        .started
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0);
    let (y, m, d) = civil_from_days(secs.div_euclid(86_400));
    let t = secs.rem_euclid(86_400);
    let mut tags: Vec<(&str, String)> = vec![
        ("Event", event.to_string()),
        ("Site", "?".into()),
        ("Date", format!("{y:04}.{m:02}.{d:02}")),
        ("Round", rec.round.to_string()),
    ];
    for (c, name) in rec.names.iter().enumerate() {
        tags.push((Colour(c as u8).name(), name.clone()));
    }
    tags.push(("Result", rec.result.pgn().into()));
    // No `Variant` tag for chess, as python-chess writes it (absent means standard chess to
    // every reader, older strata versions among them); lichess's spellings for the others.
    if rec.chess960 {
        tags.push(("Variant", "Chess960".into()));
    } else if rec.variant != Variant::Chess {
        tags.push(("Variant", rec.variant.name().into()));
    }
    if rec.custom_start {
        tags.push(("FEN", rec.start_fen.clone()));
        tags.push(("SetUp", "1".into()));
    }
    if rec.time_controls.iter().all(|t| *t == rec.time_controls[0]) {
        tags.push(("TimeControl", rec.time_controls[0].clone()));
    } else {
        for (c, tc) in rec.time_controls.iter().enumerate() {
            let tag = match c {
                0 => "WhiteTimeControl",
                1 => "BlackTimeControl",
                2 => "GoldTimeControl",
                _ => "SilverTimeControl",
            };
            tags.push((tag, tc.clone()));
        }
    }
    tags.push((
        "UTCTime",
        format!("{:02}:{:02}:{:02}", t / 3600, t / 60 % 60, t % 60),
    ));
    tags.push(("GameDuration", hms(rec.duration)));
    tags.push(("PlyCount", rec.moves.len().to_string()));
    tags.push(("Termination", rec.termination.pgn().into()));
    let mut out = String::new();
    for (k, v) in tags {
        out.push_str(&format!("[{k} \"{}\"]\n", tag_value(&v)));
    }
    out.push('\n');

    let mut tokens: Vec<String> = Vec::new();
    let mut last_number = None;
    for m in &rec.moves {
        if m.colour.idx() == 0 || last_number != Some(m.number) {
            let dots = if m.colour.idx() == 0 { "." } else { "..." };
            tokens.push(format!("{}{dots}", m.number));
        }
        last_number = Some(m.number);
        // Readable notation; a record made without it (by hand, in tests) has the protocol
        // name.
        tokens.push(move_token(if m.san.is_empty() { &m.name } else { &m.san }));
        if m.book {
            tokens.push("{book}".into());
            continue;
        }
        let mut comment = Vec::new();
        if let Some(s) = m.info.score {
            comment.push(match m.info.depth {
                Some(d) => format!("{}/{d}", s.pgn()),
                None => s.pgn(),
            });
        }
        comment.push(format!("{:.3}s", m.time_ms as f64 / 1000.0));
        let mut text = comment.join(" ");
        let mut more = Vec::new();
        if extras.nodes {
            more.push(format!("n={}", m.info.nodes.unwrap_or(0)));
        }
        if extras.seldepth {
            more.push(format!(
                "sd={}",
                m.info.seldepth.or(m.info.depth).unwrap_or(0)
            ));
        }
        if !more.is_empty() {
            text.push_str(", ");
            text.push_str(&more.join(" "));
        }
        tokens.push(format!("{{{text}}}"));
    }
    tokens.push(format!("{{{}}}", comment(&rec.reason)));
    tokens.push(rec.result.pgn().into());
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > 80 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// A game read from PGN.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame {
    /// Tags in order.
    pub tags: Vec<(String, String)>,
    /// Moves (the tokens of the main line that are not numbers, comments or results).
    pub moves: Vec<String>,
    /// The comments, in order.
    pub comments: Vec<String>,
    /// Per move, the comment right after it (empty when none): `+0.35/12 0.412s`.
    pub move_comments: Vec<String>,
    /// The game termination marker, if present.
    pub result: Option<String>,
}

impl PgnGame {
    /// The value of tag `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Whether the `Variant` tag says Chess960 (in any of its usual spellings).
    pub fn is_chess960(&self) -> bool {
        const NAMES: [&str; 5] = [
            "chess960",
            "chess 960",
            "fischerandom",
            "fischerrandom",
            "960",
        ];
        self.tag("Variant")
            .is_some_and(|v| NAMES.iter().any(|n| v.eq_ignore_ascii_case(n)))
    }

    /// The game's variant: its `Variant` tag (none, `Standard`, `From Position` and
    /// `Chess960` are chess, as lichess writes them; others by their protocol name).
    pub fn variant(&self) -> Result<Variant, String> {
        const CHESS: [&str; 5] = ["standard", "chess", "from position", "classical", "normal"];
        match self.tag("Variant") {
            None => Ok(Variant::Chess),
            Some(_) if self.is_chess960() => Ok(Variant::Chess),
            Some(v) if CHESS.iter().any(|n| v.trim().eq_ignore_ascii_case(n)) => Ok(Variant::Chess),
            Some(v) => {
                Variant::from_name(&v.trim().to_lowercase()).ok_or(format!("unknown variant '{v}'"))
            }
        }
    }

    /// Plays the game through the rules layer: its variant ([`PgnGame::variant`]), its start
    /// (`FEN` tag), every move checked. Returns the final position.
    pub fn replay(&self) -> Result<AnyGame, String> {
        self.replay_moves().map(|(g, _)| g)
    }

    /// [`PgnGame::replay`], with the moves in protocol notation (each move may be written
    /// in readable or protocol notation).
    pub fn replay_moves(&self) -> Result<(AnyGame, Vec<String>), String> {
        let variant = self.variant()?;
        let mut g = match self.tag("FEN") {
            Some(f) => AnyGame::from_fen(variant, f)?,
            None => AnyGame::startpos(variant),
        };
        g.set_chess960(self.is_chess960());
        let mut names = Vec::with_capacity(self.moves.len());
        for (i, m) in self.moves.iter().enumerate() {
            let mv =
                notation::read(&g, m).map_err(|e| format!("ply {}: {e} in {}", i + 1, g.fen()))?;
            names.push(g.move_name(mv));
            g.make(mv);
        }
        Ok((g, names))
    }
}

fn is_result(t: &str) -> bool {
    matches!(t, "1-0" | "0-1" | "1/2-1/2" | "*")
}

/// Whether a movetext word is an annotation written apart from its move (`!?`, `+-`, `=`,
/// `±`): the reader drops it as it drops NAGs. (`--` is a move: the pass.)
fn is_annotation(word: &str) -> bool {
    word.chars().all(|c| "!?".contains(c))
        || matches!(
            word,
            "+-" | "-+" | "+/-" | "-/+" | "=" | "+=" | "=+" | "=/+" | "+/="
        )
        || word.chars().all(|c| {
            "\u{b1}\u{2213}\u{2a72}\u{2a71}\u{221e}\u{25a1}\u{203c}\u{2047}\u{2048}\u{2049}"
                .contains(c)
        })
}

/// Reads a tag pair after its `[`, up to its `]`: the name, then the value: a string
/// (`"..."`, with `\"` and `\\` escapes, which may hold `]`), or else the text up to `]`.
/// Neither goes past the end of the line (PGN strings cannot hold a line break), so that a
/// malformed tag cannot swallow the games after it.
fn read_tag(chars: &mut std::iter::Peekable<std::str::Chars>) -> Option<(String, String)> {
    let mut name = String::new();
    while let Some(&c) = chars.peek() {
        if c == '"' || c == ']' || c == '\n' || (c.is_whitespace() && !name.is_empty()) {
            break;
        }
        if !c.is_whitespace() {
            name.push(c);
        }
        chars.next();
    }
    while chars
        .peek()
        .is_some_and(|&c| c.is_whitespace() && c != '\n')
    {
        chars.next();
    }
    let mut value = String::new();
    let quoted = chars.peek() == Some(&'"');
    if quoted {
        chars.next();
        while let Some(c) = chars.next_if(|&c| c != '\n') {
            match c {
                '"' => break,
                '\\' => match chars.next_if(|&c| c != '\n') {
                    Some(e @ ('"' | '\\')) => value.push(e),
                    Some(e) => {
                        value.push('\\');
                        value.push(e);
                    }
                    None => value.push('\\'),
                },
                c => value.push(c),
            }
        }
    }
    // The rest up to `]`: nothing in a well-formed tag, the value in an unquoted one.
    let mut rest = String::new();
    while let Some(c) = chars.next_if(|&c| c != '\n') {
        if c == ']' {
            break;
        }
        rest.push(c);
    }
    if !quoted {
        value = rest.trim().to_string();
    }
    (!name.is_empty()).then_some((name, value))
}

/// Reads every game of a PGN text. Variations (`( ... )`), NAGs (`$1`) and annotations
/// written apart (`!?`) are skipped; move numbers (`12.`, `12...`) are dropped; everything
/// else in the movetext is a move (in whatever notation: [`PgnGame::replay`] reads it).
/// Comments are kept (`{[%clk 0:03:00]}` among them).
pub fn read_games(text: &str) -> Vec<PgnGame> {
    read_games_at_most(text, usize::MAX)
}

/// [`read_games`], stopping after `limit` games: a text of more games gives `limit + 1`
/// of them, so that the caller can tell it holds more, without reading (and holding) the
/// rest.
pub fn read_games_at_most(text: &str, limit: usize) -> Vec<PgnGame> {
    // A byte order mark (as some Windows programs save files) is not text.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut games = Vec::new();
    let mut cur = PgnGame::default();
    let mut in_moves = false;
    let mut chars = text.chars().peekable();
    let mut depth = 0usize;
    let mut word = String::new();
    // Whether the last thing read at the top level was a move (a comment then is its).
    let mut after_move = false;
    let flush_word = |word: &mut String, cur: &mut PgnGame, depth: usize, after: &mut bool| {
        if word.is_empty() {
            return;
        }
        let w = std::mem::take(word);
        if depth > 0 || w.starts_with('$') {
            return;
        }
        // Strip a move number glued to the move (`1.e2e4`).
        let w = match w.find('.') {
            Some(i) if w[..i].chars().all(|c| c.is_ascii_digit()) => {
                w[i..].trim_start_matches('.').to_string()
            }
            _ => w,
        };
        if w.is_empty() || is_annotation(&w) {
            return;
        }
        *after = false;
        if is_result(&w) {
            cur.result = Some(w);
        } else {
            cur.moves.push(w);
            cur.move_comments.push(String::new());
            *after = true;
        }
    };
    while let Some(c) = chars.next() {
        if games.len() > limit {
            return games;
        }
        match c {
            '[' if depth == 0 && word.is_empty() => {
                // A tag after movetext starts the next game (one without a result marker).
                if in_moves {
                    games.push(std::mem::take(&mut cur));
                }
                if let Some(tag) = read_tag(&mut chars) {
                    cur.tags.push(tag);
                }
                in_moves = false;
            }
            '{' => {
                flush_word(&mut word, &mut cur, depth, &mut after_move);
                let mut comment = String::new();
                for d in chars.by_ref() {
                    if d == '}' {
                        break;
                    }
                    comment.push(d);
                }
                if depth == 0 {
                    if after_move && let Some(last) = cur.move_comments.last_mut() {
                        *last = comment.trim().to_string();
                    }
                    after_move = false;
                    cur.comments.push(comment);
                }
                in_moves = true;
            }
            ';' => {
                flush_word(&mut word, &mut cur, depth, &mut after_move);
                for d in chars.by_ref() {
                    if d == '\n' {
                        break;
                    }
                }
            }
            '(' => {
                flush_word(&mut word, &mut cur, depth, &mut after_move);
                depth += 1;
            }
            ')' => {
                flush_word(&mut word, &mut cur, depth, &mut after_move);
                depth = depth.saturating_sub(1);
            }
            c if c.is_whitespace() => {
                let had_result = {
                    flush_word(&mut word, &mut cur, depth, &mut after_move);
                    cur.result.is_some()
                };
                if had_result {
                    games.push(std::mem::take(&mut cur));
                    in_moves = false;
                }
            }
            c => {
                word.push(c);
                in_moves = true;
            }
        }
    }
    flush_word(&mut word, &mut cur, depth, &mut after_move);
    if !cur.moves.is_empty() || !cur.tags.is_empty() || cur.result.is_some() {
        games.push(cur);
    }
    games
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }

    #[test]
    fn reads_games_with_comments_numbers_and_variations() {
        let text = "[Event \"a \\\"b\\\"\"]\n[Variant \"pole\"]\n\n1. e2e4 {book} e7e5 {+0.10/3 0.001s}\n\
                    2. g1f3 (2. f2f4 e5f4) 2... b8c6 $1 ; rest\n3.O@e4 {White wins} 1-0\n\n\
                    [Event \"next\"]\n\n1. d2d4 *\n";
        let g = read_games(text);
        assert_eq!(g.len(), 2);
        assert_eq!(g[0].tag("Event"), Some("a \"b\""));
        assert_eq!(g[0].moves, vec!["e2e4", "e7e5", "g1f3", "b8c6", "O@e4"]);
        assert_eq!(g[0].result.as_deref(), Some("1-0"));
        assert_eq!(g[0].comments.len(), 3);
        // Each move's own comment (none after b8c6: its NAG and line comment are skipped).
        assert_eq!(
            g[0].move_comments,
            ["book", "+0.10/3 0.001s", "", "", "White wins"]
        );
        assert_eq!(g[1].moves, vec!["d2d4"]);
        assert_eq!(g[1].move_comments, [""]);
        assert_eq!(g[1].result.as_deref(), Some("*"));
    }

    /// A game as lichess exports it (with a byte order mark and Windows line ends, as a
    /// file saved on Windows has them): its tags, SAN, clock and evaluation comments, NAGs,
    /// annotations, a variation, `1...` numbering.
    const LICHESS: &str = "\u{feff}[Event \"Rated Blitz game\"]\r\n[Site \"https://lichess.org/abcd1234\"]\r\n\
        [Date \"2024.05.01\"]\r\n[White \"alice\"]\r\n[Black \"bob\"]\r\n[Result \"1-0\"]\r\n\
        [UTCDate \"2024.05.01\"]\r\n[WhiteElo \"1500\"]\r\n[Variant \"Standard\"]\r\n\
        [TimeControl \"180+0\"]\r\n[ECO \"C50\"]\r\n[Termination \"Normal\"]\r\n\r\n\
        1. e4 { [%eval 0.2] [%clk 0:03:00] } 1... e5 { [%clk 0:03:00] } 2. Nf3 Nc6 3. Bc4 Nf6 \
        4. O-O!? Nxe4 $6 5. d4 (5. Re1 d5) 5... d5 6. dxe5 dxc4 7. e6 Bd6 8. exf7+ Ke7 \
        9. f8=Q+ { a promotion } 9... Rxf8 10. Re1 Kd7 1-0\r\n\r\n";

    #[test]
    fn lichess_games_are_read_with_their_san_tags_and_comments() {
        let g = read_games(LICHESS);
        assert_eq!(g.len(), 1);
        let g = &g[0];
        assert_eq!(g.tag("Event"), Some("Rated Blitz game"));
        assert_eq!(g.variant(), Ok(Variant::Chess));
        assert_eq!(g.moves.len(), 20, "{:?}", g.moves);
        assert_eq!(&g.moves[6..8], ["O-O!?", "Nxe4"]);
        assert_eq!(g.move_comments[0], "[%eval 0.2] [%clk 0:03:00]");
        assert_eq!(g.move_comments[16], "a promotion");
        assert_eq!(g.result.as_deref(), Some("1-0"));
        let (end, moves) = g.replay_moves().unwrap();
        assert_eq!(&moves[6..8], ["e1g1", "f6e4"]);
        assert_eq!(moves[16], "f7f8q");
        assert_eq!(
            end.fen(),
            "r1bq1r2/pppk2pp/2nb4/8/2p1n3/5N2/PPP2PPP/RNBQR1K1 w - - 2 11"
        );
        // `From Position`, and no tag at all, are chess too; other names are refused.
        for (tag, ok) in [("From Position", true), ("chess", true), ("Atomic", false)] {
            let g = &read_games(&format!("[Variant \"{tag}\"]\n\n1. e4 *\n"))[0];
            assert_eq!(g.replay().is_ok(), ok, "{tag}");
        }
    }

    #[test]
    fn chess_is_written_in_san_without_a_variant_tag_and_reads_back() {
        use crate::runner::limits::Limits;
        use crate::runner::openings::Opening;
        use crate::runner::referee::{RecordIds, Referee};
        let opening = Opening::default();
        let mut r = Referee::new(Variant::Chess, false, &opening, vec![Limits::default(); 2]);
        let r = r.as_mut().unwrap();
        for m in ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1"] {
            r.play(m, Default::default(), 0).unwrap();
        }
        let ids = RecordIds {
            id: 1,
            round: 1,
            seats: vec![0, 1],
            names: vec!["a".into(), "b".into()],
            started: std::time::SystemTime::now(),
        };
        let text = write_game(&r.record(None, ids), "e");
        assert!(!text.contains("[Variant"), "{text}");
        assert!(text.contains("1. e4 {0.000s} e5 {0.000s} 2. Nf3"), "{text}");
        assert!(text.contains("4. O-O {0.000s}"), "{text}");
        let g = &read_games(&text)[0];
        assert_eq!(g.replay().unwrap().fen(), r.game().fen());
        // What older versions wrote (protocol notation, `Variant "chess"`) still reads.
        let old = "[Variant \"chess\"]\n\n1. e2e4 e7e5 2. g1f3 *\n";
        assert!(read_games(old)[0].replay().is_ok());
    }

    #[test]
    fn what_needs_no_escape_is_written_as_it_is() {
        for name in ["e2e4", "O@e4", "e7e8q", "P@c3", "Ka1b2c3", "0000", "e1h1"] {
            assert_eq!(move_token(name), name);
        }
        assert_eq!(move_token("1-0"), "?1-0");
        assert_eq!(move_token("12."), "?12.");
        assert_eq!(move_token("a b}"), "a?b?");
        assert_eq!(move_token(""), "_");
        assert_eq!(move_token("!?"), "_!?");
        assert_eq!(move_token("?"), "_?");
        assert_eq!(
            comment("Black makes an unparsable move: 'a}b\0'"),
            "Black makes an unparsable move: 'a)b\\u0000'"
        );
        assert_eq!(tag_value("a \"b\" \\ c\n"), "a \\\"b\\\" \\\\ c\\\\u000A");
        // A tag value holding `]` reads back whole; a tag broken off at the end of its line
        // does not swallow the next game.
        let g =
            read_games("[White \"a] [b\"]\n[Black \"unterminated\n[Event \"x\"]\n\n1. e2e4 *\n");
        assert_eq!(g.len(), 1);
        assert_eq!(g[0].tag("White"), Some("a] [b"));
        assert_eq!(g[0].tag("Black"), Some("unterminated"));
        assert_eq!(g[0].tag("Event"), Some("x"));
        assert_eq!(g[0].moves, ["e2e4"]);
    }
}
