//! How a tool call's state is kept between rounds: the sealing key, the
//! TTL, the cap on rounds, who the request is from, the used-state store.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use ::rmcp::RoleServer;
use ::rmcp::model::RequestStateCodec;
use ::rmcp::service::RequestContext;

use super::used::{DynUsedStates, MemoryUsedStates, UsedStates};
/// How long a sealed `requestState` is accepted unless told otherwise: 10
/// minutes.
pub(crate) const DEFAULT_STATE_TTL: Duration = Duration::from_secs(10 * 60);
/// How many input-required rounds one tool call may take unless told
/// otherwise. rmcp's client stops after 9 such answers and the TypeScript
/// client after 10, so 8 leaves the tool the last word.
pub(crate) const DEFAULT_MAX_ROUNDS: u32 = 8;

/// How [`ask`](super::ask) keeps a tool call's state between rounds on a
/// 2026-07-28 peer: sealed into `requestState` (HMAC-SHA256 with rmcp's
/// `RequestStateCodec`, with a TTL), bound to the user and to the request.
///
/// The state holds the round number, the attempts per key and the answers
/// of earlier rounds (the user's own answers: signed, not encrypted, so
/// never put a secret in a form; forms cannot hold one anyway).
///
/// **Keys.** [`RoundsConfig::with_random_key`] draws a key from the OS RNG
/// for this process: right for a stdio server, where one process serves
/// every round. Several processes behind one URL need the same keys:
/// [`RoundsConfig::new`] with `RequestStateCodec::new_with_keyring(active,
/// keys)`, the keys (32 bytes or more each) from your secret store. A
/// restarted server with the same keys accepts the states it sealed before.
///
/// **Rotation.** Add the new key (a new key id) to every replica's keyring,
/// then make it the active one everywhere, then remove the old key once
/// the TTL has passed: a state sealed with the old key stays readable
/// until it expires anyway.
///
/// **Single use.** Each state carries a random id; the call that opens it
/// records the id in [`UsedStates`] ([`MemoryUsedStates`] unless told
/// otherwise: [`RoundsConfig::used_states`]), and any later call with the
/// same state is refused like a forged one. So a completed call cannot be
/// replayed, nor an earlier round answered again, and of two concurrent
/// calls with one state at most one goes on. Ids are remembered until
/// their state expires, no longer. Clones of a config share the store:
/// build the config once and keep it. Several replicas need a store they
/// share, as they need the same keys.
#[derive(Clone)]
pub struct RoundsConfig {
    pub(super) codec: RequestStateCodec,
    pub(super) ttl: Duration,
    pub(super) max_rounds: u32,
    pub(super) principal: Principal,
    pub(super) used: Arc<dyn DynUsedStates>,
    /// The key that names a sessionless 2025-11-25 call's pages, if the
    /// server has no sessions ([`RoundsConfig::without_sessions`]).
    pub(super) without_sessions: Option<Arc<zeroize::Zeroizing<[u8; 32]>>>,
}

/// Who a request is from: [`RoundsConfig::principal`].
pub(super) type Principal = Arc<dyn Fn(&RequestContext<RoleServer>) -> String + Send + Sync>;

impl fmt::Debug for RoundsConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RoundsConfig")
            .field("ttl", &self.ttl)
            .field("max_rounds", &self.max_rounds)
            .finish_non_exhaustive()
    }
}

impl RoundsConfig {
    /// Seals with `codec`.
    pub fn new(codec: RequestStateCodec) -> Self {
        Self {
            codec,
            ttl: DEFAULT_STATE_TTL,
            max_rounds: DEFAULT_MAX_ROUNDS,
            principal: Arc::new(|_| String::new()),
            used: Arc::new(MemoryUsedStates::new()),
            without_sessions: None,
        }
    }

    /// Seals with a 256-bit key drawn from the OS RNG: states this process
    /// sealed open only in this process.
    ///
    /// # Errors
    ///
    /// The OS RNG's.
    pub fn with_random_key() -> Result<Self, getrandom::Error> {
        let mut key = zeroize::Zeroizing::new([0u8; 32]);
        getrandom::fill(key.as_mut())?;
        let codec = RequestStateCodec::try_new(key.to_vec())
            .expect("32 bytes is RequestStateCodec::MIN_KEY_LENGTH");
        Ok(Self::new(codec))
    }

    /// How long a sealed state is accepted (default: 10 minutes).
    #[must_use]
    pub fn ttl(mut self, ttl: Duration) -> Self {
        self.ttl = ttl;
        self
    }

    /// How many input-required rounds one call may take (default: 8);
    /// then the tool call ends with a tool error.
    #[must_use]
    pub fn max_rounds(mut self, max: u32) -> Self {
        self.max_rounds = max;
        self
    }

    /// Who the request is from, as your server's authentication knows it
    /// (an HTTP server: from the request's extensions). A state sealed for
    /// one principal does not open for another, and on pages that verify
    /// users ([`Pages::hosted`](crate::sensitive::Pages::hosted), feature
    /// `sensitive`), a page [`Rounds::secret`](super::Rounds::secret) opens is for this principal
    /// (as a verified user): served to them only, as the protocol requires.
    /// Default: the empty string, right for stdio, where the process serves
    /// one user.
    #[must_use]
    pub fn principal(
        mut self,
        principal: impl Fn(&RequestContext<RoleServer>) -> String + Send + Sync + 'static,
    ) -> Self {
        self.principal = Arc::new(principal);
        self
    }

    /// For a server whose MCP 2025-11-25 calls have no session to send
    /// requests on (stateless Streamable HTTP behind a balancer). There a
    /// sensitive form ([`Rounds::secret`](super::Rounds::secret), feature `sensitive`) ends the
    /// call with `-32042` (URL elicitation required), its page in
    /// `data.elicitations`; the client lets the user complete the page and
    /// retries the call, on any replica, which reads the answer (pages in a
    /// store the replicas share). The page of a call is named by an
    /// HMAC-SHA256 under `key` (32 bytes from your secret store, the same on
    /// every replica) of the user ([`principal`](Self::principal)), the
    /// tool and its arguments, so the retry finds it; once read, it is
    /// forgotten, and the same call later opens a new page. Such pages must
    /// verify users ([`Pages::hosted`](crate::sensitive::Pages::hosted)):
    /// otherwise the call is refused (`OpenError::NoVerifier`). Forms and plain
    /// URL requests need a session: in such a call they are refused
    /// ([`SendError::NoSession`](crate::protocol::agent::SendError::NoSession)).
    /// Such a call usually knows nothing of the client's `initialize`: its
    /// URL mode is then assumed (a client without it fails the call with the
    /// error). MCP 2026-07-28 calls are not affected.
    #[must_use]
    pub fn without_sessions(mut self, key: [u8; 32]) -> Self {
        self.without_sessions = Some(Arc::new(zeroize::Zeroizing::new(key)));
        self
    }

    /// Where used states are remembered (default: a [`MemoryUsedStates`] of
    /// this config and its clones). Several replicas behind one URL need one
    /// they share, or a state used on one replica can be used again on
    /// another.
    #[must_use]
    pub fn used_states(mut self, used: impl UsedStates) -> Self {
        self.used = Arc::new(used);
        self
    }
}
