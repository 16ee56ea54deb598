//! The OAuth flows of one [`Pages`](crate::sensitive::Pages): the seam
//! they are kept behind ([`FlowStore`]), its in-memory default, and the
//! page server's extension that routes to them.
//!
//! A flow's `state` parameter is its id followed by a secret token
//! ([`FlowState`]): the callback finds the flow by the id (one lookup, on
//! any replica) and compares the token in constant time. The id is in the
//! start page's URL already; the token is the 128 bits no one else has.

use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::SystemTime;

use futures_channel::oneshot;
use serde::{Deserialize, Serialize};
use zeroize::Zeroizing;

use super::outcome::OAuthOutcome;
use super::provider::Provider;
use crate::sensitive::origin::Origin;
use crate::sensitive::reaper::Expire;
use crate::sensitive::response::PageResponse;
use crate::sensitive::shared::{BoxFuture, Extension, Shared};
use crate::sensitive::store::StoreError;
use crate::sensitive::token::{PageId, Token};

/// The callback's path under the pages' base path.
pub(crate) const CALLBACK: &str = "/oauth/callback";

/// What every replica needs to serve a flow's start page and callback.
pub(crate) struct Flow {
    pub(crate) provider: Provider,
    /// The provider's authorization URL with this flow's parameters.
    pub(crate) authorize_url: String,
    pub(crate) redirect_uri: String,
    /// The secret half of the `state` parameter: single use.
    pub(crate) state: Token,
    /// The PKCE verifier: never leaves the server but to the token
    /// endpoint.
    pub(crate) verifier: secrecy::SecretString,
    /// The verified user the flow was opened for (hosted pages).
    pub(crate) user: Option<String>,
    pub(crate) expires_at: SystemTime,
}

impl Flow {
    /// A copy (the verifier is not `Clone`).
    fn copy(&self) -> Self {
        Self {
            provider: self.provider.clone(),
            authorize_url: self.authorize_url.clone(),
            redirect_uri: self.redirect_uri.clone(),
            state: self.state,
            verifier: self.verifier.clone(),
            user: self.user.clone(),
            expires_at: self.expires_at,
        }
    }
}

/// One OAuth flow as a [`FlowStore`] keeps it: the provider (with its
/// client secret), the authorization URL, the single-use `state` token,
/// the PKCE verifier and the user the flow is for. It holds secrets: a
/// store that keeps it outside this process writes
/// [`to_bytes`](Self::to_bytes) sealed or encrypted (as
/// `elicit_core::redis::RedisFlowStore` does), never in clear. `Debug`
/// shows nothing of it.
pub struct FlowRecord(pub(crate) Flow);

impl FlowRecord {
    /// When the flow stops accepting its authorization response: keep it
    /// at least until then.
    pub fn expires_at(&self) -> SystemTime {
        self.0.expires_at
    }

    /// The record as bytes (JSON, secrets included, in memory zeroed when
    /// dropped), for a store to seal and keep.
    pub fn to_bytes(&self) -> Zeroizing<Vec<u8>> {
        super::wire::flow_bytes(&self.0)
    }

    /// The record [`to_bytes`](Self::to_bytes) wrote, or `None`.
    pub fn from_bytes(bytes: &[u8]) -> Option<Self> {
        super::wire::flow_of(bytes).map(Self)
    }
}

impl Clone for FlowRecord {
    fn clone(&self) -> Self {
        Self(self.0.copy())
    }
}

impl fmt::Debug for FlowRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("FlowRecord(..)")
    }
}

/// The cookie that binds a flow to the browser that first visited its
/// start page. A store keeps it as it is (`serde`), sealed if it leaves
/// the process: whoever has it can finish the flow in their browser.
/// `Debug` shows nothing of it.
#[derive(Clone, Copy, Serialize, Deserialize)]
pub struct FlowCookie(pub(crate) Token);

impl fmt::Debug for FlowCookie {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("FlowCookie(..)")
    }
}

/// A flow as a request finds it in its [`FlowStore`].
#[derive(Debug, Clone)]
pub struct StoredFlow {
    /// The flow.
    pub record: FlowRecord,
    /// Where it is. An open flow past its expiry is
    /// [`FlowPhase::Expired`], by the store's clock.
    pub phase: FlowPhase,
    /// The browser it is bound to, once its start page was visited.
    pub cookie: Option<FlowCookie>,
}

