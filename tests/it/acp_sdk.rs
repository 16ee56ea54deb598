//! `elicit_core::acp::sdk` end to end, in process: an agent on the official
//! ACP SDK asking with `elicitor.elicit_form` / `elicit_url` /
//! `elicit_url` (sensitive or not) / `complete` (in a task of `AgentElicitations::spawn`), against a client on the same SDK answering with
//! `ClientElicitations::handler` and a scripted renderer. The two are joined
//! by the SDK's own in-memory transport, so every message goes through the
//! SDK's JSON-RPC layer. (`tests/it/acp_demo.rs` runs the same APIs over
//! stdio, between two processes.)

use std::collections::VecDeque;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

use agent_client_protocol::schema::ProtocolVersion;
use agent_client_protocol::v1::ConnectionTo;
use agent_client_protocol::v1::schema::{
    ClientCapabilities, ContentBlock, ElicitationCapabilities, ElicitationFormCapabilities,
    ElicitationUrlCapabilities, InitializeRequest, InitializeResponse, NewSessionRequest,
    NewSessionResponse, PromptRequest, PromptResponse, StopReason, TextContent,
};
use agent_client_protocol::{Agent, Client, HandleDispatchFrom};
use elicit_core::Elicit;
use elicit_core::acp::sdk::{
    AgentElicitations, ClientElicitations, ElicitError, ElicitationRequest, Elicitor,
};
use elicit_core::protocol::agent::{CompletionError, SendError, UrlRequest};
use elicit_core::protocol::agent::{Outcome, UrlOutcome};
use elicit_core::protocol::client::{
    AnswerError, FormAnswer, FormElicitation, Render, UrlAnswer, UrlElicitation,
};
use elicit_core::protocol::url::UrlRejection;
use elicit_core::protocol::{CreateElicitationRequest, ElicitationId, ElicitationScope};
use serde_json::{Value, json};

/// The form the agent asks for, with a rule across its fields.
#[derive(Elicit, Debug, Clone, PartialEq)]
#[elicit(check = Deploy::pairs_fit)]
pub(crate) struct Deploy {
    #[elicit(range(min = 1, max = 16), default = 2)]
    replicas: u8,
    /// Checked by the agent only: an even number (`Pairs`' `try_from`).
    pairs: Pairs,
}

impl Deploy {
    /// No more pairs than replicas: a rule across two fields.
    fn pairs_fit(&self) -> Result<(), elicit_core::ContentError> {
        if self.pairs.0 > self.replicas {
            return Err(
                elicit_core::FieldError::rule("pairs", "must not exceed `replicas`").into(),
            );
        }
        Ok(())
    }
}

#[derive(Elicit, Debug, Clone, Copy, PartialEq)]
#[elicit(try_from = "u8", into = "u8")]
struct Pairs(u8);

impl TryFrom<u8> for Pairs {
    type Error = String;
    fn try_from(n: u8) -> Result<Self, String> {
        if n.is_multiple_of(2) {
            Ok(Self(n))
        } else {
            Err(format!("{n} is odd; replicas come in pairs"))
        }
    }
}

impl From<Pairs> for u8 {
    fn from(p: Pairs) -> u8 {
        p.0
    }
}

/// What the agent does in its one prompt turn.
#[derive(Clone)]
pub(crate) enum Flow {
    Form {
        retry: u32,
    },
    /// The form with `.check(..)`: a valid answer whose `replicas` is 3 is
    /// taken (`crate::behaviour::Rule`).
    Checked {
        retry: u32,
        rule: crate::behaviour::Rule,
    },
    Url,
    Sensitive,
    /// A URL elicitation, then its completion reported twice.
    UrlThenComplete,
    /// A raw `elicitation/create`, bypassing the agent-side checks.
    Raw(Box<CreateElicitationRequest>),
    /// The sensitive guide's first snippet, on these pages.
    Secret(elicit_core::sensitive::Pages),
    /// `elicit_secret` of the sensitive guide's form on these pages, for this user
    /// (`.for_user`) if any.
    SecretFor(
        elicit_core::sensitive::Pages,
        Option<elicit_core::protocol::agent::VerifiedUser>,
    ),
    /// `elicit_secret` of the README's form on these pages with
    /// `.retry(n)` and `.check(token_check)`.
    SecretChecked(elicit_core::sensitive::Pages, u32),
    /// `elicit_secret::<Login>` on these pages with `.retry(1)`: its own
    /// rule (`Account`'s `try_from`) refuses what the page cannot check.
    Login(elicit_core::sensitive::Pages),
    /// `elicit_oauth` with this provider, on these pages.
    OAuth(
        elicit_core::sensitive::Pages,
        Box<elicit_core::sensitive::oauth::Provider>,
    ),
    /// A behaviour's steps on the `Elicitor` (`behaviour.rs`).
    Steps(crate::behaviour::Steps),
}

/// What the agent got.
#[derive(Debug)]
pub(crate) enum Got {
    Form(Result<Outcome<Deploy>, ElicitError>),
    Url(Result<UrlOutcome, ElicitError>),
    Completed(Result<(), ElicitError>, Result<(), ElicitError>),
    Raw(Result<Value, agent_client_protocol::Error>),
    /// The token the README's snippet returned, exposed for the test.
    Secret(Result<Option<String>, ElicitError>),
    /// How `elicit_secret` ended: the token, exposed, if answered.
    SecretOutcome(Result<elicit_core::sensitive::SecretOutcome<String>, ElicitError>),
    OAuth(Result<elicit_core::sensitive::oauth::OAuthOutcome, ElicitError>),
    /// What each step got.
    Steps(Vec<String>),
}

/// A renderer reading answers from a list, recording what it was shown.
#[derive(Default)]
pub(crate) struct Script {
    pub(crate) forms: VecDeque<Value>,
    pub(crate) urls: VecDeque<UrlAnswer>,
    pub(crate) shown: Arc<Mutex<Vec<String>>>,
    /// The message of each URL request it was shown.
    pub(crate) url_messages: Arc<Mutex<Vec<String>>>,
}

