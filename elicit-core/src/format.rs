//! String formats known to ACP elicitation (`email`, `uri`, `date`,
//! `date-time`), checked the way a form client should check a JSON Schema
//! `format` keyword on a `string` field.
//!
//! [`Format::matches`] checks a value; [`LiteralRule::check`] checks a
//! literal default at compile time. Both run the same `const fn`
//! validators, byte by byte on ASCII: any non-ASCII byte makes the value
//! invalid, and none trims whitespace. What each format accepts is in
//! [`Format`]'s variants.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A string `format`. The four known ones are validated; any other is an
/// annotation, kept but not checked.
///
/// Note: the official Rust types (`agent-client-protocol-schema` 1.17–1.20)
/// model `format` as a closed enum, so a client built on that crate fails to
/// parse a schema with an [`Other`](Format::Other) format.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Format {
    /// `email`: an address by a pragmatic rule, close to what HTML's
    /// `<input type="email">` accepts (not the full RFC 5322 grammar:
    /// quoted local parts, comments and IP-literal domains are refused).
    /// At most 254 bytes, one `@`, a local part of printable ASCII without
    /// `( ) , : ; < > [ ] \ "`, no leading, trailing or doubled `.`, and a
    /// domain of 1-to-63-byte labels of letters, digits and inner `-`.
    Email,
    /// `uri`: an absolute URI (RFC 3986): a scheme (a letter, then letters,
    /// digits, `+`, `-` or `.`), `:`, and at least one more byte; no
    /// whitespace, control characters or bytes RFC 3986 never allows.
    Uri,
    /// `date`: RFC 3339 full-date, `YYYY-MM-DD`, a day that exists (29
    /// February only in Gregorian leap years).
    Date,
    /// `date-time`: RFC 3339 date-time: a `date`, `T` or `t` (not a space),
    /// `HH:MM:SS` (second `60` allowed, a leap second), optional fractional
    /// seconds, and a zone, `Z`, `z` or `±HH:MM`.
    DateTime,
    /// Any other format, kept as an annotation.
    Other(String),
}

impl Format {
    /// The four formats this crate validates, in documentation order.
    pub const KNOWN: [Format; 4] = [Self::Email, Self::Uri, Self::Date, Self::DateTime];

    /// The wire name.
    pub fn as_str(&self) -> &str {
        match self {
            Self::Email => "email",
            Self::Uri => "uri",
            Self::Date => "date",
            Self::DateTime => "date-time",
            Self::Other(s) => s,
        }
    }

    /// Reads a wire name.
    pub fn parse(s: &str) -> Self {
        Self::KNOWN
            .into_iter()
            .find(|known| known.as_str() == s)
            .unwrap_or_else(|| Self::Other(s.to_owned()))
    }

    /// Whether `text` is valid for this format. Unknown formats are
    /// annotations and accept everything.
    // Not inlined into the engine's text check: most strings have no
    // format, and they should not pay for saving the registers it uses.
    #[inline(never)]
    pub fn matches(&self, text: &str) -> bool {
        match self {
            Self::Email => is_email(text),
            Self::Uri => is_uri(text),
            Self::Date => is_date(text),
            Self::DateTime => is_date_time(text),
            Self::Other(_) => true,
        }
    }
}

/// Writes the wire name.
impl Serialize for Format {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// Reads a wire name; any string is a format.
impl<'de> Deserialize<'de> for Format {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        String::deserialize(deserializer).map(|s| Self::parse(&s))
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

pub(crate) mod text;

pub(crate) use text::{
    has_leap_second, has_sub_nanosecond_digits, is_date, is_date_time, is_email, is_email_domain,
    is_uri, is_uuid,
};

/// What a string literal `default = ".."` must be for a field type read
/// from text. `#[derive(Elicit)]` evaluates [`check`](Self::check) at compile
/// time on the field type's [`TextDefault::LITERAL`](crate::field::TextDefault::LITERAL),
/// so a default the field's own rule refuses does not compile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum LiteralRule {
    /// Any text (`String`).
    Any,
    /// A `date` ([`is_date`]).
    Date,
    /// A `date-time` ([`is_date_time`]) with at most nine fractional digits.
    DateTime,
    /// A `date-time` as for [`DateTime`](Self::DateTime), without a leap
    /// second, for types that cannot hold one.
    DateTimeNoLeapSecond,
    /// An `email` ([`is_email`]).
    Email,
    /// A `uri` ([`is_uri`]).
    Uri,
    /// A hyphenated UUID (`8-4-4-4-12` hexadecimal digits, either case).
    Uuid,
}

impl LiteralRule {
    /// `Ok` if `text` passes this rule, else why not (the compile error the
    /// derive reports at the default).
    pub const fn check(self, text: &str) -> Result<(), &'static str> {
        match self {
            Self::Any => Ok(()),
            Self::Date if is_date(text) => Ok(()),
            Self::Date => Err(
                "this default is not a valid `date` (RFC 3339 `YYYY-MM-DD`, a day that exists): fix the default",
            ),
            Self::DateTime | Self::DateTimeNoLeapSecond if !is_date_time(text) => Err(
                "this default is not a valid `date-time` (RFC 3339, e.g. `2026-01-01T09:00:00Z`, the zone required): fix the default",
            ),
            Self::DateTime | Self::DateTimeNoLeapSecond if has_sub_nanosecond_digits(text) => Err(
                "this default has more than nine fractional digits, finer than the nanoseconds the field's type holds: fix the default",
            ),
            Self::DateTimeNoLeapSecond if has_leap_second(text) => Err(
                "this default has a leap second (`:60`), which the field's type cannot hold: fix the default",
            ),
            Self::DateTime | Self::DateTimeNoLeapSecond => Ok(()),
            Self::Email if is_email(text) => Ok(()),
            Self::Email => Err("this default is not a valid `email`: fix the default"),
            Self::Uri if is_uri(text) => Ok(()),
            Self::Uri => Err(
                "this default is not a valid `uri` (an absolute URI with a scheme, e.g. `https://example.com/`): fix the default",
            ),
            Self::Uuid if is_uuid(text) => Ok(()),
            Self::Uuid => Err(
                "this default is not a hyphenated UUID (`8-4-4-4-12` hexadecimal digits): fix the default",
            ),
        }
    }
}
