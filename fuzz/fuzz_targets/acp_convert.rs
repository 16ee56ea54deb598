//! The `acp` conversions (elicit <-> `agent-client-protocol-schema` v1) on
//! generated schemas, requests, responses, capabilities and completions.
//!
//! Checked on every input: no panic; whatever converts to the SDK's type
//! converts back to an equal value, up to what the module documents as
//! lost (property order; `null` content values); a refusal that names a
//! property names one of the schema's; and in the other direction, what the
//! SDK reads from JSON and elicit converts, converts back to the SDK's value
//! (less the `_meta` of known multi-select `items` elicit documents it
//! drops, and an empty `required`, the same as none).
//! Comparisons are of the JSON each side writes, as `serde_json::Value`s,
//! whose maps compare regardless of order.
#![no_main]

use agent_client_protocol_schema::v1 as sdk;
use arbitrary::{Result, Unstructured};
use elicit_core::ElicitationSchema;
use elicit_core::protocol::{
    CompleteElicitationNotification, CreateElicitationRequest, CreateElicitationResponse,
    ElicitationCapabilities, ElicitationId, ElicitationMode,
};
use elicit_core::{Items, PropertySchema};
use libfuzzer_sys::fuzz_target;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    // A first byte 0: the rest is JSON text, tried as every message kind
    // (the `params` of a JSON-RPC message, if it has them).
    if let Some((0, rest)) = data.split_first() {
        if let Ok(mut value) = serde_json::from_slice::<Value>(rest) {
            if let Some(params) = value.get_mut("params") {
                value = params.take();
            }
            schema(value.clone());
            request(value.clone());
            response(value.clone());
            capabilities(value);
        }
        return;
    }
    let mut u = Unstructured::new(data);
    let _ = run(&mut u);
});

fn run(u: &mut Unstructured<'_>) -> Result<()> {
    match u.int_in_range(0..=7)? {
        0..=2 => schema(elicit_fuzz::schema(u)?),
        3..=4 => request(elicit_fuzz::request_params(u)?),
        5 => response(response_json(u)?),
        6 => capabilities(elicit_fuzz::value(u, 3)?),
        _ => {
            let id = ElicitationId::new(elicit_fuzz::string(u)?);
            let ours = CompleteElicitationNotification::new(id.clone());
            let theirs = sdk::CompleteElicitationNotification::from(&ours);
            assert_eq!(CompleteElicitationNotification::from(&theirs), ours);
            let sdk_id = sdk::ElicitationId::from(&id);
            assert_eq!(ElicitationId::from(&sdk_id), id);
        }
    }
    Ok(())
}

fn json<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).expect("serializes")
}

fn read<T: DeserializeOwned>(value: &Value) -> Option<T> {
    serde_json::from_value(value.clone()).ok()
}

/// What elicit's model cannot hold of an SDK schema: `_meta` of a
/// multi-select's `items` of a kind both know (string `enum`, titled
/// `anyOf`; documented in `elicit_core::acp`: items of an unknown kind are
/// kept raw, `_meta` included), and the difference between `"required": []`
/// and no `required` (the SDK's `Option<Vec<_>>`, elicit's `Vec`, which it
/// leaves out when empty; both mean "nothing required"). `ours` is what
/// elicit read, which says which items are of a known kind.
fn strip_items_meta(schema: &mut Value, ours: &ElicitationSchema) {
    if let Some(object) = schema.as_object_mut()
        && object
            .get("required")
            .and_then(Value::as_array)
            .is_some_and(Vec::is_empty)
    {
        object.remove("required");
    }
    if let Some(properties) = schema.get_mut("properties").and_then(Value::as_object_mut) {
        for (name, property) in properties.iter_mut() {
            // Only a multi-select's known items (tests/it/fuzz_regressions.rs,
            // `acp_unknown_property_keeps_items_meta`,
            // `acp_unknown_items_keep_their_meta`).
            let known_items = matches!(
                ours.properties.get(name),
                Some(PropertySchema::MultiSelect(m)) if matches!(m.items, Items::Options(_))
            );
            if !known_items {
                continue;
            }
            if let Some(items) = property.get_mut("items").and_then(Value::as_object_mut) {
                items.remove("_meta");
            }
        }
    }
}

