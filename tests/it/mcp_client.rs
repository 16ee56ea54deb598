//! The MCP client side (`elicit_core::mcp::client`) against rmcp servers
//! in this process, at both MCP versions: the example server's tool
//! (`examples/mcp_server.rs`) called through `ElicitationHandler::call_tool`,
//! and requests a server sends by hand (a mode not advertised, a schema
//! rmcp cannot read, the legacy `enumNames`, a URL with its completion,
//! `-32042`). The renderer is scripted and records what the user was
//! shown.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use elicit_core::Content;
use elicit_core::mcp::ServerElicitations;
use elicit_core::mcp::client::{ClientElicitations, ElicitationHandler};
use elicit_core::protocol::client::{
    AnswerError, FormAnswer, FormElicitation, Render, UrlAnswer, UrlElicitation,
};
use elicit_core::protocol::url::UrlRejection;
use elicit_core::protocol::{ElicitationCapabilities, ElicitationId};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, CustomRequest,
    ElicitRequestParams, ErrorCode, ErrorData, ServerCapabilities, ServerConfig, ServerRequest,
};
use rmcp::service::{Peer, RequestContext, RoleServer};
use rmcp::{ServerHandler, ServiceExt};
use serde_json::{Value, json};

use crate::rmcp::{VERSIONS, Version, connect, connect_at, mcp_server, runtime};

/// What the user was shown, one entry per time the renderer was asked.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Shown {
    /// A form: its message, its schema (as JSON), the problem shown with it.
    Form {
        message: String,
        schema: Value,
        problem: Option<String>,
    },
    /// A URL: the full URL, its host as reviewed.
    Url { url: String, host: Option<String> },
}

/// A renderer that answers from a script and records what it showed.
#[derive(Clone, Default)]
pub(crate) struct Scripted {
    forms: Arc<Mutex<VecDeque<FormAnswer>>>,
    urls: Arc<Mutex<VecDeque<UrlAnswer>>>,
    shown: Arc<Mutex<Vec<Shown>>>,
}

impl Scripted {
    pub(crate) fn forms(answers: impl IntoIterator<Item = FormAnswer>) -> Self {
        let scripted = Self::default();
        scripted.forms.lock().unwrap().extend(answers);
        scripted
    }

    pub(crate) fn urls(answers: impl IntoIterator<Item = UrlAnswer>) -> Self {
        let scripted = Self::default();
        scripted.urls.lock().unwrap().extend(answers);
        scripted
    }

    pub(crate) fn shown(&self) -> Vec<Shown> {
        self.shown.lock().unwrap().clone()
    }

    /// The problem shown with each form, in order (every entry a form).
    pub(crate) fn problems(&self) -> Vec<Option<String>> {
        self.shown()
            .into_iter()
            .map(|shown| match shown {
                Shown::Form { problem, .. } => problem,
                other => panic!("a form, not {other:?}"),
            })
            .collect()
    }
}

impl Render for Scripted {
    fn form(
        &mut self,
        _server: &str,
        form: &FormElicitation,
        problem: Option<&AnswerError>,
    ) -> FormAnswer {
        self.shown.lock().unwrap().push(Shown::Form {
            message: form.message().to_owned(),
            schema: serde_json::to_value(form.schema()).unwrap(),
            problem: problem.map(ToString::to_string),
        });
        self.forms
            .lock()
            .unwrap()
            .pop_front()
            .unwrap_or(FormAnswer::Cancel)
    }

    fn url(
        &mut self,
        _server: &str,
        url: &UrlElicitation,
        _problem: Option<&UrlRejection>,
    ) -> UrlAnswer {
        self.shown.lock().unwrap().push(Shown::Url {
            url: url.url().to_owned(),
            host: url.review().host().map(str::to_owned),
        });
        self.urls
            .lock()
            .unwrap()
            .pop_front()
            .unwrap_or(UrlAnswer::Cancel)
    }
}

pub(crate) fn content(value: Value) -> Content {
    value.as_object().cloned().unwrap()
}

fn client(modes: ElicitationCapabilities, render: &Scripted) -> ElicitationHandler {
    ClientElicitations::new(modes).handler("elicit-test-host", render.clone())
}

