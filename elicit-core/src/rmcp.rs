//! MCP servers built on [rmcp](https://docs.rs/rmcp) (feature `rmcp`):
//! typed elicitation in one call on rmcp's server peer ([`ElicitExt`]:
//! `peer.elicit_form::<T>(message).retry(n).await`, URL mode, sensitive
//! input), and underneath it a derived form's schema as rmcp's
//! `ElicitationSchema` (the MCP 2025-11-25 shape) and rmcp's `ElicitResult`
//! as a typed [`Outcome<T>`], for code that drives rmcp itself.
//!
//! ```
//! use elicit_core::{Elicit, Outcome};
//! use rmcp::model::{ElicitResult, ElicitationAction};
//!
//! #[derive(Elicit, Debug, PartialEq)]
//! #[elicit(rename_all = "lowercase")]
//! enum Strategy { Conservative, Balanced, Aggressive }
//!
//! #[derive(Elicit, Debug, PartialEq)]
//! struct Refactor { strategy: Strategy }
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // The params of `elicitation/create`, for `peer.create_elicitation(..)`:
//! let params = elicit_core::rmcp::form_request::<Refactor>("How should I refactor?")?;
//! let json = serde_json::to_value(&params)?;
//! assert_eq!(json["requestedSchema"]["properties"]["strategy"]["enum"][1], "balanced");
//!
//! // The client's answer, validated again with `Refactor::from_content`:
//! let result = ElicitResult::new(ElicitationAction::Accept)
//!     .with_content(serde_json::json!({"strategy": "balanced"}));
//! let outcome = elicit_core::rmcp::outcome::<Refactor>(&result)?;
//! assert_eq!(outcome, Outcome::Accepted(Refactor { strategy: Strategy::Balanced }));
//! # Ok(())
//! # }
//! ```
//!
//! rmcp 3.x calls the result type `ElicitResult` (older releases called it
//! `CreateElicitationResult`); it is what `Peer::<RoleServer>::create_elicitation`
//! returns.
//!
//! The feature turns on rmcp's `server` feature (`Peer<RoleServer>`), not its
//! `elicitation` feature: [`ElicitExt`] sends `elicitation/create` through
//! `Peer::send_request` and applies MCP's capability rule itself
//! ([`client_supports`]), so the `url` crate rmcp's `elicitation` feature
//! brings is not needed.
//!
//! # Conversion rules
//!
//! MCP's restricted schema is ACP's minus a few parts. Each part is either
//! dropped (what is left still describes the same answers, or fewer checks
//! on the client) or refused with a typed [`McpSchemaError`] (the form would
//! mean something else):
//!
//! | part | rule |
//! |---|---|
//! | property order | **kept** (rmcp keeps the wire order) |
//! | titles, descriptions, lengths, bounds, defaults, `required` of properties | kept |
//! | `format` `email`, `uri`, `date`, `date-time` | kept |
//! | a custom `format` | **refused** ([`McpSchemaErrorKind::CustomFormat`]): MCP allows only those four, and rmcp's `StringFormat` is a closed enum |
//! | `pattern` | **dropped**: MCP's string schema has none. The client then cannot check it, so a user may submit a value the pattern rejects; nothing unchecked gets through, because [`outcome`] validates the content again with `T::from_content`, pattern included, and returns the error (naming the field) for you to ask again. If the client's pre-check matters, send a form without `pattern` |
//! | schema-level `title` and `description` | **dropped**: not in MCP's `requestedSchema`. Say it in the request's `message`, which MCP clients show |
//! | option `description`s (titled single- and multi-selects) | **dropped**: MCP options are `{const, title}`; the titles are kept |
//! | `_meta` inside the schema (form, properties, options) | **dropped**: MCP has no `_meta` there |
//! | `minLength`, `maxLength`, `format` on a single-select | **dropped**: MCP's enum schemas have none; the options already constrain the value |
//! | an unknown property type or multi-select `items` kind | **refused**: MCP has no place for it |
//! | a property name twice (through `flatten`) | **refused** |
//! | a select default that is not an option, multi-select bounds rmcp's builder rejects | **refused** ([`McpSchemaErrorKind::Rejected`]); [`ElicitationSchema::check`] reports these too |
//!
//! [`dropped`] lists what a conversion drops, e.g. to log it once at startup.
//!
//! Capabilities differ too: for MCP an empty `elicitation` capability object
//! means form mode (ACP reads it as no mode). rmcp's
//! `Peer::<RoleServer>::supported_elicitation_modes` applies MCP's rule.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;
use std::future::{Future, IntoFuture};
use std::marker::PhantomData;
use std::pin::Pin;

use ::rmcp::model as mcp;
use ::rmcp::{Peer, RoleServer, ServiceError};
use serde_json::{Map, Value};

use crate::error::{ContentError, JsonKind, SchemaError, property_prefix};
use crate::protocol::agent::{AwaitingCompletion, Unsendable, sendable_schema};
use crate::protocol::url::{UrlRejection, check_url};
use crate::protocol::{ElicitationId, Mode, OtherAction, Outcome, Retry, UrlOutcome};
use crate::schema::{
    ElicitationSchema, EnumOption, Format, Items, MultiSelectSchema, Options, PropertySchema,
    StringSchema,
};
use crate::{Content, Elicit};

// ---------------------------------------------------------------------------
// Errors

