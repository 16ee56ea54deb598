//! URL safety for URL-mode elicitation: one engine for both sides.
//!
//! Agents call [`check_url`] (through
//! [`AgentConnection`](crate::protocol::agent::AgentConnection)) before
//! sending a URL; clients build a [`UrlReview`] to show the user before asking
//! for consent. Both read the URL with the same hand-written parser, which
//! follows RFC 3986 and refuses every form where browsers (WHATWG URL) would
//! read the URL differently: backslashes, missing `//`, percent-encoded
//! hosts, IPv4 addresses in decimal/hex/octal shorthand, invisible or control
//! characters.
//!
//! **Nothing here ever fetches, resolves or opens a URL.**
//!
//! The policy ([`UrlVerdict`]):
//!
//! - `https` URLs are allowed; `http` only on `localhost`, `127.0.0.0/8` or
//!   `[::1]`, as development ([`UrlVerdict::Development`]).
//! - Refused: `javascript:`, `data:`, `file:` and other schemes; userinfo
//!   (`user:pass@host`); query or fragment parameters whose names look like
//!   credentials ([`looks_like_credential`], the derive's word list);
//!   malformed or ambiguous URLs.
//! - Warned about (allowed, but show the warnings): Punycode (`xn--`) and
//!   non-ASCII hosts, mixed scripts, IP-literal hosts, very long hosts and
//!   hosts that imitate another domain (`example.com.evil.io`).
//!
//! ```
//! use elicit_core::protocol::url::{UrlReview, UrlVerdict, UrlWarning};
//!
//! let review = UrlReview::new("https://example.com.evil.io/login");
//! assert_eq!(review.verdict(), &UrlVerdict::Allowed);
//! assert_eq!(review.host(), Some("example.com.evil.io"));
//! assert!(matches!(
//!     &review.warnings()[..],
//!     [UrlWarning::DeceptiveHost { looks_like, domain }]
//!         if looks_like == "example.com" && domain == "evil.io"
//! ));
//!
//! assert!(UrlReview::new("http://localhost:8080/callback").verdict().is_development());
//! assert!(UrlReview::new("http://example.com/").verdict().is_refused());
//! ```

use std::fmt;
use std::ops::Range;

use crate::credential::looks_like_credential;

/// The longest URL accepted, in bytes.
pub const MAX_URL_LEN: usize = 4096;
/// A host longer than this (in bytes) gets [`UrlWarning::LongHost`].
pub const LONG_HOST_CHARS: usize = 60;
/// A host with more labels than this gets [`UrlWarning::LongHost`].
pub const LONG_HOST_LABELS: usize = 5;

/// Schemes that run code or read local or inline data.
const DANGEROUS_SCHEMES: &[&str] = &[
    "javascript",
    "vbscript",
    "data",
    "file",
    "blob",
    "filesystem",
    "about",
    "view-source",
];

/// Generic top-level domains that make a subdomain label look like a domain
/// end (`example.com.evil.io`).
const LOOKALIKE_TLDS: &[&str] = &[
    "com", "net", "org", "edu", "gov", "mil", "int", "io", "co", "info", "biz", "app", "dev", "ai",
];

/// Second-level labels under which country-code domains register names
/// (`example.co.uk`).
const SECOND_LEVEL: &[&str] = &[
    "co", "com", "net", "org", "gov", "edu", "ac", "ne", "or", "go", "gob", "nic", "mil",
];

/// Why a URL is refused. Each message says what to do instead.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum UrlRejection {
    /// The URL is empty.
    Empty,
    /// Longer than [`MAX_URL_LEN`].
    TooLong {
        /// Its length in bytes.
        length: usize,
        /// The limit.
        max: usize,
    },
    /// A control, whitespace or invisible character (e.g. a bidi override).
    ForbiddenCharacter {
        /// The character.
        character: char,
    },
    /// A `\`, which browsers read as `/`.
    Backslash,
    /// No scheme: not an absolute URL.
    Relative,
    /// `javascript:`, `data:`, `file:` and the like.
    DangerousScheme {
        /// The scheme, lowercased.
        scheme: String,
    },
    /// Any other scheme than `https` / `http`.
    UnsupportedScheme {
        /// The scheme, lowercased.
        scheme: String,
    },
    /// The scheme is not followed by `//host`.
    MissingAuthority,
    /// `user:password@` before the host.
    Userinfo,
    /// No host.
    EmptyHost,
    /// A host that is not a valid domain name or IP address.
    InvalidHost {
        /// What is wrong.
        reason: &'static str,
    },
    /// A host with `%` escapes (browsers decode them).
    PercentEncodedHost,
    /// A host with non-ASCII characters (write it as Punycode).
    NonAsciiHost,
    /// An IPv4 address in a shorthand, hex or octal form.
    NonCanonicalIpv4 {
        /// The host as written.
        host: String,
    },
    /// A port that is not a number up to 65535.
    InvalidPort,
    /// A character that must be percent-encoded.
    InvalidCharacter {
        /// The character.
        character: char,
    },
    /// Non-ASCII characters in the path, query or fragment.
    NotAscii,
    /// A `%` not followed by two hex digits.
    InvalidPercentEncoding,
    /// `http` on a host that is not loopback.
    InsecureHttp {
        /// The host.
        host: String,
    },
    /// A query or fragment parameter whose name looks like a credential.
    CredentialParameter {
        /// The parameter name, percent-decoded.
        name: String,
    },
}

