//! The terminal renderer for elicitation requests, shared by
//! `examples/form.rs` and `examples/acp_client.rs` (included with
//! `#[path = "support/form_ui.rs"] mod form_ui;`).
//!
//! It renders **any** request that passed
//! [`ClientConnection::receive`](elicit_core::protocol::client::ClientConnection::receive),
//! not only derived forms, and follows the protocol's client rules:
//!
//! - it says which agent asks, and shows the request's `message`;
//! - a form is asked one property at a time, in schema order, with its
//!   title, description, constraints and default pre-filled; selects are
//!   choice lists (titled options show their titles);
//! - every answer is checked as it is typed, with elicit-core's engine
//!   ([`rules::check_value`]), and the whole form again before sending
//!   ([`FormElicitation::accept`]);
//! - a review screen lists every answer; each can be changed before sending;
//! - Decline and Cancel are explicit choices, and `Esc` cancels at any prompt;
//! - a schema that [`ElicitationSchema::check`](elicit_core::ElicitationSchema::check)
//!   refuses is not rendered: properties of an unknown type are listed as
//!   "not renderable", never guessed at, and only Decline or Cancel remain;
//! - a URL is shown in full with its host highlighted, with the
//!   [`UrlReview`](elicit_core::protocol::UrlReview) warnings, and the user
//!   is asked for consent. Only after consent is it handed to the system
//!   opener (`xdg-open`, or `open` on macOS). Nothing here fetches it.
//!
//! All of the UI goes to **stderr** (as `inquire` does), so stdout stays
//! free for the program's own output.
//!
//! # Scripted answers
//!
//! When stdin is not a terminal, the renderer reads the answers from stdin
//! instead, as JSON lines, one per elicitation, in the order the requests
//! arrive:
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
//!   that breaks the form's rules, `accept` of a form that is not renderable
//!   or of a refused URL) is **rejected and reported on stderr, never
//!   sent**; the next line is read as the retry.
//! - At the end of input, every further request is cancelled.
//!
//! The form is printed to stderr in scripted mode too, so a log shows what
//! a person would have seen.

use std::fmt::Write as _;
use std::io::{self, IsTerminal};
use std::process::{Command, Stdio};

use elicit_core::Content;
use elicit_core::protocol::CreateElicitationResponse;
use elicit_core::protocol::client::{AnswerError, FormElicitation, UrlElicitation};
use elicit_core::protocol::url::{UrlVerdict, UrlWarning};
use elicit_core::protocol::{ElicitationScope, UrlReview};
use elicit_core::rules::check_value;
use elicit_core::{Items, Options, PropertySchema, SchemaErrorKind};
use inquire::error::InquireError;
use inquire::validator::{ErrorMessage, Validation};
use inquire::{MultiSelect, Select, Text};
use serde_json::{Map, Value};

/// Where the answers come from.
enum Input {
    /// A person at a terminal, through `inquire` prompts.
    Terminal,
    /// JSON lines on stdin (see the module docs); `answered` counts them.
    Script { answered: usize, exhausted: bool },
}

/// The renderer. One per program; it reads stdin.
pub struct Renderer {
    input: Input,
    style: Style,
}

impl Renderer {
    /// A renderer for this process: interactive when stdin is a terminal,
    /// scripted (JSON lines on stdin) otherwise.
    pub fn from_stdin() -> Self {
        let input = if io::stdin().is_terminal() {
            Input::Terminal
        } else {
            Input::Script {
                answered: 0,
                exhausted: false,
            }
        };
        Self {
            input,
            style: Style {
                enabled: io::stderr().is_terminal(),
            },
        }
    }

    /// Shows a form-mode request from `agent` and returns the user's answer:
    /// `accept` with validated content, `decline` or `cancel`.
    pub fn form(&mut self, agent: &str, form: &FormElicitation) -> CreateElicitationResponse {
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
        if let Err(not_renderable) = form.renderable() {
            self.print_not_renderable(
                form,
                &not_renderable.unknown_types(),
                not_renderable.error(),
            );
            return match self.input {
                Input::Terminal => terminal_decline_or_cancel(form),
                Input::Script { .. } => self.script_form(form, false),
            };
        }
        match self.input {
            Input::Terminal => self.terminal_form(form),
            Input::Script { .. } => {
                self.print_form(form);
                self.script_form(form, true)
            }
        }
    }

