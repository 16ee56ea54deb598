//! Sensitive input on a page the agent serves (feature `sensitive`): the
//! door that form mode's compile errors point to. The protocol says an agent
//! MUST ask for passwords, API keys, tokens and payment data through URL
//! mode, out of band, and MUST verify that whoever completes the interaction
//! is the user who started it. elicit refuses a `#[secret]` field in a form
//! at compile time; this module is where that error points: a **sensitive
//! form**, asked on a page the agent serves itself, built from the same
//! restricted schema and checked by the same engine as a form, in one call.
//!
//! ```
//! # #[cfg(feature = "acp-sdk")]
//! # mod guide {
//! use elicit_core::Elicit;
//! use elicit_core::acp::sdk::{ElicitError, Elicitor};
//! use elicit_core::protocol::ElicitationScope;
//! use elicit_core::sensitive::{Pages, SecretOutcome, SecretString};
//!
//! /// Your deploy token.
//! #[derive(Elicit)]
//! #[elicit(sensitive, title = "Deploy token")]
//! pub struct DeployToken {
//!     /// From the deploy service: Settings → Tokens.
//!     #[secret]
//!     #[elicit(length(min = 12, max = 128), pattern = "^dt-")]
//!     pub token: SecretString,
//! }
//!
//! /// In a turn started with `AgentElicitations::spawn`; `pages` is one
//! /// `Pages::loopback().build()` for the whole agent process.
//! pub async fn deploy_token(
//!     elicitor: &Elicitor,
//!     scope: ElicitationScope,
//!     pages: &Pages,
//! ) -> Result<Option<DeployToken>, ElicitError> {
//!     // URL mode or nothing: a client without it gets no page, and this is
//!     // `Err(ElicitError::NotSent(..))`.
//!     let asked = elicitor.elicit_secret::<DeployToken>(scope, "Paste a deploy token.", pages);
//!     Ok(match asked.await? {
//!         // The page was submitted and checked; `elicitation/complete` was sent.
//!         SecretOutcome::Answered(token) => Some(token),
//!         // Declined, cancelled or expired: the page is closed.
//!         _ => None,
//!     })
//! }
//! # }
//! # fn main() {}
//! ```
//!
//! That call ([`Elicitor::elicit_secret`](crate::acp::sdk::Elicitor::elicit_secret),
//! feature `acp-sdk`) opens the page, sends its URL in URL mode (only if
//! the client advertised it; otherwise it is `Err(ElicitError::NotSent(..))`
//! and no page is opened: never a form), waits for the user's consent, then
//! for the page's submission, checks every rule again, sends
//! `elicitation/complete` to the same client and returns the typed value
//! ([`SecretOutcome::Answered`]). A decline, a cancel, the page's expiry
//! (10 minutes unless [`PagesBuilder::expiry`] says otherwise) or dropping the future closes the page
//! at once. In an rmcp tool handler (feature `rmcp`) the same is
//! `r.secret::<T>(key, message, &pages).await`
//! ([`Rounds::secret`](crate::mcp::Rounds::secret)): at MCP 2025-11-25 this
//! very flow, with `notifications/elicitation/complete`; at 2026-07-28 in
//! input-required rounds. Outside a tool,
//! [`Elicitor::elicit_secret`](crate::mcp::Elicitor::elicit_secret) (MCP
//! 2025-11-25).
//!
//! - **The form.** `#[derive(Elicit)]` with `#[elicit(sensitive)]` makes a
//!   [`SensitiveForm`]; each `#[secret]` field is a [`SecretString`]
//!   (`secrecy`'s: zeroized on drop, `Debug` redacted) and is checked by the
//!   same engine as a form field (length, pattern, format). A sensitive
//!   form is not an [`Elicit`](crate::Elicit) form: sending it in form mode
//!   (`elicit_form`, `AgentConnection::form`) does not compile, and the
//!   error names `elicit_secret`. No error or `Debug` output holds a
//!   secret.
//! - **The page** ([`PageForm`]) is rendered on the server from the form's
//!   schema as plain HTML: no script, every text escaped, the HTML
//!   constraint attributes mirroring the rules, secret fields
//!   `type=password`, never pre-filled or echoed, errors shown per field
//!   after a rejected submission (which does not use the page up), and
//!   "done", "expired" and "already answered" pages. Light and
//!   dark, phone and desktop. The repository's
//!   `elicit-core/examples/sensitive_page.rs` writes a page to a file to
//!   look at, and `docs/sensitive-page.png` is one after a rejected
//!   submission.
//! - **Serving** ([`Pages`]). [`Pages::loopback`] is a server of its own on
//!   `127.0.0.1`, an ephemeral port, started with the first page and
//!   stopped with the agent (hyper on a thread of its own: the agent's
//!   futures need no runtime); the usual ACP case, where the client
//!   launched the agent on the user's machine. A hosted agent mounts
//!   [`pages.service()`](Pages::service), a `tower` service, in its own web
//!   server (axum: `Router::new().nest_service("/elicit", pages.service())`)
//!   with [`Pages::hosted("https://agent.example.com/elicit", verifier)?.build()`](Pages::hosted)
//!   (a [`UserVerifier`]) and asks with
//!   `elicitor.elicit_secret::<T>(..).for_user(&user)` (the same on rmcp).
//! - **Several replicas.** Open pages and OAuth flows live behind one
//!   [`Store`](store::Store) ([`MemoryStore`](store::MemoryStore) by
//!   default; the seam and what it keeps are [`store`]): several replicas either route
//!   `/elicit/<id>` to the replica that opened it (sticky routing; the
//!   secret never leaves that process) or share a store whose every method
//!   is one atomic step (Redis: [`redis`](crate::redis), feature `redis`).
//! - **OAuth** ([`oauth`], feature `oauth`): the authorization code flow
//!   with PKCE through URL mode on these pages, in one call
//!   (`elicit_oauth`), with its own threat model.
//! - **Without an SDK**: [`Pages::open`] and [`PendingPage`] are the flow
//!   by hand (send [`PendingPage::url`] in URL mode yourself), and
//!   [`read_body`] reads what the page posts, strictly, into a
//!   [`Submission`] (repeated fields, unknown fields, bad escapes and
//!   invalid UTF-8 refuse the body; a secret is decoded into zeroized
//!   memory):
//!
//! ```no_run
//! use elicit_core::Elicit;
//! use elicit_core::sensitive::{ExposeSecret, Pages, SecretOutcome, SecretString};
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
//! let pages = Pages::loopback().build();
//! let page = pages.open::<ApiKey>("Paste your API key").await?;
//! // Send `page.url()` to the client in URL mode (the SDK calls do), then:
//! if let SecretOutcome::Answered(key) = page.answer().await? {
//!     let _ = key.key.expose_secret();
//! }
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
//! | DNS rebinding: a remote page reads or posts to the loopback server through its own hostname | the `Host` header must be exactly the bound address (else `421`) | server |
//! | cross-site request forgery: another site posts the form | `Origin` / `Sec-Fetch-Site` must be same-origin, and a CSRF token tied to the binding cookie must match | server (token field: [`PageForm::hidden`]) |
//! | replay, or use after the answer | single use: a second submission or a visit after completion gets the "already used" page; expiry (10 minutes by default) resolves the flow as expired | server (the "already answered" and "expired" pages) |
//! | markup or script injected through the agent's message, titles, descriptions, option labels, defaults, a previous submission or an error text | every text is HTML-escaped, in text and in attribute values; a strict `Content-Security-Policy: default-src 'none'; style-src <hash>; form-action 'self'; frame-ancestors 'none'; base-uri 'none'` (no script at all, the one stylesheet by its hash, [`STYLE_HASH`]) makes a missed escape inert | page ([`PageForm`]); server (headers) |
//! | the page framed by another site (clickjacking) | `frame-ancestors 'none'` | server |
//! | the secret kept where it should not be | secret fields are `type=password`, `autocomplete=off`, never pre-filled and never echoed back, not even after a rejected submission; `Cache-Control: no-store`; the value is a `secrecy::SecretString` (zeroized on drop, `Debug` redacted) and goes into no ACP message, log, error or panic message (the repository's `tests/it/acp_demo.rs` runs the demo with `--trace`, submits a known token on the page and finds it nowhere) | page (rendering); server (headers); [`SensitiveForm`] (the type) |
//! | content sniffing turns a response into something else | `X-Content-Type-Options: nosniff`; every response has its exact type | server |
//! | eavesdropping on the network | `https` required except on loopback | server |
//! | exhaustion and malformed input: huge bodies, slow clients, floods, forged bodies | a body size cap (else `413`), only `application/x-www-form-urlencoded` (else `415`), request and header timeouts, caps on connections and on pending elicitations; repeated and unknown fields, bad escapes and invalid UTF-8 refused, at most 1024 fields ([limits](crate::reference::limits)); a fuzz target on the body parser (the repository's `fuzz/`, `page_body`) | server; [`read_body`] |
//! | a value the rules refuse, from a browser that skipped its own checks | the server validates every submission with the same engine as form mode; a refused submission shows its errors on the same page and does not use up the elicitation | page ([`PageForm::errors`]); server |
//! | the pages' store is shared by several replicas and read by someone (a dump of Redis, its replica, its network) | each record (a page's message and schema, or an OAuth flow's secrets), its end (the submitted secret on its way to the replica that asked) and its binding (cookie and CSRF token) are sealed before they reach the store (ChaCha20-Poly1305 under the operator's [`SealingKeys`](crate::redis::SealingKeys), the blob's key as associated data); what stays readable is each record's state and expiry | `redis` feature ([`RedisStore`](crate::redis::RedisStore)) |
//! | someone who can write the shared store changes or swaps a sealed blob | it does not open (another page's blob, a changed byte, another key): the page fails closed, nothing is accepted | `redis` feature |
//! | a replica stops mid-flow, or the store restarts | the page and its answer live in the store, so another replica serves and reads them (MCP 2026-07-28 rounds); a store that fails makes the step fail cleanly (an error page, a failed call), and the next step opens a new connection | `redis` feature |
//!
//! The page mirrors the rules as HTML constraint attributes (`required`,
//! `minlength`, `maxlength`, `min`, `max`, `type=email|url|date|number`)
//! only to help the user: the server's check is the one that counts.
//!
//! # What an operator sees
//!
//! With elicit-core's `tracing` feature, every check of the threat model
//! that refuses a request is an event with a stable `reason`
//! (`elicit_core::trace`), in the request's `page_request` span (its
//! method, and the page's fingerprint, never its id); nothing secret is in
//! it (no submitted value, cookie, CSRF token, OAuth `state`, code or
//! token). Copied from the run of the repository's `tests/it/trace_sweep.rs`
//! with `ELICIT_TRACE_SWEEP_LOG=1` (at `elicit_core=info`): a wrong CSRF
//! token, a post without the binding cookie, a cross-site post, another
//! host's name and a guessed id on a loopback page; a forged OAuth `state`
//! at the callback; Bob on Alice's hosted page, and Alice posting twice.
//!
//! ```text
//! 2026-12-07T22:12:23.362917Z  WARN page_request{method=POST page=42616ffa155c}: elicit_core::sensitive::service::page: refused: a post without the page's CSRF token reason="csrf" token=true
//! 2026-12-07T22:12:23.364597Z  WARN page_request{method=POST page=42616ffa155c}: elicit_core::sensitive::service::page: refused: another browser than the one the page is bound to reason="other_browser" step=post cookie=false
//! 2026-12-07T22:12:23.365013Z  WARN page_request{method=POST page=42616ffa155c}: elicit_core::sensitive::service::page: refused: a post from another origin reason="cross_site_post"
//! 2026-12-07T22:12:23.365382Z  WARN page_request{method=GET}: elicit_core::sensitive::service: refused: a request for another host reason="wrong_host"
//! 2026-12-07T22:12:23.365747Z  INFO page_request{method=GET page=8c9a80605dbd}: elicit_core::sensitive::service::checks: no such page reason="page_unknown"
//! 2026-12-07T22:12:23.396464Z  WARN page_request{method=GET}: elicit_core::sensitive::oauth::routes: refused: an OAuth callback with an unknown state reason="oauth_state" state=true
//! 2026-12-07T22:12:25.837794Z  WARN page_request{method=GET page=e41ae9abccb5}: elicit_core::sensitive::service::checks: refused: another user than the page's reason="wrong_user" verified=true
//! 2026-12-07T22:12:25.838309Z  INFO page_request{method=POST page=e41ae9abccb5}: elicit_core::sensitive::service::checks: the page was already answered reason="page_used"
//! ```
//!
//! An expired page is `page_expired`, a full store `page_cap`, a store that
//! failed `store_failed` (`ERROR`); the flow that waits on the page logs
//! its own end in its `flow` span (`declined`, `cancelled`, `page_expired`).
//! Every reason, its level and where it is emitted: the table of reasons in
//! `elicit_core::trace` (feature `tracing`).
//!
//! # Tests
//!
//! In the repository: `cargo test --test it sensitive` (every check above,
//! over real TCP); `acp_demo` (the demo asks for its deploy token this way:
//! `cargo run --example acp_client -- --form --url`, and on consent the
//! client opens the page in your browser); `acp_sdk` (the snippet above,
//! run against an SDK client); `rmcp::elicit_secret`; and `browser`
//! (headless Chromium over WebDriver; `.ci/browser-deps` installs it;
//! without Chromium, outside CI, those tests say so and pass).
//!
//! # Cost
//!
//! The feature adds 22 crates to a clean build, about 10 CPU-seconds
//! (tokio is 30 % of it; hyper, http, secrecy): BENCHMARKS.md, "Build
//! cost". A pending page holds about 2 KB of memory; on loopback with 1,000
//! pending pages the server answers 40,000 to 60,000 page views a second,
//! p99 under 0.25 ms (BENCHMARKS.md, "The sensitive page server", measured
//! by the repository's `examples/page_load.rs`).

mod body;
mod cookie;
mod form;
mod html;
mod loopback;
#[cfg(feature = "oauth")]
pub mod oauth;
mod origin;
pub(crate) mod pages;
mod reaper;
mod response;
mod service;
pub(crate) mod shared;
pub mod store;
pub(crate) mod token;
mod verify;

pub use body::{BodyError, PostedBody, read_body};
pub use form::{SensitiveForm, Submission};
pub use html::{PageForm, STYLE_HASH};
#[cfg_attr(not(feature = "rmcp"), allow(unused_imports))]
pub(crate) use pages::answer_of;
pub use pages::{
    ConfigError, OpenError, PageError, Pages, PagesBuilder, PendingPage, SecretOutcome,
};
/// A secret field's type, and how to read one: `secrecy`'s string (zeroized
/// on drop, redacted in `Debug`) and its `expose_secret()`.
pub use secrecy::{ExposeSecret, SecretString};
pub use service::PageService;
pub use token::{BadPageId, PageId};
pub use verify::UserVerifier;