fn schema(value: Value) {
    if let Some(ours) = read::<ElicitationSchema>(&value) {
        match sdk::ElicitationSchema::try_from(&ours) {
            Ok(theirs) => {
                let back = ElicitationSchema::try_from(&theirs)
                    .unwrap_or_else(|e| panic!("{value}: converted to the SDK, not back: {e}"));
                assert_eq!(json(&back), json(&ours), "round trip of {value}");
            }
            Err(e) => {
                if let Some(name) = e.property() {
                    assert!(
                        ours.properties.contains(name),
                        "{value}: the refusal names `{name}`, not a property: {e}"
                    );
                }
            }
        }
    }
    if let Some(theirs) = read::<sdk::ElicitationSchema>(&value)
        && let Ok(ours) = ElicitationSchema::try_from(&theirs)
    {
        let again = sdk::ElicitationSchema::try_from(&ours)
            .unwrap_or_else(|e| panic!("{value}: converted from the SDK, not back: {e}"));
        let mut expected = json(&theirs);
        strip_items_meta(&mut expected, &ours);
        assert_eq!(json(&again), expected, "SDK round trip of {value}");
    }
}

fn request(value: Value) {
    if let Some(ours) = read::<CreateElicitationRequest>(&value)
        && let Ok(theirs) = sdk::CreateElicitationRequest::try_from(&ours)
    {
        let back = CreateElicitationRequest::try_from(&theirs)
            .unwrap_or_else(|e| panic!("{value}: converted to the SDK, not back: {e}"));
        assert_eq!(json(&back), json(&ours), "round trip of {value}");
    }
    if let Some(theirs) = read::<sdk::CreateElicitationRequest>(&value)
        && let Ok(ours) = CreateElicitationRequest::try_from(&theirs)
    {
        let again = sdk::CreateElicitationRequest::try_from(&ours)
            .unwrap_or_else(|e| panic!("{value}: converted from the SDK, not back: {e}"));
        let mut expected = json(&theirs);
        // (The fields of an unknown mode are kept as they are.)
        if let ElicitationMode::Form { requested_schema } = &ours.mode
            && let Some(schema) = expected.get_mut("requestedSchema")
        {
            strip_items_meta(schema, requested_schema);
        }
        assert_eq!(json(&again), expected, "SDK round trip of {value}");
    }
}

fn response_json(u: &mut Unstructured<'_>) -> Result<Value> {
    let mut response = serde_json::Map::new();
    let action = *u.choose(&["accept", "accept", "decline", "cancel", "other", ""])?;
    response.insert("action".into(), action.into());
    if u.ratio(3, 4)? {
        let content = if u.ratio(7, 8)? {
            Value::Object(elicit_fuzz::content(u)?)
        } else {
            elicit_fuzz::value(u, 2)?
        };
        response.insert("content".into(), content);
    }
    if u.ratio(1, 8)? {
        response.insert("_meta".into(), elicit_fuzz::value(u, 1)?);
    }
    Ok(Value::Object(response))
}

fn response(value: Value) {
    if let Some(ours) = read::<CreateElicitationResponse>(&value)
        && let Ok(theirs) = sdk::CreateElicitationResponse::try_from(&ours)
    {
        let back = CreateElicitationResponse::try_from(&theirs)
            .unwrap_or_else(|e| panic!("{value}: converted to the SDK, not back: {e}"));
        // `null` values of accepted content are left out (documented);
        // the fields of an unknown action are kept as they are.
        let mut expected = json(&ours);
        if expected["action"] == "accept"
            && let Some(content) = expected.get_mut("content").and_then(Value::as_object_mut)
        {
            content.retain(|_, v| !v.is_null());
        }
        assert_eq!(json(&back), expected, "round trip of {value}");
    }
    if let Some(theirs) = read::<sdk::CreateElicitationResponse>(&value)
        && let Ok(ours) = CreateElicitationResponse::try_from(&theirs)
    {
        let again = sdk::CreateElicitationResponse::try_from(&ours)
            .unwrap_or_else(|e| panic!("{value}: converted from the SDK, not back: {e}"));
        assert_eq!(json(&again), json(&theirs), "SDK round trip of {value}");
    }
}

fn capabilities(value: Value) {
    if let Some(ours) = read::<ElicitationCapabilities>(&value)
        && let Ok(theirs) = sdk::ElicitationCapabilities::try_from(&ours)
    {
        assert_eq!(
            ElicitationCapabilities::from(&theirs),
            ours,
            "round trip of {value}"
        );
    }
    if let Some(theirs) = read::<sdk::ElicitationCapabilities>(&value) {
        let ours = ElicitationCapabilities::from(&theirs);
        let again = sdk::ElicitationCapabilities::try_from(&ours)
            .unwrap_or_else(|e| panic!("{value}: converted from the SDK, not back: {e}"));
        assert_eq!(again, theirs, "SDK round trip of {value}");
    }
}
