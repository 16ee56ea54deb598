//! How a one-call sensitive flow ends.

#[cfg(any(feature = "acp-sdk", feature = "rmcp"))]
use super::pages::PageError;
#[cfg(any(feature = "acp-sdk", feature = "rmcp"))]
use crate::protocol::agent::UrlOutcome;

/// How a sensitive flow ended: what the one-call methods on the SDKs
/// return (`Elicitor::elicit_secret` on the ACP SDK, `elicit_secret` on
/// rmcp's `Peer`). A failure is their `Err`.
#[derive(Debug)]
#[non_exhaustive]
pub enum SecretOutcome<T> {
    /// The user submitted the page: the typed form, every rule checked
    /// again. The client was sent the completion notification.
    Answered(T),
    /// The user declined to open the page. The page is closed.
    Declined,
    /// The user dismissed the request, or the client answered with an
    /// action this crate does not know. The page is closed.
    Cancelled,
    /// The user consented but did not submit the page in time. The page is
    /// closed.
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

// For the SDK flows (`acp::sdk`, `mcp`).
#[cfg(any(feature = "acp-sdk", feature = "rmcp"))]
impl<T> SecretOutcome<T> {
    /// What the client's answer to the URL request settles: `None` when the
    /// user consented (the page decides then). An unknown action is not
    /// consent: the flow ends as cancelled.
    pub(crate) fn unless_consented(answer: &UrlOutcome) -> Option<Self> {
        match answer {
            UrlOutcome::Consented(_) => None,
            UrlOutcome::Declined => Some(Self::Declined),
            UrlOutcome::Cancelled | UrlOutcome::UnknownAction(_) => Some(Self::Cancelled),
        }
    }

    /// How a page that ended without an answer ends the flow; the other
    /// page errors are failures.
    pub(crate) fn unanswered(error: PageError) -> Result<Self, PageError> {
        match error {
            PageError::Expired => Ok(Self::Expired),
            PageError::Cancelled => Ok(Self::Cancelled),
            error => Err(error),
        }
    }
}
