//! JSON Schema `pattern`s with JavaScript's meaning, matched in linear time.
//!
//! A JSON Schema `pattern` is an ECMA-262 regular expression, and the
//! validators that check elicitation answers in practice are JavaScript:
//! AJV compiles a pattern as `new RegExp(pattern, "u")`. This crate gives a
//! pattern that meaning on the Rust side:
//!
//! - [`compile`] reads the pattern with ECMA-262 `u`-mode syntax, refuses
//!   what JavaScript refuses (with what to write instead), and runs the
//!   rest on this crate's own automaton (a Thompson NFA run as sets of
//!   states, with a DFA over ASCII for small patterns), whose matching time
//!   is linear in the input: `\d` is `[0-9]`, `\w` and `\b`
//!   are ASCII, `\s` is ECMA's white space and line terminators, `.` stops
//!   at ECMA's four line terminators, `$` matches only at the end, and
//!   `\p{..}` takes exactly ECMA's property names.
//! - The two constructs JavaScript has and a linear-time engine cannot run,
//!   lookaround and backreferences, are refused with the reason and an
//!   alternative.
//!
//! This is the dialect of `elicit-core` (at run time) and of its derive (at
//! compile time): depend on `elicit-core`, which uses it for every
//! `pattern`. The one place the two agree on what a pattern means is here.
//!
//! ```
//! let date = elicit_pattern::compile(r"^\d{4}-\d{2}-\d{2}$").unwrap();
//! assert!(date.is_match("2026-05-17"));
//! // Arabic-Indic digits are not `\d` in JavaScript, nor here.
//! assert!(!date.is_match("2026-05-1٧"));
//!
//! // `\-` outside a class is not JavaScript `u`-mode syntax.
//! let err = elicit_pattern::compile(r"^[a-z]+\-[0-9]+$").unwrap_err();
//! assert!(err.to_string().contains("write `-`"));
//! ```
//!
//! Unicode properties (`\p{..}`, and group names beyond ASCII) need
//! Unicode's tables, from `regex-syntax`: the `unicode` feature, on by
//! default here (elicit-core's `unicode` feature, off by default there). Without it, such patterns are
//! refused with [`PatternErrorKind::NeedsUnicode`]. They follow the Unicode
//! version of those tables (16.0 for regex-syntax 0.8.12): a JavaScript
//! engine on a later version may differ on characters assigned since, and
//! knows scripts this one refuses by name.

#![deny(missing_docs)]

mod engine;
mod error;
mod property;
mod set;
mod translate;

pub use error::{PatternError, PatternErrorKind};

/// A compiled pattern: [`compile`]'s result.
#[derive(Debug, Clone)]
pub struct Regex {
    /// The translated program's text.
    program: String,
    nfa: std::sync::Arc<engine::Nfa>,
    /// Whether the pattern matches the empty string between the two
    /// halves of a surrogate pair (see [`Regex::is_match`]), read from the
    /// pattern itself.
    empty_inside_pair: bool,
}

impl Regex {
    /// Whether `input` contains a match: JavaScript's
    /// `new RegExp(source, "u").test(input)`.
    ///
    /// This includes one behaviour of the engines of V8 (Node, Chrome) and
    /// SpiderMonkey (Firefox) that ECMA-262 does not have: they also try a
    /// match between the two UTF-16 halves of a character outside the
    /// Basic Multilingual Plane, where nothing can be consumed and `\B`
    /// holds. So `\B` alone matches `"a😀b"` there (and nowhere else).
    /// Patterns that can match the empty string there give `true` on any
    /// input with such a character, as they do in those clients.
    pub fn is_match(&self, input: &str) -> bool {
        self.nfa.is_match(input)
            || (self.empty_inside_pair && input.chars().any(|c| c > '\u{FFFF}'))
    }

    /// The program (see [`translate()`]), which gives ECMA-262's own verdict:
    /// without the match inside a surrogate pair.
    pub fn program(&self) -> &str {
        &self.program
    }
}

/// The largest pattern source accepted, in bytes.
pub const MAX_PATTERN_LEN: usize = 1024;

/// The size limit of a compiled pattern, in bytes: its automaton's states
/// (each repetition written out) may take at most this much.
pub const PATTERN_SIZE_LIMIT: usize = 1 << 20;

/// The deepest nesting of groups a pattern may have.
pub const PATTERN_NEST_LIMIT: u32 = 64;

/// Compiles an ECMA-262 (`u` mode) pattern into a linear-time [`Regex`]
/// whose [`is_match`](Regex::is_match) gives
/// JavaScript's `new RegExp(source, "u").test(input)` on every input.
///
/// Refused, each with a [`PatternError`] that says where and what to
/// write instead: a source over [`MAX_PATTERN_LEN`] bytes; anything
/// JavaScript refuses in `u` mode; lookaround and backreferences; a
/// program over the size limits.
pub fn compile(source: &str) -> Result<Regex, PatternError> {
    check_len(source)?;
    let translated = translate::translate(source)?;
    let nfa = engine::Nfa::new(translated.node).map_err(|engine::TooBig| {
        PatternError::new(
            PatternErrorKind::TooBig(format!(
                "the compiled pattern exceeds the size limit of {PATTERN_SIZE_LIMIT} bytes"
            )),
            None,
        )
    })?;
    Ok(Regex {
        program: translated.program,
        nfa: std::sync::Arc::new(nfa),
        empty_inside_pair: translated.empty_inside_pair,
    })
}

/// The pattern as a program of Rust's `regex` syntax (which `regex` and
/// `regex-lite` both read), with the meaning [`compile`] gives it, or why
/// there is none: what the pattern means, written out. Every construct is
/// spelled out, so the program means the same whatever the engine's
/// defaults. [`compile`] does not run it: it runs the same reading of the
/// pattern on its own automaton.
///
/// ```
/// assert_eq!(elicit_pattern::translate(r"^\d+$").unwrap(), "^[0-9]+$");
/// ```
pub fn translate(source: &str) -> Result<String, PatternError> {
    check_len(source)?;
    translate::translate(source).map(|t| t.program)
}

fn check_len(source: &str) -> Result<(), PatternError> {
    if source.len() > MAX_PATTERN_LEN {
        return Err(PatternError::new(
            PatternErrorKind::TooLong {
                len: source.len(),
                max: MAX_PATTERN_LEN,
            },
            None,
        ));
    }
    Ok(())
}

// This package's README (the crates.io page) is compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
