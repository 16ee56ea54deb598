//! rmcp's elicitation types to elicit's model and back: a request read
//! (MCP's schema shapes included), a response and an error written.

use rmcp::model::{self, ErrorCode, ErrorData};
use serde_json::{Map, Value};

use crate::protocol::{
    CreateElicitationRequest, CreateElicitationResponse, ElicitationAction, ElicitationScope,
    JsonRpcError, RequestId,
};
use crate::schema::ElicitationSchema;

/// The scope the renderer shows: MCP has none, so the request's id.
pub(super) fn scope_of(id: &model::RequestId) -> ElicitationScope {
    ElicitationScope::request(match id {
        model::NumberOrString::Number(n) => RequestId::Number(*n),
        model::NumberOrString::String(s) => RequestId::String(s.to_string()),
    })
}

/// An `elicitation/create` request rmcp read, in elicit's model, for a
/// host that drives [`ClientConnection`](crate::protocol::client::ClientConnection) itself: a form's schema read by
/// elicit's reader (MCP's titled `oneOf`/`anyOf` as titled options, the
/// legacy `enumNames` too); a URL request with no id (MCP 2026-07-28 may
/// send none) named after its request, `request_id`. The scope is the
/// request's id (MCP has none of ACP's).
///
/// # Errors
///
/// `-32602` when the schema does not read (its error says where).
pub fn read_request(
    request: &model::ElicitRequestParams,
    request_id: &model::RequestId,
) -> Result<CreateElicitationRequest, JsonRpcError> {
    request_of(request, scope_of(request_id))
}

/// [`read_request`] for raw params (a request rmcp could not read into its
/// own types: an unknown mode, a schema of another shape).
///
/// # Errors
///
/// `-32602` when the params do not read as an `elicitation/create`
/// request.
pub fn read_request_value(
    params: Value,
    request_id: &model::RequestId,
) -> Result<CreateElicitationRequest, JsonRpcError> {
    raw_request_of(params, scope_of(request_id))
}

pub(super) fn request_of(
    request: &model::ElicitRequestParams,
    scope: ElicitationScope,
) -> Result<CreateElicitationRequest, JsonRpcError> {
    match request {
        model::ElicitRequestParams::FormElicitationParams {
            message,
            requested_schema,
            ..
        } => {
            let schema = serde_json::to_value(requested_schema)
                .map_err(|e| JsonRpcError::invalid_params(format!("Invalid params: {e}")))?;
            Ok(CreateElicitationRequest::form(
                scope,
                message.clone(),
                schema_of(schema)?,
            ))
        }
        model::ElicitRequestParams::UrlElicitationParams {
            message,
            url,
            elicitation_id,
            ..
        } => {
            let id = if elicitation_id.is_empty() {
                scope
                    .request_id()
                    .map_or_else(|| "url".to_owned(), |id| format!("request-{id}"))
            } else {
                elicitation_id.clone()
            };
            Ok(CreateElicitationRequest::url(
                scope,
                message.clone(),
                id,
                url.clone(),
            ))
        }
        // A mode rmcp adds later: read from its JSON, refused by the guard
        // if it is not one this client accepts.
        other => {
            let params = serde_json::to_value(other)
                .map_err(|e| JsonRpcError::invalid_params(format!("Invalid params: {e}")))?;
            raw_request_of(params, scope)
        }
    }
}

/// Raw `elicitation/create` params in elicit's model (MCP has no scope:
/// `scope` is set); what does not parse is `-32602`.
pub(super) fn raw_request_of(
    params: Value,
    scope: ElicitationScope,
) -> Result<CreateElicitationRequest, JsonRpcError> {
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
    let mut object = Map::new();
    object.extend(params);
    if let Ok(Value::Object(scope)) = serde_json::to_value(&scope) {
        object.extend(scope);
    }
    serde_json::from_value(Value::Object(object)).map_err(|e| {
        JsonRpcError::invalid_params(format!("Invalid params: elicitation/create: {e}"))
    })
}

/// A form's schema, MCP's shapes read: `-32602` with what is wrong.
fn schema_of(schema: Value) -> Result<ElicitationSchema, JsonRpcError> {
    serde_json::from_value(with_titles(schema))
        .map_err(|e| JsonRpcError::invalid_params(format!("Invalid params: requestedSchema: {e}")))
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
