//! The `mcp` module docs' "A hand-written `call_tool`" snippet, compiled and
//! run at both versions against rmcp's client (a child of `rmcp.rs`, whose
//! scripted client and connections it uses).

use ::rmcp::model::{
    CallToolRequestParams as Params, CallToolResponse as Response, CancelTaskParams,
    CreateTaskResult, ErrorData as Error, GetPromptRequestParams, GetPromptResponse,
    GetPromptResult, GetTaskParams, GetTaskResult, PromptMessage, ReadResourceRequestParams,
    ReadResourceResponse, ReadResourceResult, ResourceContents, Role, ServerCapabilities,
    ServerConfig, UpdateTaskParams,
};
use ::rmcp::service::RequestContext as Context;
use ::rmcp::task_manager::{TaskManager, TaskOptions};
use ::rmcp::{ServerHandler, ServiceExt};
use elicit_core::mcp::Ask;
use elicit_core::mcp::Rounds;

/// A tool's questions, as a function: what `Handler` asks with.
pub(crate) type Questions = fn(Rounds) -> Asking;
/// The questions' run: the tool's text once every question is answered.
pub(crate) type Asking =
    std::pin::Pin<Box<dyn std::future::Future<Output = Option<String>> + Send>>;
use serde_json::{Value, json};

use super::{ScriptedClient, VERSIONS, connect_at, form_mode, runtime};
use crate::common::readme::{docs_block, lines, snippet};

// README snippet start
use elicit_core::Elicit;
use elicit_core::mcp::{Asked, RoundsConfig, ask};
use elicit_core::protocol::agent::Outcome;
use rmcp::RoleServer;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData,
};
use rmcp::service::RequestContext;

#[derive(Elicit, Debug)]
struct Confirm {
    /// Go ahead with the deployment?
    proceed: bool,
}

/// `ServerHandler::call_tool`'s body: the same code on MCP 2025-11-25
/// (`elicitation/create` requests) and 2026-07-28 (input-required rounds).
async fn call_tool(
    context: &RequestContext<RoleServer>,
    request: &CallToolRequestParams,
    rounds: &RoundsConfig, // e.g. `RoundsConfig::with_random_key()?` for a stdio server
) -> Result<CallToolResponse, ErrorData> {
    // Runs from the top each round; a question is `None` once it is asked in
    // a round that ends the call (2026-07-28), and `?` ends the run.
    let asked = ask(context, request, rounds, |r| async move {
        r.form::<Confirm>("confirm", "Deploy to production?")
            .retry(2)
            .await
    });
    let answer = match asked.await? {
        Asked::Answered(answer) => answer,
        // An input-required round (2026-07-28): the client calls again.
        Asked::Respond(response) => return Ok(response),
    };
    // The tool's own work, on the typed answer.
    let text = match answer {
        Ok(Outcome::Accepted(Confirm { proceed: true })) => "Deploying.".to_owned(),
        Ok(_) => "Not deploying.".to_owned(),
        Err(error) => {
            // The detail (a client's error text) goes to the log (stderr:
            // stdout is the protocol's); the result says a short reason.
            eprintln!("the elicitation failed: {error:?}");
            format!("Could not ask: {error}")
        }
    };
    Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into())
}
// README snippet end

#[test]
fn the_rounds_docs_snippet_runs_at_both_versions() {
    for version in VERSIONS {
        let (client, _) = ScriptedClient::with(
            form_mode(),
            vec![
                json!({"action": "accept", "content": {"proceed": "yes"}}),
                json!({"action": "accept", "content": {"proceed": true}}),
            ],
        );
        let text = call(None, &client, version);
        assert_eq!(text, "Deploying.", "{version:?}");
        // The invalid answer was asked again, with its error.
        let seen = client.seen();
        assert_eq!(seen.len(), 2, "{version:?}");
        assert!(
            super::form_message(&seen[1]).contains("`proceed`"),
            "{version:?}"
        );
    }
}

#[test]
fn the_rounds_docs_snippet_is_this_code() {
    assert_eq!(
        lines(snippet(include_str!("rmcp_rounds.rs"))),
        lines(&docs_block(
            include_str!("../../elicit-core/src/mcp/mod.rs"),
            "# A hand-written `call_tool`"
        ))
    );
}

/// A server whose every tool is the module docs' snippet (`None`), or asks with a
/// function and says its answer; and whose every prompt and resource asks with
/// the function too, and the tool `task` in a task (SEP-2663) where the
/// client has tasks.
struct Handler(RoundsConfig, Option<Questions>, TaskManager);

impl ServerHandler for Handler {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_prompts()
            .enable_resources()
            .enable_tasks()
            .build();
        ServerConfig::new(capabilities)
    }

    async fn call_tool(
        &self,
        request: Params,
        context: Context<RoleServer>,
    ) -> Result<Response, Error> {
        let Some(questions) = self.1 else {
            return call_tool(&context, &request, &self.0).await;
        };
        let asking = Ask::tool(&context, &request);
        if request.name == "task" && asking.client_has_tasks() {
            let config = self.0.clone();
            let task = self.2.spawn(TaskOptions::new(), move |task| {
                Box::pin(async move {
                    let text = asking.in_task(task).run(&config, questions).await?;
                    Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
                })
            });
            return Ok(Response::Task(CreateTaskResult::new(task)));
        }
        Ok(match asking.run(&self.0, questions).await? {
            Asked::Answered(text) => CallToolResult::success(vec![ContentBlock::text(text)]).into(),
            Asked::Respond(response) => response,
        })
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: Context<RoleServer>,
    ) -> Result<GetPromptResponse, Error> {
        let questions = self.1.expect("prompts ask with a function");
        Ok(
            match Ask::prompt(&context, &request)
                .run(&self.0, questions)
                .await?
            {
                Asked::Answered(text) => {
                    GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)]).into()
                }
                Asked::Respond(response) => response,
            },
        )
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: Context<RoleServer>,
    ) -> Result<ReadResourceResponse, Error> {
        let questions = self.1.expect("resources ask with a function");
        let uri = request.uri.clone();
        Ok(
            match Ask::resource(&context, &request)
                .run(&self.0, questions)
                .await?
            {
                Asked::Answered(text) => {
                    ReadResourceResult::new(vec![ResourceContents::text(text, uri)]).into()
                }
                Asked::Respond(response) => response,
            },
        )
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        _: Context<RoleServer>,
    ) -> Result<GetTaskResult, Error> {
        Ok(GetTaskResult::new(self.2.get_task(&request.task_id)?))
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        _: Context<RoleServer>,
    ) -> Result<(), Error> {
        self.2
            .update_task(&request.task_id, request.input_responses)
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        _: Context<RoleServer>,
    ) -> Result<(), Error> {
        self.2.cancel_task(&request.task_id)
    }
}

