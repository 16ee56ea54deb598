//! An ACP agent on the official SDK (`agent-client-protocol`, stdio
//! transport) that elicits a derived form and, for a sensitive step, uses
//! URL mode, or politely refuses.
//!
//! It is meant to be launched by a client, e.g. `examples/acp_client.rs`:
//!
//! ```sh
//! cargo run --example acp_client -- --form --url
//! ```
//!
//! On every `session/prompt` it "deploys the current branch":
//!
//! 1. It reports a tool call and, if the client advertised form mode, sends
//!    an `elicitation/create` form for [`DeployForm`] scoped to the session
//!    and that tool call (built by elicit-core's
//!    [`AgentConnection`] from the client's `initialize` capabilities).
//! 2. `accept` (validated again here, with `DeployForm::from_content`) is
//!    reported back as the typed settings; `decline` ends the task without
//!    asking again; `cancel` pauses it; an invalid answer or a failed
//!    request fails it. Without form mode it explains and ends the turn.
//! 3. After an accepted form, connecting a deploy token is sensitive: it
//!    goes through URL mode ([`AgentConnection::sensitive`]) when the client
//!    advertised it, and is refused (never a form field) when it did not.
//!
//! Every reply is agent text (`session/update` `agent_message_chunk`).
//! Diagnostics go to stderr.
//!
//! The request is sent as elicit-core's own `CreateElicitationRequest`
//! (the same JSON as the SDK's type) because the SDK's `ElicitationSchema`
//! keeps properties in a `BTreeMap` and would send the form's fields in
//! alphabetical order; the answer is read as the SDK's
//! `CreateElicitationResponse` and converted by `elicit_core::acp`.

use std::error::Error;
use std::sync::{Arc, Mutex};

use agent_client_protocol::v1::ConnectionTo;
use agent_client_protocol::v1::schema::{
    self as acp, AgentCapabilities, ContentBlock, ContentChunk, Implementation, InitializeRequest,
    InitializeResponse, NewSessionRequest, NewSessionResponse, PromptRequest, PromptResponse,
    SessionId, SessionNotification, SessionUpdate, StopReason, TextContent, ToolCall,
    ToolCallStatus, ToolCallUpdate, ToolCallUpdateFields, ToolKind,
};
use agent_client_protocol::{Agent, Client, JsonRpcRequest, Stdio};
use elicit_core::Elicit;
use elicit_core::protocol::agent::{AgentConnection, AgentError, UrlRequest, UserBinding};
use elicit_core::protocol::{CreateElicitationRequest, ElicitationScope, Outcome, UrlOutcome};
use serde::{Deserialize, Serialize};

/// Where to deploy.
#[derive(Elicit, Debug, Clone, Copy, PartialEq, Eq)]
#[elicit(rename_all = "kebab-case")]
enum Environment {
    /// Safe to break.
    #[elicit(title = "Staging")]
    Staging,
    /// Real users: be careful.
    #[elicit(title = "Production")]
    Production,
}

/// A region to run in.
#[derive(Elicit, Debug, Clone, Copy, PartialEq, Eq)]
#[elicit(rename_all = "kebab-case")]
enum Region {
    EuWest,
    UsEast,
    ApSouth,
}

/// Settings for deploying the current branch.
#[derive(Elicit, Debug)]
#[elicit(title = "Deploy", rename_all = "snake_case")]
struct DeployForm {
    /// The service to deploy (lowercase letters, digits and dashes).
    #[elicit(
        title = "Service",
        length(min = 2, max = 32),
        pattern = "^[a-z][a-z0-9-]*$",
        default = "web"
    )]
    service: String,
    /// Which environment to deploy to.
    #[elicit(title = "Environment")]
    env: Environment,
    /// How many instances to run.
    #[elicit(title = "Replicas", range(min = 1, max = 16), default = 2)]
    replicas: u8,
    /// Where to run it.
    #[elicit(title = "Regions", length(min = 1), default = vec![Region::EuWest])]
    regions: Vec<Region>,
    /// Post a message in the team channel when done.
    #[elicit(title = "Notify the team", default = true)]
    notify: bool,
    /// Who gets the deploy report (optional).
    #[elicit(title = "Report to", email)]
    report_to: Option<String>,
}

