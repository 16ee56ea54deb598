//! The `elicitation/complete` notification.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::json::lenient;

use super::scope::ElicitationId;

/// The JSON-RPC method of the notification an agent may send when an
/// out-of-band (URL-mode) interaction has finished.
pub const ELICITATION_COMPLETE: &str = "elicitation/complete";

/// The params of an `elicitation/complete` notification (agent -> client):
/// the out-of-band interaction of a URL-mode elicitation has finished.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CompleteElicitationNotification {
    /// The original request's `elicitationId`.
    pub elicitation_id: ElicitationId,
    /// `_meta`, kept as is (a malformed one reads as absent).
    #[serde(rename = "_meta", default, deserialize_with = "lenient")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
}

impl CompleteElicitationNotification {
    /// A notification for `elicitation_id` (unchecked: an agent builds it
    /// with [`AgentConnection::complete`](crate::protocol::agent::AgentConnection::complete)).
    pub fn new(elicitation_id: impl Into<ElicitationId>) -> Self {
        Self {
            elicitation_id: elicitation_id.into(),
            meta: None,
        }
    }
}
