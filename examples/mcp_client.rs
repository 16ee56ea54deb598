//! An MCP host on rmcp's client: launches an MCP server (stdio) or connects
//! to one by URL (Streamable HTTP), lists its tools, calls one, and renders
//! every elicitation in the terminal.
//! Elicitation is `elicit_core::mcp::client::ElicitationHandler`: the guard
//! (`-32602` for a mode this host did not advertise or a malformed
//! request), the terminal renderer on a thread of its own, validation
//! before sending, the URL's review before consent, `-32042` (URL
//! elicitation required: consent, then the call is retried), and MCP
//! 2026-07-28's input-required rounds.
//!
//! ```sh
//! cargo run --features rmcp --example mcp_client -- --form   # examples/mcp_server.rs, 2025-11-25
//! cargo run --features rmcp --example mcp_client -- --form --version 2026-07-28
//! cargo run --features rmcp --example mcp_client -- --form --url -- python3 server.py  # any stdio server
//! cargo run --features rmcp --example mcp_client -- --form --http http://127.0.0.1:8000/mcp
//! ```
//!
//! `--http URL` speaks Streamable HTTP (rmcp's client on reqwest, built
//! here without TLS: `http` URLs only; a host for `https` turns on
//! reqwest's `rustls`).
//!
//! Without a command after `--`, the server is `examples/mcp_server.rs`,
//! found next to this program (when started by `cargo run`, it is built
//! first). `--tool NAME` calls that tool (default: the first listed) with
//! `--args JSON` (default `{}`).
//!
//! With a terminal on stdin the forms are interactive; otherwise answers
//! are read from stdin as JSON lines, one per elicitation (the format is
//! documented in `elicit_core::terminal`):
//!
//! ```sh
//! printf '%s\n' '{"action":"accept","content":{"env":"staging"}}' \
//!     | cargo run --features rmcp --example mcp_client -- --form
//! ```
//!
//! Stdout carries the tool's result (its text, one line per block, and
//! `isError: true` on a tool error); the form UI and diagnostics go to
//! stderr.

use std::error::Error;
use std::path::PathBuf;

// `cargo` without this program's package variables (building the server).
#[path = "support/nested_cargo.rs"]
mod nested_cargo;

use elicit_core::mcp::client::{ClientElicitations, ElicitationHandler};
use elicit_core::protocol::ElicitationCapabilities;
use elicit_core::terminal::Renderer;
use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, ProtocolVersion};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RoleClient, RunningService};
use rmcp::transport::{IntoTransport, StreamableHttpClientTransport, TokioChildProcess};

const USAGE: &str = "usage: mcp_client [--form] [--url] [--version 2025-11-25|2026-07-28] \
[--tool NAME] [--args JSON] [--http URL | -- COMMAND ARGS..]
  --form      advertise form-mode elicitation
  --url       advertise URL-mode elicitation
  --version   the MCP version to speak (default 2025-11-25)
  --tool      the tool to call (default: the first the server lists)
  --args      the tool's arguments, a JSON object (default {})
  --http      the server's Streamable HTTP endpoint (instead of a command)
  COMMAND     the stdio server to launch (default: examples/mcp_server)";

struct Options {
    form: bool,
    url: bool,
    modern: bool,
    tool: Option<String>,
    args: serde_json::Map<String, serde_json::Value>,
    command: Vec<String>,
    http: Option<String>,
}

fn options() -> Result<Options, Box<dyn Error>> {
    let mut options = Options {
        form: false,
        url: false,
        modern: false,
        tool: None,
        args: serde_json::Map::new(),
        command: Vec::new(),
        http: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--form" => options.form = true,
            "--url" => options.url = true,
            "--version" => match args.next().as_deref() {
                Some("2025-11-25") => options.modern = false,
                Some("2026-07-28") => options.modern = true,
                other => return Err(format!("unknown version {other:?}\n{USAGE}").into()),
            },
            "--tool" => options.tool = Some(args.next().ok_or(USAGE)?),
            "--http" => options.http = Some(args.next().ok_or(USAGE)?),
            "--args" => {
                let text = args.next().ok_or(USAGE)?;
                options.args = serde_json::from_str(&text)
                    .map_err(|e| format!("--args must be a JSON object: {e}"))?;
            }
            "--" => {
                options.command = args.by_ref().collect();
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument `{other}`\n{USAGE}").into()),
        }
    }
    Ok(options)
}

