//! Patterns from a peer are untrusted: one too long or too big to compile is
//! refused by `ElicitationSchema::check()` as a `SchemaError` (and makes the
//! field unvalidatable, never "valid"), and none of it can hang: the engine
//! is linear-time and compilation is bounded. (How validation time grows
//! with input length is measured in `benches/runtime.rs`, not asserted.)

use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use crate::common::limits::MAX_PATTERN_LEN;
use elicit_core::{ElicitationSchema, FieldErrorKind, SchemaErrorKind, StringSchema};
use serde_json::json;

/// Far beyond what any of these takes (milliseconds); only a hang reaches it.
const DEADLINE: Duration = Duration::from_secs(60);

/// Runs `f` on another thread and fails the test if it does not finish
/// before the deadline.
fn within_deadline<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        // The receiver may have given up; then nobody needs the result.
        let _ = tx.send(f());
    });
    rx.recv_timeout(DEADLINE)
        .unwrap_or_else(|_| panic!("{what} did not finish within {DEADLINE:?}"))
}

/// A schema read from the wire with one required string property `text`.
fn wire_schema(pattern: &str) -> ElicitationSchema {
    serde_json::from_value(json!({
        "type": "object",
        "properties": {"text": {"type": "string", "pattern": pattern}},
        "required": ["text"],
    }))
    .expect("a well-formed schema parses; the pattern is judged by check()")
}

/// The single issue `check()` reports for `schema`.
fn only_issue(schema: &ElicitationSchema) -> SchemaErrorKind {
    let err = schema.check().expect_err("the pattern must be refused");
    assert_eq!(err.issues().len(), 1, "{err}");
    let issue = &err.issues()[0];
    assert_eq!(issue.property(), Some("text"), "{err}");
    issue.kind().clone()
}

#[test]
fn a_pattern_longer_than_the_limit_is_refused() {
    let pattern = "a".repeat(MAX_PATTERN_LEN + 1);
    let schema = wire_schema(&pattern);
    let kind = within_deadline("check() of an oversized pattern", move || {
        only_issue(&schema)
    });
    assert_eq!(
        kind,
        SchemaErrorKind::PatternTooLong {
            len: MAX_PATTERN_LEN + 1,
            max: MAX_PATTERN_LEN,
        }
    );
    assert_eq!(
        kind.to_string(),
        format!(
            "has a pattern of {} bytes; the limit is {MAX_PATTERN_LEN}",
            MAX_PATTERN_LEN + 1
        )
    );
}

#[test]
fn a_pattern_at_the_length_limit_is_accepted() {
    let schema = wire_schema(&"a".repeat(MAX_PATTERN_LEN));
    assert_eq!(schema.check(), Ok(()));
}

#[test]
fn a_pattern_over_the_compiled_size_limit_is_refused() {
    // 17 bytes of source, a million states once compiled.
    let pattern = "(?:a{1000}){1000}";
    assert!(pattern.len() <= MAX_PATTERN_LEN);
    let schema = wire_schema(pattern);
    let kind = within_deadline("check() of a pattern over the size limit", move || {
        only_issue(&schema)
    });
    match kind {
        SchemaErrorKind::InvalidPattern { pattern: p, reason } => {
            assert_eq!(p, pattern);
            assert!(
                reason.contains("the compiled pattern exceeds the size limit of"),
                "{reason}"
            );
        }
        other => panic!("expected InvalidPattern, got {other:?}"),
    }
}

#[test]
fn a_pattern_nested_too_deep_is_refused() {
    let pattern = format!("{}a{}", "(".repeat(100), ")".repeat(100));
    let schema = wire_schema(&pattern);
    let kind = within_deadline("check() of a deeply nested pattern", move || {
        only_issue(&schema)
    });
    assert!(
        matches!(&kind, SchemaErrorKind::InvalidPattern { pattern: p, .. } if *p == pattern),
        "{kind:?}"
    );
}

#[test]
fn content_for_a_refused_pattern_is_unvalidatable_not_valid() {
    for pattern in [
        "a".repeat(MAX_PATTERN_LEN + 1),
        "(?:a{1000}){1000}".to_owned(),
    ] {
        let schema = ElicitationSchema::new().property(
            "text",
            StringSchema::new().pattern(pattern.as_str()),
            true,
        );
        assert!(schema.check().is_err());
        let content = json!({"text": "aaaa"});
        let err = within_deadline("validate() with a refused pattern", move || {
            schema
                .validate(content.as_object().expect("an object"))
                .expect_err("a refused pattern accepts nothing")
        });
        assert_eq!(err.errors().len(), 1, "{err}");
        assert_eq!(err.errors()[0].field(), "text");
        assert!(
            matches!(err.errors()[0].kind(), FieldErrorKind::Unvalidatable { .. }),
            "{err}"
        );
    }
}

#[test]
fn nested_quantifiers_on_a_long_input_finish_with_a_verdict() {
    // Catastrophic for a backtracking engine (2^n paths); linear here.
    let long = "a".repeat(100_000);
    for (pattern, text, matches) in [
        ("^(a+)+$", format!("{long}!"), false),
        ("^(a+)+$", long.clone(), true),
        ("(a|aa)*b", long.clone(), false),
        ("(a|aa)*b", format!("{long}b"), true),
        ("^(a|a?)+$", format!("{long}!"), false),
    ] {
        let schema = wire_schema(pattern);
        assert_eq!(schema.check(), Ok(()), "{pattern}");
        let verdict = within_deadline(pattern, move || {
            schema
                .validate(json!({ "text": text }).as_object().expect("an object"))
                .map_err(|e| e.errors()[0].kind().clone())
        });
        match verdict {
            Ok(()) => assert!(matches, "{pattern} accepted a non-matching input"),
            Err(FieldErrorKind::PatternMismatch { pattern: p }) => {
                assert!(!matches, "{pattern} refused a matching input");
                assert_eq!(p, pattern);
            }
            Err(other) => panic!("{pattern}: unexpected {other:?}"),
        }
    }
}
