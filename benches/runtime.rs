//! Runtime benchmarks: `cargo bench -p elicit-benches --bench runtime` (see BENCHMARKS.md).
//!
//! Every comparison is measured in the same run on the same inputs:
//!
//! - `a_valid` / `b_invalid`: the 10-field form's content parsed by
//!   `Form10::from_content` (validated; on valid content also by `Bare10`,
//!   the same form without its attributes' rules), by
//!   `serde_json::from_value::<Twin10>` (the floor: no validation) and
//!   `Twin10::deserialize(&Value)` (serde's borrowed path), and by
//!   `jsonschema` (formats on) against
//!   `Form10::schema()` followed by `serde_json::from_value` (the
//!   alternative with the same guarantees). Paths that consume an owned
//!   `Value` get a fresh clone from `with_inputs`, outside the timing.
//! - `c_from_text`: the same three, end to end from JSON text.
//! - `d_wire_schema`: `ElicitationSchema::validate` with a schema received
//!   over the wire vs the derived `from_content`.
//! - `e_schema`: `T::schema()` + `serde_json::to_string` for 1, 10 and 50
//!   fields vs `schemars::schema_for!` + `to_string` of the twin.
//! - `f_hostile_pattern`: a pathological `pattern` over inputs of growing
//!   length (linear-time engine: time grows linearly).
//! - `g_pattern_dialect`: what reading a pattern as ECMA-262 costs. Each
//!   realistic pattern (date, slug, semver, username, phone) is compiled
//!   with `elicit_pattern::compile` (ECMA-262 `u` mode, translated) and, for
//!   comparison, with `regex::Regex::new` on the same source (the Rust
//!   dialect, what elicit used before issue 24); then both match the same
//!   valid input.
//! - `h_formats`: each format's check on a typical valid answer.
//!
//! - `u_forms`: forms that look like users' forms (`benches/forms/users.rs`:
//!   the issue-10 sign-up form, string-heavy, number-heavy, enum-heavy,
//!   the form of `bench/build-cost.sh shapes` with a multi-select and two
//!   formats) and `Form10`, each against both serde floors and jsonschema +
//!   serde, and their schemas against schemars, all in one run.
//!
//! Benchmarks are never asserted; the checks in the setup only make sure
//! each path does what its name says.

mod forms;

use divan::{Bencher, black_box};
use elicit_core::{Content, Elicit, ElicitationSchema};
use forms::users::{Contact, Limits, Shape, Signup, Survey};
use forms::{Form1, Form10, Form50, Twin1, Twin10, Twin50};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

fn main() {
    divan::main();
}

fn object(value: Value) -> Content {
    match value {
        Value::Object(map) => map,
        other => panic!("content must be an object, got {other}"),
    }
}

/// `jsonschema` for `Form10::schema()`, with format validation on.
fn validator10() -> jsonschema::Validator {
    let schema = serde_json::to_value(Form10::schema()).expect("the schema serializes");
    jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("the derived schema compiles in jsonschema")
}

/// Valid content: all three paths accept it.
mod a_valid {
    use super::*;

    #[divan::bench(sample_size = 64, sample_count = 500)]
    fn elicit_from_content(bencher: Bencher) {
        let content = object(forms::valid10());
        assert!(Form10::from_content(&content).is_ok());
        bencher.bench(|| Form10::from_content(black_box(&content)));
    }

    /// The same content read by `Form10` without its attributes' rules:
    /// `elicit_from_content` minus this is what the rules cost.
    #[divan::bench(sample_size = 64, sample_count = 500)]
    fn elicit_without_rules(bencher: Bencher) {
        let content = object(forms::valid10());
        assert!(forms::Bare10::from_content(&content).is_ok());
        bencher.bench(|| forms::Bare10::from_content(black_box(&content)));
    }

    #[divan::bench(sample_size = 64, sample_count = 500)]
    fn serde_from_value_floor(bencher: Bencher) {
        let value = forms::valid10();
        assert!(serde_json::from_value::<Twin10>(value.clone()).is_ok());
        bencher
            .with_inputs(|| value.clone())
            .bench_values(serde_json::from_value::<Twin10>);
    }

