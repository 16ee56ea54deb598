//! MCP servers built on [rmcp](https://docs.rs/rmcp) (feature `rmcp`), with
//! two ways to ask:
//!
//! - **Inside a request's handler**, on MCP 2025-11-25 and 2026-07-28
//!   alike: an [`Ask`], the extractor of a `#[tool]` function (or
//!   [`Ask::tool`], [`Ask::prompt`], [`Ask::resource`] in a hand-written
//!   `call_tool`, `get_prompt`, `read_resource`), whose
//!   [`run`](Ask::run) takes a closure that asks through [`Rounds`]
//!   (`r.form::<T>(key, message)`, `r.url(key, request)`,
//!   `r.secret::<T>(key, message, &pages)`). On 2025-11-25 each question
//!   is an `elicitation/create` request through the flow engine (the
//!   re-ask, the secret page and its completion notification, as
//!   everywhere); on 2026-07-28 the questions are input-required rounds
//!   (SEP-2322) with a sealed `requestState`, for `tools/call`,
//!   `prompts/get` and `resources/read` alike. The client's capabilities
//!   are read per request.
//! - **Outside a request's handler**, from code that holds rmcp's peer
//!   (MCP 2025-11-25 and earlier, since these are requests): an
//!   [`Elicitor`] from the connection's [`ServerElicitations`], with the
//!   ACP SDK's verbs and the same [`ElicitError`]: `elicit_form`,
//!   `elicit_url`, `elicit_secret`, `elicit_oauth`, `complete`.
//!
//! Underneath, for code that drives rmcp itself: a derived form's schema as
//! rmcp's `ElicitationSchema` and rmcp's `ElicitResult` as a typed
//! [`Outcome<T>`] (`TryFrom`), with the [conversion rules](#conversion-rules).
//!
//! ```toml
//! [dependencies]
//! elicit-core = { path = "../elicit/elicit-core", features = ["rmcp"] }
//! # rmcp's server with its macros and its stdio transport, tokio for `main`,
//! # serde and schemars for a tool's arguments and their schema:
//! rmcp = { version = "3.11", features = ["server", "macros", "transport-io"] }
//! tokio = { version = "1", features = ["macros", "rt"] }
//! serde = { version = "1", features = ["derive"] }
//! schemars = "1"
//! ```
//!
//! (elicit-core is not on crates.io yet: the path is to a clone of its
//! repository.)
//!
//! A form's properties reach the client in declaration order on both MCP
//! versions: rmcp sends every message through `serde_json::Value`, so the
//! `rmcp` feature turns on serde_json's `preserve_order` (an
//! insertion-ordered map, `indexmap`, already in rmcp's tree) for your whole
//! build. The repository's CI checks it on the wire with a crate built
//! outside its workspace from these lines and the three Streamable HTTP
//! adds (`tests/user-crates/rmcp-server`).
//!
//! A whole server is the repository's `examples/rmcp_server.rs`: an rmcp
//! server on stdio, or on Streamable HTTP with `--http ADDR`, with a tool,
//! a prompt and a resource that each ask the user before they answer; a
//! user's `src/main.rs` as it is, its header listing the dependencies
//! Streamable HTTP adds to these (`cargo run --example rmcp_server
//! --features rmcp`).
//!
//! # A `#[tool]` function that asks, on MCP 2025-11-25 and 2026-07-28
//!
//! MCP 2026-07-28 removed server-to-client requests: a tool that needs
//! input returns an *input-required* result (its questions under keys, and
//! an opaque `requestState`), and the client calls the tool again with the
//! answers and the state (SEP-2322). rmcp 3.11 speaks both versions; an
//! [`Ask`] asks with one closure on both:
//!
//! - on 2025-11-25 (and earlier) each question is an `elicitation/create`
//!   request, awaited where it is asked, in the same call, and
//!   [`run`](Ask::run) returns the answers ([`Asked::Answered`]);
//! - on 2026-07-28 each round is an input-required result that `run`
//!   hands back to return ([`Asked::Respond`]), and the closure runs again,
//!   from the top, when the client calls back with the answers.
//!
//! The closure only asks: `|r| async move { .. }`, each question awaited;
//! a question gives `Some(answer)` once there is one, or `None` once it is
//! asked in a round that ends the call, which `?` passes on. The tool's own
//! work comes after, on the typed answers.
//!
//! ```
//! use elicit_core::Elicit;
//! use elicit_core::mcp::{Ask, Asked, RoundsConfig, routed};
//! use elicit_core::protocol::agent::Outcome;
//! use rmcp::handler::server::{router::tool::ToolRouter, wrapper::Parameters};
//! use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock, ErrorData};
//! use rmcp::{ServerHandler, schemars::JsonSchema, tool, tool_handler, tool_router};
//!
//! #[derive(Elicit, Debug)]
//! struct Confirm {
//!     /// Go ahead with the deployment?
//!     proceed: bool,
//! }
//!
//! /// What the model passes to the tool.
//! #[derive(serde::Deserialize, JsonSchema)]
//! # #[schemars(crate = "rmcp::schemars")]
//! struct Target {
//!     /// The environment to deploy to.
//!     env: String,
//! }
//!
//! #[derive(Clone)]
//! struct Server {
//!     tool_router: ToolRouter<Self>,
//!     // e.g. `RoundsConfig::with_random_key()?` for a stdio server
//!     rounds: std::sync::Arc<RoundsConfig>,
//! }
//!
//! #[tool_router]
//! impl Server {
//!     /// The same code on MCP 2025-11-25 (`elicitation/create` requests) and
//!     /// 2026-07-28 (input-required rounds).
//!     #[tool(description = "Deploys to an environment, once the user confirms.")]
//!     async fn deploy(
//!         &self,
//!         Parameters(target): Parameters<Target>,
//!         ask: Ask, // anywhere among the extractors
//!     ) -> Result<CallToolResponse, ErrorData> {
//!         // Runs from the top each round; a question is `None` once it is asked
//!         // in a round that ends the call (2026-07-28), and `?` ends the run.
//!         let message = format!("Deploy to {}?", target.env);
//!         let message = message.as_str();
//!         let asked = ask.run(&self.rounds, |r| async move {
//!             r.form::<Confirm>("confirm", message).retry(2).await
//!         });
//!         let answer = match asked.await? {
//!             Asked::Answered(answer) => answer,
//!             // An input-required round (2026-07-28): the client calls again.
//!             Asked::Respond(response) => return Ok(response),
//!         };
//!         // The tool's own work, on the typed answer.
//!         let text = match answer {
//!             Ok(Outcome::Accepted(Confirm { proceed: true })) => "Deploying.".to_owned(),
//!             Ok(_) => "Not deploying.".to_owned(),
//!             Err(error) => {
//!                 // The detail (a client's error text) goes to the log (stderr:
//!                 // stdout is the protocol's); the result says a short reason.
//!                 eprintln!("the elicitation failed: {error:?}");
//!                 format!("Could not ask: {error}")
//!             }
//!         };
//!         Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into())
//!     }
//! }
//!
//! // `routed` reads each request whole before the extractors take its parts.
//! #[tool_handler(router = routed(&self.tool_router))]
//! impl ServerHandler for Server {}
//! ```
//!
//! - **Where `Ask` stands.** rmcp runs a tool's extractors in their order,
//!   and `Parameters<T>` and `JsonObject` *take* the arguments
//!   (`InputResponses` and `RequestState` take theirs). The state is bound
//!   to the arguments, so [`routed`] reads each request whole before any
//!   extractor runs, and `Ask` finds it wherever it stands. A tool router
//!   not wrapped in `routed` (`#[tool_handler]` alone, or
//!   `#[tool_router(server_handler)]`) makes every call of a tool with an
//!   `Ask` fail with `-32603`, the message naming this fix: never a state
//!   bound to less than the request.
//! - **A hand-written `call_tool`** (a server that routes tools itself)
//!   asks the same way with [`Ask::tool(&context, &request)`](Ask::tool),
//!   or the shorthand [`ask(&context, &request, &rounds, |r| ..)`](ask).
//! - **Prompts and resources.** `prompts/get` and `resources/read` ask the
//!   same way. A `#[prompt]` function takes an `Ask<GetPromptResponse>`
//!   and returns a [`PromptReply`] (`Ok(response.into())` for a round,
//!   `Ok(GetPromptResult::new(..).into())` once answered), with
//!   `get_prompt` written as
//!   `routed(&self.prompt_router).get_prompt(self, request, context)` and
//!   `list_prompts` as `routed(&self.prompt_router).list_all()`: rmcp
//!   3.11's `#[prompt_handler]` drops a request's `inputResponses` and
//!   `requestState` (and replaces a `get_prompt` beside it), and none of
//!   its prompt results is a prompt *or* a round. `read_resource` asks with
//!   [`Ask::resource`] (rmcp has no macro for resources), a hand-written
//!   `get_prompt` with [`Ask::prompt`]; [`Asked::Respond`] holds the
//!   `GetPromptResponse` or `ReadResourceResponse` to return.
//!   `examples/rmcp_server.rs` has one of each. A prompt or a resource past
//!   [`RoundsConfig::max_rounds`] ends with `-32600` (they have no error
//!   result).
//! - **Several questions in a round.** Questions awaited before the first
//!   `?` go out in one round on 2026-07-28, each under its key
//!   (`let a = r.form::<A>("a", ..).await; let b = r.form::<B>("b", ..).await;
//!   let (a, b) = (a?, b?);`); on 2025-11-25 they are asked one after the
//!   other. Each gives its typed `Outcome<T>` once answered, every rule
//!   checked again. An invalid answer is asked again under the same key
//!   with the errors in the message, [`.retry(n)`](FormAsk::retry) times at
//!   most (the same re-ask as `elicit_form`'s); decline and cancel are
//!   answers.
//! - **Secrets.** `r.secret::<T>(key, message, &pages).await` (feature
//!   `sensitive`) asks a sensitive form on a page the server serves
//!   ([`sensitive`](crate::sensitive)): URL mode or nothing. On 2025-11-25
//!   it is the flow engine's page, completion notification included. On
//!   2026-07-28 a yes before the page is submitted is asked again ("When
//!   you have submitted the page, accept this to continue"), and the secret
//!   never travels in `requestState`, only the page's id.
//! - **Captures.** The closure may run once per round: capture references
//!   (`let pages = &self.pages;` before it), which `async move` copies.
//! - **`requestState` is attacker-controlled input.** It holds the round,
//!   the attempts and the earlier answers, sealed with rmcp's
//!   `RequestStateCodec` (HMAC-SHA256, a 10-minute TTL:
//!   [limits](crate::reference::limits)), bound to the user
//!   ([`RoundsConfig::principal`], from your server's authentication) and
//!   to the request (the tool's name and a SHA-256 of its arguments, keys
//!   sorted). Tampered, expired, another user's, another request's or
//!   another key's state is refused with one error, `-32602`
//!   `Invalid or expired requestState`, whatever the cause. Only the keys the last
//!   round asked are read from `inputResponses`. The state is signed, not
//!   encrypted: it holds the user's answers, never a secret.
//! - **A state is good for one call.** Each round's state carries a random
//!   id; the call that uses it records it ([`UsedStates`]:
//!   [`MemoryUsedStates`] by default, each id forgotten when its state
//!   expires), so replaying a completed call or an earlier round, or one
//!   state in concurrent calls, is refused with the same error. Several
//!   replicas share a store ([`RoundsConfig::used_states`]; on Redis:
//!   [`redis`](crate::redis)). Answers sent with no state are read as the
//!   first round's and start the re-ask count afresh: such a client is
//!   bounded by its own calls, each costing one validation and keeping
//!   nothing on the server.
//! - **Keys.** [`RoundsConfig::with_random_key`] suits a stdio server (one
//!   process serves every round). Several processes, or a restart that must
//!   accept states sealed before it, share a keyring:
//!   `RoundsConfig::new(RequestStateCodec::new_with_keyring(active, keys)?)`
//!   with 32-byte keys from your secret store. Rotation: add the new key id
//!   to every replica, make it active, drop the old one after the TTL
//!   ([`RoundsConfig`]).
//! - **Rounds are capped** ([`RoundsConfig::max_rounds`], default 8:
//!   rmcp's client gives up after 9, the TypeScript
//!   client after 10); past it the tool ends with a tool error.
//!
//! The MCP conformance suite's elicitation scenarios
//! (`@modelcontextprotocol/conformance`) pass against the repository's
//! `examples/mcp_conformance.rs` (built the same way, over Streamable
//! HTTP), but for two checks elicit fails on purpose: the deprecated
//! `enumNames`, and a sampling request where the client declared no
//! elicitation (BENCHMARKS.md, "MCP conformance";
//! `tests/it/mcp_conformance.rs`). `tests/it/rmcp.rs` runs the example
//! servers' scenarios (accept, invalid then valid, three invalid, decline,
//! cancel, no elicitation capability) with rmcp's client at 2025-11-25 and
//! at 2026-07-28, and refuses each bad state (tampered, expired, another
//! request, another user, another key):
//!
//! ```sh
//! cargo test --test it --features rmcp rmcp::
//! ```
//!
//! # A tool's arguments as the form
//!
//! When the model leaves an argument out, or gives one the tool's rules
//! refuse, the user who knows the answer can give it:
//! [`r.arguments::<T>(key, message)`](Rounds::arguments) reads the
//! model's arguments as the derived form `T` (the tool's input schema is
//! [`input_schema::<T>()`](input_schema), its fields with their rules),
//! and, only where something is missing, refused or
//! [`user_only`](crate::reference::attributes), asks the user a form of
//! those fields alone: the same rules, in declaration order, each refused
//! value in the message with its error, the model's valid values kept. The
//! answer, merged with them (the user's over the model's; what the user was
//! not asked is not read from the answer), is checked whole: the form's
//! rules and its own `check`, then the call's `.check`, which also runs on
//! complete arguments; a refusal of a value the model gave asks that field
//! too. Decline, cancel and answers still refused end the call with a tool
//! result the model reads ("the user declined to give `env`: nothing was
//! done"), never a parse error. It is a question like any other: in the
//! call on 2025-11-25, in rounds on 2026-07-28 (the arguments are bound to
//! the state), in a task. The README's tool and `examples/rmcp_server.rs`'s
//! `deploy` and `release` are written so.
//!
//! Why not rmcp's `Parameters<T>`: it fails the call (`-32602`) on the
//! first missing or refused field, before the tool runs. Complete
//! arguments are read where they are, every rule checked, in about 0.6x
//! the time of `Parameters<T>` and the same rules; [`routed`] copies them
//! once per call (rmcp's own extractors may take them), which costs more
//! than the read (BENCHMARKS.md, "A tool's arguments").
//!
//! # Inside a task (SEP-2663)
//!
//! A `tools/call` the server materializes as a task (rmcp's
//! `TaskManager::spawn`, where the client declared the tasks extension:
//! [`Ask::client_has_tasks`]) returns at once; the task runs on and asks
//! from inside it with [`Ask::in_task`]: the same closure, each question
//! awaited where it is asked, an input request of the task (`tasks/get`
//! shows it as `input_required`, `tasks/update` answers it). The flow
//! engine runs on it as on any request transport: the re-ask (each
//! attempt under a key of its own, `key`, `key#2`, ..: a task refuses a
//! key it used before), the `.check`, the URL review, the secret page (the
//! task waits while the user submits it). `tasks/cancel` ends the question
//! it interrupts with `ElicitError::Request` (`RequestFailure::Cancelled`)
//! and the run with `TaskExit::Cancelled`, so `?` settles the task as
//! cancelled. Who may answer: rmcp's `TaskManager` binds a task to no
//! user, so its id (a random UUID) is what lets a client read it and
//! answer it; a secret page asked in a task is still served only to the
//! user of the `tools/call` that made it ([`RoundsConfig::principal`], on
//! pages that verify users). `examples/rmcp_server.rs`'s `migrate` is one:
//!
//! ```text
//! if ask.client_has_tasks() {
//!     let rounds = Arc::clone(&self.rounds);
//!     let task = self.tasks.spawn(TaskOptions::new(), move |task| Box::pin(async move {
//!         let answer = ask.in_task(task).run(&rounds, questions).await?;
//!         Ok(CallToolResult::success(vec![ContentBlock::text(migrated(answer))]))
//!     }));
//!     return Ok(CallToolResponse::Task(CreateTaskResult::new(task)));
//! }
//! ```
//!
//! # Which regime a call gets, and why
//!
//! | the call | each question is | why |
//! |---|---|---|
//! | MCP 2025-11-25 (or earlier) with a session | an `elicitation/create` request, awaited in the call | the server may send requests on the session |
//! | MCP 2025-11-25 without a session ([`RoundsConfig::without_sessions`]) | a secret page in `-32042`, a form refused (`SendError::NoSession`) | no session to send a request on; `-32042` is that version's way to send the user to a URL |
//! | MCP 2026-07-28 (`tools/call`, `prompts/get`, `resources/read`) | an input-required round: the call ends, the client calls again with the answers and the sealed `requestState` | that version has no server-to-client requests (SEP-2322) |
//! | a task ([`Ask::in_task`]), either version | an input request of the task, answered by `tasks/update`, awaited in the task | the task outlives the call, so it waits where it asks; nothing is sealed (the task holds its state) |
//!
//! The modes are the ones the client declared, read per request on
//! 2026-07-28 and for the call that made a task.
//!
//! # A hand-written `call_tool`
//!
//! A server that routes its tools itself (no `#[tool_router]`) asks the
//! same way in `ServerHandler::call_tool`, with [`ask`] (the shorthand of
//! [`Ask::tool`]`(context, request).run(..)`); `get_prompt` and
//! `read_resource` with [`Ask::prompt`] and [`Ask::resource`]:
//!
//! ```
//! use elicit_core::Elicit;
//! use elicit_core::mcp::{Asked, RoundsConfig, ask};
//! use elicit_core::protocol::agent::Outcome;
//! use rmcp::RoleServer;
//! use rmcp::model::{
//!     CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData,
//! };
//! use rmcp::service::RequestContext;
//!
//! #[derive(Elicit, Debug)]
//! struct Confirm {
//!     /// Go ahead with the deployment?
//!     proceed: bool,
//! }
//!
//! /// `ServerHandler::call_tool`'s body: the same code on MCP 2025-11-25
//! /// (`elicitation/create` requests) and 2026-07-28 (input-required rounds).
//! async fn call_tool(
//!     context: &RequestContext<RoleServer>,
//!     request: &CallToolRequestParams,
//!     rounds: &RoundsConfig, // e.g. `RoundsConfig::with_random_key()?` for a stdio server
//! ) -> Result<CallToolResponse, ErrorData> {
//!     // Runs from the top each round; a question is `None` once it is asked in
//!     // a round that ends the call (2026-07-28), and `?` ends the run.
//!     let asked = ask(context, request, rounds, |r| async move {
//!         r.form::<Confirm>("confirm", "Deploy to production?")
//!             .retry(2)
//!             .await
//!     });
//!     let answer = match asked.await? {
//!         Asked::Answered(answer) => answer,
//!         // An input-required round (2026-07-28): the client calls again.
//!         Asked::Respond(response) => return Ok(response),
//!     };
//!     // The tool's own work, on the typed answer.
//!     let text = match answer {
//!         Ok(Outcome::Accepted(Confirm { proceed: true })) => "Deploying.".to_owned(),
//!         Ok(_) => "Not deploying.".to_owned(),
//!         Err(error) => {
//!             // The detail (a client's error text) goes to the log (stderr:
//!             // stdout is the protocol's); the result says a short reason.
//!             eprintln!("the elicitation failed: {error:?}");
//!             format!("Could not ask: {error}")
//!         }
//!     };
//!     Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into())
//! }
//! ```
//!
//! # Outside a request's handler: the `Elicitor` (MCP 2025-11-25 and earlier)
//!
//! Code that holds rmcp's peer outside a tool call (a notification
//! handler, a background task of the connection) asks through an
//! [`Elicitor`]: keep one [`ServerElicitations`] per connection in your
//! handler (the state of its outstanding URL elicitations: unique ids, each
//! bound to its user, completed once) and ask with
//! `elicitations.elicitor(&peer)`:
//!
//! ```
//! use elicit_core::mcp::{ElicitError, ServerElicitations};
//! use elicit_core::Elicit;
//! use elicit_core::protocol::agent::Outcome;
//! use rmcp::{Peer, RoleServer};
//!
//! #[derive(Elicit, Debug)]
//! struct Confirm {
//!     /// Go ahead with the deployment?
//!     proceed: bool,
//! }
//!
//! /// From code that holds the peer: `confirm(&self.elicitations, &peer).await`,
//! /// with one `ServerElicitations` per connection in your handler.
//! async fn confirm(
//!     elicitations: &ServerElicitations,
//!     peer: &Peer<RoleServer>,
//! ) -> Result<bool, ElicitError> {
//!     // Refused, sending nothing, if the client has no form mode; the answer is
//!     // validated again by `Confirm::from_content`, and an invalid one is asked
//!     // again (twice at most) with the errors in the message.
//!     let elicitor = elicitations.elicitor(peer);
//!     let outcome = elicitor.elicit_form::<Confirm>("Deploy to production?").retry(2).await?;
//!     Ok(matches!(outcome, Outcome::Accepted(Confirm { proceed: true })))
//! }
//! ```
//!
//! Decline and cancel are returned at once, never asked again. Every
//! failure is one [`ElicitError`], the same type as on the ACP SDK:
//! `NotSent` (the mode not advertised, by MCP's rule that an empty
//! `elicitation` capability is form mode; an unsafe URL; a form MCP cannot
//! carry; ...), `Invalid` (still invalid after the retries, with the field
//! errors and the attempt count), or `Request` (what failed, with rmcp's
//! own `ServiceError` inside for the log).
//!
//! [`elicit_secret::<T>(message, &pages)`](Elicitor::elicit_secret) and
//! [`elicit_oauth(message, &pages, &provider)`](Elicitor::elicit_oauth)
//! (features `sensitive`, `oauth`) run a whole page flow, as on the ACP
//! SDK, `.for_user(&user)` binding it to the user your server
//! authenticated.
//! [`elicit_url(UrlRequest::new(message, url).elicitation_id(id))`](Elicitor::elicit_url)
//! (the same [`UrlRequest`] as on the ACP SDK) returns a `UrlOutcome`,
//! whose `Consented` only means the user agreed to open the URL (the URL
//! is checked first; a request marked `.sensitive()` is refused by a client
//! without URL mode, and `.for_user(&user)` binds it);
//! [`complete(&id, Some(&user))`](Elicitor::complete) sends
//! `notifications/elicitation/complete` once your callback says it is done,
//! refused for another user or a second time. (rmcp's peer has an
//! inherent `elicit_url`, which is why the verbs live on the [`Elicitor`].)
//!
//! These calls send requests, so they work on MCP 2025-11-25 and earlier;
//! on a 2026-07-28 session every call is refused as if the mode were not
//! advertised: inside a tool, ask with [`ask`].
//!
//! # Underneath: the conversions
//!
//! For code that drives rmcp itself (not a third way to ask: the flows
//! above use these), `ElicitationSchema`'s `TryFrom` turns `T::schema()`
//! into rmcp's `ElicitationSchema` (the MCP 2025-11-25 shape, property
//! order kept) and [`Outcome<T>`]'s `TryFrom` reads rmcp's `ElicitResult`:
//!
//! ```
//! use elicit_core::Elicit;
//! use elicit_core::protocol::agent::Outcome;
//! use rmcp::model::{ElicitResult, ElicitationAction};
//!
//! #[derive(Elicit, Debug, PartialEq)]
//! #[elicit(rename_all = "lowercase")]
//! enum Strategy { Conservative, Balanced, Aggressive }
//!
//! #[derive(Elicit, Debug, PartialEq)]
//! struct Refactor { strategy: Strategy }
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // The `requestedSchema` of `elicitation/create`, for `peer.create_elicitation(..)`:
//! let schema = rmcp::model::ElicitationSchema::try_from(Refactor::schema())?;
//! let json = serde_json::to_value(&schema)?;
//! assert_eq!(json["properties"]["strategy"]["enum"][1], "balanced");
//!
//! // The client's answer, validated again with `Refactor::from_content`:
//! let result = ElicitResult::new(ElicitationAction::Accept)
//!     .with_content(serde_json::json!({"strategy": "balanced"}));
//! let outcome = Outcome::<Refactor>::try_from(&result)?;
//! assert_eq!(outcome, Outcome::Accepted(Refactor { strategy: Strategy::Balanced }));
//! # Ok(())
//! # }
//! ```
//!
//! rmcp 3.x calls the result type `ElicitResult` (older releases called it
//! `CreateElicitationResult`); it is what `Peer::<RoleServer>::create_elicitation`
//! returns.
//!
//! rmcp's model types bring tokio (no runtime is started), which is why
//! this is a feature. It turns on rmcp's `server` feature
//! (`Peer<RoleServer>`; an rmcp server has it already), its `client`
//! feature (the MCP host's side, [`client`]) and its `request-state`
//! feature (the sealing codec; `hmac`), not its
//! `elicitation` feature: the [`Elicitor`] sends `elicitation/create` through
//! `Peer::send_request` and applies MCP's capability rule itself
//! (the modes named in the client's `elicitation` capability; none named
//! is form), so the `url` crate rmcp's `elicitation` feature
//! brings is not needed.
//!
//! # Conversion rules
//!
//! MCP's restricted schema is ACP's minus a few parts. Each part is either
//! dropped (what is left still describes the same answers, or fewer checks
//! on the client) or refused with a typed [`ConversionError`] (the form would
//! mean something else):
//!
//! | part | rule |
//! |---|---|
//! | property order | **kept** (rmcp keeps the wire order, and the feature turns on serde_json's `preserve_order`: rmcp sends each message through `serde_json::Value`) |
//! | titles, descriptions, lengths, bounds, defaults, `required` of properties | kept |
//! | `format` `email`, `uri`, `date`, `date-time` | kept |
//! | a custom `format` | **refused** ([`ConversionErrorKind::CustomFormat`]): MCP allows only those four, and rmcp's `StringFormat` is a closed enum |
//! | `pattern` | **dropped**: MCP's string schema has none. The client then cannot check it, so a user may submit a value the pattern rejects; nothing unchecked gets through, because reading the answer as an [`Outcome<T>`] validates the content again with `T::from_content`, pattern included, and returns the error (naming the field) for you to ask again. If the client's pre-check matters, send a form without `pattern` |
//! | schema-level `title` and `description` | **dropped**: not in MCP's `requestedSchema`. Say it in the request's `message`, which MCP clients show |
//! | option `description`s (titled single- and multi-selects) | **dropped**: MCP options are `{const, title}`; the titles are kept |
//! | `_meta` inside the schema (form, properties, options) | **dropped**: MCP has no `_meta` there |
//! | `minLength`, `maxLength`, `format` on a single-select | **dropped**: MCP's enum schemas have none; the options already constrain the value |
//! | an unknown property type or multi-select `items` kind | **refused**: MCP has no place for it |
//! | a property name twice (through `flatten`) | **refused** |
//! | a select default that is not an option, multi-select bounds rmcp's builder rejects | **refused** ([`ConversionErrorKind::Rejected`]); [`ElicitationSchema::check`] reports these too |
//!
//! [`dropped`] lists what a conversion drops, e.g. to log it once at startup.
//!
//! Capabilities differ too: for MCP an empty `elicitation` capability object
//! means form mode (ACP reads it as no mode). rmcp's
//! `Peer::<RoleServer>::supported_elicitation_modes` applies MCP's rule.
//!
//! [`Outcome<T>`]: crate::protocol::agent::Outcome
//! [`ConversionError`]: crate::ConversionError
//! [`ConversionErrorKind::CustomFormat`]: crate::ConversionErrorKind::CustomFormat
//! [`ConversionErrorKind::Rejected`]: crate::ConversionErrorKind::Rejected
//! [`ElicitationSchema::check`]: crate::ElicitationSchema::check

mod carrier;
pub mod client;
mod dropped;
mod elicitor;
pub(crate) mod rounds;
mod schema;
mod wire;

/// The same error on every transport: [`flow::ElicitError`](crate::flow::ElicitError).
pub use crate::flow::ElicitError;
/// The same request on every transport: [`protocol::agent::UrlRequest`](crate::protocol::agent::UrlRequest).
pub use crate::protocol::agent::UrlRequest;
pub use dropped::{Dropped, DroppedPart, dropped};
pub use elicitor::{Elicitor, ServerElicitations};
pub use rounds::{
    ArgumentsAsk, Ask, Asked, BadStateId, FormAsk, MemoryUsedStates, PromptReply, RoundResponse,
    Rounds, RoundsConfig, Routed, StateId, TaskAsk, UsedStates, UsedStatesError, ask, input_schema,
    routed,
};
