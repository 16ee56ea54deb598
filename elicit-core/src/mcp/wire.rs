//! elicit's wire model in MCP's shape and back: `elicitation/create`'s
//! params (a form by the [rules](crate::mcp#conversion-rules)), and rmcp's
//! `ElicitResult` read into elicit's response, or as a typed [`Outcome`].

use ::rmcp::model;
use serde_json::{Map, Value};

use super::schema::to_mcp_schema;
use crate::error::JsonKind;
use crate::flow::ElicitError;
use crate::protocol::agent::Outcome;
use crate::protocol::agent::SendError;
use crate::protocol::{
    CreateElicitationRequest, CreateElicitationResponse, ElicitationAction, ElicitationMode,
    OtherAction,
};
use crate::{Content, ConversionError, ConversionErrorKind, Elicit, OutcomeError};

/// `elicitation/create` in MCP's shape: a form by the
/// [rules](crate::mcp#conversion-rules) (a form MCP cannot carry is not
/// sent), a URL request as it is (MCP has no scope: it is dropped).
pub(super) fn params_of(
    request: CreateElicitationRequest,
) -> Result<model::ElicitRequestParams, ElicitError> {
    Ok(match request.mode {
        ElicitationMode::Form { requested_schema } => form_params(
            request.message,
            to_mcp_schema(&requested_schema).map_err(unsendable)?,
        ),
        ElicitationMode::Url {
            elicitation_id,
            url,
        } => model::ElicitRequestParams::UrlElicitationParams {
            meta: None,
            message: request.message,
            url,
            elicitation_id: elicitation_id.into_string(),
        },
        // The flows send form and URL requests only.
        ElicitationMode::Other(other) => {
            return Err(unsendable(ConversionError::at(
                "mode",
                ConversionErrorKind::Rejected {
                    reason: format!("MCP has no elicitation mode `{}`", other.mode()),
                },
            )));
        }
    })
}

/// The `elicitation/create` params of a form request.
fn form_params(
    message: String,
    requested_schema: model::ElicitationSchema,
) -> model::ElicitRequestParams {
    model::ElicitRequestParams::FormElicitationParams {
        meta: None,
        message,
        requested_schema,
    }
}

/// A form MCP cannot carry: nothing was sent.
fn unsendable(error: ConversionError) -> ElicitError {
    ElicitError::NotSent(SendError::UnsendableForm(error))
}

/// rmcp's `ElicitResult` in elicit's model. Accepted content must be an
/// object (omitted or `null`: none); an action rmcp added later is kept raw.
pub(super) fn response_of(
    result: &model::ElicitResult,
) -> Result<CreateElicitationResponse, ConversionError> {
    let action = match &result.action {
        model::ElicitationAction::Accept => ElicitationAction::Accept {
            content: match &result.content {
                None | Some(Value::Null) => None,
                Some(Value::Object(content)) => Some(content.clone()),
                Some(other) => return Err(not_an_object(other)),
            },
        },
        model::ElicitationAction::Decline => ElicitationAction::Decline,
        model::ElicitationAction::Cancel => ElicitationAction::Cancel,
        other => ElicitationAction::Other(other_action(other, result.content.as_ref())?),
    };
    Ok(CreateElicitationResponse { action, meta: None })
}

/// Reads rmcp's `ElicitResult` to a form request as a typed [`Outcome`]:
/// `accept` content (omitted or `null` is an empty form) is validated again
/// with `T::from_content`, which also checks what the MCP client could not
/// (a dropped `pattern`); `decline` and `cancel` map to their variants and
/// ignore any content. The ACP SDK's response reads the same way.
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
/// assert_eq!(Outcome::<Confirm>::try_from(&cancel).unwrap(), Outcome::Cancelled);
/// ```
impl<T: Elicit> TryFrom<&model::ElicitResult> for Outcome<T> {
    type Error = OutcomeError;

    fn try_from(result: &model::ElicitResult) -> Result<Self, OutcomeError> {
        match &result.action {
            model::ElicitationAction::Accept => {
                let empty = Content::new();
                let content = match &result.content {
                    None | Some(Value::Null) => &empty,
                    Some(Value::Object(content)) => content,
                    Some(other) => return Err(not_an_object(other).into()),
                };
                Ok(Outcome::Accepted(T::from_content(content)?))
            }
            model::ElicitationAction::Decline => Ok(Outcome::Declined),
            model::ElicitationAction::Cancel => Ok(Outcome::Cancelled),
            // An action rmcp added later: unknown, never one of the three.
            other => Ok(Outcome::UnknownAction(other_action(
                other,
                result.content.as_ref(),
            )?)),
        }
    }
}

/// Accepted `content` that is not an object.
fn not_an_object(content: &Value) -> ConversionError {
    ConversionError::new(ConversionErrorKind::ContentNotAnObject {
        found: JsonKind::of(content),
    })
}

/// An action rmcp added after the version elicit was built against, kept raw
/// with its `content` (if any).
fn other_action(
    action: &model::ElicitationAction,
    content: Option<&Value>,
) -> Result<OtherAction, ConversionError> {
    let name = match serde_json::to_value(action) {
        Ok(Value::String(name)) => name,
        Ok(value) => {
            return Err(unreadable_action(format!(
                "its JSON is {}, not a string",
                JsonKind::of(&value)
            )));
        }
        Err(e) => {
            return Err(unreadable_action(e.to_string()));
        }
    };
    let mut fields = Map::new();
    if let Some(content) = content {
        fields.insert("content".to_owned(), content.clone());
    }
    OtherAction::new(name.clone(), fields)
        .ok_or_else(|| unreadable_action(format!("`{name}` is a known action")))
}

/// An action elicit cannot read.
fn unreadable_action(reason: String) -> ConversionError {
    ConversionError::new(ConversionErrorKind::UnknownVariant {
        what: "action",
        reason,
    })
}
