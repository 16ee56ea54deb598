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

use std::fmt;
use std::sync::{Arc, OnceLock};

use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::error::{SchemaError, SchemaErrorKind};

/// An `_meta` object: metadata attached to any ACP object. Never interpreted.
pub type Meta = Map<String, Value>;

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
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ElicitationSchema {
    /// Optional form title (an ACP addition over MCP).
    pub title: Option<String>,
    /// Optional form description (an ACP addition over MCP).
    pub description: Option<String>,
    /// The form fields, in the order a client renders them.
    pub properties: Properties,
    /// Wire names of the fields that must be answered. Written only when non-empty.
    pub required: Vec<String>,
    /// `_meta`, kept as is.
    pub meta: Option<Meta>,
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
    pub fn get_index(&self, index: usize) -> Option<(&str, &PropertySchema)> {
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
#[derive(Debug, Clone, PartialEq)]
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
    pub fn set_title(&mut self, title: Option<String>) {
        if let Some((slot, _)) = self.labels_mut() {
            *slot = title;
        }
    }

    /// Sets the description (ignored for unknown kinds, which are kept raw).
    pub fn set_description(&mut self, description: Option<String>) {
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
#[derive(Debug, Clone, PartialEq, Default)]
pub struct StringSchema {
    /// Field label.
    pub title: Option<String>,
    /// Help text.
    pub description: Option<String>,
    /// Minimum length, in Unicode scalar values.
    pub min_length: Option<u32>,
    /// Maximum length, in Unicode scalar values.
    pub max_length: Option<u32>,
    /// A regular expression the whole value must contain a match of (JSON
    /// Schema semantics: unanchored). An ACP addition over MCP.
    pub pattern: Option<Pattern>,
    /// A string format.
    pub format: Option<Format>,
    /// Pre-filled value.
    pub default: Option<String>,
    /// Single-select options (`enum` or `oneOf`).
    pub options: Option<Options>,
    /// `_meta`, kept as is.
    pub meta: Option<Meta>,
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
#[derive(Debug, Clone, PartialEq, Default)]
pub struct NumberSchema {
    /// Field label.
    pub title: Option<String>,
    /// Help text.
    pub description: Option<String>,
    /// Inclusive lower bound.
    pub minimum: Option<f64>,
    /// Inclusive upper bound.
    pub maximum: Option<f64>,
    /// Pre-filled value.
    pub default: Option<f64>,
    /// `_meta`, kept as is.
    pub meta: Option<Meta>,
}

/// An integer property (`i64` on the wire).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct IntegerSchema {
    /// Field label.
    pub title: Option<String>,
    /// Help text.
    pub description: Option<String>,
    /// Inclusive lower bound.
    pub minimum: Option<i64>,
    /// Inclusive upper bound.
    pub maximum: Option<i64>,
    /// Pre-filled value.
    pub default: Option<i64>,
    /// `_meta`, kept as is.
    pub meta: Option<Meta>,
}

/// A boolean property.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BooleanSchema {
    /// Field label.
    pub title: Option<String>,
    /// Help text.
    pub description: Option<String>,
    /// Pre-filled value.
    pub default: Option<bool>,
    /// `_meta`, kept as is.
    pub meta: Option<Meta>,
}

/// A multi-select property: `"type": "array"` whose items are string options.
#[derive(Debug, Clone, PartialEq)]
pub struct MultiSelectSchema {
    /// Field label.
    pub title: Option<String>,
    /// Help text.
    pub description: Option<String>,
    /// Minimum number of selected options.
    pub min_items: Option<u64>,
    /// Maximum number of selected options.
    pub max_items: Option<u64>,
    /// The options.
    pub items: Items,
    /// Pre-selected options.
    pub default: Option<Vec<String>>,
    /// `_meta`, kept as is.
    pub meta: Option<Meta>,
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
#[derive(Debug, Clone, PartialEq)]
pub enum Options {
    /// Plain values (`enum`): each value is its own label.
    Untitled(Vec<String>),
    /// Values with labels (`oneOf` for single-select, `anyOf` for
    /// multi-select).
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
    pub fn len(&self) -> usize {
        match self {
            Self::Untitled(v) => v.len(),
            Self::Titled(v) => v.len(),
        }
    }

    /// Whether there are none (never valid, see [`ElicitationSchema::check`]).
    pub fn is_empty(&self) -> bool {
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
#[derive(Debug, Clone, PartialEq)]
pub struct EnumOption {
    /// The value submitted when this option is chosen (`const`).
    pub value: String,
    /// The label shown for it.
    pub title: String,
    /// Help text for the option (an ACP addition over MCP).
    pub description: Option<String>,
    /// `_meta`, kept as is.
    pub meta: Option<Meta>,
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

/// A string `format`. The four known ones are validated; any other is an
/// annotation, kept but not checked.
///
/// Note: the official Rust types (`agent-client-protocol-schema` 1.17–1.20)
/// model `format` as a closed enum, so a client built on that crate fails to
/// parse a schema with an [`Other`](Format::Other) format.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Format {
    /// `email`.
    Email,
    /// `uri`: an absolute URI.
    Uri,
    /// `date`: RFC 3339 full-date, `YYYY-MM-DD`.
    Date,
    /// `date-time`: RFC 3339 date-time.
    DateTime,
    /// Any other format, kept as an annotation.
    Other(String),
}

impl Format {
    /// The wire name.
    pub fn as_str(&self) -> &str {
        match self {
            Self::Email => "email",
            Self::Uri => "uri",
            Self::Date => "date",
            Self::DateTime => "date-time",
            Self::Other(s) => s,
        }
    }

    /// Reads a wire name.
    pub fn parse(s: &str) -> Self {
        match s {
            "email" => Self::Email,
            "uri" => Self::Uri,
            "date" => Self::Date,
            "date-time" => Self::DateTime,
            other => Self::Other(other.to_owned()),
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The largest pattern source accepted, in bytes.
pub const MAX_PATTERN_LEN: usize = 1024;
/// The compiled-program size limit for a pattern, in bytes.
const PATTERN_SIZE_LIMIT: usize = 1 << 20;
/// The lazy-DFA cache limit for a pattern, in bytes.
const PATTERN_DFA_LIMIT: usize = 1 << 20;

/// A `pattern`: its source, compiled at most once with the linear-time
/// `regex` engine and bounded sizes. Compares and serializes as its source.
#[derive(Clone)]
pub struct Pattern {
    source: String,
    compiled: Arc<OnceLock<Result<regex::Regex, SchemaErrorKind>>>,
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
    /// not valid syntax for the linear-time engine, or over the size limits).
    pub fn regex(&self) -> Result<&regex::Regex, &SchemaErrorKind> {
        self.compiled
            .get_or_init(|| compile_pattern(&self.source))
            .as_ref()
    }

    /// Whether `value` contains a match. A pattern that cannot be compiled
    /// matches nothing; [`ElicitationSchema::check`] reports it.
    pub fn is_match(&self, value: &str) -> Result<bool, &SchemaErrorKind> {
        self.regex().map(|r| r.is_match(value))
    }
}

fn compile_pattern(source: &str) -> Result<regex::Regex, SchemaErrorKind> {
    if source.len() > MAX_PATTERN_LEN {
        return Err(SchemaErrorKind::PatternTooLong {
            len: source.len(),
            max: MAX_PATTERN_LEN,
        });
    }
    regex::RegexBuilder::new(source)
        .size_limit(PATTERN_SIZE_LIMIT)
        .dfa_size_limit(PATTERN_DFA_LIMIT)
        .nest_limit(64)
        .build()
        .map_err(|e| SchemaErrorKind::InvalidPattern {
            pattern: source.to_owned(),
            reason: match e {
                regex::Error::CompiledTooBig(limit) => {
                    format!("the compiled pattern exceeds the size limit of {limit} bytes")
                }
                other => other.to_string(),
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
// Serialization: hand-written so field order and omission are exact.

/// Writes `key: value` when `value` is `Some`.
fn opt<M: SerializeMap, T: Serialize + ?Sized>(
    map: &mut M,
    key: &'static str,
    value: Option<&T>,
) -> Result<(), M::Error> {
    match value {
        Some(v) => map.serialize_entry(key, v),
        None => Ok(()),
    }
}

impl Serialize for ElicitationSchema {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("type", "object")?;
        opt(&mut map, "title", self.title.as_ref())?;
        opt(&mut map, "description", self.description.as_ref())?;
        map.serialize_entry("properties", &self.properties)?;
        if !self.required.is_empty() {
            map.serialize_entry("required", &self.required)?;
        }
        opt(&mut map, "_meta", self.meta.as_ref())?;
        map.end()
    }
}

impl Serialize for Properties {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.entries.len()))?;
        for (name, schema) in &self.entries {
            map.serialize_entry(name, schema)?;
        }
        map.end()
    }
}

impl Serialize for PropertySchema {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("type", self.type_name())?;
        match self {
            Self::String(s) => {
                opt(&mut map, "title", s.title.as_ref())?;
                opt(&mut map, "description", s.description.as_ref())?;
                opt(&mut map, "minLength", s.min_length.as_ref())?;
                opt(&mut map, "maxLength", s.max_length.as_ref())?;
                opt(&mut map, "pattern", s.pattern.as_ref().map(Pattern::as_str))?;
                opt(&mut map, "format", s.format.as_ref().map(Format::as_str))?;
                opt(&mut map, "default", s.default.as_ref())?;
                match &s.options {
                    Some(Options::Untitled(values)) => map.serialize_entry("enum", values)?,
                    Some(Options::Titled(options)) => map.serialize_entry("oneOf", options)?,
                    None => {}
                }
                opt(&mut map, "_meta", s.meta.as_ref())?;
            }
            Self::Number(s) => {
                opt(&mut map, "title", s.title.as_ref())?;
                opt(&mut map, "description", s.description.as_ref())?;
                opt(&mut map, "minimum", s.minimum.as_ref())?;
                opt(&mut map, "maximum", s.maximum.as_ref())?;
                opt(&mut map, "default", s.default.as_ref())?;
                opt(&mut map, "_meta", s.meta.as_ref())?;
            }
            Self::Integer(s) => {
                opt(&mut map, "title", s.title.as_ref())?;
                opt(&mut map, "description", s.description.as_ref())?;
                opt(&mut map, "minimum", s.minimum.as_ref())?;
                opt(&mut map, "maximum", s.maximum.as_ref())?;
                opt(&mut map, "default", s.default.as_ref())?;
                opt(&mut map, "_meta", s.meta.as_ref())?;
            }
            Self::Boolean(s) => {
                opt(&mut map, "title", s.title.as_ref())?;
                opt(&mut map, "description", s.description.as_ref())?;
                opt(&mut map, "default", s.default.as_ref())?;
                opt(&mut map, "_meta", s.meta.as_ref())?;
            }
            Self::MultiSelect(s) => {
                opt(&mut map, "title", s.title.as_ref())?;
                opt(&mut map, "description", s.description.as_ref())?;
                opt(&mut map, "minItems", s.min_items.as_ref())?;
                opt(&mut map, "maxItems", s.max_items.as_ref())?;
                map.serialize_entry("items", &s.items)?;
                opt(&mut map, "default", s.default.as_ref())?;
                opt(&mut map, "_meta", s.meta.as_ref())?;
            }
            Self::Other(o) => {
                for (k, v) in &o.fields {
                    if k != "type" {
                        map.serialize_entry(k, v)?;
                    }
                }
            }
        }
        map.end()
    }
}

impl Serialize for Items {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Options(Options::Untitled(values)) => {
                let mut map = serializer.serialize_map(Some(2))?;
                map.serialize_entry("type", "string")?;
                map.serialize_entry("enum", values)?;
                map.end()
            }
            Self::Options(Options::Titled(options)) => {
                let mut map = serializer.serialize_map(Some(1))?;
                map.serialize_entry("anyOf", options)?;
                map.end()
            }
            Self::Other(raw) => raw.serialize(serializer),
        }
    }
}

impl Serialize for EnumOption {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("const", &self.value)?;
        map.serialize_entry("title", &self.title)?;
        opt(&mut map, "description", self.description.as_ref())?;
        opt(&mut map, "_meta", self.meta.as_ref())?;
        map.end()
    }
}

impl Serialize for Format {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl Serialize for Pattern {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.source)
    }
}

// ---------------------------------------------------------------------------
// Deserialization. The object level is read with a visitor so the order of
// `properties` is the document's; each property is read from its JSON value.

impl<'de> Deserialize<'de> for ElicitationSchema {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct SchemaVisitor;
        impl<'de> Visitor<'de> for SchemaVisitor {
            type Value = ElicitationSchema;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an elicitation schema object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut schema = ElicitationSchema::default();
                let mut seen_properties = false;
                while let Some(key) = map.next_key::<String>()? {
                    match key.as_str() {
                        // Readers tolerate a missing or malformed `type`.
                        "type" => {
                            map.next_value::<de::IgnoredAny>()?;
                        }
                        "title" => schema.title = map.next_value()?,
                        "description" => schema.description = map.next_value()?,
                        "required" => {
                            schema.required =
                                map.next_value::<Option<Vec<String>>>()?.unwrap_or_default();
                        }
                        "_meta" => schema.meta = map.next_value()?,
                        "properties" => {
                            if seen_properties {
                                return Err(de::Error::duplicate_field("properties"));
                            }
                            seen_properties = true;
                            schema.properties = map.next_value()?;
                        }
                        _ => {
                            map.next_value::<de::IgnoredAny>()?;
                        }
                    }
                }
                Ok(schema)
            }
        }
        deserializer.deserialize_map(SchemaVisitor)
    }
}

impl<'de> Deserialize<'de> for Properties {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct PropertiesVisitor;
        impl<'de> Visitor<'de> for PropertiesVisitor {
            type Value = Properties;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object of property schemas")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut properties = Properties::new();
                while let Some(name) = map.next_key::<String>()? {
                    let schema: PropertySchema = map.next_value()?;
                    if properties.contains(&name) {
                        return Err(de::Error::custom(format_args!(
                            "duplicate property `{name}`"
                        )));
                    }
                    properties.entries.push((name, schema));
                }
                Ok(properties)
            }
        }
        deserializer.deserialize_map(PropertiesVisitor)
    }
}

