//! The URL review against a WHATWG URL parser (the `url` crate, which
//! follows the URL Standard that browsers implement): a browser must open
//! the host we show the user, with the scheme we show, and no userinfo.
//!
//! Nothing here resolves or fetches a URL: both sides only parse strings.

use std::collections::BTreeMap;
use std::net::{Ipv4Addr, Ipv6Addr};

use elicit_core::protocol::url::{UrlRejection, UrlReview, UrlWarning};
use proptest::prelude::*;
use url::Url;

/// Every allowed (and development) row of `url_table` in tests/it/protocol.rs.
const URL_TABLE_ALLOWED: &[&str] = &[
    "https://agent.example.com/connect?elicitationId=github-oauth-001",
    "HTTPS://Agent.Example.COM/Path",
    "https://localhost/",
    "https://www.google.co.uk/",
    "https://de.wikipedia.org/wiki/URL",
    "https://example.com/?max_tokens=5&token_count=2&username=me",
    "http://localhost:8080/callback",
    "http://127.0.0.1:3000/cb",
    "http://127.8.9.10/",
    "http://[::1]:8080/",
    "https://xn--80ak6aa92e.com/",
    "https://xn--pple-43d.com/login",
    "https://example.com.evil.io/login",
    "https://accounts.google.com.secure-login.co.uk/",
    "https://paypal-com.evil.io/",
    "https://a.b.c.d.e.example.com/",
    "https://192.168.1.10/admin",
    "https://[2001:DB8::1]/",
];

/// More allowed URLs: IDN hosts, IPv6, ports, percent-encoded paths,
/// uppercase hosts.
const MORE_ALLOWED: &[&str] = &[
    // IDN (Punycode) hosts, in either case.
    "https://xn--mnchen-3ya.de/",
    "https://XN--MNCHEN-3YA.DE/Stadt",
    "https://xn--55qx5d.cn/",
    "https://xn--wgbh1c.eg/",
    "https://xn--fa-hia.de/",
    "https://www.xn--bcher-kva.example/",
    // `--` inside an ordinary label.
    "https://ex--ample.com/",
    // IPv6 in its shortest form, IPv4.
    "https://[::]/",
    "https://[fe80::1]:8443/",
    "https://[2001:db8:0:1::2]/",
    "http://[::1]/",
    "https://1.2.3.4/",
    "https://255.255.255.255/",
    // Ports, including the default one and an empty one.
    "https://example.com:443/",
    "https://example.com:8443/x",
    "https://example.com:/",
    "https://example.com:0/",
    "http://localhost:65535/",
    // Percent-encoded paths, queries and fragments.
    "https://example.com/a%20b/%E2%82%AC",
    "https://example.com/search?q=%2F%3F%23&lang=de",
    "https://example.com/docs#section%201",
    // Uppercase hosts, a trailing `.`, no path.
    "https://WWW.EXAMPLE.ORG/",
    "https://Example.Com.:8080/",
    "https://example.com?x=1",
    "https://example.com#top",
    "HTTP://LOCALHOST/",
    // U+212A KELVIN SIGN lowercases to an ASCII `k`, in our review and in
    // the browser's IDNA mapping alike.
    "https://\u{212A}.example/",
];

