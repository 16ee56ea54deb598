//! The state every clone of [`Pages`](super::Pages), its service and its
//! loopback server share: the settings, the store, the loopback server and
//! the expiry.

use std::sync::{Arc, Mutex};

use crate::sync::lock;
use std::time::Duration;

use super::loopback::LoopbackServer;
use super::origin::Origin;
use super::reaper::Reaper;
use super::store::DynStore;
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
    pub(crate) store: Arc<dyn DynStore>,
    /// The loopback server and the origin it is bound to, once started.
    pub(crate) server: Mutex<Option<(LoopbackServer, Origin)>>,
    pub(crate) reaper: Reaper,
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
