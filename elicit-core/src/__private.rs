//! Support for generated code: what `#[derive(Elicit)]` names, and nothing
//! else. Every item lives in its own module; this is only the list the
//! derive's output reaches through one path.

pub use crate::credential::{FORM_FIELD_MESSAGE, looks_like_credential};
pub use crate::error::Num;
pub use crate::field::{
    Attrs, Source, Wrapper, cached_json, cached_schema, choice_check, choice_from_value,
    choice_property, choice_to_value, from_content, to_content, transparent_property, try_convert,
};
pub use crate::field::{LengthField, REFUSES_ZERO_MESSAGE, RangeField, TextField};
pub use crate::format::Format;
pub use crate::format::LiteralRule;
pub use crate::format::{is_date, is_date_time, is_email, is_uri};
pub use crate::rules::deny_unknown;
pub use crate::schema::{merge, schema_with_capacity};
pub use serde_json::Value;
pub use std::borrow::Cow;
pub use std::sync::OnceLock;
