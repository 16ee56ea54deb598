//! Feature `rmcp`: examples/mcp_server.rs driven over stdio by the official
//! MCP TypeScript client v2 (`@modelcontextprotocol/client`, the exact
//! version pinned in tests/interop/package.json and its lockfile), at MCP
//! 2025-11-25 (the client's default, `elicitation/create` requests) and
//! 2026-07-28 (pinned: input-required results the client fulfils and
//! retries by itself). The scenarios and the texts are those of
//! tests/it/rmcp.rs's `the_example_server_*` tests, plus a tampered
//! `requestState`.
//!
//! tests/interop/mcp_client.mjs runs one scenario and prints one JSON line.
//! It needs `node` on the PATH and `npm ci` in tests/interop
//! (`.ci/npm-deps`); without them a test skips with a note, unless `CI` or
//! `ELICIT_NODE_REQUIRED` (which `.ci/run` sets) is set: there it fails.
//!
//! The server is built first with `cargo build --workspace --all-features
//! --example mcp_server`, like tests/it/acp_demo.rs builds its examples (what
//! `cargo test --workspace --all-features` already built, so usually a
//! no-op), and run from `target/<profile>/examples/`.
#![cfg(feature = "rmcp")]

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use elicit_core::Elicit;
use serde_json::{Value, json};

// The example server's types (its form and its policy), compiled once, in
// rmcp.rs.
use crate::common::examples::Running;
use crate::rmcp::mcp_server;

/// A safety net against a hung client or server, not a timing assertion.
const HANG_LIMIT: Duration = Duration::from_secs(120);

/// The example's form message, as the client must see it.
const DEPLOY_MESSAGE: &str = "Deploy the current branch. Where to, and how?";

/// tests/interop, where mcp_client.mjs and its node_modules are.
pub(crate) fn interop_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/interop")
}

/// `node` and the installed client, or `None` (with a note) when either is
/// missing and neither `CI` nor `ELICIT_NODE_REQUIRED` is set. Under either,
/// a missing one fails the test.
pub(crate) fn node() -> Option<&'static Path> {
    static NODE: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    let found = NODE.get_or_init(|| {
        let node = std::env::var_os("PATH")
            .iter()
            .flat_map(std::env::split_paths)
            .map(|dir| dir.join(format!("node{}", std::env::consts::EXE_SUFFIX)))
            .find(|path| path.is_file());
        let client = interop_dir().join("node_modules/@modelcontextprotocol/client/package.json");
        match node {
            None => Err("`node` is not on the PATH: install Node.js (>= 20)".to_owned()),
            Some(_) if !client.is_file() => Err(format!(
                "{} is missing: run .ci/npm-deps (npm ci in tests/interop)",
                client.display()
            )),
            Some(node) => Ok(node),
        }
    });
    match found {
        Ok(node) => Some(node),
        Err(note) => crate::common::not_installed("ELICIT_NODE_REQUIRED", note),
    }
}

/// `target/<profile>/examples/mcp_server`, built.
fn server() -> &'static Path {
    static SERVER: OnceLock<PathBuf> = OnceLock::new();
    SERVER.get_or_init(|| {
        crate::common::examples::built(&[
            "--workspace",
            "--all-features",
            "--example",
            "mcp_server",
        ])
        .join(format!("mcp_server{}", std::env::consts::EXE_SUFFIX))
    })
}

/// The MCP versions the example server speaks, as the client reaches them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Version {
    /// The client's default: `initialize` at 2025-11-25, then
    /// `elicitation/create` requests.
    Legacy,
    /// Pinned to 2026-07-28: `server/discover`, per-request `_meta`, and
    /// input-required results.
    Modern,
}

const VERSIONS: [Version; 2] = [Version::Legacy, Version::Modern];

impl Version {
    /// mcp_client.mjs's argument, which is also the client's
    /// `getProtocolEra()`.
    fn era(self) -> &'static str {
        match self {
            Version::Legacy => "legacy",
            Version::Modern => "modern",
        }
    }

    /// The version the client must have negotiated.
    fn protocol(self) -> &'static str {
        match self {
            Version::Legacy => "2025-11-25",
            Version::Modern => "2026-07-28",
        }
    }
}

/// What mcp_client.mjs printed for one run.
struct Report {
    json: Value,
    version: Version,
    /// The client's stderr (the server's too), for failure messages.
    stderr: String,
}

/// The failure messages' view: the JSON line, pretty, then stderr.
impl std::fmt::Debug for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let json = serde_json::to_string_pretty(&self.json).map_err(|_| std::fmt::Error)?;
        write!(f, "{:?}: {json}\n--- stderr\n{}", self.version, self.stderr)
    }
}

