//! The client side: one [`ClientConnection`] per agent connection.
//!
//! See the [module guide](crate::protocol#writing-a-client) for the whole
//! flow.

use std::collections::{HashSet, VecDeque};

use serde_json::{Map, Value};

use crate::Content;
use crate::credential::looks_like_credential;
use crate::error::{ContentError, SchemaErrorKind, excerpt};
use crate::fingerprint::Fingerprint;
use crate::limits::{
    CLIENT_COMPLETED_IDS_REMEMBERED, MAX_ECHOED_CHARS, MAX_PENDING_URLS, MAX_RENDER_ATTEMPTS,
};
use crate::schema::ElicitationSchema;

use super::messages::{
    CompleteElicitationNotification, CreateElicitationRequest, CreateElicitationResponse,
    ElicitationCapabilities, ElicitationId, ElicitationMode, ElicitationScope, JsonRpcError, Mode,
};
use super::url::{UrlRejection, UrlReview, UrlVerdict};

pub use super::printable::printable;

/// The client's elicitation state for **one** agent connection: the
/// capabilities it advertised, and the URL elicitations it is tracking.
///
/// [`receive`](Self::receive) is the guard for incoming `elicitation/create`
/// requests; [`on_complete`](Self::on_complete) the tracker for
/// `elicitation/complete` notifications.
#[derive(Debug)]
pub struct ClientConnection {
    capabilities: Option<ElicitationCapabilities>,
    pending: HashSet<ElicitationId>,
    completed: VecDeque<ElicitationId>,
}

impl ClientConnection {
    /// The state for a client advertising `capabilities` (what it sends as
    /// `clientCapabilities.elicitation`; `None` for no elicitation support).
    pub fn new(capabilities: Option<ElicitationCapabilities>) -> Self {
        Self {
            capabilities,
            pending: HashSet::new(),
            completed: VecDeque::new(),
        }
    }

    /// What this client advertised.
    pub fn capabilities(&self) -> Option<&ElicitationCapabilities> {
        self.capabilities.as_ref()
    }

    fn supports(&self, mode: Mode) -> bool {
        self.capabilities.as_ref().is_some_and(|c| c.supports(mode))
    }

    /// Reads the raw params of an `elicitation/create` request, then
    /// [`receive`](Self::receive)s them. Params that do not parse are
    /// answered with `-32602`.
    pub fn receive_value(&mut self, params: Value) -> Result<Incoming, JsonRpcError> {
        let request: CreateElicitationRequest = serde_json::from_value(params).map_err(|e| {
            JsonRpcError::invalid_params(format!("Invalid params: elicitation/create: {e}"))
        })?;
        self.receive(request)
    }

    /// The guard for an incoming `elicitation/create` request.
    ///
    /// Answers with the `-32602` error object (send it as the JSON-RPC
    /// response's `error`) for a mode this client did not advertise, for any
    /// unknown mode, for a form it cannot render (its schema fails
    /// [`ElicitationSchema::check`]: a property of an unknown type, a nested
    /// object, contradictory bounds, ...; `data.notRenderable` lists why),
    /// and for a URL request whose `elicitationId` is already pending.
    /// Otherwise returns the request to show the user; a URL request's id
    /// is tracked from now on.
    ///
    /// A form that cannot be rendered is refused here, before any renderer
    /// sees it, on every client side (ACP's SDK handler, the MCP host's
    /// handler, a client of your own): a control guessed for an unknown
    /// type, or a form that can only be declined, would tell the agent the
    /// user's choice when it was the client's limit.
    pub fn receive(&mut self, request: CreateElicitationRequest) -> Result<Incoming, JsonRpcError> {
        let Some(mode) = request.mode.known() else {
            refused!(GuardRefused, problem = "unknown mode");
            return Err(JsonRpcError::unadvertised_mode(request.mode.name()));
        };
        if !self.supports(mode) {
            refused!(
                GuardRefused,
                problem = "mode not advertised",
                mode = mode.as_str()
            );
            return Err(JsonRpcError::unadvertised_mode(mode.as_str()));
        }
        note!("elicitation/create received", mode = mode.as_str());
        let CreateElicitationRequest {
            scope,
            mode,
            message,
            meta,
        } = request;
        match mode {
            ElicitationMode::Form { requested_schema } => {
                if let Err(error) = requested_schema.check() {
                    refused!(GuardRefused, problem = "form not renderable");
                    return Err(NotRenderable::new(error).to_jsonrpc_error());
                }
                Ok(Incoming::Form(FormElicitation {
                    scope,
                    message,
                    schema: requested_schema,
                    meta,
                }))
            }
            ElicitationMode::Url {
                elicitation_id,
                url,
            } => {
                if self.pending.contains(&elicitation_id) {
                    refused!(
                        GuardRefused,
                        problem = "id outstanding",
                        elicitation_id = Fingerprint(&elicitation_id)
                    );
                    return Err(JsonRpcError::invalid_params(format!(
                        "Invalid params: the elicitationId `{}` is already outstanding on \
                         this connection",
                        excerpt(elicitation_id.as_str(), MAX_ECHOED_CHARS)
                    )));
                }
                if self.pending.len() >= MAX_PENDING_URLS {
                    refused!(GuardRefused, problem = "too many outstanding URLs");
                    return Err(JsonRpcError::invalid_params(format!(
                        "Invalid params: too many outstanding URL elicitations (the limit is \
                         {MAX_PENDING_URLS})"
                    )));
                }
                self.completed.retain(|c| *c != elicitation_id);
                self.pending.insert(elicitation_id.clone());
                let review = UrlReview::new(&url);
                Ok(Incoming::Url(UrlElicitation {
                    scope,
                    message,
                    id: elicitation_id,
                    review,
                    meta,
                }))
            }
            // `known()` returned a mode, so this is unreachable; answer as
            // for any unknown mode rather than panic.
            ElicitationMode::Other(other) => Err(JsonRpcError::unadvertised_mode(other.mode())),
        }
    }

