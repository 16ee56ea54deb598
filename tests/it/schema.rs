//! Derived schemas: each matches a hand-written expected JSON, validates
//! against the official ACP JSON schema for `ElicitationSchema` (generated
//! here from `agent-client-protocol-schema` with its `schemars` feature),
//! parses with that crate's own Rust type, passes our own `check()`, and
//! keeps declaration order.

use std::sync::OnceLock;

use crate::common::official::Official;
use crate::common::*;
use agent_client_protocol_schema::v1 as acp;
use elicit_core::{Elicit, ElicitationSchema};
use serde_json::{Value, json};

/// The official JSON schema of `ElicitationSchema`, compiled once.
fn official() -> &'static Official {
    static VALIDATOR: OnceLock<Official> = OnceLock::new();
    VALIDATOR.get_or_init(|| {
        let schema = serde_json::to_value(schemars::schema_for!(acp::ElicitationSchema))
            .expect("the official schema serializes");
        Official::new(schema)
    })
}

/// Every check of a derived schema; `expected` is the exact wire JSON.
fn assert_schema<T: Elicit>(expected: Value) {
    let schema = T::schema();
    let wire = serde_json::to_value(&schema).unwrap();
    assert_eq!(wire, expected, "{}", std::any::type_name::<T>());

    let errors = official().errors(&wire);
    assert!(
        errors.is_empty(),
        "{}: {errors:#?}",
        std::any::type_name::<T>()
    );

    let sdk: acp::ElicitationSchema = serde_json::from_value(wire.clone()).unwrap_or_else(|e| {
        panic!(
            "{}: the SDK type refuses it: {e}",
            std::any::type_name::<T>()
        )
    });
    assert!(
        !sdk.properties
            .values()
            .any(|p| matches!(p, acp::ElicitationPropertySchema::Other(_))),
        "{}: the SDK read a property as unknown",
        std::any::type_name::<T>()
    );

    schema
        .check()
        .unwrap_or_else(|e| panic!("{}: {e}", std::any::type_name::<T>()));

    // The serialized text lists properties in declaration order, and reading
    // it back gives the same schema.
    let text = serde_json::to_string(&schema).unwrap();
    let names: Vec<&str> = schema.properties.names().collect();
    let mut positions = names.iter().map(|n| {
        text.find(&format!("\"{n}\":{{\"type\""))
            .expect("property in text")
    });
    let mut last = 0;
    for p in positions.by_ref() {
        assert!(
            p > last,
            "{}: order {names:?} not kept",
            std::any::type_name::<T>()
        );
        last = p;
    }
    let back: ElicitationSchema = serde_json::from_str(&text).unwrap();
    assert_eq!(back, schema);

    // The JSON built once is the same text, every time.
    assert_eq!(T::schema_json(), text, "{}", std::any::type_name::<T>());
    assert_eq!(T::schema_json(), text, "{}", std::any::type_name::<T>());
}

fn strategy_enum() -> Value {
    json!(["conservative", "balanced", "aggressive"])
}

fn environment_options() -> Value {
    json!([
        {"const": "staging", "title": "Staging", "description": "Safe to break."},
        {"const": "production", "title": "Production", "description": "Real users: be careful."},
        {"const": "dev", "title": "Local development"}
    ])
}

#[test]
fn refactor_is_the_spec_example() {
    assert_schema::<Refactor>(json!({
        "type": "object",
        "properties": {
            "strategy": {"type": "string", "enum": ["conservative", "balanced", "aggressive"]}
        },
        "required": ["strategy"]
    }));
}

#[test]
fn deploy() {
    assert_schema::<Deploy>(json!({
        "type": "object",
        "title": "Deploy",
        "description": "Deploy the current branch.",
        "properties": {
            "env": {
                "type": "string",
                "description": "Which environment to deploy to.",
                "oneOf": environment_options()
            },
            "replicas": {"type": "integer", "minimum": 1, "maximum": 16, "default": 2},
            "notify": {"type": "boolean"}
        },
        "required": ["env"]
    }));
}

#[test]
fn profile_strings() {
    assert_schema::<Profile>(json!({
        "type": "object",
        "properties": {
            "name": {"type": "string", "title": "Display name", "minLength": 2, "maxLength": 20},
            "handle": {"type": "string", "maxLength": 16, "pattern": "^[a-z][a-z0-9_]*$"},
            "email": {"type": "string", "format": "email"},
            "homepage": {"type": "string", "format": "uri"},
            "birthday": {"type": "string", "format": "date"},
            "callback_at": {
                "type": "string",
                "description": "When to call you back (RFC 3339).",
                "format": "date-time"
            }
        },
        "required": ["name", "handle", "email"]
    }));
}