/// IPv6 hosts as written (without brackets) and as a browser shows them:
/// the URL Standard's IPv6 serializer (lowercase hex without leading zeros,
/// the first longest run of two or more zero pieces as `::`, an embedded
/// IPv4 address as two hex pieces). Every row is pinned against the `url`
/// crate, and our review must show the same.
const IPV6_FORMS: &[(&str, &str)] = &[
    // Already in the browser's form.
    ("::", "[::]"),
    ("::1", "[::1]"),
    ("1::", "[1::]"),
    ("2001:db8::1", "[2001:db8::1]"),
    ("1:2:3:4:5:6:7:8", "[1:2:3:4:5:6:7:8]"),
    ("a::b:0:0:0", "[a::b:0:0:0]"),
    // Written out in full, or with leading zeros in the pieces.
    ("0:0:0:0:0:0:0:0", "[::]"),
    ("0:0:0:0:0:0:0:1", "[::1]"),
    ("0::0", "[::]"),
    ("2001:0DB8::0001", "[2001:db8::1]"),
    ("0001:02:3::", "[1:2:3::]"),
    (
        "2001:0db8:0000:0000:0000:ff00:0042:8329",
        "[2001:db8::ff00:42:8329]",
    ),
    // Uppercase.
    ("2001:DB8::1", "[2001:db8::1]"),
    ("A:B:C:D:E:F:0:0", "[a:b:c:d:e:f::]"),
    ("FFFF::", "[ffff::]"),
    // `::` standing for one piece: written out, a lone zero is not `::`.
    ("1:2:3:4:5:6:7::", "[1:2:3:4:5:6:7:0]"),
    ("::1:2:3:4:5:6:7", "[0:1:2:3:4:5:6:7]"),
    ("1:2:3::5:6:7:8", "[1:2:3:0:5:6:7:8]"),
    // Several runs of zeros: the longest, or the first of equal ones.
    ("1:0:0:2:0:0:0:3", "[1:0:0:2::3]"),
    ("1:0:0:0:2:0:0:3", "[1::2:0:0:3]"),
    ("0:0:1:0:0:1:0:0", "[::1:0:0:1:0:0]"),
    ("1:0:0:1:0:0:1:1", "[1::1:0:0:1:1]"),
    ("1:0:1:0:1:0:1:0", "[1:0:1:0:1:0:1:0]"),
    ("1:0:0:1::", "[1:0:0:1::]"),
    // IPv4-mapped and IPv4-compatible addresses, in hex.
    ("::ffff:1.2.3.4", "[::ffff:102:304]"),
    ("::FFFF:127.0.0.1", "[::ffff:7f00:1]"),
    ("::ffff:0.0.0.0", "[::ffff:0:0]"),
    ("::1.2.3.4", "[::102:304]"),
    ("::0:1.2.3.4", "[::102:304]"),
    ("::0.0.0.1", "[::1]"),
    ("1:2:3:4:5:6:1.2.3.4", "[1:2:3:4:5:6:102:304]"),
    ("1:2:3:4:5::1.2.3.4", "[1:2:3:4:5:0:102:304]"),
    ("64:ff9b::192.0.2.33", "[64:ff9b::c000:221]"),
];

/// IPv6 hosts a browser refuses: so do we.
const BAD_IPV6: &[&str] = &[
    "1::2:3:4:5:6:7:8",
    "1:2:3:4:5:6:7::8",
    "00001::",
    "1:2:3:4:5:1.2.3.4",
    "1:2:3:4:5:6:7:1.2.3.4",
    "::1.2.3",
    "::1.2.3.4.5",
    "::1.2.3.04",
    "::01.2.3.4",
    "::256.2.3.4",
    "::ffff:1.2.3.4:1",
    "fe80::1%25eth0",
    ":1",
    "1:",
    ":::",
    "1::2::3",
    "g::",
];

/// Hosts that are not IPv6, with the host a browser shows: an IPv4 address
/// without its trailing `.`, a domain with it.
const OTHER_FORMS: &[(&str, &str)] = &[
    ("https://1.2.3.4./", "1.2.3.4"),
    ("http://127.0.0.1./", "127.0.0.1"),
    ("https://255.255.255.255.:8443/", "255.255.255.255"),
    ("https://example.com./", "example.com."),
    ("https://Example.COM./x", "example.com."),
    ("http://localhost./", "localhost."),
    ("https://xn--mnchen-3ya.de./", "xn--mnchen-3ya.de."),
];

