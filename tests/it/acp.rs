//! Feature `acp`: conversions between elicit's wire model and the official
//! ACP Rust types (`agent-client-protocol-schema` v1), and typed outcomes
//! straight from the SDK's `CreateElicitationResponse`.
//!
//! elicit-core's `acp` feature is enabled for this package by its
//! dev-dependency on elicit-core (see the root Cargo.toml), so these tests
//! always run.

use std::collections::BTreeSet;

use crate::common::readme::{docs_block, lines, snippet};
use crate::common::*;
use agent_client_protocol_schema::v1 as sdk;
use elicit_core::format::Format;
use elicit_core::protocol::agent::Outcome;
use elicit_core::protocol::agent::{AgentConnection, UrlOutcome, UrlRequest};
use elicit_core::protocol::client::{ClientConnection, Incoming};
use elicit_core::protocol::{
    CompleteElicitationNotification, CreateElicitationRequest, CreateElicitationResponse,
    ElicitationCapabilities, ElicitationScope, Mode, RequestId,
};
use elicit_core::{
    Content, Elicit, ElicitationSchema, EnumOption, Items, MultiSelectSchema, Options,
    PropertySchema, StringSchema,
};
use elicit_core::{ConversionErrorKind, OutcomeError};
use serde_json::{Value, json};

// ---------------------------------------------------------------------------
// Schemas

fn has_other(schema: &sdk::ElicitationSchema) -> Vec<String> {
    schema
        .properties
        .iter()
        .filter(|(_, p)| match p {
            sdk::ElicitationPropertySchema::Other(_) => true,
            sdk::ElicitationPropertySchema::Array(a) => {
                matches!(a.items, sdk::MultiSelectItems::Other(_))
            }
            _ => false,
        })
        .map(|(n, _)| n.clone())
        .collect()
}

/// `schema` with its properties sorted by name: what comes back from the SDK.
fn alphabetical(schema: &ElicitationSchema) -> ElicitationSchema {
    let mut entries = schema.properties.clone().into_entries();
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    let mut sorted = schema.clone();
    sorted.properties = Default::default();
    for (name, property) in entries {
        sorted.properties.insert(name, property);
    }
    sorted
}

fn names(schema: &ElicitationSchema) -> Vec<&str> {
    schema.properties.names().collect()
}

#[test]
fn every_derived_type_converts_to_the_sdk_without_other_variants() {
    for (name, ours) in derived_schemas() {
        let theirs =
            sdk::ElicitationSchema::try_from(&ours).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(has_other(&theirs), Vec::<String>::new(), "{name}");
        assert_eq!(theirs.properties.len(), ours.properties.len(), "{name}");
        // The SDK's type writes the same wire JSON as ours (compared as
        // objects: the SDK's map is alphabetical, ours in declaration order).
        assert_eq!(
            serde_json::to_value(&theirs).unwrap(),
            serde_json::to_value(&ours).unwrap(),
            "{name}"
        );
    }
}

#[test]
fn every_derived_type_comes_back_unchanged_except_property_order() {
    let mut reordered = 0;
    for (name, ours) in derived_schemas() {
        let theirs = sdk::ElicitationSchema::try_from(&ours).unwrap();
        let back = ElicitationSchema::try_from(&theirs).unwrap_or_else(|e| panic!("{name}: {e}"));

        // Compared as maps: every property, and everything else, is unchanged.
        assert_eq!(back.title, ours.title, "{name}");
        assert_eq!(back.description, ours.description, "{name}");
        assert_eq!(back.required, ours.required, "{name}");
        assert_eq!(back.meta, ours.meta, "{name}");
        let as_map = |s: &ElicitationSchema| {
            s.properties
                .iter()
                .map(|(n, p)| (n.to_owned(), p.clone()))
                .collect::<Vec<_>>()
        };
        let mut expected = as_map(&ours);
        expected.sort_by(|a, b| a.0.cmp(&b.0));
        assert_eq!(as_map(&back), expected, "{name}");

        // The documented order difference: the SDK keeps properties in a
        // BTreeMap, so they come back alphabetically.
        let mut sorted = names(&ours);
        sorted.sort_unstable();
        assert_eq!(names(&back), sorted, "{name}: alphabetical after the SDK");
        assert_eq!(back, alphabetical(&ours), "{name}");
        if names(&ours) != sorted {
            reordered += 1;
            assert_ne!(
                back, ours,
                "{name}: declaration order is lost, as documented"
            );
        }
        // The alphabetical schema is a fixed point.
        let again =
            ElicitationSchema::try_from(sdk::ElicitationSchema::try_from(&back).unwrap()).unwrap();
        assert_eq!(again, back, "{name}");
    }
    // The test types do exercise the reordering.
    assert!(reordered >= 5, "only {reordered} types were reordered");
}

