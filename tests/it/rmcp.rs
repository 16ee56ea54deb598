//! Feature `rmcp`: derived forms as rmcp's `ElicitationSchema` (MCP
//! 2025-11-25 shape, checked through rmcp's own types and their JSON), rmcp's
//! `ElicitResult` as a typed `Outcome`, and examples/mcp_server.rs driven end
//! to end by rmcp's client over a byte pipe.
//!
//! Run with `cargo test --test it --features rmcp rmcp::` (CI: `--all-features`).
#![cfg(feature = "rmcp")]

// The example server itself, driven below with rmcp's client (and over
// stdio by the TypeScript client in mcp_ts.rs, which uses its types).
#[allow(dead_code)]
#[path = "../../examples/mcp_server.rs"]
pub(crate) mod mcp_server;

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use crate::common::readme::{docs_block, lines, readme_block, snippet};
use crate::common::*;
use ::rmcp::model::{
    self as mcp, CallToolRequestParams, ClientCapabilities, CustomNotification,
    ElicitRequestParams, ElicitResult, ElicitationAction, ElicitationCapability, ErrorData,
    FormElicitationCapability, Implementation, InitializeRequestParams, ProtocolVersion,
    UrlElicitationCapability,
};
use ::rmcp::service::{ElicitationMode, NotificationContext, RequestContext, RoleClient};
use ::rmcp::{ClientHandler, Peer, RoleServer, ServiceError, ServiceExt};
use elicit_core::format::Format;
use elicit_core::mcp::{Dropped, DroppedPart, ElicitError, UrlRequest, dropped};
use elicit_core::protocol::Mode;
use elicit_core::protocol::agent::Outcome;
use elicit_core::protocol::agent::{SendError, UrlOutcome};
use elicit_core::protocol::url::UrlRejection;
use elicit_core::{ConversionErrorKind, OutcomeError};
use elicit_core::{Elicit, ElicitationSchema, JsonKind, StringSchema};
use serde_json::{Value, json};
use tokio::sync::mpsc;

// ---------------------------------------------------------------------------
// Property kinds, through rmcp's own types

/// A one-property form converted to rmcp's type; returns that property's
/// JSON as rmcp writes it, after checking that rmcp parses its own output
/// back into the same value.
fn through_rmcp(property: impl Into<elicit_core::PropertySchema>) -> Value {
    let schema = ElicitationSchema::new().property("p", property, true);
    let theirs = ::rmcp::model::ElicitationSchema::try_from(&schema).unwrap();
    let json = serde_json::to_value(&theirs).unwrap();
    let parsed: mcp::ElicitationSchema = serde_json::from_value(json.clone()).unwrap();
    assert_eq!(serde_json::to_value(&parsed).unwrap(), json);
    assert_eq!(json["type"], "object");
    assert_eq!(json["required"], json!(["p"]));
    json["properties"]["p"].clone()
}

fn property_json(value: Value) -> elicit_core::PropertySchema {
    serde_json::from_value(value).unwrap()
}

/// The variant of rmcp's property type a property parses into.
fn rmcp_kind(property: &mcp::PrimitiveSchemaDefinition) -> &'static str {
    use mcp::SingleSelectEnumSchema as Single;
    use mcp::{EnumSchema, MultiSelectEnumSchema, PrimitiveSchemaDefinition as P};
    match property {
        P::String(_) => "string",
        P::Number(_) => "number",
        P::Integer(_) => "integer",
        P::Boolean(_) => "boolean",
        P::Enum(EnumSchema::Single(Single::Untitled(_))) => "untitled single-select",
        P::Enum(EnumSchema::Single(Single::Titled(_))) => "titled single-select",
        P::Enum(EnumSchema::Multi(MultiSelectEnumSchema::Untitled(_))) => "untitled multi-select",
        P::Enum(EnumSchema::Multi(MultiSelectEnumSchema::Titled(_))) => "titled multi-select",
        _ => "another kind",
    }
}

/// Each property kind through rmcp's own types: elicit's property (as JSON),
/// what rmcp writes for it, and the variant rmcp reads that back into.
#[test]
fn every_property_kind_converts_to_its_rmcp_variant() {
    let rows = [
        (
            "a string keeps everything but its pattern",
            json!({"type": "string", "title": "Name", "description": "Your name.",
                   "minLength": 2, "maxLength": 20, "pattern": "^[a-z]+$", "default": "ada"}),
            json!({"type": "string", "title": "Name", "description": "Your name.",
                   "minLength": 2, "maxLength": 20, "default": "ada"}),
            "string",
        ),
        (
            "an untitled single-select",
            json!({"type": "string", "title": "Pick", "enum": ["a", "b"], "default": "b"}),
            json!({"type": "string", "title": "Pick", "enum": ["a", "b"], "default": "b"}),
            "untitled single-select",
        ),
        (
            "a titled single-select drops its options' descriptions",
            json!({"type": "string", "description": "Pick a letter.",
                   "oneOf": [{"const": "a", "title": "Ay"},
                             {"const": "b", "title": "Bee", "description": "The second letter."}]}),
            json!({"type": "string", "description": "Pick a letter.",
                   "oneOf": [{"const": "a", "title": "Ay"}, {"const": "b", "title": "Bee"}]}),
            "titled single-select",
        ),
        (
            "a number",
            json!({"type": "number", "title": "Ratio", "description": "0 to 1.",
                   "minimum": 0.0, "maximum": 1.0, "default": 0.5}),
            json!({"type": "number", "title": "Ratio", "description": "0 to 1.",
                   "minimum": 0.0, "maximum": 1.0, "default": 0.5}),
            "number",
        ),
        (
            "an integer with the widest bounds",
            json!({"type": "integer", "title": "Replicas", "minimum": i64::MIN,
                   "maximum": i64::MAX, "default": -2}),
            json!({"type": "integer", "title": "Replicas", "minimum": i64::MIN,
                   "maximum": i64::MAX, "default": -2}),
            "integer",
        ),
        (
            "a boolean",
            json!({"type": "boolean", "description": "Notify?", "default": true}),
            json!({"type": "boolean", "description": "Notify?", "default": true}),
            "boolean",
        ),
        (
            "an untitled multi-select",
            json!({"type": "array", "title": "Letters", "minItems": 1, "maxItems": 2,
                   "items": {"type": "string", "enum": ["a", "b"]}, "default": ["a"]}),
            json!({"type": "array", "title": "Letters", "minItems": 1, "maxItems": 2,
                   "items": {"type": "string", "enum": ["a", "b"]}, "default": ["a"]}),
            "untitled multi-select",
        ),
        (
            "a titled multi-select drops its options' descriptions",
            json!({"type": "array", "description": "Any letters.",
                   "items": {"anyOf": [{"const": "a", "title": "Ay", "description": "First."},
                                       {"const": "b", "title": "Bee"}]}}),
            json!({"type": "array", "description": "Any letters.",
                   "items": {"anyOf": [{"const": "a", "title": "Ay"},
                                       {"const": "b", "title": "Bee"}]}}),
            "titled multi-select",
        ),
    ];
    for (case, ours, theirs, kind) in rows {
        let json = through_rmcp(property_json(ours));
        assert_eq!(json, theirs, "{case}");
        let parsed: mcp::PrimitiveSchemaDefinition = serde_json::from_value(json).unwrap();
        assert_eq!(rmcp_kind(&parsed), kind, "{case}");
    }
}

#[test]
fn string_formats_the_four_known_ones() {
    for (format, name) in [
        (Format::Email, "email"),
        (Format::Uri, "uri"),
        (Format::Date, "date"),
        (Format::DateTime, "date-time"),
    ] {
        assert_eq!(
            through_rmcp(StringSchema::new().format(format)),
            json!({"type": "string", "format": name})
        );
    }
    let schema = ElicitationSchema::new().property(
        "phone",
        StringSchema::new().format(Format::Other("phone".into())),
        true,
    );
    let err = ::rmcp::model::ElicitationSchema::try_from(&schema).unwrap_err();
    assert_eq!(err.property(), Some("phone"));
    assert_eq!(
        err.kind(),
        &ConversionErrorKind::CustomFormat {
            format: "phone".into()
        }
    );
}

/// Properties elicit's model holds and rmcp's constructors refuse: the
/// conversion refuses them too, naming the property, instead of building a
/// schema rmcp would not.
#[test]
fn what_rmcp_refuses_is_refused() {
    for (case, property) in [
        (
            "a select default that is not an option",
            json!({"type": "string", "enum": ["a"], "default": "z"}),
        ),
        (
            "multi-select bounds that cross",
            json!({"type": "array", "minItems": 2, "maxItems": 1,
                   "items": {"type": "string", "enum": ["a", "b"]}}),
        ),
    ] {
        let schema = ElicitationSchema::new().property("p", property_json(property), true);
        let err = ::rmcp::model::ElicitationSchema::try_from(&schema).unwrap_err();
        assert_eq!(err.property(), Some("p"), "{case}");
        assert!(
            matches!(err.kind(), ConversionErrorKind::Rejected { .. }),
            "{case}: {err}"
        );
    }
}

#[test]
fn unknown_kinds_have_no_place_in_mcp() {
    let schema: ElicitationSchema = serde_json::from_value(json!({
        "type": "object", "properties": {"where": {"type": "_location"}}
    }))
    .unwrap();
    let err = ::rmcp::model::ElicitationSchema::try_from(&schema).unwrap_err();
    assert_eq!(err.property(), Some("where"));
    assert_eq!(
        err.kind(),
        &ConversionErrorKind::UnknownPropertyType {
            type_: "_location".into()
        }
    );
    let schema: ElicitationSchema = serde_json::from_value(json!({
        "type": "object", "properties": {"t": {"type": "array", "items": {"type": "_token"}}}
    }))
    .unwrap();
    assert_eq!(
        ::rmcp::model::ElicitationSchema::try_from(&schema)
            .unwrap_err()
            .kind(),
        &ConversionErrorKind::UnknownItems
    );
}

