//! The client's side on the ACP SDK: the guard, the renderer on its own
//! thread, validate-before-send, and the URL tracker of one agent
//! connection.

use std::fmt;
use std::sync::{Arc, Mutex};

use crate::sync::lock;

use agent_client_protocol::{
    Agent, ConnectionTo as RawConnectionTo, Dispatch, HandleDispatchFrom, Handled,
};
use agent_client_protocol_schema::v1 as sdk;

use crate::flow::render::answer_on_thread;
use crate::protocol::client::{ClientConnection, Completion, Incoming, Render};
use crate::protocol::{
    CompleteElicitationNotification, ELICITATION_COMPLETE, ELICITATION_CREATE,
    ElicitationCapabilities, ElicitationId, JsonRpcError,
};

/// The client's elicitation state for one agent connection: what it
/// advertises, the guard, and the URL elicitations it tracks. Cheap to
/// clone; every clone is the same state.
#[derive(Clone)]
pub struct ClientElicitations {
    connection: Arc<Mutex<ClientConnection>>,
    agent: Arc<Mutex<String>>,
}

impl fmt::Debug for ClientElicitations {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientElicitations")
            .field("connection", &*lock(&self.connection))
            .field("agent", &*lock(&self.agent))
            .finish()
    }
}

impl ClientElicitations {
    /// A client advertising `capabilities` (`None`: no elicitation). Send
    /// [`acp_capabilities`](Self::acp_capabilities) in `initialize`, so the
    /// guard and the advertisement cannot disagree.
    pub fn new(capabilities: Option<&sdk::ElicitationCapabilities>) -> Self {
        Self {
            connection: Arc::new(Mutex::new(ClientConnection::from_acp_capabilities(
                capabilities,
            ))),
            agent: Arc::new(Mutex::new("the agent".to_owned())),
        }
    }

    /// What this client advertises, as the SDK's type for
    /// `ClientCapabilities::elicitation`.
    pub fn acp_capabilities(&self) -> Option<sdk::ElicitationCapabilities> {
        let connection = lock(&self.connection);
        connection
            .capabilities()
            .and_then(|c: &ElicitationCapabilities| sdk::ElicitationCapabilities::try_from(c).ok())
    }

    /// How the renderer names the agent to the user (from its `initialize`
    /// answer, and the process you launched). Default: "the agent".
    pub fn set_agent(&self, label: impl Into<String>) {
        *lock(&self.agent) = label.into();
    }

    /// Whether the URL elicitation `id` is still awaiting its completion.
    pub fn is_pending(&self, id: &ElicitationId) -> bool {
        lock(&self.connection).is_pending(id)
    }

    /// The SDK handler for `elicitation/create` and `elicitation/complete`:
    /// add it to the client builder with `.with_handler(..)`. Requests are
    /// rendered one at a time, each on a thread of its own, so a renderer
    /// may block (a terminal prompt) without stalling the connection.
    pub fn handler<R: Render + Send + 'static>(&self, renderer: R) -> ElicitationHandler<R> {
        ElicitationHandler {
            state: self.clone(),
            renderer: Arc::new(Mutex::new(renderer)),
            on_complete: None,
        }
    }
}

/// Called with the id of each URL elicitation the agent reports complete.
type OnComplete = Box<dyn FnMut(&ElicitationId) + Send>;

/// The client-side SDK handler built by [`ClientElicitations::handler`].
pub struct ElicitationHandler<R> {
    state: ClientElicitations,
    renderer: Arc<Mutex<R>>,
    on_complete: Option<OnComplete>,
}

impl<R> fmt::Debug for ElicitationHandler<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ElicitationHandler")
            .field("state", &self.state)
            .finish_non_exhaustive()
    }
}

impl<R> ElicitationHandler<R> {
    /// Calls `f` with the id of each URL elicitation the agent reports
    /// complete (unknown and repeated ids are ignored, as the protocol
    /// requires): tell the user, retry what waited for it.
    pub fn on_complete(mut self, f: impl FnMut(&ElicitationId) + Send + 'static) -> Self {
        self.on_complete = Some(Box::new(f));
        self
    }
}

impl<R: Render + Send + 'static> HandleDispatchFrom<Agent> for ElicitationHandler<R> {
    async fn handle_dispatch_from(
        &mut self,
        message: Dispatch,
        cx: RawConnectionTo<Agent>,
    ) -> Result<Handled<Dispatch>, agent_client_protocol::Error> {
        match message {
            Dispatch::Request(request, responder) if request.method == ELICITATION_CREATE => {
                let incoming = lock(&self.state.connection).receive_value(request.params);
                let incoming = match incoming {
                    Ok(incoming) => incoming,
                    Err(refusal) => {
                        responder.respond_with_error(sdk_error(&refusal))?;
                        return Ok(Handled::Yes);
                    }
                };
                let state = self.state.clone();
                let renderer = self.renderer.clone();
                cx.spawn(async move {
                    match render(state, renderer, incoming).await {
                        Ok(response) => responder.respond(response),
                        Err(error) => responder.respond_with_error(sdk_error(&error)),
                    }
                })?;
                Ok(Handled::Yes)
            }
            Dispatch::Notification(notification) if notification.method == ELICITATION_COMPLETE => {
                // A notification that does not parse has nobody to answer:
                // it is dropped, like an unknown id.
                if let Ok(notification) =
                    serde_json::from_value::<CompleteElicitationNotification>(notification.params)
                    && let Completion::Completed(id) =
                        lock(&self.state.connection).on_complete(&notification)
                    && let Some(f) = &mut self.on_complete
                {
                    f(&id);
                }
                Ok(Handled::Yes)
            }
            other => Ok(Handled::No {
                message: other,
                retry: false,
            }),
        }
    }

    fn describe_chain(&self) -> impl fmt::Debug {
        "elicit_core::acp::sdk::ElicitationHandler (elicitation/create, elicitation/complete)"
    }
}

/// Renders `incoming` on a thread of its own and returns the response's
/// JSON. A URL request that is not accepted is forgotten.
async fn render<R: Render + Send + 'static>(
    state: ClientElicitations,
    renderer: Arc<Mutex<R>>,
    incoming: Incoming,
) -> Result<serde_json::Value, JsonRpcError> {
    let agent = lock(&state.agent).clone();
    let response = answer_on_thread(renderer, agent, incoming, &state.connection, "acp").await?;
    serde_json::to_value(&response).map_err(|e| {
        JsonRpcError::internal(format!("Internal error: cannot encode the answer: {e}"))
    })
}

/// The SDK's error for one of ours (code, message and data kept).
fn sdk_error(error: &JsonRpcError) -> agent_client_protocol::Error {
    let code = i32::try_from(error.code).unwrap_or(-32603);
    let sdk = agent_client_protocol::Error::new(code, error.message.clone());
    match &error.data {
        Some(data) => sdk.data(data.clone()),
        None => sdk,
    }
}