impl fmt::Display for UrlRejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => f.write_str("the URL is empty: give an absolute https URL"),
            Self::TooLong { length, max } => write!(
                f,
                "the URL is {length} bytes long, over the limit of {max}: keep state on the \
                 server, keyed by the elicitationId"
            ),
            Self::ForbiddenCharacter { character } => write!(
                f,
                "the URL contains U+{:04X}, a control, whitespace or invisible character: remove \
                 it (such characters can disguise the real URL)",
                u32::from(*character)
            ),
            Self::Backslash => {
                f.write_str("the URL contains `\\`, which browsers read as `/`: write `/`")
            }
            Self::Relative => f.write_str("the URL is not absolute: start it with `https://`"),
            Self::DangerousScheme { scheme } => write!(
                f,
                "`{scheme}:` URLs run code or read local data and are never allowed: use an \
                 https URL"
            ),
            Self::UnsupportedScheme { scheme } => write!(
                f,
                "the `{scheme}` scheme is not allowed: use https (http only on localhost for \
                 development)"
            ),
            Self::MissingAuthority => {
                f.write_str("the URL has no `//host` part: write `https://host/...`")
            }
            Self::Userinfo => f.write_str(
                "the URL has userinfo (`user:password@`) before the host: never put credentials \
                 in a URL, and drop the `@` part (it also disguises the real host)",
            ),
            Self::EmptyHost => f.write_str("the URL has no host: write `https://host/...`"),
            Self::InvalidHost { reason } => write!(f, "the host {reason}"),
            Self::PercentEncodedHost => f.write_str(
                "the host is percent-encoded: write it plainly (browsers decode it, so it can \
                 disguise the real host)",
            ),
            Self::NonAsciiHost => f.write_str(
                "the host has non-ASCII characters: write it in its Punycode (`xn--`) form",
            ),
            Self::NonCanonicalIpv4 { host } => write!(
                f,
                "the host `{host}` is an IPv4 address in a shorthand, hex or octal form (browsers \
                 read it as an address): write four decimal numbers, e.g. `127.0.0.1`"
            ),
            Self::InvalidPort => f.write_str("the port is not a number from 0 to 65535"),
            Self::InvalidCharacter { character } => write!(
                f,
                "the URL contains `{character}`, which must be percent-encoded"
            ),
            Self::NotAscii => f.write_str(
                "the URL's path, query or fragment has non-ASCII characters: percent-encode them",
            ),
            Self::InvalidPercentEncoding => f.write_str(
                "the URL has a `%` not followed by two hex digits: write a literal `%` as `%25`",
            ),
            Self::InsecureHttp { host } => write!(
                f,
                "plain http is allowed only for development on localhost, 127.0.0.0/8 or [::1], \
                 not on `{host}`: use https"
            ),
            Self::CredentialParameter { name } => write!(
                f,
                "the URL parameter `{name}` looks like a credential: never put secrets in a URL; \
                 keep them on the server and identify the flow by its elicitationId"
            ),
        }
    }
}

impl std::error::Error for UrlRejection {}

/// Something a user should be told before consenting to open a URL.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum UrlWarning {
    /// The scheme is not `https`.
    NotHttps {
        /// The scheme, lowercased.
        scheme: String,
    },
    /// A `user@` part before the host: the site opened is the host after it.
    Userinfo,
    /// A Punycode (IDN) label.
    Punycode {
        /// The label as written (`xn--...`).
        label: String,
        /// Its Unicode form, if it decodes.
        decoded: Option<String>,
    },
    /// Non-ASCII characters in the host.
    NonAsciiHost,
    /// A label that mixes writing systems (e.g. Latin and Cyrillic).
    MixedScripts {
        /// The label, in Unicode.
        label: String,
    },
    /// The host is an IP address, not a name.
    IpLiteral,
    /// A very long host, or one with many labels.
    LongHost {
        /// Its length in bytes.
        length: usize,
        /// How many labels it has.
        labels: usize,
    },
    /// The host's first labels look like another domain.
    DeceptiveHost {
        /// What it imitates (`example.com`).
        looks_like: String,
        /// The domain it really is (a heuristic: the last two labels, or
        /// three for `co.uk`-style suffixes).
        domain: String,
    },
    /// A parameter whose name looks like a credential.
    CredentialParameter {
        /// The parameter name, percent-decoded.
        name: String,
    },
}