impl<'de> Deserialize<'de> for PropertySchema {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let fields = Map::<String, Value>::deserialize(deserializer)?;
        PropertySchema::from_json(fields).map_err(de::Error::custom)
    }
}

impl<'de> Deserialize<'de> for Format {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(Format::parse(&String::deserialize(deserializer)?))
    }
}

impl<'de> Deserialize<'de> for Pattern {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(Pattern::new(String::deserialize(deserializer)?))
    }
}

impl<'de> Deserialize<'de> for EnumOption {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let fields = Map::<String, Value>::deserialize(deserializer)?;
        let mut r = Reader {
            fields: &fields,
            at: "option",
        };
        EnumOption::read(&mut r).map_err(de::Error::custom)
    }
}

/// Reads typed fields out of one JSON object, naming the field on error.
struct Reader<'a> {
    fields: &'a Map<String, Value>,
    at: &'static str,
}

impl Reader<'_> {
    fn get(&self, key: &str) -> Option<&Value> {
        self.fields.get(key).filter(|v| !v.is_null())
    }

    fn wrong(&self, key: &str, expected: &str) -> String {
        format!("{} `{key}` must be {expected}", self.at)
    }

    /// The field `key` read with `read`; absent or `null` is `None`.
    fn typed<T>(
        &self,
        key: &str,
        expected: &str,
        read: impl Fn(&Value) -> Option<T>,
    ) -> Result<Option<T>, String> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => read(v).map(Some).ok_or_else(|| self.wrong(key, expected)),
        }
    }

    fn string(&mut self, key: &str) -> Result<Option<String>, String> {
        self.typed(key, "a string", |v| v.as_str().map(str::to_owned))
    }

    fn required_string(&mut self, key: &str) -> Result<String, String> {
        self.string(key)?
            .ok_or_else(|| format!("{} is missing `{key}`", self.at))
    }

    fn u32(&mut self, key: &str) -> Result<Option<u32>, String> {
        self.typed(key, "a non-negative 32-bit integer", |v| {
            v.as_u64().and_then(|n| u32::try_from(n).ok())
        })
    }

    fn u64(&mut self, key: &str) -> Result<Option<u64>, String> {
        self.typed(key, "a non-negative integer", Value::as_u64)
    }

    fn i64(&mut self, key: &str) -> Result<Option<i64>, String> {
        self.typed(key, "a 64-bit integer", Value::as_i64)
    }

    fn f64(&mut self, key: &str) -> Result<Option<f64>, String> {
        self.typed(key, "a number", Value::as_f64)
    }

    fn bool(&mut self, key: &str) -> Result<Option<bool>, String> {
        self.typed(key, "a boolean", Value::as_bool)
    }

    fn meta(&mut self) -> Result<Option<Meta>, String> {
        match self.get("_meta") {
            None => Ok(None),
            Some(Value::Object(m)) => Ok(Some(m.clone())),
            Some(_) => Err(self.wrong("_meta", "an object")),
        }
    }

    fn strings(&mut self, key: &str) -> Result<Option<Vec<String>>, String> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::Array(items)) => items
                .iter()
                .map(|v| v.as_str().map(str::to_owned))
                .collect::<Option<Vec<_>>>()
                .map(Some)
                .ok_or_else(|| self.wrong(key, "an array of strings")),
            Some(_) => Err(self.wrong(key, "an array of strings")),
        }
    }

    fn options(&mut self, key: &str) -> Result<Option<Vec<EnumOption>>, String> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::Array(items)) => items
                .iter()
                .map(|v| match v {
                    Value::Object(fields) => EnumOption::read(&mut Reader {
                        fields,
                        at: "option",
                    }),
                    _ => Err(self.wrong(key, "an array of option objects")),
                })
                .collect::<Result<Vec<_>, _>>()
                .map(Some),
            Some(_) => Err(self.wrong(key, "an array of option objects")),
        }
    }
}

