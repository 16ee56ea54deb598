//! Sensitive input on a page the agent serves (feature `sensitive`): the
//! door that form mode's compile errors point to. The protocol says an agent
//! MUST ask for passwords, API keys, tokens and payment data through URL
//! mode, out of band, and MUST verify that whoever completes the interaction
//! is the user who started it. This module is that page, built from the same
//! restricted schema and checked by the same engine as a form.
//!
//! - [`SensitiveForm`]: the typed value a page collects. Derive it with
//!   `#[derive(Elicit)]` and `#[elicit(sensitive)]`; each `#[secret]` field
//!   is a [`SecretString`]. It is not an [`Elicit`](crate::Elicit) form, so
//!   sending it in form mode does not compile, and no error or `Debug`
//!   output holds a secret.
//! - One call per flow: `Elicitor::elicit_secret` on the ACP SDK (feature
//!   `acp-sdk`) and `ElicitExt::elicit_secret` on rmcp (feature `rmcp`).
//!   Each opens a page, sends its URL in URL mode (never a form), waits for
//!   consent and for the page's submission, sends the completion
//!   notification and returns a [`SecretOutcome`].
//! - [`Pages`]: where pages are served. [`Pages::loopback`] is a server of
//!   its own on `127.0.0.1` (the usual ACP case: the client launched the
//!   agent on the user's machine); [`Pages::hosted`] gives a `tower`
//!   service ([`Pages::service`]) to mount in your own web server, with a
//!   [`UserVerifier`]. [`Pages::open`] and [`PendingPage`] are the flow
//!   without an SDK.
//! - [`Store`]: where pending pages live ([`MemoryStore`] by default), and
//!   how several replicas share them.
//! - [`PageForm`]: the page, rendered on the server as plain HTML, no
//!   script, every text escaped, secret fields never pre-filled or echoed;
//!   and the pages that end a flow ([`Notice`]).
//! - Module `oauth` (feature `oauth`): OAuth 2.0 through URL mode, the
//!   authorization code flow with PKCE on these pages
//!   (`Pages::open_oauth`), with its own threat model.
//! - [`read_body`]: what the page posts, read strictly into a
//!   [`Submission`] (repeated fields, unknown fields, bad escapes and
//!   invalid UTF-8 refuse the body; a secret is decoded into zeroized
//!   memory).
//!
//! ```no_run
//! use elicit_core::Elicit;
//! use elicit_core::sensitive::{ExposeSecret, Pages, SecretString};
//!
//! /// Your API key.
//! #[derive(Elicit)]
//! #[elicit(sensitive)]
//! struct ApiKey {
//!     /// From your dashboard.
//!     #[secret]
//!     #[elicit(length(min = 20))]
//!     key: SecretString,
//! }
//!
//! # async fn ask() -> Result<(), Box<dyn std::error::Error>> {
//! let pages = Pages::loopback();
//! let page = pages.open::<ApiKey>("Paste your API key")?;
//! // Send `page.url()` to the client in URL mode (the SDK calls do), then:
//! let key: ApiKey = page.answer().await?;
//! # let _ = key.key.expose_secret();
//! # Ok(())
//! # }
//! ```
//!
//! # Threat model
//!
//! **What is protected.** The secret a user types (an API key, a password, a
//! token); that the value reaches the agent that asked and no one else; that
//! the value the agent receives is what that user submitted.
//!
//! **Who can reach the page.**
//! - The user, in a browser, after the client showed the URL and the user
//!   consented.
//! - The client: it relays the URL and may log it, but it never sees the
//!   secret (URL mode keeps the value out of ACP).
//! - Other web pages open in the same browser: they can make the browser
//!   send requests to the page's address (cross-site requests), and can
//!   point a hostname of theirs at `127.0.0.1` (DNS rebinding).
//! - Other people: anyone the URL is forwarded to, or who reads it from a
//!   log, a screen or the browser history; for a hosted agent, anyone on
//!   the network path.
//! - Other users and programs on the same machine, for the loopback server.
//!
//! Out of scope: a compromised agent host, browser or client machine
//! (malware reads keystrokes whatever the page does).
//!
//! **What "the same user" means.** On loopback, the user is whoever holds
//! the browser that first opened the page: only the user who consented in
//! the client has the URL (the client opens it in that user's browser), the
//! first visit binds the page to that browser with an `HttpOnly`,
//! `SameSite=Strict` cookie scoped to the page's path, and every other
//! browser (or a script without the cookie) is refused. Another local user
//! who learns the URL before the user opens it could win that race; the URL
//! goes only to the client, over the agent's stdio. A hosted agent must
//! authenticate: [`Pages::hosted`] takes a [`UserVerifier`] (there is no
//! default that accepts anyone), each page is opened for a verified user,
//! and every request must carry that user.
//!
//! **Threats, and the check that stops each.**
//!
//! | threat | check | where |
//! |---|---|---|
//! | the URL leaks (client log, history, `Referer`) and is replayed by someone else | the URL carries only an opaque id of at least 128 bits from the OS RNG, no credential, personal data or pre-authenticated access; `Referrer-Policy: no-referrer`; the user binding below | server |
//! | someone other than the user completes it (spec MUST) | a user verifier over the HTTP request refuses anyone but the user the elicitation was made for; a hosted server must be given one; on loopback the first visit binds an `HttpOnly`, `SameSite=Strict` cookie and another browser is refused | server |
//! | DNS rebinding: a remote page reads or posts to the loopback server through its own hostname | the `Host` header must be exactly the bound address | server |
//! | cross-site request forgery: another site posts the form | `Origin` / `Sec-Fetch-Site` must be same-origin, and a CSRF token tied to the binding cookie must match | server (token field: [`PageForm::hidden`]) |
//! | replay, or use after the answer | single use: a second submission or a visit after completion gets the "already used" page; expiry (10 minutes by default) resolves the flow as expired | server ([`Notice::Used`], [`Notice::Expired`]) |
//! | markup or script injected through the agent's message, titles, descriptions, option labels, defaults, a previous submission or an error text | every text is HTML-escaped, in text and in attribute values; a strict `Content-Security-Policy` (`default-src 'none'`, no script at all, the one stylesheet by its hash, [`STYLE_HASH`]) makes a missed escape inert | page ([`escape`]); server (headers) |
//! | the page framed by another site (clickjacking) | `frame-ancestors 'none'` | server |
//! | the secret kept where it should not be | secret fields are `type=password`, `autocomplete=off`, never pre-filled and never echoed back, not even after a rejected submission; `Cache-Control: no-store`; the value is a `secrecy::SecretString` (zeroized on drop, `Debug` redacted) and goes into no ACP message, log, error or panic message | page (rendering); server (headers); [`SensitiveForm`] (the type) |
//! | content sniffing turns a response into something else | `X-Content-Type-Options: nosniff`; every response has its exact type | server |
//! | eavesdropping on the network | `https` required except on loopback | server |
//! | exhaustion and malformed input: huge bodies, slow clients, floods, forged bodies | a body size cap, only `application/x-www-form-urlencoded` (else 415), request and header timeouts, caps on connections and on pending elicitations; repeated and unknown fields, bad escapes and invalid UTF-8 refused, at most [`MAX_BODY_PAIRS`](crate::limits::MAX_BODY_PAIRS) fields | server; [`read_body`] |
//! | a value the rules refuse, from a browser that skipped its own checks | the server validates every submission with the same engine as form mode; a refused submission shows its errors on the same page and does not use up the elicitation | page ([`PageForm::errors`]); server |
//! | the pages' store is shared by several replicas and read by someone (a dump of Redis, its replica, its network) | the submitted secret on its way to the replica that asked, and the page's binding cookie and CSRF token, are sealed before they reach the store (ChaCha20-Poly1305 under the operator's [`SealingKeys`](crate::redis::SealingKeys), the blob's key as associated data); what stays readable is not secret (message, schema, user id, state) | `redis` feature ([`RedisStore`](crate::redis::RedisStore)) |
//! | someone who can write the shared store changes or swaps a sealed blob | it does not open (another page's blob, a changed byte, another key): the page fails closed, nothing is accepted | `redis` feature |
//! | a replica stops mid-flow, or the store restarts | the page and its answer live in the store, so another replica serves and reads them (MCP 2026-07-28 rounds); a store that fails makes the step fail cleanly (an error page, a failed call), and the next step opens a new connection | `redis` feature |
//!
//! The page mirrors the rules as HTML constraint attributes (`required`,
//! `minlength`, `maxlength`, `min`, `max`, `type=email|url|date|number`)
//! only to help the user: the server's check is the one that counts.

mod body;
mod cookie;
mod form;
#[cfg(feature = "oauth")]
pub mod oauth;
mod origin;
mod outcome;
mod page;
mod pages;
mod reaper;
mod response;
mod server;
mod service;
pub(crate) mod shared;
mod store;
pub(crate) mod token;
mod verify;

pub use body::{BodyError, PostedBody, read_body};
pub use form::{SensitiveForm, Submission};
pub use outcome::SecretOutcome;
pub use page::{Notice, PageForm, STYLE, STYLE_HASH, Unrenderable, escape};
pub use pages::{
    ConfigError, DEFAULT_BODY_LIMIT, DEFAULT_EXPIRY, DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_OPEN,
    DEFAULT_REQUEST_TIMEOUT, OpenError, PageError, Pages, PendingPage,
};
pub use response::PageResponse;
/// A secret field's type, and how to read one: `secrecy`'s string (zeroized
/// on drop, redacted in `Debug`) and its `expose_secret()`.
pub use secrecy::{ExposeSecret, SecretString};
pub use service::PageService;
pub use store::{Binding, End, MemoryStore, PageState, Record, Store, StoreError, Waiting};
pub use token::{BadPageId, PageId};
pub use verify::UserVerifier;
