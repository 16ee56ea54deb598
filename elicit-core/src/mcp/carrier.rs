//! rmcp's server peer as a carrier of the flows (MCP 2025-11-25 and
//! earlier): `elicitation/create` in MCP's shape, the answer read back
//! into elicit's model, `notifications/elicitation/complete`; and the
//! pieces the 2026-07-28 rounds share (URL params, the answer to a URL
//! request, a form's MCP schema).

use ::rmcp::model;
use ::rmcp::{Peer, RoleServer, ServiceError};
use serde_json::{Map, Value};

use crate::Elicit;
use crate::flow::{Carrier, Refusal};
use crate::protocol::agent::UrlOutcome;
use crate::protocol::agent::{
    AwaitingCompletion, SendError, Unsendable, UserBinding, sendable_schema,
};
use crate::protocol::url::check_url;
use crate::protocol::{
    CompleteElicitationNotification, CreateElicitationRequest, CreateElicitationResponse,
    ElicitationAction, ElicitationCapabilities, ElicitationId, ElicitationMode, ElicitationScope,
    Mode, RequestId,
};

use super::error::{ConversionError, ElicitError, OutcomeError};
use super::request::{UrlRequest, form_params};
use super::response::other_action;
use super::schema::to_mcp_schema;

/// The JSON-RPC method of MCP's URL-mode completion notification, which
/// rmcp 3.11 has no type for: [`Elicitor::complete`](super::Elicitor::complete)
/// sends it as a custom notification.
pub const ELICITATION_COMPLETE_NOTIFICATION: &str = "notifications/elicitation/complete";

