//! The ready rmcp `ClientHandler` of an MCP host: its elicitations
//! answered by [`McpElicitations`], everything else rmcp's defaults.

use rmcp::model::{self, ErrorCode, ErrorData};
use rmcp::service::{RequestContext, RoleClient};
use serde_json::Value;

use crate::protocol::client::Render;
use crate::protocol::{ElicitationCapabilities, ElicitationId};

use super::state::McpElicitations;

/// A ready rmcp `ClientHandler` for an MCP host: its elicitations answered
/// by [`McpElicitations`], everything else rmcp's defaults. Serve it with
/// rmcp (`client.clone().serve(transport)`), then call tools with
/// [`call_tool`](Self::call_tool).
///
/// Example: the [module guide](crate::mcp::client).
#[derive(Clone, Debug)]
pub struct ElicitingClient {
    pub(super) elicitations: McpElicitations,
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
