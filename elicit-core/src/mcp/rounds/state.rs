//! The state a tool call keeps between input-required rounds (MCP
//! 2026-07-28): what it holds, how it is sealed into `requestState`
//! (rmcp's `RequestStateCodec`, bound to the user and the request), opened,
//! and used once.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use ::rmcp::model::{ErrorData, RequestStateCodec, SealOptions};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::Sha256;

use super::request::RoundRequest;
use super::used::{DynUsedStates, StateId};

/// The one error a client gets for a `requestState` that does not open:
/// tampered, expired, sealed for another user or another request, with an
/// unknown key, or used before. The cause is never told to the client.
pub(crate) const INVALID_STATE_MESSAGE: &str = "Invalid or expired requestState";

/// The state sealed in `requestState`.
#[derive(Debug, Default, Clone, Serialize, Deserialize)]
pub(super) struct State {
    /// The format of this state.
    pub(super) v: u8,
    /// This sealing's id, for single use (a fresh one each round).
    pub(super) id: String,
    /// When this sealing expires, in milliseconds since the Unix epoch (a
    /// little after the seal's own expiry): how long its id is remembered.
    pub(super) exp: u64,
    /// How many rounds were asked.
    pub(super) round: u32,
    /// The keys the last round asked: only their answers are read.
    pub(super) asked: BTreeSet<String>,
    /// How many forms were sent per key.
    pub(super) attempts: BTreeMap<String, u32>,
    /// Answers of earlier rounds, per key, as the client sent them.
    pub(super) answers: BTreeMap<String, Value>,
    /// The fields a partial form (a tool's arguments) asks, per key, once
    /// a refused answer widened it past the arguments' own gaps.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(super) fields: BTreeMap<String, Vec<String>>,
    /// The sensitive pages opened, per key (their answers never travel in
    /// the state: the page's server holds them).
    #[cfg(feature = "sensitive")]
    #[serde(default)]
    pub(super) pages: BTreeMap<String, crate::sensitive::PageId>,
}

/// 2: with `id` and `exp` (format 1 had neither and is refused).
pub(super) const STATE_FORMAT: u8 = 2;

/// How long after the seal's expiry its id is still remembered: the seal's
/// clock starts a moment after `exp` is computed.
const REMEMBER_MARGIN: Duration = Duration::from_secs(1);

/// The one refusal of a state, whatever the cause.
fn refused_state() -> ErrorData {
    ErrorData::invalid_params(
        INVALID_STATE_MESSAGE,
        Some(serde_json::json!({"reason": "invalid_request_state"})),
    )
}

impl State {
    /// A first round's state.
    pub(super) fn new() -> Self {
        Self {
            v: STATE_FORMAT,
            ..Self::default()
        }
    }

    /// The state `sealed` holds, if its seal opens with `codec` for `bound`
    /// (the user and the request) within its TTL, in this format.
    pub(super) fn open(
        codec: &RequestStateCodec,
        sealed: &str,
        bound: &[u8],
    ) -> Result<Self, ErrorData> {
        let state: Self = codec.open_json_with(sealed, bound).map_err(|_| {
            refused!(InvalidState, problem = "does not open");
            refused_state()
        })?;
        if state.v != STATE_FORMAT || state.id.is_empty() {
            refused!(InvalidState, problem = "format");
            return Err(refused_state());
        }
        Ok(state)
    }

    /// This state sealed for `bound` with `codec`, good for `ttl`, under a
    /// fresh id (each round's state is used once).
    pub(super) fn seal(
        &mut self,
        codec: &RequestStateCodec,
        bound: &[u8],
        ttl: Duration,
    ) -> Result<String, ErrorData> {
        self.id = StateId::random()
            .map_err(|_| {
                refused!(Internal, step = "random");
                ErrorData::internal_error("the call could not continue: try again", None)
            })?
            .as_str()
            .to_owned();
        self.exp = millis_since_epoch(SystemTime::now() + ttl + REMEMBER_MARGIN);
        let options = SealOptions::new().associated_data(bound).ttl(ttl);
        codec.seal_json_with(self, &options).map_err(|_| {
            refused!(Internal, step = "seal");
            ErrorData::internal_error("the call could not continue: try again", None)
        })
    }
}

