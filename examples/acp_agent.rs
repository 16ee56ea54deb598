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
//! 1. It reports a tool call and asks for [`DeployForm`] with one call,
//!    `elicitor.elicit_form::<DeployForm>(scope, message).retry(2)`
//!    (`elicit_core::acp::sdk`, in the turn's task started with
//!    `AgentElicitations::spawn`): the request is scoped to the session and
//!    that tool call, sent only if the client advertised form mode, and the
//!    answer is validated again here. An answer that breaks a rule only this
//!    agent knows (a reserved service name, [`Service`], or a service another
//!    deploy holds, `.check(..)`) is asked again with the errors in the
//!    message, twice at most.
//! 2. `accept` is reported back as the typed settings; `decline` ends the
//!    task without asking again; `cancel` pauses it. Without form mode it
//!    explains and ends the turn.
//! 3. After an accepted form, the deploy token is sensitive: one call,
//!    `elicitor.elicit_secret::<DeployToken>(scope, message, &pages)`,
//!    opens a page on this agent's own loopback server
//!    (`elicit_core::sensitive::Pages::loopback`), sends its URL in URL mode
//!    when the client advertised it (and is refused, never a form field,
//!    when it did not), waits for the user to submit the page, sends
//!    `elicitation/complete` and returns the typed token. The agent says
//!    "token received", never the token.
//! 4. With `ELICIT_DEMO_OAUTH_ISSUER` set to an OpenID provider's issuer
//!    (and `ELICIT_DEMO_OAUTH_CLIENT_ID`, default `elicit-demo`), step 3 is
//!    a sign-in instead (feature `oauth`): one call,
//!    `elicitor.elicit_oauth(scope, message, &pages, &provider)` with the
//!    provider found by discovery. The client is sent this agent's own
//!    start page; the browser signs in at the provider and comes back to
//!    this agent's callback, which exchanges the code (PKCE). The agent
//!    says "signed in", never the token. A local provider to try it:
//!    `npm ci --prefix tests/oauth`, then `node tests/oauth/provider.mjs
//!    --client-id elicit-demo --redirect-uri
//!    http://127.0.0.1/elicit/oauth/callback` prints its issuer.
//!
//! Every reply is agent text (`session/update` `agent_message_chunk`).
//! Diagnostics go to stderr.

use std::error::Error;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use agent_client_protocol::v1::ConnectionTo;
use agent_client_protocol::v1::schema::{
    AgentCapabilities, ContentBlock, ContentChunk, Implementation, InitializeRequest,
    InitializeResponse, NewSessionRequest, NewSessionResponse, PromptRequest, PromptResponse,
    SessionId, SessionNotification, SessionUpdate, StopReason, TextContent, ToolCall,
    ToolCallStatus, ToolCallUpdate, ToolCallUpdateFields, ToolKind,
};
use agent_client_protocol::{Agent, Client, Stdio};
use elicit_core::acp::sdk::{AgentElicitations, ElicitError, Elicitor};
use elicit_core::protocol::ElicitationScope;
use elicit_core::protocol::agent::{Outcome, SendError};
use elicit_core::sensitive::oauth::{OAuthOutcome, Provider};
use elicit_core::sensitive::{ExposeSecret, Pages, SecretOutcome, SecretString};
use elicit_core::{Elicit, FieldError};

