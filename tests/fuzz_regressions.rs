//! Inputs found by the fuzz targets (fuzz/, see fuzz/run.sh), minimized,
//! as tests. Each names its target and says what it found.
//!
//! The first runs of the new targets (`url_review`, `client_receive`,
//! `schema_wire`, `acp_convert`) found no bug in elicit-core; what they
//! found were three wrong assumptions of the `acp_convert` oracle, kept
//! here as tests of the behaviour the oracle now expects.

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
