//! The one validation engine.
//!
//! Every rule of the restricted schema lives here, once: derived
//! [`Elicit::from_content`](crate::Elicit::from_content),
//! [`ElicitationSchema::validate`] (for any schema, including one received
//! over the wire) and [`ElicitationSchema::check`] all call these functions.

use std::collections::HashSet;

use serde_json::Value;

use crate::json::Content;

use crate::error::{
    ContentError, FieldError, FieldErrorKind, JsonKind, Num, SchemaError, SchemaErrorKind, excerpt,
};
use crate::limits::{MAX_ECHOED_CHARS, MAX_UNKNOWN_FIELDS_LISTED};
use crate::schema::{
    ElicitationSchema, Format, IntegerSchema, Items, MultiSelectSchema, NumberSchema, Options,
    Pattern, PropertySchema, StringSchema,
};

/// Checks one value against one property schema.
///
/// `value` is a present, non-`null` value (absence and `null` are decided by
/// the caller, see [`check_entry`]).
pub(crate) fn check_value(schema: &PropertySchema, value: &Value) -> Result<(), FieldErrorKind> {
    match schema {
        PropertySchema::String(s) => check_string(s, value),
        PropertySchema::Number(s) => check_number(s, value),
        PropertySchema::Integer(s) => check_integer(s, value).map(|_| ()),
        PropertySchema::Boolean(_) => match value {
            Value::Bool(_) => Ok(()),
            other => Err(wrong_type("a boolean", other)),
        },
        PropertySchema::MultiSelect(s) => check_multi_select(s, value),
        PropertySchema::Other(o) => Err(FieldErrorKind::Unvalidatable {
            reason: format!("the property type `{}` is not known", o.type_),
        }),
    }
}

/// Checks the entry `name` of `content`: absent or `null` is an error only
/// when `required`; anything else goes through [`check_value`].
///
/// Returns the present value, if any, so the caller converts it without a
/// second lookup.
pub(crate) fn check_entry<'c>(
    content: &'c Content,
    name: &str,
    schema: &PropertySchema,
    required: bool,
) -> Result<Option<&'c Value>, FieldErrorKind> {
    check_slot(content.get(name), schema, required)
}

/// [`check_entry`] for an entry already looked up: `None` is an absent key.
///
/// Derived code finds every field's entry in one pass over the content and
/// checks each with this.
pub(crate) fn check_slot<'c>(
    entry: Option<&'c Value>,
    schema: &PropertySchema,
    required: bool,
) -> Result<Option<&'c Value>, FieldErrorKind> {
    match entry {
        None | Some(Value::Null) if required => Err(FieldErrorKind::Missing),
        None | Some(Value::Null) => Ok(None),
        Some(value) => check_value(schema, value).map(|()| Some(value)),
    }
}

#[cold]
fn wrong_type(expected: &'static str, found: &Value) -> FieldErrorKind {
    FieldErrorKind::WrongType {
        expected,
        found: JsonKind::of(found),
    }
}

fn check_string(s: &StringSchema, value: &Value) -> Result<(), FieldErrorKind> {
    let Value::String(text) = value else {
        return Err(wrong_type("a string", value));
    };
    if let Some(options) = &s.options {
        return check_option(options, text);
    }
    check_text(s, text)
}

/// `property` if it is a free-text string property (a string without
/// options), whose rules are [`check_text`]'s.
#[inline]
pub(crate) fn free_text(property: &PropertySchema) -> Option<&StringSchema> {
    match property {
        PropertySchema::String(s) if s.options.is_none() => Some(s),
        _ => None,
    }
}

/// The rules of a free-text string property (length, format, pattern) on
/// `text`. No error holds the text: a secret is checked here too.
pub(crate) fn check_text(s: &StringSchema, text: &str) -> Result<(), FieldErrorKind> {
    // A string has between `len / 4` (rounded up) and `len` scalar values,
    // so its byte length alone usually settles both bounds; count only when
    // it does not.
    let bytes = text.len();
    let settled = s.max_length.is_none_or(|max| bytes <= max as usize)
        && s.min_length
            .is_none_or(|min| bytes.div_ceil(4) >= min as usize);
    if !settled {
        check_length(s, text)?;
    }
    if let Some(format) = &s.format
        && !format.matches(text)
    {
        return Err(invalid_format(format));
    }
    if let Some(pattern) = &s.pattern {
        match pattern.is_match(text) {
            Ok(true) => {}
            Ok(false) => return Err(pattern_mismatch(pattern)),
            Err(reason) => return Err(unvalidatable(&reason)),
        }
    }
    Ok(())
}