    /// The tracker for an `elicitation/complete` notification. Unknown and
    /// already-completed ids are ignored, as the protocol requires.
    pub fn on_complete(&mut self, notification: &CompleteElicitationNotification) -> Completion {
        let id = &notification.elicitation_id;
        if self.pending.remove(id) {
            self.completed.push_back(id.clone());
            while self.completed.len() > CLIENT_COMPLETED_IDS_REMEMBERED {
                self.completed.pop_front();
            }
            Completion::Completed(id.clone())
        } else if self.completed.contains(id) {
            Completion::IgnoredAlreadyCompleted
        } else {
            Completion::IgnoredUnknown
        }
    }

    /// Stops tracking `id` (e.g. after the user declined): a later
    /// completion of it is ignored. Returns whether it was tracked.
    pub fn forget(&mut self, id: &ElicitationId) -> bool {
        self.pending.remove(id)
    }

    /// Whether `id` is a tracked, not yet completed URL elicitation.
    pub fn is_pending(&self, id: &ElicitationId) -> bool {
        self.pending.contains(id)
    }
}

/// What a completion notification did.
#[derive(Debug, Clone, PartialEq, Eq)]
#[must_use]
pub enum Completion {
    /// A tracked URL elicitation completed: update the UI (e.g. close the
    /// "waiting for the browser" notice).
    Completed(ElicitationId),
    /// Not an id this connection is tracking: ignored.
    IgnoredUnknown,
    /// Completed before: ignored.
    IgnoredAlreadyCompleted,
}

impl Completion {
    /// Whether the notification was ignored.
    pub fn is_ignored(&self) -> bool {
        !matches!(self, Self::Completed(_))
    }
}

/// An accepted incoming request, to show the user.
#[derive(Debug, Clone)]
pub enum Incoming {
    /// A form to render.
    Form(FormElicitation),
    /// A URL to review and, with consent, open.
    Url(UrlElicitation),
}

/// A form-mode request that passed the guard: its schema checks
/// ([`ElicitationSchema::check`]), so every property has a control.
#[derive(Debug, Clone)]
pub struct FormElicitation {
    scope: ElicitationScope,
    message: String,
    schema: ElicitationSchema,
    meta: Option<Map<String, Value>>,
}

impl FormElicitation {
    /// What the request is tied to.
    pub fn scope(&self) -> &ElicitationScope {
        &self.scope
    }

    /// What is asked and why: show it.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The requested schema.
    pub fn schema(&self) -> &ElicitationSchema {
        &self.schema
    }

    /// The request's `_meta`.
    pub fn meta(&self) -> Option<&Map<String, Value>> {
        self.meta.as_ref()
    }

    /// The properties whose names look like credentials. Form mode must
    /// never collect secrets: warn the user, or decline.
    pub fn credential_like_fields(&self) -> Vec<&str> {
        self.schema
            .properties
            .names()
            .filter(|n| looks_like_credential(n))
            .collect()
    }