#[test]
fn integers_carry_their_type_range() {
    let i64_range = json!({"type": "integer", "minimum": i64::MIN, "maximum": i64::MAX});
    assert_schema::<Integers>(json!({
        "type": "object",
        "properties": {
            "a_i8": {"type": "integer", "minimum": -128, "maximum": 127},
            "a_i16": {"type": "integer", "minimum": -32768, "maximum": 32767},
            "a_i32": {"type": "integer", "minimum": -5, "maximum": 5},
            "a_i64": i64_range,
            "a_u8": {"type": "integer", "minimum": 0, "maximum": 255},
            "a_u16": {"type": "integer", "minimum": 0, "maximum": 1000},
            "a_u32": {"type": "integer", "minimum": 0, "maximum": 4294967295u32},
            "a_u64": {"type": "integer", "minimum": 0, "maximum": i64::MAX},
            "a_isize": i64_range,
            "a_usize": {"type": "integer", "minimum": 1, "maximum": i64::MAX}
        },
        "required": ["a_i8", "a_i16", "a_i32", "a_i64", "a_u8", "a_u16", "a_u32", "a_u64",
                     "a_isize", "a_usize"]
    }));
}

#[test]
fn numbers() {
    assert_schema::<Numbers>(json!({
        "type": "object",
        "properties": {
            "ratio": {"type": "number", "minimum": 0.0, "maximum": 1.0, "default": 0.5},
            "temperature": {"type": "number", "minimum": -273.15},
            "percent": {"type": "number", "minimum": 0.0, "maximum": 100.0}
        },
        "required": ["temperature", "percent"]
    }));
}

#[test]
fn optionals_are_not_required() {
    assert_schema::<Optionals>(json!({
        "type": "object",
        "properties": {
            "text": {"type": "string"},
            "flag": {"type": "boolean"},
            "count": {"type": "integer", "minimum": 0, "maximum": 4294967295u32},
            "amount": {"type": "number"},
            "strategy": {"type": "string", "enum": strategy_enum()},
            "envs": {"type": "array", "items": {"anyOf": environment_options()}}
        }
    }));
}

#[test]
fn multi_selects() {
    assert_schema::<MultiSelects>(json!({
        "type": "object",
        "properties": {
            "strategies": {
                "type": "array", "minItems": 1, "maxItems": 2,
                "items": {"type": "string", "enum": strategy_enum()}
            },
            "envs": {
                "type": "array", "title": "Environments",
                "items": {"anyOf": environment_options()},
                "default": ["staging"]
            },
            "any_of": {"type": "array", "items": {"type": "string", "enum": strategy_enum()}}
        },
        "required": ["strategies", "any_of"]
    }));
}

#[test]
fn renames() {
    assert_schema::<Renamed>(json!({
        "type": "object",
        "properties": {
            "firstName": {"type": "string"},
            "surname": {"type": "string"},
            "yearsOfAge": {"type": "integer", "minimum": 0, "maximum": 255}
        },
        "required": ["firstName", "surname", "yearsOfAge"]
    }));
    assert_schema::<SerdeRenamed>(json!({
        "type": "object",
        "properties": {
            "MAX_RETRIES": {"type": "integer", "minimum": 0, "maximum": 255},
            "dryRun": {"type": "boolean"}
        },
        "required": ["MAX_RETRIES", "dryRun"]
    }));
}

#[test]
fn serde_and_elicit_agree_on_wire_names() {
    // The same content is read by serde and by the derive.
    let content = json!({"firstName": "Ada", "surname": "Lovelace", "yearsOfAge": 36});
    let by_serde: Renamed = serde_json::from_value(content.clone()).unwrap();
    let by_elicit = Renamed::from_content(content.as_object().unwrap()).unwrap();
    assert_eq!(by_serde, by_elicit);
    let content = json!({"MAX_RETRIES": 3, "DRY_RUN": true, "dryRun": false});
    let by_serde: SerdeRenamed = serde_json::from_value(content.clone()).unwrap();
    assert!(by_serde.dry_run, "serde reads `DRY_RUN` (its own rule)");
    assert_eq!(by_serde.max_retries, 3);
    let by_elicit = SerdeRenamed::from_content(content.as_object().unwrap()).unwrap();
    assert!(!by_elicit.dry_run, "elicit's rename wins for the form");
}

#[test]
fn skip_and_container_attributes() {
    assert_schema::<Feedback>(json!({
        "type": "object",
        "title": "Feedback",
        "description": "Tell us how it went.",
        "properties": {
            "stars": {"type": "integer", "minimum": 1, "maximum": 5},
            "comment": {"type": "string"}
        },
        "required": ["stars"]
    }));
}

