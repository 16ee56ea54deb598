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
use crate::format::{Format, LiteralRule};
use crate::rules;
use crate::schema::{
    BooleanSchema, ElicitationSchema, EnumOption, IntegerSchema, MultiSelectSchema, NumberSchema,
    Options, PropertySchema, StringSchema,
};
use crate::{Content, ContentError, FieldError};

/// A type that is one flat form value: a string, a boolean, a number, a
/// single-select enum, or a multi-select of such an enum.
///
/// Implemented for `String`, `char`, `bool`, every integer type, the
/// `NonZero` integers, `f32`, `f64`, enums that `#[derive(Elicit)]`,
/// `Vec`/`BTreeSet`/`HashSet` of such enums, newtypes that derive it with
/// `transparent` or `try_from`/`into`, and, behind features, the date, time,
/// URL and UUID types of `chrono`, `time`, `jiff`, `url` and `uuid` (see the
/// README's type table).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a form field: ACP forms are flat",
    label = "not a flat form field type",
    note = "a form field is one of: `String`, `char`, `bool`, an integer type, a `NonZero` integer, `f32`/`f64`, a unit-only enum with `#[derive(Elicit)]` (single-select), a `Vec`/`BTreeSet`/`HashSet` of such an enum (multi-select), a newtype with `#[derive(Elicit)]` and `#[elicit(transparent)]` or `#[elicit(try_from = \"..\", into = \"..\")]`, or an `Option` of any of these (not `Option<Option<T>>`)",
    note = "with elicit-core's features: `chrono` (`NaiveDate`, `DateTime<Utc>`, `DateTime<FixedOffset>`), `time` (`Date`, `OffsetDateTime`), `jiff` (`civil::Date`, `Timestamp`), `url` (`Url`), `uuid` (`Uuid`)",
    note = "a struct that derives `Elicit` is merged into this form with `#[elicit(flatten)]` on the field; references and smart pointers (`&str`, `Box<T>`, `Arc<T>`) are not fields: use the owned type, e.g. `String`; for a list of free text, ask for one `String` or elicit again"
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

    /// [`from_value`](Self::from_value) for a value the caller owns: a
    /// type that holds a string moves it instead of copying it. Same
    /// result.
    fn from_value_owned(value: Value) -> Result<Self, FieldErrorKind> {
        Self::from_value(&value)
    }

    /// The value as a client would submit it.
    fn to_value(&self) -> Value;

    #[doc(hidden)]
    /// Derived code: checks a present value against `property` (this
    /// type's [`property`](Self::property) with the field's attributes
    /// applied) with the engine, and converts it. A type whose conversion
    /// already settles a rule overrides this to do that work once; the
    /// verdict and the error stay the engine's.
    #[inline]
    fn __check(property: &PropertySchema, value: &Value) -> Result<Self, FieldErrorKind> {
        rules::check_value(property, value)?;
        Self::from_value(value)
    }

    #[doc(hidden)]
    /// [`__check`](Self::__check) for an owned value: a type that holds a
    /// string moves it.
    #[inline]
    fn __check_owned(property: &PropertySchema, value: Value) -> Result<Self, FieldErrorKind> {
        Self::__check(property, &value)
    }

    /// Whether the type refuses 0 although its property, with no `range`,
    /// admits it: the signed `NonZero` integers (the restricted schema cannot
    /// say "not 0" on a range that spans it). `#[derive(Elicit)]` then
    /// requires a `range` that leaves 0 out, so the schema stays exact.
    const REFUSES_ZERO: bool = false;
}

/// The compile error of a field whose type [refuses 0](FormValue::REFUSES_ZERO)
/// without a `range` that leaves 0 out; one constant, not a copy per field.
pub const REFUSES_ZERO_MESSAGE: &str = "this field's type (a signed `NonZero` integer) refuses \
     0, and a form schema cannot leave one value out of a range that spans it: add \
     `range(min = 1)` for positive values or `range(max = -1)` for negative ones (or use a plain \
     integer type and check for 0 yourself)";

