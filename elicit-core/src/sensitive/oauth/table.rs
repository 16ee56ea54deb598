//! The OAuth flows of one [`Pages`](crate::sensitive::Pages): the table
//! the page server finds them in, by their start page's id or by their
//! `state`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::SystemTime;

use futures::channel::oneshot;
use oauth2::PkceCodeVerifier;

use super::outcome::OAuthOutcome;
use super::provider::Provider;
use crate::sensitive::origin::Origin;
use crate::sensitive::reaper::Expire;
use crate::sensitive::response::PageResponse;
use crate::sensitive::shared::{BoxFuture, Extension, Shared};
use crate::sensitive::token::{PageId, Token};

/// The callback's path under the pages' base path.
pub(crate) const CALLBACK: &str = "/oauth/callback";

/// The OAuth flows of one [`Pages`], by the id of their start page. Kept in
/// this process's memory (not in the [`Store`](crate::sensitive::Store)):
/// the callback must reach the replica that opened the flow.
#[derive(Default)]
pub(crate) struct Flows {
    map: Mutex<HashMap<PageId, Flow>>,
}

/// One flow.
pub(crate) struct Flow {
    pub(crate) provider: Provider,
    /// The provider's authorization URL with this flow's parameters.
    pub(crate) authorize_url: String,
    pub(crate) redirect_uri: String,
    /// The `state` parameter: single use.
    pub(crate) state: Token,
    /// The PKCE verifier: never leaves the server but to the token
    /// endpoint.
    pub(crate) verifier: Option<PkceCodeVerifier>,
    /// The verified user the flow was opened for (hosted pages).
    pub(crate) user: Option<String>,
    pub(crate) expires_at: SystemTime,
    /// The browser's binding cookie, set by the start page's first visit.
    pub(crate) cookie: Option<Token>,
    pub(crate) phase: Phase,
    pub(crate) sender: Option<oneshot::Sender<OAuthOutcome>>,
}

/// Where a flow is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Phase {
    /// Waiting for the authorization response.
    Open,
    /// Its authorization response arrived (its `state` is used).
    Used,
    /// Ended without one at its expiry.
    Expired,
}

impl Flow {
    /// Where the flow is now: one still open past its expiry ends as
    /// expired here, whether or not the reaper got to it yet.
    pub(crate) fn phase_now(&mut self) -> Phase {
        if self.phase == Phase::Open && SystemTime::now() >= self.expires_at {
            self.end(Phase::Expired, OAuthOutcome::Expired);
        }
        self.phase
    }

    /// Ends the flow with `outcome` (once: later ends are no-ops).
    pub(crate) fn end(&mut self, phase: Phase, outcome: OAuthOutcome) {
        self.phase = phase;
        if let Some(sender) = self.sender.take() {
            let _ = sender.send(outcome);
        }
    }
}

/// The OAuth flows of these pages (added to the page server with the
/// first flow).
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
        Box::pin(super::routes::route(self, shared, origin, parts))
    }
}

/// The flows' expiry.
impl Expire for Flows {
    fn expire(&self, id: PageId) {
        Flows::expire(self, id);
    }
}

impl Flows {
    /// The table, locked.
    pub(crate) fn lock(&self) -> MutexGuard<'_, HashMap<PageId, Flow>> {
        // Nothing panics while it is held: a poisoned lock is consistent.
        self.map.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Ends the flow `id` as expired if it still waits (the reaper).
    pub(crate) fn expire(&self, id: PageId) {
        if let Some(flow) = self.lock().get_mut(&id)
            && flow.phase == Phase::Open
        {
            flow.end(Phase::Expired, OAuthOutcome::Expired);
        }
    }
}
