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
//!   validation engine, used by derived code and for schemas
//!   received over the wire.
//! - [`ContentError`] / [`FieldError`] and [`SchemaError`]: errors that name
//!   every failing field and the rule.
//! - [`reference`](mod@reference): the derive's manual, a page per chapter: what each field
//!   type becomes ([`reference::types`]), every `#[elicit(..)]` attribute
//!   ([`reference::attributes`]), what does not compile
//!   ([`reference::guarantees`]) and how content is checked
//!   ([`reference::validation`]).
//! - [`protocol`]: capabilities, scoped `elicitation/create` requests, typed
//!   [`Outcome`]s, URL mode with safe URLs and verified users, completion —
//!   the agent side ([`AgentConnection`]) and the client side
//!   ([`ClientConnection`]), with guides "Writing an agent" and "Writing a
//!   client". SDK-agnostic: serde types and plain state, no transport.
//! - [`acp`] (feature `acp`): conversions to and from the official ACP Rust
//!   types; [`acp::sdk`] (feature `acp-sdk`): one call per elicitation flow
//!   on the official ACP SDK, for agents (`elicitor.elicit_form::<T>(..)`)
//!   and clients (one handler).
//! - [`mcp`] (feature `rmcp`): MCP servers on rmcp, one tool handler for
//!   MCP 2025-11-25 and 2026-07-28 and one call on rmcp's peer;
//!   [`mcp::client`]: MCP hosts on rmcp's client.
//! - [`sensitive`] (feature `sensitive`): secrets on a page the agent
//!   serves, with its threat model; [`sensitive::oauth`] (feature `oauth`):
//!   OAuth 2.0 with PKCE through those pages.
//! - [`redis`] (feature `redis`): several replicas behind one URL, on one
//!   Redis.
//! - [`terminal`] (feature `terminal`): a terminal renderer of client
//!   requests (`inquire` prompts, or scripted JSON-lines answers).
//! - [`trace`] (feature `tracing`): `tracing` spans for every flow and an
//!   event at every refusal and failure, with a stable `reason` to count,
//!   never a secret.
//!
//! Each module's documentation is its guide, with compiled examples. The
//! repository's `examples/README.md` lists its runnable examples and their
//! commands.
//!
//! # Cargo features
//!
//! Only `derive` is on by default. What each feature costs to build is
//! measured in the repository's BENCHMARKS.md ("Dependencies", "Build
//! cost").
//!
//! | feature | what it gives | what it turns on |
//! |---|---|---|
//! | `derive` (default) | `#[derive(Elicit)]`, re-exported from `elicit-derive` ([`reference::attributes`]) | `elicit-derive` |
//! | `acp` | [`acp`]: conversions to and from the official ACP types | `agent-client-protocol-schema` 1.17; serde_json's `preserve_order` |
//! | `acp-sdk` | [`acp::sdk`]: one call per elicitation flow on the official ACP SDK, agent and client | `acp`; `agent-client-protocol` 5.2 (no transport), `futures` (no runtime) |
//! | `rmcp` | [`mcp`]: MCP servers on rmcp, both MCP versions; [`mcp::client`]: MCP hosts | `rmcp` 3.11 (`server`, `client`, `request-state`; brings tokio, starts no runtime), `futures`, `sha2`, `hmac`, `getrandom`, `zeroize`; serde_json's `preserve_order` |
//! | `sensitive` | [`sensitive`]: sensitive forms on a page the agent serves, loopback or hosted | `secrecy`, `zeroize`, `getrandom`; the page server: `hyper` (HTTP/1.1), `hyper-util`, `http`, `http-body`, `http-body-util`, `bytes`, `tower-service`, `tokio` (its own current-thread runtime on a thread of its own), `futures-channel` |
//! | `oauth` | [`sensitive::oauth`]: OAuth 2.0 authorization code with PKCE through those pages | `sensitive`; `sha2`, hyper-util's HTTP/1 client, `hyper-rustls` and `rustls` (`ring`, webpki-roots) |
//! | `redis` | [`redis`]: several replicas on one Redis (its page store with `sensitive`, its used-state store with `rmcp`) | `redis` (redis-rs's async client: `tokio-comp`, `connection-manager`), `tokio` (its own current-thread runtime on a thread of its own), `chacha20poly1305`, `getrandom`, `zeroize` |
//! | `chrono` | form fields of `chrono`'s `NaiveDate`, `DateTime<Utc>` and `DateTime<FixedOffset>` ([`reference::types`]) | `chrono` |
//! | `time` | form fields of `time`'s `Date` and `OffsetDateTime` ([`reference::types`]) | `time` |
//! | `jiff` | form fields of `jiff`'s `civil::Date` and `Timestamp` ([`reference::types`]) | `jiff` |
//! | `url` | `url::Url` form fields, `format: uri` ([`reference::types`]) | `url` |
//! | `uuid` | `uuid::Uuid` form fields ([`reference::types`]) | `uuid` |
//! | `unicode` | Unicode's tables: `\p{..}` in a `pattern`, and the URL review's checks of `xn--` hosts ([`protocol::url`]). Without it both are refused, each error naming the feature: a form without such a pattern, and an agent whose URLs are ASCII, build without the tables | `elicit-pattern`'s and `elicit-derive`'s `unicode`; `unicode-security`, `unicode-script`, `unicode-normalization` |
//! | `terminal` | [`terminal`]: a terminal renderer of client requests | `unicode` (a terminal shows other parties' forms and URLs); `inquire` (crossterm) |
//! | `tracing` | [`trace`]: a span per flow, an event with a `reason` at every refusal and failure, never a secret | `tracing` (no default features: `std`), already in the tree of `acp-sdk`, `rmcp` and `sensitive` |
//!
//! # Form mode never collects secrets
//!
//! Passwords, API keys, tokens, private keys, recovery codes and payment
//! credentials must go through URL mode. `#[secret]` on a field of a form,
//! or a field whose name looks like a credential, is a compile error that
//! says so, and points here: ask for them with a **sensitive form** on a
//! page the agent serves, in one call, [`Elicitor::elicit_secret`] on the
//! ACP SDK or [`Rounds::secret`] in an rmcp tool (module [`sensitive`],
//! with its threat model). Underneath, a URL request of your own marked
//! [`sensitive`](protocol::agent::UrlRequest::sensitive) is URL mode or
//! nothing, never a form.
//!
//! [`Outcome`]: protocol::agent::Outcome
//! [`AgentConnection`]: protocol::agent::AgentConnection
//! [`ClientConnection`]: protocol::client::ClientConnection
// Links to feature-gated modules and items: rustdoc resolves them when
// their features are on (docs.rs and CI document every feature); in a build
// without them, these definitions point to docs.rs instead of being
// broken links.
#![cfg_attr(
    not(feature = "acp"),
    doc = "[`acp`]: https://docs.rs/elicit-core/latest/elicit_core/acp/index.html"
)]
#![cfg_attr(
    not(feature = "acp-sdk"),
    doc = "[`acp::sdk`]: https://docs.rs/elicit-core/latest/elicit_core/acp/sdk/index.html"
)]
#![cfg_attr(
    not(feature = "rmcp"),
    doc = "[`mcp`]: https://docs.rs/elicit-core/latest/elicit_core/mcp/index.html"
)]
#![cfg_attr(
    not(feature = "rmcp"),
    doc = "[`mcp::client`]: https://docs.rs/elicit-core/latest/elicit_core/mcp/client/index.html"
)]
#![cfg_attr(
    not(feature = "sensitive"),
    doc = "[`sensitive`]: https://docs.rs/elicit-core/latest/elicit_core/sensitive/index.html"
)]
#![cfg_attr(
    not(feature = "oauth"),
    doc = "[`sensitive::oauth`]: https://docs.rs/elicit-core/latest/elicit_core/sensitive/oauth/index.html"
)]
#![cfg_attr(
    not(feature = "redis"),
    doc = "[`redis`]: https://docs.rs/elicit-core/latest/elicit_core/redis/index.html"
)]
#![cfg_attr(
    not(feature = "terminal"),
    doc = "[`terminal`]: https://docs.rs/elicit-core/latest/elicit_core/terminal/index.html"
)]
#![cfg_attr(
    not(feature = "tracing"),
    doc = "[`trace`]: https://docs.rs/elicit-core/latest/elicit_core/trace/index.html"
)]
#![cfg_attr(
    all(feature = "acp-sdk", feature = "sensitive"),
    doc = "[`Elicitor::elicit_secret`]: acp::sdk::Elicitor::elicit_secret"
)]
#![cfg_attr(
    not(all(feature = "acp-sdk", feature = "sensitive")),
    doc = "[`Elicitor::elicit_secret`]: https://docs.rs/elicit-core/latest/elicit_core/acp/sdk/struct.Elicitor.html#method.elicit_secret"
)]
#![cfg_attr(
    all(feature = "rmcp", feature = "sensitive"),
    doc = "[`Rounds::secret`]: mcp::Rounds::secret"
)]
#![cfg_attr(
    not(all(feature = "rmcp", feature = "sensitive")),
    doc = "[`Rounds::secret`]: https://docs.rs/elicit-core/latest/elicit_core/mcp/struct.Rounds.html#method.secret"
)]
#![deny(missing_docs)]
#![forbid(unsafe_code)]
// docs.rs (`--cfg docsrs`, Cargo.toml) marks each feature-gated item with the
// feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]

