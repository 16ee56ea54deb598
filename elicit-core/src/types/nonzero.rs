//! `NonZero` integers: an integer property with the type's range less 0.
//!
//! The unsigned ones start at 1 (`minimum: 1`). A signed one spans 0, and
//! the restricted schema has no way to say "not 0" inside a range, so
//! [`FormValue::REFUSES_ZERO`] makes the derive require a `range` that
//! leaves 0 out (`range(min = 1)` or `range(max = -1)`): the schema a client
//! validates against is then exactly what the type accepts.

use std::num::NonZero;

use serde_json::Value;

use crate::error::{FieldErrorKind, Num};
use crate::field::{FormValue, RangeField, clamp_i64};
use crate::rules;
use crate::schema::{IntegerSchema, PropertySchema};

macro_rules! nonzero {
    ($($t:ty => $name:literal),*) => {$(
        impl FormValue for NonZero<$t> {
            const RUST_TYPE: &'static str = $name;
            const REFUSES_ZERO: bool = <$t>::MIN != 0;
            fn property() -> PropertySchema {
                IntegerSchema {
                    minimum: Some(clamp_i64(<Self as RangeField>::MIN)),
                    maximum: Some(clamp_i64(<Self as RangeField>::MAX)),
                    ..IntegerSchema::default()
                }
                .into()
            }
            fn from_value(value: &Value) -> Result<Self, FieldErrorKind> {
                let n = rules::as_integer(value)?;
                <$t>::try_from(n)
                    .ok()
                    .and_then(NonZero::new)
                    .ok_or(FieldErrorKind::OutOfTypeRange {
                        rust_type: $name,
                        value: Num::Int(n),
                    })
            }
            fn to_value(&self) -> Value {
                Value::from(self.get())
            }
        }

        impl RangeField for NonZero<$t> {
            // Unsigned: from 1. Signed: the whole range (0 is left out by the
            // `range` the derive requires, see `FormValue::REFUSES_ZERO`).
            const MIN: i128 = if <$t>::MIN == 0 { 1 } else { clamp_i64(<$t>::MIN as i128) as i128 };
            const MAX: i128 = clamp_i64(<$t>::MAX as i128) as i128;
            const INTEGER: bool = true;
        }
    )*};
}

nonzero!(
    u8 => "NonZeroU8", u16 => "NonZeroU16", u32 => "NonZeroU32", u64 => "NonZeroU64",
    usize => "NonZeroUsize", i8 => "NonZeroI8", i16 => "NonZeroI16", i32 => "NonZeroI32",
    i64 => "NonZeroI64", isize => "NonZeroIsize"
);