/// A type a form field can have: a [`FormValue`] (required), or an `Option`
/// of one (optional: absent or `null` is `None`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a form field: ACP forms are flat",
    label = "not a flat form field type",
    note = "a form field is one of: `String`, `char`, `bool`, an integer type, a `NonZero` integer, `f32`/`f64`, a unit-only enum with `#[derive(Elicit)]` (single-select), a `Vec`/`BTreeSet`/`HashSet` of such an enum (multi-select), a newtype with `#[derive(Elicit)]` and `#[elicit(transparent)]` or `#[elicit(try_from = \"..\", into = \"..\")]`, or an `Option` of any of these (not `Option<Option<T>>`)",
    note = "with elicit-core's features: `chrono` (`NaiveDate`, `DateTime<Utc>`, `DateTime<FixedOffset>`), `time` (`Date`, `OffsetDateTime`), `jiff` (`civil::Date`, `Timestamp`), `url` (`Url`), `uuid` (`Uuid`)",
    note = "a struct that derives `Elicit` is merged into this form with `#[elicit(flatten)]` on the field; references and smart pointers (`&str`, `Box<T>`, `Arc<T>`) are not fields: use the owned type, e.g. `String`; for a list of free text, ask for one `String` or elicit again"
)]
pub trait FormField: Sized {
    /// The value type inside (`T` for both `T` and `Option<T>`); a field's
    /// `default = ..` is of this type.
    type Value: FormValue;

    /// Whether the field must be answered (`false` for `Option`).
    const REQUIRED: bool;

    /// The field from a present value (already checked by the engine).
    fn from_present(value: &Value) -> Result<Self, FieldErrorKind>;

    /// [`from_present`](Self::from_present) for an owned value: strings
    /// are moved, not copied.
    fn from_present_owned(value: Value) -> Result<Self, FieldErrorKind> {
        Self::from_present(&value)
    }

    #[doc(hidden)]
    /// Derived code: a present value checked against `property` by the
    /// engine and converted ([`FormValue::__check`]).
    fn __check_present(property: &PropertySchema, value: &Value) -> Result<Self, FieldErrorKind> {
        rules::check_value(property, value)?;
        Self::from_present(value)
    }

    #[doc(hidden)]
    /// [`__check_present`](Self::__check_present) for an owned value.
    fn __check_present_owned(
        property: &PropertySchema,
        value: Value,
    ) -> Result<Self, FieldErrorKind> {
        rules::check_value(property, &value)?;
        Self::from_present_owned(value)
    }

    /// The field when its key is absent or `null`: `Some(None)` for an
    /// `Option`, `None` (missing) otherwise.
    fn absent() -> Option<Self>;

    /// The field from its default value.
    fn from_default(value: Self::Value) -> Self;

    /// The value to submit, or `None` to leave the key out.
    fn to_entry(&self) -> Option<Value>;

    #[doc(hidden)]
    /// Derived code: appends this field to a schema being built.
    fn __push(
        schema: &mut crate::ElicitationSchema,
        name: &'static str,
        attrs: &Attrs,
        default: Option<fn() -> Self::Value>,
    ) {
        let default = default.map(|f| f());
        let property = property::<Self>(attrs, default.as_ref());
        if is_required::<Self>(default.is_some()) {
            schema.required.push(name.to_owned());
        }
        schema.properties.push(name.to_owned(), property);
    }

    #[doc(hidden)]
    /// Derived code: takes, checks and converts this field from its content
    /// entry (`None`: absent), borrowed or owned.
    fn __take<E: Entry>(
        entry: Option<E>,
        schema: &crate::ElicitationSchema,
        index: &mut usize,
        default: Option<fn() -> Self::Value>,
        errors: &mut Vec<crate::FieldError>,
    ) -> Option<Self> {
        take::<Self, E>(entry, schema, index, default, errors)
    }

    #[doc(hidden)]
    /// Derived code: writes this field into content.
    fn __put(&self, content: &mut crate::Content, name: &'static str) {
        if let Some(value) = self.to_entry() {
            content.insert(name.to_owned(), value);
        }
    }
}

