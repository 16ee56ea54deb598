//! `ClientConnection::receive_value` (the client's guard for
//! `elicitation/create`), `on_complete` and `forget` on a sequence of
//! arbitrary requests and notifications, against a model of the
//! connection's outstanding URL ids.
//!
//! Checked on every input: no panic; every refusal is a `-32602` error with
//! a message; the verdict is the documented one: params that do not parse
//! are refused; an unknown or unadvertised mode is refused with
//! `data: {"mode": ..}`; a URL request whose id is outstanding, or beyond
//! `MAX_PENDING_URLS`, is refused; anything else is accepted, as exactly the
//! request that was read (a URL request with the review of its URL). An
//! accepted request round-trips through its JSON. `is_pending`, completions
//! and `forget` agree with the model, so the outstanding ids never exceed
//! `MAX_PENDING_URLS`.
#![no_main]

use std::collections::HashSet;

use arbitrary::{Result, Unstructured};
use elicit_core::protocol::client::ClientConnection;
#[path = "../../tests/it/common/limits.rs"]
mod limits;
use limits::MAX_PENDING_URLS;
use elicit_core::protocol::client::{Completion, Incoming};
use elicit_core::protocol::url::UrlReview;
use elicit_core::protocol::{
    CompleteElicitationNotification, CreateElicitationRequest, ElicitationCapabilities,
    ElicitationId, ElicitationMode, ElicitationScope, INVALID_PARAMS, JsonRpcError, Mode,
};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

struct Model {
    connection: ClientConnection,
    caps: ElicitationCapabilities,
    pending: HashSet<ElicitationId>,
    /// Ids `flood` used so far: a later flood takes fresh ones.
    flooded: usize,
}

fuzz_target!(|data: &[u8]| {
    // A first byte 0: the rest is the JSON text of one request's params (or
    // of a whole JSON-RPC request), for a client advertising both modes.
    if let Some((0, rest)) = data.split_first() {
        if let Ok(mut value) = serde_json::from_slice::<Value>(rest) {
            if let Some(params) = value.get_mut("params") {
                value = params.take();
            }
            let caps = ElicitationCapabilities::form_and_url();
            let mut model = Model {
                connection: ClientConnection::new(Some(caps.clone())),
                caps,
                pending: HashSet::new(),
                flooded: 0,
            };
            receive(&mut model, value);
        }
        return;
    }
    let mut u = Unstructured::new(data);
    let _ = run(&mut u);
});

fn run(u: &mut Unstructured<'_>) -> Result<()> {
    let caps = match u.int_in_range(0..=4)? {
        0 => None,
        1 => Some(ElicitationCapabilities::form_only()),
        2 => Some(ElicitationCapabilities::url_only()),
        3 => Some(ElicitationCapabilities::form_and_url()),
        _ => Some(ElicitationCapabilities::none()),
    };
    let mut model = Model {
        connection: ClientConnection::new(caps.clone()),
        caps: caps.unwrap_or_else(ElicitationCapabilities::none),
        pending: HashSet::new(),
        flooded: 0,
    };
    for _ in 0..u.int_in_range(1..=8)? {
        match u.int_in_range(0..=255)? {
            0..=159 => {
                let params = elicit_fuzz::request_params(u)?;
                receive(&mut model, params);
            }
            160..=207 => {
                let id = ElicitationId::new(*u.choose(elicit_fuzz::IDS)?);
                let completion = model
                    .connection
                    .on_complete(&CompleteElicitationNotification::new(id.clone()));
                if model.pending.remove(&id) {
                    assert_eq!(completion, Completion::Completed(id));
                } else {
                    assert!(completion.is_ignored(), "{id}: {completion:?}");
                }
            }
            208..=254 => {
                let id = ElicitationId::new(*u.choose(elicit_fuzz::IDS)?);
                assert_eq!(model.connection.forget(&id), model.pending.remove(&id));
            }
            _ => flood(&mut model),
        }
        for id in elicit_fuzz::IDS {
            let id = ElicitationId::new(*id);
            assert_eq!(
                model.connection.is_pending(&id),
                model.pending.contains(&id),
                "{id}"
            );
        }
        assert!(model.pending.len() <= MAX_PENDING_URLS);
    }
    Ok(())
}

