//! An MCP server on rmcp, whole: one tool, `deploy`, that asks the user for a
//! derived form, on MCP 2025-11-25 (an `elicitation/create` request) and on
//! 2026-07-28 (an input-required result, answered by the client's next
//! call), served on stdio or over Streamable HTTP. The README's "An MCP tool
//! on rmcp" is its `deploy`.
//!
//! A user's `src/main.rs` as it is, with these `[dependencies]`
//! (tests/user-crates/rmcp-server builds it from them alone, outside this
//! workspace; the last three are only for Streamable HTTP):
//!
//! ```toml
//! [dependencies]
//! elicit-core = { path = "../elicit/elicit-core", features = ["rmcp"] }
//! rmcp = { version = "3.11", features = ["server", "transport-io", "transport-streamable-http-server"] }
//! tokio = { version = "1", features = ["macros", "rt", "net"] }
//! serde_json = "1"
//! hyper = { version = "1", features = ["server", "http1"] }
//! hyper-util = { version = "0.1", features = ["tokio"] }
//! tower-service = "0.3"
//! ```
//!
//! ```sh
//! cargo run --features rmcp --example rmcp_server                         # stdio
//! cargo run --features rmcp --example rmcp_server -- --http 127.0.0.1:8000  # http://127.0.0.1:8000/mcp
//! ```
//!
//! tests/it/rmcp.rs drives it with rmcp's client both ways at both versions.

// README snippet start
use elicit_core::Elicit;
use elicit_core::mcp::{Asked, RoundsConfig, ask};
use elicit_core::protocol::agent::Outcome;
use rmcp::RoleServer;
use rmcp::model::{CallToolRequestParams, CallToolResponse, CallToolResult};
use rmcp::model::{ContentBlock, ErrorData};
use rmcp::service::RequestContext;

/// Deploy the current branch.
#[derive(Elicit, Debug)]
struct Deploy {
    /// How many instances to run.
    #[elicit(range(min = 1, max = 16), default = 2)]
    replicas: u8,
}

/// The `deploy` tool, on both versions (`ServerHandler::call_tool` below).
async fn deploy(
    context: &RequestContext<RoleServer>,
    request: &CallToolRequestParams,
    rounds: &RoundsConfig,
) -> Result<CallToolResponse, ErrorData> {
    // Runs from the top each round; `answer()` is `None` while the form is
    // asked. An invalid answer is asked again (twice at most) with its errors.
    let asked = ask(context, request, rounds, |r| async move {
        r.form::<Deploy>("deploy", "Replicas?").retry(2).await
    });
    let text = match asked.await? {
        // 2026-07-28: an input-required result; the client calls again.
        Asked::Respond(response) => return Ok(response),
        Asked::Answered(Ok(Outcome::Accepted(d))) => format!("Deploying {} replicas.", d.replicas),
        // Declined or cancelled.
        Asked::Answered(Ok(_)) => "Not deploying.".to_owned(),
        Asked::Answered(Err(error)) => format!("Could not ask: {error}"),
    };
    Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into())
}
// README snippet end

// The server around the tool.
use std::sync::Arc;

use rmcp::model::{
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ServerHandler, ServiceExt};

#[derive(Clone)]
struct Server {
    /// Seals the state between rounds (MCP 2026-07-28).
    rounds: Arc<RoundsConfig>,
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let input = serde_json::json!({"type": "object"});
        let input = Arc::new(input.as_object().cloned().unwrap_or_default());
        let tool = Tool::new("deploy", "Deploys; asks the user how many replicas.", input);
        Ok(ListToolsResult::with_all_items(vec![tool]))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        deploy(&context, &request, &self.rounds).await
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // One process serves every round, so a random key will do (replicas
    // share a keyring: `RoundsConfig::new`).
    let server = Server {
        rounds: Arc::new(RoundsConfig::with_random_key()?),
    };
    let args: Vec<String> = std::env::args().collect();
    if let [_, flag, address] = args.as_slice()
        && flag == "--http"
    {
        return serve_http(server, address).await;
    }
    server
        .serve(rmcp::transport::stdio())
        .await?
        .waiting()
        .await?;
    Ok(())
}

/// Streamable HTTP (one session per client) on hyper's HTTP/1.1 server.
async fn serve_http(server: Server, address: &str) -> Result<(), Box<dyn std::error::Error>> {
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let listener = tokio::net::TcpListener::bind(address).await?;
    println!("listening on http://{}/mcp", listener.local_addr()?);
    loop {
        let (stream, _) = listener.accept().await?;
        let service = service.clone();
        tokio::spawn(async move {
            let call = hyper::service::service_fn(move |request| {
                let mut service = service.clone();
                async move { tower_service::Service::call(&mut service, request).await }
            });
            let io = hyper_util::rt::TokioIo::new(stream);
            let connection = hyper::server::conn::http1::Builder::new().serve_connection(io, call);
            if let Err(error) = connection.await {
                eprintln!("a connection failed: {error}");
            }
        });
    }
}