    /// Shows a URL-mode request from `agent`: the full URL, its host
    /// highlighted, the warnings, and a consent question. Returns `accept`
    /// only with the user's consent; in a terminal the URL is then handed
    /// to the system opener (never in scripted mode).
    pub fn url(&mut self, agent: &str, request: &UrlElicitation) -> CreateElicitationResponse {
        self.header(agent, request.scope(), request.message());
        self.print_url(request.review());
        match self.input {
            Input::Terminal => self.terminal_url(request),
            Input::Script { .. } => self.script_url(request),
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
                say(format!(
                    "      {} {}",
                    s.dim("choices:"),
                    choices.join(" | ")
                ));
            }
        }
    }

    fn print_not_renderable(
        &self,
        form: &FormElicitation,
        unknown: &[(&str, &str)],
        error: &elicit_core::SchemaError,
    ) {
        let s = &self.style;
        say(s.warn("  This form cannot be shown faithfully, so it is not rendered:"));
        for (name, property) in &form.schema().properties {
            match unknown.iter().find(|(n, _)| *n == name) {
                Some((_, type_)) => say(format!(
                    "  • {}: {}",
                    s.bold(name),
                    s.warn(&format!("not renderable (unknown type `{type_}`)"))
                )),
                None => say(format!(
                    "  • {} ({})",
                    s.bold(&label(name, property)),
                    property.type_name()
                )),
            }
        }
        for issue in error.issues() {
            let unknown_type = matches!(
                issue.kind(),
                SchemaErrorKind::UnknownPropertyType { .. } | SchemaErrorKind::UnknownItemsType
            );
            if !unknown_type {
                say(format!("  {} {issue}", s.dim("problem:")));
            }
        }
        say("  You can only decline or cancel this request.".to_owned());
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

    // -- terminal -----------------------------------------------------------

    fn terminal_form(&mut self, form: &FormElicitation) -> CreateElicitationResponse {
        let schema = form.schema();
        say(self.style.dim(&format!(
            "  {} field{} · Esc cancels the request · every answer can be changed on the \
             review screen before anything is sent",
            schema.properties.len(),
            if schema.properties.len() == 1 {
                ""
            } else {
                "s"
            }
        )));
        let start = choose(
            "What would you like to do?",
            vec![
                "Fill in the form".to_owned(),
                "Decline (tell the agent no)".to_owned(),
                "Cancel".to_owned(),
            ],
            0,
        );
        match start {
            Some(0) => {}
            Some(1) => return form.decline(),
            _ => return form.cancel(),
        }

        let mut content = form.initial_content();
        for (name, property) in &schema.properties {
            let required = schema.is_required(name);
            match ask_property(name, property, required, content.get(name)) {
                Asked::Value(value) => {
                    content.insert(name.to_owned(), value);
                }
                Asked::Empty => {
                    content.remove(name);
                }
                Asked::Cancel => return form.cancel(),
            }
        }

        loop {
            let errors = form.validate(&content).err();
            self.print_review(form, &content, errors.as_ref());
            let mut options = vec![if errors.is_some() {
                "Send (fix the marked fields first)".to_owned()
            } else {
                "Send".to_owned()
            }];
            for (name, property) in &schema.properties {
                options.push(format!("Change {}", label(name, property)));
            }
            let decline = options.len();
            options.push("Decline (tell the agent no)".to_owned());
            options.push("Cancel".to_owned());
            let Some(picked) = choose("Review your answers", options, 0) else {
                return form.cancel();
            };
            if picked == 0 {
                match form.accept(content.clone()) {
                    Ok(response) => return response,
                    Err(AnswerError::Invalid(errors)) => {
                        say(self.style.warn(&format!("  Not sent: {errors}")));
                    }
                    Err(other) => {
                        say(self.style.warn(&format!("  Not sent: {other}")));
                        return form.cancel();
                    }
                }
            } else if picked == decline {
                return form.decline();
            } else if picked == decline + 1 {
                return form.cancel();
            } else if let Some((name, property)) = schema.properties.get_index(picked - 1) {
                let required = schema.is_required(name);
                match ask_property(name, property, required, content.get(name)) {
                    Asked::Value(value) => {
                        content.insert(name.to_owned(), value);
                    }
                    Asked::Empty => {
                        content.remove(name);
                    }
                    Asked::Cancel => return form.cancel(),
                }
            }
        }
    }

    fn print_review(
        &self,
        form: &FormElicitation,
        content: &Content,
        errors: Option<&elicit_core::ContentError>,
    ) {
        let s = &self.style;
        say(String::new());
        say(s.bold("  Review — nothing has been sent yet"));
        let schema = form.schema();
        let width = schema
            .properties
            .iter()
            .map(|(n, p)| label(n, p).chars().count())
            .max()
            .unwrap_or(0);
        for (name, property) in &schema.properties {
            let error = errors.and_then(|e| e.errors().iter().find(|f| f.field() == name));
            let mark = if error.is_some() { "✗" } else { "✓" };
            let mut line = format!(
                "  {mark} {:width$}  {}",
                label(name, property),
                display_value(property, content.get(name)),
            );
            if let Some(error) = error {
                line = s.warn(&format!("{line}   ({})", error.kind()));
            }
            say(line);
        }
    }

    fn terminal_url(&mut self, request: &UrlElicitation) -> CreateElicitationResponse {
        let refused = request.review().verdict().is_refused();
        let mut options = Vec::new();
        if !refused {
            options.push("Open it in my browser (I consent)".to_owned());
        }
        options.push("Decline (tell the agent no)".to_owned());
        options.push("Cancel".to_owned());
        let Some(picked) = choose("Open this page?", options, 0) else {
            return request.cancel();
        };
        let picked = if refused { picked + 1 } else { picked };
        match picked {
            0 => match request.consent() {
                Ok(response) => {
                    match open_in_browser(request.url()) {
                        Ok(opener) => say(format!(
                            "  Handed the URL to `{opener}`; finish there. This program does \
                             not read the page."
                        )),
                        Err(e) => say(self.style.warn(&format!(
                            "  Could not hand the URL to the system opener ({e}); open the URL \
                             above yourself."
                        ))),
                    }
                    response
                }
                Err(rejection) => {
                    say(self.style.warn(&format!("  Not opened: {rejection}")));
                    request.decline()
                }
            },
            1 => request.decline(),
            _ => request.cancel(),
        }
    }

    // -- scripted -----------------------------------------------------------

    /// The next scripted answer: `None` at the end of input.
    fn next_answer(&mut self) -> Option<Result<Scripted, String>> {
        let Input::Script {
            answered,
            exhausted,
        } = &mut self.input
        else {
            return None;
        };
        if *exhausted {
            return None;
        }
        loop {
            let mut line = String::new();
            match io::stdin().read_line(&mut line) {
                Ok(0) | Err(_) => {
                    *exhausted = true;
                    return None;
                }
                Ok(_) => {}
            }
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            *answered += 1;
            say(format!("  scripted answer #{answered}: {line}"));
            return Some(Scripted::parse(line));
        }
    }

    fn script_form(
        &mut self,
        form: &FormElicitation,
        renderable: bool,
    ) -> CreateElicitationResponse {
        loop {
            let answer = match self.next_answer() {
                None => {
                    say("  no more scripted answers: cancelling".to_owned());
                    return form.cancel();
                }
                Some(Err(problem)) => {
                    reject(&problem);
                    continue;
                }
                Some(Ok(answer)) => answer,
            };
            match answer {
                Scripted::Decline => return form.decline(),
                Scripted::Cancel => return form.cancel(),
                Scripted::Accept(_) if !renderable => {
                    reject("the form is not renderable: only decline or cancel");
                }
                Scripted::Accept(given) => {
                    let mut content = form.initial_content();
                    for (name, value) in given {
                        if value.is_null() {
                            content.remove(&name);
                        } else {
                            content.insert(name, value);
                        }
                    }
                    match form.accept(content) {
                        Ok(response) => return response,
                        Err(AnswerError::Invalid(errors)) => reject(&errors.to_string()),
                        Err(other) => reject(&other.to_string()),
                    }
                }
            }
        }
    }

    fn script_url(&mut self, request: &UrlElicitation) -> CreateElicitationResponse {
        loop {
            let answer = match self.next_answer() {
                None => {
                    say("  no more scripted answers: cancelling".to_owned());
                    return request.cancel();
                }
                Some(Err(problem)) => {
                    reject(&problem);
                    continue;
                }
                Some(Ok(answer)) => answer,
            };
            match answer {
                Scripted::Decline => return request.decline(),
                Scripted::Cancel => return request.cancel(),
                Scripted::Accept(_) => match request.consent() {
                    Ok(response) => {
                        say("  consent given (scripted: the URL is not opened)".to_owned());
                        return response;
                    }
                    Err(rejection) => reject(&rejection.to_string()),
                },
            }
        }
    }
}

