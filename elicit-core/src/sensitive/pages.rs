//! [`Pages`]: the pending pages of one agent, how they are reached, and
//! [`PendingPage`], one of them as the agent waits for it.

use std::fmt;
use std::marker::PhantomData;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use super::form::SensitiveForm;
use super::origin::Origin;
use super::reaper::Reaper;
use super::server::{Limits, LoopbackServer};
use super::service::{PageService, respond, timed_out};
use super::shared::{Config, Extensions, Shared, lock};
use super::store::{DynStore, End, MemoryStore, PageState, Record, Store, StoreError};
use super::token::PageId;
use super::verify::UserVerifier;
use crate::error::ContentError;
use crate::protocol::agent::VerifiedUser;

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

/// Why [`Pages`] could not be set up.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ConfigError {
    /// The public URL is not an absolute `https` URL (`http` only on
    /// loopback), or has a query or fragment.
    BadUrl(String),
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::BadUrl(e) => write!(
                f,
                "the pages' public URL `{e}` must be https://host[:port][/path] (http only on a loopback \
         host), with no query or fragment"
            ),
        }
    }
}

impl std::error::Error for ConfigError {}

/// Why a page could not be opened. Nothing was sent to the client.
#[derive(Debug)]
#[non_exhaustive]
pub enum OpenError {
    /// These pages verify users: open the page for one
    /// ([`Pages::open_for`]).
    UserRequired,
    /// These pages have no user verifier, so a page cannot be bound to a
    /// user: give [`Pages::hosted`] one, or open with [`Pages::open`].
    NoVerifier,
    /// The form's schema has a property the page cannot show.
    NotRenderable(crate::protocol::client::NotRenderable),
    /// The loopback server could not start.
    Server(std::io::Error),
    /// The OS RNG failed.
    Random(getrandom::Error),
    /// The store refused the page.
    Store(StoreError),
    /// A flow's provider is unusable (an OAuth provider's endpoints).
    Provider(String),
}

impl std::fmt::Display for OpenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::UserRequired => f.write_str(
                "these pages verify users: open the page for the verified user it is for, with \
         `Pages::open_for`",
            ),
            Self::NoVerifier => f.write_str(
                "these pages have no user verifier: a page opened for a user needs one \
         (`Pages::hosted(url, verifier)`, or `Pages::loopback().verifier(..)`)",
            ),
            Self::NotRenderable(e) => write!(f, "{e}"),
            Self::Server(e) => write!(f, "the page server could not start: {e}"),
            Self::Random(e) => write!(f, "the OS random number generator failed: {e}"),
            Self::Store(e) => write!(f, "{e}"),
            Self::Provider(e) => write!(f, "the provider's endpoints are unusable: {e}"),
        }
    }
}

impl std::error::Error for OpenError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::NotRenderable(e) => Some(e),
            Self::Server(e) => Some(e),
            Self::Store(e) => Some(e),
            _ => None,
        }
    }
}

/// How a page the agent waited for ended without an answer, or failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum PageError {
    /// Not answered before its expiry.
    Expired,
    /// Cancelled (by [`PendingPage::cancel`] elsewhere, or the store went
    /// away).
    Cancelled,
    /// The answer passed the page's checks but not the form's own (the
    /// page's schema and the form disagree: a bug, or a foreign record in a
    /// shared store).
    Invalid(ContentError),
    /// The store failed.
    Store(StoreError),
}

impl std::fmt::Display for PageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Expired => f.write_str("the page expired before it was answered"),
            Self::Cancelled => f.write_str("the page was cancelled"),
            Self::Invalid(e) => write!(f, "the page's answer does not fit the form: {e}"),
            Self::Store(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for PageError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Invalid(e) => Some(e),
            Self::Store(e) => Some(e),
            _ => None,
        }
    }
}

/// The pending pages of one agent: where they are served, how long they
/// wait, where they are kept. Cheap to clone; every clone is the same set.
///
/// Two ways to serve them:
/// - [`Pages::loopback`]: the agent's own server on `127.0.0.1`, an
///   ephemeral port, started when the first page opens and stopped when the
///   last clone of these `Pages` is dropped. The usual ACP case: the client
///   launched the agent on the user's machine.
/// - [`Pages::hosted`]: mount [`Pages::service`] (a `tower` service) in
///   your own web server, behind TLS, with a [`UserVerifier`].
pub struct Pages {
    shared: Arc<Shared>,
}

impl Clone for Pages {
    fn clone(&self) -> Self {
        Self {
            shared: Arc::clone(&self.shared),
        }
    }
}

