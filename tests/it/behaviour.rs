//! One behaviour table, every transport: each behaviour of a form
//! elicitation is one test body, run over each adapter of the flow engine
//! (`elicit_core::flow`): the ACP SDK, rmcp's requests (MCP 2025-11-25),
//! and rmcp's rounds at both MCP versions (`requestState` on 2026-07-28),
//! in a tool's call, a prompt (`prompts/get`), a resource
//! (`resources/read`) and a task (SEP-2663's input requests).
//! Each behaviour of a page of the agent's (a secret form, an OAuth flow)
//! is one test body too, run over the transports that await a page in one
//! call (the ACP SDK, rmcp's requests) and, for a secret page, a tool's
//! rounds at MCP 2025-11-25: every transport and version that has the
//! completion notification tells the client once. The 2026-07-28 rounds'
//! pages (no notification there) have their tests in `rmcp_rounds.rs`. And
//! the rules of a connection's URL elicitations
//! (an outstanding id refused, completion once and by the user it is bound
//! to) are one body of steps, run on each transport's `Elicitor`.
//!
//! Each transport has its own test form and its own way to be driven (an
//! in-process ACP client, rmcp's client); what they must agree on is what
//! the user sees and what the tool gets, written once here as [`Got`].

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use elicit_core::flow::ElicitError;
use elicit_core::mcp::Rounds;
use elicit_core::protocol::agent::{Outcome, SendError, UrlOutcome, UrlRequest, VerifiedUser};
use elicit_core::protocol::{ElicitationId, Mode};
use elicit_core::sensitive::Pages;
use serde_json::{Value, json};

use crate::rmcp::rounds::{Place, call_at};
use crate::rmcp::{ScriptedClient, Version, form_message, form_mode, runtime, with_peer};

/// What the user answers one request with.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Answer {
    /// A form every rule accepts.
    Valid,
    /// A form every rule of the form accepts, with a value the agent's own
    /// check ([`Rule::Taken`]) refuses: a name already taken.
    Taken,
    /// A form whose fields are each valid, that the form's own rule across
    /// fields (`#[elicit(check = ..)]`) refuses.
    CrossField,
    /// A form only the agent refuses (what a client can check, it did).
    Invalid,
    Decline,
    Cancel,
}

/// What the asking side got, whatever the transport.
#[derive(Debug, PartialEq)]
pub(crate) enum Got {
    Accepted,
    Declined,
    Cancelled,
    /// Still invalid after this many forms.
    Invalid(u32),
    /// Refused before sending.
    NotSent(SendError),
    /// The call's check could not decide: the flow ended.
    CheckFailed,
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

/// A transport's run: the form asked with `retry` and `rule`, of a client
/// that has form mode or not and answers each request in turn; what the
/// agent got, and the message of every form the user was shown.
type Ask = fn(form_mode: bool, answers: &[Answer], retry: u32, rule: Rule) -> (Got, Vec<String>);

/// The agent's own rule on a valid answer, given with `.check(..)`: what
/// only the agent knows (a name already taken), asynchronously.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Rule {
    /// No `.check(..)`.
    Unchecked,
    /// Refuses a taken value on its field ("is already taken").
    Taken,
    /// Cannot decide: its directory is down.
    Fails,
}

impl Rule {
    /// The check's verdict on a form whose `field` holds a taken value or
    /// not (after a yield: it is asynchronous, as a lookup is).
    pub(crate) async fn verdict(
        self,
        field: &str,
        taken: bool,
    ) -> Result<Result<(), elicit_core::ContentError>, std::io::Error> {
        tokio::task::yield_now().await;
        match self {
            Rule::Fails => Err(std::io::Error::other("the directory is down")),
            Rule::Taken if taken => Ok(Err(elicit_core::FieldError::rule(
                field,
                "is already taken",
            )
            .into())),
            Rule::Taken | Rule::Unchecked => Ok(Ok(())),
        }
    }
}

const TRANSPORTS: [(&str, Ask); 10] = [
    ("ACP SDK", acp_sdk),
    ("rmcp requests (MCP 2025-11-25)", rmcp_requests),
    ("rmcp rounds at MCP 2025-11-25", rounds_legacy),
    ("rmcp rounds at MCP 2026-07-28", rounds_modern),
    ("rmcp prompt at MCP 2025-11-25", |f, a, r, c| {
        rounds_in(Place::Prompt, Version::Legacy, f, a, r, c)
    }),
    ("rmcp prompt at MCP 2026-07-28", |f, a, r, c| {
        rounds_in(Place::Prompt, Version::Modern, f, a, r, c)
    }),
    ("rmcp resource at MCP 2025-11-25", |f, a, r, c| {
        rounds_in(Place::Resource, Version::Legacy, f, a, r, c)
    }),
    ("rmcp resource at MCP 2026-07-28", |f, a, r, c| {
        rounds_in(Place::Resource, Version::Modern, f, a, r, c)
    }),
    ("rmcp task at MCP 2025-11-25", |f, a, r, c| {
        rounds_in(Place::Task, Version::Legacy, f, a, r, c)
    }),
    ("rmcp task at MCP 2026-07-28", |f, a, r, c| {
        rounds_in(Place::Task, Version::Modern, f, a, r, c)
    }),
];

// ---------------------------------------------------------------------------
// The behaviours.

