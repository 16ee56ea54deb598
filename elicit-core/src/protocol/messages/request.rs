//! The known modes and the `elicitation/create` request: written in the
//! protocol's order, read strictly (its `requestedSchema` in document order).

use std::fmt;

use serde::de::{self, Deserializer};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use crate::json::{UniqueMap, UniqueValue, lenient, present};
use crate::schema::ElicitationSchema;

use super::scope::{ElicitationId, ElicitationScope, RequestId};

/// The JSON-RPC method of the request an agent sends to elicit input.
pub const ELICITATION_CREATE: &str = "elicitation/create";

// ---------------------------------------------------------------------------
// Modes

/// A known elicitation mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    /// `"form"`: the client renders a restricted JSON Schema as a form.
    Form,
    /// `"url"`: the client opens a URL for an out-of-band interaction.
    Url,
}

impl Mode {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Form => "form",
            Self::Url => "url",
        }
    }

    /// The known mode with this wire name; `None` for any other value.
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "form" => Some(Self::Form),
            "url" => Some(Self::Url),
            _ => None,
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

// ---------------------------------------------------------------------------
// Request

/// it can never hold `"form"` or `"url"`, so it is never treated as one.
#[derive(Debug, Clone, PartialEq)]
pub struct OtherMode {
    mode: String,
    fields: Map<String, Value>,
}

impl OtherMode {
    /// An unknown mode with its mode-specific fields. `None` when `mode` is
    /// a known mode (`"form"`, `"url"`): build those with
    /// [`ElicitationMode::Form`] / [`ElicitationMode::Url`]. The scope,
    /// `mode`, `message` and `_meta` keys are removed from `fields` (they
    /// live in [`CreateElicitationRequest`]).
    pub fn new(mode: impl Into<String>, mut fields: Map<String, Value>) -> Option<Self> {
        let mode = mode.into();
        if Mode::parse(&mode).is_some() {
            return None;
        }
        fields.retain(|k, _| !is_request_key(k));
        Some(Self { mode, fields })
    }

    /// The wire `mode`.
    pub fn mode(&self) -> &str {
        &self.mode
    }

    /// The mode-specific fields, as received.
    pub fn fields(&self) -> &Map<String, Value> {
        &self.fields
    }
}

/// The mode of an `elicitation/create` request and its mode-specific fields.
#[derive(Debug, Clone, PartialEq)]
pub enum ElicitationMode {
    /// `"form"`: `requestedSchema`.
    Form {
        /// The form's restricted schema.
        requested_schema: ElicitationSchema,
    },
    /// `"url"`: `elicitationId` and `url`.
    Url {
        /// The id, unique among the agent's outstanding URL elicitations on
        /// the connection.
        elicitation_id: ElicitationId,
        /// The URL to open (after the user's consent).
        url: String,
    },
    /// Any other mode, kept raw.
    Other(OtherMode),
}

impl ElicitationMode {
    /// The wire `mode`.
    pub fn name(&self) -> &str {
        match self {
            Self::Form { .. } => "form",
            Self::Url { .. } => "url",
            Self::Other(o) => o.mode(),
        }
    }

    /// The known mode, or `None` for an unknown one.
    pub fn known(&self) -> Option<Mode> {
        match self {
            Self::Form { .. } => Some(Mode::Form),
            Self::Url { .. } => Some(Mode::Url),
            Self::Other(_) => None,
        }
    }
}

/// The params of an `elicitation/create` request (agent -> client).
///
/// Build checked requests with
/// [`AgentConnection`](crate::protocol::agent::AgentConnection); the
/// constructors here do no capability or URL checks (for proxies and tests).
///
/// ```
/// use elicit_core::protocol::{CreateElicitationRequest, ElicitationScope};
///
/// let request = CreateElicitationRequest::url(
///     ElicitationScope::request(12),
///     "Please authorize access to your repositories.",
///     "github-oauth-001",
///     "https://agent.example.com/connect?elicitationId=github-oauth-001",
/// );
/// assert_eq!(
///     serde_json::to_string(&request).unwrap(),
///     r#"{"requestId":12,"mode":"url","elicitationId":"github-oauth-001","url":"https://agent.example.com/connect?elicitationId=github-oauth-001","message":"Please authorize access to your repositories."}"#
/// );
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct CreateElicitationRequest {
    /// What the elicitation is tied to.
    pub scope: ElicitationScope,
    /// The mode and its fields.
    pub mode: ElicitationMode,
    /// What is asked and why, shown to the user.
    pub message: String,
    /// `_meta`, kept as is.
    pub meta: Option<Map<String, Value>>,
}

