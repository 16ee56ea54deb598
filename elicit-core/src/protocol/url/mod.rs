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
//! Inside, `policy` holds the limits and the types above, `parse` reads the
//! URL's parts, `host` its host (IP addresses through `std::net`, domain
//! labels by the rule of [`crate::format`]), `idn` its `xn--` labels
//! (Punycode, and the checks a browser makes on their Unicode form), and
//! `lookalike` the warnings about hosts that imitate others (mixed scripts
//! by Unicode UTS #39, through `unicode-security`).
//!
//! [`UrlReview::host`] shows the host as a browser shows it (the WHATWG URL
//! Standard's serialization): lowercased, an IPv6 address in its shortest
//! form (`[0:0:0:0:0:0:0:1]` as `[::1]`, `[::ffff:1.2.3.4]` as
//! `[::ffff:102:304]`), an IPv4 address without a trailing `.` (`1.2.3.4.`
//! as `1.2.3.4`), a domain as written (`example.com.` keeps its `.`). A test
//! (`tests/it/url_whatwg.rs`) checks against a WHATWG URL parser, as browsers
//! use, that the host of every allowed URL is the one a browser shows.
//!
//! The policy ([`UrlVerdict`]):
//!
//! - `https` URLs are allowed; `http` only on `localhost`, `127.0.0.0/8` or
//!   `[::1]`, as development ([`UrlVerdict::Development`]).
//! - Refused: `javascript:`, `data:`, `file:` and other schemes; userinfo
//!   (`user:pass@host`); query or fragment parameters whose names look like
//!   credentials
//!   ([`looks_like_credential`](crate::credential::looks_like_credential),
//!   the derive's word list);
//!   malformed or ambiguous URLs; hosts a browser would not open, such as
//!   an `xn--` label that is not Punycode or whose Unicode form IDNA
//!   (UTS #46) refuses (an uppercase letter, a control, a leading combining
//!   mark, a label not in normalization form C, a broken bidi rule).
//! - Refused although a browser opens them: IPv4 addresses in shorthand,
//!   hex or octal (`127.1`, `0x7f.0.0.1`); non-ASCII hosts (write them in
//!   Punycode); and, as IDNA's own tables are not used here, `xn--` labels
//!   with characters outside UTS #39's identifier set (symbols, emoji), with
//!   combining marks shared by several scripts (an accent written apart from
//!   its letter), or right-to-left beside a non-ASCII left-to-right label.
//!   Also refused: an `xn--` label that decodes to another `xn--` label
//!   (UTS #46 refuses it; the `url` crate does not yet).
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
//! // The host as a browser shows it.
//! assert_eq!(UrlReview::new("https://[0:0:0:0:0:0:0:1]/").host(), Some("[::1]"));
//! assert_eq!(UrlReview::new("https://1.2.3.4./").host(), Some("1.2.3.4"));
//!
//! assert_eq!(UrlReview::new("http://localhost:8080/callback").verdict(), &UrlVerdict::Development);
//! assert!(UrlReview::new("http://example.com/").verdict().is_refused());
//! ```

mod analysis;
mod host;
mod idn;
mod lookalike;
mod parse;
mod policy;

use std::ops::Range;

use parse::analyse;
pub use policy::{UrlRejection, UrlVerdict, UrlWarning};

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

    /// The host to highlight, as a browser shows it: lowercased, Punycode in
    /// its `xn--` form, an IPv6 address in brackets in its shortest form
    /// (`[::1]`), an IPv4 address without a trailing `.`. A host that is not
    /// a valid address or name is shown as written, lowercased. `None` when
    /// the URL has none.
    pub fn host(&self) -> Option<&str> {
        self.host.as_deref()
    }

    /// The host with its Punycode labels decoded, when it has any. Show it
    /// beside [`host`](Self::host), never instead of it.
    pub fn unicode_host(&self) -> Option<&str> {
        self.unicode_host.as_deref()
    }

    /// The URL split around the host as written (not as
    /// [`host`](Self::host) shows it), for rendering the host highlighted:
    /// `(before, host, after)`. `None` when there is no host.
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

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn messages_say_what_to_do() {
        assert_eq!(
            UrlRejection::ForbiddenCharacter {
                character: '\u{202E}'
            }
            .to_string(),
            "the URL contains U+202E, a control, whitespace or invisible character: remove it \
             (such characters can disguise the real URL)"
        );
        assert_eq!(
            UrlWarning::Punycode {
                label: "xn--pple-43d".into(),
                decoded: Some("\u{430}pple".into()),
            }
            .to_string(),
            "the host contains the Punycode label `xn--pple-43d` (shown as `\u{430}pple`): it may \
             imitate another domain"
        );
        assert_eq!(
            UrlWarning::Punycode {
                label: "xn--99".into(),
                decoded: None,
            }
            .to_string(),
            "the host contains the label `xn--99`, which is not valid Punycode"
        );
    }
}
