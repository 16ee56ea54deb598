//! [`answer_of`], the one place where a page's end becomes the typed
//! answer, and [`SecretOutcome`], how a sensitive flow ends.

use super::PageError;
use crate::sensitive::form::SensitiveForm;
use crate::sensitive::store::{Answer, End};

/// How a sensitive flow ended: what [`PendingPage::answer`](super::PendingPage::answer)
/// and the one-call methods on the SDKs (`Elicitor::elicit_secret` on the
/// ACP SDK, `elicit_secret` on rmcp's `Peer`) return. A failure is their
/// `Err`.
#[derive(Debug)]
#[non_exhaustive]
pub enum SecretOutcome<T> {
    /// The user submitted the page: the typed form, every rule checked
    /// again. (On the SDKs, the client was sent the completion
    /// notification.)
    Answered(T),
    /// The user declined to open the page (the client's answer to the URL
    /// request, on the SDKs). The page is closed.
    Declined,
    /// The user dismissed the request, the client answered with an action
    /// this crate does not know, or the page was cancelled. The page is
    /// closed.
    Cancelled,
    /// The page was not submitted in time. The page is closed.
    Expired,
}

impl<T> SecretOutcome<T> {
    /// The answer, if the page was submitted.
    pub fn answered(self) -> Option<T> {
        match self {
            Self::Answered(value) => Some(value),
            _ => None,
        }
    }
}

/// The answer of a page that ended with `end`, as the agent gets it: the
/// submission read into the form `T`, every rule checked again; or how the
/// page ended without one. `None`, a page the store no longer has, is
/// cancelled. Every way of reading an answer (a
/// [`PendingPage::answer`](super::PendingPage::answer), a page the MCP
/// rounds read by its id) goes through here.
pub(crate) fn answer_of<T: SensitiveForm>(end: Option<End>) -> Result<SecretOutcome<T>, PageError> {
    match end {
        Some(End::Answered(Answer::Page(submission))) => T::from_submission(submission)
            .map(SecretOutcome::Answered)
            .map_err(PageError::Invalid),
        Some(End::Expired) => Ok(SecretOutcome::Expired),
        // Cancelled, let go, or a flow's end in a page's place.
        _ => Ok(SecretOutcome::Cancelled),
    }
}
