//! The agent's side on the ACP SDK: the connection's state, the
//! [`Elicitor`] a turn asks with, the error, and the compile error for
//! asking inside a handler. The flows themselves are `crate::flow`'s.

use std::fmt;
use std::future::Future;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use agent_client_protocol::Client;
use agent_client_protocol::v1::ConnectionTo;
use agent_client_protocol_schema::v1 as sdk;

use crate::Elicit;
#[cfg(feature = "oauth")]
use crate::flow::OAuthCall;
#[cfg(feature = "sensitive")]
use crate::flow::SecretCall;
use crate::flow::{
    Asker, Carrier, ElicitError, Flows, FormCall, RequestError, RequestFailure, form_call,
};
use crate::protocol::agent::UrlOutcome;
use crate::protocol::agent::{AgentConnection, UrlRequest, VerifiedUser};
use crate::protocol::{
    CompleteElicitationNotification, CreateElicitationRequest, CreateElicitationResponse,
    ElicitationId, ElicitationScope,
};

use super::request::ElicitationRequest;

/// The agent's elicitation state for one client connection: the modes the
/// client advertised and the outstanding URL elicitations. Cheap to clone;
/// every clone is the same state, safe to use from any handler task.
///
/// It asks nothing by itself: [`spawn`](Self::spawn) a task off the SDK's
/// dispatch loop, and ask with the [`Elicitor`] that task is given.
#[derive(Clone)]
pub struct AgentElicitations {
    connection: Arc<Mutex<AgentConnection>>,
}

impl fmt::Debug for AgentElicitations {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("AgentElicitations")
            .field(&*self.lock())
            .finish()
    }
}

impl Default for AgentElicitations {
    fn default() -> Self {
        Self::from_connection(AgentConnection::awaiting_initialize())
    }
}

impl AgentElicitations {
    /// A connection whose `initialize` is not recorded yet: every
    /// elicitation is [`NotSent`](ElicitError::NotSent)
    /// ([`SendError::NotInitialized`](crate::protocol::agent::SendError::NotInitialized), which says where to call it) until
    /// [`initialize`](Self::initialize).
    pub fn new() -> Self {
        Self::default()
    }

    /// Wraps an [`AgentConnection`] built by other means.
    pub(crate) fn from_connection(connection: AgentConnection) -> Self {
        Self {
            connection: Arc::new(Mutex::new(connection)),
        }
    }

    /// Records the client's `initialize` (its `clientCapabilities.elicitation`
    /// decides the modes). Call it once per connection, from the
    /// `initialize` handler; it starts the connection's state afresh.
    pub fn initialize(&self, request: &sdk::InitializeRequest) {
        *self.lock() = AgentConnection::from_acp_client_capabilities(&request.client_capabilities);
    }

    /// Runs `f` on the underlying [`AgentConnection`] (to check
    /// [`supports`](AgentConnection::supports), list the outstanding
    /// ids, ...). Do not call other methods of this state from `f`.
    pub fn with<R>(&self, f: impl FnOnce(&mut AgentConnection) -> R) -> R {
        f(&mut self.lock())
    }

    /// Runs `task` as a task of the connection `cx`, off the SDK's dispatch
    /// loop, and gives it the [`Elicitor`] it asks with. Call it from a
    /// handler (typically `session/prompt`), move the handler's `responder`
    /// into the task and answer when the turn is done; the handler itself
    /// returns at once.
    ///
    /// Why: the SDK runs handlers inside the loop that reads the client's
    /// messages, and waits for each handler before reading the next one. An
    /// elicitation awaited there waits for an answer that loop can never
    /// read: the connection hangs. That is why [`Elicitor`], the only
    /// value that asks, exists only inside a task started here.
    ///
    /// As with the SDK's own `spawn`, an `Err` returned by `task` ends the
    /// connection: answer the prompt with an error instead where the
    /// connection should go on.
    ///
    /// # Errors
    ///
    /// The SDK's, when the task cannot be started (the connection is
    /// closing).
    #[track_caller]
    pub fn spawn<F, Fut>(
        &self,
        cx: &ConnectionTo<Client>,
        task: F,
    ) -> Result<(), agent_client_protocol::Error>
    where
        F: FnOnce(Elicitor) -> Fut,
        Fut: Future<Output = Result<(), agent_client_protocol::Error>> + Send + 'static,
    {
        cx.spawn(task(Elicitor {
            cx: cx.clone(),
            state: self.clone(),
        }))
    }