impl State {
    /// Records this opened state's use in `used`; refused (as a forged
    /// state is) when it was used before. A store that cannot record it
    /// fails the call closed.
    pub(super) async fn use_once(&self, used: &dyn DynUsedStates) -> Result<(), ErrorData> {
        let id = StateId::opened(self.id.clone());
        let expires_at = UNIX_EPOCH + Duration::from_millis(self.exp);
        match used.first_use(&id, expires_at).await {
            Ok(true) => Ok(()),
            Ok(false) => {
                refused!(Replay, round = self.round);
                Err(refused_state())
            }
            // The client gets a short, stable message; the cause goes to
            // the log (never the store's text: it may name a key).
            Err(error) => {
                if let super::used::UsedStatesError::Full { max } = &error {
                    refused!(UsedStatesFull, max = max);
                } else {
                    refused!(UsedStatesFailed, cause = error.cause());
                }
                Err(ErrorData::internal_error(
                    "the requestState could not be checked: try again",
                    None,
                ))
            }
        }
    }
}

fn millis_since_epoch(at: SystemTime) -> u64 {
    at.duration_since(UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or(0)
}

/// What a state is bound to: the user, the method, what it names (a
/// tool, a prompt, a resource) and its arguments' digest
/// ([`RoundRequest`]). Each part is length-prefixed, so no two requests
/// share one.
pub(super) fn associated_data(principal: &str, request: &RoundRequest) -> Vec<u8> {
    let arguments = request.arguments_digest();
    let mut out = Vec::new();
    for part in [
        b"elicit/mcp-rounds/v2".as_slice(),
        principal.as_bytes(),
        request.method.as_bytes(),
        request.name.as_bytes(),
        arguments.as_slice(),
    ] {
        out.extend_from_slice(&(part.len() as u64).to_be_bytes());
        out.extend_from_slice(part);
    }
    out
}

/// The key of a 2025-11-25 call without a session: an HMAC-SHA256 under the
/// server's key of the call's associated data (the user, the tool, its
/// arguments), the same on every replica and for every retry of the call.
pub(super) fn call_key(key: &[u8; 32], associated: &[u8]) -> [u8; 32] {
    use hmac::{KeyInit, Mac};
    let mut mac = hmac::Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes any key length");
    mac.update(associated);
    mac.finalize().into_bytes().into()
}

/// The page a call without a session asks under `ask_key`: 128 bits of an
/// HMAC-SHA256 under the call's key, unguessable without the server's key.
#[cfg(feature = "sensitive")]
pub(super) fn page_of_call(call: &[u8; 32], ask_key: &str) -> crate::sensitive::PageId {
    let full = call_key(call, ask_key.as_bytes());
    let mut id = [0u8; 16];
    id.copy_from_slice(&full[..16]);
    crate::sensitive::PageId::from_bytes(id)
}

/// The page of attempt `attempt` (from 1) at the sensitive form a call
/// without a session asks under `ask_key`: the first is
/// [`page_of_call`]'s, each later one named apart (a byte no key has,
/// `0xFF`, then the attempt), so a retry of the call finds the page of the
/// attempt it is at.
#[cfg(feature = "sensitive")]
pub(super) fn page_of_attempt(
    call: &[u8; 32],
    ask_key: &str,
    attempt: u32,
) -> crate::sensitive::PageId {
    if attempt <= 1 {
        return page_of_call(call, ask_key);
    }
    let mut named = ask_key.as_bytes().to_vec();
    named.push(0xFF);
    named.extend_from_slice(&attempt.to_be_bytes());
    let full = call_key(call, &named);
    let mut id = [0u8; 16];
    id.copy_from_slice(&full[..16]);
    crate::sensitive::PageId::from_bytes(id)
}
