//! Text from outside (a page, a file, another engine, the command line): whether it may go
//! into one line of the protocol or of a record, and how to show it when it may not.
//!
//! Every layer uses these: the rules layer checks a variant file's texts with [`check`], the
//! protocol builds its lines with [`crate::protocol::line::Line`] (which calls [`check`]),
//! and messages, PGN tags and comments show text from outside through [`escape`].

use std::borrow::Cow;
use std::fmt;

/// Why a text cannot be (part of) a protocol line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineError {
    /// What the text is (`the value of option 'UCI_Elo'`, `the FEN`).
    pub what: String,
    /// What is wrong with it.
    pub why: String,
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.what, self.why)
    }
}

impl std::error::Error for LineError {}

/// Whether `c` ends a line for some reader: LF, CR, NEL, and Unicode's line and paragraph
/// separators (vertical tab and form feed too).
fn is_line_break(c: char) -> bool {
    matches!(
        c,
        '\n' | '\r' | '\u{0B}' | '\u{0C}' | '\u{85}' | '\u{2028}' | '\u{2029}'
    )
}

/// Whether `c` may not appear in a protocol line: a control character (C0 including tab,
/// DEL, C1) or a line or paragraph separator.
pub fn is_forbidden(c: char) -> bool {
    c.is_control() || is_line_break(c)
}

/// Checks that `text` may be written as (part of) one protocol line: no line break and no
/// other control character. `what` names the text in the error.
pub fn check(what: &str, text: &str) -> Result<(), LineError> {
    match text.chars().enumerate().find(|&(_, c)| is_forbidden(c)) {
        None => Ok(()),
        Some((at, ch)) => Err(LineError {
            what: what.to_string(),
            why: format!(
                "holds {} (U+{:04X}) at character {at}: a protocol line cannot carry it",
                if is_line_break(ch) {
                    "a line break"
                } else {
                    "a control character"
                },
                ch as u32
            ),
        }),
    }
}

/// `text` with every forbidden character (see [`is_forbidden`]) written as `\uXXXX`
/// (`\u0000`, `\u2028`; every such character is in the Basic Multilingual Plane, so four
/// hex digits always do): for showing text from outside in a message, a protocol line or a
/// PGN record, which must stay one line and must not hide a carriage return or a terminal's
/// control sequence. The result holds no `{` or `}`, so it may go into a PGN comment.
pub fn escape(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_forbidden) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_forbidden(c) {
            out.push_str(&format!("\\u{:04X}", c as u32));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// [`escape`], cut to at most `max` characters of `text` (`...` marks a cut): for echoing a
/// value from outside in a message.
pub fn echo(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => escape(text).into_owned(),
        Some((cut, _)) => format!("{}...", escape(&text[..cut])),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_found_written_out_and_long_text_is_cut() {
        for bad in [
            "a\nb",
            "a\rb",
            "a\tb",
            "\u{0}",
            "\u{1b}[31m",
            "a\u{85}b",
            "a\u{2028}b",
            "\u{7f}",
        ] {
            assert!(check("x", bad).is_err(), "{bad:?}");
        }
        assert!(check("x", "é ü 中 ♔").is_ok());
        let e = check("the value of option 'UCI_Elo'", "1500\nquit").unwrap_err();
        assert_eq!(
            e.to_string(),
            "the value of option 'UCI_Elo' holds a line break (U+000A) at character 4: \
             a protocol line cannot carry it"
        );
        assert_eq!(escape("e2e4"), "e2e4");
        assert_eq!(
            escape("a\0b\r\n\u{1b}[0m\u{2028}"),
            "a\\u0000b\\u000D\\u000A\\u001B[0m\\u2028"
        );
        assert!(!escape("\u{85}\u{7f}").contains(['{', '}']));
        assert_eq!(echo("abcdef", 4), "abcd...");
        assert_eq!(echo("abcd", 4), "abcd");
        assert_eq!(echo("\0é\0é\0", 2), "\\u0000é...");
    }
}