    fn lock(&self) -> MutexGuard<'_, AgentConnection> {
        // Nothing panics while the lock is held (the connection's methods
        // are plain bookkeeping), so a poisoned lock still holds a
        // consistent state.
        self.connection
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

/// Asks the client, one call per elicitation flow. It exists only inside a
/// task started with [`AgentElicitations::spawn`], off the SDK's dispatch
/// loop, where waiting for the client's answer is safe.
///
/// Not `Clone`: a task that starts tasks of its own gives each an
/// `Elicitor` through [`AgentElicitations::spawn`] again
/// ([`elicitations`](Self::elicitations), [`connection`](Self::connection)).
pub struct Elicitor {
    cx: ConnectionTo<Client>,
    state: AgentElicitations,
}

impl fmt::Debug for Elicitor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Elicitor")
            .field("state", &self.state)
            .finish_non_exhaustive()
    }
}

impl Elicitor {
    /// The SDK's connection to the client: send your own notifications
    /// (agent text, tool calls) and requests on it.
    pub fn connection(&self) -> &ConnectionTo<Client> {
        &self.cx
    }

    /// The connection's elicitation state.
    pub fn elicitations(&self) -> &AgentElicitations {
        &self.state
    }

    /// Asks for the form `T` (see [`FormCall`]: `.retry(n)` asks again on an
    /// invalid answer). Nothing is sent if the client did not advertise form
    /// mode.
    pub fn elicit_form<'s, T: Elicit + Send + 's>(
        &'s self,
        scope: ElicitationScope,
        message: impl Into<String>,
    ) -> FormCall<'s, T> {
        form_call(self, scope, message.into())
    }

    /// Sends a URL-mode elicitation (the URL checked first) and reads the
    /// answer. `Consented` only means the user agreed to open the URL:
    /// completion is yours to report with [`complete`](Self::complete).
    /// An answer with an unknown action, or none, abandons the id. For
    /// sensitive input, mark the request
    /// [`sensitive`](UrlRequest::sensitive): URL mode or nothing, never a
    /// form. The same [`UrlRequest`] as on rmcp; ACP's scope comes first,
    /// as for [`elicit_form`](Self::elicit_form).
    ///
    /// ```no_run
    /// # async fn turn(elicitor: elicit_core::acp::sdk::Elicitor, scope: elicit_core::protocol::ElicitationScope) -> Result<(), elicit_core::flow::ElicitError> {
    /// use elicit_core::protocol::agent::{UrlOutcome, UrlRequest, VerifiedUser};
    ///
    /// let alice = VerifiedUser::new("user-42");
    /// let request = UrlRequest::new(
    ///     "Connect your GitHub account.",
    ///     "https://agent.example.com/connect?elicitation=gh-42",
    /// )
    /// .elicitation_id("gh-42")
    /// .for_user(&alice);
    /// if let UrlOutcome::Consented(waiting) = elicitor.elicit_url(scope, request).await? {
    ///     // Later, when your callback saw Alice finish:
    ///     elicitor.complete(waiting.id(), Some(&alice)).await?;
    /// }
    /// # Ok(())
    /// # }
    /// ```
    pub async fn elicit_url(
        &self,
        scope: ElicitationScope,
        request: UrlRequest,
    ) -> Result<UrlOutcome, ElicitError> {
        self.flows().url(scope, request).await
    }

    /// Asks for the sensitive form `T` on a page these `pages` serve, in
    /// one call: opens the page, sends the URL-mode request (only if the
    /// client advertised URL mode: otherwise [`ElicitError::NotSent`], and
    /// no page is opened), waits for the user's consent, then for the
    /// page's submission, and once the value is in sends
    /// `elicitation/complete` to this client and returns it, every rule
    /// checked again. A decline, a cancel or the page's expiry closes the
    /// page at once; so does dropping this future.
    ///
    /// The page is bound to the first browser that opens it; for pages
    /// that verify users ([`Pages::hosted`](crate::sensitive::Pages::hosted)),
    /// say whom it is for: `.for_user(&user)` ([`PageCall::for_user`](crate::flow::PageCall::for_user)).
    ///
    /// ```no_run
    /// # async fn turn(elicitor: elicit_core::acp::sdk::Elicitor, scope: elicit_core::protocol::ElicitationScope) {
    /// use elicit_core::Elicit;
    /// use elicit_core::sensitive::{ExposeSecret, Pages, SecretOutcome, SecretString};
    ///
    /// /// Your deploy token.
    /// #[derive(Elicit)]
    /// #[elicit(sensitive)]
    /// struct DeployToken {
    ///     /// From the deploy service's settings.
    ///     #[secret]
    ///     #[elicit(length(min = 20))]
    ///     token: SecretString,
    /// }
    ///
    /// // One per agent process: its loopback server starts with the first page.
    /// let pages = Pages::loopback().build();
    /// match elicitor.elicit_secret::<DeployToken>(scope, "Connect a deploy token", &pages).await {
    ///     Ok(SecretOutcome::Answered(t)) => { let _ = t.token.expose_secret(); }
    ///     Ok(_) => { /* declined, cancelled or expired: ask in the conversation */ }
    ///     Err(error) => eprintln!("{error}"),
    /// }
    /// # }
    /// ```
    #[cfg(feature = "sensitive")]
    pub fn elicit_secret<'a, T: crate::sensitive::SensitiveForm + Send + 'a>(
        &'a self,
        scope: ElicitationScope,
        message: impl Into<String>,
        pages: &'a crate::sensitive::Pages,
    ) -> SecretCall<'a, T> {
        crate::flow::secret_call(self, scope, message.into(), pages)
    }

    /// Asks the user to authorize the agent at an OAuth provider, in one
    /// call (feature `oauth`): opens a flow on `pages`, sends its start page
    /// (the agent's own URL, no secret in it) in URL mode, only if the
    /// client advertised it (otherwise
    /// [`SendError::SensitiveInputNeedsUrlMode`](crate::protocol::agent::SendError::SensitiveInputNeedsUrlMode),
    /// and no flow is opened),
    /// waits for consent, then for the provider's answer at the callback,
    /// which exchanges the code (PKCE S256, one-time `state`). Sends
    /// `elicitation/complete` once the browser is back, and returns the
    /// [`OAuthOutcome`](crate::sensitive::oauth::OAuthOutcome): a token
    /// (never sent to the client or the model), or declined, cancelled,
    /// denied by the provider, expired or failed. A decline, a cancel, or
    /// dropping this future ends the flow at once.
    ///
    /// ```no_run
    /// # async fn turn(elicitor: elicit_core::acp::sdk::Elicitor, scope: elicit_core::protocol::ElicitationScope) -> Result<(), Box<dyn std::error::Error>> {
    /// use elicit_core::sensitive::Pages;
    /// use elicit_core::sensitive::oauth::{OAuthOutcome, Provider};
    ///
    /// let provider = Provider::discover("https://accounts.example.com", "my-agent")
    ///     .await?
    ///     .scopes(["openid", "email"]);
    /// let pages = Pages::loopback().build();
    /// match elicitor.elicit_oauth(scope, "Sign in to Example", &pages, &provider).await? {
    ///     OAuthOutcome::Authorized(token) => { let _ = token.access_token(); }
    ///     other => eprintln!("no token: {other:?}"),
    /// }
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// For pages that verify users, say whom the flow is for:
    /// `.for_user(&user)` ([`PageCall::for_user`](crate::flow::PageCall::for_user)): the start page and the
    /// callback are then served only to that user, and the URL request and
    /// its completion are bound to them.
    #[cfg(feature = "oauth")]
    pub fn elicit_oauth<'a>(
        &'a self,
        scope: ElicitationScope,
        message: impl Into<String>,
        pages: &'a crate::sensitive::Pages,
        provider: &'a crate::sensitive::oauth::Provider,
    ) -> OAuthCall<'a> {
        crate::flow::oauth_call(self, scope, message.into(), pages, provider)
    }

    /// Reports that the out-of-band flow of `id` finished (as
    /// `completed_by`, for an elicitation bound to a verified user) and
    /// sends `elicitation/complete`. Refused, and nothing is sent, for an id
    /// that is not outstanding, completed twice, or completed by another
    /// user.
    pub async fn complete(
        &self,
        id: &ElicitationId,
        completed_by: Option<&VerifiedUser>,
    ) -> Result<(), ElicitError> {
        self.flows().complete(id, completed_by).await
    }
}

