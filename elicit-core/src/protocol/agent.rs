//! The agent side: one [`AgentConnection`] per client connection.
//!
//! See the [module guide](crate::protocol#writing-an-agent) for the whole
//! flow.

use std::collections::hash_map::RandomState;
use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::hash::{BuildHasher, Hasher};
use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::{Map, Value};

use crate::Elicit;
use crate::credential::looks_like_credential;
use crate::error::{ContentError, SchemaError};
use crate::limits::{AGENT_COMPLETED_IDS_REMEMBERED, MAX_OUTSTANDING_URLS};

use super::messages::{
    CompleteElicitationNotification, CreateElicitationRequest, CreateElicitationResponse,
    ElicitationAction, ElicitationCapabilities, ElicitationId, ElicitationScope, Mode,
};
pub use super::outcome::{AwaitingCompletion, Outcome, UrlOutcome};
use super::url::{UrlRejection, check_url};

static NEXT_CONNECTION: AtomicU64 = AtomicU64::new(1);

/// A user identity **your agent verified itself** (its own login session,
/// OAuth token validation, ...). URL-mode elicitations are bound to it, and
/// the out-of-band completion must come from the same user.
///
/// Never build one from anything the client sent over ACP: a client-supplied
/// identity, or a `sessionId`, is not a verified user.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct VerifiedUser(String);

impl VerifiedUser {
    /// The identity your authentication established (a stable user id).
    pub fn new(id: impl Into<String>) -> Self {
        Self(id.into())
    }

    /// The id.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Identities are personal data: `Debug` does not print them.
impl fmt::Debug for VerifiedUser {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("VerifiedUser(..)")
    }
}

/// Who a URL-mode elicitation is bound to, besides this connection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum UserBinding {
    /// The user your agent authenticated. The completion must report the
    /// same user, or it is refused (the protocol's phishing defence).
    Verified(VerifiedUser),
    /// Your agent has no user authentication: the elicitation is bound to
    /// this connection only, and any completion of it is accepted.
    NoUserAuthentication,
}

/// A URL-mode elicitation to send, the same on every transport: the message
/// the client shows and the URL it offers to open; optionally the
/// `elicitationId` (a fresh one otherwise), the verified user it is
/// for, and whether it is sensitive input. What [`AgentConnection::url`],
/// the ACP SDK's `Elicitor::elicit_url` and rmcp's `Elicitor::elicit_url`
/// and `Rounds::url` take.
///
/// For sensitive input (passwords, API keys, tokens, payment details), mark
/// it [`sensitive`](Self::sensitive): URL mode or nothing, never a form.
///
/// ```
/// use elicit_core::protocol::agent::{UrlRequest, VerifiedUser};
///
/// let alice = VerifiedUser::new("user-42");
/// let request = UrlRequest::new(
///     "Please authorize access to your repositories.",
///     "https://agent.example.com/connect?elicitation=github-oauth-001",
/// )
/// .elicitation_id("github-oauth-001")
/// .for_user(&alice);
/// assert_eq!(request.id().map(|id| id.as_str()), Some("github-oauth-001"));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct UrlRequest {
    message: String,
    url: String,
    binding: UserBinding,
    elicitation_id: Option<ElicitationId>,
    meta: Option<Map<String, Value>>,
    sensitive: bool,
}