    /// The borrowed counterpart of the floor (clones strings, as
    /// `from_content(&Content)` does).
    #[divan::bench(sample_size = 64, sample_count = 500)]
    fn serde_deserialize_ref(bencher: Bencher) {
        let value = forms::valid10();
        assert!(Twin10::deserialize(&value).is_ok());
        bencher.bench(|| Twin10::deserialize(black_box(&value)));
    }

    #[divan::bench(sample_size = 64, sample_count = 500)]
    fn jsonschema_then_from_value(bencher: Bencher) {
        let validator = validator10();
        let value = forms::valid10();
        assert!(validator.is_valid(&value));
        bencher.with_inputs(|| value.clone()).bench_values(|value| {
            let valid = validator.validate(&value).is_ok();
            valid.then(|| serde_json::from_value::<Twin10>(value))
        });
    }
}

/// Invalid content: six fields break a rule; elicit and jsonschema find all
/// six, serde stops at the first type error it can see.
mod b_invalid {
    use super::*;

    #[divan::bench(sample_size = 64, sample_count = 500)]
    fn elicit_from_content(bencher: Bencher) {
        let content = object(forms::invalid10());
        let err = Form10::from_content(&content).expect_err("invalid");
        assert_eq!(err.errors().len(), 6, "{err}");
        bencher.bench(|| Form10::from_content(black_box(&content)));
    }

    #[divan::bench(sample_size = 64, sample_count = 500)]
    fn serde_from_value_floor(bencher: Bencher) {
        let value = forms::invalid10();
        assert!(serde_json::from_value::<Twin10>(value.clone()).is_err());
        bencher
            .with_inputs(|| value.clone())
            .bench_values(serde_json::from_value::<Twin10>);
    }

    #[divan::bench(sample_size = 64, sample_count = 500)]
    fn jsonschema_then_from_value(bencher: Bencher) {
        let validator = validator10();
        let value = forms::invalid10();
        assert_eq!(validator.iter_errors(&value).count(), 6);
        bencher.with_inputs(|| value.clone()).bench_values(|value| {
            // Every error, as elicit collects every failing field.
            let errors = black_box(validator.iter_errors(&value).collect::<Vec<_>>()).len();
            (errors == 0).then(|| serde_json::from_value::<Twin10>(value))
        });
    }
}

/// End to end from JSON text (valid content).
mod c_from_text {
    use super::*;

    fn text() -> String {
        serde_json::to_string(&forms::valid10()).expect("serializes")
    }

    #[divan::bench(sample_size = 16, sample_count = 500)]
    fn elicit_parse_then_from_content(bencher: Bencher) {
        let text = text();
        bencher.bench(|| {
            let content: Content =
                serde_json::from_str(black_box(&text)).map_err(|e| e.to_string())?;
            Form10::from_content(&content).map_err(|e| e.to_string())
        });
    }

    #[divan::bench(sample_size = 16, sample_count = 500)]
    fn serde_from_str_floor(bencher: Bencher) {
        let text = text();
        bencher.bench(|| serde_json::from_str::<Twin10>(black_box(&text)));
    }

    #[divan::bench(sample_size = 16, sample_count = 500)]
    fn jsonschema_parse_validate_from_value(bencher: Bencher) {
        let validator = validator10();
        let text = text();
        bencher.bench(|| {
            let value: Value = serde_json::from_str(black_box(&text)).map_err(|e| e.to_string())?;
            validator.validate(&value).map_err(|e| e.to_string())?;
            serde_json::from_value::<Twin10>(value).map_err(|e| e.to_string())
        });
    }
}

/// A schema received over the wire (parsed once) validating content, vs the
/// derived path (which validates and converts).
mod d_wire_schema {
    use super::*;

    fn wire() -> (String, ElicitationSchema) {
        let text = serde_json::to_string(&Form10::schema()).expect("serializes");
        let schema: ElicitationSchema = serde_json::from_str(&text).expect("parses");
        assert_eq!(schema, Form10::schema());
        (text, schema)
    }

    #[divan::bench(sample_size = 64, sample_count = 500)]
    fn wire_validate(bencher: Bencher) {
        let (_, schema) = wire();
        let content = object(forms::valid10());
        assert!(schema.validate(&content).is_ok());
        bencher.bench(|| schema.validate(black_box(&content)));
    }

    #[divan::bench(sample_size = 64, sample_count = 500)]
    fn derived_from_content(bencher: Bencher) {
        let content = object(forms::valid10());
        bencher.bench(|| Form10::from_content(black_box(&content)));
    }