/// A schema that cannot be sent over MCP. Names the property where there is
/// one.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{}{kind}", property_prefix(.property))]
pub struct McpSchemaError {
    property: Option<String>,
    kind: McpSchemaErrorKind,
}

impl McpSchemaError {
    /// An error at the property `name`.
    pub fn at(name: impl Into<String>, kind: McpSchemaErrorKind) -> Self {
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
    pub fn kind(&self) -> &McpSchemaErrorKind {
        &self.kind
    }
}

/// Why a schema cannot be sent over MCP.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum McpSchemaErrorKind {
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

/// Why an rmcp `ElicitResult` could not be read as a form's [`Outcome`].
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum McpOutcomeError {
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

// ---------------------------------------------------------------------------
// What a conversion drops

/// One part of a schema that the conversion to MCP drops (see the
/// [rules](crate::rmcp#conversion-rules)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dropped {
    /// The property, or `None` for the form itself.
    pub property: Option<String>,
    /// What is dropped.
    pub part: DroppedPart,
}

impl fmt::Display for Dropped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.property {
            Some(p) => write!(f, "`{p}`: {}", self.part),
            None => write!(f, "form: {}", self.part),
        }
    }
}

/// Which part is dropped.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DroppedPart {
    /// The form's `title`.
    Title,
    /// The form's `description`.
    Description,
    /// A `_meta` object (of the form, a property, or an option).
    Meta,
    /// A string's `pattern`: re-checked by [`outcome`], not by the client.
    Pattern,
    /// An option's `description`.
    OptionDescription {
        /// The option's value.
        value: String,
    },
    /// `minLength`, `maxLength` or `format` of a single-select.
    SelectConstraint {
        /// The keyword.
        keyword: &'static str,
    },
}

impl fmt::Display for DroppedPart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Title => f.write_str("`title`"),
            Self::Description => f.write_str("`description`"),
            Self::Meta => f.write_str("`_meta`"),
            Self::Pattern => f.write_str("`pattern` (checked again on the server only)"),
            Self::OptionDescription { value } => {
                write!(f, "the `description` of option `{value}`")
            }
            Self::SelectConstraint { keyword } => write!(f, "`{keyword}` of a single-select"),
        }
    }
}

/// What [`to_mcp_schema`] drops from `schema`, in form order.
///
/// ```
/// use elicit_core::Elicit;
/// use elicit_core::rmcp::{DroppedPart, dropped};
///
/// /// Pick a handle.
/// #[derive(Elicit)]
/// struct Handle {
///     #[elicit(pattern = "^[a-z]+$")]
///     handle: String,
/// }
///
/// let parts: Vec<DroppedPart> = dropped(&Handle::schema()).into_iter().map(|d| d.part).collect();
/// assert_eq!(parts, [DroppedPart::Description, DroppedPart::Pattern]);
/// ```
pub fn dropped(schema: &ElicitationSchema) -> Vec<Dropped> {
    let mut out = Vec::new();
    let mut form = DroppedAt {
        property: None,
        out: &mut out,
    };
    form.push_if(schema.title.is_some(), DroppedPart::Title);
    form.push_if(schema.description.is_some(), DroppedPart::Description);
    form.push_if(schema.meta.is_some(), DroppedPart::Meta);
    for (name, property) in &schema.properties {
        let mut at = DroppedAt {
            property: Some(name),
            out: &mut out,
        };
        property_dropped(property, &mut at);
    }
    out
}

/// Where [`dropped`] records the parts of the form or of one property.
struct DroppedAt<'a> {
    property: Option<&'a str>,
    out: &'a mut Vec<Dropped>,
}

impl DroppedAt<'_> {
    fn push(&mut self, part: DroppedPart) {
        self.out.push(Dropped {
            property: self.property.map(str::to_owned),
            part,
        });
    }

    fn push_if(&mut self, present: bool, part: DroppedPart) {
        if present {
            self.push(part);
        }
    }
}

/// What one property loses: its kind's own parts, then its options'.
fn property_dropped(property: &PropertySchema, at: &mut DroppedAt<'_>) {
    let options = match property {
        PropertySchema::String(s) => {
            string_dropped(s, at);
            s.options.as_ref()
        }
        PropertySchema::MultiSelect(s) => {
            at.push_if(s.meta.is_some(), DroppedPart::Meta);
            match &s.items {
                Items::Options(options) => Some(options),
                Items::Other(_) => None,
            }
        }
        PropertySchema::Number(s) => {
            at.push_if(s.meta.is_some(), DroppedPart::Meta);
            None
        }
        PropertySchema::Integer(s) => {
            at.push_if(s.meta.is_some(), DroppedPart::Meta);
            None
        }
        PropertySchema::Boolean(s) => {
            at.push_if(s.meta.is_some(), DroppedPart::Meta);
            None
        }
        PropertySchema::Other(_) => None,
    };
    if let Some(Options::Titled(options)) = options {
        options_dropped(options, at);
    }
}

/// A string's parts: a single-select's length and format constraints, the
/// `pattern`, `_meta`.
fn string_dropped(s: &StringSchema, at: &mut DroppedAt<'_>) {
    if s.options.is_some() {
        let constraint = |keyword| DroppedPart::SelectConstraint { keyword };
        at.push_if(s.min_length.is_some(), constraint("minLength"));
        at.push_if(s.max_length.is_some(), constraint("maxLength"));
        at.push_if(s.format.is_some(), constraint("format"));
    }
    at.push_if(s.pattern.is_some(), DroppedPart::Pattern);
    at.push_if(s.meta.is_some(), DroppedPart::Meta);
}