// Lets derived code, which names `::elicit_core`, compile inside this crate too.
extern crate self as elicit_core;

// The one door to `tracing` (feature `tracing`): macros every module below
// calls, compiled to nothing without the feature. First, so that they are
// in scope everywhere.
#[macro_use]
mod traced;

// Conversions to and from the official ACP Rust types, and (feature
// `acp-sdk`) one call per flow on the official ACP SDK (docs in the module).
#[cfg(feature = "acp")]
pub mod acp;
#[cfg(any(feature = "sensitive", feature = "redis"))]
mod background;
#[cfg(any(feature = "sensitive", feature = "rmcp"))]
mod cause;
mod credential;
// Conversions to and from other libraries' types: their one error.
mod conversion;
mod error;
mod field;
// How an id is logged (module `trace`): always compiled, as the macros'
// call sites name it.
mod fingerprint;
// Every elicitation flow written once, for the transports that send
// requests, and the calls they return (compiled with them: nothing else
// calls it).
#[cfg(any(feature = "acp-sdk", feature = "rmcp"))]
pub mod flow;
mod form;
pub mod format;
mod json;
mod limits;
pub mod protocol;
// MCP elicitation on rmcp: conversions and the one-call API (docs in the module).
#[cfg(feature = "rmcp")]
pub mod mcp;
mod rules;
mod schema;
#[cfg(any(feature = "acp-sdk", feature = "rmcp", feature = "sensitive"))]
mod sync;
// Sensitive input on a page the agent serves (docs and threat model in the
// module).
#[cfg(feature = "redis")]
pub mod redis;
#[cfg(feature = "sensitive")]
pub mod sensitive;
// The terminal renderer of client requests (docs in the module).
#[cfg(feature = "terminal")]
pub mod terminal;
// What an operator sees: the reasons of refusals and failures (docs in
// the module).
#[cfg(feature = "tracing")]
pub mod trace;
// Form field types beyond the primitives: NonZero, and the feature-gated
// ecosystem types (impls only; docs in the module).
mod types;