/// Hosts with an `xn--` label a browser refuses, which we refuse too, each
/// with a part of our reason. Non-ASCII labels are written in Unicode and
/// sent in their Punycode form ([`to_ascii_host`]).
const BAD_IDN_HOSTS: &[(&str, &str)] = &[
    // Not Punycode: nothing after `xn--`, a leading `-` (not a delimiter),
    // a digit sequence that never ends, a label that decodes to ASCII.
    ("xn--", "`-`"),
    ("xn---a", "not valid Punycode"),
    ("xn--99", "not valid Punycode"),
    ("xn--abc-", "`-`"),
    // U+0080, a control, in either case.
    ("xn--a", "does not allow"),
    ("XN--A.example", "does not allow"),
    // A symbol (U+2488 DIGIT ONE FULL STOP), joiners.
    ("a\u{2488}.ru", "does not allow"),
    ("a\u{200D}b.example", "does not allow"),
    ("\u{915}\u{200C}.example", "does not allow"),
    // Case: an uppercase Ü, a Greek letter with a subscript iota.
    ("m\u{DC}nchen.de", "case-folded"),
    ("\u{1FB3}.gr", "case-folded"),
    // A leading mark; an accent written apart from a letter that has it.
    ("\u{93E}\u{915}.example", "starts with a combining mark"),
    ("e\u{301}cole.fr", "shared by several scripts"),
    // Not NFC: a nukta that composes (ऩ), a Thai tone mark before a vowel
    // below, a Sinhala vowel that composes across a lower-class mark.
    ("\u{928}\u{93C}.example", "normalization form C"),
    ("\u{E01}\u{E49}\u{E38}.example", "normalization form C"),
    (
        "\u{D9A}\u{DD9}\u{93C}\u{DCA}.example",
        "normalization form C",
    ),
    // The bidi rule: a digit first beside a right-to-left label, a label
    // that mixes directions, one that ends with `-`, mixed digits.
    (
        "1a.\u{5D9}\u{5E9}\u{5E8}\u{5D0}\u{5DC}.com",
        "does not start with a letter",
    ),
    (
        "1.\u{645}\u{62B}\u{627}\u{644}.com",
        "does not start with a letter",
    ),
    ("a\u{5D9}\u{5E9}.com", "mixes directions"),
    ("\u{5D9}\u{5E9}-.com", "mixes directions"),
    ("\u{645}1\u{661}.com", "mixes directions"),
];

/// Hosts a browser opens that we refuse on purpose, with a part of our
/// reason: an emoji, an accent written apart from a letter that has no
/// precomposed form, a label that decodes to another `xn--` label (UTS #46
/// refuses it; the `url` crate does not yet), a left-to-right IDN beside a
/// right-to-left one.
const REFUSED_ON_PURPOSE: &[(&str, &str)] = &[
    ("\u{1F4A9}.example", "does not allow"),
    ("q\u{301}.example", "shared by several scripts"),
    ("xn--\u{E9}.example", "another `xn--` label"),
    (
        "m\u{FC}nchen.\u{5D9}\u{5E9}\u{5E8}\u{5D0}\u{5DC}",
        "non-ASCII left-to-right",
    ),
];

/// `host` with each non-ASCII label in its Punycode (`xn--`) form, as
/// written by an encoder that checks nothing else.
fn to_ascii_host(host: &str) -> String {
    host.split('.')
        .map(|label| {
            if label.is_ascii() {
                label.to_owned()
            } else {
                let encoded = idna::punycode::encode_str(label).expect("encodable");
                format!("xn--{encoded}")
            }
        })
        .collect::<Vec<_>>()
        .join(".")
}

fn review(url: &str) -> UrlReview {
    let review = UrlReview::new(url);
    assert!(
        !review.verdict().is_refused(),
        "{url} must be allowed: {:?}",
        review.verdict()
    );
    review
}

fn whatwg(url: &str) -> Url {
    Url::parse(url).unwrap_or_else(|e| panic!("a browser cannot parse {url}: {e}"))
}

/// The scheme matches and the browser sees no userinfo.
fn assert_scheme_and_no_userinfo(url: &str, ours: &UrlReview, theirs: &Url) {
    assert_eq!(Some(theirs.scheme()), ours.scheme(), "scheme of {url}");
    assert_eq!(theirs.username(), "", "username in {url}");
    assert_eq!(theirs.password(), None, "password in {url}");
}

