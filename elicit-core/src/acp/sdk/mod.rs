//! One call per elicitation flow on the official ACP Rust SDK
//! (`agent-client-protocol` 5.2, feature `acp-sdk`). No async runtime is
//! added: it runs wherever the SDK runs.
//!
//! ```toml
//! [dependencies]
//! elicit-core = { path = "../elicit/elicit-core", features = ["acp-sdk"] }
//! # The official SDK, with its stdio transport, and an executor for `main`:
//! agent-client-protocol = { version = "5.2", features = ["stdio"] }
//! futures = { version = "0.3", features = ["executor"] }
//! ```
//!
//! # Agent
//!
//! Keep one [`AgentElicitations`] per client connection (it is `Clone`:
//! hand a copy to each handler; no `Mutex` of your own) and tell it the
//! client's capabilities at `initialize`. To ask, start the turn with
//! [`AgentElicitations::spawn`] and call the [`Elicitor`] it gives you:
//! `elicitor.elicit_form::<T>(scope, message).retry(n).await`.
//!
//! The turn must be a task of its own: the SDK reads the client's messages
//! in the loop that runs your handlers, and reads the next message only when
//! a handler returns. A handler that waited for an answer itself would wait
//! forever. [`Elicitor`] exists only inside a task started by
//! [`spawn`](AgentElicitations::spawn), and asking on the SDK's
//! `ConnectionTo<Client>` directly (`cx.elicit_form(..)` in a handler) is a
//! compile error that names the fix ([`ElicitClient`]; the [`prelude`]
//! import brings that trait into scope, so the call finds it instead of
//! failing with "no method named `elicit_form`"). The repository's
//! `tests/user-crates/acp-ui/fail/acp_elicit_in_handler.stderr` is that error, for the
//! agent below with that one mistake. Forgetting
//! [`initialize`](AgentElicitations::initialize) is refused at run time,
//! with an error that says to call it.
//!
//! A complete agent, but for its `main`, which serves it on stdio:
//! `futures::executor::block_on(serve(agent_client_protocol::Stdio::new()))`
//! (the SDK's `stdio` feature). With the dependencies above, this block and
//! that `main` are a whole `src/main.rs`: the repository's
//! `examples/acp_minimal_agent.rs`, which `tests/it/acp_demo.rs` checks is
//! this same code and runs against the demo client. Try it:
//!
//! ```sh
//! cargo build --example acp_minimal_agent
//! cargo run --example acp_client -- --form --agent target/debug/examples/acp_minimal_agent
//! ```
//!
//! ```no_run
//! use agent_client_protocol::v1::ConnectionTo;
//! use agent_client_protocol::v1::schema::{
//!     ContentBlock, ContentChunk, InitializeRequest, InitializeResponse, NewSessionRequest,
//!     NewSessionResponse, PromptRequest, PromptResponse, SessionNotification, SessionUpdate,
//!     StopReason,
//! };
//! use agent_client_protocol::{Agent, Client, ConnectTo, on_receive_request};
//! // AgentElicitations, ElicitError, ElicitationScope, Outcome, Elicit, ...
//! use elicit_core::acp::sdk::prelude::*;
//!
//! /// How to deploy.
//! #[derive(Elicit)]
//! struct Deploy {
//!     /// How many instances to run.
//!     #[elicit(range(min = 1, max = 16), default = 2)]
//!     replicas: u8,
//! }
//!
//! /// Serves one client on `transport` (the example's `main` passes stdio).
//! async fn serve(
//!     transport: impl ConnectTo<Agent> + 'static,
//! ) -> Result<(), agent_client_protocol::Error> {
//!     // One per client connection; every handler gets a clone.
//!     let elicitations = AgentElicitations::new();
//!     let on_initialize = elicitations.clone();
//!     let agent = Agent
//!         .v1()
//!         .name("minimal-agent")
//!         .on_receive_request(
//!             async move |request: InitializeRequest, responder, _cx| {
//!                 // The client's capabilities decide which modes may be sent.
//!                 on_initialize.initialize(&request);
//!                 responder.respond(InitializeResponse::new(request.protocol_version))
//!             },
//!             on_receive_request!(),
//!         )
//!         .on_receive_request(
//!             async move |_: NewSessionRequest, responder, _cx| {
//!                 responder.respond(NewSessionResponse::new("session-1"))
//!             },
//!             on_receive_request!(),
//!         )
//!         .on_receive_request(
//!             async move |prompt: PromptRequest, responder, cx: ConnectionTo<Client>| {
//!                 // The turn waits for the client's answer, so it runs as a task
//!                 // of its own: this handler returns at once, and the turn
//!                 // answers the prompt when it is done.
//!                 elicitations.spawn(&cx, async move |elicitor| {
//!                     let scope = ElicitationScope::session(prompt.session_id.to_string());
//!                     let asked = elicitor.elicit_form::<Deploy>(scope, "How many replicas?");
//!                     let reply = match asked.retry(2).await {
//!                         Ok(Outcome::Accepted(d)) => format!("Deploying {} replicas.", d.replicas),
//!                         Ok(_) => "Not deploying.".to_owned(), // declined or cancelled
//!                         Err(ElicitError::NotSent(reason)) => format!("I can't ask: {reason}"),
//!                         Err(error) => format!("Something went wrong: {error}"),
//!                     };
//!                     let text = ContentChunk::new(ContentBlock::from(format!("{reply}\n")));
//!                     elicitor
//!                         .connection()
//!                         .send_notification(SessionNotification::new(
//!                             prompt.session_id,
//!                             SessionUpdate::AgentMessageChunk(text),
//!                         ))?;
//!                     responder.respond(PromptResponse::new(StopReason::EndTurn))
//!                 })
//!             },
//!             on_receive_request!(),
//!         );
//!     agent.connect_to(transport).await
//! }
//! # fn main() {}
//! ```
//!
//! What an [`Elicitor`] asks with, each call one flow:
//!
//! - [`elicit_form::<T>(scope, message)`](Elicitor::elicit_form) sends only
//!   if the client advertised form mode, reads the answer with
//!   `T::from_content` (every rule checked again), and with
//!   [`.retry(n)`](crate::flow::FormCall::retry) sends the form again, the
//!   errors in the message ([`ContentError::retry_message`](crate::ContentError::retry_message)), when
//!   an accepted answer breaks a rule: `n` more times at most. A decline or
//!   a cancel is returned at once, never asked again.
//! - [`elicit_url(scope, UrlRequest::new(message, url))`](Elicitor::elicit_url)
//!   sends URL mode (the URL is checked first;
//!   [`.elicitation_id(id)`](crate::protocol::agent::UrlRequest::elicitation_id)
//!   and [`.for_user(&user)`](crate::protocol::agent::UrlRequest::for_user)
//!   when you need them; a request marked
//!   [`.sensitive()`](crate::protocol::agent::UrlRequest::sensitive) is
//!   refused without URL mode and never falls back to a form) and returns
//!   [`UrlOutcome::Consented`](crate::protocol::agent::UrlOutcome::Consented)
//!   on accept, which only means consent;
//!   [`complete(&id, user)`](Elicitor::complete) sends
//!   `elicitation/complete` once.
//! - `elicit_secret::<T>(scope, message, &pages)` (feature `sensitive`) and
//!   `elicit_oauth(scope, message, &pages, &provider)` (feature `oauth`) run
//!   a whole page flow: a sensitive form, or an OAuth sign-in, on a page
//!   the agent serves ([`sensitive`](crate::sensitive)). Where the pages
//!   verify users, add `.for_user(&user)`.
//! - [`connection()`](Elicitor::connection) is the SDK's
//!   `ConnectionTo<Client>`, for your own notifications (agent text, tool
//!   calls).
//!
//! Every failure is one [`ElicitError`], the same type as on rmcp
//! ([`mcp`](crate::mcp)).
//!
//! # Client
//!
//! [`ClientElicitations`] holds the guard and the URL tracker of one agent
//! connection. Advertise exactly what it was built with, and add its
//! [`handler`](ClientElicitations::handler) to the SDK's client builder: one
//! handler answers `elicitation/create` (the guard's `-32602` for a mode
//! the client did not advertise, a form it cannot render, or a malformed
//! request, as the MCP host's handler does; then your
//! renderer, any [`Render`](crate::protocol::client::Render), on a thread
//! of its own; then the validate-before-send of
//! [`answer`](crate::protocol::client::answer)) and routes
//! `elicitation/complete` to the URL tracker. The renderer can be the
//! terminal's (feature `terminal`:
//! `elicitations.handler(elicit_core::terminal::Renderer::from_stdin())`,
//! as the repository's demo client `examples/acp_client.rs` does) or your
//! own user interface:
//!
//! ```no_run
//! use agent_client_protocol::Client;
//! use agent_client_protocol::v1::schema::{
//!     ClientCapabilities, ElicitationCapabilities, ElicitationFormCapabilities,
//! };
//! use elicit_core::acp::sdk::ClientElicitations;
//! # use elicit_core::protocol::client::{FormAnswer, FormElicitation, Render, UrlAnswer, UrlElicitation, AnswerError};
//! # use elicit_core::protocol::url::UrlRejection;
//! # struct MyUi;
//! # impl Render for MyUi {
//! #     fn form(&mut self, _: &str, _: &FormElicitation, _: Option<&AnswerError>) -> FormAnswer { FormAnswer::Cancel }
//! #     fn url(&mut self, _: &str, _: &UrlElicitation, _: Option<&UrlRejection>) -> UrlAnswer { UrlAnswer::Cancel }
//! # }
//!
//! let elicitations = ClientElicitations::new(Some(
//!     &ElicitationCapabilities::new().form(ElicitationFormCapabilities::new()),
//! ));
//! let capabilities = ClientCapabilities::new().elicitation(elicitations.acp_capabilities());
//! let client = Client.v1().name("my-client").with_handler(elicitations.handler(MyUi));
//! // ... `client.connect_with(agent, ..)`, sending `capabilities` in `initialize`.
//! # let _ = (client, capabilities);
//! ```
//!
//! # Tests
//!
//! The repository's `tests/it/acp_sdk.rs` runs an agent and a client on the
//! SDK against each other through these calls: accept, decline, cancel, an
//! answer asked again then accepted, retries exhausted, modes not
//! advertised, the guard's `-32602`, sensitive input without URL mode, URL
//! consent and completion. It also shows the hang the task avoids: on one
//! thread, an agent that awaits the answer inside its handler stalls with
//! the client's answer unread, and the same agent through
//! [`spawn`](AgentElicitations::spawn) ends its turn.

mod agent;
mod client;
mod request;

/// The same error on every transport: [`flow::ElicitError`](crate::flow::ElicitError).
pub use crate::flow::ElicitError;
pub use agent::{AgentElicitations, ElicitClient, Elicitor, OffDispatchLoop, prelude};
pub use client::{ClientElicitations, ElicitationHandler};
pub use request::ElicitationRequest;