/// Each titled option's `description` and `_meta`.
fn options_dropped(options: &[EnumOption], at: &mut DroppedAt<'_>) {
    for option in options {
        if option.description.is_some() {
            at.push(DroppedPart::OptionDescription {
                value: option.value.clone(),
            });
        }
        at.push_if(option.meta.is_some(), DroppedPart::Meta);
    }
}

// ---------------------------------------------------------------------------
// Schema conversion

/// The form `T`'s schema as rmcp's `ElicitationSchema`, by the
/// [rules](crate::rmcp#conversion-rules): `to_mcp_schema(&T::schema())`.
pub fn schema<T: Elicit>() -> Result<mcp::ElicitationSchema, McpSchemaError> {
    to_mcp_schema(&T::schema())
}

/// The `elicitation/create` params of a form request for `T`, ready for
/// `peer.create_elicitation(..)`. Put the form's title and description (which
/// MCP drops) into `message` if the user needs them.
pub fn form_request<T: Elicit>(
    message: impl Into<String>,
) -> Result<mcp::ElicitRequestParams, McpSchemaError> {
    Ok(form_params(message.into(), schema::<T>()?))
}

/// The `elicitation/create` params of a form request.
fn form_params(
    message: String,
    requested_schema: mcp::ElicitationSchema,
) -> mcp::ElicitRequestParams {
    mcp::ElicitRequestParams::FormElicitationParams {
        meta: None,
        message,
        requested_schema,
    }
}

/// Any restricted schema as rmcp's `ElicitationSchema`, by the
/// [rules](crate::rmcp#conversion-rules). Property order is kept.
pub fn to_mcp_schema(schema: &ElicitationSchema) -> Result<mcp::ElicitationSchema, McpSchemaError> {
    let mut properties = BTreeMap::new();
    let mut order = Vec::with_capacity(schema.properties.len());
    for (name, property) in &schema.properties {
        let converted = property_to_mcp(property).map_err(|kind| McpSchemaError::at(name, kind))?;
        if properties.insert(name.to_owned(), converted).is_some() {
            return Err(McpSchemaError::at(
                name,
                McpSchemaErrorKind::DuplicateProperty,
            ));
        }
        order.push(name.to_owned());
    }
    let mut out = mcp::ElicitationSchema::new(properties);
    out.property_order = Some(order);
    if !schema.required.is_empty() {
        out.required = Some(schema.required.clone());
    }
    Ok(out)
}

/// See [`to_mcp_schema`].
impl TryFrom<&ElicitationSchema> for mcp::ElicitationSchema {
    type Error = McpSchemaError;
    fn try_from(schema: &ElicitationSchema) -> Result<Self, McpSchemaError> {
        to_mcp_schema(schema)
    }
}

/// See [`to_mcp_schema`].
impl TryFrom<ElicitationSchema> for mcp::ElicitationSchema {
    type Error = McpSchemaError;
    fn try_from(schema: ElicitationSchema) -> Result<Self, McpSchemaError> {
        to_mcp_schema(&schema)
    }
}

fn text(s: &Option<String>) -> Option<Cow<'static, str>> {
    s.clone().map(Cow::Owned)
}

fn format_to_mcp(format: &Format) -> Result<mcp::StringFormat, McpSchemaErrorKind> {
    match format {
        Format::Email => Ok(mcp::StringFormat::Email),
        Format::Uri => Ok(mcp::StringFormat::Uri),
        Format::Date => Ok(mcp::StringFormat::Date),
        Format::DateTime => Ok(mcp::StringFormat::DateTime),
        Format::Other(other) => Err(McpSchemaErrorKind::CustomFormat {
            format: other.clone(),
        }),
    }
}

fn rejected(reason: impl Into<String>) -> McpSchemaErrorKind {
    McpSchemaErrorKind::Rejected {
        reason: reason.into(),
    }
}

fn split(options: &Options) -> (Vec<String>, Option<Vec<String>>) {
    match options {
        Options::Untitled(values) => (values.clone(), None),
        Options::Titled(options) => (
            options.iter().map(|o| o.value.clone()).collect(),
            Some(
                options
                    .iter()
                    .map(|o: &EnumOption| o.title.clone())
                    .collect(),
            ),
        ),
    }
}

fn property_to_mcp(
    property: &PropertySchema,
) -> Result<mcp::PrimitiveSchemaDefinition, McpSchemaErrorKind> {
    Ok(match property {
        PropertySchema::String(s) => match &s.options {
            None => mcp::PrimitiveSchemaDefinition::String(string_to_mcp(s)?),
            Some(options) => {
                mcp::PrimitiveSchemaDefinition::Enum(single_select_to_mcp(s, options)?)
            }
        },
        PropertySchema::Number(s) => {
            let mut out = mcp::NumberSchema::new();
            out.title = text(&s.title);
            out.description = text(&s.description);
            out.minimum = s.minimum;
            out.maximum = s.maximum;
            out.default = s.default;
            mcp::PrimitiveSchemaDefinition::Number(out)
        }
        PropertySchema::Integer(s) => {
            let mut out = mcp::IntegerSchema::new();
            out.title = text(&s.title);
            out.description = text(&s.description);
            out.minimum = s.minimum;
            out.maximum = s.maximum;
            out.default = s.default;
            mcp::PrimitiveSchemaDefinition::Integer(out)
        }
        PropertySchema::Boolean(s) => {
            let mut out = mcp::BooleanSchema::new();
            out.title = text(&s.title);
            out.description = text(&s.description);
            out.default = s.default;
            mcp::PrimitiveSchemaDefinition::Boolean(out)
        }
        PropertySchema::MultiSelect(s) => {
            mcp::PrimitiveSchemaDefinition::Enum(multi_select_to_mcp(s)?)
        }
        PropertySchema::Other(o) => {
            return Err(McpSchemaErrorKind::UnknownPropertyType {
                type_: o.type_.clone(),
            });
        }
    })
}

