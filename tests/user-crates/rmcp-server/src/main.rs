//! A user's MCP server, written as rmcp's README writes servers
//! (`#[tool_router]`, `#[tool]`, `#[tool_handler]`): one tool, `book`, that
//! asks for the `Flight` form with an `Ask` extractor after `Parameters`
//! (an `elicitation/create` request on MCP 2025-11-25, an
//! input-required result on 2026-07-28), with a rule only the server knows
//! (`.check`: a sold-out destination is asked again, once).
//! tests/user-crates/check.py reads what it writes on stdout.

use std::collections::HashSet;

use std::sync::Arc;

use elicit_core::FieldError;
use elicit_core::mcp::{Ask, Asked, RoundsConfig, routed};
use elicit_core::protocol::agent::Outcome;
use rmcp::handler::server::{router::tool::ToolRouter, wrapper::Parameters};
use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock, ErrorData};
use rmcp::{ServerHandler, ServiceExt, schemars::JsonSchema, tool, tool_handler, tool_router};

#[path = "../../flight.rs"]
mod flight;
use flight::{Flight, booked};

#[derive(Clone)]
struct Server {
    tool_router: ToolRouter<Self>,
    rounds: Arc<RoundsConfig>,
    /// Destinations with no seat left: what only this server knows.
    sold_out: Arc<HashSet<&'static str>>,
}

/// What the model passes to `book`.
#[derive(serde::Deserialize, JsonSchema)]
struct BookArgs {
    /// Who travels, if not the user.
    traveller: Option<String>,
}

#[tool_router]
impl Server {
    #[tool(description = "Books a flight; asks the user where to.")]
    async fn book(
        &self,
        Parameters(args): Parameters<BookArgs>,
        ask: Ask,
    ) -> Result<CallToolResponse, ErrorData> {
        let sold_out = &self.sold_out;
        let asked = ask.run(&self.rounds, |r| async move {
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
            Asked::Answered(Ok(Outcome::Accepted(flight))) => match args.traveller {
                Some(traveller) => format!("{} For {traveller}.", booked(&flight)),
                None => booked(&flight),
            },
            Asked::Answered(Ok(_)) => "Not booked.".to_owned(),
            Asked::Answered(Err(error)) => format!("Could not ask: {error}"),
        };
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into())
    }
}

#[tool_handler(router = routed(&self.tool_router))]
impl ServerHandler for Server {}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let server = Server {
        tool_router: Server::tool_router(),
        rounds: Arc::new(RoundsConfig::with_random_key()?),
        sold_out: Arc::new(HashSet::from(["LHR"])),
    };
    let service = server.serve(rmcp::transport::stdio()).await?;
    service.waiting().await?;
    Ok(())
}
