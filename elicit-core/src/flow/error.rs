//! Why a flow returned no answer: one error for every transport.

use std::error::Error as StdError;
use std::fmt;

use crate::ConversionError;
use crate::error::ContentError;
use crate::protocol::agent::{CompletionError, SendError, UrlOutcomeError};

/// Why an elicitation call returned no answer, on every transport (the ACP
/// SDK's [`Elicitor`](crate::acp::sdk::Elicitor), rmcp's
/// [`Elicitor`](crate::mcp::Elicitor), and the [`Rounds`](crate::mcp::Rounds)
/// of rmcp's tool handlers): refusals before
/// anything was sent under [`NotSent`](Self::NotSent), the transport's
/// failure under [`Request`](Self::Request), then what was wrong with the
/// answer. Each message says what happened and what to do.
///
/// Match the variants you can act on and let the rest fail the operation
/// with their message (the enum is `#[non_exhaustive]`, so a `_` arm is
/// needed anyway):
///
/// ```no_run
/// use elicit_core::Elicit;
/// use elicit_core::flow::ElicitError;
/// use elicit_core::mcp::Elicitor;
/// use elicit_core::protocol::agent::{Outcome, SendError};
/// use rmcp::model::{CallToolResult, ContentBlock};
///
/// #[derive(Elicit)]
/// struct Confirm {
///     /// Go ahead with the deployment?
///     proceed: bool,
/// }
///
/// /// A tool's result: text for the model, and whether the call failed.
/// async fn deploy(elicitor: &Elicitor<'_>) -> CallToolResult {
///     let text = match elicitor.elicit_form::<Confirm>("Deploy to production?").retry(2).await {
///         Ok(Outcome::Accepted(Confirm { proceed: true })) => "Deploying.".to_owned(),
///         // Declined, cancelled, or "no": nothing happens, nothing is asked again.
///         Ok(_) => "Not deploying.".to_owned(),
///         // Nothing was sent: this client cannot show forms. Fall back.
///         Err(ElicitError::NotSent(SendError::ModeNotAdvertised { .. })) => {
///             "This client cannot show forms: ask the user in the conversation.".to_owned()
///         }
///         // Every answer broke a rule: the errors name the fields.
///         Err(ElicitError::Invalid { errors, attempts }) => {
///             let fields: Vec<&str> = errors.fields().collect();
///             let text = format!("no valid answer in {attempts} tries (fields: {fields:?})");
///             return CallToolResult::error(vec![ContentBlock::text(text)]);
///         }
///         // The transport or the client failed: nothing was accepted. The
///         // client's own error text is detail for the log, not for the model.
///         Err(error @ ElicitError::Request(_)) => {
///             eprintln!("the elicitation failed: {error:?}");
///             let text = format!("could not ask the user: {error}");
///             return CallToolResult::error(vec![ContentBlock::text(text)]);
///         }
///         // The rest are the form's or the URL's own faults (a credential-named
///         // field, a part MCP cannot carry, an unsafe URL): fix them in code.
///         Err(other) => return CallToolResult::error(vec![ContentBlock::text(other.to_string())]),
///     };
///     CallToolResult::success(vec![ContentBlock::text(text)])
/// }
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum ElicitError {
    /// Nothing was sent: the client did not advertise the mode, sensitive
    /// input needs URL mode, the URL is unsafe, the form cannot be sent (or
    /// has a part this transport cannot carry), the id is empty or
    /// outstanding. The message says what to do instead (ask in the
    /// conversation, fail the operation, ...).
    NotSent(SendError),
    /// The request failed: the client answered with a JSON-RPC error (a
    /// client refuses a request it cannot accept with `-32602`), the
    /// connection closed, the request timed out or was cancelled.
    ///
    /// The message says which, and nothing the client wrote: a client's
    /// `message` and `data` can be anything (a stack trace, a dump of the
    /// request), so they stay in the transport's error
    /// ([`RequestError::downcast_ref`]), for your log, never in text a user
    /// reads.
    Request(RequestError),
    /// The client's answer cannot be read (accepted content that is not an
    /// object, an action elicit cannot name, ...). Not asked again: it is a
    /// client fault, not the user's.
    Unreadable(ConversionError),
    /// Every answer broke the form's rules (or the call's check), the last
    /// one as `errors`, after `attempts` requests (see
    /// [`FormCall::retry`](super::FormCall::retry); for a secret page,
    /// `attempts` pages, `PageCall::retry`).
    Invalid {
        /// What was wrong with the last answer, by field.
        errors: ContentError,
        /// How many form requests were sent.
        attempts: u32,
    },
    /// The call's [`check`](super::FormCall::check) could not decide: it
    /// failed for its own reasons (a database down, a service that timed
    /// out), with this error. The flow ended there, without asking again:
    /// nothing was accepted.
    Check(Box<dyn StdError + Send + Sync>),
    /// A URL answer could not be matched to its elicitation (abandoned
    /// meanwhile).
    Url(UrlOutcomeError),
    /// A completion was refused (not outstanding, completed twice, another
    /// user): the client is not notified.
    Completion(CompletionError),
    /// The sensitive page or OAuth flow could not be opened (feature
    /// `sensitive`): nothing was sent.
    #[cfg(feature = "sensitive")]
    PageNotOpened(crate::sensitive::OpenError),
    /// The sensitive page failed after the user consented (feature
    /// `sensitive`): its store failed. (An answer the form refuses is asked
    /// again on a new page, within `.retry(n)`.)
    #[cfg(feature = "sensitive")]
    Page(crate::sensitive::PageError),
}

