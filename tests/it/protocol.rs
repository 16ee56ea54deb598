//! The protocol layer (issue 4): capabilities, messages, the agent and client
//! sides, URL safety.
//!
//! Every emitted message is validated against the official JSON schema of
//! its type, generated here from `agent-client-protocol-schema` (feature
//! `schemars`), and parsed with that crate's Rust types. The protocol page's
//! JSON examples are embedded verbatim and round-trip byte for byte (after
//! removing the page's insignificant whitespace).

use std::sync::OnceLock;

use crate::common::official::Official;
use agent_client_protocol_schema::v1 as acp;
use elicit_core::protocol::agent::{
    AgentConnection, CompletionError, Outcome, SendError, UrlOutcome, UrlOutcomeError, UrlRequest,
    VerifiedUser,
};
use elicit_core::protocol::client::{AnswerError, ClientConnection, Completion, Incoming};
use elicit_core::protocol::url::{UrlRejection, UrlReview, UrlVerdict, UrlWarning, check_url};
use elicit_core::protocol::{
    CompleteElicitationNotification, CreateElicitationRequest, CreateElicitationResponse,
    ELICITATION_COMPLETE, ELICITATION_CREATE, ElicitationAction, ElicitationCapabilities,
    ElicitationId, ElicitationMode, ElicitationScope, INVALID_PARAMS, JsonRpcError, Mode,
    OtherAction, OtherMode, RequestId,
};
use elicit_core::{Content, Elicit};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

// ---------------------------------------------------------------------------
// Forms used below.

#[derive(Elicit, Debug, Clone, Copy, PartialEq, Eq)]
#[elicit(rename_all = "lowercase")]
enum RefactorStrategy {
    Conservative,
    Balanced,
    Aggressive,
}

// The protocol page's form example, exactly.
#[derive(Elicit, Debug, Clone, PartialEq)]
struct Refactor {
    strategy: RefactorStrategy,
}

#[derive(Elicit, Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[elicit(rename_all = "kebab-case")]
enum Environment {
    #[elicit(title = "Staging")]
    Staging,
    #[elicit(title = "Production", description = "Real users: be careful.")]
    Production,
}

/// Deploy the current branch.
#[derive(Elicit, Debug, Clone, PartialEq)]
#[elicit(title = "Deploy", rename_all = "camelCase")]
struct Deploy {
    /// Where to deploy.
    env: Environment,
    #[elicit(range(min = 1, max = 16), default = 2)]
    replicas: u8,
    notify_team: Option<bool>,
    #[elicit(length(max = 200))]
    note: Option<String>,
    regions: Vec<Environment>,
    #[elicit(range(min = 0.0, max = 1.0))]
    canary_ratio: Option<f64>,
    #[elicit(email)]
    contact: Option<String>,
}

// ---------------------------------------------------------------------------
// Helpers.

/// The official JSON schema of `$ty`, compiled once.
macro_rules! official {
    ($ty:ty) => {{
        static VALIDATOR: OnceLock<Official> = OnceLock::new();
        VALIDATOR.get_or_init(|| {
            let schema = serde_json::to_value(schemars::schema_for!($ty))
                .expect("the official schema serializes");
            Official::new(schema)
        })
    }};
}

fn assert_conforms(validator: &Official, value: &Value, what: &str) {
    let errors = validator.errors(value);
    assert!(errors.is_empty(), "{what}: {value}\n{errors:#?}");
}

/// Checks an emitted request against the official schema and Rust type.
fn assert_official_request(request: &CreateElicitationRequest) -> Value {
    let wire = serde_json::to_value(request).unwrap();
    assert_conforms(official!(acp::CreateElicitationRequest), &wire, "request");
    let sdk: acp::CreateElicitationRequest = serde_json::from_value(wire.clone())
        .unwrap_or_else(|e| panic!("the SDK type refuses {wire}: {e}"));
    match (&request.mode, &sdk.mode) {
        (ElicitationMode::Form { .. }, acp::ElicitationMode::Form(_))
        | (ElicitationMode::Url { .. }, acp::ElicitationMode::Url(_))
        | (ElicitationMode::Other(_), acp::ElicitationMode::Other(_)) => {}
        (ours, theirs) => panic!("mode read differently: {ours:?} vs {theirs:?}"),
    }
    assert_eq!(sdk.message, request.message);
    wire
}

/// Checks an emitted response against the official schema and Rust type.
fn assert_official_response(response: &CreateElicitationResponse) -> Value {
    let wire = serde_json::to_value(response).unwrap();
    assert_conforms(official!(acp::CreateElicitationResponse), &wire, "response");
    let sdk: acp::CreateElicitationResponse = serde_json::from_value(wire.clone())
        .unwrap_or_else(|e| panic!("the SDK type refuses {wire}: {e}"));
    match (&response.action, &sdk.action) {
        (ElicitationAction::Accept { .. }, acp::ElicitationAction::Accept(_))
        | (ElicitationAction::Decline, acp::ElicitationAction::Decline)
        | (ElicitationAction::Cancel, acp::ElicitationAction::Cancel)
        | (ElicitationAction::Other(_), acp::ElicitationAction::Other(_)) => {}
        (ours, theirs) => panic!("action read differently: {ours:?} vs {theirs:?}"),
    }
    wire
}

fn assert_official_notification(notification: &CompleteElicitationNotification) -> Value {
    let wire = serde_json::to_value(notification).unwrap();
    assert_conforms(
        official!(acp::CompleteElicitationNotification),
        &wire,
        "notification",
    );
    let sdk: acp::CompleteElicitationNotification = serde_json::from_value(wire.clone()).unwrap();
    assert_eq!(&*sdk.elicitation_id.0, notification.elicitation_id.as_str());
    wire
}

fn assert_official_error(error: &JsonRpcError) {
    let wire = serde_json::to_value(error).unwrap();
    assert_conforms(official!(acp::Error), &wire, "error");
    let sdk: acp::Error = serde_json::from_value(wire).unwrap();
    assert_eq!(i32::from(sdk.code), -32602);
}

/// Removes the whitespace outside strings: the page's examples are
/// pretty-printed, the wire is compact.
fn minify(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let (mut in_string, mut escaped) = (false, false);
    for c in text.chars() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
        } else if c == '"' {
            in_string = true;
            out.push(c);
        } else if !c.is_whitespace() {
            out.push(c);
        }
    }
    out
}

/// Parses `text` as `T` and checks that it serializes to exactly `text`,
/// minified.
fn round_trip<T: Serialize + DeserializeOwned>(text: &str) -> T {
    let value: T = serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"));
    assert_eq!(serde_json::to_string(&value).unwrap(), minify(text));
    value
}

/// A JSON-RPC request or notification frame (the transport's business; here
/// only to round-trip the page's examples whole).
#[derive(Serialize, Deserialize)]
struct Frame<P> {
    jsonrpc: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    id: Option<Value>,
    method: String,
    params: P,
}

#[derive(Serialize, Deserialize)]
struct InitializeCapabilities {
    #[serde(rename = "clientCapabilities")]
    client_capabilities: ClientCapabilities,
}

#[derive(Serialize, Deserialize)]
struct ClientCapabilities {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    elicitation: Option<ElicitationCapabilities>,
}

fn session() -> ElicitationScope {
    ElicitationScope::session("sess_abc123")
}

fn all_capabilities() -> [Option<ElicitationCapabilities>; 5] {
    [
        None,
        Some(ElicitationCapabilities::none()),
        Some(ElicitationCapabilities::form_only()),
        Some(ElicitationCapabilities::url_only()),
        Some(ElicitationCapabilities::form_and_url()),
    ]
}

