//! MCP servers built on [rmcp](https://docs.rs/rmcp) (feature `rmcp`):
//! - one tool handler for MCP 2025-11-25 and 2026-07-28 ([`run_tool`] and
//!   [`Rounds`]): `elicitation/create` requests on the older version,
//!   input-required rounds (SEP-2322) with a sealed `requestState` on the
//!   newer, the client's capabilities read per request;
//! - typed elicitation in one call, with the ACP SDK's verbs and the same
//!   [`ElicitError`], for MCP 2025-11-25 and earlier (it sends requests,
//!   which 2026-07-28 no longer has): on rmcp's server peer ([`ElicitExt`]:
//!   `peer.elicit_form::<T>(message).retry(n).await`, `elicit_secret`,
//!   `elicit_oauth`), and on an [`Elicitor`] of the connection's
//!   [`Elicitations`] (`elicit_url`, `complete`, the same calls);
//! - underneath, a derived form's schema as rmcp's `ElicitationSchema` (the
//!   MCP 2025-11-25 shape) and rmcp's `ElicitResult` as a typed
//!   [`Outcome<T>`], for code that drives rmcp itself.
//!
//! ```toml
//! [dependencies]
//! elicit-core = { version = "0.1", features = ["rmcp"] }
//! # rmcp's server with its stdio transport, tokio for `main`, serde_json for a tool's input schema:
//! rmcp = { version = "3.11", features = ["server", "transport-io"] }
//! tokio = { version = "1", features = ["macros", "rt"] }
//! serde_json = "1"
//! ```
//!
//! A form's properties reach the client in declaration order on both MCP
//! versions: rmcp sends every message through `serde_json::Value`, so the
//! `rmcp` feature turns on serde_json's `preserve_order` (an
//! insertion-ordered map, `indexmap`, already in rmcp's tree) for your whole
//! build. The repository's CI checks it on the wire with a crate built
//! outside its workspace from these lines and the three Streamable HTTP
//! adds (`tests/user-crates/rmcp-server`).
//!
//! A whole server is the repository's `examples/rmcp_server.rs`: an rmcp
//! server on stdio, or on Streamable HTTP with `--http ADDR`, whose tool
//! asks with the one handler below; a user's `src/main.rs` as it is, its
//! header listing the dependencies Streamable HTTP adds to these
//! (`cargo run --example rmcp_server --features rmcp`).
//!
//! # One tool handler for MCP 2025-11-25 and 2026-07-28
//!
//! MCP 2026-07-28 removed server-to-client requests: a tool that needs
//! input returns an *input-required* result (its questions under keys, and
//! an opaque `requestState`), and the client calls the tool again with the
//! answers and the state (SEP-2322). rmcp 3.11 speaks both versions, and
//! [`ElicitExt`]'s requests work only on the older one. [`run_tool`] asks
//! with one closure on both:
//!
//! - on 2025-11-25 (and earlier) each round's forms are `elicitation/create`
//!   requests, in the same call, and [`run_tool`] returns the answers
//!   ([`Asked::Answered`]);
//! - on 2026-07-28 each round is an input-required result that [`run_tool`]
//!   hands back to return ([`Asked::Respond`]), and the closure runs again,
//!   from the top, when the client calls back with the answers.
//!
//! The closure only asks, and is not async: [`Rounds::form`] (and
//! [`Rounds::url`]) give the typed answer once it is in, or ask and return
//! `None` ([`FormAsk::answer`]), which `?` passes on, ending the run. The
//! tool's own work comes after, on the typed answers. The client's
//! capabilities are read per request.
//!
//! ```
//! use elicit_core::Elicit;
//! use elicit_core::mcp::{Asked, RoundsConfig, run_tool};
//! use elicit_core::protocol::agent::Outcome;
//! use rmcp::RoleServer;
//! use rmcp::model::{
//!     CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData,
//! };
//! use rmcp::service::RequestContext;
//!
//! #[derive(Elicit, Debug)]
//! struct Confirm {
//!     /// Go ahead with the deployment?
//!     proceed: bool,
//! }
//!
//! /// `ServerHandler::call_tool`'s body: the same code on MCP 2025-11-25
//! /// (`elicitation/create` requests) and 2026-07-28 (input-required rounds).
//! async fn call_tool(
//!     context: &RequestContext<RoleServer>,
//!     request: &CallToolRequestParams,
//!     rounds: &RoundsConfig, // e.g. `RoundsConfig::with_random_key()?` for a stdio server
//! ) -> Result<CallToolResponse, ErrorData> {
//!     // Runs from the top each round; `answer()` is `None` while the form is
//!     // asked, and the round ends.
//!     let asked = run_tool(context, request, rounds, |r| {
//!         r.form::<Confirm>("confirm", "Deploy to production?")
//!             .retry(2)
//!             .answer()
//!     });
//!     let answer = match asked.await? {
//!         Asked::Answered(answer) => answer,
//!         // An input-required round (2026-07-28): the client calls again.
//!         Asked::Respond(response) => return Ok(response),
//!     };
//!     // The tool's own work, on the typed answer.
//!     let text = match answer {
//!         Ok(Outcome::Accepted(Confirm { proceed: true })) => "Deploying.".to_owned(),
//!         Ok(_) => "Not deploying.".to_owned(),
//!         Err(error) => {
//!             // The detail (a client's error text) goes to the log (stderr:
//!             // stdout is the protocol's); the result says a short reason.
//!             eprintln!("the elicitation failed: {error:?}");
//!             format!("Could not ask: {error}")
//!         }
//!     };
//!     Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into())
//! }
//! ```
//!
//! - **Several questions in a round.** Several `r.form::<T>(key, ..)` (and
//!   `r.url(key, ..)`) in one run go out in one round, each under its key;
//!   each gives its typed `Outcome<T>` once answered, every rule checked
//!   again. An invalid answer is asked again under the same key with the
//!   errors in the message, [`.retry(n)`](FormAsk::retry) times at most (the
//!   same re-ask as `elicit_form`'s); decline and cancel are answers.
//! - **Secrets.** `r.secret::<T>(key, message, &pages)` (feature
//!   `sensitive`) asks a sensitive form on a page the server serves
//!   ([`sensitive`](crate::sensitive)): URL mode or nothing. On 2026-07-28
//!   a yes before the page is submitted is asked again ("When you have
//!   submitted the page, accept this to continue"), and the secret never
//!   travels in `requestState`, only the page's id.
//! - **`requestState` is attacker-controlled input.** It holds the round,
//!   the attempts and the earlier answers, sealed with rmcp's
//!   `RequestStateCodec` (HMAC-SHA256, a 10-minute TTL:
//!   [`DEFAULT_STATE_TTL`]), bound to the user
//!   ([`RoundsConfig::principal`], from your server's authentication) and
//!   to the request (the tool's name and a SHA-256 of its arguments, keys
//!   sorted). Tampered, expired, another user's, another request's or
//!   another key's state is refused with one error, `-32602`
//!   [`INVALID_STATE_MESSAGE`], whatever the cause. Only the keys the last
//!   round asked are read from `inputResponses`. The state is signed, not
//!   encrypted: it holds the user's answers, never a secret.
//! - **A state is good for one call.** Each round's state carries a random
//!   id; the call that uses it records it ([`UsedStates`]:
//!   [`MemoryUsedStates`] by default, each id forgotten when its state
//!   expires), so replaying a completed call or an earlier round, or one
//!   state in concurrent calls, is refused with the same error. Several
//!   replicas share a store ([`RoundsConfig::used_states`]; on Redis:
//!   [`redis`](crate::redis)). Answers sent with no state are read as the
//!   first round's and start the re-ask count afresh: such a client is
//!   bounded by its own calls, each costing one validation and keeping
//!   nothing on the server.
//! - **Keys.** [`RoundsConfig::with_random_key`] suits a stdio server (one
//!   process serves every round). Several processes, or a restart that must
//!   accept states sealed before it, share a keyring:
//!   `RoundsConfig::new(RequestStateCodec::new_with_keyring(active, keys)?)`
//!   with 32-byte keys from your secret store. Rotation: add the new key id
//!   to every replica, make it active, drop the old one after the TTL
//!   ([`RoundsConfig`]).
//! - **Rounds are capped** ([`RoundsConfig::max_rounds`], default 8,
//!   [`DEFAULT_MAX_ROUNDS`]: rmcp's client gives up after 9, the TypeScript
//!   client after 10); past it the tool ends with a tool error.
//!
//! The MCP conformance suite's elicitation scenarios
//! (`@modelcontextprotocol/conformance`) pass against the repository's
//! `examples/mcp_conformance.rs` (built the same way, over Streamable
//! HTTP), but for two checks elicit fails on purpose: the deprecated
//! `enumNames`, and a sampling request where the client declared no
//! elicitation (BENCHMARKS.md, "MCP conformance";
//! `tests/it/mcp_conformance.rs`). `tests/it/rmcp.rs` runs the example
//! servers' scenarios (accept, invalid then valid, three invalid, decline,
//! cancel, no elicitation capability) with rmcp's client at 2025-11-25 and
//! at 2026-07-28, and refuses each bad state (tampered, expired, another
//! request, another user, another key):
//!
//! ```sh
//! cargo test --test it --features rmcp rmcp::
//! ```
//!
//! # One call on rmcp's peer (MCP 2025-11-25 and earlier)
//!
//! In a tool handler of a server that speaks only the older versions, one
//! call on rmcp's peer ([`ElicitExt`]):
//!
//! ```
//! use elicit_core::mcp::{ElicitExt, ElicitError};
//! use elicit_core::Elicit;
//! use elicit_core::protocol::agent::Outcome;
//! use rmcp::{Peer, RoleServer};
//!
//! #[derive(Elicit, Debug)]
//! struct Confirm {
//!     /// Go ahead with the deployment?
//!     proceed: bool,
//! }
//!
//! /// From a tool handler: `confirm(&context.peer).await`.
//! async fn confirm(peer: &Peer<RoleServer>) -> Result<bool, ElicitError> {
//!     // Refused, sending nothing, if the client has no form mode; the answer is
//!     // validated again by `Confirm::from_content`, and an invalid one is asked
//!     // again (twice at most) with the errors in the message.
//!     let outcome = peer.elicit_form::<Confirm>("Deploy to production?").retry(2).await?;
//!     Ok(matches!(outcome, Outcome::Accepted(Confirm { proceed: true })))
//! }
//! ```
//!
//! Decline and cancel are returned at once, never asked again. Every
//! failure is one [`ElicitError`], the same type as on the ACP SDK:
//! `NotSent` (the mode not advertised, by MCP's rule that an empty
//! `elicitation` capability is form mode; an unsafe URL; a form MCP cannot
//! carry; ...), `Invalid` (still invalid after the retries, with the field
//! errors and the attempt count), or `Request` (what failed, with rmcp's
//! own `ServiceError` inside for the log).
//!
//! `peer.elicit_secret::<T>(message, &pages)` and
//! `peer.elicit_oauth(message, &pages, &provider)` (features `sensitive`,
//! `oauth`) run a whole page flow, as on the ACP SDK, `.for_user(&user)`
//! binding it to the user your server authenticated.
//!
//! URL mode and its completion, with the ACP SDK's verbs, go through an
//! [`Elicitor`]: keep one [`Elicitations`] per connection in your handler
//! (the state of its outstanding URL elicitations: unique ids, each bound
//! to its user, completed once) and ask with
//! `elicitations.elicitor(&context.peer)`.
//! [`elicit_url(UrlRequest::new(message, url).elicitation_id(id))`](Elicitor::elicit_url)
//! (the same [`UrlRequest`] as on the ACP SDK) returns a `UrlOutcome`,
//! whose `Consented` only means the user agreed to open the URL (the URL
//! is checked first; a request marked `.sensitive()` is refused by a client
//! without URL mode, and `.for_user(&user)` binds it);
//! [`complete(&id, Some(&user))`](Elicitor::complete) sends
//! `notifications/elicitation/complete` once your callback says it is done,
//! refused for another user or a second time. ([`ElicitExt::elicitor`] is
//! the same over a state of its own. rmcp's peer has an inherent
//! `elicit_url`, which is why the verb lives on the [`Elicitor`].)
//!
//! These calls send requests, so they work on MCP 2025-11-25 and earlier;
//! a handler that also serves 2026-07-28 asks with [`run_tool`].
//!
//! # Underneath: the conversions
//!
//! For code that drives rmcp itself, [`form_request`] turns `T::schema()`
//! into rmcp's `ElicitationSchema` (the MCP 2025-11-25 shape, property
//! order kept) and [`Outcome<T>`]'s `TryFrom` reads rmcp's `ElicitResult`:
//!
//! ```
//! use elicit_core::Elicit;
//! use elicit_core::protocol::agent::Outcome;
//! use rmcp::model::{ElicitResult, ElicitationAction};
//!
//! #[derive(Elicit, Debug, PartialEq)]
//! #[elicit(rename_all = "lowercase")]
//! enum Strategy { Conservative, Balanced, Aggressive }
//!
//! #[derive(Elicit, Debug, PartialEq)]
//! struct Refactor { strategy: Strategy }
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // The params of `elicitation/create`, for `peer.create_elicitation(..)`:
//! let params = elicit_core::mcp::form_request::<Refactor>("How should I refactor?")?;
//! let json = serde_json::to_value(&params)?;
//! assert_eq!(json["requestedSchema"]["properties"]["strategy"]["enum"][1], "balanced");
//!
//! // The client's answer, validated again with `Refactor::from_content`:
//! let result = ElicitResult::new(ElicitationAction::Accept)
//!     .with_content(serde_json::json!({"strategy": "balanced"}));
//! let outcome = Outcome::<Refactor>::try_from(&result)?;
//! assert_eq!(outcome, Outcome::Accepted(Refactor { strategy: Strategy::Balanced }));
//! # Ok(())
//! # }
//! ```
//!
//! rmcp 3.x calls the result type `ElicitResult` (older releases called it
//! `CreateElicitationResult`); it is what `Peer::<RoleServer>::create_elicitation`
//! returns.
//!
//! rmcp's model types bring tokio (no runtime is started), which is why
//! this is a feature. It turns on rmcp's `server` feature
//! (`Peer<RoleServer>`; an rmcp server has it already), its `client`
//! feature (the MCP host's side, [`client`]) and its `request-state`
//! feature (the sealing codec; `hmac`), not its
//! `elicitation` feature: [`ElicitExt`] sends `elicitation/create` through
//! `Peer::send_request` and applies MCP's capability rule itself
//! ([`client_supports`]), so the `url` crate rmcp's `elicitation` feature
//! brings is not needed.
//!
//! # Conversion rules
//!
//! MCP's restricted schema is ACP's minus a few parts. Each part is either
//! dropped (what is left still describes the same answers, or fewer checks
//! on the client) or refused with a typed [`ConversionError`] (the form would
//! mean something else):
//!
//! | part | rule |
//! |---|---|
//! | property order | **kept** (rmcp keeps the wire order, and the feature turns on serde_json's `preserve_order`: rmcp sends each message through `serde_json::Value`) |
//! | titles, descriptions, lengths, bounds, defaults, `required` of properties | kept |
//! | `format` `email`, `uri`, `date`, `date-time` | kept |
//! | a custom `format` | **refused** ([`ConversionErrorKind::CustomFormat`]): MCP allows only those four, and rmcp's `StringFormat` is a closed enum |
//! | `pattern` | **dropped**: MCP's string schema has none. The client then cannot check it, so a user may submit a value the pattern rejects; nothing unchecked gets through, because reading the answer as an [`Outcome<T>`] validates the content again with `T::from_content`, pattern included, and returns the error (naming the field) for you to ask again. If the client's pre-check matters, send a form without `pattern` |
//! | schema-level `title` and `description` | **dropped**: not in MCP's `requestedSchema`. Say it in the request's `message`, which MCP clients show |
//! | option `description`s (titled single- and multi-selects) | **dropped**: MCP options are `{const, title}`; the titles are kept |
//! | `_meta` inside the schema (form, properties, options) | **dropped**: MCP has no `_meta` there |
//! | `minLength`, `maxLength`, `format` on a single-select | **dropped**: MCP's enum schemas have none; the options already constrain the value |
//! | an unknown property type or multi-select `items` kind | **refused**: MCP has no place for it |
//! | a property name twice (through `flatten`) | **refused** |
//! | a select default that is not an option, multi-select bounds rmcp's builder rejects | **refused** ([`ConversionErrorKind::Rejected`]); [`ElicitationSchema::check`] reports these too |
//!
//! [`dropped`] lists what a conversion drops, e.g. to log it once at startup.
//!
//! Capabilities differ too: for MCP an empty `elicitation` capability object
//! means form mode (ACP reads it as no mode). rmcp's
//! `Peer::<RoleServer>::supported_elicitation_modes` applies MCP's rule.
//!
//! [`Outcome<T>`]: crate::protocol::agent::Outcome
//! [`ConversionError`]: crate::ConversionError
//! [`ConversionErrorKind::CustomFormat`]: crate::ConversionErrorKind::CustomFormat
//! [`ConversionErrorKind::Rejected`]: crate::ConversionErrorKind::Rejected
//! [`ElicitationSchema::check`]: crate::ElicitationSchema::check

mod carrier;
pub mod client;
mod dropped;
mod elicitor;
#[cfg(feature = "sensitive")]
mod page_work;
mod peer;
mod request;
mod response;
mod rounds;
mod schema;
mod state;
mod used;

/// The same error on every transport: [`flow::ElicitError`](crate::flow::ElicitError).
pub use crate::flow::ElicitError;
/// The same request on every transport: [`protocol::agent::UrlRequest`](crate::protocol::agent::UrlRequest).
pub use crate::protocol::agent::UrlRequest;
pub use carrier::{ELICITATION_COMPLETE_NOTIFICATION, client_supports};
pub use dropped::{Dropped, DroppedPart, dropped};
pub use elicitor::{Elicitations, Elicitor};
pub use peer::ElicitExt;
pub use request::form_request;
pub use rounds::{
    Asked, DEFAULT_MAX_ROUNDS, DEFAULT_STATE_TTL, FormAsk, Rounds, RoundsConfig,
    URL_ELICITATION_REQUIRED, run_tool,
};
pub use state::INVALID_STATE_MESSAGE;
pub use used::{BadStateId, MemoryUsedStates, StateId, UsedStates, UsedStatesError};
