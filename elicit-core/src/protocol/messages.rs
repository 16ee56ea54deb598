//! The wire messages of ACP elicitation, faithful to the official schema
//! (`ElicitationCapabilities`, `CreateElicitationRequest`,
//! `CreateElicitationResponse`, `CompleteElicitationNotification`).
//!
//! Every type serializes by hand, so the field order is fixed and matches the
//! protocol page's examples: scope, `mode`, the URL fields, `message`,
//! `requestedSchema`, `_meta` for requests; `action`, `content`, `_meta` for
//! responses. Reading is tolerant where the official schema is
//! ("default on error" fields such as `_meta` and `toolCallId` that are
//! malformed read as absent), strict where it is not (a request without
//! `mode`, `message` or a scope is an error).
//!
//! Unknown `mode` and `action` values are kept raw in [`OtherMode`] and
//! [`OtherAction`] and written back unchanged. Neither type can hold a known
//! value, so an unknown mode is never mistaken for form or URL mode and an
//! unknown action never for accept, decline or cancel.

use std::collections::HashSet;
use std::fmt;

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Number, Value};

use crate::Content;
use crate::schema::{ElicitationSchema, Meta};

/// The JSON-RPC method of the request an agent sends to elicit input.
pub const ELICITATION_CREATE: &str = "elicitation/create";

/// The JSON-RPC method of the notification an agent may send when an
/// out-of-band (URL-mode) interaction has finished.
pub const ELICITATION_COMPLETE: &str = "elicitation/complete";

/// JSON-RPC "Invalid params": what a client answers to a request in a mode it
/// did not advertise.
pub const INVALID_PARAMS: i64 = -32602;

const SCOPE_KEYS: [&str; 3] = ["sessionId", "toolCallId", "requestId"];

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
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ModeCapabilities {
    /// `_meta`, kept as is.
    pub meta: Option<Meta>,
    /// Fields this crate does not know, kept and written back.
    pub extra: Map<String, Value>,
}

impl ModeCapabilities {
    /// An empty capability object, `{}`: advertises the mode.
    pub fn new() -> Self {
        Self::default()
    }

    fn from_object(object: &Map<String, Value>) -> Self {
        let mut caps = Self::new();
        for (key, value) in object {
            if key == "_meta" {
                caps.meta = value.as_object().cloned();
            } else {
                caps.extra.insert(key.clone(), value.clone());
            }
        }
        caps
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
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ElicitationCapabilities {
    /// `form`: present means form mode is supported.
    pub form: Option<ModeCapabilities>,
    /// `url`: present means URL mode is supported.
    pub url: Option<ModeCapabilities>,
    /// `_meta`, kept as is.
    pub meta: Option<Meta>,
    /// Fields this crate does not know, kept and written back.
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
            .and_then(Value::as_object)
            .map(Self::from_object)
    }

    fn from_object(object: &Map<String, Value>) -> Self {
        let mut caps = Self::none();
        for (key, value) in object {
            match key.as_str() {
                "form" => caps.form = value.as_object().map(ModeCapabilities::from_object),
                "url" => caps.url = value.as_object().map(ModeCapabilities::from_object),
                "_meta" => caps.meta = value.as_object().cloned(),
                _ => {
                    caps.extra.insert(key.clone(), value.clone());
                }
            }
        }
        caps
    }
}

impl Serialize for ModeCapabilities {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        opt(&mut map, "_meta", self.meta.as_ref())?;
        for (k, v) in &self.extra {
            if k != "_meta" {
                map.serialize_entry(k, v)?;
            }
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for ModeCapabilities {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let object = Map::<String, Value>::deserialize(deserializer)?;
        Ok(Self::from_object(&object))
    }
}

impl Serialize for ElicitationCapabilities {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        opt(&mut map, "form", self.form.as_ref())?;
        opt(&mut map, "url", self.url.as_ref())?;
        opt(&mut map, "_meta", self.meta.as_ref())?;
        for (k, v) in &self.extra {
            if !matches!(k.as_str(), "form" | "url" | "_meta") {
                map.serialize_entry(k, v)?;
            }
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for ElicitationCapabilities {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let object = Map::<String, Value>::deserialize(deserializer)?;
        Ok(Self::from_object(&object))
    }
}

// ---------------------------------------------------------------------------
// Ids and scope

/// A JSON-RPC request id, as used by a request-scoped elicitation's
/// `requestId`: a number (64-bit integer), a string, or (discouraged by
/// JSON-RPC, but allowed by the schema) `null`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum RequestId {
    /// `null`.
    Null,
    /// A whole number.
    Number(i64),
    /// A string.
    String(String),
}

impl RequestId {
    fn from_value(value: &Value) -> Result<Self, String> {
        match value {
            Value::Null => Ok(Self::Null),
            Value::String(s) => Ok(Self::String(s.clone())),
            Value::Number(n) => n.as_i64().map(Self::Number).ok_or_else(|| {
                format!("`requestId` {n} is not a 64-bit integer: use a whole number or a string")
            }),
            _ => Err("`requestId` must be a JSON-RPC id: a number, a string or null".to_owned()),
        }
    }

