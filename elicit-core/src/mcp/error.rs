//! What can fail converting a schema to MCP's shape, and reading rmcp's
//! `ElicitResult` as a typed outcome.

use crate::error::{ContentError, JsonKind, property_prefix};

/// A schema that cannot be sent over MCP. Names the property where there is
/// one.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{}{kind}", property_prefix(.property))]
pub struct ConversionError {
    property: Option<String>,
    kind: ConversionErrorKind,
}

impl ConversionError {
    /// An error at the property `name`.
    pub fn at(name: impl Into<String>, kind: ConversionErrorKind) -> Self {
        Self {
            property: Some(name.into()),
            kind,
        }
    }

    /// The property's wire name, if the error is about one.
    pub fn property(&self) -> Option<&str> {
        self.property.as_deref()
    }

    /// What cannot be sent.
    pub fn kind(&self) -> &ConversionErrorKind {
        &self.kind
    }
}

/// Why a schema cannot be sent over MCP.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ConversionErrorKind {
    /// A string `format` other than `email`, `uri`, `date` and `date-time`.
    #[error(
        "has format `{format}`, which MCP does not allow: use `email`, `uri`, `date`, \
         `date-time` or no format"
    )]
    CustomFormat {
        /// The format.
        format: String,
    },
    /// A property type MCP does not have.
    #[error(
        "has type `{type_}`, which MCP forms do not have (string, number, integer, \
         boolean, single- and multi-select)"
    )]
    UnknownPropertyType {
        /// The wire `type`.
        type_: String,
    },
    /// Multi-select `items` of an unknown kind.
    #[error("is a multi-select with `items` of a kind MCP does not have")]
    UnknownItems,
    /// A property name that appears twice.
    #[error("appears twice (e.g. through `flatten`)")]
    DuplicateProperty,
    /// rmcp's enum builder refused the select (a default that is not an
    /// option, `minItems` above `maxItems`, a default outside the bounds).
    #[error("is refused by rmcp: {reason}")]
    Rejected {
        /// rmcp's reason.
        reason: String,
    },
}

/// Why an rmcp `ElicitResult` could not be read as a form's [`Outcome`](crate::protocol::agent::Outcome).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum OutcomeError {
    /// `accept` came with `content` that is not a JSON object.
    #[error("the accepted `content` must be an object, got {found}")]
    ContentNotAnObject {
        /// What it was.
        found: JsonKind,
    },
    /// The accepted content breaks the form's rules (including a `pattern`
    /// the MCP client could not check): ask again or fail.
    // Not `transparent`: `source()` is the `ContentError` itself.
    #[error("{0}")]
    Invalid(#[from] ContentError),
    /// An action rmcp added after the version elicit was built against, whose
    /// name elicit cannot read.
    #[error("unreadable elicitation action: {reason}")]
    UnreadableAction {
        /// Why.
        reason: String,
    },
}
