//! The ACP demo, end to end: `examples/acp_client.rs` launches
//! `examples/acp_agent.rs` (or the README's `examples/acp_minimal_agent.rs`)
//! as a subprocess, and the two speak
//! newline-delimited JSON-RPC over the child's stdio, through the official
//! SDK. Answers are piped into the client as JSON lines; `--trace` makes it
//! print every line on the wire to stderr, which these tests read to check
//! what was (and was not) sent.
//!
//! The examples are built first with `cargo build --workspace --all-features
//! --example ...` (what `cargo test --workspace --all-features` already
//! built, so usually a no-op) and run from `target/<profile>/examples/`.
//! Everything is local: no network, no terminal.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use elicit_core::protocol::ElicitationCapabilities;
use elicit_core::protocol::client::{ClientConnection, Incoming};

use crate::common::examples::Running;
use crate::common::readme::{code_lines, docs_block, lines, readme_block, snippet};

/// The README's section with the agent of examples/acp_minimal_agent.rs.
const README_AGENT: &str = "## An ACP agent that asks a form";
use serde_json::{Value, json};

/// A safety net against a hung child, not a timing assertion.
const HANG_LIMIT: Duration = Duration::from_secs(120);

/// `target/<profile>/examples`, with the demo examples built.
fn examples_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        crate::common::examples::built(&[
            "--workspace",
            "--all-features",
            "--example",
            "acp_agent",
            "--example",
            "acp_client",
            "--example",
            "form",
            "--example",
            "acp_minimal_agent",
        ])
    })
}

fn example(name: &str) -> PathBuf {
    examples_dir().join(format!("{name}{}", std::env::consts::EXE_SUFFIX))
}

pub(crate) struct Output {
    pub(crate) stdout: String,
    pub(crate) stderr: String,
}

impl Output {
    /// The JSON-RPC lines on the wire: (sent by the client, received by it).
    pub(crate) fn wire(&self) -> (Vec<Value>, Vec<Value>) {
        let parse = |prefix: &str| -> Vec<Value> {
            self.stderr
                .lines()
                .filter_map(|line| line.strip_prefix(prefix))
                .map(|json| serde_json::from_str(json).expect("a traced line is JSON"))
                .collect()
        };
        (parse("acp_client: --> "), parse("acp_client: <-- "))
    }

    /// The `elicitation/create` requests the agent sent.
    fn elicitations(&self) -> Vec<Value> {
        self.wire()
            .1
            .into_iter()
            .filter(|m| m["method"] == "elicitation/create")
            .collect()
    }

    /// The client's responses to them, in order.
    fn answers(&self) -> Vec<Value> {
        let ids: Vec<Value> = self
            .elicitations()
            .iter()
            .map(|m| m["id"].clone())
            .collect();
        self.wire()
            .0
            .into_iter()
            .filter(|m| m.get("method").is_none() && ids.contains(&m["id"]))
            .collect()
    }
}

