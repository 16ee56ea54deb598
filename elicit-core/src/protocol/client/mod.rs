//! The client side: one [`ClientConnection`] per agent connection, the
//! guard of what an agent sends (this file); what passed it
//! (`incoming.rs`); and how a user interface answers it (`render.rs`).
//!
//! See the [module guide](crate::protocol#writing-a-client) for the whole
//! flow.

mod incoming;
mod render;

pub use incoming::{AnswerError, FormElicitation, Incoming, UrlElicitation};
pub use render::{FormAnswer, Render, UrlAnswer, answer};

use std::collections::{HashSet, VecDeque};

use serde_json::{Map, Value};

use crate::error::{SchemaErrorKind, excerpt};
use crate::fingerprint::Fingerprint;
use crate::limits::{CLIENT_COMPLETED_IDS_REMEMBERED, MAX_ECHOED_CHARS, MAX_PENDING_URLS};

use super::messages::{
    CompleteElicitationNotification, CreateElicitationRequest, ElicitationCapabilities,
    ElicitationId, ElicitationMode, JsonRpcError, Mode,
};
use super::url::UrlReview;

pub use crate::protocol::printable::printable;

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
    /// [`ElicitationSchema::check`](crate::ElicitationSchema::check): a property of an unknown type, a nested
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
