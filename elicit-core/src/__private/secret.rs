//! A secret field's glue (feature `sensitive`): its property, and its value
//! checked by the engine without a copy that would outlive the check.

use secrecy::{ExposeSecret, SecretString};

use super::field::{Attrs, apply};
use crate::error::FieldErrorKind;
use crate::schema::{ElicitationSchema, PropertySchema, StringSchema};
use crate::sensitive::Submission;
use crate::{Content, FieldError};

/// What derived code does with a `#[secret]` field: `SecretString`, or an
/// `Option` of one.
#[diagnostic::on_unimplemented(
    message = "a `#[secret]` field is a `SecretString`, not `{Self}`",
    label = "the type of a `#[secret]` field",
    note = "use `elicit_core::sensitive::SecretString` (or `Option<SecretString>` for an optional secret): it is zeroized on drop and redacted in `Debug`, which `String` is not"
)]
pub trait SecretGlue: Sized {
    /// Whether the field must be answered.
    const REQUIRED: bool;

    /// Appends this field to a schema being built: a string property with
    /// the field's attributes.
    fn push(schema: &mut ElicitationSchema, name: &'static str, attrs: &Attrs) {
        let mut property = PropertySchema::String(StringSchema::new());
        apply(&mut property, attrs);
        if Self::REQUIRED {
            schema.required.push(name.to_owned());
        }
        schema.properties.push(name.to_owned(), property);
    }

    /// The field from a secret that passed its rules.
    fn from_secret(secret: SecretString) -> Self;

    /// The field when its secret is absent: `Some(None)` for an `Option`,
    /// `None` (missing) otherwise.
    fn absent() -> Option<Self>;

    /// The field from its submitted secret (`None`: absent), checked
    /// against the property at `*index`.
    fn take(
        entry: Option<SecretString>,
        schema: &ElicitationSchema,
        index: &mut usize,
        errors: &mut Vec<FieldError>,
    ) -> Option<Self> {
        match entry {
            Some(secret) => checked(secret, schema, index, errors).map(Self::from_secret),
            None => {
                let absent = Self::absent();
                let missing = absent.is_none().then_some(FieldErrorKind::Missing);
                skip(schema, index, errors, missing);
                absent
            }
        }
    }
}

impl SecretGlue for SecretString {
    const REQUIRED: bool = true;
    fn from_secret(secret: SecretString) -> Self {
        secret
    }
    fn absent() -> Option<Self> {
        None
    }
}

impl SecretGlue for Option<SecretString> {
    const REQUIRED: bool = false;
    fn from_secret(secret: SecretString) -> Self {
        Some(secret)
    }
    fn absent() -> Option<Self> {
        Some(None)
    }
}

/// The secret if it passes its property's rules; the error (which never
/// holds the text) otherwise.
fn checked(
    secret: SecretString,
    schema: &ElicitationSchema,
    index: &mut usize,
    errors: &mut Vec<FieldError>,
) -> Option<SecretString> {
    let (name, property) = schema.properties.get_index(*index)?;
    *index += 1;
    let result = match property {
        // A secret is free text: a select would echo it in its error.
        PropertySchema::String(s) if s.options.is_none() => {
            crate::rules::check_text(s, secret.expose_secret())
        }
        _ => Err(FieldErrorKind::Unvalidatable {
            reason: "a secret field's property is a free-text string".to_owned(),
        }),
    };
    match result {
        Ok(()) => Some(secret),
        Err(kind) => {
            errors.push(FieldError::new(name, kind));
            None
        }
    }
}

/// Moves past an absent field's property, recording `error` if any.
fn skip(
    schema: &ElicitationSchema,
    index: &mut usize,
    errors: &mut Vec<FieldError>,
    error: Option<FieldErrorKind>,
) {
    if let Some((name, _)) = schema.properties.get_index(*index) {
        *index += 1;
        if let Some(kind) = error {
            errors.push(FieldError::new(name, kind));
        }
    }
}

/// A submission's two parts, for derived `from_submission`.
pub fn submission_parts(
    submission: Submission,
) -> (Content, std::collections::BTreeMap<String, SecretString>) {
    (submission.values, submission.secrets)
}