/// Runs `program args`, feeding `stdin`, and returns what it printed.
fn run(program: &Path, args: &[&str], stdin: &[Value]) -> Output {
    let mut child = Running(
        Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", program.display())),
    );
    let mut input = child.0.stdin.take().expect("piped stdin");
    let lines: String = stdin.iter().map(|v| format!("{v}\n")).collect();
    input
        .write_all(lines.as_bytes())
        .expect("write the answers");
    drop(input);

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
        if let Some(status) = child.0.try_wait().expect("wait for the child") {
            break status;
        }
        assert!(
            started.elapsed() < HANG_LIMIT,
            "{} hung; killed",
            program.display()
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let output = Output {
        stdout: out.join().expect("stdout reader").expect("stdout is UTF-8"),
        stderr: err.join().expect("stderr reader").expect("stderr is UTF-8"),
    };
    assert!(
        status.success(),
        "{} failed ({status})\n--- stdout\n{}\n--- stderr\n{}",
        program.display(),
        output.stdout,
        output.stderr
    );
    output
}

/// The demo client and agent, running: the test reads the client's stderr
/// line by line while it runs (to find the token page's URL and submit the
/// page), then waits for it to exit.
pub(crate) struct Live {
    child: Running,
    lines: std::sync::mpsc::Receiver<String>,
    seen: Vec<String>,
    stdout: std::thread::JoinHandle<String>,
}

impl Live {
    /// Starts the demo client, tracing, on the demo agent, with its
    /// scripted `answers` (stdin is closed after them).
    pub(crate) fn start(modes: &[&str], answers: &[Value]) -> Self {
        Self::start_with(modes, answers, &[])
    }

    /// [`start`](Self::start) with `env` set for the client and the agent
    /// it launches.
    pub(crate) fn start_with(modes: &[&str], answers: &[Value], env: &[(&str, &str)]) -> Self {
        let agent = example("acp_agent");
        let mut child = Running(
            Command::new(example("acp_client"))
                .envs(env.iter().copied())
                .args(["--trace", "--agent"])
                .arg(&agent)
                .args(modes)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("start the demo client"),
        );
        let mut input = child.0.stdin.take().expect("piped stdin");
        let script: String = answers.iter().map(|v| format!("{v}\n")).collect();
        input
            .write_all(script.as_bytes())
            .expect("write the answers");
        drop(input);
        let mut stdout = child.0.stdout.take().expect("piped stdout");
        let stderr = child.0.stderr.take().expect("piped stderr");
        let stdout = std::thread::spawn(move || {
            let mut s = String::new();
            let _ = stdout.read_to_string(&mut s);
            s
        });
        let (send, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            use std::io::BufRead;
            for line in std::io::BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Self {
            child,
            lines,
            seen: Vec::new(),
            stdout,
        }
    }

    /// Waits for a stderr line containing `needle`, and returns it.
    pub(crate) fn wait_for(&mut self, needle: &str) -> String {
        let started = Instant::now();
        loop {
            let left = HANG_LIMIT.saturating_sub(started.elapsed());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if line.contains(needle) {
                        return line;
                    }
                }
                Err(_) => panic!(
                    "no stderr line with {needle:?}; stderr so far:\n{}",
                    self.seen.join("\n")
                ),
            }
        }
    }

    /// The token page's URL, once the client consented to it.
    pub(crate) fn page_url(&mut self) -> String {
        let line = self.wait_for("consent given (scripted: the URL is not opened): ");
        line.rsplit(' ')
            .next()
            .expect("the URL ends the line")
            .to_owned()
    }

    /// Waits for the client to exit successfully; everything it printed.
    pub(crate) fn finish(mut self) -> Output {
        let started = Instant::now();
        let status = loop {
            if let Some(status) = self.child.0.try_wait().expect("wait for the child") {
                break status;
            }
            assert!(
                started.elapsed() < HANG_LIMIT,
                "the demo client hung; killed"
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        // The reader ends with the child's stderr.
        self.seen.extend(self.lines.iter());
        let output = Output {
            stdout: self.stdout.join().expect("stdout reader"),
            stderr: self.seen.join("\n"),
        };
        assert!(
            status.success(),
            "the demo client failed ({status})\n--- stdout\n{}\n--- stderr\n{}",
            output.stdout,
            output.stderr
        );
        output
    }
}

/// The demo client, tracing, running the demo agent.
fn client(modes: &[&str], answers: &[Value]) -> Output {
    client_of("acp_agent", modes, answers)
}

/// The demo client, tracing, running the example `agent`.
fn client_of(agent: &str, modes: &[&str], answers: &[Value]) -> Output {
    let agent = example(agent);
    let agent = agent.to_str().expect("a UTF-8 path");
    let mut args = vec!["--trace", "--agent", agent];
    args.extend_from_slice(modes);
    run(&example("acp_client"), &args, answers)
}

fn assert_has(haystack: &str, needle: &str, what: &str) {
    assert!(
        haystack.contains(needle),
        "{what} should contain {needle:?}:\n{haystack}"
    );
}

fn assert_lacks(haystack: &str, needle: &str, what: &str) {
    assert!(
        !haystack.contains(needle),
        "{what} should not contain {needle:?}:\n{haystack}"
    );
}

/// No form request ever asked for anything that looks like a credential.
fn assert_no_credential_fields(output: &Output) {
    for request in output.elicitations() {
        if request["params"]["mode"] == "form" {
            // What a client built on elicit shows its user as credential-like.
            let mut client = ClientConnection::new(Some(ElicitationCapabilities::form_only()));
            match client.receive_value(request["params"].clone()) {
                Ok(Incoming::Form(form)) => assert!(
                    form.credential_like_fields().is_empty(),
                    "a form asked for {:?}: {request}",
                    form.credential_like_fields()
                ),
                other => panic!("not a form a client reads: {other:?}: {request}"),
            }
        }
    }
}

/// A deploy token only this test knows: it must appear nowhere on the wire
/// or in any log.
const TOKEN: &str = "dt-7Gq2-secret-for-the-trace-test";

#[test]
fn accept_after_an_invalid_answer_then_the_token_on_the_agents_page() {
    use crate::common::http::Req;

    let mut live = Live::start(
        &["--form", "--url"],
        &[
            // Breaks two rules: rejected by the client before sending.
            json!({"action": "accept", "content": {"env": "prod", "replicas": 40}}),
            json!({"action": "accept", "content": {
                "service": "api", "env": "production", "replicas": 3,
                "regions": ["eu-west", "us-east"], "notify": false,
                "report_to": "ops@example.com"
            }}),
            // Consent to open the token page (never opened in scripted mode:
            // the test plays the browser).
            json!({"action": "accept"}),
        ],
    );
    let url = live.page_url();
    let rest = url.strip_prefix("http://").expect("a loopback http URL");
    let (authority, path) = rest.split_at(rest.find('/').expect("a path"));
    let addr: std::net::SocketAddr = authority.parse().expect("127.0.0.1:port");
    assert!(addr.ip().is_loopback(), "{url}");
    let page = Req::get(path).send(addr);
    assert_eq!(page.status, 200, "{}", page.body);
    assert_has(&page.body, "Paste a deploy token for `api`", "the page");
    let cookie = page.cookie().expect("a binding cookie");
    let csrf = page.csrf().expect("a CSRF token");
    // A token that breaks the page's pattern: shown again with the error.
    let post = |token: &str| {
        Req::post(path, format!("csrf={csrf}&token={token}"))
            .header("cookie", &cookie)
            .same_origin(addr)
            .send(addr)
    };
    let wrong = post("not-a-deploy-token");
    assert_eq!(wrong.status, 422, "{}", wrong.body);
    assert_has(&wrong.body, "must match", "the page's error");
    assert_lacks(
        &wrong.body,
        "not-a-deploy-token",
        "the page after a rejected secret",
    );
    let done = post(TOKEN);
    assert_eq!(done.status, 200, "{}", done.body);
    assert_has(&done.body, "return to your client", "the done page");
    let output = live.finish();

    assert_has(
        &output.stderr,
        "rejected, not sent: invalid form content: `env` must be one of `staging`, \
         `production`, got `prod`; `replicas` must be at most 16, got 40",
        "the client's report",
    );
    assert_has(
        &output.stdout,
        "Got it: deploy `api` to production with 3 replicas in eu-west, us-east; no team \
         notification; the report goes to ops@example.com.",
        "the agent's reply",
    );
    assert_has(
        &output.stdout,
        "Token received. Deploying `api` now.",
        "the agent's reply",
    );
    assert_has(
        &output.stdout,
        "[tool call deploy-1: completed]",
        "the tool call",
    );

    // Two requests: the form, in declaration order and scoped to the tool
    // call, then the token page in URL mode.
    let requests = output.elicitations();
    assert_eq!(requests.len(), 2, "{requests:#?}");
    let form = &requests[0]["params"];
    assert_eq!(form["mode"], "form");
    assert_eq!(form["sessionId"], "sess-1");
    assert_eq!(form["toolCallId"], "deploy-1");
    let names: Vec<&str> = form["requestedSchema"]["properties"]
        .as_object()
        .expect("properties")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        names,
        [
            "service",
            "env",
            "replicas",
            "regions",
            "notify",
            "report_to"
        ]
    );
    let request = &requests[1]["params"];
    assert_eq!(request["mode"], "url");
    assert_eq!(request["url"], url.as_str());
    let id = request["elicitationId"].as_str().expect("an elicitationId");
    assert!(url.ends_with(&format!("/elicit/{id}")), "{url} {id}");

    // Exactly one answer per request: the invalid one was never sent.
    let answers = output.answers();
    assert_eq!(answers.len(), 2, "{answers:#?}");
    assert_eq!(answers[1]["result"], json!({"action": "accept"}));
    let (sent, received) = output.wire();
    assert!(
        sent.iter().all(|m| !m.to_string().contains("\"prod\"")),
        "{sent:#?}"
    );
    // The agent completed it, once the page was submitted, and the client
    // saw it.
    let completions: Vec<&Value> = received
        .iter()
        .filter(|m| m["method"] == "elicitation/complete")
        .collect();
    assert_eq!(completions.len(), 1, "{received:#?}");
    assert_eq!(completions[0]["params"]["elicitationId"], id);
    assert_has(
        &output.stderr,
        &format!("the agent reports `{id}` completed"),
        "the client",
    );
    // The token is nowhere: not on the wire (every ACP line is traced),
    // not in the client's or the agent's stderr, not in stdout.
    assert_lacks(&output.stderr, TOKEN, "the trace and both programs' stderr");
    assert_lacks(&output.stdout, TOKEN, "stdout");
    assert_has(&output.stderr, "deploy token received (", "the agent's log");
    assert_no_credential_fields(&output);
}

#[test]
fn defaults_fill_what_the_answer_leaves_out() {
    let output = client(
        &["--form", "--url"],
        &[
            json!({"action": "accept", "content": {"env": "staging"}}),
            json!({"action": "decline"}),
        ],
    );
    assert_has(
        &output.stdout,
        "Got it: deploy `web` to staging with 2 replicas in eu-west; I'll notify the team.",
        "the agent's reply",
    );
    // Declining the token page is handled as such.
    assert_has(
        &output.stdout,
        "You declined connecting a deploy token, so the deploy is not started.",
        "the agent's reply",
    );
    assert_eq!(output.answers()[1]["result"], json!({"action": "decline"}));
}

#[test]
fn decline_ends_the_task_without_asking_again() {
    let output = client(&["--form", "--url"], &[json!({"action": "decline"})]);
    assert_has(
        &output.stdout,
        "You declined the deployment settings, so I won't deploy",
        "the agent's reply",
    );
    assert_lacks(&output.stdout, "Got it", "the agent's reply");
    assert_has(
        &output.stdout,
        "[tool call deploy-1: failed]",
        "the tool call",
    );
    assert_eq!(output.elicitations().len(), 1);
    assert_eq!(output.answers()[0]["result"], json!({"action": "decline"}));
}

#[test]
fn cancel_pauses_the_task() {
    let output = client(&["--form", "--url"], &[json!({"action": "cancel"})]);
    assert_has(
        &output.stdout,
        "The form was dismissed. Nothing was deployed; the deploy is paused",
        "the agent's reply",
    );
    assert_lacks(&output.stdout, "declined", "the agent's reply");
    assert_eq!(output.elicitations().len(), 1);
    assert_eq!(output.answers()[0]["result"], json!({"action": "cancel"}));
}

#[test]
fn the_end_of_the_answers_cancels() {
    let output = client(&["--form", "--url"], &[]);
    assert_has(
        &output.stderr,
        "no more scripted answers: cancelling",
        "the client",
    );
    assert_has(
        &output.stdout,
        "The form was dismissed",
        "the agent's reply",
    );
}

#[test]
fn form_only_refuses_the_sensitive_step_instead_of_a_form_field() {
    let output = client(
        &["--form"],
        &[
            json!({"action": "accept", "content": {"env": "staging"}}),
            // Would consent to a URL request, were one (wrongly) sent.
            json!({"action": "accept"}),
        ],
    );
    assert_has(
        &output.stdout,
        "Got it: deploy `web` to staging",
        "the agent's reply",
    );
    assert_has(
        &output.stdout,
        "a token must never be typed into a form or this chat. Your client has no secure \
         browser flow (URL mode), so I won't ask for it here.",
        "the agent's reply",
    );
    // One request only, the settings form; no URL request, no second form.
    let requests = output.elicitations();
    assert_eq!(requests.len(), 1, "{requests:#?}");
    assert_eq!(requests[0]["params"]["mode"], "form");
    assert_no_credential_fields(&output);
    assert_lacks(&output.stderr, "scripted answer #2", "the client");
}

#[test]
fn no_modes_degrades_gracefully() {
    let output = client(&[], &[json!({"action": "accept"})]);
    // The client advertised no elicitation capability at all.
    let (sent, _) = output.wire();
    let initialize = sent
        .iter()
        .find(|m| m["method"] == "initialize")
        .expect("initialize");
    assert!(
        initialize["params"]["clientCapabilities"]
            .get("elicitation")
            .is_none_or(Value::is_null),
        "{initialize}"
    );
    assert_has(
        &output.stdout,
        "Your client cannot show forms (it advertised no elicitation form mode), so I can't \
         ask for the deployment settings here, and I won't guess them. Nothing was deployed.",
        "the agent's reply",
    );
    assert!(output.elicitations().is_empty());
    assert_has(&output.stderr, "the turn ended (EndTurn)", "the client");
}

/// `examples/form.rs` on a form with a property of an unknown type: the
/// guard refuses it (`-32602`, exit status 2) and the terminal renderer
/// never shows it, so the scripted answer is never read.
#[test]
fn the_renderer_never_sees_an_unknown_property_type() {
    let schema = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/forms/unknown-type.json");
    let mut child = Command::new(example("form"))
        .arg(&schema)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the form example starts");
    let answer = json!({"action": "accept", "content": {"name": "Ada"}});
    let mut stdin = child.stdin.take().expect("piped stdin");
    // The example may refuse the form and exit before it reads a line: then
    // the pipe is closed, which is what this test expects of it.
    match writeln!(stdin, "{answer}") {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        written => written.expect("write the answer"),
    }
    drop(stdin);
    let output = child.wait_with_output().expect("the form example ends");
    let (stdout, stderr) = (
        String::from_utf8(output.stdout).expect("UTF-8"),
        String::from_utf8(output.stderr).expect("UTF-8"),
    );
    assert_eq!(output.status.code(), Some(2), "{stdout}\n{stderr}");
    let printed: Value = serde_json::from_str(stdout.trim()).expect("one JSON line");
    assert_eq!(printed["error"]["code"], -32602, "{printed}");
    assert_eq!(
        printed["error"]["data"]["notRenderable"][0]["type"], "_color",
        "{printed}"
    );
    assert_has(
        &stderr,
        "the requestedSchema cannot be rendered",
        "the example",
    );
    assert_lacks(&stderr, "scripted answer #1", "the renderer");
    assert_lacks(&stderr, "Favourite colour", "the renderer");
}

#[test]
fn an_answer_only_the_agent_refuses_is_asked_again_over_stdio() {
    // `admin` passes every rule the client sees; the agent's `Service`
    // refuses it, so the form is sent again with the error in its message.
    let output = client(
        &["--form"],
        &[
            json!({"action": "accept", "content": {"service": "admin", "env": "staging"}}),
            json!({"action": "accept", "content": {"service": "api", "env": "staging"}}),
        ],
    );
    let requests = output.elicitations();
    assert_eq!(requests.len(), 2, "{requests:#?}");
    assert_eq!(
        requests[0]["params"]["message"],
        "How should I deploy the current branch?"
    );
    assert_eq!(
        requests[1]["params"]["message"],
        "How should I deploy the current branch?\n\nThe previous answer was not accepted: \
         `service` is not a valid `Service`: `admin` is reserved for the platform; choose \
         another name. Please correct it."
    );
    assert_has(
        &output.stdout,
        "Got it: deploy `api` to staging with 2 replicas in eu-west",
        "the agent's reply",
    );
}

#[test]
fn a_service_another_deploy_holds_is_asked_again_over_stdio() {
    // `billing` passes every rule of the form: the agent's `.check` finds it
    // taken, so the form is sent again with the error on `service`.
    let output = client(
        &["--form"],
        &[
            json!({"action": "accept", "content": {"service": "billing", "env": "staging"}}),
            json!({"action": "accept", "content": {"service": "api", "env": "staging"}}),
        ],
    );
    let requests = output.elicitations();
    assert_eq!(requests.len(), 2, "{requests:#?}");
    assert_eq!(
        requests[1]["params"]["message"],
        "How should I deploy the current branch?\n\nThe previous answer was not accepted: \
         `service` is already taken by another deploy. Please correct it."
    );
    assert_has(
        &output.stdout,
        "Got it: deploy `api` to staging with 2 replicas in eu-west",
        "the agent's reply",
    );
}

// ---------------------------------------------------------------------------
// The README's minimal agent (examples/acp_minimal_agent.rs)

/// The README's complete agent, run by the demo client: the form is asked,
/// answered, read as the typed value, and the turn ends.
#[test]
fn the_readme_agent_asks_and_ends_its_turn() {
    let agent = "acp_minimal_agent";
    let accepted = client_of(
        agent,
        &["--form"],
        &[json!({"action": "accept", "content": {"replicas": 5}})],
    );
    assert_has(&accepted.stdout, "Deploying 5 replicas.", "stdout");
    assert_has(&accepted.stderr, "the turn ended (EndTurn)", "stderr");
    let requests = accepted.elicitations();
    assert_eq!(requests.len(), 1, "{requests:?}");
    assert_eq!(requests[0]["params"]["sessionId"], "session-1");
    assert_eq!(
        requests[0]["params"]["requestedSchema"]["properties"]["replicas"]["maximum"],
        16
    );

    // The default fills what the answer leaves out.
    let defaulted = client_of(
        agent,
        &["--form"],
        &[json!({"action": "accept", "content": {}})],
    );
    assert_has(&defaulted.stdout, "Deploying 2 replicas.", "stdout");

    let declined = client_of(agent, &["--form"], &[json!({"action": "decline"})]);
    assert_has(&declined.stdout, "Not deploying.", "stdout");
    assert_has(&declined.stderr, "the turn ended (EndTurn)", "stderr");
}

/// Without form mode the agent sends nothing and says why.
#[test]
fn the_readme_agent_without_form_mode_says_why() {
    let output = client_of("acp_minimal_agent", &[], &[]);
    assert!(output.elicitations().is_empty(), "{}", output.stderr);
    assert_has(&output.stdout, "I can't ask: ", "stdout");
    assert_has(&output.stderr, "the turn ended (EndTurn)", "stderr");
}

/// The README's agent, the `acp::sdk` module docs' agent and
/// `examples/acp_minimal_agent.rs` are the same code.
#[test]
fn the_readme_the_module_docs_and_the_example_agree() {
    let example = snippet(include_str!("../../examples/acp_minimal_agent.rs"));
    // The README shows the code; the example carries the comments too.
    assert_eq!(
        lines(readme_block(README_AGENT)),
        code_lines(example),
        "README.md and examples/acp_minimal_agent.rs differ"
    );

    // The module docs stop before `main` (elicit-core's doctests have no
    // stdio transport): the rest is the same.
    let example = lines(example);
    let example = &example[..example
        .iter()
        .position(|l| l.starts_with("fn main()"))
        .expect("the example's main")];
    let docs = docs_block(
        include_str!("../../elicit-core/src/acp/sdk/mod.rs"),
        "# Agent",
    );
    assert_eq!(
        lines(&docs),
        example,
        "the acp::sdk docs and the example differ"
    );
}

/// A client's JSON-RPC error is the client's text: its `message` and `data`
/// can hold anything (a stack trace, a dump of the request). The demo agent
/// tells the user a short reason (the code) and writes the detail to its
/// log, never to the conversation. Driven as a client nobody here wrote
/// would: raw JSON-RPC on the agent's stdio, the form answered with an
/// error.
#[test]
fn a_client_error_is_logged_not_pasted_into_the_conversation() {
    use std::io::{BufRead, BufReader};
    use std::sync::mpsc;

    let mut child = Running(
        Command::new(example("acp_agent"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start the demo agent"),
    );
    let mut input = child.0.stdin.take().expect("piped stdin");
    let stdout = child.0.stdout.take().expect("piped stdout");
    let mut stderr = child.0.stderr.take().expect("piped stderr");
    let (lines, received) = mpsc::channel::<Value>();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let Ok(message) = serde_json::from_str(&line) else {
                continue;
            };
            if lines.send(message).is_err() {
                break;
            }
        }
    });
    let mut send = |message: Value| {
        writeln!(input, "{message}").expect("write to the agent");
    };
    let next = || {
        received
            .recv_timeout(Duration::from_secs(60))
            .expect("the agent's next message")
    };
    let details = "renderer crashed at frame 7 (secret-looking dump)";

    send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": 1,
            "clientCapabilities": {"elicitation": {"form": {}}},
        }}),
    );
    while next()["id"] != 1 {}
    send(json!({"jsonrpc": "2.0", "id": 2, "method": "session/new",
        "params": {"cwd": "/", "mcpServers": []}}));
    let session = loop {
        let message = next();
        if message["id"] == 2 {
            break message["result"]["sessionId"].clone();
        }
    };
    send(
        json!({"jsonrpc": "2.0", "id": 3, "method": "session/prompt", "params": {
            "sessionId": session,
            "prompt": [{"type": "text", "text": "deploy"}],
        }}),
    );
    let mut said = String::new();
    let mut asked = 0;
    loop {
        let message = next();
        if message["method"] == "elicitation/create" {
            asked += 1;
            send(json!({"jsonrpc": "2.0", "id": message["id"], "error": {
                "code": -32603,
                "message": format!("Internal error: {details}"),
                "data": {"details": details},
            }}));
        } else if message["method"] == "session/update" {
            if let Some(text) = message["params"]["update"]["content"]["text"].as_str() {
                said.push_str(text);
            }
        } else if message["id"] == 3 {
            break;
        }
    }
    drop(input);
    let mut log = String::new();
    stderr.read_to_string(&mut log).expect("the agent's log");

    assert_eq!(asked, 1, "the form was asked once");
    assert_has(
        &said,
        "I could not get the settings: the client answered the elicitation with JSON-RPC \
         error -32603 (Internal error). Nothing was deployed.",
        "the conversation",
    );
    assert_lacks(&said, "renderer crashed", "the conversation");
    assert_lacks(&said, "details", "the conversation");
    assert_has(&log, "acp_agent: the settings form failed: ", "the log");
    assert_has(&log, details, "the log");
}

