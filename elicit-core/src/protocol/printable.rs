//! Text a peer sent, made safe to show: one list of the characters that
//! hide or reorder what a user reads (shared with the URL review), and
//! [`printable`], which writes them out visibly.

use std::borrow::Cow;
use std::fmt::Write as _;

/// Invisible, joining and direction-changing characters: they change what a
/// user reads without showing themselves (a bidi override turns `exe.txt`
/// into `txt.exe`; a zero-width space splits a word unseen). Controls and
/// whitespace are the caller's to judge.
pub(crate) fn is_invisible(c: char) -> bool {
    matches!(
        u32::from(c),
        0xAD | 0x34F
            | 0x61C
            | 0x115F
            | 0x1160
            | 0x17B4
            | 0x17B5
            | 0x180B..=0x180F
            | 0x200B..=0x200F
            | 0x202A..=0x202E
            | 0x2060..=0x206F
            | 0x3164
            | 0xFE00..=0xFE0F
            | 0xFEFF
            | 0xFFA0
            | 0xFFF0..=0xFFFB
            | 0xE0000..=0xE0FFF
    )
}

/// `text` from a peer (a message, a title, a description, an option's
/// label), safe to print or draw: every control character (an escape
/// sequence's `ESC` included) and every invisible or direction-changing
/// character is written out as its code point (`⟨U+202E⟩`), so the user
/// sees that it is there and it changes nothing else on the screen. With
/// `line_breaks`, `\n` is kept (a message may have lines; a title may
/// not). Borrowed when there is nothing to write out.
///
/// ```
/// use elicit_core::protocol::client::printable;
///
/// assert_eq!(printable("Deploy to production?", false), "Deploy to production?");
/// assert_eq!(printable("Pay \u{202E}gnp.exe", false), "Pay ⟨U+202E⟩gnp.exe");
/// assert_eq!(printable("\x1b[2Jcleared", false), "⟨U+001B⟩[2Jcleared");
/// assert_eq!(printable("two\nlines", true), "two\nlines");
/// assert_eq!(printable("two\nlines", false), "two⟨U+000A⟩lines");
/// ```
pub fn printable(text: &str, line_breaks: bool) -> Cow<'_, str> {
    let hidden = |c: char| (c.is_control() && !(line_breaks && c == '\n')) || is_invisible(c);
    if !text.chars().any(hidden) {
        return Cow::Borrowed(text);
    }
    let mut shown = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if hidden(c) {
            let _ = write!(shown, "⟨U+{:04X}⟩", u32::from(c));
        } else {
            shown.push(c);
        }
    }
    Cow::Owned(shown)
}
