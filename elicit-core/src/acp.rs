//! Conversions between elicit's wire model and the official ACP Rust types,
//! `agent-client-protocol-schema`'s `v1` elicitation types (feature `acp`).
//!
//! The official SDK (`agent-client-protocol`) re-exports those types, so an
//! agent or client built on it hands them to elicit and back:
//!
//! | elicit | `agent_client_protocol_schema::v1` | ours -> SDK | SDK -> ours |
//! |---|---|---|---|
//! | [`ElicitationSchema`] | `ElicitationSchema` | `TryFrom` | `TryFrom` |
//! | [`PropertySchema`] | `ElicitationPropertySchema` | `TryFrom` | `TryFrom` |
//! | [`StringSchema`] | `StringPropertySchema` | `TryFrom` | `TryFrom` |
//! | [`NumberSchema`], [`IntegerSchema`], [`BooleanSchema`] | `NumberPropertySchema`, `IntegerPropertySchema`, `BooleanPropertySchema` | `From` | `From` |
//! | [`MultiSelectSchema`] | `MultiSelectPropertySchema` | `TryFrom` | `TryFrom` |
//! | [`OtherSchema`] | `OtherElicitationPropertySchema` | `From` | `From` |
//! | [`EnumOption`] | `EnumOption` | `From` | `From` |
//! | [`Format`] | `StringFormat` | `TryFrom` | `From` |
//! | [`ElicitationCapabilities`] | `ElicitationCapabilities` | `TryFrom` | `From` |
//! | [`CreateElicitationRequest`] | `CreateElicitationRequest` | `TryFrom` | `TryFrom` |
//! | [`CreateElicitationResponse`] | `CreateElicitationResponse` | `TryFrom` | `TryFrom` |
//! | [`CompleteElicitationNotification`] | `CompleteElicitationNotification` | `From` | `From` |
//! | [`ElicitationScope`], [`RequestId`], [`ElicitationId`] | `ElicitationScope`, `RequestId`, `ElicitationId` | `From` | `TryFrom` / `From` / `From` |
//!
//! Every conversion is lossless where both sides can hold the value, and
//! refuses with a typed [`ConversionError`] where they cannot. Nothing is
//! silently dropped, with the exceptions listed below. And for the agent:
//! [`outcome`] reads the SDK's `CreateElicitationResponse` straight into a
//! typed [`Outcome<T>`], validated again with `T::from_content`.
//!
//! ```
//! use agent_client_protocol_schema::v1 as acp;
//! use elicit_core::{Elicit, ElicitationSchema, Outcome};
//!
//! #[derive(Elicit, Debug, PartialEq)]
//! #[elicit(rename_all = "lowercase")]
//! enum Strategy { Conservative, Balanced, Aggressive }
//!
//! #[derive(Elicit, Debug, PartialEq)]
//! struct Refactor { strategy: Strategy }
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // The form's schema as the SDK's type, for its `CreateElicitationRequest`:
//! let schema = acp::ElicitationSchema::try_from(Refactor::schema())?;
//! assert!(schema.properties.contains_key("strategy"));
//!
//! // The client's answer, as the SDK parsed it, into the typed outcome:
//! let response: acp::CreateElicitationResponse = serde_json::from_str(
//!     r#"{"action": "accept", "content": {"strategy": "balanced"}}"#,
//! )?;
//! let outcome = elicit_core::acp::outcome::<Refactor>(&response)?;
//! assert_eq!(outcome, Outcome::Accepted(Refactor { strategy: Strategy::Balanced }));
//!
//! // And back, for a schema that came from the SDK:
//! let ours = ElicitationSchema::try_from(schema)?;
//! assert_eq!(ours, Refactor::schema());
//! # Ok(())
//! # }
//! ```
//!
//! # What the SDK's types cannot hold
//!
//! - **Property order.** The SDK stores `properties` in a `BTreeMap`: converting
//!   to the SDK loses the declaration order, and converting back gives the
//!   properties in alphabetical order (compare by name, not by position).
//!   Everything else about each property survives the round trip. A client
//!   built on the SDK renders the fields alphabetically, whatever the agent
//!   sent; send elicit's own [`ElicitationSchema`] (it serializes to the same
//!   JSON, in order) where the order matters.
//! - **Custom `format`s.** The SDK's `StringFormat` is a closed enum of
//!   `email`, `uri`, `date` and `date-time`, although the protocol says other
//!   formats are annotations to keep. A [`Format::Other`] is refused with
//!   [`ConversionErrorKind::CustomFormat`]: a client built on the SDK would
//!   fail to parse the whole request.
//! - **Duplicate property names** (possible through `flatten`, reported by
//!   [`ElicitationSchema::check`]): a map keeps one, so they are refused.
//! - **Unknown fields of capability objects** (kept by elicit, not by the
//!   SDK): refused with [`ConversionErrorKind::UnknownFields`].
//! - **Content values that are not form values** (a nested object, an array
//!   with non-strings, an integer beyond `i64`): refused. `null` values in
//!   content are left out: they are not form values either, and for a form an
//!   absent field and a `null` one mean the same.
//!
//! In the other direction, the SDK's multi-select `items` of a kind elicit
//! knows (string `enum`, titled `anyOf`) may carry `_meta`, which elicit's
//! model has no place for; it is dropped, exactly as elicit drops it when
//! reading the same JSON. Items of a kind elicit does not know are kept raw,
//! `_meta` included, like a property of an unknown type. A string property
//! with both `enum` and `oneOf` (the SDK's type allows it, the protocol does
//! not) is refused.
//! An SDK "other" mode or action whose name is a known one (possible only
//! when built by hand) is refused, never read as the known one.