#[test]
fn a_browser_reads_the_host_we_show() {
    for &url in URL_TABLE_ALLOWED.iter().chain(MORE_ALLOWED) {
        let ours = review(url);
        let theirs = whatwg(url);
        assert_scheme_and_no_userinfo(url, &ours, &theirs);
        assert_eq!(theirs.host_str(), ours.host(), "host of {url}");
        // An IP host (never a domain) is the one the review warns about.
        let ip = match theirs.host() {
            Some(url::Host::Domain(_)) => false,
            Some(url::Host::Ipv4(_) | url::Host::Ipv6(_)) => true,
            None => panic!("{url} has no host"),
        };
        assert_eq!(
            ours.warnings().contains(&UrlWarning::IpLiteral),
            ip,
            "an IP host is warned of, a domain is not: {url}"
        );
    }
}

#[test]
fn the_unicode_host_is_the_browsers_idn_reading() {
    for &url in URL_TABLE_ALLOWED.iter().chain(MORE_ALLOWED) {
        let ours = review(url);
        if ours.warnings().contains(&UrlWarning::IpLiteral) {
            assert_eq!(ours.unicode_host(), None, "{url}");
            continue;
        }
        let host = whatwg(url).host_str().unwrap_or_default().to_owned();
        let unicode = url::quirks::domain_to_unicode(&host);
        match ours.unicode_host() {
            Some(shown) => assert_eq!(shown, unicode, "Unicode host of {url}"),
            // No Punycode label: nothing to decode.
            None => assert_eq!(unicode, host, "{url}"),
        }
    }
    assert_eq!(
        review("https://xn--pple-43d.com/").unicode_host(),
        Some("\u{430}pple.com")
    );
    // A trailing `.` is kept, as in the host shown and in a browser.
    for url in [
        "https://xn--pple-43d.com./",
        "https://0X1.XN--80AK6AA92E.XN--80AK6AA92E./",
    ] {
        let host = whatwg(url).host_str().unwrap_or_default().to_owned();
        assert!(host.ends_with('.'), "{host}");
        assert_eq!(
            review(url).unicode_host(),
            Some(url::quirks::domain_to_unicode(&host).as_str()),
            "{url}"
        );
    }
}

#[test]
fn ip_hosts_are_shown_as_a_browser_shows_them() {
    for &(written, shown) in IPV6_FORMS {
        let url = format!("https://[{written}]/");
        let ours = review(&url);
        let theirs = whatwg(&url);
        assert_scheme_and_no_userinfo(&url, &ours, &theirs);
        assert_eq!(theirs.host_str(), Some(shown), "a browser shows {url}");
        assert_eq!(ours.host(), Some(shown), "we show {url}");
        assert!(ours.warnings().contains(&UrlWarning::IpLiteral), "{url}");
    }
    for &(url, shown) in OTHER_FORMS {
        let ours = review(url);
        let theirs = whatwg(url);
        assert_scheme_and_no_userinfo(url, &ours, &theirs);
        assert_eq!(theirs.host_str(), Some(shown), "a browser shows {url}");
        assert_eq!(ours.host(), Some(shown), "we show {url}");
    }
}

#[test]
fn ipv6_hosts_a_browser_refuses_are_refused() {
    for written in BAD_IPV6 {
        let url = format!("https://[{written}]/");
        assert!(Url::parse(&url).is_err(), "a browser opens {url}");
        assert!(
            matches!(
                UrlReview::new(&url).verdict().rejection(),
                Some(UrlRejection::InvalidHost { .. })
            ),
            "{url}"
        );
    }
}

/// Our reason for refusing `url`, which must be about its host.
fn host_refusal(url: &str) -> &'static str {
    match UrlReview::new(url).verdict().rejection() {
        Some(UrlRejection::InvalidHost { reason }) => reason,
        other => panic!("{url}: refused for its host? {other:?}"),
    }
}

#[test]
fn idn_hosts_a_browser_refuses_are_refused() {
    for &(host, why) in BAD_IDN_HOSTS {
        let url = format!("https://{}/", to_ascii_host(host));
        assert!(Url::parse(&url).is_err(), "a browser opens {url} ({host})");
        let reason = host_refusal(&url);
        assert!(reason.contains(why), "{url} ({host}): {reason}");
    }
}

#[test]
fn idn_hosts_refused_on_purpose() {
    for &(host, why) in REFUSED_ON_PURPOSE {
        let url = format!("https://{}/", to_ascii_host(host));
        assert!(Url::parse(&url).is_ok(), "a browser refuses {url} ({host})");
        let reason = host_refusal(&url);
        assert!(reason.contains(why), "{url} ({host}): {reason}");
    }
}