impl UrlRequest {
    /// A URL elicitation showing `message` and offering to open `url`, bound
    /// to the connection only (any completion of it is accepted) until
    /// [`for_user`](Self::for_user). The URL is checked when the request is
    /// sent.
    pub fn new(message: impl Into<String>, url: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            url: url.into(),
            binding: UserBinding::NoUserAuthentication,
            elicitation_id: None,
            meta: None,
            sensitive: false,
        }
    }

    /// For the verified user `user` (from your server's authentication):
    /// the elicitation's completion must report the same user, or it is
    /// refused, as the protocol requires.
    #[must_use]
    pub fn for_user(mut self, user: &VerifiedUser) -> Self {
        self.binding = UserBinding::Verified(user.clone());
        self
    }

    /// Marks the request as sensitive input (secrets, credentials,
    /// payments): a client without URL mode gets
    /// [`SendError::SensitiveInputNeedsUrlMode`] rather than
    /// [`SendError::ModeNotAdvertised`], which says that there is no
    /// fallback to a form, whatever the client supports.
    #[must_use]
    pub fn sensitive(mut self) -> Self {
        self.sensitive = true;
        self
    }

    /// Uses this `elicitationId` instead of a fresh one (e.g. because the URL
    /// contains it). Refused if it is outstanding on the connection.
    #[must_use]
    pub fn elicitation_id(mut self, id: impl Into<ElicitationId>) -> Self {
        self.elicitation_id = Some(id.into());
        self
    }

    /// Sets the request's `_meta`.
    #[must_use]
    pub fn meta(mut self, meta: Map<String, Value>) -> Self {
        self.meta = Some(meta);
        self
    }

    /// The message the client shows.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The URL the client offers to open.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The `elicitationId` given, if any (otherwise the connection draws a
    /// fresh one).
    pub fn id(&self) -> Option<&ElicitationId> {
        self.elicitation_id.as_ref()
    }
}

/// Why the agent cannot send an elicitation. Each message says what to do.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum SendError {
    /// No `initialize` was recorded on this connection, so what the client
    /// advertised is unknown (it may well support the mode): the agent's
    /// own setup is missing a call.
    NotInitialized,
    /// The client did not advertise this mode (or elicitation at all).
    ModeNotAdvertised {
        /// The mode.
        mode: Mode,
    },
    /// Sensitive input needs URL mode, which the client did not advertise.
    /// There is no fallback to form mode.
    SensitiveInputNeedsUrlMode,
    /// The URL is refused by the URL policy.
    UnsafeUrl(UrlRejection),
    /// The caller-given `elicitationId` is outstanding on this connection.
    DuplicateElicitationId(ElicitationId),
    /// The caller-given `elicitationId` is empty.
    EmptyElicitationId,
    /// 1024 URL elicitations are outstanding already ([limits](crate::reference::limits)).
    TooManyOutstanding,
    /// The form's schema is not a valid restricted schema.
    InvalidFormSchema(SchemaError),
    /// The request would go to the client in the middle of a call, and
    /// there is no session to send it on (an MCP 2025-11-25 server without
    /// sessions, behind a balancer).
    NoSession,
    /// The form has a part this transport cannot carry (MCP: a custom
    /// `format`, a select rmcp refuses: the `mcp` module's conversion rules).
    UnsendableForm(crate::ConversionError),
    /// A form property is named like a credential.
    CredentialField {
        /// The property's wire name.
        field: String,
    },
}

impl std::fmt::Display for SendError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NotInitialized => f.write_str("no `initialize` was recorded on this connection, so the client's elicitation \
         capabilities are unknown: call `AgentElicitations::initialize(&request)` in your \
         `initialize` handler (or build the state with `AgentElicitations::from_initialize`, \
         or `AgentConnection::new` with the client's capabilities)"),
            Self::ModeNotAdvertised { mode } => write!(f, "the client did not advertise elicitation {mode} mode (ACP: \
         `clientCapabilities.elicitation.{mode}`; MCP: `capabilities.elicitation`, where an \
         empty object means form mode only): nothing was sent; fall back (ask in the \
         conversation, use a default) or fail the operation"),
            Self::SensitiveInputNeedsUrlMode => f.write_str("sensitive input needs URL mode, which the client did not advertise: never fall \
         back to form mode; use another safe flow (e.g. tell the user where to configure \
         it) or fail the operation"),
            Self::UnsafeUrl(e) => write!(f, "unsafe elicitation URL: {e}"),
            Self::DuplicateElicitationId(e) => write!(f, "the elicitationId `{e}` is already outstanding on this connection: ids must be \
         unique among outstanding URL elicitations; let the connection generate one"),
            Self::EmptyElicitationId => f.write_str("the elicitationId is empty: give a non-empty id or let the connection generate \
         one"),
            Self::TooManyOutstanding => write!(f, "{MAX_OUTSTANDING_URLS} URL elicitations are outstanding on this connection already: \
         complete or abandon some before sending another"),
            Self::InvalidFormSchema(e) => write!(f, "the form cannot be sent: {e}"),
            Self::NoSession => f.write_str("this server has no session to send a request to the client in the middle of a call \
         (MCP 2025-11-25 without sessions): ask on MCP 2026-07-28 (input-required rounds), \
         keep sessions, or ask for the input on a page of the server's (which such a server \
         sends as URL elicitation required, -32042)"),
            Self::UnsendableForm(e) => write!(f, "the form cannot be sent over this transport: {e}; change the form"),
            Self::CredentialField { field } => write!(f, "the form field `{field}` looks like a credential: form mode must never collect \
         secrets; use URL mode (a `UrlRequest` marked `sensitive()`) instead"),
        }
    }
}