pub use conversion::{ConversionError, ConversionErrorKind, OutcomeError};
pub use error::{
    ContentError, FieldError, FieldErrorKind, JsonKind, NotRenderable, Num, SchemaError,
    SchemaErrorKind, SchemaIssue,
};
pub use field::{
    Choice, ChoiceOption, FormField, FormValue, LengthField, RangeField, TextDefault, TextField,
};
pub use form::Elicit;
pub use json::Content;
pub use schema::{
    BooleanSchema, ElicitationSchema, EnumOption, IntegerSchema, Items, MultiSelectSchema,
    NumberSchema, Options, OtherSchema, Pattern, Properties, PropertySchema, StringSchema,
};

// The derive's page is its doc comment in elicit-derive: rustdoc adds a
// re-export's own doc comment in front of it, so one here would say it twice.
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

    #[doc = include_str!("../docs/limits.md")]
    pub mod limits {}
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

#[cfg(test)]
mod tests {
    /// The features of this package's Cargo.toml: its `[features]` keys,
    /// `default` aside.
    fn features() -> Vec<&'static str> {
        let manifest = include_str!("../Cargo.toml");
        let section = &manifest[manifest.find("\n[features]\n").expect("[features]") + 12..];
        let section = section.find("\n[").map_or(section, |end| &section[..end]);
        section
            .lines()
            .filter(|line| line.starts_with(|c: char| c.is_ascii_lowercase()))
            .filter_map(|line| line.split_once('=').map(|(key, _)| key.trim()))
            .filter(|&key| key != "default")
            .collect()
    }

    /// The features a table names: the backticked names in the first cell
    /// of each row, in the section from the line `heading` to the next
    /// heading of its level, every line of it starting with `prefix`
    /// (`//! ` in crate docs).
    fn table(text: &str, prefix: &str, heading: &str) -> Vec<String> {
        let start = text
            .find(&format!("\n{prefix}{heading}\n"))
            .unwrap_or_else(|| panic!("no section {heading:?}"))
            + 1;
        let level = &heading[..=heading.find(' ').expect("a heading")];
        let section = &text[start..];
        let end = section[1..]
            .find(&format!("\n{prefix}{level}"))
            .map_or(section.len(), |end| end + 1);
        section[..end]
            .lines()
            .filter_map(|line| line.strip_prefix(prefix)?.strip_prefix("| `"))
            .flat_map(|row| {
                // From the first cell's first backtick to the cell's end.
                let cell = &row[..row.find(" |").unwrap_or(row.len())];
                format!("`{cell}")
                    .split('`')
                    .skip(1)
                    .step_by(2)
                    .map(str::to_owned)
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    /// Every feature of Cargo.toml has a row in the crate docs' "Cargo
    /// features" table and is named in the README's (the crates.io page)
    /// "Features" table, and neither names a feature that does not exist:
    /// a new feature cannot be forgotten.
    #[test]
    fn the_features_tables_name_every_feature() {
        let features = features();
        assert!(features.contains(&"derive") && features.contains(&"terminal"));
        for (what, named) in [
            (
                "lib.rs, \"# Cargo features\"",
                table(include_str!("lib.rs"), "//! ", "# Cargo features"),
            ),
            (
                "README.md, \"## Features\"",
                table(include_str!("../README.md"), "", "## Features"),
            ),
        ] {
            let missing: Vec<_> = features
                .iter()
                .filter(|&&f| !named.iter().any(|n| n == f))
                .collect();
            assert!(missing.is_empty(), "{what} lacks the features {missing:?}");
            let unknown: Vec<_> = named
                .iter()
                .filter(|n| !features.contains(&n.as_str()))
                .collect();
            assert!(
                unknown.is_empty(),
                "{what} names no such features {unknown:?}"
            );
        }
    }

    mod limits {
        use crate::limits::*;

        /// The value cell of the row of `docs/limits.md` whose first cell is
        /// `name`.
        fn documented_limit(name: &str) -> &'static str {
            let page = include_str!("../docs/limits.md");
            let row = page
                .lines()
                .find(|line| {
                    line.strip_prefix("| ")
                        .is_some_and(|l| l.starts_with(&format!("{name} |")))
                })
                .unwrap_or_else(|| panic!("no row `{name}` in docs/limits.md"));
            row.split(" | ").nth(1).expect("a value cell")
        }

        #[allow(unused_mut)]
        #[test]
        fn the_reference_page_states_every_limit_and_default_as_the_code_has_it() {
            use elicit_pattern::{MAX_PATTERN_LEN, PATTERN_NEST_LIMIT, PATTERN_SIZE_LIMIT};
            let secs = |d: std::time::Duration| format!("{} s", d.as_secs());
            let mut rows: Vec<(&str, String)> = vec![
                ("pattern source", format!("{MAX_PATTERN_LEN} bytes")),
                ("compiled pattern", format!("{PATTERN_SIZE_LIMIT} bytes")),
                ("pattern nesting", format!("{PATTERN_NEST_LIMIT} groups")),
                (
                    "echoed characters",
                    format!("{MAX_ECHOED_CHARS} characters"),
                ),
                ("refusal reason", format!("{MAX_REASON_CHARS} characters")),
                (
                    "unknown fields listed",
                    format!("{MAX_UNKNOWN_FIELDS_LISTED} keys"),
                ),
                (
                    "URLs a client tracks",
                    format!("{MAX_PENDING_URLS} elicitations"),
                ),
                (
                    "URLs an agent keeps outstanding",
                    format!("{MAX_OUTSTANDING_URLS} elicitations"),
                ),
                (
                    "completed ids an agent remembers",
                    format!("{AGENT_COMPLETED_IDS_REMEMBERED} ids"),
                ),
                (
                    "completed ids a client remembers",
                    format!("{CLIENT_COMPLETED_IDS_REMEMBERED} ids"),
                ),
                ("render attempts", format!("{MAX_RENDER_ATTEMPTS} attempts")),
                ("URL length", format!("{MAX_URL_LEN} bytes")),
                ("long host", format!("{LONG_HOST_CHARS} bytes")),
                ("host labels", format!("{LONG_HOST_LABELS} labels")),
                ("pairs in a page's body", format!("{MAX_BODY_PAIRS} pairs")),
            ];
            #[cfg(feature = "sensitive")]
            {
                use crate::sensitive::pages::builder::*;
                rows.extend([
                    ("a page's expiry", secs(DEFAULT_EXPIRY)),
                    ("pages open at once", format!("{DEFAULT_MAX_OPEN} pages")),
                    (
                        "a page's largest body",
                        format!("{DEFAULT_BODY_LIMIT} bytes"),
                    ),
                    (
                        "the loopback server's connections",
                        format!("{DEFAULT_MAX_CONNECTIONS} connections"),
                    ),
                    (
                        "the loopback server's wait for a request's headers, then its body",
                        secs(DEFAULT_REQUEST_TIMEOUT),
                    ),
                ]);
            }
            #[cfg(feature = "rmcp")]
            {
                use crate::mcp::rounds::config::*;
                rows.extend([
                    ("a sealed `requestState`'s life", secs(DEFAULT_STATE_TTL)),
                    (
                        "input-required rounds per tool call",
                        format!("{DEFAULT_MAX_ROUNDS} rounds"),
                    ),
                    #[cfg(feature = "sensitive")]
                    (
                        "pages for one sensitive form in a call without a session",
                        format!("{} pages", crate::mcp::rounds::sessionless::MAX_PAGES),
                    ),
                    (
                        "retries of a call answered `-32042`",
                        format!(
                            "{} retries",
                            crate::mcp::client::retry::URL_REQUIRED_RETRIES
                        ),
                    ),
                ]);
            }
            #[cfg(feature = "redis")]
            rows.extend([
                (
                    "one Redis command, waiting for a connection included",
                    secs(crate::redis::conn::COMMAND_TIMEOUT),
                ),
                (
                    "how long a Redis record outlives its expiry",
                    secs(crate::redis::store::KEPT_AFTER_EXPIRY),
                ),
                (
                    "the replicas' clock skew",
                    secs(crate::redis::used::DEFAULT_CLOCK_SKEW),
                ),
            ]);
            let _ = &secs;
            for (name, value) in rows {
                assert_eq!(
                    documented_limit(name),
                    value,
                    "docs/limits.md, row `{name}`"
                );
            }
        }
    }
}