/// URL requests with fresh ids until the limit refuses one (the cheap way:
/// typed requests through `receive`, the verdict checked; the JSON path is
/// the same guard after parsing).
fn flood(model: &mut Model) {
    loop {
        let i = model.flooded;
        model.flooded += 1;
        let id = ElicitationId::new(format!("flood-{i}"));
        // A URL the review refuses at once: the guard accepts the request
        // all the same (the user is shown the refusal).
        let request =
            CreateElicitationRequest::url(ElicitationScope::session("s"), "m", id.clone(), "x");
        let accepted = model.connection.receive(request).is_ok();
        let expected = model.caps.supports(Mode::Url) && model.pending.len() < MAX_PENDING_URLS;
        assert_eq!(accepted, expected, "flood request {i}");
        if !accepted {
            break;
        }
        model.pending.insert(id);
    }
}

fn assert_refusal(error: &JsonRpcError) {
    assert_eq!(error.code, INVALID_PARAMS, "{error:?}");
    assert!(!error.message.is_empty());
}

fn receive(model: &mut Model, params: Value) {
    let parsed = serde_json::from_value::<CreateElicitationRequest>(params.clone());
    let verdict = model.connection.receive_value(params.clone());
    let request = match parsed {
        Err(_) => {
            let error = verdict
                .err()
                .unwrap_or_else(|| panic!("params that do not parse were accepted: {params}"));
            assert_refusal(&error);
            return;
        }
        Ok(request) => request,
    };
    // What we read, we write and read back the same.
    let written = serde_json::to_value(&request).expect("a request serializes");
    let again: CreateElicitationRequest = serde_json::from_value(written.clone())
        .unwrap_or_else(|e| panic!("our own output {written} does not parse: {e}"));
    assert_eq!(again, request, "round trip through {written}");

    let Some(mode) = request.mode.known() else {
        let error = verdict.expect_err("an unknown mode was accepted");
        assert_refusal(&error);
        assert_eq!(error, JsonRpcError::unadvertised_mode(request.mode.name()));
        return;
    };
    if !model.caps.supports(mode) {
        let error = verdict.expect_err("an unadvertised mode was accepted");
        assert_refusal(&error);
        assert_eq!(error, JsonRpcError::unadvertised_mode(mode.as_str()));
        return;
    }
    let check_scope = |scope: &ElicitationScope| assert_eq!(scope, &request.scope);
    match (&request.mode, verdict) {
        // A form is shown exactly when its schema checks (every property
        // has a control); otherwise it is refused, `data.notRenderable`
        // saying why.
        (ElicitationMode::Form { requested_schema }, Ok(Incoming::Form(form))) => {
            assert!(
                requested_schema.check().is_ok(),
                "an unrenderable form was accepted"
            );
            check_scope(form.scope());
            assert_eq!(form.message(), request.message);
            assert_eq!(form.schema(), requested_schema);
            assert_eq!(form.meta(), request.meta.as_ref());
            let initial = form.initial_content();
            let _ = form.validate(&initial);
        }
        (ElicitationMode::Form { requested_schema }, Err(error)) => {
            assert!(
                requested_schema.check().is_err(),
                "a renderable form was refused: {error:?}"
            );
            assert_refusal(&error);
            assert!(
                error
                    .data
                    .as_ref()
                    .is_some_and(|data| data["notRenderable"].is_array())
            );
        }
        (
            ElicitationMode::Url {
                elicitation_id,
                url,
            },
            verdict,
        ) => {
            let expect_refusal =
                model.pending.contains(elicitation_id) || model.pending.len() >= MAX_PENDING_URLS;
            match verdict {
                Ok(Incoming::Url(incoming)) => {
                    assert!(
                        !expect_refusal,
                        "{elicitation_id}: accepted beyond the guard"
                    );
                    check_scope(incoming.scope());
                    assert_eq!(incoming.message(), request.message);
                    assert_eq!(incoming.id(), elicitation_id);
                    assert_eq!(incoming.url(), url);
                    assert_eq!(incoming.review(), &UrlReview::new(url));
                    assert_eq!(incoming.meta(), request.meta.as_ref());
                    // Consent is given exactly when the review allows it.
                    assert_eq!(
                        incoming.consent().is_ok(),
                        !incoming.review().verdict().is_refused()
                    );
                    model.pending.insert(elicitation_id.clone());
                }
                Err(error) => {
                    assert!(expect_refusal, "{elicitation_id}: refused: {error:?}");
                    assert_refusal(&error);
                }
                Ok(other) => panic!("a URL request became {other:?}"),
            }
        }
        (mode, verdict) => panic!("{mode:?} (advertised) gave {verdict:?}"),
    }
}
