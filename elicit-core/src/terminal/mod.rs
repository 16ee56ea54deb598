//! A terminal renderer for elicitation requests (feature `terminal`):
//! [`Renderer`], an implementation of [`Render`] for
//! [`answer`](crate::protocol::client::answer).
//!
//! It renders **any** request that passed
//! [`ClientConnection::receive`](crate::protocol::client::ClientConnection::receive),
//! not only derived forms, and follows the protocol's client rules:
//!
//! - it says which agent asks, and shows the request's `message`;
//! - a form is asked one property at a time, in schema order, with its
//!   title, description, constraints and default pre-filled; selects are
//!   choice lists (titled options show their titles);
//! - every answer is checked as it is typed, with elicit-core's engine
//!   (the rules of [`ElicitationSchema::validate`](crate::ElicitationSchema::validate), field by field), and the whole form
//!   again on the review screen; [`answer`](crate::protocol::client::answer)
//!   checks it once more before anything is sent, and shows the form again
//!   with the problem if it cannot be sent;
//! - a review screen lists every answer; each can be changed before sending;
//! - Decline and Cancel are explicit choices, and `Esc` cancels at any prompt;
//! - a schema that [`ElicitationSchema::check`](crate::ElicitationSchema::check)
//!   refuses never reaches it: the guard answers it with `-32602` (a
//!   property of an unknown type is never guessed at);
//! - a URL is shown in full with its host highlighted, with the
//!   [`UrlReview`] warnings, and the user is
//!   asked for consent. [`Render::url`] never opens it: once
//!   [`answer`](crate::protocol::client::answer) has accepted the consent,
//!   [`Renderer::open_accepted`] hands it to the system opener (`xdg-open`,
//!   or `open` on macOS). Nothing here fetches it.
//!
//! All of the UI goes to **stderr** (as `inquire` does), so stdout stays
//! free for the program's own output.
//!
//! Use it as it is, or implement [`Render`] for your own user interface:
//! the guard, the validation before sending and the URL's review stay
//! elicit's either way. On the ACP SDK it is the renderer of
//! `ClientElicitations::handler` ([`acp::sdk`](crate::acp::sdk), feature
//! `acp-sdk`), on rmcp's client that of `ClientElicitations::handler`
//! ([`mcp::client`](crate::mcp::client), feature `rmcp`), and on its own
//! it answers one request with [`answer`](crate::protocol::client::answer),
//! as below. The repository's demo client (`examples/acp_client.rs`), MCP
//! host (`examples/mcp_client.rs`) and `examples/form.rs` (any
//! `requestedSchema` in a file, the response printed) render with it;
//! `examples/README.md` has their commands, and `tests/it/acp_demo.rs`
//! drives the demo with scripted answers.
//!
//! ```no_run
//! use elicit_core::protocol::ElicitationCapabilities;
//! use elicit_core::protocol::client::{ClientConnection, answer};
//! use elicit_core::terminal::Renderer;
//! use serde_json::json;
//!
//! let mut client = ClientConnection::new(Some(ElicitationCapabilities::form_and_url()));
//! // Interactive when stdin is a terminal, JSON lines on stdin otherwise.
//! let mut renderer = Renderer::from_stdin();
//! let incoming = client.receive_value(json!({
//!     "sessionId": "s", "mode": "form", "message": "How many replicas?",
//!     "requestedSchema": {"type": "object", "properties": {
//!         "replicas": {"type": "integer", "minimum": 1, "maximum": 16, "default": 2}}}
//! }))?;
//! // An accepted URL request is opened by `answer` itself, through
//! // `Render::consented` (never in scripted mode).
//! let response = answer(&mut renderer, "my agent", &incoming)?;
//! println!("{}", serde_json::to_string(&response).unwrap());
//! # Ok::<(), elicit_core::protocol::JsonRpcError>(())
//! ```
//!
//! # Scripted answers
//!
//! When stdin is not a terminal ([`Renderer::from_stdin`]), or with
//! [`Renderer::script`], the renderer reads the answers as JSON lines
//! instead, one per elicitation, in the order the requests arrive:
//!
//! ```text
//! {"action": "accept", "content": {"service": "web", "replicas": 3}}
//! {"action": "decline"}
//! {"action": "cancel"}
//! {"action": "accept"}
//! ```
//!
//! - For a form, `content` holds the answers. A field that is not given
//!   keeps its declared default, as the pre-filled form would; `null`
//!   clears it.
//! - For a URL, `accept` means the user consents to open it; in scripted
//!   mode the URL is never opened. Any `content` is ignored.
//! - Blank lines and lines starting with `#` are skipped.
//! - An answer that cannot be sent (not JSON, an unknown action, content
//!   that breaks the form's rules, `accept` of a refused URL) is **rejected and reported on stderr, never
//!   sent**; the next line is read as the retry. (An answer that `answer`
//!   refuses counts toward its
//!   3 attempts ([limits](crate::reference::limits))
//!   for the request, after which the request is answered with `-32603`.)
//! - At the end of input, every further request is cancelled.
//!
//! The form is printed to stderr in scripted mode too, so a log shows what
//! a person would have seen.
//!
//! ```
//! use elicit_core::protocol::client::{ClientConnection, answer};
//! use elicit_core::protocol::{ElicitationAction, ElicitationCapabilities};
//! use elicit_core::terminal::Renderer;
//! use serde_json::json;
//!
//! let mut client = ClientConnection::new(Some(ElicitationCapabilities::form_only()));
//! let incoming = client.receive_value(json!({
//!     "sessionId": "s", "mode": "form", "message": "How many replicas?",
//!     "requestedSchema": {"type": "object", "properties": {
//!         "replicas": {"type": "integer", "maximum": 16, "default": 2}}}
//! }))?;
//! // The first line breaks the form's rules: rejected, and the next is read.
//! let mut renderer = Renderer::script(
//!     &b"{\"action\": \"accept\", \"content\": {\"replicas\": 40}}\n\
//!        {\"action\": \"accept\", \"content\": {\"replicas\": 4}}\n"[..],
//! );
//! let response = answer(&mut renderer, "my agent", &incoming)?;
//! assert_eq!(
//!     response.action,
//!     ElicitationAction::Accept { content: json!({"replicas": 4}).as_object().cloned() }
//! );
//! # Ok::<(), elicit_core::protocol::JsonRpcError>(())
//! ```