/// A client whose answers the test hands to a task's input requests.
pub(crate) trait InputAnswers: ::rmcp::ClientHandler + Clone {
    /// The answer to `request`, as `tasks/update` carries it.
    async fn answer_input(&self, request: ::rmcp::model::ElicitRequestParams) -> Value;
}

impl InputAnswers for ScriptedClient {
    async fn answer_input(&self, request: ::rmcp::model::ElicitRequestParams) -> Value {
        self.answer(request)
    }
}

impl InputAnswers for PageUser {
    async fn answer_input(&self, request: ::rmcp::model::ElicitRequestParams) -> Value {
        let answer = self.answer_url(request).await.unwrap();
        serde_json::to_value(answer).unwrap()
    }
}

/// Where a `Handler` asks: a tool's call, a prompt, a resource, a task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Place {
    Tool,
    Prompt,
    Resource,
    Task,
}

/// Asks at `place` of `Handler(.., ask)` with `client` at `version` (for a
/// task, the test answers each input request of the task with `client`'s
/// next scripted answer); the text the place ended with.
pub(crate) fn call_at(
    place: Place,
    ask: Questions,
    client: &ScriptedClient,
    version: super::Version,
) -> String {
    let config = RoundsConfig::with_random_key().unwrap();
    match place {
        Place::Tool => call_with(config, Some(ask), client, version),
        Place::Prompt => serve_rounds(config, Some(ask), client, version, async |running| {
            let prompt = running
                .get_prompt(GetPromptRequestParams::new("prompt"))
                .await
                .unwrap();
            let said = serde_json::to_value(&prompt.messages[0]).unwrap();
            said["content"]["text"].as_str().unwrap().to_owned()
        }),
        Place::Resource => serve_rounds(config, Some(ask), client, version, async |running| {
            let read = running
                .read_resource(ReadResourceRequestParams::new("elicit://resource"))
                .await
                .unwrap();
            match &read.contents[0] {
                ResourceContents::TextResourceContents { text, .. } => text.clone(),
                other => panic!("{other:?}"),
            }
        }),
        Place::Task => {
            let client = client.clone().with_tasks();
            serve_rounds(config, Some(ask), &client, version, async |running| {
                task_text(running, &client).await
            })
        }
    }
}

/// Calls the tool `task`, answers each input request of the task it
/// becomes with `client`'s scripted answers, and gives the text it ended
/// with (its result's, or how it ended).
pub(crate) async fn task_text<C: InputAnswers>(
    running: &::rmcp::service::RunningService<::rmcp::service::RoleClient, C>,
    client: &C,
) -> String {
    use ::rmcp::model::{InputRequest, TaskPayload};
    let created = running.call_tool_once(Params::new("task")).await.unwrap();
    let Response::Task(created) = created else {
        panic!("a task: {created:?}");
    };
    let id = created.task.task_id;
    for _ in 0..1000 {
        let got = running
            .peer()
            .get_task(GetTaskParams::new(id.clone()))
            .await
            .unwrap();
        match got.task.payload {
            TaskPayload::Working => {
                tokio::time::sleep(std::time::Duration::from_millis(5)).await;
            }
            TaskPayload::InputRequired { input_requests } => {
                let answers = input_requests
                    .into_iter()
                    .map(|(key, request)| match request {
                        InputRequest::Elicitation(request) => (key, request.params),
                        other => panic!("an elicitation: {other:?}"),
                    })
                    .collect::<Vec<_>>();
                let mut responses = ::rmcp::model::InputResponses::new();
                for (key, request) in answers {
                    responses.insert(key, client.answer_input(request).await);
                }
                let answers = responses;
                running
                    .peer()
                    .update_task(UpdateTaskParams::new(id.clone(), answers))
                    .await
                    .unwrap();
            }
            TaskPayload::Completed { result } => {
                return result["content"][0]["text"].as_str().unwrap().to_owned();
            }
            other => return format!("{other:?}"),
        }
    }
    panic!("the task {id} did not end");
}

/// Calls a tool of `Handler(.., ask)` with `client` at `version`; the
/// tool's text.
pub(crate) fn call(
    ask: Option<Questions>,
    client: &ScriptedClient,
    version: super::Version,
) -> String {
    call_with(
        RoundsConfig::with_random_key().unwrap(),
        ask,
        client,
        version,
    )
}

/// `config` with the request's principal the client's name (its
/// `initialize`'s `clientInfo.name`).
pub(crate) fn principal_is_client_name(config: RoundsConfig) -> RoundsConfig {
    config.principal(|context| {
        context
            .client_info()
            .map(|info| info.name)
            .unwrap_or_default()
    })
}

/// The text of a tool's result.
pub(crate) fn text_of(
    result: Result<::rmcp::model::CallToolResult, ::rmcp::ServiceError>,
) -> String {
    result.unwrap().content[0].as_text().unwrap().text.clone()
}

/// [`call`] on a server with `config`.
fn call_with(
    config: RoundsConfig,
    ask: Option<Questions>,
    client: &ScriptedClient,
    version: super::Version,
) -> String {
    text_of(call_result(config, ask, client, version))
}

/// [`call_with`]'s tool call, as `client` got it.
pub(crate) fn call_result<C: ::rmcp::ClientHandler + Clone>(
    config: RoundsConfig,
    ask: Option<Questions>,
    client: &C,
    version: super::Version,
) -> Result<::rmcp::model::CallToolResult, ::rmcp::ServiceError> {
    serve_rounds(config, ask, client, version, async |running| {
        running.call_tool(Params::new("tool")).await
    })
}

