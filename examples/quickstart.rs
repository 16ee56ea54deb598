//! The main job: derive two forms, print the `elicitation/create` requests an
//! agent sends, and turn four client answers (accept, decline, cancel, and an
//! accept with invalid content) into typed results or field errors.
//!
//! Run it with `cargo run --example quickstart`.

use elicit_core::{Content, Elicit};
use serde_json::{Value, json};

/// The spec's example: how should the agent approach a refactoring?
#[derive(Elicit, Debug)]
struct Refactor {
    strategy: Strategy,
}

#[derive(Elicit, Debug, Clone, Copy, PartialEq)]
#[elicit(rename_all = "lowercase")]
enum Strategy {
    Conservative,
    Balanced,
    Aggressive,
}

#[derive(Elicit, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[elicit(rename_all = "lowercase")]
enum Environment {
    #[elicit(title = "Staging", description = "Safe to break")]
    Staging,
    #[elicit(title = "Production", description = "Real users")]
    Production,
}

#[derive(Elicit, Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[elicit(rename_all = "lowercase")]
enum Channel {
    Email,
    Slack,
    Pager,
}

/// Settings for this deployment.
#[derive(Elicit, Debug)]
#[elicit(title = "Deploy", rename_all = "camelCase")]
struct DeployConfig {
    /// Which environment to deploy to.
    env: Environment,
    /// How many instances to run.
    #[elicit(range(min = 1, max = 16), default = 2)]
    replicas: u8,
    /// The git branch or tag to deploy.
    #[elicit(
        length(min = 1, max = 64),
        pattern = "^[A-Za-z0-9._/-]+$",
        default = "main"
    )]
    git_ref: String,
    /// Who to tell when it is done.
    #[elicit(length(max = 2))]
    notify: Vec<Channel>,
    /// Contact for this deployment.
    #[elicit(email)]
    owner_email: Option<String>,
    /// Start the rollout at (RFC 3339); now if empty.
    #[elicit(date_time)]
    start_at: Option<String>,
    /// Fraction of traffic for the canary.
    #[elicit(range(min = 0.0, max = 1.0))]
    canary: Option<f64>,
    /// Roll back automatically on errors.
    #[elicit(default = true)]
    auto_rollback: bool,
}

/// What the agent does with one client answer (a JSON-RPC result).
fn handle<T: Elicit + std::fmt::Debug>(label: &str, result: Value) {
    print!("{label:<34} -> ");
    match result.get("action").and_then(Value::as_str) {
        Some("accept") => {
            // Omitted and `null` content are the same: an empty form.
            let content: Content = match result.get("content") {
                Some(Value::Object(map)) => map.clone(),
                _ => Content::new(),
            };
            match T::from_content(&content) {
                Ok(value) => println!("accepted: {value:?}"),
                Err(err) => {
                    println!("refused, {} field error(s):", err.errors().len());
                    for e in err.errors() {
                        println!("{:38}- {e}", "");
                    }
                }
            }
        }
        Some("decline") => println!("declined: fall back to the default plan"),
        Some("cancel") => println!("cancelled: stop the operation, ask again later"),
        other => println!("unknown action {other:?}: treated as a failure, never as accept"),
    }
}

fn request(id: u64, message: &str, schema: elicit_core::ElicitationSchema) -> Value {
    json!({
        "jsonrpc": "2.0",
        "id": id,
        "method": "elicitation/create",
        "params": {
            "sessionId": "sess_abc123",
            "mode": "form",
            "message": message,
            "requestedSchema": schema,
        }
    })
}

fn main() {
    println!("== The spec's form request, derived from `struct Refactor`:");
    let req = request(
        43,
        "How should I approach this refactoring?",
        Refactor::schema(),
    );
    println!("{}\n", serde_json::to_string_pretty(&req).expect("JSON"));

    println!("== A larger form, `struct DeployConfig` (properties in declaration order):");
    let req = request(
        44,
        "Confirm the deployment settings.",
        DeployConfig::schema(),
    );
    println!("{}\n", serde_json::to_string_pretty(&req).expect("JSON"));

    println!("== The client's answers, parsed and validated again on the agent side:");
    handle::<Refactor>(
        "Refactor: accept",
        json!({"action": "accept", "content": {"strategy": "balanced"}}),
    );
    handle::<DeployConfig>(
        "DeployConfig: accept (defaults)",
        json!({"action": "accept", "content": {"env": "staging", "notify": ["slack"]}}),
    );
    handle::<DeployConfig>(
        "DeployConfig: accept (all fields)",
        json!({"action": "accept", "content": {
            "env": "production", "replicas": 4, "gitRef": "v1.2.0",
            "notify": ["email", "pager"], "ownerEmail": "ops@example.com",
            "startAt": "2026-12-02T18:00:00Z", "canary": 0.1, "autoRollback": false
        }}),
    );
    handle::<DeployConfig>("DeployConfig: decline", json!({"action": "decline"}));
    handle::<DeployConfig>("DeployConfig: cancel", json!({"action": "cancel"}));
    handle::<DeployConfig>(
        "DeployConfig: accept, invalid",
        json!({"action": "accept", "content": {
            "env": "prod", "replicas": 300, "gitRef": "",
            "notify": ["slack", "slack"], "ownerEmail": "not an email",
            "startAt": "tomorrow", "canary": 1.5
        }}),
    );
}