/// The flows of this connection, carried by the SDK.
impl Asker for Elicitor {
    type Carrier = ConnectionTo<Client>;
    fn flows(&self) -> Flows<'_, ConnectionTo<Client>> {
        Flows::new(&self.state.connection, &self.cx)
    }
}

/// Implemented only by [`Elicitor`]: what an elicitation may be awaited on.
///
/// Its one purpose is the compile error below, for the SDK's own
/// connection (see [`ElicitClient`]).
#[diagnostic::on_unimplemented(
    message = "an elicitation cannot be awaited on `{Self}`: inside an SDK handler it hangs the connection",
    label = "the client's answer to this would never be read",
    note = "the SDK reads the client's messages in the loop that runs your handler, so a handler that waits for an answer waits forever",
    note = "run the turn off that loop and ask with the `Elicitor` it gets: `elicitations.spawn(&cx, async move |elicitor| {{ elicitor.elicit_form::<T>(scope, message).await .. }})`"
)]
pub trait OffDispatchLoop: private::Sealed {}

impl OffDispatchLoop for Elicitor {}

mod private {
    /// The asking side of [`OffDispatchLoop`]: only an [`Elicitor`] has one.
    ///
    /// [`OffDispatchLoop`]: super::OffDispatchLoop
    /// [`Elicitor`]: super::Elicitor
    #[doc(hidden)] // Sealed: nameable by no user, so not part of the API.
    pub trait Sealed {
        fn elicitor(&self) -> &super::Elicitor;
    }
    impl Sealed for super::Elicitor {
        fn elicitor(&self) -> &super::Elicitor {
            self
        }
    }
}

