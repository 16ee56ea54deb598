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
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum FieldErrorKind {
    /// A required field is absent or `null`.
    Missing,
    /// The value has the wrong JSON type.
    WrongType {
        /// What the schema asks for (`"a string"`, `"an integer"`, ...).
        expected: &'static str,
        /// What was sent.
        found: JsonKind,
    },
    /// A multi-select item that is not a string.
    WrongItemType {
        /// What the item was.
        found: JsonKind,
    },
    /// An integer field got a number with a fraction (e.g. `2.5`).
    NotAnInteger {
        /// The value sent.
        value: f64,
    },
    /// Below the inclusive `minimum`.
    BelowMinimum {
        /// The bound.
        minimum: Num,
        /// The value sent.
        value: Num,
    },
    /// Above the inclusive `maximum`.
    AboveMaximum {
        /// The bound.
        maximum: Num,
        /// The value sent.
        value: Num,
    },
    /// The value does not fit the Rust field type (e.g. `1e39` for `f32`).
    OutOfTypeRange {
        /// The Rust type.
        rust_type: &'static str,
        /// The value sent.
        value: Num,
    },
    /// Fewer characters than `minLength`.
    TooShort {
        /// The bound, in Unicode scalar values.
        min_length: u32,
        /// The value's length, in Unicode scalar values.
        length: usize,
    },
    /// More characters than `maxLength`.
    TooLong {
        /// The bound, in Unicode scalar values.
        max_length: u32,
        /// The value's length, in Unicode scalar values.
        length: usize,
    },
    /// The value contains no match of `pattern`.
    PatternMismatch {
        /// The pattern source.
        pattern: String,
    },
    /// The value is not valid for its known `format`.
    InvalidFormat {
        /// The format.
        format: Format,
    },
    /// The value is not one of the select's options.
    NotAnOption {
        /// The value sent, cut to 64 characters ([limits](crate::reference::limits)) (then
        /// `…`): an error never copies a huge input.
        value: String,
        /// The allowed values, in order.
        allowed: Vec<String>,
    },
    /// Fewer selected options than `minItems`.
    TooFewItems {
        /// The bound.
        min_items: u64,
        /// How many were selected.
        count: usize,
    },
    /// More selected options than `maxItems`.
    TooManyItems {
        /// The bound.
        max_items: u64,
        /// How many were selected.
        count: usize,
    },
    /// The same option was selected twice.
    DuplicateItem {
        /// The repeated value, cut like [`NotAnOption`](Self::NotAnOption)'s.
        value: String,
    },
    /// The value passed every rule of the schema, but the field's Rust type
    /// refused it when converting: its own parser (a date the type's range
    /// cannot hold, a URL with an invalid port) or a user type's `TryFrom`.
    /// `reason` is that refusal's message, as the type wrote it.
    Refused {
        /// The Rust type that refused the value (`NaiveDate`, `Url`, a
        /// user type's name).
        rust_type: &'static str,
        /// The type's own message (its error's `Display`), cut to
        /// 256 characters ([limits](crate::reference::limits)) (then `…`).
        reason: String,
    },
    /// A rule of the agent's own refused the value: the form's
    /// `#[elicit(check = path)]`, or a call's `.check(..)` (a rule the
    /// client cannot know: across fields, or against the world). `message`
    /// is the rule's, written to follow the field's name (`is already
    /// taken`), cut to 256 characters ([limits](crate::reference::limits))
    /// (then `…`).
    Rule {
        /// What the rule says is wrong.
        message: String,
    },
    /// A key the form does not have (only with `deny_unknown_fields`).
    UnknownField,
    /// A key the form does not have, after 16 ([limits](crate::reference::limits))
    /// others were listed: this one stands for itself and the `more` keys
    /// after it, so hostile content with many keys gives a bounded error.
    UnknownFieldAndMore {
        /// How many more unknown keys follow it.
        more: usize,
    },
    /// The field's own schema cannot be used to check a value: an unknown
    /// property kind, or a pattern the engine refuses.
    Unvalidatable {
        /// Why.
        reason: String,
    },
}

