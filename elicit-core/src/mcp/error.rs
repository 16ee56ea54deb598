//! What can fail converting a schema to MCP's shape, and reading rmcp's
//! `ElicitResult` as a typed outcome.

use ::rmcp::ServiceError;

use crate::error::{ContentError, JsonKind, property_prefix};
use crate::protocol::agent::{CompletionError, SendError, UrlOutcomeError};

/// A schema that cannot be sent over MCP. Names the property where there is
/// one.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{}{kind}", property_prefix(.property))]
pub struct ConversionError {
    property: Option<String>,
    kind: ConversionErrorKind,
}

impl ConversionError {
    /// An error at the property `name`.
    pub fn at(name: impl Into<String>, kind: ConversionErrorKind) -> Self {
        Self {
            property: Some(name.into()),
            kind,
        }
    }

    /// The property's wire name, if the error is about one.
    pub fn property(&self) -> Option<&str> {
        self.property.as_deref()
    }

    /// What cannot be sent.
    pub fn kind(&self) -> &ConversionErrorKind {
        &self.kind
    }
}

/// Why a schema cannot be sent over MCP.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ConversionErrorKind {
    /// A string `format` other than `email`, `uri`, `date` and `date-time`.
    #[error(
        "has format `{format}`, which MCP does not allow: use `email`, `uri`, `date`, \
         `date-time` or no format"
    )]
    CustomFormat {
        /// The format.
        format: String,
    },
    /// A property type MCP does not have.
    #[error(
        "has type `{type_}`, which MCP forms do not have (string, number, integer, \
         boolean, single- and multi-select)"
    )]
    UnknownPropertyType {
        /// The wire `type`.
        type_: String,
    },
    /// Multi-select `items` of an unknown kind.
    #[error("is a multi-select with `items` of a kind MCP does not have")]
    UnknownItems,
    /// A property name that appears twice.
    #[error("appears twice (e.g. through `flatten`)")]
    DuplicateProperty,
    /// rmcp's enum builder refused the select (a default that is not an
    /// option, `minItems` above `maxItems`, a default outside the bounds).
    #[error("is refused by rmcp: {reason}")]
    Rejected {
        /// rmcp's reason.
        reason: String,
    },
}

/// Why an rmcp `ElicitResult` could not be read as a form's [`Outcome`](crate::protocol::agent::Outcome).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum OutcomeError {
    /// `accept` came with `content` that is not a JSON object.
    #[error("the accepted `content` must be an object, got {found}")]
    ContentNotAnObject {
        /// What it was.
        found: JsonKind,
    },
    /// The accepted content breaks the form's rules (including a `pattern`
    /// the MCP client could not check): ask again or fail.
    // Not `transparent`: `source()` is the `ContentError` itself.
    #[error("{0}")]
    Invalid(#[from] ContentError),
    /// An action rmcp added after the version elicit was built against, whose
    /// name elicit cannot read.
    #[error("unreadable elicitation action: {reason}")]
    UnreadableAction {
        /// Why.
        reason: String,
    },
}