    /// What a client does on receiving a `requestedSchema`: parse and check.
    #[divan::bench(sample_size = 8, sample_count = 500)]
    fn wire_parse_and_check(bencher: Bencher) {
        let (text, _) = wire();
        bencher.bench(|| {
            let schema: ElicitationSchema =
                serde_json::from_str(black_box(&text)).map_err(|e| e.to_string())?;
            schema.check().map_err(|e| e.to_string())
        });
    }
}

/// The schema, built and serialized to a JSON string.
mod e_schema {
    use super::*;

    fn elicit<T: Elicit>(bencher: Bencher) {
        bencher.bench(|| serde_json::to_string(&T::schema()));
    }

    #[divan::bench(sample_size = 64, sample_count = 500)]
    fn elicit_1(bencher: Bencher) {
        elicit::<Form1>(bencher);
    }
    #[divan::bench(sample_size = 8, sample_count = 500)]
    fn elicit_10(bencher: Bencher) {
        elicit::<Form10>(bencher);
    }
    #[divan::bench(sample_size = 8, sample_count = 500)]
    fn elicit_50(bencher: Bencher) {
        elicit::<Form50>(bencher);
    }
    #[divan::bench(sample_size = 16, sample_count = 500)]
    fn schemars_1(bencher: Bencher) {
        bencher.bench(|| serde_json::to_string(&schemars::schema_for!(Twin1)));
    }
    #[divan::bench(sample_size = 8, sample_count = 500)]
    fn schemars_10(bencher: Bencher) {
        bencher.bench(|| serde_json::to_string(&schemars::schema_for!(Twin10)));
    }
    #[divan::bench(sample_size = 8, sample_count = 500)]
    fn schemars_50(bencher: Bencher) {
        bencher.bench(|| serde_json::to_string(&schemars::schema_for!(Twin50)));
    }

    /// The parse side at 50 fields, for the per-field cost of `from_content`.
    #[divan::bench(sample_size = 16, sample_count = 500)]
    fn from_content_50(bencher: Bencher) {
        let content = object(forms::valid50());
        assert!(Form50::from_content(&content).is_ok());
        bencher.bench(|| Form50::from_content(black_box(&content)));
    }
    #[divan::bench(sample_size = 256, sample_count = 500)]
    fn from_content_1(bencher: Bencher) {
        let content = object(forms::valid1());
        assert!(Form1::from_content(&content).is_ok());
        bencher.bench(|| Form1::from_content(black_box(&content)));
    }
}

/// Pathological patterns (catastrophic for backtracking engines) over inputs
/// of growing length that never match. The engine is linear: the time per
/// input byte stays flat.
mod f_hostile_pattern {
    use super::*;

    const LENGTHS: [usize; 5] = [64, 1024, 4096, 16384, 65536];

    /// `^(a+)+$` on `aaa…a!`.
    #[derive(Elicit)]
    struct NestedPlus {
        #[elicit(pattern = "^(a+)+$")]
        text: String,
    }

    /// `(a|aa)*b` on `aaa…a`.
    #[derive(Elicit)]
    struct Alternation {
        #[elicit(pattern = "(a|aa)*b")]
        text: String,
    }

    fn content(text: String) -> Content {
        object(serde_json::json!({ "text": text }))
    }

    #[divan::bench(args = LENGTHS, sample_size = 8, sample_count = 200)]
    fn nested_plus(bencher: Bencher, n: usize) {
        let content = content(format!("{}!", "a".repeat(n)));
        assert!(NestedPlus::from_content(&content).is_err());
        bencher
            .counter(divan::counter::BytesCount::new(n + 1))
            .bench(|| NestedPlus::from_content(black_box(&content)).is_ok());
    }

    #[divan::bench(args = LENGTHS, sample_size = 8, sample_count = 200)]
    fn alternation(bencher: Bencher, n: usize) {
        let content = content("a".repeat(n));
        assert!(Alternation::from_content(&content).is_err());
        bencher
            .counter(divan::counter::BytesCount::new(n))
            .bench(|| Alternation::from_content(black_box(&content)).is_ok());
    }

