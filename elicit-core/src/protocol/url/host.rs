//! Reading the host: IPv6 literals, IPv4 addresses (`std::net`), domain
//! labels (the rule of [`crate::format`]) and their Punycode form
//! ([`super::idn`]).
//!
//! The host is shown as a browser shows it (the WHATWG URL Standard's host
//! serializer): lowercase, an IPv4 address without a trailing `.`, an IPv6
//! address in its shortest form, a domain as written (with its trailing `.`,
//! if any).

use std::fmt::Write as _;
use std::net::{Ipv4Addr, Ipv6Addr};

use super::analysis::Analysis;
use super::policy::{UrlRejection, UrlWarning};
use super::{idn, lookalike};

/// The longest host name, in bytes, without its trailing `.`.
const MAX_HOST_LEN: usize = 253;

/// Reads `host_text` (the host as written, port and userinfo removed) into
/// `a`: its display form, its kind, whether it is loopback, its Unicode
/// form, its warnings and refusals.
pub(super) fn analyse_host(a: &mut Analysis, host_text: &str) {
    if let Some(inner) = host_text
        .strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
    {
        analyse_ipv6(a, host_text, inner);
        return;
    }
    if host_text.contains('%') {
        a.host = Some(host_text.to_owned());
        a.refuse(UrlRejection::PercentEncodedHost);
        return;
    }
    let host = host_text.to_lowercase();
    a.host = Some(host.clone());
    let trimmed = host.strip_suffix('.').unwrap_or(&host);
    if trimmed.is_empty() {
        a.refuse(UrlRejection::InvalidHost {
            reason: "has no labels",
        });
        return;
    }
    let labels: Vec<&str> = trimmed.split('.').collect();
    check_name(a, trimmed, &labels);
    // WHATWG reads a host whose last label is a number as an IPv4 address.
    if labels.last().is_some_and(|l| ends_in_number(l)) {
        analyse_ipv4(a, trimmed, host_text);
    } else {
        analyse_domain(a, trimmed, &labels);
    }
}

/// A bracketed IPv6 address; `inner` is without the brackets. Shown in the
/// browser's form ([`ipv6_host`]); a refused one as written, lowercased.
fn analyse_ipv6(a: &mut Analysis, host_text: &str, inner: &str) {
    a.host = Some(host_text.to_ascii_lowercase());
    a.warn(UrlWarning::IpLiteral);
    if inner.contains('%') {
        a.refuse(UrlRejection::InvalidHost {
            reason: "has an IPv6 zone identifier (`%25...`), which is not allowed",
        });
        return;
    }
    match inner.parse::<Ipv6Addr>() {
        Ok(address) => {
            a.loopback = address.is_loopback();
            a.host = Some(ipv6_host(address));
        }
        Err(_) => a.refuse(UrlRejection::InvalidHost {
            reason: "is not a valid IPv6 address",
        }),
    }
}

/// `address` in brackets, as the URL Standard's IPv6 serializer writes it:
/// each piece in lowercase hex without leading zeros, and the first longest
/// run of two or more zero pieces written as `::`. An embedded IPv4 address
/// is written as two pieces too (`[::ffff:102:304]`), unlike
/// `Ipv6Addr`'s `Display` (`::ffff:1.2.3.4`).
fn ipv6_host(address: Ipv6Addr) -> String {
    let pieces = address.segments();
    let compress = longest_zero_run(&pieces);
    let mut host = String::from("[");
    let mut ignore_zeros = false;
    for (index, &piece) in pieces.iter().enumerate() {
        if ignore_zeros && piece == 0 {
            continue;
        }
        ignore_zeros = false;
        if compress == Some(index) {
            host.push_str(if index == 0 { "::" } else { ":" });
            ignore_zeros = true;
            continue;
        }
        // Writing to a `String` cannot fail.
        let _ = write!(host, "{piece:x}");
        if index != 7 {
            host.push(':');
        }
    }
    host.push(']');
    host
}

