//! One behaviour table, every transport: each behaviour of a form
//! elicitation is one test body, run over each adapter of the flow engine
//! (`elicit_core::flow`): the ACP SDK, rmcp's requests (MCP 2025-11-25),
//! and rmcp's rounds at both MCP versions (`requestState` on 2026-07-28).
//!
//! Each transport has its own test form and its own way to be driven (an
//! in-process ACP client, rmcp's client); what they must agree on is what
//! the user sees and what the tool gets, written once here as [`Got`].

use elicit_core::mcp::Rounds;
use elicit_core::protocol::Mode;
use elicit_core::protocol::agent::{Outcome, SendError};
use serde_json::{Value, json};

use crate::rmcp::rounds::call;
use crate::rmcp::{ScriptedClient, Version, form_message, form_mode, runtime, with_peer};

/// What the user answers one request with.
#[derive(Clone, Copy, Debug)]
enum Answer {
    /// A form every rule accepts.
    Valid,
    /// A form only the agent refuses (what a client can check, it did).
    Invalid,
    Decline,
    Cancel,
}

/// What the asking side got, whatever the transport.
#[derive(Debug, PartialEq)]
enum Got {
    Accepted,
    Declined,
    Cancelled,
    /// Still invalid after this many forms.
    Invalid(u32),
    /// Refused before sending.
    NotSent(SendError),
    /// Anything else (a transport's own failure), as its message.
    Other(String),
}

impl<T> From<Outcome<T>> for Got {
    fn from(outcome: Outcome<T>) -> Self {
        match outcome {
            Outcome::Accepted(_) => Got::Accepted,
            Outcome::Declined => Got::Declined,
            Outcome::Cancelled => Got::Cancelled,
            Outcome::UnknownAction(other) => Got::Other(other.action().to_owned()),
        }
    }
}

/// A transport's run: the form asked with `retry`, of a client that has
/// form mode or not and answers each request in turn; what the agent got,
/// and the message of every form the user was shown.
type Ask = fn(form_mode: bool, answers: &[Answer], retry: u32) -> (Got, Vec<String>);

const TRANSPORTS: [(&str, Ask); 4] = [
    ("ACP SDK", acp_sdk),
    ("rmcp requests (MCP 2025-11-25)", rmcp_requests),
    ("rmcp rounds at MCP 2025-11-25", rounds_legacy),
    ("rmcp rounds at MCP 2026-07-28", rounds_modern),
];

// ---------------------------------------------------------------------------
// The behaviours.

#[test]
fn an_accepted_form_is_the_typed_answer() {
    for (name, ask) in TRANSPORTS {
        let (got, shown) = ask(true, &[Answer::Valid], 0);
        assert_eq!(got, Got::Accepted, "{name}");
        assert_eq!(shown.len(), 1, "{name}: {shown:?}");
    }
}

#[test]
fn an_invalid_answer_is_asked_again_with_its_errors_then_accepted() {
    for (name, ask) in TRANSPORTS {
        let (got, shown) = ask(true, &[Answer::Invalid, Answer::Valid], 2);
        assert_eq!(got, Got::Accepted, "{name}");
        assert_eq!(shown.len(), 2, "{name}: {shown:?}");
        assert!(
            shown[1].contains("The previous answer was not accepted"),
            "{name}: {shown:?}"
        );
    }
}

#[test]
fn answers_invalid_after_every_retry_are_an_error_with_the_attempts() {
    for (name, ask) in TRANSPORTS {
        let (got, shown) = ask(true, &[Answer::Invalid; 3], 1);
        assert_eq!(got, Got::Invalid(2), "{name}");
        assert_eq!(shown.len(), 2, "{name}: {shown:?}");
    }
}

#[test]
fn decline_and_cancel_are_returned_at_once_even_with_retries() {
    for (name, ask) in TRANSPORTS {
        for (answer, expected) in [
            (Answer::Decline, Got::Declined),
            (Answer::Cancel, Got::Cancelled),
        ] {
            let (got, shown) = ask(true, &[answer, Answer::Valid], 2);
            assert_eq!(got, expected, "{name}");
            assert_eq!(shown.len(), 1, "{name}: asked again after {answer:?}");
        }
    }
}

#[test]
fn a_client_without_form_mode_is_sent_nothing() {
    for (name, ask) in TRANSPORTS {
        let (got, shown) = ask(false, &[Answer::Valid], 2);
        assert_eq!(
            got,
            Got::NotSent(SendError::ModeNotAdvertised { mode: Mode::Form }),
            "{name}"
        );
        assert!(shown.is_empty(), "{name}: {shown:?}");
    }
}

// ---------------------------------------------------------------------------
// The transports.

