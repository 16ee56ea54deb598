//! An MCP server over Streamable HTTP on `127.0.0.1`, built on elicit's one
//! tool handler (`elicit_core::mcp::ask`), with the tools the MCP
//! conformance suite's elicitation scenarios call
//! (`@modelcontextprotocol/conformance`, server mode, which speaks HTTP
//! only). `tests/it/mcp_conformance.rs` starts it and runs the suite against
//! it; BENCHMARKS.md lists each scenario and its result.
//!
//! ```sh
//! cargo run --example mcp_conformance --features rmcp   # prints its URL
//! ```
//!
//! The same handler serves MCP 2025-11-25 (`elicitation/create` requests, the
//! suite's SEP-1034 and SEP-1330 scenarios) and 2026-07-28 (input-required
//! results, the suite's `input-required-result-*` scenarios).

use std::sync::Arc;

use elicit_core::Elicit;
use elicit_core::mcp::{Asked, Rounds, RoundsConfig, ask};
use elicit_core::protocol::agent::Outcome;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{RoleServer, ServerHandler};

/// `tools-call-elicitation`.
#[derive(Elicit, Debug, serde::Serialize)]
struct UserInfo {
    /// User's response
    username: String,
    /// User's email address
    email: String,
}

/// `elicitation-sep1034-defaults`: a default of each primitive kind.
#[derive(Elicit, Debug, serde::Serialize)]
struct Defaults {
    /// Your name
    #[elicit(default = "John Doe")]
    name: String,
    /// Your age
    #[elicit(default = 30)]
    age: i64,
    /// Your score
    #[elicit(default = 95.5)]
    score: f64,
    /// Your status
    #[elicit(default = Status::Active)]
    status: Status,
    /// Verified?
    #[elicit(default = true)]
    verified: bool,
}

#[derive(Elicit, Debug, Clone, Copy, serde::Serialize)]
#[elicit(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
enum Status {
    Active,
    Inactive,
    Pending,
}

/// Untitled options: `enum`.
#[derive(Elicit, Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[elicit(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
enum Plain {
    Option1,
    Option2,
    Option3,
}

/// Titled options: `oneOf` / `anyOf` of `{const, title}`.
#[derive(Elicit, Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[elicit(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
enum Titled {
    #[elicit(title = "First Option")]
    Value1,
    #[elicit(title = "Second Option")]
    Value2,
    #[elicit(title = "Third Option")]
    Value3,
}

/// `elicitation-sep1330-enums`: every kind of select. (`legacyEnum`, with
/// the deprecated `enumNames`, is not something elicit writes: it is a plain
/// `enum` here.)
#[derive(Elicit, Debug, serde::Serialize)]
#[elicit(rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
struct Enums {
    /// Untitled single select
    untitled_single: Plain,
    /// Titled single select
    titled_single: Titled,
    /// Legacy titled enum
    legacy_enum: Plain,
    /// Untitled multi select
    untitled_multi: Vec<Plain>,
    /// Titled multi select
    titled_multi: Vec<Titled>,
}

/// `input-required-result-basic-elicitation` and `multi-round`'s first step.
#[derive(Elicit, Debug)]
struct Name {
    /// Your name
    name: String,
}

/// `multi-round`'s second step.
#[derive(Elicit, Debug)]
struct Color {
    /// Your favourite colour
    color: String,
}

/// `input-required-result-request-state` and `tampered-state`.
#[derive(Elicit, Debug)]
struct Confirm {
    /// Proceed?
    ok: bool,
}

/// The server: every tool asks through `ask`.
struct Conformance {
    rounds: Arc<RoundsConfig>,
}

const TOOLS: [&str; 8] = [
    "test_elicitation",
    "test_elicitation_sep1034_defaults",
    "test_elicitation_sep1330_enums",
    "test_input_required_result_elicitation",
    "test_input_required_result_request_state",
    "test_input_required_result_tampered_state",
    "test_input_required_result_multi_round",
    "test_input_required_result_capabilities",
];

