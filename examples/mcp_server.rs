//! An MCP server on rmcp (stdio transport) with one tool, `deploy`, that asks
//! the user for a derived form through MCP elicitation and answers with the
//! typed result.
//!
//! ```sh
//! cargo run --example mcp_server --features rmcp
//! ```
//!
//! Point an MCP client that supports elicitation at that command (it speaks
//! newline-delimited JSON-RPC on stdin/stdout) and call the `deploy` tool.
//! tests/rmcp.rs drives this same server with rmcp's client.
//!
//! What it shows:
//! - `elicit_core::rmcp::form_request::<Deploy>` turns `Deploy::schema()` into
//!   rmcp's `ElicitRequestParams` (MCP 2025-11-25 shape; the ACP-only parts
//!   are dropped by documented rules: here the branch `pattern`, the form
//!   description and the option descriptions);
//! - `elicit_core::rmcp::outcome::<Deploy>` reads rmcp's `ElicitResult` into
//!   `Outcome<Deploy>`, validating the content again (including the
//!   `pattern` the client never saw), so the tool asks again on bad input;
//! - accept, decline and cancel each take their own path, and a client
//!   without form elicitation gets a clear answer instead of a form.

use std::borrow::Cow;
use std::sync::Arc;

use elicit_core::rmcp::McpOutcomeError;
use elicit_core::{Elicit, Outcome};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData,
    Implementation, ListToolsResult, PaginatedRequestParams, ProtocolVersion, ServerCapabilities,
    ServerConfig, Tool,
};
use rmcp::service::{ElicitationMode, RequestContext};
use rmcp::{Peer, RoleServer, ServerHandler, ServiceExt};

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

/// Deploy the current branch.
#[derive(Elicit, Debug, Clone, PartialEq)]
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

/// The tool's name.
pub const DEPLOY_TOOL: &str = "deploy";

/// How many times the tool asks again after content that breaks the form's
/// rules.
pub const ATTEMPTS: usize = 3;

/// The server: one tool, no state.
#[derive(Debug, Clone, Default)]
pub struct DeployServer;

impl ServerHandler for DeployServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(
                "elicit-mcp-server",
                env!("CARGO_PKG_VERSION"),
            ))
            .with_instructions("Call `deploy`; it asks you where and how to deploy.")
    }

    // Server-to-client requests (`elicitation/create`) exist up to MCP
    // 2025-11-25; 2026-07-28 replaced them with input-required results.
    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(ProtocolVersion::known_up_to(&ProtocolVersion::V_2025_11_25))
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
        let result = match deploy(&context.peer).await {
            Ok(text) => CallToolResult::success(vec![ContentBlock::text(text)]),
            Err(text) => CallToolResult::error(vec![ContentBlock::text(text)]),
        };
        Ok(CallToolResponse::Complete(result))
    }
}

/// The tool: elicit the form, then act on the typed outcome. `Err` is a tool
/// error (shown to the model as such), never a protocol error.
pub async fn deploy(peer: &Peer<RoleServer>) -> Result<String, String> {
    // MCP's rule, applied by rmcp: an empty `elicitation` capability is form mode.
    if !peer
        .supported_elicitation_modes()
        .contains(&ElicitationMode::Form)
    {
        return Err(
            "This client cannot show forms (no form elicitation): nothing was deployed. \
             Ask the user for the environment and replica count instead."
                .to_owned(),
        );
    }
    // MCP drops the form's description: say it in the message instead.
    let mut message = "Deploy the current branch. Where to, and how?".to_owned();
    for _ in 0..ATTEMPTS {
        let params = elicit_core::rmcp::form_request::<Deploy>(message.clone())
            .map_err(|e| format!("the form cannot be sent over MCP: {e}"))?;
        let result = peer
            .create_elicitation(params)
            .await
            .map_err(|e| format!("the elicitation failed: {e}; nothing was deployed"))?;
        match elicit_core::rmcp::outcome::<Deploy>(&result) {
            Ok(Outcome::Accepted(form)) => {
                return Ok(format!(
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
                ));
            }
            // The user said no: respect it, do not ask again.
            Ok(Outcome::Declined) => {
                return Ok("The user declined: nothing was deployed.".to_owned());
            }
            // The user dismissed the form: nothing happens; they can call again.
            Ok(Outcome::Cancelled) => {
                return Ok("Cancelled: nothing was deployed.".to_owned());
            }
            Ok(Outcome::UnknownAction(other)) => {
                return Err(format!(
                    "unknown answer `{}`: nothing was deployed",
                    other.action()
                ));
            }
            // Checked again here, including the `pattern` the MCP client
            // never saw: ask again, saying what was wrong.
            Err(McpOutcomeError::Invalid(errors)) => {
                message = format!("Please fix: {errors}. Deploy the current branch: where to?");
            }
            Err(e) => return Err(format!("{e}; nothing was deployed")),
        }
    }
    Err(format!(
        "no valid answer after {ATTEMPTS} attempts: nothing was deployed"
    ))
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // stdout carries JSON-RPC; say hello on stderr only.
    eprintln!(
        "elicit MCP server on stdio: tool `{DEPLOY_TOOL}`. Send `initialize`, then `tools/call`."
    );
    let service = DeployServer.serve(rmcp::transport::stdio()).await?;
    service.waiting().await?;
    Ok(())
}
