//! The format validators: `const fn(&str) -> bool`, so the derive checks a
//! literal default at compile time with the same code the runtime runs.
//! Reached by [`Format::matches`](super::Format::matches) and
//! [`LiteralRule::check`](super::LiteralRule::check); the derive's
//! generated code calls them through `__private`.

/// Longest address [`is_email`] accepts, in bytes.
const EMAIL_MAX_LEN: usize = 254;

/// Longest domain label [`is_email`] accepts, in bytes.
const LABEL_MAX_LEN: usize = 63;

/// Returns `true` if `s` is an e-mail address by a pragmatic rule.
///
/// The rule is close to what the HTML `<input type="email">` accepts. It
/// is not the full RFC 5322 grammar: quoted local parts, comments and
/// IP-literal domains are all rejected.
///
/// Accepted means all of the following hold:
///
/// - `s` is at most 254 bytes long and holds exactly one `@`;
/// - the local part (before `@`) is non-empty and consists of printable
///   ASCII (`!` to `~`) other than `@ ( ) , : ; < > [ ] \ "`; it does
///   not start or end with `.` and does not contain `..`;
/// - the domain (after `@`) is one or more labels separated by `.`;
///   each label is 1 to 63 ASCII letters, digits or `-`, and does not
///   start or end with `-`. A trailing `.` (an empty label) is rejected.
///
/// Any non-ASCII byte (internationalised addresses included) makes the
/// result `false`.
#[must_use]
#[doc(hidden)] // Public only through `__private`, for the derive.
pub const fn is_email(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() > EMAIL_MAX_LEN {
        return false;
    }
    // The local part, up to its `@`: `true` at the start, as a local part
    // may neither start with `.` nor be empty.
    let mut after_dot = true;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if LOCAL_BYTES[c as usize] {
            after_dot = false;
        } else if after_dot || !matches!(c, b'.' | b'@') {
            return false;
        } else if c == b'@' {
            return is_email_domain(b.split_at(i + 1).1);
        } else {
            after_dot = true;
        }
        i += 1;
    }
    false
}

/// Returns `true` if `s` is an absolute URI in the sense of RFC 3986.
///
/// Accepted means all of the following hold:
///
/// - `s` starts with a scheme: an ASCII letter, then any ASCII letters,
///   digits, `+`, `-` or `.`, then `:`;
/// - at least one byte follows that `:`;
/// - no byte anywhere is an ASCII control character (`0x00` to `0x1F`
///   or `0x7F`), a space, or one of `<`, `>`, `"`, `{`, `}`, `|`, `\`,
///   `^` and `` ` ``;
/// - every `%` is followed by two hexadecimal digits.
///
/// The part after the scheme is not otherwise parsed, so `mailto:x@y`
/// and `urn:isbn:0451450523` are accepted. Relative references such as
/// `//host/path` are rejected. Any non-ASCII byte makes the result
/// `false`: IRIs are not URIs, and must be percent-encoded first.
#[must_use]
#[doc(hidden)] // Public only through `__private`, for the derive.
pub const fn is_uri(s: &str) -> bool {
    // One pass: the scheme up to its `:`, then every byte after it. The
    // scheme's own bytes are all allowed URI bytes, so they are not looked
    // at again.
    let mut rest = match s.as_bytes() {
        [first, rest @ ..] if first.is_ascii_alphabetic() => rest,
        _ => return false,
    };
    loop {
        match rest {
            [b':', after @ ..] => {
                rest = after;
                break;
            }
            [c, after @ ..] if URI_BYTES[*c as usize] & SCHEME != 0 => rest = after,
            _ => return false,
        }
    }
    if rest.is_empty() {
        return false;
    }
    let mut i = 0;
    // Eight plain bytes at a time (independent lookups), then byte by byte
    // from the first block that is not all plain.
    while i + 8 <= rest.len() {
        let all = URI_BYTES[rest[i] as usize]
            & URI_BYTES[rest[i + 1] as usize]
            & URI_BYTES[rest[i + 2] as usize]
            & URI_BYTES[rest[i + 3] as usize]
            & URI_BYTES[rest[i + 4] as usize]
            & URI_BYTES[rest[i + 5] as usize]
            & URI_BYTES[rest[i + 6] as usize]
            & URI_BYTES[rest[i + 7] as usize];
        if all & PLAIN == 0 {
            break;
        }
        i += 8;
    }
    while i < rest.len() {
        if URI_BYTES[rest[i] as usize] & PLAIN == 0 {
            // Not a plain URI byte: a `%` and two hexadecimal digits, or
            // not a URI.
            if rest[i] != b'%'
                || i + 2 >= rest.len()
                || URI_BYTES[rest[i + 1] as usize] & HEX == 0
                || URI_BYTES[rest[i + 2] as usize] & HEX == 0
            {
                return false;
            }
            i += 2;
        }
        i += 1;
    }
    true
}

