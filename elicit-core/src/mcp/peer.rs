//! Typed elicitation in one call on rmcp's server peer: [`ElicitExt`], its
//! form builder [`FormCall`], URL mode and the completion notification.

use std::future::Future;
use std::sync::Mutex;

use ::rmcp::model;
use ::rmcp::{Peer, RoleServer, ServiceError};
use serde_json::{Map, Value};

use crate::Elicit;
use crate::error::ContentError;
#[cfg(feature = "sensitive")]
use crate::flow::PageCall;
use crate::flow::{Carrier, Flows, Refusal};
use crate::protocol::agent::UrlOutcome;
use crate::protocol::agent::{
    AgentConnection, AwaitingCompletion, CompletionError, SendError, Unsendable, UrlOutcomeError,
    UserBinding, sendable_schema,
};
use crate::protocol::url::check_url;
use crate::protocol::{
    CompleteElicitationNotification, CreateElicitationRequest, CreateElicitationResponse,
    ElicitationAction, ElicitationCapabilities, ElicitationId, ElicitationMode, ElicitationScope,
    Mode, RequestId,
};

use super::error::{ConversionError, OutcomeError};
use super::request::form_params;
use super::response::other_action;
use super::schema::to_mcp_schema;

/// The JSON-RPC method of MCP's URL-mode completion notification, which
/// rmcp 3.11 has no type for: [`ElicitExt::notify_elicitation_complete`]
/// sends it as a custom notification.
pub const ELICITATION_COMPLETE_NOTIFICATION: &str = "notifications/elicitation/complete";

