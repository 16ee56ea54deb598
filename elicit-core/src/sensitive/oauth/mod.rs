//! OAuth 2.0 through URL mode (feature `oauth`): the authorization code
//! flow with PKCE, on the page server of [`sensitive`](super). The spec's
//! own URL-mode example is an OAuth authorization; here it is one call. The
//! agent sends the client its own start page, never the provider's URL;
//! the page server redirects the browser to the provider, receives the
//! authorization response, exchanges the code and returns a typed token.
//!
//! ```
//! # #[cfg(feature = "acp-sdk")]
//! # mod guide {
//! use elicit_core::acp::sdk::Elicitor;
//! use elicit_core::protocol::ElicitationScope;
//! use elicit_core::sensitive::Pages;
//! use elicit_core::sensitive::oauth::{OAuthOutcome, OAuthToken, Provider};
//!
//! /// In a turn started with `AgentElicitations::spawn`.
//! async fn sign_in(
//!     elicitor: &Elicitor,
//!     scope: ElicitationScope,
//!     pages: &Pages,
//! ) -> Result<Option<OAuthToken>, Box<dyn std::error::Error>> {
//!     // Any OpenID provider by discovery (or `Provider::github(id, secret)`,
//!     // or `Provider::new(authorize_url, token_url, client_id)`).
//!     let provider = Provider::discover("https://accounts.example.com", "my-agent")
//!         .await?
//!         .scopes(["openid", "email"]);
//!     Ok(
//!         match elicitor
//!             .elicit_oauth(scope, "Sign in to Example", pages, &provider)
//!             .await?
//!         {
//!             // The access token is a `SecretString`; it never reaches the client.
//!             OAuthOutcome::Authorized(token) => Some(token),
//!             // Declined, cancelled, denied at the provider, expired, or failed.
//!             _ => None,
//!         },
//!     )
//! }
//! # }
//! # fn main() {}
//! ```
//!
//! On the ACP SDK that is
//! [`Elicitor::elicit_oauth`](crate::acp::sdk::Elicitor::elicit_oauth); on
//! rmcp (MCP 2025-11-25), `elicitations.elicitor(&peer).elicit_oauth(message,
//! &pages, &provider)` ([`Elicitor::elicit_oauth`](crate::mcp::Elicitor::elicit_oauth)). The
//! flow:
//!
//! 1. The client is sent the agent's own start page (an opaque id, no
//!    secret) in URL mode, only if it advertised URL mode.
//! 2. The start page redirects the browser to the provider with PKCE
//!    `S256` and a one-time `state`.
//! 3. The callback, `<pages>/oauth/callback`, takes the `state` once,
//!    checks the browser's `SameSite=Lax` cookie for that flow (or the
//!    verified user), the provider's `iss` (RFC 9207) when it sends one,
//!    exchanges the code (the token request and its reply as RFC 6749 and
//!    7636 write them), and shows the done page; the call then sends
//!    `elicitation/complete` and returns the token.
//!
//! Register the callback as the provider's redirect URI. On loopback
//! ([`Pages::loopback`](super::Pages::loopback)), register
//! `http://127.0.0.1/elicit/oauth/callback` as a native app's redirect URI:
//! the port is free (RFC 8252, section 7.3), so the ephemeral port the page
//! server binds matches. The token client follows no redirects and speaks
//! plain `http` only to loopback. Every refusal is a typed
//! [`OAuthOutcome`] or [`OAuthFailure`], and none holds a code, a token or
//! the verifier.
//!
//! - [`Provider`]: the authorization and token endpoints, the client id
//!   (and secret), the scopes; [`Provider::github`], and
//!   [`Provider::discover`] for any OpenID provider.
//! - [`Pages::open_oauth`](super::Pages::open_oauth): opens a flow without
//!   an SDK; [`PendingOAuth::url`] is the start page to send in URL mode,
//!   and [`PendingOAuth::outcome`] the [`OAuthOutcome`]: an [`OAuthToken`]
//!   (the access token a `SecretString`), or why there is none.
//!
//! It lives in `sensitive` because it is served by [`Pages`](super::Pages)
//! and built on their pieces: a flow is a record of the pages' one
//! [`Store`](super::store::Store) (a page's lifecycle, its expiry, its drop
//! rule: a [`PendingOAuth`] dropped before its end cancels the flow), the
//! page service routes its start page and callback, and both share the
//! checks of every page (`Host`, user verifier, expiry, first-visit binding,
//! the headers of every response). One idea a file: `authorize.rs` (the
//! authorization URL, the `state`, the authorization response),
//! `pkce.rs` (verifier and challenge), `exchange.rs` (the token request and
//! its reply), `encoding.rs` (form encoding, base64), `flow.rs` (a flow's
//! record), `pending.rs` (opening one, waiting for it), `routes.rs` (the
//! start page and callback), `end.rs` (how it ends), `provider.rs`,
//! `http.rs` (the client), `token.rs`, `exposed.rs` (its secrets, for a
//! store to seal).
//!
//! ```no_run
//! use elicit_core::sensitive::Pages;
//! use elicit_core::sensitive::oauth::{OAuthOutcome, Provider};
//!
//! # async fn ask() -> Result<(), Box<dyn std::error::Error>> {
//! let provider = Provider::discover("https://accounts.example.com", "my-client")
//!     .await?
//!     .scopes(["openid", "email"]);
//! let pages = Pages::loopback().build();
//! let flow = pages.open_oauth(&provider).await?;
//! // Send `flow.url()` to the client in URL mode, then:
//! if let OAuthOutcome::Authorized(token) = flow.outcome().await? {
//!     let _ = token.access_token();
//! }
//! # Ok(())
//! # }
//! ```
//!
//! # Try it
//!
//! The repository's demo agent signs in this way against a local OpenID
//! provider (`oidc-provider`, pinned in `tests/oauth`; the test
//! `acp_demo::the_demo_signs_in_at_a_local_provider` runs the same in CI):
//!
//! ```sh
//! npm ci --prefix tests/oauth
//! node tests/oauth/provider.mjs --client-id elicit-demo \
//!   --redirect-uri http://127.0.0.1/elicit/oauth/callback   # prints {"issuer": "http://127.0.0.1:PORT", ..}
//! ELICIT_DEMO_OAUTH_ISSUER=http://127.0.0.1:PORT cargo run --example acp_client -- --form --url
//! ```
//!
//! Sign in with any name and password on the provider's page; the agent
//! answers "Signed in. Deploying …".
//!
//! # Tests and cost
//!
//! In the repository: `tests/it/oauth.rs` runs every refusal against a
//! provider the test scripts. End to end, `tests/it/oidc_provider.rs`,
//! `acp_sdk::elicit_oauth` and `rmcp::elicit_oauth` run the flow against a
//! real OpenID provider (`oidc-provider`) with headless Chromium signing in
//! and consenting; the token they get is active at the provider's
//! introspection and userinfo endpoints.
//!
//! The feature adds 28 crates and about 18 CPU-seconds to a clean build
//! over `sensitive` (BENCHMARKS.md, "Build cost").
//!
//! # Threat model
//!
//! On top of the pages' own (see [`sensitive`](super)):
//!
//! | threat | check |
//! |---|---|
//! | the start URL leaks (client log, history) | it carries only the flow's id: `state`, the PKCE challenge and the provider's URL are in the `303` the start page answers, to the browser that visits it; the verifier never leaves the server but to the token endpoint |
//! | another browser opens the start page | the first visit binds the flow with an `HttpOnly`, `SameSite=Lax` cookie (one per flow); any other browser is refused |
//! | a forged or tampered authorization response (CSRF on the callback) | `state` is 128 bits from the OS RNG, compared in constant time; an unknown `state` is refused and changes nothing |
//! | a replayed authorization response | `state` is used once: the first callback with it ends the flow, a later one gets "already used" (on any replica, with a shared store: the use is one atomic step) |
//! | a guessed `state` for a known flow (its id is in the start URL) | `state` is the flow's id then 128 secret bits, compared in constant time: a wrong one is refused and does not use the flow |
//! | the flows' store is read (several replicas: `elicit_core::redis`) | the `state`, the PKCE verifier, the client secret, the binding cookie and the token are sealed there |
//! | the authorization response of one flow delivered to another browser (code injection) | the callback must carry the cookie of the flow its `state` names (and its verified user): else the flow ends as failed, nothing is exchanged |
//! | a late response | after the flow's expiry the callback ends it as expired |
//! | a mix-up between providers | with an issuer ([`Provider::issuer`], set by discovery when the provider sends `iss`), `iss` must be exactly it (RFC 9207) |
//! | an intercepted code | PKCE `S256`: without the verifier the code is useless |
//! | the token endpoint redirects (SSRF), is slow, sends too much | the client follows no redirect, speaks `http` only to loopback, waits 30 s at most, reads 256 KiB at most |
//! | a token endpoint's garbage or error reply | a typed [`OAuthFailure`]; its text never holds the reply's body, the code or a token |
//! | secrets in logs | [`OAuthToken`]'s `Debug` is redacted; no error holds the code, the verifier or a token |

mod authorize;
mod encoding;
pub(crate) mod end;
mod exchange;
mod exposed;
pub(crate) mod flow;
mod http;
mod pending;
mod pkce;
mod provider;
pub(crate) mod routes;
mod token;

pub use end::{MalformedResponse, OAuthFailure, OAuthOutcome};
pub use http::HttpError;
pub use pending::PendingOAuth;
pub use provider::{Provider, ProviderError};
pub use token::OAuthToken;
