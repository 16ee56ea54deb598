//! A tool's own arguments as the form (`Rounds::arguments`), at both MCP
//! versions with rmcp's client: complete arguments ask nothing; a missing
//! one is a form of that field alone; refused ones a form of those, their
//! errors in the message and the model's valid values kept; a decline ends
//! the call with a result the model reads; the call's check refuses after
//! the merge; a refusal of a value the model gave asks that field too; and
//! a `user_only` field is always the user's, whatever the model sent, and
//! left out of the tool's input schema (a child of `rmcp.rs`).

use ::rmcp::model::{CallToolRequestParams, ElicitRequestParams, JsonObject};
use ::rmcp::{ServerHandler, ServiceExt};
use elicit_core::mcp::{Ask, Asked, RoundsConfig, input_schema, routed};
use elicit_core::{Elicit, FieldError};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock, ErrorData};
use rmcp::{tool, tool_handler, tool_router};
use serde_json::{Value, json};

use super::{ScriptedClient, VERSIONS, Version, connect_at, form_mode, runtime};

/// Where to.
#[derive(Elicit, Debug, Clone, Copy, PartialEq)]
#[elicit(rename_all = "lowercase")]
enum Env {
    Staging,
    Production,
}

/// A service's settings: the `configure` tool's arguments.
#[derive(Elicit, Debug)]
struct Target {
    /// Which environment.
    env: Env,
    /// Its port.
    #[elicit(range(min = 1, max = 65535))]
    port: u16,
    /// How many instances.
    #[elicit(range(min = 1, max = 16))]
    replicas: u8,
}

/// A transfer: the model proposes the amount, the user alone confirms.
#[derive(Elicit, Debug)]
struct Transfer {
    /// How much.
    #[elicit(range(min = 1))]
    amount: u32,
    /// Send it now?
    #[elicit(user_only)]
    confirm: bool,
}

#[derive(Clone)]
struct Server {
    tool_router: ToolRouter<Self>,
    rounds: std::sync::Arc<RoundsConfig>,
}

#[tool_router]
impl Server {
    #[tool(description = "Configures a service.", input_schema = input_schema::<Target>())]
    async fn configure(&self, ask: Ask) -> Result<CallToolResponse, ErrorData> {
        let asked = ask.run(&self.rounds, |r| async move {
            r.arguments::<Target>("target", "Configure the service.")
                .retry(2)
                // What only this server knows: port 22 is taken, production
                // is frozen today.
                .check(async |target: &Target| {
                    tokio::task::yield_now().await;
                    if target.port == 22 {
                        return Ok(Err(FieldError::rule("port", "is reserved").into()));
                    }
                    if target.env == Env::Production {
                        return Ok(Err(FieldError::rule("env", "is frozen today").into()));
                    }
                    Ok::<_, std::convert::Infallible>(Ok(()))
                })
                .await
        });
        Ok(match asked.await? {
            Asked::Respond(response) => response,
            Asked::Answered(Err(ended)) => ended.into(),
            Asked::Answered(Ok(t)) => {
                let text = format!("{:?} {} {}", t.env, t.port, t.replicas);
                CallToolResult::success(vec![ContentBlock::text(text)]).into()
            }
        })
    }

    #[tool(description = "Sends money.", input_schema = input_schema::<Transfer>())]
    async fn transfer(&self, ask: Ask) -> Result<CallToolResponse, ErrorData> {
        let asked = ask.run(&self.rounds, |r| async move {
            r.arguments::<Transfer>("transfer", "Send it?").await
        });
        Ok(match asked.await? {
            Asked::Respond(response) => response,
            Asked::Answered(Err(ended)) => ended.into(),
            Asked::Answered(Ok(t)) => {
                let text = format!("{} confirm={}", t.amount, t.confirm);
                CallToolResult::success(vec![ContentBlock::text(text)]).into()
            }
        })
    }
}

