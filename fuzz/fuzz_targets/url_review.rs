//! `UrlReview::new` and `check_url` on arbitrary URLs, against the WHATWG
//! parser of the `url` crate (what a browser opens).
//!
//! Checked on every input (`elicit_fuzz::check_url_review`): no panic;
//! `check_url` agrees with the review's verdict; the URL is kept as
//! received and `split_for_display` splits it around the host; every URL
//! the WHATWG parser refuses (its host above all: an `xn--` label IDNA
//! refuses, a bad IP address) is refused, and so is every URL in which it
//! sees userinfo; and every URL that is not refused, it reads with the same
//! scheme, no userinfo, and exactly the host the review shows (`host()`,
//! IP addresses included, of the same kind). No exception.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // The first byte picks raw text or a generated URL.
    if let Some(url) = elicit_fuzz::url_review_input(data) {
        elicit_fuzz::check_url_review(&url);
    }
});
