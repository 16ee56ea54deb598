//! An MCP server on rmcp (stdio transport) with one tool, `deploy`, that asks
//! the user for a derived form through MCP elicitation and answers with the
//! typed result.
//!
//! ```sh
//! cargo run --example mcp_server --features rmcp
//! ```
//!
//! A user's `src/main.rs`, with these `[dependencies]` (its log is
//! `tracing-subscriber`'s, on stderr when `RUST_LOG` is set):
//!
//! ```toml
//! [dependencies]
//! elicit-core = { path = "../elicit/elicit-core", features = ["rmcp", "tracing"] }
//! rmcp = { version = "3.11", features = ["server", "transport-io"] }
//! tokio = { version = "1", features = ["macros", "rt"] }
//! serde_json = "1"
//! tracing-subscriber = { version = "0.3", features = ["env-filter"] }
//! ```
//!
//! Point an MCP client that supports elicitation at that command (it speaks
//! newline-delimited JSON-RPC on stdin/stdout) and call the `deploy` tool.
//! tests/it/rmcp.rs drives this same server with rmcp's client.
//!
//! It speaks both MCP versions with one tool handler
//! (`elicit_core::mcp::ask`): on 2025-11-25 the form is an
//! `elicitation/create` request; on 2026-07-28, which has no server-to-client
//! requests, it is an input-required result (SEP-2322) and the client calls
//! the tool again with the answer and the sealed `requestState`.
//!
//! What it shows: one call, `rounds.form::<Deploy>(key, message).retry(n)`
//! in the tool's `ask` closure, which
//! - refuses, sending nothing, when the client did not advertise form mode
//!   (MCP's rule: an empty `elicitation` capability is form mode);
//! - sends `Deploy::schema()` in MCP's shape (the ACP-only parts are dropped
//!   by documented rules: here the branch `pattern`, the form description
//!   and the option descriptions);
//! - validates the answer again with `Deploy::from_content` (including the
//!   `pattern` the client never saw) and asks again, with the errors, when it
//!   breaks the form's rules;
//! - refuses a branch another deploy holds, a rule only this server knows
//!   (`.check(..)`, against an in-memory set here): asked again the same
//!   way, with "`branch` is already taken" in the message;
//! - returns decline and cancel at once, each to its own path.

use std::collections::HashSet;
use std::sync::{Arc, OnceLock};

use elicit_core::mcp::{Asked, ElicitError, Rounds, RoundsConfig, ask};
use elicit_core::protocol::agent::{Outcome, SendError};
use elicit_core::{Elicit, FieldError};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData,
    Implementation, ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig,
    Tool,
};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler, ServiceExt};

/// Where to deploy.
#[derive(Elicit, Debug, Clone, Copy, PartialEq, Eq)]
#[elicit(rename_all = "lowercase")]
pub enum Environment {
    /// Safe to break.
    #[elicit(title = "Staging")]
    Staging,
    /// Real users: be careful.
    #[elicit(title = "Production")]
    Production,
}

/// Deploy the current branch. Production runs on two replicas at least:
/// a rule across two fields (`check`), which no client can check.
#[derive(Elicit, Debug, Clone, PartialEq)]
#[elicit(check = Deploy::production_is_replicated)]
pub struct Deploy {
    /// Which environment to deploy to.
    pub env: Environment,
    /// How many replicas to run.
    #[elicit(range(min = 1, max = 16), default = 2)]
    pub replicas: u8,
    /// The branch to deploy (lowercase letters, digits and dashes).
    #[elicit(pattern = "^[a-z0-9-]+$", length(max = 40), default = "main")]
    pub branch: String,
    /// Tell the team when it is done.
    pub notify: Option<bool>,
}

impl Deploy {
    /// Production runs on two replicas at least.
    fn production_is_replicated(&self) -> Result<(), elicit_core::ContentError> {
        if self.env == Environment::Production && self.replicas < 2 {
            let rule = FieldError::rule("replicas", "must be at least 2 in production");
            return Err(rule.into());
        }
        Ok(())
    }
}

/// The tool's name.
pub const DEPLOY_TOOL: &str = "deploy";

/// How many more times the tool asks after content that breaks the form's
/// rules (so at most `RETRIES + 1` forms).
pub const RETRIES: u32 = 2;

/// The server: one tool. Its only state is how it seals `requestState`.
#[derive(Debug, Clone)]
pub struct DeployServer {
    rounds: Arc<RoundsConfig>,
}

impl Default for DeployServer {
    /// Seals with a key of this process's own: one stdio process serves
    /// every round of its client. Several processes would share a keyring
    /// (`RoundsConfig::new`).
    fn default() -> Self {
        Self::with_rounds(RoundsConfig::with_random_key().expect("the OS random number generator"))
    }
}

impl DeployServer {
    /// A server that seals its rounds as `rounds` says.
    pub fn with_rounds(rounds: RoundsConfig) -> Self {
        Self {
            rounds: Arc::new(rounds),
        }
    }
}

