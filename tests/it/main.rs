//! The integration tests, as one test binary: one link of elicit-core and
//! of every dev-dependency instead of one per file. Each module is the file
//! of the same name (`acp_sdk` is `tests/it/acp_sdk.rs`); run one with
//! `cargo test --all-features --test it acp_sdk::`.
//!
//! One test stays a binary of its own: `tests/memory.rs`, whose counting
//! global allocator would count every other test's allocations too.
//! trybuild's compile-fail and pass cases are the package `tests/ui`
//! (`cargo test -p elicit-ui-tests`), whose few dependencies are all trybuild
//! builds again.

mod common;

mod acp;
mod acp_demo;
mod acp_sdk;
#[cfg(feature = "redis")]
mod audience;
mod behaviour;
pub(crate) mod browser;
mod check;
#[cfg(feature = "redis")]
mod cluster;
mod content;
#[cfg(feature = "redis")]
mod deploy;
mod ecma_patterns;
mod fuzz_regressions;
mod hostile_patterns;
#[cfg(feature = "redis")]
mod load;
mod mcp_client;
mod mcp_client_interop;
mod mcp_conformance;
mod mcp_ts;
mod module_cycles;
mod oauth;
mod oidc_provider;
mod protocol;
mod readme;
#[cfg(feature = "redis")]
mod replicas;
mod rmcp;
mod roundtrip;
mod schema;
mod sensitive_body;
mod sensitive_form;
mod sensitive_page;
pub(crate) mod sensitive_server;
mod trace_sweep;
mod url_whatwg;
mod user_crates;