impl CreateElicitationRequest {
    /// A form-mode request (unchecked).
    pub fn form(
        scope: ElicitationScope,
        message: impl Into<String>,
        requested_schema: ElicitationSchema,
    ) -> Self {
        Self {
            scope,
            mode: ElicitationMode::Form { requested_schema },
            message: message.into(),
            meta: None,
        }
    }

    /// A URL-mode request (unchecked).
    pub fn url(
        scope: ElicitationScope,
        message: impl Into<String>,
        elicitation_id: impl Into<ElicitationId>,
        url: impl Into<String>,
    ) -> Self {
        Self {
            scope,
            mode: ElicitationMode::Url {
                elicitation_id: elicitation_id.into(),
                url: url.into(),
            },
            message: message.into(),
            meta: None,
        }
    }

    /// Sets `_meta`.
    #[must_use]
    pub fn with_meta(mut self, meta: Map<String, Value>) -> Self {
        self.meta = Some(meta);
        self
    }

    /// The `elicitationId`, for a URL-mode request.
    pub fn elicitation_id(&self) -> Option<&ElicitationId> {
        match &self.mode {
            ElicitationMode::Url { elicitation_id, .. } => Some(elicitation_id),
            _ => None,
        }
    }

    /// The `requestedSchema`, for a form-mode request.
    pub fn requested_schema(&self) -> Option<&ElicitationSchema> {
        match &self.mode {
            ElicitationMode::Form { requested_schema } => Some(requested_schema),
            _ => None,
        }
    }
}

/// The keys [`CreateElicitationRequest`] itself holds, never a mode's own.
fn is_request_key(key: &str) -> bool {
    matches!(
        key,
        "sessionId" | "toolCallId" | "requestId" | "mode" | "message" | "_meta"
    )
}

/// The params as written, in the order of the protocol page's examples.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RequestOut<'a> {
    #[serde(flatten)]
    scope: &'a ElicitationScope,
    mode: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    elicitation_id: Option<&'a ElicitationId>,
    #[serde(skip_serializing_if = "Option::is_none")]
    url: Option<&'a str>,
    /// An unknown mode's own fields (never a request key: see
    /// [`OtherMode::new`]).
    #[serde(flatten)]
    other: Option<&'a Map<String, Value>>,
    message: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    requested_schema: Option<&'a ElicitationSchema>,
    #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
    meta: Option<&'a Map<String, Value>>,
}

impl Serialize for CreateElicitationRequest {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (mut elicitation_id, mut url, mut other, mut requested_schema) =
            (None, None, None, None);
        match &self.mode {
            ElicitationMode::Form {
                requested_schema: s,
            } => requested_schema = Some(s),
            ElicitationMode::Url {
                elicitation_id: id,
                url: u,
            } => (elicitation_id, url) = (Some(id), Some(u.as_str())),
            ElicitationMode::Other(o) => other = Some(&o.fields),
        }
        RequestOut {
            scope: &self.scope,
            mode: self.mode.name(),
            elicitation_id,
            url,
            other,
            message: &self.message,
            requested_schema,
            meta: self.meta.as_ref(),
        }
        .serialize(serializer)
    }
}

