//! Asking inside a task (SEP-2663, rmcp's `task_manager`): a `tools/call`
//! the server materialized as a task runs on after the call returned, so a
//! question is awaited where it is asked, as on 2025-11-25's requests; each
//! `elicitation/create` is an input request of the task
//! ([`TaskContext::request_input`]), under a key unique for the task,
//! answered by the client's `tasks/update`. The flow engine runs on it as
//! on any request transport: the re-ask, the `.check`, the URL review, the
//! secret page. What a task's operation asks through is
//! [`TaskAsk`](super::TaskAsk), in `ask.rs`.

use std::error::Error as StdError;
use std::fmt;
use std::sync::atomic::{AtomicU32, Ordering};

use ::rmcp::model;
use ::rmcp::service::RequestContext;
use ::rmcp::task_manager::{TaskContext, TaskExit};
use ::rmcp::{Peer, RoleServer};

use super::super::carrier::notify_complete;
use super::super::wire::{params_of, response_of};
use crate::flow::{Carrier, ElicitError, RequestError, RequestFailure};
use crate::protocol::{CompleteElicitationNotification, CreateElicitationRequest};

/// One question's carrier inside a task: each `elicitation/create` it
/// sends is an input request of the task under the question's key, its
/// re-asks under `key#2`, `key#3`, .. (a task refuses a key it used
/// before, and a re-ask is a new request).
pub(super) struct TaskCarrier<'a> {
    task: &'a TaskContext,
    peer: &'a Peer<RoleServer>,
    key: &'a str,
    sent: AtomicU32,
}

impl<'a> TaskCarrier<'a> {
    fn new(task: &'a TaskContext, peer: &'a Peer<RoleServer>, key: &'a str) -> Self {
        Self {
            task,
            peer,
            key,
            sent: AtomicU32::new(0),
        }
    }

    /// The key of the next request: the question's, then `key#n`.
    fn next_key(&self) -> String {
        match self.sent.fetch_add(1, Ordering::Relaxed) + 1 {
            1 => self.key.to_owned(),
            n => format!("{}#{n}", self.key),
        }
    }
}

/// Why a task's question has no answer: `tasks/cancel` (the task's
/// operation should end as cancelled: [`TaskAsk::run`] does).
#[derive(Debug)]
struct TaskCancelled;

impl fmt::Display for TaskCancelled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the task was cancelled (tasks/cancel) before the user answered")
    }
}

impl StdError for TaskCancelled {}

/// A task's refusal of an input request as the flow's error.
fn task_error(exit: TaskExit) -> ElicitError {
    ElicitError::Request(match exit {
        TaskExit::Cancelled => RequestError::new(RequestFailure::Cancelled, TaskCancelled),
        TaskExit::Error(error) => RequestError::new(RequestFailure::Other, error),
    })
}

impl Carrier for TaskCarrier<'_> {
    const TRANSPORT: &'static str = "mcp";

    fn protocol_version(&self) -> String {
        self.peer
            .peer_info()
            .map(|info| info.protocol_version.to_string())
            .unwrap_or_default()
    }

    async fn create(
        &self,
        request: CreateElicitationRequest,
    ) -> Result<crate::protocol::CreateElicitationResponse, ElicitError> {
        let params = params_of(request)?;
        let request = model::InputRequest::Elicitation(model::ElicitRequest::new(params));
        let answer = self
            .task
            .request_input(self.next_key(), request)
            .await
            .map_err(task_error)?;
        let result: model::ElicitResult = serde_json::from_value(answer).map_err(|error| {
            ElicitError::Request(RequestError::new(RequestFailure::Other, error))
        })?;
        response_of(&result).map_err(ElicitError::Unreadable)
    }

    /// `notifications/elicitation/complete` where the session has
    /// notifications (MCP 2025-11-25 and earlier); on 2026-07-28 the client
    /// follows the task's own status instead, so there is nothing to send.
    async fn complete(
        &self,
        notification: CompleteElicitationNotification,
    ) -> Result<(), ElicitError> {
        let legacy = self
            .peer
            .peer_info()
            .is_some_and(|info| info.protocol_version.has_initialize());
        if !legacy {
            return Ok(());
        }
        notify_complete(self.peer, notification.elicitation_id).await
    }
}

/// Who carries a call's requests to the flow engine: the session's peer
/// (`elicitation/create`, MCP 2025-11-25), or a task's input requests.
pub(super) enum Requests {
    Session(Peer<RoleServer>),
    Task {
        peer: Peer<RoleServer>,
        task: TaskContext,
    },
}

impl Requests {
    /// The carrier of the question `key`.
    pub(super) fn carrier<'a>(&'a self, key: &'a str) -> RequestCarrier<'a> {
        match self {
            Self::Session(peer) => RequestCarrier::Session(peer),
            Self::Task { peer, task } => RequestCarrier::Task(TaskCarrier::new(task, peer, key)),
        }
    }
}

/// One question's carrier: the session's peer, or the task's.
pub(super) enum RequestCarrier<'a> {
    Session(&'a Peer<RoleServer>),
    Task(TaskCarrier<'a>),
}

impl Carrier for RequestCarrier<'_> {
    const TRANSPORT: &'static str = "mcp";

    fn protocol_version(&self) -> String {
        match self {
            Self::Session(peer) => peer.protocol_version(),
            Self::Task(task) => task.protocol_version(),
        }
    }

    async fn create(
        &self,
        request: CreateElicitationRequest,
    ) -> Result<crate::protocol::CreateElicitationResponse, ElicitError> {
        match self {
            Self::Session(peer) => peer.create(request).await,
            Self::Task(task) => task.create(request).await,
        }
    }

    async fn complete(
        &self,
        notification: CompleteElicitationNotification,
    ) -> Result<(), ElicitError> {
        match self {
            Self::Session(peer) => peer.complete(notification).await,
            Self::Task(task) => task.complete(notification).await,
        }
    }
}

/// Whether the client of `context` declared the tasks extension (SEP-2663)
/// with this request.
pub(super) fn client_has_tasks(context: &RequestContext<RoleServer>) -> bool {
    context
        .client_capabilities()
        .is_some_and(|capabilities| capabilities.supports_tasks())
}
