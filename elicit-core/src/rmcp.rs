//! MCP servers built on [rmcp](https://docs.rs/rmcp) (feature `rmcp`): a
//! derived form's schema as rmcp's `ElicitationSchema` (the MCP 2025-11-25
//! shape), and rmcp's `ElicitResult` as a typed [`Outcome<T>`].
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

use ::rmcp::model as mcp;
use serde_json::{Map, Value};

use crate::error::{ContentError, JsonKind, property_prefix};
use crate::protocol::{OtherAction, Outcome};
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
    Ok(mcp::ElicitRequestParams::FormElicitationParams {
        meta: None,
        message: message.into(),
        requested_schema: schema::<T>()?,
    })
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
        other => {
            let name = match serde_json::to_value(other) {
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
            if let Some(content) = &result.content {
                fields.insert("content".to_owned(), content.clone());
            }
            OtherAction::new(name.clone(), fields)
                .map(Outcome::UnknownAction)
                .ok_or_else(|| McpOutcomeError::UnreadableAction {
                    reason: format!("`{name}` is a known action"),
                })
        }
    }
}

impl<T: Elicit> Outcome<T> {
    /// Reads rmcp's `ElicitResult`: see [`outcome`].
    pub fn from_mcp(result: &mcp::ElicitResult) -> Result<Self, McpOutcomeError> {
        outcome(result)
    }
}
