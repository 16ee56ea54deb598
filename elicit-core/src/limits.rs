//! Every bound elicit-core puts on what it reads, keeps or repeats, in one
//! place. Crate-private: users read them, with the builders' defaults, in
//! [`reference::limits`](crate::reference::limits), whose tables a test of
//! the crate root checks against these values.

// ---------------------------------------------------------------------------
// Patterns (schema::Pattern, rules)

// ---------------------------------------------------------------------------
// What an error may hold of hostile input (error, rules)

/// The most characters of a submitted value an error repeats
/// ([`FieldErrorKind::NotAnOption`](crate::FieldErrorKind::NotAnOption),
/// [`FieldErrorKind::DuplicateItem`](crate::FieldErrorKind::DuplicateItem),
/// and an unknown key's name): longer ones are cut, then end with `…`.
pub const MAX_ECHOED_CHARS: usize = 64;

/// The most characters of a type's refusal an error keeps
/// ([`FieldErrorKind::Refused`](crate::FieldErrorKind::Refused)): a user
/// type's message may repeat the value.
pub const MAX_REASON_CHARS: usize = 256;

/// The most unknown keys a `deny_unknown_fields` form lists one by one; the
/// next one is reported as
/// [`FieldErrorKind::UnknownFieldAndMore`](crate::FieldErrorKind::UnknownFieldAndMore)
/// with the count of the rest.
pub const MAX_UNKNOWN_FIELDS_LISTED: usize = 16;

// ---------------------------------------------------------------------------
// URL elicitations in flight (protocol::agent, protocol::client)

/// The most URL elicitations a client tracks at once; a request beyond it is
/// answered with `-32602`.
pub const MAX_PENDING_URLS: usize = 1024;

/// The most URL elicitations an
/// [`AgentConnection`](crate::protocol::agent::AgentConnection) keeps
/// outstanding at once (sent, not yet declined, cancelled, completed or
/// abandoned): the next one is refused with
/// [`SendError::TooManyOutstanding`](crate::protocol::agent::SendError::TooManyOutstanding).
/// It is the client's own limit, [`MAX_PENDING_URLS`], so the table of
/// either side stays bounded and an agent never sends a request a client
/// built on this crate must refuse.
pub const MAX_OUTSTANDING_URLS: usize = MAX_PENDING_URLS;

/// How many completed URL elicitation ids an
/// [`AgentConnection`](crate::protocol::agent::AgentConnection) remembers
/// (per connection), to refuse a second completion with
/// [`CompletionError::AlreadyCompleted`](crate::protocol::agent::CompletionError::AlreadyCompleted).
/// Older ones are forgotten and then refused as
/// [`CompletionError::NotOutstanding`](crate::protocol::agent::CompletionError::NotOutstanding).
/// (The client side has its own, smaller memory:
/// [`CLIENT_COMPLETED_IDS_REMEMBERED`].)
pub const AGENT_COMPLETED_IDS_REMEMBERED: usize = 4096;

/// How many completed URL elicitation ids a
/// [`ClientConnection`](crate::protocol::client::ClientConnection)
/// remembers (per connection), to report
/// [`Completion::IgnoredAlreadyCompleted`](crate::protocol::client::Completion::IgnoredAlreadyCompleted);
/// older ones are reported as
/// [`Completion::IgnoredUnknown`](crate::protocol::client::Completion::IgnoredUnknown),
/// which is ignored all the same.
pub const CLIENT_COMPLETED_IDS_REMEMBERED: usize = 1024;

/// How many times [`answer`](crate::protocol::client::answer) shows the same
/// request again after an answer it could not send, before it gives up with
/// `-32603`.
pub const MAX_RENDER_ATTEMPTS: usize = 3;

// ---------------------------------------------------------------------------
// URLs (protocol::url)

/// The longest URL accepted, in bytes.
pub const MAX_URL_LEN: usize = 4096;

/// A host longer than this (in bytes) gets
/// [`UrlWarning::LongHost`](crate::protocol::url::UrlWarning::LongHost).
pub const LONG_HOST_CHARS: usize = 60;

/// A host with more labels than this gets
/// [`UrlWarning::LongHost`](crate::protocol::url::UrlWarning::LongHost).
pub const LONG_HOST_LABELS: usize = 5;

// ---------------------------------------------------------------------------
// Sensitive input (sensitive::read_body)

/// The most name-value pairs a posted page body may hold: far more than any
/// form's page posts (one per field, one per ticked checkbox, the server's
/// own few), few enough that a hostile body is refused before it costs
/// anything.
#[cfg(any(test, feature = "sensitive"))]
pub const MAX_BODY_PAIRS: usize = 1024;