/// `elicitation/create` with elicit-core's request as params (properties in
/// declaration order) and the SDK's response type.
#[derive(Debug, Clone, Serialize, Deserialize, JsonRpcRequest)]
#[request(method = "elicitation/create", response = acp::CreateElicitationResponse)]
struct Elicitation(CreateElicitationRequest);

/// The agent's state. One process serves one client connection, so one
/// [`AgentConnection`] (created at `initialize`) is the connection's.
#[derive(Default)]
struct State {
    elicitation: Option<AgentConnection>,
    sessions: u64,
    tool_calls: u64,
}

type Shared = Arc<Mutex<State>>;

fn lock(state: &Shared) -> Result<std::sync::MutexGuard<'_, State>, agent_client_protocol::Error> {
    state
        .lock()
        .map_err(|_| agent_client_protocol::Error::internal_error().data("state lock poisoned"))
}

fn main() -> Result<(), Box<dyn Error>> {
    let state = Shared::default();
    let (s1, s2, s3) = (state.clone(), state.clone(), state);
    let agent = Agent
        .v1()
        .name("elicit-demo-agent")
        .on_receive_request(
            async move |initialize: InitializeRequest, responder, _cx| {
                let connection =
                    AgentConnection::from_acp_client_capabilities(&initialize.client_capabilities);
                let modes = connection
                    .capabilities()
                    .map(|c| c.modes())
                    .unwrap_or_default();
                eprintln!("acp_agent: client advertises elicitation modes {modes:?}");
                lock(&s1)?.elicitation = Some(connection);
                responder.respond(
                    InitializeResponse::new(initialize.protocol_version)
                        .agent_capabilities(AgentCapabilities::new())
                        .agent_info(
                            Implementation::new("elicit-demo-agent", env!("CARGO_PKG_VERSION"))
                                .title("Elicit demo agent"),
                        ),
                )
            },
            agent_client_protocol::on_receive_request!(),
        )
        .on_receive_request(
            async move |_new: NewSessionRequest, responder, _cx| {
                let id = {
                    let mut state = lock(&s2)?;
                    state.sessions += 1;
                    format!("sess-{}", state.sessions)
                };
                responder.respond(NewSessionResponse::new(id))
            },
            agent_client_protocol::on_receive_request!(),
        )
        .on_receive_request(
            async move |prompt: PromptRequest, responder, cx: ConnectionTo<Client>| {
                // The turn waits for the client's answers: run it outside the
                // dispatch loop, or those answers could never be read.
                let state = s3.clone();
                let task_cx = cx.clone();
                cx.spawn(async move {
                    let stop = match run_turn(&task_cx, &state, &prompt).await {
                        Ok(()) => StopReason::EndTurn,
                        Err(e) => {
                            eprintln!("acp_agent: turn failed: {e}");
                            let _ = say(
                                &task_cx,
                                &prompt.session_id,
                                &format!(
                                    "Something went wrong on my side ({e}). Nothing was deployed."
                                ),
                            );
                            StopReason::EndTurn
                        }
                    };
                    responder.respond(PromptResponse::new(stop))
                })
            },
            agent_client_protocol::on_receive_request!(),
        );
    futures::executor::block_on(agent.connect_to(Stdio::new()))?;
    Ok(())
}