// ---------------------------------------------------------------------------
// Whole forms

#[test]
fn every_derived_type_converts_keeping_declaration_order() {
    for (name, ours) in derived_schemas() {
        let theirs = ::rmcp::model::ElicitationSchema::try_from(&ours)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let text = serde_json::to_string(&theirs).unwrap();
        // Property order survives (rmcp keeps it), in rmcp's own output ...
        let positions: Vec<usize> = ours
            .properties
            .names()
            .map(|n| text.find(&format!("\"{n}\":{{")).unwrap())
            .collect();
        assert!(positions.is_sorted(), "{name}: {text}");
        // ... and after rmcp parses it again.
        let parsed: mcp::ElicitationSchema = serde_json::from_str(&text).unwrap();
        assert_eq!(serde_json::to_string(&parsed).unwrap(), text, "{name}");
        // Only the documented parts differ from the ACP JSON.
        let mut expected = serde_json::to_value(&ours).unwrap();
        let object = expected.as_object_mut().unwrap();
        object.remove("title");
        object.remove("description");
        for (_, property) in object["properties"].as_object_mut().unwrap() {
            let property = property.as_object_mut().unwrap();
            property.remove("pattern");
            for key in ["oneOf"] {
                if let Some(Value::Array(options)) = property.get_mut(key) {
                    options.iter_mut().for_each(|o| {
                        o.as_object_mut().unwrap().remove("description");
                    });
                }
            }
            if let Some(Value::Array(options)) =
                property.get_mut("items").and_then(|i| i.get_mut("anyOf"))
            {
                options.iter_mut().for_each(|o| {
                    o.as_object_mut().unwrap().remove("description");
                });
            }
        }
        assert_eq!(serde_json::to_value(&theirs).unwrap(), expected, "{name}");
    }
}

#[test]
fn dropped_lists_what_the_conversion_drops() {
    let at = |p: &str, part| Dropped {
        property: Some(p.into()),
        part,
    };
    assert_eq!(dropped(&Refactor::schema()), []);
    assert_eq!(
        dropped(&Profile::schema()),
        [at("handle", DroppedPart::Pattern)]
    );
    assert_eq!(
        dropped(&Feedback::schema()),
        [
            Dropped {
                property: None,
                part: DroppedPart::Title
            },
            Dropped {
                property: None,
                part: DroppedPart::Description
            },
        ]
    );
    let deploy = dropped(&Deploy::schema());
    assert_eq!(
        deploy,
        [
            Dropped {
                property: None,
                part: DroppedPart::Title
            },
            Dropped {
                property: None,
                part: DroppedPart::Description
            },
            at(
                "env",
                DroppedPart::OptionDescription {
                    value: "staging".into()
                }
            ),
            at(
                "env",
                DroppedPart::OptionDescription {
                    value: "production".into()
                }
            ),
        ]
    );
    assert_eq!(
        deploy[2].to_string(),
        "`env`: the `description` of option `staging`"
    );
}

#[test]
fn a_form_request_is_a_form_mode_elicitation() {
    let (client, _) = ScriptedClient::with(form_mode(), vec![json!({"action": "cancel"})]);
    let (_, seen) = runtime().block_on(with_peer(client, async |peer| {
        elicitor(peer).elicit_form::<Refactor>("How?").await
    }));
    assert_eq!(
        serde_json::to_value(&seen[0]).unwrap(),
        json!({"mode": "form", "message": "How?", "requestedSchema": {
            "type": "object",
            "properties": {"strategy": {"type": "string",
                "enum": ["conservative", "balanced", "aggressive"]}},
            "required": ["strategy"]
        }})
    );
}

// ---------------------------------------------------------------------------
// Results to outcomes

fn result(value: Value) -> ElicitResult {
    serde_json::from_value(value).unwrap()
}

#[test]
fn accept_with_content() {
    assert_eq!(
        Outcome::<Refactor>::try_from(&result(
            json!({"action": "accept", "content": {"strategy": "conservative"}})
        ))
        .unwrap(),
        Outcome::Accepted(Refactor {
            strategy: Strategy::Conservative
        })
    );
    let Outcome::Accepted(deploy) = Outcome::<Deploy>::try_from(&result(
        json!({"action": "accept", "content": {"env": "dev", "notify": true}}),
    ))
    .unwrap() else {
        panic!("accepted");
    };
    assert_eq!(
        deploy,
        Deploy {
            env: Environment::LocalDev,
            replicas: 2,
            notify: Some(true)
        }
    );
}

#[test]
fn accept_without_content_is_an_empty_form() {
    for r in [
        result(json!({"action": "accept"})),
        result(json!({"action": "accept", "content": null})),
    ] {
        assert!(matches!(
            Outcome::<Defaults>::try_from(&r).unwrap(),
            Outcome::Accepted(Defaults { force: true, .. })
        ));
        let Err(OutcomeError::Invalid(errors)) = Outcome::<Refactor>::try_from(&r) else {
            panic!("`strategy` is required");
        };
        assert_eq!(errors.fields().collect::<Vec<_>>(), ["strategy"]);
    }
}

#[test]
fn accept_with_content_that_is_not_an_object() {
    let Err(OutcomeError::Conversion(error)) = Outcome::<Refactor>::try_from(&result(
        json!({"action": "accept", "content": ["balanced"]}),
    )) else {
        panic!("content that is not an object is a conversion error");
    };
    assert_eq!(error.property(), None);
    assert_eq!(
        error.kind(),
        &ConversionErrorKind::ContentNotAnObject {
            found: JsonKind::Array
        }
    );
}

#[test]
fn decline_and_cancel_ignore_content() {
    for (action, expected) in [
        ("decline", Outcome::<Refactor>::Declined),
        ("cancel", Outcome::<Refactor>::Cancelled),
    ] {
        for r in [
            result(json!({"action": action})),
            result(json!({"action": action, "content": {"strategy": "nope"}})),
        ] {
            assert_eq!(Outcome::<Refactor>::try_from(&r).unwrap(), expected);
        }
    }
    assert_eq!(
        Outcome::<Refactor>::try_from(&ElicitResult::new(ElicitationAction::Decline)).unwrap(),
        Outcome::Declined
    );
}

#[test]
fn an_unknown_action_does_not_parse_in_rmcp() {
    // rmcp's action enum is closed: an unknown action is a parse error of the
    // whole result, which the server sees as a failed request.
    assert!(serde_json::from_value::<ElicitResult>(json!({"action": "_defer"})).is_err());
}

#[test]
fn a_dropped_pattern_is_still_checked_on_the_server() {
    let r = result(json!({"action": "accept", "content": {
        "name": "Ada", "handle": "Not A Handle", "email": "ada@example.com"
    }}));
    let Err(OutcomeError::Invalid(errors)) = Outcome::<Profile>::try_from(&r) else {
        panic!("the pattern is checked");
    };
    assert_eq!(errors.fields().collect::<Vec<_>>(), ["handle"]);
    assert!(
        errors.to_string().contains("must match the pattern"),
        "{errors}"
    );
}

// ---------------------------------------------------------------------------
// examples/mcp_server.rs, end to end through rmcp's client

/// An MCP client that answers each elicitation with the next scripted
/// result and records the requests and custom notifications it got.
#[derive(Clone)]
pub(crate) struct ScriptedClient {
    capability: Option<ElicitationCapability>,
    answers: Arc<Mutex<VecDeque<ElicitResult>>>,
    seen: Arc<Mutex<Vec<ElicitRequestParams>>>,
    /// The id of each request: a number for a real `elicitation/create`
    /// request, the input request's key for one fulfilled from an
    /// input-required result.
    ids: Arc<Mutex<Vec<mcp::NumberOrString>>>,
    notified: mpsc::UnboundedSender<CustomNotification>,
    /// The name in its `clientInfo`.
    name: &'static str,
    /// Whether it declares the tasks extension (SEP-2663).
    tasks: bool,
}

impl ScriptedClient {
    /// A client with form mode (`elicitation: true`) or no elicitation.
    fn new(elicitation: bool, answers: Vec<Value>) -> Self {
        let form = ElicitationCapability::new().with_form(FormElicitationCapability::new());
        Self::with(elicitation.then_some(form), answers).0
    }

    /// A client advertising `capability`, and the receiving end of the
    /// custom notifications it gets.
    pub(crate) fn with(
        capability: Option<ElicitationCapability>,
        answers: Vec<Value>,
    ) -> (Self, mpsc::UnboundedReceiver<CustomNotification>) {
        let (notified, received) = mpsc::unbounded_channel();
        let client = Self {
            capability,
            answers: Arc::new(Mutex::new(answers.into_iter().map(result).collect())),
            seen: Arc::default(),
            ids: Arc::default(),
            notified,
            name: "scripted",
            tasks: false,
        };
        (client, received)
    }

    pub(crate) fn seen(&self) -> Vec<ElicitRequestParams> {
        self.seen.lock().unwrap().clone()
    }

    /// This client, declaring the tasks extension too.
    pub(crate) fn with_tasks(mut self) -> Self {
        self.tasks = true;
        self
    }

    /// Its next scripted answer to `request` (an input request of a task,
    /// which the test fulfils), recorded as seen; an error's JSON when none
    /// is left.
    pub(crate) fn answer(&self, request: ElicitRequestParams) -> Value {
        self.seen.lock().unwrap().push(request);
        let next = self.answers.lock().unwrap().pop_front();
        serde_json::to_value(next).unwrap()
    }
}

impl ClientHandler for ScriptedClient {
    fn get_info(&self) -> InitializeRequestParams {
        let mut capabilities = if self.tasks {
            ClientCapabilities::builder().enable_tasks().build()
        } else {
            ClientCapabilities::default()
        };
        capabilities.elicitation = self.capability.clone();
        InitializeRequestParams::new(capabilities, Implementation::new(self.name, "0"))
            .with_protocol_version(ProtocolVersion::V_2025_11_25)
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        self.seen.lock().unwrap().push(request);
        self.ids.lock().unwrap().push(context.id);
        self.answers
            .lock()
            .unwrap()
            .pop_front()
            .ok_or_else(|| ErrorData::internal_error("no scripted answer left", None))
    }