/// Returns `true` if `s` is an RFC 3339 `full-date`.
///
/// Accepted means exactly ten bytes of the form `YYYY-MM-DD`, with a four-digit year (`0000` to `9999`),
/// month `01` to `12`, and a day that exists in that month. `29` is
/// accepted for February only in leap years of the Gregorian calendar
/// (divisible by 4, except centuries not divisible by 400).
#[must_use]
#[doc(hidden)] // Public only through `__private`, for the derive.
pub const fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 10 && is_full_date_at(b, 0)
}

/// Returns `true` if `s` is an RFC 3339 `date-time`, namely:
///
/// - a `full-date` as accepted by [`is_date`];
/// - the separator `T` or `t` (a space is rejected);
/// - `HH:MM:SS` with hour `00` to `23`, minute `00` to `59` and second
///   `00` to `60` (`60` allows a leap second);
/// - optionally `.` followed by one or more digits (fractional seconds);
/// - a zone: `Z`, `z`, or `+HH:MM` / `-HH:MM` with hour `00` to `23`
///   and minute `00` to `59`. The zone is required.
///
/// Nothing may follow the zone.
#[must_use]
#[doc(hidden)] // Public only through `__private`, for the derive.
pub const fn is_date_time(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 20 || !is_full_date_at(b, 0) || !matches!(b[10], b'T' | b't') {
        return false;
    }
    if !is_time_at(b, 11) {
        return false;
    }
    match skip_fraction(b, 19) {
        Some(zone) => is_zone(b, zone),
        None => false,
    }
}

/// The `pattern` of a UUID field (`uuid::Uuid`): the hyphenated form,
/// `8-4-4-4-12` hexadecimal digits, either case. The four known formats do
/// not include `uuid`, so the rule travels as a pattern every client can
/// check. [`is_uuid`] is the same rule as a `const fn` (a test proves they
/// agree).
#[cfg(feature = "uuid")]
pub const UUID_PATTERN: &str =
    "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";

