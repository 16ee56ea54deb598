//! Which sealed `requestState`s were used: the [`UsedStates`] seam and its
//! in-memory default. A state is good for one call: [`ask`] records
//! each state it opens here, and refuses one that was recorded before.
//!
//! [`ask`]: super::ask

use std::collections::{BTreeSet, HashMap};
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Mutex, PoisonError};
use std::time::SystemTime;

/// The id a sealed `requestState` carries: 128 random bits, drawn when it is
/// sealed. Plain text (32 hex digits), so a shared store keys on it as it is.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StateId(String);

impl StateId {
    /// A fresh id from the OS RNG.
    pub(super) fn random() -> Result<Self, getrandom::Error> {
        let mut bytes = [0u8; 16];
        getrandom::fill(&mut bytes)?;
        Ok(Self(bytes.iter().map(|b| format!("{b:02x}")).collect()))
    }

    /// The id read back from an opened state (authenticated by its seal).
    pub(super) fn opened(id: String) -> Self {
        Self(id)
    }

    /// The id as text: 32 lowercase hex digits.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// An id as [`StateId::as_str`] writes it (32 lowercase hex digits), for a
/// store that reads its ids back.
impl std::str::FromStr for StateId {
    type Err = BadStateId;

    fn from_str(text: &str) -> Result<Self, BadStateId> {
        let hex = |c: char| c.is_ascii_digit() || ('a'..='f').contains(&c);
        if text.len() == 32 && text.chars().all(hex) {
            Ok(Self(text.to_owned()))
        } else {
            Err(BadStateId)
        }
    }
}

/// Text that is not a [`StateId`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadStateId;
impl std::fmt::Display for BadStateId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self => f.write_str("a requestState id is 32 lowercase hex digits"),
        }
    }
}

impl std::error::Error for BadStateId {}

impl fmt::Debug for StateId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "StateId({})", self.0)
    }
}

impl fmt::Display for StateId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A [`UsedStates`] store could not record a use. The call is refused (it
/// fails closed): the client gets `-32603`, never the tool's work.
#[derive(Debug)]
#[non_exhaustive]
pub enum UsedStatesError {
    /// The store holds as many unexpired uses as it may.
    Full {
        /// The cap.
        max: usize,
    },
    /// The use was not acknowledged by the replicas a store shared by
    /// several replicas asks for: it did not count, and the same state may
    /// be used again.
    NotReplicated,
    /// The store's own failure (a shared store's connection, say).
    Backend(Box<dyn std::error::Error + Send + Sync>),
}

impl UsedStatesError {
    /// Why the use was not recorded, for its event's `cause` field (never
    /// the error's text): `full`, `not_replicated`, `redis_unreachable`,
    /// `redis_timeout`, `redis_failed`, or `backend` (a store of your own).
    pub(crate) fn cause(&self) -> &'static str {
        match self {
            Self::Full { .. } => "full",
            Self::NotReplicated => "not_replicated",
            Self::Backend(error) => crate::cause::cause_of(&**error),
        }
    }
}

impl std::fmt::Display for UsedStatesError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Full { max } => write!(
                f,
                "{max} used requestStates are remembered already: calls with a state are refused until \
         some expire (raise the cap with `MemoryUsedStates::with_capacity`, or shorten the TTL)"
            ),
            Self::NotReplicated => f.write_str(
                "used requestState store: its replicas did not acknowledge the use; it did not count",
            ),
            Self::Backend(e) => write!(f, "used requestState store: {e}"),
        }
    }
}

impl std::error::Error for UsedStatesError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Backend(e) => Some(&**e),
            _ => None,
        }
    }
}