impl fmt::Display for UrlWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotHttps { scheme } => write!(
                f,
                "the URL uses `{scheme}`, not https: the connection is not protected"
            ),
            Self::Userinfo => f.write_str(
                "the URL has a `user@` part before the host: the site that opens is the host \
                 after the `@`",
            ),
            Self::Punycode { label, decoded } => match decoded {
                Some(d) => write!(
                    f,
                    "the host contains the Punycode label `{label}` (shown as `{d}`): it may \
                     imitate another domain"
                ),
                None => write!(
                    f,
                    "the host contains the label `{label}`, which is not valid Punycode"
                ),
            },
            Self::NonAsciiHost => {
                f.write_str("the host contains non-ASCII characters: it may imitate another domain")
            }
            Self::MixedScripts { label } => write!(
                f,
                "the host label `{label}` mixes writing systems (e.g. Latin and Cyrillic), a \
                 look-alike trick"
            ),
            Self::IpLiteral => f.write_str("the host is a raw IP address, not a domain name"),
            Self::LongHost { length, labels } => write!(
                f,
                "the host is very long ({length} characters, {labels} labels): check its end, \
                 which is the real domain"
            ),
            Self::DeceptiveHost { looks_like, domain } => write!(
                f,
                "the host starts with `{looks_like}` but the domain is `{domain}`"
            ),
            Self::CredentialParameter { name } => write!(
                f,
                "the URL carries a parameter named `{name}`, which looks like a credential"
            ),
        }
    }
}

/// The policy's decision on a URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UrlVerdict {
    /// An `https` URL with nothing refused (there may still be warnings).
    Allowed,
    /// An `http` URL on a loopback host: acceptable for development only.
    Development,
    /// Refused: the agent must not send it; a client must not open it.
    Refused(UrlRejection),
}

impl UrlVerdict {
    /// Whether the URL is refused.
    pub fn is_refused(&self) -> bool {
        matches!(self, Self::Refused(_))
    }

    /// Whether the URL is allowed only as development (`http` on loopback).
    pub fn is_development(&self) -> bool {
        matches!(self, Self::Development)
    }

    /// The refusal, if any.
    pub fn rejection(&self) -> Option<&UrlRejection> {
        match self {
            Self::Refused(r) => Some(r),
            _ => None,
        }
    }
}

/// What kind of host a URL has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HostKind {
    /// A domain name (including `localhost`).
    Domain,
    /// A dotted-decimal IPv4 address (or a shorthand form, refused).
    Ipv4,
    /// A bracketed IPv6 address.
    Ipv6,
}

/// A URL as a client shows it before asking for consent: the full URL, the
/// host to highlight, the warnings, and the verdict. Never fetches anything.
///
/// ```
/// use elicit_core::protocol::url::{UrlReview, UrlWarning};
///
/// let review = UrlReview::new("https://xn--pple-43d.com/login");
/// assert_eq!(review.url(), "https://xn--pple-43d.com/login");
/// assert_eq!(review.host(), Some("xn--pple-43d.com"));
/// assert_eq!(review.unicode_host(), Some("\u{430}pple.com")); // Cyrillic `а`
/// assert_eq!(review.split_for_display(), Some(("https://", "xn--pple-43d.com", "/login")));
/// assert!(review.warnings().iter().any(|w| matches!(w, UrlWarning::MixedScripts { .. })));
/// for warning in review.warnings() {
///     println!("warning: {warning}");
/// }
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlReview {
    url: String,
    scheme: Option<String>,
    host: Option<String>,
    host_range: Option<Range<usize>>,
    host_kind: Option<HostKind>,
    unicode_host: Option<String>,
    warnings: Vec<UrlWarning>,
    verdict: UrlVerdict,
}

impl UrlReview {
    /// Reviews `url`. Never fails and never panics: a URL that cannot be
    /// read is [`Refused`](UrlVerdict::Refused).
    pub fn new(url: &str) -> Self {
        let a = analyse(url);
        let verdict = match a.rejection {
            Some(r) => UrlVerdict::Refused(r),
            None if a.development => UrlVerdict::Development,
            None => UrlVerdict::Allowed,
        };
        Self {
            url: url.to_owned(),
            scheme: a.scheme,
            host: a.host,
            host_range: a.host_range,
            host_kind: a.host_kind,
            unicode_host: a.unicode_host,
            warnings: a.warnings,
            verdict,
        }
    }

    /// The full URL, exactly as received: show all of it.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The scheme, lowercased, if the URL has one.
    pub fn scheme(&self) -> Option<&str> {
        self.scheme.as_deref()
    }

    /// The host to highlight, lowercased (Punycode stays in its `xn--` form;
    /// IPv6 in brackets). `None` when the URL has none.
    pub fn host(&self) -> Option<&str> {
        self.host.as_deref()
    }

    /// What kind of host it is.
    pub fn host_kind(&self) -> Option<HostKind> {
        self.host_kind
    }

