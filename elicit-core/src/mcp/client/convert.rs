//! rmcp's elicitation types to elicit's model and back: a request read
//! (MCP's schema shapes included), the advertised capability, a response
//! and an error written.

use rmcp::model::{self, ErrorCode, ErrorData};
use serde_json::{Map, Value};

use crate::protocol::{
    CreateElicitationRequest, CreateElicitationResponse, ElicitationAction,
    ElicitationCapabilities, ElicitationScope, JsonRpcError, RequestId,
};

/// The params of an `elicitation/create` request in elicit's model, for a
/// host that drives [`ClientConnection`](crate::protocol::client::ClientConnection)
/// itself: `params` as rmcp read them (`serde_json::to_value(&params)` of
/// its `ElicitRequestParams`) or raw (a request rmcp could not read into
/// its own types: an unknown mode, a schema of another shape).
///
/// No `mode` is a form (MCP 2025-06-18); a form's schema is read by
/// elicit's reader (MCP's titled `oneOf`/`anyOf` as titled options, the
/// legacy `enumNames` too); a URL request with no id (MCP 2026-07-28 sends
/// none) is named after its request, `request_id`, which is also its scope
/// (MCP has none of ACP's).
///
/// # Errors
///
/// `-32602` when the params do not read as an `elicitation/create` request
/// (its error says where).
pub fn read_request(
    params: Value,
    request_id: &model::RequestId,
) -> Result<CreateElicitationRequest, JsonRpcError> {
    let scope = ElicitationScope::request(match request_id {
        model::NumberOrString::Number(n) => RequestId::Number(*n),
        model::NumberOrString::String(s) => RequestId::String(s.to_string()),
    });
    let Value::Object(mut params) = params else {
        return Err(JsonRpcError::invalid_params(
            "Invalid params: elicitation/create takes an object",
        ));
    };
    // No mode is a form (MCP 2025-06-18).
    params.entry("mode").or_insert_with(|| "form".into());
    if let Some(schema) = params.remove("requestedSchema") {
        params.insert("requestedSchema".to_owned(), with_titles(schema));
    }
    if params.get("mode").is_some_and(|mode| mode == "url")
        && params.get("elicitationId").is_none_or(|id| id == "")
    {
        let id = match scope.request_id() {
            Some(id) => format!("request-{id}"),
            None => "url".to_owned(),
        };
        params.insert("elicitationId".to_owned(), Value::String(id));
    }
    let mut object = Map::new();
    object.extend(params);
    if let Ok(Value::Object(scope)) = serde_json::to_value(&scope) {
        object.extend(scope);
    }
    serde_json::from_value(Value::Object(object)).map_err(|e| {
        JsonRpcError::invalid_params(format!("Invalid params: elicitation/create: {e}"))
    })
}

/// The `elicitation` capability for `modes`: each mode named.
pub(super) fn capability_of(modes: &ElicitationCapabilities) -> model::ElicitationCapability {
    let mut capability = model::ElicitationCapability::new();
    if modes.supports_form() {
        capability = capability.with_form(model::FormElicitationCapability::new());
    }
    if modes.supports_url() {
        capability = capability.with_url(model::UrlElicitationCapability::new());
    }
    capability
}

/// MCP's legacy titled enum (`enum` with `enumNames`, one title per value)
/// as the titled `oneOf` elicit reads; anything else unchanged. `enumNames`
/// of another length than `enum` is left as it is (the reader refuses it).
fn with_titles(mut schema: Value) -> Value {
    let Some(properties) = schema.get_mut("properties").and_then(Value::as_object_mut) else {
        return schema;
    };
    for property in properties.values_mut() {
        let Some(property) = property.as_object_mut() else {
            continue;
        };
        let (Some(Value::Array(values)), Some(Value::Array(names))) =
            (property.get("enum"), property.get("enumNames"))
        else {
            continue;
        };
        if values.len() != names.len() || !names.iter().all(Value::is_string) {
            continue;
        }
        let titled: Vec<Value> = values
            .iter()
            .zip(names)
            .map(|(value, name)| serde_json::json!({"const": value, "title": name}))
            .collect();
        property.remove("enum");
        property.remove("enumNames");
        property.insert("oneOf".to_owned(), Value::Array(titled));
    }
    schema
}

/// Our response as rmcp's result.
pub(super) fn result_of(response: CreateElicitationResponse) -> model::ElicitResult {
    match response.action {
        ElicitationAction::Accept { content } => {
            let result = model::ElicitResult::new(model::ElicitationAction::Accept);
            match content {
                Some(content) => result.with_content(Value::Object(content)),
                None => result,
            }
        }
        ElicitationAction::Decline => model::ElicitResult::new(model::ElicitationAction::Decline),
        // Cancel, and any action the engine never produces.
        _ => model::ElicitResult::new(model::ElicitationAction::Cancel),
    }
}

/// Our JSON-RPC error as rmcp's (code, message and data kept).
pub(super) fn error_data(error: &JsonRpcError) -> ErrorData {
    let code = i32::try_from(error.code).unwrap_or(-32603);
    ErrorData::new(ErrorCode(code), error.message.clone(), error.data.clone())
}
