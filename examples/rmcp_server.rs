//! An MCP server on rmcp, whole, written as rmcp's README writes servers
//! (`#[tool_router]`, `#[tool]`, `#[tool_handler]`): a tool, `deploy`, that
//! asks the user for a derived form; a prompt, `welcome`, and a resource,
//! `elicit://motd`, that ask too; and a tool, `migrate`, that runs as a
//! task (SEP-2663) where the client declares the tasks extension, and asks
//! from inside it. On MCP 2025-11-25 each question is an
//! `elicitation/create` request; on 2026-07-28 an input-required result,
//! answered by the client's next call (`tools/call`, `prompts/get` and
//! `resources/read` alike); inside a task, an input request of the task,
//! answered by `tasks/update`. Served on stdio or over Streamable HTTP. The
//! README's "An MCP tool on rmcp" is its `deploy`.
//!
//! A user's `src/main.rs` as it is, with these `[dependencies]`
//! (tests/user-crates/rmcp-server builds it from them alone, outside this
//! workspace; the last three are only for Streamable HTTP):
//!
//! ```toml
//! [dependencies]
//! elicit-core = { path = "../elicit/elicit-core", features = ["rmcp"] }
//! rmcp = { version = "3.11", features = ["server", "macros", "transport-io", "transport-streamable-http-server"] }
//! tokio = { version = "1", features = ["macros", "rt", "net"] }
//! hyper = { version = "1", features = ["server", "http1"] }
//! hyper-util = { version = "0.1", features = ["tokio"] }
//! tower-service = "0.3"
//! ```
//!
//! ```sh
//! cargo run --features rmcp --example rmcp_server                         # stdio
//! cargo run --features rmcp --example rmcp_server -- --http 127.0.0.1:8000  # http://127.0.0.1:8000/mcp
//! ```
//!
//! tests/it/rmcp.rs drives it with rmcp's client both ways at both versions.

// README snippet start
use elicit_core::Elicit;
use elicit_core::mcp::{Ask, Asked, RoundsConfig, input_schema, routed};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock, ErrorData};
use rmcp::{ServerHandler, tool, tool_handler, tool_router};

/// Deploy a branch: the tool's arguments, and the form the user completes.
#[derive(Elicit, Debug)]
struct Deploy {
    /// How many instances to run.
    #[elicit(range(min = 1, max = 16))]
    replicas: u8,
    /// The branch to deploy; the current one if none.
    #[elicit(pattern = "^[a-z0-9/_-]+$")]
    branch: Option<String>,
}

#[derive(Clone)]
struct Server {
    tool_router: ToolRouter<Self>,
    /// Seals the state between rounds (MCP 2026-07-28).
    rounds: std::sync::Arc<RoundsConfig>,
    // README skips start: the tasks `migrate` runs as (rmcp's `TaskManager`)
    tasks: rmcp::task_manager::TaskManager,
    // The prompts (`#[prompt_router]`).
    prompt_router: rmcp::handler::server::router::prompt::PromptRouter<Self>,
    // README skips end
}

#[tool_router]
impl Server {
    #[tool(
        description = "Deploys; asks the user what the model left out.",
        input_schema = input_schema::<Deploy>()
    )]
    async fn deploy(&self, ask: Ask) -> Result<CallToolResponse, ErrorData> {
        // The model's arguments read as the form: what it left out or gave
        // wrong is asked of the user, only that (an invalid answer twice more
        // at most); no question when they are complete.
        let asked = ask.run(&self.rounds, |r| async move {
            r.arguments::<Deploy>("deploy", "Replicas?").retry(2).await
        });
        let deploy = match asked.await? {
            // 2026-07-28: an input-required result; the client calls again.
            Asked::Respond(response) => return Ok(response),
            // Declined, cancelled, refused: a result the model reads.
            Asked::Answered(Err(ended)) => return Ok(ended.into()),
            Asked::Answered(Ok(deploy)) => deploy,
        };
        let text = match deploy.branch {
            Some(branch) => format!("Deploying {} replicas of {branch}.", deploy.replicas),
            None => format!("Deploying {} replicas.", deploy.replicas),
        };
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into())
    }
}

