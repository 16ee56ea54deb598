//! The thin runtime glue that `#[derive(Elicit)]` calls. No rule lives here:
//! values are checked by [`crate::rules`], types converted by
//! [`FormField`](crate::FormField).

pub use crate::error::Num;
pub use crate::field::{choice_from_value, choice_property, choice_to_value};
pub use crate::format::Format;
pub use serde_json::Value;
pub use std::option::Option::{None, Some};
pub use std::sync::OnceLock;

use crate::field::{FormField, FormValue};
use crate::rules;
use crate::schema::{ElicitationSchema, Properties, PropertySchema};
use crate::{Content, FieldError, FieldErrorKind};

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

/// Whether a field of type `T` is listed in `required`.
pub const fn is_required<T: FormField>(has_default: bool) -> bool {
    T::REQUIRED && !has_default
}

/// The property schema of a field of type `T` with its attributes applied.
pub fn property<T: FormField>(attrs: &Attrs, default: Option<&T::Value>) -> PropertySchema {
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

/// The empty schema a derived `schema()` starts from, with room for its
/// `fields` own properties, `required` of which are required.
pub fn schema_with_capacity(fields: usize, required: usize) -> ElicitationSchema {
    ElicitationSchema {
        properties: Properties::with_capacity(fields),
        required: Vec::with_capacity(required),
        ..ElicitationSchema::default()
    }
}

/// Appends a field to a schema being built.
pub fn push<T: FormField>(
    schema: &mut ElicitationSchema,
    name: &'static str,
    attrs: &Attrs,
    default: Option<fn() -> T::Value>,
) {
    let default = default.map(|f| f());
    let property = property::<T>(attrs, default.as_ref());
    if is_required::<T>(default.is_some()) {
        schema.required.push(name.to_owned());
    }
    schema.properties.push(name.to_owned(), property);
}

/// Merges a flattened form's schema into the parent's, keeping order. A name
/// defined twice stays twice, so [`ElicitationSchema::check`] reports it.
pub fn merge(schema: &mut ElicitationSchema, inner: ElicitationSchema) {
    for (name, property) in inner.properties.into_entries() {
        schema.properties.push(name, property);
    }
    for name in inner.required {
        if !schema.required.contains(&name) {
            schema.required.push(name);
        }
    }
}

/// Takes, checks and converts the field at position `*index` of `schema`,
/// whose content entry is `entry` (`None`: the key is absent). Generated code
/// finds every field's entry in one pass over the content (see [`slot`]).
///
/// Absent or `null`: the default if there is one, `None` for an `Option`, a
/// `Missing` error otherwise. Present: the engine checks it against the
/// property, then the type converts it. Errors go to `errors`.
pub fn take<T: FormField>(
    entry: Option<&Value>,
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
    let required = is_required::<T>(default.is_some());
    let result = match rules::check_slot(entry, property, required) {
        Ok(Some(value)) => T::from_present(value),
        Ok(None) => match default {
            Some(default) => Ok(T::from_default(default())),
            None => T::absent().ok_or(FieldErrorKind::Missing),
        },
        Err(kind) => Err(kind),
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
pub fn slot<const N: usize>(
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

/// With `deny_unknown_fields`: every content key the schema lacks.
pub fn deny_unknown(content: &Content, schema: &ElicitationSchema, errors: &mut Vec<FieldError>) {
    for key in content.keys() {
        if !schema.properties.contains(key) {
            errors.push(FieldError::new(key.as_str(), FieldErrorKind::UnknownField));
        }
    }
}

/// Writes one field into content (an `Option` that is `None` is left out).
pub fn put<T: FormField>(content: &mut Content, name: &'static str, value: &T) {
    if let Some(value) = value.to_entry() {
        content.insert(name.to_owned(), value);
    }
}

/// Finishes `from_content`: the value if no field failed.
pub fn finish<T>(value: Option<T>, errors: Vec<FieldError>) -> Result<T, crate::ContentError> {
    match value {
        Some(value) if errors.is_empty() => Ok(value),
        _ => Err(crate::ContentError::new(errors)),
    }
}