#[test]
fn defaults() {
    assert_schema::<Defaults>(json!({
        "type": "object",
        "properties": {
            "branch": {"type": "string", "default": "main"},
            "force": {"type": "boolean", "default": true},
            "strategy": {"type": "string", "default": "balanced", "enum": strategy_enum()},
            "offset": {"type": "integer", "minimum": i64::MIN, "maximum": i64::MAX, "default": -1},
            "retries": {"type": "integer", "minimum": 0, "maximum": 255, "default": 3}
        }
    }));
}

#[test]
fn reexported_crate_and_doc_comments() {
    assert_schema::<Reexported>(json!({
        "type": "object",
        "description": "A re-exported form.\n\nThe second paragraph is kept.",
        "properties": {
            "question": {"type": "string", "description": "A plain question over two lines."},
            "answer": {"type": "boolean", "description": "The attribute wins."}
        },
        "required": ["question", "answer"]
    }));
}

#[test]
fn generic_form() {
    assert_schema::<Pick<Strategy>>(json!({
        "type": "object",
        "properties": {
            "choice": {"type": "string", "enum": strategy_enum()},
            "more": {"type": "array", "items": {"type": "string", "enum": strategy_enum()}}
        },
        "required": ["choice", "more"]
    }));
    assert_schema::<Pick<Environment>>(json!({
        "type": "object",
        "properties": {
            "choice": {"type": "string", "oneOf": environment_options()},
            "more": {"type": "array", "items": {"anyOf": environment_options()}}
        },
        "required": ["choice", "more"]
    }));
}

#[test]
fn field_order_is_declaration_order() {
    // Reverse-alphabetical names: a sorted map would invert them.
    #[derive(Elicit)]
    struct Ordered {
        zulu: bool,
        yankee: String,
        xray: u8,
        alpha: Option<String>,
    }
    let text = serde_json::to_string(&Ordered::schema()).unwrap();
    let at = |name: &str| text.find(&format!("\"{name}\"")).unwrap();
    assert!(at("zulu") < at("yankee"));
    assert!(at("yankee") < at("xray"));
    assert!(at("xray") < at("alpha"));
    assert_eq!(
        text,
        r#"{"type":"object","properties":{"zulu":{"type":"boolean"},"yankee":{"type":"string"},"xray":{"type":"integer","minimum":0,"maximum":255},"alpha":{"type":"string"}},"required":["zulu","yankee","xray"]}"#
    );
}

#[test]
fn custom_format_is_kept_as_an_annotation() {
    // Not part of the official-schema list: the official Rust types model
    // `format` as a closed enum and refuse any other value.
    #[derive(Elicit)]
    struct Host {
        #[elicit(format = "hostname")]
        host: String,
    }
    let wire = serde_json::to_value(Host::schema()).unwrap();
    assert_eq!(
        wire["properties"]["host"],
        json!({"type": "string", "format": "hostname"})
    );
    assert!(serde_json::from_value::<acp::ElicitationSchema>(wire).is_err());
    let content = json!({"host": "anything at all"});
    assert!(Host::from_content(content.as_object().unwrap()).is_ok());
}

#[test]
fn std_typed_fields() {
    assert_schema::<StdTyped>(json!({
        "type": "object",
        "properties": {
            "workers": {"type": "integer", "minimum": 1, "maximum": 255},
            "threads": {"type": "integer", "minimum": 1, "maximum": 64},
            "step": {"type": "integer", "minimum": 1, "maximum": 10},
            "back": {"type": "integer", "minimum": i64::MIN, "maximum": -1},
            "initial": {"type": "string", "minLength": 1, "maxLength": 1},
            "answer": {"type": "string", "minLength": 1, "maxLength": 1, "default": "y"},
            "port": {"type": "integer", "minimum": 1024, "maximum": 65535},
            "fallback": {"type": "integer", "title": "Fallback port", "minimum": 1024, "maximum": 65535},
            "contact": {
                "type": "string", "title": "E-mail", "description": "Where to write.", "format": "email"
            },
            "escalation": {
                "type": "string", "title": "E-mail", "description": "Where to write.",
                "format": "email", "default": "ops@example.com"
            },
            "handle": {"type": "string"}
        },
        "required": ["workers", "step", "back", "initial", "port", "contact", "handle"]
    }));
}

