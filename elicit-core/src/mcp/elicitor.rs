//! The ACP SDK's vocabulary on rmcp (MCP 2025-11-25 and earlier): the state
//! of one client connection ([`Elicitations`]) and the value that asks on
//! it ([`Elicitor`]): `elicit_form`, `elicit_url`, `elicit_secret`,
//! `elicit_oauth`, `complete`.

use std::sync::{Arc, Mutex};

use ::rmcp::{Peer, RoleServer};

use crate::Elicit;
#[cfg(feature = "oauth")]
use crate::flow::OAuthCall;
use crate::flow::{ElicitError, Flows, FormCall, lock};
#[cfg(feature = "sensitive")]
use crate::flow::{PageCall, SecretCall};
use crate::protocol::ElicitationId;
use crate::protocol::agent::{AgentConnection, UrlOutcome, UrlRequest, VerifiedUser};

use super::carrier::{capabilities_of, no_scope};

/// The elicitation state of one MCP client connection: its outstanding URL
/// elicitations, each bound to its user, and which were completed. Keep one
/// per connection in your `ServerHandler` (a stdio server serves one
/// connection; rmcp makes a Streamable HTTP server's handler per session)
/// and ask with [`elicitor`](Self::elicitor) in each tool call. It is
/// `Clone`: every clone is the same state.
///
/// Across the calls of a connection it refuses what the protocol forbids:
/// an `elicitationId` still outstanding, more outstanding URL elicitations
/// than the cap, a completion twice or by another user than the one the
/// request was bound to ([`UrlRequest::for_user`]).
///
/// ```no_run
/// use elicit_core::mcp::{ElicitError, Elicitations, UrlRequest};
/// use elicit_core::protocol::agent::{UrlOutcome, VerifiedUser};
/// use rmcp::{Peer, RoleServer};
///
/// /// In a tool call: ask Alice to connect her account on your page.
/// async fn connect(
///     elicitations: &Elicitations,
///     peer: &Peer<RoleServer>,
///     alice: &VerifiedUser,
/// ) -> Result<bool, ElicitError> {
///     let elicitor = elicitations.elicitor(peer);
///     let request = UrlRequest::new(
///         "Connect your GitHub account.",
///         "https://mcp.example.com/connect?elicitation=gh-42",
///     )
///     .elicitation_id("gh-42")
///     .for_user(alice);
///     Ok(matches!(elicitor.elicit_url(request).await?, UrlOutcome::Consented(_)))
/// }
///
/// /// Later, when your page's callback saw Alice finish: refused for Bob,
/// /// and for a second completion.
/// async fn done(
///     elicitations: &Elicitations,
///     peer: &Peer<RoleServer>,
///     who: &VerifiedUser,
/// ) -> Result<(), ElicitError> {
///     elicitations.elicitor(peer).complete(&"gh-42".into(), Some(who)).await
/// }
/// ```
#[derive(Clone)]
pub struct Elicitations {
    state: Arc<Mutex<AgentConnection>>,
}

impl Default for Elicitations {
    fn default() -> Self {
        Self {
            state: Arc::new(Mutex::new(AgentConnection::new(None))),
        }
    }
}

impl std::fmt::Debug for Elicitations {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Elicitations")
            .field(&*lock(&self.state))
            .finish()
    }
}

impl Elicitations {
    /// The state of a connection that has sent nothing yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks the client of `peer` (`context.peer` in a tool call), with the
    /// modes it advertised at `initialize` (MCP's rule:
    /// [`client_supports`](super::client_supports)).
    pub fn elicitor<'a>(&self, peer: &'a Peer<RoleServer>) -> Elicitor<'a> {
        Elicitor::with_state(peer, Arc::clone(&self.state))
    }
}

/// Asks one MCP client, with the ACP SDK's verbs; from
/// [`Elicitations::elicitor`] (state kept across the connection's calls)
/// or [`ElicitExt::elicitor`](super::ElicitExt::elicitor) (state for this
/// value only).
pub struct Elicitor<'a> {
    peer: &'a Peer<RoleServer>,
    state: Arc<Mutex<AgentConnection>>,
}

impl std::fmt::Debug for Elicitor<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Elicitor")
            .field("state", &*lock(&self.state))
            .finish_non_exhaustive()
    }
}

impl Clone for Elicitor<'_> {
    fn clone(&self) -> Self {
        Self {
            peer: self.peer,
            state: Arc::clone(&self.state),
        }
    }
}