fn string_to_mcp(s: &StringSchema) -> Result<mcp::StringSchema, McpSchemaErrorKind> {
    let mut out = mcp::StringSchema::new();
    out.title = text(&s.title);
    out.description = text(&s.description);
    out.min_length = s.min_length;
    out.max_length = s.max_length;
    out.format = s.format.as_ref().map(format_to_mcp).transpose()?;
    out.default = s.default.clone();
    // `pattern` is dropped (see the rules).
    Ok(out)
}

fn single_select_to_mcp(
    s: &StringSchema,
    options: &Options,
) -> Result<mcp::EnumSchema, McpSchemaErrorKind> {
    let (values, titles) = split(options);
    let mut builder = mcp::EnumSchema::builder(values);
    if let Some(title) = text(&s.title) {
        builder = builder.title(title);
    }
    if let Some(description) = text(&s.description) {
        builder = builder.description(description);
    }
    if let Some(titles) = titles {
        builder = builder.enum_titles(titles).map_err(rejected)?;
    }
    if let Some(default) = &s.default {
        builder = builder.with_default(default.clone()).map_err(rejected)?;
    }
    Ok(builder.build())
}

fn multi_select_to_mcp(s: &MultiSelectSchema) -> Result<mcp::EnumSchema, McpSchemaErrorKind> {
    let Items::Options(options) = &s.items else {
        return Err(McpSchemaErrorKind::UnknownItems);
    };
    let (values, titles) = split(options);
    let mut builder = mcp::EnumSchema::builder(values).multiselect();
    if let Some(title) = text(&s.title) {
        builder = builder.title(title);
    }
    if let Some(description) = text(&s.description) {
        builder = builder.description(description);
    }
    if let Some(titles) = titles {
        builder = builder.enum_titles(titles).map_err(rejected)?;
    }
    // Bounds before the default: rmcp checks the default against them.
    if let Some(min) = s.min_items {
        builder = builder.min_items(min).map_err(rejected)?;
    }
    if let Some(max) = s.max_items {
        builder = builder.max_items(max).map_err(rejected)?;
    }
    if let Some(default) = &s.default {
        builder = builder.with_default(default.clone()).map_err(rejected)?;
    }
    Ok(builder.build())
}

// ---------------------------------------------------------------------------
// Outcomes

/// Reads rmcp's `ElicitResult` to a form request as a typed [`Outcome`]:
/// `accept` content (omitted or `null` is an empty form) is validated again
/// with `T::from_content`, which also checks what the MCP client could not
/// (a dropped `pattern`); `decline` and `cancel` map to their variants and
/// ignore any content.
///
/// ```
/// use elicit_core::{Elicit, Outcome};
/// use rmcp::model::{ElicitResult, ElicitationAction};
///
/// #[derive(Elicit, Debug, PartialEq)]
/// struct Confirm { ok: bool }
///
/// let cancel = ElicitResult::new(ElicitationAction::Cancel);
/// assert_eq!(elicit_core::rmcp::outcome::<Confirm>(&cancel).unwrap(), Outcome::Cancelled);
/// ```
pub fn outcome<T: Elicit>(result: &mcp::ElicitResult) -> Result<Outcome<T>, McpOutcomeError> {
    match &result.action {
        mcp::ElicitationAction::Accept => {
            let empty = Content::new();
            let content = match &result.content {
                None | Some(Value::Null) => &empty,
                Some(Value::Object(content)) => content,
                Some(other) => {
                    return Err(McpOutcomeError::ContentNotAnObject {
                        found: JsonKind::of(other),
                    });
                }
            };
            Ok(Outcome::Accepted(T::from_content(content)?))
        }
        mcp::ElicitationAction::Decline => Ok(Outcome::Declined),
        mcp::ElicitationAction::Cancel => Ok(Outcome::Cancelled),
        // An action rmcp added later: unknown, never one of the three.
        other => other_action(other, result.content.as_ref()).map(Outcome::UnknownAction),
    }
}

/// An action rmcp added after the version elicit was built against, kept raw
/// with its `content` (if any).
fn other_action(
    action: &mcp::ElicitationAction,
    content: Option<&Value>,
) -> Result<OtherAction, McpOutcomeError> {
    let name = match serde_json::to_value(action) {
        Ok(Value::String(name)) => name,
        Ok(value) => {
            return Err(McpOutcomeError::UnreadableAction {
                reason: format!("its JSON is {}, not a string", JsonKind::of(&value)),
            });
        }
        Err(e) => {
            return Err(McpOutcomeError::UnreadableAction {
                reason: e.to_string(),
            });
        }
    };
    let mut fields = Map::new();
    if let Some(content) = content {
        fields.insert("content".to_owned(), content.clone());
    }
    OtherAction::new(name.clone(), fields).ok_or_else(|| McpOutcomeError::UnreadableAction {
        reason: format!("`{name}` is a known action"),
    })
}

