//! The wire model: the restricted, flat JSON Schema of a form-mode
//! `requestedSchema`.
//!
//! Every type here serializes to exactly the JSON of the official ACP schema
//! (`ElicitationSchema` and its property kinds): absent fields are omitted,
//! `type` is always written, enum options are inline, and properties keep
//! their order (declaration order for derived forms, document order for
//! schemas read from the wire).
//!
//! Reading is tolerant where the protocol says readers are: a missing or
//! malformed object `type` is read as `"object"`, a missing `properties` as
//! empty, a `null` optional field as absent. Property kinds this crate does not
//! know are kept raw in [`PropertySchema::Other`] and written back unchanged.
//! A key given twice in one object is refused, never "last one wins": two
//! readers of one message must not see different values.
//!
//! serde derives the (de)serialization of every fixed shape; hand-written
//! code is left only where it earns its place: [`Properties`] (document
//! order, unique names), the `type` dispatch of [`PropertySchema`] (which
//! keeps unknown kinds raw), and the two shapes of multi-select [`Items`].

use std::fmt;
use std::sync::{Arc, OnceLock};

use serde::de::{self, DeserializeOwned, Deserializer, MapAccess, Visitor};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::error::SchemaErrorKind;
pub use crate::format::Format;
use crate::json::{UniqueMap, null_as_default};

// The hand-written (de)serialization: only what serde derive cannot say.
mod codec;

/// The `requestedSchema` of a form-mode elicitation: a flat object whose
/// properties are primitives or enums.
///
/// Build one with [`Elicit::schema`](crate::Elicit::schema) (derived), by hand
/// with [`ElicitationSchema::new`] and [`ElicitationSchema::property`], or read
/// one from the wire with serde.
///
/// ```
/// use elicit_core::{ElicitationSchema, PropertySchema, StringSchema};
///
/// let schema = ElicitationSchema::new()
///     .property("name", StringSchema::new().title("Your name"), true);
/// assert_eq!(
///     serde_json::to_string(&schema).unwrap(),
///     r#"{"type":"object","properties":{"name":{"type":"string","title":"Your name"}},"required":["name"]}"#
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(tag = "type", rename = "object", default)]
pub struct ElicitationSchema {
    /// Optional form title (an ACP addition over MCP).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Optional form description (an ACP addition over MCP).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The form fields, in the order a client renders them.
    pub properties: Properties,
    /// Wire names of the fields that must be answered. Written only when non-empty.
    #[serde(
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "null_as_default"
    )]
    pub required: Vec<String>,
    /// `_meta`, kept as is.
    #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
}

impl ElicitationSchema {
    /// An empty form: no properties, nothing required.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the form title.
    #[must_use]
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Sets the form description.
    #[must_use]
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Appends a property (or replaces the one with that name, keeping its
    /// place) and marks it required or not.
    #[must_use]
    pub fn property(
        mut self,
        name: impl Into<String>,
        schema: impl Into<PropertySchema>,
        required: bool,
    ) -> Self {
        let name = name.into();
        self.required.retain(|r| *r != name);
        if required {
            self.required.push(name.clone());
        }
        self.properties.insert(name, schema.into());
        self
    }

    /// Whether the property `name` is listed in `required`.
    pub fn is_required(&self, name: &str) -> bool {
        self.required.iter().any(|r| r == name)
    }
}

/// The properties of a form, in order. Names are unique.
///
/// A small ordered map: forms have a handful of fields, and clients render
/// them in this order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Properties {
    entries: Vec<(String, PropertySchema)>,
}

impl Properties {
    /// No properties.
    pub fn new() -> Self {
        Self::default()
    }

    /// Inserts a property at the end, or replaces the schema of an existing
    /// one in place. Returns the replaced schema.
    pub fn insert(&mut self, name: String, schema: PropertySchema) -> Option<PropertySchema> {
        match self.entries.iter_mut().find(|(n, _)| *n == name) {
            Some((_, slot)) => Some(std::mem::replace(slot, schema)),
            None => {
                self.entries.push((name, schema));
                None
            }
        }
    }

    /// The schema of the property `name`.
    pub fn get(&self, name: &str) -> Option<&PropertySchema> {
        self.entries.iter().find(|(n, _)| n == name).map(|(_, s)| s)
    }

    /// The `index`-th property, in order.
    pub(crate) fn get_index(&self, index: usize) -> Option<(&str, &PropertySchema)> {
        self.entries.get(index).map(|(n, s)| (n.as_str(), s))
    }