#[test]
fn the_sdk_parses_what_elicit_sends_into_the_same_value() {
    for (name, ours) in derived_schemas() {
        let converted = sdk::ElicitationSchema::try_from(&ours).unwrap();
        let parsed: sdk::ElicitationSchema =
            serde_json::from_str(&serde_json::to_string(&ours).unwrap()).unwrap();
        assert_eq!(parsed, converted, "{name}");
    }
}

/// A schema with every field of every property kind set, `_meta` included.
fn every_field() -> ElicitationSchema {
    let meta = |k: &str| {
        let mut m = serde_json::Map::new();
        m.insert(k.to_owned(), json!(true));
        m
    };
    let mut text = StringSchema::new()
        .title("Text")
        .description("Free text.")
        .length(Some(1), Some(9))
        .pattern("^[a-z]+$")
        .format(Format::Email)
        .default_value("a@b.example");
    text.meta = Some(meta("text"));
    let mut titled_option = EnumOption::new("b", "Bee");
    titled_option.description = Some("The second.".into());
    titled_option.meta = Some(meta("option"));
    let titled = StringSchema::select(Options::Titled(vec![
        EnumOption::new("a", "Ay"),
        titled_option.clone(),
    ]))
    .title("Titled")
    .default_value("b");
    let untitled = StringSchema::select(Options::Untitled(vec!["x".into(), "y".into()]))
        .description("Untitled.")
        .default_value("x");
    let mut multi_untitled =
        MultiSelectSchema::new(Options::Untitled(vec!["p".into(), "q".into()]));
    multi_untitled.title = Some("Many".into());
    multi_untitled.min_items = Some(1);
    multi_untitled.max_items = Some(2);
    multi_untitled.default = Some(vec!["p".into()]);
    multi_untitled.meta = Some(meta("many"));
    let mut multi_titled = MultiSelectSchema::new(Options::Titled(vec![
        titled_option,
        EnumOption::new("c", "Sea"),
    ]));
    multi_titled.description = Some("Titled many.".into());
    let schema = serde_json::from_value::<ElicitationSchema>(json!({
        "type": "object",
        "properties": {
            "n": {"type": "number", "title": "N", "description": "A number.", "minimum": -1.5,
                  "maximum": 2.25, "default": 0.5, "_meta": {"n": 1}},
            "i": {"type": "integer", "title": "I", "description": "An integer.",
                  "minimum": i64::MIN, "maximum": i64::MAX, "default": -3, "_meta": {"i": 1}},
            "b": {"type": "boolean", "title": "B", "description": "A flag.", "default": true,
                  "_meta": {"b": 1}}
        }
    }))
    .unwrap();
    let mut schema = schema
        .title("Every field")
        .description("All of them.")
        .property("text", text, true)
        .property("titled", titled, false)
        .property("untitled", untitled, true)
        .property("many", multi_untitled, false)
        .property("titled_many", multi_titled, false);
    schema.meta = Some(meta("form"));
    schema
}