/// The params as read: every field whose meaning does not depend on the
/// mode, and the rest kept for the mode.
#[derive(Deserialize)]
#[serde(
    rename_all = "camelCase",
    expecting = "elicitation params: a JSON object"
)]
struct RequestParams {
    session_id: Option<Value>,
    /// Omitted, null, or malformed ("default on error"): none.
    #[serde(default, deserialize_with = "lenient")]
    tool_call_id: Option<String>,
    /// `null` is an id, so present-and-null is `Some`.
    #[serde(default, deserialize_with = "present")]
    request_id: Option<Value>,
    mode: Option<Value>,
    message: Option<Value>,
    /// Read once the mode is known: as a form's schema (from its text, so
    /// its properties keep document order), or raw for an unknown mode.
    requested_schema: Option<Box<RawValue>>,
    /// Omitted, null, or malformed ("default on error"): none.
    #[serde(rename = "_meta", default, deserialize_with = "lenient")]
    meta: Option<Map<String, Value>>,
    #[serde(flatten)]
    rest: UniqueMap,
}

impl<'de> Deserialize<'de> for CreateElicitationRequest {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let params = RequestParams::deserialize(deserializer)?;
        Self::from_params(params).map_err(de::Error::custom)
    }
}

impl CreateElicitationRequest {
    fn from_params(mut params: RequestParams) -> Result<Self, String> {
        let mode = match params.mode.take() {
            Some(Value::String(m)) => m,
            Some(_) => return Err("`mode` must be a string".to_owned()),
            None => {
                return Err(
                    "the params have no `mode`: ACP requires it explicitly (`form` or `url`); \
                     there is no default"
                        .to_owned(),
                );
            }
        };
        let message = match params.message.take() {
            Some(Value::String(m)) => m,
            Some(_) => return Err("`message` must be a string".to_owned()),
            None => return Err("the params have no `message`".to_owned()),
        };
        let scope = ElicitationScope::read(&mut params)?;
        let mode = match mode.as_str() {
            "form" => ElicitationMode::Form {
                requested_schema: form_schema(params.requested_schema)?,
            },
            "url" => {
                let mut string = |key: &str| match params.rest.0.remove(key) {
                    Some(Value::String(s)) => Ok(s),
                    Some(_) => Err(format!("`{key}` must be a string")),
                    None => Err(format!("a URL-mode request needs `{key}`")),
                };
                ElicitationMode::Url {
                    elicitation_id: ElicitationId::new(string("elicitationId")?),
                    url: string("url")?,
                }
            }
            _ => {
                let mut fields = params.rest.0;
                if let Some(raw) = params.requested_schema {
                    let UniqueValue(schema) =
                        serde_json::from_str(raw.get()).map_err(|e| e.to_string())?;
                    fields.insert("requestedSchema".to_owned(), schema);
                }
                ElicitationMode::Other(OtherMode { mode, fields })
            }
        };
        Ok(Self {
            scope,
            mode,
            message,
            meta: params.meta,
        })
    }
}

/// A form-mode request's `requestedSchema`, read from its own text.
fn form_schema(raw: Option<Box<RawValue>>) -> Result<ElicitationSchema, String> {
    let raw = raw.ok_or("a form-mode request needs `requestedSchema`")?;
    if !raw.get().trim_start().starts_with('{') {
        return Err("`requestedSchema` must be an object".to_owned());
    }
    serde_json::from_str(raw.get()).map_err(|e| format!("invalid `requestedSchema`: {e}"))
}

