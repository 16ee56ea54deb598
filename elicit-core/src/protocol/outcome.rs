//! What an elicitation gave, whatever the transport: a form's typed
//! [`Outcome`], a URL request's [`UrlOutcome`], and the [`Retry`] policy
//! for an invalid answer. Re-exported at `protocol::agent`, their one
//! public path.

use std::fmt::Write as _;

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

/// The "ask again with the errors" policy of the one-call helpers
/// (`elicit_core::acp::sdk`'s `elicit_form`, `elicit_core::mcp`'s
/// `elicit_form`): how many more times a form is sent when the accepted
/// content breaks the form's rules, and with which message.
///
/// Only an **invalid** accept is asked again. A decline or a cancel is the
/// user's answer and is returned at once; asking again would be nagging.
///
/// ```
/// use elicit_core::protocol::agent::Retry;
/// use elicit_core::{ContentError, FieldError, FieldErrorKind};
///
/// let errors = ContentError::new(vec![FieldError::new("replicas", FieldErrorKind::Missing)]);
/// assert_eq!(Retry::times(2).again(), 2);
/// assert_eq!(Retry::default(), Retry::NEVER);
/// assert_eq!(
///     Retry::message("How should I deploy?", &errors),
///     "How should I deploy?\n\nThe previous answer was not accepted: `replicas` is \
///      required but missing. Please correct it."
/// );
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Retry {
    again: u32,
}

impl Retry {
    /// Never ask again: an invalid answer is returned as an error.
    pub const NEVER: Self = Self { again: 0 };

    /// Ask again up to `again` more times (so at most `again + 1` requests).
    pub const fn times(again: u32) -> Self {
        Self { again }
    }

    /// How many more times the form may be sent.
    pub const fn again(self) -> u32 {
        self.again
    }

    /// The message of the next attempt: the original message, then every
    /// field error of the refused answer, by wire name.
    pub fn message(original: &str, errors: &ContentError) -> String {
        let mut message = format!("{original}\n\nThe previous answer was not accepted: ");
        for (i, error) in errors.errors().iter().enumerate() {
            if i > 0 {
                message.push_str("; ");
            }
            // Writing to a String cannot fail.
            let _ = write!(message, "{error}");
        }
        message.push_str(". Please correct it.");
        message
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