impl std::error::Error for SendError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::UnsafeUrl(e) => Some(e),
            Self::InvalidFormSchema(e) => Some(e),
            Self::UnsendableForm(e) => Some(e),
            _ => None,
        }
    }
}

/// Why a form cannot be sent, whatever the SDK: the one check behind
/// [`AgentConnection::form`] and the rmcp calls.
#[derive(Debug)]
pub(crate) enum Unsendable {
    /// The schema is not a valid restricted schema.
    Schema(SchemaError),
    /// A field named like a credential (its wire name).
    Credential(String),
}

impl From<Unsendable> for SendError {
    fn from(unsendable: Unsendable) -> Self {
        match unsendable {
            Unsendable::Schema(e) => SendError::InvalidFormSchema(e),
            Unsendable::Credential(field) => SendError::CredentialField { field },
        }
    }
}

/// `T`'s schema, if a form may be sent with it: a valid restricted schema
/// with no field named like a credential. Built once per form type where it
/// can be (a derived form that is not generic), so its pattern is compiled
/// once too.
pub(crate) fn sendable_schema<T: Elicit>()
-> Result<std::borrow::Cow<'static, crate::ElicitationSchema>, Unsendable> {
    let schema = T::cached_schema();
    schema.check().map_err(Unsendable::Schema)?;
    if let Some(field) = schema.properties.names().find(|n| looks_like_credential(n)) {
        return Err(Unsendable::Credential(field.to_owned()));
    }
    Ok(schema)
}

/// Why a URL-mode response cannot be matched to its elicitation.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum UrlOutcomeError {
    /// The [`PendingUrl`] belongs to another connection.
    WrongConnection,
    /// The elicitation is no longer outstanding (abandoned, or already
    /// declined or cancelled).
    NotOutstanding(ElicitationId),
}

impl std::fmt::Display for UrlOutcomeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::WrongConnection => f.write_str(
                "this pending URL elicitation belongs to another client connection: handle each \
         response on the connection that sent the request",
            ),
            Self::NotOutstanding(e) => write!(
                f,
                "the URL elicitation `{e}` is not outstanding on this connection (abandoned or \
         already answered): ignore this response"
            ),
        }
    }
}

impl std::error::Error for UrlOutcomeError {}

/// Why an out-of-band completion is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum CompletionError {
    /// No such outstanding URL elicitation on this connection.
    NotOutstanding(ElicitationId),
    /// It was completed already.
    AlreadyCompleted(ElicitationId),
    /// The flow was completed by another user than the one it is bound to.
    IdentityMismatch(ElicitationId),
    /// The elicitation is bound to a verified user, but the completion did
    /// not say who completed it.
    IdentityMissing(ElicitationId),
}

