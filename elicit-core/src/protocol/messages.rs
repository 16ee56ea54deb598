//! The wire messages of ACP elicitation, faithful to the official schema
//! (`ElicitationCapabilities`, `CreateElicitationRequest`,
//! `CreateElicitationResponse`, `CompleteElicitationNotification`).
//!
//! serde derives every shape; the field order is fixed and matches the
//! protocol page's examples: scope, `mode`, the URL fields, `message`,
//! `requestedSchema`, `_meta` for requests; `action`, `content`, `_meta` for
//! responses. A request's `requestedSchema` is read from its own text once
//! the `mode` is known, so its properties keep document order, and a key
//! given twice anywhere in a request is refused. Reading is tolerant where
//! the official schema is
//! ("default on error" fields such as `_meta` and `toolCallId` that are
//! malformed read as absent), strict where it is not (a request without
//! `mode`, `message` or a scope is an error).
//!
//! Unknown `mode` and `action` values are kept raw in [`OtherMode`] and
//! [`OtherAction`] and written back unchanged. Neither type can hold a known
//! value, so an unknown mode is never mistaken for form or URL mode and an
//! unknown action never for accept, decline or cancel.

use std::fmt;

use serde::de::{self, Deserializer};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use crate::Content;
use crate::json::{UniqueMap, UniqueValue, lenient, present};
use crate::schema::{ElicitationSchema, Meta};

/// The JSON-RPC method of the request an agent sends to elicit input.
pub const ELICITATION_CREATE: &str = "elicitation/create";

/// The JSON-RPC method of the notification an agent may send when an
/// out-of-band (URL-mode) interaction has finished.
pub const ELICITATION_COMPLETE: &str = "elicitation/complete";

/// JSON-RPC "Invalid params": what a client answers to a request in a mode it
/// did not advertise.
pub const INVALID_PARAMS: i64 = -32602;

/// JSON-RPC `-32603` Internal error: what a client answers when its own
/// user interface could not produce an answer it may send.
pub const INTERNAL_ERROR: i64 = -32603;

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
// Capabilities

/// The capability object of one mode (`elicitation.form` or
/// `elicitation.url`). Its presence advertises the mode; its content is
/// `_meta` plus anything a future version adds, kept as received.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ModeCapabilities {
    /// `_meta`, kept as is (a malformed one reads as absent).
    #[serde(rename = "_meta", default, deserialize_with = "lenient")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// Fields this crate does not know, kept and written back.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl ModeCapabilities {
    /// An empty capability object, `{}`: advertises the mode.
    pub fn new() -> Self {
        Self::default()
    }
}

/// `clientCapabilities.elicitation`: which modes a client supports.
///
/// ACP's rules, which differ from MCP's: a mode is supported only when its
/// field is present and an object. `{}` and `{"form": null, "url": null}`
/// advertise **no** mode; an omitted or `null` `elicitation` field means
/// elicitation is unsupported (model that as `None`, see
/// [`from_client_capabilities`](Self::from_client_capabilities)). A mode
/// field that is not an object reads as not advertised (the official schema
/// marks these fields "default on error"). Unknown fields are kept.
///
/// ```
/// use elicit_core::protocol::ElicitationCapabilities;
///
/// let caps: ElicitationCapabilities = serde_json::from_str(r#"{"form": {}}"#).unwrap();
/// assert!(caps.supports_form() && !caps.supports_url());
///
/// let empty: ElicitationCapabilities = serde_json::from_str("{}").unwrap();
/// assert!(!empty.supports_form() && !empty.supports_url()); // not MCP's form default
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ElicitationCapabilities {
    /// `form`: present means form mode is supported.
    #[serde(
        default,
        deserialize_with = "lenient",
        skip_serializing_if = "Option::is_none"
    )]
    pub form: Option<ModeCapabilities>,
    /// `url`: present means URL mode is supported.
    #[serde(
        default,
        deserialize_with = "lenient",
        skip_serializing_if = "Option::is_none"
    )]
    pub url: Option<ModeCapabilities>,
    /// `_meta`, kept as is (a malformed one reads as absent).
    #[serde(rename = "_meta", default, deserialize_with = "lenient")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// Fields this crate does not know, kept and written back.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl ElicitationCapabilities {
    /// A capability object advertising no mode (`{}`).
    pub fn none() -> Self {
        Self::default()
    }

    /// Advertises form mode only (`{"form": {}}`).
    pub fn form_only() -> Self {
        Self::none().with_form()
    }

    /// Advertises URL mode only (`{"url": {}}`).
    pub fn url_only() -> Self {
        Self::none().with_url()
    }

    /// Advertises both modes (`{"form": {}, "url": {}}`).
    pub fn form_and_url() -> Self {
        Self::none().with_form().with_url()
    }

    /// Adds form mode.
    #[must_use]
    pub fn with_form(mut self) -> Self {
        self.form.get_or_insert_with(ModeCapabilities::new);
        self
    }

    /// Adds URL mode.
    #[must_use]
    pub fn with_url(mut self) -> Self {
        self.url.get_or_insert_with(ModeCapabilities::new);
        self
    }

    /// Whether form mode is advertised.
    pub fn supports_form(&self) -> bool {
        self.form.is_some()
    }

    /// Whether URL mode is advertised.
    pub fn supports_url(&self) -> bool {
        self.url.is_some()
    }

    /// Whether `mode` is advertised.
    pub fn supports(&self, mode: Mode) -> bool {
        match mode {
            Mode::Form => self.supports_form(),
            Mode::Url => self.supports_url(),
        }
    }

    /// The advertised modes, form first.
    pub fn modes(&self) -> Vec<Mode> {
        [Mode::Form, Mode::Url]
            .into_iter()
            .filter(|m| self.supports(*m))
            .collect()
    }

    /// Reads `elicitation` out of a whole `clientCapabilities` object (the
    /// `initialize` request's field). `None` when the field is omitted,
    /// `null` or not an object: elicitation is unsupported.
    ///
    /// ```
    /// use elicit_core::protocol::ElicitationCapabilities;
    /// use serde_json::json;
    ///
    /// assert_eq!(ElicitationCapabilities::from_client_capabilities(&json!({"fs": {}})), None);
    /// assert_eq!(
    ///     ElicitationCapabilities::from_client_capabilities(&json!({"elicitation": null})),
    ///     None
    /// );
    /// let caps = ElicitationCapabilities::from_client_capabilities(
    ///     &json!({"elicitation": {"url": {}}}),
    /// );
    /// assert!(caps.is_some_and(|c| c.supports_url() && !c.supports_form()));
    /// ```
    pub fn from_client_capabilities(client_capabilities: &Value) -> Option<Self> {
        client_capabilities
            .get("elicitation")
            .filter(|elicitation| elicitation.is_object())
            .and_then(|elicitation| Self::deserialize(elicitation).ok())
    }
}

