//! rmcp's `ElicitResult` to a form request, read as a typed outcome.

use ::rmcp::model;
use serde_json::{Map, Value};

use crate::error::JsonKind;
use crate::protocol::OtherAction;
use crate::protocol::agent::Outcome;
use crate::{Content, Elicit};

use super::error::OutcomeError;

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