#[test]
fn an_accepted_form_is_the_typed_answer() {
    for (name, ask) in TRANSPORTS {
        let (got, shown) = ask(true, &[Answer::Valid], 0, Rule::Unchecked);
        assert_eq!(got, Got::Accepted, "{name}");
        assert_eq!(shown.len(), 1, "{name}: {shown:?}");
    }
}

#[test]
fn an_invalid_answer_is_asked_again_with_its_errors_then_accepted() {
    for (name, ask) in TRANSPORTS {
        let (got, shown) = ask(true, &[Answer::Invalid, Answer::Valid], 2, Rule::Unchecked);
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
        let (got, shown) = ask(true, &[Answer::Invalid; 3], 1, Rule::Unchecked);
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
            let (got, shown) = ask(true, &[answer, Answer::Valid], 2, Rule::Unchecked);
            assert_eq!(got, expected, "{name}");
            assert_eq!(shown.len(), 1, "{name}: asked again after {answer:?}");
        }
    }
}

#[test]
fn a_client_without_form_mode_is_sent_nothing() {
    for (name, ask) in TRANSPORTS {
        let (got, shown) = ask(false, &[Answer::Valid], 2, Rule::Unchecked);
        assert_eq!(
            got,
            Got::NotSent(SendError::ModeNotAdvertised { mode: Mode::Form }),
            "{name}"
        );
        assert!(shown.is_empty(), "{name}: {shown:?}");
    }
}

/// What each transport's form says when its rule across fields refuses.
const CROSS_FIELD: [&str; 2] = [
    "`pairs` must not exceed `replicas`",
    "`replicas` must be at least 2 in production",
];

#[test]
fn an_answer_a_rule_across_fields_refuses_is_asked_again_with_its_errors_then_accepted() {
    for (name, ask) in TRANSPORTS {
        let (got, shown) = ask(
            true,
            &[Answer::CrossField, Answer::Valid],
            2,
            Rule::Unchecked,
        );
        assert_eq!(got, Got::Accepted, "{name}");
        assert_eq!(shown.len(), 2, "{name}: {shown:?}");
        assert!(
            shown[1].contains("The previous answer was not accepted")
                && CROSS_FIELD.iter().any(|rule| shown[1].contains(rule)),
            "{name}: {shown:?}"
        );
    }
}

#[test]
fn an_answer_the_agents_check_refuses_is_asked_again_with_its_errors_then_accepted() {
    for (name, ask) in TRANSPORTS {
        let (got, shown) = ask(true, &[Answer::Taken, Answer::Valid], 2, Rule::Taken);
        assert_eq!(got, Got::Accepted, "{name}");
        assert_eq!(shown.len(), 2, "{name}: {shown:?}");
        assert!(
            shown[1].contains("The previous answer was not accepted")
                && shown[1].contains("is already taken"),
            "{name}: {shown:?}"
        );
    }
}

#[test]
fn answers_the_agents_check_refuses_after_every_retry_are_an_error_with_the_attempts() {
    for (name, ask) in TRANSPORTS {
        let (got, shown) = ask(true, &[Answer::Taken; 3], 1, Rule::Taken);
        assert_eq!(got, Got::Invalid(2), "{name}");
        assert_eq!(shown.len(), 2, "{name}: {shown:?}");
        assert!(shown[1].contains("is already taken"), "{name}: {shown:?}");
    }
}

#[test]
fn a_check_that_cannot_decide_ends_the_flow_and_asks_nothing_again() {
    for (name, ask) in TRANSPORTS {
        let (got, shown) = ask(true, &[Answer::Valid, Answer::Valid], 2, Rule::Fails);
        assert_eq!(got, Got::CheckFailed, "{name}");
        assert_eq!(shown.len(), 1, "{name}: {shown:?}");
    }
}

#[test]
fn a_check_never_sees_an_answer_the_forms_rules_refuse() {
    // `Fails` would end the flow if it ran: it runs on the valid answer
    // only, after the invalid one was asked again.
    for (name, ask) in TRANSPORTS {
        let (got, shown) = ask(true, &[Answer::Invalid, Answer::Valid], 2, Rule::Fails);
        assert_eq!(got, Got::CheckFailed, "{name}");
        assert_eq!(shown.len(), 2, "{name}: {shown:?}");
        assert!(!shown[1].contains("is already taken"), "{name}: {shown:?}");
    }
}

// ---------------------------------------------------------------------------
// The transports.

