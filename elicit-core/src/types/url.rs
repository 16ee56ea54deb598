//! `url` (feature `url`): `Url` as `format: uri`.
//!
//! Read with the `url` crate's WHATWG parser after the `uri` check, so what
//! reaches the parser is an absolute RFC 3986 URI. The parser refuses some
//! of those (`http://a:99999/`: the port is out of range; `http://[::1`)
//! and normalizes the rest (`HTTP://Example.COM` is
//! `http://example.com/`). Written as the URL's serialization. A `Url` built
//! in Rust whose serialization keeps characters RFC 3986 forbids (WHATWG
//! leaves `{`, `}`, `|`, `^` unescaped in a query) is written as is, and
//! the form's `uri` check then refuses it: never a different URL.

use serde_json::Value;
use url::Url;

use super::{formatted, parse_text};
use crate::error::FieldErrorKind;
use crate::field::{FormValue, TextDefault};
use crate::format::{Format, LiteralRule};
use crate::schema::PropertySchema;

impl FormValue for Url {
    const RUST_TYPE: &'static str = "Url";
    fn property() -> PropertySchema {
        formatted(Format::Uri)
    }
    fn from_value(value: &Value) -> Result<Self, FieldErrorKind> {
        parse_text(value, Self::RUST_TYPE, Url::parse)
    }
    fn to_value(&self) -> Value {
        Value::String(self.as_str().to_owned())
    }
}

impl TextDefault for Url {
    const LITERAL: LiteralRule = LiteralRule::Uri;
}