impl fmt::Debug for Pages {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pages")
            .field("origin", &self.shared.config.origin)
            .field("base_path", &self.shared.config.base_path)
            .field("expiry", &self.shared.config.expiry)
            .field("verifier", &self.shared.config.verifier.is_some())
            .finish_non_exhaustive()
    }
}

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
    /// more fails with [`StoreError::Full`].
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

    /// The `tower` service that serves these pages: mount it at the public
    /// URL's path in your web server (axum:
    /// `Router::new().nest_service("/elicit", pages.service())`, which strips
    /// the mount path). Serves `GET` and `POST` on `<path>/<id>` and on
    /// `/<id>` (what a router that strips the mount path passes on), and
    /// the OAuth start pages and callback the same way; everything else is
    /// `404`.
    pub fn service(&self) -> PageService {
        PageService::new(Arc::downgrade(&self.shared))
    }

    /// The answer of the detached page `id` ([`PendingPage::detach`]) if it
    /// ended: the typed form, or how it ended without one. `None` while it
    /// waits. It is read from the store, so any replica reads the answer of
    /// a page another opened (with a store the replicas share), and every
    /// read gives the same end until the page is forgotten. An unknown id
    /// (never opened, forgotten, or its keys expired), or a store that
    /// fails, is [`PageError::Cancelled`].
    pub async fn try_answer<T: SensitiveForm>(&self, id: PageId) -> Option<Result<T, PageError>> {
        self.read(id).await.answer()
    }

    /// Forgets the page `id` in the store (another call may then open a
    /// page of the same id).
    #[cfg_attr(not(feature = "rmcp"), allow(dead_code))]
    pub(crate) async fn forget(&self, id: PageId) {
        let _ = self.shared.store.remove(&id).await;
    }

    /// The URL of the page `id`.
    pub fn url_of(&self, id: PageId) -> String {
        let origin = self
            .shared
            .origin()
            .map(|o| o.as_str().to_owned())
            .unwrap_or_default();
        format!("{origin}{}/{id}", self.shared.config.base_path)
    }

    /// Waits until the detached page `id` ends (answered, cancelled or
    /// expired), without reading it: [`try_answer`](Self::try_answer) then
    /// has its answer.
    pub async fn settled(&self, id: PageId) {
        let _ = self.shared.store.wait(&id).await;
    }

    /// Ends the page `id` now (a detached page the flow gave up on): a later
    /// visit sees "already answered".
    pub async fn cancel(&self, id: PageId) {
        let _ = self.shared.store.end(&id, End::Cancelled).await;
    }

    /// Whether these pages verify users (a [`UserVerifier`]): then every
    /// page is opened for a user ([`open_for`](Self::open_for)).
    pub fn verifies_users(&self) -> bool {
        self.shared.config.verifier.is_some()
    }

    /// The loopback server's address, once a page opened it.
    pub fn local_addr(&self) -> Option<std::net::SocketAddr> {
        lock(&self.shared.server)
            .as_ref()
            .map(|(server, _)| server.addr())
    }

    /// Opens a page for the sensitive form `T`, with the agent's `message`
    /// at its top. The page waits for one answer until
    /// [`expiry`](Self::expiry); send its [`url`](PendingPage::url) to the
    /// client (URL mode) and await [`PendingPage::answer`].
    ///
    /// # Errors
    ///
    /// [`OpenError`]: these pages verify users (use
    /// [`open_for`](Self::open_for)), the loopback server could not start,
    /// or the store is full.
    pub async fn open<T: SensitiveForm>(
        &self,
        message: impl Into<String>,
    ) -> Result<PendingPage<T>, OpenError> {
        if self.shared.config.verifier.is_some() {
            return Err(OpenError::UserRequired);
        }
        let id = PageId::random().map_err(OpenError::Random)?;
        self.open_record(id, message.into(), None).await
    }

    /// [`open`](Self::open) for the verified user `user`: only requests the
    /// [`UserVerifier`] finds `user` in are served.
    ///
    /// # Errors
    ///
    /// [`OpenError::NoVerifier`] if these pages have no verifier, and
    /// those of [`open`](Self::open).
    pub async fn open_for<T: SensitiveForm>(
        &self,
        user: &VerifiedUser,
        message: impl Into<String>,
    ) -> Result<PendingPage<T>, OpenError> {
        if self.shared.config.verifier.is_none() {
            return Err(OpenError::NoVerifier);
        }
        let id = PageId::random().map_err(OpenError::Random)?;
        self.open_record(id, message.into(), Some(user.as_str().to_owned()))
            .await
    }

    async fn open_record<T: SensitiveForm>(
        &self,
        id: PageId,
        message: String,
        user: Option<String>,
    ) -> Result<PendingPage<T>, OpenError> {
        let prepared = self.prepare_record::<T>(id, message, user)?;
        self.insert(prepared).await
    }

    /// The page `T` under `id` (for `user`: refused as
    /// [`open_for`](Self::open_for) refuses it without a verifier, and as
    /// [`open`](Self::open) without a user on pages that verify users),
    /// ready to be added to the store: everything short of it, without I/O
    /// but the loopback server's start.
    #[cfg_attr(not(feature = "rmcp"), allow(dead_code))]
    pub(crate) fn prepare<T: SensitiveForm>(
        &self,
        id: PageId,
        user: Option<&VerifiedUser>,
        message: String,
    ) -> Result<Prepared<T>, OpenError> {
        match (user, self.shared.config.verifier.is_some()) {
            (None, true) => Err(OpenError::UserRequired),
            (Some(_), false) => Err(OpenError::NoVerifier),
            (user, _) => self.prepare_record(id, message, user.map(|u| u.as_str().to_owned())),
        }
    }

    fn prepare_record<T: SensitiveForm>(
        &self,
        id: PageId,
        message: String,
        user: Option<String>,
    ) -> Result<Prepared<T>, OpenError> {
        let schema = T::schema();
        let secrets: Vec<String> = T::SECRET_FIELDS.iter().map(|&s| s.to_owned()).collect();
        // Refuse a form the page cannot show before anything is sent.
        super::page::PageForm::new(&message, &schema)
            .secrets(T::SECRET_FIELDS)
            .render()
            .map_err(OpenError::NotRenderable)?;
        let origin = self.ensure_origin()?;
        let expires_at = SystemTime::now() + self.shared.config.expiry;
        let record = Record {
            message,
            schema,
            secrets,
            user,
            expires_at,
            binding: None,
            state: PageState::Open,
        };
        let url = format!("{}{}/{id}", origin.as_str(), self.shared.config.base_path);
        Ok(Prepared {
            id,
            url,
            record,
            form: PhantomData,
        })
    }

    /// Adds a prepared page to the store and schedules its expiry.
    pub(crate) async fn insert<T: SensitiveForm>(
        &self,
        prepared: Prepared<T>,
    ) -> Result<PendingPage<T>, OpenError> {
        let Prepared {
            id, url, record, ..
        } = prepared;
        self.shared
            .store
            .insert(id, record, self.shared.config.max_open)
            .await
            .map_err(OpenError::Store)?;
        let expiry = self.shared.config.expiry;
        self.shared
            .reaper
            .schedule(&self.shared.store, Instant::now() + expiry, expiry, id);
        Ok(PendingPage {
            id,
            url,
            shared: Arc::clone(&self.shared),
            settled: false,
            form: PhantomData,
        })
    }

    /// How the page `id` stands in the store, its end included: for a flow
    /// that reads it before it runs (the MCP rounds' `ask` closure, which
    /// is not async). A page open past its expiry, with no one left to end
    /// it (the replica that opened it stopped), ends here.
    #[cfg_attr(not(feature = "rmcp"), allow(dead_code))]
    pub(crate) async fn read(&self, id: PageId) -> PageRead {
        let store = &self.shared.store;
        match store.take_end(&id).await {
            Ok(Some(end)) => PageRead::Ended(end),
            Ok(None) => match store.get(&id).await {
                Ok(Some(record))
                    if record.state == PageState::Open
                        && record.expires_at <= SystemTime::now() =>
                {
                    let _ = store.end(&id, End::Expired).await;
                    PageRead::Ended(End::Expired)
                }
                Ok(Some(record)) if record.state == PageState::Open => PageRead::Open,
                // Ended between the two reads: read it again.
                Ok(Some(_)) => match store.take_end(&id).await {
                    Ok(Some(end)) => PageRead::Ended(end),
                    _ => PageRead::Ended(End::Cancelled),
                },
                Ok(None) => PageRead::Unknown,
                Err(_) => PageRead::Failed,
            },
            Err(_) => PageRead::Failed,
        }
    }

    /// The state every clone shares (for the flows that plug in).
    #[allow(dead_code)]
    pub(crate) fn shared(&self) -> &Arc<Shared> {
        &self.shared
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

    /// The origin pages are served from, starting the loopback server if
    /// it is not running.
    pub(crate) fn ensure_origin(&self) -> Result<Origin, OpenError> {
        if let Some(origin) = &self.shared.config.origin {
            return Ok(origin.clone());
        }
        let mut server = lock(&self.shared.server);
        if let Some((_, origin)) = server.as_ref() {
            return Ok(origin.clone());
        }
        let shared = Arc::downgrade(&self.shared);
        let handler = move |request| {
            let shared = shared.clone();
            async move { respond(&shared, request).await }
        };
        let limits = Limits {
            max_connections: self.shared.config.max_connections,
            request_timeout: self.shared.config.request_timeout,
            timed_out,
        };
        let started = LoopbackServer::start(handler, limits).map_err(OpenError::Server)?;
        let origin = Origin::loopback(started.addr());
        *server = Some((started, origin.clone()));
        Ok(origin)
    }
}