    /// The host with its Punycode labels decoded, when it has any. Show it
    /// beside [`host`](Self::host), never instead of it.
    pub fn unicode_host(&self) -> Option<&str> {
        self.unicode_host.as_deref()
    }

    /// The URL split around the host as written, for rendering the host
    /// highlighted: `(before, host, after)`. `None` when there is no host.
    pub fn split_for_display(&self) -> Option<(&str, &str, &str)> {
        let range = self.host_range.clone()?;
        Some((
            self.url.get(..range.start)?,
            self.url.get(range.clone())?,
            self.url.get(range.end..)?,
        ))
    }

    /// Everything the user should be told, in URL order.
    pub fn warnings(&self) -> &[UrlWarning] {
        &self.warnings
    }

    /// The policy's decision.
    pub fn verdict(&self) -> &UrlVerdict {
        &self.verdict
    }
}

/// Checks a URL an agent is about to send: `Ok` for [`UrlVerdict::Allowed`]
/// and [`UrlVerdict::Development`], the first refusal otherwise.
///
/// ```
/// use elicit_core::protocol::url::{UrlRejection, check_url};
///
/// assert_eq!(check_url("https://agent.example.com/connect?elicitationId=e1"), Ok(()));
/// assert_eq!(check_url("https://user:pw@agent.example.com/"), Err(UrlRejection::Userinfo));
/// assert!(matches!(
///     check_url("https://agent.example.com/cb?access_token=abc"),
///     Err(UrlRejection::CredentialParameter { name }) if name == "access_token"
/// ));
/// ```
pub fn check_url(url: &str) -> Result<(), UrlRejection> {
    match analyse(url).rejection {
        Some(r) => Err(r),
        None => Ok(()),
    }
}

// ---------------------------------------------------------------------------
// The analysis

#[derive(Default)]
struct Analysis {
    scheme: Option<String>,
    host: Option<String>,
    host_range: Option<Range<usize>>,
    host_kind: Option<HostKind>,
    unicode_host: Option<String>,
    warnings: Vec<UrlWarning>,
    rejection: Option<UrlRejection>,
    loopback: bool,
    development: bool,
}

impl Analysis {
    fn refuse(&mut self, rejection: UrlRejection) {
        if self.rejection.is_none() {
            self.rejection = Some(rejection);
        }
    }

    fn warn(&mut self, warning: UrlWarning) {
        if !self.warnings.contains(&warning) {
            self.warnings.push(warning);
        }
    }
}

fn analyse(url: &str) -> Analysis {
    let mut a = Analysis::default();
    if url.is_empty() {
        a.refuse(UrlRejection::Empty);
        return a;
    }
    if url.len() > MAX_URL_LEN {
        a.refuse(UrlRejection::TooLong {
            length: url.len(),
            max: MAX_URL_LEN,
        });
        return a;
    }
    if let Some(character) = url.chars().find(|c| is_forbidden_char(*c)) {
        a.refuse(UrlRejection::ForbiddenCharacter { character });
        return a;
    }
    if url.contains('\\') {
        a.refuse(UrlRejection::Backslash);
        return a;
    }

    // Scheme.
    let Some(colon) = url.find(':') else {
        a.refuse(UrlRejection::Relative);
        return a;
    };
    let scheme = &url[..colon];
    if !is_scheme(scheme) {
        a.refuse(UrlRejection::Relative);
        return a;
    }
    let scheme = scheme.to_ascii_lowercase();
    a.scheme = Some(scheme.clone());
    if scheme != "https" {
        a.warn(UrlWarning::NotHttps {
            scheme: scheme.clone(),
        });
    }
    if DANGEROUS_SCHEMES.contains(&scheme.as_str()) {
        a.refuse(UrlRejection::DangerousScheme { scheme });
        return a;
    }
    if scheme != "https" && scheme != "http" {
        a.refuse(UrlRejection::UnsupportedScheme {
            scheme: scheme.clone(),
        });
    }

    // Authority.
    let rest = &url[colon + 1..];
    let Some(after) = rest.strip_prefix("//") else {
        a.refuse(UrlRejection::MissingAuthority);
        return a;
    };
    let authority_start = colon + 3;
    let end = after.find(['/', '?', '#']).unwrap_or(after.len());
    let authority = &after[..end];
    let tail = &after[end..];

    let (hostport, hostport_start) = match authority.rfind('@') {
        Some(at) => {
            a.warn(UrlWarning::Userinfo);
            a.refuse(UrlRejection::Userinfo);
            (&authority[at + 1..], authority_start + at + 1)
        }
        None => (authority, authority_start),
    };
    let (host_text, port_text) = if hostport.starts_with('[') {
        match hostport.find(']') {
            Some(close) => (&hostport[..=close], &hostport[close + 1..]),
            None => {
                a.refuse(UrlRejection::InvalidHost {
                    reason: "is an IPv6 address without its closing `]`",
                });
                return a;
            }
        }
    } else {
        match hostport.find(':') {
            Some(c) => (&hostport[..c], &hostport[c..]),
            None => (hostport, ""),
        }
    };
    if !port_text.is_empty() {
        let valid = port_text.strip_prefix(':').is_some_and(|digits| {
            digits.bytes().all(|b| b.is_ascii_digit())
                && (digits.is_empty() || digits.parse::<u32>().is_ok_and(|p| p <= 65_535))
        });
        if !valid {
            a.refuse(UrlRejection::InvalidPort);
        }
    }
    if host_text.is_empty() {
        a.refuse(UrlRejection::EmptyHost);
        return a;
    }
    a.host_range = Some(hostport_start..hostport_start + host_text.len());
    analyse_host(&mut a, host_text);

    if scheme == "http" {
        if a.loopback {
            a.development = true;
        } else {
            let host = a.host.clone().unwrap_or_default();
            a.refuse(UrlRejection::InsecureHttp { host });
        }
    }

    analyse_tail(&mut a, tail);
    a
}