impl std::fmt::Display for FieldErrorKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Missing => f.write_str("is required but missing"),
            Self::WrongType { expected, found } => write!(f, "must be {expected}, got {found}"),
            Self::WrongItemType { found } => write!(
                f,
                "must list options as strings, got an item that is {found}"
            ),
            Self::NotAnInteger { value } => write!(f, "must be a whole number, got {value}"),
            Self::BelowMinimum { minimum, value } => {
                write!(f, "must be at least {minimum}, got {value}")
            }
            Self::AboveMaximum { maximum, value } => {
                write!(f, "must be at most {maximum}, got {value}")
            }
            Self::OutOfTypeRange { rust_type, value } => {
                write!(f, "must fit in {rust_type}, got {value}")
            }
            Self::TooShort { min_length, length } => write!(
                f,
                "must be at least {min_length} character{}, got {length}",
                plural(u64::from(*min_length))
            ),
            Self::TooLong { max_length, length } => write!(
                f,
                "must be at most {max_length} character{}, got {length}",
                plural(u64::from(*max_length))
            ),
            Self::PatternMismatch { pattern } => write!(f, "must match the pattern `{pattern}`"),
            Self::InvalidFormat { format } => write!(f, "must be a valid {format}"),
            Self::NotAnOption { value, allowed } => {
                write!(f, "must be one of {}, got `{value}`", code_list(allowed))
            }
            Self::TooFewItems { min_items, count } => write!(
                f,
                "must select at least {min_items} option{}, got {count}",
                plural(*min_items)
            ),
            Self::TooManyItems { max_items, count } => write!(
                f,
                "must select at most {max_items} option{}, got {count}",
                plural(*max_items)
            ),
            Self::DuplicateItem { value } => write!(f, "selects `{value}` more than once"),
            Self::Refused { rust_type, reason } => {
                write!(f, "is not a valid `{rust_type}`: {reason}")
            }
            Self::Rule { message } => f.write_str(message),
            Self::UnknownField => f.write_str("is not a field of this form"),
            Self::UnknownFieldAndMore { more } => write!(
                f,
                "is not a field of this form, nor are {more} more key{} (not listed)",
                plural(*more as u64)
            ),
            Self::Unvalidatable { reason } => write!(f, "cannot be checked: {reason}"),
        }
    }
}

impl std::error::Error for FieldErrorKind {}

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
#[derive(Debug, Clone, PartialEq)]
pub struct FieldError {
    field: String,
    kind: FieldErrorKind,
}

impl std::fmt::Display for FieldError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self { field, kind } => write!(f, "`{field}` {kind}"),
        }
    }
}

impl FieldError {
    /// An error for the field with wire name `field`.
    pub fn new(field: impl Into<String>, kind: FieldErrorKind) -> Self {
        Self {
            field: field.into(),
            kind,
        }
    }

    /// A rule of your own that the field `field` (its wire name) breaks:
    /// what a form's `#[elicit(check = path)]` and a call's `.check(..)`
    /// return. `message` follows the field's name in every message and on
    /// the page, so write it as the rest of a sentence; it is cut to 256
    /// characters ([limits](crate::reference::limits)).
    ///
    /// ```
    /// use elicit_core::{ContentError, FieldError};
    ///
    /// let error: ContentError = FieldError::rule("end", "must not be before `start`").into();
    /// assert_eq!(error.to_string(), "invalid form content: `end` must not be before `start`");
    /// ```
    pub fn rule(field: impl Into<String>, message: impl fmt::Display) -> Self {
        Self::new(
            field,
            FieldErrorKind::Rule {
                message: excerpt(&message.to_string(), MAX_REASON_CHARS),
            },
        )
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
#[derive(Debug, Clone, PartialEq)]
pub struct ContentError {
    errors: Vec<FieldError>,
}

impl std::fmt::Display for ContentError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self { errors } => write!(f, "invalid form content: {}", separated(errors, "; ")),
        }
    }
}

