//! Inputs found by the fuzz targets (fuzz/, see fuzz/run.sh), minimized,
//! as tests. Each names its target and says what it found.
//!
//! The runs of the new targets (`url_review`, `client_receive`,
//! `schema_wire`, `acp_convert`), ten minutes then an hour each, found no
//! bug in elicit-core; what they found were wrong assumptions of the
//! oracles (four of `acp_convert`, one of `schema_wire`), kept here as
//! tests of the behaviour the oracles now expect.

use agent_client_protocol_schema::v1 as sdk;
use elicit_core::ElicitationSchema;
use elicit_core::protocol::{CreateElicitationRequest, CreateElicitationResponse};
use serde_json::{Value, json};

fn json_of<T: serde::Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap()
}

/// `acp_convert`: `"required": []` read by the SDK (`Option<Vec<_>>`) comes
/// back from elicit (a `Vec`, left out when empty) without `required`. Both
/// mean "nothing required"; elicit's model has no place for the
/// difference, so the oracle compares them as equal.
#[test]
fn acp_empty_required_is_no_required() {
    let text = json!({"type": "object", "properties": {}, "required": []});
    let theirs: sdk::ElicitationSchema = serde_json::from_value(text).unwrap();
    let ours = ElicitationSchema::try_from(&theirs).unwrap();
    assert!(ours.required.is_empty());
    let again = sdk::ElicitationSchema::try_from(&ours).unwrap();
    assert_eq!(json_of(&again), json!({"type": "object", "properties": {}}));
    // Both read the same way: nothing is required.
    assert_eq!(
        ElicitationSchema::try_from(&again).unwrap(),
        ours,
        "the same schema either way"
    );
}

/// `acp_convert`: the content of an unknown action is that action's own
/// field, kept as it is, `null`s included; only accepted content drops
/// `null` values (documented in `elicit_core::acp`).
#[test]
fn acp_unknown_action_keeps_null_fields() {
    let text = json!({"action": "other", "content": {"a": null, "b": 1}});
    let ours: CreateElicitationResponse = serde_json::from_value(text.clone()).unwrap();
    let theirs = sdk::CreateElicitationResponse::try_from(&ours).unwrap();
    let back = CreateElicitationResponse::try_from(&theirs).unwrap();
    assert_eq!(back, ours);
    assert_eq!(json_of(&back), text);

    let accepted = json!({"action": "accept", "content": {"a": null, "b": 1}});
    let ours: CreateElicitationResponse = serde_json::from_value(accepted).unwrap();
    let theirs = sdk::CreateElicitationResponse::try_from(&ours).unwrap();
    let back = CreateElicitationResponse::try_from(&theirs).unwrap();
    assert_eq!(
        json_of(&back),
        json!({"action": "accept", "content": {"b": 1}})
    );
}

/// `acp_convert`: the fields of an unknown mode are kept as they are, even
/// a `requestedSchema` with `"required": []` (it is no schema of a mode we
/// know, so it is not normalised).
#[test]
fn acp_unknown_mode_keeps_its_fields() {
    let text = json!({
        "sessionId": "sess_1",
        "mode": "hostname",
        "message": "^$",
        "requestedSchema": {"type": "object", "properties": {}, "required": []},
    });
    let theirs: sdk::CreateElicitationRequest = serde_json::from_value(text.clone()).unwrap();
    let ours = CreateElicitationRequest::try_from(&theirs).unwrap();
    let again = sdk::CreateElicitationRequest::try_from(&ours).unwrap();
    assert_eq!(json_of(&again), json_of(&theirs));
    assert_eq!(json_of(&again), text);
}

/// `schema_wire` (`fuzz/findings/crash-26938c08…`): a key the schema does
/// not know is skipped without its value being read, as serde does for
/// every struct, so a number too large for an `f64` under such a key is no
/// error. A `serde_json::Value` cannot hold that number, so reading the
/// same text through a `Value` fails: the two readers may differ on exactly
/// these texts, and the oracle now allows it.
#[test]
fn schema_wire_skips_an_unknown_key_without_reading_its_number() {
    let text = "{\"de_at-time\":\t111111e111311111111}";
    let schema: ElicitationSchema = serde_json::from_str(text).unwrap();
    assert_eq!(schema, ElicitationSchema::new());
    assert!(schema.check().is_ok());
    let err = serde_json::from_str::<Value>(text).unwrap_err();
    assert!(err.to_string().contains("number out of range"), "{err}");
    // The same number where the schema reads it is refused.
    let read = "{\"type\":\"object\",\"title\":111111e111311111111}";
    assert!(serde_json::from_str::<ElicitationSchema>(read).is_err());
}

/// `acp_convert` (`fuzz/findings/crash-d77e0914…`): a property of a type
/// neither side knows is kept as raw JSON both ways, `items._meta`
/// included; only a multi-select's (`"type": "array"`) `items._meta` is
/// dropped, as `elicit_core::acp` documents. The oracle stripped it from
/// every property.
#[test]
fn acp_unknown_property_keeps_items_meta() {
    let text = json!({
        "type": "object",
        "properties": {
            "n": {"type": "1e39", "items": {"_meta": {"a": 1}, "maxLength": 3}},
            "tags": {
                "type": "array",
                "items": {"_meta": {"b": 2}, "type": "string", "enum": ["x", "y"]},
            },
        },
    });
    let theirs: sdk::ElicitationSchema = serde_json::from_value(text).unwrap();
    let ours = ElicitationSchema::try_from(&theirs).unwrap();
    let again = json_of(&sdk::ElicitationSchema::try_from(&ours).unwrap());
    assert_eq!(
        again["properties"]["n"],
        json!({"type": "1e39", "items": {"_meta": {"a": 1}, "maxLength": 3}})
    );
    assert_eq!(
        again["properties"]["tags"]["items"],
        json!({"type": "string", "enum": ["x", "y"]})
    );
}

/// `acp_convert` (`fuzz/findings/acp_convert/crash-006e2c95…`, the second
/// hour): a multi-select whose `items` are of a kind neither side knows
/// keeps them raw both ways, `_meta` included; the oracle, after the
/// finding above, still stripped `_meta` from every multi-select's items.
#[test]
fn acp_unknown_items_keep_their_meta() {
    let text = json!({
        "type": "object",
        "properties": {
            "x y": {"type": "array", "items": {"type": "http://a%zz", "_meta": {}, "maxLength": 3}},
        },
    });
    let theirs: sdk::ElicitationSchema = serde_json::from_value(text.clone()).unwrap();
    let ours = ElicitationSchema::try_from(&theirs).unwrap();
    let again = sdk::ElicitationSchema::try_from(&ours).unwrap();
    assert_eq!(json_of(&again), text);
    // elicit reads the same JSON the same way.
    let read: ElicitationSchema = serde_json::from_value(text.clone()).unwrap();
    assert_eq!(read, ours);
}