impl ServerHandler for Conformance {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let schema = |properties: serde_json::Value| {
            let serde_json::Value::Object(map) =
                serde_json::json!({"type": "object", "properties": properties})
            else {
                unreachable!("an object literal")
            };
            Arc::new(map)
        };
        Ok(ListToolsResult::with_all_items(
            TOOLS
                .iter()
                .map(|&name| {
                    let properties = if name == "test_elicitation" {
                        serde_json::json!({"message": {"type": "string"}})
                    } else {
                        serde_json::json!({})
                    };
                    Tool::new(
                        name,
                        "Asks the user through elicitation.",
                        schema(properties),
                    )
                })
                .collect(),
        ))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let tool = request.name.to_string();
        if !TOOLS.contains(&tool.as_str()) {
            return Err(ErrorData::invalid_params(
                format!("unknown tool `{tool}`"),
                None,
            ));
        }
        let message = request
            .arguments
            .as_ref()
            .and_then(|a| a.get("message"))
            .and_then(|m| m.as_str())
            .unwrap_or("Please provide your information")
            .to_owned();
        let (tool, message) = (&tool, &message);
        let asked = ask(&context, &request, &self.rounds, |r| async move {
            answer(tool, message, &r).await
        });
        let result = match asked.await? {
            Asked::Answered(Ok(text)) => CallToolResult::success(vec![ContentBlock::text(text)]),
            Asked::Answered(Err(text)) => CallToolResult::error(vec![ContentBlock::text(text)]),
            Asked::Respond(response) => return Ok(response),
        };
        Ok(result.into())
    }
}

/// The tool `tool`'s answer, or `None` while it asks.
async fn answer(tool: &str, message: &str, r: &Rounds) -> Option<Result<String, String>> {
    /// `action=…, content=…`, as the suite's reference servers say it.
    fn completed<T: serde::Serialize>(outcome: &Outcome<T>) -> String {
        match outcome {
            Outcome::Accepted(value) => format!(
                "Elicitation completed: action=accept, content={}",
                serde_json::to_string(value).unwrap_or_default()
            ),
            Outcome::Declined => "Elicitation completed: action=decline".to_owned(),
            _ => "Elicitation completed: action=cancel".to_owned(),
        }
    }
    let failed = |e: elicit_core::mcp::ElicitError| e.to_string();
    Some(match tool {
        "test_elicitation" => r
            .form::<UserInfo>("user_info", message)
            .await?
            .map(|o| completed(&o))
            .map_err(failed),
        "test_elicitation_sep1034_defaults" => r
            .form::<Defaults>(
                "defaults",
                "Please review and update the form fields with defaults",
            )
            .await?
            .map(|o| completed(&o))
            .map_err(failed),
        "test_elicitation_sep1330_enums" => r
            .form::<Enums>("enums", "Please select options from the enum fields")
            .await?
            .map(|o| completed(&o))
            .map_err(failed),
        "test_input_required_result_elicitation" => {
            match r.form::<Name>("user_name", "What is your name?").await? {
                Ok(Outcome::Accepted(Name { name })) => Ok(format!("Hello, {name}!")),
                Ok(_) => Ok("No name given.".to_owned()),
                Err(e) => Err(failed(e)),
            }
        }
        // `capability-check`: its client declares no elicitation, so the form
        // is never asked; the tool says so instead.
        "test_input_required_result_request_state"
        | "test_input_required_result_tampered_state"
        | "test_input_required_result_capabilities" => {
            match r.form::<Confirm>("confirm", "Please confirm").await? {
                Ok(Outcome::Accepted(Confirm { ok: true })) => Ok("state-ok: confirmed".to_owned()),
                Ok(_) => Ok("state-ok: not confirmed".to_owned()),
                Err(e) => Err(failed(e)),
            }
        }
        "test_input_required_result_multi_round" => {
            let name = match r.form::<Name>("step1", "What is your name?").await? {
                Ok(Outcome::Accepted(Name { name })) => name,
                Ok(_) => return Some(Ok("No name given.".to_owned())),
                Err(e) => return Some(Err(failed(e))),
            };
            match r
                .form::<Color>("step2", "What is your favourite colour?")
                .await?
            {
                Ok(Outcome::Accepted(Color { color })) => Ok(format!("{name} likes {color}.")),
                Ok(_) => Ok(format!("{name} kept their colour to themselves.")),
                Err(e) => Err(failed(e)),
            }
        }
        _ => Err(format!("unknown tool `{tool}`")),
    })
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rounds = Arc::new(RoundsConfig::with_random_key()?);
    let service = StreamableHttpService::new(
        move || {
            Ok(Conformance {
                rounds: Arc::clone(&rounds),
            })
        },
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    println!("listening on http://{}/mcp", listener.local_addr()?);
    loop {
        let (stream, _) = listener.accept().await?;
        let service = service.clone();
        tokio::spawn(async move {
            let io = hyper_util::rt::TokioIo::new(stream);
            let handler = hyper::service::service_fn(move |request| {
                let mut service = service.clone();
                async move { tower_service::Service::call(&mut service, request).await }
            });
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(io, handler)
                .await;
        });
    }
}
