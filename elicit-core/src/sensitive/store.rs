//! Where pending pages live: the [`Store`] trait and its in-memory default.

use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll};
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
#[derive(Debug)]
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
    fn state(&self) -> PageState {
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
    /// Someone already waits for this page.
    AlreadyWaited(PageId),
    /// No such page.
    Unknown(PageId),
    /// The store's own failure.
    Backend(Box<dyn std::error::Error + Send + Sync>),
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Full { max } => write!(
                f,
                "too many pending pages (at most {max}): answer or cancel some first"
            ),
            Self::Taken(e) => write!(f, "page id `{e}` is already in the store"),
            Self::AlreadyWaited(e) => write!(f, "page `{e}` already has a waiter"),
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

/// Resolves with how a page ended, or `None` when the store dropped it
/// without an end (the store itself went away).
pub struct Waiting(Pin<Box<dyn Future<Output = Option<End>> + Send>>);

impl Waiting {
    /// Wraps a store's own future.
    pub fn new(future: impl Future<Output = Option<End>> + Send + 'static) -> Self {
        Self(Box::pin(future))
    }
}

impl fmt::Debug for Waiting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Waiting(..)")
    }
}

impl Future for Waiting {
    type Output = Option<End>;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<End>> {
        self.0.as_mut().poll(cx)
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
/// any replica must read it ([`take_end`](Self::take_end)). That answer
/// holds the secret: a shared store carries it over your network, so seal
/// it or keep it local. With feature `redis`, `elicit_core::redis::RedisStore`
/// is such a store, sealed. The other setup is sticky routing: route
/// `/<mount>/<page id>` to the replica that opened the page (the id is in
/// the path, so any proxy can hash on it) and keep the default
/// [`MemoryStore`] on each replica; then no secret leaves the process that
/// asked for it, but a round must also reach that replica.
///
/// Methods are synchronous and called from request handlers: they must be
/// quick (an in-memory map, or one round trip to a nearby store).
pub trait Store: Send + Sync + 'static {
    /// Adds a new open page, refusing it when `max_open` pages are open.
    fn insert(&self, id: PageId, record: Record, max_open: usize) -> Result<(), StoreError>;

    /// The page's record, if the store still has it.
    fn get(&self, id: &PageId) -> Result<Option<Record>, StoreError>;

    /// Binds an open, unbound page to `binding`; returns the binding in
    /// force afterwards (`binding` itself, or the one an earlier visit set),
    /// or `None` if the page is gone or no longer open.
    fn bind(&self, id: &PageId, binding: Binding) -> Result<Option<Binding>, StoreError>;

    /// Ends an open page with `end` and wakes its waiter; `false` (and
    /// nothing changes) if it is not open: only the first end counts. The
    /// record stays, with its new [`PageState`], until
    /// [`remove`](Self::remove), so a late visitor sees how it ended.
    fn end(&self, id: &PageId, end: End) -> Result<bool, StoreError>;

    /// How the page ends, once it does. One waiter per page.
    fn wait(&self, id: &PageId) -> Result<Waiting, StoreError>;

    /// How the page ended, read without waiting, by a process that did not
    /// open it: a store shared by several replicas gives it to any of them
    /// (MCP 2026-07-28's next round may land on another replica than the
    /// one that opened the page). `Ok(None)` while the page is open, and
    /// from a store of one process (the default: there the process that
    /// opened the page holds its end).
    fn take_end(&self, id: &PageId) -> Result<Option<End>, StoreError> {
        let _ = id;
        Ok(None)
    }

    /// Forgets the page.
    fn remove(&self, id: &PageId) -> Result<(), StoreError>;

    /// Whether every replica of a deployment reads this store (Redis, a
    /// database), rather than this process alone. A detached page's end is
    /// then read from it ([`take_end`](Self::take_end), one read), never
    /// waited for in this process. `false` by default.
    fn shared_by_replicas(&self) -> bool {
        false
    }

    /// The page server's own plumbing, not for use outside elicit-core: the
    /// state of the flows that plug into the page server (OAuth's), when
    /// this store keeps it too. Empty by default.
    #[doc(hidden)]
    fn plugged_flows(&self) -> Vec<Box<dyn std::any::Any + Send + Sync>> {
        Vec::new()
    }
}

/// The default [`Store`]: a map in this process's memory.
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
    /// Where the end goes, until it is sent.
    sender: Option<oneshot::Sender<End>>,
    /// The waiter's side, until someone waits.
    receiver: Option<oneshot::Receiver<End>>,
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
        // No code panics while holding the lock: a poisoned map is whole.
        self.pages.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Store for MemoryStore {
    fn insert(&self, id: PageId, record: Record, max_open: usize) -> Result<(), StoreError> {
        let mut pages = self.lock();
        if pages.open >= max_open {
            return Err(StoreError::Full { max: max_open });
        }
        if pages.slots.contains_key(&id) {
            return Err(StoreError::Taken(id));
        }
        let (sender, receiver) = oneshot::channel();
        pages.open += usize::from(record.state == PageState::Open);
        pages.slots.insert(
            id,
            Slot {
                record,
                sender: Some(sender),
                receiver: Some(receiver),
            },
        );
        Ok(())
    }

    fn get(&self, id: &PageId) -> Result<Option<Record>, StoreError> {
        Ok(self.lock().slots.get(id).map(|slot| slot.record.clone()))
    }

    fn bind(&self, id: &PageId, binding: Binding) -> Result<Option<Binding>, StoreError> {
        let mut pages = self.lock();
        let Some(slot) = pages.slots.get_mut(id) else {
            return Ok(None);
        };
        if slot.record.state != PageState::Open {
            return Ok(None);
        }
        Ok(Some(*slot.record.binding.get_or_insert(binding)))
    }

    fn end(&self, id: &PageId, end: End) -> Result<bool, StoreError> {
        let sender = {
            let mut pages = self.lock();
            let Some(slot) = pages.slots.get_mut(id) else {
                return Ok(false);
            };
            if slot.record.state != PageState::Open {
                return Ok(false);
            }
            slot.record.state = end.state();
            let sender = slot.sender.take();
            pages.open -= 1;
            sender
        };
        // Sent outside the lock. A waiter that is gone is not an error.
        if let Some(sender) = sender {
            let _ = sender.send(end);
        }
        Ok(true)
    }

    fn wait(&self, id: &PageId) -> Result<Waiting, StoreError> {
        let receiver = self
            .lock()
            .slots
            .get_mut(id)
            .ok_or(StoreError::Unknown(*id))?
            .receiver
            .take()
            .ok_or(StoreError::AlreadyWaited(*id))?;
        Ok(Waiting::new(async move { receiver.await.ok() }))
    }

    fn remove(&self, id: &PageId) -> Result<(), StoreError> {
        let mut pages = self.lock();
        if let Some(slot) = pages.slots.remove(id) {
            pages.open -= usize::from(slot.record.state == PageState::Open);
        }
        Ok(())
    }
}