impl std::fmt::Display for ElicitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NotSent(e) => write!(f, "{e}"),
            Self::Request(e) => write!(f, "{e}"),
            Self::Unreadable(e) => write!(
                f,
                "the client's answer cannot be read: {e}; nothing was accepted"
            ),
            Self::Invalid { errors, attempts } => write!(
                f,
                "no valid answer after {attempts} attempt(s), the last one: {errors}; nothing was \
         accepted: ask in the conversation or fail the operation"
            ),
            Self::Check(e) => write!(
                f,
                "the answer could not be checked: {e}; nothing was accepted"
            ),
            Self::Url(e) => write!(f, "{e}"),
            Self::Completion(e) => write!(f, "{e}"),
            #[cfg(feature = "sensitive")]
            Self::PageNotOpened(e) => write!(f, "{e}"),
            #[cfg(feature = "sensitive")]
            Self::Page(e) => write!(f, "{e}"),
        }
    }
}

impl ElicitError {
    /// A short, stable text to send to a client (a tool's error, a
    /// JSON-RPC error's message) in place of this error: never a backend's
    /// text, a count, a key or a value. The error itself, whose `Display`
    /// names the cause, goes to your log.
    ///
    /// ```
    /// use elicit_core::flow::ElicitError;
    ///
    /// let error = ElicitError::Check("db01: connection refused by 10.0.0.7".into());
    /// assert_eq!(error.client_message(), "the answer could not be checked");
    /// ```
    pub fn client_message(&self) -> &'static str {
        match self {
            Self::NotSent(_) => "the user could not be asked",
            Self::Request(_) => "the question got no answer",
            Self::Unreadable(_) | Self::Url(_) => "the answer could not be read",
            Self::Invalid { .. } => "no valid answer was given",
            Self::Check(_) => "the answer could not be checked",
            Self::Completion(_) => "the completion was refused",
            #[cfg(feature = "sensitive")]
            Self::PageNotOpened(_) => "the page could not be opened: try again",
            #[cfg(feature = "sensitive")]
            Self::Page(crate::sensitive::PageError::Invalid(_)) => "no valid answer was given",
            #[cfg(feature = "sensitive")]
            Self::Page(_) => "the answer could not be read: try again",
        }
    }

    /// Its event (module `trace`): the reason, and what is not secret of
    /// the error (a JSON-RPC code, a count), never its text.
    pub(crate) fn trace(&self) {
        match self {
            Self::NotSent(_) => refused!(NotSent),
            Self::Request(error) => match error.failure() {
                RequestFailure::ErrorResponse { code } => refused!(ClientRefused, code = code),
                RequestFailure::Closed => refused!(RequestFailed, failure = "closed"),
                RequestFailure::TimedOut => refused!(RequestFailed, failure = "timed_out"),
                RequestFailure::Cancelled => refused!(RequestFailed, failure = "cancelled"),
                RequestFailure::Other => refused!(RequestFailed, failure = "other"),
            },
            Self::Unreadable(_) | Self::Url(_) => refused!(UnreadableAnswer),
            Self::Invalid { errors, attempts } => refused!(
                RetriesExhausted,
                attempts = attempts,
                errors = errors.errors().len()
            ),
            Self::Check(_) => refused!(CheckFailed),
            Self::Completion(_) => refused!(CompletionRefused),
            #[cfg(feature = "sensitive")]
            Self::PageNotOpened(error) => {
                use crate::sensitive::OpenError;
                match error {
                    // Its event was emitted where the store refused it.
                    OpenError::Store(_) => {}
                    OpenError::Server(_) | OpenError::Random(_) => refused!(Internal),
                    _ => refused!(NotSent),
                }
            }
            #[cfg(feature = "sensitive")]
            Self::Page(error) => {
                use crate::sensitive::PageError;
                // The flows ask again instead of failing with an invalid
                // answer (`flow::page`); never reached from them.
                match error {
                    PageError::Invalid(errors) => {
                        refused!(InvalidSubmission, errors = errors.errors().len());
                    }
                    PageError::Store(error) => refused!(StoreFailed, cause = error.cause()),
                }
            }
        }
    }
}

