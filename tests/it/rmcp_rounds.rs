//! The README's "one handler for both MCP versions" snippet, compiled and
//! run at both versions against rmcp's client (a child of `rmcp.rs`, whose
//! scripted client and connections it uses).

use ::rmcp::model::{
    CallToolRequestParams as Params, CallToolResponse as Response, ErrorData as Error,
    ServerCapabilities, ServerConfig,
};
use ::rmcp::service::RequestContext as Context;
use ::rmcp::{ServerHandler, ServiceExt};
use elicit_core::mcp::Rounds;
use serde_json::json;

use super::{ScriptedClient, VERSIONS, connect_at, form_mode, runtime};
use crate::common::readme::{lines, readme_block, snippet};

// README snippet start
use elicit_core::Elicit;
use elicit_core::mcp::{Asked, RoundsConfig, run_tool};
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
    // Runs from the top each round; `answer()` is `None` while the form is
    // asked, and the round ends.
    let asked = run_tool(context, request, rounds, |r| {
        r.form::<Confirm>("confirm", "Deploy to production?")
            .retry(2)
            .answer()
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
        Err(error) => format!("Could not ask: {error}"),
    };
    Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into())
}
// README snippet end

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
fn the_readme_rounds_snippet_is_this_code() {
    assert_eq!(
        lines(snippet(include_str!("rmcp_rounds.rs"))),
        lines(readme_block(
            "#### One tool handler for MCP 2025-11-25 and 2026-07-28"
        ))
    );
}

/// A server whose every tool is the README snippet (`None`), or asks with a
/// function and says its answer.
struct Handler(RoundsConfig, Option<fn(&mut Rounds) -> Option<String>>);

impl ServerHandler for Handler {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn call_tool(
        &self,
        request: Params,
        context: Context<RoleServer>,
    ) -> Result<Response, Error> {
        let Some(ask) = self.1 else {
            return call_tool(&context, &request, &self.0).await;
        };
        Ok(match run_tool(&context, &request, &self.0, ask).await? {
            Asked::Answered(text) => CallToolResult::success(vec![ContentBlock::text(text)]).into(),
            Asked::Respond(response) => response,
        })
    }
}

/// Calls a tool of `Handler(.., ask)` with `client` at `version`; the
/// tool's text.
fn call(
    ask: Option<fn(&mut Rounds) -> Option<String>>,
    client: &ScriptedClient,
    version: super::Version,
) -> String {
    let client = client.clone();
    runtime().block_on(async move {
        let (server_io, client_io) = tokio::io::duplex(64 * 1024);
        let server = tokio::spawn(async move {
            let config = RoundsConfig::with_random_key().unwrap();
            let running = Handler(config, ask).serve(server_io).await.unwrap();
            running.waiting().await.unwrap();
        });
        let running = connect_at(&client, client_io, version).await;
        let result = running.call_tool(Params::new("tool")).await.unwrap();
        running.cancel().await.unwrap();
        server.await.unwrap();
        result.content[0].as_text().unwrap().text.clone()
    })
}

/// A form and a URL in one round, under their keys.
fn form_and_url(r: &mut Rounds) -> Option<String> {
    use elicit_core::mcp::UrlRequest;
    use elicit_core::protocol::agent::UrlOutcome;

    let confirm = r.form::<Confirm>("confirm", "Deploy?").answer();
    let page = r.url(
        "page",
        UrlRequest::new(
            "Connect your account.",
            "https://example.com/connect",
            "page-1",
        ),
    );
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
            text.starts_with("Ok(Accepted(Confirm { proceed: true })) Err(ModeNotAdvertised"),
            "{version:?}: {text}"
        );
        // Only the form went out.
        assert_eq!(client.seen().len(), 1, "{version:?}");
    }
}
