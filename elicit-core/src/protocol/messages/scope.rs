//! The ids that name an elicitation and the scope it runs in:
//! [`RequestId`], [`ElicitationId`], [`ElicitationScope`].

use std::fmt;

use serde::{Deserialize, Serialize};

/// A JSON-RPC request id, as used by a request-scoped elicitation's
/// `requestId`: a number (64-bit integer), a string, or (discouraged by
/// JSON-RPC, but allowed by the schema) `null`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(
    untagged,
    expecting = "a JSON-RPC id: a whole number (64-bit), a string or null"
)]
pub enum RequestId {
    /// `null`.
    Null,
    /// A whole number.
    Number(i64),
    /// A string.
    String(String),
}

impl From<i64> for RequestId {
    fn from(n: i64) -> Self {
        Self::Number(n)
    }
}

impl From<&str> for RequestId {
    fn from(s: &str) -> Self {
        Self::String(s.to_owned())
    }
}

impl From<String> for RequestId {
    fn from(s: String) -> Self {
        Self::String(s)
    }
}

impl fmt::Display for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Null => f.write_str("null"),
            Self::Number(n) => write!(f, "{n}"),
            Self::String(s) => write!(f, "{s:?}"),
        }
    }
}

/// The `elicitationId` of a URL-mode elicitation. Opaque to the client;
/// unique among the agent's outstanding URL elicitations on one connection.
///
/// Not a secret: it may appear in the URL. Never use it as a bearer token.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ElicitationId(String);

impl ElicitationId {
    /// An id from its text.
    pub fn new(id: impl Into<String>) -> Self {
        Self(id.into())
    }

    /// The id's text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Takes the text out.
    #[cfg(any(feature = "acp", feature = "rmcp"))]
    pub(crate) fn into_string(self) -> String {
        self.0
    }
}

impl From<&str> for ElicitationId {
    fn from(s: &str) -> Self {
        Self::new(s)
    }
}

impl From<String> for ElicitationId {
    fn from(s: String) -> Self {
        Self::new(s)
    }
}

impl fmt::Display for ElicitationId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// What an elicitation is tied to, flattened into the request params.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(untagged, rename_all_fields = "camelCase")]
pub enum ElicitationScope {
    /// `sessionId` (and optionally `toolCallId`): inside a session.
    Session {
        /// The session.
        session_id: String,
        /// The tool call within the session, if any.
        #[serde(skip_serializing_if = "Option::is_none")]
        tool_call_id: Option<String>,
    },
    /// `requestId`: tied to a JSON-RPC request outside any session (e.g.
    /// during authentication or configuration).
    Request {
        /// The request.
        request_id: RequestId,
    },
}

impl ElicitationScope {
    /// Scoped to a session.
    pub fn session(session_id: impl Into<String>) -> Self {
        Self::Session {
            session_id: session_id.into(),
            tool_call_id: None,
        }
    }

    /// Scoped to a tool call within a session.
    pub fn tool_call(session_id: impl Into<String>, tool_call_id: impl Into<String>) -> Self {
        Self::Session {
            session_id: session_id.into(),
            tool_call_id: Some(tool_call_id.into()),
        }
    }

    /// Scoped to a JSON-RPC request outside any session.
    pub fn request(request_id: impl Into<RequestId>) -> Self {
        Self::Request {
            request_id: request_id.into(),
        }
    }

    /// The session id, for a session scope.
    #[cfg(feature = "terminal")]
    pub(crate) fn session_id(&self) -> Option<&str> {
        match self {
            Self::Session { session_id, .. } => Some(session_id),
            Self::Request { .. } => None,
        }
    }

    /// The tool call id, if any.
    #[cfg(feature = "terminal")]
    pub(crate) fn tool_call_id(&self) -> Option<&str> {
        match self {
            Self::Session { tool_call_id, .. } => tool_call_id.as_deref(),
            Self::Request { .. } => None,
        }
    }

    /// The request id, for a request scope.
    #[cfg(any(feature = "terminal", feature = "rmcp"))]
    pub(crate) fn request_id(&self) -> Option<&RequestId> {
        match self {
            Self::Request { request_id } => Some(request_id),
            Self::Session { .. } => None,
        }
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn request_ids() {
        for (v, id) in [
            (json!(1), RequestId::Number(1)),
            (json!("a"), RequestId::String("a".into())),
            (json!(null), RequestId::Null),
        ] {
            assert_eq!(serde_json::from_value::<RequestId>(v.clone()).unwrap(), id);
            assert_eq!(serde_json::to_value(&id).unwrap(), v);
        }
        assert!(serde_json::from_value::<RequestId>(json!(1.5)).is_err());
        assert!(serde_json::from_value::<RequestId>(json!([])).is_err());
    }
}
