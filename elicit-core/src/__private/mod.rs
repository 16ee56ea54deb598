//! Support for generated code: what `#[derive(Elicit)]` names, and nothing
//! else. Not public API: may change in any release.
//!
//! The glue lives here, in hidden traits and functions the derive's output
//! calls; every rule it applies lives once in elicit-core's public modules
//! (`rules`, `format`, `credential`).
//!
//! - `form.rs`: `DerivedForm`, what a derived form implements besides
//!   `Elicit` (collect, write, count, unknown keys), and the
//!   derived `from_content` / `from_content_owned` / `to_content` bodies,
//!   and a form's `check` run after its fields (`run_check`,
//!   `finish_checked`);
//!   content read in one pass into one slot per field (`Source`, `Entry`).
//! - `field.rs`: `FieldGlue`, implemented for every field type (push its
//!   property, take its value, put it back), and the field attributes
//!   (`Attrs`); newtype glue (`Wrapper`, `transparent_property`,
//!   `try_convert`).
//! - `choice.rs`: the bodies of a derived single-select's `FormValue` impl.
//! - `schema.rs`: building a derived schema (capacity, flatten's merge).
//! - `secret.rs` (feature `sensitive`): a `#[secret]` field's glue.

mod choice;
mod field;
mod form;
mod schema;
#[cfg(feature = "sensitive")]
mod secret;
mod slot;

pub use choice::{choice_check, choice_from_value, choice_property, choice_to_value};
pub use field::{
    Attrs, FieldGlue, REFUSES_ZERO_MESSAGE, Wrapper, transparent_property, try_convert,
};
pub use form::{
    DerivedForm, Entry, Source, cached_json, cached_schema, deny_unknown, finish, finish_checked,
    from_content, from_content_owned, run_check, to_content,
};
pub use schema::{merge, schema_with_capacity};
#[cfg(feature = "sensitive")]
pub use secret::{SecretGlue, submission_parts};

pub use crate::credential::{FORM_FIELD_MESSAGE, looks_like_credential};
pub use crate::error::Num;
pub use crate::field::{LengthField, RangeField, TextField};
pub use crate::format::text::{is_date, is_date_time, is_email, is_uri};
pub use crate::format::{Format, LiteralRule};
pub use serde_json::Value;
pub use std::borrow::Cow;
pub use std::sync::OnceLock;

/// A tool's arguments read as the form `T` when they are complete, as
/// `Rounds::arguments` reads them before it asks anything (in place, no
/// copy): `Some` then, `None` when the user would be asked. For the
/// benchmarks (`benches/paired.rs`).
#[cfg(any(feature = "acp-sdk", feature = "rmcp"))]
pub fn complete_arguments<T: crate::Elicit>(arguments: &crate::Content) -> Option<T> {
    match crate::flow::partial::Given::<T>::read(Some(arguments)) {
        crate::flow::partial::Given::Complete(value) => Some(value),
        crate::flow::partial::Given::Gaps { .. } => None,
    }
}