/// Labels around `c`: alone (first and last), after an ASCII letter, after
/// and between Arabic letters, and after European or Arabic-Indic digits.
fn labels_around(c: char) -> [String; 6] {
    [
        format!("{c}"),
        format!("a{c}"),
        format!("\u{628}{c}"),
        format!("\u{628}{c}\u{628}"),
        format!("\u{628}1{c}"),
        format!("\u{628}\u{661}{c}"),
    ]
}

/// Whether we allow `https://xn--LABEL.example/`; if so, a browser must
/// open it and show the same host.
fn allowed_alike(label: &str) -> bool {
    let host = to_ascii_host(&format!("{label}.example"));
    let url = format!("https://{host}/");
    if UrlReview::new(&url).verdict().is_refused() {
        return false;
    }
    match Url::parse(&url) {
        Ok(theirs) => assert_eq!(theirs.host_str(), Some(host.as_str()), "{label:?}"),
        Err(e) => {
            let code_points: Vec<String> = label
                .chars()
                .map(|c| format!("U+{:04X}", u32::from(c)))
                .collect();
            panic!("{url} ({code_points:?}): allowed, and a browser says {e}");
        }
    }
    true
}

/// The code points the exhaustive checks try: every one from U+0080 to
/// U+1FFFF and from U+E0000 to U+E0FFF (tags, variation selectors), but
/// only one in 16 of the Han ideographs and Hangul syllables (U+3400 to
/// U+9FFF, U+AC00 to U+D7A3) and of planes 2 and 3 (Han ideographs only):
/// caseless left-to-right letters without marks, nine tenths of what we
/// allow. The other planes hold no characters (4 to 13, the rest of 14) or
/// only private use (15, 16).
fn code_points() -> impl Iterator<Item = char> {
    ('\u{80}'..='\u{3FFFF}')
        .chain('\u{E0000}'..='\u{E0FFF}')
        .filter(|&c| {
            let sampled =
                matches!(c, '\u{3400}'..='\u{9FFF}' | '\u{AC00}'..='\u{D7A3}') || c >= '\u{20000}';
            !sampled || u32::from(c) % 16 == 0
        })
}

/// Every code point of [`code_points`] in the labels of [`labels_around`]:
/// each label we allow, a browser opens alike. Returns the characters we
/// allow alone, and the others we allow after a letter (marks, and digits
/// that cannot start a label) with that letter.
fn allowed_characters() -> (Vec<char>, Vec<(char, char)>) {
    let mut allowed = Vec::new();
    let mut marks = Vec::new();
    for c in code_points() {
        // A character outside the identifier set is refused in any label.
        let alone = format!("https://{}.example/", to_ascii_host(&c.to_string()));
        if let Some(UrlRejection::InvalidHost { reason }) =
            UrlReview::new(&alone).verdict().rejection()
            && reason.contains("does not allow in identifiers")
        {
            continue;
        }
        let results = labels_around(c).map(|label| allowed_alike(&label));
        if results[0] {
            allowed.push(c);
        } else if results[1] {
            marks.push(('a', c));
        } else if results[2] {
            marks.push(('\u{628}', c));
        }
    }
    (allowed, marks)
}

/// One mark of each canonical combining class among the characters we
/// allow (Devanagari nukta and virama, Thai, Lao and Tibetan vowels and
/// tone marks). A mark whose class our NFC check gets wrong is out of
/// canonical order beside one of them.
const CLASS_PROBES: &[char] = &[
    '\u{93C}', '\u{94D}', '\u{E38}', '\u{E48}', '\u{EB8}', '\u{EC8}', '\u{F71}', '\u{F72}',
    '\u{F74}',
];

