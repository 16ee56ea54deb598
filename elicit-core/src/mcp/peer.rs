//! Typed elicitation in one call on rmcp's server peer: [`ElicitExt`]. Its
//! calls are an [`Elicitor`]'s over a state of their own; the flows are
//! `crate::flow`'s.

use ::rmcp::{Peer, RoleServer};

use crate::Elicit;
use crate::protocol::Mode;

use super::carrier::supports;
use super::elicitor::Elicitor;
use crate::flow::FormCall;
#[cfg(feature = "oauth")]
use crate::flow::OAuthCall;
#[cfg(feature = "sensitive")]
use crate::flow::SecretCall;

mod sealed {
    pub trait Sealed {}
    impl Sealed for ::rmcp::Peer<::rmcp::RoleServer> {}
}

/// Typed elicitation in one call on rmcp's server-side peer
/// (`context.peer` in a tool handler). Implemented for
/// `Peer<RoleServer>` only (sealed).
///
/// Every call checks the client's capabilities first ([`client_supports`](super::client_supports))
/// and refuses, sending nothing, when the mode is not advertised.
///
/// These calls send server-to-client requests, which exist up to MCP
/// 2025-11-25. On a 2026-07-28 session rmcp keeps no `initialize`
/// capabilities (they come with each request), so every call here is
/// refused as if the mode were not advertised: ask through
/// [`run_tool`](super::run_tool) instead, which serves both versions.
///
/// Example: `confirm(&context.peer)` in the [module guide](super#one-call-on-rmcps-peer-mcp-2025-11-25-and-earlier).
///
/// URL mode and its completion are on the [`Elicitor`]
/// ([`elicitor`](Self::elicitor), or one [`Elicitations`](super::Elicitations)
/// per connection): rmcp's peer has an inherent `elicit_url` (feature
/// `elicitation`), which method-call syntax would pick over a trait's.
pub trait ElicitExt: sealed::Sealed {
    /// Whether the client advertised elicitation `mode` in `initialize`, by
    /// MCP's rule ([`client_supports`](super::client_supports)); `false` before initialization.
    fn supports_elicitation(&self, mode: Mode) -> bool;

    /// Asks for the form `T` in form mode; await it (see
    /// [`FormCall`]), optionally after
    /// [`.retry(n)`](FormCall::retry).
    ///
    /// MCP drops the form's title and description: say what the user needs
    /// to know in `message`, which clients show.
    fn elicit_form<T: Elicit>(&self, message: impl Into<String>) -> FormCall<'_, T>;

    /// The ACP SDK's vocabulary on this peer: [`Elicitor::elicit_url`],
    /// [`Elicitor::complete`] and the calls above, over a state of its own
    /// (outstanding ids, their users, completion once) that lives as long
    /// as the value. To keep that state across the tool calls of a
    /// connection (a URL consented in one call, completed when your
    /// callback fires), ask through one [`Elicitations`](super::Elicitations) per connection
    /// instead: `elicitations.elicitor(&context.peer)`.
    ///
    /// (rmcp's peer has an inherent `elicit_url` of its own, with rmcp's
    /// `elicitation` feature: on the [`Elicitor`] the name is elicit's.)
    fn elicitor(&self) -> Elicitor<'_>;

    /// Asks for the sensitive form `T` on a page `pages` serve, in one
    /// call (feature `sensitive`): opens the page, sends its URL in URL
    /// mode (only if the client advertised it: otherwise
    /// [`SendError::SensitiveInputNeedsUrlMode`](crate::protocol::agent::SendError::SensitiveInputNeedsUrlMode), and no page is opened),
    /// waits for consent, then for the page's submission, sends
    /// `notifications/elicitation/complete` once the value is in and
    /// returns it, every rule checked again. A decline, a cancel, the
    /// page's expiry, or dropping this future closes the page at once.
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
    fn elicit_secret<'a, T: crate::sensitive::SensitiveForm + Send + 'a>(
        &'a self,
        message: impl Into<String>,
        pages: &'a crate::sensitive::Pages,
    ) -> SecretCall<'a, T>;

    /// Asks the user to authorize this server at an OAuth provider, in one
    /// call (feature `oauth`): opens a flow on `pages`, sends its start
    /// page (the server's own URL, no secret in it) in URL mode, only if
    /// the client advertised it (otherwise
    /// [`SendError::SensitiveInputNeedsUrlMode`](crate::protocol::agent::SendError::SensitiveInputNeedsUrlMode), and no flow is opened),
    /// waits for consent, then for the provider's answer at the callback,
    /// which exchanges the code (PKCE S256, one-time `state`). Sends
    /// `notifications/elicitation/complete` once the browser is back, and
    /// returns the [`OAuthOutcome`](crate::sensitive::oauth::OAuthOutcome):
    /// a token (never sent to the client), or declined, cancelled, denied,
    /// expired or failed. A decline, a cancel, or dropping this future
    /// ends the flow at once. Pages that verify users need the user:
    /// `.for_user(&user)` ([`PageCall::for_user`](crate::flow::PageCall::for_user)), as for
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
        supports(self, mode)
    }

    fn elicit_form<T: Elicit>(&self, message: impl Into<String>) -> FormCall<'_, T> {
        Elicitor::alone(self).into_form(message.into())
    }

    fn elicitor(&self) -> Elicitor<'_> {
        Elicitor::alone(self)
    }

    #[cfg(feature = "sensitive")]
    fn elicit_secret<'a, T: crate::sensitive::SensitiveForm + Send + 'a>(
        &'a self,
        message: impl Into<String>,
        pages: &'a crate::sensitive::Pages,
    ) -> SecretCall<'a, T> {
        Elicitor::alone(self).into_secret(message.into(), pages)
    }

    #[cfg(feature = "oauth")]
    fn elicit_oauth<'a>(
        &'a self,
        message: impl Into<String>,
        pages: &'a crate::sensitive::Pages,
        provider: &'a crate::sensitive::oauth::Provider,
    ) -> OAuthCall<'a> {
        Elicitor::alone(self).into_oauth(message.into(), pages, provider)
    }
}
