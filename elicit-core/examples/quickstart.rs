//! The main job: derive two forms, print the `elicitation/create` requests an
//! agent sends, and turn four client answers (accept, decline, cancel, and an
//! accept with invalid content) into typed results or field errors.
//!
//! Run it with `cargo run -p elicit-core --example quickstart` from the
//! workspace root (or `cargo run --example quickstart` in `elicit-core/`).

use elicit_core::Elicit;
use elicit_core::protocol::agent::{AgentConnection, Outcome, PendingForm, UrlRequest};
use elicit_core::protocol::{
    CreateElicitationRequest, CreateElicitationResponse, ELICITATION_CREATE, ElicitationScope,
};
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

/// What the agent does with one client answer (the JSON-RPC result).
fn handle<T: Elicit + std::fmt::Debug>(label: &str, pending: PendingForm<T>, result: Value) {
    print!("{label:<34} -> ");
    let response: CreateElicitationResponse = match serde_json::from_value(result) {
        Ok(response) => response,
        Err(err) => return println!("malformed response ({err}): fail the operation"),
    };
    match pending.outcome(&response) {
        Ok(Outcome::Accepted(value)) => println!("accepted: {value:?}"),
        Ok(Outcome::Declined) => println!("declined: fall back to the default plan"),
        Ok(Outcome::Cancelled) => println!("cancelled: stop the operation, ask again later"),
        Ok(Outcome::UnknownAction(action)) => {
            println!("unknown action {action:?}: treated as a failure, never as accept")
        }
        Err(err) => {
            println!("refused, {} field error(s):", err.errors().len());
            for e in err.errors() {
                println!("{:38}- {e}", "");
            }
        }
    }
}

/// The JSON-RPC envelope around a request's params, serialized straight
/// from the request: a `serde_json::Value` would sort the schema's properties
/// by name unless serde_json's `preserve_order` feature is on.
#[derive(serde::Serialize)]
struct Envelope<'a> {
    jsonrpc: &'static str,
    id: u64,
    method: &'static str,
    params: &'a CreateElicitationRequest,
}

fn envelope(id: u64, request: &CreateElicitationRequest) -> Envelope<'_> {
    Envelope {
        jsonrpc: "2.0",
        id,
        method: ELICITATION_CREATE,
        params: request,
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // One connection object per client, from the capabilities it sent in
    // `initialize`. Form mode must be advertised, or `form` refuses.
    let client_capabilities = json!({"elicitation": {"form": {}}});
    let mut connection = AgentConnection::from_client_capabilities(&client_capabilities);
    let scope = ElicitationScope::session("sess_abc123");

    println!("== The spec's form request, derived from `struct Refactor`:");
    let (request, _) =
        connection.form::<Refactor>(scope.clone(), "How should I approach this refactoring?")?;
    println!(
        "{}\n",
        serde_json::to_string_pretty(&envelope(43, &request))?
    );

    println!("== A larger form, `struct DeployConfig` (properties in declaration order):");
    let (request, _) =
        connection.form::<DeployConfig>(scope.clone(), "Confirm the deployment settings.")?;
    println!(
        "{}\n",
        serde_json::to_string_pretty(&envelope(44, &request))?
    );

    println!("== The client's answers, parsed and validated again on the agent side:");
    let ask = || connection.form::<DeployConfig>(scope.clone(), "Confirm the deployment settings.");
    let (_, pending) = connection.form::<Refactor>(scope.clone(), "How should I refactor?")?;
    handle(
        "Refactor: accept",
        pending,
        json!({"action": "accept", "content": {"strategy": "balanced"}}),
    );
    handle(
        "DeployConfig: accept (defaults)",
        ask()?.1,
        json!({"action": "accept", "content": {"env": "staging", "notify": ["slack"]}}),
    );
    handle(
        "DeployConfig: accept (all fields)",
        ask()?.1,
        json!({"action": "accept", "content": {
            "env": "production", "replicas": 4, "gitRef": "v1.2.0",
            "notify": ["email", "pager"], "ownerEmail": "ops@example.com",
            "startAt": "2026-12-02T18:00:00Z", "canary": 0.1, "autoRollback": false
        }}),
    );
    handle(
        "DeployConfig: decline",
        ask()?.1,
        json!({"action": "decline"}),
    );
    handle(
        "DeployConfig: cancel",
        ask()?.1,
        json!({"action": "cancel"}),
    );
    handle(
        "DeployConfig: accept, invalid",
        ask()?.1,
        json!({"action": "accept", "content": {
            "env": "prod", "replicas": 300, "gitRef": "",
            "notify": ["slack", "slack"], "ownerEmail": "not an email",
            "startAt": "tomorrow", "canary": 1.5
        }}),
    );

    println!("\n== Secrets never go through a form: this client has no URL mode, so");
    println!("   the sensitive entry point refuses instead of falling back:");
    let sensitive = UrlRequest::new(
        "Connect your deploy token on our site.",
        "https://agent.example.com/connect/deploy-token",
    )
    .sensitive();
    match connection.url(scope, sensitive) {
        Ok(_) => println!("   (unexpected) a URL request was built"),
        Err(err) => println!("   refused: {err}"),
    }
    Ok(())
}