    /// Whether a property is called `name`.
    pub fn contains(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// The properties, in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&str, &PropertySchema)> {
        self.entries.iter().map(|(n, s)| (n.as_str(), s))
    }

    /// The property names, in order.
    pub fn names(&self) -> impl ExactSizeIterator<Item = &str> {
        self.entries.iter().map(|(n, _)| n.as_str())
    }

    /// No properties, with room for `capacity` (derived schemas know their
    /// field count, and a property schema is large to move when growing).
    pub(crate) fn with_capacity(capacity: usize) -> Self {
        Self {
            entries: Vec::with_capacity(capacity),
        }
    }

    /// Appends without checking the name: a duplicate stays, so
    /// [`ElicitationSchema::check`] can report it.
    pub(crate) fn push(&mut self, name: String, schema: PropertySchema) {
        self.entries.push((name, schema));
    }

    /// The entries, in order.
    pub fn into_entries(self) -> Vec<(String, PropertySchema)> {
        self.entries
    }

    /// How many properties there are.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

impl<'a> IntoIterator for &'a Properties {
    type Item = (&'a str, &'a PropertySchema);
    type IntoIter = std::iter::Map<
        std::slice::Iter<'a, (String, PropertySchema)>,
        fn(&'a (String, PropertySchema)) -> (&'a str, &'a PropertySchema),
    >;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.iter().map(|(n, s)| (n.as_str(), s))
    }
}

/// One form field's schema, discriminated by its JSON `type`.
///
/// Each kind writes its own `type` first; reading dispatches on `type`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum PropertySchema {
    /// `"type": "string"`: free text, or a single-select when it has options.
    String(StringSchema),
    /// `"type": "number"`: a floating-point number.
    Number(NumberSchema),
    /// `"type": "integer"`: a whole number (64-bit on the wire).
    Integer(IntegerSchema),
    /// `"type": "boolean"`: a checkbox.
    Boolean(BooleanSchema),
    /// `"type": "array"`: a multi-select over string options.
    MultiSelect(MultiSelectSchema),
    /// A property type this crate does not know, kept raw. Never rendered or
    /// validated as a known control.
    Other(OtherSchema),
}

impl PropertySchema {
    /// The wire `type` of this property.
    pub fn type_name(&self) -> &str {
        match self {
            Self::String(_) => "string",
            Self::Number(_) => "number",
            Self::Integer(_) => "integer",
            Self::Boolean(_) => "boolean",
            Self::MultiSelect(_) => "array",
            Self::Other(o) => &o.type_,
        }
    }

    /// `(title, description)` of a known kind.
    fn labels(&self) -> Option<(&Option<String>, &Option<String>)> {
        match self {
            Self::String(s) => Some((&s.title, &s.description)),
            Self::Number(s) => Some((&s.title, &s.description)),
            Self::Integer(s) => Some((&s.title, &s.description)),
            Self::Boolean(s) => Some((&s.title, &s.description)),
            Self::MultiSelect(s) => Some((&s.title, &s.description)),
            Self::Other(_) => None,
        }
    }

    fn labels_mut(&mut self) -> Option<(&mut Option<String>, &mut Option<String>)> {
        match self {
            Self::String(s) => Some((&mut s.title, &mut s.description)),
            Self::Number(s) => Some((&mut s.title, &mut s.description)),
            Self::Integer(s) => Some((&mut s.title, &mut s.description)),
            Self::Boolean(s) => Some((&mut s.title, &mut s.description)),
            Self::MultiSelect(s) => Some((&mut s.title, &mut s.description)),
            Self::Other(_) => None,
        }
    }

    /// The property's `title`, if any.
    pub fn title(&self) -> Option<&str> {
        match self.labels() {
            Some((title, _)) => title.as_deref(),
            None => self.raw_str("title"),
        }
    }

    /// The property's `description`, if any.
    pub fn description(&self) -> Option<&str> {
        match self.labels() {
            Some((_, description)) => description.as_deref(),
            None => self.raw_str("description"),
        }
    }

    fn raw_str(&self, key: &str) -> Option<&str> {
        match self {
            Self::Other(o) => o.fields.get(key).and_then(Value::as_str),
            _ => None,
        }
    }

    /// Sets the title (ignored for unknown kinds, which are kept raw).
    pub(crate) fn set_title(&mut self, title: Option<String>) {
        if let Some((slot, _)) = self.labels_mut() {
            *slot = title;
        }
    }

