//! An ACP client on the official SDK (`agent-client-protocol`) that launches
//! an agent as a subprocess, advertises the elicitation modes given on its
//! command line, sends one prompt, renders every elicitation in the
//! terminal, answers it, and prints the agent's replies.
//!
//! ```sh
//! cargo run --example acp_client -- --form --url   # forms and URL mode
//! cargo run --example acp_client -- --form         # no URL mode: the token step is refused
//! cargo run --example acp_client                   # no elicitation at all
//! ```
//!
//! The agent is `examples/acp_agent.rs`, found next to this program
//! (`target/debug/examples/acp_agent`). When this client was started by
//! `cargo run`, it first runs `cargo build --example acp_agent`, so the agent
//! is built and up to date; otherwise build both with
//! `cargo build --examples`, or pass `--agent PATH`.
//!
//! The two talk newline-delimited JSON-RPC over the child's stdin and
//! stdout. `--trace` prints every line on the wire to stderr:
//! `acp_client: --> {..}` sent to the agent, `acp_client: <-- {..}` received
//! from it, `acp_client: agent stderr: ..` the agent's diagnostics.
//!
//! With a terminal on stdin the forms are interactive; otherwise answers are
//! read from stdin as JSON lines, one per elicitation (the format is
//! documented in `elicit_core::terminal`):
//!
//! ```sh
//! printf '%s\n' '{"action":"accept","content":{"env":"staging"}}' '{"action":"accept"}' \
//!     | cargo run --example acp_client -- --form --url
//! ```
//!
//! Stdout carries the agent's text (and one line per tool-call status);
//! the form UI and diagnostics go to stderr.
//!
//! Elicitation is one handler on the SDK's client builder
//! (`elicit_core::acp::sdk::ClientElicitations::handler`): the guard
//! (`-32602` for a mode this client did not advertise, or a malformed
//! request), the terminal renderer (`elicit_core::terminal`) on a thread of
//! its own, validate-before-send, and `elicitation/complete` routed to the
//! URL tracker.

use std::error::Error;
use std::io::Write as _;
use std::path::{Path, PathBuf};

// `cargo` without this program's package variables (building the agent).
#[path = "support/nested_cargo.rs"]
mod nested_cargo;

use agent_client_protocol::schema::ProtocolVersion;
use agent_client_protocol::v1::ConnectionTo;
use agent_client_protocol::v1::schema::{
    self as acp, ClientCapabilities, ContentBlock, ElicitationCapabilities,
    ElicitationFormCapabilities, ElicitationUrlCapabilities, Implementation, InitializeRequest,
    NewSessionRequest, PromptRequest, SessionNotification, SessionUpdate, TextContent,
};
use agent_client_protocol::{AcpAgent, AcpAgentConfig, Agent, Client, LineDirection};
use elicit_core::acp::sdk::ClientElicitations;
use elicit_core::terminal::Renderer;
use serde_json::Value;

const USAGE: &str = "usage: acp_client [--form] [--url] [--prompt TEXT] [--agent PATH] [--trace]
  --form      advertise form-mode elicitation
  --url       advertise URL-mode elicitation
  --prompt    what to ask the agent (default: \"Deploy the current branch\")
  --agent     the agent executable (default: acp_agent next to this program)
  --trace     print every JSON-RPC line to stderr";

struct Options {
    form: bool,
    url: bool,
    prompt: String,
    agent: Option<PathBuf>,
    trace: bool,
}

fn main() {
    // The log (feature `tracing`, `elicit_core::trace`): on stderr when
    // `RUST_LOG` is set, e.g. `RUST_LOG=info,elicit_core=debug`.
    if let Ok(filter) = tracing_subscriber::EnvFilter::try_from_default_env() {
        tracing_subscriber::fmt()
            .with_env_filter(filter)
            .with_writer(std::io::stderr)
            .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
            .init();
    }
    if let Err(e) = run() {
        eprintln!("acp_client: {e}");
        std::process::exit(1);
    }
}

fn parse_args() -> Result<Options, Box<dyn Error>> {
    let mut options = Options {
        form: false,
        url: false,
        prompt: "Deploy the current branch".to_owned(),
        agent: None,
        trace: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--form" => options.form = true,
            "--url" => options.url = true,
            "--trace" => options.trace = true,
            "--prompt" => options.prompt = args.next().ok_or("--prompt needs a value")?,
            "--agent" => options.agent = Some(args.next().ok_or("--agent needs a value")?.into()),
            "-h" | "--help" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument `{other}`\n{USAGE}").into()),
        }
    }
    Ok(options)
}