    async fn on_custom_notification(
        &self,
        notification: CustomNotification,
        _context: NotificationContext<RoleClient>,
    ) {
        // The test may have stopped listening; nothing to do then.
        let _ = self.notified.send(notification);
    }
}

/// The MCP versions the example server speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Version {
    /// 2025-11-25: `initialize`, then `elicitation/create` requests.
    Legacy,
    /// 2026-07-28: `server/discover`, per-request `_meta`, and input-required
    /// rounds, which rmcp's client fulfils and retries by itself.
    Modern,
}

pub(crate) const VERSIONS: [Version; 2] = [Version::Legacy, Version::Modern];

/// Connects `client` on `transport` (an in-memory pipe, a child process,
/// Streamable HTTP) at `version`.
pub(crate) async fn connect_at<S, T, E, A>(
    client: &S,
    transport: T,
    version: Version,
) -> ::rmcp::service::RunningService<RoleClient, S>
where
    S: ClientHandler + Clone,
    T: ::rmcp::transport::IntoTransport<RoleClient, E, A>,
    E: std::error::Error + Send + Sync + 'static,
{
    match version {
        Version::Legacy => client.clone().serve(transport).await.unwrap(),
        Version::Modern => ::rmcp::service::ClientServiceExt::serve_with_lifecycle(
            client.clone(),
            transport,
            ::rmcp::service::ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
        )
        .await
        .unwrap(),
    }
}

/// Runs the example server and the client on one in-memory pipe, calls the
/// `deploy` tool at `version`, and returns (is_error, text, elicitations
/// seen).
async fn call_deploy(
    client: ScriptedClient,
    version: Version,
) -> (bool, String, Vec<ElicitRequestParams>) {
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    let server = tokio::spawn(async move {
        let running = mcp_server::DeployServer::default()
            .serve(server_io)
            .await
            .unwrap();
        running.waiting().await.unwrap();
    });
    let running = connect_at(&client, client_io, version).await;
    let tools = running.peer().list_tools(None).await.unwrap();
    assert_eq!(tools.tools[0].name, mcp_server::DEPLOY_TOOL);
    // rmcp's client fulfils input-required rounds and calls again by itself.
    let result = running
        .call_tool(CallToolRequestParams::new(mcp_server::DEPLOY_TOOL))
        .await
        .unwrap();
    running.cancel().await.unwrap();
    server.await.unwrap();
    let text = result.content[0].as_text().unwrap().text.clone();
    let seen = client.seen();
    // Each version took its own path: requests on 2025-11-25, input
    // requests under the tool's key on 2026-07-28.
    for id in client.ids.lock().unwrap().iter() {
        match (version, id) {
            (Version::Legacy, mcp::NumberOrString::Number(_)) => {}
            (Version::Modern, mcp::NumberOrString::String(key)) => {
                assert_eq!(&**key, mcp_server::DEPLOY_TOOL);
            }
            other => panic!("{other:?}"),
        }
    }
    (result.is_error == Some(true), text, seen)
}

pub(crate) fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

#[test]
fn the_example_server_deploys_what_the_user_accepted() {
    for version in VERSIONS {
        let client = ScriptedClient::new(
            true,
            vec![
                json!({"action": "accept", "content": {"env": "production", "replicas": 3, "notify": true}}),
            ],
        );
        let (is_error, text, seen) = runtime().block_on(call_deploy(client, version));
        assert!(!is_error, "{text}");
        assert_eq!(
            text,
            "Deploying `main` to production with 3 replicas; the team will be notified."
        );
        // What went over the wire: the derived form, MCP-shaped.
        let [
            ElicitRequestParams::FormElicitationParams {
                requested_schema, ..
            },
        ] = seen.as_slice()
        else {
            panic!("one form elicitation: {seen:?}");
        };
        assert_eq!(
            serde_json::to_value(requested_schema).unwrap(),
            serde_json::to_value(
                ::rmcp::model::ElicitationSchema::try_from(mcp_server::Deploy::schema()).unwrap()
            )
            .unwrap()
        );
        assert!(requested_schema.properties.contains_key("branch"));
    }
}

#[test]
fn the_example_server_asks_again_after_invalid_content() {
    for version in VERSIONS {
        let first = json!({"env": "staging", "branch": "Not A Branch"});
        let client = ScriptedClient::new(
            true,
            vec![
                // The MCP client never saw the branch pattern; the server checks it.
                json!({"action": "accept", "content": first}),
                json!({"action": "accept", "content": {"env": "staging", "replicas": 1, "branch": "fix-42"}}),
            ],
        );
        let (is_error, text, seen) = runtime().block_on(call_deploy(client, version));
        assert!(!is_error, "{text}");
        assert_eq!(text, "Deploying `fix-42` to staging with 1 replica.");
        assert_eq!(seen.len(), 2);
        let messages: Vec<&str> = seen.iter().map(form_message).collect();
        let errors = mcp_server::Deploy::from_content(first.as_object().unwrap()).unwrap_err();
        assert_eq!(errors.fields().collect::<Vec<_>>(), ["branch"]);
        // The shared policy's message: the original, then the errors by field.
        assert_eq!(messages[0], DEPLOY_MESSAGE);
        assert_eq!(messages[1], errors.retry_message(DEPLOY_MESSAGE));
        assert!(
            messages[1].contains("`branch` must match the pattern"),
            "{}",
            messages[1]
        );
    }
}

#[test]
fn the_example_server_asks_again_when_the_branch_is_already_taken() {
    for version in VERSIONS {
        let taken = json!({"env": "staging", "branch": "release"});
        assert!(mcp_server::taken_branches().contains("release"));
        let client = ScriptedClient::new(
            true,
            vec![
                // Every rule of the form holds: only the server's check refuses it.
                json!({"action": "accept", "content": taken}),
                json!({"action": "accept", "content": {"env": "staging", "branch": "fix-42"}}),
            ],
        );
        let (is_error, text, seen) = runtime().block_on(call_deploy(client, version));
        assert!(!is_error, "{text}");
        assert_eq!(text, "Deploying `fix-42` to staging with 2 replicas.");
        let messages: Vec<&str> = seen.iter().map(form_message).collect();
        assert_eq!(messages.len(), 2, "{messages:?}");
        assert_eq!(
            messages[1],
            format!(
                "{DEPLOY_MESSAGE}\n\nThe previous answer was not accepted: `branch` is already \
                 taken by another deploy. Please correct it."
            )
        );
    }
}

#[test]
fn the_example_server_respects_decline_and_cancel() {
    for version in VERSIONS {
        for (action, expected) in [
            ("decline", "The user declined: nothing was deployed."),
            ("cancel", "Cancelled: nothing was deployed."),
        ] {
            let client = ScriptedClient::new(true, vec![json!({"action": action})]);
            let (is_error, text, seen) = runtime().block_on(call_deploy(client, version));
            assert!(!is_error);
            assert_eq!(text, expected);
            assert_eq!(seen.len(), 1);
        }
    }
}

#[test]
fn the_example_server_gives_up_after_repeated_invalid_answers() {
    for version in VERSIONS {
        let bad = json!({"action": "accept", "content": {"env": "moon"}});
        let attempts = mcp_server::RETRIES + 1;
        let client = ScriptedClient::new(true, vec![bad; attempts as usize]);
        let (is_error, text, seen) = runtime().block_on(call_deploy(client, version));
        assert!(is_error);
        assert!(
            text.starts_with(
                "nothing was deployed: no valid answer after 3 attempt(s), the last one: "
            ),
            "{text}"
        );
        assert!(text.contains("`env`"), "{text}");
        assert_eq!(seen.len(), attempts as usize);
    }
}

#[test]
fn the_example_server_does_not_elicit_from_a_client_without_forms() {
    for version in VERSIONS {
        let client = ScriptedClient::new(false, vec![]);
        let (is_error, text, seen) = runtime().block_on(call_deploy(client, version));
        assert!(is_error);
        assert!(text.starts_with("This client cannot show forms"), "{text}");
        assert!(seen.is_empty());
    }
}

// ---------------------------------------------------------------------------
// The `Elicitor` on the server's peer, against rmcp's client

/// The example's form message, as the client must see it.
pub(crate) const DEPLOY_MESSAGE: &str = "Deploy the current branch. Where to, and how?";

/// The message of a form request.
pub(crate) fn form_message(request: &ElicitRequestParams) -> &str {
    match request {
        ElicitRequestParams::FormElicitationParams { message, .. } => message,
        other => panic!("a form request, got {other:?}"),
    }
}

/// Form mode only, as `{"form": {}}`.
pub(crate) fn form_mode() -> Option<ElicitationCapability> {
    Some(ElicitationCapability::new().with_form(FormElicitationCapability::new()))
}

/// URL mode only, as `{"url": {}}`.
pub(crate) fn url_mode() -> Option<ElicitationCapability> {
    Some(ElicitationCapability::new().with_url(UrlElicitationCapability::new()))
}

/// The call refused sensitive input before sending anything: the client
/// saw no request and no page server started on `pages`.
fn assert_needs_url_mode<T: std::fmt::Debug>(
    refused: &Result<T, ElicitError>,
    seen: &[ElicitRequestParams],
    pages: &elicit_core::sensitive::Pages,
) {
    assert!(
        matches!(
            refused,
            Err(ElicitError::NotSent(SendError::SensitiveInputNeedsUrlMode))
        ),
        "{refused:?}"
    );
    assert!(seen.is_empty(), "{seen:?}");
    assert!(
        pages.local_addr().is_none(),
        "a page server started for nothing"
    );
}

