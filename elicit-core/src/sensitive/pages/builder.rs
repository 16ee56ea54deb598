//! [`PagesBuilder`]: how [`Pages`] are set up, before there are any to
//! share. Its methods take and return the builder, which cannot be cloned;
//! [`build`](PagesBuilder::build) makes the `Pages`, which every clone then
//! shares as they are.

use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::{ConfigError, Pages};
use crate::sensitive::origin::Origin;
use crate::sensitive::reaper::Reaper;
use crate::sensitive::shared::{Config, Shared};
use crate::sensitive::store::{DynStore, MemoryStore, Store};
use crate::sensitive::verify::UserVerifier;

/// How long a page waits for its answer unless told otherwise: 10 minutes.
pub(crate) const DEFAULT_EXPIRY: Duration = Duration::from_secs(10 * 60);
/// How many pages may be open at once unless told otherwise.
pub(crate) const DEFAULT_MAX_OPEN: usize = 4096;
/// The largest body a page accepts unless told otherwise: 64 KiB.
pub(crate) const DEFAULT_BODY_LIMIT: usize = 64 * 1024;
/// How many connections the loopback server serves at once unless told
/// otherwise; more are closed at once.
pub(crate) const DEFAULT_MAX_CONNECTIONS: usize = 64;
/// How long the loopback server waits for a request's headers, and then
/// for its body.
pub(crate) const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

/// How [`Pages`] are set up: where they are served, how long a page waits,
/// where pages are kept. [`Pages::loopback`] and [`Pages::hosted`] start
/// one with the defaults, each method below changes one setting, and
/// [`build`](Self::build) makes the `Pages`. A builder cannot be cloned,
/// and built `Pages` have no settings to change: every clone of them is the
/// same set of pages, set up once.
///
/// ```
/// # fn main() -> Result<(), elicit_core::sensitive::ConfigError> {
/// use std::time::Duration;
///
/// use elicit_core::protocol::agent::VerifiedUser;
/// use elicit_core::sensitive::Pages;
///
/// // The usual ACP agent: its own server on 127.0.0.1, the defaults.
/// let pages = Pages::loopback().build();
///
/// // Hosted behind your web server, pages that wait 2 minutes; the user
/// // is the one your authentication layer put in the request.
/// let verifier = |request: &http::request::Parts| {
///     request.extensions.get::<VerifiedUser>().cloned()
/// };
/// let hosted = Pages::hosted("https://agent.example.com/elicit", verifier)?
///     .expiry(Duration::from_secs(120))
///     .build();
/// # drop((pages, hosted));
/// # Ok(())
/// # }
/// ```
#[must_use = "nothing is served until `.build()` makes the `Pages`"]
pub struct PagesBuilder {
    config: Config,
    store: Arc<dyn DynStore>,
}

impl fmt::Debug for PagesBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PagesBuilder")
            .field("origin", &self.config.origin)
            .field("base_path", &self.config.base_path)
            .field("expiry", &self.config.expiry)
            .field("verifier", &self.config.verifier.is_some())
            .finish_non_exhaustive()
    }
}

impl Pages {
    /// Pages served by a server of their own on `127.0.0.1`, at
    /// `http://127.0.0.1:<port>/elicit/<id>`: `Pages::loopback().build()`.
    /// The server starts with the first [`open`](Self::open) and stops when
    /// the last clone of these `Pages` is dropped.
    ///
    /// "The same user" on loopback: the first browser to open the page is
    /// bound to it by an `HttpOnly`, `SameSite=Strict` cookie, and every
    /// other browser is refused. Only the user who consented in the client
    /// has the URL, and the client opens it in that user's browser.
    pub fn loopback() -> PagesBuilder {
        PagesBuilder::new(None, "/elicit".to_owned(), None)
    }

    /// Pages served under `public_url` (e.g.
    /// `https://agent.example.com/elicit`) by your own web server:
    /// `Pages::hosted(url, verifier)?.build()`, then mount
    /// [`service`](Self::service) at that path. `https` is required (but on
    /// a loopback host). Every page is opened for a verified user
    /// ([`open_for`](Self::open_for)) and served only to requests
    /// `verifier` finds that user in.
    ///
    /// Timeouts, connection caps and TLS are your server's; the service
    /// caps bodies ([`body_limit`](PagesBuilder::body_limit)) and open
    /// pages.
    ///
    /// # Errors
    ///
    /// [`ConfigError::BadUrl`] if `public_url` is not such a URL.
    pub fn hosted(
        public_url: &str,
        verifier: impl UserVerifier,
    ) -> Result<PagesBuilder, ConfigError> {
        let (origin, base_path) = Origin::parse_base(public_url)
            .ok_or_else(|| ConfigError::BadUrl(public_url.to_owned()))?;
        Ok(PagesBuilder::new(
            Some(origin),
            base_path,
            Some(Arc::new(verifier)),
        ))
    }
}

impl PagesBuilder {
    fn new(
        origin: Option<Origin>,
        base_path: String,
        verifier: Option<Arc<dyn UserVerifier>>,
    ) -> Self {
        Self {
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
        }
    }

    /// How long a page waits for its answer (default: 10 minutes). After
    /// that the flow ends as expired and a visit shows "expired".
    pub fn expiry(mut self, expiry: Duration) -> Self {
        self.config.expiry = expiry;
        self
    }

    /// How many pages and OAuth flows may be open at once (default: 4,096);
    /// opening one more fails with
    /// [`StoreError::Full`](crate::sensitive::store::StoreError::Full).
    pub fn max_open(mut self, max: usize) -> Self {
        self.config.max_open = max;
        self
    }

    /// The largest body a page accepts (default: 64 KiB); a larger one is
    /// refused with `413`.
    pub fn body_limit(mut self, bytes: usize) -> Self {
        self.config.body_limit = bytes;
        self
    }

    /// The loopback server's cap on connections served at once (default:
    /// 64, at least 1); more are closed at once.
    pub fn max_connections(mut self, max: usize) -> Self {
        self.config.max_connections = max.max(1);
        self
    }

    /// How long the loopback server waits for a request's headers, and
    /// then for its body (default: 10 seconds each); a slower client gets
    /// `408` or is disconnected.
    pub fn request_timeout(mut self, timeout: Duration) -> Self {
        self.config.request_timeout = timeout;
        self
    }

    /// Verifies users with `verifier`: on loopback pages, on top of the
    /// cookie binding (each page is then opened for a user,
    /// [`Pages::open_for`]); on hosted pages, in place of the verifier
    /// [`Pages::hosted`] was given.
    pub fn verifier(mut self, verifier: impl UserVerifier) -> Self {
        self.config.verifier = Some(Arc::new(verifier));
        self
    }

    /// Keeps pages and OAuth flows in `store` instead of this process's
    /// memory (see [`Store`] for several replicas, and
    /// `elicit_core::redis::RedisStore`).
    pub fn store(mut self, store: impl Store) -> Self {
        self.store = Arc::new(store) as Arc<dyn DynStore>;
        self
    }

    /// The `Pages`, set up as told. Nothing starts yet: the loopback
    /// server and the background runtime start with the first page.
    #[must_use]
    pub fn build(self) -> Pages {
        Pages {
            shared: Arc::new(Shared {
                config: self.config,
                store: self.store,
                server: Mutex::new(None),
                reaper: Reaper::default(),
            }),
        }
    }
}
