//! Text from outside shown in the runner's output and records (a move an engine named, an
//! engine's name, a reason built from them): made printable and kept short, so that it can
//! neither end a PGN comment or tag early nor send control sequences to a terminal.

use std::borrow::Cow;

use crate::protocol::line::is_forbidden;

/// `text` with every character a protocol line may not carry (a control character or a line
/// break, see [`is_forbidden`]) written as `\uXXXX` (`\u0000`, `\u2028`): every such
/// character is in the Basic Multilingual Plane, so four hex digits always do. Unlike
/// [`escape`](crate::protocol::line::escape), the result holds no `{` or `}`, so that it can
/// go into a PGN comment.
pub fn printable(text: &str) -> Cow<'_, str> {
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

/// [`printable`], cut to at most `max` characters of `text` (`...` marks a cut): for
/// echoing a value from outside in a message.
pub fn echo(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => printable(text).into_owned(),
        Some((cut, _)) => format!("{}...", printable(&text[..cut])),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_written_out_and_long_text_is_cut() {
        assert_eq!(printable("e2e4"), "e2e4");
        assert_eq!(
            printable("a\0b\r\n\u{1b}[0m\u{2028}"),
            "a\\u0000b\\u000D\\u000A\\u001B[0m\\u2028"
        );
        assert!(!printable("\u{85}\u{7f}").contains(['{', '}']));
        assert_eq!(echo("abcdef", 4), "abcd...");
        assert_eq!(echo("abcd", 4), "abcd");
        assert_eq!(echo("\0é\0é\0", 2), "\\u0000é...");
    }
}