/// The compile-fail case `tests/user-crates/acp-ui/fail/acp_elicit_in_handler.rs` is the
/// README's agent with the one mistake the compile error is for: the same
/// imports (so the error a user sees with them is the one pinned there)
/// and the same code up to the `session/prompt` handler's body.
#[test]
fn the_await_in_handler_case_is_the_readme_agent() {
    let readme = lines(readme_block(README_AGENT));
    let case = include_str!("../user-crates/acp-ui/fail/acp_elicit_in_handler.rs");
    let case: Vec<&str> = lines(case)
        .into_iter()
        .filter(|l| !l.starts_with("//"))
        .collect();
    let imports = |code: &[&'static str]| -> Vec<&'static str> {
        code.iter()
            .copied()
            .filter(|l| l.starts_with("use "))
            .collect()
    };
    assert_eq!(imports(&case), imports(&readme), "the imports differ");
    let turn = |code: &[&'static str]| {
        code.iter()
            .position(|l| l.contains("async move |prompt: PromptRequest"))
            .expect("the session/prompt handler")
    };
    assert_eq!(
        case[..turn(&case)],
        readme[..turn(&readme)],
        "the code before the handler's body differs"
    );
    assert!(
        case.iter()
            .any(|l| l.contains("cx.elicit_form::<Deploy>(scope"))
    );
}

/// Issue 25's demo: with `ELICIT_DEMO_OAUTH_ISSUER` the demo agent's
/// second step is a sign-in at the real OpenID provider
/// (`common::oidc`); the client (`--form --url`) is sent the agent's own
/// start page, the user signs in and consents in headless Chromium, and
/// the agent deploys. No code, token or provider address is in any ACP
/// message.
#[test]
fn the_demo_signs_in_at_a_local_provider() {
    use crate::common::oidc;

    let Some(installed) = oidc::installed() else {
        return;
    };
    let Some(browser) = crate::browser::Browser::start() else {
        return;
    };
    let provider = oidc::start(&installed, "elicit-demo", None, &[oidc::PAGES_CALLBACK]);
    let issuer = provider.endpoints.issuer.clone();
    let mut live = Live::start_with(
        &["--form", "--url"],
        &[
            json!({"action": "accept", "content": {
                "service": "api", "env": "production", "replicas": 3,
                "regions": ["eu-west"], "notify": false,
                "report_to": "ops@example.com"
            }}),
            json!({"action": "accept"}),
        ],
        &[("ELICIT_DEMO_OAUTH_ISSUER", &issuer)],
    );
    let url = live.page_url();
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    browser.goto(&url);
    oidc::sign_in_and_consent(&browser, "dana");
    let output = live.finish();
    assert_has(
        &output.stdout,
        "Signed in. Deploying `api` now.",
        "the agent's reply",
    );
    assert_has(&output.stderr, "acp_agent: signed in (", "the agent's log");
    assert_has(&output.stderr, "Sign in to deploy `api`", "the URL request");
    for secret_or_provider in ["code=", "access_token", "127.0.0.2"] {
        assert_lacks(&output.stdout, secret_or_provider, "the client's output");
        assert_lacks(&output.stderr, secret_or_provider, "the trace");
    }
}