#[test]
fn every_field_of_every_property_kind_round_trips() {
    let ours = every_field();
    let theirs = sdk::ElicitationSchema::try_from(&ours).unwrap();
    assert_eq!(has_other(&theirs), Vec::<String>::new());
    assert_eq!(
        serde_json::to_value(&theirs).unwrap(),
        serde_json::to_value(&ours).unwrap()
    );
    let sdk::ElicitationPropertySchema::String(text) = &theirs.properties["text"] else {
        panic!("text is a string");
    };
    assert_eq!(text.pattern.as_deref(), Some("^[a-z]+$"));
    assert_eq!(text.format, Some(sdk::StringFormat::Email));
    let sdk::ElicitationPropertySchema::String(titled) = &theirs.properties["titled"] else {
        panic!("titled is a string");
    };
    let one_of = titled.one_of.as_ref().unwrap();
    assert_eq!(one_of[1].description.as_deref(), Some("The second."));
    assert!(one_of[1].meta.is_some());
    let sdk::ElicitationPropertySchema::Array(many) = &theirs.properties["titled_many"] else {
        panic!("titled_many is a multi-select");
    };
    assert!(matches!(many.items, sdk::MultiSelectItems::Titled(_)));
    let sdk::ElicitationPropertySchema::Integer(i) = &theirs.properties["i"] else {
        panic!("i is an integer");
    };
    assert_eq!((i.minimum, i.maximum), (Some(i64::MIN), Some(i64::MAX)));

    let back = ElicitationSchema::try_from(theirs).unwrap();
    assert_eq!(back, alphabetical(&ours));
}

#[test]
fn each_property_kind_converts_on_its_own() {
    for (name, property) in &every_field().properties {
        let theirs = sdk::ElicitationPropertySchema::try_from(property).unwrap();
        assert_eq!(
            serde_json::to_value(&theirs).unwrap(),
            serde_json::to_value(property).unwrap(),
            "{name}"
        );
        assert_eq!(
            &PropertySchema::try_from(theirs).unwrap(),
            property,
            "{name}"
        );
    }
    // Formats: the four known ones both ways.
    for (ours, theirs) in [
        (Format::Email, sdk::StringFormat::Email),
        (Format::Uri, sdk::StringFormat::Uri),
        (Format::Date, sdk::StringFormat::Date),
        (Format::DateTime, sdk::StringFormat::DateTime),
    ] {
        assert_eq!(sdk::StringFormat::try_from(&ours).unwrap(), theirs);
        assert_eq!(Format::from(theirs), ours);
    }
}

#[test]
fn unknown_kinds_are_kept_as_other_both_ways() {
    let ours: ElicitationSchema = serde_json::from_value(json!({
        "type": "object",
        "properties": {
            "where": {"type": "_location", "title": "Where", "precision": "city"},
            "tokens": {"type": "array", "items": {"type": "_token", "scope": "repo"}},
            "name": {"type": "string"}
        }
    }))
    .unwrap();
    let theirs = sdk::ElicitationSchema::try_from(&ours).unwrap();
    let sdk::ElicitationPropertySchema::Other(other) = &theirs.properties["where"] else {
        panic!("an unknown type is the SDK's Other");
    };
    assert_eq!(other.type_, "_location");
    assert_eq!(other.fields["precision"], json!("city"));
    assert!(!other.fields.contains_key("type"));
    let sdk::ElicitationPropertySchema::Array(tokens) = &theirs.properties["tokens"] else {
        panic!("an array is the SDK's Array");
    };
    let sdk::MultiSelectItems::Other(items) = &tokens.items else {
        panic!("unknown items are the SDK's Other");
    };
    assert_eq!(items.type_, "_token");
    assert_eq!(
        serde_json::to_value(&theirs).unwrap(),
        serde_json::to_value(&ours).unwrap()
    );

    let back = ElicitationSchema::try_from(&theirs).unwrap();
    assert_eq!(back, alphabetical(&ours));
    let Some(PropertySchema::Other(o)) = back.properties.get("where") else {
        panic!("back to our Other");
    };
    assert_eq!(o.type_, "_location");
    let Some(PropertySchema::MultiSelect(m)) = back.properties.get("tokens") else {
        panic!("back to our multi-select");
    };
    assert!(matches!(&m.items, Items::Other(raw) if raw["type"] == "_token"));

    // The SDK's own parse of the same JSON agrees.
    let parsed: sdk::ElicitationSchema =
        serde_json::from_value(serde_json::to_value(&ours).unwrap()).unwrap();
    assert_eq!(parsed, theirs);
}

