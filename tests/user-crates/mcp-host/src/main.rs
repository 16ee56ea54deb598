//! A user's MCP host: launches the stdio server named on its command line,
//! calls the server's first tool, shows its elicitations in the terminal
//! (answers as JSON lines on stdin when stdin is not a terminal), and prints
//! the tool's text. tests/user-crates/run runs it against the user rmcp
//! server.

use std::error::Error;

use elicit_core::mcp::client::ClientElicitations;
use elicit_core::protocol::ElicitationCapabilities;
use elicit_core::terminal::Renderer;
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::TokioChildProcess;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn Error>> {
    let server = std::env::args()
        .nth(1)
        .ok_or("usage: user-mcp-host SERVER")?;
    let elicitations = ClientElicitations::new(ElicitationCapabilities::form_only());
    let client = elicitations.handler("user-mcp-host", Renderer::from_stdin());
    let transport = TokioChildProcess::new(tokio::process::Command::new(server))?;
    let running = client.clone().serve(transport).await?;
    let tools = running.peer().list_tools(None).await?.tools;
    let tool = tools.first().ok_or("the server lists no tool")?.name.to_string();
    let result = client
        .call_tool(&running, CallToolRequestParams::new(tool))
        .await?;
    for block in &result.content {
        if let Some(text) = block.as_text() {
            println!("{}", text.text);
        }
    }
    running.cancel().await?;
    Ok(())
}
