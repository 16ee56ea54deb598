//! Where pending pages live: the [`Store`] trait and its in-memory default.

use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::SystemTime;

use futures_channel::oneshot;
use serde::{Deserialize, Serialize};

use super::form::Submission;
use super::token::{PageId, Token};
use crate::schema::ElicitationSchema;

/// Everything the page service needs to know about one pending page. Plain
/// data (`serde`): a store shared by several replicas keeps it as a
/// document, e.g. a JSON value under a key that expires.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Record {
    /// The agent's message, at the top of the page.
    pub message: String,
    /// The form's schema: what the page shows and the server checks.
    pub schema: ElicitationSchema,
    /// The wire names of the secret properties.
    pub secrets: Vec<String>,
    /// The verified user the page was opened for (hosted pages), whom the
    /// user verifier must find in every request. `None` on loopback.
    pub user: Option<String>,
    /// When the page stops accepting an answer.
    pub expires_at: SystemTime,
    /// The browser the page is bound to, once it has been visited.
    pub binding: Option<Binding>,
    /// Whether it can still be answered.
    pub state: PageState,
    /// Why the answer to the page before this one was refused, when this
    /// page asks again (`.retry(n)` of a secret page): each error as its
    /// field's wire name and its message, shown on that field. Never a
    /// value. Empty on a first page, and then not written, so a record
    /// stored without it reads back the same.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<(String, String)>,
}

/// The browser a page is bound to: its first visitor's cookie, and the CSRF
/// token the page's form posts back. Never printed.
#[derive(Clone, Copy, Serialize, Deserialize)]
pub struct Binding {
    pub(crate) cookie: Token,
    pub(crate) csrf: Token,
}

impl fmt::Debug for Binding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Binding(..)")
    }
}

/// Whether a page can still be answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub enum PageState {
    /// Waiting for its answer.
    Open,
    /// Answered: a later visit or post sees "already answered".
    Answered,
    /// Not answered in time.
    Expired,
    /// Given up by the agent (declined, cancelled, or its future dropped).
    Cancelled,
}

/// How a page ended, as delivered to the agent waiting for it.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum End {
    /// The user's checked submission.
    Answered(Submission),
    /// Not answered in time.
    Expired,
    /// Given up by the agent.
    Cancelled,
}

impl End {
    pub(crate) fn state(&self) -> PageState {
        match self {
            Self::Answered(_) => PageState::Answered,
            Self::Expired => PageState::Expired,
            Self::Cancelled => PageState::Cancelled,
        }
    }
}

/// A store failed (a shared store's connection, say). The page shows a
/// generic error; the message goes to the agent, never to the page.
#[derive(Debug)]
#[non_exhaustive]
pub enum StoreError {
    /// The store holds as many open pages as it may.
    Full {
        /// The cap.
        max: usize,
    },
    /// The id is taken (an id is 128 random bits: this is a bug).
    Taken(PageId),
    /// No such page.
    Unknown(PageId),
    /// The store's own failure.
    Backend(Box<dyn std::error::Error + Send + Sync>),
}

impl StoreError {
    /// The event of a page (or an OAuth flow) the store did not take: its
    /// cap reached (`page_cap`), or its failure (`store_failed`).
    pub(crate) fn trace_insert(&self) {
        match self {
            Self::Full { max } => refused!(PageCap, max = max),
            _ => refused!(StoreFailed, step = "insert"),
        }
    }
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Full { max } => write!(
                f,
                "too many pending pages (at most {max}): answer or cancel some first"
            ),
            Self::Taken(e) => write!(f, "page id `{e}` is already in the store"),
            Self::Unknown(e) => write!(f, "no page `{e}` in the store"),
            Self::Backend(e) => write!(f, "page store: {e}"),
        }
    }
}

impl std::error::Error for StoreError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Backend(e) => Some(&**e),
            _ => None,
        }
    }
}

