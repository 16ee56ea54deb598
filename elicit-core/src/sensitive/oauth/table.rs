//! The OAuth flows of one [`Pages`](crate::sensitive::Pages): the seam
//! they are kept behind ([`FlowTable`]), its in-memory default, and the
//! page server's extension that routes to them.
//!
//! A flow's `state` parameter is its id followed by a secret token
//! ([`FlowState`]): the callback finds the flow by the id (one lookup, on
//! any replica) and compares the token in constant time. The id is in the
//! start page's URL already; the token is the 128 bits no one else has.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::SystemTime;

use futures_channel::oneshot;

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

/// A flow as a request finds it.
pub(crate) struct Found {
    pub(crate) flow: Flow,
    /// Where it is, by the table's clock (an open flow past its expiry is
    /// [`Phase::Expired`]).
    pub(crate) phase: Phase,
    /// The browser's binding cookie, set by the start page's first visit.
    pub(crate) cookie: Option<Token>,
}

/// Where a flow is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Phase {
    /// Waiting for the authorization response.
    Open,
    /// Its authorization response arrived (its `state` is used).
    Used,
    /// Ended without one at its expiry (or cancelled).
    Expired,
}

/// How a flow's end reaches the agent that waits for it: the outcome, or
/// `None` when the table let it go without one.
pub(crate) type WaitingOAuth = BoxFuture<'static, Option<OAuthOutcome>>;

/// Where the OAuth flows of one [`Pages`](crate::sensitive::Pages) are
/// kept: this process's memory ([`MemoryFlows`]), or a store every replica
/// shares (`elicit_core::redis::RedisStore`). Every method is one atomic
/// step on one flow.
pub(crate) trait FlowTable: Send + Sync + 'static {
    /// Adds an open flow, refusing it when `max_open` flows are open.
    fn insert(
        &self,
        id: PageId,
        flow: Flow,
        max_open: usize,
    ) -> BoxFuture<'_, Result<(), StoreError>>;
    /// The flow, if the table still has it.
    fn get<'a>(&'a self, id: &'a PageId) -> BoxFuture<'a, Result<Option<Found>, StoreError>>;
    /// Binds an open, unbound flow to `cookie`: the cookie in force
    /// afterwards, or `None` if the flow is gone or no longer open.
    fn bind<'a>(
        &'a self,
        id: &'a PageId,
        cookie: Token,
    ) -> BoxFuture<'a, Result<Option<Token>, StoreError>>;
    /// Uses an open flow's `state`, by the table's clock, and says where
    /// the flow was: [`Phase::Open`] if this call used it, [`Phase::Used`]
    /// if an earlier one did, [`Phase::Expired`] if it is past its expiry
    /// (then it ends as expired here) or ended; `None` if gone.
    fn use_state<'a>(&'a self, id: &'a PageId) -> BoxFuture<'a, Result<Option<Phase>, StoreError>>;
    /// Ends the flow with `outcome` and wakes its waiter, once: `false` if
    /// it ended already, or (`only_open`) was used.
    fn end<'a>(
        &'a self,
        id: &'a PageId,
        outcome: OAuthOutcome,
        only_open: bool,
    ) -> BoxFuture<'a, Result<bool, StoreError>>;
    /// How the flow ends, once it does (no I/O until it is awaited). One
    /// waiter per flow.
    fn wait(&self, id: &PageId) -> Result<WaitingOAuth, StoreError>;
    /// Forgets the flow.
    fn remove<'a>(&'a self, id: &'a PageId) -> BoxFuture<'a, ()>;
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
/// (added to the server with the first flow, or with a shared store).
pub(crate) struct Flows {
    pub(crate) table: Box<dyn FlowTable>,
}

