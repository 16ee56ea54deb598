//! One call per elicitation flow on the official ACP Rust SDK
//! (`agent-client-protocol` 5.2, feature `acp-sdk`).
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
//! `ConnectionTo<Client>` directly is a compile error that says so
//! ([`ElicitClient`]).
//!
//! A complete agent, but for its `main`, which serves it on stdio:
//! `futures::executor::block_on(serve(agent_client_protocol::Stdio::new()))`
//! (the SDK's `stdio` feature; the whole program is
//! `examples/acp_minimal_agent.rs` in the repository, and the README's "Using
//! it with the ACP SDK"; `tests/it/acp_demo.rs` runs it against the demo
//! client):
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
//!                         Ok(Outcome::Accepted(deploy)) => {
//!                             format!("Deploying {} replicas.", deploy.replicas)
//!                         }
//!                         Ok(_) => "Not deploying.".to_owned(), // declined or cancelled
//!                         Err(ElicitError::NotSent(reason)) => format!("I can't ask: {reason}"),
//!                         Err(error) => {
//!                             // The detail (a client's error text) goes to the log;
//!                             // the user reads a short reason.
//!                             eprintln!("the elicitation failed: {error:?}");
//!                             format!("Something went wrong: {error}")
//!                         }
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
//! # Client
//!
//! [`ClientElicitations`] holds the guard and the URL tracker of one agent
//! connection. Advertise exactly what it was built with, and add its
//! [`handler`](ClientElicitations::handler) to the SDK's client builder: it
//! answers `elicitation/create` (the guard's `-32602`, then your
//! [`Render`](crate::protocol::client::Render)er on its own thread, then the validate-before-send of
//! [`answer`](crate::protocol::client::answer)) and routes
//! `elicitation/complete` to the tracker.
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

mod agent;
mod client;
mod request;

/// The same error on every transport: [`flow::ElicitError`](crate::flow::ElicitError).
pub use crate::flow::ElicitError;
pub use agent::{AgentElicitations, ElicitClient, Elicitor, OffDispatchLoop, prelude};
pub use client::{ClientElicitations, ElicitationHandler};
pub use request::ElicitationRequest;