impl Report {
    fn is_error(&self) -> bool {
        self.json["isError"]
            .as_bool()
            .unwrap_or_else(|| panic!("no isError: {self:#?}"))
    }

    fn text(&self) -> &str {
        self.json["text"]
            .as_str()
            .unwrap_or_else(|| panic!("no text: {self:#?}"))
    }

    /// The `elicitation/create` requests the client's handler got.
    fn requests(&self) -> &[Value] {
        self.json["requests"].as_array().expect("requests")
    }

    fn messages(&self) -> Vec<&str> {
        self.requests()
            .iter()
            .map(|r| r["message"].as_str().expect("a message"))
            .collect()
    }

    /// The checks every run shares: the pinned version, the tool listed,
    /// and each version's own path (requests on 2025-11-25, input requests
    /// under the tool's key on 2026-07-28), all in form mode.
    fn check_common(&self) {
        let json = &self.json;
        assert_eq!(json["era"], self.version.era(), "{self:#?}");
        assert_eq!(json["version"], self.version.protocol(), "{self:#?}");
        assert_eq!(json["tools"], json!([mcp_server::DEPLOY_TOOL]), "{self:#?}");
        let asked = self.requests().len();
        for request in self.requests() {
            assert_eq!(request["mode"], "form", "{self:#?}");
            match self.version {
                Version::Legacy => assert!(request["id"].is_number(), "{self:#?}"),
                Version::Modern => {
                    assert_eq!(request["id"], mcp_server::DEPLOY_TOOL, "{self:#?}");
                }
            }
        }
        let wire = &json["wire"];
        match self.version {
            Version::Legacy => {
                assert_eq!(wire["elicitationRequests"], asked, "{self:#?}");
                assert_eq!(wire["inputRequired"], json!([]), "{self:#?}");
            }
            Version::Modern => {
                assert_eq!(wire["elicitationRequests"], 0, "{self:#?}");
                let rounds = vec![json!([mcp_server::DEPLOY_TOOL]); asked];
                assert_eq!(wire["inputRequired"], Value::Array(rounds), "{self:#?}");
            }
        }
    }

    /// A run whose call completed (a tool result, maybe a tool error).
    fn completed(self) -> Self {
        assert_eq!(self.json["error"], Value::Null, "{self:#?}");
        self.check_common();
        self
    }
}

/// Runs mcp_client.mjs on the example server at `version` with `scenario`;
/// `None` when the test is skipped.
fn run(version: Version, scenario: &str) -> Option<Report> {
    let node = node()?;
    let script = interop_dir().join("mcp_client.mjs");
    let mut child = Running(
        Command::new(node)
            .arg(&script)
            .arg(server())
            .args([version.era(), scenario])
            .current_dir(interop_dir())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", node.display())),
    );
    let mut stdout = child.0.stdout.take().expect("piped stdout");
    let mut stderr = child.0.stderr.take().expect("piped stderr");
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        stdout.read_to_string(&mut s).map(|_| s)
    });
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        stderr.read_to_string(&mut s).map(|_| s)
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.0.try_wait().expect("wait for the client") {
            break status;
        }
        assert!(
            started.elapsed() < HANG_LIMIT,
            "mcp_client.mjs {} {scenario} hung; killed",
            version.era()
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let stdout = out.join().expect("stdout reader").expect("stdout is UTF-8");
    let stderr = err.join().expect("stderr reader").expect("stderr is UTF-8");
    assert!(
        status.success(),
        "mcp_client.mjs {} {scenario} failed ({status})\n--- stdout\n{stdout}\n--- stderr\n{stderr}",
        version.era()
    );
    let [line] = stdout.lines().collect::<Vec<_>>()[..] else {
        panic!("one JSON line\n--- stdout\n{stdout}\n--- stderr\n{stderr}");
    };
    let json =
        serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}\n--- stderr\n{stderr}"));
    Some(Report {
        json,
        version,
        stderr,
    })
}

#[test]
fn the_ts_client_deploys_what_the_user_accepted() {
    for version in VERSIONS {
        let Some(report) = run(version, "accept") else {
            return;
        };
        let report = report.completed();
        assert!(!report.is_error(), "{report:#?}");
        assert_eq!(
            report.text(),
            "Deploying `main` to production with 3 replicas; the team will be notified."
        );
        // What the client got: the derived form, MCP-shaped.
        let [request] = report.requests() else {
            panic!("one form elicitation: {report:#?}");
        };
        assert_eq!(request["message"], DEPLOY_MESSAGE);
        assert_eq!(
            request["requestedSchema"],
            serde_json::to_value(
                ::rmcp::model::ElicitationSchema::try_from(mcp_server::Deploy::schema()).unwrap()
            )
            .unwrap()
        );
        assert!(request["requestedSchema"]["properties"]["branch"].is_object());
    }
}

