// The pattern that used to compile and then hang: awaiting an elicitation
// on the SDK's connection inside a request handler.
use agent_client_protocol::v1::ConnectionTo;
use agent_client_protocol::v1::schema::{PromptRequest, PromptResponse, StopReason};
use agent_client_protocol::{Agent, Client, on_receive_request};
use elicit_core::acp::sdk::{AgentElicitations, ElicitClient};
use elicit_core::protocol::ElicitationScope;
use elicit_core::Elicit;

#[derive(Elicit)]
struct Deploy {
    replicas: u8,
}

fn main() {
    let elicitations = AgentElicitations::new();
    let _agent = Agent.v1().on_receive_request(
        async move |prompt: PromptRequest, responder, cx: ConnectionTo<Client>| {
            let scope = ElicitationScope::session(prompt.session_id.to_string());
            let _ = cx
                .elicit_form::<Deploy>(&elicitations, scope, "How many replicas?")
                .retry(2)
                .await;
            responder.respond(PromptResponse::new(StopReason::EndTurn))
        },
        on_receive_request!(),
    );
}