#[cfg(feature = "chrono")]
#[test]
fn chrono_fields() {
    assert_schema::<ChronoTyped>(json!({
        "type": "object",
        "properties": {
            "day": {"type": "string", "format": "date"},
            "start": {"type": "string", "format": "date", "default": "2026-01-01"},
            "at": {"type": "string", "format": "date-time"},
            "local": {"type": "string", "format": "date-time"},
            "meeting": {"type": "string", "format": "date-time", "default": "2026-01-01T09:00:00+01:00"}
        },
        "required": ["day", "at"]
    }));
}

#[cfg(feature = "time")]
#[test]
fn time_fields() {
    assert_schema::<TimeTyped>(json!({
        "type": "object",
        "properties": {
            "day": {"type": "string", "format": "date"},
            "start": {"type": "string", "format": "date", "default": "2026-01-01"},
            "at": {"type": "string", "format": "date-time"},
            "until": {"type": "string", "format": "date-time"},
            "meeting": {"type": "string", "format": "date-time", "default": "2026-01-01T09:00:00Z"}
        },
        "required": ["day", "at"]
    }));
}

#[cfg(feature = "jiff")]
#[test]
fn jiff_fields() {
    assert_schema::<JiffTyped>(json!({
        "type": "object",
        "properties": {
            "day": {"type": "string", "format": "date"},
            "start": {"type": "string", "format": "date", "default": "2026-01-01"},
            "at": {"type": "string", "format": "date-time"},
            "meeting": {"type": "string", "format": "date-time", "default": "2026-01-01T09:00:00Z"},
            "end": {"type": "string", "format": "date"}
        },
        "required": ["day", "at"]
    }));
}

#[cfg(feature = "url")]
#[test]
fn url_fields() {
    assert_schema::<UrlTyped>(json!({
        "type": "object",
        "properties": {
            "endpoint": {"type": "string", "description": "Where the service runs.", "format": "uri"},
            "docs": {"type": "string", "format": "uri", "default": "https://example.com/docs"},
            "mirror": {"type": "string", "format": "uri"}
        },
        "required": ["endpoint"]
    }));
}

#[cfg(feature = "uuid")]
#[test]
fn uuid_fields() {
    let pattern = crate::common::UUID_PATTERN;
    assert_schema::<UuidTyped>(json!({
        "type": "object",
        "properties": {
            "id": {"type": "string", "pattern": pattern},
            "parent": {
                "type": "string", "pattern": pattern,
                "default": "67e55044-10b1-426f-9247-bb680e5fe0c8"
            },
            "other": {"type": "string", "pattern": pattern}
        },
        "required": ["id"]
    }));
    assert_eq!(
        pattern,
        "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"
    );
}

/// A variant doc comment alone keeps the plain `enum`; a `title` or
/// `description` on any variant titles the options, and then every doc
/// comment is an option description (`elicit_core::reference::types`).
#[test]
fn variant_doc_comments_describe_only_titled_options() {
    #[derive(Elicit)]
    #[elicit(rename_all = "lowercase")]
    enum Documented {
        /// Written for Rust readers.
        Small,
        Large,
    }

    #[derive(Elicit)]
    #[elicit(rename_all = "lowercase")]
    enum Titled {
        /// Fits in a pocket.
        Small,
        #[elicit(title = "Large")]
        Large,
    }

    #[derive(Elicit)]
    struct Sizes {
        documented: Documented,
        titled: Titled,
    }

    assert_schema::<Sizes>(json!({
        "type": "object",
        "properties": {
            "documented": {"type": "string", "enum": ["small", "large"]},
            "titled": {"type": "string", "oneOf": [
                {"const": "small", "title": "small", "description": "Fits in a pocket."},
                {"const": "large", "title": "Large"}
            ]}
        },
        "required": ["documented", "titled"]
    }));
}

/// `#[elicit(user_only)]` names the fields only the user may fill, a
/// flattened form's included; a form without any names none.
#[test]
fn user_only_fields_are_named_through_flatten() {
    #[derive(elicit_core::Elicit)]
    struct Confirmation {
        /// Go ahead?
        #[elicit(user_only)]
        confirm: bool,
    }
    #[derive(elicit_core::Elicit)]
    struct Transfer {
        amount: u32,
        #[elicit(user_only, rename = "memo")]
        note: String,
        #[elicit(flatten)]
        confirmation: Confirmation,
    }
    #[derive(elicit_core::Elicit)]
    struct Plain {
        amount: u32,
    }
    assert_eq!(Transfer::user_only_fields(), ["memo", "confirm"]);
    assert!(Plain::user_only_fields().is_empty());
    // The schema is the whole form: `user_only` changes what the model may
    // fill, not what the user is shown.
    let schema = Transfer::schema();
    let names: Vec<&str> = schema.properties.names().collect();
    assert_eq!(names, ["amount", "memo", "confirm"]);
}