/// `minLength` and `maxLength` of `text` counted in characters, when its
/// byte length did not settle them.
fn check_length(s: &StringSchema, text: &str) -> Result<(), FieldErrorKind> {
    let length = text.chars().count();
    if let Some(min_length) = s.min_length
        && length < min_length as usize
    {
        return Err(FieldErrorKind::TooShort { min_length, length });
    }
    if let Some(max_length) = s.max_length
        && length > max_length as usize
    {
        return Err(FieldErrorKind::TooLong { max_length, length });
    }
    Ok(())
}

// The errors below are built apart, out of the way of an answer that
// passes (`#[cold]`).

#[cold]
fn invalid_format(format: &Format) -> FieldErrorKind {
    FieldErrorKind::InvalidFormat {
        format: format.clone(),
    }
}

#[cold]
fn pattern_mismatch(pattern: &Pattern) -> FieldErrorKind {
    FieldErrorKind::PatternMismatch {
        pattern: pattern.as_str().to_owned(),
    }
}

#[cold]
fn unvalidatable(reason: &dyn std::fmt::Display) -> FieldErrorKind {
    FieldErrorKind::Unvalidatable {
        reason: reason.to_string(),
    }
}

#[cold]
fn below_minimum(minimum: Num, value: Num) -> FieldErrorKind {
    FieldErrorKind::BelowMinimum { minimum, value }
}

#[cold]
fn above_maximum(maximum: Num, value: Num) -> FieldErrorKind {
    FieldErrorKind::AboveMaximum { maximum, value }
}

fn check_option(options: &Options, text: &str) -> Result<(), FieldErrorKind> {
    if options.contains(text) {
        Ok(())
    } else {
        Err(FieldErrorKind::NotAnOption {
            value: excerpt(text, MAX_ECHOED_CHARS),
            allowed: options.values().map(str::to_owned).collect(),
        })
    }
}

fn check_number(s: &NumberSchema, value: &Value) -> Result<(), FieldErrorKind> {
    let Some(x) = value.as_f64().filter(|_| value.is_number()) else {
        return Err(wrong_type("a number", value));
    };
    if let Some(minimum) = s.minimum
        && x < minimum
    {
        return Err(below_minimum(Num::Float(minimum), Num::Float(x)));
    }
    if let Some(maximum) = s.maximum
        && x > maximum
    {
        return Err(above_maximum(Num::Float(maximum), Num::Float(x)));
    }
    Ok(())
}

/// Reads a JSON value as an exact integer: integers as they are, and numbers
/// with no fractional part (JSON Schema counts `2.0` as an integer).
#[inline]
pub(crate) fn as_integer(value: &Value) -> Result<i128, FieldErrorKind> {
    let Value::Number(n) = value else {
        return Err(wrong_type("an integer", value));
    };
    if let Some(i) = n.as_i64() {
        return Ok(i128::from(i));
    }
    if let Some(u) = n.as_u64() {
        return Ok(i128::from(u));
    }
    let x = n.as_f64().unwrap_or(f64::NAN);
    // 2^127 bounds what i128 holds; beyond that, report it as out of range.
    if x.fract() == 0.0 && x.abs() < 1.7e38 {
        // The value is whole and in range, so the conversion is exact.
        #[allow(clippy::cast_possible_truncation)]
        Ok(x as i128)
    } else if x.fract() == 0.0 {
        Err(FieldErrorKind::OutOfTypeRange {
            rust_type: "a 64-bit integer",
            value: Num::Float(x),
        })
    } else {
        Err(FieldErrorKind::NotAnInteger { value: x })
    }
}

/// Checks an integer value and returns it.
#[inline]
pub(crate) fn check_integer(s: &IntegerSchema, value: &Value) -> Result<i128, FieldErrorKind> {
    let n = as_integer(value)?;
    if let Some(minimum) = s.minimum
        && n < i128::from(minimum)
    {
        return Err(below_minimum(Num::Int(minimum.into()), Num::Int(n)));
    }
    if let Some(maximum) = s.maximum
        && n > i128::from(maximum)
    {
        return Err(above_maximum(Num::Int(maximum.into()), Num::Int(n)));
    }
    Ok(n)
}

fn check_multi_select(s: &MultiSelectSchema, value: &Value) -> Result<(), FieldErrorKind> {
    let Value::Array(items) = value else {
        return Err(wrong_type("an array of strings", value));
    };
    let Items::Options(options) = &s.items else {
        return Err(FieldErrorKind::Unvalidatable {
            reason: "the multi-select `items` kind is not known".to_owned(),
        });
    };
    for (i, item) in items.iter().enumerate() {
        let Value::String(text) = item else {
            return Err(FieldErrorKind::WrongItemType {
                found: JsonKind::of(item),
            });
        };
        check_option(options, text)?;
        check_unique(items, i, text)?;
    }
    check_item_count(s, items)
}