impl Default for Flows {
    fn default() -> Self {
        Self {
            table: Box::new(MemoryFlows::default()),
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

/// The default [`FlowTable`]: this process's memory.
#[derive(Default)]
pub(crate) struct MemoryFlows {
    map: Mutex<HashMap<PageId, Entry>>,
}

struct Entry {
    flow: Flow,
    phase: Phase,
    cookie: Option<Token>,
    sender: Option<oneshot::Sender<OAuthOutcome>>,
    receiver: Option<oneshot::Receiver<OAuthOutcome>>,
}

impl Entry {
    /// Where the flow is now: one still open past its expiry ends as
    /// expired here, whether or not the reaper got to it yet.
    fn phase_now(&mut self) -> Phase {
        if self.phase == Phase::Open && SystemTime::now() >= self.flow.expires_at {
            self.end(Phase::Expired, OAuthOutcome::Expired);
        }
        self.phase
    }

    fn end(&mut self, phase: Phase, outcome: OAuthOutcome) -> bool {
        self.phase = phase;
        match self.sender.take() {
            Some(sender) => {
                let _ = sender.send(outcome);
                true
            }
            None => false,
        }
    }
}

impl MemoryFlows {
    fn lock(&self) -> MutexGuard<'_, HashMap<PageId, Entry>> {
        // Nothing panics while it is held: a poisoned lock is consistent.
        self.map.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Each step at once, under the lock.
impl FlowTable for MemoryFlows {
    fn insert(
        &self,
        id: PageId,
        flow: Flow,
        max_open: usize,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(std::future::ready(self.insert_now(id, flow, max_open)))
    }

    fn get<'a>(&'a self, id: &'a PageId) -> BoxFuture<'a, Result<Option<Found>, StoreError>> {
        Box::pin(std::future::ready(self.get_now(id)))
    }

    fn bind<'a>(
        &'a self,
        id: &'a PageId,
        cookie: Token,
    ) -> BoxFuture<'a, Result<Option<Token>, StoreError>> {
        Box::pin(std::future::ready(self.bind_now(id, cookie)))
    }

    fn use_state<'a>(&'a self, id: &'a PageId) -> BoxFuture<'a, Result<Option<Phase>, StoreError>> {
        Box::pin(std::future::ready(self.use_state_now(id)))
    }

    fn end<'a>(
        &'a self,
        id: &'a PageId,
        outcome: OAuthOutcome,
        only_open: bool,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(std::future::ready(self.end_now(id, outcome, only_open)))
    }

    fn wait(&self, id: &PageId) -> Result<WaitingOAuth, StoreError> {
        let receiver = self
            .lock()
            .get_mut(id)
            .ok_or(StoreError::Unknown(*id))?
            .receiver
            .take()
            .ok_or(StoreError::Unknown(*id))?;
        Ok(Box::pin(async move { receiver.await.ok() }))
    }

    fn remove<'a>(&'a self, id: &'a PageId) -> BoxFuture<'a, ()> {
        self.lock().remove(id);
        Box::pin(std::future::ready(()))
    }
}

impl MemoryFlows {
    fn insert_now(&self, id: PageId, flow: Flow, max_open: usize) -> Result<(), StoreError> {
        let mut map = self.lock();
        if map.len() >= max_open {
            return Err(StoreError::Full { max: max_open });
        }
        if map.contains_key(&id) {
            return Err(StoreError::Taken(id));
        }
        let (sender, receiver) = oneshot::channel();
        map.insert(
            id,
            Entry {
                flow,
                phase: Phase::Open,
                cookie: None,
                sender: Some(sender),
                receiver: Some(receiver),
            },
        );
        Ok(())
    }

    fn get_now(&self, id: &PageId) -> Result<Option<Found>, StoreError> {
        Ok(self.lock().get_mut(id).map(|entry| Found {
            phase: entry.phase_now(),
            flow: entry.flow.copy(),
            cookie: entry.cookie,
        }))
    }

    fn bind_now(&self, id: &PageId, cookie: Token) -> Result<Option<Token>, StoreError> {
        let mut map = self.lock();
        let Some(entry) = map.get_mut(id) else {
            return Ok(None);
        };
        Ok((entry.phase_now() == Phase::Open).then(|| *entry.cookie.get_or_insert(cookie)))
    }

    fn use_state_now(&self, id: &PageId) -> Result<Option<Phase>, StoreError> {
        let mut map = self.lock();
        let Some(entry) = map.get_mut(id) else {
            return Ok(None);
        };
        let phase = entry.phase_now();
        if phase == Phase::Open {
            entry.phase = Phase::Used;
        }
        Ok(Some(phase))
    }

    fn end_now(
        &self,
        id: &PageId,
        outcome: OAuthOutcome,
        only_open: bool,
    ) -> Result<bool, StoreError> {
        let mut map = self.lock();
        let Some(entry) = map.get_mut(id) else {
            return Ok(false);
        };
        if only_open && entry.phase != Phase::Open {
            return Ok(false);
        }
        let phase = match entry.phase {
            Phase::Open => Phase::Expired,
            phase => phase,
        };
        Ok(entry.end(phase, outcome))
    }
}
