//! `sensitive::read_body` on arbitrary bytes, then `from_submission`, as a
//! page's POST would reach them (issue 22's "a fuzz target on the body
//! parser").
//!
//! Checked on every input (`elicit_fuzz::common::page_body`, also run on
//! stable by a proptest in tests/it/sensitive_body.rs): no panic; an
//! accepted body holds only the form's fields, never a secret as a plain
//! value, each value of its property's type or a string, a multi-select's
//! as an array of strings; a refused one names at most a cut field name;
//! and a secret field's error is one that holds no value.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    elicit_fuzz::common::page_body::check_page_body(data);
});