/// Where the ids of used `requestState`s are remembered until they expire.
///
/// [`first_use`](Self::first_use) is one atomic step: of two calls with the
/// same id, exactly one is told it is the first. A store shared by several
/// replicas implements it with one conditional write (Redis:
/// `SET <id> 1 NX PXAT <expires_at>`; SQL: an `INSERT` on a primary key),
/// and then a state replayed on any replica is refused.
///
/// The method is async (implement it with `async fn`) and awaited by the
/// tool handler: it must never block its thread (use your backend's async
/// client, or run a blocking one with `tokio::task::spawn_blocking`), and
/// should give up after a bounded time with [`UsedStatesError::Backend`]:
/// the call then fails closed.
///
/// ```
/// use std::time::SystemTime;
/// use elicit_core::mcp::{MemoryUsedStates, StateId, UsedStates, UsedStatesError};
///
/// /// Used states elsewhere (here: the default, behind it).
/// struct Elsewhere(MemoryUsedStates);
///
/// impl UsedStates for Elsewhere {
///     async fn first_use(&self, id: &StateId, expires_at: SystemTime) -> Result<bool, UsedStatesError> {
///         self.0.first_use(id, expires_at).await
///     }
/// }
///
/// let config = elicit_core::mcp::RoundsConfig::with_random_key()?
///     .used_states(Elsewhere(MemoryUsedStates::new()));
/// # let _ = config;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait UsedStates: Send + Sync + 'static {
    /// Records that the state `id` is being used, to be remembered until
    /// `expires_at` (after which its seal no longer opens anyway). `true`
    /// when this is its first use, `false` when it was used before.
    fn first_use(
        &self,
        id: &StateId,
        expires_at: SystemTime,
    ) -> impl Future<Output = Result<bool, UsedStatesError>> + Send;
}

/// A shared store: the config holds one handle, you keep another (to watch
/// [`MemoryUsedStates::len`], say).
impl<T: UsedStates> UsedStates for std::sync::Arc<T> {
    fn first_use(
        &self,
        id: &StateId,
        expires_at: SystemTime,
    ) -> impl Future<Output = Result<bool, UsedStatesError>> + Send {
        (**self).first_use(id, expires_at)
    }
}

/// [`UsedStates`] behind a pointer: what [`RoundsConfig`](super::RoundsConfig)
/// holds.
pub(crate) trait DynUsedStates: Send + Sync + 'static {
    fn first_use<'a>(
        &'a self,
        id: &'a StateId,
        expires_at: SystemTime,
    ) -> Pin<Box<dyn Future<Output = Result<bool, UsedStatesError>> + Send + 'a>>;
}

impl<T: UsedStates> DynUsedStates for T {
    fn first_use<'a>(
        &'a self,
        id: &'a StateId,
        expires_at: SystemTime,
    ) -> Pin<Box<dyn Future<Output = Result<bool, UsedStatesError>> + Send + 'a>> {
        Box::pin(UsedStates::first_use(self, id, expires_at))
    }
}

/// The default [`UsedStates`]: the ids in this process's memory, each
/// forgotten once it expires, at most [`DEFAULT_CAPACITY`](Self::DEFAULT_CAPACITY)
/// at a time. Right for a server of one process (stdio); several replicas
/// need a store they share.
pub struct MemoryUsedStates {
    capacity: usize,
    inner: Mutex<Remembered>,
}

#[derive(Default)]
struct Remembered {
    by_id: HashMap<StateId, SystemTime>,
    /// The same entries, by expiry: what to forget first.
    by_expiry: BTreeSet<(SystemTime, StateId)>,
}

impl Remembered {
    fn forget_expired(&mut self, now: SystemTime) {
        while let Some(first) = self.by_expiry.first() {
            if first.0 > now {
                break;
            }
            let (_, id) = self.by_expiry.pop_first().expect("there is a first entry");
            self.by_id.remove(&id);
        }
    }
}

impl MemoryUsedStates {
    /// How many unexpired uses are remembered at most, unless told
    /// otherwise: 100,000 (a few MB), or about 160 calls a second with the
    /// default 10-minute TTL. Past it, calls with a state are refused
    /// ([`UsedStatesError::Full`]) until some expire.
    pub const DEFAULT_CAPACITY: usize = 100_000;

    /// An empty store with the default capacity.
    pub fn new() -> Self {
        Self::with_capacity(Self::DEFAULT_CAPACITY)
    }

    /// An empty store remembering at most `capacity` unexpired uses.
    pub fn with_capacity(capacity: usize) -> Self {
        Self {
            capacity,
            inner: Mutex::new(Remembered::default()),
        }
    }