impl ElicitationScope {
    /// Reads the scope out of the params: `sessionId` (a string) wins when
    /// present and non-null; a `requestId` beside it is ambiguous and refused.
    fn read(params: &mut RequestParams) -> Result<Self, String> {
        match (params.session_id.take(), params.request_id.take()) {
            (Some(Value::String(session_id)), None | Some(Value::Null)) => Ok(Self::Session {
                session_id,
                tool_call_id: params.tool_call_id.take(),
            }),
            (Some(Value::String(_)), Some(_)) => Err(
                "the params have both `sessionId` and `requestId`: an elicitation has exactly one \
                 scope"
                    .to_owned(),
            ),
            (Some(_), _) => Err("`sessionId` must be a string".to_owned()),
            (None, Some(request_id)) => Ok(Self::Request {
                request_id: RequestId::deserialize(request_id)
                    .map_err(|e| format!("`requestId` must be {e}"))?,
            }),
            (None, None) => Err(
                "the params have no scope: add `sessionId` (optionally with `toolCallId`) or \
                 `requestId`"
                    .to_owned(),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn unknown_mode_is_kept_and_never_known() {
        let text = r#"{"sessionId":"s","mode":"_browser","target":"login","message":"m"}"#;
        let request: CreateElicitationRequest = serde_json::from_str(text).unwrap();
        assert_eq!(request.mode.known(), None);
        assert_eq!(request.mode.name(), "_browser");
        assert_eq!(serde_json::to_string(&request).unwrap(), text);
        assert!(OtherMode::new("form", Map::new()).is_none());
        assert!(OtherMode::new("url", Map::new()).is_none());
    }

    #[test]
    fn known_mode_with_missing_fields_is_an_error_not_other() {
        for params in [
            json!({"sessionId": "s", "mode": "form", "message": "m"}),
            json!({"sessionId": "s", "mode": "url", "message": "m", "url": "https://a.example"}),
            json!({"sessionId": "s", "message": "m"}),
            json!({"mode": "form", "message": "m", "requestedSchema": {"properties": {}}}),
            json!({"sessionId": "s", "requestId": 1, "mode": "_x", "message": "m"}),
            json!({"requestId": 1.5, "mode": "_x", "message": "m"}),
            json!([]),
        ] {
            assert!(
                serde_json::from_value::<CreateElicitationRequest>(params.clone()).is_err(),
                "{params}"
            );
        }
    }

    #[test]
    fn form_schema_keeps_document_order() {
        let text = r#"{"sessionId":"s","mode":"form","message":"m","requestedSchema":{"type":"object","properties":{"z":{"type":"string"},"a":{"type":"boolean"}}}}"#;
        let request: CreateElicitationRequest = serde_json::from_str(text).unwrap();
        let names: Vec<&str> = request
            .requested_schema()
            .unwrap()
            .properties
            .names()
            .collect();
        assert_eq!(names, ["z", "a"]);
        assert_eq!(serde_json::to_string(&request).unwrap(), text);
    }

    #[test]
    fn a_key_given_twice_is_refused_at_any_depth() {
        for text in [
            r#"{"sessionId":"s","mode":"form","message":"m","message":"n","requestedSchema":{}}"#,
            r#"{"sessionId":"s","mode":"form","message":"m","requestedSchema":{"properties":{"a":{"type":"string","title":"x","title":"y"}}}}"#,
            r#"{"sessionId":"s","mode":"_x","message":"m","target":{"a":1,"a":2}}"#,
            r#"{"sessionId":"s","mode":"_x","message":"m","_meta":{"a":1,"a":2}}"#,
        ] {
            let error = serde_json::from_str::<CreateElicitationRequest>(text).unwrap_err();
            assert!(
                error.to_string().starts_with("duplicate")
                    || error.to_string().contains("duplicate key"),
                "{text}: {error}"
            );
        }
    }

    #[test]
    fn requested_schema_must_be_an_object() {
        let text =
            r#"{"sessionId":"s","mode":"form","message":"m","requestedSchema":[null,null,{}]}"#;
        let error = serde_json::from_str::<CreateElicitationRequest>(text).unwrap_err();
        assert_eq!(error.to_string(), "`requestedSchema` must be an object");
    }

    #[test]
    fn default_on_error_fields_read_as_absent() {
        let text = r#"{"sessionId":"s","toolCallId":3,"mode":"_x","message":"m","_meta":5}"#;
        let request: CreateElicitationRequest = serde_json::from_str(text).unwrap();
        assert_eq!(request.scope, ElicitationScope::session("s"));
        assert_eq!(request.meta, None);
        let bad_id = r#"{"requestId":1.5,"mode":"_x","message":"m"}"#;
        let error = serde_json::from_str::<CreateElicitationRequest>(bad_id).unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with("`requestId` must be a JSON-RPC id"),
            "{error}"
        );
    }
}
