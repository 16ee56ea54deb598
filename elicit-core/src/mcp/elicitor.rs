//! The ACP SDK's vocabulary on rmcp (MCP 2025-11-25 and earlier): the state
//! of one client connection ([`ServerElicitations`]) and the value that asks on
//! it ([`Elicitor`]): `elicit_form`, `elicit_url`, `elicit_secret`,
//! `elicit_oauth`, `complete`.

use std::sync::{Arc, Mutex};

use ::rmcp::{Peer, RoleServer};

use crate::Elicit;
#[cfg(feature = "oauth")]
use crate::flow::OAuthCall;
#[cfg(feature = "sensitive")]
use crate::flow::SecretCall;
use crate::flow::{Asker, ElicitError, Flows, FormCall, form_call};
use crate::protocol::ElicitationId;
use crate::protocol::agent::{AgentConnection, UrlOutcome, UrlRequest, VerifiedUser};
use crate::sync::lock;

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
/// use elicit_core::mcp::{ElicitError, ServerElicitations, UrlRequest};
/// use elicit_core::protocol::agent::{UrlOutcome, VerifiedUser};
/// use rmcp::{Peer, RoleServer};
///
/// /// In a tool call: ask Alice to connect her account on your page.
/// async fn connect(
///     elicitations: &ServerElicitations,
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
///     elicitations: &ServerElicitations,
///     peer: &Peer<RoleServer>,
///     who: &VerifiedUser,
/// ) -> Result<(), ElicitError> {
///     elicitations.elicitor(peer).complete(&"gh-42".into(), Some(who)).await
/// }
/// ```
#[derive(Clone)]
pub struct ServerElicitations {
    state: Arc<Mutex<AgentConnection>>,
}

impl Default for ServerElicitations {
    fn default() -> Self {
        Self {
            state: Arc::new(Mutex::new(AgentConnection::new(None))),
        }
    }
}

impl std::fmt::Debug for ServerElicitations {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("ServerElicitations")
            .field(&*lock(&self.state))
            .finish()
    }
}

impl ServerElicitations {
    /// The state of a connection that has sent nothing yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks the client of `peer` (`context.peer` in a tool call), with the
    /// modes it advertised at `initialize` (MCP's rule:
    /// the modes named in its `elicitation` capability; none named is form).
    pub fn elicitor<'a>(&self, peer: &'a Peer<RoleServer>) -> Elicitor<'a> {
        Elicitor::with_state(peer, Arc::clone(&self.state))
    }
}

/// Asks one MCP client, with the ACP SDK's verbs, from code that holds
/// rmcp's peer (MCP 2025-11-25 and earlier: these are requests); from
/// [`ServerElicitations::elicitor`], its state kept across the
/// connection's calls. Inside a tool handler that also serves MCP
/// 2026-07-28, ask with [`ask`](super::ask).
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

    /// Asks for the form `T` in form mode; await it, optionally after
    /// `.retry(n)` ([`FormCall`]). MCP drops the form's title and
    /// description: say what the user needs to know in `message`.
    pub fn elicit_form<T: Elicit + 'a>(&self, message: impl Into<String>) -> FormCall<'a, T> {
        form_call(self.clone(), no_scope(), message.into())
    }

    /// Sends a URL-mode elicitation (the URL checked first; a
    /// [`sensitive`](UrlRequest::sensitive) one only to a client with URL
    /// mode). `Consented` only means the user agreed to open the URL: the
    /// id stays outstanding until [`complete`](Self::complete), when your
    /// out-of-band callback says the interaction is done.
    pub async fn elicit_url(&self, request: UrlRequest) -> Result<UrlOutcome, ElicitError> {
        self.flows().url(no_scope(), request).await
    }

    /// Asks for the sensitive form `T` on a page `pages` serve, in one
    /// call (feature `sensitive`): opens the page, sends its URL in URL
    /// mode (only if the client advertised it: otherwise
    /// [`SendError::SensitiveInputNeedsUrlMode`](crate::protocol::agent::SendError::SensitiveInputNeedsUrlMode),
    /// and no page is opened), waits for consent, then for the page's
    /// submission, sends `notifications/elicitation/complete` once the
    /// value is in and returns it, every rule checked again. A decline, a
    /// cancel, the page's expiry, or dropping this future closes the page
    /// at once.
    ///
    /// The page is bound to the first browser that opens it (loopback
    /// pages). Pages that verify users
    /// ([`Pages::hosted`](crate::sensitive::Pages::hosted)) need the user
    /// your server authenticated: `.for_user(&user)`
    /// ([`PageCall::for_user`](crate::flow::PageCall::for_user)); then the page is served to that user only,
    /// and the URL request and its completion are bound to them. Without
    /// it, such pages refuse to open
    /// ([`OpenError::UserRequired`](crate::sensitive::OpenError::UserRequired)).
    #[cfg(feature = "sensitive")]
    pub fn elicit_secret<'b, T: crate::sensitive::SensitiveForm + Send + 'b>(
        &self,
        message: impl Into<String>,
        pages: &'b crate::sensitive::Pages,
    ) -> SecretCall<'b, T>
    where
        'a: 'b,
    {
        crate::flow::secret_call(self.clone(), no_scope(), message.into(), pages)
    }

    /// Asks the user to authorize this server at an OAuth provider, in one
    /// call (feature `oauth`): opens a flow on `pages`, sends its start
    /// page (the server's own URL, no secret in it) in URL mode, only if
    /// the client advertised it, waits for consent, then for the
    /// provider's answer at the callback, which exchanges the code (PKCE
    /// S256, one-time `state`). Sends `notifications/elicitation/complete`
    /// once the browser is back, and returns the
    /// [`OAuthOutcome`](crate::sensitive::oauth::OAuthOutcome): a token
    /// (never sent to the client), or declined, cancelled, denied, expired
    /// or failed. A decline, a cancel, or dropping this future ends the
    /// flow at once. Pages that verify users need the user:
    /// `.for_user(&user)`, as for [`elicit_secret`](Self::elicit_secret).
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
        crate::flow::oauth_call(self.clone(), no_scope(), message.into(), pages, provider)
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

/// The flows of this elicitor's connection, carried by rmcp's peer.
impl Asker for Elicitor<'_> {
    type Carrier = Peer<RoleServer>;
    fn flows(&self) -> Flows<'_, Peer<RoleServer>> {
        Flows::new(&self.state, self.peer)
    }
}