pub(crate) fn acp_sdk(
    form_mode: bool,
    answers: &[Answer],
    retry: u32,
    rule: Rule,
) -> (Got, Vec<String>) {
    use crate::acp_sdk::{Flow, Got as AcpGot, form_only, forms, run};
    use elicit_core::acp::sdk::ElicitError;

    let answers: Vec<Value> = answers
        .iter()
        .map(|answer| match answer {
            Answer::Valid => json!({"replicas": 2, "pairs": 2}),
            // `pairs` must be even: a rule of the agent's `try_from`, which
            // the client cannot check.
            Answer::Invalid => json!({"replicas": 2, "pairs": 3}),
            Answer::Taken => json!({"replicas": 3, "pairs": 2}),
            Answer::CrossField => json!({"replicas": 1, "pairs": 2}),
            Answer::Decline => json!("decline"),
            Answer::Cancel => json!("cancel"),
        })
        .collect();
    let capabilities = if form_mode { form_only() } else { None };
    let flow = match rule {
        Rule::Unchecked => Flow::Form { retry },
        rule => Flow::Checked { retry, rule },
    };
    let ran = run(capabilities, forms(&answers), flow);
    let AcpGot::Form(result) = ran.got else {
        panic!("a form's outcome: {:?}", ran.got);
    };
    let got = match result {
        Ok(outcome) => outcome.into(),
        Err(ElicitError::Invalid { attempts, .. }) => Got::Invalid(attempts),
        Err(ElicitError::NotSent(error)) => Got::NotSent(error),
        Err(ElicitError::Check(_)) => Got::CheckFailed,
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
        Answer::Taken => {
            json!({"action": "accept", "content": {"env": "staging", "branch": "taken"}})
        }
        Answer::CrossField => {
            json!({"action": "accept", "content": {"env": "production", "replicas": 1}})
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
        Err(ElicitError::Check(_)) => Got::CheckFailed,
        Err(other) => Got::Other(other.to_string()),
    }
}

/// The rmcp form's check: its `branch` is taken when it is `taken`.
async fn deploy_check(
    rule: Rule,
    form: &crate::rmcp::mcp_server::Deploy,
) -> Result<Result<(), elicit_core::ContentError>, std::io::Error> {
    rule.verdict("branch", form.branch == "taken").await
}

fn client(form_mode: bool, answers: &[Answer]) -> ScriptedClient {
    let capability = if form_mode { self::form_mode() } else { None };
    ScriptedClient::with(capability, answers.iter().map(mcp_answer).collect()).0
}

fn rmcp_requests(
    form_mode: bool,
    answers: &[Answer],
    retry: u32,
    rule: Rule,
) -> (Got, Vec<String>) {
    use crate::rmcp::elicitor;
    use crate::rmcp::mcp_server::Deploy;

    let (result, seen) = runtime().block_on(with_peer(client(form_mode, answers), async |peer| {
        let call = elicitor(peer).elicit_form::<Deploy>("Deploy?").retry(retry);
        match rule {
            Rule::Unchecked => call.await,
            rule => {
                call.check(async |form: &Deploy| deploy_check(rule, form).await)
                    .await
            }
        }
    }));
    let shown = seen.iter().map(|r| form_message(r).to_owned()).collect();
    (mcp_got(result), shown)
}

/// The rounds' `ask`: the example server's form with `RETRY` retries and
/// the rule `RULE` (an index of [`RULES`]), its outcome as [`Got`]'s
/// `Debug`, for the tool's text.
fn ask_deploy<const RETRY: u32, const RULE: usize>(rounds: Rounds) -> crate::rmcp::rounds::Asking {
    use crate::rmcp::mcp_server::Deploy;
    Box::pin(async move {
        let ask = rounds.form::<Deploy>("deploy", "Deploy?").retry(RETRY);
        let answer = match RULES[RULE] {
            Rule::Unchecked => ask.await?,
            rule => {
                ask.check(async |form: &Deploy| deploy_check(rule, form).await)
                    .await?
            }
        };
        Some(format!("{:?}", mcp_got(answer)))
    })
}

/// The rules, by index: a `const` parameter of [`ask_deploy`].
const RULES: [Rule; 3] = [Rule::Unchecked, Rule::Taken, Rule::Fails];

fn rounds_at(
    version: Version,
    form_mode: bool,
    answers: &[Answer],
    retry: u32,
    rule: Rule,
) -> (Got, Vec<String>) {
    rounds_in(Place::Tool, version, form_mode, answers, retry, rule)
}

/// [`rounds_at`], asked at `place` (a tool's call, a prompt, a resource, a
/// task).
fn rounds_in(
    place: Place,
    version: Version,
    form_mode: bool,
    answers: &[Answer],
    retry: u32,
    rule: Rule,
) -> (Got, Vec<String>) {
    let ask: crate::rmcp::rounds::Questions = match (retry, rule) {
        (0, Rule::Unchecked) => ask_deploy::<0, 0>,
        (1, Rule::Unchecked) => ask_deploy::<1, 0>,
        (2, Rule::Unchecked) => ask_deploy::<2, 0>,
        (1, Rule::Taken) => ask_deploy::<1, 1>,
        (2, Rule::Taken) => ask_deploy::<2, 1>,
        (2, Rule::Fails) => ask_deploy::<2, 2>,
        _ => panic!("the table asks with 0, 1 or 2 retries, and rules as listed"),
    };
    let client = client(form_mode, answers);
    let text = call_at(place, ask, &client, version);
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
        Got::CheckFailed,
    ]
    .into_iter()
    .find(|got| format!("{got:?}") == text)
    .unwrap_or(Got::Other(text));
    (got, shown)
}

fn rounds_legacy(
    form_mode: bool,
    answers: &[Answer],
    retry: u32,
    rule: Rule,
) -> (Got, Vec<String>) {
    rounds_at(Version::Legacy, form_mode, answers, retry, rule)
}

fn rounds_modern(
    form_mode: bool,
    answers: &[Answer],
    retry: u32,
    rule: Rule,
) -> (Got, Vec<String>) {
    rounds_at(Version::Modern, form_mode, answers, retry, rule)
}

// ---------------------------------------------------------------------------
// Secret pages: the behaviours.

/// How a secret page's flow ended, whatever the transport.
#[derive(Debug, PartialEq)]
enum PageGot {
    /// The page's value (the token, exposed for the test).
    Answered(String),
    Declined,
    Cancelled,
    Expired,
    NotSent(SendError),
    /// The page did not open.
    NotOpened(String),
    /// An OAuth flow's access token.
    Authorized(String),
    /// The provider's `error`.
    Denied(String),
    Other(String),
}

