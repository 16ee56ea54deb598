//! Which Rust types can be form fields, and how each maps to a property
//! schema and back.
//!
//! A field's type implements [`FormField`]. Every flat value type implements
//! [`FormValue`], and `Option<T>` of one is an optional field. Anything else
//! (a nested struct, `Vec<String>`, a map, a tuple, a reference, a `Box`) is a
//! compile error that says why forms are flat and what to use instead.

use std::collections::{BTreeSet, HashSet};
use std::hash::{BuildHasher, Hash};

use serde_json::Value;

use crate::error::{FieldErrorKind, Num};
use crate::rules;
use crate::schema::{
    BooleanSchema, EnumOption, IntegerSchema, MultiSelectSchema, NumberSchema, Options,
    PropertySchema, StringSchema,
};

/// A type that is one flat form value: a string, a boolean, a number, a
/// single-select enum, or a multi-select of such an enum.
///
/// Implemented for `String`, `bool`, every integer type, `f32`, `f64`, enums
/// that `#[derive(Elicit)]`, and `Vec`/`BTreeSet`/`HashSet` of such enums.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a form field: ACP forms are flat",
    label = "not a flat form field type",
    note = "a form field is one of: `String`, `bool`, an integer type, `f32`/`f64`, a unit-only enum with `#[derive(Elicit)]` (single-select), a `Vec`/`BTreeSet`/`HashSet` of such an enum (multi-select), or an `Option` of any of these",
    note = "for a nested struct that derives `Elicit`, merge its fields with `#[elicit(flatten)]`; for lists of free text, ask for a delimited `String` or elicit again; secrets must go through URL mode"
)]
pub trait FormValue: Sized {
    /// The Rust type's name, for error messages.
    const RUST_TYPE: &'static str;

    /// The property schema of this type with no attributes applied (for
    /// integers, the type's own range as `minimum`/`maximum`).
    fn property() -> PropertySchema;

    /// Converts a value that already passed the engine's check against this
    /// type's property schema. Errors only for what the schema cannot express
    /// (e.g. `1e39` for an `f32`); never panics, never wraps.
    fn from_value(value: &Value) -> Result<Self, FieldErrorKind>;

    /// The value as a client would submit it.
    fn to_value(&self) -> Value;
}

/// A type a form field can have: a [`FormValue`] (required), or an `Option`
/// of one (optional: absent or `null` is `None`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a form field: ACP forms are flat",
    label = "not a flat form field type",
    note = "a form field is one of: `String`, `bool`, an integer type, `f32`/`f64`, a unit-only enum with `#[derive(Elicit)]` (single-select), a `Vec`/`BTreeSet`/`HashSet` of such an enum (multi-select), or an `Option` of any of these (but not `Option<Option<T>>`)"
)]
pub trait FormField: Sized {
    /// The value type inside (`T` for both `T` and `Option<T>`); a field's
    /// `default = ..` is of this type.
    type Value: FormValue;

    /// Whether the field must be answered (`false` for `Option`).
    const REQUIRED: bool;

    /// The field from a present value (already checked by the engine).
    fn from_present(value: &Value) -> Result<Self, FieldErrorKind>;

    /// The field when its key is absent or `null`: `Some(None)` for an
    /// `Option`, `None` (missing) otherwise.
    fn absent() -> Option<Self>;

    /// The field from its default value.
    fn from_default(value: Self::Value) -> Self;

    /// The value to submit, or `None` to leave the key out.
    fn to_entry(&self) -> Option<Value>;
}

