//! Nothing of its own: the crate builds `examples/mcp_server.rs` (its
//! `[[example]]`) from the example header's dependency lines.

fn main() {}