/// Runs `call` with `client` connected at `version` to a `Handler(config,
/// ask)`; its result, once both ends are closed.
pub(crate) fn serve_rounds<C: ::rmcp::ClientHandler + Clone, R>(
    config: RoundsConfig,
    ask: Option<Questions>,
    client: &C,
    version: super::Version,
    call: impl AsyncFnOnce(&::rmcp::service::RunningService<::rmcp::service::RoleClient, C>) -> R,
) -> R {
    runtime().block_on(async move {
        let (server_io, client_io) = tokio::io::duplex(64 * 1024);
        let server = tokio::spawn(async move {
            let running = Handler(config, ask, TaskManager::new())
                .serve(server_io)
                .await
                .unwrap();
            running.waiting().await.unwrap();
        });
        let running = connect_at(client, client_io, version).await;
        let result = call(&running).await;
        running.cancel().await.unwrap();
        server.await.unwrap();
        result
    })
}

/// A closure that returns `None` without asking is the tool's mistake, at
/// both versions: `-32603`, saying when `None` is right.
#[test]
fn a_closure_that_asks_nothing_and_returns_none_is_an_internal_error() {
    fn nothing(_: Rounds) -> Asking {
        Box::pin(async { None })
    }
    for version in VERSIONS {
        let (client, _) = ScriptedClient::with(form_mode(), vec![]);
        let result = call_result(
            RoundsConfig::with_random_key().unwrap(),
            Some(nothing),
            &client,
            version,
        );
        let Err(::rmcp::ServiceError::McpError(error)) = result else {
            panic!("{version:?}: not an error: {result:?}");
        };
        assert_eq!(error.code.0, -32603, "{version:?}");
        assert!(
            error
                .message
                .contains("return None only when a question gave None"),
            "{version:?}: {}",
            error.message
        );
        assert!(client.seen().is_empty(), "{version:?}: nothing was asked");
    }
}

/// A form and a URL in one round, under their keys.
fn form_and_url(r: Rounds) -> Asking {
    use elicit_core::mcp::UrlRequest;
    use elicit_core::protocol::agent::UrlOutcome;

    Box::pin(async move {
        let confirm = r.form::<Confirm>("confirm", "Deploy?").await;
        let page = r
            .url(
                "page",
                UrlRequest::new("Connect your account.", "https://example.com/connect")
                    .elicitation_id("page-1"),
            )
            .await;
        // Both asked in this run: one round.
        Some(match (confirm?, page?) {
            (Ok(Outcome::Accepted(c)), Ok(UrlOutcome::Consented(waiting))) => {
                format!(
                    "proceed: {}, consented to {}",
                    c.proceed,
                    waiting.id().as_str()
                )
            }
            (confirm, page) => format!("{confirm:?} {page:?}"),
        })
    })
}

#[test]
fn a_form_and_a_url_in_one_round_at_both_versions() {
    use ::rmcp::model::ElicitRequestParams;

    for version in VERSIONS {
        // Content on a URL-mode answer is ignored, so one answer fits both.
        let answer = json!({"action": "accept", "content": {"proceed": true}});
        let (client, _) = ScriptedClient::with(
            super::form_mode().map(|c| c.with_url(::rmcp::model::UrlElicitationCapability::new())),
            vec![answer.clone(), answer],
        );
        let text = call(Some(form_and_url), &client, version);
        assert_eq!(text, "proceed: true, consented to page-1", "{version:?}");
        let mut kinds: Vec<&str> = client
            .seen()
            .iter()
            .map(|request| match request {
                ElicitRequestParams::FormElicitationParams { .. } => "form",
                ElicitRequestParams::UrlElicitationParams { .. } => "url",
                _ => "other",
            })
            .collect();
        kinds.sort_unstable();
        assert_eq!(kinds, ["form", "url"], "{version:?}");
    }
}

#[test]
fn a_url_is_not_asked_of_a_client_without_url_mode_at_both_versions() {
    for version in VERSIONS {
        let (client, _) = ScriptedClient::with(
            form_mode(),
            vec![json!({"action": "accept", "content": {"proceed": true}})],
        );
        let text = call(Some(form_and_url), &client, version);
        assert!(
            text.starts_with(
                "Ok(Accepted(Confirm { proceed: true })) Err(NotSent(ModeNotAdvertised"
            ),
            "{version:?}: {text}"
        );
        // Only the form went out.
        assert_eq!(client.seen().len(), 1, "{version:?}");
    }
}

/// Feature `sensitive`: a token, asked on the agent's own page.
#[derive(Elicit, Debug)]
#[elicit(sensitive)]
struct Token {
    /// The token.
    #[secret]
    #[elicit(length(min = 12))]
    token: elicit_core::sensitive::SecretString,
}

/// The pages of the sensitive-form tests (one loopback server).
static PAGES: std::sync::LazyLock<elicit_core::sensitive::Pages> =
    std::sync::LazyLock::new(|| elicit_core::sensitive::Pages::loopback().build());

/// A sensitive form in rounds.
pub(crate) fn token(r: Rounds) -> Asking {
    Box::pin(async move { token_on(&r, &PAGES).await })
}

/// A sensitive form in rounds, on `pages`: what the tool says of it.
async fn token_on(r: &Rounds, pages: &elicit_core::sensitive::Pages) -> Option<String> {
    use elicit_core::sensitive::{ExposeSecret, SecretOutcome};

    Some(
        match r
            .secret::<Token>("token", "Paste your token.", pages)
            .await?
        {
            Ok(SecretOutcome::Answered(t)) => {
                format!("a token of {} characters", t.token.expose_secret().len())
            }
            Ok(other) => format!("{other:?}"),
            Err(error) => format!("error: {error}"),
        },
    )
}

