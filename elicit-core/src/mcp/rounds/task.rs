//! Asking inside a task (SEP-2663, rmcp's `task_manager`): a `tools/call`
//! the server materialized as a task runs on after the call returned, so a
//! question is awaited where it is asked, as on 2025-11-25's requests; each
//! `elicitation/create` is an input request of the task
//! ([`TaskContext::request_input`]), under a key unique for the task,
//! answered by the client's `tasks/update`. The flow engine runs on it as
//! on any request transport: the re-ask, the `.check`, the URL review, the
//! secret page.

use std::error::Error as StdError;
use std::fmt;
use std::future::Future;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};

use ::rmcp::model;
use ::rmcp::service::RequestContext;
use ::rmcp::task_manager::{TaskContext, TaskExit};
use ::rmcp::{Peer, RoleServer};

use super::super::carrier::{elicitation_capabilities, notify_complete};
use super::super::wire::{params_of, response_of};
use super::call::asked_nothing;
use super::{Regime, Rounds, RoundsConfig};
use crate::flow::{Carrier, ElicitError, RequestError, RequestFailure};
use crate::protocol::agent::AgentConnection;
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
    pub(super) fn new(task: &'a TaskContext, peer: &'a Peer<RoleServer>, key: &'a str) -> Self {
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

/// What a task's operation asks through: [`Ask::in_task`](super::Ask::in_task),
/// then [`run`](Self::run) with the closure a tool's `Ask` takes.
#[must_use = "nothing is asked until `run` is awaited"]
pub struct TaskAsk {
    context: RequestContext<RoleServer>,
    task: TaskContext,
    /// The tool's name, for the span.
    tool: String,
}

impl fmt::Debug for TaskAsk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TaskAsk")
            .field("task", &self.task.task_id())
            .finish_non_exhaustive()
    }
}

impl TaskAsk {
    pub(super) fn new(
        context: RequestContext<RoleServer>,
        task: TaskContext,
        tool: String,
    ) -> Self {
        Self {
            context,
            task,
            tool,
        }
    }

    /// Asks the user what the task needs, with the closure of
    /// [`Ask::run`](super::Ask::run): each question awaited where it is
    /// asked (an input request of the task, under its key, re-asks under
    /// `key#2`, ..), every question answered in this run, so a question
    /// never gives `None`. The modes are those the client declared with
    /// the `tools/call` that made the task; a page is for that request's
    /// user ([`RoundsConfig::principal`]); nothing is sealed (the task
    /// holds its state).
    ///
    /// # Errors
    ///
    /// [`TaskExit::Cancelled`] once the client cancelled the task
    /// (`tasks/cancel`): a question it interrupted gives
    /// `ElicitError::Request` (`RequestFailure::Cancelled`, "the task was
    /// cancelled"), and the run ends as cancelled, so `?` settles the task
    /// as `cancelled`. A closure that returned `None` without asking:
    /// [`TaskExit::Error`] (`-32603`).
    pub async fn run<T, F: Future<Output = Option<T>>>(
        self,
        config: &RoundsConfig,
        questions: impl FnOnce(Rounds) -> F,
    ) -> Result<T, TaskExit> {
        let span = span!(
            "rounds",
            transport = "mcp",
            protocol_version = self
                .context
                .protocol_version()
                .map(|version| version.to_string())
                .unwrap_or_default(),
            method = "tools/call",
            name = self.tool;
            regime,
            round
        );
        in_span!(span, self.asked(config, questions)).await
    }

    /// [`run`](Self::run), in its span.
    async fn asked<T, F: Future<Output = Option<T>>>(
        self,
        config: &RoundsConfig,
        questions: impl FnOnce(Rounds) -> F,
    ) -> Result<T, TaskExit> {
        record!(regime = "task");
        let capabilities = self.context.client_capabilities();
        let connection = AgentConnection::new(elicitation_capabilities(capabilities.as_ref()));
        let principal = (config.principal)(&self.context);
        let task = self.task.clone();
        let rounds = Rounds::new(
            principal,
            Regime::Task {
                peer: self.context.peer.clone(),
                task: self.task,
                connection: Mutex::new(connection),
            },
        );
        let answers = questions(rounds).await;
        if task.is_cancel_requested() {
            note!("task cancelled");
            return Err(TaskExit::Cancelled);
        }
        match answers {
            Some(answers) => Ok(answers),
            None => {
                refused!(Internal, step = "asked nothing");
                Err(TaskExit::Error(asked_nothing()))
            }
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
