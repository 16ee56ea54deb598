//! A user's ACP agent: the README's agent, asking for the `Flight` form.
//! tests/user-crates/check.py reads what it writes on stdout.

use agent_client_protocol::v1::ConnectionTo;
use agent_client_protocol::v1::schema::{
    ContentBlock, ContentChunk, InitializeRequest, InitializeResponse, NewSessionRequest,
    NewSessionResponse, PromptRequest, PromptResponse, SessionNotification, SessionUpdate,
    StopReason,
};
use agent_client_protocol::{Agent, Client, ConnectTo, on_receive_request};
use elicit_core::acp::sdk::AgentElicitations;
use elicit_core::protocol::ElicitationScope;
use elicit_core::protocol::agent::Outcome;

#[path = "../../flight.rs"]
mod flight;
use flight::{Flight, booked};

async fn serve(
    transport: impl ConnectTo<Agent> + 'static,
) -> Result<(), agent_client_protocol::Error> {
    let elicitations = AgentElicitations::new();
    let on_initialize = elicitations.clone();
    let agent = Agent
        .v1()
        .name("user-acp-agent")
        .on_receive_request(
            async move |request: InitializeRequest, responder, _cx| {
                on_initialize.initialize(&request);
                responder.respond(InitializeResponse::new(request.protocol_version))
            },
            on_receive_request!(),
        )
        .on_receive_request(
            async move |_: NewSessionRequest, responder, _cx| {
                responder.respond(NewSessionResponse::new("session-1"))
            },
            on_receive_request!(),
        )
        .on_receive_request(
            async move |prompt: PromptRequest, responder, cx: ConnectionTo<Client>| {
                elicitations.spawn(&cx, async move |elicitor| {
                    let scope = ElicitationScope::session(prompt.session_id.to_string());
                    // Asked again once when the form's own rule refuses it.
                    let asked = elicitor.elicit_form::<Flight>(scope, "Where to?").retry(1);
                    let reply = match asked.await {
                        Ok(Outcome::Accepted(flight)) => booked(&flight),
                        Ok(_) => "Not booked.".to_owned(),
                        Err(error) => format!("Could not ask: {error}"),
                    };
                    let text = ContentChunk::new(ContentBlock::from(reply));
                    elicitor
                        .connection()
                        .send_notification(SessionNotification::new(
                            prompt.session_id,
                            SessionUpdate::AgentMessageChunk(text),
                        ))?;
                    responder.respond(PromptResponse::new(StopReason::EndTurn))
                })
            },
            on_receive_request!(),
        );
    agent.connect_to(transport).await
}

fn main() -> Result<(), agent_client_protocol::Error> {
    futures::executor::block_on(serve(agent_client_protocol::Stdio::new()))
}
