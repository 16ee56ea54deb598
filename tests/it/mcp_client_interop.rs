//! elicit's MCP client (`ElicitationHandler`) against MCP servers nobody here
//! wrote, over stdio, each at the versions it speaks: FastMCP 4.2.3 (PyPI
//! `fastmcp`; MCP 2025-11-25: FastMCP refuses server-initiated requests at
//! 2026-07-28), the official Python SDK's low-level server (`mcp` 2.3.0;
//! both versions, input-required rounds at 2026-07-28) and the official
//! TypeScript SDK's server (`@modelcontextprotocol/server` 2.4.0; both
//! versions). The servers are tests/interop/{fastmcp_server.py,
//! python_rounds_server.py, ts_server.mjs}; the Python packages come from
//! `.ci/python-deps` (pinned in tests/interop/requirements.txt, in
//! target/interop-python), the npm ones from `.ci/npm-deps`. Without them
//! the tests are skipped, unless `CI` or `ELICIT_PYTHON_REQUIRED` (Python)
//! or `ELICIT_NODE_REQUIRED` (Node) is set, when they fail.
//!
//! Cases: accept; an invalid answer refused before sending (the user asked
//! again); decline; cancel; URL consent and completion; a mode the client
//! did not advertise refused with `-32602` (the user sees nothing); MCP's
//! titled options.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use elicit_core::mcp::client::ClientElicitations;
use elicit_core::protocol::client::{FormAnswer, UrlAnswer};
use elicit_core::protocol::{ElicitationCapabilities, ElicitationId};
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::transport::TokioChildProcess;
use serde_json::json;

use crate::mcp_client::{Scripted, Shown, content};
use crate::rmcp::{Version, runtime};

/// The interop Python (target/interop-python, made by .ci/python-deps), or
/// `None` (the test returns) where it is missing and not required.
pub(crate) fn python() -> Option<PathBuf> {
    // This test runs from target/<profile>/deps/.
    let exe = std::env::current_exe().expect("the test's own path");
    let target = exe
        .ancestors()
        .nth(3)
        .expect("target/<profile>/deps/<test>");
    let python = target.join("interop-python/bin/python");
    if python.is_file() {
        Some(python)
    } else {
        crate::common::not_installed(
            "ELICIT_PYTHON_REQUIRED",
            &format!(
                "{} is missing: run .ci/python-deps (the pinned FastMCP and Python SDK)",
                python.display()
            ),
        )
    }
}

/// Which server.
#[derive(Clone, Copy, Debug)]
enum Server {
    FastMcp,
    PythonRounds,
    TypeScript,
}

impl Server {
    /// The command that starts it, or `None` (skip) where its runtime is
    /// not installed.
    fn command(self) -> Option<tokio::process::Command> {
        let dir = crate::mcp_ts::interop_dir();
        let (program, script): (PathBuf, &str) = match self {
            Self::FastMcp => (python()?, "fastmcp_server.py"),
            Self::PythonRounds => (python()?, "python_rounds_server.py"),
            Self::TypeScript => (crate::mcp_ts::node()?.to_owned(), "ts_server.mjs"),
        };
        let mut command = tokio::process::Command::new(program);
        command.arg(script).current_dir(&dir);
        Some(command)
    }

    fn versions(self) -> &'static [Version] {
        match self {
            Self::FastMcp => &[Version::Legacy],
            Self::PythonRounds | Self::TypeScript => &[Version::Legacy, Version::Modern],
        }
    }
}

/// Calls `tool` on `server` at `version` with a client advertising `modes`
/// whose user answers from `render`; the result, or `None` (skipped).
fn call(
    server: Server,
    version: Version,
    modes: ElicitationCapabilities,
    render: &Scripted,
    tool: &str,
    completed: Option<Arc<Mutex<Vec<ElicitationId>>>>,
) -> Option<CallToolResult> {
    let command = server.command()?;
    let mut client = ClientElicitations::new(modes).handler("elicit-interop-host", render.clone());
    if let Some(completed) = completed {
        client = client.on_complete(move |id| completed.lock().unwrap().push(id.clone()));
    }
    Some(runtime().block_on(async {
        // The servers' logs (FastMCP's tracebacks of the refused forms
        // included) stay out of the test's output.
        let (transport, _) = TokioChildProcess::builder(command)
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("the server starts");
        let running = match version {
            Version::Legacy => rmcp::ServiceExt::serve(client.clone(), transport)
                .await
                .expect("connected"),
            Version::Modern => rmcp::service::ClientServiceExt::serve_with_lifecycle(
                client.clone(),
                transport,
                rmcp::service::ClientLifecycleMode::Discover {
                    preferred_versions: vec![rmcp::model::ProtocolVersion::V_2026_07_28],
                },
            )
            .await
            .expect("connected"),
        };
        let result = client
            .call_tool(&running, CallToolRequestParams::new(tool.to_owned()))
            .await
            .unwrap_or_else(|e| panic!("{server:?} {version:?} {tool}: {e}"));
        // The server may send its completion after the result: a moment
        // for it to arrive (bounded).
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        let _ = running.cancel().await;
        result
    }))
}

fn text(result: &CallToolResult) -> String {
    result
        .content
        .first()
        .and_then(|c| c.as_text())
        .map(|t| t.text.clone())
        .unwrap_or_default()
}

const DEPLOY_SERVERS: [Server; 3] = [Server::FastMcp, Server::PythonRounds, Server::TypeScript];

