//! [`Store`]: the seam every store implements, one atomic step a method.

use std::future::Future;

use super::error::StoreError;
use super::record::{Binding, End, Record, State};
use crate::sensitive::token::PageId;

/// Where open pages and OAuth flows live ([`Record`]s). Every method is one
/// atomic step on one record, so a store shared by several replicas of a
/// hosted agent implements each with one compare-and-set (a Lua script on
/// Redis, a conditional `UPDATE` in SQL), and any replica serves any
/// record.
///
/// What crosses replicas is the end: [`end`](Self::end) on the replica
/// that served the post (or the callback) must wake [`wait`](Self::wait)
/// on the replica whose agent asked, and a later round of MCP 2026-07-28
/// on any replica must read it ([`end_of`](Self::end_of)). Records and
/// ends hold secrets ([`Record::to_bytes`], [`End::to_bytes`]): a shared
/// store carries them over your network, so seal them or keep them local.
/// With feature `redis`, `elicit_core::redis::RedisStore` is such a store,
/// sealed. The other setup is sticky routing: route `/<mount>/<id>` to the
/// replica that opened it (the id is in the path) and keep the default
/// [`MemoryStore`](super::MemoryStore) on each replica.
///
/// # Async, and never blocking
///
/// Every method returns a future that is `Send`: implement them with
/// `async fn`. They are awaited by the page service's handlers, by the
/// agent's flows and by the expiry, on whatever runtime serves them, so a
/// method must never block its thread: use your backend's async client
/// (or `spawn_blocking`). A method that waits on the network should give
/// up after a bounded time with [`StoreError::Backend`]: the page shows an
/// error, the flow fails, and requests that do not need the store are not
/// held.
///
/// ```
/// use elicit_core::sensitive::PageId;
/// use elicit_core::sensitive::store::{Binding, End, MemoryStore, Record, State, Store, StoreError};
///
/// /// A store that keeps records elsewhere (here: the default, behind it).
/// struct Elsewhere(MemoryStore);
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
///     async fn take(&self, id: &PageId) -> Result<Option<State>, StoreError> {
///         self.0.take(id).await
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
///     .store(Elsewhere(MemoryStore::new()))
///     .build();
/// # let _ = pages;
/// ```
pub trait Store: Send + Sync + 'static {
    /// Adds an open record, refusing it ([`StoreError::Full`]) when
    /// `max_open` records are open, or ([`StoreError::Taken`]) when the id
    /// is taken.
    fn insert(
        &self,
        id: PageId,
        record: Record,
        max_open: usize,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// The record, if the store still has it.
    fn get(&self, id: &PageId) -> impl Future<Output = Result<Option<Record>, StoreError>> + Send;

    /// Binds an open, unbound record to `binding`: the binding in force
    /// afterwards (`binding` itself, or the one an earlier visit set), or
    /// `None` if the record is gone or no longer open.
    fn bind(
        &self,
        id: &PageId,
        binding: Binding,
    ) -> impl Future<Output = Result<Option<Binding>, StoreError>> + Send;

    /// Takes an open record for the answer on its way (an OAuth callback,
    /// whose `state` is used once), by the store's clock, and says the
    /// state it was in: [`State::Open`] if this call took it (it is
    /// [`State::Taken`] from now on, and its expiry no longer ends it); an
    /// earlier state otherwise. An open record past its expiry ends here
    /// as [`End::Expired`] (and [`State::Expired`] is returned). `None` if
    /// gone. Of two calls, on any replicas, exactly one is told `Open`.
    fn take(&self, id: &PageId) -> impl Future<Output = Result<Option<State>, StoreError>> + Send;

    /// Ends an open or taken record with `end` and wakes its waiters: only
    /// the first end counts (`false`, and nothing changes, after it). An
    /// [`End::Expired`] does not end a taken record (its answer is on its
    /// way), and an answer to an open record past its expiry, by the
    /// store's clock, ends it as expired instead (`false`). The record and
    /// its end stay until [`remove`](Self::remove).
    ///
    /// An `Err` is an end nobody saw: no waiter gets it, and the record
    /// takes another end (the page says "Not saved" and takes the post
    /// again). A store shared by replicas that may fail over makes an end
    /// visible to [`wait`](Self::wait) and [`end_of`](Self::end_of) only
    /// once it would survive the failover, so that what the page says and
    /// what the agent gets agree ([`StoreError::NotReplicated`] when it
    /// cannot, [`StoreError::Busy`] while another end is being saved).
    fn end(&self, id: &PageId, end: End) -> impl Future<Output = Result<bool, StoreError>> + Send;

    /// How the record ends, once it does (at once if it has): `None` when
    /// the store let it go without an end (removed, or its keys expired).
    /// A store shared by several replicas wakes this on the replica that
    /// waits, whichever replica ended it. Waiting costs no thread: dropping
    /// the future stops it.
    fn wait(&self, id: &PageId) -> impl Future<Output = Result<Option<End>, StoreError>> + Send;

    /// How the record ended, read without waiting, by any process:
    /// `Ok(None)` while it waits or when the store has no such record.
    /// MCP 2026-07-28's next round reads it here, on whichever replica it
    /// lands.
    fn end_of(&self, id: &PageId) -> impl Future<Output = Result<Option<End>, StoreError>> + Send;

    /// Forgets the record and its end.
    fn remove(&self, id: &PageId) -> impl Future<Output = Result<(), StoreError>> + Send;
}