/// Where a flow is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum FlowPhase {
    /// Waiting for its authorization response.
    Open,
    /// Its authorization response arrived (its `state` is used).
    Used,
    /// Ended without one at its expiry (or cancelled).
    Expired,
}

/// Where the OAuth flows of one [`Pages`](crate::sensitive::Pages) are
/// kept: [`MemoryFlowStore`] (this process's memory, the default), or a
/// store every replica shares (`elicit_core::redis::RedisFlowStore`; yours,
/// for another backend), given with
/// [`PagesBuilder::oauth_store`](crate::sensitive::PagesBuilder::oauth_store). Then any
/// replica serves a flow's start page and its callback, and the outcome
/// reaches the replica whose agent waits.
///
/// Every method is one atomic step on one flow (a compare-and-set in a
/// shared store), async, and must never block its thread (the same rules
/// as [`Store`](crate::sensitive::Store)'s). The outcome holds the token:
/// a store that keeps it outside this process seals it
/// ([`OAuthOutcome::to_bytes`]).
pub trait FlowStore: Send + Sync + 'static {
    /// Adds an open flow, refusing it ([`StoreError::Full`]) when
    /// `max_open` flows are open, or ([`StoreError::Taken`]) when the id is
    /// taken.
    fn insert(
        &self,
        id: PageId,
        flow: FlowRecord,
        max_open: usize,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// The flow, if the store still has it.
    fn get(
        &self,
        id: &PageId,
    ) -> impl Future<Output = Result<Option<StoredFlow>, StoreError>> + Send;

    /// Binds an open, unbound flow to `cookie`: the cookie in force
    /// afterwards (`cookie`, or an earlier visit's), or `None` if the flow
    /// is gone or no longer open.
    fn bind(
        &self,
        id: &PageId,
        cookie: FlowCookie,
    ) -> impl Future<Output = Result<Option<FlowCookie>, StoreError>> + Send;

    /// Uses an open flow's `state`, by the store's clock, and says where
    /// the flow was: [`FlowPhase::Open`] if this call used it (it is
    /// [`FlowPhase::Used`] from now on), [`FlowPhase::Used`] if an earlier
    /// call did, [`FlowPhase::Expired`] if it is past its expiry (it then
    /// ends as [`OAuthOutcome::Expired`] here) or ended; `None` if gone. Of
    /// two calls, on any replicas, exactly one is told `Open`.
    fn use_state(
        &self,
        id: &PageId,
    ) -> impl Future<Output = Result<Option<FlowPhase>, StoreError>> + Send;

    /// Ends the flow with `outcome` and wakes its waiter, once: `false`
    /// (nothing changes) if it ended already, or, with `only_open`, if it
    /// was used. An open flow ends as [`FlowPhase::Expired`]; a used one
    /// stays used.
    fn end(
        &self,
        id: &PageId,
        outcome: OAuthOutcome,
        only_open: bool,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send;

    /// How the flow ends, once it does (at once if it has): `None` when the
    /// store let it go without an end. One waiter per flow (the agent that
    /// opened it), on whichever replica; waiting costs no thread.
    fn wait(
        &self,
        id: &PageId,
    ) -> impl Future<Output = Result<Option<OAuthOutcome>, StoreError>> + Send;

    /// Forgets the flow.
    fn remove(&self, id: &PageId) -> impl Future<Output = Result<(), StoreError>> + Send;
}

/// [`FlowStore`] behind a pointer: what the page server's OAuth routes
/// hold. Each method boxes the store's future.
pub(crate) trait DynFlowStore: Send + Sync + 'static {
    fn insert(
        &self,
        id: PageId,
        flow: FlowRecord,
        max_open: usize,
    ) -> BoxFuture<'_, Result<(), StoreError>>;
    fn get<'a>(&'a self, id: &'a PageId) -> BoxFuture<'a, Result<Option<StoredFlow>, StoreError>>;
    fn bind<'a>(
        &'a self,
        id: &'a PageId,
        cookie: FlowCookie,
    ) -> BoxFuture<'a, Result<Option<FlowCookie>, StoreError>>;
    fn use_state<'a>(
        &'a self,
        id: &'a PageId,
    ) -> BoxFuture<'a, Result<Option<FlowPhase>, StoreError>>;
    fn end<'a>(
        &'a self,
        id: &'a PageId,
        outcome: OAuthOutcome,
        only_open: bool,
    ) -> BoxFuture<'a, Result<bool, StoreError>>;
    fn wait<'a>(
        &'a self,
        id: &'a PageId,
    ) -> BoxFuture<'a, Result<Option<OAuthOutcome>, StoreError>>;
    fn remove<'a>(&'a self, id: &'a PageId) -> BoxFuture<'a, Result<(), StoreError>>;
}

