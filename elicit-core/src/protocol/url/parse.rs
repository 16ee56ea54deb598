//! Reading a URL: the whole-string checks, the scheme, the authority
//! (userinfo, host, port), and the path, query and fragment with their
//! parameters. The host itself is read by [`super::host`].
//!
//! Every step records what it finds in an [`Analysis`]; a step that must
//! stop the reading (nothing after it can be read reliably) returns
//! [`Stopped`], after recording the rejection.

use percent_encoding::percent_decode_str;

use super::analysis::{Analysis, Stopped};
use super::host::analyse_host;
use super::policy::{DANGEROUS_SCHEMES, UrlRejection, UrlWarning};
use crate::credential::looks_like_credential;
use crate::limits::MAX_URL_LEN;

/// Reads `url` as far as it can.
pub(super) fn analyse(url: &str) -> Analysis {
    let mut a = Analysis::default();
    // A stop is already recorded in `a`; nothing more to do with it.
    let _ = read(&mut a, url);
    a
}

/// The steps of [`analyse`], in URL order.
fn read(a: &mut Analysis, url: &str) -> Result<(), Stopped> {
    check_whole(a, url)?;
    let (scheme, after_colon) = read_scheme(a, url)?;
    let authority = split_authority(a, url, after_colon)?;
    let host = read_host_and_port(a, &authority)?;
    a.host_range = Some(host.start..host.start + host.text.len());
    analyse_host(a, host.text);
    apply_http_policy(a, &scheme);
    analyse_tail(a, authority.tail);
    Ok(())
}

/// The checks on the whole string: length, invisible characters, `\`.
fn check_whole(a: &mut Analysis, url: &str) -> Result<(), Stopped> {
    if url.is_empty() {
        return a.stop(UrlRejection::Empty);
    }
    if url.len() > MAX_URL_LEN {
        return a.stop(UrlRejection::TooLong {
            length: url.len(),
            max: MAX_URL_LEN,
        });
    }
    if let Some(character) = url.chars().find(|c| is_forbidden_char(*c)) {
        return a.stop(UrlRejection::ForbiddenCharacter { character });
    }
    if url.contains('\\') {
        return a.stop(UrlRejection::Backslash);
    }
    Ok(())
}

/// Controls, whitespace, and invisible or direction-changing characters.
fn is_forbidden_char(c: char) -> bool {
    c.is_control() || c.is_whitespace() || crate::protocol::printable::is_invisible(c)
}

/// Reads and judges the scheme: returns it lowercased, with the index just
/// after its `:`.
fn read_scheme(a: &mut Analysis, url: &str) -> Result<(String, usize), Stopped> {
    let Some(colon) = url.find(':') else {
        return a.stop(UrlRejection::Relative);
    };
    let scheme = &url[..colon];
    if !is_scheme(scheme) {
        return a.stop(UrlRejection::Relative);
    }
    let scheme = scheme.to_ascii_lowercase();
    a.scheme = Some(scheme.clone());
    if scheme != "https" {
        a.warn(UrlWarning::NotHttps {
            scheme: scheme.clone(),
        });
    }
    if DANGEROUS_SCHEMES.contains(&scheme.as_str()) {
        return a.stop(UrlRejection::DangerousScheme { scheme });
    }
    if scheme != "https" && scheme != "http" {
        a.refuse(UrlRejection::UnsupportedScheme {
            scheme: scheme.clone(),
        });
    }
    Ok((scheme, colon + 1))
}

/// RFC 3986 `scheme`: a letter, then letters, digits, `+`, `-` or `.`.
fn is_scheme(s: &str) -> bool {
    let mut bytes = s.bytes();
    bytes.next().is_some_and(|b| b.is_ascii_alphabetic())
        && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
}

/// The authority (`//...` up to the first `/`, `?` or `#`) and what follows.
struct Authority<'u> {
    /// The authority, without the `//`.
    text: &'u str,
    /// Where `text` starts in the URL.
    start: usize,
    /// The path, query and fragment.
    tail: &'u str,
}

fn split_authority<'u>(
    a: &mut Analysis,
    url: &'u str,
    after_colon: usize,
) -> Result<Authority<'u>, Stopped> {
    let Some(after) = url[after_colon..].strip_prefix("//") else {
        return a.stop(UrlRejection::MissingAuthority);
    };
    let end = after.find(['/', '?', '#']).unwrap_or(after.len());
    Ok(Authority {
        text: &after[..end],
        start: after_colon + 2,
        tail: &after[end..],
    })
}

