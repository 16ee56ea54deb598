//! `Ask` as rmcp's users write servers: the `mcp` guide's `#[tool]`
//! snippet, compiled and run at both versions; `Ask` anywhere among a
//! tool's extractors (the state bound to the arguments either way); a tool
//! router not `routed` refused, naming the fix; and the example server's
//! prompt and resource asking at both versions (a child of `rmcp.rs`, whose
//! scripted client and connections it uses).

use ::rmcp::model::{
    CallToolRequestParams, ErrorCode, GetPromptRequestParams, GetPromptResponse,
    InputRequiredResult, JsonObject, ReadResourceRequestParams, ResourceContents,
};
use ::rmcp::service::RunningService;
use ::rmcp::{RoleClient, ServiceError, ServiceExt};
use serde_json::json;

use super::{ScriptedClient, VERSIONS, Version, connect_at, form_message, form_mode, runtime};
use crate::common::readme::{docs_block, lines, snippet};

// README snippet start
use elicit_core::Elicit;
use elicit_core::mcp::{Ask, Asked, RoundsConfig, routed};
use elicit_core::protocol::agent::Outcome;
use rmcp::handler::server::{router::tool::ToolRouter, wrapper::Parameters};
use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock, ErrorData};
use rmcp::{ServerHandler, schemars::JsonSchema, tool, tool_handler, tool_router};

#[derive(Elicit, Debug)]
struct Confirm {
    /// Go ahead with the deployment?
    proceed: bool,
}

/// What the model passes to the tool.
#[derive(serde::Deserialize, JsonSchema)]
struct Target {
    /// The environment to deploy to.
    env: String,
}

#[derive(Clone)]
struct Server {
    tool_router: ToolRouter<Self>,
    // e.g. `RoundsConfig::with_random_key()?` for a stdio server
    rounds: std::sync::Arc<RoundsConfig>,
}