impl<T: FormValue> FormField for T {
    type Value = T;
    const REQUIRED: bool = true;
    fn from_present(value: &Value) -> Result<Self, FieldErrorKind> {
        T::from_value(value)
    }
    fn from_present_owned(value: Value) -> Result<Self, FieldErrorKind> {
        T::from_value_owned(value)
    }
    #[inline]
    fn __check_present(property: &PropertySchema, value: &Value) -> Result<Self, FieldErrorKind> {
        T::__check(property, value)
    }
    #[inline]
    fn __check_present_owned(
        property: &PropertySchema,
        value: Value,
    ) -> Result<Self, FieldErrorKind> {
        T::__check_owned(property, value)
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
impl<T: FormValue> FormField for Option<T> {
    type Value = T;
    const REQUIRED: bool = false;
    fn from_present(value: &Value) -> Result<Self, FieldErrorKind> {
        T::from_value(value).map(Some)
    }
    fn from_present_owned(value: Value) -> Result<Self, FieldErrorKind> {
        T::from_value_owned(value).map(Some)
    }
    #[inline]
    fn __check_present(property: &PropertySchema, value: &Value) -> Result<Self, FieldErrorKind> {
        T::__check(property, value).map(Some)
    }
    #[inline]
    fn __check_present_owned(
        property: &PropertySchema,
        value: Value,
    ) -> Result<Self, FieldErrorKind> {
        T::__check_owned(property, value).map(Some)
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
    fn from_value_owned(value: Value) -> Result<Self, FieldErrorKind> {
        match value {
            Value::String(s) => Ok(s),
            other => Self::from_value(&other),
        }
    }
    #[inline]
    fn __check_owned(property: &PropertySchema, value: Value) -> Result<Self, FieldErrorKind> {
        rules::check_value(property, &value)?;
        Self::from_value_owned(value)
    }
    fn to_value(&self) -> Value {
        Value::String(self.clone())
    }
}

/// One Unicode scalar value: a string of exactly one character, as JSON
/// Schema counts them (`minLength` and `maxLength` 1).
impl FormValue for char {
    const RUST_TYPE: &'static str = "char";
    fn property() -> PropertySchema {
        StringSchema::new().length(Some(1), Some(1)).into()
    }
    fn from_value(value: &Value) -> Result<Self, FieldErrorKind> {
        let text = <String as FormValue>::from_value(value)?;
        let mut chars = text.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Ok(c),
            (None, _) => Err(FieldErrorKind::TooShort {
                min_length: 1,
                length: 0,
            }),
            (Some(_), Some(_)) => Err(FieldErrorKind::TooLong {
                max_length: 1,
                length: text.chars().count(),
            }),
        }
    }
    fn to_value(&self) -> Value {
        Value::String(self.to_string())
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

macro_rules! integer {
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
            // The engine's integer check returns the number it read, so it
            // is read once.
            #[inline]
            fn __check(property: &PropertySchema, value: &Value) -> Result<Self, FieldErrorKind> {
                let PropertySchema::Integer(s) = property else {
                    rules::check_value(property, value)?;
                    return Self::from_value(value);
                };
                let n = rules::check_integer(s, value)?;
                <$t>::try_from(n).map_err(|_| FieldErrorKind::OutOfTypeRange {
                    rust_type: stringify!($t),
                    value: Num::Int(n),
                })
            }
        }
    )*};
}

/// `n` clamped to the wire's `i64`.
pub(crate) const fn clamp_i64(n: i128) -> i64 {
    if n > i64::MAX as i128 {
        i64::MAX
    } else if n < i64::MIN as i128 {
        i64::MIN
    } else {
        n as i64
    }
}

integer!(i8, i16, i32, i64, u8, u16, u32, u64, isize, usize);

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
        // Rounds to the nearest f32; only what would round to infinity is
        // out of range (so `3.4028235e38`, f32::MAX as JSON writes it, fits).
        #[allow(clippy::cast_possible_truncation)]
        let y = x as f32;
        if y.is_infinite() {
            return Err(FieldErrorKind::OutOfTypeRange {
                rust_type: "f32",
                value: Num::Float(x),
            });
        }
        Ok(y)
    }
    fn to_value(&self) -> Value {
        Value::from(f64::from(*self))
    }
}

