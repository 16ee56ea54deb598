//! The oracle of a page's posted body, shared by a proptest
//! (tests/it/sensitive_body.rs) and the fuzz target `page_body` (fuzz/).
//!
//! Checked on every input: `read_body` never panics; what it accepts holds
//! only the form's fields, a secret never as a plain value, each value of
//! its property's JSON type or a string, a multi-select's values as an
//! array of strings; `from_submission` never panics, and an error of a
//! secret field is one that holds no value.

use elicit_core::sensitive::{BodyError, SecretString, SensitiveForm, read_body};
use elicit_core::{Elicit, FieldErrorKind};
use serde_json::Value;

/// A tag of the form below.
#[derive(Elicit, Debug)]
#[elicit(rename_all = "lowercase")]
pub enum BodyTag {
    /// One.
    A,
    /// Two.
    B,
}

/// A sensitive form with one field of each kind and two secrets.
#[derive(Elicit, Debug)]
#[elicit(sensitive)]
#[allow(dead_code)]
pub struct BodyForm {
    #[elicit(length(max = 8))]
    name: Option<String>,
    #[elicit(range(min = 0, max = 9))]
    count: Option<u8>,
    ratio: Option<f64>,
    flag: Option<bool>,
    tags: Option<Vec<BodyTag>>,
    #[secret]
    #[elicit(length(min = 3, max = 6), pattern = "^[a-z]+$")]
    key: SecretString,
    #[secret]
    #[elicit(email)]
    mail: Option<SecretString>,
}

/// The names the generated bodies are built from: the form's, the
/// server's own, and strangers.
pub const BODY_NAMES: &[&str] = &[
    "name", "count", "ratio", "flag", "tags", "key", "mail", "csrf", "other", "",
];

/// Runs the oracle on one posted body.
pub fn check_page_body(data: &[u8]) {
    let body = match read_body::<BodyForm>(data, &["csrf"]) {
        Ok(body) => body,
        Err(
            BodyError::UnknownField { field }
            | BodyError::RepeatedField { field }
            | BodyError::NotUtf8 { field },
        ) => {
            // A name is cut to the echo limit (and its `…`).
            assert!(
                field.chars().count() <= super::limits::MAX_ECHOED_CHARS + 1,
                "{field}"
            );
            return;
        }
        Err(_) => return,
    };
    assert!(body.extra.keys().all(|k| k == "csrf"), "{:?}", body.extra);
    let schema = BodyForm::schema();
    for (name, value) in body.submission.values() {
        assert!(
            !BodyForm::SECRET_FIELDS.contains(&name.as_str()),
            "the secret `{name}` was read as a plain value"
        );
        let property = schema.properties.get(name).expect("a field of the form");
        match (property.type_name(), value) {
            ("array", Value::Array(items)) => {
                assert!(
                    !items.is_empty() && items.iter().all(Value::is_string),
                    "{value}"
                );
            }
            ("integer" | "number", Value::Number(_) | Value::String(_))
            | ("boolean", Value::Bool(_) | Value::String(_))
            | ("string", Value::String(_)) => {}
            (kind, value) => panic!("`{name}` ({kind}) read as {value}"),
        }
        assert_ne!(
            value,
            &Value::String(String::new()),
            "an empty value is no answer"
        );
    }
    if let Err(error) = BodyForm::from_submission(body.submission) {
        for e in error.errors() {
            if BodyForm::SECRET_FIELDS.contains(&e.field()) {
                assert!(
                    matches!(
                        e.kind(),
                        FieldErrorKind::Missing
                            | FieldErrorKind::TooShort { .. }
                            | FieldErrorKind::TooLong { .. }
                            | FieldErrorKind::PatternMismatch { .. }
                            | FieldErrorKind::InvalidFormat { .. }
                    ),
                    "a secret's error that may hold its value: {e:?}"
                );
            }
        }
    }
}
