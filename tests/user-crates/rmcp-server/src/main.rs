//! A user's MCP server: one tool, `book`, that asks for the `Flight` form with
//! `ask` (an `elicitation/create` request on MCP 2025-11-25, an
//! input-required result on 2026-07-28), with a rule only the server knows
//! (`.check`: a sold-out destination is asked again, once).
//! tests/user-crates/check.py reads what it writes on stdout.

use std::collections::HashSet;

use std::sync::Arc;

use elicit_core::FieldError;
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
    /// Destinations with no seat left: what only this server knows.
    sold_out: HashSet<&'static str>,
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
        let sold_out = &self.sold_out;
        let asked = ask(&context, &request, &self.rounds, |r| async move {
            r.form::<Flight>("flight", "Where to?")
                .retry(1)
                .check(async |flight: &Flight| {
                    if sold_out.contains(flight.to.as_str()) {
                        return Ok(Err(
                            FieldError::rule("to", "is sold out: pick another").into()
                        ));
                    }
                    Ok::<_, std::convert::Infallible>(Ok(()))
                })
                .await
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
    let sold_out = HashSet::from(["LHR"]);
    let service = Server { rounds, sold_out }
        .serve(rmcp::transport::stdio())
        .await?;
    service.waiting().await?;
    Ok(())
}
