//! Internationalised domain names: decoding `xn--` labels (Punycode,
//! RFC 3492), and refusing every label a browser refuses.
//!
//! A browser reads an `xn--` label by UTS #46 (the URL Standard's "domain to
//! ASCII"): the label must decode, and its Unicode form must be valid. Doing
//! that exactly takes the IDNA tables (the `idna` crate, 27 crates), so the
//! rules here are stricter than a browser's, never looser: a decoded label
//! may hold only
//!
//! - characters UTS #39 allows in identifiers (`unicode-security`; no
//!   symbols, emoji, invisible or historic-script characters, although a
//!   browser opens some of them),
//! - that do not change under case folding (but `ß` and `ς`, which UTS #46
//!   keeps),
//! - and no combining mark shared by several scripts (`Script=Inherited`,
//!   such as an accent written apart from its letter; a browser opens the
//!   few that are in normalization form C);
//!
//! it must not start with a combining mark, must be in normalization form C
//! (checked by `unicode-normalization`), and must not decode to another
//! `xn--` label. A host with a right-to-left label must follow the IDNA bidi
//! rule (RFC 5893), here in a narrower form: its right-to-left labels hold
//! only Hebrew, Arabic or Thaana letters, marks and digits, ASCII digits and
//! `-`, start with a letter, end with a letter or digit and do not mix
//! Arabic-Indic digits with European ones; its other labels are ASCII and
//! start with a letter.
//!
//! The checks of a decoded label need Unicode's tables: the `unicode`
//! feature. Without it, every `xn--` label is refused, with that feature
//! named (stricter again, never looser).
//!
//! `tests/it/url_whatwg.rs` checks these rules against the `url` crate's UTS #46
//! for every code point (one in 16 of the Han ideographs and Hangul
//! syllables) in labels around it, and for the pairs of characters that
//! could compose or reorder.

#[cfg(feature = "unicode")]
pub(super) use tables::{check_bidi, check_label};
#[cfg(not(feature = "unicode"))]
pub(super) use without_tables::{check_bidi, check_label};

/// The one reason for refusing a label that does not decode.
pub(super) const NOT_PUNYCODE: &str = "has an `xn--` label that is not valid Punycode";

/// The checks without Unicode's tables: every decoded label is refused.
#[cfg(not(feature = "unicode"))]
mod without_tables {
    /// The reason for refusing an `xn--` label without Unicode's tables.
    pub(super) const NO_TABLES: &str = "has an `xn--` label, which this build cannot check: turn on \
        elicit-core's `unicode` feature (the Unicode tables the checks need)";

    /// Without Unicode's tables, no decoded label can be checked.
    pub(crate) fn check_label(_decoded: &str) -> Result<(), &'static str> {
        Err(NO_TABLES)
    }

    /// Without Unicode's tables, a host with a non-ASCII label (which has been
    /// refused already) cannot be checked either.
    pub(crate) fn check_bidi(labels: &[String]) -> Result<(), &'static str> {
        if labels.iter().all(|l| l.is_ascii()) {
            Ok(())
        } else {
            Err(NO_TABLES)
        }
    }
}

/// The checks with Unicode's tables (feature `unicode`).
#[cfg(feature = "unicode")]
mod tables {
    use std::sync::LazyLock;

    use unicode_normalization::is_nfc;
    use unicode_script::{Script, UnicodeScript};
    use unicode_security::GeneralSecurityProfile;