impl From<elicit_core::sensitive::oauth::OAuthOutcome> for PageGot {
    fn from(outcome: elicit_core::sensitive::oauth::OAuthOutcome) -> Self {
        use elicit_core::sensitive::ExposeSecret;
        use elicit_core::sensitive::oauth::OAuthOutcome;
        match outcome {
            OAuthOutcome::Authorized(token) => {
                PageGot::Authorized(token.access_token().expose_secret().to_owned())
            }
            OAuthOutcome::Denied { error, .. } => PageGot::Denied(error),
            OAuthOutcome::Declined => PageGot::Declined,
            OAuthOutcome::Cancelled => PageGot::Cancelled,
            OAuthOutcome::Expired => PageGot::Expired,
            other => PageGot::Other(format!("{other:?}")),
        }
    }
}

impl PageGot {
    /// A flow's outcome or its error.
    fn of<O: Into<PageGot>>(result: Result<O, ElicitError>) -> Self {
        match result {
            Ok(outcome) => outcome.into(),
            Err(ElicitError::NotSent(error)) => PageGot::NotSent(error),
            Err(ElicitError::PageNotOpened(error)) => PageGot::NotOpened(error.to_string()),
            Err(other) => PageGot::Other(other.to_string()),
        }
    }

    /// Whether the interaction ended in the browser, so the client is told
    /// it is complete.
    fn completes(&self) -> bool {
        matches!(
            self,
            PageGot::Answered(_) | PageGot::Authorized(_) | PageGot::Denied(_)
        )
    }
}

