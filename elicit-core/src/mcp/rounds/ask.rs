//! [`Ask`]: one request's right to ask the user, taken from a tool call, a
//! prompt or a resource read, and run with the questions' closure.

use std::fmt;
use std::future::Future;
use std::marker::PhantomData;
use std::sync::Mutex;

use ::rmcp::RoleServer;
use ::rmcp::model::{
    CallToolRequestParams, CallToolResponse, ErrorData, GetPromptRequestParams, GetPromptResponse,
    ReadResourceRequestParams, ReadResourceResponse,
};
use ::rmcp::service::RequestContext;
use ::rmcp::task_manager::{TaskContext, TaskExit};

use super::super::carrier::elicitation_capabilities;
use super::call::{Asked, asked_nothing};
use super::config::RoundsConfig;
use super::handle::{Regime, Rounds};
use super::request::{RoundRequest, RoundResponse};
use super::task::Requests;
use crate::protocol::agent::AgentConnection;

/// What a handler asks the user through, for one request: a tool call
/// (`Ask`, the default), a prompt (`Ask<GetPromptResponse>`) or a resource
/// read (`Ask<ReadResourceResponse>`), whatever the peer's MCP version.
///
/// - In a `#[tool]` function, take it as an extractor, in any place among
///   the others (`Parameters<T>` included), with the tools routed through
///   [`routed`](super::routed): `#[tool_handler(router =
///   elicit_core::mcp::routed(&self.tool_router))]`.
/// - In a `#[prompt]` function, the same as `Ask<GetPromptResponse>`, with
///   `get_prompt` written as
///   [`Routed::get_prompt`](super::Routed::get_prompt), the function
///   returning a [`PromptReply`](super::PromptReply).
/// - In a hand-written handler: [`Ask::tool`] in `call_tool`,
///   [`Ask::prompt`] in `get_prompt`, [`Ask::resource`] in
///   `read_resource` (rmcp has no macro for resources).
///
/// Then [`run`](Self::run) asks with one closure, as the module's guide
/// shows.
#[must_use = "nothing is asked until `run` is awaited"]
pub struct Ask<R = CallToolResponse> {
    context: RequestContext<RoleServer>,
    request: RoundRequest,
    response: PhantomData<fn() -> R>,
}

impl<R: RoundResponse> fmt::Debug for Ask<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Ask")
            .field("method", &R::METHOD)
            .field("name", &self.request.logged_name())
            .field("answers", &self.request.input_responses.is_some())
            .field("state", &self.request.request_state.is_some())
            .finish_non_exhaustive()
    }
}

impl<R> Ask<R> {
    /// The request `request` of `context`.
    pub(super) fn of(context: RequestContext<RoleServer>, request: RoundRequest) -> Self {
        Self {
            context,
            request,
            response: PhantomData,
        }
    }
}

impl Ask<CallToolResponse> {
    /// The call `request`, from a hand-written `ServerHandler::call_tool`.
    pub fn tool(context: &RequestContext<RoleServer>, request: &CallToolRequestParams) -> Self {
        Self::of(context.clone(), RoundRequest::tool(request))
    }

    /// Whether the client declared the tasks extension (SEP-2663,
    /// `io.modelcontextprotocol/tasks`) with this call: the tool may then
    /// run as a task (`CallToolResponse::Task`), asking with
    /// [`in_task`](Self::in_task).
    pub fn client_has_tasks(&self) -> bool {
        super::task::client_has_tasks(&self.context)
    }

    /// This call's questions inside the task `task` it was materialized as
    /// (rmcp's `TaskManager::spawn` gives the operation its
    /// `TaskContext`): each question awaited where it is asked, an input
    /// request of the task answered by `tasks/update`
    /// ([`TaskAsk::run`](super::TaskAsk::run)).
    pub fn in_task(self, task: TaskContext) -> TaskAsk {
        TaskAsk::new(self.context, task, self.request)
    }
}

impl Ask<GetPromptResponse> {
    /// The prompt `request`, from a hand-written `ServerHandler::get_prompt`.
    pub fn prompt(context: &RequestContext<RoleServer>, request: &GetPromptRequestParams) -> Self {
        Self::of(context.clone(), RoundRequest::prompt(request))
    }
}

impl Ask<ReadResourceResponse> {
    /// The read `request`, from `ServerHandler::read_resource`.
    pub fn resource(
        context: &RequestContext<RoleServer>,
        request: &ReadResourceRequestParams,
    ) -> Self {
        Self::of(context.clone(), RoundRequest::resource(request))
    }
}

