//! rmcp's server peer as a carrier of the flows (MCP 2025-11-25 and
//! earlier): `elicitation/create` in MCP's shape, the answer read back
//! into elicit's model, `notifications/elicitation/complete`; and the
//! pieces the 2026-07-28 rounds share (URL params, the answer to a URL
//! request, a form's MCP schema).

use ::rmcp::model;
use ::rmcp::{Peer, RoleServer, ServiceError};
use serde_json::{Map, Value};

use crate::flow::{Carrier, ElicitError, RequestError, RequestFailure};
use crate::protocol::agent::{AgentConnection, PendingUrl, UrlRequest};
use crate::protocol::{
    CompleteElicitationNotification, CreateElicitationRequest, CreateElicitationResponse,
    ElicitationCapabilities, ElicitationId, ElicitationScope, Mode, RequestId,
};

use super::wire::{params_of, response_of};

/// The JSON-RPC method of MCP's URL-mode completion notification, which
/// rmcp 3.11 has no type for: [`Elicitor::complete`](super::Elicitor::complete)
/// sends it as a custom notification.
pub(crate) const ELICITATION_COMPLETE_NOTIFICATION: &str = "notifications/elicitation/complete";

/// Whether an MCP client with these `initialize` capabilities accepts
/// elicitation `mode`, by MCP's rule: no `elicitation` capability means no
/// mode; an empty `elicitation` object means form mode only (the
/// 2025-06-18 shape); otherwise exactly the modes it lists. This is the rule
/// of rmcp's `Peer::<RoleServer>::supported_elicitation_modes`, which needs
/// rmcp's `elicitation` feature (and the `url` crate); this one does not.
pub(crate) fn client_supports(capabilities: &model::ClientCapabilities, mode: Mode) -> bool {
    let Some(elicitation) = &capabilities.elicitation else {
        return false;
    };
    match mode {
        // `{}` (neither listed) is form mode.
        Mode::Form => elicitation.form.is_some() || elicitation.url.is_none(),
        Mode::Url => elicitation.url.is_some(),
    }
}

/// Sends `notifications/elicitation/complete` for `id` (a custom
/// notification: rmcp 3.11 has no type for it). The id is one the
/// connection completed (`AgentConnection::complete`): outstanding, so
/// never empty.
pub(super) async fn notify_complete(
    peer: &Peer<RoleServer>,
    id: ElicitationId,
) -> Result<(), ElicitError> {
    let mut params = Map::new();
    params.insert("elicitationId".to_owned(), id.into_string().into());
    let notification = model::CustomNotification::new(
        ELICITATION_COMPLETE_NOTIFICATION,
        Some(Value::Object(params)),
    );
    peer.send_notification(model::ServerNotification::CustomNotification(notification))
        .await
        .map_err(request_error)
}

/// rmcp's failed request as [`ElicitError::Request`].
fn request_error(error: ServiceError) -> ElicitError {
    ElicitError::Request(error.into())
}

/// rmcp's error as a [`RequestError`]: what failed, with a JSON-RPC error's
/// code; rmcp's error is its source.
impl From<ServiceError> for RequestError {
    fn from(error: ServiceError) -> Self {
        let failure = match &error {
            ServiceError::McpError(error) => RequestFailure::ErrorResponse {
                code: error.code.0.into(),
            },
            ServiceError::TransportClosed => RequestFailure::Closed,
            ServiceError::Timeout { .. } => RequestFailure::TimedOut,
            ServiceError::Cancelled { .. } => RequestFailure::Cancelled,
            _ => RequestFailure::Other,
        };
        RequestError::new(failure, error)
    }
}

/// The modes `peer`'s client advertised, by MCP's rule, in elicit's model.
pub(super) fn capabilities_of(peer: &Peer<RoleServer>) -> Option<ElicitationCapabilities> {
    let client = peer.peer_info();
    elicitation_capabilities(client.as_deref().map(|client| &client.capabilities))
}

/// The modes a client with these capabilities accepts, by MCP's rule
/// ([`client_supports`]), in elicit's model; none without capabilities.
pub(super) fn elicitation_capabilities(
    capabilities: Option<&model::ClientCapabilities>,
) -> Option<ElicitationCapabilities> {
    let supports = |mode| capabilities.is_some_and(|c| client_supports(c, mode));
    match (supports(Mode::Form), supports(Mode::Url)) {
        (false, false) => None,
        (true, false) => Some(ElicitationCapabilities::form_only()),
        (false, true) => Some(ElicitationCapabilities::url_only()),
        (true, true) => Some(ElicitationCapabilities::form_and_url()),
    }
}

/// MCP requests have no ACP scope: the flows' requests carry this one,
/// which the MCP carrier drops.
pub(super) fn no_scope() -> ElicitationScope {
    ElicitationScope::request(RequestId::Null)
}

/// rmcp's server peer carries the flows (MCP 2025-11-25 and earlier):
/// `elicitation/create` in MCP's shape (a form by the
/// [rules](crate::mcp#conversion-rules)), the answer read back into
/// elicit's model, `notifications/elicitation/complete`.
impl Carrier for Peer<RoleServer> {
    const TRANSPORT: &'static str = "mcp";

    fn protocol_version(&self) -> String {
        self.peer_info()
            .map(|info| info.protocol_version.to_string())
            .unwrap_or_default()
    }

    async fn create(
        &self,
        request: CreateElicitationRequest,
    ) -> Result<CreateElicitationResponse, ElicitError> {
        let result = send(self, params_of(request)?).await?;
        response_of(&result).map_err(ElicitError::Unreadable)
    }
    async fn complete(
        &self,
        notification: CompleteElicitationNotification,
    ) -> Result<(), ElicitError> {
        notify_complete(self, notification.elicitation_id).await
    }
}

/// Sends `elicitation/create` (what rmcp's `create_elicitation` does, which
/// needs rmcp's `elicitation` feature).
pub(super) async fn send(
    peer: &Peer<RoleServer>,
    params: model::ElicitRequestParams,
) -> Result<model::ElicitResult, ElicitError> {
    let request = model::ServerRequest::ElicitRequest(model::ElicitRequest::new(params));
    match peer.send_request(request).await {
        Ok(model::ClientResult::ElicitResult(result)) => Ok(result),
        Ok(_) => Err(request_error(ServiceError::UnexpectedResponse)),
        Err(e) => Err(request_error(e)),
    }
}

/// `request` as this call's URL request, checked by its connection as
/// every transport checks one, in MCP's shape.
pub(super) fn url_params(
    connection: &mut AgentConnection,
    request: UrlRequest,
) -> Result<(model::ElicitRequestParams, PendingUrl), ElicitError> {
    let (request, pending) = connection
        .url(no_scope(), request)
        .map_err(ElicitError::NotSent)?;
    Ok((params_of(request)?, pending))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::{ClientCapabilities, ElicitationCapability, UrlElicitationCapability};

    #[test]
    fn the_modes_a_client_accepts_are_mcps_rule() {
        let mut capabilities = ClientCapabilities::default();
        assert!(!client_supports(&capabilities, Mode::Form));
        assert!(!client_supports(&capabilities, Mode::Url));

        capabilities.elicitation = Some(ElicitationCapability::new());
        assert!(client_supports(&capabilities, Mode::Form));
        assert!(!client_supports(&capabilities, Mode::Url));

        capabilities.elicitation =
            Some(ElicitationCapability::new().with_url(UrlElicitationCapability::new()));
        assert!(!client_supports(&capabilities, Mode::Form));
        assert!(client_supports(&capabilities, Mode::Url));
    }
}