impl<T: Elicit> Outcome<T> {
    /// Reads rmcp's `ElicitResult`: see [`outcome`].
    pub fn from_mcp(result: &mcp::ElicitResult) -> Result<Self, McpOutcomeError> {
        outcome(result)
    }
}

// ---------------------------------------------------------------------------
// One call on rmcp's server peer

/// The JSON-RPC method of MCP's URL-mode completion notification, which
/// rmcp 3.11 has no type for: [`ElicitExt::notify_elicitation_complete`]
/// sends it as a custom notification.
pub const ELICITATION_COMPLETE_NOTIFICATION: &str = "notifications/elicitation/complete";

/// Why an [`ElicitExt`] call returned no answer. Each message says what
/// happened and what to do; the variants before [`Service`](Self::Service)
/// are refusals made before any request was sent.
///
/// Match the variants you can act on and let the rest fail the tool call
/// with their message (the enum is `#[non_exhaustive]`, so a `_` arm is
/// needed anyway):
///
/// ```no_run
/// use elicit_core::rmcp::{ElicitExt, McpElicitError};
/// use elicit_core::{Elicit, Outcome};
/// use rmcp::model::{CallToolResult, ContentBlock};
/// use rmcp::{Peer, RoleServer};
///
/// #[derive(Elicit)]
/// struct Confirm {
///     /// Go ahead with the deployment?
///     proceed: bool,
/// }
///
/// /// A tool's result: text for the model, and whether the call failed.
/// async fn deploy(peer: &Peer<RoleServer>) -> CallToolResult {
///     let text = match peer.elicit_form::<Confirm>("Deploy to production?").retry(2).await {
///         Ok(Outcome::Accepted(Confirm { proceed: true })) => "Deploying.".to_owned(),
///         // Declined, cancelled, or "no": nothing happens, nothing is asked again.
///         Ok(_) => "Not deploying.".to_owned(),
///         // Nothing was sent: this client cannot show forms. Fall back.
///         Err(McpElicitError::ModeNotAdvertised { .. }) => {
///             "This client cannot show forms: ask the user in the conversation.".to_owned()
///         }
///         // Every answer broke a rule: the errors name the fields.
///         Err(McpElicitError::Invalid { errors, attempts }) => {
///             let fields: Vec<&str> = errors.fields().collect();
///             let text = format!("no valid answer in {attempts} tries (fields: {fields:?})");
///             return CallToolResult::error(vec![ContentBlock::text(text)]);
///         }
///         // The transport or the client failed: nothing was accepted.
///         Err(McpElicitError::Service(error)) => {
///             let text = format!("could not ask the user: {error}");
///             return CallToolResult::error(vec![ContentBlock::text(text)]);
///         }
///         // The rest are the form's or the URL's own faults (a credential-named
///         // field, a part MCP cannot carry, an unsafe URL): fix them in code.
///         Err(other) => return CallToolResult::error(vec![ContentBlock::text(other.to_string())]),
///     };
///     CallToolResult::success(vec![ContentBlock::text(text)])
/// }
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum McpElicitError {
    /// The client did not advertise this elicitation mode (MCP's rule: see
    /// [`client_supports`]). No request was sent.
    #[error(
        "the MCP client did not advertise elicitation {mode} mode (`capabilities.elicitation` \
         of its `initialize`; an empty object means form mode only): no request was sent; \
         fall back (ask in the conversation, use a default) or fail the tool call"
    )]
    ModeNotAdvertised {
        /// The mode that was asked for.
        mode: Mode,
    },
    /// [`ElicitExt::elicit_sensitive`] needs URL mode, which the client did
    /// not advertise. No request was sent; there is no fallback to a form.
    #[error(
        "sensitive input needs URL mode, which the MCP client did not advertise \
         (`capabilities.elicitation.url`): no request was sent; never ask for it in a form; \
         tell the user where to enter it outside MCP, or fail the tool call"
    )]
    SensitiveInputNeedsUrlMode,
    /// The form's schema is not a valid restricted schema (a hand-written
    /// `Elicit` impl; derived forms are checked at compile time).
    #[error("the form cannot be sent, no request was sent: {0}")]
    InvalidFormSchema(#[source] SchemaError),
    /// A form property is named like a credential: secrets never go through
    /// a form.
    #[error(
        "the form field `{field}` looks like a credential, no request was sent: forms must \
         never collect secrets; use `elicit_sensitive` (URL mode) instead"
    )]
    CredentialField {
        /// The property's wire name.
        field: String,
    },
    /// The form has a part MCP cannot carry (see the
    /// [rules](crate::rmcp#conversion-rules)).
    #[error("the form cannot be sent over MCP, no request was sent: {0}")]
    UnsendableForm(#[source] McpSchemaError),
    /// The URL is refused by the URL policy
    /// ([`check_url`]).
    #[error("unsafe elicitation URL, no request was sent: {0}")]
    UnsafeUrl(#[source] UrlRejection),
    /// The `elicitationId` is empty.
    #[error(
        "the elicitationId is empty, nothing was sent: give each URL elicitation a unique \
         non-empty id (e.g. the one your callback URL carries)"
    )]
    EmptyElicitationId,
    /// rmcp could not send the request or notification, or the client
    /// answered with an error (transport closed, timeout, a JSON-RPC error,
    /// a protocol version without server-to-client requests, ...).
    #[error(
        "rmcp could not send the elicitation or get its answer: {0}; treat it as no \
         answer (nothing was accepted) and fail the tool call or ask in the conversation"
    )]
    Service(#[source] ServiceError),
    /// The client's answer cannot be read (accepted content that is not an
    /// object, an action elicit cannot name). Not asked again: it is a client
    /// fault, not the user's.
    #[error("the MCP client's answer cannot be read: {0}; nothing was accepted")]
    Unreadable(#[source] McpOutcomeError),
    /// Every answer broke the form's rules, the last one as `errors`, after
    /// `attempts` requests (see [`FormElicitation::retry`]).
    #[error(
        "no valid answer after {attempts} attempt(s), the last one: {errors}; nothing was \
         accepted: ask in the conversation or fail the tool call"
    )]
    Invalid {
        /// What was wrong with the last answer, by field.
        #[source]
        errors: ContentError,
        /// How many form requests were sent.
        attempts: u32,
    },
}

