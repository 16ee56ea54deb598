//! [`answer_of`], the one place where a page's end becomes the typed
//! answer.

use super::PageError;
use crate::sensitive::form::SensitiveForm;
use crate::sensitive::store::End;

/// The answer of a page that ended with `end`, as the agent gets it: the
/// submission read into the form `T`, every rule checked again; or how the
/// page ended without one. `None`, a page the store no longer has, is
/// [`PageError::Cancelled`]. Every way of reading an answer (a
/// [`PendingPage::answer`](super::PendingPage::answer), a page the MCP
/// rounds read by its id) goes through here.
pub(crate) fn answer_of<T: SensitiveForm>(end: Option<End>) -> Result<T, PageError> {
    match end {
        Some(End::Answered(submission)) => {
            T::from_submission(submission).map_err(PageError::Invalid)
        }
        Some(End::Expired) => Err(PageError::Expired),
        Some(End::Cancelled) | None => Err(PageError::Cancelled),
    }
}
