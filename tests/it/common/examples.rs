//! The examples some tests run as programs, built first.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, PoisonError};

// The examples' helper: `cargo` without the variables of the package that
// runs this test.
#[path = "../../../examples/support/nested_cargo.rs"]
mod nested_cargo;

/// The `args` of the builds this test process ran already.
static BUILT: Mutex<Vec<Vec<String>>> = Mutex::new(Vec::new());

/// `target/<profile>/examples`, after `cargo build --quiet --tests <args>`
/// (the same profile as this test; a no-op after `cargo test`, which built
/// them). `--tests` turns on every member's dev-dependencies, as `cargo
/// test` does: without it Cargo unifies the features of shared crates
/// differently and builds elicit-core and the examples a second time. Once
/// per `args` in a test process: even a no-op build costs Cargo about half
/// a second, and some tests run the same example many times.
pub fn built(args: &[&str]) -> PathBuf {
    // This test runs from target/<profile>/deps/.
    let exe = std::env::current_exe().expect("the test's own path");
    let profile_dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("target/<profile>/deps/<test>");
    let mut built = BUILT.lock().unwrap_or_else(PoisonError::into_inner);
    let key: Vec<String> = args.iter().map(|arg| (*arg).to_owned()).collect();
    if built.contains(&key) {
        return profile_dir.join("examples");
    }
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
    let mut build = nested_cargo::command();
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
    built.push(key);
    profile_dir.join("examples")
}

/// A child process, killed when dropped (a test that fails too).
pub struct Running(pub Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Builds the root package's example `name`, starts it with `args`, and
/// reads its first line, `listening on <url>`: it and the URL.
pub fn listening(name: &str, args: &[&str]) -> (Running, String) {
    let binary = built(&["--workspace", "--all-features", "--example", name]).join(name);
    listening_at(&binary, args)
}

/// Starts `binary` with `args` and reads its first line, `listening on
/// <url>`: it and the URL.
pub fn listening_at(binary: &Path, args: &[&str]) -> (Running, String) {
    let mut child = Command::new(binary)
        .args(args)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", binary.display()));
    let stdout = child.stdout.take().expect("piped stdout");
    let running = Running(child);
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .expect("the example prints its URL");
    let url = line
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("`listening on <url>`, got {line:?}"))
        .to_owned();
    (running, url)
}