impl Render for Script {
    fn form(
        &mut self,
        agent: &str,
        form: &FormElicitation,
        problem: Option<&AnswerError>,
    ) -> FormAnswer {
        let mut shown = self.shown.lock().unwrap();
        shown.push(format!("form from {agent}: {}", form.message()));
        if let Some(problem) = problem {
            shown.push(format!("problem: {problem}"));
        }
        match self.forms.pop_front() {
            Some(Value::String(s)) if s == "decline" => FormAnswer::Decline,
            Some(Value::Object(content)) => FormAnswer::Accept(content),
            _ => FormAnswer::Cancel,
        }
    }

    fn url(&mut self, agent: &str, url: &UrlElicitation, _: Option<&UrlRejection>) -> UrlAnswer {
        self.url_messages
            .lock()
            .unwrap()
            .push(url.message().to_owned());
        self.shown
            .lock()
            .unwrap()
            .push(format!("url from {agent}: {}", url.url()));
        self.urls.pop_front().unwrap_or(UrlAnswer::Cancel)
    }

    fn consented(&mut self, url: &UrlElicitation) {
        self.shown
            .lock()
            .unwrap()
            .push(format!("open {}", url.url()));
    }
}

pub(crate) struct Run {
    pub(crate) got: Got,
    pub(crate) shown: Vec<String>,
    pub(crate) completed: Vec<ElicitationId>,
}

/// The call refused sensitive input before sending anything: the client
/// was shown nothing and no page server started on `pages`.
fn assert_needs_url_mode(run: &Run, pages: Option<&elicit_core::sensitive::Pages>) {
    let not_sent = match &run.got {
        Got::Url(Err(ElicitError::NotSent(error)))
        | Got::Secret(Err(ElicitError::NotSent(error)))
        | Got::OAuth(Err(ElicitError::NotSent(error))) => Some(error),
        _ => None,
    };
    assert!(
        matches!(not_sent, Some(SendError::SensitiveInputNeedsUrlMode)),
        "{:?}",
        run.got
    );
    assert!(run.shown.is_empty(), "{:?}", run.shown);
    if let Some(pages) = pages {
        assert!(
            pages.local_addr().is_none(),
            "a page server started for nothing"
        );
    }
}

