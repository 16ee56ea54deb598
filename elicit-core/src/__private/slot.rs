//! A field's glue by its shape, `T` or `Option<T>`: what derived code
//! reads and writes of it, out of the public [`FormField`].

use serde_json::Value;

use crate::error::FieldErrorKind;
use crate::field::{FormField, FormValue};
use crate::schema::PropertySchema;

/// What derived code reads and writes of a field, by its shape (`T` or
/// `Option<T>`): [`FormField`]'s glue, out of the public trait.
pub trait Slot: FormField {
    /// The field from a present value, checked against `property` and
    /// converted ([`FormValue::check`]).
    fn check_present(property: &PropertySchema, value: &Value) -> Result<Self, FieldErrorKind>;

    /// [`check_present`](Self::check_present) for an owned value: strings
    /// are moved, not copied.
    fn check_present_owned(property: &PropertySchema, value: Value)
    -> Result<Self, FieldErrorKind>;

    /// The field when its key is absent or `null`: `Some(None)` for an
    /// `Option`, `None` (missing) otherwise.
    fn absent() -> Option<Self>;

    /// The field from its default value.
    fn from_default(value: Self::Value) -> Self;

    /// The value to submit, or `None` to leave the key out.
    fn to_entry(&self) -> Option<Value>;
}

impl<T: FormValue> Slot for T {
    #[inline]
    fn check_present(property: &PropertySchema, value: &Value) -> Result<Self, FieldErrorKind> {
        T::check(property, value)
    }
    #[inline]
    fn check_present_owned(
        property: &PropertySchema,
        value: Value,
    ) -> Result<Self, FieldErrorKind> {
        T::check_owned(property, value)
    }
    fn absent() -> Option<Self> {
        None
    }
    fn from_default(value: T) -> Self {
        value
    }
    fn to_entry(&self) -> Option<Value> {
        Some(FormValue::to_value(self))
    }
}

#[diagnostic::do_not_recommend]
impl<T: FormValue> Slot for Option<T> {
    #[inline]
    fn check_present(property: &PropertySchema, value: &Value) -> Result<Self, FieldErrorKind> {
        T::check(property, value).map(Some)
    }
    #[inline]
    fn check_present_owned(
        property: &PropertySchema,
        value: Value,
    ) -> Result<Self, FieldErrorKind> {
        T::check_owned(property, value).map(Some)
    }
    fn absent() -> Option<Self> {
        Some(None)
    }
    fn from_default(value: T) -> Self {
        Some(value)
    }
    fn to_entry(&self) -> Option<Value> {
        self.as_ref().map(FormValue::to_value)
    }
}
