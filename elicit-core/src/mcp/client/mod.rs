//! The client side of MCP elicitation, on rmcp's client (an MCP host: an
//! agent app, a CLI, an IDE plugin whose rmcp client shows a server's
//! elicitations to its user): the same engine as ACP's client side
//! ([`protocol::client`](crate::protocol::client)), with rmcp's types at
//! the edges.
//!
//! Its names and its construction are those of ACP's client side
//! (`acp::sdk`): a connection's state, and a handler built from it with a
//! renderer.
//!
//! - [`ClientElicitations`]: one connection's elicitation state: the modes
//!   it advertises and its guard enforces, the server's name, the URL
//!   elicitations it tracks.
//! - [`ElicitationHandler`], built by
//!   [`ClientElicitations::handler`]: a ready rmcp `ClientHandler`. The
//!   guard (`-32602` for a mode it did not advertise, an unknown mode, or a
//!   form it cannot render), any [`Render`](crate::protocol::client::Render)
//!   (the terminal `Renderer`, or yours) on a thread of its own, validation
//!   before sending (an invalid answer goes back to the user, never to the
//!   server), the URL's review before consent (a URL is never opened
//!   without it, never fetched by elicit),
//!   `notifications/elicitation/complete` tracked, and
//!   [`ElicitationHandler::call_tool`], which answers `-32042` (URL
//!   elicitation required) by showing each listed URL for consent, then
//!   retries the call. A host with a `ClientHandler` of its own keeps one
//!   in it and forwards the elicitation methods to it.
//! - [`read_request`]: a request's params in elicit's model, for a host
//!   that drives [`ClientConnection`](crate::protocol::client::ClientConnection)
//!   itself.
//!
//! MCP 2026-07-28's input-required rounds need nothing more: rmcp's client
//! hands each round's elicitations to the same handler, and retries the
//! call with the answers and the state.
//!
//! What is advertised is what the guard enforces
//! ([`ClientElicitations::mcp_capability`]): each mode explicitly
//! (`{"form": {}}`, `{"url": {}}`), never the bare `{}` that MCP reads as
//! form only.
//!
//! MCP's own schema shapes are read, never dropped: titled single-select
//! (`oneOf` of `const`/`title`), titled multi-select (`anyOf`), and the
//! legacy `enumNames` (read as titled options). A server's text reaches
//! the terminal with every control, invisible and direction-changing
//! character written out
//! ([`printable`](crate::protocol::client::printable), for your own
//! renderer too).
//!
//! # A host
//!
//! A host that launches an MCP server on stdio, calls its first tool and
//! shows every elicitation in the terminal, at the MCP version it chooses.
//! Its dependencies, each for what its code uses:
//!
//! ```toml
//! [dependencies]
//! # The MCP host's side, and the terminal renderer (feature `terminal`):
//! elicit-core = { path = "../elicit/elicit-core", features = ["rmcp", "terminal"] }
//! # rmcp's client, and `TokioChildProcess`, which launches the server on stdio:
//! rmcp = { version = "3.11", features = ["client", "transport-child-process"] }
//! # `#[tokio::main]`, and `tokio::process::Command`, the server's command:
//! tokio = { version = "1", features = ["macros", "rt", "process"] }
//! # The tool's arguments, a JSON object:
//! serde_json = "1"
//! ```
//!
//! The version is chosen when the handler is served: rmcp's
//! `.serve(transport)` is the `initialize` handshake, which a server
//! answers with MCP 2025-11-25 (it then sends `elicitation/create`
//! requests); `.serve_with_lifecycle(transport, ClientLifecycleMode::Discover
//! { .. })` is `server/discover` at MCP 2026-07-28 (a tool that needs input
//! then answers with input-required rounds, which rmcp's client answers
//! through the same handler before it calls the tool again). The rest is
//! the same at both versions:
//!
//! ```no_run
//! # #[cfg(feature = "terminal")]
//! # mod guide {
//! use std::error::Error;
//!
//! use elicit_core::mcp::client::ClientElicitations;
//! use elicit_core::protocol::ElicitationCapabilities;
//! use elicit_core::terminal::Renderer;
//! use rmcp::ServiceExt;
//! use rmcp::model::{CallToolRequestParams, ProtocolVersion};
//! use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RoleClient};
//! use rmcp::transport::IntoTransport;
//!
//! /// Calls the first tool of the server at the other end of `transport`,
//! /// at MCP `version`, with `arguments`; every elicitation on the way is
//! /// shown in the terminal, and the tool's text printed.
//! async fn host<T, E, A>(
//!     transport: T,
//!     version: ProtocolVersion,
//!     arguments: serde_json::Map<String, serde_json::Value>,
//! ) -> Result<(), Box<dyn Error>>
//! where
//!     T: IntoTransport<RoleClient, E, A>,
//!     E: Error + Send + Sync + 'static,
//! {
//!     // The connection's state, and its rmcp handler, rendering in the terminal.
//!     let elicitations = ClientElicitations::new(ElicitationCapabilities::form_and_url());
//!     let handler = elicitations.handler("my-host", Renderer::from_stdin());
//!     let running = if version == ProtocolVersion::V_2026_07_28 {
//!         // MCP 2026-07-28: `server/discover`, then input-required rounds.
//!         let lifecycle = ClientLifecycleMode::Discover {
//!             preferred_versions: vec![version],
//!         };
//!         handler
//!             .clone()
//!             .serve_with_lifecycle(transport, lifecycle)
//!             .await?
//!     } else {
//!         // MCP 2025-11-25: `initialize`, then `elicitation/create` requests.
//!         handler.clone().serve(transport).await?
//!     };
//!     if let Some(server) = running.peer().peer_info() {
//!         eprintln!("MCP {}", server.protocol_version);
//!     }
//!     let tools = running.peer().list_tools(None).await?.tools;
//!     let tool = tools
//!         .first()
//!         .ok_or("the server lists no tool")?
//!         .name
//!         .to_string();
//!     let params = CallToolRequestParams::new(tool).with_arguments(arguments);
//!     let result = handler.call_tool(&running, params).await?;
//!     for block in &result.content {
//!         if let Some(text) = block.as_text() {
//!             println!("{}", text.text);
//!         }
//!     }
//!     running.cancel().await?;
//!     Ok(())
//! }
//! # }
//! # fn main() {}
//! ```
//!
//! Its `main` launches the server: rmcp's `TokioChildProcess::new(command)`
//! takes tokio's `Command` (`tokio::process::Command`, tokio's `process`
//! feature), not `std::process::Command`. (Not compiled with these docs,
//! which have no child-process transport: the user crate below builds it.)
//!
//! ```rust,ignore
//! /// `host SERVER [2025-11-25|2026-07-28] [ARGUMENTS]`: launches the stdio
//! /// server `SERVER`, and calls its first tool at that MCP version (default
//! /// 2025-11-25) with `ARGUMENTS`, a JSON object (default `{}`).
//! #[tokio::main(flavor = "current_thread")]
//! async fn main() -> Result<(), Box<dyn Error>> {
//!     let usage = "usage: host SERVER [2025-11-25|2026-07-28] [ARGUMENTS]";
//!     let mut args = std::env::args().skip(1);
//!     let server = args.next().ok_or(usage)?;
//!     let version = match args.next().as_deref() {
//!         None | Some("2025-11-25") => ProtocolVersion::V_2025_11_25,
//!         Some("2026-07-28") => ProtocolVersion::V_2026_07_28,
//!         Some(_) => return Err(usage.into()),
//!     };
//!     let arguments = serde_json::from_str(args.next().as_deref().unwrap_or("{}"))?;
//!     let command = tokio::process::Command::new(server);
//!     let transport = rmcp::transport::TokioChildProcess::new(command)?;
//!     host(transport, version, arguments).await
//! }
//! ```
//!
//! With the dependencies above, the two blocks are a whole `src/main.rs`:
//! the repository's `tests/user-crates/mcp-host`, which its CI builds
//! outside the workspace from these lines alone and runs against the
//! repository's rmcp servers at both versions (`tests/user-crates/run`;
//! `tests/it/user_crates.rs` checks that its code and its
//! `[dependencies]` are these).
//!
//! The repository's `examples/mcp_client.rs` is a whole host: it launches a
//! server (stdio) or reaches one by URL (Streamable HTTP), at either MCP
//! version, and calls a tool (commands: the repository's
//! `examples/README.md`).
//!
//! # Tests
//!
//! Tested against FastMCP, the official Python SDK's low-level server and
//! the official TypeScript SDK's server at the versions each speaks
//! (`tests/it/mcp_client_interop.rs`), and against a hostile server
//! (`hostile_requests_table` in `tests/it/mcp_client.rs`: escapes, bidi
//! overrides, nested schemas, 100,000 options, look-alike hosts, modes not
//! advertised, forms it cannot render):
//! `cargo test --test it --features rmcp mcp_client`.

mod convert;
mod handler;
pub(crate) mod retry;
mod state;

pub use convert::read_request;
pub use handler::ElicitationHandler;
pub use state::ClientElicitations;
