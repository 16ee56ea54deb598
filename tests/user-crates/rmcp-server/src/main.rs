//! A user's MCP server: one tool, `book`, that asks for the `Flight` form with
//! `ask` (an `elicitation/create` request on MCP 2025-11-25, an
//! input-required result on 2026-07-28). tests/user-crates/check.py reads
//! what it writes on stdout.

use std::sync::Arc;

use elicit_core::mcp::{Asked, RoundsConfig, ask};
use elicit_core::protocol::agent::Outcome;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler, ServiceExt};

#[path = "../../flight.rs"]
mod flight;
use flight::{Flight, booked};

struct Server {
    rounds: RoundsConfig,
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let mut input_schema = serde_json::Map::new();
        input_schema.insert("type".into(), "object".into());
        Ok(ListToolsResult::with_all_items(vec![Tool::new(
            "book",
            "Books a flight; asks the user where to.",
            Arc::new(input_schema),
        )]))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let asked = ask(&context, &request, &self.rounds, |r| async move {
            r.form::<Flight>("flight", "Where to?").await
        });
        let text = match asked.await? {
            Asked::Respond(response) => return Ok(response),
            Asked::Answered(Ok(Outcome::Accepted(flight))) => booked(&flight),
            Asked::Answered(Ok(_)) => "Not booked.".to_owned(),
            Asked::Answered(Err(error)) => format!("Could not ask: {error}"),
        };
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into())
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rounds = RoundsConfig::with_random_key()?;
    let service = Server { rounds }.serve(rmcp::transport::stdio()).await?;
    service.waiting().await?;
    Ok(())
}