impl<'a> Elicitor<'a> {
    /// Asks `peer`'s client over `state`, with the modes it advertised.
    fn with_state(peer: &'a Peer<RoleServer>, state: Arc<Mutex<AgentConnection>>) -> Self {
        lock(&state).advertise(capabilities_of(peer));
        Self { peer, state }
    }

    /// An elicitor with a state of its own (for `ElicitExt`).
    pub(super) fn alone(peer: &'a Peer<RoleServer>) -> Self {
        Self::with_state(peer, Arc::new(Mutex::new(AgentConnection::new(None))))
    }

    fn flows(&self) -> Flows<'_, Peer<RoleServer>> {
        Flows::new(&self.state, self.peer)
    }

    /// Asks for the form `T` in form mode; await it, optionally after
    /// `.retry(n)` ([`FormCall`]). MCP drops the form's title and
    /// description: say what the user needs to know in `message`.
    pub fn elicit_form<T: Elicit>(&self, message: impl Into<String>) -> FormCall<'a, T> {
        self.clone().into_form(message.into())
    }

    /// [`elicit_form`](Self::elicit_form), the call owning this elicitor.
    pub(super) fn into_form<T: Elicit>(self, message: String) -> FormCall<'a, T> {
        FormCall::new(message, move |message, retry| {
            Box::pin(async move { self.flows().form::<T>(no_scope(), message, retry).await })
        })
    }

    /// Sends a URL-mode elicitation (the URL checked first; a
    /// [`sensitive`](UrlRequest::sensitive) one only to a client with URL
    /// mode). `Consented` only means the user agreed to open the URL: the
    /// id stays outstanding until [`complete`](Self::complete), when your
    /// out-of-band callback says the interaction is done.
    pub async fn elicit_url(&self, request: UrlRequest) -> Result<UrlOutcome, ElicitError> {
        self.flows().url(no_scope(), request).await
    }

    /// Asks for the sensitive form `T` on a page `pages` serve; see
    /// [`ElicitExt::elicit_secret`](super::ElicitExt::elicit_secret).
    #[cfg(feature = "sensitive")]
    pub fn elicit_secret<'b, T: crate::sensitive::SensitiveForm + Send + 'b>(
        &self,
        message: impl Into<String>,
        pages: &'b crate::sensitive::Pages,
    ) -> SecretCall<'b, T>
    where
        'a: 'b,
    {
        self.clone().into_secret(message.into(), pages)
    }

    /// [`elicit_secret`](Self::elicit_secret), the call owning this
    /// elicitor.
    #[cfg(feature = "sensitive")]
    pub(super) fn into_secret<'b, T: crate::sensitive::SensitiveForm + Send + 'b>(
        self,
        message: String,
        pages: &'b crate::sensitive::Pages,
    ) -> SecretCall<'b, T>
    where
        'a: 'b,
    {
        PageCall::new(move |user| {
            Box::pin(async move { self.flows().secret(no_scope(), message, pages, user).await })
        })
    }

    /// An OAuth flow at `provider` through a start page `pages` serve; see
    /// [`ElicitExt::elicit_oauth`](super::ElicitExt::elicit_oauth).
    #[cfg(feature = "oauth")]
    pub fn elicit_oauth<'b>(
        &self,
        message: impl Into<String>,
        pages: &'b crate::sensitive::Pages,
        provider: &'b crate::sensitive::oauth::Provider,
    ) -> OAuthCall<'b>
    where
        'a: 'b,
    {
        self.clone().into_oauth(message.into(), pages, provider)
    }

    /// [`elicit_oauth`](Self::elicit_oauth), the call owning this elicitor.
    #[cfg(feature = "oauth")]
    pub(super) fn into_oauth<'b>(
        self,
        message: String,
        pages: &'b crate::sensitive::Pages,
        provider: &'b crate::sensitive::oauth::Provider,
    ) -> OAuthCall<'b>
    where
        'a: 'b,
    {
        PageCall::new(move |user| {
            Box::pin(async move {
                self.flows()
                    .oauth(no_scope(), message, pages, provider, user)
                    .await
            })
        })
    }

    /// Reports that the out-of-band interaction of `id` finished (as
    /// `completed_by`, for an elicitation bound to a verified user) and
    /// sends `notifications/elicitation/complete`. Refused, and nothing is
    /// sent, for an id that is not outstanding on this connection, completed
    /// twice, or completed by another user ([`ElicitError::Completion`]).
    pub async fn complete(
        &self,
        id: &ElicitationId,
        completed_by: Option<&VerifiedUser>,
    ) -> Result<(), ElicitError> {
        self.flows().complete(id, completed_by).await
    }
}
