//! rmcp's own client, declaring the tasks extension, against the rmcp
//! server example given as the first argument: `migrate` becomes a task;
//! an invalid answer is asked again under a key of its own, the valid one
//! completes it; a second task is cancelled while it waits on the user.
//! Prints each step; exits non-zero on the first difference.

use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, ClientCapabilities,
    ElicitRequestParams, ElicitationCapability, FormElicitationCapability, GetTaskParams,
    Implementation, InitializeRequestParams, InputRequest, ProtocolVersion, TaskPayload,
    UpdateTaskParams,
};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RoleClient, RunningService};
use rmcp::transport::TokioChildProcess;
use rmcp::{ClientHandler, ServiceExt};
use serde_json::json;

#[derive(Clone)]
struct Host;

impl ClientHandler for Host {
    fn get_info(&self) -> InitializeRequestParams {
        let mut capabilities = ClientCapabilities::builder().enable_tasks().build();
        capabilities.elicitation =
            Some(ElicitationCapability::new().with_form(FormElicitationCapability::new()));
        InitializeRequestParams::new(capabilities, Implementation::new("user-tasks-client", "0"))
            .with_protocol_version(ProtocolVersion::V_2025_11_25)
    }
}

type Client = RunningService<RoleClient, Host>;

fn fail(why: String) -> ! {
    eprintln!("FAIL: {why}");
    std::process::exit(1);
}

/// The task's state once it is no longer working.
async fn settled(client: &Client, id: &str) -> TaskPayload {
    for _ in 0..1000 {
        let got = client.peer().get_task(GetTaskParams::new(id)).await;
        let got = got.unwrap_or_else(|e| fail(format!("tasks/get: {e}")));
        if !matches!(got.task.payload, TaskPayload::Working) {
            return got.task.payload;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    fail(format!("task {id} never settled"))
}

/// The one input request the task waits on: its key and message.
fn asked(payload: &TaskPayload) -> (String, String) {
    let TaskPayload::InputRequired { input_requests } = payload else {
        fail(format!("not waiting on the user: {payload:?}"))
    };
    let Some((key, InputRequest::Elicitation(request))) = input_requests.iter().next() else {
        fail(format!("no elicitation: {input_requests:?}"))
    };
    let ElicitRequestParams::FormElicitationParams { message, .. } = &request.params else {
        fail(format!("not a form: {:?}", request.params))
    };
    (key.clone(), message.clone())
}

async fn migrate(client: &Client) -> String {
    let created = client
        .call_tool_once(CallToolRequestParams::new("migrate"))
        .await
        .unwrap_or_else(|e| fail(format!("tools/call: {e}")));
    let CallToolResponse::Task(created) = created else {
        fail(format!("not a task: {created:?}"))
    };
    created.task.task_id
}

async fn answer(client: &Client, id: &str, key: &str, content: serde_json::Value) {
    let responses = [(key.to_owned(), json!({"action": "accept", "content": content}))];
    let update = UpdateTaskParams::new(id, responses.into_iter().collect());
    if let Err(e) = client.peer().update_task(update).await {
        fail(format!("tasks/update: {e}"));
    }
}

async fn run(server: &str, modern: bool) {
    let child = TokioChildProcess::new(tokio::process::Command::new(server))
        .unwrap_or_else(|e| fail(format!("the server: {e}")));
    let client = if modern {
        let mode = ClientLifecycleMode::Discover {
            preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        };
        Host.serve_with_lifecycle(child, mode).await
    } else {
        Host.serve(child).await
    };
    let client = client.unwrap_or_else(|e| fail(format!("connect: {e}")));
    let version = if modern { "2026-07-28" } else { "2025-11-25" };
    println!("-- MCP {version} (rmcp's client, tasks extension)");

    let id = migrate(&client).await;
    println!("   tools/call migrate -> task {id}");
    let (key, message) = asked(&settled(&client, &id).await);
    println!("   tasks/get -> input_required {key:?}: {message:?}");
    if key != "migrate" || message != "Migrate the database now?" {
        fail(format!("asked {key:?}: {message:?}"));
    }
    answer(&client, &id, &key, json!({"now": "yes"})).await;
    println!("   tasks/update {key:?}: {{\"now\": \"yes\"}}");
    let (again, message) = asked(&settled(&client, &id).await);
    println!("   tasks/get -> input_required {again:?}: {message:?}");
    if again != "migrate#2" || !message.contains("The previous answer was not accepted") {
        fail(format!("asked again {again:?}: {message:?}"));
    }
    answer(&client, &id, &again, json!({"now": true})).await;
    println!("   tasks/update {again:?}: {{\"now\": true}}");
    let TaskPayload::Completed { result } = settled(&client, &id).await else {
        fail("not completed".to_owned())
    };
    let text = result["content"][0]["text"].clone();
    println!("   tasks/get -> completed: {text}");
    if text != "Migrated." {
        fail(format!("completed with {text}"));
    }

    let id = migrate(&client).await;
    let (key, _) = asked(&settled(&client, &id).await);
    if let Err(e) = client.peer().cancel_task(CancelTaskParams::new(&id)).await {
        fail(format!("tasks/cancel: {e}"));
    }
    let ended = settled(&client, &id).await;
    println!("   tools/call migrate -> task; asked {key:?}; tasks/cancel -> {ended:?}");
    if !matches!(ended, TaskPayload::Cancelled) {
        fail(format!("not cancelled: {ended:?}"));
    }
    let _ = client.cancel().await;
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let server = std::env::args()
        .nth(1)
        .unwrap_or_else(|| fail("usage: user-tasks-client <rmcp_server>".to_owned()));
    run(&server, false).await;
    run(&server, true).await;
    println!("ok: rmcp's client ran the rmcp server's task at both versions");
}
