//! The examples some tests run as programs, built first.

use std::path::{Path, PathBuf};
use std::process::Command;

/// `target/<profile>/examples`, after `cargo build --quiet --tests <args>`
/// (the same profile as this test; a no-op after `cargo test`, which built
/// them). `--tests` turns on every member's dev-dependencies, as `cargo
/// test` does: without it Cargo unifies the features of shared crates
/// differently and builds elicit-core and the examples a second time.
pub fn built(args: &[&str]) -> PathBuf {
    // This test runs from target/<profile>/deps/.
    let exe = std::env::current_exe().expect("the test's own path");
    let profile_dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("target/<profile>/deps/<test>");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| env!("CARGO").into());
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
    let mut build = Command::new(cargo);
    build
        .args(["build", "--quiet", "--tests"])
        .args(args)
        .arg("--manifest-path")
        .arg(&manifest);
    if profile_dir.file_name().is_some_and(|p| p == "release") {
        build.arg("--release");
    }
    let status = build.status().expect("cargo runs");
    assert!(
        status.success(),
        "building the examples ({args:?}) failed: {status}"
    );
    profile_dir.join("examples")
}
