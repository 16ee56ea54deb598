//! Properties in words: labels, choices, rules and values, for the form
//! listing, the prompts and the review screen.

use serde_json::Value;

use super::style::one_line;
use crate::{Items, Options, PropertySchema};

/// "Title (name)", or the name alone.
pub(super) fn label(name: &str, property: &PropertySchema) -> String {
    one_line(&match property.title() {
        Some(title) if title != name => format!("{title} ({name})"),
        _ => name.to_owned(),
    })
}

pub(super) fn option_labels(options: &Options) -> Vec<String> {
    match options {
        Options::Untitled(values) => values.iter().map(|v| one_line(v)).collect(),
        Options::Titled(options) => options
            .iter()
            .map(|o| match &o.description {
                Some(d) => one_line(&format!("{} — {d}", o.title)),
                None => one_line(&o.title),
            })
            .collect(),
    }
}

pub(super) fn choice_labels(property: &PropertySchema) -> Option<Vec<String>> {
    let options = match property {
        PropertySchema::String(s) => s.options.as_ref()?,
        PropertySchema::MultiSelect(m) => match &m.items {
            Items::Options(options) => options,
            Items::Other(_) => return None,
        },
        _ => return None,
    };
    Some(match options {
        Options::Untitled(values) => values.iter().map(|v| one_line(v)).collect(),
        Options::Titled(options) => options
            .iter()
            .map(|o| one_line(&format!("{} = {}", o.value, o.title)))
            .collect(),
    })
}

/// The title of the option `value`, or the value itself.
fn option_title(options: &Options, value: &str) -> String {
    one_line(&match options {
        Options::Titled(options) => options
            .iter()
            .find(|o| o.value == value)
            .map_or_else(|| value.to_owned(), |o| o.title.clone()),
        Options::Untitled(_) => value.to_owned(),
    })
}

pub(super) fn display_value(property: &PropertySchema, value: Option<&Value>) -> String {
    let Some(value) = value.filter(|v| !v.is_null()) else {
        return "—".to_owned();
    };
    match (property, value) {
        (PropertySchema::String(s), Value::String(text)) => match &s.options {
            Some(options) => option_title(options, text),
            None => one_line(&format!("{text:?}")),
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
                    _ => one_line(&item.to_string()),
                })
                .collect::<Vec<_>>()
                .join(", ")
        }
        _ => value.to_string(),
    }
}

/// The rules of a property, in words: "required · 3–40 characters · ...".
pub(super) fn constraints(property: &PropertySchema, required: bool) -> String {
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
    one_line(&parts.join(" · "))
}

fn range<T: std::fmt::Display>(kind: &str, min: Option<T>, max: Option<T>) -> String {
    match (min, max) {
        (Some(min), Some(max)) => format!("{kind} from {min} to {max}"),
        (Some(min), None) => format!("{kind}, at least {min}"),
        (None, Some(max)) => format!("{kind}, at most {max}"),
        (None, None) => kind.to_owned(),
    }
}
