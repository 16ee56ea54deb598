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
use crate::format::LiteralRule;
use crate::rules;
use crate::schema::{
    BooleanSchema, EnumOption, IntegerSchema, MultiSelectSchema, NumberSchema, Options,
    PropertySchema, StringSchema,
};

/// Puts the "cannot be a form field" diagnostic on a trait: the traits a
/// field's type must implement (`FormValue`, `FormField`, and the derive's
/// `__private::FieldGlue`) say the same thing, written once here.
macro_rules! not_a_form_field {
    ($item:item) => {
        #[diagnostic::on_unimplemented(
            message = "`{Self}` cannot be a form field: ACP forms are flat",
            label = "not a flat form field type",
            note = "a form field is one of: `String`, `char`, `bool`, an integer type, a `NonZero` integer, `f32`/`f64`, a unit-only enum with `#[derive(Elicit)]` (single-select), a `Vec`/`BTreeSet`/`HashSet` of such an enum (multi-select), a newtype with `#[derive(Elicit)]` and `#[elicit(transparent)]` or `#[elicit(try_from = \"..\", into = \"..\")]`, or an `Option` of any of these (not `Option<Option<T>>`)",
            note = "with elicit-core's features: `chrono` (`NaiveDate`, `DateTime<Utc>`, `DateTime<FixedOffset>`), `time` (`Date`, `OffsetDateTime`), `jiff` (`civil::Date`, `Timestamp`), `url` (`Url`), `uuid` (`Uuid`)",
            note = "a struct that derives `Elicit` is merged into this form with `#[elicit(flatten)]` on the field; references and smart pointers (`&str`, `Box<T>`, `Arc<T>`) are not fields: use the owned type, e.g. `String`; for a list of free text, ask for one `String` or elicit again; a secret (`SecretString`) is a `#[secret]` field of a sensitive form (`#[elicit(sensitive)]`)"
        )]
        $item
    };
}
pub(crate) use not_a_form_field;

not_a_form_field! {
/// A type that is one flat form value: a string, a boolean, a number, a
/// single-select enum, or a multi-select of such an enum.
///
/// Implemented for `String`, `char`, `bool`, every integer type, the
/// `NonZero` integers, `f32`, `f64`, enums that `#[derive(Elicit)]`,
/// `Vec`/`BTreeSet`/`HashSet` of such enums, newtypes that derive it with
/// `transparent` or `try_from`/`into`, and, behind features, the date, time,
/// URL and UUID types of `chrono`, `time`, `jiff`, `url` and `uuid` (see
/// [`reference::types`](crate::reference::types)).
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

    /// Checks a present value against `property` (this type's
    /// [`property`](Self::property) with a field's attributes applied) with
    /// the engine's rules, then converts it: what a
    /// derived form does with each answer.
    ///
    /// A type whose conversion already settles a rule may override it to do
    /// that work once (the integers read the number once; a single-select's
    /// `match` on its options is its membership check); the verdict and the
    /// error must stay the engine's.
    #[inline]
    fn check(property: &PropertySchema, value: &Value) -> Result<Self, FieldErrorKind> {
        rules::check_value(property, value)?;
        Self::from_value(value)
    }

    /// [`check`](Self::check) for a value the caller owns: a type that holds
    /// a string moves it instead of copying it. Same result.
    #[inline]
    fn check_owned(property: &PropertySchema, value: Value) -> Result<Self, FieldErrorKind> {
        Self::check(property, &value)
    }

    /// Whether the type refuses 0 although its property, with no `range`,
    /// admits it: the signed `NonZero` integers (the restricted schema cannot
    /// say "not 0" on a range that spans it). `#[derive(Elicit)]` then
    /// requires a `range` that leaves 0 out, so the schema stays exact.
    const REFUSES_ZERO: bool = false;
}
}

not_a_form_field! {
/// A type a form field can have: a [`FormValue`] (required), or an `Option`
/// of one (optional: absent or `null` is `None`).
pub trait FormField: Sized {
    /// The value type inside (`T` for both `T` and `Option<T>`); a field's
    /// `default = ..` is of this type.
    type Value: FormValue;

    /// Whether the field must be answered (`false` for `Option`).
    const REQUIRED: bool;
}
}

impl<T: FormValue> FormField for T {
    type Value = T;
    const REQUIRED: bool = true;
}

