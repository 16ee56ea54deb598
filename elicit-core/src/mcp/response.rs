//! rmcp's `ElicitResult` to a form request, read as a typed outcome.

use ::rmcp::model;
use serde_json::{Map, Value};

use crate::error::JsonKind;
use crate::protocol::OtherAction;
use crate::protocol::agent::Outcome;
use crate::{Content, Elicit};

use crate::{ConversionError, ConversionErrorKind, OutcomeError};

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
pub(super) fn not_an_object(content: &Value) -> ConversionError {
    ConversionError::new(ConversionErrorKind::ContentNotAnObject {
        found: JsonKind::of(content),
    })
}

/// An action rmcp added after the version elicit was built against, kept raw
/// with its `content` (if any).
pub(super) fn other_action(
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
