//! What the agent holds of an open record: [`Handle`], one lifecycle for a
//! page and an OAuth flow, and [`PendingPage`], a page's typed handle.

use std::fmt;
use std::marker::PhantomData;
use std::sync::Arc;

use super::PageError;
use super::answer::answer_of;
use crate::sensitive::SecretOutcome;
use crate::sensitive::form::SensitiveForm;
use crate::sensitive::shared::Shared;
use crate::sensitive::store::End;
use crate::sensitive::token::PageId;

/// An open record (a page, or an OAuth flow) as the agent that opened it
/// holds it. The one drop rule: dropped before its end was read (or
/// detached), it ends the record as cancelled (at once with the memory
/// store; with a store over the network, as soon as its call returns, on
/// the pages' background runtime: `Drop` does no I/O). The record stays
/// for late visitors until the expiry removes it.
pub(crate) struct Handle {
    id: PageId,
    url: String,
    shared: Arc<Shared>,
    /// Ended (its end read), or detached: dropping this leaves the record
    /// as it is.
    settled: bool,
}

impl Handle {
    /// The record `id` at `url`, just added to the store of `shared`.
    pub(crate) fn new(id: PageId, url: String, shared: Arc<Shared>) -> Self {
        Self {
            id,
            url,
            shared,
            settled: false,
        }
    }

    pub(crate) fn id(&self) -> PageId {
        self.id
    }

    pub(crate) fn url(&self) -> &str {
        &self.url
    }

    /// Waits for the record's end: `None` if the store let it go without
    /// one.
    pub(crate) async fn end(mut self) -> Result<Option<End>, PageError> {
        let end = self
            .shared
            .store
            .wait(&self.id)
            .await
            .map_err(PageError::Store)?;
        // It ended, or the store let it go: nothing left to cancel.
        self.settled = true;
        Ok(end)
    }

    /// Lets the record live on without this handle (until it ends or
    /// expires), for a flow that spans several calls.
    #[cfg_attr(not(feature = "rmcp"), allow(dead_code))]
    pub(crate) fn detach(mut self) -> PageId {
        self.settled = true;
        self.id
    }
}

impl Drop for Handle {
    fn drop(&mut self) {
        if self.settled {
            return;
        }
        // A no-op if it already ended. A store error cannot be reported
        // from here: the expiry ends the record anyway.
        let (store, id) = (Arc::clone(&self.shared.store), self.id);
        self.shared.reaper.run_now(async move {
            let _ = store.end(&id, End::Cancelled).await;
        });
    }
}

/// One open page, as the agent that opened it waits for its answer.
/// Dropping it before its answer (or [`cancel`](Self::cancel)) ends the
/// page as cancelled: a later visit sees "already answered", a post is
/// refused.
#[must_use = "the page is cancelled when this is dropped"]
pub struct PendingPage<T> {
    handle: Handle,
    form: PhantomData<fn() -> T>,
}

impl<T> fmt::Debug for PendingPage<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PendingPage")
            .field("id", &self.handle.id())
            .field("url", &self.handle.url())
            .finish_non_exhaustive()
    }
}

impl<T> PendingPage<T> {
    pub(super) fn new(handle: Handle) -> Self {
        Self {
            handle,
            form: PhantomData,
        }
    }
}

impl<T: SensitiveForm> PendingPage<T> {
    /// The page's id: its URL's last segment, and the URL elicitation's
    /// `elicitationId`.
    pub fn id(&self) -> PageId {
        self.handle.id()
    }

    /// The page's URL: all it carries is the id.
    pub fn url(&self) -> &str {
        self.handle.url()
    }

    /// Waits for the page's end: the typed form, every rule checked again
    /// ([`SecretOutcome::Answered`]), or how it ended without one
    /// ([`SecretOutcome::Expired`], [`SecretOutcome::Cancelled`]).
    ///
    /// # Errors
    ///
    /// [`PageError::Invalid`] for an answer the form's own rules refuse,
    /// [`PageError::Store`] for a store failure.
    pub async fn answer(self) -> Result<SecretOutcome<T>, PageError> {
        answer_of(self.handle.end().await?)
    }

    /// Ends the page now: a later visit sees "already answered".
    pub fn cancel(self) {}

    /// Lets the page live on without this value (until it is answered,
    /// cancelled, or expires), for a flow that spans several calls: MCP
    /// 2026-07-28's input-required rounds read its answer later by its id.
    #[cfg_attr(not(feature = "rmcp"), allow(dead_code))]
    pub(crate) fn detach(self) -> PageId {
        self.handle.detach()
    }
}