impl<S: FlowStore> DynFlowStore for S {
    fn insert(
        &self,
        id: PageId,
        flow: FlowRecord,
        max_open: usize,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(FlowStore::insert(self, id, flow, max_open))
    }
    fn get<'a>(&'a self, id: &'a PageId) -> BoxFuture<'a, Result<Option<StoredFlow>, StoreError>> {
        Box::pin(FlowStore::get(self, id))
    }
    fn bind<'a>(
        &'a self,
        id: &'a PageId,
        cookie: FlowCookie,
    ) -> BoxFuture<'a, Result<Option<FlowCookie>, StoreError>> {
        Box::pin(FlowStore::bind(self, id, cookie))
    }
    fn use_state<'a>(
        &'a self,
        id: &'a PageId,
    ) -> BoxFuture<'a, Result<Option<FlowPhase>, StoreError>> {
        Box::pin(FlowStore::use_state(self, id))
    }
    fn end<'a>(
        &'a self,
        id: &'a PageId,
        outcome: OAuthOutcome,
        only_open: bool,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(FlowStore::end(self, id, outcome, only_open))
    }
    fn wait<'a>(
        &'a self,
        id: &'a PageId,
    ) -> BoxFuture<'a, Result<Option<OAuthOutcome>, StoreError>> {
        Box::pin(FlowStore::wait(self, id))
    }
    fn remove<'a>(&'a self, id: &'a PageId) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(FlowStore::remove(self, id))
    }
}

/// The `state` parameter of a flow: its id, then its token (64 hex
/// digits).
pub(crate) struct FlowState;

impl FlowState {
    pub(crate) fn write(id: PageId, token: Token) -> String {
        format!("{id}{token}")
    }

    pub(crate) fn read(text: &str) -> Option<(PageId, Token)> {
        let (id, token) = (text.get(..32)?, text.get(32..)?);
        Some((id.parse().ok()?, Token::parse(token)?))
    }
}

/// The OAuth flows of these pages, with the page server's routes to them
/// (added to the server with the first flow, or with
/// [`PagesBuilder::oauth_store`](crate::sensitive::PagesBuilder::oauth_store)).
pub(crate) struct Flows {
    pub(crate) table: Box<dyn DynFlowStore>,
}

impl Default for Flows {
    fn default() -> Self {
        Self {
            table: Box::new(MemoryFlowStore::default()),
        }
    }
}

/// The OAuth flows of these pages.
pub(crate) fn flows(shared: &Shared) -> Arc<Flows> {
    shared.extensions.get_or_add(Flows::default)
}

/// The page server's OAuth routes.
impl Extension for Flows {
    fn route<'a>(
        &'a self,
        shared: &'a Arc<Shared>,
        origin: &'a Origin,
        parts: &'a http::request::Parts,
    ) -> BoxFuture<'a, Option<PageResponse>> {
        Box::pin(super::routes::route(&*self.table, shared, origin, parts))
    }
}

/// The flows' expiry.
impl Expire for Flows {
    fn expire(&self, id: PageId) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            let _ = self.table.end(&id, OAuthOutcome::Expired, true).await;
        })
    }
}

/// The default [`FlowStore`]: this process's memory. Its futures are
/// ready at once.
#[derive(Default)]
pub struct MemoryFlowStore {
    map: Mutex<HashMap<PageId, Entry>>,
}

impl fmt::Debug for MemoryFlowStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MemoryFlowStore")
            .field("flows", &self.lock().len())
            .finish()
    }
}

struct Entry {
    flow: Flow,
    phase: FlowPhase,
    cookie: Option<Token>,
    /// How it ended, until its waiter takes it.
    outcome: Option<OAuthOutcome>,
    ended: bool,
    /// Its waiter, until it ends.
    waiter: Option<oneshot::Sender<OAuthOutcome>>,
}

