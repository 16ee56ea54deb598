//! `uuid` (feature `uuid`): `Uuid` as a string with
//! `UUID_PATTERN`, the hyphenated form in
//! either case (the known formats have no `uuid`).
//!
//! Every string the pattern accepts is a UUID, so the `uuid` crate's parser
//! never refuses one; the other forms it would read (simple, braced,
//! `urn:uuid:`) are refused by the pattern first. Written hyphenated, in
//! lowercase.

use serde_json::Value;
use uuid::Uuid;

use super::parse_text;
use crate::error::FieldErrorKind;
use crate::field::{FormValue, TextDefault};
use crate::format::LiteralRule;
use crate::format::text::UUID_PATTERN;
use crate::schema::{PropertySchema, StringSchema};

impl FormValue for Uuid {
    const RUST_TYPE: &'static str = "Uuid";
    fn property() -> PropertySchema {
        StringSchema::new().pattern(UUID_PATTERN).into()
    }
    fn from_value(value: &Value) -> Result<Self, FieldErrorKind> {
        parse_text(value, Self::RUST_TYPE, Uuid::parse_str)
    }
    fn to_value(&self) -> Value {
        Value::String(self.hyphenated().to_string())
    }
}

impl TextDefault for Uuid {
    const LITERAL: LiteralRule = LiteralRule::Uuid;
}