impl std::error::Error for ContentError {}

/// One field's error is content that breaks the form's rules: what a check
/// returns with `?` or `.into()`.
impl From<FieldError> for ContentError {
    fn from(error: FieldError) -> Self {
        Self::new(vec![error])
    }
}

impl ContentError {
    /// An error from its field errors.
    pub fn new(errors: Vec<FieldError>) -> Self {
        Self { errors }
    }

    /// The message that asks again after this refused answer: the original
    /// message, then every field error, by wire name. Every flow's
    /// `.retry(n)` sends it; a loop of your own can too.
    ///
    /// ```
    /// use elicit_core::{ContentError, FieldError, FieldErrorKind};
    ///
    /// let errors = ContentError::new(vec![FieldError::new("replicas", FieldErrorKind::Missing)]);
    /// assert_eq!(
    ///     errors.retry_message("How should I deploy?"),
    ///     "How should I deploy?\n\nThe previous answer was not accepted: `replicas` is \
    ///      required but missing. Please correct it."
    /// );
    /// ```
    pub fn retry_message(&self, original: &str) -> String {
        format!(
            "{original}\n\nThe previous answer was not accepted: {}. Please correct it.",
            separated(&self.errors, "; ")
        )
    }

    /// Every failing field, in form order.
    pub fn errors(&self) -> &[FieldError] {
        &self.errors
    }

    /// The failing fields' wire names, in form order.
    pub fn fields(&self) -> impl Iterator<Item = &str> {
        self.errors.iter().map(FieldError::field)
    }

    /// Every failing field, owned: a form's `check` adds its errors to the
    /// field rules' (`__private::run_check`).
    pub(crate) fn into_errors(self) -> Vec<FieldError> {
        self.errors
    }
}

// ---------------------------------------------------------------------------
// Schema errors

/// Why a schema is not a usable restricted form schema.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum SchemaErrorKind {
    /// A property type this crate does not know (kept raw, but not
    /// renderable as a form control). `object` lands here: forms are flat.
    UnknownPropertyType {
        /// The wire `type`.
        type_: String,
    },
    /// Multi-select `items` of an unknown kind.
    UnknownItemsType,
    /// A lower bound above its upper bound.
    BoundsReversed {
        /// `minimum`, `minLength` or `minItems`.
        min_key: &'static str,
        /// The lower bound.
        min: Num,
        /// The upper bound.
        max: Num,
    },
    /// The `default` breaks the property's own rules.
    InvalidDefault {
        /// The rule the default breaks.
        reason: FieldErrorKind,
    },
    /// A select with no options.
    NoOptions,
    /// The same option value twice.
    DuplicateOption {
        /// The repeated value.
        value: String,
    },
    /// Multi-select `minItems` above the number of options: no answer is valid.
    MinItemsAboveOptions {
        /// `minItems`.
        min_items: u64,
        /// How many options there are.
        options: usize,
    },
    /// `required` names a property that does not exist.
    RequiredNotAProperty,
    /// `required` names the same property twice.
    DuplicateRequired,
    /// Two properties with the same name (e.g. through `flatten`).
    DuplicateProperty,
    /// The pattern is longer than 1024 bytes ([limits](crate::reference::limits)).
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
    InvalidPattern {
        /// The pattern source.
        pattern: String,
        /// Why, where, and what to write instead.
        reason: String,
    },
}

