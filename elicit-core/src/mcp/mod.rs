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
//! # Input-required rounds
//!
//! The `ask` closure runs from the top each round; [`Rounds::form`] (and
//! [`Rounds::url`]) give the typed answer once it is in, or ask and return
//! `None`, which `?` passes on. Several asks in one run go out in one round,
//! each under its key. [`run_tool`] then gives the answers
//! ([`Asked::Answered`]) or the response to return ([`Asked::Respond`]: an
//! input-required round). The state between rounds
//! (round, attempts, earlier answers) is sealed into `requestState` with
//! rmcp's `RequestStateCodec` (HMAC-SHA256, with a TTL) and bound to the
//! user ([`RoundsConfig::principal`]) and to the request (the tool's name
//! and a SHA-256 of its arguments, keys sorted): a client that tampers with
//! it, replays it after the TTL, presents it for another user, another
//! request or under another key, or uses it a second time (a state is good
//! for one call: [`UsedStates`]) gets `-32602` [`INVALID_STATE_MESSAGE`],
//! whatever the cause. Keys, their rotation and single use: [`RoundsConfig`].
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
//! The feature turns on rmcp's `server` feature (`Peer<RoleServer>`) and its
//! `request-state` feature (the sealing codec; `hmac`), not its
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