fn is_scheme(s: &str) -> bool {
    let mut bytes = s.bytes();
    bytes.next().is_some_and(|b| b.is_ascii_alphabetic())
        && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
}

/// Controls, whitespace, and invisible or direction-changing characters.
fn is_forbidden_char(c: char) -> bool {
    c.is_control()
        || c.is_whitespace()
        || matches!(
            u32::from(c),
            0xAD | 0x34F
                | 0x61C
                | 0x115F
                | 0x1160
                | 0x17B4
                | 0x17B5
                | 0x180B..=0x180F
                | 0x200B..=0x200F
                | 0x202A..=0x202E
                | 0x2060..=0x206F
                | 0x3164
                | 0xFE00..=0xFE0F
                | 0xFEFF
                | 0xFFA0
                | 0xFFF0..=0xFFFB
                | 0xE0000..=0xE0FFF
        )
}

fn analyse_host(a: &mut Analysis, host_text: &str) {
    if let Some(inner) = host_text
        .strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
    {
        a.host = Some(host_text.to_ascii_lowercase());
        a.host_kind = Some(HostKind::Ipv6);
        a.warn(UrlWarning::IpLiteral);
        if inner.contains('%') {
            a.refuse(UrlRejection::InvalidHost {
                reason: "has an IPv6 zone identifier (`%25...`), which is not allowed",
            });
            return;
        }
        match parse_ipv6(inner) {
            Some(address) => a.loopback = address == [0, 0, 0, 0, 0, 0, 0, 1],
            None => a.refuse(UrlRejection::InvalidHost {
                reason: "is not a valid IPv6 address",
            }),
        }
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

    if !host.is_ascii() {
        a.warn(UrlWarning::NonAsciiHost);
        a.refuse(UrlRejection::NonAsciiHost);
    }
    for label in &labels {
        if label.is_empty() {
            a.refuse(UrlRejection::InvalidHost {
                reason: "has an empty label (`..` or a leading `.`)",
            });
        } else if label
            .chars()
            .any(|c| c.is_ascii() && !(c.is_ascii_alphanumeric() || c == '-'))
        {
            a.refuse(UrlRejection::InvalidHost {
                reason: "may contain only letters, digits, `-` and `.`",
            });
        } else if label.starts_with('-') || label.ends_with('-') {
            a.refuse(UrlRejection::InvalidHost {
                reason: "has a label that starts or ends with `-`",
            });
        } else if label.len() > 63 {
            a.refuse(UrlRejection::InvalidHost {
                reason: "has a label longer than 63 characters",
            });
        }
    }
    if trimmed.len() > 253 {
        a.refuse(UrlRejection::InvalidHost {
            reason: "is longer than 253 characters",
        });
    }

    // WHATWG reads a host whose last label is a number as an IPv4 address.
    if labels.last().is_some_and(|l| ends_in_number(l)) {
        a.host_kind = Some(HostKind::Ipv4);
        a.warn(UrlWarning::IpLiteral);
        match canonical_ipv4(&labels) {
            Some(octets) => a.loopback = octets[0] == 127,
            None => a.refuse(UrlRejection::NonCanonicalIpv4 {
                host: host_text.to_owned(),
            }),
        }
        return;
    }
    a.host_kind = Some(HostKind::Domain);
    a.loopback = trimmed == "localhost";

    let mut unicode_labels = Vec::with_capacity(labels.len());
    let mut any_punycode = false;
    for label in &labels {
        match label.strip_prefix("xn--") {
            Some(encoded) => {
                any_punycode = true;
                let decoded = punycode_decode(encoded);
                if decoded.is_none() {
                    a.refuse(UrlRejection::InvalidHost {
                        reason: "has an `xn--` label that is not valid Punycode",
                    });
                }
                a.warn(UrlWarning::Punycode {
                    label: (*label).to_owned(),
                    decoded: decoded.clone(),
                });
                unicode_labels.push(decoded.unwrap_or_else(|| (*label).to_owned()));
            }
            None => unicode_labels.push((*label).to_owned()),
        }
    }
    if any_punycode {
        a.unicode_host = Some(unicode_labels.join("."));
    }
    for label in &unicode_labels {
        if mixes_scripts(label) {
            a.warn(UrlWarning::MixedScripts {
                label: label.clone(),
            });
        }
    }
    if trimmed.len() > LONG_HOST_CHARS || labels.len() > LONG_HOST_LABELS {
        a.warn(UrlWarning::LongHost {
            length: trimmed.len(),
            labels: labels.len(),
        });
    }
    if let Some(warning) = deceptive(&labels) {
        a.warn(warning);
    }
}

fn ends_in_number(label: &str) -> bool {
    let hex = label.get(..2).is_some_and(|p| p.eq_ignore_ascii_case("0x"))
        && label[2..].bytes().all(|b| b.is_ascii_hexdigit());
    !label.is_empty() && (label.bytes().all(|b| b.is_ascii_digit()) || hex)
}

/// Four decimal numbers up to 255, without leading zeros.
fn canonical_ipv4(labels: &[&str]) -> Option<[u8; 4]> {
    if labels.len() != 4 {
        return None;
    }
    let mut octets = [0u8; 4];
    for (octet, label) in octets.iter_mut().zip(labels) {
        if label.is_empty()
            || label.len() > 3
            || !label.bytes().all(|b| b.is_ascii_digit())
            || (label.len() > 1 && label.starts_with('0'))
        {
            return None;
        }
        *octet = label.parse().ok()?;
    }
    Some(octets)
}

fn parse_ipv6(s: &str) -> Option<[u16; 8]> {
    let (head, tail) = match s.find("::") {
        Some(i) => (&s[..i], Some(&s[i + 2..])),
        None => (s, None),
    };
    if tail.is_some_and(|t| t.contains("::")) {
        return None;
    }
    let head_groups = ipv6_groups(head, tail.is_none())?;
    let mut address = [0u16; 8];
    match tail {
        None => {
            if head_groups.len() != 8 {
                return None;
            }
            address.copy_from_slice(&head_groups);
        }
        Some(tail) => {
            let tail_groups = ipv6_groups(tail, true)?;
            if head_groups.len() + tail_groups.len() > 7 {
                return None;
            }
            address[..head_groups.len()].copy_from_slice(&head_groups);
            address[8 - tail_groups.len()..].copy_from_slice(&tail_groups);
        }
    }
    Some(address)
}

fn ipv6_groups(s: &str, allow_ipv4_end: bool) -> Option<Vec<u16>> {
    if s.is_empty() {
        return Some(Vec::new());
    }
    let parts: Vec<&str> = s.split(':').collect();
    let mut groups = Vec::with_capacity(parts.len() + 1);
    for (i, part) in parts.iter().enumerate() {
        if allow_ipv4_end && i + 1 == parts.len() && part.contains('.') {
            let labels: Vec<&str> = part.split('.').collect();
            let [a, b, c, d] = canonical_ipv4(&labels)?;
            groups.push(u16::from_be_bytes([a, b]));
            groups.push(u16::from_be_bytes([c, d]));
        } else {
            if part.is_empty() || part.len() > 4 || !part.bytes().all(|b| b.is_ascii_hexdigit()) {
                return None;
            }
            groups.push(u16::from_str_radix(part, 16).ok()?);
        }
    }
    if groups.len() > 8 {
        return None;
    }
    Some(groups)
}

/// The registrable domain, guessed without the Public Suffix List.
fn apparent_domain_len(labels: &[&str]) -> usize {
    let n = labels.len();
    if n >= 3 && labels[n - 1].len() == 2 && SECOND_LEVEL.contains(&labels[n - 2]) {
        3
    } else {
        n.min(2)
    }
}

fn deceptive(labels: &[&str]) -> Option<UrlWarning> {
    let n = labels.len();
    let domain_start = n - apparent_domain_len(labels);
    let domain = labels[domain_start..].join(".");
    // `example.com.evil.io`: a name and a TLD inside the subdomain part.
    for j in 1..domain_start {
        if LOOKALIKE_TLDS.contains(&labels[j]) {
            return Some(UrlWarning::DeceptiveHost {
                looks_like: labels[..=j].join("."),
                domain,
            });
        }
    }
    // `paypal-com.evil.io`, `www.paypal-com.io`.
    for label in &labels[..n.saturating_sub(1)] {
        for tld in ["com", "net", "org"] {
            if let Some(name) = label
                .strip_suffix(tld)
                .and_then(|l| l.strip_suffix('-'))
                .filter(|name| !name.is_empty())
            {
                return Some(UrlWarning::DeceptiveHost {
                    looks_like: format!("{name}.{tld}"),
                    domain,
                });
            }
        }
    }
    None
}

fn analyse_tail(a: &mut Analysis, tail: &str) {
    let (before_fragment, fragment) = match tail.find('#') {
        Some(i) => (&tail[..i], Some(&tail[i + 1..])),
        None => (tail, None),
    };
    let (path, query) = match before_fragment.find('?') {
        Some(i) => (&before_fragment[..i], Some(&before_fragment[i + 1..])),
        None => (before_fragment, None),
    };
    for (part, is_fragment) in [(path, false), (query.unwrap_or(""), false)]
        .into_iter()
        .chain(fragment.map(|f| (f, true)))
    {
        check_chars(a, part, is_fragment);
    }
    if let Some(query) = query {
        check_parameters(a, query);
    }
    if let Some(fragment) = fragment {
        // `#access_token=..` (OAuth implicit flow) or `#/route?token=..`.
        let params = fragment.rsplit_once('?').map_or(fragment, |(_, q)| q);
        check_parameters(a, params);
    }
}

fn check_chars(a: &mut Analysis, part: &str, is_fragment: bool) {
    if !part.is_ascii() {
        a.refuse(UrlRejection::NotAscii);
        return;
    }
    let bytes = part.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'"' | b'<' | b'>' | b'^' | b'`' | b'{' | b'|' | b'}' => {
                a.refuse(UrlRejection::InvalidCharacter {
                    character: char::from(b),
                });
            }
            b'#' if is_fragment => a.refuse(UrlRejection::InvalidCharacter { character: '#' }),
            b'%' => {
                let valid = bytes
                    .get(i + 1..i + 3)
                    .is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit));
                if !valid {
                    a.refuse(UrlRejection::InvalidPercentEncoding);
                }
            }
            _ => {}
        }
    }
}