/// Why an [`ElicitExt`] call returned no answer: the shape of the ACP
/// SDK's `ElicitError` (refusals before anything was sent under
/// [`NotSent`](Self::NotSent), the transport's failure under
/// [`Request`](Self::Request), then the answer's), plus the one refusal
/// only MCP has ([`UnsendableForm`](Self::UnsendableForm)). Each message
/// says what happened and what to do.
///
/// Match the variants you can act on and let the rest fail the tool call
/// with their message (the enum is `#[non_exhaustive]`, so a `_` arm is
/// needed anyway):
///
/// ```no_run
/// use elicit_core::mcp::{ElicitError, ElicitExt};
/// use elicit_core::Elicit;
/// use elicit_core::protocol::agent::{Outcome, SendError};
/// use rmcp::model::{CallToolResult, ContentBlock};
/// use rmcp::{Peer, RoleServer};
///
/// #[derive(Elicit)]
/// struct Confirm {
///     /// Go ahead with the deployment?
///     proceed: bool,
/// }
///
/// /// A tool's result: text for the model, and whether the call failed.
/// async fn deploy(peer: &Peer<RoleServer>) -> CallToolResult {
///     let text = match peer.elicit_form::<Confirm>("Deploy to production?").retry(2).await {
///         Ok(Outcome::Accepted(Confirm { proceed: true })) => "Deploying.".to_owned(),
///         // Declined, cancelled, or "no": nothing happens, nothing is asked again.
///         Ok(_) => "Not deploying.".to_owned(),
///         // Nothing was sent: this client cannot show forms. Fall back.
///         Err(ElicitError::NotSent(SendError::ModeNotAdvertised { .. })) => {
///             "This client cannot show forms: ask the user in the conversation.".to_owned()
///         }
///         // Every answer broke a rule: the errors name the fields.
///         Err(ElicitError::Invalid { errors, attempts }) => {
///             let fields: Vec<&str> = errors.fields().collect();
///             let text = format!("no valid answer in {attempts} tries (fields: {fields:?})");
///             return CallToolResult::error(vec![ContentBlock::text(text)]);
///         }
///         // The transport or the client failed: nothing was accepted. The
///         // client's own error text is detail for the log, not for the model.
///         Err(error @ ElicitError::Request(_)) => {
///             eprintln!("the elicitation failed: {error:?}");
///             let text = format!("could not ask the user: {error}");
///             return CallToolResult::error(vec![ContentBlock::text(text)]);
///         }
///         // The rest are the form's or the URL's own faults (a credential-named
///         // field, a part MCP cannot carry, an unsafe URL): fix them in code.
///         Err(other) => return CallToolResult::error(vec![ContentBlock::text(other.to_string())]),
///     };
///     CallToolResult::success(vec![ContentBlock::text(text)])
/// }
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ElicitError {
    /// Nothing was sent: the client did not advertise the mode (MCP's rule:
    /// see [`client_supports`]), sensitive input needs URL mode, the form
    /// or the URL cannot be sent, the id is empty or outstanding. The
    /// message says what to do instead. The same refusals as the ACP SDK's
    /// `ElicitError::NotSent`.
    #[error("{0}")]
    NotSent(#[source] SendError),
    /// Nothing was sent: the form has a part MCP cannot carry (see the
    /// [rules](crate::mcp#conversion-rules)).
    #[error("the form cannot be sent over MCP, no request was sent: {0}")]
    UnsendableForm(#[source] ConversionError),
    /// rmcp could not send the request or notification, or the client
    /// answered with an error (transport closed, timeout, a JSON-RPC error,
    /// a protocol version without server-to-client requests, ...).
    ///
    /// The message says which of these it was, and nothing the client
    /// wrote: a client's error `message` and `data` can be anything (a
    /// stack trace, a dump of the request), so they stay in the source
    /// error, for your log, never in text a user reads.
    #[error(
        "{}; treat it as no answer (nothing was accepted) and fail the tool call or ask in \
         the conversation",
        service_failure(.0)
    )]
    Request(#[source] ServiceError),
    /// The client's answer cannot be read (accepted content that is not an
    /// object, an action elicit cannot name). Not asked again: it is a client
    /// fault, not the user's.
    #[error("the MCP client's answer cannot be read: {0}; nothing was accepted")]
    Unreadable(#[source] OutcomeError),
    /// Every answer broke the form's rules, the last one as `errors`, after
    /// `attempts` requests (see [`FormCall::retry`](crate::flow::FormCall::retry)).
    #[error(
        "no valid answer after {attempts} attempt(s), the last one: {errors}; nothing was \
         accepted: ask in the conversation or fail the tool call"
    )]
    Invalid {
        /// What was wrong with the last answer, by field.
        #[source]
        errors: ContentError,
        /// How many form requests were sent.
        attempts: u32,
    },
    /// A URL answer could not be matched to its elicitation (abandoned
    /// meanwhile).
    #[error("{0}")]
    Url(#[source] UrlOutcomeError),
    /// A completion was refused (not outstanding, completed twice, another
    /// user): the client is not notified.
    #[error("{0}")]
    Completion(#[source] CompletionError),
    /// The sensitive page could not be opened (feature `sensitive`):
    /// nothing was sent.
    #[cfg(feature = "sensitive")]
    #[error("{0}")]
    PageNotOpened(#[source] crate::sensitive::OpenError),
    /// The sensitive page failed after the user consented (feature
    /// `sensitive`): its store failed, or its answer did not fit the form.
    #[cfg(feature = "sensitive")]
    #[error("{0}")]
    Page(#[source] crate::sensitive::PageError),
}

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

/// A URL-mode elicitation to send with [`ElicitExt::elicit_url_consent`]:
/// the message the client shows, the URL it offers to open, and the
/// `elicitationId` your out-of-band callback will report as complete; for
/// sensitive input, marked [`sensitive`](Self::sensitive).
///
/// ```
/// use elicit_core::mcp::UrlRequest;
///
/// let request = UrlRequest::new(
///     "Connect your GitHub account.",
///     "https://mcp.example.com/connect?elicitation=gh-42",
///     "gh-42",
/// );
/// assert_eq!(request.id().as_str(), "gh-42");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlRequest {
    message: String,
    url: String,
    id: ElicitationId,
    sensitive: bool,
}

impl UrlRequest {
    /// A request showing `message` and offering to open `url`, identified by
    /// `elicitation_id`. Ids must be unique among this client's outstanding
    /// URL elicitations; the URL is checked when the request is sent.
    ///
    /// Nothing here keeps state: your server remembers which ids are
    /// outstanding, for which client and which verified user, and checks the
    /// completing user in its callback before it calls
    /// [`ElicitExt::notify_elicitation_complete`].
    pub fn new(
        message: impl Into<String>,
        url: impl Into<String>,
        elicitation_id: impl Into<ElicitationId>,
    ) -> Self {
        Self {
            message: message.into(),
            url: url.into(),
            id: elicitation_id.into(),
            sensitive: false,
        }
    }

    /// Marks the request as sensitive input (passwords, API keys, tokens,
    /// payment details): a client without URL mode gets
    /// [`SendError::SensitiveInputNeedsUrlMode`] and no request. It never
    /// falls back to a form, whatever the client supports.
    #[must_use]
    pub fn sensitive(mut self) -> Self {
        self.sensitive = true;
        self
    }

    /// The `elicitationId`.
    pub fn id(&self) -> &ElicitationId {
        &self.id
    }
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for ::rmcp::Peer<::rmcp::RoleServer> {}
}

/// Typed elicitation in one call on rmcp's server-side peer
/// (`context.peer` in a tool handler). Implemented for
/// `Peer<RoleServer>` only (sealed).
///
/// Every call checks the client's capabilities first ([`client_supports`])
/// and refuses, sending nothing, when the mode is not advertised.
///
/// These calls send server-to-client requests, which exist up to MCP
/// 2025-11-25. On a 2026-07-28 session rmcp keeps no `initialize`
/// capabilities (they come with each request), so every call here is
/// refused as if the mode were not advertised: ask through
/// [`run_tool`](super::run_tool) instead, which serves both versions.
///
/// ```no_run
/// use elicit_core::mcp::{ElicitError, ElicitExt};
/// use elicit_core::Elicit;
/// use elicit_core::protocol::agent::Outcome;
/// use rmcp::{Peer, RoleServer};
///
/// #[derive(Elicit, Debug)]
/// struct Confirm {
///     /// Go ahead with the deployment?
///     proceed: bool,
/// }
///
/// async fn confirm(peer: &Peer<RoleServer>) -> Result<bool, ElicitError> {
///     // Asks up to 3 times if the answer breaks the form's rules.
///     match peer.elicit_form::<Confirm>("Deploy to production?").retry(2).await? {
///         Outcome::Accepted(form) => Ok(form.proceed),
///         Outcome::Declined | Outcome::Cancelled | Outcome::UnknownAction(_) => Ok(false),
///     }
/// }
/// ```
///
/// The URL-mode call is `elicit_url_consent`, not `elicit_url`: rmcp's peer
/// has an inherent `elicit_url` (feature `elicitation`), which method-call
/// syntax would pick instead.
pub trait ElicitExt: sealed::Sealed {
    /// Whether the client advertised elicitation `mode` in `initialize`, by
    /// MCP's rule ([`client_supports`]); `false` before initialization.
    fn supports_elicitation(&self, mode: Mode) -> bool;

    /// Asks for the form `T` in form mode; await it (see
    /// [`FormCall`]), optionally after
    /// [`.retry(n)`](FormCall::retry).
    ///
    /// MCP drops the form's title and description: say what the user needs
    /// to know in `message`, which clients show.
    fn elicit_form<T: Elicit>(&self, message: impl Into<String>) -> FormCall<'_, T>;

    /// Sends a URL-mode elicitation. The answer's `accept` only means the
    /// user **consented to open the URL** ([`UrlOutcome::Consented`]); the
    /// interaction itself is complete when your own out-of-band callback
    /// says so (then [`notify_elicitation_complete`](Self::notify_elicitation_complete)).
    ///
    /// Refused, sending nothing, when the client did not advertise URL mode
    /// ([`SendError::ModeNotAdvertised`]), the URL fails [`check_url`]
    /// ([`SendError::UnsafeUrl`]) or the id is empty (all under
    /// [`ElicitError::NotSent`]).
    ///
    /// ```no_run
    /// use elicit_core::protocol::agent::UrlOutcome;
    /// use elicit_core::mcp::{ElicitError, ElicitExt, UrlRequest};
    /// use rmcp::{Peer, RoleServer};
    ///
    /// async fn connect(peer: &Peer<RoleServer>) -> Result<String, ElicitError> {
    ///     let request = UrlRequest::new(
    ///         "Connect your GitHub account.",
    ///         "https://mcp.example.com/connect?elicitation=gh-42",
    ///         "gh-42",
    ///     );
    ///     Ok(match peer.elicit_url_consent(request).await? {
    ///         // Consent only: wait for your callback before using the account.
    ///         UrlOutcome::Consented(waiting) => format!("waiting for {}", waiting.id().as_str()),
    ///         UrlOutcome::Declined | UrlOutcome::Cancelled => "not connected".to_owned(),
    ///         UrlOutcome::UnknownAction(other) => format!("unknown answer `{}`", other.action()),
    ///     })
    /// }
    /// ```
    fn elicit_url_consent(
        &self,
        request: UrlRequest,
    ) -> impl Future<Output = Result<UrlOutcome, ElicitError>> + Send + '_;

    /// Tells the client that the out-of-band interaction of URL elicitation
    /// `id` finished ([`ELICITATION_COMPLETE_NOTIFICATION`], optional in
    /// MCP). Send it only to the client that received the request, once your
    /// callback has checked who completed it.
    fn notify_elicitation_complete(
        &self,
        id: &ElicitationId,
    ) -> impl Future<Output = Result<(), ElicitError>> + Send + '_;

    /// Asks for the sensitive form `T` on a page `pages` serve, in one
    /// call (feature `sensitive`): opens the page, sends its URL in URL
    /// mode (only if the client advertised it: otherwise
    /// [`SendError::SensitiveInputNeedsUrlMode`], and no page is opened),
    /// waits for consent, then for the page's submission, sends
    /// `notifications/elicitation/complete` once the value is in and
    /// returns it, every rule checked again. A decline, a cancel, the
    /// page's expiry, or dropping this future closes the page at once.
    ///
    /// The page is bound to the first browser that opens it (loopback
    /// pages). Pages that verify users
    /// ([`Pages::hosted`](crate::sensitive::Pages::hosted)) need the user
    /// your server authenticated: `.for_user(&user)`
    /// ([`PageCall::for_user`]); then the page is served to that user only,
    /// and the URL request and its completion are bound to them. Without
    /// it, such pages refuse to open
    /// ([`OpenError::UserRequired`](crate::sensitive::OpenError::UserRequired)).
    #[cfg(feature = "sensitive")]
    fn elicit_secret<'a, T: crate::sensitive::SensitiveForm + Send + 'a>(
        &'a self,
        message: impl Into<String>,
        pages: &'a crate::sensitive::Pages,
    ) -> SecretCall<'a, T>;

    /// Asks the user to authorize this server at an OAuth provider, in one
    /// call (feature `oauth`): opens a flow on `pages`, sends its start
    /// page (the server's own URL, no secret in it) in URL mode, only if
    /// the client advertised it (otherwise
    /// [`SendError::SensitiveInputNeedsUrlMode`], and no flow is opened),
    /// waits for consent, then for the provider's answer at the callback,
    /// which exchanges the code (PKCE S256, one-time `state`). Sends
    /// `notifications/elicitation/complete` once the browser is back, and
    /// returns the [`OAuthOutcome`](crate::sensitive::oauth::OAuthOutcome):
    /// a token (never sent to the client), or declined, cancelled, denied,
    /// expired or failed. A decline, a cancel, or dropping this future
    /// ends the flow at once. Pages that verify users need the user:
    /// `.for_user(&user)` ([`PageCall::for_user`]), as for
    /// [`elicit_secret`](Self::elicit_secret).
    #[cfg(feature = "oauth")]
    fn elicit_oauth<'a>(
        &'a self,
        message: impl Into<String>,
        pages: &'a crate::sensitive::Pages,
        provider: &'a crate::sensitive::oauth::Provider,
    ) -> OAuthCall<'a>;
}

impl ElicitExt for Peer<RoleServer> {
    fn supports_elicitation(&self, mode: Mode) -> bool {
        self.peer_info()
            .is_some_and(|client| client_supports(&client.capabilities, mode))
    }

    fn elicit_form<T: Elicit>(&self, message: impl Into<String>) -> FormCall<'_, T> {
        FormCall::new(message.into(), move |message, retry| {
            Box::pin(async move {
                let state = Mutex::new(connection_of(self));
                Flows::new(&state, self)
                    .form::<T>(no_scope(), message, retry)
                    .await
            })
        })
    }

    fn elicit_url_consent(
        &self,
        request: UrlRequest,
    ) -> impl Future<Output = Result<UrlOutcome, ElicitError>> + Send + '_ {
        ask_url(self, request)
    }

    #[cfg(feature = "sensitive")]
    fn elicit_secret<'a, T: crate::sensitive::SensitiveForm + Send + 'a>(
        &'a self,
        message: impl Into<String>,
        pages: &'a crate::sensitive::Pages,
    ) -> SecretCall<'a, T> {
        let message = message.into();
        PageCall::new(move |user| {
            Box::pin(async move {
                let state = Mutex::new(connection_of(self));
                Flows::new(&state, self)
                    .secret(no_scope(), message, pages, user)
                    .await
            })
        })
    }

    #[cfg(feature = "oauth")]
    fn elicit_oauth<'a>(
        &'a self,
        message: impl Into<String>,
        pages: &'a crate::sensitive::Pages,
        provider: &'a crate::sensitive::oauth::Provider,
    ) -> OAuthCall<'a> {
        let message = message.into();
        PageCall::new(move |user| {
            Box::pin(async move {
                let state = Mutex::new(connection_of(self));
                Flows::new(&state, self)
                    .oauth(no_scope(), message, pages, provider, user)
                    .await
            })
        })
    }

    fn notify_elicitation_complete(
        &self,
        id: &ElicitationId,
    ) -> impl Future<Output = Result<(), ElicitError>> + Send + '_ {
        let id = id.clone();
        async move {
            if id.as_str().is_empty() {
                return Err(ElicitError::NotSent(SendError::EmptyElicitationId));
            }
            let mut params = Map::new();
            params.insert("elicitationId".to_owned(), id.into_string().into());
            let notification = model::CustomNotification::new(
                ELICITATION_COMPLETE_NOTIFICATION,
                Some(Value::Object(params)),
            );
            self.send_notification(model::ServerNotification::CustomNotification(notification))
                .await
                .map_err(ElicitError::Request)
        }
    }
}

