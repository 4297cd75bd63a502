//! Protocol lines: the one place where text becomes a line of the protocol, and where a
//! line is read.
//!
//! Every line strata writes, to an engine it drives (`strata match`, `strata gui`) or on its
//! own stdout, is a [`Line`], and [`Line::new`] is the only way to make one: it refuses text
//! holding a line break or any other control character, so that no value a page, a PGN, a
//! variant file or another engine supplies can end a line early and become a command of its
//! own. Values are checked one by one with [`check`] where they enter (an option value, a
//! FEN, a variant's name), so that the refusal can say which value was wrong.
//!
//! Reading is bounded too: [`read_line`] reads at most a given number of bytes of one line,
//! so that input without line breaks (`cat /dev/zero`) costs no more memory than that.

use std::fmt;
use std::io::{self, BufRead};

pub use crate::text::{LineError, check, escape, is_forbidden};

/// The longest line the engine reads on stdin, in bytes (a `position` command of about
/// 40 000 moves). A longer line is refused as a whole, with one error line.
pub const MAX_INPUT_LINE: usize = 256 * 1024;

/// The longest line `strata match` and `strata gui` read from an engine, in bytes. An
/// engine that prints a longer one is misbehaving: its game ends with that reason.
pub const MAX_ENGINE_LINE: usize = 64 * 1024;

/// One protocol line, without its line break: text that holds no line break and no other
/// control character. [`Line::new`] is the only way to make one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line(String);

impl Line {
    /// The line `text`, if it holds no line break or control character.
    pub fn new(text: impl Into<String>) -> Result<Line, LineError> {
        let text = text.into();
        check("the line", &text)?;
        Ok(Line(text))
    }

    /// `setoption name NAME [value VALUE]`, refused when either holds a forbidden character
    /// or the name holds the word `value` (which would move the split between the two).
    pub fn setoption(name: &str, value: Option<&str>) -> Result<Line, LineError> {
        check("the option name", name)?;
        if name.trim().is_empty()
            || name
                .split_whitespace()
                .any(|w| w.eq_ignore_ascii_case("value"))
        {
            return Err(LineError {
                what: format!("the option name '{name}'"),
                why: "is empty or holds the word 'value'".into(),
            });
        }
        match value {
            Some(v) => {
                check(&format!("the value of option '{name}'"), v)?;
                Line::new(format!("setoption name {name} value {v}"))
            }
            None => Line::new(format!("setoption name {name}")),
        }
    }

    /// The text of the line.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// What [`read_line`] read.
#[derive(Debug, PartialEq, Eq)]
pub enum Read {
    /// A line (in the buffer, without its line break).
    Line,
    /// A line longer than the limit: its first `limit` bytes are in the buffer, the rest up
    /// to its line break was read and dropped; `len` is its whole length in bytes.
    TooLong {
        /// The line's length.
        len: usize,
    },
    /// The end of the input (a last line without a line break is returned as a line first).
    End,
}

/// Reads one line of at most `limit` bytes into `buf` (cleared first; the line break and a
/// CR before it are not kept). A longer line is read to its end without being kept, so
/// memory never grows past `limit` whatever the input holds.
pub fn read_line(input: &mut impl BufRead, buf: &mut Vec<u8>, limit: usize) -> io::Result<Read> {
    buf.clear();
    let mut len = 0usize;
    let mut any = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            // End of input.
            return Ok(if !any {
                Read::End
            } else {
                finish(buf, len, limit)
            });
        }
        any = true;
        let (part, used, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], i + 1, true),
            None => (chunk, chunk.len(), false),
        };
        let room = limit.saturating_sub(buf.len());
        buf.extend_from_slice(&part[..part.len().min(room)]);
        len += part.len();
        input.consume(used);
        if done {
            return Ok(finish(buf, len, limit));
        }
    }
}

fn finish(buf: &mut Vec<u8>, len: usize, limit: usize) -> Read {
    if len > limit {
        return Read::TooLong { len };
    }
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    Read::Line
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `text::check` refuses (tested there), `Line::new` refuses; the rest makes a line.
    #[test]
    fn a_line_is_what_the_text_check_lets_through() {
        for t in [
            "a\nb",
            "\u{1b}[31m",
            "a\u{2028}b",
            "",
            "é ü 中 ♔",
            "position fen 8/8",
        ] {
            assert_eq!(Line::new(t).is_ok(), check("x", t).is_ok(), "{t:?}");
        }
        assert_eq!(
            Line::new("setoption name Hash value 16").map(|l| l.to_string()),
            Ok("setoption name Hash value 16".to_string())
        );
    }

    #[test]
    fn setoption_lines_are_checked_value_by_value() {
        assert_eq!(
            Line::setoption("UCI_Elo", Some("1500")).unwrap().as_str(),
            "setoption name UCI_Elo value 1500"
        );
        assert_eq!(
            Line::setoption("Clear Hash", None).unwrap().as_str(),
            "setoption name Clear Hash"
        );
        assert!(
            Line::setoption(
                "UCI_Elo",
                Some("1500\nsetoption name Debug Log File value /x")
            )
            .is_err()
        );
        assert!(Line::setoption("Hash value 5", Some("1")).is_err());
        assert!(Line::setoption("", Some("1")).is_err());
    }

    #[test]
    fn lines_are_read_within_their_limit() {
        let text = b"uci\r\nisready\nxxxxxxxxxxxxxxxxxxxx\nlast";
        let mut input = &text[..];
        let mut buf = Vec::new();
        let mut got = Vec::new();
        loop {
            match read_line(&mut input, &mut buf, 8).unwrap() {
                Read::End => break,
                r => got.push((r, String::from_utf8_lossy(&buf).to_string())),
            }
            assert!(buf.len() <= 8);
        }
        assert_eq!(
            got,
            [
                (Read::Line, "uci".to_string()),
                (Read::Line, "isready".to_string()),
                (Read::TooLong { len: 20 }, "xxxxxxxx".to_string()),
                (Read::Line, "last".to_string()),
            ]
        );
        // An endless line costs no more than the limit.
        let mut zeros = std::io::BufReader::new(io::Read::take(io::repeat(0), 10_000_000));
        assert_eq!(
            read_line(&mut zeros, &mut buf, 1000).unwrap(),
            Read::TooLong { len: 10_000_000 }
        );
        assert_eq!(buf.len(), 1000);
    }
}
