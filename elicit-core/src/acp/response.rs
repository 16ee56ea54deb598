//! `elicitation/create` responses both ways (content values included), and
//! the SDK's response read as a typed outcome.

use std::collections::BTreeMap;

use agent_client_protocol_schema::v1 as sdk;
use serde_json::{Number, Value};

use crate::error::JsonKind;
use crate::protocol::agent::Outcome;
use crate::protocol::{CreateElicitationResponse, ElicitationAction, OtherAction};
use crate::{Content, Elicit};

use super::support::{by_value, to_btree, via_json};
use crate::{ConversionError, ConversionErrorKind, OutcomeError};

/// Reads the SDK's `CreateElicitationResponse` to a form request as a typed
/// [`Outcome`]: `accept` content is validated again with `T::from_content`
/// (omitted content is an empty form), `decline` and `cancel` map to their
/// variants, and an unknown action to [`Outcome::UnknownAction`] (a failure,
/// never one of the three). rmcp's `ElicitResult` reads the same way.
///
/// ```
/// use agent_client_protocol_schema::v1 as acp;
/// use elicit_core::Elicit;
/// use elicit_core::protocol::agent::Outcome;
///
/// #[derive(Elicit, Debug, PartialEq)]
/// struct Confirm { ok: bool }
///
/// let decline = acp::CreateElicitationResponse::new(acp::ElicitationAction::Decline);
/// assert_eq!(Outcome::<Confirm>::try_from(&decline).unwrap(), Outcome::Declined);
/// ```
impl<T: Elicit> TryFrom<&sdk::CreateElicitationResponse> for Outcome<T> {
    type Error = OutcomeError;

    fn try_from(response: &sdk::CreateElicitationResponse) -> Result<Self, OutcomeError> {
        let response = CreateElicitationResponse::try_from(response)?;
        Ok(Outcome::from_response(&response)?)
    }
}

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