/// The client saw one URL request, to a loopback page: a browser opens it.
fn open_the_one_url(seen: &[ElicitRequestParams]) -> crate::common::http::Reply {
    let [ElicitRequestParams::UrlElicitationParams { url, .. }] = seen else {
        panic!("one URL request: {seen:?}");
    };
    let (addr, path) = crate::common::http::split_url(url);
    crate::common::http::Req::get(path).send(addr)
}

/// Connects a server (the example's, whose tool is not called) and `client`
/// over an in-memory pipe, runs `f` with the server's peer, and returns its
/// value and the requests the client saw.
/// An elicitor on `peer`, with a state of its own.
pub(crate) fn elicitor(peer: &Peer<RoleServer>) -> elicit_core::mcp::Elicitor<'_> {
    elicit_core::mcp::ServerElicitations::new().elicitor(peer)
}

/// Whether `peer`'s client advertised `mode`, by MCP's rule.
fn supports(peer: &Peer<RoleServer>, mode: Mode) -> bool {
    peer.peer_info().is_some_and(|client| {
        client
            .capabilities
            .elicitation
            .as_ref()
            .is_some_and(|e| match mode {
                // `{}` (neither listed) is form mode.
                Mode::Form => e.form.is_some() || e.url.is_none(),
                Mode::Url => e.url.is_some(),
            })
    })
}

pub(crate) async fn with_peer<F, R>(client: ScriptedClient, f: F) -> (R, Vec<ElicitRequestParams>)
where
    F: AsyncFnOnce(&Peer<RoleServer>) -> R,
{
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    let server =
        tokio::spawn(async move { mcp_server::DeployServer::default().serve(server_io).await });
    let running = client.clone().serve(client_io).await.unwrap();
    let server = server.await.unwrap().unwrap();
    let value = f(server.peer()).await;
    running.cancel().await.unwrap();
    server.cancel().await.unwrap();
    (value, client.seen())
}

#[test]
fn elicit_form_returns_the_accepted_form() {
    let (client, _) = ScriptedClient::with(
        form_mode(),
        vec![json!({"action": "accept", "content": {"env": "production", "branch": "fix-7"}})],
    );
    let (outcome, seen) = runtime().block_on(with_peer(client, async |peer| {
        elicitor(peer)
            .elicit_form::<mcp_server::Deploy>(DEPLOY_MESSAGE)
            .await
    }));
    assert_eq!(
        outcome.unwrap(),
        Outcome::Accepted(mcp_server::Deploy {
            env: mcp_server::Environment::Production,
            replicas: 2,
            branch: "fix-7".into(),
            notify: None,
        })
    );
    let [
        ElicitRequestParams::FormElicitationParams {
            message,
            requested_schema,
            ..
        },
    ] = seen.as_slice()
    else {
        panic!("one form request: {seen:?}");
    };
    assert_eq!(message, DEPLOY_MESSAGE);
    assert_eq!(
        serde_json::to_value(requested_schema).unwrap(),
        serde_json::to_value(
            ::rmcp::model::ElicitationSchema::try_from(mcp_server::Deploy::schema()).unwrap()
        )
        .unwrap()
    );
}

#[test]
fn elicit_form_returns_decline_and_cancel_at_once_even_with_retries() {
    for (action, expected) in [
        ("decline", Outcome::<mcp_server::Deploy>::Declined),
        ("cancel", Outcome::Cancelled),
    ] {
        let (client, _) = ScriptedClient::with(form_mode(), vec![json!({"action": action})]);
        let (outcome, seen) = runtime().block_on(with_peer(client, async |peer| {
            elicitor(peer)
                .elicit_form::<mcp_server::Deploy>(DEPLOY_MESSAGE)
                .retry(3)
                .await
        }));
        assert_eq!(outcome.unwrap(), expected);
        assert_eq!(seen.len(), 1, "{action} is not asked again");
    }
}

#[test]
fn elicit_form_asks_again_with_the_errors_then_accepts() {
    let first = json!({"env": "moon", "replicas": 40});
    let (client, _) = ScriptedClient::with(
        form_mode(),
        vec![
            json!({"action": "accept", "content": first}),
            json!({"action": "accept", "content": {"env": "staging", "replicas": 1}}),
        ],
    );
    let (outcome, seen) = runtime().block_on(with_peer(client, async |peer| {
        elicitor(peer)
            .elicit_form::<mcp_server::Deploy>(DEPLOY_MESSAGE)
            .retry(1)
            .await
    }));
    let Outcome::Accepted(form) = outcome.unwrap() else {
        panic!("accepted on the second request");
    };
    assert_eq!(
        (form.env, form.replicas),
        (mcp_server::Environment::Staging, 1)
    );
    let errors = mcp_server::Deploy::from_content(first.as_object().unwrap()).unwrap_err();
    assert_eq!(errors.fields().collect::<Vec<_>>(), ["env", "replicas"]);
    let messages: Vec<&str> = seen.iter().map(form_message).collect();
    assert_eq!(
        messages,
        [
            DEPLOY_MESSAGE.to_owned(),
            errors.retry_message(DEPLOY_MESSAGE)
        ]
    );
    assert!(messages[1].contains("`env`") && messages[1].contains("`replicas`"));
}

#[test]
fn elicit_form_gives_up_after_the_retries_with_the_errors_and_attempts() {
    let bad = json!({"action": "accept", "content": {"env": "moon"}});
    for (retry, attempts) in [(None, 1), (Some(0), 1), (Some(2), 3)] {
        let (client, _) = ScriptedClient::with(form_mode(), vec![bad.clone(); attempts]);
        let (outcome, seen) = runtime().block_on(with_peer(client, async |peer| {
            let form = elicitor(peer).elicit_form::<mcp_server::Deploy>(DEPLOY_MESSAGE);
            match retry {
                Some(n) => form.retry(n).await,
                None => form.await,
            }
        }));
        let Err(ElicitError::Invalid {
            errors,
            attempts: n,
        }) = outcome
        else {
            panic!("invalid after {attempts}: {outcome:?}");
        };
        assert_eq!(n as usize, attempts);
        assert_eq!(seen.len(), attempts);
        assert_eq!(errors.fields().collect::<Vec<_>>(), ["env"]);
        let message = ElicitError::Invalid {
            errors,
            attempts: n,
        }
        .to_string();
        assert!(
            message.starts_with(&format!("no valid answer after {attempts} attempt(s), the last one: invalid form content: `env`")),
            "{message}"
        );
    }
}

#[test]
fn elicit_form_is_refused_without_form_mode_and_sends_nothing() {
    // No elicitation capability, and URL mode only: neither has form mode.
    for capability in [None, url_mode()] {
        let (client, _) =
            ScriptedClient::with(capability.clone(), vec![json!({"action": "decline"})]);
        let (outcome, seen) = runtime().block_on(with_peer(client, async |peer| {
            elicitor(peer)
                .elicit_form::<mcp_server::Deploy>(DEPLOY_MESSAGE)
                .retry(2)
                .await
        }));
        assert!(
            matches!(
                outcome,
                Err(ElicitError::NotSent(SendError::ModeNotAdvertised {
                    mode: Mode::Form
                }))
            ),
            "{capability:?}: {outcome:?}"
        );
        assert!(seen.is_empty(), "{capability:?}: {seen:?}");
    }
}

/// A form with a custom `format`, which MCP cannot carry.
#[derive(Elicit, Debug)]
struct Phone {
    /// Your phone number.
    #[elicit(format = "phone")]
    phone: String,
}

#[test]
fn a_form_mcp_cannot_carry_is_refused_before_sending() {
    let (client, _) = ScriptedClient::with(form_mode(), vec![json!({"action": "decline"})]);
    let (outcome, seen) = runtime().block_on(with_peer(client, async |peer| {
        elicitor(peer)
            .elicit_form::<Phone>("Your phone number?")
            .await
    }));
    let Err(ElicitError::NotSent(SendError::UnsendableForm(error))) = outcome else {
        panic!("refused: {outcome:?}");
    };
    assert_eq!(error.property(), Some("phone"));
    assert_eq!(
        error.kind(),
        &ConversionErrorKind::CustomFormat {
            format: "phone".into()
        }
    );
    assert!(seen.is_empty(), "{seen:?}");
}

#[test]
fn an_empty_elicitation_capability_is_form_mode() {
    let (client, _) = ScriptedClient::with(
        Some(ElicitationCapability::new()),
        vec![json!({"action": "cancel"})],
    );
    let ((outcome, url), seen) = runtime().block_on(with_peer(client, async |peer| {
        let url = supports(peer, Mode::Url);
        (
            elicitor(peer)
                .elicit_form::<mcp_server::Deploy>(DEPLOY_MESSAGE)
                .await,
            url,
        )
    }));
    assert_eq!(outcome.unwrap(), Outcome::Cancelled);
    assert!(!url);
    assert_eq!(seen.len(), 1);
}

#[test]
fn supports_elicitation_agrees_with_rmcp() {
    let both = Some(
        ElicitationCapability::new()
            .with_form(FormElicitationCapability::new())
            .with_url(UrlElicitationCapability::new()),
    );
    let expected = [
        (None, [false, false]),
        (Some(ElicitationCapability::new()), [true, false]),
        (form_mode(), [true, false]),
        (url_mode(), [false, true]),
        (both, [true, true]),
    ];
    for (capability, [form, url]) in expected {
        let (client, _) = ScriptedClient::with(capability.clone(), vec![]);
        let ((ours, rmcp), _) = runtime().block_on(with_peer(client, async |peer| {
            let ours = [Mode::Form, Mode::Url].map(|m| supports(peer, m));
            let theirs = peer.supported_elicitation_modes();
            let rmcp = [ElicitationMode::Form, ElicitationMode::Url].map(|m| theirs.contains(&m));
            (ours, rmcp)
        }));
        assert_eq!(ours, [form, url], "{capability:?}");
        assert_eq!(ours, rmcp, "{capability:?}");
    }
}

/// The URL-mode request the tests send.
pub(crate) fn connect() -> UrlRequest {
    UrlRequest::new(
        "Connect your GitHub account.",
        "https://mcp.example.com/connect?elicitation=gh-42",
    )
    .elicitation_id("gh-42")
}