/// Where pending pages live. Every method is one atomic step on one page,
/// so a store shared by several replicas of a hosted agent implements each
/// with one compare-and-set (a Lua script or `WATCH`/`MULTI` on Redis, a
/// conditional `UPDATE` in SQL), and the page can be served by any replica.
///
/// The one thing that crosses replicas is the answer: [`end`](Self::end)
/// on the replica that served the post must wake [`wait`](Self::wait) on
/// the replica whose agent asked, and a later round of MCP 2026-07-28 on
/// any replica must read it ([`end_of`](Self::end_of)). That answer
/// holds the secret: a shared store carries it over your network, so seal
/// it or keep it local. With feature `redis`, `elicit_core::redis::RedisStore`
/// is such a store, sealed. The other setup is sticky routing: route
/// `/<mount>/<page id>` to the replica that opened the page (the id is in
/// the path, so any proxy can hash on it) and keep the default
/// [`MemoryStore`] on each replica; then no secret leaves the process that
/// asked for it, but a round must also reach that replica.
///
/// # Async, and never blocking
///
/// Every method returns a future that is `Send`: implement them with
/// `async fn`. They are awaited by the page service's request handlers, by
/// the agent's flows and by the pages' expiry, on whatever runtime serves
/// them, so a method must never block its thread: use your backend's async
/// client. A backend that only has a blocking client runs it where it
/// cannot park the runtime (`tokio::task::spawn_blocking`, or a thread
/// pool of its own) and awaits the result. A method that waits on the
/// network should give up after a bounded time with
/// [`StoreError::Backend`]: the page shows an error, the flow fails, and
/// requests that do not need the store are not held.
///
/// ```
/// use elicit_core::sensitive::{Binding, End, PageId, Record, Store, StoreError};
///
/// /// A store that keeps pages elsewhere (here: the default, behind it).
/// struct Elsewhere(elicit_core::sensitive::MemoryStore);
///
/// impl Store for Elsewhere {
///     async fn insert(&self, id: PageId, record: Record, max_open: usize) -> Result<(), StoreError> {
///         self.0.insert(id, record, max_open).await
///     }
///     async fn get(&self, id: &PageId) -> Result<Option<Record>, StoreError> {
///         self.0.get(id).await
///     }
///     async fn bind(&self, id: &PageId, binding: Binding) -> Result<Option<Binding>, StoreError> {
///         self.0.bind(id, binding).await
///     }
///     async fn end(&self, id: &PageId, end: End) -> Result<bool, StoreError> {
///         self.0.end(id, end).await
///     }
///     async fn wait(&self, id: &PageId) -> Result<Option<End>, StoreError> {
///         self.0.wait(id).await
///     }
///     async fn end_of(&self, id: &PageId) -> Result<Option<End>, StoreError> {
///         self.0.end_of(id).await
///     }
///     async fn remove(&self, id: &PageId) -> Result<(), StoreError> {
///         self.0.remove(id).await
///     }
/// }
///
/// let pages = elicit_core::sensitive::Pages::loopback()
///     .store(Elsewhere(Default::default()))
///     .build();
/// # let _ = pages;
/// ```
pub trait Store: Send + Sync + 'static {
    /// Adds a new open page, refusing it when `max_open` pages are open.
    fn insert(
        &self,
        id: PageId,
        record: Record,
        max_open: usize,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// The page's record, if the store still has it.
    fn get(&self, id: &PageId) -> impl Future<Output = Result<Option<Record>, StoreError>> + Send;

    /// Binds an open, unbound page to `binding`; returns the binding in
    /// force afterwards (`binding` itself, or the one an earlier visit set),
    /// or `None` if the page is gone or no longer open.
    fn bind(
        &self,
        id: &PageId,
        binding: Binding,
    ) -> impl Future<Output = Result<Option<Binding>, StoreError>> + Send;

    /// Ends an open page with `end` and wakes its waiters; `false` (and
    /// nothing changes) if it is not open: only the first end counts. The
    /// record and its end stay, with its new [`PageState`], until
    /// [`remove`](Self::remove), so a late visitor sees how it ended and a
    /// later round reads the end ([`end_of`](Self::end_of)).
    fn end(&self, id: &PageId, end: End) -> impl Future<Output = Result<bool, StoreError>> + Send;

    /// How the page ends, once it does (at once if it has): `None` when the
    /// store let it go without an end (forgotten, or its keys expired). A
    /// store shared by several replicas wakes this on the replica that
    /// waits, whichever replica ended the page. Waiting costs no thread:
    /// dropping the future stops it.
    fn wait(&self, id: &PageId) -> impl Future<Output = Result<Option<End>, StoreError>> + Send;

    /// How the page ended, read without waiting, by any process: `Ok(None)`
    /// while the page is open or when the store has no such page. MCP
    /// 2026-07-28's next round reads it here, on whichever replica it
    /// lands.
    fn end_of(&self, id: &PageId) -> impl Future<Output = Result<Option<End>, StoreError>> + Send;

    /// Forgets the page.
    fn remove(&self, id: &PageId) -> impl Future<Output = Result<(), StoreError>> + Send;
}

/// A boxed `Send` future, borrowing for `'a`.
pub(crate) type BoxFuture<'a, T> = std::pin::Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// [`Store`] behind a pointer: what [`Pages`](super::Pages) holds. Each
/// method boxes the store's future (one allocation a call).
pub(crate) trait DynStore: Send + Sync + 'static {
    fn insert(
        &self,
        id: PageId,
        record: Record,
        max_open: usize,
    ) -> BoxFuture<'_, Result<(), StoreError>>;
    fn get<'a>(&'a self, id: &'a PageId) -> BoxFuture<'a, Result<Option<Record>, StoreError>>;
    fn bind<'a>(
        &'a self,
        id: &'a PageId,
        binding: Binding,
    ) -> BoxFuture<'a, Result<Option<Binding>, StoreError>>;
    fn end<'a>(&'a self, id: &'a PageId, end: End) -> BoxFuture<'a, Result<bool, StoreError>>;
    fn wait<'a>(&'a self, id: &'a PageId) -> BoxFuture<'a, Result<Option<End>, StoreError>>;
    #[cfg_attr(not(feature = "rmcp"), allow(dead_code))]
    fn end_of<'a>(&'a self, id: &'a PageId) -> BoxFuture<'a, Result<Option<End>, StoreError>>;
    fn remove<'a>(&'a self, id: &'a PageId) -> BoxFuture<'a, Result<(), StoreError>>;
}