/// One scripted answer line.
enum Scripted {
    Accept(Content),
    Decline,
    Cancel,
}

impl Scripted {
    fn parse(line: &str) -> Result<Self, String> {
        let value: Value =
            serde_json::from_str(line).map_err(|e| format!("not a JSON object: {e}"))?;
        let Value::Object(mut fields) = value else {
            return Err("not a JSON object".to_owned());
        };
        match fields.get("action").and_then(Value::as_str) {
            Some("accept") => match fields.remove("content") {
                None | Some(Value::Null) => Ok(Self::Accept(Map::new())),
                Some(Value::Object(content)) => Ok(Self::Accept(content)),
                Some(_) => Err("`content` must be an object".to_owned()),
            },
            Some("decline") => Ok(Self::Decline),
            Some("cancel") => Ok(Self::Cancel),
            Some(other) => Err(format!(
                "unknown action `{other}`: use accept, decline or cancel"
            )),
            None => Err("missing `action` (accept, decline or cancel)".to_owned()),
        }
    }
}

fn reject(problem: &str) {
    say(format!(
        "  rejected, not sent: {problem} (reading the next line as a retry)"
    ));
}

fn say(line: String) {
    eprintln!("{line}");
}

// -- prompts ------------------------------------------------------------------

enum Asked {
    Value(Value),
    Empty,
    Cancel,
}