    /// The declared defaults, to pre-populate the form with.
    pub fn initial_content(&self) -> Content {
        self.schema
            .properties
            .iter()
            .filter_map(|(name, p)| p.default_value().map(|v| (name.to_owned(), v)))
            .collect()
    }

    /// Validates the user's input with the same engine the agent uses
    /// ([`ElicitationSchema::validate`]), collecting every failing field.
    pub fn validate(&self, content: &Content) -> Result<(), ContentError> {
        self.schema.validate(content)
    }

    /// The `accept` response for the user's input, validated first. Keys the
    /// schema does not define and `null` values (unanswered fields) are
    /// dropped. On [`AnswerError::Invalid`], show the errors and let the
    /// user fix them.
    pub fn accept(&self, content: Content) -> Result<CreateElicitationResponse, AnswerError> {
        let content: Map<String, Value> = content
            .into_iter()
            .filter(|(k, v)| !v.is_null() && self.schema.properties.contains(k))
            .collect();
        self.schema
            .validate(&content)
            .map_err(AnswerError::Invalid)?;
        Ok(CreateElicitationResponse::accept(Some(content)))
    }

    /// The `decline` response: the user explicitly said no.
    pub fn decline(&self) -> CreateElicitationResponse {
        CreateElicitationResponse::decline()
    }

    /// The `cancel` response: the user dismissed the form.
    pub fn cancel(&self) -> CreateElicitationResponse {
        CreateElicitationResponse::cancel()
    }
}

/// A form that cannot be rendered: where both sides of the protocol find
/// it (the client's guard here, an agent's page in `sensitive`).
pub use crate::error::NotRenderable;

impl NotRenderable {
    /// The guard's answer: `-32602`, `data.notRenderable` one entry per
    /// problem (at most [`ISSUES_ECHOED`]): the `property` (`null` for the
    /// schema itself), the `problem`, and the wire `type` of a property of
    /// an unknown type. The sender's names and types are cut at
    /// [`MAX_ECHOED_CHARS`].
    fn to_jsonrpc_error(&self) -> JsonRpcError {
        let issues: Vec<Value> = self
            .error()
            .issues()
            .iter()
            .take(ISSUES_ECHOED)
            .map(|issue| {
                let mut entry = Map::new();
                entry.insert(
                    "property".to_owned(),
                    issue.property().map_or(Value::Null, |property| {
                        Value::String(excerpt(property, MAX_ECHOED_CHARS))
                    }),
                );
                entry.insert(
                    "problem".to_owned(),
                    Value::String(issue.kind().to_string()),
                );
                if let SchemaErrorKind::UnknownPropertyType { type_ } = issue.kind() {
                    entry.insert(
                        "type".to_owned(),
                        Value::String(excerpt(type_, MAX_ECHOED_CHARS)),
                    );
                }
                Value::Object(entry)
            })
            .collect();
        let mut data = Map::new();
        data.insert("notRenderable".to_owned(), Value::Array(issues));
        // The first problem, and how many more: a hostile form may have
        // thousands, and the message is not where they are listed.
        let all = self.error().issues();
        let first = all
            .first()
            .map(|issue| excerpt(&issue.to_string(), MAX_ECHOED_CHARS))
            .unwrap_or_default();
        let more = match all.len() {
            0 | 1 => String::new(),
            n => format!(
                " (and {} more; `data.notRenderable` lists the first {ISSUES_ECHOED})",
                n - 1
            ),
        };
        JsonRpcError {
            data: Some(Value::Object(data)),
            ..JsonRpcError::invalid_params(format!(
                "Invalid params: the requestedSchema cannot be rendered: {first}{more}"
            ))
        }
    }
}

/// The most problems of an unrenderable form the guard's `-32602` lists in
/// its `data` (a hostile form may have thousands).
const ISSUES_ECHOED: usize = 16;

/// Why a form answer cannot be sent.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum AnswerError {
    /// The input breaks the form's rules: show the errors, let the user fix
    /// them.
    Invalid(ContentError),
}

impl std::fmt::Display for AnswerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Invalid(e) => write!(f, "{e}: let the user correct the form"),
        }
    }
}

impl std::error::Error for AnswerError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Invalid(e) => Some(e),
        }
    }
}