// ---------------------------------------------------------------------------
// Ids and scope

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
    pub fn into_string(self) -> String {
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
    pub fn session_id(&self) -> Option<&str> {
        match self {
            Self::Session { session_id, .. } => Some(session_id),
            Self::Request { .. } => None,
        }
    }

    /// The tool call id, if any.
    pub fn tool_call_id(&self) -> Option<&str> {
        match self {
            Self::Session { tool_call_id, .. } => tool_call_id.as_deref(),
            Self::Request { .. } => None,
        }
    }

    /// The request id, for a request scope.
    pub fn request_id(&self) -> Option<&RequestId> {
        match self {
            Self::Request { request_id } => Some(request_id),
            Self::Session { .. } => None,
        }
    }

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

// ---------------------------------------------------------------------------
// Request

/// An `elicitation/create` mode other than `form` and `url`: an extension
/// (`_`-prefixed) or a future ACP mode. Kept raw and written back unchanged;
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
    pub meta: Option<Meta>,
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
    pub fn with_meta(mut self, meta: Meta) -> Self {
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
    meta: Option<&'a Meta>,
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
    meta: Option<Meta>,
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

// ---------------------------------------------------------------------------
// Response

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
    pub meta: Option<Meta>,
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
    pub fn with_meta(mut self, meta: Meta) -> Self {
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
    meta: Option<&'a Meta>,
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
    meta: Option<Meta>,
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

// ---------------------------------------------------------------------------
// Completion notification

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
    pub meta: Option<Meta>,
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

// ---------------------------------------------------------------------------
// JSON-RPC error

/// A JSON-RPC error object (the `error` member of a response).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, thiserror::Error)]
#[error("JSON-RPC error {code}: {message}")]
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
    pub fn internal(message: impl Into<String>) -> Self {
        Self {
            code: INTERNAL_ERROR,
            message: message.into(),
            data: None,
        }
    }

    /// The `-32602` error a client answers to a request in a mode it did not
    /// advertise (including any unknown mode). `data` is `{"mode": ..}`;
    /// a mode longer than
    /// [`MAX_ECHOED_CHARS`](crate::limits::MAX_ECHOED_CHARS) is cut.
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
    fn capabilities_read_per_acp() {
        let read = |v: Value| serde_json::from_value::<ElicitationCapabilities>(v).unwrap();
        assert!(read(json!({})).modes().is_empty());
        assert!(read(json!({"form": null, "url": null})).modes().is_empty());
        assert!(read(json!({"form": true, "url": 1})).modes().is_empty());
        assert_eq!(read(json!({"form": {}})).modes(), [Mode::Form]);
        assert_eq!(read(json!({"url": {}, "x": 1})).modes(), [Mode::Url]);
    }

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

    #[test]
    fn unknown_action_keeps_content_in_place() {
        let text = r#"{"action":"_defer","content":5,"retryAfterMs":1000}"#;
        let response: CreateElicitationResponse = serde_json::from_str(text).unwrap();
        assert_eq!(response.content(), None);
        assert_eq!(serde_json::to_string(&response).unwrap(), text);
    }
}
