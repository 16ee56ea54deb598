//! Form field types beyond the primitives: std's `NonZero` integers
//! (always), and, each behind its own feature (off by default), the date,
//! time, URL and UUID types of `chrono`, `time`, `jiff`, `url` and `uuid`.
//!
//! Each is read in two steps, like every field: the engine
//! ([`crate::rules`]) checks the value against the type's property (its
//! `format`, `pattern` or range) first; then the type's own parser converts
//! it. What that parser refuses although the property admits it (a URL with
//! port 99999, a `jiff::Timestamp` past its range) is
//! [`FieldErrorKind::Refused`], with the parser's own message. What the type
//! would keep only by changing it (a leap second that `time` and `jiff` fold
//! into `:59`, digits finer than nanoseconds, an instant whose UTC year RFC
//! 3339 cannot write) is refused the same way, never silently altered.
//! Writing (`to_content`) gives what the format expects: RFC 3339 for dates
//! and date-times, the URL's serialization, the hyphenated UUID.

use std::fmt::Display;

use serde_json::Value;

use crate::error::{FieldErrorKind, JsonKind};
use crate::format::Format;
use crate::schema::{PropertySchema, StringSchema};

mod nonzero;

#[cfg(feature = "chrono")]
mod chrono;
#[cfg(feature = "jiff")]
mod jiff;
#[cfg(feature = "time")]
mod time;
#[cfg(feature = "url")]
mod url;
#[cfg(feature = "uuid")]
mod uuid;

/// A string property with a known `format`.
#[cfg_attr(
    not(any(
        feature = "chrono",
        feature = "time",
        feature = "jiff",
        feature = "url"
    )),
    allow(dead_code)
)]
fn formatted(format: Format) -> PropertySchema {
    StringSchema::new().format(format).into()
}

/// The text of a string value (already checked by the engine), converted
/// with `parse`; a refusal is [`FieldErrorKind::Refused`] with `parse`'s
/// message.
#[cfg_attr(
    not(any(
        feature = "chrono",
        feature = "time",
        feature = "jiff",
        feature = "url",
        feature = "uuid"
    )),
    allow(dead_code)
)]
fn parse_text<T, E: Display>(
    value: &Value,
    rust_type: &'static str,
    parse: impl FnOnce(&str) -> Result<T, E>,
) -> Result<T, FieldErrorKind> {
    let Value::String(text) = value else {
        return Err(FieldErrorKind::WrongType {
            expected: "a string",
            found: JsonKind::of(value),
        });
    };
    parse(text).map_err(|e| crate::error::refused(rust_type, e))
}

/// The checks every date-time type here shares, on text the `date-time`
/// format already accepted: no digits finer than nanoseconds (the types
/// would round them away), and, for a type that cannot hold one, no leap
/// second (`time` and `jiff` would fold it into another instant).
#[cfg_attr(
    not(any(feature = "chrono", feature = "time", feature = "jiff")),
    allow(dead_code)
)]
fn exact_date_time(text: &str, leap_second: bool) -> Result<(), &'static str> {
    if crate::format::has_sub_nanosecond_digits(text) {
        return Err("more than nine fractional digits: the type holds nanoseconds");
    }
    if !leap_second && crate::format::has_leap_second(text) {
        return Err("the type cannot hold a leap second (`:60`)");
    }
    Ok(())
}
