//! How a one-call sensitive flow ends.

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
