//! What a call's regimes share: how the call ends ([`Asked`], or the
//! closure's mistake), and the lock of a regime's state.

use std::sync::{Mutex, MutexGuard, PoisonError};

use ::rmcp::model::{CallToolResponse, ErrorData};

/// What [`ask`](super::ask) gives the tool: the answers, or the response that ends
/// this call.
#[derive(Debug)]
#[must_use = "an input-required round must be returned as the tool's response"]
// Matched once, right where it is returned: boxing the response would only
// make every caller write `*response`.
#[allow(clippy::large_enum_variant)]
pub enum Asked<T> {
    /// Every question is answered: what the closure returned. Do the
    /// tool's work and return its result.
    Answered(T),
    /// Return this as the tool's response: an input-required round (MCP
    /// 2026-07-28), or the tool error that ends a call that took more than
    /// [`RoundsConfig::max_rounds`](super::RoundsConfig::max_rounds) rounds.
    Respond(CallToolResponse),
}

/// A lock that nothing panics under (plain bookkeeping), so a poisoned one
/// still holds a consistent state.
pub(super) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The closure returned `None` without a question that ends the call.
pub(super) fn asked_nothing() -> ErrorData {
    ErrorData::internal_error(
        "the tool's closure returned None without asking anything",
        None,
    )
}
