//! What can fail reading the SDK's response to a URL request (conversions
//! fail with the crate's [`ConversionError`]).

use crate::ConversionError;
use crate::protocol::agent::UrlOutcomeError;

/// Why an SDK response could not be read as a URL elicitation's
/// [`UrlOutcome`](crate::protocol::agent::UrlOutcome).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum UrlResponseError {
    /// The response holds something elicit's model cannot.
    #[error("unreadable elicitation response: {0}")]
    Conversion(#[source] ConversionError),
    /// The connection refused it (see [`UrlOutcomeError`]).
    // Not `transparent`: `source()` is the `UrlOutcomeError` itself.
    #[error("{0}")]
    Outcome(#[source] UrlOutcomeError),
}
