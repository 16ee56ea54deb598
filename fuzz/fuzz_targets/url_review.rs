//! `UrlReview::new` and `check_url` on arbitrary URLs, against the WHATWG
//! parser of the `url` crate (what a browser opens).
//!
//! Checked on every input: no panic; `check_url` agrees with the review's
//! verdict; the URL is kept as received and `split_for_display` splits it
//! around the host; and for every URL that is not refused, the WHATWG
//! parser reads it, with the same scheme, the same host (an IP address
//! possibly in another form) and no userinfo. The one documented exception
//! (tests/it/url_whatwg.rs): an `xn--` label IDNA refuses, which we flag with a
//! Punycode warning and a browser does not open at all. And a URL in which
//! the WHATWG parser sees userinfo is refused.
#![no_main]

use std::net::{Ipv4Addr, Ipv6Addr};

use arbitrary::Unstructured;
use elicit_core::protocol::url::{UrlReview, UrlWarning, check_url};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // The first byte picks raw text or a generated URL.
    let url = match data.split_first() {
        Some((0, rest)) => match std::str::from_utf8(rest) {
            Ok(text) => text.to_owned(),
            Err(_) => return,
        },
        _ => match elicit_fuzz::url_string(&mut Unstructured::new(data)) {
            Ok(url) => url,
            Err(_) => return,
        },
    };
    check(&url);
});

fn check(url: &str) {
    let ours = UrlReview::new(url);
    assert_eq!(ours.url(), url);
    assert_eq!(
        check_url(url).err().as_ref(),
        ours.verdict().rejection(),
        "check_url and UrlReview disagree on {url:?}"
    );
    if let Some((before, host, after)) = ours.split_for_display() {
        assert_eq!(format!("{before}{host}{after}"), url, "split of {url:?}");
    }

    let theirs = url::Url::parse(url);
    if let Ok(theirs) = &theirs
        && (!theirs.username().is_empty() || theirs.password().is_some())
    {
        assert!(
            ours.verdict().is_refused(),
            "{url:?}: a browser sees userinfo, and we allow it"
        );
    }
    if ours.verdict().is_refused() {
        return;
    }
    let theirs = match theirs {
        Ok(theirs) => theirs,
        Err(url::ParseError::IdnaError) => {
            assert!(
                ours.warnings()
                    .iter()
                    .any(|w| matches!(w, UrlWarning::Punycode { .. })),
                "{url:?}: allowed without a Punycode warning, and a browser refuses its IDN"
            );
            return;
        }
        Err(e) => panic!("{url:?}: allowed, but a browser says {e}"),
    };
    assert_eq!(Some(theirs.scheme()), ours.scheme(), "scheme of {url:?}");
    assert_eq!(theirs.username(), "", "username in {url:?}");
    assert_eq!(theirs.password(), None, "password in {url:?}");
    let shown = ours
        .host()
        .unwrap_or_else(|| panic!("{url:?}: allowed without a host"));
    match theirs.host() {
        Some(url::Host::Ipv6(address)) => assert_eq!(
            shown
                .trim_start_matches('[')
                .trim_end_matches(']')
                .parse::<Ipv6Addr>()
                .ok(),
            Some(address),
            "IPv6 host of {url:?}"
        ),
        Some(url::Host::Ipv4(address)) => assert_eq!(
            shown.trim_end_matches('.').parse::<Ipv4Addr>().ok(),
            Some(address),
            "IPv4 host of {url:?}"
        ),
        _ => assert_eq!(theirs.host_str(), Some(shown), "host of {url:?}"),
    }
}
