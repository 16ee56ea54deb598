//! Hosts that imitate others: labels that mix writing systems (UTS #39,
//! through `unicode-security`), very long hosts, and hosts whose first labels
//! look like another domain (`example.com.evil.io`).

#[cfg(feature = "unicode")]
use unicode_script::Script;
#[cfg(feature = "unicode")]
use unicode_security::MixedScript;
#[cfg(feature = "unicode")]
use unicode_security::mixed_script::AugmentedScriptSet;

use super::policy::UrlWarning;
use crate::limits::{LONG_HOST_CHARS, LONG_HOST_LABELS};

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

/// Whether a label (in Unicode) mixes writing systems, by UTS #39: it is not
/// single-script (its resolved script set, where Han, kana, Hangul and
/// Bopomofo combine as Japanese, Korean or Han-with-Bopomofo, is empty), and
/// it is not Latin with one of those CJK sets either (the "highly
/// restrictive" level, ordinary in Japanese, Chinese and Korean names).
/// Common characters (digits, `-`) and combining marks go with any script.
#[cfg(feature = "unicode")]
pub(super) fn mixes_scripts(label: &str) -> bool {
    // ASCII is Latin and Common (digits, `-`): one script.
    if label.is_ascii() || label.is_single_script() {
        return false;
    }
    let mut without_latin = AugmentedScriptSet::default();
    for c in label.chars() {
        let set = AugmentedScriptSet::for_char(c);
        if !set.base.contains_script(Script::Latin) {
            without_latin.intersect_with(set);
        }
    }
    !(without_latin.hanb || without_latin.jpan || without_latin.kore)
}

/// Without Unicode's tables (feature `unicode`), every non-ASCII label
/// counts as mixing scripts (there is none: the `xn--` labels it would come
/// from are refused).
#[cfg(not(feature = "unicode"))]
pub(super) fn mixes_scripts(label: &str) -> bool {
    !label.is_ascii()
}

/// [`UrlWarning::LongHost`], for a host (without its trailing `.`) over
/// [`LONG_HOST_CHARS`] bytes or [`LONG_HOST_LABELS`] labels.
pub(super) fn long_host(trimmed: &str, labels: &[&str]) -> Option<UrlWarning> {
    let long = trimmed.len() > LONG_HOST_CHARS || labels.len() > LONG_HOST_LABELS;
    long.then_some(UrlWarning::LongHost {
        length: trimmed.len(),
        labels: labels.len(),
    })
}

/// The registrable domain's label count, guessed without the Public Suffix
/// List: the last two labels, or three for `co.uk`-style suffixes.
fn apparent_domain_len(labels: &[&str]) -> usize {
    let n = labels.len();
    if n >= 3 && labels[n - 1].len() == 2 && SECOND_LEVEL.contains(&labels[n - 2]) {
        3
    } else {
        n.min(2)
    }
}

/// [`UrlWarning::DeceptiveHost`], when the labels before the apparent domain
/// look like a domain: a name and a TLD (`example.com.evil.io`), or a label
/// `name-com` (`paypal-com.evil.io`).
pub(super) fn deceptive(labels: &[&str]) -> Option<UrlWarning> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(feature = "unicode")]
    #[test]
    fn scripts() {
        assert!(mixes_scripts("\u{430}pple")); // Cyrillic `а`, Latin `pple`
        assert!(mixes_scripts("\u{440}\u{430}ypal"));
        assert!(mixes_scripts("g\u{3bf}\u{3bf}gle")); // Greek `ο`
        assert!(!mixes_scripts("аррӏе")); // all Cyrillic
        assert!(!mixes_scripts("münchen"));
        assert!(!mixes_scripts("東京abc")); // Han with Latin
        assert!(!mixes_scripts("ひらがな漢字カタカナ")); // Japanese
        assert!(!mixes_scripts("한국어abc")); // Hangul with Latin
        assert!(!mixes_scripts("abc-123"));
        assert!(!mixes_scripts("e\u{301}cole")); // a combining accent
    }

    #[test]
    fn deceptive_hosts() {
        let warn = |labels: &[&str]| deceptive(labels);
        assert_eq!(
            warn(&["example", "com", "evil", "io"]),
            Some(UrlWarning::DeceptiveHost {
                looks_like: "example.com".into(),
                domain: "evil.io".into(),
            })
        );
        assert_eq!(warn(&["www", "google", "co", "uk"]), None);
        assert_eq!(warn(&["localhost"]), None);
        assert_eq!(warn(&["com"]), None);
    }
}
