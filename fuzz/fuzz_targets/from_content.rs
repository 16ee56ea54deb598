//! `from_content` of every derived form on arbitrary content.
#![no_main]

use arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    if let Ok(content) = elicit_fuzz::content(&mut u) {
        elicit_fuzz::check_every_form(&content);
    }
});