/// A unit-only enum used as a single-select. `#[derive(Elicit)]` on such an
/// enum implements it and [`FormValue`] (with [`choice_property`],
/// [`choice_from_value`] and [`choice_to_value`]).
///
/// Each variant is an option with a wire value and, optionally, a title and
/// a description. With no title on any variant the property is written as
/// `enum: [..]`; otherwise as `oneOf: [{const, title, description?}]`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a single-select enum, so a list of it cannot be a multi-select",
    label = "not a unit-only enum that derives `Elicit`",
    note = "a multi-select is a `Vec`/`BTreeSet`/`HashSet` of a unit-only enum with `#[derive(Elicit)]`; for free text, ask for one `String` (e.g. comma-separated) or elicit again"
)]
pub trait Choice: FormValue + 'static {
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

/// Reads a [`Choice`] from a submitted value.
pub fn choice_from_value<C: Choice>(value: &Value) -> Result<C, FieldErrorKind> {
    match value {
        Value::String(s) => C::from_wire(s).ok_or_else(|| FieldErrorKind::NotAnOption {
            value: crate::error::excerpt(s, crate::limits::MAX_ECHOED_CHARS),
            allowed: C::OPTIONS.iter().map(|o| o.value.to_owned()).collect(),
        }),
        other => Err(FieldErrorKind::WrongType {
            expected: "a string",
            found: crate::JsonKind::of(other),
        }),
    }
}

/// Derived [`FormValue::__check`] of a [`Choice`]: the conversion, a
/// `match` on the option values, is the membership check, so a value that
/// converts is one of the options the property lists (a derived property's
/// options are exactly [`Choice::OPTIONS`]). Anything else goes to the
/// engine, whose error is reported.
#[doc(hidden)]
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
    choice_from_value(value)
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

/// [`FormValue::__check`] of a multi-select: every item converts (which is
/// its membership check, as for [`choice_check`]), then the engine checks
/// the selection (duplicates, `minItems`, `maxItems`). Anything that does
/// not convert goes to the whole engine check, whose error is reported.
fn multi_check<C: Choice, B: FromIterator<C>>(
    property: &PropertySchema,
    value: &Value,
) -> Result<B, FieldErrorKind> {
    // More items than options holds a duplicate or a stranger: the engine
    // reports it without converting (and allocating for) every item.
    if let (PropertySchema::MultiSelect(s), Value::Array(items)) = (property, value)
        && items.len() <= C::OPTIONS.len()
        && let Some(selection) = items
            .iter()
            .map(|item| item.as_str().and_then(C::from_wire))
            .collect::<Option<B>>()
    {
        rules::check_selection(s, items)?;
        return Ok(selection);
    }
    rules::check_value(property, value)?;
    multi_from_value(value)
}

fn multi_to_value<'a, C: Choice>(items: impl Iterator<Item = &'a C>) -> Value {
    Value::Array(
        items
            .map(|c| Value::String(c.as_wire().to_owned()))
            .collect(),
    )
}

impl<C: Choice> FormValue for Vec<C> {
    const RUST_TYPE: &'static str = "Vec";
    fn property() -> PropertySchema {
        multi_property::<C>()
    }
    fn from_value(value: &Value) -> Result<Self, FieldErrorKind> {
        multi_from_value(value)
    }
    fn __check(property: &PropertySchema, value: &Value) -> Result<Self, FieldErrorKind> {
        multi_check::<C, Self>(property, value)
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
    fn __check(property: &PropertySchema, value: &Value) -> Result<Self, FieldErrorKind> {
        multi_check::<C, Self>(property, value)
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
    fn __check(property: &PropertySchema, value: &Value) -> Result<Self, FieldErrorKind> {
        multi_check::<C, Self>(property, value)
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

/// Field types `range(..)` applies to: integers and numbers (and `Option`s
/// of them). The derive checks literal bounds against `MIN`/`MAX` at compile
/// time.
#[diagnostic::on_unimplemented(
    message = "`range` applies to integer and number fields, not to `{Self}`",
    label = "`range` used on this field",
    note = "for a `String`, bound its length with `length(min = .., max = ..)`; for a multi-select, `length` bounds the number of selected options"
)]
pub trait RangeField: FormField {
    /// The smallest value the field can take on the wire (`i128::MIN` for numbers).
    const MIN: i128;
    /// The largest value the field can take on the wire (`i128::MAX` for numbers).
    const MAX: i128;
    /// Whether the field is an integer (bounds must then be integers).
    const INTEGER: bool;
}

/// Field types `length(..)` applies to: strings (characters) and
/// multi-selects (selected options), and `Option`s of them.
#[diagnostic::on_unimplemented(
    message = "`length` applies to `String` fields (characters) and multi-selects (selected options), not to `{Self}`",
    label = "`length` used on this field",
    note = "for integers and numbers, use `range(min = .., max = ..)`"
)]
pub trait LengthField: FormField {
    /// How many options a multi-select has (`u64::MAX` for a string), so
    /// `length(min = ..)` above it is caught at compile time.
    const OPTIONS: u64;
}