/// A form elicitation on rmcp, sent when awaited: [`ElicitExt::elicit_form`]
/// (see [`flow::FormCall`](crate::flow::FormCall)).
pub type FormCall<'a, T> = crate::flow::FormCall<'a, T, ElicitError>;

/// A sensitive form on the server's page, sent when awaited:
/// [`ElicitExt::elicit_secret`] (see [`PageCall`]).
#[cfg(feature = "sensitive")]
pub type SecretCall<'a, T> = PageCall<'a, crate::sensitive::SecretOutcome<T>, ElicitError>;

/// An OAuth flow through the server's start page, sent when awaited:
/// [`ElicitExt::elicit_oauth`] (see [`PageCall`]).
#[cfg(feature = "oauth")]
pub type OAuthCall<'a> = PageCall<'a, crate::sensitive::oauth::OAuthOutcome, ElicitError>;

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

async fn ask_url(peer: &Peer<RoleServer>, request: UrlRequest) -> Result<UrlOutcome, ElicitError> {
    let state = Mutex::new(connection_of(peer));
    let mut url = crate::protocol::agent::UrlRequest::new(
        no_scope(),
        request.message,
        request.url,
        UserBinding::NoUserAuthentication,
    )
    .elicitation_id(request.id);
    if request.sensitive {
        url = url.sensitive();
    }
    Flows::new(&state, peer).url(url).await
}