#[test]
fn accept_reaches_each_server_at_each_version() {
    for server in DEPLOY_SERVERS {
        for &version in server.versions() {
            let render = Scripted::forms([FormAnswer::Accept(content(
                json!({"env": "production", "replicas": 3}),
            ))]);
            let Some(result) = call(
                server,
                version,
                ElicitationCapabilities::form_only(),
                &render,
                "deploy",
                None,
            ) else {
                return;
            };
            assert_eq!(
                text(&result),
                "deployed production x3",
                "{server:?} {version:?}"
            );
            let shown = render.shown();
            let [Shown::Form { schema, .. }] = shown.as_slice() else {
                panic!("{server:?} {version:?}: {shown:?}");
            };
            assert_eq!(
                schema["properties"]["env"]["enum"],
                json!(["staging", "production"]),
                "{server:?} {version:?}"
            );
            assert_eq!(schema["properties"]["replicas"]["maximum"], 16);
        }
    }
}

#[test]
fn an_invalid_answer_never_reaches_any_server() {
    for server in DEPLOY_SERVERS {
        for &version in server.versions() {
            let render = Scripted::forms([
                FormAnswer::Accept(content(json!({"env": "moon", "replicas": 40}))),
                FormAnswer::Accept(content(json!({"env": "staging"}))),
            ]);
            let Some(result) = call(
                server,
                version,
                ElicitationCapabilities::form_only(),
                &render,
                "deploy",
                None,
            ) else {
                return;
            };
            // The servers say `invalid answer: ...` for what they would have
            // received: they got the corrected one.
            assert_eq!(
                text(&result),
                "deployed staging x2",
                "{server:?} {version:?}"
            );
            let problems = render.problems();
            assert_eq!(problems.len(), 2, "{server:?} {version:?}: {problems:?}");
            let problem = problems[1].as_deref().unwrap_or_default();
            assert!(
                problem.contains("`env`") && problem.contains("`replicas`"),
                "every field's error at once: {problem}"
            );
        }
    }
}

#[test]
fn decline_and_cancel_reach_each_server_as_such() {
    for server in DEPLOY_SERVERS {
        for &version in server.versions() {
            for (answer, expected) in [
                (FormAnswer::Decline, "declined"),
                (FormAnswer::Cancel, "cancelled"),
            ] {
                let render = Scripted::forms([answer]);
                let Some(result) = call(
                    server,
                    version,
                    ElicitationCapabilities::form_only(),
                    &render,
                    "deploy",
                    None,
                ) else {
                    return;
                };
                assert_eq!(text(&result), expected, "{server:?} {version:?}");
            }
        }
    }
}

#[test]
fn a_url_is_consented_to_and_completed_on_fastmcp_and_typescript() {
    for (server, id, version, expected) in [
        (
            Server::FastMcp,
            Some("fm-1"),
            Version::Legacy,
            "url accept, completed",
        ),
        (
            Server::TypeScript,
            Some("ts-1"),
            Version::Legacy,
            "url accept, completed",
        ),
        // 2026-07-28 has no elicitation id and no completion.
        (Server::TypeScript, None, Version::Modern, "url accept"),
    ] {
        let render = Scripted::urls([UrlAnswer::Consent]);
        let completed = Arc::new(Mutex::new(Vec::new()));
        let Some(result) = call(
            server,
            version,
            ElicitationCapabilities::url_only(),
            &render,
            "connect",
            Some(completed.clone()),
        ) else {
            return;
        };
        assert_eq!(text(&result), expected, "{server:?} {version:?}");
        let shown = render.shown();
        let [Shown::Url { url, host }] = shown.as_slice() else {
            panic!("{server:?}: {shown:?}");
        };
        assert!(
            url.starts_with("https://auth.example.com/connect?id="),
            "{url}"
        );
        assert_eq!(host.as_deref(), Some("auth.example.com"));
        let completed: Vec<String> = completed
            .lock()
            .unwrap()
            .iter()
            .map(|id| id.as_str().to_owned())
            .collect();
        assert_eq!(
            completed,
            id.into_iter().map(str::to_owned).collect::<Vec<_>>()
        );
    }
}

#[test]
fn a_mode_not_advertised_is_refused_and_the_user_sees_nothing() {
    // A URL-only client: the servers' forms are refused with -32602 (each
    // server then reports its tool as failed, or answers in its own way).
    for server in [Server::FastMcp, Server::TypeScript] {
        let render = Scripted::default();
        let Some(result) = call(
            server,
            Version::Legacy,
            ElicitationCapabilities::url_only(),
            &render,
            "deploy",
            None,
        ) else {
            return;
        };
        assert!(
            render.shown().is_empty(),
            "{server:?}: {:?}",
            render.shown()
        );
        assert_ne!(text(&result), "deployed staging x2", "{server:?}");
        assert!(
            result.is_error == Some(true) || text(&result).contains("32602"),
            "{server:?}: {result:?}"
        );
    }
}

#[test]
fn fastmcps_titled_options_are_shown_with_their_titles() {
    let render = Scripted::forms([FormAnswer::Accept(content(json!({"value": "us-east"})))]);
    let Some(result) = call(
        Server::FastMcp,
        Version::Legacy,
        ElicitationCapabilities::form_only(),
        &render,
        "pick",
        None,
    ) else {
        return;
    };
    assert_eq!(text(&result), "us-east");
    let shown = render.shown();
    let [Shown::Form { schema, .. }] = shown.as_slice() else {
        panic!("{shown:?}");
    };
    assert_eq!(
        schema["properties"]["value"]["oneOf"],
        json!([
            {"const": "eu-west", "title": "Europe (Ireland)"},
            {"const": "us-east", "title": "US East (Virginia)"}
        ])
    );
}