/// Why an [`ElicitExt`](super::ElicitExt) call returned no answer: the shape of the ACP
/// SDK's `ElicitError` (refusals before anything was sent under
/// [`NotSent`](Self::NotSent), the transport's failure under
/// [`Request`](Self::Request), then the answer's), plus the one refusal
/// only MCP has ([`UnsendableForm`](Self::UnsendableForm)). Each message
/// says what happened and what to do.
///
/// Match the variants you can act on and let the rest fail the tool call
/// with their message (the enum is `#[non_exhaustive]`, so a `_` arm is
/// needed anyway):
///
/// ```no_run
/// use elicit_core::mcp::{ElicitError, ElicitExt};
/// use elicit_core::Elicit;
/// use elicit_core::protocol::agent::{Outcome, SendError};
/// use rmcp::model::{CallToolResult, ContentBlock};
/// use rmcp::{Peer, RoleServer};
///
/// #[derive(Elicit)]
/// struct Confirm {
///     /// Go ahead with the deployment?
///     proceed: bool,
/// }
///
/// /// A tool's result: text for the model, and whether the call failed.
/// async fn deploy(peer: &Peer<RoleServer>) -> CallToolResult {
///     let text = match peer.elicit_form::<Confirm>("Deploy to production?").retry(2).await {
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
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ElicitError {
    /// Nothing was sent: the client did not advertise the mode (MCP's rule:
    /// see [`client_supports`](super::client_supports)), sensitive input needs URL mode, the form
    /// or the URL cannot be sent, the id is empty or outstanding. The
    /// message says what to do instead. The same refusals as the ACP SDK's
    /// `ElicitError::NotSent`.
    #[error("{0}")]
    NotSent(#[source] SendError),
    /// Nothing was sent: the form has a part MCP cannot carry (see the
    /// [rules](crate::mcp#conversion-rules)).
    #[error("the form cannot be sent over MCP, no request was sent: {0}")]
    UnsendableForm(#[source] ConversionError),
    /// rmcp could not send the request or notification, or the client
    /// answered with an error (transport closed, timeout, a JSON-RPC error,
    /// a protocol version without server-to-client requests, ...).
    ///
    /// The message says which of these it was, and nothing the client
    /// wrote: a client's error `message` and `data` can be anything (a
    /// stack trace, a dump of the request), so they stay in the source
    /// error, for your log, never in text a user reads.
    #[error(
        "{}; treat it as no answer (nothing was accepted) and fail the tool call or ask in \
         the conversation",
        service_failure(.0)
    )]
    Request(#[source] ServiceError),
    /// The client's answer cannot be read (accepted content that is not an
    /// object, an action elicit cannot name). Not asked again: it is a client
    /// fault, not the user's.
    #[error("the MCP client's answer cannot be read: {0}; nothing was accepted")]
    Unreadable(#[source] OutcomeError),
    /// Every answer broke the form's rules, the last one as `errors`, after
    /// `attempts` requests (see [`FormCall::retry`](crate::flow::FormCall::retry)).
    #[error(
        "no valid answer after {attempts} attempt(s), the last one: {errors}; nothing was \
         accepted: ask in the conversation or fail the tool call"
    )]
    Invalid {
        /// What was wrong with the last answer, by field.
        #[source]
        errors: ContentError,
        /// How many form requests were sent.
        attempts: u32,
    },
    /// A URL answer could not be matched to its elicitation (abandoned
    /// meanwhile).
    #[error("{0}")]
    Url(#[source] UrlOutcomeError),
    /// A completion was refused (not outstanding, completed twice, another
    /// user): the client is not notified.
    #[error("{0}")]
    Completion(#[source] CompletionError),
    /// The sensitive page could not be opened (feature `sensitive`):
    /// nothing was sent.
    #[cfg(feature = "sensitive")]
    #[error("{0}")]
    PageNotOpened(#[source] crate::sensitive::OpenError),
    /// The sensitive page failed after the user consented (feature
    /// `sensitive`): its store failed, or its answer did not fit the form.
    #[cfg(feature = "sensitive")]
    #[error("{0}")]
    Page(#[source] crate::sensitive::PageError),
}

/// [`ElicitError::Request`]'s words: what failed, with a JSON-RPC error's
/// code, never the client's own text.
fn service_failure(error: &ServiceError) -> String {
    match error {
        ServiceError::McpError(error) => format!(
            "the MCP client answered the elicitation with JSON-RPC error {}",
            error.code.0
        ),
        ServiceError::TransportClosed => {
            "the connection to the MCP client closed before it answered the elicitation".to_owned()
        }
        ServiceError::Timeout { .. } => {
            "the MCP client did not answer the elicitation in time".to_owned()
        }
        ServiceError::Cancelled { .. } => "the elicitation request was cancelled".to_owned(),
        _ => "rmcp could not send the elicitation or read its answer".to_owned(),
    }
}
