//! Why a pattern cannot be used: every refusal, with where and what to
//! write instead.

use std::fmt;

/// Why a pattern cannot be used, and where in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatternError {
    kind: PatternErrorKind,
    at: Option<usize>,
}

/// The kinds of [`PatternError`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum PatternErrorKind {
    /// The source is longer than [`MAX_PATTERN_LEN`](crate::MAX_PATTERN_LEN).
    TooLong {
        /// The source's length in bytes.
        len: usize,
        /// The limit.
        max: usize,
    },
    /// JavaScript refuses the pattern in `u` mode: the message names the
    /// construct and what to write instead.
    Syntax(String),
    /// Lookahead or lookbehind (`(?=`, `(?!`, `(?<=`, `(?<!`): valid
    /// JavaScript that needs a backtracking engine.
    Lookaround(&'static str),
    /// A backreference (`\1`, `\k<name>`): valid JavaScript that needs a
    /// backtracking engine.
    Backreference(String),
    /// A Unicode property JavaScript knows and the Unicode tables here
    /// (`regex-syntax`'s) do not (a script new in Unicode 17,
    /// `Changes_When_NFKC_Casefolded`).
    UnknownToEngine(String),
    /// Valid JavaScript that needs the Unicode tables, which this build
    /// leaves out: a `\p{..}` property, or a group name beyond ASCII. Turn on
    /// the `unicode` feature (elicit-core's, or this crate's).
    NeedsUnicode(&'static str),
    /// The program is over the size or nesting limits.
    TooBig(String),
}

impl PatternError {
    pub(crate) fn new(kind: PatternErrorKind, at: Option<usize>) -> Self {
        Self { kind, at }
    }

    pub(crate) fn syntax(at: usize, message: impl Into<String>) -> Self {
        Self::new(PatternErrorKind::Syntax(message.into()), Some(at))
    }

    /// What is wrong.
    pub fn kind(&self) -> &PatternErrorKind {
        &self.kind
    }

    /// Where: the index of the first character of the offending construct,
    /// counted in characters from 0, when the refusal has a place.
    pub fn position(&self) -> Option<usize> {
        self.at
    }

    /// Whether JavaScript accepts the pattern and only this crate refuses
    /// it: lookaround, backreferences, and programs over the limits.
    pub fn is_valid_javascript(&self) -> bool {
        matches!(
            self.kind,
            PatternErrorKind::Lookaround(_)
                | PatternErrorKind::Backreference(_)
                | PatternErrorKind::UnknownToEngine(_)
                | PatternErrorKind::NeedsUnicode(_)
                | PatternErrorKind::TooBig(_)
        )
    }
}

/// Why lookaround and backreferences are refused, and what to do instead.
const NEEDS_BACKTRACKING: &str = "it needs a backtracking engine, and a pattern checks \
    input from the other side in time linear in its length; check the rule with two \
    fields, or in a `TryFrom<String>` newtype";

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(at) = self.at {
            write!(f, "at character {}: ", at + 1)?;
        }
        match &self.kind {
            PatternErrorKind::TooLong { len, max } => write!(
                f,
                "the pattern is {len} bytes long, over the limit of {max}: simplify it"
            ),
            PatternErrorKind::Syntax(message) | PatternErrorKind::UnknownToEngine(message) => {
                f.write_str(message)
            }
            PatternErrorKind::Lookaround(what) => {
                write!(f, "{what} is refused: {NEEDS_BACKTRACKING}")
            }
            PatternErrorKind::Backreference(what) => {
                write!(
                    f,
                    "the backreference `{what}` is refused: {NEEDS_BACKTRACKING}"
                )
            }
            PatternErrorKind::NeedsUnicode(what) => write!(
                f,
                "{what} needs Unicode's tables, which this build leaves out: turn on the \
                 `unicode` feature of elicit-core (or of elicit-pattern, used alone)"
            ),
            PatternErrorKind::TooBig(reason) => {
                write!(f, "the pattern is too big to run: {reason}; simplify it")
            }
        }
    }
}

impl std::error::Error for PatternError {}