/// `Some(index)` of the picked option, `None` for Esc, Ctrl-C or a terminal
/// error (all of which cancel).
fn choose(message: &str, options: Vec<String>, cursor: usize) -> Option<usize> {
    let page_size = options.len().clamp(1, 20);
    let result = Select::new(message, options)
        .with_page_size(page_size)
        .with_starting_cursor(cursor)
        .without_filtering()
        .with_help_message("↑↓ to move, Enter to choose, Esc to cancel the request")
        .raw_prompt();
    match result {
        Ok(picked) => Some(picked.index),
        Err(e) => {
            report_prompt_error(&e);
            None
        }
    }
}

fn report_prompt_error(e: &InquireError) {
    match e {
        InquireError::OperationCanceled | InquireError::OperationInterrupted => {}
        other => eprintln!("  the terminal prompt failed ({other}); cancelling"),
    }
}

fn terminal_decline_or_cancel(form: &FormElicitation) -> CreateElicitationResponse {
    let picked = choose(
        "This form cannot be rendered",
        vec![
            "Decline (tell the agent no)".to_owned(),
            "Cancel".to_owned(),
        ],
        0,
    );
    match picked {
        Some(0) => form.decline(),
        _ => form.cancel(),
    }
}

const EMPTY_CHOICE: &str = "(leave empty)";