/// What is asked on a page: the README's token form (for a user, if any),
/// or an OAuth flow at a provider.
enum PageAsk {
    Secret(Option<&'static str>),
    OAuth(Box<elicit_core::sensitive::oauth::Provider>),
}

impl From<elicit_core::sensitive::SecretOutcome<String>> for PageGot {
    fn from(outcome: elicit_core::sensitive::SecretOutcome<String>) -> Self {
        use elicit_core::sensitive::SecretOutcome;
        match outcome {
            SecretOutcome::Answered(token) => PageGot::Answered(token),
            SecretOutcome::Declined => PageGot::Declined,
            SecretOutcome::Cancelled => PageGot::Cancelled,
            SecretOutcome::Expired => PageGot::Expired,
            other => PageGot::Other(format!("{other:?}")),
        }
    }
}

/// The user's side of a page: given the URL the client was shown, what
/// they do in the browser; what they saw, as HTTP statuses.
type Visit = Box<dyn FnOnce(String) -> Vec<u16> + Send>;

/// A page flow's run: the README's token form on `pages`, for `user` if
/// any, of a client that has URL mode or not and consents or declines; the
/// visitor's statuses, and the ids the client was told are complete.
struct PageRun {
    got: PageGot,
    statuses: Vec<u16>,
    completed: Vec<String>,
    /// The ids of the URL requests the client was sent.
    sent: Vec<String>,
}

type AskPage =
    fn(url_mode: bool, consent: bool, pages: Pages, ask: PageAsk, visit: Visit) -> PageRun;

const PAGE_TRANSPORTS: [(&str, AskPage); 2] = [
    ("ACP SDK", acp_sdk_page),
    ("rmcp requests (MCP 2025-11-25)", rmcp_page),
];

/// The transports of a secret page that have the completion notification:
/// the page transports, and a tool's rounds at MCP 2025-11-25 (MCP
/// 2026-07-28 has no notification; its rounds' pages are `rmcp_rounds.rs`'s).
const SECRET_TRANSPORTS: [(&str, AskPage); 3] = [
    PAGE_TRANSPORTS[0],
    PAGE_TRANSPORTS[1],
    ("rmcp tool rounds (MCP 2025-11-25)", rounds_page),
];

const TOKEN: &str = "dt-0123456789ab";

/// Loopback pages: the browser that opens the page submits it.
fn submits() -> Visit {
    Box::new(|url| {
        vec![crate::common::sensitive::answer_page(
            &url,
            &format!("token={TOKEN}"),
        )]
    })
}

#[test]
fn a_submitted_page_is_the_value_and_the_client_is_told_once_on_every_transport_with_the_notification()
 {
    for (name, ask) in SECRET_TRANSPORTS {
        let pages = Pages::loopback().build();
        let run = ask(true, true, pages, PageAsk::Secret(None), submits());
        assert_eq!(run.got, PageGot::Answered(TOKEN.into()), "{name}");
        assert_eq!(run.statuses, [200], "{name}");
        assert_eq!(run.completed, run.sent, "{name}: completed once, that id");
        assert_eq!(run.sent.len(), 1, "{name}");
    }
}

#[test]
fn a_declined_page_is_closed_and_not_completed() {
    for (name, ask) in SECRET_TRANSPORTS {
        let pages = Pages::loopback().build();
        let run = ask(
            true,
            false,
            pages,
            PageAsk::Secret(None),
            Box::new(|_| Vec::new()),
        );
        assert_eq!(run.got, PageGot::Declined, "{name}");
        assert!(run.completed.is_empty(), "{name}: {:?}", run.completed);
    }
}

/// A page nobody submits expires: `Expired`, the id abandoned, nothing
/// completed.
#[test]
fn an_unsubmitted_page_expires_and_is_not_completed() {
    for (name, ask) in SECRET_TRANSPORTS {
        let pages = Pages::loopback()
            .expiry(std::time::Duration::from_millis(300))
            .build();
        let run = ask(
            true,
            true,
            pages,
            PageAsk::Secret(None),
            Box::new(|_| Vec::new()),
        );
        assert_eq!(run.got, PageGot::Expired, "{name}");
        assert_eq!(run.sent.len(), 1, "{name}");
        assert!(run.completed.is_empty(), "{name}: {:?}", run.completed);
    }
}

/// A client without URL mode: no page, no OAuth flow, no page server
/// started.
#[test]
fn a_client_without_url_mode_gets_no_page_nor_oauth_flow() {
    use crate::oauth::{Script, Scripted};

    let provider = Scripted::start(Script::Token);
    for oauth in [false, true] {
        let transports: &[(&str, AskPage)] = if oauth {
            &PAGE_TRANSPORTS
        } else {
            &SECRET_TRANSPORTS
        };
        for &(name, ask) in transports {
            let pages = Pages::loopback().build();
            let asked = if oauth {
                PageAsk::OAuth(Box::new(provider.provider()))
            } else {
                PageAsk::Secret(None)
            };
            let run = ask(false, true, pages.clone(), asked, Box::new(|_| Vec::new()));
            assert_eq!(
                run.got,
                PageGot::NotSent(SendError::SensitiveInputNeedsUrlMode),
                "{name}, OAuth: {oauth}"
            );
            assert!(run.sent.is_empty(), "{name}");
            assert_eq!(pages.local_addr(), None, "{name}: no page server started");
        }
    }
}

/// Hosted pages verify users: the page opened for Alice refuses Bob and
/// takes Alice's answer; without a user it does not open.
#[test]
fn a_hosted_page_is_served_only_to_the_user_it_is_for() {
    use crate::sensitive_server::hosted::{call, get, pages, submit_as};

    for (name, ask) in SECRET_TRANSPORTS {
        let hosted = pages();
        let visitor = hosted.clone();
        let visit: Visit = Box::new(move |url| {
            let path = url
                .strip_prefix("https://agent.example.com")
                .expect("the hosted pages' URL")
                .to_owned();
            let bob = call(&visitor, get(&path, Some("bob")), "").status;
            let alice = submit_as(&visitor, &path, "alice", &format!("token={TOKEN}"));
            vec![bob, alice]
        });
        let run = ask(
            true,
            true,
            hosted.clone(),
            PageAsk::Secret(Some("alice")),
            visit,
        );
        assert_eq!(run.got, PageGot::Answered(TOKEN.into()), "{name}");
        assert_eq!(run.statuses, [403, 200], "{name}");
        assert_eq!(run.completed, run.sent, "{name}");

        let run = ask(
            true,
            true,
            hosted,
            PageAsk::Secret(None),
            Box::new(|_| Vec::new()),
        );
        assert!(
            matches!(&run.got, PageGot::NotOpened(reason) if reason.contains("verify users")),
            "{name}: {:?}",
            run.got
        );
        assert!(run.sent.is_empty(), "{name}");
    }
}

/// An OAuth flow the provider authorizes (the token) or denies (its
/// `error`): either way the interaction ended in the browser, so the client
/// is told once, for the start page's id.
#[test]
fn an_oauth_flow_the_provider_answers_ends_and_the_client_is_told_once() {
    use crate::oauth::{ACCESS, Script, Scripted, browser};

    for (deny, expected) in [
        (false, PageGot::Authorized(ACCESS.into())),
        (true, PageGot::Denied("access_denied".into())),
    ] {
        for (name, ask) in PAGE_TRANSPORTS {
            let provider = Arc::new(Scripted::start(Script::Token));
            let oauth = PageAsk::OAuth(Box::new(provider.provider()));
            let visit: Visit = Box::new(move |url| browser(&provider, &url, deny));
            let run = ask(true, true, Pages::loopback().build(), oauth, visit);
            assert_eq!(run.got, expected, "{name}");
            assert_eq!(run.statuses, [303, 200], "{name}");
            assert_eq!(run.completed, run.sent, "{name}: completed once, that id");
            assert_eq!(run.sent.len(), 1, "{name}");
        }
    }
}

/// A declined OAuth flow ends at once: nothing is completed.
#[test]
fn a_declined_oauth_flow_completes_nothing() {
    use crate::oauth::{Script, Scripted};

    let provider = Scripted::start(Script::Token);
    for (name, ask) in PAGE_TRANSPORTS {
        let oauth = PageAsk::OAuth(Box::new(provider.provider()));
        let run = ask(
            true,
            false,
            Pages::loopback().build(),
            oauth,
            Box::new(|_| Vec::new()),
        );
        assert_eq!(run.got, PageGot::Declined, "{name}");
        assert!(run.completed.is_empty(), "{name}: {:?}", run.completed);
    }
}

// ---------------------------------------------------------------------------
// A connection's URL elicitations: the behaviour, and the transports.

/// What a behaviour's steps ask with: a transport's `Elicitor`.
pub(crate) trait UrlAsker: Sync {
    fn url(&self, request: UrlRequest) -> BoxFuture<'_, Result<UrlOutcome, ElicitError>>;
    fn complete<'a>(
        &'a self,
        id: &'a ElicitationId,
        user: Option<&'a VerifiedUser>,
    ) -> BoxFuture<'a, Result<(), ElicitError>>;
}