/// A service name as typed: its rules are sent in the form.
#[derive(Elicit, Debug, Clone, PartialEq, Eq)]
#[elicit(transparent)]
struct ServiceName(#[elicit(length(min = 2, max = 32), pattern = "^[a-z][a-z0-9-]*$")] String);

/// A service this agent may deploy. A few names are reserved for the
/// platform: a rule only this agent knows, checked when the answer is read
/// (`try_from`), so a client cannot check it before sending.
#[derive(Elicit, Debug, Clone, PartialEq, Eq)]
#[elicit(try_from = "ServiceName", into = "ServiceName")]
struct Service(String);

/// The services another deploy holds right now: what only this agent knows
/// (an in-memory set here).
fn busy_services() -> &'static std::collections::HashSet<&'static str> {
    static BUSY: std::sync::OnceLock<std::collections::HashSet<&'static str>> =
        std::sync::OnceLock::new();
    BUSY.get_or_init(|| ["billing", "search"].into())
}

/// Names the platform keeps for itself.
const RESERVED: [&str; 3] = ["admin", "platform", "root"];

impl TryFrom<ServiceName> for Service {
    type Error = String;
    fn try_from(ServiceName(name): ServiceName) -> Result<Self, String> {
        if RESERVED.contains(&name.as_str()) {
            Err(format!(
                "`{name}` is reserved for the platform; choose another name"
            ))
        } else {
            Ok(Self(name))
        }
    }
}

impl From<Service> for ServiceName {
    fn from(Service(name): Service) -> Self {
        Self(name)
    }
}

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
    #[elicit(title = "Service", default = "web")]
    service: Service,
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

/// The deploy token: a sensitive form, asked on this agent's own page, never
/// in a form or the conversation.
#[derive(Elicit)]
#[elicit(sensitive, title = "Deploy token")]
struct DeployToken {
    /// From the deploy service: Settings → Tokens. It starts with `dt-`.
    #[secret]
    #[elicit(title = "Deploy token", length(min = 12, max = 128), pattern = "^dt-")]
    token: SecretString,
}

fn main() -> Result<(), Box<dyn Error>> {
    // The log (feature `tracing`, `elicit_core::trace`): on stderr when
    // `RUST_LOG` is set, e.g. `RUST_LOG=info,elicit_core=debug`.
    if let Ok(filter) = tracing_subscriber::EnvFilter::try_from_default_env() {
        tracing_subscriber::fmt()
            .with_env_filter(filter)
            .with_writer(std::io::stderr)
            .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
            .init();
    }
    // The connection's elicitation state: cloned into each handler.
    let elicitations = AgentElicitations::new();
    // The sensitive pages: a loopback server, started with the first page
    // and stopped when the agent exits.
    let pages = Pages::loopback().build();
    let counters = Arc::new(Counters::default());
    let (e1, e2) = (elicitations.clone(), elicitations);
    let (c1, c2) = (counters.clone(), counters);
    let agent = Agent
        .v1()
        .name("elicit-demo-agent")
        .on_receive_request(
            async move |initialize: InitializeRequest, responder, _cx| {
                e1.initialize(&initialize);
                let modes = e1.with(|c| c.capabilities().map(|c| c.modes()).unwrap_or_default());
                eprintln!("acp_agent: client advertises elicitation modes {modes:?}");
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
                let id = c1.sessions.fetch_add(1, Ordering::Relaxed) + 1;
                responder.respond(NewSessionResponse::new(format!("sess-{id}")))
            },
            agent_client_protocol::on_receive_request!(),
        )
        .on_receive_request(
            async move |prompt: PromptRequest, responder, cx: ConnectionTo<Client>| {
                // The turn waits for the client's answers: it runs as a task
                // of its own, and answers the prompt when it is done.
                let counters = c2.clone();
                let pages = pages.clone();
                e2.spawn(&cx, async move |elicitor| {
                    if let Err(e) = run_turn(&elicitor, &counters, &pages, &prompt).await {
                        log_error("the turn", &e);
                        let _ = say(
                            elicitor.connection(),
                            &prompt.session_id,
                            "Something went wrong on my side. Nothing was deployed.",
                        );
                    }
                    responder.respond(PromptResponse::new(StopReason::EndTurn))
                })
            },
            agent_client_protocol::on_receive_request!(),
        );
    futures::executor::block_on(agent.connect_to(Stdio::new()))?;
    Ok(())
}

/// Writes `error` and its causes to the log (stderr). What a client or a
/// provider sent with an error (a JSON-RPC error's `message` and `data`, a
/// stack trace, a dump of the request) is detail for the log: the
/// conversation gets a short reason, the error's own `Display`, which
/// elicit keeps free of the peer's text.
fn log_error(what: &str, error: &dyn Error) {
    let mut line = format!("acp_agent: {what} failed: {error}");
    let mut source = error.source();
    while let Some(cause) = source {
        line.push_str(&format!(": {cause:?}"));
        source = cause.source();
    }
    eprintln!("{line}");
}

/// Session and tool-call numbers.
#[derive(Default)]
struct Counters {
    sessions: AtomicU64,
    tool_calls: AtomicU64,
}

/// One prompt turn: the deploy task, with its elicitations.
async fn run_turn(
    elicitor: &Elicitor,
    counters: &Counters,
    pages: &Pages,
    prompt: &PromptRequest,
) -> Result<(), agent_client_protocol::Error> {
    let cx = elicitor.connection();
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

    let tool_call = format!(
        "deploy-{}",
        counters.tool_calls.fetch_add(1, Ordering::Relaxed) + 1
    );
    cx.send_notification(SessionNotification::new(
        session.clone(),
        SessionUpdate::ToolCall(
            ToolCall::new(tool_call.clone(), "Deploy the current branch")
                .kind(ToolKind::Execute)
                .status(ToolCallStatus::Pending),
        ),
    ))?;
    let scope = ElicitationScope::tool_call(session.to_string(), tool_call.clone());
    let failed = |text: &str| -> Result<(), agent_client_protocol::Error> {
        say(cx, session, text)?;
        finish(cx, session, &tool_call, ToolCallStatus::Failed)
    };

    // Step 1: the settings, as a form, asked again (twice at most) when the
    // answer breaks a rule only this agent knows: a reserved service name
    // (`Service`'s `try_from`), or a service another deploy holds right now
    // (`.check`, asynchronous: a lookup in your deploy system in practice,
    // an in-memory set here).
    let busy = busy_services();
    let asked = elicitor
        .elicit_form::<DeployForm>(scope.clone(), "How should I deploy the current branch?")
        .retry(2)
        .check(async |form: &DeployForm| {
            if busy.contains(form.service.0.as_str()) {
                let taken = FieldError::rule("service", "is already taken by another deploy");
                return Ok(Err(taken.into()));
            }
            Ok::<_, std::convert::Infallible>(Ok(()))
        })
        .await;
    let form = match asked {
        Ok(Outcome::Accepted(form)) => form,
        Ok(Outcome::Declined) => {
            return failed(
                "You declined the deployment settings, so I won't deploy, and I won't ask \
                 again in this turn.",
            );
        }
        Ok(Outcome::Cancelled) => {
            return failed(
                "The form was dismissed. Nothing was deployed; the deploy is paused until you \
                 ask me again.",
            );
        }
        Ok(Outcome::UnknownAction(other)) => {
            return failed(&format!(
                "Your client answered with an action I don't know (`{}`), so I'm treating it \
                 as a failure. Nothing was deployed.",
                other.action()
            ));
        }
        Err(ElicitError::NotSent(SendError::ModeNotAdvertised { .. })) => {
            return failed(
                "Your client cannot show forms (it advertised no elicitation form mode), so I \
                 can't ask for the deployment settings here, and I won't guess them. Nothing \
                 was deployed. Tell me the service, environment and replica count in a \
                 message, or use a client that supports elicitation.",
            );
        }
        Err(error) => {
            log_error("the settings form", &error);
            return failed(&format!(
                "I could not get the settings: {error}. Nothing was deployed."
            ));
        }
    };
    say(cx, session, &describe(&form))?;

    // Step 2: the deploy token. Sensitive: this agent's own page, through
    // URL mode, or nothing. Or, with a provider configured, a sign-in.
    let service = form.service.0;
    if let Ok(issuer) = std::env::var("ELICIT_DEMO_OAUTH_ISSUER") {
        let client_id =
            std::env::var("ELICIT_DEMO_OAUTH_CLIENT_ID").unwrap_or_else(|_| "elicit-demo".into());
        let provider = match Provider::discover(&issuer, client_id).await {
            Ok(provider) => provider.scopes(["openid"]),
            Err(error) => {
                log_error("the provider's discovery", &error);
                return failed(&format!(
                    "I could not reach the sign-in provider ({error}). The deploy is not started."
                ));
            }
        };
        let message = format!(
            "Sign in to deploy `{service}`. You sign in at the provider, in your browser; the \
             agent receives a token, never this conversation."
        );
        return match elicitor
            .elicit_oauth(scope, message, pages, &provider)
            .await
        {
            Ok(OAuthOutcome::Authorized(token)) => {
                // Used, never shown: only its length and scopes go to the log.
                eprintln!(
                    "acp_agent: signed in (token of {} characters, scopes {:?})",
                    token.access_token().expose_secret().chars().count(),
                    token.scopes()
                );
                say(
                    cx,
                    session,
                    &format!("Signed in. Deploying `{service}` now."),
                )?;
                finish(cx, session, &tool_call, ToolCallStatus::Completed)
            }
            Ok(OAuthOutcome::Denied { error, .. }) => failed(&format!(
                "The provider did not authorize the deploy ({error}). The deploy is not started."
            )),
            Ok(OAuthOutcome::Declined) => {
                failed("You declined signing in, so the deploy is not started.")
            }
            Ok(OAuthOutcome::Failed(failure)) => {
                log_error("the sign-in", &failure);
                failed(&format!(
                    "The sign-in failed: {failure}. The deploy is not started."
                ))
            }
            Ok(other) => failed(&format!(
                "The sign-in did not finish ({other:?}). The deploy is not started."
            )),
            Err(error) => {
                log_error("the sign-in request", &error);
                failed(&format!(
                    "I could not ask you to sign in: {error}. The deploy is not started."
                ))
            }
        };
    }
    let message = format!(
        "Paste a deploy token for `{service}` on this agent's page. The token goes straight \
         to the agent, never through this conversation."
    );
    match elicitor
        .elicit_secret::<DeployToken>(scope, message, pages)
        .await
    {
        Ok(SecretOutcome::Answered(token)) => {
            // Used, never shown: only its length goes to the log.
            eprintln!(
                "acp_agent: deploy token received ({} characters)",
                token.token.expose_secret().chars().count()
            );
            say(
                cx,
                session,
                &format!("Token received. Deploying `{service}` now."),
            )?;
            finish(cx, session, &tool_call, ToolCallStatus::Completed)
        }
        Ok(SecretOutcome::Declined) => {
            failed("You declined connecting a deploy token, so the deploy is not started.")
        }
        Ok(SecretOutcome::Expired) => failed(
            "The token page expired before it was submitted. The deploy is not started; ask \
             me again when you're ready.",
        ),
        Ok(_) => failed(
            "The token page was dismissed. The deploy is not started; ask me again when \
             you're ready.",
        ),
        Err(ElicitError::NotSent(SendError::SensitiveInputNeedsUrlMode)) => failed(
            "To push the release I need a deploy token, and a token must never be typed into \
             a form or this chat. Your client has no secure browser flow (URL mode), so I \
             won't ask for it here. Your settings are kept; connect a token in the deploy \
             service's settings and ask me again.",
        ),
        Err(error) => {
            log_error("the token page", &error);
            failed(&format!(
                "I could not get the token: {error}. The deploy is not started."
            ))
        }
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
        form.service.0,
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
