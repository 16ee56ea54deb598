//! The rmcp `ClientHandler` of an MCP host: each `elicitation/create`
//! through the guard to the renderer, each completion tracked.

use std::fmt;
use std::sync::{Arc, Mutex};

use rmcp::model::{self, ErrorCode, ErrorData};
use rmcp::service::{NotificationContext, RequestContext, RoleClient};
use serde_json::Value;

use crate::flow::render::answer_on_thread;
use crate::protocol::client::{Completion, Incoming, Render};
use crate::protocol::{
    CompleteElicitationNotification, CreateElicitationRequest, CreateElicitationResponse,
    ELICITATION_CREATE, ElicitationId, JsonRpcError,
};

use super::super::carrier::ELICITATION_COMPLETE_NOTIFICATION;
use super::convert::{error_data, read_request, result_of};
use super::state::ClientElicitations;
use crate::sync::lock;

/// Called with the id of each URL elicitation the server reports complete.
type OnComplete = Box<dyn FnMut(&ElicitationId) + Send>;

/// The rmcp `ClientHandler` of an MCP host, built by
/// [`ClientElicitations::handler`]: its elicitations answered through the
/// guard and the renderer, everything else rmcp's defaults. Serve it with
/// rmcp (`handler.clone().serve(transport)`), then call tools with
/// [`call_tool`](Self::call_tool). Cheap to clone; every clone shares the
/// state, the renderer and the completion hook.
///
/// A host with a `ClientHandler` of its own keeps one in it and forwards
/// `create_elicitation`, `on_custom_request` and `on_custom_notification`
/// to it (rmcp's trait methods), and `get_info`'s `capabilities.elicitation`
/// is [`ClientElicitations::mcp_capability`].
///
/// Example: the [module guide](crate::mcp::client).
#[derive(Clone)]
pub struct ElicitationHandler {
    state: ClientElicitations,
    renderer: Arc<Mutex<dyn Render + Send>>,
    on_complete: Arc<Mutex<Option<OnComplete>>>,
    info: model::Implementation,
}

impl fmt::Debug for ElicitationHandler {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ElicitationHandler")
            .field("state", &self.state)
            .field("info", &self.info)
            .finish_non_exhaustive()
    }
}

impl ClientElicitations {
    /// The rmcp `ClientHandler` of this state: a host named `name` (its
    /// `clientInfo`) that shows each request with `renderer`, on a thread
    /// of its own. Serve it with rmcp, then call tools with its
    /// [`call_tool`](ElicitationHandler::call_tool).
    pub fn handler(
        &self,
        name: impl Into<String>,
        renderer: impl Render + Send + 'static,
    ) -> ElicitationHandler {
        ElicitationHandler {
            state: self.clone(),
            renderer: Arc::new(Mutex::new(renderer)),
            on_complete: Arc::new(Mutex::new(None)),
            info: model::Implementation::new(name, env!("CARGO_PKG_VERSION")),
        }
    }
}

impl ElicitationHandler {
    /// Calls `f` with the id of each URL elicitation the server reports
    /// complete (unknown and repeated ids are ignored, as the protocol
    /// requires): tell the user, retry what waited for it.
    #[must_use]
    pub fn on_complete(self, f: impl FnMut(&ElicitationId) + Send + 'static) -> Self {
        *lock(&self.on_complete) = Some(Box::new(f));
        self
    }

    /// Its state.
    pub(super) fn state(&self) -> &ClientElicitations {
        &self.state
    }

    /// Answers an `elicitation/create` request: the guard (which refuses a
    /// form it cannot render), then the renderer, then the checked answer
    /// as rmcp's result.
    async fn answer(
        &self,
        request: CreateElicitationRequest,
    ) -> Result<model::ElicitResult, JsonRpcError> {
        let incoming = lock(self.state.connection()).receive(request)?;
        let response = self.render(incoming).await?;
        Ok(result_of(response))
    }

    /// Renders `incoming` on a thread of its own; a URL request that is
    /// not consented to is forgotten.
    pub(super) async fn render(
        &self,
        incoming: Incoming,
    ) -> Result<CreateElicitationResponse, JsonRpcError> {
        let renderer = Arc::clone(&self.renderer);
        answer_on_thread(
            renderer,
            self.state.server(),
            incoming,
            self.state.connection(),
            "mcp",
        )
        .await
    }

    /// Answers the raw params of an `elicitation/create` request.
    async fn answer_params(
        &self,
        params: Value,
        id: &model::RequestId,
    ) -> Result<model::ElicitResult, ErrorData> {
        let request = read_request(params, id).map_err(|e| error_data(&e))?;
        self.answer(request).await.map_err(|e| error_data(&e))
    }
}

impl rmcp::ClientHandler for ElicitationHandler {
    fn get_info(&self) -> model::InitializeRequestParams {
        let mut capabilities = model::ClientCapabilities::default();
        capabilities.elicitation = self.state.mcp_capability();
        model::InitializeRequestParams::new(capabilities, self.info.clone())
    }

    /// The guard (`-32602` for a mode this host did not advertise, an
    /// unknown mode, a schema it cannot read or render, a URL id already
    /// outstanding), then the renderer (on a thread of its own, one request
    /// at a time), then the checked answer (`-32603` if the renderer gave
    /// none in 3 tries, [limits](crate::reference::limits)). A URL request the user does not consent to is forgotten.
    async fn create_elicitation(
        &self,
        request: model::ElicitRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<model::ElicitResult, ErrorData> {
        let params = serde_json::to_value(&request)
            .map_err(|e| ErrorData::invalid_params(format!("Invalid params: {e}"), None))?;
        self.answer_params(params, &context.id).await
    }

    /// An `elicitation/create` request rmcp could not read into its own
    /// types (an unknown mode, a schema of another shape), through the same
    /// guard; any other method is `-32601`.
    async fn on_custom_request(
        &self,
        request: model::CustomRequest,
        context: RequestContext<RoleClient>,
    ) -> Result<model::CustomResult, ErrorData> {
        if request.method != ELICITATION_CREATE {
            return Err(ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                request.method,
                None,
            ));
        }
        let result = self
            .answer_params(request.params.unwrap_or(Value::Null), &context.id)
            .await?;
        let value = serde_json::to_value(result)
            .map_err(|_| ErrorData::internal_error("the answer could not be written", None))?;
        Ok(model::CustomResult::new(value))
    }

    /// `notifications/elicitation/complete` for a tracked URL elicitation
    /// calls the [`on_complete`](Self::on_complete) hook; another
    /// notification, or one that does not parse (it has nobody to answer),
    /// is dropped.
    async fn on_custom_notification(
        &self,
        notification: model::CustomNotification,
        _context: NotificationContext<RoleClient>,
    ) {
        if notification.method != ELICITATION_COMPLETE_NOTIFICATION {
            return;
        }
        let Some(params) = notification.params else {
            return;
        };
        let Ok(notification) = serde_json::from_value::<CompleteElicitationNotification>(params)
        else {
            return;
        };
        let completion = lock(self.state.connection()).on_complete(&notification);
        if let Completion::Completed(id) = &completion
            && let Some(f) = &mut *lock(&self.on_complete)
        {
            f(id);
        }
    }
}