/// Returns `true` if `s` is a hyphenated UUID, as `UUID_PATTERN` says:
/// exactly 36 bytes, hexadecimal digits of either case in groups of 8, 4, 4,
/// 4 and 12, separated by `-`. The simple (32 digits), braced and `urn:uuid:`
/// forms are rejected.
#[must_use]
pub const fn is_uuid(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 36 {
        return false;
    }
    let mut i = 0;
    while i < 36 {
        let ok = match i {
            8 | 13 | 18 | 23 => b[i] == b'-',
            _ => b[i].is_ascii_hexdigit(),
        };
        if !ok {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether the RFC 3339 date-time `s` (already valid for [`is_date_time`])
/// has a leap second: `60` as its seconds.
#[must_use]
pub const fn has_leap_second(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() > 18 && b[17] == b'6' && b[18] == b'0'
}

/// Whether the RFC 3339 date-time `s` (already valid for [`is_date_time`])
/// has more than nine fractional digits: finer than the nanoseconds every
/// date-time type here holds, so keeping them would mean rounding.
#[must_use]
pub const fn has_sub_nanosecond_digits(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() <= 19 || b[19] != b'.' {
        return false;
    }
    let mut i = 20;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    i - 20 > 9
}

// ----- e-mail helpers -------------------------------------------------------

/// Whether `c` may appear anywhere in the local part of an e-mail address
/// (`.` may too, but not first, last or twice in a row).
const fn is_local_byte(c: u8) -> bool {
    matches!(c, b'!'..=b'~')
        && !matches!(
            c,
            b'@' | b'.'
                | b'('
                | b')'
                | b','
                | b':'
                | b';'
                | b'<'
                | b'>'
                | b'['
                | b']'
                | b'\\'
                | b'"'
        )
}

/// Whether `c` may appear in a domain label: an ASCII letter or digit, or `-`.
const fn is_label_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'-'
}

/// A 256-entry table of `$class(byte)`: the byte classes below are looked
/// up once per byte instead of tested with a chain of comparisons (these
/// checks run on every `email` and `uri` field of every response).
macro_rules! byte_table {
    ($class:ident) => {{
        let mut table = [false; 256];
        let mut c = 0;
        while c < 256 {
            // `c < 256`, so the cast is exact.
            #[allow(clippy::cast_possible_truncation)]
            let byte = c as u8;
            table[c] = $class(byte);
            c += 1;
        }
        table
    }};
}

/// [`is_local_byte`] for every byte.
const LOCAL_BYTES: [bool; 256] = byte_table!(is_local_byte);
/// [`is_label_byte`] for every byte.
const LABEL_BYTES: [bool; 256] = byte_table!(is_label_byte);

/// Whether `b` is one or more valid dot-separated labels, in one pass:
/// each label 1 to 63 letters, digits or `-`, not starting or ending with
/// `-` (so no `@`, and no empty label: no trailing `.`).
pub(crate) const fn is_email_domain(b: &[u8]) -> bool {
    let mut label_start = 0;
    let mut i = 0;
    while i < b.len() {
        if !LABEL_BYTES[b[i] as usize] {
            if b[i] != b'.' || !is_label_shape(b, label_start, i) {
                return false;
            }
            label_start = i + 1;
        }
        i += 1;
    }
    is_label_shape(b, label_start, b.len())
}

/// Whether the label `b[start..end]`, whose bytes are already known to be
/// label bytes, has a valid length and does not start or end with `-`.
const fn is_label_shape(b: &[u8], start: usize, end: usize) -> bool {
    start < end && end - start <= LABEL_MAX_LEN && b[start] != b'-' && b[end - 1] != b'-'
}

// ----- URI helpers ----------------------------------------------------------

/// Whether `c` may continue a scheme: an ASCII letter or digit, `+`, `-`
/// or `.`.
const fn is_scheme_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.')
}

/// Whether `c` may appear in a URI: not a control, a space, non-ASCII or
/// one of the excluded punctuation.
const fn is_uri_byte(c: u8) -> bool {
    !(c <= b' '
        || c >= 0x7F
        || matches!(
            c,
            b'<' | b'>' | b'"' | b'{' | b'}' | b'|' | b'\\' | b'^' | b'`'
        ))
}

/// [`URI_BYTES`] bit: [`is_scheme_byte`].
const SCHEME: u8 = 1;
/// [`URI_BYTES`] bit: [`is_uri_byte`] and not `%`, which starts an
/// escape.
const PLAIN: u8 = 2;
/// [`URI_BYTES`] bit: an ASCII hexadecimal digit.
const HEX: u8 = 4;

/// The URI byte classes of every byte, as bits.
const URI_BYTES: [u8; 256] = {
    let mut table = [0; 256];
    let mut c = 0;
    while c < 256 {
        // `c < 256`, so the cast is exact.
        #[allow(clippy::cast_possible_truncation)]
        let byte = c as u8;
        table[c] = if is_scheme_byte(byte) { SCHEME } else { 0 }
            | if is_uri_byte(byte) && byte != b'%' {
                PLAIN
            } else {
                0
            }
            | if byte.is_ascii_hexdigit() { HEX } else { 0 };
        c += 1;
    }
    table
};

// ----- date and time helpers ------------------------------------------------

/// The number made of the `n` ASCII digits at `b[start..]`, or `None` if
/// they run past the end or are not all digits.
const fn digits(b: &[u8], start: usize, n: usize) -> Option<u32> {
    if start + n > b.len() {
        return None;
    }
    let mut value = 0;
    let mut i = start;
    while i < start + n {
        if !b[i].is_ascii_digit() {
            return None;
        }
        value = value * 10 + (b[i] - b'0') as u32;
        i += 1;
    }
    Some(value)
}

/// Whether the two digits at `b[start..]` form a number `<= max`.
const fn two_digits_up_to(b: &[u8], start: usize, max: u32) -> bool {
    match digits(b, start, 2) {
        Some(v) => v <= max,
        None => false,
    }
}

/// Whether `year` is a leap year in the Gregorian calendar.
const fn is_leap_year(year: u32) -> bool {
    year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400))
}