fn text(result: &CallToolResult) -> String {
    result.content[0].as_text().unwrap().text.clone()
}

/// Calls the example server's `deploy` at `version` through `client`.
pub(crate) fn call_deploy(client: &ElicitationHandler, version: Version) -> CallToolResult {
    runtime().block_on(async {
        let (server_io, client_io) = tokio::io::duplex(64 * 1024);
        let server = tokio::spawn(async move {
            let running = mcp_server::DeployServer::default()
                .serve(server_io)
                .await
                .unwrap();
            running.waiting().await.unwrap();
        });
        let running = connect_at(client, client_io, version).await;
        let result = client
            .call_tool(
                &running,
                CallToolRequestParams::new(mcp_server::DEPLOY_TOOL),
            )
            .await
            .unwrap();
        running.cancel().await.unwrap();
        server.await.unwrap();
        result
    })
}

#[test]
fn the_example_server_gets_what_the_user_accepted_at_both_versions() {
    for version in VERSIONS {
        let render = Scripted::forms([FormAnswer::Accept(content(
            json!({"env": "production", "replicas": 3, "notify": true}),
        ))]);
        let result = call_deploy(
            &client(ElicitationCapabilities::form_only(), &render),
            version,
        );
        assert_eq!(
            text(&result),
            "Deploying `main` to production with 3 replicas; the team will be notified.",
            "{version:?}"
        );
        let shown = render.shown();
        let [
            Shown::Form {
                message,
                schema,
                problem: None,
            },
        ] = shown.as_slice()
        else {
            panic!("one form: {shown:?}");
        };
        assert!(message.starts_with("Deploy the current branch."));
        // MCP's titled single-select, read as titled options.
        assert_eq!(
            schema["properties"]["env"]["oneOf"],
            json!([{"const": "staging", "title": "Staging"}, {"const": "production", "title": "Production"}]),
            "{version:?}"
        );
    }
}

#[test]
fn an_invalid_answer_goes_back_to_the_user_never_to_the_server() {
    for version in VERSIONS {
        let render = Scripted::forms([
            FormAnswer::Accept(content(json!({"env": "staging", "replicas": 40}))),
            FormAnswer::Accept(content(json!({"env": "staging", "replicas": 4}))),
        ]);
        let result = call_deploy(
            &client(ElicitationCapabilities::form_only(), &render),
            version,
        );
        assert_eq!(
            text(&result),
            "Deploying `main` to staging with 4 replicas.",
            "{version:?}"
        );
        // Shown twice, the second time with the problem; had the invalid
        // answer reached the server, it would have asked a third time.
        let problems = render.problems();
        assert_eq!(problems.len(), 2, "{version:?}: {problems:?}");
        assert_eq!(problems[0], None);
        assert!(
            problems[1]
                .as_deref()
                .is_some_and(|p| p.contains("`replicas` must be at most 16, got 40")),
            "{problems:?}"
        );
    }
}

#[test]
fn decline_and_cancel_reach_the_server_as_such() {
    for version in VERSIONS {
        for (answer, expected) in [
            (
                FormAnswer::Decline,
                "The user declined: nothing was deployed.",
            ),
            (FormAnswer::Cancel, "Cancelled: nothing was deployed."),
        ] {
            let render = Scripted::forms([answer]);
            let result = call_deploy(
                &client(ElicitationCapabilities::form_only(), &render),
                version,
            );
            assert_eq!(text(&result), expected, "{version:?}");
        }
    }
}

#[test]
fn the_capability_advertised_is_what_the_guard_enforces() {
    for (modes, expected) in [
        (ElicitationCapabilities::form_only(), json!({"form": {}})),
        (ElicitationCapabilities::url_only(), json!({"url": {}})),
        (
            ElicitationCapabilities::form_and_url(),
            json!({"form": {}, "url": {}}),
        ),
    ] {
        let capability =
            serde_json::to_value(ClientElicitations::new(modes).mcp_capability()).unwrap();
        assert_eq!(capability, expected);
    }
}