/// Asks for one property, starting from `current` (its default or the
/// previous answer).
fn ask_property(
    name: &str,
    property: &PropertySchema,
    required: bool,
    current: Option<&Value>,
) -> Asked {
    let title = label(name, property);
    let mut help = constraints(property, required);
    if let Some(description) = property.description() {
        help = format!("{description} · {help}");
    }
    match property {
        PropertySchema::String(s) if s.options.is_some() => {
            let Some(options) = &s.options else {
                return Asked::Cancel;
            };
            let current = current.and_then(Value::as_str);
            let values: Vec<&str> = options.values().collect();
            ask_choice(
                &title,
                &help,
                option_labels(options),
                values.iter().position(|v| Some(*v) == current),
                required,
                |i| Value::String(values[i].to_owned()),
            )
        }
        PropertySchema::Boolean(_) => {
            let current = current.and_then(Value::as_bool);
            ask_choice(
                &title,
                &help,
                vec!["yes".to_owned(), "no".to_owned()],
                current.map(|b| if b { 0 } else { 1 }),
                required,
                |i| Value::Bool(i == 0),
            )
        }
        PropertySchema::MultiSelect(m) => {
            let Items::Options(options) = &m.items else {
                return Asked::Cancel;
            };
            ask_multi(&title, &help, property, options, required, current)
        }
        PropertySchema::String(_) | PropertySchema::Integer(_) | PropertySchema::Number(_) => {
            ask_text(&title, &help, property, required, current)
        }
        // Never reached: forms with unknown kinds are not rendered.
        PropertySchema::Other(_) => Asked::Cancel,
    }
}

fn ask_choice(
    title: &str,
    help: &str,
    mut labels: Vec<String>,
    current: Option<usize>,
    required: bool,
    value_of: impl Fn(usize) -> Value,
) -> Asked {
    let count = labels.len();
    if !required {
        labels.push(EMPTY_CHOICE.to_owned());
    }
    let cursor = current.unwrap_or(if required { 0 } else { count });
    let help = format!("{help} · Esc cancels");
    let page_size = labels.len().clamp(1, 20);
    match Select::new(title, labels)
        .with_page_size(page_size)
        .with_starting_cursor(cursor)
        .without_filtering()
        .with_help_message(&help)
        .raw_prompt()
    {
        Ok(picked) if picked.index < count => Asked::Value(value_of(picked.index)),
        Ok(_) => Asked::Empty,
        Err(e) => {
            report_prompt_error(&e);
            Asked::Cancel
        }
    }
}

fn ask_multi(
    title: &str,
    help: &str,
    property: &PropertySchema,
    options: &Options,
    required: bool,
    current: Option<&Value>,
) -> Asked {
    let values: Vec<String> = options.values().map(str::to_owned).collect();
    let selected: Vec<usize> = match current {
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(|item| {
                values
                    .iter()
                    .position(|v| Some(v.as_str()) == item.as_str())
            })
            .collect(),
        _ => Vec::new(),
    };
    let check = {
        let property = property.clone();
        let values = values.clone();
        move |picked: &[inquire::list_option::ListOption<&String>]| {
            if picked.is_empty() && !required {
                return Ok(Validation::Valid);
            }
            let value = Value::Array(
                picked
                    .iter()
                    .map(|o| Value::String(values[o.index].clone()))
                    .collect(),
            );
            Ok(match check_value(&property, &value) {
                Ok(()) => Validation::Valid,
                Err(kind) => Validation::Invalid(ErrorMessage::Custom(format!("This {kind}"))),
            })
        }
    };
    let help = format!("{help} · Space toggles · Esc cancels");
    let page_size = values.len().clamp(1, 20);
    match MultiSelect::new(title, option_labels(options))
        .with_page_size(page_size)
        .with_default(&selected)
        .without_filtering()
        .with_validator(check)
        .with_help_message(&help)
        .raw_prompt()
    {
        Ok(picked) if picked.is_empty() && !required => Asked::Empty,
        Ok(picked) => Asked::Value(Value::Array(
            picked
                .iter()
                .map(|o| Value::String(values[o.index].clone()))
                .collect(),
        )),
        Err(e) => {
            report_prompt_error(&e);
            Asked::Cancel
        }
    }
}

