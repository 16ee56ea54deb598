//! Errors: content that breaks a form's rules ([`ContentError`]) and schemas
//! that are not restricted or not self-consistent ([`SchemaError`]).
//!
//! Messages are written for the person who reads them: each names the field by
//! its wire name, the rule that was broken and, where it helps, the value.

use std::fmt;

use crate::format::Format;
use crate::limits::MAX_REASON_CHARS;

/// A number as it appears in an error message: integers stay exact.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Num {
    /// A whole number.
    Int(i128),
    /// A floating-point number.
    Float(f64),
}

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Int(n) => write!(f, "{n}"),
            Self::Float(x) => write!(f, "{x}"),
        }
    }
}

/// The JSON kind of a value, for "expected X, got Y" messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonKind {
    /// `null`.
    Null,
    /// `true` / `false`.
    Boolean,
    /// A whole number.
    Integer,
    /// A number with a fraction or exponent.
    Number,
    /// A string.
    String,
    /// An array.
    Array,
    /// An object.
    Object,
}

impl JsonKind {
    /// The kind of `value`.
    pub fn of(value: &serde_json::Value) -> Self {
        use serde_json::Value;
        match value {
            Value::Null => Self::Null,
            Value::Bool(_) => Self::Boolean,
            Value::Number(n) if n.is_i64() || n.is_u64() => Self::Integer,
            Value::Number(_) => Self::Number,
            Value::String(_) => Self::String,
            Value::Array(_) => Self::Array,
            Value::Object(_) => Self::Object,
        }
    }
}

impl fmt::Display for JsonKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Null => "null",
            Self::Boolean => "a boolean",
            Self::Integer => "an integer",
            Self::Number => "a number",
            Self::String => "a string",
            Self::Array => "an array",
            Self::Object => "an object",
        })
    }
}

/// Which rule a field's value broke.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum FieldErrorKind {
    /// A required field is absent or `null`.
    #[error("is required but missing")]
    Missing,
    /// The value has the wrong JSON type.
    #[error("must be {expected}, got {found}")]
    WrongType {
        /// What the schema asks for (`"a string"`, `"an integer"`, ...).
        expected: &'static str,
        /// What was sent.
        found: JsonKind,
    },
    /// A multi-select item that is not a string.
    #[error("must list options as strings, got an item that is {found}")]
    WrongItemType {
        /// What the item was.
        found: JsonKind,
    },
    /// An integer field got a number with a fraction (e.g. `2.5`).
    #[error("must be a whole number, got {value}")]
    NotAnInteger {
        /// The value sent.
        value: f64,
    },
    /// Below the inclusive `minimum`.
    #[error("must be at least {minimum}, got {value}")]
    BelowMinimum {
        /// The bound.
        minimum: Num,
        /// The value sent.
        value: Num,
    },
    /// Above the inclusive `maximum`.
    #[error("must be at most {maximum}, got {value}")]
    AboveMaximum {
        /// The bound.
        maximum: Num,
        /// The value sent.
        value: Num,
    },
    /// The value does not fit the Rust field type (e.g. `1e39` for `f32`).
    #[error("must fit in {rust_type}, got {value}")]
    OutOfTypeRange {
        /// The Rust type.
        rust_type: &'static str,
        /// The value sent.
        value: Num,
    },
    /// Fewer characters than `minLength`.
    #[error(
        "must be at least {min_length} character{}, got {length}",
        plural(u64::from(*.min_length))
    )]
    TooShort {
        /// The bound, in Unicode scalar values.
        min_length: u32,
        /// The value's length, in Unicode scalar values.
        length: usize,
    },
    /// More characters than `maxLength`.
    #[error(
        "must be at most {max_length} character{}, got {length}",
        plural(u64::from(*.max_length))
    )]
    TooLong {
        /// The bound, in Unicode scalar values.
        max_length: u32,
        /// The value's length, in Unicode scalar values.
        length: usize,
    },
    /// The value contains no match of `pattern`.
    #[error("must match the pattern `{pattern}`")]
    PatternMismatch {
        /// The pattern source.
        pattern: String,
    },
    /// The value is not valid for its known `format`.
    #[error("must be a valid {format}")]
    InvalidFormat {
        /// The format.
        format: Format,
    },
    /// The value is not one of the select's options.
    #[error("must be one of {}, got `{value}`", code_list(.allowed))]
    NotAnOption {
        /// The value sent, cut to [`MAX_ECHOED_CHARS`](crate::limits::MAX_ECHOED_CHARS) characters (then
        /// `…`): an error never copies a huge input.
        value: String,
        /// The allowed values, in order.
        allowed: Vec<String>,
    },
    /// Fewer selected options than `minItems`.
    #[error("must select at least {min_items} option{}, got {count}", plural(*.min_items))]
    TooFewItems {
        /// The bound.
        min_items: u64,
        /// How many were selected.
        count: usize,
    },
    /// More selected options than `maxItems`.
    #[error("must select at most {max_items} option{}, got {count}", plural(*.max_items))]
    TooManyItems {
        /// The bound.
        max_items: u64,
        /// How many were selected.
        count: usize,
    },
    /// The same option was selected twice.
    #[error("selects `{value}` more than once")]
    DuplicateItem {
        /// The repeated value, cut like [`NotAnOption`](Self::NotAnOption)'s.
        value: String,
    },
    /// The value passed every rule of the schema, but the field's Rust type
    /// refused it when converting: its own parser (a date the type's range
    /// cannot hold, a URL with an invalid port) or a user type's `TryFrom`.
    /// `reason` is that refusal's message, as the type wrote it.
    #[error("is not a valid `{rust_type}`: {reason}")]
    Refused {
        /// The Rust type that refused the value (`NaiveDate`, `Url`, a
        /// user type's name).
        rust_type: &'static str,
        /// The type's own message (its error's `Display`), cut to
        /// [`MAX_REASON_CHARS`] characters (then `…`).
        reason: String,
    },
    /// A key the form does not have (only with `deny_unknown_fields`).
    #[error("is not a field of this form")]
    UnknownField,
    /// A key the form does not have, after [`MAX_UNKNOWN_FIELDS_LISTED`](crate::limits::MAX_UNKNOWN_FIELDS_LISTED)
    /// others were listed: this one stands for itself and the `more` keys
    /// after it, so hostile content with many keys gives a bounded error.
    #[error("is not a field of this form, nor are {more} more key{} (not listed)", plural(*.more as u64))]
    UnknownFieldAndMore {
        /// How many more unknown keys follow it.
        more: usize,
    },
    /// The field's own schema cannot be used to check a value: an unknown
    /// property kind, or a pattern the engine refuses.
    #[error("cannot be checked: {reason}")]
    Unvalidatable {
        /// Why.
        reason: String,
    },
}