/// A behaviour's steps: what each got, in words every transport shares.
pub(crate) type Steps = for<'a> fn(&'a dyn UrlAsker) -> BoxFuture<'a, Vec<String>>;

type BoxFuture<'a, T> = std::pin::Pin<Box<dyn std::future::Future<Output = T> + Send + 'a>>;

/// The ACP SDK's `Elicitor`, in a scope.
pub(crate) struct AcpAsker<'e>(
    pub(crate) &'e elicit_core::acp::sdk::Elicitor,
    pub(crate) elicit_core::protocol::ElicitationScope,
);

impl UrlAsker for AcpAsker<'_> {
    fn url(&self, request: UrlRequest) -> BoxFuture<'_, Result<UrlOutcome, ElicitError>> {
        Box::pin(self.0.elicit_url(self.1.clone(), request))
    }
    fn complete<'a>(
        &'a self,
        id: &'a ElicitationId,
        user: Option<&'a VerifiedUser>,
    ) -> BoxFuture<'a, Result<(), ElicitError>> {
        Box::pin(self.0.complete(id, user))
    }
}

impl UrlAsker for elicit_core::mcp::Elicitor<'_> {
    fn url(&self, request: UrlRequest) -> BoxFuture<'_, Result<UrlOutcome, ElicitError>> {
        Box::pin(self.elicit_url(request))
    }
    fn complete<'a>(
        &'a self,
        id: &'a ElicitationId,
        user: Option<&'a VerifiedUser>,
    ) -> BoxFuture<'a, Result<(), ElicitError>> {
        Box::pin(elicit_core::mcp::Elicitor::complete(self, id, user))
    }
}

/// A step's result, in words every transport shares.
fn said<T: std::fmt::Debug>(result: Result<T, ElicitError>) -> String {
    match result {
        Ok(value) => format!("ok {value:?}"),
        Err(ElicitError::NotSent(error)) => format!("not sent: {error:?}"),
        Err(ElicitError::Completion(error)) => format!("completion refused: {error:?}"),
        Err(other) => format!("failed: {other}"),
    }
}

/// Alice's URL elicitation `dup`: consented; `dup` again while it is
/// outstanding is refused before sending; Bob's completion is refused;
/// Alice's goes through, once; then `dup` may be used again.
fn one_id_one_user_one_completion(asker: &dyn UrlAsker) -> BoxFuture<'_, Vec<String>> {
    Box::pin(async move {
        let alice = VerifiedUser::new("alice");
        let bob = VerifiedUser::new("bob");
        let id = ElicitationId::new("dup");
        let request = || {
            UrlRequest::new("Connect your account.", "https://agent.example.com/connect")
                .elicitation_id("dup")
                .for_user(&alice)
        };
        vec![
            said(asker.url(request()).await),
            said(asker.url(request()).await),
            said(asker.complete(&id, Some(&bob)).await),
            said(asker.complete(&id, None).await),
            said(asker.complete(&id, Some(&alice)).await),
            said(asker.complete(&id, Some(&alice)).await),
        ]
    })
}

/// A URL run: what each step got, and the ids the client was told are
/// complete.
type UrlRun = fn(steps: Steps) -> (Vec<String>, Vec<String>);

const URL_TRANSPORTS: [(&str, UrlRun); 2] = [
    ("ACP SDK", acp_sdk_url),
    ("rmcp requests (MCP 2025-11-25)", rmcp_url),
];

#[test]
fn an_outstanding_id_is_refused_and_completion_is_once_and_by_its_user() {
    let expected = [
        "ok Consented(AwaitingCompletion { id: ElicitationId(\"dup\") })".to_owned(),
        "not sent: DuplicateElicitationId(ElicitationId(\"dup\"))".to_owned(),
    ];
    for (name, run) in URL_TRANSPORTS {
        let (steps, completed) = run(one_id_one_user_one_completion);
        assert_eq!(steps[..2], expected, "{name}");
        assert!(
            steps[2].starts_with("completion refused: IdentityMismatch"),
            "{name}: {}",
            steps[2]
        );
        assert!(
            steps[3].starts_with("completion refused: IdentityMissing"),
            "{name}: {}",
            steps[3]
        );
        assert_eq!(steps[4], "ok ()", "{name}");
        assert!(
            steps[5].starts_with("completion refused: AlreadyCompleted"),
            "{name}: {}",
            steps[5]
        );
        assert_eq!(completed, ["dup"], "{name}: the client is told once");
    }
    let (acp, _) = acp_sdk_url(one_id_one_user_one_completion);
    let (mcp, _) = rmcp_url(one_id_one_user_one_completion);
    assert_eq!(acp, mcp, "the same words on both transports");
}

fn acp_sdk_url(steps: Steps) -> (Vec<String>, Vec<String>) {
    use crate::acp_sdk::{Flow, Got as AcpGot, Script, form_and_url, run};
    use elicit_core::protocol::client::UrlAnswer;

    let script = Script {
        urls: [UrlAnswer::Consent].into(),
        ..Script::default()
    };
    let ran = run(form_and_url(), script, Flow::Steps(steps));
    let AcpGot::Steps(said) = ran.got else {
        panic!("the steps: {:?}", ran.got);
    };
    let completed = ran
        .completed
        .iter()
        .map(|id| id.as_str().to_owned())
        .collect();
    (said, completed)
}

