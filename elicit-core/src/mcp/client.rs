//! The client side of MCP elicitation, on rmcp's client (an MCP host: an
//! agent app, a CLI, an IDE plugin whose rmcp client shows a server's
//! elicitations to its user): the same engine as ACP's client side
//! ([`protocol::client`](crate::protocol::client)), with rmcp's types at
//! the edges.
//!
//! - [`ElicitingClient`]: a ready rmcp `ClientHandler`. The guard (`-32602`
//!   for a mode it did not advertise, an unknown mode, or a form it cannot
//!   render), any [`Render`] (the terminal `Renderer`, or yours) on a
//!   thread of its own, validation before sending (an invalid answer goes
//!   back to the user, never to the server), the URL's review before
//!   consent (a URL is never opened without it, never fetched by elicit),
//!   `notifications/elicitation/complete` tracked, and
//!   [`ElicitingClient::call_tool`], which answers `-32042` (URL
//!   elicitation required) by showing each listed URL for consent, then
//!   retries the call.
//! - [`McpElicitations`]: one connection's elicitation state, underneath,
//!   for a host with a `ClientHandler` of its own. Its
//!   [`create_elicitation`](McpElicitations::create_elicitation) is the
//!   body of rmcp's `ClientHandler::create_elicitation`; completion is
//!   tracked by [`on_notification`](McpElicitations::on_notification).
//!
//! MCP 2026-07-28's input-required rounds need nothing more: rmcp's client
//! hands each round's elicitations to the same handler, and retries the
//! call with the answers and the state.
//!
//! What is advertised is what the guard enforces
//! ([`McpElicitations::capability`]): each mode explicitly (`{"form": {}}`,
//! `{"url": {}}`), never the bare `{}` that MCP reads as form only.
//!
//! MCP's own schema shapes are read, never dropped: titled single-select
//! (`oneOf` of `const`/`title`), titled multi-select (`anyOf`), and the
//! legacy `enumNames` (read as titled options). A server's text reaches
//! the terminal with every control, invisible and direction-changing
//! character written out
//! ([`printable`](crate::protocol::client::printable), for your own
//! renderer too).
//!
//! A host's dependencies (the terminal renderer is feature `terminal`;
//! rmcp's `transport-child-process` launches a server on stdio):
//!
//! ```toml
//! [dependencies]
//! elicit-core = { version = "0.1", features = ["rmcp", "terminal"] }
//! rmcp = { version = "3.11", features = ["client", "transport-child-process"] }
//! tokio = { version = "1", features = ["macros", "rt"] }
//! ```
//!
//! Serve an [`ElicitingClient`] with rmcp, then call tools with its
//! [`call_tool`](ElicitingClient::call_tool):
//!
//! ```no_run
//! # #[cfg(feature = "terminal")]
//! # mod guide {
//! use elicit_core::mcp::client::ElicitingClient;
//! use elicit_core::protocol::ElicitationCapabilities;
//! use elicit_core::terminal::Renderer;
//! use rmcp::ServiceExt;
//! use rmcp::model::CallToolRequestParams;
//! use rmcp::service::RoleClient;
//! use rmcp::transport::IntoTransport;
//!
//! /// Calls the first tool of the server at the other end of `transport`
//! /// (e.g. rmcp's `TokioChildProcess::new(command)?`, a server it
//! /// launches), every elicitation on the way shown in the terminal.
//! async fn host<T, E, A>(transport: T) -> Result<(), Box<dyn std::error::Error>>
//! where
//!     T: IntoTransport<RoleClient, E, A>,
//!     E: std::error::Error + Send + Sync + 'static,
//! {
//!     let client = ElicitingClient::new(
//!         "my-host",
//!         ElicitationCapabilities::form_and_url(),
//!         Renderer::from_stdin(),
//!     );
//!     let running = client.clone().serve(transport).await?;
//!     let tools = running.peer().list_tools(None).await?.tools;
//!     let tool = tools.first().ok_or("the server lists no tool")?.name.to_string();
//!     let result = client
//!         .call_tool(&running, CallToolRequestParams::new(tool))
//!         .await?;
//!     println!("{:?}", result.content);
//!     Ok(())
//! }
//! # }
//! # fn main() {}
//! ```
//!
//! The repository's `examples/mcp_client.rs` is a whole host: it launches a
//! server (stdio) or reaches one by URL (Streamable HTTP), at either MCP
//! version, and calls a tool (commands: the repository's
//! `examples/README.md`).
//!
//! Tested against FastMCP, the official Python SDK's low-level server and
//! the official TypeScript SDK's server at the versions each speaks
//! (`tests/it/mcp_client_interop.rs`), and against a hostile server
//! (`hostile_requests_table` in `tests/it/mcp_client.rs`: escapes, bidi
//! overrides, nested schemas, 100,000 options, look-alike hosts, modes not
//! advertised): `cargo test --test it --features rmcp mcp_client`.