/// Whether an MCP client with these `initialize` capabilities accepts
/// elicitation `mode`, by MCP's rule: no `elicitation` capability means no
/// mode; an empty `elicitation` object means form mode only (the
/// 2025-06-18 shape); otherwise exactly the modes it lists. This is the rule
/// of rmcp's `Peer::<RoleServer>::supported_elicitation_modes`, which needs
/// rmcp's `elicitation` feature (and the `url` crate); this one does not.
///
/// ```
/// use elicit_core::protocol::Mode;
/// use elicit_core::rmcp::client_supports;
/// use rmcp::model::{ClientCapabilities, ElicitationCapability, UrlElicitationCapability};
///
/// let mut capabilities = ClientCapabilities::default();
/// assert!(!client_supports(&capabilities, Mode::Form));
///
/// capabilities.elicitation = Some(ElicitationCapability::new());
/// assert!(client_supports(&capabilities, Mode::Form));
/// assert!(!client_supports(&capabilities, Mode::Url));
///
/// capabilities.elicitation =
///     Some(ElicitationCapability::new().with_url(UrlElicitationCapability::new()));
/// assert!(!client_supports(&capabilities, Mode::Form));
/// assert!(client_supports(&capabilities, Mode::Url));
/// ```
pub fn client_supports(capabilities: &mcp::ClientCapabilities, mode: Mode) -> bool {
    let Some(elicitation) = &capabilities.elicitation else {
        return false;
    };
    match mode {
        // `{}` (neither listed) is form mode.
        Mode::Form => elicitation.form.is_some() || elicitation.url.is_none(),
        Mode::Url => elicitation.url.is_some(),
    }
}

/// A URL-mode elicitation to send with [`ElicitExt::elicit_url_consent`] or
/// [`ElicitExt::elicit_sensitive`]: the message the client shows, the URL it
/// offers to open, and the `elicitationId` your out-of-band callback will
/// report as complete.
///
/// ```
/// use elicit_core::rmcp::UrlElicitation;
///
/// let request = UrlElicitation::new(
///     "Connect your GitHub account.",
///     "https://mcp.example.com/connect?elicitation=gh-42",
///     "gh-42",
/// );
/// assert_eq!(request.id().as_str(), "gh-42");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlElicitation {
    message: String,
    url: String,
    id: ElicitationId,
}

impl UrlElicitation {
    /// A request showing `message` and offering to open `url`, identified by
    /// `elicitation_id`. Ids must be unique among this client's outstanding
    /// URL elicitations; the URL is checked when the request is sent.
    ///
    /// Nothing here keeps state: your server remembers which ids are
    /// outstanding, for which client and which verified user, and checks the
    /// completing user in its callback before it calls
    /// [`ElicitExt::notify_elicitation_complete`].
    pub fn new(
        message: impl Into<String>,
        url: impl Into<String>,
        elicitation_id: impl Into<ElicitationId>,
    ) -> Self {
        Self {
            message: message.into(),
            url: url.into(),
            id: elicitation_id.into(),
        }
    }

    /// The `elicitationId`.
    pub fn id(&self) -> &ElicitationId {
        &self.id
    }
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for ::rmcp::Peer<::rmcp::RoleServer> {}
}

/// Typed elicitation in one call on rmcp's server-side peer
/// (`context.peer` in a tool handler). Implemented for
/// `Peer<RoleServer>` only (sealed).
///
/// Every call checks the client's capabilities first ([`client_supports`])
/// and refuses, sending nothing, when the mode is not advertised.
///
/// ```no_run
/// use elicit_core::rmcp::{ElicitExt, McpElicitError};
/// use elicit_core::{Elicit, Outcome};
/// use rmcp::{Peer, RoleServer};
///
/// #[derive(Elicit, Debug)]
/// struct Confirm {
///     /// Go ahead with the deployment?
///     proceed: bool,
/// }
///
/// async fn confirm(peer: &Peer<RoleServer>) -> Result<bool, McpElicitError> {
///     // Asks up to 3 times if the answer breaks the form's rules.
///     match peer.elicit_form::<Confirm>("Deploy to production?").retry(2).await? {
///         Outcome::Accepted(form) => Ok(form.proceed),
///         Outcome::Declined | Outcome::Cancelled | Outcome::UnknownAction(_) => Ok(false),
///     }
/// }
/// ```
///
/// The URL-mode call is `elicit_url_consent`, not `elicit_url`: rmcp's peer
/// has an inherent `elicit_url` (feature `elicitation`), which method-call
/// syntax would pick instead.
pub trait ElicitExt: sealed::Sealed {
    /// Whether the client advertised elicitation `mode` in `initialize`, by
    /// MCP's rule ([`client_supports`]); `false` before initialization.
    fn supports_elicitation(&self, mode: Mode) -> bool;