impl<T: FormValue> FormField for T {
    type Value = T;
    const REQUIRED: bool = true;
    fn from_present(value: &Value) -> Result<Self, FieldErrorKind> {
        T::from_value(value)
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

impl<T: FormValue> FormField for Option<T> {
    type Value = T;
    const REQUIRED: bool = false;
    fn from_present(value: &Value) -> Result<Self, FieldErrorKind> {
        T::from_value(value).map(Some)
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

impl FormValue for String {
    const RUST_TYPE: &'static str = "String";
    fn property() -> PropertySchema {
        StringSchema::new().into()
    }
    fn from_value(value: &Value) -> Result<Self, FieldErrorKind> {
        match value {
            Value::String(s) => Ok(s.clone()),
            other => Err(FieldErrorKind::WrongType {
                expected: "a string",
                found: crate::JsonKind::of(other),
            }),
        }
    }
    fn to_value(&self) -> Value {
        Value::String(self.clone())
    }
}

impl FormValue for bool {
    const RUST_TYPE: &'static str = "bool";
    fn property() -> PropertySchema {
        BooleanSchema::default().into()
    }
    fn from_value(value: &Value) -> Result<Self, FieldErrorKind> {
        match value {
            Value::Bool(b) => Ok(*b),
            other => Err(FieldErrorKind::WrongType {
                expected: "a boolean",
                found: crate::JsonKind::of(other),
            }),
        }
    }
    fn to_value(&self) -> Value {
        Value::Bool(*self)
    }
}

/// Integers: the Rust type's range, intersected with the wire's `i64`, is
/// the property's `minimum`/`maximum`.
pub trait IntegerField: FormValue + Copy + Into<i128> + TryFrom<i128> {
    /// The smallest value, as it can be written on the wire.
    const WIRE_MIN: i64;
    /// The largest value, as it can be written on the wire.
    const WIRE_MAX: i64;
}

macro_rules! integer {
    ($($t:ty),*) => {$(
        impl IntegerField for $t {
            const WIRE_MIN: i64 = clamp_i64(<$t>::MIN as i128);
            const WIRE_MAX: i64 = clamp_i64(<$t>::MAX as i128);
        }
        impl FormValue for $t {
            const RUST_TYPE: &'static str = stringify!($t);
            fn property() -> PropertySchema {
                IntegerSchema {
                    minimum: Some(Self::WIRE_MIN),
                    maximum: Some(Self::WIRE_MAX),
                    ..IntegerSchema::default()
                }
                .into()
            }
            fn from_value(value: &Value) -> Result<Self, FieldErrorKind> {
                let n = rules::as_integer(value)?;
                <$t>::try_from(n).map_err(|_| FieldErrorKind::OutOfTypeRange {
                    rust_type: stringify!($t),
                    value: Num::Int(n),
                })
            }
            fn to_value(&self) -> Value {
                Value::from(*self)
            }
        }
    )*};
}

const fn clamp_i64(n: i128) -> i64 {
    if n > i64::MAX as i128 {
        i64::MAX
    } else if n < i64::MIN as i128 {
        i64::MIN
    } else {
        n as i64
    }
}

integer!(i8, i16, i32, i64, u8, u16, u32, u64);

// `isize`/`usize` do not convert into `i128` through `Into` on every target,
// so they get the same behaviour spelled out.
macro_rules! pointer_integer {
    ($($t:ty),*) => {$(
        impl FormValue for $t {
            const RUST_TYPE: &'static str = stringify!($t);
            fn property() -> PropertySchema {
                IntegerSchema {
                    minimum: Some(clamp_i64(<$t>::MIN as i128)),
                    maximum: Some(clamp_i64(<$t>::MAX as i128)),
                    ..IntegerSchema::default()
                }
                .into()
            }
            fn from_value(value: &Value) -> Result<Self, FieldErrorKind> {
                let n = rules::as_integer(value)?;
                <$t>::try_from(n).map_err(|_| FieldErrorKind::OutOfTypeRange {
                    rust_type: stringify!($t),
                    value: Num::Int(n),
                })
            }
            fn to_value(&self) -> Value {
                Value::from(*self)
            }
        }
    )*};
}

pointer_integer!(isize, usize);

impl FormValue for f64 {
    const RUST_TYPE: &'static str = "f64";
    fn property() -> PropertySchema {
        NumberSchema::default().into()
    }
    fn from_value(value: &Value) -> Result<Self, FieldErrorKind> {
        match value {
            Value::Number(n) => n.as_f64().ok_or(FieldErrorKind::WrongType {
                expected: "a number",
                found: crate::JsonKind::Number,
            }),
            other => Err(FieldErrorKind::WrongType {
                expected: "a number",
                found: crate::JsonKind::of(other),
            }),
        }
    }
    fn to_value(&self) -> Value {
        Value::from(*self)
    }
}

impl FormValue for f32 {
    const RUST_TYPE: &'static str = "f32";
    fn property() -> PropertySchema {
        NumberSchema::default().into()
    }
    fn from_value(value: &Value) -> Result<Self, FieldErrorKind> {
        let x = <f64 as FormValue>::from_value(value)?;
        if x.abs() > f64::from(f32::MAX) {
            return Err(FieldErrorKind::OutOfTypeRange {
                rust_type: "f32",
                value: Num::Float(x),
            });
        }
        // In range: the conversion rounds to the nearest f32, never to infinity.
        #[allow(clippy::cast_possible_truncation)]
        Ok(x as f32)
    }
    fn to_value(&self) -> Value {
        Value::from(f64::from(*self))
    }
}

/// A unit-only enum used as a single-select. `#[derive(Elicit)]` on such an
/// enum implements it (and, through it, [`FormValue`]).
///
/// Each variant is an option with a wire value and, optionally, a title and
/// a description. With no title on any variant the property is written as
/// `enum: [..]`; otherwise as `oneOf: [{const, title, description?}]`.
pub trait Choice: Sized + 'static {
    /// The options, in variant order.
    const OPTIONS: &'static [ChoiceOption];

    /// Whether the options are written as titled `oneOf`/`anyOf`.
    const TITLED: bool;

    /// The variant's wire value.
    fn as_wire(&self) -> &'static str;

    /// The variant with this wire value.
    fn from_wire(value: &str) -> Option<Self>;

    /// The options as wire [`Options`].
    fn options() -> Options {
        if Self::TITLED {
            Options::Titled(
                Self::OPTIONS
                    .iter()
                    .map(|o| EnumOption {
                        value: o.value.to_owned(),
                        title: o.title.unwrap_or(o.value).to_owned(),
                        description: o.description.map(str::to_owned),
                        meta: None,
                    })
                    .collect(),
            )
        } else {
            Options::Untitled(Self::OPTIONS.iter().map(|o| o.value.to_owned()).collect())
        }
    }
}

/// One option of a [`Choice`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChoiceOption {
    /// The wire value.
    pub value: &'static str,
    /// The label, if any (defaults to the value when options are titled).
    pub title: Option<&'static str>,
    /// Help text, if any.
    pub description: Option<&'static str>,
}

fn choice_from_value<C: Choice>(value: &Value) -> Result<C, FieldErrorKind> {
    match value {
        Value::String(s) => C::from_wire(s).ok_or_else(|| FieldErrorKind::NotAnOption {
            value: s.clone(),
            allowed: C::OPTIONS.iter().map(|o| o.value.to_owned()).collect(),
        }),
        other => Err(FieldErrorKind::WrongType {
            expected: "a string",
            found: crate::JsonKind::of(other),
        }),
    }
}

impl<C: Choice> FormValue for C {
    const RUST_TYPE: &'static str = "enum";
    fn property() -> PropertySchema {
        StringSchema::select(C::options()).into()
    }
    fn from_value(value: &Value) -> Result<Self, FieldErrorKind> {
        choice_from_value(value)
    }
    fn to_value(&self) -> Value {
        Value::String(self.as_wire().to_owned())
    }
}

fn multi_property<C: Choice>() -> PropertySchema {
    MultiSelectSchema::new(C::options()).into()
}

fn multi_from_value<C: Choice, B: FromIterator<C>>(value: &Value) -> Result<B, FieldErrorKind> {
    match value {
        Value::Array(items) => items.iter().map(choice_from_value::<C>).collect(),
        other => Err(FieldErrorKind::WrongType {
            expected: "an array of strings",
            found: crate::JsonKind::of(other),
        }),
    }
}

fn multi_to_value<'a, C: Choice>(items: impl Iterator<Item = &'a C>) -> Value {
    Value::Array(items.map(|c| Value::String(c.as_wire().to_owned())).collect())
}

impl<C: Choice> FormValue for Vec<C> {
    const RUST_TYPE: &'static str = "Vec";
    fn property() -> PropertySchema {
        multi_property::<C>()
    }
    fn from_value(value: &Value) -> Result<Self, FieldErrorKind> {
        multi_from_value(value)
    }
    fn to_value(&self) -> Value {
        multi_to_value(self.iter())
    }
}

impl<C: Choice + Ord> FormValue for BTreeSet<C> {
    const RUST_TYPE: &'static str = "BTreeSet";
    fn property() -> PropertySchema {
        multi_property::<C>()
    }
    fn from_value(value: &Value) -> Result<Self, FieldErrorKind> {
        multi_from_value(value)
    }
    fn to_value(&self) -> Value {
        multi_to_value(self.iter())
    }
}

impl<C: Choice + Hash + Eq, S: BuildHasher + Default> FormValue for HashSet<C, S> {
    const RUST_TYPE: &'static str = "HashSet";
    fn property() -> PropertySchema {
        multi_property::<C>()
    }
    fn from_value(value: &Value) -> Result<Self, FieldErrorKind> {
        multi_from_value(value)
    }
    fn to_value(&self) -> Value {
        // Submit in option order so the content is deterministic.
        multi_to_value(
            C::OPTIONS
                .iter()
                .filter_map(|o| C::from_wire(o.value))
                .collect::<Vec<C>>()
                .iter()
                .filter(|c| self.contains(c)),
        )
    }
}
