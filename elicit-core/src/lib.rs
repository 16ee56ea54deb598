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
//!
//! # Form mode never collects secrets
//!
//! Passwords, API keys, tokens, private keys, recovery codes and payment
//! credentials must go through URL mode
//! ([`AgentConnection::sensitive`](protocol::agent::AgentConnection::sensitive)).
//! `#[secret]` on a field, or a field whose name looks like a credential, is a
//! compile error that says so.
#![deny(missing_docs)]
#![forbid(unsafe_code)]
// docs.rs (`--cfg docsrs`, Cargo.toml) marks each feature-gated item with the
// feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]

// Lets derived code, which names `::elicit_core`, compile inside this crate too.
extern crate self as elicit_core;

use std::borrow::Cow;

// Conversions to and from the official ACP Rust types, and (feature
// `acp-sdk`) one call per flow on the official ACP SDK (docs in the module).
#[cfg(feature = "acp")]
pub mod acp;
pub mod credential;
pub mod error;
pub mod field;
pub mod format;
mod json;
pub mod limits;
pub mod protocol;
// MCP elicitation on rmcp: conversions and the one-call API (docs in the module).
#[cfg(feature = "rmcp")]
pub mod mcp;
pub mod rules;
pub mod schema;
// The terminal renderer of client requests (docs in the module).
#[cfg(feature = "terminal")]
pub mod terminal;
// Form field types beyond the primitives: NonZero, and the feature-gated
// ecosystem types (impls only; docs in the module).
mod types;

pub use error::{
    ContentError, FieldError, FieldErrorKind, JsonKind, Num, SchemaError, SchemaErrorKind,
    SchemaIssue,
};
pub use field::{Choice, ChoiceOption, FormField, FormValue, TextDefault};
pub use format::{Format, LiteralRule};
pub use protocol::{AgentConnection, ClientConnection, Outcome, UrlOutcome};
pub use schema::{
    BooleanSchema, ElicitationSchema, EnumOption, IntegerSchema, Items, Meta, MultiSelectSchema,
    NumberSchema, Options, OtherSchema, Pattern, Properties, PropertySchema, StringSchema,
};

/// Derives [`Elicit`] for a struct with named fields (a form), or [`Choice`]
/// for a unit-only enum (a single-select; a `Vec`/set of it is a
/// multi-select). See the README's attribute reference.
#[cfg(feature = "derive")]
pub use elicit_derive::Elicit;

/// The `content` of an `accept` response: a flat JSON object.
pub type Content = serde_json::Map<String, serde_json::Value>;

/// A form that can be elicited: its schema, and conversions from and to the
/// content a client submits.
///
/// Derive it with `#[derive(Elicit)]`; implementing it by hand is possible but
/// then the schema and the parsing must be kept in agreement by hand.
pub trait Elicit: Sized {
    /// The form's `requestedSchema`, properties in declaration order.
    fn schema() -> ElicitationSchema;

    /// Parses and validates accepted content. Every rule of the schema is
    /// checked again here (agents must not trust the client's validation),
    /// plus what only the Rust type knows (e.g. that `1e39` does not fit an
    /// `f32`). Collects every failing field.
    fn from_content(content: &Content) -> Result<Self, ContentError>;

    /// [`from_content`](Self::from_content) for content the caller owns,
    /// such as the `content` of a response it received: strings are moved
    /// into the struct instead of copied. Same checks, same errors.
    ///
    /// ```
    /// use elicit_core::{Content, Elicit};
    ///
    /// #[derive(Elicit, Debug, PartialEq)]
    /// struct Rename {
    ///     #[elicit(length(min = 1))]
    ///     name: String,
    /// }
    ///
    /// let content: Content = serde_json::from_str(r#"{"name": "Ada"}"#).unwrap();
    /// assert_eq!(Rename::from_content_owned(content).unwrap(), Rename { name: "Ada".into() });
    /// ```
    fn from_content_owned(content: Content) -> Result<Self, ContentError> {
        // Unknown keys are found before the content is consumed, and
        // reported after the fields, as `from_content` does.
        let mut unknown = Vec::new();
        Self::__deny_unknown(&content, &mut unknown);
        let mut errors = Vec::new();
        let value = Self::__collect_from(content, &mut errors);
        errors.append(&mut unknown);
        field::finish(value, errors)
    }

    /// The content a client would submit for this value.
    fn to_content(&self) -> Content;

    #[doc(hidden)]
    /// Parses into `errors` instead of failing; used by `flatten`.
    fn __collect(content: &Content, errors: &mut Vec<FieldError>) -> Option<Self> {
        match Self::from_content(content) {
            Ok(value) => Some(value),
            Err(e) => {
                errors.extend(e.into_errors());
                None
            }
        }
    }

    #[doc(hidden)]
    /// [`__collect`](Self::__collect) from borrowed or owned content.
    /// Derived forms without flattened fields implement it once for both:
    /// being generic, it is compiled for owned content only in programs that
    /// call `from_content_owned`.
    fn __collect_from<S: field::Source>(content: S, errors: &mut Vec<FieldError>) -> Option<Self> {
        content.with_content(|content| Self::__collect(content, errors))
    }

    #[doc(hidden)]
    /// With `deny_unknown_fields`: every content key the schema lacks.
    fn __deny_unknown(_content: &Content, _errors: &mut Vec<FieldError>) {}

    /// The form's `requestedSchema` as JSON text: what
    /// `serde_json::to_string(&Self::schema())` gives.
    ///
    /// A derived form that is not generic builds and serializes its schema
    /// once per process and hands out that text ever after, so sending the
    /// form costs a copy, not a build and a serialization. (A generic form
    /// builds it on each call.)
    ///
    /// ```
    /// use elicit_core::Elicit;
    ///
    /// #[derive(Elicit)]
    /// struct Rename {
    ///     #[elicit(length(min = 1))]
    ///     name: String,
    /// }
    ///
    /// assert_eq!(
    ///     Rename::schema_json(),
    ///     r#"{"type":"object","properties":{"name":{"type":"string","minLength":1}},"required":["name"]}"#
    /// );
    /// assert_eq!(Rename::schema_json(), serde_json::to_string(&Rename::schema()).unwrap());
    /// ```
    fn schema_json() -> Cow<'static, str> {
        Cow::Owned(schema::to_json(Self::__schema().as_ref()))
    }

    #[doc(hidden)]
    /// How many properties the schema has; used by `flatten`. Derived forms
    /// add up their own fields and their flattened forms' counts.
    fn __property_count() -> usize {
        Self::__schema().properties.len()
    }

    #[doc(hidden)]
    /// The schema built once, where the type can keep it in a static (a
    /// derived form that is not generic); `None` otherwise.
    fn __static_schema() -> Option<&'static ElicitationSchema> {
        None
    }

    #[doc(hidden)]
    /// The schema: the static one if there is one, else built now.
    fn __schema() -> Cow<'static, ElicitationSchema> {
        match Self::__static_schema() {
            Some(schema) => Cow::Borrowed(schema),
            None => Cow::Owned(Self::schema()),
        }
    }

    #[doc(hidden)]
    /// Writes this value's content into `content`; used by `flatten`.
    fn __write(&self, content: &mut Content) {
        content.extend(self.to_content());
    }
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
