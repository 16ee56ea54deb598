// The README's ACP agent ("An ACP agent that asks a form", with its
// imports, unchanged) with the one mistake it warns about: awaiting an
// elicitation on the SDK's connection inside the `session/prompt` handler,
// which would hang the connection. One error, naming the fix; no E0599
// (method not found) and no cascade. tests/it/acp_sdk.rs checks that the
// imports here are the README's.
use agent_client_protocol::v1::ConnectionTo;
use agent_client_protocol::v1::schema::{
    ContentBlock, ContentChunk, InitializeRequest, InitializeResponse, NewSessionRequest,
    NewSessionResponse, PromptRequest, PromptResponse, SessionNotification, SessionUpdate,
    StopReason,
};
use agent_client_protocol::{Agent, Client, ConnectTo, on_receive_request};
// AgentElicitations, ElicitError, ElicitationScope, Outcome, Elicit, ...
use elicit_core::acp::sdk::prelude::*;

/// How to deploy.
#[derive(Elicit)]
struct Deploy {
    /// How many instances to run.
    #[elicit(range(min = 1, max = 16), default = 2)]
    replicas: u8,
}

/// Serves one client on `transport` (the example's `main` passes stdio).
async fn serve(
    transport: impl ConnectTo<Agent> + 'static,
) -> Result<(), agent_client_protocol::Error> {
    // One per client connection; every handler gets a clone.
    let elicitations = AgentElicitations::new();
    let on_initialize = elicitations.clone();
    let agent = Agent
        .v1()
        .name("minimal-agent")
        .on_receive_request(
            async move |request: InitializeRequest, responder, _cx| {
                // The client's capabilities decide which modes may be sent.
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
                // The turn waits for the client's answer, so it runs as a task
                // of its own: this handler returns at once, and the turn
                // answers the prompt when it is done.
                // The mistake: asking inside the handler, on the SDK's
                // connection, instead of in a task of `elicitations.spawn`.
                let scope = ElicitationScope::session(prompt.session_id.to_string());
                let asked = cx.elicit_form::<Deploy>(scope, "How many replicas?");
                let reply = match asked.retry(2).await {
                    Ok(Outcome::Accepted(deploy)) => {
                        format!("Deploying {} replicas.", deploy.replicas)
                    }
                    Ok(_) => "Not deploying.".to_owned(), // declined or cancelled
                    Err(ElicitError::NotSent(reason)) => format!("I can't ask: {reason}"),
                    Err(error) => {
                        eprintln!("the elicitation failed: {error:?}");
                        format!("Something went wrong: {error}")
                    }
                };
                let text = ContentChunk::new(ContentBlock::from(format!("{reply}\n")));
                cx.send_notification(SessionNotification::new(
                    prompt.session_id,
                    SessionUpdate::AgentMessageChunk(text),
                ))?;
                responder.respond(PromptResponse::new(StopReason::EndTurn))
            },
            on_receive_request!(),
        );
    agent.connect_to(transport).await
}

fn main() -> Result<(), agent_client_protocol::Error> {
    futures::executor::block_on(serve(agent_client_protocol::Stdio::new()))
}