use std::fmt::Write as _;
use std::io::{self, BufRead, IsTerminal};
use std::process::{Command, Stdio};

use crate::Content;
use crate::protocol::client::{
    AnswerError, FormAnswer, FormElicitation, Incoming, Render, UrlAnswer, UrlElicitation,
};
use crate::protocol::url::UrlReview;
use crate::protocol::url::{UrlRejection, UrlVerdict, UrlWarning};
use crate::protocol::{CreateElicitationResponse, ElicitationAction, ElicitationScope};

mod describe;
mod prompt;
mod script;
mod style;

use describe::{choice_labels, constraints, label};
use script::Script;
use style::{Style, say};

/// Where the answers come from.
enum Input {
    /// A person at a terminal, through `inquire` prompts.
    Terminal,
    /// JSON lines (see the module docs).
    Script(Script),
}

/// The terminal renderer: shows requests on stderr and asks the user, with
/// `inquire` prompts or from scripted JSON lines (see the
/// [module docs](self)). Use it with
/// [`answer`](crate::protocol::client::answer), then call
/// [`open_accepted`](Self::open_accepted).
pub struct Renderer {
    input: Input,
    style: Style,
    /// The content of the last form answer: when `answer` could not send
    /// it, the form is shown again starting from it.
    last_answer: Option<Content>,
}

impl std::fmt::Debug for Renderer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Renderer")
            .field("scripted", &self.is_scripted())
            .finish_non_exhaustive()
    }
}

impl Renderer {
    /// A renderer for this process: interactive ([`terminal`](Self::terminal))
    /// when stdin is a terminal, scripted (JSON lines on stdin) otherwise.
    pub fn from_stdin() -> Self {
        if io::stdin().is_terminal() {
            Self::terminal()
        } else {
            Self::new(Input::Script(Script::stdin()))
        }
    }

    /// An interactive renderer: `inquire` prompts on the terminal.
    pub fn terminal() -> Self {
        Self::new(Input::Terminal)
    }

    /// A scripted renderer reading the JSON-lines answers (see the
    /// [module docs](self#scripted-answers)) from `reader`: a file, a
    /// pipe, or bytes in a test.
    pub fn script(reader: impl BufRead + Send + 'static) -> Self {
        Self::new(Input::Script(Script::reader(Box::new(reader))))
    }

    fn new(input: Input) -> Self {
        Self {
            input,
            style: Style {
                enabled: io::stderr().is_terminal(),
            },
            last_answer: None,
        }
    }

    /// Whether the answers are read as JSON lines rather than asked.
    pub(crate) fn is_scripted(&self) -> bool {
        matches!(self.input, Input::Script(_))
    }

