//! A page known by its id, read from the store rather than awaited through
//! its [`PendingPage`](super::PendingPage) (a detached page, a page another
//! replica opened): how it stands ([`PageRead`]), its answer, waiting for
//! its end, cancelling and forgetting it. And [`answer_of`], the one place
//! where a page's end becomes the typed answer.

use std::time::SystemTime;

use super::{PageError, Pages};
use crate::sensitive::form::SensitiveForm;
use crate::sensitive::store::{End, PageState};
use crate::sensitive::token::PageId;

impl Pages {
    /// The answer of the detached page `id` ([`PendingPage::detach`](super::PendingPage::detach))
    /// if it ended: the typed form, or how it ended without one. `None`
    /// while it waits. It is read from the store, so any replica reads the
    /// answer of a page another opened (with a store the replicas share),
    /// and every read gives the same end until the page is forgotten. An
    /// unknown id (never opened, forgotten, or its keys expired), or a
    /// store that fails, is [`PageError::Cancelled`].
    pub async fn try_answer<T: SensitiveForm>(&self, id: PageId) -> Option<Result<T, PageError>> {
        self.read(id).await.answer()
    }

    /// Forgets the page `id` in the store (another call may then open a
    /// page of the same id).
    #[cfg_attr(not(feature = "rmcp"), allow(dead_code))]
    pub(crate) async fn forget(&self, id: PageId) {
        let _ = self.shared.store.remove(&id).await;
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
            Self::Ended(end) => Some(answer_of(Some(end))),
            Self::Unknown | Self::Failed => Some(answer_of(None)),
        }
    }
}

/// The answer of a page that ended with `end`, as the agent gets it: the
/// submission read into the form `T`, every rule checked again; or how the
/// page ended without one. `None`, a page the store no longer has, is
/// [`PageError::Cancelled`]. Every way of reading an answer
/// ([`PendingPage::answer`](super::PendingPage::answer),
/// [`Pages::try_answer`], [`PageRead::answer`]) goes through here.
pub(super) fn answer_of<T: SensitiveForm>(end: Option<End>) -> Result<T, PageError> {
    match end {
        Some(End::Answered(submission)) => {
            T::from_submission(submission).map_err(PageError::Invalid)
        }
        Some(End::Expired) => Err(PageError::Expired),
        Some(End::Cancelled) | None => Err(PageError::Cancelled),
    }
}
