//! The request a call's rounds belong to, whatever the method that asks
//! (`tools/call`, `prompts/get`, `resources/read`: SEP-2322 lets each
//! answer with an input-required result), and the response each method
//! ends a round with.

use ::rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData,
    GetPromptRequestParams, GetPromptResponse, InputRequiredResult, InputResponses, JsonObject,
    ReadResourceRequestParams, ReadResourceResponse,
};
use serde_json::Value;
use sha2::{Digest, Sha256};

/// What a round needs of its request, read before any extractor of rmcp's
/// takes a part of it: the method and what it names (the state is bound
/// to both), a digest of its arguments (bound too), the answers it brings
/// and the state it carries.
#[derive(Clone, Debug)]
pub(crate) struct RoundRequest {
    /// `tools/call`, `prompts/get` or `resources/read`.
    pub(super) method: &'static str,
    /// The tool's or the prompt's name, or the resource's URI.
    pub(super) name: String,
    /// The arguments (the state is bound to their digest,
    /// [`arguments_digest`](Self::arguments_digest)); a tool may read them
    /// as a form ([`Rounds::arguments`](super::Rounds::arguments)).
    pub(super) raw_arguments: Option<JsonObject>,
    pub(super) input_responses: Option<InputResponses>,
    pub(super) request_state: Option<String>,
}

impl RoundRequest {
    /// The parts of a request, as rmcp hands them over.
    pub(crate) fn new(
        method: &'static str,
        name: impl Into<String>,
        arguments: Option<&JsonObject>,
        input_responses: Option<InputResponses>,
        request_state: Option<String>,
    ) -> Self {
        Self {
            method,
            name: name.into(),
            raw_arguments: arguments.cloned(),
            input_responses,
            request_state,
        }
    }

    /// SHA-256 of the arguments in canonical form (object keys sorted), so
    /// a client that reorders them is still the same request; computed
    /// where a state is sealed or opened, not for every call.
    pub(super) fn arguments_digest(&self) -> [u8; 32] {
        let mut canonical_arguments = Vec::new();
        if let Some(arguments) = &self.raw_arguments {
            canonical_object(arguments, &mut canonical_arguments);
        }
        Sha256::digest(&canonical_arguments).into()
    }

    /// What the request names, as a log may show it: a tool's or a
    /// prompt's name as it is; a resource's URI without its user info, its
    /// query and its fragment (where a URI may carry a credential).
    pub(crate) fn logged_name(&self) -> &str {
        if self.method != ReadResourceResponse::METHOD {
            return &self.name;
        }
        let uri = self.name.as_str();
        let uri = uri.split(['?', '#']).next().unwrap_or(uri);
        match uri.split_once("://") {
            Some((scheme, rest)) => match rest.split('/').next().and_then(|a| a.rfind('@')) {
                // `scheme://user:secret@host/..`: the part after the `@`.
                Some(at) => &uri[scheme.len() + 3 + at + 1..],
                None => uri,
            },
            None => uri,
        }
    }

    /// A `tools/call` request.
    pub(crate) fn tool(request: &CallToolRequestParams) -> Self {
        Self::new(
            CallToolResponse::METHOD,
            request.name.as_ref(),
            request.arguments.as_ref(),
            request.input_responses.clone(),
            request.request_state.clone(),
        )
    }

    /// A `prompts/get` request.
    pub(crate) fn prompt(request: &GetPromptRequestParams) -> Self {
        Self::new(
            GetPromptResponse::METHOD,
            request.name.as_str(),
            request.arguments.as_ref(),
            request.input_responses.clone(),
            request.request_state.clone(),
        )
    }

    /// A `resources/read` request.
    pub(crate) fn resource(request: &ReadResourceRequestParams) -> Self {
        Self::new(
            ReadResourceResponse::METHOD,
            request.uri.as_str(),
            None,
            request.input_responses.clone(),
            request.request_state.clone(),
        )
    }
}

/// The response of a method whose call may ask in input-required rounds:
/// rmcp's [`CallToolResponse`], [`GetPromptResponse`] and
/// [`ReadResourceResponse`], each the method's result or an
/// [`InputRequiredResult`]. Sealed: these three are the methods SEP-2322
/// lets ask.
pub trait RoundResponse: From<InputRequiredResult> + sealed::Sealed {
    /// The method this responds to (`tools/call`, `prompts/get`,
    /// `resources/read`).
    const METHOD: &'static str;

