//! The expiry of pages and OAuth flows, and the store calls nobody awaits
//! (a record cancelled as its handle is dropped): tasks on one background runtime per
//! [`Pages`](super::Pages), started with the first page. A page costs a
//! task, not a thread, and a slow store delays only that page's task.

use std::future::Future;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use super::store::{DynStore, End};
use super::token::PageId;
use crate::background::Background;

/// Ends records (pages and flows) at their expiry and forgets them one
/// expiry later (until then a visit sees how the record ended), and runs the store calls of
/// `Drop`. Its runtime stops with its `Pages`, cancelling what is left.
#[derive(Default)]
pub(crate) struct Reaper {
    /// `None` if its thread could not start: pages then still expire when
    /// visited, and by the reads of a later round.
    background: OnceLock<Option<Background>>,
}

impl Reaper {
    /// Ends `id` as expired in `store` at `at`, and forgets it `keep` later.
    pub(crate) fn schedule(
        &self,
        store: &Arc<dyn DynStore>,
        at: Instant,
        keep: Duration,
        id: PageId,
    ) {
        let store = Arc::downgrade(store);
        self.spawn(async move {
            tokio::time::sleep_until(at.into()).await;
            let Some(pages) = store.upgrade() else {
                return;
            };
            let _ = pages.end(&id, End::Expired).await;
            drop(pages);
            tokio::time::sleep(keep).await;
            if let Some(pages) = store.upgrade() {
                let _ = pages.remove(&id).await;
            }
        });
    }

    /// Runs `future` now as far as it goes without waiting (all of it, for
    /// a store in memory), and the rest on the reaper's runtime: a store
    /// call no one awaits, from `Drop`, which must not block.
    pub(crate) fn run_now(&self, future: impl Future<Output = ()> + Send + 'static) {
        let mut future = Box::pin(future);
        let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
        if future.as_mut().poll(&mut cx).is_pending() {
            self.spawn(future);
        }
    }

    /// Runs `future` on the reaper's runtime, detached.
    pub(crate) fn spawn(&self, future: impl Future<Output = ()> + Send + 'static) {
        let background = self
            .background
            .get_or_init(|| Background::start("elicit-page-expiry").ok());
        if let Some(background) = background {
            background.spawn(future);
        }
    }
}