fn check_parameters(a: &mut Analysis, params: &str) {
    for pair in params.split(['&', ';']) {
        let raw_name = pair.split('=').next().unwrap_or("");
        if raw_name.is_empty() {
            continue;
        }
        let name = percent_decode(raw_name);
        if looks_like_credential(&name) {
            a.warn(UrlWarning::CredentialParameter { name: name.clone() });
            a.refuse(UrlRejection::CredentialParameter { name });
        }
    }
}

/// Form-style decoding (`+` is a space); invalid escapes stay as they are.
fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => match bytes.get(i + 1..i + 3).and_then(|h| {
                std::str::from_utf8(h)
                    .ok()
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
            }) {
                Some(byte) => {
                    out.push(byte);
                    i += 3;
                }
                None => {
                    out.push(b'%');
                    i += 1;
                }
            },
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

// ---------------------------------------------------------------------------
// Punycode (RFC 3492), decoding only.

const BASE: u32 = 36;
const T_MIN: u32 = 1;
const T_MAX: u32 = 26;
const SKEW: u32 = 38;
const DAMP: u32 = 700;
const INITIAL_BIAS: u32 = 72;
const INITIAL_N: u32 = 128;

fn punycode_decode(input: &str) -> Option<String> {
    if !input.is_ascii() || input.is_empty() {
        return None;
    }
    let (basic, extended) = match input.rfind('-') {
        Some(i) => (&input[..i], &input[i + 1..]),
        None => ("", input),
    };
    let mut output: Vec<char> = basic.chars().collect();
    let mut n = INITIAL_N;
    let mut i: u32 = 0;
    let mut bias = INITIAL_BIAS;
    let mut digits = extended.bytes().peekable();
    while digits.peek().is_some() {
        let old_i = i;
        let mut w: u32 = 1;
        let mut k = BASE;
        loop {
            let digit = match digits.next()? {
                b @ b'a'..=b'z' => u32::from(b - b'a'),
                b @ b'A'..=b'Z' => u32::from(b - b'A'),
                b @ b'0'..=b'9' => u32::from(b - b'0') + 26,
                _ => return None,
            };
            i = i.checked_add(digit.checked_mul(w)?)?;
            let t = if k <= bias {
                T_MIN
            } else if k >= bias + T_MAX {
                T_MAX
            } else {
                k - bias
            };
            if digit < t {
                break;
            }
            w = w.checked_mul(BASE - t)?;
            k = k.checked_add(BASE)?;
        }
        let len = u32::try_from(output.len() + 1).ok()?;
        bias = adapt(i - old_i, len, old_i == 0);
        n = n.checked_add(i / len)?;
        i %= len;
        let c = char::from_u32(n)?;
        output.insert(usize::try_from(i).ok()?, c);
        i += 1;
    }
    Some(output.into_iter().collect())
}