#[test]
fn a_custom_format_is_refused_with_a_typed_error() {
    let ours = ElicitationSchema::new()
        .property("ok", StringSchema::new().format(Format::Uri), true)
        .property(
            "phone",
            StringSchema::new().format(Format::Other("phone".into())),
            true,
        );
    let err = sdk::ElicitationSchema::try_from(&ours).unwrap_err();
    assert_eq!(err.property(), Some("phone"));
    assert_eq!(
        err.kind(),
        &ConversionErrorKind::CustomFormat {
            format: "phone".into()
        }
    );
    assert!(
        err.to_string().starts_with("`phone` has format `phone`"),
        "{err}"
    );
    assert!(sdk::StringFormat::try_from(Format::Other("x".into())).is_err());
}

#[derive(Elicit, Debug)]
struct Inner {
    name: String,
}

#[derive(Elicit, Debug)]
struct Outer {
    name: String,
    #[elicit(flatten)]
    inner: Inner,
}

#[test]
fn duplicate_properties_are_refused_not_merged() {
    let err = sdk::ElicitationSchema::try_from(Outer::schema()).unwrap_err();
    assert_eq!(err.property(), Some("name"));
    assert_eq!(err.kind(), &ConversionErrorKind::DuplicateProperty);
}

#[test]
fn sdk_values_elicit_cannot_hold_are_refused() {
    // `enum` and `oneOf` together: allowed by the SDK's type, not by the protocol.
    let both = sdk::StringPropertySchema::new()
        .enum_values(vec!["a".to_owned()])
        .one_of(vec![sdk::EnumOption::new("a", "A")]);
    let schema = sdk::ElicitationSchema::new().property("x", both, true);
    let err = ElicitationSchema::try_from(&schema).unwrap_err();
    assert_eq!(err.property(), Some("x"));
    assert_eq!(err.kind(), &ConversionErrorKind::EnumAndOneOf);
}

// ---------------------------------------------------------------------------
// Capabilities, requests, responses, completion

#[test]
fn capabilities_convert_both_ways() {
    for ours in [
        ElicitationCapabilities::none(),
        ElicitationCapabilities::form_only(),
        ElicitationCapabilities::url_only(),
        ElicitationCapabilities::form_and_url(),
    ] {
        let theirs = sdk::ElicitationCapabilities::try_from(&ours).unwrap();
        assert_eq!(theirs.supports_form(), ours.supports(Mode::Form));
        assert_eq!(theirs.supports_url(), ours.supports(Mode::Url));
        assert_eq!(
            serde_json::to_value(&theirs).unwrap(),
            serde_json::to_value(&ours).unwrap()
        );
        assert_eq!(ElicitationCapabilities::from(theirs), ours);
    }
    let mut with_meta = ElicitationCapabilities::form_only();
    with_meta.meta = Some(serde_json::from_value(json!({"x": 1})).unwrap());
    let theirs = sdk::ElicitationCapabilities::try_from(&with_meta).unwrap();
    assert_eq!(ElicitationCapabilities::from(&theirs), with_meta);

    // Unknown fields elicit kept have no place in the SDK's type.
    let extra: ElicitationCapabilities =
        serde_json::from_value(json!({"form": {"_future": 1}})).unwrap();
    let err = sdk::ElicitationCapabilities::try_from(extra).unwrap_err();
    assert_eq!(
        err.kind(),
        &ConversionErrorKind::UnknownFields {
            object: "elicitation.form",
            fields: vec!["_future".into()]
        }
    );

    // The agent side, straight from the SDK's `initialize` capabilities.
    let client: sdk::ClientCapabilities =
        serde_json::from_value(json!({"elicitation": {"form": {}}})).unwrap();
    let connection = AgentConnection::new(client.elicitation.as_ref().map(Into::into));
    assert!(connection.supports(Mode::Form) && !connection.supports(Mode::Url));
    let none = AgentConnection::new(
        sdk::ClientCapabilities::default()
            .elicitation
            .as_ref()
            .map(Into::into),
    );
    assert!(none.capabilities().is_none());
}