#[tool_handler(router = routed(&self.tool_router))]
impl ServerHandler for Server {}

/// What a call ended with: the tool's text and whether it is an error, and
/// each form asked: its properties (in order) and its message.
struct Called {
    text: String,
    is_error: bool,
    forms: Vec<(Vec<String>, String)>,
}

fn call(tool: &'static str, arguments: Value, answers: Vec<Value>, version: Version) -> Called {
    let (client, _) = ScriptedClient::with(form_mode(), answers);
    let arguments: JsonObject = arguments.as_object().cloned().unwrap();
    let codec = ::rmcp::model::RequestStateCodec::try_new(vec![7; 32]).unwrap();
    let server = Server {
        tool_router: Server::tool_router(),
        rounds: std::sync::Arc::new(RoundsConfig::new(codec)),
    };
    let result = runtime().block_on(async {
        let (server_io, client_io) = tokio::io::duplex(64 * 1024);
        let served = tokio::spawn(async move {
            let running = server.serve(server_io).await.unwrap();
            running.waiting().await.unwrap();
        });
        let running = connect_at(&client, client_io, version).await;
        let result = running
            .call_tool(CallToolRequestParams::new(tool).with_arguments(arguments))
            .await
            .unwrap();
        running.cancel().await.unwrap();
        served.await.unwrap();
        result
    });
    let forms = client
        .seen()
        .into_iter()
        .map(|request| match request {
            ElicitRequestParams::FormElicitationParams {
                message,
                requested_schema,
                ..
            } => {
                let schema = serde_json::to_value(&requested_schema).unwrap();
                let names = schema["properties"]
                    .as_object()
                    .unwrap()
                    .keys()
                    .cloned()
                    .collect();
                (names, message)
            }
            other => panic!("a form: {other:?}"),
        })
        .collect();
    Called {
        text: result.content[0].as_text().unwrap().text.clone(),
        is_error: result.is_error == Some(true),
        forms,
    }
}

fn accept(content: Value) -> Value {
    json!({"action": "accept", "content": content})
}

#[test]
fn complete_arguments_ask_nothing_at_both_versions() {
    for version in VERSIONS {
        let called = call(
            "configure",
            json!({"env": "staging", "port": 8080, "replicas": 2}),
            vec![],
            version,
        );
        assert_eq!(called.text, "Staging 8080 2", "{version:?}");
        assert!(called.forms.is_empty(), "{version:?}");
    }
}

#[test]
fn a_missing_argument_is_a_form_of_that_field_alone_at_both_versions() {
    for version in VERSIONS {
        let called = call(
            "configure",
            json!({"env": "staging", "port": 8080}),
            vec![accept(json!({"replicas": 3}))],
            version,
        );
        assert_eq!(called.text, "Staging 8080 3", "{version:?}");
        assert_eq!(called.forms.len(), 1, "{version:?}");
        assert_eq!(called.forms[0].0, ["replicas"], "{version:?}");
        // A field left out is simply asked: no error in the message.
        assert_eq!(called.forms[0].1, "Configure the service.", "{version:?}");
    }
}

#[test]
fn refused_arguments_are_a_form_of_those_with_their_errors_and_the_rest_kept() {
    for version in VERSIONS {
        let called = call(
            "configure",
            json!({"env": "staging", "port": 70000, "replicas": 40}),
            // The user's answer also names `env`, which was not asked: the
            // model's valid value stands.
            vec![accept(
                json!({"port": 8081, "replicas": 3, "env": "production"}),
            )],
            version,
        );
        assert_eq!(called.text, "Staging 8081 3", "{version:?}");
        assert_eq!(called.forms.len(), 1, "{version:?}");
        let (fields, message) = &called.forms[0];
        assert_eq!(fields, &["port", "replicas"], "{version:?}");
        assert!(
            message.starts_with("Configure the service.\n\n"),
            "{message}"
        );
        assert!(
            message.contains("`port` must be at most 65535, got 70000"),
            "{message}"
        );
        assert!(
            message.contains("`replicas` must be at most 16, got 40"),
            "{message}"
        );
    }
}