/// The `initialize` of a client named `name` with form and URL mode, and
/// the tasks extension (SEP-2663) when `tasks`.
fn form_and_url_client(name: &str, tasks: bool) -> ::rmcp::model::InitializeRequestParams {
    let mut capabilities = match tasks {
        true => ::rmcp::model::ClientCapabilities::builder()
            .enable_tasks()
            .build(),
        false => ::rmcp::model::ClientCapabilities::default(),
    };
    capabilities.elicitation =
        super::form_mode().map(|c| c.with_url(::rmcp::model::UrlElicitationCapability::new()));
    ::rmcp::model::InitializeRequestParams::new(
        capabilities,
        ::rmcp::model::Implementation::new(name, "0"),
    )
    .with_protocol_version(::rmcp::model::ProtocolVersion::V_2025_11_25)
}

/// A user who, shown a URL request, opens the page and submits it (or
/// declines), then answers the request; forms are not expected.
#[derive(Clone, Default)]
pub(crate) struct PageUser {
    /// Whether it declares the tasks extension (SEP-2663).
    tasks: bool,
    decline: bool,
    /// Says yes before submitting the page: on 2026-07-28 the page is then
    /// asked again, and submitted before the second yes; on 2025-11-25 it is
    /// submitted meanwhile, while the server waits for it.
    late: Option<super::Version>,
    seen: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
    /// Each page it answered: its URL, and what its browser held.
    pub(crate) answered:
        std::sync::Arc<std::sync::Mutex<Vec<(String, crate::common::sensitive::Answered)>>>,
}

impl ::rmcp::ClientHandler for PageUser {
    fn get_info(&self) -> ::rmcp::model::InitializeRequestParams {
        form_and_url_client("page-user", self.tasks)
    }

    async fn create_elicitation(
        &self,
        request: ::rmcp::model::ElicitRequestParams,
        _context: Context<::rmcp::service::RoleClient>,
    ) -> Result<::rmcp::model::ElicitResult, Error> {
        self.answer_url(request).await
    }
}

impl PageUser {
    /// Shown the URL request `request`: opens the page and submits it (or
    /// declines), then answers.
    async fn answer_url(
        &self,
        request: ::rmcp::model::ElicitRequestParams,
    ) -> Result<::rmcp::model::ElicitResult, Error> {
        use ::rmcp::model::{ElicitRequestParams, ElicitResult, ElicitationAction};
        let ElicitRequestParams::UrlElicitationParams { url, message, .. } = request else {
            return Err(Error::internal_error("a form was not expected", None));
        };
        self.seen.lock().unwrap().push(message);
        if self.decline {
            return Ok(ElicitResult::new(ElicitationAction::Decline));
        }
        let asked = self.seen.lock().unwrap().len();
        let answered = self.answered.clone();
        let submit = move || {
            let page = crate::common::sensitive::answer_page_seen(&url, "token=tok-0123456789");
            assert_eq!(page.status, 200);
            answered.lock().unwrap().push((url, page));
        };
        match (self.late, asked) {
            // Submitted first, then yes.
            (None, 1) | (Some(super::Version::Modern), 2) => {
                tokio::task::spawn_blocking(submit).await.unwrap();
            }
            // Yes first; the page is submitted while the server waits.
            (Some(super::Version::Legacy), 1) => {
                std::thread::spawn(move || {
                    std::thread::sleep(std::time::Duration::from_millis(50));
                    submit();
                });
            }
            _ => {}
        }
        Ok(ElicitResult::new(ElicitationAction::Accept))
    }
}

#[test]
fn a_sensitive_form_in_rounds_at_both_versions() {
    for (decline, late) in [(false, false), (true, false), (false, true)] {
        for version in VERSIONS {
            let user = PageUser {
                decline,
                late: late.then_some(version),
                ..PageUser::default()
            };
            let config = RoundsConfig::with_random_key().unwrap();
            let text = text_of(call_result(config, Some(token), &user, version));
            let expected = if decline {
                "Declined"
            } else {
                "a token of 14 characters"
            };
            assert_eq!(text, expected, "{version:?}");
            // Asked once when its answer was in at the yes (or, on
            // 2025-11-25, the server waited for it); on 2026-07-28 a yes
            // before the page was submitted is asked again.
            let again = "Paste your token.\n\nWhen you have submitted the page, accept this to \
                         continue.";
            let seen = user.seen.lock().unwrap().clone();
            if late && version == super::Version::Modern {
                assert_eq!(seen, ["Paste your token.", again]);
            } else {
                assert_eq!(seen, ["Paste your token."], "{version:?} late: {late}");
            }
        }
    }
}

/// A secret page asked in a prompt, a resource and a task, at both
/// versions: the value reaches the place, and a decline is a decline.
#[test]
fn a_sensitive_form_in_a_prompt_a_resource_and_a_task_at_both_versions() {
    for place in [Place::Prompt, Place::Resource, Place::Task] {
        for decline in [false, true] {
            for version in VERSIONS {
                let user = PageUser {
                    decline,
                    tasks: place == Place::Task,
                    ..PageUser::default()
                };
                let config = RoundsConfig::with_random_key().unwrap();
                let text =
                    serve_rounds(
                        config,
                        Some(token),
                        &user,
                        version,
                        async |running| match place {
                            Place::Prompt => {
                                let prompt = running
                                    .get_prompt(GetPromptRequestParams::new("prompt"))
                                    .await
                                    .unwrap();
                                let said = serde_json::to_value(&prompt.messages[0]).unwrap();
                                said["content"]["text"].as_str().unwrap().to_owned()
                            }
                            Place::Resource => {
                                let read = running
                                    .read_resource(ReadResourceRequestParams::new("elicit://r"))
                                    .await
                                    .unwrap();
                                match &read.contents[0] {
                                    ResourceContents::TextResourceContents { text, .. } => {
                                        text.clone()
                                    }
                                    other => panic!("{other:?}"),
                                }
                            }
                            Place::Task | Place::Tool => task_text(running, &user).await,
                        },
                    );
                let expected = if decline {
                    "Declined"
                } else {
                    "a token of 14 characters"
                };
                assert_eq!(text, expected, "{place:?} at {version:?}");
                let seen = user.seen.lock().unwrap().clone();
                assert_eq!(seen, ["Paste your token."], "{place:?} at {version:?}");
            }
        }
    }
}

