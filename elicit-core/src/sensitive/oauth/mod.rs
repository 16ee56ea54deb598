//! OAuth 2.0 through URL mode (feature `oauth`): the authorization code
//! flow with PKCE, on the page server of [`sensitive`](super). The agent
//! sends the client its own start page, never the provider's URL; the
//! page server redirects the browser to the provider, receives the
//! authorization response, exchanges the code and returns a typed token.
//!
//! - [`Provider`]: the authorization and token endpoints, the client id
//!   (and secret), the scopes; [`Provider::github`], and
//!   [`Provider::discover`] for any OpenID provider.
//! - [`Pages::open_oauth`](super::Pages::open_oauth): opens a flow;
//!   [`PendingOAuth::url`] is the start page to send in URL mode, and
//!   [`PendingOAuth::outcome`] the [`OAuthOutcome`]: an [`OAuthToken`]
//!   (the access token a `SecretString`), or why there is none.
//!
//! It lives in `sensitive` because it is served by [`Pages`](super::Pages)
//! and shares their checks (`Host`, user verifier, expiry, the headers of
//! every response).
//!
//! ```no_run
//! use elicit_core::sensitive::Pages;
//! use elicit_core::sensitive::oauth::{OAuthOutcome, Provider};
//!
//! # async fn ask() -> Result<(), Box<dyn std::error::Error>> {
//! let provider = Provider::discover("https://accounts.example.com", "my-client")
//!     .await?
//!     .scopes(["openid", "email"]);
//! let pages = Pages::loopback();
//! let flow = pages.open_oauth(&provider)?;
//! // Send `flow.url()` to the client in URL mode, then:
//! if let OAuthOutcome::Authorized(token) = flow.outcome().await {
//!     let _ = token.access_token();
//! }
//! # Ok(())
//! # }
//! ```
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

mod client;
mod exchange;
mod flow;
mod outcome;
mod provider;
pub(crate) mod routes;
pub(crate) mod table;
mod token;
#[cfg(feature = "redis")]
pub(crate) mod wire;

pub use client::HttpError;
pub use flow::PendingOAuth;
pub use outcome::{OAuthFailure, OAuthOutcome};
pub use provider::{Provider, ProviderError};
pub use token::OAuthToken;