/// The single characters, and the pairs that could compose or reorder
/// under NFC: each mark before and after each of [`CLASS_PROBES`] (after a
/// letter), and each character of a 128-code-point block followed by each
/// mark of the same block (compositions never cross blocks).
#[test]
fn every_idn_label_we_allow_a_browser_opens_alike() {
    let (allowed, marks) = allowed_characters();
    assert!(allowed.len() > 3_000, "{} characters", allowed.len());
    assert!(marks.len() > 250, "{} marks", marks.len());
    for &(base, mark) in &marks {
        for probe in CLASS_PROBES {
            allowed_alike(&format!("{base}{mark}{probe}"));
            allowed_alike(&format!("{base}{probe}{mark}"));
        }
    }
    let mut marks_by_block: BTreeMap<u32, Vec<char>> = BTreeMap::new();
    for &(_, mark) in &marks {
        marks_by_block
            .entry(u32::from(mark) >> 7)
            .or_default()
            .push(mark);
    }
    // Each allowed character alone, each mark after its letter, then a mark.
    let firsts = allowed.iter().map(|&c| (String::new(), c));
    let firsts = firsts.chain(marks.iter().map(|&(base, mark)| (base.to_string(), mark)));
    for (base, c) in firsts {
        let block = marks_by_block.get(&(u32::from(c) >> 7));
        for mark in block.into_iter().flatten() {
            allowed_alike(&format!("{base}{c}{mark}"));
        }
    }
}

/// The userinfo as written: what lies between `//` and the host's `@`.
fn written_userinfo(review: &UrlReview) -> Option<&str> {
    let (before, _, _) = review.split_for_display()?;
    let userinfo = before.split_once("//")?.1.strip_suffix('@')?;
    Some(userinfo)
}

#[test]
fn userinfo_we_refuse_is_userinfo_to_a_browser() {
    for url in [
        "https://user:pass@example.com/",
        "https://example.com@evil.io/",
        "https://user@example.com/",
        "https://:secret@example.com/",
        "https://a@b@example.com/",
        "https://user%40x:p%3Aw@example.com/",
        "http://admin@localhost/",
        "https://user@[::1]/",
    ] {
        let ours = UrlReview::new(url);
        assert_eq!(
            ours.verdict().rejection(),
            Some(&UrlRejection::Userinfo),
            "{url}"
        );
        let theirs = whatwg(url);
        assert!(
            !theirs.username().is_empty() || theirs.password().is_some(),
            "{url}: a browser sees no userinfo"
        );
        assert_eq!(theirs.host_str(), ours.host(), "host of {url}");
    }
    // The relation is not exact: an empty userinfo (`@`, `:@`) is nothing to
    // a browser, and still refused here (the `@` alone can disguise a host).
    for url in ["https://@example.com/", "https://:@example.com/"] {
        let theirs = whatwg(url);
        assert_eq!((theirs.username(), theirs.password()), ("", None), "{url}");
        assert_eq!(
            UrlReview::new(url).verdict().rejection(),
            Some(&UrlRejection::Userinfo),
            "{url}"
        );
    }
}

/// Characters for the Unicode labels of the property tests: ASCII, Latin
/// (one uppercase), Greek, Hebrew and Arabic letters, Arabic-Indic digits,
/// marks (some that compose or reorder), a joiner, an emoji.
const LABEL_CHARS: &[char] = &[
    'a',
    'x',
    'n',
    '1',
    '-',
    '\u{FC}',
    '\u{DC}',
    '\u{DF}',
    '\u{3C2}',
    '\u{3B1}',
    '\u{5D0}',
    '\u{5E9}',
    '\u{628}',
    '\u{644}',
    '\u{661}',
    '\u{6F1}',
    '\u{301}',
    '\u{915}',
    '\u{928}',
    '\u{93C}',
    '\u{93E}',
    '\u{94D}',
    '\u{E01}',
    '\u{E38}',
    '\u{E49}',
    '\u{200D}',
    '\u{1F4A9}',
];

