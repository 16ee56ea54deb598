//! Every elicitation flow, written once for every transport (the ACP SDK,
//! rmcp's server peer on MCP 2025-11-25, rmcp's input-required rounds on
//! MCP 2026-07-28), the calls they return: [`FormCall`] (a form with its
//! bounded re-ask) and, with feature `sensitive`, [`PageCall`] (a secret
//! page, an OAuth flow); and their one error, [`ElicitError`].
//!
//! You meet these types as what `elicit_form`, `elicit_secret` and
//! `elicit_oauth` return on every transport, and `.await` them after their
//! options (`.retry(n)`, `.for_user(&user)`); and [`ElicitError`], why a
//! call returned no answer, the same on every transport.
//!
//! # Rules only the agent knows
//!
//! A form's rules are what a client can check (and the agent checks
//! again). Some rules only the agent can check:
//!
//! - **across fields**, on the typed form: `#[elicit(check = path)]` on the
//!   form (see the [attribute reference](crate::reference::attributes)),
//!   a `fn(&Form) -> Result<(), ContentError>` run wherever content is
//!   read, after the field rules;
//! - **against the world**, asynchronously, on one call:
//!   [`FormCall::check`] (and `FormAsk::check` in MCP's
//!   [`Rounds`](crate::mcp::Rounds)), given the typed form.
//!
//! Both blame fields with [`FieldError::rule`](crate::FieldError::rule),
//! and what they refuse is asked again like a broken field rule, with the
//! errors by field in the message, within the call's `retry(n)`: on the
//! ACP SDK, rmcp's requests, and the rounds at both MCP versions (on
//! 2026-07-28 the call's check runs in the call that brings the answer,
//! between rounds). A check that cannot decide (its database is down)
//! returns `Err`: the flow ends with [`ElicitError::Check`], never asking
//! again.
//!
//! ```
//! use std::collections::HashSet;
//! use elicit_core::flow::ElicitError;
//! use elicit_core::mcp::Elicitor;
//! use elicit_core::protocol::agent::Outcome;
//! use elicit_core::{Elicit, FieldError};
//!
//! #[derive(Elicit, Debug)]
//! struct Signup {
//!     /// Your username.
//!     #[elicit(length(min = 3, max = 20), pattern = "^[a-z0-9_]+$")]
//!     name: String,
//! }
//!
//! /// A directory that may be down.
//! struct Directory(Option<HashSet<String>>);
//!
//! impl Directory {
//!     async fn is_taken(&self, name: &str) -> std::io::Result<bool> {
//!         let names = self.0.as_ref().ok_or(std::io::ErrorKind::NotConnected)?;
//!         Ok(names.contains(name))
//!     }
//! }
//!
//! async fn signup(elicitor: &Elicitor<'_>, directory: &Directory) -> String {
//!     let asked = elicitor
//!         .elicit_form::<Signup>("Pick a username")
//!         .retry(2)
//!         .check(async |form: &Signup| {
//!             // `?`: a directory that is down ends the call (`ElicitError::Check`).
//!             if directory.is_taken(&form.name).await? {
//!                 return Ok(Err(FieldError::rule("name", "is already taken").into()));
//!             }
//!             Ok::<_, std::io::Error>(Ok(()))
//!         })
//!         .await;
//!     match asked {
//!         Ok(Outcome::Accepted(signup)) => format!("Welcome, {}.", signup.name),
//!         Ok(_) => "No account was made.".to_owned(),
//!         // Three names, each taken: the last errors are here, by field.
//!         Err(ElicitError::Invalid { errors, .. }) => format!("No free name: {errors}"),
//!         Err(ElicitError::Check(error)) => format!("Cannot check names now: {error}"),
//!         Err(other) => format!("Could not ask: {other}"),
//!     }
//! }
//! # let _ = signup;
//! ```
//!
//! Inside, the state of a connection (the modes its client advertised, the
//! outstanding URL ids with their user binding, completion once) is an
//! [`AgentConnection`](crate::protocol::agent::AgentConnection); a transport only sends one `elicitation/create`
//! and reads the answer into elicit's wire model, and sends
//! `elicitation/complete`. The steps between (re-ask, consent, page,
//! completion) are here, once. The re-ask policy is also what the MCP
//! 2026-07-28 rounds apply, across calls.
//!
//! How it is cut, for whoever adds a transport: the state is sans-IO, as
//! in `quinn-proto` or `rustls` ([`AgentConnection`](crate::protocol::agent::AgentConnection) builds each request,
//! reads each answer and keeps the ids, and does no I/O); the flows are
//! `async` sequences over a two-method seam a request transport
//! implements (send `elicitation/create` and wait for the answer, send
//! `elicitation/complete`), the shape of rmcp's `Peer` and the ACP SDK's
//! `ConnectionTo`. A transport that cannot wait for an answer in one call
//! (the 2026-07-28 rounds, where each round ends the tool call) drives the
//! sans-IO state itself and shares the policy (the re-ask, the page's URL
//! request). A new request transport is one file: the seam's two methods
//! and its `Elicitor`.

mod call;
mod check;
mod engine;
mod error;
#[cfg(feature = "sensitive")]
pub(crate) mod page;
pub(crate) mod partial;
pub(crate) mod render;
pub(crate) mod retry;

pub use call::FormCall;
#[cfg(feature = "oauth")]
pub(crate) use call::OAuthCall;
#[cfg(feature = "sensitive")]
pub use call::PageCall;
#[cfg(feature = "sensitive")]
pub(crate) use call::SecretCall;
#[cfg(feature = "oauth")]
pub(crate) use call::oauth_call;
#[cfg(feature = "sensitive")]
pub(crate) use call::secret_call;
pub(crate) use call::{Asker, form_call};
#[cfg(feature = "rmcp")]
pub(crate) use check::BoxFuture;
#[doc(hidden)]
pub use check::Check;
#[cfg(feature = "rmcp")]
pub(crate) use check::FormAsked;
#[cfg(all(feature = "sensitive", feature = "rmcp"))]
pub(crate) use check::PageAsked;
#[cfg(feature = "rmcp")]
pub(crate) use check::checker;
#[cfg(all(feature = "sensitive", feature = "rmcp"))]
pub(crate) use check::{SecretChecker, secret_checker};
pub use error::{ElicitError, RequestError, RequestFailure};

#[cfg(feature = "rmcp")]
pub(crate) use engine::{AfterAnswer, after_answer, outcome_event, url_outcome_event};
pub(crate) use engine::{Carrier, Flows};
