//! The answer to `elicitation/create`: the action, and `content` for
//! `accept`. Unknown actions are kept raw.

use serde::de::{self, Deserializer};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::Content;
use crate::json::lenient;

/// A response `action` other than `accept`, `decline` and `cancel`: an
/// extension (`_`-prefixed) or a future ACP action. Kept raw and written back
/// unchanged; it can never hold a known action, so it is never treated as one.
#[derive(Debug, Clone, PartialEq)]
pub struct OtherAction {
    action: String,
    fields: Map<String, Value>,
}

impl OtherAction {
    /// An unknown action with its fields. `None` when `action` is a known
    /// one. The `action` and `_meta` keys are removed from `fields`.
    pub fn new(action: impl Into<String>, mut fields: Map<String, Value>) -> Option<Self> {
        let action = action.into();
        if is_known_action(&action) {
            return None;
        }
        fields.retain(|k, _| k != "action" && k != "_meta");
        Some(Self { action, fields })
    }

    /// The wire `action`.
    pub fn action(&self) -> &str {
        &self.action
    }

    /// The other fields, as received.
    pub fn fields(&self) -> &Map<String, Value> {
        &self.fields
    }
}

fn is_known_action(action: &str) -> bool {
    matches!(action, "accept" | "decline" | "cancel")
}

/// What the user did.
#[derive(Debug, Clone, PartialEq)]
pub enum ElicitationAction {
    /// `"accept"`: the user submitted the form, or consented to open the URL
    /// (which does **not** mean the URL interaction completed).
    Accept {
        /// The submitted content (form mode); omitted and `null` are the same.
        content: Option<Content>,
    },
    /// `"decline"`: the user explicitly declined.
    Decline,
    /// `"cancel"`: the user dismissed the request without choosing.
    Cancel,
    /// Any other action, kept raw.
    Other(OtherAction),
}

impl ElicitationAction {
    /// The wire `action`.
    pub fn name(&self) -> &str {
        match self {
            Self::Accept { .. } => "accept",
            Self::Decline => "decline",
            Self::Cancel => "cancel",
            Self::Other(o) => o.action(),
        }
    }
}

/// The result of an `elicitation/create` request (client -> agent).
///
/// `content` is read only for `accept`; for `decline` and `cancel` it is
/// ignored, as the protocol says, and not written back.
#[derive(Debug, Clone, PartialEq)]
pub struct CreateElicitationResponse {
    /// What the user did.
    pub action: ElicitationAction,
    /// `_meta`, kept as is.
    pub meta: Option<Map<String, Value>>,
}

impl CreateElicitationResponse {
    /// An `accept` response.
    pub fn accept(content: Option<Content>) -> Self {
        Self {
            action: ElicitationAction::Accept { content },
            meta: None,
        }
    }

    /// A `decline` response.
    pub fn decline() -> Self {
        Self {
            action: ElicitationAction::Decline,
            meta: None,
        }
    }

    /// A `cancel` response.
    pub fn cancel() -> Self {
        Self {
            action: ElicitationAction::Cancel,
            meta: None,
        }
    }

    /// Sets `_meta`.
    #[must_use]
    pub fn with_meta(mut self, meta: Map<String, Value>) -> Self {
        self.meta = Some(meta);
        self
    }

    /// The accepted content, if the action is `accept` and has content.
    pub fn content(&self) -> Option<&Content> {
        match &self.action {
            ElicitationAction::Accept { content } => content.as_ref(),
            _ => None,
        }
    }
}

/// The response as written: `action`, `content`, an unknown action's own
/// fields, `_meta`.
#[derive(Serialize)]
struct ResponseOut<'a> {
    action: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    content: Option<&'a Content>,
    #[serde(flatten)]
    other: Option<&'a Map<String, Value>>,
    #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
    meta: Option<&'a Map<String, Value>>,
}

impl Serialize for CreateElicitationResponse {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (content, other) = match &self.action {
            ElicitationAction::Accept { content } => (content.as_ref(), None),
            ElicitationAction::Other(o) => (None, Some(&o.fields)),
            ElicitationAction::Decline | ElicitationAction::Cancel => (None, None),
        };
        ResponseOut {
            action: self.action.name(),
            content,
            other,
            meta: self.meta.as_ref(),
        }
        .serialize(serializer)
    }
}

/// The response as read; `content` stays among the other fields, in its
/// place, until the action says what it is.
#[derive(Deserialize)]
#[serde(expecting = "an elicitation response: a JSON object")]
struct ResponseIn {
    action: String,
    /// Omitted, null, or malformed ("default on error"): none.
    #[serde(rename = "_meta", default, deserialize_with = "lenient")]
    meta: Option<Map<String, Value>>,
    #[serde(flatten)]
    rest: Map<String, Value>,
}

impl<'de> Deserialize<'de> for CreateElicitationResponse {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let ResponseIn {
            action,
            meta,
            rest: mut fields,
        } = ResponseIn::deserialize(deserializer)?;
        let action = match action.as_str() {
            "accept" => ElicitationAction::Accept {
                content: match fields.remove("content") {
                    None | Some(Value::Null) => None,
                    Some(Value::Object(c)) => Some(c),
                    Some(_) => {
                        return Err(de::Error::custom(
                            "`content` must be an object (or null / omitted)",
                        ));
                    }
                },
            },
            "decline" => ElicitationAction::Decline,
            "cancel" => ElicitationAction::Cancel,
            _ => ElicitationAction::Other(OtherAction { action, fields }),
        };
        Ok(Self { action, meta })
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn response_content_is_ignored_for_decline() {
        let response: CreateElicitationResponse =
            serde_json::from_value(json!({"action": "decline", "content": {"a": 1}})).unwrap();
        assert_eq!(response.action, ElicitationAction::Decline);
        assert_eq!(response.content(), None);
        let accept: CreateElicitationResponse =
            serde_json::from_value(json!({"action": "accept", "content": null})).unwrap();
        assert_eq!(accept, CreateElicitationResponse::accept(None));
        assert!(
            serde_json::from_value::<CreateElicitationResponse>(json!({"content": {}})).is_err()
        );
    }

    #[test]
    fn unknown_action_is_kept() {
        let text = r#"{"action":"_defer","retryAfterMs":1000}"#;
        let response: CreateElicitationResponse = serde_json::from_str(text).unwrap();
        let ElicitationAction::Other(other) = &response.action else {
            panic!("not other")
        };
        assert_eq!(other.action(), "_defer");
        assert_eq!(serde_json::to_string(&response).unwrap(), text);
        for known in ["accept", "decline", "cancel"] {
            assert!(OtherAction::new(known, Map::new()).is_none());
        }
    }

    #[test]
    fn unknown_action_keeps_content_in_place() {
        let text = r#"{"action":"_defer","content":5,"retryAfterMs":1000}"#;
        let response: CreateElicitationResponse = serde_json::from_str(text).unwrap();
        assert_eq!(response.content(), None);
        assert_eq!(serde_json::to_string(&response).unwrap(), text);
    }
}