fn rmcp_url(steps: Steps) -> (Vec<String>, Vec<String>) {
    let (client, mut notified) =
        ScriptedClient::with(crate::rmcp::url_mode(), vec![json!({"action": "accept"})]);
    let ((said, completed), _) = runtime().block_on(with_peer(client, async |peer| {
        let elicitations = elicit_core::mcp::ServerElicitations::new();
        let said = steps(&elicitations.elicitor(peer)).await;
        // Each completion that went through is on its way to the client.
        let sent = said.iter().filter(|step| *step == "ok ()").count();
        let mut completed = Vec::new();
        for _ in 0..sent {
            let wait = std::time::Duration::from_secs(10);
            let Ok(Some(notification)) = tokio::time::timeout(wait, notified.recv()).await else {
                break;
            };
            let params = notification.params.unwrap_or_default();
            completed.push(params["elicitationId"].as_str().unwrap().to_owned());
        }
        (said, completed)
    }));
    (said, completed)
}

// ---------------------------------------------------------------------------
// Secret pages: the transports.

fn acp_sdk_page(
    url_mode: bool,
    consent: bool,
    pages: Pages,
    ask: PageAsk,
    visit: Visit,
) -> PageRun {
    use crate::acp_sdk::{Flow, Got as AcpGot, Script, form_and_url, form_only, run};
    use elicit_core::protocol::client::UrlAnswer;

    let answer = if consent {
        UrlAnswer::Consent
    } else {
        UrlAnswer::Decline
    };
    let script = Script {
        urls: [answer].into(),
        ..Script::default()
    };
    let shown = script.shown.clone();
    let done = Arc::new(AtomicBool::new(false));
    let visitor = {
        let done = done.clone();
        std::thread::spawn(move || {
            let url = wait_for(&done, || {
                if !consent {
                    return None;
                }
                shown
                    .lock()
                    .unwrap()
                    .iter()
                    .find_map(|s| s.strip_prefix("url from the test agent: "))
                    .map(str::to_owned)
            });
            url.map(visit).unwrap_or_default()
        })
    };
    let capabilities = if url_mode {
        form_and_url()
    } else {
        form_only()
    };
    let flow = match ask {
        PageAsk::Secret(user) => Flow::SecretFor(pages, user.map(VerifiedUser::new)),
        PageAsk::OAuth(provider) => Flow::OAuth(pages, provider),
    };
    let ran = run(capabilities, script, flow);
    done.store(true, Ordering::SeqCst);
    let statuses = visitor.join().unwrap();
    let got = match ran.got {
        AcpGot::SecretOutcome(result) => PageGot::of(result),
        AcpGot::OAuth(result) => PageGot::of(result),
        other => panic!("a page's outcome: {other:?}"),
    };
    let sent = ran
        .shown
        .iter()
        .filter_map(|line| line.strip_prefix("url from the test agent: "))
        .map(|url| url.rsplit('/').next().unwrap().to_owned())
        .collect();
    PageRun {
        got,
        statuses,
        completed: ran
            .completed
            .iter()
            .map(|id| id.as_str().to_owned())
            .collect(),
        sent,
    }
}

/// A scripted MCP client for a page flow: URL mode or not, consenting or
/// declining; the receiver of its completion notifications, and the
/// visitor, who opens the first URL request's page once the client is
/// shown it (until `done`).
fn page_client(
    url_mode: bool,
    consent: bool,
    visit: Visit,
    done: &Arc<AtomicBool>,
) -> (
    ScriptedClient,
    tokio::sync::mpsc::UnboundedReceiver<rmcp::model::CustomNotification>,
    std::thread::JoinHandle<Vec<u16>>,
) {
    use rmcp::model::ElicitRequestParams;

    let capability = if url_mode {
        crate::rmcp::url_mode()
    } else {
        form_mode()
    };
    let answer = if consent {
        json!({"action": "accept"})
    } else {
        json!({"action": "decline"})
    };
    let (client, notified) = ScriptedClient::with(capability, vec![answer]);
    let watched = client.clone();
    let done = done.clone();
    let visitor = std::thread::spawn(move || {
        let url = wait_for(&done, || match watched.seen().first() {
            Some(ElicitRequestParams::UrlElicitationParams { url, .. }) if consent => {
                Some(url.clone())
            }
            _ => None,
        });
        url.map(visit).unwrap_or_default()
    });
    (client, notified, visitor)
}

/// The ids the client was told are complete, once the flow that `got`
/// ended: a completion is on its way (sent before the outcome was
/// returned), then any other is already there.
async fn completions(
    got: &PageGot,
    notified: &mut tokio::sync::mpsc::UnboundedReceiver<rmcp::model::CustomNotification>,
) -> Vec<String> {
    let mut completed = Vec::new();
    let mut first = None;
    if got.completes() {
        let wait = std::time::Duration::from_secs(10);
        first = tokio::time::timeout(wait, notified.recv())
            .await
            .ok()
            .flatten();
    }
    while let Some(notification) = first.take().or_else(|| notified.try_recv().ok()) {
        assert_eq!(notification.method, "notifications/elicitation/complete");
        let params = notification.params.unwrap_or_default();
        completed.push(params["elicitationId"].as_str().unwrap().to_owned());
    }
    completed
}

impl PageRun {
    /// The run of an MCP transport whose flow ended with `got`: the visitor
    /// told to stop and joined, the URL requests among what the client was
    /// sent.
    fn ended(
        done: &AtomicBool,
        visitor: std::thread::JoinHandle<Vec<u16>>,
        got: PageGot,
        completed: Vec<String>,
        seen: &[rmcp::model::ElicitRequestParams],
    ) -> Self {
        done.store(true, Ordering::SeqCst);
        PageRun {
            got,
            statuses: visitor.join().unwrap(),
            completed,
            sent: url_ids(seen),
        }
    }
}