impl std::fmt::Display for CompletionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NotOutstanding(e) => write!(
                f,
                "no outstanding URL elicitation `{e}` on this connection: do not notify this \
         client (it may belong to another connection, or be abandoned)"
            ),
            Self::AlreadyCompleted(e) => write!(
                f,
                "the URL elicitation `{e}` was already completed: do not complete it twice"
            ),
            Self::IdentityMismatch(e) => write!(
                f,
                "the URL elicitation `{e}` was completed by a different user than the one who \
         started it: refuse the result (possible phishing) and keep waiting for the right \
         user"
            ),
            Self::IdentityMissing(e) => write!(
                f,
                "the URL elicitation `{e}` is bound to a verified user, but the completion does \
         not say who completed it: authenticate the user in the out-of-band flow"
            ),
        }
    }
}

impl std::error::Error for CompletionError {}

/// A form request sent and not answered yet: reads the answer as `T`.
#[must_use = "read the client's response with `outcome`"]
pub struct PendingForm<T> {
    _form: PhantomData<fn() -> T>,
}

impl<T> fmt::Debug for PendingForm<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PendingForm<{}>", std::any::type_name::<T>())
    }
}

impl<T: Elicit> PendingForm<T> {
    /// Reads the client's response: see [`Outcome::from_response`].
    pub fn outcome(self, response: &CreateElicitationResponse) -> Result<Outcome<T>, ContentError> {
        Outcome::from_response(response)
    }
}

/// A URL request sent and not answered yet. Read the answer with
/// [`AgentConnection::url_outcome`] on the same connection.
#[derive(Debug, PartialEq, Eq)]
#[must_use = "read the client's response with `AgentConnection::url_outcome`"]
pub struct PendingUrl {
    id: ElicitationId,
    connection: u64,
}

impl PendingUrl {
    /// The request's `elicitationId`.
    pub fn id(&self) -> &ElicitationId {
        &self.id
    }
}

#[derive(Debug)]
enum UrlState {
    Outstanding(UserBinding),
    Completed,
}

/// The agent's elicitation state for **one** client connection: that
/// client's capabilities and its outstanding URL elicitations.
///
/// Create one per connection, right after `initialize`, and drop it with the
/// connection. It is deliberately not `Clone`: two connections must never
/// share one, because `elicitationId`s are unique per connection and a
/// completion may only be sent to the client that received the request.
/// Every method that changes state takes `&mut self`; a [`PendingUrl`] from
/// another connection is refused.
///
/// See the [module guide](crate::protocol#writing-an-agent).
pub struct AgentConnection {
    capabilities: Option<ElicitationCapabilities>,
    /// Whether the client's `initialize` was recorded (`capabilities` is
    /// what it advertised); only [`AgentConnection::awaiting_initialize`]
    /// starts without.
    initialized: bool,
    urls: HashMap<ElicitationId, UrlState>,
    completed_order: VecDeque<ElicitationId>,
    connection: u64,
    nonce: u64,
    counter: u64,
}

impl fmt::Debug for AgentConnection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AgentConnection")
            .field("capabilities", &self.capabilities)
            .field("outstanding", &self.outstanding().count())
            .finish_non_exhaustive()
    }
}

