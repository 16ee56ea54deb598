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

#[cfg(feature = "rmcp")]
pub(crate) use call::BoxFuture;
#[cfg(feature = "rmcp")]
pub(crate) use call::FormAsked;
pub use call::FormCall;
#[cfg(feature = "oauth")]
pub(crate) use call::OAuthCall;
#[cfg(all(feature = "sensitive", feature = "rmcp"))]
pub(crate) use call::PageAsked;
#[cfg(feature = "sensitive")]
pub use call::PageCall;
#[cfg(feature = "sensitive")]
pub(crate) use call::SecretCall;
#[cfg(feature = "oauth")]
pub(crate) use call::oauth_call;
#[cfg(feature = "sensitive")]
pub(crate) use call::secret_call;
pub(crate) use call::{Asker, form_call};
#[doc(hidden)]
pub use check::Check;
#[cfg(feature = "rmcp")]
pub(crate) use check::checker;
#[cfg(all(feature = "sensitive", feature = "rmcp"))]
pub(crate) use check::{SecretChecker, secret_checker};
pub use error::{ElicitError, RequestError, RequestFailure};

#[cfg(feature = "rmcp")]
pub(crate) use engine::{AfterAnswer, after_answer, outcome_event, url_outcome_event};
pub(crate) use engine::{Carrier, Flows};
