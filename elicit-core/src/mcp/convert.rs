//! A form's schema in MCP's shape (rmcp's `ElicitationSchema` and the
//! `elicitation/create` params), and rmcp's `ElicitResult` read as a typed
//! outcome.

use std::borrow::Cow;
use std::collections::BTreeMap;

use ::rmcp::model;
use serde_json::{Map, Value};

use crate::error::JsonKind;
use crate::protocol::OtherAction;
use crate::protocol::agent::Outcome;
use crate::schema::{
    ElicitationSchema, EnumOption, Format, Items, MultiSelectSchema, Options, PropertySchema,
    StringSchema,
};
use crate::{Content, Elicit};

use super::error::{ConversionError, ConversionErrorKind, OutcomeError};

// ---------------------------------------------------------------------------
// Schema conversion

/// The form `T`'s schema as rmcp's `ElicitationSchema`, by the
/// [rules](crate::mcp#conversion-rules): `to_mcp_schema(&T::schema())`.
pub fn schema<T: Elicit>() -> Result<model::ElicitationSchema, ConversionError> {
    to_mcp_schema(&T::schema())
}

/// The `elicitation/create` params of a form request for `T`, ready for
/// `peer.create_elicitation(..)`. Put the form's title and description (which
/// MCP drops) into `message` if the user needs them.
pub fn form_request<T: Elicit>(
    message: impl Into<String>,
) -> Result<model::ElicitRequestParams, ConversionError> {
    Ok(form_params(message.into(), schema::<T>()?))
}

/// The `elicitation/create` params of a form request.
pub(super) fn form_params(
    message: String,
    requested_schema: model::ElicitationSchema,
) -> model::ElicitRequestParams {
    model::ElicitRequestParams::FormElicitationParams {
        meta: None,
        message,
        requested_schema,
    }
}

/// Any restricted schema as rmcp's `ElicitationSchema`, by the
/// [rules](crate::mcp#conversion-rules). Property order is kept.
pub fn to_mcp_schema(
    schema: &ElicitationSchema,
) -> Result<model::ElicitationSchema, ConversionError> {
    let mut properties = BTreeMap::new();
    let mut order = Vec::with_capacity(schema.properties.len());
    for (name, property) in &schema.properties {
        let converted =
            property_to_mcp(property).map_err(|kind| ConversionError::at(name, kind))?;
        if properties.insert(name.to_owned(), converted).is_some() {
            return Err(ConversionError::at(
                name,
                ConversionErrorKind::DuplicateProperty,
            ));
        }
        order.push(name.to_owned());
    }
    let mut out = model::ElicitationSchema::new(properties);
    out.property_order = Some(order);
    if !schema.required.is_empty() {
        out.required = Some(schema.required.clone());
    }
    Ok(out)
}

/// See [`to_mcp_schema`].
impl TryFrom<&ElicitationSchema> for model::ElicitationSchema {
    type Error = ConversionError;
    fn try_from(schema: &ElicitationSchema) -> Result<Self, ConversionError> {
        to_mcp_schema(schema)
    }
}

/// See [`to_mcp_schema`].
impl TryFrom<ElicitationSchema> for model::ElicitationSchema {
    type Error = ConversionError;
    fn try_from(schema: ElicitationSchema) -> Result<Self, ConversionError> {
        to_mcp_schema(&schema)
    }
}

fn text(s: &Option<String>) -> Option<Cow<'static, str>> {
    s.clone().map(Cow::Owned)
}

fn format_to_mcp(format: &Format) -> Result<model::StringFormat, ConversionErrorKind> {
    match format {
        Format::Email => Ok(model::StringFormat::Email),
        Format::Uri => Ok(model::StringFormat::Uri),
        Format::Date => Ok(model::StringFormat::Date),
        Format::DateTime => Ok(model::StringFormat::DateTime),
        Format::Other(other) => Err(ConversionErrorKind::CustomFormat {
            format: other.clone(),
        }),
    }
}

