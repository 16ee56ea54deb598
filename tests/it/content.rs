//! Accepted content: bad content is rejected by `from_content` with every
//! failing field named by its wire name, in form order, with the rule it broke;
//! the schema's own `validate` (the same engine, as a client or an agent
//! holding only the wire schema would run it) agrees except for what only the
//! Rust type knows. Good content parses to the expected values.

use std::collections::{BTreeSet, HashSet};
use std::fmt::Debug;
use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::common::*;
use elicit_core::format::Format;
use elicit_core::{
    Content, ContentError, Elicit, ElicitationSchema, FieldError, FieldErrorKind, JsonKind, Num,
};
use serde_json::{Value, json};

// ---------------------------------------------------------------------------
// Local forms, for rules the shared types do not isolate.

/// `f32` fields with no schema bound: only the Rust type knows their range.
#[derive(Elicit, Debug, Clone, PartialEq)]
struct Gauge {
    level: f32,
    backup: Option<f32>,
}

/// Short lengths (so multi-byte characters decide the verdict) and a pattern
/// that is searched for, not anchored.
#[derive(Elicit, Debug, Clone, PartialEq)]
struct Code {
    #[elicit(length(min = 3, max = 4))]
    code: String,
    #[elicit(pattern = "[0-9]")]
    with_digit: Option<String>,
}

/// A form flattened into another: its fields sit between the outer ones.
#[derive(Elicit, Debug, Clone, PartialEq)]
struct Inner {
    #[elicit(range(max = 10))]
    depth: u8,
    label: String,
}

#[derive(Elicit, Debug, Clone, PartialEq)]
struct Outer {
    first: bool,
    #[elicit(flatten)]
    inner: Inner,
    last: Strategy,
}

// ---------------------------------------------------------------------------
// Helpers.

/// The content object of a `json!` literal.
fn obj(value: &Value) -> &Content {
    value
        .as_object()
        .expect("test content is written as a JSON object")
}

/// `base` with the keys of `overrides` set (in place if already present).
fn with(base: Value, overrides: Value) -> Value {
    let (Value::Object(mut base), Value::Object(overrides)) = (base, overrides) else {
        panic!("`with` takes two JSON objects");
    };
    for (key, value) in overrides {
        base.insert(key, value);
    }
    Value::Object(base)
}

/// Parses `content` into `T`, failing the test with the error if it is
/// refused. The owned entry point must give the same value.
fn parse<T: Elicit + Debug>(content: &Value) -> T {
    let value = T::from_content(obj(content))
        .unwrap_or_else(|e| panic!("{} refused {content}: {e}", std::any::type_name::<T>()));
    let owned = T::from_content_owned(obj(content).clone()).unwrap_or_else(|e| {
        panic!(
            "{} refused {content} when owned: {e}",
            std::any::type_name::<T>()
        )
    });
    assert_eq!(
        format!("{owned:?}"),
        format!("{value:?}"),
        "from_content_owned disagrees with from_content on {content}"
    );
    value
}

/// The error `T` reports for `content`, failing the test if it accepts it.
fn refuse<T: Elicit + Debug>(content: &Value) -> ContentError {
    match T::from_content(obj(content)) {
        Ok(value) => panic!(
            "{} accepted {content} as {value:?}",
            std::any::type_name::<T>()
        ),
        Err(e) => e,
    }
}

const STRATEGIES: &[&str] = &["conservative", "balanced", "aggressive"];
const ENVIRONMENTS: &[&str] = &["staging", "production", "dev"];

fn wrong(expected: &'static str, found: JsonKind) -> FieldErrorKind {
    FieldErrorKind::WrongType { expected, found }
}

fn above(maximum: i128, value: i128) -> FieldErrorKind {
    FieldErrorKind::AboveMaximum {
        maximum: Num::Int(maximum),
        value: Num::Int(value),
    }
}

fn below(minimum: i128, value: i128) -> FieldErrorKind {
    FieldErrorKind::BelowMinimum {
        minimum: Num::Int(minimum),
        value: Num::Int(value),
    }
}

fn above_f(maximum: f64, value: f64) -> FieldErrorKind {
    FieldErrorKind::AboveMaximum {
        maximum: Num::Float(maximum),
        value: Num::Float(value),
    }
}

fn below_f(minimum: f64, value: f64) -> FieldErrorKind {
    FieldErrorKind::BelowMinimum {
        minimum: Num::Float(minimum),
        value: Num::Float(value),
    }
}

fn not_an_option(value: &str, allowed: &[&str]) -> FieldErrorKind {
    FieldErrorKind::NotAnOption {
        value: value.to_owned(),
        allowed: allowed.iter().map(|s| (*s).to_owned()).collect(),
    }
}

fn too_short(min_length: u32, length: usize) -> FieldErrorKind {
    FieldErrorKind::TooShort { min_length, length }
}

fn too_long(max_length: u32, length: usize) -> FieldErrorKind {
    FieldErrorKind::TooLong { max_length, length }
}

fn pattern(source: &str) -> FieldErrorKind {
    FieldErrorKind::PatternMismatch {
        pattern: source.to_owned(),
    }
}

fn format(format: Format) -> FieldErrorKind {
    FieldErrorKind::InvalidFormat { format }
}

fn out_of_type(rust_type: &'static str, value: f64) -> FieldErrorKind {
    FieldErrorKind::OutOfTypeRange {
        rust_type,
        value: Num::Float(value),
    }
}

const HANDLE: &str = "^[a-z][a-z0-9_]*$";

/// A valid `Profile`, to break one field at a time.
fn valid_profile() -> Value {
    json!({"name": "Ada", "handle": "ada", "email": "ada@example.com"})
}

/// A valid `Integers`, to break one field at a time.
fn valid_integers() -> Value {
    json!({
        "a_i8": 0, "a_i16": 0, "a_i32": 0, "a_i64": 0, "a_u8": 0,
        "a_u16": 0, "a_u32": 0, "a_u64": 0, "a_isize": 0, "a_usize": 1
    })
}

/// A valid `MultiSelects`, to break one field at a time.
fn valid_multi() -> Value {
    json!({"strategies": ["balanced"], "any_of": []})
}

// ---------------------------------------------------------------------------
// The table of bad contents.

/// A form type, erased so rows of different types share one table.
struct Form {
    name: &'static str,
    parse: fn(&Content) -> Result<String, ContentError>,
    parse_owned: fn(Content) -> Result<String, ContentError>,
    schema: fn() -> ElicitationSchema,
}

fn form<T: Elicit + Debug>() -> Form {
    Form {
        name: std::any::type_name::<T>(),
        parse: |content| T::from_content(content).map(|value| format!("{value:?}")),
        parse_owned: |content| T::from_content_owned(content).map(|value| format!("{value:?}")),
        schema: T::schema,
    }
}