impl std::fmt::Display for SchemaErrorKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::UnknownPropertyType { type_ } => write!(
                f,
                "has unknown type `{type_}`: it is kept but cannot be rendered as a form control \
         (forms are flat: string, number, integer, boolean, or an array multi-select)"
            ),
            Self::UnknownItemsType => f.write_str(
                "is a multi-select whose `items` kind is unknown and cannot be rendered",
            ),
            Self::BoundsReversed { min_key, min, max } => {
                write!(f, "has `{min_key}` {min} above its upper bound {max}")
            }
            Self::InvalidDefault { reason } => write!(f, "has a default that {reason}"),
            Self::NoOptions => f.write_str("is a select with no options"),
            Self::DuplicateOption { value } => write!(f, "lists the option `{value}` twice"),
            Self::MinItemsAboveOptions { min_items, options } => write!(
                f,
                "requires at least {min_items} selected options but has only {options}"
            ),
            Self::RequiredNotAProperty => f.write_str("is required but is not a property"),
            Self::DuplicateRequired => f.write_str("is listed twice in `required`"),
            Self::DuplicateProperty => f.write_str("is defined twice"),
            Self::PatternTooLong { len, max } => {
                write!(f, "has a pattern of {len} bytes; the limit is {max}")
            }
            Self::InvalidPattern { pattern, reason } => {
                write!(f, "has a pattern `{pattern}` that cannot be used: {reason}")
            }
        }
    }
}

impl std::error::Error for SchemaErrorKind {}

/// One problem found in a schema.
#[derive(Debug, Clone, PartialEq)]
pub struct SchemaIssue {
    property: Option<String>,
    kind: SchemaErrorKind,
}

impl std::fmt::Display for SchemaIssue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self { property, kind } => write!(f, "{} {kind}", subject(property)),
        }
    }
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
#[derive(Debug, Clone, PartialEq)]
pub struct SchemaError {
    issues: Vec<SchemaIssue>,
}

impl std::fmt::Display for SchemaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self { issues } => write!(f, "invalid elicitation schema: {}", separated(issues, "; ")),
        }
    }
}

impl std::error::Error for SchemaError {}

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

/// A form that cannot be rendered: its schema fails
/// [`ElicitationSchema::check`](crate::ElicitationSchema::check) (a property of an unknown type, which no
/// control is guessed for, a nested object, contradictory bounds, ...).
/// The one error for it: the client's guard refuses such a request with it
/// ([`ClientConnection::receive`](crate::protocol::client::ClientConnection::receive), `-32602` with `data.notRenderable`),
/// and the page of a sensitive elicitation is not opened for it
/// (`sensitive::PageForm::render`).
#[derive(Debug, Clone, PartialEq)]
pub struct NotRenderable {
    error: SchemaError,
}

impl std::fmt::Display for NotRenderable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self { error } => write!(
                f,
                "the form cannot be rendered, and no control is guessed for it: {error}"
            ),
        }
    }
}

impl std::error::Error for NotRenderable {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self { error } => Some(error),
        }
    }
}

impl NotRenderable {
    /// The form whose schema fails with `error`.
    pub(crate) fn new(error: SchemaError) -> Self {
        Self { error }
    }

    /// `property`, of the wire type `type_`, has no control.
    #[cfg_attr(not(feature = "sensitive"), allow(dead_code))]
    pub(crate) fn unknown_type(property: &str, type_: &str) -> Self {
        let kind = SchemaErrorKind::UnknownPropertyType {
            type_: type_.to_owned(),
        };
        Self::new(SchemaError::single(Some(property.to_owned()), kind))
    }

    /// `property` is a multi-select whose `items` have no control.
    #[cfg_attr(not(feature = "sensitive"), allow(dead_code))]
    pub(crate) fn unknown_items(property: &str) -> Self {
        let kind = SchemaErrorKind::UnknownItemsType;
        Self::new(SchemaError::single(Some(property.to_owned()), kind))
    }

    /// Every problem found.
    pub fn error(&self) -> &SchemaError {
        &self.error
    }

    /// The properties of an unknown type (or unknown multi-select `items`),
    /// with the wire type: these have no control to render them with.
    pub fn unknown_types(&self) -> Vec<(&str, &str)> {
        self.error
            .issues()
            .iter()
            .filter_map(|issue| {
                let property = issue.property()?;
                match issue.kind() {
                    SchemaErrorKind::UnknownPropertyType { type_ } => {
                        Some((property, type_.as_str()))
                    }
                    SchemaErrorKind::UnknownItemsType => Some((property, "array")),
                    _ => None,
                }
            })
            .collect()
    }
}
