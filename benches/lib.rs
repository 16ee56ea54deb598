//! Nothing: the benchmarks are this package's `[[bench]]` targets
//! (`runtime.rs`, `paired.rs`). A package needs a target `cargo test`
//! can see, and this one builds no dependency.
