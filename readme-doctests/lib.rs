//! The root README's examples, compiled and run as doctests: every Rust
//! block of `README.md` not marked `ignore` runs in
//! `cargo test --workspace --doc`. Never published; holds no code.

// The root README's examples are compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