fn requests() -> Vec<CreateElicitationRequest> {
    let mut meta = serde_json::Map::new();
    meta.insert("trace".into(), json!("t1"));
    vec![
        CreateElicitationRequest::form(
            ElicitationScope::session("sess_1"),
            "How should I approach this refactoring?",
            Refactor::schema(),
        ),
        CreateElicitationRequest::form(
            ElicitationScope::tool_call("sess_1", "call_7"),
            "Where to?",
            Deploy::schema(),
        )
        .with_meta(meta),
        CreateElicitationRequest::url(
            ElicitationScope::request(12),
            "Please authorize access to your repositories.",
            "github-oauth-001",
            "https://agent.example.com/connect?elicitationId=github-oauth-001",
        ),
        CreateElicitationRequest::url(
            ElicitationScope::request("init-1"),
            "Sign in.",
            "e2",
            "https://agent.example.com/login",
        ),
        CreateElicitationRequest::url(
            ElicitationScope::request(RequestId::Null),
            "Sign in.",
            "e3",
            "https://agent.example.com/login",
        ),
        serde_json::from_value(json!({
            "sessionId": "s", "mode": "_browser", "target": "login", "message": "m"
        }))
        .unwrap(),
    ]
}

#[test]
fn requests_convert_both_ways() {
    for ours in requests() {
        let theirs = sdk::CreateElicitationRequest::try_from(&ours).unwrap();
        assert_eq!(
            serde_json::to_value(&theirs).unwrap(),
            serde_json::to_value(&ours).unwrap()
        );
        // The SDK's own parse of elicit's JSON is the same value.
        let parsed: sdk::CreateElicitationRequest =
            serde_json::from_value(serde_json::to_value(&ours).unwrap()).unwrap();
        assert_eq!(parsed, theirs);
        let mut back = CreateElicitationRequest::try_from(&theirs).unwrap();
        // The one documented difference: the schema's property order.
        let mut expected = ours.clone();
        if let elicit_core::protocol::ElicitationMode::Form { requested_schema } =
            &mut expected.mode
        {
            *requested_schema = alphabetical(requested_schema);
        }
        assert_eq!(back, expected);
        back = CreateElicitationRequest::try_from(theirs).unwrap();
        assert_eq!(back, expected);
    }
}

#[test]
fn the_client_guard_takes_the_sdks_request() {
    let mut client = ClientConnection::new(Some(
        (&sdk::ElicitationCapabilities::new().form(sdk::ElicitationFormCapabilities::new())).into(),
    ));
    let form = sdk::CreateElicitationRequest::try_from(&requests()[0]).unwrap();
    let Ok(Incoming::Form(form)) =
        client.receive(CreateElicitationRequest::try_from(&form).unwrap())
    else {
        panic!("a form request passes the guard");
    };
    assert_eq!(form.message(), "How should I approach this refactoring?");
    // URL mode was not advertised: -32602.
    let url = sdk::CreateElicitationRequest::try_from(&requests()[2]).unwrap();
    let error = client
        .receive(CreateElicitationRequest::try_from(&url).unwrap())
        .unwrap_err();
    assert_eq!(error.code, -32602);
    // The client's answer, to the SDK for sending.
    let answer = form
        .accept(serde_json::from_value(json!({"strategy": "balanced"})).unwrap())
        .unwrap();
    let theirs = sdk::CreateElicitationResponse::try_from(&answer).unwrap();
    assert_eq!(
        serde_json::to_value(&theirs).unwrap(),
        json!({"action": "accept", "content": {"strategy": "balanced"}})
    );
}