    /// Call after [`answer`](crate::protocol::client::answer) returned
    /// `response` for `incoming`: when it accepted a URL request (the user
    /// consented and the URL is not refused), hands the URL to the system
    /// opener (`xdg-open`, or `open` on macOS) and tells the user. Scripted, the URL
    /// is never opened; the log says so. Does nothing for a form, or for a
    /// URL request that was not accepted. Returns whether the URL was
    /// handed to the opener.
    pub fn open_accepted(
        &mut self,
        incoming: &Incoming,
        response: &CreateElicitationResponse,
    ) -> bool {
        let Incoming::Url(request) = incoming else {
            return false;
        };
        if !matches!(response.action, ElicitationAction::Accept { .. })
            || request.consent().is_err()
        {
            return false;
        }
        match self.input {
            Input::Script(_) => {
                // One line a test driving the client can read the URL from.
                say(format!(
                    "  consent given (scripted: the URL is not opened): {}",
                    request.url()
                ));
                false
            }
            Input::Terminal => match open_in_browser(request.url()) {
                Ok(opener) => {
                    say(format!(
                        "  Handed the URL to `{opener}`; finish there. This program does not \
                         read the page."
                    ));
                    true
                }
                Err(e) => {
                    say(self.style.warn(&format!(
                        "  Could not hand the URL to the system opener ({e}); open the URL \
                         above yourself."
                    )));
                    false
                }
            },
        }
    }

    // -- shared output ------------------------------------------------------

    fn header(&self, agent: &str, scope: &ElicitationScope, message: &str) {
        let s = &self.style;
        say(String::new());
        say(s.bold(&format!("━━ {agent} asks ━━")));
        let mut context = String::new();
        if let Some(session) = scope.session_id() {
            let _ = write!(context, "session {session}");
        }
        if let Some(tool_call) = scope.tool_call_id() {
            let _ = write!(context, ", tool call {tool_call}");
        }
        if let Some(request) = scope.request_id() {
            let _ = write!(context, "request {request}");
        }
        say(format!("  {} {context}", s.dim("for:")));
        say(format!("  {} {message}", s.dim("message:")));
    }

    /// Reports why the previous answer was not sent.
    fn report(&self, problem: &str) {
        match self.input {
            Input::Terminal => say(self.style.warn(&format!("  Not sent: {problem}"))),
            Input::Script(_) => script::reject(problem),
        }
    }

    fn print_form(&self, form: &FormElicitation) {
        let s = &self.style;
        let schema = form.schema();
        for (name, property) in &schema.properties {
            let required = schema.is_required(name);
            say(format!(
                "  • {} {}",
                s.bold(&label(name, property)),
                s.dim(&format!("[{}]", constraints(property, required)))
            ));
            if let Some(description) = property.description() {
                say(format!("      {description}"));
            }
            if let Some(choices) = choice_labels(property) {
                // A server may send 100,000 options: the listing shows the
                // first ones and says how many more (the prompt scrolls).
                let more = choices.len().saturating_sub(LISTED_CHOICES);
                let listed = choices[..choices.len().min(LISTED_CHOICES)].join(" | ");
                say(format!(
                    "      {} {listed}{}",
                    s.dim("choices:"),
                    if more > 0 {
                        format!(" | … and {more} more")
                    } else {
                        String::new()
                    }
                ));
            }
        }
    }

    fn print_url(&self, review: &UrlReview) {
        let s = &self.style;
        say("  The agent asks you to open this page in your browser:".to_owned());
        match review.split_for_display() {
            Some((before, host, after)) => {
                say(format!("    {before}{}{after}", s.host(host)));
                // Underline the host, so it stands out in a log without colours too.
                say(format!(
                    "    {}{}",
                    " ".repeat(before.chars().count()),
                    "^".repeat(host.chars().count())
                ));
            }
            None => say(format!("    {}", review.url())),
        }
        match review.host() {
            Some(host) => say(format!("  {} {}", s.dim("site:"), s.host(host))),
            None => say(format!("  {} (none)", s.dim("site:"))),
        }
        if let Some(unicode) = review.unicode_host() {
            say(format!(
                "  {} {unicode}",
                s.dim("displayed by browsers as:")
            ));
        }
        for warning in review.warnings() {
            let text = match warning {
                UrlWarning::DeceptiveHost { .. } | UrlWarning::MixedScripts { .. } => {
                    s.warn(&format!("  warning: {warning}"))
                }
                _ => format!("  warning: {warning}"),
            };
            say(text);
        }
        match review.verdict() {
            UrlVerdict::Allowed => {}
            UrlVerdict::Development => {
                say(s.warn("  note: a plain-http URL on this machine (development only)"))
            }
            UrlVerdict::Refused(rejection) => {
                say(s.warn(&format!("  refused: {rejection}")));
                say("  You can only decline or cancel this request.".to_owned());
            }
        }
        say(s.dim("  Nothing has been opened or fetched."));
    }
}