fn run() -> Result<(), Box<dyn Error>> {
    let options = parse_args()?;
    let agent_path = match options.agent.clone() {
        Some(path) => path,
        None => locate_agent()?,
    };

    // What this client advertises; `None` omits `elicitation` entirely.
    let capabilities = (options.form || options.url).then(|| {
        let mut c = ElicitationCapabilities::new();
        if options.form {
            c = c.form(ElicitationFormCapabilities::new());
        }
        if options.url {
            c = c.url(ElicitationUrlCapabilities::new());
        }
        c
    });
    // The guard answers exactly what is advertised in `initialize` below.
    let elicitations = ClientElicitations::new(capabilities.as_ref());
    let modes = match (options.form, options.url) {
        (true, true) => "form and url",
        (true, false) => "form only",
        (false, true) => "url only",
        (false, false) => "none (no elicitation capability)",
    };
    eprintln!(
        "acp_client: launching {} (advertising elicitation modes: {modes})",
        agent_path.display()
    );

    let mut agent = AcpAgent::new(AcpAgentConfig::new(&agent_path));
    if options.trace {
        agent = agent.with_debug(|line, direction| match direction {
            LineDirection::Stdin => eprintln!("acp_client: --> {line}"),
            LineDirection::Stdout => eprintln!("acp_client: <-- {line}"),
            LineDirection::Stderr => eprintln!("acp_client: agent stderr: {line}"),
        });
    }

    let on_connect = elicitations.clone();
    let prompt = options.prompt;
    let client = Client
        .v1()
        .name("elicit-demo-client")
        .on_receive_notification(
            async move |notification: SessionNotification, _cx| {
                print_update(&notification.update);
                Ok(())
            },
            agent_client_protocol::on_receive_notification!(),
        )
        .with_handler(
            elicitations
                .handler(Renderer::from_stdin())
                .on_complete(|id| {
                    eprintln!("acp_client: the agent reports `{id}` completed");
                }),
        );

    let run = client.connect_with(agent, async move |cx: ConnectionTo<Agent>| {
        let initialize = cx
            .send_request(
                InitializeRequest::new(ProtocolVersion::V1)
                    .client_capabilities(
                        ClientCapabilities::new().elicitation(on_connect.acp_capabilities()),
                    )
                    .client_info(Implementation::new(
                        "elicit-demo-client",
                        env!("CARGO_PKG_VERSION"),
                    )),
            )
            .block_task()
            .await?;
        let process = agent_path.file_name().map_or_else(
            || agent_path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        // The agent's self-description, and the process we launched: the
        // only identity this client can vouch for.
        let agent = match &initialize.agent_info {
            Some(info) => format!(
                "{} ({} {}, process `{process}`)",
                info.title.as_deref().unwrap_or(&info.name),
                info.name,
                info.version
            ),
            None => format!("the agent process `{process}`"),
        };
        eprintln!("acp_client: connected to {agent}");
        on_connect.set_agent(agent);

        let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
        let session = cx
            .send_request(NewSessionRequest::new(cwd))
            .block_task()
            .await?;
        println!("> {prompt}");
        let response = cx
            .send_request(PromptRequest::new(
                session.session_id,
                vec![ContentBlock::Text(TextContent::new(prompt))],
            ))
            .block_task()
            .await?;
        eprintln!("acp_client: the turn ended ({:?})", response.stop_reason);
        Ok(())
    });
    futures::executor::block_on(run)?;
    Ok(())
}

/// Prints the agent's text, and a line per tool-call status.
fn print_update(update: &SessionUpdate) {
    let mut out = std::io::stdout().lock();
    match update {
        SessionUpdate::AgentMessageChunk(chunk) => {
            if let ContentBlock::Text(text) = &chunk.content {
                let _ = write!(out, "{}", text.text);
            }
        }
        SessionUpdate::ToolCall(call) => {
            let _ = writeln!(
                out,
                "[tool call {}: {} ({})]",
                call.tool_call_id,
                call.title,
                status_name(&call.status)
            );
        }
        SessionUpdate::ToolCallUpdate(update) => {
            if let Some(status) = &update.fields.status {
                let _ = writeln!(
                    out,
                    "[tool call {}: {}]",
                    update.tool_call_id,
                    status_name(status)
                );
            }
        }
        _ => {}
    }
    let _ = out.flush();
}

/// A tool-call status as on the wire (`pending`, `in_progress`, ...).
fn status_name(status: &acp::ToolCallStatus) -> String {
    match serde_json::to_value(status) {
        Ok(Value::String(name)) => name,
        _ => format!("{status:?}"),
    }
}

/// The agent next to this program. Started by `cargo run`, build it first
/// (a no-op when it is up to date), so it is never missing or stale.
fn locate_agent() -> Result<PathBuf, Box<dyn Error>> {
    let exe = std::env::current_exe()?;
    let dir = exe.parent().ok_or("cannot find this program's directory")?;
    let agent = dir.join(format!("acp_agent{}", std::env::consts::EXE_SUFFIX));
    if std::env::var_os("CARGO").is_some() {
        build_agent(dir)?;
    }
    if agent.is_file() {
        Ok(agent)
    } else {
        Err(format!(
            "the agent is not built ({} is missing): run `cargo build --examples`, or pass \
             --agent PATH",
            agent.display()
        )
        .into())
    }
}

fn build_agent(examples_dir: &Path) -> Result<(), Box<dyn Error>> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
    let mut command = nested_cargo::command();
    command
        .args([
            "build",
            "--quiet",
            "--example",
            "acp_agent",
            "--manifest-path",
        ])
        .arg(&manifest);
    // target/<profile>/examples: build the agent with the same profile.
    let profile = examples_dir.parent().and_then(Path::file_name);
    if profile.is_some_and(|p| p == "release") {
        command.arg("--release");
    }
    eprintln!("acp_client: building the agent (cargo build --example acp_agent)");
    let status = command.status()?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("building the agent failed ({status})").into())
    }
}