/// Where the first of the longest runs of zero pieces starts, if that run
/// is longer than one piece.
fn longest_zero_run(pieces: &[u16; 8]) -> Option<usize> {
    let mut longest: Option<(usize, usize)> = None;
    let mut index = 0;
    while index < pieces.len() {
        if pieces[index] != 0 {
            index += 1;
            continue;
        }
        let start = index;
        while index < pieces.len() && pieces[index] == 0 {
            index += 1;
        }
        let len = index - start;
        if len > 1 && longest.is_none_or(|(_, longest_len)| len > longest_len) {
            longest = Some((start, len));
        }
    }
    longest.map(|(start, _)| start)
}

/// The checks on a name's characters, labels and length. `trimmed` is the
/// lowercased host without its trailing `.`; `labels` are its labels.
fn check_name(a: &mut Analysis, trimmed: &str, labels: &[&str]) {
    if !trimmed.is_ascii() {
        // The first refusal is the one reported: the label checks below
        // could add nothing to it.
        a.warn(UrlWarning::NonAsciiHost);
        a.refuse(UrlRejection::NonAsciiHost);
        return;
    }
    for label in labels {
        if !is_label(label) {
            a.refuse(UrlRejection::InvalidHost {
                reason: label_fault(label),
            });
        }
    }
    if trimmed.len() > MAX_HOST_LEN {
        a.refuse(UrlRejection::InvalidHost {
            reason: "is longer than 253 characters",
        });
    }
}

/// The domain-label rule, the one [`crate::format::is_email`] applies to
/// e-mail domains: 1 to 63 ASCII letters, digits or `-`, not starting or
/// ending with `-`.
fn is_label(label: &str) -> bool {
    crate::format::is_email_domain(label.as_bytes())
}

/// Why an ASCII `label` without `.` fails [`is_label`].
fn label_fault(label: &str) -> &'static str {
    if label.is_empty() {
        "has an empty label (`..` or a leading `.`)"
    } else if !label
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'-')
    {
        "may contain only letters, digits, `-` and `.`"
    } else if label.starts_with('-') || label.ends_with('-') {
        "has a label that starts or ends with `-`"
    } else {
        // The length is the only rule left.
        "has a label longer than 63 characters"
    }
}

/// The WHATWG "ends in a number" test on the last label: all decimal
/// digits, or `0x` and hex digits.
fn ends_in_number(label: &str) -> bool {
    let hex = label.get(..2).is_some_and(|p| p.eq_ignore_ascii_case("0x"))
        && label[2..].bytes().all(|b| b.is_ascii_hexdigit());
    !label.is_empty() && (label.bytes().all(|b| b.is_ascii_digit()) || hex)
}

/// A host that WHATWG reads as an IPv4 address: allowed only as four
/// decimal numbers up to 255 without leading zeros, the one form
/// `std::net::Ipv4Addr` parses, and shown without a trailing `.` as a
/// browser shows it. Shorthand (`127.1`, `2130706433`), hex (`0x7f.0.0.1`)
/// and octal (`0177.0.0.1`) forms are refused: a browser opens them, but as
/// an address few readers would recognise.
fn analyse_ipv4(a: &mut Analysis, trimmed: &str, host_text: &str) {
    a.warn(UrlWarning::IpLiteral);
    match trimmed.parse::<Ipv4Addr>() {
        Ok(address) => {
            a.loopback = address.is_loopback();
            a.host = Some(trimmed.to_owned());
        }
        Err(_) => a.refuse(UrlRejection::NonCanonicalIpv4 {
            host: host_text.to_owned(),
        }),
    }
}