/// The item at `i` (`text`) is not an earlier item again.
fn check_unique(items: &[Value], i: usize, text: &str) -> Result<(), FieldErrorKind> {
    if items[..i]
        .iter()
        .any(|earlier| earlier.as_str() == Some(text))
    {
        return Err(FieldErrorKind::DuplicateItem {
            value: excerpt(text, MAX_ECHOED_CHARS),
        });
    }
    Ok(())
}

/// The selection rules of a multi-select whose items are known to be
/// options: no item twice, and `minItems`/`maxItems`. Derived multi-selects
/// call this after converting every item (which is their membership check);
/// the verdict is [`check_value`]'s for such items.
pub(crate) fn check_selection(
    s: &MultiSelectSchema,
    items: &[Value],
) -> Result<(), FieldErrorKind> {
    for (i, item) in items.iter().enumerate() {
        if let Value::String(text) = item {
            check_unique(items, i, text)?;
        }
    }
    check_item_count(s, items)
}

fn check_item_count(s: &MultiSelectSchema, items: &[Value]) -> Result<(), FieldErrorKind> {
    if let Some(min_items) = s.min_items
        && (items.len() as u64) < min_items
    {
        return Err(FieldErrorKind::TooFewItems {
            min_items,
            count: items.len(),
        });
    }
    if let Some(max_items) = s.max_items
        && (items.len() as u64) > max_items
    {
        return Err(FieldErrorKind::TooManyItems {
            max_items,
            count: items.len(),
        });
    }
    Ok(())
}

/// Up to this many `required` names are scanned; more are put in a set.
const SCAN_LIMIT: usize = 16;

impl ElicitationSchema {
    /// Validates **answers**: checks `content` (what a user submitted)
    /// against this schema, collecting every failing field (in property
    /// order). Keys the schema does not define are ignored, as the protocol
    /// has no `additionalProperties`.
    ///
    /// This judges the content, not the schema: to know whether the schema
    /// itself is a valid restricted form, call [`check`](Self::check) first
    /// (a pattern that does not compile matches nothing here).
    ///
    /// ```
    /// use elicit_core::{ElicitationSchema, IntegerSchema};
    ///
    /// let schema: ElicitationSchema = serde_json::from_str(
    ///     r#"{"type":"object","properties":{"n":{"type":"integer","maximum":3}},"required":["n"]}"#,
    /// ).unwrap();
    /// let content = serde_json::json!({"n": 4});
    /// let err = schema.validate(content.as_object().unwrap()).unwrap_err();
    /// assert_eq!(err.to_string(), "invalid form content: `n` must be at most 3, got 4");
    /// ```
    pub fn validate(&self, content: &Content) -> Result<(), ContentError> {
        let mut errors = Vec::new();
        // A long `required` list is looked up in a set, so a hostile schema
        // (100,000 required properties) is validated in linear time; a
        // short one is scanned, without allocating.
        let many: Option<HashSet<&str>> = (self.required.len() > SCAN_LIMIT)
            .then(|| self.required.iter().map(String::as_str).collect());
        for (name, property) in &self.properties {
            let required = match &many {
                Some(set) => set.contains(name),
                None => self.is_required(name),
            };
            if let Err(kind) = check_entry(content, name, property, required) {
                errors.push(FieldError::new(name, kind));
            }
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(ContentError::new(errors))
        }
    }

    /// Checks **the schema itself** (no content involved): that it is
    /// restricted and self-consistent: every
    /// property is of a known kind, bounds are ordered, defaults obey their
    /// property's rules, selects have unique, non-empty options, patterns
    /// compile in the linear-time engine, and `required` names exist, once.
    ///
    /// Collects every problem. Clients call this on a received
    /// `requestedSchema` before rendering it; derived schemas are checked in
    /// this crate's tests. To judge a user's answers against the schema, use
    /// [`validate`](Self::validate).
    pub fn check(&self) -> Result<(), SchemaError> {
        let mut issues = Vec::new();
        // Sets, not scans of the earlier names: a schema with 100,000
        // properties is checked in linear time.
        let mut names = HashSet::with_capacity(self.properties.len());
        for (name, property) in self.properties.iter() {
            if !names.insert(name) {
                issues.push((Some(name.to_owned()), SchemaErrorKind::DuplicateProperty));
            }
            for kind in check_property(property) {
                issues.push((Some(name.to_owned()), kind));
            }
        }
        let mut required = HashSet::with_capacity(self.required.len());
        for name in &self.required {
            if !names.contains(name.as_str()) {
                issues.push((Some(name.clone()), SchemaErrorKind::RequiredNotAProperty));
            } else if !required.insert(name.as_str()) {
                issues.push((Some(name.clone()), SchemaErrorKind::DuplicateRequired));
            }
        }
        match SchemaError::from_issues(issues) {
            Some(err) => Err(err),
            None => Ok(()),
        }
    }
}