fn content(value: Value) -> Content {
    serde_json::from_value(value).unwrap()
}

#[test]
fn responses_convert_both_ways() {
    let mut meta = serde_json::Map::new();
    meta.insert("m".into(), json!(1));
    let responses = vec![
        CreateElicitationResponse::accept(Some(content(json!({
            "s": "text", "i": -7, "big": i64::MAX, "x": 2.5, "b": false, "many": ["a", "b"], "none": []
        })))),
        CreateElicitationResponse::accept(None),
        CreateElicitationResponse::accept(Some(Content::new())),
        CreateElicitationResponse::decline(),
        CreateElicitationResponse::cancel().with_meta(meta),
        serde_json::from_value(json!({"action": "_defer", "retryAfterMs": 1000})).unwrap(),
    ];
    for ours in responses {
        let theirs = sdk::CreateElicitationResponse::try_from(&ours).unwrap();
        assert_eq!(
            serde_json::to_value(&theirs).unwrap(),
            serde_json::to_value(&ours).unwrap()
        );
        let parsed: sdk::CreateElicitationResponse =
            serde_json::from_value(serde_json::to_value(&ours).unwrap()).unwrap();
        assert_eq!(parsed, theirs);
        assert_eq!(CreateElicitationResponse::try_from(&theirs).unwrap(), ours);
    }
}

#[test]
fn content_the_sdk_cannot_hold_is_refused_and_null_is_left_out() {
    let with_null = CreateElicitationResponse::accept(Some(content(json!({"a": "x", "b": null}))));
    let theirs = sdk::CreateElicitationResponse::try_from(&with_null).unwrap();
    assert_eq!(
        serde_json::to_value(&theirs).unwrap(),
        json!({"action": "accept", "content": {"a": "x"}})
    );
    for (value, kind) in [
        (
            json!({"nested": {"a": 1}}),
            ConversionErrorKind::NotAFormValue {
                found: elicit_core::JsonKind::Object,
            },
        ),
        (
            json!({"nested": ["a", 1]}),
            ConversionErrorKind::NotAFormValue {
                found: elicit_core::JsonKind::Array,
            },
        ),
        (
            json!({"nested": u64::MAX}),
            ConversionErrorKind::IntegerOutOfRange { value: u64::MAX },
        ),
    ] {
        let err = sdk::CreateElicitationResponse::try_from(CreateElicitationResponse::accept(
            Some(content(value)),
        ))
        .unwrap_err();
        assert_eq!(err.property(), Some("nested"));
        assert_eq!(err.kind(), &kind);
    }
    // A non-finite number can only be built in memory, never parsed.
    let nan = sdk::CreateElicitationResponse::new(sdk::ElicitationAction::Accept(
        sdk::ElicitationAcceptAction::new().content(std::collections::BTreeMap::from([(
            "x".to_owned(),
            sdk::ElicitationContentValue::Number(f64::NAN),
        )])),
    ));
    let err = CreateElicitationResponse::try_from(&nan).unwrap_err();
    assert!(matches!(
        err.kind(),
        ConversionErrorKind::NonFiniteNumber { .. }
    ));
}

#[test]
fn completion_notifications_convert_both_ways() {
    let mut ours = CompleteElicitationNotification::new("github-oauth-001");
    for _ in 0..2 {
        let theirs = sdk::CompleteElicitationNotification::from(&ours);
        assert_eq!(
            serde_json::to_value(&theirs).unwrap(),
            serde_json::to_value(&ours).unwrap()
        );
        assert_eq!(CompleteElicitationNotification::from(theirs), ours);
        ours.meta = Some(serde_json::from_value(json!({"k": "v"})).unwrap());
    }
}

// ---------------------------------------------------------------------------
// Outcomes from the SDK's responses

fn sdk_response(value: Value) -> sdk::CreateElicitationResponse {
    serde_json::from_value(value).unwrap()
}