/// One prompt turn: the deploy task, with its elicitations.
async fn run_turn(
    cx: &ConnectionTo<Client>,
    state: &Shared,
    prompt: &PromptRequest,
) -> Result<(), agent_client_protocol::Error> {
    let session = &prompt.session_id;
    let asked: String = prompt
        .prompt
        .iter()
        .filter_map(|block| match block {
            ContentBlock::Text(text) => Some(text.text.as_str()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join(" ");
    say(
        cx,
        session,
        &format!("You asked: “{asked}”. I'll deploy the current branch."),
    )?;

    let tool_call = {
        let mut state = lock(state)?;
        state.tool_calls += 1;
        format!("deploy-{}", state.tool_calls)
    };
    cx.send_notification(SessionNotification::new(
        session.clone(),
        SessionUpdate::ToolCall(
            ToolCall::new(tool_call.clone(), "Deploy the current branch")
                .kind(ToolKind::Execute)
                .status(ToolCallStatus::Pending),
        ),
    ))?;
    let scope = ElicitationScope::tool_call(session.to_string(), tool_call.clone());

    // Step 1: the settings, as a form, if the client can show one.
    let built = {
        let state = lock(state)?;
        let connection = state
            .elicitation
            .as_ref()
            .ok_or_else(|| agent_client_protocol::Error::internal_error().data("no initialize"))?;
        connection.form::<DeployForm>(scope.clone(), "How should I deploy the current branch?")
    };
    let (request, pending) = match built {
        Ok(built) => built,
        Err(AgentError::ModeNotAdvertised { .. }) => {
            say(
                cx,
                session,
                "Your client cannot show forms (it advertised no elicitation form mode), so I \
                 can't ask for the deployment settings here, and I won't guess them. Nothing \
                 was deployed. Tell me the service, environment and replica count in a \
                 message, or use a client that supports elicitation.",
            )?;
            return finish(cx, session, &tool_call, ToolCallStatus::Failed);
        }
        Err(other) => {
            say(cx, session, &format!("I could not build the form: {other}"))?;
            return finish(cx, session, &tool_call, ToolCallStatus::Failed);
        }
    };
    let response = match cx.send_request(Elicitation(request)).block_task().await {
        Ok(response) => response,
        Err(error) => {
            say(
                cx,
                session,
                &format!("Your client could not show the form ({error}). Nothing was deployed."),
            )?;
            return finish(cx, session, &tool_call, ToolCallStatus::Failed);
        }
    };
    let form = match pending.acp_outcome(&response) {
        Ok(Outcome::Accepted(form)) => form,
        Ok(Outcome::Declined) => {
            say(
                cx,
                session,
                "You declined the deployment settings, so I won't deploy, and I won't ask \
                 again in this turn.",
            )?;
            return finish(cx, session, &tool_call, ToolCallStatus::Failed);
        }
        Ok(Outcome::Cancelled) => {
            say(
                cx,
                session,
                "The form was dismissed. Nothing was deployed; the deploy is paused until you \
                 ask me again.",
            )?;
            return finish(cx, session, &tool_call, ToolCallStatus::Failed);
        }
        Ok(Outcome::UnknownAction(other)) => {
            say(
                cx,
                session,
                &format!(
                    "Your client answered with an action I don't know (`{}`), so I'm treating \
                     it as a failure. Nothing was deployed.",
                    other.action()
                ),
            )?;
            return finish(cx, session, &tool_call, ToolCallStatus::Failed);
        }
        Err(invalid) => {
            say(
                cx,
                session,
                &format!(
                    "The answer did not pass my own validation ({invalid}). Nothing was \
                     deployed."
                ),
            )?;
            return finish(cx, session, &tool_call, ToolCallStatus::Failed);
        }
    };
    say(cx, session, &describe(&form))?;

    // Step 2: the deploy token. Sensitive: URL mode or nothing.
    let token_id = format!("deploy-token-{tool_call}");
    let url_request = UrlRequest::new(
        scope,
        format!(
            "Connect a deploy token for `{}` on the deploy service's own page. The token goes \
             straight to the deploy service, never through this conversation.",
            form.service
        ),
        format!(
            "https://deploy.example.com/tokens/connect?service={}&elicitation={token_id}",
            form.service
        ),
        // This demo has no user authentication of its own.
        UserBinding::NoUserAuthentication,
    )
    .elicitation_id(token_id);
    let built = lock(state)?
        .elicitation
        .as_mut()
        .map(|connection| connection.sensitive(url_request));
    let (request, pending) = match built {
        Some(Ok(built)) => built,
        Some(Err(AgentError::SensitiveInputNeedsUrlMode)) => {
            say(
                cx,
                session,
                "To push the release I need a deploy token, and a token must never be typed \
                 into a form or this chat. Your client has no secure browser flow (URL mode), \
                 so I won't ask for it here. Your settings are kept; connect a token in the \
                 deploy service's settings and ask me again.",
            )?;
            return finish(cx, session, &tool_call, ToolCallStatus::Failed);
        }
        Some(Err(other)) => {
            say(
                cx,
                session,
                &format!("I could not ask for the token: {other}"),
            )?;
            return finish(cx, session, &tool_call, ToolCallStatus::Failed);
        }
        None => return Err(agent_client_protocol::Error::internal_error().data("no initialize")),
    };
    let id = pending.id().clone();
    let response = match cx.send_request(Elicitation(request)).block_task().await {
        Ok(response) => response,
        Err(error) => {
            if let Some(connection) = lock(state)?.elicitation.as_mut() {
                connection.abandon(&id);
            }
            say(
                cx,
                session,
                &format!(
                    "Your client refused the token page ({error}). The deploy is not started."
                ),
            )?;
            return finish(cx, session, &tool_call, ToolCallStatus::Failed);
        }
    };
    let outcome = lock(state)?
        .elicitation
        .as_mut()
        .map(|connection| connection.acp_url_outcome(pending, &response));
    match outcome {
        Some(Ok(UrlOutcome::Consented(waiting))) => {
            say(
                cx,
                session,
                &format!(
                    "Thanks. Finish connecting the token on deploy.example.com in your browser \
                     (request {}). Accepting only means you agreed to open the page: I'll start \
                     the deploy once the deploy service confirms the token, not before.",
                    waiting.id()
                ),
            )?;
            finish(cx, session, &tool_call, ToolCallStatus::InProgress)
        }
        Some(Ok(UrlOutcome::Declined)) => {
            say(
                cx,
                session,
                "You declined connecting a deploy token, so the deploy is not started.",
            )?;
            finish(cx, session, &tool_call, ToolCallStatus::Failed)
        }
        Some(Ok(UrlOutcome::Cancelled)) => {
            say(
                cx,
                session,
                "The token page was dismissed. The deploy is not started; ask me again when \
                 you're ready.",
            )?;
            finish(cx, session, &tool_call, ToolCallStatus::Failed)
        }
        Some(Ok(UrlOutcome::UnknownAction(other))) => {
            if let Some(connection) = lock(state)?.elicitation.as_mut() {
                connection.abandon(&id);
            }
            say(
                cx,
                session,
                &format!(
                    "Your client answered with an action I don't know (`{}`). The deploy is \
                     not started.",
                    other.action()
                ),
            )?;
            finish(cx, session, &tool_call, ToolCallStatus::Failed)
        }
        Some(Err(error)) => {
            say(
                cx,
                session,
                &format!("I could not read the answer: {error}"),
            )?;
            finish(cx, session, &tool_call, ToolCallStatus::Failed)
        }
        None => Err(agent_client_protocol::Error::internal_error().data("no initialize")),
    }
}

/// The typed settings, in words.
fn describe(form: &DeployForm) -> String {
    let env = match form.env {
        Environment::Staging => "staging",
        Environment::Production => "production",
    };
    let regions: Vec<&str> = form
        .regions
        .iter()
        .map(|r| match r {
            Region::EuWest => "eu-west",
            Region::UsEast => "us-east",
            Region::ApSouth => "ap-south",
        })
        .collect();
    let mut text = format!(
        "Got it: deploy `{}` to {env} with {} replica{} in {}",
        form.service,
        form.replicas,
        if form.replicas == 1 { "" } else { "s" },
        regions.join(", "),
    );
    text.push_str(if form.notify {
        "; I'll notify the team"
    } else {
        "; no team notification"
    });
    if let Some(to) = &form.report_to {
        text.push_str(&format!("; the report goes to {to}"));
    }
    text.push('.');
    text
}

/// Sends one paragraph of agent text.
fn say(
    cx: &ConnectionTo<Client>,
    session: &SessionId,
    text: &str,
) -> Result<(), agent_client_protocol::Error> {
    cx.send_notification(SessionNotification::new(
        session.clone(),
        SessionUpdate::AgentMessageChunk(ContentChunk::new(ContentBlock::Text(TextContent::new(
            format!("{text}\n"),
        )))),
    ))
}

/// Reports the tool call's final status.
fn finish(
    cx: &ConnectionTo<Client>,
    session: &SessionId,
    tool_call: &str,
    status: ToolCallStatus,
) -> Result<(), agent_client_protocol::Error> {
    cx.send_notification(SessionNotification::new(
        session.clone(),
        SessionUpdate::ToolCallUpdate(ToolCallUpdate::new(
            tool_call.to_owned(),
            ToolCallUpdateFields::new().status(status),
        )),
    ))
}
