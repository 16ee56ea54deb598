//! `chrono` (feature `chrono`): `NaiveDate` as `format: date`;
//! `DateTime<Utc>` and `DateTime<FixedOffset>` as `format: date-time`.
//!
//! - `NaiveDate` reads `YYYY-MM-DD` with chrono's own parser; every date
//!   the format accepts (years 0000 to 9999) is one chrono holds.
//! - `DateTime<FixedOffset>` keeps the offset it was given: it is written
//!   back as sent (`+02:00` stays `+02:00`; `Z` and `-00:00` read as
//!   `+00:00`). A leap second (`:60`) is kept, as chrono holds it.
//! - `DateTime<Utc>` is the instant; it is written with `Z`. An instant
//!   whose UTC year is outside 0000 to 9999 (`9999-12-31T23:00:00-02:00`)
//!   is refused: RFC 3339 could not write it back.
//! - More than nine fractional digits are refused (chrono would truncate).

use chrono::{DateTime, Datelike, FixedOffset, NaiveDate, SecondsFormat, Utc};
use serde_json::Value;

use super::{exact_date_time, formatted, parse_text};
use crate::error::FieldErrorKind;
use crate::field::{FormValue, TextDefault};
use crate::format::{Format, LiteralRule};
use crate::schema::PropertySchema;

impl FormValue for NaiveDate {
    const RUST_TYPE: &'static str = "NaiveDate";
    fn property() -> PropertySchema {
        formatted(Format::Date)
    }
    fn from_value(value: &Value) -> Result<Self, FieldErrorKind> {
        parse_text(value, Self::RUST_TYPE, str::parse::<NaiveDate>)
    }
    fn to_value(&self) -> Value {
        Value::String(self.format("%Y-%m-%d").to_string())
    }
}

impl TextDefault for NaiveDate {
    const LITERAL: LiteralRule = LiteralRule::Date;
}

/// chrono's RFC 3339 parser, after the checks of [`exact_date_time`].
fn parse_rfc3339(text: &str) -> Result<DateTime<FixedOffset>, String> {
    exact_date_time(text, true)?;
    DateTime::parse_from_rfc3339(text).map_err(|e| e.to_string())
}

impl FormValue for DateTime<FixedOffset> {
    const RUST_TYPE: &'static str = "DateTime<FixedOffset>";
    fn property() -> PropertySchema {
        formatted(Format::DateTime)
    }
    fn from_value(value: &Value) -> Result<Self, FieldErrorKind> {
        parse_text(value, Self::RUST_TYPE, parse_rfc3339)
    }
    fn to_value(&self) -> Value {
        Value::String(self.to_rfc3339_opts(SecondsFormat::AutoSi, false))
    }
}

impl TextDefault for DateTime<FixedOffset> {
    const LITERAL: LiteralRule = LiteralRule::DateTime;
}

impl FormValue for DateTime<Utc> {
    const RUST_TYPE: &'static str = "DateTime<Utc>";
    fn property() -> PropertySchema {
        formatted(Format::DateTime)
    }
    fn from_value(value: &Value) -> Result<Self, FieldErrorKind> {
        parse_text(value, Self::RUST_TYPE, |text| {
            let utc = parse_rfc3339(text)?.with_timezone(&Utc);
            if (0..=9999).contains(&utc.year()) {
                Ok(utc)
            } else {
                Err(format!(
                    "the instant falls in the year {} in UTC, which RFC 3339 cannot write",
                    utc.year()
                ))
            }
        })
    }
    fn to_value(&self) -> Value {
        Value::String(self.to_rfc3339_opts(SecondsFormat::AutoSi, true))
    }
}

impl TextDefault for DateTime<Utc> {
    const LITERAL: LiteralRule = LiteralRule::DateTime;
}