#[test]
fn sensitive_input_without_url_mode_is_refused_and_sends_nothing() {
    for capability in [None, form_mode(), Some(ElicitationCapability::new())] {
        let (client, _) =
            ScriptedClient::with(capability.clone(), vec![json!({"action": "accept"})]);
        let ((sensitive, url), seen) = runtime().block_on(with_peer(client, async |peer| {
            (
                elicitor(peer).elicit_url(connect().sensitive()).await,
                elicitor(peer).elicit_url(connect()).await,
            )
        }));
        assert!(
            matches!(
                sensitive,
                Err(ElicitError::NotSent(SendError::SensitiveInputNeedsUrlMode))
            ),
            "{capability:?}: {sensitive:?}"
        );
        assert!(
            matches!(
                url,
                Err(ElicitError::NotSent(SendError::ModeNotAdvertised {
                    mode: Mode::Url
                }))
            ),
            "{capability:?}: {url:?}"
        );
        assert!(seen.is_empty(), "{capability:?}: {seen:?}");
    }
}

#[test]
fn url_mode_accept_is_consent_and_completion_is_notified() {
    let (client, mut notified) = ScriptedClient::with(
        url_mode(),
        vec![
            // Content on a URL-mode answer is ignored.
            json!({"action": "accept", "content": {"token": "never read"}}),
            json!({"action": "accept"}),
        ],
    );
    let elicitations = elicit_core::mcp::ServerElicitations::new();
    let ((url, sensitive, twice, completed), seen) =
        runtime().block_on(with_peer(client, async |peer| {
            let url = elicitations
                .elicitor(peer)
                .elicit_url(connect())
                .await
                .unwrap();
            // Another call of the same connection: the state is the same.
            let elicitor = elicitations.elicitor(peer);
            let sensitive = elicitor
                .elicit_url(
                    UrlRequest::new(
                        "Connect your GitHub account.",
                        "https://mcp.example.com/connect?elicitation=gh-43",
                    )
                    .elicitation_id("gh-43")
                    .sensitive(),
                )
                .await
                .unwrap();
            elicitor.complete(&"gh-42".into(), None).await.unwrap();
            let twice = elicitor.complete(&"gh-42".into(), None).await;
            (url, sensitive, twice, notified.recv().await.unwrap())
        }));
    for (outcome, id) in [(url, "gh-42"), (sensitive, "gh-43")] {
        let UrlOutcome::Consented(waiting) = outcome else {
            panic!("consent: {outcome:?}");
        };
        assert_eq!(waiting.id().as_str(), id);
    }
    assert_eq!(seen.len(), 2);
    for (request, id) in seen.iter().zip(["gh-42", "gh-43"]) {
        let ElicitRequestParams::UrlElicitationParams {
            message,
            url,
            elicitation_id,
            ..
        } = request
        else {
            panic!("a URL request: {request:?}");
        };
        assert_eq!(message, "Connect your GitHub account.");
        assert_eq!(
            url,
            &format!("https://mcp.example.com/connect?elicitation={id}")
        );
        assert_eq!(elicitation_id, id);
    }
    assert_eq!(completed.method, "notifications/elicitation/complete");
    assert_eq!(completed.method, "notifications/elicitation/complete");
    assert_eq!(completed.params, Some(json!({"elicitationId": "gh-42"})));
    // Completion once: the second is refused and not sent.
    assert!(
        matches!(
            twice,
            Err(ElicitError::Completion(
                elicit_core::protocol::agent::CompletionError::AlreadyCompleted(_)
            ))
        ),
        "{twice:?}"
    );
}

/// `Elicitations` keeps a connection's URL elicitations across its calls:
/// an id still outstanding is refused, and a completion bound to a
/// verified user refuses another user, as on the ACP SDK.
#[test]
fn a_connections_url_elicitations_are_unique_and_bound_across_calls() {
    use elicit_core::protocol::agent::{CompletionError, VerifiedUser};

    let (client, _) = ScriptedClient::with(
        url_mode(),
        vec![json!({"action": "accept"}), json!({"action": "accept"})],
    );
    let elicitations = elicit_core::mcp::ServerElicitations::new();
    let alice = VerifiedUser::new("alice");
    let ((again, bob, alice_done), seen) = runtime().block_on(with_peer(client, async |peer| {
        let first = elicitations
            .elicitor(peer)
            .elicit_url(connect().for_user(&alice))
            .await
            .unwrap();
        assert!(matches!(first, UrlOutcome::Consented(_)), "{first:?}");
        // A later call: the same id while it is outstanding.
        let again = elicitations.elicitor(peer).elicit_url(connect()).await;
        let elicitor = elicitations.elicitor(peer);
        let bob = elicitor
            .complete(&"gh-42".into(), Some(&VerifiedUser::new("bob")))
            .await;
        let alice_done = elicitor.complete(&"gh-42".into(), Some(&alice)).await;
        (again, bob, alice_done)
    }));
    assert!(
        matches!(
            again,
            Err(ElicitError::NotSent(SendError::DuplicateElicitationId(_)))
        ),
        "{again:?}"
    );
    assert!(
        matches!(
            bob,
            Err(ElicitError::Completion(CompletionError::IdentityMismatch(
                _
            )))
        ),
        "{bob:?}"
    );
    alice_done.unwrap();
    assert_eq!(seen.len(), 1, "the refused request was not sent");
}

#[test]
fn url_mode_decline_and_cancel() {
    let (client, _) = ScriptedClient::with(
        url_mode(),
        vec![json!({"action": "decline"}), json!({"action": "cancel"})],
    );
    let (outcomes, seen) = runtime().block_on(with_peer(client, async |peer| {
        [
            elicitor(peer).elicit_url(connect()).await.unwrap(),
            elicitor(peer)
                .elicit_url(connect().sensitive())
                .await
                .unwrap(),
        ]
    }));
    assert_eq!(outcomes, [UrlOutcome::Declined, UrlOutcome::Cancelled]);
    assert_eq!(seen.len(), 2);
}

#[test]
fn unsafe_urls_and_empty_ids_are_refused_before_sending() {
    let (client, _) = ScriptedClient::with(url_mode(), vec![json!({"action": "accept"})]);
    let ((http, empty, notify), seen) = runtime().block_on(with_peer(client, async |peer| {
        let http = UrlRequest::new("Sign in.", "http://mcp.example.com/login").elicitation_id("e1");
        let empty = UrlRequest::new("Sign in.", "https://mcp.example.com/login").elicitation_id("");
        (
            elicitor(peer).elicit_url(http.sensitive()).await,
            elicitor(peer).elicit_url(empty).await,
            elicitor(peer).complete(&"".into(), None).await,
        )
    }));
    let Err(ElicitError::NotSent(SendError::UnsafeUrl(rejection))) = http else {
        panic!("refused: {http:?}");
    };
    assert_eq!(
        rejection,
        UrlRejection::InsecureHttp {
            host: "mcp.example.com".into()
        }
    );
    assert!(
        matches!(
            empty,
            Err(ElicitError::NotSent(SendError::EmptyElicitationId))
        ),
        "{empty:?}"
    );
    // Nothing is outstanding under an empty id: refused, nothing sent.
    assert!(
        matches!(
            notify,
            Err(ElicitError::Completion(
                elicit_core::protocol::agent::CompletionError::NotOutstanding(_)
            ))
        ),
        "{notify:?}"
    );
    assert!(seen.is_empty(), "{seen:?}");
}

#[test]
fn a_failed_request_is_the_service_error() {
    // The client has no scripted answer: it answers with a JSON-RPC error.
    let (client, _) = ScriptedClient::with(form_mode(), vec![]);
    let (outcome, seen) = runtime().block_on(with_peer(client, async |peer| {
        elicitor(peer)
            .elicit_form::<mcp_server::Deploy>(DEPLOY_MESSAGE)
            .retry(2)
            .await
    }));
    let Err(ElicitError::Request(request)) = outcome else {
        panic!("rmcp's error, wrapped: {outcome:?}");
    };
    let Some(ServiceError::McpError(error)) = request.downcast_ref::<ServiceError>() else {
        panic!("rmcp's own error inside: {request:?}");
    };
    assert_eq!(error.message, "no scripted answer left");
    assert_eq!(
        request.failure(),
        elicit_core::flow::RequestFailure::ErrorResponse {
            code: error.code.0.into()
        }
    );
    assert_eq!(seen.len(), 1, "a failed request is not asked again");
}

// ---------------------------------------------------------------------------
// The `mcp` module docs' snippet ("One call on rmcp's peer"), compiled and run here

#[rustfmt::skip]
#[allow(dead_code)]
mod readme {
// README snippet start
use elicit_core::mcp::{ElicitError, ServerElicitations};
use elicit_core::Elicit;
use elicit_core::protocol::agent::Outcome;
use rmcp::{Peer, RoleServer};

#[derive(Elicit, Debug)]
struct Confirm {
    /// Go ahead with the deployment?
    proceed: bool,
}

/// From code that holds the peer: `confirm(&self.elicitations, &peer).await`,
/// with one `ServerElicitations` per connection in your handler.
async fn confirm(
    elicitations: &ServerElicitations,
    peer: &Peer<RoleServer>,
) -> Result<bool, ElicitError> {
    // Refused, sending nothing, if the client has no form mode; the answer is
    // validated again by `Confirm::from_content`, and an invalid one is asked
    // again (twice at most) with the errors in the message.
    let elicitor = elicitations.elicitor(peer);
    let outcome = elicitor.elicit_form::<Confirm>("Deploy to production?").retry(2).await?;
    Ok(matches!(outcome, Outcome::Accepted(Confirm { proceed: true })))
}
// README snippet end

#[test]
fn the_peer_docs_snippet_runs_against_rmcps_client() {
    let (client, _) = super::ScriptedClient::with(
        super::form_mode(),
        vec![
            serde_json::json!({"action": "accept", "content": {"proceed": "yes"}}),
            serde_json::json!({"action": "accept", "content": {"proceed": true}}),
        ],
    );
    let (proceed, seen) = super::runtime().block_on(super::with_peer(client, async |peer| {
        confirm(&ServerElicitations::new(), peer).await
    }));
    assert!(proceed.unwrap());
    assert_eq!(super::form_message(&seen[0]), "Deploy to production?");
    assert!(
        super::form_message(&seen[1]).contains("`proceed`"),
        "{:?}",
        seen[1]
    );
}
}