/// A URL request bound to `user`.
fn url_request(url: &str, user: &VerifiedUser) -> UrlRequest {
    UrlRequest::new("Please sign in.", url).for_user(user)
}

fn unbound(url: &str) -> UrlRequest {
    UrlRequest::new("Please sign in.", url)
}

fn response(value: Value) -> CreateElicitationResponse {
    serde_json::from_value(value).unwrap()
}

// ---------------------------------------------------------------------------
// The protocol page's examples, verbatim.

const SPEC_CAPABILITIES: &str = r#"{
  "clientCapabilities": {
    "elicitation": {
      "form": {},
      "url": {}
    }
  }
}"#;

const SPEC_FORM_REQUEST: &str = r#"{
  "jsonrpc": "2.0",
  "id": 43,
  "method": "elicitation/create",
  "params": {
    "sessionId": "sess_abc123",
    "mode": "form",
    "message": "How should I approach this refactoring?",
    "requestedSchema": {
      "type": "object",
      "properties": {
        "strategy": {
          "type": "string",
          "enum": ["conservative", "balanced", "aggressive"]
        }
      },
      "required": ["strategy"]
    }
  }
}"#;

const SPEC_URL_REQUEST: &str = r#"{
  "jsonrpc": "2.0",
  "id": 44,
  "method": "elicitation/create",
  "params": {
    "requestId": 12,
    "mode": "url",
    "elicitationId": "github-oauth-001",
    "url": "https://agent.example.com/connect?elicitationId=github-oauth-001",
    "message": "Please authorize access to your repositories."
  }
}"#;

#[test]
fn spec_capabilities_example_round_trips() {
    let parsed: InitializeCapabilities = round_trip(SPEC_CAPABILITIES);
    let caps = parsed.client_capabilities.elicitation.unwrap();
    assert!(caps.supports(Mode::Form) && caps.supports(Mode::Url));
    let wire = serde_json::to_value(&caps).unwrap();
    assert_conforms(
        official!(acp::ElicitationCapabilities),
        &wire,
        "capabilities",
    );
    let whole: Value = serde_json::from_str(SPEC_CAPABILITIES).unwrap();
    assert_conforms(
        official!(acp::ClientCapabilities),
        &whole["clientCapabilities"],
        "clientCapabilities",
    );
    assert_eq!(
        serde_json::to_string(&ElicitationCapabilities::form_and_url()).unwrap(),
        r#"{"form":{},"url":{}}"#
    );
}

#[test]
fn spec_form_request_example_round_trips_and_is_what_the_agent_builds() {
    let frame: Frame<CreateElicitationRequest> = round_trip(SPEC_FORM_REQUEST);
    assert_eq!(frame.method, ELICITATION_CREATE);
    let request = frame.params;
    assert_eq!(request.scope, session());
    assert_eq!(request.mode.known(), Some(Mode::Form));
    assert_eq!(request.requested_schema(), Some(&Refactor::schema()));
    assert_official_request(&request);

    // The agent builds exactly this from the derived type.
    let mut agent = AgentConnection::new(Some(ElicitationCapabilities::form_and_url()));
    let (built, _pending) = agent
        .form::<Refactor>(session(), "How should I approach this refactoring?")
        .unwrap();
    assert_eq!(built, request);
    let spec: Value = serde_json::from_str(SPEC_FORM_REQUEST).unwrap();
    assert_eq!(
        serde_json::to_string(&built).unwrap(),
        serde_json::to_string(&spec["params"]).unwrap()
    );
    let _ = &mut agent;
}

#[test]
fn spec_url_request_example_round_trips_and_is_what_the_agent_builds() {
    let frame: Frame<CreateElicitationRequest> = round_trip(SPEC_URL_REQUEST);
    let request = frame.params;
    assert_eq!(request.scope, ElicitationScope::request(12));
    assert_eq!(
        request.elicitation_id(),
        Some(&ElicitationId::new("github-oauth-001"))
    );
    assert_official_request(&request);

    let mut agent = AgentConnection::new(Some(ElicitationCapabilities::url_only()));
    let (built, pending) = agent
        .url(
            ElicitationScope::request(12),
            UrlRequest::new(
                "Please authorize access to your repositories.",
                "https://agent.example.com/connect?elicitationId=github-oauth-001",
            )
            .elicitation_id("github-oauth-001"),
        )
        .unwrap();
    assert_eq!(built, request);
    assert_eq!(pending.id().as_str(), "github-oauth-001");
    assert!(agent.is_outstanding(pending.id()));
}