use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use rmcp::model::{self, ErrorCode, ErrorData};
use rmcp::service::{RequestContext, RoleClient, RunningService, ServiceError};
use serde_json::{Map, Value};

use crate::protocol::client::{ClientConnection, Completion, Incoming, Render, answer_on_thread};
use crate::protocol::{
    CompleteElicitationNotification, CreateElicitationRequest, CreateElicitationResponse,
    ElicitationAction, ElicitationCapabilities, ElicitationId, ElicitationScope, JsonRpcError,
    RequestId,
};
use crate::schema::ElicitationSchema;

use super::carrier::ELICITATION_COMPLETE_NOTIFICATION;
use super::rounds::URL_ELICITATION_REQUIRED;

/// How many times [`ElicitingClient::call_tool`] retries a call that
/// answered `-32042` (each time after the user consented to every URL it
/// listed).
pub const URL_REQUIRED_RETRIES: usize = 3;

type CompletionHook = Box<dyn FnMut(&ElicitationId) + Send>;

/// One MCP connection's elicitation state, on the client: the modes this
/// client advertises (and its guard enforces), the renderer, and the URL
/// elicitations it tracks. Cheap to clone (shared).
#[derive(Clone)]
pub struct McpElicitations {
    inner: Arc<Inner>,
}

struct Inner {
    connection: Mutex<ClientConnection>,
    renderer: Arc<Mutex<dyn Render + Send>>,
    server: Mutex<String>,
    on_complete: Mutex<Option<CompletionHook>>,
}

impl fmt::Debug for McpElicitations {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("McpElicitations")
            .field("connection", &*lock(&self.inner.connection))
            .field("server", &*lock(&self.inner.server))
            .finish_non_exhaustive()
    }
}

impl McpElicitations {
    /// A client that accepts `modes` (e.g.
    /// [`ElicitationCapabilities::form_and_url`]) and shows each request
    /// with `renderer`.
    pub fn new(modes: ElicitationCapabilities, renderer: impl Render + Send + 'static) -> Self {
        Self {
            inner: Arc::new(Inner {
                connection: Mutex::new(ClientConnection::new(Some(modes))),
                renderer: Arc::new(Mutex::new(renderer)),
                server: Mutex::new("the MCP server".to_owned()),
                on_complete: Mutex::new(None),
            }),
        }
    }

    /// Calls `f` with the id of each URL elicitation the server reports
    /// complete (unknown and repeated ids are ignored, as the protocol
    /// requires).
    #[must_use]
    pub fn on_complete(self, f: impl FnMut(&ElicitationId) + Send + 'static) -> Self {
        *lock(&self.inner.on_complete) = Some(Box::new(f));
        self
    }

    /// The name the renderer shows as the requester (the server's, once
    /// known: `RunningService::peer_info`).
    pub fn set_server(&self, name: impl Into<String>) {
        *lock(&self.inner.server) = name.into();
    }

