//! A user's MCP host: the `elicit_core::mcp::client` guide's code, whole
//! (tests/it/user_crates.rs checks it is the guide's). Launches the stdio
//! server named on its command line, at the MCP version named next,
//! calls the server's first tool, shows its elicitations in the terminal
//! (answers as JSON lines on stdin when stdin is not a terminal), and
//! prints the tool's text. tests/user-crates/run runs it against the user
//! rmcp server and the whole rmcp server at MCP 2025-11-25 and 2026-07-28.

use std::error::Error;

use elicit_core::mcp::client::ClientElicitations;
use elicit_core::protocol::ElicitationCapabilities;
use elicit_core::terminal::Renderer;
use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, ProtocolVersion};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RoleClient};
use rmcp::transport::IntoTransport;

/// Calls the first tool of the server at the other end of `transport`,
/// at MCP `version`, with `arguments`; every elicitation on the way is
/// shown in the terminal, and the tool's text printed.
async fn host<T, E, A>(
    transport: T,
    version: ProtocolVersion,
    arguments: serde_json::Map<String, serde_json::Value>,
) -> Result<(), Box<dyn Error>>
where
    T: IntoTransport<RoleClient, E, A>,
    E: Error + Send + Sync + 'static,
{
    // The connection's state, and its rmcp handler, rendering in the terminal.
    let elicitations = ClientElicitations::new(ElicitationCapabilities::form_and_url());
    let handler = elicitations.handler("my-host", Renderer::from_stdin());
    let running = if version == ProtocolVersion::V_2026_07_28 {
        // MCP 2026-07-28: `server/discover`, then input-required rounds.
        let lifecycle = ClientLifecycleMode::Discover {
            preferred_versions: vec![version],
        };
        handler
            .clone()
            .serve_with_lifecycle(transport, lifecycle)
            .await?
    } else {
        // MCP 2025-11-25: `initialize`, then `elicitation/create` requests.
        handler.clone().serve(transport).await?
    };
    if let Some(server) = running.peer().peer_info() {
        eprintln!("MCP {}", server.protocol_version);
    }
    let tools = running.peer().list_tools(None).await?.tools;
    let tool = tools
        .first()
        .ok_or("the server lists no tool")?
        .name
        .to_string();
    let params = CallToolRequestParams::new(tool).with_arguments(arguments);
    let result = handler.call_tool(&running, params).await?;
    for block in &result.content {
        if let Some(text) = block.as_text() {
            println!("{}", text.text);
        }
    }
    running.cancel().await?;
    Ok(())
}

/// `host SERVER [2025-11-25|2026-07-28] [ARGUMENTS]`: launches the stdio
/// server `SERVER`, and calls its first tool at that MCP version (default
/// 2025-11-25) with `ARGUMENTS`, a JSON object (default `{}`).
#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn Error>> {
    let usage = "usage: host SERVER [2025-11-25|2026-07-28] [ARGUMENTS]";
    let mut args = std::env::args().skip(1);
    let server = args.next().ok_or(usage)?;
    let version = match args.next().as_deref() {
        None | Some("2025-11-25") => ProtocolVersion::V_2025_11_25,
        Some("2026-07-28") => ProtocolVersion::V_2026_07_28,
        Some(_) => return Err(usage.into()),
    };
    let arguments = serde_json::from_str(args.next().as_deref().unwrap_or("{}"))?;
    let command = tokio::process::Command::new(server);
    let transport = rmcp::transport::TokioChildProcess::new(command)?;
    host(transport, version, arguments).await
}
