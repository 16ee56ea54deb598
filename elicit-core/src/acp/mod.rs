//! Conversions between elicit's wire model and the official ACP Rust types,
//! `agent-client-protocol-schema`'s `v1` elicitation types (feature `acp`).
//!
//! ```toml
//! [dependencies]
//! elicit-core = { path = "../elicit/elicit-core", features = ["acp"] }
//! ```
//!
//! With feature `acp-sdk`, the `sdk` submodule adds one call per elicitation
//! flow on the official SDK (`agent-client-protocol`): most agents and
//! clients on the SDK want that, not these conversions.
//!
//! The official SDK (`agent-client-protocol`) re-exports those types, so an
//! agent or client built on it hands them to elicit and back. The
//! dependency is `agent-client-protocol-schema = "^1.17"`, which unifies
//! with the SDK's pinned `=1.17.0`: your tree has one copy of the types.
//!
//! | elicit | `agent_client_protocol_schema::v1` | ours -> SDK | SDK -> ours |
//! |---|---|---|---|
//! | [`ElicitationSchema`] | `ElicitationSchema` | `TryFrom` | `TryFrom` |
//! | [`PropertySchema`] | `ElicitationPropertySchema` | `TryFrom` | `TryFrom` |
//! | [`StringSchema`] | `StringPropertySchema` | `TryFrom` | `TryFrom` |
//! | [`NumberSchema`], [`IntegerSchema`], [`BooleanSchema`] | `NumberPropertySchema`, `IntegerPropertySchema`, `BooleanPropertySchema` | `From` | `From` |
//! | [`MultiSelectSchema`] | `MultiSelectPropertySchema` | `TryFrom` | `TryFrom` |
//! | [`OtherSchema`] | `OtherElicitationPropertySchema` | `From` | `From` |
//! | [`EnumOption`] | `EnumOption` | `From` | `From` |
//! | [`Format`] | `StringFormat` | `TryFrom` | `From` |
//! | [`ElicitationCapabilities`] | `ElicitationCapabilities` | `TryFrom` | `From` |
//! | [`CreateElicitationRequest`] | `CreateElicitationRequest` | `TryFrom` | `TryFrom` |
//! | [`CreateElicitationResponse`] | `CreateElicitationResponse` | `TryFrom` | `TryFrom` |
//! | [`CompleteElicitationNotification`] | `CompleteElicitationNotification` | `From` | `From` |
//! | [`ElicitationScope`], [`RequestId`], [`ElicitationId`] | `ElicitationScope`, `RequestId`, `ElicitationId` | `From` | `TryFrom` / `From` / `From` |
//!
//! Every conversion is lossless where both sides can hold the value, and
//! refuses with a typed [`ConversionError`] where they cannot. Nothing is
//! silently dropped, with the exceptions listed below. And for the agent:
//! [`Outcome<T>`] reads the SDK's `CreateElicitationResponse` with
//! `TryFrom`, validated again with `T::from_content`.
//!
//! ```
//! use agent_client_protocol_schema::v1 as acp;
//! use elicit_core::{Elicit, ElicitationSchema};
//! use elicit_core::protocol::agent::Outcome;
//!
//! #[derive(Elicit, Debug, PartialEq)]
//! #[elicit(rename_all = "lowercase")]
//! enum Strategy { Conservative, Balanced, Aggressive }
//!
//! #[derive(Elicit, Debug, PartialEq)]
//! struct Refactor { strategy: Strategy }
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // The form's schema as the SDK's type, for its `CreateElicitationRequest`:
//! let schema = acp::ElicitationSchema::try_from(Refactor::schema())?;
//! assert!(schema.properties.contains_key("strategy"));
//!
//! // The client's answer, as the SDK parsed it, into the typed outcome:
//! let response: acp::CreateElicitationResponse = serde_json::from_str(
//!     r#"{"action": "accept", "content": {"strategy": "balanced"}}"#,
//! )?;
//! let outcome = Outcome::<Refactor>::try_from(&response)?;
//! assert_eq!(outcome, Outcome::Accepted(Refactor { strategy: Strategy::Balanced }));
//!
//! // And back, for a schema that came from the SDK:
//! let ours = ElicitationSchema::try_from(schema)?;
//! assert_eq!(ours, Refactor::schema());
//! # Ok(())
//! # }
//! ```
//!
//! # An agent on the SDK's types
//!
//! The agent side of [`protocol`](crate::protocol) over the SDK's types, each
//! converted once with `From`/`TryFrom`: the client's `elicitation`
//! capabilities at `initialize` into an [`AgentConnection`], a checked
//! request into the SDK's `CreateElicitationRequest` to send, and the SDK's
//! response into elicit's, which the pending form reads as an
//! [`Outcome<T>`] (validated again):
//!
//! ```
//! use agent_client_protocol_schema::v1 as acp; // = agent_client_protocol::v1::schema
//! use elicit_core::protocol::{CreateElicitationResponse, ElicitationScope};
//! use elicit_core::protocol::agent::AgentConnection;
//! use elicit_core::Elicit;
//! use elicit_core::protocol::agent::Outcome;
//!
//! #[derive(Elicit, Debug)]
//! #[elicit(rename_all = "lowercase")]
//! enum Environment { Staging, Production }
//!
//! /// Deploy the current branch.
//! #[derive(Elicit, Debug)]
//! struct Deploy {
//!     env: Environment,
//!     #[elicit(range(min = 1, max = 16), default = 2)]
//!     replicas: u8,
//! }
//!
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     // `initialize`: the SDK's client capabilities decide the modes.
//!     let client: acp::ClientCapabilities =
//!         serde_json::from_str(r#"{"elicitation": {"form": {}}}"#)?;
//!     let connection = AgentConnection::new(client.elicitation.as_ref().map(Into::into));
//!
//!     // A checked request, as the SDK's type: send it with the SDK.
//!     let (request, pending) =
//!         connection.form::<Deploy>(ElicitationScope::session("sess_1"), "Where to?")?;
//!     let request = acp::CreateElicitationRequest::try_from(&request)?;
//!     assert!(matches!(request.mode, acp::ElicitationMode::Form(_)));
//!
//!     // The SDK's response, validated again and typed.
//!     let response: acp::CreateElicitationResponse =
//!         serde_json::from_str(r#"{"action": "accept", "content": {"env": "staging"}}"#)?;
//!     match pending.outcome(&CreateElicitationResponse::try_from(&response)?)? {
//!         Outcome::Accepted(deploy) => println!("deploying {} replicas", deploy.replicas),
//!         Outcome::Declined | Outcome::Cancelled => println!("not deploying"),
//!         Outcome::UnknownAction(_) => println!("unknown answer: not deploying"),
//!     }
//!     Ok(())
//! }
//! ```
//!
//! A URL request's answer is read the same way, converted, with
//! [`AgentConnection::url_outcome`]; a client converts the SDK's request
//! with `CreateElicitationRequest::try_from` (an error is `-32602`) before
//! [`ClientConnection::receive`], its guard.
//!
//! # What the SDK's types cannot hold
//!
//! - **Property order.** The SDK stores `properties` in a `BTreeMap`: converting
//!   to the SDK loses the declaration order, and converting back gives the
//!   properties in alphabetical order (compare by name, not by position).
//!   Everything else about each property survives the round trip. A client
//!   built on the SDK renders the fields alphabetically, whatever the agent
//!   sent; send elicit's own [`ElicitationSchema`] (it serializes to the same
//!   JSON, in order) where the order matters.
//! - **Custom `format`s.** The SDK's `StringFormat` is a closed enum of
//!   `email`, `uri`, `date` and `date-time`, although the protocol says other
//!   formats are annotations to keep. A [`Format::Other`] is refused with
//!   [`ConversionErrorKind::CustomFormat`]: a client built on the SDK would
//!   fail to parse the whole request.
//! - **Duplicate property names** (possible through `flatten`, reported by
//!   [`ElicitationSchema::check`]): a map keeps one, so they are refused.
//! - **Unknown fields of capability objects** (kept by elicit, not by the
//!   SDK): refused with [`ConversionErrorKind::UnknownFields`].
//! - **Content values that are not form values** (a nested object, an array
//!   with non-strings, an integer beyond `i64`): refused. `null` values in
//!   content are left out: they are not form values either, and for a form an
//!   absent field and a `null` one mean the same.
//!
//! In the other direction, the SDK's multi-select `items` of a kind elicit
//! knows (string `enum`, titled `anyOf`) may carry `_meta`, which elicit's
//! model has no place for; it is dropped, exactly as elicit drops it when
//! reading the same JSON. Items of a kind elicit does not know are kept raw,
//! `_meta` included, like a property of an unknown type. A string property
//! with both `enum` and `oneOf` (the SDK's type allows it, the protocol does
//! not) is refused.
//! An SDK "other" mode or action whose name is a known one (possible only
//! when built by hand) is refused, never read as the known one.
//!
//! The repository's `tests/it/acp.rs` converts every test type's schema to
//! the SDK's (no property becomes the SDK's `Other` variant) and back,
//! unchanged but for the order.
//!
//! [`ElicitationSchema`]: crate::ElicitationSchema
//! [`ElicitationSchema::check`]: crate::ElicitationSchema::check
//! [`PropertySchema`]: crate::PropertySchema
//! [`StringSchema`]: crate::StringSchema
//! [`NumberSchema`]: crate::NumberSchema
//! [`IntegerSchema`]: crate::IntegerSchema
//! [`BooleanSchema`]: crate::BooleanSchema
//! [`MultiSelectSchema`]: crate::MultiSelectSchema
//! [`OtherSchema`]: crate::OtherSchema
//! [`EnumOption`]: crate::EnumOption
//! [`Format`]: crate::format::Format
//! [`Format::Other`]: crate::format::Format::Other
//! [`ElicitationCapabilities`]: crate::protocol::ElicitationCapabilities
//! [`CreateElicitationRequest`]: crate::protocol::CreateElicitationRequest
//! [`CreateElicitationResponse`]: crate::protocol::CreateElicitationResponse
//! [`CompleteElicitationNotification`]: crate::protocol::CompleteElicitationNotification
//! [`ElicitationScope`]: crate::protocol::ElicitationScope
//! [`RequestId`]: crate::protocol::RequestId
//! [`ElicitationId`]: crate::protocol::ElicitationId
//! [`ConversionError`]: crate::ConversionError
//! [`ConversionErrorKind::CustomFormat`]: crate::ConversionErrorKind::CustomFormat
//! [`ConversionErrorKind::UnknownFields`]: crate::ConversionErrorKind::UnknownFields
//! [`Outcome<T>`]: crate::protocol::agent::Outcome
//! [`AgentConnection`]: crate::protocol::agent::AgentConnection
//! [`AgentConnection::url_outcome`]: crate::protocol::agent::AgentConnection::url_outcome
//! [`ClientConnection::receive`]: crate::protocol::client::ClientConnection::receive

mod capabilities;
mod completion;
mod request;
mod response;
mod schema;
mod scope;
// One call per flow on the official ACP SDK (docs in the module).
#[cfg(feature = "acp-sdk")]
pub mod sdk;
mod support;