    /// The `elicitation` capability to advertise: exactly the modes the
    /// guard accepts, each named (`{"form": {}}`, `{"url": {}}`).
    pub fn capability(&self) -> Option<model::ElicitationCapability> {
        let connection = lock(&self.inner.connection);
        let modes = connection.capabilities()?;
        let mut capability = model::ElicitationCapability::new();
        if modes.supports_form() {
            capability = capability.with_form(model::FormElicitationCapability::new());
        }
        if modes.supports_url() {
            capability = capability.with_url(model::UrlElicitationCapability::new());
        }
        Some(capability)
    }

    /// Client capabilities with [`capability`](Self::capability) set.
    pub fn client_capabilities(&self) -> model::ClientCapabilities {
        let mut capabilities = model::ClientCapabilities::default();
        capabilities.elicitation = self.capability();
        capabilities
    }

    /// Answers an `elicitation/create` request (the body of rmcp's
    /// `ClientHandler::create_elicitation`): the guard, then the renderer
    /// (on a thread of its own, one request at a time), then the checked
    /// answer. A URL request the user does not consent to is forgotten.
    ///
    /// # Errors
    ///
    /// `-32602` for a mode this client did not advertise, an unknown mode,
    /// a schema it cannot read or render (a nested object, an unknown
    /// type, contradictory bounds), or a URL id already outstanding; `-32603`
    /// if the renderer gave no valid answer in
    /// [`MAX_RENDER_ATTEMPTS`](crate::limits::MAX_RENDER_ATTEMPTS) tries.
    pub async fn create_elicitation(
        &self,
        request: model::ElicitRequestParams,
        context: &RequestContext<RoleClient>,
    ) -> Result<model::ElicitResult, ErrorData> {
        let request = request_of(&request, scope_of(&context.id)).map_err(|e| error_data(&e))?;
        self.answer(request).await.map_err(|e| error_data(&e))
    }

    /// Answers an `elicitation/create` request rmcp could not read into its
    /// own types (an unknown mode, a schema of another shape): the raw
    /// params, through the same guard (`-32602` with what is wrong).
    ///
    /// # Errors
    ///
    /// As [`create_elicitation`](Self::create_elicitation).
    pub async fn create_elicitation_value(
        &self,
        params: Value,
        context: &RequestContext<RoleClient>,
    ) -> Result<model::ElicitResult, ErrorData> {
        let request = raw_request_of(params, scope_of(&context.id)).map_err(|e| error_data(&e))?;
        self.answer(request).await.map_err(|e| error_data(&e))
    }

    async fn answer(
        &self,
        request: CreateElicitationRequest,
    ) -> Result<model::ElicitResult, JsonRpcError> {
        let incoming = lock(&self.inner.connection).receive(request)?;
        // A form that cannot be rendered (a property of no flat type, a
        // contradictory bound) is refused, never shown half.
        if let Incoming::Form(form) = &incoming
            && let Err(not_renderable) = form.renderable()
        {
            return Err(not_renderable.to_jsonrpc_error());
        }
        let response = self.render(incoming).await?;
        Ok(result_of(response))
    }

    /// Renders `incoming` on a thread of its own; a URL request that is
    /// not consented to is forgotten.
    async fn render(&self, incoming: Incoming) -> Result<CreateElicitationResponse, JsonRpcError> {
        let server = lock(&self.inner.server).clone();
        let renderer = Arc::clone(&self.inner.renderer);
        answer_on_thread(renderer, server, incoming, &self.inner.connection).await
    }

    /// Reads a notification: `notifications/elicitation/complete` for a
    /// tracked URL elicitation calls the [`on_complete`](Self::on_complete)
    /// hook. `None` for another notification (or one that does not parse,
    /// which has nobody to answer).
    pub fn on_notification(&self, notification: &model::CustomNotification) -> Option<Completion> {
        if notification.method != ELICITATION_COMPLETE_NOTIFICATION {
            return None;
        }
        let params = notification.params.clone()?;
        let notification: CompleteElicitationNotification = serde_json::from_value(params).ok()?;
        let completion = lock(&self.inner.connection).on_complete(&notification);
        if let Completion::Completed(id) = &completion
            && let Some(f) = &mut *lock(&self.inner.on_complete)
        {
            f(id);
        }
        Some(completion)
    }