/// A URL-mode request that passed the guard. Nothing here opens or fetches
/// the URL: show [`review`](Self::review) and ask for consent first.
#[derive(Debug, Clone)]
pub struct UrlElicitation {
    scope: ElicitationScope,
    message: String,
    id: ElicitationId,
    review: UrlReview,
    meta: Option<Map<String, Value>>,
}

impl UrlElicitation {
    /// What the request is tied to.
    pub fn scope(&self) -> &ElicitationScope {
        &self.scope
    }

    /// What is asked and why: show it.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The `elicitationId` (opaque).
    pub fn id(&self) -> &ElicitationId {
        &self.id
    }

    /// The full URL, as received.
    pub fn url(&self) -> &str {
        self.review.url()
    }

    /// The URL's review: show the full URL, highlight the host, list the
    /// warnings.
    pub fn review(&self) -> &UrlReview {
        &self.review
    }

    /// The request's `_meta`.
    pub fn meta(&self) -> Option<&Map<String, Value>> {
        self.meta.as_ref()
    }

    /// The `accept` response, once the user consented to open the URL (open
    /// it afterwards, in a context neither the client nor the model can
    /// read). Refused when the review's verdict is
    /// [`Refused`](UrlVerdict::Refused): decline instead. A client that
    /// deliberately accepts more builds
    /// `CreateElicitationResponse::accept(None)` itself.
    pub fn consent(&self) -> Result<CreateElicitationResponse, UrlRejection> {
        match self.review.verdict() {
            UrlVerdict::Refused(r) => Err(r.clone()),
            UrlVerdict::Allowed | UrlVerdict::Development => {
                Ok(CreateElicitationResponse::accept(None))
            }
        }
    }

    /// The `decline` response. Also [`forget`](ClientConnection::forget)
    /// the id if no completion should be shown for it.
    pub fn decline(&self) -> CreateElicitationResponse {
        CreateElicitationResponse::decline()
    }

    /// The `cancel` response.
    pub fn cancel(&self) -> CreateElicitationResponse {
        CreateElicitationResponse::cancel()
    }
}

// ---------------------------------------------------------------------------
// Rendering: the user interface an SDK handler calls

/// The user's answer to a form, as a [`Render`]er reports it. It is checked
/// by [`answer`] before anything is sent.
#[derive(Debug, Clone, PartialEq)]
pub enum FormAnswer {
    /// The user submitted this content (validated again before sending).
    Accept(Content),
    /// The user explicitly declined.
    Decline,
    /// The user dismissed the form.
    Cancel,
}

/// The user's answer to a URL request, as a [`Render`]er reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UrlAnswer {
    /// The user consented to open the URL (refused by [`answer`] when the
    /// review's verdict is [`Refused`](UrlVerdict::Refused)).
    Consent,
    /// The user explicitly declined.
    Decline,
    /// The user dismissed the request.
    Cancel,
}

/// A user interface for requests that passed the guard: a terminal
/// (`elicit_core::terminal`, feature `terminal`), a GUI, or a script.
///
/// It only shows and asks; [`answer`] does the rest: it checks every
/// answer before it is sent (validate-before-send) and shows the request
/// again with the problem when it cannot be sent.
pub trait Render {
    /// Shows `form` (from `agent`, a label the user can recognize) and
    /// returns the user's answer. `problem` is why the previous answer to
    /// this same request could not be sent (`None` the first time): show
    /// it.
    fn form(
        &mut self,
        agent: &str,
        form: &FormElicitation,
        problem: Option<&AnswerError>,
    ) -> FormAnswer;

    /// Shows `url` (full URL, highlighted host, the review's warnings) and
    /// asks for consent to open it. Open it only after consent, and only
    /// if [`answer`] accepts the consent. `problem` is why the previous
    /// consent was refused.
    fn url(
        &mut self,
        agent: &str,
        url: &UrlElicitation,
        problem: Option<&UrlRejection>,
    ) -> UrlAnswer;

    /// Called by [`answer`] once the user's consent to open `url` was
    /// accepted (after [`url`](Self::url) returned [`UrlAnswer::Consent`]
    /// and the review allowed it): the place to open it, outside the client
    /// and the model. The default does nothing.
    fn consented(&mut self, url: &UrlElicitation) {
        let _ = url;
    }
}

