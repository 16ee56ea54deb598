//! The JSON-RPC error object a client answers with, and its codes.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::json::present;

/// JSON-RPC "Invalid params": what a client answers to a request in a mode it
/// did not advertise.
pub const INVALID_PARAMS: i64 = -32602;

/// JSON-RPC `-32603` Internal error: what a client answers when its own
/// user interface could not produce an answer it may send.
pub(crate) const INTERNAL_ERROR: i64 = -32603;

/// A JSON-RPC error object (the `error` member of a response).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JsonRpcError {
    /// The error code ([`INVALID_PARAMS`] for elicitation refusals).
    pub code: i64,
    /// A short description.
    pub message: String,
    /// Structured details, if any (`null` is kept as a value).
    #[serde(default, deserialize_with = "present")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
}

impl std::fmt::Display for JsonRpcError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self { code, message, .. } => write!(f, "JSON-RPC error {code}: {message}"),
        }
    }
}

impl std::error::Error for JsonRpcError {}

impl JsonRpcError {
    /// `-32602` Invalid params with this message.
    pub fn invalid_params(message: impl Into<String>) -> Self {
        Self {
            code: INVALID_PARAMS,
            message: message.into(),
            data: None,
        }
    }

    /// `-32603` Internal error with this message: the client's own side
    /// failed (its user interface gave no answer it may send, its renderer
    /// thread could not run).
    pub(crate) fn internal(message: impl Into<String>) -> Self {
        Self {
            code: INTERNAL_ERROR,
            message: message.into(),
            data: None,
        }
    }

    /// The `-32602` error a client answers to a request in a mode it did not
    /// advertise (including any unknown mode). `data` is `{"mode": ..}`;
    /// a mode longer than
    /// 64 characters ([limits](crate::reference::limits)) is cut.
    ///
    /// ```
    /// use elicit_core::protocol::JsonRpcError;
    ///
    /// let error = JsonRpcError::unadvertised_mode("url");
    /// assert_eq!(
    ///     serde_json::to_string(&error).unwrap(),
    ///     r#"{"code":-32602,"message":"Invalid params: the client did not advertise elicitation mode `url`","data":{"mode":"url"}}"#
    /// );
    /// ```
    pub fn unadvertised_mode(mode: &str) -> Self {
        // An unknown mode is the sender's text: repeat at most its start.
        let mode = crate::error::excerpt(mode, crate::limits::MAX_ECHOED_CHARS);
        let mode = mode.as_str();
        let mut data = Map::new();
        data.insert("mode".to_owned(), Value::String(mode.to_owned()));
        Self {
            code: INVALID_PARAMS,
            message: format!(
                "Invalid params: the client did not advertise elicitation mode `{mode}`"
            ),
            data: Some(Value::Object(data)),
        }
    }
}