/// The one-call API on the SDK's connection itself, refused at compile time.
///
/// `cx.elicit_form(..)` in a handler would hang the connection (the SDK
/// reads the client's answer only after the handler returns). Each method
/// takes the same arguments as [`Elicitor`]'s and requires
/// [`OffDispatchLoop`], which the SDK's `ConnectionTo<Client>` does not
/// implement, so such a call is one compile error that names the fix
/// ([`AgentElicitations::spawn`] and the [`Elicitor`] it gives), and the
/// rest of the expression (`.retry(n).await`, the `match` on the outcome)
/// type-checks as it would on an `Elicitor`, with no second error.
///
/// It is in [`prelude`], which the agent examples import, so the call
/// finds this trait rather than failing with "no method named
/// `elicit_form`".
pub trait ElicitClient {
    /// Refused: use [`Elicitor::elicit_form`].
    fn elicit_form<'s, T: Elicit + Send + 's>(
        &'s self,
        scope: ElicitationScope,
        message: impl Into<String>,
    ) -> FormCall<'s, T>
    where
        Self: OffDispatchLoop,
    {
        self.elicitor().elicit_form(scope, message)
    }

    /// Refused: use [`Elicitor::elicit_url`].
    fn elicit_url(
        &self,
        scope: ElicitationScope,
        request: UrlRequest,
    ) -> impl Future<Output = Result<UrlOutcome, ElicitError>> + Send
    where
        Self: OffDispatchLoop,
    {
        self.elicitor().elicit_url(scope, request)
    }