/// The page shows no JSON for responses and the notification; these follow
/// its prose (accept with content, URL accept without, decline, cancel,
/// completion with the original id).
#[test]
fn spec_prose_responses_and_notification_round_trip() {
    for text in [
        r#"{"action":"accept","content":{"strategy":"balanced"}}"#,
        r#"{"action":"accept"}"#,
        r#"{"action":"decline"}"#,
        r#"{"action":"cancel"}"#,
        r#"{"action":"accept","content":{"env":"staging","replicas":3,"ratio":0.5,"notify":true,"regions":["staging"]},"_meta":{"trace":"t1"}}"#,
    ] {
        let response: CreateElicitationResponse = round_trip(text);
        assert_official_response(&response);
    }
    let frame: Frame<CompleteElicitationNotification> = round_trip(
        r#"{"jsonrpc":"2.0","method":"elicitation/complete","params":{"elicitationId":"github-oauth-001"}}"#,
    );
    assert_eq!(frame.method, ELICITATION_COMPLETE);
    assert!(frame.id.is_none());
    assert_official_notification(&frame.params);
    let with_meta: CompleteElicitationNotification =
        round_trip(r#"{"elicitationId":"e","_meta":{"k":[1,2]}}"#);
    assert_official_notification(&with_meta);
}

#[test]
fn omitted_and_null_content_are_the_same_and_content_is_ignored_for_decline_cancel() {
    let omitted = response(json!({"action": "accept"}));
    let null = response(json!({"action": "accept", "content": null}));
    assert_eq!(omitted, null);
    assert_eq!(omitted.content(), None);
    for action in ["decline", "cancel"] {
        let r = response(json!({"action": action, "content": {"strategy": "balanced"}}));
        assert_eq!(r.content(), None);
        assert_eq!(
            serde_json::to_value(&r).unwrap(),
            json!({"action": action}),
            "content is not written back"
        );
        // And the agent does not read it.
        let outcome = Outcome::<Refactor>::from_response(&r).unwrap();
        assert!(matches!(outcome, Outcome::Declined | Outcome::Cancelled));
        assert_eq!(
            Outcome::<Refactor>::from_response_owned(r).unwrap(),
            outcome
        );
    }
    // Accepted content read from an owned response is the same value.
    let accepted = response(json!({"action": "accept", "content": {"strategy": "balanced"}}));
    let borrowed = Outcome::<Refactor>::from_response(&accepted).unwrap();
    assert!(matches!(borrowed, Outcome::Accepted(_)));
    assert_eq!(
        Outcome::<Refactor>::from_response_owned(accepted).unwrap(),
        borrowed
    );
}

#[test]
fn method_names_and_error_code() {
    assert_eq!(ELICITATION_CREATE, "elicitation/create");
    assert_eq!(ELICITATION_COMPLETE, "elicitation/complete");
    assert_eq!(INVALID_PARAMS, -32602);
    assert_eq!(i32::from(acp::ErrorCode::InvalidParams), -32602);
}

// ---------------------------------------------------------------------------
// Capabilities.

#[test]
fn capability_table() {
    // (case, clientCapabilities, form, url)
    let table = [
        ("omitted", json!({}), false, false),
        ("null", json!({"elicitation": null}), false, false),
        ("empty object", json!({"elicitation": {}}), false, false),
        (
            "both null",
            json!({"elicitation": {"form": null, "url": null}}),
            false,
            false,
        ),
        (
            "form only",
            json!({"elicitation": {"form": {}}}),
            true,
            false,
        ),
        ("url only", json!({"elicitation": {"url": {}}}), false, true),
        (
            "both",
            json!({"elicitation": {"form": {}, "url": {}}}),
            true,
            true,
        ),
        (
            "form, url null",
            json!({"elicitation": {"form": {}, "url": null}}),
            true,
            false,
        ),
        (
            "unknown extra fields",
            json!({"elicitation": {"form": {"_meta": {"a": 1}, "future": true}, "_x": 1,
                   "stream": {}}, "fs": {"readTextFile": true}}),
            true,
            false,
        ),
        (
            "unknown fields only",
            json!({"elicitation": {"_x": {}, "stream": {}}}),
            false,
            false,
        ),
        (
            "malformed modes read as absent",
            json!({"elicitation": {"form": true, "url": "yes"}}),
            false,
            false,
        ),
        (
            "malformed elicitation",
            json!({"elicitation": true}),
            false,
            false,
        ),
    ];
    for (case, client_capabilities, form, url) in table {
        let caps = ElicitationCapabilities::from_client_capabilities(&client_capabilities);
        let ours = (
            caps.as_ref().is_some_and(|c| c.supports(Mode::Form)),
            caps.as_ref().is_some_and(|c| c.supports(Mode::Url)),
        );
        assert_eq!(ours, (form, url), "{case}");

        // The agent connection agrees.
        let agent = AgentConnection::from_client_capabilities(&client_capabilities);
        assert_eq!(
            (agent.supports(Mode::Form), agent.supports(Mode::Url)),
            (form, url),
            "{case}"
        );
        assert_eq!(
            agent.form::<Refactor>(session(), "?").is_ok(),
            form,
            "{case}"
        );

        // The official Rust types agree.
        let sdk: acp::ClientCapabilities = serde_json::from_value(client_capabilities.clone())
            .unwrap_or_else(|e| panic!("{case}: {e}"));
        let theirs = (
            sdk.elicitation.as_ref().is_some_and(|e| e.supports_form()),
            sdk.elicitation.as_ref().is_some_and(|e| e.supports_url()),
        );
        assert_eq!(theirs, (form, url), "{case}: the SDK reads it differently");

        // Written back, what we read still conforms and means the same.
        if let Some(caps) = caps {
            let wire = serde_json::to_value(&caps).unwrap();
            assert_conforms(official!(acp::ElicitationCapabilities), &wire, case);
            let again: ElicitationCapabilities = serde_json::from_value(wire).unwrap();
            assert_eq!(again.modes(), caps.modes(), "{case}");
        }
    }
}

#[test]
fn capabilities_keep_unknown_fields() {
    let caps: ElicitationCapabilities = round_trip(
        r#"{"form":{"_meta":{"a":1},"future":true},"url":{},"_meta":{"m":1},"stream":{"x":1}}"#,
    );
    assert_eq!(caps.modes(), [Mode::Form, Mode::Url]);
    assert_eq!(caps.extra.get("stream"), Some(&json!({"x": 1})));
}

// ---------------------------------------------------------------------------
// Emitted messages conform to the official schema.

#[test]
fn every_request_the_agent_builds_conforms() {
    let mut agent = AgentConnection::new(Some(ElicitationCapabilities::form_and_url()));
    let scopes = [
        ElicitationScope::session("sess_1"),
        ElicitationScope::tool_call("sess_1", "call_1"),
        ElicitationScope::request(7),
        ElicitationScope::request("req-7"),
        ElicitationScope::request(RequestId::Null),
    ];
    for scope in scopes {
        let (request, _) = agent.form::<Refactor>(scope.clone(), "Strategy?").unwrap();
        let wire = assert_official_request(&request);
        assert_eq!(
            serde_json::from_value::<CreateElicitationRequest>(wire).unwrap(),
            request
        );

        let (request, _) = agent.form::<Deploy>(scope.clone(), "Deploy?").unwrap();
        let wire = assert_official_request(&request);
        assert_eq!(wire["requestedSchema"]["title"], "Deploy");
        assert_eq!(
            serde_json::from_value::<CreateElicitationRequest>(wire).unwrap(),
            request
        );

        let mut meta = Map::new();
        meta.insert("trace".into(), json!("t-1"));
        let (request, _) = agent
            .url(
                scope.clone(),
                UrlRequest::new("Sign in.", "https://agent.example.com/login?flow=1")
                    .for_user(&VerifiedUser::new("u1"))
                    .meta(meta),
            )
            .unwrap();
        let wire = assert_official_request(&request);
        assert_eq!(wire["_meta"], json!({"trace": "t-1"}));
        assert_eq!(
            serde_json::from_value::<CreateElicitationRequest>(wire).unwrap(),
            request
        );

        let (request, _) = agent
            .url(
                session(),
                unbound("https://agent.example.com/key").sensitive(),
            )
            .unwrap();
        assert_official_request(&request);
    }
}

#[test]
fn every_response_the_client_builds_conforms() {
    let mut client = ClientConnection::new(Some(ElicitationCapabilities::form_and_url()));
    let mut agent = AgentConnection::new(Some(ElicitationCapabilities::form_and_url()));
    let (request, pending) = agent.form::<Deploy>(session(), "Deploy?").unwrap();
    let Ok(Incoming::Form(form)) = client.receive(request) else {
        panic!("form refused")
    };

    let value = Deploy {
        env: Environment::Production,
        replicas: 3,
        notify_team: Some(true),
        note: None,
        regions: vec![Environment::Staging, Environment::Production],
        canary_ratio: Some(0.25),
        contact: Some("ops@example.com".into()),
    };
    let mut content = value.to_content();
    content.insert("note".into(), Value::Null); // unanswered: dropped
    content.insert("unrelated".into(), json!({"nested": true})); // not in the form: dropped
    let accepted = form.accept(content).unwrap();
    let wire = assert_official_response(&accepted);
    assert!(wire["content"].get("note").is_none());
    assert!(wire["content"].get("unrelated").is_none());
    assert_eq!(
        pending.outcome(&accepted).unwrap(),
        Outcome::Accepted(value)
    );

    for r in [form.decline(), form.cancel()] {
        assert_official_response(&r);
    }

    let (request, _) = agent
        .url(session(), unbound("https://agent.example.com/x"))
        .unwrap();
    let Ok(Incoming::Url(url)) = client.receive(request) else {
        panic!("url refused")
    };
    for r in [url.consent().unwrap(), url.decline(), url.cancel()] {
        assert_official_response(&r);
    }
    assert_eq!(
        serde_json::to_value(url.consent().unwrap()).unwrap(),
        json!({"action": "accept"})
    );
}

#[test]
fn messages_built_by_the_official_types_read_the_same() {
    let sdk = acp::CreateElicitationRequest::new(
        acp::ElicitationUrlMode::new(
            acp::ElicitationSessionScope::new("sess_2").tool_call_id("tc_1"),
            "e-9",
            "https://agent.example.com/x",
        ),
        "Sign in",
    );
    let ours: CreateElicitationRequest =
        serde_json::from_value(serde_json::to_value(&sdk).unwrap()).unwrap();
    assert_eq!(
        ours,
        CreateElicitationRequest::url(
            ElicitationScope::tool_call("sess_2", "tc_1"),
            "Sign in",
            "e-9",
            "https://agent.example.com/x"
        )
    );

    let schema = acp::ElicitationSchema::new().string("name", true);
    let sdk = acp::CreateElicitationRequest::new(
        acp::ElicitationFormMode::new(
            acp::ElicitationRequestScope::new(acp::RequestId::Str("r".into())),
            schema,
        ),
        "Name?",
    );
    let ours: CreateElicitationRequest =
        serde_json::from_value(serde_json::to_value(&sdk).unwrap()).unwrap();
    assert_eq!(ours.scope, ElicitationScope::request("r"));
    assert!(ours.requested_schema().unwrap().is_required("name"));

    let sdk = acp::CreateElicitationResponse::new(acp::ElicitationAction::Cancel);
    let ours: CreateElicitationResponse =
        serde_json::from_value(serde_json::to_value(&sdk).unwrap()).unwrap();
    assert_eq!(ours, CreateElicitationResponse::cancel());
}

// ---------------------------------------------------------------------------
// Refusals.

#[test]
fn agent_refuses_unadvertised_modes() {
    for caps in all_capabilities() {
        let form = caps.as_ref().is_some_and(|c| c.supports(Mode::Form));
        let url = caps.as_ref().is_some_and(|c| c.supports(Mode::Url));
        let mut agent = AgentConnection::new(caps.clone());
        match agent.form::<Refactor>(session(), "?") {
            Ok((request, _)) => assert!(form && request.mode.known() == Some(Mode::Form)),
            Err(e) => {
                assert!(!form);
                assert_eq!(e, SendError::ModeNotAdvertised { mode: Mode::Form });
                assert!(e.to_string().contains("fall back"), "{e}");
            }
        }
        match agent.url(session(), unbound("https://agent.example.com/")) {
            Ok((request, _)) => assert!(url && request.mode.known() == Some(Mode::Url)),
            Err(e) => {
                assert!(!url);
                assert_eq!(e, SendError::ModeNotAdvertised { mode: Mode::Url });
            }
        }
    }
}

#[test]
fn client_answers_unadvertised_modes_with_the_invalid_params_error() {
    let mut agent = AgentConnection::new(Some(ElicitationCapabilities::form_and_url()));
    let (form_request, _) = agent.form::<Refactor>(session(), "?").unwrap();
    let (url_request, _) = agent
        .url(session(), unbound("https://agent.example.com/"))
        .unwrap();
    let unknown: CreateElicitationRequest = serde_json::from_value(json!({
        "sessionId": "s", "mode": "_browser", "message": "m", "target": "login"
    }))
    .unwrap();

    for caps in all_capabilities() {
        let form = caps.as_ref().is_some_and(|c| c.supports(Mode::Form));
        let url = caps.as_ref().is_some_and(|c| c.supports(Mode::Url));
        let mut client = ClientConnection::new(caps.clone());
        for (request, advertised, mode) in [
            (&form_request, form, "form"),
            (&url_request, url, "url"),
            (&unknown, false, "_browser"),
        ] {
            match client.receive(request.clone()) {
                Ok(_) => assert!(advertised, "{mode} accepted though not advertised"),
                Err(error) => {
                    assert!(!advertised, "{mode} refused though advertised");
                    assert_eq!(
                        serde_json::to_value(&error).unwrap(),
                        json!({
                            "code": -32602,
                            "message": format!(
                                "Invalid params: the client did not advertise elicitation mode `{mode}`"
                            ),
                            "data": {"mode": mode}
                        })
                    );
                    assert_official_error(&error);
                }
            }
        }
    }
}

#[test]
fn client_answers_malformed_params_with_invalid_params() {
    let mut client = ClientConnection::new(Some(ElicitationCapabilities::form_and_url()));
    for params in [
        json!({"sessionId": "s", "mode": "form", "message": "m"}),
        json!({"sessionId": "s", "message": "m", "requestedSchema": {"properties": {}}}),
        json!({"mode": "url", "message": "m", "elicitationId": "e", "url": "https://a.example"}),
        json!({"sessionId": 5, "mode": "form", "message": "m", "requestedSchema": {}}),
        json!("not an object"),
    ] {
        let error = client.receive_value(params.clone()).unwrap_err();
        assert_eq!(error.code, INVALID_PARAMS, "{params}");
        assert_official_error(&error);
    }
}

#[test]
fn sensitive_input_never_yields_a_form_request() {
    for caps in all_capabilities() {
        let url = caps.as_ref().is_some_and(|c| c.supports(Mode::Url));
        let mut agent = AgentConnection::new(caps.clone());
        match agent.url(
            session(),
            unbound("https://agent.example.com/api-key").sensitive(),
        ) {
            Ok((request, pending)) => {
                assert!(url);
                assert!(matches!(request.mode, ElicitationMode::Url { .. }));
                assert!(request.requested_schema().is_none());
                assert_eq!(request.elicitation_id(), Some(pending.id()));
            }
            Err(e) => {
                assert!(!url, "{caps:?}");
                assert_eq!(e, SendError::SensitiveInputNeedsUrlMode);
                assert!(
                    e.to_string().contains("never fall back to form mode"),
                    "{e}"
                );
            }
        }
        // Even with form mode advertised, unsafe URLs are refused, not
        // replaced by a form.
        if url {
            assert!(matches!(
                agent.url(
                    session(),
                    unbound("https://agent.example.com/?api_key=1").sensitive()
                ),
                Err(SendError::UnsafeUrl(
                    UrlRejection::CredentialParameter { .. }
                ))
            ));
        }
    }
}

#[test]
fn hand_written_forms_asking_for_secrets_are_refused() {
    struct Login;
    impl Elicit for Login {
        fn schema() -> elicit_core::ElicitationSchema {
            elicit_core::ElicitationSchema::new()
                .property("username", elicit_core::StringSchema::new(), true)
                .property("password", elicit_core::StringSchema::new(), true)
        }
        fn from_content(_: &Content) -> Result<Self, elicit_core::ContentError> {
            Ok(Login)
        }
        fn to_content(&self) -> Content {
            Content::new()
        }
    }
    let agent = AgentConnection::new(Some(ElicitationCapabilities::form_and_url()));
    let error = agent.form::<Login>(session(), "Log in").unwrap_err();
    assert_eq!(
        error,
        SendError::CredentialField {
            field: "password".into()
        }
    );
    assert!(error.to_string().contains("URL mode"));
}

#[test]
fn duplicate_outstanding_ids_are_refused_on_both_sides() {
    let mut agent = AgentConnection::new(Some(ElicitationCapabilities::url_only()));
    let (first, pending) = agent
        .url(
            session(),
            unbound("https://agent.example.com/").elicitation_id("dup"),
        )
        .unwrap();
    assert_eq!(
        agent
            .url(
                session(),
                unbound("https://agent.example.com/").elicitation_id("dup")
            )
            .unwrap_err(),
        SendError::DuplicateElicitationId("dup".into())
    );
    assert_eq!(
        agent
            .url(
                session(),
                unbound("https://agent.example.com/").elicitation_id("")
            )
            .unwrap_err(),
        SendError::EmptyElicitationId
    );
    // Generated ids never collide with caller-given ones or each other.
    let mut ids = std::collections::HashSet::new();
    ids.insert(pending.id().clone());
    for _ in 0..200 {
        let (_, p) = agent
            .url(session(), unbound("https://agent.example.com/"))
            .unwrap();
        assert!(ids.insert(p.id().clone()), "{} reused", p.id());
    }

    let mut client = ClientConnection::new(Some(ElicitationCapabilities::url_only()));
    assert!(client.receive(first.clone()).is_ok());
    let error = client.receive(first).unwrap_err();
    assert_eq!(error.code, INVALID_PARAMS);
    assert!(
        error.message.contains("already outstanding"),
        "{}",
        error.message
    );
}

#[test]
fn double_completion_is_refused() {
    let mut agent = AgentConnection::new(Some(ElicitationCapabilities::url_only()));
    let user = VerifiedUser::new("user-42");
    let (_, pending) = agent
        .url(session(), url_request("https://agent.example.com/", &user))
        .unwrap();
    let id = pending.id().clone();
    assert!(matches!(
        agent.url_outcome(pending, &CreateElicitationResponse::accept(None)),
        Ok(UrlOutcome::Consented(_))
    ));
    let notification = agent.complete(&id, Some(&user)).unwrap();
    assert_eq!(notification.elicitation_id, id);
    assert_official_notification(&notification);
    assert!(agent.is_completed(&id) && !agent.is_outstanding(&id));
    assert_eq!(
        agent.complete(&id, Some(&user)),
        Err(CompletionError::AlreadyCompleted(id.clone()))
    );
}

#[test]
fn completion_by_another_identity_is_refused() {
    let mut agent = AgentConnection::new(Some(ElicitationCapabilities::url_only()));
    let alice = VerifiedUser::new("alice");
    let mallory = VerifiedUser::new("mallory");
    let (_, pending) = agent
        .url(session(), url_request("https://agent.example.com/", &alice))
        .unwrap();
    let id = pending.id().clone();
    let error = agent.complete(&id, Some(&mallory)).unwrap_err();
    assert_eq!(error, CompletionError::IdentityMismatch(id.clone()));
    assert!(error.to_string().contains("phishing"), "{error}");
    assert!(!error.to_string().contains("alice") && !error.to_string().contains("mallory"));
    assert_eq!(
        agent.complete(&id, None),
        Err(CompletionError::IdentityMissing(id.clone()))
    );
    // Still outstanding: the right user can complete it.
    assert!(agent.is_outstanding(&id));
    assert!(agent.complete(&id, Some(&alice)).is_ok());

    // Without user authentication, the connection is the only binding.
    let (_, pending) = agent
        .url(session(), unbound("https://agent.example.com/"))
        .unwrap();
    assert!(agent.complete(pending.id(), None).is_ok());
    assert!(
        !format!("{alice:?}").contains("alice"),
        "identities are not logged"
    );
}

#[test]
fn completion_only_for_this_connections_outstanding_ids() {
    let mut a = AgentConnection::new(Some(ElicitationCapabilities::url_only()));
    let mut b = AgentConnection::new(Some(ElicitationCapabilities::url_only()));
    let (_, pending) = a
        .url(
            session(),
            unbound("https://agent.example.com/").elicitation_id("shared-name"),
        )
        .unwrap();
    // Another connection does not know it.
    assert_eq!(
        b.complete(pending.id(), None),
        Err(CompletionError::NotOutstanding("shared-name".into()))
    );
    assert_eq!(
        a.complete(&"never-created".into(), None),
        Err(CompletionError::NotOutstanding("never-created".into()))
    );
    // Nor may it read the response.
    assert_eq!(
        b.url_outcome(pending, &CreateElicitationResponse::accept(None)),
        Err(UrlOutcomeError::WrongConnection)
    );

    // Declined, cancelled and abandoned elicitations are not outstanding.
    for action in ["decline", "cancel"] {
        let (_, pending) = a
            .url(session(), unbound("https://agent.example.com/"))
            .unwrap();
        let id = pending.id().clone();
        let outcome = a
            .url_outcome(pending, &response(json!({"action": action})))
            .unwrap();
        assert!(matches!(
            outcome,
            UrlOutcome::Declined | UrlOutcome::Cancelled
        ));
        assert_eq!(
            a.complete(&id, None),
            Err(CompletionError::NotOutstanding(id))
        );
    }
    let (_, pending) = a
        .url(session(), unbound("https://agent.example.com/"))
        .unwrap();
    let id = pending.id().clone();
    assert!(a.abandon(&id));
    assert!(!a.abandon(&id));
    assert_eq!(
        a.url_outcome(pending, &CreateElicitationResponse::accept(None)),
        Err(UrlOutcomeError::NotOutstanding(id.clone()))
    );
    assert_eq!(
        a.complete(&id, None),
        Err(CompletionError::NotOutstanding(id))
    );
}

#[test]
fn client_tracker_ignores_unknown_and_completed_ids() {
    let mut agent = AgentConnection::new(Some(ElicitationCapabilities::url_only()));
    let mut client = ClientConnection::new(Some(ElicitationCapabilities::url_only()));
    let (request, pending) = agent
        .url(session(), unbound("https://agent.example.com/"))
        .unwrap();
    let Ok(Incoming::Url(url)) = client.receive(request) else {
        panic!()
    };
    assert!(client.is_pending(url.id()));

    let unknown = CompleteElicitationNotification::new("not-mine");
    assert_eq!(client.on_complete(&unknown), Completion::IgnoredUnknown);
    assert!(client.on_complete(&unknown).is_ignored());

    let notification = agent.complete(pending.id(), None).unwrap();
    assert_eq!(
        client.on_complete(&notification),
        Completion::Completed(url.id().clone())
    );
    assert_eq!(
        client.on_complete(&notification),
        Completion::IgnoredAlreadyCompleted
    );
    assert!(!client.is_pending(url.id()));

    // A forgotten id (the user declined) is ignored too.
    let (request, pending) = agent
        .url(session(), unbound("https://agent.example.com/"))
        .unwrap();
    let Ok(Incoming::Url(url)) = client.receive(request) else {
        panic!()
    };
    let _ = url.decline();
    assert!(client.forget(url.id()));
    let notification = CompleteElicitationNotification::new(pending.id().clone());
    assert_eq!(
        client.on_complete(&notification),
        Completion::IgnoredUnknown
    );

    // Completions of form requests mean nothing to the tracker either.
    assert_eq!(
        client.on_complete(&CompleteElicitationNotification::new("")),
        Completion::IgnoredUnknown
    );
}

// ---------------------------------------------------------------------------
// The client's form handling.

#[test]
fn client_validates_input_with_the_same_engine_before_sending() {
    let agent = AgentConnection::new(Some(ElicitationCapabilities::form_only()));
    let mut client = ClientConnection::new(Some(ElicitationCapabilities::form_only()));
    let (request, pending) = agent.form::<Deploy>(session(), "Deploy?").unwrap();
    let Ok(Incoming::Form(form)) = client.receive(request) else {
        panic!()
    };
    assert_eq!(form.message(), "Deploy?");
    assert_eq!(form.initial_content().get("replicas"), Some(&json!(2)));

    let bad = json!({"env": "prod", "replicas": 300, "regions": ["staging", "staging"],
                     "contact": "not an email"});
    let Err(AnswerError::Invalid(errors)) = form.accept(bad.as_object().unwrap().clone()) else {
        panic!("invalid input accepted")
    };
    let fields: Vec<&str> = errors.fields().collect();
    assert_eq!(fields, ["env", "replicas", "regions", "contact"]);
    // The agent's own check says the same about the same content.
    let same = response(json!({"action": "accept", "content": bad}));
    let agent_errors = Outcome::<Deploy>::from_response(&same).unwrap_err();
    assert_eq!(agent_errors.fields().collect::<Vec<_>>(), fields);
    // Reading the response it owns gives the same errors.
    let owned_errors = Outcome::<Deploy>::from_response_owned(same.clone()).unwrap_err();
    assert_eq!(owned_errors, agent_errors);

    let good = json!({"env": "staging", "regions": []});
    let sent = form.accept(good.as_object().unwrap().clone()).unwrap();
    let Outcome::Accepted(deploy) = pending.outcome(&sent).unwrap() else {
        panic!()
    };
    assert_eq!(deploy.env, Environment::Staging);
    assert_eq!(deploy.replicas, 2);
}

#[test]
fn unknown_property_types_are_refused_by_the_guard_never_rendered() {
    let mut client = ClientConnection::new(Some(ElicitationCapabilities::form_only()));
    let schema = json!({"type": "object", "properties": {
        "name": {"type": "string"},
        "colour": {"type": "_color", "palette": "web"},
        "nested": {"type": "object", "properties": {}},
        "tags": {"type": "array", "items": {"type": "_tag"}}
    }});
    let params = json!({
        "sessionId": "s", "mode": "form", "message": "m", "requestedSchema": schema
    });
    let error = client.receive_value(params).unwrap_err();
    assert_eq!(error.code, INVALID_PARAMS);
    assert_official_error(&error);
    assert!(
        error
            .message
            .starts_with("Invalid params: the requestedSchema cannot be rendered: "),
        "{}",
        error.message
    );
    // Each problem in `data.notRenderable`: the property, the problem, and
    // the wire type of a property of an unknown type.
    let listed = &error.data.as_ref().unwrap()["notRenderable"];
    let listed: Vec<(&str, Option<&str>)> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|issue| (issue["property"].as_str().unwrap(), issue["type"].as_str()))
        .collect();
    assert_eq!(
        listed,
        [
            ("colour", Some("_color")),
            ("nested", Some("object")),
            ("tags", None)
        ]
    );
    assert_eq!(
        error.data.as_ref().unwrap()["notRenderable"][2]["problem"],
        "is a multi-select whose `items` kind is unknown and cannot be rendered"
    );
    // The same schema is read, its raw unknown kinds kept, for whoever
    // reads it (it is refused for rendering, not for reading).
    let read: elicit_core::ElicitationSchema = serde_json::from_value(schema).unwrap();
    assert_eq!(
        serde_json::to_value(&read).unwrap()["properties"]["colour"],
        json!({"type": "_color", "palette": "web"})
    );
    // Contradictory bounds are not renderable either (no valid answer).
    let params = json!({
        "sessionId": "s", "mode": "form", "message": "m", "requestedSchema": {
            "type": "object", "properties": {"n": {"type": "integer", "minimum": 5, "maximum": 1}}
        }
    });
    let error = client.receive_value(params).unwrap_err();
    assert_eq!(error.code, INVALID_PARAMS);
    assert_eq!(error.data.unwrap()["notRenderable"][0]["property"], "n");
}

