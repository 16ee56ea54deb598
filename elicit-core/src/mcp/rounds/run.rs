//! How a request's rounds run ([`Ask::run`](super::Ask::run)): the
//! regime its peer and the server's configuration call for, the state
//! opened and used once, the closure run, and how the call ends.

use std::future::Future;
use std::sync::Mutex;

use ::rmcp::RoleServer;
use ::rmcp::model::ErrorData;
use ::rmcp::service::RequestContext;

use super::super::carrier::elicitation_capabilities;
use super::call::{Asked, asked_nothing};
use super::config::RoundsConfig;
use super::handle::{Regime, Rounds};
use super::input::InputRound;
use super::request::{RoundRequest, RoundResponse};
use super::sessionless::Sessionless;
use super::state::{self, State, associated_data};
use super::task::Requests;
use crate::protocol::agent::AgentConnection;
use crate::sync::lock;

/// [`Ask::run`]: the rounds of `request`, in their span.
pub(super) async fn run<T, R: RoundResponse, F: Future<Output = Option<T>>>(
    context: &RequestContext<RoleServer>,
    request: RoundRequest,
    config: &RoundsConfig,
    questions: impl FnMut(Rounds) -> F,
) -> Result<Asked<T, R>, ErrorData> {
    let span = span!(
        "rounds",
        transport = "mcp",
        protocol_version = context
            .protocol_version()
            .map(|version| version.to_string())
            .unwrap_or_default(),
        method = request.method,
        name = request.logged_name();
        regime,
        round
    );
    in_span!(span, asked(context, request, config, questions)).await
}

/// [`run`], in its span.
async fn asked<T, R: RoundResponse, F: Future<Output = Option<T>>>(
    context: &RequestContext<RoleServer>,
    mut request: RoundRequest,
    config: &RoundsConfig,
    mut questions: impl FnMut(Rounds) -> F,
) -> Result<Asked<T, R>, ErrorData> {
    let capabilities = context.client_capabilities();
    let principal = (config.principal)(context);
    let modern = context
        .protocol_version()
        .is_some_and(|version| !version.has_initialize());
    if modern {
        record!(regime = "input_rounds");
        let bound = associated_data(&principal, &request);
        let state = match &request.request_state {
            Some(sealed) => {
                let state = State::open(&config.codec, sealed, &bound)?;
                state.use_once(&*config.used).await?;
                state
            }
            None => State::new(),
        };
        record!(round = state.round + 1);
        // The first round carries no answers (no `requestState`).
        note!(
            "call",
            round = state.round + 1,
            answers = request.request_state.is_some()
        );
        let round = InputRound::new(capabilities.as_ref(), state, &request);
        let arguments = request.raw_arguments.take();
        let rounds = Rounds::new(principal, Regime::Input(Mutex::new(round)), arguments);
        if let Some(answers) = questions(rounds.clone()).await {
            return Ok(Asked::Answered(answers));
        }
        let Regime::Input(round) = &rounds.call.regime else {
            unreachable!("made as input-required rounds above")
        };
        let round = std::mem::take(&mut *lock(round));
        return round.respond(config, &bound);
    }
    if let Some(key) = &config.without_sessions {
        record!(regime = "sessionless");
        let call = Sessionless::new(
            capabilities.as_ref(),
            state::call_key(key, &associated_data(&principal, &request)),
        );
        let arguments = request.raw_arguments.take();
        let rounds = Rounds::new(principal, Regime::Sessionless(Mutex::new(call)), arguments);
        if let Some(answers) = questions(rounds.clone()).await {
            return Ok(Asked::Answered(answers));
        }
        let Regime::Sessionless(call) = &rounds.call.regime else {
            unreachable!("made without a session above")
        };
        note!("-32042: pages to complete first");
        return Err(std::mem::take(&mut lock(call).required).into_error());
    }
    record!(regime = "requests");
    let connection = AgentConnection::new(elicitation_capabilities(capabilities.as_ref()));
    let rounds = Rounds::new(
        principal,
        Regime::Requests {
            via: Requests::Session(context.peer.clone()),
            connection: Mutex::new(connection),
        },
        request.raw_arguments.take(),
    );
    match questions(rounds).await {
        Some(answers) => Ok(Asked::Answered(answers)),
        None => {
            refused!(Internal, step = "asked nothing");
            Err(asked_nothing())
        }
    }
}
