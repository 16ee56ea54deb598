//! The state every clone of [`Pages`](super::Pages), its service and its
//! loopback server share.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

#[cfg(feature = "oauth")]
use super::oauth::Flows;
use super::origin::Origin;
use super::reaper::Reaper;
use super::server::LoopbackServer;
use super::store::{End, Store, Waiting};
use super::token::PageId;
use super::verify::UserVerifier;

pub(crate) struct Config {
    /// `None` until the loopback server is bound.
    pub(crate) origin: Option<Origin>,
    pub(crate) base_path: String,
    pub(crate) expiry: Duration,
    pub(crate) max_open: usize,
    pub(crate) body_limit: usize,
    pub(crate) max_connections: usize,
    pub(crate) request_timeout: Duration,
    pub(crate) verifier: Option<Arc<dyn UserVerifier>>,
}

pub(crate) struct Shared {
    pub(crate) config: Config,
    pub(crate) store: Arc<dyn Store>,
    /// The loopback server and the origin it is bound to, once started.
    pub(crate) server: Mutex<Option<(LoopbackServer, Origin)>>,
    pub(crate) reaper: Reaper,
    /// Pages whose `PendingPage` was detached: how each will end, or ended.
    pub(crate) detached: Mutex<HashMap<PageId, Detached>>,
    /// The OAuth flows waiting for their provider.
    #[cfg(feature = "oauth")]
    pub(crate) oauth: Arc<Flows>,
}

/// A detached page: waiting for its end, or ended and not read yet.
pub(crate) enum Detached {
    Waiting(Waiting),
    Ended(Option<End>),
}

impl Shared {
    /// The origin pages are served from (the loopback server's, once it
    /// runs).
    pub(crate) fn origin(&self) -> Option<Origin> {
        self.config.origin.clone().or_else(|| {
            lock(&self.server)
                .as_ref()
                .map(|(_, origin)| origin.clone())
        })
    }
}

/// Locks `mutex`. Nothing panics while these locks are held, so a poisoned
/// one still holds a consistent value.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