#[test]
fn accept_with_content_is_the_typed_form() {
    let response = sdk_response(json!({"action": "accept", "content": {"strategy": "aggressive"}}));
    assert_eq!(
        Outcome::<Refactor>::try_from(&response).unwrap(),
        Outcome::Accepted(Refactor {
            strategy: Strategy::Aggressive
        })
    );
    let response = sdk_response(json!({"action": "accept", "content": {
        "strategies": ["balanced"], "envs": ["dev", "production"], "any_of": []
    }}));
    let Outcome::Accepted(form) = Outcome::<MultiSelects>::try_from(&response).unwrap() else {
        panic!("accepted");
    };
    assert_eq!(form.strategies, [Strategy::Balanced]);
    assert_eq!(
        form.envs,
        BTreeSet::from([Environment::LocalDev, Environment::Production])
    );
    let response =
        sdk_response(json!({"action": "accept", "content": {"stars": 4, "comment": "ok"}}));
    let Outcome::Accepted(feedback) = Outcome::<Feedback>::try_from(&response).unwrap() else {
        panic!("accepted");
    };
    assert_eq!(
        (feedback.stars, feedback.comment.as_deref()),
        (4, Some("ok"))
    );
}

#[test]
fn accept_without_content_is_an_empty_form() {
    for response in [
        sdk_response(json!({"action": "accept"})),
        sdk_response(json!({"action": "accept", "content": null})),
    ] {
        // All fields optional or defaulted: an empty form is valid.
        let Outcome::Accepted(defaults) = Outcome::<Defaults>::try_from(&response).unwrap() else {
            panic!("accepted");
        };
        assert_eq!(defaults.branch, "main");
        assert_eq!(defaults.strategy, Strategy::Balanced);
        // A required field: the empty form is invalid, and says so.
        let Err(OutcomeError::Invalid(errors)) = Outcome::<Refactor>::try_from(&response) else {
            panic!("missing `strategy` is invalid");
        };
        assert_eq!(errors.fields().collect::<Vec<_>>(), ["strategy"]);
    }
}

#[test]
fn decline_and_cancel_ignore_content() {
    for (action, expected) in [
        ("decline", Outcome::<Refactor>::Declined),
        ("cancel", Outcome::<Refactor>::Cancelled),
    ] {
        for response in [
            sdk_response(json!({"action": action})),
            sdk_response(json!({"action": action, "content": {"strategy": "nope"}})),
        ] {
            assert_eq!(Outcome::<Refactor>::try_from(&response).unwrap(), expected);
        }
    }
    assert_eq!(
        Outcome::<Refactor>::try_from(&sdk::CreateElicitationResponse::new(
            sdk::ElicitationAction::Decline
        ))
        .unwrap(),
        Outcome::Declined
    );
}

#[test]
fn an_unknown_action_is_never_one_of_the_three() {
    let response = sdk_response(json!({"action": "_defer", "retryAfterMs": 1000}));
    assert!(matches!(response.action, sdk::ElicitationAction::Other(_)));
    let Outcome::UnknownAction(other) = Outcome::<Refactor>::try_from(&response).unwrap() else {
        panic!("unknown action");
    };
    assert_eq!(other.action(), "_defer");
    assert_eq!(other.fields()["retryAfterMs"], json!(1000));
}

#[test]
fn invalid_content_is_rejected_with_every_field() {
    let response = sdk_response(json!({"action": "accept", "content": {
        "env": "prod", "replicas": 300
    }}));
    let Err(OutcomeError::Invalid(errors)) = Outcome::<Deploy>::try_from(&response) else {
        panic!("invalid");
    };
    assert_eq!(errors.fields().collect::<Vec<_>>(), ["env", "replicas"]);
}