/// The hosted pages of the hosted-page test: pages that verify users (the
/// user a trusted header names).
pub(crate) static HOSTED: std::sync::LazyLock<elicit_core::sensitive::Pages> =
    std::sync::LazyLock::new(crate::sensitive_server::hosted::pages);

/// A sensitive form in rounds, on the hosted pages.
pub(crate) fn hosted_token(r: Rounds) -> Asking {
    Box::pin(async move { token_on(&r, &HOSTED).await })
}

/// Alice, on hosted pages: shown a URL request, she sees that Bob is
/// refused the page, submits it herself, then says yes.
#[derive(Clone, Default)]
struct HostedPageUser {
    statuses: std::sync::Arc<std::sync::Mutex<Vec<u16>>>,
    /// Whether it declares the tasks extension (SEP-2663).
    tasks: bool,
}

impl ::rmcp::ClientHandler for HostedPageUser {
    fn get_info(&self) -> ::rmcp::model::InitializeRequestParams {
        form_and_url_client("alice", self.tasks)
    }

    async fn create_elicitation(
        &self,
        request: ::rmcp::model::ElicitRequestParams,
        _context: Context<::rmcp::service::RoleClient>,
    ) -> Result<::rmcp::model::ElicitResult, Error> {
        self.open_as_bob_then_submit(request).await
    }
}

impl InputAnswers for HostedPageUser {
    async fn answer_input(&self, request: ::rmcp::model::ElicitRequestParams) -> Value {
        let answer = self.open_as_bob_then_submit(request).await.unwrap();
        serde_json::to_value(answer).unwrap()
    }
}

impl HostedPageUser {
    /// Shown the page's URL request: Bob opens the page (refused), Alice
    /// submits it, then she says yes.
    async fn open_as_bob_then_submit(
        &self,
        request: ::rmcp::model::ElicitRequestParams,
    ) -> Result<::rmcp::model::ElicitResult, Error> {
        use crate::sensitive_server::hosted::{call, get, submit_as};
        use ::rmcp::model::{ElicitRequestParams, ElicitResult, ElicitationAction};

        let ElicitRequestParams::UrlElicitationParams { url, .. } = request else {
            return Err(Error::internal_error("a form was not expected", None));
        };
        let path = url
            .strip_prefix("https://agent.example.com")
            .expect("the hosted pages' URL")
            .to_owned();
        let statuses = tokio::task::spawn_blocking(move || {
            let bob = call(&HOSTED, get(&path, Some("bob")), "").status;
            let alice = submit_as(&HOSTED, &path, "alice", "token=tok-0123456789");
            [bob, alice]
        })
        .await
        .unwrap();
        self.statuses.lock().unwrap().extend(statuses);
        Ok(ElicitResult::new(ElicitationAction::Accept))
    }
}

/// On pages that verify users, a page a round opens is for the request's
/// principal (`RoundsConfig::principal`, here the client's name), at both
/// versions: Bob is refused it, Alice answers it.
#[test]
fn a_hosted_page_in_rounds_is_for_the_requests_principal_at_both_versions() {
    for version in VERSIONS {
        let user = HostedPageUser::default();
        let config = principal_is_client_name(RoundsConfig::with_random_key().unwrap());
        let text = text_of(call_result(config, Some(hosted_token), &user, version));
        assert_eq!(text, "a token of 14 characters", "{version:?}");
        assert_eq!(*user.statuses.lock().unwrap(), [403, 200], "{version:?}");
    }
}

/// In a task too (the guide's promise): the page the task opens is for the
/// user of the `tools/call` that made it; Bob is refused it, Alice answers
/// it, at both versions.
#[test]
fn a_hosted_page_in_a_task_is_for_the_calls_principal_at_both_versions() {
    for version in VERSIONS {
        let user = HostedPageUser {
            tasks: true,
            ..HostedPageUser::default()
        };
        let config = principal_is_client_name(RoundsConfig::with_random_key().unwrap());
        let text = serve_rounds(
            config,
            Some(hosted_token),
            &user,
            version,
            async |running| task_text(running, &user).await,
        );
        assert_eq!(text, "a token of 14 characters", "{version:?}");
        assert_eq!(*user.statuses.lock().unwrap(), [403, 200], "{version:?}");
    }
}

/// A 2025-11-25 server without sessions (`RoundsConfig::without_sessions`):
/// a form cannot be sent mid-call, so it is refused, nothing sent; a page
/// on pages that verify no user is not opened (its id is the call's, and
/// the first browser to come must not take it).
#[test]
fn without_sessions_a_form_is_refused_and_an_unverified_page_is_not_opened() {
    fn form(r: Rounds) -> Asking {
        Box::pin(async move {
            Some(match r.form::<Confirm>("confirm", "Deploy?").await? {
                Ok(outcome) => format!("{outcome:?}"),
                Err(error) => format!("error: {error}"),
            })
        })
    }
    fn page(r: Rounds) -> Asking {
        Box::pin(async move { token_on(&r, &PAGES).await })
    }
    let config = || {
        RoundsConfig::with_random_key()
            .unwrap()
            .without_sessions([9; 32])
    };
    let (client, _) = ScriptedClient::with(form_mode(), vec![json!({"action": "accept"})]);
    let text = call_with(config(), Some(form), &client, super::Version::Legacy);
    assert!(
        text.starts_with("error: this server has no session"),
        "{text}"
    );
    assert!(client.seen().is_empty(), "nothing was sent");

    let user = PageUser::default();
    let text = text_of(call_result(
        config(),
        Some(page),
        &user,
        super::Version::Legacy,
    ));
    assert!(text.contains("verif"), "{text}");
    assert!(user.seen.lock().unwrap().is_empty(), "no URL was sent");
}

/// A token `checked_token`'s check refuses (revoked).
const REVOKED: &str = "tok-revoked-01";

