//! `jiff` (feature `jiff`): `civil::Date` as `format: date`, `Timestamp` as
//! `format: date-time`.
//!
//! - `civil::Date` reads `YYYY-MM-DD` with jiff's parser; every date the
//!   format accepts (years 0000 to 9999) is one jiff holds.
//! - `Timestamp` is the instant, written with `Z`. Refused: what jiff's own
//!   parser refuses (an instant past `9999-12-30T22:00:00Z`, jiff's upper
//!   bound; more than nine fractional digits); a leap second (`:60`, which
//!   jiff would fold into `:59`); an instant whose UTC year is before 0000
//!   (`0000-01-01T00:00:00+01:00`), which RFC 3339 cannot write back.
//! - `Zoned` is not a field: its time zone name (`[Europe/Paris]`) has no
//!   place in `date-time`, so it would not come back as it went out.

use jiff::Timestamp;
use jiff::civil::Date;
use serde_json::Value;

use super::{exact_date_time, formatted, parse_text};
use crate::error::FieldErrorKind;
use crate::field::{FormValue, TextDefault};
use crate::format::{Format, LiteralRule};
use crate::schema::PropertySchema;

impl FormValue for Date {
    const RUST_TYPE: &'static str = "civil::Date";
    fn property() -> PropertySchema {
        formatted(Format::Date)
    }
    fn from_value(value: &Value) -> Result<Self, FieldErrorKind> {
        parse_text(value, Self::RUST_TYPE, str::parse::<Date>)
    }
    fn to_value(&self) -> Value {
        Value::String(self.to_string())
    }
}

impl TextDefault for Date {
    const LITERAL: LiteralRule = LiteralRule::Date;
}

/// `0000-01-01T00:00:00Z`, in seconds from the Unix epoch.
const YEAR_0000: i64 = -62_167_219_200;

impl FormValue for Timestamp {
    const RUST_TYPE: &'static str = "Timestamp";
    fn property() -> PropertySchema {
        formatted(Format::DateTime)
    }
    fn from_value(value: &Value) -> Result<Self, FieldErrorKind> {
        parse_text(value, Self::RUST_TYPE, |text| {
            exact_date_time(text, false)?;
            let timestamp: Timestamp = text.parse().map_err(|e: jiff::Error| e.to_string())?;
            if timestamp.as_second() < YEAR_0000 {
                return Err(
                    "the instant falls before the year 0000 in UTC, which RFC 3339 cannot write"
                        .to_owned(),
                );
            }
            Ok(timestamp)
        })
    }
    fn to_value(&self) -> Value {
        Value::String(self.to_string())
    }
}

impl TextDefault for Timestamp {
    const LITERAL: LiteralRule = LiteralRule::DateTimeNoLeapSecond;
}