/// What the wire schema's `validate` says about a row's content.
enum Wire {
    /// Exactly the same errors as `from_content`.
    Same,
    /// Only these fields fail (none: it accepts), each with the same error as
    /// `from_content` gives it. The rest are rules the wire schema cannot
    /// express: the Rust type's own range, `deny_unknown_fields`.
    Only(Vec<&'static str>),
}

struct Row {
    name: &'static str,
    form: Form,
    content: Value,
    expected: Vec<(&'static str, FieldErrorKind)>,
    wire: Wire,
}

fn row(
    name: &'static str,
    form: Form,
    content: Value,
    expected: Vec<(&'static str, FieldErrorKind)>,
) -> Row {
    Row {
        name,
        form,
        content,
        expected,
        wire: Wire::Same,
    }
}

impl Row {
    /// The wire schema reports only `fields`.
    fn wire_only(mut self, fields: Vec<&'static str>) -> Self {
        self.wire = Wire::Only(fields);
        self
    }
}

fn names(errors: &[FieldError]) -> Vec<&str> {
    errors.iter().map(FieldError::field).collect()
}

fn check_row(row: &Row) {
    let content = obj(&row.content);
    let err = match (row.form.parse)(content) {
        Ok(value) => panic!("{} accepted {} as {value}", row.form.name, row.content),
        Err(err) => err,
    };
    // The owned entry point reports exactly the same errors.
    match (row.form.parse_owned)(content.clone()) {
        Ok(value) => panic!(
            "{} accepted {} as {value} when owned",
            row.form.name, row.content
        ),
        Err(owned) => assert_eq!(owned, err, "from_content_owned disagrees"),
    }
    let expected_names: Vec<&str> = row.expected.iter().map(|(name, _)| *name).collect();
    assert_eq!(
        err.fields().collect::<Vec<_>>(),
        expected_names,
        "from_content: failing fields of {} ({err})",
        row.content
    );
    let expected: Vec<FieldError> = row
        .expected
        .iter()
        .map(|(name, kind)| FieldError::new(*name, kind.clone()))
        .collect();
    assert_eq!(
        err.errors(),
        expected.as_slice(),
        "from_content: kinds ({err})"
    );
    // The message names every failing field by its wire name.
    let message = err.to_string();
    assert!(
        message.starts_with("invalid form content: "),
        "message: {message}"
    );
    for (name, _) in &row.expected {
        assert!(
            message.contains(&format!("`{name}`")),
            "message lacks `{name}`: {message}"
        );
    }

    let schema = (row.form.schema)();
    let verdict = schema.validate(content);
    match &row.wire {
        Wire::Same => {
            let wire = verdict.expect_err("validate accepted what from_content refuses");
            assert_eq!(wire, err, "validate disagrees with from_content");
        }
        Wire::Only(fields) if fields.is_empty() => {
            if let Err(wire) = verdict {
                panic!("validate should accept (a Rust-only rule), but says: {wire}");
            }
        }
        Wire::Only(fields) => {
            let wire = verdict.expect_err("validate accepted, expected some fields to fail");
            assert_eq!(
                names(wire.errors()),
                *fields,
                "validate: failing fields ({wire})"
            );
            for e in wire.errors() {
                assert!(
                    err.errors().contains(e),
                    "validate's `{e}` is not among from_content's ({err})"
                );
            }
        }
    }
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else {
        "a panic with a non-string payload".to_owned()
    }
}

#[allow(clippy::too_many_lines)]
fn bad_rows() -> Vec<Row> {
    use JsonKind as K;
    vec![
        // --- wrong JSON type, for each kind of field ---
        row(
            "string: integer given",
            form::<Profile>(),
            with(valid_profile(), json!({"name": 42})),
            vec![("name", wrong("a string", K::Integer))],
        ),
        row(
            "string: boolean given",
            form::<Renamed>(),
            json!({"firstName": true, "surname": "Lovelace", "yearsOfAge": 36}),
            vec![("firstName", wrong("a string", K::Boolean))],
        ),
        row(
            "boolean: string given",
            form::<Deploy>(),
            json!({"env": "staging", "notify": "true"}),
            vec![("notify", wrong("a boolean", K::String))],
        ),
        row(
            "boolean: integer given",
            form::<Reexported>(),
            json!({"question": "Why?", "answer": 1}),
            vec![("answer", wrong("a boolean", K::Integer))],
        ),
        row(
            "integer: string given",
            form::<Deploy>(),
            json!({"env": "staging", "replicas": "3"}),
            vec![("replicas", wrong("an integer", K::String))],
        ),
        row(
            "integer: boolean given",
            form::<Integers>(),
            with(valid_integers(), json!({"a_u32": false})),
            vec![("a_u32", wrong("an integer", K::Boolean))],
        ),
        row(
            "number: boolean given",
            form::<Numbers>(),
            json!({"temperature": true, "percent": 5}),
            vec![("temperature", wrong("a number", K::Boolean))],
        ),
        row(
            "number: string given",
            form::<Numbers>(),
            json!({"temperature": 20, "percent": "50"}),
            vec![("percent", wrong("a number", K::String))],
        ),
        row(
            "select: integer given",
            form::<Refactor>(),
            json!({"strategy": 1}),
            vec![("strategy", wrong("a string", K::Integer))],
        ),
        row(
            "multi-select: string given instead of an array",
            form::<MultiSelects>(),
            with(valid_multi(), json!({"strategies": "balanced"})),
            vec![("strategies", wrong("an array of strings", K::String))],
        ),
        row(
            "multi-select: a non-string item",
            form::<MultiSelects>(),
            with(valid_multi(), json!({"strategies": ["balanced", 2]})),
            vec![(
                "strategies",
                FieldErrorKind::WrongItemType { found: K::Integer },
            )],
        ),
        // --- missing / null ---
        row(
            "required select absent",
            form::<Refactor>(),
            json!({}),
            vec![("strategy", FieldErrorKind::Missing)],
        ),
        row(
            "required select null",
            form::<Refactor>(),
            json!({"strategy": null}),
            vec![("strategy", FieldErrorKind::Missing)],
        ),
        row(
            "required string null, others absent",
            form::<Profile>(),
            json!({"name": null, "homepage": "https://example.com"}),
            vec![
                ("name", FieldErrorKind::Missing),
                ("handle", FieldErrorKind::Missing),
                ("email", FieldErrorKind::Missing),
            ],
        ),
        row(
            "required integer and boolean null",
            form::<SerdeRenamed>(),
            json!({"MAX_RETRIES": null, "dryRun": null}),
            vec![
                ("MAX_RETRIES", FieldErrorKind::Missing),
                ("dryRun", FieldErrorKind::Missing),
            ],
        ),
        row(
            "rust field names are not wire names",
            form::<Renamed>(),
            json!({"first_name": "Ada", "last_name": "Lovelace", "age": 36}),
            vec![
                ("firstName", FieldErrorKind::Missing),
                ("surname", FieldErrorKind::Missing),
                ("yearsOfAge", FieldErrorKind::Missing),
            ],
        ),
        // --- the schema's range ---
        row(
            "integer above range(max)",
            form::<Deploy>(),
            json!({"env": "staging", "replicas": 300}),
            vec![("replicas", above(16, 300))],
        ),
        row(
            "integer below range(min)",
            form::<Deploy>(),
            json!({"env": "staging", "replicas": 0}),
            vec![("replicas", below(1, 0))],
        ),
        row(
            "integer below range(min) on a usize",
            form::<Integers>(),
            with(valid_integers(), json!({"a_usize": 0})),
            vec![("a_usize", below(1, 0))],
        ),
        row(
            "number below a float minimum",
            form::<Numbers>(),
            json!({"temperature": -300, "percent": 50}),
            vec![("temperature", below_f(-273.15, -300.0))],
        ),
        row(
            "number above an integer-written maximum",
            form::<Numbers>(),
            json!({"temperature": 20, "percent": 100.5}),
            vec![("percent", above_f(100.0, 100.5))],
        ),
        row(
            "f32 above its range(max)",
            form::<Numbers>(),
            json!({"ratio": 1.5, "temperature": 20, "percent": 1}),
            vec![("ratio", above_f(1.0, 1.5))],
        ),
        // --- the Rust type's own range (carried by the schema as bounds) ---
        row(
            "256 for u8",
            form::<Integers>(),
            with(valid_integers(), json!({"a_u8": 256})),
            vec![("a_u8", above(255, 256))],
        ),
        row(
            "-1 for u32",
            form::<Integers>(),
            with(valid_integers(), json!({"a_u32": -1})),
            vec![("a_u32", below(0, -1))],
        ),
        row(
            "-1 for an Option<u32>",
            form::<Optionals>(),
            json!({"count": -1}),
            vec![("count", below(0, -1))],
        ),
        row(
            "-129 for i8",
            form::<Integers>(),
            with(valid_integers(), json!({"a_i8": -129})),
            vec![("a_i8", below(-128, -129))],
        ),
        row(
            "i64::MAX + 1 for u64 (the wire is i64)",
            form::<Integers>(),
            with(
                valid_integers(),
                json!({"a_u64": 9_223_372_036_854_775_808_u64}),
            ),
            vec![("a_u64", above(i128::from(i64::MAX), 1 << 63))],
        ),
        row(
            "u64::MAX for i64",
            form::<Integers>(),
            with(valid_integers(), json!({"a_i64": u64::MAX})),
            vec![("a_i64", above(i128::from(i64::MAX), i128::from(u64::MAX)))],
        ),
        row(
            "1e39 for f32 (no schema bound)",
            form::<Gauge>(),
            json!({"level": 1e39}),
            vec![("level", out_of_type("f32", 1e39))],
        )
        .wire_only(vec![]),
        row(
            "-1e39 for an Option<f32>",
            form::<Gauge>(),
            json!({"level": 0.5, "backup": -1e39}),
            vec![("backup", out_of_type("f32", -1e39))],
        )
        .wire_only(vec![]),
        row(
            "1e39 for i64: whole but beyond any integer",
            form::<Integers>(),
            with(valid_integers(), json!({"a_i64": 1e39})),
            vec![("a_i64", out_of_type("a 64-bit integer", 1e39))],
        ),
        row(
            "1e19 (whole float) for i64",
            form::<Integers>(),
            with(valid_integers(), json!({"a_i64": 1e19})),
            vec![(
                "a_i64",
                above(i128::from(i64::MAX), 10_000_000_000_000_000_000),
            )],
        ),
        // --- integers with a fraction ---
        row(
            "2.5 for an integer",
            form::<Integers>(),
            with(valid_integers(), json!({"a_i16": 2.5})),
            vec![("a_i16", FieldErrorKind::NotAnInteger { value: 2.5 })],
        ),
        row(
            "0.5 for an Option<u32>",
            form::<Optionals>(),
            json!({"count": 0.5}),
            vec![("count", FieldErrorKind::NotAnInteger { value: 0.5 })],
        ),
        // --- lengths, in characters ---
        row(
            "too short: one 2-byte char (2 bytes would pass min 2)",
            form::<Profile>(),
            with(valid_profile(), json!({"name": "é"})),
            vec![("name", too_short(2, 1))],
        ),
        row(
            "too short: two 4-byte emoji (8 bytes, 4 UTF-16 units would pass min 3)",
            form::<Code>(),
            json!({"code": "🎉🎉"}),
            vec![("code", too_short(3, 2))],
        ),
        row(
            "too long: 21 two-byte chars reports 21, not 42",
            form::<Profile>(),
            with(valid_profile(), json!({"name": "é".repeat(21)})),
            vec![("name", too_long(20, 21))],
        ),
        row(
            "too long: five emoji reports 5, not 20",
            form::<Code>(),
            json!({"code": "🎉🎉🎉🎉🎉"}),
            vec![("code", too_long(4, 5))],
        ),
        row(
            "empty string for a min length",
            form::<Profile>(),
            with(valid_profile(), json!({"name": ""})),
            vec![("name", too_short(2, 0))],
        ),
        // --- pattern ---
        row(
            "pattern miss (uppercase start)",
            form::<Profile>(),
            with(valid_profile(), json!({"handle": "Ada"})),
            vec![("handle", pattern(HANDLE))],
        ),
        row(
            "pattern miss (unanchored pattern, no digit anywhere)",
            form::<Code>(),
            json!({"code": "abc", "with_digit": "abc"}),
            vec![("with_digit", pattern("[0-9]"))],
        ),
        // --- formats ---
        row(
            "email without @",
            form::<Profile>(),
            with(valid_profile(), json!({"email": "ada.example.com"})),
            vec![("email", format(Format::Email))],
        ),
        row(
            "email with two @",
            form::<Profile>(),
            with(
                valid_profile(),
                json!({"email": "ada@lovelace@example.com"}),
            ),
            vec![("email", format(Format::Email))],
        ),
        row(
            "uri without a scheme",
            form::<Profile>(),
            with(valid_profile(), json!({"homepage": "www.example.com/ada"})),
            vec![("homepage", format(Format::Uri))],
        ),
        row(
            "date: 29 February of a common year",
            form::<Profile>(),
            with(valid_profile(), json!({"birthday": "2023-02-29"})),
            vec![("birthday", format(Format::Date))],
        ),
        row(
            "date-time with a space separator",
            form::<Profile>(),
            with(
                valid_profile(),
                json!({"callback_at": "2024-05-01 10:00:00Z"}),
            ),
            vec![("callback_at", format(Format::DateTime))],
        ),
        row(
            "date-time without a zone",
            form::<Profile>(),
            with(
                valid_profile(),
                json!({"callback_at": "2024-05-01T10:00:00"}),
            ),
            vec![("callback_at", format(Format::DateTime))],
        ),
        // --- selects ---
        row(
            "unknown enum value (wrong case)",
            form::<Refactor>(),
            json!({"strategy": "Balanced"}),
            vec![("strategy", not_an_option("Balanced", STRATEGIES))],
        ),
        row(
            "titled select: the title is not the value",
            form::<Deploy>(),
            json!({"env": "Staging"}),
            vec![("env", not_an_option("Staging", ENVIRONMENTS))],
        ),
        row(
            "titled select: the overridden kebab name is not the value",
            form::<Deploy>(),
            json!({"env": "local-dev"}),
            vec![("env", not_an_option("local-dev", ENVIRONMENTS))],
        ),
        row(
            "unknown multi-select item",
            form::<MultiSelects>(),
            with(
                valid_multi(),
                json!({"strategies": ["balanced", "reckless"]}),
            ),
            vec![("strategies", not_an_option("reckless", STRATEGIES))],
        ),
        row(
            "unknown item in a titled (anyOf) multi-select",
            form::<MultiSelects>(),
            with(valid_multi(), json!({"envs": ["Production"]})),
            vec![("envs", not_an_option("Production", ENVIRONMENTS))],
        ),
        row(
            "duplicate multi-select items (Vec)",
            form::<MultiSelects>(),
            with(
                valid_multi(),
                json!({"strategies": ["balanced", "balanced"]}),
            ),
            vec![(
                "strategies",
                FieldErrorKind::DuplicateItem {
                    value: "balanced".to_owned(),
                },
            )],
        ),
        row(
            "duplicate multi-select items (HashSet would hide them)",
            form::<MultiSelects>(),
            with(
                valid_multi(),
                json!({"any_of": ["aggressive", "conservative", "aggressive"]}),
            ),
            vec![(
                "any_of",
                FieldErrorKind::DuplicateItem {
                    value: "aggressive".to_owned(),
                },
            )],
        ),
        row(
            "too many items",
            form::<MultiSelects>(),
            with(
                valid_multi(),
                json!({"strategies": ["conservative", "balanced", "aggressive"]}),
            ),
            vec![(
                "strategies",
                FieldErrorKind::TooManyItems {
                    max_items: 2,
                    count: 3,
                },
            )],
        ),
        row(
            "too few items",
            form::<MultiSelects>(),
            with(valid_multi(), json!({"strategies": []})),
            vec![(
                "strategies",
                FieldErrorKind::TooFewItems {
                    min_items: 1,
                    count: 0,
                },
            )],
        ),
        // --- nested values where a primitive is expected ---
        row(
            "object for a string",
            form::<Profile>(),
            with(valid_profile(), json!({"name": {"first": "Ada"}})),
            vec![("name", wrong("a string", K::Object))],
        ),
        row(
            "array for an integer",
            form::<Deploy>(),
            json!({"env": "staging", "replicas": [3]}),
            vec![("replicas", wrong("an integer", K::Array))],
        ),
        row(
            "object for a boolean",
            form::<Deploy>(),
            json!({"env": "staging", "notify": {}}),
            vec![("notify", wrong("a boolean", K::Object))],
        ),
        row(
            "object for a select",
            form::<Refactor>(),
            json!({"strategy": {"const": "balanced"}}),
            vec![("strategy", wrong("a string", K::Object))],
        ),
        row(
            "array for a number",
            form::<Numbers>(),
            json!({"temperature": [20.5], "percent": 5}),
            vec![("temperature", wrong("a number", K::Array))],
        ),
        row(
            "array for an optional string",
            form::<Optionals>(),
            json!({"text": ["a", "b"]}),
            vec![("text", wrong("a string", K::Array))],
        ),
        // --- deny_unknown_fields ---
        row(
            "deny_unknown_fields: a skipped field's key is unknown",
            form::<Feedback>(),
            json!({"stars": 3, "internal_id": 7}),
            vec![("internal_id", FieldErrorKind::UnknownField)],
        )
        .wire_only(vec![]),
        row(
            "deny_unknown_fields: two unknown keys after a missing field",
            form::<Feedback>(),
            json!({"rating": 5, "remark": "good"}),
            vec![
                ("stars", FieldErrorKind::Missing),
                ("rating", FieldErrorKind::UnknownField),
                ("remark", FieldErrorKind::UnknownField),
            ],
        )
        .wire_only(vec!["stars"]),
        // --- several failing fields at once, all collected in form order ---
        row(
            "two fields: the documented example",
            form::<Deploy>(),
            json!({"env": "prod", "replicas": 300}),
            vec![
                ("env", not_an_option("prod", ENVIRONMENTS)),
                ("replicas", above(16, 300)),
            ],
        ),
        row(
            "three fields, content keys in reverse order",
            form::<Deploy>(),
            json!({"notify": "no", "replicas": 2.5, "env": null}),
            vec![
                ("env", FieldErrorKind::Missing),
                ("replicas", FieldErrorKind::NotAnInteger { value: 2.5 }),
                ("notify", wrong("a boolean", K::String)),
            ],
        ),
        row(
            "five fields of a profile, content keys shuffled",
            form::<Profile>(),
            json!({
                "birthday": "yesterday",
                "handle": "9lives",
                "name": "A",
                "callback_at": "2024-13-01T00:00:00Z"
            }),
            vec![
                ("name", too_short(2, 1)),
                ("handle", pattern(HANDLE)),
                ("email", FieldErrorKind::Missing),
                ("birthday", format(Format::Date)),
                ("callback_at", format(Format::DateTime)),
            ],
        ),
        row(
            "four integers out of range",
            form::<Integers>(),
            with(
                valid_integers(),
                json!({"a_usize": 0, "a_u16": 1001, "a_i32": -6, "a_i8": 128}),
            ),
            vec![
                ("a_i8", above(127, 128)),
                ("a_i32", below(-5, -6)),
                ("a_u16", above(1000, 1001)),
                ("a_usize", below(1, 0)),
            ],
        ),
        row(
            "four fields across a flattened form",
            form::<Outer>(),
            json!({"last": "wild", "depth": 11, "first": "yes"}),
            vec![
                ("first", wrong("a boolean", K::String)),
                ("depth", above(10, 11)),
                ("label", FieldErrorKind::Missing),
                ("last", not_an_option("wild", STRATEGIES)),
            ],
        ),
        row(
            "three fields with deny_unknown_fields",
            form::<Feedback>(),
            json!({"stars": 6, "comment": 5, "extra": "x"}),
            vec![
                ("stars", above(5, 6)),
                ("comment", wrong("a string", K::Integer)),
                ("extra", FieldErrorKind::UnknownField),
            ],
        )
        .wire_only(vec!["stars", "comment"]),
        row(
            "two optionals and a Rust-only rule",
            form::<Gauge>(),
            json!({"level": 1e39, "backup": "x"}),
            vec![
                ("level", out_of_type("f32", 1e39)),
                ("backup", wrong("a number", K::String)),
            ],
        )
        .wire_only(vec!["backup"]),
        row(
            "four optional fields of different kinds",
            form::<Optionals>(),
            json!({
                "text": 1, "flag": null, "count": 3, "amount": "1.5",
                "strategy": "Balanced", "envs": ["staging", "staging"]
            }),
            vec![
                ("text", wrong("a string", K::Integer)),
                ("amount", wrong("a number", K::String)),
                ("strategy", not_an_option("Balanced", STRATEGIES)),
                (
                    "envs",
                    FieldErrorKind::DuplicateItem {
                        value: "staging".to_owned(),
                    },
                ),
            ],
        ),
    ]
}

#[test]
fn bad_contents_name_exactly_the_failing_fields() {
    let rows = bad_rows();
    assert!(rows.len() >= 35, "only {} rows", rows.len());
    let mut seen = HashSet::new();
    for row in &rows {
        assert!(seen.insert(row.name), "two rows are named {:?}", row.name);
        assert!(
            !row.expected.is_empty(),
            "{}: a bad row expects errors",
            row.name
        );
    }
    check_rows(&rows);
}

/// Runs every row, then fails with every row that failed.
fn check_rows(rows: &[Row]) {
    let mut failures = Vec::new();
    for row in rows {
        if let Err(payload) = catch_unwind(AssertUnwindSafe(|| check_row(row))) {
            failures.push(format!(
                "[{}] {}: {}",
                row.form.name,
                row.name,
                panic_message(payload.as_ref())
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} rows failed:\n{}",
        failures.len(),
        rows.len(),
        failures.join("\n")
    );
}

// ---------------------------------------------------------------------------
// Typed fields: wrong format, out of range, and the type's own refusal (a
// rule the wire schema cannot express, so `validate` accepts those rows).

fn refused(rust_type: &'static str, reason: impl Into<String>) -> FieldErrorKind {
    FieldErrorKind::Refused {
        rust_type,
        reason: reason.into(),
    }
}

/// A valid `StdTyped`, to break one field at a time.
fn valid_std_typed() -> Value {
    json!({
        "workers": 1, "step": 1, "back": -1, "initial": "a", "port": 1024,
        "contact": "a@b.c", "handle": "ab"
    })
}

#[allow(clippy::too_many_lines)]
// `mut`: the feature-gated rows below extend it.
#[allow(unused_mut)]
fn typed_rows() -> Vec<Row> {
    let mut rows = vec![
        row(
            "NonZeroU8: 0",
            form::<StdTyped>(),
            with(valid_std_typed(), json!({"workers": 0})),
            vec![("workers", below(1, 0))],
        ),
        row(
            "Option<NonZeroU16>: above its range(max)",
            form::<StdTyped>(),
            with(valid_std_typed(), json!({"threads": 65})),
            vec![("threads", above(64, 65))],
        ),
        row(
            "signed NonZero with range(min = 1): 0",
            form::<StdTyped>(),
            with(valid_std_typed(), json!({"step": 0})),
            vec![("step", below(1, 0))],
        ),
        row(
            "signed NonZero with range(max = -1): 0",
            form::<StdTyped>(),
            with(valid_std_typed(), json!({"back": 0})),
            vec![("back", above(-1, 0))],
        ),
        row(
            "char: two characters",
            form::<StdTyped>(),
            with(valid_std_typed(), json!({"initial": "ab"})),
            vec![("initial", too_long(1, 2))],
        ),
        row(
            "char: empty",
            form::<StdTyped>(),
            with(valid_std_typed(), json!({"answer": ""})),
            vec![("answer", too_short(1, 0))],
        ),
        row(
            "transparent newtype: its inner range",
            form::<StdTyped>(),
            with(valid_std_typed(), json!({"port": 80, "fallback": 70000})),
            vec![("port", below(1024, 80)), ("fallback", above(65535, 70000))],
        ),
        row(
            "transparent newtype: its inner format",
            form::<StdTyped>(),
            with(valid_std_typed(), json!({"contact": "not an address"})),
            vec![("contact", format(Format::Email))],
        ),
        row(
            "try_from: the type's own refusal, named by wire name",
            form::<StdTyped>(),
            with(valid_std_typed(), json!({"handle": "Ada!"})),
            vec![(
                "handle",
                refused(
                    "Handle",
                    "a handle has only lowercase ASCII letters and digits",
                ),
            )],
        )
        .wire_only(vec![]),
        row(
            "every typed field at once",
            form::<StdTyped>(),
            json!({
                "workers": 0, "step": 11, "back": 1, "initial": "", "port": "80",
                "contact": "x", "handle": "x"
            }),
            vec![
                ("workers", below(1, 0)),
                ("step", above(10, 11)),
                ("back", above(-1, 1)),
                ("initial", too_short(1, 0)),
                ("port", wrong("an integer", JsonKind::String)),
                ("contact", format(Format::Email)),
                (
                    "handle",
                    refused("Handle", "a handle has 2 to 16 characters, not 1"),
                ),
            ],
        )
        .wire_only(vec![
            "workers", "step", "back", "initial", "port", "contact",
        ]),
    ];
    #[cfg(feature = "chrono")]
    {
        let valid = || json!({"day": "2024-05-01", "at": "2024-05-01T10:00:00Z"});
        rows.extend([
            row(
                "chrono NaiveDate: a day that does not exist",
                form::<ChronoTyped>(),
                with(valid(), json!({"day": "2024-02-30", "start": 20240501})),
                vec![
                    ("day", format(Format::Date)),
                    ("start", wrong("a string", JsonKind::Integer)),
                ],
            ),
            row(
                "chrono NaiveDate: chrono's parser reads 2024-1-5, the format refuses it",
                form::<ChronoTyped>(),
                with(valid(), json!({"day": "2024-1-5"})),
                vec![("day", format(Format::Date))],
            ),
            row(
                "chrono DateTime: chrono reads a space separator, the format refuses it",
                form::<ChronoTyped>(),
                with(
                    valid(),
                    json!({"at": "2024-05-01 10:00:00Z", "local": "2024-05-01T10:00:00"}),
                ),
                vec![
                    ("at", format(Format::DateTime)),
                    ("local", format(Format::DateTime)),
                ],
            ),
            row(
                "chrono DateTime<Utc>: a UTC year RFC 3339 cannot write",
                form::<ChronoTyped>(),
                with(valid(), json!({"at": "9999-12-31T23:00:00-02:00"})),
                vec![(
                    "at",
                    refused(
                        "DateTime<Utc>",
                        "the instant falls in the year 10000 in UTC, which RFC 3339 cannot write",
                    ),
                )],
            )
            .wire_only(vec![]),
            row(
                "chrono DateTime<FixedOffset>: digits finer than nanoseconds",
                form::<ChronoTyped>(),
                with(
                    valid(),
                    json!({"local": "2024-05-01T10:00:00.1234567891+02:00"}),
                ),
                vec![(
                    "local",
                    refused(
                        "DateTime<FixedOffset>",
                        "more than nine fractional digits: the type holds nanoseconds",
                    ),
                )],
            )
            .wire_only(vec![]),
        ]);
    }
    #[cfg(feature = "time")]
    {
        let valid = || json!({"day": "2024-05-01", "at": "2024-05-01T10:00:00Z"});
        rows.extend([
            row(
                "time Date: time's parser reads 20240501, the format refuses it",
                form::<TimeTyped>(),
                with(valid(), json!({"day": "20240501"})),
                vec![("day", format(Format::Date))],
            ),
            row(
                "time OffsetDateTime: a leap second time would fold into :59.999999999",
                form::<TimeTyped>(),
                with(
                    valid(),
                    json!({"at": "2016-12-31T23:59:60Z", "until": "2016-12-31T23:59:60.5+00:00"}),
                ),
                vec![
                    (
                        "at",
                        refused(
                            "OffsetDateTime",
                            "the type cannot hold a leap second (`:60`)",
                        ),
                    ),
                    (
                        "until",
                        refused(
                            "OffsetDateTime",
                            "the type cannot hold a leap second (`:60`)",
                        ),
                    ),
                ],
            )
            .wire_only(vec![]),
        ]);
    }
    #[cfg(feature = "jiff")]
    {
        let valid = || json!({"day": "2024-05-01", "at": "2024-05-01T10:00:00Z"});
        let jiff_refusal = "9999-12-31T23:59:59Z"
            .parse::<jiff::Timestamp>()
            .unwrap_err()
            .to_string();
        rows.extend([
            row(
                "jiff Timestamp: past jiff's own upper bound",
                form::<JiffTyped>(),
                with(valid(), json!({"at": "9999-12-31T23:59:59Z"})),
                vec![("at", refused("Timestamp", jiff_refusal))],
            )
            .wire_only(vec![]),
            row(
                "jiff Timestamp: a leap second jiff would fold into :59",
                form::<JiffTyped>(),
                with(valid(), json!({"at": "2016-12-31T23:59:60Z"})),
                vec![("at", refused("Timestamp", "the type cannot hold a leap second (`:60`)"))],
            )
            .wire_only(vec![]),
            row(
                "jiff Timestamp: a UTC year before 0000",
                form::<JiffTyped>(),
                with(valid(), json!({"at": "0000-01-01T00:00:00+01:00"})),
                vec![(
                    "at",
                    refused(
                        "Timestamp",
                        "the instant falls before the year 0000 in UTC, which RFC 3339 cannot write",
                    ),
                )],
            )
            .wire_only(vec![]),
            row(
                "jiff civil::Date: not a date",
                form::<JiffTyped>(),
                with(valid(), json!({"day": "2023-02-29", "end": "tomorrow"})),
                vec![("day", format(Format::Date)), ("end", format(Format::Date))],
            ),
        ]);
    }
    #[cfg(feature = "url")]
    {
        rows.extend([
            row(
                "Url: the url crate refuses a port out of range",
                form::<UrlTyped>(),
                json!({"endpoint": "http://example.com:99999/"}),
                vec![("endpoint", refused("Url", "invalid port number"))],
            )
            .wire_only(vec![]),
            row(
                "Url: the url crate trims spaces, the uri format refuses them",
                form::<UrlTyped>(),
                json!({"endpoint": " http://example.com/", "mirror": "//no-scheme"}),
                vec![
                    ("endpoint", format(Format::Uri)),
                    ("mirror", format(Format::Uri)),
                ],
            ),
        ]);
    }
    #[cfg(feature = "uuid")]
    {
        let uuid = crate::common::UUID_PATTERN;
        rows.extend([row(
            "Uuid: the simple and urn forms the uuid crate reads are refused by the pattern",
            form::<UuidTyped>(),
            json!({
                "id": "67e5504410b1426f9247bb680e5fe0c8",
                "other": "urn:uuid:67e55044-10b1-426f-9247-bb680e5fe0c8"
            }),
            vec![("id", pattern(uuid)), ("other", pattern(uuid))],
        )]);
    }
    rows
}

#[test]
fn typed_bad_contents_name_exactly_the_failing_fields() {
    check_rows(&typed_rows());
}

#[test]
fn typed_messages_name_the_field_and_the_type() {
    assert_eq!(
        refuse::<StdTyped>(&with(valid_std_typed(), json!({"handle": "Ada!"}))).to_string(),
        "invalid form content: `handle` is not a valid `Handle`: a handle has only lowercase \
         ASCII letters and digits"
    );
    #[cfg(feature = "url")]
    assert_eq!(
        refuse::<UrlTyped>(&json!({"endpoint": "http://example.com:99999/"})).to_string(),
        "invalid form content: `endpoint` is not a valid `Url`: invalid port number"
    );
}

#[test]
fn typed_good_contents_parse() {
    use std::num::NonZero;
    let value = parse::<StdTyped>(&valid_std_typed());
    assert_eq!(value.workers.get(), 1);
    assert_eq!(value.answer, 'y', "the char default");
    assert_eq!(
        value.escalation.address, "ops@example.com",
        "a string default through a newtype"
    );
    assert_eq!(value.handle, Handle::new("ab"));
    assert_eq!(value.back, NonZero::new(-1).unwrap());
    #[cfg(feature = "chrono")]
    {
        let value = parse::<ChronoTyped>(&json!({
            "day": "2024-02-29", "at": "2024-05-01T10:00:00+02:00",
            "local": "2016-12-31T23:59:60-05:00"
        }));
        assert_eq!(value.day.to_string(), "2024-02-29");
        assert_eq!(value.start.to_string(), "2026-01-01", "the default");
        assert_eq!(value.at.to_rfc3339(), "2024-05-01T08:00:00+00:00");
        // chrono holds the leap second, so it comes back as sent.
        assert_eq!(value.to_content()["local"], "2016-12-31T23:59:60-05:00");
        assert_eq!(value.to_content()["meeting"], "2026-01-01T09:00:00+01:00");
    }
    #[cfg(feature = "jiff")]
    {
        let value =
            parse::<JiffTyped>(&json!({"day": "0000-01-01", "at": "2024-05-01T10:00:00-00:00"}));
        assert_eq!(value.to_content()["at"], "2024-05-01T10:00:00Z");
    }
    #[cfg(feature = "url")]
    {
        let value = parse::<UrlTyped>(&json!({"endpoint": "HTTP://Example.COM"}));
        assert_eq!(
            value.endpoint.as_str(),
            "http://example.com/",
            "the url crate normalizes"
        );
        assert_eq!(value.docs.as_str(), "https://example.com/docs");
    }
    #[cfg(feature = "uuid")]
    {
        let value = parse::<UuidTyped>(&json!({"id": "67E55044-10B1-426F-9247-BB680E5FE0C8"}));
        assert_eq!(
            value.to_content()["id"],
            "67e55044-10b1-426f-9247-bb680e5fe0c8"
        );
    }
}

// ---------------------------------------------------------------------------
// Messages.

#[test]
fn messages_name_the_field_and_the_rule() {
    assert_eq!(
        refuse::<Deploy>(&json!({"env": "staging", "replicas": 300})).to_string(),
        "invalid form content: `replicas` must be at most 16, got 300"
    );
    assert_eq!(
        refuse::<Deploy>(&json!({"env": "prod", "replicas": 0})).to_string(),
        "invalid form content: `env` must be one of `staging`, `production`, `dev`, got `prod`; \
         `replicas` must be at least 1, got 0"
    );
    assert_eq!(
        refuse::<Refactor>(&json!({"strategy": null})).to_string(),
        "invalid form content: `strategy` is required but missing"
    );
    assert_eq!(
        refuse::<Renamed>(&json!({"firstName": "Ada", "surname": 7, "yearsOfAge": 36})).to_string(),
        "invalid form content: `surname` must be a string, got an integer"
    );
    assert_eq!(
        refuse::<Profile>(&with(valid_profile(), json!({"name": "é"}))).to_string(),
        "invalid form content: `name` must be at least 2 characters, got 1"
    );
    assert_eq!(
        refuse::<Profile>(&with(valid_profile(), json!({"name": "🎉".repeat(21)}))).to_string(),
        "invalid form content: `name` must be at most 20 characters, got 21"
    );
    assert_eq!(
        refuse::<Profile>(&with(
            valid_profile(),
            json!({"handle": "Ada", "email": "x"})
        ))
        .to_string(),
        "invalid form content: `handle` must match the pattern `^[a-z][a-z0-9_]*$`; \
         `email` must be a valid email"
    );
    assert_eq!(
        refuse::<Profile>(&with(valid_profile(), json!({"callback_at": "soon"}))).to_string(),
        "invalid form content: `callback_at` must be a valid date-time"
    );
    assert_eq!(
        refuse::<Integers>(&with(valid_integers(), json!({"a_i16": 2.5}))).to_string(),
        "invalid form content: `a_i16` must be a whole number, got 2.5"
    );
    assert_eq!(
        refuse::<Numbers>(&json!({"temperature": -300, "percent": 100.5})).to_string(),
        "invalid form content: `temperature` must be at least -273.15, got -300; \
         `percent` must be at most 100, got 100.5"
    );
    assert_eq!(
        refuse::<MultiSelects>(&with(
            valid_multi(),
            json!({"strategies": ["balanced", "balanced"]})
        ))
        .to_string(),
        "invalid form content: `strategies` selects `balanced` more than once"
    );
    assert_eq!(
        refuse::<MultiSelects>(&with(
            valid_multi(),
            json!({"strategies": ["balanced", "aggressive", "conservative"]})
        ))
        .to_string(),
        "invalid form content: `strategies` must select at most 2 options, got 3"
    );
    assert_eq!(
        refuse::<MultiSelects>(&with(valid_multi(), json!({"strategies": []}))).to_string(),
        "invalid form content: `strategies` must select at least 1 option, got 0"
    );
    assert_eq!(
        refuse::<Feedback>(&json!({"stars": 3, "internal_id": 1})).to_string(),
        "invalid form content: `internal_id` is not a field of this form"
    );
    // Only the Rust type knows this rule; the message still names the field,
    // the value and the type.
    let message = refuse::<Gauge>(&json!({"level": 1e39})).to_string();
    assert!(
        message.starts_with("invalid form content: `level` "),
        "{message}"
    );
    assert!(message.contains("f32"), "{message}");
    assert!(
        message.contains("1000000000000000000000000000000000000000") || message.contains("1e39"),
        "{message}"
    );
}

// ---------------------------------------------------------------------------
// Good content.

#[test]
fn option_fields_absent_or_null_are_none() {
    let none = Optionals {
        text: None,
        flag: None,
        count: None,
        amount: None,
        strategy: None,
        envs: None,
    };
    assert_eq!(parse::<Optionals>(&json!({})), none);
    let nulls = json!({
        "text": null, "flag": null, "count": null,
        "amount": null, "strategy": null, "envs": null
    });
    assert_eq!(parse::<Optionals>(&nulls), none);
    assert_eq!(Optionals::schema().validate(obj(&nulls)), Ok(()));

    let deploy = parse::<Deploy>(&json!({"env": "staging", "notify": null}));
    assert_eq!(deploy.notify, None);
    let profile = parse::<Profile>(&with(
        valid_profile(),
        json!({"homepage": null, "birthday": null}),
    ));
    assert_eq!(
        (profile.homepage, profile.birthday, profile.callback_at),
        (None, None, None)
    );

    // Present values are `Some`, of every kind.
    let all = parse::<Optionals>(&json!({
        "text": "", "flag": false, "count": 0, "amount": -0.25,
        "strategy": "aggressive", "envs": []
    }));
    assert_eq!(
        all,
        Optionals {
            text: Some(String::new()),
            flag: Some(false),
            count: Some(0),
            amount: Some(-0.25),
            strategy: Some(Strategy::Aggressive),
            envs: Some(vec![]),
        }
    );
}

#[test]
fn absent_fields_with_a_default_take_it() {
    let expected = Defaults {
        branch: "main".to_owned(),
        force: true,
        strategy: Strategy::Balanced,
        offset: -1,
        retries: Some(3),
    };
    assert_eq!(parse::<Defaults>(&json!({})), expected);
    let nulls = json!({
        "branch": null, "force": null, "strategy": null, "offset": null, "retries": null
    });
    assert_eq!(parse::<Defaults>(&nulls), expected);
    // Given values win over the defaults.
    assert_eq!(
        parse::<Defaults>(&json!({
            "branch": "dev", "force": false, "strategy": "aggressive",
            "offset": 9, "retries": 0
        })),
        Defaults {
            branch: "dev".to_owned(),
            force: false,
            strategy: Strategy::Aggressive,
            offset: 9,
            retries: Some(0),
        }
    );

    assert_eq!(
        parse::<Deploy>(&json!({"env": "dev"})),
        Deploy {
            env: Environment::LocalDev,
            replicas: 2,
            notify: None,
        }
    );
    assert_eq!(
        parse::<Deploy>(&json!({"env": "dev", "replicas": null})).replicas,
        2
    );
    let numbers = parse::<Numbers>(&json!({"temperature": -273.15, "percent": 0}));
    assert_eq!(numbers.ratio, 0.5_f32);
    assert_eq!(numbers.temperature, -273.15);
    assert_eq!(numbers.percent, 0.0);
    let selects = parse::<MultiSelects>(&valid_multi());
    assert_eq!(selects.envs, BTreeSet::from([Environment::Staging]));

    // A skipped field is its type's `Default`.
    let feedback = parse::<Feedback>(&json!({"stars": 5}));
    assert_eq!(
        feedback,
        Feedback {
            stars: 5,
            comment: None,
            internal_id: 0,
        }
    );
}

#[test]
fn unknown_keys_are_ignored_without_deny_unknown_fields() {
    let content = json!({
        "env": "production",
        "extra": 1,
        "nested": {"deep": [1, 2, 3]},
        "replicas_": "not the field",
        "Replicas": 99
    });
    assert_eq!(
        parse::<Deploy>(&content),
        Deploy {
            env: Environment::Production,
            replicas: 2,
            notify: None,
        }
    );
    assert_eq!(Deploy::schema().validate(obj(&content)), Ok(()));
    // `validate` ignores unknown keys even for a deny_unknown_fields form: the
    // wire schema has no `additionalProperties`.
    let content = json!({"stars": 4, "internal_id": 1});
    assert_eq!(Feedback::schema().validate(obj(&content)), Ok(()));
    assert!(Feedback::from_content(obj(&content)).is_err());
}

#[test]
fn whole_floats_are_integers() {
    // JSON Schema counts `2.0` as an integer.
    let deploy = parse::<Deploy>(&json!({"env": "staging", "replicas": 5.0}));
    assert_eq!(deploy.replicas, 5_u8);
    assert_eq!(
        Deploy::schema().validate(obj(&json!({"env": "staging", "replicas": 16.0}))),
        Ok(())
    );
    let ints = parse::<Integers>(&with(
        valid_integers(),
        json!({"a_i8": -128.0, "a_i64": 1e18, "a_u64": 2.0, "a_usize": 1.0, "a_i32": -0.0}),
    ));
    assert_eq!(ints.a_i8, -128);
    assert_eq!(ints.a_i64, 1_000_000_000_000_000_000);
    assert_eq!(ints.a_u64, 2);
    assert_eq!(ints.a_usize, 1);
    assert_eq!(ints.a_i32, 0);
    assert_eq!(parse::<Optionals>(&json!({"count": 7.0})).count, Some(7));
}

#[test]
fn integers_at_their_bounds_are_accepted() {
    let content = json!({
        "a_i8": -128, "a_i16": 32767, "a_i32": -5, "a_i64": i64::MIN, "a_u8": 255,
        "a_u16": 1000, "a_u32": u32::MAX, "a_u64": i64::MAX, "a_isize": i64::MAX,
        "a_usize": 1
    });
    let ints = parse::<Integers>(&content);
    assert_eq!(
        ints,
        Integers {
            a_i8: i8::MIN,
            a_i16: i16::MAX,
            a_i32: -5,
            a_i64: i64::MIN,
            a_u8: u8::MAX,
            a_u16: 1000,
            a_u32: u32::MAX,
            a_u64: 9_223_372_036_854_775_807,
            a_isize: 9_223_372_036_854_775_807,
            a_usize: 1,
        }
    );
    assert_eq!(Integers::schema().validate(obj(&content)), Ok(()));
}

#[test]
fn f32_values_in_range_are_accepted() {
    let gauge = parse::<Gauge>(&json!({"level": 3.4e38, "backup": -1.5}));
    assert_eq!(gauge.level, 3.4e38_f32);
    assert_eq!(gauge.backup, Some(-1.5));
    let gauge = parse::<Gauge>(&json!({"level": 7}));
    assert_eq!(
        gauge,
        Gauge {
            level: 7.0,
            backup: None
        }
    );
    // The exact f32::MAX, as `to_content` writes it, reads back.
    let max = Gauge {
        level: f32::MAX,
        backup: Some(f32::MIN),
    };
    assert_eq!(Gauge::from_content(&max.to_content()), Ok(max));
}

#[test]
fn f32_max_as_serde_json_writes_it_is_accepted() {
    // serde_json writes an `f32` with its shortest round-trip decimal:
    // `f32::MAX` becomes `3.4028235e+38`, which as an `f64` is a little above
    // `f64::from(f32::MAX)` but rounds to `f32::MAX` (Rust's own
    // `"3.4028235e38".parse::<f32>()` gives `f32::MAX`, and so does serde's
    // `f32` deserializer). A client that stores the value as an `f32` sends
    // exactly this text, so it must fit.
    let max = serde_json::to_string(&f32::MAX).expect("an f32 serializes");
    let min = serde_json::to_string(&f32::MIN).expect("an f32 serializes");
    assert_eq!(max, "3.4028235e+38");
    let text = format!(r#"{{"level": {max}, "backup": {min}}}"#);
    let content: Content = serde_json::from_str(&text).expect("the content text parses");
    let by_serde: f32 = serde_json::from_value(content["level"].clone()).expect("serde reads it");
    assert_eq!(by_serde, f32::MAX);
    assert_eq!(
        Gauge::from_content(&content),
        Ok(Gauge {
            level: f32::MAX,
            backup: Some(f32::MIN),
        })
    );
}

#[test]
fn lengths_count_characters_not_bytes() {
    // 20 two-byte characters: 40 bytes, but at the maximum of 20 characters.
    let name = "é".repeat(20);
    let profile = parse::<Profile>(&with(valid_profile(), json!({"name": name})));
    assert_eq!(profile.name, name);
    // Two emoji: 8 bytes and 4 UTF-16 units, but 2 characters.
    assert_eq!(
        parse::<Profile>(&with(valid_profile(), json!({"name": "🎉🎉"}))).name,
        "🎉🎉"
    );
    // A combining sequence counts each code point.
    assert_eq!(
        parse::<Profile>(&with(valid_profile(), json!({"name": "e\u{301}"}))).name,
        "e\u{301}"
    );
    // Four emoji: 16 bytes, at the maximum of 4 characters.
    let code = parse::<Code>(&json!({"code": "🎉🎉🎉🎉"}));
    assert_eq!(code.code, "🎉🎉🎉🎉");
    assert_eq!(
        Code::schema().validate(obj(&json!({"code": "ééé"}))),
        Ok(())
    );
}

#[test]
fn patterns_search_and_formats_accept_valid_values() {
    // `pattern` is searched for anywhere in the value (JSON Schema semantics).
    let code = parse::<Code>(&json!({"code": "abc", "with_digit": "abc1def"}));
    assert_eq!(code.with_digit.as_deref(), Some("abc1def"));
    let profile = parse::<Profile>(&json!({
        "name": "Ada Lovelace",
        "handle": "ada_1815",
        "email": "ada.lovelace+notes@example.co.uk",
        "homepage": "https://example.com/~ada?x=%20",
        "birthday": "2024-02-29",
        "callback_at": "1815-12-10T23:59:60.123+01:00"
    }));
    assert_eq!(
        profile,
        Profile {
            name: "Ada Lovelace".to_owned(),
            handle: "ada_1815".to_owned(),
            email: "ada.lovelace+notes@example.co.uk".to_owned(),
            homepage: Some("https://example.com/~ada?x=%20".to_owned()),
            birthday: Some("2024-02-29".to_owned()),
            callback_at: Some("1815-12-10T23:59:60.123+01:00".to_owned()),
        }
    );
}

#[test]
fn multi_selects_keep_the_selection() {
    let selects = parse::<MultiSelects>(&json!({
        "strategies": ["aggressive", "conservative"],
        "envs": ["production", "dev"],
        "any_of": ["balanced"]
    }));
    assert_eq!(
        selects,
        MultiSelects {
            strategies: vec![Strategy::Aggressive, Strategy::Conservative],
            envs: BTreeSet::from([Environment::Production, Environment::LocalDev]),
            any_of: HashSet::from([Strategy::Balanced]),
        }
    );
    // An explicitly empty selection is not the default.
    let selects = parse::<MultiSelects>(&with(valid_multi(), json!({"envs": []})));
    assert!(selects.envs.is_empty());
}

#[test]
fn renamed_wire_names_are_the_keys_read() {
    let renamed = parse::<Renamed>(&json!({
        "firstName": "Ada", "surname": "Lovelace", "yearsOfAge": 36,
        "first_name": "ignored", "last_name": "ignored", "age": 99
    }));
    assert_eq!(
        renamed,
        Renamed {
            first_name: "Ada".to_owned(),
            last_name: "Lovelace".to_owned(),
            age: 36,
        }
    );
    let renamed = parse::<SerdeRenamed>(&json!({"MAX_RETRIES": 4, "dryRun": true}));
    assert_eq!(
        renamed,
        SerdeRenamed {
            max_retries: 4,
            dry_run: true,
        }
    );
    // And `to_content` writes the same keys back.
    let content = Renamed {
        first_name: "Ada".to_owned(),
        last_name: "Lovelace".to_owned(),
        age: 36,
    }
    .to_content();
    assert_eq!(
        Value::Object(content),
        json!({"firstName": "Ada", "surname": "Lovelace", "yearsOfAge": 36})
    );
}

#[test]
fn flattened_fields_are_read_from_the_same_object() {
    let outer = parse::<Outer>(&json!({
        "first": true, "depth": 10, "label": "x", "last": "balanced"
    }));
    assert_eq!(
        outer,
        Outer {
            first: true,
            inner: Inner {
                depth: 10,
                label: "x".to_owned(),
            },
            last: Strategy::Balanced,
        }
    );
}

// ---------------------------------------------------------------------------
// A schema received over the wire validates like the derived one.

/// `Profile`'s schema as a client would receive it: written by hand, keys in
/// an unusual order, parsed from text.
const PROFILE_WIRE: &str = r#"{
  "required": ["name", "handle", "email"],
  "properties": {
    "name": {"maxLength": 20, "minLength": 2, "title": "Display name", "type": "string"},
    "handle": {"pattern": "^[a-z][a-z0-9_]*$", "type": "string", "maxLength": 16},
    "email": {"format": "email", "type": "string"},
    "homepage": {"type": "string", "format": "uri"},
    "birthday": {"type": "string", "format": "date"},
    "callback_at": {
      "format": "date-time",
      "description": "When to call you back (RFC 3339).",
      "type": "string"
    }
  },
  "type": "object"
}"#;

#[test]
fn a_schema_read_from_the_wire_validates_like_the_derived_one() {
    let wire: ElicitationSchema =
        serde_json::from_str(PROFILE_WIRE).expect("the wire schema parses");
    assert_eq!(wire, Profile::schema(), "the text is Profile's schema");
    wire.check()
        .expect("the wire schema is a valid restricted schema");

    let contents = [
        json!({}),
        json!({"name": null, "handle": null, "email": null}),
        with(valid_profile(), json!({"name": "é"})),
        with(valid_profile(), json!({"name": "é".repeat(21)})),
        with(
            valid_profile(),
            json!({"name": 1, "handle": [], "email": {}}),
        ),
        with(valid_profile(), json!({"handle": "x".repeat(17)})),
        with(valid_profile(), json!({"handle": "Bad"})),
        with(valid_profile(), json!({"email": "@example.com"})),
        with(valid_profile(), json!({"homepage": "/relative/path"})),
        with(valid_profile(), json!({"birthday": "2024-2-1"})),
        with(
            valid_profile(),
            json!({"callback_at": "2024-02-01T25:00:00Z"}),
        ),
        json!({
            "name": "A", "handle": "9", "email": "no",
            "homepage": "no", "birthday": "no", "callback_at": "no"
        }),
    ];
    for content in &contents {
        let derived = refuse::<Profile>(content);
        let received = wire
            .validate(obj(content))
            .expect_err("the wire schema accepted what the derived form refuses");
        assert_eq!(received, derived, "content {content}");
        assert_eq!(received.to_string(), derived.to_string());
    }
    // The last content breaks every field, reported in property order.
    let all = wire
        .validate(obj(&contents[contents.len() - 1]))
        .expect_err("every field is bad");
    assert_eq!(
        all.fields().collect::<Vec<_>>(),
        [
            "name",
            "handle",
            "email",
            "homepage",
            "birthday",
            "callback_at"
        ]
    );

    let good = with(valid_profile(), json!({"birthday": "2000-01-01"}));
    assert_eq!(wire.validate(obj(&good)), Ok(()));
    assert_eq!(
        parse::<Profile>(&good).birthday.as_deref(),
        Some("2000-01-01")
    );
}

// ---------------------------------------------------------------------------
// A form's own rule, `#[elicit(check = path)]`: run by `from_content`,
// `from_content_owned` and `from_submission` once every field parsed, its
// errors after the fields'.

mod form_check {
    use elicit_core::sensitive::{ExposeSecret, SecretString, SensitiveForm, Submission};
    use elicit_core::{Content, ContentError, Elicit, FieldError, FieldErrorKind};
    use serde_json::{Value, json};

    /// A stay: the end on or after the start.
    #[derive(Elicit, Debug, Clone, PartialEq)]
    #[elicit(check = Self::dates_in_order)]
    struct Stay {
        #[elicit(date)]
        start: String,
        #[elicit(date)]
        end: String,
    }

    impl Stay {
        fn dates_in_order(stay: &Self) -> Result<(), ContentError> {
            if stay.end < stay.start {
                return Err(FieldError::rule("end", "must not be before `start`").into());
            }
            Ok(())
        }
    }

    /// A booking: a stay, flattened, and its guests, with a rule of its own
    /// (a free function) that blames two fields at once.
    #[derive(Elicit, Debug, PartialEq)]
    #[elicit(deny_unknown_fields, rename_all = "camelCase", check = guests_fit)]
    struct Booking {
        #[elicit(flatten)]
        stay: Stay,
        #[elicit(range(min = 1, max = 8))]
        adults: u8,
        children: u8,
    }

    fn guests_fit(booking: &Booking) -> Result<(), ContentError> {
        if booking.adults + booking.children > 8 {
            return Err(ContentError::new(vec![
                FieldError::rule("adults", "and `children` must be 8 or fewer together"),
                FieldError::rule("children", "and `adults` must be 8 or fewer together"),
            ]));
        }
        Ok(())
    }

    /// A check that refuses without naming a field.
    #[derive(Elicit, Debug)]
    #[elicit(check = Self::never)]
    struct Never {
        name: String,
    }

    impl Never {
        fn never(_: &Self) -> Result<(), ContentError> {
            Err(ContentError::new(Vec::new()))
        }
    }

    /// A key that must not contain the account's name.
    #[derive(Elicit, Debug)]
    #[elicit(sensitive, check = ApiKey::not_the_account)]
    struct ApiKey {
        #[elicit(length(min = 2))]
        account: String,
        #[secret]
        #[elicit(length(min = 8))]
        key: SecretString,
    }

    impl ApiKey {
        fn not_the_account(form: &Self) -> Result<(), ContentError> {
            if form.key.expose_secret().contains(&form.account) {
                return Err(FieldError::rule("key", "must not contain the account name").into());
            }
            Ok(())
        }
    }

    fn content(value: Value) -> Content {
        match value {
            Value::Object(content) => content,
            other => panic!("test content is a JSON object, not {other}"),
        }
    }

    /// `from_content`, after checking that `from_content_owned` agrees.
    fn read<T: Elicit + PartialEq + std::fmt::Debug>(value: Value) -> Result<T, ContentError> {
        let content = content(value);
        let borrowed = T::from_content(&content);
        assert_eq!(T::from_content_owned(content), borrowed);
        borrowed
    }

    /// (field, rule message) of each error, `None` for another kind.
    fn errors(error: &ContentError) -> Vec<(&str, Option<&str>)> {
        error
            .errors()
            .iter()
            .map(|e| match e.kind() {
                FieldErrorKind::Rule { message } => (e.field(), Some(message.as_str())),
                _ => (e.field(), None),
            })
            .collect()
    }

    #[test]
    fn a_cross_field_rule_refuses_with_a_rule_error_on_the_field_it_blames() {
        let error = read::<Stay>(json!({"start": "2026-05-02", "end": "2026-05-01"})).unwrap_err();
        assert_eq!(
            error.errors(),
            [FieldError::new(
                "end",
                FieldErrorKind::Rule {
                    message: "must not be before `start`".to_owned()
                }
            )]
        );
        assert_eq!(
            error.to_string(),
            "invalid form content: `end` must not be before `start`"
        );
    }

    #[test]
    fn content_that_keeps_the_rule_is_accepted() {
        let stay = read::<Stay>(json!({"start": "2026-05-01", "end": "2026-05-01"})).unwrap();
        assert_eq!(stay.end, "2026-05-01");
        let stay = read::<Stay>(json!({"start": "2026-05-01", "end": "2026-05-03"})).unwrap();
        assert_eq!(
            (stay.start.as_str(), stay.end.as_str()),
            ("2026-05-01", "2026-05-03")
        );
    }

    #[test]
    fn the_check_does_not_run_while_a_field_is_invalid() {
        // `start` is no date and `end` is missing: only the field rules speak,
        // though the dates are out of order (the check never saw them).
        let error = read::<Stay>(json!({"start": "May 2nd"})).unwrap_err();
        assert_eq!(errors(&error), [("start", None), ("end", None)]);
        assert!(matches!(error.errors()[1].kind(), FieldErrorKind::Missing));
        // One invalid field is enough.
        let error = read::<Stay>(json!({"start": "2026-05-02", "end": "01/05/2026"})).unwrap_err();
        assert_eq!(errors(&error), [("end", None)]);
    }

    #[test]
    fn a_flattened_forms_check_runs_when_its_parent_is_read() {
        let booking =
            json!({"start": "2026-05-02", "end": "2026-05-01", "adults": 2, "children": 1});
        let error = read::<Booking>(booking).unwrap_err();
        assert_eq!(
            errors(&error),
            [("end", Some("must not be before `start`"))]
        );

        let ok = json!({"start": "2026-05-01", "end": "2026-05-04", "adults": 2, "children": 1});
        let booking = read::<Booking>(ok).unwrap();
        assert_eq!(
            (booking.stay.end.as_str(), booking.children),
            ("2026-05-04", 1)
        );
    }

    #[test]
    fn every_check_runs_and_their_errors_follow_the_field_errors() {
        // An unknown key (a field error of `deny_unknown_fields`), the inner
        // form's rule, then the parent's two errors, in that order.
        let booking = json!({
            "start": "2026-05-02", "end": "2026-05-01",
            "adults": 6, "children": 3, "pets": 1
        });
        let error = read::<Booking>(booking).unwrap_err();
        assert_eq!(
            errors(&error),
            [
                ("pets", None),
                ("end", Some("must not be before `start`")),
                ("adults", Some("and `children` must be 8 or fewer together")),
                ("children", Some("and `adults` must be 8 or fewer together")),
            ]
        );
        assert!(matches!(
            error.errors()[0].kind(),
            FieldErrorKind::UnknownField
        ));
        // A field of the parent that fails its own rule: no check runs.
        let booking =
            json!({"start": "2026-05-02", "end": "2026-05-01", "adults": 0, "children": 9});
        let error = read::<Booking>(booking).unwrap_err();
        assert_eq!(errors(&error), [("adults", None)]);
    }

    #[test]
    fn a_check_that_refuses_without_naming_a_field_still_refuses() {
        let content = content(json!({"name": "Ada"}));
        let error = Never::from_content(&content).unwrap_err();
        assert!(error.errors().is_empty());
        let error = Never::from_content_owned(content).unwrap_err();
        assert!(error.errors().is_empty());
    }

    #[test]
    fn a_sensitive_forms_check_runs_in_from_submission() {
        let submission = |account: &str, key: &str| {
            Submission::new()
                .value("account", account.into())
                .secret("key", SecretString::from(key.to_owned()))
        };
        let error = ApiKey::from_submission(submission("acme", "sk-acme-0123")).unwrap_err();
        assert_eq!(
            errors(&error),
            [("key", Some("must not contain the account name"))]
        );
        // The rule's message is the error: no secret in it.
        assert!(!error.to_string().contains("sk-acme"), "{error}");

        let key = ApiKey::from_submission(submission("acme", "sk-0123456789")).unwrap();
        assert_eq!(key.key.expose_secret(), "sk-0123456789");

        // A field that fails its rule: the check does not run.
        let error = ApiKey::from_submission(submission("a", "sk-a-0123")).unwrap_err();
        assert_eq!(errors(&error), [("account", None)]);
    }
}