/// A sensitive form in rounds with a check of the call's own: `REVOKED` is
/// refused on its field, asked again once (`.retry(1)`).
pub(crate) fn checked_token(r: Rounds) -> Asking {
    checked_token_on(r, &PAGES)
}

/// [`checked_token`] on `pages`.
fn checked_token_on(r: Rounds, pages: &'static elicit_core::sensitive::Pages) -> Asking {
    use elicit_core::sensitive::{ExposeSecret, SecretOutcome};

    Box::pin(async move {
        let asked = r
            .secret::<Token>("token", "Paste your token.", pages)
            .retry(1)
            .check(async |form: &Token| {
                if form.token.expose_secret() == REVOKED {
                    let refused = elicit_core::FieldError::rule("token", "was revoked");
                    return Ok(Err(refused.into()));
                }
                Ok::<_, std::io::Error>(Ok(()))
            })
            .await?;
        Some(match asked {
            Ok(SecretOutcome::Answered(t)) => format!("token {}", t.token.expose_secret()),
            Ok(other) => format!("{other:?}"),
            Err(error) => format!("error: {error}"),
        })
    })
}

/// A user who, shown each URL request, opens its page, submits the next of
/// `tokens` on it, then says yes.
#[derive(Clone)]
struct TokensUser {
    tokens: std::sync::Arc<std::sync::Mutex<std::collections::VecDeque<&'static str>>>,
    /// Each URL request's message.
    seen: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
    /// Each page it answered: its URL, and what its browser saw.
    answered: std::sync::Arc<std::sync::Mutex<Vec<(String, crate::common::sensitive::Answered)>>>,
    /// Says yes to each page's first URL request before submitting it (on
    /// 2026-07-28 the URL is asked again, and the page submitted then).
    late: bool,
}

impl TokensUser {
    fn new(tokens: &[&'static str]) -> Self {
        Self {
            tokens: std::sync::Arc::new(std::sync::Mutex::new(tokens.iter().copied().collect())),
            seen: Default::default(),
            answered: Default::default(),
            late: false,
        }
    }
}

impl ::rmcp::ClientHandler for TokensUser {
    fn get_info(&self) -> ::rmcp::model::InitializeRequestParams {
        form_and_url_client("tokens-user", false)
    }

    async fn create_elicitation(
        &self,
        request: ::rmcp::model::ElicitRequestParams,
        _context: Context<::rmcp::service::RoleClient>,
    ) -> Result<::rmcp::model::ElicitResult, Error> {
        use ::rmcp::model::{ElicitRequestParams, ElicitResult, ElicitationAction};
        let ElicitRequestParams::UrlElicitationParams { url, message, .. } = request else {
            return Err(Error::internal_error("a form was not expected", None));
        };
        let asked = {
            let mut seen = self.seen.lock().unwrap();
            seen.push(message);
            seen.len()
        };
        if self.late && asked % 2 == 1 {
            return Ok(ElicitResult::new(ElicitationAction::Accept));
        }
        let Some(token) = self.tokens.lock().unwrap().pop_front() else {
            return Ok(ElicitResult::new(ElicitationAction::Cancel));
        };
        let answered = self.answered.clone();
        tokio::task::spawn_blocking(move || {
            let page = crate::common::sensitive::answer_page_seen(&url, &format!("token={token}"));
            assert_eq!(page.status, 200);
            answered.lock().unwrap().push((url, page));
        })
        .await
        .unwrap();
        Ok(ElicitResult::new(ElicitationAction::Accept))
    }
}

/// A token the call's check refuses is asked again on a new page, at both
/// versions (on 2026-07-28 in the next round, the page read between
/// rounds): the new page shows the error on the token's field and nothing
/// of the refused token, its URL is asked with the errors, and the second
/// token is the answer.
#[test]
fn a_secret_the_check_refuses_is_asked_again_on_a_new_page_at_both_versions() {
    for version in VERSIONS {
        let user = TokensUser::new(&[REVOKED, "tok-0123456789"]);
        let config = RoundsConfig::with_random_key().unwrap();
        let text = text_of(call_result(config, Some(checked_token), &user, version));
        assert_eq!(text, "token tok-0123456789", "{version:?}");
        let seen = user.seen.lock().unwrap().clone();
        assert_eq!(
            seen,
            [
                "Paste your token.",
                "Paste your token.\n\nThe previous answer was not accepted: `token` was \
                 revoked. Please correct it."
            ],
            "{version:?}"
        );
        let answered = user.answered.lock().unwrap().clone();
        assert_eq!(answered.len(), 2, "{version:?}");
        assert_ne!(answered[0].0, answered[1].0, "{version:?}: a new page");
        assert!(!answered[0].1.page.contains("was revoked"), "{version:?}");
        let second = &answered[1].1.page;
        assert!(
            second.contains("class=\"error\"") && second.contains("was revoked"),
            "{version:?}: {second}"
        );
        assert!(!second.contains(REVOKED), "{version:?}: the refused token");
    }
}

/// Refused on every page, at both versions: `Invalid` after the last
/// attempt, with the attempts.
#[test]
fn a_secret_refused_on_every_page_is_invalid_at_both_versions() {
    for version in VERSIONS {
        let user = TokensUser::new(&[REVOKED, REVOKED]);
        let config = RoundsConfig::with_random_key().unwrap();
        let text = text_of(call_result(config, Some(checked_token), &user, version));
        assert_eq!(
            text,
            "error: no valid answer after 2 attempt(s), the last one: invalid form content: \
             `token` was revoked; nothing was accepted: ask in the conversation or fail the \
             operation",
            "{version:?}"
        );
        assert_eq!(user.seen.lock().unwrap().len(), 2, "{version:?}");
    }
}

/// On 2026-07-28, a yes before the new page is submitted asks its URL
/// again with the errors still in the message.
#[test]
fn a_new_page_asked_again_before_it_is_submitted_keeps_the_errors_in_its_message() {
    let user = TokensUser {
        late: true,
        ..TokensUser::new(&[REVOKED, "tok-0123456789"])
    };
    let config = RoundsConfig::with_random_key().unwrap();
    let text = text_of(call_result(
        config,
        Some(checked_token),
        &user,
        super::Version::Modern,
    ));
    assert_eq!(text, "token tok-0123456789");
    let first = "Paste your token.";
    let again = "Paste your token.\n\nThe previous answer was not accepted: `token` was revoked. \
                 Please correct it.";
    let submit = "\n\nWhen you have submitted the page, accept this to continue.";
    let seen = user.seen.lock().unwrap().clone();
    assert_eq!(
        seen,
        [
            first.to_owned(),
            format!("{first}{submit}"),
            again.to_owned(),
            format!("{again}{submit}")
        ]
    );
}

/// `checked_token` on the hosted pages.
fn hosted_checked_token(r: Rounds) -> Asking {
    checked_token_on(r, &HOSTED)
}

/// Alice, as the MCP host's renderer: each URL of the hosted pages is
/// posted with the next of her tokens, then consented to.
#[derive(Clone)]
struct HostedTokens {
    tokens: std::sync::Arc<std::sync::Mutex<std::collections::VecDeque<&'static str>>>,
    /// Each URL request's message, and the page as she saw it.
    seen: std::sync::Arc<std::sync::Mutex<Vec<(String, String)>>>,
}

impl elicit_core::protocol::client::Render for HostedTokens {
    fn form(
        &mut self,
        _: &str,
        _: &elicit_core::protocol::client::FormElicitation,
        _: Option<&elicit_core::protocol::client::AnswerError>,
    ) -> elicit_core::protocol::client::FormAnswer {
        elicit_core::protocol::client::FormAnswer::Cancel
    }