fn adapt(delta: u32, num_points: u32, first_time: bool) -> u32 {
    let mut delta = if first_time { delta / DAMP } else { delta / 2 };
    delta += delta / num_points;
    let mut k = 0;
    while delta > ((BASE - T_MIN) * T_MAX) / 2 {
        delta /= BASE - T_MIN;
        k += BASE;
    }
    k + (BASE - T_MIN + 1) * delta / (delta + SKEW)
}

// ---------------------------------------------------------------------------
// Scripts, coarsely: enough to see Latin mixed with Cyrillic or Greek.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Script {
    Common,
    Latin,
    Greek,
    Cyrillic,
    Armenian,
    Hebrew,
    Arabic,
    Devanagari,
    Thai,
    Georgian,
    /// Han, kana, Hangul and Bopomofo: mixed with each other and with Latin
    /// in ordinary names.
    Cjk,
    Other,
}

fn script_of(c: char) -> Script {
    match u32::from(c) {
        0x30..=0x39 | 0x2D | 0x2E | 0x5F | 0xB7 | 0xD7 | 0xF7 | 0x300..=0x36F => Script::Common,
        0x41..=0x5A
        | 0x61..=0x7A
        | 0xAA
        | 0xBA
        | 0xC0..=0x24F
        | 0x250..=0x2AF
        | 0x1E00..=0x1EFF
        | 0x2C60..=0x2C7F
        | 0xA720..=0xA7FF
        | 0xAB30..=0xAB6F
        | 0xFF21..=0xFF3A
        | 0xFF41..=0xFF5A => Script::Latin,
        0x370..=0x3FF | 0x1F00..=0x1FFF => Script::Greek,
        0x400..=0x52F | 0x1C80..=0x1C8F | 0x2DE0..=0x2DFF | 0xA640..=0xA69F => Script::Cyrillic,
        0x530..=0x58F => Script::Armenian,
        0x590..=0x5FF => Script::Hebrew,
        0x600..=0x6FF | 0x750..=0x77F | 0x8A0..=0x8FF => Script::Arabic,
        0x900..=0x97F => Script::Devanagari,
        0xE00..=0xE7F => Script::Thai,
        0x10A0..=0x10FF => Script::Georgian,
        0x1100..=0x11FF
        | 0x3040..=0x30FF
        | 0x3100..=0x312F
        | 0x3130..=0x318F
        | 0x31A0..=0x31FF
        | 0x3400..=0x4DBF
        | 0x4E00..=0x9FFF
        | 0xAC00..=0xD7AF
        | 0x20000..=0x2FFFF => Script::Cjk,
        _ => Script::Other,
    }
}