/// The modes to advertise (none: the server sees no elicitation support).
fn modes(options: &Options) -> ElicitationCapabilities {
    match (options.form, options.url) {
        (true, true) => ElicitationCapabilities::form_and_url(),
        (true, false) => ElicitationCapabilities::form_only(),
        (false, true) => ElicitationCapabilities::url_only(),
        (false, false) => ElicitationCapabilities::none(),
    }
}

/// The server to launch: the command given, or the example server next to
/// this program (built first when run by cargo).
fn server_command(options: &Options) -> Result<tokio::process::Command, Box<dyn Error>> {
    if let [program, args @ ..] = options.command.as_slice() {
        let mut command = tokio::process::Command::new(program);
        command.args(args);
        return Ok(command);
    }
    let exe = std::env::current_exe()?;
    let dir = exe.parent().ok_or("no directory for this program")?;
    if std::env::var_os("CARGO").is_some() {
        let status = nested_cargo::command()
            .args([
                "build",
                "--quiet",
                "--features",
                "rmcp",
                "--example",
                "mcp_server",
            ])
            .status()?;
        if !status.success() {
            return Err("building examples/mcp_server failed".into());
        }
    }
    let server: PathBuf = dir.join(format!("mcp_server{}", std::env::consts::EXE_SUFFIX));
    Ok(tokio::process::Command::new(server))
}

/// Connects `handler` on `transport`: `initialize` (2025-11-25), or
/// `server/discover` (2026-07-28).
async fn connect<T, E, A>(
    handler: &ElicitationHandler,
    transport: T,
    modern: bool,
) -> Result<RunningService<RoleClient, ElicitationHandler>, Box<dyn Error>>
where
    T: IntoTransport<RoleClient, E, A>,
    E: Error + Send + Sync + 'static,
{
    Ok(if modern {
        let lifecycle = ClientLifecycleMode::Discover {
            preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        };
        handler
            .clone()
            .serve_with_lifecycle(transport, lifecycle)
            .await?
    } else {
        handler.clone().serve(transport).await?
    })
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn Error>> {
    // The log (feature `tracing`, `elicit_core::trace`): on stderr when
    // `RUST_LOG` is set, e.g. `RUST_LOG=info,rmcp=error,elicit_core=debug`.
    if let Ok(filter) = tracing_subscriber::EnvFilter::try_from_default_env() {
        tracing_subscriber::fmt()
            .with_env_filter(filter)
            .with_writer(std::io::stderr)
            .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
            .init();
    }
    let options = options()?;
    let elicitations = ClientElicitations::new(modes(&options));
    let handler = elicitations.handler("elicit-mcp-host", Renderer::from_stdin());
    let running = match &options.http {
        Some(url) => {
            let transport = StreamableHttpClientTransport::from_uri(url.as_str());
            connect(&handler, transport, options.modern).await?
        }
        None => {
            let transport = TokioChildProcess::new(server_command(&options)?)?;
            connect(&handler, transport, options.modern).await?
        }
    };
    let tools = running.peer().list_tools(None).await?.tools;
    let tool = match &options.tool {
        Some(tool) => tool.clone(),
        None => tools
            .first()
            .ok_or("the server lists no tool")?
            .name
            .to_string(),
    };
    let result = handler
        .call_tool(
            &running,
            CallToolRequestParams::new(tool).with_arguments(options.args.clone()),
        )
        .await?;
    for block in &result.content {
        if let Some(text) = block.as_text() {
            println!("{}", text.text);
        }
    }
    if result.is_error == Some(true) {
        println!("isError: true");
    }
    running.cancel().await?;
    Ok(())
}
