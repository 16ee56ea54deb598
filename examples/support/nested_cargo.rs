//! `cargo` run from a program that Cargo started (`cargo run`, `cargo
//! test`): the examples that build their peer first, and the tests that
//! build the examples.

use std::process::Command;

/// `cargo` (the one that started this program, else the one on the `PATH`),
/// without the variables Cargo set for this program's package
/// (`CARGO_PKG_NAME`, `CARGO_MANIFEST_DIR`, `OUT_DIR`, ...). Build scripts
/// such as ring's rerun when one they watch changes: a nested cargo that saw
/// them would rebuild ring, rustls and everything above them, and the next
/// cargo run from a shell would rebuild them back.
pub fn command() -> Command {
    let mut cargo = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    for (name, _) in std::env::vars_os() {
        if name.to_str().is_some_and(set_for_a_package) {
            cargo.env_remove(&name);
        }
    }
    cargo
}

/// The variables Cargo sets for a package's build script or run (not a
/// user's settings such as `CARGO_HOME` or `CARGO_TARGET_DIR`).
fn set_for_a_package(name: &str) -> bool {
    name.starts_with("CARGO_PKG_")
        || name.starts_with("CARGO_BIN_")
        || matches!(
            name,
            "CARGO_MANIFEST_DIR"
                | "CARGO_MANIFEST_PATH"
                | "CARGO_MANIFEST_LINKS"
                | "CARGO_CRATE_NAME"
                | "CARGO_PRIMARY_PACKAGE"
                | "CARGO_TARGET_TMPDIR"
                | "CARGO_RUSTC_CURRENT_DIR"
                | "OUT_DIR"
        )
}