    /// The same pattern in a schema received over the wire.
    #[divan::bench(args = LENGTHS, sample_size = 8, sample_count = 200)]
    fn wire_nested_plus(bencher: Bencher, n: usize) {
        let schema: ElicitationSchema = serde_json::from_value(serde_json::json!({
            "type": "object",
            "properties": {"text": {"type": "string", "pattern": "^(a+)+$"}},
            "required": ["text"],
        }))
        .expect("parses");
        assert!(schema.check().is_ok());
        let content = content(format!("{}!", "a".repeat(n)));
        assert!(schema.validate(&content).is_err());
        bencher
            .counter(divan::counter::BytesCount::new(n + 1))
            .bench(|| schema.validate(black_box(&content)).is_ok());
    }
}

/// ECMA-262 patterns (translated) against the same source in the Rust
/// dialect: the cost of compiling once and of one match.
mod g_pattern_dialect {
    use super::*;

    /// (name, pattern, a matching input). The sources mean the same in
    /// both dialects on these ASCII inputs.
    const PATTERNS: [(&str, &str, &str); 5] = [
        ("date", r"^\d{4}-\d{2}-\d{2}$", "2026-12-05"),
        ("slug", r"^[a-z0-9]+(?:-[a-z0-9]+)*$", "deploy-to-staging-2"),
        (
            "semver",
            r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$",
            "1.24.0-rc.1+build.7",
        ),
        ("username", r"^\w{3,16}$", "alice_01"),
        ("phone", r"^\+?[0-9 ()-]{7,20}$", "+31 (20) 555-0100"),
    ];

    fn pattern(name: &str) -> (&'static str, &'static str) {
        let (_, p, input) = PATTERNS.iter().find(|(n, ..)| *n == name).expect("known");
        (p, input)
    }

    const NAMES: [&str; 5] = ["date", "slug", "semver", "username", "phone"];

    #[divan::bench(args = NAMES)]
    fn compile_ecma(name: &str) -> elicit_pattern::Regex {
        elicit_pattern::compile(black_box(pattern(name).0)).expect("compiles")
    }

    #[divan::bench(args = NAMES)]
    fn compile_rust_dialect(name: &str) -> regex::Regex {
        regex::Regex::new(black_box(pattern(name).0)).expect("compiles")
    }

    #[divan::bench(args = NAMES)]
    fn match_ecma(bencher: Bencher, name: &str) {
        let (p, input) = pattern(name);
        let re = elicit_pattern::compile(p).expect("compiles");
        assert!(re.is_match(input));
        bencher.bench(|| re.is_match(black_box(input)));
    }

    #[divan::bench(args = NAMES)]
    fn match_rust_dialect(bencher: Bencher, name: &str) {
        let (p, input) = pattern(name);
        let re = regex::Regex::new(p).expect("compiles");
        assert!(re.is_match(input));
        bencher.bench(|| re.is_match(black_box(input)));
    }
}

/// What each format's check costs on a typical valid answer (the checks a
/// derived form runs on an `email`, `uri`, `date` or `date_time` field);
/// `g_pattern_dialect` has the patterns'.
mod h_formats {
    use super::*;
    use elicit_core::__private::{is_date, is_date_time, is_email, is_uri};

    /// The check of the format `name` and a typical valid answer.
    fn format(name: &str) -> (fn(&str) -> bool, &'static str) {
        match name {
            "email" => (is_email, "ada@example.com"),
            "uri" => (is_uri, "https://example.com/ada"),
            "date" => (is_date, "2026-12-07"),
            "date_time" => (is_date_time, "2026-12-07T10:30:00Z"),
            other => panic!("no format {other}"),
        }
    }

    #[divan::bench(args = ["email", "uri", "date", "date_time"], sample_size = 256, sample_count = 300)]
    fn check(bencher: Bencher, name: &str) {
        let (check, input) = format(name);
        assert!(check(input));
        bencher.bench(|| check(black_box(input)));
    }
}

/// A benchmarked form: its serde + schemars twin and valid content for both.
trait UserForm: Elicit + 'static {
    /// The same struct with `#[derive(Deserialize, JsonSchema)]`.
    type Twin: DeserializeOwned + schemars::JsonSchema;
    /// Valid content (every field present).
    fn content() -> Value;
}

macro_rules! user_forms {
    ($($form:ty => $twin:ty, $content:path;)*) => {$(
        impl UserForm for $form {
            type Twin = $twin;
            fn content() -> Value {
                $content()
            }
        }
    )*};
}