/// A hostile form's thousands of problems: at most 16 in `data`, each
/// name cut.
#[test]
fn an_unrenderable_forms_data_is_bounded() {
    let mut client = ClientConnection::new(Some(ElicitationCapabilities::form_only()));
    let long = "x".repeat(1000);
    let properties: Map<String, Value> = (0..1000)
        .map(|n| (format!("{long}{n}"), json!({"type": format!("_{long}")})))
        .collect();
    let params = json!({
        "sessionId": "s", "mode": "form", "message": "m",
        "requestedSchema": {"type": "object", "properties": properties}
    });
    let error = client.receive_value(params).unwrap_err();
    let listed = error.data.unwrap()["notRenderable"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(listed.len(), 16);
    for issue in &listed {
        assert_eq!(issue["property"].as_str().unwrap().chars().count(), 65);
        assert_eq!(issue["type"].as_str().unwrap().chars().count(), 65);
    }
}

#[test]
fn client_flags_forms_that_ask_for_credentials() {
    let mut client = ClientConnection::new(Some(ElicitationCapabilities::form_only()));
    let params = json!({
        "sessionId": "s", "mode": "form", "message": "Log in",
        "requestedSchema": {"type": "object", "properties": {
            "username": {"type": "string"}, "apiKey": {"type": "string"}
        }}
    });
    let Ok(Incoming::Form(form)) = client.receive_value(params) else {
        panic!()
    };
    assert_eq!(form.credential_like_fields(), ["apiKey"]);
}

#[test]
fn client_cannot_consent_to_a_refused_url() {
    let mut client = ClientConnection::new(Some(ElicitationCapabilities::url_only()));
    let params = json!({
        "sessionId": "s", "mode": "url", "message": "m", "elicitationId": "e",
        "url": "javascript:alert(document.cookie)"
    });
    let Ok(Incoming::Url(url)) = client.receive_value(params) else {
        panic!()
    };
    assert_eq!(url.url(), "javascript:alert(document.cookie)");
    assert_eq!(
        url.consent().unwrap_err(),
        UrlRejection::DangerousScheme {
            scheme: "javascript".into()
        }
    );
    assert_official_response(&url.decline());
}

// ---------------------------------------------------------------------------
// Unknown modes and actions.

#[test]
fn unknown_modes_round_trip_and_are_never_known() {
    for text in [
        r#"{"sessionId":"sess_1","mode":"_browser","target":"login","message":"Open the browser"}"#,
        r#"{"requestId":"r1","mode":"voice","prompt":{"lang":"en"},"message":"Say it","_meta":{"k":1}}"#,
        r#"{"sessionId":"s","toolCallId":"t","mode":"_form2","requestedSchema":{"anything":true},"message":"m"}"#,
        r#"{"requestId":null,"mode":"FORM","message":"case matters"}"#,
    ] {
        let request: CreateElicitationRequest = round_trip(text);
        assert_eq!(request.mode.known(), None, "{text}");
        assert!(matches!(request.mode, ElicitationMode::Other(_)));
        assert!(request.requested_schema().is_none() && request.elicitation_id().is_none());
        assert_official_request(&request);
        // A client supporting every mode still refuses it.
        let mut client = ClientConnection::new(Some(ElicitationCapabilities::form_and_url()));
        let error = client.receive(request.clone()).unwrap_err();
        assert_eq!(error.code, INVALID_PARAMS);
        assert_eq!(error.data, Some(json!({"mode": request.mode.name()})));
    }
    assert!(OtherMode::new("form", Map::new()).is_none());
    assert!(OtherMode::new("url", Map::new()).is_none());
    let other = OtherMode::new("_x", Map::new()).unwrap();
    assert_eq!(other.mode(), "_x");
}

#[test]
fn unknown_actions_round_trip_and_are_never_known() {
    for text in [
        r#"{"action":"_defer","reason":"waiting","retryAfterMs":1000}"#,
        r#"{"action":"snooze","content":{"strategy":"balanced"},"_meta":{"m":true}}"#,
        r#"{"action":"ACCEPT"}"#,
        r#"{"action":""}"#,
    ] {
        let r: CreateElicitationResponse = round_trip(text);
        assert!(matches!(r.action, ElicitationAction::Other(_)), "{text}");
        assert_eq!(
            r.content(),
            None,
            "content of an unknown action is not read"
        );
        assert_official_response(&r);

        // The agent never reads it as accept, decline or cancel.
        let outcome = Outcome::<Refactor>::from_response(&r).unwrap();
        let Outcome::UnknownAction(other) = outcome else {
            panic!("{text} read as {outcome:?}")
        };
        assert_eq!(other.action(), r.action.name());

        let mut agent = AgentConnection::new(Some(ElicitationCapabilities::url_only()));
        let (_, pending) = agent
            .url(session(), unbound("https://agent.example.com/"))
            .unwrap();
        let id = pending.id().clone();
        assert!(matches!(
            agent.url_outcome(pending, &r),
            Ok(UrlOutcome::UnknownAction(_))
        ));
        assert!(agent.is_outstanding(&id), "still waiting until abandoned");
    }
    for known in ["accept", "decline", "cancel"] {
        assert!(OtherAction::new(known, Map::new()).is_none());
    }
}

// ---------------------------------------------------------------------------
// URLs.

enum Expect {
    Allowed,
    Development,
    Refused(UrlRejection),
}

fn not_https(scheme: &str) -> UrlWarning {
    UrlWarning::NotHttps {
        scheme: scheme.into(),
    }
}

fn credential(name: &str) -> UrlRejection {
    UrlRejection::CredentialParameter { name: name.into() }
}

fn deceptive(looks_like: &str, domain: &str) -> UrlWarning {
    UrlWarning::DeceptiveHost {
        looks_like: looks_like.into(),
        domain: domain.into(),
    }
}

#[test]
fn url_table() {
    use Expect::*;
    use UrlRejection as R;
    use UrlWarning as W;

    let long_url = format!("https://agent.example.com/{}", "a".repeat(5000));
    let table: Vec<(&str, Option<&str>, Expect, Vec<UrlWarning>)> = vec![
        // Good.
        (
            "https://agent.example.com/connect?elicitationId=github-oauth-001",
            Some("agent.example.com"),
            Allowed,
            vec![],
        ),
        (
            "HTTPS://Agent.Example.COM/Path",
            Some("agent.example.com"),
            Allowed,
            vec![],
        ),
        ("https://localhost/", Some("localhost"), Allowed, vec![]),
        (
            "https://www.google.co.uk/",
            Some("www.google.co.uk"),
            Allowed,
            vec![],
        ),
        (
            "https://de.wikipedia.org/wiki/URL",
            Some("de.wikipedia.org"),
            Allowed,
            vec![],
        ),
        (
            "https://example.com/?max_tokens=5&token_count=2&username=me",
            Some("example.com"),
            Allowed,
            vec![],
        ),
        // Development: http on loopback only.
        (
            "http://localhost:8080/callback",
            Some("localhost"),
            Development,
            vec![not_https("http")],
        ),
        (
            "http://127.0.0.1:3000/cb",
            Some("127.0.0.1"),
            Development,
            vec![not_https("http"), W::IpLiteral],
        ),
        (
            "http://127.8.9.10/",
            Some("127.8.9.10"),
            Development,
            vec![not_https("http"), W::IpLiteral],
        ),
        (
            "http://[::1]:8080/",
            Some("[::1]"),
            Development,
            vec![not_https("http"), W::IpLiteral],
        ),
        // Plain http elsewhere.
        (
            "http://example.com/",
            Some("example.com"),
            Refused(R::InsecureHttp {
                host: "example.com".into(),
            }),
            vec![not_https("http")],
        ),
        (
            "http://localhost.evil.com/",
            Some("localhost.evil.com"),
            Refused(R::InsecureHttp {
                host: "localhost.evil.com".into(),
            }),
            vec![not_https("http")],
        ),
        (
            "http://0.0.0.0/",
            Some("0.0.0.0"),
            Refused(R::InsecureHttp {
                host: "0.0.0.0".into(),
            }),
            vec![not_https("http"), W::IpLiteral],
        ),
        (
            "http://[::ffff:127.0.0.1]/",
            // The host as a browser shows it.
            Some("[::ffff:7f00:1]"),
            Refused(R::InsecureHttp {
                host: "[::ffff:7f00:1]".into(),
            }),
            vec![not_https("http"), W::IpLiteral],
        ),
        // Userinfo.
        (
            "https://user:pass@example.com/",
            Some("example.com"),
            Refused(R::Userinfo),
            vec![W::Userinfo],
        ),
        (
            "https://example.com@evil.io/",
            Some("evil.io"),
            Refused(R::Userinfo),
            vec![W::Userinfo],
        ),
        // Dangerous and other schemes.
        (
            "javascript:alert(1)",
            None,
            Refused(R::DangerousScheme {
                scheme: "javascript".into(),
            }),
            vec![not_https("javascript")],
        ),
        (
            "JavaScript:alert(document.cookie)",
            None,
            Refused(R::DangerousScheme {
                scheme: "javascript".into(),
            }),
            vec![not_https("javascript")],
        ),
        (
            "data:text/html;base64,PHNjcmlwdD4=",
            None,
            Refused(R::DangerousScheme {
                scheme: "data".into(),
            }),
            vec![not_https("data")],
        ),
        (
            "file:///etc/passwd",
            None,
            Refused(R::DangerousScheme {
                scheme: "file".into(),
            }),
            vec![not_https("file")],
        ),
        (
            "vbscript:msgbox",
            None,
            Refused(R::DangerousScheme {
                scheme: "vbscript".into(),
            }),
            vec![not_https("vbscript")],
        ),
        (
            "ftp://files.example.com/x",
            Some("files.example.com"),
            Refused(R::UnsupportedScheme {
                scheme: "ftp".into(),
            }),
            vec![not_https("ftp")],
        ),
        (
            "mailto:someone@example.com",
            None,
            Refused(R::UnsupportedScheme {
                scheme: "mailto".into(),
            }),
            vec![not_https("mailto")],
        ),
        // Punycode, IDN, mixed scripts.
        (
            "https://xn--80ak6aa92e.com/",
            Some("xn--80ak6aa92e.com"),
            Allowed,
            vec![W::Punycode {
                label: "xn--80ak6aa92e".into(),
                decoded: Some("аррӏе".into()),
            }],
        ),
        (
            "https://xn--pple-43d.com/login",
            Some("xn--pple-43d.com"),
            Allowed,
            vec![
                W::Punycode {
                    label: "xn--pple-43d".into(),
                    decoded: Some("\u{430}pple".into()),
                },
                W::MixedScripts {
                    label: "\u{430}pple".into(),
                },
            ],
        ),
        (
            "https://münchen.de/",
            Some("münchen.de"),
            Refused(R::NonAsciiHost),
            vec![W::NonAsciiHost],
        ),
        (
            "https://\u{440}\u{430}ypal.com/",
            Some("\u{440}\u{430}ypal.com"),
            Refused(R::NonAsciiHost),
            vec![
                W::NonAsciiHost,
                W::MixedScripts {
                    label: "\u{440}\u{430}ypal".into(),
                },
            ],
        ),
        // Deceptive and long hosts.
        (
            "https://example.com.evil.io/login",
            Some("example.com.evil.io"),
            Allowed,
            vec![deceptive("example.com", "evil.io")],
        ),
        (
            "https://accounts.google.com.secure-login.co.uk/",
            Some("accounts.google.com.secure-login.co.uk"),
            Allowed,
            vec![
                W::LongHost {
                    length: 38,
                    labels: 6,
                },
                deceptive("accounts.google.com", "secure-login.co.uk"),
            ],
        ),
        (
            "https://paypal-com.evil.io/",
            Some("paypal-com.evil.io"),
            Allowed,
            vec![deceptive("paypal.com", "evil.io")],
        ),
        (
            "https://a.b.c.d.e.example.com/",
            Some("a.b.c.d.e.example.com"),
            Allowed,
            vec![W::LongHost {
                length: 21,
                labels: 7,
            }],
        ),
        // IP literals.
        (
            "https://192.168.1.10/admin",
            Some("192.168.1.10"),
            Allowed,
            vec![W::IpLiteral],
        ),
        (
            "https://[2001:DB8::1]/",
            Some("[2001:db8::1]"),
            Allowed,
            vec![W::IpLiteral],
        ),
        (
            "http://2130706433/",
            Some("2130706433"),
            Refused(R::NonCanonicalIpv4 {
                host: "2130706433".into(),
            }),
            vec![not_https("http"), W::IpLiteral],
        ),
        (
            "https://0x7f.0.0.1/",
            Some("0x7f.0.0.1"),
            Refused(R::NonCanonicalIpv4 {
                host: "0x7f.0.0.1".into(),
            }),
            vec![W::IpLiteral],
        ),
        // Credentials in parameters.
        (
            "https://example.com/cb?api_key=abc",
            Some("example.com"),
            Refused(credential("api_key")),
            vec![W::CredentialParameter {
                name: "api_key".into(),
            }],
        ),
        (
            "https://example.com/cb?user=me&accessToken=x",
            Some("example.com"),
            Refused(credential("accessToken")),
            vec![W::CredentialParameter {
                name: "accessToken".into(),
            }],
        ),
        (
            "https://example.com/cb?pass%77ord=x",
            Some("example.com"),
            Refused(credential("password")),
            vec![W::CredentialParameter {
                name: "password".into(),
            }],
        ),
        (
            "https://example.com/cb#access_token=abc&token_type=bearer",
            Some("example.com"),
            Refused(credential("access_token")),
            vec![W::CredentialParameter {
                name: "access_token".into(),
            }],
        ),
        (
            "https://example.com/app#/callback?client_secret=s",
            Some("example.com"),
            Refused(credential("client_secret")),
            vec![W::CredentialParameter {
                name: "client_secret".into(),
            }],
        ),
        // Malformed or ambiguous.
        ("", None, Refused(R::Empty), vec![]),
        (
            &long_url,
            None,
            Refused(R::TooLong {
                length: long_url.len(),
                max: 4096,
            }),
            vec![],
        ),
        (
            "https:example.com",
            None,
            Refused(R::MissingAuthority),
            vec![],
        ),
        ("https:///example.com", None, Refused(R::EmptyHost), vec![]),
        ("//example.com/path", None, Refused(R::Relative), vec![]),
        ("example.com/login", None, Refused(R::Relative), vec![]),
        (
            " https://example.com/",
            None,
            Refused(R::ForbiddenCharacter { character: ' ' }),
            vec![],
        ),
        (
            "https://example.com/\u{202E}gpj.exe",
            None,
            Refused(R::ForbiddenCharacter {
                character: '\u{202E}',
            }),
            vec![],
        ),
        (
            "https://example.com\\@evil.io/",
            None,
            Refused(R::Backslash),
            vec![],
        ),
        (
            "https://ex%61mple.com/",
            Some("ex%61mple.com"),
            Refused(R::PercentEncodedHost),
            vec![],
        ),
        (
            "https://example.com:99999/",
            Some("example.com"),
            Refused(R::InvalidPort),
            vec![],
        ),
        (
            "https://example.com/<script>",
            Some("example.com"),
            Refused(R::InvalidCharacter { character: '<' }),
            vec![],
        ),
        (
            "https://example.com/%zz",
            Some("example.com"),
            Refused(R::InvalidPercentEncoding),
            vec![],
        ),
        (
            "https://-example.com/",
            Some("-example.com"),
            Refused(R::InvalidHost {
                reason: "has a label that starts or ends with `-`",
            }),
            vec![],
        ),
    ];
    assert!(table.len() >= 25);

    let mut agent = AgentConnection::new(Some(ElicitationCapabilities::url_only()));
    for (url, host, expect, warnings) in table {
        let review = UrlReview::new(url);
        assert_eq!(review.url(), url);
        assert_eq!(review.host(), host, "host of {url}");
        assert_eq!(review.warnings(), &warnings[..], "warnings of {url}");
        let verdict = match expect {
            Allowed => UrlVerdict::Allowed,
            Development => UrlVerdict::Development,
            Refused(r) => UrlVerdict::Refused(r),
        };
        assert_eq!(review.verdict(), &verdict, "verdict on {url}");

        // The agent side applies the same verdict.
        let sent = agent.url(session(), unbound(url));
        match &verdict {
            UrlVerdict::Refused(r) => {
                assert_eq!(check_url(url).as_ref(), Err(r), "{url}");
                assert_eq!(sent.unwrap_err(), SendError::UnsafeUrl(r.clone()), "{url}");
                assert!(!r.to_string().is_empty());
            }
            _ => {
                assert_eq!(check_url(url), Ok(()), "{url}");
                let (request, _) = sent.unwrap_or_else(|e| panic!("{url}: {e}"));
                assert_official_request(&request);
            }
        }
        for w in &warnings {
            assert!(!w.to_string().is_empty());
        }
    }
}

#[test]
fn url_review_highlights_the_host() {
    let review = UrlReview::new("https://user@Evil.example.io:8443/path?q=1");
    assert_eq!(
        review.split_for_display(),
        Some(("https://user@", "Evil.example.io", ":8443/path?q=1"))
    );
    assert_eq!(review.host(), Some("evil.example.io"));
    assert_eq!(review.scheme(), Some("https"));
    assert_eq!(UrlReview::new("javascript:x").split_for_display(), None);
}

// ---------------------------------------------------------------------------
// Nothing panics.

mod no_panics {
    use super::*;
    use proptest::prelude::*;

    fn json_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            any::<f64>()
                .prop_filter("finite", |x| x.is_finite())
                .prop_map(Value::from),
            prop_oneof![
                Just("form".to_owned()),
                Just("url".to_owned()),
                Just("accept".to_owned()),
                Just("string".to_owned()),
                ".{0,8}"
            ]
            .prop_map(Value::String),
        ];
        leaf.prop_recursive(3, 24, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::vec(
                    (
                        prop_oneof![
                            Just("mode".to_owned()),
                            Just("message".to_owned()),
                            Just("sessionId".to_owned()),
                            Just("requestId".to_owned()),
                            Just("requestedSchema".to_owned()),
                            Just("properties".to_owned()),
                            Just("type".to_owned()),
                            Just("elicitationId".to_owned()),
                            Just("url".to_owned()),
                            Just("action".to_owned()),
                            Just("content".to_owned()),
                            "[a-z_]{1,6}",
                        ],
                        inner
                    ),
                    0..6
                )
                .prop_map(|entries| Value::Object(entries.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #[test]
        fn url_review_never_panics(url in ".{0,80}") {
            let review = UrlReview::new(&url);
            prop_assert_eq!(check_url(&url).is_err(), review.verdict().is_refused());
        }

        #[test]
        fn url_like_strings_never_panic(
            url in "(https?|javascript|data|file|ftp|HTTP)?:?(//)?[a-zA-Z0-9@:.%\\[\\]_~/?#&=+-]{0,60}"
        ) {
            let review = UrlReview::new(&url);
            if !review.verdict().is_refused() {
                prop_assert!(url.to_ascii_lowercase().starts_with("http"));
                prop_assert!(review.host().is_some());
            }
        }

        #[test]
        fn message_parsing_never_panics(value in json_value()) {
            let _ = serde_json::from_value::<CreateElicitationRequest>(value.clone());
            let _ = serde_json::from_value::<CreateElicitationResponse>(value.clone());
            let _ = serde_json::from_value::<CompleteElicitationNotification>(value.clone());
            let _ = serde_json::from_value::<ElicitationCapabilities>(value.clone());
            let _ = ElicitationCapabilities::from_client_capabilities(&value);
            let mut client = ClientConnection::new(Some(ElicitationCapabilities::form_and_url()));
            if let Ok(Incoming::Form(form)) = client.receive_value(value.clone())
                && let Some(content) = value.get("content").and_then(Value::as_object)
            {
                let _ = form.accept(content.clone());
            }
            if let Ok(response) = serde_json::from_value::<CreateElicitationResponse>(value) {
                let _ = Outcome::<Refactor>::from_response(&response);
            }
        }
    }
}
