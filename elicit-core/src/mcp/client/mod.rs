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
//! A host's dependencies (the terminal renderer is feature `terminal`;
//! rmcp's `transport-child-process` launches a server on stdio):
//!
//! ```toml
//! [dependencies]
//! elicit-core = { version = "0.1", features = ["rmcp", "terminal"] }
//! rmcp = { version = "3.11", features = ["client", "transport-child-process"] }
//! tokio = { version = "1", features = ["macros", "rt"] }
//! ```
//!
//! Serve an [`ElicitationHandler`] with rmcp, then call tools with its
//! [`call_tool`](ElicitationHandler::call_tool):
//!
//! ```no_run
//! # #[cfg(feature = "terminal")]
//! # mod guide {
//! use elicit_core::mcp::client::ClientElicitations;
//! use elicit_core::protocol::ElicitationCapabilities;
//! use elicit_core::terminal::Renderer;
//! use rmcp::ServiceExt;
//! use rmcp::model::CallToolRequestParams;
//! use rmcp::service::RoleClient;
//! use rmcp::transport::IntoTransport;
//!
//! /// Calls the first tool of the server at the other end of `transport`
//! /// (e.g. rmcp's `TokioChildProcess::new(command)?`, a server it
//! /// launches), every elicitation on the way shown in the terminal.
//! async fn host<T, E, A>(transport: T) -> Result<(), Box<dyn std::error::Error>>
//! where
//!     T: IntoTransport<RoleClient, E, A>,
//!     E: std::error::Error + Send + Sync + 'static,
//! {
//!     let elicitations = ClientElicitations::new(ElicitationCapabilities::form_and_url());
//!     let handler = elicitations.handler("my-host", Renderer::from_stdin());
//!     let running = handler.clone().serve(transport).await?;
//!     let tools = running.peer().list_tools(None).await?.tools;
//!     let tool = tools.first().ok_or("the server lists no tool")?.name.to_string();
//!     let result = handler
//!         .call_tool(&running, CallToolRequestParams::new(tool))
//!         .await?;
//!     println!("{:?}", result.content);
//!     Ok(())
//! }
//! # }
//! # fn main() {}
//! ```
//!
//! The repository's `examples/mcp_client.rs` is a whole host: it launches a
//! server (stdio) or reaches one by URL (Streamable HTTP), at either MCP
//! version, and calls a tool (commands: the repository's
//! `examples/README.md`).
//!
//! Tested against FastMCP, the official Python SDK's low-level server and
//! the official TypeScript SDK's server at the versions each speaks
//! (`tests/it/mcp_client_interop.rs`), and against a hostile server
//! (`hostile_requests_table` in `tests/it/mcp_client.rs`: escapes, bidi
//! overrides, nested schemas, 100,000 options, look-alike hosts, modes not
//! advertised): `cargo test --test it --features rmcp mcp_client`.

mod convert;
mod handler;
mod retry;
mod state;

pub use convert::read_request;
pub use handler::ElicitationHandler;
pub use retry::URL_REQUIRED_RETRIES;
pub use state::ClientElicitations;