fn rejected(reason: impl Into<String>) -> ConversionErrorKind {
    ConversionErrorKind::Rejected {
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
) -> Result<model::PrimitiveSchemaDefinition, ConversionErrorKind> {
    Ok(match property {
        PropertySchema::String(s) => match &s.options {
            None => model::PrimitiveSchemaDefinition::String(string_to_mcp(s)?),
            Some(options) => {
                model::PrimitiveSchemaDefinition::Enum(single_select_to_mcp(s, options)?)
            }
        },
        PropertySchema::Number(s) => {
            let mut out = model::NumberSchema::new();
            out.title = text(&s.title);
            out.description = text(&s.description);
            out.minimum = s.minimum;
            out.maximum = s.maximum;
            out.default = s.default;
            model::PrimitiveSchemaDefinition::Number(out)
        }
        PropertySchema::Integer(s) => {
            let mut out = model::IntegerSchema::new();
            out.title = text(&s.title);
            out.description = text(&s.description);
            out.minimum = s.minimum;
            out.maximum = s.maximum;
            out.default = s.default;
            model::PrimitiveSchemaDefinition::Integer(out)
        }
        PropertySchema::Boolean(s) => {
            let mut out = model::BooleanSchema::new();
            out.title = text(&s.title);
            out.description = text(&s.description);
            out.default = s.default;
            model::PrimitiveSchemaDefinition::Boolean(out)
        }
        PropertySchema::MultiSelect(s) => {
            model::PrimitiveSchemaDefinition::Enum(multi_select_to_mcp(s)?)
        }
        PropertySchema::Other(o) => {
            return Err(ConversionErrorKind::UnknownPropertyType {
                type_: o.type_.clone(),
            });
        }
    })
}

fn string_to_mcp(s: &StringSchema) -> Result<model::StringSchema, ConversionErrorKind> {
    let mut out = model::StringSchema::new();
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
) -> Result<model::EnumSchema, ConversionErrorKind> {
    let (values, titles) = split(options);
    let mut builder = model::EnumSchema::builder(values);
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

fn multi_select_to_mcp(s: &MultiSelectSchema) -> Result<model::EnumSchema, ConversionErrorKind> {
    let Items::Options(options) = &s.items else {
        return Err(ConversionErrorKind::UnknownItems);
    };
    let (values, titles) = split(options);
    let mut builder = model::EnumSchema::builder(values).multiselect();
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
/// use elicit_core::Elicit;
/// use elicit_core::protocol::agent::Outcome;
/// use rmcp::model::{ElicitResult, ElicitationAction};
///
/// #[derive(Elicit, Debug, PartialEq)]
/// struct Confirm { ok: bool }
///
/// let cancel = ElicitResult::new(ElicitationAction::Cancel);
/// assert_eq!(elicit_core::mcp::outcome::<Confirm>(&cancel).unwrap(), Outcome::Cancelled);
/// ```
pub fn outcome<T: Elicit>(result: &model::ElicitResult) -> Result<Outcome<T>, OutcomeError> {
    match &result.action {
        model::ElicitationAction::Accept => {
            let empty = Content::new();
            let content = match &result.content {
                None | Some(Value::Null) => &empty,
                Some(Value::Object(content)) => content,
                Some(other) => {
                    return Err(OutcomeError::ContentNotAnObject {
                        found: JsonKind::of(other),
                    });
                }
            };
            Ok(Outcome::Accepted(T::from_content(content)?))
        }
        model::ElicitationAction::Decline => Ok(Outcome::Declined),
        model::ElicitationAction::Cancel => Ok(Outcome::Cancelled),
        // An action rmcp added later: unknown, never one of the three.
        other => other_action(other, result.content.as_ref()).map(Outcome::UnknownAction),
    }
}

/// An action rmcp added after the version elicit was built against, kept raw
/// with its `content` (if any).
pub(super) fn other_action(
    action: &model::ElicitationAction,
    content: Option<&Value>,
) -> Result<OtherAction, OutcomeError> {
    let name = match serde_json::to_value(action) {
        Ok(Value::String(name)) => name,
        Ok(value) => {
            return Err(OutcomeError::UnreadableAction {
                reason: format!("its JSON is {}, not a string", JsonKind::of(&value)),
            });
        }
        Err(e) => {
            return Err(OutcomeError::UnreadableAction {
                reason: e.to_string(),
            });
        }
    };
    let mut fields = Map::new();
    if let Some(content) = content {
        fields.insert("content".to_owned(), content.clone());
    }
    OtherAction::new(name.clone(), fields).ok_or_else(|| OutcomeError::UnreadableAction {
        reason: format!("`{name}` is a known action"),
    })
}

impl<T: Elicit> Outcome<T> {
    /// Reads rmcp's `ElicitResult`: see [`outcome`].
    pub fn from_mcp(result: &model::ElicitResult) -> Result<Self, OutcomeError> {
        outcome(result)
    }
}