impl<R: RoundResponse> Ask<R> {
    /// Asks the user what the handler needs, whatever the peer's protocol
    /// version, with one closure: `questions` gets a [`Rounds`] and asks
    /// through it, each question awaited where it is asked, and returns the
    /// answers once every question has one, or `None` when a question was
    /// asked in a round that ends this call (`?` on a question's `None`
    /// does it).
    ///
    /// - On 2025-11-25 and earlier, with a session, each question is an
    ///   `elicitation/create` request in this call, through the same flow
    ///   engine as [`Elicitor`](crate::mcp::Elicitor) (the re-ask, the
    ///   secret page and its completion notification): the result is
    ///   [`Asked::Answered`].
    /// - On 2026-07-28, where a server no longer sends requests, a round
    ///   ends the call: [`Asked::Respond`] holds the input-required result
    ///   (the questions under their keys, the state sealed in
    ///   `requestState`) to return as the handler's response. The client
    ///   sends the request again with the answers and the state;
    ///   `questions` runs again, from the top, and once it has every
    ///   answer, the result is [`Asked::Answered`]. The same for
    ///   `tools/call`, `prompts/get` and `resources/read`.
    /// - On 2025-11-25 without a session
    ///   ([`RoundsConfig::without_sessions`]): a secret page is `-32042`,
    ///   and the client retries the request.
    ///
    /// `questions` only asks and reads answers: it may run once per round,
    /// so the handler's own work comes after, on the answers. Write it as
    /// `|r| async move { .. }`, capturing references (`&pages`, `&args`).
    ///
    /// A `requestState` is good for one call ([single use](RoundsConfig)):
    /// each round's result carries a new one. It is bound to the user
    /// ([`RoundsConfig::principal`]), the method, what the request names
    /// (the tool, the prompt, the resource's URI) and its arguments.
    ///
    /// A request with `inputResponses` and no `requestState` is read as the
    /// answers to the first round's questions (what a client that skipped
    /// the first round sends; those questions depend only on the
    /// arguments). Such a call starts afresh: round 1, the re-ask count at
    /// its start. So a client that never sends a state is bounded only by
    /// its own calls, as a client that calls again would be: each call
    /// costs one run of `questions` and one validation, keeps nothing on
    /// the server (no used state is recorded; a sensitive page it opens
    /// counts against the page server's cap of open pages and expires),
    /// and never gets past the questions without valid answers. Limit the
    /// rate of calls where you limit any other request.
    ///
    /// # Errors
    ///
    /// A `requestState` that does not open (tampered, expired, sealed for
    /// another user or request, another key) or was used before: `-32602`
    /// with `Invalid or expired requestState`, whatever the cause. A
    /// [`UsedStates`](super::UsedStates) store that cannot record the use,
    /// or a closure that returned `None` without asking anything: `-32603`.
    /// On a server without sessions, a 2025-11-25 call that needs a page
    /// first: `-32042` (URL elicitation required) with the pages in
    /// `data.elicitations`, for the client to complete before it retries.
    /// More rounds than [`RoundsConfig::max_rounds`] end a tool with a
    /// tool error ([`Asked::Respond`]), and a prompt or a resource with
    /// `-32600` (they have no error result).
    pub async fn run<T, F: Future<Output = Option<T>>>(
        self,
        config: &RoundsConfig,
        questions: impl FnMut(Rounds) -> F,
    ) -> Result<Asked<T, R>, ErrorData> {
        super::run::run(&self.context, self.request, config, questions).await
    }
}

/// Asks the user what a tool needs, whatever the peer's protocol version,
/// with one closure, from a hand-written `ServerHandler::call_tool`:
/// [`Ask::tool(context, request).run(config, questions)`](Ask::run), where
/// every rule is documented. In a `#[tool]` function, take an [`Ask`] as an
/// extractor instead.
///
/// # Errors
///
/// As [`Ask::run`].
pub async fn ask<T, F: Future<Output = Option<T>>>(
    context: &RequestContext<RoleServer>,
    request: &CallToolRequestParams,
    config: &RoundsConfig,
    questions: impl FnMut(Rounds) -> F,
) -> Result<Asked<T>, ErrorData> {
    Ask::tool(context, request).run(config, questions).await
}

/// What a task's operation asks through: [`Ask::in_task`](super::Ask::in_task),
/// then [`run`](Self::run) with the closure a tool's `Ask` takes.
#[must_use = "nothing is asked until `run` is awaited"]
pub struct TaskAsk {
    context: RequestContext<RoleServer>,
    task: TaskContext,
    /// The tool's name, for the span.
    tool: String,
    /// The tool's arguments ([`Rounds::arguments`]).
    arguments: Option<::rmcp::model::JsonObject>,
}

impl fmt::Debug for TaskAsk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TaskAsk")
            .field("task", &self.task.task_id())
            .finish_non_exhaustive()
    }
}

impl TaskAsk {
    fn new(context: RequestContext<RoleServer>, task: TaskContext, request: RoundRequest) -> Self {
        Self {
            context,
            task,
            tool: request.name,
            arguments: request.raw_arguments,
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
            Regime::Requests {
                via: Requests::Task {
                    peer: self.context.peer.clone(),
                    task: self.task,
                },
                connection: Mutex::new(connection),
            },
            self.arguments,
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