/// Connects `client` to a server (the example's; its tool is not called)
/// and runs `f` with the server's peer: the server's requests by hand.
fn with_server<F, R>(client: &ElicitationHandler, f: F) -> R
where
    F: AsyncFnOnce(&Peer<RoleServer>) -> R,
{
    runtime().block_on(async {
        let (server_io, client_io) = tokio::io::duplex(64 * 1024);
        let server =
            tokio::spawn(async move { mcp_server::DeployServer::default().serve(server_io).await });
        let running = client.clone().serve(client_io).await.unwrap();
        let server = server.await.unwrap().unwrap();
        let value = f(server.peer()).await;
        running.cancel().await.unwrap();
        server.cancel().await.unwrap();
        value
    })
}

/// Sends `request` as a raw `elicitation/create` and returns the client's
/// error code and message, or its result.
async fn send_raw(peer: &Peer<RoleServer>, params: Value) -> Result<Value, (i32, String)> {
    let request =
        ServerRequest::CustomRequest(CustomRequest::new("elicitation/create", Some(params)));
    match peer.send_request(request).await {
        Ok(result) => Ok(serde_json::to_value(result).unwrap()),
        Err(rmcp::ServiceError::McpError(error)) => Err((error.code.0, error.message.into())),
        Err(other) => panic!("{other:?}"),
    }
}

#[test]
fn a_mode_not_advertised_is_refused_with_invalid_params() {
    let url = json!({"mode": "url", "message": "Sign in", "elicitationId": "x1",
                     "url": "https://mcp.example.com/sign-in"});
    let form = json!({"mode": "form", "message": "Name?", "requestedSchema":
                      {"type": "object", "properties": {"name": {"type": "string"}}}});
    let unknown = json!({"mode": "telepathy", "message": "Think of a number"});
    for (modes, params) in [
        (ElicitationCapabilities::form_only(), url),
        (ElicitationCapabilities::url_only(), form),
        (ElicitationCapabilities::form_and_url(), unknown),
    ] {
        let render = Scripted::default();
        let client = client(modes, &render);
        let refused = with_server(&client, async |peer| send_raw(peer, params.clone()).await);
        let Err((code, message)) = refused else {
            panic!("refused: {refused:?}");
        };
        assert_eq!(code, -32602, "{message}");
        assert!(message.contains("mode"), "{message}");
        assert!(render.shown().is_empty(), "{:?}", render.shown());
    }
}

#[test]
fn a_schema_that_is_not_a_flat_form_is_refused_with_invalid_params() {
    let nested = json!({"mode": "form", "message": "Address?", "requestedSchema": {
        "type": "object",
        "properties": {"address": {"type": "object", "properties": {"street": {"type": "string"}}}}
    }});
    let render = Scripted::default();
    let client = client(ElicitationCapabilities::form_only(), &render);
    let refused = with_server(&client, async |peer| send_raw(peer, nested.clone()).await);
    let Err((code, message)) = refused else {
        panic!("refused: {refused:?}, shown {:?}", render.shown());
    };
    assert_eq!(code, -32602, "{message}");
    assert!(message.contains("Invalid params"), "{message}");
    assert!(message.contains("address"), "names the property: {message}");
    assert!(render.shown().is_empty());
}

/// The one rule for a form a client cannot render, on the MCP host's side
/// (`protocol::client`'s guard; `acp_sdk.rs` checks ACP's): refused with
/// `-32602`, `data.notRenderable` saying why, before the renderer is
/// called.
#[test]
fn a_form_it_cannot_render_is_refused_before_the_renderer_sees_it() {
    let colour = json!({"mode": "form", "message": "Pick a colour", "requestedSchema": {
        "type": "object",
        "properties": {"name": {"type": "string"}, "colour": {"type": "_color"}}
    }});
    let render = Scripted::forms([FormAnswer::Accept(content(json!({"name": "Ada"})))]);
    let client = client(ElicitationCapabilities::form_only(), &render);
    let refused = with_server(&client, async |peer| {
        let request = ServerRequest::CustomRequest(CustomRequest::new(
            "elicitation/create",
            Some(colour.clone()),
        ));
        peer.send_request(request).await
    });
    let Err(rmcp::ServiceError::McpError(error)) = refused else {
        panic!("not refused: {refused:?}");
    };
    crate::common::assert_refused_as_unrenderable(
        error.code.0.into(),
        &error.message,
        error.data.clone(),
    );
    assert!(render.shown().is_empty(), "{:?}", render.shown());
}

