//! A form's schema in MCP's shape: rmcp's `ElicitationSchema`, by the
//! [rules](crate::mcp#conversion-rules).

use std::borrow::Cow;
use std::collections::BTreeMap;

use ::rmcp::model;

use crate::schema::{
    ElicitationSchema, EnumOption, Format, Items, MultiSelectSchema, Options, PropertySchema,
    StringSchema,
};

use crate::{ConversionError, ConversionErrorKind};

/// A restricted schema as rmcp's `ElicitationSchema`, by the
/// [rules](crate::mcp#conversion-rules). Property order is kept.
pub(crate) fn to_mcp_schema(
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

/// A restricted schema as rmcp's `ElicitationSchema`, by the
/// [rules](crate::mcp#conversion-rules), property order kept; as the ACP
/// SDK's `ElicitationSchema` converts.
///
/// ```
/// use elicit_core::Elicit;
///
/// #[derive(Elicit)]
/// struct Confirm { ok: bool }
///
/// let schema = rmcp::model::ElicitationSchema::try_from(Confirm::schema()).unwrap();
/// assert!(schema.properties.contains_key("ok"));
/// ```
impl TryFrom<&ElicitationSchema> for model::ElicitationSchema {
    type Error = ConversionError;
    fn try_from(schema: &ElicitationSchema) -> Result<Self, ConversionError> {
        to_mcp_schema(schema)
    }
}

/// See `TryFrom<&ElicitationSchema>`.
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