/// One open page, as the agent that opened it waits for its answer.
/// Dropping it (or [`cancel`](Self::cancel)) ends the page (at once with
/// the memory store; with a store over the network, as soon as its call
/// returns, on the pages' background runtime: `Drop` does no I/O): a
/// later visit sees "already answered", a post is refused.
#[must_use = "the page is cancelled when this is dropped"]
pub struct PendingPage<T> {
    id: PageId,
    url: String,
    shared: Arc<Shared>,
    /// Ended (answered, or its end read), or detached: dropping this
    /// leaves the page as it is.
    settled: bool,
    form: PhantomData<fn() -> T>,
}

impl<T> fmt::Debug for PendingPage<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PendingPage")
            .field("id", &self.id)
            .field("url", &self.url)
            .finish_non_exhaustive()
    }
}

impl<T: SensitiveForm> PendingPage<T> {
    /// The page's id: its URL's last segment, and the URL elicitation's
    /// `elicitationId`.
    pub fn id(&self) -> PageId {
        self.id
    }

    /// The page's URL: all it carries is the id.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Waits for the page's answer: the typed form, every rule checked
    /// again; or how it ended without one.
    ///
    /// # Errors
    ///
    /// [`PageError::Expired`], [`PageError::Cancelled`], or a store
    /// failure.
    pub async fn answer(mut self) -> Result<T, PageError> {
        let end = self
            .shared
            .store
            .wait(&self.id)
            .await
            .map_err(PageError::Store)?;
        // It ended, or the store let it go: nothing left to cancel.
        self.settled = true;
        typed(end)
    }

