//! Nothing of its own: the package is here for its example, the
//! workspace's `examples/replica.rs`, built from the `[dependencies]` of
//! the redis guide (`elicit_core::redis`) alone. Cargo wants a target.