user_forms! {
    Form10 => Twin10, forms::valid10;
    Signup => forms::users::SignupTwin, forms::users::signup;
    Contact => forms::users::ContactTwin, forms::users::contact;
    Limits => forms::users::LimitsTwin, forms::users::limits;
    Survey => forms::users::SurveyTwin, forms::users::survey;
    Shape => forms::users::ShapeTwin, forms::users::shape;
}

/// Every path on every form, valid content: `from_content` against serde's
/// borrowed floor (`deserialize(&Value)`, which copies strings as
/// `from_content(&Content)` must), serde's consuming floor (`from_value`,
/// input cloned outside the timing), and jsonschema (formats on) + serde;
/// then the schema against schemars.
mod u_forms {
    use super::*;

    fn content<F: UserForm>() -> Content {
        let content = object(F::content());
        if let Err(e) = F::from_content(&content) {
            panic!("{}: {e}", std::any::type_name::<F>());
        }
        assert!(F::Twin::deserialize(&F::content()).is_ok());
        content
    }

    #[divan::bench(types = [Signup, Contact, Limits, Survey, Shape, Form10], sample_size = 64, sample_count = 300)]
    fn elicit_from_content<F: UserForm>(bencher: Bencher) {
        let content = content::<F>();
        bencher.bench(|| F::from_content(black_box(&content)));
    }

    /// The owned entry point: the content map is consumed (a fresh clone
    /// from `with_inputs`, outside the timing), strings are moved.
    #[divan::bench(types = [Signup, Contact, Limits, Survey, Shape, Form10], sample_size = 64, sample_count = 300)]
    fn elicit_from_content_owned<F: UserForm>(bencher: Bencher) {
        let content = content::<F>();
        bencher
            .with_inputs(|| content.clone())
            .bench_values(F::from_content_owned);
    }

    #[divan::bench(types = [Signup, Contact, Limits, Survey, Shape, Form10], sample_size = 64, sample_count = 300)]
    fn serde_deserialize_ref<F: UserForm>(bencher: Bencher) {
        let value = F::content();
        content::<F>();
        bencher.bench(|| F::Twin::deserialize(black_box(&value)));
    }

    #[divan::bench(types = [Signup, Contact, Limits, Survey, Shape, Form10], sample_size = 64, sample_count = 300)]
    fn serde_from_value<F: UserForm>(bencher: Bencher) {
        let value = F::content();
        content::<F>();
        bencher
            .with_inputs(|| value.clone())
            .bench_values(serde_json::from_value::<F::Twin>);
    }

    #[divan::bench(types = [Signup, Contact, Limits, Survey, Shape, Form10], sample_size = 64, sample_count = 300)]
    fn jsonschema_from_value<F: UserForm>(bencher: Bencher) {
        let schema = serde_json::to_value(F::schema()).expect("the schema serializes");
        let validator = jsonschema::options()
            .should_validate_formats(true)
            .build(&schema)
            .expect("the derived schema compiles in jsonschema");
        let value = F::content();
        assert!(validator.is_valid(&value));
        bencher.with_inputs(|| value.clone()).bench_values(|value| {
            let valid = validator.validate(&value).is_ok();
            valid.then(|| serde_json::from_value::<F::Twin>(value))
        });
    }

    #[divan::bench(types = [Signup, Contact, Limits, Survey, Shape, Form10], sample_size = 16, sample_count = 300)]
    fn schema_build_to_string<F: UserForm>(bencher: Bencher) {
        bencher.bench(|| serde_json::to_string(&F::schema()));
    }

    /// What sending the form costs now: a copy of the JSON built once.
    #[divan::bench(types = [Signup, Contact, Limits, Survey, Shape, Form10], sample_size = 64, sample_count = 300)]
    fn schema_json_to_owned<F: UserForm>(bencher: Bencher) {
        assert_eq!(
            F::schema_json(),
            serde_json::to_string(&F::schema()).expect("serializes")
        );
        bencher.bench(|| F::schema_json().into_owned());
    }

    #[divan::bench(types = [Signup, Contact, Limits, Survey, Shape, Form10], sample_size = 16, sample_count = 300)]
    fn schemars_to_string<F: UserForm>(bencher: Bencher) {
        bencher.bench(|| serde_json::to_string(&schemars::schema_for!(F::Twin)));
    }
}