#[tool_router]
impl Server {
    /// The same code on MCP 2025-11-25 (`elicitation/create` requests) and
    /// 2026-07-28 (input-required rounds).
    #[tool(description = "Deploys to an environment, once the user confirms.")]
    async fn deploy(
        &self,
        Parameters(target): Parameters<Target>,
        ask: Ask, // anywhere among the extractors
    ) -> Result<CallToolResponse, ErrorData> {
        // Runs from the top each round; a question is `None` once it is asked
        // in a round that ends the call (2026-07-28), and `?` ends the run.
        let message = format!("Deploy to {}?", target.env);
        let message = message.as_str();
        let asked = ask.run(&self.rounds, |r| async move {
            r.form::<Confirm>("confirm", message).retry(2).await
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
}

// `routed` reads each request whole before the extractors take its parts.
#[tool_handler(router = routed(&self.tool_router))]
impl ServerHandler for Server {}
// README snippet end

#[test]
fn the_tool_docs_snippet_is_this_code() {
    assert_eq!(
        lines(snippet(include_str!("rmcp_tools.rs"))),
        lines(&docs_block(
            include_str!("../../elicit-core/src/mcp/mod.rs"),
            "# A `#[tool]` function that asks"
        ))
    );
}

const KEY: [u8; 32] = *b"a key of 32 bytes, for tools....";

fn rounds() -> std::sync::Arc<RoundsConfig> {
    let codec = ::rmcp::model::RequestStateCodec::try_new(KEY.to_vec()).unwrap();
    std::sync::Arc::new(RoundsConfig::new(codec))
}

/// Runs `f` with `client` connected at `version` to `server`.
fn with<S: ServerHandler, R>(
    server: S,
    client: &ScriptedClient,
    version: Version,
    f: impl AsyncFnOnce(&RunningService<RoleClient, ScriptedClient>) -> R,
) -> R {
    runtime().block_on(async move {
        let (server_io, client_io) = tokio::io::duplex(64 * 1024);
        let server = tokio::spawn(async move {
            let running = server.serve(server_io).await.unwrap();
            running.waiting().await.unwrap();
        });
        let running = connect_at(client, client_io, version).await;
        let value = f(&running).await;
        running.cancel().await.unwrap();
        server.await.unwrap();
        value
    })
}

fn arguments(value: serde_json::Value) -> JsonObject {
    value.as_object().cloned().unwrap()
}

fn text_of(response: Result<CallToolResponse, ServiceError>) -> String {
    match response {
        Ok(CallToolResponse::Complete(result)) => result.content[0].as_text().unwrap().text.clone(),
        other => panic!("a complete result: {other:?}"),
    }
}

/// The guide's tool at both versions, listed with its input schema: an
/// invalid answer asked again with its errors, then the valid one.
#[test]
fn the_tool_docs_snippet_runs_at_both_versions() {
    let server = || Server {
        tool_router: Server::tool_router(),
        rounds: rounds(),
    };
    for version in VERSIONS {
        let (client, _) = ScriptedClient::with(
            form_mode(),
            vec![
                json!({"action": "accept", "content": {"proceed": "yes"}}),
                json!({"action": "accept", "content": {"proceed": true}}),
            ],
        );
        let (tools, text) = with(server(), &client, version, async |c| {
            let tools = c.peer().list_tools(None).await.unwrap();
            let call = CallToolRequestParams::new("deploy")
                .with_arguments(arguments(json!({"env": "production"})));
            (tools, c.call_tool(call).await.unwrap())
        });
        assert_eq!(tools.tools.len(), 1, "{version:?}");
        let schema = serde_json::Value::Object((*tools.tools[0].input_schema).clone());
        assert_eq!(schema["properties"]["env"]["type"], "string", "{version:?}");
        assert_eq!(schema["required"], json!(["env"]), "{version:?}");
        assert_eq!(text.content[0].as_text().unwrap().text, "Deploying.");
        let seen = client.seen();
        assert_eq!(seen.len(), 2, "{version:?}");
        assert_eq!(form_message(&seen[0]), "Deploy to production?");
        assert!(
            form_message(&seen[1]).contains("`proceed`"),
            "{version:?}: {}",
            form_message(&seen[1])
        );
    }
}

/// Two tools with the same questions, `Ask` first in one and last in the
/// other, and one whose router is not `routed`.
#[derive(Clone)]
struct Orders {
    tool_router: ToolRouter<Self>,
    rounds: std::sync::Arc<RoundsConfig>,
}

impl Orders {
    async fn confirm(&self, ask: Ask, target: Target) -> Result<CallToolResponse, ErrorData> {
        let asked = ask.run(&self.rounds, |r| async move {
            r.form::<Confirm>("confirm", "Go?").await
        });
        Ok(match asked.await? {
            Asked::Respond(response) => response,
            Asked::Answered(Ok(Outcome::Accepted(Confirm { proceed: true }))) => {
                CallToolResult::success(vec![ContentBlock::text(format!("To {}.", target.env))])
                    .into()
            }
            Asked::Answered(other) => {
                CallToolResult::error(vec![ContentBlock::text(format!("{other:?}"))]).into()
            }
        })
    }
}

#[tool_router]
impl Orders {
    #[tool(description = "`Ask` first.")]
    async fn ask_first(
        &self,
        ask: Ask,
        Parameters(target): Parameters<Target>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.confirm(ask, target).await
    }

    #[tool(description = "`Ask` last, after `Parameters` took the arguments.")]
    async fn ask_last(
        &self,
        Parameters(target): Parameters<Target>,
        ask: Ask,
    ) -> Result<CallToolResponse, ErrorData> {
        self.confirm(ask, target).await
    }
}

#[tool_handler(router = routed(&self.tool_router))]
impl ServerHandler for Orders {}

/// The same tools, their router not `routed`.
#[derive(Clone)]
struct NotRouted(Orders);

impl ServerHandler for NotRouted {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: ::rmcp::service::RequestContext<::rmcp::RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let context =
            ::rmcp::handler::server::tool::ToolCallContext::new(&self.0, request, context);
        self.0.tool_router.call(context).await
    }
}

fn orders() -> Orders {
    Orders {
        tool_router: Orders::tool_router(),
        rounds: rounds(),
    }
}

/// A 2026-07-28 tool call of `tool` with `env`, once; with answers and a
/// state when given.
fn call_once(
    tool: &'static str,
    env: &str,
    state: Option<&str>,
) -> ::rmcp::model::CallToolRequestParams {
    let call = CallToolRequestParams::new(tool).with_arguments(arguments(json!({"env": env})));
    match state {
        Some(state) => call
            .with_input_responses(
                [(
                    "confirm".to_owned(),
                    json!({"action": "accept", "content": {"proceed": true}}),
                )]
                .into_iter()
                .collect(),
            )
            .with_request_state(state),
        None => call,
    }
}

fn state_of(response: Result<CallToolResponse, ServiceError>) -> String {
    match response {
        Ok(CallToolResponse::InputRequired(InputRequiredResult {
            request_state: Some(state),
            ..
        })) => state,
        other => panic!("an input-required result: {other:?}"),
    }
}

/// Wherever `Ask` stands among the extractors, the state is bound to the
/// tool's arguments: the state of a call for staging does not carry the
/// user's yes to a call for production, and does for staging.
#[test]
fn ask_before_or_after_parameters_binds_the_state_to_the_arguments() {
    for tool in ["ask_first", "ask_last"] {
        let client = ScriptedClient::with(form_mode(), vec![]).0;
        let (moved, kept) = with(orders(), &client, Version::Modern, async |c| {
            let state = state_of(c.call_tool_once(call_once(tool, "staging", None)).await);
            let moved = c
                .call_tool_once(call_once(tool, "production", Some(&state)))
                .await;
            let state = state_of(c.call_tool_once(call_once(tool, "staging", None)).await);
            let kept = c
                .call_tool_once(call_once(tool, "staging", Some(&state)))
                .await;
            (moved, kept)
        });
        let Err(ServiceError::McpError(error)) = moved else {
            panic!("{tool}: the state moved to other arguments: {moved:?}");
        };
        assert_eq!(error.code, ErrorCode::INVALID_PARAMS, "{tool}");
        assert_eq!(error.message, "Invalid or expired requestState", "{tool}");
        assert_eq!(text_of(kept), "To staging.", "{tool}");
    }
}

/// A router not `routed`: every call of a tool with an `Ask` is refused at
/// both versions, the message naming the fix; nothing is asked.
#[test]
fn a_tool_router_not_routed_is_refused_naming_the_fix() {
    for version in VERSIONS {
        for tool in ["ask_first", "ask_last"] {
            let client = ScriptedClient::with(form_mode(), vec![]).0;
            let result = with(NotRouted(orders()), &client, version, async |c| {
                c.call_tool_once(call_once(tool, "staging", None)).await
            });
            let Err(ServiceError::McpError(error)) = result else {
                panic!("{version:?} {tool}: {result:?}");
            };
            assert_eq!(error.code, ErrorCode::INTERNAL_ERROR);
            assert!(
                error.message.contains(
                    "#[tool_handler(router = elicit_core::mcp::routed(&self.tool_router))]"
                ),
                "{}",
                error.message
            );
            assert!(client.seen().is_empty(), "{version:?} {tool}");
        }
    }
}

// ---------------------------------------------------------------------------
// examples/rmcp_server.rs's prompt and resource, as built

fn example_server() -> std::path::PathBuf {
    crate::common::examples::built(&["--workspace", "--all-features", "--example", "rmcp_server"])
        .join("rmcp_server")
}

/// The example's prompt and resource at both versions over stdio: each
/// asks before it answers (an invalid name asked again with its errors),
/// and a decline is an answer too.
#[test]
fn the_example_servers_prompt_and_resource_ask_at_both_versions() {
    use ::rmcp::transport::TokioChildProcess;

    let binary = example_server();
    for version in VERSIONS {
        let (client, _) = ScriptedClient::with(
            form_mode(),
            vec![
                json!({"action": "accept", "content": {"name": ""}}),
                json!({"action": "accept", "content": {"name": "Ada"}}),
                json!({"action": "accept", "content": {"loud": true}}),
                json!({"action": "decline"}),
            ],
        );
        let (prompts, resources, prompt, loud, quiet) = runtime().block_on(async {
            let child = TokioChildProcess::new(tokio::process::Command::new(&binary)).unwrap();
            let running = connect_at(&client, child, version).await;
            let prompts = running.peer().list_prompts(None).await.unwrap();
            let resources = running.peer().list_resources(None).await.unwrap();
            let prompt = running
                .get_prompt(GetPromptRequestParams::new("welcome"))
                .await
                .unwrap();
            let read = || running.read_resource(ReadResourceRequestParams::new("elicit://motd"));
            let (loud, quiet) = (read().await.unwrap(), read().await.unwrap());
            running.cancel().await.unwrap();
            (prompts, resources, prompt, loud, quiet)
        });
        let at = format!("{version:?}");
        assert_eq!(prompts.prompts[0].name, "welcome", "{at}");
        assert_eq!(resources.resources[0].uri, "elicit://motd", "{at}");
        let said = serde_json::to_value(&prompt.messages[0]).unwrap();
        assert_eq!(
            said["content"]["text"], "Greet Ada and offer to deploy.",
            "{at}"
        );
        let text = |read: &::rmcp::model::ReadResourceResult| match &read.contents[0] {
            ResourceContents::TextResourceContents { text, .. } => text.clone(),
            other => panic!("{other:?}"),
        };
        assert_eq!(text(&loud), "SHIP IT!", "{at}");
        assert_eq!(text(&quiet), "Ship it.", "{at}");
        let seen = client.seen();
        let messages: Vec<&str> = seen.iter().map(form_message).collect();
        assert_eq!(messages.len(), 4, "{at}: {messages:?}");
        assert_eq!(messages[0], "Your name?", "{at}");
        assert!(messages[1].contains("`name`"), "{at}: {}", messages[1]);
        assert_eq!(messages[2], "Shout the message of the day?", "{at}");
    }
}

/// On 2026-07-28 a prompt's and a resource's rounds are input-required
/// results with a sealed state, bound to the prompt or the resource: a
/// prompt's state does not open for the resource.
#[test]
fn a_prompts_state_is_refused_by_a_resource() {
    use ::rmcp::transport::TokioChildProcess;

    let binary = example_server();
    let client = ScriptedClient::with(form_mode(), vec![]).0;
    let (prompt, resource) = runtime().block_on(async {
        let child = TokioChildProcess::new(tokio::process::Command::new(&binary)).unwrap();
        let running = connect_at(&client, child, Version::Modern).await;
        let prompt = running
            .get_prompt_once(GetPromptRequestParams::new("welcome"))
            .await
            .unwrap();
        let GetPromptResponse::InputRequired(InputRequiredResult {
            request_state: Some(state),
            input_requests: Some(requests),
            ..
        }) = &prompt
        else {
            panic!("an input-required result: {prompt:?}");
        };
        assert_eq!(requests.keys().collect::<Vec<_>>(), ["profile"]);
        let mut read = ReadResourceRequestParams::new("elicit://motd");
        read.request_state = Some(state.clone());
        let resource = running.read_resource_once(read).await;
        running.cancel().await.unwrap();
        (prompt, resource)
    });
    assert!(matches!(prompt, GetPromptResponse::InputRequired(_)));
    let Err(ServiceError::McpError(error)) = resource else {
        panic!("a prompt's state opened for a resource: {resource:?}");
    };
    assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
    assert_eq!(error.message, "Invalid or expired requestState");
}

// ---------------------------------------------------------------------------
// examples/rmcp_server.rs's `migrate`, as a task (SEP-2663)

/// A client that declares form mode and the tasks extension; it answers
/// nothing by itself (the test answers each input request of the task).
#[derive(Clone)]
struct TasksClient;

impl ::rmcp::ClientHandler for TasksClient {
    fn get_info(&self) -> ::rmcp::model::InitializeRequestParams {
        let mut capabilities = ::rmcp::model::ClientCapabilities::builder()
            .enable_tasks()
            .build();
        capabilities.elicitation = form_mode();
        ::rmcp::model::InitializeRequestParams::new(
            capabilities,
            ::rmcp::model::Implementation::new("tasks", "0"),
        )
        .with_protocol_version(::rmcp::model::ProtocolVersion::V_2025_11_25)
    }
}

/// Polls the task `id` until it is terminal or asks (its input requests'
/// keys and messages), a few seconds at most.
async fn next_state(
    client: &RunningService<RoleClient, TasksClient>,
    id: &str,
) -> ::rmcp::model::TaskPayload {
    use ::rmcp::model::{GetTaskParams, TaskPayload};
    for _ in 0..500 {
        let got = client
            .peer()
            .get_task(GetTaskParams::new(id))
            .await
            .unwrap();
        if !matches!(got.task.payload, TaskPayload::Working) {
            return got.task.payload;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    panic!("the task {id} neither asked nor ended");
}

/// The keys and messages of the input requests the task `payload` waits on.
fn asks_of(payload: &::rmcp::model::TaskPayload) -> Vec<(String, String)> {
    use ::rmcp::model::{InputRequest, TaskPayload};
    let TaskPayload::InputRequired { input_requests } = payload else {
        panic!("an input-required task: {payload:?}");
    };
    input_requests
        .iter()
        .map(|(key, request)| match request {
            InputRequest::Elicitation(request) => {
                (key.clone(), form_message(&request.params).to_owned())
            }
            other => panic!("an elicitation: {other:?}"),
        })
        .collect()
}

/// Connects a [`TasksClient`] to the example at `version` (a child on
/// stdio), calls `migrate` once and gives `f` the client and the task's id.
fn with_task<R>(
    version: Version,
    f: impl AsyncFnOnce(&RunningService<RoleClient, TasksClient>, String) -> R,
) -> R {
    use ::rmcp::transport::TokioChildProcess;
    let binary = example_server();
    runtime().block_on(async move {
        let child = TokioChildProcess::new(tokio::process::Command::new(&binary)).unwrap();
        let client = connect_at(&TasksClient, child, version).await;
        let created = client
            .call_tool_once(CallToolRequestParams::new("migrate"))
            .await
            .unwrap();
        let CallToolResponse::Task(created) = created else {
            panic!("a task: {created:?}");
        };
        let value = f(&client, created.task.task_id.clone()).await;
        client.cancel().await.unwrap();
        value
    })
}

fn answer(key: &str, content: serde_json::Value) -> ::rmcp::model::UpdateTaskParams {
    ::rmcp::model::UpdateTaskParams::new(
        String::new(),
        [(
            key.to_owned(),
            json!({"action": "accept", "content": content}),
        )]
        .into_iter()
        .collect(),
    )
}

/// Inside a task, at both versions: the form is an input request of the
/// task under its key, an invalid answer (by `tasks/update`) is asked again
/// under a key of its own with the errors in the message, and the valid one
/// ends the task with the tool's result.
#[test]
fn a_task_asks_through_its_input_requests_at_both_versions() {
    use ::rmcp::model::TaskPayload;
    for version in VERSIONS {
        let (asked, result) = with_task(version, async |client, id| {
            let mut asked = Vec::new();
            let first = asks_of(&next_state(client, &id).await);
            let mut update = answer(&first[0].0, json!({"now": "yes"}));
            update.task_id = id.clone();
            client.peer().update_task(update).await.unwrap();
            asked.extend(first);
            let again = asks_of(&next_state(client, &id).await);
            let mut update = answer(&again[0].0, json!({"now": true}));
            update.task_id = id.clone();
            client.peer().update_task(update).await.unwrap();
            asked.extend(again);
            (asked, next_state(client, &id).await)
        });
        let at = format!("{version:?}");
        assert_eq!(asked.len(), 2, "{at}: {asked:?}");
        assert_eq!(asked[0].0, "migrate", "{at}");
        assert_eq!(asked[0].1, "Migrate the database now?", "{at}");
        assert_eq!(asked[1].0, "migrate#2", "{at}");
        assert!(
            asked[1].1.contains("The previous answer was not accepted")
                && asked[1].1.contains("`now`"),
            "{at}: {}",
            asked[1].1
        );
        let TaskPayload::Completed { result } = result else {
            panic!("{at}: a completed task: {result:?}");
        };
        assert_eq!(result["content"][0]["text"], "Migrated.", "{at}");
    }
}

/// `tasks/cancel` while the task waits on the user ends the ask and the
/// task as cancelled, at both versions.
#[test]
fn a_cancelled_task_ends_its_ask_as_cancelled_at_both_versions() {
    use ::rmcp::model::{CancelTaskParams, TaskPayload};
    for version in VERSIONS {
        let ended = with_task(version, async |client, id| {
            let asked = asks_of(&next_state(client, &id).await);
            assert_eq!(asked[0].0, "migrate");
            client
                .peer()
                .cancel_task(CancelTaskParams::new(id.clone()))
                .await
                .unwrap();
            next_state(client, &id).await
        });
        assert!(
            matches!(ended, TaskPayload::Cancelled),
            "{version:?}: {ended:?}"
        );
    }
}

/// A client without the tasks extension gets `migrate` as any tool: asked
/// in the call (or its rounds), no task.
#[test]
fn without_the_tasks_extension_the_tool_asks_in_the_call() {
    use ::rmcp::transport::TokioChildProcess;
    let binary = example_server();
    for version in VERSIONS {
        let (client, _) = ScriptedClient::with(
            form_mode(),
            vec![json!({"action": "accept", "content": {"now": false}})],
        );
        let text = runtime().block_on(async {
            let child = TokioChildProcess::new(tokio::process::Command::new(&binary)).unwrap();
            let running = connect_at(&client, child, version).await;
            let result = running
                .call_tool(CallToolRequestParams::new("migrate"))
                .await
                .unwrap();
            running.cancel().await.unwrap();
            result.content[0].as_text().unwrap().text.clone()
        });
        assert_eq!(text, "Not migrated.", "{version:?}");
        assert_eq!(client.seen().len(), 1, "{version:?}");
    }
}

/// A prompt that asks, behind rmcp's `#[prompt_handler]` (which builds the
/// prompt's context without the request's answers and state).
#[derive(Clone)]
struct PromptHandled {
    prompt_router: ::rmcp::handler::server::router::prompt::PromptRouter<Self>,
    rounds: std::sync::Arc<RoundsConfig>,
}

#[::rmcp::prompt_router]
impl PromptHandled {
    #[::rmcp::prompt(name = "welcome", description = "Asks the user's name.")]
    async fn welcome(
        &self,
        ask: Ask<::rmcp::model::GetPromptResponse>,
    ) -> Result<elicit_core::mcp::PromptReply, ErrorData> {
        let asked = ask.run(&self.rounds, |r| async move {
            r.form::<Confirm>("confirm", "Go?").await
        });
        match asked.await? {
            Asked::Respond(response) => Ok(response.into()),
            Asked::Answered(_) => Ok(::rmcp::model::GetPromptResult::new(vec![]).into()),
        }
    }
}

#[::rmcp::prompt_handler(router = self.prompt_router)]
impl ServerHandler for PromptHandled {}

/// Behind `#[prompt_handler]`, a prompt with an `Ask` is refused at both
/// versions, the message naming the fix (`get_prompt` through `routed`);
/// nothing is asked.
#[test]
fn a_prompt_behind_prompt_handler_is_refused_naming_the_fix() {
    for version in VERSIONS {
        let server = PromptHandled {
            prompt_router: PromptHandled::prompt_router(),
            rounds: rounds(),
        };
        let client = ScriptedClient::with(form_mode(), vec![]).0;
        let result = with(server, &client, version, async |c| {
            c.get_prompt_once(GetPromptRequestParams::new("welcome"))
                .await
        });
        let Err(ServiceError::McpError(error)) = result else {
            panic!("{version:?}: {result:?}");
        };
        assert_eq!(error.code, ErrorCode::INTERNAL_ERROR);
        assert!(
            error
                .message
                .contains("write `get_prompt` as `elicit_core::mcp::routed(&self.prompt_router)"),
            "{}",
            error.message
        );
        assert!(client.seen().is_empty(), "{version:?}");
    }
}