impl std::error::Error for ElicitError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::NotSent(e) => Some(e),
            Self::Request(e) => Some(e),
            Self::Unreadable(e) => Some(e),
            Self::Invalid { errors, .. } => Some(errors),
            Self::Check(e) => Some(&**e),
            Self::Url(e) => Some(e),
            Self::Completion(e) => Some(e),
            #[cfg(feature = "sensitive")]
            Self::PageNotOpened(e) => Some(e),
            #[cfg(feature = "sensitive")]
            Self::Page(e) => Some(e),
        }
    }
}

/// A transport's request that failed: what happened, in words that hold
/// nothing the client wrote, and the transport's own error
/// (`agent_client_protocol::Error`, rmcp's `ServiceError`) for your log.
#[derive(Debug)]
pub struct RequestError {
    failure: RequestFailure,
    source: Box<dyn StdError + Send + Sync>,
}

/// What happened to a request that failed, whatever the transport.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum RequestFailure {
    /// The client answered with this JSON-RPC error code.
    ErrorResponse {
        /// The code (`-32602` when a client cannot accept the request).
        code: i64,
    },
    /// The connection closed before the answer.
    Closed,
    /// No answer in time.
    TimedOut,
    /// The request was cancelled.
    Cancelled,
    /// Anything else the transport reports (a request it could not send,
    /// an answer of another kind).
    Other,
}

impl RequestError {
    /// The transport's `error`, which was `failure`.
    pub(crate) fn new(
        failure: RequestFailure,
        error: impl StdError + Send + Sync + 'static,
    ) -> Self {
        Self {
            failure,
            source: Box::new(error),
        }
    }

    /// What happened (a JSON-RPC error's code is in
    /// [`RequestFailure::ErrorResponse`]).
    pub fn failure(&self) -> RequestFailure {
        self.failure
    }

    /// The transport's own error, if it is an `E`: `agent_client_protocol::Error`
    /// on the ACP SDK, `rmcp::ServiceError` on rmcp (also
    /// [`source`](StdError::source)). It may hold the client's own text: log
    /// it, never show it.
    pub fn downcast_ref<E: StdError + 'static>(&self) -> Option<&E> {
        self.source.downcast_ref()
    }

    /// The transport's own error, owned.
    pub fn into_inner(self) -> Box<dyn StdError + Send + Sync> {
        self.source
    }
}

impl fmt::Display for RequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.failure {
            RequestFailure::ErrorResponse { code } => write!(
                f,
                "the client answered the elicitation with JSON-RPC error {code} ({})",
                code_name(code)
            ),
            RequestFailure::Closed => f.write_str(
                "the connection to the client closed before it answered the elicitation",
            ),
            RequestFailure::TimedOut => {
                f.write_str("the client did not answer the elicitation in time")
            }
            RequestFailure::Cancelled => f.write_str("the elicitation request was cancelled"),
            RequestFailure::Other => {
                f.write_str("the elicitation could not be sent or its answer could not be read")
            }
        }
    }
}

impl StdError for RequestError {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        Some(&*self.source)
    }
}

/// A JSON-RPC error code's standard name.
fn code_name(code: i64) -> &'static str {
    match code {
        -32700 => "Parse error",
        -32600 => "Invalid request",
        -32601 => "Method not found",
        -32602 => "Invalid params",
        -32603 => "Internal error",
        -32099..=-32000 => "Server error",
        _ => "an application's error",
    }
}
