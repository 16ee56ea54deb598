//! One connection's elicitation state: the modes the guard accepts, the
//! renderer, the server's name and the URL elicitations it tracks.

use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use rmcp::model::{self, ErrorData};
use rmcp::service::{RequestContext, RoleClient};
use serde_json::Value;

use crate::protocol::client::{ClientConnection, Completion, Incoming, Render, answer_on_thread};
use crate::protocol::{
    CompleteElicitationNotification, CreateElicitationRequest, CreateElicitationResponse,
    ElicitationCapabilities, ElicitationId, JsonRpcError,
};

use super::super::carrier::ELICITATION_COMPLETE_NOTIFICATION;
use super::convert::{error_data, raw_request_of, request_of, result_of, scope_of};

type CompletionHook = Box<dyn FnMut(&ElicitationId) + Send>;

/// One MCP connection's elicitation state, on the client: the modes this
/// client advertises (and its guard enforces), the renderer, and the URL
/// elicitations it tracks. Cheap to clone (shared).
#[derive(Clone)]
pub struct McpElicitations {
    pub(super) inner: Arc<Inner>,
}

pub(super) struct Inner {
    pub(super) connection: Mutex<ClientConnection>,
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
    pub(super) async fn render(
        &self,
        incoming: Incoming,
    ) -> Result<CreateElicitationResponse, JsonRpcError> {
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
}

pub(super) fn lock<T: ?Sized>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // The renderer may panic while holding its lock; the state is plain
    // bookkeeping, usable either way.
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