use std::collections::BTreeMap;
use std::sync::Arc;

use agent_client_protocol_schema::v1 as sdk;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Number, Value};

use crate::error::{ContentError, JsonKind, code_list, property_prefix};
use crate::protocol::agent::{AgentConnection, PendingForm, PendingUrl, UrlOutcomeError};
use crate::protocol::client::{ClientConnection, Incoming};
use crate::protocol::{
    CompleteElicitationNotification, CreateElicitationRequest, CreateElicitationResponse,
    ElicitationAction, ElicitationCapabilities, ElicitationId, ElicitationMode, ElicitationScope,
    JsonRpcError, ModeCapabilities, OtherAction, OtherMode, Outcome, RequestId, UrlOutcome,
};
use crate::schema::{
    BooleanSchema, ElicitationSchema, EnumOption, Format, IntegerSchema, Items, MultiSelectSchema,
    NumberSchema, Options, OtherSchema, Pattern, Properties, PropertySchema, StringSchema,
};
use crate::{Content, Elicit};

// ---------------------------------------------------------------------------
// Errors

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

    fn in_property(mut self, name: &str) -> Self {
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

/// Why an SDK response could not be read as a form's [`Outcome`].
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
/// [`UrlOutcome`].
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum UrlOutcomeAcpError {
    /// The response holds something elicit's model cannot.
    #[error("unreadable elicitation response: {0}")]
    Conversion(#[source] ConversionError),
    /// The connection refused it (see [`UrlOutcomeError`]).
    // Not `transparent`: `source()` is the `UrlOutcomeError` itself.
    #[error("{0}")]
    Outcome(#[source] UrlOutcomeError),
}

// ---------------------------------------------------------------------------
// Typed outcomes straight from the SDK

/// Reads the SDK's `CreateElicitationResponse` to a form request as a typed
/// [`Outcome`]: `accept` content is validated again with `T::from_content`
/// (omitted content is an empty form), `decline` and `cancel` map to their
/// variants, and an unknown action to [`Outcome::UnknownAction`] (a failure,
/// never one of the three).
///
/// ```
/// use agent_client_protocol_schema::v1 as acp;
/// use elicit_core::{Elicit, Outcome};
///
/// #[derive(Elicit, Debug, PartialEq)]
/// struct Confirm { ok: bool }
///
/// let decline = acp::CreateElicitationResponse::new(acp::ElicitationAction::Decline);
/// assert_eq!(elicit_core::acp::outcome::<Confirm>(&decline).unwrap(), Outcome::Declined);
/// ```
pub fn outcome<T: Elicit>(
    response: &sdk::CreateElicitationResponse,
) -> Result<Outcome<T>, OutcomeError> {
    let response = CreateElicitationResponse::try_from(response)?;
    Ok(Outcome::from_response(&response)?)
}

impl<T: Elicit> Outcome<T> {
    /// Reads the SDK's response: see [`outcome`].
    pub fn from_acp(response: &sdk::CreateElicitationResponse) -> Result<Self, OutcomeError> {
        outcome(response)
    }
}

impl<T: Elicit> PendingForm<T> {
    /// Reads the SDK's response to this form: see [`outcome`].
    pub fn acp_outcome(
        self,
        response: &sdk::CreateElicitationResponse,
    ) -> Result<Outcome<T>, OutcomeError> {
        outcome(response)
    }
}

impl AgentConnection {
    /// The state for a client whose `initialize` request carried these SDK
    /// `ClientCapabilities` (their `elicitation` field decides the modes).
    pub fn from_acp_client_capabilities(capabilities: &sdk::ClientCapabilities) -> Self {
        Self::new(
            capabilities
                .elicitation
                .as_ref()
                .map(ElicitationCapabilities::from),
        )
    }

    /// Reads the SDK's response to a URL request: see
    /// [`url_outcome`](AgentConnection::url_outcome).
    pub fn acp_url_outcome(
        &mut self,
        pending: PendingUrl,
        response: &sdk::CreateElicitationResponse,
    ) -> Result<UrlOutcome, UrlOutcomeAcpError> {
        let response = CreateElicitationResponse::try_from(response)
            .map_err(UrlOutcomeAcpError::Conversion)?;
        self.url_outcome(pending, &response)
            .map_err(UrlOutcomeAcpError::Outcome)
    }
}

impl ClientConnection {
    /// A client advertising these SDK capabilities (`None`: no elicitation).
    pub fn from_acp_capabilities(capabilities: Option<&sdk::ElicitationCapabilities>) -> Self {
        Self::new(capabilities.map(ElicitationCapabilities::from))
    }

    /// The guard for an `elicitation/create` request the SDK parsed: see
    /// [`receive`](ClientConnection::receive). A request elicit cannot
    /// represent is answered with `-32602`, like a malformed one.
    pub fn receive_acp(
        &mut self,
        request: &sdk::CreateElicitationRequest,
    ) -> Result<Incoming, JsonRpcError> {
        let request = CreateElicitationRequest::try_from(request).map_err(|e| {
            JsonRpcError::invalid_params(format!("Invalid params: elicitation/create: {e}"))
        })?;
        self.receive(request)
    }
}

// ---------------------------------------------------------------------------
// Helpers

/// Reads a value of an SDK variant added after 1.17 through its JSON.
fn via_json<T: DeserializeOwned>(
    value: &impl Serialize,
    what: &'static str,
) -> Result<T, ConversionError> {
    serde_json::to_value(value)
        .and_then(serde_json::from_value)
        .map_err(|e| {
            ConversionError::new(ConversionErrorKind::UnknownVariant {
                what,
                reason: e.to_string(),
            })
        })
}

/// A JSON object of an SDK variant added after 1.17.
fn json_object(
    value: &impl Serialize,
    what: &'static str,
) -> Result<Map<String, Value>, ConversionError> {
    match serde_json::to_value(value) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(other) => Err(ConversionError::new(ConversionErrorKind::UnknownVariant {
            what,
            reason: format!("its JSON is {}, not an object", JsonKind::of(&other)),
        })),
        Err(e) => Err(ConversionError::new(ConversionErrorKind::UnknownVariant {
            what,
            reason: e.to_string(),
        })),
    }
}

fn to_btree(map: &Map<String, Value>, without: &str) -> BTreeMap<String, Value> {
    map.iter()
        .filter(|(k, _)| *k != without)
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// `fields` with `type` first, as elicit keeps raw kinds.
fn with_type(type_: &str, fields: &BTreeMap<String, Value>) -> Map<String, Value> {
    let mut map = Map::new();
    map.insert("type".to_owned(), Value::String(type_.to_owned()));
    for (k, v) in fields {
        if k != "type" {
            map.insert(k.clone(), v.clone());
        }
    }
    map
}

/// The by-value conversion, forwarding to the by-reference one (every
/// conversion here is written once, on references).
macro_rules! by_value {
    ($(#[$doc:meta])* From<$from:ty> for $to:ty) => {
        $(#[$doc])*
        impl From<$from> for $to {
            fn from(value: $from) -> Self {
                Self::from(&value)
            }
        }
    };
    ($(#[$doc:meta])* TryFrom<$from:ty> for $to:ty, $error:ty) => {
        $(#[$doc])*
        impl TryFrom<$from> for $to {
            type Error = $error;
            fn try_from(value: $from) -> Result<Self, $error> {
                Self::try_from(&value)
            }
        }
    };
}

// ---------------------------------------------------------------------------
// Formats and options

by_value!(TryFrom<Format> for sdk::StringFormat, ConversionError);

impl TryFrom<&Format> for sdk::StringFormat {
    type Error = ConversionError;
    fn try_from(format: &Format) -> Result<Self, ConversionError> {
        match format {
            Format::Email => Ok(Self::Email),
            Format::Uri => Ok(Self::Uri),
            Format::Date => Ok(Self::Date),
            Format::DateTime => Ok(Self::DateTime),
            Format::Other(other) => Err(ConversionError::new(ConversionErrorKind::CustomFormat {
                format: other.clone(),
            })),
        }
    }
}

impl From<sdk::StringFormat> for Format {
    fn from(format: sdk::StringFormat) -> Self {
        match format {
            sdk::StringFormat::Email => Self::Email,
            sdk::StringFormat::Uri => Self::Uri,
            sdk::StringFormat::Date => Self::Date,
            sdk::StringFormat::DateTime => Self::DateTime,
            // A format the SDK added later: its wire name.
            other => match serde_json::to_value(other) {
                Ok(Value::String(name)) => Format::parse(&name),
                _ => Format::Other(format!("{other:?}")),
            },
        }
    }
}

by_value!(From<EnumOption> for sdk::EnumOption);

impl From<&EnumOption> for sdk::EnumOption {
    fn from(option: &EnumOption) -> Self {
        sdk::EnumOption::new(option.value.clone(), option.title.clone())
            .description(option.description.clone())
            .meta(option.meta.clone())
    }
}

by_value!(From<sdk::EnumOption> for EnumOption);

impl From<&sdk::EnumOption> for EnumOption {
    fn from(option: &sdk::EnumOption) -> Self {
        EnumOption {
            value: option.value.clone(),
            title: option.title.clone(),
            description: option.description.clone(),
            meta: option.meta.clone(),
        }
    }
}

// ---------------------------------------------------------------------------
// Property kinds: ours -> SDK

by_value!(TryFrom<StringSchema> for sdk::StringPropertySchema, ConversionError);

impl TryFrom<&StringSchema> for sdk::StringPropertySchema {
    type Error = ConversionError;
    fn try_from(s: &StringSchema) -> Result<Self, ConversionError> {
        let mut out = sdk::StringPropertySchema::new();
        out.title = s.title.clone();
        out.description = s.description.clone();
        out.min_length = s.min_length;
        out.max_length = s.max_length;
        out.pattern = s.pattern.as_ref().map(|p| p.as_str().to_owned());
        out.format = s
            .format
            .as_ref()
            .map(sdk::StringFormat::try_from)
            .transpose()?;
        out.default = s.default.clone();
        match &s.options {
            Some(Options::Untitled(values)) => out.enum_values = Some(values.clone()),
            Some(Options::Titled(options)) => {
                out.one_of = Some(options.iter().map(sdk::EnumOption::from).collect());
            }
            None => {}
        }
        out.meta = s.meta.clone();
        Ok(out)
    }
}

by_value!(From<NumberSchema> for sdk::NumberPropertySchema);

impl From<&NumberSchema> for sdk::NumberPropertySchema {
    fn from(s: &NumberSchema) -> Self {
        let mut out = sdk::NumberPropertySchema::new();
        out.title = s.title.clone();
        out.description = s.description.clone();
        out.minimum = s.minimum;
        out.maximum = s.maximum;
        out.default = s.default;
        out.meta = s.meta.clone();
        out
    }
}

by_value!(From<IntegerSchema> for sdk::IntegerPropertySchema);

impl From<&IntegerSchema> for sdk::IntegerPropertySchema {
    fn from(s: &IntegerSchema) -> Self {
        let mut out = sdk::IntegerPropertySchema::new();
        out.title = s.title.clone();
        out.description = s.description.clone();
        out.minimum = s.minimum;
        out.maximum = s.maximum;
        out.default = s.default;
        out.meta = s.meta.clone();
        out
    }
}

by_value!(From<BooleanSchema> for sdk::BooleanPropertySchema);

impl From<&BooleanSchema> for sdk::BooleanPropertySchema {
    fn from(s: &BooleanSchema) -> Self {
        let mut out = sdk::BooleanPropertySchema::new();
        out.title = s.title.clone();
        out.description = s.description.clone();
        out.default = s.default;
        out.meta = s.meta.clone();
        out
    }
}

by_value!(TryFrom<MultiSelectSchema> for sdk::MultiSelectPropertySchema, ConversionError);

impl TryFrom<&MultiSelectSchema> for sdk::MultiSelectPropertySchema {
    type Error = ConversionError;
    fn try_from(s: &MultiSelectSchema) -> Result<Self, ConversionError> {
        let mut out = match &s.items {
            Items::Options(Options::Untitled(values)) => {
                sdk::MultiSelectPropertySchema::new(values.clone())
            }
            Items::Options(Options::Titled(options)) => sdk::MultiSelectPropertySchema::titled(
                options.iter().map(sdk::EnumOption::from).collect(),
            ),
            Items::Other(raw) => {
                let Some(Value::String(type_)) = raw.get("type") else {
                    return Err(ConversionError::new(ConversionErrorKind::UntypedItems));
                };
                // Start from an empty untitled select, then put the raw items in.
                let mut out = sdk::MultiSelectPropertySchema::new(Vec::new());
                out.items = sdk::MultiSelectItems::Other(sdk::OtherMultiSelectItems::new(
                    type_.clone(),
                    to_btree(raw, "type"),
                ));
                out
            }
        };
        out.title = s.title.clone();
        out.description = s.description.clone();
        out.min_items = s.min_items;
        out.max_items = s.max_items;
        out.default = s.default.clone();
        out.meta = s.meta.clone();
        Ok(out)
    }
}

by_value!(From<OtherSchema> for sdk::OtherElicitationPropertySchema);

impl From<&OtherSchema> for sdk::OtherElicitationPropertySchema {
    fn from(o: &OtherSchema) -> Self {
        sdk::OtherElicitationPropertySchema::new(o.type_.clone(), to_btree(&o.fields, "type"))
    }
}

by_value!(TryFrom<PropertySchema> for sdk::ElicitationPropertySchema, ConversionError);

impl TryFrom<&PropertySchema> for sdk::ElicitationPropertySchema {
    type Error = ConversionError;
    fn try_from(schema: &PropertySchema) -> Result<Self, ConversionError> {
        Ok(match schema {
            PropertySchema::String(s) => Self::String(s.try_into()?),
            PropertySchema::Number(s) => Self::Number(s.into()),
            PropertySchema::Integer(s) => Self::Integer(s.into()),
            PropertySchema::Boolean(s) => Self::Boolean(s.into()),
            PropertySchema::MultiSelect(s) => Self::Array(s.try_into()?),
            PropertySchema::Other(o) => Self::Other(o.into()),
        })
    }
}

by_value!(
    /// Loses the property order: the SDK's `properties` is a `BTreeMap` (see the
    /// [module docs](crate::acp#what-the-sdks-types-cannot-hold)).
    TryFrom<ElicitationSchema> for sdk::ElicitationSchema, ConversionError);

/// Loses the property order: the SDK's `properties` is a `BTreeMap` (see the
/// [module docs](crate::acp#what-the-sdks-types-cannot-hold)).
impl TryFrom<&ElicitationSchema> for sdk::ElicitationSchema {
    type Error = ConversionError;
    fn try_from(schema: &ElicitationSchema) -> Result<Self, ConversionError> {
        let mut out = sdk::ElicitationSchema::new();
        out.title = schema.title.clone();
        out.description = schema.description.clone();
        for (name, property) in &schema.properties {
            let converted = sdk::ElicitationPropertySchema::try_from(property)
                .map_err(|e| e.in_property(name))?;
            if out.properties.insert(name.to_owned(), converted).is_some() {
                return Err(ConversionError::at(
                    name,
                    ConversionErrorKind::DuplicateProperty,
                ));
            }
        }
        out.required = if schema.required.is_empty() {
            None
        } else {
            Some(schema.required.clone())
        };
        out.meta = schema.meta.clone();
        Ok(out)
    }
}

// ---------------------------------------------------------------------------
// Property kinds: SDK -> ours

by_value!(TryFrom<sdk::StringPropertySchema> for StringSchema, ConversionError);

impl TryFrom<&sdk::StringPropertySchema> for StringSchema {
    type Error = ConversionError;
    fn try_from(s: &sdk::StringPropertySchema) -> Result<Self, ConversionError> {
        let options = match (&s.enum_values, &s.one_of) {
            (Some(_), Some(_)) => {
                return Err(ConversionError::new(ConversionErrorKind::EnumAndOneOf));
            }
            (Some(values), None) => Some(Options::Untitled(values.clone())),
            (None, Some(options)) => Some(Options::Titled(
                options.iter().map(EnumOption::from).collect(),
            )),
            (None, None) => None,
        };
        Ok(StringSchema {
            title: s.title.clone(),
            description: s.description.clone(),
            min_length: s.min_length,
            max_length: s.max_length,
            pattern: s.pattern.clone().map(Pattern::new),
            format: s.format.map(Format::from),
            default: s.default.clone(),
            options,
            meta: s.meta.clone(),
        })
    }
}

by_value!(From<sdk::NumberPropertySchema> for NumberSchema);

impl From<&sdk::NumberPropertySchema> for NumberSchema {
    fn from(s: &sdk::NumberPropertySchema) -> Self {
        NumberSchema {
            title: s.title.clone(),
            description: s.description.clone(),
            minimum: s.minimum,
            maximum: s.maximum,
            default: s.default,
            meta: s.meta.clone(),
        }
    }
}

by_value!(From<sdk::IntegerPropertySchema> for IntegerSchema);

impl From<&sdk::IntegerPropertySchema> for IntegerSchema {
    fn from(s: &sdk::IntegerPropertySchema) -> Self {
        IntegerSchema {
            title: s.title.clone(),
            description: s.description.clone(),
            minimum: s.minimum,
            maximum: s.maximum,
            default: s.default,
            meta: s.meta.clone(),
        }
    }
}

by_value!(From<sdk::BooleanPropertySchema> for BooleanSchema);

impl From<&sdk::BooleanPropertySchema> for BooleanSchema {
    fn from(s: &sdk::BooleanPropertySchema) -> Self {
        BooleanSchema {
            title: s.title.clone(),
            description: s.description.clone(),
            default: s.default,
            meta: s.meta.clone(),
        }
    }
}

by_value!(
    /// Drops the SDK's items-level `_meta` of known items kinds, which
    /// elicit's model has no place for (as when reading the same JSON).
    TryFrom<sdk::MultiSelectPropertySchema> for MultiSelectSchema, ConversionError);

/// Drops the SDK's items-level `_meta` of known items kinds, which elicit's
/// model has no place for (as when reading the same JSON); unknown items are
/// kept raw, `_meta` included.
impl TryFrom<&sdk::MultiSelectPropertySchema> for MultiSelectSchema {
    type Error = ConversionError;
    fn try_from(s: &sdk::MultiSelectPropertySchema) -> Result<Self, ConversionError> {
        let items = match &s.items {
            sdk::MultiSelectItems::String(items) => {
                Items::Options(Options::Untitled(items.values.clone()))
            }
            sdk::MultiSelectItems::Titled(items) => Items::Options(Options::Titled(
                items.options.iter().map(EnumOption::from).collect(),
            )),
            sdk::MultiSelectItems::Other(other) => {
                Items::Other(with_type(&other.type_, &other.fields))
            }
            // An items kind the SDK added later: unknown to elicit too, kept raw.
            other => Items::Other(json_object(other, "multi-select items kind")?),
        };
        Ok(MultiSelectSchema {
            title: s.title.clone(),
            description: s.description.clone(),
            min_items: s.min_items,
            max_items: s.max_items,
            items,
            default: s.default.clone(),
            meta: s.meta.clone(),
        })
    }
}

by_value!(From<sdk::OtherElicitationPropertySchema> for OtherSchema);

impl From<&sdk::OtherElicitationPropertySchema> for OtherSchema {
    fn from(o: &sdk::OtherElicitationPropertySchema) -> Self {
        OtherSchema {
            type_: o.type_.clone(),
            fields: with_type(&o.type_, &o.fields),
        }
    }
}

by_value!(TryFrom<sdk::ElicitationPropertySchema> for PropertySchema, ConversionError);

impl TryFrom<&sdk::ElicitationPropertySchema> for PropertySchema {
    type Error = ConversionError;
    fn try_from(schema: &sdk::ElicitationPropertySchema) -> Result<Self, ConversionError> {
        Ok(match schema {
            sdk::ElicitationPropertySchema::String(s) => Self::String(s.try_into()?),
            sdk::ElicitationPropertySchema::Number(s) => Self::Number(s.into()),
            sdk::ElicitationPropertySchema::Integer(s) => Self::Integer(s.into()),
            sdk::ElicitationPropertySchema::Boolean(s) => Self::Boolean(s.into()),
            sdk::ElicitationPropertySchema::Array(s) => Self::MultiSelect(s.try_into()?),
            sdk::ElicitationPropertySchema::Other(o) => Self::Other(o.into()),
            other => {
                let fields = json_object(other, "property schema")?;
                PropertySchema::from_json(fields).map_err(|reason| {
                    ConversionError::new(ConversionErrorKind::UnknownVariant {
                        what: "property schema",
                        reason,
                    })
                })?
            }
        })
    }
}

by_value!(
    /// The properties come out in alphabetical order: the SDK's `properties` is
    /// a `BTreeMap` (see the [module docs](crate::acp#what-the-sdks-types-cannot-hold)).
    TryFrom<sdk::ElicitationSchema> for ElicitationSchema, ConversionError);

/// The properties come out in alphabetical order: the SDK's `properties` is
/// a `BTreeMap` (see the [module docs](crate::acp#what-the-sdks-types-cannot-hold)).
impl TryFrom<&sdk::ElicitationSchema> for ElicitationSchema {
    type Error = ConversionError;
    fn try_from(schema: &sdk::ElicitationSchema) -> Result<Self, ConversionError> {
        let mut properties = Properties::new();
        for (name, property) in &schema.properties {
            let converted = PropertySchema::try_from(property).map_err(|e| e.in_property(name))?;
            properties.insert(name.clone(), converted);
        }
        Ok(ElicitationSchema {
            title: schema.title.clone(),
            description: schema.description.clone(),
            properties,
            required: schema.required.clone().unwrap_or_default(),
            meta: schema.meta.clone(),
        })
    }
}

// ---------------------------------------------------------------------------
// Capabilities

fn no_extra(extra: &Map<String, Value>, object: &'static str) -> Result<(), ConversionError> {
    let fields: Vec<String> = extra.keys().filter(|k| *k != "_meta").cloned().collect();
    if fields.is_empty() {
        Ok(())
    } else {
        Err(ConversionError::new(ConversionErrorKind::UnknownFields {
            object,
            fields,
        }))
    }
}

by_value!(TryFrom<ElicitationCapabilities> for sdk::ElicitationCapabilities, ConversionError);

/// Refuses unknown fields (elicit keeps them, the SDK's type has no place
/// for them).
impl TryFrom<&ElicitationCapabilities> for sdk::ElicitationCapabilities {
    type Error = ConversionError;
    fn try_from(caps: &ElicitationCapabilities) -> Result<Self, ConversionError> {
        no_extra(&caps.extra, "elicitation")?;
        let form = match &caps.form {
            Some(form) => {
                no_extra(&form.extra, "elicitation.form")?;
                Some(sdk::ElicitationFormCapabilities::new().meta(form.meta.clone()))
            }
            None => None,
        };
        let url = match &caps.url {
            Some(url) => {
                no_extra(&url.extra, "elicitation.url")?;
                Some(sdk::ElicitationUrlCapabilities::new().meta(url.meta.clone()))
            }
            None => None,
        };
        Ok(sdk::ElicitationCapabilities::new()
            .form(form)
            .url(url)
            .meta(caps.meta.clone()))
    }
}

by_value!(From<sdk::ElicitationCapabilities> for ElicitationCapabilities);

impl From<&sdk::ElicitationCapabilities> for ElicitationCapabilities {
    fn from(caps: &sdk::ElicitationCapabilities) -> Self {
        ElicitationCapabilities {
            form: caps.form.as_ref().map(|f| ModeCapabilities {
                meta: f.meta.clone(),
                extra: Map::new(),
            }),
            url: caps.url.as_ref().map(|u| ModeCapabilities {
                meta: u.meta.clone(),
                extra: Map::new(),
            }),
            meta: caps.meta.clone(),
            extra: Map::new(),
        }
    }
}

// ---------------------------------------------------------------------------
// Ids and scope

impl From<ElicitationId> for sdk::ElicitationId {
    fn from(id: ElicitationId) -> Self {
        sdk::ElicitationId::new(id.into_string())
    }
}

impl From<&ElicitationId> for sdk::ElicitationId {
    fn from(id: &ElicitationId) -> Self {
        sdk::ElicitationId::new(id.as_str())
    }
}

by_value!(From<sdk::ElicitationId> for ElicitationId);

impl From<&sdk::ElicitationId> for ElicitationId {
    fn from(id: &sdk::ElicitationId) -> Self {
        ElicitationId::new(id.0.as_ref())
    }
}

impl From<RequestId> for sdk::RequestId {
    fn from(id: RequestId) -> Self {
        match id {
            RequestId::Null => Self::Null,
            RequestId::Number(n) => Self::Number(n),
            RequestId::String(s) => Self::Str(s),
        }
    }
}

impl From<sdk::RequestId> for RequestId {
    fn from(id: sdk::RequestId) -> Self {
        match id {
            sdk::RequestId::Null => Self::Null,
            sdk::RequestId::Number(n) => Self::Number(n),
            sdk::RequestId::Str(s) => Self::String(s),
        }
    }
}

by_value!(From<ElicitationScope> for sdk::ElicitationScope);

impl From<&ElicitationScope> for sdk::ElicitationScope {
    fn from(scope: &ElicitationScope) -> Self {
        match scope {
            ElicitationScope::Session {
                session_id,
                tool_call_id,
            } => {
                let mut session =
                    sdk::ElicitationSessionScope::new(sdk::SessionId::new(session_id.as_str()));
                session.tool_call_id = tool_call_id
                    .as_deref()
                    .map(|t| sdk::ToolCallId::new(Arc::<str>::from(t)));
                Self::Session(session)
            }
            ElicitationScope::Request { request_id } => Self::Request(
                sdk::ElicitationRequestScope::new(sdk::RequestId::from(request_id.clone())),
            ),
        }
    }
}

by_value!(TryFrom<sdk::ElicitationScope> for ElicitationScope, ConversionError);

impl TryFrom<&sdk::ElicitationScope> for ElicitationScope {
    type Error = ConversionError;
    fn try_from(scope: &sdk::ElicitationScope) -> Result<Self, ConversionError> {
        match scope {
            sdk::ElicitationScope::Session(s) => Ok(ElicitationScope::Session {
                session_id: s.session_id.0.as_ref().to_owned(),
                tool_call_id: s.tool_call_id.as_ref().map(|t| t.0.as_ref().to_owned()),
            }),
            sdk::ElicitationScope::Request(r) => Ok(ElicitationScope::Request {
                request_id: r.request_id.clone().into(),
            }),
            other => Err(ConversionError::new(ConversionErrorKind::UnknownVariant {
                what: "scope",
                reason: serde_json::to_string(other).unwrap_or_else(|e| e.to_string()),
            })),
        }
    }
}

// ---------------------------------------------------------------------------
// Request

by_value!(
    /// Loses the schema's property order (see the
    /// [module docs](crate::acp#what-the-sdks-types-cannot-hold)).
    TryFrom<CreateElicitationRequest> for sdk::CreateElicitationRequest, ConversionError);

/// Loses the schema's property order (see the
/// [module docs](crate::acp#what-the-sdks-types-cannot-hold)).
impl TryFrom<&CreateElicitationRequest> for sdk::CreateElicitationRequest {
    type Error = ConversionError;
    fn try_from(request: &CreateElicitationRequest) -> Result<Self, ConversionError> {
        let scope = sdk::ElicitationScope::from(&request.scope);
        let mode = match &request.mode {
            ElicitationMode::Form { requested_schema } => sdk::ElicitationMode::Form(
                sdk::ElicitationFormMode::new(scope, requested_schema.try_into()?),
            ),
            ElicitationMode::Url {
                elicitation_id,
                url,
            } => sdk::ElicitationMode::Url(sdk::ElicitationUrlMode::new(
                scope,
                sdk::ElicitationId::from(elicitation_id),
                url.clone(),
            )),
            ElicitationMode::Other(other) => {
                sdk::ElicitationMode::Other(sdk::OtherElicitationMode::new(
                    other.mode(),
                    scope,
                    other
                        .fields()
                        .iter()
                        .map(|(k, v)| (k.clone(), v.clone()))
                        .collect(),
                ))
            }
        };
        Ok(
            sdk::CreateElicitationRequest::new(mode, request.message.clone())
                .meta(request.meta.clone()),
        )
    }
}

by_value!(TryFrom<sdk::CreateElicitationRequest> for CreateElicitationRequest, ConversionError);

impl TryFrom<&sdk::CreateElicitationRequest> for CreateElicitationRequest {
    type Error = ConversionError;
    fn try_from(request: &sdk::CreateElicitationRequest) -> Result<Self, ConversionError> {
        let (scope, mode) = match &request.mode {
            sdk::ElicitationMode::Form(form) => (
                ElicitationScope::try_from(&form.scope)?,
                ElicitationMode::Form {
                    requested_schema: ElicitationSchema::try_from(&form.requested_schema)?,
                },
            ),
            sdk::ElicitationMode::Url(url) => (
                ElicitationScope::try_from(&url.scope)?,
                ElicitationMode::Url {
                    elicitation_id: ElicitationId::from(&url.elicitation_id),
                    url: url.url.clone(),
                },
            ),
            sdk::ElicitationMode::Other(other) => {
                let fields = other
                    .fields
                    .iter()
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                let mode = OtherMode::new(other.mode.clone(), fields).ok_or_else(|| {
                    ConversionError::new(ConversionErrorKind::KnownNameInOther {
                        name: other.mode.clone(),
                    })
                })?;
                (
                    ElicitationScope::try_from(&other.scope)?,
                    ElicitationMode::Other(mode),
                )
            }
            // A mode the SDK added later: read the whole request as elicit
            // reads the wire (it then lands in `ElicitationMode::Other`).
            _ => return via_json(request, "mode"),
        };
        Ok(CreateElicitationRequest {
            scope,
            mode,
            message: request.message.clone(),
            meta: request.meta.clone(),
        })
    }
}

// ---------------------------------------------------------------------------
// Response

fn content_to_sdk(
    content: &Content,
) -> Result<BTreeMap<String, sdk::ElicitationContentValue>, ConversionError> {
    let mut out = BTreeMap::new();
    for (name, value) in content {
        let converted = match value {
            // Not a form value, and the same as absent for a form: left out.
            Value::Null => continue,
            Value::String(s) => sdk::ElicitationContentValue::String(s.clone()),
            Value::Bool(b) => sdk::ElicitationContentValue::Boolean(*b),
            Value::Number(n) => number_to_sdk(n).map_err(|kind| ConversionError::at(name, kind))?,
            Value::Array(items) => sdk::ElicitationContentValue::StringArray(
                items
                    .iter()
                    .map(|item| match item {
                        Value::String(s) => Ok(s.clone()),
                        _ => Err(ConversionError::at(
                            name,
                            ConversionErrorKind::NotAFormValue {
                                found: JsonKind::Array,
                            },
                        )),
                    })
                    .collect::<Result<_, _>>()?,
            ),
            Value::Object(_) => {
                return Err(ConversionError::at(
                    name,
                    ConversionErrorKind::NotAFormValue {
                        found: JsonKind::Object,
                    },
                ));
            }
        };
        out.insert(name.clone(), converted);
    }
    Ok(out)
}

fn number_to_sdk(n: &Number) -> Result<sdk::ElicitationContentValue, ConversionErrorKind> {
    if let Some(i) = n.as_i64() {
        return Ok(sdk::ElicitationContentValue::Integer(i));
    }
    if let Some(u) = n.as_u64() {
        return Err(ConversionErrorKind::IntegerOutOfRange { value: u });
    }
    match n.as_f64() {
        Some(x) => Ok(sdk::ElicitationContentValue::Number(x)),
        None => Err(ConversionErrorKind::NotAFormValue {
            found: JsonKind::Number,
        }),
    }
}

fn content_from_sdk(
    content: &BTreeMap<String, sdk::ElicitationContentValue>,
) -> Result<Content, ConversionError> {
    let mut out = Content::new();
    for (name, value) in content {
        let converted = match value {
            sdk::ElicitationContentValue::String(s) => Value::String(s.clone()),
            sdk::ElicitationContentValue::Integer(i) => Value::from(*i),
            sdk::ElicitationContentValue::Number(x) => {
                Number::from_f64(*x).map(Value::Number).ok_or_else(|| {
                    ConversionError::at(name, ConversionErrorKind::NonFiniteNumber { value: *x })
                })?
            }
            sdk::ElicitationContentValue::Boolean(b) => Value::Bool(*b),
            sdk::ElicitationContentValue::StringArray(items) => {
                Value::Array(items.iter().cloned().map(Value::String).collect())
            }
            // A value kind the SDK added later: its JSON; `from_content`
            // judges it like any other value.
            other => serde_json::to_value(other).map_err(|e| {
                ConversionError::at(
                    name,
                    ConversionErrorKind::UnknownVariant {
                        what: "content value",
                        reason: e.to_string(),
                    },
                )
            })?,
        };
        out.insert(name.clone(), converted);
    }
    Ok(out)
}

by_value!(
    /// `null` content values are left out; values that are not form values are
    /// refused (see the [module docs](crate::acp#what-the-sdks-types-cannot-hold)).
    TryFrom<CreateElicitationResponse> for sdk::CreateElicitationResponse, ConversionError);

/// `null` content values are left out; values that are not form values are
/// refused (see the [module docs](crate::acp#what-the-sdks-types-cannot-hold)).
impl TryFrom<&CreateElicitationResponse> for sdk::CreateElicitationResponse {
    type Error = ConversionError;
    fn try_from(response: &CreateElicitationResponse) -> Result<Self, ConversionError> {
        let action = match &response.action {
            ElicitationAction::Accept { content } => sdk::ElicitationAction::Accept(
                sdk::ElicitationAcceptAction::new()
                    .content(content.as_ref().map(content_to_sdk).transpose()?),
            ),
            ElicitationAction::Decline => sdk::ElicitationAction::Decline,
            ElicitationAction::Cancel => sdk::ElicitationAction::Cancel,
            ElicitationAction::Other(other) => {
                sdk::ElicitationAction::Other(sdk::OtherElicitationAction::new(
                    other.action(),
                    to_btree(other.fields(), "action"),
                ))
            }
        };
        Ok(sdk::CreateElicitationResponse::new(action).meta(response.meta.clone()))
    }
}

by_value!(TryFrom<sdk::CreateElicitationResponse> for CreateElicitationResponse, ConversionError);

impl TryFrom<&sdk::CreateElicitationResponse> for CreateElicitationResponse {
    type Error = ConversionError;
    fn try_from(response: &sdk::CreateElicitationResponse) -> Result<Self, ConversionError> {
        let action = match &response.action {
            sdk::ElicitationAction::Accept(accept) => ElicitationAction::Accept {
                content: accept.content.as_ref().map(content_from_sdk).transpose()?,
            },
            sdk::ElicitationAction::Decline => ElicitationAction::Decline,
            sdk::ElicitationAction::Cancel => ElicitationAction::Cancel,
            sdk::ElicitationAction::Other(other) => {
                let fields = other
                    .fields
                    .iter()
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                ElicitationAction::Other(
                    OtherAction::new(other.action.clone(), fields).ok_or_else(|| {
                        ConversionError::new(ConversionErrorKind::KnownNameInOther {
                            name: other.action.clone(),
                        })
                    })?,
                )
            }
            // An action the SDK added later: read as elicit reads the wire
            // (an unknown action lands in `ElicitationAction::Other`).
            _ => return via_json(response, "action"),
        };
        Ok(CreateElicitationResponse {
            action,
            meta: response.meta.clone(),
        })
    }
}

// ---------------------------------------------------------------------------
// Completion

by_value!(From<CompleteElicitationNotification> for sdk::CompleteElicitationNotification);

impl From<&CompleteElicitationNotification> for sdk::CompleteElicitationNotification {
    fn from(notification: &CompleteElicitationNotification) -> Self {
        sdk::CompleteElicitationNotification::new(sdk::ElicitationId::from(
            &notification.elicitation_id,
        ))
        .meta(notification.meta.clone())
    }
}

by_value!(From<sdk::CompleteElicitationNotification> for CompleteElicitationNotification);

impl From<&sdk::CompleteElicitationNotification> for CompleteElicitationNotification {
    fn from(notification: &sdk::CompleteElicitationNotification) -> Self {
        CompleteElicitationNotification {
            elicitation_id: ElicitationId::from(&notification.elicitation_id),
            meta: notification.meta.clone(),
        }
    }
}