/// Every problem with one property schema on its own.
pub(crate) fn check_property(property: &PropertySchema) -> Vec<SchemaErrorKind> {
    let mut issues = Vec::new();
    match property {
        PropertySchema::String(s) => {
            bounds(&mut issues, "minLength", s.min_length, s.max_length, |n| {
                Num::Int(n.into())
            });
            if let Some(pattern) = &s.pattern
                && let Err(kind) = pattern.regex()
            {
                issues.push(kind.clone());
            }
            if let Some(options) = &s.options {
                check_options(&mut issues, options);
            }
        }
        PropertySchema::Number(s) => {
            bounds(&mut issues, "minimum", s.minimum, s.maximum, Num::Float);
        }
        PropertySchema::Integer(s) => {
            bounds(&mut issues, "minimum", s.minimum, s.maximum, |n| {
                Num::Int(n.into())
            });
        }
        PropertySchema::Boolean(_) => {}
        PropertySchema::MultiSelect(s) => {
            bounds(&mut issues, "minItems", s.min_items, s.max_items, |n| {
                Num::Int(n.into())
            });
            match &s.items {
                Items::Options(options) => {
                    check_options(&mut issues, options);
                    if let Some(min_items) = s.min_items
                        && min_items > options.len() as u64
                        && !options.is_empty()
                    {
                        issues.push(SchemaErrorKind::MinItemsAboveOptions {
                            min_items,
                            options: options.len(),
                        });
                    }
                }
                Items::Other(_) => issues.push(SchemaErrorKind::UnknownItemsType),
            }
        }
        PropertySchema::Other(o) => issues.push(SchemaErrorKind::UnknownPropertyType {
            type_: o.type_.clone(),
        }),
    }
    // A default must obey its own property's rules; the engine decides.
    if issues.is_empty()
        && let Some(default) = property.default_value()
        && let Err(reason) = check_value(property, &default)
    {
        issues.push(SchemaErrorKind::InvalidDefault { reason });
    }
    issues
}

fn bounds<T: PartialOrd + Copy>(
    issues: &mut Vec<SchemaErrorKind>,
    min_key: &'static str,
    min: Option<T>,
    max: Option<T>,
    num: impl Fn(T) -> Num,
) {
    if let (Some(min), Some(max)) = (min, max)
        && min > max
    {
        issues.push(SchemaErrorKind::BoundsReversed {
            min_key,
            min: num(min),
            max: num(max),
        });
    }
}

fn check_options(issues: &mut Vec<SchemaErrorKind>, options: &Options) {
    if options.is_empty() {
        issues.push(SchemaErrorKind::NoOptions);
    }
    // A set, not a scan of the earlier options: a request with 100,000
    // options is checked in linear time.
    let mut seen = HashSet::with_capacity(options.len());
    for value in options.values() {
        if !seen.insert(value) {
            issues.push(SchemaErrorKind::DuplicateOption {
                value: excerpt(value, MAX_ECHOED_CHARS),
            });
        }
    }
}

/// With `deny_unknown_fields`: every content key the schema lacks.
/// At most [`MAX_UNKNOWN_FIELDS_LISTED`] are listed, then one
/// [`UnknownFieldAndMore`](FieldErrorKind::UnknownFieldAndMore) counts the
/// rest; key names are cut to [`MAX_ECHOED_CHARS`].
pub(crate) fn deny_unknown(
    content: &Content,
    schema: &ElicitationSchema,
    errors: &mut Vec<FieldError>,
) {
    let mut unknown = content
        .keys()
        .filter(|key| !schema.properties.contains(key));
    for key in unknown.by_ref().take(MAX_UNKNOWN_FIELDS_LISTED) {
        errors.push(FieldError::new(
            excerpt(key, MAX_ECHOED_CHARS),
            FieldErrorKind::UnknownField,
        ));
    }
    if let Some(key) = unknown.next() {
        errors.push(FieldError::new(
            excerpt(key, MAX_ECHOED_CHARS),
            FieldErrorKind::UnknownFieldAndMore {
                more: unknown.count(),
            },
        ));
    }
}