/// Hosts for the property tests: names (Punycode among them, valid or not),
/// IPv4 and IPv6 in several forms, and some that are refused.
fn host() -> impl Strategy<Value = String> {
    let label = prop_oneof![
        "[a-zA-Z0-9]{1,8}",
        "[a-z]{1,4}-[a-z0-9]{1,4}",
        Just("xn--pple-43d".to_owned()),
        Just("xn--mnchen-3ya".to_owned()),
        Just("XN--80AK6AA92E".to_owned()),
        Just("com".to_owned()),
        Just("localhost".to_owned()),
        "[0-9]{1,3}",
        "0[xX][0-9a-f]{0,3}",
        "[xX][nN]--[a-z0-9]{0,6}",
        "xn--[a-z]{0,5}-[a-z0-9]{0,4}",
        prop::collection::vec(prop::sample::select(LABEL_CHARS), 1..5)
            .prop_map(|chars| to_ascii_host(&chars.into_iter().collect::<String>())),
    ];
    prop_oneof![
        4 => (prop::collection::vec(label, 1..5), any::<bool>())
            .prop_map(|(labels, dot)| labels.join(".") + if dot { "." } else { "" }),
        1 => (any::<[u8; 4]>(), any::<bool>())
            .prop_map(|(o, dot)| Ipv4Addr::from(o).to_string() + if dot { "." } else { "" }),
        1 => (any::<[u16; 8]>(), any::<u32>(), 0..5usize).prop_map(|(groups, v4, form)| {
            // Small groups, so that runs of zeros (`::`) are common.
            let groups = groups.map(|g| g % 3);
            match form {
                0 => format!("[{}]", Ipv6Addr::from(groups)),
                1 => format!("[{}]", groups.map(|g| format!("{g:X}")).join(":")),
                2 => format!("[{}]", groups.map(|g| format!("{g:04x}")).join(":")),
                3 => {
                    let high: Vec<String> = groups[..6].iter().map(|g| g.to_string()).collect();
                    format!("[{}:{}]", high.join(":"), Ipv4Addr::from(v4))
                }
                _ => format!("[::ffff:{}]", Ipv4Addr::from(v4)),
            }
        }),
    ]
}

fn url_string() -> impl Strategy<Value = String> {
    (
        prop_oneof![Just("https"), Just("http"), Just("HTTPS"), Just("ftp")],
        prop_oneof![
            3 => Just(String::new()),
            1 => "[a-z]{0,3}(:[a-z]{0,3})?@",
        ],
        host(),
        prop_oneof![Just(String::new()), ":[0-9]{0,6}"],
        "(/[a-zA-Z0-9%._~-]{0,6}){0,3}(\\?[a-z=&%0-9]{0,8})?(#[a-z0-9]{0,4})?",
    )
        .prop_map(|(scheme, userinfo, host, port, tail)| {
            format!("{scheme}://{userinfo}{host}{port}{tail}")
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    /// Every URL we allow, a browser parses to the same scheme and shows
    /// the same host, with no userinfo; every URL a browser refuses, we
    /// refuse.
    #[test]
    fn allowed_urls_read_alike(url in url_string()) {
        let ours = UrlReview::new(&url);
        match Url::parse(&url) {
            Ok(theirs) if !ours.verdict().is_refused() => {
                prop_assert_eq!(Some(theirs.scheme()), ours.scheme());
                prop_assert_eq!(theirs.username(), "");
                prop_assert_eq!(theirs.password(), None);
                prop_assert_eq!(theirs.host_str(), ours.host());
            }
            Ok(_) => {}
            Err(e) => prop_assert!(
                ours.verdict().is_refused(),
                "{}: allowed, but a browser says {}",
                url,
                e
            ),
        }
    }

    /// A URL in which a browser sees userinfo is refused, and a URL we
    /// refuse for its userinfo is one where a browser sees userinfo unless
    /// that userinfo is empty (`@` or `:@`).
    #[test]
    fn userinfo_reads_alike(url in url_string()) {
        let ours = UrlReview::new(&url);
        if let Ok(theirs) = Url::parse(&url) {
            let browser_sees = !theirs.username().is_empty() || theirs.password().is_some();
            if browser_sees {
                prop_assert!(ours.verdict().is_refused());
                prop_assert!(ours.warnings().contains(&UrlWarning::Userinfo));
            }
            if ours.verdict().rejection() == Some(&UrlRejection::Userinfo) {
                let written = written_userinfo(&ours);
                prop_assert!(written.is_some());
                let empty = matches!(written, Some("" | ":"));
                prop_assert_eq!(browser_sees, !empty, "userinfo {:?}", written);
            }
        }
    }
}
