//! The client's path on an arbitrary (schema, content) pair: read the
//! `requestedSchema`, `check` it, `validate` the content against it.
#![no_main]

use arbitrary::Unstructured;
use elicit_core::ElicitationSchema;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let (Ok(schema), Ok(content)) = (
        elicit_fuzz::schema(&mut u),
        elicit_fuzz::schema_content(&mut u),
    ) else {
        return;
    };
    // Read from text (the wire) and from a `Value`: the same verdict.
    let text = serde_json::to_string(&schema).expect("a Value serializes");
    let from_text = serde_json::from_str::<ElicitationSchema>(&text);
    let from_value = serde_json::from_value::<ElicitationSchema>(schema);
    let schema = match (from_text, from_value) {
        (Ok(a), Ok(b)) => {
            assert_eq!(a, b, "text and value readers disagree on {text}");
            a
        }
        (Err(_), Err(_)) => return,
        (a, b) => panic!("readers disagree on {text}: {a:?} vs {b:?}"),
    };
    // What we write, we read back the same.
    let written = serde_json::to_string(&schema).expect("a schema serializes");
    let again: ElicitationSchema = serde_json::from_str(&written)
        .unwrap_or_else(|e| panic!("our own output {written} does not parse: {e}"));
    assert_eq!(again, schema, "round trip through {written}");

    let checked = schema.check();
    if let Err(err) = &checked {
        assert!(!err.issues().is_empty());
        assert!(!err.to_string().is_empty());
    }
    match schema.validate(&content) {
        Ok(()) => {}
        Err(err) => {
            for e in err.errors() {
                assert!(
                    schema.properties.contains(e.field()),
                    "an error names `{}`, not a property: {err}",
                    e.field()
                );
            }
            assert!(!err.to_string().is_empty());
        }
    }
});