#[tool_handler(router = routed(&self.tool_router))]
impl ServerHandler for Server {
    // README skips start: the prompt and the resource, below
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder().enable_tools().enable_tasks();
        ServerConfig::new(capabilities.enable_prompts().enable_resources().build())
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        _: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        Ok(GetTaskResult::new(self.tasks.get_task(&request.task_id)?))
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        _: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.tasks
            .update_task(&request.task_id, request.input_responses)
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        _: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.tasks.cancel_task(&request.task_id)
    }

    // `#[prompt_handler]` would drop a request's answers: these two instead.
    async fn list_prompts(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let prompts = routed(&self.prompt_router).list_all();
        Ok(ListPromptsResult::with_all_items(prompts))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        routed(&self.prompt_router)
            .get_prompt(self, request, context)
            .await
    }

    async fn list_resources(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let motd = Resource::new(MOTD, "motd");
        Ok(ListResourcesResult::with_all_items(vec![motd]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        match request.uri.as_str() {
            MOTD => self.motd(&request, &context).await,
            _ => Err(ErrorData::resource_not_found("no such resource", None)),
        }
    }
    // README skips end
}
// README snippet end

// A tool that runs as a task where the client declares the tasks extension
// (SEP-2663): the call returns at once, and the task asks the user from
// inside it, each question an input request of the task (`tasks/get`
// shows it, `tasks/update` answers it). Elsewhere it asks as `deploy` does.
#[tool_router(router = task_router)]
impl Server {
    #[tool(
        description = "Migrates the database, once the user confirms; a task where the client has tasks."
    )]
    async fn migrate(&self, ask: Ask) -> Result<CallToolResponse, ErrorData> {
        let questions = |r: Rounds| async move {
            r.form::<Migrate>("migrate", "Migrate the database now?")
                .retry(1)
                .await
        };
        if ask.client_has_tasks() {
            let rounds = Arc::clone(&self.rounds);
            let task = self.tasks.spawn(TaskOptions::new(), move |task| {
                Box::pin(async move {
                    // `?`: a cancelled task (`tasks/cancel`) ends as cancelled.
                    let answer = ask.in_task(task).run(&rounds, questions).await?;
                    Ok(CallToolResult::success(vec![ContentBlock::text(migrated(
                        answer,
                    ))]))
                })
            });
            return Ok(CallToolResponse::Task(CreateTaskResult::new(task)));
        }
        Ok(match ask.run(&self.rounds, questions).await? {
            Asked::Respond(response) => response,
            Asked::Answered(answer) => {
                CallToolResult::success(vec![ContentBlock::text(migrated(answer))]).into()
            }
        })
    }
}

// The prompt, a `#[prompt]` function that asks: its `Ask<GetPromptResponse>`
// anywhere among its extractors, `get_prompt` written as `routed` below.
#[prompt_router]
impl Server {
    /// `prompts/get welcome`: asks the user's name, then greets them.
    #[prompt(name = "welcome", description = "Greets the user; asks their name.")]
    async fn welcome(&self, ask: Ask<GetPromptResponse>) -> Result<PromptReply, ErrorData> {
        let asked = ask.run(&self.rounds, |r| async move {
            r.form::<Profile>("profile", "Your name?").retry(2).await
        });
        let name = match asked.await? {
            Asked::Respond(response) => return Ok(response.into()),
            Asked::Answered(Ok(Outcome::Accepted(profile))) => profile.name,
            Asked::Answered(Ok(_)) => "there".to_owned(),
            Asked::Answered(Err(error)) => {
                // A short, stable text for the client; the cause is in
                // the log (elicit's event, with its reason).
                return Err(ErrorData::internal_error(error.client_message(), None));
            }
        };
        let text = format!("Greet {name} and offer to deploy.");
        Ok(GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)]).into())
    }
}

// A tool whose arguments hold a field the model may not fill: the user
// alone confirms a release, whatever the model sends; and a rule only the
// server knows (`.check`), run on the model's arguments merged with the
// user's answer.
#[tool_router(router = release_router)]
impl Server {
    #[tool(
        description = "Releases a version, once the user confirms.",
        input_schema = input_schema::<Release>()
    )]
    async fn release(&self, ask: Ask) -> Result<CallToolResponse, ErrorData> {
        let asked = ask.run(&self.rounds, |r| async move {
            r.arguments::<Release>("release", "Release it?")
                .retry(1)
                .check(async |release: &Release| {
                    if release.version == "0.0.0" {
                        let withdrawn = FieldError::rule("version", "is withdrawn");
                        return Ok(Err(withdrawn.into()));
                    }
                    Ok::<_, std::convert::Infallible>(Ok(()))
                })
                .await
        });
        let release = match asked.await? {
            Asked::Respond(response) => return Ok(response),
            Asked::Answered(Err(ended)) => return Ok(ended.into()),
            Asked::Answered(Ok(release)) => release,
        };
        let text = match release.confirm {
            true => format!("Released {}.", release.version),
            false => format!("Not released: {} was not confirmed.", release.version),
        };
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into())
    }
}

