//! What a call's regimes share: how the call ends ([`Asked`], or the
//! closure's mistake).

use ::rmcp::model::{CallToolResponse, ErrorData};

/// What [`ask`](super::ask) and [`Ask::run`](super::Ask::run) give the
/// handler: the answers, or the response that ends this call (`R`: a
/// tool's [`CallToolResponse`], a prompt's `GetPromptResponse`, a
/// resource's `ReadResourceResponse`).
#[derive(Debug)]
#[must_use = "an input-required round must be returned as the tool's response"]
// Matched once, right where it is returned: boxing the response would only
// make every caller write `*response`.
#[allow(clippy::large_enum_variant)]
pub enum Asked<T, R = CallToolResponse> {
    /// Every question is answered: what the closure returned. Do the
    /// tool's work and return its result.
    Answered(T),
    /// Return this as the handler's response: an input-required round (MCP
    /// 2026-07-28), or, for a tool, the tool error that ends a call that
    /// took more than
    /// [`RoundsConfig::max_rounds`](super::RoundsConfig::max_rounds) rounds.
    Respond(R),
}

/// The closure returned `None` without a question that ends the call.
pub(super) fn asked_nothing() -> ErrorData {
    ErrorData::internal_error(
        "the closure returned None without asking anything: return None only when a \
         question gave None (`?` on it), and Some(answers) otherwise",
        None,
    )
}