/// Shows `incoming` with `render` and returns the response to send. A form
/// answer is validated with the form's rules and a consent is checked
/// against the URL review before they are returned: on a problem the
/// request is shown again with it, up to 3 times ([limits](crate::reference::limits)),
/// then the request is answered `-32603` (nothing invalid is ever sent).
///
/// For a URL request that is not accepted, also
/// [`forget`](ClientConnection::forget) its id: no completion will be shown.
///
/// ```
/// use elicit_core::protocol::client::{
///     AnswerError, ClientConnection, FormAnswer, FormElicitation, Render, UrlAnswer,
///     UrlElicitation, answer,
/// };
/// use elicit_core::protocol::url::UrlRejection;
/// use elicit_core::protocol::{ElicitationAction, ElicitationCapabilities};
/// use serde_json::json;
///
/// /// Answers `replicas: 40` first, then `4` once told what was wrong.
/// struct Script(Vec<String>);
/// impl Render for Script {
///     fn form(&mut self, _: &str, _: &FormElicitation, problem: Option<&AnswerError>) -> FormAnswer {
///         let replicas = if let Some(problem) = problem {
///             self.0.push(problem.to_string());
///             4
///         } else {
///             40
///         };
///         FormAnswer::Accept(json!({"replicas": replicas}).as_object().unwrap().clone())
///     }
///     fn url(&mut self, _: &str, _: &UrlElicitation, _: Option<&UrlRejection>) -> UrlAnswer {
///         UrlAnswer::Decline
///     }
/// }
///
/// let mut client = ClientConnection::new(Some(ElicitationCapabilities::form_only()));
/// let incoming = client.receive_value(json!({
///     "sessionId": "s", "mode": "form", "message": "How many?",
///     "requestedSchema": {"type": "object", "properties": {
///         "replicas": {"type": "integer", "maximum": 16}}}
/// }))?;
/// let mut script = Script(Vec::new());
/// let response = answer(&mut script, "the agent", &incoming)?;
/// assert_eq!(
///     response.action,
///     ElicitationAction::Accept { content: json!({"replicas": 4}).as_object().cloned() }
/// );
/// assert!(script.0[0].contains("`replicas` must be at most 16, got 40"));
/// # Ok::<(), elicit_core::protocol::JsonRpcError>(())
/// ```
pub fn answer<R: Render + ?Sized>(
    render: &mut R,
    agent: &str,
    incoming: &Incoming,
) -> Result<CreateElicitationResponse, JsonRpcError> {
    match incoming {
        Incoming::Form(form) => {
            let mut problem = None;
            for _ in 0..MAX_RENDER_ATTEMPTS {
                match render.form(agent, form, problem.as_ref()) {
                    FormAnswer::Accept(content) => match form.accept(content) {
                        Ok(response) => {
                            note!("accepted");
                            return Ok(response);
                        }
                        Err(error) => {
                            note!("answer invalid: shown again");
                            problem = Some(error);
                        }
                    },
                    FormAnswer::Decline => {
                        refused!(Declined);
                        return Ok(form.decline());
                    }
                    FormAnswer::Cancel => {
                        refused!(Cancelled);
                        return Ok(form.cancel());
                    }
                }
            }
            refused!(RenderGaveUp, attempts = MAX_RENDER_ATTEMPTS);
            Err(gave_up(problem.map(|p| p.to_string())))
        }
        Incoming::Url(url) => {
            let mut problem = None;
            for _ in 0..MAX_RENDER_ATTEMPTS {
                match render.url(agent, url, problem.as_ref()) {
                    UrlAnswer::Consent => match url.consent() {
                        Ok(response) => {
                            note!("consented");
                            render.consented(url);
                            return Ok(response);
                        }
                        Err(rejection) => {
                            refused!(UrlRefused);
                            problem = Some(rejection);
                        }
                    },
                    UrlAnswer::Decline => {
                        refused!(Declined);
                        return Ok(url.decline());
                    }
                    UrlAnswer::Cancel => {
                        refused!(Cancelled);
                        return Ok(url.cancel());
                    }
                }
            }
            refused!(RenderGaveUp, attempts = MAX_RENDER_ATTEMPTS);
            Err(gave_up(problem.map(|p| p.to_string())))
        }
    }
}

/// `-32603`: the client's own user interface produced no answer it could
/// send.
fn gave_up(last: Option<String>) -> JsonRpcError {
    JsonRpcError::internal(format!(
        "Internal error: the client could not produce a valid answer after {} attempts{}",
        MAX_RENDER_ATTEMPTS,
        last.map(|l| format!(" (last: {l})")).unwrap_or_default()
    ))
}