    fn url(
        &mut self,
        _: &str,
        url: &elicit_core::protocol::client::UrlElicitation,
        _: Option<&elicit_core::protocol::url::UrlRejection>,
    ) -> elicit_core::protocol::client::UrlAnswer {
        use crate::sensitive_server::hosted::submitted_as;
        use elicit_core::protocol::client::UrlAnswer;

        let Some(token) = self.tokens.lock().unwrap().pop_front() else {
            return UrlAnswer::Cancel;
        };
        let path = url
            .url()
            .strip_prefix("https://agent.example.com")
            .expect("the hosted pages' URL");
        let page = submitted_as(&HOSTED, path, "alice", &format!("token={token}"));
        assert_eq!(page.status, 200);
        self.seen
            .lock()
            .unwrap()
            .push((url.message().to_owned(), page.page));
        UrlAnswer::Consent
    }
}

/// On a 2025-11-25 server without sessions, a token the check refuses is
/// asked again on a new page listed in the next `-32042`: the host's retry
/// finds it, shows the error on the token's field, and the second token is
/// the answer.
#[test]
fn without_sessions_a_refused_secret_is_asked_again_in_the_next_32042() {
    use ::rmcp::model::CallToolRequestParams;
    use elicit_core::mcp::client::ClientElicitations;
    use elicit_core::protocol::ElicitationCapabilities;

    let user = HostedTokens {
        tokens: std::sync::Arc::new(std::sync::Mutex::new(
            [REVOKED, "tok-0123456789"].into_iter().collect(),
        )),
        seen: Default::default(),
    };
    let client = ClientElicitations::new(ElicitationCapabilities::form_and_url())
        .handler("alice", user.clone());
    let config = principal_is_client_name(RoundsConfig::with_random_key().unwrap())
        .without_sessions([7; 32]);
    let result = serve_rounds(
        config,
        Some(hosted_checked_token),
        &client,
        super::Version::Legacy,
        async |running| {
            client
                .call_tool(running, CallToolRequestParams::new("tool"))
                .await
        },
    );
    assert_eq!(text_of(result), "token tok-0123456789");
    let seen = user.seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 2, "{seen:?}");
    assert_eq!(seen[0].0, "Paste your token.");
    assert_eq!(
        seen[1].0,
        "Paste your token.\n\nThe previous answer was not accepted: `token` was revoked. \
         Please correct it."
    );
    assert!(!seen[0].1.contains("was revoked"));
    assert!(seen[1].1.contains("was revoked"), "{}", seen[1].1);
    assert!(!seen[1].1.contains(REVOKED), "the refused token");
}

/// A prompt's `requestState` is good for one call, as a tool's: the same
/// state sent twice is refused the second time, whatever the answers.
#[test]
fn a_prompts_state_is_good_for_one_call() {
    fn confirm(r: Rounds) -> Asking {
        Box::pin(async move {
            Some(match r.form::<Confirm>("confirm", "Deploy?").await? {
                Ok(outcome) => format!("{outcome:?}"),
                Err(error) => format!("error: {error}"),
            })
        })
    }
    let client = ScriptedClient::with(form_mode(), vec![]).0;
    let config = RoundsConfig::with_random_key().unwrap();
    let (first, again) = serve_rounds(
        config,
        Some(confirm),
        &client,
        super::Version::Modern,
        async |running| {
            let asked = running
                .get_prompt_once(GetPromptRequestParams::new("prompt"))
                .await
                .unwrap();
            let GetPromptResponse::InputRequired(asked) = asked else {
                panic!("an input-required result: {asked:?}");
            };
            let state = asked.request_state.expect("a state");
            let answer = || {
                let mut params = GetPromptRequestParams::new("prompt");
                params.input_responses = Some(
                    [(
                        "confirm".to_owned(),
                        json!({"action": "accept", "content": {"proceed": true}}),
                    )]
                    .into_iter()
                    .collect(),
                );
                params.request_state = Some(state.clone());
                params
            };
            let first = running.get_prompt_once(answer()).await;
            let again = running.get_prompt_once(answer()).await;
            (first, again)
        },
    );
    let Ok(GetPromptResponse::Complete(first)) = first else {
        panic!("the first use completes: {first:?}");
    };
    let said = serde_json::to_value(&first.messages[0]).unwrap();
    assert_eq!(
        said["content"]["text"],
        "Accepted(Confirm { proceed: true })"
    );
    let Err(::rmcp::ServiceError::McpError(error)) = again else {
        panic!("the second use is refused: {again:?}");
    };
    assert_eq!(error.message, "Invalid or expired requestState");
}

