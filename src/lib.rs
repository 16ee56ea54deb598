//! The workspace's root package (`elicit-workspace`, never published): the
//! integration tests (`tests/`), the examples (`examples/`) and the
//! benchmarks (`benches/`). This library holds nothing but the root README's
//! doctests, which need a package inside the workspace: a published crate
//! (elicit-core) has only its own directory, so it includes its own README.
//!
//! `cargo test --workspace --all-features --doc` runs every Rust block of
//! the root README from here.

// The root README's examples are compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