    fn to_value(&self) -> Value {
        match self {
            Self::Null => Value::Null,
            Self::Number(n) => Value::from(*n),
            Self::String(s) => Value::String(s.clone()),
        }
    }
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

impl Serialize for RequestId {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_value().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for RequestId {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Self::from_value(&Value::deserialize(deserializer)?).map_err(de::Error::custom)
    }
}

/// The `elicitationId` of a URL-mode elicitation. Opaque to the client;
/// unique among the agent's outstanding URL elicitations on one connection.
///
/// Not a secret: it may appear in the URL. Never use it as a bearer token.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
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

impl Serialize for ElicitationId {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for ElicitationId {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        String::deserialize(deserializer).map(Self)
    }
}

/// What an elicitation is tied to, flattened into the request params.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ElicitationScope {
    /// `sessionId` (and optionally `toolCallId`): inside a session.
    Session {
        /// The session.
        session_id: String,
        /// The tool call within the session, if any.
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

    fn write<M: SerializeMap>(&self, map: &mut M) -> Result<(), M::Error> {
        match self {
            Self::Session {
                session_id,
                tool_call_id,
            } => {
                map.serialize_entry("sessionId", session_id)?;
                opt(map, "toolCallId", tool_call_id.as_ref())
            }
            Self::Request { request_id } => map.serialize_entry("requestId", request_id),
        }
    }

    /// Reads the scope out of the params: `sessionId` (a string) wins when
    /// present and non-null; a `requestId` beside it is ambiguous and refused.
    fn read(params: &Fields) -> Result<Self, String> {
        let session = params.get("sessionId").filter(|v| !v.is_null());
        let request = params.get("requestId");
        match (session, request) {
            (Some(Ordered::String(session_id)), None | Some(Ordered::Null)) => Ok(Self::Session {
                session_id: session_id.clone(),
                tool_call_id: match params.get("toolCallId") {
                    Some(Ordered::String(t)) => Some(t.clone()),
                    // Omitted, null, or malformed ("default on error"): none.
                    _ => None,
                },
            }),
            (Some(Ordered::String(_)), Some(_)) => Err(
                "the params have both `sessionId` and `requestId`: an elicitation has exactly one \
                 scope"
                    .to_owned(),
            ),
            (Some(_), _) => Err("`sessionId` must be a string".to_owned()),
            (None, Some(request_id)) => Ok(Self::Request {
                request_id: RequestId::from_value(&request_id.to_value())?,
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

impl Serialize for CreateElicitationRequest {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        self.scope.write(&mut map)?;
        map.serialize_entry("mode", self.mode.name())?;
        match &self.mode {
            ElicitationMode::Url {
                elicitation_id,
                url,
            } => {
                map.serialize_entry("elicitationId", elicitation_id)?;
                map.serialize_entry("url", url)?;
            }
            ElicitationMode::Other(other) => {
                for (k, v) in &other.fields {
                    // `new` removed these; a hand-edited map must not repeat them.
                    if !is_request_key(k) {
                        map.serialize_entry(k, v)?;
                    }
                }
            }
            ElicitationMode::Form { .. } => {}
        }
        map.serialize_entry("message", &self.message)?;
        if let ElicitationMode::Form { requested_schema } = &self.mode {
            map.serialize_entry("requestedSchema", requested_schema)?;
        }
        opt(&mut map, "_meta", self.meta.as_ref())?;
        map.end()
    }
}

fn is_request_key(key: &str) -> bool {
    SCOPE_KEYS.contains(&key) || matches!(key, "mode" | "message" | "_meta")
}

impl<'de> Deserialize<'de> for CreateElicitationRequest {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let params = Fields::deserialize(deserializer)?;
        Self::from_fields(params).map_err(de::Error::custom)
    }
}

impl CreateElicitationRequest {
    fn from_fields(params: Fields) -> Result<Self, String> {
        let mode = match params.get("mode") {
            Some(Ordered::String(m)) => m.clone(),
            Some(_) => return Err("`mode` must be a string".to_owned()),
            None => {
                return Err(
                    "the params have no `mode`: ACP requires it explicitly (`form` or `url`); \
                     there is no default"
                        .to_owned(),
                );
            }
        };
        let message = match params.get("message") {
            Some(Ordered::String(m)) => m.clone(),
            Some(_) => return Err("`message` must be a string".to_owned()),
            None => return Err("the params have no `message`".to_owned()),
        };
        let meta = match params.get("_meta").map(Ordered::to_value) {
            Some(Value::Object(m)) => Some(m),
            // Omitted, null, or malformed ("default on error"): none.
            _ => None,
        };
        let scope = ElicitationScope::read(&params)?;
        let mode = match mode.as_str() {
            "form" => {
                let schema = match params.get("requestedSchema") {
                    Some(schema @ Ordered::Object(_)) => schema,
                    Some(_) => return Err("`requestedSchema` must be an object".to_owned()),
                    None => return Err("a form-mode request needs `requestedSchema`".to_owned()),
                };
                // Through text, so the schema's visitor sees the properties in
                // document order whatever `serde_json`'s map order is.
                let text = serde_json::to_string(schema).map_err(|e| e.to_string())?;
                let requested_schema = serde_json::from_str::<ElicitationSchema>(&text)
                    .map_err(|e| format!("invalid `requestedSchema`: {e}"))?;
                ElicitationMode::Form { requested_schema }
            }
            "url" => {
                let elicitation_id = match params.get("elicitationId") {
                    Some(Ordered::String(id)) => ElicitationId::new(id.clone()),
                    Some(_) => return Err("`elicitationId` must be a string".to_owned()),
                    None => return Err("a URL-mode request needs `elicitationId`".to_owned()),
                };
                let url = match params.get("url") {
                    Some(Ordered::String(url)) => url.clone(),
                    Some(_) => return Err("`url` must be a string".to_owned()),
                    None => return Err("a URL-mode request needs `url`".to_owned()),
                };
                ElicitationMode::Url {
                    elicitation_id,
                    url,
                }
            }
            _ => {
                let fields = params
                    .0
                    .into_iter()
                    .filter(|(k, _)| !is_request_key(k))
                    .map(|(k, v)| (k, v.into_value()))
                    .collect();
                ElicitationMode::Other(OtherMode { mode, fields })
            }
        };
        Ok(Self {
            scope,
            mode,
            message,
            meta,
        })
    }
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

impl Serialize for CreateElicitationResponse {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("action", self.action.name())?;
        match &self.action {
            ElicitationAction::Accept { content } => opt(&mut map, "content", content.as_ref())?,
            ElicitationAction::Other(other) => {
                for (k, v) in &other.fields {
                    if k != "action" && k != "_meta" {
                        map.serialize_entry(k, v)?;
                    }
                }
            }
            ElicitationAction::Decline | ElicitationAction::Cancel => {}
        }
        opt(&mut map, "_meta", self.meta.as_ref())?;
        map.end()
    }
}

impl<'de> Deserialize<'de> for CreateElicitationResponse {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let object = Map::<String, Value>::deserialize(deserializer)?;
        // Taken apart by iterating, not `remove` (which reorders an
        // order-preserving map), so unknown fields keep their order.
        let (mut action, mut meta, mut content) = (None, None, None);
        let mut fields = Map::new();
        for (key, value) in object {
            match key.as_str() {
                "action" => action = Some(value),
                "_meta" => meta = value.as_object().cloned(),
                "content" => {
                    content = Some(value.clone());
                    fields.insert(key, value);
                }
                _ => {
                    fields.insert(key, value);
                }
            }
        }
        let action = match action {
            Some(Value::String(a)) => a,
            Some(_) => return Err(de::Error::custom("`action` must be a string")),
            None => return Err(de::Error::missing_field("action")),
        };
        let action = match action.as_str() {
            "accept" => ElicitationAction::Accept {
                content: match content {
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
#[derive(Debug, Clone, PartialEq)]
pub struct CompleteElicitationNotification {
    /// The original request's `elicitationId`.
    pub elicitation_id: ElicitationId,
    /// `_meta`, kept as is.
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

impl Serialize for CompleteElicitationNotification {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("elicitationId", &self.elicitation_id)?;
        opt(&mut map, "_meta", self.meta.as_ref())?;
        map.end()
    }
}

impl<'de> Deserialize<'de> for CompleteElicitationNotification {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let object = Map::<String, Value>::deserialize(deserializer)?;
        let elicitation_id = match object.get("elicitationId") {
            Some(Value::String(id)) => ElicitationId::new(id.clone()),
            Some(_) => return Err(de::Error::custom("`elicitationId` must be a string")),
            None => return Err(de::Error::missing_field("elicitationId")),
        };
        let meta = object.get("_meta").and_then(Value::as_object).cloned();
        Ok(Self {
            elicitation_id,
            meta,
        })
    }
}

// ---------------------------------------------------------------------------
// JSON-RPC error

/// A JSON-RPC error object (the `error` member of a response).
#[derive(Debug, Clone, PartialEq)]
pub struct JsonRpcError {
    /// The error code ([`INVALID_PARAMS`] for elicitation refusals).
    pub code: i64,
    /// A short description.
    pub message: String,
    /// Structured details, if any.
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

    /// The `-32602` error a client answers to a request in a mode it did not
    /// advertise (including any unknown mode). `data` is `{"mode": ..}`.
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

impl fmt::Display for JsonRpcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "JSON-RPC error {}: {}", self.code, self.message)
    }
}

impl std::error::Error for JsonRpcError {}

impl Serialize for JsonRpcError {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("code", &self.code)?;
        map.serialize_entry("message", &self.message)?;
        opt(&mut map, "data", self.data.as_ref())?;
        map.end()
    }
}

impl<'de> Deserialize<'de> for JsonRpcError {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let object = Map::<String, Value>::deserialize(deserializer)?;
        let code = match object.get("code") {
            Some(Value::Number(n)) => n
                .as_i64()
                .ok_or_else(|| de::Error::custom("`code` must be an integer"))?,
            Some(_) => return Err(de::Error::custom("`code` must be an integer")),
            None => return Err(de::Error::missing_field("code")),
        };
        let message = match object.get("message") {
            Some(Value::String(m)) => m.clone(),
            Some(_) => return Err(de::Error::custom("`message` must be a string")),
            None => return Err(de::Error::missing_field("message")),
        };
        Ok(Self {
            code,
            message,
            data: object.get("data").cloned(),
        })
    }
}

// ---------------------------------------------------------------------------
// Helpers

/// Writes `key: value` when `value` is `Some`.
fn opt<M: SerializeMap, T: Serialize + ?Sized>(
    map: &mut M,
    key: &'static str,
    value: Option<&T>,
) -> Result<(), M::Error> {
    match value {
        Some(v) => map.serialize_entry(key, v),
        None => Ok(()),
    }
}

/// A JSON value that keeps object keys in document order, whatever
/// `serde_json`'s `preserve_order` feature says.
#[derive(Debug, Clone, PartialEq)]
enum Ordered {
    Null,
    Bool(bool),
    Number(Number),
    String(String),
    Array(Vec<Ordered>),
    Object(Vec<(String, Ordered)>),
}

impl Ordered {
    fn into_value(self) -> Value {
        match self {
            Self::Null => Value::Null,
            Self::Bool(b) => Value::Bool(b),
            Self::Number(n) => Value::Number(n),
            Self::String(s) => Value::String(s),
            Self::Array(items) => Value::Array(items.into_iter().map(Self::into_value).collect()),
            Self::Object(entries) => Value::Object(
                entries
                    .into_iter()
                    .map(|(k, v)| (k, v.into_value()))
                    .collect(),
            ),
        }
    }

    fn to_value(&self) -> Value {
        self.clone().into_value()
    }

    fn is_null(&self) -> bool {
        matches!(self, Self::Null)
    }
}

impl Serialize for Ordered {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Null => serializer.serialize_unit(),
            Self::Bool(b) => serializer.serialize_bool(*b),
            Self::Number(n) => n.serialize(serializer),
            Self::String(s) => serializer.serialize_str(s),
            Self::Array(items) => items.serialize(serializer),
            Self::Object(entries) => {
                let mut map = serializer.serialize_map(Some(entries.len()))?;
                for (k, v) in entries {
                    map.serialize_entry(k, v)?;
                }
                map.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for Ordered {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct OrderedVisitor;
        impl<'de> Visitor<'de> for OrderedVisitor {
            type Value = Ordered;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_bool<E>(self, b: bool) -> Result<Ordered, E> {
                Ok(Ordered::Bool(b))
            }
            fn visit_i64<E>(self, n: i64) -> Result<Ordered, E> {
                Ok(Ordered::Number(n.into()))
            }
            fn visit_u64<E>(self, n: u64) -> Result<Ordered, E> {
                Ok(Ordered::Number(n.into()))
            }
            fn visit_f64<E: de::Error>(self, x: f64) -> Result<Ordered, E> {
                Number::from_f64(x)
                    .map(Ordered::Number)
                    .ok_or_else(|| E::custom("a number must be finite"))
            }
            fn visit_str<E>(self, s: &str) -> Result<Ordered, E> {
                Ok(Ordered::String(s.to_owned()))
            }
            fn visit_string<E>(self, s: String) -> Result<Ordered, E> {
                Ok(Ordered::String(s))
            }
            fn visit_unit<E>(self) -> Result<Ordered, E> {
                Ok(Ordered::Null)
            }
            fn visit_none<E>(self) -> Result<Ordered, E> {
                Ok(Ordered::Null)
            }
            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Ordered, D::Error> {
                Ordered::deserialize(d)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Ordered, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(Ordered::Array(items))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Ordered, A::Error> {
                let mut entries: Vec<(String, Ordered)> = Vec::new();
                let mut seen = HashSet::new();
                while let Some(key) = map.next_key::<String>()? {
                    let value = map.next_value()?;
                    // Refused rather than "last one wins": two readers must
                    // never see different values.
                    if !seen.insert(key.clone()) {
                        return Err(de::Error::custom(format_args!("duplicate key `{key}`")));
                    }
                    entries.push((key, value));
                }
                Ok(Ordered::Object(entries))
            }
        }
        deserializer.deserialize_any(OrderedVisitor)
    }
}

/// The top-level params object, keys in document order.
struct Fields(Vec<(String, Ordered)>);

impl Fields {
    fn get(&self, key: &str) -> Option<&Ordered> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }
}

impl<'de> Deserialize<'de> for Fields {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match Ordered::deserialize(deserializer)? {
            Ordered::Object(entries) => Ok(Self(entries)),
            _ => Err(de::Error::custom(
                "elicitation params must be a JSON object",
            )),
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
}