    /// Asks for the form `T` in form mode; await it (see
    /// [`FormElicitation`]), optionally after
    /// [`.retry(n)`](FormElicitation::retry).
    ///
    /// MCP drops the form's title and description: say what the user needs
    /// to know in `message`, which clients show.
    fn elicit_form<T: Elicit>(&self, message: impl Into<String>) -> FormElicitation<'_, T>;

    /// Sends a URL-mode elicitation. The answer's `accept` only means the
    /// user **consented to open the URL** ([`UrlOutcome::Consented`]); the
    /// interaction itself is complete when your own out-of-band callback
    /// says so (then [`notify_elicitation_complete`](Self::notify_elicitation_complete)).
    ///
    /// Refused, sending nothing, when the client did not advertise URL mode
    /// ([`McpElicitError::ModeNotAdvertised`]), the URL fails
    /// [`check_url`]
    /// ([`McpElicitError::UnsafeUrl`]) or the id is empty.
    ///
    /// ```no_run
    /// use elicit_core::protocol::UrlOutcome;
    /// use elicit_core::rmcp::{ElicitExt, McpElicitError, UrlElicitation};
    /// use rmcp::{Peer, RoleServer};
    ///
    /// async fn connect(peer: &Peer<RoleServer>) -> Result<String, McpElicitError> {
    ///     let request = UrlElicitation::new(
    ///         "Connect your GitHub account.",
    ///         "https://mcp.example.com/connect?elicitation=gh-42",
    ///         "gh-42",
    ///     );
    ///     Ok(match peer.elicit_url_consent(request).await? {
    ///         // Consent only: wait for your callback before using the account.
    ///         UrlOutcome::Consented(waiting) => format!("waiting for {}", waiting.id().as_str()),
    ///         UrlOutcome::Declined | UrlOutcome::Cancelled => "not connected".to_owned(),
    ///         UrlOutcome::UnknownAction(other) => format!("unknown answer `{}`", other.action()),
    ///     })
    /// }
    /// ```
    fn elicit_url_consent(
        &self,
        request: UrlElicitation,
    ) -> impl Future<Output = Result<UrlOutcome, McpElicitError>> + Send + '_;

    /// The entry point for sensitive input (passwords, API keys, tokens,
    /// payment details): [`elicit_url_consent`](Self::elicit_url_consent),
    /// but a client without URL mode gets
    /// [`McpElicitError::SensitiveInputNeedsUrlMode`] and no request. It never
    /// falls back to a form, whatever the client supports.
    fn elicit_sensitive(
        &self,
        request: UrlElicitation,
    ) -> impl Future<Output = Result<UrlOutcome, McpElicitError>> + Send + '_;

    /// Tells the client that the out-of-band interaction of URL elicitation
    /// `id` finished ([`ELICITATION_COMPLETE_NOTIFICATION`], optional in
    /// MCP). Send it only to the client that received the request, once your
    /// callback has checked who completed it.
    fn notify_elicitation_complete(
        &self,
        id: &ElicitationId,
    ) -> impl Future<Output = Result<(), McpElicitError>> + Send + '_;
}

impl ElicitExt for Peer<RoleServer> {
    fn supports_elicitation(&self, mode: Mode) -> bool {
        self.peer_info()
            .is_some_and(|client| client_supports(&client.capabilities, mode))
    }

    fn elicit_form<T: Elicit>(&self, message: impl Into<String>) -> FormElicitation<'_, T> {
        FormElicitation {
            peer: self,
            message: message.into(),
            retry: Retry::NEVER,
            _form: PhantomData,
        }
    }

    fn elicit_url_consent(
        &self,
        request: UrlElicitation,
    ) -> impl Future<Output = Result<UrlOutcome, McpElicitError>> + Send + '_ {
        ask_url(self, request, false)
    }

    fn elicit_sensitive(
        &self,
        request: UrlElicitation,
    ) -> impl Future<Output = Result<UrlOutcome, McpElicitError>> + Send + '_ {
        ask_url(self, request, true)
    }

    fn notify_elicitation_complete(
        &self,
        id: &ElicitationId,
    ) -> impl Future<Output = Result<(), McpElicitError>> + Send + '_ {
        let id = id.clone();
        async move {
            if id.as_str().is_empty() {
                return Err(McpElicitError::EmptyElicitationId);
            }
            let mut params = Map::new();
            params.insert("elicitationId".to_owned(), id.into_string().into());
            let notification = mcp::CustomNotification::new(
                ELICITATION_COMPLETE_NOTIFICATION,
                Some(Value::Object(params)),
            );
            self.send_notification(mcp::ServerNotification::CustomNotification(notification))
                .await
                .map_err(McpElicitError::Service)
        }
    }
}

