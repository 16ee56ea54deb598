//! The bodies of a derived single-select's `FormValue` impl.

use serde_json::Value;

use crate::error::FieldErrorKind;
use crate::field::{Choice, read_choice};
use crate::rules;
use crate::schema::{PropertySchema, StringSchema};

/// Reads a [`Choice`] from a submitted value.
#[inline]
pub fn choice_from_value<C: Choice>(value: &Value) -> Result<C, FieldErrorKind> {
    read_choice(value)
}

/// Derived [`FormValue::check`](crate::FormValue::check) of a [`Choice`]: the conversion, a
/// `match` on the option values, is the membership check, so a value that
/// converts is one of the options the property lists (a derived property's
/// options are exactly [`Choice::OPTIONS`]). Anything else goes to the
/// engine, whose error is reported.
#[inline]
pub fn choice_check<C: Choice>(
    property: &PropertySchema,
    value: &Value,
) -> Result<C, FieldErrorKind> {
    if let Value::String(s) = value
        && let Some(choice) = C::from_wire(s)
    {
        return Ok(choice);
    }
    rules::check_value(property, value)?;
    read_choice(value)
}

/// The single-select property of a [`Choice`]; derived `FormValue` impls of
/// enums call this.
pub fn choice_property<C: Choice>() -> PropertySchema {
    StringSchema::select(C::options()).into()
}

/// A [`Choice`] as the value a client submits.
pub fn choice_to_value<C: Choice>(choice: &C) -> Value {
    Value::String(choice.as_wire().to_owned())
}