#[test]
fn a_decline_ends_the_call_with_a_result_the_model_reads_at_both_versions() {
    for version in VERSIONS {
        let called = call(
            "configure",
            json!({"env": "staging"}),
            vec![json!({"action": "decline"})],
            version,
        );
        assert!(called.is_error, "{version:?}");
        assert_eq!(
            called.text, "the user declined to give `port` and `replicas`: nothing was done",
            "{version:?}"
        );
    }
}

#[test]
fn the_calls_check_refuses_the_model_arguments_and_the_field_is_asked() {
    for version in VERSIONS {
        let called = call(
            "configure",
            json!({"env": "staging", "port": 22, "replicas": 2}),
            vec![accept(json!({"port": 2222}))],
            version,
        );
        assert_eq!(called.text, "Staging 2222 2", "{version:?}");
        assert_eq!(called.forms.len(), 1, "{version:?}");
        assert_eq!(called.forms[0].0, ["port"], "{version:?}");
        assert!(
            called.forms[0].1.contains("`port` is reserved"),
            "{:?}",
            called.forms
        );
    }
}

/// The merged answer is refused for a value the model gave (the check
/// blames `env`): the next form asks `env` too, across rounds on
/// 2026-07-28.
#[test]
fn a_refusal_of_a_value_the_model_gave_asks_that_field_too_at_both_versions() {
    for version in VERSIONS {
        let called = call(
            "configure",
            json!({"env": "production", "replicas": 2}),
            vec![
                accept(json!({"port": 8080})),
                accept(json!({"env": "staging", "port": 8080})),
            ],
            version,
        );
        assert_eq!(called.text, "Staging 8080 2", "{version:?}");
        let asked: Vec<&Vec<String>> = called.forms.iter().map(|(f, _)| f).collect();
        assert_eq!(
            asked,
            [
                &vec!["port".to_owned()],
                &vec!["env".to_owned(), "port".to_owned()]
            ],
            "{version:?}"
        );
        assert!(
            called.forms[1].1.contains("`env` is frozen today"),
            "{:?}",
            called.forms
        );
    }
}

#[test]
fn a_user_only_field_is_always_the_users_at_both_versions() {
    for version in VERSIONS {
        // The model tries to confirm: ignored, the user is asked, says no.
        let called = call(
            "transfer",
            json!({"amount": 50, "confirm": true}),
            vec![accept(json!({"confirm": false}))],
            version,
        );
        assert_eq!(called.text, "50 confirm=false", "{version:?}");
        assert_eq!(called.forms.len(), 1, "{version:?}");
        assert_eq!(called.forms[0].0, ["confirm"], "{version:?}");
    }
}

/// The model sees the tool's arguments with their rules, and not the
/// fields only the user may fill.
#[test]
fn the_input_schema_lists_the_arguments_with_their_rules_but_not_the_users() {
    let target = Value::Object((*input_schema::<Target>()).clone());
    assert_eq!(target["type"], "object");
    let names: Vec<&String> = target["properties"].as_object().unwrap().keys().collect();
    assert_eq!(names, ["env", "port", "replicas"]);
    assert_eq!(target["properties"]["port"]["maximum"], 65535);
    assert_eq!(
        target["properties"]["env"]["enum"],
        json!(["staging", "production"])
    );
    assert_eq!(target["required"], json!(["env", "port", "replicas"]));
    let transfer = Value::Object((*input_schema::<Transfer>()).clone());
    assert!(
        transfer["properties"].get("confirm").is_none(),
        "{transfer}"
    );
    assert_eq!(transfer["required"], json!(["amount"]));
    assert_eq!(Transfer::user_only_fields(), ["confirm"]);
}
