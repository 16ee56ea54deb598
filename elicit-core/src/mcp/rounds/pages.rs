//! A page known by its id across a tool's calls: what only the rounds need
//! of the page server. A page opened in one call is read, asked again,
//! cancelled or forgotten in a later one, on whichever replica the call
//! lands (with a store the replicas share); every other flow awaits its
//! page through its [`PendingPage`](crate::sensitive::PendingPage).

use std::time::SystemTime;

use crate::fingerprint::Fingerprint;
use crate::sensitive::store::{End, State, StoreError};
use crate::sensitive::{PageError, PageId, Pages, SecretOutcome, SensitiveForm};

/// How a page stands in the store ([`read`]).
#[derive(Debug, Clone)]
pub(super) enum PageRead {
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
    /// cancelled (its error goes nowhere a user reads).
    pub(super) fn answer<T: SensitiveForm>(self) -> Option<Result<SecretOutcome<T>, PageError>> {
        match self {
            Self::Open => None,
            Self::Ended(end) => Some(crate::sensitive::answer_of(Some(end))),
            Self::Unknown | Self::Failed => Some(crate::sensitive::answer_of(None)),
        }
    }
}

/// How the page `id` stands in the store, its end included. A page open
/// past its expiry, with no one left to end it (the replica that opened it
/// stopped), ends here.
pub(super) async fn read(pages: &Pages, id: PageId) -> PageRead {
    let store = &pages.shared().store;
    match store.end_of(&id).await {
        Ok(Some(end)) => PageRead::Ended(end),
        Ok(None) => match store.get(&id).await {
            Ok(Some(record))
                if record.state == State::Open && record.expires_at <= SystemTime::now() =>
            {
                let _ = store.end(&id, End::Expired).await;
                PageRead::Ended(End::Expired)
            }
            Ok(Some(record)) if record.state == State::Open => PageRead::Open,
            // Ended between the two reads: read it again.
            Ok(Some(_)) => match store.end_of(&id).await {
                Ok(Some(end)) => PageRead::Ended(end),
                _ => PageRead::Ended(End::Cancelled),
            },
            Ok(None) => {
                refused!(PageUnknown, step = "round", page = Fingerprint(id));
                PageRead::Unknown
            }
            Err(error) => failed(id, &error),
        },
        Err(error) => failed(id, &error),
    }
}

/// A round's read of page `id` that the store failed: its event.
fn failed(id: PageId, error: &StoreError) -> PageRead {
    refused!(
        StoreFailed,
        step = "round",
        cause = error.cause(),
        page = Fingerprint(id)
    );
    PageRead::Failed
}

/// The URL of the page `id`.
pub(super) fn url_of(pages: &Pages, id: PageId) -> String {
    let shared = pages.shared();
    let origin = shared
        .origin()
        .map(|o| o.as_str().to_owned())
        .unwrap_or_default();
    format!("{origin}{}/{id}", shared.config.base_path)
}

/// Ends the page `id` now (the user declined or cancelled its URL): a later
/// visit sees "already answered".
pub(super) async fn cancel(pages: &Pages, id: PageId) {
    let _ = pages.shared().store.end(&id, End::Cancelled).await;
}

/// Forgets the page `id` in the store (the same call may then open a page
/// of the same id).
pub(super) async fn forget(pages: &Pages, id: PageId) {
    let _ = pages.shared().store.remove(&id).await;
}

/// The errors the page `id` shows (a page that asks again after a refused
/// answer), if any.
pub(super) async fn errors_of(pages: &Pages, id: PageId) -> Option<crate::ContentError> {
    let record = pages.shared().store.get(&id).await.ok()??;
    let page = record.asked_page()?;
    let errors: Vec<crate::FieldError> = page
        .errors
        .iter()
        .map(|(field, message)| crate::FieldError::rule(field, message))
        .collect();
    (!errors.is_empty()).then(|| crate::ContentError::new(errors))
}

/// Whether the store has the page `id` (a store that fails: no).
pub(super) async fn exists(pages: &Pages, id: PageId) -> bool {
    matches!(pages.shared().store.get(&id).await, Ok(Some(_)))
}