    /// Checks `decoded`, an `xn--` label's Unicode form, as a browser would,
    /// more strictly (see the module documentation). `Err` holds the reason.
    pub(crate) fn check_label(decoded: &str) -> Result<(), &'static str> {
        if decoded.starts_with("xn--") {
            return Err("has an `xn--` label that decodes to another `xn--` label");
        }
        for c in decoded.chars().filter(|c| !c.is_ascii()) {
            if !c.identifier_allowed() {
                return Err(
                    "has an `xn--` label with a character Unicode does not allow in identifiers \
                     (UTS #39), such as a symbol, an emoji or an invisible character",
                );
            }
            if c.script() == Script::Inherited {
                return Err(
                    "has an `xn--` label with a combining mark shared by several scripts, such as \
                     an accent written apart from its letter",
                );
            }
            if is_case_folded(c) {
                return Err(
                    "has an `xn--` label with an uppercase or other case-folded character, which \
                     browsers refuse",
                );
            }
        }
        if decoded.chars().next().is_some_and(is_mark) {
            return Err(
                "has an `xn--` label that starts with a combining mark, which browsers refuse",
            );
        }
        if !is_nfc(decoded) {
            return Err(
                "has an `xn--` label that is not in Unicode normalization form C, which browsers \
                 refuse",
            );
        }
        Ok(())
    }

    /// The bidi rule on a host's `labels` (the Unicode form of its `xn--` ones):
    /// nothing to check without a right-to-left label.
    pub(crate) fn check_bidi(labels: &[String]) -> Result<(), &'static str> {
        if !labels.iter().any(|l| l.chars().any(is_right_to_left)) {
            return Ok(());
        }
        for label in labels {
            if label.is_ascii() {
                if !label.starts_with(|c: char| c.is_ascii_alphabetic()) {
                    return Err(
                        "has a right-to-left label beside a label that does not start with a letter, \
                         which browsers refuse (the IDNA bidi rule, RFC 5893)",
                    );
                }
            } else if !label.chars().any(is_right_to_left) {
                return Err(
                    "has a right-to-left label beside a non-ASCII left-to-right label, which is \
                     refused here",
                );
            } else if !is_right_to_left_label(label) {
                return Err(
                    "has a right-to-left label that mixes directions, or does not start with a \
                     letter and end with a letter or digit (the IDNA bidi rule, RFC 5893; here only \
                     Hebrew, Arabic or Thaana letters, marks and digits, ASCII digits and `-`)",
                );
            }
        }
        Ok(())
    }

    /// A Hebrew, Arabic or Thaana character: the right-to-left scripts UTS #39
    /// allows.
    fn is_right_to_left(c: char) -> bool {
        !c.is_ascii() && matches!(c.script(), Script::Hebrew | Script::Arabic | Script::Thaana)
    }

    /// The narrow form of the bidi rule's right-to-left label (RFC 5893, rules
    /// 2 to 4): right-to-left letters, marks and digits, ASCII digits and `-`,
    /// starting with a letter, ending (before any marks) with a letter or
    /// digit, and not mixing Arabic-Indic digits with European ones.
    fn is_right_to_left_label(label: &str) -> bool {
        let only_allowed = label
            .chars()
            .all(|c| is_right_to_left(c) || c.is_ascii_digit() || c == '-');
        let starts_well = label
            .chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() && !is_mark(c));
        let ends_well = label
            .chars()
            .rfind(|c| !is_mark(*c))
            .is_some_and(|c| c.is_alphabetic() || c.is_numeric());
        let arabic_digits = label.chars().any(|c| ('\u{660}'..='\u{669}').contains(&c));
        let european_digits = label
            .chars()
            .any(|c| c.is_ascii_digit() || ('\u{6F0}'..='\u{6F9}').contains(&c));
        only_allowed && starts_well && ends_well && !(arabic_digits && european_digits)
    }

    /// Changes_When_Casefolded, through the pattern dialect's tables (the
    /// pattern is fixed and valid; were it not, every character would count).
    static CASE_FOLDED: LazyLock<Option<elicit_pattern::Regex>> =
        LazyLock::new(|| elicit_pattern::compile(r"^\p{Changes_When_Casefolded}$").ok());

    /// General_Category=Mark (`unicode-normalization`'s table, the one its NFC
    /// check uses).
    fn is_mark(c: char) -> bool {
        unicode_normalization::char::is_combining_mark(c)
    }

    /// Changes_When_Casefolded, but `ß` and `ς`, which UTS #46 keeps.
    fn is_case_folded(c: char) -> bool {
        !matches!(c, '\u{DF}' | '\u{3C2}')
            && CASE_FOLDED
                .as_ref()
                .is_none_or(|folded| folded.is_match(c.encode_utf8(&mut [0; 4])))
    }
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

/// Decodes the part of a lowercase label after `xn--`; `None` if it is not
/// valid Punycode, or if it decodes to nothing but ASCII (IDNA's rule: such
/// a label is written as itself).
pub(super) fn punycode_decode(input: &str) -> Option<String> {
    if !input.is_ascii() {
        return None;
    }
    // The basic code points are those before the last `-`; a `-` at the
    // very start is not a delimiter (RFC 3492, section 6.2), and not a digit
    // either.
    let (basic, extended) = match input.rfind('-') {
        Some(i) if i > 0 => (&input[..i], &input[i + 1..]),
        _ => ("", input),
    };
    if extended.is_empty() {
        return None;
    }
    let mut output: Vec<char> = basic.chars().collect();
    let mut n = INITIAL_N;
    let mut i: u32 = 0;
    let mut bias = INITIAL_BIAS;
    let mut digits = extended.bytes().peekable();
    while digits.peek().is_some() {
        let old_i = i;
        i = read_delta(&mut digits, i, bias)?;
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

/// Reads one generalized variable-length integer from `digits` and adds it
/// to `i` (RFC 3492, section 6.2).
fn read_delta(digits: &mut impl Iterator<Item = u8>, mut i: u32, bias: u32) -> Option<u32> {
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
            return Some(i);
        }
        w = w.checked_mul(BASE - t)?;
        k = k.checked_add(BASE)?;
    }
}