/// A form and a URL asked together in a prompt, a resource and a task, at
/// both versions: one round on 2026-07-28 (two requests on 2025-11-25, two
/// input requests in a task), the URL checked and consented to.
#[test]
fn a_form_and_a_url_in_a_prompt_a_resource_and_a_task_at_both_versions() {
    for place in [Place::Prompt, Place::Resource, Place::Task] {
        for version in VERSIONS {
            let (client, _) = ScriptedClient::with(
                form_mode().map(|c| c.with_url(::rmcp::model::UrlElicitationCapability::new())),
                vec![
                    json!({"action": "accept", "content": {"proceed": true}}),
                    json!({"action": "accept"}),
                ],
            );
            let text = call_at(place, form_and_url, &client, version);
            assert_eq!(
                text, "proceed: true, consented to page-1",
                "{place:?} at {version:?}"
            );
            assert_eq!(client.seen().len(), 2, "{place:?} at {version:?}");
        }
    }
}

/// On a 2025-11-25 server without sessions, a prompt and a resource that
/// need a page end with `-32042`, the page listed for the client to open
/// before it retries, nothing sent mid-call.
#[test]
fn without_sessions_a_prompt_and_a_resource_are_32042_for_a_page() {
    let config = || {
        principal_is_client_name(RoundsConfig::with_random_key().unwrap()).without_sessions([5; 32])
    };
    let url = form_mode().map(|c| c.with_url(::rmcp::model::UrlElicitationCapability::new()));
    let client = ScriptedClient::with(url, vec![]).0;
    let (prompt, resource) = serve_rounds(
        config(),
        Some(hosted_token),
        &client,
        super::Version::Legacy,
        async |running| {
            let prompt = running
                .get_prompt_once(GetPromptRequestParams::new("prompt"))
                .await;
            let resource = running
                .read_resource_once(ReadResourceRequestParams::new("elicit://r"))
                .await;
            (
                prompt.map(|p| format!("{p:?}")),
                resource.map(|r| format!("{r:?}")),
            )
        },
    );
    for (place, result) in [("prompt", prompt), ("resource", resource)] {
        let Err(::rmcp::ServiceError::McpError(error)) = result else {
            panic!("{place}: {result:?}");
        };
        assert_eq!(error.code.0, -32042, "{place}: {error:?}");
        let listed = &error.data.as_ref().expect("data")["elicitations"];
        assert_eq!(listed[0]["mode"], "url", "{place}: {error:?}");
        assert!(
            listed[0]["url"]
                .as_str()
                .is_some_and(|u| u.contains("/elicit/")),
            "{place}: {error:?}"
        );
    }
    assert!(client.seen().is_empty(), "nothing was sent mid-call");
}

/// The tool's arguments (none given) completed by the user: in the call
/// (2025-11-25), in its rounds (2026-07-28) and in a task at both
/// versions; a decline is the tool result the model reads.
#[test]
fn a_tools_arguments_are_completed_in_the_call_its_rounds_and_a_task() {
    fn arguments(r: Rounds) -> Asking {
        Box::pin(async move {
            Some(match r.arguments::<Confirm>("args", "Confirm?").await? {
                Ok(confirm) => format!("proceed: {}", confirm.proceed),
                Err(ended) => ended.content[0].as_text().unwrap().text.clone(),
            })
        })
    }
    for place in [Place::Tool, Place::Task] {
        for version in VERSIONS {
            for (answer, expected) in [
                (
                    json!({"action": "accept", "content": {"proceed": true}}),
                    "proceed: true",
                ),
                (
                    json!({"action": "decline"}),
                    "the user declined to give `proceed`: nothing was done",
                ),
            ] {
                let (client, _) = ScriptedClient::with(form_mode(), vec![answer]);
                let text = call_at(place, arguments, &client, version);
                assert_eq!(text, expected, "{place:?} at {version:?}");
                assert_eq!(client.seen().len(), 1, "{place:?} at {version:?}");
            }
        }
    }
}

/// Past `RoundsConfig::max_rounds` (here 1), on 2026-07-28: a tool ends with
/// a tool error the model reads, a prompt and a resource with `-32600`
/// (they have no error result), as `Ask::run` documents.
#[test]
fn past_the_cap_on_rounds_a_tool_errs_and_a_prompt_or_a_resource_is_32600() {
    fn two_rounds(r: Rounds) -> Asking {
        Box::pin(async move {
            // The second question is asked only once the first is answered:
            // a second round.
            let first = r.form::<Confirm>("first", "First?").await?;
            let second = r.form::<Confirm>("second", "Second?").await?;
            Some(format!("{first:?} {second:?}"))
        })
    }
    // One answer for each place's first round.
    let (client, _) = ScriptedClient::with(
        form_mode(),
        vec![json!({"action": "accept", "content": {"proceed": true}}); 3],
    );
    let config = || RoundsConfig::with_random_key().unwrap().max_rounds(1);
    let tool = call_result(config(), Some(two_rounds), &client, super::Version::Modern).unwrap();
    assert_eq!(tool.is_error, Some(true));
    assert_eq!(
        tool.content[0].as_text().unwrap().text,
        "no answer after 1 rounds of questions: nothing was done"
    );
    let (prompt, resource) = serve_rounds(
        config(),
        Some(two_rounds),
        &client,
        super::Version::Modern,
        async |running| {
            let prompt = running
                .get_prompt(GetPromptRequestParams::new("prompt"))
                .await;
            let resource = running
                .read_resource(ReadResourceRequestParams::new("elicit://r"))
                .await;
            (prompt.map(|_| ()), resource.map(|_| ()))
        },
    );
    for (place, result) in [("prompt", prompt), ("resource", resource)] {
        let Err(::rmcp::ServiceError::McpError(error)) = result else {
            panic!("{place}: {result:?}");
        };
        assert_eq!(
            error.code,
            ::rmcp::model::ErrorCode::INVALID_REQUEST,
            "{place}"
        );
        assert_eq!(
            error.message, "no answer after 1 rounds of questions: nothing was done",
            "{place}"
        );
    }
}