impl AgentConnection {
    /// The state for a client that advertised `capabilities` (its
    /// `clientCapabilities.elicitation`; `None` when omitted or `null`).
    pub fn new(capabilities: Option<ElicitationCapabilities>) -> Self {
        let connection = NEXT_CONNECTION.fetch_add(1, Ordering::Relaxed);
        let mut hasher = RandomState::new().build_hasher();
        hasher.write_u64(connection);
        hasher.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or_default(),
        );
        Self {
            capabilities,
            initialized: true,
            urls: HashMap::new(),
            completed_order: VecDeque::new(),
            connection,
            nonce: hasher.finish(),
            counter: 0,
        }
    }

    /// The state of a connection whose `initialize` is not recorded yet:
    /// every request is refused with [`SendError::NotInitialized`] (not
    /// "the client did not advertise"). The ACP SDK glue starts here and
    /// replaces it at `initialize`.
    #[cfg(feature = "acp-sdk")]
    pub(crate) fn awaiting_initialize() -> Self {
        Self {
            initialized: false,
            ..Self::new(None)
        }
    }

    /// Records what the client advertised now (an MCP server's client
    /// capabilities, read at each call from its `initialize`); the
    /// outstanding URL elicitations are kept.
    #[cfg(feature = "rmcp")]
    pub(crate) fn advertise(&mut self, capabilities: Option<ElicitationCapabilities>) {
        self.capabilities = capabilities;
        self.initialized = true;
    }

    /// The state for a client, from its whole `clientCapabilities` object.
    pub fn from_client_capabilities(client_capabilities: &Value) -> Self {
        Self::new(ElicitationCapabilities::from_client_capabilities(
            client_capabilities,
        ))
    }

    /// What the client advertised.
    pub fn capabilities(&self) -> Option<&ElicitationCapabilities> {
        self.capabilities.as_ref()
    }

    /// Whether the client advertised `mode`.
    pub fn supports(&self, mode: Mode) -> bool {
        self.capabilities.as_ref().is_some_and(|c| c.supports(mode))
    }

    fn require(&self, mode: Mode) -> Result<(), SendError> {
        if !self.initialized {
            Err(SendError::NotInitialized)
        } else if self.supports(mode) {
            Ok(())
        } else {
            Err(SendError::ModeNotAdvertised { mode })
        }
    }

    /// Whether sensitive input may be asked: URL mode, never a fallback.
    pub(crate) fn require_sensitive(&self) -> Result<(), SendError> {
        match self.require(Mode::Url) {
            Err(SendError::ModeNotAdvertised { .. }) => Err(SendError::SensitiveInputNeedsUrlMode),
            other => other,
        }
    }

    /// Builds a form-mode request for `T` in `scope`.
    ///
    /// Refused when the client did not advertise form mode, when `T`'s
    /// schema fails [`ElicitationSchema::check`](crate::ElicitationSchema::check),
    /// or when a property is named like a credential (derived forms are
    /// checked at compile time; this guards hand-written ones).
    pub fn form<T: Elicit>(
        &self,
        scope: ElicitationScope,
        message: impl Into<String>,
    ) -> Result<(CreateElicitationRequest, PendingForm<T>), SendError> {
        self.require(Mode::Form)?;
        let schema = sendable_schema::<T>().map_err(SendError::from)?;
        Ok((
            CreateElicitationRequest::form(scope, message, schema.into_owned()),
            PendingForm { _form: PhantomData },
        ))
    }

    /// [`form`](Self::form) for some of `T`'s fields only: `schema`, the
    /// form's own narrowed to them (`flow::partial`). Refused as `form`
    /// refuses `T` (what holds for the whole form holds for its part).
    #[cfg_attr(not(any(feature = "acp-sdk", feature = "rmcp")), allow(dead_code))]
    pub(crate) fn form_narrowed<T: Elicit>(
        &self,
        scope: ElicitationScope,
        message: impl Into<String>,
        schema: &crate::ElicitationSchema,
    ) -> Result<(CreateElicitationRequest, PendingForm<T>), SendError> {
        self.require(Mode::Form)?;
        sendable_schema::<T>().map_err(SendError::from)?;
        Ok((
            CreateElicitationRequest::form(scope, message, schema.clone()),
            PendingForm { _form: PhantomData },
        ))
    }

    /// Builds a URL-mode request and records it as outstanding, bound to
    /// this connection and the user the request is bound to ([`UrlRequest::for_user`]).
    ///
    /// Refused when the client did not advertise URL mode
    /// ([`SendError::SensitiveInputNeedsUrlMode`] for a
    /// [`sensitive`](UrlRequest::sensitive) request: sensitive input is URL
    /// mode, where the secret goes straight to your server and never
    /// through ACP, or nothing), when the URL is unsafe ([`check_url`]), or
    /// when a caller-given id is empty or outstanding.
    pub fn url(
        &mut self,
        scope: ElicitationScope,
        request: UrlRequest,
    ) -> Result<(CreateElicitationRequest, PendingUrl), SendError> {
        if request.sensitive {
            self.require_sensitive()?;
        } else {
            self.require(Mode::Url)?;
        }
        check_url(&request.url).map_err(SendError::UnsafeUrl)?;
        // Every completed id is in `completed_order`; the rest are outstanding.
        if self.urls.len() - self.completed_order.len() >= MAX_OUTSTANDING_URLS {
            return Err(SendError::TooManyOutstanding);
        }
        let id = match request.elicitation_id {
            Some(id) if id.as_str().is_empty() => return Err(SendError::EmptyElicitationId),
            Some(id) if self.is_outstanding(&id) => {
                return Err(SendError::DuplicateElicitationId(id));
            }
            Some(id) => id,
            None => self.fresh_id(),
        };
        if matches!(self.urls.get(&id), Some(UrlState::Completed)) {
            self.completed_order.retain(|c| *c != id);
        }
        self.urls
            .insert(id.clone(), UrlState::Outstanding(request.binding));
        let mut message =
            CreateElicitationRequest::url(scope, request.message, id.clone(), request.url);
        message.meta = request.meta;
        Ok((
            message,
            PendingUrl {
                id,
                connection: self.connection,
            },
        ))
    }

    fn fresh_id(&mut self) -> ElicitationId {
        loop {
            self.counter = self.counter.wrapping_add(1);
            let id = ElicitationId::new(format!("elicit-{:016x}-{}", self.nonce, self.counter));
            if !self.urls.contains_key(&id) {
                return id;
            }
        }
    }

    /// Reads the client's response to a URL request.
    ///
    /// `accept` gives [`UrlOutcome::Consented`]: the user agreed to open the
    /// URL, nothing more; the elicitation stays outstanding until
    /// [`complete`](Self::complete). `decline` and `cancel` end it. Content
    /// in the response is ignored: nothing obtained out of band travels back
    /// over ACP. (If your callback already completed it, a race,
    /// [`is_completed`](Self::is_completed) says so.)
    pub fn url_outcome(
        &mut self,
        pending: PendingUrl,
        response: &CreateElicitationResponse,
    ) -> Result<UrlOutcome, UrlOutcomeError> {
        if pending.connection != self.connection {
            return Err(UrlOutcomeError::WrongConnection);
        }
        let id = pending.id;
        let outstanding = match self.urls.get(&id) {
            None => return Err(UrlOutcomeError::NotOutstanding(id)),
            Some(state) => matches!(state, UrlState::Outstanding(_)),
        };
        Ok(match &response.action {
            ElicitationAction::Accept { .. } => UrlOutcome::Consented(AwaitingCompletion::new(id)),
            ElicitationAction::Decline | ElicitationAction::Cancel => {
                if outstanding {
                    self.urls.remove(&id);
                }
                if matches!(response.action, ElicitationAction::Decline) {
                    UrlOutcome::Declined
                } else {
                    UrlOutcome::Cancelled
                }
            }
            ElicitationAction::Other(other) => UrlOutcome::UnknownAction(other.clone()),
        })
    }

    /// Reports that the out-of-band interaction of `id` finished, and who
    /// finished it (the user **your** out-of-band flow authenticated; `None`
    /// if it authenticates no one). Returns the `elicitation/complete`
    /// notification to send to this connection's client (sending it is
    /// optional) and marks the elicitation completed.
    ///
    /// Refused when `id` is not outstanding on this connection, was already
    /// completed, or is bound to a verified user and `completed_by` is
    /// missing or another user. A refused completion leaves the elicitation
    /// as it was: the right user can still complete it.
    pub fn complete(
        &mut self,
        id: &ElicitationId,
        completed_by: Option<&VerifiedUser>,
    ) -> Result<CompleteElicitationNotification, CompletionError> {
        match self.urls.get(id) {
            None => return Err(CompletionError::NotOutstanding(id.clone())),
            Some(UrlState::Completed) => return Err(CompletionError::AlreadyCompleted(id.clone())),
            Some(UrlState::Outstanding(UserBinding::Verified(user))) => match completed_by {
                None => return Err(CompletionError::IdentityMissing(id.clone())),
                Some(by) if by != user => {
                    return Err(CompletionError::IdentityMismatch(id.clone()));
                }
                Some(_) => {}
            },
            Some(UrlState::Outstanding(UserBinding::NoUserAuthentication)) => {}
        }
        self.urls.insert(id.clone(), UrlState::Completed);
        self.completed_order.push_back(id.clone());
        while self.completed_order.len() > AGENT_COMPLETED_IDS_REMEMBERED {
            if let Some(old) = self.completed_order.pop_front() {
                self.urls.remove(&old);
            }
        }
        Ok(CompleteElicitationNotification::new(id.clone()))
    }

    /// Stops waiting for `id` (timed out, or the client answered with a
    /// JSON-RPC error). Returns whether it was outstanding. A later
    /// completion of it is refused.
    pub fn abandon(&mut self, id: &ElicitationId) -> bool {
        if self.is_outstanding(id) {
            self.urls.remove(id);
            true
        } else {
            false
        }
    }

    /// Whether `id` is an outstanding URL elicitation of this connection.
    pub fn is_outstanding(&self, id: &ElicitationId) -> bool {
        matches!(self.urls.get(id), Some(UrlState::Outstanding(_)))
    }

    /// Whether `id` was completed on this connection (and is still
    /// remembered: the last 4096, [limits](crate::reference::limits)).
    pub fn is_completed(&self, id: &ElicitationId) -> bool {
        matches!(self.urls.get(id), Some(UrlState::Completed))
    }

    /// The outstanding URL elicitations, in no particular order.
    pub fn outstanding(&self) -> impl Iterator<Item = &ElicitationId> {
        self.urls
            .iter()
            .filter(|(_, s)| matches!(s, UrlState::Outstanding(_)))
            .map(|(id, _)| id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::url::UrlRejection;

    fn session() -> ElicitationScope {
        ElicitationScope::session("s")
    }

    fn unbound(url: &str) -> UrlRequest {
        UrlRequest::new("m", url)
    }

    #[test]
    fn fresh_ids_are_unique_and_distinct_across_connections() {
        let mut a = AgentConnection::new(Some(ElicitationCapabilities::url_only()));
        let mut b = AgentConnection::new(Some(ElicitationCapabilities::url_only()));
        let (_, p1) = a.url(session(), unbound("https://x.example/")).unwrap();
        let (_, p2) = a.url(session(), unbound("https://x.example/")).unwrap();
        let (_, p3) = b.url(session(), unbound("https://x.example/")).unwrap();
        assert_ne!(p1.id(), p2.id());
        assert_ne!(p1.id(), p3.id());
        // A pending URL of connection `a` is refused on `b`.
        let response = CreateElicitationResponse::accept(None);
        assert_eq!(
            b.url_outcome(p1, &response),
            Err(UrlOutcomeError::WrongConnection)
        );
        let _ = (p2, p3);
    }

    #[test]
    fn unsafe_urls_are_refused() {
        let mut a = AgentConnection::new(Some(ElicitationCapabilities::url_only()));
        assert_eq!(
            a.url(session(), unbound("http://example.com/"))
                .unwrap_err(),
            SendError::UnsafeUrl(UrlRejection::InsecureHttp {
                host: "example.com".into()
            })
        );
        assert_eq!(a.outstanding().count(), 0);
    }

    #[test]
    fn caller_id_reusable_after_completion() {
        let mut a = AgentConnection::new(Some(ElicitationCapabilities::url_only()));
        let (_, p) = a
            .url(session(), unbound("https://x.example/").elicitation_id("e"))
            .unwrap();
        assert!(matches!(
            a.url(session(), unbound("https://x.example/").elicitation_id("e")),
            Err(SendError::DuplicateElicitationId(_))
        ));
        a.complete(p.id(), None).unwrap();
        assert!(
            a.url(session(), unbound("https://x.example/").elicitation_id("e"))
                .is_ok()
        );
        assert!(a.is_outstanding(&"e".into()));
    }
}
