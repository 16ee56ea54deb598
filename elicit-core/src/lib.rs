//! Typed, validated ACP elicitation.
//!
//! The Agent Client Protocol lets an agent ask the user for structured input
//! with `elicitation/create`. In **form mode** the agent sends a restricted,
//! flat JSON Schema (`requestedSchema`); the client renders it and answers
//! with `accept` + `content`, `decline` or `cancel`. This crate turns a Rust
//! struct into that schema and the answer back into the struct, checking
//! every rule on the way in:
//!
//! ```
//! use elicit_core::{Content, Elicit};
//!
//! #[derive(Elicit, Debug, PartialEq)]
//! #[elicit(rename_all = "lowercase")]
//! enum Environment {
//!     Staging,
//!     Production,
//! }
//!
//! /// Deploy the current branch.
//! #[derive(Elicit, Debug, PartialEq)]
//! #[elicit(rename_all = "camelCase")]
//! struct Deploy {
//!     /// Which environment to deploy to.
//!     env: Environment,
//!     #[elicit(range(min = 1, max = 16), default = 2)]
//!     replicas: u8,
//!     notify_team: Option<bool>,
//! }
//!
//! // The form's `requestedSchema`, ready to send:
//! let schema = serde_json::to_value(Deploy::schema()).unwrap();
//! assert_eq!(schema["properties"]["replicas"]["maximum"], 16);
//! assert_eq!(schema["required"], serde_json::json!(["env"]));
//!
//! // The client's `accept` content, parsed and validated:
//! let content: Content = serde_json::from_str(r#"{"env": "production"}"#).unwrap();
//! let deploy = Deploy::from_content(&content).unwrap();
//! assert_eq!(deploy, Deploy { env: Environment::Production, replicas: 2, notify_team: None });
//!
//! // Bad content names every failing field and the rule it broke:
//! let content: Content = serde_json::from_str(r#"{"env": "prod", "replicas": 300}"#).unwrap();
//! let err = Deploy::from_content(&content).unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "invalid form content: `env` must be one of `staging`, `production`, got `prod`; \
//!      `replicas` must be at most 16, got 300"
//! );
//! ```
//!
//! # What is in here
//!
//! - [`Elicit`]: the trait a form implements (derive it), and [`FormField`] /
//!   [`FormValue`] / [`Choice`]: which Rust types can be fields.
//! - [`ElicitationSchema`] and the property kinds: the wire model, serializing
//!   to exactly the official ACP schema's JSON, in declaration order.
//! - [`ElicitationSchema::validate`] and [`ElicitationSchema::check`]: the one
//!   validation engine ([`rules`]), used by derived code and for schemas
//!   received over the wire.
//! - [`ContentError`] / [`FieldError`] and [`SchemaError`]: errors that name
//!   every failing field and the rule.
//! - [`protocol`]: capabilities, scoped `elicitation/create` requests, typed
//!   [`Outcome`]s, URL mode with safe URLs and verified users, completion —
//!   the agent side ([`AgentConnection`]) and the client side
//!   ([`ClientConnection`]), with guides "Writing an agent" and "Writing a
//!   client".
//! - `terminal` (feature `terminal`): a terminal renderer of client
//!   requests (`inquire` prompts, or scripted JSON-lines answers).
//! - Feature `unicode` (off by default, on with `terminal`): Unicode's tables
//!   for `\p{..}` in a `pattern` and for the URL review's checks of `xn--`
//!   hosts. Without it both are refused, each error naming the feature: a
//!   form without such a pattern, and an agent whose URLs are ASCII, build
//!   without the tables (BENCHMARKS.md, "Build cost").
//!
//! # Form mode never collects secrets
//!
//! Passwords, API keys, tokens, private keys, recovery codes and payment
//! credentials must go through URL mode
//! (a [`UrlRequest`](protocol::agent::UrlRequest) marked
//! [`sensitive`](protocol::agent::UrlRequest::sensitive), or a page of the
//! agent's own: `sensitive`).
//! `#[secret]` on a field, or a field whose name looks like a credential, is a
//! compile error that says so.
//!
//! [`Outcome`]: protocol::agent::Outcome
//! [`AgentConnection`]: protocol::agent::AgentConnection
//! [`ClientConnection`]: protocol::client::ClientConnection
#![deny(missing_docs)]
#![forbid(unsafe_code)]
// docs.rs (`--cfg docsrs`, Cargo.toml) marks each feature-gated item with the
// feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]

// Lets derived code, which names `::elicit_core`, compile inside this crate too.
extern crate self as elicit_core;

// Conversions to and from the official ACP Rust types, and (feature
// `acp-sdk`) one call per flow on the official ACP SDK (docs in the module).
#[cfg(feature = "acp")]
pub mod acp;
pub mod credential;
// Conversions to and from other libraries' types: their one error.
mod conversion;
mod error;
mod field;
// Every elicitation flow written once, for the transports that send
// requests, and the calls they return (compiled with them: nothing else
// calls it).
#[cfg(any(feature = "acp-sdk", feature = "rmcp"))]
pub mod flow;
mod form;
pub mod format;
mod json;
pub mod limits;
pub mod protocol;
// MCP elicitation on rmcp: conversions and the one-call API (docs in the module).
#[cfg(feature = "rmcp")]
pub mod mcp;
pub mod rules;
mod schema;
// Sensitive input on a page the agent serves (docs and threat model in the
// module).
#[cfg(feature = "redis")]
pub mod redis;
#[cfg(feature = "sensitive")]
pub mod sensitive;
// The terminal renderer of client requests (docs in the module).
#[cfg(feature = "terminal")]
pub mod terminal;
// Form field types beyond the primitives: NonZero, and the feature-gated
// ecosystem types (impls only; docs in the module).
mod types;

pub use conversion::{ConversionError, ConversionErrorKind, OutcomeError};
pub use error::{
    ContentError, FieldError, FieldErrorKind, JsonKind, Num, SchemaError, SchemaErrorKind,
    SchemaIssue,
};
pub use field::{
    Choice, ChoiceOption, FormField, FormValue, LengthField, RangeField, TextDefault, TextField,
};
pub use form::Elicit;
pub use json::Content;
pub use schema::{
    BooleanSchema, ElicitationSchema, EnumOption, IntegerSchema, Items, Meta, MultiSelectSchema,
    NumberSchema, Options, OtherSchema, Pattern, Properties, PropertySchema, StringSchema,
};

/// Derives [`Elicit`] for a struct with named fields (a form), or [`Choice`]
/// for a unit-only enum (a single-select; a `Vec`/set of it is a
/// multi-select). Every attribute: [`reference::attributes`]; what each
/// field type becomes: [`reference::types`]; what does not compile:
/// [`reference::guarantees`].
#[cfg(feature = "derive")]
pub use elicit_derive::Elicit;

/// The reference: what the derive makes of a struct, chapter by chapter.
/// Each chapter is a page of its own (`elicit-core/docs/*.md`), its
/// examples compiled and run as doctests.
pub mod reference {
    #[doc = include_str!("../docs/types.md")]
    pub mod types {}

    #[doc = include_str!("../docs/attributes.md")]
    pub mod attributes {}

    #[doc = include_str!("../docs/guarantees.md")]
    pub mod guarantees {}

    #[doc = include_str!("../docs/validation.md")]
    pub mod validation {}
}

/// Support for generated code. Not public API: may change in any release.
#[doc(hidden)]
pub mod __private;

// This package's README (the crates.io page) is compiled and run as
// doctests. The workspace's README is run by readme-doctests/: a published
// crate has only its own directory.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
