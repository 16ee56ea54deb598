//! How the terminal renderer writes: one line at a time on stderr, with ANSI
//! styling only when stderr is a terminal.

use std::borrow::Cow;

use crate::protocol::client::printable;

/// Writes one line to stderr (stdout may carry a protocol). Every control
/// and every invisible or direction-changing character in it is written
/// out as its code point (`⟨U+202E⟩`, [`printable`]), but line breaks and
/// this renderer's own styling ([`Style`]'s `ESC [ code m`): a peer's text
/// cannot move the cursor, clear the screen, retitle the terminal or
/// reorder what the user reads.
pub(super) fn say(line: String) {
    eprintln!("{}", shown(&line));
}

/// The escape sequences [`Style`] writes: what [`say`] lets through.
const OWN_CODES: [&str; 5] = ["\x1b[1m", "\x1b[2m", "\x1b[33m", "\x1b[1;4;7m", "\x1b[0m"];

/// `line` with what [`say`] writes out written out.
fn shown(line: &str) -> Cow<'_, str> {
    if !line.contains('\x1b') {
        return printable(line, true);
    }
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find('\x1b') {
        out.push_str(&printable(&rest[..at], true));
        rest = &rest[at..];
        match OWN_CODES.iter().find(|code| rest.starts_with(*code)) {
            Some(code) => {
                out.push_str(code);
                rest = &rest[code.len()..];
            }
            None => {
                out.push_str(&printable("\x1b", true));
                rest = &rest[1..];
            }
        }
    }
    out.push_str(&printable(rest, true));
    Cow::Owned(out)
}

/// A peer's text for a prompt (`inquire` draws it): one line, every
/// control and invisible character written out.
pub(super) fn one_line(text: &str) -> String {
    printable(text, false).into_owned()
}

/// ANSI styling, only when stderr is a terminal.
pub(super) struct Style {
    pub(super) enabled: bool,
}

impl Style {
    fn paint(&self, code: &str, text: &str) -> String {
        if self.enabled {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_owned()
        }
    }

    pub(super) fn bold(&self, text: &str) -> String {
        self.paint("1", text)
    }

    pub(super) fn dim(&self, text: &str) -> String {
        self.paint("2", text)
    }

    pub(super) fn warn(&self, text: &str) -> String {
        self.paint("33", text)
    }

    /// The host: bold, underlined, reverse video.
    pub(super) fn host(&self, host: &str) -> String {
        self.paint("1;4;7", host)
    }
}