/// The ids of the URL requests among what the client was sent.
fn url_ids(seen: &[rmcp::model::ElicitRequestParams]) -> Vec<String> {
    use rmcp::model::ElicitRequestParams;
    seen.iter()
        .filter_map(|request| match request {
            ElicitRequestParams::UrlElicitationParams { elicitation_id, .. } => {
                Some(elicitation_id.clone())
            }
            _ => None,
        })
        .collect()
}

fn rmcp_page(url_mode: bool, consent: bool, pages: Pages, ask: PageAsk, visit: Visit) -> PageRun {
    use crate::acp_sdk::readme_sensitive::DeployToken;
    use crate::rmcp::elicitor;

    let done = Arc::new(AtomicBool::new(false));
    let (client, mut notified, visitor) = page_client(url_mode, consent, visit, &done);
    let ((got, completed), seen) = runtime().block_on(with_peer(client, async |peer| {
        let got = match ask {
            PageAsk::Secret(user) => {
                let asked =
                    elicitor(peer).elicit_secret::<DeployToken>("Paste a deploy token.", &pages);
                let user = user.map(VerifiedUser::new);
                let result = match &user {
                    Some(user) => asked.for_user(user).await,
                    None => asked.await,
                };
                PageGot::of(result.map(crate::acp_sdk::readme_sensitive::exposed))
            }
            PageAsk::OAuth(provider) => PageGot::of(
                elicitor(peer)
                    .elicit_oauth("Sign in to the test provider", &pages, &provider)
                    .await,
            ),
        };
        let completed = completions(&got, &mut notified).await;
        (got, completed)
    }));
    PageRun::ended(&done, visitor, got, completed, &seen)
}

/// A tool that asks for the README's token with `ask` and `r.secret`, for
/// the principal `user` if any, and keeps how it ended.
struct SecretTool {
    config: elicit_core::mcp::RoundsConfig,
    pages: Pages,
    got: Arc<std::sync::Mutex<Option<PageGot>>>,
}

impl rmcp::ServerHandler for SecretTool {
    fn get_info(&self) -> rmcp::model::ServerConfig {
        rmcp::model::ServerConfig::new(
            rmcp::model::ServerCapabilities::builder()
                .enable_tools()
                .build(),
        )
    }

    async fn call_tool(
        &self,
        request: rmcp::model::CallToolRequestParams,
        context: rmcp::service::RequestContext<rmcp::RoleServer>,
    ) -> Result<rmcp::model::CallToolResponse, rmcp::model::ErrorData> {
        use crate::acp_sdk::readme_sensitive::{DeployToken, exposed};
        use elicit_core::mcp::{Asked, ask};

        let pages = &self.pages;
        let asked = ask(&context, &request, &self.config, |r| async move {
            let result = r.secret::<DeployToken>("token", "Paste a deploy token.", pages);
            Some(result.await?.map(exposed))
        });
        let Asked::Answered(result) = asked.await? else {
            panic!("MCP 2025-11-25 answers in the call");
        };
        *self.got.lock().unwrap() = Some(PageGot::of(result));
        Ok(rmcp::model::CallToolResult::success(vec![]).into())
    }
}

/// The rounds' secret page at MCP 2025-11-25 (`ask` and `r.secret` in a
/// tool, which the scripted client calls): the flow engine's, so the
/// client is told once, as on every transport with the notification.
fn rounds_page(url_mode: bool, consent: bool, pages: Pages, ask: PageAsk, visit: Visit) -> PageRun {
    use rmcp::ServiceExt;

    let PageAsk::Secret(user) = ask else {
        panic!("the rounds ask for no OAuth flow");
    };
    let mut config = elicit_core::mcp::RoundsConfig::with_random_key().unwrap();
    if let Some(user) = user {
        config = config.principal(move |_| user.to_owned());
    }
    let got = Arc::new(std::sync::Mutex::new(None));
    let tool = SecretTool {
        config,
        pages,
        got: got.clone(),
    };
    let done = Arc::new(AtomicBool::new(false));
    let (client, mut notified, visitor) = page_client(url_mode, consent, visit, &done);
    let (got, completed) = runtime().block_on(async {
        let (server_io, client_io) = tokio::io::duplex(64 * 1024);
        let server = tokio::spawn(async move {
            let running = tool.serve(server_io).await.unwrap();
            running.waiting().await.unwrap();
        });
        let running = crate::rmcp::connect_at(&client, client_io, Version::Legacy).await;
        running
            .call_tool(rmcp::model::CallToolRequestParams::new("tool"))
            .await
            .unwrap();
        let got = got.lock().unwrap().take().expect("the tool ran");
        let completed = completions(&got, &mut notified).await;
        running.cancel().await.unwrap();
        server.await.unwrap();
        (got, completed)
    });
    PageRun::ended(&done, visitor, got, completed, &client.seen())
}

/// Polls `found` until it finds something, or until `done` (the flow ended
/// without a URL to visit).
fn wait_for(done: &AtomicBool, found: impl Fn() -> Option<String>) -> Option<String> {
    loop {
        if let Some(url) = found() {
            return Some(url);
        }
        if done.load(Ordering::SeqCst) {
            return None;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}
