//! The interactive side: `inquire` prompts on the terminal.

use inquire::error::InquireError;
use inquire::validator::{ErrorMessage, Validation};
use inquire::{MultiSelect, Select, Text};
use serde_json::Value;

use super::describe::{constraints, display_value, label, option_labels};
use super::style::{Style, say};
use crate::protocol::client::{FormAnswer, FormElicitation, UrlAnswer, UrlElicitation};
use crate::rules::check_value;
use crate::{Content, ContentError, ElicitationSchema, Items, Options, PropertySchema};

/// Asks for a renderable form, field by field from `content` (the defaults,
/// or the previous answer), then the review screen.
pub(super) fn form(style: &Style, form: &FormElicitation, mut content: Content) -> FormAnswer {
    let schema = form.schema();
    say(style.dim(&format!(
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
        Some(1) => return FormAnswer::Decline,
        _ => return FormAnswer::Cancel,
    }

    for (name, property) in &schema.properties {
        if !ask_into(&mut content, schema, name, property) {
            return FormAnswer::Cancel;
        }
    }

    loop {
        // The renderer's own check, to mark the fields on the review
        // screen; `answer` checks again before sending.
        let errors = form.validate(&content).err();
        print_review(style, form, &content, errors.as_ref());
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
            return FormAnswer::Cancel;
        };
        if picked == 0 {
            match errors {
                None => return FormAnswer::Accept(content),
                Some(errors) => say(style.warn(&format!("  Not sent: {errors}"))),
            }
        } else if picked == decline {
            return FormAnswer::Decline;
        } else if picked == decline + 1 {
            return FormAnswer::Cancel;
        } else if let Some((name, property)) = schema.properties.get_index(picked - 1)
            && !ask_into(&mut content, schema, name, property)
        {
            return FormAnswer::Cancel;
        }
    }
}

fn print_review(
    style: &Style,
    form: &FormElicitation,
    content: &Content,
    errors: Option<&ContentError>,
) {
    let s = style;
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

/// Asks for consent to open the URL (never offered for a refused one).
pub(super) fn url(request: &UrlElicitation) -> UrlAnswer {
    let refused = request.review().verdict().is_refused();
    let mut options = Vec::new();
    if !refused {
        options.push("Open it in my browser (I consent)".to_owned());
    }
    options.push("Decline (tell the agent no)".to_owned());
    options.push("Cancel".to_owned());
    let Some(picked) = choose("Open this page?", options, 0) else {
        return UrlAnswer::Cancel;
    };
    let picked = if refused { picked + 1 } else { picked };
    match picked {
        0 => UrlAnswer::Consent,
        1 => UrlAnswer::Decline,
        _ => UrlAnswer::Cancel,
    }
}

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

const EMPTY_CHOICE: &str = "(leave empty)";

/// Asks for `name` and records the answer in `content` (an emptied field
/// is removed). `false` when the user cancelled.
fn ask_into(
    content: &mut Content,
    schema: &ElicitationSchema,
    name: &str,
    property: &PropertySchema,
) -> bool {
    match ask_property(name, property, schema.is_required(name), content.get(name)) {
        Asked::Value(value) => {
            content.insert(name.to_owned(), value);
            true
        }
        Asked::Empty => {
            content.remove(name);
            true
        }
        Asked::Cancel => false,
    }
}

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
        help = format!("{} · {help}", super::style::one_line(description));
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