/// Days in `month` (1 to 12) of `year`.
const fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        2 if is_leap_year(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Whether `b[start..start + 10]` is a valid `YYYY-MM-DD`.
const fn is_full_date_at(b: &[u8], start: usize) -> bool {
    if start + 10 > b.len() || b[start + 4] != b'-' || b[start + 7] != b'-' {
        return false;
    }
    let (Some(year), Some(month), Some(day)) = (
        digits(b, start, 4),
        digits(b, start + 5, 2),
        digits(b, start + 8, 2),
    ) else {
        return false;
    };
    matches!(month, 1..=12) && day >= 1 && day <= days_in_month(year, month)
}

/// Whether `b[start..start + 8]` is a valid `HH:MM:SS` (second up to 60).
const fn is_time_at(b: &[u8], start: usize) -> bool {
    start + 8 <= b.len()
        && b[start + 2] == b':'
        && b[start + 5] == b':'
        && two_digits_up_to(b, start, 23)
        && two_digits_up_to(b, start + 3, 59)
        && two_digits_up_to(b, start + 6, 60)
}

/// Index just past an optional `.DIGITS` at `b[start..]`, or `None` if
/// a `.` is there but no digit follows it.
const fn skip_fraction(b: &[u8], start: usize) -> Option<usize> {
    if start >= b.len() || b[start] != b'.' {
        return Some(start);
    }
    let mut i = start + 1;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    if i == start + 1 {
        return None;
    }
    Some(i)
}

/// Whether `b[start..]` is exactly `Z`, `z`, `+HH:MM` or `-HH:MM`.
const fn is_zone(b: &[u8], start: usize) -> bool {
    if start >= b.len() {
        return false;
    }
    match b[start] {
        b'Z' | b'z' => start + 1 == b.len(),
        b'+' | b'-' => {
            start + 6 == b.len()
                && b[start + 3] == b':'
                && two_digits_up_to(b, start + 1, 23)
                && two_digits_up_to(b, start + 4, 59)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(name: &str, f: fn(&str) -> bool, good: &[&str], bad: &[&str]) {
        for s in good {
            assert!(f(s), "{name}: expected {s:?} to be accepted");
        }
        for s in bad {
            assert!(!f(s), "{name}: expected {s:?} to be rejected");
        }
    }

    #[test]
    fn email() {
        let long_label = "a".repeat(63);
        let too_long_label = "a".repeat(64);
        let ok_63 = format!("x@{long_label}.com");
        let bad_64 = format!("x@{too_long_label}.com");
        // 64 + 1 + 189 = 254 bytes, and one more byte makes 255.
        let domain = ["a".repeat(63), "b".repeat(63), "c".repeat(61)].join(".");
        let ok_254 = format!("{}@{domain}", "l".repeat(64));
        let bad_255 = format!("{}@{domain}", "l".repeat(65));
        assert_eq!(ok_254.len(), 254);
        assert_eq!(bad_255.len(), 255);
        let good = [
            "a@b.c",
            "a@b",
            "user@example.com",
            "first.last@example.com",
            "user+tag@example.co.uk",
            "x_y-z@sub-domain.example.org",
            "!#$%&'*+/=?^_`{|}~-@example.com",
            "USER@EXAMPLE.COM",
            "1234@123.456",
            "a.b.c@d-e.f",
            "o'brien@example.ie",
            ok_63.as_str(),
            ok_254.as_str(),
        ];
        let bad = [
            "",
            "@",
            "a",
            "@b.c",
            "a@",
            "a@@b.c",
            "a@b@c.d",
            ".a@b.c",
            "a.@b.c",
            "a..b@c.d",
            "a b@c.d",
            "a@b c.d",
            "\"a\"@b.c",
            "a(b)@c.d",
            "a,b@c.d",
            "a:b@c.d",
            "a;b@c.d",
            "<a>@b.c",
            "a[b]@c.d",
            "a\\b@c.d",
            "a@b..c",
            "a@.b.c",
            "a@b.c.",
            "a@-b.c",
            "a@b-.c",
            "a@b_c.d",
            "a@[127.0.0.1]",
            "\u{e9}@b.c",
            "a@\u{e9}.fr",
            "a\t@b.c",
            bad_64.as_str(),
            bad_255.as_str(),
        ];
        check("is_email", is_email, &good, &bad);
    }

    #[test]
    fn uri() {
        let good = [
            "mailto:x@y",
            "http://example.com",
            "https://example.com/path?q=1#frag",
            "urn:isbn:0451450523",
            "file:///etc/passwd",
            "ftp://user:pass@host:21/dir/",
            "a:b",
            "A+b-c.d:rest",
            "x1:%20",
            "http://a/%7Euser",
            "https://[::1]:8080/",
            "data:text/plain;base64,SGVsbG8=",
            "tel:+1-555-0100",
            "news:comp.lang.rust",
        ];
        let bad = [
            "",
            ":",
            "a:",
            "//no-scheme",
            "/path/only",
            "1abc:x",
            "+a:x",
            "ab_c:x",
            "no colon",
            "http://a b",
            "http://a<b>",
            "http://a\"b",
            "http://a{b}",
            "http://a|b",
            "http://a\\b",
            "http://a^b",
            "http://a`b",
            "http://a\nb",
            "http://a\u{7f}b",
            "http://a%",
            "http://a%2",
            "http://a%zz",
            "http://a%2g",
            "http://ex\u{e4}mple.com",
            "sch\u{e9}me:x",
        ];
        check("is_uri", is_uri, &good, &bad);
    }

    #[test]
    fn date() {
        let good = [
            "2024-02-29",
            "2000-02-29",
            "2023-02-28",
            "2024-01-01",
            "2024-01-31",
            "2024-03-31",
            "2024-04-30",
            "2024-06-30",
            "2024-09-30",
            "2024-11-30",
            "2024-12-31",
            "0000-01-01",
            "9999-12-31",
            "1600-02-29",
        ];
        let bad = [
            "",
            "2023-02-29",
            "1900-02-29",
            "2100-02-29",
            "2024-02-30",
            "2024-13-01",
            "2024-00-10",
            "2024-01-00",
            "2024-01-32",
            "2024-04-31",
            "2024-06-31",
            "2024-09-31",
            "2024-11-31",
            "2024-1-01",
            "2024-01-1",
            "24-01-01",
            "20240101",
            "2024/01/01",
            "2024-01-01T00:00:00Z",
            " 2024-01-01",
            "2024-01-01 ",
            "+2024-01-01",
            "2024-0a-01",
            "２０２４-01-01",
        ];
        check("is_date", is_date, &good, &bad);
    }

    #[test]
    fn date_time() {
        let good = [
            "2024-05-01T10:00:00Z",
            "2024-05-01T10:00:00+02:00",
            "2024-05-01T10:00:00-05:30",
            "2024-05-01t10:00:00z",
            "2024-05-01T00:00:00Z",
            "2024-05-01T23:59:59Z",
            "2016-12-31T23:59:60Z",
            "2024-05-01T10:00:00.5Z",
            "2024-05-01T10:00:00.123456789+01:00",
            "2024-02-29T12:00:00Z",
            "2024-05-01T10:00:00+23:59",
            "2024-05-01T10:00:00-00:00",
            "1985-04-12T23:20:50.52Z",
        ];
        let bad = [
            "",
            "2024-05-01",
            "2024-05-01T24:00:00Z",
            "2024-05-01T10:60:00Z",
            "2024-05-01T10:00:61Z",
            "2024-05-01 10:00:00Z",
            "2024-05-01_10:00:00Z",
            "2024-05-01T10:00:00",
            "2024-05-01T10:00:00.Z",
            "2024-05-01T10:00:00.123",
            "2024-05-01T10:00Z",
            "2024-05-01T1:00:00Z",
            "2024-05-01T10:00:00+24:00",
            "2024-05-01T10:00:00+02:60",
            "2024-05-01T10:00:00+0200",
            "2024-05-01T10:00:00+02",
            "2024-05-01T10:00:00+02:00:00",
            "2024-05-01T10:00:00ZZ",
            "2024-05-01T10:00:00Z ",
            "2024-05-01T10:00:00UTC",
            "2023-02-29T10:00:00Z",
            "2024-13-01T10:00:00Z",
            "2024-05-01T10-00-00Z",
            "2024-05-01T10:00:00,5Z",
        ];
        check("is_date_time", is_date_time, &good, &bad);
    }

    #[test]
    fn validators_are_const_evaluable() {
        const EMAIL_OK: bool = is_email("a@b.c");
        const EMAIL_BAD: bool = is_email("a@@b.c");
        const URI_OK: bool = is_uri("mailto:x@y");
        const URI_BAD: bool = is_uri("//no-scheme");
        const DATE_OK: bool = is_date("2024-02-29");
        const DATE_BAD: bool = is_date("2023-02-29");
        const DATE_TIME_OK: bool = is_date_time("2024-05-01T10:00:00+02:00");
        const DATE_TIME_BAD: bool = is_date_time("2024-05-01T24:00:00Z");
        // Each `const` item above is computed by the compiler; the
        // `const` block makes any wrong answer a compile error.
        const {
            assert!(EMAIL_OK && !EMAIL_BAD);
            assert!(URI_OK && !URI_BAD);
            assert!(DATE_OK && !DATE_BAD);
            assert!(DATE_TIME_OK && !DATE_TIME_BAD);
        }
    }
}