// ---------------------------------------------------------------------------
// Bounds: what an error may hold of hostile input (crate::limits)

/// [`FieldErrorKind::Refused`] with the refusal's message cut to
/// [`MAX_REASON_CHARS`].
pub(crate) fn refused(rust_type: &'static str, reason: impl fmt::Display) -> FieldErrorKind {
    FieldErrorKind::Refused {
        rust_type,
        reason: excerpt(&reason.to_string(), MAX_REASON_CHARS),
    }
}

/// `text`, cut to `max` characters (then `…`), owned.
pub(crate) fn excerpt(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_owned(),
        Some((end, _)) => {
            let mut cut = String::with_capacity(end + '…'.len_utf8());
            cut.push_str(&text[..end]);
            cut.push('…');
            cut
        }
    }
}

// ---------------------------------------------------------------------------
// Content errors

/// One field that broke a rule.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("`{field}` {kind}")]
pub struct FieldError {
    field: String,
    kind: FieldErrorKind,
}

impl FieldError {
    /// An error for the field with wire name `field`.
    pub fn new(field: impl Into<String>, kind: FieldErrorKind) -> Self {
        Self {
            field: field.into(),
            kind,
        }
    }

    /// The field's wire name.
    pub fn field(&self) -> &str {
        &self.field
    }

    /// Which rule it broke.
    pub fn kind(&self) -> &FieldErrorKind {
        &self.kind
    }
}

/// Form content that breaks the form's rules. Holds every failing field, in
/// form order, never just the first.
///
/// ```
/// # use elicit_core::{ContentError, FieldError, FieldErrorKind};
/// let err = ContentError::new(vec![FieldError::new("replicas", FieldErrorKind::Missing)]);
/// assert_eq!(err.to_string(), "invalid form content: `replicas` is required but missing");
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("invalid form content: {}", separated(.errors, "; "))]
pub struct ContentError {
    errors: Vec<FieldError>,
}

impl ContentError {
    /// An error from its field errors.
    pub fn new(errors: Vec<FieldError>) -> Self {
        Self { errors }
    }

    /// Every failing field, in form order.
    pub fn errors(&self) -> &[FieldError] {
        &self.errors
    }

    /// The failing fields' wire names, in form order.
    pub fn fields(&self) -> impl Iterator<Item = &str> {
        self.errors.iter().map(FieldError::field)
    }

    /// Takes the field errors out.
    pub fn into_errors(self) -> Vec<FieldError> {
        self.errors
    }
}

// ---------------------------------------------------------------------------
// Schema errors