#[test]
fn the_agent_connection_reads_sdk_responses() {
    let client: sdk::ClientCapabilities =
        serde_json::from_value(json!({"elicitation": {"form": {}, "url": {}}})).unwrap();
    let mut connection = AgentConnection::new(client.elicitation.as_ref().map(Into::into));
    let (request, pending) = connection
        .form::<Refactor>(ElicitationScope::session("s"), "How?")
        .unwrap();
    // What goes out, as the SDK's type.
    let outgoing = sdk::CreateElicitationRequest::try_from(&request).unwrap();
    assert!(matches!(outgoing.mode, sdk::ElicitationMode::Form(_)));
    let answer = sdk_response(json!({"action": "accept", "content": {"strategy": "balanced"}}));
    assert_eq!(
        pending
            .outcome(&CreateElicitationResponse::try_from(&answer).unwrap())
            .unwrap(),
        Outcome::Accepted(Refactor {
            strategy: Strategy::Balanced
        })
    );

    let (request, pending) = connection
        .url(
            ElicitationScope::request(1),
            UrlRequest::new("Sign in.", "https://agent.example.com/login"),
        )
        .unwrap();
    let outgoing = sdk::CreateElicitationRequest::try_from(&request).unwrap();
    let sdk::ElicitationMode::Url(url) = &outgoing.mode else {
        panic!("url mode");
    };
    assert_eq!(url.elicitation_id.0.as_ref(), pending.id().as_str());
    let consent = sdk_response(json!({"action": "accept"}));
    let UrlOutcome::Consented(waiting) = connection
        .url_outcome(
            pending,
            &CreateElicitationResponse::try_from(&consent).unwrap(),
        )
        .unwrap()
    else {
        panic!("consented");
    };
    let done = connection.complete(waiting.id(), None).unwrap();
    let theirs = sdk::CompleteElicitationNotification::from(&done);
    assert_eq!(theirs.elicitation_id.0.as_ref(), waiting.id().as_str());
}

// ---------------------------------------------------------------------------
// The `acp` module docs' snippet ("An agent on the SDK's types"), compiled and run here

#[rustfmt::skip]
#[allow(dead_code)]
mod readme {
// README snippet start
use agent_client_protocol_schema::v1 as acp; // = agent_client_protocol::v1::schema
use elicit_core::protocol::{CreateElicitationResponse, ElicitationScope};
use elicit_core::protocol::agent::AgentConnection;
use elicit_core::Elicit;
use elicit_core::protocol::agent::Outcome;

#[derive(Elicit, Debug)]
#[elicit(rename_all = "lowercase")]
enum Environment { Staging, Production }

/// Deploy the current branch.
#[derive(Elicit, Debug)]
struct Deploy {
    env: Environment,
    #[elicit(range(min = 1, max = 16), default = 2)]
    replicas: u8,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // `initialize`: the SDK's client capabilities decide the modes.
    let client: acp::ClientCapabilities =
        serde_json::from_str(r#"{"elicitation": {"form": {}}}"#)?;
    let connection = AgentConnection::new(client.elicitation.as_ref().map(Into::into));

    // A checked request, as the SDK's type: send it with the SDK.
    let (request, pending) =
        connection.form::<Deploy>(ElicitationScope::session("sess_1"), "Where to?")?;
    let request = acp::CreateElicitationRequest::try_from(&request)?;
    assert!(matches!(request.mode, acp::ElicitationMode::Form(_)));

    // The SDK's response, validated again and typed.
    let response: acp::CreateElicitationResponse =
        serde_json::from_str(r#"{"action": "accept", "content": {"env": "staging"}}"#)?;
    match pending.outcome(&CreateElicitationResponse::try_from(&response)?)? {
        Outcome::Accepted(deploy) => println!("deploying {} replicas", deploy.replicas),
        Outcome::Declined | Outcome::Cancelled => println!("not deploying"),
        Outcome::UnknownAction(_) => println!("unknown answer: not deploying"),
    }
    Ok(())
}
// README snippet end

#[test]
fn the_docs_snippet_runs() {
    main().unwrap();
}
}

#[test]
fn the_docs_snippet_is_this_code() {
    let docs = docs_block(
        include_str!("../../elicit-core/src/acp/mod.rs"),
        "# An agent on the SDK's types",
    );
    assert_eq!(lines(snippet(include_str!("acp.rs"))), lines(&docs));
}
