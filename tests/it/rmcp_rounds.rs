//! The README's "one handler for both MCP versions" snippet, compiled and
//! run at both versions against rmcp's client (a child of `rmcp.rs`, whose
//! scripted client and connections it uses).

use ::rmcp::model::{
    CallToolRequestParams as Params, CallToolResponse as Response, ErrorData as Error,
    ServerCapabilities, ServerConfig,
};
use ::rmcp::service::RequestContext as Context;
use ::rmcp::{ServerHandler, ServiceExt};
use serde_json::json;

use super::{ScriptedClient, VERSIONS, connect_at, form_mode, runtime};
use crate::common::readme::{lines, readme_block, snippet};

// README snippet start
use elicit_core::Elicit;
use elicit_core::mcp::{Rounds, RoundsConfig, Step, run_tool};
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
    rounds: &RoundsConfig, // e.g. `RoundsConfig::with_random_key()` for a stdio server
) -> Result<CallToolResponse, ErrorData> {
    run_tool(context, request, rounds, async |r: &mut Rounds| {
        // `None`: the form is asked; this round ends, and the handler runs
        // again, from the top, with the answer.
        let Some(answer) = r
            .form::<Confirm>("confirm", "Deploy to production?")
            .retry(2)
            .answer()
        else {
            return Step::Ask;
        };
        let text = match answer {
            Ok(Outcome::Accepted(Confirm { proceed: true })) => "Deploying.",
            Ok(_) => "Not deploying.",
            Err(error) => {
                return Step::Done(CallToolResult::error(vec![ContentBlock::text(
                    error.to_string(),
                )]));
            }
        };
        Step::Done(CallToolResult::success(vec![ContentBlock::text(text)]))
    })
    .await
}
// README snippet end

/// A server whose every tool is the snippet.
struct Snippet(RoundsConfig);

impl ServerHandler for Snippet {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn call_tool(
        &self,
        request: Params,
        context: Context<RoleServer>,
    ) -> Result<Response, Error> {
        call_tool(&context, &request, &self.0).await
    }
}

#[test]
fn the_readme_rounds_snippet_runs_at_both_versions() {
    for version in VERSIONS {
        let (client, _) = ScriptedClient::with(
            form_mode(),
            vec![
                json!({"action": "accept", "content": {"proceed": "yes"}}),
                json!({"action": "accept", "content": {"proceed": true}}),
            ],
        );
        let text = runtime().block_on(async {
            let (server_io, client_io) = tokio::io::duplex(64 * 1024);
            let server = tokio::spawn(async move {
                let config = RoundsConfig::with_random_key().unwrap();
                let running = Snippet(config).serve(server_io).await.unwrap();
                running.waiting().await.unwrap();
            });
            let running = connect_at(&client, client_io, version).await;
            let result = running.call_tool(Params::new("deploy")).await.unwrap();
            running.cancel().await.unwrap();
            server.await.unwrap();
            result.content[0].as_text().unwrap().text.clone()
        });
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
fn the_readme_rounds_snippet_is_this_code() {
    assert_eq!(
        lines(snippet(include_str!("rmcp_rounds.rs"))),
        lines(readme_block(
            "#### One tool handler for MCP 2025-11-25 and 2026-07-28"
        ))
    );
}