impl<S: Store> DynStore for S {
    fn insert(
        &self,
        id: PageId,
        record: Record,
        max_open: usize,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(Store::insert(self, id, record, max_open))
    }
    fn get<'a>(&'a self, id: &'a PageId) -> BoxFuture<'a, Result<Option<Record>, StoreError>> {
        Box::pin(Store::get(self, id))
    }
    fn bind<'a>(
        &'a self,
        id: &'a PageId,
        binding: Binding,
    ) -> BoxFuture<'a, Result<Option<Binding>, StoreError>> {
        Box::pin(Store::bind(self, id, binding))
    }
    fn end<'a>(&'a self, id: &'a PageId, end: End) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(Store::end(self, id, end))
    }
    fn wait<'a>(&'a self, id: &'a PageId) -> BoxFuture<'a, Result<Option<End>, StoreError>> {
        Box::pin(Store::wait(self, id))
    }
    fn end_of<'a>(&'a self, id: &'a PageId) -> BoxFuture<'a, Result<Option<End>, StoreError>> {
        Box::pin(Store::end_of(self, id))
    }
    fn remove<'a>(&'a self, id: &'a PageId) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(Store::remove(self, id))
    }
}

/// The default [`Store`]: a map in this process's memory. Its futures are
/// ready at once.
#[derive(Default)]
pub struct MemoryStore {
    pages: Mutex<Pages>,
}

#[derive(Default)]
struct Pages {
    slots: HashMap<PageId, Slot>,
    /// How many slots are [`PageState::Open`].
    open: usize,
}

struct Slot {
    record: Record,
    /// How it ended, once it has.
    end: Option<End>,
    /// Who waits for the end, until it comes.
    waiters: Vec<oneshot::Sender<End>>,
}

impl fmt::Debug for MemoryStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MemoryStore")
            .field("pages", &self.lock().slots.len())
            .finish()
    }
}

impl MemoryStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    fn lock(&self) -> MutexGuard<'_, Pages> {
        // No code panics while holding the lock, and it is never held
        // across an await: a poisoned map is whole.
        self.pages.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Store for MemoryStore {
    async fn insert(&self, id: PageId, record: Record, max_open: usize) -> Result<(), StoreError> {
        let mut pages = self.lock();
        if pages.open >= max_open {
            return Err(StoreError::Full { max: max_open });
        }
        if pages.slots.contains_key(&id) {
            return Err(StoreError::Taken(id));
        }
        pages.open += usize::from(record.state == PageState::Open);
        pages.slots.insert(
            id,
            Slot {
                record,
                end: None,
                waiters: Vec::new(),
            },
        );
        Ok(())
    }

    async fn get(&self, id: &PageId) -> Result<Option<Record>, StoreError> {
        Ok(self.lock().slots.get(id).map(|slot| slot.record.clone()))
    }

    async fn bind(&self, id: &PageId, binding: Binding) -> Result<Option<Binding>, StoreError> {
        let mut pages = self.lock();
        let Some(slot) = pages.slots.get_mut(id) else {
            return Ok(None);
        };
        if slot.record.state != PageState::Open {
            return Ok(None);
        }
        Ok(Some(*slot.record.binding.get_or_insert(binding)))
    }

    async fn end(&self, id: &PageId, end: End) -> Result<bool, StoreError> {
        let waiters = {
            let mut pages = self.lock();
            let Some(slot) = pages.slots.get_mut(id) else {
                return Ok(false);
            };
            if slot.record.state != PageState::Open {
                return Ok(false);
            }
            slot.record.state = end.state();
            slot.end = Some(end.clone());
            let waiters = std::mem::take(&mut slot.waiters);
            pages.open -= 1;
            waiters
        };
        // Sent outside the lock. A waiter that is gone is not an error.
        for waiter in waiters {
            let _ = waiter.send(end.clone());
        }
        Ok(true)
    }

    async fn wait(&self, id: &PageId) -> Result<Option<End>, StoreError> {
        let receiver = {
            let mut pages = self.lock();
            let Some(slot) = pages.slots.get_mut(id) else {
                return Ok(None);
            };
            if let Some(end) = &slot.end {
                return Ok(Some(end.clone()));
            }
            let (sender, receiver) = oneshot::channel();
            slot.waiters.retain(|waiter| !waiter.is_canceled());
            slot.waiters.push(sender);
            receiver
        };
        // A page forgotten before it ended drops its waiters: no end.
        Ok(receiver.await.ok())
    }

    async fn end_of(&self, id: &PageId) -> Result<Option<End>, StoreError> {
        Ok(self.lock().slots.get(id).and_then(|slot| slot.end.clone()))
    }

    async fn remove(&self, id: &PageId) -> Result<(), StoreError> {
        let mut pages = self.lock();
        if let Some(slot) = pages.slots.remove(id) {
            pages.open -= usize::from(slot.record.state == PageState::Open);
        }
        Ok(())
    }
}
