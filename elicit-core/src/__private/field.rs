//! A form field's glue: its attributes, and [`FieldGlue`], through which
//! derived code pushes, takes and puts every field.

use serde_json::Value;

use super::form::Entry;
use super::slot::Slot;
use crate::error::{FieldErrorKind, Num};
use crate::field::{FormField, FormValue, TextDefault, not_a_form_field};
use crate::format::{Format, LiteralRule};
use crate::schema::{ElicitationSchema, PropertySchema};
use crate::{Content, FieldError};

/// The compile error of a field whose type [refuses 0](FormValue::REFUSES_ZERO)
/// without a `range` that leaves 0 out; one constant, not a copy per field.
pub const REFUSES_ZERO_MESSAGE: &str = "this field's type (a signed `NonZero` integer) refuses \
     0, and a form schema cannot leave one value out of a range that spans it: add \
     `range(min = 1)` for positive values or `range(max = -1)` for negative ones (or use a plain \
     integer type and check for 0 yourself)";

not_a_form_field! {
/// What derived code does with a field of any [`FormField`](crate::FormField) type (`T` or
/// `Option<T>` of a [`FormValue`]). The derive names the field's type only
/// as `<T as FieldGlue>` (its default's type too, [`Default`](Self::Default)),
/// so a type that is no form field is one error.
// Said as `FormField` says it: derived code names a field's type only
// through this trait, so this is the error a user reads.
pub trait FieldGlue: Sized {
    /// The type of the field's `default = ..`: [`FormField::Value`](crate::FormField::Value).
    type Default;

    /// Appends this field to a schema being built.
    fn push(schema: &mut ElicitationSchema, name: &'static str, attrs: &Attrs);

    /// [`push`](Self::push) for a field with a `default = ..` (always
    /// `Some`: the expression [`take`](Self::take) gets too). Apart, so
    /// that the default's conversion to a value is compiled only for fields
    /// that have one.
    fn push_default(
        schema: &mut ElicitationSchema,
        name: &'static str,
        attrs: &Attrs,
        default: Option<fn() -> Self::Default>,
    );

    /// Takes, checks and converts this field from its content entry
    /// (`None`: absent), borrowed or owned.
    fn take(
        entry: Option<impl Entry>,
        schema: &ElicitationSchema,
        index: &mut usize,
        default: Option<fn() -> Self::Default>,
        errors: &mut Vec<FieldError>,
    ) -> Option<Self>;

    /// Writes this field into content (an absent `Option` is left out).
    fn put(&self, content: &mut Content, name: &'static str);
}
}

// Two impls, as `FormField` has, not one over `T: FormField`: then the one
// obligation a field's type meets in derived code is `T: FieldGlue`, and a
// type that is no form field is reported once.
macro_rules! field_glue {
    ($($attr:meta)?; $ty:ty) => {
        $(#[$attr])?
        impl<T: FormValue> FieldGlue for $ty {
            type Default = T;
            #[inline]
            fn push(schema: &mut ElicitationSchema, name: &'static str, attrs: &Attrs) {
                push_property(
                    schema,
                    name,
                    attrs,
                    <T as FormValue>::property(),
                    None,
                    <Self as FormField>::REQUIRED,
                );
            }
            #[inline]
            fn push_default(
                schema: &mut ElicitationSchema,
                name: &'static str,
                attrs: &Attrs,
                default: Option<fn() -> T>,
            ) {
                push_default::<Self>(schema, name, attrs, default);
            }
            #[inline]
            fn take(
                entry: Option<impl Entry>,
                schema: &ElicitationSchema,
                index: &mut usize,
                default: Option<fn() -> T>,
                errors: &mut Vec<FieldError>,
            ) -> Option<Self> {
                take::<Self>(entry, schema, index, default, errors)
            }
            #[inline]
            fn put(&self, content: &mut Content, name: &'static str) {
                put(content, name, self.to_entry());
            }
        }
    };
}

field_glue!(; T);
field_glue!(diagnostic::do_not_recommend; Option<T>);

// The glue below is generic over a field's type, and each enum that derives
// `Elicit` is a type of its own: the generic functions only convert, and
// hand the rest to functions that are not generic, compiled once.

/// [`FieldGlue::push_default`].
fn push_default<T: Slot>(
    schema: &mut ElicitationSchema,
    name: &'static str,
    attrs: &Attrs,
    default: Option<fn() -> T::Value>,
) {
    // A `match`, not `Option::map`: a closure is one more function per
    // field type.
    #[allow(clippy::manual_map)]
    let default = match default {
        Some(default) => Some(FormValue::to_value(&default())),
        None => None,
    };
    push_property(
        schema,
        name,
        attrs,
        <T::Value as FormValue>::property(),
        default,
        T::REQUIRED,
    );
}

/// [`FieldGlue::push`]: the property of a field with its attributes and
/// its default (as submitted) applied, listed in `required` if the field's
/// type is `required` and it has no default.
fn push_property(
    schema: &mut ElicitationSchema,
    name: &'static str,
    attrs: &Attrs,
    mut property: PropertySchema,
    default: Option<Value>,
    required: bool,
) {
    apply(&mut property, attrs);
    if required && default.is_none() {
        schema.required.push(name.to_owned());
    }
    if let Some(default) = default {
        set_default(&mut property, default);
    }
    schema.properties.push(name.to_owned(), property);
}

/// [`FieldGlue::put`]: a field's entry, if any, written under its name.
fn put(content: &mut Content, name: &'static str, entry: Option<Value>) {
    if let Some(value) = entry {
        content.insert(name.to_owned(), value);
    }
}

/// A newtype `#[derive(Elicit)]` with `transparent` or `try_from`/`from`
/// implements this: it is one form value through its inner type, and a
/// string default fills it when one fills the inner type.
pub trait Wrapper: FormValue {
    /// The type on the wire side: the newtype's field, or the `try_from`
    /// type (a `FormValue`; not bound here, so a wrong one is reported once,
    /// where the derive reads it).
    type Inner;
    /// The rule of the newtype's own format attribute, if it has one (it
    /// comes before the inner type's rule for literal defaults).
    const FORMAT: Option<LiteralRule> = None;
}

/// A string default fills a newtype when it fills the inner type (its own
/// format's rule first).
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

/// A field's schema attributes, as written in `#[elicit(..)]`.
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

pub(super) fn apply(property: &mut PropertySchema, attrs: &Attrs) {
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
/// finds every field's entry in one pass over the content (see [`Source`]).
///
/// Absent or `null`: the default if there is one, `None` for an `Option`, a
/// `Missing` error otherwise. Present: the engine checks it against the
/// property, then the type converts it. Errors go to `errors`.
///
/// Inlined into each form's reading: with its error path apart
/// ([`refuse`]) it is a few instructions around the field type's check,
/// and a call per field cost a form 3 % of its reading (issue 47).
#[inline]
fn take<T: Slot>(
    entry: Option<impl Entry>,
    schema: &ElicitationSchema,
    index: &mut usize,
    default: Option<fn() -> T::Value>,
    errors: &mut Vec<FieldError>,
) -> Option<T> {
    let (name, property) = next_property(schema, index)?;
    // Absent and `null` are the same (as in `rules::check_slot`).
    let result = match entry {
        Some(entry) if !entry.get().is_null() => entry.convert::<T>(property),
        _ => match default {
            Some(default) => Ok(T::from_default(default())),
            None => match T::absent() {
                Some(absent) => Ok(absent),
                None => Err(FieldErrorKind::Missing),
            },
        },
    };
    match result {
        Ok(value) => Some(value),
        Err(kind) => {
            refuse(name, kind, errors);
            None
        }
    }
}

/// [`take`]'s error path, apart and cold: not compiled per field type, and
/// out of the way of an answer that passes.
#[cold]
#[inline(never)]
fn refuse(name: &str, kind: FieldErrorKind, errors: &mut Vec<FieldError>) {
    errors.push(FieldError::new(name, kind));
}

/// [`take`]: the name and property at position `*index` of `schema`, and
/// the index moved past it.
fn next_property<'s>(
    schema: &'s ElicitationSchema,
    index: &mut usize,
) -> Option<(&'s str, &'s PropertySchema)> {
    // Generated code keeps the index within the schema it built.
    let (name, property) = schema.properties.get_index(*index)?;
    *index += 1;
    Some((name, property))
}

/// Derived code (`transparent`): the property of the newtype's inner type
/// with the inner field's attributes applied.
pub fn transparent_property(mut property: PropertySchema, attrs: &Attrs) -> PropertySchema {
    apply(&mut property, attrs);
    property
}

/// Derived code (`try_from = "U"`): converts a `U` (read from a value the
/// engine checked against `U`'s property) with `T`'s `TryFrom<U>`; its
/// refusal is [`FieldErrorKind::Refused`] with the error's `Display`.
pub fn try_convert<U, T: TryFrom<U>>(inner: U, rust_type: &'static str) -> Result<T, FieldErrorKind>
where
    T::Error: std::fmt::Display,
{
    T::try_from(inner).map_err(|e| crate::error::refused(rust_type, e))
}
