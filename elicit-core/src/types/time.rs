//! `time` (feature `time`): `Date` as `format: date`, `OffsetDateTime` as
//! `format: date-time`.
//!
//! - `Date` reads `YYYY-MM-DD` with time's ISO 8601 parser; every date the
//!   format accepts (years 0000 to 9999) is one time holds.
//! - `OffsetDateTime` is read with time's RFC 3339 parser and keeps its
//!   offset (written back as sent; `Z` and `-00:00` as `Z`). A leap second
//!   (`:60`) is refused: time would fold it into `23:59:59.999999999` at the
//!   end of a month and refuse it elsewhere. More than nine fractional
//!   digits are refused (time would truncate them).
//! - Written with time's RFC 3339 formatter. A value it cannot write (a
//!   year outside 0000 to 9999, an offset with seconds, both possible only
//!   for values built in Rust) is written with time's `Display`, which the
//!   form's `date-time` check then refuses, never a different instant.

use serde_json::Value;
use time::format_description::well_known::{Iso8601, Rfc3339};
use time::{Date, OffsetDateTime};

use super::{exact_date_time, formatted, parse_text};
use crate::error::FieldErrorKind;
use crate::field::{FormValue, TextDefault};
use crate::format::{Format, LiteralRule};
use crate::schema::PropertySchema;

impl FormValue for Date {
    const RUST_TYPE: &'static str = "time::Date";
    fn property() -> PropertySchema {
        formatted(Format::Date)
    }
    fn from_value(value: &Value) -> Result<Self, FieldErrorKind> {
        parse_text(value, Self::RUST_TYPE, |text| {
            Date::parse(text, &Iso8601::DATE)
        })
    }
    fn to_value(&self) -> Value {
        Value::String(format!(
            "{:04}-{:02}-{:02}",
            self.year(),
            u8::from(self.month()),
            self.day()
        ))
    }
}

impl TextDefault for Date {
    const LITERAL: LiteralRule = LiteralRule::Date;
}

impl FormValue for OffsetDateTime {
    const RUST_TYPE: &'static str = "OffsetDateTime";
    fn property() -> PropertySchema {
        formatted(Format::DateTime)
    }
    fn from_value(value: &Value) -> Result<Self, FieldErrorKind> {
        parse_text(value, Self::RUST_TYPE, |text| {
            exact_date_time(text, false)?;
            OffsetDateTime::parse(text, &Rfc3339).map_err(|e| e.to_string())
        })
    }
    fn to_value(&self) -> Value {
        Value::String(self.format(&Rfc3339).unwrap_or_else(|_| self.to_string()))
    }
}

impl TextDefault for OffsetDateTime {
    const LITERAL: LiteralRule = LiteralRule::DateTimeNoLeapSecond;
}
