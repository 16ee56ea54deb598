//! The scripted mode through `answer()`: what is sent for each script.

use serde_json::{Value, json};

use super::Renderer;
use crate::limits::MAX_RENDER_ATTEMPTS;
use crate::protocol::client::{ClientConnection, Incoming, answer};
use crate::protocol::{
    CreateElicitationResponse, ElicitationAction, ElicitationCapabilities, JsonRpcError,
};

fn deploy_form() -> Incoming {
    let mut client = ClientConnection::new(Some(ElicitationCapabilities::form_and_url()));
    client
        .receive_value(json!({
            "sessionId": "s", "mode": "form", "message": "Deploy?",
            "requestedSchema": {"type": "object", "properties": {
                "service": {"type": "string", "minLength": 2, "default": "web"},
                "env": {"type": "string", "enum": ["staging", "production"]},
                "replicas": {"type": "integer", "minimum": 1, "maximum": 16, "default": 2},
                "notify": {"type": "boolean", "default": true}
            }, "required": ["env"]}
        }))
        .expect("a valid form request")
}

fn url_request(url: &str) -> Incoming {
    let mut client = ClientConnection::new(Some(ElicitationCapabilities::form_and_url()));
    client
        .receive_value(json!({
            "sessionId": "s", "mode": "url", "message": "Connect a token",
            "elicitationId": "token-1", "url": url
        }))
        .expect("the guard passes the request; the review decides")
}

/// Answers `incoming` from the JSON lines `script`.
fn run(
    script: &'static str,
    incoming: &Incoming,
) -> Result<CreateElicitationResponse, JsonRpcError> {
    let mut renderer = Renderer::script(script.as_bytes());
    assert!(renderer.is_scripted());
    let response = answer(&mut renderer, "the test agent", incoming);
    if let Ok(response) = &response {
        // Scripted: never opened, whatever was answered.
        assert!(!renderer.open_accepted(incoming, response));
    }
    response
}

fn accepted(content: Value) -> ElicitationAction {
    ElicitationAction::Accept {
        content: Some(content.as_object().expect("an object").clone()),
    }
}

#[test]
fn accept_fills_the_defaults_the_answer_leaves_out() {
    let response = run(
        r#"{"action": "accept", "content": {"env": "staging", "replicas": 3}}"#,
        &deploy_form(),
    )
    .unwrap();
    assert_eq!(
        response.action,
        accepted(json!({"service": "web", "env": "staging", "replicas": 3, "notify": true}))
    );
}

#[test]
fn null_clears_a_default_and_unknown_keys_are_dropped() {
    let response = run(
        r#"{"action": "accept", "content": {"env": "production", "notify": null, "extra": 1}}"#,
        &deploy_form(),
    )
    .unwrap();
    assert_eq!(
        response.action,
        accepted(json!({"service": "web", "env": "production", "replicas": 2}))
    );
}

#[test]
fn an_invalid_answer_is_not_sent_and_the_next_line_is_the_retry() {
    let script = "\n# comments and blank lines are skipped\n\
        {\"action\": \"accept\", \"content\": {\"env\": \"prod\", \"replicas\": 40}}\n\
        not json\n\
        {\"action\": \"maybe\"}\n\
        {\"action\": \"accept\", \"content\": {\"env\": \"staging\", \"service\": \"api\"}}\n\
        {\"action\": \"decline\"}\n";
    let response = run(script, &deploy_form()).unwrap();
    assert_eq!(
        response.action,
        accepted(json!({"service": "api", "env": "staging", "replicas": 2, "notify": true}))
    );
}

#[test]
fn decline_and_cancel_are_sent_as_such() {
    let form = deploy_form();
    assert_eq!(
        run(r#"{"action": "decline"}"#, &form).unwrap().action,
        ElicitationAction::Decline
    );
    assert_eq!(
        run(r#"{"action": "cancel"}"#, &form).unwrap().action,
        ElicitationAction::Cancel
    );
}

#[test]
fn the_end_of_input_cancels() {
    assert_eq!(
        run("", &deploy_form()).unwrap().action,
        ElicitationAction::Cancel
    );
    // Also after a rejected answer, and for every further request.
    let form = deploy_form();
    let mut renderer =
        Renderer::script(&b"{\"action\": \"accept\", \"content\": {\"env\": \"x\"}}\n"[..]);
    for _ in 0..2 {
        let response = answer(&mut renderer, "the test agent", &form).unwrap();
        assert_eq!(response.action, ElicitationAction::Cancel);
    }
    let url = url_request("https://deploy.example.com/connect");
    let response = answer(&mut renderer, "the test agent", &url).unwrap();
    assert_eq!(response.action, ElicitationAction::Cancel);
}

#[test]
fn answers_are_read_in_the_order_the_requests_arrive() {
    let mut renderer = Renderer::script(
        &b"{\"action\": \"accept\", \"content\": {\"env\": \"staging\"}}\n\
           {\"action\": \"accept\", \"content\": {\"ignored\": true}}\n"[..],
    );
    let form = answer(&mut renderer, "a", &deploy_form()).unwrap();
    assert!(matches!(form.action, ElicitationAction::Accept { .. }));
    let incoming = url_request("https://deploy.example.com/connect");
    let url = answer(&mut renderer, "a", &incoming).unwrap();
    // A consent carries no content.
    assert_eq!(url.action, ElicitationAction::Accept { content: None });
    assert!(!renderer.open_accepted(&incoming, &url));
}

#[test]
fn too_many_invalid_answers_give_up_without_sending_any() {
    let error = run(
        "{\"action\": \"accept\", \"content\": {\"env\": \"a\"}}\n\
         {\"action\": \"accept\", \"content\": {\"env\": \"b\"}}\n\
         {\"action\": \"accept\", \"content\": {\"env\": \"c\"}}\n\
         {\"action\": \"accept\", \"content\": {\"env\": \"staging\"}}\n",
        &deploy_form(),
    )
    .unwrap_err();
    assert_eq!(MAX_RENDER_ATTEMPTS, 3);
    assert_eq!(error.code, -32603); // Internal error
    assert!(error.message.contains("got `c`"), "{}", error.message);
}

#[test]
fn consent_to_a_refused_url_is_not_sent() {
    // Plain http off this machine: refused by the URL policy.
    let incoming = url_request("http://deploy.example.com/connect");
    let Incoming::Url(request) = &incoming else {
        panic!("a URL request");
    };
    assert!(request.review().verdict().is_refused());
    let response = run(
        "{\"action\": \"accept\"}\n{\"action\": \"decline\"}\n",
        &incoming,
    )
    .unwrap();
    assert_eq!(response.action, ElicitationAction::Decline);
    // Consent every time: answered with an error, never with `accept`.
    let error = run(
        "{\"action\": \"accept\"}\n{\"action\": \"accept\"}\n{\"action\": \"accept\"}\n",
        &incoming,
    )
    .unwrap_err();
    assert_eq!(error.code, -32603); // Internal error
}

#[test]
fn consent_to_an_allowed_url_is_accepted_but_not_opened() {
    let incoming = url_request("https://deploy.example.com/connect");
    let response = run(r#"{"action": "accept"}"#, &incoming).unwrap();
    assert_eq!(response.action, ElicitationAction::Accept { content: None });
    assert_eq!(
        run(r#"{"action": "cancel"}"#, &incoming).unwrap().action,
        ElicitationAction::Cancel
    );
}

#[test]
fn a_renderer_can_move_to_the_thread_that_answers() {
    fn send<T: Send>() {}
    send::<Renderer>();
}
