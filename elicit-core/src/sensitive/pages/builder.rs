//! How [`Pages`] are set up: where they are served
//! ([`Pages::loopback`], [`Pages::hosted`]), how long a page waits, where
//! pages are kept, and the defaults.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::{ConfigError, Pages};
use crate::sensitive::origin::Origin;
use crate::sensitive::reaper::Reaper;
use crate::sensitive::shared::{Config, Extensions, Shared};
use crate::sensitive::store::{DynStore, MemoryStore, Store};
use crate::sensitive::verify::UserVerifier;

/// How long a page waits for its answer unless told otherwise: 10 minutes.
pub const DEFAULT_EXPIRY: Duration = Duration::from_secs(10 * 60);
/// How many pages may be open at once unless told otherwise.
pub const DEFAULT_MAX_OPEN: usize = 4096;
/// The largest body a page accepts unless told otherwise: 64 KiB.
pub const DEFAULT_BODY_LIMIT: usize = 64 * 1024;
/// How many connections the loopback server serves at once unless told
/// otherwise; more are closed at once.
pub const DEFAULT_MAX_CONNECTIONS: usize = 64;
/// How long the loopback server waits for a request's headers, and then
/// for its body.
pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

impl Pages {
    /// Pages served by a server of their own on `127.0.0.1`, at
    /// `http://127.0.0.1:<port>/elicit/<id>`. The server starts with the
    /// first [`open`](Self::open) and stops when the last clone of these
    /// `Pages` is dropped.
    ///
    /// "The same user" on loopback: the first browser to open the page is
    /// bound to it by an `HttpOnly`, `SameSite=Strict` cookie, and every
    /// other browser is refused. Only the user who consented in the client
    /// has the URL, and the client opens it in that user's browser.
    pub fn loopback() -> Self {
        Self::build(None, "/elicit".to_owned(), None)
    }

    /// Pages served under `public_url` (e.g.
    /// `https://agent.example.com/elicit`) by your own web server: mount
    /// [`service`](Self::service) at that path. `https` is required (but on
    /// a loopback host). Every page is opened for a verified user
    /// ([`open_for`](Self::open_for)) and served only to requests
    /// `verifier` finds that user in.
    ///
    /// Timeouts, connection caps and TLS are your server's; the service
    /// caps bodies ([`body_limit`](Self::body_limit)) and open pages.
    pub fn hosted(public_url: &str, verifier: impl UserVerifier) -> Result<Self, ConfigError> {
        let (origin, base_path) = Origin::parse_base(public_url)
            .ok_or_else(|| ConfigError::BadUrl(public_url.to_owned()))?;
        Ok(Self::build(
            Some(origin),
            base_path,
            Some(Arc::new(verifier)),
        ))
    }

    fn build(
        origin: Option<Origin>,
        base_path: String,
        verifier: Option<Arc<dyn UserVerifier>>,
    ) -> Self {
        Self {
            shared: Arc::new(Shared {
                config: Config {
                    origin,
                    base_path,
                    expiry: DEFAULT_EXPIRY,
                    max_open: DEFAULT_MAX_OPEN,
                    body_limit: DEFAULT_BODY_LIMIT,
                    max_connections: DEFAULT_MAX_CONNECTIONS,
                    request_timeout: DEFAULT_REQUEST_TIMEOUT,
                    verifier,
                },
                store: Arc::new(MemoryStore::new()),
                server: Mutex::new(None),
                reaper: Reaper::default(),
                extensions: Extensions::default(),
            }),
        }
    }

    fn config_mut(&mut self) -> &mut Config {
        &mut Arc::get_mut(&mut self.shared)
            .expect("Pages are configured before they are cloned")
            .config
    }

    /// How long a page waits for its answer (default: 10 minutes). After
    /// that the flow ends as expired and a visit shows "expired".
    ///
    /// # Panics
    ///
    /// If these `Pages` were cloned already: configure them first.
    #[must_use]
    pub fn expiry(mut self, expiry: Duration) -> Self {
        self.config_mut().expiry = expiry;
        self
    }

    /// How many pages may be open at once (default: 4,096); opening one
    /// more fails with [`StoreError::Full`](crate::sensitive::StoreError::Full).
    ///
    /// # Panics
    ///
    /// If these `Pages` were cloned already.
    #[must_use]
    pub fn max_open(mut self, max: usize) -> Self {
        self.config_mut().max_open = max;
        self
    }

    /// The largest body a page accepts (default: 64 KiB); a larger one is
    /// refused with `413`.
    ///
    /// # Panics
    ///
    /// If these `Pages` were cloned already.
    #[must_use]
    pub fn body_limit(mut self, bytes: usize) -> Self {
        self.config_mut().body_limit = bytes;
        self
    }

    /// The loopback server's cap on connections served at once (default:
    /// 64); more are closed at once.
    ///
    /// # Panics
    ///
    /// If these `Pages` were cloned already.
    #[must_use]
    pub fn max_connections(mut self, max: usize) -> Self {
        self.config_mut().max_connections = max.max(1);
        self
    }

    /// How long the loopback server waits for a request's headers, and
    /// then for its body (default: 10 seconds each); a slower client gets
    /// `408` or is disconnected.
    ///
    /// # Panics
    ///
    /// If these `Pages` were cloned already.
    #[must_use]
    pub fn request_timeout(mut self, timeout: Duration) -> Self {
        self.config_mut().request_timeout = timeout;
        self
    }

    /// Also verifies users on loopback pages: each page is then opened for
    /// a user ([`open_for`](Self::open_for)), on top of the cookie binding.
    ///
    /// # Panics
    ///
    /// If these `Pages` were cloned already.
    #[must_use]
    pub fn verifier(mut self, verifier: impl UserVerifier) -> Self {
        self.config_mut().verifier = Some(Arc::new(verifier));
        self
    }

    /// Keeps pages in `store` instead of this process's memory (see
    /// [`Store`] for several replicas, and `elicit_core::redis::RedisStore`).
    ///
    /// # Panics
    ///
    /// If these `Pages` were cloned already.
    #[must_use]
    pub fn store(mut self, store: impl Store) -> Self {
        let shared =
            Arc::get_mut(&mut self.shared).expect("Pages are configured before they are cloned");
        shared.store = Arc::new(store) as Arc<dyn DynStore>;
        self
    }

    /// The state, to configure it before these `Pages` are cloned (for the
    /// flows that plug in).
    ///
    /// # Panics
    ///
    /// If these `Pages` were cloned already.
    #[allow(dead_code)]
    pub(crate) fn shared_mut(&mut self) -> &mut Shared {
        Arc::get_mut(&mut self.shared).expect("Pages are configured before they are cloned")
    }
}
