//! The protocol around the schema: capabilities, `elicitation/create`
//! requests and responses, URL mode with safe URLs, and the
//! `elicitation/complete` notification.
//!
//! Protocol-agnostic: everything here is serde types and plain state, no
//! transport and no SDK. You put the messages into your JSON-RPC framing
//! (method names [`ELICITATION_CREATE`], [`ELICITATION_COMPLETE`]).
//!
//! - The wire messages ([`ElicitationCapabilities`],
//!   [`CreateElicitationRequest`], [`CreateElicitationResponse`],
//!   [`CompleteElicitationNotification`], [`JsonRpcError`] and their parts),
//!   faithful to the official ACP schema. Unknown modes and actions are kept
//!   raw and never read as known ones ([below](#the-wire-messages)).
//! - [`agent`]: [`AgentConnection`], one per client
//!   connection: builds checked requests, reads typed outcomes, binds URL
//!   elicitations to the verified user and completes them.
//! - [`client`]: [`ClientConnection`], one per agent
//!   connection: the guard for incoming requests (`-32602` for unadvertised
//!   modes), form validation before sending, the completion tracker.
//! - [`url`]: the URL policy and [`UrlReview`], shared by both
//!   sides: the full URL, the host to highlight as a browser shows it
//!   (`[::1]`, not `[0:0:0:0:0:0:0:1]`), warnings (Punycode, mixed
//!   scripts, IP literals, non-https, look-alike hosts, userinfo), and
//!   hosts a browser would not open refused. Nothing here ever fetches a
//!   URL.
//!
//! On the official ACP SDK (`elicit_core::acp::sdk`, feature `acp-sdk`) and
//! on rmcp (`elicit_core::mcp`, feature `rmcp`), one call per flow does all
//! of this for you; this module is what they are built on, for any other
//! transport.
//!
//! # The wire messages
//!
//! serde derives every shape; the field order is fixed and matches the
//! protocol page's examples: scope, `mode`, the URL fields, `message`,
//! `requestedSchema`, `_meta` for requests; `action`, `content`, `_meta` for
//! responses. A request's `requestedSchema` is read from its own text once
//! the `mode` is known, so its properties keep document order, and a key
//! given twice anywhere in a request is refused. Reading is tolerant where
//! the official schema is ("default on error" fields such as `_meta` and
//! `toolCallId` that are malformed read as absent), strict where it is not
//! (a request without `mode`, `message` or a scope is an error).
//!
//! Unknown `mode` and `action` values are kept raw in [`OtherMode`] and
//! [`OtherAction`] and written back unchanged. Neither type can hold a known
//! value, so an unknown mode is never mistaken for form or URL mode and an
//! unknown action never for accept, decline or cancel.
//!
//! # Writing an agent
//!
//! One [`AgentConnection`] per client connection,
//! created from the capabilities the client sent in `initialize` (ACP's
//! rule: `{}` advertises no mode, [`ElicitationCapabilities`]). It refuses
//! what the protocol forbids (a mode the client did not advertise, an unsafe
//! URL, a duplicate `elicitationId`, a completion by another user) with a
//! typed [`SendError`](agent::SendError) that says what to do instead. Every
//! answer has a safe path: the agent never assumes an elicitation succeeds.
//!
//! ```
//! use elicit_core::protocol::agent::{
//!     AgentConnection, SendError, CompletionError, Outcome, UrlOutcome, UrlRequest,
//!     VerifiedUser,
//! };
//! use elicit_core::protocol::{
//!     CreateElicitationResponse, ELICITATION_COMPLETE, ELICITATION_CREATE, ElicitationScope,
//! };
//! use serde_json::json;
//!
//! #[derive(elicit_core::Elicit, Debug, PartialEq)]
//! #[elicit(rename_all = "lowercase")]
//! enum Strategy {
//!     Conservative,
//!     Balanced,
//!     Aggressive,
//! }
//!
//! #[derive(elicit_core::Elicit, Debug, PartialEq)]
//! struct Refactor {
//!     strategy: Strategy,
//! }
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // 1. `initialize`: keep the client's capabilities, one object per connection.
//! let client_capabilities = json!({"elicitation": {"form": {}, "url": {}}});
//! let mut connection = AgentConnection::from_client_capabilities(&client_capabilities);
//!
//! // 2. Form mode: the schema comes from the type.
//! let scope = ElicitationScope::session("sess_abc123");
//! let (request, pending) =
//!     connection.form::<Refactor>(scope.clone(), "How should I approach this refactoring?")?;
//! let outgoing = json!({"jsonrpc": "2.0", "id": 43, "method": ELICITATION_CREATE, "params": request});
//! assert_eq!(outgoing["params"]["requestedSchema"]["required"], json!(["strategy"]));
//!
//! // ... send it; the JSON-RPC `result` comes back:
//! let result = json!({"action": "accept", "content": {"strategy": "balanced"}});
//! let response: CreateElicitationResponse = serde_json::from_value(result)?;
//! match pending.outcome(&response) {
//!     // Validated again here: never trust the client's validation.
//!     Ok(Outcome::Accepted(form)) => assert_eq!(form.strategy, Strategy::Balanced),
//!     // The user said no: fall back to a default, or fail the operation.
//!     Ok(Outcome::Declined) => unreachable!("fall back or fail"),
//!     // The user dismissed it: same, or ask again later.
//!     Ok(Outcome::Cancelled) => unreachable!("fall back, retry later, or fail"),
//!     // An action this crate does not know: a failure, never one of the three.
//!     Ok(Outcome::UnknownAction(other)) => unreachable!("fail: unknown action {}", other.action()),
//!     // Content that breaks the form's rules: ask again or fail.
//!     Err(invalid) => unreachable!("{invalid}"),
//! }
//!
//! // The other paths, as the agent sees them:
//! let (_, pending) = connection.form::<Refactor>(scope.clone(), "Again?")?;
//! assert_eq!(pending.outcome(&CreateElicitationResponse::decline())?, Outcome::Declined);
//! let (_, pending) = connection.form::<Refactor>(scope.clone(), "Again?")?;
//! assert_eq!(pending.outcome(&CreateElicitationResponse::cancel())?, Outcome::Cancelled);
//! let (_, pending) = connection.form::<Refactor>(scope.clone(), "Again?")?;
//! let future: CreateElicitationResponse = serde_json::from_value(json!({"action": "_defer"}))?;
//! assert!(matches!(pending.outcome(&future)?, Outcome::UnknownAction(_)));
//! let (_, pending) = connection.form::<Refactor>(scope.clone(), "Again?")?;
//! let bad: CreateElicitationResponse =
//!     serde_json::from_value(json!({"action": "accept", "content": {"strategy": "yolo"}}))?;
//! let invalid = pending.outcome(&bad).unwrap_err();
//! assert_eq!(
//!     invalid.to_string(),
//!     "invalid form content: `strategy` must be one of `conservative`, `balanced`, \
//!      `aggressive`, got `yolo`"
//! );
//! // A JSON-RPC error response (e.g. -32602) is a failure too: handle it in your
//! // transport and fail or fall back; a form request leaves no state behind.
//!
//! // 3. URL mode, bound to the user *your* authentication verified.
//! let user = VerifiedUser::new("user-42");
//! let (request, pending) = connection.url(
//!     ElicitationScope::request(12),
//!     UrlRequest::new(
//!         "Please authorize access to your repositories.",
//!         "https://agent.example.com/connect?flow=github",
//!     )
//!     .for_user(&user),
//! )?;
//! let id = pending.id().clone();
//! assert_eq!(request.elicitation_id(), Some(&id)); // fresh and unique on this connection
//!
//! // `accept` is consent to open the URL, nothing more.
//! match connection.url_outcome(pending, &CreateElicitationResponse::accept(None))? {
//!     UrlOutcome::Consented(waiting) => assert_eq!(waiting.id(), &id),
//!     UrlOutcome::Declined | UrlOutcome::Cancelled => unreachable!("fall back or fail"),
//!     UrlOutcome::UnknownAction(_) => unreachable!("abandon it and fail"),
//! }
//!
//! // Later your out-of-band callback runs. Someone else finishing the flow
//! // (a phished link) is refused, and the elicitation stays open:
//! let stranger = VerifiedUser::new("user-666");
//! assert!(matches!(
//!     connection.complete(&id, Some(&stranger)),
//!     Err(CompletionError::IdentityMismatch(_))
//! ));
//! let notification = connection.complete(&id, Some(&user))?;
//! let outgoing = json!({"jsonrpc": "2.0", "method": ELICITATION_COMPLETE, "params": notification});
//! assert_eq!(outgoing["params"]["elicitationId"], json!(id.as_str()));
//! // A second completion is refused.
//! assert!(matches!(
//!     connection.complete(&id, Some(&user)),
//!     Err(CompletionError::AlreadyCompleted(_))
//! ));
//!
//! // Declined, cancelled, or failed URL requests end the elicitation:
//! let call = ElicitationScope::tool_call("sess_abc123", "call_7");
//! let url_request = || {
//!     UrlRequest::new("Sign in to the deploy service.", "https://agent.example.com/login")
//!         .for_user(&VerifiedUser::new("user-42"))
//! };
//! let (_, pending) = connection.url(call.clone(), url_request())?;
//! assert_eq!(
//!     connection.url_outcome(pending, &CreateElicitationResponse::cancel())?,
//!     UrlOutcome::Cancelled
//! );
//! let (_, pending) = connection.url(call.clone(), url_request())?;
//! let id = pending.id().clone();
//! // ... the client answered with a JSON-RPC error, or never answered:
//! assert!(connection.abandon(&id));
//! assert!(matches!(connection.complete(&id, None), Err(CompletionError::NotOutstanding(_))));
//!
//! // 4. Secrets only ever go through URL mode. Without it, fail: no form fallback.
//! let mut form_only = AgentConnection::from_client_capabilities(&json!({"elicitation": {"form": {}}}));
//! let error = form_only.url(call, url_request().sensitive()).unwrap_err();
//! assert_eq!(error, SendError::SensitiveInputNeedsUrlMode);
//! println!("{error}"); // "... never fall back to form mode; ..."
//!
//! // Unsafe URLs and unadvertised modes are refused before anything is sent.
//! let unsafe_url = UrlRequest::new("Log in", "http://agent.example.com/login?password=hunter2");
//! assert!(matches!(connection.url(scope.clone(), unsafe_url), Err(SendError::UnsafeUrl(_))));
//! let no_elicitation = AgentConnection::from_client_capabilities(&json!({}));
//! assert!(matches!(
//!     no_elicitation.form::<Refactor>(scope, "?"),
//!     Err(SendError::ModeNotAdvertised { .. })
//! ));
//! # Ok(())
//! # }
//! ```
//!
//! # Writing a client
//!
//! One [`ClientConnection`] per agent connection.
//! Its [`receive`](client::ClientConnection::receive) is the guard: a mode the
//! client did not advertise, an unknown mode, or a form it cannot render (a
//! property of an unknown type, never guessed at, contradictory bounds, ..)
//! is answered with the `-32602` error object, before anything is shown.
//! The user's input is validated with the agent's own engine before it is
//! sent. URLs come with a [`UrlReview`]; nothing opens or fetches them.
//!
//! ```
//! use elicit_core::protocol::client::{AnswerError, ClientConnection, Completion, Incoming};
//! use elicit_core::protocol::{
//!     CompleteElicitationNotification, ElicitationCapabilities, INVALID_PARAMS,
//! };
//! use serde_json::json;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // 1. Advertise what you support in `initialize`, and keep it.
//! let capabilities = ElicitationCapabilities::form_and_url();
//! let advertised = json!({"clientCapabilities": {"elicitation": capabilities}});
//! assert_eq!(advertised["clientCapabilities"]["elicitation"], json!({"form": {}, "url": {}}));
//! let mut client = ClientConnection::new(Some(capabilities));
//!
//! // 2. A form request arrives (the params of `elicitation/create`).
//! let params = json!({
//!     "sessionId": "sess_abc123",
//!     "mode": "form",
//!     "message": "How should I approach this refactoring?",
//!     "requestedSchema": {
//!         "type": "object",
//!         "properties": {
//!             "strategy": {"type": "string", "enum": ["conservative", "balanced", "aggressive"]}
//!         },
//!         "required": ["strategy"]
//!     }
//! });
//! let Ok(Incoming::Form(form)) = client.receive_value(params) else { unreachable!() };
//! println!("The agent asks: {}", form.message());
//! let mut input = form.initial_content(); // the defaults, for the user to review
//!
//! // The user's input is validated before sending; errors go back to the form.
//! input.insert("strategy".into(), json!("reckless"));
//! match form.accept(input.clone()) {
//!     Err(AnswerError::Invalid(errors)) => println!("please fix: {errors}"),
//!     other => unreachable!("{other:?}"),
//! }
//! input.insert("strategy".into(), json!("balanced"));
//! let response = form.accept(input)?;
//! assert_eq!(
//!     serde_json::to_value(&response)?,
//!     json!({"action": "accept", "content": {"strategy": "balanced"}})
//! );
//! // Or, if the user says no / closes the form:
//! assert_eq!(serde_json::to_value(form.decline())?, json!({"action": "decline"}));
//! assert_eq!(serde_json::to_value(form.cancel())?, json!({"action": "cancel"}));
//!
//! // A form with a property type the client does not know is refused, unseen.
//! let params = json!({
//!     "sessionId": "sess_abc123", "mode": "form", "message": "Pick a colour",
//!     "requestedSchema": {"type": "object", "properties": {"c": {"type": "_color"}}}
//! });
//! let refused = client.receive_value(params).unwrap_err();
//! assert_eq!(refused.code, INVALID_PARAMS);
//! assert_eq!(refused.data.unwrap()["notRenderable"][0]["type"], "_color");
//!
//! // 3. A URL request: show the full URL and the host, warn, ask for consent.
//! let params = json!({
//!     "requestId": 12,
//!     "mode": "url",
//!     "elicitationId": "github-oauth-001",
//!     "url": "https://agent.example.com/connect?elicitationId=github-oauth-001",
//!     "message": "Please authorize access to your repositories."
//! });
//! let Ok(Incoming::Url(url)) = client.receive_value(params) else { unreachable!() };
//! let review = url.review();
//! println!("Open {} ? (site: {})", review.url(), review.host().unwrap_or("?"));
//! for warning in review.warnings() {
//!     println!("  warning: {warning}");
//! }
//! // With the user's consent (a refused URL cannot be consented to; decline it):
//! let response = url.consent()?;
//! assert_eq!(serde_json::to_value(&response)?, json!({"action": "accept"}));
//! // ... then open the URL where neither the client nor the model can read it.
//!
//! // A URL the policy refuses cannot be consented to: decline it, stop tracking it.
//! let params = json!({
//!     "sessionId": "sess_abc123", "mode": "url", "elicitationId": "e-bad",
//!     "url": "http://agent.example.com/login?password=hunter2", "message": "Log in"
//! });
//! let Ok(Incoming::Url(bad)) = client.receive_value(params) else { unreachable!() };
//! assert!(bad.review().verdict().is_refused());
//! assert!(bad.consent().is_err());
//! assert_eq!(serde_json::to_value(bad.decline())?, json!({"action": "decline"}));
//! assert!(client.forget(bad.id()));
//!
//! // 4. The agent reports completion; unknown and repeated ids are ignored.
//! let done = CompleteElicitationNotification::new("github-oauth-001");
//! assert_eq!(client.on_complete(&done), Completion::Completed(url.id().clone()));
//! assert_eq!(client.on_complete(&done), Completion::IgnoredAlreadyCompleted);
//! let unknown = CompleteElicitationNotification::new("never-sent");
//! assert_eq!(client.on_complete(&unknown), Completion::IgnoredUnknown);
//!
//! // 5. Modes the client did not advertise are answered with -32602.
//! let mut form_only = ClientConnection::new(Some(ElicitationCapabilities::form_only()));
//! let params = json!({
//!     "requestId": 12, "mode": "url", "elicitationId": "e1",
//!     "url": "https://agent.example.com/", "message": "Sign in"
//! });
//! let error = form_only.receive_value(params).unwrap_err();
//! assert_eq!(error.code, INVALID_PARAMS);
//! let reply = json!({"jsonrpc": "2.0", "id": 44, "error": error});
//! assert_eq!(reply["error"]["data"], json!({"mode": "url"}));
//! # Ok(())
//! # }
//! ```
//!
//! [`AgentConnection`]: agent::AgentConnection
//! [`ClientConnection`]: client::ClientConnection
//! [`UrlReview`]: url::UrlReview

pub mod agent;
pub mod client;
mod messages;
pub(crate) mod outcome;
mod printable;
pub mod url;

pub use messages::{
    CompleteElicitationNotification, CreateElicitationRequest, CreateElicitationResponse,
    ELICITATION_COMPLETE, ELICITATION_CREATE, ElicitationAction, ElicitationCapabilities,
    ElicitationId, ElicitationMode, ElicitationScope, INVALID_PARAMS, JsonRpcError, Mode,
    ModeCapabilities, OtherAction, OtherMode, RequestId,
};