/// Why a schema is not a usable restricted form schema.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SchemaErrorKind {
    /// A property type this crate does not know (kept raw, but not
    /// renderable as a form control). `object` lands here: forms are flat.
    #[error(
        "has unknown type `{type_}`: it is kept but cannot be rendered as a form control \
         (forms are flat: string, number, integer, boolean, or an array multi-select)"
    )]
    UnknownPropertyType {
        /// The wire `type`.
        type_: String,
    },
    /// Multi-select `items` of an unknown kind.
    #[error("is a multi-select whose `items` kind is unknown and cannot be rendered")]
    UnknownItemsType,
    /// A lower bound above its upper bound.
    #[error("has `{min_key}` {min} above its upper bound {max}")]
    BoundsReversed {
        /// `minimum`, `minLength` or `minItems`.
        min_key: &'static str,
        /// The lower bound.
        min: Num,
        /// The upper bound.
        max: Num,
    },
    /// The `default` breaks the property's own rules.
    #[error("has a default that {reason}")]
    InvalidDefault {
        /// The rule the default breaks.
        reason: FieldErrorKind,
    },
    /// A select with no options.
    #[error("is a select with no options")]
    NoOptions,
    /// The same option value twice.
    #[error("lists the option `{value}` twice")]
    DuplicateOption {
        /// The repeated value.
        value: String,
    },
    /// Multi-select `minItems` above the number of options: no answer is valid.
    #[error("requires at least {min_items} selected options but has only {options}")]
    MinItemsAboveOptions {
        /// `minItems`.
        min_items: u64,
        /// How many options there are.
        options: usize,
    },
    /// `required` names a property that does not exist.
    #[error("is required but is not a property")]
    RequiredNotAProperty,
    /// `required` names the same property twice.
    #[error("is listed twice in `required`")]
    DuplicateRequired,
    /// Two properties with the same name (e.g. through `flatten`).
    #[error("is defined twice")]
    DuplicateProperty,
    /// The pattern is longer than [`MAX_PATTERN_LEN`](crate::limits::MAX_PATTERN_LEN).
    #[error("has a pattern of {len} bytes; the limit is {max}")]
    PatternTooLong {
        /// Its length in bytes.
        len: usize,
        /// The limit in bytes.
        max: usize,
    },
    /// The pattern cannot be used: JavaScript refuses it (patterns are
    /// ECMA-262 regular expressions, read in `u` mode), or it needs
    /// lookaround or backreferences, which a linear-time engine cannot
    /// run, or it compiles to more than the size limits.
    #[error("has a pattern `{pattern}` that cannot be used: {reason}")]
    InvalidPattern {
        /// The pattern source.
        pattern: String,
        /// Why, where, and what to write instead.
        reason: String,
    },
}

/// One problem found in a schema.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{} {kind}", subject(.property))]
pub struct SchemaIssue {
    property: Option<String>,
    kind: SchemaErrorKind,
}

impl SchemaIssue {
    /// The property's wire name, or `None` for the object level.
    pub fn property(&self) -> Option<&str> {
        self.property.as_deref()
    }

    /// What is wrong.
    pub fn kind(&self) -> &SchemaErrorKind {
        &self.kind
    }
}

/// A schema that is not a restricted, self-consistent form schema. Holds
/// every problem found.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("invalid elicitation schema: {}", separated(.issues, "; "))]
pub struct SchemaError {
    issues: Vec<SchemaIssue>,
}

impl SchemaError {
    pub(crate) fn single(property: Option<String>, kind: SchemaErrorKind) -> Self {
        Self {
            issues: vec![SchemaIssue { property, kind }],
        }
    }

    pub(crate) fn from_issues(issues: Vec<(Option<String>, SchemaErrorKind)>) -> Option<Self> {
        if issues.is_empty() {
            return None;
        }
        Some(Self {
            issues: issues
                .into_iter()
                .map(|(property, kind)| SchemaIssue { property, kind })
                .collect(),
        })
    }

    /// Every problem found, in property order.
    pub fn issues(&self) -> &[SchemaIssue] {
        &self.issues
    }
}

impl From<SchemaErrorKind> for SchemaError {
    fn from(kind: SchemaErrorKind) -> Self {
        SchemaError::single(None, kind)
    }
}

// ---------------------------------------------------------------------------
// Helpers for the messages that need more than a format string

/// The plural ending of a noun counted by `n`.
fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// A `Display` written by a closure, for the helpers below.
struct DisplayWith<F>(F);

impl<F: Fn(&mut fmt::Formatter<'_>) -> fmt::Result> fmt::Display for DisplayWith<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        (self.0)(f)
    }
}

/// `items` one after another, with `separator` between them.
fn separated<'a, T: fmt::Display>(
    items: &'a [T],
    separator: &'static str,
) -> impl fmt::Display + 'a {
    DisplayWith(move |f: &mut fmt::Formatter<'_>| {
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                f.write_str(separator)?;
            }
            write!(f, "{item}")?;
        }
        Ok(())
    })
}

/// `names` in backticks, separated by commas: `` `a`, `b` ``.
pub(crate) fn code_list(names: &[String]) -> impl fmt::Display + '_ {
    DisplayWith(move |f: &mut fmt::Formatter<'_>| {
        for (i, name) in names.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "`{name}`")?;
        }
        Ok(())
    })
}

/// The start of a message about an optional property: `` `name` `` and a
/// space, or nothing (the conversion errors).
pub(crate) fn property_prefix(property: &Option<String>) -> impl fmt::Display + '_ {
    DisplayWith(move |f: &mut fmt::Formatter<'_>| match property {
        Some(p) => write!(f, "`{p}` "),
        None => Ok(()),
    })
}

/// What a [`SchemaIssue`] is about: "property `name`", or "the schema" at
/// the object level.
fn subject(property: &Option<String>) -> impl fmt::Display + '_ {
    DisplayWith(move |f: &mut fmt::Formatter<'_>| match property {
        Some(p) => write!(f, "property `{p}`"),
        None => f.write_str("the schema"),
    })
}
