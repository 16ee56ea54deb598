//! Feature `sensitive`: a sensitive form, `#[derive(Elicit)]` with
//! `#[elicit(sensitive)]`: its page schema, and a submission read back with
//! every rule checked and no secret in any error or `Debug` output.

use elicit_core::sensitive::{ExposeSecret, SecretString, SensitiveForm, Submission};
use elicit_core::{Elicit, FieldErrorKind};
use serde_json::json;

#[derive(Elicit, Debug, Clone, Copy, PartialEq)]
#[elicit(rename_all = "lowercase")]
enum Provider {
    Acme,
    Globex,
}

/// Connect a deployment provider.
#[derive(Elicit, Debug)]
#[elicit(sensitive)]
struct Connect {
    /// Which provider.
    provider: Provider,
    /// The account name.
    #[elicit(length(min = 2))]
    account: String,
    /// The API key, from the provider's dashboard.
    #[secret]
    #[elicit(length(min = 20, max = 64), pattern = "^sk-")]
    api_key: SecretString,
    /// A second factor, if the account has one.
    #[secret]
    #[elicit(length(min = 6, max = 6))]
    otp: Option<SecretString>,
    #[elicit(range(min = 1, max = 16), default = 2)]
    replicas: u8,
}

const KEY: &str = "sk-0123456789abcdefghijKLMN";

fn valid() -> Submission {
    Submission::new()
        .value("provider", json!("acme"))
        .value("account", json!("ops"))
        .secret("api_key", SecretString::from(KEY))
}

#[test]
fn the_page_schema_lists_every_field_secrets_as_text_with_their_rules() {
    assert_eq!(Connect::SECRET_FIELDS, ["api_key", "otp"]);
    let schema = serde_json::to_value(Connect::schema()).unwrap();
    assert_eq!(
        schema,
        json!({
            "type": "object",
            "description": "Connect a deployment provider.",
            "properties": {
                "provider": {"type": "string", "description": "Which provider.", "enum": ["acme", "globex"]},
                "account": {"type": "string", "description": "The account name.", "minLength": 2},
                "api_key": {"type": "string", "description": "The API key, from the provider's dashboard.",
                            "minLength": 20, "maxLength": 64, "pattern": "^sk-"},
                "otp": {"type": "string", "description": "A second factor, if the account has one.",
                        "minLength": 6, "maxLength": 6},
                "replicas": {"type": "integer", "minimum": 1, "maximum": 16, "default": 2}
            },
            "required": ["provider", "account", "api_key"]
        })
    );
    // The same restricted schema a form has: the one engine accepts it.
    Connect::schema().check().unwrap();
}

#[test]
fn a_valid_submission_reads_into_the_struct() {
    let connect = Connect::from_submission(valid()).unwrap();
    assert_eq!(connect.provider, Provider::Acme);
    assert_eq!(connect.account, "ops");
    assert_eq!(connect.api_key.expose_secret(), KEY);
    assert!(connect.otp.is_none());
    // The default fills an absent field.
    assert_eq!(connect.replicas, 2);

    let with_otp =
        Connect::from_submission(valid().secret("otp", SecretString::from("123456"))).unwrap();
    assert_eq!(with_otp.otp.unwrap().expose_secret(), "123456");
}

#[test]
fn every_broken_rule_is_reported_and_no_error_holds_a_secret() {
    let bad_key = "pk-live-THIS-IS-THE-SECRET";
    let submission = Submission::new()
        .value("provider", json!("initech"))
        .value("account", json!("x"))
        .value("replicas", json!(40))
        .secret("api_key", SecretString::from(bad_key))
        .secret("otp", SecretString::from("12345"));
    let error = Connect::from_submission(submission).unwrap_err();
    let kinds: Vec<(&str, &FieldErrorKind)> = error
        .errors()
        .iter()
        .map(|e| (e.field(), e.kind()))
        .collect();
    assert_eq!(
        kinds.iter().map(|(f, _)| *f).collect::<Vec<_>>(),
        ["provider", "account", "api_key", "otp", "replicas"]
    );
    assert!(matches!(kinds[2].1, FieldErrorKind::PatternMismatch { .. }));
    assert!(matches!(
        kinds[3].1,
        FieldErrorKind::TooShort {
            min_length: 6,
            length: 5
        }
    ));
    let text = format!("{error} {error:?}");
    assert!(!text.contains(bad_key), "{text}");
    assert!(!text.contains("12345"), "{text}");
    // The non-secret value that broke its rule is named (it is no secret).
    assert!(text.contains("initech"), "{text}");
}

#[test]
fn a_missing_secret_is_missing_and_an_optional_one_is_none() {
    let submission = Submission::new()
        .value("provider", json!("globex"))
        .value("account", json!("ops"));
    let error = Connect::from_submission(submission).unwrap_err();
    assert_eq!(error.errors().len(), 1);
    assert_eq!(error.errors()[0].field(), "api_key");
    assert_eq!(error.errors()[0].kind(), &FieldErrorKind::Missing);
}

#[test]
fn debug_output_shows_no_secret() {
    let connect =
        Connect::from_submission(valid().secret("otp", SecretString::from("654321"))).unwrap();
    let debug = format!("{connect:?}");
    assert!(!debug.contains(KEY), "{debug}");
    assert!(!debug.contains("654321"), "{debug}");
    assert!(debug.contains("ops"), "{debug}");
    let submission = valid();
    let debug = format!("{submission:?}");
    assert!(!debug.contains(KEY), "{debug}");
    assert!(debug.contains("api_key"), "{debug}");
}

/// A sensitive form may have no secret yet: it still is never a form.
#[derive(Elicit, Debug)]
#[elicit(sensitive)]
struct NoSecret {
    account: String,
}

#[test]
fn a_sensitive_form_without_secrets_reads_its_values() {
    assert!(NoSecret::SECRET_FIELDS.is_empty());
    let read = NoSecret::from_submission(Submission::new().value("account", json!("ops"))).unwrap();
    assert_eq!(read.account, "ops");
}