/// Field types the text attributes (`pattern`, `email`, `uri`, `date`,
/// `date_time`, `format`) apply to: `String` and `Option<String>`.
#[diagnostic::on_unimplemented(
    message = "`pattern`, `email`, `uri`, `date`, `date_time` and `format` apply to `String` fields only, not to `{Self}`",
    label = "text attribute used on this field",
    note = "a single-select enum's options are already fixed; numbers are bounded with `range`"
)]
pub trait TextField: FormField {
    /// Named by derived code to require this trait at compile time.
    const TEXT: () = ();
}

impl TextField for String {}
impl TextField for Option<String> {}

/// Field types a string literal `default = ".."` fills: `String`, and the
/// types read from text (dates, times, URLs, UUIDs, and newtypes over them).
/// The derive checks the literal against [`LITERAL`](Self::LITERAL) at
/// compile time, then fills the field with [`from_literal`](Self::from_literal).
#[diagnostic::on_unimplemented(
    message = "a string default (`default = \"..\"`) does not fit a `{Self}` field",
    label = "string default on this field",
    note = "a string default fills a field read from text: `String`, the date, time, URL and UUID types, or a newtype over one; for any other type write a value of that type, e.g. `default = 3` or `default = Strategy::Balanced`"
)]
pub trait TextDefault: FormValue {
    /// The rule a literal default must pass, checked at compile time.
    const LITERAL: LiteralRule;

    /// The value of a literal default that passed [`LITERAL`](Self::LITERAL).
    ///
    /// # Panics
    ///
    /// If the type's own parser refuses what the compile-time rule accepted
    /// (a few instants at the very ends of a type's range, a user type's
    /// `TryFrom`): the message names the type and its reason. The first
    /// `schema()` of the form builds every default, so any test of the form
    /// finds it.
    fn from_literal(text: &'static str) -> Self {
        match Self::from_value(&Value::String(text.to_owned())) {
            Ok(value) => value,
            Err(kind) => panic!(
                "the default \"{text}\" {kind}: fix the default (a `{}` field)",
                Self::RUST_TYPE
            ),
        }
    }
}

impl TextDefault for String {
    const LITERAL: LiteralRule = LiteralRule::Any;
    fn from_literal(text: &'static str) -> Self {
        text.to_owned()
    }
}

/// A newtype `#[derive(Elicit)]` with `transparent` or `try_from`/`from`
/// implements this: it is one form value through its inner type, and a
/// string default fills it when one fills the inner type.
#[doc(hidden)]
pub trait Wrapper: FormValue {
    /// The type on the wire side: the newtype's field, or the `try_from`
    /// type (a `FormValue`; not bound here, so a wrong one is reported once,
    /// where the derive reads it).
    type Inner;
    /// The rule of the newtype's own format attribute, if it has one (it
    /// comes before the inner type's rule for literal defaults).
    const FORMAT: Option<LiteralRule> = None;
}

#[diagnostic::do_not_recommend]
impl<T: Wrapper> TextDefault for T
where
    T::Inner: TextDefault,
{
    const LITERAL: LiteralRule = match T::FORMAT {
        Some(rule) => rule,
        None => <T::Inner as TextDefault>::LITERAL,
    };
}

impl LengthField for String {
    const OPTIONS: u64 = u64::MAX;
}

impl<C: Choice> LengthField for Vec<C> {
    const OPTIONS: u64 = C::OPTIONS.len() as u64;
}

impl<C: Choice + Ord> LengthField for BTreeSet<C> {
    const OPTIONS: u64 = C::OPTIONS.len() as u64;
}

