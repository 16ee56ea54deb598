//! What an MCP server can send elicit's MCP client (`elicit_core::mcp::client`):
//! one JSON value, read four ways, as a host receives it.
//!
//! - as `elicitation/create` params rmcp reads into its own types, then
//!   `mcp::client::read_request` (MCP's shapes: titled `oneOf`/`anyOf`, the
//!   legacy `enumNames`), as the host's handler reads them;
//! - as raw params (`read_request` of the value, what rmcp could not type);
//! - as an MCP 2026-07-28 input-required result, each of its requests;
//! - as the `data` of a `-32042` error, each URL elicitation it lists.
//!
//! Each request read then goes through the client's guard (both modes
//! advertised). Checked on every input: no panic; every refusal is `-32602`
//! with a message; a form passes the guard only when its schema checks
//! (renderable); what the terminal would print of the message, the titles
//! and the option labels (`printable`) holds no control character (but
//! the message's line breaks) and no invisible or direction-changing one,
//! and writing it out twice changes nothing.
#![no_main]

use elicit_core::mcp::client::read_request;
use elicit_core::protocol::client::{ClientConnection, Incoming, printable};
use elicit_core::protocol::{CreateElicitationRequest, ElicitationCapabilities, INVALID_PARAMS};
use libfuzzer_sys::fuzz_target;
use rmcp::model::{ElicitRequestParams, InputRequest, InputRequiredResult, NumberOrString};
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Ok(value) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let id = NumberOrString::Number(7);
    if let Ok(params) = serde_json::from_value::<ElicitRequestParams>(value.clone()) {
        guard(read_request(typed(&params), &id));
    }
    guard(read_request(value.clone(), &id));
    if let Ok(result) = serde_json::from_value::<InputRequiredResult>(value.clone()) {
        for (key, request) in result.input_requests.unwrap_or_default() {
            if let InputRequest::Elicitation(request) = request {
                guard(read_request(
                    typed(&request.params),
                    &NumberOrString::String(key.into()),
                ));
            }
        }
    }
    if let Some(listed) = value.get("elicitations").and_then(Value::as_array) {
        for item in listed.iter().take(16) {
            guard(read_request(item.clone(), &id));
        }
    }
});

/// rmcp's typed params as the handler hands them to `read_request`.
fn typed(params: &ElicitRequestParams) -> Value {
    serde_json::to_value(params).expect("rmcp's params serialize")
}

fn guard(read: Result<CreateElicitationRequest, elicit_core::protocol::JsonRpcError>) {
    let request = match read {
        Ok(request) => request,
        Err(error) => {
            assert_eq!(error.code, INVALID_PARAMS);
            assert!(!error.message.is_empty());
            return;
        }
    };
    let message = request.message.clone();
    let mut client = ClientConnection::new(Some(ElicitationCapabilities::form_and_url()));
    let incoming = match client.receive(request) {
        Ok(incoming) => incoming,
        Err(error) => {
            assert_eq!(error.code, INVALID_PARAMS);
            assert!(!error.message.is_empty());
            return;
        }
    };
    shown(&message, true);
    if let Incoming::Form(form) = &incoming {
        assert!(
            form.schema().check().is_ok(),
            "an unrenderable form passed the guard"
        );
        for (name, property) in &form.schema().properties {
            shown(name, false);
            if let Some(title) = property.title() {
                shown(title, false);
            }
            if let Some(description) = property.description() {
                shown(description, true);
            }
        }
    }
}

/// `printable` leaves nothing hidden, and is stable.
fn shown(text: &str, line_breaks: bool) {
    let once = printable(text, line_breaks);
    for c in once.chars() {
        assert!(
            !c.is_control() || (line_breaks && c == '\n'),
            "{c:?} in {once:?}"
        );
        assert!(
            !matches!(u32::from(c), 0x200B..=0x200F | 0x202A..=0x202E | 0x2066..=0x2069 | 0xFEFF),
            "{c:?} in {once:?}"
        );
    }
    assert_eq!(printable(&once, line_breaks), once);
}
