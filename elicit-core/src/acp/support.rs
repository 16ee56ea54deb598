//! What every conversion file shares: the by-value forwarding impls, and
//! reading the SDK's values of variants added after 1.17 through their JSON.

use std::collections::BTreeMap;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::error::JsonKind;

use crate::{ConversionError, ConversionErrorKind};

/// Reads a value of an SDK variant added after 1.17 through its JSON.
pub(super) fn via_json<T: DeserializeOwned>(
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
pub(super) fn json_object(
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

pub(super) fn to_btree(map: &Map<String, Value>, without: &str) -> BTreeMap<String, Value> {
    map.iter()
        .filter(|(k, _)| *k != without)
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// `fields` with `type` first, as elicit keeps raw kinds.
pub(super) fn with_type(type_: &str, fields: &BTreeMap<String, Value>) -> Map<String, Value> {
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

pub(super) use by_value;