    /// Ends the page now: a later visit sees "already answered".
    pub fn cancel(self) {}

    /// Lets the page live on without this value (until it is answered,
    /// cancelled with [`Pages::cancel`], or expires), for a flow that spans
    /// several calls, such as MCP 2026-07-28's input-required rounds: read
    /// its answer later by its id with [`Pages::try_answer`] (after
    /// [`Pages::settled`], to wait for it).
    pub fn detach(mut self) -> PageId {
        self.settled = true;
        self.id
    }
}

impl<T> Drop for PendingPage<T> {
    fn drop(&mut self) {
        if self.settled {
            return;
        }
        // A no-op if it already ended. Not awaited here (no I/O in `Drop`):
        // the pages' background runtime ends it. A store error cannot be
        // reported from here: expiry ends the page anyway.
        let (store, id) = (Arc::clone(&self.shared.store), self.id);
        self.shared.reaper.run_now(async move {
            let _ = store.end(&id, End::Cancelled).await;
        });
    }
}

/// A page ready to be added to the store ([`Pages::prepare`]).
pub(crate) struct Prepared<T> {
    id: PageId,
    url: String,
    record: Record,
    form: PhantomData<fn() -> T>,
}

impl<T> Prepared<T> {
    /// The page's URL.
    #[cfg_attr(not(feature = "rmcp"), allow(dead_code))]
    pub(crate) fn url(&self) -> &str {
        &self.url
    }
}

/// How a page stands in the store ([`Pages::read`]).
#[derive(Debug, Clone)]
#[cfg_attr(not(feature = "rmcp"), allow(dead_code))]
pub(crate) enum PageRead {
    /// Waiting for its answer.
    Open,
    /// Ended, thus.
    Ended(End),
    /// No such page (never opened, forgotten, or its keys expired).
    Unknown,
    /// The store failed.
    Failed,
}

impl PageRead {
    /// The typed answer if the page ended, or how it ended without one;
    /// `None` while it is open. An unknown page, or a store that failed, is
    /// [`PageError::Cancelled`] (its error goes nowhere a user reads).
    pub(crate) fn answer<T: SensitiveForm>(self) -> Option<Result<T, PageError>> {
        match self {
            Self::Open => None,
            Self::Ended(end) => Some(typed(Some(end))),
            Self::Unknown | Self::Failed => Some(Err(PageError::Cancelled)),
        }
    }
}

/// A page's end as the typed form.
fn typed<T: SensitiveForm>(end: Option<End>) -> Result<T, PageError> {
    match end {
        Some(End::Answered(submission)) => {
            T::from_submission(submission).map_err(PageError::Invalid)
        }
        Some(End::Expired) => Err(PageError::Expired),
        Some(End::Cancelled) | None => Err(PageError::Cancelled),
    }
}
