//! What can fail converting between elicit's model and the SDK's types, and
//! reading the SDK's responses as typed outcomes.

use crate::error::{ContentError, JsonKind, code_list, property_prefix};
use crate::protocol::agent::UrlOutcomeError;

/// A value that one side of a conversion cannot hold. Names the property (or
/// content field) where there is one.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{}{kind}", property_prefix(.property))]
pub struct ConversionError {
    property: Option<String>,
    kind: ConversionErrorKind,
}

impl ConversionError {
    /// An error not tied to a property.
    pub fn new(kind: ConversionErrorKind) -> Self {
        Self {
            property: None,
            kind,
        }
    }

    /// An error at the property (or content field) `name`.
    pub fn at(name: impl Into<String>, kind: ConversionErrorKind) -> Self {
        Self {
            property: Some(name.into()),
            kind,
        }
    }

    /// The property or content field's wire name, if the error is about one.
    pub fn property(&self) -> Option<&str> {
        self.property.as_deref()
    }

    /// What cannot be converted.
    pub fn kind(&self) -> &ConversionErrorKind {
        &self.kind
    }

    pub(super) fn in_property(mut self, name: &str) -> Self {
        self.property.get_or_insert_with(|| name.to_owned());
        self
    }
}

/// Why a value cannot be converted.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ConversionErrorKind {
    /// A string `format` other than `email`, `uri`, `date` and `date-time`:
    /// the SDK's `StringFormat` is a closed enum.
    #[error(
        "has format `{format}`, which `agent-client-protocol-schema` cannot hold: its \
         `StringFormat` knows only `email`, `uri`, `date` and `date-time`, and a client \
         built on it fails to parse the whole request; use one of those or no format"
    )]
    CustomFormat {
        /// The format.
        format: String,
    },
    /// A property name that appears twice: the SDK keeps properties in a map.
    #[error(
        "appears twice (e.g. through `flatten`); the SDK keeps properties in a map, so \
         one would be lost"
    )]
    DuplicateProperty,
    /// A string property with both `enum` and `oneOf`.
    #[error("has both `enum` and `oneOf`; a single-select has one kind of options")]
    EnumAndOneOf,
    /// Multi-select `items` of an unknown kind without a string `type`.
    #[error("has multi-select `items` of an unknown kind without a string `type`")]
    UntypedItems,
    /// A content value that is not a form value (string, integer, number,
    /// boolean or array of strings).
    #[error(
        "holds {found}, which is not a form value (a string, integer, number, boolean \
         or array of strings)"
    )]
    NotAFormValue {
        /// What the value is.
        found: JsonKind,
    },
    /// A content integer beyond the SDK's `i64`.
    #[error("holds {value}, beyond the 64-bit integers the SDK's content holds")]
    IntegerOutOfRange {
        /// The value.
        value: u64,
    },
    /// A non-finite number (NaN or infinity), which JSON cannot carry.
    #[error("holds {value}, which JSON cannot carry")]
    NonFiniteNumber {
        /// The value.
        value: f64,
    },
    /// Fields the SDK's type has no place for (elicit keeps unknown fields of
    /// capability objects; the SDK does not).
    #[error(
        "`{object}` has fields the SDK's type cannot hold: {}",
        code_list(.fields)
    )]
    UnknownFields {
        /// The object: `"elicitation"`, `"elicitation.form"` or `"elicitation.url"`.
        object: &'static str,
        /// The field names.
        fields: Vec<String>,
    },
    /// An "other" (extension) mode or action whose name is a known one. Only
    /// possible when built by hand; never read as the known one.
    #[error(
        "is an extension value named `{name}`, which is a known one: build the known \
         variant instead"
    )]
    KnownNameInOther {
        /// The name.
        name: String,
    },
    /// A variant the SDK added after the version elicit was built against,
    /// whose JSON elicit cannot read.
    #[error(
        "has a {what} that this version of elicit-core does not know and cannot read: \
         {reason}"
    )]
    UnknownVariant {
        /// Which type: `"scope"`, `"mode"`, `"property schema"`, ...
        what: &'static str,
        /// Why it could not be read.
        reason: String,
    },
}

/// Why an SDK response could not be read as a form's [`Outcome`](crate::protocol::agent::Outcome).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum OutcomeError {
    /// The response holds something elicit's model cannot (see
    /// [`ConversionError`]).
    #[error("unreadable elicitation response: {0}")]
    Conversion(#[from] ConversionError),
    /// The accepted content breaks the form's rules: ask again or fail.
    // Not `transparent`: `source()` is the `ContentError` itself.
    #[error("{0}")]
    Invalid(#[from] ContentError),
}

/// Why an SDK response could not be read as a URL elicitation's
/// [`UrlOutcome`](crate::protocol::agent::UrlOutcome).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum UrlResponseError {
    /// The response holds something elicit's model cannot.
    #[error("unreadable elicitation response: {0}")]
    Conversion(#[source] ConversionError),
    /// The connection refused it (see [`UrlOutcomeError`]).
    // Not `transparent`: `source()` is the `UrlOutcomeError` itself.
    #[error("{0}")]
    Outcome(#[source] UrlOutcomeError),
}
