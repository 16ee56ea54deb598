//! What an elicitation gave, whatever the transport: a form's typed
//! [`Outcome`], a URL request's [`UrlOutcome`], and the retry policy
//! for an invalid answer. Re-exported at `protocol::agent`, their one
//! public path.

use crate::error::ContentError;
use crate::{Content, Elicit};

use super::messages::{CreateElicitationResponse, ElicitationAction, ElicitationId, OtherAction};

/// The answer to a form-mode elicitation.
#[derive(Debug, Clone, PartialEq)]
#[must_use]
pub enum Outcome<T> {
    /// The user submitted the form; the content was validated again by
    /// `T::from_content`.
    Accepted(T),
    /// The user explicitly declined: do not ask again right away; fall back
    /// or fail the operation.
    Declined,
    /// The user dismissed the request without choosing.
    Cancelled,
    /// An action this crate does not know (kept raw). It is none of the
    /// three above: treat it as a failure of the originating operation.
    UnknownAction(OtherAction),
}

impl<T: Elicit> Outcome<T> {
    /// Reads a form-mode response. `accept` content (omitted or `null` is an
    /// empty form) is validated with `T::from_content`; content of other
    /// actions is ignored.
    pub fn from_response(response: &CreateElicitationResponse) -> Result<Self, ContentError> {
        match &response.action {
            ElicitationAction::Accept { content } => {
                let empty = Content::new();
                T::from_content(content.as_ref().unwrap_or(&empty)).map(Outcome::Accepted)
            }
            ElicitationAction::Decline => Ok(Outcome::Declined),
            ElicitationAction::Cancel => Ok(Outcome::Cancelled),
            ElicitationAction::Other(other) => Ok(Outcome::UnknownAction(other.clone())),
        }
    }

    /// [`from_response`](Self::from_response) for a response the caller
    /// owns: the content's strings are moved into `T`
    /// ([`Elicit::from_content_owned`]) instead of copied.
    pub fn from_response_owned(response: CreateElicitationResponse) -> Result<Self, ContentError> {
        match response.action {
            ElicitationAction::Accept { content } => {
                T::from_content_owned(content.unwrap_or_default()).map(Outcome::Accepted)
            }
            ElicitationAction::Decline => Ok(Outcome::Declined),
            ElicitationAction::Cancel => Ok(Outcome::Cancelled),
            ElicitationAction::Other(other) => Ok(Outcome::UnknownAction(other)),
        }
    }
}

/// The answer to a URL-mode elicitation.
///
/// There is deliberately no "completed" or "accepted" variant: the client's
/// `accept` only means the user **consented to open the URL**. Completion is
/// known only from your own out-of-band callback, reported with
/// [`AgentConnection::complete`](super::agent::AgentConnection::complete).
#[derive(Debug, Clone, PartialEq)]
#[must_use]
pub enum UrlOutcome {
    /// The user consented to open the URL. Nothing is complete yet.
    Consented(AwaitingCompletion),
    /// The user declined; the elicitation is no longer outstanding.
    Declined,
    /// The user dismissed it; the elicitation is no longer outstanding.
    Cancelled,
    /// An action this crate does not know (kept raw). It is none of the
    /// three above; the elicitation stays outstanding until you
    /// [`abandon`](super::agent::AgentConnection::abandon) it.
    UnknownAction(OtherAction),
}

/// A URL elicitation the user consented to open, whose out-of-band
/// interaction has **not** been reported complete.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AwaitingCompletion {
    id: ElicitationId,
}

impl AwaitingCompletion {
    /// For what reads a URL-mode answer: [`AgentConnection::url_outcome`]
    /// and the MCP rounds.
    ///
    /// [`AgentConnection::url_outcome`]: super::agent::AgentConnection::url_outcome
    pub(crate) fn new(id: ElicitationId) -> Self {
        Self { id }
    }

    /// The elicitation to complete once your callback reports it.
    pub fn id(&self) -> &ElicitationId {
        &self.id
    }
}
