//! The wire model's hand-written (de)serialization: only what serde derive
//! cannot say ([`Properties`]' document order and unique names, the `type`
//! dispatch of [`PropertySchema`], the two shapes of multi-select
//! [`Items`]).

use super::*;

/// Document order on the way in, declaration order on the way out; a name
/// given twice is refused.
impl Serialize for Properties {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.iter())
    }
}

impl<'de> Deserialize<'de> for Properties {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct PropertiesVisitor;
        impl<'de> Visitor<'de> for PropertiesVisitor {
            type Value = Properties;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object of property schemas")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut properties = Properties::new();
                while let Some(name) = map.next_key::<String>()? {
                    let schema: PropertySchema = map.next_value()?;
                    properties.entries.push((name, schema));
                }
                // One pass with a set, not a scan per property: a request
                // with 100,000 properties is read in linear time.
                let mut seen = std::collections::HashSet::with_capacity(properties.len());
                if let Some((name, _)) = properties.entries.iter().find(|(n, _)| !seen.insert(n)) {
                    return Err(de::Error::custom(format_args!(
                        "duplicate property `{}`",
                        crate::error::excerpt(name, crate::limits::MAX_ECHOED_CHARS)
                    )));
                }
                Ok(properties)
            }
        }
        deserializer.deserialize_map(PropertiesVisitor)
    }
}

/// Dispatches on `type`: a known kind must be well-formed, an unknown one is
/// kept raw.
impl<'de> Deserialize<'de> for PropertySchema {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let UniqueMap(fields) = UniqueMap::deserialize(deserializer)?;
        PropertySchema::from_json(fields).map_err(de::Error::custom)
    }
}

/// The options of a single-select: `enum` or `oneOf`, never both.
#[derive(Deserialize)]
struct SelectOptions {
    #[serde(rename = "enum")]
    untitled: Option<Vec<String>>,
    #[serde(rename = "oneOf")]
    titled: Option<Vec<EnumOption>>,
}

/// A multi-select's `items` of `type: "string"`.
#[derive(Deserialize)]
struct UntitledItems {
    #[serde(rename = "enum")]
    values: Vec<String>,
}

/// A multi-select's titled `items`.
#[derive(Deserialize)]
struct TitledItems {
    #[serde(rename = "anyOf")]
    options: Vec<EnumOption>,
}

/// `value` read as a `T`; an error names the object (`at`) and the field.
fn read<T: DeserializeOwned>(value: &Value, at: &str) -> Result<T, String> {
    serde_path_to_error::deserialize(value).map_err(|e| match e.path().to_string() {
        path if path == "." => format!("{at}: {}", e.inner()),
        path => format!("{at} `{path}`: {}", e.inner()),
    })
}

impl PropertySchema {
    /// Reads a property schema from its JSON object, as a receiver would:
    /// known kinds must be well-formed; unknown `type`s are kept raw.
    pub(crate) fn from_json(fields: Map<String, Value>) -> Result<Self, String> {
        let type_ = match fields.get("type") {
            Some(Value::String(t)) => t.clone(),
            Some(_) => return Err("property `type` must be a string".to_owned()),
            None => return Err("property schema is missing `type`".to_owned()),
        };
        let at = match type_.as_str() {
            "string" => "string property",
            "number" => "number property",
            "integer" => "integer property",
            "boolean" => "boolean property",
            "array" => "array property",
            _ => return Ok(Self::Other(OtherSchema { type_, fields })),
        };
        let value = Value::Object(fields);
        Ok(match type_.as_str() {
            "string" => {
                let mut schema: StringSchema = read(&value, at)?;
                let SelectOptions { untitled, titled } = read(&value, at)?;
                schema.options = match (untitled, titled) {
                    (Some(_), Some(_)) => {
                        return Err("string property has both `enum` and `oneOf`".to_owned());
                    }
                    (untitled, titled) => untitled
                        .map(Options::Untitled)
                        .or(titled.map(Options::Titled)),
                };
                Self::String(schema)
            }
            "number" => Self::Number(read(&value, at)?),
            "integer" => Self::Integer(read(&value, at)?),
            "boolean" => Self::Boolean(read(&value, at)?),
            _ => Self::MultiSelect(read(&value, at)?),
        })
    }
}

/// Writes `type` first, then every other field as received.
impl Serialize for OtherSchema {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("type", &self.type_)?;
        for (k, v) in self.fields.iter().filter(|(k, _)| *k != "type") {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// `{"type": "string", "enum": [..]}` or `{"anyOf": [..]}`; unknown item
/// schemas as received.
impl Serialize for Items {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Options(Options::Untitled(values)) => {
                let mut map = serializer.serialize_map(Some(2))?;
                map.serialize_entry("type", "string")?;
                map.serialize_entry("enum", values)?;
                map.end()
            }
            Self::Options(Options::Titled(options)) => {
                let mut map = serializer.serialize_map(Some(1))?;
                map.serialize_entry("anyOf", options)?;
                map.end()
            }
            Self::Other(raw) => raw.serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for Items {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let UniqueMap(fields) = UniqueMap::deserialize(deserializer)?;
        let at = "multi-select `items`";
        let items = match fields.get("type") {
            Some(Value::String(t)) if t == "string" => {
                read::<UntitledItems>(&Value::Object(fields), at)
                    .map(|i| Self::Options(Options::Untitled(i.values)))
            }
            Some(Value::String(_)) => Ok(Self::Other(fields)),
            Some(_) => Err("multi-select `items.type` must be a string".to_owned()),
            None if fields.contains_key("anyOf") => read::<TitledItems>(&Value::Object(fields), at)
                .map(|i| Self::Options(Options::Titled(i.options))),
            None => Err(
                "multi-select `items` needs `type: \"string\"` with `enum`, or `anyOf`".to_owned(),
            ),
        };
        items.map_err(de::Error::custom)
    }
}