/// How many of a select's options the form's listing shows.
const LISTED_CHOICES: usize = 20;

impl Render for Renderer {
    /// Shows the form and asks for it (or reads the next scripted answer).
    /// With a `problem`, shows it first; scripted, only the problem is
    /// reported and the next line is read as the retry.
    fn form(
        &mut self,
        agent: &str,
        form: &FormElicitation,
        problem: Option<&AnswerError>,
    ) -> FormAnswer {
        let retry = match problem {
            None => {
                self.last_answer = None;
                None
            }
            Some(_) => Some(self.last_answer.take()),
        };
        let scripted_retry = retry.is_some() && self.is_scripted();
        if !scripted_retry {
            self.show_form(agent, form);
        }
        if let Some(problem) = problem {
            self.report(&match problem {
                // The errors alone: the user corrects them.
                AnswerError::Invalid(errors) => errors.to_string(),
            });
        }
        let answer = match &mut self.input {
            Input::Terminal => {
                let start = retry.flatten().unwrap_or_else(|| form.initial_content());
                prompt::form(&self.style, form, start)
            }
            Input::Script(script) => script.form(form),
        };
        if let FormAnswer::Accept(content) = &answer {
            self.last_answer = Some(content.clone());
        }
        answer
    }

    /// Called by [`answer`](crate::protocol::client::answer) once the
    /// consent was accepted: hands the URL to the system opener, as
    /// [`open_accepted`](Renderer::open_accepted) does (never scripted).
    fn consented(&mut self, url: &UrlElicitation) {
        let accepted = CreateElicitationResponse::accept(None);
        self.open_accepted(&Incoming::Url(url.clone()), &accepted);
    }

    /// Shows the URL review and asks for consent (or reads the next
    /// scripted answer). Never opens the URL: [`answer`] does, through
    /// [`consented`](Render::consented), once it accepted the consent.
    ///
    /// [`answer`]: crate::protocol::client::answer
    fn url(
        &mut self,
        agent: &str,
        request: &UrlElicitation,
        problem: Option<&UrlRejection>,
    ) -> UrlAnswer {
        let scripted_retry = problem.is_some() && self.is_scripted();
        if !scripted_retry {
            self.header(agent, request.scope(), request.message());
            self.print_url(request.review());
        }
        if let Some(problem) = problem {
            self.report(&problem.to_string());
        }
        match &mut self.input {
            Input::Terminal => prompt::url(request),
            Input::Script(script) => script.url(),
        }
    }
}

impl Renderer {
    /// The header, the form's title, description and warnings, and the
    /// fields (scripted) or why it is not rendered.
    fn show_form(&self, agent: &str, form: &FormElicitation) {
        self.header(agent, form.scope(), form.message());
        let s = &self.style;
        if let Some(title) = &form.schema().title {
            say(format!("  {} {}", s.dim("form:"), s.bold(title)));
        }
        if let Some(description) = &form.schema().description {
            say(format!("  {description}"));
        }
        let credential_like = form.credential_like_fields();
        if !credential_like.is_empty() {
            say(s.warn(&format!(
                "  warning: this form asks for {} — forms must never collect passwords, keys \
                 or tokens. Consider declining.",
                credential_like.join(", ")
            )));
        }
        if self.is_scripted() {
            self.print_form(form);
        }
    }
}

// -- the system opener --------------------------------------------------------

/// Hands `url` to the system opener (`xdg-open`, or `open` on macOS) and
/// returns its name. Call it only after the user consented **and**
/// [`answer`](crate::protocol::client::answer) accepted the consent (as
/// [`Renderer::open_accepted`] does). The URL is one argument, never a
/// shell string; the opener's output is discarded and nothing here reads
/// the page.
pub(crate) fn open_in_browser(url: &str) -> io::Result<&'static str> {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(unix) {
        "xdg-open"
    } else {
        return Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "no system opener is known on this platform",
        ));
    };
    let mut child = Command::new(opener)
        .arg(url)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| io::Error::new(e.kind(), format!("`{opener}`: {e}")))?;
    // Reap it in the background; its exit status says nothing we can use.
    std::thread::spawn(move || child.wait());
    Ok(opener)
}

#[cfg(test)]
mod tests;