    /// Sets the description (ignored for unknown kinds, which are kept raw).
    pub(crate) fn set_description(&mut self, description: Option<String>) {
        if let Some((_, slot)) = self.labels_mut() {
            *slot = description;
        }
    }

    /// The property's `default` as JSON, if any.
    pub fn default_value(&self) -> Option<Value> {
        match self {
            Self::String(s) => s.default.clone().map(Value::String),
            Self::Number(s) => s
                .default
                .and_then(serde_json::Number::from_f64)
                .map(Value::Number),
            Self::Integer(s) => s.default.map(Value::from),
            Self::Boolean(s) => s.default.map(Value::Bool),
            Self::MultiSelect(s) => s
                .default
                .as_ref()
                .map(|d| Value::Array(d.iter().cloned().map(Value::String).collect())),
            Self::Other(o) => o.fields.get("default").cloned(),
        }
    }
}

macro_rules! from_kind {
    ($($kind:ident => $variant:ident),*) => {$(
        impl From<$kind> for PropertySchema {
            fn from(schema: $kind) -> Self {
                Self::$variant(schema)
            }
        }
    )*};
}
from_kind!(StringSchema => String, NumberSchema => Number, IntegerSchema => Integer,
    BooleanSchema => Boolean, MultiSelectSchema => MultiSelect, OtherSchema => Other);

/// A string property: free text with optional length, pattern and format, or
/// a single-select when [`options`](Self::options) is set.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(tag = "type", rename = "string", rename_all = "camelCase")]
pub struct StringSchema {
    /// Field label.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Help text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Minimum length, in Unicode scalar values.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_length: Option<u32>,
    /// Maximum length, in Unicode scalar values.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_length: Option<u32>,
    /// A regular expression the whole value must contain a match of (JSON
    /// Schema semantics: unanchored). An ACP addition over MCP.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pattern: Option<Pattern>,
    /// A string format.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<Format>,
    /// Pre-filled value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default: Option<String>,
    /// Single-select options (`enum` or `oneOf`).
    #[serde(flatten, skip_deserializing)]
    pub options: Option<Options>,
    /// `_meta`, kept as is.
    #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
}

impl StringSchema {
    /// A free-text string property.
    pub fn new() -> Self {
        Self::default()
    }
    /// A single-select over these options.
    pub fn select(options: Options) -> Self {
        Self {
            options: Some(options),
            ..Self::default()
        }
    }
    /// Sets the title.
    #[must_use]
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }
    /// Sets the description.
    #[must_use]
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }
    /// Sets the length bounds (in Unicode scalar values).
    #[must_use]
    pub fn length(mut self, min: Option<u32>, max: Option<u32>) -> Self {
        self.min_length = min;
        self.max_length = max;
        self
    }
    /// Sets the pattern.
    #[must_use]
    pub fn pattern(mut self, pattern: impl Into<String>) -> Self {
        self.pattern = Some(Pattern::new(pattern));
        self
    }
    /// Sets the format.
    #[must_use]
    pub fn format(mut self, format: Format) -> Self {
        self.format = Some(format);
        self
    }
    /// Sets the default.
    #[must_use]
    pub fn default_value(mut self, default: impl Into<String>) -> Self {
        self.default = Some(default.into());
        self
    }
}

/// A number property (`f64` on the wire).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(tag = "type", rename = "number")]
pub struct NumberSchema {
    /// Field label.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Help text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Inclusive lower bound.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub minimum: Option<f64>,
    /// Inclusive upper bound.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub maximum: Option<f64>,
    /// Pre-filled value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default: Option<f64>,
    /// `_meta`, kept as is.
    #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
}

/// An integer property (`i64` on the wire).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(tag = "type", rename = "integer")]
pub struct IntegerSchema {
    /// Field label.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Help text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Inclusive lower bound.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub minimum: Option<i64>,
    /// Inclusive upper bound.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub maximum: Option<i64>,
    /// Pre-filled value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default: Option<i64>,
    /// `_meta`, kept as is.
    #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
}

/// A boolean property.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(tag = "type", rename = "boolean")]
pub struct BooleanSchema {
    /// Field label.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Help text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Pre-filled value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default: Option<bool>,
    /// `_meta`, kept as is.
    #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
}