#[diagnostic::do_not_recommend]
impl<T: FormValue> FormField for Option<T> {
    type Value = T;
    const REQUIRED: bool = false;
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
    // A string under a free-text property (what a `String` field's
    // property is) goes straight to the engine's text rules.
    #[inline]
    fn check(property: &PropertySchema, value: &Value) -> Result<Self, FieldErrorKind> {
        if let (Some(s), Value::String(text)) = (rules::free_text(property), value) {
            rules::check_text(s, text)?;
            return Ok(text.clone());
        }
        rules::check_value(property, value)?;
        Self::from_value(value)
    }
    #[inline]
    fn check_owned(property: &PropertySchema, value: Value) -> Result<Self, FieldErrorKind> {
        match (rules::free_text(property), value) {
            (Some(s), Value::String(text)) => {
                rules::check_text(s, &text)?;
                Ok(text)
            }
            (_, value) => {
                rules::check_value(property, &value)?;
                Self::from_value_owned(value)
            }
        }
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
            fn check(property: &PropertySchema, value: &Value) -> Result<Self, FieldErrorKind> {
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
            // A `match`, not `ok_or`: the error is built (and dropped) only
            // when there is no number.
            Value::Number(n) => match n.as_f64() {
                Some(x) => Ok(x),
                None => Err(FieldErrorKind::WrongType {
                    expected: "a number",
                    found: crate::JsonKind::Number,
                }),
            },
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
/// enum implements it and [`FormValue`].
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
        options_of(Self::OPTIONS, Self::TITLED)
    }
}

/// [`Choice::options`], compiled once for every choice type.
fn options_of(options: &'static [ChoiceOption], titled: bool) -> Options {
    if titled {
        Options::Titled(
            options
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
        Options::Untitled(options.iter().map(|o| o.value.to_owned()).collect())
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
pub(crate) fn read_choice<C: Choice>(value: &Value) -> Result<C, FieldErrorKind> {
    let text = choice_text(value)?;
    match C::from_wire(text) {
        Some(choice) => Ok(choice),
        None => Err(not_an_option(text, C::OPTIONS)),
    }
}

// What follows is the glue of single- and multi-selects. Every enum that
// derives `Elicit` is a type of its own, so whatever is generic over it is
// compiled again for each: the work is done in functions that are not
// generic (compiled once, in elicit-core), which see a choice type only as
// its `OPTIONS` and a `&dyn Fn` that tells whether it reads a wire value;
// what stays generic converts and collects, and nothing else.

/// The text of a submitted single-select value.
fn choice_text(value: &Value) -> Result<&str, FieldErrorKind> {
    match value {
        Value::String(s) => Ok(s),
        other => Err(FieldErrorKind::WrongType {
            expected: "a string",
            found: crate::JsonKind::of(other),
        }),
    }
}

/// The error of a string that is none of `options`.
pub(crate) fn not_an_option(text: &str, options: &'static [ChoiceOption]) -> FieldErrorKind {
    FieldErrorKind::NotAnOption {
        value: crate::error::excerpt(text, crate::limits::MAX_ECHOED_CHARS),
        allowed: options.iter().map(|o| o.value.to_owned()).collect(),
    }
}

/// A submitted multi-select's items, each a string `reads` accepts; the
/// first that is not is the error ([`read_choice`]'s).
fn multi_items<'v>(
    value: &'v Value,
    options: &'static [ChoiceOption],
    reads: &dyn Fn(&str) -> bool,
) -> Result<&'v [Value], FieldErrorKind> {
    let Value::Array(items) = value else {
        return Err(FieldErrorKind::WrongType {
            expected: "an array of strings",
            found: crate::JsonKind::of(value),
        });
    };
    for item in items {
        let text = choice_text(item)?;
        if !reads(text) {
            return Err(not_an_option(text, options));
        }
    }
    Ok(items)
}

/// The items of a multi-select answer that may be a valid selection of
/// `options` options: an array under a multi-select property, with no more
/// items than options (more holds a duplicate or a stranger, which the
/// engine reports without reading every item).
fn selection<'p, 'v>(
    property: &'p PropertySchema,
    value: &'v Value,
    options: usize,
) -> Option<(&'p MultiSelectSchema, &'v [Value])> {
    match (property, value) {
        (PropertySchema::MultiSelect(s), Value::Array(items)) if items.len() <= options => {
            Some((s, items))
        }
        _ => None,
    }
}

/// The choices of `items` that read as `C`, in order (all of them, when
/// [`multi_items`] accepted the items).
fn read_items<C: Choice>(items: &[Value]) -> Vec<C> {
    let mut choices = Vec::with_capacity(items.len());
    for item in items {
        if let Some(choice) = item.as_str().and_then(C::from_wire) {
            choices.push(choice);
        }
    }
    choices
}

/// Whether `C` reads `text`.
fn reads<C: Choice>(text: &str) -> bool {
    C::from_wire(text).is_some()
}

fn multi_property<C: Choice>() -> PropertySchema {
    MultiSelectSchema::new(C::options()).into()
}

fn multi_from_value<C: Choice>(value: &Value) -> Result<Vec<C>, FieldErrorKind> {
    multi_items(value, C::OPTIONS, &reads::<C>).map(read_items)
}

/// [`FormValue::check`] of a multi-select: every item reads (which is its
/// membership check, as for a single-select), then the engine checks the
/// selection (duplicates, `minItems`, `maxItems`). Anything else goes to
/// the whole engine check, whose error is reported, then to
/// [`multi_from_value`].
fn multi_check<C: Choice>(
    property: &PropertySchema,
    value: &Value,
) -> Result<Vec<C>, FieldErrorKind> {
    if let Some((s, items)) = selection(property, value, C::OPTIONS.len()) {
        let choices = read_items::<C>(items);
        if choices.len() == items.len() {
            rules::check_selection(s, items)?;
            return Ok(choices);
        }
    }
    rules::check_value(property, value)?;
    multi_from_value(value)
}

/// A selection as the value a client submits.
fn multi_to_value<'a, C: Choice>(items: impl Iterator<Item = &'a C>) -> Value {
    let mut wires = Vec::new();
    for c in items {
        wires.push(Value::String(c.as_wire().to_owned()));
    }
    Value::Array(wires)
}

impl<C: Choice> FormValue for Vec<C> {
    const RUST_TYPE: &'static str = "Vec";
    fn property() -> PropertySchema {
        multi_property::<C>()
    }
    fn from_value(value: &Value) -> Result<Self, FieldErrorKind> {
        multi_from_value(value)
    }
    fn check(property: &PropertySchema, value: &Value) -> Result<Self, FieldErrorKind> {
        multi_check(property, value)
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
        multi_from_value::<C>(value).map(|items| items.into_iter().collect())
    }
    fn check(property: &PropertySchema, value: &Value) -> Result<Self, FieldErrorKind> {
        multi_check::<C>(property, value).map(|items| items.into_iter().collect())
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
        multi_from_value::<C>(value).map(|items| items.into_iter().collect())
    }
    fn check(property: &PropertySchema, value: &Value) -> Result<Self, FieldErrorKind> {
        multi_check::<C>(property, value).map(|items| items.into_iter().collect())
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