/// The flows' state for a call on `peer`: the modes its client advertised
/// at `initialize`, by MCP's rule ([`client_supports`]).
fn connection_of(peer: &Peer<RoleServer>) -> AgentConnection {
    let supports = |mode| peer.supports_elicitation(mode);
    let capabilities = match (supports(Mode::Form), supports(Mode::Url)) {
        (false, false) => None,
        (true, false) => Some(ElicitationCapabilities::form_only()),
        (false, true) => Some(ElicitationCapabilities::url_only()),
        (true, true) => Some(ElicitationCapabilities::form_and_url()),
    };
    AgentConnection::new(capabilities)
}

/// MCP requests have no ACP scope: the flows' requests carry this one,
/// which the MCP carrier drops.
fn no_scope() -> ElicitationScope {
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
        self.notify_elicitation_complete(&notification.elicitation_id)
            .await
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

/// [`ElicitError::Request`]'s words: what failed, with a JSON-RPC error's
/// code, never the client's own text.
fn service_failure(error: &ServiceError) -> String {
    match error {
        ServiceError::McpError(error) => format!(
            "the MCP client answered the elicitation with JSON-RPC error {}",
            error.code.0
        ),
        ServiceError::TransportClosed => {
            "the connection to the MCP client closed before it answered the elicitation".to_owned()
        }
        ServiceError::Timeout { .. } => {
            "the MCP client did not answer the elicitation in time".to_owned()
        }
        ServiceError::Cancelled { .. } => "the elicitation request was cancelled".to_owned(),
        _ => "rmcp could not send the elicitation or read its answer".to_owned(),
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
        Ok(_) => Err(ElicitError::Request(ServiceError::UnexpectedResponse)),
        Err(e) => Err(ElicitError::Request(e)),
    }
}