impl EnumOption {
    fn read(r: &mut Reader<'_>) -> Result<Self, String> {
        Ok(Self {
            value: r.required_string("const")?,
            title: r.required_string("title")?,
            description: r.string("description")?,
            meta: r.meta()?,
        })
    }
}

impl PropertySchema {
    /// Reads a property schema from its JSON object, as a receiver would:
    /// known kinds must be well-formed; unknown `type`s are kept raw.
    pub fn from_json(fields: Map<String, Value>) -> Result<Self, String> {
        let type_ = match fields.get("type") {
            Some(Value::String(t)) => t.clone(),
            Some(_) => return Err("property `type` must be a string".to_owned()),
            None => return Err("property schema is missing `type`".to_owned()),
        };
        let at = match type_.as_str() {
            "string" => "string property",
            "number" => "number property",
            "integer" => "integer property",
            "boolean" => "boolean property",
            "array" => "array property",
            _ => return Ok(Self::Other(OtherSchema { type_, fields })),
        };
        let mut r = Reader {
            fields: &fields,
            at,
        };
        Ok(match type_.as_str() {
            "string" => {
                let untitled = r.strings("enum")?;
                let titled = r.options("oneOf")?;
                let options = match (untitled, titled) {
                    (Some(_), Some(_)) => {
                        return Err("string property has both `enum` and `oneOf`".to_owned());
                    }
                    (Some(v), None) => Some(Options::Untitled(v)),
                    (None, Some(o)) => Some(Options::Titled(o)),
                    (None, None) => None,
                };
                Self::String(StringSchema {
                    title: r.string("title")?,
                    description: r.string("description")?,
                    min_length: r.u32("minLength")?,
                    max_length: r.u32("maxLength")?,
                    pattern: r.string("pattern")?.map(Pattern::new),
                    format: r.string("format")?.map(|f| Format::parse(&f)),
                    default: r.string("default")?,
                    options,
                    meta: r.meta()?,
                })
            }
            "number" => Self::Number(NumberSchema {
                title: r.string("title")?,
                description: r.string("description")?,
                minimum: r.f64("minimum")?,
                maximum: r.f64("maximum")?,
                default: r.f64("default")?,
                meta: r.meta()?,
            }),
            "integer" => Self::Integer(IntegerSchema {
                title: r.string("title")?,
                description: r.string("description")?,
                minimum: r.i64("minimum")?,
                maximum: r.i64("maximum")?,
                default: r.i64("default")?,
                meta: r.meta()?,
            }),
            "boolean" => Self::Boolean(BooleanSchema {
                title: r.string("title")?,
                description: r.string("description")?,
                default: r.bool("default")?,
                meta: r.meta()?,
            }),
            _ => {
                let items = match fields.get("items") {
                    Some(Value::Object(items)) => Items::from_json(items)?,
                    _ => return Err("array property needs an `items` object".to_owned()),
                };
                Self::MultiSelect(MultiSelectSchema {
                    title: r.string("title")?,
                    description: r.string("description")?,
                    min_items: r.u64("minItems")?,
                    max_items: r.u64("maxItems")?,
                    items,
                    default: r.strings("default")?,
                    meta: r.meta()?,
                })
            }
        })
    }
}

impl Items {
    fn from_json(fields: &Map<String, Value>) -> Result<Self, String> {
        let mut r = Reader {
            fields,
            at: "multi-select `items`",
        };
        match fields.get("type") {
            Some(Value::String(t)) if t == "string" => Ok(Self::Options(Options::Untitled(
                r.strings("enum")?
                    .ok_or("multi-select `items` of type string needs `enum`")?,
            ))),
            Some(Value::String(_)) => Ok(Self::Other(fields.clone())),
            Some(_) => Err("multi-select `items.type` must be a string".to_owned()),
            None => Ok(Self::Options(Options::Titled(r.options("anyOf")?.ok_or(
                "multi-select `items` needs `type: \"string\"` with `enum`, or `anyOf`",
            )?))),
        }
    }
}

impl From<SchemaErrorKind> for SchemaError {
    fn from(kind: SchemaErrorKind) -> Self {
        SchemaError::single(None, kind)
    }
}
