//! `ElicitationSchema::check()`: schemas received over the wire, and the
//! problems only visible when a schema is built (duplicates across
//! `flatten`).

use elicit_core::{Elicit, ElicitationSchema, SchemaErrorKind};
use serde_json::json;

fn issues(schema: serde_json::Value) -> Vec<(Option<String>, SchemaErrorKind)> {
    let schema: ElicitationSchema = serde_json::from_value(schema).expect("parses");
    match schema.check() {
        Ok(()) => Vec::new(),
        Err(e) => e
            .issues()
            .iter()
            .map(|i| (i.property().map(str::to_owned), i.kind().clone()))
            .collect(),
    }
}

fn one(property: &str, schema: serde_json::Value) -> SchemaErrorKind {
    let mut found = issues(json!({"type": "object", "properties": {property: schema}}));
    assert_eq!(found.len(), 1, "{found:?}");
    let (name, kind) = found.remove(0);
    assert_eq!(name.as_deref(), Some(property));
    kind
}

#[test]
fn a_good_wire_schema_passes() {
    let found = issues(json!({
        "type": "object",
        "properties": {
            "name": {"type": "string", "minLength": 1, "maxLength": 5, "default": "abc"},
            "n": {"type": "integer", "minimum": 1, "maximum": 3, "default": 2},
            "x": {"type": "number", "minimum": 0.5},
            "ok": {"type": "boolean", "default": false},
            "pick": {"type": "string", "oneOf": [{"const": "a", "title": "A"}]},
            "many": {"type": "array", "minItems": 1, "items": {"type": "string", "enum": ["a", "b"]}}
        },
        "required": ["name"]
    }));
    assert_eq!(found, vec![]);
}

#[test]
fn each_problem_is_named() {
    assert!(matches!(
        one("n", json!({"type": "integer", "minimum": 5, "maximum": 1})),
        SchemaErrorKind::BoundsReversed {
            min_key: "minimum",
            ..
        }
    ));
    assert!(matches!(
        one(
            "s",
            json!({"type": "string", "minLength": 5, "maxLength": 1})
        ),
        SchemaErrorKind::BoundsReversed {
            min_key: "minLength",
            ..
        }
    ));
    assert!(matches!(
        one(
            "m",
            json!({"type": "array", "minItems": 3, "maxItems": 1,
                        "items": {"type": "string", "enum": ["a", "b", "c"]}})
        ),
        SchemaErrorKind::BoundsReversed {
            min_key: "minItems",
            ..
        }
    ));
    assert!(matches!(
        one("n", json!({"type": "integer", "maximum": 3, "default": 9})),
        SchemaErrorKind::InvalidDefault { .. }
    ));
    assert!(matches!(
        one(
            "s",
            json!({"type": "string", "format": "email", "default": "nope"})
        ),
        SchemaErrorKind::InvalidDefault { .. }
    ));
    assert!(matches!(
        one("s", json!({"type": "string", "enum": []})),
        SchemaErrorKind::NoOptions
    ));
    assert_eq!(
        one("s", json!({"type": "string", "enum": ["a", "a"]})),
        SchemaErrorKind::DuplicateOption { value: "a".into() }
    );
    assert_eq!(
        one(
            "m",
            json!({"type": "array", "minItems": 3,
                        "items": {"anyOf": [{"const": "a", "title": "A"}, {"const": "b", "title": "B"}]}})
        ),
        SchemaErrorKind::MinItemsAboveOptions {
            min_items: 3,
            options: 2
        }
    );
    assert_eq!(
        one("o", json!({"type": "object", "properties": {}})),
        SchemaErrorKind::UnknownPropertyType {
            type_: "object".into()
        }
    );
    assert_eq!(
        one("m", json!({"type": "array", "items": {"type": "_color"}})),
        SchemaErrorKind::UnknownItemsType
    );
    assert!(matches!(
        one("p", json!({"type": "string", "pattern": "(?<=a)b"})),
        SchemaErrorKind::InvalidPattern { .. }
    ));
    assert!(matches!(
        one("p", json!({"type": "string", "pattern": "a".repeat(2000)})),
        SchemaErrorKind::PatternTooLong { len: 2000, .. }
    ));
}

#[test]
fn required_names_must_exist_once() {
    let found = issues(json!({
        "type": "object",
        "properties": {"a": {"type": "string"}},
        "required": ["a", "a", "ghost"]
    }));
    assert_eq!(
        found,
        vec![
            (Some("a".into()), SchemaErrorKind::DuplicateRequired),
            (Some("ghost".into()), SchemaErrorKind::RequiredNotAProperty),
        ]
    );
}

#[test]
fn every_problem_is_collected() {
    let found = issues(json!({
        "type": "object",
        "properties": {
            "a": {"type": "integer", "minimum": 2, "maximum": 1},
            "b": {"type": "string", "enum": []},
            "c": {"type": "_slider"}
        }
    }));
    let names: Vec<_> = found.iter().map(|(n, _)| n.clone().unwrap()).collect();
    assert_eq!(names, ["a", "b", "c"]);
}

#[test]
fn duplicate_names_across_flatten_are_reported_by_check() {
    #[derive(Elicit)]
    struct Contact {
        name: String,
    }
    #[derive(Elicit)]
    struct Signup {
        name: String,
        #[elicit(flatten)]
        contact: Contact,
    }
    let err = Signup::schema().check().unwrap_err();
    assert_eq!(err.issues().len(), 1);
    assert_eq!(err.issues()[0].property(), Some("name"));
    assert_eq!(err.issues()[0].kind(), &SchemaErrorKind::DuplicateProperty);
    assert_eq!(
        err.to_string(),
        "invalid elicitation schema: property `name` is defined twice"
    );
}

#[test]
fn multi_select_min_items_above_options_is_reported_when_built() {
    // The derive rejects a literal `length(min)` above the option count at
    // compile time; a hand-built schema is caught by `check()`.
    let schema = ElicitationSchema::new().property(
        "colors",
        elicit_core::MultiSelectSchema {
            min_items: Some(4),
            ..elicit_core::MultiSelectSchema::new(elicit_core::Options::Untitled(vec![
                "red".into(),
                "green".into(),
            ]))
        },
        true,
    );
    let err = schema.check().unwrap_err();
    assert_eq!(
        err.issues()[0].kind(),
        &SchemaErrorKind::MinItemsAboveOptions {
            min_items: 4,
            options: 2
        }
    );
}

#[test]
fn readers_tolerate_what_the_spec_allows() {
    // Missing or malformed object `type`, missing `properties`, `null` optionals.
    let schema: ElicitationSchema =
        serde_json::from_value(json!({"type": 7, "required": null, "title": null})).unwrap();
    assert!(schema.properties.is_empty());
    assert!(schema.required.is_empty());
    assert_eq!(schema.title, None);
    let schema: ElicitationSchema = serde_json::from_value(json!({})).unwrap();
    assert_eq!(
        serde_json::to_value(&schema).unwrap(),
        json!({"type": "object", "properties": {}})
    );
    // `null` properties is invalid.
    assert!(serde_json::from_value::<ElicitationSchema>(json!({"properties": null})).is_err());
    // Unknown kinds are kept raw and written back unchanged.
    let raw =
        json!({"type": "object", "properties": {"c": {"type": "_color", "palette": ["red"]}}});
    let schema: ElicitationSchema = serde_json::from_value(raw.clone()).unwrap();
    assert_eq!(serde_json::to_value(&schema).unwrap(), raw);
}