/// Whether an MCP client with these `initialize` capabilities accepts
/// elicitation `mode`, by MCP's rule: no `elicitation` capability means no
/// mode; an empty `elicitation` object means form mode only (the
/// 2025-06-18 shape); otherwise exactly the modes it lists. This is the rule
/// of rmcp's `Peer::<RoleServer>::supported_elicitation_modes`, which needs
/// rmcp's `elicitation` feature (and the `url` crate); this one does not.
///
/// ```
/// use elicit_core::protocol::Mode;
/// use elicit_core::mcp::client_supports;
/// use rmcp::model::{ClientCapabilities, ElicitationCapability, UrlElicitationCapability};
///
/// let mut capabilities = ClientCapabilities::default();
/// assert!(!client_supports(&capabilities, Mode::Form));
///
/// capabilities.elicitation = Some(ElicitationCapability::new());
/// assert!(client_supports(&capabilities, Mode::Form));
/// assert!(!client_supports(&capabilities, Mode::Url));
///
/// capabilities.elicitation =
///     Some(ElicitationCapability::new().with_url(UrlElicitationCapability::new()));
/// assert!(!client_supports(&capabilities, Mode::Form));
/// assert!(client_supports(&capabilities, Mode::Url));
/// ```
pub fn client_supports(capabilities: &model::ClientCapabilities, mode: Mode) -> bool {
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
/// notification: rmcp 3.11 has no type for it).
pub(super) async fn notify_complete(
    peer: &Peer<RoleServer>,
    id: ElicitationId,
) -> Result<(), ElicitError> {
    if id.as_str().is_empty() {
        return Err(ElicitError::NotSent(SendError::EmptyElicitationId));
    }
    let mut params = Map::new();
    params.insert("elicitationId".to_owned(), id.into_string().into());
    let notification = model::CustomNotification::new(
        ELICITATION_COMPLETE_NOTIFICATION,
        Some(Value::Object(params)),
    );
    peer.send_notification(model::ServerNotification::CustomNotification(notification))
        .await
        .map_err(ElicitError::Request)
}

/// Whether `peer`'s client advertised `mode` at `initialize`, by MCP's rule
/// ([`client_supports`]); `false` before initialization.
pub(super) fn supports(peer: &Peer<RoleServer>, mode: Mode) -> bool {
    peer.peer_info()
        .is_some_and(|client| client_supports(&client.capabilities, mode))
}

/// `T`'s schema, checked as [`AgentConnection::form`] checks it, in MCP's
/// shape.
///
/// [`AgentConnection::form`]: crate::protocol::agent::AgentConnection::form
pub(super) fn checked_form<T: Elicit>() -> Result<model::ElicitationSchema, ElicitError> {
    let schema = sendable_schema::<T>().map_err(|unsendable| match unsendable {
        Unsendable::Schema(e) => ElicitError::NotSent(SendError::InvalidFormSchema(e)),
        Unsendable::Credential(field) => ElicitError::NotSent(SendError::CredentialField { field }),
    })?;
    to_mcp_schema(&schema).map_err(ElicitError::UnsendableForm)
}

/// `request` as the flows' URL request: no scope (MCP has none), bound to
/// its user if it has one.
pub(super) fn agent_request(request: UrlRequest) -> crate::protocol::agent::UrlRequest {
    let binding = match request.user {
        Some(user) => UserBinding::Verified(user),
        None => UserBinding::NoUserAuthentication,
    };
    let url =
        crate::protocol::agent::UrlRequest::new(no_scope(), request.message, request.url, binding)
            .elicitation_id(request.id);
    if request.sensitive {
        url.sensitive()
    } else {
        url
    }
}

/// The modes `peer`'s client advertised, by MCP's rule, in elicit's model.
pub(super) fn capabilities_of(peer: &Peer<RoleServer>) -> Option<ElicitationCapabilities> {
    let supports = |mode| supports(peer, mode);
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
    type Error = ElicitError;

    async fn create(
        &self,
        request: CreateElicitationRequest,
    ) -> Result<CreateElicitationResponse, ElicitError> {
        let params = match request.mode {
            ElicitationMode::Form { requested_schema } => form_params(
                request.message,
                to_mcp_schema(&requested_schema).map_err(ElicitError::UnsendableForm)?,
            ),
            ElicitationMode::Url {
                elicitation_id,
                url,
            } => model::ElicitRequestParams::UrlElicitationParams {
                meta: None,
                message: request.message,
                url,
                elicitation_id: elicitation_id.into_string(),
            },
            // The flows send form and URL requests only.
            ElicitationMode::Other(other) => {
                return Err(ElicitError::UnsendableForm(ConversionError::at(
                    "mode",
                    super::error::ConversionErrorKind::Rejected {
                        reason: format!("MCP has no elicitation mode `{}`", other.mode()),
                    },
                )));
            }
        };
        let result = send(self, params).await?;
        response_of(&result).map_err(ElicitError::Unreadable)
    }

    async fn complete(
        &self,
        notification: CompleteElicitationNotification,
    ) -> Result<(), ElicitError> {
        notify_complete(self, notification.elicitation_id).await
    }
}

/// rmcp's `ElicitResult` in elicit's model. Accepted content must be an
/// object (omitted or `null`: none); an action rmcp added later is kept raw.
fn response_of(result: &model::ElicitResult) -> Result<CreateElicitationResponse, OutcomeError> {
    let action = match &result.action {
        model::ElicitationAction::Accept => ElicitationAction::Accept {
            content: match &result.content {
                None | Some(Value::Null) => None,
                Some(Value::Object(content)) => Some(content.clone()),
                Some(other) => {
                    return Err(OutcomeError::ContentNotAnObject {
                        found: crate::error::JsonKind::of(other),
                    });
                }
            },
        },
        model::ElicitationAction::Decline => ElicitationAction::Decline,
        model::ElicitationAction::Cancel => ElicitationAction::Cancel,
        other => ElicitationAction::Other(other_action(other, result.content.as_ref())?),
    };
    Ok(CreateElicitationResponse { action, meta: None })
}

impl From<Refusal> for ElicitError {
    fn from(refusal: Refusal) -> Self {
        match refusal {
            Refusal::NotSent(error) => ElicitError::NotSent(error),
            Refusal::Invalid { errors, attempts } => ElicitError::Invalid { errors, attempts },
            Refusal::Url(error) => ElicitError::Url(error),
            Refusal::Completion(error) => ElicitError::Completion(error),
            #[cfg(feature = "sensitive")]
            Refusal::PageNotOpened(error) => ElicitError::PageNotOpened(error),
            #[cfg(feature = "sensitive")]
            Refusal::Page(error) => ElicitError::Page(error),
        }
    }
}

/// A URL request's params, once it may be sent: the client supports URL
/// mode (else the error for a URL or a `sensitive` request), the URL passes
/// [`check_url`], the id is not empty.
pub(super) fn url_params(
    request: UrlRequest,
    supported: bool,
) -> Result<model::ElicitRequestParams, ElicitError> {
    if !supported {
        return Err(ElicitError::NotSent(if request.sensitive {
            SendError::SensitiveInputNeedsUrlMode
        } else {
            SendError::ModeNotAdvertised { mode: Mode::Url }
        }));
    }
    check_url(&request.url).map_err(|e| ElicitError::NotSent(SendError::UnsafeUrl(e)))?;
    if request.id.as_str().is_empty() {
        return Err(ElicitError::NotSent(SendError::EmptyElicitationId));
    }
    Ok(model::ElicitRequestParams::UrlElicitationParams {
        meta: None,
        message: request.message,
        url: request.url,
        elicitation_id: request.id.as_str().to_owned(),
    })
}

/// The answer to the URL request `id`. Any content is ignored: nothing
/// obtained out of band travels over MCP.
pub(super) fn url_outcome(
    result: &model::ElicitResult,
    id: ElicitationId,
) -> Result<UrlOutcome, ElicitError> {
    Ok(match &result.action {
        model::ElicitationAction::Accept => UrlOutcome::Consented(AwaitingCompletion::new(id)),
        model::ElicitationAction::Decline => UrlOutcome::Declined,
        model::ElicitationAction::Cancel => UrlOutcome::Cancelled,
        other => {
            UrlOutcome::UnknownAction(other_action(other, None).map_err(ElicitError::Unreadable)?)
        }
    })
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
        Ok(_) => Err(ElicitError::Request(ServiceError::UnexpectedResponse)),
        Err(e) => Err(ElicitError::Request(e)),
    }
}