impl ServerHandler for DeployServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(
                "elicit-mcp-server",
                env!("CARGO_PKG_VERSION"),
            ))
            .with_instructions("Call `deploy`; it asks you where and how to deploy.")
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let mut input_schema = serde_json::Map::new();
        input_schema.insert("type".into(), "object".into());
        input_schema.insert("properties".into(), serde_json::Map::new().into());
        Ok(ListToolsResult::with_all_items(vec![Tool::new(
            DEPLOY_TOOL,
            "Deploy the current branch; asks the user where and how.",
            Arc::new(input_schema),
        )]))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if request.name != DEPLOY_TOOL {
            return Err(ErrorData::invalid_params(
                format!("unknown tool `{}`", request.name),
                None,
            ));
        }
        // One handler for both protocol versions: `elicitation/create` on
        // 2025-11-25, input-required rounds (the state sealed with this
        // server's key) on 2026-07-28.
        let answer = match ask(&context, &request, &self.rounds, questions).await? {
            Asked::Answered(answer) => answer,
            // An input-required round (2026-07-28): the client calls again.
            Asked::Respond(response) => return Ok(response),
        };
        let result = match deploy(answer) {
            Ok(text) => CallToolResult::success(vec![ContentBlock::text(text)]),
            Err(text) => CallToolResult::error(vec![ContentBlock::text(text)]),
        };
        Ok(result.into())
    }
}

/// What the tool asks: the form, asked again (with the errors) while the
/// answer breaks its rules. `None` once it is asked in a round that ends
/// the call (MCP 2026-07-28).
pub async fn questions(rounds: Rounds) -> Option<Result<Outcome<Deploy>, ElicitError>> {
    let taken = taken_branches();
    // MCP drops the form's description: say it in the message instead.
    rounds
        .form::<Deploy>(DEPLOY_TOOL, "Deploy the current branch. Where to, and how?")
        .retry(RETRIES)
        // A rule no client can check: asked again, within the same retries.
        // A lookup that fails (`Err`) would end the call, never loop.
        .check(async |form: &Deploy| {
            if taken.contains(form.branch.as_str()) {
                let taken = FieldError::rule("branch", "is already taken by another deploy");
                return Ok(Err(taken.into()));
            }
            Ok::<_, std::convert::Infallible>(Ok(()))
        })
        .await
}

/// The branches another deploy holds: what only this server knows (an
/// in-memory set here; your deploy system in practice).
pub fn taken_branches() -> &'static HashSet<&'static str> {
    static TAKEN: OnceLock<HashSet<&'static str>> = OnceLock::new();
    TAKEN.get_or_init(|| HashSet::from(["release", "hotfix"]))
}

/// The tool's work on the typed answer. `Err` is a tool error (shown to the
/// model as such), never a protocol error.
pub fn deploy(answer: Result<Outcome<Deploy>, ElicitError>) -> Result<String, String> {
    match answer {
        Ok(Outcome::Accepted(form)) => Ok(summary(&form)),
        // The user said no: respect it, do not ask again.
        Ok(Outcome::Declined) => Ok("The user declined: nothing was deployed.".to_owned()),
        // The user dismissed the form: nothing happens; they can call again.
        Ok(Outcome::Cancelled) => Ok("Cancelled: nothing was deployed.".to_owned()),
        Ok(Outcome::UnknownAction(other)) => Err(format!(
            "unknown answer `{}`: nothing was deployed",
            other.action()
        )),
        // No request was sent: the client has no form mode.
        Err(ElicitError::NotSent(SendError::ModeNotAdvertised { .. })) => Err(
            "This client cannot show forms (no form elicitation): nothing was deployed. \
             Ask the user for the environment and replica count instead."
                .to_owned(),
        ),
        // Still invalid after the retries (the error names the fields), or
        // the request failed.
        Err(e) => Err(format!("nothing was deployed: {e}")),
    }
}

/// What the tool reports for an accepted form.
fn summary(form: &Deploy) -> String {
    format!(
        "Deploying `{}` to {} with {} replica{}{}.",
        form.branch,
        match form.env {
            Environment::Staging => "staging",
            Environment::Production => "production",
        },
        form.replicas,
        if form.replicas == 1 { "" } else { "s" },
        if form.notify == Some(true) {
            "; the team will be notified"
        } else {
            ""
        },
    )
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The log (feature `tracing`, `elicit_core::trace`): on stderr when
    // `RUST_LOG` is set, e.g. `RUST_LOG=info,rmcp=error,elicit_core=debug`.
    if let Ok(filter) = tracing_subscriber::EnvFilter::try_from_default_env() {
        tracing_subscriber::fmt()
            .with_env_filter(filter)
            .with_writer(std::io::stderr)
            .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
            .init();
    }
    // stdout carries JSON-RPC; say hello on stderr only.
    eprintln!(
        "elicit MCP server on stdio: tool `{DEPLOY_TOOL}`. Send `initialize`, then `tools/call`."
    );
    let service = DeployServer::default()
        .serve(rmcp::transport::stdio())
        .await?;
    service.waiting().await?;
    Ok(())
}