/// A multi-select property: `"type": "array"` whose items are string options.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "array", rename_all = "camelCase")]
pub struct MultiSelectSchema {
    /// Field label.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Help text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Minimum number of selected options.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_items: Option<u64>,
    /// Maximum number of selected options.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_items: Option<u64>,
    /// The options.
    pub items: Items,
    /// Pre-selected options.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default: Option<Vec<String>>,
    /// `_meta`, kept as is.
    #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
}

impl MultiSelectSchema {
    /// A multi-select over these options.
    pub fn new(options: Options) -> Self {
        Self {
            title: None,
            description: None,
            min_items: None,
            max_items: None,
            items: Items::Options(options),
            default: None,
            meta: None,
        }
    }
}

/// The `items` of a multi-select.
#[derive(Debug, Clone, PartialEq)]
pub enum Items {
    /// `{"type": "string", "enum": [..]}` or `{"anyOf": [..]}`.
    Options(Options),
    /// An item schema this crate does not know, kept raw (never rendered).
    Other(Map<String, Value>),
}

/// The options of a single- or multi-select.
///
/// Serializes as a single-select writes them: `{"enum": [..]}` or
/// `{"oneOf": [..]}` (a multi-select's [`Items`] writes `anyOf`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum Options {
    /// Plain values (`enum`): each value is its own label.
    #[serde(rename = "enum")]
    Untitled(Vec<String>),
    /// Values with labels (`oneOf` for single-select, `anyOf` for
    /// multi-select).
    #[serde(rename = "oneOf")]
    Titled(Vec<EnumOption>),
}

impl Options {
    /// The option values, in order.
    pub fn values(&self) -> impl ExactSizeIterator<Item = &str> {
        let (untitled, titled): (&[String], &[EnumOption]) = match self {
            Self::Untitled(v) => (v, &[]),
            Self::Titled(v) => (&[], v),
        };
        // One of the two slices is empty, so this yields exactly one list.
        OptionValues {
            untitled: untitled.iter(),
            titled: titled.iter(),
        }
    }

    /// Whether `value` is one of the options.
    pub fn contains(&self, value: &str) -> bool {
        match self {
            Self::Untitled(v) => v.iter().any(|o| o == value),
            Self::Titled(v) => v.iter().any(|o| o.value == value),
        }
    }

    /// How many options there are.
    pub(crate) fn len(&self) -> usize {
        match self {
            Self::Untitled(v) => v.len(),
            Self::Titled(v) => v.len(),
        }
    }

    /// Whether there are none (never valid, see [`ElicitationSchema::check`]).
    pub(crate) fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

struct OptionValues<'a> {
    untitled: std::slice::Iter<'a, String>,
    titled: std::slice::Iter<'a, EnumOption>,
}

impl<'a> Iterator for OptionValues<'a> {
    type Item = &'a str;
    fn next(&mut self) -> Option<&'a str> {
        self.untitled
            .next()
            .map(String::as_str)
            .or_else(|| self.titled.next().map(|o| o.value.as_str()))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.untitled.len() + self.titled.len();
        (n, Some(n))
    }
}

impl ExactSizeIterator for OptionValues<'_> {}

/// A titled option: `{"const": value, "title": label, "description"?}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EnumOption {
    /// The value submitted when this option is chosen (`const`).
    #[serde(rename = "const")]
    pub value: String,
    /// The label shown for it.
    pub title: String,
    /// Help text for the option (an ACP addition over MCP).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// `_meta`, kept as is.
    #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
}

impl EnumOption {
    /// An option with a value and a label.
    pub fn new(value: impl Into<String>, title: impl Into<String>) -> Self {
        Self {
            value: value.into(),
            title: title.into(),
            description: None,
            meta: None,
        }
    }
}

/// A property of a type this crate does not know (`_`-prefixed extensions,
/// future ACP kinds, or anything a peer sent). Kept raw and written back
/// unchanged; never treated as a known control.
#[derive(Debug, Clone, PartialEq)]
pub struct OtherSchema {
    /// The wire `type`.
    pub type_: String,
    /// Every other field of the property, as received.
    pub fields: Map<String, Value>,
}

/// A `pattern`: its source, an ECMA-262 regular expression read in `u` mode
/// (what `new RegExp(source, "u")` reads in a JavaScript client), compiled
/// at most once into an equivalent linear-time `regex` program with bounded
/// sizes (crate `elicit-pattern`). Compares and serializes as its source.
#[derive(Clone, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Pattern {
    source: String,
    #[serde(skip)]
    compiled: Arc<OnceLock<Result<elicit_pattern::Regex, SchemaErrorKind>>>,
}