fn mixes_scripts(label: &str) -> bool {
    let mut seen: Vec<Script> = Vec::new();
    for script in label.chars().map(script_of) {
        if script != Script::Common && !seen.contains(&script) {
            seen.push(script);
        }
    }
    seen.len() > 1
        && !seen
            .iter()
            .all(|s| matches!(s, Script::Latin | Script::Cjk))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn punycode_decodes_rfc_examples() {
        assert_eq!(punycode_decode("80ak6aa92e").as_deref(), Some("аррӏе"));
        assert_eq!(punycode_decode("pple-43d").as_deref(), Some("\u{430}pple"));
        assert_eq!(punycode_decode("mnchen-3ya").as_deref(), Some("münchen"));
        assert_eq!(punycode_decode("!!"), None);
        assert_eq!(punycode_decode("99999999999"), None);
    }

    #[test]
    fn ipv6_forms() {
        assert_eq!(parse_ipv6("::1"), Some([0, 0, 0, 0, 0, 0, 0, 1]));
        assert_eq!(
            parse_ipv6("0:0:0:0:0:0:0:1"),
            Some([0, 0, 0, 0, 0, 0, 0, 1])
        );
        assert_eq!(parse_ipv6("::"), Some([0; 8]));
        assert_eq!(
            parse_ipv6("::ffff:127.0.0.1"),
            Some([0, 0, 0, 0, 0, 0xffff, 0x7f00, 1])
        );
        for bad in [
            ":1",
            "1::2::3",
            "1:2:3:4:5:6:7:8:9",
            "12345::",
            "1::2:",
            ":::",
            "g::",
        ] {
            assert_eq!(parse_ipv6(bad), None, "{bad}");
        }
    }

    #[test]
    fn scripts() {
        assert!(mixes_scripts("\u{430}pple"));
        assert!(!mixes_scripts("аррӏе"));
        assert!(!mixes_scripts("münchen"));
        assert!(!mixes_scripts("東京abc"));
    }

    #[test]
    fn nothing_panics_on_odd_input() {
        for url in [
            "",
            ":",
            "https:",
            "https://",
            "https://[",
            "https://[]",
            "https://]",
            "https://:",
            "https://@",
            "https://a@",
            "https://.",
            "https://..",
            "https://a..b",
            "a:b:c",
            "https://xn--",
            "https://xn--a-",
            "https://é",
            "https://a/%",
            "https://a/%e",
            "https://a?%",
            "https://a#%zz",
            "https://a:99999999999999999999",
        ] {
            let _ = UrlReview::new(url);
        }
    }
}