    /// Whether `id` is a tracked URL elicitation, not yet completed.
    pub fn is_pending(&self, id: &ElicitationId) -> bool {
        lock(&self.inner.connection).is_pending(id)
    }

    /// The URL elicitations a `-32042` error lists, each reviewed and shown
    /// to the user like a URL request: `true` if the user consented to
    /// every one (then retry the call), `false` if they declined or
    /// cancelled one (do not retry).
    ///
    /// # Errors
    ///
    /// `-32602` if the error's `data.elicitations` is not a list of URL
    /// elicitations this client accepts.
    pub async fn url_required(&self, error: &ErrorData) -> Result<bool, JsonRpcError> {
        let listed = error
            .data
            .as_ref()
            .and_then(|data| data.get("elicitations"))
            .and_then(Value::as_array)
            .ok_or_else(|| {
                JsonRpcError::invalid_params(
                    "Invalid params: URL elicitation required, without `data.elicitations`",
                )
            })?;
        for (n, listed) in listed.iter().enumerate() {
            let mut params = listed.clone();
            if let Some(object) = params.as_object_mut() {
                object.entry("mode").or_insert_with(|| "url".into());
            }
            let scope =
                ElicitationScope::request(RequestId::Number(i64::try_from(n).unwrap_or(i64::MAX)));
            let request = raw_request_of(params, scope)?;
            let crate::protocol::ElicitationMode::Url { elicitation_id, .. } = &request.mode else {
                return Err(JsonRpcError::invalid_params(
                    "Invalid params: URL elicitation required lists a request that is not a URL",
                ));
            };
            let incoming = {
                let mut connection = lock(&self.inner.connection);
                // Listed again by a retried call (the user has not finished
                // there yet): shown again, not refused as outstanding.
                connection.forget(elicitation_id);
                connection.receive(request)?
            };
            let response = self.render(incoming).await?;
            if !matches!(response.action, ElicitationAction::Accept { .. }) {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// A ready rmcp `ClientHandler` for an MCP host: its elicitations answered
/// by [`McpElicitations`], everything else rmcp's defaults. Serve it with
/// rmcp (`client.clone().serve(transport)`), then call tools with
/// [`call_tool`](Self::call_tool).
///
/// Example: the [module guide](crate::mcp::client).
#[derive(Clone, Debug)]
pub struct ElicitingClient {
    elicitations: McpElicitations,
    info: model::Implementation,
}

impl ElicitingClient {
    /// A client named `name` that accepts `modes` and shows each request
    /// with `renderer`.
    pub fn new(
        name: impl Into<String>,
        modes: ElicitationCapabilities,
        renderer: impl Render + Send + 'static,
    ) -> Self {
        Self {
            elicitations: McpElicitations::new(modes, renderer),
            info: model::Implementation::new(name, env!("CARGO_PKG_VERSION")),
        }
    }

    /// Its elicitation state (the completion hook, the server's name).
    pub fn elicitations(&self) -> &McpElicitations {
        &self.elicitations
    }

    /// Calls `f` with the id of each URL elicitation the server reports
    /// complete.
    #[must_use]
    pub fn on_complete(self, f: impl FnMut(&ElicitationId) + Send + 'static) -> Self {
        Self {
            elicitations: self.elicitations.on_complete(f),
            info: self.info,
        }
    }

    /// Calls a tool on `running` (served with this client), its
    /// elicitations rendered as they come (MCP 2026-07-28's rounds
    /// included); a call that answers `-32042` (URL elicitation required)
    /// has each listed URL reviewed and consented to, then is retried (at
    /// most [`URL_REQUIRED_RETRIES`] times).
    ///
    /// # Errors
    ///
    /// rmcp's error for the call; `-32042` as it came if the user declined
    /// a URL it listed, or after the last retry.
    pub async fn call_tool(
        &self,
        running: &RunningService<RoleClient, Self>,
        params: model::CallToolRequestParams,
    ) -> Result<model::CallToolResult, ServiceError> {
        if let Some(name) = running
            .peer()
            .peer_info()
            .and_then(|server| server.server_info.as_ref().map(|i| i.name.clone()))
        {
            self.elicitations.set_server(name);
        }
        let mut retries = 0;
        loop {
            match running.call_tool(params.clone()).await {
                Err(ServiceError::McpError(error))
                    if error.code == ErrorCode(URL_ELICITATION_REQUIRED)
                        && retries < URL_REQUIRED_RETRIES =>
                {
                    retries += 1;
                    match self.elicitations.url_required(&error).await {
                        Ok(true) => continue,
                        Ok(false) | Err(_) => return Err(ServiceError::McpError(error)),
                    }
                }
                other => return other,
            }
        }
    }
}

impl rmcp::ClientHandler for ElicitingClient {
    fn get_info(&self) -> model::InitializeRequestParams {
        model::InitializeRequestParams::new(
            self.elicitations.client_capabilities(),
            self.info.clone(),
        )
    }

    async fn create_elicitation(
        &self,
        request: model::ElicitRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<model::ElicitResult, ErrorData> {
        self.elicitations
            .create_elicitation(request, &context)
            .await
    }

    async fn on_custom_request(
        &self,
        request: model::CustomRequest,
        context: RequestContext<RoleClient>,
    ) -> Result<model::CustomResult, ErrorData> {
        if request.method != "elicitation/create" {
            return Err(ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                request.method,
                None,
            ));
        }
        let result = self
            .elicitations
            .create_elicitation_value(request.params.unwrap_or(Value::Null), &context)
            .await?;
        let value = serde_json::to_value(result)
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        Ok(model::CustomResult::new(value))
    }

    async fn on_custom_notification(
        &self,
        notification: model::CustomNotification,
        _context: rmcp::service::NotificationContext<RoleClient>,
    ) {
        let _ = self.elicitations.on_notification(&notification);
    }
}

/// The scope the renderer shows: MCP has none, so the request's id.
fn scope_of(id: &model::RequestId) -> ElicitationScope {
    ElicitationScope::request(match id {
        model::NumberOrString::Number(n) => RequestId::Number(*n),
        model::NumberOrString::String(s) => RequestId::String(s.to_string()),
    })
}

/// An `elicitation/create` request rmcp read, in elicit's model, for a
/// host that drives [`ClientConnection`] itself: a form's schema read by
/// elicit's reader (MCP's titled `oneOf`/`anyOf` as titled options, the
/// legacy `enumNames` too); a URL request with no id (MCP 2026-07-28 may
/// send none) named after its request, `request_id`. The scope is the
/// request's id (MCP has none of ACP's).
///
/// # Errors
///
/// `-32602` when the schema does not read (its error says where).
pub fn read_request(
    request: &model::ElicitRequestParams,
    request_id: &model::RequestId,
) -> Result<CreateElicitationRequest, JsonRpcError> {
    request_of(request, scope_of(request_id))
}

/// [`read_request`] for raw params (a request rmcp could not read into its
/// own types: an unknown mode, a schema of another shape).
///
/// # Errors
///
/// `-32602` when the params do not read as an `elicitation/create`
/// request.
pub fn read_request_value(
    params: Value,
    request_id: &model::RequestId,
) -> Result<CreateElicitationRequest, JsonRpcError> {
    raw_request_of(params, scope_of(request_id))
}

fn request_of(
    request: &model::ElicitRequestParams,
    scope: ElicitationScope,
) -> Result<CreateElicitationRequest, JsonRpcError> {
    match request {
        model::ElicitRequestParams::FormElicitationParams {
            message,
            requested_schema,
            ..
        } => {
            let schema = serde_json::to_value(requested_schema)
                .map_err(|e| JsonRpcError::invalid_params(format!("Invalid params: {e}")))?;
            Ok(CreateElicitationRequest::form(
                scope,
                message.clone(),
                schema_of(schema)?,
            ))
        }
        model::ElicitRequestParams::UrlElicitationParams {
            message,
            url,
            elicitation_id,
            ..
        } => {
            let id = if elicitation_id.is_empty() {
                scope
                    .request_id()
                    .map_or_else(|| "url".to_owned(), |id| format!("request-{id}"))
            } else {
                elicitation_id.clone()
            };
            Ok(CreateElicitationRequest::url(
                scope,
                message.clone(),
                id,
                url.clone(),
            ))
        }
        // A mode rmcp adds later: read from its JSON, refused by the guard
        // if it is not one this client accepts.
        other => {
            let params = serde_json::to_value(other)
                .map_err(|e| JsonRpcError::invalid_params(format!("Invalid params: {e}")))?;
            raw_request_of(params, scope)
        }
    }
}

/// Raw `elicitation/create` params in elicit's model (MCP has no scope:
/// `scope` is set); what does not parse is `-32602`.
fn raw_request_of(
    params: Value,
    scope: ElicitationScope,
) -> Result<CreateElicitationRequest, JsonRpcError> {
    let Value::Object(mut params) = params else {
        return Err(JsonRpcError::invalid_params(
            "Invalid params: elicitation/create takes an object",
        ));
    };
    // No mode is a form (MCP 2025-06-18).
    params.entry("mode").or_insert_with(|| "form".into());
    if let Some(schema) = params.remove("requestedSchema") {
        params.insert("requestedSchema".to_owned(), with_titles(schema));
    }
    let mut object = Map::new();
    object.extend(params);
    if let Ok(Value::Object(scope)) = serde_json::to_value(&scope) {
        object.extend(scope);
    }
    serde_json::from_value(Value::Object(object)).map_err(|e| {
        JsonRpcError::invalid_params(format!("Invalid params: elicitation/create: {e}"))
    })
}

/// A form's schema, MCP's shapes read: `-32602` with what is wrong.
fn schema_of(schema: Value) -> Result<ElicitationSchema, JsonRpcError> {
    serde_json::from_value(with_titles(schema))
        .map_err(|e| JsonRpcError::invalid_params(format!("Invalid params: requestedSchema: {e}")))
}

/// MCP's legacy titled enum (`enum` with `enumNames`, one title per value)
/// as the titled `oneOf` elicit reads; anything else unchanged. `enumNames`
/// of another length than `enum` is left as it is (the reader refuses it).
fn with_titles(mut schema: Value) -> Value {
    let Some(properties) = schema.get_mut("properties").and_then(Value::as_object_mut) else {
        return schema;
    };
    for property in properties.values_mut() {
        let Some(property) = property.as_object_mut() else {
            continue;
        };
        let (Some(Value::Array(values)), Some(Value::Array(names))) =
            (property.get("enum"), property.get("enumNames"))
        else {
            continue;
        };
        if values.len() != names.len() || !names.iter().all(Value::is_string) {
            continue;
        }
        let titled: Vec<Value> = values
            .iter()
            .zip(names)
            .map(|(value, name)| serde_json::json!({"const": value, "title": name}))
            .collect();
        property.remove("enum");
        property.remove("enumNames");
        property.insert("oneOf".to_owned(), Value::Array(titled));
    }
    schema
}

/// Our response as rmcp's result.
fn result_of(response: CreateElicitationResponse) -> model::ElicitResult {
    match response.action {
        ElicitationAction::Accept { content } => {
            let result = model::ElicitResult::new(model::ElicitationAction::Accept);
            match content {
                Some(content) => result.with_content(Value::Object(content)),
                None => result,
            }
        }
        ElicitationAction::Decline => model::ElicitResult::new(model::ElicitationAction::Decline),
        // Cancel, and any action the engine never produces.
        _ => model::ElicitResult::new(model::ElicitationAction::Cancel),
    }
}

/// Our JSON-RPC error as rmcp's (code, message and data kept).
fn error_data(error: &JsonRpcError) -> ErrorData {
    let code = i32::try_from(error.code).unwrap_or(-32603);
    ErrorData::new(ErrorCode(code), error.message.clone(), error.data.clone())
}

fn lock<T: ?Sized>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // The renderer may panic while holding its lock; the state is plain
    // bookkeeping, usable either way.
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
