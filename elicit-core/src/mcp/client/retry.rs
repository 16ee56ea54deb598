//! `-32042` (URL elicitation required) in
//! [`ElicitationHandler::call_tool`]: each listed URL reviewed and
//! consented to, then the call retried.

use rmcp::model::{self, ErrorCode, ErrorData};
use rmcp::service::{RoleClient, RunningService, Service, ServiceError};
use serde_json::Value;

use crate::fingerprint::Fingerprint;
use crate::protocol::{ElicitationAction, ElicitationMode, JsonRpcError};

use super::super::rounds::URL_ELICITATION_REQUIRED;
use super::convert::read_request;
use super::handler::ElicitationHandler;
use crate::sync::lock;

/// How many times [`ElicitationHandler::call_tool`] retries a call that
/// answered `-32042` (each time after the user consented to every URL it
/// listed).
pub(crate) const URL_REQUIRED_RETRIES: usize = 3;

impl ElicitationHandler {
    /// Calls a tool on `running` (served with this handler, or with a
    /// `ClientHandler` of your own that forwards to it), its elicitations
    /// rendered as they come (MCP 2026-07-28's rounds included); a call
    /// that answers `-32042` (URL elicitation required) has each listed
    /// URL reviewed and consented to, then is retried (at most
    /// 3 times, [limits](crate::reference::limits)).
    ///
    /// # Errors
    ///
    /// rmcp's error for the call; `-32042` as it came if the user declined
    /// a URL it listed, or after the last retry.
    pub async fn call_tool<S: Service<RoleClient>>(
        &self,
        running: &RunningService<RoleClient, S>,
        params: model::CallToolRequestParams,
    ) -> Result<model::CallToolResult, ServiceError> {
        if let Some(name) = running
            .peer()
            .peer_info()
            .and_then(|server| server.server_info.as_ref().map(|i| i.name.clone()))
        {
            self.state().set_server(name);
        }
        let mut retries = 0;
        loop {
            match running.call_tool(params.clone()).await {
                Err(ServiceError::McpError(error))
                    if error.code == ErrorCode(URL_ELICITATION_REQUIRED)
                        && retries < URL_REQUIRED_RETRIES =>
                {
                    retries += 1;
                    note!("-32042: consenting, then retrying", retry = retries);
                    match self.consent_to_listed_urls(&error).await {
                        Ok(true) => continue,
                        Ok(false) | Err(_) => return Err(ServiceError::McpError(error)),
                    }
                }
                other => return other,
            }
        }
    }

    /// The URL elicitations a `-32042` error lists, each reviewed and shown
    /// to the user like a URL request: `true` if the user consented to
    /// every one (then retry the call), `false` if they declined or
    /// cancelled one (do not retry). `-32602` if the error's
    /// `data.elicitations` is not a list of URL elicitations this host
    /// accepts.
    async fn consent_to_listed_urls(&self, error: &ErrorData) -> Result<bool, JsonRpcError> {
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
            let id = model::NumberOrString::Number(i64::try_from(n).unwrap_or(i64::MAX));
            let request = read_request(params, &id)?;
            let ElicitationMode::Url { elicitation_id, .. } = &request.mode else {
                return Err(JsonRpcError::invalid_params(
                    "Invalid params: URL elicitation required lists a request that is not a URL",
                ));
            };
            note!(
                "listed url shown",
                elicitation_id = Fingerprint(elicitation_id.as_str())
            );
            let incoming = {
                let mut connection = lock(self.state().connection());
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
