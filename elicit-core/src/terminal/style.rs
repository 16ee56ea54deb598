//! How the terminal renderer writes: one line at a time on stderr, with ANSI
//! styling only when stderr is a terminal.

/// Writes one line to stderr (stdout may carry a protocol).
pub(super) fn say(line: String) {
    eprintln!("{line}");
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