#[test]
fn the_ts_client_is_asked_again_after_invalid_content() {
    for version in VERSIONS {
        let Some(report) = run(version, "invalid-then-valid") else {
            return;
        };
        let report = report.completed();
        assert!(!report.is_error(), "{report:#?}");
        assert_eq!(
            report.text(),
            "Deploying `fix-42` to staging with 1 replica."
        );
        assert_eq!(report.requests().len(), 2, "{report:#?}");
        // The script's first answer.
        let first = json!({"env": "staging", "branch": "Not A Branch"});
        let errors = mcp_server::Deploy::from_content(first.as_object().unwrap()).unwrap_err();
        assert_eq!(errors.fields().collect::<Vec<_>>(), ["branch"]);
        // The shared policy's message: the original, then the errors by field.
        let messages = report.messages();
        assert_eq!(messages[0], DEPLOY_MESSAGE);
        assert_eq!(messages[1], errors.retry_message(DEPLOY_MESSAGE));
        assert!(
            messages[1].contains("`branch` must match the pattern"),
            "{}",
            messages[1]
        );
    }
}

#[test]
fn the_ts_client_sees_decline_and_cancel_respected() {
    for version in VERSIONS {
        for (scenario, expected) in [
            ("decline", "The user declined: nothing was deployed."),
            ("cancel", "Cancelled: nothing was deployed."),
        ] {
            let Some(report) = run(version, scenario) else {
                return;
            };
            let report = report.completed();
            assert!(!report.is_error(), "{report:#?}");
            assert_eq!(report.text(), expected);
            assert_eq!(report.messages(), [DEPLOY_MESSAGE]);
        }
    }
}

#[test]
fn the_ts_client_is_given_up_on_after_repeated_invalid_answers() {
    for version in VERSIONS {
        let Some(report) = run(version, "three-invalid") else {
            return;
        };
        let report = report.completed();
        assert!(report.is_error(), "{report:#?}");
        let text = report.text();
        assert!(
            text.starts_with(
                "nothing was deployed: no valid answer after 3 attempt(s), the last one: "
            ),
            "{text}"
        );
        assert!(text.contains("`env`"), "{text}");
        let attempts = mcp_server::RETRIES + 1;
        assert_eq!(report.requests().len(), attempts as usize, "{report:#?}");
        let bad = json!({"env": "moon"});
        let errors = mcp_server::Deploy::from_content(bad.as_object().unwrap()).unwrap_err();
        assert_eq!(errors.fields().collect::<Vec<_>>(), ["env"]);
        let messages = report.messages();
        assert_eq!(messages[0], DEPLOY_MESSAGE);
        for again in &messages[1..] {
            assert_eq!(*again, errors.retry_message(DEPLOY_MESSAGE));
            assert!(again.contains("`env`"), "{again}");
        }
    }
}

#[test]
fn the_ts_client_without_forms_is_not_elicited_from() {
    for version in VERSIONS {
        let Some(report) = run(version, "no-capability") else {
            return;
        };
        // Nothing asked: no request (2025-11-25), no input request
        // (2026-07-28), both checked on the wire.
        let report = report.completed();
        assert!(report.is_error(), "{report:#?}");
        assert!(
            report.text().starts_with("This client cannot show forms"),
            "{}",
            report.text()
        );
        assert!(report.requests().is_empty(), "{report:#?}");
    }
}

#[test]
fn the_ts_client_gets_a_tampered_state_refused() {
    // 2026-07-28 only: 2025-11-25 has no `requestState`.
    let Some(report) = run(Version::Modern, "tampered") else {
        return;
    };
    report.check_common();
    // The forged state (one character changed): one error, the SDKs'
    // frozen shape.
    let error = &report.json["error"];
    assert_eq!(error["name"], "ProtocolError", "{report:#?}");
    assert_eq!(error["code"], -32602, "{report:#?}");
    assert_eq!(
        error["message"], "Invalid or expired requestState",
        "{report:#?}"
    );
    assert_eq!(error["data"], json!({"reason": "invalid_request_state"}));
    assert_eq!(report.messages(), [DEPLOY_MESSAGE]);
    // The untouched state, with the same answer, still works.
    assert!(!report.is_error(), "{report:#?}");
    assert_eq!(
        report.text(),
        "Deploying `main` to staging with 2 replicas."
    );
}