impl Entry {
    /// Where the flow is now: one still open past its expiry ends as
    /// expired here, whether or not the reaper got to it yet.
    fn phase_now(&mut self) -> FlowPhase {
        if self.phase == FlowPhase::Open && SystemTime::now() >= self.flow.expires_at {
            self.end(FlowPhase::Expired, OAuthOutcome::Expired);
        }
        self.phase
    }

    fn end(&mut self, phase: FlowPhase, outcome: OAuthOutcome) -> bool {
        self.phase = phase;
        if self.ended {
            return false;
        }
        self.ended = true;
        match self.waiter.take() {
            Some(waiter) => {
                if let Err(outcome) = waiter.send(outcome) {
                    self.outcome = Some(outcome);
                }
            }
            None => self.outcome = Some(outcome),
        }
        true
    }
}

impl MemoryFlowStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<PageId, Entry>> {
        // Nothing panics while it is held, and it is never held across an
        // await: a poisoned lock is consistent.
        self.map.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Each step at once, under the lock.
impl FlowStore for MemoryFlowStore {
    async fn insert(
        &self,
        id: PageId,
        flow: FlowRecord,
        max_open: usize,
    ) -> Result<(), StoreError> {
        let mut map = self.lock();
        let mut open = 0;
        for entry in map.values_mut() {
            open += usize::from(entry.phase_now() == FlowPhase::Open);
        }
        if open >= max_open {
            return Err(StoreError::Full { max: max_open });
        }
        if map.contains_key(&id) {
            return Err(StoreError::Taken(id));
        }
        map.insert(
            id,
            Entry {
                flow: flow.0,
                phase: FlowPhase::Open,
                cookie: None,
                outcome: None,
                ended: false,
                waiter: None,
            },
        );
        Ok(())
    }

    async fn get(&self, id: &PageId) -> Result<Option<StoredFlow>, StoreError> {
        Ok(self.lock().get_mut(id).map(|entry| StoredFlow {
            phase: entry.phase_now(),
            record: FlowRecord(entry.flow.copy()),
            cookie: entry.cookie.map(FlowCookie),
        }))
    }

    async fn bind(
        &self,
        id: &PageId,
        cookie: FlowCookie,
    ) -> Result<Option<FlowCookie>, StoreError> {
        let mut map = self.lock();
        let Some(entry) = map.get_mut(id) else {
            return Ok(None);
        };
        Ok((entry.phase_now() == FlowPhase::Open)
            .then(|| FlowCookie(*entry.cookie.get_or_insert(cookie.0))))
    }

    async fn use_state(&self, id: &PageId) -> Result<Option<FlowPhase>, StoreError> {
        let mut map = self.lock();
        let Some(entry) = map.get_mut(id) else {
            return Ok(None);
        };
        let phase = entry.phase_now();
        if phase == FlowPhase::Open {
            entry.phase = FlowPhase::Used;
        }
        Ok(Some(phase))
    }

    async fn end(
        &self,
        id: &PageId,
        outcome: OAuthOutcome,
        only_open: bool,
    ) -> Result<bool, StoreError> {
        let mut map = self.lock();
        let Some(entry) = map.get_mut(id) else {
            return Ok(false);
        };
        if only_open && entry.phase != FlowPhase::Open {
            return Ok(false);
        }
        let phase = match entry.phase {
            FlowPhase::Open => FlowPhase::Expired,
            phase => phase,
        };
        Ok(entry.end(phase, outcome))
    }

    async fn wait(&self, id: &PageId) -> Result<Option<OAuthOutcome>, StoreError> {
        let receiver = {
            let mut map = self.lock();
            let Some(entry) = map.get_mut(id) else {
                return Ok(None);
            };
            if let Some(outcome) = entry.outcome.take() {
                return Ok(Some(outcome));
            }
            if entry.ended {
                return Ok(None);
            }
            let (sender, receiver) = oneshot::channel();
            entry.waiter = Some(sender);
            receiver
        };
        Ok(receiver.await.ok())
    }

    async fn remove(&self, id: &PageId) -> Result<(), StoreError> {
        self.lock().remove(id);
        Ok(())
    }
}