    /// How many uses are remembered now (expired ones are forgotten first).
    pub fn len(&self) -> usize {
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        inner.forget_expired(SystemTime::now());
        inner.by_id.len()
    }

    /// Whether no use is remembered.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Default for MemoryUsedStates {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Debug for MemoryUsedStates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MemoryUsedStates")
            .field("capacity", &self.capacity)
            .field("len", &self.len())
            .finish()
    }
}

/// Ready at once: a map under a lock.
impl UsedStates for MemoryUsedStates {
    async fn first_use(
        &self,
        id: &StateId,
        expires_at: SystemTime,
    ) -> Result<bool, UsedStatesError> {
        // The data stays consistent at every step: a panic elsewhere while
        // the lock was held leaves nothing half-done.
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        let now = SystemTime::now();
        inner.forget_expired(now);
        if inner.by_id.contains_key(id) {
            return Ok(false);
        }
        if expires_at <= now {
            // Its seal no longer opens: nothing to remember.
            return Ok(true);
        }
        if inner.by_id.len() >= self.capacity {
            return Err(UsedStatesError::Full { max: self.capacity });
        }
        inner.by_id.insert(id.clone(), expires_at);
        inner.by_expiry.insert((expires_at, id.clone()));
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use std::future::Future;
    use std::time::SystemTime;

    use super::{MemoryUsedStates, StateId, UsedStates, UsedStatesError};

    /// The output of a future that is ready at once (the memory store's).
    fn now<F: Future>(future: F) -> F::Output {
        let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
        match std::pin::pin!(future).poll(&mut cx) {
            std::task::Poll::Ready(output) => output,
            std::task::Poll::Pending => panic!("the memory store's future is ready at once"),
        }
    }

    fn id(n: u8) -> StateId {
        StateId::opened(format!("{n:032x}"))
    }

    #[test]
    fn a_second_use_is_refused_until_it_expires_then_forgotten() {
        let store = MemoryUsedStates::new();
        let later = SystemTime::now() + Duration::from_secs(60);
        assert!(now(store.first_use(&id(1), later)).unwrap());
        assert!(!now(store.first_use(&id(1), later)).unwrap());
        assert!(now(store.first_use(&id(2), later)).unwrap());
        assert_eq!(store.len(), 2);

        let soon = SystemTime::now() + Duration::from_millis(20);
        assert!(now(store.first_use(&id(3), soon)).unwrap());
        assert_eq!(store.len(), 3);
        std::thread::sleep(Duration::from_millis(40));
        // Expired: forgotten (its seal would no longer open).
        assert_eq!(store.len(), 2);
    }

    #[test]
    fn a_full_store_refuses_until_some_expire() {
        let store = MemoryUsedStates::with_capacity(2);
        let later = SystemTime::now() + Duration::from_secs(60);
        let soon = SystemTime::now() + Duration::from_millis(20);
        assert!(now(store.first_use(&id(1), later)).unwrap());
        assert!(now(store.first_use(&id(2), soon)).unwrap());
        let full = now(store.first_use(&id(3), later)).unwrap_err();
        assert!(matches!(full, UsedStatesError::Full { max: 2 }), "{full:?}");
        // A used one is still told apart when full.
        assert!(!now(store.first_use(&id(1), later)).unwrap());
        std::thread::sleep(Duration::from_millis(40));
        assert!(now(store.first_use(&id(3), later)).unwrap());
    }

    #[test]
    fn of_concurrent_first_uses_exactly_one_wins() {
        let store = std::sync::Arc::new(MemoryUsedStates::new());
        let later = SystemTime::now() + Duration::from_secs(60);
        let winners: usize = (0..8)
            .map(|_| {
                let store = store.clone();
                std::thread::spawn(move || now(store.first_use(&id(7), later)).unwrap())
            })
            .collect::<Vec<_>>()
            .into_iter()
            .map(|t| usize::from(t.join().unwrap()))
            .sum();
        assert_eq!(winners, 1);
    }

    #[test]
    fn fresh_ids_are_32_hex_digits_and_differ() {
        let a = StateId::random().unwrap();
        let b = StateId::random().unwrap();
        assert_eq!(a.as_str().len(), 32);
        assert!(a.as_str().bytes().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
    }
}