/// A form elicitation of `T`, built by [`ElicitExt::elicit_form`]; `.await`
/// it to send it.
///
/// Awaiting it checks form mode, checks the form (a valid restricted schema,
/// no credential-like field, nothing MCP cannot carry), sends
/// `elicitation/create`, and reads the answer with [`outcome`] (validated
/// again by `T::from_content`, including what the client cannot check, such
/// as a `pattern`).
///
/// With [`retry(n)`](Self::retry), an accept whose content breaks the form's
/// rules is asked again, up to `n` more times, with the message
/// [`Retry::message`] builds (the original message, then the errors by
/// field). A decline or cancel is the user's answer and is returned at once.
///
/// It is a builder awaited through [`IntoFuture`] rather than a second
/// method (`elicit_form_with_retry`), so the common call stays
/// `peer.elicit_form::<T>(msg).await` and options read in place. The price
/// is one boxed future per call.
#[must_use = "nothing is sent until the elicitation is awaited"]
pub struct FormElicitation<'a, T> {
    peer: &'a Peer<RoleServer>,
    message: String,
    retry: Retry,
    _form: PhantomData<fn() -> T>,
}

impl<T> fmt::Debug for FormElicitation<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FormElicitation")
            .field("form", &std::any::type_name::<T>())
            .field("message", &self.message)
            .field("retry", &self.retry)
            .finish_non_exhaustive()
    }
}

impl<T> FormElicitation<'_, T> {
    /// Asks again up to `again` more times (so at most `again + 1` requests)
    /// when the accepted content breaks the form's rules; the default is
    /// [`Retry::NEVER`]. After the last attempt the error is
    /// [`McpElicitError::Invalid`], with the errors and the attempt count.
    pub fn retry(mut self, again: u32) -> Self {
        self.retry = Retry::times(again);
        self
    }
}

impl<'a, T: Elicit + 'a> IntoFuture for FormElicitation<'a, T> {
    type Output = Result<Outcome<T>, McpElicitError>;
    type IntoFuture = Pin<Box<dyn Future<Output = Self::Output> + Send + 'a>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(ask_form::<T>(self.peer, self.message, self.retry))
    }
}

async fn ask_form<T: Elicit>(
    peer: &Peer<RoleServer>,
    message: String,
    retry: Retry,
) -> Result<Outcome<T>, McpElicitError> {
    if !peer.supports_elicitation(Mode::Form) {
        return Err(McpElicitError::ModeNotAdvertised { mode: Mode::Form });
    }
    let requested = checked_form::<T>()?;
    let mut attempts: u32 = 0;
    let mut next = message.clone();
    loop {
        attempts = attempts.saturating_add(1);
        let result = send(peer, form_params(next, requested.clone())).await?;
        match outcome::<T>(&result) {
            Ok(outcome) => return Ok(outcome),
            Err(McpOutcomeError::Invalid(errors)) if attempts > retry.again() => {
                return Err(McpElicitError::Invalid { errors, attempts });
            }
            Err(McpOutcomeError::Invalid(errors)) => next = Retry::message(&message, &errors),
            Err(other) => return Err(McpElicitError::Unreadable(other)),
        }
    }
}

/// `T`'s schema, checked as [`AgentConnection::form`] checks it, in MCP's
/// shape.
///
/// [`AgentConnection::form`]: crate::protocol::agent::AgentConnection::form
fn checked_form<T: Elicit>() -> Result<mcp::ElicitationSchema, McpElicitError> {
    let schema = sendable_schema::<T>().map_err(|unsendable| match unsendable {
        Unsendable::Schema(e) => McpElicitError::InvalidFormSchema(e),
        Unsendable::Credential(field) => McpElicitError::CredentialField { field },
    })?;
    to_mcp_schema(&schema).map_err(McpElicitError::UnsendableForm)
}

async fn ask_url(
    peer: &Peer<RoleServer>,
    request: UrlElicitation,
    sensitive: bool,
) -> Result<UrlOutcome, McpElicitError> {
    if !peer.supports_elicitation(Mode::Url) {
        return Err(if sensitive {
            McpElicitError::SensitiveInputNeedsUrlMode
        } else {
            McpElicitError::ModeNotAdvertised { mode: Mode::Url }
        });
    }
    check_url(&request.url).map_err(McpElicitError::UnsafeUrl)?;
    if request.id.as_str().is_empty() {
        return Err(McpElicitError::EmptyElicitationId);
    }
    let params = mcp::ElicitRequestParams::UrlElicitationParams {
        meta: None,
        message: request.message,
        url: request.url,
        elicitation_id: request.id.as_str().to_owned(),
    };
    let result = send(peer, params).await?;
    // Any content is ignored: nothing obtained out of band travels over MCP.
    Ok(match &result.action {
        mcp::ElicitationAction::Accept => {
            UrlOutcome::Consented(AwaitingCompletion::new(request.id))
        }
        mcp::ElicitationAction::Decline => UrlOutcome::Declined,
        mcp::ElicitationAction::Cancel => UrlOutcome::Cancelled,
        other => UrlOutcome::UnknownAction(
            other_action(other, None).map_err(McpElicitError::Unreadable)?,
        ),
    })
}

/// Sends `elicitation/create` (what rmcp's `create_elicitation` does, which
/// needs rmcp's `elicitation` feature).
async fn send(
    peer: &Peer<RoleServer>,
    params: mcp::ElicitRequestParams,
) -> Result<mcp::ElicitResult, McpElicitError> {
    let request = mcp::ServerRequest::ElicitRequest(mcp::ElicitRequest::new(params));
    match peer.send_request(request).await {
        Ok(mcp::ClientResult::ElicitResult(result)) => Ok(result),
        Ok(_) => Err(McpElicitError::Service(ServiceError::UnexpectedResponse)),
        Err(e) => Err(McpElicitError::Service(e)),
    }
}