#[test]
fn the_peer_docs_snippet_is_this_code() {
    let docs = docs_block(
        include_str!("../../elicit-core/src/mcp/mod.rs"),
        "# Outside a request's handler",
    );
    assert_eq!(lines(snippet(include_str!("rmcp.rs"))), lines(&docs));
}

/// Feature `sensitive`: the token form `elicit_secret` asks for.
#[derive(elicit_core::Elicit, Debug)]
#[elicit(sensitive)]
struct ApiToken {
    /// The token.
    #[secret]
    #[elicit(length(min = 12))]
    token: elicit_core::sensitive::SecretString,
}

/// Plays the browser: waits until `client` saw a URL request, then submits
/// `token` on its page; returns the page's status.
fn submit_page(client: ScriptedClient, token: &'static str) -> std::thread::JoinHandle<u16> {
    std::thread::spawn(move || {
        let url = loop {
            if let Some(ElicitRequestParams::UrlElicitationParams { url, .. }) =
                client.seen().first()
            {
                break url.clone();
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        };
        crate::common::sensitive::answer_page(&url, &format!("token={token}"))
    })
}

#[test]
fn elicit_secret_returns_the_pages_answer_and_notifies_completion() {
    use elicit_core::sensitive::{ExposeSecret, Pages, SecretOutcome};

    let (client, mut notified) =
        ScriptedClient::with(url_mode(), vec![json!({"action": "accept"})]);
    let browser = submit_page(client.clone(), "tok-0123456789");
    let pages = Pages::loopback().build();
    let ((outcome, completed), seen) = runtime().block_on(with_peer(client, async |peer| {
        let outcome = elicitor(peer)
            .elicit_secret::<ApiToken>("Paste your API token.", &pages)
            .await
            .unwrap();
        (outcome, notified.recv().await.unwrap())
    }));
    assert_eq!(browser.join().unwrap(), 200);
    let SecretOutcome::Answered(token) = outcome else {
        panic!("answered: {outcome:?}");
    };
    assert_eq!(token.token.expose_secret(), "tok-0123456789");
    let [
        ElicitRequestParams::UrlElicitationParams {
            message,
            url,
            elicitation_id,
            ..
        },
    ] = &seen[..]
    else {
        panic!("one URL request: {seen:?}");
    };
    assert_eq!(message, "Paste your API token.");
    assert!(url.ends_with(&format!("/elicit/{elicitation_id}")), "{url}");
    assert_eq!(completed.method, "notifications/elicitation/complete");
    assert_eq!(
        completed.params,
        Some(json!({"elicitationId": elicitation_id}))
    );
}

#[test]
fn elicit_secret_without_url_mode_opens_no_page_and_a_decline_closes_it() {
    use elicit_core::sensitive::{Pages, SecretOutcome};

    let pages = Pages::loopback().build();
    let (client, _) = ScriptedClient::with(form_mode(), vec![json!({"action": "accept"})]);
    let (refused, seen) = runtime().block_on(with_peer(client, async |peer| {
        elicitor(peer).elicit_secret::<ApiToken>("m", &pages).await
    }));
    assert_needs_url_mode(&refused, &seen, &pages);

    let (client, _) = ScriptedClient::with(url_mode(), vec![json!({"action": "decline"})]);
    let (declined, seen) = runtime().block_on(with_peer(client, async |peer| {
        elicitor(peer).elicit_secret::<ApiToken>("m", &pages).await
    }));
    assert!(
        matches!(declined, Ok(SecretOutcome::Declined)),
        "{declined:?}"
    );
    let visit = open_the_one_url(&seen);
    assert_eq!(visit.status, 410, "the declined page is still open");
}

/// Feature `sensitive`: a page on hosted pages (which verify users),
/// opened from an MCP tool for the user the server authenticated
/// (`.for_user`), is served to that user only; the user's answer is
/// returned and the completion notified. Without the user, no page is
/// opened and nothing is sent.
#[test]
fn a_hosted_secret_page_from_mcp_is_served_only_to_its_verified_user() {
    use crate::sensitive_server::hosted::{call, get, pages, submit_as};
    use elicit_core::protocol::agent::VerifiedUser;
    use elicit_core::sensitive::{ExposeSecret, OpenError, SecretOutcome};

    let pages = pages();
    let (client, _) = ScriptedClient::with(url_mode(), vec![json!({"action": "accept"})]);
    let (refused, seen) = runtime().block_on(with_peer(client, async |peer| {
        elicitor(peer).elicit_secret::<ApiToken>("m", &pages).await
    }));
    assert!(
        matches!(
            refused,
            Err(ElicitError::PageNotOpened(OpenError::UserRequired))
        ),
        "{refused:?}"
    );
    assert!(seen.is_empty(), "{seen:?}");

    let (client, mut notified) =
        ScriptedClient::with(url_mode(), vec![json!({"action": "accept"})]);
    let visitor = {
        let (client, pages) = (client.clone(), pages.clone());
        std::thread::spawn(move || {
            let url = loop {
                if let Some(ElicitRequestParams::UrlElicitationParams { url, .. }) =
                    client.seen().first()
                {
                    break url.clone();
                }
                std::thread::sleep(std::time::Duration::from_millis(10));
            };
            let path = url
                .strip_prefix("https://agent.example.com")
                .expect("the hosted pages' URL")
                .to_owned();
            let bob = call(&pages, get(&path, Some("bob")), "").status;
            let nobody = call(&pages, get(&path, None), "").status;
            let alice = submit_as(&pages, &path, "alice", "token=tok-0123456789");
            (bob, nobody, alice)
        })
    };
    let alice = VerifiedUser::new("alice");
    let ((outcome, completed), seen) = runtime().block_on(with_peer(client, async |peer| {
        let outcome = elicitor(peer)
            .elicit_secret::<ApiToken>("Paste your API token.", &pages)
            .for_user(&alice)
            .await
            .unwrap();
        (outcome, notified.recv().await.unwrap())
    }));
    assert_eq!(visitor.join().unwrap(), (403, 403, 200));
    let SecretOutcome::Answered(token) = outcome else {
        panic!("answered: {outcome:?}");
    };
    assert_eq!(token.token.expose_secret(), "tok-0123456789");
    let [ElicitRequestParams::UrlElicitationParams { elicitation_id, .. }] = &seen[..] else {
        panic!("one URL request: {seen:?}");
    };
    assert_eq!(
        completed.params,
        Some(json!({"elicitationId": elicitation_id}))
    );
}

/// A client's JSON-RPC error: the message names the code, never the
/// client's text or data (for a user to read); the source keeps them (for
/// the log).
#[test]
fn a_client_errors_text_stays_in_the_source_not_in_the_message() {
    let client = ::rmcp::model::ErrorData::internal_error(
        "Internal error: renderer crashed",
        Some(json!({"details": "renderer crashed"})),
    );
    let error = ElicitError::Request(ServiceError::McpError(client).into());
    let message = error.to_string();
    assert_eq!(
        message,
        "the client answered the elicitation with JSON-RPC error -32603 (Internal error)"
    );
    let ElicitError::Request(request) = &error else {
        unreachable!()
    };
    assert_eq!(
        request.failure(),
        elicit_core::flow::RequestFailure::ErrorResponse { code: -32603 }
    );
    let source = std::error::Error::source(&error).expect("the request's error");
    let theirs = std::error::Error::source(source).expect("rmcp's error");
    assert!(theirs.to_string().contains("renderer crashed"), "{theirs}");
    assert!(matches!(
        request.downcast_ref::<ServiceError>(),
        Some(ServiceError::McpError(_))
    ));
    let closed = ElicitError::Request(ServiceError::TransportClosed.into());
    assert!(
        closed
            .to_string()
            .starts_with("the connection to the client closed before it answered"),
        "{closed}"
    );
    let ElicitError::Request(closed) = closed else {
        unreachable!()
    };
    assert_eq!(closed.failure(), elicit_core::flow::RequestFailure::Closed);
}

#[path = "rmcp_rounds.rs"]
pub(crate) mod rounds;

#[path = "rmcp_tools.rs"]
mod tools;

#[path = "rmcp_arguments.rs"]
mod arguments;

// ---------------------------------------------------------------------------
// 2026-07-28: the sealed `requestState` is attacker-controlled input

mod request_state {
    use std::time::Duration;

    use ::rmcp::model::{
        CallToolRequestParams, CallToolResponse, ErrorCode, InputRequiredResult, JsonObject,
        RequestStateCodec,
    };
    use ::rmcp::service::RunningService;
    use ::rmcp::{RoleClient, ServiceError, ServiceExt};
    use elicit_core::mcp::RoundsConfig;
    use serde_json::json;

    use super::{ScriptedClient, Version, connect_at, form_mode, mcp_server, runtime};

    const KEY: [u8; 32] = *b"a key of 32 bytes, for tests....";

    fn config() -> RoundsConfig {
        RoundsConfig::new(RequestStateCodec::try_new(KEY.to_vec()).unwrap())
    }

    /// A 2026-07-28 client named `name`, connected to `server`, given to
    /// `f`; it answers nothing by itself (the test calls once per round).
    fn with_client<R>(
        server: RoundsConfig,
        name: &'static str,
        f: impl AsyncFnOnce(&RunningService<RoleClient, ScriptedClient>) -> R,
    ) -> R {
        let mut client = ScriptedClient::with(form_mode(), vec![]).0;
        client.name = name;
        runtime().block_on(async move {
            let (server_io, client_io) = tokio::io::duplex(64 * 1024);
            let server = tokio::spawn(async move {
                let running = mcp_server::DeployServer::with_rounds(server)
                    .serve(server_io)
                    .await
                    .unwrap();
                running.waiting().await.unwrap();
            });
            let running = connect_at(&client, client_io, Version::Modern).await;
            let value = f(&running).await;
            running.cancel().await.unwrap();
            server.await.unwrap();
            value
        })
    }

    fn deploy(arguments: Option<JsonObject>) -> CallToolRequestParams {
        let params = CallToolRequestParams::new(mcp_server::DEPLOY_TOOL);
        match arguments {
            Some(arguments) => params.with_arguments(arguments),
            None => params,
        }
    }

    /// The first round: the input-required result and its sealed state.
    async fn first_round(
        client: &RunningService<RoleClient, ScriptedClient>,
        arguments: Option<JsonObject>,
    ) -> String {
        let response = client.call_tool_once(deploy(arguments)).await.unwrap();
        let CallToolResponse::InputRequired(InputRequiredResult {
            input_requests: Some(requests),
            request_state: Some(state),
            ..
        }) = response
        else {
            panic!("an input-required result: {response:?}");
        };
        assert_eq!(
            requests.keys().map(String::as_str).collect::<Vec<_>>(),
            [mcp_server::DEPLOY_TOOL]
        );
        state
    }

    /// The retry with a valid answer and `state`.
    async fn answer(
        client: &RunningService<RoleClient, ScriptedClient>,
        arguments: Option<JsonObject>,
        state: &str,
    ) -> Result<CallToolResponse, ServiceError> {
        let responses = [(
            mcp_server::DEPLOY_TOOL.to_owned(),
            json!({"action": "accept", "content": {"env": "staging"}}),
        )]
        .into_iter()
        .collect();
        client
            .call_tool_once(
                deploy(arguments)
                    .with_input_responses(responses)
                    .with_request_state(state),
            )
            .await
    }

    fn assert_deployed(response: Result<CallToolResponse, ServiceError>) {
        let Ok(CallToolResponse::Complete(result)) = response else {
            panic!("a complete result: {response:?}");
        };
        let text = &result.content[0].as_text().unwrap().text;
        assert_eq!(text, "Deploying `main` to staging with 2 replicas.");
    }

    fn assert_refused(response: Result<CallToolResponse, ServiceError>) {
        let Err(ServiceError::McpError(error)) = response else {
            panic!("refused: {response:?}");
        };
        assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
        assert_eq!(error.message, "Invalid or expired requestState");
        assert_eq!(error.data, Some(json!({"reason": "invalid_request_state"})));
    }

    #[test]
    fn a_state_sealed_with_a_configured_key_survives_a_restart() {
        let state = with_client(config(), "alice", async |c| first_round(c, None).await);
        // Another server process, the same key.
        let again = with_client(config(), "alice", async |c| answer(c, None, &state).await);
        assert_deployed(again);
        // Without the key (a fresh random one): refused.
        let other = RoundsConfig::with_random_key().unwrap();
        assert_refused(with_client(other, "alice", async |c| {
            answer(c, None, &state).await
        }));
    }

    #[test]
    fn a_tampered_state_is_refused() {
        with_client(config(), "alice", async |c| {
            let state = first_round(c, None).await;
            // One character of the sealed body changed.
            let at = state.len() / 2;
            let flipped = if &state[at..=at] == "A" { "B" } else { "A" };
            let tampered = format!("{}{flipped}{}", &state[..at], &state[at + 1..]);
            assert_ne!(tampered, state);
            assert_refused(answer(c, None, &tampered).await);
            assert_refused(answer(c, None, "rs1.not.a-state").await);
            // The untouched state still works.
            assert_deployed(answer(c, None, &state).await);
        });
    }

    #[test]
    fn an_expired_state_is_refused() {
        let short = config().ttl(Duration::from_millis(1));
        with_client(short, "alice", async |c| {
            let state = first_round(c, None).await;
            tokio::time::sleep(Duration::from_millis(20)).await;
            assert_refused(answer(c, None, &state).await);
        });
    }

    #[test]
    fn a_state_is_refused_for_another_request() {
        with_client(config(), "alice", async |c| {
            let arguments = json!({"note": "first", "at": 1}).as_object().cloned();
            let state = first_round(c, arguments).await;
            let other = json!({"note": "second", "at": 1}).as_object().cloned();
            assert_refused(answer(c, other, &state).await);
            assert_refused(answer(c, None, &state).await);
            // The same arguments, in another key order, are the same request.
            let reordered = json!({"at": 1, "note": "first"}).as_object().cloned();
            assert_deployed(answer(c, reordered, &state).await);
        });
    }

    #[test]
    fn a_state_is_refused_for_another_user() {
        // The principal: the client's name, standing in for the user an
        // HTTP server's authentication knows.
        let by_name = || {
            config().principal(|context| {
                context
                    .client_info()
                    .map(|info| info.name)
                    .unwrap_or_default()
            })
        };
        let state = with_client(by_name(), "alice", async |c| first_round(c, None).await);
        assert_refused(with_client(by_name(), "bob", async |c| {
            answer(c, None, &state).await
        }));
        assert_deployed(with_client(by_name(), "alice", async |c| {
            answer(c, None, &state).await
        }));
    }

    /// The retry with these `responses` (and `state`, if any).
    async fn respond(
        client: &RunningService<RoleClient, ScriptedClient>,
        responses: serde_json::Value,
        state: Option<&str>,
    ) -> CallToolResponse {
        let responses = responses.as_object().unwrap().clone().into_iter().collect();
        let mut params = deploy(None).with_input_responses(responses);
        if let Some(state) = state {
            params = params.with_request_state(state);
        }
        client.call_tool_once(params).await.unwrap()
    }

    fn asked_again(response: &CallToolResponse) -> bool {
        matches!(response, CallToolResponse::InputRequired(r)
            if r.input_requests.as_ref().is_some_and(|q| q.contains_key(mcp_server::DEPLOY_TOOL)))
    }

    #[test]
    fn first_round_answers_need_no_state_and_extra_keys_are_ignored() {
        with_client(config(), "alice", async |c| {
            let answer = json!({"action": "accept", "content": {"env": "staging"}});
            let response = respond(
                c,
                json!({mcp_server::DEPLOY_TOOL: answer, "unexpected": {"action": "accept"}}),
                None,
            )
            .await;
            assert_deployed(Ok(response));
        });
    }

    /// The state of an input-required `response`.
    fn next_state(response: &CallToolResponse) -> String {
        let CallToolResponse::InputRequired(InputRequiredResult {
            request_state: Some(state),
            ..
        }) = response
        else {
            panic!("an input-required result with a state: {response:?}");
        };
        state.clone()
    }

    #[test]
    fn what_is_not_an_answer_to_the_last_rounds_question_is_asked_again() {
        with_client(config(), "alice", async |c| {
            let state = first_round(c, None).await;
            // Not an `ElicitResult`: asked again, never a completed call.
            let response = respond(c, json!({mcp_server::DEPLOY_TOOL: 12345}), Some(&state)).await;
            assert!(asked_again(&response), "{response:?}");
            // An answer under a key that round did not ask: ignored.
            let answer = json!({"action": "accept", "content": {"env": "staging"}});
            let state = next_state(&response);
            let response = respond(c, json!({"other": answer}), Some(&state)).await;
            assert!(asked_again(&response), "{response:?}");
            // No answers at all: asked again.
            let response = c
                .call_tool_once(deploy(None).with_request_state(next_state(&response)))
                .await
                .unwrap();
            assert!(asked_again(&response), "{response:?}");
        });
    }

    // A state is good for one call (examples/mcp_server.rs once deployed
    // twice for one state and one answer).

    #[test]
    fn a_completed_call_cannot_be_replayed() {
        with_client(config(), "alice", async |c| {
            let state = first_round(c, None).await;
            assert_deployed(answer(c, None, &state).await);
            // The same state and the same answers again: refused, not a
            // second deploy.
            assert_refused(answer(c, None, &state).await);
            assert_refused(answer(c, None, &state).await);
        });
    }

    #[test]
    fn an_earlier_rounds_state_cannot_be_used_again() {
        with_client(config(), "alice", async |c| {
            let first = first_round(c, None).await;
            // An invalid answer: asked again, with the next round's state.
            let wrong = json!({"action": "accept", "content": {"env": "moon"}});
            let response = respond(c, json!({mcp_server::DEPLOY_TOOL: wrong}), Some(&first)).await;
            assert!(asked_again(&response), "{response:?}");
            let second = next_state(&response);
            assert_ne!(second, first);
            // The answered round's state, now with a valid answer: refused.
            assert_refused(answer(c, None, &first).await);
            // The current round's state works, once.
            assert_deployed(answer(c, None, &second).await);
            assert_refused(answer(c, None, &second).await);
        });
    }

    #[test]
    fn of_concurrent_uses_of_one_state_at_most_one_completes() {
        with_client(config(), "alice", async |c| {
            let state = first_round(c, None).await;
            let calls = (0..6).map(|_| answer(c, None, &state));
            let results = futures::future::join_all(calls).await;
            let mut deployed = 0;
            for result in results {
                if matches!(result, Ok(CallToolResponse::Complete(_))) {
                    assert_deployed(result);
                    deployed += 1;
                } else {
                    assert_refused(result);
                }
            }
            assert_eq!(deployed, 1);
        });
    }

    #[test]
    fn used_states_are_remembered_until_they_expire_and_stateless_calls_keep_nothing() {
        let used = std::sync::Arc::new(elicit_core::mcp::MemoryUsedStates::new());
        let short = config()
            .ttl(Duration::from_millis(300))
            .used_states(used.clone());
        with_client(short, "alice", async |c| {
            // Calls without a state, answered wrongly, forever: each is asked
            // again and nothing is remembered for them.
            let wrong = json!({"action": "accept", "content": {"env": "moon"}});
            for _ in 0..20 {
                let response =
                    respond(c, json!({mcp_server::DEPLOY_TOOL: wrong.clone()}), None).await;
                assert!(asked_again(&response), "{response:?}");
            }
            assert_eq!(used.len(), 0);
            // Each used state is remembered...
            for _ in 0..3 {
                let state = first_round(c, None).await;
                assert_deployed(answer(c, None, &state).await);
            }
            assert_eq!(used.len(), 3);
            // ... until it expires (TTL and a margin of one second at most).
            let deadline = tokio::time::Instant::now() + Duration::from_millis(2000);
            while !used.is_empty() && tokio::time::Instant::now() < deadline {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            assert_eq!(used.len(), 0);
        });
    }

    /// A used-state store whose writes cannot count (a Redis without the
    /// replica they wait for): the call fails closed with a short, stable
    /// message, never the store's text.
    #[cfg(feature = "redis")]
    #[test]
    fn a_used_state_store_that_cannot_count_fails_closed_with_a_short_message() {
        use elicit_core::redis::{Redis, RedisUsedStates};
        let Some(server) = crate::common::redis::start() else {
            return;
        };
        let redis = Redis::open(&server.url()).unwrap().replicated_writes(1);
        let used = RedisUsedStates::new(redis);
        with_client(config().used_states(used), "alice", async |c| {
            let state = first_round(c, None).await;
            let Err(ServiceError::McpError(error)) = answer(c, None, &state).await else {
                panic!("refused");
            };
            assert_eq!(error.code, ErrorCode::INTERNAL_ERROR);
            assert_eq!(
                error.message,
                "the requestState could not be checked: try again"
            );
            crate::audience::assert_short_and_stable("the MCP error", &error.message);
            assert!(error.data.is_none(), "{error:?}");
        });
    }

    #[test]
    fn a_full_used_state_store_fails_closed() {
        let used = elicit_core::mcp::MemoryUsedStates::with_capacity(1);
        with_client(config().used_states(used), "alice", async |c| {
            let state = first_round(c, None).await;
            assert_deployed(answer(c, None, &state).await);
            let state = first_round(c, None).await;
            let Err(ServiceError::McpError(error)) = answer(c, None, &state).await else {
                panic!("refused");
            };
            assert_eq!(error.code, ErrorCode::INTERNAL_ERROR);
            assert!(error.message.contains("could not be checked"), "{error:?}");
        });
    }
}

/// Feature `oauth`: `elicit_oauth` on rmcp against the real OpenID provider
/// (`common::oidc`), the user signing in and consenting in headless
/// Chromium once the client consented: a token the provider accepts, and
/// `notifications/elicitation/complete` for the start page's id.
#[test]
fn elicit_oauth_returns_a_token_of_the_real_provider_and_notifies_completion() {
    use crate::common::oidc;
    use elicit_core::sensitive::oauth::OAuthOutcome;
    use elicit_core::sensitive::{ExposeSecret, Pages};

    let Some(installed) = oidc::installed() else {
        return;
    };
    let (provider, oauth) = oidc::start_for_pages(&installed, "elicit");
    let issuer = provider.endpoints.issuer.clone();
    let (client, mut notified) =
        ScriptedClient::with(url_mode(), vec![json!({"action": "accept"})]);
    // The user: opens the start page the client was sent, signs in and
    // consents at the provider.
    let seen_by_browser = client.clone();
    let browser = std::thread::spawn(move || {
        let Some(browser) = crate::browser::Browser::start() else {
            return false;
        };
        let url = loop {
            if let Some(ElicitRequestParams::UrlElicitationParams { url, .. }) =
                seen_by_browser.seen().first()
            {
                break url.clone();
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        };
        browser.goto(&url);
        oidc::sign_in_and_consent(&browser, "bob");
        true
    });
    let pages = Pages::loopback().build();
    let ((outcome, completed), seen) = runtime().block_on(with_peer(client, async |peer| {
        let outcome = elicitor(peer)
            .elicit_oauth("Sign in to the test provider.", &pages, &oauth)
            .await
            .unwrap();
        (outcome, notified.recv().await.unwrap())
    }));
    if !browser.join().expect("the browser's thread") {
        return; // no browser here, and not required
    }
    let OAuthOutcome::Authorized(token) = outcome else {
        panic!("authorized: {outcome:?}");
    };
    let [
        ElicitRequestParams::UrlElicitationParams {
            url,
            elicitation_id,
            ..
        },
    ] = &seen[..]
    else {
        panic!("one URL request: {seen:?}");
    };
    // The client saw the agent's own start page, never the provider.
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    assert!(!url.contains(&issuer), "{url}");
    assert!(url.ends_with(&format!("/elicit/{elicitation_id}")), "{url}");
    assert!(!format!("{seen:?}").contains(token.access_token().expose_secret()));
    assert_eq!(
        completed.params,
        Some(json!({"elicitationId": elicitation_id}))
    );
    let userinfo = oidc::userinfo(&provider.endpoints, token.access_token().expose_secret());
    assert_eq!(userinfo.status, 200, "{}", userinfo.body);
    assert!(
        userinfo.body.contains(r#""sub":"bob""#),
        "{}",
        userinfo.body
    );
}

/// `elicit_oauth` opens nothing for a client without URL mode, and a
/// decline ends the flow: its start page is gone.
#[test]
fn elicit_oauth_without_url_mode_opens_nothing_and_a_decline_ends_the_flow() {
    use elicit_core::sensitive::Pages;
    use elicit_core::sensitive::oauth::{OAuthOutcome, Provider};

    let oauth = Provider::new(
        "https://provider.example/authorize",
        "https://provider.example/token",
        "elicit",
    )
    .expect("https endpoints");
    let pages = Pages::loopback().build();
    let (client, _) = ScriptedClient::with(form_mode(), vec![json!({"action": "accept"})]);
    let (refused, seen) = runtime().block_on(with_peer(client, async |peer| {
        elicitor(peer).elicit_oauth("m", &pages, &oauth).await
    }));
    assert_needs_url_mode(&refused, &seen, &pages);

    let (client, _) = ScriptedClient::with(url_mode(), vec![json!({"action": "decline"})]);
    let (declined, seen) = runtime().block_on(with_peer(client, async |peer| {
        elicitor(peer).elicit_oauth("m", &pages, &oauth).await
    }));
    assert!(
        matches!(declined, Ok(OAuthOutcome::Declined)),
        "{declined:?}"
    );
    let visit = open_the_one_url(&seen);
    assert!(
        matches!(visit.status, 404 | 410),
        "{}: {}",
        visit.status,
        visit.body
    );
}

// ---------------------------------------------------------------------------
// examples/rmcp_server.rs: the README's MCP tool, in a whole server

/// The README's MCP tool is the code of examples/rmcp_server.rs (which
/// carries the comments too), but for what the example adds between its
/// `README skips` lines (the tasks, the prompt and the resource).
#[test]
fn the_readme_tool_is_the_example_servers() {
    use crate::common::readme::code_lines;
    let mut rest = snippet(include_str!("../../examples/rmcp_server.rs"));
    let mut shown = Vec::new();
    while let Some((before, skipped)) = rest.split_once("// README skips start") {
        shown.extend(code_lines(before));
        rest = skipped
            .split_once("// README skips end")
            .expect("each skipped region ends")
            .1;
    }
    shown.extend(code_lines(rest));
    assert_eq!(lines(readme_block("## An MCP tool on rmcp")), shown);
}

/// Calls `deploy` on a running server: its text, and the forms asked.
async fn deploy_on(
    running: ::rmcp::service::RunningService<RoleClient, ScriptedClient>,
    client: &ScriptedClient,
) -> (String, Vec<ElicitRequestParams>) {
    let tools = running.peer().list_tools(None).await.unwrap();
    assert_eq!(tools.tools[0].name, "deploy");
    let result = running
        .call_tool(CallToolRequestParams::new("deploy"))
        .await
        .unwrap();
    running.cancel().await.unwrap();
    let text = result.content[0].as_text().unwrap().text.clone();
    (text, client.seen())
}

/// The whole server, as built: over stdio (a child process) and over
/// Streamable HTTP (`--http`), at MCP 2025-11-25 and 2026-07-28, an invalid
/// answer asked again and the valid one read back.
#[test]
fn the_example_server_serves_stdio_and_streamable_http_at_both_versions() {
    use ::rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};

    let binary = crate::common::examples::built(&[
        "--workspace",
        "--all-features",
        "--example",
        "rmcp_server",
    ])
    .join("rmcp_server");
    let (http, url) = crate::common::examples::listening_at(&binary, &["--http", "127.0.0.1:0"]);
    let answers = || {
        vec![
            json!({"action": "accept", "content": {"replicas": 40}}),
            json!({"action": "accept", "content": {"replicas": 3}}),
        ]
    };
    let mut results = Vec::new();
    for version in VERSIONS {
        for over in ["stdio", "http"] {
            let client = ScriptedClient::new(true, answers());
            let (text, seen) = runtime().block_on(async {
                let running = if over == "stdio" {
                    let child = TokioChildProcess::new(tokio::process::Command::new(&binary));
                    connect_at(&client, child.unwrap(), version).await
                } else {
                    let transport = StreamableHttpClientTransport::from_uri(url.as_str());
                    connect_at(&client, transport, version).await
                };
                deploy_on(running, &client).await
            });
            let messages: Vec<String> = seen.iter().map(|s| form_message(s).to_owned()).collect();
            results.push((version, over, text, messages));
        }
    }
    drop(http);
    for (version, over, text, messages) in results {
        let at = format!("{version:?} over {over}");
        assert_eq!(text, "Deploying 3 replicas.", "{at}");
        assert_eq!(messages.len(), 2, "{at}: {messages:?}");
        assert_eq!(messages[0], "Replicas?", "{at}");
        assert!(
            messages[1].contains("`replicas` must be at most 16, got 40"),
            "{at}: {}",
            messages[1]
        );
    }
}