fn ask_text(
    title: &str,
    help: &str,
    property: &PropertySchema,
    required: bool,
    current: Option<&Value>,
) -> Asked {
    let initial = match current {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Null) | None => String::new(),
        Some(other) => other.to_string(),
    };
    let check = {
        let property = property.clone();
        move |text: &str| {
            Ok(match parse_text(&property, required, text) {
                Ok(_) => Validation::Valid,
                Err(message) => Validation::Invalid(ErrorMessage::Custom(message)),
            })
        }
    };
    let help = format!("{help} · Esc cancels");
    match Text::new(title)
        .with_initial_value(&initial)
        .with_validator(check)
        .with_help_message(&help)
        .prompt()
    {
        Ok(text) => match parse_text(property, required, &text) {
            Ok(Some(value)) => Asked::Value(value),
            Ok(None) | Err(_) => Asked::Empty,
        },
        Err(e) => {
            report_prompt_error(&e);
            Asked::Cancel
        }
    }
}

/// Reads typed text as the property's JSON value (`None`: left empty) and
/// checks it with the engine.
fn parse_text(
    property: &PropertySchema,
    required: bool,
    text: &str,
) -> Result<Option<Value>, String> {
    let is_string = matches!(property, PropertySchema::String(_));
    let text = if is_string { text } else { text.trim() };
    if text.is_empty() {
        return if required {
            Err("This field is required".to_owned())
        } else {
            Ok(None)
        };
    }
    let value = if is_string {
        Value::String(text.to_owned())
    } else {
        match serde_json::from_str::<serde_json::Number>(text) {
            Ok(n) => Value::Number(n),
            Err(_) => {
                return Err(if matches!(property, PropertySchema::Integer(_)) {
                    "Enter a whole number".to_owned()
                } else {
                    "Enter a number".to_owned()
                });
            }
        }
    };
    match check_value(property, &value) {
        Ok(()) => Ok(Some(value)),
        Err(kind) => Err(format!("This {kind}")),
    }
}

// -- describing properties ----------------------------------------------------

/// "Title (name)", or the name alone.
fn label(name: &str, property: &PropertySchema) -> String {
    match property.title() {
        Some(title) if title != name => format!("{title} ({name})"),
        _ => name.to_owned(),
    }
}

fn option_labels(options: &Options) -> Vec<String> {
    match options {
        Options::Untitled(values) => values.clone(),
        Options::Titled(options) => options
            .iter()
            .map(|o| match &o.description {
                Some(d) => format!("{} — {d}", o.title),
                None => o.title.clone(),
            })
            .collect(),
    }
}

fn choice_labels(property: &PropertySchema) -> Option<Vec<String>> {
    let options = match property {
        PropertySchema::String(s) => s.options.as_ref()?,
        PropertySchema::MultiSelect(m) => match &m.items {
            Items::Options(options) => options,
            Items::Other(_) => return None,
        },
        _ => return None,
    };
    Some(match options {
        Options::Untitled(values) => values.clone(),
        Options::Titled(options) => options
            .iter()
            .map(|o| format!("{} = {}", o.value, o.title))
            .collect(),
    })
}

/// The title of the option `value`, or the value itself.
fn option_title(options: &Options, value: &str) -> String {
    match options {
        Options::Titled(options) => options
            .iter()
            .find(|o| o.value == value)
            .map_or_else(|| value.to_owned(), |o| o.title.clone()),
        Options::Untitled(_) => value.to_owned(),
    }
}