/// A release: the `release` tool's arguments.
#[derive(Elicit, Debug)]
struct Release {
    /// The version, as `1.2.3`.
    #[elicit(pattern = "^[0-9]+\\.[0-9]+\\.[0-9]+$")]
    version: String,
    /// Release it now? Only the user says.
    #[elicit(user_only)]
    confirm: bool,
}

/// Whether to migrate now.
#[derive(Elicit, Debug)]
struct Migrate {
    /// Go ahead?
    now: bool,
}

/// What `migrate` says, once asked.
fn migrated(answer: Result<Outcome<Migrate>, ElicitError>) -> String {
    match answer {
        Ok(Outcome::Accepted(Migrate { now: true })) => "Migrated.".to_owned(),
        Ok(_) => "Not migrated.".to_owned(),
        // A short, stable text for the client; the cause is in the log.
        Err(error) => format!("Could not ask: {}", error.client_message()),
    }
}

// A prompt and a resource that ask too: the prompt a `#[prompt]` function
// (below), the resource a method `read_resource` calls (rmcp has no macro
// for resources).
use std::sync::Arc;

use rmcp::RoleServer;
use rmcp::ServiceExt;
use rmcp::model::{
    CancelTaskParams, CreateTaskResult, GetTaskParams, GetTaskResult, UpdateTaskParams,
};
use rmcp::task_manager::{TaskManager, TaskOptions};

use elicit_core::FieldError;
use elicit_core::mcp::{ElicitError, PromptReply, Rounds};
use elicit_core::protocol::agent::Outcome;
use rmcp::model::{
    GetPromptRequestParams, GetPromptResponse, GetPromptResult, ListPromptsResult,
    ListResourcesResult, PaginatedRequestParams, PromptMessage, ReadResourceRequestParams,
    ReadResourceResponse, ReadResourceResult, Resource, ResourceContents, Role, ServerCapabilities,
    ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{prompt, prompt_router};

/// Who the user is, for the prompt.
#[derive(Elicit, Debug)]
struct Profile {
    /// Your name.
    #[elicit(length(min = 1, max = 40))]
    name: String,
}

/// The message of the day, as the user wants it.
#[derive(Elicit, Debug)]
struct Motd {
    /// Shout it?
    loud: bool,
}

/// The resource that asks before it is read.
const MOTD: &str = "elicit://motd";

impl Server {
    fn new(rounds: RoundsConfig) -> Self {
        Self {
            tool_router: Self::tool_router() + Self::task_router() + Self::release_router(),
            rounds: Arc::new(rounds),
            tasks: TaskManager::new(),
            prompt_router: Self::prompt_router(),
        }
    }

    /// `resources/read elicit://motd`: asks how loud, then reads it.
    async fn motd(
        &self,
        request: &ReadResourceRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let asked = Ask::resource(context, request).run(&self.rounds, |r| async move {
            r.form::<Motd>("motd", "Shout the message of the day?")
                .await
        });
        let loud = match asked.await? {
            Asked::Respond(response) => return Ok(response),
            Asked::Answered(Ok(Outcome::Accepted(motd))) => motd.loud,
            Asked::Answered(_) => false,
        };
        let text = if loud { "SHIP IT!" } else { "Ship it." };
        Ok(ReadResourceResult::new(vec![ResourceContents::text(text, MOTD)]).into())
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // One process serves every round, so a random key will do (replicas
    // share a keyring: `RoundsConfig::new`).
    let server = Server::new(RoundsConfig::with_random_key()?);
    let args: Vec<String> = std::env::args().collect();
    if let [_, flag, address] = args.as_slice()
        && flag == "--http"
    {
        return serve_http(server, address).await;
    }
    server
        .serve(rmcp::transport::stdio())
        .await?
        .waiting()
        .await?;
    Ok(())
}

/// Streamable HTTP (one session per client) on hyper's HTTP/1.1 server.
async fn serve_http(server: Server, address: &str) -> Result<(), Box<dyn std::error::Error>> {
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let listener = tokio::net::TcpListener::bind(address).await?;
    println!("listening on http://{}/mcp", listener.local_addr()?);
    loop {
        let (stream, _) = listener.accept().await?;
        let service = service.clone();
        tokio::spawn(async move {
            let call = hyper::service::service_fn(move |request| {
                let mut service = service.clone();
                async move { tower_service::Service::call(&mut service, request).await }
            });
            let io = hyper_util::rt::TokioIo::new(stream);
            let connection = hyper::server::conn::http1::Builder::new().serve_connection(io, call);
            if let Err(error) = connection.await {
                eprintln!("a connection failed: {error}");
            }
        });
    }
}
