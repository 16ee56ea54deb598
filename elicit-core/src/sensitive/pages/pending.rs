//! [`PendingPage`]: one open page, as the agent that opened it waits for
//! its answer.

use std::fmt;
use std::marker::PhantomData;
use std::sync::Arc;

use super::PageError;
use super::answer::answer_of;
use crate::sensitive::form::SensitiveForm;
use crate::sensitive::shared::Shared;
use crate::sensitive::store::End;
use crate::sensitive::token::PageId;

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

impl<T> PendingPage<T> {
    /// The page `id` at `url`, just added to the store of `shared`.
    pub(super) fn new(id: PageId, url: String, shared: Arc<Shared>) -> Self {
        Self {
            id,
            url,
            shared,
            settled: false,
            form: PhantomData,
        }
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
        answer_of(end)
    }

    /// Ends the page now: a later visit sees "already answered".
    pub fn cancel(self) {}

    /// Lets the page live on without this value (until it is answered,
    /// cancelled, or expires), for a flow that spans several calls: MCP
    /// 2026-07-28's input-required rounds read its answer later by its id.
    #[cfg_attr(not(feature = "rmcp"), allow(dead_code))]
    pub(crate) fn detach(mut self) -> PageId {
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