fn acp_sdk(form_mode: bool, answers: &[Answer], retry: u32) -> (Got, Vec<String>) {
    use crate::acp_sdk::{Flow, Got as AcpGot, form_only, forms, run};
    use elicit_core::acp::sdk::ElicitError;

    let answers: Vec<Value> = answers
        .iter()
        .map(|answer| match answer {
            Answer::Valid => json!({"replicas": 2, "pairs": 2}),
            // `pairs` must be even: a rule of the agent's `try_from`, which
            // the client cannot check.
            Answer::Invalid => json!({"replicas": 2, "pairs": 3}),
            Answer::Decline => json!("decline"),
            Answer::Cancel => json!("cancel"),
        })
        .collect();
    let capabilities = if form_mode { form_only() } else { None };
    let ran = run(capabilities, forms(&answers), Flow::Form { retry });
    let AcpGot::Form(result) = ran.got else {
        panic!("a form's outcome: {:?}", ran.got);
    };
    let got = match result {
        Ok(outcome) => outcome.into(),
        Err(ElicitError::Invalid { attempts, .. }) => Got::Invalid(attempts),
        Err(ElicitError::NotSent(error)) => Got::NotSent(error),
        Err(other) => Got::Other(other.to_string()),
    };
    let shown = ran
        .shown
        .into_iter()
        .filter(|line| line.starts_with("form from "))
        .collect();
    (got, shown)
}

/// An answer to an rmcp client's `elicitation/create` (the example server's
/// `Deploy` form).
fn mcp_answer(answer: &Answer) -> Value {
    match answer {
        Answer::Valid => json!({"action": "accept", "content": {"env": "staging"}}),
        // The branch's `pattern`, which MCP drops: only the server checks it.
        Answer::Invalid => {
            json!({"action": "accept", "content": {"env": "staging", "branch": "Not A Branch"}})
        }
        Answer::Decline => json!({"action": "decline"}),
        Answer::Cancel => json!({"action": "cancel"}),
    }
}

fn mcp_got(result: Result<Outcome<impl Sized>, elicit_core::mcp::ElicitError>) -> Got {
    use elicit_core::mcp::ElicitError;
    match result {
        Ok(outcome) => outcome.into(),
        Err(ElicitError::Invalid { attempts, .. }) => Got::Invalid(attempts),
        Err(ElicitError::NotSent(error)) => Got::NotSent(error),
        Err(other) => Got::Other(other.to_string()),
    }
}

fn client(form_mode: bool, answers: &[Answer]) -> ScriptedClient {
    let capability = if form_mode { self::form_mode() } else { None };
    ScriptedClient::with(capability, answers.iter().map(mcp_answer).collect()).0
}

fn rmcp_requests(form_mode: bool, answers: &[Answer], retry: u32) -> (Got, Vec<String>) {
    use crate::rmcp::mcp_server::Deploy;
    use elicit_core::mcp::ElicitExt;

    let (result, seen) = runtime().block_on(with_peer(client(form_mode, answers), async |peer| {
        peer.elicit_form::<Deploy>("Deploy?").retry(retry).await
    }));
    let shown = seen.iter().map(|r| form_message(r).to_owned()).collect();
    (mcp_got(result), shown)
}

/// The rounds' `ask`: the example server's form with `RETRY` retries, its
/// outcome as [`Got`]'s `Debug`, for the tool's text.
fn ask_deploy<const RETRY: u32>(rounds: &mut Rounds) -> Option<String> {
    use crate::rmcp::mcp_server::Deploy;
    let answer = rounds
        .form::<Deploy>("deploy", "Deploy?")
        .retry(RETRY)
        .answer()?;
    Some(format!("{:?}", mcp_got(answer)))
}

fn rounds_at(
    version: Version,
    form_mode: bool,
    answers: &[Answer],
    retry: u32,
) -> (Got, Vec<String>) {
    let ask: fn(&mut Rounds) -> Option<String> = match retry {
        0 => ask_deploy::<0>,
        1 => ask_deploy::<1>,
        2 => ask_deploy::<2>,
        _ => panic!("the table asks with 0, 1 or 2 retries"),
    };
    let client = client(form_mode, answers);
    let text = call(Some(ask), &client, version);
    let shown = client
        .seen()
        .iter()
        .map(|r| form_message(r).to_owned())
        .collect();
    let got = [
        Got::Accepted,
        Got::Declined,
        Got::Cancelled,
        Got::Invalid(retry + 1),
        Got::NotSent(SendError::ModeNotAdvertised { mode: Mode::Form }),
    ]
    .into_iter()
    .find(|got| format!("{got:?}") == text)
    .unwrap_or(Got::Other(text));
    (got, shown)
}

fn rounds_legacy(form_mode: bool, answers: &[Answer], retry: u32) -> (Got, Vec<String>) {
    rounds_at(Version::Legacy, form_mode, answers, retry)
}

fn rounds_modern(form_mode: bool, answers: &[Answer], retry: u32) -> (Got, Vec<String>) {
    rounds_at(Version::Modern, form_mode, answers, retry)
}