impl<C: Choice + Hash + Eq, S: BuildHasher + Default> LengthField for HashSet<C, S> {
    const OPTIONS: u64 = C::OPTIONS.len() as u64;
}

impl<T: LengthField + FormValue> LengthField for Option<T> {
    const OPTIONS: u64 = T::OPTIONS;
}

macro_rules! range_field {
    ($($t:ty),*) => {$(
        impl RangeField for $t {
            const MIN: i128 = clamp_i64(<$t>::MIN as i128) as i128;
            const MAX: i128 = clamp_i64(<$t>::MAX as i128) as i128;
            const INTEGER: bool = true;
        }
    )*};
}

range_field!(i8, i16, i32, i64, u8, u16, u32, u64, isize, usize);

impl RangeField for f32 {
    const MIN: i128 = i128::MIN;
    const MAX: i128 = i128::MAX;
    const INTEGER: bool = false;
}

impl RangeField for f64 {
    const MIN: i128 = i128::MIN;
    const MAX: i128 = i128::MAX;
    const INTEGER: bool = false;
}

impl<T: RangeField + FormValue> RangeField for Option<T> {
    const MIN: i128 = T::MIN;
    const MAX: i128 = T::MAX;
    const INTEGER: bool = T::INTEGER;
}

// ---------------------------------------------------------------------------
// What derived code calls (through `__private`): thin glue, no rule. Values
// are checked by [`crate::rules`], types converted by [`FormField`].

/// A field's schema attributes, as written in `#[elicit(..)]`.
#[doc(hidden)]
#[derive(Default)]
pub struct Attrs {
    /// `title = ".."`.
    pub title: Option<&'static str>,
    /// `description = ".."` or the doc comment.
    pub description: Option<&'static str>,
    /// `range(min = ..)`.
    pub min: Option<Num>,
    /// `range(max = ..)`.
    pub max: Option<Num>,
    /// `length(min = ..)`.
    pub min_length: Option<u64>,
    /// `length(max = ..)`.
    pub max_length: Option<u64>,
    /// `pattern = ".."`.
    pub pattern: Option<&'static str>,
    /// `email`, `uri`, `date`, `date_time` or `format = ".."`.
    pub format: Option<Format>,
}

/// Whether a field of type `T` is listed in `required`.
const fn is_required<T: FormField>(has_default: bool) -> bool {
    T::REQUIRED && !has_default
}

/// The property schema of a field of type `T` with its attributes applied.
fn property<T: FormField>(attrs: &Attrs, default: Option<&T::Value>) -> PropertySchema {
    let mut property = <T::Value as FormValue>::property();
    apply(&mut property, attrs);
    if let Some(default) = default {
        set_default(&mut property, FormValue::to_value(default));
    }
    property
}

fn apply(property: &mut PropertySchema, attrs: &Attrs) {
    if let Some(title) = attrs.title {
        property.set_title(Some(title.to_owned()));
    }
    if let Some(description) = attrs.description {
        property.set_description(Some(description.to_owned()));
    }
    match property {
        PropertySchema::Integer(s) => {
            // Intersect with the Rust type's range; never widen it.
            if let Some(min) = attrs.min.and_then(int) {
                s.minimum = Some(s.minimum.map_or(min, |m| m.max(min)));
            }
            if let Some(max) = attrs.max.and_then(int) {
                s.maximum = Some(s.maximum.map_or(max, |m| m.min(max)));
            }
        }
        PropertySchema::Number(s) => {
            s.minimum = attrs.min.map(float).or(s.minimum);
            s.maximum = attrs.max.map(float).or(s.maximum);
        }
        PropertySchema::String(s) => {
            s.min_length = attrs.min_length.map(saturate_u32).or(s.min_length);
            s.max_length = attrs.max_length.map(saturate_u32).or(s.max_length);
            if let Some(pattern) = attrs.pattern {
                s.pattern = Some(pattern.into());
            }
            if let Some(format) = &attrs.format {
                s.format = Some(format.clone());
            }
        }
        PropertySchema::MultiSelect(s) => {
            s.min_items = attrs.min_length.or(s.min_items);
            s.max_items = attrs.max_length.or(s.max_items);
        }
        PropertySchema::Boolean(_) | PropertySchema::Other(_) => {}
    }
}

