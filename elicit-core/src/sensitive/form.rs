//! A sensitive form: the typed value a page collects, secrets included.

use std::collections::BTreeMap;
use std::fmt;

use secrecy::SecretString;
use serde_json::Value;

use crate::{Content, ContentError, ElicitationSchema};

/// A form whose fields may be secrets, collected on a page the agent serves
/// (URL mode), never in form mode.
///
/// Derive it with `#[derive(Elicit)]` and `#[elicit(sensitive)]` on a
/// struct; mark each secret field `#[secret]` and give it the type
/// [`SecretString`] (or an `Option` of one). The other fields take every
/// form field type and attribute, and every field is checked by the same
/// engine as a form. A sensitive form does not implement
/// [`Elicit`](crate::Elicit), so sending it in form mode does not compile.
///
/// ```
/// use elicit_core::Elicit;
/// use elicit_core::sensitive::{ExposeSecret, SecretString, SensitiveForm, Submission};
///
/// #[derive(Elicit, Debug)]
/// #[elicit(sensitive)]
/// struct ApiKey {
///     /// The account the key belongs to.
///     account: String,
///     /// The key, from the provider's dashboard.
///     #[secret]
///     #[elicit(length(min = 20))]
///     key: SecretString,
/// }
///
/// assert_eq!(ApiKey::SECRET_FIELDS, ["key"]);
/// let submission = Submission::new()
///     .value("account", "acme".into())
///     .secret("key", SecretString::from("sk-0123456789abcdefghij"));
/// let key = ApiKey::from_submission(submission).unwrap();
/// assert_eq!(key.key.expose_secret(), "sk-0123456789abcdefghij");
/// // `Debug` never shows a secret.
/// assert!(!format!("{key:?}").contains("sk-"));
///
/// let short = Submission::new()
///     .value("account", "acme".into())
///     .secret("key", SecretString::from("sk-short"));
/// let error = ApiKey::from_submission(short).unwrap_err();
/// // The error names the field and the rule, never the value.
/// assert_eq!(error.to_string(), "invalid form content: `key` must be at least 20 characters, got 8");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a sensitive form",
    label = "not a sensitive form",
    note = "a sensitive form is a struct with `#[derive(Elicit)]` and `#[elicit(sensitive)]`, its secret fields `#[secret]` of type `elicit_core::sensitive::SecretString`"
)]
pub trait SensitiveForm: Sized {
    /// The wire names of the secret fields, in declaration order: the page
    /// shows them as password fields and never fills them in.
    const SECRET_FIELDS: &'static [&'static str];

    /// The page's schema: every field in declaration order, each secret a
    /// string property with its rules.
    fn schema() -> ElicitationSchema;

    /// Reads and validates a submission: every rule checked again (a
    /// browser's own checks count for nothing), every failing field
    /// collected. No error holds a secret.
    fn from_submission(submission: Submission) -> Result<Self, ContentError>;
}

/// What a page's submission holds, sorted by the page: the values of the
/// fields that are not secret, as form content, and the secrets, each as
/// its own [`SecretString`]. `Debug` shows the values and only the names of
/// the secrets.
#[derive(Default, Clone)]
pub struct Submission {
    pub(crate) values: Content,
    pub(crate) secrets: BTreeMap<String, SecretString>,
}

impl Submission {
    /// An empty submission.
    pub fn new() -> Self {
        Self::default()
    }

    /// The value of a field that is not secret.
    #[must_use]
    pub fn value(mut self, name: impl Into<String>, value: Value) -> Self {
        self.values.insert(name.into(), value);
        self
    }

    /// The value of a secret field.
    #[must_use]
    pub fn secret(mut self, name: impl Into<String>, value: SecretString) -> Self {
        self.secrets.insert(name.into(), value);
        self
    }

    /// The values of the fields that are not secret: what a page shows
    /// again after a rejected submission.
    pub fn values(&self) -> &Content {
        &self.values
    }

    /// The secrets, by field name: for a [`Store`](super::store::Store) that
    /// carries a submission to another process (encrypt them on the way).
    /// Rebuild the submission there with [`new`](Self::new),
    /// [`value`](Self::value) and [`secret`](Self::secret).
    pub fn secrets(&self) -> impl Iterator<Item = (&str, &SecretString)> {
        self.secrets
            .iter()
            .map(|(name, secret)| (name.as_str(), secret))
    }
}

impl fmt::Debug for Submission {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Submission")
            .field("values", &self.values)
            .field("secrets", &self.secrets.keys().collect::<Vec<_>>())
            .finish()
    }
}

/// Checks `submission` against `schema`, `secrets` naming the secret
/// properties: the page server's check, before the agent's typed one
/// ([`SensitiveForm::from_submission`]) runs the same rules again. Every
/// failing field is collected; no error holds a secret.
pub(crate) fn check_submission(
    schema: &ElicitationSchema,
    secrets: &[String],
    submission: &Submission,
) -> Result<(), ContentError> {
    use crate::FieldError;
    use crate::error::FieldErrorKind;
    use crate::schema::PropertySchema;
    use secrecy::ExposeSecret;

    let mut errors = Vec::new();
    for (name, property) in &schema.properties {
        let required = schema.is_required(name);
        let result = if secrets.iter().any(|s| s == name) {
            match (submission.secrets.get(name), property) {
                (None, _) if required => Err(FieldErrorKind::Missing),
                (None, _) => Ok(()),
                // A secret is free text: a select would echo it in its error.
                (Some(secret), PropertySchema::String(s)) if s.options.is_none() => {
                    crate::rules::check_text(s, secret.expose_secret())
                }
                (Some(_), _) => Err(FieldErrorKind::Unvalidatable {
                    reason: "a secret field's property is a free-text string".to_owned(),
                }),
            }
        } else {
            crate::rules::check_entry(&submission.values, name, property, required).map(|_| ())
        };
        if let Err(kind) = result {
            errors.push(FieldError::new(name, kind));
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(ContentError::new(errors))
    }
}
