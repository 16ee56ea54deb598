//! A `requestedSchema` as the client receives it: arbitrary text (or a
//! generated schema written as text), read with `serde_json::from_str`,
//! then `check()`ed and used to `validate` content.
//!
//! The input is `schema text [0xFF content bytes]` (0xFF never occurs in
//! UTF-8); the content is generated from the bytes after it.
//!
//! Checked on every input: no panic; the text reader and the `Value` reader
//! (text -> `Value` -> schema) agree, unless the text repeats a key (a
//! `Value` keeps the last one) or holds a number a `Value` cannot (beyond
//! `f64`, under a key the text reader skips); what we read we write and
//! read back equal; `check()` reports at least one issue when it fails;
//! `validate` never panics, checked or not, and every error names a property
//! of the schema; and a property that `validate` reports is never one the
//! content lacks unless it is required.
#![no_main]

use arbitrary::Unstructured;
use elicit_core::{Content, ElicitationSchema};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let (text, rest) = match data.iter().position(|&b| b == 0xFF) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[][..]),
    };
    let mut u = Unstructured::new(rest);
    let content = elicit_fuzz::schema_content(&mut u).unwrap_or_default();
    // An empty text: a generated schema, written pretty-printed (so the
    // text reader sees whitespace and escapes the compact form has not).
    let text = if text.is_empty() {
        let Ok(schema) = elicit_fuzz::schema(&mut u) else {
            return;
        };
        serde_json::to_string_pretty(&schema).expect("a Value serializes")
    } else {
        match std::str::from_utf8(text) {
            Ok(text) => text.to_owned(),
            Err(_) => return,
        }
    };
    check(&text, &content);
});

fn check(text: &str, content: &Content) {
    let from_text = serde_json::from_str::<ElicitationSchema>(text);
    let value = serde_json::from_str::<Value>(text);
    let from_value = value.as_ref().map_err(|e| e.to_string()).and_then(|v| {
        serde_json::from_value::<ElicitationSchema>(v.clone()).map_err(|e| e.to_string())
    });
    let schema = match (from_text, from_value) {
        (Ok(a), Ok(b)) => {
            assert_eq!(a, b, "text and Value readers disagree on {text}");
            a
        }
        (Err(_), Err(_)) => return,
        // A `Value` cannot hold a number beyond `f64`, which the text
        // reader skips unread under a key the schema does not know
        // (tests/it/fuzz_regressions.rs, `schema_wire_skips_an_unknown_key_…`).
        (Ok(a), Err(e)) if e.contains("number out of range") => a,
        (a, b) => {
            if elicit_fuzz::has_duplicate_keys(text) == Some(true) {
                return;
            }
            panic!("readers disagree on {text}: {a:?} vs {b:?}")
        }
    };
    let written = serde_json::to_string(&schema).expect("a schema serializes");
    let again: ElicitationSchema = serde_json::from_str(&written)
        .unwrap_or_else(|e| panic!("our own output {written} does not parse: {e}"));
    assert_eq!(again, schema, "round trip through {written}");

    if let Err(err) = schema.check() {
        assert!(!err.issues().is_empty());
        assert!(!err.to_string().is_empty());
    }
    if let Err(err) = schema.validate(content) {
        assert!(!err.errors().is_empty());
        for e in err.errors() {
            assert!(
                schema.properties.contains(e.field()),
                "an error names `{}`, not a property: {err}",
                e.field()
            );
            if !content.contains_key(e.field()) {
                assert!(
                    schema.is_required(e.field()),
                    "`{}` is absent, not required, and refused: {err}",
                    e.field()
                );
            }
        }
    }
}