impl Pattern {
    /// A pattern from its source. Not compiled until first used.
    pub fn new(source: impl Into<String>) -> Self {
        Self {
            source: source.into(),
            compiled: Arc::default(),
        }
    }

    /// The source text.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// The compiled regex, or why this pattern cannot be used (too long,
    /// not ECMA-262 `u`-mode syntax, lookaround or backreferences, or over
    /// the size limits).
    pub(crate) fn regex(&self) -> Result<&elicit_pattern::Regex, &SchemaErrorKind> {
        self.compiled
            .get_or_init(|| compile_pattern(&self.source))
            .as_ref()
    }

    /// Whether `value` contains a match, as JavaScript's
    /// `new RegExp(source, "u").test(value)` says; `Err` with why this
    /// pattern cannot be used (too long, not ECMA-262 `u`-mode syntax,
    /// lookaround or backreferences, or over the size limits), which
    /// [`ElicitationSchema::check`] reports too.
    pub fn is_match(&self, value: &str) -> Result<bool, &SchemaErrorKind> {
        self.regex().map(|r| r.is_match(value))
    }
}

fn compile_pattern(source: &str) -> Result<elicit_pattern::Regex, SchemaErrorKind> {
    elicit_pattern::compile(source).map_err(|e| match *e.kind() {
        elicit_pattern::PatternErrorKind::TooLong { len, max } => {
            SchemaErrorKind::PatternTooLong { len, max }
        }
        _ => SchemaErrorKind::InvalidPattern {
            pattern: source.to_owned(),
            reason: e.to_string(),
        },
    })
}

impl fmt::Debug for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.source, f)
    }
}

impl PartialEq for Pattern {
    fn eq(&self, other: &Self) -> bool {
        self.source == other.source
    }
}

impl From<&str> for Pattern {
    fn from(s: &str) -> Self {
        Self::new(s)
    }
}

impl From<String> for Pattern {
    fn from(s: String) -> Self {
        Self::new(s)
    }
}

// ---------------------------------------------------------------------------
// The schema as text.

/// The schema as JSON text. Cannot fail: every key is a string and every
/// value serializes.
pub(crate) fn to_json(schema: &ElicitationSchema) -> String {
    match serde_json::to_string(schema) {
        Ok(json) => json,
        // serde_json fails only on a non-string map key or a failing
        // `Serialize` impl; the wire model has neither.
        Err(e) => unreachable!("an ElicitationSchema always serializes: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<ElicitationSchema, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }

    #[test]
    fn a_malformed_property_names_its_field() {
        let error = read(r#"{"properties":{"a":{"type":"string","minLength":"x"}}}"#).unwrap_err();
        assert!(
            error.starts_with("string property `minLength`: invalid type"),
            "{error}"
        );
        let error =
            read(r#"{"properties":{"a":{"type":"array","items":{"anyOf":[{"const":1}]}}}}"#)
                .unwrap_err();
        assert!(error.contains("`anyOf[0].const`"), "{error}");
        let error =
            read(r#"{"properties":{"a":{"type":"string","enum":["a"],"oneOf":[]}}}"#).unwrap_err();
        assert!(
            error.starts_with("string property has both `enum` and `oneOf`"),
            "{error}"
        );
        let error = read(r#"{"properties":{"a":{"type":"array"}}}"#).unwrap_err();
        assert!(
            error.starts_with("array property: missing field `items`"),
            "{error}"
        );
    }

    #[test]
    fn readers_tolerate_what_the_protocol_allows() {
        let schema =
            read(r#"{"type":5,"required":null,"properties":{"a":{"type":"_x","q":1}}}"#).unwrap();
        assert!(schema.required.is_empty());
        assert_eq!(
            serde_json::to_string(&schema).unwrap(),
            r#"{"type":"object","properties":{"a":{"type":"_x","q":1}}}"#
        );
        assert_eq!(read("{}").unwrap(), ElicitationSchema::new());
    }

    #[test]
    fn a_key_given_twice_is_refused() {
        for text in [
            r#"{"title":"a","title":"b"}"#,
            r#"{"properties":{"a":{"type":"boolean"},"a":{"type":"boolean"}}}"#,
            r#"{"properties":{"a":{"type":"boolean","default":true,"default":false}}}"#,
        ] {
            let error = read(text).unwrap_err();
            assert!(error.contains("duplicate"), "{text}: {error}");
        }
    }
}