/// The bias adaptation function (RFC 3492, section 6.1).
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn punycode_decodes_rfc_examples() {
        assert_eq!(punycode_decode("80ak6aa92e").as_deref(), Some("аррӏе"));
        assert_eq!(punycode_decode("pple-43d").as_deref(), Some("\u{430}pple"));
        assert_eq!(punycode_decode("mnchen-3ya").as_deref(), Some("münchen"));
        assert_eq!(punycode_decode("a").as_deref(), Some("\u{80}"));
        assert_eq!(punycode_decode("!!"), None);
        assert_eq!(punycode_decode("99999999999"), None);
        assert_eq!(punycode_decode(""), None);
        // Nothing but ASCII.
        assert_eq!(punycode_decode("abc-"), None);
        // A leading `-` is not a delimiter.
        assert_eq!(punycode_decode("-a"), None);
    }

    /// Without Unicode's tables, every `xn--` host is refused, naming the
    /// feature; other hosts are untouched.
    #[cfg(not(feature = "unicode"))]
    #[test]
    fn without_the_tables_an_xn_label_is_refused_naming_the_feature() {
        use crate::protocol::url::{UrlRejection, check_url};
        assert_eq!(check_label("münchen"), Err(without_tables::NO_TABLES));
        assert!(matches!(
            check_url("https://xn--mnchen-3ya.example/"),
            Err(UrlRejection::InvalidHost { reason }) if reason.contains("`unicode` feature")
        ));
        assert_eq!(check_url("https://muenchen.example/"), Ok(()));
    }

    #[cfg(feature = "unicode")]
    #[test]
    fn labels() {
        for good in [
            "аррӏе",
            "münchen",
            "faß",
            "βόλος",
            "ς",
            "ı",
            "भारत",
            "กุ้ง",
            "公司",
        ] {
            assert_eq!(check_label(good), Ok(()), "{good}");
        }
        for (bad, reason) in [
            ("xn--é", "decodes to another"),
            ("\u{80}", "does not allow"),
            ("a\u{2488}", "does not allow"),
            ("\u{1F4A9}", "does not allow"),
            ("a\u{200D}b", "does not allow"),
            ("e\u{301}", "shared by several scripts"),
            ("Ä", "case-folded"),
            ("\u{1FB3}", "case-folded"),
            ("\u{93E}a", "starts with a combining mark"),
            // न + nukta is ऩ; a Thai tone mark before a vowel below.
            ("\u{928}\u{93C}", "normalization form C"),
            ("\u{E01}\u{E49}\u{E38}", "normalization form C"),
        ] {
            let err = check_label(bad).expect_err(bad);
            assert!(err.contains(reason), "{bad}: {err}");
        }
    }

    #[cfg(feature = "unicode")]
    #[test]
    fn nfc() {
        let not_nfc =
            |label: &str| check_label(label).is_err_and(|e| e.contains("normalization form C"));
        assert!(not_nfc("\u{928}\u{93C}"));
        assert_eq!(check_label("\u{E01}\u{E38}\u{E49}"), Ok(()));
        assert!(not_nfc("\u{E01}\u{E49}\u{E38}"));
        // ෙ + ් composes; ෙ + ා + ් composes twice (after the letter ක).
        assert!(not_nfc("\u{D9A}\u{DD9}\u{DCA}"));
        assert!(not_nfc("\u{D9A}\u{DD9}\u{DCF}\u{DCA}"));
        // A mark of a lower class between does not block it...
        assert!(not_nfc("\u{D9A}\u{DD9}\u{93C}\u{DCA}"));
        // ... one of the same class does, and so does any mark before a
        // second of class 0.
        assert_eq!(check_label("\u{D9A}\u{DD9}\u{94D}\u{DCA}"), Ok(()));
        assert_eq!(check_label("\u{995}\u{9C7}\u{9BC}\u{9BE}"), Ok(()));
    }

    #[cfg(feature = "unicode")]
    #[test]
    fn bidi() {
        let labels = |ls: &[&str]| ls.iter().map(|l| (*l).to_owned()).collect::<Vec<_>>();
        for good in [
            &["1a", "com"][..],
            &["ישראל", "com"],
            &["www", "مثال", "com"],
            &["مثال1", "com"],
            &["مثال١", "com"],
            &["מ-1", "com"],
        ] {
            assert_eq!(check_bidi(&labels(good)), Ok(()), "{good:?}");
        }
        for bad in [
            &["1a", "ישראל", "com"][..],
            &["1", "مثال", "com"],
            &["münchen", "ישראל"],
            &["aישראל"],
            &["1ישראל"],
            &["ישראל-"],
            &["مثال1١"],
        ] {
            assert!(check_bidi(&labels(bad)).is_err(), "{bad:?}");
        }
    }
}
