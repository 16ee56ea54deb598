//! What can fail reading the SDK's response to a URL request (conversions
//! fail with the crate's [`ConversionError`]).

use crate::ConversionError;
use crate::protocol::agent::UrlOutcomeError;

/// Why an SDK response could not be read as a URL elicitation's
/// [`UrlOutcome`](crate::protocol::agent::UrlOutcome).
#[derive(Debug, Clone, PartialEq)]
pub enum UrlResponseError {
    /// The response holds something elicit's model cannot.
    Conversion(ConversionError),
    /// The connection refused it (see [`UrlOutcomeError`]).
    // Not `transparent`: `source()` is the `UrlOutcomeError` itself.
    Outcome(UrlOutcomeError),
}

impl std::fmt::Display for UrlResponseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Conversion(e) => write!(f, "unreadable elicitation response: {e}"),
            Self::Outcome(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for UrlResponseError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Conversion(e) => Some(e),
            Self::Outcome(e) => Some(e),
        }
    }
}