#[test]
fn the_legacy_enum_names_are_read_as_titles() {
    let legacy = json!({"mode": "form", "message": "Colour?", "requestedSchema": {
        "type": "object",
        "properties": {"colour": {"type": "string", "enum": ["r", "g"], "enumNames": ["Red", "Green"]}},
        "required": ["colour"]
    }});
    let render = Scripted::forms([FormAnswer::Accept(content(json!({"colour": "g"})))]);
    let client = client(ElicitationCapabilities::form_only(), &render);
    let answered = with_server(&client, async |peer| send_raw(peer, legacy.clone()).await);
    assert_eq!(
        answered.unwrap(),
        json!({"action": "accept", "content": {"colour": "g"}})
    );
    let shown = render.shown();
    let [Shown::Form { schema, .. }] = shown.as_slice() else {
        panic!("{shown:?}");
    };
    assert_eq!(
        schema["properties"]["colour"]["oneOf"],
        json!([{"const": "r", "title": "Red"}, {"const": "g", "title": "Green"}])
    );
}

#[test]
fn a_url_is_shown_whole_consented_to_then_its_completion_reaches_the_host() {
    let render = Scripted::urls([UrlAnswer::Consent]);
    let completed = Arc::new(Mutex::new(Vec::<ElicitationId>::new()));
    let seen = completed.clone();
    let state = ClientElicitations::new(ElicitationCapabilities::form_and_url());
    let client = state
        .handler("elicit-test-host", render.clone())
        .on_complete(move |id| seen.lock().unwrap().push(id.clone()));
    let elicitations = ServerElicitations::new();
    let consented = with_server(&client, async |peer| {
        let elicitor = elicitations.elicitor(peer);
        let outcome = elicitor.elicit_url(connect()).await.unwrap();
        elicitor.complete(&"gh-42".into(), None).await.unwrap();
        // The notification is sent; give the client's task a moment to
        // read it (bounded).
        for _ in 0..100 {
            if !state.is_pending(&"gh-42".into()) {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        outcome
    });
    assert!(
        matches!(
            consented,
            elicit_core::protocol::agent::UrlOutcome::Consented(_)
        ),
        "{consented:?}"
    );
    assert_eq!(
        render.shown(),
        [Shown::Url {
            url: "https://mcp.example.com/connect?elicitation=gh-42".into(),
            host: Some("mcp.example.com".into()),
        }]
    );
    assert_eq!(*completed.lock().unwrap(), [ElicitationId::from("gh-42")]);
}

/// A stateless server's tool that needs a URL first: `-32042` listing it
/// for the first `needs` calls, then done.
#[derive(Clone, Default)]
struct NeedsUrl {
    calls: Arc<Mutex<usize>>,
    needs: usize,
}

impl ServerHandler for NeedsUrl {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn call_tool(
        &self,
        _request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let mut calls = self.calls.lock().unwrap();
        *calls += 1;
        if *calls <= self.needs {
            return Err(ErrorData::new(
                ErrorCode(-32042),
                "URL elicitation required",
                Some(json!({"elicitations": [{
                    "mode": "url", "elicitationId": "pay-1",
                    "url": "https://pay.example.com/checkout/1",
                    "message": "Authorize the payment."
                }]})),
            ));
        }
        Ok(CallToolResult::success(vec![ContentBlock::text("paid")]).into())
    }
}

fn call_needs_url(
    client: &ElicitationHandler,
    needs: usize,
) -> (Result<CallToolResult, rmcp::ServiceError>, usize) {
    runtime().block_on(async {
        let server = NeedsUrl {
            needs,
            ..NeedsUrl::default()
        };
        let calls = server.calls.clone();
        let (server_io, client_io) = tokio::io::duplex(64 * 1024);
        let serving = tokio::spawn(async move {
            let running = server.serve(server_io).await.unwrap();
            running.waiting().await.unwrap();
        });
        let running = connect_at(client, client_io, Version::Legacy).await;
        let result = client
            .call_tool(&running, CallToolRequestParams::new("pay"))
            .await;
        running.cancel().await.unwrap();
        serving.await.unwrap();
        let calls = *calls.lock().unwrap();
        (result, calls)
    })
}

#[test]
fn url_elicitation_required_is_shown_consented_to_and_the_call_retried() {
    let page = Shown::Url {
        url: "https://pay.example.com/checkout/1".into(),
        host: Some("pay.example.com".into()),
    };
    let render = Scripted::urls([UrlAnswer::Consent]);
    let (result, calls) =
        call_needs_url(&client(ElicitationCapabilities::form_and_url(), &render), 1);
    assert_eq!(text(&result.unwrap()), "paid");
    assert_eq!(calls, 2);
    assert_eq!(render.shown(), std::slice::from_ref(&page));

    // Listed again by the retried call (the user had not finished): shown
    // again, then retried again.
    let render = Scripted::urls([UrlAnswer::Consent, UrlAnswer::Consent]);
    let (result, calls) =
        call_needs_url(&client(ElicitationCapabilities::form_and_url(), &render), 2);
    assert_eq!(text(&result.unwrap()), "paid");
    assert_eq!(calls, 3);
    assert_eq!(render.shown(), [page.clone(), page]);

    // Declined: not retried, the error as it came.
    let render = Scripted::urls([UrlAnswer::Decline]);
    let (result, calls) =
        call_needs_url(&client(ElicitationCapabilities::form_and_url(), &render), 1);
    let Err(rmcp::ServiceError::McpError(error)) = result else {
        panic!("{result:?}");
    };
    assert_eq!(error.code, ErrorCode(-32042));
    assert_eq!(calls, 1);

    // A server that keeps asking: the retries end, with its error.
    let render = Scripted::urls([UrlAnswer::Consent; 8]);
    let (result, calls) = call_needs_url(
        &client(ElicitationCapabilities::form_and_url(), &render),
        usize::MAX,
    );
    assert!(
        matches!(result, Err(rmcp::ServiceError::McpError(_))),
        "{result:?}"
    );
    assert_eq!(calls, 1 + crate::common::limits::URL_REQUIRED_RETRIES);
}

#[test]
fn an_empty_url_id_of_a_round_is_tracked_by_its_request() {
    // MCP 2026-07-28 rounds may send no id: two such requests in a row are
    // both shown (neither is "already outstanding").
    let render = Scripted::urls([UrlAnswer::Decline, UrlAnswer::Decline]);
    let client = client(ElicitationCapabilities::url_only(), &render);
    let answers = with_server(&client, async |peer| {
        let mut answers = Vec::new();
        for _ in 0..2 {
            let request = ServerRequest::ElicitRequest(rmcp::model::ElicitRequest::new(
                ElicitRequestParams::UrlElicitationParams {
                    meta: None,
                    message: "Sign in".into(),
                    url: "https://mcp.example.com/sign-in".into(),
                    elicitation_id: String::new(),
                },
            ));
            answers.push(serde_json::to_value(peer.send_request(request).await.unwrap()).unwrap());
        }
        answers
    });
    assert_eq!(
        answers,
        [json!({"action": "decline"}), json!({"action": "decline"})]
    );
    assert_eq!(render.shown().len(), 2);
}

/// `python3` on the PATH, or `None` (the test returns) where it is missing
/// and neither `CI` nor `ELICIT_PYTHON_REQUIRED` is set.
fn python3() -> Option<std::path::PathBuf> {
    let found = std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .map(|dir| dir.join("python3"))
        .find(|path| path.is_file());
    match found {
        Some(path) => Some(path),
        None => crate::common::not_installed(
            "ELICIT_PYTHON_REQUIRED",
            "`python3` is not on the PATH: install Python 3",
        ),
    }
}

/// examples/mcp_client.rs with `args`, the user's answers scripted on its
/// stdin: (stdout, stderr), what the tool returned and what the user saw.
fn run_host(args: &[&str], answers: &[&str]) -> (String, String) {
    use std::io::Write;
    use std::process::{Command, Stdio};

    let host = crate::common::examples::built(&[
        "--workspace",
        "--all-features",
        "--example",
        "mcp_client",
    ])
    .join("mcp_client");
    let mut child = Command::new(host)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the host starts");
    let mut stdin = child.stdin.take().unwrap();
    for answer in answers {
        writeln!(stdin, "{answer}").unwrap();
    }
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    let (stdout, stderr) = (
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    );
    assert!(output.status.success(), "{args:?}: {stderr}");
    (stdout, stderr)
}

/// examples/mcp_client.rs against tests/interop/hostile_server.py's
/// `case`, advertising `modes`: (stdout, stderr).
fn host_against_hostile(case: &str, modes: &[&str], answers: &[&str]) -> Option<(String, String)> {
    let python = python3()?;
    let server = crate::mcp_ts::interop_dir().join("hostile_server.py");
    let arguments = json!({"case": case}).to_string();
    let mut args: Vec<&str> = modes.to_vec();
    args.extend(["--tool", "hostile", "--args", &arguments, "--"]);
    let (python, server) = (python.display().to_string(), server.display().to_string());
    args.extend([python.as_str(), server.as_str()]);
    Some(run_host(&args, answers))
}

/// The host example over Streamable HTTP, against the conformance example
/// server (rmcp's Streamable HTTP service): two forms in two rounds, at
/// both versions.
#[test]
fn the_host_example_reaches_a_streamable_http_server_at_both_versions() {
    let (_server, url) = crate::mcp_conformance::start_server();
    for version in ["2025-11-25", "2026-07-28"] {
        let (back, seen) = run_host(
            &[
                "--form",
                "--http",
                &url,
                "--version",
                version,
                "--tool",
                "test_input_required_result_multi_round",
            ],
            &[
                r#"{"action":"accept","content":{"name":"Ada"}}"#,
                r#"{"action":"accept","content":{"color":"blue"}}"#,
            ],
        );
        assert_eq!(back.trim(), "Ada likes blue.", "{version}: {seen}");
        assert!(seen.contains("What is your name?"), "{version}: {seen}");
        assert!(
            seen.contains("What is your favourite colour?"),
            "{version}: {seen}"
        );
    }
}

/// What a hostile server's requests do, with the terminal renderer, each
/// row the behaviour a user sees (stderr) and what goes back (stdout).
#[test]
fn hostile_requests_table() {
    struct Row {
        case: &'static str,
        modes: &'static [&'static str],
        answers: &'static [&'static str],
        /// In what the user saw.
        sees: &'static [&'static str],
        /// Never in what the user saw.
        never: &'static [&'static str],
        /// In what went back to the server.
        back: &'static [&'static str],
    }
    let rows = [
        // Escapes in the message and a title are written out: nothing
        // clears the screen, retitles the window, rings or hides.
        Row {
            case: "escape",
            modes: &["--form"],
            answers: &[r#"{"action":"decline"}"#],
            sees: &[
                "Deploy?⟨U+001B⟩[2J⟨U+001B⟩[H⟨U+001B⟩]0;pwned⟨U+0007⟩ Yes",
                "Go⟨U+001B⟩[8m hidden",
            ],
            never: &["\x1b", "\x07"],
            back: &[r#""action": "decline""#],
        },
        // A right-to-left override, a zero-width space and a line break in a
        // title are written out where they are.
        Row {
            case: "bidi",
            modes: &["--form"],
            answers: &[r#"{"action":"accept","content":{"file":"a"}}"#],
            sees: &[
                "Approve the invoice ⟨U+202E⟩fdp.exe",
                "File⟨U+000A⟩fake: field",
                "invoice⟨U+202E⟩fdp.exe",
                "zero⟨U+200B⟩width",
            ],
            never: &["\u{202e}", "\u{200b}", "\nfake: field"],
            back: &[r#""action": "accept""#, r#""file": "a""#],
        },
        // Not a flat form: refused before the user sees anything.
        Row {
            case: "nested",
            modes: &["--form"],
            answers: &[],
            sees: &[],
            never: &["asks"],
            back: &[r#""code": -32602"#, "address"],
        },
        // 100,000 options: checked in linear time, listed in part, and the
        // last one is a valid answer.
        Row {
            case: "huge_enum",
            modes: &["--form"],
            answers: &[r#"{"action":"accept","content":{"choice":"option-99999"}}"#],
            sees: &["option-0 | option-1", "… and 99980 more"],
            never: &["option-50000"],
            back: &[r#""action": "accept""#, "option-99999"],
        },
        // A lookalike host (a Cyrillic а in apple.com): underlined, named
        // as a look-alike, and refused, so the user can only decline or
        // cancel; nothing is opened or fetched.
        Row {
            case: "lookalike",
            modes: &["--url"],
            answers: &[r#"{"action":"accept"}"#, r#"{"action":"decline"}"#],
            sees: &[
                "mixes writing systems",
                "refused: the host has non-ASCII characters",
                "You can only decline or cancel this request.",
                "Nothing has been opened or fetched.",
            ],
            never: &["opened in your browser"],
            back: &[r#""action": "decline""#],
        },
        // A mode not advertised, and one nobody knows: refused, unseen.
        Row {
            case: "url",
            modes: &["--form"],
            answers: &[],
            sees: &[],
            never: &["asks"],
            back: &[r#""code": -32602"#, "url"],
        },
        Row {
            case: "telepathy",
            modes: &["--form", "--url"],
            answers: &[],
            sees: &[],
            never: &["asks"],
            back: &[r#""code": -32602"#, "telepathy"],
        },
    ];
    for row in rows {
        let Some((back, seen)) = host_against_hostile(row.case, row.modes, row.answers) else {
            return;
        };
        for needle in row.sees {
            assert!(
                seen.contains(needle),
                "{}: the user did not see {needle:?}:\n{seen}",
                row.case
            );
        }
        for needle in row.never {
            assert!(
                !seen.contains(needle),
                "{}: the user saw {needle:?}:\n{seen}",
                row.case
            );
        }
        for needle in row.back {
            assert!(
                back.contains(needle),
                "{}: {needle:?} did not go back:\n{back}",
                row.case
            );
        }
        assert!(
            seen.len() < 64 * 1024,
            "{}: {} bytes shown",
            row.case,
            seen.len()
        );
    }
}

/// The host example against examples/mcp_server.rs (stdio, both versions)
/// and against FastMCP's server: the answer typed, the form asked again on
/// an invalid answer, the result printed.
#[test]
fn the_host_example_works_against_the_example_server_and_fastmcp() {
    let examples = crate::common::examples::built(&[
        "--workspace",
        "--all-features",
        "--example",
        "mcp_server",
    ]);
    let server = examples.join("mcp_server").display().to_string();
    for version in ["2025-11-25", "2026-07-28"] {
        let (back, seen) = run_host(
            &["--form", "--version", version, "--", &server],
            &[
                r#"{"action":"accept","content":{"env":"staging","replicas":50}}"#,
                r#"{"action":"accept","content":{"env":"staging","replicas":5}}"#,
            ],
        );
        assert_eq!(
            back.trim(),
            "Deploying `main` to staging with 5 replicas.",
            "{version}: {seen}"
        );
        assert!(
            seen.contains(
                "rejected, not sent: invalid form content: `replicas` must be at most 16, got 50"
            ),
            "{version}: {seen}"
        );
    }
    let Some(python) = crate::mcp_client_interop::python() else {
        return;
    };
    let fastmcp = crate::mcp_ts::interop_dir().join("fastmcp_server.py");
    let (back, seen) = run_host(
        &[
            "--form",
            "--tool",
            "deploy",
            "--",
            &python.display().to_string(),
            &fastmcp.display().to_string(),
        ],
        &[r#"{"action":"accept","content":{"env":"production","replicas":3}}"#],
    );
    assert_eq!(back.trim(), "deployed production x3", "{seen}");
    assert!(seen.contains("Deploy where?"), "{seen}");
}
