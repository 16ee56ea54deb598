//! Schemas both ways: formats, options, each property kind and the whole
//! `requestedSchema`.

use agent_client_protocol_schema::v1 as sdk;
use serde_json::Value;

use crate::schema::{
    BooleanSchema, ElicitationSchema, EnumOption, Format, IntegerSchema, Items, MultiSelectSchema,
    NumberSchema, Options, OtherSchema, Pattern, Properties, PropertySchema, StringSchema,
};

use super::support::{by_value, json_object, to_btree, with_type};
use crate::{ConversionError, ConversionErrorKind};

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
                    return Err(ConversionError::new(ConversionErrorKind::UnknownItems));
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