fn int(n: Num) -> Option<i64> {
    match n {
        Num::Int(i) => Some(i64::try_from(i).unwrap_or(if i < 0 { i64::MIN } else { i64::MAX })),
        Num::Float(_) => None,
    }
}

fn float(n: Num) -> f64 {
    match n {
        #[allow(clippy::cast_precision_loss)]
        Num::Int(i) => i as f64,
        Num::Float(x) => x,
    }
}

fn saturate_u32(n: u64) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

fn set_default(property: &mut PropertySchema, value: Value) {
    match (property, value) {
        (PropertySchema::String(s), Value::String(d)) => s.default = Some(d),
        (PropertySchema::Integer(s), Value::Number(n)) => s.default = n.as_i64(),
        (PropertySchema::Number(s), Value::Number(n)) => s.default = n.as_f64(),
        (PropertySchema::Boolean(s), Value::Bool(b)) => s.default = Some(b),
        (PropertySchema::MultiSelect(s), Value::Array(items)) => {
            s.default = Some(
                items
                    .into_iter()
                    .filter_map(|v| match v {
                        Value::String(s) => Some(s),
                        _ => None,
                    })
                    .collect(),
            );
        }
        _ => {}
    }
}

/// Takes, checks and converts the field at position `*index` of `schema`,
/// whose content entry is `entry` (`None`: the key is absent). Generated code
/// finds every field's entry in one pass over the content (see [`slot`]).
///
/// Absent or `null`: the default if there is one, `None` for an `Option`, a
/// `Missing` error otherwise. Present: the engine checks it against the
/// property, then the type converts it. Errors go to `errors`.
fn take<T: FormField, E: Entry>(
    entry: Option<E>,
    schema: &ElicitationSchema,
    index: &mut usize,
    default: Option<fn() -> T::Value>,
    errors: &mut Vec<FieldError>,
) -> Option<T> {
    let Some((name, property)) = schema.properties.get_index(*index) else {
        // Generated code keeps the index within the schema it built.
        return None;
    };
    *index += 1;
    // Absent and `null` are the same (as in `rules::check_slot`).
    let result = match entry {
        Some(entry) if !entry.get().is_null() => entry.convert::<T>(property),
        _ => match default {
            Some(default) => Ok(T::from_default(default())),
            None => T::absent().ok_or(FieldErrorKind::Missing),
        },
    };
    match result {
        Ok(value) => Some(value),
        Err(kind) => {
            errors.push(FieldError::new(name, kind));
            None
        }
    }
}

/// One pass over `content`: each entry whose key `field` maps to the
/// position of one of the form's own fields goes into that slot. This is
/// what `from_content` does instead of one map lookup per field (hashing
/// every name again); `field` is the derive's `match` on the wire names.
#[inline]
fn slot<const N: usize>(
    content: &Content,
    field: impl Fn(&str) -> Option<usize>,
) -> [Option<&Value>; N] {
    let mut slots = [None; N];
    for (key, value) in content {
        if let Some(slot) = field(key).and_then(|i| slots.get_mut(i)) {
            *slot = Some(value);
        }
    }
    slots
}

/// A content entry, borrowed (`from_content`) or owned
/// (`from_content_owned`): the engine reads it, the field type converts it.
#[doc(hidden)]
pub trait Entry {
    /// The value.
    fn get(&self) -> &Value;
    /// The value checked against `property` by the engine and converted to
    /// the field's type.
    fn convert<T: FormField>(self, property: &PropertySchema) -> Result<T, FieldErrorKind>;
}

/// Content, borrowed or owned, as derived code reads it: sorted into one
/// slot per field in one pass.
#[doc(hidden)]
pub trait Source: Sized {
    /// What a slot holds.
    type Entry: Entry;
    /// One pass over the content; `field` maps a key to its field's slot.
    fn slots<const N: usize>(
        self,
        field: impl Fn(&str) -> Option<usize>,
    ) -> [Option<Self::Entry>; N];
    /// Runs `f` on the content as a borrowed map.
    fn with_content<R>(self, f: impl FnOnce(&Content) -> R) -> R;
}

