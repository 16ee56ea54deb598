//! What can fail converting between elicit's model and another library's
//! types (the ACP SDK's, rmcp's), and reading their answers as typed
//! outcomes: one error for every protocol.

use crate::error::{ContentError, JsonKind, code_list, property_prefix};

/// A value that one side of a conversion cannot hold: elicit's model and the
/// ACP SDK's types (`TryFrom` both ways), or rmcp's MCP types. Names the
/// property (or content field) where there is one.
#[derive(Debug, Clone, PartialEq)]
pub struct ConversionError {
    property: Option<String>,
    kind: ConversionErrorKind,
}

impl std::fmt::Display for ConversionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self { property, kind } => write!(f, "{}{kind}", property_prefix(property)),
        }
    }
}

impl std::error::Error for ConversionError {}

impl ConversionError {
    /// An error not tied to a property.
    #[cfg(any(feature = "acp", feature = "rmcp"))]
    pub(crate) fn new(kind: ConversionErrorKind) -> Self {
        Self {
            property: None,
            kind,
        }
    }

    /// An error at the property (or content field) `name`.
    #[cfg(any(feature = "acp", feature = "rmcp"))]
    pub(crate) fn at(name: impl Into<String>, kind: ConversionErrorKind) -> Self {
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

    /// The error at `name`, unless it names a property already.
    #[cfg_attr(not(feature = "acp"), allow(dead_code))]
    pub(crate) fn in_property(mut self, name: &str) -> Self {
        self.property.get_or_insert_with(|| name.to_owned());
        self
    }
}

/// Why a value cannot be converted. Where only one protocol's types refuse
/// it, the message names them.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ConversionErrorKind {
    /// A string `format` other than `email`, `uri`, `date` and `date-time`:
    /// MCP allows no other, and the ACP SDK's `StringFormat` is a closed
    /// enum (a client built on it fails to parse the whole request).
    CustomFormat {
        /// The format.
        format: String,
    },
    /// A property name that appears twice: the other side keeps properties
    /// in a map.
    DuplicateProperty,
    /// A string property with both `enum` and `oneOf`.
    EnumAndOneOf,
    /// Multi-select `items` of a kind the other side does not have (without
    /// a string `type`, or neither `enum` nor `anyOf`).
    UnknownItems,
    /// A property type the other side does not have.
    UnknownPropertyType {
        /// The wire `type`.
        type_: String,
    },
    /// rmcp's enum builder refused the select (a default that is not an
    /// option, `minItems` above `maxItems`, a default outside the bounds).
    Rejected {
        /// rmcp's reason.
        reason: String,
    },
    /// `accept` came with `content` that is not a JSON object.
    ContentNotAnObject {
        /// What it was.
        found: JsonKind,
    },
    /// A content value that is not a form value (string, integer, number,
    /// boolean or array of strings).
    NotAFormValue {
        /// What the value is.
        found: JsonKind,
    },
    /// A content integer beyond the ACP SDK's `i64`.
    IntegerOutOfRange {
        /// The value.
        value: u64,
    },
    /// A non-finite number (NaN or infinity), which JSON cannot carry.
    NonFiniteNumber {
        /// The value.
        value: f64,
    },
    /// Fields the ACP SDK's type has no place for (elicit keeps unknown
    /// fields of capability objects; the SDK does not).
    UnknownFields {
        /// The object: `"elicitation"`, `"elicitation.form"` or `"elicitation.url"`.
        object: &'static str,
        /// The field names.
        fields: Vec<String>,
    },
    /// An "other" (extension) mode or action whose name is a known one. Only
    /// possible when built by hand; never read as the known one.
    KnownNameInOther {
        /// The name.
        name: String,
    },
    /// A variant the other library added after the version elicit was
    /// built against, whose JSON elicit cannot read.
    UnknownVariant {
        /// Which type: `"scope"`, `"mode"`, `"action"`, `"property schema"`, ...
        what: &'static str,
        /// Why it could not be read.
        reason: String,
    },
}

impl std::fmt::Display for ConversionErrorKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::CustomFormat { format } => write!(f, "has format `{format}`, which neither MCP nor the ACP SDK's `StringFormat` allows \
         (they know only `email`, `uri`, `date` and `date-time`); use one of those or no \
         format"),
            Self::DuplicateProperty => f.write_str("appears twice (e.g. through `flatten`); properties are kept in a map, so one would \
         be lost"),
            Self::EnumAndOneOf => f.write_str("has both `enum` and `oneOf`; a single-select has one kind of options"),
            Self::UnknownItems => f.write_str("is a multi-select with `items` of a kind the other side does not have"),
            Self::UnknownPropertyType { type_ } => write!(f, "has type `{type_}`, which elicitation forms do not have (string, number, integer, \
         boolean, single- and multi-select)"),
            Self::Rejected { reason } => write!(f, "is refused by rmcp: {reason}"),
            Self::ContentNotAnObject { found } => write!(f, "the accepted `content` must be an object, got {found}"),
            Self::NotAFormValue { found } => write!(f, "holds {found}, which is not a form value (a string, integer, number, boolean \
         or array of strings)"),
            Self::IntegerOutOfRange { value } => write!(f, "holds {value}, beyond the 64-bit integers the ACP SDK's content holds"),
            Self::NonFiniteNumber { value } => write!(f, "holds {value}, which JSON cannot carry"),
            Self::UnknownFields { object, fields } => write!(f, "`{object}` has fields the ACP SDK's type cannot hold: {}", code_list(fields)),
            Self::KnownNameInOther { name } => write!(f, "is an extension value named `{name}`, which is a known one: build the known \
         variant instead"),
            Self::UnknownVariant { what, reason } => write!(f, "has a {what} that this version of elicit-core does not know and cannot read: \
         {reason}"),
        }
    }
}

/// Why another library's answer to a form (the ACP SDK's
/// `CreateElicitationResponse`, rmcp's `ElicitResult`) could not be read as
/// the form's [`Outcome`](crate::protocol::agent::Outcome).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum OutcomeError {
    /// The answer holds something elicit's model cannot (see
    /// [`ConversionError`]): a client fault, not the user's.
    Conversion(ConversionError),
    /// The accepted content breaks the form's rules (including a `pattern`
    /// an MCP client could not check): ask again or fail.
    // Not `transparent`: `source()` is the `ContentError` itself.
    Invalid(ContentError),
}

impl From<ConversionError> for OutcomeError {
    fn from(e: ConversionError) -> Self {
        Self::Conversion(e)
    }
}

impl From<ContentError> for OutcomeError {
    fn from(e: ContentError) -> Self {
        Self::Invalid(e)
    }
}

impl std::fmt::Display for OutcomeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Conversion(e) => write!(f, "unreadable elicitation response: {e}"),
            Self::Invalid(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for OutcomeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Conversion(e) => Some(e),
            Self::Invalid(e) => Some(e),
        }
    }
}