/// The host as written, and where it starts in the URL.
struct HostText<'u> {
    text: &'u str,
    start: usize,
}

/// Splits off the userinfo (refused) and the port (checked), and returns
/// the host as written.
fn read_host_and_port<'u>(
    a: &mut Analysis,
    authority: &Authority<'u>,
) -> Result<HostText<'u>, Stopped> {
    let (hostport, hostport_start) = match authority.text.rfind('@') {
        Some(at) => {
            a.warn(UrlWarning::Userinfo);
            a.refuse(UrlRejection::Userinfo);
            (&authority.text[at + 1..], authority.start + at + 1)
        }
        None => (authority.text, authority.start),
    };
    let (host, port) = if hostport.starts_with('[') {
        match hostport.find(']') {
            Some(close) => hostport.split_at(close + 1),
            None => {
                return a.stop(UrlRejection::InvalidHost {
                    reason: "is an IPv6 address without its closing `]`",
                });
            }
        }
    } else {
        hostport.split_at(hostport.find(':').unwrap_or(hostport.len()))
    };
    if !port.is_empty() && !is_port(port) {
        a.refuse(UrlRejection::InvalidPort);
    }
    if host.is_empty() {
        return a.stop(UrlRejection::EmptyHost);
    }
    Ok(HostText {
        text: host,
        start: hostport_start,
    })
}

/// `:` followed by nothing or by a number up to 65535.
fn is_port(port: &str) -> bool {
    port.strip_prefix(':').is_some_and(|digits| {
        digits.bytes().all(|b| b.is_ascii_digit())
            && (digits.is_empty() || digits.parse::<u32>().is_ok_and(|p| p <= 65_535))
    })
}

/// `http` is development on a loopback host, refused elsewhere.
fn apply_http_policy(a: &mut Analysis, scheme: &str) {
    if scheme != "http" {
        return;
    }
    if a.loopback {
        a.development = true;
    } else {
        let host = a.host.clone().unwrap_or_default();
        a.refuse(UrlRejection::InsecureHttp { host });
    }
}

/// The path, query and fragment: their characters, and the names of the
/// query's and the fragment's parameters.
fn analyse_tail(a: &mut Analysis, tail: &str) {
    let (before_fragment, fragment) = match tail.split_once('#') {
        Some((before, fragment)) => (before, Some(fragment)),
        None => (tail, None),
    };
    let (path, query) = match before_fragment.split_once('?') {
        Some((path, query)) => (path, Some(query)),
        None => (before_fragment, None),
    };
    check_chars(a, path, false);
    check_chars(a, query.unwrap_or(""), false);
    if let Some(fragment) = fragment {
        check_chars(a, fragment, true);
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

/// Refuses non-ASCII, characters that must be percent-encoded, and `%`s not
/// followed by two hex digits.
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

/// Refuses (and warns about) parameters whose names look like credentials.
fn check_parameters(a: &mut Analysis, params: &str) {
    for pair in params.split(['&', ';']) {
        let raw_name = pair.split('=').next().unwrap_or("");
        if raw_name.is_empty() {
            continue;
        }
        let name = form_decode(raw_name);
        if looks_like_credential(&name) {
            a.warn(UrlWarning::CredentialParameter { name: name.clone() });
            a.refuse(UrlRejection::CredentialParameter { name });
        }
    }
}

/// Form-style decoding (`+` is a space, `%2B` a `+`); a `%` not followed by
/// two hex digits stays as it is, and invalid UTF-8 becomes U+FFFD.
fn form_decode(s: &str) -> String {
    // `+` is never part of a `%XX` escape, so it can be replaced first.
    let spaced = s.replace('+', " ");
    percent_decode_str(&spaced).decode_utf8_lossy().into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn form_decoding() {
        assert_eq!(form_decode("pass%77ord"), "password");
        assert_eq!(form_decode("a+b%2Bc"), "a b+c");
        assert_eq!(form_decode("%zz%e%"), "%zz%e%");
        assert_eq!(form_decode("%C3%A9"), "\u{e9}");
        assert_eq!(form_decode("%FF"), "\u{FFFD}");
        // A sign is not a hex digit.
        assert_eq!(form_decode("%+a"), "% a");
    }

    #[test]
    fn ports() {
        for good in [":", ":0", ":443", ":65535", ":008080"] {
            assert!(is_port(good), "{good}");
        }
        for bad in [
            ":65536",
            ":-1",
            ":+1",
            ":1a",
            "::1",
            "1",
            ":99999999999999999999",
        ] {
            assert!(!is_port(bad), "{bad}");
        }
    }
}