/// A domain name: its Punycode labels, and the look-alike warnings.
fn analyse_domain(a: &mut Analysis, trimmed: &str, labels: &[&str]) {
    a.loopback = trimmed == "localhost";
    let unicode_labels = decode_labels(a, labels);
    if let Err(reason) = idn::check_bidi(&unicode_labels) {
        a.refuse(UrlRejection::InvalidHost { reason });
    }
    for label in &unicode_labels {
        if lookalike::mixes_scripts(label) {
            a.warn(UrlWarning::MixedScripts {
                label: label.clone(),
            });
        }
    }
    if let Some(warning) = lookalike::long_host(trimmed, labels) {
        a.warn(warning);
    }
    if let Some(warning) = lookalike::deceptive(labels) {
        a.warn(warning);
    }
}

/// The labels with their `xn--` ones decoded (kept as written when they do
/// not decode). Refuses an `xn--` label a browser refuses ([`idn`]), warns
/// about each one, and sets the Unicode host when there is one.
fn decode_labels(a: &mut Analysis, labels: &[&str]) -> Vec<String> {
    let mut unicode_labels = Vec::with_capacity(labels.len());
    let mut any_punycode = false;
    for label in labels {
        let Some(encoded) = label.strip_prefix("xn--") else {
            unicode_labels.push((*label).to_owned());
            continue;
        };
        any_punycode = true;
        let decoded = idn::punycode_decode(encoded);
        let checked = match &decoded {
            Some(unicode) => idn::check_label(unicode),
            None => Err(idn::NOT_PUNYCODE),
        };
        if let Err(reason) = checked {
            a.refuse(UrlRejection::InvalidHost { reason });
        }
        a.warn(UrlWarning::Punycode {
            label: (*label).to_owned(),
            decoded: decoded.clone(),
        });
        unicode_labels.push(decoded.unwrap_or_else(|| (*label).to_owned()));
    }
    if any_punycode {
        let mut unicode_host = unicode_labels.join(".");
        // A trailing `.` stays, as in the host shown (and in a browser).
        if a.host.as_deref().is_some_and(|h| h.ends_with('.')) {
            unicode_host.push('.');
        }
        a.unicode_host = Some(unicode_host);
    }
    unicode_labels
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::url::{UrlReview, UrlVerdict};

    fn ipv6_review(inner: &str) -> UrlReview {
        UrlReview::new(&format!("https://[{inner}]/"))
    }

    #[test]
    fn ipv6_forms() {
        for (good, shown) in [
            ("::1", "[::1]"),
            ("0:0:0:0:0:0:0:1", "[::1]"),
            ("::", "[::]"),
            ("::ffff:127.0.0.1", "[::ffff:7f00:1]"),
            ("1:2:3:4:5:6:7::", "[1:2:3:4:5:6:7:0]"),
            ("1:2:3:4:5:6:1.2.3.4", "[1:2:3:4:5:6:102:304]"),
            ("2001:DB8::1", "[2001:db8::1]"),
        ] {
            let review = ipv6_review(good);
            assert_eq!(review.verdict(), &UrlVerdict::Allowed, "{good}");
            assert!(review.warnings().contains(&UrlWarning::IpLiteral), "{good}");
            assert_eq!(review.host(), Some(shown), "{good}");
            // The URL itself is kept as written.
            assert_eq!(review.split_for_display().unwrap().1, format!("[{good}]"));
        }
        for bad in [
            ":1",
            "1::2::3",
            "1:2:3:4:5:6:7:8:9",
            "12345::",
            "1::2:",
            ":::",
            "g::",
            "1.2.3.4::",
            "::1.2.3.04",
            "1:2:3:4:5:6:7:1.2.3.4",
        ] {
            let review = ipv6_review(bad);
            assert_eq!(
                review.verdict().rejection(),
                Some(&UrlRejection::InvalidHost {
                    reason: "is not a valid IPv6 address"
                }),
                "{bad}"
            );
            // Refused, it is shown as written.
            assert_eq!(review.host(), Some(format!("[{bad}]").as_str()));
        }
    }

    /// The URL Standard's IPv6 serializer: the first longest run of two or
    /// more zero pieces becomes `::`.
    #[test]
    fn ipv6_serializer() {
        for (pieces, shown) in [
            ([0; 8], "[::]"),
            ([0, 0, 0, 0, 0, 0, 0, 1], "[::1]"),
            ([1, 0, 0, 0, 0, 0, 0, 0], "[1::]"),
            ([1, 0, 1, 0, 1, 0, 1, 0], "[1:0:1:0:1:0:1:0]"),
            ([1, 0, 0, 1, 0, 0, 0, 1], "[1:0:0:1::1]"),
            ([1, 0, 0, 1, 0, 0, 1, 1], "[1::1:0:0:1:1]"),
            ([0, 0, 1, 0, 0, 1, 0, 0], "[::1:0:0:1:0:0]"),
            (
                [0xabcd, 0x0db8, 0, 0, 0, 0, 0xffff, 0x0102],
                "[abcd:db8::ffff:102]",
            ),
            ([0, 0, 0, 0, 0, 0xffff, 0x7f00, 1], "[::ffff:7f00:1]"),
        ] {
            assert_eq!(ipv6_host(Ipv6Addr::from(pieces)), shown, "{pieces:?}");
        }
    }

    #[test]
    fn loopback_addresses() {
        for (url, development) in [
            ("http://[::1]/", true),
            ("http://[0:0:0:0:0:0:0:1]/", true),
            ("http://[::2]/", false),
            ("http://[::ffff:127.0.0.1]/", false),
            ("http://127.0.0.1/", true),
            ("http://127.255.255.254./", true),
            ("http://128.0.0.1/", false),
            ("http://localhost./", true),
        ] {
            assert_eq!(
                matches!(UrlReview::new(url).verdict(), UrlVerdict::Development),
                development,
                "{url}"
            );
        }
    }

    #[test]
    fn ipv4_forms() {
        for good in ["1.2.3.4", "255.255.255.255", "0.0.0.0", "10.0.0.1."] {
            let review = UrlReview::new(&format!("https://{good}/"));
            assert_eq!(review.verdict(), &UrlVerdict::Allowed, "{good}");
            assert!(review.warnings().contains(&UrlWarning::IpLiteral), "{good}");
            // Without the trailing `.`, as a browser shows it.
            assert_eq!(review.host(), Some(good.trim_end_matches('.')), "{good}");
        }
        for bad in [
            "127.1",
            "2130706433",
            "0x7f.0.0.1",
            "0177.0.0.1",
            "1.2.3.256",
            "1.2.3.4.5",
            "example.123",
            "a.0x",
            "01.2.3.4",
        ] {
            let review = UrlReview::new(&format!("https://{bad}/"));
            assert_eq!(
                review.verdict().rejection(),
                Some(&UrlRejection::NonCanonicalIpv4 { host: bad.into() }),
                "{bad}"
            );
        }
    }

    #[test]
    fn label_faults() {
        for (host, reason) in [
            ("a..b", "has an empty label (`..` or a leading `.`)"),
            (".a", "has an empty label (`..` or a leading `.`)"),
            ("a_b.com", "may contain only letters, digits, `-` and `.`"),
            ("a-.com", "has a label that starts or ends with `-`"),
            ("-a-.com", "has a label that starts or ends with `-`"),
            (
                &format!("{}.com", "a".repeat(64)),
                "has a label longer than 63 characters",
            ),
        ] {
            assert_eq!(
                UrlReview::new(&format!("https://{host}/"))
                    .verdict()
                    .rejection(),
                Some(&UrlRejection::InvalidHost { reason }),
                "{host}"
            );
        }
        let longest_label = format!("https://{}.com/", "a".repeat(63));
        assert_eq!(
            UrlReview::new(&longest_label).verdict(),
            &UrlVerdict::Allowed
        );
        let long_host = format!("https://{}.com/", vec!["a".repeat(60); 5].join("."));
        assert_eq!(
            UrlReview::new(&long_host).verdict().rejection(),
            Some(&UrlRejection::InvalidHost {
                reason: "is longer than 253 characters"
            })
        );
    }
}