fn display_value(property: &PropertySchema, value: Option<&Value>) -> String {
    let Some(value) = value.filter(|v| !v.is_null()) else {
        return "—".to_owned();
    };
    match (property, value) {
        (PropertySchema::String(s), Value::String(text)) => match &s.options {
            Some(options) => option_title(options, text),
            None => format!("{text:?}"),
        },
        (PropertySchema::Boolean(_), Value::Bool(b)) => if *b { "yes" } else { "no" }.to_owned(),
        (PropertySchema::MultiSelect(m), Value::Array(items)) => {
            if items.is_empty() {
                return "(none)".to_owned();
            }
            items
                .iter()
                .map(|item| match (&m.items, item.as_str()) {
                    (Items::Options(options), Some(text)) => option_title(options, text),
                    _ => item.to_string(),
                })
                .collect::<Vec<_>>()
                .join(", ")
        }
        _ => value.to_string(),
    }
}

/// The rules of a property, in words: "required · 3–40 characters · ...".
fn constraints(property: &PropertySchema, required: bool) -> String {
    let mut parts = vec![if required { "required" } else { "optional" }.to_owned()];
    match property {
        PropertySchema::String(s) => {
            if s.options.is_some() {
                parts.push("choose one".to_owned());
            } else {
                match (s.min_length, s.max_length) {
                    (Some(min), Some(max)) => parts.push(format!("{min}–{max} characters")),
                    (Some(min), None) => parts.push(format!("at least {min} characters")),
                    (None, Some(max)) => parts.push(format!("at most {max} characters")),
                    (None, None) => {}
                }
                if let Some(format) = &s.format {
                    parts.push(format!("format: {format}"));
                }
                if let Some(pattern) = &s.pattern {
                    parts.push(format!("pattern: {}", pattern.as_str()));
                }
            }
            if let Some(default) = &s.default {
                parts.push(format!("default: {default}"));
            }
        }
        PropertySchema::Integer(s) => {
            parts.push(range("whole number", s.minimum, s.maximum));
            if let Some(default) = s.default {
                parts.push(format!("default: {default}"));
            }
        }
        PropertySchema::Number(s) => {
            parts.push(range("number", s.minimum, s.maximum));
            if let Some(default) = s.default {
                parts.push(format!("default: {default}"));
            }
        }
        PropertySchema::Boolean(s) => {
            parts.push("yes or no".to_owned());
            if let Some(default) = s.default {
                parts.push(format!("default: {}", if default { "yes" } else { "no" }));
            }
        }
        PropertySchema::MultiSelect(m) => {
            parts.push(match (m.min_items, m.max_items) {
                (Some(min), Some(max)) => format!("choose {min}–{max}"),
                (Some(min), None) => format!("choose at least {min}"),
                (None, Some(max)) => format!("choose at most {max}"),
                (None, None) => "choose any".to_owned(),
            });
            if let Some(default) = &m.default {
                parts.push(format!("default: {}", default.join(", ")));
            }
        }
        PropertySchema::Other(o) => parts.push(format!("unknown type `{}`", o.type_)),
    }
    parts.join(" · ")
}

fn range<T: std::fmt::Display>(kind: &str, min: Option<T>, max: Option<T>) -> String {
    match (min, max) {
        (Some(min), Some(max)) => format!("{kind} from {min} to {max}"),
        (Some(min), None) => format!("{kind}, at least {min}"),
        (None, Some(max)) => format!("{kind}, at most {max}"),
        (None, None) => kind.to_owned(),
    }
}

// -- the system opener --------------------------------------------------------

/// Hands `url` to the system opener, only ever after the user consented.
/// Returns the opener's name. The URL is one argument, never a shell string.
fn open_in_browser(url: &str) -> io::Result<&'static str> {
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

// -- styling ------------------------------------------------------------------

/// ANSI styling, only when stderr is a terminal.
struct Style {
    enabled: bool,
}

impl Style {
    fn paint(&self, code: &str, text: &str) -> String {
        if self.enabled {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_owned()
        }
    }

    fn bold(&self, text: &str) -> String {
        self.paint("1", text)
    }

    fn dim(&self, text: &str) -> String {
        self.paint("2", text)
    }

    fn warn(&self, text: &str) -> String {
        self.paint("33", text)
    }

    /// The host: bold, underlined, reverse video.
    fn host(&self, host: &str) -> String {
        self.paint("1;4;7", host)
    }
}