    /// How a call that took more rounds than
    /// [`RoundsConfig::max_rounds`](super::RoundsConfig::max_rounds) ends:
    /// a tool error for a tool (the model reads it), a `-32600` error for
    /// a prompt or a resource (they have no error result).
    #[doc(hidden)]
    fn out_of_rounds(max_rounds: u32) -> Result<Self, ErrorData>;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for ::rmcp::model::CallToolResponse {}
    impl Sealed for ::rmcp::model::GetPromptResponse {}
    impl Sealed for ::rmcp::model::ReadResourceResponse {}
}

/// What a call out of rounds says, to the client as to the model.
fn out_of_rounds_text(max_rounds: u32) -> String {
    format!("no answer after {max_rounds} rounds of questions: nothing was done")
}

impl RoundResponse for CallToolResponse {
    const METHOD: &'static str = "tools/call";

    fn out_of_rounds(max_rounds: u32) -> Result<Self, ErrorData> {
        Ok(CallToolResult::error(vec![ContentBlock::text(out_of_rounds_text(max_rounds))]).into())
    }
}

impl RoundResponse for GetPromptResponse {
    const METHOD: &'static str = "prompts/get";

    fn out_of_rounds(max_rounds: u32) -> Result<Self, ErrorData> {
        Err(ErrorData::invalid_request(
            out_of_rounds_text(max_rounds),
            None,
        ))
    }
}

impl RoundResponse for ReadResourceResponse {
    const METHOD: &'static str = "resources/read";

    fn out_of_rounds(max_rounds: u32) -> Result<Self, ErrorData> {
        Err(ErrorData::invalid_request(
            out_of_rounds_text(max_rounds),
            None,
        ))
    }
}

/// `object` as JSON with every object's keys sorted.
fn canonical_object(object: &JsonObject, out: &mut Vec<u8>) {
    let mut entries: Vec<_> = object.iter().collect();
    entries.sort_by(|a, b| a.0.cmp(b.0));
    out.push(b'{');
    for (i, (key, value)) in entries.into_iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        // A key written as serde_json writes a JSON string.
        out.extend_from_slice(Value::String(key.clone()).to_string().as_bytes());
        out.push(b':');
        canonical(value, out);
    }
    out.push(b'}');
}

/// `value` as JSON with every object's keys sorted.
fn canonical(value: &Value, out: &mut Vec<u8>) {
    match value {
        Value::Object(map) => canonical_object(map, out),
        Value::Array(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                canonical(item, out);
            }
            out.push(b']');
        }
        other => out.extend_from_slice(other.to_string().as_bytes()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn object(value: Value) -> JsonObject {
        value.as_object().cloned().expect("an object")
    }

    #[test]
    fn a_resources_logged_name_has_no_user_info_query_or_fragment() {
        let logged = |method, name: &str| {
            RoundRequest::new(method, name, None, None, None)
                .logged_name()
                .to_owned()
        };
        let read = ReadResourceResponse::METHOD;
        assert_eq!(logged(read, "elicit://motd"), "elicit://motd");
        assert_eq!(
            logged(read, "db://ada:s3cret@db.example/orders?token=x#f"),
            "db.example/orders"
        );
        assert_eq!(logged(read, "file:///srv/a@b/c?x=1"), "file:///srv/a@b/c");
        assert_eq!(logged(read, "urn:x?secret"), "urn:x");
        // A tool's and a prompt's names are the server's own: as they are.
        assert_eq!(logged(CallToolResponse::METHOD, "a?b"), "a?b");
        assert_eq!(logged(GetPromptResponse::METHOD, "p@q"), "p@q");
    }

    #[test]
    fn reordered_arguments_are_the_same_request_and_other_values_are_not() {
        let digest = |value: Value| {
            RoundRequest::new("tools/call", "t", Some(&object(value)), None, None)
                .arguments_digest()
        };
        let one = digest(serde_json::json!({"a": 1, "b": {"y": [1, {"q": 2, "p": 1}], "x": "s"}}));
        let reordered =
            digest(serde_json::json!({"b": {"x": "s", "y": [1, {"p": 1, "q": 2}]}, "a": 1}));
        let other =
            digest(serde_json::json!({"a": 2, "b": {"y": [1, {"q": 2, "p": 1}], "x": "s"}}));
        assert_eq!(one, reordered);
        assert_ne!(one, other);
        let none = RoundRequest::new("tools/call", "t", None, None, None).arguments_digest();
        assert_ne!(one, none);
    }
}