    /// Refused: use [`Elicitor::elicit_secret`].
    #[cfg(feature = "sensitive")]
    fn elicit_secret<'a, T: crate::sensitive::SensitiveForm + Send + 'a>(
        &'a self,
        scope: ElicitationScope,
        message: impl Into<String>,
        pages: &'a crate::sensitive::Pages,
    ) -> SecretCall<'a, T>
    where
        Self: OffDispatchLoop,
    {
        self.elicitor().elicit_secret(scope, message, pages)
    }

    /// Refused: use [`Elicitor::elicit_oauth`].
    #[cfg(feature = "oauth")]
    fn elicit_oauth<'a>(
        &'a self,
        scope: ElicitationScope,
        message: impl Into<String>,
        pages: &'a crate::sensitive::Pages,
        provider: &'a crate::sensitive::oauth::Provider,
    ) -> OAuthCall<'a>
    where
        Self: OffDispatchLoop,
    {
        self.elicitor()
            .elicit_oauth(scope, message, pages, provider)
    }
}

// The trait's bodies are the `Elicitor`'s calls; the bound keeps them from
// ever being called on the SDK's connection.
impl ElicitClient for ConnectionTo<Client> {}

/// What an agent's handlers import: `use elicit_core::acp::sdk::prelude::*;`.
///
/// The state and the asking value ([`AgentElicitations`], [`Elicitor`]), the
/// error ([`ElicitError`]), what a call takes and gives
/// ([`ElicitationScope`], [`UrlRequest`], [`Outcome`], [`UrlOutcome`]), the
/// derive ([`Elicit`]), and [`ElicitClient`] unnamed: with it
/// in scope, asking on the SDK's connection inside a handler is the compile
/// error that names the fix, not "no method named `elicit_form`".
///
/// [`ElicitationScope`]: crate::protocol::ElicitationScope
/// [`UrlRequest`]: crate::protocol::agent::UrlRequest
/// [`Outcome`]: crate::protocol::agent::Outcome
/// [`UrlOutcome`]: crate::protocol::agent::UrlOutcome
pub mod prelude {
    pub use super::ElicitClient as _;
    pub use super::{AgentElicitations, Elicitor};
    pub use crate::Elicit;
    pub use crate::flow::ElicitError;
    pub use crate::protocol::ElicitationScope;
    pub use crate::protocol::agent::{Outcome, UrlOutcome, UrlRequest};
}

/// The ACP SDK's connection carries the flows: `elicitation/create` as
/// [`ElicitationRequest`] (elicit's own request, so the form keeps its
/// order), the SDK's response read back into elicit's model.
impl Carrier for ConnectionTo<Client> {
    const TRANSPORT: &'static str = "acp";

    /// ACP's protocol version 1: the only one the SDK's `v1` module (the
    /// one elicit is built on) speaks.
    fn protocol_version(&self) -> String {
        "1".to_owned()
    }

    async fn create(
        &self,
        request: CreateElicitationRequest,
    ) -> Result<CreateElicitationResponse, ElicitError> {
        let response = self
            .send_request(ElicitationRequest(request))
            .block_task()
            .await
            .map_err(request_error)?;
        CreateElicitationResponse::try_from(&response).map_err(ElicitError::Unreadable)
    }

    async fn complete(
        &self,
        notification: CompleteElicitationNotification,
    ) -> Result<(), ElicitError> {
        self.send_notification(sdk::CompleteElicitationNotification::from(notification))
            .map_err(request_error)
    }
}

/// The SDK's failed request as [`ElicitError::Request`].
fn request_error(error: agent_client_protocol::Error) -> ElicitError {
    ElicitError::Request(error.into())
}

/// The SDK's error as a [`RequestError`]: the client's error code, or the
/// closed connection; the SDK's error is its source.
impl From<agent_client_protocol::Error> for RequestError {
    fn from(error: agent_client_protocol::Error) -> Self {
        let failure = if agent_client_protocol::is_connection_terminated(&error)
            || agent_client_protocol::is_incoming_transport_closed(&error)
        {
            RequestFailure::Closed
        } else {
            RequestFailure::ErrorResponse {
                code: error.code.value().into(),
            }
        };
        RequestError::new(failure, error)
    }
}