impl<'c> Source for &'c Content {
    type Entry = &'c Value;
    #[inline]
    fn slots<const N: usize>(
        self,
        field: impl Fn(&str) -> Option<usize>,
    ) -> [Option<&'c Value>; N] {
        slot(self, field)
    }
    fn with_content<R>(self, f: impl FnOnce(&Content) -> R) -> R {
        f(self)
    }
}

impl Source for Content {
    type Entry = Value;
    #[inline]
    fn slots<const N: usize>(self, field: impl Fn(&str) -> Option<usize>) -> [Option<Value>; N] {
        slot_owned(self, field)
    }
    fn with_content<R>(self, f: impl FnOnce(&Content) -> R) -> R {
        f(&self)
    }
}

impl Entry for &Value {
    #[inline]
    fn get(&self) -> &Value {
        self
    }
    #[inline]
    fn convert<T: FormField>(self, property: &PropertySchema) -> Result<T, FieldErrorKind> {
        T::__check_present(property, self)
    }
}

impl Entry for Value {
    #[inline]
    fn get(&self) -> &Value {
        self
    }
    #[inline]
    fn convert<T: FormField>(self, property: &PropertySchema) -> Result<T, FieldErrorKind> {
        T::__check_present_owned(property, self)
    }
}

/// [`slot`] for owned content: each entry is moved into its slot; entries
/// of no field are dropped.
#[inline]
fn slot_owned<const N: usize>(
    content: Content,
    field: impl Fn(&str) -> Option<usize>,
) -> [Option<Value>; N] {
    let mut slots = [const { None }; N];
    for (key, value) in content {
        if let Some(slot) = field(&key).and_then(|i| slots.get_mut(i)) {
            *slot = Some(value);
        }
    }
    slots
}

/// Finishes `from_content`: the value if no field failed.
#[doc(hidden)]
pub fn finish<T>(value: Option<T>, errors: Vec<FieldError>) -> Result<T, ContentError> {
    match value {
        Some(value) if errors.is_empty() => Ok(value),
        _ => Err(ContentError::new(errors)),
    }
}

/// Derived `from_content`: collects every field, then (with
/// `deny_unknown_fields`) every unknown key.
#[doc(hidden)]
pub fn from_content<T: crate::Elicit>(content: &Content) -> Result<T, ContentError> {
    let mut errors = Vec::new();
    let value = T::__collect(content, &mut errors);
    T::__deny_unknown(content, &mut errors);
    finish(value, errors)
}

/// Derived `to_content`: every field written in order.
#[doc(hidden)]
pub fn to_content<T: crate::Elicit>(value: &T) -> Content {
    let mut content = Content::new();
    value.__write(&mut content);
    content
}

/// The schema of a derived form that is not generic, built on first use.
#[doc(hidden)]
pub fn cached_schema(
    cell: &'static std::sync::OnceLock<ElicitationSchema>,
    build: fn() -> ElicitationSchema,
) -> &'static ElicitationSchema {
    cell.get_or_init(build)
}

/// The schema JSON of a derived form that is not generic, built and
/// serialized on first use.
#[doc(hidden)]
pub fn cached_json(
    cell: &'static std::sync::OnceLock<String>,
    build: fn() -> ElicitationSchema,
) -> &'static str {
    cell.get_or_init(|| crate::schema::to_json(&build()))
}

/// Derived code (`transparent`): the property of the newtype's inner type
/// with the inner field's attributes applied.
#[doc(hidden)]
pub fn transparent_property(mut property: PropertySchema, attrs: &Attrs) -> PropertySchema {
    apply(&mut property, attrs);
    property
}

/// Derived code (`try_from = "U"`): converts a `U` (read from a value the
/// engine checked against `U`'s property) with `T`'s `TryFrom<U>`; its
/// refusal is [`FieldErrorKind::Refused`] with the error's `Display`.
#[doc(hidden)]
pub fn try_convert<U, T: TryFrom<U>>(inner: U, rust_type: &'static str) -> Result<T, FieldErrorKind>
where
    T::Error: std::fmt::Display,
{
    T::try_from(inner).map_err(|e| crate::error::refused(rust_type, e))
}