/// Waits until the client was shown a URL, and returns it.
pub(crate) fn shown_url(shown: &Mutex<Vec<String>>) -> String {
    loop {
        let seen = shown.lock().unwrap().clone();
        if let Some(url) = seen
            .iter()
            .find_map(|s| s.strip_prefix("url from the test agent: "))
        {
            return url.to_owned();
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

fn token_request() -> UrlRequest {
    UrlRequest::new(
        "Connect a deploy token",
        "https://deploy.example.com/connect",
    )
    .elicitation_id("token-1")
}

async fn agent_flow(elicitor: &Elicitor, flow: Flow) -> Got {
    let scope = ElicitationScope::session("s1");
    match flow {
        Flow::Form { retry } => Got::Form(
            elicitor
                .elicit_form::<Deploy>(scope, "How many?")
                .retry(retry)
                .await,
        ),
        Flow::Checked { retry, rule } => {
            let rule = &rule;
            Got::Form(
                elicitor
                    .elicit_form::<Deploy>(scope, "How many?")
                    .retry(retry)
                    .check(async |form: &Deploy| rule.verdict("replicas", form.replicas == 3).await)
                    .await,
            )
        }
        Flow::Url => Got::Url(elicitor.elicit_url(scope.clone(), token_request()).await),
        Flow::Sensitive => Got::Url(
            elicitor
                .elicit_url(scope.clone(), token_request().sensitive())
                .await,
        ),
        Flow::UrlThenComplete => {
            let outcome = elicitor.elicit_url(scope.clone(), token_request()).await;
            assert!(
                matches!(outcome, Ok(UrlOutcome::Consented(_))),
                "{outcome:?}"
            );
            let id = ElicitationId::new("token-1");
            let first = elicitor.complete(&id, None).await;
            let second = elicitor.complete(&id, None).await;
            Got::Completed(first, second)
        }
        Flow::Secret(pages) => {
            use elicit_core::sensitive::ExposeSecret;
            let token = readme_sensitive::deploy_token(elicitor, scope, &pages).await;
            Got::Secret(token.map(|t| t.map(|t| t.token.expose_secret().to_owned())))
        }
        Flow::SecretFor(pages, user) => {
            let asked = elicitor.elicit_secret::<readme_sensitive::DeployToken>(
                scope,
                "Paste a deploy token.",
                &pages,
            );
            let outcome = match &user {
                Some(user) => asked.for_user(user).await,
                None => asked.await,
            };
            Got::SecretOutcome(outcome.map(readme_sensitive::exposed))
        }
        Flow::SecretChecked(pages, retry) => {
            let outcome = elicitor
                .elicit_secret::<readme_sensitive::DeployToken>(
                    scope,
                    "Paste a deploy token.",
                    &pages,
                )
                .retry(retry)
                .check(async |form: &readme_sensitive::DeployToken| token_check(form))
                .await;
            Got::SecretOutcome(outcome.map(readme_sensitive::exposed))
        }
        Flow::Login(pages) => {
            use elicit_core::sensitive::SecretOutcome;
            let outcome = elicitor
                .elicit_secret::<Login>(scope, "Sign in.", &pages)
                .retry(1)
                .await;
            Got::SecretOutcome(outcome.map(|outcome| match outcome {
                SecretOutcome::Answered(login) => {
                    use elicit_core::sensitive::ExposeSecret;
                    let length = login.password.expose_secret().len();
                    SecretOutcome::Answered(format!("{} {length}", login.account.0))
                }
                _ => SecretOutcome::Cancelled,
            }))
        }
        Flow::OAuth(pages, provider) => Got::OAuth(
            elicitor
                .elicit_oauth(scope, "Sign in to the test provider", &pages, &provider)
                .await,
        ),
        Flow::Steps(steps) => Got::Steps(steps(&crate::behaviour::AcpAsker(elicitor, scope)).await),
        Flow::Raw(request) => Got::Raw(
            elicitor
                .connection()
                .send_request(ElicitationRequest(*request))
                .block_task()
                .await
                .map(|r| serde_json::to_value(r).expect("a response encodes")),
        ),
    }
}

/// An agent that records the client's `initialize` in `elicitations` and
/// opens session `s1`; each test adds its own prompt handler.
fn agent_base(
    elicitations: AgentElicitations,
) -> agent_client_protocol::v1::Builder<Agent, impl HandleDispatchFrom<Client>> {
    agent_recording(elicitations, true)
}

/// [`agent_base`], or (`record: false`) an agent that forgets to record the
/// client's `initialize`.
fn agent_recording(
    elicitations: AgentElicitations,
    record: bool,
) -> agent_client_protocol::v1::Builder<Agent, impl HandleDispatchFrom<Client>> {
    Agent
        .v1()
        .on_receive_request(
            async move |initialize: InitializeRequest, responder, _cx| {
                if record {
                    elicitations.initialize(&initialize);
                }
                responder.respond(InitializeResponse::new(initialize.protocol_version))
            },
            agent_client_protocol::on_receive_request!(),
        )
        .on_receive_request(
            async move |_: NewSessionRequest, responder, _cx| {
                responder.respond(NewSessionResponse::new("s1"))
            },
            agent_client_protocol::on_receive_request!(),
        )
}

/// Connects an agent running `flow` in its prompt turn to a client
/// advertising `capabilities` and answering with `script`.
pub(crate) fn run(
    capabilities: Option<ElicitationCapabilities>,
    script: Script,
    flow: Flow,
) -> Run {
    run_recording(true, capabilities, script, flow)
}

/// [`run`], with an agent that records the client's `initialize` or not.
fn run_recording(
    record: bool,
    capabilities: Option<ElicitationCapabilities>,
    script: Script,
    flow: Flow,
) -> Run {
    let shown = script.shown.clone();
    let completed = Arc::new(Mutex::new(Vec::new()));
    let (send, receive) = mpsc::channel();

    let elicitations = AgentElicitations::new();
    let (e1, e2) = (elicitations.clone(), elicitations);
    let agent = agent_recording(e1, record).on_receive_request(
        async move |_: PromptRequest, responder, cx: ConnectionTo<Client>| {
            let (flow, send) = (flow.clone(), send.clone());
            e2.spawn(&cx, async move |elicitor| {
                let got = agent_flow(&elicitor, flow).await;
                send.send(got).expect("the test waits");
                responder.respond(PromptResponse::new(StopReason::EndTurn))
            })
        },
        agent_client_protocol::on_receive_request!(),
    );

    let client_state = ClientElicitations::new(capabilities.as_ref());
    client_state.set_agent("the test agent");
    let on_complete = completed.clone();
    let client = Client.v1().with_handler(
        client_state
            .handler(script)
            .on_complete(move |id| on_complete.lock().unwrap().push(id.clone())),
    );
    let advertised = client_state.acp_capabilities();
    futures::executor::block_on(client.connect_with(agent, async move |cx| {
        cx.send_request(
            InitializeRequest::new(ProtocolVersion::V1)
                .client_capabilities(ClientCapabilities::new().elicitation(advertised)),
        )
        .block_task()
        .await?;
        let session = cx
            .send_request(NewSessionRequest::new("/"))
            .block_task()
            .await?;
        cx.send_request(PromptRequest::new(
            session.session_id,
            vec![ContentBlock::Text(TextContent::new("deploy"))],
        ))
        .block_task()
        .await?;
        Ok(())
    }))
    .expect("the connection runs");

    let got = receive.recv().expect("the agent reported");
    let shown = shown.lock().unwrap().clone();
    let completed = completed.lock().unwrap().clone();
    Run {
        got,
        shown,
        completed,
    }
}

pub(crate) fn form_only() -> Option<ElicitationCapabilities> {
    Some(ElicitationCapabilities::new().form(ElicitationFormCapabilities::new()))
}

pub(crate) fn form_and_url() -> Option<ElicitationCapabilities> {
    Some(
        ElicitationCapabilities::new()
            .form(ElicitationFormCapabilities::new())
            .url(ElicitationUrlCapabilities::new()),
    )
}

pub(crate) fn forms(answers: &[Value]) -> Script {
    Script {
        forms: answers.iter().cloned().collect(),
        ..Script::default()
    }
}

#[test]
fn accept_is_read_as_the_typed_form() {
    let run = run(
        form_only(),
        forms(&[json!({"replicas": 4, "pairs": 2})]),
        Flow::Form { retry: 0 },
    );
    match run.got {
        Got::Form(Ok(Outcome::Accepted(deploy))) => {
            assert_eq!(
                deploy,
                Deploy {
                    replicas: 4,
                    pairs: Pairs(2)
                }
            );
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(run.shown, ["form from the test agent: How many?"]);
}

#[test]
fn decline_and_cancel_are_returned_at_once_even_with_retries() {
    let declined = run(
        form_only(),
        forms(&[json!("decline")]),
        Flow::Form { retry: 3 },
    );
    assert!(
        matches!(declined.got, Got::Form(Ok(Outcome::Declined))),
        "{:?}",
        declined.got
    );
    assert_eq!(declined.shown.len(), 1, "{:?}", declined.shown);

    let cancelled = run(form_only(), forms(&[]), Flow::Form { retry: 3 });
    assert!(
        matches!(cancelled.got, Got::Form(Ok(Outcome::Cancelled))),
        "{:?}",
        cancelled.got
    );
    assert_eq!(cancelled.shown.len(), 1, "{:?}", cancelled.shown);
}

#[test]
fn an_answer_only_the_agent_refuses_is_asked_again_with_the_errors() {
    let run = run(
        form_only(),
        forms(&[
            json!({"replicas": 4, "pairs": 3}),
            json!({"replicas": 4, "pairs": 4}),
        ]),
        Flow::Form { retry: 1 },
    );
    match run.got {
        Got::Form(Ok(Outcome::Accepted(deploy))) => assert_eq!(deploy.pairs, Pairs(4)),
        other => panic!("{other:?}"),
    }
    assert_eq!(run.shown.len(), 2, "{:?}", run.shown);
    assert_eq!(run.shown[0], "form from the test agent: How many?");
    assert_eq!(
        run.shown[1],
        "form from the test agent: How many?\n\nThe previous answer was not accepted: \
         `pairs` is not a valid `Pairs`: 3 is odd; replicas come in pairs. Please correct it."
    );
}

#[test]
fn invalid_after_every_retry_is_an_error_with_the_attempts() {
    let run = run(
        form_only(),
        forms(&[
            json!({"pairs": 1}),
            json!({"pairs": 5}),
            json!({"pairs": 7}),
        ]),
        Flow::Form { retry: 1 },
    );
    match run.got {
        Got::Form(Err(ElicitError::Invalid { errors, attempts })) => {
            assert_eq!(attempts, 2);
            assert_eq!(errors.fields().collect::<Vec<_>>(), ["pairs"]);
            assert!(errors.to_string().contains("5 is odd"), "{errors}");
        }
        other => panic!("{other:?}"),
    }
    // Two forms sent; the third answer was never asked for.
    assert_eq!(run.shown.len(), 2, "{:?}", run.shown);
}

#[test]
fn the_client_never_sends_content_that_breaks_the_rules() {
    // 40 is above the maximum: the handler shows the form again with the
    // problem, and only the second answer is sent.
    let run = run(
        form_only(),
        forms(&[
            json!({"replicas": 40, "pairs": 2}),
            json!({"replicas": 6, "pairs": 2}),
        ]),
        Flow::Form { retry: 0 },
    );
    match run.got {
        Got::Form(Ok(Outcome::Accepted(deploy))) => assert_eq!(deploy.replicas, 6),
        other => panic!("{other:?}"),
    }
    assert_eq!(run.shown.len(), 3, "{:?}", run.shown);
    assert_eq!(
        run.shown[2],
        "problem: invalid form content: `replicas` must be at most 16, got 40: let the user \
         correct the form"
    );
}

#[test]
fn an_unadvertised_mode_is_not_sent() {
    // No elicitation capability at all: nothing reaches the client.
    let none = run(None, forms(&[json!({"pairs": 2})]), Flow::Form { retry: 2 });
    assert!(
        matches!(
            none.got,
            Got::Form(Err(ElicitError::NotSent(
                SendError::ModeNotAdvertised { .. }
            )))
        ),
        "{:?}",
        none.got
    );
    assert!(none.shown.is_empty(), "{:?}", none.shown);

    // Form only: a URL request is not sent either.
    let url = run(form_only(), Script::default(), Flow::Url);
    assert!(
        matches!(
            url.got,
            Got::Url(Err(ElicitError::NotSent(
                SendError::ModeNotAdvertised { .. }
            )))
        ),
        "{:?}",
        url.got
    );
    assert!(url.shown.is_empty(), "{:?}", url.shown);
}

/// An agent that never recorded `initialize` is told so, with where to call
/// it, not that the client (which advertised every mode) did not advertise
/// the mode; nothing reaches the client.
#[test]
fn an_agent_without_initialize_is_told_to_record_it_not_that_the_client_lacks_the_mode() {
    for flow in [Flow::Form { retry: 0 }, Flow::Url, Flow::Sensitive] {
        let run = run_recording(false, form_and_url(), forms(&[json!({"pairs": 2})]), flow);
        let error = match &run.got {
            Got::Form(Err(ElicitError::NotSent(error)))
            | Got::Url(Err(ElicitError::NotSent(error))) => error.clone(),
            other => panic!("not sent: {other:?}"),
        };
        assert_eq!(error, SendError::NotInitialized);
        let message = ElicitError::NotSent(error).to_string();
        assert!(
            message.starts_with("no `initialize` was recorded on this connection"),
            "{message}"
        );
        assert!(
            message.contains(
                "call `AgentElicitations::initialize(&request)` in your `initialize` handler"
            ),
            "{message}"
        );
        assert!(!message.contains("did not advertise"), "{message}");
        assert!(run.shown.is_empty(), "{:?}", run.shown);
    }
}

/// A client's JSON-RPC error: the message names the code, never the
/// client's text or data (for a user to read); the source keeps them (for
/// the log).
#[test]
fn a_client_errors_text_stays_in_the_source_not_in_the_message() {
    let client = agent_client_protocol::Error::new(-32603, "Internal error: renderer crashed")
        .data(json!({"details": "renderer crashed", "request": {"mode": "form"}}));
    let error = ElicitError::Request(client.into());
    assert_eq!(
        error.to_string(),
        "the client answered the elicitation with JSON-RPC error -32603 (Internal error)"
    );
    let ElicitError::Request(request) = &error else {
        unreachable!()
    };
    assert_eq!(
        request.failure(),
        elicit_core::flow::RequestFailure::ErrorResponse { code: -32603 }
    );
    // The chain for the log: ElicitError -> RequestError -> the SDK's error.
    let source = std::error::Error::source(&error).expect("the request's error");
    let theirs = std::error::Error::source(source).expect("the client's error");
    assert!(theirs.to_string().contains("renderer crashed"), "{theirs}");
    let sdk = request
        .downcast_ref::<agent_client_protocol::Error>()
        .expect("the SDK's own error");
    assert_eq!(
        sdk.data,
        Some(json!({"details": "renderer crashed", "request": {"mode": "form"}}))
    );

    let unknown = ElicitError::Request(agent_client_protocol::Error::new(-1, "boom").into());
    assert_eq!(
        unknown.to_string(),
        "the client answered the elicitation with JSON-RPC error -1 (an application's error)"
    );
}

/// A URL request sent as an agent that skips the checks would: to a client
/// without URL mode.
pub(crate) fn unadvertised_url_request() -> CreateElicitationRequest {
    CreateElicitationRequest::url(
        ElicitationScope::session("s1"),
        "Open this",
        ElicitationId::new("raw-1"),
        "https://deploy.example.com/connect",
    )
}

#[test]
fn the_client_guard_answers_an_unadvertised_mode_with_invalid_params() {
    // An agent that skips the checks: the client's handler refuses with
    // -32602 and `data.mode`, and never renders the request.
    let request = unadvertised_url_request();
    let run = run(form_only(), Script::default(), Flow::Raw(Box::new(request)));
    match run.got {
        Got::Raw(Err(error)) => {
            assert_eq!(i32::from(error.code), -32602, "{error:?}");
            assert_eq!(error.data, Some(json!({"mode": "url"})));
        }
        other => panic!("{other:?}"),
    }
    assert!(run.shown.is_empty(), "{:?}", run.shown);
}

/// The one rule for a form a client cannot render, on ACP's client side
/// (`protocol::client`'s guard; `mcp_client.rs` checks the MCP host's):
/// refused with `-32602`, `data.notRenderable` saying why, before the
/// renderer is called.
#[test]
fn the_client_refuses_a_form_it_cannot_render_before_the_renderer_sees_it() {
    let schema = serde_json::from_value(json!({"type": "object", "properties": {
        "name": {"type": "string"},
        "colour": {"type": "_color"}
    }}))
    .unwrap();
    let request =
        CreateElicitationRequest::form(ElicitationScope::session("s1"), "Pick a colour", schema);
    // Were the form shown, the script would answer it.
    let run = run(
        form_only(),
        forms(&[json!({"name": "Ada"})]),
        Flow::Raw(Box::new(request)),
    );
    match run.got {
        Got::Raw(Err(error)) => crate::common::assert_refused_as_unrenderable(
            i32::from(error.code).into(),
            &error.message,
            error.data.map(|data| serde_json::to_value(data).unwrap()),
        ),
        other => panic!("{other:?}"),
    }
    assert!(run.shown.is_empty(), "{:?}", run.shown);
}

#[test]
fn sensitive_input_without_url_mode_is_refused_not_asked_in_a_form() {
    let run = run(form_only(), Script::default(), Flow::Sensitive);
    assert_needs_url_mode(&run, None);
}

#[test]
fn url_consent_is_only_consent_and_completion_reaches_the_client_once() {
    let script = Script {
        urls: [UrlAnswer::Consent].into(),
        ..Script::default()
    };
    let run = run(form_and_url(), script, Flow::UrlThenComplete);
    match run.got {
        Got::Completed(first, second) => {
            assert!(first.is_ok(), "{first:?}");
            assert!(
                matches!(
                    second,
                    Err(ElicitError::Completion(CompletionError::AlreadyCompleted(
                        _
                    )))
                ),
                "{second:?}"
            );
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        run.shown,
        [
            "url from the test agent: https://deploy.example.com/connect",
            "open https://deploy.example.com/connect"
        ]
    );
    assert_eq!(run.completed, [ElicitationId::new("token-1")]);
}

#[test]
fn a_declined_url_is_forgotten_by_both_sides() {
    let script = Script {
        urls: [UrlAnswer::Decline].into(),
        ..Script::default()
    };
    let run = run(form_and_url(), script, Flow::Sensitive);
    assert!(
        matches!(run.got, Got::Url(Ok(UrlOutcome::Declined))),
        "{:?}",
        run.got
    );
    // Declined: never opened.
    assert_eq!(run.shown.len(), 1, "{:?}", run.shown);
}

// ---------------------------------------------------------------------------
// The hang this API makes impossible (issue 20)
//
// Everything below runs on one thread, in a `LocalPool`: the agent, the
// client, and the SDK's in-memory transport between them. The client answers
// in its handler, with no thread of its own. `run_until_stalled` then runs
// until no task can make progress, so "the prompt is still unanswered" means
// no further progress is possible, not "not yet": a deadlock, found without
// a timeout.

/// How the agent's prompt handler asks for the form.
#[derive(Clone, Copy)]
enum Asking {
    /// Awaits the request in the handler itself: what `cx.elicit_form(..)`
    /// did when awaited in a handler, before the API made it a compile error
    /// (`tests/user-crates/acp-ui/fail/acp_elicit_in_handler.rs`).
    InTheHandler,
    /// `AgentElicitations::spawn` and the `Elicitor` it gives.
    Spawned,
}

/// What one in-process run saw.
#[derive(Debug, Default)]
struct Seen {
    /// The client answered the `elicitation/create`.
    answered: bool,
    /// The agent's outcome, when it read one.
    outcome: Option<Outcome<Deploy>>,
    /// The agent answered the prompt.
    prompt_answered: bool,
}

fn run_on_one_thread(asking: Asking) -> Seen {
    let seen = Arc::new(Mutex::new(Seen::default()));
    let elicitations = AgentElicitations::new();
    let (e1, e2) = (elicitations.clone(), elicitations);
    let agent_seen = seen.clone();
    let agent = agent_base(e1).on_receive_request(
        async move |_: PromptRequest, responder, cx: ConnectionTo<Client>| {
            let scope = ElicitationScope::session("s1");
            let seen = agent_seen.clone();
            match asking {
                Asking::InTheHandler => {
                    let (request, pending) = e2
                        .with(|c| c.form::<Deploy>(scope, "How many?"))
                        .expect("form mode is advertised");
                    let response = cx
                        .send_request(ElicitationRequest(request))
                        .block_task()
                        .await?;
                    let response =
                        elicit_core::protocol::CreateElicitationResponse::try_from(&response)
                            .expect("an answer elicit reads");
                    let outcome = pending.outcome(&response).expect("a valid answer");
                    seen.lock().unwrap().outcome = Some(outcome);
                    responder.respond(PromptResponse::new(StopReason::EndTurn))
                }
                Asking::Spawned => e2.spawn(&cx, async move |elicitor| {
                    let outcome = elicitor
                        .elicit_form::<Deploy>(scope, "How many?")
                        .await
                        .expect("a valid answer");
                    seen.lock().unwrap().outcome = Some(outcome);
                    responder.respond(PromptResponse::new(StopReason::EndTurn))
                }),
            }
        },
        agent_client_protocol::on_receive_request!(),
    );

    let client_seen = seen.clone();
    let client = Client.v1().on_receive_request(
        async move |_: ElicitationRequest, responder, _cx| {
            client_seen.lock().unwrap().answered = true;
            let answer = json!({"action": "accept", "content": {"replicas": 4, "pairs": 2}});
            responder.respond(serde_json::from_value(answer).expect("an SDK response"))
        },
        agent_client_protocol::on_receive_request!(),
    );
    let capabilities = ClientCapabilities::new().elicitation(form_only().expect("form mode"));
    let client_seen = seen.clone();
    let connection = client.connect_with(agent, async move |cx| {
        cx.send_request(
            InitializeRequest::new(ProtocolVersion::V1).client_capabilities(capabilities),
        )
        .block_task()
        .await?;
        let session = cx
            .send_request(NewSessionRequest::new("/"))
            .block_task()
            .await?;
        cx.send_request(PromptRequest::new(
            session.session_id,
            vec![ContentBlock::Text(TextContent::new("deploy"))],
        ))
        .block_task()
        .await?;
        client_seen.lock().unwrap().prompt_answered = true;
        Ok(())
    });

    let mut pool = futures::executor::LocalPool::new();
    futures::task::LocalSpawnExt::spawn_local(&pool.spawner(), async move {
        connection.await.expect("the connection runs");
    })
    .expect("the pool takes the task");
    pool.run_until_stalled();
    // Dropping the pool drops the stalled connection: nothing is left running.
    drop(pool);
    std::mem::take(&mut *seen.lock().unwrap())
}

#[test]
fn awaiting_an_answer_inside_the_handler_deadlocks_the_connection() {
    // The reproduction: the client answered, yet the agent never read the
    // answer and the prompt is never answered, although nothing else is
    // left to run.
    let seen = run_on_one_thread(Asking::InTheHandler);
    assert!(seen.answered, "{seen:?}");
    assert!(seen.outcome.is_none(), "{seen:?}");
    assert!(!seen.prompt_answered, "{seen:?}");
}

#[test]
fn a_spawned_turn_reads_the_answer_and_ends_the_prompt() {
    let seen = run_on_one_thread(Asking::Spawned);
    assert!(seen.answered, "{seen:?}");
    assert!(
        matches!(
            seen.outcome,
            Some(Outcome::Accepted(Deploy {
                replicas: 4,
                pairs: Pairs(2)
            }))
        ),
        "{seen:?}"
    );
    assert!(seen.prompt_answered, "{seen:?}");
}

/// The README's "A secret, on the agent's own page" snippet (the `sensitive`
/// docs' first example), compiled and run.
pub(crate) mod readme_sensitive {
    // README snippet start
    use elicit_core::Elicit;
    use elicit_core::acp::sdk::{ElicitError, Elicitor};
    use elicit_core::protocol::ElicitationScope;
    use elicit_core::sensitive::{Pages, SecretOutcome, SecretString};

    /// Your deploy token.
    #[derive(Elicit)]
    #[elicit(sensitive, title = "Deploy token")]
    pub struct DeployToken {
        /// From the deploy service: Settings → Tokens.
        #[secret]
        #[elicit(length(min = 12, max = 128), pattern = "^dt-")]
        pub token: SecretString,
    }

    /// In a turn started with `AgentElicitations::spawn`; `pages` is one
    /// `Pages::loopback().build()` for the whole agent process.
    pub async fn deploy_token(
        elicitor: &Elicitor,
        scope: ElicitationScope,
        pages: &Pages,
    ) -> Result<Option<DeployToken>, ElicitError> {
        // URL mode or nothing: a client without it gets no page, and this is
        // `Err(ElicitError::NotSent(..))`.
        let asked = elicitor.elicit_secret::<DeployToken>(scope, "Paste a deploy token.", pages);
        Ok(match asked.await? {
            // The page was submitted and checked; `elicitation/complete` was sent.
            SecretOutcome::Answered(token) => Some(token),
            // Declined, cancelled or expired: the page is closed.
            _ => None,
        })
    }
    // README snippet end

    /// How a page of this form ended, its token exposed (for the tests'
    /// comparisons).
    pub(crate) fn exposed(outcome: SecretOutcome<DeployToken>) -> SecretOutcome<String> {
        use elicit_core::sensitive::ExposeSecret;
        match outcome {
            SecretOutcome::Answered(t) => {
                SecretOutcome::Answered(t.token.expose_secret().to_owned())
            }
            SecretOutcome::Declined => SecretOutcome::Declined,
            SecretOutcome::Cancelled => SecretOutcome::Cancelled,
            SecretOutcome::Expired => SecretOutcome::Expired,
            _ => panic!("an outcome this test does not know"),
        }
    }
}

#[test]
fn the_sensitive_docs_snippet_asks_on_a_page_and_completes() {
    let script = Script {
        urls: [UrlAnswer::Consent].into(),
        ..Script::default()
    };
    // Plays the browser once the client was shown the URL.
    let shown = script.shown.clone();
    let browser = std::thread::spawn(move || {
        let url = shown_url(&shown);
        let status = crate::common::sensitive::answer_page(&url, "token=dt-0123456789ab");
        (url, status)
    });
    let pages = elicit_core::sensitive::Pages::loopback().build();
    let run = run(form_and_url(), script, Flow::Secret(pages));
    let (url, status) = browser.join().unwrap();
    assert_eq!(status, 200);
    let Got::Secret(Ok(Some(token))) = run.got else {
        panic!("the token: {:?}", run.got);
    };
    assert_eq!(token, "dt-0123456789ab");
    let id = url.rsplit('/').next().unwrap();
    assert_eq!(run.completed, [ElicitationId::new(id)]);
}

#[test]
fn the_sensitive_docs_snippet_sends_nothing_without_url_mode() {
    let pages = elicit_core::sensitive::Pages::loopback().build();
    let run = run(form_only(), Script::default(), Flow::Secret(pages.clone()));
    assert_needs_url_mode(&run, Some(&pages));
}

/// The `sensitive` module docs' first snippet (the README points there) is
/// this code, with its comments.
#[test]
fn the_sensitive_docs_snippet_is_this_code() {
    assert_eq!(
        crate::common::readme::lines(crate::common::readme::snippet(include_str!("acp_sdk.rs"))),
        crate::common::readme::lines(&crate::common::readme::docs_block(
            include_str!("../../elicit-core/src/sensitive/mod.rs"),
            "Sensitive input"
        ))
    );
}

/// `Elicitor::elicit_oauth` against the real OpenID provider
/// (`common::oidc`): the client consents, the user signs in and consents at
/// the provider in headless Chromium, the agent gets a token the provider
/// accepts, and the client gets `elicitation/complete` for the start page.
#[test]
fn elicit_oauth_gets_a_token_of_the_real_provider_and_completes() {
    use crate::common::oidc;
    use elicit_core::sensitive::ExposeSecret;
    use elicit_core::sensitive::oauth::OAuthOutcome;

    let Some(installed) = oidc::installed() else {
        return;
    };
    let (provider, oauth) = oidc::start_for_pages(&installed, "elicit");
    let e = &provider.endpoints;
    let script = Script {
        urls: [UrlAnswer::Consent].into(),
        ..Script::default()
    };
    let shown = script.shown.clone();
    let browser = std::thread::spawn(move || {
        let browser = crate::browser::Browser::start()?;
        let url = shown_url(&shown);
        browser.goto(&url);
        oidc::sign_in_and_consent(&browser, "carol");
        Some(url)
    });
    let pages = elicit_core::sensitive::Pages::loopback().build();
    let run = run(form_and_url(), script, Flow::OAuth(pages, Box::new(oauth)));
    let Some(url) = browser.join().unwrap() else {
        return; // no browser here, and not required
    };
    let Got::OAuth(Ok(OAuthOutcome::Authorized(token))) = run.got else {
        panic!("a token: {:?}", run.got);
    };
    assert!(
        !url.contains(&e.issuer),
        "the client saw the provider: {url}"
    );
    let id = url.rsplit('/').next().unwrap();
    assert_eq!(run.completed, [ElicitationId::new(id)]);
    let userinfo = oidc::userinfo(e, token.access_token().expose_secret());
    assert_eq!(userinfo.status, 200, "{}", userinfo.body);
    assert!(
        userinfo.body.contains(r#""sub":"carol""#),
        "{}",
        userinfo.body
    );
}

/// `Elicitor::elicit_oauth` opens nothing for a client without URL mode.
#[test]
fn elicit_oauth_sends_nothing_without_url_mode() {
    let oauth = elicit_core::sensitive::oauth::Provider::new(
        "https://provider.example/authorize",
        "https://provider.example/token",
        "elicit",
    )
    .expect("https endpoints");
    let pages = elicit_core::sensitive::Pages::loopback().build();
    let run = run(
        form_only(),
        Script::default(),
        Flow::OAuth(pages.clone(), Box::new(oauth)),
    );
    assert_needs_url_mode(&run, Some(&pages));
}

/// A token the deploy service revoked: `token_check` refuses it.
const REVOKED: &str = "dt-revoked-0001";
/// A token `token_check` cannot decide on: its service is down.
const UNCHECKABLE: &str = "dt-unchecked-01";
/// A token `token_check` accepts.
const GOOD: &str = "dt-0123456789ab";

/// The call's own rule on a deploy token: `REVOKED` is refused on its
/// field, `UNCHECKABLE` cannot be decided.
fn token_check(
    form: &readme_sensitive::DeployToken,
) -> Result<Result<(), elicit_core::ContentError>, std::io::Error> {
    use elicit_core::sensitive::ExposeSecret;
    match form.token.expose_secret() {
        REVOKED => Ok(Err(elicit_core::FieldError::rule(
            "token",
            "was revoked: paste a current one",
        )
        .into())),
        UNCHECKABLE => Err(std::io::Error::other("the token service is down")),
        _ => Ok(Ok(())),
    }
}

/// Waits until the client was shown `n` URLs, and returns them.
fn shown_urls(shown: &Mutex<Vec<String>>, n: usize) -> Vec<String> {
    loop {
        let urls: Vec<String> = shown
            .lock()
            .unwrap()
            .iter()
            .filter_map(|s| s.strip_prefix("url from the test agent: "))
            .map(str::to_owned)
            .collect();
        if urls.len() >= n {
            return urls;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// `elicit_secret(..).retry(retry).check(token_check)` on loopback pages,
/// the browser submitting `tokens` in turn, one page each; the run, and
/// each page as its browser saw it.
fn checked_secret(
    retry: u32,
    tokens: &'static [&'static str],
) -> (Run, Vec<crate::common::sensitive::Answered>, Vec<String>) {
    let script = Script {
        urls: tokens.iter().map(|_| UrlAnswer::Consent).collect(),
        ..Script::default()
    };
    let (shown, messages) = (script.shown.clone(), script.url_messages.clone());
    let browser = std::thread::spawn(move || {
        let mut answered = Vec::new();
        for (n, token) in tokens.iter().enumerate() {
            let url = shown_urls(&shown, n + 1)[n].clone();
            let page = crate::common::sensitive::answer_page_seen(&url, &format!("token={token}"));
            assert_eq!(page.status, 200, "page {n}");
            answered.push(page);
        }
        answered
    });
    let pages = elicit_core::sensitive::Pages::loopback().build();
    let run = run(form_and_url(), script, Flow::SecretChecked(pages, retry));
    let answered = browser.join().unwrap();
    let messages = messages.lock().unwrap().clone();
    (run, answered, messages)
}

/// A token the call's check refuses is asked again on a new page: the
/// first page's elicitation is completed, the second page shows the error
/// on the token's field and nothing of the refused token, its URL is asked
/// with the errors in the message, and its token is the answer.
#[test]
fn a_secret_the_check_refuses_is_asked_again_on_a_new_page_showing_the_error() {
    let (run, answered, messages) = checked_secret(1, &[REVOKED, GOOD]);
    let Got::SecretOutcome(Ok(elicit_core::sensitive::SecretOutcome::Answered(token))) = run.got
    else {
        panic!("the second token: {:?}", run.got);
    };
    assert_eq!(token, GOOD);
    let urls = shown_urls(&Mutex::new(run.shown.clone()), 2);
    assert_eq!(urls.len(), 2, "{:?}", run.shown);
    assert_ne!(urls[0], urls[1], "a new page");
    let ids: Vec<ElicitationId> = urls
        .iter()
        .map(|url| ElicitationId::new(url.rsplit('/').next().unwrap()))
        .collect();
    assert_eq!(run.completed, ids, "both pages ended in the browser");
    // The first page shows no error; the second shows the check's, on
    // the token's field, and nothing of the refused token.
    assert!(!answered[0].page.contains("was revoked"));
    let second = &answered[1].page;
    assert!(
        second.contains("<p class=\"error\" id=\"")
            && second.contains("was revoked: paste a current one"),
        "{second}"
    );
    assert!(
        !second.contains(REVOKED),
        "the refused token is on the page"
    );
    assert!(
        !second.contains("dt-revoked"),
        "the refused token is on the page"
    );
    assert_eq!(
        messages,
        [
            "Paste a deploy token.".to_owned(),
            "Paste a deploy token.\n\nThe previous answer was not accepted: `token` was revoked: \
             paste a current one. Please correct it."
                .to_owned()
        ]
    );
}

/// Refused on every page: `Invalid` with the check's errors and the
/// number of pages.
#[test]
fn a_secret_refused_on_every_page_is_invalid_with_the_attempts() {
    let (run, _, messages) = checked_secret(1, &[REVOKED, REVOKED]);
    let Got::SecretOutcome(Err(ElicitError::Invalid { errors, attempts })) = &run.got else {
        panic!("invalid: {:?}", run.got);
    };
    assert_eq!(*attempts, 2);
    assert_eq!(errors.fields().collect::<Vec<_>>(), ["token"]);
    assert_eq!(
        errors.to_string(),
        "invalid form content: `token` was revoked: paste a current one"
    );
    assert_eq!(messages.len(), 2);
    assert_eq!(run.completed.len(), 2);
}

/// A check that cannot decide ends the call with `ElicitError::Check`: one
/// page, never asked again.
#[test]
fn a_secret_check_that_fails_ends_the_call() {
    let (run, _, messages) = checked_secret(3, &[UNCHECKABLE]);
    let Got::SecretOutcome(Err(error @ ElicitError::Check(_))) = &run.got else {
        panic!("a check error: {:?}", run.got);
    };
    assert!(
        error.to_string().contains("the token service is down") || {
            let source = std::error::Error::source(error).map(|s| s.to_string());
            source.is_some_and(|s| s.contains("the token service is down"))
        },
        "{error}"
    );
    assert_eq!(messages, ["Paste a deploy token."]);
}

/// A sensitive form with a rule of its own the page cannot check.
#[derive(Elicit)]
#[elicit(sensitive)]
pub(crate) struct Login {
    /// The account.
    account: Account,
    /// The password.
    #[secret]
    #[elicit(length(min = 8))]
    password: elicit_core::sensitive::SecretString,
}

/// An account name other than `root` (`try_from`: the agent checks it,
/// not the page).
#[derive(Elicit, Debug, Clone)]
#[elicit(try_from = "String", into = "String")]
struct Account(String);

impl TryFrom<String> for Account {
    type Error = &'static str;
    fn try_from(name: String) -> Result<Self, Self::Error> {
        match name.as_str() {
            "root" => Err("root cannot sign in here"),
            _ => Ok(Self(name)),
        }
    }
}

impl From<Account> for String {
    fn from(account: Account) -> String {
        account.0
    }
}

/// An answer the form's own rules refuse (what the page cannot check: a
/// `try_from`) is asked again on a new page, as a check's refusal is: the
/// error on its field, the secret input empty, the refused password
/// nowhere.
#[test]
fn a_secret_its_form_refuses_is_asked_again_on_a_new_page() {
    const FIRST: &str = "first-password-1";
    let script = Script {
        urls: [UrlAnswer::Consent, UrlAnswer::Consent].into(),
        ..Script::default()
    };
    let shown = script.shown.clone();
    let browser = std::thread::spawn(move || {
        let first = shown_urls(&shown, 1)[0].clone();
        let refused = crate::common::sensitive::answer_page_seen(
            &first,
            &format!("account=root&password={FIRST}"),
        );
        let second = shown_urls(&shown, 2)[1].clone();
        let accepted = crate::common::sensitive::answer_page_seen(
            &second,
            "account=alice&password=second-password-2",
        );
        (refused, accepted)
    });
    let pages = elicit_core::sensitive::Pages::loopback().build();
    let run = run(form_and_url(), script, Flow::Login(pages));
    let (refused, accepted) = browser.join().unwrap();
    assert_eq!((refused.status, accepted.status), (200, 200));
    assert!(
        matches!(
            &run.got,
            Got::SecretOutcome(Ok(elicit_core::sensitive::SecretOutcome::Answered(account)))
                if account == "alice 17"
        ),
        "{:?}",
        run.got
    );
    assert!(
        accepted.page.contains("root cannot sign in here"),
        "{}",
        accepted.page
    );
    assert!(!accepted.page.contains(FIRST), "the refused password");
    assert_eq!(run.completed.len(), 2);
}
