//! The terminal form renderer on its own: renders a form from a file and
//! prints the response JSON on stdout.
//!
//! ```sh
//! cargo run --example form -- examples/forms/deploy.json
//! cargo run --example form -- --agent "my-agent 1.0" --message "Deploy?" schema.json
//! echo '{"action":"accept","content":{"service":"web"}}' \
//!     | cargo run --example form -- examples/forms/deploy.json
//! ```
//!
//! The file holds a `requestedSchema` (any restricted schema, not only a
//! derived one), or the whole `params` of an `elicitation/create` request
//! (form or URL mode), recognised by its `mode` field. With a terminal on
//! stdin the form is interactive; otherwise the answers are read as JSON
//! lines (see `elicit_core::terminal`). A request the client guard
//! refuses, or one that got no answer that could be sent, is answered with
//! its JSON-RPC error, printed as `{"error": {..}}`, and the exit status
//! is 2.

use std::error::Error;
use std::process::ExitCode;

use elicit_core::protocol::client::{ClientConnection, answer};
use elicit_core::protocol::{ELICITATION_CREATE, ElicitationCapabilities};
use elicit_core::terminal::Renderer;
use serde_json::{Value, json};

const USAGE: &str = "usage: form [--agent NAME] [--message TEXT] FILE.json
  FILE.json   a requestedSchema, or the params of an elicitation/create request
  --agent     who asks (shown in the header; default: the file name)
  --message   the request's message (for a bare requestedSchema)";

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(e) => {
            eprintln!("form: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<ExitCode, Box<dyn Error>> {
    let mut args = std::env::args().skip(1);
    let mut agent = None;
    let mut message = None;
    let mut path = None;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--agent" => agent = Some(args.next().ok_or("--agent needs a value")?),
            "--message" => message = Some(args.next().ok_or("--message needs a value")?),
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(ExitCode::SUCCESS);
            }
            _ if path.is_none() && !arg.starts_with("--") => path = Some(arg),
            _ => return Err(format!("unexpected argument `{arg}`\n{USAGE}").into()),
        }
    }
    let path = path.ok_or(USAGE)?;
    let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let document: Value =
        serde_json::from_str(&text).map_err(|e| format!("{path} is not JSON: {e}"))?;

    // A bare requestedSchema becomes a request-scoped form request.
    let params = if document.get("mode").is_some() {
        document
    } else {
        json!({
            "requestId": "local",
            "mode": "form",
            "message": message.unwrap_or_else(|| "Please fill in this form.".to_owned()),
            "requestedSchema": document,
        })
    };
    let agent = agent.unwrap_or_else(|| format!("the file {path}"));

    // The same guard a real client uses: parses, checks the mode, tracks URLs.
    let mut client = ClientConnection::new(Some(ElicitationCapabilities::form_and_url()));
    let mut renderer = Renderer::from_stdin();
    let incoming = match client.receive_value(params) {
        Ok(incoming) => incoming,
        Err(error) => {
            eprintln!("form: the {ELICITATION_CREATE} request is refused: {error}");
            println!("{}", json!({ "error": error }));
            return Ok(ExitCode::from(2));
        }
    };
    // Shows the request, validates the answer before it is returned, and
    // shows the request again with the problem if it cannot be sent.
    let response = match answer(&mut renderer, &agent, &incoming) {
        Ok(response) => response,
        Err(error) => {
            eprintln!("form: no answer could be sent: {error}");
            println!("{}", json!({ "error": error }));
            return Ok(ExitCode::from(2));
        }
    };
    // An accepted URL was opened by `answer` (never in scripted mode).
    println!("{}", serde_json::to_string(&response)?);
    Ok(ExitCode::SUCCESS)
}
