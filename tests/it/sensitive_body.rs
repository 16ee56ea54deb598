//! Feature `sensitive`: `read_body`, what a page's POST holds, read strictly.
//! Each test is one rule and fails without it.

use crate::common::limits::{MAX_BODY_PAIRS, MAX_ECHOED_CHARS};
use elicit_core::sensitive::{
    BodyError, ExposeSecret, PostedBody, SecretString, SensitiveForm, read_body,
};
use elicit_core::{Elicit, FieldErrorKind};
use serde_json::json;

#[derive(Elicit, Debug, PartialEq)]
#[elicit(rename_all = "lowercase")]
enum Tag {
    A,
    B,
}

/// One field of each kind, and an optional secret.
#[derive(Elicit, Debug)]
#[elicit(sensitive)]
#[allow(dead_code)]
struct Kinds {
    name: String,
    replicas: Option<i64>,
    ratio: Option<f64>,
    notify: Option<bool>,
    tags: Option<Vec<Tag>>,
    #[secret]
    key: Option<SecretString>,
}

fn read(body: &[u8], extra: &[&str]) -> Result<PostedBody, BodyError> {
    read_body::<Kinds>(body, extra)
}

#[test]
fn values_are_decoded_and_typed_by_their_property() {
    let body = read(b"name=Ada+L%C3%B6velace&replicas=3&ratio=0.25&notify=false&tags=a&tags=b&key=s%3Dk%26y&csrf=t0k", &["csrf"])
    .unwrap();
    assert_eq!(
        serde_json::Value::Object(body.submission.values().clone()),
        json!({"name": "Ada Lövelace", "replicas": 3, "ratio": 0.25, "notify": false, "tags": ["a", "b"]})
    );
    assert_eq!(body.extra["csrf"], "t0k");
    // What is not its property's type stays a string, for the engine to refuse.
    let odd = read(b"replicas=1.5e1&notify=yes&ratio=inf", &[]).unwrap();
    assert_eq!(
        serde_json::Value::Object(odd.submission.values().clone()),
        json!({"replicas": 15.0, "notify": "yes", "ratio": "inf"})
    );
}

#[test]
fn a_field_given_twice_is_refused_but_a_multi_selects_boxes() {
    for body in [
        &b"name=a&name=b"[..],
        b"key=x&key=y",
        b"name=&name=b",
        b"replicas=1&replicas=1",
    ] {
        let error = read(body, &["csrf"]).unwrap_err();
        assert!(matches!(error, BodyError::RepeatedField { .. }), "{error}");
    }
    assert!(matches!(
        read(b"csrf=a&csrf=b", &["csrf"]).unwrap_err(),
        BodyError::RepeatedField { .. }
    ));
    let boxes = read(b"tags=a&name=x&tags=b", &[]).unwrap();
    assert_eq!(boxes.submission.values()["tags"], json!(["a", "b"]));
}

#[test]
fn a_field_the_page_does_not_post_is_refused_and_its_name_cut() {
    let long = "x".repeat(500);
    let error = read(long.as_bytes(), &[]).unwrap_err();
    let BodyError::UnknownField { field } = &error else {
        panic!("{error}");
    };
    assert_eq!(field.chars().count(), MAX_ECHOED_CHARS + 1, "{field}");
    assert!(field.ends_with('…'));
}

#[test]
fn bad_escapes_and_invalid_utf8_are_refused_without_the_value() {
    for body in [&b"name=%zz"[..], b"name=%4", b"na%g0me=x"] {
        assert_eq!(read(body, &[]).unwrap_err(), BodyError::BadPercentEncoding);
    }
    let error = read(b"key=%ff%fe-secret-part", &[]).unwrap_err();
    assert_eq!(
        error,
        BodyError::NotUtf8 {
            field: "key".into()
        }
    );
    assert!(!error.to_string().contains("secret-part"));
    assert_eq!(
        read(b"%ff=1", &[]).unwrap_err(),
        BodyError::NotUtf8 { field: "?".into() }
    );
}

#[test]
fn an_empty_value_is_no_answer() {
    let body = read(b"name=&key=&tags=&replicas=", &[]).unwrap();
    assert!(body.submission.values().is_empty(), "{:?}", body.submission);
    assert!(!format!("{:?}", body.submission).contains("\"key\""));
}

#[test]
fn too_many_fields_are_refused() {
    let body = "tags=a&".repeat(MAX_BODY_PAIRS + 1);
    assert_eq!(
        read(body.as_bytes(), &[]).unwrap_err(),
        BodyError::TooManyPairs {
            max: MAX_BODY_PAIRS
        }
    );
    let just = "tags=a&".repeat(MAX_BODY_PAIRS);
    assert!(read(just.as_bytes(), &[]).is_ok());
}

/// Deploy credentials, as a page posts them.
#[derive(Elicit, Debug)]
#[elicit(sensitive)]
struct Deploy {
    #[elicit(range(min = 1, max = 16))]
    replicas: u8,
    #[secret]
    #[elicit(length(min = 12))]
    token: SecretString,
}

#[test]
fn a_posted_body_reads_into_the_sensitive_form() {
    let posted = read_body::<Deploy>(b"replicas=4&token=tok-0123456789&csrf=x", &["csrf"]).unwrap();
    let deploy = Deploy::from_submission(posted.submission).unwrap();
    assert_eq!(deploy.replicas, 4);
    assert_eq!(deploy.token.expose_secret(), "tok-0123456789");

    // A number field sent as text the browser would not send, and a short
    // secret: the engine's errors, every field, no value of the secret.
    let posted = read_body::<Deploy>(b"replicas=many&token=tok-short", &[]).unwrap();
    let error = Deploy::from_submission(posted.submission).unwrap_err();
    let kinds: Vec<_> = error
        .errors()
        .iter()
        .map(|e| (e.field(), e.kind().clone()))
        .collect();
    assert!(
        matches!(kinds[0], ("replicas", FieldErrorKind::WrongType { .. })),
        "{kinds:?}"
    );
    assert_eq!(
        kinds[1],
        (
            "token",
            FieldErrorKind::TooShort {
                min_length: 12,
                length: 9
            }
        )
    );
    assert!(!format!("{error:?}").contains("tok-short"));
}

mod generated {
    use proptest::prelude::*;

    use crate::common::page_body::{BODY_NAMES, check_page_body};

    /// A body built from the form's names, `=`, `&`, escapes good and bad,
    /// and raw bytes: mostly near what a page posts, sometimes far from it.
    fn body() -> impl Strategy<Value = Vec<u8>> {
        let piece = prop_oneof![
            4 => proptest::sample::select(BODY_NAMES).prop_map(|n| n.as_bytes().to_vec()),
            3 => proptest::sample::select(&[
                "=", "&", "+", "%", "%2", "%41", "%zz", "%ff", "%C3%A9", "a", "b", "abc", "x@y.z",
                "3", "-1", "1e3", "true", "no", "",
            ][..])
            .prop_map(|s| s.as_bytes().to_vec()),
            1 => proptest::collection::vec(any::<u8>(), 0..4),
        ];
        proptest::collection::vec(piece, 0..24).prop_map(|pieces| pieces.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4096))]

        /// The oracle of `fuzz/fuzz_targets/page_body.rs`, on stable.
        #[test]
        fn every_body_keeps_the_page_rules(data in body()) {
            check_page_body(&data);
        }
    }
}
